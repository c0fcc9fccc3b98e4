// mpiexec --coll-report: the ranks' collective counts (lib/coll/report.cpp
// writes them at MPI_Finalize into a private directory, a TraceDir) read
// after the job and printed as one table.
#pragma once

#include <string>

namespace ringmpi::launcher {

// The environment variable that tells the ranks where to write.
inline constexpr const char* kEnvCollReport = "RINGMPI_COLL_REPORT";

// Reads dir/coll-0.txt .. coll-(nranks-1).txt and returns the report: per
// communicator (its name or context id, and size), family and algorithm,
// the calls (the largest count of any rank: every member makes each call)
// and the time spent in blocking calls (the slowest rank's total, and per
// call). *missing: the ranks without a file (they did not reach MPI_Finalize).
std::string coll_report(const std::string& dir, int nranks, int* missing);

}  // namespace ringmpi::launcher
