//! A conflict-free swizzle of a shared-memory tile, searched for (beyond
//! CuTe).
//!
//! A tile of shared memory is written by one access pattern and read by
//! another: in CuTe terms, the tile's layout `L` (coordinate index → element
//! offset) and two thread-value layouts `(thr, val) → coordinate index of
//! the tile` (from [`make_layout_tv`](crate::make_layout_tv), or the TV
//! layouts of CuTe's tiled copies and MMAs). A swizzle `Sw<B,M,S>` on the
//! offsets, the composed layout `Sw ∘ 0 ∘ L`, permutes where the elements
//! live without changing which thread touches which element, and the right
//! one removes the bank conflicts of both patterns at once.
//!
//! [`suggest_swizzle`] measures every candidate swizzle under the bank model
//! of [`bank_wavefronts`] (32 banks of 4 bytes; each value index of a group
//! of 32 threads is one request, grouped as `cute --banks` groups a
//! thread-value layout) and under the widest vector each thread can use,
//! and ranks them. As in `--banks`, a request is one value of 32 threads:
//! a thread that moves `K` values as one vector issues one request of
//! `K·elem_bytes` bytes on the hardware, which the pattern models when it
//! is written in vectors (a layout of vectors, `elem_bytes · K`).
//!
//! **Units.** The swizzle acts on *element* offsets: a candidate is the
//! composed layout `Sw ∘ 0 ∘ L` exactly as [`ComposedLayout::compose`]
//! builds it, with `L`'s offsets in elements of `elem_bytes` bytes. CuTe's
//! shared-memory atoms are given on *byte* addresses (`Sw<b,4,3>`: 16-byte
//! chunks, 128-byte rows); for elements of `2^e <= 16` bytes the byte
//! swizzle `Sw<b,4,3>` moves whole elements and equals the element swizzle
//! `Sw<b,4-e,3>` exactly (`Sw<b,4,3>(o·2^e) == Sw<b,4-e,3>(o)·2^e` for
//! every offset `o`), which is how they enter the search ([`SmemAtom`]).

use crate::bank_conflicts::{BANK_BYTES, BANKS, MAX_ELEM_BYTES, bank_wavefronts, threads_values};
use crate::composed::ComposedLayout;
use crate::error::{LayoutError, Result};
use crate::layout::Layout;
use crate::swizzle::Swizzle;
use std::cmp::Reverse;
use std::fmt;

/// The largest tile (its size) and the most accesses of one phase (its
/// thread-value layout's size) a search takes: each is read once into a
/// list of offsets.
pub const MAX_SEARCH_ELEMENTS: i64 = 1 << 20;

/// The most offset bits searched: a tile whose cosize is above `2^24`
/// elements (far beyond any shared memory) is refused rather than searched
/// with thousands of candidates.
pub const MAX_SEARCH_BITS: u32 = 24;

/// The most work a search does: candidates × (the tile's size + the
/// accesses of both phases × the words each element touches, at most
/// `elem_bytes / 4 + 2`). Above it the search is refused.
pub const MAX_SEARCH_WORK: i64 = 1 << 27;

/// One of CuTe's canonical shared-memory swizzle atoms (the modes of
/// Hopper's GMMA and TMA: `Layout_K_INTER_Atom`, `Layout_K_SW32_Atom`, ...
/// in `include/cute/atom/mma_traits_sm90_gmma.hpp`), each a swizzle of byte
/// addresses `Sw<b,4,3>`.
///
/// ```
/// use cute_dynamic::{SmemAtom, Swizzle};
/// assert_eq!(SmemAtom::Sw128.byte_swizzle(), Swizzle::smem_128b()); // Sw<3,4,3>
/// assert_eq!(SmemAtom::Sw128.in_elements(4), Some(Swizzle::new(3, 2, 3)?)); // on floats
/// assert_eq!(SmemAtom::Sw128.in_elements(3), None); // 16-byte chunks split 3-byte elements
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmemAtom {
    /// `Sw<0,4,3>`: no swizzle (interleaved 16-byte chunks).
    Inter,
    /// `Sw<1,4,3>`: 32-byte swizzle.
    Sw32,
    /// `Sw<2,4,3>`: 64-byte swizzle.
    Sw64,
    /// `Sw<3,4,3>`: 128-byte swizzle.
    Sw128,
}

impl SmemAtom {
    /// The four atoms, narrowest first.
    ///
    /// ```
    /// use cute_dynamic::SmemAtom;
    /// let names: Vec<&str> = SmemAtom::ALL.iter().map(|a| a.name()).collect();
    /// assert_eq!(names, ["INTER", "SW32", "SW64", "SW128"]);
    /// ```
    pub const ALL: [SmemAtom; 4] = [SmemAtom::Inter, SmemAtom::Sw32, SmemAtom::Sw64, SmemAtom::Sw128];

