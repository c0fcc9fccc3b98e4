// The name service (MPI_Publish_name, MPI_Unpublish_name, MPI_Lookup_name)
// and MPI_Comm_join's exchange over its socket.
#pragma once

#include <string>

#include "api/call.hpp"

namespace ringmpi::api {

// MPI_SUCCESS or an error class with *why.
int publish_name(const std::string& service, const std::string& port, std::string* why);
int unpublish_name(const std::string& service, const std::string& port, std::string* why);
int lookup_name(const std::string& service, std::string* port, std::string* why);
// MPI_Comm_join on a connected socket; reports errors through `call`.
int join(Call& call, int fd, MPI_Comm* intercomm);

}  // namespace ringmpi::api
