//===- KernelRegistry.cpp - Op kernel registration and lookup ---*- C++ -*-===//
//
// Constraint matching, lookup error messages and the kernel manifest.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/KernelRegistry.h"

#include "../Features.h"

#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StrFormat.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <tuple>
#include <utility>

namespace tfrt_fallback::rt {

namespace {
/// The dtypes of attribute `name`: one for a dtype attribute, all elements
/// for a dtype list. False if missing or of another kind.
using DTypes = absl::InlinedVector<DType, 4>;

bool attrDTypes(const AttrMap &attrs, std::string_view name, DTypes *out) {
  const AttrValue *value = attrs.find(name);
  if (!value)
    return false;
  if (const DType *dtype = value->getIf<DType>()) {
    out->assign(1, *dtype);
    return true;
  }
  if (const auto *list = value->getIf<std::vector<DType>>()) {
    out->assign(list->begin(), list->end());
    return true;
  }
  return false;
}

template <typename Getter>
bool matchesWith(const KernelDef &def, Getter &&getDTypes) {
  DTypes dtypes;
  for (const TypeConstraint &constraint : def.constraints()) {
    if (!getDTypes(constraint.attrName, &dtypes))
      return false;
    for (DType dtype : dtypes)
      if (std::find(constraint.allowed.begin(), constraint.allowed.end(),
                    dtype) == constraint.allowed.end())
        return false;
  }
  return true;
}

std::string joinDTypes(absl::Span<const DType> dtypes, std::string_view sep) {
  return strJoin(dtypes, sep, [](std::string *out, DType dtype) {
    std::string_view name = dtypeName(dtype);
    out->append(name.data(), name.size());
  });
}
} // namespace

//===----------------------------------------------------------------------===//
// KernelDef
//===----------------------------------------------------------------------===//

KernelDef::KernelDef(std::string opName,
                     std::vector<TypeConstraint> constraints,
                     KernelFactory factory, const OpRow *row)
    : opName_(std::move(opName)), constraints_(std::move(constraints)),
      factory_(factory), row_(row) {
  std::sort(constraints_.begin(), constraints_.end(),
            [](const TypeConstraint &a, const TypeConstraint &b) {
              return a.attrName < b.attrName;
            });
}

bool KernelDef::matches(const AttrMap &attrs) const {
  return matchesWith(*this, [&](std::string_view name, DTypes *out) {
    return attrDTypes(attrs, name, out);
  });
}

std::string KernelDef::constraintString() const {
  if (constraints_.empty())
    return "any dtype";
  return strJoin(constraints_, ", ",
                 [](std::string *out, const TypeConstraint &c) {
                   strAppendFormat(out, "%s in {%s}", c.attrName.c_str(),
                                   joinDTypes(c.allowed, ", ").c_str());
                 });
}

KernelDefBuilder &
KernelDefBuilder::typeConstraint(std::string_view attrName,
                                 absl::Span<const DType> allowed) {
  constraints_.push_back(
      TypeConstraint{std::string(attrName),
                     std::vector<DType>(allowed.begin(), allowed.end())});
  return *this;
}

KernelDef KernelDefBuilder::build(KernelFactory factory) const {
  return KernelDef(opName_, constraints_, factory, row_);
}

//===----------------------------------------------------------------------===//
// KernelRegistry
//===----------------------------------------------------------------------===//

const KernelRegistry::OpEntry *
KernelRegistry::find(std::string_view opName) const {
  auto it = std::lower_bound(
      ops_.begin(), ops_.end(), opName,
      [](const OpEntry &op, std::string_view name) { return op.name < name; });
  return it != ops_.end() && it->name == opName ? &*it : nullptr;
}

KernelRegistry::OpEntry &KernelRegistry::findOrInsert(std::string_view opName) {
  auto it = std::lower_bound(
      ops_.begin(), ops_.end(), opName,
      [](const OpEntry &op, std::string_view name) { return op.name < name; });
  if (it == ops_.end() || it->name != opName) {
    it = ops_.insert(it, OpEntry());
    it->name = std::string(opName);
  }
  return *it;
}

void KernelRegistry::registerKernel(KernelDef def) {
  OpEntry &op = findOrInsert(def.opName());
  if (!op.hasRow && def.row()) {
    // OpTableTest parses every row; a malformed one leaves the op unchecked
    // against it, and createKernel then refuses its nodes.
    StatusOr<OpInfo> info = parseOpRow(*def.row());
    if (info.ok()) {
      op.info = *std::move(info);
      op.hasRow = true;
    }
  }
  op.defs.push_back(std::move(def));
  ++numDefs_;
}

namespace {
/// "no kernel for op 'AddV2' with T=f64; registered: T in {f32, i32}".
template <typename Getter>
Status noMatchError(std::string_view opName, const std::vector<KernelDef> &defs,
                    Getter &&getDTypes) {
  std::set<std::string> attrNames;
  for (const KernelDef &def : defs)
    for (const TypeConstraint &c : def.constraints())
      attrNames.insert(c.attrName);
  std::vector<std::string> actual;
  for (const std::string &name : attrNames) {
    DTypes dtypes;
    const bool found = getDTypes(name, &dtypes);
    const char *format = !found               ? "%s=<missing>"
                         : dtypes.size() == 1 ? "%s=%s"
                                              : "%s=[%s]";
    actual.push_back(strFormat(format, name.c_str(),
                               found ? joinDTypes(dtypes, ",").c_str() : ""));
  }
  std::vector<std::string> registered;
  for (const KernelDef &def : defs)
    registered.push_back(def.constraintString());
  return makeError(StatusCode::kNotFound,
                   "no kernel for op '%.*s' with %s; registered: %s",
                   TFRT_FALLBACK_SV(opName), strJoin(actual, ", ").c_str(),
                   strJoin(registered, "; ").c_str());
}

Status unknownOpError(std::string_view opName) {
  return makeError(StatusCode::kNotFound, "no kernel registered for op '%.*s'",
                   TFRT_FALLBACK_SV(opName));
}
} // namespace

StatusOr<const KernelDef *> KernelRegistry::lookup(std::string_view opName,
                                                   const AttrMap &attrs) const {
  const OpEntry *op = find(opName);
  if (!op || op->defs.empty())
    return unknownOpError(opName);
  for (const KernelDef &def : op->defs)
    if (def.matches(attrs))
      return &def;
  return noMatchError(opName, op->defs,
                      [&](std::string_view name, DTypes *out) {
                        return attrDTypes(attrs, name, out);
                      });
}

StatusOr<std::unique_ptr<OpKernel>> KernelRegistry::createKernel(
    std::string_view opName, std::string_view nodeName, const AttrMap &attrs,
    absl::Span<const DType> inputDTypes, absl::Span<const DType> outputDTypes,
    absl::Span<const Tensor *const> constantInputs) const {
  auto withNode = [&](const Status &status) {
    // Appended, not formatted: a kernel's message may hold any byte.
    std::string message(nodeName);
    message += ": ";
    message.append(status.message().data(), status.message().size());
    return Status(status.code(), message);
  };
  // Kernels index their inputs and read them as their attributes' types:
  // check both before any kernel sees the node.
  if (hasOp(opName)) {
    Status status =
        checkInputArity(opName, static_cast<int>(inputDTypes.size()));
    if (status.ok())
      status = checkTypeBindings(opName, attrs, inputDTypes, outputDTypes);
    if (!status.ok())
      return withNode(status);
  }
  StatusOr<const KernelDef *> def = lookup(opName, attrs);
  if (!def.ok())
    return withNode(def.status());
  SimpleOpKernelConstruction construction(
      std::string(opName), std::string(nodeName), attrs,
      std::vector<DType>(inputDTypes.begin(), inputDTypes.end()),
      std::vector<DType>(outputDTypes.begin(), outputDTypes.end()),
      constantInputs);
  std::unique_ptr<OpKernel> kernel = (*def)->factory()(&construction);
  if (!construction.status().ok())
    return construction.status();
  if (!kernel)
    return makeOpError(StatusCode::kInternal, opName, nodeName,
                       "the kernel factory returned nothing");
  return kernel;
}

std::vector<const KernelDef *> KernelRegistry::listKernels() const {
  std::vector<const KernelDef *> result;
  result.reserve(numDefs_);
  for (const OpEntry &op : ops_)
    for (const KernelDef &def : op.defs)
      result.push_back(&def);
  return result;
}

std::string KernelRegistry::manifest() const {
  std::string text = "# tfrt-fallback kernel manifest v1\n";
  for (const KernelDef *def : listKernels()) {
    strAppendFormat(&text, "kernel %s", def->opName().c_str());
    for (const TypeConstraint &c : def->constraints())
      strAppendFormat(&text, " %s=%s", c.attrName.c_str(),
                      joinDTypes(c.allowed, "|").c_str());
    text += '\n';
  }
  // The framework's optional parts this build has (Features.h).
  if (kHasControlFlow)
    text += "feature control-flow\n";
  if (kHasStrings)
    text += "feature strings\n";
  if (kHasMemoryPlan)
    text += "feature memory-plan\n";
  if (kHasSignatures)
    text += "feature signatures\n";
  if (kHasMemmappedPackage)
    text += "feature memmapped-package\n";
  return text;
}

//===----------------------------------------------------------------------===//
// Checks against OpTable.def
//===----------------------------------------------------------------------===//

void KernelRegistry::setInputArity(std::string_view opName, int minInputs,
                                   int maxInputs) {
  OpEntry &op = findOrInsert(opName);
  op.hasOwnArity = true;
  op.ownMinInputs = minInputs;
  op.ownMaxInputs = maxInputs;
}

Status KernelRegistry::checkInputArity(std::string_view opName,
                                       int numInputs) const {
  int minInputs = 0, maxInputs = -1;
  const OpEntry *op = find(opName);
  if (op && op->hasRow) {
    minInputs = op->info.minInputs;
    maxInputs = op->info.maxInputs;
  } else if (op && op->hasOwnArity) {
    minInputs = op->ownMinInputs;
    maxInputs = op->ownMaxInputs;
  } else {
    return makeError(StatusCode::kInternal,
                     "op '%.*s' has kernels but neither a row in the op "
                     "table nor an input count",
                     TFRT_FALLBACK_SV(opName));
  }
  if (numInputs >= minInputs && (maxInputs < 0 || numInputs <= maxInputs))
    return OkStatus();
  const char *format = maxInputs == minInputs ? "%d"
                       : maxInputs < 0        ? "at least %d"
                                              : "%d to %d";
  std::string expected = strFormat(format, minInputs, maxInputs);
  return makeError(StatusCode::kInvalidArgument,
                   "op '%.*s' takes %s %s, got %d", TFRT_FALLBACK_SV(opName),
                   expected.c_str(), expected == "1" ? "input" : "inputs",
                   numInputs);
}

namespace {
/// How many of a node's `numTensors` tensors each of `args` stands for. The
/// node's attributes size the variadic arguments (`N`, a list's length);
/// when they do not, or disagree with `numTensors`, the arguments before
/// the first variadic one are placed from the front, those after the last
/// from the back, and a single variadic argument takes what is between.
/// -1 marks an argument that cannot be placed.
std::vector<int> countTensors(absl::Span<const OpArg> args, size_t numTensors,
                              const AttrMap &attrs) {
  std::vector<int> counts;
  size_t known = 0;
  bool allKnown = true;
  for (const OpArg &arg : args) {
    int count = 1;
    if (arg.kind == OpArg::Kind::TypeListAttr) {
      const AttrValue *value = attrs.find(arg.type);
      const auto *list = value ? value->getIf<std::vector<DType>>() : nullptr;
      count = list ? static_cast<int>(list->size()) : -1;
    } else if (!arg.count.empty()) {
      const AttrValue *value = attrs.find(arg.count);
      const int64_t *n = value ? value->getIf<int64_t>() : nullptr;
      count = n && *n >= 0 && *n <= INT32_MAX ? static_cast<int>(*n) : -1;
    }
    counts.push_back(count);
    allKnown = allKnown && count >= 0;
    known += count >= 0 ? count : 0;
  }
  if (allKnown && known == numTensors)
    return counts;

  auto isVariadic = [](const OpArg &arg) {
    return arg.kind == OpArg::Kind::TypeListAttr || !arg.count.empty();
  };
  size_t fixed = 0, variadic = 0;
  for (size_t i = 0; i < args.size(); ++i) {
    counts[i] = isVariadic(args[i]) ? -1 : 1;
    (isVariadic(args[i]) ? variadic : fixed) += 1;
  }
  if (variadic == 1 && numTensors >= fixed)
    for (size_t i = 0; i < args.size(); ++i)
      if (isVariadic(args[i]))
        counts[i] = static_cast<int>(numTensors - fixed);
  return counts;
}

/// InvalidArgument "op '<opName>' <format...>".
Status opError(std::string_view opName, const char *format, ...)
    TFRT_FALLBACK_PRINTF(2, 3);
Status opError(std::string_view opName, const char *format, ...) {
  std::string prefix = "op '";
  prefix.append(opName.data(), opName.size());
  prefix += "' ";
  va_list args;
  va_start(args, format);
  Status status =
      makeErrorV(StatusCode::kInvalidArgument, std::move(prefix), format, args);
  va_end(args);
  return status;
}

/// "op 'AddV2' has T=f32 but its input #1 is f64".
Status typeMismatch(std::string_view opName, std::string_view attr, DType dtype,
                    std::string_view side, int64_t index, DType actual) {
  return opError(opName, "has %.*s=%s but its %.*s #%lld is %s",
                 TFRT_FALLBACK_SV(attr), std::string(dtypeName(dtype)).c_str(),
                 TFRT_FALLBACK_SV(side), static_cast<long long>(index),
                 std::string(dtypeName(actual)).c_str());
}

/// Checks the dtypes of one side (inputs or outputs) of a node.
Status checkSide(std::string_view opName, std::string_view side,
                 absl::Span<const OpArg> args, absl::Span<const DType> dtypes,
                 const AttrMap &attrs) {
  std::vector<int> counts = countTensors(args, dtypes.size(), attrs);
  // Each argument's first tensor: from the front until an argument cannot
  // be placed, then from the back.
  const int64_t size = static_cast<int64_t>(dtypes.size());
  std::vector<int64_t> first(args.size());
  // (uint8_t, not bool: std::vector<bool>'s bit code is all its own.)
  std::vector<uint8_t> placed(args.size(), 0);
  int64_t next = 0;
  for (size_t i = 0; i < args.size() && counts[i] >= 0; ++i) {
    first[i] = next;
    placed[i] = 1;
    next += counts[i];
  }
  next = size;
  for (size_t i = args.size(); i-- > 0 && counts[i] >= 0 && !placed[i];) {
    next -= counts[i];
    first[i] = next;
    placed[i] = 1;
  }
  const bool isInput = side == "input";
  for (size_t i = 0; i < args.size(); ++i) {
    const OpArg &arg = args[i];
    if (!placed[i])
      continue;
    // The dtype the argument's tensors must have, if any:
    // - an input the OpDef fixes: a kernel reads it as that dtype (a float
    //   range read from an int8 tensor runs past its buffer, a number buffer
    //   read as strings or handles is memory that is not there). int32 and
    //   int64 stand for each other: the kernels read index inputs as either
    //   (some take int64 where TF's OpDef says int32, as
    //   Conv2DBackpropInput's input_sizes);
    // - an output the OpDef fixes (ResizeBilinear's float): the kernel makes
    //   that dtype whatever the program declares, so a program that declares
    //   another would read the tensor as what it is not;
    // - a type attribute's value (missing, or a list of types: the kernel
    //   checks those).
    DType expected;
    if (arg.kind == OpArg::Kind::Fixed) {
      StatusOr<DType> fixed = parseDType(arg.type);
      if (!fixed.ok())
        continue; // A dtype the runtime has no tensors of.
      expected = *fixed;
    } else if (arg.kind == OpArg::Kind::TypeAttr) {
      const AttrValue *value = attrs.find(arg.type);
      const DType *dtype = value ? value->getIf<DType>() : nullptr;
      if (!dtype)
        continue;
      expected = *dtype;
    } else {
      continue;
    }
    auto isIndex = [](DType d) { return d == DType::I32 || d == DType::I64; };
    for (int64_t index = std::max<int64_t>(first[i], 0);
         index < std::min<int64_t>(first[i] + counts[i], size); ++index) {
      const DType actual = dtypes[index];
      if (actual == expected)
        continue;
      if (arg.kind == OpArg::Kind::TypeAttr)
        return typeMismatch(opName, arg.type, expected, side, index, actual);
      if (!isInput)
        return opError(opName,
                       "has output #%lld of dtype %s (its OpDef fixes it) but "
                       "the program declares %s",
                       static_cast<long long>(index),
                       std::string(dtypeName(expected)).c_str(),
                       std::string(dtypeName(actual)).c_str());
      if (!(isIndex(actual) && isIndex(expected)))
        return opError(opName,
                       "takes a %s tensor as input #%lld (its OpDef fixes "
                       "it) but the program gives %s",
                       std::string(dtypeName(expected)).c_str(),
                       static_cast<long long>(index),
                       std::string(dtypeName(actual)).c_str());
    }
  }
  return OkStatus();
}
} // namespace

Status
KernelRegistry::checkTypeBindings(std::string_view opName, const AttrMap &attrs,
                                  absl::Span<const DType> inputs,
                                  absl::Span<const DType> outputs) const {
  if (const OpEntry *op = find(opName); op && op->hasRow) {
    Status status = checkSide(opName, "input", op->info.inputs, inputs, attrs);
    if (status.ok())
      status = checkSide(opName, "output", op->info.outputs, outputs, attrs);
    return status;
  }
  // An op of setInputArity's: T, if any, types every input and output.
  const AttrValue *value = attrs.find("T");
  const DType *dtype = value ? value->getIf<DType>() : nullptr;
  for (auto [side, dtypes] :
       {std::make_pair("input", inputs), std::make_pair("output", outputs)})
    for (size_t index = 0; dtype && index < dtypes.size(); ++index)
      if (dtypes[index] != *dtype)
        return typeMismatch(opName, "T", *dtype, side, index, dtypes[index]);
  return OkStatus();
}

} // namespace tfrt_fallback::rt
