//===- AudioKernelsTest.cpp - AudioSpectrogram and Mfcc ---------*- C++ -*-===//
//
// AudioSpectrogram against a direct O(n^2) DFT of Hann-windowed frames
// written here, a pure tone's peak bins derived by hand, and TF's own test
// vectors (tensorflow/core/kernels/spectrogram_op_test.cc); Mfcc against
// TF's golden values (mfcc_op_test.cc, mfcc_test.cc) and, for the mel
// filterbank alone, mfcc_mel_filterbank_test.cc's golden values put
// through a log and a DCT-II written here. Plus TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

const double kPi = 3.14159265358979323846;

StatusOr<Tensor> spectrogram(Tensor input, int64_t window, int64_t stride,
                             bool squared = false) {
  return runKernel("AudioSpectrogram",
                   AttrMap{{"window_size", window},
                           {"stride", stride},
                           {"magnitude_squared", squared}},
                   {std::move(input)}, DType::F32);
}

/// The spectrogram by definition: for each channel and frame, the DFT of
/// length fft (the next power of two >= window) of the frame's samples
/// times the periodic Hann window 0.5 - 0.5 cos(2 pi j / window), zero
/// beyond the window; |X_k|^2 for k in [0, fft / 2], rounded to float as
/// TF does (then its square root unless squared).
std::vector<double> referenceSpectrogram(const std::vector<float> &x,
                                         int64_t samples, int64_t channels,
                                         int64_t window, int64_t stride,
                                         bool squared, int64_t *frames,
                                         int64_t *width) {
  int64_t fft = 1;
  while (fft < window)
    fft *= 2;
  *width = fft / 2 + 1;
  *frames = samples < window ? 0 : 1 + (samples - window) / stride;
  std::vector<double> out;
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t f = 0; f < *frames; ++f)
      for (int64_t k = 0; k < *width; ++k) {
        double re = 0, im = 0;
        for (int64_t j = 0; j < window; ++j) {
          const double w = 0.5 - 0.5 * std::cos(2 * kPi * j / window);
          const double v = x[(f * stride + j) * channels + c] * w;
          const double angle = 2 * kPi * double(j * k % fft) / fft;
          re += v * std::cos(angle);
          im -= v * std::sin(angle);
        }
        const float power = static_cast<float>(re * re + im * im);
        out.push_back(squared ? power : std::sqrt(power));
      }
  return out;
}

void expectMatchesReference(int64_t samples, int64_t channels, int64_t window,
                            int64_t stride, bool squared, int seed) {
  std::vector<float> x;
  for (double v : patternValues(samples * channels, 4, seed))
    x.push_back(static_cast<float>(v));
  int64_t frames = 0, width = 0;
  std::vector<double> expected = referenceSpectrogram(
      x, samples, channels, window, stride, squared, &frames, &width);
  auto out = spectrogram(f32({samples, channels}, x), window, stride, squared);
  ASSERT_TRUE(out.ok()) << out.status();
  SCOPED_TRACE(::testing::Message() << "window " << window << " stride "
                                    << stride << " squared " << squared);
  // Float rounding of the results; absolute near zero, where the DFT's
  // and the FFT's double rounding differ most in relative terms.
  expectValues<float>(*out, {channels, frames, width}, expected, 4e-6);
}

TEST(AudioSpectrogram, TFTestVectors) {
  // spectrogram_op_test.cc SimpleTest / SquaredTest: one frame of
  // [-1, 0, 1, 0, -1, 0, 1, 0], window 8, stride 1.
  Tensor x = f32({8, 1}, {-1, 0, 1, 0, -1, 0, 1, 0});
  auto out = spectrogram(x, 8, 1);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 5}, {0, 1, 2, 1, 0}, 1e-6);
  out = spectrogram(x, 8, 1, /*squared=*/true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 5}, {0, 1, 4, 1, 0}, 1e-6);
  // MultichannelTest: the same signal in two channels.
  out = spectrogram(
      f32({8, 2}, {-1, -1, 0, 0, 1, 1, 0, 0, -1, -1, 0, 0, 1, 1, 0, 0}), 8, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 1, 5}, {0, 1, 2, 1, 0, 0, 1, 2, 1, 0}, 1e-6);
}

