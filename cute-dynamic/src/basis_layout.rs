//! Layouts whose strides are scaled bases (`(4,8):(1@0,1@1)`): CuTe's
//! identity layouts and the coordinate layouts built from them.
//!
//! Such a layout maps a coordinate to a coordinate (an arithmetic tuple),
//! not to an integer. It is kept apart from [`Layout`] (whose strides are
//! integers); the operations it supports are stated on each function, and
//! anything else is an error.

use crate::basis::{BasisTuple, ScaledBasis};
use crate::composition::{AsTiler, TilerRef};
use crate::error::{LayoutError, Result, checked_add, checked_mul};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::tiler::Tiler;
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
/// let id = make_identity_layout(&"(2,(3,4))".parse()?);
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
/// ```
/// use cute_dynamic::make_identity_layout;
/// assert_eq!(make_identity_layout(&"(4,8)".parse()?).to_string(), "(4,8):(1@0,1@1)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_identity_layout(shape: &IntTuple) -> BasisLayout {
    fn bases(shape: &IntTuple, path: &mut Vec<u32>) -> BasisTuple {
        if shape.is_int() {
            BasisTuple::Basis(ScaledBasis::new(1, path).unwrap_or_else(|_| ScaledBasis::unit0()))
        } else {
            BasisTuple::Tuple(
                shape
                    .modes()
                    .enumerate()
                    .map(|(i, m)| {
                        path.push(i as u32);
                        let b = bases(&m, path);
                        path.pop();
                        b
                    })
                    .collect(),
            )
        }
    }
    // A scalar shape is a rank-1 coordinate space: `4:1@0`.
    let stride = if shape.is_int() { BasisTuple::Basis(ScaledBasis::unit0()) } else { bases(shape, &mut Vec::new()) };
    let mut leaves = Vec::new();
    collect_leaves(&stride, &mut leaves);
    BasisLayout { shape: shape.clone(), stride, leaves }
}

impl BasisLayout {
    /// `shape : stride`; errors if they are not congruent
    /// ([`LayoutError::NotCongruent`]) or an extent is below 1.
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
    pub fn shape(&self) -> &IntTuple {
        &self.shape
    }

    /// The stride tree.
    pub fn stride(&self) -> &BasisTuple {
        &self.stride
    }

    /// The size of the domain.
    pub fn size(&self) -> i64 {
        self.shape.leaves().product()
    }

    /// The coordinate (arithmetic tuple) at the integral coordinate
    /// `0 <= i < size()`: `Σ c_k · stride_k`, with the tuple as long as the
    /// largest basis index needs.
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
    pub fn composition<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<BasisLayout> {
        let bound = max_stride(tiler)?;
        self.through_weights(bound, |a| crate::composition(a, tiler))
    }

    /// `logical_divide(self, tiler)`, as [`composition`](Self::composition)
    /// accepts (`logical_divide(identity((1000,500)), <128,64>)` =
    /// `((128,8),(64,8)):((1@0,128@0),(1@1,64@1))`).
    pub fn logical_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<BasisLayout> {
        let bound = max_stride(tiler)?.max(self.size());
        self.through_weights(bound, |a| crate::logical_divide(a, tiler))
    }

    /// `zipped_divide(self, tiler)`, as [`logical_divide`](Self::logical_divide).
    pub fn zipped_divide<T: AsTiler + ?Sized>(&self, tiler: &T) -> Result<BasisLayout> {
        let bound = max_stride(tiler)?.max(self.size());
        self.through_weights(bound, |a| crate::zipped_divide(a, tiler))
    }

    /// The right inverse (paper Table 5 with `e_i` strides, which CuTe C++
    /// does not implement): the integer layout `R` over the codomain,
    /// mode `p` of `R` for the coordinate along `E<p>`, with
    /// `self(R(c)) == c` for every codomain coordinate `c` it covers
    /// (`right_inverse((4,8):(1@0,1@1))` = `(4,8):(1,4)`).
    ///
    /// Accepts strides `k@p` with `k >= 0` and single indices `p` covering
    /// `0..n`; anything else is an error.
    pub fn right_inverse(&self) -> Result<Layout> {
        self.inverse(|l| Ok(crate::right_inverse(l)))
    }

