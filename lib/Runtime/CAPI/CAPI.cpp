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
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/Runner.h"

#include "tfrt_fallback/Runtime/StrCat.h"

#include <chrono>
#include <cstring>
#include <memory>
#include <string>

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
  std::unique_ptr<Program> program;
  Executor executor;
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

void TFRTF_DeleteTensor(TFRTF_Tensor *tensor) { delete tensor; }

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
  return tensor->tensor.totalBytes();
}

const void *TFRTF_TensorData(const TFRTF_Tensor *tensor) {
  return tensor->tensor.rawData();
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
  const Function *f = findFunction(program, function);
  if (!f) {
    setStatus(status,
              NotFoundError(strCat("the program has no function '",
                                   function ? function : "(null)", "'")));
    return;
  }
  if (numOutputs != static_cast<int>(f->resultRegisters.size()) ||
      (numOutputs > 0 && !outputs) || numInputs < 0 ||
      (numInputs > 0 && !inputs)) {
    setStatus(status,
              InvalidArgumentError(strCat(
                  "function '", function, "' takes ", f->argRegisters.size(),
                  " inputs and returns ", f->resultRegisters.size(),
                  " outputs; got ", numInputs, " and room for ", numOutputs)));
    return;
  }
  std::vector<Tensor> tensors;
  tensors.reserve(numInputs);
  for (int i = 0; i < numInputs; ++i) {
    if (!inputs[i]) {
      setStatus(status, InvalidArgumentError(strCat("input #", i, " is NULL")));
      return;
    }
    tensors.push_back(inputs[i]->tensor);
  }
  RunOptions runOptions;
  if (options && options->timeoutMs > 0)
    runOptions =
        RunOptions::withTimeout(std::chrono::milliseconds(options->timeoutMs));
  if (options && options->cancellation)
    runOptions.cancellation = &options->cancellation->token;

  StatusOr<std::vector<ResultValue>> results =
      program->executor.run(*f, std::move(tensors), runOptions);
  if (!results.ok()) {
    setStatus(status, results.status());
    return;
  }
  Status first = OkStatus();
  for (int i = 0; i < numOutputs; ++i) {
    ResultValue &result = (*results)[i];
    // The C API carries tensors of buffer dtypes only (TFRTF_DataType).
    if (result.ok() && !isBufferDType(result->dtype()))
      result = UnimplementedError(strCat(
          "result #", i, " is a tensor of dtype ", dtypeName(result->dtype()),
          ", which the C API does not carry (the C++ Executor does)"));
    if (result.ok())
      outputs[i] = new TFRTF_Tensor{*std::move(result)};
    else if (first.ok())
      first = result.status();
  }
  setStatus(status, std::move(first));
}

} // extern "C"
