//===- TFRTFallbackPlanMemory.cpp - static memory plan ----------*- C++ -*-===//
//
// The --tfrt-fallback-plan-memory pass: gives every kernel result of static
// shape a byte offset in one arena per function, from the results' lifetimes
// in program order, as TFLite's arena planner and ONNX Runtime's memory
// planner do. Results that the runtime would make share a buffer anyway (an
// element-wise op writing over an operand it is the only reader of, a
// Reshape or Identity viewing its operand) are placed together. Offsets are
// assigned greedily by size: the largest buffer first, each at the lowest
// offset where it overlaps no buffer alive at the same time.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFRTFALLBACKPLANMEMORY
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;

/// Buffers start at multiples of this (the runtime's tensor alignment).
static constexpr int64_t kAlignment = 64;
/// The largest arena the runtime accepts (TensorBuffer::kMaxBytes).
static constexpr int64_t kMaxBytes = int64_t(1) << 40;

/// Ops whose kernels write their result over an operand of the same type at
/// its last use (forwardInputOrAllocateOutput): the element-wise ones.
static bool writesInPlace(StringRef op) {
  static const llvm::StringSet<> ops = {
      // One operand.
      "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "BiasAdd",
      "Cast", "Ceil", "ClipByValue", "Cos", "Cosh", "Elu", "Erf", "Erfc", "Exp",
      "Expm1", "Floor", "Inv", "Invert", "LeakyRelu", "Log", "Log1p",
      "LogicalNot", "LogSoftmax", "Neg", "Prelu", "Reciprocal", "Relu", "Relu6",
      "Rint", "Round", "Rsqrt", "Selu", "Sigmoid", "Sign", "Sin", "Sinh",
      "Softmax", "Softplus", "Softsign", "Sqrt", "Square", "Tan", "Tanh",
      // Several, broadcast.
      "Add", "AddN", "AddV2", "Atan2", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
      "Div", "DivNoNan", "FloorDiv", "FloorMod", "LogicalAnd", "LogicalOr",
      "Maximum", "Minimum", "Mod", "Mul", "MulNoNan", "Pow", "RealDiv",
      "Select", "SelectV2", "SquaredDifference", "Sub", "TruncateDiv",
      "TruncateMod", "Xdivy", "Xlogy", "Xlog1py"};
  return ops.contains(op);
}

/// Ops whose result is a view of their first operand's buffer.
static bool viewsOperand(StringRef op) {
  static const llvm::StringSet<> ops = {
      "Identity",    "Snapshot", "StopGradient", "PreventGradient",
      "EnsureShape", "Reshape",  "Squeeze",      "ExpandDims"};
  return ops.contains(op);
}

/// Bytes of a value of `type`, or 0 when it is not planned (an unknown
/// dimension past the first, an element type without a fixed size, no
/// elements). An unknown first dimension, a model's batch, is planned as 1:
/// a run with a larger batch allocates those results (the runtime checks
/// that a result fits its buffer).
static int64_t plannedBytes(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return 0;
  int64_t elements = 1;
  for (auto [i, dim] : llvm::enumerate(tensor.getShape())) {
    if (ShapedType::isDynamic(dim) && i != 0)
      return 0;
    elements *= ShapedType::isDynamic(dim) ? 1 : dim;
    if (elements > kMaxBytes)
      return 0;
  }
  Type element = tensor.getElementType();
  int64_t width = 0;
  if (auto complex = dyn_cast<ComplexType>(element))
    element = complex.getElementType(), width = 2;
  else
    width = 1;
  int64_t bits = 0;
  if (auto integer = dyn_cast<IntegerType>(element))
    bits = integer.getWidth() == 1 ? 8 : integer.getWidth();
  else if (auto floating = dyn_cast<FloatType>(element))
    bits = floating.getWidth();
  if (bits == 0 || bits % 8)
    return 0;
  int64_t bytes = elements * width * (bits / 8);
  return bytes > 0 && bytes <= kMaxBytes ? bytes : 0;
}

