//! Copy atoms and tiled copies: CuTe's `Copy_Atom` (one copy instruction as
//! thread-value layouts of its source and destination) and `TiledCopy`
//! (atoms tiled over a thread-value layout of a tile), as data.

use crate::coalesce::coalesce_by;
use crate::composition::composition;
use crate::divide::zipped_divide;
use crate::error::{LayoutError, Result, checked_mul};
use crate::int_tuple::IntTuple;
use crate::inverse::right_inverse;
use crate::layout::{Layout, make_layout};
use crate::layout_tv::make_layout_tv;
use crate::mma_atom::{TiledMma, check_tv, compact_col_major, compose_mode0, mode};
use crate::parse::UNDERSCORE;
use crate::product::logical_product;
use crate::recast::{upcast, upcast_ceil};
use crate::slice::{SliceCoord, slice_and_offset};
use crate::tensor::Tensor;
use std::fmt;

/// One copy instruction as CuTe describes it (`Copy_Atom<Op, T>`): its
/// threads (`ThrID`), and `(thread, value) → value offset` layouts of what
/// each thread reads (`ValLayoutSrc`), writes (`ValLayoutDst`), and the
/// reference the tiled copy is laid out by (`ValLayoutRef`), in elements of
/// `value_bits` bits. CuTe's traits give them in bits; the atom counts
/// them in values (CuTe's `recast_layout<uint1_t, T>`).
///
/// ```
/// use cute_dynamic::CopyAtom;
/// let ldsm = CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?; // ldmatrix.x4 of half_t
/// assert_eq!(ldsm.layout_src_tv().to_string(), "(32,8):(8,1)"); // each lane one 16-byte row
/// assert_eq!(ldsm.layout_dst_tv().to_string(), "(32,(2,4)):(2,(1,64))"); // two halves of each 8x8
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyAtom {
    name: String,
    value_bits: i64,
    thr_id: Layout,
    layout_src_tv: Layout,
    layout_dst_tv: Layout,
    layout_ref_tv: Layout,
}

/// CuTe's copy traits of the GPU atoms this crate knows, in bits (CuTe's
/// `Copy_Traits<...>`; `print(Copy_Atom<..., half_t>{})` in
/// `tests/golden/cute_atoms.txt` is their recast to 16 bits).
struct GpuCopy {
    name: &'static str,
    thr_id: &'static str,
    src: &'static str,
    dst: &'static str,
    /// The reference is the source (`false`) or the destination (`true`).
    ref_is_dst: bool,
}

const GPU_COPY: &[GpuCopy] = &[
    // ldmatrix .x4: lane i reads row i (128 bits) of four 8x8 matrices of
    // 16-bit values; each lane receives 32 bits of each matrix.
    GpuCopy {
        name: "SM75_U32x4_LDSM_N",
        thr_id: "32:1",
        src: "(32,128):(128,1)",
        dst: "(32,(32,4)):(32,(1,1024))",
        ref_is_dst: true,
    },
    // cp.async of 16 bytes by one thread.
    GpuCopy {
        name: "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>",
        thr_id: "1:0",
        src: "(1,128):(0,1)",
        dst: "(1,128):(0,1)",
        ref_is_dst: false,
    },
];

