//! The `N@dim` layout descriptor grammar of the CuTe dialect, exactly as the
//! dialect's description of it writes it:
//!
//! ```text
//! layout ::= group ;
//! group  ::= "(" ws [ entry { ws "," ws entry } ] ws ")" ;
//! entry  ::= group | basis ;
//! basis  ::= count ws "@" ws dim { ws "@" ws dim } ;
//! count  ::= int | int "/" int ;
//! dim    ::= uint ;
//! int    ::= [ "-" ] digit { digit } ;
//! uint   ::= digit { digit } ;
//! ws     ::= { " " | "\t" } ;
//! ```
//!
//! Whitespace (blanks and tabs only) is allowed where the grammar has `ws`
//! and after the closing parenthesis (that description's parser skips it
//! before checking for trailing text); nowhere else: not before the first `(`,
//! not inside a number, not around `/`. Empty groups are legal (the empty
//! layout). Parsing keeps a count as written (`4/2@0` stays `4/2@0`);
//! [`Descriptor::normalize`] then turns integral fractions into integers and
//! rejects a zero denominator or a non-integral count with an error naming
//! the entry and its column, so no impossible basis reaches a layout.

use crate::basis::{BasisTuple, ScaledBasis};
use crate::error::{LayoutError, Result};
use std::fmt;

/// How deeply groups may nest: deeper text is an error, not a stack overflow.
const MAX_DEPTH: usize = 64;

/// A parsed descriptor: a group of entries, each a group or a basis entry.
///
/// Equality compares the trees (counts, denominators, dimensions) and not
/// the columns the entries were read at, so that a descriptor equals the
/// parse of its own printout.
///
/// ```
/// use cute_dynamic::parse_descriptor;
/// let d = parse_descriptor("( (1@0 , 8 @ 1), 1@2 )").unwrap();
/// assert_eq!(d.to_string(), "((1@0,8@1),1@2)");
/// assert_eq!(parse_descriptor(&d.to_string()).unwrap(), d);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Descriptor {
    /// `( entry, ... )`; empty for `()`.
    Group(Vec<Descriptor>),
    /// `count[/den]@dim{@dim}`.
    Basis(BasisEntry),
    /// `0`: the zero vector, as CuTe prints a stride-0 mode of a layout
    /// with basis strides (`(4,2):(1@0,0)`).
    Zero,
}

/// One `count[/denominator]@dim{@dim}` entry, as written.
///
/// ```
/// use cute_dynamic::{Descriptor, parse_descriptor};
/// let Descriptor::Group(entries) = parse_descriptor("(4/2@0, 1@0@1)")? else { unreachable!() };
/// let Descriptor::Basis(e) = &entries[1] else { unreachable!() };
/// assert_eq!((e.count, e.denominator, e.dims.as_slice(), e.column), (1, None, [0, 1].as_slice(), 9));
/// // The count stays as written until it is normalized.
/// let Descriptor::Basis(e) = &entries[0] else { unreachable!() };
/// assert_eq!((e.count, e.denominator, e.to_string().as_str()), (4, Some(2), "4/2@0"));
/// assert_eq!(e.normalize()?.to_string(), "2@0");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug)]
pub struct BasisEntry {
    /// The numerator of the count (the count itself without a `/`).
    pub count: i64,
    /// The denominator after `/`, if any (not yet checked: may be 0).
    pub denominator: Option<i64>,
    /// The dimensions in text order: `1@0@1` has `[0, 1]`.
    pub dims: Vec<u32>,
    /// The 1-based byte column of the entry's first character.
    pub column: usize,
}

impl PartialEq for BasisEntry {
    fn eq(&self, other: &BasisEntry) -> bool {
        self.count == other.count && self.denominator == other.denominator && self.dims == other.dims
    }
}

impl Eq for BasisEntry {}

