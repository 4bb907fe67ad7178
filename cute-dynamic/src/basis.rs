//! Scaled basis strides: CuTe's `ScaledBasis` (`k@i`, `k@i@j`).
//!
//! A scaled basis `k·e` is `k` times a unit vector `e` of a (hierarchical)
//! coordinate codomain. CuTe writes `E<Ns...>` for the unit vector: `E<1>` is
//! `(_0,_1,_0,...)`, `E<1,0>` is `(_0,(_1,_0,...),_0,...)` (mode 1, then mode 0
//! inside it). CuTe prints the indices innermost first: `E<1,0>` prints
//! `_1@0@1`. The same text order is used here: `k@i@j` is the scaled basis
//! whose outermost index is `j` and innermost `i`.
//!
//! A layout whose strides are scaled bases maps a coordinate to a coordinate
//! (an arithmetic tuple) rather than to an integer; that is how CuTe builds
//! identity layouts (`make_identity_layout`).

use crate::error::{LayoutError, Result, checked_mul};
use crate::int_tuple::IntTuple;
use std::fmt;

/// `scale · E<path...>`: `scale` times the unit vector at `path` (outermost
/// index first, as CuTe's template arguments).
///
/// Post-condition of every constructor: the path is non-empty (an empty path
/// is a plain integer, not a basis).
///
/// ```
/// use cute_dynamic::ScaledBasis;
/// let e = ScaledBasis::new(1, &[1, 0]).unwrap(); // CuTe's E<1,0>
/// assert_eq!(e.to_string(), "1@0@1");             // printed innermost first, as CuTe
/// assert_eq!(e.to_arithmetic_tuple().to_string(), "(0,(1))");
/// assert_eq!(e.scaled(3).unwrap().to_string(), "3@0@1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScaledBasis {
    scale: i64,
    path: Vec<u32>,
}

/// The largest index `i` of a scaled basis `k@i`: a layout with basis
/// strides evaluates to a coordinate with a mode per index up to the
/// largest, and its inverses build a codomain of that rank.
pub const MAX_BASIS_INDEX: u32 = 65535;

/// The most indices of a nested scaled basis `k@i@j@...`: an inverse of a
/// layout with such strides nests its codomain as deep, and every printed
/// value must read back (the parser takes 64 levels of nesting).
pub const MAX_BASIS_DEPTH: usize = 32;

impl ScaledBasis {
    /// `scale · E<path...>`, the path outermost index first. An empty path is
    /// [`LayoutError::Unsupported`] (that would be a plain integer); an index
    /// above [`MAX_BASIS_INDEX`] or more than [`MAX_BASIS_DEPTH`] of them is
    /// [`LayoutError::Limit`].
    ///
    /// ```
    /// use cute_dynamic::ScaledBasis;
    /// let e = ScaledBasis::new(2, &[1])?; // 2 · E<1>
    /// assert_eq!(e.to_string(), "2@1");
    /// assert!(ScaledBasis::new(1, &[]).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn new(scale: i64, path: &[u32]) -> Result<ScaledBasis> {
        if path.is_empty() {
            return Err(LayoutError::Unsupported { what: "a scaled basis with no '@dim'".to_string() });
        }
        if let Some(&i) = path.iter().find(|&&i| i > MAX_BASIS_INDEX) {
            // Coordinates and codomains of rank `i + 1` are built from it.
            return Err(LayoutError::Limit {
                what: "basis index (a coordinate mode)",
                value: u64::from(i),
                limit: u64::from(MAX_BASIS_INDEX),
            });
        }
        if path.len() > MAX_BASIS_DEPTH {
            return Err(LayoutError::Limit {
                what: "basis nesting depth",
                value: path.len() as u64,
                limit: MAX_BASIS_DEPTH as u64,
            });
        }
        Ok(ScaledBasis { scale, path: path.to_vec() })
    }

    /// `1@0`, CuTe's `E<0>`.
    ///
    /// ```
    /// use cute_dynamic::ScaledBasis;
    /// assert_eq!(ScaledBasis::unit0().to_string(), "1@0");
    /// assert_eq!(ScaledBasis::unit0(), ScaledBasis::new(1, &[0])?);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn unit0() -> ScaledBasis {
        ScaledBasis { scale: 1, path: vec![0] }
    }

    /// The scale `k` of `k@i...`.
    ///
    /// ```
    /// use cute_dynamic::ScaledBasis;
    /// assert_eq!(ScaledBasis::new(3, &[1, 0])?.scale(), 3);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn scale(&self) -> i64 {
        self.scale
    }

    /// The indices of the unit vector, outermost first (CuTe's `E<Ns...>`).
    ///
    /// ```
    /// use cute_dynamic::ScaledBasis;
    /// let e = ScaledBasis::new(3, &[1, 0])?; // CuTe's E<1,0>
    /// assert_eq!(e.path(), &[1u32, 0]);
    /// assert_eq!(e.to_string(), "3@0@1"); // printed innermost first
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// The same unit vector scaled by `factor` more (`a · (k@i) = (a·k)@i`).
    ///
    /// ```
    /// use cute_dynamic::ScaledBasis;
    /// assert_eq!(ScaledBasis::new(2, &[1])?.scaled(3)?.to_string(), "6@1");
    /// assert!(ScaledBasis::new(i64::MAX, &[0])?.scaled(2).is_err()); // overflow
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn scaled(&self, factor: i64) -> Result<ScaledBasis> {
        Ok(ScaledBasis { scale: checked_mul(self.scale, factor, "scaled basis")?, path: self.path.clone() })
    }

    /// The basis as CuTe's arithmetic tuple of the smallest rank that holds
    /// it: zeros before the index at each level (`2@1` is `(0,2)`, `1@0@1`
    /// is `(0,(1))`).
    ///
    /// ```
    /// use cute_dynamic::ScaledBasis;
    /// assert_eq!(ScaledBasis::new(2, &[1])?.to_arithmetic_tuple().to_string(), "(0,2)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn to_arithmetic_tuple(&self) -> IntTuple {
        let mut t = IntTuple::int(self.scale);
        for &i in self.path.iter().rev() {
            let zeros = (0..i).map(|_| IntTuple::int(0));
            t = IntTuple::tuple(zeros.chain(std::iter::once(t)));
        }
        t
    }
}

impl fmt::Display for ScaledBasis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.scale)?;
        // CuTe prints the template indices last to first.
        for i in self.path.iter().rev() {
            write!(f, "@{i}")?;
        }
        Ok(())
    }
}

/// A tree of scaled bases: the stride tree of a layout with basis strides,
/// and what a normalized descriptor (`(2@0,(4@1,1@0@1))`) evaluates to.
///
/// ```
/// use cute_dynamic::parse_descriptor;
/// let d = parse_descriptor("((1@0, 8@1), 1@2)").unwrap();
/// assert_eq!(d.normalize().unwrap().to_string(), "((1@0,8@1),1@2)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BasisTuple {
    /// A plain integer stride (CuTe's `_0` of a stride-0 mode); a
    /// normalized descriptor has none.
    Int(i64),
    /// One scaled basis.
    Basis(ScaledBasis),
    /// A tuple of trees (possibly empty: the empty layout).
    Tuple(Vec<BasisTuple>),
}

impl fmt::Display for BasisTuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BasisTuple::Int(v) => write!(f, "{v}"),
            BasisTuple::Basis(b) => write!(f, "{b}"),
            BasisTuple::Tuple(items) => {
                write!(f, "(")?;
                for (k, t) in items.iter().enumerate() {
                    if k > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, ")")
            }
        }
    }
}
