//===- NpyTest.cpp - .npy reader and writer tests -------------------------===//
//
// Round trips and the errors a malformed header must give. The inputs of
// fuzz/regressions/npy-fuzzer/ are cases found by fuzzing.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Npy.h"

#include "gtest/gtest.h"

#include <string>

namespace tfrt_fallback::rt {
namespace {

/// A version 1.0 file with `header` and `data`.
std::string npyFile(const std::string &header, const std::string &data) {
  std::string file("\x93NUMPY\x01\x00", 8);
  file.push_back(static_cast<char>(header.size() & 0xff));
  file.push_back(static_cast<char>(header.size() >> 8));
  return file + header + data;
}

TEST(NpyTest, RoundTrips) {
  Tensor tensor = *Tensor::fromValues<float>({2, 2}, {1, 2, 3, 4});
  StatusOr<std::string> bytes = encodeNpy(tensor);
  ASSERT_TRUE(bytes.ok());
  StatusOr<Tensor> back = parseNpy(*bytes, "t.npy");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->dtype(), DType::F32);
  EXPECT_EQ(back->shape(), tensor.shape());
  EXPECT_EQ(back->data<float>()[3], 4.0f);
}

TEST(NpyTest, ChecksTheDataSizeBeforeAllocating) {
  // A forged shape of 2^36 floats (256 GiB) with 20 bytes of data: an
  // error, not an allocation of the shape's size (found by
  // fuzz/NpyFuzzer.cpp).
  std::string header =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 34294967296), }";
  StatusOr<Tensor> tensor =
      parseNpy(npyFile(header, std::string(20, '\0')), "big.npy");
  EXPECT_EQ(tensor.status().message(),
            "invalid .npy file 'big.npy': expected 274359738368 bytes of "
            "data, found 20");
  // Elements times element size beyond 2^64.
  header = "{'descr': '<f8', 'fortran_order': False, 'shape': "
           "(4294967296, 1073741824), }";
  tensor = parseNpy(npyFile(header, ""), "huge.npy");
  EXPECT_EQ(tensor.status().message(),
            "invalid .npy file 'huge.npy': shape (4294967296, 1073741824) is "
            "too large");
}

} // namespace
} // namespace tfrt_fallback::rt
