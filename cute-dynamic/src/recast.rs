//! Recasting: the same bytes viewed as elements of another type (CuTe's
//! `recast_layout`, `upcast`, `downcast` and `recast` of a tensor).

use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::tensor::{Tensor, make_tensor_at};

/// CuTe's `upcast<N>(L)`: the layout of the same data counted in elements
/// `n` times as large (for example 4 `u8` as one `u32`).
///
/// Per leaf `s:d`: a stride-0 leaf stays; a leaf of stride `±1` groups `n`
/// consecutive elements, `s/n : ±1`; any other stride is counted in the
/// larger elements, `s : d/n`. Unlike CuTe, which assumes run-time strides
/// divide, every condition is checked.
///
/// Post-condition: `n·R(c) == L(c↑)` for every coordinate `c` of the
/// result, where `c↑` is `c` with the coordinate of each stride-`±1` leaf
/// multiplied by `n` (the first of the `n` grouped elements); the result
/// has `L`'s shape tree.
///
/// Errors: `Unsupported` when `n < 1`, when a stride-`±1` leaf's extent is
/// not a multiple of `n`, or a stride is neither `0`, `±1` nor a multiple
/// of `n`.
///
/// ```
/// use cute_dynamic::{Layout, upcast};
/// let l: Layout = "(8,(2,3)):(1,(16,64))".parse()?;
/// assert_eq!(upcast(&l, 4)?.to_string(), "(2,(2,3)):(1,(4,16))");
/// assert!(upcast(&"(6,2):(1,6)".parse()?, 4).is_err());
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn upcast(l: &Layout, n: i64) -> Result<Layout> {
    if n < 1 {
        return Err(LayoutError::Unsupported { what: format!("upcast by {n}") });
    }
    let mut shape = l.shape.clone();
    let mut stride = l.stride.clone();
    for (s, d) in shape.vals_mut().iter_mut().zip(stride.vals_mut()) {
        if *d == 0 {
            continue;
        }
        if d.abs() == 1 {
            if *s % n != 0 {
                return Err(LayoutError::Unsupported {
                    what: format!(
                        "upcast of {l} by {n}: the contiguous mode of extent {s} does not split into groups of {n}"
                    ),
                });
            }
            *s /= n;
        } else if *d % n == 0 {
            *d /= n;
        } else {
            return Err(LayoutError::Unsupported {
                what: format!("upcast of {l} by {n}: the stride {d} is not a multiple of {n}"),
            });
        }
    }
    Layout::new(shape, stride)
}

/// CuTe's `upcast<N>(L)` exactly as CuTe computes it for static strides
/// (the layouts of its atoms and tiled copies, what `TiledCopy::retile`
/// upcasts): the layout of the same data counted in groups of `n`
/// elements, a partial group counted as a whole one.
///
/// Per leaf `s:d`: a stride-0 leaf stays; otherwise `|d|` and `n` must
/// divide one another, and the leaf becomes
/// `ceil(s / ceil(n/|d|)) : sign(d)·ceil(|d|/n)`. A leaf whose stride is a
/// multiple of `n` keeps its extent (`s : d/n`); a leaf of smaller stride
/// keeps one element of each group of `n/|d|` consecutive ones, at stride
/// `±1` (`8:2` by 4 is `4:1`, `3:1` by 2 is `2:1`). [`upcast`] is the
/// strict form, which refuses what does not split into whole groups.
///
/// Post-conditions: the result has `L`'s shape tree; where [`upcast`]
/// succeeds, the two agree; `n·R(c) == L(c↑)` for every coordinate `c` of
/// the result, where `c↑` is `c` with the coordinate of each leaf of stride
/// `0 < |d| < n` multiplied by `n/|d|` (the first element of its group,
/// always inside the leaf).
///
/// Errors: `Unsupported` when `n < 1`; `NotDivisible` for a stride that
/// neither divides nor is divided by `n`; those of [`Layout::new`].
///
/// ```
/// use cute_dynamic::{Layout, upcast_ceil};
/// let l: Layout = "((4,8),(2,4)):((2,128),(1,32))".parse()?;
/// assert_eq!(upcast_ceil(&l, 8)?.to_string(), "((1,8),(1,4)):((1,16),(1,4))");
/// assert_eq!(upcast_ceil(&"(3,5):(1,0)".parse()?, 2)?.to_string(), "(2,5):(1,0)");
/// assert!(upcast_ceil(&"8:3".parse()?, 2).is_err()); // 3 and 2 divide neither way
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn upcast_ceil(l: &Layout, n: i64) -> Result<Layout> {
    if n < 1 {
        return Err(LayoutError::Unsupported { what: format!("upcast by {n}") });
    }
    // In i128: |i64::MIN| and the ceilings fit there; the results are at most
    // the i64 operands, so the conversions back cannot fail.
    let ceil_div = |a: i128, b: i128| (a + b - 1) / b;
    let mut shape = l.shape.clone();
    let mut stride = l.stride.clone();
    for (s, d) in shape.vals_mut().iter_mut().zip(stride.vals_mut()) {
        if *d == 0 {
            continue;
        }
        let (a, m) = (i128::from(*d).abs(), i128::from(n));
        if a % m != 0 && m % a != 0 {
            return Err(LayoutError::NotDivisible { operation: "upcast", a: *d, b: n });
        }
        let to_i64 = |x: i128| i64::try_from(x).map_err(|_| LayoutError::Overflow { operation: "upcast" });
        *s = to_i64(ceil_div(i128::from(*s), ceil_div(m, a)))?;
        *d = to_i64(i128::from(d.signum()) * ceil_div(a, m))?;
    }
    Layout::new(shape, stride)
}

