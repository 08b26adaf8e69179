/*===- c_api.h - the tfrt-fallback runtime for C programs ---------*- C -*-===*\
|*                                                                            *|
|* Loads binary programs (.bef, written by fallback-translate --mlir-to-bef)  *|
|* and runs them, in the style of TensorFlow's C API: opaque handles, a       *|
|* status object for every call that can fail, no C++ types or exceptions    *|
|* across the boundary. Built as libtfrt_fallback_c.so, which exports only    *|
|* the TFRTF_* symbols and links no MLIR or LLVM.                             *|
|*                                                                            *|
|* Every object is owned by the caller and freed with its TFRTF_Delete*      *|
|* function. A runtime must outlive its programs; tensors are independent.    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef TFRT_FALLBACK_C_API_H
#define TFRT_FALLBACK_C_API_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TFRTF_EXPORT __attribute__((visibility("default")))
#else
#define TFRTF_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface; TFRTF_Version() returns the library's.
 * 2 added signatures (names, types and shapes of a function's inputs and
 * outputs), running by name, string, complex and quantized tensors,
 * tensors over the caller's memory, asynchronous runs and profiles. */
#define TFRTF_API_VERSION 2
TFRTF_EXPORT int TFRTF_Version(void);

/*===----------------------------------------------------------------------===*
 * Status
 *===----------------------------------------------------------------------===*/

typedef struct TFRTF_Status TFRTF_Status;

TFRTF_EXPORT TFRTF_Status *TFRTF_NewStatus(void);
TFRTF_EXPORT void TFRTF_DeleteStatus(TFRTF_Status *status);
/* 0 = OK, otherwise an absl::StatusCode value (3 = INVALID_ARGUMENT,
 * 1 = CANCELLED, 4 = DEADLINE_EXCEEDED, 5 = NOT_FOUND, ...). */
TFRTF_EXPORT int TFRTF_GetCode(const TFRTF_Status *status);
/* The error message ("" when OK); valid until the status changes. */
TFRTF_EXPORT const char *TFRTF_Message(const TFRTF_Status *status);

/*===----------------------------------------------------------------------===*
 * Runtime: the thread pools and the kernel registry
 *===----------------------------------------------------------------------===*/

typedef struct TFRTF_Runtime TFRTF_Runtime;

/* num_threads worker threads; 0 or 1 runs every kernel on the calling
 * thread; negative means one per core. */
TFRTF_EXPORT TFRTF_Runtime *TFRTF_NewRuntime(int num_threads,
                                             TFRTF_Status *status);
TFRTF_EXPORT void TFRTF_DeleteRuntime(TFRTF_Runtime *runtime);

/* Loads the kernel plugin at `path` (a shared library with the entry point
 * of tfrt_fallback/Runtime/KernelPlugin.h) and adds its kernels to
 * `runtime`, for the programs loaded after it. A plugin for the C API links
 * the runtime's C++ libraries itself (TFRTFallback::Runtime), since this
 * library exports nothing but TFRTF_*; it must be built for this kernel ABI
 * version (else FAILED_PRECONDITION). Not thread-safe with other calls on
 * `runtime`. */
TFRTF_EXPORT void TFRTF_LoadKernelPlugin(TFRTF_Runtime *runtime,
                                         const char *path,
                                         TFRTF_Status *status);

/*===----------------------------------------------------------------------===*
 * Programs
 *===----------------------------------------------------------------------===*/

typedef struct TFRTF_Program TFRTF_Program;

TFRTF_EXPORT TFRTF_Program *TFRTF_LoadProgramFromFile(TFRTF_Runtime *runtime,
                                                      const char *path,
                                                      TFRTF_Status *status);
/* Copies `data`. */
TFRTF_EXPORT TFRTF_Program *TFRTF_LoadProgramFromMemory(TFRTF_Runtime *runtime,
                                                        const void *data,
                                                        size_t size,
                                                        TFRTF_Status *status);
/* Waits for the program's asynchronous runs to end first. */
TFRTF_EXPORT void TFRTF_DeleteProgram(TFRTF_Program *program);
/* -1 when the program has no such function. */
TFRTF_EXPORT int TFRTF_ProgramNumInputs(const TFRTF_Program *program,
                                        const char *function);
TFRTF_EXPORT int TFRTF_ProgramNumOutputs(const TFRTF_Program *program,
                                         const char *function);

/* A function's signature: the name, data type and shape of input (output)
 * `i`, in order. Names are the model's (its TF.js signature, GraphDef
 * inputs, SavedModel or TFLite signature), input_<i> and output_<i> where
 * it has none; they are valid while the program lives. Out of range, or no
 * such function: NULL, 0 (no data type), -2 dims. Shapes: NumDims is -1
 * for an unknown rank; Dim is -1 for an unknown dimension (and for d out
 * of range). */
TFRTF_EXPORT const char *TFRTF_ProgramInputName(const TFRTF_Program *program,
                                                const char *function, int i);
