// The p2p engine's per-process state (hung off core::Runtime).
#pragma once

namespace ringmpi::p2p {

struct State {};

}  // namespace ringmpi::p2p
