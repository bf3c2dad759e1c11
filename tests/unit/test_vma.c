// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The procfs backend's /proc/PID/maps line parser (libtaskdiag/vma.c) on
 * lines written out by hand as show_map_vma() prints them: with and
 * without a name, a header longer than the padding column, a name that
 * begins with spaces, an escaped newline; and malformed lines, which are
 * refused (-EBADMSG), never read past.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"

/* v->name points into the line: it must outlive the call (until the next) */
static void parse(const char *text, struct taskdiag_vma *v, int want)
{
	static char line[512];

	memset(v, 0, sizeof(*v));
	strcpy(line, text);
	assert_int_equal(td_vma_parse_maps_line(line, v), want);
}

static void test_named(void **state)
{
	struct taskdiag_vma v;

	(void)state;
	/* 52 characters of header and its space, padded to 72, one more space */
	parse("55a4dda52000-55a4dda54000 r-xp 00002000 fe:00 248056                     /usr/bin/sleep",
	      &v, 0);
	assert_true(v.start == 0x55a4dda52000ull && v.end == 0x55a4dda54000ull);
	assert_true(v.offset == 0x2000 && v.inode == 248056);
	assert_int_equal(v.dev_major, 0xfe);
	assert_int_equal(v.dev_minor, 0);
	assert_true(v.flags == (TASKDIAG_VMA_F_READ | TASKDIAG_VMA_F_EXEC));
	assert_string_equal(v.name, "/usr/bin/sleep");

	parse("7f0b83c63000-7f0b83c65000 rw-s 00000000 00:01 1708                       /dev/zero (deleted)",
	      &v, 0);
	assert_true(v.flags == (TASKDIAG_VMA_F_READ | TASKDIAG_VMA_F_WRITE | TASKDIAG_VMA_F_MAYSHARE));
	assert_string_equal(v.name, "/dev/zero (deleted)");

	parse("7f0b83c6e000-7f0b83c6f000 r--p 00000000 fe:00 11280720                   /tmp/new\\012line",
	      &v, 0);
	assert_string_equal(v.name, "/tmp/new\\012line");
}

static void test_unnamed_and_edges(void **state)
{
	struct taskdiag_vma v;

	(void)state;
	/* no name: the header's own trailing space ends the line */
	parse("7f0b83c70000-7f0b83c72000 rw-p 00000000 00:00 0 ", &v, 0);
	assert_null(v.name);
	assert_true(v.inode == 0 && v.flags == (TASKDIAG_VMA_F_READ | TASKDIAG_VMA_F_WRITE));
	/* a name of spaces and more: kept whole, from column 73 */
	parse("00400000-00401000 r--p 00000000 08:02 17                                   x y",
	      &v, 0);
	assert_string_equal(v.name, "  x y");
	/* a header longer than the padding: its space and seq_pad()'s, then the name */
	parse("ffffffffff600000-ffffffffff601000 --xp 123456789abcdef0 103:1f 12345678901234567890  /n",
	      &v, 0);
	assert_string_equal(v.name, "/n");
	assert_true(v.flags == TASKDIAG_VMA_F_EXEC);
	assert_int_equal(v.dev_major, 0x103);
	assert_int_equal(v.dev_minor, 0x1f);
}

static void test_malformed(void **state)
{
	static const char *const bad[] = {
		"", "garbage", "0-1", "00400000-00401000 r--p", "00400000-00401000 r--p 0 08:02",
		"00400000-00401000 rw 00000000 08:02 17 ", "00400000-00401000 r--p 00000000 0802 17",
		"00400000-00401000 r--p 00000000 08:02 17",
	};
	struct taskdiag_vma v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		parse(bad[i], &v, -EBADMSG);
}

static void test_flag_names(void **state)
{
	(void)state;
	assert_string_equal(taskdiag_vma_flag_name(0), "rd");
	assert_string_equal(taskdiag_vma_flag_name(7), "ms");
	assert_string_equal(taskdiag_vma_flag_name(TASK_DIAG_VMA_FLAG_SEALED), "sl");
	assert_null(taskdiag_vma_flag_name(TASK_DIAG_VMA_FLAG_MTE + 1));
	/* the public bits are the ABI's */
	assert_true(TASKDIAG_VMA_F_MAYSHARE == 1ull << TASK_DIAG_VMA_FLAG_MAYSHARE);
	assert_true(TASKDIAG_VMA_F_EXEC == 1ull << TASK_DIAG_VMA_FLAG_EXEC);
	assert_true(TASKDIAG_VMA_FILE_BACKED == TASK_DIAG_VMA_FILTER_FILE_BACKED);
	assert_true(TASKDIAG_VMA_EXEC == TASK_DIAG_VMA_FILTER_EXEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_unnamed_and_edges),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_flag_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
