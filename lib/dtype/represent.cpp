#include "dtype/represent.hpp"

#include <vector>

#include "dtype/construct.hpp"

namespace ringmpi::dtype {
namespace {

// Bytes of one value of the predefined type h (a pair: both members) in r.
int value_size(Representation& r, MPI_Datatype h, std::size_t* size, std::string* why) {
  MPI_Datatype first, second;
  if (!pair_members(h, &first, &second)) return r.basic_size(h, size, why);
  std::size_t a = 0, b = 0;
  if (int e = r.basic_size(first, &a, why)) return e;
  if (int e = r.basic_size(second, &b, why)) return e;
  *size = a + b;
  return MPI_SUCCESS;
}

// Whether every predefined type under t has its native size in r.
int same_sizes(Representation& r, const Datatype& t, bool* same, std::string* why) {
  if (t.size == 0) return MPI_SUCCESS;
  if (t.basic != MPI_DATATYPE_NULL) {
    std::size_t s = 0;
    if (int e = value_size(r, t.basic, &s, why)) return e;
    if (s != lookup(t.basic)->size) *same = false;
    return MPI_SUCCESS;
  }
  for (const TypePtr& o : t.env.types)
    if (int e = same_sizes(r, *o, same, why)) return e;
  return MPI_SUCCESS;
}

// The constructor arguments of t as its _c constructor takes them: the
// large-count envelope's counts, or the ints followed by the addresses (the
// same order for every combiner of the contiguous, vector and indexed
// families and struct).
std::vector<MPI_Count> counts_of(const Envelope& e) {
  if (!e.counts.empty()) return e.counts;
  std::vector<MPI_Count> c(e.ints.begin(), e.ints.end());
  c.insert(c.end(), e.addrs.begin(), e.addrs.end());
  return c;
}

TypePtr rebuild(Representation& r, const TypePtr& t, int* err, std::string* why) {
  const Datatype& d = *t;
  if (d.predefined || d.env.combiner == MPI_COMBINER_NAMED) {  // MPI_INT, a pair, an F90 type: r's bytes
    MPI_Count n = 0;
    if ((*err = represented_size(r, d, &n, why))) return nullptr;
    return make_contiguous_c(n, lookup_shared(MPI_BYTE), why);
  }
  std::vector<TypePtr> old;
  for (const TypePtr& o : d.env.types) {
    old.push_back(rebuild(r, o, err, why));
    if (!old.back()) return nullptr;
  }
  const Envelope& e = d.env;
  const std::vector<MPI_Count> c = counts_of(e);
  const MPI_Count n = c.empty() ? 0 : c[0];
  const MPI_Count* rest = c.data() + 1;
  switch (e.combiner) {
    case MPI_COMBINER_DUP: return make_dup(old[0]);
    case MPI_COMBINER_CONTIGUOUS: return make_contiguous_c(n, old[0], why);
    case MPI_COMBINER_VECTOR: return make_vector_c(n, c[1], c[2], old[0], why);
    case MPI_COMBINER_HVECTOR: return make_hvector_c(n, c[1], c[2], old[0], why);
    case MPI_COMBINER_INDEXED: return make_indexed_c(n, rest, rest + n, old[0], why);
    case MPI_COMBINER_HINDEXED: return make_hindexed_c(n, rest, rest + n, old[0], why);
    case MPI_COMBINER_INDEXED_BLOCK: return make_indexed_block_c(n, c[1], c.data() + 2, old[0], why);
    case MPI_COMBINER_HINDEXED_BLOCK: return make_hindexed_block_c(n, c[1], c.data() + 2, old[0], why);
    case MPI_COMBINER_STRUCT: return make_struct_c(n, rest, rest + n, old.data(), why);
    case MPI_COMBINER_RESIZED: return make_resized(old[0], e.addrs[0], e.addrs[1], why);
    case MPI_COMBINER_SUBARRAY: {
      const int ndims = e.ints[0];
      std::vector<MPI_Count> a;  // sizes, subsizes, starts
      if (!e.counts.empty()) a = e.counts;
      else a.assign(e.ints.begin() + 1, e.ints.begin() + 1 + 3 * ndims);
      const int order = e.counts.empty() ? e.ints[std::size_t(1 + 3 * ndims)] : e.ints[1];
      return make_subarray_c(ndims, a.data(), a.data() + ndims, a.data() + 2 * ndims, order, old[0], why);
    }
    case MPI_COMBINER_DARRAY: {
      const int size = e.ints[0], rank = e.ints[1], ndims = e.ints[2];
      std::vector<MPI_Count> gsizes;
      const int* p = e.ints.data() + 3;  // then [gsizes,] distribs, dargs, psizes, order
      if (!e.counts.empty()) {
        gsizes = e.counts;
      } else {
        gsizes.assign(p, p + ndims);
        p += ndims;
      }
      return make_darray_c(size, rank, ndims, gsizes.data(), p, p + ndims, p + 2 * ndims, p[3 * ndims], old[0], why);
    }
    default:
      *err = MPI_ERR_INTERN;
      *why = "a datatype of combiner " + std::to_string(e.combiner) + " has no file layout";
      return nullptr;
  }
}

}  // namespace

bool pair_members(MPI_Datatype h, MPI_Datatype* first, MPI_Datatype* second) {
  switch (h) {
    case MPI_FLOAT_INT: *first = MPI_FLOAT; break;
    case MPI_DOUBLE_INT: *first = MPI_DOUBLE; break;
    case MPI_LONG_INT: *first = MPI_LONG; break;
    case MPI_2INT: *first = MPI_INT; break;
    case MPI_SHORT_INT: *first = MPI_SHORT; break;
    case MPI_LONG_DOUBLE_INT: *first = MPI_LONG_DOUBLE; break;
    case MPI_2INTEGER: *first = *second = MPI_INTEGER; return true;
    case MPI_2REAL: *first = *second = MPI_REAL; return true;
    case MPI_2DOUBLE_PRECISION: *first = *second = MPI_DOUBLE_PRECISION; return true;
    default: return false;
  }
  *second = MPI_INT;
  return true;
}

int represented_size(Representation& r, const Datatype& t, MPI_Count* size, std::string* why) {
  *size = 0;
  if (t.size == 0) return MPI_SUCCESS;
  if (t.basic != MPI_DATATYPE_NULL) {  // all data is one predefined type (F90 types included)
    std::size_t one = 0;
    if (int e = value_size(r, t.basic, &one, why)) return e;
    *size = MPI_Count(t.size / lookup(t.basic)->size) * MPI_Count(one);
    return MPI_SUCCESS;
  }
  if (t.env.combiner == MPI_COMBINER_STRUCT) {
    for (std::size_t i = 0; i < t.env.types.size(); ++i) {
      MPI_Count one = 0;
      if (int e = represented_size(r, *t.env.types[i], &one, why)) return e;
      *size += t.env.struct_blocklength(i) * one;
    }
    return MPI_SUCCESS;
  }
  const Datatype& o = *t.env.types[0];  // every other combiner repeats its one old type
  MPI_Count one = 0;
  if (int e = represented_size(r, o, &one, why)) return e;
  *size = MPI_Count(t.size / o.size) * one;
  return MPI_SUCCESS;
}

int represented_layout(Representation& r, const TypePtr& t, TypePtr* out, std::string* why) {
  bool same = true;
  if (int e = same_sizes(r, *t, &same, why)) return e;
  if (same) {
    *out = t;
    return MPI_SUCCESS;
  }
  int err = MPI_SUCCESS;
  TypePtr u = rebuild(r, t, &err, why);
  if (!u) return err != MPI_SUCCESS ? err : MPI_ERR_TYPE;  // a constructor's overflow: *why says so
  commit(*u);
  *out = std::move(u);
  return MPI_SUCCESS;
}

}  // namespace ringmpi::dtype
