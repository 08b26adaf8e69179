//===- Denormal.h - flush denormal floats to zero ---------------*- C++ -*-===//
//
// Kernels run with denormal (subnormal) floats flushed to zero, as in
// TensorFlow, whose executor and thread pools run every kernel under
// `port::ScopedFlushDenormal`: arithmetic on denormals takes a slow
// microcode path on x86 (a sigmoid whose outputs underflow ran 20 times
// slower), and TF's own results have them flushed. x86-64 sets MXCSR's
// flush-to-zero and denormals-are-zero bits, aarch64 FPCR's FZ bit; other
// targets leave the mode alone.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_DENORMAL_H
#define TFRT_FALLBACK_RUNTIME_DENORMAL_H

#include <cstdint>

namespace tfrt_fallback::rt {

/// Flushes denormals to zero on this thread for its lifetime and restores
/// the previous mode after.
class ScopedFlushDenormal {
public:
  ScopedFlushDenormal();
  ~ScopedFlushDenormal();
  ScopedFlushDenormal(const ScopedFlushDenormal &) = delete;
  ScopedFlushDenormal &operator=(const ScopedFlushDenormal &) = delete;

  /// Whether this thread flushes denormals now.
  static bool isFlushing();

private:
  uint64_t saved_;
};

/// Flushes denormals to zero on this thread from now on (worker threads
/// call it when they start).
void setFlushDenormal();

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_DENORMAL_H
