"""What every rank gets: its arguments verbatim, the environment (inherited,
-x, -genv), stdin for rank 0 only, and --tag-output labels."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl


def test_arguments_are_passed_verbatim(ctx):
    args = ["a b", "", "'single'", '"double"', "$HOME", "*", "-n", "x\ty", "--tag-output", "back\\slash", "ünïcödé"]
    for np in (1, 3):
        r = ctx.mpiexec(["-n", str(np), ctx.prog("fl_rank")] + args, env={"FL_SPEC": "*:args,finalize"})
        fl.check_status(r, 0)
        for rank in range(np):
            got = [l for l in r.lines() if l.startswith("ARG %d " % rank)]
            want = ["ARG %d %d [%s]" % (rank, i + 1, a) for i, a in enumerate(args)]
            fl.check_eq(got[1:], want, "arguments of rank %d" % rank, r)
            fl.check(got[0].endswith("fl_rank]"), "argv[0] is the program", r)


def test_environment_inherited_exported_and_set(ctx):
    env = {"FL_SPEC": "*:env=INHERITED,env=EXPORTED,env=OVERRIDE,env=GENV,env=EMPTY,env=LATER,env=NOT_SET,finalize",
           "INHERITED": "from the shell", "EXPORTED": "exported value", "OVERRIDE": "original"}
    r = ctx.mpiexec(["-x", "EXPORTED", "-x", "OVERRIDE=over=ridden", "-genv", "GENV", "two words",
                     "-x", "EMPTY=", "-x", "LATER=1", "-genv", "LATER", "2", "-x", "NOT_SET",
                     "-n", "2", ctx.prog("fl_rank")], env=env)
    fl.check_status(r, 0)
    for rank in (0, 1):
        got = [l for l in r.lines() if l.startswith("ENV %d " % rank)]
        fl.check_eq(got, ["ENV %d INHERITED=from the shell" % rank, "ENV %d EXPORTED=exported value" % rank,
                          "ENV %d OVERRIDE=over=ridden" % rank, "ENV %d GENV=two words" % rank,
                          "ENV %d EMPTY=" % rank, "ENV %d LATER=2" % rank, "ENV %d NOT_SET unset" % rank],
                    "environment of rank %d" % rank, r)


def test_ranks_get_their_identity(ctx):
    r = ctx.mpiexec(["-n", "4", "sh", "-c", 'echo "$RINGMPI_RANK/$RINGMPI_SIZE"'])
    fl.check_status(r, 0)
    fl.check_eq(sorted(r.lines()), ["0/4", "1/4", "2/4", "3/4"], "rank/size", r)


def test_stdin_goes_to_rank_0_only(ctx):
    text = "first line\nsecond line\nlast line without newline"
    r = ctx.mpiexec(["-n", "3", ctx.prog("fl_rank")], env={"FL_SPEC": "*:stdin,finalize"}, input=text)
    fl.check_status(r, 0)
    fl.check_eq([l for l in r.lines() if l.startswith("IN 0 ")],
                ["IN 0 first line", "IN 0 second line", "IN 0 last line without newline"], "rank 0 input", r)
    fl.check_in("EOF 0 %d" % len(text), r.lines(), "rank 0 byte count", r)
    for rank in (1, 2):
        fl.check_in("EOF %d 0" % rank, r.lines(), "rank %d reads /dev/null" % rank, r)
        fl.check_eq([l for l in r.lines() if l.startswith("IN %d " % rank)], [], "rank %d input" % rank, r)


def test_large_stdin_arrives_whole(ctx):
    data = "".join("input line %06d\n" % i for i in range(60000))  # ~1.1 MB
    r = ctx.mpiexec(["-n", "2", ctx.prog("fl_rank")], env={"FL_SPEC": "0:stdin,finalize;*:finalize"}, input=data)
    fl.check_status(r, 0)
    fl.check_in("EOF 0 %d" % len(data), r.lines(), "byte count", r)
    fl.check_eq(len([l for l in r.lines() if l.startswith("IN 0 input line")]), 60000, "lines", r)


def test_unread_stdin_does_not_hang_the_job(ctx):
    data = "x" * (4 << 20)
    r = ctx.mpiexec(["-n", "2", ctx.prog("hello")], input=data)
    fl.check_status(r, 0)


def test_stdin_from_a_file(ctx):
    path = ctx.path("input.txt")
    with open(path, "w") as f:
        f.write("alpha\nbeta\n")
    with open(path) as f:
        r = ctx.mpiexec(["-n", "2", ctx.prog("fl_rank")], env={"FL_SPEC": "*:stdin,finalize"}, stdin=f)
    fl.check_status(r, 0)
    fl.check_eq([l for l in r.lines() if l.startswith("IN 0")], ["IN 0 alpha", "IN 0 beta"], "rank 0 input", r)


def test_tag_output_labels_every_line(ctx):
    for np in (1, 4):
        r = ctx.mpiexec(["--tag-output", "-n", str(np), ctx.prog("fl_rank")],
                        env={"FL_SPEC": "*:lines=50,err=to stderr,partial=tail,finalize"})
        fl.check_status(r, 0)
        out = r.lines()
        fl.check_eq(len(out), np * 51, "stdout lines", r)
        for line in out:
            m = re.match(r"^\[(\d+)\] (rank (\d+) line \d+ abcdefghijklmnopqrstuvwxyz0123456789 end|tail)$", line)
            fl.check(m is not None and (m.group(3) is None or m.group(1) == m.group(3)),
                     "badly labelled line %r" % line, r)
        fl.check_eq(sorted(r.lines("err")), sorted("[%d] to stderr" % i for i in range(np)), "stderr", r)


if __name__ == "__main__":
    fl.main([test_arguments_are_passed_verbatim, test_environment_inherited_exported_and_set,
             test_ranks_get_their_identity, test_stdin_goes_to_rank_0_only, test_large_stdin_arrives_whole,
             test_unread_stdin_does_not_hang_the_job, test_stdin_from_a_file, test_tag_output_labels_every_line])
