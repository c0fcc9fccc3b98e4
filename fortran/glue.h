/* What the generated C glue of the Fortran bindings (fortran/gen_fortran.py)
 * uses: gfortran's conventions (docs/design/fortran.md) and the converters
 * of fortran/glue_runtime.c. The glue calls only the public C API. */
#ifndef RINGMPI_FORTRAN_GLUE_H
#define RINGMPI_FORTRAN_GLUE_H

#include <stddef.h>
#include <stdlib.h>

#include <ISO_Fortran_binding.h> /* gfortran's, for mpi_f08's descriptors */
#include <mpi.h>

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* A Fortran procedure argument (EXTERNAL), called back with its own type. */
typedef void (*rmpi_f_proc)(void);

/* The Fortran name of the call in progress, for the error message
 * (lib/api/call.cpp); libringmpi is loaded with the program, so the
 * initial-exec model reads it without a call. */
extern __thread const char *rmpi_fortran_call __attribute__((tls_model("initial-exec")));
#define RMPI_F_NAME(n) (rmpi_fortran_call = (n))

/* The special constants: common blocks of mpif.h and `use mpi` (gfortran
 * names a common block /X/ x_), recognised by their addresses. */
extern MPI_Fint mpi_fortran_bottom_;
extern MPI_Fint mpi_fortran_in_place_;
extern MPI_Fint mpi_fortran_status_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint mpi_fortran_statuses_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint mpi_fortran_errcodes_ignore_[1];
extern MPI_Fint mpi_fortran_unweighted_[1];
extern MPI_Fint mpi_fortran_weights_empty_[1];
extern char mpi_fortran_argv_null_[1];
extern char mpi_fortran_argvs_null_[1];

/* A choice buffer: MPI_BOTTOM and MPI_IN_PLACE are C's. */
static inline void *rmpi_f_addr(void *p) {
  if (__builtin_expect(p == (void *)&mpi_fortran_bottom_, 0)) return MPI_BOTTOM;
  if (__builtin_expect(p == (void *)&mpi_fortran_in_place_, 0)) return MPI_IN_PLACE;
  return p;
}

/* A status or an array of statuses: the Fortran status is C's MPI_Status
 * as MPI_F_STATUS_SIZE integers (include/mpi.h), so it is passed as is. */
static inline void *rmpi_f_status(MPI_Fint *p) {
  if (p == mpi_fortran_status_ignore_ || p == mpi_fortran_statuses_ignore_) return NULL;
  return p;
}

static inline void *rmpi_f_weights(MPI_Fint *p) {
  if (p == mpi_fortran_unweighted_) return MPI_UNWEIGHTED;
  if (p == mpi_fortran_weights_empty_) return MPI_WEIGHTS_EMPTY;
  return p;
}

static inline void *rmpi_f_errcodes(MPI_Fint *p) {
  return p == mpi_fortran_errcodes_ignore_ ? MPI_ERRCODES_IGNORE : p;
}

/* CHARACTER arguments (blank padded, with gfortran's hidden length). */
char *rmpi_f_cstr(const char *s, size_t len);          /* trimmed, NUL-terminated copy */
char *rmpi_f_cstr_info(const char *s, size_t len);     /* and without leading blanks */
char *rmpi_f_outbuf(const char *s, size_t len, size_t bound); /* room for what C writes */
void rmpi_f_padout(char *s, size_t len, const char *c); /* copy back, blank padded */
char **rmpi_f_argv(const char *s, size_t len);          /* up to the first blank entry */
char **rmpi_f_strings(const char *s, size_t len, int n);
char ***rmpi_f_argvs(const char *s, size_t len, int n);
void rmpi_f_free_strings(char **a);
void rmpi_f_free_argvs(char ***a, int n);
/* Request indices count from 1 in Fortran. */
void rmpi_f_indices_out(MPI_Fint *idx, int n);

/* ---- mpi_f08's choice buffers (fortran/glue_f08.c) ------------------------
 * TYPE(*), DIMENSION(..) arrives as a descriptor. A contiguous array (or a
 * scalar) is passed by its address, without a copy. */
static inline int rmpi_f08_contiguous(const CFI_cdesc_t *d) {
  CFI_index_t sm = (CFI_index_t)d->elem_len;
  if (d->rank == 0) return 1; /* a scalar */
  if (d->rank == 1) return d->dim[0].sm == sm || d->dim[0].extent <= 1;
  for (int i = 0; i < d->rank; i++) {
    if (d->dim[i].extent > 1 && d->dim[i].sm != sm) return 0;
    sm *= d->dim[i].extent;
  }
  return 1;
}

/* A non-contiguous array section described by (count, datatype): sent or
 * received in place through a datatype that lists its elements. */
struct rmpi_f08_section {
  void *addr;
  MPI_Fint count, type;
  MPI_Count count_c; /* the count a large-count (_c) call gets */
  int made;   /* type is a datatype made for the section */
  void *copy; /* or addr is this contiguous copy of it */
};
int rmpi_f08_section(struct rmpi_f08_section *s, const CFI_cdesc_t *d, const void *count, const void *datatype,
                     int blocking, const char *call, const char *arg, MPI_Fint *ierror);
/* The same for a large-count call: count is an MPI_Count. */
int rmpi_f08_section_c(struct rmpi_f08_section *s, const CFI_cdesc_t *d, const void *count, const void *datatype,
                       int blocking, const char *call, const char *arg, MPI_Fint *ierror);
/* A blocking call's non-contiguous buffer that no datatype describes: a
 * contiguous copy stands in for it (copied back if the call writes it). */
int rmpi_f08_copy_in(struct rmpi_f08_section *s, const CFI_cdesc_t *d, const char *call, const char *arg,
                     MPI_Fint *ierror);
void rmpi_f08_section_done(struct rmpi_f08_section *s, const CFI_cdesc_t *d, int output);
/* A non-contiguous section of a nonblocking call that no datatype
 * describes (the buffers of MPI_Ialltoallv, ...): MPI_ERR_UNSUPPORTED_OPERATION. */
void rmpi_f08_noncontiguous(const char *call, const char *arg, MPI_Fint *ierror);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif
