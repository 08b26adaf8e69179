//===- TensorArrayKernelsTest.cpp - TensorArray kernel tests ----*- C++ -*-===//
//
// Create, write, read, scatter, gather, split, concat, size and close a
// TensorArray, each op a program of its own (the array lives with its
// handle, not with an executor), and the errors. Then the V1 and V2 ops on
// string handles, and V1's Pack and Unpack. Expected values and messages
// follow TensorFlow's tensor_array.h and tensor_array_ops.cc.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/Resource.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

struct Options {
  DType dtype = DType::F32;
  PartialShape elementShape = PartialShape::unknownRank();
  bool dynamicSize = false;
  bool clearAfterRead = true;
  bool identicalShapes = false;
};

Tensor flow(float value = 0) { return f32({}, {value}); }

/// TensorArrayV3: the handle and the flow.
StatusOr<std::vector<Tensor>> create(int32_t size, Options options = {}) {
  AttrMap attrs{{"dtype", options.dtype},
                {"element_shape", options.elementShape},
                {"dynamic_size", options.dynamicSize},
                {"clear_after_read", options.clearAfterRead},
                {"identical_element_shapes", options.identicalShapes},
                {"tensor_array_name", std::string()}};
  return runKernelN("TensorArrayV3", attrs, {i32({}, {size})},
                    {DType::Resource, DType::F32});
}

Tensor handleOf(int32_t size, Options options = {}) {
  StatusOr<std::vector<Tensor>> made = create(size, options);
  EXPECT_TRUE(made.ok()) << made.status();
  return made.ok() ? (*made)[0] : Tensor();
}

StatusOr<Tensor> write(const Tensor &handle, int32_t index, Tensor value,
                       float flowIn = 0) {
  DType dtype = value.dtype();
  return runKernel("TensorArrayWriteV3", AttrMap{{"T", dtype}},
                   {handle, i32({}, {index}), std::move(value), flow(flowIn)},
                   DType::F32);
}

StatusOr<Tensor> read(const Tensor &handle, int32_t index,
                      DType dtype = DType::F32) {
  return runKernel("TensorArrayReadV3", AttrMap{{"dtype", dtype}},
                   {handle, i32({}, {index}), flow()}, dtype);
}

StatusOr<Tensor> gather(const Tensor &handle, std::vector<int32_t> indices,
                        PartialShape elementShape = PartialShape::unknownRank(),
                        DType dtype = DType::F32) {
  int64_t n = static_cast<int64_t>(indices.size());
  return runKernel("TensorArrayGatherV3",
                   AttrMap{{"dtype", dtype}, {"element_shape", elementShape}},
                   {handle, i32({n}, indices), flow()}, dtype);
}

StatusOr<Tensor> scatter(const Tensor &handle, std::vector<int32_t> indices,
                         Tensor value) {
  int64_t n = static_cast<int64_t>(indices.size());
  DType dtype = value.dtype();
  return runKernel("TensorArrayScatterV3", AttrMap{{"T", dtype}},
                   {handle, i32({n}, indices), std::move(value), flow(3)},
                   DType::F32);
}

StatusOr<int32_t> size(const Tensor &handle) {
  StatusOr<Tensor> out =
      runKernel("TensorArraySizeV3", AttrMap(), {handle, flow()}, DType::I32);
  if (!out.ok())
    return out.status();
  return out->data<int32_t>()[0];
}

std::string message(const StatusOr<Tensor> &result) {
  return std::string(result.status().message());
}

TEST(TensorArray, WriteReadSize) {
  auto made = create(3);
  ASSERT_TRUE(made.ok()) << made.status();
  Tensor handle = (*made)[0];
  EXPECT_EQ(handle.dtype(), DType::Resource);
  expectValues<float>((*made)[1], {}, {0});
  // flow_out is flow_in.
  auto flowOut = write(handle, 0, f32({2}, {1, 2}), 7);
  ASSERT_TRUE(flowOut.ok()) << flowOut.status();
  expectValues<float>(*flowOut, {}, {7});
  ASSERT_TRUE(write(handle, 2, f32({2}, {5, 6})).ok());
  auto n = size(handle);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 3);
  auto two = read(handle, 2);
  ASSERT_TRUE(two.ok()) << two.status();
  expectValues<float>(*two, {2}, {5, 6});
  auto zero = read(handle, 0);
  ASSERT_TRUE(zero.ok()) << zero.status();
  expectValues<float>(*zero, {2}, {1, 2});
}

