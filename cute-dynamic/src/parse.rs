//! The text syntax: integers, tuples, layouts and tilers (CuTe's printed
//! notation, read back; the README's "The syntax" has the whole grammar).
//!
//! ```text
//! layout  := tuple ':' tuple | int ':' int         (4,8):(1,4)   12:1
//! tuple   := int | '(' tuple {',' tuple} ')'        static marker '_4' accepted
//! tiler   := '<' tile {',' tile} '>'               <3:3, (2,4):(1,8)>
//! tile    := layout | tuple | tiler | '(' tile {',' tile} ')'
//! ```
//! Whitespace is ignored. Errors name the 1-based byte column and what was
//! expected there. A parenthesized list of tiles that is not a tuple is a
//! nested tiler: `(2:1, 3:2)` reads as `<2:1,3:2>`, as `(2,4)` reads as
//! `<2:1,4:1>`.
//!
//! The same grammar serves cute-static's macros ([`parse_macro_layout`],
//! [`parse_macro_int_tuple`], [`parse_macro_tiler`]): there, and only there,
//! a leaf may also be run-time, a braced expression `{m}` or the word `Dyn`,
//! so the macros accept and reject exactly the texts this module does.

use crate::error::{LayoutError, Result};
use crate::int_tuple::{INLINE_TOKS, INLINE_VALS, IntTuple, Tok};
use crate::layout::{Layout, Parts};
use crate::tiler::Tiler;
use std::str::FromStr;

/// The marker leaf of a `_` (free mode) inside a slice coordinate. Integer
/// literals cannot produce it: their range is `±(2^63 - 1)`.
pub(crate) const UNDERSCORE: i64 = i64::MIN;

/// A cursor over the text with the small recursive-descent pieces that the
/// `FromStr` impls and the expression evaluator share.
pub(crate) struct Parser<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) pos: usize,
    depth: usize,
    /// Macro text: every leaf read, in text order, and run-time leaves
    /// allowed. `None` for the run-time syntax (the common, fast case).
    leaves: Option<Vec<LeafText>>,
}

