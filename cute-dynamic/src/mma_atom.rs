//! MMA atoms and tiled MMAs: CuTe's `MMA_Atom` (one matrix multiply-accumulate
//! instruction as thread-value layouts of its A, B and C tiles) and
//! `TiledMMA` (atoms tiled over more threads and values), as data.

use crate::complement::complement;
use crate::composed::ComposedLayout;
use crate::composition::composition;
use crate::divide::{logical_divide, zipped_divide};
use crate::error::{LayoutError, Result, checked_mul};
use crate::int_tuple::IntTuple;
use crate::inverse::right_inverse;
use crate::layout::{Layout, make_layout};
use crate::product::tiled_product;
use crate::swizzle::Swizzle;
use crate::tiler::Tiler;
use std::fmt;

/// The most elements of a tile (or thread-value layout) whose
/// post-conditions are checked point by point when an atom or a tiled atom
/// is made: 2^22, far above any instruction's tile.
pub const ATOM_CHECK_LIMIT: i64 = 1 << 22;

/// One MMA instruction as CuTe describes it (`MMA_Atom`): the tile
/// `M × N × K` it computes, the threads it takes (`ThrID`: logical thread →
/// thread index), and for each operand a thread-value layout from
/// `(thread, value)` to the column-major index of the element in the
/// operand's tile: A is `M × K` (`m + M·k`), B is `N × K` (`n + N·k`), C is
/// `M × N` (`m + M·n`).
///
/// Invariants, checked by every constructor: each TV layout is rank 2, its
/// thread mode has the size of `ThrID` and it reaches every element of its
/// tile and nothing outside it. A value may be reached by several threads
/// (a broadcast: the SM70 quadpair atoms give each A and B element to two
/// threads; GMMA gives the whole of A and B, in shared memory, to every
/// thread with stride 0).
///
/// ```
/// use cute_dynamic::MmaAtom;
/// let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
/// assert_eq!(atom.shape_mnk(), (16, 8, 16));
/// assert_eq!(atom.layout_c_tv().to_string(), "((4,8),(2,2)):((32,1),(16,8))");
/// // Thread 5 holds C(1,2) in its value 0: 5 = (1,1) of (4,8), 1·32 + 1·1 = 33 = 1 + 16·2.
/// assert_eq!(atom.layout_c_tv().eval_coord(&"(5,0)".parse()?)?, 1 + 16 * 2);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmaAtom {
    name: String,
    shape_mnk: (i64, i64, i64),
    thr_id: Layout,
    layout_a_tv: Layout,
    layout_b_tv: Layout,
    layout_c_tv: Layout,
}

/// CuTe's traits of the GPU atoms this crate knows, as facts in the text
/// syntax (CuTe's `print(MMA_Atom<...>{})`, `tests/golden/cute_atoms.txt`).
struct GpuMma {
    name: &'static str,
    mnk: (i64, i64, i64),
    thr_id: &'static str,
    a: &'static str,
    b: &'static str,
    c: &'static str,
}

const GPU_MMA: &[GpuMma] = &[
    // Volta's quadpair: 8 threads (lanes 0-3 and 16-19 of a warp).
    GpuMma {
        name: "SM70_8x8x4_F32F16F16F32_NT",
        mnk: (8, 8, 4),
        thr_id: "(4,2):(1,16)",
        a: "((4,2),4):((8,4),1)",
        b: "((4,2),4):((8,4),1)",
        c: "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))",
    },
    GpuMma {
        name: "SM80_16x8x8_F32F16F16F32_TN",
        mnk: (16, 8, 8),
        thr_id: "32:1",
        a: "((4,8),(2,2)):((32,1),(16,8))",
        b: "((4,8),2):((16,1),8)",
        c: "((4,8),(2,2)):((32,1),(16,8))",
    },
    GpuMma {
        name: "SM80_16x8x16_F32F16F16F32_TN",
        mnk: (16, 8, 16),
        thr_id: "32:1",
        a: "((4,8),(2,2,2)):((32,1),(16,8,128))",
        b: "((4,8),(2,2)):((16,1),(8,64))",
        c: "((4,8),(2,2)):((32,1),(16,8))",
    },
    // Hopper's warpgroup MMA with A and B in shared memory (either major):
    // every thread sees the whole A and B tile (stride 0 across threads).
    GpuMma {
        name: "SM90_64x8x16_F32F16F16_SS",
        mnk: (64, 8, 16),
        thr_id: "128:1",
        a: "(128,(64,16)):(0,(1,64))",
        b: "(128,(8,16)):(0,(1,8))",
        c: "((4,8,4),(2,2,1)):((128,1,16),(64,8,512))",
    },
];

