// mpiexec's standard input, copied into rank 0's stdin pipe.
//
// A pipe (not the inherited fd) because every rank leads its own process
// group: a rank reading the terminal directly would be stopped by SIGTTIN.
// One buffer: either we wait for input (interest POLLIN on `in`) or for
// room in the pipe (POLLOUT on `out`), never both, so a rank that does not
// read its stdin only ever costs one buffer. `in` is read only after it was
// reported readable and is never made non-blocking (it is shared with the
// shell). EOF on `in` closes the pipe (the rank sees EOF); EPIPE (the rank
// closed stdin or died) ends forwarding.
#pragma once

#include <cstddef>
#include <vector>

#include "poller.hpp"

namespace ringmpi::launcher {

class StdinForwarder {
 public:
  // Takes ownership of out (O_NONBLOCK write end of rank 0's stdin pipe).
  StdinForwarder(Poller& poller, int in, int out);
  ~StdinForwarder() { stop(); }
  StdinForwarder(const StdinForwarder&) = delete;
  StdinForwarder& operator=(const StdinForwarder&) = delete;

  bool owns(int fd) const { return active() && (fd == in_ || fd == out_); }
  void on_ready(int fd);
  void stop();  // rank 0 is gone or the job ends
  bool active() const { return out_ >= 0; }

 private:
  void flush();
  Poller& poller_;
  int in_;
  int out_;
  bool in_eof_ = false;
  std::vector<char> buf_;
  std::size_t off_ = 0, len_ = 0;
};

}  // namespace ringmpi::launcher
