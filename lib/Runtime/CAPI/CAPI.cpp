//===- CAPI.cpp - the tfrt-fallback runtime for C programs ------*- C++ -*-===//
//
// The C API of include/tfrt_fallback/c_api.h over the runtime's C++ API:
// each opaque handle is a struct holding the C++ object. Nothing throws
// (the runtime is built without exceptions) and every failure is reported
// through a TFRTF_Status.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/c_api.h"

#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/KernelPlugin.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#if !defined(TFRT_FALLBACK_NO_PROFILER)
#include "tfrt_fallback/Runtime/Profiler.h"
#endif
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/Runner.h"
#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

using namespace tfrt_fallback::rt;

struct TFRTF_Status {
  Status status;
  std::string message;

  void set(Status s) {
    status = std::move(s);
    message = std::string(status.message());
  }
};

struct TFRTF_Runtime {
  explicit TFRTF_Runtime(int numThreads) : host(numThreads) {
    registerAllKernels(registry);
  }
  HostContext host;
  KernelRegistry registry;
};

struct TFRTF_Program {
  TFRTF_Program(std::unique_ptr<Program> program, HostContext &host)
      : program(std::move(program)), executor(*this->program, host) {}
  /// Waits for the asynchronous runs to end.
  ~TFRTF_Program() {
    std::unique_lock<std::mutex> lock(mutex);
    idle.wait(lock, [&] { return pendingRuns == 0; });
  }
  std::unique_ptr<Program> program;
  Executor executor;
  std::mutex mutex;
  std::condition_variable idle;
  int pendingRuns = 0;
};

struct TFRTF_Tensor {
  Tensor tensor;
};

struct TFRTF_CancellationToken {
  CancellationToken token;
};

struct TFRTF_RunOptions {
  int64_t timeoutMs = 0;
  TFRTF_CancellationToken *cancellation = nullptr;
  std::string profilePath;
};