/// How deeply tuples, tilers and calls may nest: deeper text is an error,
/// not a stack overflow.
pub(crate) const MAX_NESTING: usize = 64;

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str) -> Self {
        Parser { src: src.as_bytes(), pos: 0, depth: 0, leaves: None }
    }

    /// A parser of macro text: run-time leaves allowed, every leaf recorded.
    fn for_macro(src: &'a str) -> Self {
        Parser { leaves: Some(Vec::new()), ..Parser::new(src) }
    }

    /// A leaf of macro text: an integer, `{...}` or `Dyn`, recorded in
    /// `leaves`. A run-time leaf reads as 1, an extent that passes every
    /// check made at parse time: its value is checked when the program runs.
    fn macro_leaf(&mut self) -> Result<i64> {
        self.ws();
        let column = self.column();
        let rest = &self.src[self.pos..];
        let (kind, v) = if rest.first() == Some(&b'{') {
            let mut depth = 0usize;
            let mut end = None;
            for (i, &c) in rest.iter().enumerate() {
                depth = match c {
                    b'{' => depth + 1,
                    b'}' => depth - 1,
                    _ => depth,
                };
                if depth == 0 {
                    end = Some(i + 1);
                    break;
                }
            }
            let Some(end) = end else {
                self.pos = self.src.len();
                return Err(self.error("'}'"));
            };
            self.pos += end;
            (LeafKind::Braced, 1)
        } else if rest.starts_with(b"Dyn") && !rest.get(3).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            self.pos += 3;
            (LeafKind::Dyn, 1)
        } else {
            let v = self.int(false)?;
            (LeafKind::Int(v), v)
        };
        if let Some(leaves) = &mut self.leaves {
            leaves.push(LeafText { column, kind });
        }
        Ok(v)
    }

    /// Enters one level of nesting (a tuple, tiler or call); errors past
    /// [`MAX_NESTING`]. Pair with [`Parser::leave`].
    pub(crate) fn enter(&mut self) -> Result<()> {
        if self.depth >= MAX_NESTING {
            return Err(self.error("at most 64 levels of nesting"));
        }
        self.depth += 1;
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub(crate) fn ws(&mut self) {
        while self.pos < self.src.len() && self.src[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// The next non-blank byte, not consumed.
    pub(crate) fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.src.get(self.pos).copied()
    }

    pub(crate) fn column(&self) -> usize {
        self.pos + 1
    }

    /// An error at the current position.
    pub(crate) fn error(&mut self, expected: &str) -> LayoutError {
        self.ws();
        let found = match self.src.get(self.pos) {
            None => "end of input".to_string(),
            Some(_) => {
                // Show the offending character (whole, if it is multi-byte).
                let rest = String::from_utf8_lossy(&self.src[self.pos..]);
                match rest.chars().next() {
                    Some(c) => format!("'{c}'"),
                    None => "end of input".to_string(),
                }
            }
        };
        LayoutError::Parse { column: self.column(), expected: expected.to_string(), found }
    }

    pub(crate) fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, c: u8, expected: &str) -> Result<()> {
        if self.eat(c) { Ok(()) } else { Err(self.error(expected)) }
    }

    pub(crate) fn at_end(&mut self) -> bool {
        self.peek().is_none()
    }

    pub(crate) fn expect_end(&mut self) -> Result<()> {
        if self.at_end() { Ok(()) } else { Err(self.error("end of input")) }
    }

    /// An integer literal: optional `-`, optional static marker `_`, digits.
    /// With `allow_underscore`, a lone `_` is the free-mode marker.
    /// Whitespace may follow the `-`: the macros read Rust tokens, where
    /// `- 4` and `-4` are the same, and a text means one value to both.
    pub(crate) fn int(&mut self, allow_underscore: bool) -> Result<i64> {
        self.ws();
        let start = self.pos;
        let neg = self.src.get(self.pos) == Some(&b'-');
        if neg {
            self.pos += 1;
            self.ws();
        }
        let marker = self.src.get(self.pos) == Some(&b'_');
        if marker {
            self.pos += 1;
        }
        let digits_start = self.pos;
        let Some((v, end)) = signed_digits(self.src, self.pos, neg) else {
            self.pos = start;
            return Err(self.error("an integer that fits in 64 bits"));
        };
        self.pos = end;
        if self.pos == digits_start {
            if marker && !neg && allow_underscore && !self.src.get(self.pos).is_some_and(|c| c.is_ascii_alphanumeric())
            {
                return Ok(UNDERSCORE);
            }
            self.pos = if marker { digits_start } else { start };
            return Err(self.error(if allow_underscore { "an integer or '_'" } else { "an integer" }));
        }
        if v == UNDERSCORE && allow_underscore {
            // In a slice coordinate this value is the `_` marker.
            self.pos = start;
            return Err(self.error("an integer above -9223372036854775808 in a coordinate"));
        }
        Ok(v)
    }

    /// A tuple or integer, appended to `out` as one subtree. (Written in
    /// place: a parsed tree is never moved while it is built.) A loop with
    /// the nesting in `depth`, not a recursion: a call per element was a
    /// sixth of the instructions of a parse.
    pub(crate) fn tuple_into(&mut self, out: &mut IntTuple, allow_underscore: bool) -> Result<()> {
        if self.leaves.is_none() && out.toks().is_empty() && self.tuple_fast(out) {
            return Ok(());
        }
        let outer = self.depth;
        loop {
            // An element: a leaf, `()`, or the start of a tuple.
            if self.peek() == Some(b'(') {
                self.enter()?;
                self.pos += 1;
                out.open();
                if !self.eat(b')') {
                    continue;
                }
                out.close();
                self.leave();
            } else {
                let v = if self.leaves.is_some() { self.macro_leaf()? } else { self.int(allow_underscore)? };
                out.leaf(v);
            }
            // After an element: close the tuples that end here, then a
            // comma before the next element.
            loop {
                if self.depth == outer {
                    return Ok(());
                }
                match self.peek() {
                    Some(b')') => {
                        self.pos += 1;
                        out.close();
                        self.leave();
                    }
                    Some(b',') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return Err(self.error("',' or ')'")),
                }
            }
        }
    }

    /// The common case of [`Parser::tuple_into`] (into an empty `out`) in
    /// one pass over the bytes, with no call or `Result` per leaf: a parse
    /// was about 70 instructions a leaf through [`Parser::int`]. `false`,
    /// with nothing consumed and `out` empty again, for anything else (a
    /// `_` alone, more than 18 digits, nesting past the limit, an error):
    /// the general path then reads it, and words the error, exactly as
    /// before.
    fn tuple_fast(&mut self, out: &mut IntTuple) -> bool {
        let src = self.src;
        let ws = |mut i: usize| {
            while src.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            i
        };
        let mut i = self.pos;
        let mut open = 0usize;
        let ok = 'scan: loop {
            // An element: `(`, `()` or an integer.
            i = ws(i);
            if src.get(i) == Some(&b'(') {
                if self.depth + open >= MAX_NESTING {
                    break 'scan false;
                }
                i = ws(i + 1);
                if src.get(i) == Some(&b')') {
                    out.open();
                    out.close();
                    i += 1;
                } else {
                    out.open();
                    open += 1;
                    continue;
                }
            } else {
                let neg = src.get(i) == Some(&b'-');
                i += usize::from(neg);
                i += usize::from(src.get(i) == Some(&b'_'));
                let digits = i;
                let mut v: i64 = 0;
                while let Some(d) = src.get(i).map(|c| c.wrapping_sub(b'0')).filter(|d| *d <= 9) {
                    if i - digits == 18 {
                        // A 19th digit might not fit: the general path checks.
                        break 'scan false;
                    }
                    v = v * 10 + i64::from(d);
                    i += 1;
                }
                if i == digits {
                    break 'scan false;
                }
                out.leaf(if neg { -v } else { v });
            }
            // After an element: the tuples that close here, then a comma.
            loop {
                if open == 0 {
                    break 'scan true;
                }
                i = ws(i);
                match src.get(i) {
                    Some(b')') => {
                        out.close();
                        open -= 1;
                        i += 1;
                    }
                    Some(b',') => {
                        i += 1;
                        break;
                    }
                    _ => break 'scan false,
                }
            }
        };
        if ok {
            self.pos = i;
        } else {
            *out = IntTuple::empty();
        }
        ok
    }

    pub(crate) fn int_tuple(&mut self) -> Result<IntTuple> {
        let mut t = IntTuple::empty();
        self.tuple_into(&mut t, false)?;
        Ok(t)
    }

    /// `shape ':' stride`, the colon already known to follow `shape`.
    pub(crate) fn layout_after_shape(&mut self, shape: IntTuple, shape_col: usize) -> Result<Layout> {
        let mut l = Layout::from_parts(shape, IntTuple::empty());
        self.stride_into(&mut l, shape_col)?;
        Ok(l)
    }

    /// Parses `':' stride` into `l` (whose shape is parsed) and checks the
    /// layout's invariants, naming the columns of what is wrong.
    fn stride_into(&mut self, l: &mut Layout, shape_col: usize) -> Result<()> {
        let stride_col = self.stride_text(l)?;
        checked(l, shape_col, stride_col)
    }
}

