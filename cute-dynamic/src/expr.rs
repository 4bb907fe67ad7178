//! The expression evaluator: `composition((6,2):(8,2), (4,3):(3,1))`.
//!
//! ```text
//! expr := layout | tiler | tuple | name '(' [expr {',' expr}] ')'
//! ```
//! Expressions nest; every operation of the algebra is callable by its
//! name. See [`eval`].

use crate::basis::BasisTuple;
use crate::basis_layout::BasisLayout;
use crate::composed::ComposedLayout;
use crate::descriptor::{bare_basis_ahead, looks_like_descriptor, parse_descriptor_at, parse_descriptor_entry_at};
use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::parse::{Parser, has_underscore};
use crate::slice::SliceCoord;
use crate::swizzle::{AnySwizzle, SWIZZLE_NAMES};
use crate::tiler::Tiler;
use std::fmt;

/// The value of an expression.
///
/// ```
/// use cute_dynamic::{Layout, Value, eval};
/// assert_eq!(eval("size((4,8):(1,4))")?, Value::Int(32));
/// // Each variant holds the crate's own type, ready for further use.
/// let Value::Layout(l) = eval("coalesce((2,(1,6)):(1,(6,2)))")? else { panic!("not a layout") };
/// assert_eq!(l, "12:1".parse::<Layout>()?);
/// let Value::Slice { offset, layout } = eval("slice((4,8):(1,4), (2,_))")? else { panic!("not a slice") };
/// assert_eq!((offset, layout.to_string().as_str()), (2, "8:4")); // row 2: offsets 2 + 4·j
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer (`size(...)`, `eval(...)`, a literal).
    Int(i64),
    /// A tuple (`shape(...)`, a literal).
    Tuple(IntTuple),
    /// A layout.
    Layout(Layout),
    /// A tiler `<...>`.
    Tiler(Tiler),
    /// A coordinate with free modes, e.g. `(2,_)`.
    Coord(SliceCoord),
    /// The result of `slice`: an offset and the sublayout of the free modes,
    /// printed as in the paper, `{8} o ((2,3),2):((2,15),100)`.
    Slice {
        /// The offset of the fixed part of the coordinate.
        offset: i64,
        /// The sublayout of the free part.
        layout: Layout,
    },
    /// A yes/no answer (`is_admissible`).
    Bool(bool),
    /// A thread-value layout and its tile (`make_layout_tv(thr, val)`),
    /// printed `((3,2),(2,2)):((8,2),(4,1)) on tile (4,6)`. Operations that
    /// take a layout take its TV layout.
    LayoutTv {
        /// `(t, v) → m + M·n`.
        tv: Layout,
        /// The tile's shape `(M, N, ...)`.
        tiler: IntTuple,
    },
    /// A normalized descriptor: a tree of scaled bases, `(2@0,4@1)`.
    Basis(BasisTuple),
    /// A swizzle, `Sw<3,4,3>` or `BitFieldXor<3,4,3>`.
    Swizzle(AnySwizzle),
    /// A swizzled layout `A o O o B`, `Sw<3,4,3> o 0 o (8,64):(64,1)`.
    Composed(ComposedLayout),
    /// A layout with scaled-basis strides, `(4,8):(1@0,1@1)`.
    BasisLayout(BasisLayout),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Tuple(t) => write!(f, "{t}"),
            Value::Layout(l) => write!(f, "{l}"),
            Value::Tiler(t) => write!(f, "{t}"),
            Value::Coord(c) => write!(f, "{c}"),
            Value::Slice { offset, layout } => write!(f, "{{{offset}}} o {layout}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::LayoutTv { tv, tiler } => write!(f, "{tv} on tile {tiler}"),
            Value::Basis(b) => write!(f, "{b}"),
            Value::Swizzle(s) => write!(f, "{s}"),
            Value::Composed(c) => write!(f, "{c}"),
            Value::BasisLayout(l) => write!(f, "{l}"),
        }
    }
}

