// Attribute sets and their callbacks: which callback runs, how often, with
// which arguments, and what a failing callback leaves behind.
#include <doctest/doctest.h>

#include <vector>

#include "core/attributes.hpp"
#include "mpi.h"

using namespace ringmpi::core;

namespace {

struct Call {
  char what;  // 'c' copy, 'd' delete
  int obj, keyval;
  void* extra;
  void* value;
};

struct Log {
  std::vector<Call> calls;
  int fail_with = MPI_SUCCESS;  // a callback returns this
  int copy_flag = 1;
  void* copy_out = nullptr;  // nullptr: copy the value as is
  int free_keyval_inside = 0;  // a delete callback frees this keyval
};

int copy_cb(int obj, int k, void* extra, void* in, void* out, int* flag) {
  auto* log = static_cast<Log*>(extra);
  log->calls.push_back({'c', obj, k, extra, in});
  if (log->fail_with != MPI_SUCCESS) return log->fail_with;
  *static_cast<void**>(out) = log->copy_out ? log->copy_out : in;
  *flag = log->copy_flag;
  return MPI_SUCCESS;
}

int delete_cb(int obj, int k, void* value, void* extra) {
  auto* log = static_cast<Log*>(extra);
  log->calls.push_back({'d', obj, k, extra, value});
  if (log->free_keyval_inside) free_keyval(log->free_keyval_inside);
  return log->fail_with;
}

int keyval(AttrObject o, Log& log) {
  int k = MPI_KEYVAL_INVALID;
  REQUIRE(create_keyval(o, copy_cb, delete_cb, &log, &k) == MPI_SUCCESS);
  return k;
}

}  // namespace

TEST_CASE("set, get and delete run the delete callback once, with the value and extra_state") {
  Log log;
  const int k = keyval(AttrObject::comm, log);
  AttributeSet set;
  int a = 1, b = 2;
  void* v = nullptr;
  CHECK_FALSE(get_attribute(AttrObject::comm, 7, set, k, &v));
  REQUIRE(set_attribute(AttrObject::comm, 7, set, k, &a) == MPI_SUCCESS);
  CHECK(log.calls.empty());
  REQUIRE(get_attribute(AttrObject::comm, 7, set, k, &v));
  CHECK(v == &a);

  // Overwriting deletes the old value first.
  REQUIRE(set_attribute(AttrObject::comm, 7, set, k, &b) == MPI_SUCCESS);
  REQUIRE(log.calls.size() == 1);
  CHECK(log.calls[0].what == 'd');
  CHECK(log.calls[0].obj == 7);
  CHECK(log.calls[0].keyval == k);
  CHECK(log.calls[0].value == &a);
  CHECK(log.calls[0].extra == &log);
  REQUIRE(get_attribute(AttrObject::comm, 7, set, k, &v));
  CHECK(v == &b);

  REQUIRE(delete_attribute(AttrObject::comm, 7, set, k) == MPI_SUCCESS);
  REQUIRE(log.calls.size() == 2);
  CHECK(log.calls[1].value == &b);
  CHECK_FALSE(get_attribute(AttrObject::comm, 7, set, k, &v));
  // Deleting what is not there calls nothing.
  REQUIRE(delete_attribute(AttrObject::comm, 7, set, k) == MPI_SUCCESS);
  CHECK(log.calls.size() == 2);
  free_keyval(k);
}

TEST_CASE("a failing delete callback keeps the value and returns its code") {
  Log log;
  const int k = keyval(AttrObject::datatype, log);
  AttributeSet set;
  int a = 1, b = 2;
  REQUIRE(set_attribute(AttrObject::datatype, 3, set, k, &a) == MPI_SUCCESS);
  log.fail_with = MPI_ERR_OTHER + 1000;
  CHECK(set_attribute(AttrObject::datatype, 3, set, k, &b) == MPI_ERR_OTHER + 1000);
  CHECK(delete_attribute(AttrObject::datatype, 3, set, k) == MPI_ERR_OTHER + 1000);
  void* v = nullptr;
  REQUIRE(get_attribute(AttrObject::datatype, 3, set, k, &v));
  CHECK(v == &a);
  CHECK(delete_attributes(AttrObject::datatype, 3, set) == MPI_ERR_OTHER + 1000);
  CHECK(set.entries.size() == 1);
  log.fail_with = MPI_SUCCESS;
  CHECK(delete_attributes(AttrObject::datatype, 3, set) == MPI_SUCCESS);
  CHECK(set.entries.empty());
  CHECK(log.calls.size() == 4);
  free_keyval(k);
}

