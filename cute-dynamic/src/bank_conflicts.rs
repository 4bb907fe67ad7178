//! Shared-memory bank conflicts of an access pattern (beyond CuTe).
//!
//! The model (NVIDIA shared memory since Maxwell): 32 banks of 4 bytes; the
//! 4-byte word at byte address `a` lies in bank `(a / 4) mod 32`. A warp's
//! request is served in *wavefronts*: one wavefront reads at most one word
//! from each bank, and threads that read the same word share it
//! (broadcast). So a request needs as many wavefronts as the largest number
//! of **distinct words** it touches in any one bank, and at least
//! `ceil(distinct words / 32)` (its *ideal*: no conflicts).
//!
//! The access pattern is a layout (or a swizzled, composed layout) from
//! threads, or from (thread, value) pairs, to element offsets:
//!
//! * a rank-2 layout is a thread-value layout: mode 0 is the thread, mode 1
//!   the value; all threads issue value `v` together, one request per value
//!   index;
//! * any other layout maps a thread index `0 <= t < size` to one element.
//!
//! Threads are taken in groups of 32 consecutive indices (warps; the last
//! group may be smaller). An element of `elem_bytes` bytes at offset `o`
//! occupies the bytes `[o·elem_bytes, (o+1)·elem_bytes)`, so an element wider
//! than 4 bytes touches several words.

use crate::composed::ComposedLayout;
use crate::error::{LayoutError, Result, checked_add, checked_mul};
use crate::layout::Layout;
use std::collections::HashSet;
use std::fmt;

/// Number of shared-memory banks.
pub const BANKS: i64 = 32;
/// Bytes per bank word.
pub const BANK_BYTES: i64 = 4;
/// Threads per group (a warp).
pub const WARP: i64 = 32;
/// The widest element a report accepts, in bytes (an element this wide
/// already covers every bank 8 times).
pub const MAX_ELEM_BYTES: i64 = 1024;

/// The wavefronts of one group of up to 32 threads.
///
/// ```
/// use cute_dynamic::{Layout, bank_conflicts};
/// // 48 threads x 2 values: thread t's value v is the float 2·t + v.
/// let r = bank_conflicts(&"(48,2):(2,1)".parse::<Layout>()?, 4)?;
/// let (g, last) = (&r.groups[0], &r.groups[1]);
/// assert_eq!((g.first_thread, g.threads, last.first_thread, last.threads), (0, 32, 32, 16));
/// // Threads 0-31 read 32 words per value, two in each of 16 banks: 2 wavefronts, ideally 1.
/// assert_eq!(g.wavefronts, [2, 2]);
/// assert_eq!(g.ideal, [1, 1]);
/// // Threads 32-47 read 16 words per value, each in a bank of its own.
/// assert_eq!(last.wavefronts, [1, 1]);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupWavefronts {
    /// The first thread of the group.
    pub first_thread: i64,
    /// The number of threads in the group (32, or fewer for the last).
    pub threads: i64,
    /// For each value index, the wavefronts its request needs.
    pub wavefronts: Vec<i64>,
    /// For each value index, the fewest wavefronts that request could need
    /// (`ceil(distinct words / 32)`).
    pub ideal: Vec<i64>,
}

impl GroupWavefronts {
    /// The wavefronts of all the group's requests.
    ///
    /// ```
    /// use cute_dynamic::{Layout, bank_conflicts};
    /// // 32 threads × 2 values: thread t's value v is element 32·t + v (a column pair).
    /// let r = bank_conflicts(&"(32,2):(32,1)".parse::<Layout>()?, 4)?;
    /// assert_eq!(r.groups[0].total(), 64); // 32 wavefronts per value
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn total(&self) -> i64 {
        self.wavefronts.iter().sum()
    }

    /// The ideal number over all the group's requests.
    ///
    /// ```
    /// use cute_dynamic::{Layout, bank_conflicts};
    /// let r = bank_conflicts(&"(32,2):(32,1)".parse::<Layout>()?, 4)?;
    /// assert_eq!(r.groups[0].ideal_total(), 2); // 1 per value without conflicts
    /// # Ok::<(), cute_dynamic::LayoutError>(())
    /// ```
    pub fn ideal_total(&self) -> i64 {
        self.ideal.iter().sum()
    }
}

