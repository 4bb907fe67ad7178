//! CuTe's `Swizzle<B,M,S>` as a zero-sized type (twin of cute-dynamic's
//! `swizzle.rs`).
//!
//! The parameters are const generics, as CuTe's are template integers: a
//! swizzle is a function on offsets, not a tree of leaves, so it needs no
//! typenum arithmetic. Invalid parameters (`|S| < B`, a field past bit 63)
//! are a compile error where the swizzle is used. The general bit-field
//! XOR of the CuTe dialect's descriptor grammar (`BitFieldXor` in
//! cute-dynamic) has no static twin: no static code needs it.

use crate::detail::const_eval::SwizzleMasks;
use core::fmt;

/// CuTe's `Swizzle<B,M,S>`: the bits `[M+S, M+S+B)` of an offset XORed into
/// `[M, M+B)` (for a negative `S`, `[M, M+B)` into `[M-S, M-S+B)`); its own
/// inverse. Zero-sized: [`apply`](Self::apply) is the XOR with the masks as
/// constants (`o ^ ((o & 0x380) >> 3)` for `Sw<3,4,3>`).
///
/// ```
/// use cute_static::Swizzle;
/// let sw = Swizzle::<3, 4, 3>::new();
/// assert_eq!(core::mem::size_of_val(&sw), 0);
/// assert_eq!(sw.to_string(), "Sw<3,4,3>");
/// assert_eq!(sw.apply(0x80), 0x90);
/// assert_eq!(sw.apply(0x3F0), 0x380);
/// assert_eq!(sw.to_dynamic(), cute_dynamic::Swizzle::new(3, 4, 3).unwrap());
/// ```
///
/// Parameters with `|S| < B` do not build (the check is a constant
/// evaluated where the swizzle is used, so `cargo check` alone may not
/// report it; `cargo build` does). Written with the macro
/// [`swizzle!(B, M, S)`](crate::prelude::swizzle), the swizzle is checked
/// where it is written, in `cargo check` too, with a sentence:
///
/// ```compile_fail
/// let sw = cute_static::Swizzle::<3, 4, 2>::new();
/// assert_eq!(sw.apply(0x80), 0x90);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Swizzle<const B: u32, const M: u32, const S: i32>;

/// `Sw<0,0,0>`: no swizzle (plain row-major shared memory): every offset
/// maps to itself.
///
/// ```
/// use cute_static::SwizzleNone;
/// let sw = SwizzleNone::new();
/// assert!((0..4096).all(|o| sw.apply(o) == o));
/// ```
pub type SwizzleNone = Swizzle<0, 0, 0>;
/// `Sw<1,4,3>`: Hopper's 32-byte shared-memory swizzle mode (CUTLASS's
/// `Layout_K_SW32_Atom_Bits`). On byte offsets: bit 7 is XORed into bit
/// 4, so in every other 128-byte block the two 16-byte chunks of each
/// 32-byte row swap.
///
/// ```
/// use cute_static::Swizzle32B;
/// let sw = Swizzle32B::new();
/// assert_eq!((Swizzle32B::YYY_MASK, Swizzle32B::ZZZ_MASK), (0x80, 0x10));
/// assert_eq!((sw.apply(0x80), sw.apply(0x93)), (0x90, 0x83)); // bit 7 set: bit 4 flips
/// assert_eq!(sw.apply(0x150), 0x150); // bit 8 is not read
/// ```
pub type Swizzle32B = Swizzle<1, 4, 3>;
/// `Sw<2,4,3>`: the 64-byte mode (`Layout_K_SW64_Atom_Bits`). On byte
/// offsets: bits 7–8 are XORed into bits 4–5, so the four 16-byte chunks of
/// each 64 bytes are permuted by the 128-byte block's index mod 4.
///
/// ```
/// use cute_static::Swizzle64B;
/// let sw = Swizzle64B::new();
/// assert_eq!((Swizzle64B::YYY_MASK, Swizzle64B::ZZZ_MASK), (0x180, 0x30));
/// assert_eq!(sw.apply(3 * 128), 3 * 128 + 3 * 16); // block 3: chunk 0 ↔ chunk 3
/// assert_eq!(sw.apply(6 * 128 + 5), 6 * 128 + 2 * 16 + 5); // block 6 swizzles as block 2
/// ```
pub type Swizzle64B = Swizzle<2, 4, 3>;
/// `Sw<3,4,3>`: the 128-byte mode, Hopper's canonical shared-memory swizzle
/// (`Layout_K_SW128_Atom_Bits`). On byte offsets: bits 7–9 are XORed into
/// bits 4–6, so the eight 16-byte chunks of 128-byte row `r` are permuted
/// by `r` mod 8 (chunk `c` goes to `c ^ r`).
///
/// ```
/// use cute_static::Swizzle128B;
/// let sw = Swizzle128B::new();
/// assert_eq!((Swizzle128B::YYY_MASK, Swizzle128B::ZZZ_MASK), (0x380, 0x70));
/// assert_eq!(sw.apply(5 * 128 + 2 * 16), 5 * 128 + 7 * 16); // row 5: chunk 2 goes to 2 ^ 5 = 7
/// assert_eq!(sw.apply(5 * 128 + 5 * 16 + 3), 5 * 128 + 3); // the byte within a chunk stays
/// assert_eq!(sw.apply(8 * 128 + 16), 8 * 128 + 16); // row 8 swizzles as row 0
/// ```
pub type Swizzle128B = Swizzle<3, 4, 3>;

