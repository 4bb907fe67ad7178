//! Coordinates (paper section 2.2.2; CuTe's `01_layout.md`, "Coordinate
//! mapping"): the map from an integral coordinate to the coordinate of a
//! shape ([`idx2crd`], paper eq. (4)) and back ([`crd2idx`], eq. (5)), both
//! colexicographic (mode 0 varies fastest), and a layout evaluated at a
//! coordinate ([`Layout::eval_coord`], the [`Coord`] trait of what tensors
//! are indexed with). `cute-static`'s `coord.rs` is the same concept on
//! static shapes; `docs/architecture.md` (section 3) maps the two.
//!
//! This module sits above `layout.rs`: evaluating at a coordinate splits the
//! coordinate over the shape here and leaves the integral evaluation of each
//! part to the layout's one kernel.

use crate::error::{LayoutError, Result, checked_mul};
use crate::int_tuple::{IntTuple, Tok, Tree};
use crate::layout::{Layout, eval_vals};

/// The paper's `idx2crd` (eq. (4)) for one level: splits the integral
/// coordinate `i` over the modes of `shape`, the last mode unbounded. A
/// negative `i` splits with truncating division (as CuTe's C++), so
/// `idx2crd(-i) == -idx2crd(i)`.
///
/// Post-conditions: for an integer `shape` the result is `i`; for a tuple
/// it is a flat tuple of `shape`'s rank whose mode `k` below the last is
/// `(i / (|S_0|·…·|S_{k-1}|)) mod |S_k|`, and `crd2idx(idx2crd(i, s), s)
/// == i` for every `i` (in particular for `0 <= i < size(s)`). The natural
/// (fully nested) coordinate is `idx2crd` applied again within each mode,
/// which `cute-static`'s `idx2crd` returns at once.
///
/// Errors: `NonPositiveShape` for a mode of size below 1; `Overflow`.
///
/// ```
/// use cute_dynamic::{IntTuple, idx2crd, crd2idx};
/// let s: IntTuple = "((2,3),2)".parse()?;
/// let c = idx2crd(5, &s)?;
/// assert_eq!(c.to_string(), "(5,0)");
/// assert_eq!(crd2idx(&c, &s)?, 5);
/// // CuTe's docs: 16 in (3,(2,3)) is (1,5), whose mode 1 is (1,2) in (2,3).
/// assert_eq!(idx2crd(16, &"(3,(2,3))".parse()?)?.to_string(), "(1,5)");
/// assert_eq!(idx2crd(5, &"(2,3)".parse()?)?.to_string(), "(1,2)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn idx2crd(i: i64, shape: &IntTuple) -> Result<IntTuple> {
    if shape.is_int() {
        return Ok(IntTuple::int(i));
    }
    let mut c = IntTuple::empty();
    c.open();
    let mut rest = i;
    let r = shape.rank();
    for (k, m) in shape.tree().children().enumerate() {
        let s = m.val.iter().try_fold(1i64, |a, &v| checked_mul(a, v, "idx2crd"))?;
        if s < 1 {
            return Err(LayoutError::NonPositiveShape { shape: shape.to_string() });
        }
        if k + 1 == r {
            c.leaf(rest);
        } else {
            // Truncating, as C++: idx2crd(-i) is -idx2crd(i).
            c.leaf(rest % s);
            rest /= s;
        }
    }
    c.close();
    Ok(c)
}