/// The wavefronts of every group of 32 threads of an access pattern.
///
/// ```
/// use cute_dynamic::{Layout, bank_conflicts};
/// // 64 threads x 2 values of 8 bytes: thread t's value v is the double t + 64·v.
/// let r = bank_conflicts(&"(64,2):(1,64)".parse::<Layout>()?, 8)?;
/// assert_eq!((r.elem_bytes, r.threads, r.values, r.groups.len()), (8, 64, 2, 2));
/// // 32 consecutive doubles are 64 words, two per bank: 2 wavefronts per value, which is the ideal.
/// let expected = concat!(
///     "64 threads x 2 values, 8-byte elements, 32 banks x 4 bytes\n",
///     "threads 0-31: 4 wavefronts (ideal 4)\n",
///     "threads 32-63: 4 wavefronts (ideal 4)\n",
/// );
/// assert_eq!(r.to_string(), expected);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankReport {
    /// Bytes per element.
    pub elem_bytes: i64,
    /// The number of threads.
    pub threads: i64,
    /// The number of values (requests) per thread.
    pub values: i64,
    /// One entry per 32 threads, in thread order.
    pub groups: Vec<GroupWavefronts>,
}

impl fmt::Display for BankReport {
    /// A header line, then one line per group:
    /// `threads 0-31: 8 wavefronts (ideal 1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |n: i64| if n == 1 { "" } else { "s" };
        writeln!(
            f,
            "{} thread{} x {} value{}, {}-byte elements, {BANKS} banks x {BANK_BYTES} bytes",
            self.threads,
            s(self.threads),
            self.values,
            s(self.values),
            self.elem_bytes
        )?;
        for g in &self.groups {
            let last = g.first_thread + g.threads - 1;
            let (t, i) = (g.total(), g.ideal_total());
            let plural = if t == 1 { "" } else { "s" };
            writeln!(f, "threads {}-{last}: {t} wavefront{plural} (ideal {i})", g.first_thread)?;
        }
        Ok(())
    }
}

/// The bank report of `threads × values` accesses where thread `t`'s value
/// `v` is the element at offset `offset(t, v)` (see the module
/// documentation for the model).
///
/// Post-conditions: `groups.len() == ceil(threads / 32)`; for each group and
/// value index, `ideal <= wavefronts <= distinct words`, with
/// `wavefronts == max over banks of the distinct words in that bank`.
///
/// Errors: `elem_bytes` outside `1..=MAX_ELEM_BYTES`, `threads < 0` or
/// `values < 0` ([`LayoutError::Unsupported`]); an error of `offset`; a byte
/// address that overflows. The work is `threads · values · elem_bytes / 4`
/// word look-ups.
///
/// ```
/// use cute_dynamic::bank_wavefronts;
/// // 40 threads, 2 values each, 4-byte elements: thread t's value v is the
/// // element 32·t + v, a column of a row-major matrix 32 elements wide.
/// let r = bank_wavefronts(40, 2, 4, |t, v| Ok(32 * t + v))?;
/// assert_eq!(r.groups.len(), 2); // threads 0-31 and 32-39
/// // Each value's request reads 32 words of one bank: 32 wavefronts, ideally 1.
/// assert_eq!((r.groups[0].wavefronts[0], r.groups[0].ideal[0]), (32, 1));
/// assert_eq!((r.groups[0].total(), r.groups[0].ideal_total()), (64, 2));
/// assert_eq!((r.groups[1].threads, r.groups[1].total()), (8, 16));
/// // A row: 32 consecutive words, one per bank.
/// assert_eq!(bank_wavefronts(32, 1, 4, |t, _| Ok(t))?.groups[0].total(), 1);
/// // Every thread reads the same word: one wavefront (broadcast).
/// assert_eq!(bank_wavefronts(32, 1, 4, |_, _| Ok(0))?.groups[0].total(), 1);
/// // Elements of 0 bytes do not exist.
/// assert!(bank_wavefronts(32, 1, 0, |t, _| Ok(t)).is_err());
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn bank_wavefronts(
    threads: i64,
    values: i64,
    elem_bytes: i64,
    offset: impl Fn(i64, i64) -> Result<i64>,
) -> Result<BankReport> {
    if !(1..=MAX_ELEM_BYTES).contains(&elem_bytes) || threads < 0 || values < 0 {
        return Err(LayoutError::Unsupported {
            what: format!("a bank report of {threads} threads x {values} values of {elem_bytes}-byte elements"),
        });
    }
    let mut groups = Vec::new();
    let mut words: HashSet<i64> = HashSet::new();
    let mut first = 0;
    while first < threads {
        let n = WARP.min(threads - first);
        let mut g = GroupWavefronts { first_thread: first, threads: n, wavefronts: Vec::new(), ideal: Vec::new() };
        for v in 0..values {
            words.clear();
            for t in first..first + n {
                let start = checked_mul(offset(t, v)?, elem_bytes, "bank report")?;
                let end = checked_add(start, elem_bytes - 1, "bank report")?;
                // Every word the element's bytes touch.
                for w in start.div_euclid(BANK_BYTES)..=end.div_euclid(BANK_BYTES) {
                    words.insert(w);
                }
            }
            let mut per_bank = [0i64; BANKS as usize];
            for w in &words {
                per_bank[w.rem_euclid(BANKS) as usize] += 1;
            }
            g.wavefronts.push(per_bank.iter().copied().max().unwrap_or(0));
            g.ideal.push((words.len() as i64 + BANKS - 1) / BANKS);
        }
        groups.push(g);
        first += n;
    }
    Ok(BankReport { elem_bytes, threads, values, groups })
}