/// CuTe's `downcast<N>(L)`: the layout of the same data counted in elements
/// `n` times as small. A leaf of stride `±1` spreads over `n` times as many
/// elements (`s·n : ±1`); any other stride is scaled (`s : d·n`), so only
/// the first part of each old element is reached along it, as in CuTe.
///
/// Post-condition: `R(c) == n·L(c)` for every coordinate `c` of a layout
/// without stride-`±1` leaves; a stride-`±1` leaf's coordinate `i` of the
/// result is part `i % n` of old element `i / n`.
///
/// Errors: `Unsupported` when `n < 1`, `Overflow` when an extent or stride
/// no longer fits.
///
/// ```
/// use cute_dynamic::{Layout, downcast};
/// let l: Layout = "(2,(2,3)):(1,(4,16))".parse()?;
/// assert_eq!(downcast(&l, 4)?.to_string(), "(8,(2,3)):(1,(16,64))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn downcast(l: &Layout, n: i64) -> Result<Layout> {
    if n < 1 {
        return Err(LayoutError::Unsupported { what: format!("downcast by {n}") });
    }
    let overflow = || LayoutError::Overflow { operation: "downcast" };
    let mut shape = l.shape.clone();
    let mut stride = l.stride.clone();
    for (s, d) in shape.vals_mut().iter_mut().zip(stride.vals_mut()) {
        if d.abs() == 1 {
            *s = s.checked_mul(n).ok_or_else(overflow)?;
        } else {
            *d = d.checked_mul(n).ok_or_else(overflow)?;
        }
    }
    Layout::new(shape, stride)
}

