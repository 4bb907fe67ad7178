//! Every operation of the algebra on small layouts made from the bytes, each
//! accepted result checked against its post-conditions by brute force and
//! each refusal against the documented errors (`cute_tests::check`, the
//! checkers of the property tests). A wrong answer is a failure, not only a
//! panic.

#![no_main]

use cute_tests::{check, fuzz_input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((a, b, m)) = fuzz_input::layouts(data) else { return };
    if let Err(why) = check::every_operation(&a, &b, m) {
        panic!("{why}");
    }
});
