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

constexpr DType kAll[] = {DType::F32,  DType::F64, DType::I32, DType::U8,
                          DType::I16,  DType::I8,  DType::I64, DType::Bool,
                          DType::BF16, DType::U16, DType::F16, DType::U32,
                          DType::U64};

TEST(DTypeTest, TensorFlowNumbers) {
  EXPECT_EQ(static_cast<int>(DType::F32), 1);
  EXPECT_EQ(static_cast<int>(DType::String), 7);
  EXPECT_EQ(static_cast<int>(DType::I64), 9);
  EXPECT_EQ(static_cast<int>(DType::Bool), 10);
  EXPECT_EQ(static_cast<int>(DType::BF16), 14);
  EXPECT_EQ(static_cast<int>(DType::F16), 19);
  EXPECT_EQ(static_cast<int>(DType::U64), 23);
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
  EXPECT_EQ(dtypeFromDataType(8).status(), // DT_COMPLEX64
            InvalidArgumentError("unknown TensorFlow DataType 8"));
  EXPECT_EQ(dtypeFromDataType(0).status(),
            InvalidArgumentError("unknown TensorFlow DataType 0"));
  EXPECT_EQ(dtypeName(static_cast<DType>(8)), "unknown");
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
}

TEST(DTypeTest, NumpyDescr) {
  EXPECT_EQ(numpyDescr(DType::F32), "<f4");
  EXPECT_EQ(numpyDescr(DType::Bool), "|b1");
  EXPECT_EQ(numpyDescr(DType::F16), "<f2");
  EXPECT_EQ(numpyDescr(DType::U8), "|u1");
  EXPECT_EQ(numpyDescr(DType::BF16), "");
  for (DType dtype : kAll) {
    if (dtype == DType::BF16)
      continue;
    EXPECT_EQ(*parseNumpyDescr(numpyDescr(dtype)), dtype);
  }
  EXPECT_EQ(*parseNumpyDescr("=i4"), DType::I32);
  EXPECT_EQ(
      parseNumpyDescr(">f4").status(),
      InvalidArgumentError("big-endian numpy dtype '>f4' is not supported"));
  EXPECT_EQ(parseNumpyDescr("<c8").status(),
            InvalidArgumentError("unsupported numpy dtype '<c8'"));
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
