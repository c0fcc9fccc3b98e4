// poll(2) backend of Poller: the fallback where io_uring is refused
// (sysctl kernel.io_uring_disabled, a seccomp policy) or
// RINGMPI_LAUNCHER_POLL=1 asks for it. poll is level-triggered already, so
// the interest set is simply handed to the kernel on every wait.
#include <cerrno>
#include <map>

#include "poller.hpp"

namespace ringmpi::launcher {
namespace {

class PollPoller final : public Poller {
 public:
  void set(int fd, short events) override {
    if (events == 0) interest_.erase(fd);
    else interest_[fd] = events;
  }

  void wait(int timeout_ms, std::vector<Ready>& out) override {
    fds_.clear();
    for (const auto& [fd, events] : interest_) fds_.push_back(pollfd{fd, events, 0});
    const int n = ::poll(fds_.data(), fds_.size(), timeout_ms);
    if (n <= 0) return;  // timeout or EINTR
    for (const pollfd& p : fds_)
      if (p.revents != 0) out.push_back(Ready{p.fd, p.revents});
  }

  const char* name() const override { return "poll"; }

 private:
  std::map<int, short> interest_;
  std::vector<pollfd> fds_;
};

}  // namespace

std::unique_ptr<Poller> make_poll_poller() { return std::make_unique<PollPoller>(); }

}  // namespace ringmpi::launcher
