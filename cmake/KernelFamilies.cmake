#===- KernelFamilies.cmake - the families of KernelFamilies.def -----------===#
#
# tfrt_fallback_kernel_families(OUT_VAR) sets OUT_VAR to the kernel families
# of include/tfrt_fallback/Runtime/KernelFamilies.def, in its order
# (Elementwise;Unary;...), and configures again when the table changes.
# lib/Runtime/Kernels/CMakeLists.txt compiles <Name>Kernels.cpp for each;
# tools/fallback-run-lite/CMakeLists.txt builds the size report's runner per
# family. A line that names the row macro but is neither a comment, a
# preprocessor line nor one whole row is an error, so no family goes unread.
#===----------------------------------------------------------------------===#
function(tfrt_fallback_kernel_families outVar)
  set(table
    ${TFRT_FALLBACK_SOURCE_DIR}/include/tfrt_fallback/Runtime/KernelFamilies.def)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${table})
  file(STRINGS ${table} lines REGEX "TFRT_FALLBACK_KERNEL_FAMILY")
  set(families "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^TFRT_FALLBACK_KERNEL_FAMILY\\(([A-Za-z0-9_]+)\\)[ \t]*$")
      list(APPEND families ${CMAKE_MATCH_1})
    elseif(NOT line MATCHES "^[ \t]*(//|#)")
      message(FATAL_ERROR "KernelFamilies.def: '${line}' is not a row "
        "TFRT_FALLBACK_KERNEL_FAMILY(Name) on one line")
    endif()
  endforeach()
  if(NOT families)
    message(FATAL_ERROR "KernelFamilies.def: no family")
  endif()
  set(${outVar} ${families} PARENT_SCOPE)
endfunction()
