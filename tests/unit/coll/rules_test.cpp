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
  CHECK(problem("bcast 2 *\n") ==
        "line 1: expected '<family> <np> <bytes> <algorithm> [<cores>]', found 3 fields");
  CHECK(problem("bcast 2 * messages bound x\n") ==
        "line 1: expected '<family> <np> <bytes> <algorithm> [<cores>]', found 6 fields");
  CHECK(problem("bcast 2 * messages busy\n") == "line 1: cores 'busy' is not bound, oversubscribed or *");
  CHECK(problem("exscan 2 * numa_leaders\n").rfind("line 1: exscan has no algorithm 'numa_leaders'", 0) == 0);
  CHECK(problem("\nbcast 0 * messages\n") == "line 2: np '0' is not N, N-M, N- or *");
  CHECK(problem("bcast 2 8-4 messages\n").rfind("line 1: bytes '8-4'", 0) == 0);
  CHECK(problem("neighbor 2 * messages\n") == "line 1: neighbor has no algorithm 'messages' (one of: auto local "
                                                "segment schedule)");
  CHECK(problem("bcast 99999999999999999999 * messages\n").rfind("line 1: np", 0) == 0);
  // A rule may name a way of the segment where its family has that way.
  REQUIRE(tunables::parse_coll_rules("reduce_scatter 2 * segment_blocks\nexscan * 0-1K segment_chain bound\n", &r,
                                     &why));
  REQUIRE(r.size() == 2);
  CHECK(r[0].algorithm == "segment_blocks");
  CHECK(r[1].exscan);
  CHECK(r[1].algorithm == "segment_chain");
  CHECK(problem("bcast 2 * segment_chunks\n").rfind("line 1: bcast has no algorithm 'segment_chunks' (one of: ", 0) ==
        0);
  CHECK(problem("gather * * segment_split\n").rfind("line 1: gather has no algorithm 'segment_split'", 0) == 0);
  CHECK(problem("barrier * * segment_slot\n").rfind("line 1: barrier has no algorithm 'segment_slot'", 0) == 0);
}

