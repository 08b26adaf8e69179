/*===- c-api-io-test.c - signatures, tensors and runs of the C API -------===*\
|*                                                                            *|
|* A C11 program (no C++ in it) over the binary program given on the command *|
|* line (test/CAPI/c-api-io.mlir): it reads the signature of "main", runs it  *|
|* by name, with string, complex and caller-owned tensors, asynchronously and *|
|* with a profile, keeps an output past its program, and prints what it      *|
|* sees, errors included. test/CAPI/c-api-io.mlir checks the output.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tfrt_fallback/c_api.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printSignature(const TFRTF_Program *program, const char *fn) {
  int inputs = TFRTF_ProgramNumInputs(program, fn);
  int outputs = TFRTF_ProgramNumOutputs(program, fn);
  printf("%s: %d inputs, %d outputs\n", fn, inputs, outputs);
  for (int kind = 0; kind < 2; ++kind) {
    for (int i = 0; i < (kind ? outputs : inputs); ++i) {
      const char *name = kind ? TFRTF_ProgramOutputName(program, fn, i)
                              : TFRTF_ProgramInputName(program, fn, i);
      int type = kind ? TFRTF_ProgramOutputType(program, fn, i)
                      : TFRTF_ProgramInputType(program, fn, i);
      int rank = kind ? TFRTF_ProgramOutputNumDims(program, fn, i)
                      : TFRTF_ProgramInputNumDims(program, fn, i);
      printf("  %s %d '%s' type %d rank %d dims [", kind ? "output" : "input",
             i, name, type, rank);
      for (int d = 0; d < rank; ++d)
        printf(d ? ", %lld" : "%lld",
               (long long)(kind ? TFRTF_ProgramOutputDim(program, fn, i, d)
                                : TFRTF_ProgramInputDim(program, fn, i, d)));
      printf("]\n");
    }
  }
}

static void printFloats(const char *what, const TFRTF_Tensor *t) {
  printf("%s:", what);
  if (!t) {
    printf(" NULL\n");
    return;
  }
  const float *data = (const float *)TFRTF_TensorData(t);
  for (int64_t i = 0; i < TFRTF_TensorNumElements(t); ++i)
    printf(" %g", data[i]);
  printf("\n");
}

static TFRTF_Tensor *floats(const float *values, int64_t n, int rank,
                            TFRTF_Status *status) {
  return TFRTF_NewTensor(TFRTF_FLOAT, &n, rank, values,
                         (size_t)n * sizeof(float), status);
}

/* Caller-owned memory: counts the deallocator's calls. */
static int deallocations = 0;
static void deallocate(void *data, size_t size, void *arg) {
  (void)size;
  ++deallocations;
  if (arg)
    free(data);
}