impl CopyAtom {
    /// An atom from CuTe's traits in bits (`ThrID`, `SrcLayout`,
    /// `DstLayout`, `RefLayout`), counted in values of `value_bits` bits.
    ///
    /// Post-conditions: the value layouts are the bit layouts recast
    /// (CuTe's `upcast<value_bits>`), each with a thread mode of
    /// `size(thr_id)` threads.
    ///
    /// Errors: `Unsupported` for `value_bits < 1` or a bit layout that does
    /// not split into values of that size (CuTe: "CopyOperation is not valid
    /// for Src of ValType"); `RankMismatch` for a layout not of rank 2;
    /// `SizeMismatch` for a thread mode of the wrong size.
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// // A one-thread copy of 64 bits, as four 16-bit values.
    /// let a = CopyAtom::new("copy64", 16, "1:0".parse()?, "(1,64):(0,1)".parse()?,
    ///                       "(1,64):(0,1)".parse()?, "(1,64):(0,1)".parse()?)?;
    /// assert_eq!(a.layout_src_tv().to_string(), "(1,4):(0,1)");
    /// assert!(CopyAtom::new("odd", 24, "1:0".parse()?, "(1,64):(0,1)".parse()?,
    ///                       "(1,64):(0,1)".parse()?, "(1,64):(0,1)".parse()?).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn new(
        name: impl Into<String>,
        value_bits: i64,
        thr_id: Layout,
        src_bits: Layout,
        dst_bits: Layout,
        ref_bits: Layout,
    ) -> Result<CopyAtom> {
        let name = name.into();
        if value_bits < 1 {
            return Err(LayoutError::Unsupported { what: format!("the copy atom {name} of {value_bits}-bit values") });
        }
        let threads = thr_id.size();
        let mut recast = Vec::with_capacity(3);
        for (what, bits) in [("source", &src_bits), ("destination", &dst_bits), ("reference", &ref_bits)] {
            let v = upcast(bits, value_bits).map_err(|e| LayoutError::Unsupported {
                what: format!("the {what} of the copy atom {name} in {value_bits}-bit values: {e}"),
            })?;
            let (Some(thr), 2) = (v.get(0), v.rank()) else {
                return Err(LayoutError::RankMismatch {
                    what: format!("the {what} layout {bits} of the copy atom {name}"),
                    expected: 2,
                    found: v.rank(),
                });
            };
            if thr.size() != threads {
                return Err(LayoutError::SizeMismatch {
                    what: format!("the threads of the {what} layout {bits} of the copy atom {name} against {thr_id}"),
                    expected: threads,
                    found: thr.size(),
                });
            }
            recast.push(v);
        }
        let [layout_src_tv, layout_dst_tv, layout_ref_tv]: [Layout; 3] =
            recast.try_into().map_err(|_| LayoutError::Unsupported { what: "three value layouts".to_string() })?;
        Ok(CopyAtom { name, value_bits, thr_id, layout_src_tv, layout_dst_tv, layout_ref_tv })
    }

    /// A GPU atom by CuTe's name, of `value_bits`-bit values (CuTe's
    /// `Copy_Atom<Op, T>` with `T` of that size): `SM75_U32x4_LDSM_N`
    /// (`ldmatrix.x4`), `SM80_CP_ASYNC_CACHEALWAYS<uint128_t>` (16-byte
    /// `cp.async`).
    ///
    /// Errors: `Unsupported` for any other name (the message lists the
    /// known ones); those of [`CopyAtom::new`].
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// let cp = CopyAtom::gpu("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 16)?;
    /// assert_eq!(cp.layout_src_tv().to_string(), "(1,8):(0,1)"); // 8 half_t
    /// assert_eq!(
    ///     CopyAtom::gpu("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", 32)?.layout_src_tv().to_string(),
    ///     "(1,4):(0,1)"
    /// );
    /// assert!(CopyAtom::gpu("SM90_TMA_LOAD", 16).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn gpu(name: &str, value_bits: i64) -> Result<CopyAtom> {
        let Some(g) = GPU_COPY.iter().find(|g| g.name == name) else {
            let known: Vec<&str> = GPU_COPY.iter().map(|g| g.name).collect();
            return Err(LayoutError::Unsupported {
                what: format!(
                    "the copy atom '{name}': the GPU atoms known are {}, and UniversalCopy<uintN_t>",
                    known.join(", ")
                ),
            });
        };
        let p = |s: &str| s.parse::<Layout>();
        let (src, dst) = (p(g.src)?, p(g.dst)?);
        let reference = if g.ref_is_dst { dst.clone() } else { src.clone() };
        CopyAtom::new(g.name, value_bits, p(g.thr_id)?, src, dst, reference)
    }

    /// CuTe's `UniversalCopy<uintN_t>` of `value_bits`-bit values: one
    /// thread copies `copy_bits / value_bits` values (`(1,W):(0,1)`), named
    /// `UniversalCopy<uint{copy_bits}_t>`.
    ///
    /// Errors: as [`CopyAtom::new`] (`copy_bits` a multiple of
    /// `value_bits`, both positive).
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// let u = CopyAtom::universal(128, 16)?; // Copy_Atom<UniversalCopy<uint128_t>, half_t>
    /// assert_eq!(u.name(), "UniversalCopy<uint128_t>");
    /// assert_eq!(u.layout_dst_tv().to_string(), "(1,8):(0,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn universal(copy_bits: i64, value_bits: i64) -> Result<CopyAtom> {
        let bits = Layout::new(IntTuple::flat([1, copy_bits]), IntTuple::flat([0, 1]))?;
        let name = format!("UniversalCopy<uint{copy_bits}_t>");
        CopyAtom::new(name, value_bits, Layout::scalar(1, 0)?, bits.clone(), bits.clone(), bits)
    }

    /// Any atom this crate names: a GPU atom ([`CopyAtom::gpu`]) or
    /// `UniversalCopy<uintN_t>` ([`CopyAtom::universal`]).
    ///
    /// Errors: `Unsupported` for an unknown name; those of the constructors.
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// assert_eq!(CopyAtom::named("UniversalCopy<uint64_t>", 32)?, CopyAtom::universal(64, 32)?);
    /// assert!(CopyAtom::named("UniversalCopy<uint12x_t>", 8).is_err());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn named(name: &str, value_bits: i64) -> Result<CopyAtom> {
        if let Some(n) = name.strip_prefix("UniversalCopy<uint").and_then(|r| r.strip_suffix("_t>")) {
            return match n.parse::<i64>() {
                Ok(bits) => CopyAtom::universal(bits, value_bits),
                Err(_) => Err(LayoutError::Unsupported {
                    what: format!("the copy atom '{name}': UniversalCopy<uintN_t> takes a number of bits N"),
                }),
            };
        }
        CopyAtom::gpu(name, value_bits)
    }

    /// The atom's name (CuTe's).
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// assert_eq!(CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?.name(), "SM75_U32x4_LDSM_N");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The bits of one value (CuTe's `sizeof_bits<T>`).
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// assert_eq!(CopyAtom::universal(128, 32)?.value_bits(), 32);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn value_bits(&self) -> i64 {
        self.value_bits
    }

    /// Logical thread → thread index (CuTe's `ThrID`).
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// assert_eq!(CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?.thr_id().to_string(), "32:1");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn thr_id(&self) -> &Layout {
        &self.thr_id
    }

    /// `(thread, value) → offset` of what each thread reads (CuTe's
    /// `ValLayoutSrc`).
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// assert_eq!(CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?.layout_src_tv().to_string(), "(32,8):(8,1)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_src_tv(&self) -> &Layout {
        &self.layout_src_tv
    }

    /// `(thread, value) → offset` of what each thread writes (CuTe's
    /// `ValLayoutDst`).
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// assert_eq!(CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?.layout_dst_tv().to_string(), "(32,(2,4)):(2,(1,64))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_dst_tv(&self) -> &Layout {
        &self.layout_dst_tv
    }

    /// The reference `(thread, value) → offset` a tiled copy's layout is
    /// given in (CuTe's `ValLayoutRef`: the destination for `ldmatrix`, the
    /// source for the one-thread copies).
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// let a = CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?;
    /// assert_eq!(a.layout_ref_tv(), a.layout_dst_tv());
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_ref_tv(&self) -> &Layout {
        &self.layout_ref_tv
    }

    /// The atom's threads and values per thread (of the reference layout).
    fn counts(&self) -> (i64, i64) {
        let r = &self.layout_ref_tv;
        (r.get(0).map_or(1, |m| m.size()), r.get(1).map_or(1, |m| m.size()))
    }
}

