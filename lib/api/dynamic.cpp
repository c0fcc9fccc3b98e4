// Process creation and management (MPI-4.1 chapter 11). MPI_Comm_spawn and
// MPI_Comm_spawn_multiple start processes through the root's mpiexec, also
// from a communicator spanning two jobs (lib/comm/dynamic.cpp,
// docs/design/dynamic-processes.md); here are their argument checks and
// the reserved info keys. Ports (lib/comm/ports.cpp), the name service and
// MPI_Comm_join (api/names.cpp) work inside one job and between two jobs
// of separate mpiexec runs. MPI_Comm_get_parent lives with the
// communicator queries. MPI_Comm_disconnect works on every communicator.
#include <unistd.h>

#include <cctype>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "api/call.hpp"
#include "api/comm_free.hpp"
#include "api/names.hpp"
#include "comm/dynamic.hpp"
#include "comm/ports.hpp"
#include "core/info.hpp"

using namespace ringmpi;
using ringmpi::api::Call;

namespace ringmpi::api {
int deliver(Call& call, const comm::Made& m, MPI_Comm* newcomm);
int check_info(Call& call, MPI_Info info, const char* arg);
}
using ringmpi::api::check_info;

namespace {

template <class... V>
std::string said(const char* fmt, V... v) {
  char b[600];
  std::snprintf(b, sizeof b, fmt, v...);
  return b;
}

// The "soft" info value (MPI-4.1 §11.3.4): a comma-separated list of
// a, a:b and a:b:c triplets, each value in 0..maxprocs. Empty *why: valid.
std::vector<std::int32_t> parse_soft(const std::string& text, int maxprocs, std::string* why) {
  std::vector<char> allowed(static_cast<std::size_t>(maxprocs) + 1, 0);
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = text.find(',', at);
    const std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    long v[3] = {0, 0, 1};
    int n = 0;
    const char* p = item.c_str();
    while (n < 3) {
      while (std::isspace(static_cast<unsigned char>(*p))) ++p;
      char* end;
      v[n] = std::strtol(p, &end, 10);
      if (end == p) break;
      ++n;
      p = end;
      while (std::isspace(static_cast<unsigned char>(*p))) ++p;
      if (*p != ':') break;
      ++p;
    }
    if (n == 0 || *p != '\0' || (n == 3 && v[2] == 0)) {
      *why = "'" + item + "' is not a number, a:b or a:b:c";
      return {};
    }
    if (n == 1) v[1] = v[0];
    for (long x = v[0]; v[2] > 0 ? x <= v[1] : x >= v[1]; x += v[2]) {
      if (x < 0 || x > maxprocs) {
        *why = "it allows " + std::to_string(x) + " processes, outside 0..maxprocs=" + std::to_string(maxprocs);
        return {};
      }
      allowed[static_cast<std::size_t>(x)] = 1;
    }
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  std::vector<std::int32_t> out;
  for (int x = maxprocs; x >= 0; --x)
    if (allowed[static_cast<std::size_t>(x)]) out.push_back(x);
  return out;
}

// One command of a spawn, checked on the root; a non-empty return is the
// error message (its class in *code).
std::string read_command(const char* command, char** argv, int maxprocs, MPI_Info info, const char* which,
                         shm::SpawnCommand* c, int* code) {
  *code = MPI_ERR_ARG;
  if (!command) return said("argument %scommand is NULL", which);
  if (!*command) return said("argument %scommand is an empty string", which);
  if (maxprocs < 0) return said("argument %smaxprocs=%d is negative", which, maxprocs);
  c->program = command;
  c->maxprocs = maxprocs;
  if (argv)
    for (char** a = argv; *a; ++a) c->args.emplace_back(*a);
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) c->wdir = cwd;
  if (info == MPI_INFO_NULL) return {};
  const core::Info* in = core::info_state().table.get(info);
  *code = MPI_ERR_INFO;
  if (!in) return said("argument %sinfo=0x%x is not a valid info object", which, static_cast<unsigned>(info));
  // A malformed value makes the info argument invalid (MPI_ERR_INFO; the
  // class MPI_ERR_INFO_VALUE means a value too long); a host that is not
  // this machine is a place no process can be started (MPI_ERR_SPAWN).
  *code = MPI_ERR_INFO;
  if (const std::string* v = in->find("wdir")) {
    if (v->empty()) return said("info key wdir of %scommand '%s' is empty", which, command);
    c->wdir = (*v)[0] == '/' || c->wdir.empty() ? *v : c->wdir + "/" + *v;
  }
  if (const std::string* v = in->find("path")) c->path = *v;
  if (const std::string* v = in->find("soft")) {
    std::string why;
    c->soft = parse_soft(*v, maxprocs, &why);
    if (!why.empty()) return said("info key soft='%s' of %scommand '%s': %s", v->c_str(), which, command, why.c_str());
  }
  if (const std::string* v = in->find("host")) {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    *code = MPI_ERR_SPAWN;
    if (*v != host && *v != "localhost" && *v != "127.0.0.1")
      return said("info key host='%s' of %scommand '%s' names another machine; a ringmpi job runs on this one "
                  "('%s') only",
                  v->c_str(), which, command, host);
  }
  // "arch" is ignored (one machine, one architecture); "file" too: no
  // launcher-specific file format is defined.
  return {};
}

