// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all: one item's value, typed by libtaskdiag's item table, as
 * a table cell, a CSV field or a JSON value.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tda.h"

/* ------------------------------------------------------------------------
 * Text
 */

/* A C0 or C1 control character, or DEL (of a well-formed sequence). */
static bool is_control(const unsigned char *p, size_t len)
{
	return (len == 1 && (p[0] < 0x20 || p[0] == 0x7f)) ||
	       (len == 2 && p[0] == 0xc2 && p[1] < 0xa0);
}

/*
 * Clean text for a table cell (@table: control characters and ill-formed
 * UTF-8 become '?', as ps shows them) or a CSV field (ill-formed UTF-8
 * becomes U+FFFD, everything else is kept).
 */
static void text_clean(struct tdbuf *b, const char *s, size_t n, bool table)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		bool ok;
		size_t len = td_utf8_next(p + i, n - i, &ok);

		if (!ok)
			tdbuf_puts(b, table ? "?" : "\xef\xbf\xbd");
		else if (table && is_control(p + i, len))
			tdbuf_addc(b, '?');
		else
			tdbuf_add(b, p + i, len);
		i += len;
	}
}

/* ------------------------------------------------------------------------
 * Values
 */

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

uint32_t word_at(const char *p, size_t i)
{
	uint32_t w;

	memcpy(&w, p + 4 * i, 4);
	return w;
}

/*
 * The text of a value for a table cell (@table) or a CSV field. Absent
 * values are "-" in the table and empty in CSV; so are empty ones in the
 * table, which never prints an empty cell.
 */
void tv_text(struct tdbuf *b, const struct tv *v, bool table)
{
	size_t start = b->len, i, n;

	switch (v->kind) {
	case TV_NONE:
		break;
	case TV_U64:
		switch (v->fmt) {
		case FMT_HEX:
			tdbuf_addf(b, "0x%0*" PRIx64, (int)v->width, v->u);
			break;
		case FMT_ADDR:
			tdbuf_addf(b, "%#" PRIx64, v->u);
			break;
		case FMT_OCT:
			tdbuf_addf(b, "%04" PRIo64, v->u);
			break;
		default:
			tdbuf_addf(b, "%" PRIu64, v->u);
			break;
		}
		break;
	case TV_S64:
		tdbuf_addf(b, "%" PRId64, v->s);
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
				tdbuf_addc(b, ' ');
			text_clean(b, v->p + i, l, table);
			i += l + 1;
		}
		if (n && !v->p[n - 1])
			tdbuf_addc(b, ' ');	/* an empty last argument */
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
				tdbuf_addf(b, first ? "%zu" : ",%zu", bit);
				if (end > bit)
					tdbuf_addf(b, "-%zu", end);
				first = false;
				bit = end + 1;
			}
		} else {
			for (i = 0; i < n; i++)
				tdbuf_addf(b, i ? ",%" PRIu32 : "%" PRIu32, word_at(v->p, i));
		}
		break;
	case TV_PS:
		/* ps pads a few itself (%mem, c): no blanks before a CSV field */
		n = 0;
		while (!table && n < v->len && v->p[n] == ' ')
			n++;
		tdbuf_add(b, v->p + n, v->len - n);
		break;
	}
	if (table && b->len == start)
		tdbuf_addc(b, '-');
}

/* A JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)? (all that ps's numbers are). */
static bool json_number(const char *s, size_t n)
{
	size_t i = s[0] == '-', d;

	for (d = i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		;
	if (i == d || (s[d] == '0' && i > d + 1))
		return false;
	if (i < n && s[i] == '.') {
		for (d = ++i; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			;
		if (i == d)
			return false;
	}
	return i == n;
}

/*
 * The JSON value: the same type for an item whichever the output (a
 * bitmap's range list is a string, as in the table and CSV); a ps number
 * shown as "-" (nice of a real-time task, ...) is left out, as absent
 * items are.
 */
bool tv_json(struct tdbuf *b, const struct tv *v)
{
	size_t i, n;

	switch (v->kind) {
	case TV_NONE:
		return false;
	case TV_U64:
		tdbuf_addf(b, "%" PRIu64, v->u);
		break;
	case TV_S64:
		tdbuf_addf(b, "%" PRId64, v->s);
		break;
	case TV_STR:
		td_json_str(b, v->p, v->len);
		break;
	case TV_ARGV:
		/* Split at NUL; a final NUL ends the last argument. */
		tdbuf_addc(b, '[');
		n = v->len && !v->p[v->len - 1] ? v->len - 1 : v->len;
		for (i = 0; v->len && i <= n;) {
			const char *z = memchr(v->p + i, '\0', n - i);
			size_t l = z ? (size_t)(z - (v->p + i)) : n - i;

			if (i)
				tdbuf_addc(b, ',');
			td_json_str(b, v->p + i, l);
			i += l + 1;
		}
		tdbuf_addc(b, ']');
		break;
	case TV_U32S:
		if (v->fmt == FMT_BITMAP) {
			struct tdbuf t = { 0 };

			tv_text(&t, v, false);
			td_json_str(b, t.p ? t.p : "", t.len);
			tdbuf_free(&t);
			break;
		}
		tdbuf_addc(b, '[');
		for (i = 0; i < v->len / 4; i++)
			tdbuf_addf(b, i ? ",%" PRIu32 : "%" PRIu32, word_at(v->p, i));
		tdbuf_addc(b, ']');
		break;
	case TV_PS:
		for (n = 0; n < v->len && v->p[n] == ' '; n++)
			;
		if (v->fmt == FMT_NUMBER && n < v->len && json_number(v->p + n, v->len - n))
			tdbuf_add(b, v->p + n, v->len - n);
		else if (v->fmt == FMT_NUMBER && (n == v->len || !strcmp(v->p + n, "-")))
			return false;
		else
			td_json_str(b, v->p, v->len);
		break;
	}
	return true;
}

/* ------------------------------------------------------------------------
 * Items
 */

void raw_get(const struct taskdiag_task *t, int item, struct raw *r)
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
void tv_of_raw(int item, const struct raw *r, struct tv *v)
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

void item_value(const struct taskdiag_task *t, int item, struct tv *v)
{
	struct raw r;

	raw_get(t, item, &r);
	tv_of_raw(item, &r, v);
}

/* The item's "group.name" ("pid", "tgid", "cmdline" for the task's own). */
void item_qname(int item, char *buf, size_t len)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);

	if (!info->group || info->group == TASKDIAG_GROUP_CMDLINE)
		snprintf(buf, len, "%s", info->name);
	else
		snprintf(buf, len, "%s.%s", info->group_name, info->name);
}