TEST(TensorArray, LivesWithItsHandle) {
  Tensor handle = handleOf(1);
  std::weak_ptr<Resource> array = getResourceHandle(handle)->owned;
  ASSERT_FALSE(array.expired());
  ASSERT_TRUE(write(handle, 0, f32({1}, {1})).ok());
  handle = Tensor();
  EXPECT_TRUE(array.expired());
}

TEST(TensorArray, ClearAfterRead) {
  Tensor handle = handleOf(1);
  ASSERT_TRUE(write(handle, 0, f32({1}, {4})).ok());
  ASSERT_TRUE(read(handle, 0).ok());
  EXPECT_EQ(message(read(handle, 0)),
            opError("TensorArrayReadV3",
                    "TensorArray loc(test): Could not read index 0 twice "
                    "because it was cleared after a previous read (perhaps "
                    "try setting clear_after_read = false?)."));
  EXPECT_EQ(message(write(handle, 0, f32({1}, {4}))),
            opError("TensorArrayWriteV3",
                    "TensorArray loc(test): Could not write to TensorArray "
                    "index 0 because it has already been read."));
  Options keep;
  keep.clearAfterRead = false;
  handle = handleOf(1, keep);
  ASSERT_TRUE(write(handle, 0, f32({1}, {4})).ok());
  ASSERT_TRUE(read(handle, 0).ok());
  auto again = read(handle, 0);
  ASSERT_TRUE(again.ok()) << again.status();
  expectValues<float>(*again, {1}, {4});
}

TEST(TensorArray, WriteErrors) {
  Options shaped;
  shaped.elementShape = PartialShape{2};
  Tensor handle = handleOf(3, shaped);
  ASSERT_TRUE(write(handle, 1, f32({2}, {1, 2})).ok());
  EXPECT_EQ(message(write(handle, 1, f32({2}, {1, 2}))),
            opError("TensorArrayWriteV3",
                    "TensorArray loc(test): Could not write to TensorArray "
                    "index 1 because it has already been written to."));
  EXPECT_EQ(message(write(handle, 3, f32({2}, {1, 2}))),
            opError("TensorArrayWriteV3",
                    "TensorArray loc(test): Tried to write to index 3 but "
                    "array is not resizeable and size is: 3"));
  EXPECT_EQ(message(write(handle, -1, f32({2}, {1, 2}))),
            opError("TensorArrayWriteV3",
                    "TensorArray loc(test): Tried to write to index -1 but "
                    "array is not resizeable and size is: 3"));
  EXPECT_EQ(message(write(handle, 0, f32({3}, {1, 2, 3}))),
            opError("TensorArrayWriteV3",
                    "TensorArray loc(test): Could not write to TensorArray "
                    "index 0 because the value shape is [3] which is "
                    "incompatible with the TensorArray's inferred element "
                    "shape: [2] (consider setting infer_shape=False)."));
  EXPECT_EQ(message(write(handle, 0, i32({2}, {1, 2}))),
            opError("TensorArrayWriteV3", "TensorArray dtype is f32 but Op is "
                                          "trying to write dtype i32."));
  EXPECT_EQ(message(read(handle, 1, DType::I32)),
            opError("TensorArrayReadV3",
                    "TensorArray dtype is f32 but Op requested dtype i32."));
  EXPECT_EQ(message(read(handle, 5)),
            opError("TensorArrayReadV3",
                    "Tried to read from index 5 but array size is: 3"));
  EXPECT_EQ(
      message(runKernel("TensorArrayReadV3", AttrMap{{"dtype", DType::F32}},
                        {handle, i32({1}, {0}), flow()}, DType::F32)),
      opError("TensorArrayReadV3",
              "TensorArray index must be scalar, but had shape: [1]"));
}

