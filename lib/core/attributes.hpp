// Attribute caching storage shared by communicators and datatypes
// (MPI-3.1 §6.7). The keyval registry and the callbacks live in
// attributes.cpp; objects only carry an AttributeSet.
#pragma once

#include <utility>
#include <vector>

namespace ringmpi::core {

enum class AttrObject { comm, datatype };

struct AttributeSet {
  std::vector<std::pair<int, void*>> entries;  // (keyval, value) in the order they were set
};

// Called by MPI_Comm_dup / MPI_Type_dup: runs the copy callback of every
// attribute of `from` (whose object handle is old_handle) and fills `to`.
// Returns MPI_SUCCESS or the first error a callback returned.
int copy_attributes(AttrObject kind, int old_handle, const AttributeSet& from, AttributeSet& to);
// Called when an object is freed: runs the delete callbacks, empties the set.
// Returns MPI_SUCCESS or the first error a callback returned.
int delete_attributes(AttrObject kind, int handle, AttributeSet& set);

}  // namespace ringmpi::core
