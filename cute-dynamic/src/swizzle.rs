//! Swizzles: bijections on offsets made of XORs of bit fields.
//!
//! Two kinds, kept apart in the types, in print and in parsing:
//!
//! * [`Swizzle`] is CuTe's `Swizzle<B,M,S>` (printed `Sw<B,M,S>`): the `B`
//!   bits at `[M+S, M+S+B)` are XORed into the `B` bits at `[M, M+B)` (for a
//!   negative `S` the other way round: `[M, M+B)` into `[M-S, M-S+B)`).
//!   `|S| >= B` keeps the two fields apart, so it is its own inverse.
//! * [`BitFieldXor`] is the formula of the CuTe dialect's descriptor grammar
//!   (printed `BitFieldXor<B,M,S>`): the bits at `[S, S+B)` are XORed into
//!   `[M, M+B)`. Where the fields do not overlap it is the CuTe swizzle with
//!   another parametrisation; where they overlap (`|M-S| < B`) it is still a
//!   bijection (for `M != S`) but not its own inverse, contrary to that
//!   grammar's text (`BitFieldXor<3,4,3>` maps 0x08 to 0x18 and 0x18 to
//!   0x28), so it has its own [`BitFieldXor::inverse_apply`].
//!
//! Both act on `i64` offsets bit by bit, so they are bijections on all of
//! `i64`, and on every range `[0, 2^n)` that contains their bit fields. Every
//! field lies below bit 63, so non-negative offsets stay non-negative.

use crate::error::{LayoutError, Result};
use crate::parse::Parser;
use std::fmt;
use std::str::FromStr;

/// The highest bit (exclusive) a swizzle may touch: offsets are `i64` and
/// the sign bit stays out of it.
const MAX_BIT: i64 = 63;

/// CuTe's `Swizzle<B,M,S>`: XOR of the bits `[M+S, M+S+B)` into `[M, M+B)`.
///
/// In CuTe's masks: `yyy = (2^B-1) << (M + max(0,S))` is read,
/// `zzz = (2^B-1) << (M - min(0,S))` is written, and
/// `apply(o) = o ^ ((o & yyy) >> S)` (a left shift for negative `S`).
/// Post-conditions: `apply` is a bijection on `i64` and on `[0, 2^n)` for
/// every `n >= highest_bit()`, and `apply(apply(o)) == o`.
///
/// ```
/// use cute_dynamic::Swizzle;
/// let sw = Swizzle::new(3, 4, 3).unwrap();
/// assert_eq!(sw.to_string(), "Sw<3,4,3>");
/// assert_eq!(sw.apply(0x80), 0x90);
/// assert_eq!(sw.apply(0x3F0), 0x380);
/// assert_eq!(sw.apply(sw.apply(0x3F0)), 0x3F0);
/// assert!(Swizzle::new(3, 4, 2).is_err()); // |S| < B: the fields would overlap
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    bits: u32,
    base: u32,
    shift: i32,
}

impl Swizzle {
    /// `Sw<B,M,S>`. Errors ([`LayoutError::InvalidSwizzle`]): `B < 0`,
    /// `M < 0`, `|S| < B` (CuTe's `static_assert`), or a field reaching bit
    /// 63.
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// let sw = Swizzle::new(2, 0, 3)?; // bits [3, 5) XORed into bits [0, 2)
    /// assert_eq!(sw.apply(0b01000), 0b01001);
    /// assert!(Swizzle::new(-1, 0, 3).is_err()); // B < 0
    /// assert!(Swizzle::new(3, 4, 2).is_err()); // |S| < B
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle> {
        let bad =
            |reason: String| LayoutError::InvalidSwizzle { swizzle: format!("Sw<{bits},{base},{shift}>"), reason };
        if bits < 0 || base < 0 {
            return Err(bad("B and M must not be negative".to_string()));
        }
        if shift.unsigned_abs() < bits.unsigned_abs() {
            return Err(bad(format!(
                "|S| = {} is less than B = {bits}, so the two bit fields overlap",
                shift.unsigned_abs()
            )));
        }
        // Both fields, [M+max(0,S), +B) and [M-min(0,S), +B), below bit 63.
        let top = base.checked_add(shift.checked_abs().unwrap_or(i64::MAX)).and_then(|t| t.checked_add(bits));
        if top.is_none_or(|t| t > MAX_BIT) {
            return Err(bad("its bit fields must lie below bit 63".to_string()));
        }
        // In range: all three are at most 63 in magnitude now.
        Ok(Swizzle { bits: bits as u32, base: base as u32, shift: shift as i32 })
    }

