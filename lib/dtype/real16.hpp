// The binary128 type behind MPI_REAL16 / MPI_COMPLEX32 (gfortran's REAL(16))
// and the external32 form of MPI_LONG_DOUBLE: a 113-bit long double where the
// ABI has one (aarch64), else GCC's and Clang's __float128 (x86-64). The
// condition matches the one in mpi.h that defines MPI_REAL16; without either
// type MPI_REAL16 and MPI_COMPLEX32 are MPI_DATATYPE_NULL.
#pragma once

#if defined(__LDBL_MANT_DIG__) && __LDBL_MANT_DIG__ == 113
#define RINGMPI_HAVE_REAL16 1
namespace ringmpi::dtype {
using Real16 = long double;
}
#elif defined(__SIZEOF_FLOAT128__)
#define RINGMPI_HAVE_REAL16 1
namespace ringmpi::dtype {
__extension__ typedef __float128 Real16;
}
#endif

#if defined(RINGMPI_HAVE_REAL16)
namespace ringmpi::dtype {
static_assert(sizeof(Real16) == 16);
// COMPLEX*32: two binary128 values (std::complex is only defined for float,
// double and long double).
struct Complex32 {
  Real16 re, im;
};
}  // namespace ringmpi::dtype
#endif
