//===- ListKernelsTest.cpp - TensorList kernel tests ------------*- C++ -*-===//
//
// Reserve, set, read and stack a list (unset elements read as zeros, a set
// leaves the list it came from unchanged), a list from a tensor, the
// length, and the errors. Expected values follow TensorFlow's list_kernels.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

AttrMap listAttrs(DType elementDType = DType::F32) {
  return AttrMap{{"element_dtype", elementDType}, {"shape_type", DType::I32}};
}

StatusOr<Tensor> reserve(std::vector<int32_t> elementShape, int32_t count,
                         DType elementDType = DType::F32) {
  Tensor shape =
      elementShape.size() == 1 && elementShape[0] == -1
          ? i32({}, {-1})
          : i32({static_cast<int64_t>(elementShape.size())}, elementShape);
  return runKernel("TensorListReserve", listAttrs(elementDType),
                   {shape, i32({}, {count})}, DType::Variant);
}

StatusOr<Tensor> setItem(const Tensor &list, int32_t index, Tensor item) {
  return runKernel("TensorListSetItem", AttrMap{{"element_dtype", DType::F32}},
                   {list, i32({}, {index}), item}, DType::Variant);
}

StatusOr<Tensor> getItem(const Tensor &list, int32_t index,
                         std::vector<int32_t> shape = {-1}) {
  Tensor elementShape = shape.size() == 1 && shape[0] == -1
                            ? i32({}, {-1})
                            : i32({static_cast<int64_t>(shape.size())}, shape);
  return runKernel("TensorListGetItem", AttrMap{{"element_dtype", DType::F32}},
                   {list, i32({}, {index}), elementShape}, DType::F32);
}

StatusOr<Tensor> stack(const Tensor &list, int64_t numElements = -1) {
  return runKernel(
      "TensorListStack",
      AttrMap{{"element_dtype", DType::F32}, {"num_elements", numElements}},
      {list, i32({}, {-1})}, DType::F32);
}

TEST(TensorList, ReserveSetGetStack) {
  auto list = reserve({2}, 3);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->dtype(), DType::Variant);
  auto one = setItem(*list, 0, f32({2}, {1, 2}));
  ASSERT_TRUE(one.ok()) << one.status();
  auto two = setItem(*one, 2, f32({2}, {5, 6}));
  ASSERT_TRUE(two.ok()) << two.status();
  auto stacked = stack(*two, 3);
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {3, 2}, {1, 2, 0, 0, 5, 6});
  auto item = getItem(*two, 2);
  ASSERT_TRUE(item.ok()) << item.status();
  expectValues<float>(*item, {2}, {5, 6});
  // Unset: zeros of the element shape.
  item = getItem(*two, 1);
  ASSERT_TRUE(item.ok()) << item.status();
  expectValues<float>(*item, {2}, {0, 0});
  // Lists are values: the list set from is unchanged.
  item = getItem(*one, 2);
  ASSERT_TRUE(item.ok()) << item.status();
  expectValues<float>(*item, {2}, {0, 0});
  auto length = runKernel("TensorListLength", AttrMap(), {*two}, DType::I32);
  ASSERT_TRUE(length.ok()) << length.status();
  expectValues<int32_t>(*length, {}, {3});
}

TEST(TensorList, FromTensorAndBack) {
  auto list = runKernel("TensorListFromTensor", listAttrs(),
                        {iota({3, 2}), i32({1}, {-1})}, DType::Variant);
  ASSERT_TRUE(list.ok()) << list.status();
  auto item = getItem(*list, 1);
  ASSERT_TRUE(item.ok()) << item.status();
  expectValues<float>(*item, {2}, {2, 3});
  auto stacked = stack(*list);
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {3, 2}, {0, 1, 2, 3, 4, 5});
  // Elements of unknown shape: stacking takes the set elements' shape.
  auto open = reserve({-1}, 2);
  ASSERT_TRUE(open.ok()) << open.status();
  auto set0 = setItem(*open, 0, f32({1}, {7}));
  ASSERT_TRUE(set0.ok()) << set0.status();
  stacked = stack(*set0);
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {2, 1}, {7, 0});
}

TEST(TensorList, Errors) {
  auto list = reserve({2}, 2);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(getItem(*list, 2).status().message(),
            opError("TensorListGetItem",
                    "Trying to access element 2 in a list with 2 elements."));
  EXPECT_EQ(setItem(*list, -1, f32({2}, {1, 2})).status().message(),
            opError("TensorListSetItem",
                    "Trying to modify element -1 in a list with 2 elements."));
  EXPECT_EQ(setItem(*list, 0, f32({3}, {1, 2, 3})).status().message(),
            opError("TensorListSetItem",
                    "Tried to set a tensor with incompatible shape at a list "
                    "index. Item element shape: [3] list shape: [2]"));
  EXPECT_EQ(stack(*list, 5).status().message(),
            opError("TensorListStack",
                    "Operation expected a list with 5 elements but got a "
                    "list with 2 elements."));
  auto open = reserve({-1}, 1);
  ASSERT_TRUE(open.ok()) << open.status();
  EXPECT_EQ(stack(*open).status().message(),
            opError("TensorListStack",
                    "Tried to stack elements of an empty list with "
                    "non-fully-defined element_shape: <unknown rank>"));
  EXPECT_EQ(reserve({2}, -1).status().message(),
            opError("TensorListReserve",
                    "The num_elements to reserve must be a non negative "
                    "number, but got -1"));
  auto ints = reserve({2}, 1, DType::I32);
  ASSERT_TRUE(ints.ok()) << ints.status();
  EXPECT_EQ(getItem(*ints, 0).status().message(),
            opError("TensorListGetItem",
                    "Invalid data types; op elements f32 but list elements "
                    "i32"));
}

} // namespace
