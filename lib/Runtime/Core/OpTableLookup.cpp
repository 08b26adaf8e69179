//===- OpTableLookup.cpp - every row of OpTable.def by name -----*- C++ -*-===//
//
// lookupOp: the whole table, parsed once on first use into a hash map, and
// outputIndexOf. The compiler and the importers use them; the runtime's
// registry keeps the rows of its own ops instead, so a shipped runtime
// links neither the table nor the hash map (a file of its own, so that the
// registry's object file does not pull the hash map's in).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/OpTable.h"

#include "absl/container/flat_hash_map.h"

#include <cassert>

namespace tfrt_fallback::rt {

const OpInfo *lookupOp(std::string_view name) {
  static const absl::flat_hash_map<std::string_view, OpInfo> table = [] {
    absl::flat_hash_map<std::string_view, OpInfo> ops;
    for (const OpRow &row : detail::kOpRows) {
      StatusOr<OpInfo> info = parseOpRow(row);
      // OpTableTest parses every row.
      assert(info.ok() && "malformed row in OpTable.def");
      if (info.ok())
        ops[row.name] = *std::move(info);
    }
    return ops;
  }();
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

int outputIndexOf(const OpInfo &op, std::string_view name) {
  int index = 0;
  for (const OpArg &arg : op.outputs) {
    if (arg.name == name)
      return index;
    if (arg.kind == OpArg::Kind::TypeListAttr || !arg.count.empty())
      return -1;
    ++index;
  }
  return -1;
}

} // namespace tfrt_fallback::rt
