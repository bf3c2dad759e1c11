/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_diag_all: what its files share.
 *
 * task_diag_all.c: the options and main(); tda_errors.c: error reports and
 * exit codes; tda_value.c: one item's value as the table, CSV and JSON show
 * it; tda_out.c: the columns, the one print call and the dump;
 * tda_verify.c: --verify; the --interval mode is tda_interval.c; --format
 * openmetrics and --textfile are tda_openmetrics.c; --maps is tda_maps.c.
 * ps's format specifiers are psfields.c's, the ones tdps shows. The files
 * call down into tda_errors.c, never up into task_diag_all.c.
 */
#ifndef TDA_H
#define TDA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <taskdiag/taskdiag.h>

#include "psfields.h"
#include "tdtext.h"

#define PROG "task_diag_all"

/** enum tda_exit - the exit codes, fixed and documented */
enum tda_exit {
	TDA_EXIT_OK = 0,
	TDA_EXIT_ERROR = 1,	/* any other runtime error */
	TDA_EXIT_USAGE = 2,	/* bad option or argument */
	TDA_EXIT_NOMODULE = 3,	/* netlink needed, module not loaded */
	TDA_EXIT_PERM = 4,	/* permission denied */
	TDA_EXIT_NOPID = 5,	/* no such pid (-p, -t, -c) */
	TDA_EXIT_DIFF = 6,	/* --verify found differences */
};

enum out_mode {
	OUT_TABLE,
	OUT_JSON,
	OUT_CSV,
	OUT_QUIET,
	OUT_OPENMETRICS,	/* metrics: OpenMetrics 1.0 or Prometheus 0.0.4 text (tda_openmetrics.c) */
};

/* ------------------------------------------------------------------------
 * Values (tda_value.c)
 */

enum tv_kind {
	TV_NONE,	/* absent: "-" in the table, empty in CSV, left out of JSON */
	TV_U64,
	TV_S64,
	TV_STR,		/* text (s, len) */
	TV_ARGV,	/* NUL-separated arguments (s, len) */
	TV_U32S,	/* u32 words, host order, maybe unaligned (s, len bytes) */
	TV_PS,		/* a ps specifier's text, as psfields.c wrote it (s, len) */
};

enum tv_fmt {
	FMT_DEC,	/* table and CSV: decimal */
	FMT_HEX,	/* 0x, zero-padded to width digits */
	FMT_ADDR,	/* 0x, unpadded */
	FMT_OCT,	/* 0, 4 digits (umask) */
	FMT_BITMAP,	/* u32 words as a range list: 0-3,8 (JSON: that string) */
	FMT_LIST,	/* u32 words as decimal numbers: 4,5,6 (JSON: an array) */
	FMT_NUMBER,	/* TV_PS: a number ps shows (JSON: a number, "-" left out) */
};

/** struct tv - one typed value, as every output renders it */
struct tv {
	enum tv_kind kind;
	enum tv_fmt fmt;
	unsigned int width;
	uint64_t u;
	int64_t s;
	const char *p;
	size_t len;
	char buf[8];	/* room for a state letter */
};

/* One item's value, as taken out of a record (or a --verify snapshot). */
struct raw {
	bool present;
	uint64_t u;
	int64_t s;
	const void *p;
	size_t len;
};

void raw_get(const struct taskdiag_task *t, int item, struct raw *r);
void tv_of_raw(int item, const struct raw *r, struct tv *v);
void item_value(const struct taskdiag_task *t, int item, struct tv *v);
/* The item's "group.name" ("pid", "tgid", "cmdline" for the task's own). */
void item_qname(int item, char *buf, size_t len);
uint32_t word_at(const char *p, size_t i);
/* The text for a table cell (@table) or a CSV field; see tda_value.c. */
void tv_text(struct tdbuf *b, const struct tv *v, bool table);
/* The JSON value of a present value; false for one JSON leaves out. */
bool tv_json(struct tdbuf *b, const struct tv *v);

/* ------------------------------------------------------------------------
 * Columns and output (tda_out.c)
 */

/** struct column - one column of the table, field of CSV, member of JSON */
struct column {
	char key[64];		/* JSON key and CSV header */
	char header[64];	/* table header */
	const char *nest;	/* JSON object the member goes in, or NULL */
	int item;		/* an item column, or -1 */
	const struct psf_spec *ps;	/* a ps specifier column, or NULL */
	size_t width;		/* the narrowest it is in the table */
	bool right;
};

struct out {
	enum out_mode mode;
	bool crlf;		/* CSV lines end with CR LF, not LF */
	struct column *cols;
	size_t ncols;
	struct psf_ctx cx;	/* what ps specifiers need */
	size_t screen;		/* the table's last text column is cut to this, or SIZE_MAX */
	struct tdbuf line;	/* the JSON or CSV line being built */
	struct tdbuf text;	/* the current value's text */
	size_t col;		/* index of the next field in the row */
	bool first;		/* no member yet in the JSON object */
	const char *nest;	/* open nested JSON object */
	bool nest_first;
	bool header_done;	/* printed (or, for the table, kept) */
	size_t rows;
	struct tdbuf cells;	/* the table: NUL-terminated cells, row by row, header first */
	size_t *width;
	/* Where each record goes instead of a row, or NULL (the metrics set it). */
	void (*sink)(void *arg, const struct taskdiag_task *t);
	void *sink_arg;
};