    /// CuTe's name of the atom's swizzle mode.
    ///
    /// ```
    /// use cute_dynamic::SmemAtom;
    /// assert_eq!(SmemAtom::Sw64.name(), "SW64");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            SmemAtom::Inter => "INTER",
            SmemAtom::Sw32 => "SW32",
            SmemAtom::Sw64 => "SW64",
            SmemAtom::Sw128 => "SW128",
        }
    }

    /// `B` of the atom's `Sw<B,4,3>`.
    fn bits(self) -> i64 {
        match self {
            SmemAtom::Inter => 0,
            SmemAtom::Sw32 => 1,
            SmemAtom::Sw64 => 2,
            SmemAtom::Sw128 => 3,
        }
    }

    /// The atom's swizzle of byte addresses, `Sw<B,4,3>` (`Sw<0,0,0>` for
    /// `INTER`: with `B = 0` every `Sw<0,M,S>` is the identity).
    ///
    /// ```
    /// use cute_dynamic::SmemAtom;
    /// assert_eq!(SmemAtom::Sw32.byte_swizzle().to_string(), "Sw<1,4,3>");
    /// assert_eq!(SmemAtom::Inter.byte_swizzle().to_string(), "Sw<0,0,0>");
    /// ```
    pub fn byte_swizzle(self) -> Swizzle {
        match self {
            SmemAtom::Inter => Swizzle::smem_none(),
            SmemAtom::Sw32 => Swizzle::smem_32b(),
            SmemAtom::Sw64 => Swizzle::smem_64b(),
            SmemAtom::Sw128 => Swizzle::smem_128b(),
        }
    }

    /// The same function on the offsets of elements of `elem_bytes` bytes:
    /// `Sw<B,4-e,3>` for `elem_bytes = 2^e <= 16`, `None` otherwise (the
    /// atom's 16-byte chunks would split elements, so it is no permutation
    /// of elements).
    ///
    /// Post-condition: for `Some(sw)`, `byte_swizzle().apply(o · elem_bytes)
    /// == sw.apply(o) · elem_bytes` for every offset `o`.
    ///
    /// ```
    /// use cute_dynamic::SmemAtom;
    /// let sw = SmemAtom::Sw128.in_elements(2).unwrap(); // half precision
    /// assert_eq!(sw.to_string(), "Sw<3,3,3>");
    /// assert_eq!(SmemAtom::Sw128.byte_swizzle().apply(0x1C6 * 2), sw.apply(0x1C6) * 2);
    /// assert_eq!(SmemAtom::Sw128.in_elements(32), None);
    /// ```
    pub fn in_elements(self, elem_bytes: i64) -> Option<Swizzle> {
        if elem_bytes <= 0 || elem_bytes & (elem_bytes - 1) != 0 || elem_bytes > 16 {
            return None;
        }
        if self == SmemAtom::Inter {
            return Some(Swizzle::smem_none());
        }
        Swizzle::new(self.bits(), 4 - i64::from(elem_bytes.trailing_zeros()), 3).ok()
    }
}

/// The figures of one phase (the write or the read) under one swizzle.
///
/// ```
/// use cute_dynamic::{Layout, PhaseFigures, suggest_swizzle};
/// let tile: Layout = "(8,32):(32,1)".parse()?; // 8 rows of 32 floats
/// let r = suggest_swizzle(&tile, 4, &"(32,8):(8,1)".parse()?, &"(32,8):(1,32)".parse()?)?;
/// // Without a swizzle, each write request is a row: 32 banks, one wavefront.
/// assert_eq!(r.unswizzled.write, PhaseFigures { wavefronts: 8, ideal: 8, vector: 1 });
/// // Each read request takes 4 columns of all 8 rows: 4 banks, 8 words in each.
/// assert_eq!(r.unswizzled.read, PhaseFigures { wavefronts: 64, ideal: 8, vector: 1 });
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PhaseFigures {
    /// The wavefronts of all the phase's requests, every group of 32
    /// threads and every value index ([`bank_wavefronts`] summed).
    pub wavefronts: i64,
    /// The fewest wavefronts those requests could take (each request's
    /// `ceil(distinct words / 32)`, summed).
    pub ideal: i64,
    /// The widest vector, in elements, every thread of the phase can move
    /// its values with: the largest power of two `K` dividing the number
    /// of values such that each thread's values `jK .. jK+K-1` (in value
    /// order) lie at `K` consecutive swizzled offsets starting at a
    /// multiple of `K`. That is [`max_common_vector`](crate::max_common_vector)'s
    /// post-condition (the first `K` values at `K` consecutive offsets,
    /// against the compact register fragment) for every chunk of every
    /// thread, plus the alignment a vector access needs; read off the
    /// offsets, so it is exact for a swizzle (CuTe's own estimate for a
    /// swizzled layout is `min(max_common_vector(L, b), 2^M)`).
    pub vector: i64,
}

