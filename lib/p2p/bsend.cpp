// Buffered sends (MPI_Bsend, MPI_Ibsend, MPI_Bsend_init): the message is
// copied (packed) into the user's attached buffer, then sent from there like
// a standard send; its space is handed back when that send completes
// (complete() in complete.cpp). First fit over the blocks in use.
#include <climits>
#include <cstring>

#include "p2p/engine.hpp"
#include "p2p/engine_private.hpp"
#include "p2p/signature.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::p2p {
namespace {

// First fit over the blocks in use; -1 when nothing fits.
long bsend_alloc(BsendBuffer& b, std::size_t n) {
  std::size_t at = 0;
  for (const auto& [off, len] : b.used) {
    if (off - at >= n) break;
    at = off + len;
  }
  if (at + n > b.size) return -1;
  b.used.emplace(at, n);
  return static_cast<long>(at);
}

}  // namespace

int bsend_start(State& s, const SendArgs& a, int dest_world) {
  if (a.dest == MPI_PROC_NULL) return MPI_SUCCESS;
  const std::size_t bytes = static_cast<std::size_t>(a.count) * a.type->size;
  const std::size_t need = bytes + MPI_BSEND_OVERHEAD;
  long off = bsend_alloc(s.bsend, need);
  if (off < 0) {
    // Buffered messages the rings took since the last progress free their space.
    progress();
    off = bsend_alloc(s.bsend, need);
  }
  if (off < 0) {
    std::size_t used = 0;
    for (const auto& [o, l] : s.bsend.used) used += l;
    set_error_detail(
        "the attached buffer has no room for this message: it needs %zu bytes (%zu of data + MPI_BSEND_OVERHEAD %d); "
        "%zu of the %zu attached bytes are in use%s",
        need, bytes, MPI_BSEND_OVERHEAD, used, s.bsend.size,
        s.bsend.base ? "" : " (no buffer is attached: call MPI_Buffer_attach first)");
    return MPI_ERR_BUFFER;
  }
  std::byte* copy = s.bsend.base + off;
  if (bytes) {
    if (bytes == 0 || a.type->contiguous())
      std::memcpy(copy, a.buf, bytes);
    else
      dtype::pack(a.buf, a.count, *a.type, 0, copy, bytes);
  }
  const dtype::Datatype* byte = dtype::lookup(MPI_BYTE);
  const int dest = dest_world;
  if (bytes <= s.tune.eager_limit) {
    const wire::Envelope env{a.route.context, a.route.rank, a.tag, signature_stamp(*a.type)};
    if (eager_now(s, dest, env, copy, static_cast<int>(bytes), *byte, true, bytes)) {
      s.bsend.used.erase(static_cast<std::size_t>(off));
      return MPI_SUCCESS;
    }
  }
  Request* r = new_request(s, false);
  if (!r) {
    s.bsend.used.erase(static_cast<std::size_t>(off));
    return MPI_ERR_INTERN;
  }
  SendArgs b = a;
  b.buf = copy;
  b.count = static_cast<int>(std::min<std::size_t>(bytes, INT_MAX));
  b.type = byte;
  b.datatype = MPI_BYTE;
  b.mode = Mode::standard;
  fill_send(r, b, false, dest_world);
  r->bytes = bytes;
  r->contig = true;
  r->user_freed = true;  // nobody waits for it: the engine releases it when done
  r->bsend_offset = off;
  start_send(s, r);
  return MPI_SUCCESS;
}

int buffer_attach(void* buffer, std::size_t size) {
  State& s = state();
  if (s.bsend.base) {
    set_error_detail("a buffer of %zu bytes is already attached; MPI_Buffer_detach it first", s.bsend.size);
    return MPI_ERR_BUFFER;
  }
  s.bsend.base = static_cast<std::byte*>(buffer);
  s.bsend.size = size;
  s.bsend.used.clear();
  return MPI_SUCCESS;
}

std::size_t buffer_attached_size() { return state().bsend.base ? state().bsend.size : 0; }

int buffer_detach(void* buffer_addr, std::size_t* size) {
  State& s = state();
  if (!s.bsend.base) {
    // MPI-3.1 §3.6.1 leaves this to the implementation; MPICH and Open MPI
    // return a null buffer of size 0.
    *static_cast<void**>(buffer_addr) = nullptr;
    *size = 0;
    return MPI_SUCCESS;
  }
  // Blocks until every buffered message has left the buffer.
  wait_until([&s] { return s.bsend.used.empty(); });
  *static_cast<void**>(buffer_addr) = s.bsend.base;
  *size = s.bsend.size;
  s.bsend = BsendBuffer{};
  return MPI_SUCCESS;
}

}  // namespace ringmpi::p2p
