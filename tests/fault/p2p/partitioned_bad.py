"""Bad input to partitioned communication and persistent collectives
(MPI-4.0, partitioned_bad.c) under MPI_ERRORS_ARE_FATAL: the job ends,
non-zero, within seconds although rank 0 blocks in a receive nobody
matches, with one line naming rank 1, the call, the error class and the
argument; no process survives."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (call, class, words the message must contain)
CASES = {
    "pready_inactive": ("MPI_Pready", "MPI_ERR_REQUEST", ["inactive", "MPI_Start"]),
    "pready_range": ("MPI_Pready", "MPI_ERR_ARG", ["partition=5", "0..3"]),
    "pready_twice": ("MPI_Pready", "MPI_ERR_ARG", ["partition=1", "readied already"]),
    "precv_any_source": ("MPI_Precv_init", "MPI_ERR_RANK", ["source", "MPI_ANY_SOURCE"]),
    "parrived_send": ("MPI_Parrived", "MPI_ERR_REQUEST", ["partitioned send request"]),
    "bcast_init_root": ("MPI_Bcast_init", "MPI_ERR_ROOT", ["root=5", "outside 0..1"]),
    "start_active_coll": ("MPI_Start", "MPI_ERR_REQUEST", ["already active"]),
}


if __name__ == "__main__":
    fl.main(fl.fatal_case_tests("partitioned_bad", CASES))
