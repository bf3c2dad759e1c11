// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all --interval SEC [--count N]: one record per task per
 * interval with the values derived from two samples (%cpu and rates), as
 * JSON lines, CSV or a table, like pidstat. Built on libtaskdiag's sampling
 * API; kept apart from task_diag_all.c, whose main() hands over to it when
 * --interval is on the command line.
 *
 *   task_diag_all --interval SEC [--count N] [-A] [-p PID] [-j | --csv]
 *                 [-b, --backend auto|netlink|procfs] [--quiet-fallback]
 *
 * Exit status as task_diag_all's: 0, 1 error, 2 bad usage, 3 module not loaded.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <taskdiag/taskdiag.h>

#include "task_diag_all_interval.h"
#include "td_backend_opt.h"
#include "tdtext.h"

enum fmt { FMT_TABLE, FMT_JSON, FMT_CSV };

struct iopts {
	double interval;
	long count;		/* 0: no limit */
	bool threads;
	pid_t pid;		/* 0: every task */
	enum fmt fmt;
	enum taskdiag_backend backend;
	bool quiet_fallback;
};

bool tda_interval_wanted(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--interval") || !strncmp(argv[i], "--interval=", 11))
			return true;
	return false;
}

static void __attribute__((noreturn)) bad_usage(const char *msg, const char *arg)
{
	fprintf(stderr, "task_diag_all: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	fputs("Usage: task_diag_all --interval SEC [--count N] [-A] [-p PID] [-j | --csv] "
	      "[-b, --backend auto|netlink|procfs] [--quiet-fallback]\n", stderr);
	exit(2);
}

static void parse(int argc, char **argv, struct iopts *o)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'I' },
		{ "count", required_argument, NULL, 'n' },
		{ "threads", no_argument, NULL, 'A' },
		{ "pid", required_argument, NULL, 'p' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'C' },
		{ "backend", required_argument, NULL, 'B' },
		{ "quiet-fallback", no_argument, NULL, 'Q' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "Ap:jb:", longopts, NULL)) != -1) {
		errno = 0;
		switch (c) {
		case 'I':
			o->interval = strtod(optarg, &end);
			if (!*optarg || *end || errno || !(o->interval > 0) || o->interval > 86400)
				bad_usage("--interval needs seconds above 0", optarg);
			break;
		case 'n':
			o->count = strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || o->count < 1)
				bad_usage("--count needs a number above 0", optarg);
			break;
		case 'A':
			o->threads = true;
			break;
		case 'p':
			o->pid = (pid_t)strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || o->pid < 1)
				bad_usage("bad pid", optarg);
			break;
		case 'j':
			o->fmt = FMT_JSON;
			break;
		case 'C':
			o->fmt = FMT_CSV;
			break;
		case 'b':
		case 'B':
			if (!td_backend_parse(optarg, &o->backend))
				bad_usage("unknown backend (auto, netlink or procfs)", optarg);
			break;
		case 'Q':
			o->quiet_fallback = true;
			break;
		default:
			bad_usage("an option --interval does not take", NULL);
		}
	}
	if (optind < argc)
		bad_usage("unexpected argument", argv[optind]);
}

/* A string as a JSON string or a CSV field, by the tools' one writer. */
static void put_text(const char *s, bool csv)
{
	static struct tdbuf b;

	tdbuf_clear(&b);
	if (csv)
		td_csv_field(&b, s, strlen(s));
	else
		td_json_str(&b, s, strlen(s));
	fwrite(b.p, 1, b.len, stdout);
}

static void header(const struct iopts *o)
{
	int d;

	if (o->fmt == FMT_JSON)
		return;
	printf(o->fmt == FMT_CSV ? "time,pid,tgid,comm" : "%10s %7s %7s %-15s", "time", "pid",
	       "tgid", "comm");
	for (d = 1; d < TASKDIAG_DERIVED__COUNT; d++)
		printf(o->fmt == FMT_CSV ? ",%s" : " %s", taskdiag_derived_name(d));
	putchar('\n');
}

