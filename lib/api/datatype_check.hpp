// Argument checks shared by the datatype entry points.
#pragma once

#include <string>

#include "api/call.hpp"
#include "dtype/datatype.hpp"

namespace ringmpi::api {

// A valid datatype handle, committed or not (constructors and queries accept
// uncommitted types; communication goes through Call::datatype instead).
int any_datatype(Call& call, MPI_Datatype h, const char* arg, dtype::TypePtr* out);
// n >= 0 entries of an int array, each >= 0 (block lengths): MPI_ERR_ARG.
int nonnegative_entries(Call& call, const int* a, int n, const char* arg);
// A NULL array with n > 0 entries: MPI_ERR_ARG.
int array(Call& call, const void* a, int n, const char* arg);
// Gives a newly built type a handle in *newtype, or reports why it could not be built.
int publish(Call& call, dtype::TypePtr t, const std::string& why, MPI_Datatype* newtype);

}  // namespace ringmpi::api
