//===- AudioKernels.cpp - Audio features and the WAV codec ------*- C++ -*-===//
//
// TensorFlow's audio features (tensorflow/core/kernels/spectrogram.cc,
// spectrogram_op.cc, mfcc.cc, mfcc_mel_filterbank.cc, mfcc_dct.cc,
// mfcc_op.cc), with TF's arithmetic (double precision inside, float in and
// out), attributes and messages, and its WAV codec (decode_wav_op.cc,
// encode_wav_op.cc, lib/wav/wav_io.cc):
//
// - AudioSpectrogram(input: float [samples, channels]; window_size, stride,
//   magnitude_squared = false) -> float [channels, frames, fft / 2 + 1]:
//   frame f of a channel is samples [f * stride, f * stride + window_size)
//   times a periodic Hann window (0.5 - 0.5 cos(2 pi i / window_size)),
//   zero-padded to fft, the next power of two >= window_size, and
//   transformed; each bin is |X_k|^2 rounded to float (sqrtf of that
//   without magnitude_squared). frames = 1 + (samples - window_size) /
//   stride, 0 when there are fewer samples than window_size.
// - Mfcc(spectrogram: float [channels, frames, bins], sample_rate: int32
//   scalar; upper_frequency_limit = 4000, lower_frequency_limit = 20,
//   filterbank_channel_count = 40, dct_coefficient_count = 13) -> float
//   [channels, frames, dct_coefficient_count]: per frame, the square roots
//   of the bins are summed into triangular mel bands (HTK's mel scale,
//   1127 ln(1 + f / 700); bin 0 excluded), floored at 1e-12, logged, and
//   the first dct_coefficient_count coefficients of an unnormalized DCT-II
//   (sqrt(2 / channels) cos(pi i (j + 0.5) / channels)) kept.
// - DecodeWav(contents: string scalar; desired_channels = -1,
//   desired_samples = -1) -> audio: float [samples, channels], sample_rate:
//   int32 scalar: 16-bit PCM only, each sample / 32768. The chunks before
//   "fmt " may be JUNK, bext, iXML, qlty, mext, levl, link or axml; other
//   chunks after it are skipped; exactly one "data" chunk. Samples past the
//   file's are 0, channels past its last repeat the last one.
// - EncodeWav(audio: float [samples, channels], sample_rate: int32 scalar)
//   -> string scalar: a 44-byte header (RIFF, a 16-byte "fmt " chunk for
//   16-bit PCM, "data") and each sample as round(x * 32768) clamped to
//   int16 (NaN, undefined in TF, as 0).
//
// The FFT is Eigen's (unsupported/Eigen/FFT, KISS FFT) in double; TF uses
// Ooura's rdft: both are exact to double rounding, so the float results
// agree to float rounding.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// The smallest power of two >= n (n >= 1), TF's NextPowerOfTwo.
int64_t nextPowerOfTwo(int64_t n) {
  int64_t p = 1;
  while (p < n)
    p <<= 1;
  return p;
}

//===----------------------------------------------------------------------===//
// AudioSpectrogram
//===----------------------------------------------------------------------===//

