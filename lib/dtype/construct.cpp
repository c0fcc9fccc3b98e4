#include "dtype/construct.hpp"

#include <algorithm>
#include <climits>
#include <map>
#include <utility>

#include "dtype/layout.hpp"

namespace ringmpi::dtype {
namespace {

// Arithmetic that remembers whether anything overflowed.
struct Checked {
  bool ok = true;
  std::ptrdiff_t add(std::ptrdiff_t a, std::ptrdiff_t b) {
    std::ptrdiff_t r = 0;
    if (__builtin_add_overflow(a, b, &r)) ok = false;
    return r;
  }
  std::ptrdiff_t mul(std::ptrdiff_t a, std::ptrdiff_t b) {
    std::ptrdiff_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) ok = false;
    return r;
  }
  std::size_t uadd(std::size_t a, std::size_t b) {
    std::size_t r = 0;
    if (__builtin_add_overflow(a, b, &r)) ok = false;
    return r;
  }
  std::size_t umul(std::size_t a, std::size_t b) {
    std::size_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) ok = false;
    return r;
  }
  MPI_Count cmul(MPI_Count a, MPI_Count b) {
    MPI_Count r = 0;
    if (__builtin_mul_overflow(a, b, &r)) ok = false;
    return r;
  }
  MPI_Count cadd(MPI_Count a, MPI_Count b) {
    MPI_Count r = 0;
    if (__builtin_add_overflow(a, b, &r)) ok = false;
    return r;
  }
};

// Bounds of some copies of a type: [lb, ub) with padding, [tlb, tub) of the data.
struct Span {
  std::ptrdiff_t lb, ub, tlb, tub;
};

Span span_of(const Datatype& t) { return {t.lb, t.ub(), t.true_lb, t.true_ub()}; }

// `count` (>= 1) copies of s, `stride` bytes apart.
Span replicate(const Span& s, std::size_t count, std::ptrdiff_t stride, Checked& ck) {
  const std::ptrdiff_t last = ck.mul(std::ptrdiff_t(count) - 1, stride);
  const std::ptrdiff_t lo = std::min<std::ptrdiff_t>(0, last), hi = std::max<std::ptrdiff_t>(0, last);
  return {ck.add(s.lb, lo), ck.add(s.ub, hi), ck.add(s.tlb, lo), ck.add(s.tub, hi)};
}

Span shifted(const Span& s, std::ptrdiff_t d, Checked& ck) {
  return {ck.add(s.lb, d), ck.add(s.ub, d), ck.add(s.tlb, d), ck.add(s.tub, d)};
}

// Collects the members of a new type (each some copies of an old type) and
// derives its size, bounds, alignment and element counts.
class Members {
 public:
  Checked ck;

  void add(const Span& s, const Datatype& t, std::size_t copies) {
    if (copies == 0) return;
    size_ = ck.uadd(size_, ck.umul(copies, t.size));
    elements_ = ck.cadd(elements_, ck.cmul(MPI_Count(copies), t.elements));
    align_ = std::max(align_, t.align);
    if (t.size > 0) {
      if (basic_ == MPI_DATATYPE_NULL && !mixed_)
        basic_ = t.basic;
      else if (basic_ != t.basic)
        mixed_ = true;
      if (!any_data_) {
        tlb_ = s.tlb;
        tub_ = s.tub;
      }
      tlb_ = std::min(tlb_, s.tlb);
      tub_ = std::max(tub_, s.tub);
      any_data_ = true;
    }
    if (!any_) all_ = s;
    all_.lb = std::min(all_.lb, s.lb);
    all_.ub = std::max(all_.ub, s.ub);
    any_ = true;
    if (t.lb_marker) {
      lbm_ = any_lbm_ ? std::min(lbm_, s.lb) : s.lb;
      any_lbm_ = true;
    }
    if (t.ub_marker) {
      ubm_ = any_ubm_ ? std::max(ubm_, s.ub) : s.ub;
      any_ubm_ = true;
    }
  }

