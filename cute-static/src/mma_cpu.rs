//! MMA atoms that run on the CPU: CuTe's portable `UniversalFMA`, a
//! portable `W`-lane FMA, and SIMD FMA atoms chosen at run time (x86-64
//! AVX2 + FMA and AVX-512, aarch64 NEON).
//!
//! A SIMD atom is one thread holding `W` lanes: shape `(W,1,1)`, A's values
//! `(1,W):(0,1)` (a column of `W` rows), B's `(1,1):(0,0)` (one value,
//! broadcast), C's `(1,W):(0,1)`. A tiled MMA of it over a micro-tile
//! gives a register tile of `W`-wide accumulators: the BLIS micro-kernel.
//!
//! Safety: a SIMD atom is a value that only its `new()` makes, and `new()`
//! returns `None` unless the CPU has the instructions (detected at run
//! time), so holding one proves that its `call` may run them. `dispatch`
//! runs a closure inside a function compiled for those features, where the
//! atom's instructions inline into the caller's loops.

use crate::layout::Layout;
use crate::mma_atom::{MmaAtom, MmaCall};
use core::marker::PhantomData;
use core::ops::{Add, Mul};
use typenum::{U0, U1};

/// The value of a portable atom: a zero-sized type over its element type
/// (and lane count), `new()`, `Default`, and `Clone`/`Copy` whatever the
/// parameters are (a derive would ask them to be `Clone`).
macro_rules! portable_atom {
    ($(#[$doc:meta])* $name:ident<$($P:ident),+>) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name<$($P),+>(PhantomData<fn() -> ($($P,)+)>);

        impl<$($P),+> $name<$($P),+> {
            /// The atom: a zero-sized value (all there is to it is in its
            /// type), made in `const` contexts too.
            ///
            /// ```
            /// # type T = f32;
            /// # type W = cute_static::typenum::U4;
            #[doc = concat!("use cute_static::", stringify!($name), ";")]
            #[doc = concat!(
                "const ATOM: ", stringify!($name), "<", stringify!($($P),+), "> = ", stringify!($name), "::new();"
            )]
            /// assert_eq!(size_of_val(&ATOM), 0);
            /// ```
            #[inline(always)]
            pub const fn new() -> Self {
                $name(PhantomData)
            }
        }
        impl<$($P),+> Default for $name<$($P),+> {
            #[inline(always)]
            fn default() -> Self {
                Self::new()
            }
        }
        impl<$($P),+> Clone for $name<$($P),+> {
            #[inline(always)]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<$($P),+> Copy for $name<$($P),+> {}
    };
}

portable_atom!(
    /// CuTe's `UniversalFMA`: one thread, one value each of A, B and C,
    /// `c = a·b + c` in plain arithmetic. Runs everywhere.
    ///
    /// ```
    /// use cute_static::{MmaCall, UniversalFma};
    /// let mut c = [1.0f32];
    /// UniversalFma::<f32>::new().call(&mut c, &[2.0], &[3.0]);
    /// assert_eq!(c, [7.0]);
    /// ```
    UniversalFma<T>
);

impl<T: 'static> MmaAtom for UniversalFma<T> {
    const NAME: &'static str = "UniversalFMA";
    type M = U1;
    type N = U1;
    type K = U1;
    type ThrId = Layout<U1, U0>;
    type LayoutATv = Layout<(U1, U1), (U0, U0)>;
    type LayoutBTv = Layout<(U1, U1), (U0, U0)>;
    type LayoutCTv = Layout<(U1, U1), (U0, U0)>;
}

impl<T: Copy + Mul<Output = T> + Add<Output = T> + 'static> MmaCall for UniversalFma<T> {
    type A = T;
    type B = T;
    type C = T;
    #[inline(always)]
    #[track_caller]
    fn call(&self, c: &mut [T], a: &[T], b: &[T]) {
        c[0] = a[0] * b[0] + c[0];
    }
}

