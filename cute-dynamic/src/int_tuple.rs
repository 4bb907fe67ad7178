//! `IntTuple`: an integer or a tuple of `IntTuple`s (the paper's `HTuple(ℤ)`).
//!
//! Shapes, strides and coordinates are all `IntTuple`s. The tree is stored
//! as two flat lists: its structure, as pre-order tokens `(`, `)` and leaf,
//! packed two bits each into one machine word, and its leaf values, left to
//! right. Up to 28 tokens and 8 leaves (any tuple of 8 leaves with at most
//! 10 tuples in it) live inline in 72 bytes, so a layout of up to 8 leaves
//! is 144 bytes and never touches the heap; larger tuples move to the heap
//! whole.
//!
//! Keeping the values apart from the structure is what makes the algebra
//! fast: most operations only read a layout's leaves (a plain slice), and
//! the structure of a result is often copied a word at a time.

use crate::error::{LayoutError, Result, checked_mul};

/// One token of the pre-order structure of a tree: its two-bit code (0 is
/// never a token: it marks the unused room of a word). A code, not an
/// enum, so that reading a token from a packed list is a mask and a
/// shift, with nothing to convert.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Tok(u8);

#[allow(non_upper_case_globals)]
impl Tok {
    /// A leaf; its value is the next one in the value list.
    pub(crate) const Leaf: Tok = Tok(1);
    /// The start of a tuple.
    pub(crate) const Open: Tok = Tok(2);
    /// The end of a tuple.
    pub(crate) const Close: Tok = Tok(3);

    /// The token of a two-bit code read from a list (never 0 there).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn of_code(c: u64) -> Tok {
        Tok((c & 3) as u8)
    }

    /// The two-bit code.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) const fn code(self) -> u64 {
        self.0 as u64
    }
}

impl std::fmt::Debug for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match *self {
            Tok::Open => "(",
            Tok::Close => ")",
            _ => "leaf",
        })
    }
}

/// Tokens per word of a packed token list.
pub(crate) const PER_WORD: usize = 32;
/// Tokens of an inline tuple: the low 56 bits of its word (see [`Meta`]).
pub(crate) const INLINE_TOKS: usize = 28;
/// Leaves of an inline tuple.
pub(crate) const INLINE_VALS: usize = 8;

/// The number of leaves of an inline tuple, as a type of nine values: the
/// other 247 values of its byte are where `Repr` marks a spilled tuple and
/// `Option<IntTuple>`, `Result<Layout, _>` and the like mark their other
/// variants, so none of them is larger than the tuple or layout itself.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
// Made only by `Meta::new`, from the top byte of its word.
#[allow(dead_code)]
enum NVal {
    N0,
    N1,
    N2,
    N3,
    N4,
    N5,
    N6,
    N7,
    N8,
}

/// The low 56 bits of [`Meta`]'s word: the tokens.
const TOK_BITS: u64 = (1 << (2 * INLINE_TOKS)) - 1;

/// The word at the head of an inline tuple: 28 tokens in its low 56 bits,
/// the number of leaves in its top byte, typed as an [`NVal`]. Made and
/// read as one `u64`: one store and one load (built field by field, the
/// compiler wrote it a byte at a time).
#[derive(Clone, Copy)]
#[repr(C, align(8))]
struct Meta {
    #[cfg(target_endian = "big")]
    nval: NVal,
    tok: [u8; 7],
    #[cfg(target_endian = "little")]
    nval: NVal,
}

impl Meta {
    /// The word of these tokens (the bits above them clear) and `nval` leaves.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn new(tok: u64, nval: usize) -> Meta {
        let w = (tok & TOK_BITS) | ((nval.min(INLINE_VALS) as u64) << 56);
        // SAFETY: `Meta` is 8 bytes with no padding (`repr(C)`, 7 bytes
        // then one, or one then 7 on a big-endian target), and its `nval`
        // byte is the top byte of the word in either order. That byte is
        // at most 8 here, a valid `NVal`; every other byte is a `u8`.
        #[allow(unsafe_code)]
        unsafe {
            std::mem::transmute::<u64, Meta>(w)
        }
    }

    /// The whole word.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn bits(self) -> u64 {
        // SAFETY: `Meta` is 8 bytes with no padding (see `new`): every
        // byte is initialised, and any 8 bytes are a valid `u64`.
        #[allow(unsafe_code)]
        unsafe {
            std::mem::transmute::<Meta, u64>(self)
        }
    }

    /// The tokens, packed from bit 0.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn tok(self) -> u64 {
        self.bits() & TOK_BITS
    }

    /// The number of leaves (read as its own byte: the compiler then knows
    /// it is at most 8, and checks no bounds with it).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn nval(self) -> usize {
        self.nval as usize
    }
}

/// The bits of `n` tokens at the bottom of a word (`n` ≤ 32).
#[cfg_attr(not(debug_assertions), inline(always))]
pub(crate) const fn tok_mask(n: usize) -> u64 {
    if n >= PER_WORD { u64::MAX } else { (1u64 << (2 * n)) - 1 }
}

/// The number of tokens in a packed word of one token list (the highest
/// non-zero code ends it).
#[cfg_attr(not(debug_assertions), inline(always))]
fn word_len(bits: u64) -> usize {
    (64 - bits.leading_zeros() as usize).div_ceil(2)
}

