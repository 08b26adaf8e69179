//===- ProgramTest.cpp - binary program loader and executor tests -*- C++
//-*-===//
//
// Programs are encoded here by hand from docs/BinaryFormat.md, independently
// of the compiler's writer. The loader must accept them, run them, and turn
// every corruption into an error, never a crash.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace tfrt_fallback::rt {
namespace {

/// Little-endian encoder for hand-written programs.
struct Bytes {
  std::vector<uint8_t> data;
  void u8(uint8_t v) { data.push_back(v); }
  void u16(uint16_t v) { raw(&v, 2); }
  void u32(uint32_t v) { raw(&v, 4); }
  void i32(int32_t v) { raw(&v, 4); }
  void u64(uint64_t v) { raw(&v, 8); }
  void i64(int64_t v) { raw(&v, 8); }
  void raw(const void *p, size_t n) {
    auto *b = static_cast<const uint8_t *>(p);
    data.insert(data.end(), b, b + n);
  }
  void str(uint32_t offset, uint32_t length) {
    u32(offset);
    u32(length);
  }
};

/// main(%x: tensor<2xf32>) -> tensor<2xf32> { return AddV2(%x, [1, 2]) }
/// followed by Mul(%sum, %sum) as a second result. `dtype` is the dtype code
/// written for the program's one tensor type and `dim` its dimension;
/// `constantBytes`, when given, replace the constant's data.
std::vector<uint8_t> buildAddProgram(uint8_t dtype = 1,
                                     std::vector<uint8_t> constantBytes = {},
                                     int64_t dim = 2) {
  // Strings: "AddV2" @0, "a.mlir:3:5" @5, "main" @15, "T" @19, "Mul" @20,
  // "a.mlir:4:5" @23.
  std::string strings = "AddV2a.mlir:3:5mainTMula.mlir:4:5";
  Bytes constants;
  float values[2] = {1.0f, 2.0f};
  constants.raw(values, sizeof(values));
  if (!constantBytes.empty())
    constants.data = constantBytes;
  uint64_t constantSize = constants.data.size();
  // The program section that follows is 8-byte aligned.
  constants.data.resize((constantSize + 7) / 8 * 8, 0);

  Bytes program;
  program.u32(1);    // types
  program.u8(1);     // tensor
  program.u8(dtype); // f32 by default
  program.i32(1);
  program.i64(dim);
  program.u32(1); // constants
  program.u32(0);
  program.u64(0);
  program.u64(constantSize);
  program.u32(2); // kernels
  for (auto [name, nameLen, loc] :
       {std::tuple<uint32_t, uint32_t, uint32_t>{0, 5, 5}, {20, 3, 23}}) {
    program.str(name, nameLen);
    program.str(loc, 10);
    program.str(0, 0); // device
    program.u32(1);    // attrs
    program.str(19, 1);
    program.u8(5); // type
    program.u8(1); // f32
    program.u32(2);
    program.u32(0);
    program.u32(0);
    program.u32(1);
    program.u32(0);
    program.u8(0); // no chain
  }
  program.u32(1); // functions
  program.str(15, 4);
  program.str(5, 10);
  program.u32(4); // registers
  for (int i = 0; i < 4; ++i)
    program.u32(0);
  program.u32(1); // args
  program.u32(0);
  program.u32(2); // results
  program.u32(2);
  program.u32(3);
  program.u32(1); // constant bindings
  program.u32(1);
  program.u32(0);
  program.u32(2); // instructions
  program.u8(1);  // kernel 0: r2 = AddV2(r0, r1)
  program.u32(0);
  program.str(5, 10);
  program.u32(2);
  program.u32(0);
  program.u32(1);
  program.u32(1);
  program.u32(2);
  program.u8(1); // kernel 1: r3 = Mul(r2, r2)
  program.u32(1);
  program.str(23, 10);
  program.u32(2);
  program.u32(2);
  program.u32(2);
  program.u32(1);
  program.u32(3);

  Bytes file;
  file.u32(0x50424654);
  file.u16(1);
  file.u16(0);
  file.u32(0);
  file.u32(3);
  uint64_t tableEnd = 16 + 3 * 24;
  uint64_t stringsOffset = tableEnd;
  uint64_t constantsOffset = (stringsOffset + strings.size() + 63) / 64 * 64;
  uint64_t programOffset = constantsOffset + constants.data.size();
  file.u32(1);
  file.u32(1);
  file.u64(stringsOffset);
  file.u64(strings.size());
  file.u32(2);
  file.u32(64);
  file.u64(constantsOffset);
  file.u64(constants.data.size());
  file.u32(3);
  file.u32(8);
  file.u64(programOffset);
  file.u64(program.data.size());
  file.raw(strings.data(), strings.size());
  file.data.resize(constantsOffset, 0);
  file.raw(constants.data.data(), constants.data.size());
  file.raw(program.data.data(), program.data.size());
  return file.data;
}

/// Format 1.2 string constants: main() -> (r0, r1 = GatherV2(r0, r2, r3))
/// with r0 the string constant ["ab", "", "cde"] (its data: u64 ends[4],
/// then the bytes), r2 = [2, 0, 1] (i32) and r3 = 0 (i32). `stringData`,
/// when given, replaces the string constant's data.
std::vector<uint8_t> buildStringProgram(std::vector<uint8_t> stringData = {}) {
  // Strings: "GatherV2" @0, "s.mlir:2:3" @8, "main" @18, "Tparams" @22,
  // "Tindices" @29, "Taxis" @37.
  std::string strings = "GatherV2s.mlir:2:3mainTparamsTindicesTaxis";
  Bytes constants;
  if (stringData.empty()) {
    for (uint64_t end : {0, 2, 2, 5})
      constants.u64(end);
    constants.raw("abcde", 5);
  } else {
    constants.data = stringData;
  }
  const uint64_t stringSize = constants.data.size();
  constants.data.resize(64, 0);
  int32_t indices[3] = {2, 0, 1}, axis = 0;
  constants.raw(indices, 12);
  constants.data.resize(128, 0);
  constants.raw(&axis, 4);
  constants.data.resize(136, 0);

  Bytes program;
  program.u32(3); // types: string[3], i32[3], i32[]
  program.u8(1);
  program.u8(7);
  program.i32(1);
  program.i64(3);
  program.u8(1);
  program.u8(3);
  program.i32(1);
  program.i64(3);
  program.u8(1);
  program.u8(3);
  program.i32(0);
  program.u32(3); // constants
  program.u32(0);
  program.u64(0);
  program.u64(stringSize);
  program.u32(1);
  program.u64(64);
  program.u64(12);
  program.u32(2);
  program.u64(128);
  program.u64(4);
  program.u32(1); // kernels: GatherV2
  program.str(0, 8);
  program.str(8, 10);
  program.str(0, 0);
  program.u32(3);
  program.str(37, 5); // Taxis = i32
  program.u8(5);
  program.u8(3);
  program.str(29, 8); // Tindices = i32
  program.u8(5);
  program.u8(3);
  program.str(22, 7); // Tparams = string
  program.u8(5);
  program.u8(7);
  program.u32(3);
  program.u32(0);
  program.u32(1);
  program.u32(2);
  program.u32(1);
  program.u32(0);
  program.u8(0);
  program.u32(1); // functions
  program.str(18, 4);
  program.str(8, 10);
  program.u32(4); // registers
  for (uint32_t type : {0, 0, 1, 2})
    program.u32(type);
  program.u32(0); // args
  program.u32(2); // results
  program.u32(0);
  program.u32(1);
  program.u32(3); // constant bindings
  for (uint32_t i : {0, 2, 3}) {
    program.u32(i);
    program.u32(i == 0 ? 0 : i - 1);
  }
  program.u32(1); // instructions: r1 = GatherV2(r0, r2, r3)
  program.u8(1);
  program.u32(0);
  program.str(8, 10);
  program.u32(3);
  program.u32(0);
  program.u32(2);
  program.u32(3);
  program.u32(1);
  program.u32(1);

  Bytes file;
  file.u32(0x50424654);
  file.u16(1);
  file.u16(2);
  file.u32(0);
  file.u32(3);
  uint64_t stringsOffset = 16 + 3 * 24;
  uint64_t constantsOffset = (stringsOffset + strings.size() + 63) / 64 * 64;
  uint64_t programOffset = constantsOffset + constants.data.size();
  for (auto [kind, align, offset, size] :
       {std::tuple<uint32_t, uint32_t, uint64_t, uint64_t>{1, 1, stringsOffset,
                                                           strings.size()},
        {2, 64, constantsOffset, constants.data.size()},
        {3, 8, programOffset, program.data.size()}}) {
    file.u32(kind);
    file.u32(align);
    file.u64(offset);
    file.u64(size);
  }
  file.raw(strings.data(), strings.size());
  file.data.resize(constantsOffset, 0);
  file.raw(constants.data.data(), constants.data.size());
  file.raw(program.data.data(), program.data.size());
  return file.data;
}

/// Format 1.1 control flow without kernels: f(x) = x; c(x, p) = p;
/// b(x, p) = (x, p); main(p: i1, x: f32[2]) = (r2 = If(p, x) [f, f],
/// While(r2, p) [c, b]). With p false the loop ends at once; with p true it
/// never ends. `ifCallee` replaces the If's callees.
std::vector<uint8_t> buildControlFlowProgram(uint32_t ifCallee = 0) {
  // Strings: "f" @0, "c" @1, "b" @2, "main" @3, "l" @7.
  std::string strings = "fcbmainl";
  Bytes program;
  program.u32(2); // types: t0 = tensor<2xf32>, t1 = tensor<i1>
  program.u8(1);
  program.u8(1);
  program.i32(1);
  program.i64(2);
  program.u8(1);
  program.u8(10);
  program.i32(0);
  program.u32(0); // constants
  program.u32(0); // kernels
  program.u32(4); // functions
  auto function =
      [&](uint32_t name, uint32_t nameLen, std::vector<uint32_t> registerTypes,
          std::vector<uint32_t> args, std::vector<uint32_t> results) {
        program.str(name, nameLen);
        program.str(7, 1);
        program.u32(registerTypes.size());
        for (uint32_t type : registerTypes)
          program.u32(type);
        program.u32(args.size());
        for (uint32_t reg : args)
          program.u32(reg);
        program.u32(results.size());
        for (uint32_t reg : results)
          program.u32(reg);
        program.u32(0); // constant bindings
      };
  function(0, 1, {0}, {0}, {0});
  program.u32(0); // f: no instructions
  function(1, 1, {0, 1}, {0, 1}, {1});
  program.u32(0); // c
  function(2, 1, {0, 1}, {0, 1}, {0, 1});
  program.u32(0); // b
  function(3, 4, {1, 0, 0, 0, 1}, {0, 1}, {2, 3, 4});
  program.u32(2);
  program.u8(5); // r2 = If(r0, r1) [f, f]
  program.u32(0xFFFFFFFF);
  program.str(7, 1);
  program.u32(2);
  program.u32(0);
  program.u32(1);
  program.u32(1);
  program.u32(2);
  program.u32(2);
  program.u32(ifCallee);
  program.u32(ifCallee);
  program.u8(7); // r3, r4 = While(r2, r0) [c, b]
  program.u32(0xFFFFFFFF);
  program.str(7, 1);
  program.u32(2);
  program.u32(2);
  program.u32(0);
  program.u32(2);
  program.u32(3);
  program.u32(4);
  program.u32(2);
  program.u32(1);
  program.u32(2);

  Bytes file;
  file.u32(0x50424654);
  file.u16(1);
  file.u16(1);
  file.u32(0);
  file.u32(2);
  uint64_t stringsOffset = 16 + 2 * 24;
  uint64_t programOffset = (stringsOffset + strings.size() + 7) / 8 * 8;
  file.u32(1);
  file.u32(1);
  file.u64(stringsOffset);
  file.u64(strings.size());
  file.u32(3);
  file.u32(8);
  file.u64(programOffset);
  file.u64(program.data.size());
  file.raw(strings.data(), strings.size());
  file.data.resize(programOffset, 0);
  file.raw(program.data.data(), program.data.size());
  return file.data;
}

class ProgramTest : public ::testing::Test {
protected:
  void SetUp() override { registerAllKernels(registry); }
  KernelRegistry registry;
};

TEST_F(ProgramTest, LoadsAndRunsAHandEncodedProgram) {
  std::vector<uint8_t> bytes = buildAddProgram();
  auto program = Program::load(absl::MakeConstSpan(bytes), registry);
  ASSERT_TRUE(program.ok()) << program.status();
  const Function *main = (*program)->lookupFunction("main");
  ASSERT_NE(main, nullptr);
  EXPECT_EQ((*program)->lookupFunction("other"), nullptr);

  HostContext host(1);
  Executor executor(**program, host);
  Tensor x = *Tensor::fromValues<float>({2}, {10.0f, 20.0f});
  auto results = executor.run(*main, {x});
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 2u);
  ASSERT_TRUE((*results)[0].ok());
  EXPECT_EQ((*results)[0]->data<float>()[0], 11.0f);
  EXPECT_EQ((*results)[0]->data<float>()[1], 22.0f);
  EXPECT_EQ((*results)[1]->data<float>()[0], 121.0f);
  EXPECT_EQ((*results)[1]->data<float>()[1], 484.0f);
  // The input is untouched (it was not forwarded).
  EXPECT_EQ(x.data<float>()[0], 10.0f);
}