TEST(AudioSpectrogram, PureTonePeaks) {
  // x[n] = cos(2 pi 8 n / 64) over a 64-sample window: the Hann window
  // makes it 0.5 cos(8 a n) - 0.25 (cos(7 a n) + cos(9 a n)), a = 2 pi /
  // 64; a cosine of m cycles has DFT N / 2 at bin m, so |X_8| = 64 / 4 =
  // 16, |X_7| = |X_9| = 64 / 8 = 8 and every other bin is 0. A second
  // frame (stride 64) holds the tone at bin 20: |X_20| = 16, |X_19| =
  // |X_21| = 8.
  std::vector<float> x;
  for (int n = 0; n < 64; ++n)
    x.push_back(static_cast<float>(std::cos(2 * kPi * 8 * n / 64)));
  for (int n = 0; n < 64; ++n)
    x.push_back(static_cast<float>(std::cos(2 * kPi * 20 * n / 64)));
  auto out = spectrogram(f32({128, 1}, x), 64, 64);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> expected(2 * 33, 0.0);
  expected[8] = 16;
  expected[7] = expected[9] = 8;
  expected[33 + 20] = 16;
  expected[33 + 19] = expected[33 + 21] = 8;
  // The float tone's rounding leaves ~1e-6 in the empty bins.
  expectValues<float>(*out, {1, 2, 33}, expected, 1e-5);
}

TEST(AudioSpectrogram, MatchesADirectDft) {
  // Power-of-two and padded windows, overlapping and skipping strides,
  // several channels; the FFT's small sizes (2, 4) too.
  expectMatchesReference(40, 2, 16, 4, false, 1);
  expectMatchesReference(40, 2, 16, 4, true, 2);
  expectMatchesReference(31, 3, 5, 3, false, 3);      // fft 8
  expectMatchesReference(50, 1, 12, 20, true, 4);     // stride > window
  expectMatchesReference(9, 2, 2, 1, false, 5);       // fft 2
  expectMatchesReference(9, 1, 3, 2, true, 6);        // fft 4
  expectMatchesReference(600, 1, 400, 160, false, 7); // fft 512
}

TEST(AudioSpectrogram, EmptyOutputs) {
  // Fewer samples than the window: no frames.
  auto out = spectrogram(f32({5, 2}, std::vector<float>(10, 1.0f)), 8, 1);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 0, 5}, {});
  // No channels.
  out = spectrogram(f32({16, 0}, {}), 8, 4);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {0, 3, 5}, {});
}

TEST(AudioSpectrogram, Errors) {
  Tensor x = f32({8, 1}, {-1, 0, 1, 0, -1, 0, 1, 0});
  // TF's shape function's messages (spectrogram_op_test.cc
  // InvalidWindowSize / InvalidStride look for "window size" / "stride").
  EXPECT_EQ(spectrogram(x, 1, 1).status().message(),
            opError("AudioSpectrogram", "window size must be > 1, got 1"));
  EXPECT_EQ(
      spectrogram(x, 2, 0).status().message(),
      opError("AudioSpectrogram", "stride must be strictly positive, got 0"));
  EXPECT_EQ(
      spectrogram(x, 2, -3).status().message(),
      opError("AudioSpectrogram", "stride must be strictly positive, got -3"));
  // The kernel's: rank, and a window whose FFT length TF's int cannot hold
  // (a CHECK failure in TF).
  EXPECT_EQ(spectrogram(f32({8}, {-1, 0, 1, 0, -1, 0, 1, 0}), 8, 1)
                .status()
                .message(),
            opError("AudioSpectrogram", "input must be 2-dimensional[8]"));
  EXPECT_EQ(spectrogram(x, (int64_t(1) << 30) + 1, 1).status().message(),
            opError("AudioSpectrogram",
                    "Spectrogram initialization failed for window size "
                    "1073741825 and stride 1"));
  // window_size is an int32 attribute.
  EXPECT_FALSE(spectrogram(x, int64_t(1) << 32, 1).ok());
  // The input's dtype is float (the loader's check).
  auto wrong =
      runKernel("AudioSpectrogram", AttrMap{{"window_size", 2}, {"stride", 1}},
                {i32({2, 1}, {1, 2})}, DType::F32);
  EXPECT_NE(wrong.status().message().find(
                "takes a f32 tensor as input #0 (its OpDef fixes it)"),
            std::string_view::npos)
      << wrong.status();
}