/// Tokens `start..start + len` (at most 32) of a packed list, from bit 0,
/// the bits above them clear.
#[inline]
fn load(words: &[u64], start: usize, len: usize) -> u64 {
    let (w, shift) = (start / PER_WORD, start % PER_WORD);
    let lo = words.get(w).map_or(0, |&x| x >> (2 * shift));
    let hi = match words.get(w + 1) {
        Some(&x) if shift > 0 => x << (2 * (PER_WORD - shift)),
        _ => 0,
    };
    (lo | hi) & tok_mask(len)
}

/// [`load`] out of line, for the rare paths inside hot loops.
#[cold]
#[inline(never)]
fn load_cold(words: &[u64], start: usize, len: usize) -> u64 {
    load(words, start, len)
}

/// A borrowed run of tokens, packed two bits a token (what `&[Tok]` is for
/// a list of tokens one byte each). Its first 32 tokens are in `head`, in a
/// register: tuples of up to 32 tokens are read, split and copied with
/// shifts and masks alone. Longer lists (of spilled tuples) are tokens
/// `start..start + len` of `words`, 32 to a word.
#[derive(Clone, Copy)]
pub(crate) struct Toks<'a> {
    /// Tokens `0..min(len, 32)`, from bit 0 (the bits above them are the
    /// tokens after, or clear: a slice only shifts).
    head: u64,
    len: usize,
    words: &'a [u64],
    start: usize,
}

/// One leaf, as a token list.
pub(crate) const LEAF: Toks<'static> = Toks::packed(Tok::Leaf.code(), 1);

impl<'a> Toks<'a> {
    /// The `len ≤ 32` tokens packed in `bits` (the bits above them clear).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) const fn packed(bits: u64, len: usize) -> Toks<'static> {
        Toks { head: bits, len, words: &[], start: 0 }
    }

    /// The first `len ≤ 32` tokens of `bits`, whose bits above them may
    /// hold the tokens after (never read: a slice of a longer list, taken
    /// without a mask).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) const fn head(bits: u64, len: usize) -> Toks<'static> {
        Toks { head: bits, len, words: &[], start: 0 }
    }

    /// The first `len` tokens of `words`.
    #[inline]
    pub(crate) fn new(words: &'a [u64], len: usize) -> Toks<'a> {
        let len = len.min(words.len() * PER_WORD);
        Toks { head: load(words, 0, len), len, words, start: 0 }
    }

    /// Number of tokens.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn len(self) -> usize {
        self.len
    }

    /// No tokens.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn is_empty(self) -> bool {
        self.len == 0
    }

    /// Token `i`, if there is one.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn get(self, i: usize) -> Option<Tok> {
        if i >= self.len {
            return None;
        }
        let bits = if i < PER_WORD { self.head >> (2 * i) } else { load(self.words, self.start + i, 1) };
        Some(Tok::of_code(bits))
    }

    /// The first token.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn first(self) -> Option<Tok> {
        self.get(0)
    }

    /// Tokens `from..to` (clamped to the list).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn slice(self, from: usize, to: usize) -> Toks<'a> {
        let to = to.min(self.len);
        let from = from.min(to);
        let len = to - from;
        let head = if to <= PER_WORD && from < PER_WORD {
            // Inside the head.
            self.head >> (2 * from)
        } else {
            load(self.words, self.start + from, len)
        };
        Toks { head, len, words: self.words, start: self.start + from }
    }

    /// The first `n` tokens and the rest.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn split_at(self, n: usize) -> (Toks<'a>, Toks<'a>) {
        if self.len <= PER_WORD && n <= self.len {
            // Within the head: the first part keeps it (the bits above its
            // length are never read), the rest is it shifted (`n ≤ 32`).
            let rest = if n < PER_WORD { self.head >> (2 * n) } else { 0 };
            let rest = Toks { head: rest, len: self.len - n, words: self.words, start: self.start + n };
            return (Toks { len: n, ..self }, rest);
        }
        (self.slice(0, n), self.slice(n, self.len))
    }

    /// The tokens in order.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn iter(self) -> TokIter<'a> {
        let here = self.len.min(PER_WORD);
        let (next, end) = (self.start + here, self.start + self.len);
        TokIter { bits: self.head & tok_mask(here), words: self.words, next, end }
    }

    /// The number of leaves, when the tokens are one leaf or a tuple of
    /// two or more leaves and nothing else (a flat structure; a tuple of
    /// one leaf is not).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn flat_leaves(self) -> Option<usize> {
        let n = match self.len {
            1 => 1,
            4..=PER_WORD => self.len - 2,
            _ => return None,
        };
        (self.word() == Some(flat_toks(n).0)).then_some(n)
    }

    /// The tokens packed from bit 0, when there are at most 32 of them
    /// (the whole list in one word, ready to be copied into another).
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn word(self) -> Option<u64> {
        (self.len <= PER_WORD).then_some(self.head & tok_mask(self.len))
    }
}

impl PartialEq for Toks<'_> {
    fn eq(&self, other: &Toks<'_>) -> bool {
        if self.len != other.len {
            return false;
        }
        match (self.word(), other.word()) {
            (Some(a), Some(b)) => a == b,
            _ => self.iter().eq(other.iter()),
        }
    }
}

impl std::fmt::Debug for Toks<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterator over the tokens of a list of up to 32 packed in a word
/// ([`Toks::word`]): a shift a token, until the word is 0.
#[derive(Clone, Copy)]
pub(crate) struct WordToks(pub(crate) u64);

impl Iterator for WordToks {
    type Item = Tok;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next(&mut self) -> Option<Tok> {
        if self.0 == 0 {
            return None;
        }
        let t = Tok::of_code(self.0);
        self.0 >>= 2;
        Some(t)
    }
}

