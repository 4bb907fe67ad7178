//! Reference algorithms on tensors (CuTe's `algorithm/`): `fill`, `clear`,
//! `copy`, `copy_if`, `axpby`, `gemm`. They visit elements by coordinate,
//! so they work on any layouts, and on the thread parts of
//! [`partition_mut`](crate::Tensor::partition_mut).
//!
//! Every element is visited in the order of the integral coordinate
//! `0..size`. An element of a view past its storage (a ragged edge) is an
//! error; the elements before it have been written by then.

use crate::error::{LayoutError, Result};
use crate::int_tuple::IntTuple;
use crate::tensor::{ReadTensor, WriteTensor};
use std::ops::{Add, Mul};

fn same_size<A: ReadTensor + ?Sized, B: ReadTensor + ?Sized>(what: &str, a: &A, b: &B) -> Result<()> {
    let (x, y) = (a.layout().size(), b.layout().size());
    if x == y { Ok(()) } else { Err(LayoutError::SizeMismatch { what: what.to_string(), expected: x, found: y }) }
}

/// CuTe's `fill(dst, v)`: every element of `dst` becomes `v`.
///
/// Errors: `OutOfStorage` for an element past the storage.
///
/// ```
/// use cute_dynamic::{Layout, fill, make_tensor};
/// let mut data = [0u8; 8];
/// let mut t = make_tensor(&mut data[..], "(2,2):(1,4)".parse::<Layout>()?)?;
/// fill(&mut t, 7)?;
/// assert_eq!(data, [7, 7, 0, 0, 7, 7, 0, 0]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn fill<D: WriteTensor + ?Sized>(dst: &mut D, v: D::Elem) -> Result<()>
where
    D::Elem: Clone,
{
    for i in 0..dst.layout().size() {
        *dst.write(i)? = v.clone();
    }
    Ok(())
}

/// CuTe's `clear(dst)`: every element of `dst` becomes its type's default
/// (zero for numbers).
///
/// Errors: as [`fill`].
///
/// ```
/// use cute_dynamic::{Layout, clear, make_tensor};
/// let mut data = [5i32; 4];
/// let mut t = make_tensor(&mut data[..], "2:2".parse::<Layout>()?)?;
/// clear(&mut t)?;
/// assert_eq!(data, [0, 5, 0, 5]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn clear<D: WriteTensor + ?Sized>(dst: &mut D) -> Result<()>
where
    D::Elem: Clone + Default,
{
    fill(dst, D::Elem::default())
}

/// CuTe's `copy(src, dst)`: `dst(i) = src(i)` for every integral
/// coordinate `i`; the layouts may differ, the sizes may not.
///
/// Errors: `SizeMismatch` when the sizes differ, `OutOfStorage` for an
/// element past the storage.
///
/// ```
/// use cute_dynamic::{Layout, copy, make_tensor};
/// let src: Vec<i32> = (0..6).collect();
/// let mut dst = [0i32; 6];
/// let s = make_tensor(&src[..], "(2,3):(3,1)".parse::<Layout>()?)?;     // row-major
/// let mut d = make_tensor(&mut dst[..], "(2,3):(1,2)".parse::<Layout>()?)?; // column-major
/// copy(&s, &mut d)?;
/// assert_eq!(dst, [0, 3, 1, 4, 2, 5]);                                // the transpose
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn copy<S, D>(src: &S, dst: &mut D) -> Result<()>
where
    S: ReadTensor + ?Sized,
    D: WriteTensor<Elem = S::Elem> + ?Sized,
    S::Elem: Clone,
{
    same_size("copy", src, dst)?;
    for i in 0..src.layout().size() {
        *dst.write(i)? = src.read(i)?.clone();
    }
    Ok(())
}

