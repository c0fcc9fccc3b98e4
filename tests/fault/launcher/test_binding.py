"""--bind-to with hwloc: the plan on synthetic topologies (reported, not
applied), and real CPU affinity on this machine."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import faultlib as fl

SYNTH = "numa:2 core:4 pu:2"


def reports(r):
    out = {}
    for line in fl.mpiexec_lines(r):
        m = re.match(r"^mpiexec: rank (\d+) (.*)$", line)
        if m:
            out[int(m.group(1))] = m.group(2)
    return out


def test_core_and_numa_plans_on_a_synthetic_topology(ctx):
    r = ctx.mpiexec(["--report-bindings", "--bind-to", "core", "-n", "8", "true"], env={"HWLOC_SYNTHETIC": SYNTH})
    fl.check_status(r, 0)
    rep = reports(r)
    for rank in range(8):
        fl.check_eq(rep.get(rank), "bound to core %d (cpus %d-%d) [not applied: foreign topology]"
                    % (rank, 2 * rank, 2 * rank + 1), "rank %d" % rank, r)
    r = ctx.mpiexec(["--report-bindings", "--bind-to", "numa", "-n", "8", "true"], env={"HWLOC_SYNTHETIC": SYNTH})
    rep = reports(r)
    for rank in range(8):
        node = rank // 4
        fl.check_eq(rep.get(rank), "bound to NUMA node %d (cpus %d-%d) [not applied: foreign topology]"
                    % (node, 8 * node, 8 * node + 7), "rank %d" % rank, r)


def test_default_binds_only_when_ranks_fit_on_cores(ctx):
    r = ctx.mpiexec(["--report-bindings", "-n", "8", "true"], env={"HWLOC_SYNTHETIC": SYNTH})
    fl.check(reports(r).get(7, "").startswith("bound to core 7"), "8 ranks on 8 cores are bound", r)
    r = ctx.mpiexec(["--report-bindings", "-n", "9", "true"], env={"HWLOC_SYNTHETIC": SYNTH})
    fl.check(reports(r).get(0, "").startswith("not bound (9 ranks > 8 cores)"), "9 ranks on 8 cores are not", r)
    r = ctx.mpiexec(["--report-bindings", "--bind-to", "none", "-n", "2", "true"], env={"HWLOC_SYNTHETIC": SYNTH})
    fl.check(reports(r).get(1, "").startswith("not bound (--bind-to none)"), "none", r)


def cpus_of(r):
    out = {}
    for line in r.lines():
        m = re.match(r"^CPUS (\d+) (\S+)$", line)
        if m:
            out[int(m.group(1))] = m.group(2)
    return out


def test_real_binding_sets_the_affinity(ctx):
    ncpu = len(os.sched_getaffinity(0))
    r = ctx.mpiexec(["--report-bindings", "--bind-to", "core", "-n", "2", ctx.prog("fl_rank")],
                    env={"FL_SPEC": "*:cpus,finalize"})
    fl.check_status(r, 0)
    rep, cpus = reports(r), cpus_of(r)
    for rank in (0, 1):
        m = re.search(r"\(cpus ([0-9,-]+)\)$", rep.get(rank, ""))
        fl.check(m is not None, "rank %d has a binding report" % rank, r)
        fl.check_eq(cpus.get(rank), m.group(1), "rank %d's Cpus_allowed_list" % rank, r)
    if ncpu >= 2:
        fl.check(cpus[0] != cpus[1], "two ranks on two different cores", r)


def test_unbound_ranks_keep_mpiexecs_cpus(ctx):
    mine = os.sched_getaffinity(0)
    r = ctx.mpiexec(["--bind-to", "none", "-n", "2", ctx.prog("fl_rank")], env={"FL_SPEC": "*:cpus,finalize"})
    fl.check_status(r, 0)
    for rank, lst in cpus_of(r).items():
        cpus = set()
        for part in lst.split(","):
            a, _, b = part.partition("-")
            cpus.update(range(int(a), int(b or a) + 1))
        fl.check_eq(cpus, mine, "rank %d's cpus" % rank, r)


if __name__ == "__main__":
    fl.main([test_core_and_numa_plans_on_a_synthetic_topology, test_default_binds_only_when_ranks_fit_on_cores,
             test_real_binding_sets_the_affinity, test_unbound_ranks_keep_mpiexecs_cpus])
