//! `Layout`: a shape and a congruent stride, a function from coordinates to offsets.

use crate::error::{LayoutError, Result};
use crate::int_tuple::{INLINE_TOKS, INLINE_VALS, IntTuple, Tok, Toks, Tree, flat_toks, tok_mask};
use smallvec::SmallVec;

/// Flat `(shape, stride)` pairs of a layout's leaves. Inline up to 9: a
/// layout of 8 leaves has at most 8 modes, and the longest list any
/// operation builds from one (a complement or a left inverse) has 9. Kept
/// small because these lists are moved around on every operation.
pub(crate) type Modes = SmallVec<[(i64, i64); 9]>;

/// Room on the stack for the scratch lists of [`with_scratch`]: one entry
/// per leaf, and one more, for layouts of up to 9 leaves.
const STACK_SCRATCH: usize = 10;

/// Runs `f` on a scratch slice of `n` default values: on the stack when `n`
/// is at most 10, else on the heap (the operations that need a list of one
/// entry per leaf for a moment, without the bookkeeping of a growing list).
#[inline(always)]
pub(crate) fn with_scratch<T: Copy + Default, R>(n: usize, f: impl FnOnce(&mut [T]) -> R) -> R {
    if n <= STACK_SCRATCH { f(&mut [T::default(); STACK_SCRATCH][..n]) } else { f(&mut vec![T::default(); n]) }
}

/// A CuTe layout `S:D`: the shape `S` defines the domain, the stride `D` maps
/// natural coordinates to offsets by inner product (paper eq. 6).
///
/// Invariants, checked by every constructor: shape and stride are congruent,
/// every shape extent is positive, and the size and every offset of the
/// domain fit in an `i64` (so in-bounds evaluation never overflows).
///
/// ```
/// use cute_dynamic::{IntTuple, Layout};
/// let l: Layout = "((2,2),(4,2)):((1,8),(2,16))".parse().unwrap();
/// assert_eq!(l.size(), 32);
/// assert_eq!(l.eval(22).unwrap(), 26);                       // integral coordinate
/// let c: IntTuple = "(2,5)".parse().unwrap();
/// assert_eq!(l.eval_coord(&c).unwrap(), 26);                 // rank-2 coordinate
/// let n: IntTuple = "((0,1),(1,1))".parse().unwrap();
/// assert_eq!(l.eval_coord(&n).unwrap(), 26);                 // natural coordinate
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    pub(crate) shape: IntTuple,
    pub(crate) stride: IntTuple,
}

impl std::fmt::Debug for Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Layout({self})")
    }
}

impl Layout {
    /// A layout from a shape and a stride.
    ///
    /// Errors: `NotCongruent` if the trees differ, `NonPositiveShape` for an
    /// extent below 1, `Overflow` if the size or an offset exceeds `i64`.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l = Layout::new("(4,8)".parse()?, "(1,4)".parse()?)?;
    /// assert_eq!(l.to_string(), "(4,8):(1,4)");
    /// assert!(Layout::new("(4,8)".parse()?, "4".parse()?).is_err()); // not congruent
    /// assert!(Layout::new("(4,0)".parse()?, "(1,4)".parse()?).is_err()); // extent 0
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn new(shape: IntTuple, stride: IntTuple) -> Result<Layout> {
        let l = Layout { shape, stride };
        l.validate()?;
        Ok(l)
    }

    /// The invariants every constructor checks (see the type's docs).
    pub(crate) fn validate(&self) -> Result<()> {
        if !self.shape.congruent(&self.stride) {
            return Err(LayoutError::NotCongruent { shape: self.shape.to_string(), stride: self.stride.to_string() });
        }
        if self.shape.vals().iter().any(|&s| s < 1) {
            return Err(LayoutError::NonPositiveShape { shape: self.shape.to_string() });
        }
        self.check_extent()
    }

    /// The compact column-major layout of a shape (CuTe's `make_layout(shape)`:
    /// stride 1 for the first leaf, each next stride the product of the
    /// extents before it).
    ///
    /// ```
    /// use cute_dynamic::{IntTuple, Layout};
    /// let s: IntTuple = "(4,(3,2))".parse().unwrap();
    /// assert_eq!(Layout::column_major(&s).unwrap().to_string(), "(4,(3,2)):(1,(4,12))");
    /// ```
    pub fn column_major(shape: &IntTuple) -> Result<Layout> {
        // The strides are the exclusive prefix products of the extents.
        Layout::new(shape.clone(), crate::prefix_product(shape)?)
    }

