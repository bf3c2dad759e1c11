// SPDX-License-Identifier: GPL-2.0
/*
 * tdtop: a top on libtaskdiag (the task_diag kernel module, or /proc
 * without it). Batch mode prints procps top's summary and default task
 * table in top's units and layout; without -b the screen is interactive
 * (tdtop_tui.c).
 *
 * Each refresh takes one sample (libtaskdiag's sampling API) into the older
 * of two reused samples, diffs it with the other for %CPU, and reads the
 * machine-wide figures with taskdiag_system_read(): tdtop opens nothing in
 * /proc itself but kernel.pid_max once.
 *
 * Exit status: 0, 1 for an error of libtaskdiag or, without -b, no terminal
 * on standard input (as top: "failed tty get"), 2 for bad usage, 3 when the
 * netlink backend was asked for and the module is not loaded.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <utmp.h>

#include "td_backend_opt.h"
#include "tdtext.h"
#include "tdtop.h"
#include "tdtop_cell.h"

#ifndef TDTOP_VERSION
#define TDTOP_VERSION "unknown"
#endif

#define EXIT_USAGE	2
#define EXIT_NOMODULE	3

static const char *const col_names[TDTOP_COL__COUNT] = {
	"PID", "USER", "PR", "NI", "VIRT", "RES", "SHR", "S", "%CPU", "%MEM", "TIME+", "COMMAND",
};
/* widths as top's (PID: set from kernel.pid_max), right-aligned but USER and COMMAND */
static const int col_width[TDTOP_COL__COUNT] = { 5, 8, 3, 3, 7, 6, 6, 1, 5, 5, 9, 0 };

const char *tdtop_col_name(enum tdtop_col c)
{
	return c < TDTOP_COL__COUNT ? col_names[c] : "?";
}

/* ------------------------------------------------------------------------
 * User names (td_id_label() in tdtext.c caches them for the rows).
 */
int tdtop_user_lookup(const char *name, uid_t *uid)
{
	struct passwd *pw = getpwnam(name);
	char *end;
	unsigned long v;

	if (pw) {
		*uid = pw->pw_uid;
		return 0;
	}
	errno = 0;
	v = strtoul(name, &end, 10);
	if (!*name || *end || errno || v > UINT32_MAX - 1)
		return -1;
	*uid = (uid_t)v;
	return 0;
}

/* ------------------------------------------------------------------------
 * Sampling
 */
static uint64_t get_u64(const struct taskdiag_task *t, enum taskdiag_item item)
{
	uint64_t v = 0;

	taskdiag_task_get_u64(t, item, &v);
	return v;
}

static int64_t get_s64(const struct taskdiag_task *t, enum taskdiag_item item)
{
	int64_t v = 0;

	taskdiag_task_get_s64(t, item, &v);
	return v;
}

static bool selected(const struct tdtop *tt, const struct tdtop_row *r, bool busy)
{
	size_t k;

	if (tt->has_user && r->euid != tt->user &&
	    (!tt->any_user || (get_u64(r->t, TASKDIAG_ITEM_CRED_UID) != tt->user &&
			       get_u64(r->t, TASKDIAG_ITEM_CRED_SUID) != tt->user &&
			       get_u64(r->t, TASKDIAG_ITEM_CRED_FSUID) != tt->user)))
		return false;
	if (tt->hide_idle && !busy)
		return false;
	if (!tt->npids)
		return true;
	for (k = 0; k < tt->npids; k++)
		if (tt->pids[k] == (tt->threads ? (pid_t)taskdiag_task_tgid(r->t) : r->pid))
			return true;
	return false;
}

static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct tdtop *tt = arg;
	const struct tdtop_row *a = pa, *b = pb;
	const char *sa, *sb;
	int c = 0;