/* The columns without -o: a table like ps's, or for -s, JSON and CSV every item. */
#define TDA_DEFAULT_FIELDS "pid,ppid,user,%cpu,rss,stat,time,args"

void columns_of_groups(struct out *o, uint32_t groups);
uint32_t columns_of_fields(struct out *o, const char *list);
void out_begin(struct out *o);
void out_free(struct out *o);
/* Dump @req (or each of @pids, one request each, when @npids > 1). */
int run_dump(struct out *o, struct taskdiag *td, const struct taskdiag_request *req,
	     const pid_t *pids, size_t npids, const char *replay);

/* ------------------------------------------------------------------------
 * --verify (tda_verify.c)
 */

struct verify {
	struct taskdiag *pf, *nl;
	struct out *o;
	uint32_t groups;
	pid_t self;
	uint64_t tick_ns;
	size_t tasks, diffs;
};

int run_verify(struct verify *vf, const struct taskdiag_request *req);

/* ------------------------------------------------------------------------
 * --format openmetrics, --aggregate, --textfile (tda_openmetrics.c)
 */

#define OM_AGG_USER	0x1u	/* --aggregate user */
#define OM_AGG_COMM	0x2u	/* --aggregate comm */

struct om_opts {
	bool om1;		/* -f openmetrics: OpenMetrics 1.0; -f prometheus, --textfile: 0.0.4 */
	unsigned int agg;	/* OM_AGG_* bits; 0: one series per process */
	bool agg_set;		/* --aggregate given (pid: agg 0) */
	const char *textfile;	/* --textfile DIR; NULL: standard output */
	double interval;	/* --interval SEC (with --textfile here); 0: once */
	long count;		/* --count N: that many files, then exit; 0: no limit */
};

/* The option's argument into @om (a usage error if bad). */
void om_parse_aggregate(struct om_opts *om, const char *arg);
void om_parse_interval(struct om_opts *om, const char *arg);
void om_parse_count(struct om_opts *om, const char *arg);
/*
 * After parsing: --aggregate, --textfile, --interval and --count only with
 * --format openmetrics (--textfile implies it); @other names an option
 * that does not go with it, or is NULL.
 */
void om_check_args(struct om_opts *om, enum out_mode *mode, const char *other);
/* The groups the metrics read. */
uint32_t om_groups(void);
/* Print the metrics of @req once, or keep the --textfile file up to date. */
int run_openmetrics(struct out *o, struct taskdiag *td, const struct taskdiag_request *req,
		    const pid_t *pids, size_t npids, const char *replay,
		    const struct om_opts *opts);

/* ------------------------------------------------------------------------
 * Errors (tda_errors.c)
 */

/* What the messages depend on, set by task_diag_all.c as it learns it. */
struct tda_errors {
	bool json;		/* errors also as JSON objects on stdout (-j) */
	bool replay;		/* the replies come from a recording (--replay) */
	const char *needs_module;	/* why netlink only (--verify, --dump-raw), or NULL */
};
extern struct tda_errors tda_errors;

/*
 * Report a library error: one line on stderr, with the kernel's message
 * when there is one (and a JSON object on stdout in JSON mode). Returns the
 * exit code it calls for.
 */
int report(int err, struct taskdiag *td, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Note a usage error, reported once parsing is done (the first one given). */
void usage_defer(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The first usage error noted, or NULL. */
const char *usage_deferred(void);

/* --interval without the metrics formats (tda_interval.c): pidstat's view. */
struct tda_interval {
	double interval;	/* seconds between samples */
	long count;		/* 0: no limit */
	bool threads;		/* -A: every thread (of -p's processes) */
	const pid_t *pids;	/* -p, ascending, no repeats; none: every process */
	size_t npids;
	enum out_mode mode;	/* OUT_TABLE, OUT_JSON or OUT_CSV */
	enum taskdiag_backend backend;
	bool quiet_fallback;
};

/* Sample every o->interval seconds, print each interval; the exit code. */
int tda_interval_main(const struct tda_interval *o);

/* --maps (tda_maps.c): pmap -x's view of the VMA dump. */
struct tda_maps {
	const pid_t *pids;	/* -p, ascending, no repeats; none: every process */
	size_t npids;
	uint32_t filter;	/* TASKDIAG_VMA_*: --file-backed, --exec, --build-id */
	const uint64_t *addrs;	/* --addr A,...: the query of pids[0]; none: the dump */
	size_t naddrs;
	enum taskdiag_backend backend;
	bool quiet_fallback;
};

int tda_maps_main(const struct tda_maps *m);
/* --maps --help */
void tda_maps_usage(FILE *f);

#endif /* TDA_H */