    /// A rank-1 (scalar) layout `s:d`.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l = Layout::scalar(8, 2)?;
    /// assert_eq!(l.to_string(), "8:2");
    /// assert_eq!(l.eval(3)?, 6);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn scalar(s: i64, d: i64) -> Result<Layout> {
        Layout::new(IntTuple::int(s), IntTuple::int(d))
    }

    /// The shape.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l: Layout = "(4,(3,2)):(1,(4,12))".parse()?;
    /// assert_eq!(l.shape().to_string(), "(4,(3,2))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn shape(&self) -> &IntTuple {
        &self.shape
    }

    /// The stride.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l: Layout = "(4,(3,2)):(1,(4,12))".parse()?;
    /// assert_eq!(l.stride().to_string(), "(1,(4,12))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn stride(&self) -> &IntTuple {
        &self.stride
    }

    /// Number of top-level modes (1 for a scalar layout).
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// assert_eq!("(4,(3,2)):(1,(4,12))".parse::<Layout>()?.rank(), 2);
    /// assert_eq!("8:1".parse::<Layout>()?.rank(), 1);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// Depth of the shape (0 for a scalar layout).
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// assert_eq!("(4,(3,2)):(1,(4,12))".parse::<Layout>()?.depth(), 2);
    /// assert_eq!("(4,8):(1,4)".parse::<Layout>()?.depth(), 1);
    /// assert_eq!("8:1".parse::<Layout>()?.depth(), 0);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn depth(&self) -> usize {
        self.shape.depth()
    }

    /// Size of the domain: the product of the shape.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// assert_eq!("(4,(3,2)):(1,(4,12))".parse::<Layout>()?.size(), 24);
    /// assert_eq!("(4,8):(0,0)".parse::<Layout>()?.size(), 32); // the domain, not the offsets
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn size(&self) -> i64 {
        // Checked at construction. One or two leaves (most) without the
        // loop.
        match *self.shape.vals() {
            [s] => s,
            [s, t] => s * t,
            ref v => v.iter().product(),
        }
    }

    /// CuTe's `cosize`: the span of the offsets, `Σ (s_i - 1)·|d_i| + 1`
    /// (`size(coshape(L))`, CuTe's `layout.hpp`). For non-negative strides
    /// that is one past the largest offset, `L(size-1) + 1`; with negative
    /// strides it is `max L(c) - min L(c) + 1`, the number of elements a
    /// tensor over the layout spans from its smallest offset to its largest
    /// (`cosize((4):(-1))` is 4, as in CuTe).
    ///
    /// Post-condition: `cosize() == max L(c) - min L(c) + 1`; it fits in an
    /// `i64` by the layout's invariants.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// assert_eq!("(4,8):(1,4)".parse::<Layout>()?.cosize(), 32);
    /// assert_eq!("(4):(-1)".parse::<Layout>()?.cosize(), 4);
    /// assert_eq!("(2,3):(-1,2)".parse::<Layout>()?.cosize(), 6); // offsets -1..=4
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn cosize(&self) -> i64 {
        // Each `(s-1)·d` and the sum of their magnitudes fit: the layout's
        // invariants bound its offsets and their span.
        self.pairs().map(|(s, d)| ((s - 1) * d).abs()).sum::<i64>() + 1
    }

    /// The `i`-th top-level mode as a layout (mode 0 of a scalar layout is itself).
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l: Layout = "(4,(3,2)):(1,(4,12))".parse()?;
    /// assert_eq!(l.get(1).unwrap().to_string(), "(3,2):(4,12)");
    /// assert!(l.get(2).is_none());
    /// assert_eq!("8:2".parse::<Layout>()?.get(0).unwrap().to_string(), "8:2");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn get(&self, i: usize) -> Option<Layout> {
        Some(Layout { shape: self.shape.get(i)?, stride: self.stride.get(i)? })
    }

    /// The top-level modes in order.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l: Layout = "(4,(3,2)):(1,(4,12))".parse()?;
    /// let modes: Vec<String> = l.modes_iter().map(|m| m.to_string()).collect();
    /// assert_eq!(modes, ["4:1", "(3,2):(4,12)"]);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn modes_iter(&self) -> impl Iterator<Item = Layout> + '_ {
        self.shape.modes().zip(self.stride.modes()).map(|(shape, stride)| Layout { shape, stride })
    }

    /// The same leaves as a flat (depth ≤ 1) layout.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l: Layout = "(4,(3,2)):(1,(4,12))".parse()?;
    /// assert_eq!(l.flatten().to_string(), "(4,3,2):(1,4,12)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn flatten(&self) -> Layout {
        Layout { shape: self.shape.flatten(), stride: self.stride.flatten() }
    }

    /// Evaluates the layout at an integral coordinate `0 <= i < size()`.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l: Layout = "(4,8):(8,1)".parse()?; // row-major 4×8
    /// assert_eq!(l.eval(13)?, 11); // 13 is (1,3): 1·8 + 3·1
    /// assert!(l.eval(32).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn eval(&self, i: i64) -> Result<i64> {
        if i < 0 || i >= self.size() {
            return Err(LayoutError::OutOfBounds { coord: i.to_string(), shape: self.shape.to_string() });
        }
        Ok(eval_vals(self.shape.vals(), self.stride.vals(), i))
    }

    /// Evaluates at any integral coordinate of the extended domain (paper
    /// 2.4.1): `idx2crd` with the last leaf unbounded, then the inner product
    /// with the stride.
    ///
    /// Negative `i` is decomposed with truncating division (remainder of the
    /// sign of `i`), as C++'s `/` and `%` in CuTe's `idx2crd`: the coordinate
    /// of `-i` is the negated coordinate of `i`, so `L(-i) == -L(i)` (the odd
    /// extension). This is what composition with a negative stride reads.
    ///
    /// ```
    /// use cute_dynamic::Layout;
    /// let l: Layout = "(2,4):(-1,512)".parse().unwrap();
    /// assert_eq!(l.eval_extended(3).unwrap(), 511);
    /// assert_eq!(l.eval_extended(-3).unwrap(), -511);
    /// ```
    pub fn eval_extended(&self, i: i64) -> Result<i64> {
        // Straight from the leaves: no list of the modes made per call (a
        // heap one past 9 leaves, for checks that evaluate every point).
        let (shape, stride) = (self.shape.vals(), self.stride.vals());
        eval_kernel::<true>(shape.iter().copied().zip(stride.iter().copied()), i)
            .ok_or(LayoutError::Overflow { operation: "layout evaluation" })
    }

    /// The flat `(shape, stride)` pairs of the leaves.
    pub(crate) fn modes(&self) -> Modes {
        self.pairs().collect()
    }

    /// The `(shape, stride)` pairs of the leaves, without collecting them.
    #[inline]
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.shape.vals().iter().copied().zip(self.stride.vals().iter().copied())
    }

    /// No tokens yet: a layout under construction (see [`Layout::open`]).
    #[inline]
    pub(crate) fn empty() -> Layout {
        Layout { shape: IntTuple::empty(), stride: IntTuple::empty() }
    }

    /// Starts a tuple in both shape and stride.
    #[inline(always)]
    pub(crate) fn open(&mut self) {
        self.shape.open();
        self.stride.open();
    }

    /// Ends the innermost open tuple of both.
    #[inline(always)]
    pub(crate) fn close(&mut self) {
        self.shape.close();
        self.stride.close();
    }

    /// Appends a whole layout as one mode.
    pub(crate) fn push_layout(&mut self, l: &Layout) {
        self.shape.push_tree(l.shape.tree());
        self.stride.push_tree(l.stride.tree());
    }

    /// Builds a layout from trusted parts (invariants already hold).
    pub(crate) fn from_parts(shape: IntTuple, stride: IntTuple) -> Layout {
        Layout { shape, stride }
    }

    /// The size and every offset fit in `i64`.
    pub(crate) fn check_extent(&self) -> Result<()> {
        let (shape, stride) = (self.shape.vals(), self.stride.vals());
        match extent(shape, stride) {
            Some(_) => Ok(()),
            None => Err(LayoutError::Overflow {
                operation: if size_overflows(shape) { "layout size" } else { "layout extent" },
            }),
        }
    }
}

