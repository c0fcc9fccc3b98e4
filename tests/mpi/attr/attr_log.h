/* A log of attribute callbacks for the caching tests: every copy and delete
 * callback appends what it was called with, so tests can check how often
 * each ran and with which arguments. */
#ifndef RINGMPI_TEST_ATTR_LOG_H
#define RINGMPI_TEST_ATTR_LOG_H
#include <mpi.h>
#include <string.h>

typedef struct {
  char what; /* 'c' copy, 'd' delete */
  int obj;   /* communicator or datatype handle */
  int keyval;
  void *value;
  void *extra;
} log_entry;

static log_entry log_calls[256];
static int log_n = 0;

static void log_clear(void) { log_n = 0; }

static void log_add(char what, int obj, int keyval, void *value, void *extra) {
  if (log_n < 256) {
    log_entry e = {what, obj, keyval, value, extra};
    log_calls[log_n] = e;
  }
  ++log_n;
}

/* How many calls of kind `what` for keyval k. */
static int log_count(char what, int k) {
  int n = 0;
  for (int i = 0; i < log_n && i < 256; ++i)
    if (log_calls[i].what == what && log_calls[i].keyval == k) ++n;
  return n;
}

/* The last call of kind `what` for keyval k, or NULL. */
static const log_entry *log_last(char what, int k) {
  for (int i = (log_n < 256 ? log_n : 256) - 1; i >= 0; --i)
    if (log_calls[i].what == what && log_calls[i].keyval == k) return &log_calls[i];
  return NULL;
}

/* extra_state of the counting callbacks: how they behave. */
typedef struct {
  int copy_flag;    /* what the copy callback answers */
  void *copy_value; /* the value it gives the duplicate (NULL: the same) */
  int fail_with;    /* nonzero: both callbacks return this */
} behaviour;

static int counting_copy(int oldobj, int keyval, void *extra, void *in, void *out, int *flag) {
  behaviour *b = (behaviour *)extra;
  log_add('c', oldobj, keyval, in, extra);
  if (b && b->fail_with) return b->fail_with;
  *(void **)out = (b && b->copy_value) ? b->copy_value : in;
  *flag = b ? b->copy_flag : 1;
  return MPI_SUCCESS;
}

static int counting_delete(int obj, int keyval, void *value, void *extra) {
  behaviour *b = (behaviour *)extra;
  log_add('d', obj, keyval, value, extra);
  return (b && b->fail_with) ? b->fail_with : MPI_SUCCESS;
}

#endif
