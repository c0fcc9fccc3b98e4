! Bad input from Fortran (fortran_bad.py): rank 1 makes the call named by
! the first argument while rank 0 waits in a receive nobody matches; the
! job must end with the one-line message naming the Fortran call.
program fortran_bad
  use mpi_f08
  implicit none
  character(len=32) :: what
  integer :: rank, x
  double precision :: a(4, 4), b(4)
  type(MPI_Request) :: req

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call get_command_argument(1, what)
  a = 1
  if (rank == 0) then
    call MPI_Recv(x, 1, MPI_INTEGER, 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  else
    select case (trim(what))
    case ('mpi_send_dest')
      call bad_send_mpi()
    case ('f08_send_dest')
      call MPI_Send(a, 1, MPI_DOUBLE_PRECISION, 5, 0, MPI_COMM_WORLD)
    case ('f08_section_ireduce')
      call MPI_Iallreduce(a(1, :), b, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req)
    case ('f08_section_type')
      call MPI_Isend(a(1, :), 4, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, req)
    case ('f08_section_count_c')
      ! The large-count overload (MPI_Isend_c) is MPI_Isend to the program.
      call MPI_Isend(a(1, :), 5_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, 0, 0, MPI_COMM_WORLD, req)
    end select
    print '(A)', 'fortran_bad: the call was not reported as an error'
  end if
  call MPI_Finalize()

contains

  ! Through `use mpi` (its names are MPI_SEND, ...).
  subroutine bad_send_mpi()
    use mpi, only : MPI_SEND, MPI_INTEGER_ => MPI_INTEGER, MPI_COMM_WORLD_ => MPI_COMM_WORLD
    integer :: ierr, y
    y = 0
    call MPI_SEND(y, 1, MPI_INTEGER_, 5, 0, MPI_COMM_WORLD_, ierr)
  end subroutine
end program
