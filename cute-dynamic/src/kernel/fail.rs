//! Why a kernel failed, as numbers.

/// Why a kernel failed, without the text that names the operands: the hot
/// path records the numbers, the caller writes the message on its cold path
/// (`Fail::into_error`, with the `std` feature).
///
/// ```
/// use cute_dynamic::LayoutError;
/// use cute_dynamic::kernel::{Fail, complement_coalesced};
/// // (2,3):(3,2) sorted by stride: 3:2 reaches 6, past the start 3 of 2:3.
/// let mut out = [(0, 0); 3];
/// let fail = complement_coalesced([(2, 3), (3, 2)].into_iter(), 12, &mut out).unwrap_err();
/// assert_eq!(fail, Fail::Interleaved { stride: 3, extent: 6 });
/// // The caller names the layout only when it writes the message.
/// let e = fail.into_error(&|| "(2,3):(3,2)".into());
/// assert_eq!(e, LayoutError::NotComplementable { layout: "(2,3):(3,2)".into(), stride: 3, extent: 6 });
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fail {
    /// Stride divisibility (paper 3.3.3): a mode of shape `shape` and the
    /// stride `stride` walking it, neither dividing the other.
    Stride {
        /// The mode's shape.
        shape: i64,
        /// The stride that walks it.
        stride: i64,
    },
    /// Shape divisibility (paper 3.3.3): `fits` steps of a mode of shape
    /// `shape` do not divide the `rest` steps left.
    Shape {
        /// The mode's shape.
        shape: i64,
        /// The steps the mode holds.
        fits: i64,
        /// The steps left to place.
        rest: i64,
    },
    /// The leaves' offsets add up to `reach` in a mode of shape `shape`:
    /// composing leaf by leaf is not the composition.
    NotDistributive {
        /// The mode's shape.
        shape: i64,
        /// How far the leaves reach into it.
        reach: i64,
    },
    /// Strides of both signs over a left layout of several modes.
    MixedSigns,
    /// A negative stride where the kernel's caller takes only a left layout
    /// of one linear mode.
    NegativeStride,
    /// An `i64` overflow in the named operation.
    Overflow(&'static str),
    /// Complement with a cotarget below 1 (the message's context names the
    /// layout).
    CotargetBelowOne {
        /// The cotarget.
        cotarget: i64,
    },
    /// Complement of a layout with a negative stride: no ordered layout
    /// fills its holes (the message's context names the layout).
    NoOrderedComplement,
    /// Complement of a layout whose modes, sorted by stride, interleave: a
    /// mode of stride `stride` starts inside the extent `extent` of the
    /// previous one (the message's context names the layout). The layout
    /// is either not injective or not complementable; only a caller that
    /// has its modes can tell which (`into_error` says not complementable).
    Interleaved {
        /// The stride of the mode that starts inside the previous one.
        stride: i64,
        /// The extent (`shape·stride`) of the previous mode.
        extent: i64,
    },
    /// The result has more modes than the room given for it (`limit`, when
    /// the caller's room is a fixed bound it names).
    Room {
        /// The caller's bound on modes, if it has one to name.
        limit: Option<usize>,
    },
}

impl Fail {
    /// [`Fail::Room`] of a list with no bound to name: a fast path that
    /// hands over to one with larger lists.
    pub const ROOM: Fail = Fail::Room { limit: None };
}
