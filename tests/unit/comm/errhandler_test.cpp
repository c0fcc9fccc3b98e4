// Error handler handles: each create/get is a reference the user frees; the
// object outlives its handles while communicators use it.
#include <doctest/doctest.h>

#include "comm/comm.hpp"
#include "comm/errhandler.hpp"
#include "mpi.h"

using namespace ringmpi::comm;

namespace {
void handler(MPI_Comm*, int*, ...) {}
}  // namespace

TEST_CASE("user handler handles are counted; predefined ones are fixed") {
  const int before = live_user_errhandlers();
  const MPI_Errhandler h = create_errhandler(handler);
  REQUIRE(h != MPI_ERRHANDLER_NULL);
  CHECK(live_user_errhandlers() == before + 1);
  std::shared_ptr<const Errhandler> eh = lookup_errhandler(h);  // as a communicator would hold it
  REQUIRE(eh);
  CHECK(eh->kind == Errhandler::Kind::user);
  CHECK((eh->fn == &handler));

  CHECK(user_handle(eh) == h);  // MPI_Comm_get_errhandler: a second reference
  free_user_handle(h);
  CHECK(lookup_errhandler(h) == eh);  // one reference left
  free_user_handle(h);
  CHECK(lookup_errhandler(h) == nullptr);
  CHECK(live_user_errhandlers() == before);

  // Still in use: get gives a new handle for the same object.
  const MPI_Errhandler h2 = user_handle(eh);
  CHECK(h2 != MPI_ERRHANDLER_NULL);
  CHECK(h2 != h);
  CHECK(lookup_errhandler(h2) == eh);
  free_user_handle(h2);
  CHECK(lookup_errhandler(h2) == nullptr);

  auto fatal = lookup_errhandler(MPI_ERRORS_ARE_FATAL);
  REQUIRE(fatal);
  CHECK(user_handle(fatal) == MPI_ERRORS_ARE_FATAL);
  CHECK(user_handle(lookup_errhandler(MPI_ERRORS_RETURN)) == MPI_ERRORS_RETURN);
  CHECK(user_handle(lookup_errhandler(MPI_ERRORS_ABORT)) == MPI_ERRORS_ABORT);
  free_user_handle(MPI_ERRORS_ARE_FATAL);  // ignored
  CHECK(lookup_errhandler(MPI_ERRORS_ARE_FATAL) == fatal);
}
