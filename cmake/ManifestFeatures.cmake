#===- ManifestFeatures.cmake - a kernel manifest's `feature` lines --------===#
#
# tfrt_fallback_manifest_features(MANIFEST CONTROL_FLOW_VAR STRINGS_VAR
#                                 MEMORY_PLAN_VAR SIGNATURES_VAR
#                                 MEMMAPPED_PACKAGE_VAR)
# sets each variable to 1 when MANIFEST has the line `feature control-flow`,
# `feature strings`, `feature memory-plan`, `feature signatures` or
# `feature memmapped-package` (the
# framework's optional parts,
# lib/Runtime/Features.h, docs/KernelManifest.md), else 0. Any other
# `feature` line is an error naming the line. lib/Runtime/CMakeLists.txt
# reads a selective build's manifest with it; KernelSelection.cmake checks
# the same lines with it.
#===----------------------------------------------------------------------===#
function(tfrt_fallback_manifest_features manifest controlFlowVar stringsVar
    memoryPlanVar signaturesVar memmappedPackageVar)
  file(STRINGS "${manifest}" lines)
  set(controlFlow 0)
  set(strings 0)
  set(memoryPlan 0)
  set(signatures 0)
  set(memmappedPackage 0)
  set(lineNo 0)
  foreach(line IN LISTS lines)
    math(EXPR lineNo "${lineNo} + 1")
    string(STRIP "${line}" line)
    if(NOT line MATCHES "^feature ")
      continue()
    endif()
    if(line MATCHES "^feature +control-flow$")
      set(controlFlow 1)
    elseif(line MATCHES "^feature +strings$")
      set(strings 1)
    elseif(line MATCHES "^feature +memory-plan$")
      set(memoryPlan 1)
    elseif(line MATCHES "^feature +signatures$")
      set(signatures 1)
    elseif(line MATCHES "^feature +memmapped-package$")
      set(memmappedPackage 1)
    else()
      message(FATAL_ERROR "${manifest}:${lineNo}: unknown feature line "
        "'${line}' (known: 'feature control-flow', 'feature strings', "
        "'feature memory-plan', 'feature signatures', "
        "'feature memmapped-package')")
    endif()
  endforeach()
  set(${controlFlowVar} ${controlFlow} PARENT_SCOPE)
  set(${stringsVar} ${strings} PARENT_SCOPE)
  set(${memoryPlanVar} ${memoryPlan} PARENT_SCOPE)
  set(${signaturesVar} ${signatures} PARENT_SCOPE)
  set(${memmappedPackageVar} ${memmappedPackage} PARENT_SCOPE)
endfunction()