TEST(TensorArray, UnwrittenElements) {
  // A known element shape: zeros.
  Options shaped;
  shaped.elementShape = PartialShape{2};
  Tensor handle = handleOf(2, shaped);
  auto zeros = read(handle, 1);
  ASSERT_TRUE(zeros.ok()) << zeros.status();
  expectValues<float>(*zeros, {2}, {0, 0});
  // An unknown one: TensorFlow's error.
  handle = handleOf(2);
  EXPECT_EQ(
      message(read(handle, 1)),
      opError("TensorArrayReadV3",
              "TensorArray loc(test): Could not read from TensorArray index "
              "1.  Furthermore, the element shape is not fully defined: "
              "<unknown rank>.  It is possible you are working with a "
              "resizeable TensorArray and stop_gradients is not allowing the "
              "gradients to be written.  If you set the full element_shape "
              "property on the forward TensorArray, the proper all-zeros "
              "tensor will be returned instead of incurring this error."));
  // identical_element_shapes: the first write fixes the element shape.
  Options identical;
  identical.identicalShapes = true;
  handle = handleOf(2, identical);
  ASSERT_TRUE(write(handle, 0, f32({1, 2}, {1, 2})).ok());
  zeros = read(handle, 1);
  ASSERT_TRUE(zeros.ok()) << zeros.status();
  expectValues<float>(*zeros, {1, 2}, {0, 0});
}

TEST(TensorArray, DynamicSize) {
  Options dynamic;
  dynamic.dynamicSize = true;
  Tensor handle = handleOf(0, dynamic);
  ASSERT_TRUE(write(handle, 2, f32({}, {9})).ok());
  auto n = size(handle);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 3);
  ASSERT_TRUE(scatter(handle, {4}, f32({1}, {8})).ok());
  n = size(handle);
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 5);
  auto value = read(handle, 4);
  ASSERT_TRUE(value.ok()) << value.status();
  expectValues<float>(*value, {}, {8});
}

TEST(TensorArray, CreationErrors) {
  EXPECT_EQ(create(-1).status().message(),
            opError("TensorArrayV3", "Size should be >= 0."));
  EXPECT_EQ(create(int32_t(1) << 25).status().message(),
            opError("TensorArrayV3",
                    "a TensorArray of 33554432 elements exceeds this "
                    "runtime's limit of 16777216"));
  Options dynamic;
  dynamic.dynamicSize = true;
  Tensor handle = handleOf(0, dynamic);
  EXPECT_EQ(message(write(handle, int32_t(1) << 30, f32({}, {1}))),
            opError("TensorArrayWriteV3",
                    "a TensorArray of 1073741825 elements exceeds this "
                    "runtime's limit of 16777216"));
  // A variable's handle is no TensorArray.
  ResourceHandle variable;
  variable.name = "v";
  EXPECT_EQ(
      message(read(makeResourceTensor(variable), 0)),
      opError("TensorArrayReadV3", "input 0 is not a TensorArray handle"));
}

TEST(TensorArray, ScatterGather) {
  Tensor handle = handleOf(3);
  auto flowOut = scatter(handle, {2, 0}, f32({2, 2}, {1, 2, 3, 4}));
  ASSERT_TRUE(flowOut.ok()) << flowOut.status();
  expectValues<float>(*flowOut, {}, {3});
  auto gathered = gather(handle, {0, 2});
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  expectValues<float>(*gathered, {2, 2}, {3, 4, 1, 2});
  // Gathering nothing needs a known element shape.
  auto empty = gather(handle, {}, PartialShape{2});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({0, 2}));
  EXPECT_EQ(message(gather(handle, {})),
            opError("TensorArrayGatherV3",
                    "TensorArray has size zero, but element shape <unknown "
                    "rank> is not fully defined. Currently only static "
                    "shapes are supported when packing zero-size "
                    "TensorArrays."));
  EXPECT_EQ(gather(handle, {}).status().code(), StatusCode::kUnimplemented);
  // The gather's element shape merges into the array's.
  EXPECT_EQ(message(gather(handle, {}, PartialShape{3})),
            opError("TensorArrayGatherV3",
                    "Incompatible shapes during merge: [2] vs. [3]"));
}