impl PhaseFigures {
    /// `true` when every request of the phase takes its ideal number of
    /// wavefronts (`wavefronts == ideal`).
    ///
    /// ```
    /// use cute_dynamic::PhaseFigures;
    /// assert!(PhaseFigures { wavefronts: 8, ideal: 8, vector: 1 }.is_conflict_free());
    /// assert!(!PhaseFigures { wavefronts: 64, ideal: 8, vector: 1 }.is_conflict_free());
    /// ```
    pub fn is_conflict_free(&self) -> bool {
        self.wavefronts == self.ideal
    }
}

impl fmt::Display for PhaseFigures {
    /// `8 wavefronts (ideal 8), vector 1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = if self.wavefronts == 1 { "" } else { "s" };
        write!(f, "{} wavefront{plural} (ideal {}), vector {}", self.wavefronts, self.ideal, self.vector)
    }
}

/// One swizzle measured: both phases' figures.
///
/// ```
/// use cute_dynamic::{Layout, PhaseFigures, SmemAtom, Swizzle, suggest_swizzle};
/// let tile: Layout = "(8,32):(32,1)".parse()?; // 8 rows of 32 floats
/// let r = suggest_swizzle(&tile, 4, &"(32,8):(8,1)".parse()?, &"(32,8):(1,32)".parse()?)?;
/// let c = r.best;
/// // XOR the row (offset bits 5-7) into the 4-float chunk of the column (bits 2-4): CuTe's SW128.
/// assert_eq!((c.swizzle, c.atom), (Swizzle::new(3, 2, 3)?, Some(SmemAtom::Sw128)));
/// assert_eq!(c.read, PhaseFigures { wavefronts: 8, ideal: 8, vector: 1 }); // 64 without it
/// assert_eq!(c.extent, 256); // a permutation of the tile's 256 offsets
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwizzleCandidate {
    /// The swizzle, acting on element offsets (the layout is
    /// `ComposedLayout::compose(swizzle, tile)`).
    pub swizzle: Swizzle,
    /// The CuTe atom this swizzle is on these elements, if it is one.
    pub atom: Option<SmemAtom>,
    /// The figures of the write phase.
    pub write: PhaseFigures,
    /// The figures of the read phase.
    pub read: PhaseFigures,
    /// One past the largest swizzled offset of the whole tile: the elements
    /// of shared memory the swizzled tile needs (from offset 0). A swizzle
    /// permutes `[0, 2^n)`, so where the tile's cosize is not a power of two
    /// this may pass the unswizzled tile's.
    pub extent: i64,
}

impl SwizzleCandidate {
    /// The wavefronts of both phases together.
    ///
    /// ```
    /// use cute_dynamic::{Layout, suggest_swizzle};
    /// let tile: Layout = "(8,32):(32,1)".parse()?;
    /// let r = suggest_swizzle(&tile, 4, &"(32,8):(8,1)".parse()?, &"(32,8):(1,32)".parse()?)?;
    /// assert_eq!(r.unswizzled.total_wavefronts(), 8 + 64);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn total_wavefronts(&self) -> i64 {
        self.write.wavefronts + self.read.wavefronts
    }

    /// `true` when both phases take their ideal wavefronts.
    ///
    /// ```
    /// use cute_dynamic::{Layout, suggest_swizzle};
    /// let tile: Layout = "(8,32):(32,1)".parse()?;
    /// let r = suggest_swizzle(&tile, 4, &"(32,8):(8,1)".parse()?, &"(32,8):(1,32)".parse()?)?;
    /// assert!(!r.unswizzled.is_conflict_free());
    /// assert!(r.best.is_conflict_free());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn is_conflict_free(&self) -> bool {
        self.write.is_conflict_free() && self.read.is_conflict_free()
    }

    /// The ranking: fewest total wavefronts, then the widest vectors (the
    /// narrower of the two phases' first, then the wider), then the
    /// smallest extent, then the smallest `B`, `M`, `|S|`, positive `S`
    /// first. Distinct swizzles have distinct keys.
    fn rank_key(&self) -> (i64, Reverse<i64>, Reverse<i64>, i64, u32, u32, u32, bool) {
        let (lo, hi) = (self.write.vector.min(self.read.vector), self.write.vector.max(self.read.vector));
        let sw = &self.swizzle;
        (
            self.total_wavefronts(),
            Reverse(lo),
            Reverse(hi),
            self.extent,
            sw.bits(),
            sw.base(),
            sw.shift().unsigned_abs(),
            sw.shift() < 0,
        )
    }
}

