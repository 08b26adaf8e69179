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

/* The version of this interface; TFRTF_Version() returns the library's. */
#define TFRTF_API_VERSION 1
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
TFRTF_EXPORT void TFRTF_DeleteProgram(TFRTF_Program *program);
/* -1 when the program has no such function. */
TFRTF_EXPORT int TFRTF_ProgramNumInputs(const TFRTF_Program *program,
                                        const char *function);
TFRTF_EXPORT int TFRTF_ProgramNumOutputs(const TFRTF_Program *program,
                                         const char *function);

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
  TFRTF_INT64 = 9,
  TFRTF_BOOL = 10,
  TFRTF_BFLOAT16 = 14,
  TFRTF_UINT16 = 17,
  TFRTF_HALF = 19,
  TFRTF_UINT32 = 22,
  TFRTF_UINT64 = 23
} TFRTF_DataType;

typedef struct TFRTF_Tensor TFRTF_Tensor;

/* A new tensor holding a copy of `data`, which must be exactly the
 * row-major bytes of `dims` elements of `type`. */
TFRTF_EXPORT TFRTF_Tensor *TFRTF_NewTensor(TFRTF_DataType type,
                                           const int64_t *dims, int num_dims,
                                           const void *data, size_t byte_size,
                                           TFRTF_Status *status);
TFRTF_EXPORT void TFRTF_DeleteTensor(TFRTF_Tensor *tensor);
TFRTF_EXPORT TFRTF_DataType TFRTF_TensorType(const TFRTF_Tensor *tensor);
TFRTF_EXPORT int TFRTF_TensorNumDims(const TFRTF_Tensor *tensor);
/* 0 for an index out of range. */
TFRTF_EXPORT int64_t TFRTF_TensorDim(const TFRTF_Tensor *tensor, int i);
TFRTF_EXPORT size_t TFRTF_TensorByteSize(const TFRTF_Tensor *tensor);
TFRTF_EXPORT const void *TFRTF_TensorData(const TFRTF_Tensor *tensor);

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

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TFRT_FALLBACK_C_API_H */
