//! Procedural macros that spell static CuTe layouts in CuTe's own notation.
//!
//! Use them through `cute_static::prelude`; the expansions name paths of the
//! `cute_static` crate. Every macro reads cute-dynamic's text syntax, CuTe's
//! printed notation (`(4,(3,2)):(2,(8,1))`, `12:1`, the static marker `_4`
//! accepted), and turns each integer into a typenum unsigned integer type.
//!
//! | macro | expands to |
//! |---|---|
//! | `layout!(S:D)` | a value of type `cute_static::Layout<S, D>` |
//! | `Layout![S:D]` | the type `cute_static::Layout<S, D>` |
//! | `shape!(...)`, `stride!(...)` | a value: a typenum integer or a Rust tuple of them |
//! | `Shape![...]`, `Stride![...]` | the type of that value |
//! | `tile!(t0, t1, ...)` | a value of type `cute_static::Tiler<(T0, T1, ...)>` |
//! | `Tile![t0, t1, ...]` | the type of that value |
//!
//! A number is a static leaf. A braced Rust expression is a run-time leaf
//! (`layout!(({m}, 8):(1, {m}))`, `shape!({m}, 8)`), and in the type macros
//! the word `Dyn` is (`Layout![(Dyn, 8):(1, Dyn)]`). A layout with run-time
//! leaves expands to `cute_static::make_layout`, which checks them at run
//! time (panicking with the error's text); `try_layout!` returns that check's
//! `Result`. Tilers are static only.
//!
//! **One grammar.** The macros do not parse on their own: they write their
//! input tokens out as text and read it with cute-dynamic's parser
//! (`parse_macro_layout`, `parse_macro_int_tuple`, `parse_macro_tiler`, the
//! grammar of `"…".parse::<Layout>()` with run-time leaves added), then
//! check the trees with cute-dynamic's own rules (`Layout::new`). So a text
//! without run-time leaves is accepted by `layout!(T)` exactly when
//! `T.parse::<Layout>()` accepts it, by `stride!(T)` when
//! `T.parse::<IntTuple>()` does, and by `tile!(T)` when `<T>` parses as a
//! `Tiler`, except for two values cute-static cannot represent: negative
//! integers (static leaves are unsigned; a negative stride is a run-time
//! leaf `{-4}`) and the empty tuple `()` (cute-static has no rank-0
//! tuples). `shape!` also requires positive extents.
//!
//! Malformed input is a compile error at the offending token, with the
//! parser's words (`expected ',' or ')', found ':'`). Shape and stride trees
//! that differ are an error containing `not congruent`; a zero extent in a
//! shape is an error.

use cute_dynamic::{IntTuple, LayoutError, LeafKind, LeafText, Tiler as DynTiler};
use proc_macro::TokenStream;
use proc_macro2::{Delimiter, Group, Span, TokenStream as TokenStream2, TokenTree};
use quote::{quote, quote_spanned};

/// A compile error: a message at a span.
struct Error {
    span: Span,
    msg: String,
}

type Res<T> = Result<T, Error>;

fn err<T>(span: Span, msg: impl std::fmt::Display) -> Res<T> {
    Err(Error { span, msg: msg.to_string() })
}

