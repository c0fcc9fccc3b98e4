// MPI windows (MPI-3.1 chapter 11) on one node: every window owns one shared
// segment (a memfd made by the window's rank 0 and mapped by every rank of
// the window), which holds the window's control words and, for the
// allocate and shared flavors, the window memory of every rank.
//
// Segment layout (offsets from the mapping's start, see create_window):
//   [TargetCtl x n][post counters n*n][complete counters n*n]
//   [AttachList x n]                              (dynamic flavor)
//   [pad to page][memory of rank 0][memory of rank 1]... (allocate / shared)
// Rank r's memory starts at Window::offset[r]: directly after rank r-1's
// (contiguous, the default of MPI_Win_allocate_shared) or on its own page
// (info alloc_shared_noncontig = true, and MPI_Win_allocate).
//
// Shared-memory invariants (who writes which word, with which order):
// - The segment is zero when made (memfd), and zero is the valid initial
//   state of every control word: unlocked, no post, no complete.
// - TargetCtl::lock (target t's passive-target lock): changed only by
//   compare-exchange (acquire on success) to take it, by fetch_sub / store
//   (release) to give it back; 0 free, k > 0 held shared by k ranks, -1 held
//   exclusive. The release/acquire pair orders everything the holder did in
//   its epoch before what the next holder does in its own.
// - TargetCtl::acc (target t's accumulate mutex): exchange(1, acquire) to
//   take, store(0, release) to give back. Every accumulate-family operation
//   (Accumulate, Get_accumulate, Fetch_and_op, Compare_and_swap) on target t
//   runs whole under it, so they are atomic per element, as MPI-3.1 §11.7.1
//   requires, and each one sees the result of the previous one.
// - post[t*n+o] counts the MPI_Win_post calls of t whose group held o;
//   written only by t (fetch_add, release), read by o (acquire).
//   complete[t*n+o] counts the MPI_Win_complete calls of o whose start group
//   held t; written only by o (fetch_add, release), read by t (acquire). Each
//   side keeps a private count of what it consumed (Window::posts_seen,
//   completes_seen), so counters only grow and no one ever resets them.
// - AttachList r (dynamic flavor): rank r's attached memory, written only by
//   r, read by every origin under a seqlock (attach.cpp has the argument).
// - Window memory itself is plain memory: an origin's put is a memcpy (a
//   process_vm_writev for Win_create/dynamic windows), ordered for the
//   target by the synchronisation that closes the epoch (fence barrier,
//   complete counter, unlock release); see sync.cpp for the argument.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/attributes.hpp"
#include "core/handle.hpp"
#include "core/runtime.hpp"
#include "rma/attach.hpp"
#include "mpi.h"

namespace ringmpi::rma {

enum class Flavor : int {
  create = MPI_WIN_FLAVOR_CREATE,
  allocate = MPI_WIN_FLAVOR_ALLOCATE,
  dynamic = MPI_WIN_FLAVOR_DYNAMIC,
  shared = MPI_WIN_FLAVOR_SHARED,
};

struct alignas(64) TargetCtl {
  std::atomic<std::int32_t> lock;  // 0 free, k>0 shared holders, -1 exclusive
  std::atomic<std::uint32_t> acc;  // accumulate mutex: 0 free, 1 held
};
static_assert(std::atomic<std::int32_t>::is_always_lock_free && std::atomic<std::uint32_t>::is_always_lock_free);

// What this rank holds on one target (passive target synchronisation).
enum class Held : std::uint8_t { none, shared, exclusive };

struct Window {
  Flavor flavor = Flavor::create;
  MPI_Comm comm = MPI_COMM_NULL;  // a private duplicate of the user's communicator
  int rank = 0, size = 0;
  std::vector<int> world;          // world rank of each window rank
  std::vector<int> pid;            // process id of each window rank (single-copy path)
  std::vector<MPI_Aint> win_size;  // bytes of each rank's window memory
  std::vector<MPI_Aint> disp_unit;  // positive; beyond an int only from the _c constructors
  std::vector<std::uintptr_t> base;  // create flavor: each rank's base in its own address space
  std::vector<std::size_t> offset;   // allocate/shared flavors: each rank's memory in the segment

