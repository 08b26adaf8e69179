//===- ListKernelsTest.cpp - TensorList kernel tests ------------*- C++ -*-===//
//
// Reserve, set, read and stack a list (unset elements read as zeros, a set
// leaves the list it came from unchanged), a list from a tensor, the
// length, and the errors; push and pop, gather and scatter, resize, split
// and concat, the element shape, batches of lists, and their errors.
// Expected values are worked out by hand in the comments; messages follow
// TensorFlow's list_kernels.h/.cc.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <optional>

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

//===----------------------------------------------------------------------===//
// Push, pop, gather, scatter, resize, split, concat, batches
//===----------------------------------------------------------------------===//

/// An element_shape operand: {-1} is the scalar -1 (unknown rank).
Tensor shapeOperand(std::vector<int32_t> dims) {
  if (dims.size() == 1 && dims[0] == -1)
    return i32({}, {-1});
  return i32({static_cast<int64_t>(dims.size())}, dims);
}

StatusOr<Tensor> emptyList(std::vector<int32_t> elementShape,
                           int32_t maxNumElements = -1,
                           DType elementDType = DType::F32) {
  return runKernel("EmptyTensorList", listAttrs(elementDType),
                   {shapeOperand(elementShape), i32({}, {maxNumElements})},
                   DType::Variant);
}

StatusOr<Tensor> fromTensor(Tensor tensor, std::vector<int32_t> shape = {-1}) {
  return runKernel("TensorListFromTensor", listAttrs(tensor.dtype()),
                   {tensor, shapeOperand(shape)}, DType::Variant);
}

StatusOr<Tensor> pushBack(const Tensor &list, Tensor item) {
  return runKernel("TensorListPushBack",
                   AttrMap{{"element_dtype", item.dtype()}}, {list, item},
                   DType::Variant);
}

/// TensorListPopBack: {list, item}.
StatusOr<std::vector<Tensor>> popBack(const Tensor &list,
                                      std::vector<int32_t> shape = {-1}) {
  return runKernelN("TensorListPopBack", AttrMap{{"element_dtype", DType::F32}},
                    {list, shapeOperand(shape)}, {DType::Variant, DType::F32});
}

StatusOr<int32_t> length(const Tensor &list) {
  auto n = runKernel("TensorListLength", AttrMap(), {list}, DType::I32);
  if (!n.ok())
    return n.status();
  return n->data<int32_t>()[0];
}

/// TensorListStack with a given element shape.
StatusOr<Tensor> stackAs(const Tensor &list, std::vector<int32_t> shape) {
  return runKernel("TensorListStack",
                   AttrMap{{"element_dtype", DType::F32}, {"num_elements", -1}},
                   {list, shapeOperand(shape)}, DType::F32);
}

StatusOr<Tensor> gather(const Tensor &list, Tensor indices,
                        std::vector<int32_t> shape = {-1}) {
  return runKernel("TensorListGather", AttrMap{{"element_dtype", DType::F32}},
                   {list, indices, shapeOperand(shape)}, DType::F32);
}

StatusOr<Tensor> scatter(Tensor tensor, Tensor indices,
                         std::vector<int32_t> shape = {-1},
                         std::optional<int32_t> numElements = std::nullopt) {
  std::vector<Tensor> inputs{tensor, indices, shapeOperand(shape)};
  if (numElements)
    inputs.push_back(i32({}, {*numElements}));
  return runKernel(numElements ? "TensorListScatterV2" : "TensorListScatter",
                   listAttrs(tensor.dtype()), inputs, DType::Variant);
}

StatusOr<Tensor> split(Tensor tensor, std::vector<int32_t> shape,
                       std::vector<int64_t> lengths) {
  return runKernel("TensorListSplit", listAttrs(tensor.dtype()),
                   {tensor, shapeOperand(shape),
                    i64({static_cast<int64_t>(lengths.size())}, lengths)},
                   DType::Variant);
}

