// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all --interval SEC [--count N]: one record per task per
 * interval with the values derived from two samples (%cpu and rates), as
 * JSON lines, CSV or a table, like pidstat. Built on libtaskdiag's sampling
 * API; task_diag_all.c parses the options (its one table) and hands over
 * when --interval comes without the metrics formats.
 *
 *   task_diag_all --interval SEC [--count N] [-A] [-p PID[,PID...]]...
 *                 [-j | --csv | -f FMT] [--backend auto|netlink|procfs]
 *                 [--quiet-fallback]
 *
 * The table is pidstat's layout: per interval, three reports (CPU and
 * faults; storage and read()/write() bytes; context switches and calls),
 * each a header line that begins with the time of day and a line per task,
 * the command name last, so that every line but the name fits 80 columns.
 *
 * Exit status as task_diag_all's (enum tda_exit): 5 is a pid of -p that is
 * not there at the first sample.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <taskdiag/taskdiag.h>

#include "td_backend_opt.h"
#include "tda.h"
#include "tdtext.h"

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

/* A command name on the terminal: control characters as '?'. */
static void put_name(const char *s)
{
	for (; *s; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

/* Is the task one of -p's (by its process, with -A)? All are without -p. */
static bool listed(const struct tda_interval *o, const struct taskdiag_task *t)
{
	pid_t tgid = taskdiag_task_tgid(t);
	size_t i;

	for (i = 0; i < o->npids; i++)
		if (o->pids[i] == tgid)
			return true;
	return !o->npids;
}

/* The machine formats: every derived value under its library name. */
static void header(const struct tda_interval *o)
{
	int d;

	if (o->mode != OUT_CSV)
		return;
	fputs("time,pid,tgid,comm", stdout);
	for (d = 1; d < TASKDIAG_DERIVED__COUNT; d++)
		printf(",%s", taskdiag_derived_name(d));
	putchar('\n');
}

static void record(const struct tda_interval *o, const struct taskdiag_diff *diff, size_t i,
		   double t)
{
	const struct taskdiag_task *task = taskdiag_diff_task(diff, i);
	const char *comm = "";
	int d;

	taskdiag_task_get_string(task, TASKDIAG_ITEM_BASE_COMM, &comm);
	if (o->mode == OUT_JSON) {
		printf("{\"time\":%.3f,\"pid\":%d,\"tgid\":%d,\"comm\":", t,
		       (int)taskdiag_task_pid(task), (int)taskdiag_task_tgid(task));
		put_text(comm, false);
	} else {
		printf("%.3f,%d,%d,", t, (int)taskdiag_task_pid(task), (int)taskdiag_task_tgid(task));
		put_text(comm, true);
	}
	for (d = 1; d < TASKDIAG_DERIVED__COUNT; d++) {
		double v;
		bool ok = !taskdiag_diff_get(diff, i, d, &v);

		if (o->mode == OUT_JSON) {
			printf(",\"%s\":", taskdiag_derived_name(d));
			if (ok)
				printf("%.2f", v);
			else
				fputs("null", stdout);
		} else if (ok) {
			printf(",%.2f", v);
		} else {
			putchar(',');
		}
	}
	puts(o->mode == OUT_JSON ? "}" : "");
}

/*
 * The table: pidstat's reports, each column a derived value (bytes as
 * kB, 1024 bytes, as pidstat's kB_rd/s), its header, and its divisor.
 */
struct tcol {
	const char *head;
	enum taskdiag_derived d;
	double div;
};

static const struct tcol report_cpu[] = {
	{ "%CPU", TASKDIAG_DERIVED_CPU, 1 }, { "%MACH", TASKDIAG_DERIVED_CPU_MACHINE, 1 },
	{ "minflt/s", TASKDIAG_DERIVED_MINFLT_RATE, 1 },
	{ "majflt/s", TASKDIAG_DERIVED_MAJFLT_RATE, 1 },
}, report_io[] = {
	{ "kB_rd/s", TASKDIAG_DERIVED_READ_BYTES_RATE, 1024 },
	{ "kB_wr/s", TASKDIAG_DERIVED_WRITE_BYTES_RATE, 1024 },
	{ "kB_rch/s", TASKDIAG_DERIVED_RCHAR_RATE, 1024 },
	{ "kB_wch/s", TASKDIAG_DERIVED_WCHAR_RATE, 1024 },
}, report_csw[] = {
	{ "cswch/s", TASKDIAG_DERIVED_VOLUNTARY_CTXT_RATE, 1 },
	{ "nvcswch/s", TASKDIAG_DERIVED_NONVOLUNTARY_CTXT_RATE, 1 },
	{ "rdcall/s", TASKDIAG_DERIVED_SYSCR_RATE, 1 },
	{ "wrcall/s", TASKDIAG_DERIVED_SYSCW_RATE, 1 },
};

static const struct {
	const struct tcol *col;
	size_t n;
} reports[] = {
	{ report_cpu, sizeof(report_cpu) / sizeof(report_cpu[0]) },
	{ report_io, sizeof(report_io) / sizeof(report_io[0]) },
	{ report_csw, sizeof(report_csw) / sizeof(report_csw[0]) },
};

/*
 * A value column, its space included ("  12345.67"); pids take 7 digits
 * (pid_max is at most 4194304): with -A, 65 columns before the name, 80
 * with a name of 15 (the kernel's TASK_COMM_LEN).
 */
#define TCOL_W 10

/* One interval as the table: each report, a blank line before it. */
static void table(const struct tda_interval *o, const struct taskdiag_diff *diff, const char *when)
{
	size_t r, i, c;

	for (r = 0; r < sizeof(reports) / sizeof(reports[0]); r++) {
		printf("\n%-8s", when);
		if (o->threads)
			printf(" %7s %7s", "TGID", "TID");
		else
			printf(" %7s", "PID");
		for (c = 0; c < reports[r].n; c++)
			printf("%*s", TCOL_W, reports[r].col[c].head);
		fputs(" Command\n", stdout);
		for (i = 0; i < taskdiag_diff_count(diff); i++) {
			const struct taskdiag_task *t = taskdiag_diff_task(diff, i);
			const char *comm = "";

			if (!listed(o, t))
				continue;
			taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &comm);
			printf("%-8s", when);
			if (o->threads)
				printf(" %7d %7d", (int)taskdiag_task_tgid(t), (int)taskdiag_task_pid(t));
			else
				printf(" %7d", (int)taskdiag_task_pid(t));
			for (c = 0; c < reports[r].n; c++) {
				double v;

				if (taskdiag_diff_get(diff, i, reports[r].col[c].d, &v))
					printf("%*s", TCOL_W, "-");
				else
					printf("%*.2f", TCOL_W, v / reports[r].col[c].div);
			}
			putchar(' ');
			put_name(comm);
			putchar('\n');
		}
	}
}

/* Each pid of -p in the first sample, or exit status 5 as task_diag_all's. */
static int check_listed(const struct tda_interval *o, const struct taskdiag_sample *s)
{
	size_t n = taskdiag_sample_count(s), k, i;

	for (i = 0; i < o->npids; i++) {
		for (k = 0; k < n; k++)
			if (taskdiag_task_tgid(taskdiag_sample_task(s, k)) == o->pids[i])
				break;
		if (k == n) {
			fprintf(stderr, PROG ": pid %d: no such process\n", (int)o->pids[i]);
			return TDA_EXIT_NOPID;
		}
	}
	return 0;
}

/* The time of day now, as pidstat's first column (HH:MM:SS). */
static void time_of_day(char *buf, size_t n)
{
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm) || !strftime(buf, n, "%H:%M:%S", &tm))
		snprintf(buf, n, "?");
}