TEST(TensorArray, GatherOtherDTypes) {
  Options bytes;
  bytes.dtype = DType::U8;
  Tensor handle = handleOf(2, bytes);
  ASSERT_TRUE(
      scatter(handle, {1, 0}, makeTensor<uint8_t>({2, 3}, {1, 2, 3, 4, 5, 6}))
          .ok());
  auto gathered =
      gather(handle, {0, 1}, PartialShape::unknownRank(), DType::U8);
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  expectValues<uint8_t>(*gathered, {2, 3}, {4, 5, 6, 1, 2, 3});
  Options ints;
  ints.dtype = DType::I64;
  handle = handleOf(1, ints);
  ASSERT_TRUE(write(handle, 0, i64({}, {-5})).ok());
  auto value = read(handle, 0, DType::I64);
  ASSERT_TRUE(value.ok()) << value.status();
  expectValues<int64_t>(*value, {}, {-5});
}

TEST(TensorArray, ScatterGatherErrors) {
  Tensor handle = handleOf(3);
  EXPECT_EQ(message(scatter(handle, {0}, f32({2, 1}, {1, 2}))),
            opError("TensorArrayScatterV3",
                    "Expected len(indices) == values.shape[0], but saw: 1 vs. "
                    "2"));
  EXPECT_EQ(message(scatter(handle, {3}, f32({1, 1}, {1}))),
            opError("TensorArrayScatterV3",
                    "Max scatter index must be < array size (3 vs. 3)"));
  EXPECT_EQ(message(scatter(handle, {0}, f32({}, {1}))),
            opError("TensorArrayScatterV3",
                    "Input value for unpack must be at least a vector but "
                    "received shape: []"));
  // Elements of different shapes do not stack.
  ASSERT_TRUE(write(handle, 0, f32({2}, {1, 2})).ok());
  ASSERT_TRUE(write(handle, 1, f32({3}, {1, 2, 3})).ok());
  EXPECT_EQ(message(gather(handle, {0, 1})),
            opError("TensorArrayGatherV3",
                    "TensorArray has inconsistent shapes.  Index 0 has shape: "
                    "[2] but index 1 has shape: [3]"));
  EXPECT_EQ(
      message(runKernel("TensorArrayGatherV3", AttrMap{{"dtype", DType::F32}},
                        {handle, i32({}, {0}), flow()}, DType::F32)),
      opError("TensorArrayGatherV3",
              "Expected indices to be a vector, but received shape: []"));
}

TEST(TensorArray, SplitConcat) {
  Tensor handle = handleOf(2);
  auto flowOut = runKernel(
      "TensorArraySplitV3", AttrMap{{"T", DType::F32}},
      {handle, f32({3, 1}, {1, 2, 3}), i64({2}, {1, 2}), flow(5)}, DType::F32);
  ASSERT_TRUE(flowOut.ok()) << flowOut.status();
  expectValues<float>(*flowOut, {}, {5});
  // Concat reads every element: with clear_after_read, read none before.
  auto concat = runKernelN("TensorArrayConcatV3",
                           AttrMap{{"dtype", DType::F32},
                                   {"element_shape_except0", PartialShape{1}}},
                           {handle, flow()}, {DType::F32, DType::I64});
  ASSERT_TRUE(concat.ok()) << concat.status();
  expectValues<float>((*concat)[0], {3, 1}, {1, 2, 3});
  expectValues<int64_t>((*concat)[1], {2}, {1, 2});

  handle = handleOf(2);
  auto split = [&](Tensor value, std::vector<int64_t> lengths) {
    int64_t n = static_cast<int64_t>(lengths.size());
    return runKernel("TensorArraySplitV3", AttrMap{{"T", DType::F32}},
                     {handle, std::move(value), i64({n}, lengths), flow()},
                     DType::F32);
  };
  EXPECT_EQ(message(split(f32({3, 1}, {1, 2, 3}), {1, 1})),
            opError("TensorArraySplitV3",
                    "Expected sum of lengths to be equal to values.shape[0], "
                    "but sum of lengths is 2 and value's shape is: [3,1]"));
  EXPECT_EQ(message(split(f32({3, 1}, {1, 2, 3}), {1, 1, 1})),
            opError("TensorArraySplitV3",
                    "TensorArray's size is not equal to the size of lengths (2 "
                    "vs. 3), and the TensorArray is not marked as dynamically "
                    "resizeable"));
  EXPECT_EQ(message(split(f32({}, {1}), {1, 0})),
            opError("TensorArraySplitV3",
                    "Expected value to be at least a vector, but received "
                    "shape: []"));
  // Scalar elements do not concatenate.
  ASSERT_TRUE(write(handle, 0, f32({}, {1})).ok());
  ASSERT_TRUE(write(handle, 1, f32({}, {2})).ok());
  EXPECT_EQ(runKernelN("TensorArrayConcatV3", AttrMap{{"dtype", DType::F32}},
                       {handle, flow()}, {DType::F32, DType::I64})
                .status()
                .message(),
            opError("TensorArrayConcatV3",
                    "Concat saw a scalar shape at index 0 but requires at "
                    "least vectors.  Did you mean to call pack?"));
}

