# Installation of embbag as a CMake package: headers (with the generated
# .h.inc), the libraries, the tools, the mlir-opt plugin, and
# lib/cmake/embbag/EmbBagConfig.cmake with the exported targets.
#
# add_mlir_library already installs every embbag library into the export
# set "MLIRTargets" (the name is LLVM's convention for project MLIR); it is
# exported here under the namespace EmbBag::, in its own file, so it never
# mixes with MLIR's own MLIRTargets.cmake.

include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(EMBBAG_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
set(EMBBAG_INSTALL_BINDIR "${CMAKE_INSTALL_BINDIR}")
set(EMBBAG_INSTALL_CMAKEDIR "lib${LLVM_LIBDIR_SUFFIX}/cmake/embbag")

# The umbrella target: dialect, passes, pipelines and registration
# (embbag/InitAll.h).
add_library(EmbBag INTERFACE)
target_link_libraries(EmbBag INTERFACE MLIREmbBagRegistration)
target_include_directories(EmbBag INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
  $<INSTALL_INTERFACE:${EMBBAG_INSTALL_INCLUDEDIR}>)
install(TARGETS EmbBag EXPORT MLIRTargets)

install(DIRECTORY include/embbag include/embbag-c
  DESTINATION ${EMBBAG_INSTALL_INCLUDEDIR}
  COMPONENT embbag-headers
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td"
  PATTERN "CMakeLists.txt" EXCLUDE)
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/embbag
  DESTINATION ${EMBBAG_INSTALL_INCLUDEDIR}
  COMPONENT embbag-headers
  FILES_MATCHING PATTERN "*.h.inc" PATTERN "*.h"
  PATTERN "CMakeFiles" EXCLUDE)

install(TARGETS embbag-opt RUNTIME DESTINATION ${EMBBAG_INSTALL_BINDIR})

get_property(EMBBAG_EXPORTED_TARGETS GLOBAL PROPERTY MLIR_EXPORTS)
list(APPEND EMBBAG_EXPORTED_TARGETS EmbBag)
if(TARGET EmbBagCAPI)
  list(APPEND EMBBAG_EXPORTED_TARGETS EmbBagCAPI)
endif()
list(REMOVE_DUPLICATES EMBBAG_EXPORTED_TARGETS)

install(EXPORT MLIRTargets
  NAMESPACE EmbBag::
  FILE EmbBagTargets.cmake
  DESTINATION ${EMBBAG_INSTALL_CMAKEDIR}
  COMPONENT embbag-cmake-exports)

set(EMBBAG_VERSION 0.1.0)
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/EmbBagConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/embbag/EmbBagConfig.cmake
  INSTALL_DESTINATION ${EMBBAG_INSTALL_CMAKEDIR}
  PATH_VARS EMBBAG_INSTALL_INCLUDEDIR EMBBAG_INSTALL_BINDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/embbag/EmbBagConfigVersion.cmake
  VERSION ${EMBBAG_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/lib/cmake/embbag/EmbBagConfig.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/embbag/EmbBagConfigVersion.cmake
  DESTINATION ${EMBBAG_INSTALL_CMAKEDIR}
  COMPONENT embbag-cmake-exports)

# Installed binaries find libMLIR.so (and libLLVM.so) where MLIR is, and
# each other in the prefix's lib.
foreach(_embbag_target embbag-opt embbag-aot EmbBagCAPI EmbBagPlugin)
  if(TARGET ${_embbag_target})
    set_target_properties(${_embbag_target} PROPERTIES
      INSTALL_RPATH "\$ORIGIN/../lib${LLVM_LIBDIR_SUFFIX};${LLVM_LIBRARY_DIR}")
  endif()
endforeach()
