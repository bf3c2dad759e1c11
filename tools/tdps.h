/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tdps: what tdps.c (selection, layout) and tdps_opt.c (options) share; the
 * format specifiers are psfields.h's.
 */
#ifndef TDPS_H
#define TDPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <taskdiag/taskdiag.h>

#include "psfields.h"

/* ------------------------------------------------------------------------
 * Options (tdps_opt.c parses them as procps's ps does)
 */

#define TDPS_UNLIMITED	SIZE_MAX

/* What a list option selects by. */
enum tdps_sel {
	TDPS_SEL_PID,		/* -p, p, --pid, -q, bare numbers */
	TDPS_SEL_PPID,		/* --ppid */
	TDPS_SEL_SID,		/* -s, --sid, numeric -g */
	TDPS_SEL_TTY,		/* -t, t, --tty, T (tty_nr values) */
	TDPS_SEL_EUID,		/* -u, U, --user */
	TDPS_SEL_RUID,		/* -U, --User */
	TDPS_SEL_EGID,		/* -g names, --group */
	TDPS_SEL_RGID,		/* -G, --Group */
	TDPS_SEL__COUNT,
};

struct tdps_ids {
	uint32_t *v;
	size_t n, cap;
};

/* The "simple" selections: a table of who they take, as ps has. */
#define TDPS_SS_U_a	0x1	/* -a */
#define TDPS_SS_U_d	0x2	/* -d */
#define TDPS_SS_B_x	0x4	/* x */
#define TDPS_SS_B_a	0x8	/* a */

/* The preset formats (several may combine, as in -lf). */
#define TDPS_FF_Uf	0x01	/* -f */
#define TDPS_FF_Ul	0x02	/* -l */
#define TDPS_FF_Bj	0x04	/* j */
#define TDPS_FF_Bl	0x08	/* l */
#define TDPS_FF_Bs	0x10	/* s */
#define TDPS_FF_Bu	0x20	/* u */
#define TDPS_FF_Bv	0x40	/* v */

/* Modifiers of the presets. */
#define TDPS_FM_F	0x01	/* -F */
#define TDPS_FM_y	0x02	/* -y */
#define TDPS_FM_j	0x04	/* -j */
#define TDPS_FM_c	0x08	/* -c */
#define TDPS_FM_M	0x10	/* -M, Z: the label column */

/* Thread views. */
#define TDPS_TF_L	0x1	/* -L: LWP (and NLWP) columns */
#define TDPS_TF_T	0x2	/* -T: SPID column */
#define TDPS_TF_H	0x4	/* H: threads as if processes */

enum tdps_tree {
	TDPS_TREE_NONE,
	TDPS_TREE_ASCII,	/* --forest, f */
	TDPS_TREE_SPACES,	/* -H */
};

struct tdps_column {
	const struct psf_spec *sp;
	const char *header;
	size_t width;
};

struct tdps_sortkey {
	const struct psf_spec *sp;
	int dir;		/* 1 ascending, -1 descending */
};

struct tdps_opts {
	size_t pid_width;	/* digits of kernel.pid_max */
	bool all, negate, running_only, quick, bsd, bsd_c, no_header, own_tty;
	bool cumulative;	/* S, --cumulative */
	bool bsd_e;		/* e: the environment after the command */
	unsigned int simple, format_flags, format_mods, thread_flags;
	enum tdps_tree tree;
	int wide;		/* how many -w */
	size_t cols;		/* --cols, or 0 */
	struct tdps_ids sel[TDPS_SEL__COUNT];
	char **comms;		/* -C */
	size_t ncomms;
	struct tdps_column *col;
	size_t ncols;
	struct tdps_sortkey *sort;
	size_t nsort;
	char *text;		/* the -o, -O and --sort lists, which the columns point into */
	size_t text_len;
	enum taskdiag_backend backend;
	bool quiet_fallback;	/* --quiet-fallback: no notice of the fallback to /proc */
};

void tdps_parse_args(int argc, char **argv, struct tdps_opts *o);
void tdps_free_opts(struct tdps_opts *o);
void tdps_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
bool tdps_ids_has(const struct tdps_ids *l, uint32_t id);
void tdps_ids_add(struct tdps_ids *l, uint32_t id);

#endif /* TDPS_H */
