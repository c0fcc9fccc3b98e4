#include "dtype/fortran.hpp"

#include <iterator>

namespace ringmpi::dtype {
namespace {

struct IntKind {
  int range;
  MPI_Datatype type;
};
constexpr IntKind kIntKinds[] = {
    {2, MPI_INTEGER1}, {4, MPI_INTEGER2}, {9, MPI_INTEGER4}, {18, MPI_INTEGER8}};

struct RealKind {
  int precision, range;
  MPI_Datatype type;
};
constexpr RealKind kRealKinds[] = {
    {6, 37, MPI_REAL4},
    {15, 307, MPI_REAL8},
#if defined(__SIZEOF_FLOAT128__) || (defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113)
    {33, 4931, MPI_REAL16},
#endif
};

bool exists(MPI_Datatype h) { return h != MPI_DATATYPE_NULL && lookup(h) != nullptr; }

}  // namespace

MPI_Datatype match_size(int typeclass, int size) {
  const MPI_Datatype* list = nullptr;
  std::size_t n = 0;
  static const MPI_Datatype kInts[] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8};
  static const MPI_Datatype kReals[] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
  static const MPI_Datatype kComplexes[] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
  switch (typeclass) {
    case MPI_TYPECLASS_INTEGER: list = kInts, n = std::size(kInts); break;
    case MPI_TYPECLASS_REAL: list = kReals, n = std::size(kReals); break;
    case MPI_TYPECLASS_COMPLEX: list = kComplexes, n = std::size(kComplexes); break;
    default: return MPI_DATATYPE_NULL;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (exists(list[i]) && lookup(list[i])->size == std::size_t(size)) return list[i];
  return MPI_DATATYPE_NULL;
}

MPI_Datatype selected_int_type(int r) {
  for (const IntKind& k : kIntKinds)
    if (r == MPI_UNDEFINED || r <= k.range) return k.type;
  return MPI_DATATYPE_NULL;
}

MPI_Datatype selected_real_type(int p, int r) {
  for (const RealKind& k : kRealKinds)
    if ((p == MPI_UNDEFINED || p <= k.precision) && (r == MPI_UNDEFINED || r <= k.range)) return k.type;
  return MPI_DATATYPE_NULL;
}

MPI_Datatype complex_of(MPI_Datatype real) {
  if (real == MPI_REAL4) return MPI_COMPLEX8;
  if (real == MPI_REAL8) return MPI_COMPLEX16;
  if (real != MPI_DATATYPE_NULL && real == MPI_REAL16) return MPI_COMPLEX32;
  return MPI_DATATYPE_NULL;
}

MPI_Datatype f90_type(int combiner, int p, int r, MPI_Datatype basic) {
  State& s = state();
  const auto key = std::make_tuple(combiner, p, r);
  if (auto it = s.f90_types.find(key); it != s.f90_types.end()) return it->second;
  auto t = std::make_shared<Datatype>(*lookup(basic));
  t->name.clear();
  t->attrs = {};
  t->env = {};
  t->env.combiner = combiner;
  t->env.ints = combiner == MPI_COMBINER_F90_INTEGER ? std::vector<int>{r} : std::vector<int>{p, r};
  Datatype& d = *t;
  const MPI_Datatype h = new_handle(std::move(t));
  if (h == MPI_DATATYPE_NULL) return h;
  d.handle = h;  // predefined stays true: never freed, handed out as itself
  s.f90_types.emplace(key, h);
  return h;
}

}  // namespace ringmpi::dtype
