# Self-registering parts (common/registry.hpp) are objects nothing names, which a static library's link would
# drop. ergon_link_whole_archive(TARGET SCOPE LIBRARY...) links each library whole. CMake refuses a library
# linked both whole and plainly in one link, so every reference to a library holding registrations
# (ergon_dataflows, ergon_arch, ergon_power, ergon_cli) goes through this function; its consumers, the installed Ergon::
# targets included, inherit the whole-archive link.
function(ergon_link_whole_archive target scope)
  foreach(library IN LISTS ARGN)
    target_link_libraries(
      ${target} ${scope}
      "$<LINK_LIBRARY:WHOLE_ARCHIVE,$<BUILD_INTERFACE:${library}>$<INSTALL_INTERFACE:Ergon::${library}>>")
  endforeach()
endfunction()
