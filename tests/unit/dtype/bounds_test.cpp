// Sizes, bounds and element counts of hand-written types whose answers the
// standard (and MPICH / Open MPI) fix.
#include <doctest/doctest.h>

#include <cstddef>

#include "dtype/construct.hpp"
#include "dtype/elements.hpp"

using namespace ringmpi::dtype;

namespace {

TypePtr T(MPI_Datatype h) { return lookup_shared(h); }

TypePtr structure(std::vector<int> bl, std::vector<MPI_Aint> disp, std::vector<TypePtr> types) {
  std::string why;
  TypePtr t = make_struct(int(bl.size()), bl.data(), disp.data(), types.data(), &why);
  REQUIRE(t);
  return t;
}

}  // namespace

TEST_CASE("struct extents follow the C alignment of the largest member (epsilon rule)") {
  struct CD {
    char c;
    double d;
  };
  TypePtr cd = structure({1, 1}, {0, offsetof(CD, d)}, {T(MPI_CHAR), T(MPI_DOUBLE)});
  CHECK(cd->size == 9);
  CHECK(cd->lb == 0);
  CHECK(cd->extent == std::ptrdiff_t(sizeof(CD)));
  CHECK(cd->extent == 16);
  CHECK(cd->true_lb == 0);
  CHECK(cd->true_extent == 16);

  TypePtr dc = structure({1, 1}, {0, 8}, {T(MPI_DOUBLE), T(MPI_CHAR)});
  CHECK(dc->extent == 16);
  CHECK(dc->true_extent == 9);

  CHECK(structure({1, 1}, {0, 4}, {T(MPI_INT), T(MPI_CHAR)})->extent == 8);
  CHECK(structure({1, 1}, {0, 1}, {T(MPI_CHAR), T(MPI_CHAR)})->extent == 2);
  CHECK(structure({1, 1}, {0, 16}, {T(MPI_LONG_DOUBLE), T(MPI_CHAR)})->extent == 32);
  CHECK(structure({3}, {0}, {T(MPI_SHORT)})->extent == 6);

  // Copies of a padded struct are one padded extent apart.
  std::string why;
  TypePtr three = make_contiguous(3, dc, &why);
  CHECK(three->extent == 48);
  CHECK(three->true_extent == 41);
  CHECK(three->size == 27);
}

TEST_CASE("explicit bounds from create_resized win over data bounds and padding") {
  std::string why;
  TypePtr r = make_resized(T(MPI_INT), -4, 12, &why);
  CHECK(r->lb == -4);
  CHECK(r->extent == 12);
  CHECK(r->true_lb == 0);
  CHECK(r->true_extent == 4);
  CHECK(r->size == 4);
  // In a struct, the members' markers decide lb and ub (MPI-3.1 §4.1.7).
  TypePtr s = structure({1, 1}, {0, 20}, {r, T(MPI_CHAR)});
  CHECK(s->lb == -4);
  CHECK(s->extent == 12);
  CHECK(s->true_extent == 21);
  // A resized double in a struct is not padded again.
  TypePtr r12 = make_resized(T(MPI_DOUBLE), 0, 12, &why);
  CHECK(structure({1}, {0}, {r12})->extent == 12);
  TypePtr c = make_contiguous(2, r, &why);
  CHECK(c->lb == -4);
  CHECK(c->extent == 24);
  CHECK(c->true_lb == 0);
  CHECK(c->true_extent == 16);
}

TEST_CASE("a negative extent from create_resized replicates downward (lb/ub marker rules)") {
  // MPI-3.1 §4.1.7: resized(old, lb, extent) has the typemap {(lb_marker, lb), old, (ub_marker, lb + extent)};
  // §4.1.6: lb is the least lb_marker, ub the greatest ub_marker, and the copies a constructor makes are
  // placed at multiples of the old type's extent, which here is negative.
  std::string why;
  TypePtr r = make_resized(T(MPI_INT), 4, -12, &why);
  REQUIRE(r);
  CHECK(r->lb == 4);
  CHECK(r->extent == -12);
  CHECK(r->true_lb == 0);
  CHECK(r->true_extent == 4);
  // Copies at 0, -12, -24: lb markers 4, -8, -20; ub markers -8, -20, -32.
  TypePtr c = make_contiguous(3, r, &why);
  REQUIRE(c);
  CHECK(c->size == 12);
  CHECK(c->lb == -20);
  CHECK(c->extent == 12);
  CHECK(c->true_lb == -24);
  CHECK(c->true_extent == 28);
  // Blocks at 0 and 3 * -12; copies at 0, -12, -36, -48: lb -44, ub -8.
  TypePtr v = make_vector(2, 2, 3, r, &why);
  REQUIRE(v);
  CHECK(v->size == 16);
  CHECK(v->lb == -44);
  CHECK(v->extent == 36);
  CHECK(v->true_lb == -48);
  CHECK(v->true_extent == 52);
  // A negative stride of a negative extent goes upward: copies at 0 and 24.
  TypePtr u = make_vector(2, 1, -2, r, &why);
  REQUIRE(u);
  CHECK(u->lb == 4);
  CHECK(u->extent == 12);
  CHECK(u->true_lb == 0);
  CHECK(u->true_extent == 28);
}

