"""mpiexec falls back to poll(2) when io_uring_setup is refused (no_uring
runs it under a seccomp filter that fails the call with EPERM, as a
container's policy or kernel.io_uring_disabled=2 does). Skipped (exit 77)
where seccomp filters cannot be installed: then nothing here is checked.
A script of its own, so that the skip hides no other test's pass."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl


def test_io_uring_refused_falls_back_to_poll(ctx):
    r = ctx.run([ctx.prog("no_uring"), ctx.mpiexec_path, "-v", "-n", "4", ctx.prog("fl_rank")],
                env={"FL_SPEC": "*:lines=200,barrier,finalize"})
    if r.rc == 77:
        fl.skip("seccomp unavailable: " + r.err.strip())
    fl.check_status(r, 0)
    if not ctx.poll:
        fl.check_in("event loop: poll (io_uring unavailable: Operation not permitted)", r.err, "fallback", r)
    fl.check_eq(len(r.lines()), 800, "lines forwarded by the fallback", r)


if __name__ == "__main__":
    fl.main([test_io_uring_refused_falls_back_to_poll])
