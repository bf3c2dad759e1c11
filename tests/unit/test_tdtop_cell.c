// SPDX-License-Identifier: GPL-2.0
/*
 * tdtop's printf-free table cells (tools/tdtop_cell.c) against glibc's
 * printf, the oracle: for each cell, the format procps top's scale_mem(),
 * scale_pcnt() and scale_tics() use, swept over the values where the
 * choices are made (unit and width boundaries, exact ties of the
 * one-decimal rounding, every TIME+ form) and over random values.
 */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../tools/tdtop_cell.h"

/* ---- the printf versions: what each cell must equal ---- */

static int ref_mem(char *out, size_t size, uint64_t kib, int width)
{
	static const char sfx[] = "kmgtpe";
	double v = (double)kib;
	int i;

	for (i = 0; i < 5; i++) {
		int w = i ? snprintf(out, size, "%.1f%c", v, sfx[i]) : snprintf(out, size, "%.0f", v);

		if (w <= width)
			return w;
		v /= 1024.0;
	}
	return snprintf(out, size, "?");
}

static int ref_pcnt(char *out, size_t size, double v, int width)
{
	int w = snprintf(out, size, "%#.1f", v);

	if (w <= width)
		return w;
	w = snprintf(out, size, "%*.0f", width, v);
	if (w <= width)
		return w;
	return snprintf(out, size, "?");
}

static int ref_time(char *out, size_t size, uint64_t cs, int width)
{
	unsigned long long secs = cs / 100, mins = secs / 60, hours = mins / 60, days = hours / 24;
	unsigned long long weeks = days / 7;
	int w;

	if (mins <= 360 && (w = snprintf(out, size, "%llu:%02llu.%02llu", mins, secs % 60,
					 (unsigned long long)(cs % 100))) <= width)
		return w;
	if (mins <= 360 && (w = snprintf(out, size, "%llu:%02llu", mins, secs % 60)) <= width)
		return w;
	if (hours <= 96 && (w = snprintf(out, size, "%llu,%02llu", hours, mins % 60)) <= width)
		return w;
	if (days <= 14 && (w = snprintf(out, size, "%llud+%lluh", days, hours % 24)) <= width)
		return w;
	if (days <= 14 && (w = snprintf(out, size, "%llud", days)) <= width)
		return w;
	if ((w = snprintf(out, size, "%lluw+%llud", weeks, days % 7)) <= width)
		return w;
	if ((w = snprintf(out, size, "%lluw", weeks)) <= width)
		return w;
	return snprintf(out, size, "?");
}

static uint64_t rnd64(void)
{
	return ((uint64_t)(unsigned int)rand() << 42) ^ ((uint64_t)(unsigned int)rand() << 21) ^
	       (uint64_t)(unsigned int)rand();
}

#define CHECK_CELL(got_len, got, want_len, want, fmt, ...)                                  \
	do {                                                                                \
		if ((got_len) != (size_t)(want_len) || strcmp(got, want))                  \
			fail_msg("cell " fmt ": got \"%s\" (%zu), printf \"%s\" (%d)",     \
				 __VA_ARGS__, got, (size_t)(got_len), want, (int)(want_len)); \
	} while (0)

static void check_mem(uint64_t kib, int width)
{
	char a[128], b[128];
	size_t n = tdc_mem(a, sizeof(a), kib, width);
	int m = ref_mem(b, sizeof(b), kib, width);

	CHECK_CELL(n, a, m, b, "mem %" PRIu64 " width %d", kib, width);
}

static void mem_boundaries_and_ties(void **state)
{
	static const int widths[] = { 1, 3, 5, 6, 7, 9 };
	uint64_t kib, scale;
	size_t w;
	int k;

	(void)state;
	for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		for (kib = 0; kib < 300000; kib += 1 + kib / 500)
			check_mem(kib, widths[w]);
		/* around every 10^k and every unit step, where the cell changes form */
		for (scale = 1; scale < (1ULL << 52); scale *= 10)
			for (k = -3; k <= 3; k++)
				check_mem(scale + (uint64_t)(int64_t)k, widths[w]);
		for (scale = 1024; scale < (1ULL << 52); scale *= 1024)
			for (k = -3; k <= 3; k++)
				check_mem(scale * 10 + (uint64_t)(int64_t)k, widths[w]);
		/* exact ties: kib * 10 / 1024^i ends in exactly one half */
		for (kib = 256; kib < 2000000; kib += 512)
			check_mem(kib, widths[w]);
		for (k = 0; k < 20000; k++)
			check_mem(rnd64() >> (rand() % 40), widths[w]);
	}
	/* beyond 2^53, where top's double is not exact */
	check_mem(UINT64_MAX, 7);
	check_mem((1ULL << 53) + 1, 6);
}

