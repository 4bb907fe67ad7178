//! `IntTuple`: an integer or a tuple of `IntTuple`s (the paper's `HTuple(ℤ)`).
//!
//! Shapes, strides and coordinates are all `IntTuple`s. The tree is stored
//! as two flat lists: its structure, as pre-order tokens `(`, `)` and leaf,
//! and its leaf values, left to right. Both live inline for up to 30 tokens
//! and 10 leaves, so tuples of up to 8 leaves, however nested, and their
//! copies never touch the heap; larger tuples move to the heap whole.
//!
//! Keeping the values apart from the structure is what makes the algebra
//! fast: most operations only read a layout's leaves (a plain slice), and
//! the structure of a result is often copied token for token.

use crate::error::{LayoutError, Result, checked_mul};

/// One token of the pre-order structure of a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub(crate) enum Tok {
    /// A leaf; its value is the next one in the value list.
    Leaf,
    /// The start of a tuple.
    Open,
    /// The end of a tuple.
    Close,
}

pub(crate) const INLINE_TOKS: usize = 30;
pub(crate) const INLINE_VALS: usize = 10;
/// The token and value counts of a tuple whose contents are on the heap.
const SPILLED: u8 = u8::MAX;

/// A hierarchical tuple of integers: `4`, `(4,8)`, `(4,(3,2))`, `()`.
///
/// ```
/// use cute_dynamic::IntTuple;
/// let t: IntTuple = "(4,(3,2))".parse().unwrap();
/// assert_eq!(t.rank(), 2);
/// assert_eq!(t.depth(), 2);
/// assert_eq!(t.size().unwrap(), 24);
/// assert_eq!(t.get(1).unwrap().to_string(), "(3,2)");
/// assert_eq!(t.flatten().to_string(), "(4,3,2)");
/// ```
#[derive(Clone)]
pub struct IntTuple {
    ntok: u8,
    nval: u8,
    tok: [Tok; INLINE_TOKS],
    val: [i64; INLINE_VALS],
    /// Everything, once either list outgrows its inline room.
    heap: Option<Box<Spilled>>,
}

#[derive(Clone)]
struct Spilled {
    tok: Vec<Tok>,
    val: Vec<i64>,
}

impl PartialEq for IntTuple {
    fn eq(&self, other: &IntTuple) -> bool {
        self.toks() == other.toks() && self.vals() == other.vals()
    }
}

impl Eq for IntTuple {}

impl std::hash::Hash for IntTuple {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.toks().hash(state);
        self.vals().hash(state);
    }
}

impl std::fmt::Debug for IntTuple {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IntTuple({self})")
    }
}

impl From<i64> for IntTuple {
    fn from(v: i64) -> Self {
        IntTuple::int(v)
    }
}

impl IntTuple {
    /// A single integer.
    pub fn int(v: i64) -> Self {
        let mut t = IntTuple::empty();
        t.leaf(v);
        t
    }

    /// A tuple of the given elements (possibly empty).
    pub fn tuple<I: IntoIterator<Item = IntTuple>>(elems: I) -> Self {
        let mut t = IntTuple::empty();
        t.open();
        for e in elems {
            t.push_tree(e.tree());
        }
        t.close();
        t
    }

    /// A flat tuple of integers.
    pub fn flat<I: IntoIterator<Item = i64>>(values: I) -> Self {
        let mut t = IntTuple::empty();
        t.open();
        for v in values {
            t.leaf(v);
        }
        t.close();
        t
    }

    /// `true` for a single integer.
    pub fn is_int(&self) -> bool {
        self.toks().first() == Some(&Tok::Leaf)
    }

    /// The integer, if this is a single integer.
    pub fn as_int(&self) -> Option<i64> {
        self.tree().leaf()
    }

    /// Number of top-level modes; an integer has rank 1.
    pub fn rank(&self) -> usize {
        self.tree().rank()
    }

    /// Nesting depth: 0 for an integer, 1 for a flat tuple, and so on.
    pub fn depth(&self) -> usize {
        self.tree().depth()
    }

    /// The `i`-th top-level mode; mode 0 of an integer is the integer itself.
    pub fn get(&self, i: usize) -> Option<IntTuple> {
        self.tree().children().nth(i).map(Tree::to_int_tuple)
    }

