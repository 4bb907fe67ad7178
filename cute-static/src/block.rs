//! Cooperative thread blocks on the CPU with phase-checked shared tiles:
//! CuTe's kernel pattern, where every thread of a block copies its part of
//! a shared tile `sA`, `__syncthreads()`, every thread reads all of `sA`,
//! `__syncthreads()`, the next copy, and so on.
//!
//! A [`Block`] of `n` threads makes [`SharedTile`]s over storage it
//! borrows mutably (CuTe's shared memory), each split once among the
//! block's threads by a thread layout (the *writers*, as
//! [`Tensor::partition_mut`] splits a tensor), and [`runs`](Block::run) a
//! closure on `n` OS threads. Each gets a [`Thread`]: its index, and its
//! phase, which [`Thread::sync`] (the barrier) advances by one. Even phases
//! are *write* phases: a thread may take its own part of a tile, mutably
//! ([`SharedTile::part_mut`]). Odd phases are *read* phases: a thread may
//! read the whole tile ([`SharedTile::read`]). Any other access panics.
//!
//! ```
//! use cute_static::prelude::*;
//! let mut smem = [0u32; 64];
//! let mut block = Block::new(8);                                  // 8 threads
//! let tile = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
//! block.run(|thread| {
//!     let me = thread.idx() as u32;
//!     for round in 0..3u32 {
//!         let mut part = tile.part_mut(thread);                   // phase 2·round: my part
//!         for i in 0..part.size() {
//!             part[i] = round * 100 + me;
//!         }
//!         thread.sync();                                          // __syncthreads()
//!         let all = tile.read(thread);                            // phase 2·round+1: all of it
//!         let sum: u32 = (0..64usize).map(|i| all[i]).sum();
//!         assert_eq!(sum, 64 * 100 * round + 8 * 28);             // 8 elements per thread
//!         thread.sync();
//!     }
//! });
//! drop(tile);
//! assert_eq!(smem[9], 200 + 5);                                   // element (1,1) is thread 5's
//! ```
//!
//! # Why this is safe
//!
//! The views of a tile are made from a raw pointer to its storage; this is
//! the argument that no element is written while another reference to it
//! is used, and that every read sees the last write.
//!
//! 1. **The storage belongs to the tile.** [`Block::shared_tile`] takes the
//!    storage as `&'s mut [T]` and the tile keeps that borrow for `'s`:
//!    nothing outside the tile reaches the elements while it lives, and
//!    two tiles never share an element.
//! 2. **A tile belongs to one block, and a block runs once at a time.** The
//!    tile records the id of the block that made it (ids are unique: a
//!    global counter), and both views panic for a [`Thread`] of another
//!    block. [`Block::run`] takes `&mut self`, so one block never runs
//!    twice at once, and a [`Thread`] exists only inside a run (no public
//!    constructor; the closure receives `&mut Thread` for every lifetime,
//!    so it cannot keep it or hand it to another thread's closure).
//! 3. **In a write phase, each thread reaches its own part only.** The
//!    parts are made once, by [`Tensor::partition_mut`], which proves them
//!    pairwise disjoint (or returns [`Overlap`]). [`SharedTile::part_mut`]
//!    gives part `thread.idx()` ([`SharedTile::part_mut_at`] the parts
//!    `thread.idx()·q .. (thread.idx()+1)·q`, when the writers are `q`
//!    times the threads): the parts are fixed by the `Thread`, not chosen
//!    by the caller, the threads' ranges are disjoint, and each index has
//!    one `Thread` per run. The
//!    view borrows the `Thread` mutably, so a thread holds at most one
//!    write view at a time. No read view can be made in a write phase.
//! 4. **In a read phase, nobody writes.** [`SharedTile::part_mut`] panics in
//!    a read phase, and no write view survives from the write phase before
//!    (next point). Read views are shared references, any number of them.
//! 5. **All threads of a block are in the same phase, and views do not
//!    cross phases.** A thread's phase is the number of barriers it has
//!    passed. The barrier lets a thread into phase `n+1` only once every
//!    live thread has arrived at barrier `n`, so no live thread is still in
//!    phase `n` when another is in `n+1`. A thread that *left* (its closure
//!    returned) touches nothing any more: its views borrowed its `Thread`
//!    and ended with the closure. The barrier is a mutex and a condition
//!    variable: each arrival (and each departure) takes the mutex after the
//!    thread's accesses of phase `n`, and each thread takes it again before
//!    its accesses of phase `n+1`, which gives the happens-before edge from
//!    every write of a phase to every read of the next (and from every read
//!    to the next phase's writes). [`Thread::sync`] takes `&mut self`, so no
//!    view borrowed from the `Thread` lives across it.
//! 6. **A panic stops the block.** When a thread's closure panics, a drop
//!    guard poisons the barrier: every thread waiting at it, and every
//!    thread that arrives later, panics ("another thread of the block
//!    panicked") instead of passing. No barrier completes after that, so
//!    no thread changes phase: point 5 still holds for the threads that
//!    catch that panic and go on. A barrier that completed before the
//!    poisoning releases its waiters normally (they are in the next phase,
//!    with the others). [`Block::run`] then panics with the first panic's
//!    payload after every thread has finished.

