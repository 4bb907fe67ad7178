//! Evaluation of all-static layouts and swizzles in constant evaluation.
//!
//! The composed-layout algebra (a swizzle passed through a layout, CuTe's
//! `composition(Layout, Swizzle)`) computes a new swizzle from a layout's
//! values and checks its answer point by point. Static values are known at
//! compile time, so both happen in `const` items: a layout's leaves are
//! gathered into a [`ConstLeaves`] table (an associated constant of
//! [`Congruent`](crate::Congruent)), which `const fn`s evaluate.

/// The most leaves a [`ConstLeaves`] table holds.
pub const MAX_CONST_LEAVES: usize = 32;

/// The flat leaves of a layout, for evaluation in `const` items. `static_`
/// is `false` when a leaf is a run-time value (the table is then unusable).
#[derive(Clone, Copy, Debug)]
pub struct ConstLeaves {
    n: usize,
    shape: [usize; MAX_CONST_LEAVES],
    stride: [usize; MAX_CONST_LEAVES],
    static_: bool,
}

impl ConstLeaves {
    /// No leaves.
    pub const EMPTY: ConstLeaves =
        ConstLeaves { n: 0, shape: [0; MAX_CONST_LEAVES], stride: [0; MAX_CONST_LEAVES], static_: true };

    /// One leaf `s:d`; `None` for a run-time value.
    pub const fn leaf(s: Option<usize>, d: Option<usize>) -> ConstLeaves {
        let mut t = ConstLeaves::EMPTY;
        match (s, d) {
            (Some(s), Some(d)) => {
                t.n = 1;
                t.shape[0] = s;
                t.stride[0] = d;
            }
            _ => t.static_ = false,
        }
        t
    }

    /// The leaves of `self`, then those of `other`.
    pub const fn concat(self, other: ConstLeaves) -> ConstLeaves {
        let mut t = self;
        assert!(self.n + other.n <= MAX_CONST_LEAVES, "a layout of more than 32 leaves in constant evaluation");
        let mut k = 0;
        while k < other.n {
            t.shape[t.n + k] = other.shape[k];
            t.stride[t.n + k] = other.stride[k];
            k += 1;
        }
        t.n += other.n;
        t.static_ = self.static_ && other.static_;
        t
    }

    /// The product of the extents.
    pub const fn size(&self) -> usize {
        assert!(self.static_, "a layout with a run-time leaf in constant evaluation");
        let (mut s, mut k) = (1usize, 0);
        while k < self.n {
            s *= self.shape[k];
            k += 1;
        }
        s
    }

    /// The layout at the integral coordinate `i` of its extended domain
    /// (paper 2.4.1: the last leaf unbounded), wrapping as the layouts'
    /// `index` does.
    pub const fn eval(&self, i: usize) -> usize {
        assert!(self.static_, "a layout with a run-time leaf in constant evaluation");
        let (mut rest, mut acc, mut k) = (i, 0usize, 0);
        while k < self.n {
            let c = if k + 1 == self.n { rest } else { rest % self.shape[k] };
            rest /= self.shape[k];
            acc = acc.wrapping_add(c.wrapping_mul(self.stride[k]));
            k += 1;
        }
        acc
    }
}

/// A static swizzle as numbers: its read mask `yyy`, its shift `s` (the
/// written mask is `yyy >> s`, a left shift for negative `s`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwizzleMasks {
    /// The bits read.
    pub yyy: usize,
    /// The shift from the read bits to the written ones.
    pub shift: i32,
}

impl SwizzleMasks {
    /// `o ^ ((o & yyy) >> s)`.
    pub const fn apply(&self, o: usize) -> usize {
        let y = o & self.yyy;
        o ^ if self.shift >= 0 { y >> self.shift } else { y << self.shift.unsigned_abs() }
    }

    /// The bits written.
    pub const fn zzz(&self) -> usize {
        if self.shift >= 0 { self.yyy >> self.shift } else { self.yyy << self.shift.unsigned_abs() }
    }
}

/// CuTe's `make_swizzle<Y,Z>()`: `(B, M, S)` of the swizzle that reads the
/// bits `y` and writes the bits `z`, or `None` where no `Sw<B,M,S>` does.
pub const fn make_swizzle(y: usize, z: usize) -> Option<(u32, u32, i32)> {
    if y.count_ones() != z.count_ones() {
        return None;
    }
    if y == 0 {
        return Some((0, 0, 0));
    }
    let (b, ty, tz) = (y.count_ones(), y.trailing_zeros(), z.trailing_zeros());
    let m = if ty < tz { ty } else { tz };
    let s = ty as i32 - tz as i32;
    if s.unsigned_abs() < b || m + s.unsigned_abs() + b > 63 {
        return None;
    }
    let yyy = ((1usize << b) - 1) << (m + if s > 0 { s as u32 } else { 0 });
    let masks = SwizzleMasks { yyy, shift: s };
    if yyy == y && masks.zzz() == z { Some((b, m, s)) } else { None }
}

/// A function of the domain `0..size` in constant evaluation: a layout,
/// a swizzle after a layout, or the identity of a size.
#[derive(Clone, Copy, Debug)]
pub struct ConstFn {
    /// The layout's leaves.
    pub leaves: ConstLeaves,
    /// The swizzle applied after it, if any.
    pub swizzle: Option<SwizzleMasks>,
    /// `true` for the identity `c ↦ c` on `0..leaves.size()`.
    pub identity: bool,
}

impl ConstFn {
    /// The function at `c`.
    pub const fn eval(&self, c: usize) -> usize {
        let x = if self.identity { c } else { self.leaves.eval(c) };
        match self.swizzle {
            Some(sw) => sw.apply(x),
            None => x,
        }
    }
}

/// The swizzle `A'` with `A ∘ sw = A' ∘ A` on the image of `dom`, as CuTe's
/// `composition(Layout, Swizzle)` finds it (`make_swizzle<A(yyy), A(zzz)>`),
/// checked at every point of `dom`: `A(sw(x)) == A'(A(x))` for `x = dom(c)`,
/// and, when `bounded`, `sw(x) < size(A)`. Panics (a compile error where it
/// is evaluated in a `const` item) with the reason otherwise.
pub const fn swizzle_through(sw: SwizzleMasks, a: ConstLeaves, dom: ConstFn, bounded: bool) -> (u32, u32, i32) {
    let (y, z) = (a.eval(sw.yyy), a.eval(sw.zzz()));
    let Some((b, m, s)) = make_swizzle(y, z) else {
        panic!(
            "this swizzle does not pass through the layout: the layout maps its masks to bits no Sw<B,M,S> reads and writes"
        )
    };
    let out = SwizzleMasks { yyy: ((1usize << b) - 1) << (m + if s > 0 { s as u32 } else { 0 }), shift: s };
    let (n, size_a) = (dom.leaves.size(), a.size());
    assert!(
        n <= 1 << 16,
        "a composed layout whose domain has more than 65536 points: its static algebra is checked point by point at compile time"
    );
    let mut c = 0;
    while c < n {
        let x = dom.eval(c);
        let moved = sw.apply(x);
        assert!(
            a.eval(moved) == out.apply(a.eval(x)),
            "the swizzle does not pass through the layout: CuTe's construction gives a different function"
        );
        assert!(!bounded || moved < size_a, "the swizzle moves an offset out of the inverse's domain");
        c += 1;
    }
    (b, m, s)
}