impl MmaAtom {
    /// An atom from its parts, checked: `shape_mnk` positive; `layout_a_tv`
    /// (to `m + M·k`), `layout_b_tv` (to `n + N·k`) and `layout_c_tv` (to
    /// `m + M·n`) rank 2, each with a thread mode of `size(thr_id)` threads.
    ///
    /// Post-conditions: each TV layout maps into its tile and reaches every
    /// element of it (checked point by point).
    ///
    /// Errors: `NonPositiveShape`; `RankMismatch` for a TV layout not of
    /// rank 2; `SizeMismatch` for a thread mode of the wrong size;
    /// `NoLayout` for a TV layout that leaves its tile or misses an element;
    /// `Limit` past [`ATOM_CHECK_LIMIT`] elements.
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// // Two threads, each one row of a 2×1 C from a 2×1 A and a 1×1 B.
    /// let atom = MmaAtom::new("pair", (2, 1, 1), "2:1".parse()?, "(2,1):(1,0)".parse()?,
    ///                         "(2,1):(0,0)".parse()?, "(2,1):(1,0)".parse()?)?;
    /// assert_eq!(atom.threads(), 2);
    /// // A C layout that misses C(1,0) is refused.
    /// assert!(MmaAtom::new("bad", (2, 1, 1), "2:1".parse()?, "(2,1):(1,0)".parse()?,
    ///                      "(2,1):(0,0)".parse()?, "(2,1):(0,0)".parse()?).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn new(
        name: impl Into<String>,
        shape_mnk: (i64, i64, i64),
        thr_id: Layout,
        layout_a_tv: Layout,
        layout_b_tv: Layout,
        layout_c_tv: Layout,
    ) -> Result<MmaAtom> {
        let name = name.into();
        let (m, n, k) = shape_mnk;
        if m < 1 || n < 1 || k < 1 {
            return Err(LayoutError::NonPositiveShape { shape: format!("({m},{n},{k}) of the MMA atom {name}") });
        }
        let threads = thr_id.size();
        for (what, tv, rows, cols) in [("A", &layout_a_tv, m, k), ("B", &layout_b_tv, n, k), ("C", &layout_c_tv, m, n)]
        {
            check_tv(&format!("the {what} layout of the MMA atom {name}"), tv, threads, rows, cols)?;
        }
        Ok(MmaAtom { name, shape_mnk, thr_id, layout_a_tv, layout_b_tv, layout_c_tv })
    }

    /// A GPU atom by CuTe's name: `SM70_8x8x4_F32F16F16F32_NT`,
    /// `SM80_16x8x8_F32F16F16F32_TN`, `SM80_16x8x16_F32F16F16F32_TN`,
    /// `SM90_64x8x16_F32F16F16_SS` (either major of A and B: the thread-value
    /// layouts are the same). The layouts are CuTe's, as its `print` writes
    /// them (`tests/golden/cute_atoms.txt`, from CuTe itself).
    ///
    /// Errors: `Unsupported` for any other name (the message lists the
    /// known ones).
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// let a = MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT")?;
    /// assert_eq!(a.thr_id().to_string(), "(4,2):(1,16)"); // lanes 0-3 and 16-19
    /// assert!(MmaAtom::gpu("SM80_16x8x32").is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn gpu(name: &str) -> Result<MmaAtom> {
        let Some(g) = GPU_MMA.iter().find(|g| g.name == name) else {
            let known: Vec<&str> = GPU_MMA.iter().map(|g| g.name).collect();
            return Err(LayoutError::Unsupported {
                what: format!("the MMA atom '{name}': the GPU atoms known are {}", known.join(", ")),
            });
        };
        let p = |s: &str| s.parse::<Layout>();
        MmaAtom::new(g.name, g.mnk, p(g.thr_id)?, p(g.a)?, p(g.b)?, p(g.c)?)
    }

    /// CuTe's `UniversalFMA`: one thread, one fused multiply-add, the tile
    /// `1 × 1 × 1`; every layout `(1,1):(0,0)` and `ThrID` `1:0`, as CuTe
    /// prints them.
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// let fma = MmaAtom::universal_fma();
    /// assert_eq!((fma.shape_mnk(), fma.threads()), ((1, 1, 1), 1));
    /// assert_eq!(fma.layout_c_tv().to_string(), "(1,1):(0,0)");
    /// ```
    pub fn universal_fma() -> MmaAtom {
        let unit = Layout::from_parts(IntTuple::flat([1, 1]), IntTuple::flat([0, 0]));
        MmaAtom {
            name: "UniversalFMA".to_string(),
            shape_mnk: (1, 1, 1),
            thr_id: Layout::from_parts(IntTuple::int(1), IntTuple::int(0)),
            layout_a_tv: unit.clone(),
            layout_b_tv: unit.clone(),
            layout_c_tv: unit,
        }
    }

    /// A SIMD FMA of `w` lanes (named `SimdFMA<w>`; not a CuTe atom): one
    /// thread computes a column of `w` elements of C, `C(i,0) += A(i,0) ·
    /// B(0,0)`, the tile `w × 1 × 1`: A and C `(1,w):(0,1)` (the thread's
    /// lane `i` is row `i`), B `(1,1):(0,0)` (one scalar, broadcast).
    ///
    /// Errors: `NonPositiveShape` for `w < 1`.
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// let simd = MmaAtom::simd_fma(8)?;
    /// assert_eq!(simd.shape_mnk(), (8, 1, 1));
    /// assert_eq!(simd.layout_a_tv().to_string(), "(1,8):(0,1)");
    /// assert_eq!(simd.layout_b_tv().to_string(), "(1,1):(0,0)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn simd_fma(w: i64) -> Result<MmaAtom> {
        let lanes = Layout::new(IntTuple::flat([1, w]), IntTuple::flat([0, 1]))?;
        let scalar = Layout::new(IntTuple::flat([1, 1]), IntTuple::flat([0, 0]))?;
        MmaAtom::new(format!("SimdFMA<{w}>"), (w, 1, 1), Layout::scalar(1, 0)?, lanes.clone(), scalar, lanes)
    }

    /// Any atom this crate names: a GPU atom ([`MmaAtom::gpu`]),
    /// `UniversalFMA`, or `SimdFMA<w>`.
    ///
    /// Errors: `Unsupported` for an unknown name; those of the constructor.
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// assert_eq!(MmaAtom::named("SimdFMA<4>")?, MmaAtom::simd_fma(4)?);
    /// assert_eq!(MmaAtom::named("UniversalFMA")?, MmaAtom::universal_fma());
    /// assert!(MmaAtom::named("SimdFMA<x>").is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn named(name: &str) -> Result<MmaAtom> {
        if name == "UniversalFMA" {
            return Ok(MmaAtom::universal_fma());
        }
        if let Some(w) = name.strip_prefix("SimdFMA<").and_then(|r| r.strip_suffix('>')) {
            return match w.trim().parse::<i64>() {
                Ok(w) => MmaAtom::simd_fma(w),
                Err(_) => Err(LayoutError::Unsupported {
                    what: format!("the MMA atom '{name}': SimdFMA<W> takes a positive integer W"),
                }),
            };
        }
        MmaAtom::gpu(name).map_err(|e| match e {
            LayoutError::Unsupported { what } => {
                LayoutError::Unsupported { what: format!("{what}; the CPU atoms are UniversalFMA and SimdFMA<W>") }
            }
            e => e,
        })
    }

    /// The atom's name (CuTe's name for a GPU atom).
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// assert_eq!(MmaAtom::universal_fma().name(), "UniversalFMA");
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The tile `(M, N, K)` one instruction computes (CuTe's `Shape_MNK`).
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// assert_eq!(MmaAtom::gpu("SM90_64x8x16_F32F16F16_SS")?.shape_mnk(), (64, 8, 16));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn shape_mnk(&self) -> (i64, i64, i64) {
        self.shape_mnk
    }

    /// Logical thread → thread index (CuTe's `ThrID`).
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// assert_eq!(MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN")?.thr_id().to_string(), "32:1");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn thr_id(&self) -> &Layout {
        &self.thr_id
    }

    /// The number of threads, `size(ThrID)`.
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// assert_eq!(MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT")?.threads(), 8);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn threads(&self) -> i64 {
        self.thr_id.size()
    }

    /// `(thread, value) → m + M·k` of the A tile (CuTe's `LayoutA_TV`).
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// let a = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
    /// assert_eq!(a.layout_a_tv().to_string(), "((4,8),(2,2,2)):((32,1),(16,8,128))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_a_tv(&self) -> &Layout {
        &self.layout_a_tv
    }

    /// `(thread, value) → n + N·k` of the B tile (CuTe's `LayoutB_TV`).
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// let a = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
    /// assert_eq!(a.layout_b_tv().to_string(), "((4,8),(2,2)):((16,1),(8,64))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_b_tv(&self) -> &Layout {
        &self.layout_b_tv
    }

    /// `(thread, value) → m + M·n` of the C tile (CuTe's `LayoutC_TV`).
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// let a = MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT")?;
    /// assert_eq!(a.layout_c_tv().to_string(), "((2,2,2),(2,2,2)):((1,16,4),(8,2,32))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_c_tv(&self) -> &Layout {
        &self.layout_c_tv
    }
}