/// AudioSpectrogram, as described at the top. TF's shape function rejects
/// window_size <= 1 ("window size must be > 1, got 1") and stride <= 0
/// ("stride must be strictly positive, got 0") when a graph is built; here
/// the kernel's construction does, with the same messages. A window_size
/// above 2^30 (its FFT length overflows TF's int, a CHECK failure there)
/// fails with TF's "Spectrogram initialization failed for window size ..".
class AudioSpectrogramKernel final : public OpKernel {
public:
  explicit AudioSpectrogramKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("window_size", &window_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("stride", &stride_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "magnitude_squared", &squared_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, window_ > 1, errorf("window size must be > 1, got %d", window_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, stride_ > 0,
        errorf("stride must be strictly positive, got %d", stride_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.dtype() == DType::F32,
        errorf("input must be float, got %s", dtypeName(input.dtype())));
    // TF's message runs the shape into the text.
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.rank() == 2,
        errorf("input must be 2-dimensional%s", input.shape().toString()));
    const int64_t fftLength = nextPowerOfTwo(window_);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, fftLength <= (int64_t(1) << 30),
        errorf("Spectrogram initialization failed for window size %d and "
               "stride %d",
               window_, stride_));
    const int64_t samples = input.dim(0);
    const int64_t channels = input.dim(1);
    const int64_t width = fftLength / 2 + 1;
    const int64_t frames =
        samples < window_ ? 0 : 1 + (samples - window_) / stride_;
    StatusOr<TensorShape> shape =
        TensorShape::create({channels, frames, width});
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *shape, &out));
    if (out->numElements() == 0)
      return;
    // Per chunk of frames: the window and a real and a complex FFT buffer.
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        checkHostAllocation(static_cast<uint64_t>(fftLength),
                            2 * sizeof(double) + sizeof(std::complex<double>)));

    // TF's GetPeriodicHann, pi as atan(1) * 4.
    const double pi = std::atan(1.0) * 4;
    std::vector<double> hann(window_);
    for (int64_t i = 0; i < window_; ++i)
      hann[i] = 0.5 - 0.5 * std::cos((2 * pi * i) / window_);

    const float *in = input.data<float>();
    float *dst = out->data<float>();
    const int64_t window = window_, stride = stride_;
    const bool squared = squared_;
    const double cost = 5.0 * fftLength * std::log2(double(fftLength));
    // One item per (channel, frame), in the output's order.
    parallelFor(ctx->eigenDevice(), channels * frames,
                Eigen::TensorOpCost(window * sizeof(float),
                                    width * sizeof(float), cost),
                [&](Eigen::Index first, Eigen::Index last) {
                  Eigen::FFT<double> fft;
                  fft.SetFlag(Eigen::FFT<double>::HalfSpectrum);
                  std::vector<double> frame(fftLength, 0.0);
                  std::vector<std::complex<double>> spectrum(fftLength);
                  for (Eigen::Index item = first; item < last; ++item) {
                    const int64_t channel = item / frames, f = item % frames;
                    const float *src = in + f * stride * channels + channel;
                    for (int64_t j = 0; j < window; ++j)
                      frame[j] =
                          static_cast<double>(src[j * channels]) * hann[j];
                    // frame[window, fftLength) stays zero.
                    fft.fwd(spectrum.data(), frame.data(), fftLength);
                    float *row = dst + item * width;
                    for (int64_t k = 0; k < width; ++k) {
                      const double re = spectrum[k].real(),
                                   im = spectrum[k].imag();
                      const float power = static_cast<float>(re * re + im * im);
                      row[k] = squared ? power : std::sqrt(power);
                    }
                  }
                });
  }

private:
  int32_t window_ = 0;
  int32_t stride_ = 0;
  bool squared_ = false;
};

//===----------------------------------------------------------------------===//
// Mfcc
//===----------------------------------------------------------------------===//

/// The mel filterbank and DCT of one Mfcc call (TF's MfccMelFilterbank and
/// MfccDct), for `bins` spectrogram bins.
struct MfccPlan {
  int64_t channels = 0;     // filterbank_channel_count
  int64_t coefficients = 0; // dct_coefficient_count
  // TF's start_index_ / end_index_: bins [start, end] feed the bands. An
  // end at or past the last bin makes TF's filterbank give up ("Input too
  // short to compute filterbank") and the MFCCs all zero.
  int64_t start = 0, end = 0;
  bool tooShort = false;
  // For bin start + i: the band whose right side it is on (-1: none) and
  // its weight there (1 - weight goes to the next band's left side).
  std::vector<int64_t> band;
  std::vector<double> weight;
  // cosines[i * channels + j] = sqrt(2 / channels) cos(i pi / channels (j
  // + 0.5)).
  std::vector<double> cosines;
};

double freqToMel(double freq) { return 1127.0 * std::log1p(freq / 700.0); }

