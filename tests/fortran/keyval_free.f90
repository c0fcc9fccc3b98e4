! Keyvals created from Fortran carry state of the bindings (the Fortran
! copy and delete procedures); it is freed when the library releases the
! keyval: freed by MPI_*_FREE_KEYVAL and no attribute left using it. Until
! then the callbacks keep working (MPI-4.1 §7.7.2): an attribute set before
! the keyval was freed is copied by MPI_Comm_dup and deleted by
! MPI_Comm_free afterwards. Run under AddressSanitizer, LeakSanitizer finds
! no leak (docs/design/fortran.md).
module keyval_callbacks
  use mpi_f08
  implicit none
  integer :: copies = 0, deletes = 0
contains
  subroutine copy_fn(oldcomm, keyval, extra_state, attribute_val_in, attribute_val_out, flag, ierror)
    type(MPI_Comm) :: oldcomm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra_state, attribute_val_in, attribute_val_out
    logical :: flag
    copies = copies + 1
    attribute_val_out = attribute_val_in + extra_state
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine
  subroutine delete_fn(comm, keyval, attribute_val, extra_state, ierror)
    type(MPI_Comm) :: comm
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine
  subroutine type_delete_fn(datatype, keyval, attribute_val, extra_state, ierror)
    type(MPI_Datatype) :: datatype
    integer :: keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
    deletes = deletes + 1
    ierror = MPI_SUCCESS
  end subroutine
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(2A)', 'keyval_free: failed: ', what
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end subroutine
end module

! MPI_KEYVAL_CREATE (deprecated, INTEGER values) through `use mpi`.
subroutine legacy_keyvals(n)
  use mpi
  implicit none
  integer :: n, i, keyval, ierr
  do i = 1, n
    call MPI_KEYVAL_CREATE(MPI_DUP_FN, MPI_NULL_DELETE_FN, keyval, 0, ierr)
    if (ierr /= MPI_SUCCESS) call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
    call MPI_KEYVAL_FREE(keyval, ierr)
  end do
end subroutine

program keyval_free
  use mpi_f08
  use keyval_callbacks
  implicit none
  integer :: keyval, i, rank
  type(MPI_Comm) :: a, b
  type(MPI_Datatype) :: t
  integer(kind=MPI_ADDRESS_KIND) :: v
  logical :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  ! Freed with no attribute: released at once, many times over.
  do i = 1, 200
    call MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, 0_MPI_ADDRESS_KIND)
    call MPI_Comm_free_keyval(keyval)
    call check(keyval == MPI_KEYVAL_INVALID, 'MPI_Comm_free_keyval sets MPI_KEYVAL_INVALID')
  end do
  call legacy_keyvals(200)

  ! Freed while an attribute uses it: the callbacks still run after.
  call MPI_Comm_dup(MPI_COMM_WORLD, a)
  call MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, 100_MPI_ADDRESS_KIND)
  call MPI_Comm_set_attr(a, keyval, int(rank, MPI_ADDRESS_KIND))
  i = keyval
  call MPI_Comm_free_keyval(keyval)
  call MPI_Comm_dup(a, b)
  call check(copies == 1, 'copy callback after MPI_Comm_free_keyval')
  call MPI_Comm_get_attr(b, i, v, flag)
  call check(flag .and. v == rank + 100, 'attribute copied after MPI_Comm_free_keyval')
  call MPI_Comm_free(a)
  call check(deletes == 1, 'delete callback after MPI_Comm_free_keyval')
  call MPI_Comm_free(b)  ! the last attribute: the keyval is released
  call check(deletes == 2, 'delete callback of the copy')

  ! A datatype keyval whose keyval is freed after its attribute is deleted.
  call MPI_Type_contiguous(2, MPI_INTEGER, t)
  call MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, type_delete_fn, keyval, 0_MPI_ADDRESS_KIND)
  call MPI_Type_set_attr(t, keyval, 7_MPI_ADDRESS_KIND)
  call MPI_Type_delete_attr(t, keyval)
  call check(deletes == 3, 'MPI_Type_delete_attr runs the delete callback')
  call MPI_Type_free_keyval(keyval)
  call MPI_Type_free(t)
  call MPI_Finalize()
  if (rank == 0) print '(A)', 'keyval_free: ok'
end program
