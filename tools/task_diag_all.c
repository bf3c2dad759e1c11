// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all: dump per-task information for every process (or thread, or
 * one task, its threads, its children) through libtaskdiag, from the
 * task_diag kernel module or from /proc.
 *
 * Output, as iproute2 does it: one column list, one print call per value
 * (out_field()) that yields a table cell, a CSV field or a JSON member, so
 * the three outputs cannot drift apart. The columns are either every item of
 * the groups asked for (-s), named and typed by libtaskdiag's item table, or
 * the fields of -o: item names and ps's format specifiers.
 *
 * --verify dumps with both backends and compares every field, --dump-raw
 * records the raw netlink reply stream and --replay decodes it again.
 *
 * Exit codes (also in usage() and task_diag_all.1): see enum tda_exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <taskdiag/taskdiag.h>

#include "task_diag_all_interval.h"

#ifndef TDA_VERSION
#define TDA_VERSION "unknown"
#endif

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

#define PF_KTHREAD	0x00200000u
#define CMDLINE_CAP	4096	/* the module's cap of task.cmdline */
#define GROUPS_CAP	1024	/* and of cred.groups (in u32 words) */
#define VERIFY_RETRIES	3
#define DEFAULT_GROUPS	(TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT | \
			 TASKDIAG_GROUP_STATM | TASKDIAG_GROUP_CRED)

enum out_mode {
	OUT_TABLE,
	OUT_JSON,
	OUT_CSV,
	OUT_QUIET,
};

/* ------------------------------------------------------------------------
 * Growable strings
 */

struct sbuf {
	char *p;
	size_t len, cap;
};

static void die_nomem(void)
{
	fprintf(stderr, PROG ": out of memory\n");
	exit(TDA_EXIT_ERROR);
}

static void sb_grow(struct sbuf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 256;

	if (b->len + more + 1 <= b->cap)
		return;
	while (cap < b->len + more + 1)
		cap *= 2;
	b->p = realloc(b->p, cap);
	if (!b->p)
		die_nomem();
	b->cap = cap;
}

static void sb_put(struct sbuf *b, const void *p, size_t n)
{
	sb_grow(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_puts(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static void sb_putc(struct sbuf *b, char c)
{
	sb_put(b, &c, 1);
}

__attribute__((format(printf, 2, 3)))
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_grow(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void sb_reset(struct sbuf *b)
{
	b->len = 0;
	if (b->p)
		b->p[0] = '\0';
}

/* ------------------------------------------------------------------------
 * Text: UTF-8 validation, JSON strings, table cells, CSV fields
 */

/*
 * The length of the UTF-8 sequence at @p (at most @n bytes), with *@ok set
 * when it is well-formed; when it is not, the length of its maximal
 * ill-formed subpart (at least 1), which stands for one U+FFFD, as Unicode
 * recommends and Python's errors="replace" does.
 */
static size_t utf8_next(const unsigned char *p, size_t n, bool *ok)
{
	unsigned char c = p[0], lo = 0x80, hi = 0xbf;
	size_t need, i;

	*ok = false;
	if (c < 0x80) {
		*ok = true;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		need = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		need = 2;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;	/* no surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 3;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;	/* nothing above U+10FFFF */
	} else {
		return 1;
	}
	for (i = 1; i <= need; i++) {
		if (i >= n || p[i] < lo || p[i] > hi)
			return i;
		lo = 0x80;
		hi = 0xbf;
	}
	*ok = true;
	return need + 1;
}

/* A C0 or C1 control character, or DEL (of a well-formed sequence). */
static bool is_control(const unsigned char *p, size_t len)
{
	return (len == 1 && (p[0] < 0x20 || p[0] == 0x7f)) ||
	       (len == 2 && p[0] == 0xc2 && p[1] < 0xa0);
}

/*
 * @s as a JSON string: escapes as RFC 8259 asks, U+FFFD for ill-formed
 * UTF-8; C1 controls and U+2028/U+2029 are escaped too, so that no reader
 * that splits lines at Unicode line breaks cuts an object in two.
 */
static void json_str(struct sbuf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	sb_putc(b, '"');
	while (i < n) {
		bool ok;
		size_t len = utf8_next(p + i, n - i, &ok);

		if (!ok) {
			sb_puts(b, "\\ufffd");
		} else if (len == 1 && (p[i] < 0x20 || p[i] == 0x7f || p[i] == '"' ||
					p[i] == '\\')) {
			switch (p[i]) {
			case '"':
				sb_puts(b, "\\\"");
				break;
			case '\\':
				sb_puts(b, "\\\\");
				break;
			case '\b':
				sb_puts(b, "\\b");
				break;
			case '\f':
				sb_puts(b, "\\f");
				break;
			case '\n':
				sb_puts(b, "\\n");
				break;
			case '\r':
				sb_puts(b, "\\r");
				break;
			case '\t':
				sb_puts(b, "\\t");
				break;
			default:
				sb_printf(b, "\\u%04x", p[i]);
				break;
			}
		} else if (len == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) {
			sb_printf(b, "\\u%04x", p[i + 1]);
		} else if (len == 3 && p[i] == 0xe2 && p[i + 1] == 0x80 &&
			   (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
			sb_printf(b, "\\u%04x", 0x2000 + (p[i + 2] - 0x80));
		} else {
			sb_put(b, p + i, len);
		}
		i += len;
	}
	sb_putc(b, '"');
}

/*
 * Clean text for a table cell (@table: control characters and ill-formed
 * UTF-8 become '?', as ps shows them) or a CSV field (ill-formed UTF-8
 * becomes U+FFFD, everything else is kept).
 */
static void text_clean(struct sbuf *b, const char *s, size_t n, bool table)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		bool ok;
		size_t len = utf8_next(p + i, n - i, &ok);

		if (!ok)
			sb_puts(b, table ? "?" : "\xef\xbf\xbd");
		else if (table && is_control(p + i, len))
			sb_putc(b, '?');
		else
			sb_put(b, p + i, len);
		i += len;
	}
}

/* Characters on a terminal: code points (the text is well-formed by then). */
static size_t text_width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* RFC 4180: quoted if it holds a comma, a quote, CR or LF; quotes doubled. */
static void csv_field(struct sbuf *b, const char *s, size_t n)
{
	size_t i;

	if (!memchr(s, ',', n) && !memchr(s, '"', n) && !memchr(s, '\r', n) &&
	    !memchr(s, '\n', n)) {
		sb_put(b, s, n);
		return;
	}
	sb_putc(b, '"');
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			sb_putc(b, '"');
		sb_putc(b, s[i]);
	}
	sb_putc(b, '"');
}

/* ------------------------------------------------------------------------
 * Values
 */

enum tv_kind {
	TV_NONE,	/* absent: "-" in the table, empty in CSV, left out of JSON */
	TV_U64,
	TV_S64,
	TV_STR,		/* text (s, len) */
	TV_ARGV,	/* NUL-separated arguments (s, len) */
	TV_U32S,	/* u32 words, host order, maybe unaligned (s, len bytes) */
};

enum tv_fmt {
	FMT_DEC,	/* table and CSV: decimal */
	FMT_HEX,	/* 0x, zero-padded to width digits */
	FMT_ADDR,	/* 0x, unpadded */
	FMT_OCT,	/* 0, 4 digits (umask) */
	FMT_TIME,	/* seconds as ps's time: [DD-]HH:MM:SS */
	FMT_ETIME,	/* seconds as ps's etime: [[DD-]HH:]MM:SS */
	FMT_BITMAP,	/* u32 words as a range list: 0-3,8 */
	FMT_LIST,	/* u32 words as decimal numbers: 4,5,6 */
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
	char buf[64];	/* room for short computed text */
};

static void tv_text_str(struct tv *v, const char *s)
{
	size_t n = strlen(s);

	if (n >= sizeof(v->buf))
		n = sizeof(v->buf) - 1;
	memcpy(v->buf, s, n);
	v->buf[n] = '\0';
	v->kind = TV_STR;
	v->p = v->buf;
	v->len = n;
}

static uint32_t word_at(const char *p, size_t i)
{
	uint32_t w;

	memcpy(&w, p + 4 * i, 4);
	return w;
}

static void fmt_duration(struct sbuf *b, uint64_t t, bool etime)
{
	uint64_t ss = t % 60, mm = t / 60 % 60, hh = t / 3600 % 24, dd = t / 86400;

	if (dd)
		sb_printf(b, "%" PRIu64 "-", dd);
	if (!etime || dd || hh)
		sb_printf(b, "%02" PRIu64 ":", hh);
	sb_printf(b, "%02" PRIu64 ":%02" PRIu64, mm, ss);
}

/*
 * The text of a value for a table cell (@table) or a CSV field. Absent
 * values are "-" in the table and empty in CSV; so are empty ones in the
 * table, which never prints an empty cell.
 */
static void tv_text(struct sbuf *b, const struct tv *v, bool table)
{
	size_t start = b->len, i, n;

	switch (v->kind) {
	case TV_NONE:
		break;
	case TV_U64:
		switch (v->fmt) {
		case FMT_HEX:
			sb_printf(b, "0x%0*" PRIx64, (int)v->width, v->u);
			break;
		case FMT_ADDR:
			sb_printf(b, "%#" PRIx64, v->u);
			break;
		case FMT_OCT:
			sb_printf(b, "%04" PRIo64, v->u);
			break;
		case FMT_TIME:
		case FMT_ETIME:
			fmt_duration(b, v->u, v->fmt == FMT_ETIME);
			break;
		default:
			sb_printf(b, "%" PRIu64, v->u);
			break;
		}
		break;
	case TV_S64:
		sb_printf(b, "%" PRId64, v->s);
		break;
	case TV_STR:
		text_clean(b, v->p, v->len, table);
		break;
	case TV_ARGV:
		/* ps's args: NULs are spaces, the final one is dropped. */
		n = v->len && !v->p[v->len - 1] ? v->len - 1 : v->len;
		for (i = 0; i < n;) {
			const char *z = memchr(v->p + i, '\0', n - i);
			size_t l = z ? (size_t)(z - (v->p + i)) : n - i;

			if (i)
				sb_putc(b, ' ');
			text_clean(b, v->p + i, l, table);
			i += l + 1;
		}
		if (n && !v->p[n - 1])
			sb_putc(b, ' ');	/* an empty last argument */
		break;
	case TV_U32S:
		n = v->len / 4;
		if (v->fmt == FMT_BITMAP) {
			size_t nbits = n * 32, bit = 0;
			bool first = true;

			while (bit < nbits) {
				size_t end;

				if (!(word_at(v->p, bit / 32) & (1u << (bit % 32)))) {
					bit++;
					continue;
				}
				for (end = bit; end + 1 < nbits &&
				     (word_at(v->p, (end + 1) / 32) & (1u << ((end + 1) % 32))); end++)
					;
				sb_printf(b, first ? "%zu" : ",%zu", bit);
				if (end > bit)
					sb_printf(b, "-%zu", end);
				first = false;
				bit = end + 1;
			}
		} else {
			for (i = 0; i < n; i++)
				sb_printf(b, i ? ",%" PRIu32 : "%" PRIu32, word_at(v->p, i));
		}
		break;
	}
	if (table && b->len == start)
		sb_putc(b, '-');
}

/* The JSON value of a present value. */
static void tv_json(struct sbuf *b, const struct tv *v)
{
	size_t i, n;

	switch (v->kind) {
	case TV_NONE:
		sb_puts(b, "null");
		break;
	case TV_U64:
		sb_printf(b, "%" PRIu64, v->u);
		break;
	case TV_S64:
		sb_printf(b, "%" PRId64, v->s);
		break;
	case TV_STR:
		json_str(b, v->p, v->len);
		break;
	case TV_ARGV:
		/* Split at NUL; a final NUL ends the last argument. */
		sb_putc(b, '[');
		n = v->len && !v->p[v->len - 1] ? v->len - 1 : v->len;
		for (i = 0; v->len && i <= n;) {
			const char *z = memchr(v->p + i, '\0', n - i);
			size_t l = z ? (size_t)(z - (v->p + i)) : n - i;

			if (i)
				sb_putc(b, ',');
			json_str(b, v->p + i, l);
			i += l + 1;
		}
		sb_putc(b, ']');
		break;
	case TV_U32S:
		sb_putc(b, '[');
		for (i = 0; i < v->len / 4; i++)
			sb_printf(b, i ? ",%" PRIu32 : "%" PRIu32, word_at(v->p, i));
		sb_putc(b, ']');
		break;
	}
}

/* ------------------------------------------------------------------------
 * Items
 */

/* One item's value, as taken out of a record (or a --verify snapshot). */
struct raw {
	bool present;
	uint64_t u;
	int64_t s;
	const void *p;
	size_t len;
};

static void raw_get(const struct taskdiag_task *t, int item, struct raw *r)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);
	const char *str;
	int err = -ENOENT;

	memset(r, 0, sizeof(*r));
	switch (info->type) {
	case TASKDIAG_TYPE_U64:
		err = taskdiag_task_get_u64(t, item, &r->u);
		break;
	case TASKDIAG_TYPE_S64:
		err = taskdiag_task_get_s64(t, item, &r->s);
		break;
	case TASKDIAG_TYPE_STRING:
		err = taskdiag_task_get_string(t, item, &str);
		if (!err) {
			r->p = str;
			r->len = strlen(str);
		}
		break;
	case TASKDIAG_TYPE_BYTES:
	case TASKDIAG_TYPE_U32_ARRAY:
		err = taskdiag_task_get_bytes(t, item, &r->p, &r->len);
		break;
	}
	r->present = !err;
}

