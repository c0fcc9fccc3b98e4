"""Many ranks: 256 hello ranks start, say hello and finish. (With an
open-file soft limit too small for them: test_fd_limit.py, which can be
skipped.)"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl


def test_256_ranks(ctx):
    r = ctx.mpiexec(["-n", "256", ctx.prog("hello")], limit=120)
    fl.check_status(r, 0)
    got = sorted(int(m.group(1)) for m in re.finditer(r"hello from rank (\d+) of 256", r.out))
    fl.check_eq(got, list(range(256)), "ranks that said hello", r)
    fl.check_no_survivors(r)


if __name__ == "__main__":
    fl.main([test_256_ranks])