TEST_F(ProgramTest, RejectsInputsThatDoNotMatchTheSignature) {
  std::vector<uint8_t> bytes = buildAddProgram();
  auto program = Program::load(absl::MakeConstSpan(bytes), registry);
  ASSERT_TRUE(program.ok());
  HostContext host(1);
  Executor executor(**program, host);
  const Function &main = *(*program)->lookupFunction("main");
  EXPECT_EQ(executor.run(main, {}).status().message(),
            "function 'main' takes 1 inputs, got 0");
  Tensor wrongShape = *Tensor::fromValues<float>({3}, {1, 2, 3});
  EXPECT_EQ(executor.run(main, {wrongShape}).status().message(),
            "input #0 of 'main': expected tensor<2xf32>, got tensor<3xf32>");
  Tensor wrongType = *Tensor::fromValues<int32_t>({2}, {1, 2});
  EXPECT_EQ(executor.run(main, {wrongType}).status().message(),
            "input #0 of 'main': expected tensor<2xf32>, got tensor<2xi32>");
}

TEST_F(ProgramTest, RejectsEveryTruncation) {
  std::vector<uint8_t> bytes = buildAddProgram();
  for (size_t size = 0; size < bytes.size(); ++size) {
    auto program =
        Program::load(absl::MakeConstSpan(bytes.data(), size), registry);
    EXPECT_FALSE(program.ok()) << "truncated to " << size << " bytes";
  }
}

