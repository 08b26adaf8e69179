//===- DTypeTest.cpp - DType tests ------------------------------*- C++ -*-===//
//
// Names, parsing, NumPy descriptors, predicates and dispatchDType.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/DType.h"

#include "gtest/gtest.h"

#include <string>
#include <type_traits>

using namespace tfrt_fallback::rt;

namespace {

constexpr DType kAll[] = {DType::F32,  DType::F64,  DType::I32,  DType::U8,
                          DType::I16,  DType::I8,   DType::I64,  DType::Bool,
                          DType::BF16, DType::U16,  DType::F16,  DType::U32,
                          DType::U64,  DType::C64,  DType::C128, DType::QI8,
                          DType::QU8,  DType::QI16, DType::QU16, DType::QI32};

TEST(DTypeTest, TensorFlowNumbers) {
  EXPECT_EQ(static_cast<int>(DType::F32), 1);
  EXPECT_EQ(static_cast<int>(DType::String), 7);
  EXPECT_EQ(static_cast<int>(DType::I64), 9);
  EXPECT_EQ(static_cast<int>(DType::Bool), 10);
  EXPECT_EQ(static_cast<int>(DType::BF16), 14);
  EXPECT_EQ(static_cast<int>(DType::F16), 19);
  EXPECT_EQ(static_cast<int>(DType::U64), 23);
  // types.proto: DT_COMPLEX64 = 8, DT_QINT8 = 11, DT_QUINT8 = 12,
  // DT_QINT32 = 13, DT_QINT16 = 15, DT_QUINT16 = 16, DT_COMPLEX128 = 18.
  EXPECT_EQ(static_cast<int>(DType::C64), 8);
  EXPECT_EQ(static_cast<int>(DType::QI8), 11);
  EXPECT_EQ(static_cast<int>(DType::QU8), 12);
  EXPECT_EQ(static_cast<int>(DType::QI32), 13);
  EXPECT_EQ(static_cast<int>(DType::QI16), 15);
  EXPECT_EQ(static_cast<int>(DType::QU16), 16);
  EXPECT_EQ(static_cast<int>(DType::C128), 18);
}

TEST(DTypeTest, NamesRoundTrip) {
  for (DType dtype : kAll) {
    auto parsed = parseDType(dtypeName(dtype));
    ASSERT_TRUE(parsed.ok()) << dtypeName(dtype);
    EXPECT_EQ(*parsed, dtype);
  }
  EXPECT_EQ(dtypeName(DType::Bool), "i1");
  EXPECT_EQ(dtypeName(DType::U8), "ui8");
  EXPECT_EQ(dtypeName(DType::BF16), "bf16");
  EXPECT_EQ(dtypeName(DType::C64), "complex64");
  EXPECT_EQ(dtypeName(DType::QU8), "quint8");
  // Tensor types in messages spell MLIR's element types.
  EXPECT_EQ(dtypeTypeName(DType::C128), "complex<f64>");
  EXPECT_EQ(dtypeTypeName(DType::QI32), "!tf_type.qint32");
  EXPECT_EQ(dtypeTypeName(DType::F32), "f32");
}

TEST(DTypeTest, ParseTensorFlowNames) {
  EXPECT_EQ(*parseDType("float"), DType::F32);
  EXPECT_EQ(*parseDType("half"), DType::F16);
  EXPECT_EQ(*parseDType("bfloat16"), DType::BF16);
  EXPECT_EQ(*parseDType("double"), DType::F64);
  EXPECT_EQ(*parseDType("int8"), DType::I8);
  EXPECT_EQ(*parseDType("uint64"), DType::U64);
  EXPECT_EQ(*parseDType("bool"), DType::Bool);
  EXPECT_EQ(*parseDType("DT_HALF"), DType::F16);
  EXPECT_EQ(*parseDType("DT_STRING"), DType::String);
  EXPECT_EQ(*parseDType("float16"), DType::F16);
  EXPECT_EQ(*parseDType("float64"), DType::F64);
  EXPECT_EQ(parseDType("f128").status(),
            InvalidArgumentError("unknown dtype 'f128'"));
  EXPECT_EQ(parseDType("DT_float").status(),
            InvalidArgumentError("unknown dtype 'DT_float'"));
}

TEST(DTypeTest, FromDataType) {
  for (DType dtype : kAll)
    EXPECT_EQ(*dtypeFromDataType(static_cast<int>(dtype)), dtype);
  EXPECT_EQ(*dtypeFromDataType(7), DType::String);
  EXPECT_EQ(*dtypeFromDataType(20), DType::Resource);
  EXPECT_EQ(dtypeFromDataType(24).status(), // DT_FLOAT8_E5M2
            InvalidArgumentError("unknown TensorFlow DataType 24"));
  EXPECT_EQ(dtypeFromDataType(0).status(),
            InvalidArgumentError("unknown TensorFlow DataType 0"));
  EXPECT_EQ(dtypeName(static_cast<DType>(24)), "unknown");
}

TEST(DTypeTest, SizesAndPredicates) {
  EXPECT_EQ(dtypeSize(DType::F32), 4u);
  EXPECT_EQ(dtypeSize(DType::BF16), 2u);
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  EXPECT_EQ(dtypeSize(DType::U64), 8u);
  EXPECT_EQ(dtypeSize(DType::String), 0u);
  EXPECT_TRUE(isFloat(DType::BF16));
  EXPECT_FALSE(isFloat(DType::I32));
  EXPECT_TRUE(isInteger(DType::U16));
  EXPECT_FALSE(isInteger(DType::Bool));
  EXPECT_TRUE(isSigned(DType::I8));
  EXPECT_TRUE(isSigned(DType::F16));
  EXPECT_FALSE(isSigned(DType::U32));
  EXPECT_FALSE(isSigned(DType::Bool));
  static_assert(dtypeOf<Eigen::half>() == DType::F16);
  static_assert(dtypeOf<uint16_t>() == DType::U16);
  EXPECT_EQ(dtypeSize(DType::C64), 8u);
  EXPECT_EQ(dtypeSize(DType::C128), 16u);
  EXPECT_EQ(dtypeSize(DType::QI32), 4u);
  EXPECT_EQ(dtypeSize(DType::QU16), 2u);
  EXPECT_TRUE(isComplex(DType::C128));
  EXPECT_FALSE(isComplex(DType::F64));
  EXPECT_TRUE(isQuantized(DType::QU8));
  EXPECT_FALSE(isQuantized(DType::U8));
  EXPECT_FALSE(isInteger(DType::QI8));
  EXPECT_FALSE(isFloat(DType::C64));
  static_assert(dtypeOf<std::complex<float>>() == DType::C64);
  static_assert(dtypeOf<qint8>() == DType::QI8);
  static_assert(dtypeOf<int8_t>() == DType::I8);
}

TEST(DTypeTest, NumpyDescr) {
  EXPECT_EQ(numpyDescr(DType::F32), "<f4");
  EXPECT_EQ(numpyDescr(DType::Bool), "|b1");
  EXPECT_EQ(numpyDescr(DType::F16), "<f2");
  EXPECT_EQ(numpyDescr(DType::U8), "|u1");
  EXPECT_EQ(numpyDescr(DType::BF16), "");
  EXPECT_EQ(numpyDescr(DType::C64), "<c8");
  EXPECT_EQ(numpyDescr(DType::C128), "<c16");
  EXPECT_EQ(numpyDescr(DType::QI8), "");
  for (DType dtype : kAll) {
    if (numpyDescr(dtype).empty())
      continue;
    EXPECT_EQ(*parseNumpyDescr(numpyDescr(dtype)), dtype);
  }
  EXPECT_EQ(*parseNumpyDescr("=i4"), DType::I32);
  EXPECT_EQ(
      parseNumpyDescr(">f4").status(),
      InvalidArgumentError("big-endian numpy dtype '>f4' is not supported"));
  EXPECT_EQ(parseNumpyDescr("<c32").status(),
            InvalidArgumentError("unsupported numpy dtype '<c32'"));
}

TEST(DTypeTest, Dispatch) {
  for (DType dtype : kAll) {
    size_t size = 0;
    DType seen = DType::Invalid;
    Status status = dispatchDType(dtype, [&](auto tag) {
      using T = typename decltype(tag)::Type;
      size = sizeof(T);
      seen = dtypeOf<T>();
    });
    EXPECT_TRUE(status.ok());
    EXPECT_EQ(size, dtypeSize(dtype));
    EXPECT_EQ(seen, dtype);
  }
  Status fromFunctor = dispatchDType(DType::I32, [](auto tag) {
    using T = typename decltype(tag)::Type;
    return std::is_same_v<T, int32_t> ? AbortedError("int32") : OkStatus();
  });
  EXPECT_EQ(fromFunctor, AbortedError("int32"));
  EXPECT_EQ(dispatchDType(DType::String, [](auto) {}),
            UnimplementedError("unsupported dtype 'string'"));
}

} // namespace
