! MPI_Comm_spawn and MPI_Comm_spawn_multiple from Fortran (issue 33: the
! spawn arguments with Fortran conventions). The parents spawn two copies
! of this program through mpi_f08's MPI_Comm_spawn with argv ("child",
! "two words", then a blank entry that ends the list), then one copy each
! of two commands through MPI_Comm_spawn_multiple (array_of_argv(2, 3):
! "child x" and "child abc", MPI_APPNUM 0 and 1). A child checks the
! arguments it got (get_command_argument), answers over the parent
! intercommunicator with its rank, MPI_APPNUM and the length of its second argument, and
! disconnects. The second spawn passes MPI_ERRCODES_IGNORE.
program spawn_f08
  use mpi_f08
  implicit none
  type(MPI_Comm) :: parent, inter
  integer :: rank, size, ierr, i, nargs, appnum, answer(3)
  integer :: errcodes(2)
  character(len=32) :: argv(3), arg1, arg2
  character(len=64) :: cmds(2), self
  character(len=32) :: margv(2, 3)
  integer :: maxprocs(2)
  type(MPI_Info) :: infos(2)
  logical :: flag
  integer(kind=MPI_ADDRESS_KIND) :: attr

  call MPI_Init(ierr)
  call MPI_Comm_get_parent(parent)
  if (parent /= MPI_COMM_NULL) then
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, attr, flag)
    appnum = -1
    if (flag) appnum = int(attr)
    nargs = command_argument_count()
    arg1 = ''
    arg2 = ''
    if (nargs >= 1) call get_command_argument(1, arg1)
    if (nargs >= 2) call get_command_argument(2, arg2)
    if (arg1 /= 'child') then
      print '(a,i0,3a)', 'child ', rank, ': first argument "', trim(arg1), '", expected "child"'
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    if (nargs /= 2) then
      print '(a,i0,a,i0,a)', 'child ', rank, ': ', nargs, ' arguments, expected 2 (a blank entry ends argv)'
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    answer = [rank, appnum, len_trim(arg2)]
    call MPI_Send(answer, 3, MPI_INTEGER, 0, 7, parent)
    call MPI_Comm_disconnect(parent)
    call MPI_Finalize()
    stop
  end if

  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call get_command_argument(0, self)

  ! MPI_Comm_spawn: two children, argv with a blank entry after two words.
  argv(1) = 'child'
  argv(2) = 'two words'
  argv(3) = ' '
  errcodes = -1
  call MPI_Comm_spawn(self, argv, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, errcodes, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Comm_spawn returned an error')
  call check(all(errcodes == MPI_SUCCESS), 'MPI_Comm_spawn: array_of_errcodes not MPI_SUCCESS')
  call MPI_Comm_remote_size(inter, size)
  call check(size == 2, 'MPI_Comm_spawn: remote size not 2')
  if (rank == 0) then
    do i = 0, 1
      call MPI_Recv(answer, 3, MPI_INTEGER, i, 7, inter, MPI_STATUS_IGNORE)
      call check(answer(1) == i, 'spawned child: wrong rank')
      call check(answer(2) == 0, 'spawned child: MPI_APPNUM not 0')
      call check(answer(3) == len('two words'), 'spawned child: second argument not "two words"')
    end do
  end if
  call MPI_Comm_disconnect(inter)

  ! MPI_Comm_spawn_multiple: one child of each of two commands.
  cmds = self
  ! array_of_argv(i, j) is argument j of command i (MPI-4.1 11.8.3), each
  ! list ended by a blank entry.
  margv(1, :) = [character(len=32) :: 'child', 'x', ' ']
  margv(2, :) = [character(len=32) :: 'child', 'abc', ' ']
  maxprocs = 1
  infos = MPI_INFO_NULL
  call MPI_Comm_spawn_multiple(2, cmds, margv, maxprocs, infos, 0, MPI_COMM_WORLD, inter, &
                               MPI_ERRCODES_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS, 'MPI_Comm_spawn_multiple returned an error')
  call MPI_Comm_remote_size(inter, size)
  call check(size == 2, 'MPI_Comm_spawn_multiple: remote size not 2')
  if (rank == 0) then
    do i = 0, 1
      call MPI_Recv(answer, 3, MPI_INTEGER, i, 7, inter, MPI_STATUS_IGNORE)
      call check(answer(2) == i, 'spawn_multiple child: MPI_APPNUM not its command')
      call check(answer(3) == merge(1, 3, i == 0), 'spawn_multiple child: wrong second argument')
    end do
  end if
  call MPI_Comm_disconnect(inter)

  if (rank == 0) print '(a)', 'spawn_f08: OK'
  call MPI_Finalize()

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(a,i0,2a)', 'rank ', rank, ': ', what
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end subroutine check
end program spawn_f08
