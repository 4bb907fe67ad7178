//! Printing in CuTe's run-time format: no spaces, tuples in parentheses
//! (a rank-1 tuple too: `(4)`), a layout as `shape:stride`.

use crate::int_tuple::{IntTuple, Tok, Tree};
use crate::layout::Layout;
use crate::parse::UNDERSCORE;
use crate::tiler::Tiler;
use std::fmt::{self, Display, Write};
use std::mem::MaybeUninit;

/// Writes a tree; `free` prints the slice marker as `_` (slice
/// coordinates), otherwise every leaf is a number. A tree whose longest
/// text fits the room left is written in one pass with the length in a
/// register; a longer one token by token, handed on as the buffer fills.
pub(crate) fn write_tree<W: Write + ?Sized>(f: &mut Buffered<'_, W>, t: Tree<'_>, free: bool) -> fmt::Result {
    if t.tok.len() * TOKEN_ROOM <= BUF_ROOM - f.len {
        f.len = tree_text(&mut f.buf, f.len, t, free);
        return Ok(());
    }
    let mut after_element = false;
    let mut v = 0;
    for (k, &tok) in t.tok.iter().enumerate() {
        f.reserve()?;
        let one = Tree { tok: &t.tok[k..=k], val: t.val.get(v..).unwrap_or(&[]) };
        // One token at a time: the comma before it is decided here.
        if after_element && tok != Tok::Close {
            f.put(b',');
        }
        f.len = tree_text(&mut f.buf, f.len, one, free);
        after_element = tok != Tok::Open;
        v += usize::from(tok == Tok::Leaf);
    }
    Ok(())
}

/// Writes the text of the tokens `t.tok` (with their leaves `t.val`) into
/// `buf` from `n` on, a comma before every element that follows a finished
/// one; returns the new length. The caller makes room for
/// [`TOKEN_ROOM`] bytes per token (what does not fit is left out).
#[inline(always)]
fn tree_text(buf: &mut [MaybeUninit<u8>; BUF_ROOM], mut n: usize, t: Tree<'_>, free: bool) -> usize {
    let mut vals = t.val.iter();
    let mut after_element = false;
    for &k in t.tok {
        if after_element && k != Tok::Close {
            put(buf, &mut n, b',');
        }
        match k {
            Tok::Open => {
                put(buf, &mut n, b'(');
                after_element = false;
                continue;
            }
            Tok::Close => put(buf, &mut n, b')'),
            Tok::Leaf => match vals.next() {
                Some(&UNDERSCORE) if free => put(buf, &mut n, b'_'),
                Some(&v) => put_int(buf, &mut n, v),
                None => {}
            },
        }
        after_element = true;
    }
    n
}

/// Writes one ASCII byte at `*n` (nothing past the end).
#[inline(always)]
fn put(buf: &mut [MaybeUninit<u8>; BUF_ROOM], n: &mut usize, b: u8) {
    if let Some(slot) = buf.get_mut(*n) {
        slot.write(b);
        *n += 1;
    }
}

/// Writes an integer in decimal at `*n` (nothing past the end).
#[inline(always)]
fn put_int(buf: &mut [MaybeUninit<u8>; BUF_ROOM], n: &mut usize, v: i64) {
    if v < 0 {
        put(buf, n, b'-');
    }
    let mut u = v.unsigned_abs();
    if u < 10 {
        // Most shapes and strides.
        return put(buf, n, b'0' + u as u8);
    }
    let end = *n + u.ilog10() as usize + 1;
    if let Some(digits) = buf.get_mut(*n..end) {
        for d in digits.iter_mut().rev() {
            d.write(b'0' + (u % 10) as u8);
            u /= 10;
        }
        *n = end;
    }
}

/// The most one token writes: a comma and the longest integer,
/// `-9223372036854775808`.
const TOKEN_ROOM: usize = 21;

/// Room of the stack buffer: a whole layout of the inline size (30 tokens
/// of each tree, at most 10 of them integers) fits, so it is handed on in
/// one piece.
const BUF_ROOM: usize = 512;

/// ASCII text gathered on the stack and handed on in a few large pieces:
/// every write through a `Formatter` is an indirect call, one per character
/// otherwise. The text of a tree is all ASCII, so bytes are written as they
/// are, and integers without the formatting machinery.
pub(crate) struct Buffered<'a, W: Write + ?Sized> {
    out: &'a mut W,
    /// Bytes `..len` are written; the rest is never read (so never zeroed).
    buf: [MaybeUninit<u8>; BUF_ROOM],
    len: usize,
}

impl<'a, W: Write + ?Sized> Buffered<'a, W> {
    fn new(out: &'a mut W) -> Self {
        Buffered { out, buf: [const { MaybeUninit::uninit() }; BUF_ROOM], len: 0 }
    }

    /// Hands on what is gathered.
    fn flush(&mut self) -> fmt::Result {
        let bytes = self.buf.get(..self.len).ok_or(fmt::Error)?;
        // SAFETY: `len` only grows past a byte once `put` or `put_int` has
        // written it (`MaybeUninit::write`), so `bytes` is initialised; they
        // write ASCII bytes only (`,()_:-`, digits), so it is valid UTF-8.
        // `[MaybeUninit<u8>]` has the layout of `[u8]`.
        #[allow(unsafe_code)]
        let text = unsafe { std::str::from_utf8_unchecked(&*(std::ptr::from_ref(bytes) as *const [u8])) };
        self.len = 0;
        self.out.write_str(text)
    }

    /// Makes room for one token ([`TOKEN_ROOM`] bytes), handing on what is
    /// gathered when the buffer is nearly full.
    #[inline(always)]
    pub(crate) fn reserve(&mut self) -> fmt::Result {
        if self.len + TOKEN_ROOM > BUF_ROOM { self.flush() } else { Ok(()) }
    }

    /// Writes one ASCII character, within the room reserved.
    #[inline(always)]
    pub(crate) fn put(&mut self, b: u8) {
        put(&mut self.buf, &mut self.len, b);
    }

    /// Writes one ASCII character.
    #[inline]
    pub(crate) fn byte(&mut self, b: u8) -> fmt::Result {
        self.reserve()?;
        self.put(b);
        Ok(())
    }

    /// Writes an integer in decimal.
    #[cfg(test)]
    pub(crate) fn int(&mut self, v: i64) -> fmt::Result {
        self.reserve()?;
        put_int(&mut self.buf, &mut self.len, v);
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
