//===- MapKernelsTest.cpp - TensorMap kernel tests --------------*- C++ -*-===//
//
// EmptyTensorMap, TensorMapInsert, Lookup, Erase, HasKey, Size and
// StackKeys, each op a program of its own (a map is a value: it travels in
// its variant tensor), and the errors. Expected values are worked out by
// hand; messages follow TensorFlow's map_kernels.h.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

Tensor emptyMap() {
  StatusOr<Tensor> map =
      runKernel("EmptyTensorMap", AttrMap(), {}, DType::Variant);
  EXPECT_TRUE(map.ok()) << map.status();
  return map.ok() ? *map : Tensor();
}

StatusOr<Tensor> insert(const Tensor &map, Tensor key, Tensor value) {
  AttrMap attrs{{"key_dtype", key.dtype()}, {"value_dtype", value.dtype()}};
  return runKernel("TensorMapInsert", attrs,
                   {map, std::move(key), std::move(value)}, DType::Variant);
}

StatusOr<Tensor> lookup(const Tensor &map, Tensor key,
                        DType valueDType = DType::F32) {
  AttrMap attrs{{"key_dtype", key.dtype()}, {"value_dtype", valueDType}};
  return runKernel("TensorMapLookup", attrs, {map, std::move(key)}, valueDType);
}

StatusOr<Tensor> erase(const Tensor &map, Tensor key) {
  AttrMap attrs{{"key_dtype", key.dtype()}, {"value_dtype", DType::F32}};
  return runKernel("TensorMapErase", attrs, {map, std::move(key)},
                   DType::Variant);
}

StatusOr<bool> hasKey(const Tensor &map, Tensor key) {
  StatusOr<Tensor> out =
      runKernel("TensorMapHasKey", AttrMap{{"key_dtype", key.dtype()}},
                {map, std::move(key)}, DType::Bool);
  if (!out.ok())
    return out.status();
  return out->data<bool>()[0];
}

StatusOr<int32_t> size(const Tensor &map) {
  StatusOr<Tensor> out =
      runKernel("TensorMapSize", AttrMap(), {map}, DType::I32);
  if (!out.ok())
    return out.status();
  return out->data<int32_t>()[0];
}

StatusOr<Tensor> stackKeys(const Tensor &map, DType keyDType) {
  return runKernel("TensorMapStackKeys", AttrMap{{"key_dtype", keyDType}},
                   {map}, keyDType);
}

Tensor str(TensorShape shape, std::vector<std::string_view> values) {
  StatusOr<Tensor> t = makeStringTensor(shape, values);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : Tensor();
}

std::string message(const Status &status) {
  return std::string(status.message());
}

/// The map {1: [1, 2], 2: [3]} of int32 keys and float values.
Tensor twoEntries() {
  StatusOr<Tensor> map = insert(emptyMap(), i32({}, {1}), f32({2}, {1, 2}));
  EXPECT_TRUE(map.ok()) << map.status();
  map = insert(*map, i32({}, {2}), f32({1}, {3}));
  EXPECT_TRUE(map.ok()) << map.status();
  return map.ok() ? *map : Tensor();
}

TEST(TensorMap, InsertLookupSize) {
  Tensor empty = emptyMap();
  EXPECT_EQ(empty.dtype(), DType::Variant);
  EXPECT_EQ(empty.shape(), TensorShape({}));
  auto n = size(empty);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 0);
  Tensor map = twoEntries();
  n = size(map);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 2);
  auto one = lookup(map, i32({}, {1}));
  ASSERT_TRUE(one.ok()) << one.status();
  expectValues<float>(*one, {2}, {1, 2});
  auto two = lookup(map, i32({}, {2}));
  ASSERT_TRUE(two.ok()) << two.status();
  expectValues<float>(*two, {1}, {3});
  // The empty map did not change.
  n = size(empty);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 0);
}

TEST(TensorMap, InsertReplaces) {
  Tensor map = twoEntries();
  auto replaced = insert(map, i32({}, {1}), f32({}, {9}));
  ASSERT_TRUE(replaced.ok()) << replaced.status();
  auto n = size(*replaced);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 2);
  auto value = lookup(*replaced, i32({}, {1}));
  ASSERT_TRUE(value.ok()) << value.status();
  expectValues<float>(*value, {}, {9});
  // Maps are values: the first map keeps its value.
  value = lookup(map, i32({}, {1}));
  ASSERT_TRUE(value.ok()) << value.status();
  expectValues<float>(*value, {2}, {1, 2});
}