TEST(TensorArray, Close) {
  Tensor handle = handleOf(2);
  ASSERT_TRUE(write(handle, 0, f32({}, {1})).ok());
  auto closed = runKernelN("TensorArrayCloseV3", AttrMap(), {handle},
                           std::vector<DType>{});
  ASSERT_TRUE(closed.ok()) << closed.status();
  EXPECT_EQ(size(handle).status().message(),
            opError("TensorArraySizeV3",
                    "TensorArray loc(test) has already been closed."));
  EXPECT_EQ(message(read(handle, 0)),
            opError("TensorArrayReadV3",
                    "TensorArray loc(test) has already been closed."));
}

//===----------------------------------------------------------------------===//
// V1 and V2: string handles
//===----------------------------------------------------------------------===//

/// TensorArrayV2 (or TensorArray, V1): the string handle.
StatusOr<Tensor> createV2(int32_t size, std::string name = "",
                          Options options = {},
                          const std::string &op = "TensorArrayV2") {
  AttrMap attrs{{"dtype", options.dtype},
                {"element_shape", options.elementShape},
                {"dynamic_size", options.dynamicSize},
                {"clear_after_read", options.clearAfterRead},
                {"tensor_array_name", std::move(name)}};
  return runKernel(op, attrs, {i32({}, {size})}, DType::String);
}

std::vector<std::string> stringsOf(const Tensor &t) {
  std::vector<std::string> out;
  for (std::string_view s : stringElements(t))
    out.emplace_back(s);
  return out;
}

TEST(TensorArrayV2, StringHandle) {
  auto handle = createV2(2, "numbers");
  ASSERT_TRUE(handle.ok()) << handle.status();
  ASSERT_EQ(handle->dtype(), DType::String);
  ASSERT_EQ(handle->shape(), TensorShape({2}));
  std::vector<std::string> strings = stringsOf(*handle);
  EXPECT_EQ(strings[0], "_tensor_arrays");
  // TensorFlow's unique name: the name, "_" and a counter.
  EXPECT_EQ(strings[1].rfind("numbers_", 0), 0u) << strings[1];
  auto other = createV2(2, "numbers");
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_NE(stringsOf(*other)[1], strings[1]);
  // Without a name, the node's.
  auto unnamed = createV2(1);
  ASSERT_TRUE(unnamed.ok()) << unnamed.status();
  EXPECT_EQ(stringsOf(*unnamed)[1].rfind("loc(test)_", 0), 0u);
}