  // Fills d's size and bounds; `pad` applies the struct epsilon rule.
  void finish(Datatype& d, bool pad) {
    d.size = size_;
    d.elements = elements_;
    d.align = align_;
    d.basic = mixed_ ? MPI_DATATYPE_NULL : basic_;
    d.lb_marker = any_lbm_;
    d.ub_marker = any_ubm_;
    std::ptrdiff_t lb = any_lbm_ ? lbm_ : (any_ ? all_.lb : 0);
    std::ptrdiff_t ub = any_ubm_ ? ubm_ : (any_ ? all_.ub : 0);
    if (pad && !any_ubm_ && align_ > 1 && ub > lb) {
      const std::ptrdiff_t rem = ck.add(ub, -lb) % std::ptrdiff_t(align_);
      if (rem != 0) ub = ck.add(ub, std::ptrdiff_t(align_) - rem);
    }
    d.lb = lb;
    d.extent = ck.add(ub, -lb);
    d.true_lb = any_data_ ? tlb_ : lb;
    d.true_extent = any_data_ ? ck.add(tub_, -tlb_) : 0;
    if (size_ > std::size_t(PTRDIFF_MAX)) ck.ok = false;
  }

 private:
  std::size_t size_ = 0;
  MPI_Count elements_ = 0;
  std::size_t align_ = 1;
  MPI_Datatype basic_ = MPI_DATATYPE_NULL;
  bool mixed_ = false;
  bool any_ = false, any_data_ = false, any_lbm_ = false, any_ubm_ = false;
  Span all_{0, 0, 0, 0};
  std::ptrdiff_t tlb_ = 0, tub_ = 0, lbm_ = 0, ubm_ = 0;
};

TypePtr fail(std::string* why, const char* what) {
  if (why) *why = what;
  return nullptr;
}

constexpr const char* kTooBig = "the resulting datatype's size or bounds overflow the address space";

TypePtr finish(Datatype d, Members& m, bool pad, std::string* why) {
  m.finish(d, pad);
  if (!m.ck.ok) return fail(why, kTooBig);
  return std::make_shared<Datatype>(std::move(d));
}

Envelope envelope(int combiner, std::vector<int> ints, std::vector<MPI_Aint> addrs, std::vector<TypePtr> types) {
  Envelope e;
  e.combiner = combiner;
  e.ints = std::move(ints);
  e.addrs = std::move(addrs);
  e.types = std::move(types);
  return e;
}

// The envelope of a type made by a _c constructor with a value that does not fit an int.
Envelope large_envelope(int combiner, std::vector<int> ints, std::vector<MPI_Count> counts,
                        std::vector<TypePtr> types) {
  Envelope e;
  e.combiner = combiner;
  e.ints = std::move(ints);
  e.counts = std::move(counts);
  e.types = std::move(types);
  return e;
}

// Types of the indexed family: blocks of `bl[i]` copies of old at byte
// displacement disp[i]. I is int (the MPI-3 constructors) or MPI_Count (the _c ones).
template <class I>
TypePtr indexed_bytes(I count, const I* bl, const MPI_Aint* disp, const TypePtr& old, Envelope env,
                      std::string* why) {
  Members m;
  const Datatype& o = *old;
  const Span s = span_of(o);
  std::map<I, NodePtr> runs;  // one node per block length, so equal blocks share it
  std::vector<std::pair<std::ptrdiff_t, NodePtr>> parts;
  parts.reserve(std::size_t(count));
  for (I i = 0; i < count; ++i) {
    if (bl[i] == 0) continue;
    m.add(shifted(replicate(s, std::size_t(bl[i]), o.extent, m.ck), disp[i], m.ck), o, std::size_t(bl[i]));
    NodePtr& run = runs[bl[i]];
    if (!run) run = repeat(std::size_t(bl[i]), o.extent, o.layout);
    parts.emplace_back(disp[i], run);
  }
  Datatype d;
  d.layout = seq(parts);
  d.env = std::move(env);
  return finish(std::move(d), m, false, why);
}

