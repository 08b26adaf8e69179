//===- OpTable.h - what tfrt-fallback knows of TF ops -----------*- C++ -*-===//
//
// The rows of OpTable.def, parsed: each op's side effects, input counts and
// OpDef signature. MLIR-free: the program loader checks nodes against it and
// the compiler's importers take result types from it.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_OPTABLE_H
#define TFRT_FALLBACK_RUNTIME_OPTABLE_H

#include "absl/strings/string_view.h"
#include "tfrt_fallback/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tfrt_fallback::rt {

/// One input_arg or output_arg of an OpDef, as OpTable.def writes it.
struct OpArg {
  enum class Kind : uint8_t {
    /// Tensors of a fixed dtype: `int32`, `N*float`.
    Fixed,
    /// Tensors of a type attribute: `T`, `N*T`, `out_type=int32`.
    TypeAttr,
    /// One tensor per dtype of a list(type) attribute: `[T]`.
    TypeListAttr,
  };
  Kind kind = Kind::Fixed;
  /// Fixed: the dtype's TensorFlow name ("int32", "resource"). Otherwise
  /// the attribute's name ("T").
  absl::string_view type;
  /// TypeAttr: TensorFlow's default for the attribute ("int32"), if the
  /// table gives one.
  absl::string_view defaultType;
  /// The int attribute that counts the tensors (the `N` of `N*T`); empty
  /// for a single tensor and for TypeListAttr.
  absl::string_view count;
  /// The argument's name in TF's OpDef (`values` of `values:T`), given for
  /// the outputs of ops with several output arguments (a FunctionDef names
  /// a node's outputs by them); empty when the table leaves it out.
  absl::string_view name;
};

/// Whether an op may be reordered and removed (Pure) or must keep its place
/// among the other stateful ops (Stateful).
enum class OpEffects : uint8_t { Pure, Stateful };

/// Every op of OpTable.def, named k<Op> (OpId::kAddV2, OpId::k_FusedConv2D),
/// in the table's order. The built-in kernels register under an OpId, which
/// lets a selective build (-DTFRT_FALLBACK_KERNELS) decide at compile time
/// which of them exist.
enum class OpId : uint16_t {
#define TF_OP(Name, ...) k##Name,
#include "tfrt_fallback/Runtime/OpTable.def"
};

/// The TensorFlow name of `op` ("AddV2").
constexpr const char *opName(OpId op) {
  constexpr const char *names[] = {
#define TF_OP(Name, ...) #Name,
#include "tfrt_fallback/Runtime/OpTable.def"
  };
  return names[static_cast<size_t>(op)];
}

/// A row of OpTable.def.
struct OpInfo {
  absl::string_view name;
  OpEffects effects;
  int minInputs;
  /// -1 when a variadic input makes the count unbounded.
  int maxInputs;
  std::vector<OpArg> inputs;
  std::vector<OpArg> outputs;
};

/// The row of op `name` ("AddV2", no "tf." prefix), or nullptr for an op
/// the table does not list.
const OpInfo *lookupOp(absl::string_view name);

/// The index of the first tensor of output argument `name` among all the
/// outputs of `op`, or -1 when no output argument has that name or one
/// before it is variadic.
int outputIndexOf(const OpInfo &op, absl::string_view name);

/// Parses an argument list in OpTable.def's syntax ("N*T, Tidx"). Returns
/// InvalidArgument naming the bad argument.
StatusOr<std::vector<OpArg>> parseOpArgs(absl::string_view text);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_OPTABLE_H