portable_atom!(
    /// A portable `W`-lane FMA atom (`W` a typenum integer): the layouts of
    /// the SIMD atoms, computed by a plain loop (`c[i] = a[i]·b + c[i]`). The
    /// fallback of a kernel written for a SIMD atom, with the same tiles.
    ///
    /// ```
    /// use cute_static::{FmaLanes, MmaCall};
    /// use cute_static::typenum::U4;
    /// let mut c = [0.0f32; 4];
    /// FmaLanes::<f32, U4>::new().call(&mut c, &[1.0, 2.0, 3.0, 4.0], &[2.0]);
    /// assert_eq!(c, [2.0, 4.0, 6.0, 8.0]);
    /// ```
    FmaLanes<T, W>
);

// The layouts of a one-thread `W`-lane atom.
macro_rules! lanes_layouts {
    ($W:ty) => {
        type M = $W;
        type N = U1;
        type K = U1;
        type ThrId = Layout<U1, U0>;
        type LayoutATv = Layout<(U1, $W), (U0, U1)>;
        type LayoutBTv = Layout<(U1, U1), (U0, U0)>;
        type LayoutCTv = Layout<(U1, $W), (U0, U1)>;
    };
}

impl<T: 'static, W> MmaAtom for FmaLanes<T, W>
where
    W: typenum::Unsigned + Default + Copy + 'static,
    Layout<(U1, W), (U0, U1)>: crate::StaticLayout,
{
    const NAME: &'static str = "FmaLanes";
    lanes_layouts!(W);
}

impl<T, W> MmaCall for FmaLanes<T, W>
where
    T: Copy + Mul<Output = T> + Add<Output = T> + 'static,
    W: typenum::Unsigned + Default + Copy + 'static,
    Layout<(U1, W), (U0, U1)>: crate::StaticLayout,
{
    type A = T;
    type B = T;
    type C = T;
    #[inline(always)]
    #[track_caller]
    fn call(&self, c: &mut [T], a: &[T], b: &[T]) {
        let b = b[0];
        for (c, a) in c[..W::USIZE].iter_mut().zip(&a[..W::USIZE]) {
            *c = *a * b + *c;
        }
    }
}

#[cfg(all(feature = "std", target_arch = "x86_64"))]
pub use x86::{FmaF32x8, FmaF32x16};

#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[allow(unsafe_code)]
mod x86 {
    use super::*;
    use crate::mma_atom::AtomKernel;
    use core::arch::x86_64::*;
    use typenum::{U8, U16};

