/* mpi_f08's choice buffers that are non-contiguous array sections
 * (a(1, :), a(1:n:2)): MPI-4.1 §19.1.12 lets TYPE(*), DIMENSION(..) take
 * them. Where the call describes the buffer by (count, datatype) and each
 * array element is one datatype item, the section is passed in place
 * through a derived datatype listing the elements' addresses: no copy, so
 * nonblocking calls work too. Otherwise a blocking call gets a contiguous
 * copy (copied back if it writes the buffer); a nonblocking one is refused. */
#include <stdio.h>
#include <string.h>

#include "glue.h"

/* Reports an error raised before the C call: under MPI_ERRORS_RETURN on
 * MPI_COMM_WORLD the code goes to ierror, otherwise the job ends with the
 * one-line message, as the library's own errors do. */
static int refuse(int code, const char *call, const char *what, MPI_Fint *ierror) {
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  int rank = 0;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int returns = eh == MPI_ERRORS_RETURN;
  if (eh != MPI_ERRHANDLER_NULL) MPI_Errhandler_free(&eh);
  if (!returns) {
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(code, text, &len);
    fprintf(stderr, "ringmpi: rank %d: %s: %s (%s): argument %s\n", rank, call, text,
            code == MPI_ERR_COUNT ? "MPI_ERR_COUNT" : code == MPI_ERR_NO_MEM ? "MPI_ERR_NO_MEM"
                                                                            : "MPI_ERR_UNSUPPORTED_OPERATION",
            what);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  *ierror = code;
  return code;
}

static CFI_index_t elements_of(const CFI_cdesc_t *d) {
  CFI_index_t n = 1;
  for (int i = 0; i < d->rank; i++) n *= d->dim[i].extent;
  return n;
}

/* Calls f(element address, k) for the section's elements in array order. */
#define FOR_ELEMENTS(d, n, body)                                                       \
  do {                                                                                 \
    CFI_index_t idx_[CFI_MAX_RANK] = {0};                                              \
    for (CFI_index_t k = 0; k < (n); k++) {                                            \
      char *elem = (char *)(d)->base_addr;                                             \
      for (int i_ = 0; i_ < (d)->rank; i_++) elem += idx_[i_] * (d)->dim[i_].sm;       \
      body;                                                                            \
      for (int i_ = 0; i_ < (d)->rank; i_++) {                                         \
        if (++idx_[i_] < (d)->dim[i_].extent) break;                                   \
        idx_[i_] = 0;                                                                  \
      }                                                                                \
    }                                                                                  \
  } while (0)

int rmpi_f08_copy_in(struct rmpi_f08_section *s, const CFI_cdesc_t *d, const char *call, const char *arg,
                     MPI_Fint *ierror) {
  const CFI_index_t n = elements_of(d);
  char *copy = malloc((size_t)n * d->elem_len + 1);
  if (copy == NULL) return refuse(MPI_ERR_NO_MEM, call, arg, ierror);
  FOR_ELEMENTS(d, n, memcpy(copy + (size_t)k * d->elem_len, elem, d->elem_len));
  s->copy = copy;
  s->addr = copy;
  return 0;
}

/* The section's elements as one item of a datatype made for it. count is
 * the call's, an int or an MPI_Count. */
static int section(struct rmpi_f08_section *s, const CFI_cdesc_t *d, MPI_Count count, const void *datatype_p,
                   int blocking, const char *call, const char *arg, MPI_Fint *ierror) {
  const MPI_Fint *datatype = datatype_p;
  char what[256];
  s->made = 0;
  s->copy = NULL;
  s->addr = d->base_addr;
  s->count = (MPI_Fint)count;
  s->count_c = count;
  s->type = *datatype;
  MPI_Aint lb = 0, extent = 0;
  if (count <= 0 || MPI_Type_get_extent(*datatype, &lb, &extent) != MPI_SUCCESS)
    return 0; /* nothing is accessed, or the C call reports the datatype */
  const CFI_index_t elements = elements_of(d);
  if ((lb != 0 || extent != (MPI_Aint)d->elem_len) && blocking) return rmpi_f08_copy_in(s, d, call, arg, ierror);
  if (lb != 0 || extent != (MPI_Aint)d->elem_len) {
    snprintf(what, sizeof what,
             "%s: a non-contiguous array section needs a datatype of one array element "
             "(element %zu bytes, datatype extent %ld)",
             arg, d->elem_len, (long)extent);
    return refuse(MPI_ERR_UNSUPPORTED_OPERATION, call, what, ierror);
  }
  if ((CFI_index_t)count > elements) {
    snprintf(what, sizeof what, "%s: count %lld is more than the %ld elements of the array section", arg,
             (long long)count, (long)elements);
    return refuse(MPI_ERR_COUNT, call, what, ierror);
  }
  /* The byte offsets of the first count elements, in array element order
   * (the _c constructor: a large count may exceed an int). */
  MPI_Count *displs = malloc(sizeof *displs * (size_t)count);
  if (displs == NULL) return refuse(MPI_ERR_NO_MEM, call, "no memory for the section's datatype", ierror);
  FOR_ELEMENTS(d, (CFI_index_t)count, displs[k] = (MPI_Count)(elem - (char *)d->base_addr));
  MPI_Datatype t = MPI_DATATYPE_NULL;
  int rc = MPI_Type_create_hindexed_block_c(count, 1, displs, *datatype, &t);
  free(displs);
  if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&t);
  if (rc != MPI_SUCCESS) return refuse(rc, call, "the section's datatype could not be made", ierror);
  s->count = 1;
  s->count_c = 1;
  s->type = t;
  s->made = 1;
  return 0;
}

