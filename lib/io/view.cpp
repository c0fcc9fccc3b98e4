// File views (see view.hpp).
#include "io/view.hpp"

#include <sys/uio.h>

#include <algorithm>
#include <climits>
#include <cstdint>

namespace ringmpi::io {
namespace {

// The made-up address of the view's first tile: dtype::to_iov places the
// blocks of (base, count, filetype) at base + their displacement, and
// subtracting base again gives their place relative to disp. It lies far
// from both 0 and the top of the address space, so no displacement of a
// real filetype makes the arithmetic wrap; nothing is ever read there.
constexpr std::uintptr_t kBase = std::uintptr_t(1) << 46;

void append(std::vector<Piece>& out, MPI_Offset offset, std::size_t length) {
  if (length == 0) return;
  if (!out.empty() && out.back().offset + static_cast<MPI_Offset>(out.back().length) == offset)
    out.back().length += length;
  else
    out.push_back({offset, length});
}

// Calls f(place, length) for the blocks behind stream bytes [from, from +
// bytes) of (base, count, t), where place is the block's address less kBase;
// stops early when f returns false. Returns whether it went to the end.
template <class F>
bool blocks_of(const dtype::Datatype& t, std::uintptr_t base, int count, std::size_t from, std::size_t bytes, F&& f) {
  std::size_t done = 0;
  iovec iov[64];
  while (done < bytes) {
    std::size_t covered = 0;
    const std::size_t n = dtype::to_iov(reinterpret_cast<const void*>(base), count, t, from + done, bytes - done, iov,
                                        64, &covered);
    for (std::size_t i = 0; i < n; ++i)
      if (!f(static_cast<std::ptrdiff_t>(reinterpret_cast<std::uintptr_t>(iov[i].iov_base) - kBase), iov[i].iov_len))
        return false;
    if (covered == 0) break;  // cannot happen for a type with data; never spin
    done += covered;
  }
  return true;
}

// Calls f(offset from disp, length) for the file blocks behind stream bytes
// [from, from + bytes) of view v.
template <class F>
void each_block(const View& v, std::uint64_t from, std::size_t bytes, F&& f) {
  while (bytes > 0) {
    const std::uint64_t tile = from / v.tile_size;
    const std::size_t in = static_cast<std::size_t>(from % v.tile_size);
    // As many whole tiles as one call can take (count is an int).
    const std::uint64_t tiles = std::min<std::uint64_t>((in + bytes + v.tile_size - 1) / v.tile_size, INT_MAX / 2);
    const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, tiles * v.tile_size - in));
    const std::uintptr_t base = kBase + static_cast<std::uintptr_t>(static_cast<std::int64_t>(tile) * v.tile_extent);
    blocks_of(*v.file_filetype, base, static_cast<int>(tiles), in, take, [&](std::ptrdiff_t at, std::size_t len) {
      f(static_cast<MPI_Offset>(at), len);
      return true;
    });
    from += take;
    bytes -= take;
  }
}

}  // namespace

const char* typemap_problem(const dtype::Datatype& t, bool writable) {
  std::ptrdiff_t prev_start = 0, prev_end = 0;
  bool first = true;
  const char* problem = nullptr;
  blocks_of(t, kBase, 1, 0, t.size, [&](std::ptrdiff_t start, std::size_t len) {
    if (start < 0) problem = "has data at a negative displacement";
    else if (!first && start < prev_start) problem = "has decreasing displacements";
    else if (!first && writable && start < prev_end) problem = "has overlapping data, and the file is open for writing";
    first = false;
    prev_start = start;
    prev_end = std::max(prev_end, start + static_cast<std::ptrdiff_t>(len));
    return problem == nullptr;
  });
  return problem;
}

View default_view() {
  View v;
  make_view(0, MPI_BYTE, MPI_BYTE, "native", nullptr, false, &v);  // cannot fail
  return v;
}

