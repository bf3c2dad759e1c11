# SPDX-License-Identifier: GPL-2.0
# task_diag_all --interval (tools/task_diag_all_interval.c): added to the
# task_diag_all target, whose main() hands over to it.
if(TARGET task_diag_all)
  target_sources(task_diag_all PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/task_diag_all_interval.c)
endif()
