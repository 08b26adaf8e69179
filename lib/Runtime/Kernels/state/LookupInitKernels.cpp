//===- LookupInitKernels.cpp - Lookup table initializers --------*- C++ -*-===//
//
// The initializers of TensorFlow's HashTable (lookup_table_init_op.cc,
// lookup_util.cc): after one, the table is read-only.
//
// - InitializeTableV2(table, keys, values): keys[i] -> values[i] (vectors
//   of one length, not empty; a key twice with two values is an error). A
//   table initialized already accepts as many entries again and keeps its
//   own.
// - InitializeTableFromTextFileV2(table, filename; key_index, value_index,
//   vocab_size = -1, delimiter = "\t", offset = 0): one entry per line of
//   the text file, key and value each from column `index` of the line split
//   at `delimiter`, the whole line (-2) or the line number plus offset
//   (-1, int64); int32 columns are parsed and offset too, as in TF. At most
//   vocab_size lines (-1: all; fewer is an error). A table initialized
//   already is left as it is. The file is a path of the local file system,
//   read when the kernel runs (the runtime has no file system of its own:
//   TF reads it through its Env); an unreadable file is NotFound.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"
#include "state/LookupTable.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include "absl/strings/numbers.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {
namespace kernels {
namespace {

class InitializeTableKernel final : public OpKernel {
public:
  explicit InitializeTableKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedTable table = lockTable(ctx, *this);
    if (!table)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, table->tableKind == LookupTable::Kind::Hash,
        errorf("Table is not initializable: only a HashTable is"));
    const Tensor &keys = ctx->input(1);
    const Tensor &values = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        keys.dtype() == table->keyDType && values.dtype() == table->valueDType,
        errorf("Signature mismatch, have: %s, %s expected: %s, %s",
               dtypeName(keys.dtype()), dtypeName(values.dtype()),
               dtypeName(table->keyDType), dtypeName(table->valueDType)));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, keys.rank() == 1,
        errorf("Keys must be a vector, but received shape%s",
               keys.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, values.rank() == 1,
        errorf("Values must be a vector, but received shape%s",
               values.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, keys.numElements() == values.numElements(),
        errorf("Keys and values must have the same size %s vs %s",
               keys.numElements(), values.numElements()));
    if (Status status = table->initialize(keys, values); !status.ok())
      failWith(ctx, *this, status);
  }
};

constexpr int64_t kLineNumber = -1;
constexpr int64_t kWholeLine = -2;

/// The lines of a text file, as TF's InputBuffer::ReadLine gives them
/// (without "\n" or "\r\n"), each with the offset just past it.
struct Line {
  std::string_view text;
  int64_t end;
};

std::vector<Line> splitLines(std::string_view bytes) {
  std::vector<Line> lines;
  size_t begin = 0;
  while (begin < bytes.size()) {
    size_t newline = bytes.find('\n', begin);
    size_t end = newline == std::string_view::npos ? bytes.size() : newline;
    size_t next = newline == std::string_view::npos ? end : end + 1;
    std::string_view text = bytes.substr(begin, end - begin);
    if (!text.empty() && text.back() == '\r')
      text.remove_suffix(1);
    lines.push_back({text, static_cast<int64_t>(next)});
    begin = next;
  }
  return lines;
}

std::vector<std::string_view> splitTokens(std::string_view line, char delim) {
  std::vector<std::string_view> tokens;
  size_t begin = 0;
  while (true) {
    size_t at = line.find(delim, begin);
    if (at == std::string_view::npos) {
      tokens.push_back(line.substr(begin));
      return tokens;
    }
    tokens.push_back(line.substr(begin, at - begin));
    begin = at + 1;
  }
}

/// One column of the entries being read: its values, as TF's
/// TextFileLineIterator::SetValue parses them.
class Column {
public:
  Column(DType dtype, int64_t index, int64_t offset)
      : dtype(dtype), index(index), offset(offset) {}