/// Iterator over the tokens of a [`Toks`].
#[derive(Clone)]
pub(crate) struct TokIter<'a> {
    /// Tokens not yet taken, the next at the bottom, nothing above them:
    /// no token is 0, so `bits == 0` once they are all taken.
    bits: u64,
    /// The list's words, and the positions in them of the tokens after
    /// `bits` (none for a list of up to 32 tokens: `next == end`).
    words: &'a [u64],
    next: usize,
    end: usize,
}

impl Iterator for TokIter<'_> {
    type Item = Tok;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next(&mut self) -> Option<Tok> {
        if self.bits == 0 {
            if self.next >= self.end {
                return None;
            }
            // The next 32: only lists of more than 32 tokens get here
            // before their end.
            let here = (self.end - self.next).min(PER_WORD);
            self.bits = load_cold(self.words, self.next, here);
            self.next += here;
        }
        let t = Tok::of_code(self.bits);
        self.bits >>= 2;
        Some(t)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = word_len(self.bits) + (self.end - self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for TokIter<'_> {}

/// A hierarchical tuple of integers: `4`, `(4,8)`, `(4,(3,2))`, `()`.
///
/// ```
/// use cute_dynamic::IntTuple;
/// let t: IntTuple = "(4,(3,2))".parse().unwrap();
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t.depth(), 2);
/// assert_eq!(t.size().unwrap(), 24);
/// assert_eq!(t.get(1).unwrap().to_string(), "(3,2)");
/// assert_eq!(t.flatten().to_string(), "(4,3,2)");
/// ```
#[derive(Clone)]
pub struct IntTuple {
    repr: Repr,
}

#[derive(Clone)]
enum Repr {
    /// Up to 28 tokens and 8 leaves.
    Inline(Inline),
    /// Everything, once either list outgrows its inline room.
    Spilled(Box<Spilled>),
}

/// An inline tuple: its head word and its leaves.
#[derive(Clone, Copy)]
struct Inline {
    /// The tokens and the number of leaves.
    meta: Meta,
    /// The leaves, then unused room.
    val: [i64; INLINE_VALS],
}

#[derive(Clone)]
struct Spilled {
    tok: Vec<u64>,
    ntok: usize,
    val: Vec<i64>,
}

impl PartialEq for IntTuple {
    fn eq(&self, other: &IntTuple) -> bool {
        self.toks() == other.toks() && self.vals() == other.vals()
    }
}

impl Eq for IntTuple {}

impl std::hash::Hash for IntTuple {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let toks = self.toks();
        state.write_usize(toks.len());
        for t in toks.iter() {
            state.write_u8(t.0);
        }
        self.vals().hash(state);
    }
}

impl std::fmt::Debug for IntTuple {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IntTuple({self})")
    }
}

impl From<i64> for IntTuple {
    fn from(v: i64) -> Self {
        IntTuple::int(v)
    }
}

impl IntTuple {
    /// A single integer.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// let t = IntTuple::int(8);
    /// assert_eq!(t.to_string(), "8");
    /// assert_eq!(t.as_int(), Some(8));
    /// ```
    pub fn int(v: i64) -> Self {
        let mut t = IntTuple::empty();
        t.leaf(v);
        t
    }

    /// A tuple of the given elements (possibly empty).
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// let t = IntTuple::tuple([IntTuple::int(4), IntTuple::flat([3, 2])]);
    /// assert_eq!(t.to_string(), "(4,(3,2))");
    /// ```
    pub fn tuple<I: IntoIterator<Item = IntTuple>>(elems: I) -> Self {
        let mut t = IntTuple::empty();
        t.open();
        for e in elems {
            t.push_tree(e.tree());
        }
        t.close();
        t
    }

    /// A flat tuple of integers.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// assert_eq!(IntTuple::flat([4, 8]).to_string(), "(4,8)");
    /// ```
    pub fn flat<I: IntoIterator<Item = i64>>(values: I) -> Self {
        let mut t = IntTuple::empty();
        t.open();
        for v in values {
            t.leaf(v);
        }
        t.close();
        t
    }

    /// `true` for a single integer.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// assert!(IntTuple::int(8).is_int());
    /// assert!(!IntTuple::flat([8]).is_int()); // a tuple of one integer
    /// ```
    pub fn is_int(&self) -> bool {
        self.toks().first() == Some(Tok::Leaf)
    }

