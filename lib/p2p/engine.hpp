// The point-to-point engine as lib/api sees it: lifetime hooks, starting
// operations, completing requests, probes, buffered sends.
//
// Calls return MPI_SUCCESS or an error class and never call error handlers;
// error_detail() then holds a sentence for the message lib/api prints.
// Arguments are checked by lib/api before they get here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/runtime.hpp"
#include "core/scratch_pool.hpp"
#include "dtype/datatype.hpp"
#include "mpi.h"
#include "p2p/request.hpp"
#include "p2p/route.hpp"
#include "shm/arena.hpp"

namespace ringmpi::p2p {

struct State;

// After the arena is mapped and MPI_COMM_WORLD exists.
void init();

// ---- for the layers above, which do not see the engine's State (p2p/state.hpp
// is p2p's own: scripts/layers.txt, test `layering`) ----------------------------

namespace detail {
extern shm::RankSlot* g_slots;  // the arena's slots by world rank (set by init)
}
// Whether world rank `world` sleeps in a wait (its slot's `sleeping` flag,
// acquire): whoever may have unblocked it rings its doorbell
// (ring_doorbell, p2p/wait.hpp). After init().
inline bool peer_sleeping(int world) {
  return detail::g_slots[world].sleeping.load(std::memory_order_acquire);
}
// The temporaries the collectives reuse across calls (core/scratch_pool.hpp).
inline core::ScratchPool& scratch() { return core::rt().scratch; }
// The protocol sizes, as compiled in (init() settles them from the ring
// size and the RINGMPI_* tunables; State::tune holds the settled ones).
struct Tunables {
  std::size_t eager_limit = 16384;   // largest message sent whole through the ring (init: ring/16, 16..32 KiB)
  std::size_t split_min = 32768;     // both sides copy half of a large message from this size on (every rendezvous at the default eager limit)
  std::size_t chunk = 16384;         // data record size of the push protocol
  // Blocking sends from this size up to eager_limit offer a rendezvous first
  // (send.cpp, "Protocol choice"; docs/design/p2p-protocols.md). Above the
  // default eager limit (32 KiB): with the cores' caches to themselves, the
  // eager copy wins up to there.
  std::size_t rndv_min = 65536;
};

// What init() settled, for MPI_T's read-only control variables; false before
// MPI_Init (without making the engine's state), kept after MPI_Finalize.
struct Settings {
  std::uint64_t ring_bytes;
  std::size_t eager_limit;
  std::size_t chunk;
};
bool settings(Settings* out);
// Installed by lib/api's sessions: the buffer key (buffer_key_session) of
// the session a communicator was made from, or 0 (buffered sends, §3.6.1).
void set_session_key_of(std::uint64_t (*key_of)(MPI_Comm));
// Before the world barrier of MPI_Finalize: completes this rank's outstanding
// sends (a peer may still need to read rendezvous data from this process).
void finalize();

const char* error_detail();

// Context ids with a pending operation here (a posted receive): lib/comm keeps
// them out of the ids it offers for new communicators (comm/context.hpp
// invariant 6).
std::vector<std::uint32_t> pinned_contexts();

struct SendArgs {
  const void* buf;
  int count;
  MPI_Datatype datatype;
  const dtype::Datatype* type;
  int dest;  // rank in the destination group, or MPI_PROC_NULL
  int tag;
  Route route;
  MPI_Comm handle;
  Mode mode;
};

struct RecvArgs {
  void* buf;
  int count;
  MPI_Datatype datatype;
  const dtype::Datatype* type;
  int source;  // rank in the source group, MPI_ANY_SOURCE or MPI_PROC_NULL
  int tag;     // or MPI_ANY_TAG
  Route route;
  MPI_Comm handle;
};

// Blocking calls (MPI_Send/Ssend/Rsend/Bsend, MPI_Recv).
int send(const SendArgs& a);
int recv(const RecvArgs& a, MPI_Status* status);
// Nonblocking and persistent starts; *request gets the handle.
int isend(const SendArgs& a, MPI_Request* request);
int irecv(const RecvArgs& a, MPI_Request* request);
int send_init(const SendArgs& a, MPI_Request* request);
int recv_init(const RecvArgs& a, MPI_Request* request);
// Starts an inactive persistent request.
int start(Request* r);

// Requests. lookup() is nullptr for anything but a live request handle.
Request* lookup(MPI_Request h);
// lookup() of hs[0..n) into out (MPI_REQUEST_NULL gives nullptr): -1, or the
// index of the first handle that is neither null nor live.
int lookup_all(const MPI_Request* hs, int n, Request** out);
// lookup(), also finding a request the user freed that is not complete yet.
Request* lookup_held(MPI_Request h);
// Progresses once and says whether r is complete (inactive persistent
// requests count as complete).
bool test(Request* r);
// Blocks until r is complete.
void wait(Request* r);
// Blocks until one of rs[0..n) (non-null, active) is complete; returns its index.
int wait_any(Request* const* rs, int n);
// Hands a complete request back to the user: fills *status (unless ignored),
// makes a persistent request inactive or releases the request and sets *h to
// MPI_REQUEST_NULL; returns the request's error class (e.g. MPI_ERR_TRUNCATE).
int finish(MPI_Request* h, Request* r, MPI_Status* status);
// The status of a complete request, without releasing it.
void status_of(const Request& r, MPI_Status* status);
// MPI_Request_free.
void release(MPI_Request* h, Request* r);
// MPI_Cancel: cancels a receive not yet matched or a send not yet handed
// over; otherwise the operation completes normally.
void cancel(Request* r);
// Describes a failed request for an error message.
void describe_error(const Request& r, char* out, std::size_t n);
// Fills a status (nothing for MPI_STATUS_IGNORE): source, tag, byte count.
void set_status(MPI_Status* status, int source, int tag, std::size_t bytes, bool cancelled = false);
// Fills the status of an empty request (MPI-3.1 §3.7.3).
void empty_status(MPI_Status* status);

// Probes (source may be MPI_ANY_SOURCE / MPI_PROC_NULL, tag MPI_ANY_TAG).
// `context` is the communicator's (Route::context).
bool iprobe(int source, int tag, std::uint32_t context, MPI_Status* status);
void probe(int source, int tag, std::uint32_t context, MPI_Status* status);
bool improbe(int source, int tag, std::uint32_t context, MPI_Comm h, MPI_Message* message, MPI_Status* status);
void mprobe(int source, int tag, std::uint32_t context, MPI_Comm h, MPI_Message* message, MPI_Status* status);
// Mrecv/Imrecv: `message` is a live handle from Mprobe or MPI_MESSAGE_NO_PROC.
bool message_valid(MPI_Message m);
int mrecv(void* buf, int count, MPI_Datatype datatype, const dtype::Datatype* type, MPI_Message* message,
          MPI_Status* status);
int imrecv(void* buf, int count, MPI_Datatype datatype, const dtype::Datatype* type, MPI_Message* message,
           MPI_Request* request);
MPI_Comm message_comm(MPI_Message m);

// Buffered sends (MPI_Buffer_attach / MPI_Buffer_detach, and MPI-4.1's
// buffers of a communicator or a session). A buffered send uses its
// communicator's buffer, else its session's, else the process's (§3.6.1).
// `owner`: kBufferProcess or a key below; `buffer` MPI_BUFFER_AUTOMATIC: the
// library allocates each message's space itself. Sizes in bytes (the _c
// forms of MPI-4.1 attach buffers larger than an int).
inline constexpr std::uint64_t kBufferProcess = 0;
inline std::uint64_t buffer_key_comm(MPI_Comm h) { return (1ull << 32) | static_cast<std::uint32_t>(h); }
inline std::uint64_t buffer_key_session(int session) { return (2ull << 32) | static_cast<std::uint32_t>(session); }
int buffer_attach(std::uint64_t owner, void* buffer, std::size_t size);
// Blocks until the buffer's messages have left it, then detaches it.
int buffer_detach(std::uint64_t owner, void* buffer_addr, std::size_t* size);
// The size of owner's attached buffer (0 when none is, or an automatic one).
std::size_t buffer_attached_size(std::uint64_t owner);
// Whether owner's buffer holds no message now (true when none is attached).
bool buffer_empty(std::uint64_t owner);
// Blocks until buffer_empty(owner) (MPI_Buffer_flush and its forms).
void buffer_flush(std::uint64_t owner);

}  // namespace ringmpi::p2p
