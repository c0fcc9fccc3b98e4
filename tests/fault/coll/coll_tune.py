"""ringmpi-tune --quick end to end (issue 34): it times the families under
mpiexec and writes a rules file that mpiexec and MPI_Init accept, with a
rule line per band it chose and its measurements as comments. No timing is
asserted: which algorithm (or way of the segment) wins is the machine's
business."""
import argparse
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--tune", required=True)
    ap.add_argument("--bench", required=True)
    args = ap.parse_args()
    hello = os.path.join(args.build, "examples", "hello")
    failures = []

    def expect(name, cond, p):
        print(("ok   " if cond else "FAIL ") + name)
        if not cond:
            failures.append("%s: exit %d\n--- stdout:\n%s--- stderr:\n%s" % (name, p.returncode, p.stdout, p.stderr))

    env = {k: v for k, v in os.environ.items() if not k.startswith("RINGMPI_")}
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "coll-rules")
        p = subprocess.run([sys.executable, args.tune, "--quick", "--np", "2,3", "-o", out, "--mpiexec", args.mpiexec,
                            "--bench", args.bench], env=env, capture_output=True, text=True, timeout=120)
        expect("ringmpi-tune --quick", p.returncode == 0 and os.path.exists(out) and "written to " + out in p.stdout, p)
        text = open(out).read() if os.path.exists(out) else ""
        rules = [l.split() for l in text.splitlines() if l.strip() and not l.startswith("#")]
        measured = [l for l in text.splitlines() if l.startswith("# bcast np 2: auto=[")]
        ran = [l for l in text.splitlines() if l.startswith("# bcast np 2: auto ran ")]
        expect("the file has the measurements and well-formed rules",
               measured and ran and all(len(r) == 5 and r[4] in ("bound", "oversubscribed") for r in rules), p)
        # The segment's ways are timed as algorithms of their family (a rule may name one).
        expect("the ways are timed", measured and all(" %s=[" % w in measured[0] for w in
                                                     ("segment_slot", "segment_address", "segment_split")), p)
        for np in (2, 3):
            q = subprocess.run([args.mpiexec, "-n", str(np), hello], env=dict(env, RINGMPI_COLL_RULES=out),
                               capture_output=True, text=True, timeout=60)
            expect("mpiexec and MPI_Init accept it, np %d" % np, q.returncode == 0 and q.stdout.count("hello from") == np, q)
        q = subprocess.run([args.mpiexec, "-n", "3", args.bench, "allreduce", "5", "8", "4096"],
                           env=dict(env, RINGMPI_COLL_RULES=out), capture_output=True, text=True, timeout=60)
        expect("the bench runs under the rules", q.returncode == 0 and len(q.stdout.splitlines()) == 2 and
               "-" not in q.stdout, q)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