TFRTF_EXPORT const char *TFRTF_ProgramOutputName(const TFRTF_Program *program,
                                                 const char *function, int i);
/* The index of the input (output) called `name`, or -1. An input's name
 * with or without a final ":0" (its node's name) finds it. */
TFRTF_EXPORT int TFRTF_ProgramInputIndex(const TFRTF_Program *program,
                                         const char *function,
                                         const char *name);
TFRTF_EXPORT int TFRTF_ProgramOutputIndex(const TFRTF_Program *program,
                                          const char *function,
                                          const char *name);
TFRTF_EXPORT int TFRTF_ProgramInputType(const TFRTF_Program *program,
                                        const char *function, int i);
TFRTF_EXPORT int TFRTF_ProgramOutputType(const TFRTF_Program *program,
                                         const char *function, int i);
TFRTF_EXPORT int TFRTF_ProgramInputNumDims(const TFRTF_Program *program,
                                           const char *function, int i);
TFRTF_EXPORT int TFRTF_ProgramOutputNumDims(const TFRTF_Program *program,
                                            const char *function, int i);
TFRTF_EXPORT int64_t TFRTF_ProgramInputDim(const TFRTF_Program *program,
                                           const char *function, int i, int d);
TFRTF_EXPORT int64_t TFRTF_ProgramOutputDim(const TFRTF_Program *program,
                                            const char *function, int i, int d);

/*===----------------------------------------------------------------------===*
 * Tensors
 *===----------------------------------------------------------------------===*/

/* TensorFlow's DataType numbers. */
typedef enum {
  TFRTF_FLOAT = 1,
  TFRTF_DOUBLE = 2,
  TFRTF_INT32 = 3,
  TFRTF_UINT8 = 4,
  TFRTF_INT16 = 5,
  TFRTF_INT8 = 6,
  TFRTF_STRING = 7,
  TFRTF_COMPLEX64 = 8,
  TFRTF_INT64 = 9,
  TFRTF_BOOL = 10,
  TFRTF_QINT8 = 11,
  TFRTF_QUINT8 = 12,
  TFRTF_QINT32 = 13,
  TFRTF_BFLOAT16 = 14,
  TFRTF_QINT16 = 15,
  TFRTF_QUINT16 = 16,
  TFRTF_UINT16 = 17,
  TFRTF_COMPLEX128 = 18,
  TFRTF_HALF = 19,
  TFRTF_UINT32 = 22,
  TFRTF_UINT64 = 23
} TFRTF_DataType;

typedef struct TFRTF_Tensor TFRTF_Tensor;

/* A new tensor holding a copy of `data`, which must be exactly the
 * row-major bytes of `dims` elements of `type` (complex: (real, imaginary)
 * pairs; quantized: the integers). Strings: TFRTF_NewStringTensor. */
TFRTF_EXPORT TFRTF_Tensor *TFRTF_NewTensor(TFRTF_DataType type,
                                           const int64_t *dims, int num_dims,
                                           const void *data, size_t byte_size,
                                           TFRTF_Status *status);
/* A tensor over the caller's memory, without a copy: `data` must be the
 * row-major bytes of `dims` elements of `type` and stay valid and unchanged
 * until `deallocator(data, byte_size, deallocator_arg)` is called (once,
 * from any thread, when the last user of the tensor, a run included, is
 * done with it; NULL: never). Kernels need 64-byte aligned data: other
 * data is copied, and the deallocator called before this returns. On an
 * error the deallocator is not called. */
TFRTF_EXPORT TFRTF_Tensor *TFRTF_NewTensorFromBuffer(
    TFRTF_DataType type, const int64_t *dims, int num_dims, void *data,
    size_t byte_size,
    void (*deallocator)(void *data, size_t byte_size, void *arg),
    void *deallocator_arg, TFRTF_Status *status);
/* A string tensor of `dims` elements: element i is the `lengths[i]` bytes
 * at `elements[i]` (any bytes; copied). */
TFRTF_EXPORT TFRTF_Tensor *TFRTF_NewStringTensor(const int64_t *dims,
                                                 int num_dims,
                                                 const char *const *elements,
                                                 const size_t *lengths,
                                                 TFRTF_Status *status);
TFRTF_EXPORT void TFRTF_DeleteTensor(TFRTF_Tensor *tensor);
TFRTF_EXPORT TFRTF_DataType TFRTF_TensorType(const TFRTF_Tensor *tensor);
TFRTF_EXPORT int TFRTF_TensorNumDims(const TFRTF_Tensor *tensor);
/* 0 for an index out of range. */
TFRTF_EXPORT int64_t TFRTF_TensorDim(const TFRTF_Tensor *tensor, int i);
TFRTF_EXPORT int64_t TFRTF_TensorNumElements(const TFRTF_Tensor *tensor);
/* The bytes of a tensor's data (0 for strings). */
TFRTF_EXPORT size_t TFRTF_TensorByteSize(const TFRTF_Tensor *tensor);
/* The tensor's data, row-major (NULL for strings). A run's output is the
 * memory the kernel wrote, not a copy: it stays valid as long as the
 * TFRTF_Tensor, even after its program and runtime are deleted. */