/// Checks a parsed layout's invariants, naming the columns (where its shape
/// and stride start) of what is wrong.
fn checked(l: &Layout, shape_col: usize, stride_col: usize) -> Result<()> {
    l.validate().map_err(|e| match e {
        LayoutError::NotCongruent { .. } => LayoutError::Parse {
            column: stride_col,
            expected: "a stride congruent to the shape".to_string(),
            found: "a stride of another tree structure".to_string(),
        },
        LayoutError::NonPositiveShape { .. } => LayoutError::Parse {
            column: shape_col,
            expected: "a shape with positive extents".to_string(),
            found: "an extent below 1".to_string(),
        },
        other => other,
    })
}

impl Parser<'_> {
    /// `':' stride` into `l`, unchecked; the column where the stride starts.
    fn stride_text(&mut self, l: &mut Layout) -> Result<usize> {
        self.expect(b':', "':'")?;
        self.ws();
        let stride_col = self.column();
        self.tuple_into(&mut l.stride, false)?;
        Ok(stride_col)
    }

    /// `shape ':' stride` into `l`, unchecked; the columns where they start.
    fn layout_text(&mut self, l: &mut Layout) -> Result<(usize, usize)> {
        self.ws();
        let shape_col = self.column();
        self.tuple_into(&mut l.shape, false)?;
        Ok((shape_col, self.stride_text(l)?))
    }

    /// A whole layout, parsed in place into `l` (empty trees on entry).
    pub(crate) fn layout_into(&mut self, l: &mut Layout) -> Result<()> {
        let (shape_col, stride_col) = self.layout_text(l)?;
        checked(l, shape_col, stride_col)
    }

    /// A tile: a layout, a shape (tuple or integer, stride 1 by mode, 0 for
    /// an extent 1: [`Tiler::from_shape`]) or a nested tiler, in angle
    /// brackets or (when not a tuple) parentheses.
    pub(crate) fn tile(&mut self) -> Result<Tiler> {
        if self.peek() == Some(b'<') {
            return self.tiler_brackets();
        }
        self.ws();
        let col = self.column();
        let (recorded, depth) = (self.leaves.as_ref().map_or(0, Vec::len), self.depth);
        let shape = match self.int_tuple() {
            Ok(shape) => shape,
            Err(_) if self.src.get(col - 1) == Some(&b'(') => {
                // Not a tuple: read `( tile, ... )` as a nested tiler, from
                // where the tuple started. Its error is the one reported if
                // that fails too: the tiles are the more general reading.
                self.pos = col - 1;
                self.depth = depth;
                if let Some(leaves) = &mut self.leaves {
                    leaves.truncate(recorded);
                }
                self.enter()?;
                let t = self.tiles_until(b'(', b')', "',' or ')'");
                self.leave();
                return t;
            }
            Err(e) => return Err(e),
        };
        if self.peek() == Some(b':') {
            Ok(Tiler::Layout(self.layout_after_shape(shape, col)?))
        } else {
            // In macro text a run-time leaf (read as 1) is CuTe's dynamic
            // int, whose tile is `n:1`; a static 1 is `1:0`.
            let leaves = self.leaves.as_deref().unwrap_or_default();
            let mut run_time = leaves.iter().skip(recorded).map(|l| !matches!(l.kind, LeafKind::Int(_)));
            crate::tiler::from_shape_leaves(&shape, &mut run_time).map_err(|_| LayoutError::Parse {
                column: col,
                expected: "a shape with positive extents".to_string(),
                found: "an extent below 1".to_string(),
            })
        }
    }

    /// `'<' tile {',' tile} '>'`.
    pub(crate) fn tiler_brackets(&mut self) -> Result<Tiler> {
        self.enter()?;
        let t = self.tiler_body();
        self.leave();
        t
    }

    fn tiler_body(&mut self) -> Result<Tiler> {
        self.tiles_until(b'<', b'>', "',' or '>'")
    }

    /// `open tile {',' tile} close` (empty allowed), the tiles of a tiler.
    fn tiles_until(&mut self, open: u8, close: u8, expected: &str) -> Result<Tiler> {
        self.expect(open, if open == b'<' { "'<'" } else { "'('" })?;
        let mut tiles = Vec::new();
        if !self.eat(close) {
            loop {
                tiles.push(self.tile()?);
                if self.eat(close) {
                    break;
                }
                self.expect(b',', expected)?;
            }
        }
        Ok(Tiler::Tuple(tiles))
    }
}

