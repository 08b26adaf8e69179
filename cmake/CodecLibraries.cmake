#===- CodecLibraries.cmake - the codec libraries a manifest needs ---------===#
#
# tfrt_fallback_codec_libraries(MANIFEST OUT_VAR) sets OUT_VAR to those of
# JPEG, PNG and GIF (libjpeg-turbo, libpng, giflib) whose calls the kernels
# MANIFEST keeps reach (lib/Runtime/Kernels/ImageCodecKernels.cpp): the
# decoders of JPEG, PNG and GIF data (DecodeJpeg, DecodeAndCropJpeg,
# DecodePng, DecodeGif, DecodeImage: each decodes all three formats) need
# all three, EncodeJpeg and EncodeJpegVariableQuality JPEG, EncodePng PNG;
# DecodeBmp and every other op none. lib/Runtime/Kernels/CMakeLists.txt
# links only these into a selective build.
#
# As a script, `cmake -DMANIFEST=FILE -P CodecLibraries.cmake` prints
# "codec libraries: <list>" (test/Runtime/codec-libraries-cmake.test).
#===----------------------------------------------------------------------===#
function(tfrt_fallback_codec_libraries manifest outVar)
  file(STRINGS "${manifest}" lines REGEX
    "^[ \t]*kernel[ \t]+(Decode(Jpeg|AndCropJpeg|Png|Gif|Image)|Encode(Jpeg|JpegVariableQuality|Png))([ \t]|$)")
  set(libraries "")
  foreach(line IN LISTS lines)
    if(line MATCHES "kernel[ \t]+Decode")
      list(APPEND libraries JPEG PNG GIF)
    elseif(line MATCHES "kernel[ \t]+EncodePng")
      list(APPEND libraries PNG)
    else()
      list(APPEND libraries JPEG)
    endif()
  endforeach()
  # In JPEG, PNG, GIF order whatever the manifest's.
  set(ordered "")
  foreach(library JPEG PNG GIF)
    list(FIND libraries ${library} index)
    if(NOT index EQUAL -1)
      list(APPEND ordered ${library})
    endif()
  endforeach()
  set(${outVar} "${ordered}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED MANIFEST)
  tfrt_fallback_codec_libraries("${MANIFEST}" libraries)
  message("codec libraries: ${libraries}")
endif()