    /// `Sw<0,0,0>`: no swizzle (plain row-major shared memory).
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::smem_none().to_string(), "Sw<0,0,0>");
    /// assert_eq!(Swizzle::smem_none().apply(0x3F0), 0x3F0);
    /// ```
    pub fn smem_none() -> Swizzle {
        Swizzle { bits: 0, base: 0, shift: 0 }
    }

    /// `Sw<1,4,3>`: Hopper's 32-byte shared-memory swizzle mode (2 rows × 2
    /// 16-byte chunks; CUTLASS's `Layout_K_SW32_Atom`,
    /// `include/cute/atom/mma_traits_sm90_gmma.hpp`).
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::smem_32b().to_string(), "Sw<1,4,3>");
    /// assert_eq!(Swizzle::smem_32b().apply(0x80), 0x90); // bit 7 flips bit 4
    /// ```
    pub fn smem_32b() -> Swizzle {
        Swizzle { bits: 1, base: 4, shift: 3 }
    }

    /// `Sw<2,4,3>`: the 64-byte mode (4 rows × 4 chunks; `Layout_K_SW64_Atom`).
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::smem_64b().to_string(), "Sw<2,4,3>");
    /// assert_eq!(Swizzle::smem_64b().apply(0x100), 0x120); // bit 8 flips bit 5
    /// ```
    pub fn smem_64b() -> Swizzle {
        Swizzle { bits: 2, base: 4, shift: 3 }
    }

    /// `Sw<3,4,3>`: the 128-byte mode, Hopper's canonical shared-memory
    /// swizzle (8 rows × 8 chunks; `Layout_K_SW128_Atom`).
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::smem_128b(), Swizzle::new(3, 4, 3)?);
    /// assert_eq!(Swizzle::smem_128b().apply(0x380), 0x3F0); // bits 7-9 flip bits 4-6
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn smem_128b() -> Swizzle {
        Swizzle { bits: 3, base: 4, shift: 3 }
    }

    /// `B`, the number of bits XORed.
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.bits(), 3);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// `M`, the number of low bits left alone.
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.base(), 4);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn base(&self) -> u32 {
        self.base
    }

    /// `S`, how far the read field lies above the written one (below, if
    /// negative).
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.shift(), 3);
    /// assert_eq!(Swizzle::new(2, 4, -3)?.shift(), -3);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn shift(&self) -> i32 {
        self.shift
    }

    fn field(&self) -> i64 {
        (1i64 << self.bits) - 1
    }

    /// CuTe's `yyy_msk`: the bits that are read, `(2^B-1) << (M + max(0,S))`.
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.yyy_mask(), 0x380); // bits 7-9
    /// assert_eq!(Swizzle::new(2, 4, -3)?.yyy_mask(), 0x30); // bits 4-5
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn yyy_mask(&self) -> i64 {
        self.field() << (self.base as i32 + self.shift.max(0))
    }

    /// CuTe's `zzz_msk`: the bits that change, `(2^B-1) << (M - min(0,S))`.
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.zzz_mask(), 0x70); // bits 4-6
    /// assert_eq!(Swizzle::new(2, 4, -3)?.zzz_mask(), 0x180); // bits 7-8
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn zzz_mask(&self) -> i64 {
        self.field() << (self.base as i32 - self.shift.min(0))
    }

    /// One past the highest bit the swizzle reads or writes: it is a
    /// bijection on `[0, 2^n)` for every `n` at least this.
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.highest_bit(), 10); // reads bits 7-9
    /// assert_eq!(Swizzle::smem_none().highest_bit(), 0);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn highest_bit(&self) -> u32 {
        if self.bits == 0 { 0 } else { self.base + self.shift.unsigned_abs() + self.bits }
    }

    /// The swizzled offset: `o ^ ((o & yyy) >> S)`.
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// let sw = Swizzle::new(3, 4, 3)?;
    /// assert_eq!(sw.apply(0x80), 0x90);
    /// assert_eq!(sw.apply(0x90), 0x80);
    /// assert_eq!(Swizzle::new(2, 4, -3)?.apply(0x10), 0x90); // S < 0: bit 4 flips bit 7
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    #[inline]
    pub fn apply(&self, offset: i64) -> i64 {
        let y = offset & self.yyy_mask();
        // The masks lie below bit 63, so `y` is non-negative and the shifts
        // are in range and lose nothing.
        let moved = if self.shift >= 0 { y >> self.shift } else { y << -self.shift };
        offset ^ moved
    }

    /// The inverse function: the swizzle itself.
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// let sw = Swizzle::smem_128b();
    /// assert_eq!(sw.inverse(), sw);
    /// assert_eq!(sw.inverse().apply(sw.apply(0x123)), 0x123);
    /// ```
    pub fn inverse(&self) -> Swizzle {
        *self
    }

    /// The same function as a [`BitFieldXor`] (source and destination bit
    /// positions instead of CuTe's base and shift).
    ///
    /// ```
    /// use cute_dynamic::Swizzle;
    /// let f = Swizzle::new(3, 4, 3)?.to_bit_field_xor();
    /// assert_eq!(f.to_string(), "BitFieldXor<3,4,7>"); // bits [7, 10) into [4, 7)
    /// assert_eq!(f.apply(0x80), Swizzle::new(3, 4, 3)?.apply(0x80));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn to_bit_field_xor(&self) -> BitFieldXor {
        let (dst, src) = if self.shift >= 0 {
            (self.base, self.base + self.shift as u32)
        } else {
            (self.base + self.shift.unsigned_abs(), self.base)
        };
        BitFieldXor { bits: self.bits, dst, src }
    }
}