static void pcnt_values(void **state)
{
	static const int widths[] = { 3, 4, 5, 6 };
	char a[128], b[128];
	size_t w, n;
	int k, m;

	(void)state;
	for (w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
		for (k = 0; k < 40000; k++) {
			double v;

			switch (k % 4) {
			case 0:
				v = (double)k / 400.0;	/* hundredths: ties of .x5 */
				break;
			case 1:
				v = (double)rnd64() / 18446744073709551616.0 * 1200.0;
				break;
			case 2:
				v = (double)(k / 4) * 0.05;	/* rounding of a computed tie */
				break;
			default:
				v = (double)(rand() % 100000) / 7.0;
			}
			n = tdc_pcnt(a, sizeof(a), v, widths[w]);
			m = ref_pcnt(b, sizeof(b), v, widths[w]);
			CHECK_CELL(n, a, m, b, "pcnt %.17g width %d", v, widths[w]);
		}
		{	/* around 0.05, where the shortcut to "0.0" ends */
			double edge[] = { 0, nextafter(0.05, 0), 0.05, nextafter(0.05, 1), 0.04999,
					  nextafter(0.15, 0), 0.15, 0.25, 0.35, -0.0, -0.04 };

			for (k = 0; k < (int)(sizeof(edge) / sizeof(edge[0])); k++) {
				n = tdc_pcnt(a, sizeof(a), edge[k], widths[w]);
				m = ref_pcnt(b, sizeof(b), edge[k], widths[w]);
				CHECK_CELL(n, a, m, b, "pcnt %.17g width %d", edge[k], widths[w]);
			}
		}
		n = tdc_pcnt(a, sizeof(a), 1e12, widths[w]);
		m = ref_pcnt(b, sizeof(b), 1e12, widths[w]);
		CHECK_CELL(n, a, m, b, "pcnt %g width %d", 1e12, widths[w]);
	}
}

static void time_forms(void **state)
{
	/* around the limits of each form: 360 minutes, 96 hours, 14 days, and widths */
	static const uint64_t marks[] = { 0, 99, 100, 5999, 6000, 359999, 2159999, 2160000,
					  2160100, 34559999, 34560000, 120959999, 120960000,
					  604800000, 6048000000ULL, UINT64_MAX / 2 };
	char a[128], b[128];
	size_t i, n;
	int width, k, m;

	(void)state;
	for (width = 1; width <= 10; width++) {
		for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
			for (k = -2; k <= 2; k++) {
				uint64_t cs = marks[i] + (uint64_t)(int64_t)k;

				if (k < 0 && marks[i] < 2)
					continue;
				n = tdc_time(a, sizeof(a), cs, width);
				m = ref_time(b, sizeof(b), cs, width);
				CHECK_CELL(n, a, m, b, "time %" PRIu64 " width %d", cs, width);
			}
		for (k = 0; k < 20000; k++) {
			uint64_t cs = rnd64() >> (rand() % 50);

			n = tdc_time(a, sizeof(a), cs, width);
			m = ref_time(b, sizeof(b), cs, width);
			CHECK_CELL(n, a, m, b, "time %" PRIu64 " width %d", cs, width);
		}
	}
}

static void integers_and_padding(void **state)
{
	static const int64_t vals[] = { 0, 1, -1, 9, 10, -20, 19, 4194304, INT64_MAX, INT64_MIN };
	char a[64], b[64], buf[32], want[64];
	size_t i, n;

	(void)state;
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		snprintf(b, sizeof(b), "%lld", (long long)vals[i]);
		n = tdc_s64(a, vals[i]);
		CHECK_CELL(n, a, (int)strlen(b), b, "s64 %lld", (long long)vals[i]);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)vals[i]);
		n = tdc_u64(a, (uint64_t)vals[i]);
		CHECK_CELL(n, a, (int)strlen(b), b, "u64 %llu", (unsigned long long)vals[i]);
	}
	/* tdc_put is put_cell's "%s%*s", cut as snprintf cuts */
	n = tdc_put(buf, 0, sizeof(buf), "12", 2, 5, 0);
	n = tdc_put(buf, n, sizeof(buf), "root", 4, 8, 1);
	n = tdc_put(buf, n, sizeof(buf), "a-long-command-name", 19, 0, 1);
	snprintf(want, sizeof(want), "%*s %-*s %s", 5, "12", 8, "root", "a-long-command-name");
	want[sizeof(buf) - 1] = '\0';
	assert_string_equal(buf, want);
	assert_int_equal(n, sizeof(buf) - 1);
	n = tdc_put(buf, n, sizeof(buf), "x", 1, 3, 0);	/* full: unchanged */
	assert_int_equal(n, sizeof(buf) - 1);
	assert_string_equal(buf, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mem_boundaries_and_ties),
		cmocka_unit_test(pcnt_values),
		cmocka_unit_test(time_forms),
		cmocka_unit_test(integers_and_padding),
	};

	srand(20261201);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
