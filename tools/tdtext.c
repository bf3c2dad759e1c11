// SPDX-License-Identifier: GPL-2.0
/*
 * The tools' text buffer, and their one writer of JSON strings and CSV
 * fields.
 */
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tdtext.h"

const char *td_prog = "task_diag";

void td_nomem(void)
{
	fprintf(stderr, "%s: out of memory\n", td_prog);
	exit(1);
}

static void reserve(struct tdbuf *b, size_t more)
{
	size_t need = b->len + more + 1;
	char *p;

	if (need <= b->cap)
		return;
	if (need < 2 * b->cap)
		need = 2 * b->cap;
	if (need < 128)
		need = 128;
	p = realloc(b->p, need);
	if (!p)
		td_nomem();
	b->p = p;
	b->cap = need;
}

void tdbuf_clear(struct tdbuf *b)
{
	reserve(b, 0);
	b->len = 0;
	b->p[0] = '\0';
}

void tdbuf_add(struct tdbuf *b, const void *s, size_t n)
{
	reserve(b, n);
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

void tdbuf_addc(struct tdbuf *b, char c)
{
	reserve(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = '\0';
}

void tdbuf_puts(struct tdbuf *b, const char *s)
{
	tdbuf_add(b, s, strlen(s));
}

void tdbuf_addf(struct tdbuf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	reserve(b, 32);
	room = b->cap - b->len;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, room, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->p[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		/* seldom: the buffer was too small; once more with room */
		reserve(b, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

void td_pid_set_add(pid_t **v, size_t *n, pid_t x)
{
	size_t i;

	for (i = 0; i < *n && (*v)[i] < x; i++)
		;
	if (i < *n && (*v)[i] == x)
		return;
	*v = realloc(*v, (*n + 1) * sizeof(**v));
	if (!*v)
		td_nomem();
	memmove(*v + i + 1, *v + i, (*n - i) * sizeof(**v));
	(*v)[i] = x;
	(*n)++;
}

void tdbuf_free(struct tdbuf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

void tdbuf_addu(struct tdbuf *b, uint64_t v)
{
	char d[20];
	size_t n = 0;

	do {
		d[sizeof(d) - ++n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	tdbuf_add(b, d + sizeof(d) - n, n);
}

void tdbuf_addu_w(struct tdbuf *b, uint64_t v, size_t width)
{
	uint64_t x = v;
	size_t digits = 1;

	while (x >= 10) {
		x /= 10;
		digits++;
	}
	if (width > digits)
		tdbuf_pad(b, ' ', width - digits);
	tdbuf_addu(b, v);
}

void tdbuf_addi(struct tdbuf *b, int64_t v)
{
	if (v < 0) {
		tdbuf_addc(b, '-');
		tdbuf_addu(b, -(uint64_t)v);
	} else {
		tdbuf_addu(b, (uint64_t)v);
	}
}

void tdbuf_add02(struct tdbuf *b, unsigned int v)
{
	if (v >= 100) {
		tdbuf_addu(b, v);
		return;
	}
	reserve(b, 2);
	b->p[b->len++] = (char)('0' + v / 10);
	b->p[b->len++] = (char)('0' + v % 10);
	b->p[b->len] = '\0';
}

void tdbuf_pad(struct tdbuf *b, char c, size_t n)
{
	reserve(b, n);
	memset(b->p + b->len, c, n);
	b->len += n;
	b->p[b->len] = '\0';
}

size_t td_utf8_next(const unsigned char *p, size_t n, bool *ok)
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

/* The short escapes of JSON, 0 for characters without one. */
static char json_short(unsigned char c)
{
	switch (c) {
	case '"':
		return '"';
	case '\\':
		return '\\';
	case '\b':
		return 'b';
	case '\f':
		return 'f';
	case '\n':
		return 'n';
	case '\r':
		return 'r';
	case '\t':
		return 't';
	default:
		return 0;
	}
}

/*
 * C1 controls and U+2028/U+2029 are escaped too, so that no reader that
 * splits lines at Unicode line breaks cuts an object in two.
 */
void td_json_str(struct tdbuf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	tdbuf_addc(b, '"');
	while (i < n) {
		bool ok;
		size_t len = td_utf8_next(p + i, n - i, &ok);

		if (!ok) {
			tdbuf_puts(b, "\\ufffd");
		} else if (len == 1 && (p[i] < 0x20 || p[i] == 0x7f || p[i] == '"' ||
					p[i] == '\\')) {
			char e = json_short(p[i]);

			if (e) {
				tdbuf_addc(b, '\\');
				tdbuf_addc(b, e);
			} else {
				tdbuf_addf(b, "\\u%04x", p[i]);
			}
		} else if (len == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) {
			tdbuf_addf(b, "\\u%04x", p[i + 1]);
		} else if (len == 3 && p[i] == 0xe2 && p[i + 1] == 0x80 &&
			   (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
			tdbuf_addf(b, "\\u%04x", 0x2000 + (p[i + 2] - 0x80));
		} else {
			tdbuf_add(b, p + i, len);
		}
		i += len;
	}
	tdbuf_addc(b, '"');
}

/* Quoted if it holds a comma, a quote, CR or LF; quotes doubled. */
void td_csv_field(struct tdbuf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	bool quote = memchr(s, ',', n) || memchr(s, '"', n) || memchr(s, '\r', n) ||
		     memchr(s, '\n', n);
	size_t i = 0;

	if (quote)
		tdbuf_addc(b, '"');
	while (i < n) {
		bool ok;
		size_t len = td_utf8_next(p + i, n - i, &ok);

		if (!ok)
			tdbuf_puts(b, "\xef\xbf\xbd");
		else if (p[i] == '"')
			tdbuf_add(b, "\"\"", 2);
		else
			tdbuf_add(b, p + i, len);
		i += len;
	}
	if (quote)
		tdbuf_addc(b, '"');
}

/*
 * User and group names: getpwuid() and getgrgid() read files (or ask
 * NSS), and every row needs one. An open-addressing table, grown at half
 * full; names are strdup'd, so a returned pointer stays valid until
 * td_id_cache_free().
 */
struct td_id_ent {
	uint32_t id;
	bool group, used;
	char *label;		/* the name, or the decimal number */
};

static struct td_id_ent *id_tab;
static size_t id_tab_len, id_tab_cap;

static struct td_id_ent *id_slot(struct td_id_ent *tab, size_t cap, uint32_t id, bool group)
{
	size_t i = ((size_t)id * 2654435761u + group) & (cap - 1);

	while (tab[i].used && (tab[i].id != id || tab[i].group != group))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static void id_tab_grow(void)
{
	size_t cap = id_tab_cap ? 2 * id_tab_cap : 64, i;
	struct td_id_ent *tab = calloc(cap, sizeof(*tab));

	if (!tab)
		td_nomem();
	for (i = 0; i < id_tab_cap; i++)
		if (id_tab[i].used)
			*id_slot(tab, cap, id_tab[i].id, id_tab[i].group) = id_tab[i];
	free(id_tab);
	id_tab = tab;
	id_tab_cap = cap;
}

const char *td_id_label(uint32_t id, bool group)
{
	struct td_id_ent *e;
	const char *name = NULL;
	char num[16];

	if (id_tab_cap) {
		e = id_slot(id_tab, id_tab_cap, id, group);
		if (e->used)
			return e->label;
	}
	if (group) {
		struct group *gr = getgrgid(id);

		name = gr ? gr->gr_name : NULL;
	} else {
		struct passwd *pw = getpwuid(id);

		name = pw ? pw->pw_name : NULL;
	}
	if (!name) {
		snprintf(num, sizeof(num), "%" PRIu32, id);
		name = num;
	}
	if (2 * (id_tab_len + 1) > id_tab_cap)
		id_tab_grow();
	e = id_slot(id_tab, id_tab_cap, id, group);
	e->label = strdup(name);
	if (!e->label)
		td_nomem();
	e->id = id;
	e->group = group;
	e->used = true;
	id_tab_len++;
	return e->label;
}

void td_id_cache_free(void)
{
	size_t i;

	for (i = 0; i < id_tab_cap; i++)
		free(id_tab[i].label);
	free(id_tab);
	id_tab = NULL;
	id_tab_len = id_tab_cap = 0;
}
