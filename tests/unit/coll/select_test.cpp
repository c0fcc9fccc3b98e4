// The collective algorithm tables and the default choice (coll/select.hpp).
// The grid test compares choose() with the ladder the api layer ran before
// the tables (lib/api/coll.cpp: the segment unless its seg_* function
// declined, then messages unless the size sent the call to a schedule),
// transcribed here with its decline conditions, over every mode and a
// grid of shapes: the default choice must be the same algorithm.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "coll/select.hpp"

using namespace ringmpi::coll;

namespace {

// The pre-table ladder for a blocking intracommunicator call, or a
// nonblocking one, with the numeric mode of RINGMPI_COLL_<FAMILY>.
Algo old_ladder(Family f, int mode, const Shape& s) {
  const Thresholds t;
  if (f == Family::neighbor) {  // api/neighbor.cpp: self on one rank, the segment where it applies, a schedule
    if (!s.nonblocking && s.np == 1) return Algo::local;
    return s.segment && mode != 2 && s.fits ? Algo::segment : Algo::schedule;
  }
  if (s.inter) return f == Family::barrier && !s.nonblocking ? Algo::messages : Algo::schedule;
  if (s.nonblocking) return s.segment && mode != 2 && s.fits ? Algo::segment : Algo::schedule;
  if (f == Family::barrier) {
    if (s.np == 1) return Algo::local;
    if (s.segment && mode != 2) return mode != 1 && s.two_level ? Algo::numa_leaders : Algo::segment;
    return s.world ? Algo::world_counter : Algo::messages;
  }
  // two_ranks_by_messages (seg_movement.cpp before the tables)
  const auto pair = [&](std::size_t bytes) {
    if (s.np != 2 || s.oversubscribed || mode != 0) return false;
    if (f == Family::bcast) return bytes < 16 * 1024;
    if (f == Family::scatter) return bytes < 2 * 1024;
    return bytes < 1024;
  };
  if (s.segment && mode != 2 && s.np >= 2) {
    bool declined = !s.fits;
    switch (f) {
      case Family::bcast: declined = declined || pair(s.pair_bytes); break;
      case Family::scatter:
      case Family::gather: declined = declined || (s.np == 2 && pair(s.pair_bytes)); break;
      case Family::allgather: declined = declined || pair(s.pair_bytes); break;
      // (The v form too since session 6: at two ranks both know the larger crossing block.)
      case Family::alltoall: declined = declined || pair(s.pair_bytes); break;
      case Family::allreduce: declined = declined || pair(s.pair_bytes); break;
      case Family::scan:
        declined = declined || (!s.exclusive && pair(s.pair_bytes)) ||
                   (s.oversubscribed && mode == 0 && s.bytes <= 256);
        break;
      default: break;
    }
    if (!declined) {
      // bcast_two_level, fold_two_level_applies: mode != 1 and groups worth it.
      const bool numa_family = f == Family::bcast || f == Family::reduce || f == Family::allreduce;
      if (numa_family && s.bytes != 0 && mode != 1 && s.two_level && s.numa_fits) return Algo::numa_leaders;
      return Algo::segment;
    }
  }
  switch (f) {  // fan_out_scheduled, allgather_direct, reduce_by_blocks
    case Family::scatter:
    case Family::gather:
    case Family::alltoall: return s.uniform && s.bytes > 4096 ? Algo::schedule : Algo::messages;
    case Family::allgather: return s.np > 1 && s.bytes >= 32768 ? Algo::schedule : Algo::messages;
    case Family::reduce:
    case Family::allreduce:
    case Family::reduce_scatter:
      return s.np > 1 && s.count >= s.np && s.bytes >= 32768 ? Algo::schedule : Algo::messages;
    default: return Algo::messages;
  }
}

const Family kAll[] = {Family::barrier, Family::bcast,     Family::scatter,        Family::gather, Family::allgather,
                       Family::alltoall, Family::reduce,   Family::allreduce,      Family::reduce_scatter,
                       Family::scan,     Family::neighbor};

}  // namespace

