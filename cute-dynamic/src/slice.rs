//! Slicing with `_` (paper 2.5.1, Figure 5).

use crate::error::{LayoutError, Result};
use crate::int_tuple::{IntTuple, Tree};
use crate::layout::{Layout, eval_vals};
use crate::parse::{Parser, UNDERSCORE};
use std::fmt;
use std::str::FromStr;

/// A coordinate in which some modes are left free with `_`, e.g.
/// `(2,((0,_),_))`. Parse it with `str::parse`.
///
/// ```
/// use cute_dynamic::{Layout, SliceCoord, slice};
/// let c: SliceCoord = "( 2 , _ )".parse()?;
/// assert_eq!(c.to_string(), "(2,_)");
/// // Row 2 of a column-major 4×8 layout: offset 2, then its 8 columns at stride 4.
/// let (offset, row) = slice(&"(4,8):(1,4)".parse::<Layout>()?, &c)?;
/// assert_eq!((offset, row.to_string().as_str()), (2, "8:4"));
/// assert!("(2,_".parse::<SliceCoord>().is_err());
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SliceCoord {
    /// The coordinate, with [`UNDERSCORE`] leaves for the free modes.
    pub(crate) coord: IntTuple,
}

impl SliceCoord {
    /// A coordinate without free modes.
    ///
    /// ```
    /// use cute_dynamic::{Layout, SliceCoord, slice};
    /// let c = SliceCoord::from_int_tuple(&"(1,2)".parse()?);
    /// assert_eq!(c, "(1,2)".parse::<SliceCoord>()?);
    /// let (off, sub) = slice(&"(4,8):(1,4)".parse::<Layout>()?, &c)?;
    /// assert_eq!((off, sub.to_string().as_str()), (9, "1:0")); // no free mode
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn from_int_tuple(t: &IntTuple) -> SliceCoord {
        SliceCoord { coord: t.clone() }
    }

    /// A coordinate whose [`UNDERSCORE`] leaves are free modes.
    pub(crate) fn from_marked(coord: IntTuple) -> SliceCoord {
        SliceCoord { coord }
    }
}

impl fmt::Display for SliceCoord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::print::buffered(f, |out| crate::print::write_tree::<true, _>(out, self.coord.tree()))
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
        let mut coord = IntTuple::empty();
        p.tuple_into(&mut coord, true)?;
        p.expect_end()?;
        Ok(SliceCoord { coord })
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
        slice_tree(coord.coord.tree(), layout.shape.tree(), layout.stride.tree(), &mut offset).map_err(
            |e| match e {
                SliceErr::Rank => LayoutError::RankMismatch {
                    what: format!("slice of {layout} at {coord}"),
                    expected: layout.rank(),
                    found: coord.coord.rank(),
                },
                SliceErr::Bounds => {
                    LayoutError::OutOfBounds { coord: coord.to_string(), shape: layout.shape.to_string() }
                }
            },
        )?;
    let sub = kept.unwrap_or_else(|| Layout::from_parts(IntTuple::int(1), IntTuple::int(0)));
    Ok((offset, sub))
}

enum SliceErr {
    Rank,
    Bounds,
}

/// Slices the subtree `s:d` of the layout at the subtree `c` of the coordinate.
fn slice_tree(
    c: Tree<'_>,
    s: Tree<'_>,
    d: Tree<'_>,
    offset: &mut i64,
) -> std::result::Result<Option<Layout>, SliceErr> {
    match c.leaf() {
        Some(UNDERSCORE) => return Ok(Some(Layout::from_parts(s.to_int_tuple(), d.to_int_tuple()))),
        Some(i) => {
            let size: i64 = s.val.iter().product();
            if i < 0 || i >= size {
                return Err(SliceErr::Bounds);
            }
            *offset += eval_vals(s.val, d.val, i);
            return Ok(None);
        }
        None => {}
    }
    if s.leaf().is_some() || c.rank() != s.rank() {
        return Err(SliceErr::Rank);
    }
    let mut kept: smallvec::SmallVec<[Layout; 4]> = smallvec::SmallVec::new();
    for ((ci, si), di) in c.children().zip(s.children()).zip(d.children()) {
        if let Some(l) = slice_tree(ci, si, di, offset)? {
            kept.push(l);
        }
    }
    Ok(match kept.len() {
        0 => None,
        1 => kept.pop(),
        _ => {
            let mut l = Layout::empty();
            l.open();
            for k in &kept {
                l.push_layout(k);
            }
            l.close();
            Some(l)
        }
    })
}

