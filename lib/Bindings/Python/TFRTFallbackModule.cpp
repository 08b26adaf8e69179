//===- TFRTFallbackModule.cpp - the _tfrt_fallback Python extension -------===//
//
// pybind11 bindings of the compiler (model file or MLIR text -> binary
// program bytes) and the runtime (load, signature, run) for the Python
// package `tfrt_fallback` (python/tfrt_fallback/__init__.py is its public
// face). NumPy arrays go in and out without copies where the dtype and the
// layout allow; the GIL is released while a program runs; failures raise
// tfrt_fallback.Error carrying the status code and message.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/ImportModel.h"
#include "tfrt_fallback/Import/SavedModelImport.h"
#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/StringTensor.h"
#include "tfrt_fallback/Target/BinaryProgram.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace tfrt_fallback;

namespace {

/// tfrt_fallback.Error, set up by the module's init.
PyObject *errorType = nullptr;

/// Raises tfrt_fallback.Error(message) with `code` (absl::StatusCode's
/// number) and `message` attributes.
[[noreturn]] void raise(int code, const std::string &message) {
  py::object error = py::reinterpret_borrow<py::object>(errorType)(message);
  error.attr("code") = code;
  error.attr("message") = message;
  PyErr_SetObject(errorType, error.ptr());
  throw py::error_already_set();
}

[[noreturn]] void raise(const rt::Status &status) {
  raise(static_cast<int>(status.code()), std::string(status.message()));
}

/// One registry of every built-in kernel, shared by the programs.
const rt::KernelRegistry &registry() {
  static const rt::KernelRegistry *registry = [] {
    auto *r = new rt::KernelRegistry;
    rt::registerAllKernels(*r);
    return r;
  }();
  return *registry;
}

/// Compiles a model file (`path`) or MLIR text (`text`, when `path` is
/// empty) into binary program bytes; the diagnostics are the error.
py::bytes compile(const std::string &text, std::string path,
                  const std::string &manifest) {
  std::string diagnostics;
  std::vector<uint8_t> bytes;
  bool ok = false;
  {
    py::gil_scoped_release release;
    mlir::DialectRegistry dialects;
    registerAllDialects(dialects);
    mlir::MLIRContext context(dialects);
    llvm::raw_string_ostream os(diagnostics);
    llvm::SourceMgr sourceMgr;
    std::unique_ptr<llvm::MemoryBuffer> buffer;
    if (path.empty()) {
      buffer = llvm::MemoryBuffer::getMemBufferCopy(text, "<string>");
    } else {
      // A SavedModel directory is read as its saved_model.pb.
      path = savedModelFile(path);
      auto file = llvm::MemoryBuffer::getFile(path);
      if (!file)
        os << path << ": " << file.getError().message() << "\n";
      else
        buffer = std::move(*file);
    }
    if (buffer) {
      sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
      mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
      mlir::OwningOpRef<mlir::ModuleOp> module = importModel(
          sourceMgr, path.empty() ? "<string>.mlir" : path, &context);
      TFRTFallbackPipelineOptions options;
      if (!manifest.empty())
        options.kernelManifest = manifest;
      ok = module && mlir::succeeded(lowerToFallback(*module, options)) &&
           mlir::succeeded(writeBinaryProgram(*module, bytes));
    }
  }
  if (!ok)
    raise(3, diagnostics.empty() ? "compilation failed" : diagnostics);
  return py::bytes(reinterpret_cast<const char *>(bytes.data()), bytes.size());
}

/// The NumPy dtype of a runtime dtype, or None (bfloat16, quantized,
/// resources and variants have none; strings are objects).
py::object numpyDType(rt::DType dtype) {
  if (dtype == rt::DType::String)
    return py::dtype("O");
  std::string_view descr = rt::numpyDescr(dtype);
  if (descr.empty())
    return py::none();
  return py::dtype(std::string(descr));
}

/// The Python-facing dtype name ("float32", "string", "bfloat16", ...).
const char *pyDTypeName(rt::DType dtype) {
  switch (dtype) {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  case rt::DType::Enum:                                                        \
    return PyName;
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, PyName, Name,    \
                                      Mlir)                                    \
  case rt::DType::Enum:                                                        \
    return PyName;
#include "tfrt_fallback/Runtime/DTypes.def"
  default:
    return "invalid";
  }
}

