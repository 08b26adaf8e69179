#===- KernelLibraries.cmake - the libraries a manifest's kernels call -----===#
#
# tfrt_fallback_kernel_libraries(MANIFEST OUT_VAR) sets OUT_VAR to the
# external libraries whose calls the kernels MANIFEST keeps reach, of:
#   JPEG, PNG, GIF  libjpeg-turbo, libpng, giflib (ImageCodecKernels.cpp):
#                   the decoders of JPEG, PNG and GIF data (DecodeJpeg,
#                   DecodeAndCropJpeg, DecodePng, DecodeGif, DecodeImage:
#                   each decodes all three formats) need all three,
#                   EncodeJpeg and EncodeJpegVariableQuality JPEG, EncodePng
#                   PNG; DecodeBmp none
#   RE2             RE2 (RegexKernels.cpp): RegexReplace, StaticRegexReplace,
#                   RegexFullMatch, StaticRegexFullMatch
#   FARMHASH        farmhash's Fingerprint64 (TFHash.h): StringToHashBucket,
#                   StringToHashBucketFast, StringToHashBucketStrong,
#                   Fingerprint, SparseCross, SparseCrossHashed, SparseCrossV2
# lib/Runtime/Kernels/CMakeLists.txt links only these into a selective
# build, so an app without those ops neither links nor loads them (RE2 and
# the codecs are shared libraries); a build with every kernel links all.
#
# As a script, `cmake -DMANIFEST=FILE -P KernelLibraries.cmake` prints
# "kernel libraries: <list>" (test/Runtime/kernel-libraries-cmake.test).
#===----------------------------------------------------------------------===#
function(tfrt_fallback_kernel_libraries manifest outVar)
  file(STRINGS "${manifest}" lines REGEX "^[ \t]*kernel[ \t]+[A-Za-z0-9_]+")
  set(libraries "")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^[ \t]*kernel[ \t]+([A-Za-z0-9_]+)([ \t]|$)")
      continue()
    endif()
    set(op ${CMAKE_MATCH_1})
    if(op MATCHES "^Decode(Jpeg|AndCropJpeg|Png|Gif|Image)$")
      list(APPEND libraries JPEG PNG GIF)
    elseif(op STREQUAL "EncodePng")
      list(APPEND libraries PNG)
    elseif(op MATCHES "^Encode(Jpeg|JpegVariableQuality)$")
      list(APPEND libraries JPEG)
    elseif(op MATCHES "^(Static)?Regex(Replace|FullMatch)$")
      list(APPEND libraries RE2)
    elseif(op MATCHES "^(StringToHashBucket(Fast|Strong)?|Fingerprint|SparseCross(Hashed|V2)?)$")
      list(APPEND libraries FARMHASH)
    endif()
  endforeach()
  # In a fixed order whatever the manifest's.
  set(ordered "")
  foreach(library JPEG PNG GIF RE2 FARMHASH)
    list(FIND libraries ${library} index)
    if(NOT index EQUAL -1)
      list(APPEND ordered ${library})
    endif()
  endforeach()
  set(${outVar} "${ordered}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED MANIFEST)
  tfrt_fallback_kernel_libraries("${MANIFEST}" libraries)
  message("kernel libraries: ${libraries}")
endif()