  // The segment, mapped here.
  std::byte* seg = nullptr;
  std::size_t seg_bytes = 0;
  TargetCtl* ctl = nullptr;
  std::atomic<std::uint32_t>* post = nullptr;
  std::atomic<std::uint32_t>* complete = nullptr;
  AttachList* attach = nullptr;  // dynamic flavor: one list per rank

  // This rank's epochs.
  bool fence_open = false;  // a fence without MPI_MODE_NOSUCCEED began an epoch
  bool lock_all = false;
  std::vector<Held> held;               // per target
  std::vector<int> access_group;        // MPI_Win_start's targets (window ranks); empty: none
  bool access_open = false;
  std::vector<int> exposure_group;      // MPI_Win_post's origins
  bool exposure_open = false;
  std::vector<std::uint32_t> posts_seen;      // per target: posts consumed by my starts
  std::vector<std::uint32_t> completes_seen;  // per origin: completes consumed by my waits

  std::uint64_t serial = 0;  // creation order on this rank (MPI_Finalize frees in that order)
  std::string name;
  core::AttributeSet attrs;
  bool noncontig = false;
  // Values the predefined attributes point to (MPI_Win_get_attr).
  void* attr_base = nullptr;
  MPI_Aint attr_size = 0;
  // MPI_WIN_DISP_UNIT is an int (MPI-4.1 §12.2.6): this rank's unit, or
  // MPI_UNDEFINED when it does not fit one (rma_win.cpp, shared_query).
  int attr_disp_unit = 1, attr_flavor = 0, attr_model = MPI_WIN_UNIFIED;

  ~Window();

  // True when an RMA call may address target t now (an access epoch covers
  // it). Inline: every RMA call asks; a start group is looked through out of
  // line.
  bool may_access(int t) const {
    return fence_open || lock_all || held[static_cast<std::size_t>(t)] != Held::none || in_access_group(t);
  }
  bool in_access_group(int t) const;
  // Any epoch of this rank still open (MPI_Win_free must fail then).
  bool epoch_open() const;
  // Local address of rank t's window memory (allocate/shared flavors).
  std::byte* memory_of(int t) const { return seg + offset[t]; }
};

struct State {
  core::HandleTable<Window> table{core::Kind::win};
  std::uint64_t made = 0;  // windows made so far (Window::serial)
};
State& make_state();
// Inline: every RMA call looks its window up (put + flush latency).
inline State& state() {
  auto& p = core::rt().rma;
  return __builtin_expect(p != nullptr, 1) ? *p : make_state();
}
inline Window* lookup(MPI_Win h) { return state().table.get(h); }

// The result of a collective window construction: an error class and a
// sentence (the same verdict on every rank), or the new handle.
struct Made {
  int code = MPI_SUCCESS;
  std::string why;
  MPI_Win handle = MPI_WIN_NULL;
  void* base = nullptr;  // allocate / shared flavors: this rank's memory
};

// An argument error only this rank can see (code MPI_SUCCESS: none) and the
// sentence naming it.
struct LocalError {
  int code = MPI_SUCCESS;
  std::string why;
};

// Collective over `comm` (an intracommunicator). `size`, `disp_unit` are
// this rank's; `user_base` only for create; noncontig: info
// alloc_shared_noncontig = true (shared flavor). When any rank has a
// LocalError, every rank returns an error and no window is made.
Made create_window(Flavor flavor, MPI_Comm comm, MPI_Aint size, MPI_Aint disp_unit, void* user_base, bool noncontig,
                   const LocalError& local);
// Collective. Frees the segment and the private communicator.
void free_window(MPI_Win h);
// The live windows, oldest first.
std::vector<MPI_Win> live_windows();
// MPI_Finalize, before its barrier: runs the delete callbacks of every live
// window's attributes (failures are reported and skipped).
void delete_window_attributes();
// MPI_Finalize, once every rank has passed the finalize barrier (no RMA can
// be in flight any more): unmaps every live window here, with no
// communication (finalize.cpp).
void release_all_windows();

}  // namespace ringmpi::rma