TEST_CASE("copy callbacks decide what a duplicate gets") {
  Log copied, dropped, other;
  const int k1 = keyval(AttrObject::comm, copied);
  const int k2 = keyval(AttrObject::comm, dropped);
  int k3 = MPI_KEYVAL_INVALID, k4 = MPI_KEYVAL_INVALID, k5 = MPI_KEYVAL_INVALID;
  REQUIRE(create_keyval(AttrObject::comm, rmpi_comm_dup_fn, nullptr, nullptr, &k3) == MPI_SUCCESS);
  REQUIRE(create_keyval(AttrObject::comm, rmpi_comm_null_copy_fn, nullptr, nullptr, &k4) == MPI_SUCCESS);
  REQUIRE(create_keyval(AttrObject::comm, nullptr, nullptr, nullptr, &k5) == MPI_SUCCESS);
  dropped.copy_flag = 0;
  int a = 1, b = 2, c = 3, d = 4, e = 5, replaced = 6;
  copied.copy_out = &replaced;
  AttributeSet from, to;
  REQUIRE(set_attribute(AttrObject::comm, 20, from, k1, &a) == MPI_SUCCESS);
  REQUIRE(set_attribute(AttrObject::comm, 20, from, k2, &b) == MPI_SUCCESS);
  REQUIRE(set_attribute(AttrObject::comm, 20, from, k3, &c) == MPI_SUCCESS);
  REQUIRE(set_attribute(AttrObject::comm, 20, from, k4, &d) == MPI_SUCCESS);
  REQUIRE(set_attribute(AttrObject::comm, 20, from, k5, &e) == MPI_SUCCESS);
  REQUIRE(copy_attributes(AttrObject::comm, 20, from, to) == MPI_SUCCESS);
  REQUIRE(copied.calls.size() == 1);
  CHECK(copied.calls[0].obj == 20);
  CHECK(copied.calls[0].keyval == k1);
  CHECK(copied.calls[0].value == &a);
  CHECK(dropped.calls.size() == 1);
  void* v = nullptr;
  REQUIRE(get_attribute(AttrObject::comm, 21, to, k1, &v));
  CHECK(v == &replaced);
  CHECK_FALSE(get_attribute(AttrObject::comm, 21, to, k2, &v));
  REQUIRE(get_attribute(AttrObject::comm, 21, to, k3, &v));
  CHECK(v == &c);
  CHECK_FALSE(get_attribute(AttrObject::comm, 21, to, k4, &v));
  CHECK_FALSE(get_attribute(AttrObject::comm, 21, to, k5, &v));
  CHECK(to.entries.size() == 2);

  // Freeing the duplicate deletes its own values only, with its handle.
  REQUIRE(delete_attributes(AttrObject::comm, 21, to) == MPI_SUCCESS);
  REQUIRE(copied.calls.size() == 2);
  CHECK(copied.calls[1].what == 'd');
  CHECK(copied.calls[1].obj == 21);
  CHECK(copied.calls[1].value == &replaced);
  CHECK(dropped.calls.size() == 1);
  REQUIRE(delete_attributes(AttrObject::comm, 20, from) == MPI_SUCCESS);
  CHECK(dropped.calls.size() == 2);
  for (int k : {k1, k2, k3, k4, k5}) free_keyval(k);
  (void)other;
}

TEST_CASE("a failing copy callback fails the copy and leaves the duplicate empty") {
  Log good, bad;
  const int before = live_keyvals();
  const int k1 = keyval(AttrObject::comm, good);
  const int k2 = keyval(AttrObject::comm, bad);
  int a = 1, b = 2;
  AttributeSet from, to;
  REQUIRE(set_attribute(AttrObject::comm, 30, from, k1, &a) == MPI_SUCCESS);
  REQUIRE(set_attribute(AttrObject::comm, 30, from, k2, &b) == MPI_SUCCESS);
  bad.fail_with = 4242;
  CHECK(copy_attributes(AttrObject::comm, 30, from, to) == 4242);
  CHECK(to.entries.empty());
  CHECK(good.calls.size() == 1);  // copied, then rolled back without a delete call
  bad.fail_with = MPI_SUCCESS;
  free_keyval(k1);
  free_keyval(k2);
  REQUIRE(delete_attributes(AttrObject::comm, 30, from) == MPI_SUCCESS);
  // No use leaked by the rollback: both keyvals are gone now.
  CHECK(live_keyvals() == before);
}

TEST_CASE("freeing deletes the most recently set attribute first") {
  std::vector<int> order;
  Log l1, l2, l3;
  const int k1 = keyval(AttrObject::comm, l1);
  const int k2 = keyval(AttrObject::comm, l2);
  const int k3 = keyval(AttrObject::comm, l3);
  AttributeSet set;
  int x = 0;
  REQUIRE(set_attribute(AttrObject::comm, 40, set, k1, &x) == MPI_SUCCESS);
  REQUIRE(set_attribute(AttrObject::comm, 40, set, k2, &x) == MPI_SUCCESS);
  REQUIRE(set_attribute(AttrObject::comm, 40, set, k3, &x) == MPI_SUCCESS);
  REQUIRE(set_attribute(AttrObject::comm, 40, set, k1, &x) == MPI_SUCCESS);  // set again: now the latest
  l1.calls.clear();
  REQUIRE(set.entries.size() == 3);
  CHECK(set.entries[0].first == k2);
  CHECK(set.entries[1].first == k3);
  CHECK(set.entries[2].first == k1);

  // A failing callback in the middle stops the free with its code.
  l3.fail_with = 99;
  CHECK(delete_attributes(AttrObject::comm, 40, set) == 99);
  CHECK(l1.calls.size() == 1);
  CHECK(l3.calls.size() == 1);
  CHECK(l2.calls.empty());
  CHECK(set.entries.size() == 2);

  // At exit it goes on past failures and empties the set.
  int failed = 0;
  CHECK(delete_attributes_at_exit(AttrObject::comm, 40, set, &failed) == 99);
  CHECK(failed == k3);
  CHECK(set.entries.empty());
  CHECK(l2.calls.size() == 1);
  for (int k : {k1, k2, k3}) free_keyval(k);
}

TEST_CASE("a delete callback may free its own keyval") {
  Log log;
  const int before = live_keyvals();
  const int k = keyval(AttrObject::comm, log);
  log.free_keyval_inside = k;
  AttributeSet set;
  int x = 0;
  REQUIRE(set_attribute(AttrObject::comm, 50, set, k, &x) == MPI_SUCCESS);
  REQUIRE(delete_attribute(AttrObject::comm, 50, set, k) == MPI_SUCCESS);
  CHECK(log.calls.size() == 1);
  CHECK(set.entries.empty());
  CHECK(find_keyval(k) == nullptr);
  CHECK(live_keyvals() == before);
}