    /// The left inverse (paper Table 6 with `e_i` strides): the integer
    /// layout `L` over the codomain with `L(self(i)) == i` for every `i` of
    /// an injective `self` (`left_inverse((4,(4,2)):(1@1,(1@0,6@1)))` =
    /// `(4,(6,2)):(4,(1,16))`). Accepts what
    /// [`right_inverse`](Self::right_inverse) does; `NotInjective` or
    /// `NoLayout` as the integer left inverse says.
    pub fn left_inverse(&self) -> Result<Layout> {
        self.inverse(crate::left_inverse)
    }

    /// Both inverses: number the codomain box mixed-radix (`E<p>` weighs
    /// `W_p = Π_{q<p} extent_q`, `extent_q` one past the largest coordinate
    /// along `E<q>`), invert that integer layout, and cut the result's
    /// leaves at the weights into one mode per codomain mode.
    fn inverse(&self, inv: impl FnOnce(&Layout) -> Result<Layout>) -> Result<Layout> {
        let unsupported = |why: &str| LayoutError::Unsupported { what: format!("the inverse of {self}: {why}") };
        let mut modes: Vec<(i64, i64, usize)> = Vec::new(); // (shape, scale, codomain mode)
        let mut n = 0usize;
        for (s, leaf) in self.shape.leaves().zip(&self.leaves) {
            match leaf {
                Leaf::Basis(b) if b.path().len() == 1 && b.scale() >= 0 => {
                    let p = b.path()[0] as usize;
                    n = n.max(p + 1);
                    modes.push((s, b.scale(), p));
                }
                _ => return Err(unsupported("strides must be k@p with k >= 0 and one index p")),
            }
        }
        let mut extent = vec![1i64; n];
        for &(s, k, p) in &modes {
            extent[p] = checked_add(extent[p], checked_mul(s - 1, k, "inverse")?, "inverse")?;
        }
        let mut weight = vec![1i64; n];
        for p in 1..n {
            weight[p] = checked_mul(weight[p - 1], extent[p - 1], "inverse")?;
        }
        if (0..n).any(|p| !modes.iter().any(|m| m.2 == p)) {
            return Err(unsupported("every codomain mode 0..n must have a basis"));
        }
        let mut enc = self.shape.clone();
        let vals = modes.iter().map(|&(_, k, p)| checked_mul(k, weight[p], "inverse")).collect::<Result<Vec<_>>>()?;
        enc.vals_mut().copy_from_slice(&vals);
        let r = inv(&Layout::new(self.shape.clone(), enc)?)?;
        // Cut the leaves at the weights: codomain mode p is the index range
        // [W_p, W_{p+1}) of the mixed-radix numbering.
        let mut groups: Vec<Vec<(i64, i64)>> = vec![Vec::new()];
        let mut covered = 1i64; // the product of the shapes placed so far
        let no_layout = || LayoutError::NoLayout {
            operation: "inverse",
            layout: self.to_string(),
            reason: "its inverse does not split into one mode per codomain mode".to_string(),
        };
        for (mut s, mut d) in r.shape().leaves().zip(r.stride().leaves()) {
            while s > 1 {
                let p = groups.len() - 1;
                if p + 1 >= n {
                    // The last codomain mode takes the rest.
                    groups[p].push((s, d));
                    break;
                }
                let boundary = weight[p + 1];
                if covered == boundary {
                    groups.push(Vec::new());
                    continue;
                }
                if boundary % covered != 0 {
                    return Err(no_layout());
                }
                let room = boundary / covered;
                if s <= room {
                    groups[p].push((s, d));
                    covered = covered.saturating_mul(s);
                    s = 1;
                } else if s % room == 0 {
                    groups[p].push((room, d));
                    covered = boundary;
                    d = checked_mul(d, room, "inverse")?;
                    s /= room;
                } else {
                    return Err(no_layout());
                }
            }
        }
        // One mode per codomain mode; a mode the inverse does not reach
        // (extent 1, or past a right inverse's run) is `1:0`.
        groups.resize(n.max(1), Vec::new());
        let mode_layouts = groups
            .iter()
            .map(|g| match g.as_slice() {
                [] => Layout::scalar(1, 0),
                [(s, d)] => Layout::scalar(*s, *d),
                _ => Layout::new(IntTuple::flat(g.iter().map(|m| m.0)), IntTuple::flat(g.iter().map(|m| m.1))),
            })
            .collect::<Result<Vec<_>>>()?;
        crate::make_layout(&mode_layouts)
    }

    /// `coalesce(self)`: only like bases merge.
    pub fn coalesce(&self) -> Result<BasisLayout> {
        self.through_weights(1, |a| Ok(crate::coalesce(a)))
    }
}

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
