// Info objects as arguments and results of other calls (communicators,
// windows): one place that hands out new info handles and reads hints.
#pragma once

#include <memory>

#include "api/call.hpp"
#include "core/info.hpp"

namespace ringmpi::api {

// Puts `info` in the handle table and stores its handle in *out;
// MPI_ERR_INTERN (named in the message) when 2^20 info objects are live.
int new_info_handle(Call& call, std::unique_ptr<core::Info> info, MPI_Info* out);

// Whether the info object `h` (MPI_INFO_NULL: none) sets the boolean hint
// `key` to "true" (case-insensitive, as MPI-3.1 §9 spells booleans).
bool hint_is_true(MPI_Info h, const char* key);

}  // namespace ringmpi::api
