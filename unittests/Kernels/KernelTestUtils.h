//===- KernelTestUtils.h - Helpers for kernel unit tests --------*- C++ -*-===//
//
// Runs a registered kernel through the production path, as TFLite's
// SingleOpModel does: a one-node program built with ProgramBuilder (so the
// loader's arity and type-binding checks and KernelRegistry::createKernel
// apply), run by the Executor on a two-thread host (forwarding, output type
// checks). Plus tensor builders and element comparisons used by the kernel
// tests.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_UNITTESTS_KERNELS_KERNELTESTUTILS_H
#define TFRT_FALLBACK_UNITTESTS_KERNELS_KERNELTESTUTILS_H

#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/Kernels.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt::testing {

inline constexpr const char *kNode = "loc(test)";

/// The registry filled by registerAllKernels(), built once.
inline const KernelRegistry &kernelRegistry() {
  static const KernelRegistry *registry = [] {
    auto *r = new KernelRegistry();
    registerAllKernels(*r);
    return r;
  }();
  return *registry;
}

/// A two-thread host so the kernels' parallel paths split work.
inline HostContext &testHost() {
  static HostContext *host = new HostContext(2);
  return *host;
}

/// A program of one `op` node with `attrs` whose function "main" takes
/// tensors like `inputs` and returns the node's outputs, declared
/// `tensor<*xDTYPE>` with `outDTypes`. Input i with bit i of
/// `constantInputs` set is a program constant instead of an argument. An
/// `ordered` node (a stateful op) also takes a new chain and returns its
/// chain as the last result.
inline StatusOr<std::unique_ptr<Program>>
buildSingleOpProgram(const std::string &op, const AttrMap &attrs,
                     absl::Span<const Tensor> inputs,
                     const std::vector<DType> &outDTypes,
                     uint64_t constantInputs = 0, bool ordered = false) {
  ProgramBuilder builder;
  uint32_t main = builder.addFunction("main");
  std::vector<uint32_t> inputTypes, args;
  // Equal types are one type: a constant takes the first type equal to its
  // own, which must be the one its kernel operand is declared with.
  std::vector<std::pair<std::pair<DType, std::vector<int64_t>>, uint32_t>> made;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor &t = inputs[i];
    std::pair<DType, std::vector<int64_t>> key(
        t.dtype(),
        std::vector<int64_t>(t.shape().dims().begin(), t.shape().dims().end()));
    auto it = std::find_if(made.begin(), made.end(),
                           [&](const auto &m) { return m.first == key; });
    if (it == made.end()) {
      made.push_back({key, builder.addTensorType(
                               t.dtype(), PartialShape(t.shape().dims()))});
      it = made.end() - 1;
    }
    inputTypes.push_back(it->second);
    args.push_back(constantInputs >> i & 1
                       ? builder.addConstant(main, t)
                       : builder.addArgument(main, inputTypes.back()));
  }
  std::vector<uint32_t> outputTypes;
  for (DType dtype : outDTypes)
    outputTypes.push_back(
        builder.addTensorType(dtype, PartialShape::unknownRank()));
  uint32_t kernel =
      builder.addKernel(op, kNode, attrs, inputTypes, outputTypes, ordered);
  if (ordered)
    args.push_back(builder.addChainOp(main, {}));
  builder.setResults(main, builder.addKernelCall(main, kernel, args));
  return builder.build(kernelRegistry());
}

/// Builds the one-node program of `op` and runs it once. The run owns
/// `inputs`: one the caller does not share may lend its buffer to an
/// output. Returns the first load or run error. An `ordered` node runs on
/// a chain (as the compiler orders stateful ops); its chain's error, if
/// any, is returned too.
inline StatusOr<std::vector<Tensor>>
runKernelN(const std::string &op, const AttrMap &attrs,
           std::vector<Tensor> inputs, const std::vector<DType> &outDTypes,
           bool ordered = false) {
  StatusOr<std::unique_ptr<Program>> program =
      buildSingleOpProgram(op, attrs, inputs, outDTypes, 0, ordered);
  if (!program.ok())
    return program.status();
  Executor executor(**program, testHost());
  StatusOr<std::vector<ResultValue>> results =
      executor.run((*program)->functions()[0], std::move(inputs));
  if (!results.ok())
    return results.status();
  std::vector<Tensor> outputs;
  for (ResultValue &result : *results) {
    if (!result.ok())
      return result.status();
    outputs.push_back(*std::move(result));
  }
  if (ordered)
    outputs.pop_back();
  return outputs;
}

