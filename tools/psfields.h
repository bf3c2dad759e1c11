/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ps's format specifiers: one table (psfields.c) and one set of formatters,
 * which tdps and task_diag_all -o both use, so that the two tools cannot
 * disagree about a value.
 */
#ifndef PSFIELDS_H
#define PSFIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <taskdiag/taskdiag.h>

#include "tdtext.h"

/* Facts of the system the formatters need, read once per run. */
struct psf_ctx {
	bool threads;		/* -L: one row per thread */
	bool bsd_c;		/* c: args shows the command name */
	bool utf8;		/* the locale's character set is UTF-8 */
	bool raw;		/* text as it is, for JSON and CSV (not escaped as ps does) */
	bool cumulative;	/* S, --cumulative: dead children's CPU time and faults too */
	bool bsd_e;		/* e: the environment after the command */
	uint64_t hz;		/* clock ticks per second */
	uint64_t page_size;
	uint64_t mem_total_kib;	/* MemTotal of /proc/meminfo */
	uint64_t uptime_cs;	/* time since boot, in 1/100 s */
	time_t boot_time;	/* btime of /proc/stat */
	time_t now;
};

/* How a value longer than its column is shown. */
enum psf_fit {
	PSF_SPILL,	/* in full, pushing what follows to the right */
	PSF_CUT,	/* cut at the column's width */
	PSF_PLUS,	/* cut one short of the width, and a '+' */
};

/* What a formatter gets: the task, the facts, and the row's item. */
struct psf_arg {
	const struct taskdiag_task *t;
	const struct psf_ctx *cx;
	int item;
};

typedef void psf_fmt_fn(struct tdbuf *b, const struct psf_arg *a);

/**
 * struct psf_spec - one format specifier
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
struct psf_spec {
	const char *name;
	const char *header;
	uint8_t width;
	bool right;
	uint8_t fit;
	bool wide;
	uint8_t min;
	bool pid;
	uint32_t groups;
	psf_fmt_fn *fmt;
	int item;
	uint8_t flags;
};

/* psf_spec.flags */
#define PSF_F_TREE	0x01	/* a command column: --forest and -H indent it */
#define PSF_F_TEXTKEY	0x02	/* --sort compares the text, not a number */
/*
 * status is read only for VmLck, which statm's locked also holds where the
 * module sends it (version 1 of the struct): a reader that knows it does can
 * ask for statm instead
 */
#define PSF_F_VMLCK	0x04

/* VmLck of @t: statm's locked where sent, else status's. */
uint64_t psf_vm_lck(const struct taskdiag_task *t);

/* The number --sort compares for a specifier without PSF_F_TEXTKEY. */
int64_t psf_spec_key(const struct psf_spec *sp, const struct psf_arg *a);

const struct psf_spec *psf_spec_find(const char *name);
/* The table's row @i, NULL past its end. */
const struct psf_spec *psf_spec_at(size_t i);
/* Does the specifier show a decimal number (or '-')? JSON shows it as one. */
bool psf_spec_is_number(const struct psf_spec *sp);
/* The facts of this system, read once. */
void psf_ctx_read(struct psf_ctx *cx, bool threads, bool bsd_c);
/* The number after @key in the file at @path (0 when none). */
uint64_t psf_file_value(const char *path, const char *key);
void psf_spec_list(FILE *f);
void psf_cleanup(void);
size_t psf_text_width(const char *s, size_t n, bool utf8);
size_t psf_text_cut(const char *s, size_t n, size_t cols, bool utf8);

#endif /* PSFIELDS_H */