/* The value of @item, typed and formatted as the item table says. */
static void tv_of_raw(int item, const struct raw *r, struct tv *v)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);

	memset(v, 0, offsetof(struct tv, buf));
	if (!r->present)
		return;
	switch (info->type) {
	case TASKDIAG_TYPE_U64:
		v->kind = TV_U64;
		v->u = r->u;
		if (info->unit == TASKDIAG_UNIT_CHAR) {
			char c[2] = { (char)r->u, '\0' };

			tv_text_str(v, c);
		} else if (info->unit == TASKDIAG_UNIT_MASK) {
			v->fmt = FMT_HEX;
			v->width = 2u * info->attr_size;
		} else if (info->unit == TASKDIAG_UNIT_ADDRESS) {
			v->fmt = FMT_ADDR;
		} else if (item == TASKDIAG_ITEM_STATUS_UMASK) {
			v->fmt = FMT_OCT;
		}
		break;
	case TASKDIAG_TYPE_S64:
		v->kind = TV_S64;
		v->s = r->s;
		break;
	case TASKDIAG_TYPE_STRING:
		v->kind = TV_STR;
		v->p = r->p;
		v->len = r->len;
		break;
	case TASKDIAG_TYPE_BYTES:
		v->kind = TV_ARGV;
		v->p = r->p;
		v->len = r->len;
		break;
	case TASKDIAG_TYPE_U32_ARRAY:
		v->kind = TV_U32S;
		v->fmt = info->unit == TASKDIAG_UNIT_BITMAP ? FMT_BITMAP : FMT_LIST;
		v->p = r->p;
		v->len = r->len & ~(size_t)3;
		break;
	}
}

static void item_value(const struct taskdiag_task *t, int item, struct tv *v)
{
	struct raw r;

	raw_get(t, item, &r);
	tv_of_raw(item, &r, v);
}

static bool get_u(const struct taskdiag_task *t, int item, uint64_t *u)
{
	return !taskdiag_task_get_u64(t, item, u);
}

static bool get_s(const struct taskdiag_task *t, int item, int64_t *s)
{
	return !taskdiag_task_get_s64(t, item, s);
}

/* The item's "group.name" ("pid", "tgid", "cmdline" for the task's own). */
static void item_qname(int item, char *buf, size_t len)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);

	if (!info->group || info->group == TASKDIAG_GROUP_CMDLINE)
		snprintf(buf, len, "%s", info->name);
	else
		snprintf(buf, len, "%s.%s", info->group_name, info->name);
}

/* ------------------------------------------------------------------------
 * ps's format specifiers
 */

static uint64_t g_tick_ns = 10000000;	/* ns per clock tick, from sysconf() */
static uint64_t g_hz = 100;
static struct sbuf g_scratch;		/* computed text of the current value */

struct name_cache {
	uint32_t id;
	bool used;
	char name[40];
};

/* Names of uids and gids, numbers when there is none (as ps). */
static const char *id_name(uint32_t id, bool group)
{
	static struct name_cache cache[2][64];
	struct name_cache *c = &cache[group][id % 64];

	if (!c->used || c->id != id) {
		const char *n = NULL;

		if (group) {
			struct group *gr = getgrgid(id);

			n = gr ? gr->gr_name : NULL;
		} else {
			struct passwd *pw = getpwuid(id);

			n = pw ? pw->pw_name : NULL;
		}
		if (!n || strlen(n) >= sizeof(c->name))
			snprintf(c->name, sizeof(c->name), "%" PRIu32, id);
		else
			snprintf(c->name, sizeof(c->name), "%s", n);
		c->id = id;
		c->used = true;
	}
	return c->name;
}

typedef void (*ps_get_fn)(const struct taskdiag_task *t, int arg, struct tv *v);

static void ps_tgid(const struct taskdiag_task *t, int arg, struct tv *v)
{
	(void)arg;
	v->kind = TV_U64;
	v->u = (uint64_t)taskdiag_task_tgid(t);
}

static void ps_tid(const struct taskdiag_task *t, int arg, struct tv *v)
{
	(void)arg;
	v->kind = TV_U64;
	v->u = (uint64_t)taskdiag_task_pid(t);
}

static void ps_item(const struct taskdiag_task *t, int item, struct tv *v)
{
	item_value(t, item, v);
}

static void ps_user(const struct taskdiag_task *t, int item, struct tv *v)
{
	uint64_t id;

	if (get_u(t, item, &id))
		tv_text_str(v, id_name((uint32_t)id, item == TASKDIAG_ITEM_CRED_EGID ||
					item == TASKDIAG_ITEM_CRED_GID));
}