impl fmt::Display for Swizzle {
    /// CuTe's `Sw<B,M,S>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

/// The bit-field XOR of the CuTe dialect's descriptor grammar:
/// `f(x) = x ^ (((x >> S) & (2^B-1)) << M)`, the bits `[S, S+B)` XORed into
/// `[M, M+B)` (the parameters in that grammar's order `<B, M, S>`: `M` is
/// the destination, `S` the source).
///
/// Post-conditions: for `B = 0` or `M != S`, `apply` is a bijection on
/// `i64` and on every `[0, 2^n)` with `n >= highest_bit()`, and
/// `inverse_apply(apply(x)) == x == apply(inverse_apply(x))`. It is its own
/// inverse exactly when the fields do not overlap (`|M - S| >= B`).
///
/// ```
/// use cute_dynamic::BitFieldXor;
/// let f = BitFieldXor::new(3, 4, 3).unwrap(); // the dialect's swizzle<3,4,3>
/// assert_eq!(f.apply(0x18), 0x28);
/// assert_eq!(f.apply(0x08), 0x18);
/// assert_ne!(f.apply(f.apply(0x08)), 0x08); // not its own inverse...
/// assert_eq!(f.inverse_apply(f.apply(0x08)), 0x08); // ...this is
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitFieldXor {
    bits: u32,
    dst: u32,
    src: u32,
}

impl BitFieldXor {
    /// `BitFieldXor<B,M,S>`. Errors ([`LayoutError::InvalidSwizzle`]): a
    /// negative parameter, a field reaching bit 63, or `M == S` with `B > 0`
    /// (that clears the field: no bijection).
    ///
    /// ```
    /// use cute_dynamic::BitFieldXor;
    /// let f = BitFieldXor::new(2, 0, 4)?; // bits [4, 6) XORed into bits [0, 2)
    /// assert_eq!(f.apply(0x30), 0x33);
    /// assert!(BitFieldXor::new(2, 4, 4).is_err()); // M == S
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn new(bits: i64, dst: i64, src: i64) -> Result<BitFieldXor> {
        let bad = |reason: &str| LayoutError::InvalidSwizzle {
            swizzle: format!("BitFieldXor<{bits},{dst},{src}>"),
            reason: reason.to_string(),
        };
        if bits < 0 || dst < 0 || src < 0 {
            return Err(bad("B, M and S must not be negative"));
        }
        if bits.checked_add(dst.max(src)).is_none_or(|t| t > MAX_BIT) {
            return Err(bad("its bit fields must lie below bit 63"));
        }
        if bits > 0 && dst == src {
            return Err(bad("M == S XORs the field into itself, which clears it: not a bijection"));
        }
        Ok(BitFieldXor { bits: bits as u32, dst: dst as u32, src: src as u32 })
    }

