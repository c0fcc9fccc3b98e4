// The p2p engine's per-process state (hung off core::Runtime).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <sys/uio.h>
#include <memory>
#include <vector>

#include "core/handle.hpp"
#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/match.hpp"
#include "p2p/request.hpp"
#include "shm/ring.hpp"

namespace ringmpi::p2p {

// Something waiting for room in the ring to one peer: a send request (its
// eager record, its rts, or the data it pushes after a cts) or a control
// record copied here whole.
struct OutItem {
  Request* req = nullptr;
  bool push = false;  // req: push data (cts_push), not the first record
  std::uint8_t kind = 0;
  std::uint8_t len = 0;
  alignas(8) std::array<std::byte, 64> body{};
};

struct PeerOut {
  shm::RingProducer ring;
  std::deque<OutItem> queue;
  bool listed = false;  // in State::busy
};

struct PeerIn {
  shm::RingConsumer ring;
  std::uint64_t last_active = 0;
  bool hot = false;
  bool readable = false;  // process_vm_readv of this peer worked once (rndv.cpp)
};

// An MPI_Message: a matched message taken off the unexpected queue by MPI_Mprobe.
struct Message {
  UnexpectedPtr msg;
  std::uint32_t context = 0;
  MPI_Comm comm = MPI_COMM_NULL;
};

// MPI_Buffer_attach's buffer (or a communicator's or session's, MPI-4.1
// §3.6.1): blocks handed out first-fit, by offset. An automatic buffer
// (MPI_BUFFER_AUTOMATIC) has no base: each message gets a heap block of its
// own, numbered (the number stands for the offset), freed when it has left.
struct BsendBuffer {
  std::byte* base = nullptr;
  std::size_t size = 0;
  std::map<std::size_t, std::size_t> used;  // offset -> length
  bool automatic = false;
  std::size_t next_block = 0;
  std::map<std::size_t, std::unique_ptr<std::byte[]>> blocks;  // automatic: number -> block
  bool attached() const { return base != nullptr || automatic; }
  bool empty() const { return used.empty() && blocks.empty(); }
  void release(std::size_t off) {
    if (automatic)
      blocks.erase(off);
    else
      used.erase(off);
  }
};

// Rings polled on every progress() without waiting for a pending bit.
inline constexpr int kHotRings = 8;

struct State {
  State();
  int rank = 0;
  int size = 1;
  bool attached = false;  // rings are set up (MPI_Init ran)
  Tunables tune;
  std::vector<PeerOut> out;
  std::vector<PeerIn> in;
  std::vector<int> busy;  // peers with a non-empty outgoing queue
  std::array<int, kHotRings> hot{};
  int nhot = 0;
  std::uint64_t clock = 0;  // counts drains; orders hot-ring eviction
  std::size_t pending_words = 0;
  // Cached arena addresses (the hot paths do not go through core::rt()).
  std::atomic<std::uint64_t>* my_pending = nullptr;
  std::vector<std::atomic<std::uint64_t>*> peer_pending;  // word holding our bit in each peer's bitmap
  std::vector<shm::RankSlot*> slots;
  std::uint64_t ring_capacity = 0;
  bool in_progress = false;
  std::uint64_t records_in = 0;  // records taken from the rings (deadlock detection: activity())
  std::size_t open_sends = 0;
  std::uint64_t completions = 0;  // requests completed so far (drain() stops after one)  // sends not complete, released or not (MPI_Finalize waits for them)
  Contexts contexts;
  RequestPool requests;
  core::HandleTable<Message> messages{core::Kind::message};
  BsendBuffer bsend;  // the process's (MPI_Buffer_attach)
  // Communicators' and sessions' buffers (MPI-4.1), by buffer_key_*() of
  // engine.hpp; stable addresses (a pending buffered send points at its own).
  std::map<std::uint64_t, std::unique_ptr<BsendBuffer>> bsend_owned;
  // Installed by lib/api's sessions: the session a communicator was made
  // from (its buffer_key_session key), or 0.
  std::uint64_t (*session_key_of)(MPI_Comm) = nullptr;
  std::vector<iovec> iov_local, iov_remote;  // scratch of the single-copy transfers
  std::vector<std::byte> stage;  // single-copy reads into short pieces land here first (rndv.cpp)
  std::vector<Request*> extensions;  // started extension requests (lib/p2p/extension.cpp)
};

State& make_state();
inline State& state() {
  auto& p = core::rt().p2p;
  return __builtin_expect(p != nullptr, 1) ? *p : make_state();
}

}  // namespace ringmpi::p2p
