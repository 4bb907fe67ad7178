//! End-to-end tests of `cute --suggest-swizzle`: the golden case (8 rows of
//! 128 bytes written row by row and read down the columns), the same tile
//! in bytes, thread-value layouts from `make_layout_tv`, and the errors.

use crate::common::{cute, stderr, stdout};

/// `cute ARGS` fails with status 2, prints nothing on stdout, and returns
/// stderr.
#[track_caller]
fn assert_fails(args: &[&str]) -> String {
    let o = cute(args);
    assert_eq!(o.status.code(), Some(2), "cute {args:?} should fail; stdout: {}", stdout(&o));
    assert_eq!(stdout(&o), "");
    stderr(&o)
}

/// The golden case: `(8,32):(32,1)` of floats (8 rows of 128 bytes),
/// written a row per request (thread t stores column t of row v) and read
/// down the columns (request v: columns 4v..4v+3, 8 threads down each).
/// Unswizzled, each read request takes 8 wavefronts (64 over the 8
/// requests, ideal 8); CuTe's SW128 atom (Sw<3,4,3> on bytes, Sw<3,2,3> on
/// floats) is the one swizzle that makes both phases conflict-free.
#[test]
fn golden_rows_written_columns_read() {
    let o = cute(&["--suggest-swizzle", "(8,32):(32,1)", "--write", "(32,8):(8,1)", "--read", "(32,8):(1,32)"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let expected = concat!(
        "tile (8,32):(32,1) of 4-byte elements, cosize 256 (8 offset bits)\n",
        "write 32 threads x 8 values, read 32 threads x 8 values\n",
        "searched 101 swizzles of element offsets: Sw<0,0,0>, every Sw<B,M,S> with B >= 1, |S| >= B, M+|S|+B <= 8, CuTe's atoms\n",
        "wavefronts: all requests of a phase, 32 banks x 4 bytes; vector: elements per access of every thread\n",
        "no swizzle: write 8 wavefronts (ideal 8), vector 1; read 64 wavefronts (ideal 8), vector 1\n",
        "conflict-free in both phases, best first: 1\n",
        "  1. Sw<3,2,3>: write 8 wavefronts (ideal 8), vector 1; read 8 wavefronts (ideal 8), vector 1 [SW128 atom]\n",
        "CuTe's atoms (Sw<B,4,3> of bytes is Sw<B,2,3> of 4-byte elements):\n",
        "  INTER Sw<0,0,0>: write 8 wavefronts (ideal 8), vector 1; read 64 wavefronts (ideal 8), vector 1\n",
        "  SW32  Sw<1,2,3>: write 8 wavefronts (ideal 8), vector 1; read 32 wavefronts (ideal 8), vector 1\n",
        "  SW64  Sw<2,2,3>: write 8 wavefronts (ideal 8), vector 1; read 16 wavefronts (ideal 8), vector 1\n",
        "  SW128 Sw<3,2,3>: write 8 wavefronts (ideal 8), vector 1; read 8 wavefronts (ideal 8), vector 1\n",
    );
    assert_eq!(stdout(&o), expected);

    // `--banks` agrees on the read phase, before and after.
    let o = cute(&["--banks", "composition((8,32):(32,1), (32,8):(1,32))"]);
    assert!(stdout(&o).ends_with("threads 0-31: 64 wavefronts (ideal 8)\n"), "{}", stdout(&o));
    let o = cute(&["--banks", "composition(Sw<3,2,3>, composition((8,32):(32,1), (32,8):(1,32)))"]);
    assert!(stdout(&o).ends_with("threads 0-31: 8 wavefronts (ideal 8)\n"), "{}", stdout(&o));
    // One request, one column: 8 wavefronts where 1 would do.
    let o = cute(&["--banks", "8:32"]);
    assert!(stdout(&o).ends_with("threads 0-7: 8 wavefronts (ideal 1)\n"), "{}", stdout(&o));
}

/// The same tile in bytes: each thread stores a 4-byte word of a row, read
/// a word column at a time. The swizzle found is CuTe's Sw<3,4,3> itself,
/// and it keeps the 4-byte vectors.
#[test]
fn golden_in_bytes_finds_sw343() {
    let o = cute(&[
        "--suggest-swizzle",
        "(8,128):(128,1)",
        "--elem-bytes",
        "1",
        "--write",
        "(32,(4,8)):(32,(8,1))",
        "--read",
        "((8,4),(4,8)):((1,32),(8,128))",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "no swizzle: write 32 wavefronts (ideal 32), vector 4; read 256 wavefronts (ideal 32), vector 4\n"
        ),
        "{out}"
    );
    assert!(out.contains("conflict-free in both phases, best first: 1\n"), "{out}");
    assert!(
        out.contains("  1. Sw<3,4,3>: write 32 wavefronts (ideal 32), vector 4; read 32 wavefronts (ideal 32), vector 4 [SW128 atom]\n"),
        "{out}"
    );
}

/// `make_layout_tv` on the tile's shape is read as its TV layout; on
/// another shape it is refused.
#[test]
fn make_layout_tv_patterns() {
    let args = [
        "--suggest-swizzle",
        "(8,32):(32,1)",
        "--write",
        "make_layout_tv((1,32):(1,1), (8,1):(1,1))",
        "--read",
        "(32,8):(1,32)",
    ];
    let o = cute(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("  1. Sw<3,2,3>: "), "{}", stdout(&o));
    let err = assert_fails(&[
        "--suggest-swizzle",
        "(8,32):(32,1)",
        "--write",
        "make_layout_tv((32,1):(1,1), (1,8):(1,1))",
        "--read",
        "(32,8):(1,32)",
    ]);
    assert!(err.starts_with("error: --write is a thread-value layout on a tile (32,8)"), "{err}");
}

#[test]
fn errors() {
    // A bad expression: the argument named, the caret under the column.
    let err = assert_fails(&["--suggest-swizzle", "(8,32):(32,1", "--write", "8:1", "--read", "8:1"]);
    assert_eq!(
        err,
        "in --suggest-swizzle: error: expected ',' or ')' at column 13, found end of input\n  (8,32):(32,1\n              ^\n"
    );
    let err = assert_fails(&["--suggest-swizzle", "(8,32):(32,1)", "--write", "8:1", "--read", "size(8:1"]);
    assert!(err.starts_with("in --read: error: ") && err.ends_with("  size(8:1\n          ^\n"), "{err}");
    // A pattern outside the tile.
    let err = assert_fails(&["--suggest-swizzle", "(8,32):(32,1)", "--write", "(32,8):(8,2)", "--read", "8:1"]);
    assert!(err.contains("index 256 (the write pattern (32,8):(8,2) at thread 31, value 4)"), "{err}");
    // Not a layout; a swizzled tile.
    let err = assert_fails(&["--suggest-swizzle", "(8,32)", "--write", "8:1", "--read", "8:1"]);
    assert!(err.starts_with("error: --suggest-swizzle takes the tile's layout"), "{err}");
    let err = assert_fails(&["--suggest-swizzle", "composition(Sw<3,2,3>, 8:1)", "--write", "8:1", "--read", "8:1"]);
    assert!(err.contains("got Sw<3,2,3> o 0 o 8:1"), "{err}");
    let err = assert_fails(&["--suggest-swizzle", "8:1", "--write", "Sw<3,2,3>", "--read", "8:1"]);
    assert!(err.starts_with("error: --write takes a thread-value layout"), "{err}");
    // Missing --read; --write alone; with --banks; a bad element size.
    assert_fails(&["--suggest-swizzle", "8:1", "--write", "8:1"]);
    assert_fails(&["--write", "8:1", "8:1"]);
    assert_fails(&["--banks", "8:1", "--suggest-swizzle", "8:1", "--write", "8:1", "--read", "8:1"]);
    assert_fails(&["--suggest-swizzle", "8:1", "--write", "8:1", "--read", "8:1", "--elem-bytes", "0"]);
    // A huge tile: refused with the limit named, not searched.
    let err = assert_fails(&["--suggest-swizzle", "2:33554432", "--write", "2:1", "--read", "2:1"]);
    assert!(err.contains("above the limit of 24"), "{err}");
}