TEST_CASE("the default choice is the old ladder's over a grid of shapes") {
  // The ladder's two-rank thresholds (since retuned: select.hpp Thresholds).
  Thresholds t;
  t.pair_bcast = 16384;
  t.pair_other = 1024;
  t.pair_reduce = 0;  // the ladder had no two-rank rule for reduce (below: its own case)
  t.given = ~0u;      // set, as in the environment: the thresholds decide ahead of every rules file
  t.compiled = nullptr;  // and no rules (the ladder had none; lib/coll/default.rules has more bands now)
  const std::size_t sizes[] = {0, 4, 1000, 1023, 1024, 2047, 2048, 4096, 4097, 16383, 16384, 32768, 1 << 20};
  long checked = 0;
  for (Family f : kAll)
    for (int mode = 0; mode <= 3; ++mode)
      for (int np : {1, 2, 3, 4, 8})
        for (int bits = 0; bits < 256; ++bits)
          for (std::size_t bytes : sizes) {
            Shape s;
            s.np = np;
            s.inter = (bits & 1) && np > 1 && f != Family::neighbor;  // topologies are intracommunicators
            s.nonblocking = bits & 2;
            s.segment = (bits & 4) && np > 1 && !s.inter;
            s.oversubscribed = bits & 8;
            s.two_level = bits & 16;
            s.fits = s.segment && (bits & 32);
            s.numa_fits = s.fits && (bits & 64);
            s.uniform = !(bits & 128);
            s.world = bits & 32;
            s.exclusive = bits & 64;
            s.bytes = bytes;
            s.pair_bytes = f == Family::allgather ? bytes / 2 : bytes;
            s.count = static_cast<long long>(bytes / 4);
            if (f == Family::barrier) s.fits = s.numa_fits = s.segment;  // barrier_fits
            const char* why = nullptr;
            const Algo got = choose(f, Setting{mode, Algo::none}, t, s, &why);
            const Algo want = old_ladder(f, mode, s);
            INFO("family ", family_name(f), " mode ", mode, " np ", np, " bits ", bits, " bytes ", bytes);
            CHECK(std::string(algo_name(got)) == algo_name(want));
            CHECK(why == nullptr);
            CHECK(has(f, got));
            ++checked;
          }
  CHECK(checked > 100000);
}

TEST_CASE("spot checks of the default choice") {
  const Thresholds t;
  const char* why;
  Shape s;
  s.np = 2;
  s.segment = s.fits = true;
  s.inline_max = 8192;
  s.bytes = s.pair_bytes = 4096;
  // Two ranks with a core each: a 4 KiB bcast goes as messages, 256 KiB on the segment.
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::messages);
  s.bytes = s.pair_bytes = 262144;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment);
  // ... unless the threshold says otherwise.
  Thresholds higher;
  higher.pair_bcast = 1 << 20;
  higher.given = 1;  // RINGMPI_COLL_PAIR_BCAST set (environment or MPI_T): ahead of the rules
  CHECK(choose(Family::bcast, Setting{}, higher, s, &why) == Algo::messages);
  // Oversubscribed: the segment at any size.
  s.oversubscribed = true;
  s.bytes = s.pair_bytes = 4;
  CHECK(choose(Family::bcast, Setting{}, t, s, &why) == Algo::segment);
  // A non-contiguous reduction (fits false) on 4 ranks: messages, large ones a schedule.
  s = Shape{};
  s.np = 4;
  s.segment = true;
  s.bytes = s.pair_bytes = 1 << 20;
  s.count = 1 << 18;
  CHECK(choose(Family::allreduce, Setting{}, t, s, &why) == Algo::schedule);
  s.bytes = 64;
  s.count = 16;
  CHECK(choose(Family::allreduce, Setting{}, t, s, &why) == Algo::messages);
}

