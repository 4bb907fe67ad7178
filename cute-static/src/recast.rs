//! Recasting a tensor: the same bytes viewed as elements of another type
//! (CuTe's `recast<T>(tensor)`), with cute-dynamic's rule
//! ([`cute_dynamic::recast_layout`]: `upcast` when the new element is a
//! multiple of the old one, `downcast` when it divides it, both through
//! their ratio otherwise; every condition checked).
//!
//! The result's layout type is the caller's: any layout type with the
//! recast layout's tree whose static leaves equal the recast values
//! (static leaves for a static result, [`Dyn`](crate::Dyn) where a value is
//! only known at run time). The recast itself runs once, when the view is
//! made, on the layout's values (cute-dynamic's code, so both crates agree
//! by construction); element access through the result is as fast as
//! through any tensor of that layout type.

use crate::int_tuple::IntTuple;
use crate::layout::{Congruent, Layout};
use crate::partition::traits::CeilDiv;
use crate::tensor::{OffsetRange, Tensor, check_fits};
use cute_dynamic::{LayoutError, Pod};
use typenum::{Bit, U0, UInt, Unsigned};

/// The recast layout, origin and storage length of a view of `len`
/// elements of `T` at `ptr`, as cute-dynamic computes them.
fn recast_parts<T: Pod, U: Pod, S2: Congruent<D2>, D2: IntTuple>(
    ptr: *const T,
    len: usize,
    offset: usize,
    layout: cute_dynamic::Layout,
) -> Result<(Layout<S2, D2>, usize, usize), LayoutError> {
    // SAFETY: only the address and length are used (cute-dynamic reads no
    // element while recasting); the caller's engine holds `len` elements at `ptr`.
    let data: &[T] = unsafe { core::slice::from_raw_parts(ptr, len) };
    // A view's origin is stored wrapping (negative with negative strides).
    let t = cute_dynamic::make_tensor_at(data, offset as i64, layout)?;
    let r = t.recast::<U>()?;
    let l = Layout::<S2, D2>::try_from(r.layout())?;
    Ok((l, r.offset() as usize, r.engine().len()))
}

impl<'a, T: Pod, S: Congruent<D>, D: IntTuple> Tensor<&'a [T], Layout<S, D>> {
    /// CuTe's `recast<U>(tensor)`: the same bytes as a tensor of `U`, its
    /// layout cute-dynamic's [`recast_layout`](cute_dynamic::recast_layout)
    /// of this one, its origin the same byte, typed as the layout type the
    /// caller names (the target of the assignment or the turbofish).
    ///
    /// Post-conditions: the result keeps the tensor invariant (every offset
    /// inside the storage), and its element at `c` is made of the bytes of
    /// the elements of `self` it covers (the same as cute-dynamic's
    /// `Tensor::recast`).
    ///
    /// Errors: those of cute-dynamic's `Tensor::recast` (a contiguous mode
    /// that does not split, a stride that does not divide, storage not
    /// aligned for `U`, an origin inside a `U`); `TypeMismatch` when the
    /// recast layout does not have the named type's tree or static leaves.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let words: [u32; 4] = [0x0403_0201, 0x0807_0605, 0, 0];
    /// let t = make_tensor(&words[..], layout!((2,2):(1,2)));
    /// let bytes: Tensor<&[u8], Layout![(8,2):(1,8)]> = t.recast()?;
    /// assert_eq!(bytes[(5usize, 0usize)], if cfg!(target_endian = "little") { 6 } else { 7 });
    /// assert!(t.recast::<u8, Layout![(4,2):(1,8)]>().is_err());  // not the recast layout
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn recast<U: Pod, L2>(self) -> Result<Tensor<&'a [U], L2>, LayoutError>
    where
        L2: RecastTarget,
    {
        let (engine, offset, layout) = self.into_parts();
        let (l, off, len) = L2::parts::<T, U>(engine.as_ptr(), engine.len(), offset, layout.to_dynamic())?;
        // SAFETY: `recast_parts` checked that the pointer is aligned for `U`
        // and that `len` elements of `U` lie within the bytes of the
        // borrowed slice; both types are `Pod`; the new slice borrows the
        // same data for the same lifetime.
        let data: &'a [U] = unsafe { core::slice::from_raw_parts(engine.as_ptr().cast::<U>(), len) };
        Ok(Tensor::from_parts_checked(data, off, l))
    }
}

