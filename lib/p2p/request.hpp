// Requests: one per point-to-point operation that does not finish inside the
// call that started it.
//
// Ownership. A Request lives in the RequestPool (stable addresses, so the
// address can travel as a cookie in ring records) or, for operations that
// block inside one call (MPI_Send, MPI_Recv, the internal transfers), on the
// caller's stack; only pooled requests get MPI_Request handles. A pooled
// request is released (slot reused, generation bumped so the old handle no
// longer decodes) when both the user is done with it (MPI_Wait/Test returned
// it, or MPI_Request_free) and the engine is (complete == true).
//
// Extension requests (Kind::ext) stand for operations made of many
// transfers, such as a nonblocking collective (lib/coll/schedule.hpp): the
// engine polls their Extension at the end of every progress() and completes
// the request when poll() says it is done (lib/p2p/extension.cpp).
//
// Slot 1 of the pool is the shared "completed send": an MPI_Isend whose
// data went into the ring at once is finished, carries no state and so
// needs no request of its own (MPICH's lightweight requests do the same).
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "core/handle.hpp"
#include "dtype/datatype.hpp"
#include "mpi.h"

namespace ringmpi::p2p {

enum class Kind : std::uint8_t { send, recv, ext };
struct BsendBuffer;  // p2p/state.hpp

// The operation behind an extension request. poll() runs inside progress()
// (never re-entered) and advances the operation as far as it can without
// blocking; it returns true once the operation is finished, and is not
// called again after that.
class Extension {
 public:
  virtual ~Extension() = default;
  virtual bool poll() = 0;
  virtual int error() const = 0;           // MPI_SUCCESS or the error class, once finished
  virtual const char* describe() const = 0;  // a sentence about the error, for its message
  // Whether this is a generalized request (lib/api/grequest.hpp), whose
  // hand-back runs the user's callbacks: every completion call asks, so it
  // is a virtual call rather than a dynamic_cast (a type-name walk).
  virtual bool generalized() const { return false; }
  // Whether MPI_Request_free may let it go before it completes (point-to-point
  // operations such as MPI_Isendrecv: yes; a nonblocking collective: no,
  // MPI-3.1 §5.12). The engine finishes it and then releases it.
  virtual bool freeable() const { return false; }
};
enum class Mode : std::uint8_t { standard, sync, ready, buffered };

struct Request;

// The plain fields of a request: trivially copyable, so that a pooled slot
// is reset (RequestPool::alloc) by copying a default one rather than by
// move-assigning a whole Request (its owning members are empty already:
// release() lets them go).
struct RequestFields {
  Kind kind = Kind::send;
  Mode mode = Mode::standard;
  bool persistent = false;
  bool active = false;    // started and not yet handed back by a completion call
  bool complete = false;  // the engine is done; status fields are valid
  bool user_freed = false;  // MPI_Request_free'd: release as soon as complete
  bool pooled = false;
  bool shared_done = false;  // the pool's shared completed send
  bool cancelled = false;
  bool cancel_sent = false;  // send: a wire::CancelSend went to the receiver
  bool posted = false;  // in a posted-receive queue
  bool queued = false;  // in an outgoing queue, not yet (fully) in the ring
  std::uint8_t waits = 0;  // events still needed before complete (acks, shares of a copy)

  // Envelope: a send's destination or a receive's source filter (comm ranks).
  std::uint32_t context = 0;
  int peer = 0;
  int tag = 0;
  int world = -1;  // send: destination's world rank
  int stamp = 0;   // send: our rank as the receiver sees it
  MPI_Comm comm = MPI_COMM_NULL;

  // The user's buffer (buf, count, type); `bytes` is its stream size.
  void* buf = nullptr;
  int count = 0;
  const dtype::Datatype* type = nullptr;
  bool contig = true;
  std::size_t bytes = 0;

  // Status (receives; sends report only cancelled).
  int st_source = MPI_ANY_SOURCE;
  int st_tag = MPI_ANY_TAG;
  int st_error = MPI_SUCCESS;
  std::size_t st_count = 0;
  std::size_t msg_bytes = 0;  // the incoming message's size (for truncation messages)

  // Matching queues (posted receives) and outgoing queues.
  Request* prev = nullptr;
  Request* next = nullptr;
  std::uint64_t seq = 0;

