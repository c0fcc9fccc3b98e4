// The tool information interface's catalogue (lib/api/tool_catalogue.cpp)
// against the tables it is made from, and the string protocol of MPI-3.1
// §14.3.3 (tool::put_string). The MPI_T functions themselves: tests/mpi/tool.
#include <doctest/doctest.h>

#include <climits>
#include <cstring>
#include <set>
#include <string>

#include "api/tool.hpp"
#include "coll/select.hpp"
#include "core/counters.hpp"
#include "core/runtime.hpp"
#include "tunables/tunables.hpp"

using namespace ringmpi;
namespace tool = api::tool;

TEST_CASE("one control variable per tunable, in the table's order") {
  REQUIRE(tool::cvar_count() == tunables::kCount);
  for (int i = 0; i < tool::cvar_count(); ++i) {
    const tool::Cvar& v = tool::cvar(i);
    const tunables::Spec& s = tunables::spec(i);
    CHECK(v.name == s.name);
    CHECK(v.description.find(s.meaning) == 0);
    // Writable (the same on every rank) exactly the collective algorithm
    // settings and thresholds (coll/select.hpp); the others fixed.
    const bool family = s.id >= tunables::Id::coll_barrier && s.id <= tunables::Id::coll_neighbor;
    const bool threshold = s.id >= tunables::Id::coll_pair_bcast && s.id <= tunables::Id::coll_alltoall_reduce_ranks;
    CHECK((v.scope == MPI_T_SCOPE_ALL_EQ) == (family || threshold));
    CHECK((v.scope == MPI_T_SCOPE_CONSTANT || v.scope == MPI_T_SCOPE_READONLY || v.scope == MPI_T_SCOPE_ALL_EQ));
    CHECK(v.datatype == (s.max <= static_cast<std::uint64_t>(INT_MAX) ? MPI_INT : MPI_UNSIGNED_LONG_LONG));
    // An enumeration only on MPI_INT variables (§14.3.5), and exactly on the
    // algorithm variables RINGMPI_COLL_<FAMILY> (NEIGHBOR included).
    const bool coll = family;
    CHECK((v.enumtype != MPI_T_ENUM_NULL) == coll);
    if (coll) {
      CHECK(v.datatype == MPI_INT);
      const tool::Enum* e = tool::enum_of(v.enumtype);
      REQUIRE(e != nullptr);
      // One name per mode 0..max, then the families' forced algorithms (force_<name>).
      CHECK(e->items.size() == s.max + 1 + (family ? coll::kAlgos - 1 : 0));
    }
  }
}

TEST_CASE("one performance variable per counter, with a description") {
  // ... then one per collective algorithm row, bound to a communicator.
  REQUIRE(tool::pvar_count() == core::kCounters + static_cast<int>(coll::rows_end() - coll::rows_begin()));
  for (int i = core::kCounters; i < tool::pvar_count(); ++i) {
    CHECK(tool::pvar(i).bind == MPI_T_BIND_MPI_COMM);
    CHECK(std::string(tool::pvar(i).name).rfind("coll_", 0) == 0);
    CHECK(tool::pvar(i).description.size() > 10);
  }
  for (int i = 0; i < core::kCounters; ++i) {
    CHECK(tool::pvar(i).bind == MPI_T_BIND_NO_OBJECT);
    CHECK(tool::pvar(i).name == core::kCounterNames[static_cast<std::size_t>(i)]);
    CHECK(tool::pvar(i).description.size() > 10);
    CHECK(tool::pvar_value(i) == core::counter_value(i));
  }
}

TEST_CASE("every variable is in exactly one leaf category; 'ringmpi' holds the leaves") {
  std::multiset<int> cvars, pvars;
  for (int c = 0; c < tool::category_count(); ++c) {
    const tool::Category& cat = tool::category(c);
    cvars.insert(cat.cvars.begin(), cat.cvars.end());
    pvars.insert(cat.pvars.begin(), cat.pvars.end());
    CHECK_FALSE(cat.description.empty());
  }
  for (int i = 0; i < tool::cvar_count(); ++i) CHECK(cvars.count(i) == 1);
  for (int i = 0; i < tool::pvar_count(); ++i) CHECK(pvars.count(i) == 1);
  CHECK(tool::category(0).name == "ringmpi");
  CHECK(tool::category(0).categories.size() == static_cast<std::size_t>(tool::category_count() - 1));
}

TEST_CASE("enumeration handles: predefined ones only") {
  CHECK(tool::enum_of(MPI_T_ENUM_NULL) == nullptr);
  CHECK(tool::enum_of(MPI_COMM_WORLD) == nullptr);
  CHECK(tool::enum_of(0) == nullptr);
  CHECK(tool::enum_of(-1) == nullptr);
}

TEST_CASE("strings: MPI-3.1 section 14.3.3") {
  char buf[8];
  int len = sizeof buf;
  tool::put_string("abc", buf, &len);
  CHECK(len == 4);
  CHECK(std::strcmp(buf, "abc") == 0);

  std::memset(buf, 'z', sizeof buf);
  len = 3;  // truncated to 2 characters and a NUL; the whole length comes back
  tool::put_string("abcdef", buf, &len);
  CHECK(len == 7);
  CHECK(std::strcmp(buf, "ab") == 0);
  CHECK(buf[3] == 'z');

  std::memset(buf, 'z', sizeof buf);
  len = 0;  // only the length
  tool::put_string("abcdef", buf, &len);
  CHECK(len == 7);
  CHECK(buf[0] == 'z');
  len = 5;  // NULL buffer: only the length
  tool::put_string("abcdef", nullptr, &len);
  CHECK(len == 7);
  tool::put_string("abcdef", buf, nullptr);  // NULL length: nothing
  CHECK(buf[0] == 'z');

  len = 1;
  tool::put_string("", buf, &len);
  CHECK(len == 1);
  CHECK(buf[0] == '\0');

  int neg = -1;
  CHECK_FALSE(tool::length_ok(buf, &neg));
  CHECK(tool::length_ok(nullptr, &neg));  // no buffer: only the length, whatever was passed
  CHECK(tool::length_ok(buf, nullptr));
}