/// The size and one past the largest offset of a layout given by its
/// leaves, `None` if either overflows `i64`, or the span of the offsets
/// (the cosize, `max - min + 1`) does ([`crate::kernel::extent`]).
#[inline(always)]
pub(crate) fn extent(shape: &[i64], stride: &[i64]) -> Option<(i64, i64)> {
    crate::kernel::extent(shape.iter().copied().zip(stride.iter().copied()))
}

/// `true` if the product of the extents overflows `i64`.
fn size_overflows(shape: &[i64]) -> bool {
    shape.iter().try_fold(1i64, |a, &s| a.checked_mul(s)).is_none()
}

/// A layout being built in the inline room of one: the leaves' shapes and
/// strides and the structure they share, written in place, then made a
/// layout in one step at the very end. That last step is what lets the
/// compiler build the layout where it is returned instead of copying it
/// there, and nothing is counted or checked per push on the way.
#[derive(Clone, Copy)]
pub(crate) struct Parts {
    /// The tokens, packed as in an inline `IntTuple` (two bits each, from
    /// bit 0; the bits above the `ntok` written are clear).
    pub(crate) tok: u64,
    pub(crate) shape: [i64; INLINE_VALS],
    pub(crate) stride: [i64; INLINE_VALS],
    /// The numbers of tokens and leaves written.
    pub(crate) ntok: usize,
    pub(crate) nval: usize,
}

