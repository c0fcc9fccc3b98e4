// Runtime's constructor and destructor live here, where every layer's State
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
}  // namespace ringmpi::core
