"""Bad MPI-IO input with MPI_ERRORS_ARE_FATAL on MPI_FILE_NULL (io_fatal.c):
the job ends with a non-zero exit status and one line 'ringmpi: rank 1:
CALL: ... (CLASS): ...' naming the argument and why; neither a crash nor a
hang."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, failing rank, call, class, words the message must contain)
CASES = {
    "amode": (3, None, "MPI_File_open", "MPI_ERR_AMODE", ["MPI_MODE_RDONLY", "MPI_MODE_CREATE"]),
    "missing": (2, None, "MPI_File_open", "MPI_ERR_NO_SUCH_FILE", ["could not open", "ringmpi_io_fatal_missing_"]),
    "read_wronly": (2, 1, "MPI_File_read", "MPI_ERR_ACCESS", ["MPI_MODE_WRONLY"]),
    "bad_handle": (2, 1, "MPI_File_write", "MPI_ERR_FILE", ["fh=0x5eed", "not an open file"]),
    "negative_offset": (2, 1, "MPI_File_read_at", "MPI_ERR_ARG", ["offset=-1"]),
    "negative_count": (2, 1, "MPI_File_write_at", "MPI_ERR_COUNT", ["count=-3"]),
    "sequential": (2, 1, "MPI_File_write_at", "MPI_ERR_UNSUPPORTED_OPERATION", ["MPI_MODE_SEQUENTIAL"]),
    "seek_before_start": (2, 1, "MPI_File_seek", "MPI_ERR_ARG", ["offset=-4", "before the start"]),
    "split_twice": (2, 1, "MPI_File_write_at_all_begin", "MPI_ERR_OTHER", ["still active"]),
    "spawn": (2, 1, "MPI_Comm_spawn", "MPI_ERR_SPAWN", ["cannot run 'x'"]),  # issue 32: spawn works, 'x' does not exist
}

if __name__ == "__main__":
    # The jobs end before MPI_File_close, so MPI_MODE_DELETE_ON_CLOSE never
    # runs: their files go into a folder of this script's, removed after.
    with tempfile.TemporaryDirectory(prefix="ringmpi-io-fatal-") as d:
        os.environ["TMPDIR"] = d
        sys.exit(fl.report(fl.check_fatal_cases(fl.fatal_args(), CASES)))
