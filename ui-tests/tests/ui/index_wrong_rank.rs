// A coordinate whose rank or nesting differs from the layout's shape does
// not compile.
use cute_static::prelude::*;

fn main() {
    let l = layout!((4,8):(1,4));
    let _three = l.index((1, 2, 3));
    let n = layout!((4,(3,2)):(2,(8,1)));
    let _too_deep = n.index(((1, 0), 2));
}
