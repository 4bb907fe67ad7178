//! Procedural macros that spell static CuTe layouts in CuTe's own notation.
//!
//! Use them through `cute_static::prelude`; the expansions name paths of the
//! `cute_static` crate. Every macro reads the text syntax of the project's
//! DESIGN (`(4,(3,2)):(2,(8,1))`, `12:1`, the static marker `_4` accepted)
//! and turns each integer into a typenum unsigned integer type.
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
//! Malformed input is a compile error at the offending token. Shape and
//! stride trees that differ are an error containing `not congruent`; a zero
//! extent in a shape is an error; negative integers are rejected (static
//! strides are non-negative; a negative stride is a run-time leaf `{-4}`).

use proc_macro::TokenStream;
use proc_macro2::{Delimiter, Span, TokenStream as TokenStream2, TokenTree};
use quote::quote;

/// A parsed hierarchical tuple of non-negative integers, with the span of
/// each node for error messages.
#[derive(Clone, Debug)]
enum Tree {
    Leaf(u64, Span),
    Tuple(Vec<Tree>, Span),
    /// A run-time leaf in a value: the braced expression `{m}`.
    Run(proc_macro2::Group),
    /// A run-time leaf in a type: the word `Dyn`.
    DynType(Span),
}

impl Tree {
    fn span(&self) -> Span {
        match self {
            Tree::Leaf(_, s) | Tree::Tuple(_, s) | Tree::DynType(s) => *s,
            Tree::Run(g) => g.span(),
        }
    }

    /// Whether a leaf is run-time.
    fn has_run_time(&self) -> bool {
        match self {
            Tree::Leaf(..) => false,
            Tree::Run(_) | Tree::DynType(_) => true,
            Tree::Tuple(children, _) => children.iter().any(Tree::has_run_time),
        }
    }

    /// The first run-time leaf of the kind `value` rejects (`Dyn` in a
    /// value, `{expr}` in a type), as an error.
    fn check_kind(&self, value: bool) -> Res<()> {
        match self {
            Tree::DynType(s) if value => err(
                *s,
                "`Dyn` names the type of a run-time leaf: in a value write the run-time integer in braces, `{m}`",
            ),
            Tree::Run(g) if !value => err(
                g.span(),
                "a braced expression is a run-time value: in a type (`Layout!`, `Shape!`, `Stride!`) write `Dyn`",
            ),
            Tree::Tuple(children, _) => children.iter().try_for_each(|c| c.check_kind(value)),
            _ => Ok(()),
        }
    }

    /// CuTe text (without static markers) for messages.
    fn text(&self) -> String {
        match self {
            Tree::Run(g) => g.to_string(),
            Tree::DynType(_) => "Dyn".to_string(),
            Tree::Leaf(v, _) => v.to_string(),
            Tree::Tuple(children, _) => {
                let inner: Vec<String> = children.iter().map(Tree::text).collect();
                format!("({})", inner.join(","))
            }
        }
    }

    /// The first leaf equal to zero, if any.
    fn find_zero(&self) -> Option<Span> {
        match self {
            Tree::Leaf(0, s) => Some(*s),
            Tree::Leaf(..) | Tree::Run(_) | Tree::DynType(_) => None,
            Tree::Tuple(children, _) => children.iter().find_map(Tree::find_zero),
        }
    }

