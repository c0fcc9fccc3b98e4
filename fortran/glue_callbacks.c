/* The Fortran bindings' glue that is written by hand: functions taking
 * Fortran procedures that C cannot call directly (attribute copy and
 * delete functions, generalized requests, data representations) and the
 * attribute getters (a predefined attribute is an INTEGER in Fortran, a
 * pointer to it in C). MPI_Op_create and the *_create_errhandler functions
 * need none: their callbacks have the same arguments in both languages
 * (pointers to ints), so the generated glue passes them on. */
#include "glue.h"

#define ALIAS(f) extern __typeof__(p##f) f __attribute__((weak, alias("p" #f)))

/* ---- attribute copy and delete (MPI-4.1 §7.7.2) ---------------------------
 * C calls a trampoline with the keyval's state: the Fortran procedures and
 * the program's extra_state. Attributes set before the keyval is freed
 * still call them, so the state lives as long as the library keeps the
 * keyval (until it is freed and no attribute uses it); the library then
 * calls keyval_released (lib/core/attributes.cpp, rmpi_keyval_released). */
struct fkeyval {
  rmpi_f_proc copy, del;
  MPI_Aint extra;
  int legacy; /* MPI_KEYVAL_CREATE: INTEGER values, not ADDRESS_KIND */
};
typedef void f_copy_t(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void f_copy10_t(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);
typedef void f_delete_t(MPI_Fint *, MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);
typedef void f_delete10_t(MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *, MPI_Fint *);

/* Every handle is an int, so one trampoline serves communicators,
 * datatypes and windows. */
static int copy_trampoline(int obj, int keyval, void *extra, void *in, void *out, int *flag) {
  const struct fkeyval *k = extra;
  MPI_Fint fobj = obj, fkey = keyval, fflag = 0, ierr = MPI_SUCCESS;
  if (k->legacy) {
    MPI_Fint fextra = (MPI_Fint)k->extra, fin = (MPI_Fint)(MPI_Aint)in, fout = 0;
    ((f_copy10_t *)(void *)k->copy)(&fobj, &fkey, &fextra, &fin, &fout, &fflag, &ierr);
    *(void **)out = (void *)(MPI_Aint)fout;
  } else {
    MPI_Aint fextra = k->extra, fin = (MPI_Aint)in, fout = 0;
    ((f_copy_t *)(void *)k->copy)(&fobj, &fkey, &fextra, &fin, &fout, &fflag, &ierr);
    *(void **)out = (void *)fout;
  }
  *flag = fflag != 0;
  return ierr;
}

static int delete_trampoline(int obj, int keyval, void *val, void *extra) {
  const struct fkeyval *k = extra;
  MPI_Fint fobj = obj, fkey = keyval, ierr = MPI_SUCCESS;
  if (k->legacy) {
    MPI_Fint fval = (MPI_Fint)(MPI_Aint)val, fextra = (MPI_Fint)k->extra;
    ((f_delete10_t *)(void *)k->del)(&fobj, &fkey, &fval, &fextra, &ierr);
  } else {
    MPI_Aint fval = (MPI_Aint)val, fextra = k->extra;
    ((f_delete_t *)(void *)k->del)(&fobj, &fkey, &fval, &fextra, &ierr);
  }
  return ierr;
}

/* Exported by libringmpi outside mpi.h: called with each released keyval's
 * delete function and extra_state. */
typedef int c_delete_t(int, int, void *, void *);
extern void (*rmpi_keyval_released)(c_delete_t *del, void *extra_state);

static void keyval_released(c_delete_t *del, void *extra_state) {
  if (del == delete_trampoline) free(extra_state); /* a keyval made here */
}

static struct fkeyval *new_keyval(rmpi_f_proc copy, rmpi_f_proc del, MPI_Aint extra, int legacy) {
  struct fkeyval *k = malloc(sizeof *k);
  if (k == NULL) abort();
  rmpi_keyval_released = keyval_released;
  k->copy = copy;
  k->del = del;
  k->extra = extra;
  k->legacy = legacy;
  return k;
}

void pmpi_comm_create_keyval_(rmpi_f_proc copy, rmpi_f_proc del, MPI_Fint *keyval, MPI_Aint *extra,
                              MPI_Fint *ierror) {
  struct fkeyval *k = new_keyval(copy, del, *extra, 0);
  RMPI_F_NAME("MPI_COMM_CREATE_KEYVAL");
  *ierror = MPI_Comm_create_keyval(copy_trampoline, delete_trampoline, keyval, k);
  RMPI_F_NAME(NULL);
  if (*ierror != MPI_SUCCESS) free(k); /* no keyval refers to it */
}
ALIAS(mpi_comm_create_keyval_);

void pmpi_type_create_keyval_(rmpi_f_proc copy, rmpi_f_proc del, MPI_Fint *keyval, MPI_Aint *extra,
                              MPI_Fint *ierror) {
  struct fkeyval *k = new_keyval(copy, del, *extra, 0);
  RMPI_F_NAME("MPI_TYPE_CREATE_KEYVAL");
  *ierror = MPI_Type_create_keyval(copy_trampoline, delete_trampoline, keyval, k);
  RMPI_F_NAME(NULL);
  if (*ierror != MPI_SUCCESS) free(k); /* no keyval refers to it */
}
ALIAS(mpi_type_create_keyval_);

void pmpi_win_create_keyval_(rmpi_f_proc copy, rmpi_f_proc del, MPI_Fint *keyval, MPI_Aint *extra,
                             MPI_Fint *ierror) {
  struct fkeyval *k = new_keyval(copy, del, *extra, 0);
  RMPI_F_NAME("MPI_WIN_CREATE_KEYVAL");
  *ierror = MPI_Win_create_keyval(copy_trampoline, delete_trampoline, keyval, k);
  RMPI_F_NAME(NULL);
  if (*ierror != MPI_SUCCESS) free(k); /* no keyval refers to it */
}
ALIAS(mpi_win_create_keyval_);

void pmpi_keyval_create_(rmpi_f_proc copy, rmpi_f_proc del, MPI_Fint *keyval, MPI_Fint *extra, MPI_Fint *ierror) {
  struct fkeyval *k = new_keyval(copy, del, *extra, 1);
  RMPI_F_NAME("MPI_KEYVAL_CREATE");
  *ierror = MPI_Keyval_create(copy_trampoline, delete_trampoline, keyval, k);
  RMPI_F_NAME(NULL);
  if (*ierror != MPI_SUCCESS) free(k); /* no keyval refers to it */
}
ALIAS(mpi_keyval_create_);

/* The predefined callbacks, callable from Fortran (and so passed to the
 * trampolines like the program's own). */
#define COPY_FN(name, body)                                                                            \
  void p##name(MPI_Fint *o, MPI_Fint *k, MPI_Aint *e, MPI_Aint *in, MPI_Aint *out, MPI_Fint *flag,    \
               MPI_Fint *ierr) {                                                                       \
    (void)o, (void)k, (void)e;                                                                         \
    body;                                                                                              \
    *ierr = MPI_SUCCESS;                                                                               \
  }                                                                                                    \
  ALIAS(name)