/// The paper's `crd2idx` (eq. (5)): the integral coordinate of a coordinate
/// that is weakly congruent to `shape` (integers may stand for whole modes).
/// The order is colexicographic: mode 0 varies fastest.
///
/// Post-condition: the result is `Σ_k crd2idx(c_k, S_k)·(|S_0|·…·|S_{k-1}|)`
/// over the modes (an integer coordinate is itself), so it inverts
/// [`idx2crd`] and its repeated application: `crd2idx(idx2crd(i, s), s) ==
/// i`. Coordinates are not bounds-checked.
///
/// Errors: `RankMismatch` when `coord` is not weakly congruent to `shape`;
/// `Overflow`.
///
/// ```
/// use cute_dynamic::{IntTuple, crd2idx};
/// let s: IntTuple = "(4,8)".parse()?;
/// assert_eq!(crd2idx(&"(1,2)".parse()?, &s)?, 9); // 1 + 2·4
/// assert_eq!(crd2idx(&IntTuple::int(9), &s)?, 9); // an integer is already integral
/// let s: IntTuple = "((2,3),2)".parse()?;
/// assert_eq!(crd2idx(&"((1,2),1)".parse()?, &s)?, 11); // (1 + 2·2) + 1·6
/// assert_eq!(crd2idx(&"(4,1)".parse()?, &s)?, 10); // 4 stands for the whole mode (2,3)
/// assert!(crd2idx(&"(1,2,3)".parse()?, &s).is_err()); // rank 3 against rank 2
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn crd2idx(coord: &IntTuple, shape: &IntTuple) -> Result<i64> {
    crd2idx_tree(coord.tree(), shape.tree()).ok_or_else(|| {
        if coord.weakly_congruent(shape) {
            LayoutError::Overflow { operation: "crd2idx" }
        } else {
            LayoutError::RankMismatch {
                what: format!("crd2idx of {coord} in shape {shape}"),
                expected: shape.rank(),
                found: coord.rank(),
            }
        }
    })
}

/// [`crd2idx`] of subtrees; `None` on a structure mismatch or an overflow
/// (the caller tells them apart).
fn crd2idx_tree(c: Tree<'_>, s: Tree<'_>) -> Option<i64> {
    if let Some(v) = c.leaf() {
        return Some(v);
    }
    if s.leaf().is_some() || c.rank() != s.rank() {
        return None;
    }
    let mut idx = 0i64;
    let mut mult = 1i64;
    for (ci, si) in c.children().zip(s.children()) {
        let sub = crd2idx_tree(ci, si)?;
        idx = idx.checked_add(sub.checked_mul(mult)?)?;
        mult = mult.checked_mul(si.size()?)?;
    }
    Some(idx)
}

impl Layout {
    /// Evaluates at a coordinate weakly congruent to the shape: an integral
    /// coordinate, a rank-N coordinate, or a natural (fully nested) one, mixed
    /// as the paper's coordinate sets allow (paper 2.2.2, 2.4.1). Every
    /// integer must be in bounds for the mode it indexes.
    ///
    /// Post-condition: the result is `L(crd2idx(coord, shape))`, the
    /// inner product of the natural coordinate with the stride (paper eq.
    /// (6)).
    ///
    /// Errors: `RankMismatch` when `coord` is not weakly congruent to the
    /// shape; `OutOfBounds` for an integer outside its mode.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l: Layout = "(4,8):(8,1)".parse()?;
    /// assert_eq!(l.eval_coord(&"(1,3)".parse()?)?, 11);
    /// assert_eq!(l.eval_coord(&"13".parse()?)?, 11); // integral coordinate
    /// assert!(l.eval_coord(&"(4,0)".parse()?).is_err()); // 4 is outside mode 0
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn eval_coord(&self, coord: &IntTuple) -> Result<i64> {
        eval_coord_tree(coord.tree(), self.shape.tree(), self.stride.vals()).map_err(|e| match e {
            CoordError::Rank => LayoutError::RankMismatch {
                what: format!("coordinate {coord} for layout {self}"),
                expected: self.rank(),
                found: coord.rank(),
            },
            CoordError::Bounds => LayoutError::OutOfBounds { coord: coord.to_string(), shape: self.shape.to_string() },
        })
    }
}

enum CoordError {
    Rank,
    Bounds,
}

