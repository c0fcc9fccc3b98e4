"""Output forwarding: every line of every rank arrives whole, nothing is
lost at megabytes, a last line without newline still arrives, and a closed
stdout ends the job as it would end a plain pipeline."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl

LINE = re.compile(r"^rank (\d+) line (\d+) abcdefghijklmnopqrstuvwxyz0123456789 end$")


def check_numbered_lines(r, np, count):
    seen = {rank: [] for rank in range(np)}
    for line in r.lines():
        m = LINE.match(line)
        fl.check(m is not None, "broken or mixed line %r" % line[:200], r)
        seen[int(m.group(1))].append(int(m.group(2)))
    for rank in range(np):
        fl.check_eq(seen[rank], list(range(count)), "line numbers of rank %d, in order" % rank, r)


def test_1000_lines_from_each_rank_arrive_whole(ctx):
    for np in (1, 2, 4, 8):
        r = ctx.mpiexec(["-n", str(np), ctx.prog("fl_rank")], env={"FL_SPEC": "*:lines=1000,finalize"})
        fl.check_status(r, 0)
        check_numbered_lines(r, np, 1000)


def test_stderr_lines_arrive_whole_too(ctx):
    r = ctx.mpiexec(["-n", "8", "sh", "-c", 'i=0; while [ $i -lt 300 ]; do echo "err $RINGMPI_RANK $i" >&2; '
                     'i=$((i+1)); done'])
    fl.check_status(r, 0)
    for rank in range(8):
        got = [l for l in r.lines("err") if l.startswith("err %d " % rank)]
        fl.check_eq(got, ["err %d %d" % (rank, i) for i in range(300)], "stderr of rank %d" % rank, r)
    fl.check_eq(len(r.lines("err")), 2400, "stderr lines", r)


def test_megabytes_from_one_rank_while_others_talk(ctx):
    size = 6_000_000
    spec = "0:bytes=%d,finalize;*:lines=1000,finalize" % size
    r = ctx.mpiexec(["-n", "4", ctx.prog("fl_rank")], env={"FL_SPEC": spec})
    fl.check_status(r, 0)
    big = [l for l in r.lines() if l.startswith("a")]
    fl.check_eq(sum(len(l) + 1 for l in big), size, "bytes from rank 0", r)
    fl.check(all(l == "a" * 999 for l in big), "rank 0's lines are whole", r)
    r.out = "\n".join(l for l in r.lines() if not l.startswith("a"))
    for rank in (1, 2, 3):
        nums = [int(LINE.match(l).group(2)) for l in r.lines() if l.startswith("rank %d " % rank)]
        fl.check_eq(nums, list(range(1000)), "lines of rank %d" % rank, r)


def test_a_last_line_without_newline_is_delivered(ctx):
    r = ctx.mpiexec(["-n", "1", ctx.prog("fl_rank")], env={"FL_SPEC": "*:partial=no newline here,finalize"})
    fl.check_status(r, 0)
    fl.check_eq(r.out, "no newline here", "stdout, byte for byte", r)
    r = ctx.mpiexec(["-n", "2", ctx.prog("fl_rank")], env={"FL_SPEC": "0:partial=zero,finalize;1:partial=one,finalize"})
    fl.check_status(r, 0)
    fl.check(r.out in ("zero\none", "one\nzero"), "two partial lines stay apart", r)


def test_binary_stream_of_one_rank_is_exact(ctx):
    data = os.urandom(300000)
    path = ctx.path("blob.bin")
    with open(path, "wb") as f:
        f.write(data)
    p = subprocess.run([ctx.mpiexec_path, "-n", "1", "cat", path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=ctx.base_env(), timeout=30)
    fl.check(p.returncode == 0 and p.stdout == data, "np=1 output is byte-exact (rc %d, %d bytes)" %
             (p.returncode, len(p.stdout)))


def test_closed_stdout_ends_the_job_like_a_pipeline(ctx):
    env = ctx.base_env()
    env["FL_SPEC"] = "0:bytes=200000000,finalize;*:finalize"
    p = subprocess.Popen([ctx.mpiexec_path, "-n", "2", ctx.prog("fl_rank")], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env, start_new_session=True)
    p.stdout.readline()
    p.stdout.close()
    try:
        err = p.stderr.read()
        rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        raise fl.Failure("mpiexec did not end after its stdout was closed")
    fl.check_eq(rc, 128 + 13, "exit status (rank 0 got SIGPIPE)")
    fl.check(b"SIGPIPE" in err, "message names SIGPIPE: %r" % err)


if __name__ == "__main__":
    fl.main([test_1000_lines_from_each_rank_arrive_whole, test_stderr_lines_arrive_whole_too,
             test_megabytes_from_one_rank_while_others_talk, test_a_last_line_without_newline_is_delivered,
             test_binary_stream_of_one_rank_is_exact, test_closed_stdout_ends_the_job_like_a_pipeline])