Outcome make_view(MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const std::string& datarep,
                  std::shared_ptr<dtype::Representation> rep, bool writable, View* out) {
  View v;
  v.disp = disp;
  v.etype = dtype::lookup_shared(etype);
  v.filetype = dtype::lookup_shared(filetype);
  v.etype_handle = etype;
  v.filetype_handle = filetype;
  v.datarep = datarep;
  v.rep = std::move(rep);
  v.writable = writable;
  Outcome o;
  if (!v.rep || !v.rep->calls_program()) o = prepare(v);
  *out = std::move(v);
  return o;
}

Outcome prepare(View& v) {
  if (v.ready) return {};
  v.file_filetype = v.filetype;
  v.etype_size = v.etype->size;
  if (v.rep) {
    std::string why;
    MPI_Count etype_bytes = 0;
    int e = dtype::represented_size(*v.rep, *v.etype, &etype_bytes, &why);
    if (e == MPI_SUCCESS) e = dtype::represented_layout(*v.rep, v.filetype, &v.file_filetype, &why);
    if (e != MPI_SUCCESS) return {e, "the view's data representation \"" + v.datarep + "\": " + why};
    if (etype_bytes == 0)
      return {MPI_ERR_CONVERSION, "the view's etype " + dtype::describe(v.etype_handle) +
                                      " takes no bytes in data representation \"" + v.datarep + "\""};
    v.etype_size = static_cast<std::size_t>(etype_bytes);
    if (v.file_filetype != v.filetype)
      if (const char* problem = typemap_problem(*v.file_filetype, v.writable))
        return {MPI_ERR_IO, "the view's filetype " + dtype::describe(v.filetype_handle) + ", laid out in data "
                            "representation \"" + v.datarep + "\", " + problem + " (MPI-4.1 14.1.1)"};
  }
  v.tile_size = v.file_filetype->size;
  v.tile_extent = v.file_filetype->extent;
  v.contiguous = v.file_filetype->contiguous() && v.file_filetype->lb == 0;
  v.ready = true;
  return {};
}

void pieces_of(const View& v, std::uint64_t from, std::size_t bytes, std::vector<Piece>& out) {
  if (bytes == 0 || v.tile_size == 0) return;
  if (v.contiguous) {
    append(out, v.disp + static_cast<MPI_Offset>(from), bytes);
    return;
  }
  each_block(v, from, bytes, [&](MPI_Offset at, std::size_t len) { append(out, v.disp + at, len); });
}

MPI_Offset byte_offset(const View& v, MPI_Offset pos) {
  const std::uint64_t from = static_cast<std::uint64_t>(pos) * v.etype_size;
  if (v.contiguous) return v.disp + static_cast<MPI_Offset>(from);
  if (v.tile_size == 0) return v.disp;
  MPI_Offset at = 0;
  each_block(v, from, 1, [&](MPI_Offset o, std::size_t) { at = o; });
  return v.disp + at;
}

MPI_Offset position_at(const View& v, MPI_Offset end) {
  const MPI_Offset x = end - v.disp;
  if (x <= 0 || v.tile_size == 0) return 0;
  std::uint64_t before;  // stream bytes lying before file byte `end`
  if (v.contiguous) {
    before = static_cast<std::uint64_t>(x);
  } else {
    const std::uint64_t tiles = v.tile_extent > 0 ? static_cast<std::uint64_t>(x / v.tile_extent) : 0;
    const MPI_Offset rest = x - static_cast<MPI_Offset>(tiles) * v.tile_extent;
    before = tiles * v.tile_size;
    View one = v;  // the blocks of one tile, placed from 0
    one.disp = 0;
    each_block(one, 0, v.tile_size, [&](MPI_Offset o, std::size_t len) {
      if (o < rest) before += std::min<std::uint64_t>(len, static_cast<std::uint64_t>(rest - o));
    });
  }
  return static_cast<MPI_Offset>((before + v.etype_size - 1) / v.etype_size);
}

}  // namespace ringmpi::io