TEST_F(ProgramTest, SurvivesEveryCorruptedByte) {
  // Each byte replaced by a few hostile values: the loader either rejects
  // the program or loads one that still runs without crashing.
  std::vector<uint8_t> original = buildAddProgram();
  HostContext host(1);
  Tensor x = *Tensor::fromValues<float>({2}, {10.0f, 20.0f});
  size_t rejected = 0;
  for (size_t i = 0; i < original.size(); ++i) {
    for (uint8_t value : {uint8_t(0x00), uint8_t(0xFF), uint8_t(0x7F),
                          uint8_t(original[i] ^ 0x01)}) {
      if (value == original[i])
        continue;
      std::vector<uint8_t> bytes = original;
      bytes[i] = value;
      auto program = Program::load(absl::MakeConstSpan(bytes), registry);
      if (!program.ok()) {
        ++rejected;
        continue;
      }
      for (const Function &function : (*program)->functions()) {
        Executor executor(**program, host);
        if (executor.checkInputs(function, {x}).ok())
          (void)executor.run(function, {x});
      }
    }
  }
  EXPECT_GT(rejected, original.size());
}

TEST_F(ProgramTest, RejectsDTypeCodesDTypesDefDoesNotList) {
  // DT_FLOAT8_E5M2 (24), DT_INT4 (29) and codes TensorFlow does not have:
  // no tensor type of the program may hold them (the disassembler once made
  // a null MLIR element type of them).
  for (uint8_t code : {0, 24, 29, 200}) {
    std::vector<uint8_t> bytes = buildAddProgram(code);
    EXPECT_EQ(
        Program::load(absl::MakeConstSpan(bytes), registry).status().message(),
        "invalid binary program: unknown dtype code " + std::to_string(code))
        << int(code);
  }
}

