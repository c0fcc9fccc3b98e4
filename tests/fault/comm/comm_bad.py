"""Bad input to the communicator calls: under MPI_ERRORS_ARE_FATAL the job
ends (non-zero exit) with one line naming the rank, the call, the error class
and the bad argument; under MPI_ERRORS_RETURN every case returns its class on
every rank and nobody hangs (comm_bad.c)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, call, class, words the message must contain)
CASES = {
    "free_world": (2, "MPI_Comm_free", "MPI_ERR_COMM", ["MPI_COMM_WORLD", "cannot be freed"]),
    "free_self": (1, "MPI_Comm_free", "MPI_ERR_COMM", ["MPI_COMM_SELF", "cannot be freed"]),
    "null_comm": (2, "MPI_Comm_size", "MPI_ERR_COMM", ["comm", "MPI_COMM_NULL"]),
    "freed_comm": (2, "MPI_Comm_rank", "MPI_ERR_COMM", ["comm=0x", "not a valid communicator"]),
    "garbage_comm": (1, "MPI_Comm_dup", "MPI_ERR_COMM", ["comm=0x3039", "not a valid communicator"]),
    "remote_size_intra": (2, "MPI_Comm_remote_size", "MPI_ERR_COMM", ["MPI_COMM_WORLD", "intracommunicator"]),
    "merge_intra": (2, "MPI_Intercomm_merge", "MPI_ERR_COMM", ["intercomm", "intracommunicator"]),
    "bad_local_leader": (2, "MPI_Intercomm_create", "MPI_ERR_RANK", ["local_leader=5", "outside 0..0"]),
    "bad_remote_leader": (2, "MPI_Intercomm_create", "MPI_ERR_RANK", ["remote_leader=99", "outside 0..1"]),
    "remote_leader_is_local": (2, "MPI_Intercomm_create", "MPI_ERR_RANK", ["remote_leader=", "disjoint"]),
    "bad_color": (3, "MPI_Comm_split", "MPI_ERR_ARG", ["color=-5"]),
    "bad_split_type": (2, "MPI_Comm_split_type", "MPI_ERR_ARG", ["split_type=99"]),
    "not_subset": (2, "MPI_Comm_create", "MPI_ERR_GROUP", ["not a subgroup", "MPI_COMM_WORLD rank"]),
    "inconsistent_groups": (2, "MPI_Comm_create", "MPI_ERR_GROUP", ["group"]),
    "null_group": (2, "MPI_Comm_create", "MPI_ERR_GROUP", ["MPI_GROUP_NULL"]),
    "create_group_inter": (2, "MPI_Comm_create_group", "MPI_ERR_COMM", ["intercommunicator"]),
    "bad_tag": (2, "MPI_Intercomm_create", "MPI_ERR_TAG", ["tag=-3"]),
}



def main():
    args = fl.fatal_args()
    # Any rank may be the one that reports.
    failures = fl.check_fatal_cases(args, {case: (np, None, call, cls, words)
                                           for case, (np, call, cls, words) in CASES.items()})
    fl.check_returns(args, (1, 2, 3, 4), "all error codes as expected", failures)
    return fl.report(failures)


if __name__ == "__main__":
    sys.exit(main())
