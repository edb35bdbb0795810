# Precompiled headers: the third-party headers most of a target's sources include are parsed once per target
# instead of once per source. CLI11 alone costs about 5 s per source that includes it; precompiling the heavy
# headers roughly halves a build from scratch (docs/architecture.md, "Tests and CI").
#
# A precompiled header makes its headers visible to every source of the target: a source that forgets an
# include still compiles here. -DERGON_PRECOMPILED_HEADERS=OFF builds without them and shows such a source.
option(ERGON_PRECOMPILED_HEADERS "Precompile the heavy third-party headers of each target" ON)

function(ergon_precompile_headers target)
  if(ERGON_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${ARGN})
  endif()
endfunction()