namespace {
void setStatus(TFRTF_Status *status, Status value) {
  if (status)
    status->set(std::move(value));
}

/// A program loaded from `file` or the status saying why not.
TFRTF_Program *loadProgram(TFRTF_Runtime *runtime,
                           StatusOr<RCReference<TensorBuffer>> file,
                           TFRTF_Status *status) {
  if (!runtime) {
    setStatus(status, InvalidArgumentError("no runtime given"));
    return nullptr;
  }
  if (!file.ok()) {
    setStatus(status, file.status());
    return nullptr;
  }
  StatusOr<std::unique_ptr<Program>> program =
      Program::load(*std::move(file), runtime->registry);
  if (!program.ok()) {
    setStatus(status, program.status());
    return nullptr;
  }
  setStatus(status, OkStatus());
  return new TFRTF_Program(*std::move(program), runtime->host);
}

const Function *findFunction(const TFRTF_Program *program,
                             const char *function) {
  if (!program || !function)
    return nullptr;
  return program->program->lookupFunction(function);
}

/// The type of input (or output) `i` of `function`, or null.
const ValueType *signatureType(const TFRTF_Program *program,
                               const char *function, int i, bool output) {
  const Function *f = findFunction(program, function);
  const std::vector<uint32_t> *registers =
      f ? (output ? &f->resultRegisters : &f->argRegisters) : nullptr;
  if (!registers || i < 0 || i >= static_cast<int>(registers->size()))
    return nullptr;
  return &program->program->types()[f->registerTypes[(*registers)[i]]];
}

const char *signatureName(const TFRTF_Program *program, const char *function,
                          int i, bool output) {
  const Function *f = findFunction(program, function);
  const std::vector<std::string> *names =
      f ? (output ? &f->resultNames : &f->argNames) : nullptr;
  if (!names || i < 0 || i >= static_cast<int>(names->size()))
    return nullptr;
  return (*names)[i].c_str();
}

int signatureNumDims(const TFRTF_Program *program, const char *function, int i,
                     bool output) {
  const ValueType *type = signatureType(program, function, i, output);
  if (!type || type->isChain())
    return -2;
  return type->shape.rank();
}

int64_t signatureDim(const TFRTF_Program *program, const char *function, int i,
                     int d, bool output) {
  const ValueType *type = signatureType(program, function, i, output);
  if (!type || type->isChain() || d < 0 || d >= type->shape.rank())
    return -1;
  return type->shape.dims()[d];
}

/// A checked shape from the C caller's dims.
StatusOr<TensorShape> shapeOf(const char *what, const int64_t *dims,
                              int numDims) {
  if (numDims < 0 || (numDims > 0 && !dims))
    return InvalidArgumentError(strCat(what, ": invalid dimensions"));
  return TensorShape::create(absl::MakeConstSpan(dims, numDims));
}

/// What a run needs, checked: the function, its inputs and its options.
struct PreparedRun {
  const Function *function = nullptr;
  std::vector<Tensor> inputs;
  RunOptions options;
#if !defined(TFRT_FALLBACK_NO_PROFILER)
  /// Set when the options ask for a profile.
  std::shared_ptr<KernelProfiler> profiler;
  std::string profilePath;
#endif
};

StatusOr<PreparedRun> prepareRun(TFRTF_Program *program, const char *function,
                                 TFRTF_Tensor *const *inputs, int numInputs,
                                 const TFRTF_RunOptions *options) {
  PreparedRun run;
  run.function = findFunction(program, function);
  if (!run.function)
    return NotFoundError(strCat("the program has no function '",
                                function ? function : "(null)", "'"));
  if (numInputs < 0 || (numInputs > 0 && !inputs))
    return InvalidArgumentError(strCat("function '", function, "' takes ",
                                       run.function->argRegisters.size(),
                                       " inputs; got ", numInputs));
  run.inputs.reserve(numInputs);
  for (int i = 0; i < numInputs; ++i) {
    if (!inputs[i])
      return InvalidArgumentError(strCat("input #", i, " is NULL"));
    run.inputs.push_back(inputs[i]->tensor);
  }
  if (options && options->timeoutMs > 0)
    run.options =
        RunOptions::withTimeout(std::chrono::milliseconds(options->timeoutMs));
  if (options && options->cancellation)
    run.options.cancellation = &options->cancellation->token;
  if (options && !options->profilePath.empty()) {
#if defined(TFRT_FALLBACK_NO_PROFILER)
    return UnimplementedError("this library was built without the profiler "
                              "(TFRT_FALLBACK_RUNNER_PROFILER=OFF)");
#else
    run.profiler = std::make_shared<KernelProfiler>();
    run.profiler->beginRun();
    run.options.observer = run.profiler.get();
    run.profilePath = options->profilePath;
#endif
  }
  return run;
}

/// Writes a run's profile, when it was asked for one.
Status writeProfile(const PreparedRun &run) {
#if defined(TFRT_FALLBACK_NO_PROFILER)
  (void)run;
  return OkStatus();
#else
  if (!run.profiler)
    return OkStatus();
  std::string trace = run.profiler->chromeTrace();
  FILE *file = std::fopen(run.profilePath.c_str(), "wb");
  bool ok =
      file && std::fwrite(trace.data(), 1, trace.size(), file) == trace.size();
  if (file)
    ok &= std::fclose(file) == 0;
  if (!ok)
    return InvalidArgumentError(
        strCat("cannot write the profile to '", run.profilePath, "'"));
  return OkStatus();
#endif
}

/// Fills outputs[0..n) from a run's results (NULL where one failed); the
/// first failure, else OK.
Status takeOutputs(std::vector<ResultValue> &results, TFRTF_Tensor **outputs) {
  Status first = OkStatus();
  for (size_t i = 0; i < results.size(); ++i) {
    ResultValue &result = results[i];
    // The C API carries every dtype but resources and variants.
    if (result.ok() && !isBufferDType(result->dtype()) &&
        result->dtype() != DType::String)
      result = UnimplementedError(strCat(
          "result #", i, " is a tensor of dtype ", dtypeName(result->dtype()),
          ", which the C API does not carry (the C++ Executor does)"));
    if (result.ok())
      outputs[i] = new TFRTF_Tensor{*std::move(result)};
    else if (first.ok())
      first = result.status();
  }
  return first;
}
} // namespace