impl Parts {
    #[inline(always)]
    pub(crate) fn new() -> Parts {
        Parts { tok: 0, shape: [0; INLINE_VALS], stride: [0; INLINE_VALS], ntok: 0, nval: 0 }
    }

    /// Appends a token; `None` when the inline room is full.
    #[inline(always)]
    pub(crate) fn tok(&mut self, t: Tok) -> Option<()> {
        self.tok_bits(t.code(), 1)
    }

    /// Appends `n` tokens packed in `bits` (the bits above them clear);
    /// `None` when they do not fit.
    #[inline(always)]
    pub(crate) fn tok_bits(&mut self, bits: u64, n: usize) -> Option<()> {
        if self.ntok + n > INLINE_TOKS {
            return None;
        }
        self.tok |= bits << (2 * self.ntok);
        self.ntok += n;
        Some(())
    }

    /// Appends a list of tokens; `None` when it does not fit.
    #[inline(always)]
    pub(crate) fn toks(&mut self, t: Toks<'_>) -> Option<()> {
        self.tok_bits(t.word()?, t.len())
    }

    /// Forgets what was written after the first `ntok` tokens and `nval`
    /// leaves.
    #[inline(always)]
    pub(crate) fn truncate(&mut self, ntok: usize, nval: usize) {
        self.tok &= tok_mask(ntok);
        (self.ntok, self.nval) = (ntok, nval);
    }

    /// The tokens written.
    #[inline(always)]
    pub(crate) fn tok_list(&self) -> Toks<'_> {
        Toks::packed(self.tok, self.ntok)
    }

    /// Starts a tuple.
    #[inline(always)]
    pub(crate) fn open(&mut self) -> Option<()> {
        self.tok(Tok::Open)
    }

    /// Ends the innermost open tuple.
    #[inline(always)]
    pub(crate) fn close(&mut self) -> Option<()> {
        self.tok(Tok::Close)
    }

    /// Appends a borrowed (sub)layout as one subtree: its tokens in one
    /// shift, its leaves one by one (they are a few: two block copies of
    /// variable length are two calls of `memcpy`, slower than the loop).
    #[inline(always)]
    pub(crate) fn push_view(&mut self, l: LayoutRef<'_>) -> Option<()> {
        let n = l.shape.len();
        if self.nval + n > INLINE_VALS || l.stride.len() != n {
            return None;
        }
        self.toks(l.tok)?;
        for (k, (s, d)) in l.pairs().enumerate() {
            (self.shape[self.nval + k], self.stride[self.nval + k]) = (s, d);
        }
        self.nval += n;
        Some(())
    }

    /// Appends what `p` holds (one subtree) as one mode, or with
    /// `top_modes` its top-level modes each as a mode (a tuple's children;
    /// a leaf, or a tuple of one mode, whole, as CuTe's `result(_,
    /// repeat<R>(_))` keeps a part of rank 1); `None` when it does not
    /// fit.
    #[inline(always)]
    pub(crate) fn append(&mut self, p: &Parts, top_modes: bool) -> Option<()> {
        let (toks, n) = (p.tok_list(), p.nval.min(INLINE_VALS));
        let toks = if top_modes && toks.first() == Some(Tok::Open) {
            // A tuple of two modes or more: its first mode ends before its
            // `)` (found without walking the rest).
            let inner = toks.slice(1, toks.len() - 1);
            let first = match inner.first() {
                Some(Tok::Leaf) => 1,
                Some(_) => crate::int_tuple::extent(inner).0,
                None => 0,
            };
            if first < inner.len() { inner } else { toks }
        } else {
            toks
        };
        self.toks(toks)?;
        for k in 0..n {
            self.leaf_vals((p.shape[k], p.stride[k]))?;
        }
        Some(())
    }

    /// Appends the values of one leaf, not its token: for callers that
    /// write the structure of several leaves at once.
    #[inline(always)]
    pub(crate) fn leaf_vals(&mut self, (s, d): (i64, i64)) -> Option<()> {
        let at = self.nval;
        (*self.shape.get_mut(at)?, *self.stride.get_mut(at)?) = (s, d);
        self.nval = at + 1;
        Some(())
    }

    /// The size and every offset fit in `i64`.
    #[inline(always)]
    pub(crate) fn fits(&self) -> bool {
        self.small() || extent(&self.shape[..self.nval.min(INLINE_VALS)], &self.stride[..self.nval.min(INLINE_VALS)]).is_some()
    }

    /// Every leaf has a shape in `0..2^7` and a stride in `-2^48..2^48`:
    /// then the leaves fit, whatever they are (a size below `2^(7·8)`,
    /// offsets below `8·2^7·2^48`), with no product or sum to check.
    ///
    /// A loop that stops at the first large leaf, which the compiler keeps
    /// scalar: an OR over all eight slots became 16-byte loads of leaves
    /// just written 8 bytes at a time, which wait for the stores to retire
    /// (a tenth of `blocked_product`'s time).
    #[inline(always)]
    fn small(&self) -> bool {
        let n = self.nval.min(INLINE_VALS);
        self.shape[..n]
            .iter()
            .zip(&self.stride[..n])
            .all(|(&s, &d)| (s as u64) < 1 << 7 && (d as u64).wrapping_add(1 << 48) < 1 << 49)
    }

    /// The layout of the first `ntok` tokens and `nval` leaves.
    #[inline(always)]
    pub(crate) fn into_layout(self) -> Layout {
        Layout {
            // The room is the inline room of a tuple: it always fits.
            shape: IntTuple::inline(self.tok, self.shape, self.nval),
            stride: IntTuple::inline(self.tok, self.stride, self.nval),
        }
    }
}

