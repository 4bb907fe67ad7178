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

/// The fill of a cell: grey by offset in an offset picture; by thread in a
/// thread-value picture, the highlighted thread (if any) in
/// [`HIGHLIGHT`] and the others dimmed.
pub(crate) fn fill(grid: &Grid, cell: Cell, highlight: Option<i64>) -> Rgb {
    if grid.threads().is_none() {
        return grey(GREY_PERCENT[cell.offset.rem_euclid(8) as usize]);
    }
    match (cell.tv, highlight) {
        (None, _) => UNOWNED,
        (Some((t, _)), Some(h)) if t == h => HIGHLIGHT,
        (Some((t, _)), Some(_)) => dimmed(THREAD[t.rem_euclid(8) as usize]),
        (Some((t, _)), None) => THREAD[t.rem_euclid(8) as usize],
    }
}