    /// The top-level modes, in order (an integer yields itself).
    pub fn modes(&self) -> impl Iterator<Item = IntTuple> + '_ {
        self.tree().children().map(Tree::to_int_tuple)
    }

    /// The leaves in order (colexicographic order of modes is left to right).
    pub fn leaves(&self) -> impl Iterator<Item = i64> + '_ {
        self.vals().iter().copied()
    }

    /// Number of leaves.
    pub fn leaf_count(&self) -> usize {
        self.vals().len()
    }

    /// The same leaves as a flat tuple; an integer stays an integer.
    pub fn flatten(&self) -> IntTuple {
        if self.is_int() {
            return self.clone();
        }
        IntTuple::flat(self.leaves())
    }

    /// Product of all leaves (the size of a shape; 1 for `()`).
    pub fn size(&self) -> Result<i64> {
        self.tree().size().ok_or(LayoutError::Overflow { operation: "size" })
    }

    /// Same tree structure (the paper's congruence `∼`).
    pub fn congruent(&self, other: &IntTuple) -> bool {
        self.toks() == other.toks()
    }

    /// `self` is weakly congruent to `other` (`self ≲ other`): wherever `self`
    /// has a tuple, `other` has a tuple of the same rank; an integer of `self`
    /// may stand for a whole subtree of `other`.
    pub fn weakly_congruent(&self, other: &IntTuple) -> bool {
        weakly_congruent(self.tree(), other.tree())
    }

    /// Concatenation of the modes of several tuples into one tuple.
    pub fn concat<'a, I: IntoIterator<Item = &'a IntTuple>>(parts: I) -> IntTuple {
        let mut t = IntTuple::empty();
        t.open();
        for p in parts {
            for c in p.tree().children() {
                t.push_tree(c);
            }
        }
        t.close();
        t
    }
}

/// Building and raw access, for the rest of the crate.
impl IntTuple {
    /// No tokens at all: not a valid tuple until something is pushed.
    #[inline]
    pub(crate) fn empty() -> Self {
        IntTuple { ntok: 0, nval: 0, tok: [Tok::Leaf; INLINE_TOKS], val: [0; INLINE_VALS], heap: None }
    }

    /// The structure tokens, in pre-order.
    #[inline]
    pub(crate) fn toks(&self) -> &[Tok] {
        match &self.heap {
            None => &self.tok[..usize::from(self.ntok)],
            Some(h) => &h.tok,
        }
    }

    /// The leaf values, left to right.
    #[inline]
    pub(crate) fn vals(&self) -> &[i64] {
        match &self.heap {
            None => &self.val[..usize::from(self.nval)],
            Some(h) => &h.val,
        }
    }

    /// The leaf values, to be rewritten in place (the structure stays).
    #[inline]
    pub(crate) fn vals_mut(&mut self) -> &mut [i64] {
        match &mut self.heap {
            None => &mut self.val[..usize::from(self.nval)],
            Some(h) => &mut h.val,
        }
    }

    /// A tuple from the first `ntok` tokens and `nval` values of inline room.
    #[inline(always)]
    pub(crate) fn from_inline(tok: [Tok; INLINE_TOKS], val: [i64; INLINE_VALS], ntok: usize, nval: usize) -> IntTuple {
        IntTuple { ntok: ntok.min(INLINE_TOKS) as u8, nval: nval.min(INLINE_VALS) as u8, tok, val, heap: None }
    }

    /// The whole tree as a borrowed view.
    #[inline]
    pub(crate) fn tree(&self) -> Tree<'_> {
        Tree { tok: self.toks(), val: self.vals() }
    }

    #[inline(always)]
    fn push_tok(&mut self, t: Tok) {
        // Once spilled, the counts are `SPILLED`: one test takes the fast path.
        let n = usize::from(self.ntok);
        if n < INLINE_TOKS {
            self.tok[n] = t;
            self.ntok += 1;
        } else {
            self.spill().tok.push(t);
        }
    }

    #[inline(always)]
    fn push_val(&mut self, v: i64) {
        let n = usize::from(self.nval);
        if n < INLINE_VALS {
            self.val[n] = v;
            self.nval += 1;
        } else {
            self.spill().val.push(v);
        }
    }

    /// Moves the contents to the heap (once), for pushing past the inline room.
    #[cold]
    #[inline(never)]
    fn spill(&mut self) -> &mut Spilled {
        if self.heap.is_none() {
            let tok = self.tok[..usize::from(self.ntok)].to_vec();
            let val = self.val[..usize::from(self.nval)].to_vec();
            self.ntok = SPILLED;
            self.nval = SPILLED;
            self.heap = Some(Box::new(Spilled { tok, val }));
        }
        match &mut self.heap {
            Some(h) => h,
            None => unreachable!("spilled just above"),
        }
    }

    /// Starts a tuple; pair with [`IntTuple::close`].
    #[inline(always)]
    pub(crate) fn open(&mut self) {
        self.push_tok(Tok::Open);
    }

    /// Ends the innermost open tuple.
    #[inline(always)]
    pub(crate) fn close(&mut self) {
        self.push_tok(Tok::Close);
    }

    /// Appends an integer.
    #[inline(always)]
    pub(crate) fn leaf(&mut self, v: i64) {
        self.push_tok(Tok::Leaf);
        self.push_val(v);
    }

    /// Appends a whole subtree.
    #[inline]
    pub(crate) fn push_tree(&mut self, t: Tree<'_>) {
        // Inline room for all of it: two block copies (a spilled tuple's
        // counts are `SPILLED`, past the room, so it takes the loop).
        let (nt, nv) = (usize::from(self.ntok), usize::from(self.nval));
        if let (Some(tok), Some(val)) = (self.tok.get_mut(nt..nt + t.tok.len()), self.val.get_mut(nv..nv + t.val.len()))
        {
            tok.copy_from_slice(t.tok);
            val.copy_from_slice(t.val);
            self.ntok += t.tok.len() as u8;
            self.nval += t.val.len() as u8;
            return;
        }
        for &k in t.tok {
            self.push_tok(k);
        }
        for &v in t.val {
            self.push_val(v);
        }
    }
}