TEST(TensorArrayV2, WriteReadGatherSizeClose) {
  auto made = createV2(3);
  ASSERT_TRUE(made.ok()) << made.status();
  Tensor handle = *made;
  auto flowOut =
      runKernel("TensorArrayWriteV2", AttrMap{{"T", DType::F32}},
                {handle, i32({}, {1}), f32({2}, {3, 4}), flow(6)}, DType::F32);
  ASSERT_TRUE(flowOut.ok()) << flowOut.status();
  expectValues<float>(*flowOut, {}, {6});
  flowOut =
      runKernel("TensorArrayScatterV2", AttrMap{{"T", DType::F32}},
                {handle, i32({2}, {2, 0}), f32({2, 2}, {5, 6, 1, 2}), flow(7)},
                DType::F32);
  ASSERT_TRUE(flowOut.ok()) << flowOut.status();
  expectValues<float>(*flowOut, {}, {7});
  auto n =
      runKernel("TensorArraySizeV2", AttrMap(), {handle, flow()}, DType::I32);
  ASSERT_TRUE(n.ok()) << n.status();
  expectValues<int32_t>(*n, {}, {3});
  auto one = runKernel("TensorArrayReadV2", AttrMap{{"dtype", DType::F32}},
                       {handle, i32({}, {1}), flow()}, DType::F32);
  ASSERT_TRUE(one.ok()) << one.status();
  expectValues<float>(*one, {2}, {3, 4});
  auto gathered = runKernel(
      "TensorArrayGatherV2",
      AttrMap{{"dtype", DType::F32}, {"element_shape", PartialShape{2}}},
      {handle, i32({2}, {2, 0}), flow()}, DType::F32);
  ASSERT_TRUE(gathered.ok()) << gathered.status();
  expectValues<float>(*gathered, {2, 2}, {5, 6, 1, 2});
  auto closed = runKernelN("TensorArrayCloseV2", AttrMap(), {handle},
                           std::vector<DType>{});
  ASSERT_TRUE(closed.ok()) << closed.status();
  EXPECT_EQ(
      runKernel("TensorArraySizeV2", AttrMap(), {handle, flow()}, DType::I32)
          .status()
          .message(),
      opError("TensorArraySizeV2",
              "TensorArray loc(test) has already been closed."));
}

TEST(TensorArrayV2, SplitConcat) {
  auto made = createV2(2);
  ASSERT_TRUE(made.ok()) << made.status();
  Tensor handle = *made;
  ASSERT_TRUE(runKernel("TensorArraySplitV2", AttrMap{{"T", DType::I32}},
                        {handle, i32({3}, {7, 8, 9}), i64({2}, {2, 1}), flow()},
                        DType::F32)
                  .status()
                  .message()
                  .find("TensorArray dtype is f32") != std::string::npos);
  Options ints;
  ints.dtype = DType::I32;
  made = createV2(2, "", ints);
  ASSERT_TRUE(made.ok()) << made.status();
  handle = *made;
  auto split = runKernel(
      "TensorArraySplitV2", AttrMap{{"T", DType::I32}},
      {handle, i32({3}, {7, 8, 9}), i64({2}, {2, 1}), flow(2)}, DType::F32);
  ASSERT_TRUE(split.ok()) << split.status();
  expectValues<float>(*split, {}, {2});
  auto joined =
      runKernelN("TensorArrayConcatV2", AttrMap{{"dtype", DType::I32}},
                 {handle, flow()}, {DType::I32, DType::I64});
  ASSERT_TRUE(joined.ok()) << joined.status();
  expectValues<int32_t>((*joined)[0], {3}, {7, 8, 9});
  expectValues<int64_t>((*joined)[1], {2}, {2, 1});
}

