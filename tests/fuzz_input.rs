//! Small layouts made from bytes, for the fuzz targets and for the property
//! test that runs the same checks (`tests/tests/algebra_checks.rs`).

use cute_dynamic::{IntTuple, Layout};

/// Reads the bytes one at a time, 0 past the end.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
}

/// A layout of up to 3 modes of up to 2 leaves, shapes 1..=8, strides
/// -8..=23 (stride 0 and overlaps common), size at most 512.
fn layout(b: &mut Bytes<'_>) -> Option<Layout> {
    let form = b.next();
    let rank = 1 + usize::from(form % 3);
    let mut size = 1i64;
    let mut modes: Vec<Vec<(i64, i64)>> = Vec::new();
    for k in 0..rank {
        let leaves = if (form >> (2 + k)) & 1 == 1 { 2 } else { 1 };
        let mut m = Vec::new();
        for _ in 0..leaves {
            let s = 1 + i64::from(b.next() % 8);
            let d = i64::from(b.next() % 32) - 8;
            size *= s;
            m.push((s, d));
        }
        modes.push(m);
    }
    if size > 512 {
        return None;
    }
    if form & 0x80 != 0 && modes.len() == 1 && modes[0].len() == 1 {
        // A scalar layout, `s:d`.
        return Layout::scalar(modes[0][0].0, modes[0][0].1).ok();
    }
    let tree = |f: fn(&(i64, i64)) -> i64| {
        IntTuple::tuple(
            modes.iter().map(|m| if m.len() == 1 { IntTuple::int(f(&m[0])) } else { IntTuple::flat(m.iter().map(f)) }),
        )
    };
    Layout::new(tree(|m| m.0), tree(|m| m.1)).ok()
}

/// Two layouts `A` and `B` and a cotarget `M` for `complement(A, M)` (a
/// small multiple of `size(A)`, give or take a few).
pub fn layouts(data: &[u8]) -> Option<(Layout, Layout, i64)> {
    let mut b = Bytes(data);
    let a = layout(&mut b)?;
    let l = layout(&mut b)?;
    let m = a.size() * (1 + i64::from(b.next() % 4)) + i64::from(b.next() % 3);
    Some((a, l, m))
}
