//! The error type of every fallible operation.

use std::fmt;

/// Why an operation of the layout algebra (or the text syntax) refused its input.
///
/// Every variant names the condition that failed and the values involved, and
/// its `Display` reads as a sentence. No operation of this crate panics on bad
/// input: it returns one of these instead.
///
/// ```
/// use cute_dynamic::{Layout, LayoutError, complement};
/// let l: Layout = "(4,8):(1,4)".parse()?;
/// let e = l.eval(32).unwrap_err(); // size 32: the indices are 0..32
/// assert_eq!(e, LayoutError::OutOfBounds { coord: "32".into(), shape: "(4,8)".into() });
/// assert_eq!(e.to_string(), "coordinate 32 is out of bounds for shape (4,8)");
/// // The enum is non-exhaustive: a match needs a catch-all arm.
/// match complement(&"(2,2):(1,1)".parse()?, 8) {
///     Err(LayoutError::NotInjective { layout }) => assert_eq!(layout, "(2,2):(1,1)"), // offsets 0, 1, 1, 2
///     other => panic!("{other:?}"),
/// }
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayoutError {
    /// Composition `A ∘ s:d`: the stride `d` (what is left of it after the modes
    /// of `A` already walked) and the shape of the current mode of the coalesced
    /// `A` divide neither way, and the `s` elements do not fit inside that mode.
    StrideDivisibility {
        /// The shape `S_r` of the mode of the coalesced `A`.
        shape: i64,
        /// The stride left to walk when that mode was reached.
        stride: i64,
        /// The composition, as text (`A ∘ B`).
        context: String,
    },
    /// Composition `A ∘ s:d`: a mode of `A` holds `n` of the strided elements but
    /// the `rest` elements still to place are not a multiple of `n`.
    ShapeDivisibility {
        /// The shape `S_r` of the mode of the coalesced `A`.
        shape: i64,
        /// How many elements the mode holds (`n = min(S_r / stride, rest)`).
        fits: i64,
        /// How many elements of `B`'s mode were still to place.
        rest: i64,
        /// The composition, as text.
        context: String,
    },
    /// Composition `A ∘ B` with a `B` of several modes: added up, their
    /// offsets reach past a mode of the coalesced `A` and carry into the next
    /// one, so `A ∘ B` is not the concatenation of the `A ∘ B_i` (composition
    /// distributes over `B`'s modes only when no such carry can happen).
    NotDistributive {
        /// The shape `S_r` of the mode of the coalesced `A`.
        shape: i64,
        /// How far into that mode the modes of `B` reach together
        /// (`Σ (n-1)·stride` over their pieces in that mode).
        reach: i64,
        /// The composition, as text.
        context: String,
    },
    /// A shape and a stride do not have the same tree structure.
    NotCongruent {
        /// The shape, as text.
        shape: String,
        /// The stride, as text.
        stride: String,
    },
    /// A shape has a zero or negative extent.
    NonPositiveShape {
        /// The shape, as text.
        shape: String,
    },
    /// Two arguments disagree in rank (a tiler longer than the layout, a
    /// coordinate of the wrong rank, a profile that does not fit).
    RankMismatch {
        /// What was being done.
        what: String,
        /// The rank that was needed (at most this many, for tilers).
        expected: usize,
        /// The rank that was given.
        found: usize,
    },
    /// Complement of a layout that maps two coordinates to the same offset
    /// (ignoring stride-0 modes, which the complement filters out).
    NotInjective {
        /// The layout, as text.
        layout: String,
    },
    /// Complement of an injective layout whose modes, sorted by stride,
    /// interleave: a mode's stride is below the extent `shape·stride` of the
    /// previous mode, so no ordered layout can fill its holes disjointly.
    NotComplementable {
        /// The layout, as text.
        layout: String,
        /// The stride of the mode that starts inside the previous one.
        stride: i64,
        /// The extent of the previous mode (`shape·stride`).
        extent: i64,
    },
    /// The function an operation asks for exists but is not a layout (for
    /// example the left inverse of a layout whose sorted strides are not
    /// multiples of one another).
    NoLayout {
        /// The operation.
        operation: &'static str,
        /// The argument, as text.
        layout: String,
        /// Why, as a sentence fragment.
        reason: String,
    },
    /// A coordinate lies outside the layout's domain.
    OutOfBounds {
        /// The coordinate, as text.
        coord: String,
        /// The shape it was used with, as text.
        shape: String,
    },
    /// Neither of two integers divides the other (CuTe's `shape_div`
    /// requires one of them to).
    NotDivisible {
        /// The operation.
        operation: &'static str,
        /// The dividend.
        a: i64,
        /// The divisor.
        b: i64,
    },
    /// A count that must be a multiple of another is not (the threads,
    /// values or tile of a tiled atom against its atom's).
    NotAMultiple {
        /// What is counted, as a sentence fragment.
        what: String,
        /// The count.
        value: i64,
        /// What it must be a multiple of.
        of: i64,
    },
    /// A value that the operation does not define (negative strides where only
    /// non-negative ones make sense, an argument of the wrong kind, …).
    Unsupported {
        /// What is not supported, as a sentence fragment.
        what: String,
    },
    /// A tensor's layout reaches offsets outside its storage (at
    /// construction), or an element of a view lies past the storage (a
    /// ragged edge of a tiled tensor).
    OutOfStorage {
        /// What reaches there, as a sentence fragment.
        what: String,
        /// The smallest storage index reached.
        lo: i64,
        /// The largest storage index reached.
        hi: i64,
        /// The number of elements of the storage.
        len: usize,
    },
    /// Two tensors (or a tensor and a predicate) that an algorithm pairs
    /// element by element differ in size or in the sizes of their modes.
    SizeMismatch {
        /// What was being done.
        what: String,
        /// The size that was needed.
        expected: i64,
        /// The size that was given.
        found: i64,
    },
    /// Two threads' parts of a tensor reach the same element, so they cannot
    /// be handed out as disjoint mutable views.
    Overlap {
        /// The partition, as text.
        what: String,
        /// One thread that reaches the element.
        first: i64,
        /// Another thread that reaches it.
        second: i64,
        /// The storage index both reach.
        index: i64,
    },
    /// An intermediate or final value does not fit in an `i64`.
    Overflow {
        /// The operation whose arithmetic overflowed.
        operation: &'static str,
    },
    /// A number in the input asks for more than this crate builds: a basis
    /// index (the rank of a coordinate), a picture's cells, ... Every
    /// allocation an input number controls is bounded, so that no input
    /// exhausts memory.
    Limit {
        /// What the number counts.
        what: &'static str,
        /// The number asked for.
        value: u64,
        /// The largest accepted.
        limit: u64,
    },
    /// A layout converted into a layout type of `cute-static` does not fit
    /// it: a node of its shape or stride has another structure than the
    /// type's, or differs from the type's static integer there.
    TypeMismatch {
        /// Where: the tree and the mode path (`shape mode 1.0`).
        at: String,
        /// What the type has there (`the static integer _4`, `a tuple of rank 2`).
        expected: String,
        /// What the layout has there.
        found: String,
    },
    /// Text that is not in the layout syntax.
    Parse {
        /// 1-based byte column of the offending character.
        column: usize,
        /// What the parser expected there.
        expected: String,
        /// What it found (`end of input` at the end).
        found: String,
    },
    /// An expression named an operation that the evaluator does not know.
    UnknownOperation {
        /// The name as written.
        name: String,
        /// 1-based byte column of the name.
        column: usize,
    },
    /// An operation of the evaluator got arguments of the wrong kind or number.
    BadArguments {
        /// The operation.
        operation: String,
        /// What it accepts.
        expected: String,
        /// 1-based byte column of the call.
        column: usize,
    },
    /// A descriptor entry `n/0@dim`: its count has a zero denominator.
    ZeroDenominator {
        /// The entry, as written (`1/0@0`).
        entry: String,
        /// 1-based byte column of the entry.
        column: usize,
    },
    /// A descriptor entry `n/d@dim` whose count `n/d` is not an integer
    /// (a basis stride must be integral).
    NonIntegralCount {
        /// The entry, as written (`1/2@0`).
        entry: String,
        /// The numerator `n`.
        count: i64,
        /// The denominator `d`.
        denominator: i64,
        /// 1-based byte column of the entry.
        column: usize,
    },
    /// Swizzle parameters that do not make a swizzle (a bijection on offsets).
    InvalidSwizzle {
        /// The swizzle, as text (`Sw<3,4,2>`).
        swizzle: String,
        /// The condition that fails, as a sentence fragment.
        reason: String,
    },
}

