//===- Runner.cpp - the command line runner shared by both runners -------===//
//
// Argument parsing, .npy I/O, benchmarking and result printing for
// fallback-run and fallback-run-lite. Plain C++ and Abseil.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Runner.h"

#include "../Features.h"

#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/KernelPlugin.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Npy.h"
#include "tfrt_fallback/Runtime/Profiler.h"
#include "tfrt_fallback/Runtime/Program.h"

#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StrFormat.h"

#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace tfrt_fallback::rt {

namespace {
/// Writes `text` to `stream` (stdio: the runner needs no iostreams).
void print(std::FILE *stream, std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stream);
}

Status writeFile(const std::string &path, std::string_view bytes) {
  std::FILE *file = std::fopen(path.c_str(), "wb");
  if (!file)
    return makeError(StatusCode::kPermissionDenied, "cannot write '%s'",
                     path.c_str());
  bool written =
      std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  if (std::fclose(file) != 0 || !written)
    return makeError(StatusCode::kDataLoss, "failed writing '%s'",
                     path.c_str());
  return OkStatus();
}

/// `mkdir -p path`.
Status createDirectories(const std::string &path) {
  for (size_t end = path.find('/', 1);; end = path.find('/', end + 1)) {
    std::string prefix = path.substr(0, end);
    if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST)
      return makeError(StatusCode::kPermissionDenied, "cannot create '%s': %s",
                       prefix.c_str(), std::strerror(errno));
    if (end == std::string::npos)
      break;
  }
  struct stat info;
  if (::stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    return makeError(StatusCode::kFailedPrecondition,
                     "cannot create '%s': not a directory", path.c_str());
  return OkStatus();
}
} // namespace

int reportError(std::string_view message) {
  std::fflush(stdout);
  std::fprintf(stderr, "error: %.*s\n", static_cast<int>(message.size()),
               message.data());
  return 1;
}

std::string runnerUsage(std::string_view tool, std::string_view programKinds) {
  return strFormat(
      "USAGE: %.*s PROGRAM [options]\n\n"
      "Runs %.*s on the tfrt-fallback runtime, prints each result and "
      "writes it as\n"
      ".npy.\n\n"
      "OPTIONS:\n"
      "  --entry=<name>        function to run (default: main)\n"
      "  --init=<name>         function to run once first (an initializer)\n"
      "  --input=<file.npy>    input tensor, in order (repeat for each)\n"
      "%s"
      "  --output-dir=<dir>    write results as DIR/output_<i>.npy\n"
      "  --threads=<n>         worker threads (default: one per core; 1: "
      "caller)\n"
      "  --benchmark=<n>       time N runs after a warm-up run; prints the\n"
      "                        times and the peak memory (max RSS)\n"
      "  --deadline-ms=<n>     stop each run after N milliseconds with\n"
      "                        DEADLINE_EXCEEDED (0: no deadline)\n"
      "  --print-limit=<n>     print at most N elements of each result\n"
      "  --profile=<file>      write a Chrome trace of every kernel of the\n"
      "                        run (of the timed runs with --benchmark)\n"
      "  --profile-summary     print the ops and kernels that took the most\n"
      "                        time (of the timed runs with --benchmark)\n"
      "  --list-kernels        print the kernel registry\n"
      "  --manifest=<file>     with --list-kernels: write the kernel manifest\n"
      "  --load-kernels=<lib>  load a kernel plugin (a shared library) first\n"
      "%s"
      "  --help                this text\n\n"
      "LIMITS (0: none; sizes take a K, M, G or T suffix, powers of 1024):\n"
      "  --max-tensor-bytes=<n>     the largest tensor an input or a kernel\n"
      "                             may have\n"
      "  --max-run-bytes=<n>        the most tensor bytes a run's kernels\n"
      "                             may hold at once\n"
      "  --max-loop-iterations=<n>  the most iterations of one loop\n"
      "  --max-program-bytes=<n>    the largest program loaded\n"
      "  --max-call-depth=<n>       the deepest nesting of calls, branches\n"
      "                             and loops (default: 256)\n",
      static_cast<int>(tool.size()), tool.data(),
      static_cast<int>(programKinds.size()), programKinds.data(),
      // By name: a build without signatures (Features.h) has no names.
      kHasSignatures
          ? "  --input=<name>=<file.npy>  the input named <name>\n"
            "  --signature           print the inputs' and outputs' names "
            "and types\n"
            "  --output-names        with --output-dir: DIR/<name>.npy\n"
          : "",
      // A build without ImmutableConst's package (Features.h) has no flag.
      kHasMemmappedPackage
          ? "  --memmapped-package=<file>\n"
            "                        the TF memmapped package whose regions\n"
            "                        ImmutableConst reads\n"
          : "");
}

