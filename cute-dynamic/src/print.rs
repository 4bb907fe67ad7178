//! Printing in CuTe's run-time format: no spaces, tuples in parentheses
//! (a rank-1 tuple too: `(4)`), a layout as `shape:stride`.

use crate::int_tuple::{IntTuple, Tok, Tree};
use crate::layout::Layout;
use crate::parse::UNDERSCORE;
use crate::tiler::Tiler;
use std::fmt::{self, Display, Write};

/// Writes a tree; `free` prints the slice marker as `_` (slice
/// coordinates), otherwise every leaf is a number.
pub(crate) fn write_tree<W: Write + ?Sized>(f: &mut Buffered<'_, W>, t: Tree<'_>, free: bool) -> fmt::Result {
    let mut vals = t.val.iter();
    // A comma goes before every element that follows a finished one.
    let mut after_element = false;
    for &k in t.tok {
        match k {
            Tok::Open => {
                if after_element {
                    f.byte(b',')?;
                }
                f.byte(b'(')?;
                after_element = false;
            }
            Tok::Close => {
                f.byte(b')')?;
                after_element = true;
            }
            Tok::Leaf => {
                if after_element {
                    f.byte(b',')?;
                }
                match vals.next() {
                    Some(&UNDERSCORE) if free => f.byte(b'_')?,
                    Some(&v) => f.int(v)?,
                    None => {}
                }
                after_element = true;
            }
        }
    }
    Ok(())
}

/// The room for the longest integer, `-9223372036854775808`.
const INT_ROOM: usize = 20;

/// ASCII text gathered on the stack and handed on in a few large pieces:
/// every write through a `Formatter` is an indirect call, one per character
/// otherwise. The text of a tree is all ASCII, so bytes are written as they
/// are, and integers without the formatting machinery.
pub(crate) struct Buffered<'a, W: Write + ?Sized> {
    out: &'a mut W,
    buf: [u8; 128],
    len: usize,
}

impl<'a, W: Write + ?Sized> Buffered<'a, W> {
    fn new(out: &'a mut W) -> Self {
        Buffered { out, buf: [0; 128], len: 0 }
    }

    /// Hands on what is gathered.
    fn flush(&mut self) -> fmt::Result {
        // Only ASCII is gathered, so this is valid UTF-8.
        let text = std::str::from_utf8(&self.buf[..self.len]).map_err(|_| fmt::Error)?;
        self.len = 0;
        self.out.write_str(text)
    }

    /// Writes one ASCII character.
    #[inline]
    pub(crate) fn byte(&mut self, b: u8) -> fmt::Result {
        if self.len == self.buf.len() {
            self.flush()?;
        }
        *self.buf.get_mut(self.len).ok_or(fmt::Error)? = b;
        self.len += 1;
        Ok(())
    }

    /// Writes an integer in decimal.
    #[inline]
    pub(crate) fn int(&mut self, v: i64) -> fmt::Result {
        if self.len + INT_ROOM > self.buf.len() {
            self.flush()?;
        }
        if v < 0 {
            self.byte(b'-')?;
        }
        let mut u = v.unsigned_abs();
        if u < 10 {
            // Most shapes and strides.
            return self.byte(b'0' + u as u8);
        }
        let end = self.len + u.checked_ilog10().unwrap_or(0) as usize + 1;
        for d in self.buf.get_mut(self.len..end).ok_or(fmt::Error)?.iter_mut().rev() {
            *d = b'0' + (u % 10) as u8;
            u /= 10;
        }
        self.len = end;
        Ok(())
    }
}

/// Runs `body` on a [`Buffered`] writer over `f`, then hands on the rest:
/// how every `Display` of a tree writes.
pub(crate) fn buffered<W: Write + ?Sized>(
    f: &mut W,
    body: impl FnOnce(&mut Buffered<'_, W>) -> fmt::Result,
) -> fmt::Result {
    let mut out = Buffered::new(f);
    body(&mut out)?;
    out.flush()
}

impl Display for IntTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        buffered(f, |out| write_tree(out, self.tree(), false))
    }
}

impl Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        buffered(f, |out| {
            write_tree(out, self.shape.tree(), false)?;
            out.byte(b':')?;
            write_tree(out, self.stride.tree(), false)
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Text longer than the stack buffer is handed on in several pieces, and
    /// an integer is never cut between two.
    #[test]
    fn long_text_prints_whole() {
        let t = IntTuple::flat((1..=60).map(|k| k * 1_000_000_007));
        let text = t.to_string();
        assert!(text.len() > 3 * 128, "{}", text.len());
        let expected =
            format!("({})", (1..=60).map(|k| (k * 1_000_000_007i64).to_string()).collect::<Vec<_>>().join(","));
        assert_eq!(text, expected);
        let again: IntTuple = text.parse().unwrap();
        assert_eq!(again, t);

        // Integers at the edge of the buffer: each one whole, in one piece
        // or the next.
        let mut out = String::new();
        let mut b = Buffered::new(&mut out);
        let mut expected = String::new();
        for k in 0..200 {
            let v = [i64::MIN, i64::MAX, -1, 0, 9, 10, 99, 100][k % 8];
            b.int(v).unwrap();
            b.byte(b',').unwrap();
            expected.push_str(&format!("{v},"));
        }
        b.flush().unwrap();
        assert_eq!(out, expected);
    }
}
