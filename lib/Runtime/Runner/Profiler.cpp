//===- Profiler.cpp - where a run's time goes -------------------*- C++ -*-===//
//
// KernelProfiler: records kernels as a KernelObserver; writes Chrome trace
// JSON and a text summary of the ops and kernels that took the most time.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Profiler.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>

namespace tfrt_fallback::rt {
namespace {

/// A small number per thread, in the order threads first record a kernel.
uint32_t threadNumber() {
  static std::atomic<uint32_t> next{0};
  thread_local uint32_t number = next.fetch_add(1);
  return number;
}

/// `text` as the contents of a JSON string.
void appendJsonString(std::string &out, std::string_view text) {
  for (char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char escape[8];
        std::snprintf(escape, sizeof(escape), "\\u%04x", c);
        out += escape;
      } else {
        out += c;
      }
    }
  }
}

std::string format(const char *pattern, double a, double b = 0, double c = 0) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), pattern, a, b, c);
  return buffer;
}

} // namespace

KernelProfiler::KernelProfiler() : origin_(std::chrono::steady_clock::now()) {}

void KernelProfiler::beginRun() {
  std::lock_guard<std::mutex> lock(mu_);
  ++runs_;
}

void KernelProfiler::kernelDone(const KernelEntry &kernel,
                                absl::Span<Tensor *const> outputs,
                                const Status &status,
                                std::chrono::steady_clock::time_point start,
                                std::chrono::steady_clock::time_point end) {
  using std::chrono::duration_cast;
  using std::chrono::nanoseconds;
  Event event{&kernel, duration_cast<nanoseconds>(start - origin_).count(),
              duration_cast<nanoseconds>(end - start).count(), threadNumber(),
              !status.ok()};
  std::lock_guard<std::mutex> lock(mu_);
  events_.push_back(event);
  if (status.ok() && !shapes_.count(&kernel)) {
    std::string text;
    for (const Tensor *output : outputs) {
      if (!text.empty())
        text += ", ";
      text += output->isValid() ? describeTensor(*output) : "?";
    }
    shapes_.emplace(&kernel, std::move(text));
  }
}

std::string KernelProfiler::chromeTrace() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
  bool first = true;
  for (const Event &event : events_) {
    out += first ? "\n" : ",\n";
    first = false;
    out += "{\"name\":\"";
    appendJsonString(out, event.kernel->opName);
    out += "\",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":0,\"tid\":";
    out += std::to_string(event.thread);
    out += format(",\"ts\":%.3f,\"dur\":%.3f", event.startNs / 1e3,
                  event.durationNs / 1e3);
    out += ",\"args\":{\"location\":\"";
    appendJsonString(out, event.kernel->location);
    out += "\",\"outputs\":\"";
    auto shapes = shapes_.find(event.kernel);
    if (event.failed)
      out += "error";
    else if (shapes != shapes_.end())
      appendJsonString(out, shapes->second);
    out += "\"}}";
  }
  out += "\n]}\n";
  return out;
}

std::string KernelProfiler::summary(int top) const {
  std::lock_guard<std::mutex> lock(mu_);
  struct Total {
    int64_t ns = 0, calls = 0;
  };
  std::map<std::string_view, Total> byOp;
  std::map<const KernelEntry *, Total> byKernel;
  int64_t totalNs = 0;
  for (const Event &event : events_) {
    Total &op = byOp[event.kernel->opName];
    op.ns += event.durationNs;
    ++op.calls;
    Total &kernel = byKernel[event.kernel];
    kernel.ns += event.durationNs;
    ++kernel.calls;
    totalNs += event.durationNs;
  }
  const double runs = std::max(runs_, 1);
  const double total = std::max<double>(static_cast<double>(totalNs), 1);
  std::string out = "profile: " + std::to_string(runs_ > 0 ? runs_ : 1) +
                    (runs_ > 1 ? " runs" : " run") + ", " +
                    std::to_string(events_.size() / static_cast<size_t>(runs)) +
                    " kernels and " + format("%.3f", totalNs / 1e6 / runs) +
                    " ms of kernel time per run\n";
  std::vector<std::pair<std::string_view, Total>> ops(byOp.begin(), byOp.end());
  std::sort(ops.begin(), ops.end(), [](const auto &a, const auto &b) {
    return a.second.ns > b.second.ns;
  });
  char line[256];
  std::snprintf(line, sizeof(line), "%-32s %10s %10s %7s\n", "op", "calls/run",
                "ms/run", "%");
  out += line;
  for (const auto &[name, t] : ops) {
    std::snprintf(line, sizeof(line), "%-32.*s %10.1f %10.3f %6.1f%%\n",
                  static_cast<int>(name.size()), name.data(), t.calls / runs,
                  t.ns / 1e6 / runs, 100.0 * t.ns / total);
    out += line;
  }
  std::vector<std::pair<const KernelEntry *, Total>> kernels(byKernel.begin(),
                                                             byKernel.end());
  std::sort(kernels.begin(), kernels.end(), [](const auto &a, const auto &b) {
    return a.second.ns > b.second.ns;
  });
  if (top > 0 && !kernels.empty()) {
    out += "top kernels (ms/run, % of kernel time, op at location -> "
           "outputs):\n";
    for (int i = 0; i < top && i < static_cast<int>(kernels.size()); ++i) {
      const auto &[kernel, t] = kernels[i];
      std::snprintf(line, sizeof(line), "%10.3f %6.1f%%  ", t.ns / 1e6 / runs,
                    100.0 * t.ns / total);
      out += line;
      out += kernel->opName;
      if (!kernel->location.empty())
        out += " at " + kernel->location;
      auto shapes = shapes_.find(kernel);
      if (shapes != shapes_.end())
        out += " -> " + shapes->second;
      out += "\n";
    }
  }
  return out;
}

} // namespace tfrt_fallback::rt