impl fmt::Display for MmaAtom {
    /// CuTe's `print(MMA_Atom)`, with the atom's name after `MMA_Atom` (CuTe
    /// has it in the type) and run-time integers (no `_` marker).
    ///
    /// ```
    /// use cute_dynamic::MmaAtom;
    /// let text = MmaAtom::gpu("SM80_16x8x8_F32F16F16F32_TN")?.to_string();
    /// assert_eq!(text.lines().nth(1), Some("  ThrID:      32:1"));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (m, n, k) = self.shape_mnk;
        writeln!(f, "MMA_Atom {}", self.name)?;
        writeln!(f, "  ThrID:      {}", self.thr_id)?;
        writeln!(f, "  Shape_MNK:  ({m},{n},{k})")?;
        writeln!(f, "  LayoutA_TV: {}", self.layout_a_tv)?;
        writeln!(f, "  LayoutB_TV: {}", self.layout_b_tv)?;
        writeln!(f, "  LayoutC_TV: {}", self.layout_c_tv)
    }
}

/// The shared-memory layout atom GMMA reads, by CuTe's name
/// (`Layout_K_SW128_Atom`, ...: `K` or `MN` major, `INTER`, `SW32`, `SW64`
/// or `SW128`), for values of `value_bits` bits, in elements and
/// position-independent (CuTe's `as_position_independent_swizzle_layout(
/// GMMA::Layout_K_SW128_Atom<T>{})`): 8 rows of 16, 32, 64 or 128 bytes (K
/// major: `(8,W):(W,1)`; MN major: `(W,8):(1,W)`, `W` the values of a
/// row), swizzled by `Sw<B,M,3>`: `B` = 0, 1, 2, 3 for 16 to 128 bytes, and
/// `M` = log2 of the values in 16 bytes, so that the swizzle moves whole
/// 16-byte chunks (CuTe's `Sw<3,4,3>` on byte addresses is `Sw<3,3,3>` on
/// 16-bit values).
///
/// The interleaved atoms (`INTER`) have the identity swizzle `Sw<0,M,3>`,
/// which CuTe drops: it prints the layout alone, our [`inner`] layout.
///
/// Errors: `Unsupported` for another name, or `value_bits` not a power of
/// two from 8 to 128.
///
/// [`inner`]: crate::ComposedLayout::inner
///
/// ```
/// use cute_dynamic::gmma_layout_atom;
/// let a = gmma_layout_atom("Layout_K_SW128_Atom", 16)?;
/// assert_eq!(a.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
/// assert_eq!(gmma_layout_atom("Layout_MN_SW32_Atom", 32)?.to_string(), "Sw<1,2,3> o 0 o (8,8):(1,8)");
/// assert_eq!(gmma_layout_atom("Layout_K_INTER_Atom", 16)?.inner().to_string(), "(8,8):(8,1)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn gmma_layout_atom(name: &str, value_bits: i64) -> Result<ComposedLayout> {
    let unknown = || LayoutError::Unsupported {
        what: format!("the GMMA layout atom '{name}': the atoms are Layout_{{K,MN}}_{{INTER,SW32,SW64,SW128}}_Atom"),
    };
    let rest = name.strip_prefix("Layout_").and_then(|r| r.strip_suffix("_Atom")).ok_or_else(unknown)?;
    let (k_major, swizzle) = match rest.split_once('_') {
        Some(("K", sw)) => (true, sw),
        Some(("MN", sw)) => (false, sw),
        _ => return Err(unknown()),
    };
    let bits = match swizzle {
        "INTER" => 0,
        "SW32" => 1,
        "SW64" => 2,
        "SW128" => 3,
        _ => return Err(unknown()),
    };
    if !(8..=128).contains(&value_bits) || value_bits.count_ones() != 1 {
        return Err(LayoutError::Unsupported {
            what: format!(
                "the GMMA layout atom {name} of {value_bits}-bit values: values of 8 to 128 bits, a power of two"
            ),
        });
    }
    // Values in a 16-byte chunk, and in a row of 16 << bits bytes.
    let chunk = 128 / value_bits;
    let width = chunk << bits;
    let layout = if k_major {
        Layout::new(IntTuple::flat([8, width]), IntTuple::flat([width, 1]))?
    } else {
        Layout::new(IntTuple::flat([width, 8]), IntTuple::flat([1, width]))?
    };
    let swizzle = Swizzle::new(bits, i64::from(chunk.trailing_zeros()), 3)?;
    Ok(ComposedLayout::compose(swizzle, &layout))
}