  Status add(std::string_view line, const std::vector<std::string_view> &tokens,
             int64_t lineNumber) {
    if (index == kLineNumber) {
      ints.push_back(lineNumber + offset);
      return OkStatus();
    }
    std::string_view token = index == kWholeLine ? line : tokens[index];
    absl::string_view text(token.data(), token.size());
    auto invalid = [&](const char *what) {
      return InvalidArgumentError(strCat("Field ", token, " in line ",
                                         lineNumber, " is not a valid ", what,
                                         "."));
    };
    switch (dtype) {
    case DType::I32: {
      int32_t value;
      if (!absl::SimpleAtoi(text, &value))
        return invalid("int32");
      ints.push_back(static_cast<int32_t>(value + offset));
      return OkStatus();
    }
    case DType::I64: {
      int64_t value;
      if (!absl::SimpleAtoi(text, &value))
        return invalid("int64");
      ints.push_back(value);
      return OkStatus();
    }
    case DType::F32: {
      float value;
      if (!absl::SimpleAtof(text, &value))
        return invalid("float");
      reals.push_back(value);
      return OkStatus();
    }
    case DType::F64: {
      double value;
      if (!absl::SimpleAtod(text, &value))
        return invalid("double");
      reals.push_back(value);
      return OkStatus();
    }
    case DType::String:
      strings.push_back(token);
      return OkStatus();
    default:
      return InvalidArgumentError(
          strCat("Data type ", dtypeName(dtype), " not supported."));
    }
  }

  StatusOr<Tensor> tensor() const {
    const int64_t n = static_cast<int64_t>(
        dtype == DType::String                         ? strings.size()
        : (dtype == DType::F32 || dtype == DType::F64) ? reals.size()
                                                       : ints.size());
    if (dtype == DType::String)
      return makeStringTensor(TensorShape{n}, strings);
    StatusOr<Tensor> out = Tensor::allocate(dtype, TensorShape{n});
    if (!out.ok())
      return out.status();
    for (int64_t i = 0; i < n; ++i) {
      switch (dtype) {
      case DType::I32:
        out->data<int32_t>()[i] = static_cast<int32_t>(ints[i]);
        break;
      case DType::I64:
        out->data<int64_t>()[i] = ints[i];
        break;
      case DType::F32:
        out->data<float>()[i] = static_cast<float>(reals[i]);
        break;
      default:
        out->data<double>()[i] = reals[i];
        break;
      }
    }
    return out;
  }

private:
  DType dtype;
  int64_t index;
  int64_t offset;
  std::vector<int64_t> ints;
  std::vector<double> reals;
  std::vector<std::string_view> strings;
};

class InitializeTableFromTextFileKernel final : public OpKernel {
public:
  explicit InitializeTableFromTextFileKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("key_index", &keyIndex));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("value_index", &valueIndex));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "vocab_size", &vocabSize));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "offset", &offset));
    std::string delimiter = "\t";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "delimiter", &delimiter));
    TFRT_FALLBACK_OP_REQUIRES(ctx, delimiter.size() == 1,
                              errorf("delimiter should be only 1 char"));
    delim = delimiter[0];
    // The OpDef's bounds: key_index, value_index >= -2, vocab_size >= -1.
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, keyIndex >= -2 && valueIndex >= -2 && vocabSize >= -1,
        errorf("key_index and value_index must be >= -2 and vocab_size >= "
               "-1, got %s, %s and %s",
               keyIndex, valueIndex, vocabSize));
  }

  void compute(OpKernelContextInterface *ctx) override {
    LockedTable table = lockTable(ctx, *this);
    if (!table)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, table->tableKind == LookupTable::Kind::Hash,
        errorf("Table is not initializable: only a HashTable is"));
    const Tensor &filename = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, filename.dtype() == DType::String && filename.rank() == 0,
        errorf("filename should be a single string, but got %s",
               filename.shape().toString()));
    const std::string path(stringElements(filename)[0]);
    TFRT_FALLBACK_OP_REQUIRES(ctx, !path.empty(),
                              errorf("filename cannot be empty."));
    if (Status status = initialize(*table.table, path); !status.ok())
      failWith(ctx, *this, status);
  }