impl Value {
    /// What kind of value this is, in words (`"an integer"`, `"a layout"`),
    /// as error messages name it.
    ///
    /// ```
    /// assert_eq!(cute_dynamic::eval("(4,8)")?.kind(), "a tuple");
    /// # Ok::<(), cute_dynamic::EvalError>(())
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Tuple(_) => "a tuple",
            Value::Layout(_) => "a layout",
            Value::Tiler(_) => "a tiler",
            Value::Coord(_) => "a coordinate with '_'",
            Value::Slice { .. } => "a slice",
            Value::Bool(_) => "a boolean",
            Value::LayoutTv { .. } => "a thread-value layout",
            Value::Basis(_) => "a descriptor",
            Value::Swizzle(_) => "a swizzle",
            Value::Composed(_) => "a composed layout",
            Value::BasisLayout(_) => "a layout with basis strides",
        }
    }
}

/// An error of [`eval`]: what went wrong and the 1-based byte column of the
/// text it concerns (the offending character, or the name of the operation
/// that refused its arguments).
///
/// ```
/// use cute_dynamic::{LayoutError, eval};
/// let e = eval("coalesce(sise(4:1))").unwrap_err();
/// assert_eq!(e.column, 10); // the unknown name, not the call around it
/// assert_eq!(e.error, LayoutError::UnknownOperation { name: "sise".into(), column: 10 });
/// assert_eq!(e.to_string(), "unknown operation 'sise' at column 10");
/// assert_eq!(eval("(4,8):(1,4").unwrap_err().column, 11); // the end of the text, where ')' is missing
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalError {
    /// 1-based byte column.
    pub column: usize,
    /// The underlying error.
    pub error: LayoutError,
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for EvalError {}

/// Evaluates an expression of the text syntax.
///
/// ```
/// use cute_dynamic::eval;
/// assert_eq!(eval("composition((6,2):(8,2), (4,3):(3,1))").unwrap().to_string(), "((2,2),3):((24,2),8)");
/// assert_eq!(eval("complement(4:2, 24)").unwrap().to_string(), "(2,3):(1,8)");
/// assert_eq!(eval("size(coalesce((2,(1,6)):(1,(6,2))))").unwrap().to_string(), "12");
/// let err = eval("composition((4,6,8):(2,3,5), 6:3)").unwrap_err();
/// assert!(err.to_string().contains("stride divisibility condition"));
/// ```
pub fn eval(text: &str) -> std::result::Result<Value, EvalError> {
    let mut p = Parser::new(text);
    let v = expr(&mut p)?;
    p.expect_end().map_err(at_own_column)?;
    Ok(v)
}

fn at_own_column(e: LayoutError) -> EvalError {
    EvalError { column: e.column().unwrap_or(1), error: e }
}

fn expr(p: &mut Parser<'_>) -> std::result::Result<Value, EvalError> {
    let v = match p.peek() {
        Some(c) if c.is_ascii_alphabetic() => {
            p.enter().map_err(at_own_column)?;
            let v = call(p);
            p.leave();
            v
        }
        Some(b'<') => p.tiler_brackets().map(Value::Tiler).map_err(at_own_column),
        Some(b'(') if looks_like_descriptor(text_of(p), p.pos) => descriptor(p).map_err(at_own_column),
        Some(b'-' | b'0'..=b'9') if bare_basis_ahead(text_of(p), p.pos) => {
            basis_entry(p).map(Value::Basis).map_err(at_own_column)
        }
        _ => literal(p).map_err(at_own_column),
    }?;
    match v {
        // A composed layout as printed: `Sw<3,4,3> o 0 o (8,64):(64,1)`.
        Value::Swizzle(sw) if word_ahead(p, b"o") => composed_after(p, sw),
        // A thread-value layout as printed: `... on tile (4,6)`.
        Value::Layout(tv) if word_ahead(p, b"on") => {
            p.pos += 2;
            p.ws();
            if !word_ahead(p, b"tile") {
                return Err(at_own_column(p.error("'tile' after 'on'")));
            }
            p.pos += 4;
            p.ws();
            let tiler = p.int_tuple().map_err(at_own_column)?;
            Ok(Value::LayoutTv { tv, tiler })
        }
        v => Ok(v),
    }
}

/// `true` if the next word (after blanks) is `word`, not followed by a
/// letter, digit or `_`.
fn word_ahead(p: &mut Parser<'_>, word: &[u8]) -> bool {
    p.ws();
    p.src.get(p.pos..).is_some_and(|rest| {
        rest.starts_with(word) && !rest.get(word.len()).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
    })
}

/// The rest of a composed layout after its outer swizzle: `o O o B`, `B`
/// a layout or another composed layout (a longer chain).
fn composed_after(p: &mut Parser<'_>, sw: AnySwizzle) -> std::result::Result<Value, EvalError> {
    p.pos += 1;
    p.ws();
    // The static marker `_0` is read, a lone `_` (a free mode) is not an offset.
    let offset = p.int(false).map_err(at_own_column)?;
    if !word_ahead(p, b"o") {
        return Err(at_own_column(p.error("'o' after the offset of a composed layout")));
    }
    p.pos += 1;
    p.ws();
    let column = p.column();
    match expr(p)? {
        Value::Layout(l) => Ok(Value::Composed(ComposedLayout::new(sw, offset, l))),
        Value::Composed(c) => {
            let stages = std::iter::once((sw, offset)).chain(c.stages().iter().copied());
            Ok(Value::Composed(ComposedLayout::from_stages(stages, c.inner().clone()).unwrap_or(c)))
        }
        other => Err(EvalError {
            column,
            error: LayoutError::Parse {
                column,
                expected: "a layout after 'o' (a composed layout is A o O o B)".to_string(),
                found: other.kind().to_string(),
            },
        }),
    }
}

/// A scaled basis written alone, `1@0` or `4/2@1`, normalized.
fn basis_entry(p: &mut Parser<'_>) -> Result<BasisTuple> {
    let mut pos = p.pos;
    let d = parse_descriptor_entry_at(text_of(p), &mut pos)?;
    p.pos = pos;
    d.normalize()
}

fn text_of<'a>(p: &Parser<'a>) -> &'a str {
    // The parser's bytes are the `&str` it was made from.
    std::str::from_utf8(p.src).unwrap_or("")
}