    /// The typenum type of this tree (`U4`, `(U4, (U3, U2))`).
    fn to_type(&self) -> TokenStream2 {
        match self {
            Tree::Run(_) | Tree::DynType(_) => quote! { ::cute_static::Dyn },
            Tree::Leaf(v, _) => uint_type(*v),
            Tree::Tuple(children, _) => {
                let c: Vec<TokenStream2> = children.iter().map(Tree::to_type).collect();
                quote! { ( #(#c,)* ) }
            }
        }
    }

    /// An expression producing the value of this tree.
    fn to_value(&self) -> TokenStream2 {
        match self {
            Tree::Run(g) => {
                // Spanned at the macro call, so that the braces (needed in
                // the syntax, not in the expansion) are not linted as
                // `unused_braces` in the user's code.
                let mut g = proc_macro2::Group::new(Delimiter::Brace, g.stream());
                g.set_span(Span::call_site());
                quote! { #g }
            }
            Tree::DynType(_) => quote! { ::cute_static::Dyn },
            Tree::Leaf(v, _) => {
                let t = uint_type(*v);
                quote! { <#t>::new() }
            }
            Tree::Tuple(children, _) => {
                let c: Vec<TokenStream2> = children.iter().map(Tree::to_value).collect();
                quote! { ( #(#c,)* ) }
            }
        }
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

type Res<T> = Result<T, syn::Error>;

fn err<T>(span: Span, msg: impl std::fmt::Display) -> Res<T> {
    Err(syn::Error::new(span, msg))
}

/// A cursor over a flat token list.
struct Cursor {
    tokens: Vec<TokenTree>,
    pos: usize,
    /// Span to report "unexpected end" at.
    end: Span,
}

impl Cursor {
    fn new(ts: TokenStream2, end: Span) -> Self {
        Cursor { tokens: ts.into_iter().collect(), pos: 0, end }
    }

    fn peek(&self) -> Option<&TokenTree> {
        self.tokens.get(self.pos)
    }

    fn next(&mut self) -> Option<TokenTree> {
        let t = self.tokens.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    fn at_end(&self) -> bool {
        self.pos >= self.tokens.len()
    }

    fn peek_punct(&self, c: char) -> bool {
        matches!(self.peek(), Some(TokenTree::Punct(p)) if p.as_char() == c)
    }

    fn here(&self) -> Span {
        self.peek().map(TokenTree::span).unwrap_or(self.end)
    }
}

/// Reads one integer token: `4`, or the static marker spelling `_4`.
fn parse_int(tok: &TokenTree) -> Res<u64> {
    match tok {
        TokenTree::Literal(lit) => {
            let l = syn::LitInt::new(&lit.to_string(), lit.span());
            let text = lit.to_string();
            if !text.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                return err(lit.span(), format!("expected an integer, found `{text}`"));
            }
            if !l.suffix().is_empty() {
                return err(lit.span(), format!("expected an integer without suffix, found `{text}`"));
            }
            l.base10_parse::<u64>()
                .map_err(|_| syn::Error::new(lit.span(), format!("expected an integer, found `{text}`")))
        }
        TokenTree::Ident(id) => {
            let s = id.to_string();
            match s.strip_prefix('_') {
                Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
                    digits.parse::<u64>().map_err(|_| syn::Error::new(id.span(), format!("integer `{s}` is too large")))
                }
                _ => err(id.span(), format!("expected an integer (`4` or `_4`), found `{s}`")),
            }
        }
        TokenTree::Punct(p) if p.as_char() == '-' => {
            err(p.span(), "static strides are non-negative: negative integers are not accepted here (use cute-dynamic)")
        }
        other => err(other.span(), format!("expected an integer or `(`, found `{other}`")),
    }
}

/// tuple := int | '(' tuple {',' tuple} ')'
fn parse_tree(c: &mut Cursor) -> Res<Tree> {
    let Some(tok) = c.next() else {
        return err(c.end, "expected an integer or `(`, found end of input");
    };
    match &tok {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Parenthesis => {
            let mut inner = Cursor::new(g.stream(), g.span_close());
            if inner.at_end() {
                return err(g.span(), "expected an integer or `(` inside `()`: empty tuples are not layouts");
            }
            let mut children = Vec::new();
            loop {
                children.push(parse_tree(&mut inner)?);
                match inner.next() {
                    None => break,
                    Some(TokenTree::Punct(p)) if p.as_char() == ',' => {
                        if inner.at_end() {
                            return err(
                                p.span(),
                                "expected an integer or `(` after `,` (no trailing comma in CuTe tuples)",
                            );
                        }
                    }
                    Some(other) => {
                        return err(other.span(), format!("expected `,` or `)`, found `{other}`"));
                    }
                }
            }
            Ok(Tree::Tuple(children, g.span()))
        }
        TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
            // An invisible group from a `macro_rules!` fragment: look inside.
            let mut inner = Cursor::new(g.stream(), g.span());
            let t = parse_tree(&mut inner)?;
            expect_end(&inner, "tuple")?;
            Ok(t)
        }
        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => Ok(Tree::Run(g.clone())),
        TokenTree::Group(g) => err(g.span(), "expected an integer or `(`: only parentheses group a tuple"),
        TokenTree::Ident(id) if id == "Dyn" => Ok(Tree::DynType(id.span())),
        other => {
            let v = parse_int(other)?;
            if v > i64::MAX as u64 {
                return err(other.span(), format!("integer `{v}` is too large: static integers must fit in an i64"));
            }
            Ok(Tree::Leaf(v, other.span()))
        }
    }
}

/// Checks that the shape and stride trees have the same structure.
fn check_congruent(shape: &Tree, stride: &Tree) -> Res<()> {
    fn same(a: &Tree, b: &Tree) -> bool {
        match (a, b) {
            (Tree::Leaf(..) | Tree::Run(_) | Tree::DynType(_), Tree::Leaf(..) | Tree::Run(_) | Tree::DynType(_)) => {
                true
            }
            (Tree::Tuple(x, _), Tree::Tuple(y, _)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
            _ => false,
        }
    }
    if same(shape, stride) {
        Ok(())
    } else {
        err(
            stride.span(),
            format!(
                "shape `{}` and stride `{}` are not congruent: they must have the same tree of tuples and integers",
                shape.text(),
                stride.text()
            ),
        )
    }
}

fn check_shape(shape: &Tree) -> Res<()> {
    if let Some(sp) = shape.find_zero() {
        return err(sp, format!("shape `{}` has a zero extent: every shape extent must be positive", shape.text()));
    }
    Ok(())
}

/// A parsed layout `S:D`.
struct LayoutSpec {
    shape: Tree,
    stride: Tree,
}

impl LayoutSpec {
    fn to_type(&self) -> TokenStream2 {
        let s = self.shape.to_type();
        let d = self.stride.to_type();
        quote! { ::cute_static::Layout<#s, #d> }
    }

    fn to_value(&self) -> TokenStream2 {
        let s = self.shape.to_value();
        let d = self.stride.to_value();
        if self.shape.has_run_time() || self.stride.has_run_time() {
            quote! { ::cute_static::make_layout(#s, #d) }
        } else {
            quote! { ::cute_static::Layout::from_parts(#s, #d) }
        }
    }

    fn check_kind(&self, value: bool) -> Res<()> {
        self.shape.check_kind(value)?;
        self.stride.check_kind(value)
    }
}

/// layout := tuple ':' tuple, the cursor positioned at its start; stops
/// before a top-level `,` or the end.
fn parse_layout_here(c: &mut Cursor) -> Res<LayoutSpec> {
    let shape = parse_tree(c)?;
    if !c.peek_punct(':') {
        let found = match c.peek() {
            Some(t) => format!("`{t}`"),
            None => "end of input".to_string(),
        };
        return err(c.here(), format!("expected `:` between shape and stride, found {found}"));
    }
    let colon = c.next();
    if c.peek_punct(':') {
        let sp = colon.map(|t| t.span()).unwrap_or(c.end);
        return err(sp, "expected a single `:` between shape and stride, found `::`");
    }
    let stride = parse_tree(c)?;
    check_shape(&shape)?;
    check_congruent(&shape, &stride)?;
    Ok(LayoutSpec { shape, stride })
}

fn expect_end(c: &Cursor, what: &str) -> Res<()> {
    match c.peek() {
        None => Ok(()),
        Some(t) => err(t.span(), format!("expected end of {what}, found `{t}`")),
    }
}

fn parse_layout(input: TokenStream2) -> Res<LayoutSpec> {
    let mut c = Cursor::new(input, Span::call_site());
    if c.at_end() {
        return err(Span::call_site(), "expected a layout `shape:stride`, e.g. `(4,8):(1,4)`");
    }
    let l = parse_layout_here(&mut c)?;
    expect_end(&c, "layout")?;
    Ok(l)
}

/// `shape!(4,8)` and `shape!((4,8))` both mean the tuple `(4,8)`;
/// `shape!(4)` is the integer, `shape!((4))` the rank-1 tuple.
fn parse_tuple_arg(input: TokenStream2, what: &str) -> Res<Tree> {
    let mut c = Cursor::new(input, Span::call_site());
    if c.at_end() {
        return err(Span::call_site(), format!("expected a {what}, e.g. `(4,8)`"));
    }
    let mut items = vec![parse_tree(&mut c)?];
    while let Some(tok) = c.next() {
        match tok {
            TokenTree::Punct(p) if p.as_char() == ',' => {
                if c.at_end() {
                    return err(p.span(), format!("expected an integer or `(` after `,` in {what}"));
                }
                items.push(parse_tree(&mut c)?);
            }
            other => return err(other.span(), format!("expected `,` or end of {what}, found `{other}`")),
        }
    }
    if items.len() == 1 {
        Ok(items.pop().unwrap_or(Tree::Tuple(Vec::new(), Span::call_site())))
    } else {
        Ok(Tree::Tuple(items, Span::call_site()))
    }
}

/// A tile of a tiler: a layout, or an integer `n` (the layout `n:1`), or a
/// parenthesized tuple of tiles (a nested tiler, as a shape `(2,4)` is).
enum Tile {
    Layout(LayoutSpec),
    Tuple(Vec<Tile>),
}

impl Tile {
    fn to_type(&self) -> TokenStream2 {
        match self {
            Tile::Layout(l) => l.to_type(),
            Tile::Tuple(ts) => {
                let c: Vec<TokenStream2> = ts.iter().map(Tile::to_type).collect();
                quote! { ( #(#c,)* ) }
            }
        }
    }

    fn to_value(&self) -> TokenStream2 {
        match self {
            Tile::Layout(l) => l.to_value(),
            Tile::Tuple(ts) => {
                let c: Vec<TokenStream2> = ts.iter().map(Tile::to_value).collect();
                quote! { ( #(#c,)* ) }
            }
        }
    }
}

/// A shape used as a tile: integers become `n:1` layouts, tuples nested tilers.
fn shape_to_tile(t: Tree) -> Tile {
    match t {
        Tree::Leaf(v, sp) => Tile::Layout(LayoutSpec { shape: Tree::Leaf(v, sp), stride: Tree::Leaf(1, sp) }),
        Tree::Tuple(children, _) => Tile::Tuple(children.into_iter().map(shape_to_tile).collect()),
        // Rejected by `Tile::check_static` before expansion.
        t @ (Tree::Run(_) | Tree::DynType(_)) => {
            let sp = t.span();
            Tile::Layout(LayoutSpec { shape: t, stride: Tree::Leaf(1, sp) })
        }
    }
}

impl Tile {
    /// Tilers are static: a run-time leaf in one is an error.
    fn check_static(&self) -> Res<()> {
        match self {
            Tile::Layout(l) => {
                for t in [&l.shape, &l.stride] {
                    if let Some(sp) = first_run_time(t) {
                        return err(
                            sp,
                            "tilers are static: a run-time leaf (`{m}` or `Dyn`) is not accepted in a tile",
                        );
                    }
                }
                Ok(())
            }
            Tile::Tuple(ts) => ts.iter().try_for_each(Tile::check_static),
        }
    }
}

fn first_run_time(t: &Tree) -> Option<Span> {
    match t {
        Tree::Leaf(..) => None,
        Tree::Run(_) | Tree::DynType(_) => Some(t.span()),
        Tree::Tuple(children, _) => children.iter().find_map(first_run_time),
    }
}

/// tile := layout | int | '(' tiles ')' | '<' tiles '>'
///
/// A parenthesized group followed by `:` is the shape of a layout; otherwise
/// a group (or `<...>`) is a nested tiler whose tiles are parsed the same way,
/// so `(2,4)` is the nested tiler `<2:1,4:1>` and `(2:1, 3:2)` the nested
/// tiler `<2:1,3:2>`.
fn parse_tile(c: &mut Cursor) -> Res<Tile> {
    let start = c.pos;
    match c.peek() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
            let g = g.clone();
            c.next();
            if c.peek_punct(':') {
                c.pos = start;
                return Ok(Tile::Layout(parse_layout_here(c)?));
            }
            let mut inner = Cursor::new(g.stream(), g.span_close());
            if inner.at_end() {
                return err(g.span(), "expected a tile inside `()`: empty tilers are not allowed");
            }
            Ok(Tile::Tuple(parse_tiles(&mut inner, "tiler")?))
        }
        Some(TokenTree::Punct(p)) if p.as_char() == '<' => {
            let open = p.span();
            c.next();
            // Collect the tokens up to the matching `>`.
            let mut depth = 1usize;
            let mut toks = Vec::new();
            loop {
                match c.next() {
                    None => return err(open, "expected `>` closing this tiler"),
                    Some(TokenTree::Punct(q)) if q.as_char() == '<' => {
                        depth += 1;
                        toks.push(TokenTree::Punct(q));
                    }
                    Some(TokenTree::Punct(q)) if q.as_char() == '>' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                        toks.push(TokenTree::Punct(q));
                    }
                    Some(t) => toks.push(t),
                }
            }
            let mut inner = Cursor { tokens: toks, pos: 0, end: open };
            if inner.at_end() {
                return err(open, "expected a tile inside `<>`: empty tilers are not allowed");
            }
            Ok(Tile::Tuple(parse_tiles(&mut inner, "tiler")?))
        }
        _ => {
            let shape = parse_tree(c)?;
            if c.peek_punct(':') {
                c.pos = start;
                return Ok(Tile::Layout(parse_layout_here(c)?));
            }
            check_shape(&shape)?;
            Ok(shape_to_tile(shape))
        }
    }
}

/// tiles := tile {',' tile}, up to the end of the cursor.
fn parse_tiles(c: &mut Cursor, what: &str) -> Res<Vec<Tile>> {
    let mut tiles = vec![parse_tile(c)?];
    while let Some(tok) = c.next() {
        match tok {
            TokenTree::Punct(p) if p.as_char() == ',' => {
                if c.at_end() {
                    return err(p.span(), "expected a tile (a layout or a shape) after `,`");
                }
                tiles.push(parse_tile(c)?);
            }
            other => return err(other.span(), format!("expected `,` or end of {what}, found `{other}`")),
        }
    }
    Ok(tiles)
}

fn parse_tiler(input: TokenStream2) -> Res<Vec<Tile>> {
    let mut c = Cursor::new(input, Span::call_site());
    if c.at_end() {
        return err(Span::call_site(), "expected a tiler: comma-separated layouts and shapes, e.g. `3:3, (2,4):(1,8)`");
    }
    let tiles = parse_tiles(&mut c, "tiler")?;
    tiles.iter().try_for_each(Tile::check_static)?;
    Ok(tiles)
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
        l.check_kind(true)?;
        Ok(l.to_value())
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
        l.check_kind(true)?;
        let s = l.shape.to_value();
        let d = l.stride.to_value();
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
        l.check_kind(false)?;
        Ok(l.to_type())
    }))
}

/// The value of a tree: a static tree as is, one with run-time leaves
/// through `make_shape` (which converts `usize`/`i64` values to `Dyn`).
fn tree_value(t: &Tree) -> Res<TokenStream2> {
    t.check_kind(true)?;
    let v = t.to_value();
    Ok(if t.has_run_time() {
        quote! { ::cute_static::make_shape(#v) }
    } else {
        v
    })
}

fn tree_type(t: &Tree) -> Res<TokenStream2> {
    t.check_kind(false)?;
    Ok(t.to_type())
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
    emit(parse_tuple_arg(input.into(), "shape").and_then(|t| {
        check_shape(&t)?;
        tree_value(&t)
    }))
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
    emit(parse_tuple_arg(input.into(), "shape").and_then(|t| {
        check_shape(&t)?;
        tree_type(&t)
    }))
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
    emit(parse_tuple_arg(input.into(), "stride").and_then(|t| tree_value(&t)))
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
    emit(parse_tuple_arg(input.into(), "stride").and_then(|t| tree_type(&t)))
}

/// A static tiler (run-time leaves are not accepted in tilers): comma-separated tiles, each a layout `S:D`, an integer
/// `n` (the tile `n:1`), or a nested tiler written in parentheses or angle
/// brackets (`(2,4)`, `(2:1, 3:2)`, `<2:1, 3:2>`).
/// `tile!(3:3, (2,4):(1,8))` is CuTe's `<3:3,(2,4):(1,8)>`.
///
/// Expands to a `cute_static::Tiler` around a Rust tuple of tiles.
///
/// ```
/// use cute_static::prelude::*;
/// let t = tile!(3:3, (2,4):(1,8));
/// assert_eq!(t.to_string(), "<_3:_3,(_2,_4):(_1,_8)>");
/// ```
#[proc_macro]
pub fn tile(input: TokenStream) -> TokenStream {
    emit(parse_tiler(input.into()).map(|tiles| {
        let v: Vec<TokenStream2> = tiles.iter().map(Tile::to_value).collect();
        quote! { ::cute_static::Tiler::new(( #(#v,)* )) }
    }))
}

/// The type of a static tiler: `Tile![3:3, 4]` is
/// `cute_static::Tiler<(Layout<U3, U3>, Layout<U4, U1>)>`.
///
/// ```
/// use cute_static::prelude::*;
/// let t: Tile![3:3, 4] = tile!(3:3, 4);
/// ```
#[allow(non_snake_case)]
#[proc_macro]
pub fn Tile(input: TokenStream) -> TokenStream {
    emit(parse_tiler(input.into()).map(|tiles| {
        let v: Vec<TokenStream2> = tiles.iter().map(Tile::to_type).collect();
        quote! { ::cute_static::Tiler<( #(#v,)* )> }
    }))
}
