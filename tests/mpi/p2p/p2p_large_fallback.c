/* p2p_large.c with large messages pipelined through the ring
 * (RINGMPI_FORCE_COPY_FALLBACK=1 set before MPI_Init). */
#define FORCE_FALLBACK 1
#include "p2p_large.c"