/// Builds a layout from flat modes: a scalar for one mode, `1:0` for none,
/// a flat tuple otherwise. Made in one expression (the structure from a
/// table, the leaves straight into their arrays), so that the compiler
/// writes it where it is returned rather than building and copying it.
#[inline(always)]
pub(crate) fn layout_from_modes(modes: &[(i64, i64)]) -> Layout {
    let n = modes.len();
    if n > INLINE_VALS {
        return layout_from_many_modes(modes);
    }
    if n == 0 {
        return layout_from_modes(&[(1, 0)]);
    }
    let (tok, _) = flat_toks(n);
    Layout {
        shape: IntTuple::inline(tok, std::array::from_fn(|k| modes.get(k).map_or(0, |m| m.0)), n),
        stride: IntTuple::inline(tok, std::array::from_fn(|k| modes.get(k).map_or(0, |m| m.1)), n),
    }
}

/// [`layout_from_modes`] for more modes than the inline room holds.
#[cold]
#[inline(never)]
fn layout_from_many_modes(modes: &[(i64, i64)]) -> Layout {
    let mut l = Layout::empty();
    l.open();
    for &(s, d) in modes {
        l.shape.leaf(s);
        l.stride.leaf(d);
    }
    l.close();
    l
}

/// The evaluation kernel: the integral coordinate `i` split over flat
/// `(shape, stride)` modes (`idx2crd` with the last mode unbounded, and
/// truncating division, as C++: the odd extension for negative `i`), then
/// the inner product with the strides. `CHECKED`: `None` on overflow;
/// otherwise the caller knows `i` is in bounds, where no offset overflows
/// (checked at construction), and the result is always `Some`.
#[inline(always)]
pub(crate) fn eval_kernel<const CHECKED: bool>(
    modes: impl ExactSizeIterator<Item = (i64, i64)>,
    mut i: i64,
) -> Option<i64> {
    let mut off = 0i64;
    let n = modes.len();
    for (k, (s, d)) in modes.enumerate() {
        let c = if k + 1 == n {
            i
        } else {
            let c = i % s;
            i /= s;
            c
        };
        off = if CHECKED { off.checked_add(c.checked_mul(d)?)? } else { off.wrapping_add(c.wrapping_mul(d)) };
    }
    Some(off)
}