/// CuTe's `recast_layout<Old, New>(L)` for element sizes in bytes: the
/// layout of the same data counted in elements of `new` bytes instead of
/// `old` bytes ([`upcast`] when `new` is a multiple of `old`, [`downcast`]
/// when `old` is a multiple of `new`, both through their ratio otherwise).
///
/// Errors: those of [`upcast`] and [`downcast`]; `Unsupported` for a size
/// of 0.
///
/// ```
/// use cute_dynamic::{Layout, recast_layout};
/// let l: Layout = "(8,4):(1,8)".parse()?;                  // 8×4 bytes
/// assert_eq!(recast_layout(&l, 1, 4)?.to_string(), "(2,4):(1,2)");  // as u32
/// assert_eq!(recast_layout(&l, 4, 2)?.to_string(), "(16,4):(1,16)"); // u32 as u16
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn recast_layout(l: &Layout, old: usize, new: usize) -> Result<Layout> {
    if old == 0 || new == 0 {
        return Err(LayoutError::Unsupported { what: "recast to or from a zero-sized type".to_string() });
    }
    let g = gcd(old, new);
    let (up, down) = ((new / g) as i64, (old / g) as i64);
    downcast(&upcast(l, up)?, down)
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Plain numbers: types every bit pattern of which is a valid value, with
/// no padding, so the same bytes may be read as another of them. Sealed:
/// implemented for the integer and floating-point primitives only.
///
/// ```
/// use cute_dynamic::{Layout, LayoutError, Pod, make_tensor};
/// // The sum of the bytes of any plain numbers, read through a recast tensor.
/// fn byte_sum<T: Pod>(v: &[T]) -> Result<u32, LayoutError> {
///     let bytes = make_tensor(v, format!("{}:1", v.len()).parse::<Layout>()?)?.recast::<u8>()?;
///     Ok((0..bytes.size()).map(|i| u32::from(bytes[i])).sum())
/// }
/// assert_eq!(byte_sum(&[0x0102_0304u32])?, 1 + 2 + 3 + 4); // in either byte order
/// assert_eq!(byte_sum(&[-1i16; 3])?, 6 * 0xff);
/// # Ok::<(), LayoutError>(())
/// ```
pub trait Pod: Copy + sealed::Sealed {}

mod sealed {
    pub trait Sealed {}
}

macro_rules! pods {
    ($($t:ty)*) => { $(impl sealed::Sealed for $t {} impl Pod for $t {})* };
}
pods!(u8 i8 u16 i16 u32 i32 u64 i64 u128 i128 usize isize f32 f64);

/// Where the storage of `len` elements of `T` starting at `ptr` holds whole
/// elements of `U` from an address aligned for `U`: how many.
fn recast_len<T, U>(ptr: *const T, len: usize) -> Result<usize> {
    if ptr.align_offset(std::mem::align_of::<U>()) != 0 {
        return Err(LayoutError::Unsupported {
            what: format!("recast of storage at an address not aligned for a {}-byte type", std::mem::align_of::<U>()),
        });
    }
    Ok(len * std::mem::size_of::<T>() / std::mem::size_of::<U>().max(1))
}

/// The origin of the recast layout, in elements of the new type.
fn recast_offset(offset: i64, old: usize, new: usize) -> Result<i64> {
    let bytes = offset.checked_mul(old as i64).ok_or(LayoutError::Overflow { operation: "recast" })?;
    if bytes % new as i64 != 0 {
        return Err(LayoutError::Unsupported {
            what: format!(
                "recast of a tensor whose origin (element {offset}) does not start an element of {new} bytes"
            ),
        });
    }
    Ok(bytes / new as i64)
}

impl<'a, T: Pod> Tensor<&'a [T]> {
    /// CuTe's `recast<U>(tensor)`: the same bytes as a tensor of `U`, its
    /// layout [`recast_layout`] of this one.
    ///
    /// Post-condition: the result is a tensor as [`make_tensor`](crate::make_tensor)
    /// makes them (every offset inside the storage), and each of its elements
    /// is made of the bytes of the elements of `self` it covers.
    ///
    /// Errors: those of [`recast_layout`]; `Unsupported` when the storage is
    /// not aligned for `U` or the origin does not start a `U`;
    /// `OutOfStorage` when the recast layout reaches past the storage.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let words: [u32; 4] = [0x0403_0201, 0x0807_0605, 0, 0];
    /// let t = make_tensor(&words[..], "(2,2):(1,2)".parse::<Layout>()?)?;
    /// let bytes = t.recast::<u8>()?;
    /// assert_eq!(bytes.layout().to_string(), "(8,2):(1,8)");
    /// assert_eq!(bytes[(5, 0)], if cfg!(target_endian = "little") { 6 } else { 7 });
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn recast<U: Pod>(self) -> Result<Tensor<&'a [U]>> {
        let (old, new) = (std::mem::size_of::<T>(), std::mem::size_of::<U>());
        let layout = recast_layout(&self.layout, old, new)?;
        let offset = recast_offset(self.offset, old, new)?;
        let len = recast_len::<T, U>(self.engine.as_ptr(), self.engine.len())?;
        // SAFETY: the pointer is aligned for `U` (checked), the `len` elements
        // of `U` lie within the bytes of the borrowed slice, both types are
        // `Pod` (every bit pattern is a value, no padding), and the new slice
        // borrows the same data for the same lifetime.
        #[allow(unsafe_code)]
        let data: &'a [U] = unsafe { std::slice::from_raw_parts(self.engine.as_ptr().cast::<U>(), len) };
        make_tensor_at(data, offset, layout)
    }
}

impl<'a, T: Pod> Tensor<&'a mut [T]> {
    /// [`recast`](Tensor::recast) of a mutable tensor. Errors as there.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_tensor};
    /// let mut words = [0u32; 2];
    /// let t = make_tensor(&mut words[..], "2:1".parse::<Layout>()?)?;
    /// let mut halves = t.recast::<u16>()?;
    /// halves[3] = 0xffff;
    /// assert_eq!(words[1], if cfg!(target_endian = "little") { 0xffff_0000 } else { 0x0000_ffff });
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn recast<U: Pod>(self) -> Result<Tensor<&'a mut [U]>> {
        let (old, new) = (std::mem::size_of::<T>(), std::mem::size_of::<U>());
        let layout = recast_layout(&self.layout, old, new)?;
        let offset = recast_offset(self.offset, old, new)?;
        let len = recast_len::<T, U>(self.engine.as_ptr(), self.engine.len())?;
        // SAFETY: as for the shared recast; the `&mut` is consumed, so the new
        // slice is the only reference to these bytes for `'a`.
        #[allow(unsafe_code)]
        let data: &'a mut [U] = unsafe { std::slice::from_raw_parts_mut(self.engine.as_mut_ptr().cast::<U>(), len) };
        make_tensor_at(data, offset, layout)
    }
}
