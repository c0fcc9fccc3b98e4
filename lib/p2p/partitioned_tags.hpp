// The tags of partitioned communication on a communicator's hidden context
// (protocol: partitioned.hpp); exchange/tags.hpp places them in its map.
#pragma once

namespace ringmpi::p2p {

inline constexpr int kPartSetupTag = -7;
inline constexpr int kPartDataTop = -(1 << 29) - 256;
inline constexpr int kPartDataSpan = (1 << 29) - 512;  // down to -(1 << 30) + 256, above the schedule tags

}  // namespace ringmpi::p2p
