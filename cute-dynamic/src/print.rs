//! Printing in CuTe's run-time format: no spaces, tuples in parentheses
//! (a rank-1 tuple too: `(4)`), a layout as `shape:stride`.

use crate::int_tuple::{IntTuple, Node, children};
use crate::layout::Layout;
use crate::parse::UNDERSCORE;
use crate::tiler::Tiler;
use std::fmt::{self, Display, Write};

/// Writes a tree; `free` prints the slice marker as `_` (slice
/// coordinates), otherwise every leaf is a number.
pub(crate) fn write_nodes(f: &mut impl Write, nodes: &[Node], free: bool) -> fmt::Result {
    match nodes[0] {
        Node::Leaf(UNDERSCORE) if free => f.write_char('_'),
        Node::Leaf(v) => write_int(f, v),
        Node::Tuple { .. } => {
            f.write_char('(')?;
            for (k, c) in children(nodes).enumerate() {
                if k > 0 {
                    f.write_char(',')?;
                }
                write_nodes(f, c, free)?;
            }
            f.write_char(')')
        }
    }
}

/// Writes an integer without the formatting machinery (printing is on the
/// benchmarked parse+print path).
fn write_int(f: &mut impl Write, v: i64) -> fmt::Result {
    let mut buf = [0u8; 20];
    let mut at = buf.len();
    let mut u = v.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        f.write_char('-')?;
    }
    // Only ASCII digits were written.
    f.write_str(std::str::from_utf8(&buf[at..]).unwrap_or_default())
}

impl Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_nodes(f, &self.nodes, false)
    }
}

impl Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_nodes(f, &self.shape.nodes, false)?;
        f.write_char(':')?;
        write_nodes(f, &self.stride.nodes, false)
    }
}

impl Display for Tiler {
    /// `<3:3,(2,4):(1,8)>` for a tuple of tiles; a bare layout prints as itself.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiler::Layout(l) => Display::fmt(l, f),
            Tiler::Tuple(ts) => {
                f.write_char('<')?;
                for (k, t) in ts.iter().enumerate() {
                    if k > 0 {
                        f.write_char(',')?;
                    }
                    Display::fmt(t, f)?;
                }
                f.write_char('>')
            }
        }
    }
}