#define DELETE_FN(name)                                                                         \
  void p##name(MPI_Fint *o, MPI_Fint *k, MPI_Aint *v, MPI_Aint *e, MPI_Fint *ierr) {            \
    (void)o, (void)k, (void)v, (void)e;                                                        \
    *ierr = MPI_SUCCESS;                                                                        \
  }                                                                                             \
  ALIAS(name)
COPY_FN(mpi_comm_null_copy_fn_, (void)in; (void)out; *flag = 0);
COPY_FN(mpi_comm_dup_fn_, *out = *in; *flag = 1);
DELETE_FN(mpi_comm_null_delete_fn_);
COPY_FN(mpi_type_null_copy_fn_, (void)in; (void)out; *flag = 0);
COPY_FN(mpi_type_dup_fn_, *out = *in; *flag = 1);
DELETE_FN(mpi_type_null_delete_fn_);
COPY_FN(mpi_win_null_copy_fn_, (void)in; (void)out; *flag = 0);
COPY_FN(mpi_win_dup_fn_, *out = *in; *flag = 1);
DELETE_FN(mpi_win_null_delete_fn_);

/* MPI_KEYVAL_CREATE's predefined callbacks, with INTEGER values. */
void pmpi_null_copy_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                        MPI_Fint *ierr) {
  (void)o, (void)k, (void)e, (void)in, (void)out;
  *flag = 0;
  *ierr = MPI_SUCCESS;
}
ALIAS(mpi_null_copy_fn_);
void pmpi_dup_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *e, MPI_Fint *in, MPI_Fint *out, MPI_Fint *flag,
                  MPI_Fint *ierr) {
  (void)o, (void)k, (void)e;
  *out = *in;
  *flag = 1;
  *ierr = MPI_SUCCESS;
}
ALIAS(mpi_dup_fn_);
void pmpi_null_delete_fn_(MPI_Fint *o, MPI_Fint *k, MPI_Fint *v, MPI_Fint *e, MPI_Fint *ierr) {
  (void)o, (void)k, (void)v, (void)e;
  *ierr = MPI_SUCCESS;
}
ALIAS(mpi_null_delete_fn_);

