"""Bad input to MPI_Comm_spawn: under MPI_ERRORS_ARE_FATAL the job ends with
one line naming the rank, the call, the class and the argument (the command
for one that does not exist); under MPI_ERRORS_RETURN every case returns its
class on every rank, the root gets MPI_ERR_SPAWN per process, and nobody
hangs (spawn_bad.c)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl  # noqa: E402

# case -> (np, call, class, words the message must contain). An argument
# significant at the root only is checked at np 1: at np 2 both ranks stop
# on a fatal error at once (the other rank's message says only that the
# root's arguments were bad) and mpiexec may kill the root before it
# prints its own; the np 2 and 3 runs of the same calls with errors
# returned (check_returns below) cover the other ranks.
CASES = {
    "no_such_command": (1, "MPI_Comm_spawn", "MPI_ERR_SPAWN", ["'/nonexistent/ringmpi-prog'", "No such file"]),
    "not_in_path": (1, "MPI_Comm_spawn", "MPI_ERR_SPAWN", ["'ringmpi-no-such-program'", "not found in PATH"]),
    "maxprocs_negative": (1, "MPI_Comm_spawn", "MPI_ERR_ARG", ["maxprocs=-1"]),
    "maxprocs_too_many": (1, "MPI_Comm_spawn", "MPI_ERR_SPAWN", ["100000", "--universe-size"]),
    "bad_host": (1, "MPI_Comm_spawn", "MPI_ERR_SPAWN", ["host='elsewhere.invalid'"]),
    "bad_soft": (1, "MPI_Comm_spawn", "MPI_ERR_INFO", ["soft='1:x'"]),
    "bad_wdir": (1, "MPI_Comm_spawn", "MPI_ERR_SPAWN", ["/nonexistent/dir"]),
    "bad_root": (2, "MPI_Comm_spawn", "MPI_ERR_ROOT", ["root=2"]),
    "lookup_name": (1, "MPI_Lookup_name", "MPI_ERR_NAME", ["'ringmpi-never-published'", "not published"]),
    "bad_port": (2, "MPI_Comm_connect", "MPI_ERR_PORT", ["'tcp://elsewhere:1'", "not a port name"]),
    "closed_port": (2, "MPI_Comm_connect", "MPI_ERR_PORT", ["is not open"]),
    "foreign_port": (1, "MPI_Comm_connect", "MPI_ERR_PORT", ["is not open", "its job has ended"]),
}


def main():
    args = fl.fatal_args()
    failures = fl.check_fatal_cases(args, {case: (np, None, call, cls, words)
                                           for case, (np, call, cls, words) in CASES.items()})
    fl.check_returns(args, (1, 2, 3), "all error codes as expected", failures)
    return fl.report(failures)


if __name__ == "__main__":
    sys.exit(main())