/// Checks a thread-value layout onto a `rows × cols` tile: rank 2, `threads`
/// threads, every element of the tile reached and nothing outside.
pub(crate) fn check_tv(what: &str, tv: &Layout, threads: i64, rows: i64, cols: i64) -> Result<()> {
    let (Some(thr), 2) = (tv.get(0), tv.rank()) else {
        return Err(LayoutError::RankMismatch { what: what.to_string(), expected: 2, found: tv.rank() });
    };
    if thr.size() != threads {
        return Err(LayoutError::SizeMismatch {
            what: format!("the thread mode of {what} {tv} against the threads of the atom"),
            expected: threads,
            found: thr.size(),
        });
    }
    let cells = checked_mul(rows, cols, "a thread-value tile")?;
    let limit = |v: i64| -> Result<()> {
        if v > ATOM_CHECK_LIMIT {
            return Err(LayoutError::Limit {
                what: "the elements of a checked thread-value layout",
                value: v as u64,
                limit: ATOM_CHECK_LIMIT as u64,
            });
        }
        Ok(())
    };
    limit(cells)?;
    limit(tv.size())?;
    let mut seen = vec![false; cells as usize];
    for i in 0..tv.size() {
        let k = tv.eval(i)?;
        let Some(cell) = usize::try_from(k).ok().and_then(|k| seen.get_mut(k)) else {
            return Err(LayoutError::NoLayout {
                operation: "a thread-value layout",
                layout: format!("{what} {tv}"),
                reason: format!("it maps index {i} to {k}, outside the {rows}×{cols} tile"),
            });
        };
        *cell = true;
    }
    if let Some(k) = seen.iter().position(|&s| !s) {
        return Err(LayoutError::NoLayout {
            operation: "a thread-value layout",
            layout: format!("{what} {tv}"),
            reason: format!(
                "no (thread, value) reaches element ({},{}) of the {rows}×{cols} tile",
                k as i64 % rows,
                k as i64 / rows
            ),
        });
    }
    Ok(())
}

/// CuTe's `make_layout(shape)` of a static shape: compact column-major,
/// stride 0 for a mode of extent 1 (CuTe's `compact_col_major` gives a
/// static 1 no stride), so that results print as CuTe's.
pub(crate) fn compact_col_major(shape: &IntTuple) -> Result<Layout> {
    unit_strides_zero(&Layout::column_major(shape)?)
}

/// The layout with stride 0 on every leaf of extent 1 (the same function).
fn unit_strides_zero(l: &Layout) -> Result<Layout> {
    let mut stride = l.stride().clone();
    for (d, &s) in stride.vals_mut().iter_mut().zip(l.shape().vals()) {
        if s == 1 {
            *d = 0;
        }
    }
    Layout::new(l.shape().clone(), stride)
}

/// Mode `i` of a layout the caller built with at least `i + 1` modes.
pub(crate) fn mode(l: &Layout, i: usize) -> Result<Layout> {
    l.get(i).ok_or_else(|| LayoutError::RankMismatch {
        what: format!("mode {i} of {l}"),
        expected: i + 1,
        found: l.rank(),
    })
}

/// CuTe's `layout.compose(f, _)`: mode 0 composed with `f`, the other modes
/// as they are.
pub(crate) fn compose_mode0(l: &Layout, f: &Layout) -> Result<Layout> {
    let mut modes: Vec<Layout> = l.modes_iter().collect();
    let Some(first) = modes.first_mut() else {
        return Err(LayoutError::RankMismatch { what: format!("{l} composed by mode"), expected: 1, found: 0 });
    };
    *first = composition(first, f)?;
    make_layout(&modes)
}

/// A tiled MMA (CuTe's `TiledMMA`): an [`MmaAtom`] repeated over a layout
/// of atoms `(AtomM, AtomN, AtomK)` (more threads), its tile then possibly
/// enlarged and permuted by a permutation of each of M, N and K (more
/// values per thread). Made by [`make_tiled_mma`].
///
/// ```
/// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
/// let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
/// let mma = make_tiled_mma(&atom, &"(2,2,1):(1,2,4)".parse::<Layout>()?, None)?;
/// assert_eq!(mma.tile_size_mnk(), (32, 16, 16));
/// assert_eq!(mma.threads(), 128);
/// assert_eq!(mma.layout_c_tv().to_string(), "((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledMma {
    atom: MmaAtom,
    /// The permutation of each of M, N, K; `None` is CuTe's `_` (the
    /// identity of the atoms' extent).
    permutation_mnk: [Option<Layout>; 3],
    thr_layout_vmnk: Layout,
    tile_size_mnk: (i64, i64, i64),
    layout_a_tv: Layout,
    layout_b_tv: Layout,
    layout_c_tv: Layout,
}