use crate::algorithm::TopModes;
use crate::int_tuple::IntTuple;
use crate::layout::{Congruent, Layout};
use crate::partition::traits::{Outer, Partition, ThreadLayout};
use crate::partition::{Overlap, ThreadTensor};
use crate::run_time::FlatValues;
use crate::tensor::{OffsetRange, Tensor, make_tensor};
use core::cell::UnsafeCell;
use core::marker::PhantomData;
use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, Ordering};

// The barrier's primitives: loom's models of them under `--cfg loom`, so
// the barrier protocol can be checked under every interleaving.
#[cfg(loom)]
use loom::sync::{Condvar, Mutex, MutexGuard};
#[cfg(not(loom))]
use std::sync::{Condvar, Mutex, MutexGuard};

/// The id of the next block (std's atomic also under loom: ids are not
/// part of the barrier protocol, and loom's atomics cannot be `static`).
static NEXT_BLOCK: AtomicU64 = AtomicU64::new(0);

// ----------------------------------------------------------------- Block

/// A cooperative thread block: `threads` threads that run one closure and
/// meet at a barrier ([`Thread::sync`], CuTe's `__syncthreads()`), with the
/// shared tiles it makes ([`Block::shared_tile`]).
///
/// ```
/// use cute_static::prelude::*;
/// let mut block = Block::new(4);
/// let hits = std::sync::atomic::AtomicUsize::new(0);
/// block.run(|thread| {
///     hits.fetch_add(thread.idx() + 1, std::sync::atomic::Ordering::Relaxed);
/// });
/// assert_eq!(hits.into_inner(), 1 + 2 + 3 + 4);
/// ```
#[derive(Debug)]
pub struct Block {
    threads: usize,
    id: u64,
}

impl Block {
    /// A block of `threads` threads, with an id no other block has.
    ///
    /// # Panics
    ///
    /// When `threads` is 0.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let (a, b) = (Block::new(32), Block::new(32));
    /// assert_eq!(a.threads(), 32);
    /// assert_ne!(a.id(), b.id());
    /// ```
    #[track_caller]
    pub fn new(threads: usize) -> Block {
        if threads == 0 {
            no_threads_panic()
        }
        Block { threads, id: NEXT_BLOCK.fetch_add(1, Ordering::Relaxed) }
    }

