//===- QuantizedTestUtils.h - quantized tensors for kernel tests -*- C++
//-*-===//
//
// Builders shared by the quantized kernels' tests: tensors of quantized
// codes and float scalars for the range inputs.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_UNITTESTS_KERNELS_QUANTIZEDTESTUTILS_H
#define TFRT_FALLBACK_UNITTESTS_KERNELS_QUANTIZEDTESTUTILS_H

#include "KernelTestUtils.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tfrt_fallback::rt::testing {

template <typename Q> Tensor q(TensorShape shape, std::vector<int64_t> codes) {
  std::vector<Q> v;
  for (int64_t c : codes)
    v.push_back(Q(static_cast<typename Q::Storage>(c)));
  return makeTensor<Q>(std::move(shape), v);
}
inline Tensor qu8(TensorShape s, std::vector<int64_t> c) {
  return q<quint8>(std::move(s), std::move(c));
}
inline Tensor qi8(TensorShape s, std::vector<int64_t> c) {
  return q<qint8>(std::move(s), std::move(c));
}
inline Tensor qi32(TensorShape s, std::vector<int64_t> c) {
  return q<qint32>(std::move(s), std::move(c));
}
inline Tensor sc(float v) { return f32({}, {v}); }

} // namespace tfrt_fallback::rt::testing

#endif // TFRT_FALLBACK_UNITTESTS_KERNELS_QUANTIZEDTESTUTILS_H
