// Partitioned point-to-point communication (MPI-4.0 chapter 4): the engine
// behind MPI_Psend_init/MPI_Precv_init, MPI_Pready* and MPI_Parrived
// (lib/api/partitioned.cpp holds the entry points and the request).
//
// Traffic. Everything travels as internal messages (internal_transfer.hpp)
// on the communicator's hidden context (Comm::coll_context(), passed in), so
// no user receive can match it:
//   - setup (tag kPartSetupTag, one per side at the first start): the
//     sender's {partitions, bytes}, the receiver's {partitions, bytes, base};
//   - data: sender partition i as its own message, tag kPartDataTop - (base
//     + i), sent when it is readied (MPI_Pready), or, before the receiver's
//     setup has arrived (first epoch only), as soon as it has. `base` is a
//     range of tags the receiving process reserves for this channel
//     (distinct among its live channels), so partitions of different
//     channels and of different partitions never match each other. The
//     receiver posts one receive per sender partition at each start; epochs
//     reuse the tags and p2p's non-overtaking order keeps them apart.
// A readied partition therefore reaches the receiver at once (an eager
// message is in its ring when MPI_Pready returns; a large one is read by
// the receiver by single copy, rendezvous, as soon as it progresses), and
// MPI_Parrived answers for a receive partition as soon as every sender
// partition overlapping it has arrived, whatever the others do.
//
// Matching (MPI-4.0 §4.2.1: "in the order of the initialization calls, by
// source, tag and communicator"): each init numbers itself among the inits
// of its side with the same (context, peer, tag) in this process; the n-th
// Psend_init to (dest, tag) matches the n-th Precv_init from (source, tag)
// there. Setup messages carry (tag, number, side); each process keeps an
// inbox per (context, peer) into which one internal receive, posted while
// some channel still waits for its setup, files them.
//
// Partition counts may differ between the sides (§4.2.1: only the total
// must agree): sender partition i is stream bytes [i*bs, (i+1)*bs) of the
// send buffer, receiver partition j bytes [j*br, (j+1)*br) of the receive
// buffer. Different totals: the receiver completes with MPI_ERR_TRUNCATE
// (it still takes the sender's data, into a scratch buffer, so the sender
// completes).
//
// Everything here runs inside MPI calls, which the call lock serializes at
// MPI_THREAD_MULTIPLE (core/call_lock.hpp): no locking of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dtype/datatype.hpp"
#include "mpi.h"
#include "p2p/partitioned_tags.hpp"

namespace ringmpi::p2p {

struct Request;

struct PartArgs {
  bool send = false;
  void* buf = nullptr;
  int partitions = 0;
  MPI_Count count = 0;  // elements per partition
  const dtype::Datatype* type = nullptr;
  dtype::TypePtr hold;  // a derived type, kept alive
  int peer = MPI_PROC_NULL;  // rank in the peer group, or MPI_PROC_NULL
  int peer_world = -1;
  int me = 0;  // our rank as the peer sees it
  int tag = 0;
  std::uint32_t context = 0;  // the hidden context
};

class Partitioned {
 public:
  explicit Partitioned(PartArgs a);
  ~Partitioned();
  Partitioned(const Partitioned&) = delete;
  Partitioned& operator=(const Partitioned&) = delete;

  const PartArgs& args() const { return a_; }
  bool sender() const { return a_.send; }
  std::size_t bytes() const { return total_; }

  // A new epoch (MPI_Start).
  void start();
  // Send side: partition p (in range, not readied yet in this epoch) is ready.
  void ready(int p);
  bool readied(int p) const { return ready_[static_cast<std::size_t>(p)] != 0; }
  // Receive side: whether receive partition p has arrived (after progress).
  bool arrived(int p) const;
  // Advances the epoch; true once it is complete (inside progress()).
  bool poll();
  int error() const { return error_; }
  const char* describe() const { return why_.c_str(); }

 private:
  // A setup message (see above); side 1: the sender's.
  struct Setup {
    std::int32_t side = 0;
    std::int32_t tag = 0;
    std::uint32_t number = 0;
    std::int32_t parts = 0;
    std::uint64_t bytes = 0;
    std::int32_t base = -1;
    std::int32_t unused = 0;
  };
  void send_partition(int p);
  bool take_setup(Setup* out);  // the peer's setup, if it is in the inbox
  void post_receives();
  void fail(int code, std::string why);

  PartArgs a_;
  std::uint32_t number_ = 0;  // among this side's inits of (context, peer, tag)
  std::size_t total_ = 0;     // bytes of the whole buffer
  std::size_t part_bytes_ = 0;  // bytes of one of our partitions
  bool contiguous_ = true;
  std::vector<std::byte> staging_;  // packed data (non-contiguous types, a size mismatch)
  // Setup state.
  bool setup_sent_ = false, have_peer_ = false, waiting_ = false;
  int peer_parts_ = 0;           // the sender's partition count (receive side: the messages)
  std::size_t peer_bytes_ = 0;   // the sender's partition size in bytes (receive side)
  int base_ = -1;                // the receiver's tag range
  bool mismatch_ = false;
  Setup mine_{};  // our setup message, alive until its send completes
  Request* setup_send_ = nullptr;  // receive side: that send, when it did not go into the ring at once
  // Epoch state.
  std::vector<char> ready_;        // send: readied; receive: sender partition arrived
  std::vector<char> sent_;         // send: handed to the engine
  std::vector<Request*> pending_;  // send: transfers not complete; receive: one per sender partition (or null)
  int left_ = 0;                   // send: partitions not sent; receive: sender partitions not arrived
  int error_ = MPI_SUCCESS;
  std::string why_;
};

// Reserves `n` consecutive data tag offsets for a receive channel; -1 when
// no such range is free.
int reserve_tags(int n);
void release_tags(int base, int n);

// A communicator's context ids were released (MPI_Comm_free): its inits'
// numbering starts again at 0, since a later communicator may get the same
// ids with other peers behind the same ranks (a dup of MPI_COMM_SELF, then
// one of MPI_COMM_WORLD): numbered on, its first init would wait for the
// peer's init of the same number, which never comes.
void forget_contexts(std::uint32_t first, std::uint32_t last);

}  // namespace ringmpi::p2p
