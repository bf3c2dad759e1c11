// SPDX-License-Identifier: GPL-2.0
/*
 * ps's format specifiers, one table row each, and their formatters: tdps
 * and task_diag_all -o both show them.
 *
 * Every rule here (headers, widths, alignment, how text is escaped and
 * cut, time formats) was learnt by running procps's ps and comparing its
 * output, never from its source; tests/vm/test_tdps.py checks them line by
 * line against ps.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <langinfo.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "psfields.h"

/* ------------------------------------------------------------------------
 * The facts the formatters need
 */

void psf_ctx_read(struct psf_ctx *cx, bool threads, bool bsd_c)
{
	const char *cs = nl_langinfo(CODESET);
	struct taskdiag_system sys;
	long v;

	cx->threads = threads;
	cx->bsd_c = bsd_c;
	cx->cumulative = false;	/* tdps sets these two after */
	cx->bsd_e = false;
	cx->utf8 = cs && !strcmp(cs, "UTF-8");
	v = sysconf(_SC_PAGESIZE);
	cx->page_size = v > 0 ? (uint64_t)v : 4096;
	/* the library's reader of /proc/stat, uptime and meminfo, as tdtop's */
	if (taskdiag_system_read(&sys, sizeof(sys)))
		memset(&sys, 0, sizeof(sys));
	v = sysconf(_SC_CLK_TCK);
	cx->hz = sys.hz ? sys.hz : v > 0 ? (uint64_t)v : 100;
	cx->mem_total_kib = sys.mem_total / 1024;
	cx->boot_time = (time_t)sys.boot_time;
	cx->uptime_cs = sys.uptime / 10000000u;	/* ns to /proc/uptime's hundredths */
	cx->now = time(NULL);
}

