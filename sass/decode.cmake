# orion_sassdec: the SASS decoder/encoder for sm_90, sm_80, sm_86 and sm_89
# (decode.c, encode.c, the opcode table ops.def).  Pure C, no libelf: it
# works on 16-byte instruction words.  Included from the top-level
# CMakeLists.txt.
add_library(orion_sassdec STATIC
  ${CMAKE_CURRENT_LIST_DIR}/decode.c
  ${CMAKE_CURRENT_LIST_DIR}/encode.c)
target_include_directories(orion_sassdec PUBLIC ${CMAKE_SOURCE_DIR}/include)
