#include "output.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace ringmpi::launcher {

void Sink::write_all(std::string_view bytes) {
  while (!bytes.empty() && !broken_) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {
      // Someone made our stdout non-blocking; we still want every byte.
      pollfd p{fd_, POLLOUT, 0};
      ::poll(&p, 1, -1);
    } else {
      broken_ = true;  // EPIPE, EIO, ENOSPC...: nobody can read us any more
    }
  }
}

void Sink::write(int owner, std::string_view bytes) {
  if (bytes.empty() || broken_) return;
  if (mid_line_ && owner_ != owner) write_all("\n");
  write_all(bytes);
  mid_line_ = bytes.back() != '\n';
  owner_ = owner;
}

void LineForwarder::emit(std::string_view text) {
  if (text.empty()) return;
  if (prefix_.empty()) {
    sink_->write(owner_, text);
    return;
  }
  // Our line was interrupted by another stream (the sink put a newline in):
  // label the rest of it again.
  if (!at_line_start_ && !sink_->continues(owner_)) at_line_start_ = true;
  std::string out;
  out.reserve(text.size() + prefix_.size() * 8);
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::size_t len = nl == std::string_view::npos ? text.size() : nl + 1;
    if (at_line_start_) out += prefix_;
    out.append(text.substr(0, len));
    at_line_start_ = nl != std::string_view::npos;
    text.remove_prefix(len);
  }
  sink_->write(owner_, out);
}

void LineForwarder::feed(std::string_view data) {
  if (data.empty()) return;
  const std::size_t nl_in_data = data.rfind('\n');  // only the new bytes can hold a newline
  held_.append(data);
  if (nl_in_data != std::string_view::npos) {
    const std::size_t end = held_.size() - data.size() + nl_in_data + 1;
    emit(std::string_view(held_).substr(0, end));
    held_.erase(0, end);
  }
  if (held_.size() > kMaxHeldLine) {
    emit(held_);
    held_.clear();
  }
}

void LineForwarder::finish() {
  emit(held_);
  held_.clear();
}

}  // namespace ringmpi::launcher
