// CuTe C++ timing the operations that benches/benches/dynamic_ops.rs times,
// for the side-by-side comparison of `run.sh`. Leaves that CuTe allows to be
// run-time integers are read through `volatile`, so nothing is folded at
// compile time; CuTe needs static strides for complement and the products,
// and a static tiler for logical_divide, so those parts are static here.
#include <cute/layout.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace cute;

// Forces a value to memory, as `black_box` does on the Rust side.
template <class T>
inline void keep(T const& v) {
  asm volatile("" : : "g"(&v) : "memory");
}

// Prints the result once, then the best of three timed rounds of `n` calls.
template <class F>
void bench(char const* name, long n, F&& f) {
  std::printf("%s = ", name);
  print(f());
  std::printf("\n");
  double best = 1e30;
  for (int round = 0; round < 3; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; ++i) {
      auto r = f();
      keep(r);
    }
    auto t1 = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / n;
    best = ns < best ? ns : best;
  }
  std::printf("  CuTe C++: %.2f ns\n", best);
}

int main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 20000000;
  volatile int v[16] = {10, 2, 16, 4, 5, 4, 1, 5, 2, 4, 24, 9, 4, 8, 3, 59};

  bench("composition((10,2):(16,4), (5,4):(1,5))", n, [&] {
    auto a = make_layout(make_shape(int(v[0]), int(v[1])), make_stride(int(v[2]), int(v[3])));
    auto b = make_layout(make_shape(int(v[4]), int(v[5])), make_stride(int(v[6]), int(v[7])));
    return composition(a, b);
  });

  bench("complement((2,4):(1,6), 24)", n, [&] {
    auto a = make_layout(make_shape(int(v[8]), int(v[9])), make_stride(Int<1>{}, Int<6>{}));
    return complement(a, int(v[10]));
  });

  bench("logical_divide((9,(4,8)):(59,(13,1)), <3:3, (2,4):(1,8)>)", n, [&] {
    auto a = make_layout(make_shape(int(v[11]), make_shape(int(v[12]), int(v[13]))),
                         make_stride(int(v[15]), make_stride(13, 1)));
    auto t = make_tile(Layout<_3, _3>{}, Layout<Shape<_2, _4>, Stride<_1, _8>>{});
    return logical_divide(a, t);
  });

  bench("zipped_divide((9,(4,8)):(59,(13,1)), <3:3, (2,4):(1,8)>)", n, [&] {
    auto a = make_layout(make_shape(int(v[11]), make_shape(int(v[12]), int(v[13]))),
                         make_stride(int(v[15]), make_stride(13, 1)));
    auto t = make_tile(Layout<_3, _3>{}, Layout<Shape<_2, _4>, Stride<_1, _8>>{});
    return zipped_divide(a, t);
  });

  bench("blocked_product((3,4):(4,1), (2,5):(1,2))", n, [&] {
    auto a = make_layout(make_shape(int(v[14]), int(v[12])), make_stride(Int<4>{}, Int<1>{}));
    auto b = make_layout(make_shape(int(v[8]), 5), make_stride(Int<1>{}, Int<2>{}));
    return blocked_product(a, b);
  });

  // cute-static's mixed layouts (benches/benches/static_mixed_ops.rs): a
  // run-time (M,N) matrix tiled by a static tiler, as a kernel does.
  volatile int mn[2] = {1000, 500};
  bench("logical_divide((M,N):(_1,M), <_128:_1, _64:_1>), M,N = 1000,500", n, [&] {
    int m = mn[0];
    auto a = make_layout(make_shape(m, int(mn[1])), make_stride(Int<1>{}, m));
    auto t = make_tile(Layout<_128, _1>{}, Layout<_64, _1>{});
    return logical_divide(a, t);
  });
}