#define CMP(x, y) ((x) < (y) ? -1 : (x) > (y))
	switch (tt->sort) {
	case TDTOP_COL_PID:
		c = CMP(a->pid, b->pid);
		break;
	case TDTOP_COL_USER:
		c = strcmp(a->user, b->user);
		break;
	case TDTOP_COL_PR:
		c = CMP(a->pr, b->pr);
		break;
	case TDTOP_COL_NI:
		c = CMP(a->ni, b->ni);
		break;
	case TDTOP_COL_VIRT:
		c = CMP(a->virt, b->virt);
		break;
	case TDTOP_COL_RES:
	case TDTOP_COL_MEM:
		c = CMP(a->res, b->res);
		break;
	case TDTOP_COL_SHR:
		c = CMP(a->shr, b->shr);
		break;
	case TDTOP_COL_S:
		c = CMP(a->state, b->state);
		break;
	case TDTOP_COL_CPU:
		c = CMP(a->cpu, b->cpu);
		break;
	case TDTOP_COL_TIME:
		c = CMP(a->cs, b->cs);
		break;
	default:
		sa = "";
		sb = "";
		taskdiag_task_get_string(a->t, TASKDIAG_ITEM_BASE_COMM, &sa);
		taskdiag_task_get_string(b->t, TASKDIAG_ITEM_BASE_COMM, &sb);
		c = strcmp(sa, sb);
	}
	/* top: numbers (and PID) from the highest down unless reversed; names A-Z */
	if (tt->sort != TDTOP_COL_USER && tt->sort != TDTOP_COL_COMMAND)
		c = -c;
	if (tt->reverse)
		c = -c;
	return c ? c : CMP(a->pid, b->pid);
#undef CMP
}

int tdtop_refresh(struct tdtop *tt)
{
	struct taskdiag_request req = {
		.scope = tt->threads ? TASKDIAG_SCOPE_ALL_THREADS : TASKDIAG_SCOPE_ALL_PROCESSES,
		.groups = TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT | TASKDIAG_GROUP_STATM |
			  TASKDIAG_GROUP_CRED | (tt->cmdline ? TASKDIAG_GROUP_CMDLINE : 0),
	};
	struct taskdiag_sample *next = tt->s[!tt->cur];
	uint64_t memtotal_kib;
	size_t i, n;
	int ret;

	ret = taskdiag_system_read(&tt->sys[!tt->cur], sizeof(tt->sys[0]));
	if (ret)
		return ret;
	ret = taskdiag_sample_take(tt->td, &req, next);
	if (ret < 0)
		return ret;
	tt->cur = !tt->cur;
	ret = taskdiag_diff_compute(tt->diff, tt->s[!tt->cur], tt->s[tt->cur], tt->ncpu);
	if (ret)
		return ret;
	n = taskdiag_diff_count(tt->diff);
	if (n > tt->rcap) {
		struct tdtop_row *r = realloc(tt->rows, n * sizeof(*r));

		if (!r)
			return -ENOMEM;
		tt->rows = r;
		tt->rcap = n;
	}
	memtotal_kib = tt->sys[tt->cur].mem_total / 1024;
	tt->ntasks = tt->nrunning = tt->nstopped = tt->nzombie = 0;
	tt->nrows = 0;
	for (i = 0; i < n; i++) {
		const struct taskdiag_task *t = taskdiag_diff_task(tt->diff, i);
		struct tdtop_row *r = &tt->rows[tt->nrows];
		double cpu = 0;

		/* only its pid (hidepid=noaccess): top cannot read it either */
		if (!taskdiag_task_has(t, TASKDIAG_ITEM_BASE_COMM))
			continue;
		r->t = t;
		r->pid = taskdiag_task_pid(t);
		r->euid = (uid_t)get_u64(t, TASKDIAG_ITEM_CRED_EUID);
		r->pr = get_s64(t, TASKDIAG_ITEM_STAT_PRIORITY);
		r->ni = get_s64(t, TASKDIAG_ITEM_STAT_NICE);
		r->virt = get_u64(t, TASKDIAG_ITEM_STATM_SIZE) / 1024;
		r->res = get_u64(t, TASKDIAG_ITEM_STATM_RESIDENT) / 1024;
		r->shr = get_u64(t, TASKDIAG_ITEM_STATM_SHARED) / 1024;
		r->state = (char)get_u64(t, TASKDIAG_ITEM_BASE_STATE);
		/* as /proc shows them: each of utime and stime in whole ticks */
		r->cs = (get_u64(t, TASKDIAG_ITEM_STAT_UTIME) / 10000000u +
			 get_u64(t, TASKDIAG_ITEM_STAT_STIME) / 10000000u);
		taskdiag_diff_get(tt->diff, i, TASKDIAG_DERIVED_CPU, &cpu);
		if (cpu > 100.0 * tt->ncpu)
			cpu = 100.0 * tt->ncpu;
		r->cpu = cpu;
		r->mem = memtotal_kib ? (double)r->res * 100.0 / (double)memtotal_kib : 0;
		tt->ntasks++;
		switch (r->state) {
		case 'R':
			tt->nrunning++;
			break;
		case 'T':
		case 't':
			tt->nstopped++;
			break;
		case 'Z':
			tt->nzombie++;
			break;
		}
		if (!selected(tt, r, cpu > 0 || r->state == 'R'))
			continue;
		r->user = td_id_label((uint32_t)r->euid, false);
		tt->nrows++;
	}
	qsort_r(tt->rows, tt->nrows, sizeof(*tt->rows), row_cmp, tt);
	return 0;
}

