//! Layouts whose strides are scaled bases (`(4,8):(1@0,1@1)`): CuTe's
//! identity layouts and the coordinate layouts built from them.
//!
//! Such a layout maps a coordinate to a coordinate (an arithmetic tuple),
//! not to an integer. It is kept apart from [`Layout`] (whose strides are
//! integers); the operations it supports are stated on each function, and
//! anything else is an error.

use crate::basis::{BasisTuple, ScaledBasis};
use crate::error::{LayoutError, Result, checked_add, checked_mul};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;
use crate::tiler::{AsTiler, TilerRef};
use std::fmt;

/// A stride leaf: an integer or a scaled basis.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Leaf {
    Int(i64),
    Basis(ScaledBasis),
}

/// A layout with scaled-basis strides: `shape : stride`, the stride a tree
/// of scaled bases (and integers) congruent to the shape.
///
/// ```
/// use cute_dynamic::make_identity_layout;
/// let id = make_identity_layout(&"(2,(3,4))".parse()?)?;
/// assert_eq!(id.to_string(), "(2,(3,4)):(1@0,(1@0@1,1@1@1))");
/// assert_eq!(id.eval(7)?.to_string(), "(1,(0,1))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasisLayout {
    shape: IntTuple,
    stride: BasisTuple,
    /// The stride leaves in order.
    leaves: Vec<Leaf>,
}

fn collect_leaves(t: &BasisTuple, out: &mut Vec<Leaf>) {
    match t {
        BasisTuple::Int(v) => out.push(Leaf::Int(*v)),
        BasisTuple::Basis(b) => out.push(Leaf::Basis(b.clone())),
        BasisTuple::Tuple(items) => items.iter().for_each(|i| collect_leaves(i, out)),
    }
}

fn congruent(shape: &IntTuple, stride: &BasisTuple) -> bool {
    match stride {
        BasisTuple::Int(_) | BasisTuple::Basis(_) => shape.is_int(),
        BasisTuple::Tuple(items) => {
            !shape.is_int() && shape.rank() == items.len() && shape.modes().zip(items).all(|(s, d)| congruent(&s, d))
        }
    }
}

/// The tree of `like`'s structure with the given leaves.
fn tree_like(like: &IntTuple, leaves: &mut impl Iterator<Item = Leaf>) -> BasisTuple {
    if like.is_int() {
        match leaves.next() {
            Some(Leaf::Basis(b)) => BasisTuple::Basis(b),
            Some(Leaf::Int(v)) => BasisTuple::Int(v),
            None => BasisTuple::Int(0),
        }
    } else {
        BasisTuple::Tuple(like.modes().map(|m| tree_like(&m, leaves)).collect())
    }
}

/// An arithmetic tuple being summed: an integer or a tuple of them.
#[derive(Clone, Debug)]
enum ATuple {
    Int(i64),
    Tup(Vec<ATuple>),
}

impl ATuple {
    /// `self += k · E<path>`.
    fn add_basis(&mut self, path: &[u32], k: i64) -> Result<()> {
        // Adding the integer 0 changes nothing (stride-0 modes of a result).
        if k == 0 && path.is_empty() {
            return Ok(());
        }
        match path.split_first() {
            None => match self {
                ATuple::Int(v) => {
                    *v = checked_add(*v, k, "basis layout evaluation")?;
                    Ok(())
                }
                ATuple::Tup(_) => Err(LayoutError::Unsupported {
                    what: "adding a scaled basis at a tuple of the coordinate".to_string(),
                }),
            },
            Some((&i, rest)) => {
                if let ATuple::Int(0) = self {
                    *self = ATuple::Tup(Vec::new());
                }
                match self {
                    ATuple::Tup(items) => {
                        let i = i as usize;
                        while items.len() <= i {
                            items.push(ATuple::Int(0));
                        }
                        items[i].add_basis(rest, k)
                    }
                    ATuple::Int(_) => Err(LayoutError::Unsupported {
                        what: "adding a scaled basis below an integer of the coordinate".to_string(),
                    }),
                }
            }
        }
    }

    fn to_int_tuple(&self) -> IntTuple {
        match self {
            ATuple::Int(v) => IntTuple::int(*v),
            ATuple::Tup(items) => IntTuple::tuple(items.iter().map(ATuple::to_int_tuple)),
        }
    }
}

/// CuTe's `make_identity_layout(shape)`: the shape with the shape's own
/// bases as strides (mode `i` has `1@i`; sub-mode `j` of mode `i` has
/// `1@j@i`, CuTe's `E<i,j>`), so that every coordinate maps to itself.
///
/// Errors: `NonPositiveShape` for an extent below 1, `Overflow` when the
/// size does not fit in `i64`, `Limit` for a rank above
/// [`MAX_BASIS_INDEX`](crate::MAX_BASIS_INDEX) + 1 or a nesting deeper than
/// [`MAX_BASIS_DEPTH`](crate::MAX_BASIS_DEPTH).
///
/// ```
/// use cute_dynamic::make_identity_layout;
/// assert_eq!(make_identity_layout(&"(4,8)".parse()?)?.to_string(), "(4,8):(1@0,1@1)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_identity_layout(shape: &IntTuple) -> Result<BasisLayout> {
    fn bases(shape: &IntTuple, path: &mut Vec<u32>) -> Result<BasisTuple> {
        if shape.is_int() {
            return Ok(BasisTuple::Basis(ScaledBasis::new(1, path)?));
        }
        let mut modes = Vec::with_capacity(shape.rank());
        for (i, m) in shape.modes().enumerate() {
            path.push(u32::try_from(i).unwrap_or(u32::MAX));
            modes.push(bases(&m, path)?);
            path.pop();
        }
        Ok(BasisTuple::Tuple(modes))
    }
    // A scalar shape is a rank-1 coordinate space: `4:1@0`.
    let stride = if shape.is_int() { BasisTuple::Basis(ScaledBasis::unit0()) } else { bases(shape, &mut Vec::new())? };
    BasisLayout::new(shape.clone(), stride)
}