/// Evaluates the coordinate `c` in the shape `s` whose stride leaves are
/// `d`, in one walk over both structures: they must agree token for token,
/// except that an integer of `c` may stand for a whole subtree of `s`
/// (then it is an integral coordinate of that subtree).
fn eval_coord_tree(c: Tree<'_>, s: Tree<'_>, d: &[i64]) -> std::result::Result<i64, CoordError> {
    let (mut cv, mut sp, mut sv) = (0usize, 0usize, 0usize);
    let mut off = 0i64;
    for t in c.tok.iter() {
        let Some(st) = s.tok.get(sp) else { return Err(CoordError::Rank) };
        match (t, st) {
            (Tok::Open, Tok::Open) | (Tok::Close, Tok::Close) => sp += 1,
            (Tok::Leaf, Tok::Leaf | Tok::Open) => {
                let (nt, nv) =
                    if st == Tok::Leaf { (1, 1) } else { crate::int_tuple::extent(s.tok.slice(sp, s.tok.len())) };
                let i = c.val.get(cv).copied().unwrap_or(0);
                let (shape, stride) = (&s.val[sv..sv + nv], &d[sv..sv + nv]);
                let size: i64 = shape.iter().product();
                if i < 0 || i >= size {
                    return Err(CoordError::Bounds);
                }
                // In bounds, so the sum stays within the checked extent.
                off += eval_vals(shape, stride, i);
                (cv, sp, sv) = (cv + 1, sp + nt, sv + nv);
            }
            _ => return Err(CoordError::Rank),
        }
    }
    Ok(off)
}

/// A coordinate a tensor (or a layout) can be evaluated at: an integral
/// coordinate (`i64`), a rank-N one (`(i64, i64)`, `[i64; N]`), or any
/// [`IntTuple`] weakly congruent to the shape (natural coordinates too).
///
/// Post-condition: `c.eval_in(l)` is `l.eval(i)` for an integer `i` and
/// `l.eval_coord(c)` for a tuple, with their bounds checks.
///
/// ```
/// use cute_dynamic::{Coord, IntTuple, Layout};
/// let l: Layout = "(3,(2,3)):(3,(12,1))".parse()?;
/// // CuTe's docs: 16, (1,5) and (1,(1,2)) are one point of (3,(2,3)), offset 17.
/// assert_eq!(16i64.eval_in(&l)?, 17);
/// assert_eq!((1i64, 5i64).eval_in(&l)?, 17);
/// assert_eq!("(1,(1,2))".parse::<IntTuple>()?.eval_in(&l)?, 17);
/// assert!((3i64, 0i64).eval_in(&l).is_err()); // 3 is outside mode 0
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub trait Coord {
    /// `L(self)`, with the layout's bounds checks.
    ///
    /// ```
    /// use cute_dynamic::{Coord, Layout};
    /// let l: Layout = "(4,8):(1,4)".parse()?;
    /// assert_eq!((3i64, 2i64).eval_in(&l)?, 11); // 3·1 + 2·4
    /// assert_eq!(11i64.eval_in(&l)?, 11);        // the same point, by its index
    /// assert!(32i64.eval_in(&l).is_err());       // past size 32
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn eval_in(&self, layout: &Layout) -> Result<i64>;
}

impl Coord for i64 {
    fn eval_in(&self, layout: &Layout) -> Result<i64> {
        layout.eval(*self)
    }
}
impl Coord for IntTuple {
    fn eval_in(&self, layout: &Layout) -> Result<i64> {
        if let Some(i) = self.as_int() { layout.eval(i) } else { layout.eval_coord(self) }
    }
}
impl Coord for &IntTuple {
    fn eval_in(&self, layout: &Layout) -> Result<i64> {
        (*self).eval_in(layout)
    }
}
impl<const N: usize> Coord for [i64; N] {
    fn eval_in(&self, layout: &Layout) -> Result<i64> {
        IntTuple::flat(self.iter().copied()).eval_in(layout)
    }
}
impl Coord for (i64, i64) {
    fn eval_in(&self, layout: &Layout) -> Result<i64> {
        [self.0, self.1].eval_in(layout)
    }
}
impl Coord for (i64, i64, i64) {
    fn eval_in(&self, layout: &Layout) -> Result<i64> {
        [self.0, self.1, self.2].eval_in(layout)
    }
}
impl Coord for (i64, i64, i64, i64) {
    fn eval_in(&self, layout: &Layout) -> Result<i64> {
        [self.0, self.1, self.2, self.3].eval_in(layout)
    }
}