/* ------------------------------------------------------------------------
 * Layout, as top's
 */
static unsigned int count_users(void)
{
	struct utmp *u;
	unsigned int n = 0;

	setutent();
	while ((u = getutent()))
		if (u->ut_type == USER_PROCESS && u->ut_user[0])
			n++;
	endutent();
	return n;
}

static double pct(uint64_t part, uint64_t total)
{
	return total ? (double)part * 100.0 / (double)total : 0;
}

void tdtop_summary(const struct tdtop *tt, char lines[5][512])
{
	const struct taskdiag_system *s = &tt->sys[tt->cur], *o = &tt->sys[!tt->cur];
	const struct taskdiag_cpu_times *a = &s->cpu, *b = &o->cpu;
	uint64_t up = s->uptime / 1000000000u, days = up / 86400, hours = up / 3600 % 24;
	uint64_t mins = up / 60 % 60;
	uint64_t us, ni, sy, id, wa, hi, si, st, tot;
	unsigned int users = count_users();
	const double mib = 1024.0 * 1024.0;
	uint64_t avail = s->mem_available;
	time_t now = time(NULL);
	struct tm tm;
	int n;

	localtime_r(&now, &tm);
	n = snprintf(lines[0], 512, "top - %02d:%02d:%02d up ", tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (days)
		n += snprintf(lines[0] + n, 512 - (size_t)n, "%llu %s, ", (unsigned long long)days,
			      days > 1 ? "days" : "day");
	if (hours)
		n += snprintf(lines[0] + n, 512 - (size_t)n, "%2llu:%02llu, ",
			      (unsigned long long)hours, (unsigned long long)mins);
	else
		n += snprintf(lines[0] + n, 512 - (size_t)n, "%llu min, ", (unsigned long long)mins);
	snprintf(lines[0] + n, 512 - (size_t)n, "%2u %s,  load average: %.2f, %.2f, %.2f", users,
		 users > 1 ? "users" : "user", s->loadavg[0], s->loadavg[1], s->loadavg[2]);

	snprintf(lines[1], 512, "%s:%4u total,%4u running,%4u sleeping,%4u stopped,%4u zombie",
		 tt->threads ? "Threads" : "Tasks", tt->ntasks, tt->nrunning,
		 tt->ntasks - tt->nrunning - tt->nstopped - tt->nzombie, tt->nstopped, tt->nzombie);

#define D(f) (a->f > b->f ? a->f - b->f : 0)
	us = D(user);
	ni = D(nice);
	sy = D(system);
	id = D(idle);
	wa = D(iowait);
	hi = D(irq);
	si = D(softirq);
	st = D(steal);
#undef D
	tot = us + ni + sy + id + wa + hi + si + st;
	if (!tot) {
		tot = 1;
		id = 1;	/* no time passed: all idle, as top shows it */
	}
	snprintf(lines[2], 512,
		 "%%Cpu(s):%5.1f us,%5.1f sy,%5.1f ni,%5.1f id,%5.1f wa,%5.1f hi,%5.1f si,%5.1f st ",
		 pct(us, tot), pct(sy, tot), pct(ni, tot), pct(id, tot), pct(wa, tot), pct(hi, tot),
		 pct(si, tot), pct(st, tot));
	if (avail > s->mem_total)
		avail = s->mem_total;
	snprintf(lines[3], 512,
		 "MiB Mem :%9.1f total,%9.1f free,%9.1f used,%9.1f buff/cache     ",
		 s->mem_total / mib, s->mem_free / mib, (s->mem_total - avail) / mib,
		 (s->buffers + s->cached + s->sreclaimable) / mib);
	snprintf(lines[4], 512, "MiB Swap:%9.1f total,%9.1f free,%9.1f used.%9.1f avail Mem ",
		 s->swap_total / mib, s->swap_free / mib,
		 (s->swap_total > s->swap_free ? s->swap_total - s->swap_free : 0) / mib,
		 s->mem_available / mib);
}

static int width_of(const struct tdtop *tt, enum tdtop_col c)
{
	return c == TDTOP_COL_PID ? tt->pid_width : col_width[c];
}

/* Append @text to @buf (used @n of @size) in @width, right- or left-aligned. */
static size_t put_cell(char *buf, size_t n, size_t size, const char *text, int width, bool left)
{
	return tdc_put(buf, n, size, text, strlen(text), width, left);
}

void tdtop_header(const struct tdtop *tt, char *buf, size_t size, int width)
{
	size_t n = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < TDTOP_COL__COUNT; c++)
		n = put_cell(buf, n, size, col_names[c],
			     c == TDTOP_COL_COMMAND ? 0 : width_of(tt, (enum tdtop_col)c),
			     c == TDTOP_COL_USER || c == TDTOP_COL_COMMAND);
	if (width > 0 && (size_t)width < size && n > (size_t)width)
		buf[width] = '\0';
}

