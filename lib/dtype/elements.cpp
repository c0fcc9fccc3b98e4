#include "dtype/elements.hpp"

namespace ringmpi::dtype {
namespace {

// Size of the value part of a pair type: the signature of the C pairs
// (MPI_FLOAT_INT ...) is value, int; the Fortran pairs (MPI_2REAL ...) hold
// two values of one type.
MPI_Count pair_value_size(const Datatype& t) {
  if (t.handle == MPI_2INTEGER || t.handle == MPI_2REAL || t.handle == MPI_2DOUBLE_PRECISION)
    return MPI_Count(t.size) / 2;
  return MPI_Count(t.size) - MPI_Count(sizeof(int));
}

// Elements in the first `rem` bytes of ONE element of t (0 < rem < t.size).
MPI_Count partial_elements(const Datatype& t, MPI_Count rem) {
  if (t.predefined) return t.elements == 2 && rem == pair_value_size(t) ? 1 : -1;
  if (t.env.combiner == MPI_COMBINER_STRUCT) {
    MPI_Count n = 0;
    for (std::size_t i = 0; i < t.env.types.size(); ++i) {
      const Datatype& c = *t.env.types[i];
      const MPI_Count bl = t.env.struct_blocklength(i);
      const MPI_Count bytes = bl * MPI_Count(c.size);
      if (rem < bytes) {
        const MPI_Count more = elements_in(c, rem);
        return more < 0 ? -1 : n + more;
      }
      n += bl * c.elements;
      rem -= bytes;
      if (rem == 0) return n;
    }
    return -1;  // unreachable: rem < t.size
  }
  // Every other combiner repeats its one old type.
  return elements_in(*t.env.types[0], rem);
}

MPI_Count partial_bytes(const Datatype& t, MPI_Count n) {
  if (t.predefined) return pair_value_size(t);  // n == 1 of a pair's 2
  if (t.env.combiner == MPI_COMBINER_STRUCT) {
    MPI_Count bytes = 0;
    for (std::size_t i = 0; i < t.env.types.size(); ++i) {
      const Datatype& c = *t.env.types[i];
      const MPI_Count bl = t.env.struct_blocklength(i);
      if (n < bl * c.elements) return bytes + bytes_of_elements(c, n);
      n -= bl * c.elements;
      bytes += bl * MPI_Count(c.size);
    }
    return -1;  // unreachable: n < t.elements
  }
  return bytes_of_elements(*t.env.types[0], n);
}

}  // namespace

MPI_Count elements_in(const Datatype& t, MPI_Count bytes) {
  if (t.size == 0) return 0;
  const MPI_Count full = bytes / MPI_Count(t.size), rem = bytes % MPI_Count(t.size);
  if (rem == 0) return full * t.elements;
  const MPI_Count part = partial_elements(t, rem);
  return part < 0 ? -1 : full * t.elements + part;
}

MPI_Count bytes_of_elements(const Datatype& t, MPI_Count n) {
  if (t.elements == 0) return n == 0 ? 0 : -1;
  const MPI_Count full = n / t.elements, rem = n % t.elements;
  if (rem == 0) return full * MPI_Count(t.size);
  return full * MPI_Count(t.size) + partial_bytes(t, rem);
}

}  // namespace ringmpi::dtype
