/*===- main.c - a C app running a tfrt-fallback program -------------------===*\
|*                                                                            *|
|* c-app PROGRAM.bef: runs `main` of examples/mlp.mlir's binary program on    *|
|* the bundled input through the C API and checks it against values worked   *|
|* out by hand from the model's weights. Exits 0 when they match.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "tfrt_fallback/c_api.h"

#include <math.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c-app PROGRAM.bef\n");
    return 2;
  }
  TFRTF_Status *status = TFRTF_NewStatus();
  TFRTF_Runtime *runtime = TFRTF_NewRuntime(1, status);
  TFRTF_Program *program = TFRTF_LoadProgramFromFile(runtime, argv[1], status);
  if (!program) {
    fprintf(stderr, "c-app: %s\n", TFRTF_Message(status));
    return 1;
  }
  /* examples/mlp.mlir: x [1x4] -> softmax(relu(x W1 + b1) W2 + b2) [1x3]. */
  const int64_t dims[2] = {1, 4};
  const float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  TFRTF_Tensor *input =
      TFRTF_NewTensor(TFRTF_FLOAT, dims, 2, x, sizeof(x), status);
  TFRTF_Tensor *output = NULL;
  TFRTF_Run(program, "main", &input, 1, &output, 1, status);
  if (TFRTF_GetCode(status) != 0) {
    fprintf(stderr, "c-app: %s\n", TFRTF_Message(status));
    return 1;
  }
  const float *y = (const float *)TFRTF_TensorData(output);
  int n = (int)(TFRTF_TensorByteSize(output) / sizeof(float));
  float sum = 0;
  printf("c-app: output [%lld, %lld]:", (long long)TFRTF_TensorDim(output, 0),
         (long long)TFRTF_TensorDim(output, 1));
  for (int i = 0; i < n; ++i) {
    printf(" %.6f", y[i]);
    sum += y[i];
  }
  printf("\n");
  /* By hand: relu(x W1 + b1) = [1.85, 0.8, 5.8], times W2 gives logits
   * [-3.55, 12.0, -1.45], whose softmax is e^(l - 12) / sum. */
  const double expected[3] = {1.764897e-7, 0.9999983823, 1.441238e-6};
  int ok = n == 3 && fabsf(sum - 1.0f) < 1e-5f;
  for (int i = 0; ok && i < 3; ++i)
    ok = fabs(y[i] - expected[i]) <= 1e-6 * (1 + fabs(expected[i]));
  TFRTF_DeleteTensor(output);
  TFRTF_DeleteTensor(input);
  TFRTF_DeleteProgram(program);
  TFRTF_DeleteRuntime(runtime);
  TFRTF_DeleteStatus(status);
  printf("c-app: %s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