template <class I>
std::vector<MPI_Aint> scaled(I count, const I* disp, std::ptrdiff_t extent, Checked& ck) {
  std::vector<MPI_Aint> out(static_cast<std::size_t>(count));
  for (I i = 0; i < count; ++i) out[std::size_t(i)] = ck.mul(disp[i], extent);
  return out;
}

}  // namespace

TypePtr make_contiguous(int count, const TypePtr& old, std::string* why) {
  Members m;
  const Datatype& o = *old;
  if (count > 0) m.add(replicate(span_of(o), std::size_t(count), o.extent, m.ck), o, std::size_t(count));
  Datatype d;
  d.layout = repeat(std::size_t(count), o.extent, o.layout);
  d.env = envelope(MPI_COMBINER_CONTIGUOUS, {count}, {}, {old});
  return finish(std::move(d), m, false, why);
}

namespace {
TypePtr vector_bytes(MPI_Count count, MPI_Count bl, MPI_Aint stride, const TypePtr& old, Envelope env,
                     std::string* why) {
  Members m;
  const Datatype& o = *old;
  if (count > 0 && bl > 0) {
    const Span block = replicate(span_of(o), std::size_t(bl), o.extent, m.ck);
    m.add(replicate(block, std::size_t(count), stride, m.ck), o, m.ck.umul(std::size_t(count), std::size_t(bl)));
  }
  Datatype d;
  d.layout = repeat(std::size_t(count), stride, repeat(std::size_t(bl), o.extent, o.layout));
  d.env = std::move(env);
  return finish(std::move(d), m, false, why);
}
}  // namespace

TypePtr make_vector(int count, int blocklength, int stride, const TypePtr& old, std::string* why) {
  Checked ck;
  const MPI_Aint bytes = ck.mul(stride, old->extent);
  if (!ck.ok) return fail(why, kTooBig);
  return vector_bytes(count, blocklength, bytes, old,
                      envelope(MPI_COMBINER_VECTOR, {count, blocklength, stride}, {}, {old}), why);
}

TypePtr make_hvector(int count, int blocklength, MPI_Aint stride, const TypePtr& old, std::string* why) {
  return vector_bytes(count, blocklength, stride, old,
                      envelope(MPI_COMBINER_HVECTOR, {count, blocklength}, {stride}, {old}), why);
}

TypePtr make_indexed(int count, const int* blocklengths, const int* displacements, const TypePtr& old,
                     std::string* why) {
  Checked ck;
  const std::vector<MPI_Aint> disp = scaled(count, displacements, old->extent, ck);
  if (!ck.ok) return fail(why, kTooBig);
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  ints.insert(ints.end(), displacements, displacements + count);
  return indexed_bytes(count, blocklengths, disp.data(), old,
                       envelope(MPI_COMBINER_INDEXED, std::move(ints), {}, {old}), why);
}

TypePtr make_hindexed(int count, const int* blocklengths, const MPI_Aint* displacements, const TypePtr& old,
                      std::string* why) {
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  return indexed_bytes(count, blocklengths, displacements, old,
                       envelope(MPI_COMBINER_HINDEXED, std::move(ints), {displacements, displacements + count},
                                {old}),
                       why);
}

TypePtr make_indexed_block(int count, int blocklength, const int* displacements, const TypePtr& old,
                           std::string* why) {
  Checked ck;
  const std::vector<MPI_Aint> disp = scaled(count, displacements, old->extent, ck);
  if (!ck.ok) return fail(why, kTooBig);
  const std::vector<int> bl(std::size_t(count), blocklength);
  std::vector<int> ints{count, blocklength};
  ints.insert(ints.end(), displacements, displacements + count);
  return indexed_bytes(count, bl.data(), disp.data(), old,
                       envelope(MPI_COMBINER_INDEXED_BLOCK, std::move(ints), {}, {old}), why);
}

