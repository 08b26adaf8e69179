//===- ShapeTestUtils.h - Helpers for the shape layer's tests ---*- C++ -*-===//
//
// Prints PartialShapes in gtest's messages.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_UNITTESTS_SHAPE_SHAPETESTUTILS_H
#define TFRT_FALLBACK_UNITTESTS_SHAPE_SHAPETESTUTILS_H

#include "tfrt_fallback/Runtime/Attr.h"

#include <ostream>

namespace tfrt_fallback::rt {

inline void PrintTo(const PartialShape &shape, std::ostream *os) {
  *os << shape.toString();
}

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_UNITTESTS_SHAPE_SHAPETESTUTILS_H