//===----------------------------------------------------------------------===//
// Mfcc
//===----------------------------------------------------------------------===//

StatusOr<Tensor> mfcc(Tensor spectrogram, int32_t sampleRate,
                      AttrMap attrs = {}) {
  return runKernel("Mfcc", attrs,
                   {std::move(spectrogram), i32({}, {sampleRate})}, DType::F32);
}

/// TF's DCT-II: out[i] = sum_j sqrt(2 / n) cos(pi i (j + 0.5) / n) in[j].
std::vector<double> dct(const std::vector<double> &in, int count) {
  const double n = static_cast<double>(in.size());
  std::vector<double> out;
  for (int i = 0; i < count; ++i) {
    double sum = 0;
    for (size_t j = 0; j < in.size(); ++j)
      sum += std::sqrt(2 / n) * std::cos(kPi * i * (j + 0.5) / n) * in[j];
    out.push_back(sum);
  }
  return out;
}

void expectNear(const Tensor &t, const std::vector<double> &expected,
                int64_t offset, double tol) {
  const float *data = t.data<float>();
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_NEAR(data[offset + i], expected[i], tol) << "at " << offset + i;
}

/// [frames, 513] bins holding 1, 2, ..., 513 in each frame.
std::vector<float> iotaFrames(int frames) {
  std::vector<float> v;
  for (int f = 0; f < frames; ++f)
    for (int i = 0; i < 513; ++i)
      v.push_back(static_cast<float>(i + 1));
  return v;
}

TEST(Mfcc, TFGoldenValues) {
  // mfcc_op_test.cc SimpleTest (= mfcc_test.cc AgreesWithPythonGoldenValues,
  // tolerance 1e-4 there): one frame of 1..513, sample rate 22050, the
  // default attributes.
  const std::vector<double> golden = {
      29.13970072, -6.41568601, -0.61903012, -0.96778652, -0.26819878,
      -0.40907028, -0.15614748, -0.23203119, -0.10481487, -0.1543029,
      -0.0769791,  -0.10806114, -0.06047613};
  auto out = mfcc(f32({1, 1, 513}, iotaFrames(1)), 22050);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->shape(), TensorShape({1, 1, 13}));
  expectNear(*out, golden, 0, 1e-4);
  // The same attributes spelled out, in the second of two audio channels
  // with two frames each; the other frames are zero spectra, whose
  // floored log is ln(1e-12) in each of the 40 bands: c0 = sqrt(2 / 40) *
  // 40 * ln(1e-12), and the other coefficients sum a full set of cosines,
  // 0 (mfcc_test.cc AvoidsNansWithZeroInput).
  std::vector<float> bins(4 * 513, 0.0f);
  std::vector<float> iota = iotaFrames(1);
  std::copy(iota.begin(), iota.end(), bins.begin() + 3 * 513);
  out = mfcc(f32({2, 2, 513}, bins), 22050,
             AttrMap{{"upper_frequency_limit", 4000.0f},
                     {"lower_frequency_limit", 20.0f},
                     {"filterbank_channel_count", 40},
                     {"dct_coefficient_count", 13}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->shape(), TensorShape({2, 2, 13}));
  std::vector<double> zero(13, 0.0);
  zero[0] = std::sqrt(2.0 / 40) * 40 * std::log(1e-12);
  for (int row = 0; row < 3; ++row)
    expectNear(*out, zero, row * 13, 1e-4);
  expectNear(*out, golden, 3 * 13, 1e-4);
}