/// A descriptor of the CuTe dialect's grammar (`(1@0, 1@1)`, see
/// `descriptor.rs`), normalized: its value is the tree of scaled bases, or
/// the normalization error.
fn descriptor(p: &mut Parser<'_>) -> Result<Value> {
    let mut pos = p.pos;
    let d = parse_descriptor_at(text_of(p), &mut pos)?;
    p.pos = pos;
    Ok(Value::Basis(d.normalize()?))
}

fn literal(p: &mut Parser<'_>) -> Result<Value> {
    p.ws();
    let col = p.column();
    let mut t = IntTuple::empty();
    p.tuple_into(&mut t, true)?;
    if p.peek() == Some(b':') {
        if has_underscore(&t) {
            return Err(LayoutError::Parse {
                column: col,
                expected: "a shape without '_'".into(),
                found: "'_'".into(),
            });
        }
        // Strides written as scaled bases: `(4,8):(1@0,1@1)`.
        let colon = p.pos;
        p.pos += 1;
        let scalar_basis = bare_basis_ahead(text_of(p), p.pos);
        if scalar_basis || (p.peek() == Some(b'(') && looks_like_descriptor(text_of(p), p.pos)) {
            let stride_col = p.column();
            let stride = if scalar_basis {
                basis_entry(p)?
            } else {
                let mut pos = p.pos;
                let d = parse_descriptor_at(text_of(p), &mut pos)?;
                p.pos = pos;
                d.normalize()?
            };
            return BasisLayout::new(t, stride).map(Value::BasisLayout).map_err(|e| LayoutError::Parse {
                column: stride_col,
                expected: "a stride congruent to a shape of positive extents".to_string(),
                found: e.to_string(),
            });
        }
        p.pos = colon;
        return Ok(Value::Layout(p.layout_after_shape(t, col)?));
    }
    if has_underscore(&t) {
        return Ok(Value::Coord(SliceCoord::from_marked(t)));
    }
    Ok(match t.as_int() {
        Some(v) => Value::Int(v),
        None => Value::Tuple(t),
    })
}

