//! The one arity list: every impl for tuples in this crate is generated
//! from [`for_each_tuple!`], so every trait knows the same tuples (ranks
//! 1 to 16, cute-dynamic's `MAX_MODES`).

/// Invokes the macro `$m` once per tuple arity, 1 to 16, with one group per
/// position: `$m!(0 A0 S0 D0, 1 A1 S1 D1, ...)` (the index, then names for
/// an element, a shape and a stride).
///
/// * `for_each_tuple!(m[tokens])` puts `tokens` in front of the groups, for
///   a callback that nests another arity (see `FlatTuple` in
///   `coalesce.rs`).
/// * `for_each_tuple!(std m)` stops at 12, the largest tuple std implements
///   `Debug`, `Eq` and `Default` for, for traits that need those.
macro_rules! for_each_tuple {
    (std $m:ident $([$($pre:tt)*])?) => {
        for_each_tuple!(@list std $m [$($($pre)*)?]);
    };
    ($m:ident $([$($pre:tt)*])?) => {
        for_each_tuple!(@list all $m [$($($pre)*)?]);
    };
    (@list $which:ident $m:ident [$($pre:tt)*]) => {
        for_each_tuple!(@cut $which $m [$($pre)*] [
            (0 A0 S0 D0) (1 A1 S1 D1) (2 A2 S2 D2) (3 A3 S3 D3)
            (4 A4 S4 D4) (5 A5 S5 D5) (6 A6 S6 D6) (7 A7 S7 D7)
            (8 A8 S8 D8) (9 A9 S9 D9) (10 A10 S10 D10) (11 A11 S11 D11)
        ] [
            (12 A12 S12 D12) (13 A13 S13 D13) (14 A14 S14 D14) (15 A15 S15 D15)
        ]);
    };
    (@cut all $m:ident [$($pre:tt)*] [$($a:tt)*] [$($b:tt)*]) => {
        for_each_tuple!(@step $m [$($pre)*] [] [$($a)* $($b)*]);
    };
    (@cut std $m:ident [$($pre:tt)*] [$($a:tt)*] [$($b:tt)*]) => {
        for_each_tuple!(@step $m [$($pre)*] [] [$($a)*]);
    };
    (@step $m:ident [$($pre:tt)*] [$(($($d:tt)*))*] [($($n:tt)*) $($rest:tt)*]) => {
        $m!($($pre)* $($($d)*,)* $($n)*);
        for_each_tuple!(@step $m [$($pre)*] [$(($($d)*))* ($($n)*)] [$($rest)*]);
    };
    (@step $m:ident [$($pre:tt)*] [$($d:tt)*] []) => {};
}