/// [`eval_kernel`] in bounds, of flat modes.
#[inline]
pub(crate) fn eval_pairs(modes: impl ExactSizeIterator<Item = (i64, i64)>, i: i64) -> i64 {
    eval_kernel::<false>(modes, i).unwrap_or(0)
}

/// [`eval_kernel`] in bounds, of a layout given as its shape and stride leaves.
#[inline]
pub(crate) fn eval_vals(shape: &[i64], stride: &[i64], i: i64) -> i64 {
    eval_pairs(shape.iter().copied().zip(stride.iter().copied()), i)
}

/// [`eval_kernel`] on the extended domain, checked.
pub(crate) fn eval_modes_checked(modes: &[(i64, i64)], i: i64) -> Result<i64> {
    match eval_kernel::<true>(modes.iter().copied(), i) {
        Some(v) => Ok(v),
        None => Err(LayoutError::Overflow { operation: "layout evaluation" }),
    }
}

/// Concatenation: the layout whose modes are the given layouts
/// (`make_layout(L0, L1, ...)`, paper 3.1).
///
/// Post-conditions: `R` has one mode per input, mode `i` is `Li`, and
/// `R(c0, c1, ...) == L0(c0) + L1(c1) + ...`.
///
/// Errors: `Overflow` when the offsets of the modes added up do not fit in
/// an `i64` (each mode alone always fits).
///
/// ```
/// use cute_dynamic::{Layout, make_layout};
/// let a: Layout = "4:1".parse().unwrap();
/// let b: Layout = "(2,3):(4,8)".parse().unwrap();
/// assert_eq!(make_layout(&[a, b]).unwrap().to_string(), "(4,(2,3)):(1,(4,8))");
/// ```
pub fn make_layout(modes: &[Layout]) -> Result<Layout> {
    concat(modes)
}

/// [`make_layout`] of any layouts, owned or borrowed, without gathering
/// them into a list first (every move of a layout copies 144 bytes).
#[inline]
pub(crate) fn concat<L: std::borrow::Borrow<Layout>>(modes: impl IntoIterator<Item = L>) -> Result<Layout> {
    let mut c = Concat::new();
    for m in modes {
        c.push(m.borrow());
    }
    c.finish()
}

/// A concatenation built mode by mode, as the modes are made: the one
/// layout builder. It writes into [`Parts`] (the inline room of the result,
/// as the fast paths do) and moves to a growing layout only once a mode
/// does not fit there.
pub(crate) struct Concat {
    parts: Parts,
    /// Everything written so far, once the inline room is outgrown.
    grown: Option<Layout>,
}

impl Concat {
    #[inline]
    pub(crate) fn new() -> Concat {
        let mut parts = Parts::new();
        // The room is empty: the first token fits.
        let _ = parts.open();
        Concat { parts, grown: None }
    }

    /// Appends `m` as the next mode.
    #[inline]
    pub(crate) fn push(&mut self, m: &Layout) {
        if self.grown.is_none() {
            let (nt, nv) = (self.parts.ntok, self.parts.nval);
            if self.parts.push_view(m.view()).is_some() {
                return;
            }
            // Out of room part way: forget the part written.
            self.parts.truncate(nt, nv);
        }
        self.grow().push_layout(m);
    }

    /// The growing layout, holding what the inline room held (made once).
    #[cold]
    fn grow(&mut self) -> &mut Layout {
        let p = &self.parts;
        self.grown.get_or_insert_with(|| {
            // An unfinished tree (a tuple left open): pushed token by token.
            let tok = p.tok_list();
            let nv = p.nval.min(INLINE_VALS);
            let mut l = Layout::empty();
            l.shape.push_tree(Tree { tok, val: &p.shape[..nv] });
            l.stride.push_tree(Tree { tok, val: &p.stride[..nv] });
            l
        })
    }

    /// The layout of the modes pushed. Each is a layout (congruent, with
    /// positive extents); only their offsets added up may not fit.
    #[inline]
    pub(crate) fn finish(mut self) -> Result<Layout> {
        if self.grown.is_none() && self.parts.close().is_some() {
            if self.parts.fits() {
                return Ok(self.parts.into_layout());
            }
            return Err(self
                .parts
                .into_layout()
                .check_extent()
                .err()
                .unwrap_or(LayoutError::Overflow { operation: "layout extent" }));
        }
        let l = self.grow();
        l.close();
        l.check_extent()?;
        Ok(std::mem::replace(l, Layout::empty()))
    }
}