namespace {

struct TFRTFallbackPlanMemoryPass
    : public tfrt_fallback::impl::TFRTFallbackPlanMemoryBase<
          TFRTFallbackPlanMemoryPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        planFunction(func);
  }

  void planFunction(func::FuncOp func);
};

/// A set of values that share one buffer, and when it is in use.
struct Group {
  int64_t bytes = 0;
  int64_t start = 0, end = 0;
  bool escapes = false;
  int64_t offset = -1;
};

} // namespace

void TFRTFallbackPlanMemoryPass::planFunction(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  func->removeAttr(kMemoryPlanAttrName);
  Block &block = func.getBody().front();
  for (auto call : block.getOps<KernelCallOp>())
    call->removeAttr(kPlannedBuffersAttrName);
  // Program order (the binary program's instruction order), and the last
  // instruction that reads each value.
  llvm::DenseMap<Operation *, int64_t> position;
  int64_t next = 0;
  for (Operation &op : block)
    position[&op] = next++;
  auto lastUse = [&](Value value) {
    int64_t last = position.lookup(value.getDefiningOp());
    for (Operation *user : value.getUsers())
      if (Operation *inBlock = block.findAncestorOpInBlock(*user))
        last = std::max(last, position.lookup(inBlock));
    return last;
  };
  // A value the function returns, or passes to a call or control flow
  // (whose callee may return it), may outlive the run.
  auto mayEscape = [&](Value value) {
    return llvm::any_of(value.getUsers(), [](Operation *user) {
      return !isa<KernelCallOp>(user);
    });
  };

  // Candidates: the tensor results of kernels of static size. Each is a
  // member of the set of values sharing its buffer (`sharing`), with the
  // views of it whose type is not static (members of no size).
  llvm::DenseMap<Value, int64_t> bytesOf;
  llvm::EquivalenceClasses<Value> sharing;
  llvm::DenseMap<Value, std::pair<int64_t, int64_t>> lifetime;
  llvm::DenseSet<Value> escaping;
  SmallVector<Value> candidates;
  auto addMember = [&](Value value, int64_t bytes) {
    bytesOf[value] = bytes;
    candidates.push_back(value);
    sharing.insert(value);
    lifetime[value] = {position.lookup(value.getDefiningOp()), lastUse(value)};
    if (mayEscape(value))
      escaping.insert(value);
  };
  for (auto call : block.getOps<KernelCallOp>())
    for (Value result : call.getResults())
      if (int64_t bytes = plannedBytes(result.getType()))
        addMember(result, bytes);
  if (bytesOf.empty())
    return;
  auto groupEnd = [&](Value value) {
    int64_t end = 0;
    for (auto it = sharing.findLeader(value); it != sharing.member_end(); ++it)
      end = std::max(end, lifetime[*it].second);
    return end;
  };
  for (auto call : block.getOps<KernelCallOp>()) {
    if (call.getResults().empty() || call.getArgs().empty())
      continue;
    Value result = call.getResults().front();
    int64_t at = position.lookup(call);
    StringRef name = call.getOpName();
    if (viewsOperand(name)) {
      // A view holds its operand's buffer as long as it lives, whatever its
      // type.
      Value operand = call.getArgs().front();
      if (bytesOf.count(operand)) {
        if (!bytesOf.count(result))
          addMember(result, 0);
        sharing.unionSets(operand, result);
      }
      continue;
    }
    if (!bytesOf.count(result) || !writesInPlace(name))
      continue;
    // The runtime lets a kernel take over the buffer of an operand it is
    // the only reader of (the one last use that holds in every order the
    // executor may run the function), and only when no view of it is alive.
    for (Value operand : call.getArgs()) {
      if (operand.getType() != result.getType() || !bytesOf.lookup(operand) ||
          !operand.hasOneUse() || groupEnd(operand) != at)
        continue;
      sharing.unionSets(operand, result);
      break;
    }
  }

  // One group per set, numbered in program order; a set with a returned
  // member stays on the heap.
  llvm::DenseMap<Value, unsigned> groupOf;
  SmallVector<Group> groups;
  for (Value value : candidates) {
    Value leader = sharing.getLeaderValue(value);
    auto [it, inserted] = groupOf.try_emplace(leader, groups.size());
    if (inserted) {
      groups.emplace_back();
      groups.back().start = INT64_MAX;
    }
    Group &group = groups[it->second];
    groupOf[value] = it->second;
    group.bytes = std::max(group.bytes, bytesOf[value]);
    group.start = std::min(group.start, lifetime[value].first);
    group.end = std::max(group.end, lifetime[value].second);
    group.escapes |= escaping.contains(value);
  }

  // Greedy by size: the largest first, each at the lowest offset clear of
  // the groups placed so far that are alive at the same time.
  SmallVector<unsigned> order;
  for (unsigned i = 0; i < groups.size(); ++i)
    if (!groups[i].escapes)
      order.push_back(i);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    if (groups[a].bytes != groups[b].bytes)
      return groups[a].bytes > groups[b].bytes;
    if (groups[a].start != groups[b].start)
      return groups[a].start < groups[b].start;
    return a < b;
  });
  SmallVector<unsigned> placed;
  int64_t arenaBytes = 0;
  for (unsigned g : order) {
    Group &group = groups[g];
    SmallVector<unsigned> alive;
    for (unsigned p : placed)
      if (groups[p].start <= group.end && group.start <= groups[p].end)
        alive.push_back(p);
    llvm::sort(alive, [&](unsigned a, unsigned b) {
      return groups[a].offset < groups[b].offset;
    });
    int64_t offset = 0;
    for (unsigned p : alive) {
      if (offset + group.bytes <= groups[p].offset)
        break;
      offset = std::max(offset,
                        static_cast<int64_t>(llvm::alignTo(
                            groups[p].offset + groups[p].bytes, kAlignment)));
    }
    group.offset = offset;
    arenaBytes = std::max(arenaBytes, offset + group.bytes);
    placed.push_back(g);
  }
  // An arena past what the runtime accepts: no plan.
  if (placed.empty() || arenaBytes > kMaxBytes)
    return;

  // Buffers in order of offset; each planned result names its buffer.
  llvm::sort(placed, [&](unsigned a, unsigned b) {
    return groups[a].offset < groups[b].offset ||
           (groups[a].offset == groups[b].offset && a < b);
  });
  llvm::DenseMap<unsigned, int32_t> bufferOf;
  SmallVector<int64_t> offsets, sizes;
  for (unsigned g : placed) {
    bufferOf[g] = static_cast<int32_t>(offsets.size());
    offsets.push_back(groups[g].offset);
    sizes.push_back(groups[g].bytes);
  }
  Builder builder(context);
  for (auto call : block.getOps<KernelCallOp>()) {
    SmallVector<int32_t> buffers;
    bool any = false;
    for (Value result : call.getResults()) {
      auto it = groupOf.find(result);
      int32_t buffer = -1;
      if (it != groupOf.end() && bytesOf.lookup(result) > 0 &&
          bufferOf.count(it->second))
        buffer = bufferOf[it->second];
      any |= buffer >= 0;
      buffers.push_back(buffer);
    }
    if (any)
      call->setAttr(kPlannedBuffersAttrName,
                    builder.getDenseI32ArrayAttr(buffers));
  }
  func->setAttr(
      kMemoryPlanAttrName,
      builder.getDictionaryAttr({
          builder.getNamedAttr("arena_bytes",
                               builder.getI64IntegerAttr(arenaBytes)),
          builder.getNamedAttr("offsets",
                               builder.getDenseI64ArrayAttr(offsets)),
          builder.getNamedAttr("sizes", builder.getDenseI64ArrayAttr(sizes)),
      }));
}
