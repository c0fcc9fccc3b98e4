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

! mpi_f08's procedures with procedure arguments are not BIND(C) (MPI-4.1
! §20.1.5): a tool defines the specific procedure as an external procedure
! of the same name (outside any module), here MPI_Op_create_f08,
! MPI_Comm_create_keyval_f08, MPI_Comm_create_errhandler_f08 and
! MPI_Grequest_start_f08, and calls the PMPI_ generic, which reaches the
! library.
subroutine MPI_Op_create_f08(user_fn, commute, op, ierror)
  use mpi_f08, only : MPI_User_function, MPI_Op, PMPI_Op_create
  implicit none
  procedure(MPI_User_function) :: user_fn
  logical, intent(in) :: commute
  type(MPI_Op), intent(out) :: op
  integer, optional, intent(out) :: ierror
  integer :: ops, keyvals, errhandlers
  common /tool_creates/ ops, keyvals, errhandlers
  ops = ops + 1
  call PMPI_Op_create(user_fn, commute, op, ierror)
end subroutine

subroutine MPI_Comm_create_keyval_f08(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state, ierror)
  use mpi_f08, only : MPI_Comm_copy_attr_function, MPI_Comm_delete_attr_function, MPI_ADDRESS_KIND, &
    PMPI_Comm_create_keyval
  implicit none
  procedure(MPI_Comm_copy_attr_function) :: comm_copy_attr_fn
  procedure(MPI_Comm_delete_attr_function) :: comm_delete_attr_fn
  integer, intent(out) :: comm_keyval
  integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
  integer, optional, intent(out) :: ierror
  integer :: ops, keyvals, errhandlers
  common /tool_creates/ ops, keyvals, errhandlers
  keyvals = keyvals + 1
  call PMPI_Comm_create_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state, ierror)
end subroutine

subroutine MPI_Comm_create_errhandler_f08(comm_errhandler_fn, errhandler, ierror)
  use mpi_f08, only : MPI_Comm_errhandler_function, MPI_Errhandler, PMPI_Comm_create_errhandler
  implicit none
  procedure(MPI_Comm_errhandler_function) :: comm_errhandler_fn
  type(MPI_Errhandler), intent(out) :: errhandler
  integer, optional, intent(out) :: ierror
  integer :: ops, keyvals, errhandlers
  common /tool_creates/ ops, keyvals, errhandlers
  errhandlers = errhandlers + 1
  call PMPI_Comm_create_errhandler(comm_errhandler_fn, errhandler, ierror)
end subroutine

subroutine MPI_Grequest_start_f08(query_fn, free_fn, cancel_fn, extra_state, request, ierror)
  use mpi_f08, only : MPI_Grequest_query_function, MPI_Grequest_free_function, MPI_Grequest_cancel_function, &
    MPI_ADDRESS_KIND, MPI_Request, PMPI_Grequest_start
  implicit none
  procedure(MPI_Grequest_query_function) :: query_fn
  procedure(MPI_Grequest_free_function) :: free_fn
  procedure(MPI_Grequest_cancel_function) :: cancel_fn
  integer(kind=MPI_ADDRESS_KIND), intent(in) :: extra_state
  type(MPI_Request), intent(out) :: request
  integer, optional, intent(out) :: ierror
  integer :: grequests
  common /tool_grequests/ grequests
  grequests = grequests + 1
  call PMPI_Grequest_start(query_fn, free_fn, cancel_fn, extra_state, request, ierror)
end subroutine
