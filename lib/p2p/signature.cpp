#include "p2p/signature.hpp"

#include <cstdio>
#include <string>

namespace ringmpi::p2p {

void check_signature_slow(const dtype::Datatype& type, int count, std::uint32_t stamp, std::size_t bytes,
                          int from_world) {
  const auto sent = static_cast<MPI_Datatype>(stamp);
  const MPI_Datatype want = type.basic;
  // Nothing to compare: an empty message (the empty signature is a prefix of
  // every one), a receive type of mixed basic types, or a wildcard type.
  if (bytes == 0 || want == MPI_DATATYPE_NULL || want == sent) return;
  if (sent == MPI_BYTE || sent == MPI_PACKED || want == MPI_BYTE || want == MPI_PACKED) return;
  const dtype::Datatype* s = dtype::lookup(sent);
  if (!s || s->size == 0) return;
  const core::Runtime& rt = core::rt();
  const long long got = static_cast<long long>(bytes / s->size);
  const long long expect = static_cast<long long>(count) * static_cast<long long>(type.elements);
  char line[248];
  std::snprintf(line, sizeof line, "%s on rank %d expects %s x %lld, rank %d sent %s x %lld (mpiexec --check)",
                rt.current_call ? rt.current_call : "a receive", rt.rank, dtype::describe(want).c_str(), expect,
                from_world, dtype::describe(sent).c_str(), got);
  core::abort_job(shm::ExitKind::fatal_error, 1, line);
}

}  // namespace ringmpi::p2p