/// TF's Mfcc::Initialize checks: whether a filterbank of `channels` bands
/// between `lower` and `upper` Hz over `bins` bins of a `sampleRate`
/// spectrogram, and a DCT of `coefficients` of them, can be made. NaN
/// limits fail here (TF goes on with NaN arithmetic).
bool mfccValid(int64_t bins, double sampleRate, int64_t channels,
               int64_t coefficients, double lower, double upper) {
  if (channels < 1 || sampleRate <= 0 || bins < 2 || !(lower >= 0) ||
      !(upper > lower))
    return false;
  if (channels + 1 >= std::numeric_limits<int>::max())
    return false;
  return coefficients >= 1 && coefficients <= channels;
}

/// Builds the plan of a valid configuration (mfccValid), as TF's
/// MfccMelFilterbank::Initialize and MfccDct::Initialize do, computing
/// only what Compute reads.
Status makeMfccPlan(int64_t bins, double sampleRate, int64_t channels,
                    int64_t coefficients, double lower, double upper,
                    MfccPlan *plan) {
  plan->channels = channels;
  plan->coefficients = coefficients;
  const double melLow = freqToMel(lower);
  const double melHigh = freqToMel(upper);
  const double melSpacing =
      (melHigh - melLow) / static_cast<double>(channels + 1);
  // TF's center_frequencies_[c], for c in [0, channels].
  auto center = [&](int64_t c) {
    return melLow + (melSpacing * static_cast<double>(c + 1));
  };
  const double hzPerBin = 0.5 * sampleRate / static_cast<double>(bins - 1);
  // TF's static_cast<int> of these; values past the bins (or infinite) act
  // alike, so they are clamped before the conversion.
  const double startValue = 1.5 + lower / hzPerBin;
  const double endValue = upper / hzPerBin;
  plan->start = startValue >= static_cast<double>(bins + 1)
                    ? bins + 1
                    : static_cast<int64_t>(startValue);
  plan->end = endValue >= static_cast<double>(bins)
                  ? bins
                  : static_cast<int64_t>(endValue);
  plan->tooShort = bins <= plan->end;
  if (plan->tooShort)
    return OkStatus();
  const int64_t used = std::max<int64_t>(0, plan->end - plan->start + 1);
  if (Status status = checkHostAllocation(static_cast<uint64_t>(used),
                                          sizeof(int64_t) + sizeof(double));
      !status.ok())
    return status;
  if (Status status = checkHostAllocation(static_cast<uint64_t>(coefficients) *
                                              static_cast<uint64_t>(channels),
                                          sizeof(double));
      !status.ok())
    return status;
  plan->band.resize(used);
  plan->weight.resize(used);
  // TF's band_mapper_: the channel counter only moves forward over the
  // bins in order.
  int64_t channel = 0;
  for (int64_t i = plan->start; i <= plan->end; ++i) {
    const double melf = freqToMel(static_cast<double>(i) * hzPerBin);
    while (channel < channels && center(channel) < melf)
      ++channel;
    const int64_t band = channel - 1;
    plan->band[i - plan->start] = band;
    plan->weight[i - plan->start] =
        band >= 0
            ? (center(band + 1) - melf) / (center(band + 1) - center(band))
            : (center(0) - melf) / (center(0) - melLow);
  }
  const double pi = std::atan(1.0) * 4;
  const double fnorm = std::sqrt(2.0 / static_cast<double>(channels));
  const double arg = pi / static_cast<double>(channels);
  plan->cosines.resize(coefficients * channels);
  for (int64_t i = 0; i < coefficients; ++i)
    for (int64_t j = 0; j < channels; ++j)
      plan->cosines[i * channels + j] =
          fnorm * std::cos(static_cast<double>(i) * arg * (j + 0.5));
  return OkStatus();
}