TEST_CASE("vector bounds with positive, zero and negative strides") {
  std::string why;
  TypePtr v = make_vector(3, 2, 4, T(MPI_INT), &why);
  CHECK(v->size == 24);
  CHECK(v->lb == 0);
  CHECK(v->extent == 40);
  TypePtr n = make_vector(3, 1, -2, T(MPI_INT), &why);
  CHECK(n->lb == -16);
  CHECK(n->extent == 20);
  CHECK(n->true_lb == -16);
  TypePtr z = make_hvector(4, 1, 0, T(MPI_DOUBLE), &why);
  CHECK(z->size == 32);
  CHECK(z->extent == 8);
  TypePtr empty = make_vector(0, 3, 5, T(MPI_INT), &why);
  CHECK(empty->size == 0);
  CHECK(empty->extent == 0);
  CHECK(empty->lb == 0);
}

TEST_CASE("indexed types ignore zero-length blocks for bounds") {
  std::string why;
  const int bl[] = {0, 2, 1};
  const int disp[] = {-10, 3, 8};
  TypePtr t = make_indexed(3, bl, disp, T(MPI_INT), &why);
  CHECK(t->lb == 12);
  CHECK(t->extent == 24);
  CHECK(t->size == 12);
  const MPI_Aint hd[] = {100, 4};
  TypePtr h = make_hindexed_block(2, 2, hd, T(MPI_SHORT), &why);
  CHECK(h->lb == 4);
  CHECK(h->extent == 100);
  CHECK(h->env.combiner == MPI_COMBINER_HINDEXED_BLOCK);
}

TEST_CASE("subarray spans the whole array, C and Fortran order") {
  std::string why;
  const int sizes[] = {4, 5}, subs[] = {2, 3}, starts[] = {1, 1};
  TypePtr c = make_subarray(2, sizes, subs, starts, MPI_ORDER_C, T(MPI_INT), &why);
  CHECK(c->size == 24);
  CHECK(c->lb == 0);
  CHECK(c->extent == 80);
  CHECK(c->true_lb == (1 * 5 + 1) * 4);
  CHECK(c->true_extent == ((2 * 5 + 4) - (1 * 5 + 1)) * 4);
  TypePtr f = make_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN, T(MPI_INT), &why);
  CHECK(f->extent == 80);
  CHECK(f->true_lb == (1 * 4 + 1) * 4);
  CHECK(f->true_extent == ((3 * 4 + 3) - (1 * 4 + 1)) * 4);
}

TEST_CASE("dup keeps layout, bounds and commit state") {
  std::string why;
  TypePtr v = make_vector(2, 1, 3, T(MPI_DOUBLE), &why);
  commit(*v);
  TypePtr d = make_dup(v);
  CHECK(d->committed);
  CHECK(d->extent == v->extent);
  CHECK(d->blocks.size() == 2);
  CHECK(d->env.combiner == MPI_COMBINER_DUP);
  CHECK(d->env.types[0] == v);
}

TEST_CASE("basic elements of pair types and structs, partial counts") {
  const Datatype& di = *T(MPI_DOUBLE_INT);
  CHECK(di.elements == 2);
  CHECK(elements_in(di, 12) == 2);
  CHECK(elements_in(di, 8) == 1);
  CHECK(elements_in(di, 4) == -1);
  CHECK(bytes_of_elements(di, 3) == 20);
  TypePtr s = structure({2, 1}, {0, 8}, {T(MPI_INT), T(MPI_DOUBLE)});
  CHECK(s->elements == 3);
  CHECK(elements_in(*s, 16) == 3);
  CHECK(elements_in(*s, 20) == 4);
  CHECK(elements_in(*s, 12) == -1);
  CHECK(bytes_of_elements(*s, 4) == 20);
  std::string why;
  TypePtr z = make_contiguous(0, T(MPI_INT), &why);
  CHECK(elements_in(*z, 0) == 0);
  CHECK(bytes_of_elements(*z, 1) == -1);
}

TEST_CASE("sizes that overflow the address space are refused") {
  std::string why;
  TypePtr big = make_contiguous(1 << 30, T(MPI_DOUBLE), &why);
  REQUIRE(big);
  TypePtr bigger = make_contiguous(1 << 30, big, &why);
  CHECK_FALSE(bigger);
  CHECK(why.find("overflow") != std::string::npos);
}
