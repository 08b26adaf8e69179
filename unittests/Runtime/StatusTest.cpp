//===- StatusTest.cpp - Status, StatusOr and strSubstitute --------------===//

#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/StrCat.h"

#include "gtest/gtest.h"

#include <memory>
#include <sstream>

namespace tfrt_fallback::rt {
namespace {

TEST(Status, OkAndErrors) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), StatusCode::kOk);
  EXPECT_EQ(ok.message(), "");
  EXPECT_EQ(ok.ToString(), "OK");
  EXPECT_TRUE(Status(StatusCode::kOk, "dropped").ok());

  Status error = NotFoundError("no kernel");
  EXPECT_FALSE(error.ok());
  EXPECT_TRUE(IsNotFound(error));
  EXPECT_FALSE(IsInternal(error));
  // absl::StatusCode's numbers, which the C API returns.
  EXPECT_EQ(static_cast<int>(error.code()), 5);
  EXPECT_EQ(static_cast<int>(DataLossError("x").code()), 15);
  EXPECT_EQ(error.ToString(), "NOT_FOUND: no kernel");
  std::ostringstream os;
  os << DeadlineExceededError("late");
  EXPECT_EQ(os.str(), "DEADLINE_EXCEEDED: late");
}

TEST(Status, CopiesAreIndependentAndEqual) {
  Status a = InvalidArgumentError("bad");
  Status b = a;
  EXPECT_EQ(a, b);
  a = OkStatus();
  EXPECT_TRUE(a.ok());
  EXPECT_EQ(b.message(), "bad");
  EXPECT_NE(a, b);
  Status c = std::move(b);
  EXPECT_EQ(c.message(), "bad");
  EXPECT_NE(c, InvalidArgumentError("other"));
  EXPECT_NE(c, InternalError("bad"));
}

TEST(StatusOr, ValueOrError) {
  StatusOr<int> value = 42;
  ASSERT_TRUE(value.ok());
  EXPECT_TRUE(value.status().ok());
  EXPECT_EQ(*value, 42);
  StatusOr<int> error = OutOfRangeError("too far");
  EXPECT_FALSE(error.ok());
  EXPECT_EQ(error.status().code(), StatusCode::kOutOfRange);
  // An OK status carries no value: an Internal error, as in absl.
  StatusOr<int> misuse = OkStatus();
  EXPECT_EQ(misuse.status().code(), StatusCode::kInternal);
}

TEST(StatusOr, MoveOnlyValuesAndConversions) {
  StatusOr<std::unique_ptr<int>> p = std::make_unique<int>(7);
  ASSERT_TRUE(p.ok());
  std::unique_ptr<int> owned = *std::move(p);
  EXPECT_EQ(*owned, 7);
  struct Base {
    virtual ~Base() = default;
  };
  struct Derived : Base {};
  StatusOr<std::unique_ptr<Derived>> d = std::make_unique<Derived>();
  StatusOr<std::unique_ptr<Base>> b = std::move(d);
  EXPECT_TRUE(b.ok());
  StatusOr<std::unique_ptr<Derived>> e = AbortedError("stop");
  StatusOr<std::unique_ptr<Base>> f = std::move(e);
  EXPECT_EQ(f.status().code(), StatusCode::kAborted);
}

TEST(StrSubstitute, ReplacesConversionsInOrder) {
  EXPECT_EQ(strSubstitute("In[0] has shape %s and rank %d", "[2,3]", 2),
            "In[0] has shape [2,3] and rank 2");
  EXPECT_EQ(strSubstitute("100%% of %d", size_t(3)), "100% of 3");
  EXPECT_EQ(strSubstitute("%d and %s", int64_t(-7), 0.5), "-7 and 0.5");
  // Too few arguments: the conversion stays; too many: appended.
  EXPECT_EQ(strSubstitute("a %d b %s", "1"), "a 1 b %s");
  EXPECT_EQ(strSubstitute("x", 1, std::string("2")), "x 1 2");
  EXPECT_EQ(strSubstitute("%"), "%");
  EXPECT_EQ(strSubstitute("50%"), "50%");
}

} // namespace
} // namespace tfrt_fallback::rt
