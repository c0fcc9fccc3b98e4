// Random nested datatypes for the randomised tests: every constructor, with
// negative strides and displacements, zero counts, resized bounds and
// overlapping copies, kept small enough to check thousands of them.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "dtype/construct.hpp"

namespace ringmpi::dtype::test {

class RandomTypes {
 public:
  explicit RandomTypes(std::uint64_t seed) : rng_(seed) {}

  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  std::mt19937_64& rng() { return rng_; }

  TypePtr basic() {
    static const MPI_Datatype pool[] = {MPI_CHAR,      MPI_SHORT,           MPI_INT,        MPI_DOUBLE,
                                        MPI_FLOAT_INT, MPI_SHORT_INT,       MPI_DOUBLE_INT, MPI_LONG_DOUBLE_INT,
                                        MPI_BYTE,      MPI_C_DOUBLE_COMPLEX, MPI_2INT,      MPI_LONG_DOUBLE};
    return lookup_shared(pool[uniform(0, int(std::size(pool)) - 1)]);
  }

  // A type of nesting depth at most `depth`; falls back to a basic type when
  // the result would be too big to check quickly.
  TypePtr make(int depth) {
    if (depth == 0 || uniform(0, 4) == 0) return basic();
    TypePtr t = build(depth);
    if (!t || t->size > 4096 || t->extent > 8192 || t->extent < -8192 || t->true_extent > 16384) return basic();
    return t;
  }

 private:
  TypePtr build(int depth) {
    std::string why;
    switch (uniform(0, 10)) {
      case 0:
        return make_contiguous(uniform(0, 4), make(depth - 1), &why);
      case 1:
        return make_vector(uniform(0, 4), uniform(0, 3), uniform(-4, 6), make(depth - 1), &why);
      case 2:
        return make_hvector(uniform(0, 4), uniform(0, 3), uniform(-64, 96), make(depth - 1), &why);
      case 3: {
        const int n = uniform(0, 4);
        std::vector<int> bl(std::size_t(n) + 1), disp(std::size_t(n) + 1);
        for (int i = 0; i < n; ++i) bl[std::size_t(i)] = uniform(0, 3), disp[std::size_t(i)] = uniform(-5, 10);
        return make_indexed(n, bl.data(), disp.data(), make(depth - 1), &why);
      }
      case 4: {
        const int n = uniform(0, 4);
        std::vector<int> bl(std::size_t(n) + 1);
        std::vector<MPI_Aint> disp(std::size_t(n) + 1);
        for (int i = 0; i < n; ++i) bl[std::size_t(i)] = uniform(0, 3), disp[std::size_t(i)] = uniform(-50, 100);
        return make_hindexed(n, bl.data(), disp.data(), make(depth - 1), &why);
      }
      case 5: {
        const int n = uniform(0, 5);
        std::vector<int> disp(std::size_t(n) + 1);
        // Often regular, so that the repeat detection is exercised.
        const bool regular = uniform(0, 1) == 0;
        const int step = uniform(-3, 5);
        for (int i = 0; i < n; ++i) disp[std::size_t(i)] = regular ? i * step : uniform(-5, 10);
        return make_indexed_block(n, uniform(0, 3), disp.data(), make(depth - 1), &why);
      }
      case 6: {
        const int n = uniform(0, 4);
        std::vector<MPI_Aint> disp(std::size_t(n) + 1);
        for (int i = 0; i < n; ++i) disp[std::size_t(i)] = uniform(-50, 100);
        return make_hindexed_block(n, uniform(0, 3), disp.data(), make(depth - 1), &why);
      }
      case 7: {
        const int n = uniform(1, 4);
        std::vector<int> bl(static_cast<std::size_t>(n));
        std::vector<MPI_Aint> disp(static_cast<std::size_t>(n));
        std::vector<TypePtr> types(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
          bl[std::size_t(i)] = uniform(0, 3);
          disp[std::size_t(i)] = uniform(-40, 80);
          types[std::size_t(i)] = make(depth - 1);
        }
        return make_struct(n, bl.data(), disp.data(), types.data(), &why);
      }
      case 8: {
        const int nd = uniform(1, 3);
        std::vector<int> sizes(static_cast<std::size_t>(nd)), subs(sizes), starts(sizes);
        for (std::size_t d = 0; d < std::size_t(nd); ++d) {
          sizes[d] = uniform(1, 5);
          subs[d] = uniform(1, sizes[d]);
          starts[d] = uniform(0, sizes[d] - subs[d]);
        }
        return make_subarray(nd, sizes.data(), subs.data(), starts.data(),
                             uniform(0, 1) ? MPI_ORDER_C : MPI_ORDER_FORTRAN, make(depth - 1), &why);
      }
      case 9:
        return make_resized(make(depth - 1), uniform(-16, 16), uniform(0, 48), &why);
      default:
        return make_dup(make(depth - 1));
    }
  }

  std::mt19937_64 rng_;
};

}  // namespace ringmpi::dtype::test