impl fmt::Display for SwizzleCandidate {
    /// `Sw<3,2,3>: write 8 wavefronts (ideal 8), vector 1; read 8
    /// wavefronts (ideal 8), vector 1 [SW128 atom]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: write {}; read {}", self.swizzle, self.write, self.read)?;
        if let Some(a) = self.atom {
            write!(f, " [{} atom]", a.name())?;
        }
        Ok(())
    }
}

/// The answer of [`suggest_swizzle`]: the candidates that are conflict-free
/// in both phases, ranked, the best candidate, and the figures without a
/// swizzle and of CuTe's atoms.
///
/// ```
/// use cute_dynamic::{Layout, suggest_swizzle};
/// let tile: Layout = "(8,32):(32,1)".parse()?; // 8 rows of 32 floats
/// let r = suggest_swizzle(&tile, 4, &"(32,8):(8,1)".parse()?, &"(32,8):(1,32)".parse()?)?;
/// assert_eq!((r.bits, r.write_shape, r.read_shape), (8, (32, 8), (32, 8))); // cosize 256 = 2^8
/// assert_eq!(r.conflict_free.first(), Some(&r.best));
/// // CuTe's atoms, INTER to SW128: each bit more of swizzle halves the read's wavefronts.
/// let reads: Vec<i64> = r.atoms.iter().map(|a| a.read.wavefronts).collect();
/// assert_eq!(reads, [64, 32, 16, 8]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwizzleSearch {
    /// The tile's layout (coordinate index → element offset).
    pub tile: Layout,
    /// Bytes per element.
    pub elem_bytes: i64,
    /// `n`, the bits of the tile's offsets: the smallest `n` with
    /// `cosize <= 2^n`. The swizzles of [`swizzle_search_space`] touch
    /// bits below `n` only (CuTe's atoms are measured even where they reach
    /// past it).
    pub bits: u32,
    /// The write phase's threads and values per thread.
    pub write_shape: (i64, i64),
    /// The read phase's threads and values per thread.
    pub read_shape: (i64, i64),
    /// The number of distinct swizzles measured.
    pub searched: usize,
    /// The figures without a swizzle (`Sw<0,0,0>`; CuTe's `INTER` atom
    /// where the atoms apply).
    pub unswizzled: SwizzleCandidate,
    /// Every candidate conflict-free in both phases, best first (see
    /// [`SwizzleCandidate`]'s ranking: fewest total wavefronts, then widest
    /// vectors, then smallest extent, then smallest `B`).
    pub conflict_free: Vec<SwizzleCandidate>,
    /// The first candidate in that ranking over all candidates: the first
    /// of `conflict_free` when there is one.
    pub best: SwizzleCandidate,
    /// CuTe's atoms on these elements, narrowest first; empty when the
    /// elements are not `2^e <= 16` bytes ([`SmemAtom::in_elements`]).
    pub atoms: Vec<SwizzleCandidate>,
}

/// How many conflict-free candidates the report's `Display` lists (`{:#}`
/// lists them all).
const DISPLAY_LIST: usize = 16;

impl SwizzleSearch {
    /// The swizzled tile of a candidate: `swizzle ∘ 0 ∘ tile`.
    ///
    /// ```
    /// use cute_dynamic::{Layout, suggest_swizzle};
    /// let tile: Layout = "(8,32):(32,1)".parse()?;
    /// let r = suggest_swizzle(&tile, 4, &"(32,8):(8,1)".parse()?, &"(32,8):(1,32)".parse()?)?;
    /// assert_eq!(r.layout(&r.best).to_string(), "Sw<3,2,3> o 0 o (8,32):(32,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout(&self, candidate: &SwizzleCandidate) -> ComposedLayout {
        ComposedLayout::compose(candidate.swizzle, &self.tile)
    }

    /// One line per candidate: `prefix`, the figures (the swizzle too when
    /// `with_swizzle`), the atom it is, a note when its extent passes the
    /// tile's.
    fn write_candidate(
        &self,
        f: &mut fmt::Formatter<'_>,
        prefix: &str,
        c: &SwizzleCandidate,
        with_swizzle: bool,
    ) -> fmt::Result {
        if with_swizzle {
            write!(f, "{prefix}{c}")?;
        } else {
            write!(f, "{prefix}write {}; read {}", c.write, c.read)?;
        }
        if c.extent > self.unswizzled.extent {
            write!(f, " (needs {} elements, the tile {})", c.extent, self.unswizzled.extent)?;
        }
        writeln!(f)
    }
}