/* A string cut to @width with top's '+' at the end when it does not fit; its length. */
static size_t fit(char *out, size_t size, const char *s, int width)
{
	size_t len = strlen(s);

	if (len >= size)
		len = size - 1;
	memcpy(out, s, len);
	if (width > 0 && (size_t)width < size && len > (size_t)width) {
		out[width - 1] = '+';
		len = (size_t)width;
	}
	out[len] = '\0';
	return len;
}

static void command_of(const struct tdtop *tt, const struct tdtop_row *r, char *out, size_t size)
{
	const char *comm = "";
	const void *args;
	size_t len = 0, k;

	taskdiag_task_get_string(r->t, TASKDIAG_ITEM_BASE_COMM, &comm);
	if (!tt->cmdline || taskdiag_task_get_bytes(r->t, TASKDIAG_ITEM_CMDLINE, &args, &len) ||
	    !len) {
		if (tt->cmdline) {
			snprintf(out, size, "[%s]", comm);
		} else {
			len = strnlen(comm, size - 1);
			memcpy(out, comm, len);
			out[len] = '\0';
		}
		return;
	}
	if (len >= size)
		len = size - 1;
	memcpy(out, args, len);
	while (len && !out[len - 1])	/* the last NUL(s) */
		len--;
	for (k = 0; k < len; k++)
		if (out[k] == '\0' || out[k] == '\n' || out[k] == '\t')
			out[k] = ' ';
	out[len] = '\0';
}

void tdtop_row_text(const struct tdtop *tt, const struct tdtop_row *r, char *buf, size_t size,
		    int width)
{
	char cell[4096];
	size_t n = 0, len;
	int c;

	buf[0] = '\0';
	for (c = 0; c < TDTOP_COL__COUNT; c++) {
		int w = width_of(tt, (enum tdtop_col)c);

		switch (c) {
		case TDTOP_COL_PID:
			len = tdc_s64(cell, r->pid);
			break;
		case TDTOP_COL_USER:
			len = fit(cell, sizeof(cell), r->user, w);
			break;
		case TDTOP_COL_PR:
			if (r->pr < -99) {
				memcpy(cell, "rt", 3);
				len = 2;
			} else {
				len = tdc_s64(cell, r->pr);
			}
			break;
		case TDTOP_COL_NI:
			len = tdc_s64(cell, r->ni);
			break;
		case TDTOP_COL_VIRT:
			len = tdc_mem(cell, sizeof(cell), r->virt, w);
			break;
		case TDTOP_COL_RES:
			len = tdc_mem(cell, sizeof(cell), r->res, w);
			break;
		case TDTOP_COL_SHR:
			len = tdc_mem(cell, sizeof(cell), r->shr, w);
			break;
		case TDTOP_COL_S:
			cell[0] = r->state ? r->state : '?';
			cell[1] = '\0';
			len = 1;
			break;
		case TDTOP_COL_CPU:
			len = tdc_pcnt(cell, sizeof(cell), r->cpu, w);
			break;
		case TDTOP_COL_MEM:
			len = tdc_pcnt(cell, sizeof(cell), r->mem, w);
			break;
		case TDTOP_COL_TIME:
			len = tdc_time(cell, sizeof(cell), r->cs, w);
			break;
		default: {
			char cmd[4096];
			int left = width - (int)n - 1;

			command_of(tt, r, cmd, sizeof(cmd));
			len = fit(cell, sizeof(cell), cmd, left > 0 ? left : 1);
			w = 0;
		}
		}
		n = tdc_put(buf, n, size, cell, len, w, c == TDTOP_COL_USER || c == TDTOP_COL_COMMAND);
	}
	if (width > 0 && (size_t)width < size && n > (size_t)width)
		buf[width] = '\0';
}

