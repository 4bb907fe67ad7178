//! "No heap allocation inside an operation on layouts of up to 8 leaves"
//! (cute-dynamic's crate docs; `docs/architecture.md`, section 4), checked
//! rather than assumed.
//!
//! This test binary installs a counting global allocator. Counting is per
//! thread and only while [`allocations`] runs its closure, so the test
//! harness (other threads, output capture) does not disturb the figures.
//! The inputs are parsed and checked beforehand; only the operation itself
//! runs inside the counted region (results are dropped outside it). Error
//! paths may allocate (they describe themselves in text) and are not
//! measured here.

use cute_dynamic::{
    IntTuple, Layout, SliceCoord, Tiler, coalesce, coalesce_by, complement, complement_full, composition, crd2idx,
    filter, idx2crd, make_layout, slice,
};
use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::backtrace::Backtrace;
use std::cell::{Cell, RefCell};
use std::fmt::Write;
use std::hint::black_box;

/// The system allocator, counting the allocations of a thread while that
/// thread has counting switched on.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
    /// Bytes allocated and not yet freed while counting, and their peak.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// Where the first counted allocation happened, to name the culprit.
    static FIRST: RefCell<Option<Backtrace>> = const { RefCell::new(None) };
}

/// `bytes` more (or, negative, fewer) live bytes while counting.
fn note_bytes(bytes: isize) {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let live = LIVE.try_with(|l| l.replace(l.get() + bytes) + bytes).unwrap_or(0);
        let _ = PEAK.try_with(|p| p.set(p.get().max(live)));
    }
}

fn note_allocation() {
    // `try_with`: never fail inside the allocator, even during thread exit.
    let on = COUNTING.try_with(Cell::get).unwrap_or(false);
    if !on {
        return;
    }
    let first = COUNT.try_with(|n| n.replace(n.get() + 1) == 0).unwrap_or(false);
    if first {
        // Capturing allocates: switch counting off meanwhile (no recursion).
        let _ = COUNTING.try_with(|c| c.set(false));
        let bt = Backtrace::force_capture();
        let _ = FIRST.try_with(|f| f.try_borrow_mut().map(|mut f| *f = Some(bt)));
        let _ = COUNTING.try_with(|c| c.set(true));
    }
}

// SAFETY: every call is forwarded unchanged to `System`; the bookkeeping
// only touches const-initialised thread-locals, which do not allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        note_allocation();
        note_bytes(layout.size() as isize);
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: AllocLayout) -> *mut u8 {
        note_allocation();
        note_bytes(layout.size() as isize);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        note_allocation();
        note_bytes(new_size as isize - layout.size() as isize);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        note_bytes(-(layout.size() as isize));
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns its result with the number of heap allocations
/// (alloc, alloc_zeroed, realloc) this thread made meanwhile.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, usize) {
    COUNT.with(|n| n.set(0));
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    FIRST.with(|f| f.borrow_mut().take());
    COUNTING.with(|on| on.set(true));
    let r = black_box(f());
    COUNTING.with(|on| on.set(false));
    (r, COUNT.with(Cell::get))
}

/// Asserts that `f` does not allocate; returns its result.
#[track_caller]
fn no_alloc<R>(what: &str, f: impl FnOnce() -> R) -> R {
    let (r, n) = allocations(f);
    if n != 0 {
        panic!("{what} made {n} heap allocation(s); the first one, in the library:\n{}", first_allocation_site());
    }
    r
}

/// The frames of cute-dynamic (and its containers) in the backtrace of the
/// first counted allocation.
fn first_allocation_site() -> String {
    let trace = FIRST.with(|f| f.borrow().as_ref().map(ToString::to_string)).unwrap_or_default();
    let lines: Vec<&str> = trace.lines().collect();
    let mut out = String::new();
    for (k, line) in lines.iter().enumerate() {
        if line.contains("cute_dynamic::") || line.contains("smallvec::") || line.contains("alloc::vec") {
            out.push_str(line);
            out.push('\n');
            if let Some(at) = lines.get(k + 1).filter(|l| l.trim_start().starts_with("at ")) {
                out.push_str(at);
                out.push('\n');
            }
        }
    }
    if out.is_empty() { trace } else { out }
}