/// CuTe's `make_tiled_mma(atom, atom_layout_mnk, permutation_mnk)`.
///
/// * `atom_layout_mnk`: how the atoms are laid out over M, N and K (a
///   layout of rank up to 3, padded with `1:0` modes to rank 3 as CuTe
///   does; its offsets number the atoms; a mode of extent 1 is taken with
///   stride 0, as CuTe's static layouts have it). The threads are
///   `thr_layout_vmnk = tiled_product(ThrID, atom_layout_mnk)`: `(ThrV,
///   ThrM, ThrN, ThrK) → thread index`.
/// * `permutation_mnk`: `None` (CuTe's `Tile<_,_,_>`), or a tiler of up to
///   three modes, each a layout (an integer `n` is `n:1`, `1` is `1:0`),
///   permuting M, N and K in turn; missing modes are CuTe's `_`. A mode's size is the
///   tiled MMA's extent in that dimension (which may repeat the atoms over
///   more values); `_` is the atom's extent times the atoms along it.
///
/// The thread-value layouts are CuTe's `get_layoutA_TV`, `get_layoutB_TV`
/// and `get_layoutC_TV`, computed as CuTe computes them (`thrfrg_A/B/C`,
/// then thread indices in place of thread coordinates), so that they print
/// as CuTe prints them.
///
/// The thread mode of these layouts counts thread indices as CuTe does
/// (lanes, [`TiledMma::thread_indices`]): where the atoms' threads leave
/// lanes out (a lone SM70 quadpair is lanes 0–3 and 16–19 of a warp), the
/// idle lanes are in the layouts too, aliasing working ones.
///
/// Post-conditions (checked point by point): `layout_c_tv` maps every
/// `(thread, value)` into the `M × N` tile and reaches every element of it;
/// when the atom's C layout is a bijection (every atom here), each element
/// has exactly one owner among the working threads (the offsets of
/// `thr_layout_vmnk`), or `ThrK` owners when atoms are laid along K (they
/// split the reduction); A and B reach every element of `M × K` and
/// `N × K` (broadcasts allowed).
///
/// Errors: `RankMismatch` for an atom layout or a permutation of more than 3
/// modes; `Unsupported` for a permutation mode that is a tuple of tilers;
/// `NotAMultiple` when a tile extent is not a multiple of the atom's
/// extent times the atoms along it; `NoLayout` when a permutation is not a
/// bijection of `0..size`; those of the algebra; `Limit` past
/// [`ATOM_CHECK_LIMIT`] elements.
///
/// ```
/// use cute_dynamic::{Layout, MmaAtom, Tiler, make_tiled_mma};
/// // CuTe's docs (0t_mma_atom.md): four quadpairs, n-major, over 32x32x4,
/// // rows of A permuted so that each thread's rows are contiguous.
/// let atom = MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT")?;
/// let perm: Tiler = "<(4,4,2):(1,8,4), 32, 4>".parse()?;
/// let mma = make_tiled_mma(&atom, &"(2,2):(2,1)".parse::<Layout>()?, Some(&perm))?;
/// assert_eq!(mma.thr_layout_vmnk().to_string(), "((4,2),2,2,1):((1,16),8,4,0)");
/// assert_eq!(mma.layout_a_tv().to_string(), "((4,2,2,2),(4,(2,1))):((32,0,16,8),(1,(4,0)))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_tiled_mma(atom: &MmaAtom, atom_layout_mnk: &Layout, permutation_mnk: Option<&Tiler>) -> Result<TiledMma> {
    let atom_layout = pad_to_rank3(atom_layout_mnk, "the atom layout of make_tiled_mma")?;
    let thr_layout_vmnk = tiled_product(&atom.thr_id, &atom_layout)?;
    let permutation_mnk = permutations(permutation_mnk)?;
    let (am, an, ak) = atom.shape_mnk;
    let mut tile = [0i64; 3];
    for (i, extent) in [am, an, ak].into_iter().enumerate() {
        let atoms = mode(&thr_layout_vmnk, i + 1)?.size();
        let step = checked_mul(extent, atoms, "make_tiled_mma")?;
        tile[i] = match &permutation_mnk[i] {
            None => step,
            Some(p) => {
                check_permutation(p, i)?;
                p.size()
            }
        };
        if tile[i] % step != 0 {
            return Err(LayoutError::NotAMultiple {
                what: format!(
                    "the tiled MMA's extent in {} against the atom's extent {extent} times the {atoms} atoms along it",
                    ["M", "N", "K"][i]
                ),
                value: tile[i],
                of: step,
            });
        }
    }
    let mut mma = TiledMma {
        atom: atom.clone(),
        permutation_mnk,
        thr_layout_vmnk,
        tile_size_mnk: (tile[0], tile[1], tile[2]),
        layout_a_tv: Layout::empty(),
        layout_b_tv: Layout::empty(),
        layout_c_tv: Layout::empty(),
    };
    mma.layout_c_tv = mma.compute_layout_c_tv()?;
    mma.layout_a_tv = mma.compute_layout_ab_tv(Operand::A)?;
    mma.layout_b_tv = mma.compute_layout_ab_tv(Operand::B)?;
    // The thread mode counts thread indices (lanes), idle ones included.
    let lanes = mode(&mma.layout_c_tv, 0)?.size();
    let [m, n, k] = tile;
    check_tv("the C layout of the tiled MMA", &mma.layout_c_tv, lanes, m, n)?;
    check_tv("the A layout of the tiled MMA", &mma.layout_a_tv, lanes, m, k)?;
    check_tv("the B layout of the tiled MMA", &mma.layout_b_tv, lanes, n, k)?;
    let (cm, cn, _) = atom.shape_mnk;
    if atom.layout_c_tv.size() == cm * cn {
        mma.check_c_owners()?;
    }
    Ok(mma)
}

/// CuTe's `append<3>(layout, Layout<_1,_0>{})`, each leaf of extent 1
/// given stride 0 first (as CuTe's static `Layout<Shape<_2,_2,_1>>` has):
/// such a stride moves nothing, but the thread layouts built from it, and
/// their inverses, would count its offsets as threads.
fn pad_to_rank3(l: &Layout, what: &str) -> Result<Layout> {
    let l = unit_strides_zero(l)?;
    let mut modes: Vec<Layout> = l.modes_iter().collect();
    if modes.len() > 3 {
        return Err(LayoutError::RankMismatch { what: format!("{what} {l}"), expected: 3, found: modes.len() });
    }
    while modes.len() < 3 {
        modes.push(Layout::scalar(1, 0)?);
    }
    make_layout(&modes)
}

