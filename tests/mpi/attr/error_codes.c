/* Error classes, codes and strings: the predefined classes, user-added ones
 * (MPI_Add_error_class/_code/_string) and the bad arguments of each call. */
#include <string.h>

#include "../check.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  char s[MPI_MAX_ERROR_STRING], s2[MPI_MAX_ERROR_STRING];
  int len, cls;

  for (int c = MPI_SUCCESS; c <= MPI_T_ERR_INVALID; ++c) { /* the last predefined class */
    CHECK_MPI(MPI_Error_class(c, &cls));
    CHECK(cls == c);
    len = -1;
    CHECK_MPI(MPI_Error_string(c, s, &len));
    CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && len == (int)strlen(s));
  }
  CHECK_MPI(MPI_Error_string(MPI_ERR_RANK, s, &len));
  CHECK_MPI(MPI_Error_string(MPI_ERR_TAG, s2, &len));
  CHECK(strcmp(s, s2) != 0);

  int c1, c2, e1, e2, e3;
  CHECK_MPI(MPI_Add_error_class(&c1));
  CHECK(c1 > MPI_ERR_LASTCODE);
  CHECK_MPI(MPI_Error_class(c1, &cls));
  CHECK(cls == c1);
  CHECK_MPI(MPI_Add_error_code(c1, &e1));
  CHECK_MPI(MPI_Add_error_code(c1, &e2));
  CHECK_MPI(MPI_Add_error_class(&c2));
  CHECK_MPI(MPI_Add_error_code(MPI_ERR_RANK, &e3));
  CHECK(e1 != e2 && e1 != c1 && e2 != c2 && e3 != e2);
  CHECK_MPI(MPI_Error_class(e1, &cls));
  CHECK(cls == c1);
  CHECK_MPI(MPI_Error_class(e2, &cls));
  CHECK(cls == c1);
  CHECK_MPI(MPI_Error_class(e3, &cls));
  CHECK(cls == MPI_ERR_RANK);
  int *last, flag;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag));
  CHECK(flag && *last >= e3 && *last >= c2);

  /* No string yet: "" (MPI-3.1 §8.5); then the string set, then replaced. */
  len = -1;
  CHECK_MPI(MPI_Error_string(e1, s, &len));
  CHECK(len == 0 && s[0] == '\0');
  CHECK_MPI(MPI_Add_error_string(e1, "the widget jammed"));
  CHECK_MPI(MPI_Error_string(e1, s, &len));
  CHECK(strcmp(s, "the widget jammed") == 0 && len == 17);
  CHECK_MPI(MPI_Add_error_string(e1, "the widget jammed again"));
  CHECK_MPI(MPI_Error_string(e1, s, &len));
  CHECK(strcmp(s, "the widget jammed again") == 0);
  CHECK_MPI(MPI_Add_error_string(c1, "widget trouble"));
  CHECK_MPI(MPI_Error_string(c1, s, &len));
  CHECK(strcmp(s, "widget trouble") == 0);
  CHECK_MPI(MPI_Error_string(e2, s, &len)); /* the class string is not the code's */
  CHECK(len == 0);
  char longest[MPI_MAX_ERROR_STRING];
  memset(longest, 'x', sizeof longest - 1);
  longest[sizeof longest - 1] = '\0';
  CHECK_MPI(MPI_Add_error_string(e2, longest));
  CHECK_MPI(MPI_Error_string(e2, s, &len));
  CHECK(len == MPI_MAX_ERROR_STRING - 1 && strcmp(s, longest) == 0);

  /* Bad arguments are MPI_ERR_ARG. */
  int bad_codes[] = {-1, -77, *last + 1, *last + 7, 1 << 29};
  for (unsigned i = 0; i < sizeof bad_codes / sizeof bad_codes[0]; ++i) {
    CHECK(MPI_Error_class(bad_codes[i], &cls) == MPI_ERR_ARG);
    CHECK(MPI_Error_string(bad_codes[i], s, &len) == MPI_ERR_ARG);
    CHECK(MPI_Add_error_code(bad_codes[i], &cls) == MPI_ERR_ARG);
    CHECK(MPI_Add_error_string(bad_codes[i], "x") == MPI_ERR_ARG);
  }
  CHECK(MPI_Add_error_code(e1, &cls) == MPI_ERR_ARG); /* a code is not a class */
  CHECK(MPI_Add_error_code(MPI_SUCCESS, &cls) == MPI_ERR_ARG);
  CHECK(MPI_Add_error_string(MPI_ERR_RANK, "mine now") == MPI_ERR_ARG);
  CHECK(MPI_Add_error_string(MPI_SUCCESS, "mine now") == MPI_ERR_ARG);
  char toolong[MPI_MAX_ERROR_STRING + 1];
  memset(toolong, 'y', sizeof toolong - 1);
  toolong[sizeof toolong - 1] = '\0';
  CHECK(MPI_Add_error_string(e1, toolong) == MPI_ERR_ARG);
  CHECK(MPI_Add_error_string(e1, NULL) == MPI_ERR_ARG);
  CHECK(MPI_Add_error_class(NULL) == MPI_ERR_ARG);
  CHECK(MPI_Add_error_code(c1, NULL) == MPI_ERR_ARG);
  CHECK(MPI_Error_class(MPI_ERR_RANK, NULL) == MPI_ERR_ARG);
  CHECK(MPI_Error_string(MPI_ERR_RANK, NULL, &len) == MPI_ERR_ARG);
  CHECK(MPI_Error_string(MPI_ERR_RANK, s, NULL) == MPI_ERR_ARG);
  CHECK_MPI(MPI_Error_string(e1, s, &len)); /* failed calls changed nothing */
  CHECK(strcmp(s, "the widget jammed again") == 0);

  MPI_Finalize();
  return 0;
}
