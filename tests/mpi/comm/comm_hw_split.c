/* MPI_Comm_split_type with MPI_COMM_TYPE_HW_GUIDED, _HW_UNGUIDED and
 * _RESOURCE_GUIDED (MPI-4.0/4.1 §7.4.2), and MPI_Get_hw_resource_info. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static MPI_Comm guided(int type, const char* value) {
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  if (value) CHECK_MPI(MPI_Info_set(info, "mpi_hw_resource_type", value));
  MPI_Comm c;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, type, rank, info, &c));
  CHECK_MPI(MPI_Info_free(&info));
  return c;
}

/* The resource type a hardware split's communicator reports. */
static void check_type(MPI_Comm c, const char* want) {
  MPI_Info used;
  CHECK_MPI(MPI_Comm_get_info(c, &used));
  char v[MPI_MAX_INFO_VAL];
  int len = sizeof v, flag;
  CHECK_MPI(MPI_Info_get_string(used, "mpi_hw_resource_type", &len, v, &flag));
  CHECK(flag && (want == NULL || strcmp(v, want) == 0));
  CHECK_MPI(MPI_Info_free(&used));
}

/* The members of c agree on `value` (an int each). */
static void all_same(MPI_Comm c, int value) {
  int lo, hi;
  CHECK_MPI(MPI_Allreduce(&value, &lo, 1, MPI_INT, MPI_MIN, c));
  CHECK_MPI(MPI_Allreduce(&value, &hi, 1, MPI_INT, MPI_MAX, c));
  CHECK(lo == hi);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  /* What hwloc says about this process. */
  MPI_Info hw;
  CHECK_MPI(MPI_Get_hw_resource_info(&hw));
  char v[MPI_MAX_INFO_VAL];
  int len = sizeof v, flag;
  CHECK_MPI(MPI_Info_get_string(hw, "mpi_hw_resource_types", &len, v, &flag));
  CHECK(flag && strstr(v, "hwloc://Machine") == v && strstr(v, "hwloc://PU") != NULL);
  len = sizeof v;
  CHECK_MPI(MPI_Info_get_string(hw, "hwloc://Machine", &len, v, &flag));
  CHECK(flag && strcmp(v, "0/1") == 0);
  len = sizeof v;
  CHECK_MPI(MPI_Info_get_string(hw, "hwloc://Package", &len, v, &flag));
  CHECK(flag);
  CHECK_MPI(MPI_Info_free(&hw));

  /* The whole node shares memory: one communicator of everybody. */
  MPI_Comm c = guided(MPI_COMM_TYPE_HW_GUIDED, "mpi_shared_memory");
  int n;
  CHECK_MPI(MPI_Comm_size(c, &n));
  CHECK(n == size);
  check_type(c, "mpi_shared_memory");
  CHECK_MPI(MPI_Comm_free(&c));

  /* hwloc levels, with and without the prefix; the machine is one object. */
  const char* levels[] = {"hwloc://Machine", "Package", "hwloc://NUMANode", "hwloc://Core", "hwloc://PU"};
  for (int i = 0; i < 5; ++i) {
    c = guided(MPI_COMM_TYPE_HW_GUIDED, levels[i]);
    CHECK(c != MPI_COMM_NULL);
    CHECK_MPI(MPI_Comm_size(c, &n));
    CHECK(n >= 1 && n <= size);
    if (i == 0) CHECK(n == size);
    /* The synthetic-topology variant (meson.build) knows the package size. */
    const char* want = getenv("RINGMPI_TEST_PACKAGE_SIZE");
    if (i == 1 && want) CHECK(n == atoi(want));
    check_type(c, NULL);
    CHECK_MPI(MPI_Barrier(c));
    CHECK_MPI(MPI_Comm_free(&c));
  }
  /* RESOURCE_GUIDED (4.1) with the same values. */
  c = guided(MPI_COMM_TYPE_RESOURCE_GUIDED, "hwloc://Machine");
  CHECK_MPI(MPI_Comm_size(c, &n));
  CHECK(n == size);
  CHECK_MPI(MPI_Comm_free(&c));

  /* A type this machine does not have, or no key: MPI_COMM_NULL everywhere. */
  c = guided(MPI_COMM_TYPE_HW_GUIDED, "hwloc://Teapot");
  CHECK(c == MPI_COMM_NULL);
  c = guided(MPI_COMM_TYPE_HW_GUIDED, NULL);
  CHECK(c == MPI_COMM_NULL);

  /* UNGUIDED with an info object: the level chosen comes back in it too
   * (as MPICH does; mpi4py's testSplitTypeHWUnguided reads it there), the
   * same value as the new communicator's info reports. */
  {
    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    MPI_Comm u;
    CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_HW_UNGUIDED, rank, info, &u));
    char v[MPI_MAX_INFO_VAL];
    int len = sizeof v, flag;
    CHECK_MPI(MPI_Info_get_string(info, "mpi_hw_resource_type", &len, v, &flag));
    CHECK(flag == (u != MPI_COMM_NULL));
    if (u != MPI_COMM_NULL) {
      check_type(u, v);
      CHECK_MPI(MPI_Comm_free(&u));
    }
    CHECK_MPI(MPI_Info_free(&info));
  }

  /* UNGUIDED: each step a strict subset, all members agreeing on the level,
   * until no level splits the communicator any more. */
  MPI_Comm cur;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &cur));
  int steps = 0, cur_size = size;
  for (;;) {
    MPI_Comm next;
    CHECK_MPI(MPI_Comm_split_type(cur, MPI_COMM_TYPE_HW_UNGUIDED, 0, MPI_INFO_NULL, &next));
    /* Either everybody of cur gets one or nobody does. */
    all_same(cur, next == MPI_COMM_NULL);
    if (next == MPI_COMM_NULL) break;
    int next_size;
    CHECK_MPI(MPI_Comm_size(next, &next_size));
    CHECK(next_size < cur_size);
    check_type(next, NULL);
    CHECK_MPI(MPI_Comm_free(&cur));
    cur = next;
    cur_size = next_size;
    CHECK(++steps < 64);
  }
  if (size == 1) CHECK(steps == 0);
  const char* want_steps = getenv("RINGMPI_TEST_UNGUIDED_STEPS");
  if (want_steps) CHECK(steps == atoi(want_steps));
  CHECK_MPI(MPI_Comm_free(&cur));
  MPI_Finalize();
  return 0;
}
