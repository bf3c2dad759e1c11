/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tdtop: a top on libtaskdiag. tdtop.c: options and batch mode;
 * tdtop_rows.c: the two samples and their diff, the rows and how top lays
 * them out; tdtop_tui.c: the interactive screen (ncurses) and its keys.
 */
#ifndef TDTOP_H
#define TDTOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <taskdiag/taskdiag.h>

/* The columns of top's default table, in order; TDTOP_COL__COUNT ends them. */
enum tdtop_col {
	TDTOP_COL_PID,
	TDTOP_COL_USER,
	TDTOP_COL_PR,
	TDTOP_COL_NI,
	TDTOP_COL_VIRT,
	TDTOP_COL_RES,
	TDTOP_COL_SHR,
	TDTOP_COL_S,
	TDTOP_COL_CPU,
	TDTOP_COL_MEM,
	TDTOP_COL_TIME,
	TDTOP_COL_COMMAND,
	TDTOP_COL__COUNT
};

struct tdtop_row {
	const struct taskdiag_task *t;
	pid_t pid;
	uid_t euid;
	const char *user;	/* into the user cache */
	int64_t pr, ni;
	uint64_t virt, res, shr;	/* KiB */
	char state;
	double cpu;	/* % of one CPU */
	double mem;	/* % of MemTotal */
	uint64_t cs;	/* utime + stime, centiseconds */
};

struct tdtop {
	/* settings (options and keys) */
	enum taskdiag_backend backend;
	bool batch, threads, hide_idle, cmdline, reverse;
	bool quiet;		/* -q: no notice of the fallback to /proc */
	double delay;		/* seconds */
	long iterations;	/* -n; 0: no limit */
	enum tdtop_col sort;
	bool has_user;
	bool any_user;		/* -U: real, effective, saved or file-system user */
	uid_t user;		/* -u / -U / u */
	pid_t *pids;		/* -p */
	size_t npids;
	int width;		/* batch: -w, else 80 */
	int pid_width;

	/* state */
	struct taskdiag *td;
	struct taskdiag_sample *s[2];
	int cur;		/* s[cur] is the newer sample */
	struct taskdiag_diff *diff;
	struct taskdiag_system sys[2];	/* [cur] newer */
	struct tdtop_row *rows;
	size_t nrows, rcap;
	unsigned int ntasks, nrunning, nstopped, nzombie;
	unsigned int ncpu;
	char msg[160];		/* one-shot message for the screen */
};

/* tdtop_rows.c */
int tdtop_refresh(struct tdtop *tt);
/* The five summary lines and the column header, laid out as top's. */
void tdtop_summary(const struct tdtop *tt, char lines[5][512]);
void tdtop_header(const struct tdtop *tt, char *buf, size_t size, int width);
void tdtop_row_text(const struct tdtop *tt, const struct tdtop_row *r, char *buf, size_t size,
		    int width);
const char *tdtop_col_name(enum tdtop_col c);
int tdtop_user_lookup(const char *name, uid_t *uid);

/* tdtop_tui.c: the interactive mode; returns the exit status. */
int tdtop_tui(struct tdtop *tt);

#endif /* TDTOP_H */
