// SPDX-License-Identifier: GPL-2.0
/*
 * tdtop's table cells without printf on the common paths (tdtop_cell.h).
 * The rare cases (values that need a wider unit than any cell has, ties a
 * double cannot decide) go to snprintf, so the output is always printf's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tdtop_cell.h"

/* A cell under construction: at most 63 bytes, more than any format here writes. */
struct tdc_buf {
	char b[64];
	size_t n;
};

static void tdc_digits(struct tdc_buf *c, uint64_t v, unsigned int min_digits)
{
	char tmp[24];
	unsigned int k = 0;

	do {
		tmp[k++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (k < min_digits)
		tmp[k++] = '0';
	while (k)
		c->b[c->n++] = tmp[--k];
}

static void tdc_ch(struct tdc_buf *c, char ch)
{
	c->b[c->n++] = ch;
}

/* Copy the cell out (cut to @size - 1) and return its whole length, as snprintf. */
static size_t tdc_out(const struct tdc_buf *c, char *out, size_t size)
{
	size_t k = c->n < size ? c->n : size - 1;

	memcpy(out, c->b, k);
	out[k] = '\0';
	return c->n;
}

size_t tdc_u64(char *out, uint64_t v)
{
	struct tdc_buf c = { .n = 0 };

	tdc_digits(&c, v, 1);
	return tdc_out(&c, out, sizeof(c.b));
}

size_t tdc_s64(char *out, int64_t v)
{
	struct tdc_buf c = { .n = 0 };

	if (v < 0)
		tdc_ch(&c, '-');
	tdc_digits(&c, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, 1);
	return tdc_out(&c, out, sizeof(c.b));
}

/* "%.1f" of @tenths / 10 */
static void tdc_tenths(struct tdc_buf *c, uint64_t tenths)
{
	tdc_digits(c, tenths / 10, 1);
	tdc_ch(c, '.');
	tdc_ch(c, (char)('0' + tenths % 10));
}

size_t tdc_mem(char *out, size_t size, uint64_t kib, int width)
{
	static const char sfx[] = "kmgtpe";
	struct tdc_buf c;
	int i;

	if (kib >= (1ULL << 53)) {	/* not exact in a double: as top computes it */
		double v = (double)kib;

		for (i = 0; i < 5; i++) {
			int w = i ? snprintf(out, size, "%.1f%c", v, sfx[i]) :
				    snprintf(out, size, "%.0f", v);

			if (w <= width)
				return (size_t)w;
			v /= 1024.0;
		}
		return (size_t)snprintf(out, size, "?");
	}
	for (i = 0; i < 5; i++) {
		c.n = 0;
		if (!i) {
			tdc_digits(&c, kib, 1);
		} else {
			/* kib / 1024^i is exact in binary: round its tenths half to even */
			unsigned int shift = 10u * (unsigned int)i;
			unsigned __int128 num = (unsigned __int128)kib * 10u;
			uint64_t q = (uint64_t)(num >> shift);
			uint64_t r = (uint64_t)(num & (((unsigned __int128)1 << shift) - 1));
			uint64_t half = 1ULL << (shift - 1);

			if (r > half || (r == half && (q & 1)))
				q++;
			tdc_tenths(&c, q);
			tdc_ch(&c, sfx[i]);
		}
		if ((int)c.n <= width)
			return tdc_out(&c, out, size);
	}
	c.n = 0;
	tdc_ch(&c, '?');
	return tdc_out(&c, out, size);
}

size_t tdc_pcnt(char *out, size_t size, double v, int width)
{
	int w;

	/* below the double nearest 0.05 (above 0.05), printf rounds to 0.0: most tasks */
	if (!signbit(v) && v < 0.05 && width >= 3) {
		memcpy(out, "0.0", 4);	/* @size is at least 32 */
		return 3;
	}
	if (!signbit(v) && v < 1e6) {
		double t = v * 10.0, f = floor(t), d = t - f;

		/*
		 * t is v * 10 within 2e-9 here: only a fraction within 1e-6 of
		 * one half can round the other way in printf's exact arithmetic.
		 */
		if (fabs(d - 0.5) > 1e-6) {
			struct tdc_buf c = { .n = 0 };

			tdc_tenths(&c, (uint64_t)f + (d > 0.5));
			if ((int)c.n <= width)
				return tdc_out(&c, out, size);
		}
	}
	w = snprintf(out, size, "%#.1f", v);
	if (w <= width)
		return (size_t)w;
	w = snprintf(out, size, "%*.0f", width, v);
	if (w <= width)
		return (size_t)w;
	return (size_t)snprintf(out, size, "?");
}

/* Try one TIME+ form: @a, then @sep and @b in at least @bdig digits, then @sep2 and @c (if @sep2). */
static int tdc_try(struct tdc_buf *c, uint64_t a, char sep, uint64_t b, unsigned int bdig,
		   char sep2, uint64_t cc, int width)
{
	c->n = 0;
	tdc_digits(c, a, 1);
	if (sep) {
		tdc_ch(c, sep);
		tdc_digits(c, b, bdig);
	}
	if (sep2) {
		tdc_ch(c, sep2);
		tdc_digits(c, cc, 2);
	}
	return (int)c->n <= width;
}

size_t tdc_time(char *out, size_t size, uint64_t cs, int width)
{
	uint64_t secs = cs / 100, mins = secs / 60, hours = mins / 60, days = hours / 24;
	uint64_t weeks = days / 7;
	struct tdc_buf c;

	if (mins <= 360 && tdc_try(&c, mins, ':', secs % 60, 2, '.', cs % 100, width))
		return tdc_out(&c, out, size);
	if (mins <= 360 && tdc_try(&c, mins, ':', secs % 60, 2, 0, 0, width))
		return tdc_out(&c, out, size);
	if (hours <= 96 && tdc_try(&c, hours, ',', mins % 60, 2, 0, 0, width))
		return tdc_out(&c, out, size);
	if (days <= 14) {	/* "%llud+%lluh", then "%llud" */
		c.n = 0;
		tdc_digits(&c, days, 1);
		tdc_ch(&c, 'd');
		tdc_ch(&c, '+');
		tdc_digits(&c, hours % 24, 1);
		tdc_ch(&c, 'h');
		if ((int)c.n <= width)
			return tdc_out(&c, out, size);
		c.n = 0;
		tdc_digits(&c, days, 1);
		tdc_ch(&c, 'd');
		if ((int)c.n <= width)
			return tdc_out(&c, out, size);
	}
	c.n = 0;	/* "%lluw+%llud", then "%lluw" */
	tdc_digits(&c, weeks, 1);
	tdc_ch(&c, 'w');
	tdc_ch(&c, '+');
	tdc_digits(&c, days % 7, 1);
	tdc_ch(&c, 'd');
	if ((int)c.n <= width)
		return tdc_out(&c, out, size);
	c.n = 0;
	tdc_digits(&c, weeks, 1);
	tdc_ch(&c, 'w');
	if ((int)c.n <= width)
		return tdc_out(&c, out, size);
	c.n = 0;
	tdc_ch(&c, '?');
	return tdc_out(&c, out, size);
}

size_t tdc_put(char *buf, size_t n, size_t size, const char *text, size_t len, int width,
	       int left)
{
	size_t pad = width > 0 && (size_t)width > len ? (size_t)width - len : 0;
	size_t room;

	if (n >= size)
		return n;
	room = size - 1 - n;
	if (n && room) {
		buf[n++] = ' ';
		room--;
	}
	if (!left) {
		size_t k = pad < room ? pad : room;

		memset(buf + n, ' ', k);
		n += k;
		room -= k;
	}
	if (len > room)
		len = room;
	memcpy(buf + n, text, len);
	n += len;
	room -= len;
	if (left) {
		size_t k = pad < room ? pad : room;

		memset(buf + n, ' ', k);
		n += k;
	}
	buf[n] = '\0';
	return n;
}