impl FromStr for IntTuple {
    type Err = LayoutError;
    /// Parses `4`, `(4,8)`, `(4,(3,2))`, `(_4,_8)`.
    fn from_str(s: &str) -> Result<IntTuple> {
        let mut p = Parser::new(s);
        let t = p.int_tuple()?;
        p.expect_end()?;
        Ok(t)
    }
}

impl FromStr for Layout {
    type Err = LayoutError;
    /// Parses `S:D`, e.g. `(4,(3,2)):(2,(8,1))` or `(_4,_8):(_1,_4)`.
    fn from_str(s: &str) -> Result<Layout> {
        // Built in place and made the returned value in one step.
        let mut out = Parts::new();
        if layout_fast(s.as_bytes(), &mut out).is_some() {
            return Ok(out.into_layout());
        }
        let mut p = Parser::new(s);
        let mut l = Layout::empty();
        p.layout_into(&mut l)?;
        p.expect_end()?;
        Ok(l)
    }
}

impl FromStr for Tiler {
    type Err = LayoutError;
    /// Parses `<3:3,(2,4):(1,8)>`, a single layout, or a shape.
    fn from_str(s: &str) -> Result<Tiler> {
        let mut p = Parser::new(s);
        let t = p.tile()?;
        p.expect_end()?;
        Ok(t)
    }
}

