# `cmake --install`: the ergon executable, the libraries with their headers and a CMake package
# (find_package(Ergon) gives the Ergon:: targets), and the shipped data. docs/packaging.md describes the layout.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# bin/ and share/ergon/ are fixed: the executable finds its data at ../share/ergon (sim/data_paths.cpp).
set(ERGON_INSTALL_BINDIR bin)
set(ERGON_INSTALL_DATADIR share/ergon)
# Headers keep their folders under include/ergon, so `-I<prefix>/include/ergon` resolves the project's own
# includes ("sim/simulation.hpp") unchanged.
set(ERGON_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/ergon)
set(ERGON_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Ergon)

set(ergon_library_targets
    ergon_common
    ergon_network
    ergon_arch_config
    ergon_dataflows
    ergon_arch
    ergon_power
    ergon_sim
    ergon_studies
    ergon_stm32n6_config
    ergon_cli)

# Ergon::ergon links every library.
# The executable already holds the name `ergon`, hence the export name.
add_library(ergon_libraries INTERFACE)
target_link_libraries(ergon_libraries INTERFACE ergon_common ergon_network ergon_arch_config ergon_sim ergon_studies)
ergon_link_whole_archive(ergon_libraries INTERFACE ergon_dataflows ergon_arch ergon_power ergon_cli)
set_target_properties(ergon_libraries PROPERTIES EXPORT_NAME ergon)

install(TARGETS ${ergon_library_targets} ergon_libraries
        EXPORT ErgonTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${ERGON_INSTALL_INCLUDEDIR})
install(TARGETS ergon RUNTIME DESTINATION ${ERGON_INSTALL_BINDIR})

foreach(header_folder common network dataflows arch power sim studies cli)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${header_folder}/
          DESTINATION ${ERGON_INSTALL_INCLUDEDIR}/${header_folder}
          FILES_MATCHING PATTERN "*.hpp")
endforeach()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs ${PROJECT_SOURCE_DIR}/workloads ${PROJECT_SOURCE_DIR}/reference
        DESTINATION ${ERGON_INSTALL_DATADIR})
# power/ holds the library's sources too; only its tables are data.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/power/tables DESTINATION ${ERGON_INSTALL_DATADIR}/power)

install(EXPORT ErgonTargets NAMESPACE Ergon:: DESTINATION ${ERGON_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ErgonConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/ErgonConfig.cmake
                              INSTALL_DESTINATION ${ERGON_INSTALL_CMAKEDIR}
                              PATH_VARS ERGON_INSTALL_DATADIR)
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ErgonConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ErgonConfig.cmake ${PROJECT_BINARY_DIR}/ErgonConfigVersion.cmake
        DESTINATION ${ERGON_INSTALL_CMAKEDIR})
