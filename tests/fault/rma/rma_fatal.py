"""Bad RMA input under MPI_ERRORS_ARE_FATAL (rma_fatal.c): the job ends with
a non-zero exit status and one line 'ringmpi: rank 1: CALL: ... (CLASS): ...'
naming the argument and why; it is neither a crash nor a hang."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, failing rank, call, class, words the message must contain)
CASES = {
    "negative_size": (3, None, "MPI_Win_allocate", "MPI_ERR_SIZE", ["argument"]),
    "no_epoch": (2, 1, "MPI_Put", "MPI_ERR_RMA_SYNC", ["no access epoch", "target_rank=0"]),
    "range": (2, 1, "MPI_Put", "MPI_ERR_RMA_RANGE", ["target_disp 3", "rank 0", "16 bytes"]),
    "dynamic_unattached": (2, 1, "MPI_Put", "MPI_ERR_RMA_RANGE",
                           ["target_disp", "rank 0 has not attached", "MPI_Win_attach"]),
    "huge_disp": (2, 1, "MPI_Put", "MPI_ERR_RMA_RANGE", ["target_disp 4611686018427387904", "overflows", "rank 0"]),
    "negative_disp": (2, 1, "MPI_Get", "MPI_ERR_DISP", ["target_disp=-1"]),
    "bad_target": (2, 1, "MPI_Get", "MPI_ERR_RANK", ["target_rank=7", "0..1"]),
    # More origin data than the target buffer holds (less is fine: MPI-3.1 §11.3.1).
    "signature": (2, 1, "MPI_Put", "MPI_ERR_TRUNCATE", ["8 bytes", "only 4", "without truncation"]),
    "user_op": (2, 1, "MPI_Accumulate", "MPI_ERR_OP", ["user-defined"]),
    "start_in_lock": (2, 1, "MPI_Win_start", "MPI_ERR_RMA_SYNC", ["passive-target epoch"]),
    "lock_in_start": (2, 1, "MPI_Win_lock", "MPI_ERR_RMA_SYNC", ["MPI_Win_start", "still open"]),
    "rget_in_start": (2, 1, "MPI_Rget", "MPI_ERR_RMA_SYNC", ["passive-target epoch", "target_rank=0"]),
    "bad_win": (2, 1, "MPI_Win_fence", "MPI_ERR_WIN", ["win=0x5eed", "not a valid window"]),
    "unlock_unlocked": (2, 1, "MPI_Win_unlock", "MPI_ERR_RMA_SYNC", ["no lock", "rank 0"]),
    "lock_twice": (2, 1, "MPI_Win_lock", "MPI_ERR_RMA_SYNC", ["already holds", "rank 0"]),
    "bad_locktype": (2, 1, "MPI_Win_lock", "MPI_ERR_LOCKTYPE", ["lock_type=77"]),
    "free_locked": (2, 1, "MPI_Win_free", "MPI_ERR_RMA_SYNC", ["epoch is still open"]),
    "complete_no_start": (2, 1, "MPI_Win_complete", "MPI_ERR_RMA_SYNC", ["MPI_Win_start"]),
    "flush_unlocked": (2, 1, "MPI_Win_flush", "MPI_ERR_RMA_SYNC", ["no lock", "rank 0"]),
    "bad_assert": (2, 1, "MPI_Win_fence", "MPI_ERR_ASSERT", ["assert=12345"]),
    "shared_query_flavor": (2, 1, "MPI_Win_shared_query", "MPI_ERR_RMA_FLAVOR",
                            ["MPI_Win_create_dynamic", "MPI_Win_allocate_shared"]),
    "comm_errhandler": (2, 1, "MPI_Win_set_errhandler", "MPI_ERR_ARG",
                        ["MPI_Comm_create_errhandler", "MPI_Win_create_errhandler"]),
    "comm_keyval": (2, 1, "MPI_Win_set_attr", "MPI_ERR_KEYVAL", ["communicator keyval", "MPI_Win_create_keyval"]),
}

if __name__ == "__main__":
    sys.exit(fl.report(fl.check_fatal_cases(fl.fatal_args(), CASES)))