/// Mfcc, as described at the top; TF's checks and messages
/// ("spectrogram must be 3-dimensional[..]", "Input sample_rate should be
/// a scalar tensor, got [1] instead.", "Mfcc initialization failed for
/// channel count 1, sample rate 0 and filterbank_channel_count 40").
/// Upper limits past the Nyquist frequency give zeros, as in TF.
class MfccKernel final : public OpKernel {
public:
  explicit MfccKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "upper_frequency_limit", &upper_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "lower_frequency_limit", &lower_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "filterbank_channel_count", &channels_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "dct_coefficient_count", &coefficients_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &spectrogram = ctx->input(0);
    const Tensor &rate = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, spectrogram.dtype() == DType::F32,
                              errorf("spectrogram must be float, got %s",
                                     dtypeName(spectrogram.dtype())));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rate.dtype() == DType::I32,
        errorf("sample_rate must be int32, got %s", dtypeName(rate.dtype())));
    TFRT_FALLBACK_OP_REQUIRES(ctx, spectrogram.rank() == 3,
                              errorf("spectrogram must be 3-dimensional%s",
                                     spectrogram.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rate.rank() == 0,
        errorf("Input sample_rate should be a scalar tensor, got %s instead.",
               rate.shape().toString()));
    const int32_t sampleRate = rate.data<int32_t>()[0];
    const int64_t audioChannels = spectrogram.dim(0);
    const int64_t frames = spectrogram.dim(1);
    const int64_t bins = spectrogram.dim(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        mfccValid(bins, sampleRate, channels_, coefficients_, lower_, upper_),
        errorf("Mfcc initialization failed for channel count %d, sample rate "
               "%d and filterbank_channel_count %d",
               bins, sampleRate, channels_));
    StatusOr<TensorShape> shape =
        TensorShape::create({audioChannels, frames, int64_t{coefficients_}});
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *shape, &out));
    if (out->numElements() == 0)
      return;
    MfccPlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, makeMfccPlan(bins, sampleRate, channels_,
                                                   coefficients_, lower_,
                                                   upper_, &plan));
    float *dst = out->data<float>();
    const int64_t rows = audioChannels * frames;
    if (plan.tooShort) {
      std::fill(dst, dst + out->numElements(), 0.0f);
      return;
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        checkHostAllocation(static_cast<uint64_t>(channels_), sizeof(double)));
    const float *src = spectrogram.data<float>();
    const int64_t channels = channels_, coefficients = coefficients_;
    parallelFor(
        ctx->eigenDevice(), rows,
        Eigen::TensorOpCost(bins * sizeof(float), coefficients * sizeof(float),
                            10.0 * bins + 2.0 * channels * coefficients),
        [&](Eigen::Index first, Eigen::Index last) {
          std::vector<double> mel(channels);
          for (Eigen::Index row = first; row < last; ++row) {
            const float *frame = src + row * bins;
            // TF's MfccMelFilterbank::Compute.
            std::fill(mel.begin(), mel.end(), 0.0);
            for (int64_t i = plan.start; i <= plan.end; ++i) {
              const double value = std::sqrt(static_cast<double>(frame[i]));
              const double weighted = value * plan.weight[i - plan.start];
              int64_t band = plan.band[i - plan.start];
              if (band >= 0)
                mel[band] += weighted;
              ++band;
              if (band < channels)
                mel[band] += value - weighted;
            }
            // Mfcc::Compute: floor and log; MfccDct::Compute.
            for (double &v : mel)
              v = std::log(v < 1e-12 ? 1e-12 : v);
            float *o = dst + row * coefficients;
            for (int64_t i = 0; i < coefficients; ++i) {
              const double *cosines = plan.cosines.data() + i * channels;
              double sum = 0.0;
              for (int64_t j = 0; j < channels; ++j)
                sum += cosines[j] * mel[j];
              o[i] = static_cast<float>(sum);
            }
          }
        });
  }

private:
  float upper_ = 4000.0f;
  float lower_ = 20.0f;
  int32_t channels_ = 40;
  int32_t coefficients_ = 13;
};

//===----------------------------------------------------------------------===//
// DecodeWav and EncodeWav
//===----------------------------------------------------------------------===//

/// Reads a WAV file's fields in order, with TF's offset checks and
/// messages (wav_io.cc's IncrementOffset, ExpectText, ReadString and
/// ReadValue).
class WavReader {
public:
  WavReader(const OpKernel &op, std::string_view data) : op_(op), data_(data) {}

  int64_t offset() const { return offset_; }
  void skip(int64_t n) { offset_ += n; }
  bool atEnd() const { return offset_ >= static_cast<int64_t>(data_.size()); }