/// A tensor from a NumPy array: its memory when the array is C-contiguous,
/// 64-byte aligned and of a dtype the runtime has (the tensor then holds a
/// reference to the array), else a copy. Strings from bytes or str objects.
rt::Tensor toTensor(py::handle object, const std::string &what) {
  py::array array = py::array::ensure(object);
  if (!array)
    raise(3, what + " is not an array");
  std::vector<int64_t> dims(array.shape(), array.shape() + array.ndim());
  rt::StatusOr<rt::TensorShape> shape =
      rt::TensorShape::create(absl::MakeConstSpan(dims));
  if (!shape.ok())
    raise(shape.status());
  const char kind = array.dtype().kind();
  if (kind == 'O' || kind == 'S' || kind == 'U') {
    // Elements as bytes: bytes objects as they are, str as UTF-8.
    py::list flat = array.attr("ravel")().attr("tolist")();
    std::vector<std::string> owned;
    owned.reserve(flat.size());
    for (py::handle element : flat) {
      if (py::isinstance<py::bytes>(element))
        owned.push_back(element.cast<std::string>());
      else if (py::isinstance<py::str>(element))
        owned.push_back(element.cast<std::string>());
      else
        raise(3, what + ": a string tensor takes bytes or str elements");
    }
    std::vector<std::string_view> views(owned.begin(), owned.end());
    rt::StatusOr<rt::Tensor> tensor = rt::makeStringTensor(*shape, views);
    if (!tensor.ok())
      raise(tensor.status());
    return *std::move(tensor);
  }
  rt::StatusOr<rt::DType> dtype = rt::parseNumpyDescr(
      py::str(array.dtype().attr("str")).cast<std::string>());
  if (!dtype.ok())
    raise(3, what + ": NumPy dtype " +
                 py::str(array.dtype()).cast<std::string>() +
                 " has no runtime dtype");
  const bool contiguous = (array.flags() & py::array::c_style) &&
                          array.dtype().attr("isnative").cast<bool>();
  const auto address = reinterpret_cast<uintptr_t>(array.data());
  if (contiguous && address % rt::TensorBuffer::kAlignment == 0 &&
      array.nbytes() > 0) {
    // The array's own memory; the buffer holds the array (and takes the
    // GIL to let it go, from whichever thread drops it last).
    auto *held = new py::object(py::reinterpret_borrow<py::object>(array));
    rt::RCReference<rt::TensorBuffer> buffer = rt::TensorBuffer::wrapExternal(
        const_cast<void *>(array.data()), array.nbytes(), [held] {
          py::gil_scoped_acquire gil;
          delete held;
        });
    return rt::Tensor(*dtype, *std::move(shape), std::move(buffer));
  }
  py::array copy =
      py::array::ensure(array, py::array::c_style | py::array::forcecast);
  rt::StatusOr<rt::Tensor> tensor =
      rt::Tensor::allocate(*dtype, *std::move(shape));
  if (!tensor.ok())
    raise(tensor.status());
  if (tensor->totalBytes())
    std::memcpy(tensor->rawData(), copy.data(), tensor->totalBytes());
  return *std::move(tensor);
}

/// A NumPy array over a tensor's memory (it holds the tensor), or of bytes
/// objects for strings.
py::object toArray(rt::Tensor tensor, const std::string &what) {
  std::vector<py::ssize_t> shape(tensor.shape().dims().begin(),
                                 tensor.shape().dims().end());
  if (tensor.dtype() == rt::DType::String) {
    py::array result(py::dtype("O"), shape);
    auto elements = rt::stringElements(tensor);
    auto **out = static_cast<PyObject **>(result.mutable_data());
    for (size_t i = 0; i < elements.size(); ++i) {
      // The array was made with None elements: replace each.
      Py_XDECREF(out[i]);
      out[i] =
          py::bytes(elements[i].data(), elements[i].size()).release().ptr();
    }
    return std::move(result);
  }
  py::object dtype = numpyDType(tensor.dtype());
  if (dtype.is_none())
    raise(12, what + " is a tensor of dtype " + pyDTypeName(tensor.dtype()) +
                  ", which has no NumPy dtype");
  void *data = tensor.rawData();
  auto *owner = new rt::Tensor(std::move(tensor));
  py::capsule base(owner, [](void *p) { delete static_cast<rt::Tensor *>(p); });
  return py::array(dtype.cast<py::dtype>(), shape, data, base);
}

/// A loaded binary program and, per thread count, a host and an executor.
class PyProgram {
public:
  explicit PyProgram(py::bytes bytes) {
    std::string_view view = bytes.cast<std::string_view>();
    rt::StatusOr<std::unique_ptr<rt::Program>> program = rt::Program::load(
        absl::MakeConstSpan(reinterpret_cast<const uint8_t *>(view.data()),
                            view.size()),
        registry());
    if (!program.ok())
      raise(program.status());
    program_ = *std::move(program);
  }

  const rt::Function &function(const std::string &name) const {
    const rt::Function *f = program_->lookupFunction(name);
    if (!f)
      raise(5, "the program has no function '" + name + "'");
    return *f;
  }

