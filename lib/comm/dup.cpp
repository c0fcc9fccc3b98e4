// MPI_Comm_dup: the same groups and everything cached, a new context; one
// round (the masks only) on the parent, intra- or intercommunicator.
#include "comm/peers.hpp"
#include "comm/round.hpp"
#include "core/attributes.hpp"

namespace ringmpi::comm {

Made dup(MPI_Comm parent_handle, const Comm& parent, SegmentOffer* seg) {
  const exchange::Peers p = peers_of(parent);
  Entry mine;
  if (seg && !parent.inter) mine.segment = seg->offer;
  Round r = run_round(p, mine);
  if (!parent.inter) take_offer(seg, r, p, 0, parent.size());  // entries in rank order
  return dup_on(parent_handle, parent, r.mask);
}

Made private_dup(MPI_Comm parent_handle, std::shared_ptr<const Errhandler> errhandler) {
  Comm bare = *lookup(parent_handle);
  bare.attrs = core::AttributeSet{};
  Made m = dup(parent_handle, bare);
  if (Comm* c = made_comm(m)) c->errhandler = std::move(errhandler);
  return m;
}

Made dup_on(MPI_Comm parent_handle, const Comm& parent, const ContextPool::Mask& agreed) {
  Made out;
  int slot;
  if (pick_slot(agreed, &slot, &out)) return out;
  // Copying the whole object carries whatever later layers cache in it
  // (topology); the name is not inherited (MPI-3.1 §6.8) and attributes
  // follow their copy callbacks.
  auto c = std::make_unique<Comm>(parent);
  c->context = ContextPool::context_of(slot);
  c->name.clear();
  c->schedule_seq = 0;  // the parent's count may differ between ranks by now (MPI_Comm_idup)
  c->attrs = core::AttributeSet{};
  if (int e = core::copy_attributes(core::AttrObject::comm, parent_handle, parent.attrs, c->attrs))
    return Made{e, "an attribute copy callback failed (returned " + std::to_string(e) + "), so no duplicate was made",
                MPI_COMM_NULL};
  return finish(std::move(c));
}

}  // namespace ringmpi::comm