/* Bytes in KiB (rss, vsz). */
static void ps_kib(const struct taskdiag_task *t, int item, struct tv *v)
{
	if (get_u(t, item, &v->u)) {
		v->kind = TV_U64;
		v->u /= 1024;
	}
}

/* ps's STAT: the state letter, then < N L s l + as procps's pr_stat(). */
static void ps_stat(const struct taskdiag_task *t, int arg, struct tv *v)
{
	uint64_t state, u, sid, pgid;
	int64_t nice, tpgid;
	char s[8];
	size_t n = 0;

	(void)arg;
	if (!get_u(t, TASKDIAG_ITEM_BASE_STATE, &state))
		return;
	s[n++] = (char)state;
	if (get_s(t, TASKDIAG_ITEM_STAT_NICE, &nice) && nice < 0)
		s[n++] = '<';
	if (get_s(t, TASKDIAG_ITEM_STAT_NICE, &nice) && nice > 0)
		s[n++] = 'N';
	if (get_u(t, TASKDIAG_ITEM_STATUS_VM_LCK, &u) && u)
		s[n++] = 'L';
	if (get_u(t, TASKDIAG_ITEM_BASE_SID, &sid) && sid == (uint64_t)taskdiag_task_tgid(t))
		s[n++] = 's';
	if (get_u(t, TASKDIAG_ITEM_BASE_NUM_THREADS, &u) && u > 1)
		s[n++] = 'l';
	if (get_u(t, TASKDIAG_ITEM_BASE_PGID, &pgid) && get_s(t, TASKDIAG_ITEM_BASE_TPGID, &tpgid) &&
	    (int64_t)pgid == tpgid)
		s[n++] = '+';
	s[n] = '\0';
	tv_text_str(v, s);
}

/* ps's ni: "-" (absent here) for policies other than SCHED_OTHER and SCHED_BATCH. */
static void ps_nice(const struct taskdiag_task *t, int arg, struct tv *v)
{
	uint64_t policy;

	(void)arg;
	if (get_u(t, TASKDIAG_ITEM_STAT_POLICY, &policy) && policy != 0 && policy != 3)
		return;
	if (get_s(t, TASKDIAG_ITEM_STAT_NICE, &v->s))
		v->kind = TV_S64;
}

/* ps's pri: 39 - priority. */
static void ps_pri(const struct taskdiag_task *t, int arg, struct tv *v)
{
	(void)arg;
	if (get_s(t, TASKDIAG_ITEM_STAT_PRIORITY, &v->s)) {
		v->kind = TV_S64;
		v->s = 39 - v->s;
	}
}

/* The controlling terminal from stat's tty_nr; "?" for none. */
static void ps_tty(const struct taskdiag_task *t, int arg, struct tv *v)
{
	uint64_t nr;
	unsigned int maj, min;
	char s[32];

	(void)arg;
	if (!get_u(t, TASKDIAG_ITEM_BASE_TTY_NR, &nr))
		return;
	maj = (unsigned int)(nr >> 8) & 0xfff;
	min = (unsigned int)(nr & 0xff) | ((unsigned int)(nr >> 12) & 0xfff00);
	if (!nr)
		snprintf(s, sizeof(s), "?");
	else if (maj >= 136 && maj <= 143)
		snprintf(s, sizeof(s), "pts/%u", min + (maj - 136) * 256);
	else if (maj == 4 && min < 64)
		snprintf(s, sizeof(s), "tty%u", min);
	else if (maj == 4)
		snprintf(s, sizeof(s), "ttyS%u", min - 64);
	else if (maj == 5 && min == 1)
		snprintf(s, sizeof(s), "console");
	else
		snprintf(s, sizeof(s), "%u:%u", maj, min);
	tv_text_str(v, s);
}

/* Cumulative CPU time in seconds, from whole clock ticks as ps counts. */
static void ps_time(const struct taskdiag_task *t, int arg, struct tv *v)
{
	uint64_t ut, st;

	(void)arg;
	if (!get_u(t, TASKDIAG_ITEM_STAT_UTIME, &ut) || !get_u(t, TASKDIAG_ITEM_STAT_STIME, &st))
		return;
	v->kind = TV_U64;
	v->fmt = FMT_TIME;
	v->u = (ut / g_tick_ns + st / g_tick_ns) / g_hz;
}

/* Elapsed seconds since the task started (this machine's boot clock). */
static void ps_etime(const struct taskdiag_task *t, int arg, struct tv *v)
{
	struct timespec now;
	uint64_t start, up;

	(void)arg;
	if (!get_u(t, TASKDIAG_ITEM_BASE_START_TIME, &start) ||
	    clock_gettime(CLOCK_BOOTTIME, &now))
		return;
	up = (uint64_t)now.tv_sec;
	start /= 1000000000u;
	v->kind = TV_U64;
	v->fmt = FMT_ETIME;
	v->u = up > start ? up - start : 0;
}

/*
 * ps's args: the command line with NULs and newlines as blanks and the
 * trailing NULs dropped (as procps reads it), or [comm] (and <defunct>)
 * without one.
 */
static void ps_args(const struct taskdiag_task *t, int arg, struct tv *v)
{
	const void *p;
	const char *comm;
	size_t len;
	uint64_t state;

	(void)arg;
	sb_reset(&g_scratch);
	if (!taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CMDLINE, &p, &len) && len) {
		const char *s = p;
		size_t i, n = len;

		while (n && !s[n - 1])
			n--;
		for (i = 0; i < n; i++)
			sb_putc(&g_scratch, s[i] && s[i] != '\n' ? s[i] : ' ');
	}
	if (!g_scratch.len) {
		if (taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &comm))
			return;
		sb_printf(&g_scratch, "[%s]", comm);
		if (get_u(t, TASKDIAG_ITEM_BASE_STATE, &state) && state == 'Z')
			sb_puts(&g_scratch, " <defunct>");
	}
	v->kind = TV_STR;
	v->p = g_scratch.p;
	v->len = g_scratch.len;
}

/** struct ps_field - a ps format specifier */
struct ps_field {
	const char *name;
	const char *header;
	ps_get_fn get;
	int arg;		/* the item, for those that read one */
	uint32_t groups;	/* the groups it reads */
	bool right;		/* right-aligned in the table */
	const char *help;
};

#define G(x) TASKDIAG_GROUP_##x
#define I(x) TASKDIAG_ITEM_##x
static const struct ps_field ps_fields[] = {
	{ "pid", "PID", ps_tgid, 0, 0, true, "process id (the tgid; tid is the thread's)" },
	{ "tid", "TID", ps_tid, 0, 0, true, "thread id (the record's pid)" },
	{ "lwp", "LWP", ps_tid, 0, 0, true, "as tid" },
	{ "spid", "SPID", ps_tid, 0, 0, true, "as tid" },
	{ "tgid", "TGID", ps_tgid, 0, 0, true, "thread-group id" },
	{ "ppid", "PPID", ps_item, I(BASE_PPID), G(BASE), true, "parent's pid" },
	{ "pgid", "PGID", ps_item, I(BASE_PGID), G(BASE), true, "process group id" },
	{ "pgrp", "PGRP", ps_item, I(BASE_PGID), G(BASE), true, "as pgid" },
	{ "sid", "SID", ps_item, I(BASE_SID), G(BASE), true, "session id" },
	{ "sess", "SESS", ps_item, I(BASE_SID), G(BASE), true, "as sid" },
	{ "uid", "UID", ps_item, I(CRED_EUID), G(CRED), true, "effective uid" },
	{ "euid", "EUID", ps_item, I(CRED_EUID), G(CRED), true, "effective uid" },
	{ "ruid", "RUID", ps_item, I(CRED_UID), G(CRED), true, "real uid" },
	{ "user", "USER", ps_user, I(CRED_EUID), G(CRED), false, "effective user name" },
	{ "euser", "EUSER", ps_user, I(CRED_EUID), G(CRED), false, "effective user name" },
	{ "ruser", "RUSER", ps_user, I(CRED_UID), G(CRED), false, "real user name" },
	{ "gid", "GID", ps_item, I(CRED_EGID), G(CRED), true, "effective gid" },
	{ "egid", "EGID", ps_item, I(CRED_EGID), G(CRED), true, "effective gid" },
	{ "rgid", "RGID", ps_item, I(CRED_GID), G(CRED), true, "real gid" },
	{ "group", "GROUP", ps_user, I(CRED_EGID), G(CRED), false, "effective group name" },
	{ "egroup", "EGROUP", ps_user, I(CRED_EGID), G(CRED), false, "effective group name" },
	{ "rgroup", "RGROUP", ps_user, I(CRED_GID), G(CRED), false, "real group name" },
	{ "rss", "RSS", ps_kib, I(STAT_RSS), G(STAT), true, "resident set size, KiB" },
	{ "rssize", "RSS", ps_kib, I(STAT_RSS), G(STAT), true, "as rss" },
	{ "rsz", "RSZ", ps_kib, I(STAT_RSS), G(STAT), true, "as rss" },
	{ "vsz", "VSZ", ps_kib, I(STAT_VSIZE), G(STAT), true, "virtual memory size, KiB" },
	{ "vsize", "VSZ", ps_kib, I(STAT_VSIZE), G(STAT), true, "as vsz" },
	{ "stat", "STAT", ps_stat, 0, G(BASE) | G(STAT) | G(STATUS), false,
	  "state and ps's <NLsl+ flags" },
	{ "state", "S", ps_item, I(BASE_STATE), G(BASE), false, "state letter" },
	{ "s", "S", ps_item, I(BASE_STATE), G(BASE), false, "as state" },
	{ "ni", "NI", ps_nice, 0, G(STAT), true, "nice (- for real-time policies)" },
	{ "nice", "NI", ps_nice, 0, G(STAT), true, "as ni" },
	{ "pri", "PRI", ps_pri, 0, G(STAT), true, "ps's priority: 39 - stat.priority" },
	{ "nlwp", "NLWP", ps_item, I(BASE_NUM_THREADS), G(BASE), true, "number of threads" },
	{ "thcount", "THCNT", ps_item, I(BASE_NUM_THREADS), G(BASE), true, "as nlwp" },
	{ "tty", "TT", ps_tty, 0, G(BASE), false, "controlling terminal" },
	{ "tt", "TT", ps_tty, 0, G(BASE), false, "as tty" },
	{ "tname", "TTY", ps_tty, 0, G(BASE), false, "as tty" },
	{ "time", "TIME", ps_time, 0, G(STAT), true, "CPU time, [DD-]HH:MM:SS (JSON: seconds)" },
	{ "cputime", "TIME", ps_time, 0, G(STAT), true, "as time" },
	{ "etime", "ELAPSED", ps_etime, 0, G(BASE), true,
	  "elapsed time, [[DD-]HH:]MM:SS (JSON: seconds)" },
	{ "comm", "COMMAND", ps_item, I(BASE_COMM), G(BASE), false, "command name" },
	{ "ucomm", "COMMAND", ps_item, I(BASE_COMM), G(BASE), false, "as comm" },
	{ "args", "COMMAND", ps_args, 0, G(CMDLINE) | G(BASE), false,
	  "command line, or [comm] without one" },
	{ "cmd", "CMD", ps_args, 0, G(CMDLINE) | G(BASE), false, "as args" },
	{ "command", "COMMAND", ps_args, 0, G(CMDLINE) | G(BASE), false, "as args" },
};
#undef G
#undef I

