//===- KernelRegistry.h - Op kernel registration and lookup -----*- C++ -*-===//
//
// KernelDef (op name + dtype constraints + factory), KernelDefBuilder,
// KernelRegistry, a plain object filled by explicit family registration
// functions (no static constructors, which static linking would drop), and
// registerKernel, the one way those functions register a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_KERNELREGISTRY_H
#define TFRT_FALLBACK_RUNTIME_KERNELREGISTRY_H

#include "tfrt_fallback/Runtime/Attr.h"
#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/OpTable.h"
#include "tfrt_fallback/Runtime/Status.h"

#include "absl/types/span.h"

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {

using KernelFactory =
    std::unique_ptr<OpKernel> (*)(OpKernelConstructionInterface *);

/// `attrName` must be a dtype (or list-of-dtypes) attribute whose value(s)
/// are all in `allowed`.
struct TypeConstraint {
  std::string attrName;
  std::vector<DType> allowed;
};

class KernelDef {
public:
  /// `row` is the op's row of OpTable.def, or null for an op the table does
  /// not list (see KernelRegistry::setInputArity).
  KernelDef(std::string opName, std::vector<TypeConstraint> constraints,
            KernelFactory factory, const OpRow *row = nullptr);

  const std::string &opName() const { return opName_; }
  const OpRow *row() const { return row_; }
  /// Sorted by attribute name.
  absl::Span<const TypeConstraint> constraints() const { return constraints_; }
  KernelFactory factory() const { return factory_; }

  /// True if every constrained attribute of `attrs` is a dtype (or dtype
  /// list) with allowed values.
  bool matches(const AttrMap &attrs) const;
  /// "T in {f32, i32}" (constraints joined by ", "); "any dtype" if none.
  std::string constraintString() const;

private:
  std::string opName_;
  std::vector<TypeConstraint> constraints_;
  KernelFactory factory_;
  const OpRow *row_;
};

class KernelDefBuilder {
public:
  /// An op of OpTable.def: KernelDefBuilder(kOpRow<OpId::kAddV2>). The
  /// registry checks its nodes against the row.
  explicit KernelDefBuilder(const OpRow &row) : opName_(row.name), row_(&row) {}
  /// An op the table does not list (an embedder's or a test's own): give
  /// the registry its input count with setInputArity.
  explicit KernelDefBuilder(std::string_view opName) : opName_(opName) {}
  KernelDefBuilder &typeConstraint(std::string_view attrName,
                                   std::initializer_list<DType> allowed) {
    return typeConstraint(attrName,
                          absl::MakeConstSpan(allowed.begin(), allowed.size()));
  }
  KernelDefBuilder &typeConstraint(std::string_view attrName,
                                   absl::Span<const DType> allowed);
  /// Shorthand for a single C++ type: typeConstraint<float>("T").
  template <typename T> KernelDefBuilder &typeConstraint(std::string_view a) {
    return typeConstraint(a, {dtypeOf<T>()});
  }
  KernelDef build(KernelFactory factory) const;

private:
  std::string opName_;
  std::vector<TypeConstraint> constraints_;
  const OpRow *row_ = nullptr;
};

class KernelRegistry {
public:
  KernelRegistry() = default;
  KernelRegistry(const KernelRegistry &) = delete;
  KernelRegistry &operator=(const KernelRegistry &) = delete;

  /// Adds `def`; defs of one op are tried in registration order. Kernels
  /// are registered with the registerKernel templates below, which build
  /// the def and its factory.
  void registerKernel(KernelDef def);

  /// The first def of `opName` whose constraints `attrs` satisfy. NotFound
  /// "no kernel registered for op 'Foo'" for an unknown op; NotFound "no
  /// kernel for op 'AddV2' with T=f64; registered: T in {f32, i32}" when no
  /// def matches.
  StatusOr<const KernelDef *> lookup(std::string_view opName,
                                     const AttrMap &attrs) const;

  /// The one way to create a kernel (the program loader uses it): looks the
  /// kernel up by `attrs`, checks the node's input count and operand dtypes
  /// against the op's arity and type bindings, so no kernel indexes past its
  /// inputs or reads a buffer as another type, and constructs it. Lookup and
  /// check errors are prefixed with `nodeName`; a construction failure is
  /// the kernel's own status.
  /// `constantInputs` (optional): per input, the program constant every
  /// node of the kernel binds to it, or null (OpKernelConstructionInterface::
  /// constantInput).
  StatusOr<std::unique_ptr<OpKernel>>
  createKernel(std::string_view opName, std::string_view nodeName,
               const AttrMap &attrs, absl::Span<const DType> inputDTypes,
               absl::Span<const DType> outputDTypes,
               absl::Span<const Tensor *const> constantInputs = {}) const;

  bool hasOp(std::string_view opName) const {
    const OpEntry *op = find(opName);
    return op && !op->defs.empty();
  }

  /// The input count of `opName`, an op the op table (OpTable.def) does not
  /// list: an embedder's or a test's own op. TensorFlow ops registered with
  /// their row (KernelDefBuilder(kOpRow<...>)) take theirs from it, which
  /// wins. Such an op's type attribute `T`, if it has one, types every input
  /// and output.
  void setInputArity(std::string_view opName, int minInputs, int maxInputs);

  /// Checks a node's input count against its op's row in OpTable.def
  /// (TensorFlow's OpDef: a fixed count, or a range for variadic inputs), as
  /// its kernels registered it, or
  /// against setInputArity for an op the table does not list. Kernels index
  /// their inputs by position, so no kernel may see a node outside the
  /// range. An op with neither is an error too (its kernels could index
  /// past the end).
  Status checkInputArity(std::string_view opName, int numInputs) const;
  /// Checks the dtypes of a node's inputs and outputs against its type
  /// attributes, by the OpDef signature in OpTable.def (which operands and
  /// results each attribute types), so no kernel reads or writes a buffer
  /// as another type. An attribute the node lacks, or a list of types, is
  /// not checked.
  Status checkTypeBindings(std::string_view opName, const AttrMap &attrs,
                           absl::Span<const DType> inputs,
                           absl::Span<const DType> outputs) const;

  size_t size() const { return numDefs_; }

  /// All defs, sorted by op name (registration order within an op).
  std::vector<const KernelDef *> listKernels() const;

  /// Kernel manifest v1: "# tfrt-fallback kernel manifest v1", then one line
  /// per def in listKernels() order: "kernel AddV2 T=f32|i32", then the
  /// optional parts of the framework this build has: "feature control-flow",
  /// "feature strings" (docs/KernelManifest.md).
  std::string manifest() const;

private:
  /// What the registry knows of one op.
  struct OpEntry {
    std::string name;
    /// The op's row of OpTable.def, parsed, when a def brought it.
    bool hasRow = false;
    OpInfo info;
    /// setInputArity's (minInputs, maxInputs), when given.
    bool hasOwnArity = false;
    int ownMinInputs = 0, ownMaxInputs = -1;
    std::vector<KernelDef> defs;
  };
  const OpEntry *find(std::string_view opName) const;
  OpEntry &findOrInsert(std::string_view opName);

  /// Sorted by name.
  std::vector<OpEntry> ops_;
  size_t numDefs_ = 0;
};

//===----------------------------------------------------------------------===//
// Registering kernels
//===----------------------------------------------------------------------===//
//
// registerKernel is the one way kernels get into a registry. Each kernel
// family has one registration function that calls it once per def:
//
//   void registerExampleKernels(KernelRegistry &registry) {
//     // One class for every dtype (it dispatches on its operands):
//     registerKernel<IdentityKernel>(registry, KernelDefBuilder("Identity"));
//     // One class per dtype: a def and an instantiation per (op, dtype).
//     registerKernel<ReluKernel, float, double>(registry, "Relu");
//   }
//
// Defs of one op are tried in registration order.

/// The KernelFactory of `KernelClass`.
template <typename KernelClass>
std::unique_ptr<OpKernel> constructKernel(OpKernelConstructionInterface *ctx) {
  return std::make_unique<KernelClass>(ctx);
}

/// Registers `KernelClass` (an OpKernel constructible from
/// OpKernelConstructionInterface *) under the def `builder` describes.
template <typename KernelClass>
void registerKernel(KernelRegistry &registry, const KernelDefBuilder &builder) {
  registry.registerKernel(builder.build(&constructKernel<KernelClass>));
}

/// Registers `Kernel<T>` for each T in Ts, in that order, each under a def
/// of its own: op `opName` with the type attribute "T" equal to T's dtype.
/// Each def refers to its own instantiation only, so a build that leaves a
/// def out leaves that (op, dtype)'s code out too.
template <template <typename> class Kernel, typename... Ts>
void registerKernel(KernelRegistry &registry, std::string_view opName) {
  static_assert(sizeof...(Ts) > 0, "name the dtypes to register for");
  (registerKernel<Kernel<Ts>>(registry,
                              KernelDefBuilder(opName).typeConstraint<Ts>("T")),
   ...);
}

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_KERNELREGISTRY_H