fn permutations(t: Option<&Tiler>) -> Result<[Option<Layout>; 3]> {
    let mut out = [None, None, None];
    let Some(t) = t else { return Ok(out) };
    let tiles: Vec<Tiler> = match t {
        Tiler::Layout(l) => vec![Tiler::Layout(l.clone())],
        Tiler::Tuple(ts) => ts.clone(),
    };
    if tiles.len() > 3 {
        return Err(LayoutError::RankMismatch {
            what: format!("the permutation {t} of make_tiled_mma (one per M, N, K)"),
            expected: 3,
            found: tiles.len(),
        });
    }
    for (slot, tile) in out.iter_mut().zip(tiles) {
        match tile {
            Tiler::Layout(l) => *slot = Some(l),
            Tiler::Tuple(_) => {
                return Err(LayoutError::Unsupported {
                    what: format!("the permutation mode {tile} of make_tiled_mma: each of M, N, K takes a layout"),
                });
            }
        }
    }
    Ok(out)
}

/// A permutation of M, N or K maps `0..size` onto `0..size`.
fn check_permutation(p: &Layout, i: usize) -> Result<()> {
    let n = p.size();
    if n > ATOM_CHECK_LIMIT {
        return Err(LayoutError::Limit {
            what: "the size of a checked permutation",
            value: n as u64,
            limit: ATOM_CHECK_LIMIT as u64,
        });
    }
    let mut seen = vec![false; n as usize];
    for j in 0..n {
        let v = p.eval(j)?;
        match usize::try_from(v).ok().and_then(|v| seen.get_mut(v)) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(LayoutError::NoLayout {
                    operation: "make_tiled_mma",
                    layout: format!("the permutation {p} of {}", ["M", "N", "K"][i]),
                    reason: format!("it is not a bijection of 0..{n} (index {j} goes to {v})"),
                });
            }
        }
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Operand {
    A,
    B,
}

