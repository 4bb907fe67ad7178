//! Printing in CuTe's run-time format: no spaces, tuples in parentheses
//! (a rank-1 tuple too: `(4)`), a layout as `shape:stride`.

use crate::int_tuple::{IntTuple, Tok, Tree};
use crate::layout::Layout;
use crate::parse::UNDERSCORE;
use crate::tiler::Tiler;
use std::fmt::{self, Display, Write};

/// Writes a tree; `free` prints the slice marker as `_` (slice
/// coordinates), otherwise every leaf is a number.
pub(crate) fn write_tree(f: &mut impl Write, t: Tree<'_>, free: bool) -> fmt::Result {
    let mut vals = t.val.iter();
    // A comma goes before every element that follows a finished one.
    let mut after_element = false;
    for &k in t.tok {
        match k {
            Tok::Open => {
                if after_element {
                    f.write_char(',')?;
                }
                f.write_char('(')?;
                after_element = false;
            }
            Tok::Close => {
                f.write_char(')')?;
                after_element = true;
            }
            Tok::Leaf => {
                if after_element {
                    f.write_char(',')?;
                }
                match vals.next() {
                    Some(&UNDERSCORE) if free => f.write_char('_')?,
                    Some(&v) => write_int(f, v)?,
                    None => {}
                }
                after_element = true;
            }
        }
    }
    Ok(())
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
        write_tree(f, self.tree(), false)
    }
}

impl Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_tree(f, self.shape.tree(), false)?;
        f.write_char(':')?;
        write_tree(f, self.stride.tree(), false)
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
