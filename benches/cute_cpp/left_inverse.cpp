// CuTe's own `left_inverse` of a list of layouts: the golden text that
// cute-dynamic's `left_inverse` is tested against
// (tests/golden/cute_left_inverse.txt, written by left_inverse.sh, which also
// adds CuTe's Python model pycute's answer to each line).
//
// CuTe's `left_inverse` needs static strides (a static_assert); shapes may be
// `int`. Injective layouts, layouts that are not injective, strides that do
// and do not nest, with static and `int` shapes. Each line is
//
//   <CuTe's print of L> TAB <CuTe's print of left_inverse(L)>
//
// and `-` in place of the answer for the layouts CuTe refuses at compile
// time ("Left inverse divisibility condition"): those are printed without
// calling `left_inverse`, and `left_inverse.sh` checks that each of them
// really fails to compile (built with -DREFUSED=i for the i-th of them).
#include <cute/layout.hpp>

#include <cstdio>

using namespace cute;

// A static leaf.
template <int N>
constexpr Int<N> S{};

template <class L>
static void show(L const& l) {
  print(l);
  std::printf("\t");
  print(left_inverse(l));
  std::printf("\n");
}

// A layout CuTe refuses: its text, and `-`.
static int refused_count = 0;
template <class L>
static void refused(L const& l) {
  print(l);
  std::printf("\t-\n");
#ifdef REFUSED
  if (refused_count == REFUSED) print(left_inverse(l));
#endif
  ++refused_count;
}

#define LAY(shape, stride) make_layout(make_shape shape, make_stride stride)

