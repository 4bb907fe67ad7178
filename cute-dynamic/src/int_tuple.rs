//! `IntTuple`: an integer or a tuple of `IntTuple`s (the paper's `HTuple(ℤ)`).
//!
//! Shapes, strides and coordinates are all `IntTuple`s. The tree is stored
//! flat, in pre-order, inline for up to 16 nodes, so tuples of up to 8 leaves
//! (and their copies) never touch the heap.

use crate::error::{LayoutError, Result, checked_mul};
use smallvec::SmallVec;

/// One node of the pre-order encoding: a leaf value, or a tuple header that
/// knows its number of children (`rank`) and its number of nodes (`span`,
/// itself included) so that a subtree can be skipped in O(1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Node {
    Leaf(i64),
    Tuple { rank: u32, span: u32 },
}

pub(crate) type Nodes = SmallVec<[Node; 16]>;

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
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IntTuple {
    pub(crate) nodes: Nodes,
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
        let mut nodes = Nodes::new();
        nodes.push(Node::Leaf(v));
        IntTuple { nodes }
    }

    /// A tuple of the given elements (possibly empty).
    pub fn tuple<I: IntoIterator<Item = IntTuple>>(elems: I) -> Self {
        let mut b = Builder::new();
        b.open();
        for e in elems {
            b.push_tree(&e.nodes);
        }
        b.close();
        b.finish()
    }

    /// A flat tuple of integers.
    pub fn flat<I: IntoIterator<Item = i64>>(values: I) -> Self {
        let mut b = Builder::new();
        b.open();
        for v in values {
            b.leaf(v);
        }
        b.close();
        b.finish()
    }

    /// `true` for a single integer.
    pub fn is_int(&self) -> bool {
        matches!(self.nodes[0], Node::Leaf(_))
    }

    /// The integer, if this is a single integer.
    pub fn as_int(&self) -> Option<i64> {
        match self.nodes[0] {
            Node::Leaf(v) => Some(v),
            Node::Tuple { .. } => None,
        }
    }

    /// Number of top-level modes; an integer has rank 1.
    pub fn rank(&self) -> usize {
        match self.nodes[0] {
            Node::Leaf(_) => 1,
            Node::Tuple { rank, .. } => rank as usize,
        }
    }

    /// Nesting depth: 0 for an integer, 1 for a flat tuple, and so on.
    pub fn depth(&self) -> usize {
        view_depth(&self.nodes)
    }

    /// The `i`-th top-level mode; mode 0 of an integer is the integer itself.
    pub fn get(&self, i: usize) -> Option<IntTuple> {
        self.mode_nodes(i).map(|n| IntTuple { nodes: n.iter().copied().collect() })
    }

    /// The top-level modes, in order (an integer yields itself).
    pub fn modes(&self) -> impl Iterator<Item = IntTuple> + '_ {
        children(&self.nodes).map(|n| IntTuple { nodes: n.iter().copied().collect() })
    }

    /// The leaves in order (colexicographic order of modes is left to right).
    pub fn leaves(&self) -> impl Iterator<Item = i64> + '_ {
        leaves(&self.nodes)
    }

    /// Number of leaves.
    pub fn leaf_count(&self) -> usize {
        self.leaves().count()
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
        self.leaves().try_fold(1i64, |acc, v| checked_mul(acc, v, "size"))
    }

    /// Same tree structure (the paper's congruence `∼`).
    pub fn congruent(&self, other: &IntTuple) -> bool {
        self.nodes.len() == other.nodes.len()
            && self.nodes.iter().zip(other.nodes.iter()).all(|(a, b)| match (a, b) {
                (Node::Leaf(_), Node::Leaf(_)) => true,
                (Node::Tuple { rank: r1, .. }, Node::Tuple { rank: r2, .. }) => r1 == r2,
                _ => false,
            })
    }

    /// `self` is weakly congruent to `other` (`self ≲ other`): wherever `self`
    /// has a tuple, `other` has a tuple of the same rank; an integer of `self`
    /// may stand for a whole subtree of `other`.
    pub fn weakly_congruent(&self, other: &IntTuple) -> bool {
        weakly_congruent(&self.nodes, &other.nodes)
    }

    /// Concatenation of the modes of several tuples into one tuple.
    pub fn concat<'a, I: IntoIterator<Item = &'a IntTuple>>(parts: I) -> IntTuple {
        let mut b = Builder::new();
        b.open();
        for p in parts {
            for c in children(&p.nodes) {
                b.push_tree(c);
            }
        }
        b.close();
        b.finish()
    }

    pub(crate) fn from_nodes(nodes: Nodes) -> Self {
        IntTuple { nodes }
    }

    pub(crate) fn mode_nodes(&self, i: usize) -> Option<&[Node]> {
        children(&self.nodes).nth(i)
    }
}

/// Depth of a subtree.
pub(crate) fn view_depth(nodes: &[Node]) -> usize {
    match nodes[0] {
        Node::Leaf(_) => 0,
        Node::Tuple { .. } => 1 + children_of_tuple(nodes).map(view_depth).max().unwrap_or(0),
    }
}