/* ---- attribute values seen from Fortran ------------------------------------
 * An attribute a program set is its value (C stores it as the pointer);
 * a predefined one is what C's pointer points to (MPI-4.1 §7.7.2). */
static MPI_Aint fortran_value(int keyval, void *p) {
  switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case MPI_APPNUM:
    case MPI_WIN_DISP_UNIT:
    case MPI_WIN_CREATE_FLAVOR:
    case MPI_WIN_MODEL:
      return *(const int *)p;
    case MPI_WIN_SIZE:
      return *(const MPI_Aint *)p;
    default: /* MPI_WIN_BASE is the address itself, as the program's own values */
      return (MPI_Aint)p;
  }
}

static MPI_Aint any_value(MPI_Fint obj, int keyval, void *p) {
  (void)obj;
  return fortran_value(keyval, p);
}

/* A window's displacement unit beyond an int (made by MPI_Win_create_c and
 * the other _c constructors) reads MPI_UNDEFINED through C's int pointer
 * (lib/api/rma_win.cpp). Fortran's value is an address-sized integer, so it
 * gets the unit whole (MPI-4.1 §12.2.6: the displacement unit of the
 * window): MPI_Win_shared_query_c of the caller's own rank, which answers
 * every flavor but dynamic (whose unit is always 1). */
static MPI_Aint win_value(MPI_Fint win, int keyval, void *p) {
  const MPI_Aint v = fortran_value(keyval, p);
  if (keyval != MPI_WIN_DISP_UNIT || v != MPI_UNDEFINED) return v;
  MPI_Group group;
  int me = MPI_UNDEFINED;
  if (PMPI_Win_get_group(win, &group) != MPI_SUCCESS) return v;
  PMPI_Group_rank(group, &me);
  PMPI_Group_free(&group);
  MPI_Aint size = 0, unit = 0;
  void *base = NULL;
  if (me == MPI_UNDEFINED || PMPI_Win_shared_query_c(win, me, &size, &unit, &base) != MPI_SUCCESS) return v;
  return unit;
}

#define GET_ATTR(fname, FNAME, cfunc, value)                                                            \
  void p##fname(MPI_Fint *obj, MPI_Fint *keyval, MPI_Aint *val, MPI_Fint *flag, MPI_Fint *ierror) {     \
    void *p = NULL;                                                                                     \
    int f = 0;                                                                                          \
    RMPI_F_NAME(FNAME);                                                                                 \
    int rc = cfunc(*obj, *keyval, &p, &f);                                                              \
    RMPI_F_NAME(NULL);                                                                                  \
    if (rc == MPI_SUCCESS && f) *val = value(*obj, *keyval, p);                                         \
    *flag = f != 0;                                                                                     \
    *ierror = rc;                                                                                       \
  }                                                                                                     \
  ALIAS(fname)
GET_ATTR(mpi_comm_get_attr_, "MPI_COMM_GET_ATTR", MPI_Comm_get_attr, any_value);
GET_ATTR(mpi_type_get_attr_, "MPI_TYPE_GET_ATTR", MPI_Type_get_attr, any_value);
GET_ATTR(mpi_win_get_attr_, "MPI_WIN_GET_ATTR", MPI_Win_get_attr, win_value);

void pmpi_attr_get_(MPI_Fint *comm, MPI_Fint *keyval, MPI_Fint *val, MPI_Fint *flag, MPI_Fint *ierror) {
  void *p = NULL;
  int f = 0;
  RMPI_F_NAME("MPI_ATTR_GET");
  int rc = MPI_Attr_get(*comm, *keyval, &p, &f);
  RMPI_F_NAME(NULL);
  if (rc == MPI_SUCCESS && f) *val = (MPI_Fint)fortran_value(*keyval, p);
  *flag = f != 0;
  *ierror = rc;
}
ALIAS(mpi_attr_get_);

/* ---- generalized requests (MPI-4.1 §13.2) ------------------------------- */
struct fgrequest {
  rmpi_f_proc query, free, cancel;
  MPI_Aint extra;
};
typedef void f_query_t(MPI_Aint *, MPI_Fint *, MPI_Fint *);
typedef void f_free_t(MPI_Aint *, MPI_Fint *);
typedef void f_cancel_t(MPI_Aint *, MPI_Fint *, MPI_Fint *);

static int greq_query(void *extra, MPI_Status *status) {
  struct fgrequest *g = extra;
  MPI_Fint ierr = MPI_SUCCESS;
  MPI_Status ignored;
  /* The Fortran status is C's as integers (glue.h). */
  ((f_query_t *)(void *)g->query)(&g->extra, (MPI_Fint *)(status ? status : &ignored), &ierr);
  return ierr;
}