TEST_F(ProgramTest, RejectsBoolConstantsThatAreNeither0Nor1) {
  // Kernels and the executor read bool elements as C++ bool, for which any
  // other byte is undefined behaviour (found by fuzz/BefLoaderFuzzer.cpp;
  // the input is fuzz/regressions/bef-loader-fuzzer/).
  std::vector<uint8_t> bytes = buildAddProgram(10, {1, 2});
  EXPECT_EQ(
      Program::load(absl::MakeConstSpan(bytes), registry).status().message(),
      "invalid binary program: a bool constant element is neither 0 nor 1");
  bytes = buildAddProgram(10, {1, 0});
  EXPECT_EQ(Program::load(absl::MakeConstSpan(bytes), registry)
                .status()
                .message()
                .find("bool constant"),
            std::string::npos);
}

TEST_F(ProgramTest, ReportsBadMagicAndVersion) {
  std::vector<uint8_t> bytes = buildAddProgram();
  bytes[0] = 'X';
  EXPECT_EQ(
      Program::load(absl::MakeConstSpan(bytes), registry).status().message(),
      "invalid binary program: not a tfrt-fallback binary program (bad "
      "magic)");
  bytes = buildAddProgram();
  bytes[4] = 2;
  EXPECT_EQ(
      Program::load(absl::MakeConstSpan(bytes), registry).status().message(),
      "invalid binary program: format version 2.0 is not supported (this "
      "runtime reads 1.x)");
}

