! `use mpi_f08`: handles as derived types, TYPE(MPI_Status), optional
! ierror, choice buffers of any type and rank (scalars, arrays, and
! non-contiguous array sections, blocking and nonblocking), a user
! reduction with the f08 interface, strings, logicals and an error
! returned in ierror; MPI-4.1's status accessors, request-status queries,
! buffers per communicator and session and their flushes, the status
! conversions MPI_Status_f082f / MPI_Status_f2f08, and a window's
! displacement unit beyond an INTEGER (MPI_WIN_DISP_UNIT, MPI_Win_shared_query).
module f08_support
  use mpi_f08
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
  implicit none
  integer :: errors_seen = 0
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(2A)', 'use_mpi_f08: failed: ', what
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end subroutine

  subroutine copy_twice(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    attribute_val_out = 2 * attribute_val_in + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine

  subroutine on_error(comm, error_code)
    type(MPI_Comm) :: comm
    integer :: error_code
    errors_seen = errors_seen + 1
  end subroutine

  subroutine maxabs(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    real(8), pointer :: a(:), b(:)
    call check(datatype == MPI_DOUBLE_PRECISION, 'user op datatype')
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(abs(a), abs(b))
  end subroutine
end module

program use_mpi_f08_test
  use mpi_f08
  use f08_support
  use, intrinsic :: iso_c_binding, only : c_ptr, c_loc, c_intptr_t
  implicit none
  integer :: rank, np, next, prev, i, j, n, ierr, cls
  type(MPI_Comm) :: dup
  type(MPI_Status) :: status
  type(MPI_Request) :: reqs(2)
  type(MPI_Op) :: op
  type(MPI_Datatype) :: pair
  type(MPI_Errhandler) :: eh
  type(MPI_File) :: fh
  integer(kind=MPI_OFFSET_KIND) :: offset
  character(len=64) :: path
  integer :: keyval
  integer(kind=MPI_ADDRESS_KIND) :: val
  real(8) :: grid(4, 5), col(5), x(3), y(3)
  integer :: iv(6)
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: name
  type(MPI_Status) :: status2, statuses(2)
  type(MPI_Request) :: freq
  type(MPI_Session) :: session
  type(MPI_Info) :: hw_info
  type(c_ptr) :: addr
  integer :: fstatus(MPI_STATUS_SIZE), indices(2), got(2), sendv(2), code, bsize
  integer(c_intptr_t) :: bbuf_at
  real(8), target, asynchronous :: bbuf(1024)
  type(MPI_Win) :: win
  integer(kind=MPI_ADDRESS_KIND) :: big_unit, wsize, unit_q
  type(c_ptr) :: wbase, qbase

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call check(ierr == MPI_SUCCESS, 'ierror present')
  next = mod(rank + 1, np)
  prev = mod(rank + np - 1, np)
  call check(MPI_COMM_WORLD /= MPI_COMM_SELF .and. MPI_COMM_WORLD == MPI_COMM_WORLD, 'handle comparison')

  ! A scalar, then a contiguous array, with a status.
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, next, 1, i, 1, MPI_INTEGER, prev, 1, MPI_COMM_WORLD, status)
  call check(i == prev .and. status%MPI_SOURCE == prev .and. status%MPI_TAG == 1, 'scalar sendrecv')
  call MPI_Get_count(status, MPI_INTEGER, n)
  call check(n == 1, 'MPI_Get_count')
  do j = 1, 5
    do i = 1, 4
      grid(i, j) = rank * 100 + i * 10 + j
    end do
  end do

  ! A row of a column-major array is non-contiguous: sent in place.
  col = -1
  call MPI_Sendrecv(grid(2, :), 5, MPI_DOUBLE_PRECISION, next, 2, col, 5, MPI_DOUBLE_PRECISION, prev, 2, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  call check(all(col == [(prev * 100 + 20 + j, j = 1, 5)]), 'non-contiguous send')
  ! ... and received into, nonblocking, with a stride.
  x = [(rank * 1.0d0 + i, i = 1, 3)]
  grid = 0
  call MPI_Irecv(grid(1, 1:5:2), 3, MPI_DOUBLE_PRECISION, prev, 3, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(x, 3, MPI_DOUBLE_PRECISION, next, 3, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call check(grid(1, 1) == prev + 1 .and. grid(1, 3) == prev + 2 .and. grid(1, 5) == prev + 3, &
             'non-contiguous nonblocking receive')
  call check(grid(1, 2) == 0 .and. grid(1, 4) == 0 .and. all(grid(2:, :) == 0), 'untouched elements')
  call check(reqs(1) == MPI_REQUEST_NULL, 'request freed')
  ! The same through the large-count overloads (MPI_Irecv_c, MPI_Isend_c:
  ! an INTEGER(KIND=MPI_COUNT_KIND) count): strided sections on both sides.
  grid = 0
  grid(2, :) = [(rank * 10 + j, j = 1, 5)]
  call MPI_Irecv(grid(1, 1:5:2), 3_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, prev, 5, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(grid(2, 1:5:2), 3_MPI_COUNT_KIND, MPI_DOUBLE_PRECISION, next, 5, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call check(grid(1, 1) == prev * 10 + 1 .and. grid(1, 3) == prev * 10 + 3 .and. grid(1, 5) == prev * 10 + 5, &
             'non-contiguous large-count nonblocking send and receive')
  call check(grid(1, 2) == 0 .and. grid(1, 4) == 0 .and. all(grid(3:, :) == 0), 'untouched elements (large count)')

  ! Sections no datatype describes: a blocking call works on a copy.
  do j = 1, 5
    grid(3, j) = rank + j
  end do
  col = 0
  call MPI_Allreduce(grid(3, :), col, 5, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  call check(all(col == [(np * (np - 1) / 2 + np * j, j = 1, 5)]), 'MPI_Allreduce from a section')
  grid(4, :) = -1
  call MPI_Allreduce(col, grid(4, :), 5, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)
  call check(all(grid(4, :) == col), 'MPI_Allreduce into a section')
  call MPI_Type_contiguous(2, MPI_DOUBLE_PRECISION, pair)
  call MPI_Type_commit(pair)
  grid(2, :) = [(rank * 10 + j, j = 1, 5)]
  col = -1
  call MPI_Sendrecv(grid(2, 1:4), 2, pair, next, 4, col, 4, MPI_DOUBLE_PRECISION, prev, 4, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE)
  call check(all(col(1:4) == [(prev * 10 + j, j = 1, 4)]) .and. col(5) == -1, 'section of pairs')
  call MPI_Type_free(pair)

  ! Collectives, a user operation.
  iv = 0
  if (rank == 0) iv = [1, 2, 3, 4, 5, 6]
  call MPI_Bcast(iv, 6, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call check(all(iv == [1, 2, 3, 4, 5, 6]), 'MPI_Bcast')
  call MPI_Allreduce(MPI_IN_PLACE, iv, 6, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(all(iv == np * [1, 2, 3, 4, 5, 6]), 'MPI_Allreduce in place')
  call MPI_Op_create(maxabs, .true., op)
  x = [dble(rank), -dble(rank), 0.5d0]
  call MPI_Allreduce(x, y, 3, MPI_DOUBLE_PRECISION, op, MPI_COMM_WORLD)
  call check(all(y == [dble(np - 1), dble(np - 1), 0.5d0]), 'user op')
  call MPI_Op_free(op)

  ! Strings and logicals.
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_set_name(dup, 'duplicate')
  call MPI_Comm_get_name(dup, name, n)
  call check(n == 9 .and. name == 'duplicate', 'MPI_Comm_get_name')
  call MPI_Comm_test_inter(dup, flag)
  call check(.not. flag, 'MPI_Comm_test_inter')
  call MPI_Initialized(flag)
  call check(flag, 'MPI_Initialized')

  ! Errors come back in ierror under MPI_ERRORS_RETURN.
  call MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)
  call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, np, 0, dup, ierr)
  call MPI_Error_class(ierr, cls)
  call check(cls == MPI_ERR_RANK, 'MPI_ERR_RANK in ierror')
  call MPI_Comm_free(dup)
  call check(dup == MPI_COMM_NULL, 'MPI_Comm_free')

  ! Callbacks with mpi_f08's interfaces: attribute copy (the program's and
  ! MPI_COMM_DUP_FN), an error handler.
  call MPI_Comm_create_keyval(copy_twice, MPI_COMM_NULL_DELETE_FN, keyval, 1_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, 20_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_get_attr(dup, keyval, val, flag)
  call check(flag .and. val == 41, 'f08 copy callback')
  call MPI_Comm_free(dup)
  call MPI_Comm_free_keyval(keyval)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, keyval, 0_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, 5_MPI_ADDRESS_KIND)
  call MPI_Comm_dup(MPI_COMM_WORLD, dup)
  call MPI_Comm_get_attr(dup, keyval, val, flag)
  call check(flag .and. val == 5, 'MPI_COMM_DUP_FN in mpi_f08')
  call MPI_Comm_create_errhandler(on_error, eh)
  call MPI_Comm_set_errhandler(dup, eh)
  call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, -5, 0, dup)
  call check(errors_seen == 1, 'f08 error handler')
  call MPI_Errhandler_free(eh)
  call MPI_Comm_free(dup)
  call MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval)
  call MPI_Comm_free_keyval(keyval)

  ! MPI-IO: a file name (a string through MPI_Bcast of MPI_CHARACTER too),
  ! offsets of MPI_OFFSET_KIND.
  if (rank == 0) write (path, '(A, I0, A)') '/tmp/ringmpi_fortran_', getpid(), '.dat'
  call MPI_Bcast(path, len(path), MPI_CHARACTER, 0, MPI_COMM_WORLD)
  call MPI_File_open(MPI_COMM_WORLD, path, ior(ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_MODE_DELETE_ON_CLOSE), &
                     MPI_INFO_NULL, fh)
  offset = rank * 4_MPI_OFFSET_KIND
  call MPI_File_write_at(fh, offset, rank + 1000, 1, MPI_INTEGER, MPI_STATUS_IGNORE)
  call MPI_File_sync(fh)  ! sync, barrier, sync: the others' writes are visible (MPI-4.1 §14.6.1)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_File_sync(fh)
  call MPI_File_read_at(fh, prev * 4_MPI_OFFSET_KIND, i, 1, MPI_INTEGER, status)
  call check(i == prev + 1000, 'MPI_File_read_at')
  call MPI_File_get_size(fh, offset)
  call check(offset == 4_MPI_OFFSET_KIND * np, 'MPI_File_get_size')
  call MPI_File_close(fh)
  call check(fh == MPI_FILE_NULL, 'MPI_File_close')

  ! MPI_Sizeof: the descriptor says the element size.
  call MPI_Sizeof(grid, n)
  call check(n == 8, 'MPI_Sizeof of a DOUBLE PRECISION array')
  call MPI_Sizeof(name, n)
  call check(n == MPI_MAX_OBJECT_NAME, 'MPI_Sizeof of a CHARACTER')

  ! MPI-4.1: status accessors and the conversions to and from the
  ! INTEGER status.
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, next, 7, i, 1, MPI_INTEGER, prev, 7, MPI_COMM_WORLD, status)
  call MPI_Status_get_source(status, n)
  call check(n == prev, 'MPI_Status_get_source')
  call MPI_Status_get_tag(status, n, ierr)
  call check(n == 7 .and. ierr == MPI_SUCCESS, 'MPI_Status_get_tag')
  status2 = status
  call MPI_Status_set_source(status2, 42)
  call MPI_Status_set_tag(status2, 43)
  call MPI_Status_set_error(status2, MPI_ERR_TRUNCATE)
  call MPI_Status_get_error(status2, n)
  call check(status2%MPI_SOURCE == 42 .and. status2%MPI_TAG == 43 .and. status2%MPI_ERROR == MPI_ERR_TRUNCATE &
             .and. n == MPI_ERR_TRUNCATE, 'MPI_Status_set_source/tag/error')
  call MPI_Status_f082f(status2, fstatus, ierr)
  call check(ierr == MPI_SUCCESS .and. fstatus(MPI_SOURCE) == 42 .and. fstatus(MPI_TAG) == 43 .and. &
             fstatus(MPI_ERROR) == MPI_ERR_TRUNCATE, 'MPI_Status_f082f')
  fstatus(MPI_SOURCE) = prev
  call MPI_Status_f2f08(fstatus, status2)
  call check(status2%MPI_SOURCE == prev .and. status2%MPI_TAG == 43, 'MPI_Status_f2f08')
  call MPI_Get_count(status2, MPI_INTEGER, n)
  call check(n == 1, 'MPI_Get_count after MPI_Status_f2f08')

  ! MPI-4.1: the status of requests without freeing them.
  got = -1
  call MPI_Irecv(got, 2, MPI_INTEGER, prev, 8, MPI_COMM_WORLD, reqs(1))
  sendv = [rank, 2 * rank]
  call MPI_Isend(sendv, 2, MPI_INTEGER, next, 8, MPI_COMM_WORLD, reqs(2))
  flag = .false.
  do while (.not. flag)
    call MPI_Request_get_status_all(2, reqs, flag, statuses)
  end do
  call check(reqs(1) /= MPI_REQUEST_NULL .and. reqs(2) /= MPI_REQUEST_NULL, 'MPI_Request_get_status_all frees nothing')
  call check(statuses(1)%MPI_SOURCE == prev .and. statuses(1)%MPI_TAG == 8 .and. all(got == [prev, 2 * prev]), &
             'MPI_Request_get_status_all')
  call MPI_Request_get_status_any(2, reqs, n, flag, status2)
  call check(flag .and. (n == 1 .or. n == 2), 'MPI_Request_get_status_any')
  call MPI_Request_get_status_some(2, reqs, n, indices, statuses)
  call check(n == 2 .and. minval(indices) == 1 .and. maxval(indices) == 2, 'MPI_Request_get_status_some')
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call check(reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL, 'MPI_Waitall after get_status')

  ! MPI-4.1: a buffer per communicator, flushed, and the process's one.
  bsize = int(8 * size(bbuf))
  ! The address that detach gives back, compared as an integer: gfortran
  ! folds c_associated(addr, c_loc(bbuf)) to .false. (a dummy without
  ! TARGET does not keep its actual's address, as far as it knows).
  bbuf_at = transfer(c_loc(bbuf), bbuf_at)
  call MPI_Comm_attach_buffer(MPI_COMM_WORLD, bbuf, bsize)
  i = -1
  call MPI_Irecv(i, 1, MPI_INTEGER, prev, 9, MPI_COMM_WORLD, reqs(1))
  call MPI_Bsend(rank + 500, 1, MPI_INTEGER, next, 9, MPI_COMM_WORLD)
  call MPI_Comm_flush_buffer(MPI_COMM_WORLD)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call check(i == prev + 500, 'MPI_Bsend with MPI_Comm_attach_buffer')
  call MPI_Comm_iflush_buffer(MPI_COMM_WORLD, freq)
  call MPI_Wait(freq, MPI_STATUS_IGNORE)
  call MPI_Comm_detach_buffer(MPI_COMM_WORLD, addr, n)
  call check(n == bsize .and. transfer(addr, bbuf_at) == bbuf_at, 'MPI_Comm_detach_buffer')
  call MPI_Buffer_attach(bbuf, bsize)
  i = -1
  call MPI_Irecv(i, 1, MPI_INTEGER, prev, 10, MPI_COMM_WORLD, reqs(1))
  call MPI_Bsend(rank + 600, 1, MPI_INTEGER, next, 10, MPI_COMM_WORLD)
  call MPI_Buffer_flush(ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Buffer_flush')
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call check(i == prev + 600, 'MPI_Bsend with MPI_Buffer_attach')
  call MPI_Buffer_iflush(freq)
  call MPI_Wait(freq, MPI_STATUS_IGNORE)
  call check(freq == MPI_REQUEST_NULL, 'MPI_Buffer_iflush')
  call MPI_Buffer_detach(addr, n)
  call check(n == bsize .and. transfer(addr, bbuf_at) == bbuf_at, 'MPI_Buffer_detach')
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, session)
  call MPI_Session_attach_buffer(session, bbuf, bsize, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Session_attach_buffer')
  call MPI_Session_flush_buffer(session)
  call MPI_Session_iflush_buffer(session, freq)
  call MPI_Wait(freq, MPI_STATUS_IGNORE)
  call MPI_Session_detach_buffer(session, addr, n)
  call check(n == bsize .and. transfer(addr, bbuf_at) == bbuf_at, 'MPI_Session_detach_buffer')
  call MPI_Session_finalize(session)

  ! MPI-4.1: pair types, error classes removed, hardware information.
  call MPI_Type_get_value_index(MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, pair)
  call check(pair == MPI_2DOUBLE_PRECISION, 'MPI_Type_get_value_index')
  call MPI_Add_error_class(cls)
  call MPI_Add_error_code(cls, code)
  call MPI_Add_error_string(code, 'a code of the test')
  call MPI_Remove_error_string(code)
  call MPI_Remove_error_code(code, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Remove_error_code')
  call MPI_Remove_error_class(cls, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Remove_error_class')
  call MPI_Get_hw_resource_info(hw_info)
  call check(hw_info /= MPI_INFO_NULL, 'MPI_Get_hw_resource_info')
  call MPI_Info_free(hw_info)

  ! MPI-4.1 large counts: a displacement unit beyond an INTEGER (the overload
  ! of MPI_Win_allocate with an address-sized unit). MPI_WIN_GET_ATTR's value is
  ! address-sized, so it has the unit whole (C's int attribute reads
  ! MPI_UNDEFINED), as does the large overload of MPI_Win_shared_query.
  big_unit = 2_MPI_ADDRESS_KIND**32 + 8
  call MPI_Win_allocate(64_MPI_ADDRESS_KIND, big_unit, MPI_INFO_NULL, MPI_COMM_WORLD, wbase, win)
  call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag)
  call check(flag .and. val == big_unit, 'MPI_WIN_DISP_UNIT beyond an INTEGER')
  call MPI_Win_get_attr(win, MPI_WIN_SIZE, val, flag)
  call check(flag .and. val == 64, 'MPI_WIN_SIZE')
  call MPI_Win_shared_query(win, rank, wsize, unit_q, qbase)
  call check(wsize == 64 .and. unit_q == big_unit, 'MPI_Win_shared_query with an address-sized unit')
  call MPI_Win_free(win)
  call MPI_Win_allocate(64_MPI_ADDRESS_KIND, 8, MPI_INFO_NULL, MPI_COMM_WORLD, wbase, win)
  call MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, val, flag)
  call check(flag .and. val == 8, 'MPI_WIN_DISP_UNIT')
  call MPI_Win_free(win)

  ! The profiling interface.
  call PMPI_Comm_rank(MPI_COMM_WORLD, i)
  call check(i == rank, 'PMPI_Comm_rank')
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Finalize()
  if (rank == 0) print '(A)', 'use_mpi_f08: ok'
end program