TEST(Mfcc, MelFilterbankGoldenValues) {
  // mfcc_mel_filterbank_test.cc AgreesWithPythonGoldenValues: 20 bands
  // from 20 to 4000 Hz over 1..513 at 22050 Hz (golden to 1e-4). With 20
  // DCT coefficients the op gives the whole DCT of their logs.
  const std::vector<double> bands = {
      7.38894574,   10.30330648, 13.72703292,  17.24158686,  21.35253118,
      25.77781089,  31.30624108, 37.05877236,  43.9436536,   51.80306637,
      60.79867148,  71.14363376, 82.90910141,  96.50069158,  112.08428368,
      129.96721968, 150.4277597, 173.74997634, 200.86037462, 231.59802942};
  std::vector<double> logs;
  for (double b : bands)
    logs.push_back(std::log(b));
  auto out = mfcc(
      f32({1, 1, 513}, iotaFrames(1)), 22050,
      AttrMap{{"filterbank_channel_count", 20}, {"dct_coefficient_count", 20}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->shape(), TensorShape({1, 1, 20}));
  // A 1e-4 error in a band moves its log by < 1.4e-5, each coefficient by
  // < sqrt(2 / 20) * 20 * 1.4e-5.
  expectNear(*out, dct(logs, 20), 0, 1e-4);
}

TEST(Mfcc, LowToneGivesLargestC1) {
  // mfcc_test.cc SimpleInputSaneResult: one hot bin (10 of 129) at 8000
  // Hz, bands from 125 to 3800 Hz, 40 bands and coefficients: "output
  // beyond c_0 should look like a slow cosine": c1 is the largest.
  std::vector<float> bins(129, 0.0f);
  bins[10] = 1.0f;
  auto out = mfcc(f32({1, 1, 129}, bins), 8000,
                  AttrMap{{"lower_frequency_limit", 125.0f},
                          {"upper_frequency_limit", 3800.0f},
                          {"filterbank_channel_count", 40},
                          {"dct_coefficient_count", 40}});
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<float> v = valuesOf<float>(*out);
  ASSERT_EQ(v.size(), 40u);
  EXPECT_EQ(std::max_element(v.begin(), v.end()) - v.begin(), 1);
}

TEST(Mfcc, UpperLimitPastNyquistGivesZeros) {
  // 129 bins at 8000 Hz are 31.25 Hz apart: a 5000 Hz limit is bin 160,
  // past the last; TF's filterbank then returns nothing ("Input too short
  // to compute filterbank") and its DCT of nothing is all zeros.
  auto out = mfcc(f32({1, 2, 129}, std::vector<float>(258, 1.0f)), 8000,
                  AttrMap{{"upper_frequency_limit", 5000.0f}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 13}, std::vector<double>(26, 0.0));
}

TEST(Mfcc, EmptyInputs) {
  auto out = mfcc(f32({0, 3, 513}, {}), 22050);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {0, 3, 13}, {});
  out = mfcc(f32({2, 0, 513}, {}), 22050);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 0, 13}, {});
}