/// The common case of a layout's text, `shape:stride` with every integer
/// of at most 18 digits and the whole inside the inline room, parsed in one
/// pass straight into `out` (empty on entry): the shape writes the
/// structure, the stride is checked against it token by token as it is
/// read (congruence for free), then the extents are checked. `None` for
/// anything else, without a word: the general parser then reads the text
/// again and words the error exactly as before.
#[cfg_attr(not(debug_assertions), inline(always))]
fn layout_fast(src: &[u8], out: &mut Parts) -> Option<()> {
    let (i, nt, nv) = tree_fast::<false>(src, 0, &mut out.tok, &mut out.shape, 0)?;
    let i = skip_ws(src, i);
    if src.get(i) != Some(&b':') {
        return None;
    }
    let (i, nt2, _) = tree_fast::<true>(src, i + 1, &mut out.tok, &mut out.stride, nt)?;
    if nt2 != nt || skip_ws(src, i) != src.len() {
        return None;
    }
    (out.ntok, out.nval) = (nt, nv);
    // Every extent is positive (checked as read).
    if !out.fits() {
        return None;
    }
    Some(())
}

/// The first position at or after `i` that is not white space.
#[cfg_attr(not(debug_assertions), inline(always))]
fn skip_ws(src: &[u8], mut i: usize) -> usize {
    // Every character of the syntax is above b' ' (and white space is not),
    // so one comparison tells most characters apart.
    while src.get(i).is_some_and(|&c| c <= b' ' && c.is_ascii_whitespace()) {
        i += 1;
    }
    i
}

/// One tree of [`layout_fast`] from `src[i..]` (the grammar of
/// [`Parser::tuple_into`]'s fast path); its leaves go to `val`. The shape
/// (`CHECK` false) writes its tokens to `tok` and has positive leaves;
/// the stride (`CHECK` true) must match the first `ntok` of them. Returns the position after the
/// tree and its numbers of tokens and leaves; `None` on anything unusual.
/// The counts stay in registers: one bounds check per token, no stores of
/// a length.
#[cfg_attr(not(debug_assertions), inline(always))]
fn tree_fast<const CHECK: bool>(
    src: &[u8],
    mut i: usize,
    tok: &mut u64,
    val: &mut [i64; INLINE_VALS],
    ntok: usize,
) -> Option<(usize, usize, usize)> {
    let (mut nt, mut nv, mut open) = (0usize, 0usize, 0usize);
    let mut put = |t: Tok, nt: &mut usize| -> Option<()> {
        if *nt >= INLINE_TOKS {
            return None;
        }
        let code = t.code();
        if CHECK {
            if *nt >= ntok || (*tok >> (2 * *nt)) & 3 != code {
                return None;
            }
        } else {
            *tok |= code << (2 * *nt);
        }
        *nt += 1;
        Some(())
    };
    loop {
        // An element: `(`, `()` or an integer.
        i = skip_ws(src, i);
        if src.get(i) == Some(&b'(') {
            i = skip_ws(src, i + 1);
            put(Tok::Open, &mut nt)?;
            if src.get(i) != Some(&b')') {
                open += 1;
                continue;
            }
            put(Tok::Close, &mut nt)?;
            i += 1;
        } else {
            let neg = src.get(i) == Some(&b'-');
            i += usize::from(neg);
            i += usize::from(src.get(i) == Some(&b'_'));
            let digits = i;
            let mut v: i64 = 0;
            while let Some(d) = src.get(i).map(|c| c.wrapping_sub(b'0')).filter(|d| *d <= 9) {
                if i - digits == 18 {
                    // A 19th digit might not fit: the general path checks.
                    return None;
                }
                v = v * 10 + i64::from(d);
                i += 1;
            }
            if i == digits {
                return None;
            }
            // A shape's extent below 1: the general path words the error.
            if !CHECK && (neg || v == 0) {
                return None;
            }
            put(Tok::Leaf, &mut nt)?;
            *val.get_mut(nv)? = if neg { -v } else { v };
            nv += 1;
        }
        // After an element: the tuples that close here, then a comma.
        loop {
            if open == 0 {
                return Some((i, nt, nv));
            }
            i = skip_ws(src, i);
            match src.get(i) {
                Some(b')') => {
                    put(Tok::Close, &mut nt)?;
                    open -= 1;
                    i += 1;
                }
                Some(b',') => {
                    i += 1;
                    break;
                }
                _ => return None,
            }
        }
    }
}

/// `true` if the tuple holds a `_` marker.
pub(crate) fn has_underscore(t: &IntTuple) -> bool {
    t.vals().contains(&UNDERSCORE)
}