/// TensorListConcatV2: {tensor, lengths}.
StatusOr<std::vector<Tensor>> concatV2(const Tensor &list,
                                       std::vector<int32_t> shape,
                                       std::vector<int64_t> leadingDims) {
  return runKernelN(
      "TensorListConcatV2", listAttrs(),
      {list, shapeOperand(shape),
       i64({static_cast<int64_t>(leadingDims.size())}, leadingDims)},
      {DType::F32, DType::I64});
}

/// TensorListConcat with the element_shape attribute: {tensor, lengths}.
StatusOr<std::vector<Tensor>>
concatV1(const Tensor &list, PartialShape shape = PartialShape::unknownRank()) {
  return runKernelN(
      "TensorListConcat",
      AttrMap{{"element_dtype", DType::F32}, {"element_shape", shape}}, {list},
      {DType::F32, DType::I64});
}

/// A variant tensor reshaped (a batch of lists, or back to one list).
StatusOr<Tensor> reshapeLists(const Tensor &lists, std::vector<int32_t> dims) {
  return runKernel(
      "Reshape", AttrMap{{"T", DType::Variant}, {"Tshape", DType::I32}},
      {lists, i32({static_cast<int64_t>(dims.size())}, dims)}, DType::Variant);
}

std::string message(const Status &status) {
  return std::string(status.message());
}

TEST(TensorList, EmptyPushPopLength) {
  auto empty = emptyList({2});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(*length(*empty), 0);
  auto one = pushBack(*empty, f32({2}, {1, 2}));
  ASSERT_TRUE(one.ok()) << one.status();
  auto two = pushBack(*one, f32({2}, {3, 4}));
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(*length(*one), 1);
  EXPECT_EQ(*length(*two), 2);
  auto stacked = stackAs(*two, {2});
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {2, 2}, {1, 2, 3, 4});
  // Pop: the last element [3, 4] and the list [[1, 2]]; `two` keeps both.
  auto popped = popBack(*two);
  ASSERT_TRUE(popped.ok()) << popped.status();
  expectValues<float>((*popped)[1], {2}, {3, 4});
  EXPECT_EQ(*length((*popped)[0]), 1);
  EXPECT_EQ(*length(*two), 2);
  stacked = stackAs((*popped)[0], {2});
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {1, 2}, {1, 2});
  // An unset last element pops as zeros of the (given) element shape.
  auto reserved = reserve({-1}, 2);
  ASSERT_TRUE(reserved.ok()) << reserved.status();
  popped = popBack(*reserved, {3});
  ASSERT_TRUE(popped.ok()) << popped.status();
  expectValues<float>((*popped)[1], {3}, {0, 0, 0});
  EXPECT_EQ(*length((*popped)[0]), 1);
}

TEST(TensorList, PushPopErrors) {
  auto list = emptyList({2}, /*maxNumElements=*/1);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(message(pushBack(*list, f32({3}, {1, 2, 3})).status()),
            opError("TensorListPushBack",
                    "Tried to append a tensor with incompatible shape to a "
                    "list. Op element shape: [3] list shape: [2]"));
  auto full = pushBack(*list, f32({2}, {1, 2}));
  ASSERT_TRUE(full.ok()) << full.status();
  EXPECT_EQ(message(pushBack(*full, f32({2}, {3, 4})).status()),
            opError("TensorListPushBack",
                    "Tried to push item into a full list list size: 1 "
                    "max_num_elements: 1"));
  EXPECT_EQ(message(pushBack(*list, i32({2}, {1, 2})).status()),
            opError("TensorListPushBack",
                    "Invalid data types; op elements i32 but list elements "
                    "f32"));
  EXPECT_EQ(message(popBack(*list).status()),
            opError("TensorListPopBack", "Trying to pop from an empty list."));
  auto unknown = reserve({-1}, 1);
  ASSERT_TRUE(unknown.ok()) << unknown.status();
  EXPECT_EQ(message(popBack(*unknown).status()),
            opError("TensorListPopBack",
                    "Trying to read an uninitialized tensor but element_shape "
                    "is not fully defined.<unknown rank>"));
  auto notScalar =
      runKernel("EmptyTensorList", listAttrs(),
                {shapeOperand({2}), i32({1}, {1})}, DType::Variant);
  EXPECT_EQ(message(notScalar.status()),
            opError("EmptyTensorList",
                    "max_num_elements expected to be a scalar but got shape: "
                    "[1]"));
}

