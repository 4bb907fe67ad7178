//! The fuzz target `algebra`'s checks in the normal test suite: random
//! bytes make two small layouts (`cute_tests::fuzz_input`), and every
//! operation of the algebra on them is checked against its post-conditions
//! (`cute_tests::check::every_operation`). Regressions found by fuzzing are
//! kept, by concept, in the other test files.

use cute_tests::{check, fuzz_input};
use proptest::prelude::*;
use proptest::test_runner::Config;

fn config() -> Config {
    Config { failure_persistence: None, ..Config::with_cases(1500) }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_operation_meets_its_post_conditions(data in prop::collection::vec(any::<u8>(), 0..24)) {
        if let Some((a, b, m)) = fuzz_input::layouts(&data) {
            check::every_operation(&a, &b, m).map_err(TestCaseError::fail)?;
        }
    }
}
