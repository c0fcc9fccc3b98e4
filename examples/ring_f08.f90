! Ring, in Fortran with mpi_f08 (ring.c is the same program in C): a token
! goes once around all ranks. Rank 0 starts it; every other rank receives it
! from its left neighbour, adds its own rank and passes it on to the right;
! rank 0 finally receives 0+1+...+(size-1).
program ring_f08
  use mpi_f08
  implicit none
  integer, parameter :: tag = 7
  integer :: rank, nranks, left, right, token, want

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  token = 0
  if (rank == 0) then
    ! Send first, then wait for the token to come back.
    call MPI_Send(token, 1, MPI_INTEGER, right, tag, MPI_COMM_WORLD)
    call MPI_Recv(token, 1, MPI_INTEGER, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    want = nranks * (nranks - 1) / 2
    print '(A, I0, A, I0, A, I0, A)', 'ring: the token came back with ', token, ' (want ', want, &
      ') after visiting ', nranks, ' ranks'
    if (token /= want) call MPI_Abort(MPI_COMM_WORLD, 1)
  else
    call MPI_Recv(token, 1, MPI_INTEGER, left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    token = token + rank
    call MPI_Send(token, 1, MPI_INTEGER, right, tag, MPI_COMM_WORLD)
  end if
  call MPI_Finalize()
end program