extern "C" {

int TFRTF_Version(void) { return TFRTF_API_VERSION; }

//===----------------------------------------------------------------------===//
// Status
//===----------------------------------------------------------------------===//

TFRTF_Status *TFRTF_NewStatus(void) { return new TFRTF_Status(); }
void TFRTF_DeleteStatus(TFRTF_Status *status) { delete status; }
int TFRTF_GetCode(const TFRTF_Status *status) {
  return status ? static_cast<int>(status->status.code()) : 0;
}
const char *TFRTF_Message(const TFRTF_Status *status) {
  return status ? status->message.c_str() : "";
}

//===----------------------------------------------------------------------===//
// Runtime and programs
//===----------------------------------------------------------------------===//

TFRTF_Runtime *TFRTF_NewRuntime(int numThreads, TFRTF_Status *status) {
  setStatus(status, OkStatus());
  // One thread runs kernels on the caller's thread, as zero does; more
  // threads run independent kernels in parallel.
  return new TFRTF_Runtime(numThreads == 1 ? 0 : numThreads);
}

void TFRTF_DeleteRuntime(TFRTF_Runtime *runtime) { delete runtime; }

void TFRTF_LoadKernelPlugin(TFRTF_Runtime *runtime, const char *path,
                            TFRTF_Status *status) {
  if (!runtime || !path) {
    setStatus(status, InvalidArgumentError(
                          "TFRTF_LoadKernelPlugin: no runtime or no path"));
    return;
  }
  setStatus(status, loadKernelPlugin(path, runtime->registry));
}

TFRTF_Program *TFRTF_LoadProgramFromFile(TFRTF_Runtime *runtime,
                                         const char *path,
                                         TFRTF_Status *status) {
  if (!path) {
    setStatus(status, InvalidArgumentError("no path given"));
    return nullptr;
  }
  return loadProgram(runtime, TensorBuffer::readFile(path), status);
}

TFRTF_Program *TFRTF_LoadProgramFromMemory(TFRTF_Runtime *runtime,
                                           const void *data, size_t size,
                                           TFRTF_Status *status) {
  if (!data && size) {
    setStatus(status, InvalidArgumentError("no data given"));
    return nullptr;
  }
  StatusOr<RCReference<TensorBuffer>> bytes = TensorBuffer::allocate(size);
  if (bytes.ok() && size)
    std::memcpy((*bytes)->data(), data, size);
  return loadProgram(runtime, std::move(bytes), status);
}

void TFRTF_DeleteProgram(TFRTF_Program *program) { delete program; }

int TFRTF_ProgramNumInputs(const TFRTF_Program *program, const char *function) {
  const Function *f = findFunction(program, function);
  return f ? static_cast<int>(f->argRegisters.size()) : -1;
}

int TFRTF_ProgramNumOutputs(const TFRTF_Program *program,
                            const char *function) {
  const Function *f = findFunction(program, function);
  return f ? static_cast<int>(f->resultRegisters.size()) : -1;
}

const char *TFRTF_ProgramInputName(const TFRTF_Program *program,
                                   const char *function, int i) {
  return signatureName(program, function, i, /*output=*/false);
}

const char *TFRTF_ProgramOutputName(const TFRTF_Program *program,
                                    const char *function, int i) {
  return signatureName(program, function, i, /*output=*/true);
}

int TFRTF_ProgramInputIndex(const TFRTF_Program *program, const char *function,
                            const char *name) {
  const Function *f = findFunction(program, function);
  return f && name ? f->argIndex(name) : -1;
}

int TFRTF_ProgramOutputIndex(const TFRTF_Program *program, const char *function,
                             const char *name) {
  const Function *f = findFunction(program, function);
  if (!f || !name)
    return -1;
  for (size_t i = 0; i < f->resultNames.size(); ++i)
    if (f->resultNames[i] == name)
      return static_cast<int>(i);
  return -1;
}

int TFRTF_ProgramInputType(const TFRTF_Program *program, const char *function,
                           int i) {
  const ValueType *type = signatureType(program, function, i, false);
  return type && !type->isChain() ? static_cast<int>(type->dtype) : 0;
}

int TFRTF_ProgramOutputType(const TFRTF_Program *program, const char *function,
                            int i) {
  const ValueType *type = signatureType(program, function, i, true);
  return type && !type->isChain() ? static_cast<int>(type->dtype) : 0;
}

int TFRTF_ProgramInputNumDims(const TFRTF_Program *program,
                              const char *function, int i) {
  return signatureNumDims(program, function, i, false);
}

int TFRTF_ProgramOutputNumDims(const TFRTF_Program *program,
                               const char *function, int i) {
  return signatureNumDims(program, function, i, true);
}

int64_t TFRTF_ProgramInputDim(const TFRTF_Program *program,
                              const char *function, int i, int d) {
  return signatureDim(program, function, i, d, false);
}

int64_t TFRTF_ProgramOutputDim(const TFRTF_Program *program,
                               const char *function, int i, int d) {
  return signatureDim(program, function, i, d, true);
}

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

TFRTF_Tensor *TFRTF_NewTensor(TFRTF_DataType type, const int64_t *dims,
                              int numDims, const void *data, size_t byteSize,
                              TFRTF_Status *status) {
  StatusOr<DType> dtype = dtypeFromDataType(static_cast<int>(type));
  if (!dtype.ok() || !isBufferDType(*dtype)) {
    setStatus(status,
              InvalidArgumentError(strCat(
                  "TFRTF_NewTensor: unsupported data type ", int(type))));
    return nullptr;
  }
  if (numDims < 0 || (numDims > 0 && !dims)) {
    setStatus(status,
              InvalidArgumentError("TFRTF_NewTensor: invalid dimensions"));
    return nullptr;
  }
  StatusOr<TensorShape> shape =
      TensorShape::create(absl::MakeConstSpan(dims, numDims));
  if (!shape.ok()) {
    setStatus(status, shape.status());
    return nullptr;
  }
  StatusOr<Tensor> tensor = Tensor::allocate(*dtype, *std::move(shape));
  if (!tensor.ok()) {
    setStatus(status, tensor.status());
    return nullptr;
  }
  if (byteSize != tensor->totalBytes() || (byteSize && !data)) {
    setStatus(status, InvalidArgumentError(strCat(
                          "TFRTF_NewTensor: ", byteSize, " bytes given for ",
                          tensor->shape().toString(), " ", dtypeName(*dtype),
                          ", which takes ", tensor->totalBytes())));
    return nullptr;
  }
  if (byteSize)
    std::memcpy(tensor->rawData(), data, byteSize);
  setStatus(status, OkStatus());
  return new TFRTF_Tensor{*std::move(tensor)};
}

TFRTF_Tensor *
TFRTF_NewTensorFromBuffer(TFRTF_DataType type, const int64_t *dims, int numDims,
                          void *data, size_t byteSize,
                          void (*deallocator)(void *, size_t, void *),
                          void *deallocatorArg, TFRTF_Status *status) {
  StatusOr<DType> dtype = dtypeFromDataType(static_cast<int>(type));
  if (!dtype.ok() || !isBufferDType(*dtype)) {
    setStatus(status, InvalidArgumentError(
                          strCat("TFRTF_NewTensorFromBuffer: unsupported "
                                 "data type ",
                                 int(type))));
    return nullptr;
  }
  StatusOr<TensorShape> shape =
      shapeOf("TFRTF_NewTensorFromBuffer", dims, numDims);
  if (!shape.ok()) {
    setStatus(status, shape.status());
    return nullptr;
  }
  const uint64_t needed =
      static_cast<uint64_t>(shape->numElements()) * dtypeSize(*dtype);
  if (byteSize != needed) {
    setStatus(status, InvalidArgumentError(
                          strCat("TFRTF_NewTensorFromBuffer: ", byteSize,
                                 " bytes given for ", shape->toString(), " ",
                                 dtypeName(*dtype), ", which takes ", needed)));
    return nullptr;
  }
  // Kernels read aligned data: other data is copied (as TF_NewTensor does).
  if (reinterpret_cast<uintptr_t>(data) % TensorBuffer::kAlignment ||
      byteSize == 0) {
    TFRTF_Tensor *copy =
        TFRTF_NewTensor(type, dims, numDims, data, byteSize, status);
    if (copy && deallocator)
      deallocator(data, byteSize, deallocatorArg);
    return copy;
  }
  RCReference<TensorBuffer> buffer =
      TensorBuffer::wrapExternal(data, byteSize, [=] {
        if (deallocator)
          deallocator(data, byteSize, deallocatorArg);
      });
  setStatus(status, OkStatus());
  return new TFRTF_Tensor{Tensor(*dtype, *std::move(shape), std::move(buffer))};
}

TFRTF_Tensor *TFRTF_NewStringTensor(const int64_t *dims, int numDims,
                                    const char *const *elements,
                                    const size_t *lengths,
                                    TFRTF_Status *status) {
  StatusOr<TensorShape> shape = shapeOf("TFRTF_NewStringTensor", dims, numDims);
  if (!shape.ok()) {
    setStatus(status, shape.status());
    return nullptr;
  }
  const int64_t n = shape->numElements();
  if (n > 0 && (!elements || !lengths)) {
    setStatus(status, InvalidArgumentError(
                          "TFRTF_NewStringTensor: no elements or lengths"));
    return nullptr;
  }
  std::vector<std::string_view> values;
  values.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    if (!elements[i] && lengths[i]) {
      setStatus(status, InvalidArgumentError(strCat(
                            "TFRTF_NewStringTensor: element ", i, " is NULL")));
      return nullptr;
    }
    values.emplace_back(elements[i] ? elements[i] : "", lengths[i]);
  }
  StatusOr<Tensor> tensor = makeStringTensor(*shape, values);
  if (!tensor.ok()) {
    setStatus(status, tensor.status());
    return nullptr;
  }
  setStatus(status, OkStatus());
  return new TFRTF_Tensor{*std::move(tensor)};
}