std::vector<std::string> stringsOf(const Tensor &t) {
  std::vector<std::string> out;
  for (std::string_view s : stringElements(t))
    out.emplace_back(s);
  return out;
}

TEST_F(ProgramTest, LoadsStringConstantsInPlace) {
  std::vector<uint8_t> bytes = buildStringProgram();
  auto program = Program::load(absl::MakeConstSpan(bytes), registry);
  ASSERT_TRUE(program.ok()) << program.status();
  // The constant's elements view the program's copy of the file: its own
  // buffer holds the three views only, not the bytes.
  const Tensor &constant = (*program)->constants()[0].tensor;
  ASSERT_EQ(constant.dtype(), DType::String);
  EXPECT_EQ(stringsOf(constant), (std::vector<std::string>{"ab", "", "cde"}));
  EXPECT_EQ(constant.buffer()->size(), 3 * kStringElementSize);
  EXPECT_FALSE(constant.buffer()->isOwned());
  HostContext host(1);
  Tensor kept;
  {
    Executor executor(**program, host);
    StatusOr<std::vector<ResultValue>> results =
        executor.run(*(*program)->lookupFunction("main"), {});
    ASSERT_TRUE(results.ok()) << results.status();
    ASSERT_TRUE((*results)[1].ok()) << (*results)[1].status();
    EXPECT_EQ(stringsOf(*(*results)[1]),
              (std::vector<std::string>{"cde", "ab", ""}));
    kept = *(*results)[0];
  }
  // The results outlive the program, whose file their constant views.
  program->reset();
  EXPECT_EQ(stringsOf(kept), (std::vector<std::string>{"ab", "", "cde"}));
}