impl fmt::Display for CopyAtom {
    /// CuTe's `print(Copy_Atom)`, with the atom's name after `Copy_Atom`.
    ///
    /// ```
    /// use cute_dynamic::CopyAtom;
    /// let text = CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?.to_string();
    /// assert_eq!(text.lines().last(), Some("  ValueType:    16b"));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Copy_Atom {}", self.name)?;
        writeln!(f, "  ThrID:        {}", self.thr_id)?;
        writeln!(f, "  ValLayoutSrc: {}", self.layout_src_tv)?;
        writeln!(f, "  ValLayoutDst: {}", self.layout_dst_tv)?;
        writeln!(f, "  ValLayoutRef: {}", self.layout_ref_tv)?;
        writeln!(f, "  ValueType:    {}b", self.value_bits)
    }
}

/// A tiled copy (CuTe's `TiledCopy`): a [`CopyAtom`] repeated over a
/// thread-value layout `(thread, value) → m + M·n` of a tile `Tiler_MN`.
/// Made by [`make_tiled_copy`] (from thread and value layouts),
/// [`TiledCopy::new`] (from a TV layout and its tile, CuTe's
/// `make_tiled_copy_impl`) or [`make_tiled_copy_a`] and its siblings (from a
/// tiled MMA's operand).
///
/// ```
/// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
/// let atom = CopyAtom::universal(128, 16)?;
/// let copy = make_tiled_copy(&atom, &"(16,8):(8,1)".parse::<Layout>()?, &"(1,8):(1,1)".parse::<Layout>()?)?;
/// assert_eq!(copy.tiler_mn().to_string(), "(16,64)");
/// assert_eq!(copy.layout_s_tv().to_string(), "((8,16),(8,1)):((128,1),(16,0))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TiledCopy {
    atom: CopyAtom,
    layout_tv: Layout,
    tiler_mn: IntTuple,
    layout_s_tv: Layout,
    layout_d_tv: Layout,
}