    // One x86 SIMD FMA atom: its type, its detection, its instruction and
    // the function compiled for its features that `dispatch` runs.
    macro_rules! x86_fma_atom {
        (
            $(#[$doc:meta])* $name:ident, $lanes:literal, $W:ty, $features:literal, $detect:expr,
            |$c:ident, $a:ident, $b:ident| $fma:expr
        ) => {
            $(#[$doc])*
            #[derive(Clone, Copy, Debug)]
            pub struct $name {
                // Private: only `new` makes one, after detecting the features.
                _detected: (),
            }

            impl $name {
                #[doc = concat!("The atom, when this CPU has ", $features, "; `None` otherwise.")]
                ///
                /// ```
                #[doc = concat!("use cute_static::", stringify!($name), ";")]
                #[doc = concat!("assert_eq!(", stringify!($name), "::new().is_some(), ", stringify!($detect), ");")]
                /// ```
                #[inline]
                pub fn new() -> Option<Self> {
                    $detect.then_some($name { _detected: () })
                }
            }

            impl MmaAtom for $name {
                const NAME: &'static str = concat!(stringify!($name), " (", $features, ")");
                lanes_layouts!($W);
            }

            impl MmaCall for $name {
                type A = f32;
                type B = f32;
                type C = f32;
                #[inline(always)]
                #[track_caller]
                fn call(&self, c: &mut [f32], a: &[f32], b: &[f32]) {
                    #[target_feature(enable = $features)]
                    #[inline]
                    unsafe fn fma($c: &mut [f32], $a: &[f32], $b: f32) {
                        // SAFETY: the caller gives `$lanes` values in each slice.
                        unsafe { $fma }
                    }
                    let (c, a, b) = (&mut c[..$lanes], &a[..$lanes], b[0]);
                    // SAFETY: the atom exists, so the CPU has the features;
                    // the slices hold `$lanes` values each.
                    unsafe { fma(c, a, b) }
                }
                #[inline(always)]
                fn dispatch<K: AtomKernel>(&self, k: K) -> K::Output {
                    #[target_feature(enable = $features)]
                    unsafe fn with_features<K: AtomKernel>(k: K) -> K::Output {
                        k.run()
                    }
                    // SAFETY: as in `call`.
                    unsafe { with_features(k) }
                }
            }
        };
    }

    x86_fma_atom!(
        /// An 8-lane `f32` FMA on AVX2 + FMA (`vfmadd231ps ymm`): shape
        /// `(8,1,1)`, one thread. Made only where the CPU has both.
        ///
        /// ```
        /// use cute_static::{FmaF32x8, MmaCall};
        /// if let Some(atom) = FmaF32x8::new() {
        ///     let mut c = [1.0f32; 8];
        ///     atom.call(&mut c, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0], &[2.0]);
        ///     assert_eq!(c, [3.0, 5.0, 7.0, 9.0, 11.0, 13.0, 15.0, 17.0]);
        /// }
        /// ```
        FmaF32x8, 8, U8, "avx2,fma", is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma"),
        |c, a, b| _mm256_storeu_ps(
            c.as_mut_ptr(),
            _mm256_fmadd_ps(_mm256_loadu_ps(a.as_ptr()), _mm256_set1_ps(b), _mm256_loadu_ps(c.as_ptr())),
        )
    );

    x86_fma_atom!(
        /// A 16-lane `f32` FMA on AVX-512F (`vfmadd231ps zmm`): shape
        /// `(16,1,1)`, one thread. Made only where the CPU has AVX-512F.
        ///
        /// ```
        /// use cute_static::{FmaF32x16, MmaCall};
        /// if let Some(atom) = FmaF32x16::new() {
        ///     let mut c = [0.0f32; 16];
        ///     atom.call(&mut c, &[1.0; 16], &[3.0]);
        ///     assert_eq!(c, [3.0; 16]);
        /// }
        /// ```
        FmaF32x16, 16, U16, "avx512f", is_x86_feature_detected!("avx512f"),
        |c, a, b| _mm512_storeu_ps(
            c.as_mut_ptr(),
            _mm512_fmadd_ps(_mm512_loadu_ps(a.as_ptr()), _mm512_set1_ps(b), _mm512_loadu_ps(c.as_ptr())),
        )
    );
}

#[cfg(target_arch = "aarch64")]
pub use arm::FmaF32x4;

#[cfg(target_arch = "aarch64")]
#[allow(unsafe_code)]
mod arm {
    use super::*;
    use core::arch::aarch64::*;
    use typenum::U4;

    /// A 4-lane `f32` FMA on NEON (`fmla v.4s`), which every aarch64 CPU
    /// has: shape `(4,1,1)`, one thread.
    #[derive(Clone, Copy, Debug)]
    pub struct FmaF32x4 {
        _detected: (),
    }

    impl FmaF32x4 {
        /// The atom (NEON is part of aarch64): always `Some`.
        ///
        /// ```
        /// use cute_static::FmaF32x4;
        /// assert!(FmaF32x4::new().is_some());
        /// ```
        #[inline]
        pub fn new() -> Option<Self> {
            Some(FmaF32x4 { _detected: () })
        }
    }

    impl MmaAtom for FmaF32x4 {
        const NAME: &'static str = "FmaF32x4 (NEON)";
        lanes_layouts!(U4);
    }

    impl MmaCall for FmaF32x4 {
        type A = f32;
        type B = f32;
        type C = f32;
        #[inline(always)]
        #[track_caller]
        fn call(&self, c: &mut [f32], a: &[f32], b: &[f32]) {
            let (c, a, b) = (&mut c[..4], &a[..4], b[0]);
            // SAFETY: NEON is part of the aarch64 target; the slices hold
            // 4 values each.
            unsafe {
                let v = vfmaq_f32(vld1q_f32(c.as_ptr()), vld1q_f32(a.as_ptr()), vdupq_n_f32(b));
                vst1q_f32(c.as_mut_ptr(), v);
            }
        }
    }
}