impl LayoutError {
    /// The 1-based byte column the error points at, for errors about text.
    ///
    /// ```
    /// use cute_dynamic::{Layout, parse_descriptor};
    /// assert_eq!(parse_descriptor("(1@0,").unwrap_err().column(), Some(6));
    /// assert_eq!(Layout::scalar(0, 1).unwrap_err().column(), None); // not about text
    /// ```
    pub fn column(&self) -> Option<usize> {
        match self {
            LayoutError::Parse { column, .. }
            | LayoutError::UnknownOperation { column, .. }
            | LayoutError::BadArguments { column, .. }
            | LayoutError::ZeroDenominator { column, .. }
            | LayoutError::NonIntegralCount { column, .. } => Some(*column),
            _ => None,
        }
    }
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::StrideDivisibility { shape, stride, context } => write!(
                f,
                "stride divisibility condition violated in {context}: the stride {stride} and the \
                 shape {shape} of a mode of the coalesced left layout divide neither way, and the \
                 elements do not fit inside that mode"
            ),
            LayoutError::ShapeDivisibility { shape, fits, rest, context } => write!(
                f,
                "shape divisibility condition violated in {context}: a mode of shape {shape} of the \
                 coalesced left layout holds {fits} of the strided elements, which does not divide \
                 the {rest} elements still to place"
            ),
            LayoutError::NotDistributive { shape, reach, context } => write!(
                f,
                "composition does not distribute over the modes of the right layout in {context}: \
                 together they reach {reach} into a mode of shape {shape} of the coalesced left layout, \
                 so their offsets carry into the next mode"
            ),
            LayoutError::NotCongruent { shape, stride } => {
                write!(f, "shape {shape} and stride {stride} are not congruent: they must have the same tree structure")
            }
            LayoutError::NonPositiveShape { shape } => {
                write!(f, "shape {shape} has an extent that is not positive")
            }
            LayoutError::RankMismatch { what, expected, found } => {
                write!(f, "rank mismatch in {what}: expected rank {expected}, found rank {found}")
            }
            LayoutError::NotInjective { layout } => write!(
                f,
                "layout {layout} is not injective: two coordinates map to the same offset, so it has no complement"
            ),
            LayoutError::NotComplementable { layout, stride, extent } => write!(
                f,
                "layout {layout} has no complement: sorted by stride, a mode of stride {stride} starts \
                 inside the extent {extent} of the previous mode, so its holes cannot be filled by an ordered layout"
            ),
            LayoutError::NoLayout { operation, layout, reason } => {
                write!(f, "{operation} of {layout} is not a layout: {reason}")
            }
            LayoutError::OutOfBounds { coord, shape } => {
                write!(f, "coordinate {coord} is out of bounds for shape {shape}")
            }
            LayoutError::NotDivisible { operation, a, b } => {
                write!(f, "{operation}({a}, {b}): neither of {a} and {b} divides the other")
            }
            LayoutError::Limit { what, value, limit } => {
                write!(f, "{what} {value} is above the limit of {limit}")
            }
            LayoutError::NotAMultiple { what, value, of } => write!(f, "{what}: {value} is not a multiple of {of}"),
            LayoutError::Unsupported { what } => write!(f, "unsupported: {what}"),
            LayoutError::OutOfStorage { what, lo, hi, len } => {
                write!(f, "{what} reaches storage indices {lo}..={hi}, outside a storage of {len} elements")
            }
            LayoutError::SizeMismatch { what, expected, found } => {
                write!(f, "size mismatch in {what}: expected size {expected}, found size {found}")
            }
            LayoutError::Overlap { what, first, second, index } => {
                write!(f, "{what} are not disjoint: threads {first} and {second} both reach storage index {index}")
            }
            LayoutError::TypeMismatch { at, expected, found } => {
                write!(f, "{at}: the layout type has {expected}, the layout has {found}")
            }
            LayoutError::Overflow { operation } => {
                write!(f, "arithmetic overflow in {operation}: a value does not fit in 64 bits")
            }
            LayoutError::Parse { column, expected, found } => {
                write!(f, "expected {expected} at column {column}, found {found}")
            }
            LayoutError::UnknownOperation { name, column } => {
                write!(f, "unknown operation '{name}' at column {column}")
            }
            LayoutError::BadArguments { operation, expected, column } => {
                write!(f, "{operation} at column {column} takes {expected}")
            }
            LayoutError::ZeroDenominator { entry, column } => write!(
                f,
                "descriptor entry '{entry}' at column {column} has a zero denominator: its count is not a number"
            ),
            LayoutError::NonIntegralCount { entry, count, denominator, column } => write!(
                f,
                "descriptor entry '{entry}' at column {column} has the non-integral count {count}/{denominator}: \
                 a basis stride must be an integer"
            ),
            LayoutError::InvalidSwizzle { swizzle, reason } => write!(f, "{swizzle} is not a swizzle: {reason}"),
        }
    }
}