TEST_CASE("a forced algorithm runs where it can and says why where it cannot") {
  const Thresholds t;
  const char* why = nullptr;
  Shape s;
  s.np = 4;
  s.segment = s.fits = true;
  s.bytes = 64;
  CHECK(choose(Family::bcast, Setting{0, Algo::messages}, t, s, &why) == Algo::messages);
  CHECK(choose(Family::bcast, Setting{0, Algo::schedule}, t, s, &why) == Algo::schedule);
  CHECK(choose(Family::bcast, Setting{0, Algo::segment}, t, s, &why) == Algo::segment);
  CHECK(choose(Family::bcast, Setting{0, Algo::numa_leaders}, t, s, &why) == Algo::none);
  REQUIRE(why != nullptr);
  CHECK(std::strstr(why, "NUMA") != nullptr);
  s.two_level = s.numa_fits = true;
  CHECK(choose(Family::bcast, Setting{0, Algo::numa_leaders}, t, s, &why) == Algo::numa_leaders);
  s.fits = false;
  CHECK(choose(Family::bcast, Setting{0, Algo::segment}, t, s, &why) == Algo::none);
  CHECK(std::strstr(why, "does not fit") != nullptr);
  s.nonblocking = true;
  s.fits = true;
  CHECK(choose(Family::bcast, Setting{0, Algo::messages}, t, s, &why) == Algo::none);
  CHECK(std::strstr(why, "nonblocking") != nullptr);
  s.nonblocking = false;
  s.inter = true;
  CHECK(choose(Family::bcast, Setting{0, Algo::segment}, t, s, &why) == Algo::none);
  CHECK(choose(Family::barrier, Setting{0, Algo::messages}, t, s, &why) == Algo::messages);
  s.inter = false;
  CHECK(choose(Family::barrier, Setting{0, Algo::world_counter}, t, s, &why) == Algo::none);
  s.world = true;
  CHECK(choose(Family::barrier, Setting{0, Algo::world_counter}, t, s, &why) == Algo::world_counter);
}

TEST_CASE("a forced way of the segment runs blocking calls that fit it, and says why where it cannot") {
  const Thresholds t;
  const char* why = nullptr;
  Shape s;
  s.np = 4;
  s.segment = s.fits = true;
  s.bytes = 64;
  // Forced ways are checked by coll/fits.cpp (Shape::way, way_refused); the
  // default choice never returns one, and modes 1..3 do not either.
  s.way = Algo::segment_slot;
  CHECK(choose(Family::bcast, Setting{0, Algo::segment_slot}, t, s, &why) == Algo::segment_slot);
  CHECK(why == nullptr);
  s.way_refused = "the data is larger than a slot region";
  CHECK(choose(Family::bcast, Setting{0, Algo::segment_slot}, t, s, &why) == Algo::none);
  REQUIRE(why != nullptr);
  CHECK(std::strstr(why, "slot region") != nullptr);
  // ... whatever the segment's own fit says (a way may run where `segment` does not, e.g. chunks).
  s.way = Algo::segment_chunks;
  s.way_refused = nullptr;
  s.fits = false;
  CHECK(choose(Family::allreduce, Setting{0, Algo::segment_chunks}, t, s, &why) == Algo::segment_chunks);
  s.fits = true;
  // No nonblocking form, no intercommunicator, no single rank, no segment.
  s.nonblocking = true;
  CHECK(choose(Family::allreduce, Setting{0, Algo::segment_chunks}, t, s, &why) == Algo::none);
  CHECK(std::strstr(why, "nonblocking") != nullptr);
  s.nonblocking = false;
  s.np = 1;
  CHECK(choose(Family::allreduce, Setting{0, Algo::segment_chunks}, t, s, &why) == Algo::none);
  s.np = 4;
  s.segment = false;
  CHECK(choose(Family::allreduce, Setting{0, Algo::segment_chunks}, t, s, &why) == Algo::none);
  s.segment = true;
  // A family takes only its own ways.
  Setting set;
  std::string text;
  CHECK_FALSE(parse_setting(Family::bcast, "segment_chunks", &set, &text));
  CHECK_FALSE(parse_setting(Family::gather, "segment_split", &set, &text));
  CHECK(parse_setting(Family::scan, "segment_chain", &set, &text));
  CHECK(set.forced == Algo::segment_chain);
  // A forced way is the flat segment for the segment algorithms (no NUMA leaders).
  CHECK(effective_mode(Setting{0, Algo::segment_blocks}) == 1);
  // The compiled rules name no way: without a user's file naming one, no
  // call checks the ways (Plan::way_rules), and the default choice is as before.
  for (Family f : kAll) CHECK_FALSE(rules_name_ways(f, t));
  // Not forced and not checked for a rule (Shape::ways_checked): a way cannot run.
  Shape u;
  u.np = 4;
  u.segment = u.fits = true;
  u.bytes = 64;
  CHECK(choose(Family::bcast, Setting{0, Algo::segment_address}, t, u, &why) == Algo::none);
  for (Family f : kAll) {
    int ways = 0;
    for (const Row* r = rows_begin(); r != rows_end(); ++r)
      if (r->family == f && is_way(r->algo)) {
        ++ways;
        CHECK(r->blocking);
        CHECK_FALSE(r->nonblocking);
        CHECK(has(f, Algo::segment));  // a way of the family's segment
      }
    CHECK((ways == 0) == (f == Family::barrier || f == Family::neighbor));
  }
}

