//! Swizzles: CuTe's `Swizzle<B,M,S>` (`Sw<B,M,S>`) and the bit-field XOR of
//! the CuTe dialect's descriptor grammar (`BitFieldXor<B,M,S>`), golden
//! values from the issue and from that grammar's examples,
//! and by brute force: bijection on the domain, CuTe's swizzle its own
//! inverse, the bit-field XOR's inverse correct.

use cute_dynamic::{AnySwizzle, BitFieldXor, LayoutError, Swizzle, eval};
use proptest::prelude::*;

#[test]
fn cute_sw343_golden() {
    let sw = Swizzle::new(3, 4, 3).unwrap();
    assert_eq!(sw.to_string(), "Sw<3,4,3>");
    assert_eq!(sw.apply(0x80), 0x90);
    assert_eq!(sw.apply(0x100), 0x120);
    assert_eq!(sw.apply(0x3F0), 0x380);
    // CuTe's masks: yyy reads bits 7..10, zzz writes bits 4..7.
    assert_eq!(sw.yyy_mask(), 0b111_0000000);
    assert_eq!(sw.zzz_mask(), 0b111_0000);
}

#[test]
fn cute_sw203_on_0_to_31() {
    let sw = Swizzle::new(2, 0, 3).unwrap();
    let expected = [
        0, 1, 2, 3, 4, 5, 6, 7, 9, 8, 11, 10, 13, 12, 15, 14, 18, 19, 16, 17, 22, 23, 20, 21, 27, 26, 25, 24, 31, 30,
        29, 28,
    ];
    let got: Vec<i64> = (0..32).map(|o| sw.apply(o)).collect();
    assert_eq!(got, expected);
}

#[test]
fn cute_swizzle_needs_abs_shift_at_least_bits() {
    for (b, m, s) in [(3, 4, 2), (3, 4, -2), (1, 0, 0), (-1, 0, 3), (2, -1, 3), (40, 20, 40)] {
        let e = Swizzle::new(b, m, s).unwrap_err();
        assert!(matches!(e, LayoutError::InvalidSwizzle { .. }), "Sw<{b},{m},{s}>: {e:?}");
        assert!(e.to_string().starts_with(&format!("Sw<{b},{m},{s}> is not a swizzle")), "{e}");
    }
    assert!(Swizzle::new(3, 4, 2).unwrap_err().to_string().contains("|S| = 2 is less than B = 3"));
    assert!(Swizzle::new(0, 0, 0).is_ok());
    assert!(Swizzle::new(3, 4, -3).is_ok());
}

#[test]
fn cute_swizzle_with_negative_shift_moves_low_bits_up() {
    // Sw<2,0,-3>: bits [0,2) are XORed into [3,5).
    let sw = Swizzle::new(2, 0, -3).unwrap();
    assert_eq!(sw.to_string(), "Sw<2,0,-3>");
    assert_eq!(sw.yyy_mask(), 0b11);
    assert_eq!(sw.zzz_mask(), 0b11000);
    assert_eq!(sw.apply(0b01), 0b01001);
    assert_eq!(sw.apply(0b10), 0b10010);
    assert_eq!(sw.apply(0b11011), 0b00011);
    // It is the positive-shift swizzle's mirror: the same XOR pattern with
    // the roles of the fields exchanged.
    let f = sw.to_bit_field_xor();
    assert_eq!((f.bits(), f.dst(), f.src()), (2, 3, 0));
}