int rmpi_f08_section(struct rmpi_f08_section *s, const CFI_cdesc_t *d, const void *count,
                     const void *datatype, int blocking, const char *call, const char *arg, MPI_Fint *ierror) {
  return section(s, d, *(const MPI_Fint *)count, datatype, blocking, call, arg, ierror);
}

int rmpi_f08_section_c(struct rmpi_f08_section *s, const CFI_cdesc_t *d, const void *count,
                       const void *datatype, int blocking, const char *call, const char *arg, MPI_Fint *ierror) {
  return section(s, d, *(const MPI_Count *)count, datatype, blocking, call, arg, ierror);
}

/* The datatype may be freed at once: a pending nonblocking operation keeps
 * what it needs (MPI-4.1 §5.1.9). */
void rmpi_f08_section_done(struct rmpi_f08_section *s, const CFI_cdesc_t *d, int output) {
  if (s->made) {
    MPI_Datatype t = s->type;
    MPI_Type_free(&t);
  }
  if (s->copy != NULL) {
    const char *copy = s->copy;
    if (output) FOR_ELEMENTS(d, elements_of(d), memcpy(elem, copy + (size_t)k * d->elem_len, d->elem_len));
    free(s->copy);
  }
}

void rmpi_f08_noncontiguous(const char *call, const char *arg, MPI_Fint *ierror) {
  char what[256];
  snprintf(what, sizeof what,
           "%s: a non-contiguous array section is not supported for this argument; pass a contiguous array",
           arg);
  refuse(MPI_ERR_UNSUPPORTED_OPERATION, call, what, ierror);
}

/* ---- procedures that exist in Fortran only ------------------------------
 * MPI_F_SYNC_REG (MPI-4.1 §19.1.17): an external call that takes the
 * buffer, so the compiler must assume it was read and written. */
void pmpi_f_sync_reg_(void *buf) { (void)buf; }
extern __typeof__(pmpi_f_sync_reg_) mpi_f_sync_reg_ __attribute__((weak, alias("pmpi_f_sync_reg_")));
void PMPI_F_sync_reg_f08ts(CFI_cdesc_t *buf) { (void)buf; }
extern __typeof__(PMPI_F_sync_reg_f08ts) MPI_F_sync_reg_f08ts __attribute__((weak, alias("PMPI_F_sync_reg_f08ts")));

/* MPI_Sizeof (MPI-4.1 §19.1.9): the size of one element of x, in bytes. */
void PMPI_Sizeof_f08ts(CFI_cdesc_t *x, MPI_Fint *size, MPI_Fint *ierror) {
  *size = (MPI_Fint)x->elem_len;
  if (ierror != NULL) *ierror = MPI_SUCCESS;
}
extern __typeof__(PMPI_Sizeof_f08ts) MPI_Sizeof_f08ts __attribute__((weak, alias("PMPI_Sizeof_f08ts")));