impl fmt::Display for SwizzleSearch {
    /// The tile, the phases and the search space; the figures without a
    /// swizzle; the conflict-free candidates, best first (the first 16;
    /// `{:#}` lists all); the best when none is conflict-free; CuTe's atoms.
    ///
    /// ```
    /// use cute_dynamic::{Layout, suggest_swizzle};
    /// let tile: Layout = "(8,32):(32,1)".parse()?;
    /// let r = suggest_swizzle(&tile, 4, &"(32,8):(8,1)".parse()?, &"(32,8):(1,32)".parse()?)?;
    /// let text = r.to_string();
    /// assert!(text.contains("no swizzle: write 8 wavefronts (ideal 8), vector 1; read 64 wavefronts (ideal 8)"));
    /// assert!(text.contains("  1. Sw<3,2,3>: write 8 wavefronts (ideal 8), vector 1; read 8 wavefronts"));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.bits;
        let (w, r) = (self.write_shape, self.read_shape);
        writeln!(
            f,
            "tile {} of {}-byte elements, cosize {} ({n} offset bits)",
            self.tile,
            self.elem_bytes,
            self.tile.cosize()
        )?;
        writeln!(f, "write {} threads x {} values, read {} threads x {} values", w.0, w.1, r.0, r.1)?;
        writeln!(
            f,
            "searched {} swizzles of element offsets: Sw<0,0,0>, every Sw<B,M,S> with B >= 1, |S| >= B, M+|S|+B <= {n}, CuTe's atoms",
            self.searched
        )?;
        writeln!(
            f,
            "wavefronts: all requests of a phase, {BANKS} banks x {BANK_BYTES} bytes; vector: elements per access of every thread"
        )?;
        self.write_candidate(f, "no swizzle: ", &self.unswizzled, false)?;
        writeln!(f, "conflict-free in both phases, best first: {}", self.conflict_free.len())?;
        let shown = if f.alternate() { self.conflict_free.len() } else { DISPLAY_LIST };
        for (i, c) in self.conflict_free.iter().take(shown).enumerate() {
            self.write_candidate(f, &format!("  {}. ", i + 1), c, true)?;
        }
        if self.conflict_free.len() > shown {
            writeln!(f, "  ... and {} more", self.conflict_free.len() - shown)?;
        }
        if !self.best.is_conflict_free() {
            self.write_candidate(f, "best, not conflict-free: ", &self.best, true)?;
        }
        match SmemAtom::Sw128.in_elements(self.elem_bytes) {
            Some(sw) => writeln!(
                f,
                "CuTe's atoms (Sw<B,4,3> of bytes is Sw<B,{},3> of {}-byte elements):",
                sw.base(),
                self.elem_bytes
            )?,
            None => writeln!(
                f,
                "CuTe's atoms: none on {}-byte elements (their 16-byte chunks would split elements)",
                self.elem_bytes
            )?,
        }
        for a in &self.atoms {
            let name = a.atom.map_or("", SmemAtom::name);
            self.write_candidate(f, &format!("  {name:<5} {}: ", a.swizzle), a, false)?;
        }
        Ok(())
    }
}

/// The swizzles searched for offsets of `bits` bits, in the ranking's
/// order of parameters: `Sw<0,0,0>`, then every `Sw<B,M,S>` with `B >= 1`,
/// `M >= 0`, `|S| >= B` and `M + |S| + B <= bits` (the swizzle's highest
/// bit inside the offsets), both signs of `S`, by `B`, then `M`, then
/// `|S|`, positive first.
///
/// Post-conditions: the swizzles are distinct functions on `[0, 2^bits)`,
/// each a permutation of it; there are `1 + 2 · Σ_{B>=1} Σ_{S>=B}
/// max(0, bits - B - S + 1)` of them.
///
/// Errors: `bits` above [`MAX_SEARCH_BITS`] ([`LayoutError::Limit`]).
///
/// ```
/// use cute_dynamic::swizzle_search_space;
/// let space = swizzle_search_space(3)?;
/// let text: Vec<String> = space.iter().map(|s| s.to_string()).collect();
/// assert_eq!(text, ["Sw<0,0,0>", "Sw<1,0,1>", "Sw<1,0,-1>", "Sw<1,0,2>", "Sw<1,0,-2>", "Sw<1,1,1>", "Sw<1,1,-1>"]);
/// assert_eq!(swizzle_search_space(8)?.len(), 101);
/// assert!(swizzle_search_space(25).is_err());
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn swizzle_search_space(bits: u32) -> Result<Vec<Swizzle>> {
    if bits > MAX_SEARCH_BITS {
        return Err(LayoutError::Limit {
            what: "offset bits of a tile searched for a swizzle",
            value: u64::from(bits),
            limit: u64::from(MAX_SEARCH_BITS),
        });
    }
    let n = i64::from(bits);
    let mut out = vec![Swizzle::smem_none()];
    for b in 1..=n {
        for m in 0..=n {
            for s in b..=n - m - b {
                for shift in [s, -s] {
                    // In range by the loop bounds: B >= 1, |S| >= B, below bit 25.
                    out.extend(Swizzle::new(b, m, shift).ok());
                }
            }
        }
    }
    Ok(out)
}