// Fills `options` in place: returning a StatusOr<RunnerOptions> moved
// every string and vector of the options once more (~1 KB of a runner).
Status parseRunnerArgs(int argc, char **argv, RunnerOptions &options) {
  auto number = [](std::string_view flag, std::string_view text, int min,
                   const char *what, int *out) -> Status {
    int64_t value = 0;
    if (!parseInteger(text, &value) || value < min || value > INT32_MAX)
      return makeError(StatusCode::kInvalidArgument,
                       "--%.*s takes %s, got '%.*s'",
                       static_cast<int>(flag.size()), flag.data(), what,
                       static_cast<int>(text.size()), text.data());
    *out = static_cast<int>(value);
    return OkStatus();
  };
  // A byte count, with an optional binary K, M, G or T suffix.
  auto bytes = [](std::string_view flag, std::string_view text,
                  uint64_t *out) -> Status {
    std::string_view digits = text;
    int shift = 0;
    if (!digits.empty()) {
      switch (digits.back()) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      case 'T':
        shift = 40;
        break;
      default:
        break;
      }
    }
    if (shift)
      digits.remove_suffix(1);
    int64_t value = 0;
    if (!parseInteger(digits, &value) || value < 0 ||
        static_cast<uint64_t>(value) > (UINT64_MAX >> shift))
      return makeError(StatusCode::kInvalidArgument,
                       "--%.*s takes a number of bytes (e.g. 512M), got '%.*s'",
                       static_cast<int>(flag.size()), flag.data(),
                       static_cast<int>(text.size()), text.data());
    *out = static_cast<uint64_t>(value) << shift;
    return OkStatus();
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') {
      if (!options.programPath.empty())
        return makeError(StatusCode::kInvalidArgument,
                         "more than one program given: '%s' and '%s'",
                         options.programPath.c_str(), argv[i]);
      options.programPath.assign(arg.data(), arg.size());
      continue;
    }
    arg.remove_prefix(arg[1] == '-' ? 2 : 1);
    std::string_view name = arg, value;
    bool hasValue = false;
    if (size_t eq = arg.find('='); eq != std::string_view::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      hasValue = true;
    }
    if (name == "help" || name == "h") {
      options.help = true;
      continue;
    }
    if (name == "list-kernels") {
      options.listKernels = true;
      continue;
    }
    if (name == "profile-summary") {
      options.profileSummary = true;
      continue;
    }
    if (kHasSignatures && name == "signature") {
      options.printSignature = true;
      continue;
    }
    if (kHasSignatures && name == "output-names") {
      options.outputNames = true;
      continue;
    }
    if (kHasMemmappedPackage && name == "memmapped-package") {
      if (!hasValue && i + 1 < argc) {
        value = argv[++i];
        hasValue = true;
      }
      if (!hasValue)
        return makeError(StatusCode::kInvalidArgument,
                         "--memmapped-package needs a value");
      options.memmappedPackage.assign(value.data(), value.size());
      continue;
    }
    // The options that take a value, in the order of the switch below.
    static constexpr std::string_view kValued[] = {"entry",
                                                   "init",
                                                   "input",
                                                   "output-dir",
                                                   "threads",
                                                   "benchmark",
                                                   "deadline-ms",
                                                   "print-limit",
                                                   "manifest",
                                                   "load-kernels",
                                                   "profile",
                                                   "max-tensor-bytes",
                                                   "max-run-bytes",
                                                   "max-loop-iterations",
                                                   "max-program-bytes",
                                                   "max-call-depth"};
    const size_t flag =
        std::find(std::begin(kValued), std::end(kValued), name) -
        std::begin(kValued);
    if (flag == std::size(kValued))
      return makeError(StatusCode::kInvalidArgument,
                       "unknown option '%s' (see --help)", argv[i]);
    if (!hasValue) {
      if (i + 1 >= argc)
        return makeError(StatusCode::kInvalidArgument, "--%.*s needs a value",
                         static_cast<int>(name.size()), name.data());
      value = argv[++i];
    }
    Status status;
    switch (flag) {
    case 0:
      options.entry.assign(value.data(), value.size());
      break;
    case 1:
      options.init.assign(value.data(), value.size());
      break;
    case 2:
      options.inputs.push_back(std::string(value));
      break;
    case 3:
      options.outputDir.assign(value.data(), value.size());
      break;
    case 4:
      status = number(name, value, 0, "a number of threads", &options.threads);
      break;
    case 5:
      status = number(name, value, 0, "a number of runs", &options.benchmark);
      break;
    case 6:
      status = number(name, value, 0, "a number of milliseconds",
                      &options.deadlineMs);
      break;
    case 7:
      status =
          number(name, value, 0, "a number of elements", &options.printLimit);
      break;
    case 8:
      options.manifestPath.assign(value.data(), value.size());
      break;
    case 9:
      options.kernelPlugins.push_back(std::string(value));
      break;
    case 10:
      options.profilePath.assign(value.data(), value.size());
      break;
    case 11:
      status = bytes(name, value, &options.limits.maxTensorBytes);
      break;
    case 12:
      status = bytes(name, value, &options.limits.maxRunBytes);
      break;
    case 13: {
      int64_t count = 0;
      if (!parseInteger(value, &count) || count < 0)
        status = makeError(StatusCode::kInvalidArgument,
                           "--%.*s takes a number of iterations, got '%.*s'",
                           static_cast<int>(name.size()), name.data(),
                           static_cast<int>(value.size()), value.data());
      options.limits.maxLoopIterations = static_cast<uint64_t>(count);
      break;
    }
    case 14:
      status = bytes(name, value, &options.load.maxProgramBytes);
      break;
    default: {
      int depth = 0;
      status = number(name, value, 0, "a depth", &depth);
      options.load.maxCallDepth = static_cast<uint32_t>(depth);
      break;
    }
    }
    if (!status.ok())
      return status;
  }
  return OkStatus();
}

