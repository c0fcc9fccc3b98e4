! Pi by integration, in Fortran with mpi_f08 (pi.c is the same program in C):
! pi = integral of 4 / (1 + x^2) over [0, 1], cut into n strips; rank r adds
! up the strips r, r+size, r+2*size, ... and MPI_Reduce sums the partial
! results on rank 0. ierror is optional in mpi_f08: errors end the job
! (MPI_ERRORS_ARE_FATAL) unless a program asks otherwise.
program pi_f08
  use mpi_f08
  implicit none
  integer, parameter :: n = 1000000
  integer :: rank, nranks, i
  double precision :: h, x, mine, pi, error

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  h = 1.0d0 / n
  mine = 0.0d0
  do i = rank, n - 1, nranks
    x = h * (i + 0.5d0)
    mine = mine + 4.0d0 / (1.0d0 + x * x)
  end do
  mine = mine * h
  pi = 0.0d0
  call MPI_Reduce(mine, pi, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD)  ! pi is set on rank 0 only
  if (rank == 0) then
    error = abs(pi - 3.14159265358979323846d0)
    print '(A, F14.12, A, ES8.1, A, I0, A, I0, A)', 'pi is about ', pi, ' (error ', error, ') from ', n, &
      ' strips on ', nranks, ' ranks'
    if (error > 1d-9) call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  call MPI_Finalize()
end program
