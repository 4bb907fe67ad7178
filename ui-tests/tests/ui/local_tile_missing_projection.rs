// CuTe's sgemm passes one (BLK_M,BLK_N,BLK_K) tiler and one (bx,by,_)
// coordinate to local_tile with a projection; without the projection the
// tiler has one mode more than the (M,K) tensor.
use cute_static::prelude::*;

fn main() {
    let (m, k) = (256usize, 64usize);
    let a = vec![0f32; m * k];
    let ma = make_tensor(&a[..], layout!(({m},{k}):(1,{m})));
    let _ga = local_tile(ma, shape!(128, 128, 8), crd!(1usize, 0usize, _));
}