/// A borrowed subtree: its tokens (exactly one leaf, or one balanced tuple)
/// and its leaf values.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tree<'a> {
    pub(crate) tok: &'a [Tok],
    pub(crate) val: &'a [i64],
}

impl<'a> Tree<'a> {
    /// The value, for a leaf.
    #[inline]
    pub(crate) fn leaf(self) -> Option<i64> {
        match self.tok.first() {
            Some(Tok::Leaf) => self.val.first().copied(),
            _ => None,
        }
    }

    /// The modes: the children of a tuple, or the leaf itself.
    #[inline]
    pub(crate) fn children(self) -> Children<'a> {
        match self.tok.first() {
            Some(Tok::Open) => Children { tok: &self.tok[1..self.tok.len() - 1], val: self.val },
            _ => Children { tok: self.tok, val: self.val },
        }
    }

    /// Number of modes (1 for a leaf).
    pub(crate) fn rank(self) -> usize {
        self.children().count()
    }

    /// Nesting depth (0 for a leaf).
    pub(crate) fn depth(self) -> usize {
        let mut depth = 0usize;
        let mut max = 0usize;
        for &t in self.tok {
            match t {
                Tok::Open => {
                    depth += 1;
                    max = max.max(depth);
                }
                Tok::Close => depth = depth.saturating_sub(1),
                Tok::Leaf => {}
            }
        }
        max
    }

    /// Product of the leaves, `None` on overflow.
    #[inline]
    pub(crate) fn size(self) -> Option<i64> {
        self.val.iter().try_fold(1i64, |a, &v| a.checked_mul(v))
    }

    /// An owned copy.
    pub(crate) fn to_int_tuple(self) -> IntTuple {
        let mut t = IntTuple::empty();
        t.push_tree(self);
        t
    }
}

/// Iterator over the modes of a [`Tree`].
pub(crate) struct Children<'a> {
    tok: &'a [Tok],
    val: &'a [i64],
}

impl<'a> Iterator for Children<'a> {
    type Item = Tree<'a>;
    #[inline]
    fn next(&mut self) -> Option<Tree<'a>> {
        let (nt, nv) = match self.tok.first()? {
            Tok::Leaf => (1, 1),
            _ => extent(self.tok),
        };
        let (tok, tok_rest) = self.tok.split_at(nt);
        let (val, val_rest) = self.val.split_at(nv.min(self.val.len()));
        self.tok = tok_rest;
        self.val = val_rest;
        Some(Tree { tok, val })
    }
}

/// Tokens and leaves of the tuple that starts `tok`.
pub(crate) fn extent(tok: &[Tok]) -> (usize, usize) {
    let mut depth = 0usize;
    let mut leaves = 0usize;
    for (i, &t) in tok.iter().enumerate() {
        match t {
            Tok::Open => depth += 1,
            Tok::Close => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return (i + 1, leaves);
                }
            }
            Tok::Leaf => leaves += 1,
        }
    }
    (tok.len(), leaves)
}

fn weakly_congruent(a: Tree<'_>, b: Tree<'_>) -> bool {
    if a.leaf().is_some() {
        return true;
    }
    if b.leaf().is_some() {
        return false;
    }
    a.rank() == b.rank() && a.children().zip(b.children()).all(|(x, y)| weakly_congruent(x, y))
}

