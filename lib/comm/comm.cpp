#include "comm/comm.hpp"

#include <cstdio>
#include <numeric>

#include "comm/numa.hpp"
#include "core/runtime.hpp"

namespace ringmpi::comm {

State::State() {
  auto put = [this](MPI_Errhandler h, Errhandler::Kind k) {
    errhandlers.put_predefined(core::handle_index(h),
                               std::make_unique<std::shared_ptr<const Errhandler>>(
                                   std::make_shared<const Errhandler>(Errhandler{k, nullptr})));
  };
  put(MPI_ERRORS_ARE_FATAL, Errhandler::Kind::fatal);
  put(MPI_ERRORS_RETURN, Errhandler::Kind::return_codes);
  put(MPI_ERRORS_ABORT, Errhandler::Kind::abort);
}

State::~State() = default;

State& make_state() {
  auto& p = core::rt().comms;
  if (!p) p = std::make_unique<State>();
  return *p;
}

MPI_Comm install(std::unique_ptr<Comm> c) {
  const std::uint32_t ctx = c->context;
  const MPI_Comm h = state().comms.add(std::move(c));
  if (h == MPI_COMM_NULL) state().contexts.release(ctx);
  return h;
}

void destroy(MPI_Comm h) {
  std::unique_ptr<Comm> c = state().comms.remove(h);
  if (c) state().contexts.release(c->context);
}

std::shared_ptr<const Errhandler> lookup_errhandler(MPI_Errhandler h) {
  auto* p = state().errhandlers.get(h);
  return p ? *p : nullptr;
}

void init_world(int rank, int size, int base) {
  State& s = state();
  std::vector<int> all(size);
  std::iota(all.begin(), all.end(), base);
  auto world = std::make_unique<Comm>();
  world->local = world->remote = group::Group::from_world_ranks(all);
  world->rank = rank;
  world->context = kWorldContext;
  world->errhandler = lookup_errhandler(MPI_ERRORS_ARE_FATAL);
  world->name = "MPI_COMM_WORLD";
  world->peer_world = all;
  s.comms.put_predefined(core::handle_index(MPI_COMM_WORLD), std::move(world));

  auto self = std::make_unique<Comm>();
  self->local = self->remote = group::Group::from_world_ranks({base + rank});
  self->rank = 0;
  self->context = kSelfContext;
  self->errhandler = lookup_errhandler(MPI_ERRORS_ARE_FATAL);
  self->name = "MPI_COMM_SELF";
  self->peer_world = {base + rank};
  s.comms.put_predefined(core::handle_index(MPI_COMM_SELF), std::move(self));
}

void finalize_hooks() {
  // MPI-3.1 §8.7.1: MPI_Finalize first frees MPI_COMM_SELF's attributes, in
  // the reverse order they were set, while MPI is still fully usable. WORLD's
  // follow (the order after SELF is up to the implementation), so tools that
  // cache "at exit" actions on either communicator get them run (MPICH does
  // the same).
  for (MPI_Comm h : {MPI_COMM_SELF, MPI_COMM_WORLD}) {
    Comm* c = lookup(h);
    if (!c) continue;
    int failed = 0;
    if (int e = core::delete_attributes_at_exit(core::AttrObject::comm, h, c->attrs, &failed))
      std::fprintf(stderr,
                   "ringmpi: rank %d: MPI_Finalize: the delete callback of keyval 0x%x on %s returned error "
                   "code %d; the attribute was dropped and MPI_Finalize goes on\n",
                   core::rt().rank, static_cast<unsigned>(failed), c->name.c_str(), e);
  }
}

}  // namespace ringmpi::comm