TypePtr make_hindexed_block(int count, int blocklength, const MPI_Aint* displacements, const TypePtr& old,
                            std::string* why) {
  const std::vector<int> bl(std::size_t(count), blocklength);
  return indexed_bytes(count, bl.data(), displacements, old,
                       envelope(MPI_COMBINER_HINDEXED_BLOCK, {count, blocklength},
                                {displacements, displacements + count}, {old}),
                       why);
}

namespace {
template <class I>
TypePtr struct_bytes(I count, const I* blocklengths, const MPI_Aint* displacements, const TypePtr* types,
                     Envelope env, std::string* why) {
  Members m;
  std::map<std::pair<const Datatype*, I>, NodePtr> runs;
  std::vector<std::pair<std::ptrdiff_t, NodePtr>> parts;
  parts.reserve(std::size_t(count));
  for (I i = 0; i < count; ++i) {
    const Datatype& t = *types[i];
    const I bl = blocklengths[i];
    if (bl == 0) continue;
    m.add(shifted(replicate(span_of(t), std::size_t(bl), t.extent, m.ck), displacements[i], m.ck), t,
          std::size_t(bl));
    NodePtr& run = runs[{&t, bl}];
    if (!run) run = repeat(std::size_t(bl), t.extent, t.layout);
    parts.emplace_back(displacements[i], run);
  }
  Datatype d;
  d.layout = seq(parts);
  d.env = std::move(env);
  return finish(std::move(d), m, true, why);
}
}  // namespace

TypePtr make_struct(int count, const int* blocklengths, const MPI_Aint* displacements, const TypePtr* types,
                    std::string* why) {
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  return struct_bytes(count, blocklengths, displacements, types,
                      envelope(MPI_COMBINER_STRUCT, std::move(ints), {displacements, displacements + count},
                               {types, types + count}),
                      why);
}

namespace {
template <class I>
TypePtr subarray_of(int ndims, const I* sizes, const I* subsizes, const I* starts, int order, const TypePtr& old,
                    Envelope env, std::string* why) {
  const Datatype& o = *old;
  Checked ck;
  // Visit dimensions from the fastest-varying one outwards.
  auto dim = [&](int k) { return order == MPI_ORDER_C ? ndims - 1 - k : k; };
  NodePtr node = o.layout;
  Span span = span_of(o);
  std::ptrdiff_t stride = o.extent, offset = 0;
  std::size_t copies = 1;
  for (int k = 0; k < ndims; ++k) {
    const int d = dim(k);
    node = repeat(std::size_t(subsizes[d]), stride, node);
    span = replicate(span, std::size_t(subsizes[d]), stride, ck);
    copies = ck.umul(copies, std::size_t(subsizes[d]));
    offset = ck.add(offset, ck.mul(starts[d], stride));
    stride = ck.mul(stride, sizes[d]);
  }
  Members m;
  m.add(shifted(span, offset, ck), o, copies);
  m.ck.ok = m.ck.ok && ck.ok;
  Datatype d;
  d.layout = shift(node, offset);
  d.env = std::move(env);
  TypePtr t = finish(std::move(d), m, false, why);
  if (!t) return t;
  // The subarray spans the whole array: lb 0, extent the full array (§4.1.3).
  t->lb = 0;
  t->extent = stride;
  t->lb_marker = t->ub_marker = true;
  return t;
}
}  // namespace

TypePtr make_subarray(int ndims, const int* sizes, const int* subsizes, const int* starts, int order,
                      const TypePtr& old, std::string* why) {
  std::vector<int> ints{ndims};
  ints.insert(ints.end(), sizes, sizes + ndims);
  ints.insert(ints.end(), subsizes, subsizes + ndims);
  ints.insert(ints.end(), starts, starts + ndims);
  ints.push_back(order);
  return subarray_of(ndims, sizes, subsizes, starts, order, old,
                     envelope(MPI_COMBINER_SUBARRAY, std::move(ints), {}, {old}), why);
}

