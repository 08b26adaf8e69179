// The image and audio codecs end to end, from the .mlir and through a
// .bef, on files written by Inputs/make_codec_inputs.py (standard library
// only) and read with ReadFile; EncodePng's file is read back by
// Inputs/png_pixels.py (zlib and the PNG filters in Python).
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed 's|@INPUTS@|%S/Inputs|g' %s > %t/prog.mlir
// RUN: fallback-run %t/prog.mlir --threads=2 --output-dir=%t/out | FileCheck %s
// RUN: python3 %S/Inputs/png_pixels.py %t/out/output_11.npy | FileCheck %s --check-prefix=PNG
// RUN: fallback-opt %t/prog.mlir --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t/prog.bef
// RUN: fallback-run-lite %t/prog.bef --threads=1 | FileCheck %s

func.func @main() -> (tensor<2x3x3xui8>, tensor<2x2x2x3xui8>, tensor<2x2x3xui8>, tensor<8x16xui8>, tensor<2x8xui8>, tensor<3x2xf32>, tensor<i32>, tensor<!tf_type.string>, tensor<2x3x3xui8>, tensor<8x16xui8>, tensor<2x2x3xf32>, tensor<!tf_type.string>) {
  %png_name = "tf.Const"() {value = dense<"@INPUTS@/codec_rgb.png"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %gif_name = "tf.Const"() {value = dense<"@INPUTS@/codec_anim.gif"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %bmp_name = "tf.Const"() {value = dense<"@INPUTS@/codec_bgr.bmp"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %jpg_name = "tf.Const"() {value = dense<"@INPUTS@/codec_gray.jpg"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %wav_name = "tf.Const"() {value = dense<"@INPUTS@/codec_stereo.wav"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %png = "tf.ReadFile"(%png_name) : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
  %gif = "tf.ReadFile"(%gif_name) : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
  %bmp = "tf.ReadFile"(%bmp_name) : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
  %jpg = "tf.ReadFile"(%jpg_name) : (tensor<!tf_type.string>) -> tensor<!tf_type.string>
  %wav = "tf.ReadFile"(%wav_name) : (tensor<!tf_type.string>) -> tensor<!tf_type.string>

  %0 = "tf.DecodePng"(%png) {channels = 0 : i64, dtype = ui8} : (tensor<!tf_type.string>) -> tensor<2x3x3xui8>
  %1 = "tf.DecodeGif"(%gif) : (tensor<!tf_type.string>) -> tensor<2x2x2x3xui8>
  %2 = "tf.DecodeBmp"(%bmp) {channels = 0 : i64} : (tensor<!tf_type.string>) -> tensor<2x2x3xui8>
  %3 = "tf.DecodeJpeg"(%jpg) {channels = 1 : i64, ratio = 1 : i64, fancy_upscaling = true, try_recover_truncated = false, acceptable_fraction = 1.0 : f32, dct_method = ""} : (tensor<!tf_type.string>) -> tensor<8x16x1xui8>
  %window = "tf.Const"() {value = dense<[3, 6, 2, 8]> : tensor<4xi32>} : () -> tensor<4xi32>
  %4 = "tf.DecodeAndCropJpeg"(%jpg, %window) {channels = 0 : i64, ratio = 1 : i64, fancy_upscaling = true, try_recover_truncated = false, acceptable_fraction = 1.0 : f32, dct_method = "INTEGER_ACCURATE"} : (tensor<!tf_type.string>, tensor<4xi32>) -> tensor<2x8x1xui8>
  %audio, %rate = "tf.DecodeWav"(%wav) {desired_channels = -1 : i64, desired_samples = -1 : i64} : (tensor<!tf_type.string>) -> (tensor<3x2xf32>, tensor<i32>)

  %samples = "tf.Const"() {value = dense<[[0.5], [-0.25]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %hz = "tf.Const"() {value = dense<16000> : tensor<i32>} : () -> tensor<i32>
  %5 = "tf.EncodeWav"(%samples, %hz) : (tensor<2x1xf32>, tensor<i32>) -> tensor<!tf_type.string>
  %6 = "tf.EncodePng"(%0) {T = ui8, compression = -1 : i64} : (tensor<2x3x3xui8>) -> tensor<!tf_type.string>
  %7 = "tf.DecodeImage"(%6) {channels = 0 : i64, dtype = ui8, expand_animations = true} : (tensor<!tf_type.string>) -> tensor<2x3x3xui8>
  %8 = "tf.EncodeJpeg"(%3) {format = "", quality = 100 : i64, progressive = false, optimize_size = false, chroma_downsampling = true, density_unit = "in", x_density = 300 : i64, y_density = 300 : i64, xmp_metadata = ""} : (tensor<8x16x1xui8>) -> tensor<!tf_type.string>
  %9 = "tf.DecodeJpeg"(%8) {channels = 0 : i64, ratio = 1 : i64, fancy_upscaling = true, try_recover_truncated = false, acceptable_fraction = 1.0 : f32, dct_method = ""} : (tensor<!tf_type.string>) -> tensor<8x16x1xui8>
  %shape = "tf.Const"() {value = dense<[8, 16]> : tensor<2xi32>} : () -> tensor<2xi32>
  %rows = "tf.Reshape"(%3, %shape) : (tensor<8x16x1xui8>, tensor<2xi32>) -> tensor<8x16xui8>
  %window_shape = "tf.Const"() {value = dense<[2, 8]> : tensor<2xi32>} : () -> tensor<2xi32>
  %cropped = "tf.Reshape"(%4, %window_shape) : (tensor<2x8x1xui8>, tensor<2xi32>) -> tensor<2x8xui8>
  %back = "tf.Reshape"(%9, %shape) : (tensor<8x16x1xui8>, tensor<2xi32>) -> tensor<8x16xui8>
  %10 = "tf.DecodeImage"(%bmp) {channels = 0 : i64, dtype = f32, expand_animations = true} : (tensor<!tf_type.string>) -> tensor<2x2x3xf32>
  return %0, %1, %2, %rows, %cropped, %audio, %rate, %5, %7, %back, %10, %6 : tensor<2x3x3xui8>, tensor<2x2x2x3xui8>, tensor<2x2x3xui8>, tensor<8x16xui8>, tensor<2x8xui8>, tensor<3x2xf32>, tensor<i32>, tensor<!tf_type.string>, tensor<2x3x3xui8>, tensor<8x16xui8>, tensor<2x2x3xf32>, tensor<!tf_type.string>
}


// #0 the PNG's pixels as written.
// CHECK: result #0: tensor<2x3x3xui8>
// CHECK-NEXT: {{\[\[\[}}255, 0, 0],
// CHECK-NEXT: [0, 255, 0],
// CHECK-NEXT: [0, 0, 255]],
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}10, 20, 30],
// CHECK-NEXT: [40, 50, 60],
// CHECK-NEXT: [70, 80, 90]]]
// #1 two frames: red green / blue black, then the top row painted blue.
// CHECK: result #1: tensor<2x2x2x3xui8>
// CHECK-NEXT: {{\[\[\[\[}}255, 0, 0],
// CHECK-NEXT: [0, 255, 0]],
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}0, 0, 255],
// CHECK-NEXT: [0, 0, 0]]],
// CHECK-EMPTY:
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[\[}}0, 0, 255],
// CHECK-NEXT: [0, 0, 255]],
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}0, 0, 255],
// CHECK-NEXT: [0, 0, 0]]]]
// #2 the BMP's top row first, BGR to RGB.
// CHECK: result #2: tensor<2x2x3xui8>
// CHECK-NEXT: {{\[\[\[}}9, 8, 7],
// CHECK-NEXT: [12, 11, 10]],
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}3, 2, 1],
// CHECK-NEXT: [6, 5, 4]]]
// #3 the JPEG's two constant blocks, 50 and 200 (DC only, quantizer 1:
// exact).
// CHECK: result #3: tensor<8x16xui8>
// CHECK-COUNT-8: 50, 50, 50, 50, 50, 50, 50, 50, 200, 200, 200, 200, 200, 200, 200, 200]
// #4 rows 3-4, columns 6-13.
// CHECK: result #4: tensor<2x8xui8>
// CHECK-NEXT: {{\[\[}}50, 50, 200, 200, 200, 200, 200, 200],
// CHECK-NEXT: [50, 50, 200, 200, 200, 200, 200, 200]]
// #5, #6 the WAV's samples / 32768 (32767 / 32768 = 0.999969, 1 / 32768 =
// 3.05176e-05) and its rate.
// CHECK: result #5: tensor<3x2xf32>
// CHECK-NEXT: {{\[\[}}0.5, -0.5],
// CHECK-NEXT: [0.999969, -1.],
// CHECK-NEXT: [0., 3.05176e-05]]
// CHECK: result #6: tensor<i32>
// CHECK-NEXT: 8000
// #7 EncodeWav of [0.5, -0.25] at 16000 Hz: RIFF size 40 ('('), fmt 16,
// PCM, 1 channel, 16000 (80 3e '>'), 32000 bytes/s (00 7d '}'), block 2,
// 16 bits, data 4 bytes: 16384 (00 40 '@'), -8192 (00 e0).
// CHECK: result #7: tensor<!tf_type.string>
// CHECK-NEXT: b'RIFF(\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x80>\x00\x00\x00}\x00\x00\x02\x00\x10\x00data\x04\x00\x00\x00\x00@\x00\xe0'
// #8 EncodePng then DecodeImage: #0 again.
// CHECK: result #8: tensor<2x3x3xui8>
// CHECK-NEXT: {{\[\[\[}}255, 0, 0],
// CHECK-NEXT: [0, 255, 0],
// CHECK-NEXT: [0, 0, 255]],
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}10, 20, 30],
// CHECK-NEXT: [40, 50, 60],
// CHECK-NEXT: [70, 80, 90]]]
// #9 EncodeJpeg at quality 100 then DecodeJpeg: constant blocks come back.
// CHECK: result #9: tensor<8x16xui8>
// CHECK-COUNT-8: 50, 50, 50, 50, 50, 50, 50, 50, 200, 200, 200, 200, 200, 200, 200, 200]
// #10 DecodeImage of the BMP to float: / 255 (9 / 255 = 0.0352941).
// CHECK: result #10: tensor<2x2x3xf32>
// CHECK-NEXT: {{\[\[\[}}0.0352941, 0.0313726, 0.027451],
// CHECK-NEXT: [0.0470588, 0.0431373, 0.0392157]],
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}0.0117647, 0.00784314, 0.00392157],
// CHECK-NEXT: [0.0235294, 0.0196078, 0.0156863]]]
// CHECK: result #11: tensor<!tf_type.string>

// #11 EncodePng's file, read by png_pixels.py.
// PNG: IHDR width 3 height 2 depth 8 color 2 interlace 0
// PNG-NEXT: row 0: [255, 0, 0, 0, 255, 0, 0, 0, 255]
// PNG-NEXT: row 1: [10, 20, 30, 40, 50, 60, 70, 80, 90]