fn layout(text: &str) -> Layout {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Layouts of up to 8 leaves, deep and flat, with and without holes.
const LAYOUTS: &[&str] = &[
    "(2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128)",
    "((2,2,2),(2,2,2),(2,2)):((1,2,4),(8,16,32),(64,128))",
    "(2,(2,(2,(2,(2,(2,(2,2))))))):(1,(2,(4,(8,(16,(32,(64,128)))))))",
    "((4,2),(2,4),(3,3),(2,2)):((1,4),(8,16),(64,192),(576,1152))",
    "((2,2),(4,2)):((1,8),(2,16))",
    "((3,2),((2,3),2)):((4,1),((2,15),100))",
    "((2,1),(4,3),(1,2),(2,5)):((1,0),(0,8),(5,32),(64,0))",
    "(2,4,2,4,2,4,2,4):(4096,1,2048,4,1024,16,512,64)",
];

#[test]
fn the_counter_counts() {
    let (_, n) = allocations(|| black_box(vec![1u8; 16]));
    assert_eq!(n, 1);
    let (_, n) = allocations(|| black_box(String::from("not inline")));
    assert_eq!(n, 1);
}

#[test]
fn parse_of_a_layout_does_not_allocate() {
    for &text in LAYOUTS {
        let l = no_alloc(&format!("parse {text}"), || text.parse::<Layout>());
        assert!(l.is_ok(), "{text}");
        no_alloc(&format!("parse shape of {text}"), || text.split(':').next().map(str::parse::<IntTuple>));
    }
}

#[test]
fn print_into_a_buffer_does_not_allocate() {
    let mut buf = String::with_capacity(256);
    for &text in LAYOUTS {
        let l = layout(text);
        buf.clear();
        let r = no_alloc(&format!("print {text}"), || write!(buf, "{l}"));
        assert!(r.is_ok());
        assert_eq!(buf, text.replace(' ', ""));
    }
}

#[test]
fn attributes_and_evaluation_do_not_allocate() {
    for &text in LAYOUTS {
        let l = layout(text);
        let size = l.size();
        no_alloc(&format!("attributes of {text}"), || (l.size(), l.cosize(), l.rank(), l.depth()));
        no_alloc(&format!("modes of {text}"), || (l.get(0), l.flatten(), l.modes_iter().count()));
        for i in 0..size {
            let v = no_alloc(&format!("eval {text} at {i}"), || l.eval(i));
            assert!(v.is_ok());
            let c = no_alloc(&format!("idx2crd {i} in {text}"), || idx2crd(i, l.shape()));
            let c = c.unwrap_or_else(|e| panic!("{e}"));
            let back = no_alloc(&format!("crd2idx {c} in {text}"), || crd2idx(&c, l.shape()));
            assert_eq!(back, Ok(i));
            let w = no_alloc(&format!("eval {text} at {c}"), || l.eval_coord(&c));
            assert_eq!(w, v);
        }
        let r = no_alloc(&format!("eval_extended {text}"), || l.eval_extended(size + 3));
        assert!(r.is_ok(), "{r:?}");
    }
}

#[test]
fn coalesce_and_filter_do_not_allocate() {
    for &text in LAYOUTS {
        let l = layout(text);
        no_alloc(&format!("coalesce {text}"), || coalesce(&l));
        no_alloc(&format!("filter {text}"), || filter(&l));
        if l.rank() >= 2 {
            let profile = IntTuple::flat(std::iter::repeat_n(1, l.rank()));
            let r = no_alloc(&format!("coalesce {text} by {profile}"), || coalesce_by(&l, &profile));
            assert!(r.is_ok(), "{r:?}");
        }
    }
}

#[test]
fn composition_does_not_allocate() {
    let cases = [
        ("(6,2):(8,2)", "(4,3):(3,1)"),
        ("20:2", "(5,4):(4,1)"),
        ("(10,2):(16,4)", "(5,4):(1,5)"),
        ("(4,2,8):(3,12,97)", "3:3"),
        ("(2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128)", "((2,2),(2,2),(2,2),(2,2)):((1,16),(2,32),(4,64),(8,128))"),
        (
            "((2,2,2),(2,2,2),(2,2)):((1,2,4),(8,16,32),(64,128))",
            "(2,(2,(2,(2,(2,(2,(2,2))))))):(128,(64,(32,(16,(8,(4,(2,1)))))))",
        ),
        ("((4,2),(2,4),(3,3),(2,2)):((1,4),(8,16),(64,192),(576,1152))", "(8,(3,3),(2,2)):(1,(8,24),(72,144))"),
        ("(2,4,2,4,2,4,2,4):(4096,1,2048,4,1024,16,512,64)", "((2,4),(2,4)):((1,2),(8,16))"),
    ];
    for (a, b) in cases {
        let (la, lb) = (layout(a), layout(b));
        let r = no_alloc(&format!("composition({a}, {b})"), || composition(&la, &lb));
        let r = r.unwrap_or_else(|e| panic!("composition({a}, {b}): {e}"));
        for i in 0..lb.size() {
            assert_eq!(r.eval(i), la.eval_extended(lb.eval(i).unwrap_or(-1)), "composition({a}, {b}) at {i}");
        }
    }
    // By-mode: a tiler (parsed beforehand: building a tuple tiler allocates
    // its Vec).
    let tiled = [
        ("(12,(4,8)):(59,(13,1))", "<3:4, 8:2>"),
        ("(9,(4,8)):(59,(13,1))", "<3:3, (2,4):(1,8)>"),
        ("((2,2,2),(2,2,2),(2,2)):((1,2,4),(8,16,32),(64,128))", "<(2,2):(2,1), 4:2, 2:1>"),
    ];
    for (a, t) in tiled {
        let la = layout(a);
        let tiler: Tiler = t.parse().unwrap_or_else(|e| panic!("{t}: {e}"));
        let r = no_alloc(&format!("composition({a}, {t})"), || composition(&la, &tiler));
        assert!(r.is_ok(), "composition({a}, {t}): {r:?}");
    }
    let la = layout("((2,2,2),(2,2,2),(2,2)):((1,2,4),(8,16,32),(64,128))");
    let shape = IntTuple::int(4);
    let r = no_alloc("composition with an integer shape", || composition(&la, &shape));
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn complement_does_not_allocate() {
    let cases = [
        ("4:2", 24),
        ("(2,4):(1,6)", 24),
        ("(2,2):(1,6)", 24),
        ("(2,2,2,2,2,2,2,2):(1,4,16,64,256,1024,4096,16384)", 65536),
        ("((2,2),(2,2),(2,2),(2,2)):((1,16),(2,32),(4,64),(8,128))", 1024),
        ("((2,1),(4,3),(1,2),(2,5)):((1,0),(0,8),(5,32),(64,0))", 4096),
        ("(2,(3,(2,(5,(2,(3,(2,7))))))):(1,(4,(24,(96,(960,(3840,(23040,92160)))))))", 1 << 22),
    ];
    for (a, m) in cases {
        let la = layout(a);
        let r = no_alloc(&format!("complement({a}, {m})"), || complement(&la, m));
        assert!(r.is_ok(), "complement({a}, {m}): {r:?}");
        let r = no_alloc(&format!("complement({a})"), || complement_full(&la));
        assert!(r.is_ok(), "complement({a}): {r:?}");
    }
}

/// A tuple shape is read as a tiler in place (no `Tiler::Tuple`, which is a
/// `Vec`, is built from it).
#[test]
fn composition_with_a_tuple_shape_does_not_allocate() {
    let la = layout("((2,2,2),(2,2,2),(2,2)):((1,2,4),(8,16,32),(64,128))");
    let shape: IntTuple = "(4,(2,2),2)".parse().unwrap_or_else(|e| panic!("{e}"));
    let r = no_alloc("composition with the shape (4,(2,2),2)", || composition(&la, &shape));
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn make_layout_does_not_allocate() {
    let modes = [layout("(2,2):(1,2)"), layout("(2,(2,2)):(4,(8,16))"), layout("(2,2):(32,64)")];
    let r = no_alloc("make_layout of three modes", || make_layout(&modes));
    assert!(r.is_ok(), "{r:?}");
}

/// The kept sub-layouts of each tuple level are not collected into a list.
#[test]
fn slice_does_not_allocate() {
    let cases = [
        ("((3,2),((2,3),2)):((4,1),((2,15),100))", "(2,((0,_),_))"),
        ("((3,2),((2,3),2)):((4,1),((2,15),100))", "(_,((1,_),1))"),
        ("((2,2,2),(2,2,2),(2,2)):((1,2,4),(8,16,32),(64,128))", "((_,1,_),_,(1,_))"),
    ];
    for (l, c) in cases {
        let l = layout(l);
        let c: SliceCoord = c.parse().unwrap_or_else(|e| panic!("{c}: {e}"));
        let r = no_alloc(&format!("slice({l}, {c})"), || slice(&l, &c));
        assert!(r.is_ok(), "{r:?}");
    }
}

/// The expression evaluator is not an operation on layouts: a call collects
/// its arguments in a `Vec` and copies the operation name into a `String`
/// (cute-dynamic/src/expr.rs, `call`): two allocations per call. They are
/// reported (run with `--nocapture`), not forbidden.
#[test]
fn expression_evaluator_allocations_are_reported() {
    for text in
        ["((2,2),(4,2)):((1,8),(2,16))", "composition((10,2):(16,4), (5,4):(1,5))", "complement((2,4):(1,6), 24)"]
    {
        let (r, n) = allocations(|| cute_dynamic::eval(text));
        assert!(r.is_ok(), "{text}: {r:?}");
        println!("cute_dynamic::eval({text:?}): {n} heap allocation(s)");
    }
    // A bare layout needs neither: evaluating it must not allocate.
    let r = no_alloc("eval of a layout literal", || cute_dynamic::eval("((2,2),(4,2)):((1,8),(2,16))"));
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn inverses_and_1d_divide_and_product_do_not_allocate() {
    for text in LAYOUTS.iter().copied().chain(["(4,8):(1,5)", "(3,7,5):(5,15,1)"]) {
        let l = layout(text);
        no_alloc(&format!("right_inverse({text})"), || cute_dynamic::right_inverse(&l));
        // Some of these have no left inverse; error paths may allocate.
        let (r, n) = allocations(|| cute_dynamic::left_inverse(&l));
        if r.is_ok() && n != 0 {
            panic!("left_inverse({text}) made {n} heap allocation(s); first at\n{}", first_allocation_site());
        }
    }
    let cases = [
        ("(2,4,3):(4,1,8)", "4:2"),
        ("(9,(4,8)):(59,(13,1))", "(3,2):(1,9)"),
        ("((2,2,2),(2,2,2),(2,2)):((1,2,4),(8,16,32),(64,128))", "(4,4):(1,16)"),
        ("128:128", "(16,4):(4,1)"),
        // A size-1 tile: its stride is carried through A's modes.
        ("(4,8):(2,16)", "(1,4):(4,1)"),
    ];
    for (a, b) in cases {
        let (la, lb) = (layout(a), layout(b));
        let r = no_alloc(&format!("logical_divide({a}, {b})"), || cute_dynamic::logical_divide(&la, &lb));
        assert!(r.is_ok(), "{r:?}");
    }
    let cases = [
        ("(2,2):(4,1)", "6:1"),
        ("(4,8):(20,2)", "(3,2):(2,1)"),
        ("(3,4):(4,1)", "(2,5):(1,2)"),
        // Size-1 leaves of B: restrided as CuTe's coalesced complement gives them.
        ("(1,4):(6,4)", "(1,2):(1,1)"),
    ];
    for (a, b) in cases {
        let (la, lb) = (layout(a), layout(b));
        let r = no_alloc(&format!("logical_product({a}, {b})"), || cute_dynamic::logical_product(&la, &lb));
        assert!(r.is_ok(), "{r:?}");
    }
}

/// The by-mode divides and products (a `<tiler>` argument), logical,
/// zipped, tiled and flat, are written in place, with no list of modes.
#[test]
fn by_mode_operations_by_a_tiler_do_not_allocate() {
    let tiler = |s: &str| -> Tiler { s.parse().unwrap_or_else(|e| panic!("{e}")) };
    let (da, dt) = (layout("(9,(4,8)):(59,(13,1))"), tiler("<3:3, (2,4):(1,8)>"));
    let (pa, pt) = (layout("(2,5):(5,1)"), tiler("<3:1, (2,2):(1,4)>"));
    let mut failures = String::new();
    type Op = fn(&Layout, &Tiler) -> cute_dynamic::Result<Layout>;
    let ops: [(&str, &Layout, &Tiler, Op); 8] = [
        ("logical_divide", &da, &dt, |a, t| cute_dynamic::logical_divide(a, t)),
        ("zipped_divide", &da, &dt, |a, t| cute_dynamic::zipped_divide(a, t)),
        ("tiled_divide", &da, &dt, |a, t| cute_dynamic::tiled_divide(a, t)),
        ("flat_divide", &da, &dt, |a, t| cute_dynamic::flat_divide(a, t)),
        ("logical_product", &pa, &pt, |a, t| cute_dynamic::logical_product(a, t)),
        ("zipped_product", &pa, &pt, |a, t| cute_dynamic::zipped_product(a, t)),
        ("tiled_product", &pa, &pt, |a, t| cute_dynamic::tiled_product(a, t)),
        ("flat_product", &pa, &pt, |a, t| cute_dynamic::flat_product(a, t)),
    ];
    for (name, a, t, op) in ops {
        let (r, n) = allocations(|| op(a, t));
        assert!(r.is_ok(), "{r:?}");
        if n != 0 {
            let _ = writeln!(failures, "{name}({a}, {t}): {n} allocation(s); first at\n{}", first_allocation_site());
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// `blocked_product` and `raked_product` do not pad their arguments into
/// lists of modes.
#[test]
fn blocked_and_raked_products_do_not_allocate() {
    let (a, b) = (layout("(3,4):(4,1)"), layout("(2,5):(1,2)"));
    let mut failures = String::new();
    type Op = fn(&Layout, &Layout) -> cute_dynamic::Result<Layout>;
    let ops: [(&str, Op); 2] =
        [("blocked_product", cute_dynamic::blocked_product), ("raked_product", cute_dynamic::raked_product)];
    for (name, op) in ops {
        let (r, n) = allocations(|| op(&a, &b));
        assert!(r.is_ok(), "{r:?}");
        if n != 0 {
            let _ = writeln!(failures, "{name}({a}, {b}): {n} allocation(s); first at\n{}", first_allocation_site());
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

/// The kernel of `cute-static/examples/sgemm.rs` on the caller's buffers
/// makes no padded copy: at 1000×777 its heap at the peak holds its
/// compute threads' fragments (256 × 8×8 floats, each in 5 whole cache
/// lines with its offset), the shared tiles' thread parts (256 views each)
/// and a few small lists, 96 KiB at most, where one padded copy of A alone
/// would be 1.3 MB at K = 333. (The shared tiles themselves are on the
/// stack.) Nothing is allocated per k-tile, so K is 17 here (two whole
/// k-tiles and a ragged one) to keep the unoptimised test quick; at K = 333
/// the peak is the same, 90,368 bytes.
#[test]
fn the_gemm_kernel_makes_no_padded_copy() {
    use crate::static_tensor::sgemm::{Dims, sgemm};
    let (m, n, k) = (1000usize, 777usize, 17usize);
    let d = Dims { m, n, k, lda: m, ldb: n, ldc: m };
    let a = vec![1f32; m * k];
    let b = vec![2f32; n * k];
    let mut c = vec![0f32; m * n];
    let ((), count) = allocations(|| sgemm(d, &a, &b, &mut c, 1));
    let peak = PEAK.with(Cell::get);
    let fragments = 256 * 64 * std::mem::size_of::<f32>();
    assert!(peak >= fragments as isize, "the fragments are on the heap: peak {peak} bytes");
    assert!(
        peak <= 96 * 1024,
        "peak extra heap {peak} bytes in {count} allocations: more than the tiles and fragments"
    );
    assert!(c.iter().all(|&x| x == 2.0 * k as f32));
}