private:
  /// lookup::InitializeTableFromTextFile.
  Status initialize(LookupTable &table, const std::string &path) const {
    const DType keyDType = table.keyDType, valueDType = table.valueDType;
    if (keyIndex == kLineNumber && keyDType != DType::I64)
      return InvalidArgumentError(
          strCat("Key index for line number requires table key dtype of "
                 "int64, got ",
                 dtypeName(keyDType)));
    if (keyIndex == kWholeLine && !isInteger(keyDType) &&
        keyDType != DType::String)
      return InvalidArgumentError(
          strCat("Key index for whole line requires string or integer table "
                 "key, got ",
                 dtypeName(keyDType)));
    if (valueIndex == kLineNumber && valueDType != DType::I64)
      return InvalidArgumentError(
          strCat("Value index for line number requires table value dtype of "
                 "int64, got ",
                 dtypeName(valueDType)));
    if (valueIndex == kWholeLine && !isInteger(valueDType) &&
        valueDType != DType::String)
      return InvalidArgumentError(
          strCat("Value index for whole line requires table value dtype of "
                 "integer or string, got ",
                 dtypeName(valueDType)));
    std::ifstream file(path, std::ios::binary);
    if (!file)
      return NotFoundError(strCat(path, "; ", std::strerror(errno)));
    std::ostringstream contents;
    contents << file.rdbuf();
    if (file.bad())
      return DataLossError(strCat("cannot read ", path));
    const std::string bytes = std::move(contents).str();
    std::vector<Line> lines = splitLines(bytes);
    if (lines.empty()) {
      if (vocabSize != -1 && vocabSize != 0)
        return InvalidArgumentError(strCat("Invalid vocab_size in ", path,
                                           ": expected ", vocabSize,
                                           " but got 0"));
      return OutOfRangeError("EOF reached");
    }
    // TF ignores a second initialization from a file.
    if (table.initialized)
      return OkStatus();
    Column keys(keyDType, keyIndex, offset),
        values(valueDType, valueIndex, offset);
    const bool split = std::max(keyIndex, valueIndex) >= 0;
    const size_t columns =
        static_cast<size_t>(std::max(keyIndex, valueIndex) + 1);
    int64_t next = 0;
    for (const Line &line : lines) {
      if (vocabSize != -1 && next >= vocabSize)
        break;
      if (line.text.empty())
        return InvalidArgumentError(strCat("Invalid content in ", path,
                                           ": empty line found at position ",
                                           line.end, "."));
      std::vector<std::string_view> tokens;
      if (split) {
        tokens = splitTokens(line.text, delim);
        if (tokens.size() < columns)
          return InvalidArgumentError(
              strCat("Invalid number of columns in ", path, " line ", next,
                     " (", line.text, ") : expected at least ", columns,
                     " got ", tokens.size()));
      }
      if (Status status = keys.add(line.text, tokens, next); !status.ok())
        return status;
      if (Status status = values.add(line.text, tokens, next); !status.ok())
        return status;
      ++next;
    }
    if (vocabSize != -1 && next != vocabSize)
      return InvalidArgumentError(strCat("Invalid vocab_size in ", path,
                                         ": expected ", vocabSize, " but got ",
                                         next));
    StatusOr<Tensor> keyTensor = keys.tensor();
    if (!keyTensor.ok())
      return keyTensor.status();
    StatusOr<Tensor> valueTensor = values.tensor();
    if (!valueTensor.ok())
      return valueTensor.status();
    return table.initialize(*keyTensor, *valueTensor);
  }

  int64_t keyIndex = 0;
  int64_t valueIndex = 0;
  int64_t vocabSize = -1;
  int64_t offset = 0;
  char delim = '\t';
};

} // namespace

void registerLookupInitKernels(KernelRegistry &registry) {
  registerKernel<OpId::kInitializeTableV2, InitializeTableKernel>(registry);
  registerKernel<OpId::kInitializeTableFromTextFileV2,
                 InitializeTableFromTextFileKernel>(registry);
}

} // namespace kernels
} // namespace tfrt_fallback::rt
