//===- ResourceTest.cpp - Resource handles and the resource manager -------===//

#include "tfrt_fallback/Runtime/Resource.h"

#include "gtest/gtest.h"

#include <thread>
#include <vector>

using namespace tfrt_fallback::rt;

namespace {

ResourceHandle handle(std::string container, std::string name) {
  ResourceHandle h;
  h.container = std::move(container);
  h.name = std::move(name);
  h.dtype = DType::F32;
  return h;
}

TEST(ResourceTest, TensorsHoldHandles) {
  Tensor t = makeResourceTensor(handle("c", "v"));
  EXPECT_EQ(t.dtype(), DType::Resource);
  EXPECT_EQ(t.rank(), 0);
  const ResourceHandle *h = getResourceHandle(t);
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->debugName(), "c/v");
  EXPECT_EQ(handle("", "v").debugName(), "v");
  // A copy shares the handle; other tensors hold none.
  Tensor copy = t;
  EXPECT_EQ(getResourceHandle(copy), h);
  EXPECT_EQ(getResourceHandle(*Tensor::allocate(DType::F32, TensorShape{})),
            nullptr);
}

TEST(ResourceTest, ManagerFindsByContainerAndName) {
  ResourceManager manager;
  EXPECT_EQ(manager.lookup(handle("", "v")).status().code(),
            StatusCode::kNotFound);
  int made = 0;
  auto make = [&] {
    ++made;
    return std::make_shared<Var>(DType::F32);
  };
  std::shared_ptr<Resource> a = manager.lookupOrCreate(handle("", "v"), make);
  std::shared_ptr<Resource> b = manager.lookupOrCreate(handle("", "v"), make);
  std::shared_ptr<Resource> c = manager.lookupOrCreate(handle("x", "v"), make);
  std::shared_ptr<Resource> d = manager.lookupOrCreate(handle("x", ""), make);
  EXPECT_NE(d, c);
  EXPECT_EQ(made, 3);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(a->kind(), "Var");
  EXPECT_EQ(*manager.lookup(handle("x", "v")), c);
  EXPECT_TRUE(manager.erase(handle("", "v")).ok());
  EXPECT_EQ(manager.erase(handle("", "v")).code(), StatusCode::kNotFound);
  // The erased variable lives on while someone holds it.
  EXPECT_EQ(static_cast<Var &>(*a).dtype(), DType::F32);
}

TEST(ResourceTest, ConcurrentCreatorsGetOneResource) {
  ResourceManager manager;
  std::vector<std::shared_ptr<Resource>> got(8);
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([&, i] {
      got[i] = manager.lookupOrCreate(handle("", "shared"), [] {
        return std::make_shared<Var>(DType::I32);
      });
    });
  for (std::thread &t : threads)
    t.join();
  for (const auto &r : got)
    EXPECT_EQ(r, got[0]);
}

} // namespace
