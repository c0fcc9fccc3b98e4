#include <cstdlib>
#include <string>

#include "doctest/doctest.h"
#include "tunables/tunables.hpp"

using namespace ringmpi::tunables;

TEST_CASE("every tunable is in the table under its own id, with a sane range") {
  for (int i = 0; i < kCount; ++i) {
    const Spec& s = spec(i);
    CHECK(static_cast<int>(s.id) == i);
    CHECK(std::string(s.name).rfind("RINGMPI_", 0) == 0);
    CHECK(s.min <= s.max);
  }
}

TEST_CASE("parse accepts the range and names the variable and the range otherwise") {
  std::uint64_t v = 0;
  std::string why;
  CHECK(parse(Id::ring_bytes, "16384", &v, &why));
  CHECK(v == 16384);
  CHECK_FALSE(parse(Id::ring_bytes, "24576", &v, &why));  // not a power of two
  CHECK(why.find("RINGMPI_RING_BYTES='24576' is not a power of two between 16384 and 1073741824") == 0);
  CHECK_FALSE(parse(Id::eager_limit, "4095", &v, &why));
  CHECK_FALSE(parse(Id::eager_limit, "", &v, &why));
  CHECK_FALSE(parse(Id::eager_limit, "12k", &v, &why));
  CHECK_FALSE(parse(Id::yield_us, "-1", &v, &why));
  CHECK_FALSE(parse(Id::internal_eager_safe, "4097", &v, &why));  // would break the deadlock-freedom argument
  CHECK(parse(Id::internal_eager_safe, "0", &v, &why));
  CHECK(v == 0);
}

TEST_CASE("value clamps into range and falls back when unset or not a number") {
  ::unsetenv("RINGMPI_EAGER_LIMIT");
  CHECK(value(Id::eager_limit, 12345) == 12345);
  CHECK_FALSE(is_set(Id::eager_limit));
  ::setenv("RINGMPI_EAGER_LIMIT", "10", 1);
  CHECK(is_set(Id::eager_limit));
  CHECK(value(Id::eager_limit, 12345) == kMinEagerLimit);
  ::setenv("RINGMPI_EAGER_LIMIT", "junk", 1);
  CHECK(value(Id::eager_limit, 12345) == 12345);
  ::unsetenv("RINGMPI_EAGER_LIMIT");
  ::setenv("RINGMPI_INTERNAL_EAGER_SAFE", "99999999", 1);
  CHECK(value(Id::internal_eager_safe, 64) == kMinEagerLimit);
  ::unsetenv("RINGMPI_INTERNAL_EAGER_SAFE");
  ::setenv("RINGMPI_RING_BYTES", "100000", 1);  // down to a power of two
  CHECK(value(Id::ring_bytes, 0) == 65536);
  ::unsetenv("RINGMPI_RING_BYTES");
}

TEST_CASE("check_all reports each bad variable on its own line, and help lists them all") {
  auto env = [](const char* n) -> const char* {
    const std::string name = n;
    if (name == "RINGMPI_CHUNK") return "1";
    if (name == "RINGMPI_SPLIT_MIN") return "100";
    if (name == "RINGMPI_YIELD_US") return "abc";
    return nullptr;
  };
  const std::string bad = check_all(env);
  CHECK(bad.find("RINGMPI_CHUNK='1'") != std::string::npos);
  CHECK(bad.find("RINGMPI_YIELD_US='abc'") != std::string::npos);
  CHECK(bad.find("RINGMPI_SPLIT_MIN") == std::string::npos);
  CHECK(check_all([](const char*) -> const char* { return nullptr; }).empty());
  const std::string h = help();
  for (int i = 0; i < kCount; ++i) CHECK(h.find(spec(i).name) != std::string::npos);
}
