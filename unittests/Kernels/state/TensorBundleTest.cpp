//===- TensorBundleTest.cpp - the tensor bundle reader and writer ---------===//
//
// Against bundles TensorFlow wrote (TF Serving's test SavedModels in
// test/Inputs/SavedModel): values from their export scripts (a = 0.5,
// b = 2 or 3, c = 3), a Snappy-compressed index (TF 1.14), a string tensor
// (TF 2.14), and the writer's bytes against TF 1.0's own.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/TensorBundle.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include "gtest/gtest.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace tfrt_fallback::rt {
namespace {

std::string modelPrefix(const std::string &model) {
  return std::string(TFRT_FALLBACK_TEST_INPUTS) + "/SavedModel/" + model +
         "/00000123/variables/variables";
}

std::string readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::string tempPrefix(const std::string &name) {
  const char *dir = std::getenv("TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/tfrt-fallback-bundle-" +
         std::to_string(::getpid()) + "-" + name;
}

float scalar(const TensorBundleReader &reader, const std::string &key) {
  StatusOr<Tensor> tensor = reader.read(key);
  EXPECT_TRUE(tensor.ok()) << key << ": " << tensor.status().message();
  if (!tensor.ok())
    return -1;
  EXPECT_EQ(tensor->dtype(), DType::F32);
  EXPECT_EQ(tensor->rank(), 0);
  return *tensor->data<float>();
}

TEST(Crc32c, KnownValues) {
  // RFC 3720's check value and LevelDB's crc32c_test.
  EXPECT_EQ(crc32c(0, "123456789", 9), 0xe3069283u);
  char zeros[32] = {};
  EXPECT_EQ(crc32c(0, zeros, 32), 0x8a9136aau);
  EXPECT_EQ(unmaskCrc32c(maskCrc32c(0x12345678u)), 0x12345678u);
  EXPECT_NE(maskCrc32c(0x12345678u), 0x12345678u);
}

TEST(TensorBundle, ReadsTF1Bundle) {
  StatusOr<TensorBundleReader> reader =
      TensorBundleReader::open(modelPrefix("saved_model_half_plus_three"));
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(reader->keys(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(scalar(*reader, "a"), 0.5f);
  EXPECT_EQ(scalar(*reader, "b"), 3.0f);
  EXPECT_EQ(scalar(*reader, "c"), 3.0f);
  EXPECT_EQ(reader->find("d"), nullptr);
  EXPECT_EQ(reader->read("d").status().code(), StatusCode::kNotFound);
}

TEST(TensorBundle, ReadsSnappyCompressedIndex) {
  StatusOr<TensorBundleReader> reader =
      TensorBundleReader::open(modelPrefix("saved_model_half_plus_two_cpu"));
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(reader->keys(),
            (std::vector<std::string>{"a", "a2", "b", "c", "c2"}));
  EXPECT_EQ(scalar(*reader, "a2"), 0.5f);
  EXPECT_EQ(scalar(*reader, "b"), 2.0f);
  EXPECT_EQ(scalar(*reader, "c2"), 3.0f);
}

TEST(TensorBundle, ReadsTF2StringTensor) {
  StatusOr<TensorBundleReader> reader = TensorBundleReader::open(
      modelPrefix("saved_model_half_plus_two_tf2_cpu"));
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(scalar(*reader, "a/.ATTRIBUTES/VARIABLE_VALUE"), 0.5f);
  EXPECT_EQ(scalar(*reader, "c/.ATTRIBUTES/VARIABLE_VALUE"), 3.0f);
  StatusOr<Tensor> graph = reader->read("_CHECKPOINTABLE_OBJECT_GRAPH");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  ASSERT_EQ(graph->dtype(), DType::String);
  // 613 bytes (its entry: 2 length bytes + 4 checksum bytes + 613).
  EXPECT_EQ(stringElements(*graph)[0].size(), 613u);
}

TEST(TensorBundle, WritesTheBytesTensorFlowWrites) {
  // TF 1.0 wrote half_plus_three's bundle uncompressed: a, b, c = 0.5, 3,
  // 3, float scalars. The writer makes the same two files.
  const std::string prefix = tempPrefix("tf-bytes");
  std::vector<std::pair<std::string, Tensor>> tensors;
  for (auto [key, value] :
       {std::pair<const char *, float>{"b", 3.0f}, {"a", 0.5f}, {"c", 3.0f}}) {
    StatusOr<Tensor> t = Tensor::fromValues(TensorShape(), {value});
    ASSERT_TRUE(t.ok());
    tensors.emplace_back(key, *t);
  }
  ASSERT_TRUE(writeTensorBundle(prefix, tensors).ok());
  const std::string tf = modelPrefix("saved_model_half_plus_three");
  EXPECT_EQ(readAll(prefix + ".index"), readAll(tf + ".index"));
  EXPECT_EQ(readAll(prefix + ".data-00000-of-00001"),
            readAll(tf + ".data-00000-of-00001"));
  std::remove((prefix + ".index").c_str());
  std::remove((prefix + ".data-00000-of-00001").c_str());
}

TEST(TensorBundle, RoundTripsEveryKind) {
  const std::string prefix = tempPrefix("round-trip");
  StatusOr<Tensor> ints = Tensor::fromValues<int64_t>(
      *TensorShape::create({2, 2}), {1, -2, INT64_C(1) << 40, 4});
  std::vector<std::string_view> texts = {"", "x", std::string_view("a\0b", 3)};
  StatusOr<Tensor> strings = makeStringTensor(*TensorShape::create({3}), texts);
  StatusOr<Tensor> empty =
      Tensor::allocate(DType::F32, *TensorShape::create({0, 5}));
  ASSERT_TRUE(ints.ok() && strings.ok() && empty.ok());
  std::vector<std::pair<std::string, Tensor>> tensors = {
      {"ints", *ints}, {"strings", *strings}, {"empty", *empty}};
  // Enough keys for several restart points and a longer index.
  for (int i = 0; i < 40; ++i)
    tensors.emplace_back("scalar/" + std::to_string(i),
                         *Tensor::fromValues(TensorShape(), {float(i)}));
  ASSERT_TRUE(writeTensorBundle(prefix, tensors).ok());
  StatusOr<TensorBundleReader> reader = TensorBundleReader::open(prefix);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(reader->keys().size(), tensors.size());
  StatusOr<Tensor> back = reader->read("ints");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->shape(), ints->shape());
  EXPECT_EQ(back->data<int64_t>()[2], INT64_C(1) << 40);
  back = reader->read("strings");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(stringElements(*back)[2], std::string_view("a\0b", 3));
  EXPECT_EQ(stringElements(*back)[0], "");
  back = reader->read("empty");
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->numElements(), 0);
  EXPECT_EQ(scalar(*reader, "scalar/37"), 37.0f);

  // Merged into one checkpoint with another one-shard bundle.
  const std::string other = tempPrefix("round-trip-2");
  ASSERT_TRUE(writeTensorBundle(
                  other, {{"zz", *Tensor::fromValues(TensorShape(), {7.0f})}})
                  .ok());
  const std::string merged = tempPrefix("merged");
  ASSERT_TRUE(mergeTensorBundles({prefix, other}, merged).ok());
  reader = TensorBundleReader::open(merged);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(reader->numShards(), 2);
  EXPECT_EQ(scalar(*reader, "zz"), 7.0f);
  EXPECT_EQ(scalar(*reader, "scalar/3"), 3.0f);
  for (const char *suffix :
       {".index", ".data-00000-of-00002", ".data-00001-of-00002"})
    std::remove((merged + suffix).c_str());
}

TEST(TensorBundle, BadFilesAreErrorsNamingTheFile) {
  const std::string tf = modelPrefix("saved_model_half_plus_three");
  const std::string index = readAll(tf + ".index");
  const std::string data = readAll(tf + ".data-00000-of-00001");
  const std::string prefix = tempPrefix("bad");
  auto openWith = [&](const std::string &indexBytes,
                      const std::string &dataBytes) {
    writeAll(prefix + ".index", indexBytes);
    writeAll(prefix + ".data-00000-of-00001", dataBytes);
    return TensorBundleReader::open(prefix);
  };
  // Too short, bad magic, a flipped byte in a block.
  StatusOr<TensorBundleReader> reader = openWith(index.substr(0, 40), data);
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find(prefix + ".index"),
            std::string::npos);
  std::string bad = index;
  bad.back() ^= 1;
  EXPECT_NE(openWith(bad, data).status().message().find("magic"),
            std::string::npos);
  bad = index;
  bad[3] ^= 0x40;
  EXPECT_NE(openWith(bad, data).status().message().find("checksum"),
            std::string::npos);
  // A flipped byte of a tensor: its checksum names it.
  std::string badData = data;
  badData[5] ^= 1;
  reader = openWith(index, badData);
  ASSERT_TRUE(reader.ok());
  Status status = reader->read("b").status();
  EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  EXPECT_NE(status.message().find("checksum mismatch for the tensor 'b'"),
            std::string::npos);
  EXPECT_TRUE(reader->read("a").ok());
  // A truncated shard: the entry points outside it.
  reader = openWith(index, data.substr(0, 6));
  ASSERT_TRUE(reader.ok());
  status = reader->read("c").status();
  EXPECT_NE(status.message().find("outside it"), std::string::npos);
  EXPECT_NE(status.message().find("'c'"), std::string::npos);
  // A missing shard.
  std::remove((prefix + ".data-00000-of-00001").c_str());
  status = reader->read("a").status();
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_NE(status.message().find(".data-00000-of-00001"), std::string::npos);
  std::remove((prefix + ".index").c_str());
}

} // namespace
} // namespace tfrt_fallback::rt
