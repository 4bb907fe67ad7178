// CuTe's own printing of its MMA and copy atoms, tiled MMAs and tiled copies:
// the golden text that cute-dynamic's atom layer is tested against
// (tests/golden/cute_atoms.txt, written by atoms.sh). Every layout is printed
// by CuTe's `print`, so static leaves carry CuTe's `_` marker.
//
//   atoms               the text, one `== name` section per block
//   atoms latex-mma     print_latex of the (2,2,1) tiled SM80_16x8x16 MMA
//   atoms latex-copy    print_latex of the 32-thread LDSM tiled copy (source
//                       and destination partitions differ)
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm70.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>
#include <cute/atom/copy_traits_sm75.hpp>
#include <cute/atom/copy_traits_sm80.hpp>

#include <cstdio>
#include <cstring>

using namespace cute;

// A block's header: tests find each block by its name.
static void section(char const* name) { std::printf("== %s\n", name); }

template <class T>
static void line(char const* label, T const& v) {
  std::printf("%s: ", label);
  print(v);
  std::printf("\n");
}

// The tiled MMA's layouts, as CuTe's docs (0t_mma_atom.md) read them.
template <class TiledMma>
static void tiled_mma_layouts(TiledMma const& mma) {
  print(mma);
  line("get_layoutA_TV", mma.get_layoutA_TV());
  line("get_layoutB_TV", mma.get_layoutB_TV());
  line("get_layoutC_TV", mma.get_layoutC_TV());
  line("tile_size_mnk", make_shape(tile_size<0>(mma), tile_size<1>(mma), tile_size<2>(mma)));
  line("thr_layout_vmnk", mma.get_thr_layout_vmnk());
  // Each thread's (V,M,N,K) coordinate, as ThrMMA holds it.
  for (int t : {0, 1, 31, 32, 64, 127}) {
    if (t < size(mma)) {
      std::printf("get_slice(%d).thr_vmnk: ", t);
      print(mma.get_thr_layout_vmnk().get_flat_coord(t));
      std::printf("\n");
    }
  }
}

template <class TiledCopy>
static void tiled_copy_layouts(TiledCopy const& copy) {
  print(copy);
  line("get_layoutS_TV", copy.get_layoutS_TV());
  line("get_layoutD_TV", copy.get_layoutD_TV());
  line("Tiler_MN", typename TiledCopy::Tiler_MN{});
}

using SM90_64x8x16_KK = SM90_64x8x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>;

static auto tiled_sm80() { return make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}); }

static auto tiled_copy_ldsm() {
  return make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32, _1>>{}, Layout<Shape<_1, _8>>{});
}

static auto tiled_copy_universal() {
  return make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                         Layout<Shape<_1, _8>>{});
}