/// Runs the one-node program of `op` whose inputs with a bit set in
/// `constantInputs` are program constants (the kernel sees
/// isInputConstant) `runs` times; every run must give the same values.
/// Returns the last run's first output.
inline StatusOr<Tensor> runKernelWithConstants(const std::string &op,
                                               const AttrMap &attrs,
                                               std::vector<Tensor> inputs,
                                               uint64_t constantInputs,
                                               DType outDType, int runs = 3) {
  StatusOr<std::unique_ptr<Program>> program =
      buildSingleOpProgram(op, attrs, inputs, {outDType}, constantInputs);
  if (!program.ok())
    return program.status();
  Executor executor(**program, testHost());
  Tensor first;
  for (int run = 0; run < runs; ++run) {
    std::vector<Tensor> args;
    for (size_t i = 0; i < inputs.size(); ++i)
      if (!(constantInputs >> i & 1))
        args.push_back(inputs[i]);
    StatusOr<std::vector<ResultValue>> results =
        executor.run((*program)->functions()[0], std::move(args));
    if (!results.ok())
      return results.status();
    if (!(*results)[0].ok())
      return (*results)[0].status();
    Tensor out = *std::move((*results)[0]);
    if (run == 0) {
      first = out;
    } else if (out.shape() != first.shape() ||
               std::memcmp(out.rawData(), first.rawData(), out.totalBytes())) {
      return InternalError("run " + std::to_string(run) +
                           " differs from the first");
    }
    if (run == runs - 1)
      return out;
  }
  return first;
}

/// runKernelN with one output of `outDType`.
inline StatusOr<Tensor> runKernel(const std::string &op, const AttrMap &attrs,
                                  std::vector<Tensor> inputs, DType outDType) {
  StatusOr<std::vector<Tensor>> outputs =
      runKernelN(op, attrs, std::move(inputs), {outDType});
  if (!outputs.ok())
    return outputs.status();
  return std::move((*outputs)[0]);
}

/// The full message the kernels produce for `op`: "<op> 'loc(test)': msg".
inline std::string opError(const std::string &op, const std::string &msg) {
  return op + " '" + kNode + "': " + msg;
}

template <typename T>
Tensor makeTensor(TensorShape shape, const std::vector<T> &values) {
  // std::vector<bool> has no contiguous storage to view.
  std::unique_ptr<T[]> copy(new T[values.size() + 1]);
  std::copy(values.begin(), values.end(), copy.get());
  StatusOr<Tensor> t = Tensor::fromValues<T>(
      std::move(shape), absl::MakeConstSpan(copy.get(), values.size()));
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : Tensor();
}

/// Values converted from doubles (for f16/bf16/int test data).
template <typename T>
Tensor makeTensorFrom(TensorShape shape, const std::vector<double> &values) {
  std::vector<T> converted;
  for (double v : values)
    converted.push_back(static_cast<T>(v));
  return makeTensor<T>(std::move(shape), converted);
}

template <typename T> std::vector<T> valuesOf(const Tensor &t) {
  const T *data = t.data<T>();
  return std::vector<T>(data, data + t.numElements());
}

inline Tensor i32(TensorShape shape, std::vector<int32_t> v) {
  return makeTensor<int32_t>(std::move(shape), v);
}
inline Tensor i64(TensorShape shape, std::vector<int64_t> v) {
  return makeTensor<int64_t>(std::move(shape), v);
}
inline Tensor f32(TensorShape shape, std::vector<float> v) {
  return makeTensor<float>(std::move(shape), v);
}
/// f32 tensor with values 0, 1, 2, ...
inline Tensor iota(TensorShape shape) {
  std::vector<float> v(shape.numElements());
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<float>(i);
  return makeTensor<float>(std::move(shape), v);
}