Status registerRunnerKernels(const RunnerOptions &options,
                             KernelRegistry &registry,
                             void (*registerBuiltins)(KernelRegistry &)) {
  registerBuiltins(registry);
  for (const std::string &plugin : options.kernelPlugins)
    if (Status status = loadKernelPlugin(plugin, registry); !status.ok())
      return status;
  return OkStatus();
}

int listRegisteredKernels(const RunnerOptions &options,
                          const KernelRegistry &registry) {
  for (const KernelDef *def : registry.listKernels()) {
    std::string constraints = def->constraintString();
    std::string_view op = def->opName();
    std::printf("%.*s%s%s\n", static_cast<int>(op.size()), op.data(),
                constraints.empty() ? "" : " ", constraints.c_str());
  }
  if (!options.manifestPath.empty())
    if (Status status = writeFile(options.manifestPath, registry.manifest());
        !status.ok())
      return reportError(status.message());
  return 0;
}

/// Prints `function`'s inputs and outputs: index, name and type, in order.
static void printSignature(const Program &program, const Function &function) {
  std::string text =
      strFormat("%s: %zu inputs, %zu outputs\n", function.name.c_str(),
                function.argNames.size(), function.resultNames.size());
  auto list = [&](const char *kind, const std::vector<std::string> &names,
                  const std::vector<uint32_t> &registers) {
    for (size_t i = 0; i < names.size(); ++i)
      text += strFormat("%s %zu '%s' %s\n", kind, i, names[i].c_str(),
                        program.types()[function.registerTypes[registers[i]]]
                            .toString()
                            .c_str());
  };
  list("input", function.argNames, function.argRegisters);
  list("output", function.resultNames, function.resultRegisters);
  print(stdout, text);
}