/// One phase's accesses: the tile's offset of thread `t`'s value `v` at
/// `t + v · threads`, before any swizzle.
struct Phase {
    threads: i64,
    values: i64,
    offsets: Vec<i64>,
}

impl Phase {
    /// Reads a thread-value layout through the tile's offsets; every
    /// coordinate index it takes must lie in the tile.
    fn new(name: &str, tv: &Layout, tile: &Layout, tile_offsets: &[i64]) -> Result<Phase> {
        let (threads, values) = threads_values(tv);
        let mut offsets = Vec::with_capacity(usize::try_from(tv.size()).unwrap_or(0));
        for i in 0..tv.size() {
            let c = tv.eval(i)?;
            let o = usize::try_from(c).ok().and_then(|c| tile_offsets.get(c));
            let Some(&o) = o else {
                let (t, v) = (i % threads, i / threads);
                return Err(LayoutError::OutOfBounds {
                    coord: format!("index {c} (the {name} pattern {tv} at thread {t}, value {v})"),
                    shape: format!("{} of the tile {tile}", tile.shape()),
                });
            };
            offsets.push(o);
        }
        Ok(Phase { threads, values, offsets })
    }

    /// The offset of thread `t`'s value `v`, swizzled.
    fn at(&self, sw: Swizzle, t: i64, v: i64) -> Result<i64> {
        let i = usize::try_from(t + v * self.threads).ok();
        // t < threads and v < values, so the index is inside.
        let o = i.and_then(|i| self.offsets.get(i)).ok_or(LayoutError::Overflow { operation: "swizzle search" })?;
        Ok(sw.apply(*o))
    }

    /// The phase's figures under `sw`: the bank model's wavefronts and the
    /// widest vector.
    fn figures(&self, sw: Swizzle, elem_bytes: i64) -> Result<PhaseFigures> {
        let r = bank_wavefronts(self.threads, self.values, elem_bytes, |t, v| self.at(sw, t, v))?;
        let wavefronts = r.groups.iter().map(|g| g.total()).sum();
        let ideal = r.groups.iter().map(|g| g.ideal_total()).sum();
        Ok(PhaseFigures { wavefronts, ideal, vector: self.vector(sw)? })
    }

    /// The widest vector (see [`PhaseFigures::vector`]), in one pass: with
    /// `tz` the trailing zeros (64 for 0), `K = 2^k` is a valid width
    /// exactly when `K` divides the number of values, `K` divides every
    /// `v > 0` whose offset does not follow the previous value's, and
    /// `K <= 2^tz(offset)` wherever `tz(offset) < tz(v)` (a chunk's first
    /// value is aligned; inside a chunk the offset and `v` share their
    /// trailing zeros).
    fn vector(&self, sw: Swizzle) -> Result<i64> {
        let tz = |x: i64| if x == 0 { 64 } else { x.trailing_zeros() };
        let mut k = tz(self.values).min(62);
        for t in 0..self.threads {
            let mut prev: i64 = 0;
            for v in 0..self.values {
                if k == 0 {
                    return Ok(1);
                }
                let o = self.at(sw, t, v)?;
                if v > 0 && prev.checked_add(1) != Some(o) {
                    k = k.min(tz(v));
                }
                if tz(o) < tz(v) {
                    k = k.min(tz(o));
                }
                prev = o;
            }
        }
        Ok(1i64 << k)
    }
}

/// The smallest `n` with `cosize <= 2^n`.
fn offset_bits(cosize: i64) -> u32 {
    64 - (cosize.max(1) - 1).leading_zeros()
}