impl TiledMma {
    /// The atom.
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(&MmaAtom::universal_fma(), &"(4,4,1):(1,4,0)".parse::<Layout>()?, None)?;
    /// assert_eq!(mma.atom().name(), "UniversalFMA");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn atom(&self) -> &MmaAtom {
        &self.atom
    }

    /// `(ThrV, ThrM, ThrN, ThrK) → thread index` (CuTe's
    /// `get_thr_layout_vmnk()`): `tiled_product(ThrID, atom_layout_mnk)`.
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
    /// let mma = make_tiled_mma(&atom, &"(2,2,1):(1,2,4)".parse::<Layout>()?, None)?;
    /// assert_eq!(mma.thr_layout_vmnk().to_string(), "(32,2,2,1):(1,32,64,0)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn thr_layout_vmnk(&self) -> &Layout {
        &self.thr_layout_vmnk
    }

    /// The permutations of M, N and K (`None` for CuTe's `_`).
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(&MmaAtom::universal_fma(), &"1:0".parse::<Layout>()?, Some(&"<4,4>".parse()?))?;
    /// assert_eq!(mma.permutation_mnk()[0].as_ref().map(|l| l.to_string()).as_deref(), Some("4:1"));
    /// assert!(mma.permutation_mnk()[2].is_none());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn permutation_mnk(&self) -> &[Option<Layout>; 3] {
        &self.permutation_mnk
    }

    /// The tile `(M, N, K)` the tiled MMA computes (CuTe's `tile_size_mnk`):
    /// each the size of its permutation, or the atom's extent times the
    /// atoms along it.
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let atom = MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT")?;
    /// let mma = make_tiled_mma(&atom, &"(2,2):(2,1)".parse::<Layout>()?, None)?;
    /// assert_eq!(mma.tile_size_mnk(), (16, 16, 4));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn tile_size_mnk(&self) -> (i64, i64, i64) {
        self.tile_size_mnk
    }

    /// The number of working threads, `size(thr_layout_vmnk)` (CuTe's
    /// `size(tiled_mma)`); see also [`thread_indices`](TiledMma::thread_indices).
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let atom = MmaAtom::gpu("SM90_64x8x16_F32F16F16_SS")?;
    /// assert_eq!(make_tiled_mma(&atom, &"2:1".parse::<Layout>()?, None)?.threads(), 256);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn threads(&self) -> i64 {
        self.thr_layout_vmnk.size()
    }

    /// `(thread index, value) → m + M·k` of the tiled A tile (CuTe's
    /// `get_layoutA_TV()`).
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
    /// let mma = make_tiled_mma(&atom, &"(2,2,1):(1,2,4)".parse::<Layout>()?, None)?;
    /// assert_eq!(mma.layout_a_tv().to_string(), "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_a_tv(&self) -> &Layout {
        &self.layout_a_tv
    }

    /// `(thread index, value) → n + N·k` of the tiled B tile (CuTe's
    /// `get_layoutB_TV()`).
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
    /// let mma = make_tiled_mma(&atom, &"(2,2,1):(1,2,4)".parse::<Layout>()?, None)?;
    /// assert_eq!(mma.layout_b_tv().to_string(), "((4,8,2,2),((2,2),(1,1))):((32,1,0,8),((16,128),(0,0)))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_b_tv(&self) -> &Layout {
        &self.layout_b_tv
    }

    /// `(thread index, value) → m + M·n` of the tiled C tile (CuTe's
    /// `get_layoutC_TV()`).
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
    /// let mma = make_tiled_mma(&atom, &"(2,2,1):(1,2,4)".parse::<Layout>()?, None)?;
    /// assert_eq!(mma.layout_c_tv().to_string(), "((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_c_tv(&self) -> &Layout {
        &self.layout_c_tv
    }

    /// Whether thread index `tid` takes part: it is an offset of
    /// [`thr_layout_vmnk`](TiledMma::thr_layout_vmnk). A lone SM70 quadpair
    /// is lanes 0–3 and 16–19 of the 32 its layouts index.
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(&MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT")?, &"1:0".parse::<Layout>()?, None)?;
    /// assert!(mma.is_thread(17) && !mma.is_thread(4));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn is_thread(&self, tid: i64) -> bool {
        self.thr_vmnk(tid).is_ok()
    }

    /// The number of thread indices the thread-value layouts take (the size
    /// of their thread mode, CuTe's lanes): at least [`threads`], more where
    /// the atoms' threads leave lanes out, which then alias working lanes
    /// (CuTe's layouts of a lone SM70 quadpair index 32 lanes, 8 of them
    /// working).
    ///
    /// [`threads`]: TiledMma::threads
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let mma = make_tiled_mma(&MmaAtom::gpu("SM70_8x8x4_F32F16F16F32_NT")?, &"1:0".parse::<Layout>()?, None)?;
    /// assert_eq!((mma.threads(), mma.thread_indices()), (8, 32));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn thread_indices(&self) -> i64 {
        self.layout_c_tv.get(0).map_or(0, |m| m.size())
    }

    /// Every element of C has exactly `ThrK` owners among the working
    /// threads (one without atoms along K): the post-condition of a tiled
    /// atom whose C layout is a bijection.
    fn check_c_owners(&self) -> Result<()> {
        let (m, n, _) = self.tile_size_mnk;
        let thr_k = mode(&self.thr_layout_vmnk, 3)?.size();
        let values = mode(&self.layout_c_tv, 1)?.size();
        let lanes = self.thread_indices();
        let mut owners = vec![0i64; (m * n) as usize];
        for i in 0..self.threads() {
            let t = self.thr_layout_vmnk.eval(i)?;
            for v in 0..values {
                // In the tile: check_tv walked every (t, v) already.
                let k = self.layout_c_tv.eval(t + lanes * v)?;
                if let Some(o) = usize::try_from(k).ok().and_then(|k| owners.get_mut(k)) {
                    *o += 1;
                }
            }
        }
        if let Some(k) = owners.iter().position(|&o| o != thr_k) {
            return Err(LayoutError::NoLayout {
                operation: "make_tiled_mma",
                layout: format!("the C layout {}", self.layout_c_tv),
                reason: format!(
                    "element ({},{}) of C has {} owners among the threads of {}, not {thr_k}",
                    k as i64 % m,
                    k as i64 / m,
                    owners[k],
                    self.thr_layout_vmnk
                ),
            });
        }
        Ok(())
    }

    /// Thread `tid`'s coordinate `(v, m, n, k)` in [`thr_layout_vmnk`]
    /// (what CuTe's `get_slice(tid)` keeps: each mode's coordinate as one
    /// integer, colexicographic within the mode): `v` is the thread within
    /// its atom, `(m, n, k)` the atom's place.
    ///
    /// Post-condition: `thr_layout_vmnk(v, m, n, k) == tid`.
    ///
    /// Errors: `OutOfBounds` for a `tid` outside `0..thread_indices()`;
    /// `NoLayout` for an idle lane (not an offset of `thr_layout_vmnk`).
    ///
    /// [`thr_layout_vmnk`]: TiledMma::thr_layout_vmnk
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
    /// let mma = make_tiled_mma(&atom, &"(2,2,1):(1,2,4)".parse::<Layout>()?, None)?;
    /// assert_eq!(mma.thr_vmnk(127)?, [31, 1, 1, 0]);
    /// assert_eq!(mma.thr_vmnk(64)?, [0, 0, 1, 0]);
    /// assert!(mma.thr_vmnk(128).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn thr_vmnk(&self, tid: i64) -> Result<[i64; 4]> {
        let vmnk = &self.thr_layout_vmnk;
        if !(0..self.thread_indices().max(vmnk.cosize())).contains(&tid) {
            return Err(LayoutError::OutOfBounds { coord: tid.to_string(), shape: vmnk.shape().to_string() });
        }
        let mut out = [0i64; 4];
        let mut coords = Vec::with_capacity(4);
        for (i, m) in vmnk.modes_iter().enumerate().take(4) {
            // CuTe's idx2crd by stride: each leaf's coordinate is
            // (tid / stride) % shape, a leaf of extent 1 at 0.
            let (mut c, mut scale) = (0i64, 1i64);
            for (s, d) in m.pairs() {
                let leaf = if s == 1 || d == 0 { 0 } else { (tid / d).rem_euclid(s) };
                c += leaf * scale;
                scale *= s;
            }
            out[i] = c;
            coords.push(IntTuple::int(c));
        }
        // The coordinate must name the thread: true for the compact thread
        // layouts tiled_product makes; checked, so never wrong.
        let back = vmnk.eval_coord(&IntTuple::tuple(coords))?;
        if back != tid {
            return Err(LayoutError::NoLayout {
                operation: "thr_vmnk",
                layout: vmnk.to_string(),
                reason: format!("thread index {tid} takes no part (it is not one of the layout's offsets)"),
            });
        }
        Ok(out)
    }

    /// thread index → the position `v + V·(m + M·(n + N·k))` of its
    /// coordinate in `(ThrV, ThrM, ThrN, ThrK)` (CuTe's `thridx_2_thrid`).
    fn thridx_to_thrid(&self) -> Result<Layout> {
        let vmnk = &self.thr_layout_vmnk;
        let full = make_layout(&[vmnk.clone(), complement(vmnk, vmnk.cosize())?])?;
        let head = Layout::new(IntTuple::flat([vmnk.size(), 1]), IntTuple::flat([1, 0]))?;
        composition(&head, &right_inverse(&full))
    }

    /// CuTe's `thrfrg_A/B/C` of a reference layout of the `(I, J)` tile:
    /// `((ThrV,(ThrI,ThrJ)),(FrgV,(RestI,RestJ)))`, `(i, j)` two of M, N, K.
    fn thrfrg(&self, reference: &Layout, (i, j): (usize, usize), atom_tv: &Layout) -> Result<Layout> {
        let (am, an, ak) = self.atom.shape_mnk;
        let atom_extent = [am, an, ak];
        let perm = |d: usize| -> Result<Layout> {
            match &self.permutation_mnk[d] {
                Some(p) => Ok(p.clone()),
                None => Layout::scalar([self.tile_size_mnk.0, self.tile_size_mnk.1, self.tile_size_mnk.2][d], 1),
            }
        };
        // Reorder the tile by the permutations: (PermI, PermJ).
        let t = logical_divide(reference, &Tiler::Tuple(vec![perm(i)?.into(), perm(j)?.into()]))?;
        // Tile it by the atom: ((AtomI, AtomJ), (RestI, RestJ)).
        let atom_tile =
            Tiler::Tuple(vec![Layout::scalar(atom_extent[i], 1)?.into(), Layout::scalar(atom_extent[j], 1)?.into()]);
        let c = zipped_divide(&t, &atom_tile)?;
        // The atom's (I, J) as (ThrV, FrgV): ((ThrV, FrgV), (RestI, RestJ)).
        let tv = compose_mode0(&c, atom_tv)?;
        // The rest split among the atoms along I and J, as CuTe's
        // zipped_divide by (_, (ThrI, ThrJ)): the `_` splits (ThrV, FrgV).
        let vmnk = &self.thr_layout_vmnk;
        let thr_tile = Tiler::Tuple(vec![
            Layout::scalar(mode(vmnk, i + 1)?.size(), 1)?.into(),
            Layout::scalar(mode(vmnk, j + 1)?.size(), 1)?.into(),
        ]);
        let rest = logical_divide(&mode(&tv, 1)?, &thr_tile)?;
        let (ri, rj) = (mode(&rest, 0)?, mode(&rest, 1)?);
        let atom_mode = mode(&tv, 0)?;
        make_layout(&[
            make_layout(&[mode(&atom_mode, 0)?, make_layout(&[mode(&ri, 0)?, mode(&rj, 0)?])?])?,
            make_layout(&[mode(&atom_mode, 1)?, make_layout(&[mode(&ri, 1)?, mode(&rj, 1)?])?])?,
        ])
    }

    fn compute_layout_c_tv(&self) -> Result<Layout> {
        let (m, n, _) = self.tile_size_mnk;
        let reference = compact_col_major(&IntTuple::flat([m, n]))?;
        let frg = self.thrfrg(&reference, (0, 1), &self.atom.layout_c_tv)?;
        compose_mode0(&frg, &self.thridx_to_thrid()?)
    }

    /// A's (or B's) thread mode `(ThrV,(ThrM,ThrK))` is widened to
    /// `(ThrV,((ThrM,ThrN),ThrK))` with stride 0 along N (M for B) before
    /// thread indices replace coordinates: every thread of the atoms along
    /// N reads the same A.
    fn compute_layout_ab_tv(&self, which: Operand) -> Result<Layout> {
        let (m, n, k) = self.tile_size_mnk;
        let vmnk = &self.thr_layout_vmnk;
        let (tm, tn) = (mode(vmnk, 1)?.size(), mode(vmnk, 2)?.size());
        let (rows, dims, atom_tv, widen) = match which {
            Operand::A => (m, (0, 2), &self.atom.layout_a_tv, [1, 0]),
            Operand::B => (n, (1, 2), &self.atom.layout_b_tv, [0, 1]),
        };
        let reference = compact_col_major(&IntTuple::flat([rows, k]))?;
        let frg = self.thrfrg(&reference, dims, atom_tv)?;
        let widening = Layout::new(IntTuple::flat([tm, tn]), IntTuple::flat(widen))?;
        // CuTe's compose(make_tile(_, make_tile(widening, _)), _).
        let thr = mode(&frg, 0)?;
        let ij = mode(&thr, 1)?;
        let widened = make_layout(&[composition(&mode(&ij, 0)?, &widening)?, mode(&ij, 1)?])?;
        let thr = make_layout(&[mode(&thr, 0)?, widened])?;
        let frg = make_layout(&[thr, mode(&frg, 1)?])?;
        compose_mode0(&frg, &self.thridx_to_thrid()?)
    }
}

