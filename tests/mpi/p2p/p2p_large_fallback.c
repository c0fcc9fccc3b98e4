/* p2p_large.c with large messages pipelined through the ring
 * (RINGMPI_FORCE_COPY_FALLBACK=1 set before MPI_Init). */
#define FORCE_FALLBACK 1
#include "check.h"
#define FORCED_PATH "rndv_push"
#define FORCED_PATH_NOT "rndv_read"
/* The single-copy module (lib/smsc) counts the fallback and makes no call. */
#define FORCED_PATH_ALSO "smsc_fallback"
#define FORCED_PATH_NOT_ALSO "smsc_calls"
#include "forced_path.h"
#include "p2p_large.c"
