! The cost of the mpi_f08 binding, the same loops as pingpong_c.c:
!   mpiexec -n 1 ./pingpong_f08   the time of one 8-byte MPI_Send to
!       MPI_PROC_NULL (the whole call path, no peer: the binding's own cost
!       stands out even on a busy machine), best of 7 batches
!   mpiexec -n 2 ./pingpong_f08   an 8-byte MPI_Send/MPI_Recv ping-pong and
!       a 4 MiB one between ranks 0 and 1: the one-way time (half a round
!       trip) and the 4 MiB bandwidth, best of 7 batches
program pingpong_f08
  use mpi_f08
  implicit none
  integer, parameter :: small_iters = 200000, big_iters = 200, big = 4 * 1024 * 1024
  integer, parameter :: null_iters = 2000000
  integer :: rank, nranks, peer, r, i
  double precision :: small(1), t, best_small, best_big
  double precision, allocatable :: large(:)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  small = 1
  if (nranks == 1) then
    best_small = huge(1d0)
    do r = 1, 7
      t = MPI_Wtime()
      do i = 1, null_iters
        call MPI_Send(small, 1, MPI_DOUBLE_PRECISION, MPI_PROC_NULL, 1, MPI_COMM_WORLD)
      end do
      best_small = min(best_small, (MPI_Wtime() - t) / null_iters)
    end do
    print '(A, F8.2, A)', 'f08: MPI_Send to MPI_PROC_NULL ', best_small * 1d9, ' ns'
    call MPI_Finalize()
    stop
  end if
  peer = 1 - rank
  allocate(large(big / 8))
  small = 1
  large = 1
  best_small = huge(1d0)
  best_big = huge(1d0)
  do r = 1, 7
    call MPI_Barrier(MPI_COMM_WORLD)
    t = MPI_Wtime()
    call pingpong(small, 1, small_iters)
    best_small = min(best_small, (MPI_Wtime() - t) / (2d0 * small_iters))
    call MPI_Barrier(MPI_COMM_WORLD)
    t = MPI_Wtime()
    call pingpong(large, big / 8, big_iters)
    best_big = min(best_big, (MPI_Wtime() - t) / (2d0 * big_iters))
  end do
  if (rank == 0) print '(A, F8.1, A, F8.2, A)', 'f08: 8 B one-way ', best_small * 1d9, ' ns; 4 MiB ', &
    big / best_big / 1d9, ' GB/s'
  call MPI_Finalize()

contains

  subroutine pingpong(buf, n, iters)
    double precision :: buf(:)
    integer, intent(in) :: n, iters
    integer :: i
    do i = 1, iters
      if (rank == 0) then
        call MPI_Send(buf, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD)
        call MPI_Recv(buf, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
      else
        call MPI_Recv(buf, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
        call MPI_Send(buf, n, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD)
      end if
    end do
  end subroutine
end program
