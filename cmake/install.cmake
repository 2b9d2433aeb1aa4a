# `cmake --install build/<preset> --prefix P`: what a user of touchstone needs and nothing more:
# the public headers, libtouchstone (shared, versioned), the `touchstone` command, the CMake
# package (find_package(touchstone 0.1 CONFIG REQUIRED): touchstone::touchstone and
# touchstone::plugin) and touchstone.pc. tests/sdk/ installs into a temporary prefix and builds
# examples/plugin_template against it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# version.h is what plug-ins and `touchstone --version` see; project() is what the package says.
file(STRINGS ${PROJECT_SOURCE_DIR}/lib/include/touchstone/version.h TS_VERSION_LINE
     REGEX "kVersion = ")
if(NOT TS_VERSION_LINE MATCHES "\"${PROJECT_VERSION}\"")
  message(FATAL_ERROR "touchstone/version.h (${TS_VERSION_LINE}) differs from project() "
                      "VERSION ${PROJECT_VERSION}: keep them equal")
endif()

# The public headers; cuda_check.h includes the CUDA runtime API, so it ships with CUDA builds.
file(GLOB TS_PUBLIC_HEADERS ${PROJECT_SOURCE_DIR}/lib/include/touchstone/*.h
     ${PROJECT_SOURCE_DIR}/lib/include/touchstone/*.def)
if(NOT TS_HAVE_CUDA)
  list(FILTER TS_PUBLIC_HEADERS EXCLUDE REGEX "/cuda_check\\.h$")
endif()
install(FILES ${TS_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/touchstone)

install(TARGETS touchstone touchstone_plugin EXPORT touchstoneTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The command finds libtouchstone next to it, wherever the prefix is moved.
set_target_properties(touchstone_cli PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
install(TARGETS touchstone_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(TS_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/touchstone)
install(EXPORT touchstoneTargets NAMESPACE touchstone:: DESTINATION ${TS_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/touchstoneConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/touchstoneConfig.cmake
                              INSTALL_DESTINATION ${TS_CMAKE_DIR} PATH_VARS CMAKE_INSTALL_BINDIR)
# 0.x: a minor version may break the API (Note [Library version] in lib/CMakeLists.txt).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/touchstoneConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/touchstoneConfig.cmake
              ${PROJECT_BINARY_DIR}/touchstoneConfigVersion.cmake DESTINATION ${TS_CMAKE_DIR})

# The .pc file names its prefix relative to itself, so `--prefix` at install time holds.
file(RELATIVE_PATH TS_PC_UP /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
# A CUDA build's headers see TS_HAVE_CUDA (optimized/cuda/CMakeLists.txt), as the CMake target does.
set(TS_PC_DEFINES "")
if(TS_HAVE_CUDA)
  set(TS_PC_DEFINES " -DTS_HAVE_CUDA=1")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/touchstone.pc.in ${PROJECT_BINARY_DIR}/touchstone.pc
               @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/touchstone.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