using Dims = std::vector<int64_t>;
using half = Eigen::half;
using bf16 = Eigen::bfloat16;

inline TensorShape shapeOf(const Dims &dims) {
  return TensorShape(absl::MakeConstSpan(dims));
}

inline int64_t product(const Dims &dims) {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

/// Offset into a right-aligned broadcast operand of `dims` for the output
/// multi-index `idx` (0 along size-1 or missing dims).
inline int64_t broadcastOffset(const Dims &dims,
                               const std::vector<int64_t> &idx) {
  int64_t off = 0;
  const int shift = static_cast<int>(idx.size() - dims.size());
  for (size_t j = 0; j < dims.size(); ++j)
    off = off * dims[j] + (dims[j] == 1 ? 0 : idx[j + shift]);
  return off;
}

/// Calls f(idx) with the multi-index of each element of `outDims`,
/// row-major.
template <typename F> void forEachIndex(const Dims &outDims, F f) {
  const int rank = static_cast<int>(outDims.size());
  std::vector<int64_t> idx(rank);
  for (int64_t flat = 0, n = product(outDims); flat < n; ++flat) {
    int64_t rest = flat;
    for (int i = rank - 1; i >= 0; --i) {
      idx[i] = rest % outDims[i];
      rest /= outDims[i];
    }
    f(idx);
  }
}

/// Deterministic pseudo-random values in [-range, range), quarter steps so
/// they are exact in every float type for small ranges.
inline std::vector<double> patternValues(int64_t n, int range = 8,
                                         int seed = 1) {
  std::vector<double> out;
  uint32_t state = 2463534242u + static_cast<uint32_t>(seed) * 7919u;
  for (int64_t i = 0; i < n; ++i) {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    out.push_back(static_cast<double>(static_cast<int>(state % (8u * range)) -
                                      4 * range) /
                  4.0);
  }
  return out;
}

inline double toDouble(Eigen::half v) { return static_cast<float>(v); }
inline double toDouble(Eigen::bfloat16 v) { return static_cast<float>(v); }
/// A quantized element's integer; a complex number's real part.
template <typename T> double toDouble(T v) {
  if constexpr (kIsQuantized<T>)
    return v.value;
  else if constexpr (kIsComplex<T>)
    return v.real();
  else
    return static_cast<double>(v);
}

/// Relative tolerance for comparing floats of type T.
template <typename T> double tolerance() {
  if constexpr (std::is_same_v<T, Eigen::half>)
    return 2e-3;
  else if constexpr (std::is_same_v<T, Eigen::bfloat16>)
    return 1.6e-2;
  else if constexpr (std::is_same_v<T, float>)
    return 2e-6;
  else if constexpr (std::is_same_v<T, double>)
    return 1e-12;
  else
    return 0;
}

/// Checks `actual` against `expected` element by element: exactly for
/// integers, within tolerance<T>() (relative, absolute near zero) for
/// floats; NaN must match NaN.
template <typename T>
void expectValues(const Tensor &actual, const TensorShape &shape,
                  const std::vector<double> &expected, double tol = -1) {
  ASSERT_EQ(actual.dtype(), dtypeOf<T>());
  ASSERT_EQ(actual.shape(), shape);
  ASSERT_EQ(static_cast<size_t>(actual.numElements()), expected.size());
  if (tol < 0)
    tol = tolerance<T>();
  const T *data = actual.data<T>();
  for (size_t i = 0; i < expected.size(); ++i) {
    double a = toDouble(data[i]), e = expected[i];
    if (std::isnan(e)) {
      EXPECT_TRUE(std::isnan(a)) << "at " << i << ": " << a;
    } else if (std::isinf(e)) {
      EXPECT_EQ(a, e) << "at " << i;
    } else {
      EXPECT_NEAR(a, e, tol * std::max(1.0, std::abs(e)))
          << "at " << i << " of " << shape.toString();
    }
  }
}

} // namespace tfrt_fallback::rt::testing

#endif // TFRT_FALLBACK_UNITTESTS_KERNELS_KERNELTESTUTILS_H