impl BasisLayout {
    /// `shape : stride`; errors if they are not congruent
    /// ([`LayoutError::NotCongruent`]) or an extent is below 1.
    ///
    /// ```
    /// use cute_dynamic::{BasisLayout, parse_descriptor};
    /// let t = BasisLayout::new("(8,4)".parse()?, parse_descriptor("(1@1, 1@0)")?.normalize()?)?;
    /// assert_eq!(t.to_string(), "(8,4):(1@1,1@0)");
    /// assert_eq!(t.eval(10)?.to_string(), "(1,2)"); // 10 is (2,1): 2 along E<1>, 1 along E<0>
    /// assert!(BasisLayout::new("(8,4)".parse()?, parse_descriptor("(1@0)")?.normalize()?).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn new(shape: IntTuple, stride: BasisTuple) -> Result<BasisLayout> {
        if !congruent(&shape, &stride) {
            return Err(LayoutError::NotCongruent { shape: shape.to_string(), stride: stride.to_string() });
        }
        if shape.leaves().any(|s| s < 1) {
            return Err(LayoutError::NonPositiveShape { shape: shape.to_string() });
        }
        shape.size()?;
        let mut leaves = Vec::new();
        collect_leaves(&stride, &mut leaves);
        Ok(BasisLayout { shape, stride, leaves })
    }

    /// The shape.
    ///
    /// ```
    /// use cute_dynamic::make_identity_layout;
    /// assert_eq!(make_identity_layout(&"(4,8)".parse()?)?.shape().to_string(), "(4,8)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn shape(&self) -> &IntTuple {
        &self.shape
    }

    /// The stride tree.
    ///
    /// ```
    /// use cute_dynamic::make_identity_layout;
    /// assert_eq!(make_identity_layout(&"(4,8)".parse()?)?.stride().to_string(), "(1@0,1@1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn stride(&self) -> &BasisTuple {
        &self.stride
    }

    /// The size of the domain.
    ///
    /// ```
    /// use cute_dynamic::make_identity_layout;
    /// assert_eq!(make_identity_layout(&"(4,8)".parse()?)?.size(), 32);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn size(&self) -> i64 {
        self.shape.leaves().product()
    }

    /// The coordinate (arithmetic tuple) at the integral coordinate
    /// `0 <= i < size()`: `Σ c_k · stride_k`, with the tuple as long as the
    /// largest basis index needs.
    ///
    /// ```
    /// use cute_dynamic::make_identity_layout;
    /// let id = make_identity_layout(&"(4,8)".parse()?)?;
    /// assert_eq!(id.eval(9)?.to_string(), "(1,2)"); // 9 = 1 + 2·4
    /// assert!(id.eval(32).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn eval(&self, i: i64) -> Result<IntTuple> {
        if i < 0 || i >= self.size() {
            return Err(LayoutError::OutOfBounds { coord: i.to_string(), shape: self.shape.to_string() });
        }
        // The coordinate has every mode a basis names, zeros included (the
        // identity of `(4,8)` at 0 is `(0,0)`).
        let mut acc = ATuple::Int(0);
        for leaf in &self.leaves {
            if let Leaf::Basis(b) = leaf {
                acc.add_basis(b.path(), 0)?;
            }
        }
        let mut rest = i;
        for (s, leaf) in self.shape.leaves().zip(&self.leaves) {
            let c = rest % s;
            rest /= s;
            match leaf {
                Leaf::Int(d) => acc.add_basis(&[], checked_mul(c, *d, "basis layout evaluation")?)?,
                Leaf::Basis(b) => acc.add_basis(b.path(), checked_mul(c, b.scale(), "basis layout evaluation")?)?,
            }
        }
        Ok(acc.to_int_tuple())
    }

    /// Runs an operation of integer layouts on this layout, by giving each
    /// distinct basis `E<p>` an integer weight `M^j` so large that the
    /// algebra can neither merge unlike bases (coalescing compares
    /// `s·d` with the next stride) nor mix them in a result stride, then
    /// reading the weights back. `bound` is the largest stride magnitude the
    /// operation multiplies the strides of `self` by. Too large a layout for
    /// the weights to fit in 63 bits is an error, never a wrong layout.
    fn through_weights(&self, bound: i64, op: impl FnOnce(&Layout) -> Result<Layout>) -> Result<BasisLayout> {
        let mut paths: Vec<&[u32]> = Vec::new();
        let mut max_k = 1i64;
        for leaf in &self.leaves {
            match leaf {
                Leaf::Basis(b) => {
                    if !paths.contains(&b.path()) {
                        paths.push(b.path());
                    }
                    max_k = max_k.max(b.scale().checked_abs().unwrap_or(i64::MAX));
                }
                Leaf::Int(_) => {
                    return Err(LayoutError::Unsupported {
                        what: format!("the algebra on {self}, whose strides mix integers and bases"),
                    });
                }
            }
        }
        let max_s = self.shape.leaves().max().unwrap_or(1);
        let too_big = || LayoutError::Unsupported { what: format!("the algebra on {self}: its values are too large") };
        // M > |scale| · max(bound, shape): every stride a result can have,
        // divided by its weight, stays below M.
        let m = max_k
            .checked_mul(bound.max(max_s).max(1))
            .and_then(|v| v.checked_add(1))
            .and_then(|v| u64::try_from(v).ok())
            .and_then(u64::checked_next_power_of_two)
            .and_then(|v| i64::try_from(v).ok())
            .ok_or_else(too_big)?;
        let mut weights = Vec::with_capacity(paths.len());
        let mut w = 1i64;
        for _ in &paths {
            weights.push(w);
            w = w.checked_mul(m).ok_or_else(too_big)?;
        }
        let mut enc = self.shape.clone();
        let vals: Vec<i64> = self
            .leaves
            .iter()
            .map(|l| match l {
                Leaf::Basis(b) => {
                    let j = paths.iter().position(|p| *p == b.path()).unwrap_or(0);
                    b.scale().checked_mul(weights[j]).ok_or_else(too_big)
                }
                Leaf::Int(v) => Ok(*v),
            })
            .collect::<Result<_>>()?;
        enc.vals_mut().copy_from_slice(&vals);
        let encoded = Layout::new(self.shape.clone(), enc)?;
        let r = op(&encoded)?;
        let mut out = Vec::with_capacity(r.stride().leaf_count());
        for v in r.stride().leaves() {
            if v == 0 {
                out.push(Leaf::Int(0));
                continue;
            }
            let a = v.checked_abs().ok_or_else(too_big)?;
            let j = weights.iter().rposition(|&w| w <= a).unwrap_or(0);
            if a % weights[j] != 0 || (j + 1 < weights.len() && a / weights[j] >= m) {
                return Err(too_big());
            }
            out.push(Leaf::Basis(ScaledBasis::new(v / weights[j], paths[j])?));
        }
        let stride = tree_like(r.stride(), &mut out.into_iter());
        BasisLayout::new(r.shape().clone(), stride)
    }

    /// `self ∘ tiler`, the composition of a basis layout with an integer
    /// layout or tiler (identity((4,8)) ∘ (2,4):(1,4) = (2,4):(1@0,1@1)).
    /// Accepts layouts whose strides are all bases; like bases merge when
    /// coalescing, unlike never do. Post-condition (checked in the tests):
    /// `R(i) = self(B(i))` as coordinates.
    ///
    /// ```
    /// use cute_dynamic::{Layout, make_identity_layout};
    /// let id = make_identity_layout(&"(4,8)".parse()?)?;
    /// let r = id.composition(&"(2,4):(1,4)".parse::<Layout>()?)?;
    /// assert_eq!(r.to_string(), "(2,4):(1@0,1@1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn composition<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<BasisLayout> {
        let bound = max_stride(tiler)?;
        self.through_weights(bound, |a| crate::composition(a, tiler))
    }

    /// `logical_divide(self, tiler)`, as [`composition`](Self::composition)
    /// accepts (`logical_divide(identity((1000,500)), <128,64>)` =
    /// `((128,8),(64,8)):((1@0,128@0),(1@1,64@1))`).
    ///
    /// ```
    /// use cute_dynamic::{Tiler, make_identity_layout};
    /// let id = make_identity_layout(&"(1000,500)".parse()?)?;
    /// let t: Tiler = "<128,64>".parse()?;
    /// assert_eq!(id.logical_divide(&t)?.to_string(), "((128,8),(64,8)):((1@0,128@0),(1@1,64@1))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn logical_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<BasisLayout> {
        let bound = max_stride(tiler)?.max(self.size());
        self.through_weights(bound, |a| crate::logical_divide(a, tiler))
    }

    /// `zipped_divide(self, tiler)`, as [`logical_divide`](Self::logical_divide).
    ///
    /// ```
    /// use cute_dynamic::{Tiler, make_identity_layout};
    /// let id = make_identity_layout(&"(1000,500)".parse()?)?;
    /// let t: Tiler = "<128,64>".parse()?;
    /// assert_eq!(id.zipped_divide(&t)?.to_string(), "((128,64),(8,8)):((1@0,1@1),(128@0,64@1))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn zipped_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<BasisLayout> {
        let bound = max_stride(tiler)?.max(self.size());
        self.through_weights(bound, |a| crate::zipped_divide(a, tiler))
    }

    /// `tiled_divide(self, tiler)`, as [`logical_divide`](Self::logical_divide)
    /// (`zipped_divide` with the rest modes unpacked).
    ///
    /// ```
    /// use cute_dynamic::{Tiler, make_identity_layout};
    /// let id = make_identity_layout(&"(8,8)".parse()?)?;
    /// let t: Tiler = "<2,4>".parse()?;
    /// assert_eq!(id.tiled_divide(&t)?.to_string(), "((2,4),4,2):((1@0,1@1),2@0,4@1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn tiled_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<BasisLayout> {
        let bound = max_stride(tiler)?.max(self.size());
        self.through_weights(bound, |a| crate::tiled_divide(a, tiler))
    }

    /// `flat_divide(self, tiler)`, as [`logical_divide`](Self::logical_divide)
    /// (`zipped_divide` with both modes unpacked).
    ///
    /// ```
    /// use cute_dynamic::{Tiler, make_identity_layout};
    /// let id = make_identity_layout(&"(8,8)".parse()?)?;
    /// let t: Tiler = "<2,4>".parse()?;
    /// assert_eq!(id.flat_divide(&t)?.to_string(), "(2,4,4,2):(1@0,1@1,2@0,4@1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn flat_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<BasisLayout> {
        let bound = max_stride(tiler)?.max(self.size());
        self.through_weights(bound, |a| crate::flat_divide(a, tiler))
    }

    /// `logical_product(self, tiler)`, `A ⊗ B = (A, A* ∘ B)` along one
    /// codomain mode: a layout whose leaves all have one basis `E<p>` is
    /// multiplied as the integer layout of their scales, with the result's
    /// strides `k@p`; a tiler `<B0, B1, ...>` applies mode by mode (modes
    /// past it are kept), so an identity layout tiles its own coordinates
    /// (`logical_product(identity((4,8)), <2,2>)` =
    /// `((4,2),(8,2)):((1@0,4@0),(1@1,8@1))`, the coordinates of the
    /// `(8,16)` box). Post-condition (checked in the tests): along each
    /// codomain mode, the integer product's. Errors: `Unsupported` for a
    /// layout (or mode, by a tiler) with more than one basis or integer
    /// strides, `RankMismatch` for a tiler longer than the layout, and the
    /// integer product's errors.
    ///
    /// ```
    /// use cute_dynamic::{Tiler, make_identity_layout};
    /// let id = make_identity_layout(&"(4,8)".parse()?)?;
    /// let t: Tiler = "<2,2>".parse()?;
    /// assert_eq!(id.logical_product(&t)?.to_string(), "((4,2),(8,2)):((1@0,4@0),(1@1,8@1))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn logical_product(&self, tiler: &Tiler) -> Result<BasisLayout> {
        match tiler {
            Tiler::Tuple(ts) => {
                if ts.len() > self.shape.rank() {
                    return Err(LayoutError::RankMismatch {
                        what: format!("logical_product of {self} by a tiler of {} modes", ts.len()),
                        expected: self.shape.rank(),
                        found: ts.len(),
                    });
                }
                let modes = (0..self.shape.rank())
                    .map(|i| {
                        let m = Selectable::mode(self, i).ok_or_else(|| LayoutError::RankMismatch {
                            what: format!("mode {i} of {self}"),
                            expected: self.shape.rank(),
                            found: i + 1,
                        })?;
                        match ts.get(i) {
                            Some(t) => m.logical_product(t),
                            None => Ok(m),
                        }
                    })
                    .collect::<Result<Vec<_>>>()?;
                Selectable::join(modes)
            }
            Tiler::Layout(b) => {
                let mut path: Option<&[u32]> = None;
                let mut scales = Vec::with_capacity(self.leaves.len());
                for leaf in &self.leaves {
                    match leaf {
                        Leaf::Basis(sb) if path.is_none_or(|p| p == sb.path()) => {
                            path = Some(sb.path());
                            scales.push(sb.scale());
                        }
                        _ => {
                            return Err(LayoutError::Unsupported {
                                what: format!(
                                    "logical_product of {self}: its strides are not all along one basis (a tiler <...> multiplies mode by mode)"
                                ),
                            });
                        }
                    }
                }
                let path = path.unwrap_or(&[0]);
                let mut enc = self.shape.clone();
                enc.vals_mut().copy_from_slice(&scales);
                let r = crate::logical_product(&Layout::new(self.shape.clone(), enc)?, b)?;
                let stride = r
                    .stride()
                    .leaves()
                    .map(|d| if d == 0 { Ok(Leaf::Int(0)) } else { ScaledBasis::new(d, path).map(Leaf::Basis) })
                    .collect::<Result<Vec<_>>>()?;
                BasisLayout::new(r.shape().clone(), tree_like(r.shape(), &mut stride.into_iter()))
            }
        }
    }

    /// The right inverse (paper Table 5 with `e_i` strides, which CuTe C++
    /// does not implement): an integer layout `R` over the codomain, one
    /// mode per codomain mode, nested as the codomain is (mode `p` for the
    /// coordinate along `E<p>`, mode `(p, q)` for `E<p,q>` = `1@q@p`), with
    /// `self(R(c)) == c` for every codomain coordinate `c` it covers
    /// (`right_inverse((4,8):(1@0,1@1))` = `(4,8):(1,4)`;
    /// `right_inverse(make_identity_layout((2,(3,4))))` = `(2,(3,4)):(1,(2,6))`).
    ///
    /// Mode `p` of `R` is the integer right inverse of the leaves with basis
    /// `E<p>` (their scales as strides), moved onto `self`'s domain; a
    /// codomain mode no basis names (`E<0>` when only `E<1>` occurs) is
    /// `1:0`. Accepts any bases and stride-0 integer leaves (read at
    /// coordinate 0). Errors: `Unsupported` for a nonzero integer stride
    /// and for bases that name a mode and a sub-mode of it (`1@1` with
    /// `1@0@1`: no coordinate has both).
    ///
    /// ```
    /// use cute_dynamic::{BasisLayout, parse_descriptor};
    /// let t = BasisLayout::new("(8,4)".parse()?, parse_descriptor("(1@1, 1@0)")?.normalize()?)?;
    /// assert_eq!(t.right_inverse()?.to_string(), "(4,8):(8,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn right_inverse(&self) -> Result<Layout> {
        self.inverse(|l| Ok(crate::right_inverse(l)), false)
    }

    /// The left inverse (paper Table 6 with `e_i` strides): an integer
    /// layout `L` over the codomain, shaped as
    /// [`right_inverse`](Self::right_inverse)'s, with `L(self(i)) == i` for
    /// every `i` of an injective `self` (`left_inverse((4,(4,2)):(1@1,(1@0,6@1)))`
    /// = `(4,(6,2)):(4,(1,16))`). Mode `p` is the integer left inverse of
    /// the leaves with basis `E<p>`, moved onto `self`'s domain. Accepts what
    /// `right_inverse` does. Errors: as `right_inverse`, and `NotInjective`
    /// or `NoLayout` when the integer left inverse of the leaves of one
    /// codomain mode refuses them, or when the integer
    /// left inverse does not carry over to `self`'s whole domain (checked
    /// by brute force, eq. (26), where the integer one was searched rather
    /// than built from nested strides: a searched inverse of leaves that
    /// are not neighbours in `self`'s domain, `(2,2,2):(3@0,1@1,2@0)`).
    /// Non-injective layouts get what eq. (26) asks, read in the domains:
    /// the integer left inverse of the leaves is the library's own form
    /// (the paper's, or its search), never one of CuTe's forms that are
    /// read on the extended domains (see [`crate::left_inverse`]).
    ///
    /// ```
    /// use cute_dynamic::{BasisLayout, parse_descriptor};
    /// let t = BasisLayout::new("(2,2)".parse()?, parse_descriptor("(1@1, 1@0)")?.normalize()?)?;
    /// assert_eq!(t.left_inverse()?.to_string(), "(2,2):(2,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn left_inverse(&self) -> Result<Layout> {
        self.inverse(crate::inverse::domain_left_inverse, true)
    }

    /// Both inverses. The coordinate along `E<p>` depends only on the
    /// leaves with basis `E<p>`, and those leaves are disjoint digits of
    /// the domain index, so the inverse is, codomain mode by codomain mode,
    /// the integer inverse `I_p` of those leaves (over their own domain),
    /// with each of its strides (an index of that sub-domain) translated
    /// into `self`'s domain index.
    fn inverse(&self, inv: impl Fn(&Layout) -> Result<Layout>, left: bool) -> Result<Layout> {
        // The leaves of each distinct path: (shape, scale, domain prefix).
        let mut groups: Vec<PathLeaves<'_>> = Vec::new();
        // Which group each path has (a map, so that many paths stay linear).
        let mut group_of: std::collections::HashMap<&[u32], usize> = std::collections::HashMap::new();
        let mut prefix = 1i64;
        for (s, leaf) in self.shape.leaves().zip(&self.leaves) {
            match leaf {
                Leaf::Basis(b) => match group_of.get(b.path()) {
                    Some(&g) => groups[g].1.push((s, b.scale(), prefix)),
                    None => {
                        group_of.insert(b.path(), groups.len());
                        groups.push((b.path(), vec![(s, b.scale(), prefix)]));
                    }
                },
                Leaf::Int(0) => {}
                Leaf::Int(_) => {
                    return Err(LayoutError::Unsupported {
                        what: format!("the inverse of {self}, whose strides mix integers and bases"),
                    });
                }
            }
            // The size fits (checked at construction), so every prefix does.
            prefix *= s;
        }
        let mut modes = Vec::with_capacity(groups.len());
        for (path, leaves) in &groups {
            let sub =
                Layout::new(IntTuple::flat(leaves.iter().map(|l| l.0)), IntTuple::flat(leaves.iter().map(|l| l.1)))?;
            let r = inv(&sub).map_err(|e| self.rename(e, path))?;
            let moved = self.onto_domain(&r, leaves, path)?;
            if left && !self.undoes(&moved, leaves) {
                return Err(LayoutError::NoLayout {
                    operation: "left_inverse",
                    layout: self.to_string(),
                    reason: format!(
                        "along {}, the left inverse {r} of the leaves {sub} does not carry over to the whole domain",
                        ScaledBasis::new(1, path).map(|b| b.to_string()).unwrap_or_default()
                    ),
                });
            }
            modes.push((*path, moved));
        }
        modes.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let paths: Vec<&[u32]> = modes.iter().map(|m| m.0).collect();
        let r = self.codomain_tree(&paths, 0, &mut |p| {
            modes.binary_search_by(|m| m.0.cmp(p)).map_or_else(|_| Layout::scalar(1, 0), |k| Ok(modes[k].1.clone()))
        })?;
        // A codomain of one mode still has a mode per codomain mode.
        if paths.iter().all(|p| p.len() == 1) && r.shape().is_int() {
            return crate::make_layout(&[r]);
        }
        Ok(r)
    }

    /// The layout shaped as the codomain tree of the sorted `paths` (from
    /// index `depth` on): a leaf per path, tuples for shared prefixes,
    /// `1:0` for indices no path names.
    fn codomain_tree<A: Selectable>(
        &self,
        paths: &[&[u32]],
        depth: usize,
        leaf: &mut impl FnMut(&[u32]) -> Result<A>,
    ) -> Result<A> {
        if let [p] = paths
            && p.len() == depth
        {
            return leaf(p);
        }
        if let Some(p) = paths.iter().find(|p| p.len() == depth) {
            let q = paths.iter().find(|q| q.len() > depth).copied().unwrap_or(p);
            return Err(LayoutError::Unsupported {
                what: format!(
                    "the inverse of {self}: its bases {} and {} name a mode and a sub-mode of it",
                    ScaledBasis::new(1, p)?,
                    ScaledBasis::new(1, q)?
                ),
            });
        }
        // Sorted, the paths of each index `i` at this depth are one run.
        let n = paths.iter().map(|p| p[depth] as usize + 1).max().unwrap_or(1);
        let mut modes = Vec::with_capacity(n);
        let mut rest = paths;
        for i in 0..n {
            let run = rest.iter().take_while(|p| p[depth] as usize == i).count();
            let (sub, after) = rest.split_at(run);
            rest = after;
            modes.push(if sub.is_empty() { A::constant(1)? } else { self.codomain_tree(sub, depth + 1, leaf)? });
        }
        A::join(modes)
    }

    /// The complement in the paper's form (Table 7, with `e_i` strides):
    /// one mode per codomain mode, nested as the bases are, mode `p` the
    /// integer complement of the leaves along `E<p>` with its strides `k@p`
    /// (`complement((4,8):(1@0,1@1))` = `(1,1):(4@0,8@1)`;
    /// `complement((4,(4,2)):(1@1,(1@0,12@1)))` =
    /// `(1,(3,1)):(4@0,(4@1,24@1))`).
    ///
    /// Without a cotarget each mode is [`complement_full`](crate::complement_full)
    /// of its leaves (the cotarget their cosize, the last mode kept: it is
    /// where the next replica starts); with one, `cotarget` has an extent
    /// at each codomain mode (`(8,16)` for `E<0>`, `E<1>`) and mode `p` is
    /// [`complement`](fn@crate::complement) of its leaves by that extent (a
    /// mode with nothing left is `1:0`). Post-conditions (checked in the
    /// tests), along each codomain mode: disjoint from and ordered as the
    /// integer complement's. Accepts what
    /// [`right_inverse`](Self::right_inverse) does; errors as it and as the
    /// integer complement (`NotInjective`, `NotComplementable`), and
    /// `RankMismatch` for a cotarget without an extent at a codomain mode.
    ///
    /// ```
    /// use cute_dynamic::{IntTuple, make_identity_layout};
    /// let id = make_identity_layout(&"(4,8)".parse()?)?;
    /// assert_eq!(id.complement(None)?.to_string(), "(1,1):(4@0,8@1)");
    /// let cotarget: IntTuple = "(8,16)".parse()?;
    /// assert_eq!(id.complement(Some(&cotarget))?.to_string(), "(2,2):(4@0,8@1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn complement(&self, cotarget: Option<&IntTuple>) -> Result<BasisLayout> {
        let mut groups: Vec<PathLeaves<'_>> = Vec::new();
        for (s, leaf) in self.shape.leaves().zip(&self.leaves) {
            match leaf {
                Leaf::Basis(b) => match groups.iter_mut().find(|g| g.0 == b.path()) {
                    Some(g) => g.1.push((s, b.scale(), 0)),
                    None => groups.push((b.path(), vec![(s, b.scale(), 0)])),
                },
                Leaf::Int(0) => {}
                Leaf::Int(_) => {
                    return Err(LayoutError::Unsupported {
                        what: format!("the complement of {self}, whose strides mix integers and bases"),
                    });
                }
            }
        }
        let mut modes = Vec::with_capacity(groups.len());
        for (path, leaves) in &groups {
            let sub =
                Layout::new(IntTuple::flat(leaves.iter().map(|l| l.0)), IntTuple::flat(leaves.iter().map(|l| l.1)))?;
            let c = match cotarget {
                None => crate::complement_full(&sub).map_err(|e| self.rename(e, path))?,
                Some(t) => {
                    let extent = path
                        .iter()
                        .try_fold(t.clone(), |n, &i| if n.is_int() { None } else { n.get(i as usize) })
                        .and_then(|n| n.as_int())
                        .ok_or_else(|| LayoutError::RankMismatch {
                            what: format!(
                                "the complement of {self} by {t}: no extent at the codomain mode of {}",
                                ScaledBasis::new(1, path).map(|b| b.to_string()).unwrap_or_default()
                            ),
                            expected: path.len(),
                            found: t.depth(),
                        })?;
                    crate::complement(&sub, extent).map_err(|e| self.rename(e, path))?
                }
            };
            let stride = c
                .stride()
                .leaves()
                .map(|d| if d == 0 { Ok(Leaf::Int(0)) } else { ScaledBasis::new(d, path).map(Leaf::Basis) })
                .collect::<Result<Vec<_>>>()?;
            let stride = tree_like(c.shape(), &mut stride.into_iter());
            modes.push((*path, BasisLayout::new(c.shape().clone(), stride)?));
        }
        modes.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let paths: Vec<&[u32]> = modes.iter().map(|m| m.0).collect();
        self.codomain_tree(&paths, 0, &mut |p| {
            modes.binary_search_by(|m| m.0.cmp(p)).map_or_else(|_| BasisLayout::constant(1), |k| Ok(modes[k].1.clone()))
        })
    }

    /// Eq. (26) along one codomain mode, by brute force: for every
    /// coordinate of the `leaves` (`(shape, scale, prefix)`), `li` reads
    /// its offset back to a domain index of `self` with only these leaves'
    /// digits, which reaches the same offset. The integer left inverse
    /// searches (and may give strides that are not leaf boundaries, or
    /// negative ones) only up to 2^16 elements; larger inputs take its
    /// nested path, whose strides the translation keeps exact.
    fn undoes(&self, li: &Layout, leaves: &[(i64, i64, i64)]) -> bool {
        let size: i64 = leaves.iter().map(|l| l.0).product();
        if size > 1 << 16 {
            return true;
        }
        (0..size).all(|x| {
            let (mut rest, mut offset) = (x, 0i64);
            for &(s, k, _) in leaves {
                offset += (rest % s) * k;
                rest /= s;
            }
            let Ok(y) = li.eval_extended(offset) else { return false };
            let (mut back, mut rebuilt) = (0i64, 0i64);
            for &(s, k, p) in leaves {
                let digit = (y / p).rem_euclid(s);
                back += digit * k;
                rebuilt += digit * p;
            }
            y >= 0 && y < self.size() && rebuilt == y && back == offset
        })
    }

    /// An error of the integer inverse of the leaves of `path`, restated
    /// for `self`.
    fn rename(&self, e: LayoutError, path: &[u32]) -> LayoutError {
        let along = || ScaledBasis::new(1, path).map(|b| b.to_string()).unwrap_or_default();
        match e {
            LayoutError::NotInjective { .. } => LayoutError::NotInjective { layout: self.to_string() },
            LayoutError::NoLayout { operation, layout, reason } => LayoutError::NoLayout {
                operation,
                layout: self.to_string(),
                reason: format!("along {}, the leaves {layout}: {reason}", along()),
            },
            e => e,
        }
    }

    /// Translates `r`, an integer inverse over the domain of the leaves
    /// `(shape, scale, prefix)` of one codomain mode, onto `self`'s
    /// domain. Each stride of `r` is the sub-domain index `Q_t` of a leaf
    /// `t`; a mode `S:Q_t` becomes `s_t:P_t, s_{t+1}:P_{t+1}, ...` (`P`
    /// the prefixes in `self`'s domain) as far as `S` reaches.
    fn onto_domain(&self, r: &Layout, leaves: &[(i64, i64, i64)], path: &[u32]) -> Result<Layout> {
        // The leaves of extent above 1 with their sub-domain prefix `Q`, and
        // whether the next one continues them in the codomain (then the
        // integer inverse may read both through one mode).
        let mut big: Vec<(i64, i64, i64, bool)> = Vec::new(); // (s, Q, P, continued)
        let mut last_k = 0i64;
        let mut q = 1i64;
        for &(s, k, p) in leaves {
            if s == 1 {
                continue;
            }
            if let Some(last) = big.last_mut() {
                last.3 = last.0.checked_mul(last_k) == Some(k);
                // Neighbours in `self`'s domain too: one leaf for the
                // translation (`S:Q_t` reads both the same way in either).
                if last.0.checked_mul(last.2) == Some(p) {
                    last.0 *= s;
                    last.3 = false;
                    last_k = k;
                    q *= s;
                    continue;
                }
            }
            big.push((s, q, p, false));
            last_k = k;
            q *= s;
        }
        if let [(_, 1, p, _)] = big.as_slice() {
            // The leaves are neighbours in `self`'s domain too: the two
            // domains differ by the factor P, for any stride of `r`.
            let moved =
                r.shape().leaves().zip(r.stride().leaves()).map(|(s, d)| Ok((s, checked_mul(d, *p, "inverse")?)));
            let moved = moved.collect::<Result<Vec<_>>>()?;
            return Ok(crate::layout::layout_from_modes(&crate::coalesce::coalesce_modes(&moved)));
        }
        let uneven = |s: i64, t: &(i64, i64, i64, bool)| LayoutError::NoLayout {
            operation: "inverse",
            layout: self.to_string(),
            reason: format!(
                "along {}, the integer inverse does not carry over to the whole domain: its mode {s}:{} reads two leaves that are not neighbours there, and {s} is not a multiple of the extent {}",
                ScaledBasis::new(1, path).map(|b| b.to_string()).unwrap_or_default(),
                t.1,
                t.0
            ),
        };
        let mut out: Vec<(i64, i64)> = Vec::new();
        for (mut s, d) in r.shape().leaves().zip(r.stride().leaves()) {
            if d == 0 || s == 1 {
                out.push((s, 0));
                continue;
            }
            // The leaf holding sub-domain index `d`; inside a merged leaf,
            // its part from `d` on (a product of its parts' extents).
            let Some(mut t) = big.iter().position(|b| b.1 <= d && d / b.1 < b.0 && d % b.1 == 0) else {
                // Past the sub-domain: no image point reads it.
                out.push((s, 0));
                continue;
            };
            let m = d / big[t].1;
            if (s - 1).checked_mul(m).is_some_and(|r| r < big[t].0) {
                // Every coordinate stays inside the leaf, where the two
                // domains differ by the factor P_t / Q_t.
                out.push((s, checked_mul(big[t].2, m, "inverse")?));
                continue;
            }
            if big[t].0 % m != 0 {
                // The integer inverses' strides are leaf boundaries; this
                // one is not, so no translation reads it alike.
                return Err(uneven(s, &big[t]));
            }
            let mut leaf = (big[t].0 / m, d, checked_mul(big[t].2, m, "inverse")?, big[t].3);
            loop {
                if s <= leaf.0 {
                    out.push((s, leaf.2));
                    break;
                }
                if s % leaf.0 == 0 {
                    out.push((leaf.0, leaf.2));
                    s /= leaf.0;
                    t += 1;
                    let Some(&next) = big.get(t) else {
                        // Past the sub-domain: no image point reads it.
                        out.push((s, 0));
                        break;
                    };
                    leaf = next;
                } else if !leaf.3 {
                    // On the image this mode's coordinate stays below the
                    // leaf's extent (the next leaf has its own mode), so the
                    // rest of `s` is never read.
                    out.push((s, leaf.2));
                    break;
                } else {
                    return Err(uneven(s, &leaf));
                }
            }
        }
        let coalesced = crate::coalesce::coalesce_modes(&out);
        Ok(crate::layout::layout_from_modes(&coalesced))
    }

    /// `coalesce(self)`: only like bases merge.
    ///
    /// ```
    /// use cute_dynamic::{BasisLayout, parse_descriptor};
    /// let t = BasisLayout::new("(2,2,4)".parse()?, parse_descriptor("(1@0, 2@0, 1@1)")?.normalize()?)?;
    /// assert_eq!(t.coalesce()?.to_string(), "(4,4):(1@0,1@1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn coalesce(&self) -> Result<BasisLayout> {
        self.through_weights(1, |a| Ok(crate::coalesce(a)))
    }
}