// Both spawn calls; the arrays are read on the root only.
int spawn_common(Call& call, comm::Comm* c, bool multiple, int count, char* commands[], char** argvs[],
                 const int maxprocs[], const MPI_Info infos[], int root, MPI_Comm* intercomm, int* errcodes) {
  if (int e = call.not_null(intercomm, "intercomm")) return e;
  *intercomm = MPI_COMM_NULL;
  comm::LocalError bad;
  std::vector<shm::SpawnCommand> cmds;
  if (root < 0 || root >= c->size()) {
    bad = {MPI_ERR_ROOT, said("argument root=%d is outside 0..%d of comm", root, c->size() - 1), comm::BadArg::root,
           root};
  } else if (c->rank == root) {
    long total = 0;
    if (count <= 0)
      bad = {MPI_ERR_ARG, said("argument count=%d is not positive", count), comm::BadArg::spawn, count};
    else if (!commands)
      bad = {MPI_ERR_ARG, "argument array_of_commands is NULL", comm::BadArg::spawn, 0};
    else if (!maxprocs)
      bad = {MPI_ERR_ARG, "argument array_of_maxprocs is NULL", comm::BadArg::spawn, 0};
    for (int i = 0; i < count && bad.code == MPI_SUCCESS; ++i) {
      char which[48] = "";
      if (multiple) std::snprintf(which, sizeof which, "array_of_commands[%d]: ", i);
      shm::SpawnCommand one;
      int code;
      std::string why = read_command(commands[i], argvs ? argvs[i] : nullptr, maxprocs[i],
                                     infos ? infos[i] : MPI_INFO_NULL, which, &one, &code);
      if (why.empty() && one.maxprocs == 0 && !multiple) {
        code = MPI_ERR_ARG;
        why = "argument maxprocs=0: MPI_Comm_spawn must start at least one process";
      }
      if (!why.empty()) bad = {code, why, comm::BadArg::spawn, i};
      total += one.maxprocs;
      cmds.push_back(std::move(one));
    }
    if (bad.code == MPI_SUCCESS && total == 0)
      bad = {MPI_ERR_ARG, "every maxprocs is 0: MPI_Comm_spawn_multiple must start at least one process",
             comm::BadArg::spawn, 0};
    if (bad.code == MPI_SUCCESS && total > INT_MAX / 2)
      bad = {MPI_ERR_ARG, said("the maxprocs add up to %ld processes", total), comm::BadArg::spawn, 0};
  }
  std::vector<int> codes;
  const comm::Made m = comm::spawn(*c, root, c->rank == root ? &cmds : nullptr, bad, &codes);
  // Every rank gets the root's codes (empty when the call failed before
  // asking mpiexec: an argument error, reported as the call's error).
  if (errcodes != MPI_ERRCODES_IGNORE)
    for (std::size_t i = 0; i < codes.size(); ++i) errcodes[i] = codes[i];
  return api::deliver(call, m, intercomm);
}

}  // namespace

extern "C" {

// MPI-4.1 §11.3.2. command, argv, maxprocs and info matter on the root
// only; array_of_errcodes is filled on every rank with the root's codes (so
// it must hold the root's maxprocs entries everywhere, as in MPICH).
int MPI_Comm_spawn(const char* command, char* argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                   MPI_Comm* intercomm, int array_of_errcodes[]) {
  Call call("MPI_Comm_spawn");
  comm::Comm* c;
  if (int e = call.intracomm(comm, "comm", &c)) return e;
  char* cmd = const_cast<char*>(command);
  char** argvs[1] = {argv};
  return spawn_common(call, c, false, 1, &cmd, argvs, &maxprocs, &info, root, intercomm, array_of_errcodes);
}

int MPI_Comm_spawn_multiple(int count, char* array_of_commands[], char** array_of_argv[],
                            const int array_of_maxprocs[], const MPI_Info array_of_info[], int root, MPI_Comm comm,
                            MPI_Comm* intercomm, int array_of_errcodes[]) {
  Call call("MPI_Comm_spawn_multiple");
  comm::Comm* c;
  if (int e = call.intracomm(comm, "comm", &c)) return e;
  // MPI_ARGVS_NULL: no arguments for any command.
  return spawn_common(call, c, true, count, array_of_commands, array_of_argv, array_of_maxprocs, array_of_info, root,
                      intercomm, array_of_errcodes);
}

// MPI-4.1 §11.4: ports inside one job (lib/comm/ports.cpp); the info
// argument carries no key ringmpi uses.
int MPI_Open_port(MPI_Info info, char* port_name) {
  Call call("MPI_Open_port");
  if (int e = call.initialized()) return e;
  if (int e = check_info(call, info, "info")) return e;
  if (int e = call.not_null(port_name, "port_name")) return e;
  const std::string name = comm::open_port();
  if (name.empty())
    return call.fail(MPI_ERR_PORT, "this process has 64 ports open already; close one with MPI_Close_port first");
  std::snprintf(port_name, MPI_MAX_PORT_NAME, "%s", name.c_str());
  return MPI_SUCCESS;
}

int MPI_Close_port(const char* port_name) {
  Call call("MPI_Close_port");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(port_name, "port_name")) return e;
  std::string why;
  if (int e = comm::close_port(port_name, &why)) return call.fail(e, "%s", why.c_str());
  return MPI_SUCCESS;
}

