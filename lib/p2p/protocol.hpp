// The records ranks exchange through the rings (lib/shm/ring.hpp), one
// struct per record kind. Every field is written by the sender before the
// record is committed and only read by the receiver after it sees the
// record; cookies are the sender's (or receiver's) own Request addresses,
// only ever dereferenced by the process that made them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ringmpi::p2p::wire {

enum Kind : std::uint8_t {
  eager = 1,       // Envelope + data: a whole message
  eager_sync = 2,  // Envelope + SyncCookie + data: a whole message; ack when matched
  rts = 3,         // Envelope + Rts: a large message waits in the sender's memory
  cts = 4,         // Cts: the receiver matched an rts
  data = 5,        // Data + bytes: a piece of a large message pushed through the ring
  ack = 6,         // Ack: the receiver matched (eager_sync) or finished reading (rts)
  done_write = 7,  // DoneWrite: the sender finished writing its share into the receiver
  cancel_send = 8,  // CancelSend: the sender cancels a send whose eager_sync or rts is not matched yet
  cancelled = 9,    // Ack: the receiver dropped that message unmatched (no reply if it had matched)
};

// Matching information of a message (MPI-3.1 §3.2.3 envelope).
struct Envelope {
  std::uint32_t context;
  std::int32_t src;  // sender's rank in its local group of the communicator
  std::int32_t tag;
  // Under mpiexec --check, the sender's type signature stamp (lib/p2p/
  // signature.hpp): the predefined type all its data is made of; 0 otherwise
  // (and for messages of mixed types), which the receiver does not check.
  std::uint32_t signature;
};
static_assert(sizeof(Envelope) == 16);

struct SyncCookie {
  std::uint64_t cookie;
};

enum RtsFlags : std::uint32_t {
  rts_push_only = 1,  // the sender's layout is too fragmented to read remotely: ask for a push
};

struct Rts {
  std::uint64_t bytes;   // message size
  std::uint64_t cookie;  // sender's request
  std::uint64_t addr;    // contiguous data (niov == 0) or an iovec array (niov > 0) in the sender
  std::uint64_t niov;
  std::uint32_t flags;
  std::uint32_t reserved;
};

enum CtsMode : std::uint32_t {
  cts_push = 1,   // push `bytes` bytes through the ring as Data records
  cts_write = 2,  // write [write_offset, write_offset+write_bytes) to recv_addr+write_offset
};

struct Cts {
  std::uint64_t send_cookie;
  std::uint64_t recv_cookie;
  std::uint64_t bytes;  // what the receiver takes (less than the message when it truncates)
  std::uint32_t mode;
  std::uint32_t reserved;
  std::uint64_t recv_addr;
  std::uint64_t write_offset;
  std::uint64_t write_bytes;
};

struct Data {
  std::uint64_t recv_cookie;
  std::uint64_t offset;
};

struct Ack {
  std::uint64_t send_cookie;
};

// MPI_Cancel of a send whose eager_sync or rts record is in the receiver's
// hands: the receiver drops the message if it still waits unexpected (and
// answers `cancelled` with the cookie); if a receive matched it already, the
// ack or cts of that match is ahead in the ring and the send completes as
// usual, so no answer is needed.
struct CancelSend {
  std::uint64_t send_cookie;
  std::uint32_t context;
  std::int32_t src;  // the envelope's src
};

struct DoneWrite {
  std::uint64_t recv_cookie;
  std::uint64_t ok;  // 0: the write failed; the receiver copies that share itself
};

}  // namespace ringmpi::p2p::wire
