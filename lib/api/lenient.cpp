#include "api/lenient.hpp"

#include <cstdio>
#include <set>
#include <string>

namespace ringmpi::api {

void warn_lenient(const Call& call, const char* what) {
  // Once per call and case: a loop would otherwise repeat it every
  // iteration. Calls are serialised (Call holds the call lock at
  // MPI_THREAD_MULTIPLE), so the set needs no lock of its own.
  static std::set<std::string> seen;
  if (!seen.insert(std::string(call.name()) + '\n' + what).second) return;
  std::fprintf(stderr,
               "ringmpi: rank %d: %s: warning: %s: accepted as MPICH accepts it, but the MPI standard does not "
               "define it (mpiexec --check)\n",
               core::rt().rank, call.name(), what);
}

void warn_lenient_op(const Call& call, MPI_Op op, const dtype::Datatype& t) {
  if (op != MPI_LAND && op != MPI_LOR && op != MPI_LXOR) return;
  if (t.basic != MPI_AINT && t.basic != MPI_OFFSET && t.basic != MPI_COUNT) return;
  const char* op_name = op == MPI_LAND ? "MPI_LAND" : op == MPI_LOR ? "MPI_LOR" : "MPI_LXOR";
  const char* type_name = t.basic == MPI_AINT ? "MPI_AINT" : t.basic == MPI_OFFSET ? "MPI_OFFSET" : "MPI_COUNT";
  const std::string what = std::string(op_name) + " on " + type_name +
                           " (MPI-4.1 section 6.9.2 lists the logical ops for C integers and logicals only)";
  warn_lenient(call, what.c_str());
}

}  // namespace ringmpi::api