    /// The integer, if this is a single integer.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// assert_eq!("8".parse::<IntTuple>()?.as_int(), Some(8));
    /// assert_eq!(IntTuple::flat([4, 8]).as_int(), None);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn as_int(&self) -> Option<i64> {
        self.tree().leaf()
    }

    /// Number of top-level modes; an integer has rank 1.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// assert_eq!("(4,(3,2))".parse::<IntTuple>()?.rank(), 2);
    /// assert_eq!(IntTuple::int(8).rank(), 1);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn rank(&self) -> usize {
        self.tree().rank()
    }

    /// Nesting depth: 0 for an integer, 1 for a flat tuple, and so on.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// assert_eq!(IntTuple::int(8).depth(), 0);
    /// assert_eq!(IntTuple::flat([4, 8]).depth(), 1);
    /// assert_eq!("(4,(3,2))".parse::<IntTuple>()?.depth(), 2);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn depth(&self) -> usize {
        self.tree().depth()
    }

    /// The `i`-th top-level mode; mode 0 of an integer is the integer itself.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// let t: IntTuple = "(4,(3,2))".parse()?;
    /// assert_eq!(t.get(0), Some(IntTuple::int(4)));
    /// assert_eq!(t.get(1).unwrap().to_string(), "(3,2)");
    /// assert_eq!(t.get(2), None);
    /// assert_eq!(IntTuple::int(8).get(0), Some(IntTuple::int(8)));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn get(&self, i: usize) -> Option<IntTuple> {
        self.tree().children().nth(i).map(Tree::to_int_tuple)
    }

    /// The top-level modes, in order (an integer yields itself).
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// let t: IntTuple = "(4,(3,2))".parse()?;
    /// let modes: Vec<String> = t.modes().map(|m| m.to_string()).collect();
    /// assert_eq!(modes, ["4", "(3,2)"]);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn modes(&self) -> impl Iterator<Item = IntTuple> + '_ {
        self.tree().children().map(Tree::to_int_tuple)
    }

    /// The leaves in order (colexicographic order of modes is left to right).
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// let t: IntTuple = "((2,3),(4,5))".parse()?;
    /// assert_eq!(t.leaves().collect::<Vec<_>>(), [2, 3, 4, 5]);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn leaves(&self) -> impl Iterator<Item = i64> + '_ {
        self.vals().iter().copied()
    }

    /// Number of leaves.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// assert_eq!("((2,3),(4,5))".parse::<IntTuple>()?.leaf_count(), 4);
    /// assert_eq!(IntTuple::int(8).leaf_count(), 1);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn leaf_count(&self) -> usize {
        self.vals().len()
    }

    /// The same leaves as a flat tuple; an integer stays an integer.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// assert_eq!("((2,3),(4,5))".parse::<IntTuple>()?.flatten().to_string(), "(2,3,4,5)");
    /// assert_eq!(IntTuple::int(8).flatten(), IntTuple::int(8));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn flatten(&self) -> IntTuple {
        if self.is_int() {
            return self.clone();
        }
        IntTuple::flat(self.leaves())
    }

    /// Product of all leaves (the size of a shape; 1 for `()`).
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// assert_eq!("(4,(3,2))".parse::<IntTuple>()?.size()?, 24);
    /// assert!(IntTuple::flat([i64::MAX, 2]).size().is_err()); // overflow
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn size(&self) -> Result<i64> {
        self.tree().size().ok_or(LayoutError::Overflow { operation: "size" })
    }

    /// Same tree structure (the paper's congruence `∼`).
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// let shape: IntTuple = "(4,(3,2))".parse()?;
    /// assert!(shape.congruent(&"(1,(4,12))".parse()?));
    /// assert!(!shape.congruent(&"(1,4)".parse()?));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn congruent(&self, other: &IntTuple) -> bool {
        self.toks() == other.toks()
    }

    /// `self` is weakly congruent to `other` (`self ≲ other`): wherever `self`
    /// has a tuple, `other` has a tuple of the same rank; an integer of `self`
    /// may stand for a whole subtree of `other`.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// let shape: IntTuple = "(4,(3,2))".parse()?;
    /// assert!("(1,5)".parse::<IntTuple>()?.weakly_congruent(&shape)); // 5 stands for (3,2)
    /// assert!(IntTuple::int(17).weakly_congruent(&shape));
    /// assert!(!shape.weakly_congruent(&"(1,5)".parse()?));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn weakly_congruent(&self, other: &IntTuple) -> bool {
        weakly_congruent(self.tree(), other.tree())
    }

    /// Concatenation of the modes of several tuples into one tuple.
    ///
    /// ```
    /// use cute_dynamic::IntTuple;
    /// let a: IntTuple = "(4,8)".parse()?;
    /// let b: IntTuple = "(3,(2,2))".parse()?;
    /// assert_eq!(IntTuple::concat([&a, &b]).to_string(), "(4,8,3,(2,2))");
    /// assert_eq!(IntTuple::concat([&IntTuple::int(2), &a]).to_string(), "(2,4,8)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn concat<'a, I: IntoIterator<Item = &'a IntTuple>>(parts: I) -> IntTuple {
        let mut t = IntTuple::empty();
        t.open();
        for p in parts {
            for c in p.tree().children() {
                t.push_tree(c);
            }
        }
        t.close();
        t
    }
}

/// Building and raw access, for the rest of the crate.
impl IntTuple {
    /// No tokens at all: not a valid tuple until something is pushed.
    #[inline]
    pub(crate) fn empty() -> Self {
        IntTuple { repr: Repr::Inline(Inline { meta: Meta::new(0, 0), val: [0; INLINE_VALS] }) }
    }

