"""mpiexec --trace end to end (python3, stdlib only).

    python3 trace_test.py --mpiexec PATH --prog TRACED --tool RINGMPI_TRACE --np N

Runs tests/trace/traced.c at N ranks with --trace and checks what a user
looking at the file would see: it is valid JSON (python3 -m json.tool), one
pid per rank named "rank N", the MPI calls the program made with their
arguments, one flow (s/f pair) per message with the same byte count at both
ends and every message the program sent with its size; then that
`ringmpi-trace svg` draws every call and message and that `ringmpi-trace
summary` prints the right bytes per pair. Finally a run in which rank 1
crashes still leaves a valid file and no temporary files.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(cmd, env=None, timeout=120):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, timeout=timeout)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--tool", required=True)
    ap.add_argument("--np", type=int, required=True)
    a = ap.parse_args()
    n = a.np

    with tempfile.TemporaryDirectory(prefix="trace-test-") as work:
        tmp = os.path.join(work, "tmp")
        os.mkdir(tmp)
        env = dict(os.environ, TMPDIR=tmp)
        out = os.path.join(work, "trace.json")
        r = run([a.mpiexec, "-n", str(n), "--trace", out, a.prog], env=env)
        check(r.returncode == 0, "traced run exits 0 (got %d; stderr: %s)" % (r.returncode, r.stderr))
        check(os.listdir(tmp) == [], "no temporary trace files left: %s" % os.listdir(tmp))
        v = run([sys.executable, "-m", "json.tool", out])
        check(v.returncode == 0, "python3 -m json.tool accepts the trace: %s" % v.stderr)
        with open(out) as f:
            doc = json.load(f)
        ev = doc["traceEvents"]

        names = {e["pid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "process_name"}
        check(names == {r: "rank %d" % r for r in range(n)}, "one pid per rank named 'rank N': %s" % names)
        calls = [e for e in ev if e.get("ph") == "X"]
        check({e["pid"] for e in calls} == set(range(n)), "calls on every rank")
        by_rank = collections.defaultdict(list)
        for e in calls:
            by_rank[e["pid"]].append(e)
            check(e["dur"] >= 0 and e["ts"] >= 0, "call times are sane: %s" % e)
        for r in range(n):
            got = {e["name"] for e in by_rank[r]}
            want = {"MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Irecv", "MPI_Isend", "MPI_Waitall",
                    "MPI_Bcast", "MPI_Allreduce", "MPI_Finalize"}
            want |= {"MPI_Send"} if r == 0 and n > 1 else set()
            want |= {"MPI_Recv"} if r > 0 else set()
            check(want <= got, "rank %d made calls %s (missing %s)" % (r, sorted(got), sorted(want - got)))
        # Arguments of the calls.
        sends0 = [e for e in by_rank[0] if e["name"] == "MPI_Send"]
        for r in range(1, n):
            want = {"peer": r, "tag": 100 + r, "count": 10 * r, "datatype": "MPI_INT", "comm": "MPI_COMM_WORLD"}
            check(any(e["args"] == want for e in sends0), "rank 0 MPI_Send args %s in %s" % (want, sends0))
        bc = [e for e in calls if e["name"] == "MPI_Bcast"]
        check(len(bc) == n and all(e["args"].get("peer") == 0 and e["args"].get("count") == 8 and
                                   e["args"].get("datatype") == "MPI_INT" for e in bc), "MPI_Bcast args: %s" % bc)
        ar = [e for e in calls if e["name"] == "MPI_Allreduce"]
        check(len(ar) == n and all(e["args"].get("count") == 1 for e in ar), "MPI_Allreduce args: %s" % ar)

        # Flows: one s and one f per id, same bytes, f on the receiver after s.
        starts = {e["id"]: e for e in ev if e.get("ph") == "s"}
        ends = [e for e in ev if e.get("ph") == "f"]
        check(len(ends) == len(starts) and {e["id"] for e in ends} == set(starts), "every flow has one s and one f")
        check(all(e.get("bp") == "e" for e in ends), "flow ends bind to the enclosing slice (bp=e)")
        unreceived = [e for e in ev if e.get("name") == "unreceived message"]
        check(unreceived == [], "every message was received: %s" % unreceived)
        flows = []
        for f in ends:
            s = starts.get(f["id"])
            if not s:
                continue
            check(s["args"]["bytes"] == f["args"]["bytes"], "flow %s: same bytes at both ends" % f["id"])
            check(s["pid"] == s["args"]["src"] and f["pid"] == s["args"]["dst"], "flow %s: pids are src/dst" % f["id"])
            check(f["ts"] >= s["ts"], "flow %s: received after sent" % f["id"])
            inside = any(c["ts"] <= f["ts"] <= c["ts"] + c["dur"] for c in by_rank[f["pid"]])
            check(inside, "flow %s ends inside an MPI call of the receiver" % f["id"])
            flows.append(s["args"])

        def count(src, dst, tag, nbytes):
            return sum(1 for m in flows if (m["src"], m["dst"], m["tag"], m["bytes"]) == (src, dst, tag, nbytes))

        for r in range(1, n):
            check(count(0, r, 100 + r, 40 * r) == 1, "one message 0->%d tag %d of %d bytes" % (r, 100 + r, 40 * r))
        for r in range(n):
            check(count(r, (r + 1) % n, 7, 24) == 1, "one ring message %d->%d of 24 bytes" % (r, (r + 1) % n))
        if n > 1:
            check(count(1, 0, 200, 1 << 20) == 1, "one 1 MiB message 1->0 (rendezvous)")

        # SVG: every call a box, every message a line.
        svg = os.path.join(work, "trace.svg")
        r = run([sys.executable, a.tool, "svg", out, "-o", svg])
        check(r.returncode == 0, "ringmpi-trace svg exits 0: %s" % r.stderr)
        root = ET.parse(svg).getroot()
        ns = "{http://www.w3.org/2000/svg}"
        boxes = [x for x in root.iter(ns + "rect") if x.find(ns + "title") is not None]
        lines = [x for x in root.iter(ns + "line") if x.find(ns + "title") is not None]
        check(len(boxes) == len(calls), "svg: %d boxes for %d calls" % (len(boxes), len(calls)))
        check(len(lines) == len(flows), "svg: %d lines for %d messages" % (len(lines), len(flows)))

        # Summary: bytes per pair equal to the flows' sums.
        r = run([sys.executable, a.tool, "summary", out])
        check(r.returncode == 0, "ringmpi-trace summary exits 0: %s" % r.stderr)
        want = collections.Counter()
        msgs = collections.Counter()
        for m in flows:
            want[(m["src"], m["dst"])] += m["bytes"]
            msgs[(m["src"], m["dst"])] += 1
        got = {}
        for line in r.stdout.splitlines():
            mm = re.match(r"^(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)$", line)
            if mm:
                src, dst, k, b, _ = map(int, mm.groups())
                got[(src, dst)] = (k, b)
        check(got == {p: (msgs[p], want[p]) for p in want}, "summary bytes per pair %s == %s" % (got, dict(want)))
        check(re.search(r"^MPI_Allreduce\s", r.stdout, re.M) is not None, "summary lists MPI_Allreduce")

        # A rank that crashes: the job fails, the file is still valid JSON, nothing is left behind.
        if n > 1:
            crash_out = os.path.join(work, "crash.json")
            r = run([a.mpiexec, "-n", str(n), "--trace", crash_out, a.prog, "crash"], env=env)
            check(r.returncode != 0, "crashing run fails (got %d)" % r.returncode)
            check(os.listdir(tmp) == [], "crash: no temporary trace files left: %s" % os.listdir(tmp))
            with open(crash_out) as f:
                cdoc = json.load(f)
            check(any(e.get("ph") == "M" for e in cdoc["traceEvents"]), "crash: the file names the ranks")

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("trace np=%d: all checks passed" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
