/* Group accessors and life cycle (MPI-3.1 §5.3.1, §5.3.3): MPI_Comm_group,
 * MPI_Group_size/rank/translate_ranks/compare, MPI_GROUP_EMPTY, and
 * MPI_Group_free with groups still used by communicators. */
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  MPI_Group world, world2, self;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world2));
  CHECK_MPI(MPI_Comm_group(MPI_COMM_SELF, &self));
  CHECK(world != MPI_GROUP_NULL && world != MPI_GROUP_EMPTY);
  int n = -1, r = -1, res = -1;
  CHECK_MPI(MPI_Group_size(world, &n));
  CHECK(n == size);
  CHECK_MPI(MPI_Group_rank(world, &r));
  CHECK(r == rank);
  CHECK_MPI(MPI_Group_size(self, &n));
  CHECK(n == 1);
  CHECK_MPI(MPI_Group_rank(self, &r));
  CHECK(r == 0);
  CHECK_MPI(MPI_Group_compare(world, world, &res));
  CHECK(res == MPI_IDENT);
  CHECK_MPI(MPI_Group_compare(world, world2, &res));
  CHECK(res == MPI_IDENT);
  CHECK_MPI(MPI_Group_compare(world, self, &res));
  CHECK(res == (size == 1 ? MPI_IDENT : MPI_UNEQUAL));

  /* MPI_GROUP_EMPTY: size 0, nobody is a member, IDENT to itself and to any
   * empty result; freeing it is accepted and leaves MPI_GROUP_NULL. */
  CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n));
  CHECK(n == 0);
  CHECK_MPI(MPI_Group_rank(MPI_GROUP_EMPTY, &r));
  CHECK(r == MPI_UNDEFINED);
  MPI_Group none;
  CHECK_MPI(MPI_Group_difference(world, world, &none));
  CHECK(none == MPI_GROUP_EMPTY);
  CHECK_MPI(MPI_Group_compare(none, MPI_GROUP_EMPTY, &res));
  CHECK(res == MPI_IDENT);
  CHECK_MPI(MPI_Group_free(&none));
  CHECK(none == MPI_GROUP_NULL);
  CHECK_MPI(MPI_Group_size(MPI_GROUP_EMPTY, &n)); /* still there */
  CHECK(n == 0);

  /* Reversed world: SIMILAR to world; translate_ranks both ways, with
   * MPI_PROC_NULL passing through and absent ranks MPI_UNDEFINED. */
  int ranges[1][3] = {{size - 1, 0, -1}};
  MPI_Group rev;
  CHECK_MPI(MPI_Group_range_incl(world, 1, ranges, &rev));
  CHECK_MPI(MPI_Group_rank(rev, &r));
  CHECK(r == size - 1 - rank);
  CHECK_MPI(MPI_Group_compare(world, rev, &res));
  CHECK(res == (size == 1 ? MPI_IDENT : MPI_SIMILAR));
  int *in = malloc(sizeof(int) * (size + 1)), *out = malloc(sizeof(int) * (size + 1));
  for (int i = 0; i < size; ++i) in[i] = i;
  in[size] = MPI_PROC_NULL;
  CHECK_MPI(MPI_Group_translate_ranks(world, size + 1, in, rev, out));
  for (int i = 0; i < size; ++i) CHECK(out[i] == size - 1 - i);
  CHECK(out[size] == MPI_PROC_NULL);
  CHECK_MPI(MPI_Group_translate_ranks(world, size, in, self, out));
  for (int i = 0; i < size; ++i) CHECK(out[i] == (i == rank ? 0 : MPI_UNDEFINED));
  CHECK_MPI(MPI_Group_translate_ranks(world, 0, NULL, self, NULL)); /* n = 0 */
  CHECK_MPI(MPI_Group_translate_ranks(MPI_GROUP_EMPTY, 1, &in[size], world, out));
  CHECK(out[0] == MPI_PROC_NULL);

  /* A group freed while a communicator built from it lives: the
   * communicator keeps working, and its group compares IDENT to a rebuilt
   * copy (reference counting). */
  MPI_Group odd_first;
  int oranges[2][3] = {{1, size - 1, 2}, {0, size - 1, 2}};
  CHECK_MPI(MPI_Group_range_incl(world, size > 1 ? 2 : 1, size > 1 ? oranges : oranges + 1, &odd_first));
  MPI_Comm c;
  CHECK_MPI(MPI_Comm_create(MPI_COMM_WORLD, odd_first, &c));
  CHECK_MPI(MPI_Group_free(&odd_first));
  CHECK(odd_first == MPI_GROUP_NULL);
  CHECK(c != MPI_COMM_NULL);
  int crank;
  CHECK_MPI(MPI_Comm_rank(c, &crank));
  CHECK(crank == (rank % 2 ? rank / 2 : (size / 2) + rank / 2));
  MPI_Group cg, again;
  CHECK_MPI(MPI_Comm_group(c, &cg));
  CHECK_MPI(MPI_Group_range_incl(world, size > 1 ? 2 : 1, size > 1 ? oranges : oranges + 1, &again));
  CHECK_MPI(MPI_Group_compare(cg, again, &res));
  CHECK(res == MPI_IDENT);
  CHECK_MPI(MPI_Comm_free(&c));
  CHECK_MPI(MPI_Group_rank(cg, &r)); /* outlives the communicator too */
  CHECK(r == crank);

  /* The group of a communicator does not change when handles are freed. */
  CHECK_MPI(MPI_Group_free(&world2));
  CHECK_MPI(MPI_Group_free(&world));
  CHECK(world == MPI_GROUP_NULL);
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world));
  CHECK_MPI(MPI_Group_size(world, &n));
  CHECK(n == size);

  MPI_Group *all[] = {&world, &self, &rev, &cg, &again};
  for (int i = 0; i < 5; ++i) CHECK_MPI(MPI_Group_free(all[i]));
  free(in);
  free(out);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