/* An asynchronous run's end. */
struct Done {
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  int finished, code, numOutputs;
  float first[3];
};
static void onDone(void *arg, TFRTF_Tensor **outputs, int numOutputs,
                   const TFRTF_Status *status) {
  struct Done *done = (struct Done *)arg;
  pthread_mutex_lock(&done->mutex);
  done->code = TFRTF_GetCode(status);
  done->numOutputs = numOutputs;
  if (numOutputs > 0 && outputs[1])
    memcpy(done->first, TFRTF_TensorData(outputs[1]), 3 * sizeof(float));
  for (int i = 0; i < numOutputs; ++i)
    TFRTF_DeleteTensor(outputs[i]);
  done->finished = 1;
  pthread_cond_signal(&done->cond);
  pthread_mutex_unlock(&done->mutex);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: c-api-io-test PROGRAM.bef PROFILE.json\n");
    return 2;
  }
  printf("version %d\n", TFRTF_Version());
  TFRTF_Status *status = TFRTF_NewStatus();
  TFRTF_Runtime *runtime = TFRTF_NewRuntime(2, status);
  TFRTF_Program *program = TFRTF_LoadProgramFromFile(runtime, argv[1], status);
  if (!program) {
    printf("load error %d: %s\n", TFRTF_GetCode(status), TFRTF_Message(status));
    return 1;
  }
  printSignature(program, "main");
  printSignature(program, "strings");
  printf("out of range: %s %d %d %lld; nope: %s\n",
         TFRTF_ProgramInputName(program, "main", 3) ? "name" : "NULL",
         TFRTF_ProgramInputType(program, "main", 3),
         TFRTF_ProgramInputNumDims(program, "main", -1),
         (long long)TFRTF_ProgramInputDim(program, "main", 0, 5),
         TFRTF_ProgramInputName(program, "nope", 0) ? "name" : "NULL");
  printf("index: beta %d, beta:0 %d, delta %d; output scaled_alpha %d\n",
         TFRTF_ProgramInputIndex(program, "main", "beta"),
         TFRTF_ProgramInputIndex(program, "main", "beta:0"),
         TFRTF_ProgramInputIndex(program, "main", "delta"),
         TFRTF_ProgramOutputIndex(program, "main", "scaled_alpha"));

  /* By name, in another order; alpha over the caller's aligned memory. */
  const float alphaValues[2] = {1, 2}, betaValues[3] = {10, 20, 30};
  const float gammaValue = 2.5f;
  float *alphaData = (float *)aligned_alloc(64, 64);
  memcpy(alphaData, alphaValues, sizeof(alphaValues));
  int64_t two = 2;
  TFRTF_Tensor *alpha = TFRTF_NewTensorFromBuffer(
      TFRTF_FLOAT, &two, 1, alphaData, 2 * sizeof(float), deallocate, alphaData,
      status);
  printf("from buffer: code %d, no copy %d\n", TFRTF_GetCode(status),
         TFRTF_TensorData(alpha) == alphaData);
  TFRTF_Tensor *beta = floats(betaValues, 3, 1, status);
  TFRTF_Tensor *gamma = floats(&gammaValue, 1, 0, status);
  const char *names[3] = {"gamma", "beta", "alpha:0"};
  TFRTF_Tensor *byName[3] = {gamma, beta, alpha};
  TFRTF_Tensor *outputs[2] = {NULL, NULL};
  TFRTF_RunByName(program, "main", names, byName, 3, outputs, 2, NULL, status);
  printf("by name: code %d\n", TFRTF_GetCode(status));
  printFloats("  scaled_alpha", outputs[0]);
  printFloats("  scaled_beta", outputs[1]);
  TFRTF_DeleteTensor(outputs[0]);
  TFRTF_DeleteTensor(outputs[1]);
  TFRTF_DeleteTensor(alpha);
  printf("deallocated: %d\n", deallocations);

  const char *unknown[3] = {"gamma", "beta", "delta"};
  TFRTF_RunByName(program, "main", unknown, byName, 3, outputs, 2, NULL,
                  status);
  printf("unknown name: code %d: %s\n", TFRTF_GetCode(status),
         TFRTF_Message(status));
  const char *twice[3] = {"gamma", "beta", "beta"};
  TFRTF_RunByName(program, "main", twice, byName, 3, outputs, 2, NULL, status);
  printf("twice: code %d: %s\n", TFRTF_GetCode(status), TFRTF_Message(status));
  TFRTF_RunByName(program, "main", names, byName, 2, outputs, 2, NULL, status);
  printf("missing: code %d: %s\n", TFRTF_GetCode(status),
         TFRTF_Message(status));

  /* Misaligned caller memory is copied, and given back at once. */
  char *raw = (char *)malloc(64 + 12);
  memcpy(raw + 4, betaValues, sizeof(betaValues));
  int64_t three = 3;
  TFRTF_Tensor *copied =
      TFRTF_NewTensorFromBuffer(TFRTF_FLOAT, &three, 1, raw + 4,
                                sizeof(betaValues), deallocate, NULL, status);
  printf("misaligned: code %d, copied %d, deallocated: %d\n",
         TFRTF_GetCode(status), TFRTF_TensorData(copied) != raw + 4,
         deallocations);
  printFloats("  values", copied);
  TFRTF_DeleteTensor(copied);
  free(raw);
  float scratch[3] = {0, 0, 0};
  TFRTF_Tensor *wrong = TFRTF_NewTensorFromBuffer(
      TFRTF_FLOAT, &three, 1, scratch, 4, deallocate, NULL, status);
  printf("wrong size: %s code %d: %s; deallocated: %d\n",
         wrong ? "tensor" : "NULL", TFRTF_GetCode(status),
         TFRTF_Message(status), deallocations);

  /* Strings in and out: StringJoin and StringLength. */
  const char *words[2] = {"tf", "lite\0x"};
  const size_t lengths[2] = {2, 6};
  TFRTF_Tensor *strings =
      TFRTF_NewStringTensor(&two, 1, words, lengths, status);
  TFRTF_Tensor *stringOutputs[2] = {NULL, NULL};
  TFRTF_Run(program, "strings", &strings, 1, stringOutputs, 2, status);
  printf("strings: code %d, type %d, bytes %zu, data %s\n",
         TFRTF_GetCode(status), (int)TFRTF_TensorType(stringOutputs[0]),
         TFRTF_TensorByteSize(stringOutputs[0]),
         TFRTF_TensorData(stringOutputs[0]) ? "set" : "NULL");
  for (int64_t i = 0; i < 2; ++i) {
    size_t length = 0;
    const char *element =
        TFRTF_TensorStringElement(stringOutputs[0], i, &length);
    printf("  joined %lld: %zu bytes '", (long long)i, length);
    for (size_t j = 0; j < length; ++j)
      putchar(element[j] ? element[j] : '0');
    printf("' length %d\n",
           ((const int *)TFRTF_TensorData(stringOutputs[1]))[i]);
  }
  size_t length = 7;
  printf("  element 2: %s %zu; of a float tensor: %s\n",
         TFRTF_TensorStringElement(stringOutputs[0], 2, &length) ? "set"
                                                                 : "NULL",
         length, TFRTF_TensorStringElement(beta, 0, NULL) ? "set" : "NULL");
  TFRTF_DeleteTensor(stringOutputs[0]);
  TFRTF_DeleteTensor(stringOutputs[1]);
  TFRTF_DeleteTensor(strings);
  const char *missing[2] = {"tf", NULL};
  TFRTF_Tensor *noElement =
      TFRTF_NewStringTensor(&two, 1, missing, lengths, status);
  printf("NULL element: %s code %d: %s\n", noElement ? "tensor" : "NULL",
         TFRTF_GetCode(status), TFRTF_Message(status));

  /* Complex numbers through the C API: conj([1+2j, 3-4j]). */
  const float complexValues[4] = {1, 2, 3, -4};
  TFRTF_Tensor *complex =
      TFRTF_NewTensor(TFRTF_COMPLEX64, &two, 1, complexValues, 16, status);
  TFRTF_Tensor *conj = NULL;
  TFRTF_Run(program, "conj", &complex, 1, &conj, 1, status);
  printf("complex: code %d type %d:", TFRTF_GetCode(status),
         conj ? (int)TFRTF_TensorType(conj) : -1);
  for (int i = 0; conj && i < 4; ++i)
    printf(" %g", ((const float *)TFRTF_TensorData(conj))[i]);
  printf("\n");
  TFRTF_DeleteTensor(conj);
  TFRTF_DeleteTensor(complex);

  /* Asynchronously, on the runtime's threads, with a profile. */
  alpha = floats(alphaValues, 2, 1, status);
  TFRTF_Tensor *positional[3] = {alpha, beta, gamma};
  TFRTF_RunOptions *options = TFRTF_NewRunOptions();
  TFRTF_RunOptionsSetProfilePath(options, argv[2]);
  struct Done done;
  memset(&done, 0, sizeof(done));
  pthread_mutex_init(&done.mutex, NULL);
  pthread_cond_init(&done.cond, NULL);
  TFRTF_RunAsync(program, "main", positional, 3, options, onDone, &done,
                 status);
  printf("async started: code %d\n", TFRTF_GetCode(status));
  if (TFRTF_GetCode(status) != 0) {
    printf("  %s\n", TFRTF_Message(status));
    return 1;
  }
  pthread_mutex_lock(&done.mutex);
  while (!done.finished)
    pthread_cond_wait(&done.cond, &done.mutex);
  pthread_mutex_unlock(&done.mutex);
  printf("async done: code %d, %d outputs, scaled_beta %g %g %g\n", done.code,
         done.numOutputs, done.first[0], done.first[1], done.first[2]);
  TFRTF_RunAsync(program, "main", positional, 2, NULL, onDone, &done, status);
  printf("async wrong inputs: code %d: %s\n", TFRTF_GetCode(status),
         TFRTF_Message(status));
  TFRTF_RunAsync(program, "main", positional, 3, NULL, NULL, NULL, status);
  printf("async without callback: code %d: %s\n", TFRTF_GetCode(status),
         TFRTF_Message(status));
  TFRTF_RunOptionsSetProfilePath(options, "/nonexistent/dir/trace.json");
  TFRTF_RunWithOptions(program, "main", positional, 3, outputs, 2, options,
                       status);
  printf("bad profile path: code %d: %s; outputs %s\n", TFRTF_GetCode(status),
         TFRTF_Message(status), outputs[0] ? "set" : "NULL");
  TFRTF_DeleteTensor(outputs[0]);
  TFRTF_DeleteTensor(outputs[1]);

  /* An async run still going when its program is deleted: the deletion
   * waits for it. */
  done.finished = 0;
  TFRTF_RunOptionsSetProfilePath(options, NULL);
  TFRTF_RunAsync(program, "main", positional, 3, options, onDone, &done,
                 status);
  if (TFRTF_GetCode(status) != 0)
    printf("second async run: code %d\n", TFRTF_GetCode(status));

  /* An output outlives its program and runtime: no copy, still valid. */
  TFRTF_Run(program, "main", positional, 3, outputs, 2, status);
  TFRTF_DeleteProgram(program);
  printf("deleted program with a run in flight: finished %d\n", done.finished);
  TFRTF_DeleteRuntime(runtime);
  printFloats("kept output", outputs[1]);
  TFRTF_DeleteTensor(outputs[0]);
  TFRTF_DeleteTensor(outputs[1]);

  TFRTF_DeleteTensor(alpha);
  TFRTF_DeleteTensor(beta);
  TFRTF_DeleteTensor(gamma);
  TFRTF_DeleteRunOptions(options);
  TFRTF_DeleteStatus(status);
  pthread_mutex_destroy(&done.mutex);
  pthread_cond_destroy(&done.cond);
  return 0;
}