TEST_CASE("a rule naming a way: taken where the way can run the call, else the next level decides") {
  const Thresholds t = with_rules("bcast 3-4 0-1K segment_slot\nbcast 3-4 * segment_address\n"
                                  "allreduce * * segment_chunks\nscan 2 * messages\n");
  const char* why = nullptr;
  Shape s;
  s.np = 4;
  s.segment = s.fits = true;
  s.inline_max = 8192;
  s.bytes = 64;
  // What a rule needs: which ways fits.cpp found can run the call (bit per Algo).
  const auto ok = [](std::initializer_list<Algo> ways) {
    std::uint32_t m = 0;
    for (Algo a : ways) m |= 1u << static_cast<unsigned>(a);
    return m;
  };
  // rule_names_way: the rule that matches first names a way (then fits.cpp checks the ways).
  CHECK(rule_names_way(Family::bcast, t, s));
  CHECK(rules_name_ways(Family::bcast, t));
  CHECK(rules_name_ways(Family::allreduce, t));
  CHECK_FALSE(rules_name_ways(Family::scan, t));
  CHECK_FALSE(rules_name_ways(Family::gather, t));
  s.np = 5;
  CHECK_FALSE(rule_names_way(Family::bcast, t, s));
  s.np = 4;
  s.nonblocking = true;
  CHECK_FALSE(rule_names_way(Family::bcast, t, s));
  s.nonblocking = false;
  // Not checked (no rule asked fits.cpp for the ways): never taken.
  CHECK(prefer(Family::bcast, t, s) == Algo::none);
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment);
  s.ways_checked = true;
  s.ways_ok = ok({Algo::segment_slot, Algo::segment_address});
  CHECK(prefer(Family::bcast, t, s) == Algo::segment_slot);
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment_slot);
  CHECK(why == nullptr);
  // The way cannot run it: the user's file passes the call on (here to the
  // built-in choice, the compiled rules saying nothing at np 4 bound).
  s.ways_ok = ok({Algo::segment_address});
  CHECK(prefer(Family::bcast, t, s) == Algo::none);
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment);
  CHECK(why == nullptr);
  // The second band's rule: by address.
  s.bytes = 4096;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment_address);
  s.ways_ok = 0;  // no single copy
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment);
  // Modes 1..3 and a forced algorithm take no rules, ways neither.
  s.ways_ok = ok({Algo::segment_address});
  CHECK(choose(Family::bcast, Setting{1, Algo::none}, t, s, &why) == Algo::segment);
  CHECK(choose(Family::bcast, Setting{0, Algo::messages}, t, s, &why) == Algo::messages);
  // No segment: the way cannot run (whatever the bits say), the call goes on.
  s.segment = false;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::messages);
  s.segment = true;
  // A way may run where `segment` does not fit (chunks); a nonblocking or
  // intercommunicator call takes no rules.
  s.fits = false;
  s.bytes = 1 << 20;
  s.count = 1 << 18;
  s.ways_ok = ok({Algo::segment_chunks});
  CHECK(choose(Family::allreduce, Setting{}, t, s, &why) == Algo::segment_chunks);
  s.nonblocking = true;
  CHECK(choose(Family::allreduce, Setting{}, t, s, &why) == Algo::schedule);
  s.nonblocking = false;
  s.inter = true;
  CHECK(choose(Family::allreduce, Setting{}, t, s, &why) == Algo::schedule);
  s.inter = false;
  // A forced way is still checked by its own field (Shape::way), not the bits.
  s.way = Algo::segment_blocks;
  s.way_refused = "the vector is larger than a slot region";
  CHECK(choose(Family::allreduce, Setting{0, Algo::segment_blocks}, t, s, &why) == Algo::none);
  // A way the user's file names passes to the compiled rules when it cannot run.
  Thresholds both = t;
  auto compiled = std::make_shared<std::vector<tunables::CollRule>>();
  std::string problem_text;
  REQUIRE(tunables::parse_coll_rules("allreduce * * segment_whole\n", compiled.get(), &problem_text));
  both.compiled = compiled;
  s.way = Algo::none;
  s.way_refused = nullptr;
  s.bytes = 64;
  s.count = 16;
  s.fits = true;
  s.ways_ok = ok({Algo::segment_whole});
  CHECK(rule_names_way(Family::allreduce, both, s));
  CHECK(choose(Family::allreduce, Setting{}, both, s, &why) == Algo::segment_whole);
  s.ways_ok = 0;
  CHECK(choose(Family::allreduce, Setting{}, both, s, &why) == Algo::segment);
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
  // auto stops the search in its file: the later messages rule is never
  // read; the compiled rules (none for alltoall at np 3) and the built-in
  // choice decide.
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

TEST_CASE("the fifth field: bound or oversubscribed jobs; exscan: MPI_Exscan alone") {
  std::vector<tunables::CollRule> r;
  std::string why;
  REQUIRE(tunables::parse_coll_rules("bcast 2 * messages bound\nscan * 0-256 messages oversubscribed\n"
                                     "exscan * * auto *\nscan 2 * messages\n",
                                     &r, &why));
  REQUIRE(r.size() == 4);
  CHECK(r[0].cores == tunables::CollCores::bound);
  CHECK(r[1].cores == tunables::CollCores::oversubscribed);
  CHECK(r[2].exscan);
  CHECK(r[2].family == r[3].family);
  CHECK(r[2].cores == tunables::CollCores::any);
  CHECK_FALSE(r[3].exscan);
  Thresholds t;
  t.rules = std::make_shared<std::vector<tunables::CollRule>>(r);
  t.compiled = nullptr;  // the user's file alone
  Shape s;
  s.np = 2;
  s.segment = s.fits = true;
  s.inline_max = 8192;
  s.bytes = s.pair_bytes = 1 << 20;
  s.count = 1 << 18;
  const char* why_not;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why_not) == Algo::messages);
  s.oversubscribed = true;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why_not) == Algo::segment);
  s.bytes = s.pair_bytes = 256;
  s.count = 64;
  CHECK(choose(Family::scan, Setting{}, t, s, &why_not) == Algo::messages);
  s.exclusive = true;
  CHECK(choose(Family::scan, Setting{}, t, s, &why_not) == Algo::messages);  // the chain rule first
  s.oversubscribed = false;
  CHECK(choose(Family::scan, Setting{}, t, s, &why_not) == Algo::segment);  // exscan: auto
  s.exclusive = false;
  CHECK(choose(Family::scan, Setting{}, t, s, &why_not) == Algo::messages);
}

