//===- KernelManifest.cpp - what kernels a target runtime has ---*- C++ -*-===//
//
// Parses the kernel manifest and matches TF ops against it.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/KernelManifest.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Runtime/DType.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tfrt_fallback;

static constexpr llvm::StringLiteral kHeader =
    "# tfrt-fallback kernel manifest v1";

llvm::Expected<KernelManifest> KernelManifest::parse(llvm::StringRef text,
                                                     llvm::StringRef name) {
  KernelManifest manifest;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  auto error = [&](size_t line, const llvm::Twine &message) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   name + ":" + llvm::Twine(line + 1) + ": " +
                                       message);
  };
  if (lines.empty() || lines.front().trim() != kHeader)
    return error(0, "expected the header '" + kHeader + "'");
  for (size_t i = 1; i < lines.size(); ++i) {
    StringRef line = lines[i].trim();
    if (line.empty() || line.starts_with("#"))
      continue;
    SmallVector<StringRef> words;
    line.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    if (words.size() == 2 && words[0] == "feature") {
      if (words[1] != "control-flow" && words[1] != "strings" &&
          words[1] != "memory-plan" && words[1] != "signatures" &&
          words[1] != "memmapped-package")
        return error(i, "unknown feature '" + words[1] +
                            "' (known: control-flow, strings, memory-plan, "
                            "signatures, memmapped-package)");
      manifest.features.insert(words[1]);
      continue;
    }
    if (words.size() < 2 || words[0] != "kernel")
      return error(i, "expected 'kernel <OpName> [<attr>=<dtype>|...]...' "
                      "or 'feature <name>'");
    Kernel kernel;
    for (StringRef word : llvm::drop_begin(words, 2)) {
      auto [attr, dtypes] = word.split('=');
      if (attr.empty() || dtypes.empty())
        return error(i, "expected '<attr>=<dtype>|...', got '" + word + "'");
      SmallVector<StringRef> names;
      dtypes.split(names, '|', -1, /*KeepEmpty=*/false);
      std::vector<std::string> allowed(names.begin(), names.end());
      kernel.constraints.emplace_back(attr.str(), std::move(allowed));
    }
    manifest.kernels[words[1]].push_back(std::move(kernel));
  }
  return manifest;
}

llvm::Expected<KernelManifest> KernelManifest::readFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read kernel manifest '" + path +
                                       "': " + buffer.getError().message());
  return parse((*buffer)->getBuffer(), path);
}

std::string tfrt_fallback::manifestDTypeName(Type type) {
  // The runtime's name (DTypes.def), which is MLIR's spelling for the
  // numeric dtypes and `string`, `resource`, `variant` for TF's own.
  if (std::optional<rt::DType> dtype = tf::getDType(type)) {
    std::string_view name = rt::dtypeName(*dtype);
    return std::string(name.data(), name.size());
  }
  std::string name;
  llvm::raw_string_ostream os(name);
  os << type;
  return name;
}

/// Whether the type attribute `value` (a type or a list of types) only names
/// dtypes in `allowed`.
static bool satisfies(Attribute value, ArrayRef<std::string> allowed) {
  auto allows = [&](Attribute element) {
    auto typeAttr = dyn_cast<TypeAttr>(element);
    return typeAttr &&
           llvm::is_contained(allowed, manifestDTypeName(typeAttr.getValue()));
  };
  if (auto list = dyn_cast<ArrayAttr>(value))
    return llvm::all_of(list, allows);
  return allows(value);
}

bool KernelManifest::supports(llvm::StringRef opName,
                              DictionaryAttr attrs) const {
  auto it = kernels.find(opName);
  if (it == kernels.end())
    return false;
  return llvm::any_of(it->second, [&](const Kernel &kernel) {
    return llvm::all_of(kernel.constraints, [&](const auto &constraint) {
      Attribute value = attrs.get(constraint.first);
      return value && satisfies(value, constraint.second);
    });
  });
}

std::string KernelManifest::describe(llvm::StringRef opName) const {
  auto it = kernels.find(opName);
  if (it == kernels.end())
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      it->second, os,
      [&](const Kernel &kernel) {
        if (kernel.constraints.empty()) {
          os << "any dtype";
          return;
        }
        llvm::interleave(
            kernel.constraints, os,
            [&](const auto &constraint) {
              os << constraint.first << " in {"
                 << llvm::join(constraint.second, ", ") << "}";
            },
            ", ");
      },
      "; ");
  return text;
}

SmallVector<StringRef, 2> tfrt_fallback::neededFeatures(Operation *op) {
  SmallVector<StringRef, 2> features;
  if (isa<func::CallOp, IfOp, CaseOp, WhileOp>(op))
    features.push_back("control-flow");
  auto isString = [](Type type) {
    auto tensor = dyn_cast<TensorType>(type);
    return tensor && tf::getDType(tensor.getElementType()) == rt::DType::String;
  };
  // A function's arguments and results count even when nothing uses them:
  // the runtime's loader refuses any string-typed value.
  auto func = dyn_cast<func::FuncOp>(op);
  if (llvm::any_of(op->getOperandTypes(), isString) ||
      llvm::any_of(op->getResultTypes(), isString) ||
      (func && (llvm::any_of(func.getArgumentTypes(), isString) ||
                llvm::any_of(func.getResultTypes(), isString))))
    features.push_back("strings");
  return features;
}

LogicalResult tfrt_fallback::checkFeatures(ModuleOp module,
                                           const KernelManifest &manifest,
                                           StringRef target) {
  bool failedAny = false;
  module.walk([&](Operation *op) {
    for (StringRef feature : neededFeatures(op)) {
      if (manifest.hasFeature(feature))
        continue;
      op->emitOpError("needs ")
          << (feature == "strings" ? "string tensors" : "control flow")
          << ", which " << target << " lacks (no 'feature " << feature
          << "' line: a selective runtime build leaves it out)";
      failedAny = true;
    }
  });
  return failure(failedAny);
}

std::string tfrt_fallback::describeTypeAttrs(DictionaryAttr attrs) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  for (NamedAttribute attr : attrs) {
    Attribute value = attr.getValue();
    auto list = dyn_cast<ArrayAttr>(value);
    bool isTypeAttr =
        isa<TypeAttr>(value) ||
        (list && !list.empty() && llvm::all_of(list, llvm::IsaPred<TypeAttr>));
    if (!isTypeAttr)
      continue;
    os << (first ? "" : ", ") << attr.getName().getValue() << "=";
    first = false;
    if (!list) {
      os << cast<TypeAttr>(value).getValue();
      continue;
    }
    os << '[';
    llvm::interleaveComma(list, os, [&](Attribute element) {
      os << cast<TypeAttr>(element).getValue();
    });
    os << ']';
  }
  return text;
}

namespace tfrt_fallback {
extern const char *const kDefaultKernelManifestText;
} // namespace tfrt_fallback

const KernelManifest &tfrt_fallback::getDefaultKernelManifest() {
  static const KernelManifest *manifest = [] {
    auto parsed = KernelManifest::parse(kDefaultKernelManifestText,
                                        "this build's runtime");
    // Written by our own runtime at build time: it always parses.
    if (!parsed)
      llvm::report_fatal_error(parsed.takeError());
    return new KernelManifest(std::move(*parsed));
  }();
  return *manifest;
}