/// Searches the swizzle of a shared-memory tile that serves both a write
/// and a read pattern without bank conflicts.
///
/// * `tile`: the tile's layout, coordinate index → element offset;
/// * `elem_bytes`: bytes per element;
/// * `write`, `read`: the access patterns, each a thread-value layout
///   `(thr, val) → coordinate index of the tile` (rank 2; any other rank
///   is one value per thread), read as [`bank_conflicts`](fn@crate::bank_conflicts)
///   reads one: the threads in groups of 32, each value index of a group
///   one request.
///
/// The candidates are [`swizzle_search_space`]`(n)`, with `n` the smallest
/// number of bits with `cosize(tile) <= 2^n`, and CuTe's atoms converted to
/// element offsets ([`SmemAtom::in_elements`]), each once. A candidate `sw`
/// is the composed layout `sw ∘ 0 ∘ tile`: thread `t`'s value `v` is the
/// element at `sw(tile(tv(t + v·threads)))`.
///
/// Post-conditions: every candidate's figures are those of
/// [`bank_wavefronts`] on these offsets (wavefronts and ideal summed over
/// each phase's requests) and its [`PhaseFigures::vector`];
/// `conflict_free` holds exactly the candidates with `wavefronts == ideal`
/// in both phases, in the ranking's order (fewest total wavefronts, then
/// widest vectors, then smallest extent, then smallest `B`, `M`, `|S|`);
/// `best` is the first of all candidates in that order; `unswizzled` is
/// `Sw<0,0,0>`'s figures.
///
/// Errors: `elem_bytes` outside `1..=`[`MAX_ELEM_BYTES`]
/// ([`LayoutError::Unsupported`]); a tile or a phase of more than
/// [`MAX_SEARCH_ELEMENTS`], a tile of more than [`MAX_SEARCH_BITS`] offset
/// bits, or more than [`MAX_SEARCH_WORK`] work ([`LayoutError::Limit`]); a
/// coordinate index of `write` or `read` outside the tile
/// ([`LayoutError::OutOfBounds`]); the errors of [`bank_wavefronts`].
///
/// ```
/// use cute_dynamic::{Layout, Swizzle, suggest_swizzle};
/// // 8 rows of 32 floats (128 bytes), row-major.
/// let tile: Layout = "(8,32):(32,1)".parse()?;
/// // Written a row per request: thread t stores column t of row v.
/// let write: Layout = "(32,8):(8,1)".parse()?;
/// // Read down the columns: request v reads columns 4v..4v+3, 8 threads each.
/// let read: Layout = "(32,8):(1,32)".parse()?;
/// let r = suggest_swizzle(&tile, 4, &write, &read)?;
/// // Unswizzled, each read request takes 8 wavefronts instead of 1.
/// assert_eq!((r.unswizzled.read.wavefronts, r.unswizzled.read.ideal), (64, 8));
/// // One swizzle serves both: CuTe's 128-byte atom, Sw<3,4,3> on bytes.
/// assert_eq!(r.conflict_free.len(), 1);
/// assert_eq!(r.best.swizzle, Swizzle::new(3, 2, 3)?);
/// assert_eq!((r.best.write.wavefronts, r.best.read.wavefronts), (8, 8));
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn suggest_swizzle(tile: &Layout, elem_bytes: i64, write: &Layout, read: &Layout) -> Result<SwizzleSearch> {
    if !(1..=MAX_ELEM_BYTES).contains(&elem_bytes) {
        return Err(LayoutError::Unsupported {
            what: format!("a swizzle search of {elem_bytes}-byte elements (1 to {MAX_ELEM_BYTES} bytes)"),
        });
    }
    for (what, size) in [
        ("elements of a tile searched for a swizzle", tile.size()),
        ("accesses of the write pattern of a swizzle search", write.size()),
        ("accesses of the read pattern of a swizzle search", read.size()),
    ] {
        if size > MAX_SEARCH_ELEMENTS {
            return Err(LayoutError::Limit { what, value: size as u64, limit: MAX_SEARCH_ELEMENTS as u64 });
        }
    }
    let bits = offset_bits(tile.cosize());
    let mut candidates = swizzle_search_space(bits)?;
    let atoms: Vec<(SmemAtom, Swizzle)> =
        SmemAtom::ALL.iter().filter_map(|&a| Some((a, a.in_elements(elem_bytes)?))).collect();
    for &(_, sw) in &atoms {
        if !candidates.contains(&sw) {
            candidates.push(sw);
        }
    }
    // Each candidate reads every tile offset (its extent) and every access's
    // words; all sizes are at most 2^20 here, so the sums fit.
    let per_candidate = tile.size() + (write.size() + read.size()) * (elem_bytes / BANK_BYTES + 2);
    let work = (candidates.len() as i64).saturating_mul(per_candidate);
    if work > MAX_SEARCH_WORK {
        return Err(LayoutError::Limit {
            what: "work of a swizzle search (candidates x (tile elements + accesses x words per element))",
            value: work as u64,
            limit: MAX_SEARCH_WORK as u64,
        });
    }
    let tile_offsets = (0..tile.size()).map(|i| tile.eval(i)).collect::<Result<Vec<i64>>>()?;
    let write_phase = Phase::new("write", write, tile, &tile_offsets)?;
    let read_phase = Phase::new("read", read, tile, &tile_offsets)?;
    let measure = |sw: Swizzle| -> Result<SwizzleCandidate> {
        let atom = atoms.iter().find(|a| a.1 == sw).map(|a| a.0);
        let extent = tile_offsets.iter().map(|&o| sw.apply(o)).max().unwrap_or(0).saturating_add(1);
        Ok(SwizzleCandidate {
            swizzle: sw,
            atom,
            write: write_phase.figures(sw, elem_bytes)?,
            read: read_phase.figures(sw, elem_bytes)?,
            extent,
        })
    };
    let mut measured = candidates.iter().map(|&sw| measure(sw)).collect::<Result<Vec<_>>>()?;
    // The identity is candidates[0], measured first.
    let unswizzled = measured[0];
    let atoms: Vec<SwizzleCandidate> =
        atoms.iter().filter_map(|(_, sw)| measured.iter().find(|c| c.swizzle == *sw).copied()).collect();
    measured.sort_by_key(SwizzleCandidate::rank_key);
    let best = measured[0];
    measured.retain(SwizzleCandidate::is_conflict_free);
    Ok(SwizzleSearch {
        tile: tile.clone(),
        elem_bytes,
        bits,
        write_shape: (write_phase.threads, write_phase.values),
        read_shape: (read_phase.threads, read_phase.values),
        searched: candidates.len(),
        unswizzled,
        conflict_free: measured,
        best,
        atoms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lay(s: &str) -> Layout {
        s.parse().unwrap()
    }

    fn phase(tv: &str, tile: &str) -> Phase {
        let tile = lay(tile);
        let offs: Vec<i64> = (0..tile.size()).map(|i| tile.eval(i).unwrap()).collect();
        Phase::new("test", &lay(tv), &tile, &offs).unwrap()
    }

    #[test]
    fn offset_bits_round_the_cosize_up() {
        assert_eq!([1, 2, 3, 4, 5, 256, 257].map(offset_bits), [0, 1, 2, 2, 3, 8, 9]);
    }

    #[test]
    fn search_space_count_matches_the_formula() {
        for bits in 0..=12u32 {
            let n = i64::from(bits);
            let mut count = 1;
            for b in 1..=n {
                for s in b..=n {
                    count += 2 * (n - b - s + 1).max(0);
                }
            }
            let space = swizzle_search_space(bits).unwrap();
            assert_eq!(space.len() as i64, count, "bits {bits}");
            assert!(space.iter().all(|s| s.highest_bit() <= bits));
            let mut distinct = space.clone();
            distinct.sort_by_key(|s| (s.bits(), s.base(), s.shift()));
            distinct.dedup();
            assert_eq!(distinct.len(), space.len());
        }
    }

    #[test]
    fn vector_widths() {
        // Each thread's 4 values are 4 consecutive floats of a row.
        let p = phase("(8,4):(4,1)", "32:1");
        assert_eq!(p.vector(Swizzle::smem_none()).unwrap(), 4);
        // Sw<1,1,2> keeps pairs together but reorders pairs inside a 4-chunk.
        assert_eq!(p.vector(Swizzle::new(1, 1, 2).unwrap()).unwrap(), 2);
        assert_eq!(p.vector(Swizzle::new(1, 2, 2).unwrap()).unwrap(), 4);
        // Misaligned: thread t starts at 4t + 1 of a tile of 33.
        let p = phase("(8,4):(4,1)", "33:1");
        let shifted = Phase { offsets: p.offsets.iter().map(|o| o + 1).collect(), ..p };
        assert_eq!(shifted.vector(Swizzle::smem_none()).unwrap(), 1);
        // 6 values: vectors of 2 at most (they must tile the values).
        assert_eq!(phase("(4,6):(6,1)", "24:1").vector(Swizzle::smem_none()).unwrap(), 2);
        // Values down a column: no vector.
        assert_eq!(phase("(32,8):(8,1)", "(8,32):(32,1)").vector(Swizzle::smem_none()).unwrap(), 1);
    }

    #[test]
    fn refusals() {
        let tile = lay("(8,32):(32,1)");
        let tv = lay("(32,8):(8,1)");
        assert!(matches!(suggest_swizzle(&tile, 0, &tv, &tv), Err(LayoutError::Unsupported { .. })));
        // A pattern reaching past the tile.
        let e = suggest_swizzle(&tile, 4, &lay("(32,9):(8,1)"), &tv).unwrap_err();
        assert!(matches!(e, LayoutError::OutOfBounds { .. }), "{e}");
        assert!(e.to_string().contains("write pattern"), "{e}");
        // Too many offset bits; too much work.
        let e = suggest_swizzle(&lay("2:33554432"), 4, &lay("2:1"), &lay("2:1")).unwrap_err();
        assert!(matches!(e, LayoutError::Limit { limit: 24, .. }), "{e}");
        let e = suggest_swizzle(&lay("(1024,1024):(1024,1)"), 4, &lay("1:0"), &lay("1:0")).unwrap_err();
        assert!(matches!(e, LayoutError::Limit { .. }), "{e}");
    }
}