void TFRTF_DeleteTensor(TFRTF_Tensor *tensor) { delete tensor; }

int64_t TFRTF_TensorNumElements(const TFRTF_Tensor *tensor) {
  return tensor->tensor.numElements();
}

const char *TFRTF_TensorStringElement(const TFRTF_Tensor *tensor, int64_t i,
                                      size_t *length) {
  if (length)
    *length = 0;
  if (tensor->tensor.dtype() != DType::String || i < 0 ||
      i >= tensor->tensor.numElements())
    return nullptr;
  std::string_view element = stringElements(tensor->tensor)[i];
  if (length)
    *length = element.size();
  return element.data();
}

TFRTF_DataType TFRTF_TensorType(const TFRTF_Tensor *tensor) {
  return static_cast<TFRTF_DataType>(tensor->tensor.dtype());
}

int TFRTF_TensorNumDims(const TFRTF_Tensor *tensor) {
  return tensor->tensor.rank();
}

int64_t TFRTF_TensorDim(const TFRTF_Tensor *tensor, int i) {
  if (i < 0 || i >= tensor->tensor.rank())
    return 0;
  return tensor->tensor.dim(i);
}

size_t TFRTF_TensorByteSize(const TFRTF_Tensor *tensor) {
  return tensor->tensor.dtype() == DType::String ? 0
                                                 : tensor->tensor.totalBytes();
}