/// CuTe's `make_tiled_copy(atom, thr_layout, val_layout)`: the threads laid
/// out over the tile by `thr_layout` ((m,n) → thread), each thread's values
/// by `val_layout` ((m,n) → value), raked: the TV layout and tile of
/// [`make_layout_tv`], then [`TiledCopy::new`].
///
/// Errors: those of [`make_layout_tv`] and [`TiledCopy::new`].
///
/// ```
/// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
/// // The GEMM tutorial's copy of A: 32x8 threads, 4x1 floats each, 128 bits at a time.
/// let atom = CopyAtom::universal(128, 32)?;
/// let copy = make_tiled_copy(&atom, &"(32,8):(1,32)".parse::<Layout>()?, &"(4,1):(1,0)".parse::<Layout>()?)?;
/// assert_eq!(copy.layout_tv().to_string(), "(256,4):(4,1)");
/// assert_eq!(copy.tiler_mn().to_string(), "(128,8)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_tiled_copy(atom: &CopyAtom, thr_layout: &Layout, val_layout: &Layout) -> Result<TiledCopy> {
    let (layout_tv, tiler) = make_layout_tv(thr_layout, val_layout)?;
    TiledCopy::new(atom, layout_tv, tiler)
}

/// CuTe's `make_tiled_copy_A(atom, mma)`: a tiled copy whose threads hold
/// the A values the tiled MMA's threads consume, over its `M × K` tile.
///
/// Errors: those of [`TiledCopy::new`].
///
/// ```
/// use cute_dynamic::{CopyAtom, Layout, MmaAtom, make_tiled_copy_a, make_tiled_mma};
/// let mma =
///     make_tiled_mma(&MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?, &"(2,2,1):(1,2,0)".parse::<Layout>()?, None)?;
/// let copy = make_tiled_copy_a(&CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?, &mma)?;
/// assert_eq!(copy.tiler_mn().to_string(), "(32,16)");
/// assert_eq!(copy.layout_s_tv().to_string(), "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_tiled_copy_a(atom: &CopyAtom, mma: &TiledMma) -> Result<TiledCopy> {
    let (m, _, k) = mma.tile_size_mnk();
    TiledCopy::new(atom, mma.layout_a_tv().clone(), IntTuple::flat([m, k]))
}

/// CuTe's `make_tiled_copy_B(atom, mma)`: as [`make_tiled_copy_a`] for B,
/// over the `N × K` tile.
///
/// Errors: those of [`TiledCopy::new`].
///
/// ```
/// use cute_dynamic::{CopyAtom, Layout, MmaAtom, make_tiled_copy_b, make_tiled_mma};
/// let mma =
///     make_tiled_mma(&MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?, &"(2,2,1):(1,2,0)".parse::<Layout>()?, None)?;
/// let copy = make_tiled_copy_b(&CopyAtom::universal(32, 16)?, &mma)?;
/// assert_eq!(copy.tiler_mn().to_string(), "(16,16)");
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_tiled_copy_b(atom: &CopyAtom, mma: &TiledMma) -> Result<TiledCopy> {
    let (_, n, k) = mma.tile_size_mnk();
    TiledCopy::new(atom, mma.layout_b_tv().clone(), IntTuple::flat([n, k]))
}

/// CuTe's `make_tiled_copy_C(atom, mma)`: as [`make_tiled_copy_a`] for C,
/// over the `M × N` tile.
///
/// Errors: those of [`TiledCopy::new`].
///
/// ```
/// use cute_dynamic::{CopyAtom, Layout, MmaAtom, make_tiled_copy_c, make_tiled_mma};
/// let mma =
///     make_tiled_mma(&MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?, &"(2,2,1):(1,2,0)".parse::<Layout>()?, None)?;
/// let copy = make_tiled_copy_c(&CopyAtom::universal(32, 32)?, &mma)?;
/// assert_eq!(copy.layout_d_tv().get(0).unwrap().size(), 128);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn make_tiled_copy_c(atom: &CopyAtom, mma: &TiledMma) -> Result<TiledCopy> {
    let (m, n, _) = mma.tile_size_mnk();
    TiledCopy::new(atom, mma.layout_c_tv().clone(), IntTuple::flat([m, n]))
}

