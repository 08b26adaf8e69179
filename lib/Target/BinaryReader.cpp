//===- BinaryReader.cpp - disassemble a binary program into MLIR -*- C++
//-*-===//
//
// Decodes a binary program with the runtime's validating loader and rebuilds
// the tfrt_fallback module it was written from.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Target/BinaryProgram.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace tfrt_fallback;
namespace rt = tfrt_fallback::rt;

static SmallVector<int64_t> getDims(const rt::PartialShape &shape) {
  SmallVector<int64_t> dims;
  for (int64_t dim : shape.dims())
    dims.push_back(dim < 0 ? ShapedType::kDynamic : dim);
  return dims;
}

static Type getType(const rt::ValueType &type, MLIRContext *context) {
  if (type.isChain())
    return ChainType::get(context);
  Type element = tf::getElementType(type.dtype, context);
  if (!type.shape.hasRank())
    return UnrankedTensorType::get(element);
  return RankedTensorType::get(getDims(type.shape), element);
}

ElementsAttr tfrt_fallback::getElementsAttr(const rt::Tensor &tensor,
                                            RankedTensorType tensorType) {
  if (tensor.dtype() == rt::DType::String) {
    SmallVector<StringRef> values;
    for (std::string_view value : rt::stringElements(tensor))
      values.push_back(StringRef(value.data(), value.size()));
    return DenseStringElementsAttr::get(tensorType, values);
  }
  ArrayRef<char> data(static_cast<const char *>(tensor.rawData()),
                      tensor.totalBytes());
  if (tensorType.getElementType().isInteger(1)) {
    SmallVector<bool> values;
    for (char byte : data)
      values.push_back(byte != 0);
    return DenseElementsAttr::get(tensorType, values);
  }
  return DenseElementsAttr::getFromRawBuffer(tensorType, data);
}

static Attribute getAttr(const rt::AttrValue &value, const rt::Program &program,
                         MLIRContext *context) {
  Builder b(context);
  auto shapeAttr = [&](const rt::PartialShape &shape) -> Attribute {
    if (!shape.hasRank())
      return ShapeAttr::getUnranked(context);
    return ShapeAttr::get(context, getDims(shape));
  };
  auto list = [&](const auto &values, auto convert) -> Attribute {
    SmallVector<Attribute> elements;
    for (const auto &element : values)
      elements.push_back(convert(element));
    return b.getArrayAttr(elements);
  };
  using Kind = rt::AttrValue::Kind;
  switch (value.kind()) {
  case Kind::Int:
    return b.getI64IntegerAttr(*value.getIf<int64_t>());
  case Kind::Float:
    return b.getF32FloatAttr(*value.getIf<float>());
  case Kind::Bool:
    return b.getBoolAttr(*value.getIf<bool>());
  case Kind::String:
    return b.getStringAttr(*value.getIf<std::string>());
  case Kind::DType:
    return TypeAttr::get(
        tf::getElementType(*value.getIf<rt::DType>(), context));
  case Kind::Shape:
    return shapeAttr(*value.getIf<rt::PartialShape>());
  case Kind::Tensor: {
    const rt::Tensor &tensor = *value.getIf<rt::Tensor>();
    Type type = RankedTensorType::get(
        SmallVector<int64_t>(tensor.shape().dims().begin(),
                             tensor.shape().dims().end()),
        tf::getElementType(tensor.dtype(), context));
    return getElementsAttr(tensor, cast<RankedTensorType>(type));
  }
  case Kind::Func:
    return FlatSymbolRefAttr::get(context, value.getIf<rt::FuncAttr>()->name);
  case Kind::IntList:
    return list(*value.getIf<std::vector<int64_t>>(),
                [&](int64_t v) -> Attribute { return b.getI64IntegerAttr(v); });
  case Kind::FloatList:
    return list(*value.getIf<std::vector<float>>(),
                [&](float v) -> Attribute { return b.getF32FloatAttr(v); });
  case Kind::BoolList:
    return list(*value.getIf<std::vector<bool>>(),
                [&](bool v) -> Attribute { return b.getBoolAttr(v); });
  case Kind::StringList:
    return list(
        *value.getIf<std::vector<std::string>>(),
        [&](const std::string &v) -> Attribute { return b.getStringAttr(v); });
  case Kind::DTypeList:
    return list(*value.getIf<std::vector<rt::DType>>(),
                [&](rt::DType v) -> Attribute {
                  return TypeAttr::get(tf::getElementType(v, context));
                });
  case Kind::ShapeList:
    return list(*value.getIf<std::vector<rt::PartialShape>>(), shapeAttr);
  }
  return {};
}

