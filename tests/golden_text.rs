//! CuTe's own text of its atom layer (`tests/golden/cute_atoms.txt`,
//! written by `benches/cute_cpp/atoms.sh` from CuTe's `print`), read by
//! section, and CuTe's static `_` marker taken off so that it compares with
//! cute-dynamic's run-time text.

use std::collections::HashMap;

/// The golden file's text.
pub const CUTE_ATOMS: &str = include_str!("golden/cute_atoms.txt");

/// CuTe's `TiledCopy::retile` of fragments (`tests/golden/cute_retile.txt`,
/// written by `benches/cute_cpp/retile.sh`; its format is at its top).
pub const CUTE_RETILE: &str = include_str!("golden/cute_retile.txt");

/// CuTe's `print_latex` of the `(2,2,1)` tiled `SM80_16x8x16_F32F16F16F32_TN`.
pub const CUTE_LATEX_MMA: &str = include_str!("golden/cute_latex_mma.tex");

/// CuTe's `print_latex` of the 32-thread `SM75_U32x4_LDSM_N` tiled copy
/// (`(32,1)` threads, `(1,8)` values).
pub const CUTE_LATEX_COPY: &str = include_str!("golden/cute_latex_copy.tex");

/// The lines of the section headed `== name` (the header excluded).
///
/// Panics when there is no such section (a test naming a block that the
/// golden file does not have is wrong).
pub fn section(name: &str) -> Vec<&'static str> {
    let mut sections: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut current = None;
    for line in CUTE_ATOMS.lines() {
        if let Some(h) = line.strip_prefix("== ") {
            current = Some(h);
            sections.entry(h).or_default();
        } else if let Some(h) = current {
            sections.entry(h).or_default().push(line);
        }
    }
    sections.remove(name).unwrap_or_else(|| panic!("no section '== {name}' in tests/golden/cute_atoms.txt"))
}

/// The value after `label: ` on the section's line that starts with it
/// (leading blanks ignored).
pub fn value(section_lines: &[&str], label: &str) -> String {
    let prefix = format!("{label}:");
    section_lines
        .iter()
        .find_map(|l| l.trim_start().strip_prefix(&prefix))
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| panic!("no '{label}:' line in {section_lines:?}"))
}

/// CuTe's text with the static marker taken off every integer (`_4` is
/// `4`); a lone `_` (CuTe's underscore, as in `(_,_,_)`) stays.
pub fn unmark(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let marker = c == '_' && b.get(i + 1).is_some_and(|n| n.is_ascii_digit() || *n == b'-');
        let after_word = i > 0 && (b[i - 1].is_ascii_alphanumeric());
        if !marker || after_word {
            out.push(c);
        }
    }
    out
}
