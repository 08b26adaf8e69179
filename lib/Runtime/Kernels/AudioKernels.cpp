//===- AudioKernels.cpp - AudioSpectrogram and Mfcc -------------*- C++ -*-===//
//
// TensorFlow's audio features (tensorflow/core/kernels/spectrogram.cc,
// spectrogram_op.cc, mfcc.cc, mfcc_mel_filterbank.cc, mfcc_dct.cc,
// mfcc_op.cc), with TF's arithmetic (double precision inside, float in and
// out), attributes and messages:
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
//
// The FFT is Eigen's (unsupported/Eigen/FFT, KISS FFT) in double; TF uses
// Ooura's rdft: both are exact to double rounding, so the float results
// agree to float rounding.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
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
    TFRT_FALLBACK_OP_REQUIRES(ctx, shape.ok(),
                              errorf("%s", shape.status().message()));
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
    TFRT_FALLBACK_OP_REQUIRES(ctx, shape.ok(),
                              errorf("%s", shape.status().message()));
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

} // namespace

void registerAudioKernels(KernelRegistry &registry) {
  registerKernel<OpId::kAudioSpectrogram, AudioSpectrogramKernel>(registry);
  registerKernel<OpId::kMfcc, MfccKernel>(registry);
}

} // namespace tfrt_fallback::rt
