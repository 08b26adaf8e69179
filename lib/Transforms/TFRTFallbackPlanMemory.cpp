//===- TFRTFallbackPlanMemory.cpp - static memory plan ----------*- C++ -*-===//
//
// The --tfrt-fallback-plan-memory pass: gives every kernel result of static
// shape a byte offset in one arena per function, from the results' lifetimes
// in program order, as TFLite's arena planner and ONNX Runtime's memory
// planner do. Results that the runtime would make share a buffer anyway (an
// element-wise op writing over an operand it is the only reader of, a
// Reshape or Identity viewing its operand: the Buffer column of the op's
// row in OpTable.def) are placed together. Offsets are assigned greedily by
// size: the largest buffer first, each at the lowest offset where it
// overlaps no buffer alive at the same time, found among the buffers a
// sweep over the lifetimes pairs with it; a program with more such pairs
// than max-overlap-pairs is placed by a best-fit linear scan in program
// order instead, so the pass stays O(n log n).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"
#include "tfrt_fallback/Runtime/OpTable.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>
#include <set>

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

/// Op `name`'s row of the op table, whose Buffer column says which
/// operands its result may take over (the element-wise ops) or whether it
/// is a view; nullptr for an op the table does not list.
static const rt::OpInfo *lookupRow(StringRef name) {
  return rt::lookupOp(std::string_view(name.data(), name.size()));
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
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (!func.isExternal())
        planFunction(func);
  }

  void planFunction(func::FuncOp func);
};

/// A set of values that share one buffer, and when it is in use (program
/// positions, both ends included).
struct Group {
  int64_t bytes = 0;
  int64_t start = 0, end = 0;
  bool escapes = false;
  int64_t offset = -1;
};

/// Union-find over candidate indices, keeping each set's last use.
class SharingSets {
public:
  unsigned add(int64_t end) {
    parent_.push_back(parent_.size());
    end_.push_back(end);
    return parent_.size() - 1;
  }
  unsigned find(unsigned i) {
    while (parent_[i] != i)
      i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(unsigned a, unsigned b) {
    a = find(a), b = find(b);
    if (a == b)
      return;
    if (a > b)
      std::swap(a, b);
    parent_[b] = a;
    end_[a] = std::max(end_[a], end_[b]);
  }
  /// The last position at which a member of `i`'s set is in use.
  int64_t end(unsigned i) { return end_[find(i)]; }

private:
  SmallVector<unsigned> parent_;
  SmallVector<int64_t> end_;
};

} // namespace

static int64_t alignUp(int64_t bytes) {
  return static_cast<int64_t>(llvm::alignTo(bytes, kAlignment));
}

/// The pairs of groups (indices into `groups`, those listed in `live`) whose
/// lifetimes intersect, as adjacency lists (CSR: `begin` has one entry per
/// group and one more). A sweep over the starts with the groups alive
/// ordered by end: O(n log n + p). Fails, with nothing filled, when there are
/// more than `maxPairs` pairs.
static bool findOverlaps(ArrayRef<Group> groups, ArrayRef<unsigned> live,
                         int64_t maxPairs, SmallVectorImpl<unsigned> &begin,
                         SmallVectorImpl<unsigned> &neighbours) {
  SmallVector<unsigned> byStart(live);
  llvm::sort(byStart, [&](unsigned a, unsigned b) {
    return groups[a].start < groups[b].start ||
           (groups[a].start == groups[b].start && a < b);
  });
  // Two passes of the same sweep: count, then fill.
  SmallVector<unsigned> degree(groups.size() + 1, 0);
  auto sweep = [&](auto &&visit) {
    // Groups alive at the current start; the earliest end on top.
    auto laterEnd = [&](unsigned a, unsigned b) {
      return groups[a].end > groups[b].end;
    };
    std::vector<unsigned> heap;
    // Members of `heap` still alive, for enumerating them.
    SmallVector<unsigned> alive;
    SmallVector<unsigned> slot(groups.size(), 0);
    for (unsigned g : byStart) {
      int64_t start = groups[g].start;
      while (!heap.empty() && groups[heap.front()].end < start) {
        unsigned done = heap.front();
        std::pop_heap(heap.begin(), heap.end(), laterEnd);
        heap.pop_back();
        // Remove from `alive` by swapping the last one in.
        unsigned last = alive.back();
        alive[slot[done]] = last;
        slot[last] = slot[done];
        alive.pop_back();
      }
      for (unsigned other : alive)
        visit(g, other);
      slot[g] = alive.size();
      alive.push_back(g);
      heap.push_back(g);
      std::push_heap(heap.begin(), heap.end(), laterEnd);
    }
  };
  int64_t pairs = 0;
  bool tooMany = false;
  sweep([&](unsigned a, unsigned b) {
    ++degree[a], ++degree[b];
    tooMany |= ++pairs > maxPairs;
  });
  if (tooMany)
    return false;
  begin.assign(groups.size() + 1, 0);
  for (size_t g = 0; g < groups.size(); ++g)
    begin[g + 1] = begin[g] + degree[g];
  neighbours.assign(begin.back(), 0);
  SmallVector<unsigned> fill(begin.begin(), begin.end() - 1);
  sweep([&](unsigned a, unsigned b) {
    neighbours[fill[a]++] = b;
    neighbours[fill[b]++] = a;
  });
  return true;
}

