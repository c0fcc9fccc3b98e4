! `use mpi`: nonblocking point-to-point (indices from 1, statuses),
! collectives, a user reduction operation written in Fortran, a Cartesian
! topology (LOGICAL arrays), attributes with Fortran copy and delete
! functions, a Fortran error handler, a derived datatype with MPI_BOTTOM,
! info strings and a call through the profiling interface.
module use_mpi_support
  use mpi
  implicit none
  integer :: deletes = 0, handled = 0
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: ierr
    if (.not. ok) then
      print '(2A)', 'use_mpi: failed: ', what
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
  end subroutine

  ! A reduction with the arguments of MPI_User_function in Fortran.
  subroutine absmax(invec, inoutvec, len, datatype)
    integer :: len, datatype
    integer :: invec(len), inoutvec(len)
    integer :: i
    call check(datatype == MPI_INTEGER, 'user op datatype')
    do i = 1, len
      inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
    end do
  end subroutine

  subroutine copy_plus_one(oldcomm, keyval, extra, val_in, val_out, flag, ierr)
    integer :: oldcomm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: extra, val_in, val_out
    logical :: flag
    val_out = val_in + 1 + extra
    flag = .true.
    ierr = MPI_SUCCESS
  end subroutine

  subroutine count_delete(comm, keyval, val, extra, ierr)
    integer :: comm, keyval, ierr
    integer(kind=MPI_ADDRESS_KIND) :: val, extra
    deletes = deletes + 1
    ierr = MPI_SUCCESS
  end subroutine

  subroutine on_error(comm, code)
    integer :: comm, code
    handled = handled + 1
  end subroutine

  ! A generalized request: its query function fills the status.
  subroutine greq_query(extra_state, status, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: status(MPI_STATUS_SIZE), ierr
    call MPI_Status_set_elements(status, MPI_INTEGER, int(extra_state), ierr)
    call MPI_Status_set_cancelled(status, .false., ierr)
    status(MPI_SOURCE) = MPI_UNDEFINED
    status(MPI_TAG) = MPI_UNDEFINED
    ierr = MPI_SUCCESS
  end subroutine

  subroutine greq_free(extra_state, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: ierr
    deletes = deletes + 100
    ierr = MPI_SUCCESS
  end subroutine

  subroutine greq_cancel(extra_state, complete, ierr)
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    logical :: complete
    integer :: ierr
    ierr = MPI_SUCCESS
  end subroutine
end module

program use_mpi_test
  use mpi
  use use_mpi_support
  implicit none
  integer :: ierr, rank, np, next, prev, i, idx, op, keyval, dup, cart, eh, vtype, outcount
  integer :: reqs(2), statuses(MPI_STATUS_SIZE, 2), status(MPI_STATUS_SIZE), indices(2)
  integer :: sendv(3), recvv(3), dims(2), coords(2), info, vals(6), cls
  integer, allocatable :: ranks(:)
  integer(kind=MPI_ADDRESS_KIND) :: val, addr
  logical :: flag, periods(2), gperiods(2)
  character(len=MPI_MAX_INFO_VAL) :: value
  character(len=20) :: key

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)

  ! Nonblocking: the receive is request 1, the send request 2.
  sendv = [rank, rank + 1, rank + 2]
  call MPI_Irecv(recvv, 3, MPI_INTEGER, prev, 3, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sendv, 3, MPI_INTEGER, next, 3, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, statuses, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Waitall')
  call check(all(reqs == MPI_REQUEST_NULL), 'requests freed')
  call check(statuses(MPI_SOURCE, 1) == prev, 'waitall status source')
  call check(all(recvv == [prev, prev + 1, prev + 2]), 'nonblocking data')
  call MPI_Irecv(recvv, 3, MPI_INTEGER, prev, 4, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sendv, 3, MPI_INTEGER, next, 4, MPI_COMM_WORLD, reqs(2), ierr)
  outcount = 0
  do while (outcount < 2)
    call MPI_Waitany(2, reqs, idx, status, ierr)
    call check(idx == 1 .or. idx == 2, 'MPI_Waitany index counts from 1')
    outcount = outcount + 1
  end do
  call MPI_Waitany(2, reqs, idx, status, ierr)
  call check(idx == MPI_UNDEFINED, 'MPI_Waitany with no active request')
  call MPI_Irecv(recvv, 3, MPI_INTEGER, prev, 5, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(sendv, 3, MPI_INTEGER, next, 5, MPI_COMM_WORLD, reqs(2), ierr)
  outcount = 0
  i = 0
  do while (i < 2)
    call MPI_Waitsome(2, reqs, outcount, indices, statuses, ierr)
    call check(all(indices(1:outcount) >= 1 .and. indices(1:outcount) <= 2), 'MPI_Waitsome indices')
    i = i + outcount
  end do
  call MPI_Test(reqs(1), flag, MPI_STATUS_IGNORE, ierr)
  call check(flag, 'MPI_Test on a null request sets flag')

  ! Collectives.
  vals = 0
  if (rank == 0) vals = [1, 2, 3, 4, 5, 6]
  call MPI_Bcast(vals, 6, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check(all(vals == [1, 2, 3, 4, 5, 6]), 'MPI_Bcast')
  allocate(ranks(np))
  call MPI_Allgather(rank, 1, MPI_INTEGER, ranks, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(ranks == [(i, i = 0, np - 1)]), 'MPI_Allgather')

  ! A user operation: the largest magnitude.
  call MPI_Op_create(absmax, .true., op, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Op_create')
  sendv = [rank, -rank, 1]
  call MPI_Allreduce(sendv, recvv, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call check(all(recvv == [np - 1, np - 1, 1]), 'user op result')
  call MPI_Op_free(op, ierr)
  call check(op == MPI_OP_NULL, 'MPI_Op_free')

  ! A periodic ring as a Cartesian topology: LOGICAL arrays both ways.
  dims = [np, 1]
  periods = [.true., .false.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Cart_get(cart, 2, dims, gperiods, coords, ierr)
  call check(gperiods(1) .and. .not. gperiods(2), 'MPI_Cart_get periods')
  call check(coords(1) == rank, 'MPI_Cart_get coords')
  call MPI_Cart_shift(cart, 0, 1, i, idx, ierr)
  call check(i == prev .and. idx == next, 'MPI_Cart_shift')
  call MPI_Topo_test(cart, i, ierr)
  call check(i == MPI_CART, 'MPI_Topo_test')
  call MPI_Comm_free(cart, ierr)

  ! Attributes: a Fortran copy function runs on MPI_Comm_dup, the delete
  ! function on free; predefined attributes are INTEGER values.
  call MPI_Comm_create_keyval(copy_plus_one, count_delete, keyval, 100_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, 42_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_get_attr(dup, keyval, val, flag, ierr)
  call check(flag .and. val == 143, 'copied attribute')
  call MPI_Comm_free(dup, ierr)
  call check(deletes == 1, 'delete function called')
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval, ierr)
  call check(deletes == 2, 'delete function called twice')
  call MPI_Comm_free_keyval(keyval, ierr)
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, val, flag, ierr)
  call check(flag .and. val >= 32767, 'MPI_TAG_UB')
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keyval, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, 7_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_get_attr(dup, keyval, val, flag, ierr)
  call check(flag .and. val == 7, 'MPI_COMM_DUP_FN')
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval, ierr)
  call MPI_Comm_free_keyval(keyval, ierr)

  ! A Fortran error handler.
  call MPI_Comm_create_errhandler(on_error, eh, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_set_errhandler(dup, eh, ierr)
  call MPI_Send(sendv, 1, MPI_INTEGER, np, 0, dup, ierr)
  call check(handled == 1, 'Fortran error handler called')
  call MPI_Error_class(ierr, cls, ierr)
  call check(cls == MPI_ERR_RANK, 'error class from the handler''s call')
  call MPI_Comm_free(dup, ierr)
  call MPI_Errhandler_free(eh, ierr)

  ! A derived datatype over absolute addresses, sent from MPI_BOTTOM.
  ! (The value is stored before its address escapes: Fortran need not
  ! store it before a call that does not name it, MPI-4.1 §19.1.17.)
  sendv(3) = 1000 + rank
  call MPI_Get_address(sendv(3), addr, ierr)
  call MPI_Type_create_hindexed(1, [1], [addr], MPI_INTEGER, vtype, ierr)
  call MPI_Type_commit(vtype, ierr)
  call MPI_Sendrecv(MPI_BOTTOM, 1, vtype, next, 9, recvv, 1, MPI_INTEGER, prev, 9, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  call check(recvv(1) == 1000 + prev, 'MPI_BOTTOM with absolute addresses')
  call MPI_Type_free(vtype, ierr)
  call MPI_Type_vector(2, 1, 2, MPI_INTEGER, vtype, ierr)
  call MPI_Type_commit(vtype, ierr)
  sendv = [rank, -1, rank + 5]
  recvv = 0
  call MPI_Sendrecv(sendv, 1, vtype, next, 10, recvv, 2, MPI_INTEGER, prev, 10, MPI_COMM_WORLD, status, ierr)
  call check(recvv(1) == prev .and. recvv(2) == prev + 5, 'MPI_Type_vector')
  call MPI_Type_free(vtype, ierr)

  ! Info: keys and values are strings.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, '  colour', '  blue  ', ierr)  ! leading and trailing blanks go
  call MPI_Info_get(info, 'colour', MPI_MAX_INFO_VAL, value, flag, ierr)
  call check(flag .and. value == 'blue', 'MPI_Info_get')
  call MPI_Info_get_nthkey(info, 0, key, ierr)
  call check(key == 'colour', 'MPI_Info_get_nthkey')
  call MPI_Info_get(info, 'shape', MPI_MAX_INFO_VAL, value, flag, ierr)
  call check(.not. flag, 'MPI_Info_get of a missing key')
  call MPI_Info_free(info, ierr)

  ! A generalized request completed by the program.
  call MPI_Grequest_start(greq_query, greq_free, greq_cancel, 5_MPI_ADDRESS_KIND, reqs(1), ierr)
  call MPI_Test(reqs(1), flag, status, ierr)
  call check(.not. flag, 'generalized request pending')
  call MPI_Grequest_complete(reqs(1), ierr)
  call MPI_Wait(reqs(1), status, ierr)
  call MPI_Get_count(status, MPI_INTEGER, i, ierr)
  call check(i == 5, 'generalized request status from the Fortran query function')
  call check(deletes == 102, 'generalized request free function')
  call MPI_Test_cancelled(status, flag, ierr)
  call check(.not. flag, 'MPI_Test_cancelled')

  ! MPI_SIZEOF: bytes of one element of any intrinsic type.
  call MPI_Sizeof(addr, i, ierr)
  call check(i == 8, 'MPI_Sizeof of an INTEGER(KIND=MPI_ADDRESS_KIND)')
  call MPI_Sizeof(statuses, i, ierr)
  call check(i == 4, 'MPI_Sizeof of an INTEGER array')

  ! The profiling interface: PMPI_ names reach the same code.
  call PMPI_Comm_rank(MPI_COMM_WORLD, i, ierr)
  call check(i == rank, 'PMPI_Comm_rank')

  call MPI_Finalize(ierr)
  if (rank == 0) print '(A)', 'use_mpi: ok'
end program