/// A borrowed layout or sub-layout: the structure shape and stride share
/// (they are congruent, so one token list serves both) and the two leaf
/// lists. Taking a mode is slicing: no layout is copied.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LayoutRef<'a> {
    pub(crate) tok: Toks<'a>,
    pub(crate) shape: &'a [i64],
    pub(crate) stride: &'a [i64],
}

impl<'a> LayoutRef<'a> {
    /// The `(shape, stride)` pairs of the leaves.
    #[inline]
    pub(crate) fn pairs(self) -> impl ExactSizeIterator<Item = (i64, i64)> + 'a {
        self.shape.iter().copied().zip(self.stride.iter().copied())
    }

    /// The top-level modes (a leaf is its own only mode).
    #[inline]
    pub(crate) fn modes(self) -> impl Iterator<Item = LayoutRef<'a>> {
        let stride = self.stride;
        let mut at = 0usize;
        Tree { tok: self.tok, val: self.shape }.children().map(move |t| {
            let n = t.val.len();
            let m = LayoutRef { tok: t.tok, shape: t.val, stride: stride.get(at..at + n).unwrap_or(&[]) };
            at += n;
            m
        })
    }

    /// [`LayoutRef::modes`] read from the one word of a structure of at
    /// most 32 tokens (every inline layout's, and any part of it): each
    /// mode a shift and a mask off that word, not a slice of a [`Toks`].
    /// `None` for a longer list.
    #[inline(always)]
    pub(crate) fn word_modes(self) -> Option<WordModes<'a>> {
        let w = self.tok.word()?;
        let leaf = w & 3 == Tok::Leaf.code();
        let (w, len) = if w & 3 == Tok::Open.code() && self.tok.len() >= 2 {
            // A tuple's modes are the tokens inside its parentheses.
            (w >> 2 & tok_mask(self.tok.len() - 2), self.tok.len() - 2)
        } else {
            (w, self.tok.len())
        };
        Some(WordModes { w, len, shape: self.shape, stride: self.stride, leaf })
    }

    /// The leaves, without the structure.
    #[inline(always)]
    pub(crate) fn leaves(self) -> Leaves<'a> {
        Leaves { shape: self.shape, stride: self.stride }
    }

    /// The size, `None` on overflow.
    #[inline]
    pub(crate) fn size(self) -> Option<i64> {
        match *self.shape {
            // A mode of one or two leaves (most) without the loop.
            [s] => Some(s),
            [s, t] => s.checked_mul(t),
            _ => self.shape.iter().try_fold(1i64, |a, &v| a.checked_mul(v)),
        }
    }
}

/// The top-level modes of a layout, from a word of tokens
/// ([`LayoutRef::word_modes`]).
pub(crate) struct WordModes<'a> {
    /// The tokens not yet taken, the next at the bottom (none above them),
    /// and their number.
    w: u64,
    len: usize,
    shape: &'a [i64],
    stride: &'a [i64],
    /// The layout is a single leaf (its own one mode).
    pub(crate) leaf: bool,
}

impl<'a> Iterator for WordModes<'a> {
    type Item = LayoutRef<'a>;
    #[inline(always)]
    fn next(&mut self) -> Option<LayoutRef<'a>> {
        if self.len == 0 {
            return None;
        }
        let (nt, nv) = if self.w & 3 == Tok::Leaf.code() {
            (1, 1)
        } else {
            // (`w` has nothing above its tokens: the mask test straight on
            // it, the walk otherwise.)
            crate::int_tuple::flat_tuple_extent(self.w)
                .unwrap_or_else(|| crate::int_tuple::extent(Toks::packed(self.w, self.len)))
        };
        let nt = nt.clamp(1, self.len);
        let (shape, shape_rest) = self.shape.split_at_checked(nv)?;
        let (stride, stride_rest) = self.stride.split_at_checked(nv)?;
        // The modes after stay above this one's tokens: never read.
        let tok = Toks::head(self.w, nt);
        // (`nt` may be 32: a shift by 64 is no shift.)
        self.w = (self.w >> (2 * nt - 1)) >> 1;
        self.len -= nt;
        (self.shape, self.stride) = (shape_rest, stride_rest);
        Some(LayoutRef { tok, shape, stride })
    }
}

