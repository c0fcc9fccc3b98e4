/* MPI_T events (MPI-4.0 §15.3.8): the three the runtime raises, their
 * source, registrations and callbacks per safety level, the readers inside
 * a callback, and bad indices and handles. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int rank, size;

struct seen {
  int calls;
  int64_t data[3];
  MPI_Count time;
  int source;
  int bad_read;
};

static void on_event(MPI_T_event_instance inst, MPI_T_event_registration reg, MPI_T_cb_safety safety, void* user) {
  (void)reg;
  struct seen* s = user;
  if (safety < MPI_T_CB_REQUIRE_MPI_RESTRICTED) s->bad_read = 1;
  ++s->calls;
  int64_t copy[3] = {0, 0, 0};
  if (MPI_T_event_copy(inst, copy) != MPI_SUCCESS) s->bad_read = 1;
  if (MPI_T_event_read(inst, 0, &s->data[0]) != MPI_SUCCESS) s->bad_read = 1;
  if (MPI_T_event_read(inst, 1, &s->data[1]) != MPI_SUCCESS) s->bad_read = 1;
  if (copy[0] != s->data[0] || copy[1] != s->data[1]) s->bad_read = 1;
  s->data[2] = copy[2];
  if (MPI_T_event_read(inst, 7, &s->data[2]) != MPI_T_ERR_INVALID_INDEX) s->bad_read = 1;
  if (MPI_T_event_get_timestamp(inst, &s->time) != MPI_SUCCESS) s->bad_read = 1;
  if (MPI_T_event_get_source(inst, &s->source) != MPI_SUCCESS) s->bad_read = 1;
}

static int never_calls;
static void never(MPI_T_event_instance inst, MPI_T_event_registration reg, MPI_T_cb_safety safety, void* user) {
  (void)inst, (void)reg, (void)safety, (void)user;
  ++never_calls;
}

static int freed;
static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety safety, void* user) {
  (void)reg, (void)safety;
  if (user == &freed) ++freed;
}

static MPI_T_event_registration reg_for(const char* name, struct seen* s, MPI_T_cb_safety level) {
  int index;
  CHECK_MPI(MPI_T_event_get_index(name, &index));
  MPI_T_event_registration reg;
  CHECK_MPI(MPI_T_event_handle_alloc(index, NULL, MPI_INFO_NULL, &reg));
  CHECK_MPI(MPI_T_event_register_callback(reg, level, MPI_INFO_NULL, s, on_event));
  return reg;
}

int main(int argc, char** argv) {
  int provided;
  CHECK(MPI_T_event_get_num(&provided) == MPI_T_ERR_NOT_INITIALIZED);
  CHECK_MPI(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* The catalogue. */
  int n;
  CHECK_MPI(MPI_T_event_get_num(&n));
  CHECK(n == 3);
  for (int i = 0; i < n; ++i) {
    char name[64], desc[256];
    int name_len = sizeof name, desc_len = sizeof desc, verbosity, bind, nel = 4;
    MPI_Datatype types[4];
    MPI_Aint displs[4];
    MPI_T_enum en;
    MPI_Info info;
    CHECK_MPI(MPI_T_event_get_info(i, name, &name_len, &verbosity, types, displs, &nel, &en, &info, desc, &desc_len,
                                   &bind));
    CHECK(!strncmp(name, "ringmpi_", 8) && (nel == 2 || nel == 3) && bind == MPI_T_BIND_NO_OBJECT);
    for (int k = 0; k < nel; ++k) CHECK(types[k] == MPI_INT64_T && displs[k] == 8 * k);
    CHECK_MPI(MPI_Info_free(&info));
    int back;
    CHECK_MPI(MPI_T_event_get_index(name, &back));
    CHECK(back == i);
  }
  CHECK(MPI_T_event_get_index("no_such_event", &n) == MPI_T_ERR_INVALID_NAME);
  CHECK(MPI_T_event_get_info(3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ==
        MPI_T_ERR_INVALID_INDEX);
  int ncat, total = 0;
  CHECK_MPI(MPI_T_category_get_num(&ncat));
  for (int c = 0; c < ncat; ++c) {
    int k, idx[4] = {-1, -1, -1, -1};
    CHECK_MPI(MPI_T_category_get_num_events(c, &k));
    CHECK_MPI(MPI_T_category_get_events(c, 4, idx));
    for (int j = 0; j < k; ++j) CHECK(idx[j] >= 0 && idx[j] < 3);
    total += k;
  }
  CHECK(total == 3);
  CHECK(MPI_T_category_get_num_events(ncat, &n) == MPI_T_ERR_INVALID_INDEX);
  /* The source. */
  CHECK_MPI(MPI_T_source_get_num(&n));
  CHECK(n == 1);
  MPI_T_source_order order;
  MPI_Count tps, maxt, t0, t1;
  CHECK_MPI(MPI_T_source_get_info(0, NULL, NULL, NULL, NULL, &order, &tps, &maxt, NULL));
  CHECK(order == MPI_T_SOURCE_ORDERED && tps == 1000000000);
  CHECK_MPI(MPI_T_source_get_timestamp(0, &t0));
  CHECK(MPI_T_source_get_timestamp(1, &t1) == MPI_T_ERR_INVALID_INDEX);

  /* A rendezvous: 1 MiB to the right neighbour. */
  struct seen rndv = {0}, attach = {0}, full = {0};
  MPI_T_event_registration r1 = reg_for("ringmpi_rndv_start", &rndv, MPI_T_CB_REQUIRE_MPI_RESTRICTED);
  MPI_T_event_registration r2 = reg_for("ringmpi_segment_attach", &attach, MPI_T_CB_REQUIRE_THREAD_SAFE);
  MPI_T_event_registration r3 = reg_for("ringmpi_ring_full", &full, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE);
  /* A callback that asks for no safety is never called here (README of the guide). */
  CHECK_MPI(MPI_T_event_register_callback(r1, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, never));
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  if (size > 1) {
    const int count = 1 << 18;
    int* buf = malloc(sizeof(int) * count);
    int* in = malloc(sizeof(int) * count);
    for (int i = 0; i < count; ++i) buf[i] = i;
    CHECK_MPI(MPI_Sendrecv(buf, count, MPI_INT, right, 0, in, count, MPI_INT, left, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK(rndv.calls >= 1 && !rndv.bad_read && rndv.data[0] == right && rndv.data[1] == (int64_t)count * 4);
    CHECK(rndv.time >= t0 && rndv.source == 0);
    /* Rank 0 floods rank 1, which stays out of MPI (so drains nothing) until
     * rank 0 has seen its ring fill and says, through a file, how many it sent. */
    char path[128];
    snprintf(path, sizeof path, "/tmp/ringmpi_tool_events_%d", (int)getppid());
    static char small[1024];
    if (rank == 0) {
      MPI_Request* reqs = malloc(sizeof(MPI_Request) * 100000);
      int k = 0;
      while (full.calls == 0 && k < 100000) CHECK_MPI(MPI_Isend(small, 1024, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &reqs[k++]));
      CHECK(full.calls >= 1 && !full.bad_read && full.data[0] == 1 && full.data[1] == 1024);
      char tmp[160];
      snprintf(tmp, sizeof tmp, "%s.tmp", path);
      FILE* f = fopen(tmp, "w");
      CHECK(f != NULL);
      fprintf(f, "%d\n", k);
      fclose(f);
      CHECK(rename(tmp, path) == 0);
      CHECK_MPI(MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE));
      free(reqs);
    } else if (rank == 1) {
      FILE* f = NULL;
      for (int tries = 0; !f && tries < 60000; ++tries) {  /* up to a minute */
        f = fopen(path, "r");
        if (!f) usleep(1000);
      }
      CHECK(f != NULL);
      int k = 0;
      CHECK(fscanf(f, "%d", &k) == 1 && k > 0);
      fclose(f);
      unlink(path);
      for (int i = 0; i < k; ++i) CHECK_MPI(MPI_Recv(small, 1024, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    free(buf);
    free(in);
    /* A new communicator's first blocking collective attaches its segment. */
    MPI_Comm c;
    CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &c));
    CHECK_MPI(MPI_Barrier(c));
    CHECK(attach.calls >= 1 && !attach.bad_read && attach.data[0] == size && attach.data[1] == size - 1);
    CHECK_MPI(MPI_Comm_free(&c));
  }
  CHECK(never_calls == 0);
  /* Instances are valid only inside their callback. */
  int64_t x;
  CHECK(MPI_T_event_read(12345, 0, &x) == MPI_T_ERR_INVALID_HANDLE);
  /* Infos of a registration and of a callback. */
  MPI_Info info, used;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "note", "kept"));
  CHECK_MPI(MPI_T_event_handle_set_info(r1, info));
  CHECK_MPI(MPI_T_event_handle_get_info(r1, &used));
  char v[16];
  int len = sizeof v, flag;
  CHECK_MPI(MPI_Info_get_string(used, "note", &len, v, &flag));
  CHECK(flag && !strcmp(v, "kept"));
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_T_event_callback_set_info(r1, MPI_T_CB_REQUIRE_MPI_RESTRICTED, info));
  CHECK_MPI(MPI_T_event_callback_get_info(r1, MPI_T_CB_REQUIRE_MPI_RESTRICTED, &used));
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Info_free(&info));
  /* Freeing: the free callback runs; the handle is dead afterwards. */
  CHECK_MPI(MPI_T_event_handle_free(r1, &freed, on_free));
  CHECK(freed == 1);
  CHECK(MPI_T_event_handle_free(r1, NULL, NULL) == MPI_T_ERR_INVALID_HANDLE);
  CHECK(MPI_T_event_register_callback(r1, MPI_T_CB_REQUIRE_NONE, MPI_INFO_NULL, NULL, never) ==
        MPI_T_ERR_INVALID_HANDLE);
  CHECK(MPI_T_event_handle_alloc(3, NULL, MPI_INFO_NULL, &r1) == MPI_T_ERR_INVALID_INDEX);
  CHECK_MPI(MPI_T_event_handle_free(r2, NULL, NULL));
  CHECK_MPI(MPI_T_event_handle_free(r3, NULL, NULL));
  /* With nothing registered, no callback runs. */
  const int before = rndv.calls;
  if (size > 1) {
    int* big = calloc(1 << 18, sizeof(int));
    CHECK_MPI(MPI_Sendrecv_replace(big, 1 << 18, MPI_INT, right, 2, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    free(big);
  }
  CHECK(rndv.calls == before);
  MPI_Finalize();
  CHECK_MPI(MPI_T_finalize());
  return 0;
}