/// The .npy file of each input of `function`, in order, from the --input
/// flags: `NAME=file` for the input named NAME (a flag whose text before
/// the first '=' names no input is a file name), the others in order into
/// the inputs not named.
static StatusOr<std::vector<std::string>>
orderInputs(const Function &function, const std::vector<std::string> &flags) {
  std::vector<std::string> byName(function.argNames.size());
  std::vector<std::string> positional;
  bool anyNamed = false;
  for (const std::string &flag : flags) {
    const size_t eq = flag.find('=');
    const int index =
        eq == std::string::npos
            ? -1
            : function.argIndex(std::string_view(flag).substr(0, eq));
    if (index < 0) {
      positional.push_back(flag);
      continue;
    }
    if (!byName[index].empty())
      return makeError(StatusCode::kInvalidArgument,
                       "input '%s' of '%s' is given twice",
                       function.argNames[index].c_str(), function.name.c_str());
    byName[index] = flag.substr(eq + 1);
    anyNamed = true;
  }
  if (!anyNamed)
    return positional;
  size_t next = 0;
  for (size_t i = 0; i < byName.size(); ++i) {
    if (!byName[i].empty())
      continue;
    if (next == positional.size())
      return makeError(StatusCode::kInvalidArgument,
                       "no value for input %zu '%s' of '%s'", i,
                       function.argNames[i].c_str(), function.name.c_str());
    byName[i] = positional[next++];
  }
  if (next != positional.size())
    return makeError(StatusCode::kInvalidArgument,
                     "'%s' takes %zu inputs, got %zu", function.name.c_str(),
                     byName.size(), byName.size() + positional.size() - next);
  return byName;
}

/// Output file names (without .npy) from output names: characters other
/// than letters, digits, '.', '-' and '_' become '_' ("Identity:0" ->
/// "Identity_0"), and a name taken by an earlier output gets "_<index>".
static std::vector<std::string>
fileNamesOf(const std::vector<std::string> &names) {
  std::vector<std::string> files;
  for (size_t i = 0; i < names.size(); ++i) {
    std::string file = names[i];
    for (char &c : file)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' &&
          c != '-' && c != '_')
        c = '_';
    if (file.empty() || file == "." || file == ".." ||
        std::find(files.begin(), files.end(), file) != files.end())
      file += strFormat("_%zu", i);
    files.push_back(std::move(file));
  }
  return files;
}

/// Peak resident memory of this process so far, in MiB.
static double maxRssMiB() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0; // ru_maxrss: KiB
}

