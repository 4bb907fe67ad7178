//! Pictures: the colours of a cell, shared by SVG, HTML and TikZ so that the
//! three draw the same picture (CuTe's `print_latex` colours).

use crate::grid::{Cell, Grid};

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub(crate) fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// TikZ's `{rgb,255:red,R;green,G;blue,B}`.
    pub(crate) fn tikz(self) -> String {
        format!("{{rgb,255:red,{};green,{};blue,{}}}", self.0, self.1, self.2)
    }

    /// Whether dark text on it is hard to read.
    pub(crate) fn is_dark(self) -> bool {
        // Rec. 601 luma.
        299 * u32::from(self.0) + 587 * u32::from(self.1) + 114 * u32::from(self.2) < 128_000
    }
}

/// CuTe's `TikzColor_BWx8`: percent of black by `offset % 8`, so that
/// neighbouring offsets differ in shade.
pub(crate) const GREY_PERCENT: [u8; 8] = [0, 40, 20, 60, 10, 50, 30, 70];

/// CuTe's `TikzColor_TV`: the colour of thread `t` is `THREAD[t % 8]`.
pub(crate) const THREAD: [Rgb; 8] = [
    Rgb(175, 175, 255),
    Rgb(175, 255, 175),
    Rgb(255, 255, 175),
    Rgb(255, 175, 175),
    Rgb(210, 210, 255),
    Rgb(210, 255, 210),
    Rgb(255, 255, 210),
    Rgb(255, 210, 210),
];

/// The highlighted thread's cells (as the walkthrough's blue).
pub(crate) const HIGHLIGHT: Rgb = Rgb(32, 80, 224);

/// A cell of a thread-value picture that no thread owns.
pub(crate) const UNOWNED: Rgb = Rgb(255, 255, 255);

/// TikZ's `black!p`: `p` percent black on white.
pub(crate) fn grey(percent: u8) -> Rgb {
    let v = (255 * (100 - percent as u32) + 50) / 100;
    Rgb(v as u8, v as u8, v as u8)
}

/// The other threads' cells when one is highlighted: the thread colour
/// darkened to a third, so the highlighted cells stand out.
pub(crate) fn dimmed(c: Rgb) -> Rgb {
    Rgb(c.0 / 3, c.1 / 3, c.2 / 3)
}

/// The colour of thread `t` of `threads` in SVG and HTML: CuTe's
/// `THREAD[t % 8]` for up to 8 threads; beyond, a hue of its own (the
/// golden-ratio sequence, so that threads close in number are far apart in
/// hue). Colouring 256 threads by `t % 8` would hide every thread layout
/// whose stride across rows is a multiple of 8, such as the walkthrough's
/// `(16,16):(16,1)`: all rows would look alike.
///
/// Up to 32 threads, every thread has a colour of its own, far from its
/// neighbours': 16 hues 22.5° apart, thread `t` at hue `5t mod 16` (so
/// threads 1 apart are 112.5° apart and `T0`, `T8` opposite), the second
/// 16 threads a darker shade of the first 16's hues.
pub(crate) fn thread(t: i64, threads: i64) -> Rgb {
    if threads <= 8 {
        return THREAD[t.rem_euclid(8) as usize];
    }
    if threads <= 32 {
        let hue = (5 * t).rem_euclid(16) as f64 / 16.0;
        return hsl(hue, 0.75, if t.rem_euclid(32) < 16 { 0.74 } else { 0.5 });
    }
    let hue = (t as f64 * 0.618_033_988_749_895).rem_euclid(1.0);
    hsl(hue, 0.75, 0.72)
}

/// HSL (hue in turns) to sRGB.
fn hsl(h: f64, s: f64, l: f64) -> Rgb {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let k = |n: f64| (n + h * 12.0).rem_euclid(12.0);
    let f = |n: f64| l - c / 2.0 * (-1f64).max((k(n) - 3.0).min(9.0 - k(n)).min(1.0));
    let u = |x: f64| (x * 255.0).round().clamp(0.0, 255.0) as u8;
    Rgb(u(f(0.0)), u(f(8.0)), u(f(4.0)))
}

/// The fill of a cell: grey by three bits of the offset (from the grid's
/// [`shade_shift`](Grid::shade_shift)) in an offset picture; by thread
/// ([`thread`]) in a thread-value picture, the highlighted thread (if any)
/// in [`HIGHLIGHT`] and the others dimmed.
pub(crate) fn fill(grid: &Grid, cell: Cell, highlight: Option<i64>) -> Rgb {
    let Some(threads) = grid.threads() else {
        return grey(GREY_PERCENT[(cell.offset >> grid.shade_shift()).rem_euclid(8) as usize]);
    };
    match (cell.tv, highlight) {
        (None, _) => UNOWNED,
        (Some((t, _)), Some(h)) if t == h => HIGHLIGHT,
        (Some((t, _)), Some(_)) => dimmed(thread(t, threads)),
        (Some((t, _)), None) => thread(t, threads),
    }
}
