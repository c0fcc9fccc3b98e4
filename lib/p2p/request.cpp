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

Request* RequestPool::grow() {
  if (next_ > core::kIndexMask) return nullptr;
  const std::uint32_t i = next_++;
  if ((i >> kChunkBits) >= chunks_.size()) chunks_.push_back(std::make_unique<Request[]>(1u << kChunkBits));
  Request* r = slot(i);
  r->index = i;
  r->gen = 1;
  r->pooled = true;
  ++live_;
  return r;
}

}  // namespace ringmpi::p2p
