// CuTe's own `TiledCopy::retile` (what `retile_S` and `retile_D` give a
// fragment): the golden text that cute-dynamic's `TiledCopy::retile` is
// tested against (tests/golden/cute_retile.txt, written by retile.sh).
// Every layout is printed by CuTe's `print`, so static leaves carry CuTe's
// `_` marker; the format is described at the top of the output.
#include <cute/tensor.hpp>
#include <cute/atom/mma_atom.hpp>
#include <cute/atom/copy_atom.hpp>
#include <cute/atom/mma_traits_sm80.hpp>
#include <cute/atom/copy_traits_sm75.hpp>

#include <cstdio>

using namespace cute;

static void header() {
  std::printf(
      "# CuTe's TiledCopy::retile (ThrCopy::retile_S / retile_D), printed by CuTe itself:\n"
      "# benches/cute_cpp/retile.cpp, written by benches/cute_cpp/retile.sh.\n"
      "# One block per tiled copy:\n"
      "#   == <the C++ expression of the tiled copy>\n"
      "#   atom: <copy operation> <bits of a value>\n"
      "#   Tiler_MN: <print(Tiler_MN{})>\n"
      "#   TiledLayout_TV: <print(TiledLayout_TV{})>\n"
      "#   AtomNumVal: <size<1>(ValLayoutRef)>\n"
      "# then one line per fragment retiled:\n"
      "#   retile_D: <input layout> -> <layout of retile_D(make_tensor(ptr, input))>\n"
      "#   retile_S: <input layout> -> <layout of retile_S(make_tensor(ptr, input))>\n"
      "# (retile_S and retile_D are the same function, TiledCopy::retile). An input\n"
      "# called a fragment of an MMA is `thr_mma.partition_fragment_X(tile)`'s layout,\n"
      "# thread 0's; the fragments of the other threads have the same layout.\n"
      "# Layouts as CuTe prints them: static integers `_N`, run-time integers plain.\n"
      "# Lines starting with `#` are comments.\n");
}

template <class TiledCopy>
static void block(char const* name, char const* op, int bits, TiledCopy const&) {
  std::printf("== %s\n", name);
  std::printf("atom: %s %d\n", op, bits);
  std::printf("Tiler_MN: ");
  print(typename TiledCopy::Tiler_MN{});
  std::printf("\nTiledLayout_TV: ");
  print(typename TiledCopy::TiledLayout_TV{});
  std::printf("\nAtomNumVal: ");
  print(typename TiledCopy::AtomNumVal{});
  std::printf("\n");
}

// `retile_D` (or `retile_S`) of a tensor with `layout`, through ThrCopy as
// kernels call it.
template <class T, class TiledCopy, class Layout>
static void retile(TiledCopy const& copy, Layout const& layout, bool src = false) {
  auto thr = copy.get_slice(0);
  auto t = make_tensor(static_cast<T*>(nullptr), layout);
  std::printf("%s: ", src ? "retile_S" : "retile_D");
  print(layout);
  std::printf(" -> ");
  if (src) {
    print(thr.retile_S(t).layout());
  } else {
    print(thr.retile_D(t).layout());
  }
  std::printf("\n");
}

static auto tiled_sm80() { return make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}); }

