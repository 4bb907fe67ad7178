// The bar for cute-dynamic's composition benchmark: CuTe C++ composing the
// same layouts, built from run-time integers (read through `volatile` so
// that nothing is folded at compile time). Built and run by `run.sh`.
#include <cute/layout.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace cute;

// Forces a value to memory, as `black_box` does on the Rust side.
template <class T>
inline void keep(T const& v) {
  asm volatile("" : : "g"(&v) : "memory");
}

int main(int argc, char** argv) {
  volatile int v[8] = {10, 2, 16, 4, 5, 4, 1, 5};
  long n = argc > 1 ? std::atol(argv[1]) : 20000000;
  auto run = [&] {
    auto a = make_layout(make_shape(int(v[0]), int(v[1])), make_stride(int(v[2]), int(v[3])));
    auto b = make_layout(make_shape(int(v[4]), int(v[5])), make_stride(int(v[6]), int(v[7])));
    return composition(a, b);
  };
  print(run());
  std::printf("\n");
  for (int round = 0; round < 3; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; ++i) {
      auto r = run();
      keep(r);
    }
    auto t1 = std::chrono::steady_clock::now();
    std::printf("composition((10,2):(16,4), (5,4):(1,5)): %.1f ns\n",
                std::chrono::duration<double, std::nano>(t1 - t0).count() / n);
  }
}
