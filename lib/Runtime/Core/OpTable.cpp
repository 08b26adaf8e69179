//===- OpTable.cpp - what tfrt-fallback knows of TF ops ---------*- C++ -*-===//
//
// Parses OpTable.def's signatures (a registered op's row, when the registry
// takes it). lookupOp, the whole table, is in OpTableLookup.cpp.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/OpTable.h"

#include "tfrt_fallback/Runtime/StrCat.h"

namespace tfrt_fallback::rt {

namespace {

/// The TensorFlow names of the dtypes a signature may fix: DTypes.def's, and
/// the handles the runtime has no DType for.
bool isFixedDTypeName(std::string_view name) {
  static constexpr std::string_view kNames[] = {
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
  for (std::string_view known : kNames)
    if (name == known)
      return true;
  return false;
}

bool isIdentifier(std::string_view text) {
  if (text.empty() || (text[0] >= '0' && text[0] <= '9'))
    return false;
  for (char c : text)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_'))
      return false;
  return true;
}

} // namespace

StatusOr<std::vector<OpArg>> parseOpArgs(std::string_view text) {
  std::vector<OpArg> args;
  if (stripAsciiWhitespace(text).empty())
    return args;
  for (size_t begin = 0; begin <= text.size();) {
    size_t comma = text.find(',', begin);
    if (comma == std::string_view::npos)
      comma = text.size();
    std::string_view item =
        stripAsciiWhitespace(text.substr(begin, comma - begin));
    begin = comma + 1;
    auto bad = [&](std::string_view why) {
      return InvalidArgumentError(
          strCat("bad argument '", item, "' in '", text, "': ", why));
    };
    OpArg arg;
    std::string_view rest = item;
    if (size_t colon = rest.find(':'); colon != std::string_view::npos) {
      arg.name = rest.substr(0, colon);
      rest = rest.substr(colon + 1);
      if (!isIdentifier(arg.name))
        return bad("the name is not an identifier");
    }
    if (!rest.empty() && rest.front() == '[') {
      if (rest.size() < 2 || rest.back() != ']' ||
          !isIdentifier(rest.substr(1, rest.size() - 2)))
        return bad("a list is `[Attr]`");
      rest = rest.substr(1, rest.size() - 2);
      arg.kind = OpArg::Kind::TypeListAttr;
      arg.type = rest;
      args.push_back(arg);
      continue;
    }
    if (size_t star = rest.find('*'); star != std::string_view::npos) {
      arg.count = rest.substr(0, star);
      rest = rest.substr(star + 1);
      if (!isIdentifier(arg.count))
        return bad("the count is not an attribute name");
    }
    if (size_t eq = rest.find('='); eq != std::string_view::npos) {
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

StatusOr<OpInfo> parseOpRow(const OpRow &row) {
  StatusOr<std::vector<OpArg>> inputs = parseOpArgs(row.inputs);
  if (!inputs.ok())
    return inputs.status();
  StatusOr<std::vector<OpArg>> outputs = parseOpArgs(row.outputs);
  if (!outputs.ok())
    return outputs.status();
  return OpInfo{row.name,
                row.effects,
                row.shapeRule,
                row.activation ? OpFusion::Activation : OpFusion::None,
                row.inPlaceInputs,
                row.viewsInput,
                row.minInputs,
                row.maxInputs,
                *std::move(inputs),
                *std::move(outputs)};
}

} // namespace tfrt_fallback::rt
