#include <doctest/doctest.h>
#include <stdlib.h>

#include <optional>
#include <string>

#include "../../../launcher/binding.hpp"

using namespace ringmpi::launcher;

namespace {

// Sets HWLOC_SYNTHETIC for one test and puts back what was there.
struct Synthetic {
  std::optional<std::string> saved;
  explicit Synthetic(const char* desc) {
    if (const char* v = getenv("HWLOC_SYNTHETIC")) saved = v;
    setenv("HWLOC_SYNTHETIC", desc, 1);
  }
  ~Synthetic() {
    if (saved) setenv("HWLOC_SYNTHETIC", saved->c_str(), 1);
    else unsetenv("HWLOC_SYNTHETIC");
  }
};

int first_cpu(const cpu_set_t& set) {
  for (int i = 0; i < CPU_SETSIZE; ++i)
    if (CPU_ISSET(i, &set)) return i;
  return -1;
}

}  // namespace

TEST_CASE("binding: core places consecutive ranks on consecutive cores, wrapping around") {
  Synthetic s("numa:2 core:4 pu:2");
  const BindPlan p = plan_binding(Bind::core, 10);
  REQUIRE(p.policy == Bind::core);
  CHECK_FALSE(p.apply);  // not this machine
  REQUIRE(p.ranks.size() == 10);
  CHECK(p.ranks[0].where == "core 0 (cpus 0-1)");
  CHECK(p.ranks[3].where == "core 3 (cpus 6-7)");
  CHECK(p.ranks[7].where == "core 7 (cpus 14-15)");
  CHECK(p.ranks[8].where == "core 0 (cpus 0-1)");
  CHECK(CPU_COUNT(&p.ranks[5].cpus) == 2);
  CHECK(first_cpu(p.ranks[5].cpus) == 10);
}

TEST_CASE("binding: numa binds each rank to the node of its core") {
  Synthetic s("numa:2 core:4 pu:2");
  const BindPlan p = plan_binding(Bind::numa, 8);
  REQUIRE(p.policy == Bind::numa);
  CHECK(p.ranks[0].where == "NUMA node 0 (cpus 0-7)");
  CHECK(p.ranks[3].where == "NUMA node 0 (cpus 0-7)");
  CHECK(p.ranks[4].where == "NUMA node 1 (cpus 8-15)");
  CHECK(CPU_COUNT(&p.ranks[7].cpus) == 8);
}

TEST_CASE("binding: automatic binds to cores only when the ranks fit") {
  Synthetic s("numa:2 core:4 pu:2");
  const BindPlan fit = plan_binding(Bind::automatic, 8);
  CHECK(fit.policy == Bind::core);
  CHECK(fit.reason.find("8 ranks <= 8 cores") != std::string::npos);
  const BindPlan over = plan_binding(Bind::automatic, 9);
  CHECK(over.policy == Bind::none);
  CHECK(over.ranks.empty());
  CHECK(over.reason.find("9 ranks > 8 cores") != std::string::npos);
}

TEST_CASE("binding: a topology without cores binds to PUs") {
  Synthetic s("pu:4");
  const BindPlan p = plan_binding(Bind::core, 2);
  REQUIRE(p.policy == Bind::core);
  CHECK(p.ranks[1].where == "pu 1 (cpus 1)");
}

TEST_CASE("binding: none never loads a topology; this machine's plan is applicable") {
  CHECK(plan_binding(Bind::none, 4).policy == Bind::none);
  if (getenv("HWLOC_SYNTHETIC") || getenv("HWLOC_XMLFILE")) return;
  const BindPlan p = plan_binding(Bind::core, 1);
  REQUIRE(p.policy == Bind::core);
  CHECK(p.apply);
  CHECK(CPU_COUNT(&p.ranks[0].cpus) >= 1);
}
