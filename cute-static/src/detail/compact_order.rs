//! CuTe's `compact_order`: compact strides for a shape that follow the
//! order of another layout's strides (what `make_fragment_like` and
//! `make_tensor_like` build their layouts with: `FragmentOrder` and
//! `LayoutLikeOrder` in `tensor.rs`).
//!
//! No sort: a leaf's compact stride is the product of the extents of
//! the leaves ordered before it. Leaves are ordered by their
//! source stride: static strides by value, then every run-time stride (CuTe
//! counts those as larger than any static one, left to right); equal
//! strides by position, the leaf on the left first. (CuTe gives equal
//! strides the same compact stride, so that `(4,2,2):(1,8,8)` makes a
//! fragment whose last two modes overlap; ordered by position, every
//! result here is a bijection onto its storage.)
//!
//! A leaf of stride 0 (a broadcast) is ordered first, and gets a stride of
//! its own: CuTe keeps static strides of 0 (its `filter_zeros`), so that
//! the coordinates of a broadcast share one element, and a write through
//! one of them overwrites the others (a predicated copy into such a
//! fragment keeps the last value written, not each coordinate's). A leaf of
//! extent 1 gets stride 0, as in every compact layout CuTe makes.

use crate::detail::{MCons, MNil};
use crate::int_tuple::Dyn;
use typenum::{B0, B1, Compare, Equal, Greater, Less, Minimum, Prod, Sub1, U1, UInt, UTerm, Unsigned};

/// The order of two source strides: typenum's on static strides; a
/// run-time stride after every static one; two run-time strides tie.
pub trait OrderCmp<R> {
    /// `Less`, `Equal` or `Greater`.
    type Output;
}
impl<L: Unsigned + typenum::Cmp<R>, R: Unsigned> OrderCmp<R> for L {
    type Output = Compare<L, R>;
}
impl OrderCmp<Dyn> for Dyn {
    type Output = Equal;
}
impl OrderCmp<Dyn> for UTerm {
    type Output = Less;
}
impl<U, B> OrderCmp<Dyn> for UInt<U, B> {
    type Output = Less;
}
impl OrderCmp<UTerm> for Dyn {
    type Output = Greater;
}
impl<U, B> OrderCmp<UInt<U, B>> for Dyn {
    type Output = Greater;
}

/// Which leaves a weight counts: those ordered strictly before
/// ([`Less`]) or those that tie ([`Equal`]).
pub trait Counts<Which> {
    /// `B1` when a leaf of this order counts.
    type Output;
}
impl Counts<Less> for Less {
    type Output = B1;
}
impl Counts<Less> for Equal {
    type Output = B0;
}
impl Counts<Less> for Greater {
    type Output = B0;
}
impl Counts<Equal> for Less {
    type Output = B0;
}
impl Counts<Equal> for Equal {
    type Output = B1;
}
impl Counts<Equal> for Greater {
    type Output = B0;
}

/// `S` when `B1`, 1 when `B0`.
pub trait IfCounts<S> {
    /// The factor.
    type Output;
}
impl<S> IfCounts<S> for B1 {
    type Output = S;
}
impl<S> IfCounts<S> for B0 {
    type Output = U1;
}

/// `Π s_j` over the modes `s_j:d_j` of the list whose stride `d_j` compares
/// to `D` as `Which` ([`OrderCmp`]).
pub trait Weight<D, Which> {
    /// The product.
    type Output;
}
impl<D, Which> Weight<D, Which> for MNil {
    type Output = U1;
}
type Factor<S, Dj, D, Which> = <<<Dj as OrderCmp<D>>::Output as Counts<Which>>::Output as IfCounts<S>>::Output;
impl<S, Dj, T, D, Which> Weight<D, Which> for MCons<S, Dj, T>
where
    Dj: OrderCmp<D>,
    <Dj as OrderCmp<D>>::Output: Counts<Which>,
    <<Dj as OrderCmp<D>>::Output as Counts<Which>>::Output: IfCounts<S>,
    T: Weight<D, Which>,
    Factor<S, Dj, D, Which>: core::ops::Mul<<T as Weight<D, Which>>::Output>,
{
    type Output = Prod<Factor<S, Dj, D, Which>, <T as Weight<D, Which>>::Output>;
}

/// What an ordered walk knows of the whole: the modes `All` of the leaves
/// it orders and the weight `C0` every stride is scaled by.
pub struct Ctx<All, C0>(core::marker::PhantomData<(All, C0)>);

/// The compact strides of the shape tree `Self` (source strides `D`) in
/// the order of `D` ([`OrderCmp`], ties by position): each leaf's stride is
/// `C0` times the extents of `All` ordered strictly before it times those
/// of the earlier leaves `Before` that tie with it; 0 for an extent of 1.
/// `Before` is the list of the leaves walked so far.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static shape: a fragment or an owned tensor needs every extent static (its storage is sized by its type)",
    label = "a shape with a run-time extent",
    note = "make every extent of the shape a number; a run-time extent is a `Dyn` leaf"
)]
pub trait OrderedCol<D, Cx, Before> {
    /// The stride tree.
    type Stride;
    /// `Before` with this tree's leaves.
    type Before;
}

/// The stride of one leaf (see [`OrderedCol`]).
type LeafStride<E, D, All, C0, Before> =
    Prod<Prod<Prod<C0, <All as Weight<D, Less>>::Output>, <Before as Weight<D, Equal>>::Output>, Minimum<Sub1<E>, U1>>;

impl<U, B, D, All, C0, Before> OrderedCol<D, Ctx<All, C0>, Before> for UInt<U, B>
where
    All: Weight<D, Less>,
    Before: Weight<D, Equal>,
    C0: core::ops::Mul<<All as Weight<D, Less>>::Output>,
    Prod<C0, <All as Weight<D, Less>>::Output>: core::ops::Mul<<Before as Weight<D, Equal>>::Output>,
    UInt<U, B>: core::ops::Sub<B1>,
    Sub1<UInt<U, B>>: typenum::Min<U1>,
    Prod<Prod<C0, <All as Weight<D, Less>>::Output>, <Before as Weight<D, Equal>>::Output>:
        core::ops::Mul<Minimum<Sub1<UInt<U, B>>, U1>>,
{
    type Stride = LeafStride<UInt<U, B>, D, All, C0, Before>;
    type Before = MCons<UInt<U, B>, D, Before>;
}

// Position `i` walks with the leaves before it: the tuple's `Before`
// chained from one position to the next, the tuple's own the last one's.
macro_rules! ordered_col_tuple {
    ($($i:tt $A:ident $S:ident $D:ident $E:ident),+) => {
        ordered_col_tuple!(@chain [] Before; $($A $D $E)+);
    };
    (@chain [$($done:tt)*] $prev:ident; $A:ident $D:ident $E:ident $($rest:ident)*) => {
        ordered_col_tuple!(@chain [$($done)* ($A $D $prev $E)] $E; $($rest)*);
    };
    (@chain [$(($A:ident $D:ident $P:ident $E:ident))+] $last:ident;) => {
        impl<Cx, Before, $($A, $D, $E),+> OrderedCol<($($D,)+), Cx, Before> for ($($A,)+)
        where
            $($A: OrderedCol<$D, Cx, $P, Before = $E>,)+
        {
            type Stride = ($(<$A as OrderedCol<$D, Cx, $P>>::Stride,)+);
            type Before = $last;
        }
    };
}
for_each_tuple!(wide ordered_col_tuple);