TEST(Mfcc, Errors) {
  Tensor bins = f32({1, 1, 513}, iotaFrames(1));
  EXPECT_EQ(mfcc(f32({1, 513}, iotaFrames(1)), 22050).status().message(),
            opError("Mfcc", "spectrogram must be 3-dimensional[1,513]"));
  auto rate =
      runKernel("Mfcc", AttrMap{}, {bins, i32({1}, {22050})}, DType::F32);
  EXPECT_EQ(rate.status().message(),
            opError("Mfcc", "Input sample_rate should be a scalar tensor, got "
                            "[1] instead."));
  auto initFailed = [](int64_t channels, int32_t sampleRate,
                       int64_t filterbank) {
    return opError("Mfcc", "Mfcc initialization failed for channel count " +
                               std::to_string(channels) + ", sample rate " +
                               std::to_string(sampleRate) +
                               " and filterbank_channel_count " +
                               std::to_string(filterbank));
  };
  // mfcc_mel_filterbank.cc / mfcc_dct.cc Initialize's checks.
  EXPECT_EQ(mfcc(bins, 0).status().message(), initFailed(513, 0, 40));
  EXPECT_EQ(mfcc(bins, -8000).status().message(), initFailed(513, -8000, 40));
  EXPECT_EQ(mfcc(f32({1, 1, 1}, {1}), 8000).status().message(),
            initFailed(1, 8000, 40));
  EXPECT_EQ(mfcc(bins, 8000, AttrMap{{"filterbank_channel_count", 0}})
                .status()
                .message(),
            initFailed(513, 8000, 0));
  EXPECT_EQ(mfcc(bins, 8000, AttrMap{{"lower_frequency_limit", -1.0f}})
                .status()
                .message(),
            initFailed(513, 8000, 40));
  EXPECT_EQ(mfcc(bins, 8000,
                 AttrMap{{"lower_frequency_limit", 300.0f},
                         {"upper_frequency_limit", 300.0f}})
                .status()
                .message(),
            initFailed(513, 8000, 40));
  EXPECT_EQ(mfcc(bins, 8000, AttrMap{{"dct_coefficient_count", 0}})
                .status()
                .message(),
            initFailed(513, 8000, 40));
  // mfcc_dct_test.cc InitializeFailsOnInvalidInput: more coefficients than
  // bands.
  EXPECT_EQ(mfcc(bins, 8000,
                 AttrMap{{"filterbank_channel_count", 20},
                         {"dct_coefficient_count", 21}})
                .status()
                .message(),
            initFailed(513, 8000, 20));
  // mfcc_mel_filterbank_test.cc FailsWhenChannelsGreaterThanMaxIntValue.
  EXPECT_EQ(mfcc(bins, 2,
                 AttrMap{{"filterbank_channel_count",
                          int64_t(std::numeric_limits<int32_t>::max())},
                         {"lower_frequency_limit", 1.0f},
                         {"upper_frequency_limit", 5.0f}})
                .status()
                .message(),
            initFailed(513, 2, std::numeric_limits<int32_t>::max()));
  // NaN limits (TF computes on with NaNs).
  EXPECT_EQ(mfcc(bins, 8000, AttrMap{{"upper_frequency_limit", NAN}})
                .status()
                .message(),
            initFailed(513, 8000, 40));
  // Dtypes the OpDef fixes.
  auto wrong =
      runKernel("Mfcc", AttrMap{}, {bins, i64({}, {8000})}, DType::F32);
  EXPECT_EQ(wrong.status().message(),
            opError("Mfcc", "sample_rate must be int32, got i64"));
}

//===----------------------------------------------------------------------===//
// DecodeWav, EncodeWav
//===----------------------------------------------------------------------===//

std::string le16(uint32_t v) { return {char(v & 0xff), char(v >> 8 & 0xff)}; }
std::string le32(uint32_t v) { return le16(v & 0xffff) + le16(v >> 16); }

/// A "fmt " chunk: PCM (`format`), `bits` per sample, `fmtSize` 16 or 18
/// (2 zero bytes more), the derived fields unless given.
std::string fmtChunk(uint32_t channels, uint32_t rate, uint32_t bits = 16,
                     uint32_t fmtSize = 16, uint32_t format = 1,
                     int64_t blockAlign = -1, int64_t byteRate = -1) {
  const uint32_t align =
      blockAlign < 0 ? (bits * channels + 7) / 8 : uint32_t(blockAlign);
  std::string out = "fmt " + le32(fmtSize) + le16(format) + le16(channels) +
                    le32(rate) +
                    le32(byteRate < 0 ? align * rate : uint32_t(byteRate)) +
                    le16(align) + le16(bits);
  if (fmtSize == 18)
    out += le16(0);
  return out;
}

std::string dataChunk(const std::vector<int16_t> &samples) {
  std::string out = "data" + le32(2 * samples.size());
  for (int16_t v : samples)
    out += le16(uint16_t(v));
  return out;
}

std::string riff(const std::string &chunks) {
  return "RIFF" + le32(4 + chunks.size()) + "WAVE" + chunks;
}

Tensor bytesTensor(const std::string &bytes) {
  std::string_view view = bytes;
  return *makeStringTensor(TensorShape(), {&view, 1});
}

StatusOr<std::vector<Tensor>> decodeWav(const std::string &wav,
                                        AttrMap attrs = {}) {
  return runKernelN("DecodeWav", attrs, {bytesTensor(wav)},
                    {DType::F32, DType::I32});
}

