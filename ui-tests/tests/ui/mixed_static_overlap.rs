// Two static modes of a layout with a run-time leaf overlap (4:1 and 4:2:
// coordinates (2,0) and (0,1) meet): complement and left_inverse are still
// compile errors, whatever the run-time leaf is.
use cute_static::prelude::*;

fn main() {
    let m = 4usize;
    let _c = complement(layout!((4,{m},4):(1,64,2)), shape!(1024));
    let _l = left_inverse(layout!((4,4,{m}):(1,2,16)));
}