impl std::error::Error for LayoutError {}

/// Shorthand for results of this crate.
///
/// ```
/// use cute_dynamic::{IntTuple, Layout, LayoutError, Result};
/// // The offset of element (i,j) of a row-major m×n matrix.
/// fn offset(m: i64, n: i64, i: i64, j: i64) -> Result<i64> {
///     let l: Layout = format!("({m},{n}):({n},1)").parse()?;
///     l.eval_coord(&IntTuple::flat([i, j]))
/// }
/// assert_eq!(offset(4, 8, 1, 2)?, 10);
/// assert!(matches!(offset(4, 8, 4, 0), Err(LayoutError::OutOfBounds { .. }))); // rows 0..4
/// assert!(matches!(offset(4, 0, 0, 0), Err(LayoutError::Parse { column: 1, .. }))); // an extent of 0
/// # Ok::<(), LayoutError>(())
/// ```
pub type Result<T> = std::result::Result<T, LayoutError>;

pub(crate) fn checked_mul(a: i64, b: i64, operation: &'static str) -> Result<i64> {
    // A match, not `ok_or`: building (and dropping) the error on the success
    // path costs measurable time in the hot loops.
    match a.checked_mul(b) {
        Some(v) => Ok(v),
        None => Err(LayoutError::Overflow { operation }),
    }
}

