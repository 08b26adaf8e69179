//===- TensorValues.cpp - constant tensors of graph importers ---*- C++ -*-===//
//
// Decoded tensor bytes -> dense or dense_resource constants.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/TensorValues.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cstring>

using namespace mlir;

float tfrt_fallback::halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else { // subnormal: normalize
      exponent = 127 - 15 + 1;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        --exponent;
      }
      mantissa &= 0x3ff;
      bits = sign | (exponent << 23) | (mantissa << 13);
    }
  } else if (exponent == 0x1f) {
    bits = sign | 0x7f800000 | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

unsigned tfrt_fallback::getElementByteSize(Type element) {
  if (auto complex = dyn_cast<ComplexType>(element))
    return 2 * getElementByteSize(complex.getElementType());
  return element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8;
}

ElementsAttr
tfrt_fallback::createTensorAttr(RankedTensorType type, AsmResourceBlob blob,
                                llvm::function_ref<std::string()> blobName) {
  int64_t numElements = type.getNumElements();
  ArrayRef<char> data = blob.getData();
  if (type.getElementType().isInteger(1) && numElements <= 64) {
    SmallVector<bool> values;
    for (int64_t i = 0; i < numElements; ++i)
      values.push_back(data[i] != 0);
    return DenseElementsAttr::get(type, values);
  }
  // Small constants stay readable in the printed MLIR.
  if (numElements <= 16)
    return DenseElementsAttr::getFromRawBuffer(type, data);
  return DenseResourceElementsAttr::get(type, blobName(), std::move(blob));
}
