// A layout assembled by hand from non-congruent trees does not compile.
use cute_static::prelude::*;

fn main() {
    let _rank = Layout::<Shape![4, 8], Stride![1, 4, 32]>::from_parts(shape!(4, 8), stride!(1, 4, 32));
    let _nesting = Layout::<Shape![4, (3, 2)], Stride![2, 8]>::from_parts(shape!(4, (3, 2)), stride!(2, 8));
}