impl<'a, T: Pod, S: Congruent<D>, D: IntTuple> Tensor<&'a mut [T], Layout<S, D>> {
    /// [`recast`](Tensor::recast) of a mutable tensor (the `&mut` is
    /// consumed). Errors as there.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut words = [0u32; 2];
    /// let t = make_tensor(&mut words[..], layout!(2:1));
    /// let mut halves: Tensor<&mut [u16], Layout![4:1]> = t.recast()?;
    /// halves[3usize] = 0xffff;
    /// assert_eq!(words[1], if cfg!(target_endian = "little") { 0xffff_0000 } else { 0x0000_ffff });
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn recast<U: Pod, L2>(self) -> Result<Tensor<&'a mut [U], L2>, LayoutError>
    where
        L2: RecastTarget,
    {
        let (engine, offset, layout) = self.into_parts();
        let (l, off, len) = L2::parts::<T, U>(engine.as_ptr(), engine.len(), offset, layout.to_dynamic())?;
        // SAFETY: as for the shared recast; the `&mut` is consumed, so the
        // new slice is the only reference to these bytes for `'a`.
        let data: &'a mut [U] = unsafe { core::slice::from_raw_parts_mut(engine.as_mut_ptr().cast::<U>(), len) };
        Ok(Tensor::from_parts_checked(data, off, l))
    }
}

/// A layout type a tensor can be recast to (the bound of
/// [`Tensor::recast`], for code generic over the target): every
/// [`Layout`] a tensor can have. It builds itself from the recast values
/// and re-checks the tensor invariant.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::RecastTarget;
/// /// The bytes of a tensor of words, as the layout type `L` names them.
/// fn as_bytes<L: RecastTarget>(t: Tensor<&[u32], Layout![4:1]>) -> Option<Tensor<&[u8], L>> {
///     t.recast().ok()
/// }
/// let words = [0u32; 4];
/// assert!(as_bytes::<Layout![16:1]>(make_tensor(&words[..], layout!(4:1))).is_some());
/// assert!(as_bytes::<Layout![8:1]>(make_tensor(&words[..], layout!(4:1))).is_none());
/// ```
pub trait RecastTarget: Sized {
    /// The layout, origin and storage length (in `U`) of the recast view.
    #[doc(hidden)]
    fn parts<T: Pod, U: Pod>(
        ptr: *const T,
        len: usize,
        offset: usize,
        layout: cute_dynamic::Layout,
    ) -> Result<(Self, usize, usize), LayoutError>;
}

impl<S2: Congruent<D2> + OffsetRange<D2>, D2: IntTuple> RecastTarget for Layout<S2, D2> {
    fn parts<T: Pod, U: Pod>(
        ptr: *const T,
        len: usize,
        offset: usize,
        layout: cute_dynamic::Layout,
    ) -> Result<(Self, usize, usize), LayoutError> {
        let (l, off, n) = recast_parts::<T, U, S2, D2>(ptr, len, offset, layout)?;
        // cute-dynamic checked it; checking the typed layout again costs a
        // few operations and keeps this crate's invariant local.
        check_fits("the recast tensor's layout", &l, off, n)?;
        Ok((l, off, n))
    }
}

/// CuTe's `upcast<N>(layout)` of a static layout, leaf by leaf, as CuTe
/// computes it on static strides: a stride-0 leaf stays; a leaf `s:d`
/// becomes `⌈s / ⌈N/d⌉⌉ : ⌈d/N⌉`. Unlike [`Tensor::recast`], which
/// follows cute-dynamic's checked rule, this rounds: CuTe's
/// `TiledCopy::retile` reads a thread-value index counted in blocks of `N`
/// through it, and a thread mode whose strides are below `N` collapses to
/// the block it lies in. Helper of [`Retile`](crate::Retile).
#[doc(hidden)]
pub trait Upcast<N> {
    /// The upcast layout.
    type Output;
}
impl<S: UpcastLeaves<D, N>, D, N> Upcast<N> for Layout<S, D>
where
    S::Shape: Congruent<S::Stride>,
    S::Stride: IntTuple,
{
    type Output = Layout<S::Shape, S::Stride>;
}

/// The leaf rule of [`Upcast`] over a shape tree `Self` with strides `D`.
#[doc(hidden)]
pub trait UpcastLeaves<D, N> {
    /// The new shape tree.
    type Shape;
    /// The new stride tree.
    type Stride;
}
impl<U: Unsigned, B: Bit, N> UpcastLeaves<U0, N> for UInt<U, B> {
    type Shape = UInt<U, B>;
    type Stride = U0;
}
impl<U: Unsigned, B: Bit, U2: Unsigned, B2: Bit, N> UpcastLeaves<UInt<U2, B2>, N> for UInt<U, B>
where
    N: CeilDiv<UInt<U2, B2>>,
    UInt<U, B>: CeilDiv<<N as CeilDiv<UInt<U2, B2>>>::Output>,
    UInt<U2, B2>: CeilDiv<N>,
{
    type Shape = <UInt<U, B> as CeilDiv<<N as CeilDiv<UInt<U2, B2>>>::Output>>::Output;
    type Stride = <UInt<U2, B2> as CeilDiv<N>>::Output;
}
macro_rules! upcast_tuple {
    ($($i:tt $T:ident $S:ident $D:ident),+) => {
        impl<N, $($T: UpcastLeaves<$D, N>, $D),+> UpcastLeaves<($($D,)+), N> for ($($T,)+) {
            type Shape = ($($T::Shape,)+);
            type Stride = ($($T::Stride,)+);
        }
    };
}
for_each_tuple!(upcast_tuple);
