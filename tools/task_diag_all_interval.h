/* SPDX-License-Identifier: GPL-2.0 */
/* task_diag_all --interval (task_diag_all_interval.c), called from main(). */
#ifndef TASK_DIAG_ALL_INTERVAL_H
#define TASK_DIAG_ALL_INTERVAL_H

#include <stdbool.h>

/* Is --interval on the command line (before any "--")? */
bool tda_interval_wanted(int argc, char **argv);
/* The whole --interval mode: parses its own options; returns the exit status. */
int tda_interval_main(int argc, char **argv);

#endif