/// The left side of a composition whose right side has basis strides: an
/// integer layout or a layout with basis strides.
trait Selectable: Sized + fmt::Display {
    /// Mode `i` (mode 0 of a rank-0 layout is itself), if there is one.
    fn mode(&self, i: usize) -> Option<Self>;
    /// The number of top-level modes.
    fn rank(&self) -> usize;
    /// `self ∘ b` for an integer layout `b`.
    fn compose(&self, b: &Layout) -> Result<Self>;
    /// `s:0`.
    fn constant(s: i64) -> Result<Self>;
    /// The layout whose modes are `parts`.
    fn join(parts: Vec<Self>) -> Result<Self>;
}

impl Selectable for Layout {
    fn mode(&self, i: usize) -> Option<Layout> {
        self.get(i)
    }
    fn rank(&self) -> usize {
        Layout::rank(self)
    }
    fn compose(&self, b: &Layout) -> Result<Layout> {
        crate::composition(self, b)
    }
    fn constant(s: i64) -> Result<Layout> {
        Layout::scalar(s, 0)
    }
    fn join(parts: Vec<Layout>) -> Result<Layout> {
        crate::make_layout(&parts)
    }
}

impl Selectable for BasisLayout {
    fn mode(&self, i: usize) -> Option<BasisLayout> {
        let shape = self.shape.get(i)?;
        let stride = match &self.stride {
            BasisTuple::Tuple(items) => items.get(i)?.clone(),
            leaf if i == 0 => leaf.clone(),
            _ => return None,
        };
        BasisLayout::new(shape, stride).ok()
    }
    fn rank(&self) -> usize {
        self.shape.rank()
    }
    fn compose(&self, b: &Layout) -> Result<BasisLayout> {
        self.composition(b)
    }
    fn constant(s: i64) -> Result<BasisLayout> {
        BasisLayout::new(IntTuple::int(s), BasisTuple::Int(0))
    }
    fn join(parts: Vec<BasisLayout>) -> Result<BasisLayout> {
        let shape = IntTuple::tuple(parts.iter().map(|p| p.shape.clone()));
        BasisLayout::new(shape, BasisTuple::Tuple(parts.into_iter().map(|p| p.stride).collect()))
    }
}

