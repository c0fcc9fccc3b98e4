// The collective rules file (tunables/coll_rules.hpp) and the preference
// it gives the default choice (coll/select.hpp prefer, choose).
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "coll/select.hpp"
#include "tunables/coll_rules.hpp"

using namespace ringmpi;
using namespace ringmpi::coll;

namespace {

Thresholds with_rules(const std::string& text) {
  auto rules = std::make_shared<std::vector<tunables::CollRule>>();
  std::string why;
  REQUIRE(tunables::parse_coll_rules(text, rules.get(), &why));
  Thresholds t;
  t.rules = rules;
  return t;
}

std::string problem(const std::string& text) {
  std::vector<tunables::CollRule> rules;
  std::string why;
  CHECK_FALSE(tunables::parse_coll_rules(text, &rules, &why));
  return why;
}

}  // namespace

TEST_CASE("rules files parse: bands, sizes, comments") {
  std::vector<tunables::CollRule> r;
  std::string why;
  REQUIRE(tunables::parse_coll_rules("# c\n\n  bcast 2 0-16K messages # x\nreduce_scatter 9- 1M- schedule\n"
                                     "scan * * auto\n",
                                     &r, &why));
  REQUIRE(r.size() == 3);
  CHECK(r[0].family == 1);
  CHECK(r[0].np_lo == 2);
  CHECK(r[0].np_hi == 2);
  CHECK(r[0].bytes_hi == 16384);
  CHECK(r[0].line == 3);
  CHECK(r[1].family == 8);
  CHECK(r[1].np_hi == UINT64_MAX);
  CHECK(r[1].bytes_lo == (1u << 20));
  CHECK(r[2].any_bytes);
  CHECK(r[2].algorithm == "auto");
  CHECK(problem("bcast 2 *\n") == "line 1: expected '<family> <np> <bytes> <algorithm>', found 3 fields");
  CHECK(problem("\nbcast 0 * messages\n") == "line 2: np '0' is not N, N-M, N- or *");
  CHECK(problem("bcast 2 8-4 messages\n").rfind("line 1: bytes '8-4'", 0) == 0);
  CHECK(problem("neighbor 2 * messages\n") == "line 1: neighbor has no algorithm 'messages' (one of: auto local "
                                                "segment schedule)");
  CHECK(problem("bcast 99999999999999999999 * messages\n").rfind("line 1: np", 0) == 0);
  // The segment's ways are forced only (RINGMPI_COLL_<FAMILY>), not named by rules yet.
  CHECK(problem("reduce_scatter 2 * segment_blocks\n") ==
        "line 1: 'segment_blocks' is a way of the segment, which a rules file cannot name yet (name segment, or force "
        "segment_blocks with RINGMPI_COLL_REDUCE_SCATTER)");
}

TEST_CASE("a rule is a preference: in its band, where its algorithm can run the call") {
  const Thresholds t = with_rules("bcast 2 * messages\nallreduce 3-4 0-64 schedule\nscan * * schedule\n"
                                  "gather 2 0-1K messages\nalltoall * * auto\nalltoall * * messages\n");
  const char* why;
  Shape s;
  s.np = 2;
  s.segment = s.fits = true;
  s.inline_max = 8192;
  s.bytes = s.pair_bytes = 1 << 20;
  // Built in, a 1 MiB bcast at np 2 takes the segment; the rule says messages.
  CHECK(choose(Family::bcast, Setting{}, Thresholds{}, s, &why) == Algo::segment);
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::messages);
  // A forced name wins; so do the modes 1..3.
  CHECK(choose(Family::bcast, Setting{0, Algo::segment}, t, s, &why) == Algo::segment);
  CHECK(choose(Family::bcast, Setting{1, Algo::none}, t, s, &why) == Algo::segment);
  // Nonblocking: messages has no nonblocking form, so the built-in choice.
  s.nonblocking = true;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment);
  s.nonblocking = false;
  // Out of the np band.
  s.np = 3;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment);
  // allreduce at np 3: schedule up to 64 bytes, the built-in choice above.
  s.bytes = s.pair_bytes = 64;
  s.count = 16;
  CHECK(choose(Family::allreduce, Setting{}, t, s, &why) == Algo::schedule);
  s.bytes = s.pair_bytes = 68;
  s.count = 17;
  CHECK(choose(Family::allreduce, Setting{}, t, s, &why) == Algo::segment);
  // scan: schedule has no blocking form.
  CHECK(choose(Family::scan, Setting{}, t, s, &why) == Algo::segment);
  // auto stops the search: the later messages rule is never read.
  CHECK(choose(Family::alltoall, Setting{}, t, s, &why) == Algo::segment);
  // The v forms: gatherv at np 2 matches by the moving block, a v form
  // beyond two ranks only a "*" rule; an intercommunicator call none.
  s.np = 2;
  s.uniform = false;
  s.bytes = 0;
  s.pair_bytes = 512;
  s.oversubscribed = true;  // no two-rank rule: the built-in choice is the segment
  CHECK(choose(Family::gather, Setting{}, Thresholds{}, s, &why) == Algo::segment);
  CHECK(choose(Family::gather, Setting{}, t, s, &why) == Algo::messages);
  s.pair_bytes = 4096;
  CHECK(choose(Family::gather, Setting{}, t, s, &why) == Algo::segment);
  s.inter = true;
  CHECK(prefer(Family::bcast, t, s) == Algo::none);
}