    /// The number of threads.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// assert_eq!(Block::new(8).threads(), 8);
    /// ```
    #[inline]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The block's id, unique among the blocks of the process.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut block = Block::new(2);
    /// let id = block.id();
    /// block.run(|thread| assert_eq!(thread.block(), id));
    /// ```
    #[inline]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// A shared tile of this block: the tensor `layout` over `storage`
    /// (CuTe's shared memory), split once among the block's threads by the
    /// thread layout `writers` (the parts [`Tensor::partition_mut`] gives,
    /// which are those of CuTe's `local_partition(tile, writers, idx)`).
    ///
    /// The tile borrows `storage` mutably for `'s`, but not the block: it
    /// is made before [`Block::run`] and used inside it.
    ///
    /// `writers` may have more threads than the block (CuTe's 256 threads
    /// of a `32×8` copy layout played by a few OS threads): with `q =
    /// size(writers) / threads`, thread `k` of the block writes the parts of
    /// the writers `k·q .. (k+1)·q` ([`SharedTile::part_mut_at`]).
    ///
    /// Post-conditions: the tile's layout is `layout`; in a write phase,
    /// thread `k` of this block gets the parts `k·q + j` of
    /// `partition_mut(writers)`; no two parts reach one element.
    ///
    /// Errors: [`Overlap`] when two threads' parts reach one element (a
    /// `writers` layout that is not a bijection, a tile with stride-0 modes
    /// across threads).
    ///
    /// # Panics
    ///
    /// When the threads of `writers` are not a multiple of the block's
    /// threads, or `layout` reaches past `storage` (as [`make_tensor`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut smem = [0f32; 64];
    /// let block = Block::new(8);
    /// let tile = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
    /// assert_eq!((tile.threads(), tile.block()), (8, block.id()));
    /// let mut other = [0f32; 64];
    /// let broadcast = layout!((4,2):(1,0));                           // threads 0 and 4 alike
    /// assert!(block.shared_tile(&mut other[..], layout!((8,8):(1,8)), broadcast).is_err());
    /// ```
    #[allow(clippy::type_complexity)]
    #[track_caller]
    pub fn shared_tile<'s, T, S, D, Thr, S2, D2>(
        &self,
        storage: &'s mut [T],
        layout: Layout<S, D>,
        writers: Thr,
    ) -> Result<SharedTile<'s, T, Layout<S, D>, Layout<S2, D2>>, Overlap>
    where
        S: Congruent<D> + OffsetRange<D> + FlatValues + TopModes,
        D: IntTuple + FlatValues,
        Thr: ThreadLayout,
        S2: Congruent<D2> + OffsetRange<D2>,
        D2: IntTuple,
        Layout<S, D>: Partition<Thr::Tiler, Thr::Coord, Outer, Output = Layout<S2, D2>>,
    {
        let n = writers.threads();
        if !n.is_multiple_of(self.threads) {
            writers_panic(n, self.threads)
        }
        let len = storage.len();
        let parts = make_tensor(storage, layout).partition_mut(writers)?;
        // The read views use the pointer the parts share (every part holds
        // the same one): reads and writes then go through one pointer, as
        // the aliasing models (Stacked and Tree Borrows) want.
        let ptr = parts[0].storage_ptr();
        Ok(SharedTile {
            ptr,
            len,
            layout,
            parts: parts.into_iter().map(UnsafeCell::new).collect(),
            threads: self.threads,
            per_thread: n / self.threads,
            block: self.id,
            _data: PhantomData,
        })
    }

    /// Runs `f` on the block's threads: thread 0 on the calling thread,
    /// threads `1..threads` on scoped OS threads, each with its own
    /// [`Thread`] (index, phase 0). Returns when every thread has returned.
    ///
    /// A thread whose closure returns leaves the block: the others'
    /// barriers no longer wait for it.
    ///
    /// Takes `&mut self`: one block never runs twice at once (a run may
    /// follow another; phases restart at 0, the tiles keep their data).
    ///
    /// # Panics
    ///
    /// When a thread panics: the barrier is poisoned, so the other threads
    /// panic at their next [`Thread::sync`] instead of waiting forever, and
    /// `run` resumes the first panic (its payload) once all have finished.
    /// Also when an OS thread cannot be spawned.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut block = Block::new(4);
    /// let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
    ///     block.run(|thread| {
    ///         if thread.idx() == 2 {
    ///             panic!("thread 2 gives up");
    ///         }
    ///         thread.sync();                                  // the others do not hang here
    ///     })
    /// }));
    /// assert_eq!(r.unwrap_err().downcast_ref::<&str>(), Some(&"thread 2 gives up"));
    /// block.run(|thread| thread.sync());                      // the block runs again
    /// ```
    pub fn run<F>(&mut self, f: F)
    where
        F: Fn(&mut Thread<'_>) + Sync,
    {
        let (threads, id) = (self.threads, self.id);
        // A barrier per run: a run that panicked leaves nothing poisoned
        // for the next.
        let barrier = Barrier::new(threads);
        let body = |idx: usize| {
            let mut thread = Thread { idx, threads, block: id, phase: 0, barrier: &barrier };
            let guard = PoisonOnUnwind { barrier: &barrier, idx };
            f(&mut thread);
            // Returned normally: leave instead of poisoning.
            core::mem::forget(guard);
            barrier.leave();
        };
        let (mut panics, spawn_error) = std::thread::scope(|s| {
            let body = &body;
            let mut handles = Vec::with_capacity(threads - 1);
            let mut spawn_error = None;
            for idx in 1..threads {
                let spawned = std::thread::Builder::new()
                    .name(format!("cute block {id} thread {idx}"))
                    .spawn_scoped(s, move || body(idx));
                match spawned {
                    Ok(h) => handles.push(h),
                    Err(e) => {
                        // The threads already running would wait for this
                        // one forever: poisoning sends them home.
                        barrier.poison(idx);
                        spawn_error = Some((idx, e));
                        break;
                    }
                }
            }
            let mut panics: Vec<Option<Box<dyn Any + Send>>> = Vec::with_capacity(threads);
            panics.push(match spawn_error {
                None => std::panic::catch_unwind(AssertUnwindSafe(|| body(0))).err(),
                Some(_) => None,
            });
            panics.extend(handles.into_iter().map(|h| h.join().err()));
            (panics, spawn_error)
        });
        if let Some((idx, e)) = spawn_error {
            spawn_panic(idx, threads, e)
        }
        // The first thread that panicked on its own (the others' panics are
        // "another thread of the block panicked").
        let first = barrier.poisoned_by().and_then(|k| panics.get_mut(k).and_then(Option::take));
        if let Some(payload) = first.or_else(|| panics.into_iter().flatten().next()) {
            std::panic::resume_unwind(payload)
        }
    }
}

/// Poisons the barrier when dropped: during the unwinding of a thread's
/// closure (a normal return forgets it).
struct PoisonOnUnwind<'b> {
    barrier: &'b Barrier,
    idx: usize,
}

impl Drop for PoisonOnUnwind<'_> {
    fn drop(&mut self) {
        self.barrier.poison(self.idx);
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn no_threads_panic() -> ! {
    panic!("a block needs at least one thread")
}

#[cold]
#[inline(never)]
#[track_caller]
fn writers_panic(writers: usize, threads: usize) -> ! {
    panic!(
        "the writers layout has {writers} threads, the block has {threads}: a shared tile needs the same number of parts for every thread of its block (a multiple of {threads})"
    )
}

#[cold]
#[inline(never)]
#[track_caller]
fn parts_panic(parts: usize, threads: usize) -> ! {
    panic!("the tile has {parts} parts for {threads} threads: take a thread's parts with part_mut_at")
}

#[cold]
#[inline(never)]
#[track_caller]
fn part_index_panic(j: usize, q: usize) -> ! {
    panic!("part {j} of a thread that writes {q} parts")
}

#[cold]
#[inline(never)]
#[track_caller]
fn spawn_panic(idx: usize, threads: usize, e: std::io::Error) -> ! {
    panic!("cannot spawn thread {idx} of a block of {threads} threads: {e}")
}

// ---------------------------------------------------------------- Thread

/// One thread of a running [`Block`]: its index, the block's size, and its
/// phase (the number of [`sync`](Thread::sync)s it has passed; even phases
/// write, odd phases read). Exists only inside [`Block::run`].
///
/// ```
/// use cute_static::prelude::*;
/// let mut block = Block::new(3);
/// block.run(|thread| {
///     assert!(thread.idx() < thread.threads());
///     assert_eq!(thread.phase(), 0);
///     thread.sync();
///     assert_eq!(thread.phase(), 1);
/// });
/// ```
pub struct Thread<'b> {
    idx: usize,
    threads: usize,
    block: u64,
    phase: u64,
    barrier: &'b Barrier,
}

