"""Bad input to caching and error-handling calls under the fatal handlers:
the job ends (non-zero exit, within the timeout, the other ranks taken down)
with one line 'ringmpi: rank R: CALL: ... (CLASS): ...' naming the argument
and why (attr_fatal.c). A delete callback failing inside MPI_Finalize is
reported and the job still ends normally."""
import argparse
import subprocess
import sys

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


def run(mpiexec, prog, np, case):
    return subprocess.run([mpiexec, "-n", str(np), "--timeout", "60", prog, case], capture_output=True,
                          text=True, timeout=120)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--prog", required=True)
    args = ap.parse_args()
    failures = []
    for case, (np, rank, call, cls, words) in CASES.items():
        p = run(args.mpiexec, args.prog, np, case)
        head = "ringmpi: rank %s: %s:" % ("N" if rank is None else rank, call)
        ranks = range(np) if rank is None else [rank]
        starts = tuple("ringmpi: rank %d: %s:" % (r, call) for r in ranks)
        lines = [l for l in p.stderr.splitlines() if l.startswith(starts)]
        why = None
        if p.returncode == 0:
            why = "exited 0"
        elif "was not reported as an error" in p.stdout:
            why = "the call succeeded"
        elif "timed out" in p.stderr or "timeout" in p.stderr:
            why = "the job had to be killed by the timeout"
        elif not lines:
            why = "no '%s' line" % head
        elif not any(cls in l and all(w in l for w in words) for l in lines):
            why = "the message lacks %s or one of %s" % (cls, words)
        if why:
            failures.append("%s (np=%d): %s\n--- stdout:\n%s--- stderr:\n%s" % (case, np, why, p.stdout, p.stderr))
        else:
            print("ok   %-28s %s" % (case, lines[0]))

    p = run(args.mpiexec, args.prog, 1, "finalize_callback_fails")
    want = "ringmpi: rank 0: MPI_Finalize: the delete callback of keyval 0x"
    reported = want in p.stderr and "returned error code 16" in p.stderr
    if p.returncode != 0 or "finalized" not in p.stdout or not reported:
        failures.append("finalize_callback_fails: rc=%d\n--- stdout:\n%s--- stderr:\n%s" %
                        (p.returncode, p.stdout, p.stderr))
    else:
        print("ok   finalize_callback_fails")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
