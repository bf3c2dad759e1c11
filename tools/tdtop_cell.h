/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cells of tdtop's task table, in procps top's units and layout,
 * written without printf on the paths every row takes: formatting was
 * almost half of tdtop's CPU per refresh at 10,000 tasks. Each function
 * writes a NUL-terminated cell into @out (of @size bytes, at least 32) and
 * returns its length; the output is what the printf formats named in each
 * comment give.
 */
#ifndef TDTOP_CELL_H
#define TDTOP_CELL_H

#include <stddef.h>
#include <stdint.h>

/* "%llu" and "%lld" */
size_t tdc_u64(char *out, uint64_t v);
size_t tdc_s64(char *out, int64_t v);

/*
 * top's scale_mem(): @kib as "%.0f" if that fits in @width, else the
 * first of MiB, GiB, TiB, PiB as "%.1f" plus 'm', 'g', 't', 'p' that fits,
 * else "?". Ties round to even, as glibc's printf rounds the exact value.
 */
size_t tdc_mem(char *out, size_t size, uint64_t kib, int width);

/* top's scale_pcnt() without its extra precision: "%#.1f", else "%*.0f", else "?" */
size_t tdc_pcnt(char *out, size_t size, double v, int width);

/* top's scale_tics() for TIME+ from hundredths of a second */
size_t tdc_time(char *out, size_t size, uint64_t cs, int width);

/*
 * Append " " (unless @n is 0) and @text of @len bytes padded to @width,
 * left- or right-aligned, to @buf (used: @n of @size); returns the new
 * length, keeping room for the NUL, which it writes.
 */
size_t tdc_put(char *buf, size_t n, size_t size, const char *text, size_t len, int width,
	       int left);

#endif