  /// The offset `increment` bytes on, if within the data.
  Status advance(int64_t increment, int64_t *next) const {
    if (increment < 0)
      return op_.errorf("Negative increment is not allowed: %d", increment);
    if (offset_ > static_cast<int64_t>(data_.size()))
      return op_.errorf("Initial offset is outside data range: %d", offset_);
    *next = offset_ + increment;
    if (*next > static_cast<int64_t>(data_.size()))
      return op_.errorf("Data too short when trying to read string");
    return OkStatus();
  }

  Status readString(int64_t length, std::string_view *out) {
    int64_t next = 0;
    if (Status s = advance(length, &next); !s.ok())
      return s;
    *out = data_.substr(offset_, length);
    offset_ = next;
    return OkStatus();
  }

  Status expectText(std::string_view expected) {
    std::string_view found;
    if (Status s = readString(expected.size(), &found); !s.ok())
      return s;
    if (found != expected)
      return op_.errorf("Header mismatch: Expected %s but found %s", expected,
                        found);
    return OkStatus();
  }

  /// A little-endian unsigned field of `bytes` (2 or 4) bytes.
  template <typename T> Status read(T *value) {
    std::string_view bytes;
    if (Status s = readString(sizeof(T), &bytes); !s.ok())
      return s;
    uint32_t v = 0;
    for (size_t i = 0; i < sizeof(T); ++i)
      v |= uint32_t(static_cast<uint8_t>(bytes[i])) << (8 * i);
    *value = static_cast<T>(v);
    return OkStatus();
  }

private:
  const OpKernel &op_;
  std::string_view data_;
  int64_t offset_ = 0;
};

#define TFRT_FALLBACK_WAV_TRY(expr)                                            \
  do {                                                                         \
    if (Status s = (expr); !s.ok())                                            \
      return s;                                                                \
  } while (false)

/// A WAV file's 16-bit samples as floats (TF's
/// DecodeLin16WaveAsFloatVector).
struct DecodedWav {
  std::vector<float> samples;
  uint32_t sampleCount = 0;
  uint16_t channels = 0;
  uint32_t sampleRate = 0;
};

