//! The expression parser and evaluator on arbitrary text: never a panic;
//! an accepted expression prints a value that evaluates to itself (a
//! layout, tuple, tiler or integer is its own expression).

#![no_main]

use cute_dynamic::{Value, eval};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(v) = eval(text) else { return };
    if matches!(v, Value::Layout(_) | Value::Tuple(_) | Value::Tiler(_) | Value::Int(_)) {
        let printed = v.to_string();
        let again = eval(&printed).unwrap_or_else(|e| panic!("{text:?} = {printed}, which does not evaluate: {e}"));
        assert_eq!(again, v, "{text:?} = {printed}, which evaluates to {again}");
    }
});
