"""The collective rules file (RINGMPI_COLL_RULES, docs/guide/collective-algorithms.md):
a malformed one stops the job before it starts, mpiexec exiting 2 with one
line naming the file, the line and the problem; a program started without
mpiexec fails MPI_Init with the same line; an unreadable file is named;
a well-formed file, and an empty RINGMPI_COLL_RULES (no rules), run."""
import argparse
import os
import subprocess
import sys
import tempfile

BAD = [
    ("bcast 2 * messages\nallreduce 2-x 4K segment\n", "line 2: np '2-x' is not N, N-M, N- or *"),
    ("# fine\n\nbroadcast 2 * messages\n", "line 3: no collective family 'broadcast'"),
    ("scan * * numa_leaders\n", "line 1: scan has no algorithm 'numa_leaders' (one of: auto segment messages schedule "
     "segment_slot segment_chain segment_address segment_split)"),
    # A rule may name a way of the segment, but only one its family has.
    ("bcast 2 * segment_chunks\n", "line 1: bcast has no algorithm 'segment_chunks' (one of: auto numa_leaders "
     "segment messages schedule segment_slot segment_address segment_split)"),
    ("gather 2 4Q messages\n", "line 1: bytes '4Q' is not N, N-M, N- or *"),
    ("gather 2 * messages extra\n", "line 1: cores 'extra' is not bound, oversubscribed or *"),
    ("gather 2 * messages bound extra\n",
     "line 1: expected '<family> <np> <bytes> <algorithm> [<cores>]', found 6 fields"),
    ("bcast 4-2 * messages\n", "line 1: np '4-2' is not N, N-M, N- or *"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--build", required=True)
    args = ap.parse_args()
    hello = os.path.join(args.build, "examples", "hello")
    failures = []

    def run(cmd, rules):
        env = {k: v for k, v in os.environ.items() if not k.startswith("RINGMPI_")}
        env["RINGMPI_COLL_RULES"] = rules
        return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)

    def expect(name, cond, p):
        print(("ok   " if cond else "FAIL ") + name)
        if not cond:
            failures.append("%s: exit %d\n--- stdout:\n%s--- stderr:\n%s" % (name, p.returncode, p.stdout, p.stderr))

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "coll-rules")
        for text, problem in BAD:
            with open(path, "w") as f:
                f.write(text)
            want = "collective rules file %s, %s" % (path, problem)
            p = run([args.mpiexec, "-n", "2", hello], path)
            lines = p.stderr.splitlines()
            expect("mpiexec refuses: " + problem, p.returncode == 2 and len(lines) >= 1 and lines[0].startswith("mpiexec: " + want)
                   and "hello from" not in p.stdout, p)
            p = run([hello], path)
            expect("MPI_Init fails: " + problem, p.returncode == 1 and
                   p.stderr.startswith("ringmpi: MPI_Init failed: " + want)
                   and p.stderr.count("\n") == 1, p)
        missing = os.path.join(d, "absent")
        p = run([args.mpiexec, "-n", "2", hello], missing)
        expect("missing file named", p.returncode == 2 and "collective rules file " + missing + ": cannot read it (" in p.stderr, p)
        with open(path, "w") as f:
            f.write("# comments only, and a good line\nbcast 2- 0-16K messages  # small\nbarrier * * auto\n"
                    "allreduce * * segment_chunks  # a way of the segment\n")
        for np in (1, 3):
            p = run([args.mpiexec, "-n", str(np), hello], path)
            expect("good file runs np %d" % np, p.returncode == 0 and p.stdout.count("hello from") == np, p)
        p = run([args.mpiexec, "-n", "2", hello], "")
        expect("empty RINGMPI_COLL_RULES: no rules", p.returncode == 0, p)
        # The standard place: $XDG_CONFIG_HOME/ringmpi/coll-rules when
        # RINGMPI_COLL_RULES is unset; set and empty, no file is read.
        xdg = os.path.join(d, "xdg")
        os.makedirs(os.path.join(xdg, "ringmpi"))
        with open(os.path.join(xdg, "ringmpi", "coll-rules"), "w") as f:
            f.write("bcast 2 * fastest\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("RINGMPI_")}
        env["XDG_CONFIG_HOME"] = xdg
        p = subprocess.run([args.mpiexec, "-n", "2", hello], env=env, capture_output=True, text=True, timeout=60)
        expect("$XDG_CONFIG_HOME/ringmpi/coll-rules read", p.returncode == 2 and
               os.path.join(xdg, "ringmpi", "coll-rules") + ", line 1: bcast has no algorithm 'fastest'" in p.stderr, p)
        env["RINGMPI_COLL_RULES"] = ""
        p = subprocess.run([args.mpiexec, "-n", "2", hello], env=env, capture_output=True, text=True, timeout=60)
        expect("RINGMPI_COLL_RULES= reads none", p.returncode == 0, p)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
