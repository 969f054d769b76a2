# deal.II's DEAL_II_SETUP_TARGET links with the plain target_link_libraries() signature, which
# CMake refuses to mix with the keyword signature (PRIVATE/PUBLIC) the project uses everywhere
# (app/, tests/). This project-wide replacement does the same with keywords: deal.II's include
# directories (SYSTEM), compile flags and definitions and the library itself, all PUBLIC so that
# targets linking `meshes` inherit them. Included by the root CMakeLists.txt right after find_package(deal.II).
option(REBOUND_RESTORE_O3 "Release: compile deal.II targets at -O3 after deal.II's own -O2" ON)
option(REBOUND_DEBUG_INFO "Release: keep the debug information (-g) of deal.II's own flags" OFF)
macro(deal_ii_setup_target _target)
  if(NOT DEAL_II_TARGET_CONFIG_INCLUDED)
    include(${DEAL_II_TARGET_CONFIG})
    set(DEAL_II_TARGET_CONFIG_INCLUDED TRUE)
  endif()
  if(CMAKE_BUILD_TYPE STREQUAL "Debug" AND DEAL_II_BUILD_TYPE MATCHES "Debug")
    set(_rebound_dealii_build DEBUG)
  else()
    set(_rebound_dealii_build RELEASE)
  endif()
  target_include_directories(${_target} SYSTEM PUBLIC ${DEAL_II_INCLUDE_DIRS})
  set(_rebound_dealii_flags
      "${DEAL_II_CXX_FLAGS} ${DEAL_II_CXX_FLAGS_${_rebound_dealii_build}}")
  separate_arguments(_rebound_dealii_flags UNIX_COMMAND "${_rebound_dealii_flags}")
  target_compile_options(${_target} PUBLIC $<$<COMPILE_LANGUAGE:CXX>:${_rebound_dealii_flags}>)
  # Debian's DEAL_II_CXX_FLAGS carry the package's own build flags (-g -O2) and
  # DEAL_II_CXX_FLAGS_RELEASE is -O2; both come after CMAKE_CXX_FLAGS_RELEASE on the command line,
  # so without this every deal.II target compiled at -O2 in a Release build. The build type's
  # -O3 is restored after them (REBOUND_RESTORE_O3=OFF: as before, for
  # bench/fem_run_optimisation.sh, which measures both; docs/PERFORMANCE.md).
  if(CMAKE_BUILD_TYPE STREQUAL "Release" AND REBOUND_RESTORE_O3)
    target_compile_options(${_target} PUBLIC $<$<COMPILE_LANGUAGE:CXX>:-O3>)
  endif()
  # The same flags' -g made a Release build write debug information for every deal.II unit: about
  # a third of their compile time (fem_lanes2's internal_force_lanes.cpp: 120 -> 87 CPU s, peak
  # memory 2.6 -> 1.9 GB) and ten times the object size; GCC's code does not depend on -g, so the
  # programs are the same. REBOUND_DEBUG_INFO=ON keeps it (docs/PERFORMANCE.md, "Build time").
  if(CMAKE_BUILD_TYPE STREQUAL "Release" AND NOT REBOUND_DEBUG_INFO)
    target_compile_options(${_target} PUBLIC $<$<COMPILE_LANGUAGE:CXX>:-g0>)
  endif()
  target_compile_definitions(${_target} PUBLIC ${DEAL_II_USER_DEFINITIONS}
                             ${DEAL_II_USER_DEFINITIONS_${_rebound_dealii_build}})
  set_property(TARGET ${_target} APPEND_STRING PROPERTY LINK_FLAGS
               " ${DEAL_II_LINKER_FLAGS} ${DEAL_II_LINKER_FLAGS_${_rebound_dealii_build}}")
  target_link_libraries(${_target} PUBLIC ${DEAL_II_TARGET_${_rebound_dealii_build}})
endmacro()

