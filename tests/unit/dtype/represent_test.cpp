// dtype::represented_layout and represented_size (dtype/represent.hpp): a
// type built again over a representation's sizes. With MPI_INT 8 bytes in
// the file, every constructor that counts in elements must give the layout
// the same constructor gives over an 8-byte integer type here (MPI-4.1
// 14.5.1: displacements scale), and byte displacements must stay.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "dtype/construct.hpp"
#include "dtype/represent.hpp"

using namespace ringmpi::dtype;

namespace {

// MPI_INT is 8 bytes; every other type keeps its native size. No conversion.
class IntsAsEight final : public Representation {
 public:
  int calls = 0;
  int basic_size(MPI_Datatype h, std::size_t* size, std::string*) override {
    ++calls;
    *size = h == MPI_INT ? 8 : lookup(h)->size;
    return MPI_SUCCESS;
  }
  int to_file(const void*, int, const Datatype&, MPI_Datatype, void*, std::string*) override { return MPI_ERR_INTERN; }
  int from_file(const void*, void*, int, const Datatype&, MPI_Datatype, std::string*) override { return MPI_ERR_INTERN; }
};

struct Fails final : public Representation {
  int basic_size(MPI_Datatype, std::size_t*, std::string* why) override {
    *why = "no";
    return MPI_ERR_CONVERSION;
  }
  int to_file(const void*, int, const Datatype&, MPI_Datatype, void*, std::string*) override { return MPI_ERR_INTERN; }
  int from_file(const void*, void*, int, const Datatype&, MPI_Datatype, std::string*) override { return MPI_ERR_INTERN; }
};

TypePtr committed(TypePtr t) {
  REQUIRE(t);
  commit(*t);
  return t;
}

// The layout of t(MPI_INT) in IntsAsEight equals t(MPI_INT64_T) here.
template <class Make>
void same_as_int64(Make make) {
  IntsAsEight r;
  std::string why;
  const TypePtr in_file = committed(make(lookup_shared(MPI_INT)));
  const TypePtr wide = committed(make(lookup_shared(MPI_INT64_T)));
  TypePtr got;
  REQUIRE(represented_layout(r, in_file, &got, &why) == MPI_SUCCESS);
  CHECK(got != in_file);
  CHECK(got->committed);
  CHECK(got->size == wide->size);
  CHECK(got->lb == wide->lb);
  CHECK(got->extent == wide->extent);
  CHECK(got->true_lb == wide->true_lb);
  CHECK(got->true_extent == wide->true_extent);
  REQUIRE(got->blocks.size() == wide->blocks.size());
  for (std::size_t i = 0; i < got->blocks.size(); ++i) {
    CHECK(got->blocks[i].offset == wide->blocks[i].offset);
    CHECK(got->blocks[i].length == wide->blocks[i].length);
  }
  MPI_Count n = 0;
  REQUIRE(represented_size(r, *in_file, &n, &why) == MPI_SUCCESS);
  CHECK(n == MPI_Count(wide->size));
}

}  // namespace

TEST_CASE("element displacements scale to the representation's sizes") {
  std::string w;
  same_as_int64([&](const TypePtr& o) { return make_contiguous(3, o, &w); });
  same_as_int64([&](const TypePtr& o) { return make_vector(3, 2, 5, o, &w); });
  same_as_int64([&](const TypePtr& o) { return make_vector_c(3, 2, -5, o, &w); });
  same_as_int64([&](const TypePtr& o) {
    const int bl[3] = {1, 2, 1}, disp[3] = {0, 3, 7};
    return make_indexed(3, bl, disp, o, &w);
  });
  same_as_int64([&](const TypePtr& o) {
    const MPI_Count bl[2] = {2, 1}, disp[2] = {4, 9};
    return make_indexed_c(2, bl, disp, o, &w);
  });
  same_as_int64([&](const TypePtr& o) {
    const int disp[2] = {1, 5};
    return make_indexed_block(2, 2, disp, o, &w);
  });
  same_as_int64([&](const TypePtr& o) {
    const int sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {1, 1};
    return make_subarray(2, sizes, sub, starts, MPI_ORDER_C, o, &w);
  });
  same_as_int64([&](const TypePtr& o) {
    const MPI_Count sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {1, 2};
    return make_subarray_c(2, sizes, sub, starts, MPI_ORDER_FORTRAN, o, &w);
  });
  same_as_int64([&](const TypePtr& o) {
    const int gsizes[2] = {4, 6}, distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC},
              dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[2] = {2, 2};
    return make_darray(4, 1, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, o, &w);
  });
  same_as_int64([&](const TypePtr& o) {
    const MPI_Count gsizes[2] = {5, 3};
    const int distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE},
              dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {3, 1};
    return make_darray_c(3, 2, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN, o, &w);
  });
  same_as_int64([&](const TypePtr& o) { return make_dup(make_vector(2, 1, 3, o, &w)); });
  // Nested: a vector of an indexed type.
  same_as_int64([&](const TypePtr& o) {
    const int bl[2] = {1, 1}, disp[2] = {0, 2};
    return make_vector(2, 1, 2, make_indexed(2, bl, disp, o, &w), &w);
  });
}

TEST_CASE("byte displacements stay as given") {
  IntsAsEight r;
  std::string w;
  TypePtr got;
  const TypePtr h = committed(make_hvector(2, 1, 40, lookup_shared(MPI_INT), &w));
  REQUIRE(represented_layout(r, h, &got, &w) == MPI_SUCCESS);
  CHECK(got->size == 16);
  CHECK(got->extent == 48);
  const MPI_Aint disp[2] = {0, 20};
  const int bl[2] = {2, 1};
  const TypePtr types[2] = {lookup_shared(MPI_INT), lookup_shared(MPI_CHAR)};
  const TypePtr s = committed(make_struct(2, bl, disp, types, &w));
  REQUIRE(represented_layout(r, s, &got, &w) == MPI_SUCCESS);
  REQUIRE(got->blocks.size() == 2);
  CHECK(got->blocks[0].offset == 0);
  CHECK(got->blocks[0].length == 16);
  CHECK(got->blocks[1].offset == 20);
  CHECK(got->extent == 21);  // byte aligned: no padding
  const TypePtr z = committed(make_resized(make_vector(2, 1, 2, lookup_shared(MPI_INT), &w), -4, 100, &w));
  REQUIRE(represented_layout(r, z, &got, &w) == MPI_SUCCESS);
  CHECK(got->lb == -4);
  CHECK(got->extent == 100);
  CHECK(got->size == 16);
}

TEST_CASE("pairs are their members; unchanged sizes keep the type; errors pass through") {
  IntsAsEight r;
  std::string w;
  MPI_Count n = 0;
  REQUIRE(represented_size(r, *lookup(MPI_2INT), &n, &w) == MPI_SUCCESS);
  CHECK(n == 16);
  REQUIRE(represented_size(r, *lookup(MPI_DOUBLE_INT), &n, &w) == MPI_SUCCESS);
  CHECK(n == 16);
  TypePtr got;
  const TypePtr d = committed(make_vector(2, 1, 3, lookup_shared(MPI_DOUBLE), &w));
  REQUIRE(represented_layout(r, d, &got, &w) == MPI_SUCCESS);
  CHECK(got == d);
  Fails f;
  CHECK(represented_layout(f, d, &got, &w) == MPI_ERR_CONVERSION);
  CHECK(represented_size(f, *d, &n, &w) == MPI_ERR_CONVERSION);
}