impl<const B: u32, const M: u32, const S: i32> Swizzle<B, M, S> {
    /// Checked at compile time: CuTe's `abs(SShift) >= BBits`, and both
    /// fields below bit 63.
    const VALID: () = {
        assert!(S.unsigned_abs() >= B, "Swizzle<B,M,S> needs |S| >= B: the two bit fields would overlap");
        assert!(M as u64 + S.unsigned_abs() as u64 + B as u64 <= 63, "Swizzle<B,M,S>: bit fields past bit 63");
    };
    /// CuTe's `yyy_msk`: the bits read, `(2^B-1) << (M + max(0,S))`.
    pub const YYY_MASK: usize = {
        let () = Self::VALID;
        ((1usize << B) - 1) << (M as i32 + if S > 0 { S } else { 0 })
    };
    /// CuTe's `zzz_msk`: the bits written, `(2^B-1) << (M - min(0,S))`.
    pub const ZZZ_MASK: usize = {
        let () = Self::VALID;
        ((1usize << B) - 1) << (M as i32 - if S < 0 { S } else { 0 })
    };

    /// The (zero-sized) swizzle.
    ///
    /// ```
    /// use cute_static::{Swizzle, Swizzle128B};
    /// const SW: Swizzle128B = Swizzle::new(); // a `const fn`
    /// assert_eq!(SW, Swizzle::<3, 4, 3>::new());
    /// assert_eq!(SW.to_string(), "Sw<3,4,3>");
    /// ```
    #[inline(always)]
    pub const fn new() -> Self {
        let () = Self::VALID;
        Swizzle
    }

    /// The swizzled offset, `o ^ ((o & yyy) >> S)` (a left shift for a
    /// negative `S`).
    ///
    /// ```
    /// use cute_static::Swizzle;
    /// let sw = Swizzle::<2, 0, 3>::new();             // bits [3,5) into [0,2)
    /// assert_eq!(sw.apply(0b11_000), 0b11_011);
    /// assert_eq!(sw.apply(sw.apply(29)), 29);         // its own inverse
    /// let neg = Swizzle::<2, 0, -3>::new();           // bits [0,2) into [3,5)
    /// assert_eq!(neg.apply(0b01), 0b01_001);
    /// ```
    #[inline(always)]
    pub fn apply(&self, offset: usize) -> usize {
        let y = offset & Self::YYY_MASK;
        offset ^ if S >= 0 { y >> S } else { y << S.unsigned_abs() }
    }

    /// The equal run-time swizzle of `cute-dynamic`.
    ///
    /// ```
    /// use cute_static::Swizzle;
    /// let d = Swizzle::<2, 0, 3>::new().to_dynamic();
    /// assert_eq!(d.to_string(), "Sw<2,0,3>");
    /// assert_eq!(d.apply(0b11_000), 0b11_011);
    /// ```
    #[cfg(feature = "std")]
    pub fn to_dynamic(&self) -> cute_dynamic::Swizzle {
        let () = Self::VALID;
        match cute_dynamic::Swizzle::new(i64::from(B), i64::from(M), i64::from(S)) {
            Ok(s) => s,
            // Unreachable: VALID holds the same conditions at compile time.
            Err(e) => unreachable!("static swizzle rejected by cute-dynamic: {e}"),
        }
    }
}

impl<const B: u32, const M: u32, const S: i32> fmt::Display for Swizzle<B, M, S> {
    /// CuTe's `Sw<B,M,S>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{B},{M},{S}>")
    }
}

/// A function on offsets that can be the outer part of a composed layout
/// (a [`Swizzle`]): the bound of [`make_composed_layout`](crate::make_composed_layout)
/// and of tensors over composed layouts, for code generic over the
/// swizzle.
///
/// Post-condition: `apply_offset` is the swizzle's function on offsets.
///
/// ```
/// use cute_static::prelude::*;
/// use cute_static::{OffsetFn, Swizzle};
/// /// Where the first `n` offsets land under the function `f`.
/// fn image<F: OffsetFn>(f: F, n: usize) -> Vec<usize> {
///     (0..n).map(|i| f.apply_offset(i)).collect()
/// }
/// let sw = Swizzle::<1, 0, 1>::new();
/// assert_eq!(image(sw, 4), [0, 1, 3, 2]);
/// ```
pub trait OffsetFn: Copy + Default + fmt::Display {
    /// The function at `offset`.
    ///
    /// ```
    /// use cute_static::{OffsetFn, Swizzle};
    /// let sw = Swizzle::<2, 0, 3>::new(); // XORs bits 3..5 into bits 0..2
    /// assert_eq!(sw.apply_offset(0b11_000), 0b11_011);
    /// assert_eq!(sw.apply_offset(0b10_101), 0b10_111);
    /// assert_eq!(sw.apply_offset(5), 5); // bits 3..5 clear: unchanged
    /// ```
    fn apply_offset(&self, offset: usize) -> usize;
    /// The run-time twin.
    #[cfg(feature = "std")]
    #[doc(hidden)]
    fn to_dynamic_swizzle(&self) -> cute_dynamic::AnySwizzle;
    /// The swizzle as masks, for constant evaluation; reading it checks the
    /// swizzle (a compile error where it is invalid).
    #[doc(hidden)]
    const MASKS: SwizzleMasks;
}

impl<const B: u32, const M: u32, const S: i32> OffsetFn for Swizzle<B, M, S> {
    const MASKS: SwizzleMasks = SwizzleMasks { yyy: Self::YYY_MASK, shift: S };

    #[inline(always)]
    fn apply_offset(&self, offset: usize) -> usize {
        self.apply(offset)
    }

    #[cfg(feature = "std")]
    fn to_dynamic_swizzle(&self) -> cute_dynamic::AnySwizzle {
        cute_dynamic::AnySwizzle::Cute(self.to_dynamic())
    }
}