TFRTF_EXPORT const void *TFRTF_TensorData(const TFRTF_Tensor *tensor);
/* Element `i` of a string tensor (row-major) and its length in bytes, valid
 * as long as the tensor; NULL (length 0) for other tensors or i out of
 * range. */
TFRTF_EXPORT const char *TFRTF_TensorStringElement(const TFRTF_Tensor *tensor,
                                                   int64_t i, size_t *length);

/*===----------------------------------------------------------------------===*
 * Running
 *===----------------------------------------------------------------------===*/

typedef struct TFRTF_RunOptions TFRTF_RunOptions;
typedef struct TFRTF_CancellationToken TFRTF_CancellationToken;

TFRTF_EXPORT TFRTF_RunOptions *TFRTF_NewRunOptions(void);
TFRTF_EXPORT void TFRTF_DeleteRunOptions(TFRTF_RunOptions *options);
/* Each run with these options ends with DEADLINE_EXCEEDED once it has taken
 * `milliseconds` (0: no deadline). */
TFRTF_EXPORT void TFRTF_RunOptionsSetTimeoutMs(TFRTF_RunOptions *options,
                                               int64_t milliseconds);
/* Runs with these options end with CANCELLED once `token` is cancelled;
 * the token must outlive them. NULL removes it. */
TFRTF_EXPORT void
TFRTF_RunOptionsSetCancellationToken(TFRTF_RunOptions *options,
                                     TFRTF_CancellationToken *token);
/* Each run with these options writes a Chrome trace of its kernels (op,
 * location, output shapes, times; chrome://tracing or Perfetto) to `path`
 * when it ends; a trace that cannot be written is the run's error. NULL or
 * "" turns it off. The path is copied. A library built without the profiler
 * (TFRT_FALLBACK_RUNNER_PROFILER=OFF) fails such runs with UNIMPLEMENTED. */
TFRTF_EXPORT void TFRTF_RunOptionsSetProfilePath(TFRTF_RunOptions *options,
                                                 const char *path);

TFRTF_EXPORT TFRTF_CancellationToken *TFRTF_NewCancellationToken(void);
TFRTF_EXPORT void TFRTF_DeleteCancellationToken(TFRTF_CancellationToken *token);
/* Safe from any thread. */
TFRTF_EXPORT void TFRTF_Cancel(TFRTF_CancellationToken *token);

/* Runs `function`; fills outputs[0..num_outputs) with new tensors the caller
 * deletes. When some results fail, the status is the first failure and the
 * failed outputs are NULL; the others are still filled. */
TFRTF_EXPORT void TFRTF_Run(TFRTF_Program *program, const char *function,
                            TFRTF_Tensor *const *inputs, int num_inputs,
                            TFRTF_Tensor **outputs, int num_outputs,
                            TFRTF_Status *status);
/* TFRTF_Run with options (NULL: none). */
TFRTF_EXPORT void
TFRTF_RunWithOptions(TFRTF_Program *program, const char *function,
                     TFRTF_Tensor *const *inputs, int num_inputs,
                     TFRTF_Tensor **outputs, int num_outputs,
                     const TFRTF_RunOptions *options, TFRTF_Status *status);

/* TFRTF_RunWithOptions with the inputs by name: inputs[k] is the input
 * named input_names[k] (TFRTF_ProgramInputIndex), in any order; every input
 * must be named once. */
TFRTF_EXPORT void TFRTF_RunByName(TFRTF_Program *program, const char *function,
                                  const char *const *input_names,
                                  TFRTF_Tensor *const *inputs, int num_inputs,
                                  TFRTF_Tensor **outputs, int num_outputs,
                                  const TFRTF_RunOptions *options,
                                  TFRTF_Status *status);

/* Called once when an asynchronous run ends, on the thread that finished
 * it: outputs[0..num_outputs) are new tensors the callee owns (NULL where
 * a result failed), `status` the first failure (valid during the call). */
typedef void (*TFRTF_DoneCallback)(void *arg, TFRTF_Tensor **outputs,
                                   int num_outputs, const TFRTF_Status *status);

/* Starts `function` and returns at once: the run goes on on the runtime's
 * threads (with 0 or 1 threads it runs on this thread, and `done` is
 * called, before this returns), with the options' deadline, cancellation
 * and profile, and ends with a call of `done`. The inputs are referenced,
 * not copied: the caller may delete them. When the run cannot start (no
 * such function, inputs that do not match) `status` says so and `done` is
 * never called; otherwise `status` is OK. TFRTF_DeleteProgram waits for
 * the program's runs to end. */
TFRTF_EXPORT void TFRTF_RunAsync(TFRTF_Program *program, const char *function,
                                 TFRTF_Tensor *const *inputs, int num_inputs,
                                 const TFRTF_RunOptions *options,
                                 TFRTF_DoneCallback done, void *done_arg,
                                 TFRTF_Status *status);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TFRT_FALLBACK_C_API_H */
