// Info objects (MPI-3.1 chapter 9): ordered (key, value) string pairs
// behind MPI_Info handles, and the predefined MPI_INFO_ENV.
//
// Keys keep their insertion order (MPI_Info_get_nthkey's order; setting an
// existing key changes its value in place). Leading and trailing spaces of
// keys and values are stripped (§9). Lengths: keys 1..MPI_MAX_INFO_KEY,
// values 1..MPI_MAX_INFO_VAL characters.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/handle.hpp"
#include "mpi.h"

namespace ringmpi::core {

struct Info {
  std::vector<std::pair<std::string, std::string>> entries;

  const std::string* find(const std::string& key) const;
  void set(std::string key, std::string value);
  bool erase(const std::string& key);
};

struct InfoState {
  InfoState();  // installs MPI_INFO_ENV (command line, world size, working directory, ...)
  HandleTable<Info> table{Kind::info};
};
InfoState& info_state();

// Strips leading and trailing spaces.
std::string strip(const char* s);

}  // namespace ringmpi::core
