//===- RegexKernels.cpp - RegexReplace, RegexFullMatch ----------*- C++ -*-===//
//
// TensorFlow's regular-expression ops (tensorflow/core/kernels/
// regex_replace_op.cc, regex_full_match_op.cc) on RE2, the library TF
// uses (Debian's libre2): RegexReplace and RegexFullMatch take the pattern
// (and rewrite) as scalar string operands, StaticRegexReplace and
// StaticRegexFullMatch as attributes, compiled once when the kernel is
// made. Patterns are RE2 syntax; the rewrite names groups \0..\9.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <re2/re2.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

re2::StringPiece piece(std::string_view s) {
  return re2::StringPiece(s.data(), s.size());
}

/// Compiles `pattern`; TF's "Invalid pattern: p, error: e".
Status compile(const OpKernel &op, std::string_view pattern,
               std::unique_ptr<RE2> *out) {
  auto re = std::make_unique<RE2>(piece(pattern), RE2::Quiet);
  if (!re->ok())
    return op.errorf("Invalid pattern: %s, error: %s", pattern, re->error());
  *out = std::move(re);
  return OkStatus();
}

/// Replaces the first (or every, `global`) match of `re` in each element
/// of `in` by `rewrite`; TF's "Invalid rewrite pattern: r, error: e".
void replace(const OpKernel &op, OpKernelContextInterface *ctx, const RE2 &re,
             std::string_view rewrite, bool global) {
  std::string error;
  if (!re.CheckRewriteString(piece(rewrite), &error))
    return ctx->ctxFailure(
        op.errorf("Invalid rewrite pattern: %s, error: %s", rewrite, error));
  const Tensor &in = ctx->input(0);
  std::vector<std::string> out;
  out.reserve(in.numElements());
  for (std::string_view s : stringElements(in)) {
    std::string &o = out.emplace_back(s);
    if (global)
      RE2::GlobalReplace(&o, re, piece(rewrite));
    else
      RE2::Replace(&o, re, piece(rewrite));
  }
  std::vector<std::string_view> views(out.begin(), out.end());
  StatusOr<Tensor> t = makeStringTensor(in.shape(), views);
  if (!t.ok())
    return ctx->ctxFailure(t.status());
  ctx->setOutput(0, *std::move(t));
}

/// Writes whether each element of input 0 matches `re` entirely.
void fullMatch(OpKernelContextInterface *ctx, const RE2 &re) {
  const Tensor &in = ctx->input(0);
  Tensor *out = nullptr;
  if (Status s = ctx->allocateOutput(0, in.shape(), &out); !s.ok())
    return ctx->ctxFailure(s);
  bool *po = out->data<bool>();
  for (std::string_view s : stringElements(in))
    *po++ = RE2::FullMatch(piece(s), re);
}

/// Checks that input `i` (named `what`) is a scalar: TF's "Pattern must be
/// scalar, but received [2]" / "Replacement pattern must be scalar, but
/// received [2]".
Status checkScalar(const OpKernel &op, const Tensor &t, const char *what) {
  if (!t.shape().isScalar())
    return op.errorf("%s must be scalar, but received %s", what,
                     t.shape().toString());
  return OkStatus();
}

/// RegexReplace(input, pattern, rewrite: string; replace_global = true).
class RegexReplaceKernel final : public OpKernel {
public:
  explicit RegexReplaceKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "replace_global", &global_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkScalar(*this, ctx->input(1), "Pattern"));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, checkScalar(*this, ctx->input(2), "Replacement pattern"));
    std::unique_ptr<RE2> re;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, compile(*this, stringElements(ctx->input(1))[0], &re));
    replace(*this, ctx, *re, stringElements(ctx->input(2))[0], global_);
  }

private:
  bool global_ = true;
};

/// StaticRegexReplace(input: string; pattern, rewrite, replace_global).
class StaticRegexReplaceKernel final : public OpKernel {
public:
  explicit StaticRegexReplaceKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string pattern;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("pattern", &pattern));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("rewrite", &rewrite_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "replace_global", &global_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, compile(*this, pattern, &re_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    replace(*this, ctx, *re_, rewrite_, global_);
  }

private:
  std::unique_ptr<RE2> re_;
  std::string rewrite_;
  bool global_ = true;
};

/// RegexFullMatch(input, pattern: string) -> bool.
class RegexFullMatchKernel final : public OpKernel {
public:
  explicit RegexFullMatchKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkScalar(*this, ctx->input(1), "Pattern"));
    std::unique_ptr<RE2> re;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, compile(*this, stringElements(ctx->input(1))[0], &re));
    fullMatch(ctx, *re);
  }
};

/// StaticRegexFullMatch(input: string; pattern) -> bool.
class StaticRegexFullMatchKernel final : public OpKernel {
public:
  explicit StaticRegexFullMatchKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string pattern;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("pattern", &pattern));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, compile(*this, pattern, &re_));
  }

  void compute(OpKernelContextInterface *ctx) override { fullMatch(ctx, *re_); }

private:
  std::unique_ptr<RE2> re_;
};

} // namespace

void registerRegexKernels(KernelRegistry &registry) {
  registerKernel<OpId::kRegexReplace, RegexReplaceKernel>(registry);
  registerKernel<OpId::kStaticRegexReplace, StaticRegexReplaceKernel>(registry);
  registerKernel<OpId::kRegexFullMatch, RegexFullMatchKernel>(registry);
  registerKernel<OpId::kStaticRegexFullMatch, StaticRegexFullMatchKernel>(
      registry);
}

} // namespace tfrt_fallback::rt