/// The paper's `idx2crd` (eq. 4) for one level: splits the integral
/// coordinate `i` over the modes of `shape`, the last mode unbounded. A
/// negative `i` splits with truncating division (as CuTe's C++), so
/// `idx2crd(-i) == -idx2crd(i)`.
///
/// ```
/// use cute_dynamic::{IntTuple, idx2crd, crd2idx};
/// let s: IntTuple = "((2,3),2)".parse().unwrap();
/// let c = idx2crd(5, &s).unwrap();
/// assert_eq!(c.to_string(), "(5,0)");
/// assert_eq!(crd2idx(&c, &s).unwrap(), 5);
/// ```
pub fn idx2crd(i: i64, shape: &IntTuple) -> Result<IntTuple> {
    if shape.is_int() {
        return Ok(IntTuple::int(i));
    }
    let mut c = IntTuple::empty();
    c.open();
    let mut rest = i;
    let r = shape.rank();
    for (k, m) in shape.tree().children().enumerate() {
        let s = m.val.iter().try_fold(1i64, |a, &v| checked_mul(a, v, "idx2crd"))?;
        if s < 1 {
            return Err(LayoutError::NonPositiveShape { shape: shape.to_string() });
        }
        if k + 1 == r {
            c.leaf(rest);
        } else {
            // Truncating, as C++: idx2crd(-i) is -idx2crd(i).
            c.leaf(rest % s);
            rest /= s;
        }
    }
    c.close();
    Ok(c)
}

/// The paper's `crd2idx` (eq. 5): the integral coordinate of a coordinate
/// that is weakly congruent to `shape` (integers may stand for whole modes).
pub fn crd2idx(coord: &IntTuple, shape: &IntTuple) -> Result<i64> {
    crd2idx_tree(coord.tree(), shape.tree()).ok_or_else(|| {
        if coord.weakly_congruent(shape) {
            LayoutError::Overflow { operation: "crd2idx" }
        } else {
            LayoutError::RankMismatch {
                what: format!("crd2idx of {coord} in shape {shape}"),
                expected: shape.rank(),
                found: coord.rank(),
            }
        }
    })
}

fn crd2idx_tree(c: Tree<'_>, s: Tree<'_>) -> Option<i64> {
    if let Some(v) = c.leaf() {
        return Some(v);
    }
    if s.leaf().is_some() || c.rank() != s.rank() {
        return None;
    }
    let mut idx = 0i64;
    let mut mult = 1i64;
    for (ci, si) in c.children().zip(s.children()) {
        let sub = crd2idx_tree(ci, si)?;
        idx = idx.checked_add(sub.checked_mul(mult)?)?;
        mult = mult.checked_mul(si.size()?)?;
    }
    Some(idx)
}

/// CuTe's `elem_less(a, b)`: every element of `a` is below the element of
/// `b` at the same position, recursively; the predicate that masks a ragged
/// edge (`elem_less(coord, shape)` is `true` exactly for the coordinates
/// inside `shape`).
///
/// As CuTe: integers compare with `<`; for two tuples the first
/// `min(rank)` elements are compared, and `a` longer than `b` is `false`,
/// `a` shorter (or equal) is decided by the shared elements. An integer
/// against a tuple (their structures differ) is `false`.
///
/// ```
/// use cute_dynamic::{IntTuple, elem_less};
/// let shape: IntTuple = "(1000,500)".parse().unwrap();
/// assert!(elem_less(&"(999,499)".parse().unwrap(), &shape));
/// assert!(!elem_less(&"(1000,0)".parse().unwrap(), &shape));
/// assert!(elem_less(&"((1,2),3)".parse().unwrap(), &"((2,3),4)".parse().unwrap()));
/// ```
pub fn elem_less(a: &IntTuple, b: &IntTuple) -> bool {
    elem_less_tree(a.tree(), b.tree())
}

fn elem_less_tree(a: Tree<'_>, b: Tree<'_>) -> bool {
    match (a.leaf(), b.leaf()) {
        (Some(x), Some(y)) => x < y,
        (None, None) => a.rank() <= b.rank() && a.children().zip(b.children()).all(|(x, y)| elem_less_tree(x, y)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_tuples_move_to_the_heap_and_stay_equal() {
        let big = IntTuple::flat(1..=40);
        assert!(big.heap.is_some());
        assert_eq!(big.leaf_count(), 40);
        assert_eq!(big.rank(), 40);
        assert_eq!(big.size().ok(), None);
        let again: IntTuple = big.to_string().parse().unwrap();
        assert_eq!(again, big);
        let small = IntTuple::flat(1..=8);
        assert!(small.heap.is_none());
        assert_ne!(small, big);
    }

    #[test]
    fn children_split_structure_and_values() {
        let t: IntTuple = "((2,3),4,(5,(6,7)))".parse().unwrap();
        let modes: Vec<String> = t.modes().map(|m| m.to_string()).collect();
        assert_eq!(modes, ["(2,3)", "4", "(5,(6,7))"]);
        assert_eq!(t.depth(), 3);
        let empty: IntTuple = "()".parse().unwrap();
        assert_eq!(empty.rank(), 0);
        assert_eq!(empty.depth(), 1);
    }
}