static const struct ps_field *ps_field_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(ps_fields) / sizeof(ps_fields[0]); i++)
		if (!strcmp(ps_fields[i].name, name))
			return &ps_fields[i];
	return NULL;
}

/* ------------------------------------------------------------------------
 * Columns and output
 */

/** struct column - one column of the table, field of CSV, member of JSON */
struct column {
	char key[64];		/* JSON key and CSV header */
	char header[64];	/* table header */
	const char *nest;	/* JSON object the member goes in, or NULL */
	int item;		/* an item column, or -1 */
	const struct ps_field *ps;	/* a ps field column, or NULL */
	bool right;
};

struct table {
	struct sbuf cells;	/* NUL-terminated cells, row by row, header first */
	size_t *width;
};

struct out {
	enum out_mode mode;
	struct column *cols;
	size_t ncols;
	struct sbuf line;	/* the JSON or CSV line being built */
	size_t col;		/* index of the next field in the row */
	bool first;		/* no member yet in the JSON object */
	const char *nest;	/* open nested JSON object */
	bool nest_first;
	bool header_done;	/* printed (or, for the table, kept) */
	size_t rows;
	struct table tab;
};

static void column_value(const struct column *c, const struct taskdiag_task *t, struct tv *v)
{
	memset(v, 0, offsetof(struct tv, buf));
	if (c->ps)
		c->ps->get(t, c->ps->arg, v);
	else
		item_value(t, c->item, v);
}

static void out_row_begin(struct out *o)
{
	o->col = 0;
	sb_reset(&o->line);
	if (o->mode == OUT_JSON) {
		sb_putc(&o->line, '{');
		o->first = true;
		o->nest = NULL;
	}
}

/* A table cell: kept until the end, when the column widths are known. */
static void table_cell(struct out *o, const char *s, size_t len)
{
	size_t w;

	sb_put(&o->tab.cells, s, len);
	sb_putc(&o->tab.cells, '\0');
	w = text_width(s);
	if (w > o->tab.width[o->col])
		o->tab.width[o->col] = w;
}

/*
 * out_field() - the one print call: @v of column @c as a table cell, a CSV
 * field or a JSON member (left out when absent; members of a group go in
 * the group's object, opened at its first member).
 */
static void out_field(struct out *o, const struct column *c, const struct tv *v)
{
	static struct sbuf text;

	switch (o->mode) {
	case OUT_QUIET:
		break;
	case OUT_TABLE:
		sb_reset(&text);
		tv_text(&text, v, true);
		table_cell(o, text.p, text.len);
		break;
	case OUT_CSV:
		if (o->col)
			sb_putc(&o->line, ',');
		sb_reset(&text);
		tv_text(&text, v, false);
		csv_field(&o->line, text.p ? text.p : "", text.len);
		break;
	case OUT_JSON:
		if (v->kind == TV_NONE)
			break;
		if (o->nest != c->nest && (!o->nest || !c->nest || strcmp(o->nest, c->nest))) {
			if (o->nest)
				sb_putc(&o->line, '}');
			o->nest = NULL;
			if (c->nest) {
				if (!o->first)
					sb_putc(&o->line, ',');
				json_str(&o->line, c->nest, strlen(c->nest));
				sb_puts(&o->line, ":{");
				o->first = false;
				o->nest = c->nest;
				o->nest_first = true;
			}
		}
		if (o->nest ? !o->nest_first : !o->first)
			sb_putc(&o->line, ',');
		if (o->nest)
			o->nest_first = false;
		else
			o->first = false;
		json_str(&o->line, c->key, strlen(c->key));
		sb_putc(&o->line, ':');
		tv_json(&o->line, v);
		break;
	}
	o->col++;
}

static void out_row_end(struct out *o)
{
	switch (o->mode) {
	case OUT_JSON:
		if (o->nest)
			sb_putc(&o->line, '}');
		sb_puts(&o->line, "}\n");
		fwrite(o->line.p, 1, o->line.len, stdout);
		break;
	case OUT_CSV:
		sb_puts(&o->line, "\r\n");
		fwrite(o->line.p, 1, o->line.len, stdout);
		break;
	default:
		break;
	}
}

static void out_header(struct out *o)
{
	size_t i;

	if (o->header_done)
		return;
	o->header_done = true;
	if (o->mode == OUT_TABLE) {
		o->col = 0;
		for (i = 0; i < o->ncols; i++, o->col++)
			table_cell(o, o->cols[i].header, strlen(o->cols[i].header));
	} else if (o->mode == OUT_CSV) {
		sb_reset(&o->line);
		for (i = 0; i < o->ncols; i++) {
			if (i)
				sb_putc(&o->line, ',');
			csv_field(&o->line, o->cols[i].key, strlen(o->cols[i].key));
		}
		sb_puts(&o->line, "\r\n");
		fwrite(o->line.p, 1, o->line.len, stdout);
	}
}

static void out_task(struct out *o, const struct taskdiag_task *t)
{
	struct tv v;
	size_t i;

	out_header(o);
	o->rows++;
	out_row_begin(o);
	for (i = 0; i < o->ncols; i++) {
		column_value(&o->cols[i], t, &v);
		out_field(o, &o->cols[i], &v);
	}
	out_row_end(o);
}

/* The table, aligned: numbers to the right, text to the left, one space apart. */
static void out_flush_table(struct out *o)
{
	const char *p = o->tab.cells.p, *end = p + o->tab.cells.len;
	size_t i;

	if (o->mode != OUT_TABLE || !p)
		return;
	while (p < end) {
		for (i = 0; i < o->ncols; i++) {
			size_t len = strlen(p), pad = o->tab.width[i] - text_width(p);
			bool last = i + 1 == o->ncols;

			if (o->cols[i].right)
				printf("%*s%s", (int)pad, "", p);
			else
				printf("%s%*s", p, last ? 0 : (int)pad, "");
			fputs(last ? "\n" : " ", stdout);
			p += len + 1;
		}
	}
}

/* ------------------------------------------------------------------------
 * Options
 */

struct opts {
	enum taskdiag_scope scope;
	pid_t pid;
	uint32_t groups;	/* -s */
	bool groups_set;
	char *fields;		/* -o */
	enum out_mode mode;
	enum taskdiag_backend backend;
	bool backend_set;
	bool verify;
	const char *dump_raw;
	const char *replay;
	int nscope;
};

static const struct {
	const char *name;
	uint32_t bit;
} group_names[] = {
	{ "base", TASKDIAG_GROUP_BASE },
	{ "stat", TASKDIAG_GROUP_STAT },
	{ "statm", TASKDIAG_GROUP_STATM },
	{ "io", TASKDIAG_GROUP_IO },
	{ "status", TASKDIAG_GROUP_STATUS },
	{ "cred", TASKDIAG_GROUP_CRED },
	{ "cmdline", TASKDIAG_GROUP_CMDLINE },
	{ "all", TASKDIAG_GROUP_ALL },
};

enum {
	OPT_CSV = 256,
	OPT_VERIFY,
	OPT_DUMP_RAW,
	OPT_REPLAY,
};