fn call(p: &mut Parser<'_>) -> std::result::Result<Value, EvalError> {
    p.ws();
    let column = p.column();
    let start = p.pos;
    while p.pos < p.src.len() && (p.src[p.pos].is_ascii_alphanumeric() || p.src[p.pos] == b'_') {
        p.pos += 1;
    }
    let name = String::from_utf8_lossy(&p.src[start..p.pos]).into_owned();
    if SWIZZLE_NAMES.contains(&name.as_str()) && p.peek() == Some(b'<') {
        return p.swizzle_after_name(&name, column).map(Value::Swizzle).map_err(at_own_column);
    }
    p.expect(b'(', "'(' after the operation name").map_err(at_own_column)?;
    let mut args = Vec::new();
    if !p.eat(b')') {
        loop {
            args.push(expr(p)?);
            if p.eat(b')') {
                break;
            }
            p.expect(b',', "',' or ')'").map_err(at_own_column)?;
        }
    }
    apply(&name, &args, column).map_err(|error| EvalError { column: error.column().unwrap_or(column), error })
}

struct Args<'a> {
    name: &'a str,
    args: &'a [Value],
    column: usize,
}

impl Args<'_> {
    fn bad(&self, expected: &str) -> LayoutError {
        let got: Vec<&str> = self.args.iter().map(Value::kind).collect();
        LayoutError::BadArguments {
            operation: self.name.to_string(),
            expected: format!("{expected} (got {})", if got.is_empty() { "nothing".into() } else { got.join(", ") }),
            column: self.column,
        }
    }

    fn layout(&self, i: usize, expected: &str) -> Result<&Layout> {
        match self.args.get(i) {
            Some(Value::Layout(l)) | Some(Value::LayoutTv { tv: l, .. }) => Ok(l),
            _ => Err(self.bad(expected)),
        }
    }

    fn int(&self, i: usize, expected: &str) -> Result<i64> {
        match self.args.get(i) {
            Some(Value::Int(v)) => Ok(*v),
            _ => Err(self.bad(expected)),
        }
    }

    fn count(&self, n: usize, expected: &str) -> Result<()> {
        if self.args.len() == n { Ok(()) } else { Err(self.bad(expected)) }
    }

    /// A tiler argument: a layout, a tiler, a shape or an integer.
    fn tiler(&self, i: usize, expected: &str) -> Result<Tiler> {
        match self.args.get(i) {
            Some(Value::Layout(l)) => Ok(Tiler::Layout(l.clone())),
            Some(Value::Tiler(t)) => Ok(t.clone()),
            Some(Value::Tuple(t)) => Tiler::from_shape(t),
            Some(Value::Int(n)) => Tiler::from_shape(&IntTuple::int(*n)),
            _ => Err(self.bad(expected)),
        }
    }
}

