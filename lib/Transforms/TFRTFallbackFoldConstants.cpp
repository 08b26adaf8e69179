//===- TFRTFallbackFoldConstants.cpp - fold constant TF ops -----*- C++ -*-===//
//
// The --tfrt-fallback-fold-constants pass: a `tf.*` op whose operands are all
// constants is evaluated at compile time, by the runtime's own kernel, and
// replaced by `tf.Const`s of its results. The op is written as a
// one-function program the way every program is written (tf-to-tfrt-fallback,
// then the binary writer), loaded by the runtime's loader and run on its
// executor, so the compiler holds no second implementation of any op nor of
// the conversion of attributes and constants into the runtime's.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/StringTensor.h"
#include "tfrt_fallback/Target/BinaryProgram.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFRTFALLBACKFOLDCONSTANTS
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;

namespace {

/// Every kernel of this build, registered once per process.
const rt::KernelRegistry &getFoldingKernels() {
  static const rt::KernelRegistry *registry = [] {
    auto *kernels = new rt::KernelRegistry();
    rt::registerAllKernels(*kernels);
    return kernels;
  }();
  return *registry;
}

/// The constant tensor `value` holds when its producer is a tf.Const (not
/// ordered after another op by a control edge) or an arith.constant tensor.
ElementsAttr getConstantValue(Value value) {
  Operation *producer = value.getDefiningOp();
  if (!producer)
    return {};
  if (auto constant = dyn_cast<arith::ConstantOp>(producer)) {
    if (!isa<TensorType>(constant.getType()))
      return {};
    return dyn_cast<ElementsAttr>(constant.getValue());
  }
  if (producer->getName().getStringRef() != "tf.Const" ||
      producer->getNumOperands() != 0 || tf::isOrdered(producer))
    return {};
  // Dense or dense_resource (the importers' weights); a
  // `#tf_type<tensor_proto ...>` value is left for the lowering to decode.
  Attribute attr = producer->getAttr("value");
  if (!isa_and_nonnull<DenseElementsAttr, DenseResourceElementsAttr>(attr))
    return {};
  return cast<ElementsAttr>(attr);
}

/// Bytes per element of a number (1 for bool; both parts of a complex
/// number), or std::nullopt for another type (strings have no fixed size).
std::optional<uint64_t> getElementSizeInBytes(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type)) {
    std::optional<uint64_t> part =
        getElementSizeInBytes(complex.getElementType());
    return part ? std::optional<uint64_t>(2 * *part) : std::nullopt;
  }
  if (!type.isIntOrFloat())
    return std::nullopt;
  return type.isInteger(1) ? 1 : (type.getIntOrFloatBitWidth() + 7) / 8;
}

/// The bytes of a constant: its elements', or its strings' for a string
/// tensor.
std::optional<uint64_t> getSizeInBytes(ElementsAttr value) {
  if (auto strings = dyn_cast<DenseStringElementsAttr>(value)) {
    uint64_t bytes = 0;
    for (StringRef element : strings.getRawStringData())
      bytes += element.size();
    return bytes;
  }
  std::optional<uint64_t> elementBytes =
      getElementSizeInBytes(value.getElementType());
  if (!elementBytes)
    return std::nullopt;
  return static_cast<uint64_t>(value.getNumElements()) * *elementBytes;
}

/// The bytes of a tensor the kernel computed, counted as getSizeInBytes()
/// counts a constant's.
uint64_t getSizeInBytes(const rt::Tensor &tensor) {
  if (tensor.dtype() != rt::DType::String)
    return tensor.totalBytes();
  uint64_t bytes = 0;
  for (std::string_view element : rt::stringElements(tensor))
    bytes += element.size();
  return bytes;
}

/// Whether a dense constant can hold values of `type`: a tensor of numbers,
/// bool, complex numbers or strings (not resource, variant or quantized).
bool isFoldableResultType(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  if (!tensor || !tf::getDType(tensor.getElementType()))
    return false;
  Type element = tensor.getElementType();
  if (auto complex = dyn_cast<ComplexType>(element))
    element = complex.getElementType();
  return element.isIntOrFloat() || isa<tf::StringType>(element);
}

/// Whether `attr` names a function (a symbol, or one inside a
/// `#tf_type.func` or a list).
bool namesFunction(Attribute attr) {
  bool found = false;
  attr.walk([&](SymbolRefAttr) { found = true; });
  return found;
}

