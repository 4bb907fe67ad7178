//! The integer arithmetic the rules share.

/// Quotient and remainder of `a` by `b` (truncating, as `/` and `%`), the
/// cheap cases first: integer division is the slowest instruction of the
/// algebra's walks, and its latency adds up along the chain of a leaf's
/// modes, while shapes and strides are most often equal, smaller, or powers
/// of two. `b` must not be 0.
///
/// ```
/// use cute_dynamic::kernel::divmod;
/// assert_eq!(divmod(12, 4), (3, 0));
/// assert_eq!(divmod(7, 3), (2, 1));
/// assert_eq!(divmod(-7, 2), (-3, -1));
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn divmod(a: i64, b: i64) -> (i64, i64) {
    if b > 0 && a >= 0 {
        if a < b {
            return (0, a);
        }
        if a == b {
            return (1, 0);
        }
        if b & (b - 1) == 0 {
            return (a >> b.trailing_zeros(), a & (b - 1));
        }
        if let (Ok(a32), Ok(b32)) = (u32::try_from(a), u32::try_from(b)) {
            return (i64::from(a32 / b32), i64::from(a32 % b32));
        }
    }
    (a / b, a % b)
}

/// `⌈a / b⌉` for non-negative `a` and positive `b`.
///
/// ```
/// use cute_dynamic::kernel::ceil_div;
/// assert_eq!(ceil_div(7, 2), 4);
/// assert_eq!(ceil_div(8, 2), 4);
/// assert_eq!(ceil_div(0, 3), 0);
/// ```
#[cfg_attr(not(debug_assertions), inline(always))]
pub fn ceil_div(a: i64, b: i64) -> i64 {
    // A power of two first: a divisor known to the compiler (a static
    // tile) then folds to a shift and a mask.
    if b > 0 && b & (b - 1) == 0 {
        return (a >> b.trailing_zeros()) + i64::from(a & (b - 1) != 0);
    }
    let (q, r) = divmod(a, b);
    q + i64::from(r != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divmod_matches_division() {
        for a in -300..300i64 {
            for b in (-70..70i64).filter(|&b| b != 0) {
                assert_eq!(divmod(a, b), (a / b, a % b), "{a} / {b}");
            }
        }
        let big = i64::MAX - 6;
        for b in [1, 2, 3, 1 << 40, (1 << 40) + 1, i64::MAX] {
            assert_eq!(divmod(big, b), (big / b, big % b));
        }
    }

    #[test]
    fn ceil_div_rounds_up() {
        for a in 0..200i64 {
            for b in 1..40i64 {
                assert_eq!(ceil_div(a, b), (a + b - 1) / b, "{a} / {b}");
            }
        }
        assert_eq!(ceil_div(i64::MAX, 2), i64::MAX / 2 + 1);
    }
}