/// `a ∘ b` where the strides of `b` are scaled bases that select modes of
/// `a` (CuTe's composition with a `ScaledBasis` stride on the right): a
/// leaf `s:k@i` of `b` becomes `a_i ∘ s:k`, mode `i` of `a`; `k@j@i`
/// (CuTe's `E<i,j>`) selects sub-mode `j` of mode `i`, and so on. The
/// result has `b`'s tree with each leaf replaced by its composition.
///
/// `(4,4):(4,1) ∘ (4,4):(1@1,1@0)` = `(4,4):(1,4)` (a transpose);
/// `(4,(2,3)):(6,(3,1)) ∘ (2,4):(1@1@1,1@0)` = `(2,4):(1,6)`.
///
/// Post-condition (checked by brute force in the tests): `R(c) = a(b(c))`
/// for every coordinate `c` of `b`, where the coordinate `b(c)` is read mode
/// by mode (mode `i` of it indexes mode `i` of `a` as a 1-D index over that
/// mode's extended domain, and a mode of `a` it does not name contributes
/// nothing).
///
/// Accepts, in `b`: bases whose paths exist in `a`'s shape tree, and
/// stride-0 integer leaves (`s:0`). Errors: `RankMismatch` when a basis
/// names a mode `a` does not have, `Unsupported` for a nonzero integer
/// stride (the coordinate `b(c)` would add an integer to a tuple) or for two
/// bases of which one names a mode and the other a sub-mode of it, and what
/// the composition of `a_i` with the leaves that select it returns (leaves
/// selecting the same mode are composed together, so their offsets must
/// not carry: `NotDistributive`).
///
/// ```
/// use cute_dynamic::{BasisLayout, Layout, composition_with_basis};
/// let a: Layout = "(4,(2,3)):(6,(3,1))".parse()?;
/// let b = cute_dynamic::eval("(2,4):(1@1@1,1@0)").unwrap();
/// let cute_dynamic::Value::BasisLayout(b) = b else { unreachable!() };
/// assert_eq!(composition_with_basis(&a, &b)?.to_string(), "(2,4):(1,6)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn composition_with_basis(a: &Layout, b: &BasisLayout) -> Result<Layout> {
    select_modes(a, b)
}