    /// `B`, the width of the fields.
    ///
    /// ```
    /// use cute_dynamic::BitFieldXor;
    /// assert_eq!(BitFieldXor::new(3, 4, 7)?.bits(), 3);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// `M`, the lowest bit of the field written.
    ///
    /// ```
    /// use cute_dynamic::BitFieldXor;
    /// assert_eq!(BitFieldXor::new(3, 4, 7)?.dst(), 4);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn dst(&self) -> u32 {
        self.dst
    }

    /// `S`, the lowest bit of the field read.
    ///
    /// ```
    /// use cute_dynamic::BitFieldXor;
    /// assert_eq!(BitFieldXor::new(3, 4, 7)?.src(), 7);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn src(&self) -> u32 {
        self.src
    }

    /// `true` when the fields do not overlap, so that `apply` is its own
    /// inverse.
    ///
    /// ```
    /// use cute_dynamic::BitFieldXor;
    /// assert!(BitFieldXor::new(3, 4, 7)?.is_involution()); // |7 - 4| >= 3
    /// assert!(!BitFieldXor::new(3, 4, 3)?.is_involution()); // the fields overlap
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn is_involution(&self) -> bool {
        self.dst.abs_diff(self.src) >= self.bits
    }

    /// One past the highest bit read or written.
    ///
    /// ```
    /// use cute_dynamic::BitFieldXor;
    /// assert_eq!(BitFieldXor::new(3, 4, 7)?.highest_bit(), 10);
    /// assert_eq!(BitFieldXor::new(3, 4, 3)?.highest_bit(), 7);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn highest_bit(&self) -> u32 {
        if self.bits == 0 { 0 } else { self.dst.max(self.src) + self.bits }
    }

    /// `T(x)`: the source field of `x`, moved to the destination.
    #[inline]
    fn moved(&self, x: i64) -> i64 {
        ((x >> self.src) & ((1i64 << self.bits) - 1)) << self.dst
    }

    /// `x ^ (((x >> S) & (2^B-1)) << M)`, the dialect grammar's `swizzle_apply`.
    ///
    /// ```
    /// use cute_dynamic::{BitFieldXor, Swizzle};
    /// let f = BitFieldXor::new(3, 4, 7)?; // CuTe's Sw<3,4,3>, other parameters
    /// assert_eq!(f.apply(0x80), 0x90);
    /// assert_eq!(f.apply(0x3F0), Swizzle::smem_128b().apply(0x3F0));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    #[inline]
    pub fn apply(&self, x: i64) -> i64 {
        x ^ self.moved(x)
    }

    /// The inverse of [`apply`](Self::apply). Over GF(2), `apply` is `I + T`
    /// with `T` the field move; `T` shifts bits strictly up or strictly
    /// down, so `T^k = 0` once `k·|M-S|` passes the field, and the inverse
    /// is `I + T + T^2 + …` (at most `B/|M-S| + 1` terms).
    ///
    /// ```
    /// use cute_dynamic::BitFieldXor;
    /// let f = BitFieldXor::new(3, 4, 3)?;
    /// assert_eq!(f.apply(0x08), 0x18);
    /// assert_eq!(f.inverse_apply(0x18), 0x08);
    /// assert_eq!(f.apply(f.inverse_apply(0x28)), 0x28);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn inverse_apply(&self, y: i64) -> i64 {
        let mut acc = y;
        let mut t = y;
        // The loop ends: each application moves the surviving bits by
        // |M-S| >= 1 in one direction, out of the B-bit field after at most
        // B steps (and B = 0 moves nothing).
        for _ in 0..=self.bits {
            t = self.moved(t);
            if t == 0 {
                break;
            }
            acc ^= t;
        }
        acc
    }
}