impl TiledCopy {
    /// A tiled copy of `atom` over the thread-value layout `layout_tv`
    /// (`(thread, value) → m + M·n`) of the tile `tiler_mn` (CuTe's
    /// `make_tiled_copy_impl`), with CuTe's source and destination layouts
    /// ([`layout_s_tv`](TiledCopy::layout_s_tv),
    /// [`layout_d_tv`](TiledCopy::layout_d_tv)).
    ///
    /// Post-conditions (checked point by point): the source and destination
    /// TV layouts map every `(thread, value)` into the tile and reach every
    /// element of it.
    ///
    /// Errors: `RankMismatch` for a `layout_tv` not of rank 2;
    /// `NotAMultiple` when its threads (values) are not a multiple of the
    /// atom's (CuTe: "TiledCopy uses too few thrs/vals for selected
    /// CopyAtom"); those of the algebra; `NoLayout` when the result misses
    /// or leaves the tile.
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, IntTuple, TiledCopy};
    /// let atom = CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?;
    /// let copy = TiledCopy::new(&atom, "(32,8):(1,32)".parse()?, IntTuple::flat([32, 8]))?;
    /// assert_eq!(copy.layout_s_tv().to_string(), "((8,4),((2,4),1)):((4,64),((32,1),0))");
    /// assert!(TiledCopy::new(&atom, "(16,8):(1,16)".parse()?, IntTuple::flat([16, 8])).is_err()); // 16 threads
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn new(atom: &CopyAtom, layout_tv: Layout, tiler_mn: IntTuple) -> Result<TiledCopy> {
        let (Some(thr), Some(val), 2) = (layout_tv.get(0), layout_tv.get(1), layout_tv.rank()) else {
            return Err(LayoutError::RankMismatch {
                what: format!("the thread-value layout {layout_tv} of a tiled copy"),
                expected: 2,
                found: layout_tv.rank(),
            });
        };
        let (atom_thr, atom_val) = atom.counts();
        for (what, tiled, of_atom) in [("threads", thr.size(), atom_thr), ("values", val.size(), atom_val)] {
            if tiled % of_atom != 0 {
                return Err(LayoutError::NotAMultiple {
                    what: format!(
                        "the {what} of the tiled copy {layout_tv} against the {what} of the copy atom {}",
                        atom.name
                    ),
                    value: tiled,
                    of: of_atom,
                });
            }
        }
        let mut copy = TiledCopy {
            atom: atom.clone(),
            layout_tv,
            tiler_mn,
            layout_s_tv: Layout::scalar(1, 0)?,
            layout_d_tv: Layout::scalar(1, 0)?,
        };
        let inv_ref = right_inverse(&atom.layout_ref_tv);
        copy.layout_s_tv = copy.tile_tv(&composition(&inv_ref, &atom.layout_src_tv)?)?;
        copy.layout_d_tv = copy.tile_tv(&composition(&inv_ref, &atom.layout_dst_tv)?)?;
        let (rows, cols) = copy.rows_cols()?;
        let threads = thr.size();
        check_tv("the source layout of the tiled copy", &copy.layout_s_tv, threads, rows, cols)?;
        check_tv("the destination layout of the tiled copy", &copy.layout_d_tv, threads, rows, cols)?;
        Ok(copy)
    }

    /// The tile as rows (its first mode) by columns (the rest).
    fn rows_cols(&self) -> Result<(i64, i64)> {
        let size = self.tiler_mn.size()?;
        let rows = match self.tiler_mn.as_int() {
            Some(n) => n,
            None => self.tiler_mn.get(0).map_or(Ok(size), |m| m.size())?,
        };
        Ok((rows, size / rows.max(1)))
    }

    /// CuTe's `tile2thrfrg` of the tile's reference layout, at rest 0: the
    /// tiled TV layout with each atom's reference `(thread, value)` read as
    /// the target's (`ref2trg`), `(thread, value) → m + M·n`.
    fn tile_tv(&self, ref2trg: &Layout) -> Result<Layout> {
        let (atom_thr, atom_val) = self.atom.counts();
        // ((atom_tid, atom_val), (rest_tid, rest_val)) → (m, n)
        let atom_tv = zipped_divide(&self.layout_tv, &IntTuple::flat([atom_thr, atom_val]))?;
        // ((trg_tid, trg_val), (rest_tid, rest_val)) → (m, n)
        let trg_tv = compose_mode0(&atom_tv, ref2trg)?;
        // ((trg_tid, rest_tid), (trg_val, rest_val)), the threads coalesced
        // into one mode and each part of the values into one.
        let (a, r) = (mode(&trg_tv, 0)?, mode(&trg_tv, 1)?);
        let zipped =
            make_layout(&[make_layout(&[mode(&a, 0)?, mode(&r, 0)?])?, make_layout(&[mode(&a, 1)?, mode(&r, 1)?])?])?;
        let thrval2mn = coalesce_by(&zipped, &"(1,(1,1))".parse()?)?;
        let reference = compact_col_major(&self.tiler_mn)?;
        let tv = composition(&reference, &thrval2mn)?;
        // CuTe's `(_,_,0)` of `(thr, val, rest)`: the thread and value modes.
        make_layout(&[mode(&tv, 0)?, mode(&tv, 1)?])
    }

    /// The atom.
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
    /// let copy =
    ///     make_tiled_copy(&CopyAtom::universal(32, 32)?, &"4:1".parse::<Layout>()?, &"1:0".parse::<Layout>()?)?;
    /// assert_eq!(copy.atom().name(), "UniversalCopy<uint32_t>");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn atom(&self) -> &CopyAtom {
        &self.atom
    }

    /// The tiled thread-value layout `(thread, value) → m + M·n` (CuTe's
    /// `TiledLayout_TV`).
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
    /// let copy = make_tiled_copy(&CopyAtom::universal(128, 16)?, &"(16,8):(8,1)".parse::<Layout>()?,
    ///                            &"(1,8):(1,1)".parse::<Layout>()?)?;
    /// assert_eq!(copy.layout_tv().to_string(), "((8,16),8):((128,1),16)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_tv(&self) -> &Layout {
        &self.layout_tv
    }

    /// The tile `(M, N)` one tiled copy moves (CuTe's `Tiler_MN`).
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
    /// let copy = make_tiled_copy(&CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?, &"(32,1):(1,0)".parse::<Layout>()?,
    ///                            &"(1,8):(0,1)".parse::<Layout>()?)?;
    /// assert_eq!(copy.tiler_mn().to_string(), "(32,8)");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn tiler_mn(&self) -> &IntTuple {
        &self.tiler_mn
    }

    /// The number of threads (CuTe's `size(tiled_copy)`).
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
    /// let copy = make_tiled_copy(&CopyAtom::universal(128, 32)?, &"(32,8):(1,32)".parse::<Layout>()?,
    ///                            &"(4,1):(1,0)".parse::<Layout>()?)?;
    /// assert_eq!(copy.threads(), 256);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn threads(&self) -> i64 {
        self.layout_tv.get(0).map_or(0, |m| m.size())
    }

    /// `(thread, value) → m + M·n` of the source: which element of the
    /// tile each thread reads (CuTe's `get_layoutS_TV()`).
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
    /// let copy = make_tiled_copy(&CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?, &"(32,1):(1,0)".parse::<Layout>()?,
    ///                            &"(1,8):(0,1)".parse::<Layout>()?)?;
    /// assert_eq!(copy.layout_s_tv().to_string(), "((8,4),((2,4),1)):((4,64),((32,1),0))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_s_tv(&self) -> &Layout {
        &self.layout_s_tv
    }

    /// `(thread, value) → m + M·n` of the destination: which element of
    /// the tile each thread holds afterwards (CuTe's `get_layoutD_TV()`).
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
    /// let copy = make_tiled_copy(&CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?, &"(32,1):(1,0)".parse::<Layout>()?,
    ///                            &"(1,8):(0,1)".parse::<Layout>()?)?;
    /// assert_eq!(copy.layout_d_tv().to_string(), "(32,(8,1)):(1,(32,0))");
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn layout_d_tv(&self) -> &Layout {
        &self.layout_d_tv
    }
}