int main(int argc, char** argv) {
  char const* what = argc > 1 ? argv[1] : "atoms";
  if (!std::strcmp(what, "latex-mma")) {
    print_latex(tiled_sm80());
    return 0;
  }
  if (!std::strcmp(what, "latex-copy")) {
    print_latex(tiled_copy_ldsm());
    return 0;
  }

  section("MMA_Atom<SM70_8x8x4_F32F16F16F32_NT>");
  print(MMA_Atom<SM70_8x8x4_F32F16F16F32_NT>{});
  section("MMA_Atom<SM80_16x8x8_F32F16F16F32_TN>");
  print(MMA_Atom<SM80_16x8x8_F32F16F16F32_TN>{});
  section("MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>");
  print(MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>{});
  section("MMA_Atom<SM90_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>>");
  print(MMA_Atom<SM90_64x8x16_KK>{});
  section("MMA_Atom<UniversalFMA<float,float,float,float>>");
  print(MMA_Atom<UniversalFMA<float, float, float, float>>{});

  // The shared-memory layout atoms GMMA reads (swizzled, in elements).
  section("GMMA shared-memory layout atoms, half_t");
  line("GMMA::Layout_K_INTER_Atom<half_t>", GMMA::Layout_K_INTER_Atom<half_t>{});
  line("GMMA::Layout_K_SW32_Atom<half_t>", GMMA::Layout_K_SW32_Atom<half_t>{});
  line("GMMA::Layout_K_SW64_Atom<half_t>", GMMA::Layout_K_SW64_Atom<half_t>{});
  line("GMMA::Layout_K_SW128_Atom<half_t>", GMMA::Layout_K_SW128_Atom<half_t>{});
  line("GMMA::Layout_MN_INTER_Atom<half_t>", GMMA::Layout_MN_INTER_Atom<half_t>{});
  line("GMMA::Layout_MN_SW32_Atom<half_t>", GMMA::Layout_MN_SW32_Atom<half_t>{});
  line("GMMA::Layout_MN_SW64_Atom<half_t>", GMMA::Layout_MN_SW64_Atom<half_t>{});
  line("GMMA::Layout_MN_SW128_Atom<half_t>", GMMA::Layout_MN_SW128_Atom<half_t>{});

  // The same, position-independent: the swizzle on element offsets (CuTe's
  // swizzle above acts on byte addresses of the shared-memory pointer).
  section("GMMA shared-memory layout atoms, position-independent");
  line("GMMA::Layout_K_INTER_Atom<half_t>", as_position_independent_swizzle_layout(GMMA::Layout_K_INTER_Atom<half_t>{}));
  line("GMMA::Layout_K_SW32_Atom<half_t>", as_position_independent_swizzle_layout(GMMA::Layout_K_SW32_Atom<half_t>{}));
  line("GMMA::Layout_K_SW64_Atom<half_t>", as_position_independent_swizzle_layout(GMMA::Layout_K_SW64_Atom<half_t>{}));
  line("GMMA::Layout_K_SW128_Atom<half_t>", as_position_independent_swizzle_layout(GMMA::Layout_K_SW128_Atom<half_t>{}));
  line("GMMA::Layout_MN_INTER_Atom<half_t>", as_position_independent_swizzle_layout(GMMA::Layout_MN_INTER_Atom<half_t>{}));
  line("GMMA::Layout_MN_SW32_Atom<half_t>", as_position_independent_swizzle_layout(GMMA::Layout_MN_SW32_Atom<half_t>{}));
  line("GMMA::Layout_MN_SW64_Atom<half_t>", as_position_independent_swizzle_layout(GMMA::Layout_MN_SW64_Atom<half_t>{}));
  line("GMMA::Layout_MN_SW128_Atom<half_t>", as_position_independent_swizzle_layout(GMMA::Layout_MN_SW128_Atom<half_t>{}));
  line("GMMA::Layout_K_SW128_Atom<float>", as_position_independent_swizzle_layout(GMMA::Layout_K_SW128_Atom<float>{}));
  line("GMMA::Layout_MN_SW32_Atom<float>", as_position_independent_swizzle_layout(GMMA::Layout_MN_SW32_Atom<float>{}));
  line("GMMA::Layout_K_SW64_Atom<uint8_t>", as_position_independent_swizzle_layout(GMMA::Layout_K_SW64_Atom<uint8_t>{}));
  line("GMMA::Layout_MN_SW128_Atom<double>", as_position_independent_swizzle_layout(GMMA::Layout_MN_SW128_Atom<double>{}));

  section("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
  print(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{});
  section("Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>");
  print(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{});
  section("Copy_Atom<UniversalCopy<uint128_t>, half_t>");
  print(Copy_Atom<UniversalCopy<uint128_t>, half_t>{});

  section("make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})");
  tiled_mma_layouts(tiled_sm80());
  // CuTe's docs (0t_mma_atom.md): the SM70 quadpair atom, 2x2 n-major, then
  // a 32x32x4 tile, then a permutation of M.
  section("make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{})");
  tiled_mma_layouts(make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2, _2>, Stride<_2, _1>>{}));
  section("make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{}, Tile<_32,_32,_4>{})");
  tiled_mma_layouts(
      make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2, _2>, Stride<_2, _1>>{}, Tile<_32, _32, _4>{}));
  section(
      "make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2,_2>,Stride<_2,_1>>{}, "
      "Tile<Layout<Shape<_4,_4,_2>,Stride<_1,_8,_4>>,_32,_4>{})");
  tiled_mma_layouts(make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_2, _2>, Stride<_2, _1>>{},
                                   Tile<Layout<Shape<_4, _4, _2>, Stride<_1, _8, _4>>, _32, _4>{}));
  // The GEMM tutorial's (0x_gemm_tutorial.md) 16x16 UniversalFMA.
  section("make_tiled_mma(UniversalFMA<float,float,float>{}, Layout<Shape<_16,_16,_1>>{})");
  tiled_mma_layouts(make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>>{}));
  // A lone quadpair (print_latex(MMA_Atom) draws this): its layouts index
  // all 32 lanes of the warp, 8 of them working.
  section("make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{})");
  tiled_mma_layouts(make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}));
  // Three quadpairs along M: CuTe's C layout leaves elements of the tile
  // out (counted here), which cute-dynamic refuses.
  section("make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_3,_1,_1>>{})");
  {
    auto mma = make_tiled_mma(SM70_8x8x4_F32F16F16F32_NT{}, Layout<Shape<_3, _1, _1>>{});
    auto c = mma.get_layoutC_TV();
    line("get_layoutC_TV", c);
    line("tile_size_mnk", tile_shape(mma));
    int const cells = size(tile_shape(mma)) / size<2>(tile_shape(mma));
    int missed = 0;
    for (int k = 0; k < cells; ++k) {
      bool reached = false;
      for (int i = 0; i < size(c) && !reached; ++i) reached = c(i) == k;
      missed += !reached;
    }
    std::printf("C elements no (thread, value) reaches: %d of %d\n", missed, cells);
  }
  // Atoms along K: the C elements are shared by the threads of the K atoms.
  section("make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_1,_1,_2>>{})");
  tiled_mma_layouts(make_tiled_mma(SM80_16x8x8_F32F16F16F32_TN{}, Layout<Shape<_1, _1, _2>>{}));
  section("make_tiled_mma(SM90_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>{}, Layout<Shape<_2,_1,_1>>{})");
  tiled_mma_layouts(make_tiled_mma(SM90_64x8x16_KK{}, Layout<Shape<_2, _1, _1>>{}));

  section(
      "make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
      "Layout<Shape<_1,_8>>{})");
  tiled_copy_layouts(tiled_copy_universal());
  // The GEMM tutorial's copy of A (0x_gemm_tutorial.md, TA = float).
  section("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})");
  tiled_copy_layouts(
      make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32, _8>>{}, Layout<Shape<_4, _1>>{}));
  // A copy whose source and destination partitions differ.
  section("make_tiled_copy(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, Layout<Shape<_32,_1>>{}, Layout<Shape<_1,_8>>{})");
  tiled_copy_layouts(tiled_copy_ldsm());
  section("make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}))");
  tiled_copy_layouts(make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, tiled_sm80()));
  return 0;
}
