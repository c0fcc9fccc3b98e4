#include "coll/typed.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/copy.hpp"

#include "p2p/internal_transfer.hpp"
#include "p2p/engine.hpp"

namespace ringmpi::coll {

Packed::Packed(const Typed& t) : size_(t.bytes()) {
  if (t.type->contiguous() || size_ == 0) {
    data_ = t.buf;
  } else {
    copy_.resize(size_);
    dtype::pack(t.buf, t.count, *t.type, 0, copy_.data(), size_);
    data_ = copy_.data();
  }
}

void send_bytes(const comm::Comm& c, int dest, int tag, const void* data, std::size_t n) {
  p2p::send_internal(data, n, c.peer_world[dest], tag, c.coll_context(), c.rank);
}

std::size_t recv_bytes(const comm::Comm& c, int src, int tag, void* data, std::size_t max) {
  return p2p::recv_internal(data, max, src, tag, c.coll_context(), nullptr,
                            src >= 0 ? c.peer_world[static_cast<std::size_t>(src)] : -1);
}

namespace {

// send_typed of a non-contiguous layout, out of line (as recv_unpacked below).
[[gnu::noinline]] void send_packed(const comm::Comm& c, int dest, int tag, const Typed& t) {
  const Packed p(t);
  send_bytes(c, dest, tag, p.data(), p.size());
}

}  // namespace

void send_typed(const comm::Comm& c, int dest, int tag, const Typed& t) {
  const std::size_t n = t.bytes();
  if (n == 0 || t.type->contiguous()) {  // Packed would be a view: no object to make and destroy
    send_bytes(c, dest, tag, t.buf, n);
    return;
  }
  send_packed(c, dest, tag, t);
}

namespace {

// recv_typed of a non-contiguous layout, out of line (its temporary would
// give the contiguous path a frame to set up, as Packed would send_typed's).
[[gnu::noinline]] std::size_t recv_unpacked(const comm::Comm& c, int src, int tag, const Typed& t, std::size_t max) {
  std::vector<std::byte> tmp(max);
  const std::size_t n = recv_bytes(c, src, tag, tmp.data(), max);
  dtype::unpack(const_cast<void*>(t.buf), t.count, *t.type, 0, tmp.data(), n);
  return n;
}

}  // namespace

std::size_t recv_typed(const comm::Comm& c, int src, int tag, const Typed& t) {
  const std::size_t max = t.bytes();
  if (t.type->contiguous() || max == 0) return recv_bytes(c, src, tag, const_cast<void*>(t.buf), max);
  return recv_unpacked(c, src, tag, t, max);
}

void copy_typed(const Typed& from, const Typed& to) {
  const std::size_t n = std::min(from.bytes(), to.bytes());
  if (n == 0) return;
  if (to.type->contiguous() && (from.type == to.type || from.type->contiguous())) {
    auto* d = static_cast<std::byte*>(const_cast<void*>(to.buf));
    const auto* f = static_cast<const std::byte*>(from.buf);
    const auto da = reinterpret_cast<std::uintptr_t>(d), fa = reinterpret_cast<std::uintptr_t>(f);
    if (da + n <= fa || fa + n <= da)
      core::copy_bytes(d, f, n);  // inline up to 64 bytes; beyond, an own block at any offset in the receive buffer (core/copy.hpp)
    else
      std::memmove(d, f, n);
    return;
  }
  const Packed p(from);
  dtype::unpack(const_cast<void*>(to.buf), to.count, *to.type, 0, p.data(), n);
}

void bcast_bytes(const comm::Comm& c, int root, void* data, std::size_t n) {
  const int size = c.size();
  const int vr = (c.rank - root + size) % size;
  int mask = 1;
  while (mask < size) {
    if (vr & mask) {
      recv_bytes(c, (vr - mask + root) % size, kTagUserBcast, data, n);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (vr + mask < size) send_bytes(c, (vr + mask + root) % size, kTagUserBcast, data, n);
}

core::ScratchPool::Block Scratch::take(std::size_t bytes) { return p2p::scratch().take(bytes); }

void Scratch::give(core::ScratchPool::Block b) { p2p::scratch().give(b); }

}  // namespace ringmpi::coll