/// CuTe's `slice_and_offset(c, L)`: the sublayout of the free (`_`) modes
/// and the offset of the fixed part, grouped as CuTe groups them.
///
/// The rule (CuTe's `slice` of a tuple, used by tensor slicing): a bare `_`
/// keeps the whole layout; otherwise the sublayout is the flat tuple of the
/// subtrees under each `_`, in order, whatever the nesting of the
/// coordinate around them. So one free mode is a rank-1 layout
/// (`A(2,_)` of a rank-2 `A` is `((2,5,2)):((2,13,100))`). A coordinate
/// with no `_` gives the one-element layout `1:0`, as [`slice()`] does (CuTe's
/// is the empty layout).
///
/// This differs from [`slice()`] only in grouping: [`slice()`] follows the
/// paper's Figure 5, which keeps the nesting of the free modes and replaces
/// a tuple with one free mode by that mode. Both are the same function.
///
/// Post-conditions: with `c(k)` the coordinate that fills the `_` of `c`
/// with the parts of `k` in order, `offset + sub(k) == L(c(k))` for every
/// `k`; the rank of `sub` is the number of `_` in `c` (unless `c` is `_`).
///
/// Errors: as [`slice()`].
///
/// ```
/// use cute_dynamic::{Layout, SliceCoord, slice_and_offset};
/// let a: Layout = "((3,2),(2,5,2)):((4,1),(2,13,100))".parse().unwrap();
/// let (sub, off) = slice_and_offset(&a, &"(2,_)".parse().unwrap()).unwrap();
/// assert_eq!((sub.to_string().as_str(), off), ("((2,5,2)):((2,13,100))", 8));
/// let (sub, off) = slice_and_offset(&a, &"((_,1),(_,_,1))".parse().unwrap()).unwrap();
/// assert_eq!((sub.to_string().as_str(), off), ("(3,2,5):(4,2,13)", 101));
/// ```
pub fn slice_and_offset(layout: &Layout, coord: &SliceCoord) -> Result<(Layout, i64)> {
    let c = coord.coord.tree();
    if c.leaf() == Some(UNDERSCORE) {
        return Ok((layout.clone(), 0));
    }
    let mut offset = 0i64;
    let mut sub = Layout::empty();
    sub.open();
    let mut free = 0usize;
    gather_free(c, layout.shape.tree(), layout.stride.tree(), &mut offset, &mut sub, &mut free).map_err(
        |e| match e {
            SliceErr::Rank => LayoutError::RankMismatch {
                what: format!("slice of {layout} at {coord}"),
                expected: layout.rank(),
                found: coord.coord.rank(),
            },
            SliceErr::Bounds => LayoutError::OutOfBounds { coord: coord.to_string(), shape: layout.shape.to_string() },
        },
    )?;
    sub.close();
    if free == 0 {
        return Ok((Layout::from_parts(IntTuple::int(1), IntTuple::int(0)), offset));
    }
    Ok((sub, offset))
}

/// Appends the subtree under each `_` of `c` to `out` as one mode, and adds
/// the offset of each fixed integer.
fn gather_free(
    c: Tree<'_>,
    s: Tree<'_>,
    d: Tree<'_>,
    offset: &mut i64,
    out: &mut Layout,
    free: &mut usize,
) -> std::result::Result<(), SliceErr> {
    match c.leaf() {
        Some(UNDERSCORE) => {
            out.shape.push_tree(s);
            out.stride.push_tree(d);
            *free += 1;
            return Ok(());
        }
        Some(i) => {
            let size: i64 = s.val.iter().product();
            if i < 0 || i >= size {
                return Err(SliceErr::Bounds);
            }
            *offset += eval_vals(s.val, d.val, i);
            return Ok(());
        }
        None => {}
    }
    if s.leaf().is_some() || c.rank() != s.rank() {
        return Err(SliceErr::Rank);
    }
    for ((ci, si), di) in c.children().zip(s.children()).zip(d.children()) {
        gather_free(ci, si, di, offset, out, free)?;
    }
    Ok(())
}
