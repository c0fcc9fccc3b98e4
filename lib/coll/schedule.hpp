// Collectives as schedules: a program of steps (sends, receives, local
// computations) cut into rounds, run by the point-to-point engine.
//
// Semantics. Steps run in the order they were added. A send or receive step
// starts its transfer and the next step runs at once; a local step runs its
// function when reached; round() is a fence: the steps after it run only
// when every transfer started before it has completed. So "pack; send; recv;
// round; unpack" sends and receives together and unpacks what arrived.
//
// Matching. Every transfer of one schedule carries the schedule's tag on
// the communicator's coll_context(): tags come from a per-communicator
// sequence number that every rank advances once per scheduled collective, in
// the order the collectives are called (which the standard requires to be
// the same on all ranks), so messages of outstanding collectives never match
// each other, and p2p's non-overtaking order keeps the messages of one
// schedule between one pair of ranks in step order.
//
// Progress. A blocking collective runs its schedule to the end in the call
// (run()); a nonblocking one (start()) gets an extension request
// (lib/p2p/extension.cpp) and moves on inside every MPI call that progresses
// the engine, and at its start (the first round's sends leave at the call).
//
// Errors. A local step returns an MPI error class; the schedule keeps the
// first error, still runs every step (the other ranks wait for this rank's
// messages) and reports it at completion. A receive that got more data than
// its buffer holds is MPI_ERR_TRUNCATE.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "coll/base.hpp"
#include "core/scratch_pool.hpp"
#include "dtype/datatype.hpp"
#include "mpi.h"
#include "p2p/request.hpp"

namespace ringmpi::coll {

class Schedule final : public p2p::Extension {
 public:
  Schedule(Peers peers, int tag) : peers_(std::move(peers)), tag_(tag) {
    steps_.reserve(16);
    scratch_.reserve(8);
  }
  ~Schedule() override;

  const Peers& peers() const { return peers_; }
  // The schedule algorithms' sizes (coll/scheduled.hpp), from the
  // communicator's plan when make_schedule made it (RINGMPI_COLL_BLOCK_REDUCTION_MIN,
  // RINGMPI_COLL_ALLTOALL_REDUCE_RANKS; coll/select.hpp Thresholds): read
  // once per schedule, the same on every rank (the tunables' scope is
  // MPI_T_SCOPE_ALL_EQ).
  std::size_t block_reduction_min = 32768;
  std::size_t alltoall_reduce_ranks = 16;

  // Peers are indices into peers().world.
  void send(int to, const void* buf, std::size_t bytes);
  void recv(int from, void* buf, std::size_t bytes);  // at most `bytes`
  void local(std::function<int()> fn);
  // A local step that runs right after the next round() fence (unpacking
  // what the round received).
  void after_round(std::function<int()> fn);
  void round();
  // Memory owned by the schedule (not zeroed; from the scratch pool), alive until it is destroyed.
  std::byte* scratch(std::size_t bytes);
  // Keeps a derived datatype (or anything else) alive while the schedule runs.
  void keep(std::shared_ptr<const void> any) { kept_.push_back(std::move(any)); }

  // Records an error (the first one counts) with its sentence, for local
  // steps that know better than "the reduction operation failed".
  void fail(int code, std::string why);

  // p2p::Extension
  bool poll() override;
  int error() const override { return error_; }
  const char* describe() const override { return why_.c_str(); }

 private:
  enum class Op : std::uint8_t { send, recv, local, fence };
  struct Step {
    Op op;
    int peer = 0;
    void* buf = nullptr;
    std::size_t bytes = 0;
    std::function<int()> fn;
  };
  bool transfers_done();

  Peers peers_;
  int tag_;
  std::vector<Step> steps_;
  std::vector<Step> deferred_;  // after_round() steps of the open round
  std::size_t next_ = 0;
  std::vector<p2p::Request*> pending_;
  std::vector<core::ScratchPool::Block> scratch_;
  std::vector<std::shared_ptr<const void>> kept_;
  int error_ = MPI_SUCCESS;
  std::string why_;
};

// The tag of the next scheduled collective on c (advances c's sequence number;
// every rank calls it once per scheduled collective, in collective order).
int next_tag(comm::Comm& c);
// A schedule over c's ranks (intracommunicator) or the union of its two
// groups (intercommunicator, see coll::peers_of), with the next tag.
std::unique_ptr<Schedule> make_schedule(comm::Comm& c);

// Runs s to its end; returns its error class (the detail in s.describe()).
int run(Schedule& s);
// Starts s as a nonblocking operation; *request gets its handle.
int start(std::unique_ptr<Schedule> s, MPI_Comm comm, MPI_Request* request);

}  // namespace ringmpi::coll