impl Error {
    fn to_compile_error(&self) -> TokenStream2 {
        let msg = &self.msg;
        quote_spanned! {self.span=> ::core::compile_error!{ #msg } }
    }
}

/// Macro input written out as text for cute-dynamic's parser, with where
/// each token's text lies so that a column of the text maps back to a token.
struct Text {
    text: String,
    /// First byte, end byte and span of each token's text, in text order.
    marks: Vec<(usize, usize, Span)>,
    /// Byte position and whole span of each `(...)` group (an error about a
    /// tree points at the whole tree).
    groups: Vec<(usize, Span)>,
    /// The braced run-time leaves, in text order (each written as `{}`).
    braced: Vec<Group>,
    /// Spans of the empty groups `()`.
    empty: Vec<Span>,
    /// What the macro reads ("layout", "shape", "tiler"), for messages.
    what: &'static str,
    /// The closing character added around the input, if any.
    close: Option<char>,
}

impl Text {
    /// Whether a `:` follows the leaf that starts at the 1-based `column`
    /// (a braced leaf is written `{}` in the text).
    fn colon_after(&self, column: usize) -> bool {
        let rest = self.text.get(column.saturating_sub(1)..).unwrap_or("");
        let after = match rest.strip_prefix("{}") {
            Some(r) => r,
            None => rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
        };
        after.trim_start().starts_with(':')
    }

    /// The text of `input`, between `wrap.0` and `wrap.1` when given (a
    /// shape list `4, 8` is the tuple `(4, 8)`, a tiler's tiles `<...>`).
    fn new(input: TokenStream2, what: &'static str, wrap: Option<(&str, &str)>) -> Text {
        let mut t = Text {
            text: String::new(),
            marks: Vec::new(),
            groups: Vec::new(),
            braced: Vec::new(),
            empty: Vec::new(),
            what,
            close: wrap.and_then(|w| w.1.chars().next()),
        };
        if let Some((open, _)) = wrap {
            t.push(open, Span::call_site());
        }
        t.render(input);
        if let Some((_, close)) = wrap {
            t.push(close, Span::call_site());
        }
        t
    }

    fn push(&mut self, s: &str, span: Span) {
        // Two words in a row (`4 8`, `_ 4`) stay apart, as in the source;
        // everything else is written without blanks, which the grammar
        // ignores anyway (`- 4` is the token pair `-`, `4` either way).
        let word = |c: char| c.is_alphanumeric() || c == '_';
        if self.text.ends_with(word) && s.starts_with(word) {
            self.text.push(' ');
        }
        let start = self.text.len();
        self.text.push_str(s);
        self.marks.push((start, self.text.len(), span));
    }

    fn render(&mut self, ts: TokenStream2) {
        for tt in ts {
            match tt {
                TokenTree::Group(g) => match g.delimiter() {
                    Delimiter::Parenthesis | Delimiter::Bracket => {
                        let (open, close) =
                            if g.delimiter() == Delimiter::Parenthesis { ("(", ")") } else { ("[", "]") };
                        if g.stream().is_empty() {
                            self.empty.push(g.span());
                        }
                        self.groups.push((self.text.len(), g.span()));
                        self.push(open, g.span_open());
                        self.render(g.stream());
                        self.push(close, g.span_close());
                    }
                    Delimiter::Brace => {
                        self.push("{}", g.span());
                        self.braced.push(g);
                    }
                    // An invisible group from a `macro_rules!` fragment: its
                    // tokens, as if written in place.
                    Delimiter::None => self.render(g.stream()),
                },
                TokenTree::Ident(i) => self.push(&i.to_string(), i.span()),
                TokenTree::Literal(l) => self.push(&l.to_string(), l.span()),
                TokenTree::Punct(p) => self.push(&p.as_char().to_string(), p.span()),
            }
        }
    }

    /// The span of the token at (or, past blanks, after) a 1-based column.
    fn span_at(&self, column: usize) -> Span {
        let b = column.saturating_sub(1);
        self.marks.iter().find(|m| b < m.1).map_or_else(Span::call_site, |m| m.2)
    }

    /// The span of the tree starting at a column: the whole group when it
    /// is a tuple.
    fn tree_span(&self, column: usize) -> Span {
        let b = column.saturating_sub(1);
        self.groups.iter().find(|g| g.0 == b).map_or_else(|| self.span_at(column), |g| g.1)
    }

    /// A parser error as a compile error at the offending token.
    fn error(&self, e: LayoutError) -> Error {
        match e {
            LayoutError::Parse { column, expected, found } => {
                Error { span: self.span_at(column), msg: self.explain(column, &expected, &found) }
            }
            other => Error { span: Span::call_site(), msg: other.to_string() },
        }
    }

    /// The parser's words, with a hint where the source tokens show the
    /// likely slip.
    fn explain(&self, column: usize, expected: &str, found: &str) -> String {
        let b = column.saturating_sub(1);
        let before = self.text.get(..b).unwrap_or("").trim_end();
        if let Some(m) = self.marks.iter().find(|m| m.0 < b && b < m.1) {
            // Inside one token: a literal such as `4u32` or `4_000`.
            let tok = &self.text[m.0..m.1];
            return format!("expected an integer (`4` or `_4`, without suffix or separators), found `{tok}`");
        }
        if before.ends_with(',') && (found == "')'" || found == "'>'") {
            return format!("expected {expected}, found {found} (no trailing comma in CuTe tuples)");
        }
        if before.ends_with(':') && found == "':'" {
            return "expected a single ':' between shape and stride, found '::'".to_string();
        }
        if expected == "':'" {
            return format!("expected ':' between shape and stride, found {found}");
        }
        let end = format!("end of {}", self.what);
        let found = if found == "end of input" { end.as_str() } else { found };
        let mut expected = expected.replace("end of input", &end);
        if let Some(c) = self.close {
            // At the top level, the closing character the macro added is
            // the end of the user's input.
            let depth: i64 = before
                .chars()
                .skip(1)
                .map(|c| match c {
                    '(' | '<' | '[' => 1,
                    ')' | '>' | ']' => -1,
                    _ => 0,
                })
                .sum();
            if depth == 0 {
                expected = expected.replace(&format!("'{c}'"), &end);
            }
        }
        format!("expected {expected}, found {found}")
    }

    /// Rejects what cute-static cannot represent although the grammar
    /// accepts it: a negative integer and the empty tuple.
    fn check_static_values(&self, leaves: &[LeafText]) -> Res<()> {
        if let Some(l) = leaves.iter().find(|l| matches!(l.kind, LeafKind::Int(v) if v < 0)) {
            return err(
                self.span_at(l.column),
                "static strides are non-negative: negative integers are not accepted here (a negative stride is a run-time leaf `{-4}`, or use cute-dynamic)",
            );
        }
        if let Some(sp) = self.empty.first() {
            return err(*sp, "`()` is a rank-0 tuple: valid CuTe text, but cute-static has no rank-0 tuples");
        }
        Ok(())
    }
}

/// The typenum type for `v`: the `consts` alias up to 1024, the binary
/// `UInt<..., B_>` spelling beyond.
fn uint_type(v: u64) -> TokenStream2 {
    if v <= 1024 {
        let id = proc_macro2::Ident::new(&format!("U{v}"), Span::call_site());
        return quote! { ::cute_static::typenum::consts::#id };
    }
    let mut ty = quote! { ::cute_static::typenum::UTerm };
    let bits = 64 - v.leading_zeros();
    for k in (0..bits).rev() {
        let bit = if (v >> k) & 1 == 1 {
            quote! { ::cute_static::typenum::B1 }
        } else {
            quote! { ::cute_static::typenum::B0 }
        };
        ty = quote! { ::cute_static::typenum::UInt<#ty, #bit> };
    }
    ty
}

/// A static leaf as a type or a value.
fn static_leaf(v: i64, value: bool) -> TokenStream2 {
    // Negative leaves are rejected before code is generated.
    let t = uint_type(v.unsigned_abs());
    if value {
        quote! { <#t>::new() }
    } else {
        t
    }
}

/// Generates code for parsed trees, taking their leaves in text order.
struct Leaves<'a> {
    text: &'a Text,
    leaves: &'a [LeafText],
    next: usize,
    braced: usize,
}

impl<'a> Leaves<'a> {
    fn new(text: &'a Text, leaves: &'a [LeafText]) -> Self {
        Leaves { text, leaves, next: 0, braced: 0 }
    }

    fn leaf(&mut self) -> Res<LeafText> {
        let l = self.leaves.get(self.next).copied();
        self.next += 1;
        l.map_or_else(|| err(Span::call_site(), "internal error: fewer leaves than the tree has"), Ok)
    }

    /// The type (`value` false) or value of `t`, as a tree of typenum
    /// integers and `Dyn`.
    fn code(&mut self, t: &IntTuple, value: bool) -> Res<TokenStream2> {
        if t.is_int() {
            let leaf = self.leaf()?;
            return match leaf.kind {
                LeafKind::Int(v) => Ok(static_leaf(v, value)),
                LeafKind::Braced => {
                    let g = &self.text.braced[self.braced];
                    self.braced += 1;
                    if !value {
                        return err(
                            g.span(),
                            "a braced expression is a run-time value: in a type (`Layout!`, `Shape!`, `Stride!`, `Tile!`) write `Dyn`",
                        );
                    }
                    // Spanned at the macro call, so that the braces (needed
                    // in the syntax, not in the expansion) are not linted as
                    // `unused_braces` in the user's code.
                    let mut g = Group::new(Delimiter::Brace, g.stream());
                    g.set_span(Span::call_site());
                    Ok(quote! { #g })
                }
                LeafKind::Dyn if value => err(
                    self.text.span_at(leaf.column),
                    "`Dyn` names the type of a run-time leaf: in a value write the run-time integer in braces, `{m}`",
                ),
                LeafKind::Dyn => Ok(quote! { ::cute_static::Dyn }),
            };
        }
        let c = t.modes().map(|m| self.code(&m, value)).collect::<Res<Vec<_>>>()?;
        Ok(quote! { ( #(#c,)* ) })
    }

    /// CuTe text of `t` for messages (run-time leaves as written).
    fn show(&mut self, t: &IntTuple) -> String {
        if t.is_int() {
            let Some(leaf) = self.leaves.get(self.next).copied() else { return String::new() };
            self.next += 1;
            return match leaf.kind {
                LeafKind::Int(v) => v.to_string(),
                LeafKind::Dyn => "Dyn".to_string(),
                LeafKind::Braced => {
                    self.braced += 1;
                    self.text.braced.get(self.braced - 1).map_or_else(String::new, Group::to_string)
                }
            };
        }
        let inner: Vec<String> = t.modes().map(|m| self.show(&m)).collect();
        format!("({})", inner.join(","))
    }
}

/// A layout read from macro text and checked.
struct LayoutSpec {
    text: Text,
    l: cute_dynamic::LayoutText,
}

impl LayoutSpec {
    fn has_run_time(&self) -> bool {
        self.l.leaves.iter().any(|l| !matches!(l.kind, LeafKind::Int(_)))
    }

    /// Shape and stride as code, types or values.
    fn code(&self, value: bool) -> Res<(TokenStream2, TokenStream2)> {
        let mut g = Leaves::new(&self.text, &self.l.leaves);
        let s = g.code(&self.l.shape, value)?;
        let d = g.code(&self.l.stride, value)?;
        Ok((s, d))
    }
}

/// layout := tuple ':' tuple, read by cute-dynamic's parser; then the
/// checks of `cute_dynamic::Layout::new`, worded for the macro.
fn parse_layout(input: TokenStream2) -> Res<LayoutSpec> {
    if input.is_empty() {
        return err(Span::call_site(), "expected a layout `shape:stride`, e.g. `(4,8):(1,4)`");
    }
    let text = Text::new(input, "layout", None);
    let l = cute_dynamic::parse_macro_layout(&text.text).map_err(|e| text.error(e))?;
    text.check_static_values(&l.leaves)?;
    let show = |t: &IntTuple, from: usize| {
        let mut g = Leaves::new(&text, &l.leaves);
        g.next = from;
        g.braced = l.leaves[..from].iter().filter(|l| l.kind == LeafKind::Braced).count();
        g.show(t)
    };
    let n = l.shape.leaf_count();
    if let Some(z) = l.leaves[..n].iter().find(|l| l.kind == LeafKind::Int(0)) {
        return err(
            text.span_at(z.column),
            format!("shape `{}` has a zero extent: every shape extent must be positive", show(&l.shape, 0)),
        );
    }
    if !l.shape.congruent(&l.stride) {
        return err(
            text.tree_span(l.stride_column),
            format!(
                "shape `{}` and stride `{}` are not congruent: they must have the same tree of tuples and integers",
                show(&l.shape, 0),
                show(&l.stride, n)
            ),
        );
    }
    // The rest of cute-dynamic's checks (a size or offset beyond `i64`).
    cute_dynamic::Layout::new(l.shape.clone(), l.stride.clone()).map_err(|e| text.error(e))?;
    Ok(LayoutSpec { text, l })
}

/// A shape or stride: `shape!(4,8)` and `shape!((4,8))` both mean the tuple
/// `(4,8)` (a top-level comma makes the list a tuple); `shape!(4)` is the
/// integer, `shape!((4))` the rank-1 tuple. `shape` also requires
/// positive extents.
fn parse_tuple_arg(input: TokenStream2, what: &str, value: bool) -> Res<TokenStream2> {
    if input.is_empty() {
        return err(Span::call_site(), format!("expected a {what}, e.g. `(4,8)`"));
    }
    let list = input.clone().into_iter().any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','));
    let what = if what == "shape" { "shape" } else { "stride" };
    let text = Text::new(input, what, list.then_some(("(", ")")));
    let (t, leaves) = cute_dynamic::parse_macro_int_tuple(&text.text).map_err(|e| text.error(e))?;
    text.check_static_values(&leaves)?;
    if what == "shape"
        && let Some(z) = leaves.iter().find(|l| l.kind == LeafKind::Int(0))
    {
        let shown = Leaves::new(&text, &leaves).show(&t);
        return err(
            text.span_at(z.column),
            format!("shape `{shown}` has a zero extent: every shape extent must be positive"),
        );
    }
    let code = Leaves::new(&text, &leaves).code(&t, value)?;
    let run_time = leaves.iter().any(|l| !matches!(l.kind, LeafKind::Int(_)));
    // A value with run-time leaves goes through `make_shape`, which turns
    // `usize`/`i64` values into `Dyn` leaves.
    Ok(if value && run_time {
        quote! { ::cute_static::make_shape(#code) }
    } else {
        code
    })
}

/// A tiler from macro text `t0, t1, ...`, read as cute-dynamic reads
/// `<t0, t1, ...>`; the code of its tiles as types or values.
fn parse_tiler(input: TokenStream2, value: bool) -> Res<Vec<TokenStream2>> {
    if input.is_empty() {
        return err(Span::call_site(), "expected a tiler: comma-separated layouts and shapes, e.g. `3:3, (2,4):(1,8)`");
    }
    let text = Text::new(input, "tiler", Some(("<", ">")));
    let (t, leaves) = cute_dynamic::parse_macro_tiler(&text.text).map_err(|e| text.error(e))?;
    text.check_static_values(&leaves)?;
    let DynTiler::Tuple(tiles) = t else {
        return err(Span::call_site(), "internal error: a tiler in angle brackets is a tuple of tiles");
    };
    fn has_empty(t: &DynTiler) -> bool {
        matches!(t, DynTiler::Tuple(ts) if ts.is_empty() || ts.iter().any(has_empty))
    }
    if tiles.is_empty() || tiles.iter().any(has_empty) {
        return err(Span::call_site(), "`<>` is a rank-0 tiler: valid CuTe text, but cute-static has no rank-0 tilers");
    }
    let mut lv = Leaves::new(&text, &leaves);
    tiles.iter().map(|t| tile_code_of(t, &mut lv, value)).collect()
}

/// The code of a tile, its leaves read from `lv` in text order: an
/// all-static tile as [`tile_code`] writes it; with a run-time leaf, a
/// layout tile `s:d` is `make_layout` of its leaves (`Layout<S, D>` in a
/// type), and an integer tile `{m}` is CuTe's `m:_1`.
fn tile_code_of(t: &DynTiler, lv: &mut Leaves<'_>, value: bool) -> Res<TokenStream2> {
    let DynTiler::Layout(l) = t else {
        let DynTiler::Tuple(ts) = t else { unreachable!() };
        let c = ts.iter().map(|t| tile_code_of(t, lv, value)).collect::<Res<Vec<_>>>()?;
        return Ok(quote! { ( #(#c,)* ) });
    };
    let first = lv.next;
    let Some(head) = lv.leaves.get(first) else {
        return err(Span::call_site(), "internal error: fewer leaves than the tiler has");
    };
    // An integer tile's implied stride is not a leaf of the text: the tile
    // is a layout when a `:` follows its shape's one leaf.
    let written = !l.shape().is_int() || lv.text.colon_after(head.column);
    let n = l.shape().leaf_count() + if written { l.stride().leaf_count() } else { 0 };
    let Some(mine) = lv.leaves.get(first..first + n) else {
        return err(Span::call_site(), "internal error: fewer leaves than the tiler has");
    };
    if mine.iter().all(|x| matches!(x.kind, LeafKind::Int(_))) {
        lv.next += n;
        return Ok(tile_code(t, value));
    }
    let s = lv.code(l.shape(), value)?;
    // An integer tile `{m}` is CuTe's `m:_1`.
    let d = if written { lv.code(l.stride(), value)? } else { static_leaf(1, value) };
    Ok(if value {
        quote! { ::cute_static::make_layout(#s, #d) }
    } else {
        quote! { ::cute_static::Layout<#s, #d> }
    })
}

/// The code of an all-static tile: a layout, or a tuple of tiles.
fn tile_code(t: &DynTiler, value: bool) -> TokenStream2 {
    fn tree(t: &IntTuple, value: bool) -> TokenStream2 {
        match t.as_int() {
            Some(v) => static_leaf(v, value),
            None => {
                let c: Vec<TokenStream2> = t.modes().map(|m| tree(&m, value)).collect();
                quote! { ( #(#c,)* ) }
            }
        }
    }
    match t {
        DynTiler::Layout(l) => {
            let (s, d) = (tree(l.shape(), value), tree(l.stride(), value));
            if value {
                quote! { ::cute_static::Layout::from_static_parts(#s, #d) }
            } else {
                quote! { ::cute_static::Layout<#s, #d> }
            }
        }
        DynTiler::Tuple(ts) => {
            let c: Vec<TokenStream2> = ts.iter().map(|t| tile_code(t, value)).collect();
            quote! { ( #(#c,)* ) }
        }
    }
}

fn emit(r: Res<TokenStream2>) -> TokenStream {
    match r {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// A layout value, written as in CuTe: `layout!((4,(3,2)):(2,(8,1)))`;
/// a braced expression is a run-time leaf: `layout!(({m},{n}):(1,{m}))`.
///
/// All static: expands to `cute_static::Layout::<S, D>::from_parts(..)`
/// where `S` and `D` are trees of typenum unsigned integers; the value is
/// zero-sized. With run-time leaves: expands to
/// `cute_static::make_layout(..)`, the braced expressions (`usize`, `i64`,
/// ... values) becoming `Dyn` leaves. Compile errors: malformed text (at the
/// offending token), a zero shape extent, shape and stride `not congruent`.
///
/// # Panics
///
/// With run-time leaves, when a run-time extent is below 1 or the size or
/// an offset exceeds `i64`, with the message of the error `try_layout!`
/// returns.
///
/// ```
/// use cute_static::prelude::*;
/// let l = layout!((4,8):(1,4));
/// assert_eq!(l.to_string(), "(_4,_8):(_1,_4)");
/// let m = 1000usize;
/// assert_eq!(layout!((8,{m}):(1,8)).to_string(), "(_8,1000):(_1,_8)");
/// ```
#[proc_macro]
pub fn layout(input: TokenStream) -> TokenStream {
    emit(parse_layout(input.into()).and_then(|l| {
        let (s, d) = l.code(true)?;
        Ok(if l.has_run_time() {
            quote! { ::cute_static::make_layout(#s, #d) }
        } else {
            quote! { ::cute_static::Layout::from_static_parts(#s, #d) }
        })
    }))
}

/// [`layout!`] returning the run-time checks' `Result<Layout, LayoutError>`
/// instead of panicking: it expands to `cute_static::try_make_layout(..)`
/// (with cute-static's default `std` feature).
///
/// ```
/// use cute_static::prelude::*;
/// let m = 0usize;
/// let e = try_layout!(({m},8):(1,{m})).unwrap_err();
/// assert_eq!(e.to_string(), "shape (0,_8) has an extent that is not positive");
/// let m = 4usize;
/// assert_eq!(try_layout!(({m},8):(1,{m})).unwrap().index(5usize), 5);
/// ```
#[proc_macro]
pub fn try_layout(input: TokenStream) -> TokenStream {
    emit(parse_layout(input.into()).and_then(|l| {
        let (s, d) = l.code(true)?;
        Ok(quote! { ::cute_static::try_make_layout(#s, #d) })
    }))
}

/// The type of a layout, written as in CuTe: `Layout![(4,8):(1,4)]`
/// is `cute_static::Layout<(U4, U8), (U1, U4)>`; `Dyn` is a run-time leaf:
/// `Layout![(Dyn,8):(1,Dyn)]` is `Layout<(Dyn, U8), (U1, Dyn)>`.
///
/// ```
/// use cute_static::prelude::*;
/// type L = Layout![(4,8):(1,4)];
/// assert_eq!(<L as StaticLayout>::SIZE, 32);
/// let m = 1000usize;
/// let l: Layout![(Dyn,8):(1,Dyn)] = layout!(({m},8):(1,{m}));
/// ```
#[allow(non_snake_case)]
#[proc_macro]
pub fn Layout(input: TokenStream) -> TokenStream {
    emit(parse_layout(input.into()).and_then(|l| {
        let (s, d) = l.code(false)?;
        Ok(quote! { ::cute_static::Layout<#s, #d> })
    }))
}

/// A shape value: `shape!(24)`, `shape!(4,8)` (same as `shape!((4,8))`),
/// `shape!((4))` (rank-1 tuple), `shape!({m}, 8)` (a run-time leaf). Static
/// extents must be positive; run-time ones are checked when the layout is
/// made.
///
/// ```
/// use cute_static::prelude::*;
/// let s = shape!(4, (3, 2));
/// let m = 7usize;
/// assert_eq!(shape!({m}, 8), (Dyn::new(7), Int::<8>::new()));
/// ```
#[proc_macro]
pub fn shape(input: TokenStream) -> TokenStream {
    emit(parse_tuple_arg(input.into(), "shape", true))
}

/// The type of a shape: `Shape![4,8]` is `(U4, U8)`, `Shape![Dyn,8]` is
/// `(Dyn, U8)`.
///
/// ```
/// use cute_static::prelude::*;
/// let s: Shape![4, 8] = shape!(4, 8);
/// ```
#[allow(non_snake_case)]
#[proc_macro]
pub fn Shape(input: TokenStream) -> TokenStream {
    emit(parse_tuple_arg(input.into(), "shape", false))
}

/// A stride value: `stride!(1,4)`; zero is allowed; `stride!(1, {-m})` has
/// a run-time (here negative) leaf.
///
/// ```
/// use cute_static::prelude::*;
/// let d = stride!(1, (0, 4));
/// let m = 10i64;
/// assert_eq!(stride!(1, {-m}), (Int::<1>::new(), Dyn::new(-10)));
/// ```
#[proc_macro]
pub fn stride(input: TokenStream) -> TokenStream {
    emit(parse_tuple_arg(input.into(), "stride", true))
}

/// The type of a stride: `Stride![1,4]` is `(U1, U4)`, `Stride![1,Dyn]`
/// is `(U1, Dyn)`.
///
/// ```
/// use cute_static::prelude::*;
/// let d: Stride![1, 4] = stride!(1, 4);
/// ```
#[allow(non_snake_case)]
#[proc_macro]
pub fn Stride(input: TokenStream) -> TokenStream {
    emit(parse_tuple_arg(input.into(), "stride", false))
}

/// A tiler: comma-separated tiles, each a layout `S:D`, an integer
/// `n` (the tile `n:1`, and `1:0` for 1, CuTe's `make_layout` of a static
/// integer), or a nested tiler written in parentheses or angle
/// brackets (`(2,4)`, `(2:1, 3:2)`, `<2:1, 3:2>`).
/// `tile!(3:3, (2,4):(1,8))` is CuTe's `<3:3,(2,4):(1,8)>`. A leaf may be
/// a run-time value in braces, as in [`layout!`]: a layout tile with one is
/// `make_layout` of its leaves (`tile!({m}:1, 8:2)`), an integer tile
/// `{m}` is CuTe's `m:_1`.
///
/// Expands to a `cute_static::Tiler` around a Rust tuple of tiles.
///
/// # Panics
///
/// With run-time leaves, as [`layout!`] (an extent below 1, a size or
/// offset past `i64`).
///
/// ```
/// use cute_static::prelude::*;
/// let t = tile!(3:3, (2,4):(1,8));
/// assert_eq!(t.to_string(), "<_3:_3,(_2,_4):(_1,_8)>");
/// let m = 6i64;
/// assert_eq!(tile!({m}:1, 8:2, {m}).to_string(), "<6:_1,_8:_2,6:_1>");
/// // CuTe's form of a run-time tile: its complement keeps both modes.
/// let d = logical_divide(layout!((12,(4,8)):(59,(13,1))), tile!({m / 2}:4, 8:2));
/// assert_eq!(d.to_string(), "((3,(4,1)),((_2,_4),(_2,_2))):((_236,(_59,708)),((_26,_1),(_13,_4)))");
/// let t: Tile![Dyn:1, 4] = tile!({m}:1, 4);
/// assert_eq!(t.to_string(), "<6:_1,_4:_1>");
/// ```
#[proc_macro]
pub fn tile(input: TokenStream) -> TokenStream {
    emit(parse_tiler(input.into(), true).map(|v| quote! { ::cute_static::Tiler::new(( #(#v,)* )) }))
}

/// The type of a tiler: `Tile![3:3, 4]` is
/// `cute_static::Tiler<(Layout<U3, U3>, Layout<U4, U1>)>`, `Tile![Dyn:1, 4]`
/// has the run-time tile `Layout<Dyn, U1>`.
///
/// ```
/// use cute_static::prelude::*;
/// let t: Tile![3:3, 4] = tile!(3:3, 4);
/// ```
#[allow(non_snake_case)]
#[proc_macro]
pub fn Tile(input: TokenStream) -> TokenStream {
    emit(parse_tiler(input.into(), false).map(|v| quote! { ::cute_static::Tiler<( #(#v,)* )> }))
}

/// A swizzle, checked where it is written: `swizzle!(3, 4, 3)` is
/// `cute_static::Swizzle::<3, 4, 3>::new()` (CuTe's `Swizzle<BBits, MBase,
/// SShift>`), and a swizzle whose bit fields overlap (`|S| < B`) or reach
/// past bit 63 is a compile error at the macro, in `cargo check` too (the
/// same condition written as `Swizzle::<B, M, S>::new()` is only caught
/// when the constant is evaluated, in `cargo build`).
///
/// ```
/// use cute_static::prelude::*;
/// let sw = swizzle!(3, 4, 3);
/// assert_eq!(sw, cute_static::Swizzle::<3, 4, 3>::new());
/// assert_eq!(swizzle!(2, 0, -3).to_string(), "Sw<2,0,-3>");
/// ```
///
/// ```compile_fail
/// use cute_static::prelude::*;
/// let sw = swizzle!(3, 0, 2); // |S| = 2 < B = 3: the fields overlap
/// ```
#[proc_macro]
pub fn swizzle(input: TokenStream) -> TokenStream {
    emit(parse_swizzle(input.into()))
}

/// `B, M, S` as three integers (`S` may be negative), checked as CuTe's
/// `static_assert`s do.
fn parse_swizzle(input: TokenStream2) -> Res<TokenStream2> {
    let toks: Vec<TokenTree> = input.into_iter().collect();
    let mut vals = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let (neg, lit) = match (&toks[i], toks.get(i + 1)) {
            (TokenTree::Punct(p), Some(TokenTree::Literal(l))) if p.as_char() == '-' => {
                i += 1;
                (true, l)
            }
            (TokenTree::Literal(l), _) => (false, l),
            (t, _) => return err(t.span(), "swizzle!(B, M, S) takes three integers: BBits, MBase and SShift"),
        };
        let v: i64 = lit
            .to_string()
            .parse()
            .map_err(|_| Error { span: lit.span(), msg: format!("`{lit}` is not an integer") })?;
        vals.push((if neg { -v } else { v }, lit.span()));
        i += 1;
        match toks.get(i) {
            Some(TokenTree::Punct(p)) if p.as_char() == ',' => i += 1,
            None => {}
            Some(t) => return err(t.span(), "expected `,` between the three integers of swizzle!(B, M, S)"),
        }
    }
    let [(b, bs), (m, ms), (sh, ss)] = vals[..] else {
        return err(Span::call_site(), "swizzle!(B, M, S) takes three integers: BBits, MBase and SShift");
    };
    if b < 0 {
        return err(bs, format!("BBits = {b} is negative"));
    }
    if m < 0 {
        return err(ms, format!("MBase = {m} is negative"));
    }
    if sh.abs() < b {
        return err(
            ss,
            format!(
                "Swizzle<{b},{m},{sh}> needs |S| >= B: with |S| = {} < B = {b} its two bit fields overlap",
                sh.abs()
            ),
        );
    }
    if b + m + sh.abs() > 63 {
        return err(
            ss,
            format!("Swizzle<{b},{m},{sh}>: its bit fields reach past bit 63 (B + M + |S| = {})", b + m + sh.abs()),
        );
    }
    let (b, m, sh) = (b as u32, m as u32, sh as i32);
    Ok(quote! { ::cute_static::Swizzle::<{ #b }, { #m }, { #sh }>::new() })
}

#[cfg(test)]
mod grammar_agreement;
