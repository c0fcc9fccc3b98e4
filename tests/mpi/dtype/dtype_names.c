/* MPI_Type_get_name of every predefined datatype (MPI-4.1 §6.8: the
 * default name of a predefined object is the name of its handle). Where two
 * names are one handle (MPI_C_COMPLEX and MPI_C_FLOAT_COMPLEX, MPI_LONG_LONG
 * and MPI_LONG_LONG_INT) the standard cannot give both; the name is MPICH's
 * choice (issue 35): "MPI_C_COMPLEX" and "MPI_LONG_LONG_INT". The table is
 * what MPICH 4.0.2 answers. The optional Fortran types the library lacks
 * (MPI_INTEGER16, MPI_REAL2, MPI_COMPLEX4) are defined as MPI_DATATYPE_NULL,
 * as MPICH defines MPI_INTEGER16 where it has no 16-byte integer. */
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const struct {
    MPI_Datatype type;
    const char* name;
  } list[] = {
      {MPI_CHAR, "MPI_CHAR"},
      {MPI_SHORT, "MPI_SHORT"},
      {MPI_INT, "MPI_INT"},
      {MPI_LONG, "MPI_LONG"},
      {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT"},
      {MPI_LONG_LONG, "MPI_LONG_LONG_INT"},
      {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR"},
      {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR"},
      {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT"},
      {MPI_UNSIGNED, "MPI_UNSIGNED"},
      {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG"},
      {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG"},
      {MPI_FLOAT, "MPI_FLOAT"},
      {MPI_DOUBLE, "MPI_DOUBLE"},
      {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE"},
      {MPI_WCHAR, "MPI_WCHAR"},
      {MPI_C_BOOL, "MPI_C_BOOL"},
      {MPI_INT8_T, "MPI_INT8_T"},
      {MPI_INT16_T, "MPI_INT16_T"},
      {MPI_INT32_T, "MPI_INT32_T"},
      {MPI_INT64_T, "MPI_INT64_T"},
      {MPI_UINT8_T, "MPI_UINT8_T"},
      {MPI_UINT16_T, "MPI_UINT16_T"},
      {MPI_UINT32_T, "MPI_UINT32_T"},
      {MPI_UINT64_T, "MPI_UINT64_T"},
      {MPI_C_COMPLEX, "MPI_C_COMPLEX"},
      {MPI_C_FLOAT_COMPLEX, "MPI_C_COMPLEX"},
      {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX"},
      {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX"},
      {MPI_BYTE, "MPI_BYTE"},
      {MPI_PACKED, "MPI_PACKED"},
      {MPI_AINT, "MPI_AINT"},
      {MPI_OFFSET, "MPI_OFFSET"},
      {MPI_COUNT, "MPI_COUNT"},
      {MPI_CXX_BOOL, "MPI_CXX_BOOL"},
      {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX"},
      {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX"},
      {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX"},
      {MPI_FLOAT_INT, "MPI_FLOAT_INT"},
      {MPI_DOUBLE_INT, "MPI_DOUBLE_INT"},
      {MPI_LONG_INT, "MPI_LONG_INT"},
      {MPI_2INT, "MPI_2INT"},
      {MPI_SHORT_INT, "MPI_SHORT_INT"},
      {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT"},
      {MPI_INTEGER, "MPI_INTEGER"},
      {MPI_REAL, "MPI_REAL"},
      {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION"},
      {MPI_COMPLEX, "MPI_COMPLEX"},
      {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX"},
      {MPI_LOGICAL, "MPI_LOGICAL"},
      {MPI_CHARACTER, "MPI_CHARACTER"},
      {MPI_2INTEGER, "MPI_2INTEGER"},
      {MPI_2REAL, "MPI_2REAL"},
      {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION"},
      {MPI_INTEGER1, "MPI_INTEGER1"},
      {MPI_INTEGER2, "MPI_INTEGER2"},
      {MPI_INTEGER4, "MPI_INTEGER4"},
      {MPI_INTEGER8, "MPI_INTEGER8"},
      {MPI_REAL4, "MPI_REAL4"},
      {MPI_REAL8, "MPI_REAL8"},
      {MPI_REAL16, "MPI_REAL16"},
      {MPI_COMPLEX8, "MPI_COMPLEX8"},
      {MPI_COMPLEX16, "MPI_COMPLEX16"},
      {MPI_COMPLEX32, "MPI_COMPLEX32"},
  };
  for (size_t k = 0; k < sizeof list / sizeof list[0]; ++k) {
    if (list[k].type == MPI_DATATYPE_NULL) continue; /* MPI_REAL16/COMPLEX32 without binary128 */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    CHECK_MPI(MPI_Type_get_name(list[k].type, name, &len));
    if (strcmp(name, list[k].name) != 0) fprintf(stderr, "entry %zu: got %s, want %s\n", k, name, list[k].name);
    CHECK(strcmp(name, list[k].name) == 0 && len == (int)strlen(list[k].name));
  }
  /* Both names of the one handle answer the same. */
  CHECK(MPI_C_COMPLEX == MPI_C_FLOAT_COMPLEX && MPI_LONG_LONG == MPI_LONG_LONG_INT);

  /* Optional Fortran datatypes: defined, and MPI_DATATYPE_NULL where absent. */
#if !defined(MPI_INTEGER16) || !defined(MPI_REAL2) || !defined(MPI_COMPLEX4)
#error "MPI_INTEGER16, MPI_REAL2 and MPI_COMPLEX4 must be defined"
#endif
  CHECK(MPI_INTEGER16 == MPI_DATATYPE_NULL);
  CHECK(MPI_REAL2 == MPI_DATATYPE_NULL);
  CHECK(MPI_COMPLEX4 == MPI_DATATYPE_NULL);
  /* A program may test for them at run time, as MPICH's suite does. */
  const MPI_Datatype optional[] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_INTEGER16,
                                   MPI_REAL2,    MPI_REAL4,    MPI_REAL8,    MPI_REAL16,   MPI_COMPLEX4,
                                   MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};
  int present = 0;
  for (size_t k = 0; k < sizeof optional / sizeof optional[0]; ++k) {
    if (optional[k] == MPI_DATATYPE_NULL) continue;
    int size = 0;
    CHECK_MPI(MPI_Type_size(optional[k], &size));
    CHECK(size > 0);
    ++present;
  }
  CHECK(present >= 8);
  MPI_Finalize();
  return 0;
}
