//! Cooperative thread blocks: CuTe's copy / `__syncthreads()` / read
//! pattern on OS threads, with phase-checked shared tiles; misuse panics
//! (never hangs), early returns leave the block.

use cute_static::Overlap;
use cute_static::prelude::*;
use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Runs `f` on a thread of its own and fails when it takes longer than
/// `secs` seconds: a block that hangs fails the test instead of hanging
/// the test binary. `f`'s panic is resumed here.
fn within<R: Send + 'static>(secs: u64, f: impl FnOnce() -> R + Send + 'static) -> R {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(catch_unwind(AssertUnwindSafe(f)));
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(Ok(r)) => r,
        Ok(Err(payload)) => resume_unwind(payload),
        Err(_) => panic!("the block did not finish within {secs} s: it hangs"),
    }
}

/// The message of a panic payload (`panic!` with or without arguments).
fn message(payload: &(dyn Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(s), _) => s.to_string(),
        (_, Some(s)) => s.clone(),
        _ => "<not a string>".to_string(),
    }
}

/// The kernel's inner loop: each round every thread writes its part of
/// the shared tile (`round*100 +` the storage index), syncs, reads and
/// checks the whole tile, syncs.
#[test]
fn copy_sync_read_rounds() {
    let mut smem = [0f32; 64];
    let tile_layout = layout!((8,8):(1,8));
    let mut block = Block::new(8);
    let tile = block.shared_tile(&mut smem[..], tile_layout, layout!((4,2):(1,4))).unwrap();
    assert_eq!(tile.threads(), 8);
    block.run(|thread| {
        let me = thread.idx();
        for round in 0..5usize {
            assert_eq!(thread.phase(), 2 * round as u64);
            let mut part = tile.part_mut(thread);
            let (offset, layout) = (part.offset(), part.layout());
            assert_eq!(layout.to_string(), "(_2,_4):(_4,_16)");
            assert_eq!(offset, me % 4 + 8 * (me / 4));
            for i in 0..part.size() {
                part[i] = (round * 100 + offset + layout.index(i)) as f32;
            }
            thread.sync();
            let all = tile.read(thread);
            for i in 0..64usize {
                let want = (round * 100 + tile_layout.index(i)) as f32;
                assert_eq!(all[i], want, "round {round}, element {i}, thread {me}");
            }
            thread.sync();
        }
        assert_eq!(thread.phase(), 10);
    });
    drop(tile);
    assert!(smem.iter().enumerate().all(|(i, &x)| x == (400 + i) as f32));
}

/// A tile keeps its data across runs of its block; phases restart at 0.
#[test]
fn a_block_runs_again() {
    let mut smem = [0u32; 16];
    let mut block = Block::new(4);
    let tile = block.shared_tile(&mut smem[..], layout!((4,4):(1,4)), layout!((4,1):(1,4))).unwrap();
    block.run(|thread| {
        let me = thread.idx() as u32;
        let mut row = tile.part_mut(thread);
        for j in 0..4usize {
            row[(0usize, j)] = me;
        }
    });
    block.run(|thread| {
        assert_eq!(thread.phase(), 0);
        thread.sync();
        let all = tile.read(thread);
        for i in 0..4usize {
            for j in 0..4usize {
                assert_eq!(all[(i, j)], i as u32);
            }
        }
    });
    let t = tile.into_tensor();
    assert_eq!(t[(3usize, 1usize)], 3);
}

#[test]
fn a_block_of_one_thread() {
    let mut smem = [0i64; 8];
    let mut block = Block::new(1);
    let tile = block.shared_tile(&mut smem[..], layout!((8):(1)), layout!((1):(1))).unwrap();
    block.run(|thread| {
        assert_eq!((thread.idx(), thread.threads()), (0, 1));
        for round in 0..3i64 {
            let mut all = tile.part_mut(thread);
            for i in 0..8usize {
                all[i] = round * 10 + i as i64;
            }
            thread.sync();
            let r = tile.read(thread);
            assert_eq!(r[7usize], round * 10 + 7);
            thread.sync();
        }
    });
}

#[test]
fn blocks_have_distinct_ids() {
    let blocks: Vec<Block> = (0..16).map(|_| Block::new(2)).collect();
    let mut ids: Vec<u64> = blocks.iter().map(|b| b.id()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 16);
}

