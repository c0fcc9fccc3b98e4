/* The caching example of MPI-3.1 §6.7.6 (seed §5.7.2): a collective library
 * routine keeps per-communicator state in an attribute, made on the first
 * call, shared by duplicates through a reference count, and freed by the
 * delete callback when the last communicator holding it goes. The process
 * exits 1 if any state is leaked or freed twice. */
#include <stdio.h>
#include <stdlib.h>

#include "../check.h"

static int gop_key = MPI_KEYVAL_INVALID; /* the module's key */

typedef struct {
  int ref_count;
  int calls; /* "whatever else we want": here, how often the op ran */
} gop_stuff_type;

static int allocated = 0, released = 0, copier_calls = 0, destructor_calls = 0, wrong_key = 0;

static int gop_stuff_destructor(MPI_Comm comm, int keyval, void *gop_stuff, void *extra) {
  (void)comm;
  (void)extra;
  gop_stuff_type *s = (gop_stuff_type *)gop_stuff;
  ++destructor_calls;
  if (keyval != gop_key) ++wrong_key;
  /* The communicator is being freed: drop its reference. */
  if (--s->ref_count == 0) {
    ++released;
    free(s);
  }
  return MPI_SUCCESS;
}

static int gop_stuff_copier(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
  (void)comm;
  (void)extra;
  gop_stuff_type *s = (gop_stuff_type *)in;
  ++copier_calls;
  if (keyval != gop_key) ++wrong_key;
  /* The new communicator shares the state: one more reference. */
  ++s->ref_count;
  *(void **)out = s;
  *flag = 1;
  return MPI_SUCCESS;
}

static gop_stuff_type *Efficient_Collective_Op(MPI_Comm comm) {
  gop_stuff_type *gop_stuff;
  int foundflag;
  if (gop_key == MPI_KEYVAL_INVALID) { /* get a key on the first call ever */
    if (MPI_Keyval_create(gop_stuff_copier, gop_stuff_destructor, &gop_key, (void *)0) != MPI_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, 99);
  }
  MPI_Attr_get(comm, gop_key, &gop_stuff, &foundflag);
  if (!foundflag) { /* nothing cached on this communicator yet */
    gop_stuff = (gop_stuff_type *)malloc(sizeof(gop_stuff_type));
    if (gop_stuff == NULL) MPI_Abort(MPI_COMM_WORLD, 98);
    ++allocated;
    gop_stuff->ref_count = 1;
    gop_stuff->calls = 0;
    MPI_Attr_put(comm, gop_key, gop_stuff);
  }
  ++gop_stuff->calls; /* then use *gop_stuff for the global operation */
  return gop_stuff;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  gop_stuff_type *w = Efficient_Collective_Op(MPI_COMM_WORLD);
  CHECK(allocated == 1 && w->ref_count == 1);
  CHECK(Efficient_Collective_Op(MPI_COMM_WORLD) == w); /* cached */
  CHECK(allocated == 1 && w->calls == 2);

  MPI_Comm lib_comm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &lib_comm));
  CHECK(copier_calls == 1 && w->ref_count == 2);
  CHECK(Efficient_Collective_Op(lib_comm) == w); /* shared with the duplicate */
  CHECK(allocated == 1 && w->calls == 3);
  CHECK_MPI(MPI_Comm_free(&lib_comm));
  CHECK(destructor_calls == 1 && w->ref_count == 1 && released == 0);

  gop_stuff_type *s = Efficient_Collective_Op(MPI_COMM_SELF); /* a new communicator: new state */
  CHECK(s != w && allocated == 2);

  /* The module's key may go now; the state lives until MPI_Finalize frees
   * WORLD's and SELF's attributes. */
  int key = gop_key;
  CHECK_MPI(MPI_Keyval_free(&key));
  CHECK(key == MPI_KEYVAL_INVALID);
  MPI_Finalize();

  if (released != allocated || destructor_calls != 3 || wrong_key != 0) {
    fprintf(stderr, "attr_gop: allocated %d, released %d, destructor ran %d times (want 3), wrong keyval %d\n",
            allocated, released, destructor_calls, wrong_key);
    return 1;
  }
  return 0;
}