    /// The structure tokens, in pre-order.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn toks(&self) -> Toks<'_> {
        match &self.repr {
            Repr::Inline(Inline { meta, .. }) => {
                let bits = meta.tok();
                Toks::packed(bits, word_len(bits))
            }
            Repr::Spilled(h) => Toks::new(&h.tok, h.ntok),
        }
    }

    /// The leaf values, left to right.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn vals(&self) -> &[i64] {
        match &self.repr {
            Repr::Inline(Inline { meta, val }) => &val[..meta.nval()],
            Repr::Spilled(h) => &h.val,
        }
    }

    /// The leaf values, to be rewritten in place (the structure stays).
    #[inline]
    pub(crate) fn vals_mut(&mut self) -> &mut [i64] {
        match &mut self.repr {
            Repr::Inline(Inline { meta, val }) => &mut val[..meta.nval()],
            Repr::Spilled(h) => &mut h.val,
        }
    }

    /// A tuple of the tokens packed in `tok` (at most [`INLINE_TOKS`], the
    /// bits above them clear) and the first `nval` (at most
    /// [`INLINE_VALS`]) of `val`, inline.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn inline(tok: u64, val: [i64; INLINE_VALS], nval: usize) -> IntTuple {
        IntTuple { repr: Repr::Inline(Inline { meta: Meta::new(tok, nval), val }) }
    }

    /// The number of leaves of an inline integer or tuple of integers only
    /// (see [`Toks::flat_leaves`]), from its head word alone.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn flat_leaves(&self) -> Option<usize> {
        match &self.repr {
            Repr::Inline(Inline { meta, .. }) => {
                let n = meta.nval();
                (n > 0 && meta.tok() == flat_toks(n).0).then_some(n)
            }
            Repr::Spilled(_) => None,
        }
    }

    /// Whether the tuple lives on the heap.
    #[cfg(test)]
    pub(crate) fn is_spilled(&self) -> bool {
        matches!(self.repr, Repr::Spilled(_))
    }

    /// The whole tree as a borrowed view.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn tree(&self) -> Tree<'_> {
        Tree { tok: self.toks(), val: self.vals() }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn push_tok(&mut self, t: Tok) {
        if let Repr::Inline(Inline { meta, .. }) = &mut self.repr {
            let tok = meta.tok();
            let n = word_len(tok);
            if n < INLINE_TOKS {
                *meta = Meta::new(tok | (t.code() << (2 * n)), meta.nval());
                return;
            }
        }
        let h = self.spill();
        let n = h.ntok;
        if n.is_multiple_of(PER_WORD) {
            h.tok.push(0);
        }
        if let Some(w) = h.tok.last_mut() {
            *w |= t.code() << (2 * (n % PER_WORD));
        }
        h.ntok += 1;
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn push_val(&mut self, v: i64) {
        if let Repr::Inline(Inline { meta, val }) = &mut self.repr {
            let n = meta.nval();
            if let Some(x) = val.get_mut(n) {
                *x = v;
                *meta = Meta::new(meta.tok(), n + 1);
                return;
            }
        }
        self.spill().val.push(v);
    }

    /// Moves the contents to the heap (once), for pushing past the inline room.
    #[cold]
    #[inline(never)]
    fn spill(&mut self) -> &mut Spilled {
        if let Repr::Inline(Inline { meta, val }) = &self.repr {
            let bits = meta.tok();
            let s = Spilled { tok: vec![bits], ntok: word_len(bits), val: val[..meta.nval()].to_vec() };
            self.repr = Repr::Spilled(Box::new(s));
        }
        match &mut self.repr {
            Repr::Spilled(h) => h,
            Repr::Inline(_) => unreachable!("spilled just above"),
        }
    }

    /// Starts a tuple; pair with [`IntTuple::close`].
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn open(&mut self) {
        self.push_tok(Tok::Open);
    }

    /// Ends the innermost open tuple.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn close(&mut self) {
        self.push_tok(Tok::Close);
    }

    /// Appends an integer.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn leaf(&mut self, v: i64) {
        self.push_tok(Tok::Leaf);
        self.push_val(v);
    }

    /// Appends a whole subtree.
    #[inline]
    pub(crate) fn push_tree(&mut self, t: Tree<'_>) {
        // Inline room for all of it: the tokens in one shift and or, the
        // leaves in one block copy.
        if let (Repr::Inline(Inline { meta, val }), Some(w)) = (&mut self.repr, t.tok.word()) {
            let (nt, nv) = (word_len(meta.tok()), meta.nval());
            if nt + t.tok.len() <= INLINE_TOKS
                && let Some(dst) = val.get_mut(nv..nv + t.val.len())
            {
                dst.copy_from_slice(t.val);
                *meta = Meta::new(meta.tok() | (w << (2 * nt)), nv + t.val.len());
                return;
            }
        }
        for k in t.tok.iter() {
            self.push_tok(k);
        }
        for &v in t.val {
            self.push_val(v);
        }
    }
}

/// A borrowed subtree: its tokens (exactly one leaf, or one balanced tuple)
/// and its leaf values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tree<'a> {
    pub(crate) tok: Toks<'a>,
    pub(crate) val: &'a [i64],
}

impl<'a> Tree<'a> {
    /// The value, for a leaf.
    #[inline]
    pub(crate) fn leaf(self) -> Option<i64> {
        match self.tok.first() {
            Some(Tok::Leaf) => self.val.first().copied(),
            _ => None,
        }
    }

