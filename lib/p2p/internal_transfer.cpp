// Blocking transfers of the library's own protocols: no handles, no error
// handlers, the same rings and matching as user traffic (on another context).
#include "p2p/internal_transfer.hpp"

#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/engine_private.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::p2p {
namespace {

// `bytes` as a count of MPI_BYTE (internal messages may exceed INT_MAX bytes).
int byte_count(std::size_t bytes) {
  return bytes > static_cast<std::size_t>(INT32_MAX) ? INT32_MAX : static_cast<int>(bytes);
}

void fill_bytes(Request* r, const void* buf, std::size_t bytes) {
  r->buf = const_cast<void*>(buf);
  r->type = dtype::lookup(MPI_BYTE);
  r->count = byte_count(bytes);
  r->bytes = bytes;
  r->contig = true;
}

}  // namespace

namespace {

// The request of an internal send that did not fit the ring at once.
void fill_send(Request* r, const void* buf, std::size_t bytes, int dest_world, int tag, std::uint32_t context,
               int src_rank) {
  r->kind = Kind::send;
  r->mode = Mode::standard;
  r->comm = MPI_COMM_WORLD;
  r->context = context;
  r->peer = dest_world;
  r->world = dest_world;
  r->tag = tag;
  r->stamp = src_rank;
  fill_bytes(r, buf, bytes);
}

// The eager fast path for bytes: no datatype (no lookup of MPI_BYTE, no
// contiguity test), no signature stamp (internal messages carry none).
[[gnu::always_inline]] inline bool eager_internal(State& s, const void* buf, std::size_t bytes, int dest_world,
                                                  int tag, std::uint32_t context, int src_rank) {
  return bytes <= s.tune.eager_limit &&
         eager_now_inline(s, dest_world, wire::Envelope{context, src_rank, tag, 0}, buf, 0, nullptr, true, bytes);
}

void fill_recv(Request* r, void* buf, std::size_t max_bytes, int src_rank, int tag, std::uint32_t context) {
  r->kind = Kind::recv;
  r->comm = MPI_COMM_WORLD;
  r->context = context;
  r->peer = src_rank;
  r->tag = tag;
  fill_bytes(r, buf, max_bytes);
}

Request* pooled(State& s) {
  Request* r = new_request(s, false);
  if (!r) internal_error("%s", error_detail());
  return r;
}

}  // namespace

namespace {

// The general paths, out of line: their request on the stack would make
// the fast paths above save registers and set up a frame for it every call.
[[gnu::noinline]] void send_internal_slow(State& s, const void* buf, std::size_t bytes, int dest_world, int tag,
                                          std::uint32_t context, int src_rank) {
  Request r;
  fill_send(&r, buf, bytes, dest_world, tag, context, src_rank);
  start_send(s, &r);
  if (!r.complete) wait_until([&r] { return r.complete; });
}

// (The receive's arguments come in d, which stays in memory across the
// direct attempt, so that the fast path keeps none of them in registers.)
[[gnu::noinline]] std::size_t recv_internal_slow(State& s, const DirectRecv& d, int* actual_src) {
  void* const buf = d.buf;
  const std::size_t max_bytes = d.room;
  const int src_rank = d.source, tag = d.tag;
  const std::uint32_t context = d.context;
  Request r;
  fill_recv(&r, buf, max_bytes, src_rank, tag, context);
  start_recv(s, &r);
  if (!r.complete) wait_until([&r] { return r.complete; });
  if (r.st_error == MPI_ERR_TRUNCATE)
    internal_error("%s: an internal message (context %u, tag %d) from rank %d has %zu bytes, more than the %zu "
                   "expected; different counts or types on the ranks? (mpiexec --check)",
                   core::rt().current_call ? core::rt().current_call : "MPI call", context, tag, r.st_source,
                   r.msg_bytes, max_bytes);
  if (actual_src) *actual_src = r.st_source;
  return r.st_count;
}

}  // namespace

void send_internal(const void* buf, std::size_t bytes, int dest_world, int tag, std::uint32_t context, int src_rank) {
  State& s = state();
  if (eager_internal(s, buf, bytes, dest_world, tag, context, src_rank)) return;
  send_internal_slow(s, buf, bytes, dest_world, tag, context, src_rank);
}

Request* isend_internal(const void* buf, std::size_t bytes, int dest_world, int tag, std::uint32_t context,
                        int src_rank) {
  State& s = state();
  if (eager_internal(s, buf, bytes, dest_world, tag, context, src_rank)) return nullptr;
  Request* r = pooled(s);
  fill_send(r, buf, bytes, dest_world, tag, context, src_rank);
  r->active = true;
  start_send(s, r);
  return r;
}

Request* irecv_internal(void* buf, std::size_t max_bytes, int src_rank, int tag, std::uint32_t context) {
  State& s = state();
  Request* r = pooled(s);
  fill_recv(r, buf, max_bytes, src_rank, tag, context);
  r->active = true;
  start_recv(s, r);
  return r;
}

void release_internal(Request* r) { state().requests.release(r); }

int try_recv_internal(void* buf, std::size_t max_bytes, int src_rank, int src_world, int tag, std::uint32_t context,
                      std::size_t* bytes) {
  const DirectRecv d{context, src_rank, src_world, tag, buf, byte_count(max_bytes), nullptr, max_bytes};
  wire::Envelope env;
  return try_direct_recv(state(), d, &env, bytes);
}

std::size_t recv_internal(void* buf, std::size_t max_bytes, int src_rank, int tag, std::uint32_t context,
                          int* actual_src, int src_world) {
  State& s = state();
  const DirectRecv d{context, src_rank, src_world, tag, buf, byte_count(max_bytes), nullptr, max_bytes};
  if (src_world >= 0 && src_rank >= 0) {  // direct_recv checks the queues itself
    wire::Envelope env;
    std::size_t n;
    if (direct_recv(s, d, &env, &n)) {
      if (actual_src) *actual_src = env.src;
      return n;
    }
  }
  return recv_internal_slow(s, d, actual_src);
}

}  // namespace ringmpi::p2p