static const char short_opts[] = ":aAp:t:c:s:o:jqb:hV";
static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "all-threads", no_argument, NULL, 'A' },
	{ "pid", required_argument, NULL, 'p' },
	{ "threads-of", required_argument, NULL, 't' },
	{ "children-of", required_argument, NULL, 'c' },
	{ "show", required_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "quiet", no_argument, NULL, 'q' },
	{ "backend", required_argument, NULL, 'b' },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "dump-raw", required_argument, NULL, OPT_DUMP_RAW },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [OPTIONS]\n"
	      "Dump per-task information from the task_diag kernel module or /proc.\n"
	      "\n"
	      "Tasks (one of):\n"
	      "  -a, --all                every process (default)\n"
	      "  -A, --all-threads        every thread\n"
	      "  -p, --pid PID            the one task PID\n"
	      "  -t, --threads-of PID     the threads of process PID\n"
	      "  -c, --children-of PID    the processes whose parent is PID\n"
	      "\n"
	      "What:\n"
	      "  -s, --show GROUP,...     groups to read: base stat statm io status cred\n"
	      "                           cmdline, or all (default: base,stat,statm,cred);\n"
	      "                           without -o, every field of them is shown\n"
	      "  -o, --output FIELD,...   these columns only: item names (stat.utime, or\n"
	      "                           utime where unique) or ps's (pid ppid user rss vsz\n"
	      "                           stat ni pri nlwp tty time etime comm args ...);\n"
	      "                           -o help lists them all\n"
	      "\n"
	      "Output (default: an aligned table):\n"
	      "  -j, --json               one JSON object per task per line\n"
	      "      --csv                CSV (RFC 4180) with a header line\n"
	      "  -q, --quiet              decode everything, print nothing\n"
	      "\n"
	      "Source:\n"
	      "  -b, --backend B          auto (default), netlink or procfs\n"
	      "      --verify             dump with both backends and report every field\n"
	      "                           that differs (default: -s all)\n"
	      "      --dump-raw FILE      also record the raw netlink replies in FILE\n"
	      "      --replay FILE        decode a recording instead of asking the kernel\n"
	      "\n"
	      "  -h, --help               this text\n"
	      "  -V, --version            the version\n"
	      "\n"
	      "Per interval (%cpu and rates, like pidstat; see the man page):\n"
	      "task_diag_all --interval SEC [--count N] [-A] [-p PID] [-j|--csv] [-b B]\n"
	      "\n"
	      "Exit status: 0 ok, 1 error, 2 bad usage, 3 task_diag module not loaded,\n"
	      "4 permission denied, 5 no such pid, 6 --verify found differences.\n", f);
}

static bool g_json_errors;	/* errors also as JSON objects on stdout */
static bool g_replay;		/* the replies come from a recording */
static char g_usage_err[512];	/* the first bad option, reported after parsing */

static void json_error(const char *msg, int err, const char *extack)
{
	struct sbuf b = { 0 };

	sb_puts(&b, "{\"error\":");
	json_str(&b, msg, strlen(msg));
	sb_printf(&b, ",\"errno\":%d", err < 0 ? -err : err);
	if (extack) {
		sb_puts(&b, ",\"extack\":");
		json_str(&b, extack, strlen(extack));
	}
	sb_puts(&b, "}\n");
	fflush(stdout);
	fwrite(b.p, 1, b.len, stdout);
	fflush(stdout);
	free(b.p);
}

__attribute__((format(printf, 1, 2), noreturn))
static void usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, PROG ": %s\nTry '" PROG " --help' for more information.\n", msg);
	if (g_json_errors)
		json_error(msg, EINVAL, NULL);
	exit(TDA_EXIT_USAGE);
}

/* Note a usage error; parse_args() reports the first once it knows about -j. */
__attribute__((format(printf, 1, 2)))
static void usage_defer(const char *fmt, ...)
{
	va_list ap;

	if (g_usage_err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(g_usage_err, sizeof(g_usage_err), fmt, ap);
	va_end(ap);
}

static int exit_code_of(int err)
{
	switch (-err) {
	case TASKDIAG_ENOMODULE:
		return TDA_EXIT_NOMODULE;
	case EACCES:
	case EPERM:
		return TDA_EXIT_PERM;
	case ESRCH:
		return TDA_EXIT_NOPID;
	default:
		return TDA_EXIT_ERROR;
	}
}

/*
 * Report a library error: one line on stderr, with the kernel's message
 * when there is one (and a JSON object on stdout in JSON mode). Returns the
 * exit code it calls for.
 */
static int report(int err, struct taskdiag *td, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int report(int err, struct taskdiag *td, const char *fmt, ...)
{
	const char *extack = td ? taskdiag_extack(td) : NULL;
	char what[256], msg[640];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (err == -EBADMSG && g_replay)
		snprintf(msg, sizeof(msg), "%s: not a task_diag recording, or a truncated or corrupt one",
			 what);
	else if (err == -TASKDIAG_ENOMODULE)
		snprintf(msg, sizeof(msg), "%s: %s (load it with modprobe task_diag, or use -b procfs)",
			 what, taskdiag_strerror(err));
	else if (extack)
		snprintf(msg, sizeof(msg), "%s: %s (%s%s)", what, taskdiag_strerror(err),
			 taskdiag_get_backend(td) == TASKDIAG_BACKEND_NETLINK ? "kernel: " : "",
			 extack);
	else
		snprintf(msg, sizeof(msg), "%s: %s", what, taskdiag_strerror(err));
	fflush(stdout);
	fprintf(stderr, PROG ": %s\n", msg);
	if (g_json_errors)
		json_error(msg, err, extack);
	return exit_code_of(err);
}

static pid_t parse_pid(const char *opt, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT_MAX) {
		usage_defer("%s: '%s' is not a pid", opt, s);
		return 0;
	}
	return (pid_t)v;
}

static uint32_t parse_groups(const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	uint32_t groups = 0;
	size_t i;

	if (!copy)
		die_nomem();
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		for (i = 0; i < sizeof(group_names) / sizeof(group_names[0]); i++)
			if (!strcmp(tok, group_names[i].name))
				break;
		if (i == sizeof(group_names) / sizeof(group_names[0])) {
			usage_defer("-s: unknown group '%s' (base stat statm io status cred cmdline all)",
				    tok);
			continue;
		}
		groups |= group_names[i].bit;
	}
	free(copy);
	if (!groups)
		usage_defer("-s: no group given");
	return groups;
}

static void set_scope(struct opts *o, enum taskdiag_scope scope, pid_t pid)
{
	if (o->nscope++ && (o->scope != scope || o->pid != pid))
		usage_defer("-a, -A, -p, -t and -c are exclusive");
	o->scope = scope;
	o->pid = pid;
}

/* The option as it was written: "--pid" or "-p". */
static void bad_option(const char *what, char **argv, int c)
{
	const char *arg = argv[optind - 1];

	if (!strncmp(arg, "--", 2)) {
		size_t n = strcspn(arg, "=");

		usage_defer("%s %.*s", what, (int)n, arg);
	} else if (c > 0 && c < 256) {
		usage_defer("%s -%c", what, c);
	} else {
		usage_defer("%s %s", what, arg);
	}
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->scope = TASKDIAG_SCOPE_ALL_PROCESSES;
	o->groups = DEFAULT_GROUPS;
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			set_scope(o, TASKDIAG_SCOPE_ALL_PROCESSES, 0);
			break;
		case 'A':
			set_scope(o, TASKDIAG_SCOPE_ALL_THREADS, 0);
			break;
		case 'p':
			set_scope(o, TASKDIAG_SCOPE_TASK, parse_pid("-p", optarg));
			break;
		case 't':
			set_scope(o, TASKDIAG_SCOPE_THREADS, parse_pid("-t", optarg));
			break;
		case 'c':
			set_scope(o, TASKDIAG_SCOPE_CHILDREN, parse_pid("-c", optarg));
			break;
		case 's':
			o->groups = (o->groups_set ? o->groups : 0) | parse_groups(optarg);
			o->groups_set = true;
			break;
		case 'o':
			free(o->fields);
			o->fields = strdup(optarg);
			if (!o->fields)
				die_nomem();
			break;
		case 'j':
			o->mode = OUT_JSON;
			break;
		case OPT_CSV:
			o->mode = OUT_CSV;
			break;
		case 'q':
			o->mode = OUT_QUIET;
			break;
		case 'b':
			if (!strcmp(optarg, "auto"))
				o->backend = TASKDIAG_BACKEND_AUTO;
			else if (!strcmp(optarg, "netlink"))
				o->backend = TASKDIAG_BACKEND_NETLINK;
			else if (!strcmp(optarg, "procfs"))
				o->backend = TASKDIAG_BACKEND_PROCFS;
			else
				usage_defer("-b: unknown backend '%s' (auto, netlink or procfs)", optarg);
			o->backend_set = true;
			break;
		case OPT_VERIFY:
			o->verify = true;
			break;
		case OPT_DUMP_RAW:
			o->dump_raw = optarg;
			break;
		case OPT_REPLAY:
			o->replay = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(TDA_EXIT_OK);
		case 'V':
			printf(PROG " %s (libtaskdiag)\n", TDA_VERSION);
			exit(TDA_EXIT_OK);
		case ':':
			bad_option("missing argument to", argv, optopt);
			break;
		default:
			bad_option("unknown option", argv, optopt);
			break;
		}
	}
	g_json_errors = o->mode == OUT_JSON;
	if (g_usage_err[0])
		usage_error("%s", g_usage_err);
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (o->dump_raw && !strcmp(o->dump_raw, "-"))
		usage_error("--dump-raw needs a file, not standard output");
	if (o->replay && (o->backend_set || o->verify || o->dump_raw || o->nscope))
		usage_error("--replay replays what was recorded: no -a/-A/-p/-t/-c, -b, --verify "
			    "or --dump-raw with it");
	if (o->verify && (o->backend_set || o->dump_raw))
		usage_error("--verify reads both backends: no -b or --dump-raw with it");
	if (o->dump_raw && o->backend == TASKDIAG_BACKEND_PROCFS)
		usage_error("--dump-raw records netlink replies: not with -b procfs");
	if (o->verify && o->mode == OUT_CSV)
		usage_error("--verify reports as text or JSON, not CSV");
}

