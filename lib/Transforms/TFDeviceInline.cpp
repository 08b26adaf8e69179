//===- TFDeviceInline.cpp - inline tf_device regions ------------*- C++ -*-===//
//
// The --tf-device-inline pass: moves the ops of every tf_device.launch and
// tf_device.cluster in front of it, gives the `tf.*` ops inside the launch's
// device, and replaces its results with the returned values.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TFDevice/TFDeviceDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFDEVICEINLINE
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;
using namespace tfrt_fallback::tf_device;

namespace {

struct TFDeviceInlinePass
    : public tfrt_fallback::impl::TFDeviceInlineBase<TFDeviceInlinePass> {
  void runOnOperation() override;

  /// Gives the tf ops of `region` (a launch's or cluster's, nested regions
  /// included) `device`, unless an inner launch placed them already.
  LogicalResult placeOps(Operation *owner, Region &region, StringAttr device);

  /// Checks that the results of `op` (a launch or cluster) its return gives
  /// no value are unused.
  LogicalResult checkResults(Operation *op);

  /// Moves the ops of `op` (a launch or cluster) in front of it and erases
  /// it.
  void inlineRegion(Operation *op);

  /// The ops an inner launch or cluster placed.
  llvm::DenseSet<Operation *> placed;
};

LogicalResult TFDeviceInlinePass::placeOps(Operation *owner, Region &region,
                                           StringAttr device) {
  bool ok = true;
  region.walk([&](Operation *op) {
    if (op->getName().getDialectNamespace() !=
            tf::TFDialect::getDialectNamespace() ||
        !placed.insert(op).second)
      return;
    auto own = op->getAttrOfType<StringAttr>("device");
    if (own && !own.getValue().empty() && own != device) {
      op->emitOpError("is placed on ")
          << own << " inside a " << owner->getName() << " on " << device;
      ok = false;
      return;
    }
    op->setAttr("device", device);
  });
  return success(ok);
}

LogicalResult TFDeviceInlinePass::checkResults(Operation *op) {
  auto ret = cast<ReturnOp>(op->getRegion(0).front().getTerminator());
  for (OpResult result : op->getResults().drop_front(ret.getValues().size()))
    if (!result.use_empty())
      return op->emitOpError("returns ")
             << ret.getValues().size() << " values, but its result #"
             << result.getResultNumber() << " is used";
  return success();
}

void TFDeviceInlinePass::inlineRegion(Operation *op) {
  Block &body = op->getRegion(0).front();
  auto ret = cast<ReturnOp>(body.getTerminator());
  for (Operation &inner : llvm::make_early_inc_range(body.without_terminator()))
    inner.moveBefore(op);
  OpBuilder builder(op);
  for (auto [result, value] : llvm::zip(op->getResults(), ret.getValues())) {
    // A value more or less refined than the result (the verifier allows
    // compatible shapes) reaches the result's users through an Identity of
    // the result's type, as TensorFlow's own casts do.
    Value replacement = value;
    if (value.getType() != result.getType())
      replacement =
          tf::createIdentity(builder, op->getLoc(), value, result.getType());
    result.replaceAllUsesWith(replacement);
  }
  op->erase();
}

void TFDeviceInlinePass::runOnOperation() {
  placed.clear();
  bool ok = true;
  // Post-order: inner launches first, so their device wins.
  SmallVector<Operation *> regions;
  getOperation().walk([&](Operation *op) {
    if (!isa<TFDeviceDialect>(op->getDialect()))
      return;
    if (isa<LaunchOp, ClusterOp>(op)) {
      regions.push_back(op);
      return;
    }
    if (isa<ReturnOp>(op))
      return;
    op->emitOpError("is not supported yet by --tf-device-inline: of "
                    "tf_device, only launch, cluster and return are");
    ok = false;
  });
  if (!ok)
    return signalPassFailure();
  for (Operation *op : regions) {
    StringAttr device;
    if (auto launch = dyn_cast<LaunchOp>(op))
      device = launch.getDeviceAttr();
    else
      device = op->getAttrOfType<StringAttr>("device");
    if (device && !device.getValue().empty() &&
        failed(placeOps(op, op->getRegion(0), device)))
      ok = false;
    if (failed(checkResults(op)))
      ok = false;
  }
  if (!ok)
    return signalPassFailure();
  for (Operation *op : regions)
    inlineRegion(op);
}

} // namespace