int main() {
  header();

  // (a) The 128-bit universal copy of half_t, 16x8 threads row-major.
  {
    auto copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                                Layout<Shape<_1, _8>>{});
    block("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{}, Layout<Shape<_16,_8>,Stride<_8,_1>>{}, "
          "Layout<Shape<_1,_8>>{})",
          "UniversalCopy<uint128_t>", 16, copy);
    retile<half_t>(copy, Layout<Shape<_8, _1, _1>>{});
    retile<half_t>(copy, Layout<Shape<_8, _2, _2>>{});
    retile<half_t>(copy, Layout<Shape<_8, _4, _1>>{});
    retile<half_t>(copy, Layout<Shape<_8, _1, _3>>{});
    // The partition of a (64,128) tile, as a fragment: ((8,1),4,2).
    retile<half_t>(copy, make_layout(make_shape(make_shape(_8{}, _1{}), _4{}, _2{})));
    // Fewer values per copy than the atom moves.
    retile<half_t>(copy, Layout<Shape<_4, _2, _2>>{});
    retile<half_t>(copy, Layout<Shape<_2, _1, _1>>{});
    // More: two copies' worth in the first mode.
    retile<half_t>(copy, Layout<Shape<_16, _1, _2>>{});
    // (d) Non-compact fragments: gaps, row-major rest modes, a nested value
    // mode out of order, a broadcast (stride 0), a negative stride.
    retile<half_t>(copy, Layout<Shape<_8, _2, _2>, Stride<_1, _16, _32>>{});
    retile<half_t>(copy, Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>{});
    retile<half_t>(copy, Layout<Shape<Shape<_2, _4>, _2, _2>, Stride<Stride<_4, _1>, _8, _16>>{});
    retile<half_t>(copy, Layout<Shape<_8, _2, _2>, Stride<_2, _1, _16>>{});
    retile<half_t>(copy, Layout<Shape<_8, _2, _2>, Stride<_1, _0, _8>>{});
    retile<half_t>(copy, Layout<Shape<_8, _2, _2>, Stride<_1, _8, _m16>>{});
    // Run-time rest modes.
    retile<half_t>(copy, make_layout(make_shape(_8{}, 2, 3)));
    retile<half_t>(copy, make_layout(make_shape(_8{}, 2, 3), make_stride(_1{}, 24, 8)));
    // Rank 4 (rank 2 is refused: CuTe's "Too many modes in tiler").
    retile<half_t>(copy, Layout<Shape<_8, _2, _2, _3>>{});
  }

  auto mma = tiled_sm80();
  auto thr_mma = mma.get_slice(0);
  char const* sm80 = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{})";
  char name[512];

  // (b) ldmatrix into the MMA's A and B fragments: the kernels'
  // `smem_thr_copy_A.retile_D(tCrA)`.
  {
    auto copy = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma);
    std::snprintf(name, sizeof name, "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, %s)", sm80);
    block(name, "SM75_U32x4_LDSM_N", 16, copy);
    auto sA32 = make_tensor(static_cast<half_t*>(nullptr), Layout<Shape<_32, _16>>{});
    auto sA64 = make_tensor(static_cast<half_t*>(nullptr), Layout<Shape<_64, _32>>{});
    auto sA128 = make_tensor(static_cast<half_t*>(nullptr), Layout<Shape<_128, _64>, Stride<_64, _1>>{});
    retile<half_t>(copy, thr_mma.partition_fragment_A(sA32).layout());
    retile<half_t>(copy, thr_mma.partition_fragment_A(sA64).layout());
    retile<half_t>(copy, thr_mma.partition_fragment_A(sA128).layout());
  }
  // B of the (2,2,1) MMA has 4 values a thread, too few for ldmatrix.x4
  // (CuTe: "TiledCopy uses too few vals"); CUTLASS's SM80 GEMM example
  // permutes the MMA to a 32x32x16 tile, which gives B 8.
  auto mma32 = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
  auto thr_mma32 = mma32.get_slice(0);
  char const* sm80_32 = "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2,_2,_1>>{}, Tile<_32,_32,_16>{})";
  for (int b = 0; b < 2; ++b) {
    auto s64 = make_tensor(static_cast<half_t*>(nullptr), Layout<Shape<_64, _32>>{});
    auto s32 = make_tensor(static_cast<half_t*>(nullptr), Layout<Shape<_32, _16>>{});
    auto s128 = make_tensor(static_cast<half_t*>(nullptr), Layout<Shape<_128, _64>, Stride<_64, _1>>{});
    if (b == 0) {
      auto copy = make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma32);
      std::snprintf(name, sizeof name, "make_tiled_copy_A(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, %s)", sm80_32);
      block(name, "SM75_U32x4_LDSM_N", 16, copy);
      retile<half_t>(copy, thr_mma32.partition_fragment_A(s64).layout());
      retile<half_t>(copy, thr_mma32.partition_fragment_A(s128).layout());
    } else {
      auto copy = make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, mma32);
      std::snprintf(name, sizeof name, "make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}, %s)", sm80_32);
      block(name, "SM75_U32x4_LDSM_N", 16, copy);
      retile<half_t>(copy, thr_mma32.partition_fragment_B(s32).layout());
      retile<half_t>(copy, thr_mma32.partition_fragment_B(s64).layout());
      retile<half_t>(copy, thr_mma32.partition_fragment_B(s128).layout());
    }
  }
  // B of the unpermuted MMA through 32-bit universal copies.
  {
    auto copy = make_tiled_copy_B(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, mma);
    std::snprintf(name, sizeof name, "make_tiled_copy_B(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, %s)", sm80);
    block(name, "UniversalCopy<uint32_t>", 16, copy);
    auto sB16 = make_tensor(static_cast<half_t*>(nullptr), Layout<Shape<_16, _16>>{});
    auto sB64 = make_tensor(static_cast<half_t*>(nullptr), Layout<Shape<_64, _32>>{});
    retile<half_t>(copy, thr_mma.partition_fragment_B(sB16).layout());
    retile<half_t>(copy, thr_mma.partition_fragment_B(sB64).layout());
  }
  // The A operand through a narrower copy: 32-bit universal copies.
  {
    auto copy = make_tiled_copy_A(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, mma);
    std::snprintf(name, sizeof name, "make_tiled_copy_A(Copy_Atom<UniversalCopy<uint32_t>, half_t>{}, %s)", sm80);
    block(name, "UniversalCopy<uint32_t>", 16, copy);
    auto sA64 = make_tensor(static_cast<half_t*>(nullptr), Layout<Shape<_64, _32>>{});
    retile<half_t>(copy, thr_mma.partition_fragment_A(sA64).layout());
  }
  // The accumulators out through universal copies: retile_S of tCrC.
  {
    auto copy = make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, float>{}, mma);
    std::snprintf(name, sizeof name, "make_tiled_copy_C(Copy_Atom<UniversalCopy<uint32_t>, float>{}, %s)", sm80);
    block(name, "UniversalCopy<uint32_t>", 32, copy);
    auto gC32 = make_tensor(static_cast<float*>(nullptr), Layout<Shape<_32, _16>>{});
    auto gC64 = make_tensor(static_cast<float*>(nullptr), Layout<Shape<_64, _64>>{});
    retile<float>(copy, thr_mma.partition_fragment_C(gC32).layout(), true);
    retile<float>(copy, thr_mma.partition_fragment_C(gC64).layout(), true);
  }
  {
    auto copy = make_tiled_copy_C(Copy_Atom<UniversalCopy<uint64_t>, float>{}, mma);
    std::snprintf(name, sizeof name, "make_tiled_copy_C(Copy_Atom<UniversalCopy<uint64_t>, float>{}, %s)", sm80);
    block(name, "UniversalCopy<uint64_t>", 32, copy);
    auto gC64 = make_tensor(static_cast<float*>(nullptr), Layout<Shape<_64, _64>>{});
    retile<float>(copy, thr_mma.partition_fragment_C(gC64).layout(), true);
  }

  // (c) 32-bit copies of float, 32x8 threads column-major, 4x1 values each.
  {
    auto copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{}, Layout<Shape<_32, _8>>{},
                                Layout<Shape<_4, _1>>{});
    block("make_tiled_copy(Copy_Atom<UniversalCopy<uint32_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})",
          "UniversalCopy<uint32_t>", 32, copy);
    retile<float>(copy, Layout<Shape<_4, _1, _1>>{});
    retile<float>(copy, Layout<Shape<_4, _2, _3>>{});
    retile<float>(copy, Layout<Shape<_2, _2, _3>>{});
    retile<float>(copy, Layout<Shape<_1, _4, _2>>{});
    retile<float>(copy, Layout<Shape<_8, _1, _1>>{});
    retile<float>(copy, Layout<Shape<_4, _2, _3>, Stride<_3, _1, _2>>{});
    retile<float>(copy, Layout<Shape<_4, _2, _3>, Stride<_6, _0, _2>>{});
  }
  // The same threads with 128-bit copies (the GEMM tutorial's copy of A).
  {
    auto copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32, _8>>{},
                                Layout<Shape<_4, _1>>{});
    block("make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})",
          "UniversalCopy<uint128_t>", 32, copy);
    retile<float>(copy, Layout<Shape<_4, _1, _1>>{});
    retile<float>(copy, Layout<Shape<_4, _2, _3>>{});
    retile<float>(copy, Layout<Shape<_8, _1, _2>>{});
  }
  // Values along both modes: 8x4 threads row-major, 2x4 values each.
  {
    auto copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_8, _4>, Stride<_4, _1>>{},
                                Layout<Shape<_2, _4>>{});
    block("make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, half_t>{}, Layout<Shape<_8,_4>,Stride<_4,_1>>{}, "
          "Layout<Shape<_2,_4>>{})",
          "UniversalCopy<uint64_t>", 16, copy);
    retile<half_t>(copy, Layout<Shape<_8, _1, _1>>{});
    retile<half_t>(copy, Layout<Shape<_8, _2, _2>>{});
    retile<half_t>(copy, Layout<Shape<_4, _2, _2>>{});
    retile<half_t>(copy, Layout<Shape<_2, _2, _2>>{});
    retile<half_t>(copy, Layout<Shape<Shape<_4, _2>, _2, _2>, Stride<Stride<_2, _1>, _8, _16>>{});
  }
  return 0;
}