const void *TFRTF_TensorData(const TFRTF_Tensor *tensor) {
  return tensor->tensor.dtype() == DType::String ? nullptr
                                                 : tensor->tensor.rawData();
}

//===----------------------------------------------------------------------===//
// Running
//===----------------------------------------------------------------------===//

TFRTF_RunOptions *TFRTF_NewRunOptions(void) { return new TFRTF_RunOptions(); }
void TFRTF_DeleteRunOptions(TFRTF_RunOptions *options) { delete options; }
void TFRTF_RunOptionsSetTimeoutMs(TFRTF_RunOptions *options,
                                  int64_t milliseconds) {
  options->timeoutMs = milliseconds < 0 ? 0 : milliseconds;
}
void TFRTF_RunOptionsSetCancellationToken(TFRTF_RunOptions *options,
                                          TFRTF_CancellationToken *token) {
  options->cancellation = token;
}
void TFRTF_RunOptionsSetProfilePath(TFRTF_RunOptions *options,
                                    const char *path) {
  options->profilePath = path ? path : "";
}

TFRTF_CancellationToken *TFRTF_NewCancellationToken(void) {
  return new TFRTF_CancellationToken();
}
void TFRTF_DeleteCancellationToken(TFRTF_CancellationToken *token) {
  delete token;
}
void TFRTF_Cancel(TFRTF_CancellationToken *token) { token->token.cancel(); }

void TFRTF_Run(TFRTF_Program *program, const char *function,
               TFRTF_Tensor *const *inputs, int numInputs,
               TFRTF_Tensor **outputs, int numOutputs, TFRTF_Status *status) {
  TFRTF_RunWithOptions(program, function, inputs, numInputs, outputs,
                       numOutputs, nullptr, status);
}

void TFRTF_RunWithOptions(TFRTF_Program *program, const char *function,
                          TFRTF_Tensor *const *inputs, int numInputs,
                          TFRTF_Tensor **outputs, int numOutputs,
                          const TFRTF_RunOptions *options,
                          TFRTF_Status *status) {
  for (int i = 0; outputs && i < numOutputs; ++i)
    outputs[i] = nullptr;
  StatusOr<PreparedRun> run =
      prepareRun(program, function, inputs, numInputs, options);
  if (!run.ok()) {
    setStatus(status, run.status());
    return;
  }
  const Function &f = *run->function;
  if (numOutputs != static_cast<int>(f.resultRegisters.size()) ||
      (numOutputs > 0 && !outputs)) {
    setStatus(status,
              InvalidArgumentError(strCat(
                  "function '", function, "' takes ", f.argRegisters.size(),
                  " inputs and returns ", f.resultRegisters.size(),
                  " outputs; got ", numInputs, " and room for ", numOutputs)));
    return;
  }
  StatusOr<std::vector<ResultValue>> results =
      program->executor.run(f, std::move(run->inputs), run->options);
  if (!results.ok()) {
    setStatus(status, results.status());
    return;
  }
  Status first = takeOutputs(*results, outputs);
  Status profile = writeProfile(*run);
  setStatus(status, first.ok() ? std::move(profile) : std::move(first));
}