impl core::fmt::Debug for Thread<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Thread")
            .field("idx", &self.idx)
            .field("threads", &self.threads)
            .field("block", &self.block)
            .field("phase", &self.phase)
            .finish()
    }
}

impl Thread<'_> {
    /// The thread's index in its block, below [`threads`](Thread::threads)
    /// (CuTe's `threadIdx.x`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let seen = std::sync::Mutex::new(Vec::new());
    /// Block::new(4).run(|thread| seen.lock().unwrap().push(thread.idx()));
    /// let mut seen = seen.into_inner().unwrap();
    /// seen.sort();
    /// assert_eq!(seen, [0, 1, 2, 3]);
    /// ```
    #[inline]
    pub fn idx(&self) -> usize {
        self.idx
    }

    /// The number of threads of the block (CuTe's `blockDim.x`).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// Block::new(5).run(|thread| assert_eq!(thread.threads(), 5));
    /// ```
    #[inline]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The id of the thread's block ([`Block::id`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut block = Block::new(2);
    /// let id = block.id();
    /// block.run(|thread| assert_eq!(thread.block(), id));
    /// ```
    #[inline]
    pub fn block(&self) -> u64 {
        self.block
    }

    /// The phase: how many times this thread has passed the barrier in
    /// this run (0 at the start). Every live thread of the block is in the
    /// same phase.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// Block::new(2).run(|thread| {
    ///     for p in 0..4 {
    ///         assert_eq!(thread.phase(), p);
    ///         thread.sync();
    ///     }
    /// });
    /// ```
    #[inline]
    pub fn phase(&self) -> u64 {
        self.phase
    }

    /// Whether this is a write phase (an even phase): threads may take
    /// their parts of the shared tiles ([`SharedTile::part_mut`]); in the
    /// odd phases they may read the tiles ([`SharedTile::read`]).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// Block::new(2).run(|thread| {
    ///     assert!(thread.is_write_phase());
    ///     thread.sync();
    ///     assert!(!thread.is_write_phase());
    /// });
    /// ```
    #[inline]
    pub fn is_write_phase(&self) -> bool {
        self.phase.is_multiple_of(2)
    }

    /// The block's barrier (CuTe's `__syncthreads()`): returns when every
    /// live thread of the block has called it (a thread whose closure
    /// returned is no longer waited for); then the phase is one more.
    ///
    /// Post-conditions: everything every thread did before its `sync`
    /// happens before everything any thread does after it; the phase grew
    /// by one. Takes `&mut self`, so no view of a shared tile (they borrow
    /// the `Thread`) lives across it.
    ///
    /// # Panics
    ///
    /// With "another thread of the block panicked" when one did (before
    /// this barrier completed); the phase does not change then.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let flag = std::sync::atomic::AtomicBool::new(false);
    /// Block::new(2).run(|thread| {
    ///     if thread.idx() == 0 {
    ///         flag.store(true, std::sync::atomic::Ordering::Relaxed);
    ///     }
    ///     thread.sync();                              // the store happens before this returns
    ///     assert!(flag.load(std::sync::atomic::Ordering::Relaxed));
    /// });
    /// ```
    #[track_caller]
    pub fn sync(&mut self) {
        if self.barrier.wait().is_err() {
            poisoned_panic()
        }
        self.phase += 1;
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn poisoned_panic() -> ! {
    panic!("another thread of the block panicked")
}

// ------------------------------------------------------------ SharedTile

/// A tensor in storage shared by the threads of one [`Block`] (CuTe's
/// shared memory tile), with phase-checked access: in a write phase each
/// thread may take its own part ([`part_mut`](SharedTile::part_mut)), in a
/// read phase every thread may read the whole tile
/// ([`read`](SharedTile::read)). Made by [`Block::shared_tile`]; `L` is the
/// tile's layout, `P` the layout of a thread's part.
///
/// Dropping the tile (or [`into_tensor`](SharedTile::into_tensor)) gives
/// the storage back.
///
/// ```
/// use cute_static::prelude::*;
/// let mut smem = [0i32; 16];
/// let mut block = Block::new(4);
/// let tile = block.shared_tile(&mut smem[..], layout!((4,4):(1,4)), layout!((4,1):(1,4))).unwrap();
/// block.run(|thread| {
///     let me = thread.idx() as i32;
///     let mut row = tile.part_mut(thread);                    // row `me`: (_1,_4):(_4,_4)
///     for j in 0..4usize {
///         row[(0usize, j)] = 10 * me + j as i32;
///     }
///     thread.sync();
///     let all = tile.read(thread);
///     assert_eq!(all[(3usize, 2usize)], 32);
/// });
/// assert_eq!(tile.into_tensor()[(2usize, 1usize)], 21);
/// ```
pub struct SharedTile<'s, T, L, P> {
    /// The storage, valid and exclusively borrowed for `'s`.
    ptr: *mut T,
    len: usize,
    layout: L,
    /// Part `k` is thread `k`'s, used only by it and only in write phases
    /// (a cell: the part is reborrowed mutably through `&self`).
    parts: Vec<UnsafeCell<ThreadTensor<'s, T, P>>>,
    /// The threads of the block (the parts are a multiple of them).
    threads: usize,
    /// Parts per thread (`parts.len() / threads`, kept: no division per
    /// view).
    per_thread: usize,
    /// The id of the block that made the tile.
    block: u64,
    _data: PhantomData<&'s mut [T]>,
}

