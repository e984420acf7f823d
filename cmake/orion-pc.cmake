# orion-pc.cmake - writes orion.pc from orion.pc.in at build time, with
# ORION_CODEGEN_FLAGS from the built orion-config --codegen-flags (orion-cc's
# device code-generation defaults, one table in driver/cc_codegen.c).
#   cmake -DORION_CONFIG=<orion-config> -DIN=<orion.pc.in> -DOUT=<orion.pc>
#         -DORION_CUDA_PATH=... -DPROJECT_VERSION=... -P orion-pc.cmake
execute_process(COMMAND ${ORION_CONFIG} --codegen-flags
  OUTPUT_VARIABLE ORION_CODEGEN_FLAGS OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "${ORION_CONFIG} --codegen-flags failed: ${rc}")
endif()
configure_file(${IN} ${OUT} @ONLY)
