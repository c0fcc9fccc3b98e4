#!/usr/bin/env python3
# A small mpi4py.futures program (issue 32, point 6), run by tests/mpi4py/run.sh.
# Each rank runs three process pools one after the other (each spawns its
# workers from MPI.COMM_SELF), maps a function over them and checks the results.
import sys
from mpi4py import MPI
from mpi4py.futures import MPIPoolExecutor

def work(x):
    return x * x, MPI.COMM_WORLD.Get_size()

if __name__ == '__main__':
    rank = MPI.COMM_WORLD.Get_rank()
    for k in range(3):
        with MPIPoolExecutor(max_workers=2) as ex:
            out = list(ex.map(work, range(50)))
            assert [a for a, _ in out] == [x * x for x in range(50)], out
            assert all(s == 2 for _, s in out), out  # the workers' own world
            f = ex.submit(pow, 2, 10 + rank)
            assert f.result() == 2 ** (10 + rank)
    print("rank %d: futures pool ok" % rank, flush=True)