void tdtop_sleep(double seconds)
{
	struct timespec ts;

	if (seconds <= 0)
		return;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------------------
 * Batch mode and options
 */
static int batch(struct tdtop *tt)
{
	char lines[5][512], line[8192];
	long frame;
	size_t i;
	int k, err;

	for (frame = 0; !tt->iterations || frame < tt->iterations; frame++) {
		if (frame) {
			tdtop_sleep(tt->delay);
			fputc('\n', stdout);
		}
		err = tdtop_refresh(tt);
		if (err)
			return err;
		tdtop_summary(tt, lines);
		for (k = 0; k < 5; k++)
			puts(lines[k]);
		fputc('\n', stdout);
		/* top leaves the last column of its width empty in batch mode */
		tdtop_header(tt, line, sizeof(line), tt->width - 1);
		puts(line);
		for (i = 0; i < tt->nrows; i++) {
			tdtop_row_text(tt, &tt->rows[i], line, sizeof(line), tt->width - 1);
			puts(line);
		}
		if (fflush(stdout))
			return -errno;
	}
	return 0;
}

static void usage(FILE *f)
{
	fputs("Usage: tdtop [options]\n"
	      "A top on libtaskdiag: the task_diag module, or /proc without it.\n\n"
	      "  -b                batch mode: print frames, no screen\n"
	      "  -n N              stop after N frames\n"
	      "  -d SECS           delay between frames (default 3.0)\n"
	      "  -u USER           only tasks of this effective user (name or uid)\n"
	      "  -U USER           only tasks with this real, effective, saved or\n"
	      "                    file-system user\n"
	      "  -p PID[,PID...]   only these processes\n"
	      "  -H                threads instead of processes\n"
	      "  -i                hide idle tasks (no CPU used, not running)\n"
	      "  -c                command lines instead of names\n"
	      "  -o FIELD          sort by FIELD (PID, USER, PR, NI, VIRT, RES, SHR, S,\n"
	      "                    %CPU, %MEM, TIME+, COMMAND); a leading + or - sets the\n"
	      "                    direction (+: high to low)\n"
	      "  -w [N]            batch width (default 80; no N: $COLUMNS)\n"
	      "      --backend B   auto (default), netlink or procfs\n"
	      "  -q, --quiet       no notice when auto reads /proc for want of the module\n"
	      "                    (also --quiet-fallback)\n"
	      "  -h, --help        this text;  -V, --version\n\n"
	      "Keys: P M T N sort by %CPU, %MEM, TIME+, PID;  < > move the sort column;\n"
	      "R reverse;  u user;  H threads;  i idle;  c command line;  k kill;\n"
	      "r renice;  d delay;  q quit.\n"
	      "Without -b, standard input must be a terminal (as top's screen).\n"
	      "Exit status: 0 ok, 1 error or no terminal, 2 bad usage, 3 module not loaded\n"
	      "(--backend netlink).\n",
	      f);
}

static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("tdtop: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'tdtop --help'.\n", stderr);
	exit(EXIT_USAGE);
}

static long parse_long(const char *s, const char *what, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max)
		usage_error("bad %s \"%s\"", what, s);
	return v;
}

static void parse_pids(struct tdtop *tt, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		exit(1);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		pid_t *p = realloc(tt->pids, (tt->npids + 1) * sizeof(*p));

		if (!p)
			exit(1);
		tt->pids = p;
		tt->pids[tt->npids++] = (pid_t)parse_long(tok, "pid", 1, INT32_MAX);
	}
	free(copy);
	if (!tt->npids)
		usage_error("-p needs a pid");
}

static int parse_col(const char *name)
{
	int c;

	for (c = 0; c < TDTOP_COL__COUNT; c++)
		if (!strcasecmp(name, col_names[c]))
			return c;
	return -1;
}

static int pid_digits(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	unsigned long max = 32768;
	int d = 0;

	if (f) {
		if (fscanf(f, "%lu", &max) != 1)
			max = 32768;
		fclose(f);
	}
	for (max = max > 0 ? max - 1 : 0; max; max /= 10)
		d++;
	return d > 5 ? d : 5;
}

