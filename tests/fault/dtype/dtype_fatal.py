"""Bad datatype and op input under MPI_ERRORS_ARE_FATAL (dtype_fatal.c): the
job ends with a non-zero exit status and one line
'ringmpi: rank R: CALL: ... (CLASS): ...' naming the argument, its value and
why; it is neither a crash nor a hang."""
import argparse
import subprocess
import sys

# case -> (np, failing rank, call, class, words the message must contain)
CASES = {
    "send_uncommitted": (2, 0, "MPI_Send", "MPI_ERR_TYPE", ["datatype", "not committed"]),
    "recv_freed": (2, 1, "MPI_Recv", "MPI_ERR_TYPE", ["datatype=0x", "not a valid datatype"]),
    "op_on_byte": (1, 0, "MPI_Reduce_local", "MPI_ERR_OP", ["MPI_SUM", "not defined for MPI_BYTE"]),
    "maxloc_on_double": (1, 0, "MPI_Reduce_local", "MPI_ERR_OP", ["MPI_MAXLOC", "MPI_DOUBLE"]),
    "op_on_mixed_struct": (1, 0, "MPI_Reduce_local", "MPI_ERR_OP", ["MPI_SUM", "mixes several basic types"]),
    "negative_count": (1, 0, "MPI_Type_contiguous", "MPI_ERR_COUNT", ["count=-3", "negative"]),
    "negative_blocklength": (2, 0, "MPI_Type_indexed", "MPI_ERR_ARG", ["array_of_blocklengths[1]=-2", "negative"]),
    "null_types": (1, 0, "MPI_Type_create_struct", "MPI_ERR_ARG", ["array_of_types", "NULL"]),
    "bad_struct_member": (1, 0, "MPI_Type_create_struct", "MPI_ERR_TYPE", ["array_of_types[1]=0x3039",
                                                                        "not a valid datatype"]),
    "contents_of_named": (1, 0, "MPI_Type_get_contents", "MPI_ERR_TYPE", ["MPI_INT", "predefined"]),
    "free_predefined": (1, 0, "MPI_Type_free", "MPI_ERR_TYPE", ["MPI_DOUBLE", "cannot be freed"]),
    "unpack_short": (1, 0, "MPI_Unpack", "MPI_ERR_TRUNCATE", ["16 bytes", "insize=8"]),
    "subarray_start": (1, 0, "MPI_Type_create_subarray", "MPI_ERR_ARG", ["array_of_starts[1]=3", "0..2"]),
    "op_free_predefined": (1, 0, "MPI_Op_free", "MPI_ERR_OP", ["MPI_MAX", "cannot be freed"]),
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
        head = "ringmpi: rank %d: %s:" % (rank, call)
        lines = [l for l in p.stderr.splitlines() if l.startswith(head)]
        why = None
        if p.returncode == 0:
            why = "exited 0"
        elif "was not reported as an error" in p.stdout:
            why = "the call returned"
        elif "timed out" in p.stderr or "timeout" in p.stderr:
            why = "the job had to be killed by the timeout"
        elif p.returncode < 0 or p.returncode > 128:
            why = "killed by a signal (crash?)"
        elif not lines:
            why = "no '%s' line" % head
        elif not any(cls in l and all(w in l for w in words) for l in lines):
            why = "the message lacks %s or one of %s" % (cls, words)
        if why:
            failures.append("%s (np=%d): %s (exit %d)\n--- stdout:\n%s--- stderr:\n%s" %
                            (case, np, why, p.returncode, p.stdout, p.stderr))
        else:
            print("ok   %-22s %s" % (case, lines[0]))
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