static void record(const struct iopts *o, const struct taskdiag_diff *diff, size_t i, double t)
{
	const struct taskdiag_task *task = taskdiag_diff_task(diff, i);
	const char *comm = "";
	int d;

	taskdiag_task_get_string(task, TASKDIAG_ITEM_BASE_COMM, &comm);
	if (o->fmt == FMT_JSON) {
		printf("{\"time\":%.3f,\"pid\":%d,\"tgid\":%d,\"comm\":", t,
		       (int)taskdiag_task_pid(task), (int)taskdiag_task_tgid(task));
		put_text(comm, false);
	} else if (o->fmt == FMT_CSV) {
		printf("%.3f,%d,%d,", t, (int)taskdiag_task_pid(task), (int)taskdiag_task_tgid(task));
		put_text(comm, true);
	} else {
		printf("%10.3f %7d %7d %-15s", t, (int)taskdiag_task_pid(task),
		       (int)taskdiag_task_tgid(task), comm);
	}
	for (d = 1; d < TASKDIAG_DERIVED__COUNT; d++) {
		const char *name = taskdiag_derived_name(d);
		int w = (int)strlen(name);
		double v;
		bool ok = !taskdiag_diff_get(diff, i, d, &v);

		if (o->fmt == FMT_JSON) {
			printf(",\"%s\":", name);
			if (ok)
				printf("%.2f", v);
			else
				fputs("null", stdout);
		} else if (o->fmt == FMT_CSV) {
			if (ok)
				printf(",%.2f", v);
			else
				putchar(',');
		} else if (ok) {
			printf(" %*.2f", w, v);
		} else {
			printf(" %*s", w, "-");
		}
	}
	puts(o->fmt == FMT_JSON ? "}" : "");
}

static int fail(int err)
{
	fprintf(stderr, "task_diag_all: %s%s\n", taskdiag_strerror(err),
		err == -TASKDIAG_ENOMODULE ? " (" TD_MODULE_HINT ", or use -b procfs)" : "");
	return err == -TASKDIAG_ENOMODULE ? 3 : 1;
}

int tda_interval_main(int argc, char **argv)
{
	struct iopts o = { .count = 0 };
	struct taskdiag_request req = { 0 };
	struct taskdiag_sample *s[2] = { NULL, NULL };
	struct taskdiag_diff *diff = NULL;
	struct taskdiag *td = NULL;
	struct timespec ts;
	long n;
	int cur = 0, err;

	parse(argc, argv, &o);
	req.scope = o.pid ? (o.threads ? TASKDIAG_SCOPE_THREADS : TASKDIAG_SCOPE_TASK)
			  : (o.threads ? TASKDIAG_SCOPE_ALL_THREADS : TASKDIAG_SCOPE_ALL_PROCESSES);
	req.pid = o.pid;
	req.groups = TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT | TASKDIAG_GROUP_IO |
		     TASKDIAG_GROUP_STATUS;
	err = taskdiag_open(&td, o.backend);
	if (!err) {
		td_backend_notice("task_diag_all", td, o.backend, o.quiet_fallback);
		err = taskdiag_sample_new(&s[0]);
	}
	if (!err)
		err = taskdiag_sample_new(&s[1]);
	if (!err)
		err = taskdiag_diff_new(&diff);
	if (!err) {
		err = taskdiag_sample_take(td, &req, s[cur]);
		err = err < 0 ? err : 0;
	}
	header(&o);
	for (n = 0; !err && (!o.count || n < o.count); n++) {
		size_t i;

		ts.tv_sec = (time_t)o.interval;
		ts.tv_nsec = (long)((o.interval - (double)ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		err = taskdiag_sample_take(td, &req, s[!cur]);
		if (err < 0)
			break;
		cur = !cur;
		err = taskdiag_diff_compute(diff, s[!cur], s[cur], 0);
		for (i = 0; !err && i < taskdiag_diff_count(diff); i++)
			record(&o, diff, i, (double)taskdiag_sample_time(s[cur]) / 1e9);
		if (fflush(stdout))
			err = -errno;
	}
	taskdiag_diff_free(diff);
	taskdiag_sample_free(s[0]);
	taskdiag_sample_free(s[1]);
	taskdiag_close(td);
	return err ? fail(err) : 0;
}
