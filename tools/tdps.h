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
};

const struct tdps_spec *tdps_spec_find(const char *name);
void tdps_spec_list(FILE *f);
void tdps_fmt_cleanup(void);
size_t tdps_text_width(const char *s, size_t n, bool utf8);
size_t tdps_text_cut(const char *s, size_t n, size_t cols, bool utf8);

#endif /* TDPS_H */
