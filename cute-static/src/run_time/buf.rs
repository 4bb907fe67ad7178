//! The room of the run-time algebra: the fixed-size buffer and the mode
//! limit.

use cute_dynamic::kernel::Fail;

/// The most flat modes the mixed algebra takes in one layout.
pub(crate) const MAX_MODES: usize = 16;

/// The failure of a layout past [`MAX_MODES`].
pub(crate) const TOO_MANY_MODES: Fail = Fail::Room { limit: Some(MAX_MODES) };

/// A list of at most `N` values on the stack whose unused room is never
/// written: the mixed algebra's buffers are sized for the largest layout it
/// takes, and filling that whole room on every call cost more than the
/// arithmetic of a small layout.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct Buf<T: Copy, const N: usize> {
    v: [core::mem::MaybeUninit<T>; N],
    /// The first `n` entries are initialized (every method that counts an
    /// entry has written it first).
    n: usize,
}

impl<T: Copy + core::fmt::Debug, const N: usize> core::fmt::Debug for Buf<T, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl<T: Copy, const N: usize> Buf<T, N> {
    /// No values.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn new() -> Self {
        Buf { v: [const { core::mem::MaybeUninit::uninit() }; N], n: 0 }
    }
    /// Appends `x`; `false` (and nothing appended) when the room is full.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn push(&mut self, x: T) -> bool {
        let Some(slot) = self.v.get_mut(self.n) else { return false };
        slot.write(x);
        self.n += 1;
        true
    }
    /// Appends `k` copies of `x` and returns them to be overwritten in
    /// place; `None` (and nothing appended) when the room is too small.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn extend_with(&mut self, k: usize, x: T) -> Option<&mut [T]> {
        let lo = self.n;
        let room = self.v.get_mut(lo..lo.checked_add(k)?)?;
        for slot in room.iter_mut() {
            slot.write(x);
        }
        self.n += k;
        Some(&mut self.as_mut_slice()[lo..])
    }
    /// The values.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: the first `n` entries are initialized (field invariant),
        // `n <= N`, and `MaybeUninit<T>` has `T`'s layout.
        #[allow(unsafe_code)]
        unsafe {
            core::slice::from_raw_parts(self.v.as_ptr().cast::<T>(), self.n)
        }
    }
    /// The values, to be changed in place.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as `as_slice`; the borrow is unique.
        #[allow(unsafe_code)]
        unsafe {
            core::slice::from_raw_parts_mut(self.v.as_mut_ptr().cast::<T>(), self.n)
        }
    }
}
