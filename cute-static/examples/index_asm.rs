//! Machine-code evidence for zero-cost indexing.
//!
//! Built normally, the `idx_*` functions index static layouts with
//! [`Layout::index`]; built with `--cfg asm_hand` the same symbols hold the
//! arithmetic written by hand with the constants inlined.
//! `scripts/asm_compare.sh` compiles both variants in release with
//! `--emit asm` and diffs each function body; they must be identical.
//! (In one build holding both variants LLVM notices they are the same and
//! merges them into one symbol, which is the same verdict.)
//!
//! The `idx_dyn_*` functions index layouts with run-time (`Dyn`) leaves,
//! read from the layout passed by reference; their hand-written twins read
//! the same values from a `#[repr(C)]` struct.

use std::hint::black_box;

#[cfg(not(asm_hand))]
mod imp {
    use cute_static::prelude::*;

    /// `((4,2),(2,8)):((1,16),(4,32))` at integral coordinate `i`.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_mixed(i: usize) -> usize {
        <Layout![((4,2),(2,8)):((1,16),(4,32))]>::new().index(i)
    }

    /// `(8,8):(1,8)` at integral coordinate `i`.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_colmajor(i: usize) -> usize {
        <Layout![(8,8):(1,8)]>::new().index(i)
    }

    /// `(4,8):(8,1)` at 2-D coordinate `(m, n)`.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_rowmajor(m: usize, n: usize) -> usize {
        <Layout![(4,8):(8,1)]>::new().index((m, n))
    }

    /// `(4,(3,2)):(2,(8,1))` at 2-D coordinate `(m, n)`.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_nested(m: usize, n: usize) -> usize {
        <Layout![(4,(3,2)):(2,(8,1))]>::new().index((m, n))
    }

    /// `(3,(5,7)):(35,(7,1))` at integral coordinate `i` (non-powers of two).
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_odd(i: usize) -> usize {
        <Layout![(3,(5,7)):(35,(7,1))]>::new().index(i)
    }

    /// `Sw<3,4,3>` applied to offset `o`.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_swizzle(o: usize) -> usize {
        cute_static::Swizzle::<3, 4, 3>::new().apply(o)
    }

    /// `Sw<2,0,-3>` (a negative shift) applied to offset `o`.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_swizzle_neg(o: usize) -> usize {
        cute_static::Swizzle::<2, 0, -3>::new().apply(o)
    }

    /// `Sw<3,4,3> o _0 o (8,64):(64,1)` at 2-D coordinate `(m, n)`.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_swizzled(m: usize, n: usize) -> usize {
        cute_static::Swizzle::<3, 4, 3>::new().compose(<Layout![(8,64):(64,1)]>::new()).index((m, n))
    }

    /// The layout of `idx_dyn_cols`: `(8,{m}):(1,8)`.
    pub type DynCols = Layout![(8,Dyn):(1,8)];
    /// The layout of `idx_dyn_nested`: `(({m},4),2):((4,1),{s})`.
    pub type DynNested = Layout![((Dyn,4),2):((4,1),Dyn)];

    /// `(8,{m}):(1,8)` at integral coordinate `i`.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub fn idx_dyn_cols(l: &DynCols, i: usize) -> usize {
        l.index(i)
    }

    /// `(({m},4),2):((4,1),{s})` at integral coordinate `i`.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub fn idx_dyn_nested(l: &DynNested, i: usize) -> i64 {
        l.index(i)
    }

    pub fn dyn_cols(m: usize) -> DynCols {
        layout!((8,{m}):(1,8))
    }

    pub fn dyn_nested(m: usize, s: i64) -> DynNested {
        layout!((({m},4),2):((4,1),{s}))
    }
}

#[cfg(asm_hand)]
mod imp {
    /// `((4,2),(2,8)):((1,16),(4,32))` by hand.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_mixed(i: usize) -> usize {
        (i % 4) + (i / 4 % 2) * 16 + (i / 8 % 2) * 4 + (i / 16) * 32
    }

    /// `(8,8):(1,8)` by hand.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_colmajor(i: usize) -> usize {
        (i % 8) + (i / 8) * 8
    }

    /// `(4,8):(8,1)` by hand.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_rowmajor(m: usize, n: usize) -> usize {
        m * 8 + n
    }

    /// `(4,(3,2)):(2,(8,1))` by hand.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_nested(m: usize, n: usize) -> usize {
        m * 2 + (n % 3) * 8 + n / 3
    }

    /// `(3,(5,7)):(35,(7,1))` by hand.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_odd(i: usize) -> usize {
        (i % 3) * 35 + (i / 3 % 5) * 7 + i / 15
    }

    /// `Sw<3,4,3>` by hand: bits 7..10 XORed into bits 4..7.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_swizzle(o: usize) -> usize {
        o ^ ((o & 0x380) >> 3)
    }

    /// `Sw<2,0,-3>` by hand: bits 0..2 XORed into bits 3..5.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_swizzle_neg(o: usize) -> usize {
        o ^ ((o & 0x3) << 3)
    }

    /// `Sw<3,4,3> o _0 o (8,64):(64,1)` by hand.
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub extern "C" fn idx_swizzled(m: usize, n: usize) -> usize {
        let o = m * 64 + n;
        o ^ ((o & 0x380) >> 3)
    }

    /// The run-time values of `(8,{m}):(1,8)`.
    #[repr(C)]
    pub struct DynCols {
        pub m: i64,
    }

    /// The run-time values of `(({m},4),2):((4,1),{s})`.
    #[repr(C)]
    pub struct DynNested {
        pub m: i64,
        pub s: i64,
    }

    /// `(8,{m}):(1,8)` by hand (the last extent bounds nothing).
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub fn idx_dyn_cols(_l: &DynCols, i: usize) -> usize {
        (i % 8) + (i / 8) * 8
    }

    /// `(({m},4),2):((4,1),{s})` by hand. A layout's extents are positive,
    /// but the compiler does not know it of a value read from memory: a
    /// division by `m` written with `/` would keep a panic branch for `m ==
    /// 0`, so the hand-written version divides as careful code would,
    /// without one (0 for a zero divisor, a value no layout holds).
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub fn idx_dyn_nested(l: &DynNested, i: usize) -> i64 {
        let m = l.m as usize;
        let div = |a: usize, b: usize| a.checked_div(b).unwrap_or(0);
        let rem = |a: usize, b: usize| a.checked_rem(b).unwrap_or(0);
        (rem(i, m) * 4 + rem(div(i, m), 4)) as i64 + div(i, m * 4) as i64 * l.s
    }

    pub fn dyn_cols(m: usize) -> DynCols {
        DynCols { m: m as i64 }
    }

    pub fn dyn_nested(m: usize, s: i64) -> DynNested {
        DynNested { m: m as i64, s }
    }
}

fn main() {
    let i = black_box(37usize);
    let (m, n) = (black_box(3usize), black_box(5usize));
    let (dm, ds) = (black_box(1000usize), black_box(-7i64));
    println!(
        "{} {} {} {} {} {} {} {} {} {}",
        imp::idx_mixed(i),
        imp::idx_colmajor(i),
        imp::idx_rowmajor(m, n),
        imp::idx_nested(m, n),
        imp::idx_odd(i),
        imp::idx_swizzle(i),
        imp::idx_swizzle_neg(i),
        imp::idx_swizzled(m, n),
        imp::idx_dyn_cols(&imp::dyn_cols(dm), i),
        imp::idx_dyn_nested(&imp::dyn_nested(dm, ds), i)
    );
}
