! mpif.h from free-form source (it must be valid in both forms, MPI-4.1
! §20.1.4): MPI_SIZEOF and PMPI_SIZEOF on every intrinsic type and kind,
! scalars, arrays of several ranks and sections, then MPI_TYPE_MATCH_SIZE
! with its answer (the use MPI-4.1 gives MPI_SIZEOF).
program mpif_free
  implicit none
  include 'mpif.h'
  integer :: ierr, rank, n, t, tsize
  integer(kind=1) :: i1
  integer(kind=2) :: i2(3)
  integer(kind=8) :: i8(2, 2)
  real(kind=4) :: r4(4, 4, 2)
  real(kind=8) :: r8
  real(kind=16) :: r16
  complex(kind=4) :: c4
  complex(kind=8) :: c8(5)
  logical(kind=1) :: l1
  character(len=11) :: s

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call expect(i1, 1, 'INTEGER(1)')
  call expect(i2, 2, 'INTEGER(2) array')
  call expect(i8(2, :), 8, 'INTEGER(8) section')
  call expect(r4(1, :, 2), 4, 'REAL(4) section of a rank-3 array')
  call expect(r8, 8, 'REAL(8)')
  call expect(r16, 16, 'REAL(16)')
  call expect(c4, 8, 'COMPLEX(4)')
  call expect(c8(1:5:2), 16, 'COMPLEX(8) strided section')
  call expect(l1, 1, 'LOGICAL(1)')
  call expect(s, 11, 'CHARACTER(LEN=11)')
  call PMPI_SIZEOF(r8, n, ierr)
  if (n /= 8 .or. ierr /= MPI_SUCCESS) call fail('PMPI_SIZEOF')
  ! What MPI_SIZEOF is for: the datatype of a variable of any kind.
  call MPI_SIZEOF(r8, n, ierr)
  call MPI_TYPE_MATCH_SIZE(MPI_TYPECLASS_REAL, n, t, ierr)
  call MPI_TYPE_SIZE(t, tsize, ierr)
  if (ierr /= MPI_SUCCESS .or. tsize /= 8) call fail('MPI_TYPE_MATCH_SIZE of MPI_SIZEOF')
  call MPI_FINALIZE(ierr)
  if (rank == 0) print '(A)', 'mpif_free: ok'
contains
  subroutine expect(x, want, what)
    type(*), dimension(..) :: x
    integer :: want, got, e
    character(len=*) :: what
    ! Through an assumed-type, assumed-rank dummy of our own: the
    ! descriptor is passed on as it is.
    call MPI_SIZEOF(x, got, e)
    if (got /= want .or. e /= MPI_SUCCESS) call fail('MPI_SIZEOF of ' // what)
  end subroutine
  subroutine fail(what)
    character(len=*) :: what
    integer :: e
    print '(2A)', 'mpif_free: failed: ', what
    call MPI_ABORT(MPI_COMM_WORLD, 1, e)
  end subroutine
end program
