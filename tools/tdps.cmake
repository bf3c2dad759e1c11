# SPDX-License-Identifier: GPL-2.0
# tdps: a ps on libtaskdiag (tools/tdps*.c; its format specifiers in psfields.c,
# shared with task_diag_all) and its man page.
add_executable(tdps ${CMAKE_CURRENT_SOURCE_DIR}/tdps.c ${CMAKE_CURRENT_SOURCE_DIR}/psfields.c
  ${CMAKE_CURRENT_SOURCE_DIR}/tdtext.c
  ${CMAKE_CURRENT_SOURCE_DIR}/tdps_opt.c)
target_compile_definitions(tdps PRIVATE _GNU_SOURCE TDPS_VERSION="${PROJECT_VERSION}")
target_link_libraries(tdps PRIVATE taskdiag_static td_warnings)
install(TARGETS tdps RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/docs/man/tdps.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
