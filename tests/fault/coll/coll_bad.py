"""Bad input to the collectives (coll_bad.c): under MPI_ERRORS_ARE_FATAL the
job ends (non-zero exit) with one line naming the rank, the call, the error
class and the bad argument; under MPI_ERRORS_RETURN every case returns its
class and nobody hangs."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, rank that errs (None: any), call, class, words the message must contain)
CASES = {
    "ibcast_root": (2, None, "MPI_Ibcast", "MPI_ERR_ROOT", ["root=5", "outside 0..1"]),
    "ireduce_op": (2, None, "MPI_Ireduce", "MPI_ERR_OP", ["op", "MPI_OP_NULL"]),
    "iallreduce_null_request": (1, 0, "MPI_Iallreduce", "MPI_ERR_ARG", ["request"]),
    "igather_count": (2, None, "MPI_Igather", "MPI_ERR_COUNT", ["sendcount=-2"]),
    "allgather_recv_in_place": (2, None, "MPI_Allgather", "MPI_ERR_BUFFER", ["recvbuf", "MPI_IN_PLACE"]),
    "allreduce_alias": (2, None, "MPI_Allreduce", "MPI_ERR_BUFFER", ["sendbuf and recvbuf overlap"]),
    "iscatterv_counts": (3, 0, "MPI_Iscatterv", "MPI_ERR_COUNT", ["sendcounts[2]=-1"]),
    "alltoallw_type": (2, None, "MPI_Alltoallw", "MPI_ERR_TYPE", ["sendtypes[0]"]),
    "inter_root": (2, None, "MPI_Ibcast", "MPI_ERR_ROOT", ["root=", "MPI_ROOT", "remote group"]),
    "inter_in_place": (2, None, "MPI_Allreduce", "MPI_ERR_BUFFER", ["sendbuf", "MPI_IN_PLACE"]),
    "inter_scan": (2, None, "MPI_Iscan", "MPI_ERR_COMM", ["intercommunicator"]),
    "free_active": (2, 0, "MPI_Request_free", "MPI_ERR_REQUEST", ["nonblocking collective", "in progress"]),
}


def check_counts(args, failures):
    """MPI_Allreduce with counts 2 and 1 (no --check): the job ends non-zero
    on its own, and the line names the call and the likely cause."""
    p = fl.run_case(args, 2, "allreduce_counts")
    words = ["MPI_Allreduce", "different counts or types", "mpiexec --check"]
    if p.returncode <= 0 or p.returncode > 128 or "timed out" in p.stderr or \
            not any(all(w in l for w in words) for l in p.stderr.splitlines()):
        failures.append("allreduce_counts: exit %d, no line with %s\n--- stderr:\n%s" % (p.returncode, words, p.stderr))
    else:
        print("ok   allreduce_counts")


def main():
    args = fl.fatal_args()
    failures = fl.check_fatal_cases(args, CASES)
    check_counts(args, failures)
    fl.check_returns(args, (1, 2, 3, 4), "all error codes as expected", failures)
    return fl.report(failures)


if __name__ == "__main__":
    sys.exit(main())
