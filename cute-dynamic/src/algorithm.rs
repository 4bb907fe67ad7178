//! Reference algorithms on tensors (CuTe's `algorithm/`): `fill`, `clear`,
//! `copy`, `copy_if`, `axpby`, `gemm`. They visit elements by coordinate,
//! so they work on any layouts, and on the thread parts of
//! [`partition_mut`](crate::Tensor::partition_mut).
//!
//! Every element is visited in the order of the integral coordinate
//! `0..size`. An element of a view past its storage (a ragged edge) is an
//! error; the elements before it have been written by then.

use crate::error::{LayoutError, Result};
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

/// The size of mode `m` of a tensor's layout.
fn mode_size<A: ReadTensor + ?Sized>(a: &A, m: usize) -> i64 {
    a.layout().get(m).map_or(1, |l| l.size())
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
    let check = |what: &str, x: i64, y: i64| {
        if x == y {
            Ok(())
        } else {
            Err(LayoutError::SizeMismatch { what: format!("gemm: {what}"), expected: x, found: y })
        }
    };
    match ranks {
        (1, 1, 1) => {
            check("V of A and B", a.layout().size(), b.layout().size())?;
            check("V of A and C", a.layout().size(), c.layout().size())?;
            for v in 0..a.layout().size() {
                let p = *a.read(v)? * *b.read(v)?;
                let d = c.write(v)?;
                *d = *d + p;
            }
        }
        (1, 1, 2) => {
            let (m, n) = (a.layout().size(), b.layout().size());
            check("M of A and C", m, mode_size(c, 0))?;
            check("N of B and C", n, mode_size(c, 1))?;
            for j in 0..n {
                for i in 0..m {
                    let p = *a.read(i)? * *b.read(j)?;
                    let d = c.write((i, j))?;
                    *d = *d + p;
                }
            }
        }
        (2, 2, 2) => {
            let (m, n, k) = (mode_size(a, 0), mode_size(b, 0), mode_size(a, 1));
            check("K of A and B", k, mode_size(b, 1))?;
            check("M of A and C", m, mode_size(c, 0))?;
            check("N of B and C", n, mode_size(c, 1))?;
            for kk in 0..k {
                for j in 0..n {
                    for i in 0..m {
                        let p = *a.read((i, kk))? * *b.read((j, kk))?;
                        let d = c.write((i, j))?;
                        *d = *d + p;
                    }
                }
            }
        }
        (2, 2, 3) => {
            let (v, m, n) = (mode_size(a, 0), mode_size(a, 1), mode_size(b, 1));
            check("V of A and B", v, mode_size(b, 0))?;
            check("V of A and C", v, mode_size(c, 0))?;
            check("M of A and C", m, mode_size(c, 1))?;
            check("N of B and C", n, mode_size(c, 2))?;
            for j in 0..n {
                for i in 0..m {
                    for w in 0..v {
                        let p = *a.read((w, i))? * *b.read((w, j))?;
                        let d = c.write((w, i, j))?;
                        *d = *d + p;
                    }
                }
            }
        }
        (3, 3, 3) => {
            let (v, m, n, k) = (mode_size(a, 0), mode_size(a, 1), mode_size(b, 1), mode_size(a, 2));
            check("V of A and B", v, mode_size(b, 0))?;
            check("V of A and C", v, mode_size(c, 0))?;
            check("K of A and B", k, mode_size(b, 2))?;
            check("M of A and C", m, mode_size(c, 1))?;
            check("N of B and C", n, mode_size(c, 2))?;
            for kk in 0..k {
                for j in 0..n {
                    for i in 0..m {
                        for w in 0..v {
                            let p = *a.read((w, i, kk))? * *b.read((w, j, kk))?;
                            let d = c.write((w, i, j))?;
                            *d = *d + p;
                        }
                    }
                }
            }
        }
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
    }
    Ok(())
}
