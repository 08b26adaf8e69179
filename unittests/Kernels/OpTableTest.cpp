//===- OpTableTest.cpp - the op table against the kernels -------*- C++ -*-===//
//
// Every op with a registered kernel has a row in OpTable.def, every row
// parses, and each row's facts agree with one another (input counts with
// the signature, defaults with the attributes they belong to) and with the
// kernels (every attribute a kernel constrains types some operand).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/OpTable.h"

#include "KernelTestUtils.h"

#include <map>
#include <set>
#include <string>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// The rows as OpTable.def writes them.
struct RawRow {
  const char *name;
  const char *inputs;
  const char *outputs;
};
constexpr RawRow kRawRows[] = {
#define TF_OP(Name, Effects, MinInputs, MaxInputs, Shape, Buffer, Fusion,      \
              Inputs, Outputs)                                                 \
  {#Name, Inputs, Outputs},
#include "tfrt_fallback/Runtime/OpTable.def"
};

bool isVariadic(const OpArg &arg) {
  return arg.kind == OpArg::Kind::TypeListAttr || !arg.count.empty();
}

TEST(OpTable, EveryOpWithAKernelHasARow) {
  for (const KernelDef *def : kernelRegistry().listKernels())
    EXPECT_NE(lookupOp(def->opName()), nullptr)
        << def->opName() << " has kernels but no row in OpTable.def";
}

TEST(OpTable, RowsAreSortedAndParse) {
  std::string previous;
  for (const RawRow &row : kRawRows) {
    EXPECT_LT(previous, row.name) << "rows must be sorted and unique";
    previous = row.name;
    for (const char *text : {row.inputs, row.outputs}) {
      StatusOr<std::vector<OpArg>> args = parseOpArgs(text);
      EXPECT_TRUE(args.ok()) << row.name << ": " << args.status();
    }
    ASSERT_NE(lookupOp(row.name), nullptr) << row.name;
    EXPECT_EQ(lookupOp(row.name)->name, row.name);
  }
  EXPECT_EQ(lookupOp("NoSuchOp"), nullptr);
}

TEST(OpTable, InputCountsMatchTheSignature) {
  for (const RawRow &row : kRawRows) {
    const OpInfo &op = *lookupOp(row.name);
    int single = 0;
    bool variadic = false;
    for (const OpArg &arg : op.inputs) {
      if (isVariadic(arg))
        variadic = true;
      else
        ++single;
    }
    if (variadic) {
      EXPECT_EQ(op.maxInputs, -1) << row.name << " takes variadic inputs";
      EXPECT_GE(op.minInputs, single) << row.name;
    } else {
      EXPECT_EQ(op.minInputs, single) << row.name;
      EXPECT_EQ(op.maxInputs, single) << row.name;
    }
  }
}

TEST(OpTable, AttributesAreUsedConsistently) {
  for (const RawRow &row : kRawRows) {
    const OpInfo &op = *lookupOp(row.name);
    std::map<std::string, OpArg::Kind> typeAttrs;
    std::set<std::string> countAttrs;
    std::map<std::string, int> defaults;
    for (const auto *side : {&op.inputs, &op.outputs}) {
      for (const OpArg &arg : *side) {
        if (!arg.count.empty())
          countAttrs.insert(std::string(arg.count));
        if (arg.kind == OpArg::Kind::Fixed)
          continue;
        auto [it, inserted] = typeAttrs.emplace(arg.type, arg.kind);
        EXPECT_EQ(it->second, arg.kind)
            << row.name << ": " << arg.type << " is a type and a type list";
        if (!arg.defaultType.empty()) {
          ++defaults[std::string(arg.type)];
          EXPECT_EQ(side, &op.outputs)
              << row.name << ": defaults are written on outputs";
        }
      }
    }
    for (const std::string &count : countAttrs)
      EXPECT_FALSE(typeAttrs.count(count))
          << row.name << ": " << count << " counts and types";
    for (const auto &[attr, times] : defaults)
      EXPECT_EQ(times, 1) << row.name << ": " << attr << "'s default twice";
  }
}