int runBinaryProgram(const RunnerOptions &options,
                     RCReference<TensorBuffer> bytes,
                     const KernelRegistry &registry) {
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(std::move(bytes), registry, options.load);
  if (!program.ok())
    return reportError(program.status().message());
  const Function *function = (*program)->lookupFunction(options.entry);
  if (!function)
    return reportError(
        strFormat("the program has no function '%s'", options.entry.c_str()));
  // Inputs and outputs by name (Features.h: a build without signatures
  // takes inputs in order only).
  const std::vector<std::string> *inputFiles = &options.inputs;
  std::vector<std::string> byName;
  if (kHasSignatures) {
    if (options.printSignature) {
      printSignature(**program, *function);
      return 0;
    }
    StatusOr<std::vector<std::string>> ordered =
        orderInputs(*function, options.inputs);
    if (!ordered.ok())
      return reportError(ordered.status().message());
    byName = *std::move(ordered);
    inputFiles = &byName;
  }

  std::vector<Tensor> inputs;
  // Inputs are held to the tensor limit: their buffers are charged to a
  // budget of their own (not the runs', which count what kernels make).
  RCReference<MemoryBudget> inputBudget;
  if (options.limits.maxTensorBytes)
    inputBudget =
        takeRef(new MemoryBudget(options.limits.maxTensorBytes, /*run=*/0));
  for (const std::string &input : *inputFiles) {
    MemoryBudget::Scope inputScope(inputBudget.get());
    StatusOr<Tensor> tensor = readNpyFile(input);
    if (!tensor.ok())
      return reportError(tensor.status().message());
    inputs.push_back(*std::move(tensor));
  }

  HostContext host(options.threads);
  Executor executor(**program, host);
  if (kHasMemmappedPackage)
    executor.setMemmappedPackagePath(options.memmappedPackage);
  if (Status status = executor.checkInputs(*function, inputs); !status.ok())
    return reportError(status.message());
  // The initializer runs once; the entry's runs share what it set up (the
  // executor's resources: variables).
  if (!options.init.empty()) {
    const Function *init = (*program)->lookupFunction(options.init);
    if (!init)
      return reportError(strFormat("the program has no init function '%s'",
                                   options.init.c_str()));
    if (Status status = executor.runForEffects(*init, {}); !status.ok())
      return reportError(strFormat("init function '%s': %s",
                                   options.init.c_str(),
                                   std::string(status.message()).c_str()));
  }
  // The profiled runs: the timed ones with --benchmark, else the one run.
  const bool profiling = !options.profilePath.empty() || options.profileSummary;
#if defined(TFRT_FALLBACK_NO_PROFILER)
  if (profiling)
    return reportError("this runner was built without the profiler "
                       "(TFRT_FALLBACK_RUNNER_PROFILER=OFF)");
  struct {
    void beginRun() {}
  } profiler;
#else
  KernelProfiler profiler;
#endif
  auto runOptions = [&](bool profiled) {
    RunOptions run = options.deadlineMs > 0
                         ? RunOptions::withTimeout(
                               std::chrono::milliseconds(options.deadlineMs))
                         : RunOptions();
    run.limits = options.limits;
    if (profiling && profiled) {
      profiler.beginRun();
#if !defined(TFRT_FALLBACK_NO_PROFILER)
      run.observer = &profiler;
#endif
    }
    return run;
  };

  // Benchmark runs share the inputs; the last run takes them over.
  if (options.benchmark > 0) {
    TensorBuffer::setAccounting(true);
    TensorBuffer::resetPeakBytes();
    std::vector<double> times(options.benchmark);
    for (int i = -1; i < options.benchmark; ++i) {
      auto start = std::chrono::steady_clock::now();
      auto results = executor.run(*function, inputs, runOptions(i >= 0));
      auto end = std::chrono::steady_clock::now();
      if (!results.ok())
        return reportError(results.status().message());
      // A timed run that fails is reported, not timed on.
      for (const ResultValue &result : *results)
        if (!result.ok())
          return reportError(
              strFormat("benchmark run %d: %s", i + 1,
                        std::string(result.status().message()).c_str()));
      if (i >= 0) // The first run warms up.
        times[i] =
            std::chrono::duration<double, std::milli>(end - start).count();
    }
    // A heap sort: std::sort's introsort is ~0.5 KB more of the runner.
    std::make_heap(times.begin(), times.end());
    std::sort_heap(times.begin(), times.end());
    // What the program needs at least: its weights (constants, used in
    // place in the program file) and the most tensor bytes alive at once
    // (the inputs, which were allocated before accounting, included).
    // Live tensors: the heap's peak and the arenas of the compiler's memory
    // plans (docs/MemoryPlan.md; one per function, kept by its frame).
    double weights = 0, activations = TensorBuffer::peakBytes(), arenas = 0;
    for (const ConstantEntry &constant : (*program)->constants())
      weights += constant.tensor.totalBytes();
    for (const Tensor &input : inputs)
      activations += input.totalBytes();
    if (kHasMemoryPlan)
      for (const Function &f : (*program)->functions())
        arenas += static_cast<double>(f.memoryPlan.arenaBytes);
    activations += arenas;
    constexpr double kMiB = 1024.0 * 1024.0;
    double rss = maxRssMiB();
    double needed = (weights + activations) / kMiB;
    char line[400];
    std::snprintf(line, sizeof(line),
                  "benchmark: %d runs, min %.4f ms, median %.4f ms, max %.4f "
                  "ms\npeak memory: %.1f MiB (max RSS)\n"
                  "memory: weights %.1f MiB + peak live tensors %.1f MiB = "
                  "%.1f MiB; max RSS / that = %.2f\n",
                  options.benchmark, times.front(), times[times.size() / 2],
                  times.back(), rss, weights / kMiB, activations / kMiB, needed,
                  needed > 0 ? rss / needed : 0.0);
    print(stdout, line);
    if (kHasMemoryPlan && !function->memoryPlan.empty()) {
      Executor::MemoryPlanCounts counts = executor.memoryPlanCounts(*function);
      std::snprintf(line, sizeof(line),
                    "memory plan: arenas %.2f MiB (of the live tensors), %zu "
                    "buffers, %llu results in them, %llu allocated (buffer "
                    "taken or too small)\n",
                    arenas / kMiB, function->memoryPlan.buffers.size(),
                    static_cast<unsigned long long>(counts.hits),
                    static_cast<unsigned long long>(counts.misses));
      print(stdout, line);
    }
    TensorBuffer::setAccounting(false);
  }

  auto results = executor.run(*function, std::move(inputs),
                              runOptions(options.benchmark == 0));
  if (!results.ok())
    return reportError(results.status().message());
#if !defined(TFRT_FALLBACK_NO_PROFILER)
  if (!options.profilePath.empty())
    if (Status status = writeFile(options.profilePath, profiler.chromeTrace());
        !status.ok())
      return reportError(status.message());
  if (options.profileSummary)
    print(stdout, profiler.summary());
#endif

  if (!options.outputDir.empty())
    if (Status status = createDirectories(options.outputDir); !status.ok())
      return reportError(status.message());
  const std::vector<std::string> outputFileNames =
      kHasSignatures && options.outputNames ? fileNamesOf(function->resultNames)
                                            : std::vector<std::string>();
  bool anyError = false;
  for (size_t i = 0; i < results->size(); ++i) {
    const ResultValue &result = (*results)[i];
    if (!result.ok()) {
      reportError(strFormat("result #%zu: %s", i,
                            std::string(result.status().message()).c_str()));
      anyError = true;
      continue;
    }
    std::printf("result #%zu: %s\n", i, describeTensor(*result).c_str());
    print(stdout, result->debugString(options.printLimit));
    print(stdout, "\n");
    if (!options.outputDir.empty()) {
      std::string file =
          kHasSignatures && options.outputNames
              ? strFormat("%s/%s.npy", options.outputDir.c_str(),
                          outputFileNames[i].c_str())
              : strFormat("%s/output_%zu.npy", options.outputDir.c_str(), i);
      if (Status status = writeNpyFile(file, *result); !status.ok())
        return reportError(status.message());
    }
  }
  std::fflush(stdout);
  return anyError ? 1 : 0;
}