long long darray_block_size(int darg, long long gsize, int psize) {
  if (darg != MPI_DISTRIBUTE_DFLT_DARG) return darg;
  return (gsize + psize - 1) / psize;
}

DarrayDim darray_dim(int distrib, int darg, long long gsize, int psize, int coord) {
  // BLOCK is cyclic(darg) with darg * psize >= gsize (one block at most);
  // NONE is one block of the whole dimension on a grid of one (§4.1.4).
  long long block;
  switch (distrib) {
    case MPI_DISTRIBUTE_BLOCK: block = darray_block_size(darg, gsize, psize); break;
    case MPI_DISTRIBUTE_CYCLIC: block = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg; break;
    default: block = gsize, psize = 1, coord = 0; break;  // MPI_DISTRIBUTE_NONE
  }
  DarrayDim d;
  d.block = block;
  d.stride = block * psize;
  d.first = block * coord;
  if (d.first >= gsize) {
    d.first = 0;  // owns nothing
    return d;
  }
  const long long left = gsize - d.first;  // elements from our first one on
  const long long starts = (left + d.stride - 1) / d.stride;  // blocks that start before the end
  const long long last = left - (starts - 1) * d.stride;    // elements from the last start on
  if (last >= block) {
    d.count = starts;
  } else {
    d.count = starts - 1;
    d.rem = last;
  }
  return d;
}

namespace {
template <class I>
TypePtr darray_of(int size, int rank, int ndims, const I* gsizes, const int* distribs, const int* dargs,
                  const int* psizes, int order, const TypePtr& old, std::string* why) {
  // The process grid is row-major whatever the array order (§4.1.4).
  std::vector<int> coords(static_cast<std::size_t>(ndims));
  for (int i = 0, left = rank, procs = size; i < ndims; ++i) {
    procs /= psizes[i];
    coords[std::size_t(i)] = left / procs;
    left %= procs;
  }
  Checked ck;
  TypePtr t = old;
  for (int k = 0; k < ndims; ++k) {
    const int i = order == MPI_ORDER_FORTRAN ? k : ndims - 1 - k;  // fastest-varying first
    const DarrayDim d = darray_dim(distribs[i], dargs[i], gsizes[i], psizes[i], coords[std::size_t(i)]);
    const std::ptrdiff_t ex = t->extent;
    const std::ptrdiff_t stride = ck.mul(std::ptrdiff_t(d.stride), ex);
    const std::ptrdiff_t first = ck.mul(std::ptrdiff_t(d.first), ex);
    const std::ptrdiff_t whole = ck.mul(std::ptrdiff_t(gsizes[i]), ex);
    const std::ptrdiff_t tail = ck.mul(std::ptrdiff_t(d.count), stride);
    if (!ck.ok) return fail(why, kTooBig);
    TypePtr u = vector_bytes(d.count, d.block, stride, t, large_envelope(MPI_COMBINER_HVECTOR, {}, {d.count, d.block, stride}, {t}), why);
    if (u && d.rem > 0) {
      const MPI_Count bl[2] = {1, d.rem};
      const MPI_Aint disp[2] = {0, tail};
      const TypePtr types[2] = {u, t};
      u = struct_bytes(MPI_Count(2), bl, disp, types,
                       large_envelope(MPI_COMBINER_STRUCT, {}, {2, 1, d.rem, 0, tail}, {u, t}), why);
    }
    if (u && first != 0) {
      const int one = 1;
      const MPI_Aint disp = first;
      u = make_hindexed(1, &one, &disp, u, why);
    }
    if (u) u = make_resized(u, 0, whole, why);
    if (!u) return u;
    t = std::move(u);
  }
  if (t == old) t = make_dup(old);  // unreachable with ndims >= 1; keeps old's object untouched
  return t;
}
}  // namespace

