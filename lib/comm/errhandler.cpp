#include "comm/errhandler.hpp"

#include "comm/comm.hpp"

namespace ringmpi::comm {
namespace {

MPI_Errhandler predefined_handle(Errhandler::Kind k) {
  switch (k) {
    case Errhandler::Kind::fatal:
      return MPI_ERRORS_ARE_FATAL;
    case Errhandler::Kind::return_codes:
      return MPI_ERRORS_RETURN;
    case Errhandler::Kind::abort:
      return MPI_ERRORS_ABORT;
    case Errhandler::Kind::user:
      break;
  }
  return MPI_ERRHANDLER_NULL;
}

MPI_Errhandler add_to_table(std::shared_ptr<const Errhandler> eh) {
  auto& table = state().errhandlers;
  const MPI_Errhandler h = table.add(std::make_unique<std::shared_ptr<const Errhandler>>(eh));
  if (h == table.null_handle()) return MPI_ERRHANDLER_NULL;
  eh->handle = h;
  eh->user_refs = 1;
  return h;
}

}  // namespace

MPI_Errhandler create_errhandler(MPI_Comm_errhandler_function* fn, Errhandler::For made_for) {
  auto eh = std::make_shared<Errhandler>();
  eh->kind = Errhandler::Kind::user;
  eh->fn = fn;
  eh->made_for = made_for;
  return add_to_table(std::move(eh));
}

MPI_Errhandler user_handle(const std::shared_ptr<const Errhandler>& eh) {
  if (eh->kind != Errhandler::Kind::user) return predefined_handle(eh->kind);
  // Still held by the user under its handle: one more reference to it.
  if (lookup_errhandler(eh->handle) == eh) {
    ++eh->user_refs;
    return eh->handle;
  }
  // Every handle was freed while communicators kept using it: a new one.
  return add_to_table(eh);
}

void free_user_handle(MPI_Errhandler h) {
  auto eh = lookup_errhandler(h);
  if (!eh || eh->kind != Errhandler::Kind::user) return;
  if (--eh->user_refs > 0) return;
  eh->handle = MPI_ERRHANDLER_NULL;
  state().errhandlers.remove(h);
}

int live_user_errhandlers() {
  int n = 0;
  state().errhandlers.for_each([&n](int, const std::shared_ptr<const Errhandler>& eh) {
    if (eh->kind == Errhandler::Kind::user) ++n;
  });
  return n;
}

}  // namespace ringmpi::comm
