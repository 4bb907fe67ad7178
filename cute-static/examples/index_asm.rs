//! Machine-code evidence for zero-cost indexing.
//!
//! Built normally, the `idx_*` functions index static layouts with
//! [`Layout::index`]; built with `--cfg asm_hand` the same symbols hold the
//! arithmetic written by hand with the constants inlined.
//! `scripts/asm_compare.sh` compiles both variants in release with
//! `--emit asm` and diffs each function body; they must be identical.
//! (In one build holding both variants LLVM notices they are the same and
//! merges them into one symbol, which is the same verdict.)

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
}

fn main() {
    let i = black_box(37usize);
    let (m, n) = (black_box(3usize), black_box(5usize));
    println!(
        "{} {} {} {} {} {} {} {}",
        imp::idx_mixed(i),
        imp::idx_colmajor(i),
        imp::idx_rowmajor(m, n),
        imp::idx_nested(m, n),
        imp::idx_odd(i),
        imp::idx_swizzle(i),
        imp::idx_swizzle_neg(i),
        imp::idx_swizzled(m, n)
    );
}