TypePtr make_darray(int size, int rank, int ndims, const int* gsizes, const int* distribs, const int* dargs,
                    const int* psizes, int order, const TypePtr& old, std::string* why) {
  TypePtr t = darray_of(size, rank, ndims, gsizes, distribs, dargs, psizes, order, old, why);
  if (!t) return t;
  std::vector<int> ints{size, rank, ndims};
  ints.insert(ints.end(), gsizes, gsizes + ndims);
  ints.insert(ints.end(), distribs, distribs + ndims);
  ints.insert(ints.end(), dargs, dargs + ndims);
  ints.insert(ints.end(), psizes, psizes + ndims);
  ints.push_back(order);
  t->env = envelope(MPI_COMBINER_DARRAY, std::move(ints), {}, {old});
  return t;
}

TypePtr make_resized(const TypePtr& old, MPI_Aint lb, MPI_Aint extent, std::string* why) {
  Checked ck;
  ck.add(lb, extent);
  if (!ck.ok) return fail(why, kTooBig);
  auto t = std::make_shared<Datatype>(*old);
  t->lb = lb;
  t->extent = extent;
  t->lb_marker = t->ub_marker = true;
  t->predefined = t->committed = false;
  t->blocks.clear();
  t->name.clear();
  t->attrs = {};
  t->handle = MPI_DATATYPE_NULL;
  t->handle_refs = 0;
  t->env = envelope(MPI_COMBINER_RESIZED, {}, {lb, extent}, {old});
  return t;
}

TypePtr make_dup(const TypePtr& old) {
  auto t = std::make_shared<Datatype>(*old);
  t->predefined = false;
  t->name.clear();
  t->attrs = {};
  t->handle = MPI_DATATYPE_NULL;
  t->handle_refs = 0;
  t->env = envelope(MPI_COMBINER_DUP, {}, {}, {old});
  return t;
}

// ---- the large-count constructors (MPI-4.1 §5.1.2-5.1.7, the _c bindings) ----
// The same types as above from MPI_Count arguments; their envelopes hold the
// counts and displacements as large counts (Envelope::counts).

namespace {
std::vector<MPI_Count> joined(std::initializer_list<MPI_Count> head, std::initializer_list<std::pair<const MPI_Count*, MPI_Count>> arrays) {
  std::vector<MPI_Count> out(head);
  for (const auto& [p, n] : arrays) out.insert(out.end(), p, p + n);
  return out;
}
}  // namespace

TypePtr make_contiguous_c(MPI_Count count, const TypePtr& old, std::string* why) {
  Members m;
  const Datatype& o = *old;
  if (count > 0) m.add(replicate(span_of(o), std::size_t(count), o.extent, m.ck), o, std::size_t(count));
  Datatype d;
  d.layout = repeat(std::size_t(count), o.extent, o.layout);
  d.env = large_envelope(MPI_COMBINER_CONTIGUOUS, {}, {count}, {old});
  return finish(std::move(d), m, false, why);
}

TypePtr make_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, const TypePtr& old,
                      std::string* why) {
  Checked ck;
  const MPI_Aint bytes = ck.mul(stride, old->extent);
  if (!ck.ok) return fail(why, kTooBig);
  return vector_bytes(count, blocklength, bytes, old,
                      large_envelope(MPI_COMBINER_VECTOR, {}, {count, blocklength, stride}, {old}), why);
}

TypePtr make_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, const TypePtr& old,
                       std::string* why) {
  return vector_bytes(count, blocklength, stride, old,
                      large_envelope(MPI_COMBINER_HVECTOR, {}, {count, blocklength, stride}, {old}), why);
}

