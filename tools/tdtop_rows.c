// SPDX-License-Identifier: GPL-2.0
/*
 * tdtop: the rows and how top lays them out, shared by batch mode (tdtop.c)
 * and the screen (tdtop_tui.c). Each refresh takes one sample (libtaskdiag's
 * sampling API) into the older of two reused samples, diffs it with the
 * other for %CPU, and reads the machine-wide figures with
 * taskdiag_system_read().
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <utmp.h>

#include "tdtext.h"
#include "tdtop.h"
#include "tdtop_cell.h"

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