/// CuTe's `copy_if(pred, src, dst)`: `dst(i) = src(i)` where `pred(i)` is
/// true; elements where it is false are neither read nor written, so a
/// predicate made with [`elem_less`](crate::elem_less) keeps a copy at a
/// ragged edge inside the storage.
///
/// Errors: `SizeMismatch` when the three sizes differ, `OutOfStorage` for
/// an element the predicate lets through past the storage.
///
/// ```
/// use cute_dynamic::{Layout, copy_if, make_tensor};
/// let src = [1, 2, 3, 4];
/// let mut dst = [0; 4];
/// let p = [true, false, false, true];
/// let l: Layout = "4:1".parse()?;
/// copy_if(&make_tensor(&p[..], l.clone())?, &make_tensor(&src[..], l.clone())?, &mut make_tensor(&mut dst[..], l)?)?;
/// assert_eq!(dst, [1, 0, 0, 4]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn copy_if<P, S, D>(pred: &P, src: &S, dst: &mut D) -> Result<()>
where
    P: ReadTensor<Elem = bool> + ?Sized,
    S: ReadTensor + ?Sized,
    D: WriteTensor<Elem = S::Elem> + ?Sized,
    S::Elem: Clone,
{
    same_size("copy_if (predicate and source)", pred, src)?;
    same_size("copy_if (source and destination)", src, dst)?;
    for i in 0..src.layout().size() {
        if *pred.read(i)? {
            *dst.write(i)? = src.read(i)?.clone();
        }
    }
    Ok(())
}

/// CuTe's `axpby(alpha, x, beta, y)`: `y(i) = alpha·x(i) + beta·y(i)`.
///
/// Errors: `SizeMismatch` when the sizes differ, `OutOfStorage` for an
/// element past the storage.
///
/// ```
/// use cute_dynamic::{Layout, axpby, make_tensor};
/// let x = [1.0, 2.0, 3.0];
/// let mut y = [10.0, 20.0, 30.0];
/// let l: Layout = "3:1".parse()?;
/// axpby(2.0, &make_tensor(&x[..], l.clone())?, 0.5, &mut make_tensor(&mut y[..], l)?)?;
/// assert_eq!(y, [7.0, 14.0, 21.0]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn axpby<X, Y, T>(alpha: T, x: &X, beta: T, y: &mut Y) -> Result<()>
where
    X: ReadTensor<Elem = T> + ?Sized,
    Y: WriteTensor<Elem = T> + ?Sized,
    T: Copy + Add<Output = T> + Mul<Output = T>,
{
    same_size("axpby", x, y)?;
    for i in 0..x.layout().size() {
        let xi = *x.read(i)?;
        let yi = y.write(i)?;
        *yi = alpha * xi + beta * *yi;
    }
    Ok(())
}