/// Folds the ops of one module: holds what the programs it runs share.
class ConstantFolder {
public:
  ConstantFolder(MLIRContext *context, int64_t maxSizeBytes)
      : context(context), maxSizeBytes(maxSizeBytes),
        scratchLoc(NameLoc::get(
            StringAttr::get(context, "tfrt-fallback-fold-constants"))) {}

  /// The operands' constants, when `op` is one to fold.
  std::optional<SmallVector<ElementsAttr>> getFoldableOperands(Operation *op);

  /// Runs `op` on `operands` with the runtime's kernel: its results, or
  /// std::nullopt when it cannot run or fails, or when a result is too large.
  std::optional<SmallVector<ElementsAttr>>
  evaluate(Operation *op, ArrayRef<ElementsAttr> operands);

  /// Replaces the used results of `op` by tf.Consts of `values`.
  void replaceWithConstants(Operation *op, ArrayRef<ElementsAttr> values);

private:
  MLIRContext *context;
  int64_t maxSizeBytes;
  /// The location of the ops of the programs this pass runs: diagnostics at
  /// it are the pass's own (a refused lowering), not the user's.
  Location scratchLoc;
  std::unique_ptr<PassManager> lowering;
  std::unique_ptr<rt::HostContext> host;
};

struct TFRTFallbackFoldConstantsPass
    : public tfrt_fallback::impl::TFRTFallbackFoldConstantsBase<
          TFRTFallbackFoldConstantsPass> {
  using Base::Base;

  void runOnOperation() override;
};

} // namespace

std::optional<SmallVector<ElementsAttr>>
ConstantFolder::getFoldableOperands(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (op->getName().getDialectNamespace() !=
          tf::TFDialect::getDialectNamespace() ||
      name == "tf.Const" || op->getNumRegions() != 0 ||
      op->getNumSuccessors() != 0 || op->getNumOperands() == 0 ||
      op->getNumResults() == 0 || op->use_empty() || !isMemoryEffectFree(op))
    return std::nullopt;
  if (!llvm::all_of(op->getResultTypes(), isFoldableResultType))
    return std::nullopt;
  // An Identity of the same types costs nothing (the lowering forwards its
  // operands); folding it would only copy a constant that may have other
  // users.
  if ((name == "tf.Identity" || name == "tf.IdentityN") &&
      op->getOperandTypes() == op->getResultTypes())
    return std::nullopt;
  for (NamedAttribute attr : op->getAttrs())
    if (namesFunction(attr.getValue()))
      return std::nullopt;
  SmallVector<ElementsAttr> operands;
  for (Value operand : op->getOperands()) {
    ElementsAttr value = getConstantValue(operand);
    if (!value)
      return std::nullopt;
    operands.push_back(value);
  }
  return operands;
}

