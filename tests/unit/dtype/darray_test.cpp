// The darray block computation (darray_dim) against a brute-force owner
// function over many (distribution, darg, gsize, psize) combinations, and
// make_darray's layout (through pack) for 2-D grids in both orders.
#include <doctest/doctest.h>

#include <numeric>
#include <vector>

#include "dtype/construct.hpp"

using namespace ringmpi::dtype;

namespace {

int owner(int distrib, int darg, int gsize, int psize, int g) {
  if (distrib == MPI_DISTRIBUTE_NONE) return 0;
  if (distrib == MPI_DISTRIBUTE_BLOCK) {
    const int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (gsize + psize - 1) / psize : darg;
    return g / b;
  }
  const int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
  return (g / b) % psize;
}

// The indices darray_dim's answer describes, in order.
std::vector<int> expand(const DarrayDim& d) {
  std::vector<int> out;
  for (long long k = 0; k < d.count; ++k)
    for (long long j = 0; j < d.block; ++j) out.push_back(int(d.first + k * d.stride + j));
  for (long long j = 0; j < d.rem; ++j) out.push_back(int(d.first + d.count * d.stride + j));
  return out;
}

}  // namespace

TEST_CASE("darray_dim gives each coordinate exactly the indices the owner function gives it") {
  for (int distrib : {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE})
    for (int gsize = 1; gsize <= 23; ++gsize)
      for (int psize = 1; psize <= 6; ++psize) {
        if (distrib == MPI_DISTRIBUTE_NONE && psize != 1) continue;
        for (int darg : {MPI_DISTRIBUTE_DFLT_DARG, 1, 2, 3, 5, 8, 30}) {
          if (distrib == MPI_DISTRIBUTE_BLOCK && darg != MPI_DISTRIBUTE_DFLT_DARG && darg * psize < gsize) continue;
          for (int coord = 0; coord < psize; ++coord) {
            CAPTURE(distrib);
            CAPTURE(gsize);
            CAPTURE(psize);
            CAPTURE(darg);
            CAPTURE(coord);
            std::vector<int> want;
            for (int g = 0; g < gsize; ++g)
              if (owner(distrib, darg, gsize, psize, g) == coord) want.push_back(g);
            const DarrayDim d = darray_dim(distrib, darg, gsize, psize, coord);
            CHECK(expand(d) == want);
            CHECK(d.owned() == static_cast<long long>(want.size()));
            CHECK(d.rem < d.block);
          }
        }
      }
}

TEST_CASE("darray_block_size: darg, or ceil(gsize / psize) by default") {
  CHECK(darray_block_size(MPI_DISTRIBUTE_DFLT_DARG, 10, 3) == 4);
  CHECK(darray_block_size(MPI_DISTRIBUTE_DFLT_DARG, 9, 3) == 3);
  CHECK(darray_block_size(MPI_DISTRIBUTE_DFLT_DARG, 1, 4) == 1);
  CHECK(darray_block_size(7, 10, 2) == 7);
}

TEST_CASE("make_darray: the owned elements of a 2-D array in address order, lb 0, extent the whole array") {
  const TypePtr i = lookup_shared(MPI_INT);
  const int gs[2] = {7, 5}, ps[2] = {2, 3};
  const int ds[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK}, da[2] = {2, MPI_DISTRIBUTE_DFLT_DARG};
  std::vector<int> global(35);
  std::iota(global.begin(), global.end(), 0);
  for (int order : {MPI_ORDER_C, MPI_ORDER_FORTRAN})
    for (int rank = 0; rank < 6; ++rank) {
      CAPTURE(order);
      CAPTURE(rank);
      std::string why;
      TypePtr t = make_darray(6, rank, 2, gs, ds, da, ps, order, i, &why);
      REQUIRE(t);
      commit(*t);
      const int c0 = rank / 3, c1 = rank % 3;
      std::vector<int> want;
      for (int addr = 0; addr < 35; ++addr) {
        const int g0 = order == MPI_ORDER_C ? addr / 5 : addr % 7;
        const int g1 = order == MPI_ORDER_C ? addr % 5 : addr / 7;
        if (owner(ds[0], da[0], 7, 2, g0) == c0 && owner(ds[1], da[1], 5, 3, g1) == c1) want.push_back(addr);
      }
      CHECK(t->lb == 0);
      CHECK(t->extent == 35 * std::ptrdiff_t(sizeof(int)));
      REQUIRE(t->size == want.size() * sizeof(int));
      std::vector<int> got(want.size());
      pack(global.data(), 1, *t, 0, got.data(), t->size);
      CHECK(got == want);
      CHECK(t->env.combiner == MPI_COMBINER_DARRAY);
      CHECK(t->env.ints.size() == 4 * 2 + 4);
    }
}
