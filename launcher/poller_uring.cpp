// io_uring backend of Poller.
//
// Each registered fd has at most one one-shot IORING_OP_POLL_ADD in flight.
// A one-shot poll completes at once when the fd is already ready at arming
// time, so re-arming every fired poll on the next wait() gives exactly the
// level-triggered contract of poller.hpp (a multishot poll would be
// edge-triggered: data left in a pipe after a partial read would never be
// reported again). The timeout travels in the io_uring_enter call
// (IORING_FEAT_EXT_ARG; liburing falls back to a timeout SQE on old kernels).
//
// user_data = (generation << 32) | fd. set() gives every new registration a
// new generation, so a completion that belongs to a removed registration
// (cancelled, or fired just before the removal) is recognised and dropped.
#include <liburing.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unordered_map>

#include "poller.hpp"

namespace ringmpi::launcher {
namespace {

constexpr std::uint64_t kRemoveTag = ~std::uint64_t{0};
constexpr unsigned kSqEntries = 256;
constexpr unsigned kCqEntries = 4096;  // completions beyond this wait in the kernel (FEAT_NODROP)

std::uint64_t tag(int fd, std::uint32_t gen) { return (std::uint64_t{gen} << 32) | std::uint32_t(fd); }

class UringPoller final : public Poller {
 public:
  UringPoller() = default;
  ~UringPoller() override {
    if (initialized_) io_uring_queue_exit(&ring_);
  }
  // 0 or -errno. A policy may allow io_uring_setup but refuse
  // io_uring_enter, so one NOP goes through the ring before we rely on it.
  int init() {
    io_uring_params params{};
    params.flags = IORING_SETUP_CQSIZE;
    params.cq_entries = kCqEntries;
    int rc = io_uring_queue_init_params(kSqEntries, &ring_, &params);
    if (rc == -EINVAL) rc = io_uring_queue_init(kSqEntries, &ring_, 0);  // kernel without CQSIZE
    if (rc < 0) return rc;
    initialized_ = true;
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    io_uring_prep_nop(sqe);
    io_uring_sqe_set_data64(sqe, kRemoveTag);
    io_uring_cqe* cqe = nullptr;
    rc = io_uring_submit_and_wait(&ring_, 1);
    if (rc >= 0) rc = io_uring_peek_cqe(&ring_, &cqe);
    if (rc < 0) return rc;
    io_uring_cqe_seen(&ring_, cqe);
    return 0;
  }
  UringPoller(const UringPoller&) = delete;
  UringPoller& operator=(const UringPoller&) = delete;

  void set(int fd, short events) override {
    auto it = entries_.find(fd);
    if (it != entries_.end()) {
      Entry& e = it->second;
      if (e.events == events) return;
      if (e.armed) {
        io_uring_sqe* sqe = next_sqe();
        io_uring_prep_poll_remove(sqe, tag(fd, e.gen));
        io_uring_sqe_set_data64(sqe, kRemoveTag);
        // Submit now: the caller may close fd right after this returns.
        io_uring_submit(&ring_);
      }
      if (events == 0) {
        entries_.erase(it);
        return;
      }
      e = Entry{events, false, ++next_gen_};
      return;
    }
    if (events != 0) entries_.emplace(fd, Entry{events, false, ++next_gen_});
  }

  void wait(int timeout_ms, std::vector<Ready>& out) override {
    for (auto& [fd, e] : entries_) {
      if (e.armed) continue;
      io_uring_sqe* sqe = next_sqe();
      io_uring_prep_poll_add(sqe, fd, static_cast<unsigned>(e.events));
      io_uring_sqe_set_data64(sqe, tag(fd, e.gen));
      e.armed = true;
    }
    io_uring_cqe* cqe = nullptr;
    __kernel_timespec ts{};
    if (timeout_ms >= 0) {
      ts.tv_sec = timeout_ms / 1000;
      ts.tv_nsec = static_cast<long long>(timeout_ms % 1000) * 1000000;
    }
    const int rc = io_uring_submit_and_wait_timeout(&ring_, &cqe, 1, timeout_ms >= 0 ? &ts : nullptr, nullptr);
    if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
      // The ring itself failed; there is no sane way to continue without it.
      std::fprintf(stderr, "mpiexec: io_uring wait failed: %s\n", std::strerror(-rc));
      std::abort();
    }
    io_uring_cqe* batch[64];
    for (;;) {
      const unsigned n = io_uring_peek_batch_cqe(&ring_, batch, 64);
      if (n == 0) break;
      for (unsigned k = 0; k < n; ++k) complete(batch[k], out);
      io_uring_cq_advance(&ring_, n);
    }
  }

  const char* name() const override { return "io_uring"; }

 private:
  struct Entry {
    short events;
    bool armed;
    std::uint32_t gen;
  };

  io_uring_sqe* next_sqe() {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    while (!sqe) {  // submission queue full: hand it to the kernel and retry
      io_uring_submit(&ring_);
      sqe = io_uring_get_sqe(&ring_);
    }
    return sqe;
  }

  void complete(const io_uring_cqe* cqe, std::vector<Ready>& out) {
    const std::uint64_t data = io_uring_cqe_get_data64(cqe);
    if (data == kRemoveTag) return;
    const int fd = static_cast<int>(data & 0xffffffffu);
    const auto gen = static_cast<std::uint32_t>(data >> 32);
    auto it = entries_.find(fd);
    if (it == entries_.end() || it->second.gen != gen) return;  // stale registration
    it->second.armed = false;
    if (cqe->res == -ECANCELED) return;
    out.push_back(Ready{fd, cqe->res < 0 ? short(POLLERR) : static_cast<short>(cqe->res)});
  }

  io_uring ring_{};
  bool initialized_ = false;
  std::unordered_map<int, Entry> entries_;
  std::uint32_t next_gen_ = 0;
};

}  // namespace

std::unique_ptr<Poller> make_uring_poller(std::string* why) {
  auto p = std::make_unique<UringPoller>();
  if (const int rc = p->init(); rc < 0) {
    *why = std::strerror(-rc);
    return nullptr;
  }
  return p;
}

}  // namespace ringmpi::launcher