TEST_F(ProgramTest, RejectsStringConstantsWithBadOffsets) {
  auto data = [](std::vector<uint64_t> ends, std::string bytes) {
    Bytes b;
    for (uint64_t end : ends)
      b.u64(end);
    b.raw(bytes.data(), bytes.size());
    return b.data;
  };
  auto loadError = [&](std::vector<uint8_t> stringData) {
    std::vector<uint8_t> bytes = buildStringProgram(std::move(stringData));
    return std::string(
        Program::load(absl::MakeConstSpan(bytes), registry).status().message());
  };
  EXPECT_EQ(loadError(data({1, 2, 2, 5}, "abcde")),
            "invalid binary program: string constant of type "
            "tensor<3x!tf_type.string>: offset 0 (1) is not in order within "
            "its 5 bytes");
  EXPECT_EQ(loadError(data({0, 3, 2, 5}, "abcde")),
            "invalid binary program: string constant of type "
            "tensor<3x!tf_type.string>: offset 2 (2) is not in order within "
            "its 5 bytes");
  EXPECT_EQ(loadError(data({0, 2, 2, 6}, "abcde")),
            "invalid binary program: string constant of type "
            "tensor<3x!tf_type.string>: offset 3 (6) is not in order within "
            "its 5 bytes");
  EXPECT_EQ(loadError(data({0, 2, 2, 4}, "abcde")),
            "invalid binary program: string constant of type "
            "tensor<3x!tf_type.string>: offset 3 (4) is not in order within "
            "its 5 bytes");
  EXPECT_EQ(loadError(data({0, 2, 2}, "")),
            "invalid binary program: string constant of type "
            "tensor<3x!tf_type.string> has 24 bytes, fewer than its 4 "
            "offsets");
  EXPECT_EQ(loadError(data({0, 0, 0, 0}, "")), "");
}

TEST_F(ProgramTest, SurvivesEveryCorruptedStringProgramByte) {
  std::vector<uint8_t> original = buildStringProgram();
  HostContext host(1);
  size_t rejected = 0;
  for (size_t i = 0; i < original.size(); ++i) {
    for (uint8_t value : {uint8_t(0x00), uint8_t(0xFF), uint8_t(0x7F),
                          uint8_t(original[i] ^ 0x01)}) {
      if (value == original[i])
        continue;
      std::vector<uint8_t> bytes = original;
      bytes[i] = value;
      auto program = Program::load(absl::MakeConstSpan(bytes), registry);
      if (!program.ok()) {
        ++rejected;
        continue;
      }
      Executor executor(**program, host);
      for (const Function &function : (*program)->functions())
        if (executor.checkInputs(function, {}).ok())
          (void)executor.run(function, {});
    }
  }
  EXPECT_GT(rejected, original.size());
  for (size_t size = 0; size < original.size(); ++size)
    EXPECT_FALSE(
        Program::load(absl::MakeConstSpan(original.data(), size), registry)
            .ok())
        << "truncated to " << size << " bytes";
}