/// Applies the operation `name` to evaluated arguments. Shared by the
/// evaluator and by tools that build argument lists themselves.
fn apply(name: &str, args: &[Value], column: usize) -> Result<Value> {
    if let Some(Value::Composed(c)) = args.first() {
        return composed_apply(name, c, args, column);
    }
    if let ("composition", [Value::Layout(a), Value::BasisLayout(b)]) = (name, args) {
        return Ok(Value::Layout(crate::composition_with_basis(a, b)?));
    }
    if let ("composition", [Value::BasisLayout(a), Value::BasisLayout(b)]) = (name, args) {
        return Ok(Value::BasisLayout(b.selecting_from(a)?));
    }
    if let Some(Value::BasisLayout(l)) = args.first() {
        return basis_apply(name, l, args, column);
    }
    if let ("make_identity_layout", [shape]) = (name, args) {
        let shape = match shape {
            Value::Tuple(t) => t.clone(),
            Value::Int(n) => IntTuple::int(*n),
            _ => return Err(Args { name, args, column }.bad("a shape")),
        };
        return Ok(Value::BasisLayout(crate::make_identity_layout(&shape)?));
    }
    match (name, args) {
        ("composition", [Value::Swizzle(sw), Value::Layout(l)]) => {
            // CuTe returns the layout itself for a swizzle of no bits.
            return Ok(match sw {
                AnySwizzle::Cute(s) if s.bits() == 0 => Value::Layout(l.clone()),
                _ => Value::Composed(ComposedLayout::compose(*sw, l)),
            });
        }
        ("composition", [Value::Swizzle(sw), Value::Composed(d)]) => {
            return Ok(Value::Composed(ComposedLayout::compose_swizzle(*sw, d)));
        }
        ("composition", [Value::Layout(a), Value::Swizzle(sw)]) => {
            return Ok(Value::Composed(crate::composition_with_swizzle(a, *sw)?));
        }
        ("composition", [Value::Layout(a), Value::Composed(d)]) => {
            return Ok(Value::Composed(crate::composition_with_composed(a, d)?));
        }
        _ => {}
    }
    let a = Args { name, args, column };
    const L: &str = "one layout";
    const LT: &str = "a layout and a tiler (a layout, a <tiler> or a shape)";
    let v = match name {
        "size" => match args {
            [Value::Layout(l)] => Value::Int(l.size()),
            [Value::Tuple(t)] => Value::Int(t.size()?),
            [Value::Int(v)] => Value::Int(*v),
            _ => return Err(a.bad("one layout or shape")),
        },
        "product" | "prefix_product" | "inner_product" | "shape_div" => {
            let (n, expected) =
                if name.contains('_') && name != "prefix_product" { (2, "two shapes") } else { (1, "one shape") };
            a.count(n, expected)?;
            let t = |i: usize| match &args[i] {
                Value::Tuple(t) => Ok(t.clone()),
                Value::Int(v) => Ok(IntTuple::int(*v)),
                _ => Err(a.bad(expected)),
            };
            match name {
                "product" => Value::Int(t(0)?.size()?),
                "prefix_product" => tuple_value(crate::prefix_product(&t(0)?)?),
                "inner_product" => Value::Int(crate::inner_product(&t(0)?, &t(1)?)?),
                _ => tuple_value(crate::shape_div(&t(0)?, &t(1)?)?),
            }
        }
        "cosize" => {
            a.count(1, L)?;
            Value::Int(a.layout(0, L)?.cosize())
        }
        "rank" => match args {
            [Value::Layout(l)] => Value::Int(l.rank() as i64),
            [Value::Tuple(t)] => Value::Int(t.rank() as i64),
            [Value::Int(_)] => Value::Int(1),
            _ => return Err(a.bad("one layout or shape")),
        },
        "depth" => match args {
            [Value::Layout(l)] => Value::Int(l.depth() as i64),
            [Value::Tuple(t)] => Value::Int(t.depth() as i64),
            [Value::Int(_)] => Value::Int(0),
            _ => return Err(a.bad("one layout or shape")),
        },
        "shape" => {
            a.count(1, L)?;
            tuple_value(a.layout(0, L)?.shape().clone())
        }
        "stride" => {
            a.count(1, L)?;
            tuple_value(a.layout(0, L)?.stride().clone())
        }
        "flatten" => match args {
            [Value::Layout(l)] => Value::Layout(l.flatten()),
            [Value::Tuple(t)] => Value::Tuple(t.flatten()),
            _ => return Err(a.bad("one layout or shape")),
        },
        "get" => {
            const E: &str = "a layout and a mode index";
            a.count(2, E)?;
            let l = a.layout(0, E)?;
            let i = a.int(1, E)?;
            let m = usize::try_from(i).ok().and_then(|i| if i < l.rank() { l.get(i) } else { None });
            Value::Layout(m.ok_or_else(|| LayoutError::OutOfBounds {
                coord: format!("mode {i}"),
                shape: format!("{} (rank {}: modes 0..={})", l.shape(), l.rank(), l.rank() - 1),
            })?)
        }
        "make_layout" => {
            let ls = args
                .iter()
                .map(|v| match v {
                    Value::Layout(l) => Ok(l.clone()),
                    _ => Err(a.bad("layouts")),
                })
                .collect::<Result<Vec<_>>>()?;
            Value::Layout(crate::make_layout(&ls)?)
        }
        "eval" => {
            const E: &str = "a layout and a coordinate, or a swizzle and an offset";
            a.count(2, E)?;
            if let [Value::Swizzle(sw), Value::Int(i)] = args {
                return Ok(Value::Int(sw.apply(*i)));
            }
            let l = a.layout(0, E)?;
            match &args[1] {
                Value::Int(i) => Value::Int(l.eval(*i)?),
                Value::Tuple(c) => Value::Int(l.eval_coord(c)?),
                _ => return Err(a.bad(E)),
            }
        }
        "slice" => {
            const E: &str = "a layout and a coordinate with '_'";
            a.count(2, E)?;
            let l = a.layout(0, E)?;
            let c = match &args[1] {
                Value::Coord(c) => c.clone(),
                Value::Tuple(t) => SliceCoord::from_int_tuple(t),
                Value::Int(i) => SliceCoord::from_int_tuple(&IntTuple::int(*i)),
                _ => return Err(a.bad(E)),
            };
            let (offset, layout) = crate::slice(l, &c)?;
            Value::Slice { offset, layout }
        }
        "coalesce" => match args {
            [Value::Layout(l)] => Value::Layout(crate::coalesce(l)),
            [Value::Layout(l), Value::Tuple(p)] => Value::Layout(crate::coalesce_by(l, p)?),
            [Value::Layout(l), Value::Int(_)] => Value::Layout(crate::coalesce(l)),
            _ => return Err(a.bad("a layout and an optional profile")),
        },
        "filter" => {
            a.count(1, L)?;
            Value::Layout(crate::filter(a.layout(0, L)?))
        }
        "composition" => {
            a.count(2, LT)?;
            Value::Layout(crate::composition(a.layout(0, LT)?, &a.tiler(1, LT)?)?)
        }
        "complement" => match args {
            [Value::Layout(l)] => Value::Layout(crate::complement_full(l)?),
            [Value::Layout(l), Value::Int(m)] => Value::Layout(crate::complement(l, *m)?),
            [Value::Layout(l), Value::Tuple(m)] => Value::Layout(crate::complement(l, m.size()?)?),
            _ => return Err(a.bad("a layout and an optional cotarget")),
        },
        "right_inverse" => {
            a.count(1, L)?;
            Value::Layout(crate::right_inverse(a.layout(0, L)?))
        }
        "left_inverse" => {
            a.count(1, L)?;
            Value::Layout(crate::left_inverse(a.layout(0, L)?)?)
        }
        "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" | "logical_product" | "zipped_product"
        | "tiled_product" | "flat_product" => {
            a.count(2, LT)?;
            let (l, t) = (a.layout(0, LT)?, a.tiler(1, LT)?);
            Value::Layout(match name {
                "logical_divide" => crate::logical_divide(l, &t)?,
                "zipped_divide" => crate::zipped_divide(l, &t)?,
                "tiled_divide" => crate::tiled_divide(l, &t)?,
                "flat_divide" => crate::flat_divide(l, &t)?,
                "logical_product" => crate::logical_product(l, &t)?,
                "zipped_product" => crate::zipped_product(l, &t)?,
                "tiled_product" => crate::tiled_product(l, &t)?,
                _ => crate::flat_product(l, &t)?,
            })
        }
        "blocked_product" | "raked_product" | "max_common_vector" | "max_common_layout" | "is_admissible"
        | "make_layout_tv" => {
            const E: &str = "two layouts";
            a.count(2, E)?;
            let (x, y) = (a.layout(0, E)?, a.layout(1, E)?);
            match name {
                "make_layout_tv" => {
                    let (tv, tiler) = crate::make_layout_tv(x, y)?;
                    Value::LayoutTv { tv, tiler }
                }
                "blocked_product" => Value::Layout(crate::blocked_product(x, y)?),
                "raked_product" => Value::Layout(crate::raked_product(x, y)?),
                "max_common_vector" => Value::Int(crate::max_common_vector(x, y)),
                "max_common_layout" => Value::Layout(crate::max_common_layout(x, y)?),
                _ => Value::Bool(crate::is_admissible(x, y)?),
            }
        }
        // A shape is handled above; anything else is the wrong argument.
        "make_identity_layout" => return Err(a.bad("a shape")),
        _ => return Err(LayoutError::UnknownOperation { name: name.to_string(), column }),
    };
    Ok(v)
}