int main() {
  // The paper's Table 6 (the erratum row last).
  show(LAY((S<4>, S<8>), (S<1>, S<4>)));
  show(LAY((S<4>, S<8>), (S<8>, S<1>)));
  show(LAY((S<3>, S<7>, S<5>), (S<5>, S<15>, S<1>)));
  show(LAY((S<4>, S<8>), (S<1>, S<5>)));
  show(LAY((S<4>, make_shape(S<4>, S<2>)), (S<4>, make_stride(S<1>, S<16>))));
  show(LAY((make_shape(S<2>, S<2>), make_shape(S<4>, S<2>)), (make_stride(S<1>, S<8>), make_stride(S<2>, S<16>))));
  show(LAY((make_shape(S<2>, S<2>), make_shape(S<2>, S<4>)), (make_stride(S<0>, S<2>), make_stride(S<0>, S<4>))));
  show(LAY((make_shape(S<2>, S<2>), make_shape(S<2>, S<4>)), (make_stride(S<0>, S<1>), make_stride(S<0>, S<2>))));

  // Not injective, strides that do not nest.
  show(LAY((S<12>, S<2>), (S<1>, S<9>)));
  show(LAY((S<8>, S<4>, S<3>), (S<48>, S<8>, S<4>)));
  show(LAY((S<4>, S<8>), (S<32>, S<32>)));
  show(LAY((S<8>, S<8>), (S<8>, S<2>)));
  show(LAY((S<2>, S<2>), (S<1>, S<1>)));
  show(LAY((S<3>, S<2>), (S<1>, S<1>)));
  show(LAY((S<5>, S<4>), (S<1>, S<1>)));
  show(LAY((S<3>, S<2>), (S<2>, S<2>)));
  show(LAY((S<3>, S<2>), (S<4>, S<4>)));
  show(LAY((S<6>, S<2>), (S<12>, S<12>)));
  show(LAY((S<4>, S<3>), (S<10>, S<10>)));
  show(LAY((S<6>, S<3>), (S<10>, S<10>)));
  show(LAY((S<5>, S<2>), (S<1>, S<2>)));
  show(LAY((S<4>, S<3>), (S<2>, S<6>)));
  show(LAY((S<3>, S<4>), (S<4>, S<8>)));
  show(LAY((S<4>, S<3>), (S<3>, S<6>)));
  show(LAY((S<5>, S<4>), (S<4>, S<12>)));
  show(LAY((S<5>, S<3>), (S<4>, S<12>)));
  show(LAY((S<2>, S<3>), (S<2>, S<1>)));
  show(LAY((S<2>, S<5>), (S<8>, S<2>)));
  show(LAY((S<2>, S<4>), (S<2>, S<1>)));
  show(LAY((S<4>, S<4>), (S<12>, S<6>)));
  show(LAY((S<5>, S<5>), (S<12>, S<3>)));
  show(LAY((S<6>, S<6>, S<2>), (S<2>, S<4>, S<4>)));
  show(LAY((S<5>, S<2>, S<5>), (S<2>, S<4>, S<8>)));
  show(LAY((S<4>, S<3>, S<6>), (S<2>, S<8>, S<6>)));
  show(LAY((S<5>, S<5>, S<2>), (S<2>, S<2>, S<4>)));
  show(LAY((S<3>, S<4>, S<4>), (S<6>, S<6>, S<1>)));
  show(LAY((S<5>, S<4>, S<5>), (S<12>, S<6>, S<2>)));
  show(LAY((S<4>, S<6>, S<5>), (S<2>, S<1>, S<0>)));
  show(LAY((S<6>, S<5>, S<5>), (S<12>, S<2>, S<6>)));
  show(LAY((S<4>, S<6>, S<6>), (S<0>, S<10>, S<5>)));
  show(LAY((S<4>, S<3>, S<2>), (S<6>, S<3>, S<9>)));
  show(LAY((S<6>, S<2>, S<6>), (S<1>, S<12>, S<6>)));
  show(LAY((S<4>, S<3>, S<1>), (S<6>, S<6>, S<1>)));
  show(LAY((S<5>, S<4>, S<6>, S<4>), (S<0>, S<3>, S<12>, S<6>)));

  // Not injective through stride-0 modes only (the other strides nest).
  show(LAY((S<3>, S<6>), (S<10>, S<0>)));
  show(LAY((S<6>, S<6>), (S<0>, S<3>)));
  show(LAY((S<2>, S<6>), (S<0>, S<2>)));
  show(LAY((S<5>, S<3>), (S<1>, S<0>)));
  show(make_layout(S<4>, S<0>));
  show(make_layout(make_shape(S<7>), make_stride(S<0>)));
  show(LAY((S<1>, S<2>), (S<0>, S<0>)));
  show(make_layout(S<1>, S<0>));

  // Injective.
  show(LAY((S<4>, S<4>), (S<8>, S<2>)));
  show(LAY((S<2>, S<5>), (S<1>, S<8>)));
  show(LAY((S<2>, S<2>), (S<4>, S<2>)));
  show(LAY((S<6>, S<3>), (S<12>, S<1>)));
  show(LAY((S<6>, S<2>), (S<3>, S<1>)));
  show(LAY((S<4>, S<6>), (S<1>, S<11>)));
  show(LAY((S<3>, S<3>), (S<11>, S<1>)));
  show(LAY((S<5>, S<1>), (S<12>, S<4>)));
  show(make_layout(S<4>, S<2>));
  show(LAY((S<8>, S<2>, S<1>), (S<25>, S<200>, S<0>)));

  // Negative strides.
  show(make_layout(S<4>, S<-1>));
  show(LAY((S<2>, S<4>), (S<-1>, S<-2>)));
  show(LAY((S<2>, S<2>), (S<-2>, S<-2>)));

  // `int` shapes (CuTe does not coalesce modes whose shapes are run-time
  // values).
  show(LAY((12, 2), (S<1>, S<9>)));
  show(LAY((8, 4, 3), (S<48>, S<8>, S<4>)));
  show(LAY((4, 8), (S<32>, S<32>)));
  show(LAY((8, 8), (S<8>, S<2>)));
  show(LAY((2, 2), (S<1>, S<1>)));
  show(LAY((6, 3), (S<10>, S<10>)));
  show(LAY((4, 3), (S<2>, S<6>)));
  show(LAY((2, 5), (S<8>, S<2>)));
  show(LAY((5, 5, 2), (S<2>, S<2>, S<4>)));
  show(LAY((4, 8), (S<1>, S<5>)));
  show(LAY((4, 2), (S<1>, S<4>)));
  show(LAY((3, 7, 5), (S<5>, S<15>, S<1>)));
  show(LAY((4, make_shape(4, 2)), (S<4>, make_stride(S<1>, S<16>))));
  show(LAY((S<12>, 2), (S<1>, S<9>)));
  show(LAY((4, S<8>), (S<32>, S<32>)));
  show(LAY((5, 3), (S<1>, S<0>)));
  show(make_layout(4, S<0>));

  // Refused by CuTe: a stride is not a multiple of the product of the
  // shapes before it.
  refused(LAY((S<3>, S<2>), (S<2>, S<3>)));
  refused(LAY((S<2>, S<3>), (S<5>, S<3>)));
  refused(LAY((S<4>, S<3>, S<4>), (S<6>, S<5>, S<1>)));
  refused(LAY((S<2>, S<3>, S<3>), (S<1>, S<5>, S<2>)));
  refused(LAY((S<3>, S<2>, S<5>), (S<8>, S<12>, S<1>)));
  refused(LAY((S<4>, S<3>, S<4>), (S<11>, S<7>, S<1>)));
  refused(LAY((S<2>, S<2>, S<3>), (S<3>, S<8>, S<4>)));
  refused(LAY((S<2>, S<6>), (S<9>, S<10>)));
  refused(LAY((S<8>, S<2>, S<1>), (S<25>, S<26>, S<0>)));
  refused(LAY((12, 2), (S<2>, S<9>)));
  return 0;
}