/// CuTe's `gemm(A, B, C)`: `C += A·B`, dispatched on the ranks of the
/// operands as CuTe does (each mode may itself be hierarchical; it is
/// indexed by one integer):
///
/// | A | B | C | meaning |
/// |---|---|---|---|
/// | `(V)` | `(V)` | `(V)` | `C(v) += A(v)·B(v)` |
/// | `(M)` | `(N)` | `(M,N)` | `C(m,n) += A(m)·B(n)` (outer product) |
/// | `(M,K)` | `(N,K)` | `(M,N)` | `C(m,n) += Σ_k A(m,k)·B(n,k)` |
/// | `(V,M)` | `(V,N)` | `(V,M,N)` | `C(v,m,n) += A(v,m)·B(v,n)` |
/// | `(V,M,K)` | `(V,N,K)` | `(V,M,N)` | `C(v,m,n) += Σ_k A(v,m,k)·B(v,n,k)` |
///
/// Errors: `RankMismatch` for any other combination of ranks,
/// `SizeMismatch` when the extents of `V`, `M`, `N` or `K` disagree,
/// `OutOfStorage` for an element past the storage.
///
/// ```
/// use cute_dynamic::{Layout, gemm, make_tensor};
/// // A is 2×3 row-major, B is 2×3 (N×K), C = A·Bᵀ is 2×2 column-major.
/// let a = [1, 2, 3, 4, 5, 6];
/// let b = [1, 0, 0, 0, 1, 0];
/// let mut c = [0; 4];
/// let ta = make_tensor(&a[..], "(2,3):(3,1)".parse::<Layout>()?)?;
/// let tb = make_tensor(&b[..], "(2,3):(3,1)".parse::<Layout>()?)?;
/// gemm(&ta, &tb, &mut make_tensor(&mut c[..], "(2,2):(1,2)".parse::<Layout>()?)?)?;
/// assert_eq!(c, [1, 4, 2, 5]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn gemm<A, B, C, T>(a: &A, b: &B, c: &mut C) -> Result<()>
where
    A: ReadTensor<Elem = T> + ?Sized,
    B: ReadTensor<Elem = T> + ?Sized,
    C: WriteTensor<Elem = T> + ?Sized,
    T: Copy + Add<Output = T> + Mul<Output = T>,
{
    let ranks = (a.layout().rank(), b.layout().rank(), c.layout().rank());
    let form = match ranks {
        (1, 1, 1) => Form::V,
        (1, 1, 2) => Form::Mn,
        (2, 2, 2) => Form::Mnk,
        (2, 2, 3) => Form::Vmn,
        (3, 3, 3) => Form::Vmnk,
        _ => {
            return Err(LayoutError::RankMismatch {
                what: format!(
                    "gemm of ranks A {}, B {}, C {} (supported: (1,1,1), (1,1,2), (2,2,2), (2,2,3), (3,3,3))",
                    ranks.0, ranks.1, ranks.2
                ),
                // B must have A's rank; then C has A's rank or one more.
                expected: ranks.0,
                found: if ranks.0 != ranks.1 { ranks.1 } else { ranks.2 },
            });
        }
    };
    // Each extent is read from the first operand that has it and checked
    // against the others (CuTe's static asserts, as errors).
    let (modes_a, modes_b, modes_c) = form.modes();
    let mut ext = [1i64; 4]; // V, M, N, K
    let mut seen = [false; 4];
    for (operand, modes, t) in [("A", modes_a, a.layout()), ("B", modes_b, b.layout()), ("C", modes_c, c.layout())] {
        for (i, &e) in modes.iter().enumerate() {
            let size = t.get(i).map_or(1, |l| l.size());
            if !seen[e] {
                (ext[e], seen[e]) = (size, true);
            } else if ext[e] != size {
                return Err(LayoutError::SizeMismatch {
                    what: format!("gemm: {} of {operand}", ["V", "M", "N", "K"][e]),
                    expected: ext[e],
                    found: size,
                });
            }
        }
    }
    // One integer for a rank-1 operand (its mode may be hierarchical).
    let at = |modes: &[usize], x: [i64; 4]| match modes {
        [e] => IntTuple::int(x[*e]),
        _ => IntTuple::flat(modes.iter().map(|&e| x[e])),
    };
    for k in 0..ext[3] {
        for n in 0..ext[2] {
            for m in 0..ext[1] {
                for v in 0..ext[0] {
                    let x = [v, m, n, k];
                    let p = *a.read(at(modes_a, x))? * *b.read(at(modes_b, x))?;
                    let d = c.write(at(modes_c, x))?;
                    *d = *d + p;
                }
            }
        }
    }
    Ok(())
}

/// The five forms of CuTe's gemm dispatch, by the extents (`V`=0, `M`=1,
/// `N`=2, `K`=3) each operand's modes stand for.
#[derive(Clone, Copy)]
enum Form {
    V,
    Mn,
    Mnk,
    Vmn,
    Vmnk,
}

impl Form {
    fn modes(self) -> (&'static [usize], &'static [usize], &'static [usize]) {
        match self {
            Form::V => (&[0], &[0], &[0]),
            Form::Mn => (&[1], &[2], &[1, 2]),
            Form::Mnk => (&[1, 3], &[2, 3], &[1, 2]),
            Form::Vmn => (&[0, 1], &[0, 2], &[0, 1, 2]),
            Form::Vmnk => (&[0, 1, 3], &[0, 2, 3], &[0, 1, 2]),
        }
    }
}
