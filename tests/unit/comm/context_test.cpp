#include <doctest/doctest.h>

#include "comm/context.hpp"

using ringmpi::comm::ContextPool;
using ringmpi::comm::kFirstDynamic;

TEST_CASE("context ids come in pairs above the predefined ones") {
  CHECK(ContextPool::context_of(0) == kFirstDynamic);
  CHECK(ContextPool::context_of(5) == kFirstDynamic + 10);
  CHECK(ContextPool::slot_of(kFirstDynamic + 10) == 5);
  CHECK(ContextPool::slot_of(kFirstDynamic + 11) == 5);  // the collective id of the same pair
  CHECK(ContextPool::slot_of(0) == -1);                   // MPI_COMM_WORLD
  CHECK(ContextPool::slot_of(3) == -1);                   // MPI_COMM_SELF's collective id
  CHECK(ContextPool::slot_of(ContextPool::context_of(ContextPool::kSlots)) == -1);
}

TEST_CASE("the lowest slot free in every mask is chosen") {
  ContextPool a, b;
  a.claim(0);
  a.claim(1);
  b.claim(2);
  ContextPool::Mask m = a.mask();
  for (int i = 0; i < ContextPool::kWords; ++i) m[i] &= b.mask()[i];
  CHECK(ContextPool::lowest(m) == 3);
  ContextPool::Mask none{};
  CHECK(ContextPool::lowest(none) == -1);
  none[ContextPool::kWords - 1] = std::uint64_t{1} << 63;
  CHECK(ContextPool::lowest(none) == ContextPool::kSlots - 1);
}

TEST_CASE("freed slots are reused, so dup/free cycles never run out") {
  ContextPool p;
  for (int i = 0; i < 100000; ++i) {
    const int s = ContextPool::lowest(p.mask());
    REQUIRE(s == 0);
    p.claim(s);
    CHECK(!p.is_free(s));
    p.release(ContextPool::context_of(s));
  }
  CHECK(p.used() == 0);
}

TEST_CASE("a slot pinned by a pending operation is not offered after the free") {
  ContextPool p;
  p.claim(0);
  const std::uint32_t ctx = ContextPool::context_of(0);
  p.release(ctx);   // MPI_Comm_free while an MPI_Irecv on it is pending
  CHECK(p.is_free(0));
  CHECK(p.used() == 0);
  ContextPool::Mask busy{};
  busy[0] = 1;      // what busy_slots() says while p2p pins context_of(0)
  CHECK(ContextPool::lowest(p.mask(busy)) == 1);
  const ContextPool::Mask r = p.reserve(7, busy);
  CHECK((r[0] & 1) == 0);  // the pinned slot is never reserved
  p.unreserve(r);
  CHECK(ContextPool::lowest(p.mask()) == 0);  // the receive completed: offered again
  p.release(ctx);   // an extra release of a free slot changes nothing
  CHECK(p.used() == 0);
  p.release(0);     // predefined contexts are not pooled
  CHECK(p.used() == 0);
}

TEST_CASE("running out of slots is visible as an empty mask") {
  ContextPool p;
  for (int s = 0; s < ContextPool::kSlots; ++s) p.claim(s);
  CHECK(ContextPool::lowest(p.mask()) == -1);
  CHECK(p.used() == ContextPool::kSlots);
  p.release(ContextPool::context_of(77));
  CHECK(ContextPool::lowest(p.mask()) == 77);
}

TEST_CASE("slots reserved by a pending MPI_Comm_idup stay out of other creations' masks") {
  ContextPool p;
  p.claim(0);
  const ContextPool::Mask r = p.reserve(1);
  int reserved = 0;
  for (int w = 0; w < ContextPool::kWords; ++w) reserved += __builtin_popcountll(r[w]);
  CHECK(reserved == ContextPool::kIdupSlots);
  CHECK((r[0] & 1) == 0);  // slot 0 is taken
  // A blocking creation meanwhile offers neither the claimed nor the reserved slots.
  const ContextPool::Mask m = p.mask();
  for (int w = 0; w < ContextPool::kWords; ++w) CHECK((m[w] & r[w]) == 0);
  CHECK((m[0] & 1) == 0);
  // A second idup reserves other slots.
  const ContextPool::Mask r2 = p.reserve(2);
  for (int w = 0; w < ContextPool::kWords; ++w) CHECK((r[w] & r2[w]) == 0);
  // The first completes: hands its reservation back, claims its pick.
  const int pick = ContextPool::lowest(r);
  p.unreserve(r);
  p.claim(pick);
  CHECK(!p.is_free(pick));
  p.unreserve(r2);
  CHECK(ContextPool::lowest(p.mask()) == (pick == 1 ? 2 : 1));
}

TEST_CASE("two idups started in opposite orders in two processes still share slots") {
  // Process A reserves for call 1 then call 2, process B the other way
  // round (idups on different communicators are not ordered among
  // themselves); every call's two offers must have slots in common.
  ContextPool a, b;
  for (ContextPool* p : {&a, &b}) p->claim(3);
  b.claim(900);  // and the processes need not have the same slots free
  const ContextPool::Mask a1 = a.reserve(11), a2 = a.reserve(22);
  const ContextPool::Mask b2 = b.reserve(22), b1 = b.reserve(11);
  const auto common = [](const ContextPool::Mask& x, const ContextPool::Mask& y) {
    int n = 0;
    for (int w = 0; w < ContextPool::kWords; ++w) n += __builtin_popcountll(x[w] & y[w]);
    return n;
  };
  CHECK(common(a1, b1) > ContextPool::kIdupSlots / 2);
  CHECK(common(a2, b2) > ContextPool::kIdupSlots / 2);
  // The same key in the same state gives the same slots.
  ContextPool c;
  c.claim(3);
  CHECK(common(c.reserve(11), a1) == ContextPool::kIdupSlots);
}
