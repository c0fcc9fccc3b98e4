// Matching order (MPI-3.1 §3.5): the earliest posted receive that matches
// an arriving message, the earliest message that matches a new receive,
// with MPI_ANY_SOURCE / MPI_ANY_TAG mixed in; and the request handle pool.
#include <doctest/doctest.h>

#include <vector>

#include "p2p/match.hpp"
#include "p2p/request.hpp"

using namespace ringmpi::p2p;

namespace {

Request recv_for(int src, int tag) {
  Request r;
  r.kind = Kind::recv;
  r.peer = src;
  r.tag = tag;
  return r;
}

UnexpectedPtr message(int src, int tag, std::size_t bytes = 0) {
  UnexpectedPtr u = make_unexpected(bytes);
  u->src = src;
  u->tag = tag;
  u->bytes = bytes;
  return u;
}

}  // namespace

TEST_CASE("posted receives: an arriving message takes the earliest one it matches") {
  Context c;
  Request a = recv_for(MPI_ANY_SOURCE, 5), b = recv_for(1, MPI_ANY_TAG), d = recv_for(1, 5), e = recv_for(2, 7);
  c.post(&a);
  c.post(&b);
  c.post(&d);
  c.post(&e);
  CHECK(c.take_posted(1, 5) == &a);  // ANY_SOURCE was posted first
  CHECK(c.take_posted(1, 5) == &b);  // then source 1 with ANY_TAG
  CHECK(c.take_posted(1, 5) == &d);
  CHECK(c.take_posted(1, 5) == nullptr);
  CHECK(c.take_posted(2, 8) == nullptr);  // wrong tag
  CHECK(c.take_posted(3, 7) == nullptr);  // wrong source
  CHECK(c.take_posted(2, 7) == &e);
  Request f = recv_for(4, 1);
  c.post(&f);
  c.unpost(&f);  // a cancelled receive no longer matches
  CHECK(c.take_posted(4, 1) == nullptr);
}

TEST_CASE("unexpected messages: a receive takes the earliest matching one, in arrival order per source") {
  Context c;
  c.add_unexpected(message(2, 1));
  c.add_unexpected(message(1, 1));
  c.add_unexpected(message(1, 2));
  c.add_unexpected(message(2, 2));
  c.add_unexpected(message(1, 1, 8));
  CHECK(c.unexpected_count() == 5);

  Unexpected* u = c.find_unexpected(MPI_ANY_SOURCE, MPI_ANY_TAG);
  REQUIRE(u);
  CHECK((u->src == 2 && u->tag == 1));
  c.take_unexpected(u);

  u = c.find_unexpected(1, 2);  // skips the earlier (1,1) with another tag
  REQUIRE(u);
  CHECK(u->tag == 2);
  c.take_unexpected(u);

  u = c.find_unexpected(MPI_ANY_SOURCE, 1);
  REQUIRE(u);
  CHECK((u->src == 1 && u->bytes == 0));  // the first (1,1), not the later 8-byte one
  c.take_unexpected(u);

  CHECK(c.find_unexpected(3, MPI_ANY_TAG) == nullptr);
  u = c.find_unexpected(MPI_ANY_SOURCE, MPI_ANY_TAG);
  REQUIRE(u);
  CHECK((u->src == 2 && u->tag == 2));
  c.take_unexpected(u);
  u = c.find_unexpected(1, MPI_ANY_TAG);
  REQUIRE(u);
  CHECK(u->bytes == 8);
  c.take_unexpected(u);
  CHECK(c.unexpected_count() == 0);
}

TEST_CASE("request pool: handles decode until released, then never again; the shared completed send") {
  RequestPool pool;
  Request* r = pool.alloc();
  REQUIRE(r);
  const MPI_Request h = pool.handle(r);
  CHECK(pool.get(h) == r);
  CHECK(h != MPI_REQUEST_NULL);
  CHECK(pool.get(MPI_REQUEST_NULL) == nullptr);
  CHECK(pool.get(MPI_COMM_WORLD) == nullptr);  // wrong kind
  CHECK(pool.get(12345) == nullptr);           // garbage
  pool.release(r);
  CHECK(pool.get(h) == nullptr);
  Request* again = pool.alloc();
  CHECK(again == r);  // the slot is reused...
  CHECK(pool.handle(again) != h);  // ...under a new generation
  CHECK(pool.get(h) == nullptr);

  const MPI_Request done = pool.handle(pool.shared_done());
  CHECK(pool.get(done) == pool.shared_done());
  CHECK(pool.shared_done()->complete);
  pool.release(pool.shared_done());  // never goes away
  CHECK(pool.get(done) == pool.shared_done());

  std::vector<Request*> many;
  for (int i = 0; i < 10000; ++i) many.push_back(pool.alloc());
  CHECK(pool.live() == 10001);
  for (Request* x : many) pool.release(x);
  CHECK(pool.live() == 1);
}
