//! Printing in CuTe's run-time format: no spaces, tuples in parentheses
//! (a rank-1 tuple too: `(4)`), a layout as `shape:stride`.

#[cfg(test)]
use crate::int_tuple::LEAF;
use crate::int_tuple::{IntTuple, Tok, Tree, WordToks};
use crate::layout::Layout;
use crate::parse::UNDERSCORE;
use crate::tiler::Tiler;
use std::fmt::{self, Display, Write};
use std::mem::MaybeUninit;

/// Writes a tree; `FREE` prints the slice marker as `_` (slice
/// coordinates), otherwise every leaf is a number. A tree whose longest
/// text fits the room left is written in one pass with the length in a
/// register; a longer one token by token, handed on as the buffer fills.
pub(crate) fn write_tree<const FREE: bool, W: Write + ?Sized>(f: &mut Buffered<'_, W>, t: Tree<'_>) -> fmt::Result {
    if text_room(t) <= BUF_ROOM - f.len {
        f.len = tree_text::<FREE>(&mut f.buf, f.len, t);
        return Ok(());
    }
    let mut after_element = false;
    let mut v = 0;
    for (k, tok) in t.tok.iter().enumerate() {
        f.reserve()?;
        // Its own value only, so that its room is one token's.
        let val = if tok == Tok::Leaf { t.val.get(v..=v).unwrap_or(&[]) } else { &[] };
        let one = Tree { tok: t.tok.slice(k, k + 1), val };
        // One token at a time: the comma before it is decided here.
        if after_element && tok != Tok::Close {
            f.put(b',');
        }
        f.len = tree_text::<FREE>(&mut f.buf, f.len, one);
        after_element = tok != Tok::Open;
        v += usize::from(tok == Tok::Leaf);
    }
    Ok(())
}

/// The most bytes the text of `t` takes: a tuple's token at most 2 (`,(`),
/// a leaf at most [`TOKEN_ROOM`] (a comma and `-9223372036854775808`), and
/// there are at most as many leaves as values.
#[cfg_attr(not(debug_assertions), inline(always))]
fn text_room(t: Tree<'_>) -> usize {
    2 * t.tok.len() + (TOKEN_ROOM - 2) * t.val.len()
}

/// Writes the text of the tokens `t.tok` (with their leaves `t.val`) into
/// `buf` from `n` on, a comma before every element that follows a finished
/// one; returns the new length. The caller makes room for
/// [`text_room`] bytes (without it nothing is written). The room is
/// checked once for the whole text, then every byte is stored without a
/// check and without a branch for the comma (it is stored, then kept or
/// overwritten).
#[cfg_attr(not(debug_assertions), inline(always))]
fn tree_text<const FREE: bool>(buf: &mut [MaybeUninit<u8>; BUF_ROOM], n: usize, t: Tree<'_>) -> usize {
    let Some(room) = buf.get_mut(n..).filter(|r| r.len() >= text_room(t)) else {
        return n;
    };
    // A tree of up to 32 tokens (every inline one) walks its one word.
    // SAFETY: `room` holds `text_room(t)` bytes (checked above), and each
    // iterator yields the `t.tok.len()` tokens of `t` (the word holds
    // exactly those, the bits above them clear).
    #[allow(unsafe_code)]
    unsafe {
        n + match t.tok.word() {
            Some(word) => tokens_text::<FREE>(room, WordToks(word), t.val),
            None => tokens_text::<FREE>(room, t.tok.iter(), t.val),
        }
    }
}

/// [`tree_text`] of the tokens `toks` with the leaves `vals` into `room`;
/// returns the bytes written.
///
/// # Safety
///
/// `room` holds at least `2 * n + (TOKEN_ROOM - 2) * vals.len()` bytes
/// ([`text_room`]), where `n` is the number of tokens `toks` yields.
#[cfg_attr(not(debug_assertions), inline(always))]
#[allow(unsafe_code)]
unsafe fn tokens_text<const FREE: bool>(
    room: &mut [MaybeUninit<u8>],
    toks: impl Iterator<Item = Tok>,
    vals: &[i64],
) -> usize {
    let out = room.as_mut_ptr().cast::<u8>();
    let mut w = 0usize;
    let mut v = 0usize;
    // A comma goes before the next element: one has just finished.
    let mut comma = false;
    for k in toks {
        // SAFETY: `out` points at `room`, which holds `2 * n + (TOKEN_ROOM
        // - 2) * vals.len()` bytes for the `n` tokens read (the caller's
        // promise). A tuple's token stores at most 2 bytes from `w` on and
        // a leaf with a value at most `TOKEN_ROOM` (a comma, a sign and 19
        // digits), one without a value 1; each moves `w` past at most what
        // it stores; and at most `vals.len()` leaves take a value. So every
        // store lands within that room.
        // Writing a byte through `*mut u8` into `MaybeUninit<u8>` storage
        // is allowed.
        #[allow(unsafe_code)]
        unsafe {
            match k {
                Tok::Open => {
                    out.add(w).write(b',');
                    w += usize::from(comma);
                    out.add(w).write(b'(');
                    w += 1;
                    comma = false;
                }
                Tok::Close => {
                    out.add(w).write(b')');
                    w += 1;
                    comma = true;
                }
                _ => {
                    out.add(w).write(b',');
                    w += usize::from(comma);
                    comma = true;
                    let Some(&x) = vals.get(v) else { continue };
                    v += 1;
                    if FREE && x == UNDERSCORE {
                        out.add(w).write(b'_');
                        w += 1;
                        continue;
                    }
                    out.add(w).write(b'-');
                    w += usize::from(x < 0);
                    let mut u = x.unsigned_abs();
                    if u < 10 {
                        // Most shapes and strides.
                        out.add(w).write(b'0' + u as u8);
                        w += 1;
                    } else if u < 100 {
                        out.add(w).write(b'0' + (u / 10) as u8);
                        out.add(w + 1).write(b'0' + (u % 10) as u8);
                        w += 2;
                    } else {
                        // The digits from the last, each stored at most
                        // 19 bytes from `w`.
                        w += u.ilog10() as usize + 1;
                        let mut e = w;
                        while u > 0 {
                            e -= 1;
                            out.add(e).write(b'0' + (u % 10) as u8);
                            u /= 10;
                        }
                    }
                }
            }
        }
    }
    w
}

