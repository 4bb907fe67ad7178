//! Slicing with `_` (paper 2.5.1, Figure 5).

use crate::error::{LayoutError, Result};
use crate::int_tuple::{Builder, IntTuple, Node, Nodes, children, leaves, span};
use crate::layout::{Layout, Modes, eval_modes};
use crate::parse::{Parser, UNDERSCORE};
use std::fmt;
use std::str::FromStr;

/// A coordinate in which some modes are left free with `_`, e.g.
/// `(2,((0,_),_))`. Parse it with `str::parse`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SliceCoord {
    nodes: Nodes,
}

impl SliceCoord {
    /// A coordinate without free modes.
    pub fn from_int_tuple(t: &IntTuple) -> SliceCoord {
        SliceCoord { nodes: t.nodes.clone() }
    }

    pub(crate) fn from_nodes(nodes: Nodes) -> SliceCoord {
        SliceCoord { nodes }
    }
}

impl fmt::Display for SliceCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::print::write_nodes(f, &self.nodes, true)
    }
}

impl fmt::Debug for SliceCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SliceCoord({self})")
    }
}

impl FromStr for SliceCoord {
    type Err = LayoutError;
    fn from_str(s: &str) -> Result<SliceCoord> {
        let mut p = Parser::new(s);
        let mut nodes = Nodes::new();
        p.tuple_into(&mut nodes, true)?;
        p.expect_end()?;
        Ok(SliceCoord { nodes })
    }
}

/// Partial evaluation (paper eq. 10): `L(c' + c*) = (L(c')) + L*(c*)`.
/// Returns the offset `L(c')` of the fixed part of the coordinate and the
/// sublayout `L*` of the free (`_`) part.
///
/// The sublayout keeps the nesting of the free modes; a tuple left with one
/// free mode is replaced by that mode, and a coordinate with no `_` leaves
/// the layout `1:0`.
///
/// Post-conditions: for every coordinate `k` of the sublayout, with `c(k)`
/// the coordinate that fills the `_` of `c` with `k`'s parts in order,
/// `offset + sub(k) == L(c(k))`; `size(sub)` is the product of the sizes of
/// the free modes.
///
/// Errors: `RankMismatch` where the coordinate has a tuple the layout does
/// not, `OutOfBounds` for a fixed integer outside its mode.
///
/// ```
/// use cute_dynamic::{Layout, SliceCoord, slice};
/// let a: Layout = "((3,2),((2,3),2)):((4,1),((2,15),100))".parse().unwrap();
/// let c: SliceCoord = "(2,((0,_),_))".parse().unwrap();
/// let (off, sub) = slice(&a, &c).unwrap();
/// assert_eq!((off, sub.to_string().as_str()), (8, "(3,2):(15,100)"));
/// ```
pub fn slice(layout: &Layout, coord: &SliceCoord) -> Result<(i64, Layout)> {
    let mut offset = 0i64;
    let kept =
        slice_nodes(&coord.nodes, &layout.shape.nodes, &layout.stride.nodes, &mut offset).map_err(|e| match e {
            SliceErr::Rank => LayoutError::RankMismatch {
                what: format!("slice of {layout} at {coord}"),
                expected: layout.rank(),
                found: crate::int_tuple::IntTuple::from_nodes(coord.nodes.clone()).rank(),
            },
            SliceErr::Bounds => LayoutError::OutOfBounds { coord: coord.to_string(), shape: layout.shape.to_string() },
        })?;
    let sub = kept.unwrap_or_else(|| Layout::from_parts(IntTuple::int(1), IntTuple::int(0)));
    Ok((offset, sub))
}

enum SliceErr {
    Rank,
    Bounds,
}

fn slice_nodes(c: &[Node], s: &[Node], d: &[Node], offset: &mut i64) -> std::result::Result<Option<Layout>, SliceErr> {
    match c[0] {
        Node::Leaf(UNDERSCORE) => Ok(Some(Layout::from_parts(
            IntTuple::from_nodes(s[..span(s)].iter().copied().collect()),
            IntTuple::from_nodes(d[..span(d)].iter().copied().collect()),
        ))),
        Node::Leaf(i) => {
            let modes: Modes = leaves(&s[..span(s)]).zip(leaves(&d[..span(d)])).collect();
            let size: i64 = modes.iter().map(|m| m.0).product();
            if i < 0 || i >= size {
                return Err(SliceErr::Bounds);
            }
            *offset += eval_modes(&modes, i);
            Ok(None)
        }
        Node::Tuple { rank, .. } => {
            match s[0] {
                Node::Tuple { rank: rs, .. } if rs == rank => {}
                _ => return Err(SliceErr::Rank),
            }
            let mut kept: smallvec::SmallVec<[Layout; 4]> = smallvec::SmallVec::new();
            for ((ci, si), di) in children(c).zip(children(s)).zip(children(d)) {
                if let Some(l) = slice_nodes(ci, si, di, offset)? {
                    kept.push(l);
                }
            }
            Ok(match kept.len() {
                0 => None,
                1 => kept.pop(),
                _ => {
                    let mut bs = Builder::new();
                    let mut bd = Builder::new();
                    bs.open();
                    bd.open();
                    for l in &kept {
                        bs.push_tree(&l.shape.nodes);
                        bd.push_tree(&l.stride.nodes);
                    }
                    bs.close();
                    bd.close();
                    Some(Layout::from_parts(bs.finish(), bd.finish()))
                }
            })
        }
    }
}
