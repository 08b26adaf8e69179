//===- AttrTest.cpp - AttrValue / AttrMap / PartialShape tests --*- C++ -*-===//
//
// Attribute kinds, printing, sorted lookup and partial shapes.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Attr.h"

#include "gtest/gtest.h"

using namespace tfrt_fallback::rt;

namespace {

TEST(AttrValueTest, Kinds) {
  EXPECT_EQ(AttrValue(int64_t(3)).kind(), AttrValue::Kind::Int);
  EXPECT_EQ(AttrValue(3).kind(), AttrValue::Kind::Int);
  EXPECT_EQ(AttrValue(1.5f).kind(), AttrValue::Kind::Float);
  EXPECT_EQ(AttrValue(true).kind(), AttrValue::Kind::Bool);
  EXPECT_EQ(AttrValue("SAME").kind(), AttrValue::Kind::String);
  EXPECT_EQ(AttrValue(DType::F32).kind(), AttrValue::Kind::DType);
  EXPECT_EQ(AttrValue(PartialShape{2, -1}).kind(), AttrValue::Kind::Shape);
  EXPECT_EQ(AttrValue(Tensor()).kind(), AttrValue::Kind::Tensor);
  EXPECT_EQ(AttrValue(FuncAttr{"body"}).kind(), AttrValue::Kind::Func);
  EXPECT_EQ(AttrValue(std::vector<int64_t>{1, 2}).kind(),
            AttrValue::Kind::IntList);
  EXPECT_EQ(AttrValue(std::vector<DType>{DType::F32}).kind(),
            AttrValue::Kind::DTypeList);
  EXPECT_TRUE(AttrValue(std::vector<float>{}).isList());
  EXPECT_FALSE(AttrValue(1).isList());
  EXPECT_EQ(AttrValue(std::vector<std::string>{"a", "b"}).listSize(), 2u);
}

TEST(AttrValueTest, ToString) {
  EXPECT_EQ(AttrValue(3).toString(), "3");
  EXPECT_EQ(AttrValue(true).toString(), "true");
  EXPECT_EQ(AttrValue("x").toString(), "\"x\"");
  EXPECT_EQ(AttrValue(DType::Bool).toString(), "i1");
  EXPECT_EQ(AttrValue(std::vector<int64_t>{1, 2, 3}).toString(), "[1,2,3]");
  EXPECT_EQ(AttrValue(std::vector<bool>{true, false}).toString(),
            "[true,false]");
  EXPECT_EQ(AttrValue(FuncAttr{"f"}).toString(), "@f");
  EXPECT_EQ(AttrValue(PartialShape()).toString(), "<unknown rank>");
}

TEST(PartialShapeTest, Basics) {
  PartialShape unknown;
  EXPECT_FALSE(unknown.hasRank());
  EXPECT_EQ(unknown.rank(), -1);
  EXPECT_FALSE(unknown.isFullyDefined());
  EXPECT_TRUE(unknown.isCompatibleWith(TensorShape{1, 2}));

  PartialShape partial{2, -1, 3};
  EXPECT_EQ(partial.toString(), "[2,?,3]");
  EXPECT_FALSE(partial.isFullyDefined());
  EXPECT_TRUE(partial.isCompatibleWith(TensorShape{2, 7, 3}));
  EXPECT_FALSE(partial.isCompatibleWith(TensorShape{2, 7}));
  EXPECT_FALSE(partial.isCompatibleWith(TensorShape{1, 7, 3}));
  EXPECT_EQ(partial.toTensorShape().status(),
            InvalidArgumentError("shape [2,?,3] is not fully defined"));

  PartialShape full{4, 5};
  auto shape = full.toTensorShape();
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(*shape, (TensorShape{4, 5}));
  EXPECT_EQ(PartialShape(absl::Span<const int64_t>()).toString(), "[]");
}

TEST(AttrMapTest, SortedLookup) {
  AttrMap attrs = {{"T", DType::F32},
                   {"strides", std::vector<int64_t>{1, 2, 2, 1}},
                   {"padding", "SAME"}};
  ASSERT_EQ(attrs.size(), 3u);
  std::vector<std::string> names;
  for (const auto &[name, value] : attrs)
    names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"T", "padding", "strides"}));
  ASSERT_NE(attrs.find("padding"), nullptr);
  EXPECT_EQ(*attrs.find("padding")->getIf<std::string>(), "SAME");
  EXPECT_EQ(attrs.find("missing"), nullptr);
  EXPECT_TRUE(attrs.contains("T"));

  attrs.set("T", DType::I32);
  EXPECT_EQ(*attrs.find("T")->getIf<DType>(), DType::I32);
  attrs.set("alpha", 0.5f);
  EXPECT_EQ(attrs.begin()->first, "T");
  EXPECT_EQ(attrs.size(), 4u);
}

TEST(AttrMapTest, FromEntries) {
  std::vector<AttrMap::Entry> entries = {{"b", 1}, {"a", 2}};
  auto map = AttrMap::fromEntries(std::move(entries));
  ASSERT_TRUE(map.ok());
  EXPECT_EQ(map->begin()->first, "a");
  EXPECT_EQ(*map->find("b")->getIf<int64_t>(), 1);

  std::vector<AttrMap::Entry> dup = {{"x", 1}, {"y", 2}, {"x", 3}};
  EXPECT_EQ(AttrMap::fromEntries(std::move(dup)).status(),
            InvalidArgumentError("duplicate attribute 'x'"));
}

} // namespace
