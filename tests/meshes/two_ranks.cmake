# CTest meshes.mpi_two_ranks: `rebound mesh` of the same case with 1 and 2 MPI ranks must give
# the same cells, volume and lambda; the .pvtu record and its pieces must read back with VTK.
# Variables: REBOUND, TEST_MESHES, MPIEXEC, SOURCE_DIR, WORK_DIR.
set(case ${SOURCE_DIR}/cases/rod-lai-a.json)
file(REMOVE_RECURSE ${WORK_DIR})

function(run expected_status)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "$ ${ARGN}\n${out}${err}")
  if(NOT status EQUAL expected_status)
    message(FATAL_ERROR "exit status ${status}, expected ${expected_status}")
  endif()
endfunction()

run(0 ${REBOUND} mesh ${case} -o ${WORK_DIR}/serial)
run(0 ${MPIEXEC} -np 2 --oversubscribe ${REBOUND} mesh ${case} -o ${WORK_DIR}/parallel)
foreach(file serial/mesh/mesh.vtu serial/mesh/summary.json parallel/mesh/mesh.pvtu
        parallel/mesh/mesh.0.vtu parallel/mesh/mesh.1.vtu parallel/mesh/summary.json)
  if(NOT EXISTS ${WORK_DIR}/${file})
    message(FATAL_ERROR "missing ${WORK_DIR}/${file}")
  endif()
endforeach()
if(EXISTS ${WORK_DIR}/parallel/mesh/mesh.vtu)
  message(FATAL_ERROR "a parallel run left a serial mesh.vtu")
endif()

# The comparison and the VTK read-back are tests of test_meshes, skipped unless these are set.
set(ENV{REBOUND_TEST_SERIAL_MESH} ${WORK_DIR}/serial/mesh)
set(ENV{REBOUND_TEST_PARALLEL_MESH} ${WORK_DIR}/parallel/mesh)
run(0 ${TEST_MESHES} --gtest_filter=Parallel.*)

# A shape without a generator is bad input: exit status 2.
run(2 ${REBOUND} mesh ${SOURCE_DIR}/cases/disc-steel-maw1981.json -o ${WORK_DIR}/disc)