/* ------------------------------------------------------------------------
 * Column lists
 */

static void add_column(struct out *o, const struct column *c)
{
	o->cols = realloc(o->cols, (o->ncols + 1) * sizeof(*o->cols));
	if (!o->cols)
		die_nomem();
	o->cols[o->ncols++] = *c;
}

static void upcase(char *dst, size_t len, const char *src)
{
	size_t i;

	for (i = 0; i + 1 < len && src[i]; i++)
		dst[i] = (src[i] >= 'a' && src[i] <= 'z') ? (char)(src[i] - 'a' + 'A') : src[i];
	dst[i] = '\0';
}

static bool item_right(int item)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);

	return (info->type == TASKDIAG_TYPE_U64 || info->type == TASKDIAG_TYPE_S64) &&
	       info->unit != TASKDIAG_UNIT_CHAR;
}

/* Every item of @groups: JSON nests them by group, CSV says "group.name". */
static void columns_of_groups(struct out *o, uint32_t groups)
{
	int i;

	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *info = taskdiag_item_info(i);
		struct column c = { .item = i };

		if (info->group && !(info->group & groups))
			continue;
		item_qname(i, c.key, sizeof(c.key));
		upcase(c.header, sizeof(c.header), info->name);
		if (info->group && info->group != TASKDIAG_GROUP_CMDLINE) {
			/* JSON: the bare name inside the group's object. */
			snprintf(c.key, sizeof(c.key), "%s", info->name);
			c.nest = info->group_name;
		}
		c.right = item_right(i);
		add_column(o, &c);
	}
}

/* The CSV header of a group column is its qualified name. */
static void csv_keys_qualified(struct out *o)
{
	size_t i;

	for (i = 0; i < o->ncols; i++)
		if (o->cols[i].nest)
			item_qname(o->cols[i].item, o->cols[i].key, sizeof(o->cols[i].key));
}

static void list_fields(void)
{
	static const char *const units[] = {
		[TASKDIAG_UNIT_COUNT] = "count", [TASKDIAG_UNIT_BYTES] = "bytes",
		[TASKDIAG_UNIT_NANOSECONDS] = "ns", [TASKDIAG_UNIT_PID] = "pid",
		[TASKDIAG_UNIT_ID] = "id", [TASKDIAG_UNIT_ADDRESS] = "address",
		[TASKDIAG_UNIT_MASK] = "mask", [TASKDIAG_UNIT_BITMAP] = "bitmap",
		[TASKDIAG_UNIT_CHAR] = "letter", [TASKDIAG_UNIT_TEXT] = "text",
		[TASKDIAG_UNIT_VALUE] = "value",
	};
	size_t i;
	int it;

	printf("ps fields:\n");
	for (i = 0; i < sizeof(ps_fields) / sizeof(ps_fields[0]); i++)
		printf("  %-22s %-8s %s\n", ps_fields[i].name, ps_fields[i].header, ps_fields[i].help);
	printf("items (group.name, or name where unique; units of the ABI):\n");
	for (it = 0; it < TASKDIAG_ITEM__COUNT; it++) {
		const struct taskdiag_item_info *info = taskdiag_item_info(it);
		char q[64];

		item_qname(it, q, sizeof(q));
		printf("  %-30s %s\n", q, info->unit < sizeof(units) / sizeof(units[0]) &&
		       units[info->unit] ? units[info->unit] : "?");
	}
}

/* -o: ps fields first, then item names; returns the groups they need. */
static uint32_t columns_of_fields(struct out *o, const char *list)
{
	char *copy = strdup(list), *tok, *save = NULL;
	uint32_t groups = 0;
	size_t i;

	if (!copy)
		die_nomem();
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		const struct ps_field *ps = ps_field_find(tok);
		struct column c = { .item = -1 };
		char bad[64];
		int item;

		snprintf(bad, sizeof(bad), "%s", tok);
		if (!strcmp(tok, "help")) {
			list_fields();
			exit(TDA_EXIT_OK);
		}
		if (strlen(tok) >= sizeof(c.key))
			usage_error("-o: unknown field '%s'", bad);
		for (i = 0; i < o->ncols; i++)
			if (!strcmp(o->cols[i].key, tok))
				usage_error("-o: field '%s' given twice", bad);
		snprintf(c.key, sizeof(c.key), "%s", tok);
		if (ps) {
			c.ps = ps;
			snprintf(c.header, sizeof(c.header), "%s", ps->header);
			c.right = ps->right;
			groups |= ps->groups;
		} else {
			item = taskdiag_item_lookup(tok);
			if (item == -EEXIST)
				usage_error("-o: '%s' names several items: say group.%s", bad, bad);
			if (item < 0)
				usage_error("-o: unknown field '%s' (-o help lists them)", bad);
			c.item = item;
			upcase(c.header, sizeof(c.header), tok);
			c.right = item_right(item);
			groups |= taskdiag_item_info(item)->group;
		}
		add_column(o, &c);
	}
	free(copy);
	if (!o->ncols)
		usage_error("-o: no field given");
	return groups;
}

/* ------------------------------------------------------------------------
 * Dump
 */

static int open_file(const char *path, bool write)
{
	int fd;

	if (!strcmp(path, "-"))
		return write ? STDOUT_FILENO : STDIN_FILENO;
	fd = write ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
		   : open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static const char *scope_what(const struct taskdiag_request *req, char *buf, size_t len)
{
	switch (req->scope) {
	case TASKDIAG_SCOPE_TASK:
		snprintf(buf, len, "pid %d", (int)req->pid);
		break;
	case TASKDIAG_SCOPE_THREADS:
		snprintf(buf, len, "threads of pid %d", (int)req->pid);
		break;
	case TASKDIAG_SCOPE_CHILDREN:
		snprintf(buf, len, "children of pid %d", (int)req->pid);
		break;
	case TASKDIAG_SCOPE_ALL_THREADS:
		snprintf(buf, len, "all threads");
		break;
	default:
		snprintf(buf, len, "all processes");
		break;
	}
	return buf;
}

static int run_dump(struct out *o, struct taskdiag *td, const struct taskdiag_request *req,
		    const char *replay)
{
	const struct taskdiag_task *t;
	struct taskdiag_iter *it;
	char what[64];
	int ret;

	ret = taskdiag_iter_start(td, req, &it);
	if (!ret) {
		while ((ret = taskdiag_iter_next(it, &t)) == 1) {
			if (o->mode == OUT_QUIET) {
				struct tv v;
				size_t i;

				for (i = 0; i < o->ncols; i++)
					column_value(&o->cols[i], t, &v);
			} else {
				out_task(o, t);
			}
		}
		taskdiag_iter_end(it);
	}
	/* A header for an empty result, none before an error alone. */
	if (ret >= 0)
		out_header(o);
	out_flush_table(o);
	if (ret < 0 && replay)
		return report(ret, td, "%s (replay of %s)", scope_what(req, what, sizeof(what)), replay);
	if (ret < 0)
		return report(ret, td, "%s", scope_what(req, what, sizeof(what)));
	return TDA_EXIT_OK;
}

/* ------------------------------------------------------------------------
 * --verify
 */

/* A copy of one record: the values of the items asked for. */
struct snap {
	pid_t pid, tgid;
	struct raw v[TASKDIAG_ITEM__COUNT];
};

struct snapset {
	struct snap **t;	/* ascending pid */
	size_t n, cap;
};

static void snapset_free(struct snapset *s)
{
	size_t i;
	int it;

	for (i = 0; i < s->n; i++) {
		for (it = 0; it < TASKDIAG_ITEM__COUNT; it++)
			free((void *)s->t[i]->v[it].p);
		free(s->t[i]);
	}
	free(s->t);
	memset(s, 0, sizeof(*s));
}

static const struct snap *snapset_find(const struct snapset *s, pid_t pid)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->t[mid]->pid == pid)
			return s->t[mid];
		if (s->t[mid]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Dump @req into @s; ESRCH (the pid is gone) leaves it empty when @gone_ok. */
static int snapshot(struct taskdiag *td, const struct taskdiag_request *req, struct snapset *s,
		    bool gone_ok)
{
	const struct taskdiag_task *t;
	struct taskdiag_iter *it;
	int ret, i;

	ret = taskdiag_iter_start(td, req, &it);
	if (ret)
		return gone_ok && ret == -ESRCH ? 0 : ret;
	while ((ret = taskdiag_iter_next(it, &t)) == 1) {
		struct snap *sn = calloc(1, sizeof(*sn));

		if (!sn)
			die_nomem();
		sn->pid = taskdiag_task_pid(t);
		sn->tgid = taskdiag_task_tgid(t);
		for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
			struct raw *r = &sn->v[i];

			raw_get(t, i, r);
			if (r->present && r->p) {
				void *copy = malloc(r->len + 1);

				if (!copy)
					die_nomem();
				memcpy(copy, r->p, r->len);
				((char *)copy)[r->len] = '\0';
				r->p = copy;
			}
		}
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 256;
			s->t = realloc(s->t, s->cap * sizeof(*s->t));
			if (!s->t)
				die_nomem();
		}
		if (s->n && s->t[s->n - 1]->pid >= sn->pid) {
			free(sn);	/* not ascending: the libraries promise it */
			ret = -EBADMSG;
			break;
		}
		s->t[s->n++] = sn;
	}
	taskdiag_iter_end(it);
	if (ret == -ESRCH && gone_ok)
		ret = 0;
	return ret < 0 ? ret : 0;
}