pub(crate) fn checked_add(a: i64, b: i64, operation: &'static str) -> Result<i64> {
    match a.checked_add(b) {
        Some(v) => Ok(v),
        None => Err(LayoutError::Overflow { operation }),
    }
}

impl crate::kernel::Fail {
    /// The error this failure is, its message naming the operands through
    /// `ctx` (called only here, on the cold path).
    ///
    /// ```
    /// use cute_dynamic::LayoutError;
    /// use cute_dynamic::kernel::Fail;
    /// let e = Fail::Stride { shape: 3, stride: 2 }.into_error(&|| "composition(3:1, 2:2)".into());
    /// assert!(matches!(e, LayoutError::StrideDivisibility { shape: 3, stride: 2, .. }));
    /// assert!(e.to_string().contains("composition(3:1, 2:2)"));
    /// ```
    #[cold]
    #[inline(never)]
    pub fn into_error(self, ctx: &dyn Fn() -> String) -> LayoutError {
        use crate::kernel::Fail;
        match self {
            Fail::Stride { shape, stride } => LayoutError::StrideDivisibility { shape, stride, context: ctx() },
            Fail::Shape { shape, fits, rest } => LayoutError::ShapeDivisibility { shape, fits, rest, context: ctx() },
            Fail::NotDistributive { shape, reach } => LayoutError::NotDistributive { shape, reach, context: ctx() },
            Fail::MixedSigns => LayoutError::Unsupported {
                what: format!(
                    "{}: a right layout with both positive and negative strides needs a left layout of one linear mode",
                    ctx()
                ),
            },
            Fail::NegativeStride => LayoutError::Unsupported {
                what: format!(
                    "{}: a negative stride in the right layout needs a left layout of one linear mode",
                    ctx()
                ),
            },
            Fail::CotargetBelowOne { cotarget } => {
                LayoutError::Unsupported { what: format!("complement of {} with cotarget {cotarget} below 1", ctx()) }
            }
            Fail::NoOrderedComplement => LayoutError::Unsupported {
                what: format!("complement of {}: negative strides have no ordered complement", ctx()),
            },
            Fail::Interleaved { stride, extent } => LayoutError::NotComplementable { layout: ctx(), stride, extent },
            Fail::Overflow(operation) => LayoutError::Overflow { operation },
            Fail::Room { limit: Some(n) } => {
                LayoutError::Unsupported { what: format!("{}: more than {n} flat modes in one layout", ctx()) }
            }
            // Room without a bound is a list sized for the largest result:
            // a result larger still has more leaves than memory.
            Fail::Room { limit: None } => LayoutError::Overflow { operation: "composition size" },
        }
    }
}