TEST(TensorList, ElementShape) {
  auto elementShape = [](const Tensor &list, DType type) {
    return runKernel("TensorListElementShape", AttrMap{{"shape_type", type}},
                     {list}, type);
  };
  auto known = reserve({2, -1}, 1);
  ASSERT_TRUE(known.ok()) << known.status();
  auto shape = elementShape(*known, DType::I32);
  ASSERT_TRUE(shape.ok()) << shape.status();
  expectValues<int32_t>(*shape, {2}, {2, -1});
  shape = elementShape(*known, DType::I64);
  ASSERT_TRUE(shape.ok()) << shape.status();
  expectValues<int64_t>(*shape, {2}, {2, -1});
  // Unknown rank: the scalar -1.
  auto unknown = emptyList({-1});
  ASSERT_TRUE(unknown.ok()) << unknown.status();
  shape = elementShape(*unknown, DType::I32);
  ASSERT_TRUE(shape.ok()) << shape.status();
  expectValues<int32_t>(*shape, {}, {-1});
}

TEST(TensorList, Gather) {
  // iota rows: [0, 1], [2, 3], [4, 5].
  auto list = fromTensor(iota({3, 2}));
  ASSERT_TRUE(list.ok()) << list.status();
  auto gathered = gather(*list, i32({3}, {2, 0, 2}));
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  expectValues<float>(*gathered, {3, 2}, {4, 5, 0, 1, 4, 5});
  // Indices of any shape: the output is [count] + element shape.
  gathered = gather(*list, i32({2, 1}, {1, 1}));
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  expectValues<float>(*gathered, {2, 2}, {2, 3, 2, 3});
  // An unset element gathers as zeros of the shape of the set ones.
  auto sparse = reserve({-1}, 3);
  ASSERT_TRUE(sparse.ok()) << sparse.status();
  auto set = setItem(*sparse, 1, f32({2}, {7, 8}));
  ASSERT_TRUE(set.ok()) << set.status();
  gathered = gather(*set, i32({2}, {0, 1}));
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  expectValues<float>(*gathered, {2, 2}, {0, 0, 7, 8});
  // No indices: [0] + the (known) element shape.
  gathered = gather(*list, i32({0}, {}), {2});
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  expectValues<float>(*gathered, {0, 2}, {});
}

TEST(TensorList, GatherErrors) {
  auto list = reserve({2}, 3);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(message(gather(*list, i32({2}, {0, 3})).status()),
            opError("TensorListGather",
                    "Index 3 out o range; list only has 3 elements."));
  EXPECT_EQ(message(gather(*list, i32({1}, {-1})).status()),
            opError("TensorListGather",
                    "Index -1 out o range; list only has 3 elements."));
  auto open = reserve({-1}, 3);
  ASSERT_TRUE(open.ok()) << open.status();
  EXPECT_EQ(message(gather(*open, i32({1}, {5})).status()),
            opError("TensorListGather",
                    "Trying to gather element 5 in a list with 3 elements."));
  EXPECT_EQ(message(gather(*open, i32({0}, {})).status()),
            opError("TensorListGather",
                    "Tried to gather 0-elements from a list with "
                    "non-fully-defined shape: <unknown rank>"));
  EXPECT_EQ(message(gather(*open, i32({1}, {0})).status()),
            opError("TensorListGather",
                    "Tried to gather uninitialized tensors from a list with "
                    "non-fully-defined element_shape: <unknown rank>"));
  EXPECT_EQ(message(gather(*list, i32({1}, {0}), {3}).status()),
            opError("TensorListGather",
                    "Incompatible shapes during merge: [3] vs. [2]"));
}