impl BasisLayout {
    /// `a ∘ self` for a left side `a` that also has basis strides: as
    /// [`composition_with_basis`], the result a layout with basis strides
    /// (`identity((4,8)) ∘ (8,4):(1@1,1@0)` = `(8,4):(1@1,1@0)`).
    ///
    /// ```
    /// use cute_dynamic::{BasisLayout, make_identity_layout, parse_descriptor};
    /// let a = make_identity_layout(&"(4,8)".parse()?)?;
    /// let b = BasisLayout::new("(8,4)".parse()?, parse_descriptor("(1@1, 1@0)")?.normalize()?)?;
    /// assert_eq!(b.selecting_from(&a)?.to_string(), "(8,4):(1@1,1@0)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn selecting_from(&self, a: &BasisLayout) -> Result<BasisLayout> {
        select_modes(a, self)
    }
}

fn select_modes<A: Selectable>(a: &A, b: &BasisLayout) -> Result<A> {
    // The distinct paths of b, and the leaves that use each.
    let mut groups: Vec<(&[u32], Vec<usize>)> = Vec::new();
    for (j, leaf) in b.leaves.iter().enumerate() {
        match leaf {
            Leaf::Basis(sb) => match groups.iter_mut().find(|g| g.0 == sb.path()) {
                Some(g) => g.1.push(j),
                None => groups.push((sb.path(), vec![j])),
            },
            Leaf::Int(0) => {}
            Leaf::Int(_) => {
                return Err(LayoutError::Unsupported {
                    what: format!("the composition {a} ∘ {b}, whose right side mixes integer strides and bases"),
                });
            }
        }
    }
    for (p, _) in &groups {
        if let Some((q, _)) = groups.iter().find(|(q, _)| q.len() > p.len() && q.starts_with(p)) {
            return Err(LayoutError::Unsupported {
                what: format!(
                    "the composition {a} ∘ {b}: its bases {} and {} name a mode and a sub-mode of it",
                    ScaledBasis::new(1, p)?,
                    ScaledBasis::new(1, q)?
                ),
            });
        }
    }
    let shapes: Vec<i64> = b.shape.leaves().collect();
    let mut parts: Vec<Option<A>> = (0..b.leaves.len()).map(|_| None).collect();
    for (path, members) in &groups {
        let mut sub: Option<A> = None;
        for (depth, &i) in path.iter().enumerate() {
            let node = sub.as_ref().map_or_else(|| a.mode(i as usize), |s| s.mode(i as usize));
            let rank = sub.as_ref().map_or_else(|| a.rank(), |s| s.rank());
            sub = Some(node.ok_or_else(|| LayoutError::RankMismatch {
                what: format!(
                    "the composition {a} ∘ {b}: basis {} names mode {i} at depth {depth}",
                    ScaledBasis::new(1, path).map(|s| s.to_string()).unwrap_or_default()
                ),
                expected: rank,
                found: i as usize + 1,
            })?);
        }
        let Some(sub) = sub else { continue };
        let scale = |j: usize| match &b.leaves[j] {
            Leaf::Basis(sb) => sb.scale(),
            Leaf::Int(v) => *v,
        };
        if let [j] = members.as_slice() {
            parts[*j] = Some(sub.compose(&Layout::scalar(shapes[*j], scale(*j))?)?);
        } else {
            // Together, so that a carry between them is refused.
            let bp = Layout::new(
                IntTuple::flat(members.iter().map(|&j| shapes[j])),
                IntTuple::flat(members.iter().map(|&j| scale(j))),
            )?;
            let r = sub.compose(&bp)?;
            for (m, &j) in members.iter().enumerate() {
                parts[j] = r.mode(m);
            }
        }
    }
    let mut parts = parts.into_iter().zip(&shapes).map(|(p, &s)| p.map_or_else(|| A::constant(s), Ok));
    build_like(&b.shape, &mut parts)
}