// SAFETY: a tile is an exclusive borrow of its storage (`&'s mut [T]`,
// `Send` when `T` is) and the parts' layouts; sending it sends them.
unsafe impl<T: Send, L: Send, P: Send> Send for SharedTile<'_, T, L, P> {}
// SAFETY: through `&SharedTile`, thread `k` of the tile's block gets `&mut`
// to the elements of part `k` (moved across threads: `T: Send`, and the
// part's `ThreadTensor` itself: `P: Send`) in write phases, and every
// thread gets `&T` to all elements in read phases (`T: Sync`); the module
// documentation ("Why this is safe") shows that these never overlap in
// time with a write to the same element.
unsafe impl<T: Send + Sync, L: Sync, P: Send + Sync> Sync for SharedTile<'_, T, L, P> {}

impl<T, L: core::fmt::Display, P> core::fmt::Debug for SharedTile<'_, T, L, P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SharedTile({} of block {}, {} parts)", self.layout, self.block, self.parts.len())
    }
}

impl<'s, T, S: Congruent<D>, D: IntTuple, S2: Congruent<D2>, D2: IntTuple>
    SharedTile<'s, T, Layout<S, D>, Layout<S2, D2>>
{
    /// The tile's layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut smem = [0u8; 64];
    /// let tile = Block::new(8).shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
    /// assert_eq!(tile.layout().to_string(), "(_8,_8):(_1,_8)");
    /// ```
    #[inline]
    pub fn layout(&self) -> Layout<S, D> {
        self.layout
    }

    /// The number of parts: the number of threads of the writers layout.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut smem = [0u8; 64];
    /// let tile = Block::new(8).shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
    /// assert_eq!(tile.threads(), 8);
    /// ```
    #[inline]
    pub fn threads(&self) -> usize {
        self.parts.len()
    }

    /// The number of parts each thread of the block writes: `size(writers)
    /// / threads`.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut smem = [0u8; 64];
    /// let tile = Block::new(2).shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
    /// assert_eq!(tile.parts_per_thread(), 4);
    /// ```
    #[inline]
    pub fn parts_per_thread(&self) -> usize {
        self.per_thread
    }

    /// The id of the block that made the tile; only its threads may use it.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut smem = [0u8; 64];
    /// let block = Block::new(8);
    /// let tile = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
    /// assert_eq!(tile.block(), block.id());
    /// ```
    #[inline]
    pub fn block(&self) -> u64 {
        self.block
    }

    /// This thread's part of the tile, writable: the view CuTe's
    /// `local_partition(tile, writers, thread.idx())` gives.
    ///
    /// The view borrows `thread` mutably: a thread holds one write view at
    /// a time, and none across [`Thread::sync`].
    ///
    /// Post-condition: the part has the layout and offset of
    /// `local_partition(tile, writers, thread.idx())`; no other thread's
    /// part reaches its elements.
    ///
    /// # Panics
    ///
    /// In a read phase (an odd phase), and when `thread` is not a thread of
    /// the tile's block.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut smem = [0u8; 64];
    /// let mut block = Block::new(8);
    /// let tile = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
    /// block.run(|thread| {
    ///     let me = thread.idx();
    ///     let mut part = tile.part_mut(thread);
    ///     assert_eq!(part.layout().to_string(), "(_2,_4):(_4,_16)");
    ///     assert_eq!(part.offset(), me % 4 + 8 * (me / 4));       // thread (me%4, me/4)
    ///     part[(1usize, 3usize)] = me as u8;
    /// });
    /// drop(tile);
    /// assert_eq!(smem[4 + 48 + 1 + 8], 5);                       // thread 5's element (1,3)
    /// ```
    #[inline]
    #[track_caller]
    pub fn part_mut<'t>(&'t self, thread: &'t mut Thread<'_>) -> ThreadTensor<'t, T, Layout<S2, D2>> {
        if self.parts.len() != self.threads {
            parts_panic(self.parts.len(), self.threads)
        }
        self.part_mut_at(thread, 0)
    }

    /// Part `j` of this thread's parts, writable, when the writers layout
    /// has more threads than the block: the part of writer `thread.idx() ·
    /// q + j` (`q` = [`parts_per_thread`](SharedTile::parts_per_thread)),
    /// the view `local_partition(tile, writers, thread.idx() · q + j)`.
    ///
    /// # Panics
    ///
    /// When `j >= q`, and as [`part_mut`](SharedTile::part_mut).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut smem = [0u8; 64];
    /// let mut block = Block::new(2);                                 // 2 threads play 8 writers
    /// let tile = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
    /// block.run(|thread| {
    ///     let me = 1 + thread.idx() as u8;
    ///     for j in 0..tile.parts_per_thread() {
    ///         let mut part = tile.part_mut_at(thread, j);
    ///         for i in 0..part.size() {
    ///             part[i] = me;
    ///         }
    ///     }
    /// });
    /// drop(tile);
    /// assert_eq!((smem[0], smem[8], smem[63]), (1, 2, 2));            // writers 0..4 are thread 0's
    /// ```
    #[inline]
    #[track_caller]
    pub fn part_mut_at<'t>(&'t self, thread: &'t mut Thread<'_>, j: usize) -> ThreadTensor<'t, T, Layout<S2, D2>> {
        let q = self.per_thread;
        if j >= q {
            part_index_panic(j, q)
        }
        self.check_write(thread);
        // SAFETY: cell `idx·q + j` (`j < q`) is used only here, by the
        // thread of this block with index `idx` (one per run; runs of a block do not
        // overlap, and a run's end happens before the next one's start by
        // the scope's joins), and only while it holds `&'t mut Thread`: so
        // this `&mut` is the only reference to the cell while it lives.
        // The part it yields reaches elements no other part reaches
        // (`partition_mut`), in a write phase, when no read view exists
        // (see the module documentation).
        let part: &'t mut ThreadTensor<'s, T, Layout<S2, D2>> = unsafe { &mut *self.parts[thread.idx * q + j].get() };
        part.reborrow()
    }

    /// Panics unless `thread` is a thread of this tile's block in a write
    /// phase (the condition of every write view).
    #[inline]
    #[track_caller]
    fn check_write(&self, thread: &Thread<'_>) {
        if thread.block != self.block {
            block_panic(self.block, thread.block)
        }
        if !thread.is_write_phase() {
            part_mut_panic(thread.phase)
        }
    }

    /// All of this thread's parts, writable, in order (part `j` is writer
    /// `thread.idx() · q + j`): [`part_mut_at`](SharedTile::part_mut_at)
    /// for every `j`, with the phase and block checked once. The parts are
    /// disjoint, so they may be used at the same time.
    ///
    /// # Panics
    ///
    /// As [`part_mut`](SharedTile::part_mut) (a read phase, another block).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut smem = [0u8; 64];
    /// let mut block = Block::new(2);                                 // 2 threads play 8 writers
    /// let tile = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
    /// block.run(|thread| {
    ///     let me = 1 + thread.idx() as u8;
    ///     for mut part in tile.parts_mut(thread) {
    ///         for i in 0..part.size() {
    ///             part[i] = me;
    ///         }
    ///     }
    /// });
    /// drop(tile);
    /// assert_eq!((smem[0], smem[8], smem[63]), (1, 2, 2));
    /// ```
    #[inline]
    #[track_caller]
    pub fn parts_mut<'t>(
        &'t self,
        thread: &'t mut Thread<'_>,
    ) -> impl ExactSizeIterator<Item = ThreadTensor<'t, T, Layout<S2, D2>>> + 't {
        self.check_write(thread);
        let q = self.per_thread;
        let mine = &self.parts[thread.idx * q..(thread.idx + 1) * q];
        // SAFETY: as in `part_mut_at`, for each of this thread's cells
        // (disjoint from every other thread's), while `thread` is borrowed
        // mutably; the parts themselves are pairwise disjoint, so holding
        // several at once aliases nothing.
        mine.iter().map(|cell| unsafe { &mut *cell.get() }.reborrow())
    }

    /// The whole tile, read-only.
    ///
    /// The view borrows `thread` shared: several tiles may be read at once,
    /// and no view lives across [`Thread::sync`].
    ///
    /// Post-condition: `result[c]` is the element the tile's layout puts at
    /// `c`, as the last write phase left it.
    ///
    /// # Panics
    ///
    /// In a write phase (an even phase), and when `thread` is not a thread
    /// of the tile's block.
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let (mut sa, mut sb) = ([0u32; 8], [0u32; 8]);
    /// let mut block = Block::new(2);
    /// let ta = block.shared_tile(&mut sa[..], layout!((2,4):(1,2)), layout!((2,1):(1,2))).unwrap();
    /// let tb = block.shared_tile(&mut sb[..], layout!((2,4):(1,2)), layout!((2,1):(1,2))).unwrap();
    /// block.run(|thread| {
    ///     let me = thread.idx() as u32;
    ///     let mut pa = ta.part_mut(thread);                        // row `me` of sA
    ///     for j in 0..4usize {
    ///         pa[(0usize, j)] = me + 1;
    ///     }
    ///     let mut pb = tb.part_mut(thread);                        // then row `me` of sB
    ///     for j in 0..4usize {
    ///         pb[(0usize, j)] = 10 * (me + 1);
    ///     }
    ///     thread.sync();
    ///     let (a, b) = (ta.read(thread), tb.read(thread));         // both at once
    ///     let dot: u32 = (0..4usize).map(|k| a[(0usize, k)] * b[(1usize, k)]).sum();
    ///     assert_eq!(dot, 4 * 1 * 20);
    /// });
    /// ```
    #[inline]
    #[track_caller]
    pub fn read<'t>(&'t self, thread: &'t Thread<'_>) -> Tensor<&'t [T], Layout<S, D>> {
        if thread.block != self.block {
            block_panic(self.block, thread.block)
        }
        if thread.is_write_phase() {
            read_panic(thread.phase)
        }
        // SAFETY: `ptr` is valid for `len` elements for `'s` (outliving
        // `'t`), and in a read phase no write view of the tile exists and no
        // thread writes (see the module documentation): shared access.
        let data: &'t [T] = unsafe { core::slice::from_raw_parts(self.ptr, self.len) };
        // The layout was checked to fit the storage when the tile was made.
        Tensor::from_parts_checked(data, 0, self.layout)
    }

    /// The tile as a mutable tensor over its storage, the parts dissolved
    /// (after the block has run, for instance).
    ///
    /// ```
    /// use cute_static::prelude::*;
    /// let mut smem = [0u16; 8];
    /// let mut block = Block::new(2);
    /// let tile = block.shared_tile(&mut smem[..], layout!((2,4):(4,1)), layout!((2,1):(1,2))).unwrap();
    /// block.run(|thread| {
    ///     let me = thread.idx() as u16;
    ///     let mut row = tile.part_mut(thread);
    ///     for j in 0..4usize {
    ///         row[(0usize, j)] = me;
    ///     }
    /// });
    /// let mut t = tile.into_tensor();
    /// t[(1usize, 0usize)] += 10;
    /// assert_eq!(smem, [0, 0, 0, 0, 11, 1, 1, 1]);
    /// ```
    #[inline]
    pub fn into_tensor(self) -> Tensor<&'s mut [T], Layout<S, D>> {
        // SAFETY: `ptr` is valid and exclusively borrowed for `'s`; `self`
        // is consumed, and every view borrowed it, so none is left.
        let data: &'s mut [T] = unsafe { core::slice::from_raw_parts_mut(self.ptr, self.len) };
        // The layout was checked to fit the storage when the tile was made.
        Tensor::from_parts_checked(data, 0, self.layout)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn block_panic(tile: u64, thread: u64) -> ! {
    panic!("a shared tile of block {tile} used by a thread of block {thread}: a tile belongs to the block that made it")
}

