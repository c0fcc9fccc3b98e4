// mpiexec --coll-report: each rank writes, at MPI_Finalize, the calls and
// time of every collective algorithm of every communicator it used
// (coll/plan.hpp) into $RINGMPI_COLL_REPORT/coll-<world rank>.txt, which
// mpiexec reads after the job (launcher/coll_report.cpp). One line per
// communicator, family and algorithm that ran:
//   <communicator>\t<ranks>\t<family>\t<algorithm>\t<calls>\t<nanoseconds>
// (the communicator: its name, else "context <id>", tabs and newlines
// replaced by spaces; nanoseconds of the blocking calls only).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "coll/plan.hpp"
#include "core/runtime.hpp"

namespace ringmpi::coll {

void write_report() {
  const char* dir = std::getenv("RINGMPI_COLL_REPORT");
  if (!dir || !*dir) return;
  const std::string path = std::string(dir) + "/coll-" + std::to_string(core::rt().rank) + ".txt";
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) return;  // mpiexec says that a rank's file is missing
  for (const auto& p : all_plans()) {
    std::string label = p->label;
    for (char& ch : label)
      if (ch == '\t' || ch == '\n') ch = ' ';
    for (int i = 0; i < kFamilies; ++i)
      for (int a = 0; a < kAlgos; ++a) {
        const std::uint64_t calls = p->calls[static_cast<std::size_t>(i)][static_cast<std::size_t>(a)];
        if (calls == 0) continue;
        std::fprintf(f, "%s\t%d\t%s\t%s\t%llu\t%llu\n", label.c_str(), p->size, family_name(static_cast<Family>(i)),
                     algo_name(static_cast<Algo>(a)), static_cast<unsigned long long>(calls),
                     static_cast<unsigned long long>(p->nanos[static_cast<std::size_t>(i)][static_cast<std::size_t>(a)]));
      }
  }
  std::fclose(f);
}

}  // namespace ringmpi::coll