TEST(TensorArrayV1, PackUnpack) {
  auto made = createV2(3, "v1", {}, "TensorArray");
  ASSERT_TRUE(made.ok()) << made.status();
  Tensor handle = *made;
  EXPECT_EQ(stringsOf(handle)[0], "_tensor_arrays");
  auto flowOut =
      runKernel("TensorArrayUnpack", AttrMap{{"T", DType::F32}},
                {handle, f32({3, 2}, {1, 2, 3, 4, 5, 6}), flow(4)}, DType::F32);
  ASSERT_TRUE(flowOut.ok()) << flowOut.status();
  expectValues<float>(*flowOut, {}, {4});
  auto packed = runKernel("TensorArrayPack", AttrMap{{"dtype", DType::F32}},
                          {handle, flow()}, DType::F32);
  ASSERT_TRUE(packed.ok()) << packed.status();
  expectValues<float>(*packed, {3, 2}, {1, 2, 3, 4, 5, 6});
  // Unpack needs as many rows as elements.
  made = createV2(2, "", {}, "TensorArray");
  ASSERT_TRUE(made.ok()) << made.status();
  handle = *made;
  EXPECT_EQ(runKernel("TensorArrayUnpack", AttrMap{{"T", DType::F32}},
                      {handle, f32({3}, {1, 2, 3}), flow()}, DType::F32)
                .status()
                .message(),
            opError("TensorArrayUnpack",
                    "Input value must have first dimension equal to the array "
                    "size (3 vs. 2)"));
  EXPECT_EQ(runKernel("TensorArrayUnpack", AttrMap{{"T", DType::F32}},
                      {handle, f32({}, {1}), flow()}, DType::F32)
                .status()
                .message(),
            opError("TensorArrayUnpack",
                    "Input value for unpack must be at least a vector but "
                    "received shape: []"));
  // With dynamic_size, Unpack grows the array to the rows.
  Options dynamic;
  dynamic.dynamicSize = true;
  made = createV2(0, "", dynamic, "TensorArray");
  ASSERT_TRUE(made.ok()) << made.status();
  handle = *made;
  ASSERT_TRUE(runKernel("TensorArrayUnpack", AttrMap{{"T", DType::F32}},
                        {handle, f32({2}, {8, 9}), flow()}, DType::F32)
                  .ok());
  auto n =
      runKernel("TensorArraySize", AttrMap(), {handle, flow()}, DType::I32);
  ASSERT_TRUE(n.ok()) << n.status();
  expectValues<int32_t>(*n, {}, {2});
  auto one = runKernel("TensorArrayRead", AttrMap{{"dtype", DType::F32}},
                       {handle, i32({}, {1}), flow()}, DType::F32);
  ASSERT_TRUE(one.ok()) << one.status();
  expectValues<float>(*one, {}, {9});
}

TEST(TensorArrayV1, PackEmpty) {
  auto made = createV2(0, "", {}, "TensorArray");
  ASSERT_TRUE(made.ok()) << made.status();
  auto packed = runKernel(
      "TensorArrayPack",
      AttrMap{{"dtype", DType::F32}, {"element_shape", PartialShape{2}}},
      {*made, flow()}, DType::F32);
  ASSERT_TRUE(packed.ok()) << packed.status();
  EXPECT_EQ(packed->shape(), TensorShape({0, 2}));
  auto unknown = runKernel("TensorArrayPack", AttrMap{{"dtype", DType::F32}},
                           {*made, flow()}, DType::F32);
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnimplemented);
}

TEST(TensorArrayV2, HandleErrors) {
  // Not two strings.
  StatusOr<Tensor> three = makeStringTensor(
      TensorShape{3}, std::vector<std::string_view>{"a", "b", "c"});
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(
      runKernel("TensorArraySizeV2", AttrMap(), {*three, flow()}, DType::I32)
          .status()
          .message(),
      opError("TensorArraySizeV2", "Tensor array handle must be 2-element "
                                   "vector, but had shape: [3]"));
  // No such array.
  StatusOr<Tensor> unknown = makeStringTensor(
      TensorShape{2}, std::vector<std::string_view>{"_tensor_arrays", "x_0"});
  ASSERT_TRUE(unknown.ok());
  auto missing =
      runKernel("TensorArraySizeV2", AttrMap(), {*unknown, flow()}, DType::I32);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(),
            opError("TensorArraySizeV2",
                    "Resource _tensor_arrays/x_0 does not exist."));
  // A copy of the strings finds the array while its handle lives, and not
  // after: the handle owns the array.
  auto made = createV2(4);
  ASSERT_TRUE(made.ok()) << made.status();
  std::vector<std::string> strings = stringsOf(*made);
  StatusOr<Tensor> copy = makeStringTensor(
      TensorShape{2}, std::vector<std::string_view>{strings[0], strings[1]});
  ASSERT_TRUE(copy.ok());
  auto n =
      runKernel("TensorArraySizeV2", AttrMap(), {*copy, flow()}, DType::I32);
  ASSERT_TRUE(n.ok()) << n.status();
  expectValues<int32_t>(*n, {}, {4});
  made = Tensor();
  EXPECT_EQ(
      runKernel("TensorArraySizeV2", AttrMap(), {*copy, flow()}, DType::I32)
          .status()
          .code(),
      StatusCode::kNotFound);
}

} // namespace