impl fmt::Display for BitFieldXor {
    /// `BitFieldXor<B,M,S>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BitFieldXor<{},{},{}>", self.bits, self.dst, self.src)
    }
}

/// Either kind of swizzle: the outer function of a composed layout.
///
/// The two kinds name their fields differently (see the module
/// documentation): `Sw<3,4,3>`, bits 7-9 XORed into bits 4-6, is the function
/// `BitFieldXor<3,4,7>`, while `BitFieldXor<3,4,3>` XORs bits 3-5 into 4-6.
///
/// ```
/// use cute_dynamic::{AnySwizzle, ComposedLayout, Swizzle};
/// let c = ComposedLayout::compose(Swizzle::smem_128b(), &"(8,64):(64,1)".parse()?);
/// assert_eq!(*c.outer(), AnySwizzle::Cute(Swizzle::smem_128b()));
/// let (cute, xor): (AnySwizzle, AnySwizzle) = ("Sw<3,4,3>".parse()?, "BitFieldXor<3,4,7>".parse()?);
/// assert!(matches!(xor, AnySwizzle::BitFieldXor(_)));
/// assert!((0..1024).all(|x| cute.apply(x) == xor.apply(x)));
/// assert_eq!("BitFieldXor<3,4,3>".parse::<AnySwizzle>()?.apply(0x80), 0x80); // bits 3-5 are 0
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnySwizzle {
    /// CuTe's `Sw<B,M,S>`.
    Cute(Swizzle),
    /// The bit-field XOR `BitFieldXor<B,M,S>` (the CuTe dialect's formula).
    BitFieldXor(BitFieldXor),
}

impl AnySwizzle {
    /// The swizzled offset.
    ///
    /// ```
    /// use cute_dynamic::AnySwizzle;
    /// let s: AnySwizzle = "Sw<3,4,3>".parse()?;
    /// assert_eq!(s.apply(0x80), 0x90);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    #[inline]
    pub fn apply(&self, offset: i64) -> i64 {
        match self {
            AnySwizzle::Cute(s) => s.apply(offset),
            AnySwizzle::BitFieldXor(s) => s.apply(offset),
        }
    }

    /// The offset whose swizzle is `offset`.
    ///
    /// ```
    /// use cute_dynamic::AnySwizzle;
    /// let s: AnySwizzle = "BitFieldXor<3,4,3>".parse()?;
    /// assert_eq!(s.apply(0x08), 0x18);
    /// assert_eq!(s.inverse_apply(0x18), 0x08);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn inverse_apply(&self, offset: i64) -> i64 {
        match self {
            AnySwizzle::Cute(s) => s.apply(offset),
            AnySwizzle::BitFieldXor(s) => s.inverse_apply(offset),
        }
    }

    /// One past the highest bit read or written.
    ///
    /// ```
    /// use cute_dynamic::{AnySwizzle, Swizzle};
    /// assert_eq!(AnySwizzle::from(Swizzle::smem_128b()).highest_bit(), 10);
    /// assert_eq!("BitFieldXor<3,4,3>".parse::<AnySwizzle>()?.highest_bit(), 7);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn highest_bit(&self) -> u32 {
        match self {
            AnySwizzle::Cute(s) => s.highest_bit(),
            AnySwizzle::BitFieldXor(s) => s.highest_bit(),
        }
    }

    /// `true` for a swizzle that changes nothing (`B = 0`).
    ///
    /// ```
    /// use cute_dynamic::{AnySwizzle, Swizzle};
    /// assert!("Sw<0,0,0>".parse::<AnySwizzle>()?.is_identity());
    /// assert!(!AnySwizzle::from(Swizzle::smem_128b()).is_identity());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn is_identity(&self) -> bool {
        match self {
            AnySwizzle::Cute(s) => s.bits == 0,
            AnySwizzle::BitFieldXor(s) => s.bits == 0,
        }
    }
}

