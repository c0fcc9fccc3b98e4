// Forwarding of the ranks' stdout/stderr to mpiexec's, line by line.
//
// Every rank stream has a LineForwarder that holds back an incomplete last
// line until its newline arrives, so a Sink only ever receives whole lines
// and two ranks' lines never mix. Two exceptions keep memory bounded and
// output exact: a line longer than kMaxHeldLine is passed on in pieces, and
// the last line of a stream is passed on without a newline when the stream
// ends. The Sink remembers which stream left it in the middle of a line and
// puts a newline in first if another stream writes next; the same stream
// just continues. So one rank writing to an otherwise idle sink (e.g. np=1)
// comes out byte for byte.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ringmpi::launcher {

inline constexpr std::size_t kMaxHeldLine = 1 << 20;

class Sink {
 public:
  explicit Sink(int fd) : fd_(fd) {}
  // Writes bytes from `owner` (a stream id; -1 for mpiexec's own messages).
  void write(int owner, std::string_view bytes);
  // True while `owner` left the sink in the middle of one of its lines.
  bool continues(int owner) const { return mid_line_ && owner_ == owner; }
  // The reader went away (EPIPE) or the fd failed; output is dropped from then on.
  bool broken() const { return broken_; }

 private:
  void write_all(std::string_view bytes);
  int fd_;
  bool mid_line_ = false;
  int owner_ = -1;
  bool broken_ = false;
};

class LineForwarder {
 public:
  // prefix goes before every line ("[3] " with --tag-output, else empty).
  LineForwarder(Sink& sink, int owner, std::string prefix)
      : sink_(&sink), owner_(owner), prefix_(std::move(prefix)) {}
  void feed(std::string_view data);
  // The stream ended: pass on what is held back.
  void finish();
  std::size_t held() const { return held_.size(); }

 private:
  void emit(std::string_view text);
  Sink* sink_;
  int owner_;
  std::string prefix_;
  std::string held_;
  bool at_line_start_ = true;
};

}  // namespace ringmpi::launcher
