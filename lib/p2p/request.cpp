#include "p2p/request.hpp"

#include "core/handle.hpp"

namespace ringmpi::p2p {

RequestPool::RequestPool() {
  chunks_.push_back(std::make_unique<Request[]>(1u << kChunkBits));
  Request* done = slot(1);
  done->complete = true;
  done->shared_done = true;
  done->pooled = true;
  done->index = 1;
  done->gen = 0;
}

Request* RequestPool::alloc() {
  std::uint32_t i;
  if (!free_.empty()) {
    i = free_.back();
    free_.pop_back();
  } else {
    if (next_ > core::kIndexMask) return nullptr;
    i = next_++;
    if ((i >> kChunkBits) >= chunks_.size()) chunks_.push_back(std::make_unique<Request[]>(1u << kChunkBits));
  }
  Request* r = slot(i);
  const std::uint32_t gen = r->gen % core::kGenMask + 1;  // 1..63: never a predefined handle's 0
  *r = Request{};
  r->index = i;
  r->gen = gen;
  r->pooled = true;
  ++live_;
  return r;
}

MPI_Request RequestPool::handle(const Request* r) const {
  return core::make_handle(core::Kind::request, r->index, r->gen);
}

Request* RequestPool::get(MPI_Request h) const {
  if (!core::handle_is(h, core::Kind::request)) return nullptr;
  const std::uint32_t i = core::handle_index(h);
  if (i == 0 || i >= next_) return nullptr;
  Request* r = slot(i);
  if (r->gen != core::handle_gen(h)) return nullptr;
  if (i != 1 && r->user_freed) return nullptr;
  return r;
}

void RequestPool::release(Request* r) {
  if (r->shared_done) return;
  const std::uint32_t i = r->index, gen = r->gen;
  *r = Request{};
  r->index = i;
  r->gen = gen % core::kGenMask + 1;  // the old handle stops decoding now
  free_.push_back(i);
  --live_;
}

}  // namespace ringmpi::p2p