impl fmt::Display for AnySwizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnySwizzle::Cute(s) => write!(f, "{s}"),
            AnySwizzle::BitFieldXor(s) => write!(f, "{s}"),
        }
    }
}

impl From<Swizzle> for AnySwizzle {
    fn from(s: Swizzle) -> AnySwizzle {
        AnySwizzle::Cute(s)
    }
}

impl From<BitFieldXor> for AnySwizzle {
    fn from(s: BitFieldXor) -> AnySwizzle {
        AnySwizzle::BitFieldXor(s)
    }
}

/// The names a swizzle is written with.
pub(crate) const SWIZZLE_NAMES: [&str; 2] = ["Sw", "BitFieldXor"];

impl Parser<'_> {
    /// `'<' int ',' int ',' int '>'` after the name `name` (`Sw` or
    /// `BitFieldXor`), checked by the swizzle's constructor; an invalid
    /// triple is an error at the name's column.
    pub(crate) fn swizzle_after_name(&mut self, name: &str, name_col: usize) -> Result<AnySwizzle> {
        self.expect(b'<', "'<'")?;
        let b = self.int(false)?;
        self.expect(b',', "','")?;
        let m = self.int(false)?;
        self.expect(b',', "','")?;
        let s = self.int(false)?;
        self.expect(b'>', "'>'")?;
        let r = if name == "Sw" {
            Swizzle::new(b, m, s).map(AnySwizzle::Cute)
        } else {
            BitFieldXor::new(b, m, s).map(AnySwizzle::BitFieldXor)
        };
        r.map_err(|e| match e {
            LayoutError::InvalidSwizzle { swizzle, reason } => LayoutError::Parse {
                column: name_col,
                expected: "a valid swizzle".to_string(),
                found: format!("{swizzle}: {reason}"),
            },
            other => other,
        })
    }

    /// A whole swizzle: `Sw<B,M,S>` or `BitFieldXor<B,M,S>`.
    pub(crate) fn any_swizzle(&mut self) -> Result<AnySwizzle> {
        self.ws();
        let col = self.column();
        let start = self.pos;
        while self.pos < self.src.len() && self.src[self.pos].is_ascii_alphanumeric() {
            self.pos += 1;
        }
        let name = String::from_utf8_lossy(&self.src[start..self.pos]).into_owned();
        if !SWIZZLE_NAMES.contains(&name.as_str()) {
            self.pos = start;
            return Err(self.error("'Sw<B,M,S>' or 'BitFieldXor<B,M,S>'"));
        }
        self.swizzle_after_name(&name, col)
    }
}

impl FromStr for AnySwizzle {
    type Err = LayoutError;
    /// Parses `Sw<3,4,3>` or `BitFieldXor<3,4,3>`.
    fn from_str(s: &str) -> Result<AnySwizzle> {
        let mut p = Parser::new(s);
        let sw = p.any_swizzle()?;
        p.expect_end()?;
        Ok(sw)
    }
}

impl FromStr for Swizzle {
    type Err = LayoutError;
    /// Parses `Sw<3,4,3>` (not `BitFieldXor<...>`: another function).
    fn from_str(s: &str) -> Result<Swizzle> {
        match s.parse::<AnySwizzle>()? {
            AnySwizzle::Cute(sw) => Ok(sw),
            AnySwizzle::BitFieldXor(_) => Err(LayoutError::Parse {
                column: 1,
                expected: "CuTe's 'Sw<B,M,S>'".to_string(),
                found: "a BitFieldXor (another function)".to_string(),
            }),
        }
    }
}

impl FromStr for BitFieldXor {
    type Err = LayoutError;
    /// Parses `BitFieldXor<3,4,3>` (not `Sw<...>`: another function).
    fn from_str(s: &str) -> Result<BitFieldXor> {
        match s.parse::<AnySwizzle>()? {
            AnySwizzle::BitFieldXor(sw) => Ok(sw),
            AnySwizzle::Cute(_) => Err(LayoutError::Parse {
                column: 1,
                expected: "'BitFieldXor<B,M,S>'".to_string(),
                found: "CuTe's Sw (another function)".to_string(),
            }),
        }
    }
}