/// Writes one ASCII byte at `*n` (nothing past the end).
#[cfg_attr(not(debug_assertions), inline(always))]
fn put(buf: &mut [MaybeUninit<u8>; BUF_ROOM], n: &mut usize, b: u8) {
    if let Some(slot) = buf.get_mut(*n) {
        slot.write(b);
        *n += 1;
    }
}

/// The most one token writes: a comma and the longest integer,
/// `-9223372036854775808`.
const TOKEN_ROOM: usize = 21;

/// Room of the stack buffer: a whole layout of the inline size (28 tokens
/// of each tree, at most 8 of them integers: 2 * 208 bytes and the `:`,
/// by [`text_room`]) fits, so it is handed on in one piece.
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
        // SAFETY: `len` only grows past a byte once `put` or `tree_text`
        // has written it, so `bytes` is initialised; they
        // write ASCII bytes only (`,()_:-`, digits), so it is valid UTF-8.
        // `[MaybeUninit<u8>]` has the layout of `[u8]`.
        #[allow(unsafe_code)]
        let text = unsafe { std::str::from_utf8_unchecked(&*(std::ptr::from_ref(bytes) as *const [u8])) };
        self.len = 0;
        self.out.write_str(text)
    }

    /// Makes room for one token and the comma before it ([`TOKEN_ROOM`]
    /// bytes and one: [`tree_text`] of a leaf asks for the whole
    /// `TOKEN_ROOM` after the comma is written), handing on what is
    /// gathered when the buffer is nearly full.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn reserve(&mut self) -> fmt::Result {
        if self.len + TOKEN_ROOM + 1 > BUF_ROOM { self.flush() } else { Ok(()) }
    }

    /// Writes one ASCII character, within the room reserved.
    #[cfg_attr(not(debug_assertions), inline(always))]
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
        self.len = tree_text::<false>(&mut self.buf, self.len, Tree { tok: LEAF, val: &[v] });
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
        buffered(f, |out| write_tree::<false, _>(out, self.tree()))
    }
}

impl Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        buffered(f, |out| {
            let (shape, stride) = (self.shape.tree(), self.stride.tree());
            if text_room(shape) + 1 + text_room(stride) <= BUF_ROOM - out.len {
                // The whole text fits (every layout of the inline size):
                // one check of the room for both trees.
                out.len = tree_text::<false>(&mut out.buf, out.len, shape);
                out.put(b':');
                out.len = tree_text::<false>(&mut out.buf, out.len, stride);
                return Ok(());
            }
            write_tree::<false, _>(out, shape)?;
            out.byte(b':')?;
            write_tree::<false, _>(out, stride)
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

    /// The text of a tree, built the plain way: `format!` of each integer.
    fn reference(t: Tree<'_>) -> String {
        let mut out = String::new();
        let mut vals = t.val.iter();
        let mut comma = false;
        for k in t.tok.iter() {
            if comma && k != Tok::Close {
                out.push(',');
            }
            match k {
                Tok::Open => out.push('('),
                Tok::Close => out.push(')'),
                _ => out.push_str(&vals.next().map(ToString::to_string).unwrap_or_default()),
            }
            comma = k != Tok::Open;
        }
        out
    }

    /// Integers of every length and sign print as `format!` prints them,
    /// in trees and layouts that fit the buffer in one piece and in ones
    /// that do not.
    #[test]
    fn integers_of_every_length_print_as_format_does() {
        let mut values = vec![0i64, 1, 9, 10, 16, 99, 100, 101, 999, 1000, 65536, i64::MAX, i64::MIN, i64::MIN + 1];
        let mut p = 1i64;
        while let Some(q) = p.checked_mul(10) {
            values.extend([q - 1, q, q + 1]);
            p = q;
        }
        let negated: Vec<i64> = values.iter().map(|v| v.wrapping_neg()).collect();
        values.extend(negated);
        for chunk in values.chunks(3).chain(values.chunks(8)).chain([&values[..]]) {
            let text = format!("({})", chunk.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
            let t = IntTuple::flat(chunk.iter().copied());
            assert_eq!(t.to_string(), text);
            assert_eq!(reference(t.tree()), text);
            let nested = IntTuple::tuple([IntTuple::int(chunk[0]), t.clone(), IntTuple::tuple([])]);
            assert_eq!(nested.to_string(), reference(nested.tree()));
            let l = Layout::from_parts(t.clone(), t.clone());
            assert_eq!(l.to_string(), format!("{text}:{text}"));
        }
        // The slice marker, where it is one.
        for text in ["_", "(_,3)", "((0,_),_)", "(-1,(_,-9223372036854775807))"] {
            let c: crate::SliceCoord = text.parse().unwrap();
            assert_eq!(c.to_string(), text);
        }
    }

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