static void parse_options(struct tdtop *tt, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "backend", required_argument, NULL, 'B' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "quiet-fallback", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c, col;

	while ((c = getopt_long(argc, argv, "bn:d:u:U:p:Hico:w::qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			tt->batch = true;
			break;
		case 'n':
			tt->iterations = parse_long(optarg, "number of frames", 1, LONG_MAX);
			break;
		case 'd':
			errno = 0;
			tt->delay = strtod(optarg, &end);
			if (!*optarg || *end || errno || !(tt->delay >= 0) || tt->delay > 86400)
				usage_error("bad delay \"%s\"", optarg);
			break;
		case 'u':
		case 'U':
			if (tdtop_user_lookup(optarg, &tt->user))
				usage_error("invalid user \"%s\"", optarg);
			tt->has_user = true;
			tt->any_user = c == 'U';
			break;
		case 'p':
			parse_pids(tt, optarg);
			break;
		case 'H':
			tt->threads = true;
			break;
		case 'i':
			tt->hide_idle = true;
			break;
		case 'c':
			tt->cmdline = true;
			break;
		case 'o':
			tt->reverse = optarg[0] == '-';
			col = parse_col(optarg + (optarg[0] == '+' || optarg[0] == '-'));
			if (col < 0)
				usage_error("unknown sort field \"%s\"", optarg);
			tt->sort = (enum tdtop_col)col;
			break;
		case 'w': {
			const char *w = optarg ? optarg : getenv("COLUMNS");

			if (!optarg && optind < argc && argv[optind][0] >= '0' && argv[optind][0] <= '9')
				w = argv[optind++];
			tt->width = w ? (int)parse_long(w, "width", 20, 512) : 80;
			break;
		}
		case 'B':
			if (!td_backend_parse(optarg, &tt->backend))
				usage_error("unknown backend \"%s\" (auto, netlink or procfs)", optarg);
			break;
		case 'q':
			tt->quiet = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("tdtop %s (libtaskdiag)\n", TDTOP_VERSION);
			exit(0);
		default:
			usage_error("bad option");
		}
	}
	if (optind < argc)
		usage_error("unexpected argument \"%s\"", argv[optind]);
}

int main(int argc, char **argv)
{
	struct tdtop tt = { .delay = 3.0, .sort = TDTOP_COL_CPU, .width = 80 };
	struct termios tio;
	int err;

	setlocale(LC_ALL, "");
	td_prog = "tdtop";
	parse_options(&tt, argc, argv);
	/* as top: the screen reads its keys from a terminal on standard input */
	if (!tt.batch && tcgetattr(STDIN_FILENO, &tio)) {
		fputs("tdtop: failed tty get\n", stderr);
		return 1;
	}
	tt.pid_width = pid_digits();
	tt.ncpu = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? (unsigned int)sysconf(_SC_NPROCESSORS_ONLN) : 1;
	err = taskdiag_open(&tt.td, tt.backend);
	if (err) {
		fprintf(stderr, "tdtop: %s\n", taskdiag_strerror(err));
		if (err == -TASKDIAG_ENOMODULE) {
			fputs("tdtop: " TD_MODULE_HINT ", or use --backend procfs\n", stderr);
			return EXIT_NOMODULE;
		}
		return 1;
	}
	td_backend_notice("tdtop", tt.td, tt.backend, tt.quiet);
	if (taskdiag_sample_new(&tt.s[0]) || taskdiag_sample_new(&tt.s[1]) ||
	    taskdiag_diff_new(&tt.diff)) {
		fputs("tdtop: out of memory\n", stderr);
		return 1;
	}
	/* prime the older sample, as top does, so the first frame has an interval */
	err = tdtop_refresh(&tt);
	if (!err) {
		tdtop_sleep(0.1);
		err = tt.batch ? batch(&tt) : tdtop_tui(&tt);
	}
	if (err > 0)
		return err;	/* the screen's own exit status */
	if (err) {
		fprintf(stderr, "tdtop: %s\n", taskdiag_strerror(err));
		return 1;
	}
	taskdiag_diff_free(tt.diff);
	taskdiag_sample_free(tt.s[0]);
	taskdiag_sample_free(tt.s[1]);
	taskdiag_close(tt.td);
	free(tt.rows);
	free(tt.pids);
	td_id_cache_free();
	return 0;
}