/// The layout of `like`'s tree whose leaves are the given layouts.
fn build_like<A: Selectable>(like: &IntTuple, parts: &mut impl Iterator<Item = Result<A>>) -> Result<A> {
    if like.is_int() {
        parts.next().unwrap_or_else(|| A::constant(1))
    } else {
        A::join(like.modes().map(|m| build_like(&m, parts)).collect::<Result<Vec<_>>>()?)
    }
}

/// A basis path and its leaves `(shape, scale, domain prefix)`.
type PathLeaves<'a> = (&'a [u32], Vec<(i64, i64, i64)>);

/// The largest stride or extent magnitude among a tiler's layouts and
/// shapes.
fn max_stride<T: AsTiler + ?Sized>(tiler: &T) -> Result<i64> {
    fn layout_max(l: &Layout) -> i64 {
        l.stride().leaves().chain(l.shape().leaves()).map(|v| v.checked_abs().unwrap_or(i64::MAX)).max().unwrap_or(1)
    }
    fn tiler_max(t: &Tiler) -> i64 {
        match t {
            Tiler::Layout(l) => layout_max(l),
            Tiler::Tuple(ts) => ts.iter().map(tiler_max).max().unwrap_or(1),
        }
    }
    Ok(match tiler.as_tiler() {
        TilerRef::Layout(l) => layout_max(l),
        TilerRef::Tiler(t) => tiler_max(t),
        TilerRef::Shape(s) => s.leaves().max().unwrap_or(1),
    }
    .max(1))
}

impl fmt::Display for BasisLayout {
    /// `(4,8):(1@0,1@1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.shape, self.stride)
    }
}
