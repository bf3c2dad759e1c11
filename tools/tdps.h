/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tdps: what tdps.c (options, selection, layout) and tdps_fmt.c (the table
 * of format specifiers and their formatters) share.
 */
#ifndef TDPS_H
#define TDPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <taskdiag/taskdiag.h>

/* A growable text buffer, always NUL-terminated once used. */
struct tdps_buf {
	char *p;
	size_t len, cap;
};

void tdps_clear(struct tdps_buf *b);
void tdps_add(struct tdps_buf *b, const void *s, size_t n);
void tdps_addc(struct tdps_buf *b, char c);
void tdps_addf(struct tdps_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tdps_nomem(void) __attribute__((noreturn));

/* Facts of the system the formatters need, read once per run. */
struct tdps_ctx {
	bool threads;		/* -L: one row per thread */
	bool bsd_c;		/* c: args shows the command name */
	bool utf8;		/* the locale's character set is UTF-8 */
	uint64_t hz;		/* clock ticks per second */
	uint64_t page_size;
	uint64_t mem_total_kib;	/* MemTotal of /proc/meminfo */
	uint64_t uptime_cs;	/* time since boot, in 1/100 s */
	time_t boot_time;	/* btime of /proc/stat */
	time_t now;
};

/* How a value longer than its column is shown. */
enum tdps_fit {
	TDPS_SPILL,	/* in full, pushing what follows to the right */
	TDPS_CUT,	/* cut at the column's width */
	TDPS_PLUS,	/* cut one short of the width, and a '+' */
};

/* What a formatter gets: the task, the facts, and the row's item. */
struct tdps_arg {
	const struct taskdiag_task *t;
	const struct tdps_ctx *cx;
	int item;
};

typedef void tdps_fmt_fn(struct tdps_buf *b, const struct tdps_arg *a);

/**
 * struct tdps_spec - one format specifier
 * @name: as given to -o
 * @header: the default header
 * @width: the default width of the column
 * @right: right-aligned (numbers) rather than left-aligned (text)
 * @fit: what happens to a value wider than the column
 * @wide: as the last column, as wide as the screen allows (args, comm,
 *	user names) whatever its width; @min is then the narrowest it gets
 * @groups: the libtaskdiag groups the formatter reads
 * @fmt: appends the value of a task
 * @item: what @fmt shows, for formatters that serve several specifiers
 */
struct tdps_spec {
	const char *name;
	const char *header;
	uint8_t width;
	bool right;
	uint8_t fit;
	bool wide;
	uint8_t min;
	bool pid;
	uint32_t groups;
	tdps_fmt_fn *fmt;
	int item;
	uint8_t flags;
};

/* tdps_spec.flags */
#define TDPS_F_TREE	0x01	/* a command column: --forest and -H indent it */
#define TDPS_F_TEXTKEY	0x02	/* --sort compares the text, not a number */

/* The number --sort compares for a specifier without TDPS_F_TEXTKEY. */
int64_t tdps_spec_key(const struct tdps_spec *sp, const struct tdps_arg *a);

const struct tdps_spec *tdps_spec_find(const char *name);
void tdps_spec_list(FILE *f);
void tdps_fmt_cleanup(void);
size_t tdps_text_width(const char *s, size_t n, bool utf8);
size_t tdps_text_cut(const char *s, size_t n, size_t cols, bool utf8);


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
	const struct tdps_spec *sp;
	const char *header;
	size_t width;
};

struct tdps_sortkey {
	const struct tdps_spec *sp;
	int dir;		/* 1 ascending, -1 descending */
};

struct tdps_opts {
	size_t pid_width;	/* digits of kernel.pid_max */
	bool all, negate, running_only, quick, bsd, bsd_c, no_header, own_tty;
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
};

void tdps_parse_args(int argc, char **argv, struct tdps_opts *o);
void tdps_free_opts(struct tdps_opts *o);
void tdps_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
bool tdps_ids_has(const struct tdps_ids *l, uint32_t id);
void tdps_ids_add(struct tdps_ids *l, uint32_t id);
uint64_t tdps_file_value(const char *path, const char *key);

#endif /* TDPS_H */