namespace {
// Accept and connect: port_name and info matter on the root only.
int accept_or_connect(Call& call, bool accepting, const char* port_name, MPI_Info info, int root, MPI_Comm comm,
                      MPI_Comm* newcomm) {
  comm::Comm* c;
  if (int e = call.intracomm(comm, "comm", &c)) return e;
  if (int e = call.not_null(newcomm, "newcomm")) return e;
  *newcomm = MPI_COMM_NULL;
  comm::LocalError bad;
  if (root < 0 || root >= c->size())
    bad = {MPI_ERR_ROOT, said("argument root=%d is outside 0..%d of comm", root, c->size() - 1), comm::BadArg::root,
           root};
  else if (c->rank == root && !port_name)
    bad = {MPI_ERR_PORT, "argument port_name is NULL on the root", comm::BadArg::spawn, 0};
  else if (c->rank == root && info != MPI_INFO_NULL && !core::info_state().table.get(info))
    bad = {MPI_ERR_INFO, said("argument info=0x%x is not a valid info object", static_cast<unsigned>(info)),
           comm::BadArg::spawn, 0};
  const std::string port = c->rank == root && port_name ? port_name : "";
  const comm::Made m = accepting ? comm::accept(*c, root, port, bad) : comm::connect(*c, root, port, bad);
  return api::deliver(call, m, newcomm);
}
}  // namespace

int MPI_Comm_accept(const char* port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm) {
  Call call("MPI_Comm_accept");
  return accept_or_connect(call, true, port_name, info, root, comm, newcomm);
}

int MPI_Comm_connect(const char* port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm* newcomm) {
  Call call("MPI_Comm_connect");
  return accept_or_connect(call, false, port_name, info, root, comm, newcomm);
}

// MPI-4.1 §11.4.4: the name service is a directory of the user's
// (api/names.cpp), shared by every job of that user on this machine.
int MPI_Publish_name(const char* service_name, MPI_Info info, const char* port_name) {
  Call call("MPI_Publish_name");
  if (int e = call.initialized()) return e;
  if (int e = check_info(call, info, "info")) return e;
  if (int e = call.not_null(service_name, "service_name")) return e;
  if (int e = call.not_null(port_name, "port_name")) return e;
  std::string why;
  if (int e = api::publish_name(service_name, port_name, &why)) return call.fail(e, "%s", why.c_str());
  return MPI_SUCCESS;
}

int MPI_Unpublish_name(const char* service_name, MPI_Info info, const char* port_name) {
  Call call("MPI_Unpublish_name");
  if (int e = call.initialized()) return e;
  if (int e = check_info(call, info, "info")) return e;
  if (int e = call.not_null(service_name, "service_name")) return e;
  if (int e = call.not_null(port_name, "port_name")) return e;
  std::string why;
  if (int e = api::unpublish_name(service_name, port_name, &why)) return call.fail(e, "%s", why.c_str());
  return MPI_SUCCESS;
}

int MPI_Lookup_name(const char* service_name, MPI_Info info, char* port_name) {
  Call call("MPI_Lookup_name");
  if (int e = call.initialized()) return e;
  if (int e = check_info(call, info, "info")) return e;
  if (int e = call.not_null(service_name, "service_name")) return e;
  if (int e = call.not_null(port_name, "port_name")) return e;
  std::string why, port;
  if (int e = api::lookup_name(service_name, &port, &why)) return call.fail(e, "%s", why.c_str());
  std::snprintf(port_name, MPI_MAX_PORT_NAME, "%s", port.c_str());
  return MPI_SUCCESS;
}

// MPI-4.1 §11.8.4 (api/names.cpp: the exchange over the socket).
int MPI_Comm_join(int fd, MPI_Comm* intercomm) {
  Call call("MPI_Comm_join");
  if (int e = call.initialized()) return e;
  if (int e = call.not_null(intercomm, "intercomm")) return e;
  *intercomm = MPI_COMM_NULL;
  return api::join(call, fd, intercomm);
}

// MPI-3.1 §10.5.4: collective; waits for the communication on comm to
// complete, then frees it. The barrier is that wait: every member has made
// all its calls on comm before any frees it (pending requests must have been
// completed by the user already).
int MPI_Comm_disconnect(MPI_Comm* comm) {
  Call call("MPI_Comm_disconnect");
  return api::free_comm(call, comm, true);
}

}  // extern "C"
