#include "coll/schedule.hpp"

#include "coll/base.hpp"
#include "coll/plan.hpp"
#include "p2p/engine.hpp"
#include "p2p/extension.hpp"
#include "p2p/internal_transfer.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::coll {

Schedule::~Schedule() {
  // Only a finished schedule is destroyed (the request outlives it otherwise),
  // but a transfer can still be pending after an internal error: let go of it.
  for (p2p::Request* r : pending_)
    if (r->complete) p2p::release_internal(r);
  for (core::ScratchPool::Block& b : scratch_) p2p::scratch().give(b);
}

void Schedule::send(int to, const void* buf, std::size_t bytes) {
  steps_.push_back(Step{Op::send, to, const_cast<void*>(buf), bytes, {}});
}

void Schedule::recv(int from, void* buf, std::size_t bytes) { steps_.push_back(Step{Op::recv, from, buf, bytes, {}}); }

void Schedule::local(std::function<int()> fn) { steps_.push_back(Step{Op::local, 0, nullptr, 0, std::move(fn)}); }

void Schedule::after_round(std::function<int()> fn) {
  deferred_.push_back(Step{Op::local, 0, nullptr, 0, std::move(fn)});
}

void Schedule::round() {
  if (!steps_.empty() && steps_.back().op != Op::fence) steps_.push_back(Step{Op::fence, 0, nullptr, 0, {}});
  for (Step& st : deferred_) steps_.push_back(std::move(st));
  deferred_.clear();
}

std::byte* Schedule::scratch(std::size_t bytes) {
  scratch_.push_back(p2p::scratch().take(bytes));
  return scratch_.back().p;
}

void Schedule::fail(int code, std::string why) {
  if (error_ != MPI_SUCCESS) return;
  error_ = code;
  why_ = std::move(why);
}

bool Schedule::transfers_done() {
  for (std::size_t i = 0; i < pending_.size();) {
    p2p::Request* r = pending_[i];
    if (!r->complete) {
      ++i;
      continue;
    }
    if (r->kind == p2p::Kind::recv && r->st_error == MPI_ERR_TRUNCATE)
      fail(MPI_ERR_TRUNCATE, "rank " + std::to_string(r->st_source) + " sent " + std::to_string(r->msg_bytes) +
                                 " bytes where this rank expected at most " + std::to_string(r->bytes) +
                                 " (the ranks' counts or datatypes do not match)");
    p2p::release_internal(r);
    pending_[i] = pending_.back();
    pending_.pop_back();
  }
  return pending_.empty();
}

bool Schedule::poll() {
  const std::uint32_t ctx = peers_.context;
  while (transfers_done()) {
    if (next_ == steps_.size()) return true;
    // Run steps up to the next fence (or the end).
    while (next_ < steps_.size()) {
      Step& st = steps_[next_++];
      if (st.op == Op::fence) break;
      switch (st.op) {
        case Op::send:
          if (p2p::Request* r = p2p::isend_internal(st.buf, st.bytes, peers_.world[static_cast<std::size_t>(st.peer)],
                                                    tag_, ctx, peers_.id(peers_.me)))
            pending_.push_back(r);
          break;
        case Op::recv:
          pending_.push_back(p2p::irecv_internal(st.buf, st.bytes, peers_.id(st.peer), tag_, ctx));
          break;
        case Op::local:
          if (int e = st.fn(); e != MPI_SUCCESS) fail(e, "applying the reduction operation failed");
          st.fn = nullptr;  // lets go of what the step captured
          break;
        case Op::fence:
          break;
      }
    }
  }
  return false;
}

int next_tag(comm::Comm& c) { return schedule_tag(c.schedule_seq++); }

std::unique_ptr<Schedule> make_schedule(comm::Comm& c) {
  auto s = std::make_unique<Schedule>(peers_of(c), next_tag(c));
  const Thresholds& t = plan_of(c).limits;
  s->block_reduction_min = t.block_reduction;
  s->alltoall_reduce_ranks = t.alltoall_reduce_ranks;
  return s;
}

int run(Schedule& s) {
  s.round();
  if (!s.poll()) p2p::wait_until([&s] { return s.poll(); });
  return s.error();
}

int start(std::unique_ptr<Schedule> s, MPI_Comm comm, MPI_Request* request) {
  s->round();
  return p2p::start_extension(std::move(s), comm, request);
}

}  // namespace ringmpi::coll
