! The profiling interface of the Fortran bindings: pmpi_tool.f90 wraps
! MPI_SEND and mpi_f08's MPI_Send; the calls of this program reach the
! tool's wrappers, which reach the library through the PMPI_ names.
module pmpi_sends
  use mpi
  implicit none
contains
  subroutine send_mpi(x, dest)
    integer :: x, dest, ierr
    call MPI_Send(x, 1, MPI_INTEGER, dest, 1, MPI_COMM_WORLD, ierr)
  end subroutine
end module

program tool_wrapped
  use mpi_f08
  use pmpi_sends, only : send_mpi
  implicit none
  integer :: rank, np, x, sends_f77, sends_f08
  common /tool_counts/ sends_f77, sends_f08
  sends_f77 = 0
  sends_f08 = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  if (rank > 0) then
    call MPI_Send(rank, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD)
    call send_mpi(rank, 0)
  else
    do x = 1, 2 * (np - 1)
      call MPI_Recv(sends_f77, 1, MPI_INTEGER, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    end do
    sends_f77 = 0
  end if
  if (rank > 0 .and. (sends_f77 /= 1 .or. sends_f08 /= 1)) then
    print '(A, 2I3)', 'pmpi: failed: the tool counted (use mpi, mpi_f08)', sends_f77, sends_f08
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  call MPI_Finalize()
  if (rank == 0) print '(A)', 'pmpi: ok'
end program