static int greq_free(void *extra) {
  struct fgrequest *g = extra;
  MPI_Fint ierr = MPI_SUCCESS;
  ((f_free_t *)(void *)g->free)(&g->extra, &ierr);
  free(g);
  return ierr;
}

static int greq_cancel(void *extra, int complete) {
  struct fgrequest *g = extra;
  MPI_Fint ierr = MPI_SUCCESS, fcomplete = complete != 0;
  ((f_cancel_t *)(void *)g->cancel)(&g->extra, &fcomplete, &ierr);
  return ierr;
}

void pmpi_grequest_start_(rmpi_f_proc query, rmpi_f_proc freefn, rmpi_f_proc cancel, MPI_Aint *extra,
                          MPI_Fint *request, MPI_Fint *ierror) {
  struct fgrequest *g = malloc(sizeof *g);
  if (g == NULL) abort();
  g->query = query;
  g->free = freefn;
  g->cancel = cancel;
  g->extra = *extra;
  RMPI_F_NAME("MPI_GREQUEST_START");
  int rc = MPI_Grequest_start(greq_query, greq_free, greq_cancel, g, request);
  RMPI_F_NAME(NULL);
  if (rc != MPI_SUCCESS) free(g);
  *ierror = rc;
}
ALIAS(mpi_grequest_start_);

/* ---- data representations (MPI-4.1 §14.5.3) ---------------------------- */
struct fdatarep {
  rmpi_f_proc read, write, extent;
  MPI_Aint extra;
};
typedef void f_conv_t(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Offset *, MPI_Aint *, MPI_Fint *);
typedef void f_extent_t(MPI_Fint *, MPI_Aint *, MPI_Aint *, MPI_Fint *);

/* MPI_CONVERSION_FN_NULL, recognised by its address. */
void pmpi_conversion_fn_null_(void *u, MPI_Fint *t, MPI_Fint *c, void *f, MPI_Offset *pos, MPI_Aint *e,
                              MPI_Fint *ierr) {
  (void)u, (void)t, (void)c, (void)f, (void)pos, (void)e;
  *ierr = MPI_ERR_UNSUPPORTED_OPERATION; /* never called: replaced by C's null function */
}
ALIAS(mpi_conversion_fn_null_);

static int convert(rmpi_f_proc fn, void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset pos,
                   MPI_Aint *extra) {
  MPI_Fint ftype = type, fcount = count, ierr = MPI_SUCCESS;
  ((f_conv_t *)(void *)fn)(userbuf, &ftype, &fcount, filebuf, &pos, extra, &ierr);
  return ierr;
}
static int datarep_read(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset pos, void *extra) {
  struct fdatarep *d = extra;
  return convert(d->read, userbuf, type, count, filebuf, pos, &d->extra);
}
static int datarep_write(void *userbuf, MPI_Datatype type, int count, void *filebuf, MPI_Offset pos, void *extra) {
  struct fdatarep *d = extra;
  return convert(d->write, userbuf, type, count, filebuf, pos, &d->extra);
}
static int datarep_extent(MPI_Datatype type, MPI_Aint *extent, void *extra) {
  struct fdatarep *d = extra;
  MPI_Fint ftype = type, ierr = MPI_SUCCESS;
  ((f_extent_t *)(void *)d->extent)(&ftype, extent, &d->extra, &ierr);
  return ierr;
}

void pmpi_register_datarep_(char *name, rmpi_f_proc rd, rmpi_f_proc wr, rmpi_f_proc ext, MPI_Aint *extra,
                            MPI_Fint *ierror, size_t name_len) {
  struct fdatarep *d = malloc(sizeof *d); /* lives as long as the representation */
  if (d == NULL) abort();
  d->read = rd;
  d->write = wr;
  d->extent = ext;
  d->extra = *extra;
  const rmpi_f_proc null_fn = (rmpi_f_proc)pmpi_conversion_fn_null_;
  const rmpi_f_proc null_alias = (rmpi_f_proc)mpi_conversion_fn_null_;
  char *c = rmpi_f_cstr(name, name_len);
  RMPI_F_NAME("MPI_REGISTER_DATAREP");
  int rc = MPI_Register_datarep(c, (rd == null_fn || rd == null_alias) ? MPI_CONVERSION_FN_NULL : datarep_read,
                                (wr == null_fn || wr == null_alias) ? MPI_CONVERSION_FN_NULL : datarep_write,
                                datarep_extent, d);
  RMPI_F_NAME(NULL);
  free(c);
  if (rc != MPI_SUCCESS) free(d);
  *ierror = rc;
}
ALIAS(mpi_register_datarep_);
