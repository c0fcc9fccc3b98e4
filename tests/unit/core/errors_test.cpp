#include <doctest/doctest.h>

#include "core/errors.hpp"
#include "mpi.h"

using namespace ringmpi::core;

TEST_CASE("error classes have names and strings; unknown codes are reported as such") {
  CHECK(error_class_name(MPI_ERR_RANK) == "MPI_ERR_RANK");
  CHECK(error_class_of(MPI_ERR_TRUNCATE) == MPI_ERR_TRUNCATE);
  CHECK(error_string(MPI_SUCCESS) == "no error");
  CHECK(error_class_of(MPI_ERR_LASTCODE + 100) == -1);
  CHECK(error_string(-5).find("invalid error code") != std::string::npos);
  CHECK(last_used_code() >= MPI_ERR_LASTCODE);
}