TEST_F(ProgramTest, RunsHandEncodedControlFlow) {
  std::vector<uint8_t> bytes = buildControlFlowProgram();
  auto program = Program::load(absl::MakeConstSpan(bytes), registry);
  ASSERT_TRUE(program.ok()) << program.status();
  HostContext host(1);
  Executor executor(**program, host);
  const Function &main = *(*program)->lookupFunction("main");
  Tensor x = *Tensor::fromValues<float>({2}, {10.0f, 20.0f});
  auto results =
      executor.run(main, {*Tensor::fromValues<bool>({}, {false}), x});
  ASSERT_TRUE(results.ok()) << results.status();
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE((*results)[i].ok()) << (*results)[i].status();
    EXPECT_EQ((*results)[i]->debugString(), "[10., 20.]");
  }
  EXPECT_EQ((*results)[2]->debugString(), "False");
  // A predicate that stays true: the deadline ends the loop, not the branch.
  results =
      executor.run(main, {*Tensor::fromValues<bool>({}, {true}), x},
                   RunOptions::withTimeout(std::chrono::milliseconds(20)));
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_TRUE((*results)[0].ok());
  EXPECT_EQ((*results)[1].status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_EQ((*results)[1].status().message(),
            "the run's deadline passed before While 'l' in 'main'");
}

TEST_F(ProgramTest, RejectsConstantsWhoseSizeOverflows) {
  // tensor<2^62xf32>: 2^64 bytes, which wrap around to 0 in 64 bits.
  std::vector<uint8_t> bytes = buildAddProgram(1, {}, /*dim=*/int64_t(1) << 62);
  EXPECT_EQ(
      Program::load(absl::MakeConstSpan(bytes), registry).status(),
      InvalidArgumentError("invalid binary program: constant of type "
                           "tensor<4611686018427387904xf32> is too large"));
  // tensor<2^61xf32>: 2^63 bytes, not the 8 the file has.
  bytes = buildAddProgram(1, {}, /*dim=*/int64_t(1) << 61);
  EXPECT_EQ(Program::load(absl::MakeConstSpan(bytes), registry).status(),
            InvalidArgumentError(
                "invalid binary program: constant of type "
                "tensor<2305843009213693952xf32> has 8 bytes, expected "
                "9223372036854775808"));
}

TEST_F(ProgramTest, EnforcesTheLoadLimits) {
  std::vector<uint8_t> bytes = buildAddProgram();
  LoadOptions options;
  options.maxProgramBytes = bytes.size() - 1;
  EXPECT_EQ(
      Program::load(absl::MakeConstSpan(bytes), registry, options).status(),
      ResourceExhaustedError(strCat("the program has ", bytes.size(),
                                    " bytes, past the limit of ",
                                    bytes.size() - 1)));
  options.maxProgramBytes = bytes.size();
  EXPECT_TRUE(
      Program::load(absl::MakeConstSpan(bytes), registry, options).ok());

  // main calls f, c and b, which call nothing: 2 deep.
  bytes = buildControlFlowProgram();
  options = LoadOptions();
  options.maxCallDepth = 1;
  EXPECT_EQ(
      Program::load(absl::MakeConstSpan(bytes), registry, options).status(),
      ResourceExhaustedError("function 'main' of the program nests calls 2 "
                             "deep, past the limit of 1"));
  options.maxCallDepth = 2;
  EXPECT_TRUE(
      Program::load(absl::MakeConstSpan(bytes), registry, options).ok());
}

TEST_F(ProgramTest, LimitsTheIterationsOfALoop) {
  std::vector<uint8_t> bytes = buildControlFlowProgram();
  auto program = Program::load(absl::MakeConstSpan(bytes), registry);
  ASSERT_TRUE(program.ok()) << program.status();
  HostContext host(1);
  Executor executor(**program, host);
  const Function &main = *(*program)->lookupFunction("main");
  Tensor x = *Tensor::fromValues<float>({2}, {10.0f, 20.0f});
  // A predicate that stays true: the loop would never end.
  RunOptions options;
  options.limits.maxLoopIterations = 1000;
  auto results =
      executor.run(main, {*Tensor::fromValues<bool>({}, {true}), x}, options);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_TRUE((*results)[0].ok());
  EXPECT_EQ((*results)[1].status(),
            ResourceExhaustedError("While 'l': the loop's condition still "
                                   "holds after 1000 iterations, the run's "
                                   "limit"));
  // The same program ends normally with a false predicate.
  results =
      executor.run(main, {*Tensor::fromValues<bool>({}, {false}), x}, options);
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_TRUE((*results)[1].ok()) << (*results)[1].status();
}

