"""Bad point-to-point input under MPI_ERRORS_ARE_FATAL (p2p_bad.c): the job
ends, non-zero, within seconds although rank 0 blocks in a receive nobody
matches, with one line naming rank 1, the call, the error class and the
argument or the sizes involved; no process survives."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (call, class, words the message must contain)
CASES = {
    "truncate": ("MPI_Recv", "MPI_ERR_TRUNCATE", ["40 bytes", "holds only 8", "from rank 0", "tag 5"]),
    "truncate_wait": ("MPI_Wait", "MPI_ERR_TRUNCATE", ["40 bytes", "holds only 8"]),
    "truncate_waitall": ("MPI_Waitall", "MPI_ERR_IN_STATUS", ["40 bytes", "holds only 8"]),
    "truncate_large": ("MPI_Recv", "MPI_ERR_TRUNCATE", ["1048576 bytes", "holds only 524288"]),
    "bad_dest": ("MPI_Send", "MPI_ERR_RANK", ["dest=5", "0..1"]),
    "bad_source": ("MPI_Recv", "MPI_ERR_RANK", ["source=-7", "MPI_ANY_SOURCE"]),
    "bad_tag": ("MPI_Send", "MPI_ERR_TAG", ["tag=-1", "MPI_TAG_UB"]),
    "bad_recv_tag": ("MPI_Irecv", "MPI_ERR_TAG", ["tag=-4"]),
    "neg_count": ("MPI_Isend", "MPI_ERR_COUNT", ["count=-2"]),
    "null_buffer": ("MPI_Send", "MPI_ERR_BUFFER", ["buf", "NULL", "count=4"]),
    "null_type": ("MPI_Send", "MPI_ERR_TYPE", ["datatype", "MPI_DATATYPE_NULL"]),
    "garbage_request": ("MPI_Wait", "MPI_ERR_REQUEST", ["request=0x5eed", "not a valid request"]),
    "stale_request": ("MPI_Test", "MPI_ERR_REQUEST", ["request=0x", "already completed or freed"]),
    "start_active": ("MPI_Start", "MPI_ERR_REQUEST", ["already active"]),
    "grequest_twice": ("MPI_Grequest_complete", "MPI_ERR_REQUEST", ["already called", "once only"]),
    "bsend_no_buffer": ("MPI_Bsend", "MPI_ERR_BUFFER", ["MPI_Buffer_attach"]),
}


if __name__ == "__main__":
    fl.main(fl.fatal_case_tests("p2p_bad", CASES, status=1))  # status 1: that of a fatal error
