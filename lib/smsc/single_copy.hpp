// Single copy between processes (Open MPI's smsc/cma is the model): the one
// place that calls process_vm_readv/process_vm_writev. p2p's rendezvous
// (p2p/rndv.cpp), the collective segment (coll/segment.cpp) and the RMA
// windows over user memory (rma/transfer.cpp) move bytes between their own
// memory and another rank's through it; each keeps its own decision of what
// an error means (a fallback, an abort, an MPI error class) and its messages.
//
// What it does for every caller:
//   - any number of pieces on either side: at most IOV_MAX iovecs and 1 GiB
//     (below the kernel's MAX_RW_COUNT) go to one system call;
//   - a short count (the kernel stops at a page it cannot reach, or at
//     MAX_RW_COUNT) continues where the kernel stopped; the call that then
//     moves nothing says why (its errno, or kNoData);
//   - EINTR is retried;
//   - counters (core/counters.hpp, MPIX_Query_counter and MPI_T): smsc_calls
//     (system calls), smsc_bytes (bytes they moved), smsc_fallback (transfers
//     that went another way because single copy was refused or is off);
//   - the probe "does single copy work here" (init) and the process-wide
//     switch (usable, disable) that the callers read before choosing it.
//
// Errors, as the kernel gives them: EPERM/EACCES (Yama, a peer we may not
// trace), ENOSYS (the call is missing or filtered: containers) are refusals
// (refused(): the callers fall back and call disable()); ESRCH (the peer is
// gone) and EFAULT (no memory at an address) are the caller's errors.
#pragma once

#include <sys/types.h>
#include <sys/uio.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "core/counters.hpp"
#include "core/runtime.hpp"

namespace ringmpi::smsc {

enum class Dir : bool { read, write };

// Returned (in place of an errno) when a system call moved nothing without
// an error; the kernel itself never fails with ENODATA here.
inline constexpr int kNoData = ENODATA;
// Bytes per system call, below the kernel's MAX_RW_COUNT.
inline constexpr std::size_t kMaxCall = std::size_t(1) << 30;

// `bytes` between our contiguous `local` and `remote` in process `pid`.
// Returns 0 or an errno (kNoData: a call moved nothing).
int copy(Dir d, pid_t pid, void* local, std::uint64_t remote, std::size_t bytes);
inline int read(pid_t pid, void* local, std::uint64_t remote, std::size_t bytes) {
  return copy(Dir::read, pid, local, remote, bytes);
}
inline int write(pid_t pid, const void* local, std::uint64_t remote, std::size_t bytes) {
  return copy(Dir::write, pid, const_cast<void*>(local), remote, bytes);
}

// Between the pieces local[0..nl) and remote[0..nr) of process `pid`, in
// order; each list describes `bytes` bytes (either may be longer than
// IOV_MAX). Returns 0 or an errno (kNoData: a call moved nothing).
int copyv(Dir d, pid_t pid, const iovec* local, std::size_t nl, const iovec* remote, std::size_t nr,
          std::size_t bytes);

// The same between two lists of this process, by memcpy: no system call
// (a message to oneself; 64 KiB cost about 1.5 us against 10). Returns the
// bytes copied, at most both lists' totals.
std::size_t copy_self(const iovec* local, std::size_t nl, const iovec* remote, std::size_t nr);

// A refusal (EPERM, EACCES, ENOSYS): single copy is not allowed with this
// peer, which the callers answer with their fallback.
inline bool refused(int err) { return err == EPERM || err == ENOSYS || err == EACCES; }

// Does single copy work here? RINGMPI_FORCE_COPY_FALLBACK=1 or mpiexec's
// flag say no; so does Yama's ptrace_scope >= 2; otherwise one word read
// from this process itself decides (the call may be missing or filtered).
// Also lets any process of ours trace us (Yama scope 1 lets only ancestors
// read us; our peers are siblings).
bool probe();

// The process-wide switch: set by init() (MPI_Init, p2p::init) from probe(),
// cleared for good by disable() when a peer refused. Each transfer that then
// goes another way counts itself (count_fallback).
namespace detail {
extern bool g_usable;
}
void init();
inline bool usable() { return detail::g_usable; }
// A refusal met: no single copy from now on.
void disable();
// A transfer that went another way because single copy is off or was refused.
inline void count_fallback() { core::count(core::Counter::smsc_fallback); }

}  // namespace ringmpi::smsc
