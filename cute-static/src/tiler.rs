//! Static tilers: tuples of layouts applied mode by mode (paper def. 3.1).

use crate::int_tuple::IntTuple;
use crate::layout::{Congruent, Layout};
use core::fmt;

/// One element of a static tiler: a layout, or a Rust tuple of tiles (a
/// nested tiler). An integer tile `n` is written as the layout `n:1`, and
/// `1` as `1:0` (CuTe's `make_layout` of a static integer: its compact
/// stride, 0 on an extent of 1).
///
/// Post-condition: `to_dynamic` is the equal `cute_dynamic::Tiler`, and
/// `fmt_tile` prints it as `cute-dynamic` does with static markers.
///
/// ```
/// use cute_static::prelude::*;
/// let t = tile!(3:3, (2,4));
/// assert_eq!(t.to_string(), "<_3:_3,<_2:_1,_4:_1>>");
/// assert_eq!(tile!(4, 1).to_string(), "<_4:_1,_1:_0>");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tile",
    label = "expected a layout or a tuple of tiles",
    note = "a tiler is written `tile!(3:3, (2,4):(1,8), 4)`: layouts, integers and shapes"
)]
pub trait Tile: Copy + 'static {
    /// Number of top-level tiles (1 for a layout).
    const RANK: usize;
    /// Prints the tile (`_3:_3`, or `<...>` for a tuple).
    ///
    /// ```
    /// use core::fmt;
    /// use cute_static::prelude::*;
    /// struct Shown<T>(T);
    /// impl<T: Tile> fmt::Display for Shown<T> {
    ///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    ///         self.0.fmt_tile(f)
    ///     }
    /// }
    /// assert_eq!(Shown(layout!(3:3)).to_string(), "_3:_3");
    /// assert_eq!(Shown((layout!(3:3), (layout!(2:1), layout!(4:1)))).to_string(), "<_3:_3,<_2:_1,_4:_1>>");
    /// ```
    fn fmt_tile(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// The equal run-time tiler (with the default `std` feature).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// use cute_dynamic::Tiler as DynTiler;
    /// let t = (layout!(3:3), layout!((2,4):(1,8)));
    /// assert_eq!(Tile::to_dynamic(&t), "<3:3,(2,4):(1,8)>".parse::<DynTiler>().unwrap());
    /// assert_eq!(Tile::to_dynamic(&layout!(4:2)), DynTiler::Layout("4:2".parse().unwrap()));
    /// ```
    #[cfg(feature = "std")]
    fn to_dynamic(&self) -> cute_dynamic::Tiler;
}

impl<S: Congruent<D> + 'static, D: IntTuple + 'static> Tile for Layout<S, D> {
    const RANK: usize = 1;
    fn fmt_tile(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
    #[cfg(feature = "std")]
    fn to_dynamic(&self) -> cute_dynamic::Tiler {
        cute_dynamic::Tiler::Layout(Layout::to_dynamic(self))
    }
}

macro_rules! tuple_tile {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($T: Tile),+> Tile for ($($T,)+) {
            const RANK: usize = [$($i),+].len();
            fn fmt_tile(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("<")?;
                let mut first = true;
                $(
                    if !first { f.write_str(",")?; }
                    first = false;
                    self.$i.fmt_tile(f)?;
                )+
                let _ = first;
                f.write_str(">")
            }
            #[cfg(feature = "std")]
            fn to_dynamic(&self) -> cute_dynamic::Tiler {
                cute_dynamic::Tiler::Tuple(vec![$( self.$i.to_dynamic() ),+])
            }
        }
    };
}

for_each_tuple!(tuple_tile);

/// A static tiler `<T0, T1, ...>`: a tuple of tiles, each applied to the
/// corresponding mode of a layout. Written with `tile!`.
///
/// ```
/// use cute_static::prelude::*;
/// let t = tile!(3:3, (2,4):(1,8));
/// assert_eq!(t.to_string(), "<_3:_3,(_2,_4):(_1,_8)>");
/// let d: cute_dynamic::Tiler = "<3:3,(2,4):(1,8)>".parse().unwrap();
/// assert_eq!(t.to_dynamic(), d);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Tiler<T>(pub T);

impl<T: Tile> Tiler<T> {
    /// The tiler of these tiles.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let t = Tiler::new((layout!(4:1),));
    /// assert_eq!(t.to_string(), "<_4:_1>");
    /// ```
    #[inline(always)]
    pub const fn new(tiles: T) -> Self {
        Tiler(tiles)
    }

    /// The tiles.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let (a, _b) = tile!(3:3, 4).tiles();
    /// assert_eq!(a.to_string(), "_3:_3");
    /// ```
    #[inline(always)]
    pub fn tiles(&self) -> T {
        self.0
    }

    /// The equal run-time tiler.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(tile!(4, 8).to_dynamic().to_string(), "<4:1,8:1>");
    /// ```
    #[cfg(feature = "std")]
    pub fn to_dynamic(&self) -> cute_dynamic::Tiler {
        self.0.to_dynamic()
    }
}

impl<T: Tile> fmt::Display for Tiler<T> {
    /// `<_3:_3,(_2,_4):(_1,_8)>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt_tile(f)
    }
}