    /// The modes: the children of a tuple, or the leaf itself.
    #[inline]
    pub(crate) fn children(self) -> Children<'a> {
        match self.tok.first() {
            Some(Tok::Open) => Children { tok: self.tok.slice(1, self.tok.len() - 1), val: self.val },
            _ => Children { tok: self.tok, val: self.val },
        }
    }

    /// Number of modes (1 for a leaf).
    #[inline]
    pub(crate) fn rank(self) -> usize {
        if self.tok.first() != Some(Tok::Open) {
            return 1;
        }
        // The tokens inside the outer parentheses that start an element
        // at its top level.
        let mut depth = 0usize;
        let mut n = 0usize;
        for t in self.tok.slice(1, self.tok.len() - 1).iter() {
            n += usize::from(depth == 0 && t != Tok::Close);
            match t {
                Tok::Open => depth += 1,
                Tok::Close => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        n
    }

    /// Nesting depth (0 for a leaf).
    pub(crate) fn depth(self) -> usize {
        let mut depth = 0usize;
        let mut max = 0usize;
        for t in self.tok.iter() {
            match t {
                Tok::Open => {
                    depth += 1;
                    max = max.max(depth);
                }
                Tok::Close => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        max
    }

    /// Product of the leaves, `None` on overflow.
    #[inline]
    pub(crate) fn size(self) -> Option<i64> {
        self.val.iter().try_fold(1i64, |a, &v| a.checked_mul(v))
    }

    /// An owned copy.
    pub(crate) fn to_int_tuple(self) -> IntTuple {
        let mut t = IntTuple::empty();
        t.push_tree(self);
        t
    }
}

/// Iterator over the modes of a [`Tree`].
pub(crate) struct Children<'a> {
    tok: Toks<'a>,
    val: &'a [i64],
}

impl<'a> Iterator for Children<'a> {
    type Item = Tree<'a>;
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next(&mut self) -> Option<Tree<'a>> {
        let (nt, nv) = match self.tok.first()? {
            Tok::Leaf => (1, 1),
            _ => extent(self.tok),
        };
        let (tok, tok_rest) = self.tok.split_at(nt);
        let (val, val_rest) = self.val.split_at(nv.min(self.val.len()));
        self.tok = tok_rest;
        self.val = val_rest;
        Some(Tree { tok, val })
    }
}

/// Tokens and leaves of the tuple that starts `tok`.
#[inline]
pub(crate) fn extent(tok: Toks<'_>) -> (usize, usize) {
    if let Some(e) = tok.word().and_then(flat_tuple_extent) {
        return e;
    }
    extent_walk(tok.iter(), tok.len())
}

/// [`extent`] of a tuple of leaves only (most modes that are tuples), from
/// its tokens packed in `w` (nothing above them): it ends at the first
/// `)`, with no `(` after its own, both found with a mask of the word,
/// without walking the tokens. `None` for any other list.
#[inline(always)]
pub(crate) fn flat_tuple_extent(w: u64) -> Option<(usize, usize)> {
    if w & 3 != Tok::Open.code() {
        return None;
    }
    const LOW: u64 = 0x5555_5555_5555_5555;
    let closes = w & (w >> 1) & LOW;
    let opens = (w >> 1) & !w & LOW & !1;
    let close = closes.trailing_zeros() as usize;
    (closes != 0 && (opens == 0 || (opens.trailing_zeros() as usize) > close))
        .then_some((close / 2 + 1, (close / 2).saturating_sub(1)))
}

/// [`extent`] by walking the `len` tokens `tok` until the tuple closes.
#[inline]
fn extent_walk(tok: impl Iterator<Item = Tok>, len: usize) -> (usize, usize) {
    let mut depth = 0usize;
    let mut leaves = 0usize;
    for (i, t) in tok.enumerate() {
        match t {
            Tok::Open => depth += 1,
            Tok::Close => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return (i + 1, leaves);
                }
            }
            _ => leaves += 1,
        }
    }
    (len, leaves)
}

fn weakly_congruent(a: Tree<'_>, b: Tree<'_>) -> bool {
    if a.leaf().is_some() {
        return true;
    }
    if b.leaf().is_some() {
        return false;
    }
    a.rank() == b.rank() && a.children().zip(b.children()).all(|(x, y)| weakly_congruent(x, y))
}

/// CuTe's `inner_product(a, b)`: `Σ a_i·b_i` over the leaves of two
/// congruent tuples (two integers multiply).
///
/// Errors: `NotCongruent` when the trees differ; `Overflow`.
///
/// ```
/// use cute_dynamic::{IntTuple, inner_product};
/// let (a, b): (IntTuple, IntTuple) = ("((2,3),4)".parse()?, "((2,1),2)".parse()?);
/// assert_eq!(inner_product(&a, &b)?, 15);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn inner_product(a: &IntTuple, b: &IntTuple) -> Result<i64> {
    if !a.congruent(b) {
        return Err(LayoutError::NotCongruent { shape: a.to_string(), stride: b.to_string() });
    }
    a.leaves().zip(b.leaves()).try_fold(0i64, |acc, (x, y)| {
        crate::error::checked_add(acc, checked_mul(x, y, "inner_product")?, "inner_product")
    })
}

/// CuTe's `prefix_product(a)`: the exclusive prefix products of the leaves
/// of `a`, in `a`'s structure (the strides of the compact column-major
/// layout of the shape `a`; an integer gives 1).
///
/// Post-condition: the result is congruent to `a`, its first leaf is 1 and
/// each next leaf is the previous one times the previous leaf of `a`.
///
/// Errors: `Overflow`.
///
/// ```
/// use cute_dynamic::{IntTuple, prefix_product};
/// let a: IntTuple = "((2,3),(2,1,2),(5,2,1))".parse()?;
/// assert_eq!(prefix_product(&a)?.to_string(), "((1,2),(6,12,12),(24,120,240))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn prefix_product(a: &IntTuple) -> Result<IntTuple> {
    let mut out = a.clone();
    let mut acc = 1i64;
    for v in out.vals_mut() {
        let s = *v;
        *v = acc;
        acc = checked_mul(acc, s, "prefix_product")?;
    }
    Ok(out)
}

