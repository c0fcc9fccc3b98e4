! The cost of each Fortran binding, the same loops as pingpong_c.c, built
! once per binding (-DBINDING_MPIF: mpif.h, -DBINDING_MPI: `use mpi`,
! otherwise `use mpi_f08`):
!   mpiexec -n 1 ./pingpong_X   the time of one 8-byte MPI_Send to
!       MPI_PROC_NULL (the whole call path, no peer: the binding's own cost
!       stands out even on a busy machine), best of 7 batches
!   mpiexec -n 2 ./pingpong_X   an 8-byte MPI_Send/MPI_Recv ping-pong and
!       a 4 MiB one between ranks 0 and 1: the one-way time (half a round
!       trip) and the 4 MiB bandwidth, best of 7 batches
! (PINGPONG_NULL_ITERS and PINGPONG_ITERS in the environment set the calls
! of a batch to MPI_PROC_NULL and the round trips of an 8-byte batch.)
! Every call passes ierror (optional in mpi_f08, required in the others), so
! the one source serves all three, and MPICH's too (run_bench.py).
program pingpong
#if defined(BINDING_MPI)
  use mpi
#elif !defined(BINDING_MPIF)
  use mpi_f08
#endif
  implicit none
#if defined(BINDING_MPIF)
  include 'mpif.h'
  character(len=*), parameter :: label = 'mpif.h: '
#elif defined(BINDING_MPI)
  character(len=*), parameter :: label = 'use mpi:'
#else
  character(len=*), parameter :: label = 'f08:    '
#endif
  integer, parameter :: big_iters = 50, big = 4 * 1024 * 1024
  integer :: small_iters = 50000
  integer :: null_iters = 1000000
  integer :: rank, nranks, peer, r, i, ierr, st
  double precision :: small(1), t, best_small, best_big
  double precision, allocatable :: large(:)
  character(len=16) :: env

  ! PINGPONG_NULL_ITERS: the calls per batch to MPI_PROC_NULL (run_bench.py
  ! counts instructions with two values under callgrind).
  call get_environment_variable('PINGPONG_NULL_ITERS', env, status=st)
  if (st == 0) read (env, *) null_iters
  ! PINGPONG_ITERS: the round trips of an 8-byte batch.
  call get_environment_variable('PINGPONG_ITERS', env, status=st)
  if (st == 0) read (env, *) small_iters

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  small = 1
  if (nranks == 1) then
    best_small = huge(1d0)
    do r = 1, 7
      t = MPI_Wtime()
      do i = 1, null_iters
        call MPI_Send(small, 1, MPI_DOUBLE_PRECISION, MPI_PROC_NULL, 1, MPI_COMM_WORLD, ierr)
      end do
      best_small = min(best_small, (MPI_Wtime() - t) / null_iters)
    end do
    print '(2A, F8.2, A)', label, ' MPI_Send to MPI_PROC_NULL ', best_small * 1d9, ' ns'
    call MPI_Finalize(ierr)
    stop
  end if
  peer = 1 - rank
  allocate(large(big / 8))
  large = 1
  best_small = huge(1d0)
  best_big = huge(1d0)
  do r = 1, 7
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    t = MPI_Wtime()
    call pingpong_loop(small, 1, small_iters)
    best_small = min(best_small, (MPI_Wtime() - t) / (2d0 * small_iters))
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    t = MPI_Wtime()
    call pingpong_loop(large, big / 8, big_iters)
    best_big = min(best_big, (MPI_Wtime() - t) / (2d0 * big_iters))
  end do
  if (rank == 0) print '(2A, F8.1, A, F8.2, A)', label, ' 8 B one-way ', best_small * 1d9, ' ns; 4 MiB ', &
    big / best_big / 1d9, ' GB/s'
  call MPI_Finalize(ierr)

contains

  subroutine pingpong_loop(buf, n, iters)
    double precision :: buf(:)
    integer, intent(in) :: n, iters
    integer :: i
    do i = 1, iters
      if (rank == 0) then
        call MPI_Send(buf, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, ierr)
        call MPI_Recv(buf, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      else
        call MPI_Recv(buf, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
        call MPI_Send(buf, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, ierr)
      end if
    end do
  end subroutine
end program
