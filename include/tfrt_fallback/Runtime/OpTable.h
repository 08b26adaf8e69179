//===- OpTable.h - what tfrt-fallback knows of TF ops -----------*- C++ -*-===//
//
// The rows of OpTable.def, parsed: each op's side effects, input counts,
// class (shape rule, in-place inputs, fusable activation) and OpDef
// signature. MLIR-free: the program loader checks nodes against it, the
// compiler's importers take result types from it and its shape inference,
// memory plan and fusion take the op classes.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_OPTABLE_H
#define TFRT_FALLBACK_RUNTIME_OPTABLE_H

#include "tfrt_fallback/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
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
  std::string_view type;
  /// TypeAttr: TensorFlow's default for the attribute ("int32"), if the
  /// table gives one.
  std::string_view defaultType;
  /// The int attribute that counts the tensors (the `N` of `N*T`); empty
  /// for a single tensor and for TypeListAttr.
  std::string_view count;
  /// The argument's name in TF's OpDef (`values` of `values:T`), given for
  /// the outputs of ops with several output arguments (a FunctionDef names
  /// a node's outputs by them); empty when the table leaves it out.
  std::string_view name;
};

/// Whether an op may be reordered and removed (Pure) or must keep its place
/// among the other stateful ops (Stateful).
enum class OpEffects : uint8_t { Pure, Stateful };

/// How the shape of an op's (first) result follows from its inputs'
/// (OpTable.def's Shape column).
enum class OpShapeRule : uint8_t {
  /// A rule of the op's own, or none.
  Custom,
  /// Input 0's shape.
  SameAsInput,
  /// The NumPy broadcast of the inputs' shapes.
  Broadcast,
  /// Input 0 reduced over the axes input 1 names (`keep_dims`).
  Reduction,
};

/// Whether the fusion pass folds the op, an activation, into the fused
/// contraction before it (OpTable.def's Fusion column).
enum class OpFusion : uint8_t { None, Activation };

namespace detail {
/// The bit mask of the input indices a Buffer column lists ("0, 1" -> 0b11);
/// 0 for "" and "view".
constexpr uint8_t inPlaceInputMask(const char *buffer) {
  uint8_t mask = 0;
  if (buffer[0] == 'v')
    return 0;
  for (const char *c = buffer; *c; ++c)
    if (*c >= '0' && *c <= '7')
      mask |= uint8_t(1u << (*c - '0'));
  return mask;
}
/// Whether a Buffer column says "view".
constexpr bool isView(const char *buffer) { return buffer[0] == 'v'; }
} // namespace detail

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

/// A row of OpTable.def as written: its signatures unparsed. The op's
/// class sits in what was padding before it had one, so the fields a
/// kernel plugin's rows were built with keep their offsets.
struct OpRow {
  const char *name;
  OpEffects effects;
  OpShapeRule shapeRule;
  int16_t minInputs;
  /// -1 when a variadic input makes the count unbounded.
  int16_t maxInputs;
  /// Bit i: the result may take over input i's buffer (Buffer "0, 1").
  uint8_t inPlaceInputs;
  /// The result is a view of input 0's buffer (Buffer "view").
  bool viewsInput : 1;
  /// Fusion is Activation.
  bool activation : 1;
  const char *inputs;
  const char *outputs;
};

namespace detail {
/// Every row, for constant evaluation only (kOpRow below): code that reads
/// it at run time would link the whole table.
inline constexpr OpRow kOpRows[] = {
#define TF_OP(Name, Effects, MinInputs, MaxInputs, Shape, Buffer, Fusion,      \
              Inputs, Outputs)                                                 \
  {#Name,                                                                      \
   OpEffects::Effects,                                                         \
   OpShapeRule::Shape,                                                         \
   MinInputs,                                                                  \
   MaxInputs,                                                                  \
   inPlaceInputMask(Buffer),                                                   \
   isView(Buffer),                                                             \
   OpFusion::Fusion == OpFusion::Activation,                                   \
   Inputs,                                                                     \
   Outputs},
#include "tfrt_fallback/Runtime/OpTable.def"
};
} // namespace detail

/// Op `Op`'s row, a variable of its own: a binary carries the rows of the
/// ops it registers kernels for and no others (registerKernel<OpId::k...>
/// hands the row to the registry, which checks nodes against it).
template <OpId Op>
inline constexpr OpRow kOpRow = detail::kOpRows[static_cast<size_t>(Op)];
static_assert(sizeof(OpRow) <= 4 * sizeof(void *),
              "a registered op's row is linked into every binary that has "
              "its kernel: keep it small");
static_assert(offsetof(OpRow, minInputs) == sizeof(void *) + 2 &&
                  offsetof(OpRow, inputs) == 2 * sizeof(void *),
              "the fields a kernel plugin's rows were built with keep "
              "their offsets (KernelPlugin.h)");

/// A row of OpTable.def, parsed.
struct OpInfo {
  std::string_view name;
  OpEffects effects;
  OpShapeRule shapeRule;
  OpFusion fusion;
  /// Bit i: the result may take over input i's buffer at its last use.
  uint8_t inPlaceInputs;
  /// The result is a view of input 0's buffer.
  bool viewsInput;
  int minInputs;
  /// -1 when a variadic input makes the count unbounded.
  int maxInputs;
  std::vector<OpArg> inputs;
  std::vector<OpArg> outputs;
};

/// Parses `row`'s signatures. InvalidArgument for a malformed row.
StatusOr<OpInfo> parseOpRow(const OpRow &row);

/// The row of op `name` ("AddV2", no "tf." prefix), or nullptr for an op
/// the table does not list. The whole table: for the compiler and the
/// importers; the runtime's registry keeps the rows of its own ops.
const OpInfo *lookupOp(std::string_view name);

/// The index of the first tensor of output argument `name` among all the
/// outputs of `op`, or -1 when no output argument has that name or one
/// before it is variadic.
int outputIndexOf(const OpInfo &op, std::string_view name);

/// Parses an argument list in OpTable.def's syntax ("N*T, Tidx"). Returns
/// InvalidArgument naming the bad argument.
StatusOr<std::vector<OpArg>> parseOpArgs(std::string_view text);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_OPTABLE_H