std::string decodeWavError(const std::string &wav, AttrMap attrs = {}) {
  return std::string(decodeWav(wav, attrs).status().message());
}

TEST(DecodeWav, Samples) {
  // 2 channels, 3 frames: each sample / 32768.
  const std::string wav =
      riff(fmtChunk(2, 44100) + dataChunk({0, 16384, -32768, 32767, -1, 8}));
  auto out = decodeWav(wav);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {3, 2},
                      {0, 0.5, -1, 32767.0 / 32768, -1.0 / 32768, 8.0 / 32768},
                      0);
  expectValues<int32_t>((*out)[1], {}, {44100});
  // Fewer channels: the first ones; more: the last one repeated; more
  // samples: zeros; fewer: the first ones.
  out = decodeWav(wav, {{"desired_channels", int64_t(1)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {3, 1}, {0, -1, -1.0 / 32768}, 0);
  out = decodeWav(
      wav, {{"desired_channels", int64_t(3)}, {"desired_samples", int64_t(4)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {4, 3},
                      {0, 0.5, 0.5, -1, 32767.0 / 32768, 32767.0 / 32768,
                       -1.0 / 32768, 8.0 / 32768, 8.0 / 32768, 0, 0, 0},
                      0);
  out = decodeWav(wav, {{"desired_samples", int64_t(1)}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {1, 2}, {0, 0.5}, 0);
}

TEST(DecodeWav, Chunks) {
  // A JUNK chunk before "fmt ", an 18-byte "fmt ", a LIST chunk before
  // "data" and one after it.
  const std::string wav =
      riff("JUNK" + le32(4) + "abcd" + fmtChunk(1, 8000, 16, 18) + "LIST" +
           le32(2) + "xy" + dataChunk({100, -100}) + "LIST" + le32(0));
  auto out = decodeWav(wav);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {2, 1}, {100.0 / 32768, -100.0 / 32768}, 0);
  expectValues<int32_t>((*out)[1], {}, {8000});
  // No samples.
  out = decodeWav(riff(fmtChunk(1, 8000) + dataChunk({})));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), TensorShape({0, 1}));
}

TEST(DecodeWav, Errors) {
  const std::string data = dataChunk({1, 2});
  auto error = [](const std::string &msg) { return opError("DecodeWav", msg); };
  std::string wav = riff(fmtChunk(1, 8000) + data);
  wav[3] = 'X';
  EXPECT_EQ(decodeWavError(wav),
            error("Header mismatch: Expected RIFF but found RIFX"));
  EXPECT_EQ(decodeWavError("RIF"),
            error("Data too short when trying to read string"));
  EXPECT_EQ(decodeWavError(riff("LIST" + le32(0) + fmtChunk(1, 8000) + data)),
            error("Unexpected field LIST"));
  EXPECT_EQ(decodeWavError(riff(fmtChunk(1, 8000, 16, 20) + data)),
            error("Bad format chunk size for WAV: Expected 16 or 18, but "
                  "got20"));
  EXPECT_EQ(decodeWavError(riff(fmtChunk(1, 8000, 16, 16, 3) + data)),
            error("Bad audio format for WAV: Expected 1 (PCM), but got3"));
  EXPECT_EQ(decodeWavError(riff(fmtChunk(0, 8000) + data)),
            error("Bad number of channels for WAV: Expected at least 1, but "
                  "got 0"));
  EXPECT_EQ(decodeWavError(riff(fmtChunk(1, 8000, 8) + data)),
            error("Can only read 16-bit WAV files, but received 8"));
  EXPECT_EQ(decodeWavError(riff(fmtChunk(1, 8000, 16, 16, 1, 3) + data)),
            error("Bad bytes per sample in WAV header: Expected 2 but got 3"));
  EXPECT_EQ(
      decodeWavError(riff(fmtChunk(1, 8000, 16, 16, 1, -1, 1000) + data)),
      error("Bad bytes per second in WAV header: Expected 16000 but got 1000 "
            "(sample_rate=8000, bytes_per_sample=2)"));
  EXPECT_EQ(decodeWavError(riff(fmtChunk(1, 8000))),
            error("No data chunk found in WAV"));
  EXPECT_EQ(decodeWavError(riff(fmtChunk(1, 8000) + data + data)),
            error("More than one data chunk found in WAV"));
  // A data chunk longer than the file.
  EXPECT_EQ(decodeWavError(
                riff(fmtChunk(1, 8000) + "data" + le32(8) + le16(1) + le16(2))),
            error("Data too short when trying to read string"));
  EXPECT_EQ(
      decodeWavError(riff(fmtChunk(1, 8000) + "LIST" + le32(0x80000000u))),
      error("WAV data chunk 'LIST' is too large: 2147483648 bytes, but "
            "the limit is 2147483647"));
  EXPECT_EQ(decodeWavError(riff(fmtChunk(1, 8000) + data),
                           {{"desired_channels", int64_t(-2)}}),
            error("desired_channels must be >= -1, got -2"));
  std::vector<std::string_view> two = {"a", "b"};
  auto out =
      runKernelN("DecodeWav", {}, {*makeStringTensor(TensorShape({2}), two)},
                 {DType::F32, DType::I32});
  EXPECT_EQ(out.status().message(),
            error("contents must be scalar, got shape [2]"));
}

StatusOr<Tensor> encodeWav(Tensor audio, int32_t rate) {
  return runKernel("EncodeWav", {}, {std::move(audio), i32({}, {rate})},
                   DType::String);
}

TEST(EncodeWav, Bytes) {
  // 3 frames of 2 channels at 16000 Hz: round(x * 32768), clamped to
  // int16, halves away from zero; NaN as 0.
  const float h = 1.5f / 32768;
  auto out = encodeWav(
      f32({4, 2}, {0.5f, -1.0f, 1.0f, 0.25f, h, -h, NAN, -3.0f}), 16000);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::string expected =
      "RIFF" + le32(36 + 16) + "WAVE" + "fmt " + le32(16) + le16(1) + le16(2) +
      le32(16000) + le32(64000) + le16(4) + le16(16) + "data" + le32(16) +
      le16(16384) + le16(uint16_t(-32768)) + le16(32767) + le16(8192) +
      le16(2) + le16(uint16_t(-2)) + le16(0) + le16(uint16_t(-32768));
  EXPECT_EQ(std::string(stringElements(*out)[0]), expected);
  // Back through DecodeWav.
  auto back = decodeWav(std::string(stringElements(*out)[0]));
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<float>(
      (*back)[0], {4, 2},
      {0.5, -1, 32767.0 / 32768, 0.25, 2.0 / 32768, -2.0 / 32768, 0, -1}, 0);
  expectValues<int32_t>((*back)[1], {}, {16000});
  // No frames: the header alone.
  out = encodeWav(f32({0, 1}, {}), 8000);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(stringElements(*out)[0].size(), 44u);
}

TEST(EncodeWav, Errors) {
  auto error = [](const std::string &msg) { return opError("EncodeWav", msg); };
  EXPECT_EQ(encodeWav(f32({3}, {1, 2, 3}), 8000).status().message(),
            error("audio must be 2-dimensional[3]"));
  auto out = runKernel("EncodeWav", {}, {f32({1, 1}, {0}), i32({1}, {8000})},
                       DType::String);
  EXPECT_EQ(out.status().message(),
            error("Input sample_rate should be a scalar tensor, got [1] "
                  "instead."));
  EXPECT_EQ(encodeWav(f32({1, 1}, {0}), 0).status().message(),
            error("sample_rate must be in (0, 2^32), got: 0"));
  EXPECT_EQ(
      encodeWav(f32({1, 1}, {0}), -1).status().message(),
      error("sample_rate must be in (0, 2^32), got: 18446744073709551615"));
  EXPECT_EQ(encodeWav(f32({2, 0}, {}), 8000).status().message(),
            error("num_channels must be in (0, 2^16), got: 0"));
  EXPECT_EQ(encodeWav(f32({0, 70000}, {}), 8000).status().message(),
            error("num_channels must be in (0, 2^16), got: 70000"));
}

} // namespace