namespace {

// The hand thresholds of the two-rank rule and the scan chain (select.hpp
// Thresholds' defaults) written as rules: lib/coll/default.rules before it
// was measured.
constexpr const char* kHandRules = R"(
scan            *     0-256        messages      oversubscribed
exscan          *     *            auto
bcast           2     0-262143     messages      bound
scatter         2     0-2047       messages      bound
gather          2     0-4096       messages      bound
gather          2     4097-8191    schedule      bound
allgather       2     0-16383      messages      bound
alltoall        2     0-4096       messages      bound
alltoall        2     4097-8191    schedule      bound
allreduce       2     0-8191       messages      bound
reduce          2     0-511        messages      bound
scan            2     0-8191       messages      bound
)";

}  // namespace

TEST_CASE("rules that say what the thresholds said choose as the thresholds did") {
  Thresholds by_rules;  // nothing given: the rules decide
  by_rules.compiled = with_rules(kHandRules).rules;
  Thresholds by_thresholds;  // every threshold set, at its default: the thresholds decide
  by_thresholds.compiled = nullptr;
  by_thresholds.given = ~0u;
  const Family all[] = {Family::barrier, Family::bcast,     Family::scatter,        Family::gather,
                        Family::allgather, Family::alltoall, Family::reduce,        Family::allreduce,
                        Family::reduce_scatter, Family::scan, Family::neighbor};
  const std::size_t sizes[] = {0,    4,    63,   64,   256,  257,  2047,  2048,  4096,   4097,
                               8191, 8192, 16383, 16384, 32768, 262143, 262144, 1 << 20};
  long checked = 0, differ = 0;
  for (Family f : all)
    for (int mode = 0; mode <= 3; ++mode)
      for (int np : {1, 2, 3, 8})
        for (int bits = 0; bits < 256; ++bits)
          for (std::size_t bytes : sizes) {
            Shape s;
            s.np = np;
            s.inter = (bits & 1) && np > 1 && f != Family::neighbor;
            s.nonblocking = bits & 2;
            s.segment = (bits & 4) && np > 1 && !s.inter;
            s.oversubscribed = bits & 8;
            s.two_level = bits & 16;
            s.fits = s.segment && (bits & 32);
            s.numa_fits = s.fits && (bits & 64);
            // Only the families with v forms have calls whose sizes not
            // every rank knows.
            const bool has_v = f == Family::scatter || f == Family::gather || f == Family::allgather ||
                               f == Family::alltoall || f == Family::neighbor;
            s.uniform = !(bits & 128) || !has_v;
            s.exclusive = bits & 64;
            s.bytes = s.uniform || f == Family::allgather ? bytes : 0;
            s.pair_bytes = f == Family::allgather ? bytes / 2 : bytes;
            s.count = static_cast<long long>(bytes / 4);
            const char* why = nullptr;
            const Algo want = choose(f, Setting{mode, Algo::none}, by_thresholds, s, &why);
            const Algo got = choose(f, Setting{mode, Algo::none}, by_rules, s, &why);
            INFO("family ", std::string(family_name(f)), " mode ", mode, " np ", np, " bits ", bits, " bytes ", bytes);
            // The one difference: MPI_Gatherv and MPI_Alltoallv at np 2 (a
            // core each) with a moving block of 4097..8191 bytes, which the
            // threshold sent to messages (the hand threshold took no
            // schedule for a v form) and the rules, matching the block as
            // the uniform form's, to a schedule.
            if ((f == Family::gather || f == Family::alltoall) && mode == 0 && np == 2 && !s.uniform && !s.oversubscribed && !s.inter &&
                !s.nonblocking && bytes > 4096 && bytes < 8192) {
              CHECK(want == Algo::messages);
              CHECK(got == Algo::schedule);
              ++differ;
              continue;
            }
            CHECK(std::string(algo_name(got)) == algo_name(want));
            ++checked;
          }
  CHECK(checked > 100000);
  CHECK(differ == 2 * 16 * 2);  // two families, 16 settings of the other bits, 4097 and 8191 bytes
}

