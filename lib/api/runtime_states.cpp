// Runtime's constructor, destructor and its one object live here, where every layer's State
// is a complete type (p2p's has a deleter of its own, p2p::StateDelete, so
// that p2p/state.hpp stays p2p's).
#include "api/session.hpp"
#include "comm/comm.hpp"
#include "core/attributes.hpp"
#include "core/errors.hpp"
#include "core/info.hpp"
#include "core/runtime.hpp"
#include "core/trace.hpp"
#include "dtype/datatype.hpp"
#include "group/group.hpp"
#include "io/file.hpp"
#include "rma/window.hpp"

namespace ringmpi::core {
Runtime::Runtime() = default;
Runtime::~Runtime() = default;

RuntimeStorage::RuntimeStorage() : runtime() {}
// Priority 101, the first a program may use: the library's other static
// constructors (and anything they call) may reach rt().
[[gnu::init_priority(101)]] RuntimeStorage g_runtime;
}  // namespace ringmpi::core
