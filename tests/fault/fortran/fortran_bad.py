"""Bad input from Fortran under MPI_ERRORS_ARE_FATAL (fortran_bad.f90): the
job ends, non-zero, with one line naming rank 1, the call as the binding
names it (MPI_SEND from `use mpi`, MPI_Send from mpi_f08), the error class
and the argument; non-contiguous buffers that mpi_f08 cannot pass to a
nonblocking call are refused the same way. No process survives."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (call, class, words the message must contain)
CASES = {
    "mpi_send_dest": ("MPI_SEND", "MPI_ERR_RANK", ["dest=5"]),
    "f08_send_dest": ("MPI_Send", "MPI_ERR_RANK", ["dest=5"]),
    "f08_section_ireduce": ("MPI_Iallreduce", "MPI_ERR_UNSUPPORTED_OPERATION", ["sendbuf", "non-contiguous"]),
    "f08_section_type": ("MPI_Isend", "MPI_ERR_UNSUPPORTED_OPERATION", ["buf", "element 8 bytes", "extent 4"]),
    "f08_section_count_c": ("MPI_Isend", "MPI_ERR_COUNT", ["buf", "count 5", "4 elements"]),
}


if __name__ == "__main__":
    fl.main(fl.fatal_case_tests("fortran_bad", CASES))
