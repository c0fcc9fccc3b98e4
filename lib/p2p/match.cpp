#include "p2p/match.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "p2p/protocol.hpp"

namespace ringmpi::p2p {

void UnexpectedDeleter::operator()(Unexpected* u) const {
  u->~Unexpected();
  std::free(u);
}

UnexpectedPtr make_unexpected(std::size_t extra) {
  void* p = std::malloc(sizeof(Unexpected) + extra);
  if (!p) throw std::bad_alloc();
  return UnexpectedPtr(new (p) Unexpected{});
}

Context::~Context() {
  for (auto& l : unexp_)
    while (Unexpected* u = l.head) {
      l.remove(u);
      UnexpectedDeleter{}(u);
    }
}

// A posted receive pins its context (pinned()).
void Context::post(Request* r) {
  r->seq = seq_++;
  r->posted = true;
  (r->peer == MPI_ANY_SOURCE ? posted_any_ : bucket(posted_, r->peer)).push_back(r);
  ++nposted_;
}

void Context::unpost(Request* r) {
  (r->peer == MPI_ANY_SOURCE ? posted_any_ : bucket(posted_, r->peer)).remove(r);
  r->posted = false;
  --nposted_;
}

Request* Context::take_posted(int src, int tag) {
  if (nposted_ == 0) return nullptr;
  Request* a = nullptr;
  if (static_cast<std::size_t>(src) < posted_.size())
    for (Request* r = posted_[static_cast<std::size_t>(src)].head; r; r = r->next)
      if (tag_matches(r->tag, tag)) {
        a = r;
        break;
      }
  Request* b = nullptr;
  for (Request* r = posted_any_.head; r; r = r->next)
    if (tag_matches(r->tag, tag)) {
      b = r;
      break;
    }
  Request* m = !a ? b : !b ? a : (a->seq < b->seq ? a : b);
  if (m) unpost(m);
  return m;
}

void Context::add_unexpected(UnexpectedPtr u) {
  u->seq = seq_++;
  bucket(unexp_, u->src).push_back(u.release());
  ++nunexp_;
}

Unexpected* Context::find_unexpected(int src, int tag) {
  if (nunexp_ == 0) return nullptr;
  auto first_in = [tag](const List<Unexpected>& l) -> Unexpected* {
    for (Unexpected* u = l.head; u; u = u->next)
      if (tag_matches(tag, u->tag)) return u;
    return nullptr;
  };
  if (src != MPI_ANY_SOURCE)
    return static_cast<std::size_t>(src) < unexp_.size() ? first_in(unexp_[static_cast<std::size_t>(src)]) : nullptr;
  Unexpected* best = nullptr;
  for (const auto& l : unexp_)
    if (Unexpected* u = l.head ? first_in(l) : nullptr)
      if (!best || u->seq < best->seq) best = u;
  return best;
}

UnexpectedPtr Context::take_unexpected(Unexpected* u) {
  unexp_[static_cast<std::size_t>(u->src)].remove(u);
  --nunexp_;
  return UnexpectedPtr(u);
}

Unexpected* Context::find_by_cookie(int src, int from_world, std::uint64_t cookie) {
  if (src < 0 || static_cast<std::size_t>(src) >= unexp_.size()) return nullptr;
  for (Unexpected* u = unexp_[static_cast<std::size_t>(src)].head; u; u = u->next) {
    if (u->from_world != from_world) continue;
    if (u->kind == wire::eager_sync && u->cookie == cookie) return u;
    if (u->kind == wire::rts) {
      wire::Rts rts;
      std::memcpy(&rts, u->data(), sizeof rts);
      if (rts.cookie == cookie) return u;
    }
  }
  return nullptr;
}

Context& Contexts::make(std::uint32_t id) {
  if (id < kDirect) {
    if (id >= direct_.size()) direct_.resize(id + 1);
    auto& p = direct_[id];
    if (!p) p = std::make_unique<Context>();
    return *p;
  }
  auto& p = map_[id];
  if (!p) p = std::make_unique<Context>();
  return *p;
}

}  // namespace ringmpi::p2p
