#include "core/info.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "core/runtime.hpp"

namespace ringmpi::core {

const std::string* Info::find(const std::string& key) const {
  for (const auto& [k, v] : entries)
    if (k == key) return &v;
  return nullptr;
}

void Info::set(std::string key, std::string value) {
  for (auto& [k, v] : entries)
    if (k == key) {
      v = std::move(value);
      return;
    }
  entries.emplace_back(std::move(key), std::move(value));
}

bool Info::erase(const std::string& key) {
  for (auto it = entries.begin(); it != entries.end(); ++it)
    if (it->first == key) {
      entries.erase(it);
      return true;
    }
  return false;
}

std::string strip(const char* s) {
  std::string out(s);
  const auto first = out.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  const auto last = out.find_last_not_of(' ');
  return out.substr(first, last - first + 1);
}

namespace {

const char* thread_level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

// MPI-3.1 §9: the keys of MPI_INFO_ENV this process can answer truthfully
// (no "soft" or "file": the job was not started with them).
Info environment() {
  Info env;
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  for (std::size_t at = 0; at < all.size();) {
    const std::size_t end = all.find('\0', at);
    args.push_back(all.substr(at, end == std::string::npos ? std::string::npos : end - at));
    if (end == std::string::npos) break;
    at = end + 1;
  }
  if (!args.empty()) {
    env.set("command", args[0]);
    std::string rest;
    for (std::size_t i = 1; i < args.size(); ++i) rest += (i > 1 ? " " : "") + args[i];
    if (!rest.empty()) env.set("argv", rest);
  }
  env.set("maxprocs", std::to_string(rt().world_size));
  char buf[4096];
  if (getcwd(buf, sizeof buf)) env.set("wdir", buf);
  if (gethostname(buf, sizeof buf) == 0) {
    buf[sizeof buf - 1] = '\0';
    env.set("host", buf);
  }
  utsname u;
  if (uname(&u) == 0) env.set("arch", u.machine);
  env.set("thread_level", thread_level_name(rt().thread_level));
  return env;
}

}  // namespace

InfoState::InfoState() { table.put_predefined(1, std::make_unique<Info>(environment())); }

InfoState& info_state() {
  auto& p = rt().infos;
  if (!p) p = std::make_unique<InfoState>();
  return *p;
}

}  // namespace ringmpi::core