std::optional<SmallVector<ElementsAttr>>
ConstantFolder::evaluate(Operation *op, ArrayRef<ElementsAttr> operands) {
  // Grappler's rule: no result larger than all operands together and than
  // the limit. Static result types are checked before anything runs.
  uint64_t operandBytes = 0;
  for (ElementsAttr value : operands) {
    std::optional<uint64_t> bytes = getSizeInBytes(value);
    if (!bytes)
      return std::nullopt;
    operandBytes += *bytes;
  }
  uint64_t limit = std::max<uint64_t>(
      operandBytes, static_cast<uint64_t>(std::max<int64_t>(maxSizeBytes, 0)));
  for (Type type : op->getResultTypes()) {
    auto tensor = cast<TensorType>(type);
    if (!tensor.hasStaticShape())
      continue;
    std::optional<uint64_t> elementBytes =
        getElementSizeInBytes(tensor.getElementType());
    if (!elementBytes)
      continue;
    if (static_cast<uint64_t>(tensor.getNumElements()) * *elementBytes > limit)
      return std::nullopt;
  }

  // The program: func @fold() returns the op's results, computed from
  // copies of its constants.
  OwningOpRef<ModuleOp> program = ModuleOp::create(scratchLoc);
  OpBuilder builder = OpBuilder::atBlockEnd(program->getBody());
  auto func = func::FuncOp::create(
      builder, scratchLoc, "fold",
      FunctionType::get(context, {}, op->getResultTypes()));
  builder.setInsertionPointToEnd(func.addEntryBlock());
  IRMapping mapping;
  for (Value operand : op->getOperands()) {
    if (mapping.contains(operand))
      continue;
    Operation *copy = builder.clone(*operand.getDefiningOp());
    copy->setLoc(scratchLoc);
    mapping.map(operand, copy->getResult(0));
  }
  Operation *copy = builder.clone(*op, mapping);
  copy->setLoc(scratchLoc);
  func::ReturnOp::create(builder, scratchLoc, copy->getResults());

  // What the lowering or the writer refuses stays in place, silently: the
  // pipeline's own lowering reports it at the op if it is an error.
  std::vector<uint8_t> bytes;
  {
    ScopedDiagnosticHandler silence(context, [&](Diagnostic &diag) {
      return success(diag.getLocation() == scratchLoc);
    });
    if (!lowering) {
      lowering = std::make_unique<PassManager>(context);
      lowering->addPass(createTFToTFRTFallback());
    }
    if (failed(lowering->run(*program)) ||
        failed(writeBinaryProgram(*program, bytes)))
      return std::nullopt;
  }

  rt::StatusOr<std::unique_ptr<rt::Program>> loaded =
      rt::Program::load(absl::Span<const uint8_t>(bytes.data(), bytes.size()),
                        getFoldingKernels());
  if (!loaded.ok())
    return std::nullopt;
  const rt::Function *function = (*loaded)->lookupFunction("fold");
  if (!function)
    return std::nullopt;
  if (!host)
    host = std::make_unique<rt::HostContext>(/*numThreads=*/0);
  rt::Executor executor(**loaded, *host);
  rt::RunOptions options;
  // No kernel allocates a tensor it could not fold (a tf.Fill of a shape
  // unknown until it runs).
  options.limits.maxTensorBytes = std::max<uint64_t>(limit, 1);
  rt::StatusOr<std::vector<rt::ResultValue>> results =
      executor.run(*function, {}, options);
  if (!results.ok())
    return std::nullopt;

  SmallVector<ElementsAttr> values;
  for (auto [result, value] : llvm::zip(op->getResults(), *results)) {
    if (!value.ok())
      return std::nullopt;
    const rt::Tensor &tensor = *value;
    if (getSizeInBytes(tensor) > limit)
      return std::nullopt;
    Type element = cast<TensorType>(result.getType()).getElementType();
    if (tf::getDType(element) != tensor.dtype())
      return std::nullopt;
    SmallVector<int64_t> dims(tensor.shape().dims().begin(),
                              tensor.shape().dims().end());
    auto type = RankedTensorType::get(dims, element);
    if (failed(verifyCompatibleShape(type, result.getType())))
      return std::nullopt;
    values.push_back(getElementsAttr(tensor, type));
  }
  return values;
}

void ConstantFolder::replaceWithConstants(Operation *op,
                                          ArrayRef<ElementsAttr> values) {
  OpBuilder builder(op);
  for (auto [result, value] : llvm::zip(op->getResults(), values)) {
    if (result.use_empty())
      continue;
    OperationState state(op->getLoc(), "tf.Const");
    state.addTypes(value.getType());
    state.addAttribute("dtype", TypeAttr::get(value.getElementType()));
    state.addAttribute("value", value);
    Value constant = builder.create(state)->getResult(0);
    if (constant.getType() == result.getType()) {
      result.replaceAllUsesWith(constant);
      continue;
    }
    // A more refined type: TF ops take it as it is, other users (returns,
    // calls) through an Identity of the type they had.
    Value identity;
    for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
      Operation *user = use.getOwner();
      if (user->getName().getDialectNamespace() ==
              tf::TFDialect::getDialectNamespace() &&
          user->getNumRegions() == 0) {
        use.set(constant);
        continue;
      }
      if (!identity)
        identity = tf::createIdentity(builder, op->getLoc(), constant,
                                      result.getType());
      use.set(identity);
    }
  }
  op->erase();
}

void TFRTFallbackFoldConstantsPass::runOnOperation() {
  ConstantFolder folder(&getContext(), maxSizeBytes);
  SmallVector<Operation *> candidates;
  getOperation().walk([&](Operation *op) {
    if (op->getName().getDialectNamespace() ==
        tf::TFDialect::getDialectNamespace())
      candidates.push_back(op);
  });
  // In program order, so a chain of foldable ops folds in one pass.
  llvm::SetVector<Operation *> producers;
  for (Operation *op : candidates) {
    std::optional<SmallVector<ElementsAttr>> operands =
        folder.getFoldableOperands(op);
    if (!operands)
      continue;
    std::optional<SmallVector<ElementsAttr>> values =
        folder.evaluate(op, *operands);
    if (!values)
      continue;
    for (Value operand : op->getOperands())
      producers.insert(operand.getDefiningOp());
    folder.replaceWithConstants(op, *values);
  }
  // The constants that only the folded ops used.
  for (Operation *producer : producers)
    if (producer->use_empty())
      producer->erase();
}
