//===- Registration.h - How built-in kernels register -----------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. How built-in kernels register: by OpId (a row
// of OpTable.def, whose shape rule the kernel class must match), subject to the
// build's kernel selection (KernelSelection.h).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_REGISTRATION_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_REGISTRATION_H

#include "common/DTypeGroups.h"
#include "common/KernelSelection.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/OpTable.h"

#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Registering built-in kernels
//===----------------------------------------------------------------------===//
//
// Built-in kernels register under an OpId (an op of OpTable.def) with these
// two forms, never with a runtime op name, so that a selective build
// (KernelSelection.h) drops each (op, dtype) it does not keep at compile
// time:
//
//   // One class per dtype: a def, and an instantiation, per (op, dtype).
//   registerKernel<OpId::kRelu, ReluKernel, float, double>(registry);
//   // One class for every dtype of the op (it dispatches on its operands),
//   // with optional type constraints:
//   registerKernel<OpId::kIdentity, IdentityKernel>(registry);
//   registerKernel<OpId::kReshape, ReshapeKernel>(
//       registry, {{"Tshape", {DType::I32, DType::I64}}});

template <typename T> struct TypeTag {
  using type = T;
};

/// A type constraint of registerKernel's second form.
struct TypeConstraintSpec {
  std::string_view attrName;
  absl::Span<const DType> allowed;
};

/// The shape rule a kernel class computes its output by, when it declares
/// one (`static constexpr OpShapeRule kShapeRule`, as the elementwise
/// kernel templates do); Custom when it does not.
template <typename KernelClass, typename = void>
inline constexpr OpShapeRule kKernelShapeRule = OpShapeRule::Custom;
template <typename KernelClass>
inline constexpr OpShapeRule kKernelShapeRule<
    KernelClass, std::void_t<decltype(KernelClass::kShapeRule)>> =
    KernelClass::kShapeRule;

/// Whether op `Op`'s row of OpTable.def has the shape rule `KernelClass`
/// declares: the compiler infers shapes and plans buffers from the row, the
/// kernel computes them by its rule, so the two must agree.
template <OpId Op, typename KernelClass> constexpr bool rowMatchesKernel() {
  return kKernelShapeRule<KernelClass> == OpShapeRule::Custom ||
         kKernelShapeRule<KernelClass> == kOpRow<Op>.shapeRule;
}

/// Every registration below checks rowMatchesKernel at compile time.
template <OpId Op, typename KernelClass>
constexpr void checkRowMatchesKernel() {
  static_assert(rowMatchesKernel<Op, KernelClass>(),
                "the op's row in OpTable.def must have the Shape rule of the "
                "kernel template that registers it (SameAsInput for the unary "
                "elementwise kernels, Broadcast for BinaryOpKernel)");
}

/// Registers `Kernel<T>` for op `Op` and each T of Ts, in that order, each
/// under a def of its own (type attribute "T" equal to T's dtype), unless
/// the build's kernel selection leaves (Op, T) out.
template <OpId Op, template <typename> class Kernel, typename... Ts>
void registerKernel(KernelRegistry &registry) {
  static_assert(sizeof...(Ts) > 0, "name the dtypes to register for");
  auto registerOne = [&](auto tag) {
    using T = typename decltype(tag)::type;
    checkRowMatchesKernel<Op, Kernel<T>>();
    if constexpr (isKernelSelected(Op, dtypeOf<T>()))
      rt::registerKernel<Kernel<T>>(
          registry, KernelDefBuilder(kOpRow<Op>).typeConstraint<T>("T"));
  };
  (registerOne(TypeTag<Ts>{}), ...);
}

/// The same for the types of a dtype group (DTypeGroups.h):
/// registerKernel<OpId::kSoftmax, Softmax>(registry, FloatTypes{}).
template <OpId Op, template <typename> class Kernel, typename... Ts>
void registerKernel(KernelRegistry &registry, TypeList<Ts...>) {
  registerKernel<Op, Kernel, Ts...>(registry);
}

/// Registers `KernelClass` for op `Op` under `constraints` (none: every
/// dtype), unless the build's kernel selection leaves `Op` out.
template <OpId Op, typename KernelClass>
void registerKernel(
    KernelRegistry &registry,
    std::initializer_list<TypeConstraintSpec> constraints = {}) {
  checkRowMatchesKernel<Op, KernelClass>();
  if constexpr (isOpSelected(Op)) {
    KernelDefBuilder builder(kOpRow<Op>);
    for (const TypeConstraintSpec &constraint : constraints)
      builder.typeConstraint(constraint.attrName, constraint.allowed);
    rt::registerKernel<KernelClass>(registry, builder);
  }
}

/// Registers `KernelClass`, a kernel's string form, for op `Op` with type
/// attribute `attrName` equal to string, unless the build's kernel
/// selection leaves (Op, string) out. String kernels are classes of their
/// own (e.g. the `Strings = true` instantiation of a data-movement kernel),
/// so the numeric ones never carry string code.
template <OpId Op, typename KernelClass>
void registerStringKernel(KernelRegistry &registry,
                          std::string_view attrName = "T") {
  if constexpr (isKernelSelected(Op, DType::String))
    rt::registerKernel<KernelClass>(
        registry,
        KernelDefBuilder(opName(Op)).typeConstraint(attrName, {DType::String}));
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_REGISTRATION_H
