// lib/coll's pure functions: how vectors are cut into blocks, which sizes
// take which algorithm, and the tag space of a communicator's collective
// context.
#include <numeric>
#include <set>

#include "coll/partition.hpp"
#include "coll/scheduled.hpp"
#include "coll/select.hpp"
#include "doctest/doctest.h"
#include "dtype/datatype.hpp"
#include "exchange/tags.hpp"

using namespace ringmpi;

TEST_CASE("even_counts covers the vector, blocks differ by at most one, larger ones first") {
  for (int n : {1, 2, 3, 7, 16})
    for (int count : {0, 1, 5, 16, 17, 1000}) {
      const std::vector<int> c = coll::even_counts(count, n);
      REQUIRE(static_cast<int>(c.size()) == n);
      CHECK(std::accumulate(c.begin(), c.end(), 0) == count);
      for (int i = 1; i < n; ++i) {
        CHECK(c[static_cast<std::size_t>(i)] <= c[static_cast<std::size_t>(i - 1)]);
        CHECK(c[0] - c[static_cast<std::size_t>(i)] <= 1);
      }
    }
}

TEST_CASE("prefix gives the displacement of each block") {
  const int counts[] = {3, 0, 5, 1};
  const std::vector<int> d = coll::prefix(4, counts);
  CHECK(d == std::vector<int>{0, 3, 3, 8});
  CHECK(coll::prefix(1, counts) == std::vector<int>{0});
}

TEST_CASE("reductions and allgathers switch to blocks at RINGMPI_COLL_BLOCK_REDUCTION_MIN") {
  const std::size_t min = coll::Thresholds{}.block_reduction;
  dtype::Datatype four;
  four.size = 4;
  const dtype::Op sum{.builtin = MPI_SUM, .name = "MPI_SUM"};
  const int below = static_cast<int>(min / 4) - 1;
  const int at = static_cast<int>(min / 4);
  CHECK_FALSE(coll::reduce_by_blocks(coll::Reduction{sum, MPI_INT, &four, below}, 4, min));
  CHECK(coll::reduce_by_blocks(coll::Reduction{sum, MPI_INT, &four, at}, 4, min));
  CHECK_FALSE(coll::reduce_by_blocks(coll::Reduction{sum, MPI_INT, &four, at}, 1, min));  // alone: nothing to split
  dtype::Datatype big;
  big.size = min;  // one element of the whole size, 4 ranks: fewer elements than ranks
  CHECK_FALSE(coll::reduce_by_blocks(coll::Reduction{sum, MPI_BYTE, &big, 1}, 4, min));
  const int half[] = {at / 2, at / 2};
  const int small[] = {below / 2, below / 2};
  CHECK(coll::allgather_direct(2, half, four, min));
  CHECK_FALSE(coll::allgather_direct(2, small, four, min));
  CHECK_FALSE(coll::allgather_direct(1, half, four, min));
}

TEST_CASE("schedule tags wrap within their range and never meet the other tags of the collective context") {
  using namespace exchange;
  CHECK(schedule_tag(0) == kScheduleTagBase);
  CHECK(schedule_tag((1u << 30) - 1) == kScheduleTagBase - ((1 << 30) - 1));
  CHECK(schedule_tag(1u << 30) == schedule_tag(0));  // sequence numbers wrap
  CHECK(schedule_tag(0xffffffffu) < 0);
  for (std::uint32_t seq : {0u, 1u, 12345u, (1u << 30) - 1, 0xffffffffu}) {
    const int t = schedule_tag(seq);
    CHECK(t <= kScheduleTagBase);
    CHECK(t != -1);  // MPI_ANY_TAG
  }
  // MPI_Comm_create_group's tags stay between the internal ones and the schedules'.
  for (int user : {0, 1, 77, (1 << 29) - 1, 1 << 29, 2147483647}) {
    const int t = create_group_tag(user);
    CHECK(t <= kCreateGroupBase);
    CHECK(t > kScheduleTagBase);
    CHECK(t < kTagLast);
  }
  const std::set<int> internal{kTagBarrier, kTagAllgather, kTagBcast};
  CHECK(internal.size() == 3);
  for (int t : internal) {
    CHECK(t <= kTagFirst);
    CHECK(t >= kTagLast);
  }
}
