# `cmake --install` layout: a CMake package for compilers that embed posenc.
#
#   include/posenc/...        headers, .td files and the generated .inc files
#   include/posenc-c/...      C API headers
#   lib/libPosEnc*.a          the libraries (they link libMLIR.so)
#   lib/PosEncPlugin.so       the plugin of stock mlir-opt
#   bin/posenc-opt, bin/posenc-run, bin/posenc-translate
#   lib/cmake/PosEnc/         PosEncConfig.cmake: find_package(PosEnc CONFIG)
#                             gives PosEnc::<library> imported targets
#
# add_mlir_library would install our libraries into MLIR's own export set
# (MLIRTargets), which no file of ours exports: every posenc library passes
# DISABLE_INSTALL and is installed here, into PosEncTargets. A new library
# that a listed one links must be listed too (install(EXPORT) fails if not).

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(POSENC_EXPORTED_LIBRARIES
  PosEncIR
  PosEncCodegen
  PosEncToLinalg
  PosEncRaising
  PosEncTransforms
  PosEncGPU
  PosEncPipelines
  PosEncRegistration
  PosEncTargetHFConfig
  PosEncCAPI
  )
set(POSENC_INSTALL_PACKAGE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/PosEnc")

install(TARGETS ${POSENC_EXPORTED_LIBRARIES}
  EXPORT PosEncTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT posenc-dev
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT posenc-dev
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  )
install(TARGETS PosEncPlugin
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT posenc-plugin)
install(TARGETS posenc-opt posenc-run posenc-translate
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}" COMPONENT posenc-tools)

install(DIRECTORY
  "${POSENC_SOURCE_DIR}/include/posenc"
  "${POSENC_SOURCE_DIR}/include/posenc-c"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT posenc-dev
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY "${POSENC_BINARY_DIR}/include/posenc"
  DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT posenc-dev
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

install(EXPORT PosEncTargets
  NAMESPACE PosEnc::
  DESTINATION "${POSENC_INSTALL_PACKAGE_DIR}" COMPONENT posenc-dev)

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/PosEncConfig.cmake.in"
  "${POSENC_BINARY_DIR}/cmake/PosEncConfig.cmake"
  INSTALL_DESTINATION "${POSENC_INSTALL_PACKAGE_DIR}"
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(
  "${POSENC_BINARY_DIR}/cmake/PosEncConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${POSENC_BINARY_DIR}/cmake/PosEncConfig.cmake"
  "${POSENC_BINARY_DIR}/cmake/PosEncConfigVersion.cmake"
  DESTINATION "${POSENC_INSTALL_PACKAGE_DIR}" COMPONENT posenc-dev)
