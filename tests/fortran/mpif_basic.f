! mpif.h from fixed-form source: environment, point-to-point, strings,
! logicals, status, a reduction with MPI_IN_PLACE, MPI_SIZEOF and an error
! returned in IERROR under MPI_ERRORS_RETURN.
      PROGRAM MPIFBASIC
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, NEXT, PREV, I, N, CLS
      INTEGER STATUS(MPI_STATUS_SIZE)
      INTEGER BUF(4), GOT(4)
      LOGICAL FLAG
      CHARACTER*(MPI_MAX_PROCESSOR_NAME) PNAME
      CHARACTER*(MPI_MAX_OBJECT_NAME) CNAME
      DOUBLE PRECISION T0, T1, X(3)

      CALL MPI_INITIALIZED(FLAG, IERR)
      CALL CHECK(.NOT. FLAG, 'initialized before MPI_INIT')
      CALL MPI_INIT(IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_INIT')
      CALL MPI_INITIALIZED(FLAG, IERR)
      CALL CHECK(FLAG, 'MPI_INITIALIZED after MPI_INIT')
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      CALL CHECK(RANK .GE. 0 .AND. RANK .LT. NP, 'rank')

!     A ring: each rank sends its rank to the next one.
      NEXT = MOD(RANK + 1, NP)
      PREV = MOD(RANK + NP - 1, NP)
      DO I = 1, 4
        BUF(I) = RANK * 10 + I
      END DO
      CALL MPI_SENDRECV(BUF, 4, MPI_INTEGER, NEXT, 7, GOT, 4,
     &     MPI_INTEGER, PREV, 7, MPI_COMM_WORLD, STATUS, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'MPI_SENDRECV')
      CALL CHECK(STATUS(MPI_SOURCE) .EQ. PREV, 'status source')
      CALL CHECK(STATUS(MPI_TAG) .EQ. 7, 'status tag')
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, N, IERR)
      CALL CHECK(N .EQ. 4, 'MPI_GET_COUNT')
      DO I = 1, 4
        CALL CHECK(GOT(I) .EQ. PREV * 10 + I, 'ring data')
      END DO
      CALL MPI_SENDRECV(BUF, 1, MPI_INTEGER, NEXT, 8, GOT, 1,
     &     MPI_INTEGER, PREV, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE,
     &     IERR)
      CALL CHECK(GOT(1) .EQ. PREV * 10 + 1, 'MPI_STATUS_IGNORE')

!     Strings: blank padded on the way out, trimmed on the way in.
      CALL MPI_GET_PROCESSOR_NAME(PNAME, N, IERR)
      CALL CHECK(N .GT. 0 .AND. N .LE. MPI_MAX_PROCESSOR_NAME,
     &     'processor name length')
      CALL CHECK(PNAME(N+1:) .EQ. ' ', 'processor name padding')
      CALL MPI_COMM_SET_NAME(MPI_COMM_WORLD, 'the world   ', IERR)
      CALL MPI_COMM_GET_NAME(MPI_COMM_WORLD, CNAME, N, IERR)
      CALL CHECK(N .EQ. 9, 'name length (trailing blanks dropped)')
      CALL CHECK(CNAME .EQ. 'the world', 'name')

!     A reduction in place.
      X(1) = RANK
      X(2) = 1.0D0
      X(3) = -RANK
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, X, 3, MPI_DOUBLE_PRECISION,
     &     MPI_SUM, MPI_COMM_WORLD, IERR)
      CALL CHECK(X(1) .EQ. NP * (NP - 1) / 2, 'allreduce 1')
      CALL CHECK(X(2) .EQ. NP, 'allreduce 2')
      CALL CHECK(X(3) .EQ. -X(1), 'allreduce 3')

!     MPI_SIZEOF (an explicit interface in mpif.h): bytes of one
!     element, whatever the type, kind and rank.
      CALL MPI_SIZEOF(N, I, IERR)
      CALL CHECK(I .EQ. 4 .AND. IERR .EQ. MPI_SUCCESS, 'SIZEOF INTEGER')
      CALL MPI_SIZEOF(X, I, IERR)
      CALL CHECK(I .EQ. 8, 'MPI_SIZEOF DOUBLE PRECISION array')
      CALL MPI_SIZEOF(FLAG, I, IERR)
      CALL CHECK(I .EQ. 4, 'MPI_SIZEOF LOGICAL')
      CALL MPI_SIZEOF(PNAME(1:5), I, IERR)
      CALL CHECK(I .EQ. 5, 'MPI_SIZEOF CHARACTER*5')
      CALL PMPI_SIZEOF(STATUS(2:), I, IERR)
      CALL CHECK(I .EQ. 4, 'PMPI_SIZEOF INTEGER section')

      T0 = MPI_WTIME()
      T1 = MPI_WTIME()
      CALL CHECK(T1 .GE. T0, 'MPI_WTIME')
      T1 = MPI_WTICK()
      CALL CHECK(T1 .GT. 0, 'MPI_WTICK')

!     Errors return their code in IERROR.
      CALL MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN,
     &     IERR)
      CALL MPI_SEND(BUF, 1, MPI_INTEGER, NP, 0, MPI_COMM_WORLD, IERR)
      CALL CHECK(IERR .NE. MPI_SUCCESS, 'send to a rank out of range')
      CALL MPI_ERROR_CLASS(IERR, CLS, IERR)
      CALL CHECK(CLS .EQ. MPI_ERR_RANK, 'error class MPI_ERR_RANK')

      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_FINALIZE(IERR)
      CALL MPI_FINALIZED(FLAG, IERR)
      CALL CHECK(FLAG, 'MPI_FINALIZED')
      IF (RANK .EQ. 0) PRINT '(A)', 'mpif_basic: ok'
      END

      SUBROUTINE CHECK(OK, WHAT)
      LOGICAL OK
      CHARACTER*(*) WHAT
      INCLUDE 'mpif.h'
      INTEGER IERR
      IF (.NOT. OK) THEN
        PRINT '(2A)', 'mpif_basic: failed: ', WHAT
        CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      END IF
      END