struct verify {
	struct taskdiag *pf, *nl;
	struct out *o;
	uint32_t groups;
	pid_t self;
	size_t tasks, diffs;
};

static bool is_time(int item)
{
	return taskdiag_item_info(item)->unit == TASKDIAG_UNIT_NANOSECONDS;
}

/* Guarded stat fields: procfs prints 0 (1 for start/end_code) to whom it refuses. */
static bool is_guard_placeholder(int item, const struct raw *r)
{
	switch (item) {
	case TASKDIAG_ITEM_STAT_START_CODE:
	case TASKDIAG_ITEM_STAT_END_CODE:
		return r->u <= 1;
	case TASKDIAG_ITEM_STAT_START_STACK:
	case TASKDIAG_ITEM_STAT_KSTK_ESP:
	case TASKDIAG_ITEM_STAT_KSTK_EIP:
	case TASKDIAG_ITEM_STAT_WCHAN:
	case TASKDIAG_ITEM_STAT_START_DATA:
	case TASKDIAG_ITEM_STAT_END_DATA:
	case TASKDIAG_ITEM_STAT_START_BRK:
	case TASKDIAG_ITEM_STAT_ARG_START:
	case TASKDIAG_ITEM_STAT_ARG_END:
	case TASKDIAG_ITEM_STAT_ENV_START:
	case TASKDIAG_ITEM_STAT_ENV_END:
		return r->u == 0;
	case TASKDIAG_ITEM_STAT_EXIT_CODE:
		return r->s == 0;
	default:
		return false;
	}
}

static size_t words_trimmed(const struct raw *r)
{
	size_t n = r->len / 4;

	while (n && !word_at(r->p, n - 1))
		n--;
	return n;
}

static bool mem_eq(const void *a, const void *b, size_t n)
{
	return !n || !memcmp(a, b, n);
}

/* Does netlink's @n agree with procfs's reading @p (the module's caps applied)? */
static bool same_value(int item, const struct raw *n, const struct raw *p, uint64_t nflags)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);
	size_t len;

	switch (info->type) {
	case TASKDIAG_TYPE_U64:
		return n->u == p->u;
	case TASKDIAG_TYPE_S64:
		return n->s == p->s;
	case TASKDIAG_TYPE_STRING:
		if (n->len == p->len && mem_eq(n->p, p->p, n->len))
			return true;
		/* procfs shows a kernel thread's full name, a worker's queue. */
		return (nflags & PF_KTHREAD) && p->len > n->len && mem_eq(n->p, p->p, n->len);
	case TASKDIAG_TYPE_BYTES:
		len = p->len > CMDLINE_CAP ? CMDLINE_CAP : p->len;
		return n->len == len && mem_eq(n->p, p->p, len);
	case TASKDIAG_TYPE_U32_ARRAY:
		if (item == TASKDIAG_ITEM_CRED_GROUPS) {
			len = p->len > 4 * GROUPS_CAP ? 4 * GROUPS_CAP : p->len;
			return n->len == len && mem_eq(n->p, p->p, len);
		}
		len = words_trimmed(n);
		return len == words_trimmed(p) && mem_eq(n->p, p->p, 4 * len);
	}
	return false;
}

/*
 * One item of one task, netlink's @n against procfs's @a (before) and @b
 * (after): equal to either, or, for numbers, between them (times compared
 * at clock-tick granularity); see docs/fields.md for the known differences
 * accepted here.
 */
static bool item_agrees(int item, const struct raw *a, const struct raw *n, const struct raw *b,
			uint64_t nflags)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);
	const struct raw *one = a->present ? a : b;

	if (!n->present) {
		if (!a->present && !b->present)
			return true;
		if (a->present != b->present)
			return true;	/* appeared or vanished meanwhile */
		/* procfs cannot always tell that it refused the guarded fields. */
		return is_guard_placeholder(item, a) && is_guard_placeholder(item, b);
	}
	if (!a->present && !b->present)
		/* procfs reads an empty cmdline as none. */
		return item == TASKDIAG_ITEM_CMDLINE && n->len == 0;
	if (item == TASKDIAG_ITEM_STAT_KSTK_ESP || item == TASKDIAG_ITEM_STAT_KSTK_EIP)
		return n->u == 0 || same_value(item, n, one, nflags);
	if (info->type == TASKDIAG_TYPE_U64 && is_time(item)) {
		struct raw fl = *n;

		fl.u = n->u / g_tick_ns * g_tick_ns;
		n = &fl;
		if ((a->present && fl.u == a->u) || (b->present && fl.u == b->u))
			return true;
		return a->present && b->present && fl.u >= (a->u < b->u ? a->u : b->u) &&
		       fl.u <= (a->u > b->u ? a->u : b->u);
	}
	if ((a->present && same_value(item, n, a, nflags)) ||
	    (b->present && same_value(item, n, b, nflags)))
		return true;
	if (!a->present || !b->present || info->unit == TASKDIAG_UNIT_CHAR)
		return false;
	if (info->type == TASKDIAG_TYPE_U64)
		return n->u >= (a->u < b->u ? a->u : b->u) && n->u <= (a->u > b->u ? a->u : b->u);
	if (info->type == TASKDIAG_TYPE_S64)
		return n->s >= (a->s < b->s ? a->s : b->s) && n->s <= (a->s > b->s ? a->s : b->s);
	return false;
}

static void verify_emit(struct verify *vf, pid_t pid, const char *field, const struct raw *a,
			const struct raw *n, const struct raw *b, int item, const char *why)
{
	static struct sbuf line, t1, t2, t3;
	const struct raw none = { 0 };
	struct tv va, vn, vb;

	if (vf->o->mode == OUT_QUIET)
		return;
	if (item < 0) {
		a = n = b = &none;
		item = TASKDIAG_ITEM_PID;
	}
	tv_of_raw(item, a, &va);
	tv_of_raw(item, n, &vn);
	tv_of_raw(item, b, &vb);
	sb_reset(&line);
	if (vf->o->mode == OUT_JSON) {
		sb_printf(&line, "{\"pid\":%d,\"field\":", (int)pid);
		json_str(&line, field, strlen(field));
		sb_puts(&line, ",\"netlink\":");
		tv_json(&line, &vn);
		sb_puts(&line, ",\"procfs\":[");
		tv_json(&line, &va);
		sb_putc(&line, ',');
		tv_json(&line, &vb);
		sb_puts(&line, "]");
		if (why) {
			sb_puts(&line, ",\"why\":");
			json_str(&line, why, strlen(why));
		}
		sb_puts(&line, "}\n");
	} else if (why) {
		sb_printf(&line, "%d %s: %s\n", (int)pid, field, why);
	} else {
		sb_reset(&t1);
		sb_reset(&t2);
		sb_reset(&t3);
		tv_text(&t1, &vn, true);
		tv_text(&t2, &va, true);
		tv_text(&t3, &vb, true);
		sb_printf(&line, "%d %s: netlink %s, procfs %s then %s\n", (int)pid, field, t1.p,
			  t2.p, t3.p);
	}
	fwrite(line.p, 1, line.len, stdout);
}