int runLiteMain(int argc, char **argv, std::string_view tool,
                void (*registerBuiltins)(KernelRegistry &)) {
  RunnerOptions options;
  if (Status status = parseRunnerArgs(argc, argv, options); !status.ok())
    return reportError(status.message());
  if (options.help) {
    print(stdout, runnerUsage(tool, "a binary program (.bef)"));
    return 0;
  }
  KernelRegistry registry;
  if (Status status =
          registerRunnerKernels(options, registry, registerBuiltins);
      !status.ok())
    return reportError(status.message());
  if (options.listKernels)
    return listRegisteredKernels(options, registry);
  if (options.programPath.empty())
    return reportError("no program given (see --help)");
  for (std::string_view suffix : {".mlir", ".json", ".pb", ".pbtxt"})
    if (endsWith(options.programPath, suffix))
      return reportError(strFormat(
          "%.*s runs binary programs; compile '%s' with fallback-translate "
          "--mlir-to-bef (or run it with fallback-run)",
          static_cast<int>(tool.size()), tool.data(),
          options.programPath.c_str()));
  StatusOr<RCReference<TensorBuffer>> bytes =
      TensorBuffer::readFile(options.programPath);
  if (!bytes.ok())
    return reportError(bytes.status().message());
  return runBinaryProgram(options, *std::move(bytes), registry);
}

} // namespace tfrt_fallback::rt
