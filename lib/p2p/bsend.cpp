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

// First fit over the blocks in use; -1 when nothing fits. An automatic
// buffer allocates the block.
long bsend_alloc(BsendBuffer& b, std::size_t n) {
  if (b.automatic) {
    const std::size_t id = b.next_block++;
    b.blocks.emplace(id, std::make_unique<std::byte[]>(n));
    return static_cast<long>(id);
  }
  std::size_t at = 0;
  for (const auto& [off, len] : b.used) {
    if (off - at >= n) break;
    at = off + len;
  }
  if (at + n > b.size) return -1;
  b.used.emplace(at, n);
  return static_cast<long>(at);
}

std::byte* block_of(BsendBuffer& b, long off) {
  return b.automatic ? b.blocks.at(static_cast<std::size_t>(off)).get() : b.base + off;
}

BsendBuffer* owned(State& s, std::uint64_t owner) {
  if (owner == kBufferProcess) return &s.bsend;
  auto it = s.bsend_owned.find(owner);
  return it == s.bsend_owned.end() ? nullptr : it->second.get();
}

// The buffer a buffered send on communicator h uses (MPI-4.1 §3.6.1).
BsendBuffer& buffer_for(State& s, MPI_Comm h) {
  if (!s.bsend_owned.empty()) {
    if (BsendBuffer* b = owned(s, buffer_key_comm(h)); b && b->attached()) return *b;
    if (s.session_key_of)
      if (const std::uint64_t k = s.session_key_of(h))
        if (BsendBuffer* b = owned(s, k); b && b->attached()) return *b;
  }
  return s.bsend;
}

}  // namespace

void set_session_key_of(std::uint64_t (*key_of)(MPI_Comm)) { state().session_key_of = key_of; }

int bsend_start(State& s, const SendArgs& a, int dest_world) {
  if (a.dest == MPI_PROC_NULL) return MPI_SUCCESS;
  BsendBuffer& buf = buffer_for(s, a.handle);
  const std::size_t bytes = static_cast<std::size_t>(a.count) * a.type->size;
  const std::size_t need = bytes + MPI_BSEND_OVERHEAD;
  long off = bsend_alloc(buf, need);
  if (off < 0) {
    // Buffered messages the rings took since the last progress free their space.
    progress();
    off = bsend_alloc(buf, need);
  }
  if (off < 0) {
    std::size_t used = 0;
    for (const auto& [o, l] : buf.used) used += l;
    set_error_detail(
        "the attached buffer has no room for this message: it needs %zu bytes (%zu of data + MPI_BSEND_OVERHEAD %d); "
        "%zu of the %zu attached bytes are in use%s",
        need, bytes, MPI_BSEND_OVERHEAD, used, buf.size,
        buf.base ? "" : " (no buffer is attached: call MPI_Buffer_attach first)");
    return MPI_ERR_BUFFER;
  }
  std::byte* copy = block_of(buf, off);
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
      buf.release(static_cast<std::size_t>(off));
      return MPI_SUCCESS;
    }
  }
  Request* r = new_request(s, false);
  if (!r) {
    buf.release(static_cast<std::size_t>(off));
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
  r->bsend_buffer = &buf;
  start_send(s, r);
  return MPI_SUCCESS;
}

int buffer_attach(std::uint64_t owner, void* buffer, std::size_t size) {
  State& s = state();
  BsendBuffer* b = owned(s, owner);
  if (!b) b = s.bsend_owned.emplace(owner, std::make_unique<BsendBuffer>()).first->second.get();
  if (b->attached()) {
    if (b->automatic)
      set_error_detail("MPI_BUFFER_AUTOMATIC is attached already; detach it first");
    else
      set_error_detail("a buffer of %zu bytes is already attached; detach it first", b->size);
    return MPI_ERR_BUFFER;
  }
  *b = BsendBuffer{};
  if (buffer == MPI_BUFFER_AUTOMATIC) {
    b->automatic = true;
    return MPI_SUCCESS;
  }
  b->base = static_cast<std::byte*>(buffer);
  b->size = size;
  return MPI_SUCCESS;
}

std::size_t buffer_attached_size(std::uint64_t owner) {
  const BsendBuffer* b = owned(state(), owner);
  return b && b->attached() && !b->automatic ? b->size : 0;
}

int buffer_detach(std::uint64_t owner, void* buffer_addr, std::size_t* size) {
  State& s = state();
  BsendBuffer* b = owned(s, owner);
  if (!b || !b->attached()) {
    // MPI-3.1 §3.6.1 leaves this to the implementation; MPICH and Open MPI
    // return a null buffer of size 0.
    *static_cast<void**>(buffer_addr) = nullptr;
    *size = 0;
    return MPI_SUCCESS;
  }
  // Blocks until every buffered message has left the buffer.
  wait_until([b] { return b->empty(); });
  // An automatic buffer gives back MPI_BUFFER_AUTOMATIC and size 0 (MPI-4.1 §3.6.1).
  *static_cast<void**>(buffer_addr) = b->automatic ? MPI_BUFFER_AUTOMATIC : b->base;
  *size = b->automatic ? 0 : b->size;
  if (owner == kBufferProcess)
    s.bsend = BsendBuffer{};
  else
    s.bsend_owned.erase(owner);
  return MPI_SUCCESS;
}

bool buffer_empty(std::uint64_t owner) {
  BsendBuffer* b = owned(state(), owner);
  return !b || b->empty();
}

void buffer_flush(std::uint64_t owner) {
  State& s = state();
  BsendBuffer* b = owned(s, owner);
  if (b && !b->empty()) wait_until([b] { return b->empty(); });
}

}  // namespace ringmpi::p2p