impl TiledCopy {
    /// CuTe's `TiledCopy::retile(layout)`: a thread's fragment `(V, M, N,
    /// ...)` (its values `V` of each copy, then how many times it repeats
    /// along the tile's modes, as an MMA's `partition_fragment_A|B|C` makes
    /// them) re-read as this tiled copy's fragment `((AtomVal, RestVal),
    /// RestM, RestN, ...)`: mode 0 holds the values of one copy of the
    /// tiled copy, atom by atom (`AtomVal` the atom's values, CuTe's
    /// `AtomNumVal`), the other modes the copies along the tile. CuTe's
    /// `retile_S` and `retile_D` are this, on a tensor
    /// ([`retile_s`](TiledCopy::retile_s), [`retile_d`](TiledCopy::retile_d)).
    ///
    /// As CuTe computes it, step by step with the algebra:
    /// 1. `frg_mn = upcast_ceil(right_inverse(TiledLayout_TV) ∘ Tiler_MN,
    ///    threads·V)`: where each group of `V` values of a thread lies in
    ///    the tile, `(m, n) → group` ([`upcast_ceil`]);
    /// 2. `frg_v = zipped_divide(logical_product(V:1, right_inverse(frg_mn)),
    ///    AtomVal:1)`: `(atom values, rest values) → (v, m, n)`;
    /// 3. the input divided by the tiler `(V, size(frg_mn_0), size(frg_mn_1),
    ///    ...)`, its tile mode composed with `frg_v` and its rest mode sliced
    ///    at `(0, _, _, ...)` (the rest of `V`, which is 1).
    ///
    /// Like CuTe, it assumes the fragment's values come in the order of the
    /// tiled copy's values, and the copy's source and destination to be laid
    /// out as its reference ("retile_S and retile_D assume they are working
    /// with the reference layout").
    ///
    /// Post-conditions (checked by brute force in the tests, for every tiled
    /// copy of CuTe's golden cases and many fragments):
    /// * the result has the input's rank;
    /// * mode 0 holds `max(V, P)` values, `P` the values a thread of the
    ///   tiled copy moves, when one of `V` and `P` divides the other;
    /// * when the result has the input's size, it re-indexes the input:
    ///   `R(i) == L(Φ(i))` for a permutation `Φ` of `0..size(L)` that
    ///   depends on `L`'s shape alone (`Φ` is the retile of the
    ///   column-major layout of that shape), so `R` and `L` reach the same
    ///   offsets, each as often;
    /// * otherwise (the fragment's modes do not split into the tiled copy's
    ///   values: `(2,1,1)` against 8 values a thread), the divides extend
    ///   the fragment's modes as CuTe's do and the result reaches past it;
    ///   CuTe returns the same layout. A tensor so retiled checks each
    ///   access against its storage, as any view does.
    ///
    /// Errors: `RankMismatch` for a layout of rank below `1 + rank(Tiler_MN)`
    /// (CuTe: "Too many modes in tiler"); `Overflow` for `threads·V`;
    /// `NotDivisible` when `threads·V` and a stride of the inverted TV
    /// layout divide neither way (CuTe's static assertion in `upcast`);
    /// those of composition, the product and the divides (CuTe's static
    /// assertions there).
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
    /// // 16x8 threads, each copying 8 half_t (128 bits) along a row.
    /// let copy = make_tiled_copy(&CopyAtom::universal(128, 16)?, &"(16,8):(8,1)".parse::<Layout>()?,
    ///                            &"(1,8):(1,1)".parse::<Layout>()?)?;
    /// let frag: Layout = "(8,2,2):(1,8,16)".parse()?;
    /// assert_eq!(copy.retile(&frag)?.to_string(), "((8,1),2,2):((1,0),8,16)");
    /// // Four values a copy: the copies of two of them along M make one.
    /// assert_eq!(copy.retile(&"(4,2,2):(1,4,8)".parse()?)?.to_string(), "(((4,2),1),2,1):(((1,8),0),4,0)");
    /// assert!(copy.retile(&"(8,4):(1,8)".parse()?).is_err()); // no mode for N
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn retile(&self, layout: &Layout) -> Result<Layout> {
        let tile_rank = if self.tiler_mn.is_int() { 1 } else { self.tiler_mn.rank() };
        let rank = layout.rank();
        if rank < tile_rank + 1 {
            return Err(LayoutError::RankMismatch {
                what: format!(
                    "the fragment {layout} retiled by a tiled copy of tile {} (its values, then a mode for each of the \
                     tile's)",
                    self.tiler_mn
                ),
                expected: tile_rank + 1,
                found: rank,
            });
        }
        let v = mode(layout, 0)?.size();
        let group = checked_mul(self.threads(), v, "retile (the threads of the tiled copy times V)")?;
        // (m, n) → which group of V values of the tiled TV layout.
        let mn_to_tv = composition(&right_inverse(&self.layout_tv), &compact_col_major(&self.tiler_mn)?)?;
        let frg_mn = upcast_ceil(&mn_to_tv, group)?;
        // (atom values, rest values) → (v, m, n) of the fragment's tile.
        let (_, atom_val) = self.atom.counts();
        let v_then_mn = logical_product(&compact_col_major(&IntTuple::int(v))?, &right_inverse(&frg_mn))?;
        let frg_v = zipped_divide(&v_then_mn, &compact_col_major(&IntTuple::int(atom_val))?)?;
        // ((V, M', N'), (1, RestM, RestN, ...)), its tile re-read by frg_v.
        let tiler = IntTuple::flat(std::iter::once(v).chain(frg_mn.modes_iter().map(|m| m.size())));
        let tiled = compose_mode0(&zipped_divide(layout, &tiler)?, &frg_v)?;
        // CuTe's `(_, (0, _, _, ...))`: the rest of V (size 1) dropped, the
        // other rests spliced in after mode 0.
        let under = || IntTuple::int(UNDERSCORE);
        let rest =
            IntTuple::tuple(std::iter::once(IntTuple::int(0)).chain(std::iter::repeat_with(under).take(rank - 1)));
        let (out, _origin) = slice_and_offset(&tiled, &SliceCoord::from_marked(IntTuple::tuple([under(), rest])))?;
        Ok(out)
    }

