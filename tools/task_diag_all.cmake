# SPDX-License-Identifier: GPL-2.0
# task_diag_all: the dump tool (tools/task_diag_all.c, tda_*.c; ps's
# specifiers from psfields.c, as tdps's) and its man page.
add_executable(task_diag_all ${CMAKE_CURRENT_SOURCE_DIR}/task_diag_all.c
  ${CMAKE_CURRENT_SOURCE_DIR}/tda_value.c ${CMAKE_CURRENT_SOURCE_DIR}/tda_out.c
  ${CMAKE_CURRENT_SOURCE_DIR}/tda_verify.c ${CMAKE_CURRENT_SOURCE_DIR}/tda_openmetrics.c
  ${CMAKE_CURRENT_SOURCE_DIR}/psfields.c
  ${CMAKE_CURRENT_SOURCE_DIR}/tdtext.c ${CMAKE_CURRENT_SOURCE_DIR}/tda_maps.c
  ${CMAKE_CURRENT_SOURCE_DIR}/tda_interval.c ${CMAKE_CURRENT_SOURCE_DIR}/tda_errors.c)
target_compile_definitions(task_diag_all PRIVATE _GNU_SOURCE
  TDA_VERSION="${PROJECT_VERSION}")
target_link_libraries(task_diag_all PRIVATE taskdiag_static td_warnings)
install(TARGETS task_diag_all RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/docs/man/task_diag_all.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