impl fmt::Display for TiledMma {
    /// CuTe's `print(TiledMMA)`: the thread layout, the permutations (`_`
    /// for none, `n` for `n:1` and `1` for `1:0`, the tiles of integers,
    /// else the layout), then the atom.
    ///
    /// ```
    /// use cute_dynamic::{Layout, MmaAtom, make_tiled_mma};
    /// let atom = MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?;
    /// let mma = make_tiled_mma(&atom, &"(2,2,1):(1,2,4)".parse::<Layout>()?, None)?;
    /// let text = mma.to_string();
    /// assert!(
    ///     text.starts_with("TiledMMA\n  ThrLayoutVMNK:  (32,2,2,1):(1,32,64,0)\n  PermutationMNK: (_,_,_)\nMMA_Atom")
    /// );
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "TiledMMA")?;
        writeln!(f, "  ThrLayoutVMNK:  {}", self.thr_layout_vmnk)?;
        // The tile of an integer `n` (`n:1`, `1:0`) as `n`, as CuTe prints
        // `Tile<_32,...>`.
        let perm: Vec<String> = self
            .permutation_mnk
            .iter()
            .map(|p| match p {
                None => "_".to_string(),
                Some(l) => match (l.shape().as_int(), l.stride().as_int()) {
                    (Some(n), Some(d)) if d == i64::from(n != 1) => n.to_string(),
                    _ => l.to_string(),
                },
            })
            .collect();
        writeln!(f, "  PermutationMNK: ({})", perm.join(","))?;
        write!(f, "{}", self.atom)
    }
}