    /// CuTe's `retile_S(tensor)`: the same data as
    /// [`retile`](TiledCopy::retile) of its layout re-reads it (the engine,
    /// origin and any swizzle kept), for use as the source of this tiled
    /// copy.
    ///
    /// Post-condition: `result[c] == tensor[map(c)]` for the coordinate map
    /// of [`retile`](TiledCopy::retile); no element moves.
    ///
    /// Errors: those of [`retile`](TiledCopy::retile).
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, make_tensor, make_tiled_copy};
    /// let copy = make_tiled_copy(&CopyAtom::universal(32, 32)?, &"(32,8):(1,32)".parse::<Layout>()?,
    ///                            &"(4,1):(1,0)".parse::<Layout>()?)?;
    /// let frag = make_tensor(vec![0.5f32; 24], "(4,2,3):(1,4,8)".parse::<Layout>()?)?;
    /// let src = copy.retile_s(frag)?;
    /// assert_eq!(src.layout().to_string(), "((1,4),2,3):((0,1),4,8)"); // 1-value copies, 4 a thread
    /// assert_eq!(src[(3, 1, 2)], 0.5);
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn retile_s<E>(&self, tensor: Tensor<E>) -> Result<Tensor<E>> {
        self.retile_tensor(tensor)
    }

    /// CuTe's `retile_D(tensor)`: as [`retile_s`](TiledCopy::retile_s), for
    /// use as the destination (CuTe's two are the same function): an MMA's
    /// register fragment re-read as this tiled copy's, as kernels do with
    /// `smem_thr_copy_A.retile_D(tCrA)`.
    ///
    /// Errors: those of [`retile`](TiledCopy::retile).
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, MmaAtom, make_tensor, make_tiled_copy_a, make_tiled_mma};
    /// let mma = make_tiled_mma(
    ///     &MmaAtom::gpu("SM80_16x8x16_F32F16F16F32_TN")?,
    ///     &"(2,2,1):(1,2,0)".parse::<Layout>()?,
    ///     None,
    /// )?;
    /// let ldsm = make_tiled_copy_a(&CopyAtom::gpu("SM75_U32x4_LDSM_N", 16)?, &mma)?;
    /// // Thread 0's A fragment of a 64x32 tile: 8 values an MMA, 2x2 MMAs.
    /// let t_cr_a = make_tensor(vec![0u16; 32], "((2,2,2),2,2):((1,2,4),8,16)".parse::<Layout>()?)?;
    /// let dst = ldsm.retile_d(t_cr_a)?;
    /// assert_eq!(dst.layout().to_string(), "((8,1),2,2):((1,0),8,16)"); // one ldmatrix.x4 each
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn retile_d<E>(&self, tensor: Tensor<E>) -> Result<Tensor<E>> {
        self.retile_tensor(tensor)
    }

    fn retile_tensor<E>(&self, tensor: Tensor<E>) -> Result<Tensor<E>> {
        let layout = self.retile(&tensor.layout)?;
        // The slice in `retile` is at the rest coordinate 0: the origin stays.
        Ok(Tensor { layout, ..tensor })
    }
}

impl fmt::Display for TiledCopy {
    /// CuTe's `print(TiledCopy)`: the tile, the tiled TV layout, the atom.
    ///
    /// ```
    /// use cute_dynamic::{CopyAtom, Layout, make_tiled_copy};
    /// let copy = make_tiled_copy(&CopyAtom::universal(128, 16)?, &"(16,8):(8,1)".parse::<Layout>()?,
    ///                            &"(1,8):(1,1)".parse::<Layout>()?)?;
    /// assert!(copy.to_string().starts_with("TiledCopy\n  Tiler_MN:       (16,64)\n"));
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "TiledCopy")?;
        writeln!(f, "  Tiler_MN:       {}", self.tiler_mn)?;
        writeln!(f, "  TiledLayout_TV: {}", self.layout_tv)?;
        write!(f, "{}", self.atom)
    }
}
