"""Bad input to caching and error-handling calls under the fatal handlers:
the job ends (non-zero exit, within the timeout, the other ranks taken down)
with one line 'ringmpi: rank R: CALL: ... (CLASS): ...' naming the argument
and why (attr_fatal.c). A delete callback failing inside MPI_Finalize is
reported and the job still ends normally."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, failing rank (None: every rank fails, the first one to get
# there is reported), call, class, words the message must contain)
CASES = {
    "keyval_invalid": (2, None, "MPI_Comm_get_attr", "MPI_ERR_KEYVAL", ["comm_keyval", "MPI_KEYVAL_INVALID"]),
    "keyval_garbage": (1, 0, "MPI_Attr_put", "MPI_ERR_KEYVAL", ["keyval=0x3039", "not a keyval"]),
    "keyval_kind": (1, 0, "MPI_Type_set_attr", "MPI_ERR_KEYVAL", ["type_keyval=0x", "communicator keyval"]),
    "predefined_delete": (1, 0, "MPI_Comm_delete_attr", "MPI_ERR_KEYVAL", ["MPI_TAG_UB", "cannot be deleted"]),
    "double_free": (1, 0, "MPI_Comm_free_keyval", "MPI_ERR_KEYVAL", ["comm_keyval=0x", "already freed"]),
    "errhandler_rank1": (2, 1, "MPI_Comm_set_errhandler", "MPI_ERR_ARG",
                         ["errhandler=0x12345", "not a valid error handler"]),
    "call_errhandler": (2, 0, "MPI_Comm_call_errhandler", "user-defined error class",
                        ["the flux capacitor is empty", "MPI_COMM_WORLD"]),
    "errors_abort": (2, None, "MPI_Comm_rank", "MPI_ERR_COMM", ["comm", "MPI_COMM_NULL"]),
    "delete_callback": (1, 0, "MPI_Comm_delete_attr", "MPI_ERR_OTHER", ["delete callback", "returned error code 16"]),
    "error_string_bad": (1, 0, "MPI_Error_string", "MPI_ERR_ARG", ["errorcode=-5", "not a valid error code"]),
    "add_error_string_predefined": (1, 0, "MPI_Add_error_string", "MPI_ERR_ARG", ["errorcode=6", "predefined"]),
    "create_errhandler_null": (1, 0, "MPI_Comm_create_errhandler", "MPI_ERR_ARG", ["comm_errhandler_fn", "NULL"]),
}



def main():
    args = fl.fatal_args()
    failures = fl.check_fatal_cases(args, CASES)
    p = fl.run_case(args, 1, "finalize_callback_fails")
    want = "ringmpi: rank 0: MPI_Finalize: the delete callback of keyval 0x"
    reported = want in p.stderr and "returned error code 16" in p.stderr
    if p.returncode != 0 or "finalized" not in p.stdout or not reported:
        failures.append("finalize_callback_fails: rc=%d\n--- stdout:\n%s--- stderr:\n%s" %
                        (p.returncode, p.stdout, p.stderr))
    else:
        print("ok   finalize_callback_fails")
    return fl.report(failures)


if __name__ == "__main__":
    sys.exit(main())
