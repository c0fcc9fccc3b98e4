// The accepted range of a tunable in words ("a power of two between 16384
// and 1073741824"): in parse()'s message, in mpiexec --help and in the
// ringmpi(7) man page (tools/man), so all three say the same.
#pragma once

#include <string>

#include "tunables/tunables.hpp"

namespace ringmpi::tunables {

std::string range_text(const Spec& s);

}  // namespace ringmpi::tunables