impl Layout {
    /// The leaves, as shapes and strides (what a flat layout is).
    #[inline(always)]
    pub(crate) fn leaves(&self) -> Leaves<'_> {
        Leaves { shape: self.shape.vals(), stride: self.stride.vals() }
    }

    /// The layout as a borrowed [`LayoutRef`].
    #[inline]
    pub(crate) fn view(&self) -> LayoutRef<'_> {
        LayoutRef { tok: self.shape.toks(), shape: self.shape.vals(), stride: self.stride.vals() }
    }
}

/// The leaves of a layout, without its structure: its shapes and strides.
#[derive(Clone, Copy)]
pub(crate) struct Leaves<'a> {
    pub(crate) shape: &'a [i64],
    pub(crate) stride: &'a [i64],
}

impl Leaves<'_> {
    /// The number of leaves.
    #[inline(always)]
    pub(crate) fn len(self) -> usize {
        self.shape.len()
    }

    /// The largest and the smallest offset (each fits when the leaves are
    /// a layout's: its extent is checked when it is made; their difference
    /// may not).
    #[inline(always)]
    pub(crate) fn span(self) -> (i64, i64) {
        let (mut hi, mut lo) = (0i64, 0i64);
        for (&s, &d) in self.shape.iter().zip(self.stride) {
            hi += (s - 1) * d.max(0);
            lo += (s - 1) * d.min(0);
        }
        (hi, lo)
    }

    /// The leaf at `k` (after the last, `1:0`: what the rank-sensitive
    /// operations pad a shorter layout with).
    #[inline(always)]
    pub(crate) fn leaf_or_pad(self, k: usize) -> (i64, i64) {
        match (self.shape.get(k), self.stride.get(k)) {
            (Some(&s), Some(&d)) => (s, d),
            _ => (1, 0),
        }
    }
}

/// Small layouts of every kind, for the tests that check a fast path
/// against the general one: scalar, flat and nested, with strides of both
/// signs, 0, and sizes of 1.
#[cfg(test)]
pub(crate) fn small_layouts() -> Vec<Layout> {
    let shapes =
        ["1", "2", "3", "4", "6", "(2,2)", "(2,3)", "(3,2)", "(1,4)", "(4,1)", "(2,(2,2))", "((2,3),2)", "(2,2,2)"];
    let strides = [0i64, 1, 2, 3, 4, 6, 8, 12, -1, -2];
    let mut out = Vec::new();
    for s in shapes {
        let shape: IntTuple = s.parse().unwrap_or_else(|e| panic!("{e}"));
        // A few stride assignments per shape: compact, then strides drawn
        // from the list by a walk that covers each value in several places.
        let mut cands = vec![Layout::column_major(&shape).unwrap_or_else(|e| panic!("{e}"))];
        for seed in 0..12usize {
            let mut stride = shape.clone();
            for (k, v) in stride.vals_mut().iter_mut().enumerate() {
                *v = strides[(seed * 7 + k * (seed + 3)) % strides.len()];
            }
            if let Ok(l) = Layout::new(shape.clone(), stride) {
                cands.push(l);
            }
        }
        out.extend(cands);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The builder gives the layout whose modes are the inputs, whether it
    /// stays in the inline room or outgrows it part way through a mode, and
    /// names an overflow as `Layout::new` does for the same trees.
    #[test]
    fn concat_matches_the_tree_built_tuple_by_tuple() {
        let ls = small_layouts();
        for start in 0..ls.len() {
            for len in [0usize, 1, 2, 3, 5, 8, 11, 16] {
                let modes: Vec<&Layout> = ls.iter().cycle().skip(start * 7).take(len).collect();
                let expected = Layout::new(
                    IntTuple::tuple(modes.iter().map(|m| m.shape().clone())),
                    IntTuple::tuple(modes.iter().map(|m| m.stride().clone())),
                );
                assert_eq!(concat(modes.iter().copied()), expected, "{modes:?}");
            }
        }
        let big: Layout = "(2,2):(4611686018427387904,1)".parse().unwrap_or_else(|e| panic!("{e}"));
        let wide: Layout = "(4,4,4,4,4,4,4,4,4):(1,4,16,64,256,1024,4096,16384,65536)".parse().unwrap();
        for modes in [vec![&big, &big], vec![&wide, &big, &big], vec![&wide, &wide, &wide, &wide]] {
            let expected = Layout::new(
                IntTuple::tuple(modes.iter().map(|m| m.shape().clone())),
                IntTuple::tuple(modes.iter().map(|m| m.stride().clone())),
            );
            assert!(expected.is_err(), "{modes:?}");
            assert_eq!(concat(modes.iter().copied()), expected, "{modes:?}");
        }
    }
}