TypePtr make_indexed_c(MPI_Count count, const MPI_Count* blocklengths, const MPI_Count* displacements,
                       const TypePtr& old, std::string* why) {
  Checked ck;
  const std::vector<MPI_Aint> disp = scaled(count, displacements, old->extent, ck);
  if (!ck.ok) return fail(why, kTooBig);
  return indexed_bytes(count, blocklengths, disp.data(), old,
                       large_envelope(MPI_COMBINER_INDEXED, {},
                                      joined({count}, {{blocklengths, count}, {displacements, count}}), {old}),
                       why);
}

TypePtr make_hindexed_c(MPI_Count count, const MPI_Count* blocklengths, const MPI_Count* displacements,
                        const TypePtr& old, std::string* why) {
  const std::vector<MPI_Aint> disp(displacements, displacements + count);
  return indexed_bytes(count, blocklengths, disp.data(), old,
                       large_envelope(MPI_COMBINER_HINDEXED, {},
                                      joined({count}, {{blocklengths, count}, {displacements, count}}), {old}),
                       why);
}

TypePtr make_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count* displacements,
                             const TypePtr& old, std::string* why) {
  Checked ck;
  const std::vector<MPI_Aint> disp = scaled(count, displacements, old->extent, ck);
  if (!ck.ok) return fail(why, kTooBig);
  const std::vector<MPI_Count> bl(std::size_t(count), blocklength);
  return indexed_bytes(count, bl.data(), disp.data(), old,
                       large_envelope(MPI_COMBINER_INDEXED_BLOCK, {},
                                      joined({count, blocklength}, {{displacements, count}}), {old}),
                       why);
}

TypePtr make_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count* displacements,
                              const TypePtr& old, std::string* why) {
  const std::vector<MPI_Count> bl(std::size_t(count), blocklength);
  const std::vector<MPI_Aint> disp(displacements, displacements + count);
  return indexed_bytes(count, bl.data(), disp.data(), old,
                       large_envelope(MPI_COMBINER_HINDEXED_BLOCK, {},
                                      joined({count, blocklength}, {{displacements, count}}), {old}),
                       why);
}

TypePtr make_struct_c(MPI_Count count, const MPI_Count* blocklengths, const MPI_Count* displacements,
                      const TypePtr* types, std::string* why) {
  const std::vector<MPI_Aint> disp(displacements, displacements + count);
  return struct_bytes(count, blocklengths, disp.data(), types,
                      large_envelope(MPI_COMBINER_STRUCT, {},
                                     joined({count}, {{blocklengths, count}, {displacements, count}}),
                                     {types, types + count}),
                      why);
}

TypePtr make_subarray_c(int ndims, const MPI_Count* sizes, const MPI_Count* subsizes, const MPI_Count* starts,
                        int order, const TypePtr& old, std::string* why) {
  return subarray_of(ndims, sizes, subsizes, starts, order, old,
                     large_envelope(MPI_COMBINER_SUBARRAY, {ndims, order},
                                    joined({}, {{sizes, ndims}, {subsizes, ndims}, {starts, ndims}}), {old}),
                     why);
}

TypePtr make_darray_c(int size, int rank, int ndims, const MPI_Count* gsizes, const int* distribs,
                      const int* dargs, const int* psizes, int order, const TypePtr& old, std::string* why) {
  TypePtr t = darray_of(size, rank, ndims, gsizes, distribs, dargs, psizes, order, old, why);
  if (!t) return t;
  std::vector<int> ints{size, rank, ndims};
  ints.insert(ints.end(), distribs, distribs + ndims);
  ints.insert(ints.end(), dargs, dargs + ndims);
  ints.insert(ints.end(), psizes, psizes + ndims);
  ints.push_back(order);
  t->env = large_envelope(MPI_COMBINER_DARRAY, std::move(ints), joined({}, {{gsizes, ndims}}), {old});
  return t;
}

}  // namespace ringmpi::dtype
