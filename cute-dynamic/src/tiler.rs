//! `Tiler`: what the by-mode operations take as their second argument.

use crate::error::Result;
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// A tiler (CuTe docs, "composition with tilers"): a layout, or a tuple of
/// tilers applied mode by mode. A shape is a tiler too: each integer `n`
/// stands for the layout `n:1` ([`Tiler::from_shape`]).
///
/// Text form: `<3:3,(2,4):(1,8)>`; a shape `(3,8)` reads as `<3:1,8:1>`.
///
/// ```
/// use cute_dynamic::Tiler;
/// let t: Tiler = "<3:3, (2,4):(1,8)>".parse().unwrap();
/// assert_eq!(t.to_string(), "<3:3,(2,4):(1,8)>");
/// let s: Tiler = "(3,8)".parse().unwrap();
/// assert_eq!(s.to_string(), "<3:1,8:1>");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Tiler {
    /// A layout, applied to the whole (sub)layout as a 1-D function.
    Layout(Layout),
    /// One tiler per mode.
    Tuple(Vec<Tiler>),
}

impl Tiler {
    /// The tiler of a shape: an integer `n` is the layout `n:1`, a tuple is a
    /// tuple of tilers. Errors if an extent is below 1.
    pub fn from_shape(shape: &IntTuple) -> Result<Tiler> {
        match shape.as_int() {
            Some(n) => Ok(Tiler::Layout(Layout::scalar(n, 1)?)),
            None => shape.modes().map(|m| Tiler::from_shape(&m)).collect::<Result<Vec<_>>>().map(Tiler::Tuple),
        }
    }

    /// Number of top-level tiles (1 for a layout).
    pub fn rank(&self) -> usize {
        match self {
            Tiler::Layout(_) => 1,
            Tiler::Tuple(ts) => ts.len(),
        }
    }
}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Self {
        Tiler::Layout(l)
    }
}