#[test]
fn seed_canonical_smem_modes() {
    let modes = [
        (Swizzle::smem_none(), "Sw<0,0,0>"),
        (Swizzle::smem_32b(), "Sw<1,4,3>"),
        (Swizzle::smem_64b(), "Sw<2,4,3>"),
        (Swizzle::smem_128b(), "Sw<3,4,3>"),
    ];
    for (sw, text) in modes {
        assert_eq!(sw.to_string(), text);
        assert_eq!(text.parse::<Swizzle>().unwrap(), sw);
    }
    // No swizzle changes nothing.
    assert!((0..4096).all(|o| Swizzle::smem_none().apply(o) == o));
    // B = 3 rotates 8 rows of 128 bytes over 8 16-byte chunks: the 16-byte
    // chunk index (bits 4..7) of row r, chunk c becomes c ^ r.
    let sw = Swizzle::smem_128b();
    for r in 0..8 {
        for c in 0..8 {
            assert_eq!(sw.apply(r * 128 + c * 16) / 16 % 8, c ^ r);
        }
    }
}

#[test]
fn seed_bit_field_xor_worked_values() {
    let f = BitFieldXor::new(3, 4, 3).unwrap();
    assert_eq!(f.to_string(), "BitFieldXor<3,4,3>");
    assert_eq!(f.apply(0x40), 0x40);
    assert_eq!(f.apply(0x18), 0x28);
    assert_eq!(f.apply(0x20), 0x60);
    let rows: Vec<i64> = (0..8).map(|k| f.apply(k * 8)).collect();
    assert_eq!(rows, [0x00, 0x18, 0x30, 0x28, 0x60, 0x78, 0x50, 0x48]);
    // "Modulo 128 ... the swizzled bank indices are 0, 6, 12, 10, 24, 30, 20, 18":
    // offsets mod 128, in 4-byte banks.
    let banks: Vec<i64> = rows.iter().map(|o| o % 128 / 4).collect();
    assert_eq!(banks, [0, 6, 12, 10, 24, 30, 20, 18]);
}

#[test]
fn seed_self_inverse_claim_fails_for_overlapping_fields() {
    // The CuTe dialect's descriptor grammar says its swizzle<3,4,3> is its own
    // inverse. With its formula the source field [3,6) and the destination
    // [4,7) overlap, and it is not.
    let f = BitFieldXor::new(3, 4, 3).unwrap();
    assert!(!f.is_involution());
    assert_eq!(f.apply(0x08), 0x18);
    assert_eq!(f.apply(0x18), 0x28);
    assert_ne!(f.apply(f.apply(0x08)), 0x08);
    // The inverse is its own function.
    assert_eq!(f.inverse_apply(0x18), 0x08);
    assert_eq!(f.inverse_apply(0x28), 0x18);
    // CuTe's Sw<3,4,3> is a different function, and is its own inverse.
    let sw = Swizzle::new(3, 4, 3).unwrap();
    assert_eq!(sw.apply(0x18), 0x18);
    assert_eq!(sw.apply(sw.apply(0x08)), 0x08);
}

#[test]
fn bit_field_xor_needs_distinct_fields() {
    let e = BitFieldXor::new(3, 4, 4).unwrap_err();
    assert!(e.to_string().contains("BitFieldXor<3,4,4> is not a swizzle"), "{e}");
    assert!(BitFieldXor::new(0, 4, 4).is_ok());
    assert!(BitFieldXor::new(1, -1, 4).is_err());
    assert!(BitFieldXor::new(10, 60, 0).is_err());
}