void TFRTF_RunByName(TFRTF_Program *program, const char *function,
                     const char *const *inputNames, TFRTF_Tensor *const *inputs,
                     int numInputs, TFRTF_Tensor **outputs, int numOutputs,
                     const TFRTF_RunOptions *options, TFRTF_Status *status) {
  for (int i = 0; outputs && i < numOutputs; ++i)
    outputs[i] = nullptr;
  const Function *f = findFunction(program, function);
  if (!f) {
    setStatus(status,
              NotFoundError(strCat("the program has no function '",
                                   function ? function : "(null)", "'")));
    return;
  }
  if (numInputs < 0 || (numInputs > 0 && (!inputNames || !inputs))) {
    setStatus(status, InvalidArgumentError("TFRTF_RunByName: no inputs"));
    return;
  }
  std::vector<TFRTF_Tensor *> ordered(f->argNames.size(), nullptr);
  for (int k = 0; k < numInputs; ++k) {
    const int index = inputNames[k] ? f->argIndex(inputNames[k]) : -1;
    if (index < 0) {
      std::string known;
      for (const std::string &name : f->argNames)
        known += (known.empty() ? "'" : ", '") + name + "'";
      setStatus(status, InvalidArgumentError(strCat(
                            "function '", function, "' has no input named '",
                            inputNames[k] ? inputNames[k] : "(null)",
                            "' (its inputs: ", known, ")")));
      return;
    }
    if (ordered[index]) {
      setStatus(status, InvalidArgumentError(
                            strCat("input '", f->argNames[index], "' of '",
                                   function, "' is given twice")));
      return;
    }
    ordered[index] = inputs[k];
  }
  for (size_t i = 0; i < ordered.size(); ++i)
    if (!ordered[i]) {
      setStatus(status, InvalidArgumentError(strCat("no value for input ", i,
                                                    " '", f->argNames[i],
                                                    "' of '", function, "'")));
      return;
    }
  TFRTF_RunWithOptions(program, function, ordered.data(),
                       static_cast<int>(ordered.size()), outputs, numOutputs,
                       options, status);
}

void TFRTF_RunAsync(TFRTF_Program *program, const char *function,
                    TFRTF_Tensor *const *inputs, int numInputs,
                    const TFRTF_RunOptions *options, TFRTF_DoneCallback done,
                    void *doneArg, TFRTF_Status *status) {
  StatusOr<PreparedRun> prepared =
      prepareRun(program, function, inputs, numInputs, options);
  if (prepared.ok() && !done)
    prepared = InvalidArgumentError("TFRTF_RunAsync: no done callback");
  if (!prepared.ok()) {
    setStatus(status, prepared.status());
    return;
  }
  auto run = std::make_shared<PreparedRun>(*std::move(prepared));
  {
    std::lock_guard<std::mutex> lock(program->mutex);
    ++program->pendingRuns;
  }
  StatusOr<AsyncRun> started = program->executor.runAsync(
      *run->function, std::move(run->inputs), run->options);
  if (!started.ok()) {
    std::lock_guard<std::mutex> lock(program->mutex);
    --program->pendingRuns;
    setStatus(status, started.status());
    return;
  }
  setStatus(status, OkStatus());
  AsyncValueRef<Chain> finished = started->done;
  finished.andThen([program, run, done, doneArg,
                    results = std::move(started->results)] {
    std::vector<ResultValue> values;
    values.reserve(results.size());
    for (const AsyncValueRef<Tensor> &result : results)
      values.push_back(result.isError() ? ResultValue(result.getError())
                                        : ResultValue(result.get()));
    std::vector<TFRTF_Tensor *> outputs(values.size(), nullptr);
    Status first = takeOutputs(values, outputs.data());
    Status profile = writeProfile(*run);
    TFRTF_Status runStatus;
    runStatus.set(first.ok() ? std::move(profile) : std::move(first));
    done(doneArg, outputs.data(), static_cast<int>(outputs.size()), &runStatus);
    // The last use of the program: its deletion may go on after this.
    std::lock_guard<std::mutex> lock(program->mutex);
    if (--program->pendingRuns == 0)
      program->idle.notify_all();
  });
}

} // extern "C"