/// Parses "file:line:col" back into a location; anything else becomes a
/// name location.
static Location getLocation(const std::string &text, MLIRContext *context) {
  if (text.empty())
    return UnknownLoc::get(context);
  StringRef ref(text);
  auto [rest, col] = ref.rsplit(':');
  auto [file, line] = rest.rsplit(':');
  unsigned lineNo, colNo;
  if (!file.empty() && !line.getAsInteger(10, lineNo) &&
      !col.getAsInteger(10, colNo) && !file.contains('@'))
    return FileLineColLoc::get(context, file, lineNo, colNo);
  return NameLoc::get(StringAttr::get(context, text));
}

OwningOpRef<ModuleOp> tfrt_fallback::readBinaryProgram(ArrayRef<uint8_t> bytes,
                                                       MLIRContext *context) {
  context->loadDialect<TFRTFallbackDialect, func::FuncDialect>();
  Location unknown = UnknownLoc::get(context);
  auto decoded =
      rt::Program::decode(absl::MakeConstSpan(bytes.data(), bytes.size()));
  if (!decoded.ok()) {
    emitError(unknown) << std::string(decoded.status().message());
    return {};
  }
  const rt::Program &program = **decoded;
  OwningOpRef<ModuleOp> module = ModuleOp::create(unknown);
  OpBuilder builder(context);
  builder.setInsertionPointToEnd(module->getBody());

  auto typeOf = [&](uint32_t index) {
    return getType(program.types()[index], context);
  };
  SmallVector<func::FuncOp> functions;
  for (const rt::Function &function : program.functions()) {
    SmallVector<Type> argTypes, resultTypes;
    for (uint32_t reg : function.argRegisters)
      argTypes.push_back(typeOf(function.registerTypes[reg]));
    for (uint32_t reg : function.resultRegisters)
      resultTypes.push_back(typeOf(function.registerTypes[reg]));
    auto func = func::FuncOp::create(
        builder, getLocation(function.location, context), function.name,
        builder.getFunctionType(argTypes, resultTypes));
    if (function.name != "main")
      func.setPrivate();
    functions.push_back(func);
  }

  for (auto [function, func] : llvm::zip(program.functions(), functions)) {
    Block *body = func.addEntryBlock();
    OpBuilder b = OpBuilder::atBlockEnd(body);
    std::vector<Value> values(function.registerTypes.size());
    for (auto [i, reg] : llvm::enumerate(function.argRegisters))
      values[reg] = body->getArgument(i);
    for (auto [reg, constant] : function.constantBindings) {
      const rt::ConstantEntry &entry = program.constants()[constant];
      Type type = typeOf(entry.type);
      values[reg] = ConstantOp::create(
          b, func.getLoc(), type,
          getElementsAttr(entry.tensor, cast<RankedTensorType>(type)));
    }
    for (const rt::Instruction &inst : function.instructions) {
      Location loc = getLocation(inst.location, context);
      SmallVector<Value> operands;
      for (uint32_t reg : function.operandsOf(inst))
        operands.push_back(values[reg]);
      SmallVector<Type> resultTypes;
      for (uint32_t reg : function.resultsOf(inst))
        resultTypes.push_back(typeOf(function.registerTypes[reg]));
      Operation *op = nullptr;
      switch (inst.opcode) {
      case bef::Opcode::Kernel: {
        const rt::KernelEntry &kernel = program.kernels()[inst.index];
        SmallVector<NamedAttribute> attrs;
        for (const auto &[name, value] : kernel.attrs)
          attrs.push_back(
              b.getNamedAttr(name, getAttr(value, program, context)));
        Value chain;
        if (kernel.hasChain) {
          chain = operands.pop_back_val();
          resultTypes.pop_back();
        }
        op = KernelCallOp::create(b, loc, kernel.opName, resultTypes, operands,
                                  b.getDictionaryAttr(attrs),
                                  kernel.device.empty()
                                      ? StringAttr()
                                      : b.getStringAttr(kernel.device),
                                  chain);
        // The memory plan's buffer of each tensor result.
        if (!function.plannedBuffers.empty()) {
          SmallVector<int32_t> buffers;
          bool any = false;
          for (size_t i = 0; i < resultTypes.size(); ++i) {
            uint32_t buffer = function.plannedBuffers[inst.resultBegin + i];
            any |= buffer != rt::OpKernelContext::kNotPlanned;
            buffers.push_back(buffer == rt::OpKernelContext::kNotPlanned
                                  ? -1
                                  : static_cast<int32_t>(buffer));
          }
          if (any)
            op->setAttr(kPlannedBuffersAttrName,
                        b.getDenseI32ArrayAttr(buffers));
        }
        break;
      }
      case bef::Opcode::Call:
        op = func::CallOp::create(b, loc, functions[inst.index], operands);
        break;
      case bef::Opcode::NewChain:
        op = NewChainOp::create(b, loc);
        break;
      case bef::Opcode::MergeChains:
        op = MergeChainsOp::create(b, loc, operands);
        break;
      case bef::Opcode::If:
      case bef::Opcode::Case:
      case bef::Opcode::While: {
        SmallVector<FlatSymbolRefAttr> callees;
        for (uint32_t callee : function.calleesOf(inst))
          callees.push_back(FlatSymbolRefAttr::get(functions[callee]));
        Value chain;
        if (inst.hasChain) {
          chain = operands.pop_back_val();
          resultTypes.pop_back();
        }
        ValueRange args(operands);
        if (inst.opcode == bef::Opcode::While) {
          op = WhileOp::create(b, loc, resultTypes, callees[0], callees[1],
                               args, chain);
        } else if (inst.opcode == bef::Opcode::If) {
          op = IfOp::create(b, loc, resultTypes, operands[0], callees[0],
                            callees[1], args.drop_front(), chain);
        } else {
          SmallVector<Attribute> branches(callees.begin(), callees.end());
          op = CaseOp::create(b, loc, resultTypes, operands[0],
                              b.getArrayAttr(branches), args.drop_front(),
                              chain);
        }
        break;
      }
      }
      for (auto [reg, result] :
           llvm::zip(function.resultsOf(inst), op->getResults()))
        values[reg] = result;
    }
    SmallVector<Value> results;
    for (uint32_t reg : function.resultRegisters)
      results.push_back(values[reg]);
    func::ReturnOp::create(b, func.getLoc(), results);
    // The names, unless they are the defaults of a function without any.
    bool named = false;
    for (auto [i, name] : llvm::enumerate(function.argNames))
      named |= name != "input_" + std::to_string(i);
    for (auto [i, name] : llvm::enumerate(function.resultNames))
      named |= name != "output_" + std::to_string(i);
    if (named)
      setSignatureNames(func, {function.argNames, function.resultNames});
    if (!function.plannedBuffers.empty()) {
      SmallVector<int64_t> offsets, sizes;
      for (const rt::MemoryPlan::Buffer &buffer : function.memoryPlan.buffers) {
        offsets.push_back(static_cast<int64_t>(buffer.offset));
        sizes.push_back(static_cast<int64_t>(buffer.bytes));
      }
      func->setAttr(
          kMemoryPlanAttrName,
          b.getDictionaryAttr(
              {b.getNamedAttr("arena_bytes",
                              b.getI64IntegerAttr(static_cast<int64_t>(
                                  function.memoryPlan.arenaBytes))),
               b.getNamedAttr("offsets", b.getDenseI64ArrayAttr(offsets)),
               b.getNamedAttr("sizes", b.getDenseI64ArrayAttr(sizes))}));
    }
  }
  return module;
}