/* Compare one task (count its differences; print them if @emit). */
static size_t verify_task(struct verify *vf, pid_t pid, const struct snapset *A,
			  const struct snapset *N, const struct snapset *B, bool emit)
{
	const struct snap *a = snapset_find(A, pid), *n = snapset_find(N, pid),
			  *b = snapset_find(B, pid);
	uint64_t nflags = 0;
	size_t diffs = 0;
	int i;

	if (!n) {
		if (!a || !b)
			return 0;	/* not alive throughout: nothing to say */
		if (emit)
			verify_emit(vf, pid, "task", NULL, NULL, NULL, -1,
				    "alive before and after, but missing from the netlink dump");
		return 1;
	}
	if (!a && !b) {
		if (emit)
			verify_emit(vf, pid, "task", NULL, NULL, NULL, -1,
				    "in the netlink dump, but in neither procfs reading");
		return 1;
	}
	if (!a || !b)
		return 0;	/* started or exited meanwhile */
	if (n->v[TASKDIAG_ITEM_BASE_FLAGS].present)
		nflags = n->v[TASKDIAG_ITEM_BASE_FLAGS].u;
	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *info = taskdiag_item_info(i);
		char q[64];

		if (info->group && !(info->group & vf->groups))
			continue;
		if (item_agrees(i, &a->v[i], &n->v[i], &b->v[i], nflags))
			continue;
		diffs++;
		if (emit) {
			item_qname(i, q, sizeof(q));
			verify_emit(vf, pid, q, &a->v[i], &n->v[i], &b->v[i], i, NULL);
		}
	}
	return diffs;
}

/* procfs, netlink, procfs: the netlink reading is bracketed by two of /proc. */
static int verify_read(struct verify *vf, const struct taskdiag_request *req, struct snapset *A,
		       struct snapset *N, struct snapset *B, bool gone_ok)
{
	int err;

	err = snapshot(vf->pf, req, A, gone_ok);
	if (err)
		return report(err, vf->pf, "verify: procfs");
	err = snapshot(vf->nl, req, N, gone_ok);
	if (err)
		return report(err, vf->nl, "verify: netlink");
	err = snapshot(vf->pf, req, B, gone_ok);
	if (err)
		return report(err, vf->pf, "verify: procfs");
	return 0;
}

/*
 * Compare the whole scope once; then every task that differs is read again,
 * alone (its own process, or its process's threads), up to VERIFY_RETRIES
 * times, so that only differences that persist are reported: values that
 * move while they are read (a counter, a state) agree on a narrower reading.
 */
static int run_verify(struct verify *vf, const struct taskdiag_request *req)
{
	struct snapset A = { 0 }, N = { 0 }, B = { 0 };
	pid_t *pids = NULL;
	size_t npids = 0, i, j, k;
	int ret;

	ret = verify_read(vf, req, &A, &N, &B, false);
	if (ret)
		goto out;
	/* Every pid of any reading, in order (the three are sorted). */
	pids = malloc((A.n + N.n + B.n + 1) * sizeof(*pids));
	if (!pids)
		die_nomem();
	for (i = j = k = 0; i < A.n || j < N.n || k < B.n;) {
		pid_t p = INT_MAX;

		if (i < A.n && A.t[i]->pid < p)
			p = A.t[i]->pid;
		if (j < N.n && N.t[j]->pid < p)
			p = N.t[j]->pid;
		if (k < B.n && B.t[k]->pid < p)
			p = B.t[k]->pid;
		i += i < A.n && A.t[i]->pid == p;
		j += j < N.n && N.t[j]->pid == p;
		k += k < B.n && B.t[k]->pid == p;
		pids[npids++] = p;
	}
	for (i = 0; i < npids; i++) {
		const struct snap *any = snapset_find(&N, pids[i]);
		struct snapset A2 = { 0 }, N2 = { 0 }, B2 = { 0 };
		struct taskdiag_request r = { .groups = req->groups };
		size_t d;
		int tries;

		if (!any)
			any = snapset_find(&A, pids[i]);
		if (!any)
			any = snapset_find(&B, pids[i]);
		if (any->tgid == vf->self)
			continue;	/* this program: its values move as it runs */
		d = verify_task(vf, pids[i], &A, &N, &B, false);
		if (!d) {
			vf->tasks += snapset_find(&N, pids[i]) != NULL;
			continue;
		}
		if (req->scope == TASKDIAG_SCOPE_ALL_THREADS || req->scope == TASKDIAG_SCOPE_THREADS) {
			r.scope = TASKDIAG_SCOPE_THREADS;
			r.pid = any->tgid;
		} else {
			r.scope = TASKDIAG_SCOPE_TASK;
			r.pid = pids[i];
		}
		for (tries = 0; tries < VERIFY_RETRIES && d; tries++) {
			snapset_free(&A2);
			snapset_free(&N2);
			snapset_free(&B2);
			ret = verify_read(vf, &r, &A2, &N2, &B2, true);
			if (ret)
				goto out;
			d = verify_task(vf, pids[i], &A2, &N2, &B2, false);
		}
		if (d) {
			vf->diffs += verify_task(vf, pids[i], &A2, &N2, &B2, true);
			vf->tasks++;
		} else {
			vf->tasks += snapset_find(&N2, pids[i]) != NULL;
		}
		snapset_free(&A2);
		snapset_free(&N2);
		snapset_free(&B2);
	}
	fflush(stdout);
	fprintf(stderr, PROG ": verify: %zu tasks compared, %zu difference%s\n", vf->tasks,
		vf->diffs, vf->diffs == 1 ? "" : "s");
	ret = vf->diffs ? TDA_EXIT_DIFF : TDA_EXIT_OK;
out:
	free(pids);
	snapset_free(&A);
	snapset_free(&N);
	snapset_free(&B);
	return ret;
}

/* ------------------------------------------------------------------------
 * main
 */

static int finish(int ret)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": writing the output: %s\n", strerror(errno ? errno : EIO));
		return ret ? ret : TDA_EXIT_ERROR;
	}
	return ret;
}

int main(int argc, char **argv)
{
	struct taskdiag_request req = { 0 };
	struct out o = { 0 };
	struct opts opt;
	struct taskdiag *td = NULL;
	uint32_t need = 0;
	long hz;
	int ret, fd = -1;

	if (tda_interval_wanted(argc, argv))
		return tda_interval_main(argc, argv);
	parse_args(argc, argv, &opt);
	hz = sysconf(_SC_CLK_TCK);
	if (hz > 0) {
		g_hz = (uint64_t)hz;
		g_tick_ns = 1000000000u / g_hz;
	}
	o.mode = opt.mode;
	if (opt.fields)
		need = columns_of_fields(&o, opt.fields);

	req.scope = opt.scope;
	req.pid = opt.pid;

	if (opt.verify) {
		struct verify vf = { .o = &o, .self = getpid() };

		req.groups = opt.groups_set || opt.fields ? (opt.groups_set ? opt.groups : 0) | need
							  : TASKDIAG_GROUP_ALL;
		vf.groups = req.groups;
		ret = taskdiag_open(&vf.nl, TASKDIAG_BACKEND_NETLINK);
		if (ret)
			return finish(report(ret, NULL, "verify needs the netlink backend"));
		ret = taskdiag_open(&vf.pf, TASKDIAG_BACKEND_PROCFS);
		if (ret) {
			taskdiag_close(vf.nl);
			return finish(report(ret, NULL, "procfs backend"));
		}
		ret = run_verify(&vf, &req);
		taskdiag_close(vf.nl);
		taskdiag_close(vf.pf);
		return finish(ret);
	}

	if (opt.replay) {
		struct taskdiag_request rec;

		fd = open_file(opt.replay, false);
		if (fd < 0)
			return finish(report(fd, NULL, "--replay %s", opt.replay));
		g_replay = true;
		ret = taskdiag_open_replay(&td, fd);
		if (!ret)
			ret = taskdiag_replay_request(td, &rec);
		if (ret) {
			ret = report(ret == -ENODATA ? -EBADMSG : ret, NULL, "--replay %s", opt.replay);
			goto out;
		}
		req = rec;
		/* Columns for what was recorded, unless asked otherwise. */
		if (!opt.groups_set)
			opt.groups = rec.groups;
	} else {
		enum taskdiag_backend b = opt.dump_raw ? TASKDIAG_BACKEND_NETLINK : opt.backend;

		ret = taskdiag_open(&td, b);
		if (ret) {
			ret = report(ret, NULL, "%s backend", b == TASKDIAG_BACKEND_NETLINK ? "netlink" :
				     b == TASKDIAG_BACKEND_PROCFS ? "procfs" : "opening the");
			goto out;
		}
		if (opt.dump_raw) {
			fd = open_file(opt.dump_raw, true);
			if (fd < 0) {
				ret = report(fd, NULL, "--dump-raw %s", opt.dump_raw);
				goto out;
			}
			ret = taskdiag_set_record(td, fd);
			if (ret) {
				ret = report(ret, NULL, "--dump-raw %s", opt.dump_raw);
				goto out;
			}
		}
	}

	if (opt.fields) {
		req.groups = (opt.groups_set ? opt.groups : 0) | need;
	} else {
		req.groups = opt.groups;
		columns_of_groups(&o, opt.groups);
		if (o.mode == OUT_CSV)
			csv_keys_qualified(&o);
	}
	o.tab.width = calloc(o.ncols, sizeof(*o.tab.width));
	if (!o.tab.width)
		die_nomem();
	ret = run_dump(&o, td, &req, opt.replay);
out:
	taskdiag_close(td);
	if (fd > STDERR_FILENO && close(fd) && opt.dump_raw && !ret)
		ret = report(-errno, NULL, "--dump-raw %s", opt.dump_raw);
	free(o.cols);
	free(o.tab.width);
	free(o.tab.cells.p);
	free(o.line.p);
	free(opt.fields);
	return finish(ret);
}
