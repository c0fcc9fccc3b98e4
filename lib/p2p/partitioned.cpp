// Partitioned communication: see partitioned.hpp for the protocol.
//
// Process-wide state (numbering, inboxes, tag ranges) lives in function-local
// statics: it is touched only inside MPI calls (serialized by the call lock at
// MPI_THREAD_MULTIPLE) and only between MPI_Init and MPI_Finalize.
#include "p2p/partitioned.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>
#include <utility>

#include "p2p/engine.hpp"
#include "p2p/internal_transfer.hpp"
#include "p2p/request.hpp"

namespace ringmpi::p2p {

namespace {

// Inits numbered per (context, peer, tag, side).
std::map<std::tuple<std::uint32_t, int, int, bool>, std::uint32_t>& numbers() {
  static std::map<std::tuple<std::uint32_t, int, int, bool>, std::uint32_t> m;
  return m;
}

// Reserved data tag ranges of this process: start -> length.
std::map<int, int>& tag_ranges() {
  static std::map<int, int> m;
  return m;
}

}  // namespace

int reserve_tags(int n) {
  auto& m = tag_ranges();
  int at = 0;  // first fit: the lowest gap that holds n
  for (const auto& [start, len] : m) {
    if (start - at >= n) break;
    at = start + len;
  }
  if (n > kPartDataSpan - at) return -1;
  m.emplace(at, n);
  return at;
}

void release_tags(int base, int) { tag_ranges().erase(base); }

void forget_contexts(std::uint32_t first, std::uint32_t last) {
  auto& m = numbers();
  for (auto it = m.begin(); it != m.end();) {
    const std::uint32_t c = std::get<0>(it->first);
    it = c >= first && c <= last ? m.erase(it) : std::next(it);
  }
}

namespace {

// The setup messages from one peer on one context, and the internal receive
// that files them (posted while some channel waits for one).
struct Inbox {
  Request* posted = nullptr;
  alignas(8) unsigned char buf[64];
  std::vector<std::vector<unsigned char>> got;
  int waiting = 0;
};

std::map<std::pair<std::uint32_t, int>, Inbox>& inboxes() {
  static std::map<std::pair<std::uint32_t, int>, Inbox> m;
  return m;
}

void pump(Inbox& ib, std::uint32_t context, int peer, std::size_t bytes) {
  for (;;) {
    if (ib.posted && ib.posted->complete) {
      if (!ib.posted->cancelled) ib.got.emplace_back(ib.buf, ib.buf + bytes);
      release_internal(ib.posted);
      ib.posted = nullptr;
    }
    if (ib.posted || ib.waiting == 0) return;
    ib.posted = irecv_internal(ib.buf, bytes, peer, kPartSetupTag, context);
    if (!ib.posted->complete) return;
  }
}

// Nobody waits any more: take the receive back (a setup it already got is filed).
void stop_posting(Inbox& ib, std::size_t bytes) {
  if (!ib.posted || ib.waiting > 0) return;
  cancel(ib.posted);
  if (!ib.posted->complete) return;  // matched, its data under way: filed by a later pump
  if (!ib.posted->cancelled) ib.got.emplace_back(ib.buf, ib.buf + bytes);
  release_internal(ib.posted);
  ib.posted = nullptr;
}

}  // namespace

Partitioned::Partitioned(PartArgs a) : a_(std::move(a)) {
  number_ = numbers()[{a_.context, a_.peer, a_.tag, a_.send}]++;
  part_bytes_ = static_cast<std::size_t>(a_.count) * a_.type->size;
  total_ = part_bytes_ * static_cast<std::size_t>(a_.partitions);
  contiguous_ = a_.type->contiguous();
  if (a_.send) {
    ready_.assign(static_cast<std::size_t>(a_.partitions), 0);
    sent_.assign(static_cast<std::size_t>(a_.partitions), 0);
    if (!contiguous_) staging_.resize(total_);
  }
}

Partitioned::~Partitioned() {
  if (waiting_) {
    Inbox& ib = inboxes()[{a_.context, a_.peer}];
    --ib.waiting;
    stop_posting(ib, sizeof(Setup));
  }
  for (Request* r : pending_) {
    if (!r) continue;
    if (!a_.send) cancel(r);  // a receive still posted: take it back
    if (r->complete) release_internal(r);  // else the engine still owns it (MPI_Finalize with the request active)
  }
  if (setup_send_ && setup_send_->complete) release_internal(setup_send_);
  if (!a_.send && base_ >= 0) release_tags(base_, peer_parts_);
}

void Partitioned::fail(int code, std::string why) {
  if (error_ != MPI_SUCCESS) return;
  error_ = code;
  why_ = std::move(why);
}

bool Partitioned::take_setup(Setup* out) {
  Inbox& ib = inboxes()[{a_.context, a_.peer}];
  if (!waiting_) {
    waiting_ = true;
    ++ib.waiting;
  }
  pump(ib, a_.context, a_.peer, sizeof(Setup));
  for (auto it = ib.got.begin(); it != ib.got.end(); ++it) {
    Setup s;
    std::memcpy(&s, it->data(), sizeof s);
    if ((s.side != 0) == a_.send || s.tag != a_.tag || s.number != number_) continue;
    *out = s;
    ib.got.erase(it);
    waiting_ = false;
    --ib.waiting;
    stop_posting(ib, sizeof(Setup));
    return true;
  }
  return false;
}

void Partitioned::start() {
  error_ = MPI_SUCCESS;
  why_.clear();
  if (a_.send) {
    std::fill(ready_.begin(), ready_.end(), 0);
    std::fill(sent_.begin(), sent_.end(), 0);
    left_ = a_.partitions;
    if (a_.peer == MPI_PROC_NULL || setup_sent_) return;
    mine_ = Setup{1, a_.tag, number_, a_.partitions, total_, -1, 0};
    if (Request* r = isend_internal(&mine_, sizeof mine_, a_.peer_world, kPartSetupTag, a_.context, a_.me))
      pending_.push_back(r);
    setup_sent_ = true;
    return;
  }
  if (a_.peer == MPI_PROC_NULL) {
    left_ = 0;
    return;
  }
  if (have_peer_)
    post_receives();
  else
    left_ = -1;  // known once the sender's setup is here
}

void Partitioned::send_partition(int p) {
  const auto i = static_cast<std::size_t>(p);
  sent_[i] = 1;
  --left_;
  const std::size_t off = i * part_bytes_;
  const std::byte* src;
  if (contiguous_) {
    src = static_cast<const std::byte*>(a_.buf) + off;
  } else {
    dtype::pack(a_.buf, static_cast<int>(a_.count * a_.partitions), *a_.type, off, staging_.data() + off, part_bytes_);
    src = staging_.data() + off;
  }
  if (Request* r = isend_internal(src, part_bytes_, a_.peer_world, kPartDataTop - (base_ + p), a_.context, a_.me))
    pending_.push_back(r);
}

void Partitioned::ready(int p) {
  ready_[static_cast<std::size_t>(p)] = 1;
  if (a_.peer == MPI_PROC_NULL) {
    --left_;
    return;
  }
  if (have_peer_) send_partition(p);
}

void Partitioned::post_receives() {
  const auto n = static_cast<std::size_t>(peer_parts_);
  ready_.assign(n, 0);
  pending_.assign(n, nullptr);
  left_ = peer_parts_;
  std::byte* into = staging_.empty() ? static_cast<std::byte*>(a_.buf) : staging_.data();
  for (std::size_t i = 0; i < n; ++i)
    pending_[i] = irecv_internal(into + i * peer_bytes_, peer_bytes_, a_.peer,
                                 kPartDataTop - (base_ + static_cast<int>(i)), a_.context);
}

bool Partitioned::arrived(int p) const {
  if (a_.peer == MPI_PROC_NULL) return true;
  if (!have_peer_ || left_ < 0) return false;
  if (left_ == 0) return true;  // everything is here (with a size mismatch: the epoch failed, nothing more comes)
  if (mismatch_) return false;
  if (part_bytes_ == 0 || peer_bytes_ == 0) {
    // Zero-byte partitions too arrive only once the sender marked them ready
    // (MPI-4.1 §4.2.2; MPICH alike): partition p stands for the sender's
    // partitions in proportion to the two numbers of partitions.
    const auto parts = static_cast<std::size_t>(a_.partitions), peers = static_cast<std::size_t>(peer_parts_);
    const std::size_t q = static_cast<std::size_t>(p);
    const std::size_t from = q * peers / parts, to = std::max(from + 1, ((q + 1) * peers + parts - 1) / parts);
    for (std::size_t i = from; i < to && i < peers; ++i)
      if (!ready_[i]) return false;
    return true;
  }
  const std::size_t lo = static_cast<std::size_t>(p) * part_bytes_, hi = lo + part_bytes_;
  for (std::size_t i = lo / peer_bytes_; i * peer_bytes_ < hi; ++i)
    if (!ready_[i]) return false;
  return true;
}

bool Partitioned::poll() {
  if (a_.send) {
    if (!have_peer_ && a_.peer != MPI_PROC_NULL) {
      Setup s;
      if (take_setup(&s)) {
        have_peer_ = true;
        base_ = s.base;
        for (int p = 0; p < a_.partitions; ++p)
          if (ready_[static_cast<std::size_t>(p)] && !sent_[static_cast<std::size_t>(p)]) send_partition(p);
      }
    }
    for (std::size_t i = 0; i < pending_.size();) {
      if (!pending_[i]->complete) {
        ++i;
        continue;
      }
      release_internal(pending_[i]);
      pending_[i] = pending_.back();
      pending_.pop_back();
    }
    return left_ == 0 && pending_.empty();
  }
  if (a_.peer == MPI_PROC_NULL) return true;
  if (!have_peer_) {
    Setup s;
    if (!take_setup(&s)) return false;
    have_peer_ = true;
    peer_parts_ = s.parts;
    peer_bytes_ = s.parts > 0 ? s.bytes / static_cast<std::uint64_t>(s.parts) : 0;
    mismatch_ = s.bytes != total_;
    base_ = reserve_tags(peer_parts_);
    if (base_ < 0) {
      // Not expected (2^29 tags a process); the sender then never completes.
      fail(MPI_ERR_INTERN, "no free tag range for " + std::to_string(peer_parts_) + " partitions");
      return true;
    }
    mine_ = Setup{0, a_.tag, number_, a_.partitions, total_, base_, 0};
    setup_sent_ = true;
    // Tiny: almost always in the ring at once (nullptr); else retired below.
    setup_send_ = isend_internal(&mine_, sizeof mine_, a_.peer_world, kPartSetupTag, a_.context, a_.me);
    if (mismatch_ || !contiguous_) staging_.resize(s.bytes);
    post_receives();
  }
  for (std::size_t i = 0; i < pending_.size(); ++i) {
    Request* r = pending_[i];
    if (!r || !r->complete) continue;
    if (r->st_error == MPI_ERR_TRUNCATE)
      fail(MPI_ERR_TRUNCATE, "a partition of the matching MPI_Psend_init is longer than this side expected");
    if (!contiguous_ && !mismatch_)
      dtype::unpack(a_.buf, static_cast<int>(a_.count * a_.partitions), *a_.type, i * peer_bytes_,
                    staging_.data() + i * peer_bytes_, peer_bytes_);
    release_internal(r);
    pending_[i] = nullptr;
    ready_[i] = 1;
    --left_;
  }
  if (setup_send_ && setup_send_->complete) {
    release_internal(setup_send_);
    setup_send_ = nullptr;
  }
  if (left_ != 0 || setup_send_) return false;
  if (mismatch_)
    fail(MPI_ERR_TRUNCATE, "the matching MPI_Psend_init sends " + std::to_string(peer_parts_) + " partitions, " +
                               std::to_string(peer_bytes_ * static_cast<std::size_t>(peer_parts_)) +
                               " bytes in all, where this MPI_Precv_init takes " + std::to_string(total_) +
                               " bytes (MPI-4.0 §4.2.1: the totals must agree)");
  return true;
}

}  // namespace ringmpi::p2p
