//===- Denormal.cpp - flush denormal floats to zero -------------*- C++ -*-===//
//
// The floating-point control bits per target: MXCSR (x86-64), FPCR
// (aarch64).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Denormal.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

namespace tfrt_fallback::rt {
namespace {

#if defined(__x86_64__) || defined(_M_X64)
// MXCSR: flush-to-zero (bit 15) and denormals-are-zero (bit 6).
constexpr uint64_t kFlushBits = 0x8040;
uint64_t readMode() { return _mm_getcsr(); }
void writeMode(uint64_t mode) { _mm_setcsr(static_cast<unsigned>(mode)); }
#elif defined(__aarch64__)
// FPCR: FZ (bit 24) flushes denormal inputs and outputs.
constexpr uint64_t kFlushBits = uint64_t(1) << 24;
uint64_t readMode() {
  uint64_t fpcr;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
  return fpcr;
}
void writeMode(uint64_t mode) {
  __asm__ __volatile__("msr fpcr, %0" : : "r"(mode));
}
#else
constexpr uint64_t kFlushBits = 0;
uint64_t readMode() { return 0; }
void writeMode(uint64_t) {}
#endif

} // namespace

ScopedFlushDenormal::ScopedFlushDenormal() : saved_(readMode()) {
  if ((saved_ & kFlushBits) != kFlushBits)
    writeMode(saved_ | kFlushBits);
}

ScopedFlushDenormal::~ScopedFlushDenormal() {
  if ((saved_ & kFlushBits) != kFlushBits)
    writeMode(saved_);
}

bool ScopedFlushDenormal::isFlushing() {
  return kFlushBits != 0 && (readMode() & kFlushBits) == kFlushBits;
}

void setFlushDenormal() { writeMode(readMode() | kFlushBits); }

} // namespace tfrt_fallback::rt
