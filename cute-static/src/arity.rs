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
/// * `for_each_tuple!(wide m)` adds a fourth name per position,
///   `$m!(0 A0 S0 D0 E0, ...)`, for impls that chain a type from one
///   position to the next (see `SliceInto` in `slice.rs`).
///
/// Two forms hand the groups over already split, because a `macro_rules`
/// pattern cannot split a list itself (`$(g,)* last` is a local ambiguity
/// to the matcher): without them every such callback needs a recursion of
/// its own.
///
/// * `for_each_tuple!(last m)` calls `$m!([0 A0 S0 D0, ...,] n An Sn Dn)`
///   once per arity, the last group apart, for impls that treat the last
///   mode differently (`Congruent` in `layout.rs`, `Coord` in `coord.rs`).
/// * `for_each_tuple!(split m)` calls
///   `$m!([0 A0 S0 D0, ..., k Ak Sk Dk] [k+1 ..., ..., n An Sn Dn])` once
///   per arity n+1 and per k ≤ n: a tuple tiler's modes, then the modes of
///   the layout it leaves untouched, maybe none (`DivideLeaves` in
///   `divide/mixed.rs`, `TryComposeCute` in `composition/mixed.rs`,
///   `ModeProductBy` in `product/mixed.rs`).
///
/// They are two because neither serves the other's callbacks as they are:
/// `split` calls n+1 times per arity where `last` callbacks want one call,
/// and keeps the tiled modes in one list where those want the last apart.
///
/// Both take an optional `[tokens]` like the plain form.
macro_rules! for_each_tuple {
    (std $m:ident $([$($pre:tt)*])?) => {
        for_each_tuple!(@list std narrow each $m [$($($pre)*)?]);
    };
    (wide $m:ident $([$($pre:tt)*])?) => {
        for_each_tuple!(@list all wide each $m [$($($pre)*)?]);
    };
    (last $m:ident $([$($pre:tt)*])?) => {
        for_each_tuple!(@list all narrow last $m [$($($pre)*)?]);
    };
    (split $m:ident $([$($pre:tt)*])?) => {
        for_each_tuple!(@list all narrow split $m [$($($pre)*)?]);
    };
    ($m:ident $([$($pre:tt)*])?) => {
        for_each_tuple!(@list all narrow each $m [$($($pre)*)?]);
    };
    (@list $which:ident $w:ident $how:ident $m:ident [$($pre:tt)*]) => {
        for_each_tuple!(@cut $which $w $how $m [$($pre)*] [
            (0 A0 S0 D0 E0) (1 A1 S1 D1 E1) (2 A2 S2 D2 E2) (3 A3 S3 D3 E3)
            (4 A4 S4 D4 E4) (5 A5 S5 D5 E5) (6 A6 S6 D6 E6) (7 A7 S7 D7 E7)
            (8 A8 S8 D8 E8) (9 A9 S9 D9 E9) (10 A10 S10 D10 E10) (11 A11 S11 D11 E11)
        ] [
            (12 A12 S12 D12 E12) (13 A13 S13 D13 E13) (14 A14 S14 D14 E14) (15 A15 S15 D15 E15)
        ]);
    };
    (@cut all $w:ident $how:ident $m:ident [$($pre:tt)*] [$($a:tt)*] [$($b:tt)*]) => {
        for_each_tuple!(@width $w $how $m [$($pre)*] [] [$($a)* $($b)*]);
    };
    (@cut std $w:ident $how:ident $m:ident [$($pre:tt)*] [$($a:tt)*] [$($b:tt)*]) => {
        for_each_tuple!(@width $w $how $m [$($pre)*] [] [$($a)*]);
    };
    (@width wide $how:ident $m:ident [$($pre:tt)*] [] [$($g:tt)*]) => {
        for_each_tuple!(@step $how $m [$($pre)*] [] [$($g)*]);
    };
    // Narrow: drop each position's fourth name.
    (@width narrow $how:ident $m:ident [$($pre:tt)*] [$($out:tt)*]
        [($i:tt $A:ident $S:ident $D:ident $E:ident) $($rest:tt)*]) => {
        for_each_tuple!(@width narrow $how $m [$($pre)*] [$($out)* ($i $A $S $D)] [$($rest)*]);
    };
    (@width narrow $how:ident $m:ident [$($pre:tt)*] [$($out:tt)*] []) => {
        for_each_tuple!(@step $how $m [$($pre)*] [] [$($out)*]);
    };
    // One arity per step: the groups before its last, then its last.
    (@step $how:ident $m:ident [$($pre:tt)*] [$(($($d:tt)*))*] [($($n:tt)*) $($rest:tt)*]) => {
        for_each_tuple!(@call $how $m [$($pre)*] [$(($($d)*))*] ($($n)*));
        for_each_tuple!(@step $how $m [$($pre)*] [$(($($d)*))* ($($n)*)] [$($rest)*]);
    };
    (@step $how:ident $m:ident [$($pre:tt)*] [$($d:tt)*] []) => {};
    (@call each $m:ident [$($pre:tt)*] [$(($($d:tt)*))*] ($($n:tt)*)) => {
        $m!($($pre)* $($($d)*,)* $($n)*);
    };
    (@call last $m:ident [$($pre:tt)*] [$(($($d:tt)*))*] ($($n:tt)*)) => {
        $m!($($pre)* [$($($d)*,)*] $($n)*);
    };
    (@call split $m:ident [$($pre:tt)*] [$($d:tt)*] ($($n:tt)*)) => {
        for_each_tuple!(@prefix $m [$($pre)*] [] [$($d)* ($($n)*)]);
    };
    // One prefix per step, the shortest first: the groups moved so far and
    // the next one, then the groups left.
    (@prefix $m:ident [$($pre:tt)*] [$(($($p:tt)*))*] [($($n:tt)*) $(($($r:tt)*))*]) => {
        $m!($($pre)* [$($($p)*,)* $($n)*] [$($($r)*),*]);
        for_each_tuple!(@prefix $m [$($pre)*] [$(($($p)*))* ($($n)*)] [$(($($r)*))*]);
    };
    (@prefix $m:ident [$($pre:tt)*] [$($p:tt)*] []) => {};
}
