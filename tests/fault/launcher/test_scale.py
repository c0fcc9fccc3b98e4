"""Many ranks: 256 hello ranks start, say hello and finish, also when
mpiexec starts with an open-file soft limit too small for them."""
import os
import re
import resource
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl


def test_256_ranks(ctx):
    r = ctx.mpiexec(["-n", "256", ctx.prog("hello")], limit=120)
    fl.check_status(r, 0)
    got = sorted(int(m.group(1)) for m in re.finditer(r"hello from rank (\d+) of 256", r.out))
    fl.check_eq(got, list(range(256)), "ranks that said hello", r)
    fl.check_no_survivors(r)


def test_fd_soft_limit_is_raised_for_many_ranks(ctx):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        print("  (hard open-file limit %d too small; skipped)" % hard)
        return
    low = 256
    r = ctx.run(["sh", "-c", 'ulimit -Sn %d && exec "$@"' % low, "sh", ctx.mpiexec_path, "-n", "200",
                 ctx.prog("hello")], limit=120)
    fl.check_status(r, 0)
    # The ranks get mpiexec's original limit back.
    r = ctx.run(["sh", "-c", 'ulimit -Sn %d && exec "$@"' % low, "sh", ctx.mpiexec_path, "-n", "100",
                 "sh", "-c", "ulimit -Sn"], limit=120)
    fl.check_status(r, 0)
    fl.check_eq(set(r.lines()), {str(low)}, "ranks' open-file limit", r)


if __name__ == "__main__":
    fl.main([test_256_ranks, test_fd_soft_limit_is_raised_for_many_ranks])
