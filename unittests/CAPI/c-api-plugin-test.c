/*===- c-api-plugin-test.c - kernel plugins through the C API -------------===*
 *
 * c-api-plugin-test PROGRAM.bef PLUGIN.so WRONG_ABI_PLUGIN.so
 *
 * Loads PROGRAM (which uses the plugin's TestSquarePlusOne kernel) before
 * and after TFRTF_LoadKernelPlugin, runs it on [10, 20, 30], and tries a
 * plugin built for another ABI version. test/CAPI/c-api-plugin.test checks
 * the output.
 *
 *===----------------------------------------------------------------------===*/

#include "tfrt_fallback/c_api.h"

#include <stdio.h>

static void report(const char *what, const TFRTF_Status *status) {
  printf("%s: code %d", what, TFRTF_GetCode(status));
  if (TFRTF_GetCode(status) != 0)
    printf(": %s", TFRTF_Message(status));
  printf("\n");
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s PROGRAM.bef PLUGIN.so WRONG_ABI_PLUGIN.so\n",
            argv[0]);
    return 2;
  }
  TFRTF_Status *status = TFRTF_NewStatus();
  TFRTF_Runtime *runtime = TFRTF_NewRuntime(1, status);

  TFRTF_Program *program = TFRTF_LoadProgramFromFile(runtime, argv[1], status);
  report("before the plugin", status);
  TFRTF_DeleteProgram(program);

  TFRTF_LoadKernelPlugin(runtime, argv[3], status);
  report("wrong ABI", status);
  TFRTF_LoadKernelPlugin(runtime, argv[2], status);
  report("plugin", status);

  program = TFRTF_LoadProgramFromFile(runtime, argv[1], status);
  report("load", status);
  if (!program)
    return 1;
  const float values[3] = {10, 20, 30};
  const int64_t dims[1] = {3};
  TFRTF_Tensor *input =
      TFRTF_NewTensor(TFRTF_FLOAT, dims, 1, values, sizeof(values), status);
  TFRTF_Tensor *output = NULL;
  TFRTF_Run(program, "main", &input, 1, &output, 1, status);
  report("run", status);
  if (output) {
    const float *y = (const float *)TFRTF_TensorData(output);
    printf("output: %g %g %g\n", y[0], y[1], y[2]);
    TFRTF_DeleteTensor(output);
  }
  TFRTF_DeleteTensor(input);
  TFRTF_DeleteProgram(program);
  TFRTF_DeleteRuntime(runtime);
  TFRTF_DeleteStatus(status);
  return 0;
}