/// Threads and values of a layout read as an access pattern: a rank-2
/// layout is (thread, value); any other is a thread index alone.
pub(crate) fn threads_values(l: &Layout) -> (i64, i64) {
    match (l.rank(), l.get(0), l.get(1)) {
        (2, Some(t), Some(v)) => (t.size(), v.size()),
        _ => (l.size(), 1),
    }
}

/// [`bank_wavefronts`] of a layout from (thread, value) (rank 2) or from a
/// thread index (any other rank) to element offsets.
///
/// ```
/// use cute_dynamic::{Layout, bank_conflicts};
/// // 32 threads read a column of a 32x32 row-major float matrix: all in bank 0.
/// let column: Layout = "32:32".parse()?;
/// let r = bank_conflicts(&column, 4)?;
/// assert_eq!((r.groups[0].total(), r.groups[0].ideal_total()), (32, 1));
/// // A row: one word per bank.
/// assert_eq!(bank_conflicts(&"32:1".parse()?, 4)?.groups[0].total(), 1);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn bank_conflicts(layout: &Layout, elem_bytes: i64) -> Result<BankReport> {
    let (threads, values) = threads_values(layout);
    bank_wavefronts(threads, values, elem_bytes, |t, v| layout.eval(t + v * threads))
}

/// [`bank_conflicts`] of a swizzled layout: the offsets are the composed
/// layout's (the swizzle applied), its domain read as for a layout.
///
/// ```
/// use cute_dynamic::{ComposedLayout, Swizzle, bank_conflicts, bank_conflicts_composed};
/// // 8 threads read the first byte of 8 rows of 128 bytes: all in bank 0...
/// let rows = "8:128".parse()?;
/// assert_eq!(bank_conflicts(&rows, 1)?.groups[0].total(), 8);
/// // ...unless the rows are swizzled with Sw<3,4,3>.
/// let swizzled = ComposedLayout::compose(Swizzle::smem_128b(), &rows);
/// assert_eq!(bank_conflicts_composed(&swizzled, 1)?.groups[0].total(), 1);
/// # Ok::<(), cute_dynamic::LayoutError>(())
/// ```
pub fn bank_conflicts_composed(layout: &ComposedLayout, elem_bytes: i64) -> Result<BankReport> {
    let (threads, values) = threads_values(layout.inner());
    bank_wavefronts(threads, values, elem_bytes, |t, v| layout.eval(t + v * threads))
}
