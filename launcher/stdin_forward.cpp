#include "stdin_forward.hpp"

#include <unistd.h>

#include <cerrno>

namespace ringmpi::launcher {

StdinForwarder::StdinForwarder(Poller& poller, int in, int out)
    : poller_(poller), in_(in), out_(out), buf_(64 * 1024) {
  poller_.set(in_, POLLIN);
}

void StdinForwarder::stop() {
  if (out_ < 0) return;
  if (!in_eof_) poller_.set(in_, 0);
  poller_.set(out_, 0);
  close(out_);
  out_ = -1;
}

void StdinForwarder::on_ready(int fd) {
  if (!active()) return;
  if (fd == in_ && len_ == 0 && !in_eof_) {
    const ssize_t n = read(in_, buf_.data(), buf_.size());
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) {  // EOF, or stdin unreadable (EIO on a lost terminal): the rank sees EOF
      in_eof_ = true;
      poller_.set(in_, 0);
      stop();
      return;
    }
    off_ = 0;
    len_ = static_cast<std::size_t>(n);
    poller_.set(in_, 0);
    flush();
  } else if (fd == out_) {
    flush();
  }
}

void StdinForwarder::flush() {
  while (len_ > 0) {
    const ssize_t n = write(out_, buf_.data() + off_, len_);
    if (n > 0) {
      off_ += static_cast<std::size_t>(n);
      len_ -= static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {
      poller_.set(out_, POLLOUT);
      return;
    } else {
      len_ = 0;  // EPIPE: rank 0 does not want more input
      stop();
      return;
    }
  }
  poller_.set(out_, 0);
  poller_.set(in_, POLLIN);
}

}  // namespace ringmpi::launcher
