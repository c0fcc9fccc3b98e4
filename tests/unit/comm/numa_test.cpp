#include <doctest/doctest.h>
#include <hwloc.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "comm/numa.hpp"

using namespace ringmpi::comm;

namespace {

// Loads a topology with the environment variable `var` set to `value` only
// for the duration of the load.
std::unique_ptr<NumaCache> load_with(const char* var, const std::string& value) {
  setenv(var, value.c_str(), 1);
  auto t = load_topology();
  unsetenv(var);
  return t;
}

}  // namespace

TEST_CASE("HWLOC_SYNTHETIC: ranks bound inside one node get that node") {
  auto t = load_with("HWLOC_SYNTHETIC", "pack:2 node:2 core:2 pu:1");  // 4 nodes of 2 PUs
  REQUIRE(t);
  CHECK(hwloc_get_nbobjs_by_type(t->topology, HWLOC_OBJ_NUMANODE) == 4);
  CHECK(numa_node_of(*t, {0}, 0) == 0);
  CHECK(numa_node_of(*t, {1}, 0) == 0);
  CHECK(numa_node_of(*t, {2, 3}, 2) == 1);
  CHECK(numa_node_of(*t, {7}, 0) == 3);  // the binding wins over where it last ran
}

TEST_CASE("HWLOC_SYNTHETIC: an unbound rank gets the node it runs on") {
  auto t = load_with("HWLOC_SYNTHETIC", "node:2 core:2 pu:1");
  REQUIRE(t);
  CHECK(numa_node_of(*t, {0, 1, 2, 3}, 3) == 1);
  CHECK(numa_node_of(*t, {0, 1, 2, 3}, 0) == 0);
  CHECK(numa_node_of(*t, {}, 2) == 1);
}

TEST_CASE("cpus the topology lacks are folded onto its PUs") {
  auto t = load_with("HWLOC_SYNTHETIC", "node:2 pu:1");
  REQUIRE(t);
  CHECK(numa_node_of(*t, {5}, 5) == 1);  // 5 % 2
  CHECK(numa_node_of(*t, {6}, 6) == 0);
}

TEST_CASE("HWLOC_XMLFILE is honoured") {
  // Export a synthetic 3-node machine to XML, then load it back through the variable.
  hwloc_topology_t s;
  REQUIRE(hwloc_topology_init(&s) == 0);
  REQUIRE(hwloc_topology_set_synthetic(s, "node:3 pu:2") == 0);
  REQUIRE(hwloc_topology_load(s) == 0);
  char path[] = "/tmp/ringmpi-numa-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  REQUIRE(hwloc_topology_export_xml(s, path, 0) == 0);
  hwloc_topology_destroy(s);
  auto t = load_with("HWLOC_XMLFILE", path);
  unlink(path);
  REQUIRE(t);
  CHECK(hwloc_get_nbobjs_by_type(t->topology, HWLOC_OBJ_NUMANODE) == 3);
  CHECK(numa_node_of(*t, {4, 5}, 4) == 2);
  CHECK(numa_node_of(*t, {2}, 0) == 1);
}

TEST_CASE("the real machine: the caller's node is one of its nodes") {
  auto t = load_topology();
  REQUIRE(t);
  const int n = hwloc_get_nbobjs_by_type(t->topology, HWLOC_OBJ_NUMANODE);
  const int mine = this_process_numa_node();
  CHECK(mine >= 0);
  CHECK(mine < (n > 0 ? n : 1));
}
