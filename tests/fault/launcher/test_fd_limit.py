"""mpiexec raises its open-file soft limit when it starts with one too small
for the ranks' pipes (200 ranks under a soft limit of 256), and gives the
ranks the original limit back. Skipped (exit 77) where the hard limit is
below what 200 ranks need: then nothing here is checked. A script of its
own, so that the skip hides no other test's pass."""
import os
import resource
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl


def test_fd_soft_limit_is_raised_for_many_ranks(ctx):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        fl.skip("hard open-file limit %d too small for 200 ranks" % hard)
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
    fl.main([test_fd_soft_limit_is_raised_for_many_ranks])