/// The decimal digits at `src[pos..]` as an `i64` negated when `neg`,
/// accumulated with the sign so that `i64::MIN` reads too; the value and the
/// position after the digits (`pos` itself when there are none), or `None`
/// when the number does not fit. Shared by the layout and descriptor parsers.
pub(crate) fn signed_digits(src: &[u8], mut pos: usize, neg: bool) -> Option<(i64, usize)> {
    let sign = if neg { -1 } else { 1 };
    let mut v: i64 = 0;
    while let Some(&c) = src.get(pos).filter(|c| c.is_ascii_digit()) {
        v = v.checked_mul(10)?.checked_add(sign * i64::from(c - b'0'))?;
        pos += 1;
    }
    Some((v, pos))
}

/// A leaf of macro text, as [`parse_macro_layout`] and its siblings record
/// it: where it starts and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafText {
    /// The 1-based byte column of its first character.
    pub column: usize,
    /// An integer, or which spelling of a run-time leaf.
    pub kind: LeafKind,
}

/// What a leaf of macro text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeafKind {
    /// A literal integer (a static leaf in cute-static).
    Int(i64),
    /// A braced expression `{m}`: a run-time value.
    Braced,
    /// The word `Dyn`: the type of a run-time leaf.
    Dyn,
}

/// The shape and stride of a layout written in macro text, not yet checked
/// for congruence or extents (the caller does, with [`Layout::new`], to word
/// its own messages), with every leaf in text order: the shape's leaves,
/// then the stride's. A run-time leaf reads as 1 in the trees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutText {
    /// The shape tree.
    pub shape: IntTuple,
    /// The stride tree.
    pub stride: IntTuple,
    /// The column where the shape starts.
    pub shape_column: usize,
    /// The column where the stride starts.
    pub stride_column: usize,
    /// Every leaf, in text order.
    pub leaves: Vec<LeafText>,
}

/// Parses macro text as a layout (`shape ':' stride`, the grammar of
/// `Layout`'s `FromStr`), where a leaf may also be `{m}` or `Dyn`.
/// cute-static's `layout!` and `Layout!` read their input with it; the text
/// is accepted by `"…".parse::<Layout>()` exactly when this returns `Ok` and
/// [`Layout::new`] accepts the trees (and it has no run-time leaf).
///
/// ```
/// use cute_dynamic::{LeafKind, parse_macro_layout};
/// let l = parse_macro_layout("({m},8):(1,{m})").unwrap();
/// assert_eq!((l.shape.to_string(), l.stride.to_string()), ("(1,8)".into(), "(1,1)".into()));
/// assert_eq!(l.leaves[0].kind, LeafKind::Braced);
/// assert_eq!(l.leaves[1].kind, LeafKind::Int(8));
/// assert_eq!(parse_macro_layout("(4,8)(1,4)").unwrap_err().to_string(), "expected ':' at column 6, found '('");
/// ```
pub fn parse_macro_layout(text: &str) -> Result<LayoutText> {
    let mut p = Parser::for_macro(text);
    let mut l = Layout::empty();
    let (shape_column, stride_column) = p.layout_text(&mut l)?;
    p.expect_end()?;
    let leaves = p.leaves.unwrap_or_default();
    Ok(LayoutText { shape: l.shape, stride: l.stride, shape_column, stride_column, leaves })
}

/// Parses macro text as an integer tuple (the grammar of `IntTuple`'s
/// `FromStr`), a leaf also `{m}` or `Dyn` (read as 1); every leaf in text
/// order. cute-static's `shape!` and `stride!` read their input with it.
///
/// ```
/// use cute_dynamic::{LeafKind, parse_macro_int_tuple};
/// let (t, leaves) = parse_macro_int_tuple("(Dyn,(3,_2))").unwrap();
/// assert_eq!(t.to_string(), "(1,(3,2))");
/// assert_eq!(leaves[0].kind, LeafKind::Dyn);
/// assert!(parse_macro_int_tuple("(4,)").is_err());
/// ```
pub fn parse_macro_int_tuple(text: &str) -> Result<(IntTuple, Vec<LeafText>)> {
    let mut p = Parser::for_macro(text);
    let t = p.int_tuple()?;
    p.expect_end()?;
    Ok((t, p.leaves.unwrap_or_default()))
}