#[test]
fn parsing_and_printing_keep_the_two_apart() {
    let a: AnySwizzle = "Sw<3,4,3>".parse().unwrap();
    let b: AnySwizzle = "BitFieldXor<3,4,3>".parse().unwrap();
    assert_eq!(a, AnySwizzle::Cute(Swizzle::new(3, 4, 3).unwrap()));
    assert_eq!(b, AnySwizzle::BitFieldXor(BitFieldXor::new(3, 4, 3).unwrap()));
    assert_ne!(a.apply(0x18), b.apply(0x18));
    assert_eq!(a.to_string(), "Sw<3,4,3>");
    assert_eq!(b.to_string(), "BitFieldXor<3,4,3>");
    assert!("BitFieldXor<3,4,3>".parse::<Swizzle>().is_err());
    assert!("Sw<3,4,3>".parse::<BitFieldXor>().is_err());
    assert_eq!(" Sw< 3 , 4 ,-3 > ".parse::<Swizzle>().unwrap().to_string(), "Sw<3,4,-3>");
    for bad in ["Sw<3,4>", "sw<3,4,3>", "Sw(3,4,3)", "Sw<3,4,2>", "Swizzle<3,4,3>", "Sw<3,4,3>x"] {
        assert!(bad.parse::<AnySwizzle>().is_err(), "{bad}");
    }
    // The evaluator knows both, and applies them with eval.
    assert_eq!(eval("Sw<3,4,3>").unwrap().to_string(), "Sw<3,4,3>");
    assert_eq!(eval("eval(Sw<3,4,3>, 128)").unwrap().to_string(), "144");
    assert_eq!(eval("eval(BitFieldXor<3,4,3>, 24)").unwrap().to_string(), "40");
    let e = eval("eval(Sw<3,4,2>, 1)").unwrap_err();
    assert_eq!(e.column, 6);
    assert!(e.to_string().contains("|S| = 2 is less than B = 3"), "{e}");
}

/// Valid CuTe swizzle parameters whose fields lie below bit 14.
fn arb_swizzle() -> impl Strategy<Value = Swizzle> {
    (0i64..5, 0i64..5, 0i64..6, any::<bool>()).prop_filter_map("|S| >= B", |(b, m, s_extra, neg)| {
        let s = b + s_extra;
        Swizzle::new(b, m, if neg { -s } else { s }).ok()
    })
}

fn arb_bit_field_xor() -> impl Strategy<Value = BitFieldXor> {
    (0i64..6, 0i64..8, 0i64..8).prop_filter_map("M != S", |(b, m, s)| BitFieldXor::new(b, m, s).ok())
}

/// `f` permutes `[0, 2^n)`.
fn is_permutation_of_range(n: u32, f: impl Fn(i64) -> i64) -> bool {
    let size = 1i64 << n;
    let mut seen = vec![false; size as usize];
    for x in 0..size {
        let y = f(x);
        if !(0..size).contains(&y) || seen[y as usize] {
            return false;
        }
        seen[y as usize] = true;
    }
    true
}

proptest! {
    #[test]
    fn cute_swizzle_is_a_bijection_and_its_own_inverse(sw in arb_swizzle(), extra in 0u32..3, x in any::<i64>()) {
        prop_assert!(is_permutation_of_range(sw.highest_bit() + extra, |o| sw.apply(o)));
        prop_assert_eq!(sw.apply(sw.apply(x)), x);
        prop_assert_eq!(sw.inverse(), sw);
        // Only the zzz bits change, and they change by the yyy bits.
        prop_assert_eq!((sw.apply(x) ^ x) & !sw.zzz_mask(), 0);
        // The same function as its BitFieldXor form.
        prop_assert_eq!(sw.to_bit_field_xor().apply(x), sw.apply(x));
        prop_assert!(sw.to_bit_field_xor().is_involution());
    }

    #[test]
    fn bit_field_xor_is_a_bijection_with_a_correct_inverse(f in arb_bit_field_xor(), extra in 0u32..3, x in any::<i64>()) {
        prop_assert!(is_permutation_of_range(f.highest_bit() + extra, |o| f.apply(o)));
        prop_assert_eq!(f.inverse_apply(f.apply(x)), x);
        prop_assert_eq!(f.apply(f.inverse_apply(x)), x);
        // Its own inverse exactly when the fields are apart.
        let involution = (0..1i64 << f.highest_bit()).all(|o| f.apply(f.apply(o)) == o);
        prop_assert_eq!(involution, f.is_involution());
    }

    #[test]
    fn print_then_parse_gives_the_same_swizzle(sw in arb_swizzle(), f in arb_bit_field_xor()) {
        prop_assert_eq!(sw.to_string().parse::<Swizzle>().unwrap(), sw);
        prop_assert_eq!(f.to_string().parse::<BitFieldXor>().unwrap(), f);
    }
}
