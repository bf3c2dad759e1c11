# SPDX-License-Identifier: GPL-2.0
# tdtop: a top on libtaskdiag (tools/tdtop*.c), ncurses for its screen, and its man page.
pkg_check_modules(NCURSES REQUIRED IMPORTED_TARGET ncurses)
add_executable(tdtop ${CMAKE_CURRENT_SOURCE_DIR}/tdtop.c ${CMAKE_CURRENT_SOURCE_DIR}/tdtop_rows.c
  ${CMAKE_CURRENT_SOURCE_DIR}/tdtop_tui.c
  ${CMAKE_CURRENT_SOURCE_DIR}/tdtop_cell.c ${CMAKE_CURRENT_SOURCE_DIR}/tdtext.c)
target_compile_definitions(tdtop PRIVATE _GNU_SOURCE TDTOP_VERSION="${PROJECT_VERSION}")
target_link_libraries(tdtop PRIVATE taskdiag_static td_warnings PkgConfig::NCURSES m)
install(TARGETS tdtop RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/docs/man/tdtop.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