TEST(TensorList, Scatter) {
  // Rows [1, 2], [3, 4], [5, 6] to elements 2, 0, 2: the later row wins,
  // element 1 stays unset: [[3, 4], [0, 0], [5, 6]].
  Tensor rows = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  auto list = scatter(rows, i32({3}, {2, 0, 2}));
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(*length(*list), 3);
  auto stacked = stackAs(*list, {2});
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {3, 2}, {3, 4, 0, 0, 5, 6});
  // V2: as long as num_elements.
  list = scatter(rows, i32({3}, {1, 0, 3}), {2}, 5);
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(*length(*list), 5);
  stacked = stackAs(*list, {2});
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {5, 2}, {3, 4, 1, 2, 0, 0, 5, 6, 0, 0});
  // Into an existing list: [[0, 0], [0, 0]] with [1, 2] at 3 and [3, 4]
  // at 0 grows to [[3, 4], [0, 0], [0, 0], [1, 2]]; the list it came from
  // keeps its two elements.
  auto existing = reserve({2}, 2);
  ASSERT_TRUE(existing.ok()) << existing.status();
  auto into = runKernel(
      "TensorListScatterIntoExistingList",
      AttrMap{{"element_dtype", DType::F32}},
      {*existing, f32({2, 2}, {1, 2, 3, 4}), i32({2}, {3, 0})}, DType::Variant);
  ASSERT_TRUE(into.ok()) << into.status();
  stacked = stackAs(*into, {2});
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {4, 2}, {3, 4, 0, 0, 0, 0, 1, 2});
  EXPECT_EQ(*length(*existing), 2);
}

TEST(TensorList, ScatterErrors) {
  Tensor rows = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(message(scatter(rows, i32({3}, {0, -1, 1})).status()),
            opError("TensorListScatter",
                    "Indices in TensorListScatter must all be non-negative."));
  EXPECT_EQ(message(scatter(rows, i32({3}, {0, 5, 1}), {-1}, 5).status()),
            opError("TensorListScatterV2",
                    "TensorListScatter: Trying to scatter at index 5 in list "
                    "with size 5"));
  EXPECT_EQ(message(scatter(rows, i32({3}, {0, 1, 2}), {-1}, -2).status()),
            opError("TensorListScatterV2",
                    "TensorListScatter expects num_elements >= -1, found: "
                    "-2"));
  EXPECT_EQ(message(scatter(rows, i32({2}, {0, 1})).status()),
            opError("TensorListScatter",
                    "Invalid number of rows in input tensor. Expected: 2 "
                    "Actual: 3"));
  EXPECT_EQ(message(scatter(rows, i32({3}, {0, 1, 2}), {3}).status()),
            opError("TensorListScatter",
                    "Specified a list with shape [3] from a tensor with shape "
                    "[2]"));
  auto list = reserve({2}, 1);
  ASSERT_TRUE(list.ok()) << list.status();
  auto into = [&](Tensor tensor, Tensor indices) {
    return runKernel("TensorListScatterIntoExistingList",
                     AttrMap{{"element_dtype", tensor.dtype()}},
                     {*list, tensor, indices}, DType::Variant)
        .status();
  };
  EXPECT_EQ(message(into(rows, i32({1}, {0}))),
            opError("TensorListScatterIntoExistingList",
                    "Expected len(indices) == tensor.shape[0], but saw: 1 vs. "
                    "3"));
  EXPECT_EQ(message(into(rows, i32({1, 3}, {0, 1, 2}))),
            opError("TensorListScatterIntoExistingList",
                    "Expected indices to be a vector, but received shape: "
                    "[1,3]"));
  EXPECT_EQ(message(into(i32({1, 2}, {1, 2}), i32({1}, {0}))),
            opError("TensorListScatterIntoExistingList",
                    "Invalid data types; input tensor type: i32 list "
                    "element_type: f32"));
  EXPECT_EQ(message(into(rows, i32({3}, {0, -2, 1}))),
            opError("TensorListScatterIntoExistingList",
                    "Indices in TensorListScatter must all be non-negative."));
}

