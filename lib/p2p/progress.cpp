// PLACEHOLDER until the p2p engine lands: no rings yet, nothing to drain.
#include <memory>

#include "core/runtime.hpp"
#include "p2p/engine.hpp"
#include "p2p/state.hpp"
#include "p2p/wait.hpp"

namespace ringmpi::p2p {
State& state() {
  auto& p = core::rt().p2p;
  if (!p) p = std::make_unique<State>();
  return *p;
}
void init() { state(); }
void finalize() {}
void progress() {}
}  // namespace ringmpi::p2p