#[test]
fn overlapping_writers_are_an_error() {
    let mut smem = [0u8; 64];
    let block = Block::new(8);
    // Stride 0: threads 0 and 4 have the same coordinate.
    match block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,0))) {
        Err(e) => assert_eq!(e, Overlap { first: 0, second: 4, index: 0 }),
        Ok(_) => panic!("overlapping parts were accepted"),
    }
}

// --------------------------------------------------------------- stress

const M: usize = 64;
const N: usize = 48;
const K: usize = 32;

/// Small integers (exact in `f32` sums), from a linear congruential
/// generator.
fn small(seed: &mut u64) -> f32 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*seed >> 33) % 7) as f32 - 3.0
}

/// CuTe's sgemm on the CPU, 200 times: a block of 16 threads computes a
/// 16×16 tile of `C = A·Bᵀ` (A is M×K, B is N×K, column-major) over four
/// 16×8 tiles of K: each thread copies its 4×2 part of `sA` and of `sB`
/// from global memory, sync, accumulates its 4×4 outputs from the whole
/// of both tiles, sync. The outputs are the parts of the C tile that
/// `partition_mut` made outside the block, one per thread.
#[test]
fn many_blocks_compute_gemm_tiles() {
    let mut seed = 1u64;
    let a: Vec<f32> = (0..M * K).map(|_| small(&mut seed)).collect();
    let b: Vec<f32> = (0..N * K).map(|_| small(&mut seed)).collect();
    let reference = |m: usize, n: usize| (0..K).map(|k| a[m + k * M] * b[n + k * N]).sum::<f32>();
    let ma = make_tensor(&a[..], layout!((64,32):(1,64)));
    let mb = make_tensor(&b[..], layout!((48,32):(1,48)));
    let copy_threads = layout!((4,4):(1,4)); // over a 16×8 tile: 4×2 elements each
    let c_threads = layout!((4,4):(1,4)); // over the 16×16 C tile: 4×4 elements each
    for run in 0..200usize {
        let (bm, bn) = (run % (M / 16), (run / (M / 16)) % (N / 16));
        let mut sa = [0f32; 16 * 8];
        let mut sb = [0f32; 16 * 8];
        let mut c = vec![f32::NAN; M * N];
        {
            let mut block = Block::new(16);
            let ta = block.shared_tile(&mut sa[..], layout!((16,8):(1,16)), copy_threads).unwrap();
            let tb = block.shared_tile(&mut sb[..], layout!((16,8):(1,16)), copy_threads).unwrap();
            let gc = local_tile(make_tensor(&mut c[..], layout!((64,48):(1,64))), shape!(16, 16), (bm, bn));
            let c_parts: Vec<Mutex<_>> = gc.partition_mut(c_threads).unwrap().into_iter().map(Mutex::new).collect();
            block.run(|thread| {
                let idx = thread.idx();
                let (tm, tn) = (idx % 4, idx / 4);
                let mut acc = [[0f32; 4]; 4];
                for kt in 0..K / 8 {
                    let ga = local_partition(local_tile(ma, shape!(16, 8), (bm, kt)), copy_threads, idx);
                    let gb = local_partition(local_tile(mb, shape!(16, 8), (bn, kt)), copy_threads, idx);
                    copy(&ga, &mut ta.part_mut(thread));
                    copy(&gb, &mut tb.part_mut(thread));
                    thread.sync();
                    let (ra, rb) = (ta.read(thread), tb.read(thread));
                    for k in 0..8usize {
                        for (i, row) in acc.iter_mut().enumerate() {
                            for (j, x) in row.iter_mut().enumerate() {
                                *x += ra[(tm + 4 * i, k)] * rb[(tn + 4 * j, k)];
                            }
                        }
                    }
                    thread.sync();
                }
                let mut pc = c_parts[idx].lock().unwrap();
                for (i, row) in acc.iter().enumerate() {
                    for (j, &x) in row.iter().enumerate() {
                        pc[(i, j)] = x;
                    }
                }
            });
        }
        for i in 0..16 {
            for j in 0..16 {
                let (m, n) = (bm * 16 + i, bn * 16 + j);
                assert_eq!(c[m + n * M], reference(m, n), "run {run}: C({m},{n})");
            }
        }
    }
}

// ---------------------------------------------------------------- misuse

#[test]
#[should_panic(expected = "SharedTile::part_mut in phase 1, a read phase")]
fn part_mut_in_a_read_phase_panics() {
    within(60, || {
        let mut smem = [0u8; 64];
        let mut block = Block::new(8);
        let tile = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
        block.run(|thread| {
            thread.sync();
            if thread.idx() == 0 {
                let _ = tile.part_mut(thread);
            }
        });
    })
}