  // Large messages.
  std::uint64_t peer_cookie = 0;
  int peer_world = -1;            // receive: the sender's world rank
  std::size_t xfer_bytes = 0;     // bytes this transfer moves
  std::size_t xfer_done = 0;      // pushed (sender) / arrived (receiver), push protocol
  bool push_only = false;         // send: too fragmented to be read remotely
  bool offer = false;             // send: an eager-sized message offered as rendezvous (send.cpp, offer_send)
  // Receive: where the sender's data is (wire::Rts addr/niov) and the share
  // the sender writes itself (cts_write).
  std::uint64_t remote_addr = 0, remote_niov = 0;
  std::size_t share_offset = 0, share_bytes = 0;

  long bsend_offset = -1;  // buffered send: its block in the attached buffer ...
  BsendBuffer* bsend_buffer = nullptr;  // ... and that buffer (null: the process's)

  std::uint32_t index = 0;
  std::uint32_t gen = 0;
};

static_assert(std::is_trivially_copyable_v<RequestFields>);

struct Request : RequestFields {
  dtype::TypePtr hold;  // keeps a derived type alive while the operation is pending
  std::vector<iovec> iov;  // send: layout of a non-contiguous buffer, read by the receiver
  std::unique_ptr<Extension> ext;  // Kind::ext: the operation
};

class RequestPool {
 public:
  RequestPool();
  // A fresh request without a handle yet; nullptr when 2^20 are live.
  Request* alloc() {
    if (__builtin_expect(free_.empty(), 0)) return grow();
    Request* r = slot(free_.back());
    free_.pop_back();
    const std::uint32_t i = r->index, gen = r->gen;  // release() moved gen on already
    // hold, iov and ext are empty (release()). A memcpy of the constant
    // compiles to 16-byte stores; the assignment became `rep stos`, whose
    // start-up costs more than the whole copy on this size.
    std::memcpy(static_cast<RequestFields*>(r), &kFresh, sizeof(RequestFields));
    r->index = i;
    r->gen = gen;
    r->pooled = true;
    ++live_;
    return r;
  }
  MPI_Request handle(const Request* r) const { return core::make_handle(core::Kind::request, r->index, r->gen); }
  // The request behind h, or nullptr for null, freed, wrong-kind or garbage handles.
  Request* get(MPI_Request h) const {
    if (!core::handle_is(h, core::Kind::request)) return nullptr;
    const std::uint32_t i = core::handle_index(h);
    if (i == 0 || i >= next_) return nullptr;
    Request* r = slot(i);
    if (r->gen != core::handle_gen(h)) return nullptr;
    if (i != 1 && r->user_freed) return nullptr;
    return r;
  }
  // As get(), but also a request the user freed that the engine still holds
  // (MPI_Grequest_complete after MPI_Request_free, MPI-3.1 §12.2).
  Request* get_held(MPI_Request h) const {
    if (!core::handle_is(h, core::Kind::request)) return nullptr;
    const std::uint32_t i = core::handle_index(h);
    if (i <= 1 || i >= next_) return nullptr;
    Request* r = slot(i);
    return r->gen == core::handle_gen(h) ? r : nullptr;
  }
  // Back to the pool: the handle stops decoding at once; what the request
  // holds (a datatype, an iovec array) is let go now, the rest on reuse.
  void release(Request* r) {
    if (r->shared_done) return;
    r->hold.reset();
    r->ext.reset();
    if (r->iov.capacity()) std::vector<iovec>().swap(r->iov);
    r->gen = r->gen % core::kGenMask + 1;  // 1..63: never a predefined handle's 0
    free_.push_back(r->index);
    --live_;
  }
  Request* shared_done() const { return slot(1); }
  std::size_t live() const { return live_; }

 private:
  Request* grow();  // a never-used slot (new chunk when needed)
  // What alloc() copies into a reused slot: one block copy, not a store per field.
  static constexpr RequestFields kFresh{};
  // 256 requests (about 70 KB) a chunk: a rank allocates the first at
  // MPI_Init and more only as it keeps more requests alive at once. (Chunks
  // of 4096 cost every rank 1.1 MB at start; at np = 256 their page faults
  // were 4 % of the job's samples.)
  static constexpr std::uint32_t kChunkBits = 8;
  Request* slot(std::uint32_t i) const { return &chunks_[i >> kChunkBits][i & ((1u << kChunkBits) - 1)]; }
  std::vector<std::unique_ptr<Request[]>> chunks_;
  std::vector<std::uint32_t> free_;
  std::uint32_t next_ = 2;
  std::size_t live_ = 0;
};

}  // namespace ringmpi::p2p