uint64_t psf_file_value(const char *path, const char *key)
{
	size_t klen = strlen(key);
	unsigned long long v = 0;
	char line[256];
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen)) {
			v = strtoull(line + klen, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* ------------------------------------------------------------------------
 * Text as ps shows it
 *
 * ps turns a newline into a space. In a UTF-8 locale it keeps printable
 * characters and shows a control or unprintable character as one '?', a
 * malformed sequence as one '?' per byte; once it meets a byte that cannot
 * start a sequence, or a sequence cut short by the end of the text, it
 * goes on byte by byte as in the C locale: '?' for bytes above 0x7f, '.'
 * for control characters.
 */

static bool ascii_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static void esc_byte(struct tdbuf *b, unsigned char c, bool plain)
{
	if (c == '\n')
		tdbuf_addc(b, ' ');
	else if (c >= 0x80)
		tdbuf_addc(b, '?');
	else if (ascii_control(c))
		tdbuf_addc(b, plain ? '.' : '?');
	else
		tdbuf_addc(b, (char)c);
}

/* The length a UTF-8 sequence that starts with @c has, 0 if none does. */
static size_t utf8_lead_len(unsigned char c)
{
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

/* One character at @s (@n bytes left) in UTF-8 mode; returns bytes used. */
static size_t esc_utf8_char(struct tdbuf *b, const unsigned char *s, size_t n, bool *plain)
{
	size_t len = utf8_lead_len(s[0]), r, k;
	mbstate_t st;
	wchar_t wc;

	if (s[0] < 0x80) {
		esc_byte(b, s[0], false);
		return 1;
	}
	if (!len || n < len) {
		*plain = true;
		esc_byte(b, s[0], true);
		return 1;
	}
	memset(&st, 0, sizeof(st));
	r = mbrtowc(&wc, (const char *)s, n, &st);
	if (r == (size_t)-1 || r == (size_t)-2 || r == 0) {
		for (k = 1; k < len && s[k] >= 0x80; k++)
			;
		for (r = 0; r < k; r++)
			tdbuf_addc(b, '?');
		return k;
	}
	if (iswprint((wint_t)wc))
		tdbuf_add(b, s, r);
	else
		tdbuf_addc(b, '?');
	return r;
}

/* In raw mode (JSON, CSV), the text as it is: their writers escape it. */
static void psf_escape(struct tdbuf *b, const char *text, size_t n, const struct psf_ctx *cx)
{
	const unsigned char *s = (const unsigned char *)text;
	bool plain = !cx->utf8;
	size_t i = 0;

	if (cx->raw) {
		tdbuf_add(b, text, n);
		return;
	}
	while (i < n && s[i] >= 0x20 && s[i] < 0x7f)
		i++;
	tdbuf_add(b, text, i);
	while (i < n) {
		if (plain) {
			esc_byte(b, s[i++], true);
			continue;
		}
		i += esc_utf8_char(b, s + i, n - i, &plain);
	}
}

/* The display width of one escaped character at @s, and its length. */
static size_t char_cols(const char *s, size_t n, bool utf8, size_t *len)
{
	mbstate_t st;
	wchar_t wc;
	size_t r;
	int w;

	*len = 1;
	if (!utf8 || (unsigned char)s[0] < 0x80)
		return 1;
	memset(&st, 0, sizeof(st));
	r = mbrtowc(&wc, s, n, &st);
	if (r == (size_t)-1 || r == (size_t)-2 || r == 0)
		return 1;
	*len = r;
	w = wcwidth(wc);
	return w < 0 ? 1 : (size_t)w;
}

size_t psf_text_width(const char *s, size_t n, bool utf8)
{
	size_t i = 0, cols, len;

	if (!utf8)
		return n;
	while (i < n && (unsigned char)s[i] < 0x80)
		i++;
	cols = i;
	while (i < n) {
		cols += char_cols(s + i, n - i, utf8, &len);
		i += len;
	}
	return cols;
}

/* How many bytes of @s fit in @cols columns. */
size_t psf_text_cut(const char *s, size_t n, size_t cols, bool utf8)
{
	size_t i = 0, used = 0, len, w;

	while (i < n) {
		w = char_cols(s + i, n - i, utf8, &len);
		/* a full column takes no zero-width character either */
		if (used >= cols || used + w > cols)
			break;
		used += w;
		i += len;
	}
	return i;
}

/* ------------------------------------------------------------------------
 * Reading items
 */

/* Is @item signed? The item table's answer, looked up once per item. */
static bool item_signed(int item)
{
	static signed char known[TASKDIAG_ITEM__COUNT];	/* 0 not yet, 1 signed, -1 not */
	const struct taskdiag_item_info *info;

	if (item < 0 || item >= TASKDIAG_ITEM__COUNT)
		return false;
	if (!known[item]) {
		info = taskdiag_item_info(item);
		known[item] = info && info->type == TASKDIAG_TYPE_S64 ? 1 : -1;
	}
	return known[item] > 0;
}

static int64_t num(const struct taskdiag_task *t, int item)
{
	uint64_t u = 0;
	int64_t s = 0;

	if (item_signed(item)) {
		taskdiag_task_get_s64(t, item, &s);
		return s;
	}
	taskdiag_task_get_u64(t, item, &u);
	return (int64_t)u;
}

static uint64_t ticks(const struct psf_ctx *cx, int64_t ns)
{
	return ns > 0 ? (uint64_t)ns / (1000000000u / cx->hz) : 0;
}

static uint64_t cpu_ticks(const struct taskdiag_task *t, const struct psf_ctx *cx)
{
	/* procfs truncates each of the two to ticks */
	return ticks(cx, num(t, TASKDIAG_ITEM_STAT_UTIME)) +
	       ticks(cx, num(t, TASKDIAG_ITEM_STAT_STIME));
}

/* Hundredths of a second since the task started (/proc/uptime's unit). */
static uint64_t elapsed_cs(const struct taskdiag_task *t, const struct psf_ctx *cx)
{
	uint64_t start = ticks(cx, num(t, TASKDIAG_ITEM_BASE_START_TIME)) * 100 / cx->hz;

	return cx->uptime_cs > start ? cx->uptime_cs - start : 0;
}

static uint64_t elapsed(const struct taskdiag_task *t, const struct psf_ctx *cx)
{
	return elapsed_cs(t, cx) / 100;
}

/* ------------------------------------------------------------------------
 * Formatters
 */

static void f_num(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addi(b, num(a->t, a->item));
}

static void f_pid(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addi(b, taskdiag_task_tgid(a->t));
}

static void f_tid(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addi(b, taskdiag_task_pid(a->t));
}

static void f_kib(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addu(b, (uint64_t)num(a->t, a->item) / 1024);
}

/* USS as procps ps computes it: Private_Clean + Private_Dirty of smaps_rollup. */
static void f_uss(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addu(b, ((uint64_t)num(a->t, TASKDIAG_ITEM_MEM_PRIVATE_CLEAN) +
		       (uint64_t)num(a->t, TASKDIAG_ITEM_MEM_PRIVATE_DIRTY)) / 1024);
}

static void f_pages(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addu(b, (uint64_t)num(a->t, a->item) / a->cx->page_size);
}

void psf_cleanup(void)
{
	td_id_cache_free();
}

static void put_id_name(struct tdbuf *b, const struct psf_arg *a, bool group)
{
	tdbuf_puts(b, td_id_label((uint32_t)num(a->t, a->item), group));
}

static void f_user(struct tdbuf *b, const struct psf_arg *a)
{
	put_id_name(b, a, false);
}

static void f_group(struct tdbuf *b, const struct psf_arg *a)
{
	put_id_name(b, a, true);
}

static char state_of(const struct taskdiag_task *t)
{
	int64_t c = num(t, TASKDIAG_ITEM_BASE_STATE);

	return c > ' ' && c < 0x7f ? (char)c : '?';
}

static void f_state(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addc(b, state_of(a->t));
}

uint64_t psf_vm_lck(const struct taskdiag_task *t)
{
	uint64_t v;

	if (!taskdiag_task_get_u64(t, TASKDIAG_ITEM_STATM_LOCKED, &v))
		return v;
	return (uint64_t)num(t, TASKDIAG_ITEM_STATUS_VM_LCK);
}

static void f_stat(struct tdbuf *b, const struct psf_arg *a)
{
	int64_t nice = num(a->t, TASKDIAG_ITEM_STAT_NICE);
	int64_t tpgid = num(a->t, TASKDIAG_ITEM_BASE_TPGID);

	tdbuf_addc(b, state_of(a->t));
	if (nice < 0)
		tdbuf_addc(b, '<');
	else if (nice > 0)
		tdbuf_addc(b, 'N');
	if (psf_vm_lck(a->t) > 0)
		tdbuf_addc(b, 'L');
	/* as ps: the thread group's session leader, on each of its thread rows */
	if (num(a->t, TASKDIAG_ITEM_BASE_SID) == taskdiag_task_tgid(a->t))
		tdbuf_addc(b, 's');
	if (num(a->t, TASKDIAG_ITEM_BASE_NUM_THREADS) > 1)
		tdbuf_addc(b, 'l');
	if (tpgid > 0 && tpgid == num(a->t, TASKDIAG_ITEM_BASE_PGID))
		tdbuf_addc(b, '+');
}

/* Scheduling policies whose tasks have a nice value that matters. */
static bool policy_has_nice(int64_t policy)
{
	return policy == 0 || policy == 3;	/* SCHED_OTHER, SCHED_BATCH */
}

static void f_nice(struct tdbuf *b, const struct psf_arg *a)
{
	if (policy_has_nice(num(a->t, TASKDIAG_ITEM_STAT_POLICY)))
		tdbuf_addf(b, "%" PRId64, num(a->t, TASKDIAG_ITEM_STAT_NICE));
	else
		tdbuf_addc(b, '-');
}

/* pri (item 0): 39 minus the kernel's priority; opri, intpri (1): 60 plus it */
static void f_pri(struct tdbuf *b, const struct psf_arg *a)
{
	int64_t prio = num(a->t, TASKDIAG_ITEM_STAT_PRIORITY);

	tdbuf_addf(b, "%" PRId64, a->item ? 60 + prio : 39 - prio);
}

static void f_rtprio(struct tdbuf *b, const struct psf_arg *a)
{
	if (num(a->t, TASKDIAG_ITEM_STAT_POLICY) == 0)
		tdbuf_addc(b, '-');
	else
		tdbuf_addf(b, "%" PRId64, num(a->t, TASKDIAG_ITEM_STAT_RT_PRIORITY));
}

static void f_class(struct tdbuf *b, const struct psf_arg *a)
{
	static const char *const names[] = { "TS", "FF", "RR", "B", "ISO", "IDL", "DLN" };
	int64_t policy = num(a->t, TASKDIAG_ITEM_STAT_POLICY);
	const char *s = policy >= 0 && policy < 7 ? names[policy] : "?";

	tdbuf_add(b, s, strlen(s));
}

/* The name of a terminal device, as ps shows it. */
static void put_tty(struct tdbuf *b, uint32_t nr)
{
	unsigned int maj = (nr >> 8) & 0xfff, min = (nr & 0xff) | ((nr >> 12) & 0xfff00);

	if (!nr)
		tdbuf_addc(b, '?');
	else if (maj >= 136 && maj <= 143)
		tdbuf_addf(b, "pts/%u", (maj - 136) * 256 + min);
	else if (maj == 4 && min < 64)
		tdbuf_addf(b, "tty%u", min);
	else if (maj == 4)
		tdbuf_addf(b, "ttyS%u", min - 64);
	else if (maj == 5 && min == 0)
		tdbuf_addf(b, "tty");
	else if (maj == 5 && min == 1)
		tdbuf_addf(b, "console");
	else
		tdbuf_addc(b, '?');
}

/* tty, tt, tname, tty8, longtname; tty4 (item 1): without "tty" or "pts/" */
static void f_tty(struct tdbuf *b, const struct psf_arg *a)
{
	size_t at = b->len, skip = 0;

	put_tty(b, (uint32_t)num(a->t, TASKDIAG_ITEM_BASE_TTY_NR));
	if (!a->item)
		return;
	/* as ps: each prefix only when something follows it */
	if (b->len - at > 3 && !strncmp(b->p + at, "tty", 3))
		skip = 3;
	if (b->len - at > skip + 4 && !strncmp(b->p + at + skip, "pts/", 4))
		skip += 4;
	memmove(b->p + at, b->p + at + skip, b->len - at - skip + 1);
	b->len -= skip;
}

static void put_hms(struct tdbuf *b, uint64_t s, bool short_form)
{
	uint64_t d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60;

	s %= 60;
	if (d) {
		tdbuf_addu(b, d);
		tdbuf_addc(b, '-');
	}
	if (d || h || !short_form) {
		tdbuf_add02(b, (unsigned int)h);
		tdbuf_addc(b, ':');
	}
	tdbuf_add02(b, (unsigned int)m);
	tdbuf_addc(b, ':');
	tdbuf_add02(b, (unsigned int)s);
}

static void f_time(struct tdbuf *b, const struct psf_arg *a)
{
	put_hms(b, cpu_ticks(a->t, a->cx) / a->cx->hz, false);
}

static void f_etime(struct tdbuf *b, const struct psf_arg *a)
{
	put_hms(b, elapsed(a->t, a->cx), true);
}

static void f_etimes(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addf(b, "%" PRIu64, elapsed(a->t, a->cx));
}

static time_t started(const struct psf_arg *a)
{
	return a->cx->boot_time +
	       (time_t)(ticks(a->cx, num(a->t, TASKDIAG_ITEM_BASE_START_TIME)) / a->cx->hz);
}

/* strftime() into the buffer, "-" if it fails; the formats are this file's own */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void put_time(struct tdbuf *b, time_t when, const char *fmt)
{
	char s[64];
	struct tm tm;

	if (!localtime_r(&when, &tm) || !strftime(s, sizeof(s), fmt, &tm))
		snprintf(s, sizeof(s), "-");
	tdbuf_add(b, s, strlen(s));
}
#pragma GCC diagnostic pop

static void f_lstart(struct tdbuf *b, const struct psf_arg *a)
{
	put_time(b, started(a), "%a %b %e %H:%M:%S %Y");
}

/* start and bsdstart (item 0 and 1): the time of day within 24 hours, else the date */
static void f_start(struct tdbuf *b, const struct psf_arg *a)
{
	static const char *const fmts[][2] = {
		{ "%H:%M:%S", "  %b %d" },
		{ " %H:%M", " %b %d" },
	};
	time_t when = started(a);

	put_time(b, when, fmts[a->item][a->cx->now - when >= 86400]);
}

/* The local time of @now, worked out once per run. */
static const struct tm *today_of(time_t now)
{
	static struct tm today;
	static time_t key = -1;

	if (key != now && !localtime_r(&now, &today))
		return NULL;
	key = now;
	return &today;
}

/* The locale's abbreviated month names (strftime's %b), once. */
static const char *month_abbr(int mon)
{
	static char names[12][32];
	static bool done;
	struct tm tm = { .tm_mday = 1, .tm_year = 100 };
	int i;

	if (!done) {
		for (i = 0; i < 12; i++) {
			tm.tm_mon = i;
			if (!strftime(names[i], sizeof(names[i]), "%b", &tm))
				names[i][0] = '\0';
		}
		done = true;
	}
	return mon >= 0 && mon < 12 ? names[mon] : "";
}

/* stime: the time of day if today, else the day if this year, else the year */
static void f_stime(struct tdbuf *b, const struct psf_arg *a)
{
	time_t when = started(a);
	const struct tm *today = today_of(a->cx->now);
	struct tm then;

	if (!today || !localtime_r(&when, &then)) {
		tdbuf_addc(b, '-');
	} else if (then.tm_year != today->tm_year) {
		tdbuf_addi(b, (int64_t)then.tm_year + 1900);
	} else if (then.tm_yday != today->tm_yday) {
		tdbuf_puts(b, month_abbr(then.tm_mon));
		tdbuf_add02(b, (unsigned int)then.tm_mday);
	} else {
		tdbuf_add02(b, (unsigned int)then.tm_hour);
		tdbuf_addc(b, ':');
		tdbuf_add02(b, (unsigned int)then.tm_min);
	}
}

/*
 * The CPU time that %cpu, c and bsdtime show: with S (--cumulative), that
 * of the task's waited-for dead children too, as ps's TICS_ALL_C (time and
 * times never add them, in ps either).
 */
static uint64_t share_ticks(const struct psf_arg *a)
{
	uint64_t t = cpu_ticks(a->t, a->cx);

	if (a->cx->cumulative)
		t += ticks(a->cx, num(a->t, TASKDIAG_ITEM_STAT_CUTIME)) +
		     ticks(a->cx, num(a->t, TASKDIAG_ITEM_STAT_CSTIME));
	return t;
}

static uint64_t pcpu_tenths(const struct psf_arg *a)
{
	uint64_t cs = elapsed_cs(a->t, a->cx), used_cs = share_ticks(a) * 100 / a->cx->hz;

	return cs ? used_cs * 1000 / cs : 0;
}

/* Tenths of a percent, as "12.3", or "123" from 100 on. */
static void put_tenths(struct tdbuf *b, uint64_t tenths)
{
	tdbuf_addu(b, tenths / 10);
	if (tenths < 1000) {
		tdbuf_addc(b, '.');
		tdbuf_addc(b, (char)('0' + tenths % 10));
	}
}

static void f_pcpu(struct tdbuf *b, const struct psf_arg *a)
{
	put_tenths(b, pcpu_tenths(a));
}

/* c: %cpu in whole percent, at most 99 as ps's pr_c(); padded by ps itself */
static void f_c(struct tdbuf *b, const struct psf_arg *a)
{
	uint64_t pcpu = pcpu_tenths(a) / 10;

	tdbuf_addu_w(b, pcpu > 99 ? 99 : pcpu, 2);
}

/* cp: %cpu in tenths without the point, at most 999, as ps's pr_cp() */
static void f_cp(struct tdbuf *b, const struct psf_arg *a)
{
	uint64_t t = pcpu_tenths(a);

	tdbuf_addu_w(b, t > 999 ? 999 : t, 3);
}

/* bsdtime: minutes and seconds of CPU time, padded by ps itself */
static void f_bsdtime(struct tdbuf *b, const struct psf_arg *a)
{
	uint64_t s = share_ticks(a) / a->cx->hz;

	tdbuf_addu_w(b, s / 60, 3);
	tdbuf_addc(b, ':');
	tdbuf_add02(b, (unsigned int)(s % 60));
}

static void f_times(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addf(b, "%" PRIu64, cpu_ticks(a->t, a->cx) / a->cx->hz);
}

/* minflt, majflt: with S (--cumulative), the dead children's too, as ps */
static void f_flt(struct tdbuf *b, const struct psf_arg *a)
{
	uint64_t v = num(a->t, a->item);

	if (a->cx->cumulative)
		v += num(a->t, a->item == TASKDIAG_ITEM_STAT_MINFLT ? TASKDIAG_ITEM_STAT_CMINFLT
								     : TASKDIAG_ITEM_STAT_CMAJFLT);
	tdbuf_addu(b, v);
}

static void f_mask(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addf(b, "%016" PRIx64, (uint64_t)num(a->t, a->item));
}

/* F: forked but did not exec (1), MCE (2), used super-user privileges (4) */
static void f_flags(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addf(b, "%" PRIu64, ((uint64_t)num(a->t, TASKDIAG_ITEM_BASE_FLAGS) >> 6) & 7);
}

static void f_pmem(struct tdbuf *b, const struct psf_arg *a)
{
	uint64_t kib = (uint64_t)num(a->t, TASKDIAG_ITEM_STATM_RESIDENT) / 1024;
	uint64_t tenths = a->cx->mem_total_kib ? kib * 1000 / a->cx->mem_total_kib : 0;

	/* ps pads this one itself: it keeps its blank after a wide column */
	tdbuf_addu_w(b, tenths / 10, 2);
	tdbuf_addc(b, '.');
	tdbuf_addc(b, (char)('0' + tenths % 10));
}

static void put_comm(struct tdbuf *b, const struct psf_arg *a)
{
	const char *comm = "";

	taskdiag_task_get_string(a->t, TASKDIAG_ITEM_BASE_COMM, &comm);
	psf_escape(b, comm, strlen(comm), a->cx);
}

static void proc_path(char *path, size_t n, const struct psf_arg *a, const char *file);

/*
 * e: a space and the environment after the command, as ps shows it: what
 * /proc/PID/environ gives this reader (its first 128 KiB), NULs and
 * newlines as spaces; nothing where it is empty or may not be read.
 */
static void put_environ(struct tdbuf *b, const struct psf_arg *a)
{
	enum { ENV_MAX = 128 * 1024 };
	char path[64], *s;
	size_t n = 0, i;
	ssize_t r;
	int fd;

	proc_path(path, sizeof(path), a, "environ");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	s = malloc(ENV_MAX);
	if (!s)
		td_nomem();
	while (n < ENV_MAX - 1) {
		r = read(fd, s + n, ENV_MAX - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	while (n && !s[n - 1])
		n--;
	for (i = 0; i < n; i++)
		if (!s[i] || s[i] == '\n')
			s[i] = ' ';
	if (n && s[n - 1] == ' ')
		n--;
	if (n) {
		tdbuf_addc(b, ' ');
		psf_escape(b, s, n, a->cx);
	}
	free(s);
}

static void f_comm(struct tdbuf *b, const struct psf_arg *a)
{
	put_comm(b, a);
	if (a->cx->bsd_e)
		put_environ(b, a);
}

static void put_args(struct tdbuf *b, const struct psf_arg *a);

static void f_args(struct tdbuf *b, const struct psf_arg *a)
{
	put_args(b, a);
	if (a->cx->bsd_e)
		put_environ(b, a);
}

static void put_args(struct tdbuf *b, const struct psf_arg *a)
{
	const void *data = NULL;
	size_t n = 0, i;
	char *s;

	if (a->cx->bsd_c) {
		put_comm(b, a);
		return;
	}
	taskdiag_task_get_bytes(a->t, TASKDIAG_ITEM_CMDLINE, &data, &n);
	while (n && !((const char *)data)[n - 1])
		n--;
	if (!n) {
		tdbuf_addc(b, '[');
		put_comm(b, a);
		tdbuf_addc(b, ']');
		if (state_of(a->t) == 'Z')
			tdbuf_add(b, " <defunct>", 10);
		return;
	}
	s = malloc(n);
	if (!s)
		td_nomem();
	memcpy(s, data, n);
	for (i = 0; i < n; i++)
		if (!s[i])
			s[i] = ' ';
	psf_escape(b, s, n, a->cx);
	free(s);
}

/* ps's placeholder for what it does not know */
static void f_dash(struct tdbuf *b, const struct psf_arg *a)
{
	(void)a;
	tdbuf_addc(b, '-');
}

static void f_hex16(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addf(b, "%016" PRIx64, (uint64_t)num(a->t, a->item));
}

static uint64_t text_size(const struct taskdiag_task *t)
{
	uint64_t start = (uint64_t)num(t, TASKDIAG_ITEM_STAT_START_CODE);
	uint64_t end = (uint64_t)num(t, TASKDIAG_ITEM_STAT_END_CODE);

	return end > start ? end - start : 0;
}

/* trs, drs: the code, and the rest of the address space, in KiB */
static void f_trs(struct tdbuf *b, const struct psf_arg *a)
{
	tdbuf_addf(b, "%" PRIu64, text_size(a->t) / 1024);
}

static void f_drs(struct tdbuf *b, const struct psf_arg *a)
{
	uint64_t vsize = (uint64_t)num(a->t, TASKDIAG_ITEM_STAT_VSIZE), text = text_size(a->t);

	tdbuf_addf(b, "%" PRIu64, vsize > text ? (vsize - text) / 1024 : 0);
}

/*
 * What neither backend sends: ps reads these from /proc, and so does tdps,
 * from the same files.
 */
enum { P_WCHAN, P_CGROUP, P_EXE, P_LABEL, P_SESSION };

static void proc_path(char *path, size_t n, const struct psf_arg *a, const char *file)
{
	pid_t tgid = taskdiag_task_tgid(a->t), tid = taskdiag_task_pid(a->t);

	if (tid != tgid)
		snprintf(path, n, "/proc/%d/task/%d/%s", (int)tgid, (int)tid, file);
	else
		snprintf(path, n, "/proc/%d/%s", (int)tgid, file);
}

/* The whole of a small /proc file, NUL-terminated; its length, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	size_t got;

	if (!f)
		return -1;
	got = fread(buf, 1, n - 1, f);
	if (ferror(f))
		got = 0;
	fclose(f);
	buf[got] = '\0';
	return (ssize_t)got;
}

/* cgroup: the lines whose path is not "/", joined by commas */
static void put_cgroups(struct tdbuf *b, char *text)
{
	char *line, *save = NULL;
	bool any = false;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(line);

		if (n >= 2 && !strcmp(line + n - 2, ":/"))
			continue;
		if (any)
			tdbuf_addc(b, ',');
		tdbuf_add(b, line, n);
		any = true;
	}
	if (!any)
		tdbuf_addc(b, '-');
}

/* lsession: a systemd login session is a cgroup named session-ID.scope */
static void put_session(struct tdbuf *b, const char *text)
{
	const char *p = strstr(text, "/session-"), *end;

	if (p) {
		p += 9;
		end = strstr(p, ".scope");
		if (end && end > p && (end[6] == '\n' || end[6] == '/' || !end[6])) {
			tdbuf_add(b, p, (size_t)(end - p));
			return;
		}
	}
	tdbuf_addc(b, '-');
}

static void f_proc_text(struct tdbuf *b, const struct psf_arg *a)
{
	static const char *const files[] = {
		[P_WCHAN] = "wchan", [P_CGROUP] = "cgroup", [P_EXE] = "exe",
		[P_LABEL] = "attr/current", [P_SESSION] = "cgroup",
	};
	char path[64], buf[8192];
	ssize_t n;

	proc_path(path, sizeof(path), a, files[a->item]);
	if (a->item == P_EXE) {
		n = readlink(path, buf, sizeof(buf) - 1);
		if (n <= 0) {
			tdbuf_addc(b, '-');
			return;
		}
		psf_escape(b, buf, (size_t)n, a->cx);
		return;
	}
	n = read_small(path, buf, sizeof(buf));
	while (n > 0 && (buf[n - 1] == '\n' || !buf[n - 1]))
		buf[--n] = '\0';
	if (a->item == P_CGROUP && n > 0)
		put_cgroups(b, buf);
	else if (a->item == P_SESSION && n > 0)
		put_session(b, buf);
	else if (n <= 0 || (a->item == P_WCHAN && !strcmp(buf, "0")))
		tdbuf_addc(b, '-');
	else
		psf_escape(b, buf, (size_t)n, a->cx);
}

/* luid: the login uid, "-" when none was set */
static void f_luid(struct tdbuf *b, const struct psf_arg *a)
{
	char path[64], buf[32];
	unsigned long long v;

	proc_path(path, sizeof(path), a, "loginuid");
	if (read_small(path, buf, sizeof(buf)) <= 0 || sscanf(buf, "%llu", &v) != 1 ||
	    v >= UINT32_MAX)
		tdbuf_addc(b, '-');
	else
		tdbuf_addf(b, "%llu", v);
}

/* The namespace columns: the inode number of /proc/PID/ns/NAME */
static void f_ns(struct tdbuf *b, const struct psf_arg *a)
{
	static const char *const names[] = { "cgroup", "ipc", "mnt", "net", "pid", "time",
					     "user", "uts" };
	char path[64], file[16];
	struct stat st;

	snprintf(file, sizeof(file), "ns/%s", names[a->item]);
	proc_path(path, sizeof(path), a, file);
	if (stat(path, &st))
		tdbuf_addc(b, '-');
	else
		tdbuf_addf(b, "%llu", (unsigned long long)st.st_ino);
}

/* ------------------------------------------------------------------------
 * The table
 */

#define G_BASE	TASKDIAG_GROUP_BASE
#define G_STAT	TASKDIAG_GROUP_STAT
#define G_STATM	TASKDIAG_GROUP_STATM
#define G_STATUS TASKDIAG_GROUP_STATUS
#define G_CRED	TASKDIAG_GROUP_CRED
#define G_CMD	TASKDIAG_GROUP_CMDLINE
#define G_MEM	TASKDIAG_GROUP_MEM

#define G_NONE	0
#define TK	PSF_F_TEXTKEY

#define NUM(n, h, w, g, f, i) { n, h, w, true, PSF_SPILL, false, 0, false, g, f, i, 0 }
#define PID(n, h, g, f, i) { n, h, 5, true, PSF_SPILL, false, 0, true, g, f, i, 0 }
#define TXT(n, h, w, g, f, i) { n, h, w, false, PSF_SPILL, false, 0, false, g, f, i, TK }
/* text as wide as the screen allows when last, else cut at its width */
#define WIDE(n, h, w, g, f, i) { n, h, w, false, PSF_CUT, true, 1, false, g, f, i, TK }
#define NAME(n, h, g, f, i) { n, h, 8, false, PSF_PLUS, true, 8, false, g, f, i, TK }
#define CMD(n, h, w, g, f) { n, h, w, false, PSF_CUT, true, 3, false, g, f, 0, \
			     TK | PSF_F_TREE }

static const struct psf_spec specs[] = {
	PID("pid", "PID", 0, f_pid, 0),
	PID("tgid", "TGID", 0, f_pid, 0),
	PID("tid", "TID", 0, f_tid, 0),
	PID("lwp", "LWP", 0, f_tid, 0),
	PID("spid", "SPID", 0, f_tid, 0),
	PID("ppid", "PPID", G_BASE, f_num, TASKDIAG_ITEM_BASE_PPID),
	PID("pgid", "PGID", G_BASE, f_num, TASKDIAG_ITEM_BASE_PGID),
	PID("pgrp", "PGRP", G_BASE, f_num, TASKDIAG_ITEM_BASE_PGID),
	PID("sid", "SID", G_BASE, f_num, TASKDIAG_ITEM_BASE_SID),
	PID("sess", "SESS", G_BASE, f_num, TASKDIAG_ITEM_BASE_SID),
	PID("session", "SESS", G_BASE, f_num, TASKDIAG_ITEM_BASE_SID),
	PID("tpgid", "TPGID", G_BASE, f_num, TASKDIAG_ITEM_BASE_TPGID),
	NUM("uid", "UID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_EUID),
	NUM("euid", "EUID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_EUID),
	NUM("ruid", "RUID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_UID),
	NUM("suid", "SUID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_SUID),
	NUM("fuid", "FUID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_FSUID),
	NUM("gid", "GID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_EGID),
	NUM("egid", "EGID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_EGID),
	NUM("rgid", "RGID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_GID),
	NUM("sgid", "SGID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_SGID),
	NUM("fgid", "FGID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_FSGID),
	NAME("user", "USER", G_CRED, f_user, TASKDIAG_ITEM_CRED_EUID),
	NAME("euser", "EUSER", G_CRED, f_user, TASKDIAG_ITEM_CRED_EUID),
	NAME("uname", "USER", G_CRED, f_user, TASKDIAG_ITEM_CRED_EUID),
	NAME("ruser", "RUSER", G_CRED, f_user, TASKDIAG_ITEM_CRED_UID),
	NAME("suser", "SUSER", G_CRED, f_user, TASKDIAG_ITEM_CRED_SUID),
	NAME("fuser", "FUSER", G_CRED, f_user, TASKDIAG_ITEM_CRED_FSUID),
	NUM("svuid", "SVUID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_SUID),
	NUM("fsuid", "FSUID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_FSUID),
	NUM("svgid", "SVGID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_SGID),
	NUM("fsgid", "FSGID", 5, G_CRED, f_num, TASKDIAG_ITEM_CRED_FSGID),
	NAME("uid_hack", "UID", G_CRED, f_user, TASKDIAG_ITEM_CRED_EUID),
	NAME("svuser", "SVUSER", G_CRED, f_user, TASKDIAG_ITEM_CRED_SUID),
	NAME("fsuser", "FSUSER", G_CRED, f_user, TASKDIAG_ITEM_CRED_FSUID),
	NAME("svgroup", "SVGROUP", G_CRED, f_group, TASKDIAG_ITEM_CRED_SGID),
	NAME("fsgroup", "FSGROUP", G_CRED, f_group, TASKDIAG_ITEM_CRED_FSGID),
	NAME("group", "GROUP", G_CRED, f_group, TASKDIAG_ITEM_CRED_EGID),
	NAME("egroup", "EGROUP", G_CRED, f_group, TASKDIAG_ITEM_CRED_EGID),
	NAME("rgroup", "RGROUP", G_CRED, f_group, TASKDIAG_ITEM_CRED_GID),
	NAME("sgroup", "SGROUP", G_CRED, f_group, TASKDIAG_ITEM_CRED_SGID),
	NAME("fgroup", "FGROUP", G_CRED, f_group, TASKDIAG_ITEM_CRED_FSGID),
	{ "stat", "STAT", 4, false, PSF_SPILL, false, 0, false, G_BASE | G_STAT | G_STATUS, f_stat, 0,
	  TK | PSF_F_VMLCK },
	TXT("state", "S", 1, G_BASE, f_state, 0),
	TXT("s", "S", 1, G_BASE, f_state, 0),
	NUM("ni", "NI", 3, G_STAT, f_nice, 0),
	NUM("nice", "NI", 3, G_STAT, f_nice, 0),
	NUM("pri", "PRI", 3, G_STAT, f_pri, 0),
	NUM("priority", "PRI", 3, G_STAT, f_num, TASKDIAG_ITEM_STAT_PRIORITY),
	NUM("opri", "PRI", 3, G_STAT, f_pri, 1),
	NUM("intpri", "PRI", 3, G_STAT, f_pri, 1),
	NUM("sched", "SCH", 3, G_STAT, f_num, TASKDIAG_ITEM_STAT_POLICY),
	NUM("rtprio", "RTPRIO", 6, G_STAT, f_rtprio, 0),
	NUM("cls", "CLS", 3, G_STAT, f_class, 0),
	TXT("class", "CLS", 3, G_STAT, f_class, 0),
	TXT("policy", "POL", 3, G_STAT, f_class, 0),
	NUM("psr", "PSR", 3, G_STAT, f_num, TASKDIAG_ITEM_STAT_PROCESSOR),
	NUM("cpuid", "CPUID", 5, G_STAT, f_num, TASKDIAG_ITEM_STAT_PROCESSOR),
	NUM("nlwp", "NLWP", 4, G_BASE, f_num, TASKDIAG_ITEM_BASE_NUM_THREADS),
	NUM("thcount", "THCNT", 5, G_BASE, f_num, TASKDIAG_ITEM_BASE_NUM_THREADS),
	NUM("vsz", "VSZ", 6, G_STAT, f_kib, TASKDIAG_ITEM_STAT_VSIZE),
	NUM("vsize", "VSZ", 6, G_STAT, f_kib, TASKDIAG_ITEM_STAT_VSIZE),
	NUM("sz", "SZ", 5, G_STAT, f_pages, TASKDIAG_ITEM_STAT_VSIZE),
	NUM("rss", "RSS", 5, G_STATM, f_kib, TASKDIAG_ITEM_STATM_RESIDENT),
	NUM("rssize", "RSS", 5, G_STATM, f_kib, TASKDIAG_ITEM_STATM_RESIDENT),
	NUM("rsz", "RSZ", 5, G_STATM, f_kib, TASKDIAG_ITEM_STATM_RESIDENT),
	/* smaps_rollup: the mem group, asked for only by these columns */
	NUM("pss", "PSS", 5, G_MEM, f_kib, TASKDIAG_ITEM_MEM_PSS),
	NUM("uss", "USS", 5, G_MEM, f_uss, 0),
	NUM("%mem", "%MEM", 4, G_STATM, f_pmem, 0),
	NUM("pmem", "%MEM", 4, G_STATM, f_pmem, 0),
	NUM("%cpu", "%CPU", 4, G_BASE | G_STAT, f_pcpu, 0),
	NUM("pcpu", "%CPU", 4, G_BASE | G_STAT, f_pcpu, 0),
	NUM("c", "C", 2, G_BASE | G_STAT, f_c, 0),
	NUM("cp", "CP", 3, G_BASE | G_STAT, f_cp, 0),
	NUM("minflt", "MINFLT", 6, G_STAT, f_flt, TASKDIAG_ITEM_STAT_MINFLT),
	NUM("min_flt", "MINFL", 6, G_STAT, f_flt, TASKDIAG_ITEM_STAT_MINFLT),
	NUM("majflt", "MAJFLT", 6, G_STAT, f_flt, TASKDIAG_ITEM_STAT_MAJFLT),
	NUM("maj_flt", "MAJFL", 6, G_STAT, f_flt, TASKDIAG_ITEM_STAT_MAJFLT),
	NUM("pending", "PENDING", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_SHARED_PENDING),
	NUM("sig", "PENDING", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_SHARED_PENDING),
	NUM("blocked", "BLOCKED", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_BLOCKED),
	NUM("sigmask", "BLOCKED", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_BLOCKED),
	NUM("ignored", "IGNORED", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_IGNORED),
	NUM("sigignore", "IGNORED", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_IGNORED),
	NUM("caught", "CAUGHT", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_CAUGHT),
	NUM("sigcatch", "CAUGHT", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_CAUGHT),
	NUM("f", "F", 1, G_BASE, f_flags, 0),
	NUM("flags", "F", 1, G_BASE, f_flags, 0),
	TXT("tty", "TT", 8, G_BASE, f_tty, 0),
	TXT("tt", "TT", 8, G_BASE, f_tty, 0),
	TXT("tname", "TTY", 8, G_BASE, f_tty, 0),
	TXT("tty8", "TTY", 8, G_BASE, f_tty, 0),
	TXT("longtname", "TTY", 8, G_BASE, f_tty, 0),
	TXT("tty4", "TTY", 4, G_BASE, f_tty, 1),
	NUM("time", "TIME", 8, G_STAT, f_time, 0),
	NUM("cputime", "TIME", 8, G_STAT, f_time, 0),
	NUM("bsdtime", "TIME", 6, G_STAT, f_bsdtime, 0),
	NUM("times", "TIME", 8, G_STAT, f_times, 0),
	NUM("cputimes", "TIME", 8, G_STAT, f_times, 0),
	NUM("etime", "ELAPSED", 11, G_BASE, f_etime, 0),
	NUM("etimes", "ELAPSED", 7, G_BASE, f_etimes, 0),
	NUM("lstart", "STARTED", 24, G_BASE, f_lstart, 0),
	NUM("start", "STARTED", 8, G_BASE, f_start, 0),
	NUM("bsdstart", "START", 6, G_BASE, f_start, 1),
	NUM("stime", "STIME", 5, G_BASE, f_stime, 0),
	NUM("start_time", "START", 5, G_BASE, f_stime, 0),
	NUM("sig_block", "BLOCKED", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_BLOCKED),
	NUM("sig_ignore", "IGNORED", 16, G_STATUS, f_mask, TASKDIAG_ITEM_STATUS_SIG_IGNORED),
	TXT("addr_1", "ADDR", 1, G_NONE, f_dash, 0),
	NUM("nwchan", "WCHAN", 6, G_NONE, f_dash, 0),
	WIDE("wchan", "WCHAN", 6, G_NONE, f_proc_text, P_WCHAN),
	WIDE("cgroup", "CGROUP", 27, G_NONE, f_proc_text, P_CGROUP),
	WIDE("exe", "EXE", 27, G_NONE, f_proc_text, P_EXE),
	WIDE("label", "LABEL", 31, G_NONE, f_proc_text, P_LABEL),
	TXT("lsession", "SESSION", 11, G_NONE, f_proc_text, P_SESSION),
	NUM("luid", "LUID", 5, G_NONE, f_luid, 0),
	NUM("cgroupns", "CGROUPNS", 10, G_NONE, f_ns, 0),
	NUM("ipcns", "IPCNS", 10, G_NONE, f_ns, 1),
	NUM("mntns", "MNTNS", 10, G_NONE, f_ns, 2),
	NUM("netns", "NETNS", 10, G_NONE, f_ns, 3),
	NUM("pidns", "PIDNS", 10, G_NONE, f_ns, 4),
	NUM("timens", "TIMENS", 10, G_NONE, f_ns, 5),
	NUM("userns", "USERNS", 10, G_NONE, f_ns, 6),
	NUM("utsns", "UTSNS", 10, G_NONE, f_ns, 7),
	NUM("trs", "TRS", 4, G_STAT, f_trs, 0),
	NUM("m_trs", "TRS", 5, G_STAT, f_trs, 0),
	NUM("drs", "DRS", 5, G_STAT, f_drs, 0),
	NUM("m_drs", "DRS", 5, G_STAT, f_drs, 0),
	NUM("stackp", "STACKP", 16, G_STAT, f_hex16, TASKDIAG_ITEM_STAT_START_STACK),
	CMD("comm", "COMMAND", 15, G_BASE, f_comm),
	CMD("ucmd", "CMD", 15, G_BASE, f_comm),
	CMD("ucomm", "COMMAND", 15, G_BASE, f_comm),
	CMD("args", "COMMAND", 27, G_BASE | G_CMD, f_args),
	CMD("cmd", "CMD", 27, G_BASE | G_CMD, f_args),
	CMD("command", "COMMAND", 27, G_BASE | G_CMD, f_args),
};

int64_t psf_spec_key(const struct psf_spec *sp, const struct psf_arg *a)
{
	const struct taskdiag_task *t = a->t;

	if (sp->fmt == f_pid)
		return taskdiag_task_tgid(t);
	if (sp->fmt == f_tid)
		return taskdiag_task_pid(t);
	if (sp->fmt == f_pcpu || sp->fmt == f_c || sp->fmt == f_cp) {
		/* ps compares the share itself, not the tenths it shows */
		uint64_t cs = elapsed_cs(t, a->cx);

		return (int64_t)(cpu_ticks(t, a->cx) * 1000000000ull / (cs ? cs : 1));
	}
	if (sp->fmt == f_time || sp->fmt == f_bsdtime || sp->fmt == f_times)
		return (int64_t)cpu_ticks(t, a->cx);
	/* in clock ticks, as procfs has it: tasks of one tick tie */
	if (sp->fmt == f_etime || sp->fmt == f_etimes)
		return -(int64_t)ticks(a->cx, num(t, TASKDIAG_ITEM_BASE_START_TIME));
	if (sp->fmt == f_lstart || sp->fmt == f_start || sp->fmt == f_stime)
		return (int64_t)ticks(a->cx, num(t, TASKDIAG_ITEM_BASE_START_TIME));
	if (sp->fmt == f_nice)
		return num(t, TASKDIAG_ITEM_STAT_NICE);
	if (sp->fmt == f_pri)
		return num(t, TASKDIAG_ITEM_STAT_PRIORITY) * (a->item ? 1 : -1);
	if (sp->fmt == f_rtprio)
		return num(t, TASKDIAG_ITEM_STAT_RT_PRIORITY);
	if (sp->fmt == f_pmem)
		return num(t, TASKDIAG_ITEM_STATM_RESIDENT);
	if (sp->fmt == f_tty)
		return num(t, TASKDIAG_ITEM_BASE_TTY_NR);
	if (sp->fmt == f_flags)
		return num(t, TASKDIAG_ITEM_BASE_FLAGS);
	if (sp->fmt == f_uss)
		return num(t, TASKDIAG_ITEM_MEM_PRIVATE_CLEAN) +
		       num(t, TASKDIAG_ITEM_MEM_PRIVATE_DIRTY);
	if (sp->fmt == f_trs)
		return (int64_t)text_size(t);
	if (sp->fmt == f_drs)
		return num(t, TASKDIAG_ITEM_STAT_VSIZE) - (int64_t)text_size(t);
	if (sp->fmt == f_luid || sp->fmt == f_ns || sp->fmt == f_dash || sp->fmt == f_class)
		return 0;
	return num(t, sp->item);
}

bool psf_spec_is_number(const struct psf_spec *sp)
{
	static psf_fmt_fn *const numbers[] = {
		f_num, f_flt, f_pid, f_tid, f_kib, f_uss, f_pages, f_nice, f_pri, f_rtprio, f_etimes, f_times,
		f_pcpu, f_pmem, f_c, f_cp, f_flags, f_trs, f_drs, f_luid, f_ns,
	};
	size_t i;

	for (i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
		if (sp->fmt == numbers[i])
			return true;
	return false;
}

const struct psf_spec *psf_spec_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		if (!strcmp(specs[i].name, name))
			return &specs[i];
	return NULL;
}

const struct psf_spec *psf_spec_at(size_t i)
{
	return i < sizeof(specs) / sizeof(specs[0]) ? &specs[i] : NULL;
}

/* The names, wrapped as a paragraph of the --help text. */
void psf_spec_list(FILE *f)
{
	size_t i, col = 0, len;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		len = strlen(specs[i].name);
		if (col && col + 1 + len > 76) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "%s%s", col ? " " : "  ", specs[i].name);
		col += (col ? 1 : 2) + len;
	}
	fputc('\n', f);
}