#[cold]
#[inline(never)]
#[track_caller]
fn part_mut_panic(phase: u64) -> ! {
    panic!(
        "SharedTile::part_mut in phase {phase}, a read phase: a thread writes its part in even (write) phases only; call sync() first"
    )
}

#[cold]
#[inline(never)]
#[track_caller]
fn read_panic(phase: u64) -> ! {
    panic!(
        "SharedTile::read in phase {phase}, a write phase: the tile is read in odd (read) phases only; call sync() first"
    )
}

// --------------------------------------------------------------- Barrier

/// A generation-counting barrier for the live threads of a block, with
/// departure and poisoning (a mutex and a condition variable, so that loom
/// can model it).
pub(crate) struct Barrier {
    state: Mutex<BarrierState>,
    released: Condvar,
}

struct BarrierState {
    /// Threads that have not left.
    live: usize,
    /// Threads waiting in the current generation.
    arrived: usize,
    /// Completed generations (barriers).
    generation: u64,
    /// The first thread that panicked, if one did.
    poisoned_by: Option<usize>,
}

impl BarrierState {
    /// Completes the current generation (the caller notifies the waiters).
    fn release(&mut self) {
        self.arrived = 0;
        self.generation = self.generation.wrapping_add(1);
    }
}

/// A thread panicked before the barrier completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Poisoned;