TEST(TensorMap, EraseHasKey) {
  Tensor map = twoEntries();
  auto erased = erase(map, i32({}, {1}));
  ASSERT_TRUE(erased.ok()) << erased.status();
  auto n = size(*erased);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 1);
  auto has = hasKey(*erased, i32({}, {1}));
  ASSERT_TRUE(has.ok()) << has.status();
  EXPECT_FALSE(*has);
  has = hasKey(map, i32({}, {1}));
  ASSERT_TRUE(has.ok()) << has.status();
  EXPECT_TRUE(*has);
  // A key is its dtype, shape and values: int64 1 and int32 [1] are other
  // keys than int32 1.
  has = hasKey(map, i64({}, {1}));
  ASSERT_TRUE(has.ok()) << has.status();
  EXPECT_FALSE(*has);
  has = hasKey(map, i32({1}, {1}));
  ASSERT_TRUE(has.ok()) << has.status();
  EXPECT_FALSE(*has);
  EXPECT_EQ(message(erase(map, i32({}, {7})).status()),
            opError("TensorMapErase", "Trying to erase non-existent item. "
                                      "Could not find key \"7\"."));
  EXPECT_EQ(message(lookup(map, i32({}, {3})).status()),
            opError("TensorMapLookup", "Trying to lookup non-existent key. "
                                       "Could not find key \"3\"."));
  EXPECT_EQ(message(lookup(map, i32({2}, {3, 4})).status()),
            opError("TensorMapLookup", "Trying to lookup non-existent key. "
                                       "Could not find key \"3 4\"."));
}

TEST(TensorMap, StackKeys) {
  StatusOr<Tensor> map = emptyMap();
  for (int32_t key : {5, 3, 9}) {
    map = insert(*map, i32({}, {key}), f32({}, {float(key)}));
    ASSERT_TRUE(map.ok()) << map.status();
  }
  // In the order of first insertion; replacing keeps a key's place.
  map = insert(*map, i32({}, {5}), f32({}, {0}));
  ASSERT_TRUE(map.ok()) << map.status();
  auto keys = stackKeys(*map, DType::I32);
  ASSERT_TRUE(keys.ok()) << keys.status();
  expectValues<int32_t>(*keys, {3}, {5, 3, 9});
  EXPECT_EQ(message(stackKeys(emptyMap(), DType::I32).status()),
            opError("TensorMapStackKeys",
                    "TensorMapStackKeys cannot be called on empty map."));
  EXPECT_EQ(
      message(stackKeys(*map, DType::I64).status()),
      opError("TensorMapStackKeys", "Key does not match requested dtype."));
  map = insert(*map, i32({1}, {4}), f32({}, {4}));
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ(
      message(stackKeys(*map, DType::I32).status()),
      opError("TensorMapStackKeys", "Keys must all have the same shape."));
}

TEST(TensorMap, StringKeys) {
  StatusOr<Tensor> map = insert(emptyMap(), str({}, {"apple"}), i64({}, {1}));
  ASSERT_TRUE(map.ok()) << map.status();
  map = insert(*map, str({}, {"pear"}), i64({}, {2}));
  ASSERT_TRUE(map.ok()) << map.status();
  auto pear = lookup(*map, str({}, {"pear"}), DType::I64);
  ASSERT_TRUE(pear.ok()) << pear.status();
  expectValues<int64_t>(*pear, {}, {2});
  auto keys = stackKeys(*map, DType::String);
  ASSERT_TRUE(keys.ok()) << keys.status();
  ASSERT_EQ(keys->shape(), TensorShape({2}));
  EXPECT_EQ(stringElements(*keys)[0], "apple");
  EXPECT_EQ(stringElements(*keys)[1], "pear");
  EXPECT_EQ(message(lookup(*map, str({}, {"fig\n"}), DType::I64).status()),
            opError("TensorMapLookup", "Trying to lookup non-existent key. "
                                       "Could not find key \"fig\\n\"."));
  // Values of other dtypes than value_dtype are not returned as it.
  EXPECT_EQ(message(lookup(*map, str({}, {"pear"}), DType::F32).status()),
            opError("TensorMapLookup", "the value of key \"pear\" is i64, but "
                                       "value_dtype is f32"));
}

TEST(TensorMap, HandleErrors) {
  // A map reshaped to [1] is no scalar.
  auto reshaped = runKernel(
      "Reshape", AttrMap{{"T", DType::Variant}, {"Tshape", DType::I32}},
      {emptyMap(), i32({1}, {1})}, DType::Variant);
  ASSERT_TRUE(reshaped.ok()) << reshaped.status();
  EXPECT_EQ(message(size(*reshaped).status()),
            opError("TensorMapSize", "Input map must be a scalar. Saw: [1]"));
  // A list is no map, and a map no list.
  auto list = runKernel(
      "EmptyTensorList",
      AttrMap{{"element_dtype", DType::F32}, {"shape_type", DType::I32}},
      {i32({}, {-1}), i32({}, {-1})}, DType::Variant);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(message(size(*list).status()),
            opError("TensorMapSize", "Input handle is not a map. Saw: "
                                     "'tensorflow::TensorList'"));
  EXPECT_EQ(
      message(runKernel("TensorListLength", AttrMap(), {emptyMap()}, DType::I32)
                  .status()),
      opError("TensorListLength", "Input handle is not a list. Saw: "
                                  "'tensorflow::TensorMap'"));
}

} // namespace
