! Jacobi on a Cartesian grid, in Fortran with mpi_f08 (jacobi.c is the same
! program in C). The Laplace equation on a G x G grid with fixed boundary
! values, relaxed by Jacobi sweeps; the ranks form a 2-D grid (MPI_Dims_create,
! MPI_Cart_create), each owns a block u(0:nx+1, 0:ny+1) with a one-point halo
! and swaps edges with its four neighbours before each sweep. Fortran arrays
! are column-major: a column u(1:nx, j) is contiguous, a row u(i, 1:ny) is an
! array section with a stride, which mpi_f08 passes as it is (no datatype to
! build). At the end every rank compares its block with a serial solve that
! rank 0 made and broadcast: the decomposition must not change a digit.
program jacobi_f08
  use mpi_f08
  implicit none
  integer, parameter :: G = 24, SWEEPS = 200
  integer :: nranks, rank, dims(2), coords(2), up, down, left, right
  integer :: x0, nx, y0, ny, i, j, s
  type(MPI_Comm) :: cart
  double precision, allocatable :: u(:, :), next(:, :), ref(:, :)
  double precision :: diff, maxdiff

  call MPI_Init()
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  dims = 0
  call MPI_Dims_create(nranks, 2, dims)
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, [.false., .false.], .true., cart)
  call MPI_Comm_rank(cart, rank)
  call MPI_Cart_coords(cart, rank, 2, coords)
  call MPI_Cart_shift(cart, 0, 1, up, down)     ! neighbours along x (the first index)
  call MPI_Cart_shift(cart, 1, 1, left, right)  ! neighbours along y (the second index)

  call part(G, dims(1), coords(1), x0, nx)  ! my block: global x0+1..x0+nx, y0+1..y0+ny
  call part(G, dims(2), coords(2), y0, ny)
  allocate(u(0:nx + 1, 0:ny + 1), next(0:nx + 1, 0:ny + 1), ref(0:G + 1, 0:G + 1))
  do j = 0, ny + 1
    do i = 0, nx + 1
      u(i, j) = initial(x0 + i, y0 + j)
    end do
  end do

  do s = 1, SWEEPS
    ! Rows (strided sections): my first row goes up while my bottom halo comes from below, ...
    call MPI_Sendrecv(u(1, 1:ny), ny, MPI_DOUBLE_PRECISION, up, 0, u(nx + 1, 1:ny), ny, &
                      MPI_DOUBLE_PRECISION, down, 0, cart, MPI_STATUS_IGNORE)
    call MPI_Sendrecv(u(nx, 1:ny), ny, MPI_DOUBLE_PRECISION, down, 1, u(0, 1:ny), ny, &
                      MPI_DOUBLE_PRECISION, up, 1, cart, MPI_STATUS_IGNORE)
    ! ... columns (contiguous).
    call MPI_Sendrecv(u(1:nx, 1), nx, MPI_DOUBLE_PRECISION, left, 2, u(1:nx, ny + 1), nx, &
                      MPI_DOUBLE_PRECISION, right, 2, cart, MPI_STATUS_IGNORE)
    call MPI_Sendrecv(u(1:nx, ny), nx, MPI_DOUBLE_PRECISION, right, 3, u(1:nx, 0), nx, &
                      MPI_DOUBLE_PRECISION, left, 3, cart, MPI_STATUS_IGNORE)
    next(1:nx, 1:ny) = 0.25d0 * (u(0:nx - 1, 1:ny) + u(2:nx + 1, 1:ny) + u(1:nx, 0:ny - 1) + u(1:nx, 2:ny + 1))
    u(1:nx, 1:ny) = next(1:nx, 1:ny)
  end do

  ! The check: rank 0 solves serially and broadcasts the whole grid.
  if (rank == 0) call serial(ref)
  call MPI_Bcast(ref, (G + 2) * (G + 2), MPI_DOUBLE_PRECISION, 0, cart)
  diff = maxval(abs(u(1:nx, 1:ny) - ref(x0 + 1:x0 + nx, y0 + 1:y0 + ny)))
  call MPI_Allreduce(diff, maxdiff, 1, MPI_DOUBLE_PRECISION, MPI_MAX, cart)
  if (rank == 0) print '(A, I0, A, I0, A, I0, A, I0, A, I0, A, F9.6, A, ES8.1)', 'jacobi: ', SWEEPS, &
    ' sweeps on a ', G, 'x', G, ' grid over ', dims(1), 'x', dims(2), ' ranks, centre value ', &
    ref(G / 2, G / 2), ', largest difference from the serial solve ', maxdiff
  if (maxdiff > 1d-12) call MPI_Abort(MPI_COMM_WORLD, 1)
  call MPI_Comm_free(cart)
  call MPI_Finalize()

contains

  double precision function initial(x, y)
    integer, intent(in) :: x, y
    initial = 0.0d0
    if (x == 0 .or. y == 0 .or. x == G + 1 .or. y == G + 1) initial = x + 2.0d0 * y
  end function

  ! First global index and size of part coord of parts parts of n points.
  subroutine part(n, parts, coord, first, len)
    integer, intent(in) :: n, parts, coord
    integer, intent(out) :: first, len
    len = n / parts
    if (coord < mod(n, parts)) len = len + 1
    first = coord * (n / parts) + min(coord, mod(n, parts))
  end subroutine

  subroutine serial(g2)
    double precision, intent(out) :: g2(0:G + 1, 0:G + 1)
    double precision :: nxt(0:G + 1, 0:G + 1)
    integer :: x, y, k
    do y = 0, G + 1
      do x = 0, G + 1
        g2(x, y) = initial(x, y)
      end do
    end do
    nxt = g2
    do k = 1, SWEEPS
      nxt(1:G, 1:G) = 0.25d0 * (g2(0:G - 1, 1:G) + g2(2:G + 1, 1:G) + g2(1:G, 0:G - 1) + g2(1:G, 2:G + 1))
      g2(1:G, 1:G) = nxt(1:G, 1:G)
    end do
  end subroutine
end program