TEST_F(ProgramTest, ChecksControlFlowSignatures) {
  // main as the If's callees: it takes (i1, f32[2]), the If passes f32[2].
  std::vector<uint8_t> bytes = buildControlFlowProgram(/*ifCallee=*/3);
  EXPECT_EQ(
      Program::load(absl::MakeConstSpan(bytes), registry).status().message(),
      "invalid binary program: instruction at 'l' in 'main': callee 'main' "
      "takes arguments that do not match the operands");
}

TEST_F(ProgramTest, SurvivesEveryCorruptedControlFlowByte) {
  // As above for a program of If and While: a corrupted callee may make a
  // loop that never ends, which the deadline stops.
  std::vector<uint8_t> original = buildControlFlowProgram();
  HostContext host(1);
  std::vector<Tensor> inputs = {*Tensor::fromValues<bool>({}, {false}),
                                *Tensor::fromValues<float>({2}, {1.0f, 2.0f})};
  size_t rejected = 0;
  for (size_t i = 0; i < original.size(); ++i) {
    for (uint8_t value : {uint8_t(0x00), uint8_t(0xFF), uint8_t(0x01),
                          uint8_t(original[i] ^ 0x01)}) {
      if (value == original[i])
        continue;
      std::vector<uint8_t> bytes = original;
      bytes[i] = value;
      auto program = Program::load(absl::MakeConstSpan(bytes), registry);
      if (!program.ok()) {
        ++rejected;
        continue;
      }
      Executor executor(**program, host);
      for (const Function &function : (*program)->functions())
        if (executor.checkInputs(function, inputs).ok())
          (void)executor.run(
              function, inputs,
              RunOptions::withTimeout(std::chrono::milliseconds(5)));
    }
  }
  EXPECT_GT(rejected, original.size());
}

TEST_F(ProgramTest, ReportsAMissingKernelWithItsLocation) {
  KernelRegistry empty;
  std::vector<uint8_t> bytes = buildAddProgram();
  auto program = Program::load(absl::MakeConstSpan(bytes), empty);
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.status().message().find("a.mlir:3:5"), std::string::npos)
      << program.status();
  EXPECT_NE(program.status().message().find("AddV2"), std::string::npos)
      << program.status();
}

class ProgramThreadsTest : public ProgramTest,
                           public ::testing::WithParamInterface<int> {};

// 8 threads run one loaded program 1000 times each with their own inputs,
// with the in-order executor (1 thread) and the dataflow one (4 threads).
TEST_P(ProgramThreadsTest, ManyThreadsRunOneProgram) {
  std::vector<uint8_t> bytes = buildAddProgram();
  auto program = Program::load(absl::MakeConstSpan(bytes), registry);
  ASSERT_TRUE(program.ok());
  const Function &main = *(*program)->lookupFunction("main");
  HostContext host(GetParam());
  Executor executor(**program, host);
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) {
        float a = static_cast<float>(t * 1000 + i), b = -a;
        Tensor x = *Tensor::fromValues<float>({2}, {a, b});
        auto results = executor.run(main, {x});
        if (!results.ok() || !(*results)[1].ok()) {
          ++mismatches;
          continue;
        }
        // Expected from the definition: (x + [1, 2])^2.
        const float *r = (*results)[1]->data<float>();
        if (r[0] != (a + 1) * (a + 1) || r[1] != (b + 2) * (b + 2))
          ++mismatches;
      }
    });
  }
  for (std::thread &thread : threads)
    thread.join();
  EXPECT_EQ(mismatches.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(HostThreads, ProgramThreadsTest,
                         ::testing::Values(1, 4));

} // namespace
} // namespace tfrt_fallback::rt
