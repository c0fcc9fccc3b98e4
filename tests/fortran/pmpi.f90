! The profiling interface of the Fortran bindings: pmpi_tool.f90 wraps
! MPI_SEND, mpi_f08's MPI_Send and mpi_f08's MPI_Op_create,
! MPI_Comm_create_keyval, MPI_Comm_create_errhandler and
! MPI_Grequest_start (procedure arguments); the calls of this program
! reach the tool's wrappers, which reach the library through the PMPI_
! names, and the callbacks work.
module pmpi_sends
  use mpi
  implicit none
contains
  subroutine send_mpi(x, dest)
    integer :: x, dest, ierr
    call MPI_Send(x, 1, MPI_INTEGER, dest, 1, MPI_COMM_WORLD, ierr)
  end subroutine
end module

module pmpi_callbacks
  use mpi_f08
  implicit none
  integer :: deleted = 0, errors = 0, freed = 0
contains
  subroutine maxabs(invec, inoutvec, len, datatype)
    use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(abs(a), abs(b))
  end subroutine
  subroutine on_delete(comm, keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deleted = deleted + int(attribute_val + extra_state)
    ierror = MPI_SUCCESS
  end subroutine
  subroutine on_error(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    errors = errors + 1
  end subroutine
  subroutine greq_query(extra_state, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    type(MPI_Status) :: status
    integer :: ierror
    call MPI_Status_set_elements(status, MPI_INTEGER, int(extra_state))
    call MPI_Status_set_cancelled(status, .false.)
    status%MPI_SOURCE = MPI_UNDEFINED
    status%MPI_TAG = MPI_UNDEFINED
    ierror = MPI_SUCCESS
  end subroutine
  subroutine greq_free(extra_state, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierror
    freed = freed + int(extra_state)
    ierror = MPI_SUCCESS
  end subroutine
  subroutine greq_cancel(extra_state, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierror
    ierror = MPI_SUCCESS
  end subroutine
end module

program tool_wrapped
  use mpi_f08
  use pmpi_sends, only : send_mpi
  use pmpi_callbacks
  implicit none
  integer :: rank, np, x, sends_f77, sends_f08, keyval, v(2), ierr
  integer :: ops, keyvals, errhandlers, grequests, n
  type(MPI_Op) :: op
  type(MPI_Request) :: greq
  type(MPI_Status) :: status
  type(MPI_Comm) :: dup
  type(MPI_Errhandler) :: eh
  common /tool_counts/ sends_f77, sends_f08
  common /tool_creates/ ops, keyvals, errhandlers
  common /tool_grequests/ grequests
  grequests = 0
  sends_f77 = 0
  sends_f08 = 0
  ops = 0
  keyvals = 0
  errhandlers = 0
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

  ! Through the tool's MPI_Op_create_f08 (no ierror: absent optional).
  call MPI_Op_create(maxabs, .true., op)
  v = [-rank, rank * 2]
  call MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_INTEGER, op, MPI_COMM_WORLD)
  if (v(1) /= np - 1 .or. v(2) /= 2 * (np - 1)) call fail('user op through the tool')
  call MPI_Op_free(op)
  ! The tool's MPI_Comm_create_keyval_f08; the delete callback runs.
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, on_delete, keyval, 5_MPI_ADDRESS_KIND, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_create_keyval through the tool')
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_attr(dup, keyval, 10_MPI_ADDRESS_KIND)
  call MPI_Comm_free(dup)
  if (deleted /= 15) call fail('delete callback of a keyval made through the tool')
  call MPI_Comm_free_keyval(keyval)
  ! The tool's MPI_Comm_create_errhandler_f08; the handler runs.
  call MPI_Comm_create_errhandler(on_error, eh)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_errhandler(dup, eh)
  call MPI_Send(x, 1, MPI_INTEGER, np, 0, dup, ierr)
  if (errors /= 1) call fail('error handler made through the tool')
  call MPI_Errhandler_free(eh)
  call MPI_Comm_free(dup)
  ! The tool's MPI_Grequest_start_f08; the query and free callbacks run.
  call MPI_Grequest_start(greq_query, greq_free, greq_cancel, 3_MPI_ADDRESS_KIND, greq)
  call MPI_Grequest_complete(greq)
  call MPI_Wait(greq, status)
  call MPI_Get_count(status, MPI_INTEGER, n)
  if (n /= 3 .or. freed /= 3) call fail('generalized request made through the tool')
  if (ops /= 1 .or. keyvals /= 1 .or. errhandlers /= 1 .or. grequests /= 1) then
    print '(A, 3I3)', 'pmpi: failed: the tool counted (ops, keyvals, errhandlers)', ops, keyvals, errhandlers
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  call MPI_Finalize()
  if (rank == 0) print '(A)', 'pmpi: ok'
contains
  subroutine fail(what)
    character(len=*) :: what
    print '(2A)', 'pmpi: failed: ', what
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine
end program
