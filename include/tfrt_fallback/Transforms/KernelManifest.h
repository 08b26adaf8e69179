//===- KernelManifest.h - what kernels a target runtime has -----*- C++ -*-===//
//
// Reads the kernel manifest that `fallback-run --list-kernels` writes: the
// ops and dtypes for which a runtime has fallback kernels. The format is
// described in docs/KernelManifest.md.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_TRANSFORMS_KERNELMANIFEST_H
#define TFRT_FALLBACK_TRANSFORMS_KERNELMANIFEST_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tfrt_fallback {

class KernelManifest {
public:
  /// One registered kernel: for each constrained type attribute, the dtype
  /// spellings it accepts (MLIR spelling: f32, i1, ui8, ...).
  struct Kernel {
    std::vector<std::pair<std::string, std::vector<std::string>>> constraints;
  };

  /// Parses manifest text; `name` is used in error messages.
  static llvm::Expected<KernelManifest> parse(llvm::StringRef text,
                                              llvm::StringRef name);
  /// Reads and parses the manifest file at `path`.
  static llvm::Expected<KernelManifest> readFile(llvm::StringRef path);

  /// Whether the manifest lists the op at all.
  bool hasOp(llvm::StringRef opName) const { return kernels.count(opName); }

  /// Whether some kernel of `opName` accepts the dtypes in `attrs`.
  bool supports(llvm::StringRef opName, mlir::DictionaryAttr attrs) const;

  /// The registered dtype constraints of `opName`, for error messages, e.g.
  /// "T in {f32, i32}; T in {f16}".
  std::string describe(llvm::StringRef opName) const;

  /// Whether the runtime has the optional part of the framework `feature`
  /// ("control-flow", "strings": a `feature` line of the manifest).
  bool hasFeature(llvm::StringRef feature) const {
    return features.contains(feature);
  }

private:
  llvm::StringMap<std::vector<Kernel>> kernels;
  llvm::StringSet<> features;
};

/// The optional parts of the runtime's framework (docs/KernelManifest.md)
/// that `op`, in the tfrt_fallback dialect, needs: "control-flow" for a
/// call, if, case or while; "strings" when one of its operands or results
/// (or, for a function, arguments or results) is a string tensor.
llvm::SmallVector<llvm::StringRef, 2> neededFeatures(mlir::Operation *op);

/// Checks that the runtime `manifest` describes (`target` names it in
/// messages) has the features every op of `module` needs: an error at each
/// op that needs one it lacks.
mlir::LogicalResult checkFeatures(mlir::ModuleOp module,
                                  const KernelManifest &manifest,
                                  llvm::StringRef target);

/// The kernels of this build's runtime (its registry, written into the
/// compiler at build time): what --tf-to-tfrt-fallback checks against when
/// no kernel-manifest is given.
const KernelManifest &getDefaultKernelManifest();

/// The dtype spelling of an MLIR element type in a manifest: the runtime's
/// dtype name (f32, i1, ui8, bf16, ..., string), else the type as MLIR
/// prints it.
std::string manifestDTypeName(mlir::Type type);

/// The type attributes of `attrs` as "T=f32, Tidx=i32", for messages.
std::string describeTypeAttrs(mlir::DictionaryAttr attrs);

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_TRANSFORMS_KERNELMANIFEST_H