/// CuTe's `shape_div(a, b)`: `a` divided by `b` mode by mode from the left,
/// what is left of `b` passed on (`shape_div((3,4), 6)` is `(1,2)`: 3 takes
/// a factor 3 of the 6, 4 takes the remaining 2). For integers, `a / b`
/// rounded up where `b` is a multiple of `a` (so the result is 1 there), as
/// CuTe's `shape_div` with the divisibility both ways that it requires. A
/// tuple `b` divides by its product, or mode by mode if `a` is a tuple of
/// the same rank.
///
/// Errors: `NotDivisible` (neither of
/// two integers divides the other, or one is 0), `RankMismatch` for tuples of different
/// ranks, `Overflow`.
///
/// ```
/// use cute_dynamic::{IntTuple, shape_div};
/// let a: IntTuple = "(6,(3,4))".parse()?;
/// assert_eq!(shape_div(&a, &IntTuple::int(36))?.to_string(), "(1,(1,2))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn shape_div(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a.as_int(), b.as_int()) {
        (Some(x), Some(y)) => shape_div_int(x, y).map(IntTuple::int),
        (Some(_), None) => shape_div(a, &IntTuple::int(b.size()?)),
        (None, None) if a.rank() == b.rank() => {
            Ok(IntTuple::tuple(a.modes().zip(b.modes()).map(|(x, y)| shape_div(&x, &y)).collect::<Result<Vec<_>>>()?))
        }
        (None, None) => {
            Err(LayoutError::RankMismatch { what: format!("shape_div({a}, {b})"), expected: a.rank(), found: b.rank() })
        }
        (None, Some(mut rest)) => {
            let mut out = Vec::with_capacity(a.rank());
            for m in a.modes() {
                let size = m.size()?;
                out.push(shape_div(&m, &IntTuple::int(rest))?);
                rest = shape_div_int(rest, size)?;
            }
            Ok(IntTuple::tuple(out))
        }
    }
}

fn shape_div_int(a: i64, b: i64) -> Result<i64> {
    // `x` divides `y` (never 0, and no `i64::MIN % -1` overflow).
    let divides = |x: i64, y: i64| x != 0 && y.checked_rem(x) == Some(0);
    if a == 0 || b == 0 || !(divides(b, a) || divides(a, b)) {
        return Err(LayoutError::NotDivisible { operation: "shape_div", a, b });
    }
    // Exact where b divides a; 1 (the sign of a·b) where a divides b.
    match a.checked_div(b) {
        Some(q) if divides(b, a) => Ok(q),
        Some(_) => Ok(a.signum() * b.signum()),
        None => Err(LayoutError::Overflow { operation: "shape_div" }),
    }
}

/// CuTe's `elem_less(a, b)`: every element of `a` is below the element of
/// `b` at the same position, recursively; the predicate that masks a ragged
/// edge (`elem_less(coord, shape)` is `true` exactly for the coordinates
/// inside `shape`).
///
/// As CuTe: integers compare with `<`; for two tuples the first
/// `min(rank)` elements are compared, and `a` longer than `b` is `false`,
/// `a` shorter (or equal) is decided by the shared elements. An integer
/// against a tuple (their structures differ) is `false`.
///
/// ```
/// use cute_dynamic::{IntTuple, elem_less};
/// let shape: IntTuple = "(1000,500)".parse().unwrap();
/// assert!(elem_less(&"(999,499)".parse().unwrap(), &shape));
/// assert!(!elem_less(&"(1000,0)".parse().unwrap(), &shape));
/// assert!(elem_less(&"((1,2),3)".parse().unwrap(), &"((2,3),4)".parse().unwrap()));
/// ```
pub fn elem_less(a: &IntTuple, b: &IntTuple) -> bool {
    elem_less_tree(a.tree(), b.tree())
}

fn elem_less_tree(a: Tree<'_>, b: Tree<'_>) -> bool {
    match (a.leaf(), b.leaf()) {
        (Some(x), Some(y)) => x < y,
        (None, None) => a.rank() <= b.rank() && a.children().zip(b.children()).all(|(x, y)| elem_less_tree(x, y)),
        _ => false,
    }
}

/// The structure of a flat layout of `n` leaves (a scalar for `n == 1`),
/// packed, and its number of tokens, for `1 ≤ n ≤ 30` (what fits a word;
/// the callers' lists are shorter).
#[inline(always)]
pub(crate) fn flat_toks(n: usize) -> (u64, usize) {
    debug_assert!((1..=30).contains(&n), "flat_toks({n})");
    match FLAT_TOKS.get(n) {
        Some(&bits) if n >= 2 => (bits, n + 2),
        _ => (Tok::Leaf.code(), 1),
    }
}