/// An operation on a composed layout `A o O o B` (its first argument): as
/// CuTe, evaluation goes through all three, slicing adds to `O`, and the
/// rest acts on `B` and keeps `A` and `O` around a layout result (except
/// `complement`, which is `B`'s complement, as in CuTe).
fn composed_apply(name: &str, c: &ComposedLayout, args: &[Value], column: usize) -> Result<Value> {
    match (name, args) {
        ("composition", [_, Value::Composed(d)]) => Ok(Value::Composed(c.composition_with_composed(d)?)),
        ("left_inverse", [_]) => Ok(Value::Composed(c.left_inverse()?)),
        ("right_inverse", [_]) => Ok(Value::Composed(c.right_inverse()?)),
        ("eval", [_, Value::Int(i)]) => Ok(Value::Int(c.eval(*i)?)),
        ("eval", [_, Value::Tuple(t)]) => Ok(Value::Int(c.eval_coord(t)?)),
        ("slice", [_, coord]) => {
            let coord = match coord {
                Value::Coord(k) => k.clone(),
                Value::Tuple(t) => SliceCoord::from_int_tuple(t),
                Value::Int(i) => SliceCoord::from_int_tuple(&IntTuple::int(*i)),
                _ => return Err(Args { name, args, column }.bad("a composed layout and a coordinate with '_'")),
            };
            Ok(Value::Composed(c.slice(&coord)?))
        }
        (
            "size" | "cosize" | "rank" | "depth" | "shape" | "get" | "flatten" | "coalesce" | "filter" | "composition"
            | "complement" | "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide" | "logical_product"
            | "zipped_product" | "tiled_product" | "flat_product" | "blocked_product" | "raked_product",
            _,
        ) => {
            let mut on_inner = args.to_vec();
            on_inner[0] = Value::Layout(c.inner().clone());
            Ok(match apply(name, &on_inner, column)? {
                Value::Layout(l) if name != "complement" => Value::Composed(c.map_inner(|_| Ok(l))?),
                other => other,
            })
        }
        (
            "stride" | "right_inverse" | "left_inverse" | "make_layout" | "max_common_vector" | "max_common_layout"
            | "is_admissible",
            _,
        ) => Err(crate::composed::unsupported(name)),
        ("eval", _) => Err(Args { name, args, column }.bad("a composed layout and a coordinate")),
        // Unknown names stay unknown; the evaluator's other operations do
        // not take composed layouts.
        _ => match apply(name, &[], column) {
            Err(e @ LayoutError::UnknownOperation { .. }) => Err(e),
            _ => Err(crate::composed::unsupported(name)),
        },
    }
}

