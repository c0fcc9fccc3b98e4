// The point-to-point engine's lifetime hooks, called by MPI_Init/MPI_Finalize.
// (Owned by the p2p layer; see progress.cpp for the engine's invariants.)
#pragma once

namespace ringmpi::p2p {

struct State;
State& state();
// After the arena is mapped and MPI_COMM_WORLD exists.
void init();
// Before the arena is unmapped: completes this rank's outstanding sends.
void finalize();

}  // namespace ringmpi::p2p