/// Thread 3 misuses the tile; the others then panic at their `sync`
/// ("another thread of the block panicked"); `run` resumes thread 3's panic.
#[test]
#[should_panic(expected = "SharedTile::read in phase 0, a write phase")]
fn read_in_a_write_phase_panics() {
    within(60, || {
        let mut smem = [0u8; 64];
        let mut block = Block::new(8);
        let tile = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
        block.run(|thread| {
            if thread.idx() == 3 {
                let _ = tile.read(thread);
            }
            thread.sync();
        });
    })
}

#[test]
#[should_panic(expected = "used by a thread of block")]
fn a_tile_of_another_block_panics() {
    within(60, || {
        let mut smem = [0u8; 64];
        let owner = Block::new(8);
        let tile = owner.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
        let mut other = Block::new(8);
        other.run(|thread| {
            let _ = tile.part_mut(thread);
        });
    })
}

#[test]
#[should_panic(expected = "the writers layout has 8 threads, the block has 3")]
fn writers_of_the_wrong_size_panic() {
    let mut smem = [0u8; 64];
    let block = Block::new(3);
    let _ = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4)));
}

#[test]
#[should_panic(expected = "a block needs at least one thread")]
fn a_block_of_no_threads_panics() {
    let _ = Block::new(0);
}

#[test]
fn a_panicking_thread_makes_run_panic() {
    for culprit in [0usize, 2] {
        let (payload, after) = within(60, move || {
            let mut block = Block::new(4);
            let payload = catch_unwind(AssertUnwindSafe(|| {
                block.run(|thread| {
                    if thread.idx() == culprit {
                        panic!("thread {culprit} fails");
                    }
                    thread.sync();
                    thread.sync();
                })
            }))
            .expect_err("run returned normally after a thread panicked");
            // The block runs again: a fresh barrier per run.
            let passed = AtomicUsize::new(0);
            block.run(|thread| {
                thread.sync();
                passed.fetch_add(1, Ordering::Relaxed);
            });
            (message(&*payload), passed.into_inner())
        });
        assert_eq!(payload, format!("thread {culprit} fails"));
        assert_eq!(after, 4);
    }
}

/// A thread that panics while the others wait at the barrier wakes them.
#[test]
fn waiting_threads_are_woken_by_a_panic() {
    let payload = within(60, || {
        let mut block = Block::new(4);
        catch_unwind(AssertUnwindSafe(|| {
            block.run(|thread| {
                if thread.idx() == 3 {
                    std::thread::sleep(Duration::from_millis(50)); // the others are waiting by now
                    panic!("late failure");
                }
                thread.sync();
            })
        }))
        .expect_err("run returned normally after a thread panicked")
    });
    assert_eq!(message(&*payload), "late failure");
}

// ------------------------------------------------------------- departure

#[test]
fn a_thread_that_returns_early_does_not_hang_the_others() {
    let passed = within(60, || {
        let mut block = Block::new(4);
        let passed = AtomicUsize::new(0);
        block.run(|thread| {
            if thread.idx() == 1 {
                return;
            }
            for _ in 0..3 {
                thread.sync();
                passed.fetch_add(1, Ordering::Relaxed);
            }
        });
        passed.into_inner()
    });
    assert_eq!(passed, 3 * 3);
}

/// A thread writes its part and leaves; the others see its writes after
/// the next barrier.
#[test]
fn the_writes_of_a_departed_thread_are_seen() {
    within(60, || {
        let mut smem = [0u32; 64];
        let mut block = Block::new(8);
        let tile = block.shared_tile(&mut smem[..], layout!((8,8):(1,8)), layout!((4,2):(1,4))).unwrap();
        block.run(|thread| {
            let me = thread.idx();
            if me == 5 {
                std::thread::sleep(Duration::from_millis(20)); // the others wait for it
            }
            let mut part = tile.part_mut(thread);
            for i in 0..part.size() {
                part[i] = me as u32 + 1;
            }
            if me == 5 {
                return;
            }
            thread.sync();
            let all = tile.read(thread);
            assert!((0..64usize).all(|i| all[i] != 0));
            assert_eq!(all[(1usize, 1usize)], 6); // thread 5's first element
            thread.sync();
            thread.sync();
        });
    })
}