TEST(OpTable, KernelConstraintsAreTypeAttributes) {
  for (const KernelDef *def : kernelRegistry().listKernels()) {
    const OpInfo *op = lookupOp(def->opName());
    if (!op)
      continue; // EveryOpWithAKernelHasARow reports it.
    for (const TypeConstraint &constraint : def->constraints()) {
      bool found = false;
      for (const auto *side : {&op->inputs, &op->outputs})
        for (const OpArg &arg : *side)
          found |=
              arg.kind != OpArg::Kind::Fixed && arg.type == constraint.attrName;
      EXPECT_TRUE(found) << def->opName() << "'s kernel constrains "
                         << constraint.attrName
                         << ", which types none of its operands";
    }
  }
}

TEST(OpTable, SeveralOutputArgumentsAreNamed) {
  for (const RawRow &row : kRawRows) {
    const OpInfo *op = lookupOp(row.name);
    ASSERT_NE(op, nullptr) << row.name;
    if (op->outputs.size() < 2)
      continue;
    for (const OpArg &arg : op->outputs)
      EXPECT_FALSE(arg.name.empty())
          << row.name << " has several outputs, one without its OpDef name";
  }
  const OpInfo *topk = lookupOp("TopKV2");
  ASSERT_NE(topk, nullptr);
  EXPECT_EQ(outputIndexOf(*topk, "values"), 0);
  EXPECT_EQ(outputIndexOf(*topk, "indices"), 1);
  EXPECT_EQ(outputIndexOf(*topk, "nope"), -1);
  EXPECT_EQ(outputIndexOf(*lookupOp("FusedBatchNormV3"), "reserve_space_3"), 5);
}

TEST(OpTable, Signatures) {
  StatusOr<std::vector<OpArg>> args =
      parseOpArgs("T, N*T, Tidx=int32, [U], num*float, resource");
  ASSERT_TRUE(args.ok()) << args.status();
  ASSERT_EQ(args->size(), 6u);
  EXPECT_EQ((*args)[0].kind, OpArg::Kind::TypeAttr);
  EXPECT_EQ((*args)[1].count, "N");
  EXPECT_EQ((*args)[1].type, "T");
  EXPECT_EQ((*args)[2].defaultType, "int32");
  EXPECT_EQ((*args)[3].kind, OpArg::Kind::TypeListAttr);
  EXPECT_EQ((*args)[3].type, "U");
  EXPECT_EQ((*args)[4].kind, OpArg::Kind::Fixed);
  EXPECT_EQ((*args)[4].count, "num");
  EXPECT_EQ((*args)[5].kind, OpArg::Kind::Fixed);
  EXPECT_TRUE(parseOpArgs("")->empty());
  EXPECT_EQ(parseOpArgs("T, [U").status().message(),
            "bad argument '[U' in 'T, [U': a list is `[Attr]`");
  EXPECT_EQ(parseOpArgs("T=f32").status().message(),
            "bad argument 'T=f32' in 'T=f32': the default is not a dtype");
  EXPECT_EQ(parseOpArgs("int32=int32").status().message(),
            "bad argument 'int32=int32' in 'int32=int32': a fixed dtype has "
            "no default");
  EXPECT_EQ(parseOpArgs("2*T").status().message(),
            "bad argument '2*T' in '2*T': the count is not an attribute name");
  EXPECT_FALSE(parseOpArgs("T,").ok());
  StatusOr<std::vector<OpArg>> named =
      parseOpArgs("values:T, indices:index_type=int32");
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_EQ((*named)[0].name, "values");
  EXPECT_EQ((*named)[0].type, "T");
  EXPECT_EQ((*named)[1].name, "indices");
  EXPECT_EQ((*named)[1].defaultType, "int32");
  EXPECT_EQ(parseOpArgs("2x:T").status().message(),
            "bad argument '2x:T' in '2x:T': the name is not an identifier");
}

TEST(OpTable, Facts) {
  const OpInfo *gather = lookupOp("Gather");
  ASSERT_NE(gather, nullptr);
  EXPECT_EQ(gather->effects, OpEffects::Pure);
  EXPECT_EQ(lookupOp("Inv")->effects, OpEffects::Pure);
  EXPECT_EQ(lookupOp("RandomUniform")->effects, OpEffects::Stateful);
  const OpInfo *concat = lookupOp("ConcatV2");
  EXPECT_EQ(concat->minInputs, 3);
  EXPECT_EQ(concat->maxInputs, -1);
  const OpInfo *shape = lookupOp("Shape");
  ASSERT_EQ(shape->outputs.size(), 1u);
  EXPECT_EQ(shape->outputs[0].type, "out_type");
  EXPECT_EQ(shape->outputs[0].defaultType, "int32");
}

} // namespace