impl Barrier {
    /// A barrier for `threads` live threads, none arrived, not poisoned.
    pub(crate) fn new(threads: usize) -> Barrier {
        Barrier {
            state: Mutex::new(BarrierState { live: threads, arrived: 0, generation: 0, poisoned_by: None }),
            released: Condvar::new(),
        }
    }

    /// The state. No code panics while holding it, but a poisoned mutex
    /// would still hold a consistent state: take it anyway.
    fn lock(&self) -> MutexGuard<'_, BarrierState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Arrives and returns when every live thread has arrived (the one that
    /// completes the generation returns at once).
    ///
    /// Errors: `Poisoned` when the barrier is poisoned before this
    /// generation completed (then no generation completes any more). A
    /// generation that completed releases its waiters with `Ok`, poisoned
    /// or not afterwards.
    pub(crate) fn wait(&self) -> Result<(), Poisoned> {
        let mut s = self.lock();
        if s.poisoned_by.is_some() {
            return Err(Poisoned);
        }
        let generation = s.generation;
        s.arrived += 1;
        if s.arrived >= s.live {
            // Nobody else waits when this thread is the only one arrived
            // (a block of one thread): no wake-up call to make (it is a
            // system call on Linux, a third of a 1-thread barrier's cost).
            let waiters = s.arrived > 1;
            s.release();
            drop(s);
            if waiters {
                self.released.notify_all();
            }
            return Ok(());
        }
        loop {
            s = self.released.wait(s).unwrap_or_else(|e| e.into_inner());
            // Completion first: a thread released before a poisoning is in
            // the next phase with the others.
            if s.generation != generation {
                return Ok(());
            }
            if s.poisoned_by.is_some() {
                return Err(Poisoned);
            }
            // A spurious wake-up: wait again.
        }
    }

