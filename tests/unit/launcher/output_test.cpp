#include <doctest/doctest.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <string>

#include "../../../launcher/output.hpp"

using namespace ringmpi::launcher;

namespace {

// A sink over an anonymous file, read back as a string.
struct Captured {
  FILE* f = tmpfile();
  Sink sink{fileno(f)};
  ~Captured() { fclose(f); }
  std::string text() {
    std::string s;
    char buf[65536];
    ssize_t n;
    off_t off = 0;
    while ((n = pread(fileno(f), buf, sizeof buf, off)) > 0) {
      s.append(buf, static_cast<std::size_t>(n));
      off += n;
    }
    return s;
  }
};

}  // namespace

TEST_CASE("output: lines from two streams never mix, whatever the chunking") {
  Captured c;
  LineForwarder a(c.sink, 0, ""), b(c.sink, 1, "");
  a.feed("alpha on");
  b.feed("be");
  a.feed("e\nalpha tw");
  b.feed("ta one\nbeta two\nbeta th");
  a.feed("o\n");
  b.feed("ree\n");
  CHECK(c.text() == "alpha one\nbeta one\nbeta two\nalpha two\nbeta three\n");
  CHECK(a.held() == 0);
}

TEST_CASE("output: --tag-output prefixes every line, also lines arriving together") {
  Captured c;
  LineForwarder a(c.sink, 0, "[0] "), b(c.sink, 1, "[12] ");
  a.feed("x\ny\n");
  b.feed("z\n\n");
  a.feed("w");
  a.finish();
  CHECK(c.text() == "[0] x\n[0] y\n[12] z\n[12] \n[0] w");
}

TEST_CASE("output: a last line without newline is delivered as is; the next stream starts a new line") {
  Captured c;
  LineForwarder a(c.sink, 0, ""), b(c.sink, 1, "");
  a.feed("no newline");
  CHECK(c.text().empty());
  a.finish();
  CHECK(c.text() == "no newline");
  b.feed("next\n");
  CHECK(c.text() == "no newline\nnext\n");
  c.sink.write(-1, "mpiexec: said\n");
  CHECK(c.text() == "no newline\nnext\nmpiexec: said\n");
}

TEST_CASE("output: a line longer than the hold limit goes out in pieces, continued by the same stream") {
  Captured c;
  LineForwarder a(c.sink, 0, "");
  const std::string big(kMaxHeldLine + 10, 'x');
  a.feed(big);
  CHECK(a.held() == 0);
  a.feed("yz\n");
  CHECK(c.text() == big + "yz\n");
}

TEST_CASE("output: an interrupted long tagged line is labelled again after the break") {
  Captured c;
  LineForwarder a(c.sink, 0, "[0] "), b(c.sink, 1, "[1] ");
  const std::string big(kMaxHeldLine + 1, 'x');
  a.feed(big);
  b.feed("b\n");
  a.feed("end\n");
  CHECK(c.text() == "[0] " + big + "\n[1] b\n[0] end\n");
}

TEST_CASE("output: a sink whose reader is gone reports broken and drops output") {
  signal(SIGPIPE, SIG_IGN);
  int p[2];
  REQUIRE(pipe(p) == 0);
  close(p[0]);
  Sink s(p[1]);
  CHECK_FALSE(s.broken());
  s.write(0, "lost\n");
  CHECK(s.broken());
  close(p[1]);
}
