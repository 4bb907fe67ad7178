//! Typical kernel code: tile a 128×64 static tile among 32 threads that
//! hold 4×4 values each, with logical_divide, zipped_divide and
//! composition. It must compile without raising `recursion_limit`.

use cute_static::prelude::*;

#[test]
fn tile_128x64_into_32_threads_of_4x4_values() {
    // Column-major 128×64 tile of shared memory.
    let smem = layout!((128,64):(1,128));
    // 4×4 value blocks: ((values), (blocks)).
    let blocks = zipped_divide(smem, shape!(4, 4));
    assert_eq!(blocks.to_string(), "((_4,_4),(_32,_16)):((_1,_128),(_4,_512))");
    // 32 threads as an 8×4 grid over the 32×16 grid of blocks.
    let per_thread = logical_divide(smem, tile!((4,8):(1,16), (4,4):(1,16)));
    let dy = cute_dynamic::eval("logical_divide((128,64):(1,128), <(4,8):(1,16),(4,4):(1,16)>)").unwrap();
    assert_eq!(per_thread.to_string().replace('_', ""), dy.to_string());
    // A thread-value layout: (thread, value) -> offset.
    let tv = composition(smem, layout!(((8,4),(4,4)):((4,512),(1,128))));
    assert_eq!(tv.to_string(), "((_8,_4),(_4,_4)):((_4,_512),(_1,_128))");
    let t = 13usize;
    let v = 5usize;
    assert_eq!(tv.index((t, v)), smem.index((4 * (t % 8) + v % 4, 4 * (t / 8) + v / 4)));
}

#[test]
fn large_values_without_recursion_limit() {
    let a = layout!((256,256):(1,256));
    let r = composition(a, tile!(128:2, 64:4));
    assert_eq!(r.to_string(), "(_128,_64):(_2,_1024)");
    let c = complement(layout!((16,4):(1,4096)), shape!(65536));
    assert_eq!(c.to_string(), "(_256,_4):(_16,_16384)");
    let d = logical_divide(layout!(65536:1), layout!((4,8):(1,16)));
    assert_eq!(d.to_string(), "((_4,_8),(_4,_512)):((_1,_16),(_4,_128))");
}
