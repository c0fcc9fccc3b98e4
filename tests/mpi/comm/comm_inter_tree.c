/* comm_inter.c with every internal allgather on the binomial-tree path. */
#include <stdlib.h>

#include "check.h"
#define FORCED_PATH "exchange_tree"
#define FORCED_PATH_NOT "exchange_dissemination"
#include "forced_path.h"
#define main comm_inter_main
#include "comm_inter.c"
#undef main
int main(int argc, char **argv) {
  setenv("RINGMPI_INTERNAL_EAGER_SAFE", "0", 1);
  return comm_inter_main(argc, argv);
}
