//===- BinaryFormat.h - the binary program format ---------------*- C++ -*-===//
//
// Constants of the binary program format shared by the writer (lib/Target,
// compiler side) and the loader (lib/Runtime/Executor). docs/BinaryFormat.md
// describes the layout. Plain C++: no MLIR, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_BINARYFORMAT_H
#define TFRT_FALLBACK_RUNTIME_BINARYFORMAT_H

#include <cstdint>

namespace tfrt_fallback::bef {

/// "TFBP" read as a little-endian u32 from the first four bytes.
constexpr uint32_t kMagic = 0x50424654;
constexpr uint16_t kVersionMajor = 1;
constexpr uint16_t kVersionMinor = 4;

/// Size of the fixed header: magic, major, minor, flags, section count.
constexpr uint32_t kHeaderSize = 16;
/// Size of one section table entry: kind, alignment, offset, size.
constexpr uint32_t kSectionEntrySize = 24;
/// Alignment of constant data in the file (and so in a mapped file).
constexpr uint32_t kConstantAlignment = 64;

enum class SectionKind : uint32_t {
  /// UTF-8 bytes that `str` fields point into.
  Strings = 1,
  /// Raw little-endian tensor data, each constant 64-byte aligned; a string
  /// constant is `u64 ends[n + 1]` (ends[0] = 0) then its bytes (1.2).
  Constants = 2,
  /// Types, constants, kernels and functions (see docs/BinaryFormat.md).
  Program = 3,
  /// The compiler's static memory plan of some functions (1.3; optional: a
  /// loader that skips it allocates every result).
  MemoryPlan = 4,
  /// The names of some functions' arguments and results (1.4; optional: a
  /// function without names has input_<i> and output_<i>).
  Signatures = 5,
};

/// Sentinel register / index: "none".
constexpr uint32_t kNone = 0xFFFFFFFFu;

/// Instruction opcodes of a function body.
enum class Opcode : uint8_t {
  /// Run kernel `index` of the kernel table.
  Kernel = 1,
  /// Call function `index` of the function table.
  Call = 2,
  /// Produce a ready chain.
  NewChain = 3,
  /// Produce a chain ready when all operand chains are.
  MergeChains = 4,
  // Control flow (format 1.1): the callees follow the instruction's results
  // as `u32 calleeCount, u32 callees[]`, and `index` is kNone.
  /// Call callee 0 (then) when operand 0 is true, else callee 1 (else).
  If = 5,
  /// Call callee `operand 0` (an i32 scalar); out of range: the last one.
  Case = 6,
  /// While callee 0 (cond) returns true, replace the carried values with
  /// what callee 1 (body) returns.
  While = 7,
};

/// Whether instructions of `opcode` carry a callee list.
constexpr bool hasCallees(Opcode opcode) {
  return opcode == Opcode::If || opcode == Opcode::Case ||
         opcode == Opcode::While;
}

/// Kinds of encoded attribute values; a list is `kListBit | element kind`.
enum class AttrKind : uint8_t {
  Int = 1,    // i64
  Float = 2,  // f32
  Bool = 3,   // u8
  String = 4, // str
  Type = 5,   // u8 dtype
  Shape = 6,  // i32 rank (-1: unranked), i64 dims (-1: unknown)
  Tensor = 7, // u32 index into the constant table
  Func = 8,   // str (function name)
};
constexpr uint8_t kListBit = 0x80;

/// Register value kinds in a function's register table.
enum class ValueKind : uint8_t {
  Tensor = 1,
  Chain = 2,
};

} // namespace tfrt_fallback::bef

#endif // TFRT_FALLBACK_RUNTIME_BINARYFORMAT_H
