// Matching: per context id, the posted receives and the unexpected messages.
//
// Both are kept per source rank (plus one list for MPI_ANY_SOURCE receives)
// with a per-context sequence number, so a message finds the earliest
// posted receive it matches and a receive finds the earliest message it
// matches without walking other sources' traffic:
//   - an arriving message (src, tag) takes the lower-seq of the first match
//     in posted[src] and the first match in posted_any;
//   - a receive for a given source scans unexpected[src] in arrival order;
//     MPI_ANY_SOURCE takes the lowest-seq first match over the sources.
// Arrival order per source is ring order, which is send order: together
// this is the non-overtaking rule of MPI-3.1 §3.5.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "p2p/request.hpp"

namespace ringmpi::p2p {

// A message that arrived before its receive was posted.
struct Unexpected {
  Unexpected* prev = nullptr;
  Unexpected* next = nullptr;
  std::uint64_t seq = 0;
  int src = 0;
  int tag = 0;
  int from_world = 0;
  std::uint8_t kind = 0;      // wire::Kind of the record it came in
  std::uint32_t signature = 0;  // wire::Envelope::signature (mpiexec --check), 0: none
  std::size_t bytes = 0;      // message size
  std::uint64_t cookie = 0;   // eager_sync: the sender's request
  // eager: the payload; rts: a wire::Rts.
  std::byte* data() { return reinterpret_cast<std::byte*>(this + 1); }
};

struct UnexpectedDeleter {
  void operator()(Unexpected* u) const;
};
using UnexpectedPtr = std::unique_ptr<Unexpected, UnexpectedDeleter>;
// An entry with `extra` bytes of room after it for its data.
UnexpectedPtr make_unexpected(std::size_t extra);

template <class T>
struct List {
  T* head = nullptr;
  T* tail = nullptr;
  void push_back(T* x) {
    x->prev = tail;
    x->next = nullptr;
    (tail ? tail->next : head) = x;
    tail = x;
  }
  void remove(T* x) {
    (x->prev ? x->prev->next : head) = x->next;
    (x->next ? x->next->prev : tail) = x->prev;
    x->prev = x->next = nullptr;
  }
  bool empty() const { return head == nullptr; }
};

inline bool tag_matches(int want, int tag) { return want == MPI_ANY_TAG || want == tag; }

class Context {
 public:
  ~Context();
  // Posted receives.
  void post(Request* r);
  void unpost(Request* r);
  // Removes and returns the earliest posted receive that matches (src, tag).
  Request* take_posted(int src, int tag);

  // Unexpected messages: owned by the context until taken.
  void add_unexpected(UnexpectedPtr u);
  // The earliest message matching (src, tag) (src may be MPI_ANY_SOURCE), or nullptr.
  Unexpected* find_unexpected(int src, int tag);
  UnexpectedPtr take_unexpected(Unexpected* u);
  // The eager_sync or rts message from (src, world rank from_world) whose
  // sender's request is `cookie`, or nullptr (it matched already).
  Unexpected* find_by_cookie(int src, int from_world, std::uint64_t cookie);
  std::size_t unexpected_count() const { return nunexp_; }
  // A context with a posted receive is pinned: lib/comm does not hand its id
  // to a new communicator, even if the communicator that posted it was freed
  // (comm/context.hpp invariant 6), so the receive cannot match a stranger's
  // message.
  bool pinned() const { return nposted_ > 0; }
  // True when the next message from `src` (in ring order) that matches a
  // receive posted now would be that receive's: nothing from `src` waits
  // unexpected, and no receive for `src` or MPI_ANY_SOURCE is posted.
  // quiet_for every source at once: nothing waits unexpected, nothing is posted.
  bool quiet() const { return nposted_ == 0 && nunexp_ == 0; }
  bool quiet_for(int src) const {
    const auto i = static_cast<std::size_t>(src);
    return posted_any_.empty() && (i >= posted_.size() || posted_[i].empty()) &&
           (i >= unexp_.size() || unexp_[i].empty());
  }

 private:
  template <class T>
  static List<T>& bucket(std::vector<List<T>>& v, int src) {
    if (static_cast<std::size_t>(src) >= v.size()) v.resize(static_cast<std::size_t>(src) + 1);
    return v[static_cast<std::size_t>(src)];
  }
  std::uint64_t seq_ = 0;
  std::vector<List<Request>> posted_;
  List<Request> posted_any_;
  std::size_t nposted_ = 0;
  std::vector<List<Unexpected>> unexp_;
  std::size_t nunexp_ = 0;
};

// Context id -> queues. Ids come from a shared counter that starts small,
// so the first kDirect ids are a plain array lookup; larger ones (a long
// run that created very many communicators) go through a hash map.
class Contexts {
 public:
  Context& get(std::uint32_t id) {
    if (__builtin_expect(id < direct_.size() && direct_[id] != nullptr, 1)) return *direct_[id];
    return make(id);
  }
  // Calls fn(id) for every pinned context.
  template <class F>
  void for_each_pinned(F fn) const {
    for (std::size_t id = 0; id < direct_.size(); ++id)
      if (direct_[id] && direct_[id]->pinned()) fn(static_cast<std::uint32_t>(id));
    for (const auto& [id, c] : map_)
      if (c->pinned()) fn(id);
  }

 private:
  Context& make(std::uint32_t id);
  static constexpr std::uint32_t kDirect = 1u << 16;
  std::vector<std::unique_ptr<Context>> direct_;
  std::unordered_map<std::uint32_t, std::unique_ptr<Context>> map_;
};

}  // namespace ringmpi::p2p