TEST_CASE("RINGMPI_COLL_<FAMILY> takes 0..3, auto and the family's names, as the tunables table does") {
  for (Family f : kAll) {
    Setting set;
    std::string why;
    CHECK(parse_setting(f, "2", &set, &why));
    CHECK(set.mode == 2);
    CHECK(set.forced == Algo::none);
    CHECK(parse_setting(f, "auto", &set, &why));
    CHECK(set.mode == 0);
    CHECK_FALSE(parse_setting(f, "4", &set, &why));
    CHECK_FALSE(parse_setting(f, "fastest", &set, &why));
    CHECK(why.find(ringmpi::tunables::spec(family_tunable(f)).name) != std::string::npos);
    // Every row's name is accepted, and is a word of the tunable (mpiexec's check).
    const std::string words = std::string(" ") + ringmpi::tunables::words(family_tunable(f)) + " ";
    int rows = 0;
    for (const Row* r = rows_begin(); r != rows_end(); ++r) {
      if (r->family != f) continue;
      ++rows;
      CHECK(parse_setting(f, algo_name(r->algo), &set, &why));
      CHECK(set.forced == r->algo);
      CHECK(words.find(std::string(" ") + algo_name(r->algo) + " ") != std::string::npos);
      std::uint64_t v;
      CHECK(ringmpi::tunables::parse(family_tunable(f), algo_name(r->algo), &v, &why));
    }
    // ... and the tunable has no word the family lacks.
    int word_count = 0;
    for (char ch : words) word_count += ch == ' ';
    CHECK(word_count - 1 == rows + 1);  // the rows and "auto"
    CHECK(rows >= 3);
  }
  Setting set;
  std::string why;
  CHECK_FALSE(parse_setting(Family::scatter, "numa_leaders", &set, &why));  // not one of scatter's
  CHECK_FALSE(parse_setting(Family::bcast, "world_counter", &set, &why));
}

TEST_CASE("two ranks with a core each reduce below RINGMPI_COLL_PAIR_REDUCE by messages") {
  const Thresholds t;  // the defaults: the compiled rules' band
  Shape s;
  s.np = 2;
  s.segment = s.fits = true;
  s.uniform = true;
  // The compiled rules take messages again from 4 KiB to 16 KiB and from 256 KiB
  // (lib/coll/default.rules, session 7).
  for (std::size_t bytes : {std::size_t{4}, std::size_t{64}, t.pair_reduce - 1, t.pair_reduce, std::size_t{4095},
                            std::size_t{4096}, std::size_t{16383}, std::size_t{16384}, std::size_t{262143},
                            std::size_t{262144}}) {
    s.bytes = s.pair_bytes = bytes;
    s.count = static_cast<long long>(bytes / 4);
    const char* why = nullptr;
    INFO("bytes ", bytes);
    const bool by_messages = bytes < t.pair_reduce || (bytes >= 4096 && bytes < 16384) || bytes >= 262144;
    CHECK(choose(Family::reduce, Setting{0, Algo::none}, t, s, &why) ==
          (by_messages ? Algo::messages : Algo::segment));
    // Not with more ranks than cores, not in mode 1, not for nonblocking calls, not at np 3.
    s.oversubscribed = true;
    CHECK(choose(Family::reduce, Setting{0, Algo::none}, t, s, &why) == Algo::segment);
    s.oversubscribed = false;
    CHECK(choose(Family::reduce, Setting{1, Algo::none}, t, s, &why) == Algo::segment);
    s.nonblocking = true;
    CHECK(choose(Family::reduce, Setting{0, Algo::none}, t, s, &why) == Algo::segment);
    s.nonblocking = false;
    s.np = 3;
    CHECK(choose(Family::reduce, Setting{0, Algo::none}, t, s, &why) == Algo::segment);
    s.np = 2;
  }
}
