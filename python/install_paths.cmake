# Run by `cmake --install`: writes the installed package's _paths.py with the shipped data's folder
# (share/ergon under the prefix) relative to the package, whatever --prefix or DESTDIR the install uses.
# Set by python/CMakeLists.txt's install(CODE): ERGON_PYTHON_INSTALL_DIR, ERGON_PYTHON_PATHS_TEMPLATE,
# PROJECT_VERSION.
set(package_dir "${ERGON_PYTHON_INSTALL_DIR}/ergon")
if(NOT IS_ABSOLUTE "${package_dir}")
  set(package_dir "${CMAKE_INSTALL_PREFIX}/${package_dir}")
endif()
file(RELATIVE_PATH ERGON_PYTHON_DATA_DIR "${package_dir}" "${CMAKE_INSTALL_PREFIX}/share/ergon")
set(paths_file "$ENV{DESTDIR}${package_dir}/_paths.py")
message(STATUS "Installing: ${paths_file}")
configure_file("${ERGON_PYTHON_PATHS_TEMPLATE}" "${paths_file}" @ONLY)