TEST(TensorList, Resize) {
  auto list = fromTensor(iota({3, 2}));
  ASSERT_TRUE(list.ok()) << list.status();
  auto resize = [](const Tensor &list, int32_t size) {
    return runKernel("TensorListResize", AttrMap(), {list, i32({}, {size})},
                     DType::Variant);
  };
  auto shorter = resize(*list, 2);
  ASSERT_TRUE(shorter.ok()) << shorter.status();
  auto stacked = stackAs(*shorter, {2});
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {2, 2}, {0, 1, 2, 3});
  auto longer = resize(*list, 4);
  ASSERT_TRUE(longer.ok()) << longer.status();
  stacked = stackAs(*longer, {2});
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {4, 2}, {0, 1, 2, 3, 4, 5, 0, 0});
  EXPECT_EQ(message(resize(*list, -1).status()),
            opError("TensorListResize",
                    "TensorListSlice expects size to be non-negative. Got: "
                    "-1"));
}

TEST(TensorList, SplitAndConcat) {
  // iota [5, 2] in pieces of 2, 0 and 3 rows.
  auto list = split(iota({5, 2}), {-1, 2}, {2, 0, 3});
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(*length(*list), 3);
  auto item = getItem(*list, 2);
  ASSERT_TRUE(item.ok()) << item.status();
  expectValues<float>(*item, {3, 2}, {4, 5, 6, 7, 8, 9});
  auto concat = concatV2(*list, {-1, 2}, {});
  ASSERT_TRUE(concat.ok()) << concat.status();
  expectValues<float>((*concat)[0], {5, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  expectValues<int64_t>((*concat)[1], {3}, {2, 0, 3});
  concat = concatV1(*list);
  ASSERT_TRUE(concat.ok()) << concat.status();
  expectValues<float>((*concat)[0], {5, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  expectValues<int64_t>((*concat)[1], {3}, {2, 0, 3});
}

TEST(TensorList, ConcatUnsetElements) {
  // Element 0 is [[1, 2]]; 1 and 2 are unset.
  auto reserved = reserve({-1, 2}, 3);
  ASSERT_TRUE(reserved.ok()) << reserved.status();
  auto list = setItem(*reserved, 0, f32({1, 2}, {1, 2}));
  ASSERT_TRUE(list.ok()) << list.status();
  // leading_dims gives the unset elements' lengths: 2 and 1 rows of zeros.
  auto concat = concatV2(*list, {-1}, {9, 2, 1});
  ASSERT_TRUE(concat.ok()) << concat.status();
  expectValues<float>((*concat)[0], {4, 2}, {1, 2, 0, 0, 0, 0, 0, 0});
  expectValues<int64_t>((*concat)[1], {3}, {1, 2, 1});
  // Without: the set elements' common first dimension, 1.
  concat = concatV2(*list, {-1}, {});
  ASSERT_TRUE(concat.ok()) << concat.status();
  expectValues<float>((*concat)[0], {3, 2}, {1, 2, 0, 0, 0, 0});
  expectValues<int64_t>((*concat)[1], {3}, {1, 1, 1});
  concat = concatV1(*list);
  ASSERT_TRUE(concat.ok()) << concat.status();
  expectValues<int64_t>((*concat)[1], {3}, {1, 1, 1});
}

TEST(TensorList, SplitConcatErrors) {
  Tensor rows = iota({5, 2});
  EXPECT_EQ(message(split(rows, {-1, 2}, {2, 2}).status()),
            opError("TensorListSplit",
                    "Unused values in tensor. Length of tensor: 5 Values used: "
                    "4"));
  EXPECT_EQ(message(split(rows, {-1, 2}, {4, 2}).status()),
            opError("TensorListSplit",
                    "Attempting to slice [4, 6] from tensor with length 5"));
  EXPECT_EQ(message(split(rows, {-1, 2}, {-1, 6}).status()),
            opError("TensorListSplit", "Invalid value in lengths: -1"));
  EXPECT_EQ(message(split(rows, {}, {5}).status()),
            opError("TensorListSplit",
                    "TensorListSplit requires element_shape to be at least of "
                    "rank 1, but saw: []"));
  EXPECT_EQ(message(split(rows, {-1, 3}, {5}).status()),
            opError("TensorListSplit",
                    "tensor shape [5,2] is not compatible with element_shape "
                    "[?,3]"));
  auto unset = reserve({-1, 2}, 2);
  ASSERT_TRUE(unset.ok()) << unset.status();
  EXPECT_EQ(message(concatV1(*unset, PartialShape{-1, 2}).status()),
            opError("TensorListConcat",
                    "Concating lists with uninitialized tensors is not "
                    "supported in this version of TensorListConcat. Consider "
                    "updating your GraphDef to run the newer version."));
  EXPECT_EQ(message(concatV1(*unset).status()),
            opError("TensorListConcat",
                    "Trying to concat list with only uninitialized tensors "
                    "but element_shape_except_first_dim is not fully defined: "
                    "<unknown rank>"));
  EXPECT_EQ(message(concatV2(*unset, {-1}, {}).status()),
            opError("TensorListConcatV2",
                    "List contains uninitialized tensor at index 0 but "
                    "leading_dims has only 0 elements."));
  auto empty = emptyList({-1});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(message(concatV2(*empty, {-1}, {}).status()),
            opError("TensorListConcatV2",
                    "All except the first dimension must be fully defined "
                    "when concating an empty tensor list. element_shape: "
                    "<unknown rank>"));
  auto scalars = reserve({-1}, 1);
  ASSERT_TRUE(scalars.ok()) << scalars.status();
  auto withScalar = setItem(*scalars, 0, f32({}, {1}));
  ASSERT_TRUE(withScalar.ok()) << withScalar.status();
  EXPECT_EQ(message(concatV2(*withScalar, {-1}, {}).status()),
            opError("TensorListConcatV2",
                    "Concat saw a scalar shape at index 0 but requires at "
                    "least vectors."));
  auto set = setItem(*unset, 0, f32({1, 2}, {1, 2}));
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_EQ(message(concatV2(*set, {3, 2}, {}).status()),
            opError("TensorListConcatV2",
                    "First entry of element_shape input does not match the "
                    "first dim of list element at index: 0 Expected: 3 "
                    "Actual: 1"));
  EXPECT_EQ(message(concatV2(*withScalar, {}, {}).status()),
            opError("TensorListConcatV2",
                    "Concat requires elements to be at least vectors, found "
                    "scalars instead."));
}

TEST(TensorList, ConcatLists) {
  auto a = fromTensor(f32({1, 2}, {1, 2}));
  auto b = fromTensor(f32({2, 2}, {3, 4, 5, 6}));
  ASSERT_TRUE(a.ok() && b.ok());
  auto both =
      runKernel("TensorListConcatLists", AttrMap{{"element_dtype", DType::F32}},
                {*a, *b}, DType::Variant);
  ASSERT_TRUE(both.ok()) << both.status();
  auto stacked = stackAs(*both, {2});
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {3, 2}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(*length(*a), 1);
  // Batches of one list each (a reshaped scalar list is one).
  auto batchA = reshapeLists(*a, {1});
  auto batchB = reshapeLists(*b, {1});
  ASSERT_TRUE(batchA.ok() && batchB.ok()) << batchA.status();
  auto batch =
      runKernel("TensorListConcatLists", AttrMap{{"element_dtype", DType::F32}},
                {*batchA, *batchB}, DType::Variant);
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_EQ(batch->shape(), TensorShape({1}));
  auto one = reshapeLists(*batch, {});
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(*length(*one), 3);

  auto concatLists = [](Tensor x, Tensor y, DType dtype) {
    return runKernel("TensorListConcatLists", AttrMap{{"element_dtype", dtype}},
                     {x, y}, DType::Variant)
        .status();
  };
  EXPECT_EQ(message(concatLists(*a, *batchB, DType::F32)),
            opError("TensorListConcatLists",
                    "Incompatible input TensorList tensor shapes: [] vs. "
                    "[1]"));
  EXPECT_EQ(message(concatLists(*a, *b, DType::I32)),
            opError("TensorListConcatLists",
                    "input_a[0].dtype != element_dtype.  Saw: f32 vs. i32"));
  auto open = reserve({-1}, 1);
  ASSERT_TRUE(open.ok()) << open.status();
  EXPECT_EQ(message(concatLists(*a, *open, DType::F32)),
            opError("TensorListConcatLists",
                    "input_a and input_b TensorList element shapes are not "
                    "identical at index 0.  Saw [2] vs. <unknown rank>"));
}

TEST(TensorList, PushBackBatch) {
  auto list = fromTensor(f32({1, 2}, {1, 2}));
  ASSERT_TRUE(list.ok()) << list.status();
  auto batch = reshapeLists(*list, {1});
  ASSERT_TRUE(batch.ok()) << batch.status();
  auto pushBatch = [](Tensor handles, Tensor tensor) {
    return runKernel("TensorListPushBackBatch",
                     AttrMap{{"element_dtype", tensor.dtype()}},
                     {handles, tensor}, DType::Variant);
  };
  auto pushed = pushBatch(*batch, f32({1, 2}, {7, 8}));
  ASSERT_TRUE(pushed.ok()) << pushed.status();
  EXPECT_EQ(pushed->shape(), TensorShape({1}));
  auto one = reshapeLists(*pushed, {});
  ASSERT_TRUE(one.ok()) << one.status();
  auto stacked = stackAs(*one, {2});
  ASSERT_TRUE(stacked.ok()) << stacked.status();
  expectValues<float>(*stacked, {2, 2}, {1, 2, 7, 8});
  EXPECT_EQ(*length(*list), 1);

  EXPECT_EQ(message(pushBatch(*list, f32({1, 2}, {7, 8})).status()),
            opError("TensorListPushBackBatch",
                    "Expected input_handles to be a vector, but saw shape: "
                    "[]"));
  EXPECT_EQ(message(pushBatch(*batch, f32({2, 2}, {1, 2, 3, 4})).status()),
            opError("TensorListPushBackBatch",
                    "Expected tensor.shape[0] == input_handles.size, but saw "
                    "2 vs. 1"));
  EXPECT_EQ(message(pushBatch(*batch, f32({1, 3}, {1, 2, 3})).status()),
            opError("TensorListPushBackBatch",
                    "Tried to append a tensor with incompatible shape to a "
                    "list at index 0. Op element shape: [3] list shape: [2]"));
  EXPECT_EQ(message(pushBatch(*batch, f32({}, {1})).status()),
            opError("TensorListPushBackBatch",
                    "Expected tensor to be at least a vector, but saw shape: "
                    "[]"));
  EXPECT_EQ(message(pushBatch(*batch, i32({1, 2}, {1, 2})).status()),
            opError("TensorListPushBackBatch",
                    "Invalid data type at index 0; op elements i32 but list "
                    "elements f32"));
}

TEST(TensorList, AListMustBeAScalar) {
  auto list = fromTensor(f32({1, 2}, {1, 2}));
  ASSERT_TRUE(list.ok()) << list.status();
  auto batch = reshapeLists(*list, {1});
  ASSERT_TRUE(batch.ok()) << batch.status();
  EXPECT_EQ(
      message(length(*batch).status()),
      opError("TensorListLength", "Input list must be a scalar saw: [1]"));
}

} // namespace
