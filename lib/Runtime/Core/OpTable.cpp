//===- OpTable.cpp - what tfrt-fallback knows of TF ops ---------*- C++ -*-===//
//
// Parses OpTable.def's signatures once, on first use, into a hash map.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/OpTable.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "tfrt_fallback/Runtime/StrCat.h"

#include <cassert>

namespace tfrt_fallback::rt {

namespace {

struct Row {
  absl::string_view name;
  OpEffects effects;
  int minInputs;
  int maxInputs;
  absl::string_view inputs;
  absl::string_view outputs;
};

constexpr Row kRows[] = {
#define TF_OP(Name, Effects, MinInputs, MaxInputs, Inputs, Outputs)            \
  {#Name, OpEffects::Effects, MinInputs, MaxInputs, Inputs, Outputs},
#include "tfrt_fallback/Runtime/OpTable.def"
};

/// The TensorFlow names of the dtypes a signature may fix: DTypes.def's, and
/// the handles the runtime has no DType for.
bool isFixedDTypeName(absl::string_view name) {
  static constexpr absl::string_view kNames[] = {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  TFName,
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, PyName, Name,    \
                                      Mlir)                                    \
  TFName,
#include "tfrt_fallback/Runtime/DTypes.def"
      "resource",
      "variant",
  };
  for (absl::string_view known : kNames)
    if (name == known)
      return true;
  return false;
}

bool isIdentifier(absl::string_view text) {
  if (text.empty() || absl::ascii_isdigit(text[0]))
    return false;
  for (char c : text)
    if (!absl::ascii_isalnum(c) && c != '_')
      return false;
  return true;
}

} // namespace

StatusOr<std::vector<OpArg>> parseOpArgs(absl::string_view text) {
  std::vector<OpArg> args;
  if (absl::StripAsciiWhitespace(text).empty())
    return args;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    item = absl::StripAsciiWhitespace(item);
    auto bad = [&](absl::string_view why) {
      return InvalidArgumentError(
          strCat("bad argument '", item, "' in '", text, "': ", why));
    };
    OpArg arg;
    absl::string_view rest = item;
    if (size_t colon = rest.find(':'); colon != absl::string_view::npos) {
      arg.name = rest.substr(0, colon);
      rest = rest.substr(colon + 1);
      if (!isIdentifier(arg.name))
        return bad("the name is not an identifier");
    }
    if (absl::ConsumePrefix(&rest, "[")) {
      if (!absl::ConsumeSuffix(&rest, "]") || !isIdentifier(rest))
        return bad("a list is `[Attr]`");
      arg.kind = OpArg::Kind::TypeListAttr;
      arg.type = rest;
      args.push_back(arg);
      continue;
    }
    if (size_t star = rest.find('*'); star != absl::string_view::npos) {
      arg.count = rest.substr(0, star);
      rest = rest.substr(star + 1);
      if (!isIdentifier(arg.count))
        return bad("the count is not an attribute name");
    }
    if (size_t eq = rest.find('='); eq != absl::string_view::npos) {
      arg.defaultType = rest.substr(eq + 1);
      rest = rest.substr(0, eq);
      if (!isFixedDTypeName(arg.defaultType))
        return bad("the default is not a dtype");
    }
    if (!isIdentifier(rest))
      return bad("the type is neither a dtype nor an attribute name");
    arg.type = rest;
    arg.kind =
        isFixedDTypeName(rest) ? OpArg::Kind::Fixed : OpArg::Kind::TypeAttr;
    if (arg.kind == OpArg::Kind::Fixed && !arg.defaultType.empty())
      return bad("a fixed dtype has no default");
    args.push_back(arg);
  }
  return args;
}

int outputIndexOf(const OpInfo &op, absl::string_view name) {
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

const OpInfo *lookupOp(absl::string_view name) {
  static const absl::flat_hash_map<absl::string_view, OpInfo> table = [] {
    absl::flat_hash_map<absl::string_view, OpInfo> ops;
    for (const Row &row : kRows) {
      StatusOr<std::vector<OpArg>> inputs = parseOpArgs(row.inputs);
      StatusOr<std::vector<OpArg>> outputs = parseOpArgs(row.outputs);
      // OpTableTest parses every row.
      assert(inputs.ok() && outputs.ok() && "malformed row in OpTable.def");
      ops[row.name] =
          OpInfo{row.name,
                 row.effects,
                 row.minInputs,
                 row.maxInputs,
                 inputs.ok() ? *std::move(inputs) : std::vector<OpArg>(),
                 outputs.ok() ? *std::move(outputs) : std::vector<OpArg>()};
    }
    return ops;
  }();
  auto it = table.find(name);
  return it == table.end() ? nullptr : &it->second;
}

} // namespace tfrt_fallback::rt
