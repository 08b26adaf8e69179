//===- fallback-run.cpp - run a TF program on the fallback runtime -*- C++
//-*-===//
//
// Runs a program on the MLIR-free runtime. PROGRAM is a TF-dialect .mlir
// file, a TF.js model.json or a GraphDef (compiled in-process), a lowered
// tfrt_fallback .mlir file, or a binary program (.bef). Everything after the
// compilation is the shared runner (Runtime/Runner.h), the same code as
// fallback-run-lite's. `--reference-f64` (TF programs only) computes the
// program's float32 values in float64 (--tf-promote-to-f64): the accuracy
// oracle for numerically sensitive models. `--list-kernels --markdown`
// prints the registry as docs/Kernels.md's generated table (only here: the
// runner an app ships, fallback-run-lite, does without it).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/GraphDefImport.h"
#include "tfrt_fallback/Import/ImportModel.h"
#include "tfrt_fallback/Import/SavedModelImport.h"
#include "tfrt_fallback/Import/TFLiteImport.h"
#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Runner.h"
#include "tfrt_fallback/Target/BinaryProgram.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace tfrt_fallback;

static int fail(const llvm::Twine &message) {
  return rt::reportError(message.str());
}

/// Compiles a .mlir program, a TF.js model.json or a GraphDef into binary
/// program bytes in-process.
/// Compiles the model at `path` into `bytes`; `hasInit` tells whether it
/// has a SavedModel's initializer function.
static bool compileProgram(std::string path, bool referenceF64,
                           std::vector<uint8_t> &bytes, bool &hasInit) {
  path = savedModelFile(path);
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  std::string message;
  auto file = mlir::openInputFile(path, &message);
  if (!file) {
    fail(message);
    return false;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  // Diagnostics print as "file:line:col: error: ...".
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importModel(sourceMgr, path, &context);
  if (!module)
    return false;
  hasInit = module->lookupSymbol(kSavedModelInitFunction) != nullptr;
  if (referenceF64) {
    mlir::PassManager pm(&context);
    pm.addPass(createTFPromoteToF64());
    if (mlir::failed(pm.run(*module)))
      return false;
  }
  if (mlir::failed(lowerToFallback(*module, TFRTFallbackPipelineOptions())))
    return false;
  return mlir::succeeded(writeBinaryProgram(*module, bytes));
}

/// The dtypes a def allows, by type attribute (sorted by name); empty for a
/// def without constraints.
using DTypeSets = std::map<std::string, std::vector<rt::DType>>;

/// Merges `from` into `into` when both constrain the same attributes and
/// differ in at most one of them: the union of the two dtype products is
/// then again a product.
static bool mergeDefs(DTypeSets &into, const DTypeSets &from) {
  if (into.size() != from.size())
    return false;
  int differing = 0;
  for (auto [a, b] = std::pair(into.begin(), from.begin()); a != into.end();
       ++a, ++b) {
    if (a->first != b->first)
      return false;
    differing += a->second != b->second;
  }
  if (differing > 1)
    return false;
  for (auto &[attr, dtypes] : into) {
    const std::vector<rt::DType> &other = from.at(attr);
    dtypes.insert(dtypes.end(), other.begin(), other.end());
    std::sort(dtypes.begin(), dtypes.end());
    dtypes.erase(std::unique(dtypes.begin(), dtypes.end()), dtypes.end());
  }
  return true;
}

/// An op's registered dtypes: its defs' constraints, merged where the
/// union is exact, "T in {f32, i32}"; defs that stay apart are joined by
/// "; ". "any dtype" for a def without constraints.
static std::string dtypeColumn(const std::vector<const rt::KernelDef *> &defs) {
  std::vector<DTypeSets> sets;
  for (const rt::KernelDef *def : defs) {
    DTypeSets set;
    for (const rt::TypeConstraint &constraint : def->constraints()) {
      std::vector<rt::DType> &dtypes = set[constraint.attrName];
      dtypes.assign(constraint.allowed.begin(), constraint.allowed.end());
      std::sort(dtypes.begin(), dtypes.end());
    }
    sets.push_back(std::move(set));
  }
  // Merge until no two sets merge: (quint8, f32), (quint8, bf16),
  // (qint8, f32), (qint8, bf16) become {quint8, qint8} x {f32, bf16}.
  for (bool merged = true; merged;) {
    merged = false;
    for (size_t i = 0; i < sets.size() && !merged; ++i)
      for (size_t j = i + 1; j < sets.size() && !merged; ++j)
        if (mergeDefs(sets[i], sets[j])) {
          sets.erase(sets.begin() + j);
          merged = true;
        }
  }
  std::string text;
  for (const DTypeSets &set : sets) {
    if (!text.empty())
      text += "; ";
    if (set.empty())
      text += "any dtype";
    bool first = true;
    for (const auto &[attr, dtypes] : set) {
      text += first ? "" : ", ";
      first = false;
      text += attr + " in {";
      for (size_t i = 0; i < dtypes.size(); ++i)
        text +=
            std::string(i ? ", " : "") + std::string(rt::dtypeName(dtypes[i]));
      text += "}";
    }
  }
  return text;
}

/// The attributes an op's row of OpTable.def names in its signature: type
/// attributes (with TF's default when the row gives one), list(type)
/// attributes and the int attributes that count variadic arguments.
static std::string attrColumn(const rt::OpRow *row) {
  if (!row)
    return "(no op-table row)";
  rt::StatusOr<rt::OpInfo> info = rt::parseOpRow(*row);
  if (!info.ok())
    return "(malformed op-table row)";
  std::vector<std::string> attrs;
  auto add = [&](std::string attr) {
    if (std::find(attrs.begin(), attrs.end(), attr) == attrs.end())
      attrs.push_back(std::move(attr));
  };
  for (const std::vector<rt::OpArg> *args : {&info->inputs, &info->outputs})
    for (const rt::OpArg &arg : *args) {
      if (!arg.count.empty())
        add(std::string(arg.count) + " (count)");
      if (arg.kind == rt::OpArg::Kind::TypeListAttr)
        add(std::string(arg.type) + " (list)");
      else if (arg.kind == rt::OpArg::Kind::TypeAttr)
        add(arg.defaultType.empty() ? std::string(arg.type)
                                    : std::string(arg.type) + " (default " +
                                          std::string(arg.defaultType) + ")");
    }
  // A type attribute seen with its default first and without it later (or
  // the other way round) is listed once, with the default.
  std::vector<std::string> kept;
  for (const std::string &attr : attrs) {
    std::string name = attr.substr(0, attr.find(' '));
    bool hasDefaultForm =
        attr == name &&
        std::any_of(attrs.begin(), attrs.end(), [&](const std::string &a) {
          return a.rfind(name + " (default ", 0) == 0;
        });
    if (!hasDefaultForm)
      kept.push_back(attr);
  }
  std::string text;
  for (const std::string &attr : kept)
    text += (text.empty() ? "" : ", ") + attr;
  return text.empty() ? "—" : text;
}

/// Prints docs/Kernels.md's generated table, markers included: one row per
/// op with its registered dtypes and the attributes its op-table row names.
static int printKernelMarkdown(const rt::KernelRegistry &registry) {
  std::printf("<!-- generated by fallback-run --list-kernels --markdown: do "
              "not edit -->\n"
              "| op | dtypes | type and count attributes |\n"
              "|----|--------|---------------------------|\n");
  std::vector<const rt::KernelDef *> defs = registry.listKernels();
  for (size_t i = 0; i < defs.size();) {
    size_t end = i;
    while (end < defs.size() && defs[end]->opName() == defs[i]->opName())
      ++end;
    std::vector<const rt::KernelDef *> opDefs(defs.begin() + i,
                                              defs.begin() + end);
    std::printf("| `%s` | %s | %s |\n", defs[i]->opName().c_str(),
                dtypeColumn(opDefs).c_str(),
                attrColumn(defs[i]->row()).c_str());
    i = end;
  }
  std::printf("<!-- end generated -->\n");
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // This runner's own flag; the shared parser takes the rest.
  bool referenceF64 = false, markdown = false;
  // A SavedModel's signature to run: --signature=NAME or --signature NAME
  // before a non-flag (--signature alone prints the entry's signature).
  std::string signatureName;
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strncmp(argv[i], "--signature=", 12) == 0)
      signatureName = argv[i] + 12;
    else if (i > 0 && std::strcmp(argv[i], "--signature") == 0 &&
             i + 1 < argc && argv[i + 1][0] != '-' &&
             !llvm::sys::fs::exists(argv[i + 1]))
      signatureName = argv[++i];
    else if (i > 0 && std::strcmp(argv[i], "--reference-f64") == 0)
      referenceF64 = true;
    else if (i > 0 && std::strcmp(argv[i], "--markdown") == 0)
      markdown = true;
    else
      args.push_back(argv[i]);
  }
  rt::RunnerOptions options;
  if (rt::Status status = rt::parseRunnerArgs(static_cast<int>(args.size()),
                                              args.data(), options);
      !status.ok())
    return rt::reportError(status.message());
  if (options.help) {
    std::cout << rt::runnerUsage("fallback-run",
                                 "a TF program (.mlir, TF.js model.json, "
                                 "GraphDef .pb/.pbtxt, or a binary "
                                 "program .bef)")
              << "  --reference-f64        compute a TF program's float32 "
                 "values in float64\n"
                 "                         (its results are float64; inputs "
                 "stay float32)\n"
                 "  --markdown             with --list-kernels: print the "
                 "registry as\n"
                 "                         docs/Kernels.md's generated table\n"
                 "  --signature=<name>     a SavedModel's signature to run "
                 "(default:\n"
                 "                         serving_default; its "
                 "__saved_model_init_op\n"
                 "                         runs first)\n";
    return 0;
  }
  rt::KernelRegistry registry;
  if (rt::Status status = rt::registerRunnerKernels(options, registry);
      !status.ok())
    return rt::reportError(status.message());
  if (markdown && !options.listKernels)
    return fail("--markdown needs --list-kernels");
  if (options.listKernels)
    return markdown ? printKernelMarkdown(registry)
                    : rt::listRegisteredKernels(options, registry);
  if (options.programPath.empty())
    return fail("no program given (see --help)");

  llvm::StringRef path(options.programPath);
  const bool savedModel = isSavedModelPath(path);
  if (!signatureName.empty() && !savedModel)
    return fail("--signature=NAME needs a SavedModel");
  if (savedModel) {
    if (!signatureName.empty())
      options.entry = signatureName;
    else if (options.entry == "main")
      options.entry = "serving_default";
  }
  if (!savedModel && !path.ends_with(".mlir") && !path.ends_with(".json") &&
      !isGraphDefPath(path) && !isTFLitePath(path)) {
    if (referenceF64)
      return fail("--reference-f64 needs a TF program (.mlir, model.json, "
                  "GraphDef, .tflite), not a binary one");
    rt::StatusOr<rt::RCReference<rt::TensorBuffer>> bytes =
        rt::TensorBuffer::readFile(options.programPath);
    if (!bytes.ok())
      return rt::reportError(bytes.status().message());
    return rt::runBinaryProgram(options, *std::move(bytes), registry);
  }
  std::vector<uint8_t> compiled;
  bool hasInit = false;
  if (!compileProgram(options.programPath, referenceF64, compiled, hasInit))
    return 1;
  if (hasInit && options.init.empty())
    options.init = kSavedModelInitFunction.str();
  rt::StatusOr<rt::RCReference<rt::TensorBuffer>> bytes =
      rt::TensorBuffer::allocate(compiled.size());
  if (!bytes.ok())
    return rt::reportError(bytes.status().message());
  if (!compiled.empty())
    std::memcpy((*bytes)->data(), compiled.data(), compiled.size());
  return rt::runBinaryProgram(options, *std::move(bytes), registry);
}
