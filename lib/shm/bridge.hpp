// The memory two jobs of separate mpiexec runs share once connected
// (MPI_Comm_accept/MPI_Comm_connect, MPI_Comm_join across jobs;
// docs/design/dynamic-processes.md, "Connecting two jobs").
//
// A bridge is a memfd the accepting root creates per connection: one ring in
// each direction for every pair (a, b) of an accepting-group member a (index
// i in that group) and a connecting-group member b (index j):
//   [BridgeHeader][ring A_i -> B_j x na*nb][ring B_j -> A_i x nb*na]
// Rings have the layout of lib/shm/ring.hpp (all zero is empty), capacity a
// power of two at least each job's arena ring capacity, so that every record
// one job's engine makes fits. Sparse like the arena: pairs that never talk
// cost nothing.
//
// Invariants
// - Written once by the creator (the header) before its descriptor leaves the
//   process; afterwards only the rings' own protocol writes it.
// - The descriptor travels between the roots with SCM_RIGHTS over a Unix
//   socket whose peer uid was checked (SO_PEERCRED), and to the other members
//   of each group as /proc/<root pid>/fd/<n> (the kernel's ptrace-read check:
//   the same user only); so another user never maps it.
// - Each process keeps the bridges it mapped until it exits (rings of a pair
//   may be rebound to a later bridge; a stale pending bit then drains an
//   empty old ring, never unmapped memory).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace ringmpi::shm {

// Bits past the job's own slots (rounded up to 64) in every pending bitmap
// of the arena (ArenaLayout::compute): a process of a connected job whose
// slot there is s is index round_up(nranks, 64) + s here, for s below this.
inline constexpr std::uint32_t kForeignRoom = 512;

inline constexpr std::uint64_t kBridgeMagic = 0x3147'4449'5242'4d52ull;  // "RMBRIDG1"

struct BridgeHeader {
  std::uint64_t magic;
  std::uint32_t na, nb;          // accepting, connecting group sizes
  std::uint64_t ring_capacity;   // payload bytes of one ring
  std::uint64_t ring_stride;     // kRingHeaderBytes + ring_capacity
  std::uint64_t rings_offset;
  std::uint64_t total_bytes;
};

class Bridge {
 public:
  // Creates a bridge for na x nb pairs; returns its descriptor (close-on-exec)
  // or -1 with *error set.
  static int create(std::uint32_t na, std::uint32_t nb, std::uint64_t ring_capacity, std::string* error);
  // Maps a bridge (kept mapped until the process exits); false with *error.
  bool map(int fd, std::string* error);
  const BridgeHeader& header() const { return *reinterpret_cast<const BridgeHeader*>(base_); }
  // Ring from accepting member i to connecting member j, and back.
  std::byte* ring_a_to_b(std::uint32_t i, std::uint32_t j) const;
  std::byte* ring_b_to_a(std::uint32_t j, std::uint32_t i) const;

 private:
  std::byte* base_ = nullptr;
};

// The descriptor of this process's own arena, kept open (close-on-exec) by
// MPI_Init so that a connect to another job can hand it over; -1 before.
void keep_own_arena_fd(int fd);
int own_arena_fd();

}  // namespace ringmpi::shm
