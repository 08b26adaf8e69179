/*===- c-api-test.c - drive libtfrt_fallback_c.so from C ------------------===*\
|*                                                                            *|
|* A C11 program (no C++ in it) that loads the binary program given on the    *|
|* command line, runs its function "main" on [1, 2, 3] and prints what it     *|
|* sees, then exercises the error paths. test/CAPI/c-api.mlir checks it. *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tfrt_fallback/c_api.h"

#include <stdio.h>
#include <stdlib.h>

static void printTensor(const char *name, const TFRTF_Tensor *t) {
  printf("%s: type %d dims [", name, (int)TFRTF_TensorType(t));
  for (int i = 0; i < TFRTF_TensorNumDims(t); ++i)
    printf(i ? ", %lld" : "%lld", (long long)TFRTF_TensorDim(t, i));
  printf("] bytes %zu values", TFRTF_TensorByteSize(t));
  const float *data = (const float *)TFRTF_TensorData(t);
  for (size_t i = 0; i < TFRTF_TensorByteSize(t) / sizeof(float); ++i)
    printf(" %g", data[i]);
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c-api-test PROGRAM.bef\n");
    return 2;
  }
  printf("version %d\n", TFRTF_Version());
  TFRTF_Status *status = TFRTF_NewStatus();
  TFRTF_Runtime *runtime = TFRTF_NewRuntime(1, status);
  TFRTF_Program *program = TFRTF_LoadProgramFromFile(runtime, argv[1], status);
  if (!program) {
    printf("load error %d: %s\n", TFRTF_GetCode(status), TFRTF_Message(status));
    return 1;
  }
  printf("main: %d inputs, %d outputs; nope: %d\n",
         TFRTF_ProgramNumInputs(program, "main"),
         TFRTF_ProgramNumOutputs(program, "main"),
         TFRTF_ProgramNumInputs(program, "nope"));

  const int64_t dims[1] = {3};
  const float values[3] = {1, 2, 3};
  TFRTF_Tensor *input =
      TFRTF_NewTensor(TFRTF_FLOAT, dims, 1, values, sizeof(values), status);
  TFRTF_Tensor *output = NULL;
  TFRTF_Run(program, "main", &input, 1, &output, 1, status);
  printf("run: code %d\n", TFRTF_GetCode(status));
  if (output)
    printTensor("output", output);
  TFRTF_DeleteTensor(output);

  /* Errors are statuses, never crashes. */
  TFRTF_Tensor *bad = TFRTF_NewTensor(TFRTF_FLOAT, dims, 1, values, 5, status);
  printf("bad size: %s code %d: %s\n", bad ? "tensor" : "NULL",
         TFRTF_GetCode(status), TFRTF_Message(status));
  bad = TFRTF_NewTensor((TFRTF_DataType)24, dims, 1, values, 12, status);
  printf("bad type: %s code %d: %s\n", bad ? "tensor" : "NULL",
         TFRTF_GetCode(status), TFRTF_Message(status));
  TFRTF_Run(program, "nope", &input, 1, &output, 1, status);
  printf("no function: code %d: %s\n", TFRTF_GetCode(status),
         TFRTF_Message(status));
  TFRTF_Run(program, "main", &input, 1, &output, 0, status);
  printf("no room: code %d: %s\n", TFRTF_GetCode(status),
         TFRTF_Message(status));
  const int64_t wrongDims[1] = {2};
  TFRTF_Tensor *wrong = TFRTF_NewTensor(TFRTF_FLOAT, wrongDims, 1, values,
                                        2 * sizeof(float), status);
  TFRTF_Run(program, "main", &wrong, 1, &output, 1, status);
  printf("wrong shape: code %d: %s\n", TFRTF_GetCode(status),
         TFRTF_Message(status));
  TFRTF_DeleteTensor(wrong);

  /* A run whose token is already cancelled stops before its first kernel;
   * the next run without it is normal. */
  TFRTF_CancellationToken *token = TFRTF_NewCancellationToken();
  TFRTF_RunOptions *options = TFRTF_NewRunOptions();
  TFRTF_RunOptionsSetCancellationToken(options, token);
  TFRTF_RunOptionsSetTimeoutMs(options, 60000);
  TFRTF_Cancel(token);
  TFRTF_RunWithOptions(program, "main", &input, 1, &output, 1, options, status);
  printf("cancelled: code %d output %s: %s\n", TFRTF_GetCode(status),
         output ? "set" : "NULL", TFRTF_Message(status));
  TFRTF_RunOptionsSetCancellationToken(options, NULL);
  TFRTF_RunWithOptions(program, "main", &input, 1, &output, 1, options, status);
  printf("again: code %d\n", TFRTF_GetCode(status));
  if (output)
    printTensor("output", output);
  TFRTF_DeleteTensor(output);
  TFRTF_DeleteRunOptions(options);
  TFRTF_DeleteCancellationToken(token);

  TFRTF_Program *garbage =
      TFRTF_LoadProgramFromMemory(runtime, "nope", 4, status);
  printf("garbage: %s code %d: %s\n", garbage ? "program" : "NULL",
         TFRTF_GetCode(status), TFRTF_Message(status));
  TFRTF_Program *missing =
      TFRTF_LoadProgramFromFile(runtime, "/nonexistent.bef", status);
  printf("missing: %s code %d\n", missing ? "program" : "NULL",
         TFRTF_GetCode(status));

  TFRTF_DeleteTensor(input);
  TFRTF_DeleteProgram(program);
  TFRTF_DeleteRuntime(runtime);
  TFRTF_DeleteStatus(status);
  return 0;
}
