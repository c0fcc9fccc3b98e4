// What the CPU offers beyond the build's target (generic x86-64: SSE2),
// asked once at run time. The AVX2 clones of the reduction kernels
// (dtype/kernels.cpp) and of the copy loop for shared lines (core/copy.hpp)
// are chosen by it.
#pragma once

namespace ringmpi::core {

#if defined(__x86_64__) && defined(__GNUC__)
inline bool have_avx2() {
  // (__builtin_cpu_init first: this may run before libgcc's constructor has.)
  static const bool yes = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
  return yes;
}
#endif

}  // namespace ringmpi::core