impl fmt::Display for BasisEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.count)?;
        if let Some(d) = self.denominator {
            write!(f, "/{d}")?;
        }
        for d in &self.dims {
            write!(f, "@{d}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Descriptor {
    /// No blanks: `(1/2@0,(4@1,1@0@1),())`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Descriptor::Basis(b) => write!(f, "{b}"),
            Descriptor::Zero => write!(f, "0"),
            Descriptor::Group(items) => {
                write!(f, "(")?;
                for (k, e) in items.iter().enumerate() {
                    if k > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{e}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl BasisEntry {
    /// The entry's scaled basis: the count divided by its denominator,
    /// with the dimensions as CuTe's `E<...>` (the last `@dim` outermost).
    ///
    /// Errors: [`LayoutError::ZeroDenominator`] for `n/0`,
    /// [`LayoutError::NonIntegralCount`] when the denominator does not
    /// divide the count, [`LayoutError::Overflow`] for `i64::MIN/-1`; each
    /// names the entry and its column.
    ///
    /// ```
    /// use cute_dynamic::{BasisEntry, LayoutError};
    /// let e = BasisEntry { count: 8, denominator: Some(2), dims: vec![0, 1], column: 1 };
    /// assert_eq!(e.normalize()?.to_string(), "4@0@1");
    /// let bad = BasisEntry { count: 1, denominator: Some(0), dims: vec![0], column: 3 };
    /// assert!(matches!(bad.normalize(), Err(LayoutError::ZeroDenominator { column: 3, .. })));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn normalize(&self) -> Result<ScaledBasis> {
        let scale = match self.denominator {
            None => self.count,
            Some(0) => return Err(LayoutError::ZeroDenominator { entry: self.to_string(), column: self.column }),
            Some(d) => {
                if self.count.checked_rem(d).is_some_and(|r| r != 0) {
                    return Err(LayoutError::NonIntegralCount {
                        entry: self.to_string(),
                        count: self.count,
                        denominator: d,
                        column: self.column,
                    });
                }
                match self.count.checked_div(d) {
                    Some(v) => v,
                    None => return Err(LayoutError::Overflow { operation: "descriptor normalization" }),
                }
            }
        };
        let path: Vec<u32> = self.dims.iter().rev().copied().collect();
        ScaledBasis::new(scale, &path)
    }
}

impl Descriptor {
    /// The descriptor with every count normalized (see
    /// [`BasisEntry::normalize`]): a tree of scaled bases with the same
    /// structure, `(4/2@0, 4@1)` becoming `(2@0,4@1)`.
    ///
    /// ```
    /// use cute_dynamic::{LayoutError, parse_descriptor};
    /// let d = parse_descriptor("(4/2@0, 4@1)").unwrap();
    /// assert_eq!(d.normalize().unwrap().to_string(), "(2@0,4@1)");
    /// let bad = parse_descriptor("(1/2@0, 4@1)").unwrap(); // parses...
    /// // ...but does not normalize:
    /// assert!(matches!(bad.normalize(), Err(LayoutError::NonIntegralCount { column: 2, .. })));
    /// ```
    pub fn normalize(&self) -> Result<BasisTuple> {
        match self {
            Descriptor::Basis(b) => Ok(BasisTuple::Basis(b.normalize()?)),
            Descriptor::Zero => Ok(BasisTuple::Int(0)),
            Descriptor::Group(items) => {
                Ok(BasisTuple::Tuple(items.iter().map(Descriptor::normalize).collect::<Result<_>>()?))
            }
        }
    }
}

/// Parses a descriptor (the CuTe dialect's grammar, see the module documentation).
/// Errors are [`LayoutError::Parse`] with the 1-based byte column and what
/// was expected there; nothing is ever defaulted.
///
/// ```
/// use cute_dynamic::parse_descriptor;
/// for text in ["(1@0, 1@1)", "(16@0, 1@1)", "((1@0, 8@1), 1@2)", "(1/2@0, 4@1)", "(1@0@1)"] {
///     assert!(parse_descriptor(text).is_ok());
/// }
/// assert_eq!(parse_descriptor("()").unwrap().to_string(), "()");
/// let e = parse_descriptor("(1@0,").unwrap_err();
/// assert_eq!(e.column(), Some(6));
/// ```
pub fn parse_descriptor(text: &str) -> Result<Descriptor> {
    let mut p = DescParser { src: text.as_bytes(), pos: 0 };
    let d = p.group(0)?;
    p.ws();
    if p.pos < p.src.len() {
        return Err(p.error("end of the descriptor"));
    }
    Ok(d)
}

/// Parses a descriptor group starting at byte `*pos` of `src` (which must
/// be at its `(`), leaving `*pos` after its `)` and any blanks. Columns in
/// errors count from the start of `src`. For the expression evaluator.
pub(crate) fn parse_descriptor_at(src: &str, pos: &mut usize) -> Result<Descriptor> {
    let mut p = DescParser { src: src.as_bytes(), pos: *pos };
    let d = p.group(0)?;
    p.ws();
    *pos = p.pos;
    Ok(d)
}

/// Parses one entry, `count[/den]@dim{@dim}` or `0`, starting at byte
/// `*pos` of `src` (a scaled basis written alone, as `4:1@0` has it),
/// leaving `*pos` after it and any blanks. For the expression evaluator.
pub(crate) fn parse_descriptor_entry_at(src: &str, pos: &mut usize) -> Result<Descriptor> {
    let mut p = DescParser { src: src.as_bytes(), pos: *pos };
    let d = p.entry(0)?;
    p.ws();
    *pos = p.pos;
    Ok(d)
}

/// `true` if the text at byte `pos` is an integer followed by `@` or `/`:
/// a scaled basis written alone (`1@0`, `4/2@1`).
pub(crate) fn bare_basis_ahead(src: &str, pos: usize) -> bool {
    let b = src.as_bytes();
    let mut i = pos;
    if b.get(i) == Some(&b'-') {
        i += 1;
    }
    let digits = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i > digits && matches!(b.get(i), Some(b'@' | b'/'))
}

/// `true` if the parenthesised text starting at byte `pos` (at a `(`)
/// contains an `@` before its matching `)`: the evaluator's test for a
/// descriptor.
pub(crate) fn looks_like_descriptor(src: &str, pos: usize) -> bool {
    let mut depth = 0usize;
    for &c in src.as_bytes().get(pos..).unwrap_or(&[]) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return false;
                }
            }
            b'@' => return true,
            _ => {}
        }
    }
    false
}

