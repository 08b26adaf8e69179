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
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
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

private:
  llvm::StringMap<std::vector<Kernel>> kernels;
};

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