/// An operation on a layout with basis strides (its first argument): the
/// ones [`BasisLayout`] supports; any other is an error.
fn basis_apply(name: &str, l: &BasisLayout, args: &[Value], column: usize) -> Result<Value> {
    let a = Args { name, args, column };
    const LT: &str = "a layout with basis strides and a tiler";
    Ok(match (name, args) {
        ("size", [_]) => Value::Int(l.size()),
        ("rank", [_]) => Value::Int(l.shape().rank() as i64),
        ("shape", [_]) => tuple_value(l.shape().clone()),
        ("eval", [_, Value::Int(i)]) => tuple_value(l.eval(*i)?),
        ("coalesce", [_]) => Value::BasisLayout(l.coalesce()?),
        ("right_inverse", [_]) => Value::Layout(l.right_inverse()?),
        ("left_inverse", [_]) => Value::Layout(l.left_inverse()?),
        ("logical_product", [_, _]) => Value::BasisLayout(l.logical_product(&a.tiler(1, LT)?)?),
        ("complement", [_]) => Value::BasisLayout(l.complement(None)?),
        ("complement", [_, Value::Tuple(t)]) => Value::BasisLayout(l.complement(Some(t))?),
        ("complement", [_, Value::Int(n)]) => Value::BasisLayout(l.complement(Some(&IntTuple::int(*n)))?),
        ("composition" | "logical_divide" | "zipped_divide" | "tiled_divide" | "flat_divide", [_, _]) => {
            let t = a.tiler(1, LT)?;
            Value::BasisLayout(match name {
                "composition" => l.composition(&t)?,
                "logical_divide" => l.logical_divide(&t)?,
                "tiled_divide" => l.tiled_divide(&t)?,
                "flat_divide" => l.flat_divide(&t)?,
                _ => l.zipped_divide(&t)?,
            })
        }
        _ => match apply(name, &[], column) {
            Err(e @ LayoutError::UnknownOperation { .. }) => return Err(e),
            _ => {
                return Err(LayoutError::Unsupported {
                    what: format!(
                        "{name} of a layout with basis strides (supported: size, rank, shape, eval, coalesce, composition, logical_divide, zipped_divide, tiled_divide, flat_divide, logical_product, right_inverse, left_inverse, complement)"
                    ),
                });
            }
        },
    })
}

fn tuple_value(t: IntTuple) -> Value {
    match t.as_int() {
        Some(v) => Value::Int(v),
        None => Value::Tuple(t),
    }
}