    /// The calling thread leaves: it is no longer waited for; if every
    /// remaining live thread is already waiting, they are released.
    pub(crate) fn leave(&self) {
        let mut s = self.lock();
        s.live -= 1;
        // Poisoned: nothing completes any more (the waiters are woken by
        // the poisoning itself).
        if s.poisoned_by.is_none() && s.live > 0 && s.arrived >= s.live {
            s.release();
            drop(s);
            self.released.notify_all();
        }
    }

    /// Poisons the barrier (thread `idx` panicked): the waiters, and every
    /// later arrival, get `Poisoned`. The first poisoner is kept.
    pub(crate) fn poison(&self, idx: usize) {
        let mut s = self.lock();
        if s.poisoned_by.is_none() {
            s.poisoned_by = Some(idx);
        }
        drop(s);
        self.released.notify_all();
    }

    /// The first thread that poisoned the barrier.
    pub(crate) fn poisoned_by(&self) -> Option<usize> {
        self.lock().poisoned_by
    }
}

// ------------------------------------------------------------ loom models

/// The barrier protocol under every interleaving (loom):
/// `RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom cargo test -p cute-static --lib block`.
#[cfg(all(test, loom))]
mod loom_tests {
    use super::{Barrier, Poisoned};
    use loom::cell::UnsafeCell;
    use loom::sync::Arc;
    use loom::thread;

    /// A value the threads of a model write and read with no
    /// synchronisation but the barrier: loom reports a data race if the
    /// barrier does not order the accesses.
    struct Shared(UnsafeCell<u32>);

    // SAFETY: every access is ordered by the barrier, which is what the
    // models check (loom's cell fails the model on an unordered access).
    unsafe impl Sync for Shared {}
    // SAFETY: a `u32` in a cell.
    unsafe impl Send for Shared {}

    impl Shared {
        fn set(&self, v: u32) {
            // SAFETY: ordered by the barrier (checked by loom).
            self.0.with_mut(|p| unsafe { *p = v });
        }
        fn get(&self) -> u32 {
            // SAFETY: as in `set`.
            self.0.with(|p| unsafe { *p })
        }
    }

    /// Thread `idx` of `n`: thread 0 writes in phase 0, all read in phase
    /// 1, thread `n-1` writes in phase 2, then all leave.
    fn two_phases(idx: usize, n: usize, barrier: &Barrier, cell: &Shared) {
        if idx == 0 {
            cell.set(1);
        }
        barrier.wait().unwrap();
        assert_eq!(cell.get(), 1);
        barrier.wait().unwrap();
        if idx == n - 1 {
            cell.set(2);
        }
        barrier.leave();
    }

    fn model_phases(n: usize) {
        let barrier = Arc::new(Barrier::new(n));
        let cell = Arc::new(Shared(UnsafeCell::new(0)));
        let handles: Vec<_> = (1..n)
            .map(|idx| {
                let (b, c) = (barrier.clone(), cell.clone());
                thread::spawn(move || two_phases(idx, n, &b, &c))
            })
            .collect();
        two_phases(0, n, &barrier, &cell);
        for h in handles {
            h.join().unwrap();
        }
        assert_eq!(cell.get(), 2);
    }

    #[test]
    fn writes_before_a_barrier_are_seen_after_it_2_threads() {
        loom::model(|| model_phases(2));
    }

    #[test]
    fn writes_before_a_barrier_are_seen_after_it_3_threads() {
        // Three threads: bounded preemptions keep the model small.
        let mut b = loom::model::Builder::new();
        b.preemption_bound = Some(3);
        b.check(|| model_phases(3));
    }

    #[test]
    fn a_departed_thread_is_not_waited_for() {
        loom::model(|| {
            let barrier = Arc::new(Barrier::new(2));
            let cell = Arc::new(Shared(UnsafeCell::new(0)));
            let (b, c) = (barrier.clone(), cell.clone());
            // Thread 1 writes in phase 0 and in phase 1, then leaves.
            let h = thread::spawn(move || {
                c.set(1);
                b.wait().unwrap();
                c.set(2);
                b.leave();
            });
            barrier.wait().unwrap();
            // Phase 1 is thread 1's; its departure ends it.
            barrier.wait().unwrap();
            assert_eq!(cell.get(), 2);
            barrier.wait().unwrap(); // alone: passes at once
            barrier.leave();
            h.join().unwrap();
        });
    }

    #[test]
    fn a_waiter_sees_the_poisoning() {
        loom::model(|| {
            let barrier = Arc::new(Barrier::new(2));
            let b = barrier.clone();
            // Thread 1 "panics" before the barrier: its drop guard's path.
            let h = thread::spawn(move || b.poison(1));
            assert_eq!(barrier.wait(), Err(Poisoned));
            h.join().unwrap();
            assert_eq!(barrier.poisoned_by(), Some(1));
            assert_eq!(barrier.wait(), Err(Poisoned)); // and stays poisoned
        });
    }
}
