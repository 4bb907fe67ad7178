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
    // Digit by digit: a `str` of the digits would be checked as UTF-8.
    for &d in &buf[at..] {
        f.write_char(char::from(d))?;
    }
    Ok(())
}

/// Text gathered on the stack and handed on in a few large pieces: every
/// write through a `Formatter` is an indirect call, one per character
/// otherwise.
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
        // Only whole `str`s are gathered, so this is valid UTF-8.
        let text = std::str::from_utf8(&self.buf[..self.len]).map_err(|_| fmt::Error)?;
        self.len = 0;
        self.out.write_str(text)
    }
}

impl<W: Write + ?Sized> Write for Buffered<'_, W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.len + s.len() > self.buf.len() {
            self.flush()?;
            if s.len() > self.buf.len() {
                return self.out.write_str(s);
            }
        }
        self.buf[self.len..self.len + s.len()].copy_from_slice(s.as_bytes());
        self.len += s.len();
        Ok(())
    }

    #[inline]
    fn write_char(&mut self, c: char) -> fmt::Result {
        match u8::try_from(c) {
            Ok(b) if b.is_ascii() && self.len < self.buf.len() => {
                self.buf[self.len] = b;
                self.len += 1;
                Ok(())
            }
            _ => self.write_str(c.encode_utf8(&mut [0; 4])),
        }
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
            out.write_char(':')?;
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
    /// a single piece longer than the buffer goes straight through.
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

        let mut out = String::new();
        let mut b = Buffered::new(&mut out);
        b.write_str("(").unwrap();
        b.write_str(&"7,".repeat(100)).unwrap();
        b.write_char('é').unwrap();
        b.write_char(')').unwrap();
        b.flush().unwrap();
        assert_eq!(out, format!("({}é)", "7,".repeat(100)));
    }
}
