! A profiling tool in Fortran (pmpi.f90 is the program it wraps): it
! defines MPI_SEND (the mpif.h / `use mpi` name, linker name mpi_send_) and
! MPI_Send_f08ts (mpi_f08's linker name, MPI-4.1 §19.1.5), counts the calls
! and forwards them to PMPI_SEND / PMPI_Send.
subroutine MPI_SEND(buf, count, datatype, dest, tag, comm, ierror)
  implicit none
  integer :: buf(*), count, datatype, dest, tag, comm, ierror
  integer :: sends_f77, sends_f08
  common /tool_counts/ sends_f77, sends_f08
  external :: PMPI_SEND
  sends_f77 = sends_f77 + 1
  call PMPI_SEND(buf, count, datatype, dest, tag, comm, ierror)
end subroutine

subroutine tool_send_f08(buf, count, datatype, dest, tag, comm, ierror) bind(C, name="MPI_Send_f08ts")
  use mpi_f08, only : MPI_Datatype, MPI_Comm, PMPI_Send
  use, intrinsic :: iso_c_binding, only : c_int
  implicit none
  type(*), dimension(..), intent(in) :: buf
  integer(c_int), intent(in) :: count, dest, tag  ! INTEGER is C's int with gfortran
  type(MPI_Datatype), intent(in) :: datatype
  type(MPI_Comm), intent(in) :: comm
  integer(c_int), optional, intent(out) :: ierror
  integer :: sends_f77, sends_f08
  common /tool_counts/ sends_f77, sends_f08
  sends_f08 = sends_f08 + 1
  call PMPI_Send(buf, count, datatype, dest, tag, comm, ierror)
end subroutine