Status decodeWav(const OpKernel &op, std::string_view wav, DecodedWav *out) {
  WavReader r(op, wav);
  TFRT_FALLBACK_WAV_TRY(r.expectText("RIFF"));
  uint32_t fileSize = 0;
  TFRT_FALLBACK_WAV_TRY(r.read(&fileSize));
  TFRT_FALLBACK_WAV_TRY(r.expectText("WAVE"));
  std::string_view id;
  TFRT_FALLBACK_WAV_TRY(r.readString(4, &id));
  while (id != "fmt ") {
    // Padding and broadcast-WAV chunks may come first.
    if (id != "JUNK" && id != "bext" && id != "iXML" && id != "qlty" &&
        id != "mext" && id != "levl" && id != "link" && id != "axml")
      return op.errorf("Unexpected field %s", id);
    uint32_t size = 0;
    TFRT_FALLBACK_WAV_TRY(r.read(&size));
    int64_t next = 0;
    TFRT_FALLBACK_WAV_TRY(r.advance(size, &next));
    r.skip(next - r.offset());
    TFRT_FALLBACK_WAV_TRY(r.readString(4, &id));
  }
  uint32_t formatSize = 0;
  TFRT_FALLBACK_WAV_TRY(r.read(&formatSize));
  if (formatSize != 16 && formatSize != 18)
    return op.errorf("Bad format chunk size for WAV: Expected 16 or 18, but "
                     "got%d",
                     formatSize);
  uint16_t audioFormat = 0;
  TFRT_FALLBACK_WAV_TRY(r.read(&audioFormat));
  if (audioFormat != 1)
    return op.errorf("Bad audio format for WAV: Expected 1 (PCM), but got%d",
                     audioFormat);
  TFRT_FALLBACK_WAV_TRY(r.read(&out->channels));
  if (out->channels < 1)
    return op.errorf("Bad number of channels for WAV: Expected at least 1, "
                     "but got %d",
                     out->channels);
  TFRT_FALLBACK_WAV_TRY(r.read(&out->sampleRate));
  uint32_t bytesPerSecond = 0;
  TFRT_FALLBACK_WAV_TRY(r.read(&bytesPerSecond));
  // "Bytes per sample" is per frame: every channel's sample at one time.
  uint16_t bytesPerSample = 0;
  TFRT_FALLBACK_WAV_TRY(r.read(&bytesPerSample));
  uint16_t bitsPerSample = 0;
  TFRT_FALLBACK_WAV_TRY(r.read(&bitsPerSample));
  if (bitsPerSample != 16)
    return op.errorf("Can only read 16-bit WAV files, but received %d",
                     bitsPerSample);
  const uint32_t expectedBytesPerSample =
      (uint32_t(bitsPerSample) * out->channels + 7) / 8;
  if (bytesPerSample != expectedBytesPerSample)
    return op.errorf("Bad bytes per sample in WAV header: Expected %d but "
                     "got %d",
                     expectedBytesPerSample, bytesPerSample);
  // uint32 arithmetic, as TF's.
  const uint32_t expectedBytesPerSecond =
      uint32_t(bytesPerSample) * out->sampleRate;
  if (bytesPerSecond != expectedBytesPerSecond)
    return op.errorf("Bad bytes per second in WAV header: Expected %d but got "
                     "%d (sample_rate=%d, bytes_per_sample=%d)",
                     expectedBytesPerSecond, bytesPerSecond, out->sampleRate,
                     bytesPerSample);
  if (formatSize == 18)
    r.skip(2);
  bool foundData = false;
  while (!r.atEnd()) {
    std::string_view chunk;
    TFRT_FALLBACK_WAV_TRY(r.readString(4, &chunk));
    uint32_t size = 0;
    TFRT_FALLBACK_WAV_TRY(r.read(&size));
    if (size > uint32_t(std::numeric_limits<int32_t>::max()))
      return op.errorf("WAV data chunk '%s' is too large: %d bytes, but the "
                       "limit is %d",
                       chunk, size, std::numeric_limits<int32_t>::max());
    if (chunk != "data") {
      r.skip(size);
      continue;
    }
    if (foundData)
      return op.errorf("More than one data chunk found in WAV");
    foundData = true;
    out->sampleCount = size / bytesPerSample;
    const uint32_t count = out->sampleCount * out->channels;
    // The samples must be there before anything is allocated. TF then reads
    // on from the last sample, not from the chunk's end.
    int64_t end = 0;
    TFRT_FALLBACK_WAV_TRY(r.advance(int64_t(2) * count, &end));
    out->samples.resize(count);
    std::string_view bytes;
    TFRT_FALLBACK_WAV_TRY(r.readString(int64_t(2) * count, &bytes));
    for (uint32_t i = 0; i < count; ++i) {
      const auto v = static_cast<int16_t>(
          uint16_t(static_cast<uint8_t>(bytes[2 * i])) |
          uint16_t(static_cast<uint8_t>(bytes[2 * i + 1])) << 8);
      out->samples[i] = v * (1.0f / 32768);
    }
  }
  if (!foundData)
    return op.errorf("No data chunk found in WAV");
  return OkStatus();
}

#undef TFRT_FALLBACK_WAV_TRY

/// DecodeWav, as described at the top.
class DecodeWavKernel final : public OpKernel {
public:
  explicit DecodeWavKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "desired_channels", &desiredChannels_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "desired_samples", &desiredSamples_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &contents = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, contents.shape().isScalar(),
                              errorf("contents must be scalar, got shape %s",
                                     contents.shape().toString()));
    const std::string_view wav = stringElements(contents)[0];
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, wav.size() <= size_t(std::numeric_limits<int>::max()),
        errorf("WAV contents are too large for int: %d", wav.size()));
    DecodedWav decoded;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, decodeWav(*this, wav, &decoded));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, desiredChannels_ >= -1,
        errorf("desired_channels must be >= -1, got %d", desiredChannels_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, desiredSamples_ >= -1,
        errorf("desired_samples must be >= -1, got %d", desiredSamples_));
    // int32, as TF's (a file's counts fit: its data is < 2^31 bytes).
    const int32_t samples = desiredSamples_ == -1
                                ? static_cast<int32_t>(decoded.sampleCount)
                                : desiredSamples_;
    const int32_t channels =
        desiredChannels_ == -1 ? decoded.channels : desiredChannels_;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, samples >= 0,
        errorf("Output sample count must be >= 0, got %d", samples));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, channels >= 0,
        errorf("Output channel count must be >= 0, got %d", channels));
    Tensor *audio = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape({samples, channels}), &audio));
    float *dst = audio->data<float>();
    const int64_t fileChannels = decoded.channels;
    for (int64_t s = 0; s < samples; ++s)
      for (int64_t c = 0; c < channels; ++c)
        *dst++ = s >= int64_t(decoded.sampleCount)
                     ? 0.0f
                     : decoded.samples[s * fileChannels +
                                       std::min(c, fileChannels - 1)];
    Tensor *rate = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, TensorShape(), &rate));
    rate->data<int32_t>()[0] = static_cast<int32_t>(decoded.sampleRate);
  }

