// Registered data representations (see datarep.hpp).
#include "io/datarep.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <map>

#include "dtype/external32.hpp"

namespace ringmpi::io {
namespace {

// Representation bytes converted per call of a conversion function (whole
// elements, at least one): bounds nothing but the calls' sizes, since the
// access holds all of its bytes at once, and makes `position` real.
constexpr MPI_Count kChunk = 64 * 1024;

class Registered final : public dtype::Representation {
 public:
  Registered(std::string name, const DatarepFunctions& fn) : name_(std::move(name)), fn_(fn) {}

  int basic_size(MPI_Datatype h, std::size_t* size, std::string* why) override {
    if (auto it = sizes_.find(h); it != sizes_.end()) {
      *size = it->second;
      return MPI_SUCCESS;
    }
    MPI_Aint extent = 0;
    const int rc = fn_.extent(h, &extent, fn_.extra_state);
    if (rc != MPI_SUCCESS) {
      *why = "the extent function of data representation \"" + name_ + "\" returned error code " +
             std::to_string(rc) + " for " + dtype::describe(h);
      return MPI_ERR_CONVERSION;
    }
    if (extent < 0) {
      *why = "the extent function of data representation \"" + name_ + "\" reported " + std::to_string(extent) +
             " bytes for " + dtype::describe(h);
      return MPI_ERR_CONVERSION;
    }
    *size = sizes_[h] = static_cast<std::size_t>(extent);
    return MPI_SUCCESS;
  }

  int to_file(const void* buf, int count, const dtype::Datatype& t, MPI_Datatype handle, void* out,
              std::string* why) override {
    return convert(true, const_cast<void*>(buf), count, t, handle, out, why);
  }
  int from_file(const void* in, void* buf, int count, const dtype::Datatype& t, MPI_Datatype handle,
                std::string* why) override {
    return convert(false, buf, count, t, handle, const_cast<void*>(in), why);
  }
  bool calls_program() const override { return true; }

 private:
  int convert(bool write, void* buf, int count, const dtype::Datatype& t, MPI_Datatype handle, void* file,
              std::string* why) {
    MPI_Count one = 0;  // representation bytes of one element
    if (int e = dtype::represented_size(*this, t, &one, why)) return e;
    if (count == 0 || one == 0) return MPI_SUCCESS;
    MPI_Datarep_conversion_function* fn = write ? fn_.write : fn_.read;
    MPI_Datarep_conversion_function_c* fn_c = write ? fn_.write_c : fn_.read_c;
    const char* which = write ? "write" : "read";
    if (!fn && !fn_c) {  // MPI_CONVERSION_FN_NULL: the file holds native bytes
      if (one != static_cast<MPI_Count>(t.size)) {
        *why = "data representation \"" + name_ + "\" has no " + which + " conversion function, so its data are " +
               "native bytes, but its extent function gives " + dtype::describe(handle) + " " + std::to_string(one) +
               " bytes, not " + std::to_string(t.size);
        return MPI_ERR_CONVERSION;
      }
      const std::size_t bytes = static_cast<std::size_t>(count) * t.size;
      if (write) dtype::pack(buf, count, t, 0, file, bytes);
      else dtype::unpack(buf, count, t, 0, file, bytes);
      return MPI_SUCCESS;
    }
    const MPI_Count items = std::max<MPI_Count>(t.elements, 1);  // data items of one element
    MPI_Count per_call = std::max<MPI_Count>(kChunk / one, 1);
    if (fn) per_call = std::min<MPI_Count>(per_call, INT_MAX / items);
    if (per_call == 0) {
      *why = "one element of " + dtype::describe(handle) + " has " + std::to_string(items) +
             " data items, more than the int count of data representation \"" + name_ +
             "\"'s conversion function takes (register it with MPI_Register_datarep_c)";
      return MPI_ERR_CONVERSION;
    }
    for (MPI_Count done = 0; done < count;) {
      const MPI_Count n = std::min<MPI_Count>(per_call, count - done);
      void* at = static_cast<std::byte*>(file) + done * one;
      const MPI_Offset position = done * items;
      const int rc = fn ? fn(buf, handle, static_cast<int>(n * items), at, position, fn_.extra_state)
                        : fn_c(buf, handle, n * items, at, position, fn_.extra_state);
      if (rc != MPI_SUCCESS) {
        *why = std::string("the ") + which + " conversion function of data representation \"" + name_ +
               "\" returned error code " + std::to_string(rc) + " (" + std::to_string(n * items) +
               " items of " + dtype::describe(handle) + " from position " + std::to_string(position) + ")";
        return MPI_ERR_CONVERSION;
      }
      done += n;
    }
    return MPI_SUCCESS;
  }

  std::string name_;
  DatarepFunctions fn_;
  std::map<MPI_Datatype, std::size_t> sizes_;
};

}  // namespace

bool predefined_datarep(const char* d) {
  return std::strcmp(d, "native") == 0 || std::strcmp(d, "internal") == 0 || std::strcmp(d, "external32") == 0;
}

Outcome register_datarep(const char* name, const DatarepFunctions& fn) {
  if (predefined_datarep(name))
    return {MPI_ERR_DUP_DATAREP, std::string("argument datarep=\"") + name + "\" is a predefined data representation"};
  auto& all = state().datareps;
  if (all.count(name))
    return {MPI_ERR_DUP_DATAREP, std::string("argument datarep=\"") + name + "\" is registered already"};
  if (!fn.extent) return {MPI_ERR_ARG, "argument dtype_file_extent_fn is NULL"};
  all.emplace(name, std::make_shared<Registered>(name, fn));
  return {};
}

bool find_datarep(const std::string& name, std::shared_ptr<dtype::Representation>* rep) {
  *rep = nullptr;
  if (name == "native" || name == "internal") return true;
  if (name == "external32") {
    *rep = dtype::external32();
    return true;
  }
  const auto& all = state().datareps;
  const auto it = all.find(name);
  if (it == all.end()) return false;
  *rep = it->second;
  return true;
}

}  // namespace ringmpi::io
