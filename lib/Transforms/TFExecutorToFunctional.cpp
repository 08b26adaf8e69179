//===- TFExecutorToFunctional.cpp - inline tf_executor graphs ---*- C++ -*-===//
//
// The --tf-executor-to-functional pass: moves the ops of every
// tf_executor.island in front of its tf_executor.graph, in order, and
// replaces the graph's results with the fetched values. Control tokens (and
// ControlTrigger) are dropped; TensorFlow v1 control-flow executor ops are
// reported.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorDialect.h"

#include "mlir/IR/BuiltinOps.h"

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFEXECUTORTOFUNCTIONAL
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;
using namespace tfrt_fallback::tf_executor;

namespace {

/// Reports every op of `graph` the pass cannot inline.
LogicalResult checkGraph(GraphOp graph) {
  bool ok = true;
  for (Operation &op : graph.getBody().front()) {
    // A ControlTrigger only orders control tokens, which inlining drops.
    if (isa<IslandOp, FetchOp, ControlTriggerOp>(op))
      continue;
    op.emitOpError("is TensorFlow v1 control flow, which "
                   "--tf-executor-to-functional does not turn into "
                   "functional control flow yet: only tf_executor.island, "
                   "fetch and ControlTrigger can be inlined");
    ok = false;
  }
  return success(ok);
}

/// Inlines the islands of `graph` in front of it and erases it.
void inlineGraph(GraphOp graph) {
  Block &block = graph.getBody().front();
  for (auto island : block.getOps<IslandOp>()) {
    Block &body = island.getBody().front();
    YieldOp yield = island.getYield();
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
      op.moveBefore(graph);
    for (auto [result, value] :
         llvm::zip_equal(island.getOutputs(), yield.getOperands()))
      result.replaceAllUsesWith(value);
  }
  FetchOp fetch = graph.getFetch();
  for (auto [index, result] : llvm::enumerate(graph.getResults()))
    result.replaceAllUsesWith(fetch.getOperand(index));
  // What is left uses only control tokens: erase users before producers.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    op.erase();
  graph.erase();
}

struct TFExecutorToFunctionalPass
    : public tfrt_fallback::impl::TFExecutorToFunctionalBase<
          TFExecutorToFunctionalPass> {
  void runOnOperation() override {
    SmallVector<GraphOp> graphs;
    getOperation().walk([&](GraphOp graph) { graphs.push_back(graph); });
    bool ok = true;
    for (GraphOp graph : graphs)
      ok &= succeeded(checkGraph(graph));
    // Executor ops outside a graph (a stray island, a generic Switch) have
    // no functional meaning either.
    getOperation().walk([&](Operation *op) {
      if (isa<TFExecutorDialect>(op->getDialect()) &&
          !op->getParentOfType<GraphOp>() && !isa<GraphOp>(op)) {
        op->emitOpError("is not supported yet by --tf-executor-to-functional "
                        "outside a tf_executor.graph");
        ok = false;
      }
    });
    if (!ok)
      return signalPassFailure();
    for (GraphOp graph : graphs)
      inlineGraph(graph);
  }
};

} // namespace