int tda_interval_main(const struct tda_interval *o)
{
	struct taskdiag_request req = { 0 };
	struct taskdiag_sample *s[2] = { NULL, NULL };
	struct taskdiag_diff *diff = NULL;
	struct taskdiag *td = NULL;
	struct timespec ts;
	char when[32];
	long n;
	int cur = 0, err, rc = 0;

	/*
	 * One pid: that process (or its threads); several: every process with
	 * the pid filter, or every thread (-A), kept by their process here.
	 */
	if (o->npids == 1) {
		req.scope = o->threads ? TASKDIAG_SCOPE_THREADS : TASKDIAG_SCOPE_TASK;
		req.pid = o->pids[0];
	} else {
		req.scope = o->threads ? TASKDIAG_SCOPE_ALL_THREADS : TASKDIAG_SCOPE_ALL_PROCESSES;
		if (!o->threads) {
			/* pids above 0: the same bits as the request's u32s */
			_Static_assert(sizeof(pid_t) == sizeof(uint32_t), "pid_t is 32 bits");
			req.pids = (const uint32_t *)o->pids;
			req.npids = (uint32_t)o->npids;
		}
	}
	req.groups = TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT | TASKDIAG_GROUP_IO |
		     TASKDIAG_GROUP_STATUS;
	err = taskdiag_open(&td, o->backend);
	if (!err) {
		td_backend_notice(PROG, td, o->backend, o->quiet_fallback);
		err = taskdiag_sample_new(&s[0]);
	}
	if (!err)
		err = taskdiag_sample_new(&s[1]);
	if (!err)
		err = taskdiag_diff_new(&diff);
	if (!err) {
		err = taskdiag_sample_take(td, &req, s[cur]);
		if (err == -ESRCH && o->npids == 1) {
			err = 0;
			rc = check_listed(o, s[cur]);
		}
		err = err < 0 ? err : 0;
	}
	if (!err && !rc)
		rc = check_listed(o, s[cur]);
	if (!err && !rc)
		header(o);
	for (n = 0; !err && !rc && (!o->count || n < o->count); n++) {
		size_t i;

		ts.tv_sec = (time_t)o->interval;
		ts.tv_nsec = (long)((o->interval - (double)ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		err = taskdiag_sample_take(td, &req, s[!cur]);
		if (err == -ESRCH && o->npids == 1)
			err = 0;	/* the process is gone: an interval without it */
		if (err < 0)
			break;
		time_of_day(when, sizeof(when));
		cur = !cur;
		err = taskdiag_diff_compute(diff, s[!cur], s[cur], 0);
		if (!err && o->mode == OUT_TABLE)
			table(o, diff, when);
		for (i = 0; !err && o->mode != OUT_TABLE && i < taskdiag_diff_count(diff); i++)
			if (listed(o, taskdiag_diff_task(diff, i)))
				record(o, diff, i, (double)taskdiag_sample_time(s[cur]) / 1e9);
		if (fflush(stdout))
			err = -errno;
	}
	taskdiag_diff_free(diff);
	taskdiag_sample_free(s[0]);
	taskdiag_sample_free(s[1]);
	if (err)
		rc = report(err, td, "--interval");
	taskdiag_close(td);
	return rc;
}
