//===- KernelRegistry.cpp - Op kernel registration and lookup ---*- C++ -*-===//
//
// Constraint matching, lookup error messages and the kernel manifest.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/KernelRegistry.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#include <algorithm>
#include <ostream>
#include <set>
#include <tuple>

namespace tfrt_fallback::rt {

namespace {
/// The dtypes of attribute `name`: one for a dtype attribute, all elements
/// for a dtype list. False if missing or of another kind.
using DTypes = absl::InlinedVector<DType, 4>;

bool attrDTypes(const AttrMap &attrs, absl::string_view name, DTypes *out) {
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

std::string joinDTypes(absl::Span<const DType> dtypes, absl::string_view sep) {
  return absl::StrJoin(dtypes, sep, [](std::string *out, DType dtype) {
    absl::StrAppend(out, dtypeName(dtype));
  });
}
} // namespace

//===----------------------------------------------------------------------===//
// KernelDef
//===----------------------------------------------------------------------===//

KernelDef::KernelDef(std::string opName,
                     std::vector<TypeConstraint> constraints,
                     KernelFactory factory)
    : opName_(std::move(opName)), constraints_(std::move(constraints)),
      factory_(factory) {
  std::sort(constraints_.begin(), constraints_.end(),
            [](const TypeConstraint &a, const TypeConstraint &b) {
              return a.attrName < b.attrName;
            });
}

bool KernelDef::matches(const AttrMap &attrs) const {
  return matchesWith(*this, [&](absl::string_view name, DTypes *out) {
    return attrDTypes(attrs, name, out);
  });
}

std::string KernelDef::constraintString() const {
  if (constraints_.empty())
    return "any dtype";
  return absl::StrJoin(constraints_, ", ",
                       [](std::string *out, const TypeConstraint &c) {
                         absl::StrAppend(out, c.attrName, " in {",
                                         joinDTypes(c.allowed, ", "), "}");
                       });
}

KernelDefBuilder &
KernelDefBuilder::typeConstraint(absl::string_view attrName,
                                 absl::Span<const DType> allowed) {
  constraints_.push_back(
      TypeConstraint{std::string(attrName),
                     std::vector<DType>(allowed.begin(), allowed.end())});
  return *this;
}

KernelDef KernelDefBuilder::build(KernelFactory factory) const {
  return KernelDef(opName_, constraints_, factory);
}

//===----------------------------------------------------------------------===//
// KernelRegistry
//===----------------------------------------------------------------------===//

void KernelRegistry::registerKernel(KernelDef def) {
  std::string name = def.opName();
  defs_[name].push_back(std::move(def));
  ++numDefs_;
}

namespace {
/// "no kernel for op 'AddV2' with T=f64; registered: T in {f32, i32}".
template <typename Getter>
absl::Status noMatchError(absl::string_view opName,
                          const std::vector<KernelDef> &defs,
                          Getter &&getDTypes) {
  std::set<std::string> attrNames;
  for (const KernelDef &def : defs)
    for (const TypeConstraint &c : def.constraints())
      attrNames.insert(c.attrName);
  std::vector<std::string> actual;
  for (const std::string &name : attrNames) {
    DTypes dtypes;
    if (!getDTypes(name, &dtypes))
      actual.push_back(absl::StrCat(name, "=<missing>"));
    else if (dtypes.size() == 1)
      actual.push_back(absl::StrCat(name, "=", dtypeName(dtypes[0])));
    else
      actual.push_back(absl::StrCat(name, "=[", joinDTypes(dtypes, ","), "]"));
  }
  std::vector<std::string> registered;
  for (const KernelDef &def : defs)
    registered.push_back(def.constraintString());
  return absl::NotFoundError(absl::StrCat(
      "no kernel for op '", opName, "' with ", absl::StrJoin(actual, ", "),
      "; registered: ", absl::StrJoin(registered, "; ")));
}

absl::Status unknownOpError(absl::string_view opName) {
  return absl::NotFoundError(
      absl::StrCat("no kernel registered for op '", opName, "'"));
}
} // namespace

absl::StatusOr<const KernelDef *>
KernelRegistry::lookup(absl::string_view opName, const AttrMap &attrs) const {
  auto it = defs_.find(opName);
  if (it == defs_.end())
    return unknownOpError(opName);
  for (const KernelDef &def : it->second)
    if (def.matches(attrs))
      return &def;
  return noMatchError(opName, it->second,
                      [&](absl::string_view name, DTypes *out) {
                        return attrDTypes(attrs, name, out);
                      });
}

absl::StatusOr<std::unique_ptr<OpKernel>>
KernelRegistry::createKernel(absl::string_view opName,
                             absl::string_view nodeName, const AttrMap &attrs,
                             absl::Span<const DType> inputDTypes,
                             absl::Span<const DType> outputDTypes) const {
  auto withNode = [&](const absl::Status &status) {
    return absl::Status(status.code(),
                        absl::StrCat(nodeName, ": ", status.message()));
  };
  // Kernels index their inputs and read them as their attributes' types:
  // check both before any kernel sees the node.
  if (hasOp(opName)) {
    absl::Status status =
        checkInputArity(opName, static_cast<int>(inputDTypes.size()));
    if (status.ok())
      status = checkTypeBindings(opName, attrs, inputDTypes, outputDTypes);
    if (!status.ok())
      return withNode(status);
  }
  absl::StatusOr<const KernelDef *> def = lookup(opName, attrs);
  if (!def.ok())
    return withNode(def.status());
  SimpleOpKernelConstruction construction(
      std::string(opName), std::string(nodeName), attrs,
      std::vector<DType>(inputDTypes.begin(), inputDTypes.end()),
      std::vector<DType>(outputDTypes.begin(), outputDTypes.end()));
  std::unique_ptr<OpKernel> kernel = (*def)->factory()(&construction);
  if (!construction.status().ok())
    return construction.status();
  if (!kernel)
    return makeOpError(absl::StatusCode::kInternal, opName, nodeName,
                       "the kernel factory returned nothing");
  return kernel;
}

std::vector<const KernelDef *> KernelRegistry::listKernels() const {
  std::vector<const std::string *> names;
  names.reserve(defs_.size());
  for (const auto &entry : defs_)
    names.push_back(&entry.first);
  std::sort(names.begin(), names.end(),
            [](const std::string *a, const std::string *b) { return *a < *b; });
  std::vector<const KernelDef *> result;
  result.reserve(numDefs_);
  for (const std::string *name : names)
    for (const KernelDef &def : defs_.find(*name)->second)
      result.push_back(&def);
  return result;
}

void KernelRegistry::writeManifest(std::ostream &os) const {
  os << "# tfrt-fallback kernel manifest v1\n";
  for (const KernelDef *def : listKernels()) {
    os << "kernel " << def->opName();
    for (const TypeConstraint &c : def->constraints())
      os << ' ' << c.attrName << '=' << joinDTypes(c.allowed, "|");
    os << '\n';
  }
}

void KernelRegistry::setInputArity(absl::string_view opName, int minInputs,
                                   int maxInputs) {
  arities_[std::string(opName)] = InputArity{minInputs, maxInputs};
}

const KernelRegistry::InputArity *
KernelRegistry::inputArity(absl::string_view opName) const {
  auto it = arities_.find(opName);
  return it == arities_.end() ? nullptr : &it->second;
}

absl::Status KernelRegistry::checkInputArity(absl::string_view opName,
                                             int numInputs) const {
  const InputArity *arity = inputArity(opName);
  if (!arity)
    return absl::InternalError(absl::StrCat(
        "op '", opName, "' has kernels but no registered input count"));
  if (numInputs >= arity->minInputs &&
      (arity->maxInputs < 0 || numInputs <= arity->maxInputs))
    return absl::OkStatus();
  std::string expected =
      arity->maxInputs == arity->minInputs ? absl::StrCat(arity->minInputs)
      : arity->maxInputs < 0
          ? absl::StrCat("at least ", arity->minInputs)
          : absl::StrCat(arity->minInputs, " to ", arity->maxInputs);
  return absl::InvalidArgumentError(absl::StrCat(
      "op '", opName, "' takes ", expected,
      expected == "1" ? " input" : " inputs", ", got ", numInputs));
}

void KernelRegistry::setTypeBinding(absl::string_view opName,
                                    absl::string_view attr,
                                    absl::string_view inputs,
                                    absl::string_view outputs) {
  typeBindings_[std::string(opName)].push_back(TypeBinding{
      std::string(attr), std::string(inputs), std::string(outputs)});
}

/// Whether position `index` of `count` is typed by the attribute, per a
/// binding pattern (see setTypeBinding).
static bool isBound(absl::string_view pattern, size_t index, size_t count) {
  size_t star = pattern.find('*');
  if (star == absl::string_view::npos)
    return index < pattern.size() && pattern[index] == 'T';
  if (star == 0)
    return false;
  absl::string_view prefix = pattern.substr(0, star - 1);
  absl::string_view suffix = pattern.substr(star + 1);
  if (index < prefix.size())
    return prefix[index] == 'T';
  if (count >= suffix.size() && index >= count - suffix.size())
    return suffix[index - (count - suffix.size())] == 'T';
  return pattern[star - 1] == 'T';
}

absl::Status KernelRegistry::checkTypeBindings(
    absl::string_view opName, const AttrMap &attrs,
    absl::Span<const DType> inputs, absl::Span<const DType> outputs) const {
  static const std::vector<TypeBinding> kDefault = {{"T", "T*", "T*"}};
  auto it = typeBindings_.find(opName);
  const std::vector<TypeBinding> &bindings =
      it == typeBindings_.end() ? kDefault : it->second;
  for (const TypeBinding &binding : bindings) {
    const AttrValue *value = attrs.find(binding.attr);
    const DType *dtype = value ? value->getIf<DType>() : nullptr;
    if (!dtype)
      continue; // Missing, or a list of types: the kernel checks those.
    for (auto [side, pattern, dtypes] :
         {std::make_tuple("input", absl::string_view(binding.inputs), inputs),
          std::make_tuple("output", absl::string_view(binding.outputs),
                          outputs)}) {
      for (size_t i = 0; i < dtypes.size(); ++i) {
        if (!isBound(pattern, i, dtypes.size()) || dtypes[i] == *dtype)
          continue;
        return absl::InvalidArgumentError(absl::StrCat(
            "op '", opName, "' has ", binding.attr, "=", dtypeName(*dtype),
            " but its ", side, " #", i, " is ", dtypeName(dtypes[i])));
      }
    }
  }
  return absl::OkStatus();
}

} // namespace tfrt_fallback::rt
