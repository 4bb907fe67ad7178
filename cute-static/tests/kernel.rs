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

/// The static result prints as cute-dynamic's answer to the same
/// expression (static markers `_` removed).
macro_rules! agrees {
    ($expr:expr, $stat:expr) => {{
        let expr: String = $expr.to_string();
        let r = $stat;
        let dy = cute_dynamic::eval(&expr).unwrap_or_else(|e| panic!("{expr}: {e}"));
        assert_eq!(r.to_string().replace('_', ""), dy.to_string(), "{expr}");
    }};
}

#[test]
fn complement_onto_a_rank_4_cotarget() {
    agrees!("complement(2:1, (2,2,2,2))", complement(layout!(2:1), shape!(2, 2, 2, 2)));
    agrees!("complement((2,2):(1,8), (2,2,2,2,2))", complement(layout!((2,2):(1,8)), shape!(2, 2, 2, 2, 2)));
}

#[test]
fn coalesce_of_rank_9_and_more() {
    agrees!(
        "coalesce((2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256))",
        coalesce(layout!((2,2,2,2,2,2,2,2,2):(1,2,4,8,16,32,64,128,256)))
    );
    agrees!(
        "coalesce((2,3,1,2,2,5,2,2,2,2):(1,2,0,6,24,48,240,480,960,1920))",
        coalesce(layout!((2,3,1,2,2,5,2,2,2,2):(1,2,0,6,24,48,240,480,960,1920)))
    );
    agrees!(
        "filter((2,1,2,2,1,2,2,2,2):(1,7,2,4,0,8,0,16,32))",
        filter(layout!((2,1,2,2,1,2,2,2,2):(1,7,2,4,0,8,0,16,32)))
    );
}

// Rank 8, depth 3: every operation, without `recursion_limit`.
const L8: &str = "((2,(2,2)),2,(2,2),2,2,2,2,2):((1,(2,4)),8,(16,32),64,128,256,512,1024)";

#[test]
fn rank_8_depth_3_through_every_operation() {
    let l = layout!(((2,(2,2)),2,(2,2),2,2,2,2,2):((1,(2,4)),8,(16,32),64,128,256,512,1024));
    let t = tile!(4:2, 2:1, (2,2):(1,2), 1:1, 2:1, 1:1, 1:1, 2:1);
    let tiler = "<4:2,2:1,(2,2):(1,2),1:1,2:1,1:1,1:1,2:1>";
    assert_eq!(l.to_string().replace('_', ""), L8);
    agrees!(format!("coalesce({L8})"), coalesce(l));
    agrees!(format!("filter({L8})"), filter(l));
    agrees!(format!("flatten({L8})"), flatten(l));
    agrees!(format!("composition({L8}, (4,8):(2,32))"), composition(l, layout!((4,8):(2,32))));
    agrees!(format!("composition({L8}, {tiler})"), composition(l, t));
    agrees!(format!("complement({L8}, 4096)"), complement(l, shape!(4096)));
    agrees!(format!("left_inverse({L8})"), left_inverse(l));
    agrees!(format!("right_inverse({L8})"), right_inverse(l));
    agrees!(format!("logical_divide({L8}, {tiler})"), logical_divide(l, t));
    agrees!(format!("zipped_divide({L8}, {tiler})"), zipped_divide(l, t));
    agrees!(format!("tiled_divide({L8}, {tiler})"), tiled_divide(l, t));
    agrees!(format!("flat_divide({L8}, {tiler})"), flat_divide(l, t));
    agrees!(format!("logical_product({L8}, (2,3):(3,1))"), logical_product(l, layout!((2,3):(3,1))));
    agrees!(format!("zipped_product({L8}, (2,3):(3,1))"), zipped_product(l, layout!((2,3):(3,1))));
    agrees!(format!("tiled_product({L8}, (2,3):(3,1))"), tiled_product(l, layout!((2,3):(3,1))));
    agrees!(format!("flat_product({L8}, (2,3):(3,1))"), flat_product(l, layout!((2,3):(3,1))));
    let b = layout!((2,1,1,1,1,1,1,3):(1,0,0,0,0,0,0,2));
    let bs = "(2,1,1,1,1,1,1,3):(1,0,0,0,0,0,0,2)";
    agrees!(format!("blocked_product({L8}, {bs})"), blocked_product(l, b));
    agrees!(format!("raked_product({L8}, {bs})"), raked_product(l, b));
    assert_eq!(max_common_vector(&l, &l) as i64, cute_dynamic::max_common_vector(&l.to_dynamic(), &l.to_dynamic()));
    agrees!(format!("max_common_layout({L8}, {L8})"), max_common_layout(&l, &l));
}
