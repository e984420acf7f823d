# Included from test/CMakeLists.txt (this folder's CMakeLists.txt is the
# consumer project itself).  orion_install installs the build into
# <build>/test/cmake-consumer/staged and moves it to .../prefix; the consumer
# tests use that tree as a user would.  See check.sh.
set(ORION_CONSUMER_DIR ${CMAKE_BINARY_DIR}/test/cmake-consumer)
file(MAKE_DIRECTORY ${ORION_CONSUMER_DIR})
set(ORION_CONSUMER_CHECK ${CMAKE_CURRENT_LIST_DIR}/check.sh)

add_test(NAME orion_install
         COMMAND ${ORION_CONSUMER_CHECK} install ${CMAKE_BINARY_DIR} ${ORION_CONSUMER_DIR})
set_tests_properties(orion_install PROPERTIES FIXTURES_SETUP orion_prefix)

add_test(NAME cmake_consumer_orion_cc
         COMMAND ${ORION_CONSUMER_CHECK} cmake ${CMAKE_BINARY_DIR} ${ORION_CONSUMER_DIR}
                 ${ORION_CONSUMER_DIR}/prefix/bin/orion-cc)
add_test(NAME cmake_consumer_clang
         COMMAND ${ORION_CONSUMER_CHECK} cmake ${CMAKE_BINARY_DIR} ${ORION_CONSUMER_DIR}
                 ${ORION_LLVM_ROOT}/bin/clang++)
add_test(NAME pkgconfig_consumer
         COMMAND ${ORION_CONSUMER_CHECK} pkgconfig ${CMAKE_BINARY_DIR} ${ORION_CONSUMER_DIR}
                 ${ORION_LLVM_ROOT}/bin/clang++)
add_test(NAME cmake_consumer_errors
         COMMAND ${ORION_CONSUMER_CHECK} errors ${CMAKE_BINARY_DIR} ${ORION_CONSUMER_DIR}
                 ${ORION_CONSUMER_DIR}/prefix/bin/orion-cc ${ORION_CUDA_PATH}/bin/nvcc)
add_test(NAME cmake_consumer_rdc
         COMMAND ${ORION_CONSUMER_CHECK} rdc ${CMAKE_BINARY_DIR} ${ORION_CONSUMER_DIR})
set_tests_properties(cmake_consumer_orion_cc cmake_consumer_clang pkgconfig_consumer cmake_consumer_errors
                     cmake_consumer_rdc
                     PROPERTIES FIXTURES_REQUIRED orion_prefix SKIP_RETURN_CODE 77 TIMEOUT 600)
