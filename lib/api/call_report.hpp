// The words of the deadlock report for the call this rank waits in
// (call_report.cpp). MPI_Init installs them as core::Runtime::describe_call.
#pragma once

namespace ringmpi::api {

void install_call_report();

}  // namespace ringmpi::api