/// Greedy by size: the largest group first, each at the lowest offset clear
/// of the groups placed so far that are alive at the same time.
static void placeBySize(MutableArrayRef<Group> groups, ArrayRef<unsigned> live,
                        ArrayRef<unsigned> begin,
                        ArrayRef<unsigned> neighbours) {
  SmallVector<unsigned> order(live);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    if (groups[a].bytes != groups[b].bytes)
      return groups[a].bytes > groups[b].bytes;
    if (groups[a].start != groups[b].start)
      return groups[a].start < groups[b].start;
    return a < b;
  });
  SmallVector<unsigned> alive;
  for (unsigned g : order) {
    Group &group = groups[g];
    alive.clear();
    for (unsigned i = begin[g]; i < begin[g + 1]; ++i)
      if (groups[neighbours[i]].offset >= 0)
        alive.push_back(neighbours[i]);
    llvm::sort(alive, [&](unsigned a, unsigned b) {
      return groups[a].offset < groups[b].offset;
    });
    int64_t offset = 0;
    for (unsigned p : alive) {
      if (offset + group.bytes <= groups[p].offset)
        break;
      offset = std::max(offset, alignUp(groups[p].offset + groups[p].bytes));
    }
    group.offset = offset;
  }
}

/// A linear scan in program order: each group, at its start, takes the
/// smallest free range that fits it (free ranges merge with their
/// neighbours when groups end), else the top of the arena. O(n log n)
/// however many groups are alive at once.
static void placeByScan(MutableArrayRef<Group> groups,
                        ArrayRef<unsigned> live) {
  SmallVector<unsigned> byStart(live);
  llvm::sort(byStart, [&](unsigned a, unsigned b) {
    return groups[a].start < groups[b].start ||
           (groups[a].start == groups[b].start && a < b);
  });
  // Free ranges below the top, by offset and by (size, offset).
  std::map<int64_t, int64_t> freeByOffset;
  std::set<std::pair<int64_t, int64_t>> freeBySize;
  int64_t top = 0;
  auto release = [&](int64_t offset, int64_t size) {
    auto next = freeByOffset.lower_bound(offset);
    if (next != freeByOffset.end() && next->first == offset + size) {
      size += next->second;
      freeBySize.erase({next->second, next->first});
      next = freeByOffset.erase(next);
    }
    if (next != freeByOffset.begin()) {
      auto previous = std::prev(next);
      if (previous->first + previous->second == offset) {
        offset = previous->first;
        size += previous->second;
        freeBySize.erase({previous->second, previous->first});
        freeByOffset.erase(previous);
      }
    }
    if (offset + size == top) {
      top = offset;
      return;
    }
    freeByOffset[offset] = size;
    freeBySize.insert({size, offset});
  };
  auto laterEnd = [&](unsigned a, unsigned b) {
    return groups[a].end > groups[b].end;
  };
  std::vector<unsigned> heap;
  for (unsigned g : byStart) {
    Group &group = groups[g];
    while (!heap.empty() && groups[heap.front()].end < group.start) {
      const Group &done = groups[heap.front()];
      std::pop_heap(heap.begin(), heap.end(), laterEnd);
      heap.pop_back();
      release(done.offset, alignUp(done.bytes));
    }
    const int64_t size = alignUp(group.bytes);
    auto fit = freeBySize.lower_bound({size, 0});
    if (fit != freeBySize.end()) {
      auto [rangeSize, offset] = *fit;
      freeBySize.erase(fit);
      freeByOffset.erase(offset);
      group.offset = offset;
      if (rangeSize > size) {
        freeByOffset[offset + size] = rangeSize - size;
        freeBySize.insert({rangeSize - size, offset + size});
      }
    } else {
      // The free range that ends at the top, if any, grows into it.
      auto last = freeByOffset.empty() ? freeByOffset.end()
                                       : std::prev(freeByOffset.end());
      if (last != freeByOffset.end() && last->first + last->second == top) {
        top = last->first;
        freeBySize.erase({last->second, last->first});
        freeByOffset.erase(last);
      }
      group.offset = top;
      top += size;
    }
    heap.push_back(g);
    std::push_heap(heap.begin(), heap.end(), laterEnd);
  }
}

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

  // Candidates: the tensor results of kernels of static size, each with its
  // lifetime, and the views of them whose type is not static (members of
  // no size). `sharing` joins the values that share a buffer.
  struct Candidate {
    int64_t bytes, start, end;
    bool escapes;
  };
  SmallVector<Candidate> candidates;
  llvm::DenseMap<Value, unsigned> indexOf;
  SharingSets sharing;
  auto addMember = [&](Value value, int64_t bytes) {
    int64_t end = lastUse(value);
    indexOf[value] = candidates.size();
    candidates.push_back(
        {bytes, position.lookup(value.getDefiningOp()), end, mayEscape(value)});
    return sharing.add(end);
  };
  for (auto call : block.getOps<KernelCallOp>())
    for (Value result : call.getResults())
      if (int64_t bytes = plannedBytes(result.getType()))
        addMember(result, bytes);
  if (candidates.empty())
    return;
  for (auto call : block.getOps<KernelCallOp>()) {
    if (call.getResults().empty() || call.getArgs().empty())
      continue;
    Value result = call.getResults().front();
    int64_t at = position.lookup(call);
    const rt::OpInfo *row = lookupRow(call.getOpName());
    if (!row)
      continue;
    if (row->viewsInput) {
      // A view holds its operand's buffer as long as it lives, whatever its
      // type.
      auto operand = indexOf.find(call.getArgs().front());
      if (operand != indexOf.end()) {
        unsigned operandIndex = operand->second;
        auto it = indexOf.find(result);
        unsigned resultIndex =
            it != indexOf.end() ? it->second : addMember(result, 0);
        sharing.join(operandIndex, resultIndex);
      }
      continue;
    }
    auto resultIt = indexOf.find(result);
    if (resultIt == indexOf.end() || !row->inPlaceInputs)
      continue;
    // The runtime lets a kernel take over the buffer of an operand it is
    // the only reader of (the one last use that holds in every order the
    // executor may run the function), and only when no view of it is alive.
    for (auto [index, operand] : llvm::enumerate(call.getArgs())) {
      if (index >= 8 || !(row->inPlaceInputs & (1u << index)))
        continue;
      auto it = indexOf.find(operand);
      if (operand.getType() != result.getType() || it == indexOf.end() ||
          !candidates[it->second].bytes || !operand.hasOneUse() ||
          sharing.end(it->second) != at)
        continue;
      sharing.join(it->second, resultIt->second);
      break;
    }
  }

  // One group per set, numbered in program order; a set with a returned
  // member stays on the heap.
  SmallVector<unsigned> groupOf(candidates.size());
  SmallVector<unsigned> groupOfLeader(candidates.size(), ~0u);
  SmallVector<Group> groups;
  for (auto [i, member] : llvm::enumerate(candidates)) {
    unsigned &leaderGroup = groupOfLeader[sharing.find(i)];
    if (leaderGroup == ~0u) {
      leaderGroup = groups.size();
      groups.emplace_back();
      groups.back().start = INT64_MAX;
    }
    Group &group = groups[leaderGroup];
    groupOf[i] = leaderGroup;
    group.bytes = std::max(group.bytes, member.bytes);
    group.start = std::min(group.start, member.start);
    group.end = std::max(group.end, member.end);
    group.escapes |= member.escapes;
  }

  SmallVector<unsigned> live;
  for (unsigned i = 0; i < groups.size(); ++i)
    if (!groups[i].escapes)
      live.push_back(i);
  if (live.empty())
    return;
  SmallVector<unsigned> begin, neighbours;
  if (findOverlaps(groups, live, maxOverlapPairs, begin, neighbours))
    placeBySize(groups, live, begin, neighbours);
  else
    placeByScan(groups, live);
  int64_t arenaBytes = 0;
  for (unsigned g : live)
    arenaBytes = std::max(arenaBytes, groups[g].offset + groups[g].bytes);
  // An arena past what the runtime accepts: no plan.
  if (arenaBytes > kMaxBytes)
    return;

  // Buffers in order of offset; each planned result names its buffer.
  SmallVector<unsigned> placed(live);
  llvm::sort(placed, [&](unsigned a, unsigned b) {
    return groups[a].offset < groups[b].offset ||
           (groups[a].offset == groups[b].offset && a < b);
  });
  SmallVector<int32_t> bufferOf(groups.size(), -1);
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
      auto it = indexOf.find(result);
      int32_t buffer = -1;
      if (it != indexOf.end() && candidates[it->second].bytes > 0)
        buffer = bufferOf[groupOf[it->second]];
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