/// Parses macro text as a tiler (the grammar of `Tiler`'s `FromStr`), a
/// leaf also `{m}` or `Dyn` (read as 1); every leaf in text order (a shape
/// tile's implied stride is not a leaf of the text). cute-static's `tile!`
/// reads `<` its input `>` with it. An integer tile is
/// [`Tiler::from_shape`]'s, `n:1` and `1:0` for a static 1, and a run-time
/// leaf of a shape tile is `1:1` (CuTe's compact stride of a dynamic
/// integer is 1).
///
/// ```
/// use cute_dynamic::parse_macro_tiler;
/// let (t, _) = parse_macro_tiler("<3:3, (2:1, 4)>").unwrap();
/// assert_eq!(t.to_string(), "<3:3,<2:1,4:1>>");
/// let (t, _) = parse_macro_tiler("<1, ({m},1)>").unwrap();
/// assert_eq!(t.to_string(), "<1:0,<1:1,1:0>>");
/// ```
pub fn parse_macro_tiler(text: &str) -> Result<(Tiler, Vec<LeafText>)> {
    let mut p = Parser::for_macro(text);
    let t = p.tile()?;
    p.expect_end()?;
    Ok((t, p.leaves.unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The general parser alone (what `from_str` falls back to).
    fn general(text: &str) -> Result<Layout> {
        let mut p = Parser::new(text);
        let mut l = Layout::empty();
        p.layout_into(&mut l)?;
        p.expect_end()?;
        Ok(l)
    }

    /// The one-pass layout parser agrees with the general one wherever it
    /// answers, answers for every printed small layout, and leaves every
    /// error (and its wording) to the general one.
    #[test]
    fn fast_layout_parse_agrees_with_the_general_path() {
        let mut texts: Vec<String> = Vec::new();
        for l in crate::layout::small_layouts() {
            let t = l.to_string();
            texts.push(format!(" {} ", t.replace(',', " , ").replace(':', " : ")));
            texts.push(t.replace('(', "( ").replace(')', " )"));
            // Structure, extents and syntax broken in a few ways.
            texts.push(t.replacen(':', ":(", 1) + ")");
            texts.push(t.replacen('2', "0", 1));
            texts.push(t.replacen('1', "-1", 1));
            texts.push(t.replacen('1', "_1", 1));
            texts.push(t.replacen(',', ",,", 1));
            texts.push(t.replacen(':', "", 1));
            texts.push(t.clone() + "x");
            texts.push(t);
        }
        for extra in [
            "",
            ":",
            "():()",
            "(()):(())",
            "((4)):((1))",
            "1234567890123456789:1",
            "123456789012345678:1",
            "4611686018427387904:2",
            "(2,2):(4611686018427387904,1)",
            "(_4,_8):(_1,_4)",
            "(_,4):(1,4)",
            "(2,(3,4)):(1,6)",
            "(1,1,1,1,1,1,1,1,1,1,1):(0,0,0,0,0,0,0,0,0,0,0)",
            "((((((((((((((((4)))))))))))))))):((((((((((((((((1))))))))))))))))",
            "(4,8):(- 1,- 4)",
            "4:- _2",
        ] {
            texts.push(extra.to_string());
        }
        let mut answered = 0;
        for t in &texts {
            let mut out = Parts::new();
            if layout_fast(t.as_bytes(), &mut out).is_some() {
                answered += 1;
                assert_eq!(Ok(out.into_layout()), general(t), "{t:?}");
            }
            assert_eq!(t.parse::<Layout>(), general(t), "{t:?}");
        }
        let printed = crate::layout::small_layouts().len();
        assert!(answered >= 3 * printed, "the fast path answered {answered} of {} texts", texts.len());
    }

    /// A `-` and its digits may be apart, as the macros' tokens are.
    #[test]
    fn a_minus_sign_may_be_followed_by_whitespace() {
        for (spaced, joined) in [("(4,8):(- 1,- 4)", "(4,8):(-1,-4)"), ("4:- 0", "4:0"), ("(2,2):(-\t3, 1)", "(2,2):(-3,1)")] {
            assert_eq!(spaced.parse::<Layout>(), joined.parse::<Layout>(), "{spaced}");
        }
        assert!("4:-".parse::<Layout>().is_err());
        assert!("4:- x".parse::<Layout>().is_err());
    }
}
