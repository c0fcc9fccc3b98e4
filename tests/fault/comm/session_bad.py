"""Bad input to the MPI-4.0/4.1 calls (sessions, process sets, assertions,
error-class removal): under MPI_ERRORS_ARE_FATAL the job ends (non-zero exit)
with one line naming the rank, the call, the error class and the bad
argument; under MPI_ERRORS_RETURN every case returns its class on every rank
and nobody hangs (session_bad.c)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, call, class, words the message must contain)
CASES = {
    "finalized_session": (2, "MPI_Session_get_num_psets", "MPI_ERR_SESSION", ["session=0x", "not a valid session"]),
    "null_session": (1, "MPI_Session_get_info", "MPI_ERR_SESSION", ["MPI_SESSION_NULL"]),
    "unknown_pset": (3, "MPI_Group_from_session_pset", "MPI_ERR_ARG", ["mpi://NOPE", "names no process set"]),
    "unknown_pset_info": (2, "MPI_Session_get_pset_info", "MPI_ERR_ARG", ["ringmpi://numa/999"]),
    "nth_out_of_range": (2, "MPI_Session_get_nth_pset", "MPI_ERR_ARG", ["n=1000"]),
    "bad_thread_level": (2, "MPI_Session_init", "MPI_ERR_INFO_VALUE", ["MPI_THREAD_LOTS"]),
    "wildcard_asserted": (2, "MPI_Recv", "MPI_ERR_RANK", ["MPI_ANY_SOURCE", "mpi_assert_no_any_source"]),
    "anytag_asserted": (3, "MPI_Iprobe", "MPI_ERR_TAG", ["MPI_ANY_TAG", "mpi_assert_no_any_tag"]),
    "remove_class_in_use": (2, "MPI_Remove_error_class", "MPI_ERR_ARG", ["still has error codes"]),
    "remove_predefined": (1, "MPI_Remove_error_code", "MPI_ERR_ARG", ["is predefined"]),
}


def main():
    args = fl.fatal_args()
    failures = fl.check_fatal_cases(args, {case: (np, None, call, cls, words)
                                           for case, (np, call, cls, words) in CASES.items()})
    fl.check_returns(args, (1, 2, 3, 5), "all error codes as expected", failures)
    return fl.report(failures)


if __name__ == "__main__":
    sys.exit(main())