private:
  int32_t desiredChannels_ = -1;
  int32_t desiredSamples_ = -1;
};

/// EncodeWav, as described at the top (TF's EncodeAudioAsS16LEWav).
class EncodeWavKernel final : public OpKernel {
public:
  explicit EncodeWavKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &audio = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, audio.rank() == 2,
        errorf("audio must be 2-dimensional%s", audio.shape().toString()));
    const Tensor &rateTensor = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rateTensor.shape().isScalar(),
        errorf("Input sample_rate should be a scalar tensor, got %s instead.",
               rateTensor.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, audio.numElements() < std::numeric_limits<int32_t>::max(),
        errorf("Cannot encode audio with >= max int32 elements"));
    // TF passes the int32 rate on as a size_t: -1 is 2^64 - 1.
    const uint64_t rate =
        static_cast<uint64_t>(int64_t(rateTensor.data<int32_t>()[0]));
    const uint64_t channels = audio.dim(1), frames = audio.dim(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rate != 0 && rate <= 0xffffffffu,
        errorf("sample_rate must be in (0, 2^32), got: %d", rate));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, channels != 0 && channels <= 0xffffu,
        errorf("num_channels must be in (0, 2^16), got: %d", channels));
    const uint64_t samples = frames * channels;
    const uint64_t fileSize = 44 + 2 * samples;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, fileSize <= 0xffffffffu,
        errorf("Provided channels and frames cannot be encoded as a WAV."));
    std::string wav(fileSize, '\0');
    char *p = wav.data();
    auto put = [&](uint64_t value, int bytes) {
      for (int i = 0; i < bytes; ++i)
        *p++ = static_cast<char>(value >> (8 * i) & 0xff);
    };
    auto text = [&](const char *s) {
      std::memcpy(p, s, 4);
      p += 4;
    };
    text("RIFF");
    put(fileSize - 8, 4);
    text("WAVE");
    text("fmt ");
    put(16, 4); // Format chunk size.
    put(1, 2);  // PCM.
    put(channels, 2);
    put(rate, 4);
    put(rate * 2 * channels, 4); // Bytes per second (uint32, as TF writes).
    put(2 * channels, 2);        // Bytes per frame.
    put(16, 2);                  // Bits per sample.
    text("data");
    put(2 * samples, 4);
    const float *src = audio.data<float>();
    for (uint64_t i = 0; i < samples; ++i) {
      const float scaled = std::round(src[i] * 32768.0f);
      const int16_t v = std::isnan(scaled)
                            ? 0
                            : static_cast<int16_t>(std::min(
                                  32767.0f, std::max(-32768.0f, scaled)));
      put(static_cast<uint16_t>(v), 2);
    }
    const std::string_view view = wav;
    StatusOr<Tensor> t = makeStringTensor(TensorShape(), {&view, 1});
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, t.status());
    ctx->setOutput(0, *std::move(t));
  }
};

} // namespace

void registerAudioKernels(KernelRegistry &registry) {
  registerKernel<OpId::kAudioSpectrogram, AudioSpectrogramKernel>(registry);
  registerKernel<OpId::kMfcc, MfccKernel>(registry);
  registerKernel<OpId::kDecodeWav, DecodeWavKernel>(registry);
  registerKernel<OpId::kEncodeWav, EncodeWavKernel>(registry);
}

} // namespace tfrt_fallback::rt