TEST_CASE("precedence: a given threshold, then the user's file, then the compiled rules") {
  REQUIRE(compiled_rules_problem().empty());
  REQUIRE(compiled_rules() != nullptr);
  CHECK(!compiled_rules()->empty());
  Shape s;
  s.np = 2;
  s.segment = s.fits = true;
  s.inline_max = 8192;
  s.bytes = s.pair_bytes = 4;
  const char* why;
  // The compiled rules: two ranks with a core each broadcast 4 bytes by messages.
  Thresholds t;
  CHECK(t.compiled == compiled_rules());
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::messages);
  // A user's file wins over them ...
  t.rules = with_rules("bcast 2 * segment\n").rules;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment);
  // ... `auto` there passes the call on to the compiled rules ...
  t.rules = with_rules("bcast 2 * auto\nbcast 2 * segment\n").rules;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::messages);
  // ... a given threshold (environment, MPI_T) wins over both ...
  t.rules = with_rules("bcast 2 * segment\n").rules;
  t.pair_bcast = 1 << 20;
  t.given = 1u << 0;  // kThresholdIds[0]: RINGMPI_COLL_PAIR_BCAST
  CHECK(given_decides(Family::bcast, t, s));
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::messages);
  t.pair_bcast = 0;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment);
  // ... only for the calls it covers (np 2 with a core each, blocking) ...
  s.nonblocking = true;
  CHECK_FALSE(given_decides(Family::bcast, t, s));
  s.nonblocking = false;
  s.oversubscribed = true;
  CHECK_FALSE(given_decides(Family::bcast, t, s));
  // ... and a forced name wins over everything.
  s.oversubscribed = false;
  CHECK(choose(Family::bcast, Setting{0, Algo::schedule}, t, s, &why) == Algo::schedule);
}

TEST_CASE("the thresholds' values (what MPI_T reads while unset) are the compiled rules' boundaries") {
  const Thresholds t;  // the compiled rules, nothing given
  REQUIRE(t.given == 0);
  Shape s;
  s.np = 2;
  s.segment = s.fits = true;
  s.inline_max = 1 << 20;
  // Where the compiled two-rank messages band ends: the byte below the
  // threshold still leaves the segment, the threshold itself does not.
  struct Edge {
    Family f;
    std::size_t at;  // bytes as the rules match them (allgather: the total)
  };
  const Edge edges[] = {{Family::bcast, t.pair_bcast},       {Family::scatter, t.pair_scatter},
                        {Family::alltoall, t.pair_other},    {Family::allreduce, t.pair_other},
                        {Family::scan, t.pair_other},        {Family::reduce, t.pair_reduce},
                        {Family::allgather, 2 * t.pair_other}};
  for (const Edge& e : edges) {
    INFO("family ", std::string(family_name(e.f)));
    s.bytes = e.at - 1;
    s.pair_bytes = e.f == Family::allgather ? s.bytes / 2 : s.bytes;
    s.count = static_cast<long long>(s.bytes / 4);
    CHECK(pair_rule(e.f, t, s));
    s.bytes = e.at;
    s.pair_bytes = e.f == Family::allgather ? s.bytes / 2 : s.bytes;
    s.count = static_cast<long long>(s.bytes / 4);
    CHECK_FALSE(pair_rule(e.f, t, s));
  }
  // The scan chain: oversubscribed scans up to scan_chain bytes by messages.
  const char* why;
  s.oversubscribed = true;
  s.np = 5;
  s.bytes = s.pair_bytes = t.scan_chain;
  CHECK(choose(Family::scan, Setting{}, t, s, &why) == Algo::messages);
  s.bytes = s.pair_bytes = t.scan_chain + 4;
  CHECK(choose(Family::scan, Setting{}, t, s, &why) == Algo::segment);
  // The defaults of the tunables are those values.
  CHECK(std::to_string(t.pair_bcast) == tunables::spec(tunables::Id::coll_pair_bcast).fallback);
  CHECK(std::to_string(t.pair_scatter) == tunables::spec(tunables::Id::coll_pair_scatter).fallback);
  CHECK(std::to_string(t.pair_other) == tunables::spec(tunables::Id::coll_pair_max).fallback);
  CHECK(std::to_string(t.pair_reduce) == tunables::spec(tunables::Id::coll_pair_reduce).fallback);
  CHECK(std::to_string(t.scan_chain) == tunables::spec(tunables::Id::coll_scan_chain_max).fallback);
}
