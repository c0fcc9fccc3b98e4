! MPI_REGISTER_DATAREP from Fortran (`use mpi`, MPI-4.1 §14.5.3): the
! bindings' glue calls the Fortran conversion and extent procedures with
! the registered extra_state. "plus" stores each INTEGER plus extra_state
! (1000): written and read back through it the data round-trip, read
! through "native" they show the shift; a second registration of the name
! is MPI_ERR_DUP_DATAREP; MPI_CONVERSION_FN_NULL registers.
module datarep_callbacks
  use mpi
  implicit none
  integer :: reads = 0, writes = 0, extents = 0
contains
  subroutine read_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*)
    integer :: datatype, count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: i
    reads = reads + 1
    do i = 1, count
      userbuf(position + i) = filebuf(i) - int(extra_state)
    end do
    ierror = MPI_SUCCESS
  end subroutine
  subroutine write_fn(userbuf, datatype, count, filebuf, position, extra_state, ierror)
    integer :: userbuf(*), filebuf(*)
    integer :: datatype, count, ierror
    integer(kind=MPI_OFFSET_KIND) :: position
    integer(kind=MPI_ADDRESS_KIND) :: extra_state
    integer :: i
    writes = writes + 1
    do i = 1, count
      filebuf(i) = userbuf(position + i) + int(extra_state)
    end do
    ierror = MPI_SUCCESS
  end subroutine
  subroutine extent_fn(datatype, extent, extra_state, ierror)
    integer :: datatype, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extent, extra_state, lb
    extents = extents + 1
    call MPI_TYPE_GET_EXTENT(datatype, lb, extent, ierror)
  end subroutine
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: ierr
    if (.not. ok) then
      print *, 'check failed: ', what
      call MPI_ABORT(MPI_COMM_WORLD, 3, ierr)
    end if
  end subroutine
end module

program datarep
  use mpi
  use datarep_callbacks
  implicit none
  integer :: ierr, rank, nproc, fh, i, cls, etype, ftype
  integer :: status(MPI_STATUS_SIZE)
  integer :: v(4), r(4)
  integer(kind=MPI_OFFSET_KIND) :: off, disp
  integer(kind=MPI_ADDRESS_KIND) :: shift
  character(len=MPI_MAX_DATAREP_STRING) :: name
  character(len=512) :: dir, path

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nproc, ierr)
  shift = 1000
  call MPI_REGISTER_DATAREP('plus', read_fn, write_fn, extent_fn, shift, ierr)
  call check(ierr == MPI_SUCCESS, 'register plus')
  call MPI_REGISTER_DATAREP('plus', read_fn, write_fn, extent_fn, shift, ierr)
  call MPI_ERROR_CLASS(ierr, cls, i)
  call check(cls == MPI_ERR_DUP_DATAREP, 'plus again is MPI_ERR_DUP_DATAREP')
  call MPI_REGISTER_DATAREP('nullconv', MPI_CONVERSION_FN_NULL, MPI_CONVERSION_FN_NULL, extent_fn, shift, ierr)
  call check(ierr == MPI_SUCCESS, 'register nullconv')
  call check(extents == 0, 'registering calls no function')

  call get_environment_variable('TMPDIR', dir)
  if (len_trim(dir) == 0) dir = '/tmp'
  write (path, '(a,a,i0)') trim(dir), '/ringmpi_fortran_datarep_np', nproc
  call MPI_FILE_OPEN(MPI_COMM_WORLD, trim(path), ior(ior(MPI_MODE_CREATE, MPI_MODE_RDWR), MPI_MODE_DELETE_ON_CLOSE), &
                     MPI_INFO_NULL, fh, ierr)
  call check(ierr == MPI_SUCCESS, 'open')
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'plus', MPI_INFO_NULL, ierr)
  call check(ierr == MPI_SUCCESS, 'set_view plus')
  do i = 1, 4
    v(i) = rank * 10 + i
  end do
  off = rank * 4
  call MPI_FILE_WRITE_AT_ALL(fh, off, v, 4, MPI_INTEGER, status, ierr)
  call check(ierr == MPI_SUCCESS .and. writes > 0 .and. extents > 0, 'write through plus')
  call MPI_FILE_SYNC(fh, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_FILE_SYNC(fh, ierr)
  r = 0
  call MPI_FILE_READ_AT(fh, off, r, 4, MPI_INTEGER, status, ierr)
  call check(ierr == MPI_SUCCESS .and. reads > 0 .and. all(r == v), 'read through plus')
  call MPI_FILE_GET_VIEW(fh, disp, etype, ftype, name, ierr)
  call check(trim(name) == 'plus', 'get_view names plus')
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  call MPI_FILE_READ_AT(fh, off, r, 4, MPI_INTEGER, status, ierr)
  call check(all(r == v + 1000), 'native sees the shifted integers')
  call MPI_FILE_SET_VIEW(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'nullconv', MPI_INFO_NULL, ierr)
  call MPI_FILE_READ_AT(fh, off, r, 4, MPI_INTEGER, status, ierr)
  call check(ierr == MPI_SUCCESS .and. all(r == v + 1000), 'nullconv reads native bytes')
  call MPI_FILE_CLOSE(fh, ierr)
  call MPI_FINALIZE(ierr)
end program
