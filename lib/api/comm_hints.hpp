// Communicator info hints (MPI-4.0 §7.4.4) as arguments and results:
// the assertions mpi_assert_no_any_tag, _no_any_source, _exact_length,
// _allow_overtaking, and mpi_hw_resource_type (set by hardware splits).
#pragma once

#include "api/call.hpp"
#include "comm/comm.hpp"
#include "core/info.hpp"

namespace ringmpi::api {

// The hints `info` (MPI_INFO_NULL: none) sets, starting from `base`: keys
// the library does not know are ignored, as §10 allows. Fails (MPI_ERR_INFO)
// for an invalid info handle.
int hints_from_info(Call& call, MPI_Info info, const comm::Hints& base, comm::Hints* out);
// What MPI_Comm_get_info reports: the assertions in force ("true") and
// mpi_hw_resource_type when the communicator has one.
core::Info info_of_hints(const comm::Hints& h);

}  // namespace ringmpi::api
