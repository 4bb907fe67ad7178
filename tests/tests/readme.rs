//! The root README carries cute-static's README (the crate documentation,
//! whose examples run as doctests) word for word, so the two cannot drift.

#[test]
fn root_readme_contains_the_cute_static_readme() {
    let root = include_str!("../../README.md");
    let static_readme = include_str!("../../cute-static/README.md");
    let body = static_readme.trim();
    assert!(!body.is_empty());
    assert!(root.contains(body), "README.md no longer contains cute-static/README.md verbatim: copy it again");
}
