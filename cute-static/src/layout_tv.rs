//! Thread-value layouts in trait resolution: `make_layout_tv` (mirrors
//! cute-dynamic's `layout_tv.rs`).

use crate::composition::Compose;
use crate::detail::SizeOf;
use crate::inverse::StaticRightInverse as RightInverse;
use crate::layout::{Layout, StaticLayout};
use crate::product::RakedProduct;
use typenum::{Prod, U1};

type Mn<T, V> = <T as RakedProduct<V>>::Output;
type Inverse<T, V> = <Mn<T, V> as RightInverse>::Output;
type Size<L> = <L as SizeOf>::Size;
/// `(size(thr), size(val))`, compact column-major.
type TvShape<T, V> = Layout<(Size<T>, Size<V>), (U1, Size<T>)>;

/// CuTe's thread-value layout of a thread layout `Self` and a value layout
/// `Val`, as cute-dynamic's `make_layout_tv`: `layout_mn =
/// raked_product(Self, Val)`, `Tv = right_inverse(layout_mn)` read with the
/// shape `(size(Self), size(Val))`, `Tiler` the size of each mode of
/// `layout_mn`. Implemented for rank-2 products (2-D thread and value
/// layouts, CuTe's usual case).
///
/// The right inverse must reach every thread-value index: a thread layout
/// that does not tile (two threads on one offset, or holes) has no
/// implementation (the bound `SizeOf<Size = size(thr)·size(val)>` fails).
///
/// ```
/// use cute_static::prelude::*;
/// fn tv<Thr: MakeLayoutTv<Val>, Val>(thr: Thr, val: Val) -> Thr::Tv
/// where
///     Thr::Tv: StaticLayout,
///     Thr::Tiler: Default,
/// {
///     make_layout_tv(thr, val).0
/// }
/// // 2×2 threads (row-major), each holding a 2×2 block of the 4×4 tile.
/// let (thr, val) = (layout!((2,2):(2,1)), layout!((2,2):(1,2)));
/// let l = tv(thr, val);
/// assert_eq!(l.to_string(), "((_2,_2),(_2,_2)):((_8,_2),(_1,_4))");
/// // Tv(t, v) is the point of the tile that raked_product(thr, val) maps to t + 4·v.
/// let mn = raked_product(thr, val);
/// assert!((0..4).all(|t| (0..4).all(|v| mn.index(l.index((t, v))) == t + 4 * v)));
/// ```
pub trait MakeLayoutTv<Val> {
    /// `(t, v) → m + M·n`.
    type Tv;
    /// `(M, N)`, a shape.
    type Tiler;
}

impl<Thr, Val> MakeLayoutTv<Val> for Thr
where
    Thr: RakedProduct<Val> + SizeOf,
    Val: SizeOf,
    Size<Thr>: core::ops::Mul<Size<Val>>,
    Mn<Thr, Val>: RightInverse + ModeSizes,
    Inverse<Thr, Val>: SizeOf<Size = Prod<Size<Thr>, Size<Val>>> + Compose<TvShape<Thr, Val>>,
{
    type Tv = <Inverse<Thr, Val> as Compose<TvShape<Thr, Val>>>::Output;
    type Tiler = <Mn<Thr, Val> as ModeSizes>::Output;
}

/// The size of each mode of a rank-2 layout, as a shape `(M, N)`.
#[doc(hidden)]
pub trait ModeSizes {
    /// `(size(L_0), size(L_1))`.
    type Output;
}
impl<S0, S1, D0, D1> ModeSizes for Layout<(S0, S1), (D0, D1)>
where
    Layout<S0, D0>: SizeOf,
    Layout<S1, D1>: SizeOf,
{
    type Output = (Size<Layout<S0, D0>>, Size<Layout<S1, D1>>);
}

/// `make_layout_tv(thr, val)`: the thread-value layout and the tile's shape
/// (see [`MakeLayoutTv`]), computed in trait resolution.
///
/// ```
/// use cute_static::prelude::*;
/// let (tv, tiler) = make_layout_tv(layout!((2,3):(3,1)), layout!((2,2):(2,1)));
/// assert_eq!(tv.to_string(), "((_3,_2),(_2,_2)):((_8,_2),(_4,_1))");
/// assert_eq!(tiler.to_string_cute(), "(_4,_6)");
/// ```
#[inline(always)]
pub fn make_layout_tv<Thr, Val>(thr: Thr, val: Val) -> (Thr::Tv, Thr::Tiler)
where
    Thr: MakeLayoutTv<Val>,
    Thr::Tv: StaticLayout,
    Thr::Tiler: Default,
{
    let _ = (thr, val);
    Default::default()
}