/// [`flat_toks`] of 2 to 30 leaves, from a table (a load instead of the
/// masks and shifts that make it).
const FLAT_TOKS: [u64; 31] = {
    let mut t = [0u64; 31];
    let mut n = 2;
    while n <= 30 {
        // `(`, then n leaves (code 01 each), then `)`.
        let leaves = 0x5555_5555_5555_5555u64 & tok_mask(n);
        t[n] = Tok::Open.code() | (leaves << 2) | (Tok::Close.code() << (2 * (n + 1)));
        n += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_tuples_move_to_the_heap_and_stay_equal() {
        let big = IntTuple::flat(1..=40);
        assert!(big.is_spilled());
        assert_eq!(big.leaf_count(), 40);
        assert_eq!(big.rank(), 40);
        assert_eq!(big.size().ok(), None);
        let again: IntTuple = big.to_string().parse().unwrap();
        assert_eq!(again, big);
        let small = IntTuple::flat(1..=8);
        assert!(!small.is_spilled());
        assert_ne!(small, big);
    }

    /// Deterministic draws below `m` (a linear congruential generator).
    fn draws(mut seed: u64, m: u64) -> impl FnMut() -> u64 {
        move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % m
        }
    }

    /// `list` packed two bits a token, 32 tokens a word.
    fn packed(list: &[Tok]) -> Vec<u64> {
        let mut words = vec![0u64; list.len().div_ceil(PER_WORD)];
        for (i, x) in list.iter().enumerate() {
            words[i / PER_WORD] |= x.code() << (2 * (i % PER_WORD));
        }
        words
    }

    /// The extent of the tuple that starts a list, found by masks for a
    /// tuple of leaves in one word, is the walk's (`extent_walk`, what the
    /// other lists take): for lists that open with `(` of every length up
    /// to 40, balanced or not.
    #[test]
    fn extent_of_a_tuple_is_the_walks() {
        let mut next = draws(0x2545_f491_4f6c_dd1d, 8);
        for len in 1..=40usize {
            for _ in 0..50 {
                // Mostly leaves, so that flat tuples come up often.
                let list: Vec<Tok> = std::iter::once(Tok::Open)
                    .chain((1..len).map(|_| match next() {
                        0 => Tok::Open,
                        1 | 2 => Tok::Close,
                        _ => Tok::Leaf,
                    }))
                    .collect();
                let words = packed(&list);
                assert_eq!(extent(Toks::new(&words, len)), extent_walk(list.iter().copied(), len), "{list:?}");
            }
        }
    }

    /// Token lists of every length up to 80 (inline, one word, several
    /// words), built token by token: reading, indexing, slicing at every
    /// pair of ends (across word boundaries too), packing and comparing
    /// agree with the same tokens kept one per element of a `Vec`.
    #[test]
    fn packed_tokens_read_as_the_list_written() {
        let mut next = draws(0x9e37_79b9_7f4a_7c15, 3);
        for len in 0..=80usize {
            let list: Vec<Tok> = (0..len).map(|_| [Tok::Leaf, Tok::Open, Tok::Close][next() as usize]).collect();
            let mut t = IntTuple::empty();
            for (k, &tok) in list.iter().enumerate() {
                match tok {
                    Tok::Open => t.open(),
                    Tok::Close => t.close(),
                    _ => t.leaf(k as i64),
                }
            }
            let leaves = list.iter().filter(|&&x| x == Tok::Leaf).count();
            assert_eq!(t.is_spilled(), len > INLINE_TOKS || leaves > INLINE_VALS, "{len}");
            let toks = t.toks();
            assert_eq!(toks.len(), len);
            assert_eq!(toks.iter().collect::<Vec<_>>(), list);
            assert_eq!(toks.iter().len(), len);
            for (i, &x) in list.iter().enumerate() {
                assert_eq!(toks.get(i), Some(x));
            }
            assert_eq!(toks.get(len), None);
            for from in 0..=len {
                for to in from..=len {
                    let part = toks.slice(from, to);
                    assert_eq!(part.iter().collect::<Vec<_>>(), &list[from..to], "{len} {from}..{to}");
                    let words = packed(&list[from..to]);
                    assert_eq!(
                        part.word(),
                        (to - from <= PER_WORD).then(|| words.first().copied().unwrap_or(0)),
                        "{len} {from}..{to}"
                    );
                    assert!(part == Toks::new(&words, to - from), "{len} {from}..{to}");
                }
            }
            let mut same = IntTuple::empty();
            for &tok in &list {
                match tok {
                    Tok::Open => same.open(),
                    Tok::Close => same.close(),
                    _ => same.leaf(0),
                }
            }
            assert!(same.toks() == toks, "{len}");
            if let Some(&last) = list.last() {
                let mut other = IntTuple::empty();
                for &tok in &list[..len - 1] {
                    match tok {
                        Tok::Open => other.open(),
                        Tok::Close => other.close(),
                        _ => other.leaf(0),
                    }
                }
                if last == Tok::Open {
                    other.close()
                } else {
                    other.open()
                }
                assert!(other.toks() != toks, "{len}");
            }
        }
    }

    /// A nested tuple of 64 tokens (spilled, its modes across the boundary
    /// of two token words) splits into the modes its text shows, equal to
    /// their own parses, and hashes as the same tuple built inline parts
    /// first.
    #[test]
    fn long_nested_tuples_split_across_words() {
        let modes: Vec<String> =
            (0..12).map(|k| if k % 3 == 0 { format!("({k},({k},{k}))") } else { format!("({k},{k})") }).collect();
        let text = format!("({})", modes.join(","));
        let t: IntTuple = text.parse().unwrap();
        assert!(t.is_spilled());
        assert!(t.toks().len() > 2 * PER_WORD - 8, "{}", t.toks().len());
        assert_eq!(t.rank(), 12);
        assert_eq!(t.depth(), 3);
        assert_eq!(t.to_string(), text);
        for (k, m) in t.modes().enumerate() {
            assert_eq!(m.to_string(), modes[k]);
            assert_eq!(m, modes[k].parse::<IntTuple>().unwrap());
            assert_eq!(t.get(k).unwrap(), m);
        }
        let built = IntTuple::tuple(modes.iter().map(|m| m.parse::<IntTuple>().unwrap()));
        assert_eq!(built, t);
        let hash = |x: &IntTuple| {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            x.hash(&mut h);
            h.finish()
        };
        assert_eq!(hash(&built), hash(&t));
        assert!(t.congruent(&built));
        assert!(!t.congruent(&t.flatten()));
    }

    #[test]
    fn children_split_structure_and_values() {
        let t: IntTuple = "((2,3),4,(5,(6,7)))".parse().unwrap();
        let modes: Vec<String> = t.modes().map(|m| m.to_string()).collect();
        assert_eq!(modes, ["(2,3)", "4", "(5,(6,7))"]);
        assert_eq!(t.depth(), 3);
        let empty: IntTuple = "()".parse().unwrap();
        assert_eq!(empty.rank(), 0);
        assert_eq!(empty.depth(), 1);
    }
}