/// The leaves of a subtree, left to right.
pub(crate) fn leaves(nodes: &[Node]) -> impl Iterator<Item = i64> + '_ {
    nodes.iter().filter_map(|n| match n {
        Node::Leaf(v) => Some(*v),
        Node::Tuple { .. } => None,
    })
}

/// Number of nodes of the subtree starting at `nodes[0]`.
#[inline]
pub(crate) fn span(nodes: &[Node]) -> usize {
    match nodes[0] {
        Node::Leaf(_) => 1,
        Node::Tuple { span, .. } => span as usize,
    }
}

/// The modes of a subtree: its children for a tuple, itself for a leaf.
pub(crate) fn children(nodes: &[Node]) -> Children<'_> {
    match nodes[0] {
        Node::Leaf(_) => Children { rest: &nodes[..1] },
        Node::Tuple { .. } => children_of_tuple(nodes),
    }
}

fn children_of_tuple(nodes: &[Node]) -> Children<'_> {
    Children { rest: &nodes[1..span(nodes)] }
}

/// Iterator over the child subtrees of a tuple.
pub(crate) struct Children<'a> {
    rest: &'a [Node],
}

impl<'a> Iterator for Children<'a> {
    type Item = &'a [Node];
    #[inline]
    fn next(&mut self) -> Option<&'a [Node]> {
        if self.rest.is_empty() {
            return None;
        }
        let n = span(self.rest);
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Some(head)
    }
}

fn weakly_congruent(a: &[Node], b: &[Node]) -> bool {
    match (a[0], b[0]) {
        (Node::Leaf(_), _) => true,
        (Node::Tuple { rank: ra, .. }, Node::Tuple { rank: rb, .. }) => {
            ra == rb && children(a).zip(children(b)).all(|(x, y)| weakly_congruent(x, y))
        }
        (Node::Tuple { .. }, Node::Leaf(_)) => false,
    }
}

/// Builds a pre-order node list: `open`/`close` bracket a tuple, `leaf` adds
/// an integer. Tuple headers are patched with their rank and span on close.
pub(crate) struct Builder {
    nodes: Nodes,
    stack: SmallVec<[(usize, u32); 8]>,
}

impl Builder {
    pub(crate) fn new() -> Self {
        Builder { nodes: Nodes::new(), stack: SmallVec::new() }
    }

    fn bump(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.1 += 1;
        }
    }

    pub(crate) fn open(&mut self) {
        self.bump();
        self.stack.push((self.nodes.len(), 0));
        self.nodes.push(Node::Tuple { rank: 0, span: 0 });
    }

    pub(crate) fn close(&mut self) {
        if let Some((at, rank)) = self.stack.pop() {
            let span = (self.nodes.len() - at) as u32;
            self.nodes[at] = Node::Tuple { rank, span };
        }
    }

    pub(crate) fn leaf(&mut self, v: i64) {
        self.bump();
        self.nodes.push(Node::Leaf(v));
    }

    /// Appends a whole subtree as one child.
    pub(crate) fn push_tree(&mut self, tree: &[Node]) {
        self.bump();
        self.nodes.extend_from_slice(tree);
    }

    pub(crate) fn finish(self) -> IntTuple {
        IntTuple { nodes: self.nodes }
    }
}

/// The paper's `idx2crd` (eq. 4) for one level: splits the integral
/// coordinate `i` over the modes of `shape`, the last mode unbounded.
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
    let mut b = Builder::new();
    b.open();
    let mut rest = i;
    let r = shape.rank();
    for (k, m) in children(&shape.nodes).enumerate() {
        let s = leaves(m).try_fold(1i64, |a, v| checked_mul(a, v, "idx2crd"))?;
        if s < 1 {
            return Err(LayoutError::NonPositiveShape { shape: shape.to_string() });
        }
        if k + 1 == r {
            b.leaf(rest);
        } else {
            b.leaf(rest.rem_euclid(s));
            rest = rest.div_euclid(s);
        }
    }
    b.close();
    Ok(b.finish())
}

/// The paper's `crd2idx` (eq. 5): the integral coordinate of a coordinate
/// that is weakly congruent to `shape` (integers may stand for whole modes).
pub fn crd2idx(coord: &IntTuple, shape: &IntTuple) -> Result<i64> {
    crd2idx_nodes(&coord.nodes, &shape.nodes).ok_or_else(|| {
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

fn crd2idx_nodes(c: &[Node], s: &[Node]) -> Option<i64> {
    match c[0] {
        Node::Leaf(v) => Some(v),
        Node::Tuple { rank, .. } => {
            if let Node::Tuple { rank: rs, .. } = s[0] {
                if rank != rs {
                    return None;
                }
            } else {
                return None;
            }
            let mut idx = 0i64;
            let mut mult = 1i64;
            for (ci, si) in children(c).zip(children(s)) {
                let sub = crd2idx_nodes(ci, si)?;
                idx = idx.checked_add(sub.checked_mul(mult)?)?;
                let size = leaves(si).try_fold(1i64, |a, v| a.checked_mul(v))?;
                mult = mult.checked_mul(size)?;
            }
            Some(idx)
        }
    }
}
