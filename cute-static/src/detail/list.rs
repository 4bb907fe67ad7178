//! Type-level lists on which the algebra runs, and their conversions from
//! and to the user-facing tuple trees.
//!
//! * `MCons<S, D, T>` / `MNil`: a list of flat modes `s:d` (typenum leaves),
//!   what a layout flattens to.
//! * `HCons<H, T>` / `HNil`: a list of arbitrary types (layouts, tiles).
//!
//! These are types only, never values. They are public because they appear
//! in the bounds of the algebra's traits, but users never need to name them.

use crate::layout::Layout;
use core::marker::PhantomData;
use typenum::{B1, Prod, Sub1, Sum, U0, U1, UInt};

/// The empty mode list.
pub struct MNil;
/// A flat mode `S:D` followed by the modes `T`.
pub struct MCons<S, D, T>(PhantomData<(S, D, T)>);

/// The empty type list.
pub struct HNil;
/// A type `H` followed by the list `T`.
pub struct HCons<H, T>(PhantomData<(H, T)>);

/// Flattens a (shape, stride) tree pair onto the front of the mode list
/// `Acc`, leaves in order.
pub trait FlattenInto<D, Acc> {
    /// The modes of this tree followed by `Acc`.
    type Output;
}

impl<U, B, D, Acc> FlattenInto<D, Acc> for UInt<U, B> {
    type Output = MCons<UInt<U, B>, D, Acc>;
}

impl<D, Acc> FlattenInto<D, Acc> for crate::Dyn {
    type Output = MCons<crate::Dyn, D, Acc>;
}

/// The flat modes of a layout.
pub type FlatModes<S, D> = <S as FlattenInto<D, MNil>>::Output;

// The accumulator of mode 0 is the fold of the modes after it.
macro_rules! flatten_into_tuple {
    ($i:tt $T:ident $S:ident $D:ident) => {
        impl<$S, $D, Acc> FlattenInto<($D,), Acc> for ($S,)
        where
            $S: FlattenInto<$D, Acc>,
        {
            type Output = <$S as FlattenInto<$D, Acc>>::Output;
        }
    };
    ($i0:tt $T0:ident $S0:ident $D0:ident, $($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$S0, $D0, $($S, $D,)+ Acc> FlattenInto<($D0, $($D,)+), Acc> for ($S0, $($S,)+)
        where
            ($($S,)+): FlattenInto<($($D,)+), Acc>,
            $S0: FlattenInto<$D0, <($($S,)+) as FlattenInto<($($D,)+), Acc>>::Output>,
        {
            type Output = <$S0 as FlattenInto<$D0, <($($S,)+) as FlattenInto<($($D,)+), Acc>>::Output>>::Output;
        }
    };
}
for_each_tuple!(flatten_into_tuple);

/// A mode list as a layout, as cute-dynamic's `layout_from_modes`: no
/// modes is `1:0`, one mode the scalar layout `s:d`, more a flat tuple.
pub trait ModesToLayout {
    /// The shape tree.
    type Shape;
    /// The stride tree.
    type Stride;
}

/// The layout of a mode list.
pub type LayoutOfModes<M> = Layout<<M as ModesToLayout>::Shape, <M as ModesToLayout>::Stride>;

impl ModesToLayout for MNil {
    type Shape = U1;
    type Stride = U0;
}
impl<S, D> ModesToLayout for MCons<S, D, MNil> {
    type Shape = S;
    type Stride = D;
}
macro_rules! modes_to_layout {
    (@list $S:ident $D:ident $($rest:ident)*) => { MCons<$S, $D, modes_to_layout!(@list $($rest)*)> };
    (@list) => { MNil };
    // One mode is the scalar layout (above).
    ($i:tt $T:ident $S:ident $D:ident) => {};
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($S, $D),+> ModesToLayout for modes_to_layout!(@list $($S $D)+) {
            type Shape = ($($S,)+);
            type Stride = ($($D,)+);
        }
    };
}
for_each_tuple!(modes_to_layout);

/// The top-level modes of a layout as a list of layouts (a scalar layout
/// is its own single mode).
pub trait ModesOf {
    /// `HCons<Layout<S0, D0>, ...>`.
    type Output;
}

impl<U, B, D> ModesOf for Layout<UInt<U, B>, D> {
    type Output = HCons<Layout<UInt<U, B>, D>, HNil>;
}
impl<D> ModesOf for Layout<crate::Dyn, D> {
    type Output = HCons<Layout<crate::Dyn, D>, HNil>;
}
macro_rules! modes_of {
    (@list $S:ident $D:ident $($rest:ident)*) => { HCons<Layout<$S, $D>, modes_of!(@list $($rest)*)> };
    (@list) => { HNil };
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<$($S, $D),+> ModesOf for Layout<($($S,)+), ($($D,)+)> {
            type Output = modes_of!(@list $($S $D)+);
        }
        impl<$($S, $D),+> MakeLayout for modes_of!(@list $($S $D)+) {
            type Output = Layout<($($S,)+), ($($D,)+)>;
        }
    };
}

/// A list of layouts as the layout whose modes they are (CuTe's
/// `make_layout(L0, L1, ...)`): always a tuple, `(L0)` for one.
pub trait MakeLayout {
    /// The layout.
    type Output;
}

for_each_tuple!(modes_of);

/// List concatenation.
pub trait Append<L2> {
    /// `Self ++ L2`.
    type Output;
}
impl<L2> Append<L2> for HNil {
    type Output = L2;
}
impl<H, T: Append<L2>, L2> Append<L2> for HCons<H, T> {
    type Output = HCons<H, <T as Append<L2>>::Output>;
}

/// The product of the shapes of a mode list.
pub trait ModeSize {
    /// `Π s`.
    type Size;
}
impl ModeSize for MNil {
    type Size = U1;
}
impl<S, D, T: ModeSize> ModeSize for MCons<S, D, T>
where
    S: core::ops::Mul<<T as ModeSize>::Size>,
{
    type Size = Prod<S, <T as ModeSize>::Size>;
}

/// `Σ (s − 1)·d` of a mode list (its cosize minus one).
pub trait ModeSpan {
    /// `Σ (s − 1)·d`.
    type Span;
}
impl ModeSpan for MNil {
    type Span = U0;
}
impl<S, D, T: ModeSpan> ModeSpan for MCons<S, D, T>
where
    S: core::ops::Sub<B1>,
    Sub1<S>: core::ops::Mul<D>,
    Prod<Sub1<S>, D>: core::ops::Add<<T as ModeSpan>::Span>,
{
    type Span = Sum<Prod<Sub1<S>, D>, <T as ModeSpan>::Span>;
}