struct DescParser<'a> {
    src: &'a [u8],
    pos: usize,
}

impl DescParser<'_> {
    fn ws(&mut self) {
        while matches!(self.src.get(self.pos), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    fn error(&self, expected: &str) -> LayoutError {
        let found = match self.src.get(self.pos..) {
            Some(rest) if !rest.is_empty() => match String::from_utf8_lossy(rest).chars().next() {
                Some(c) => format!("'{c}'"),
                None => "end of input".to_string(),
            },
            _ => "end of input".to_string(),
        };
        LayoutError::Parse { column: self.pos + 1, expected: expected.to_string(), found }
    }

    fn group(&mut self, depth: usize) -> Result<Descriptor> {
        if depth >= MAX_DEPTH {
            return Err(self.error("at most 64 levels of nested groups"));
        }
        if self.peek() != Some(b'(') {
            return Err(self.error("'('"));
        }
        self.pos += 1;
        self.ws();
        let mut entries = Vec::new();
        if self.peek() == Some(b')') {
            self.pos += 1;
            return Ok(Descriptor::Group(entries));
        }
        loop {
            entries.push(self.entry(depth)?);
            self.ws();
            match self.peek() {
                Some(b')') => {
                    self.pos += 1;
                    return Ok(Descriptor::Group(entries));
                }
                Some(b',') => {
                    self.pos += 1;
                    self.ws();
                }
                _ => return Err(self.error("',' or ')'")),
            }
        }
    }

    fn entry(&mut self, depth: usize) -> Result<Descriptor> {
        match self.peek() {
            Some(b'(') => self.group(depth + 1),
            Some(b'-' | b'0'..=b'9') => self.basis(),
            _ => Err(self.error("a group '(' or a basis 'count@dim'")),
        }
    }

    fn basis(&mut self) -> Result<Descriptor> {
        let column = self.pos + 1;
        let count = self.int()?;
        let denominator = if self.peek() == Some(b'/') {
            self.pos += 1;
            Some(self.int()?)
        } else {
            None
        };
        let mut dims = Vec::new();
        self.ws();
        if self.peek() != Some(b'@') {
            if denominator.is_none() && count == 0 {
                return Ok(Descriptor::Zero);
            }
            if denominator.is_none() && matches!(self.peek(), Some(b',' | b')') | None) {
                // An integer beside scaled bases: CuTe adds no integer to a
                // coordinate, so only the zero vector may be written so.
                return Err(LayoutError::Parse {
                    column,
                    expected: format!(
                        "a scaled basis count@dim: a stride beside scaled bases is a vector, so the integer {count} \
                         is not one (write {count}@i for {count} along mode i; only 0 stands alone)"
                    ),
                    found: format!("'{count}'"),
                });
            }
            return Err(self.error(if denominator.is_none() { "'/' or '@'" } else { "'@'" }));
        }
        while self.peek() == Some(b'@') {
            self.pos += 1;
            self.ws();
            dims.push(self.uint()?);
            self.ws();
        }
        Ok(Descriptor::Basis(BasisEntry { count, denominator, dims, column }))
    }

    /// `["-"] digit {digit}`, fitting in an `i64`.
    fn int(&mut self) -> Result<i64> {
        let start = self.pos;
        let neg = self.peek() == Some(b'-');
        if neg {
            self.pos += 1;
        }
        let digits = self.pos;
        let Some((v, end)) = crate::parse::signed_digits(self.src, self.pos, neg) else {
            self.pos = start;
            return Err(self.error("an integer that fits in 64 bits"));
        };
        self.pos = end;
        if self.pos == digits {
            return Err(self.error("a digit"));
        }
        Ok(v)
    }

    /// `digit {digit}`, fitting in a `u32`.
    fn uint(&mut self) -> Result<u32> {
        let start = self.pos;
        let mut v: u32 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            v = match v.checked_mul(10).and_then(|v| v.checked_add(u32::from(c - b'0'))) {
                Some(v) => v,
                None => {
                    self.pos = start;
                    return Err(self.error("a dimension that fits in 32 bits"));
                }
            };
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.error("a dimension (digits)"));
        }
        Ok(v)
    }
}
