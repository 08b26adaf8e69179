#===- KernelFamilies.cmake - the families of KernelFamilies.def -----------===#
#
# tfrt_fallback_kernel_families(OUT_VAR) sets OUT_VAR to the kernel families
# of include/tfrt_fallback/Runtime/KernelFamilies.def, in its order
# (Elementwise;Unary;...), OUT_VAR_LIBRARIES to the kernel libraries in their
# order (Math;NN;...), and for each library L, OUT_VAR_L to its families;
# CMake configures again when the table changes. lib/Runtime/Kernels/
# builds a static library per kernel library from <Name>Kernels.cpp of its
# families; tools/fallback-run-lite/CMakeLists.txt builds the size report's
# runner per family. A line that names the row macro but is neither a
# comment, a preprocessor line nor one whole row is an error, and so is a
# library whose rows are not contiguous, so no family goes unread.
#===----------------------------------------------------------------------===#
function(tfrt_fallback_kernel_families outVar)
  set(table
    ${TFRT_FALLBACK_SOURCE_DIR}/include/tfrt_fallback/Runtime/KernelFamilies.def)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${table})
  file(STRINGS ${table} lines REGEX "TFRT_FALLBACK_KERNEL_FAMILY")
  set(families "")
  set(libraries "")
  set(previous "")
  foreach(line IN LISTS lines)
    if(line MATCHES
       "^TFRT_FALLBACK_KERNEL_FAMILY\\(([A-Za-z0-9_]+), ([A-Za-z0-9_]+)\\)[ \t]*$")
      set(library ${CMAKE_MATCH_1})
      set(family ${CMAKE_MATCH_2})
      list(APPEND families ${family})
      if(NOT library STREQUAL previous)
        if(library IN_LIST libraries)
          message(FATAL_ERROR "KernelFamilies.def: the rows of library "
            "'${library}' are not contiguous (at family '${family}')")
        endif()
        list(APPEND libraries ${library})
        set(previous ${library})
        set(${outVar}_${library} "")
      endif()
      list(APPEND ${outVar}_${library} ${family})
    elseif(NOT line MATCHES "^[ \t]*(//|#)")
      message(FATAL_ERROR "KernelFamilies.def: '${line}' is not a row "
        "TFRT_FALLBACK_KERNEL_FAMILY(Library, Name) on one line")
    endif()
  endforeach()
  if(NOT families)
    message(FATAL_ERROR "KernelFamilies.def: no family")
  endif()
  set(${outVar} ${families} PARENT_SCOPE)
  set(${outVar}_LIBRARIES ${libraries} PARENT_SCOPE)
  foreach(library IN LISTS libraries)
    set(${outVar}_${library} ${${outVar}_${library}} PARENT_SCOPE)
  endforeach()
endfunction()