  py::dict signature(const std::string &name) const {
    const rt::Function &f = function(name);
    auto list = [&](const std::vector<std::string> &names,
                    const std::vector<uint32_t> &registers) {
      py::list entries;
      for (size_t i = 0; i < names.size(); ++i) {
        const rt::ValueType &type =
            program_->types()[f.registerTypes[registers[i]]];
        py::object shape = py::none();
        if (type.shape.hasRank()) {
          py::list dims;
          for (int64_t dim : type.shape.dims())
            dims.append(dim < 0 ? py::object(py::none()) : py::int_(dim));
          shape = py::tuple(dims);
        }
        py::dict entry;
        entry["name"] = names[i];
        entry["dtype"] = type.isChain() ? "chain" : pyDTypeName(type.dtype);
        entry["shape"] = shape;
        entries.append(entry);
      }
      return entries;
    };
    py::dict result;
    result["inputs"] = list(f.argNames, f.argRegisters);
    result["outputs"] = list(f.resultNames, f.resultRegisters);
    return result;
  }

  int inputIndex(const std::string &functionName,
                 const std::string &name) const {
    return function(functionName).argIndex(name);
  }

  py::list run(const std::string &name, py::list inputs, int threads,
               double deadlineMs) {
    const rt::Function &f = function(name);
    std::vector<rt::Tensor> tensors;
    for (size_t i = 0; i < inputs.size(); ++i)
      tensors.push_back(toTensor(inputs[i], "input " + std::to_string(i)));
    // The caller's arrays stay the caller's: with a second reference the
    // run never lends their memory to a kernel's output.
    std::vector<rt::Tensor> held = tensors;
    rt::Executor &executor = executorFor(threads);
    rt::StatusOr<std::vector<rt::ResultValue>> results = [&] {
      py::gil_scoped_release release;
      rt::RunOptions options;
      if (deadlineMs > 0)
        options = rt::RunOptions::withTimeout(
            std::chrono::microseconds(static_cast<int64_t>(deadlineMs * 1e3)));
      return executor.run(f, std::move(tensors), options);
    }();
    held.clear();
    if (!results.ok())
      raise(results.status());
    py::list outputs;
    for (size_t i = 0; i < results->size(); ++i) {
      rt::ResultValue &result = (*results)[i];
      if (!result.ok())
        raise(result.status());
      outputs.append(toArray(*std::move(result), "output " + f.resultNames[i]));
    }
    return outputs;
  }

private:
  rt::Executor &executorFor(int threads) {
    std::lock_guard<std::mutex> lock(mutex_);
    // One thread runs every kernel on the caller's thread, as zero does.
    const int key = threads <= 1 ? 0 : threads;
    auto &entry = executors_[key];
    if (!entry.second) {
      entry.first = std::make_unique<rt::HostContext>(key);
      auto executor = std::make_unique<rt::Executor>(*program_, *entry.first);
      // A SavedModel's variables are set once per executor, before its
      // signatures run (they share them).
      if (const rt::Function *init = program_->lookupFunction(
              std::string_view(kSavedModelInitFunction))) {
        rt::Status status;
        {
          py::gil_scoped_release release;
          status = executor->runForEffects(*init, {});
        }
        if (!status.ok())
          raise(status);
      }
      entry.second = std::move(executor);
    }
    return *entry.second;
  }

  std::unique_ptr<rt::Program> program_;
  std::mutex mutex_;
  std::map<int, std::pair<std::unique_ptr<rt::HostContext>,
                          std::unique_ptr<rt::Executor>>>
      executors_;
};

} // namespace

PYBIND11_MODULE(_tfrt_fallback, m) {
  m.doc() = "tfrt-fallback's compiler and runtime (use the tfrt_fallback "
            "package)";
  py::dict attributes;
  attributes["__doc__"] =
      "A failure of tfrt-fallback: `code` is absl::StatusCode's number (3 "
      "INVALID_ARGUMENT, 4 DEADLINE_EXCEEDED, 5 NOT_FOUND, ...), `message` "
      "the text.";
  attributes["__module__"] = "tfrt_fallback";
  errorType = PyErr_NewException("tfrt_fallback.Error", PyExc_RuntimeError,
                                 attributes.ptr());
  m.attr("Error") = py::handle(errorType);
  m.def("compile", &compile, py::arg("text"), py::arg("path"),
        py::arg("manifest"));
  py::class_<PyProgram>(m, "Program")
      .def(py::init<py::bytes>())
      .def("signature", &PyProgram::signature)
      .def("input_index", &PyProgram::inputIndex)
      .def("run", &PyProgram::run);
}
