// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The procfs backend's /proc/PID/maps line parser (libtaskdiag/vma.c) on
 * lines written out by hand as show_map_vma() prints them: with and
 * without a name, a header longer than the padding column, a name that
 * begins with spaces, an escaped newline; and malformed lines, which are
 * refused (-EBADMSG), never read past. And the address query on the
 * procfs backend over a fixture maps file (a regular file, so
 * PROCMAP_QUERY fails with ENOTTY and the text lookup answers): edges,
 * gaps, below the first and above the last VMA, both filters, the gate
 * area left out, and bad queries.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	assert_null(taskdiag_vma_flag_name(TASK_DIAG_VMA_FLAG_UFFD_RWP + 1));
	/* the public bits are the ABI's */
	assert_true(TASKDIAG_VMA_F_MAYSHARE == 1ull << TASK_DIAG_VMA_FLAG_MAYSHARE);
	assert_true(TASKDIAG_VMA_F_EXEC == 1ull << TASK_DIAG_VMA_FLAG_EXEC);
	assert_true(TASKDIAG_VMA_FILE_BACKED == TASK_DIAG_VMA_FILTER_FILE_BACKED);
	assert_true(TASKDIAG_VMA_EXEC == TASK_DIAG_VMA_FILTER_EXEC);
}

/* A procfs tree of one process, 4242, whose maps is these lines. */
static const char fixture_maps[] =
	"00400000-00401000 r--p 00000000 08:01 77                                 /bin/x\n"
	"00401000-00403000 r-xp 00001000 08:01 77                                 /bin/x\n"
	"00403000-00404000 rw-p 00000000 00:00 0                                  [heap]\n"
	"00500000-00501000 ---p 00000000 00:00 0 \n"
	"00501000-00502000 rw-s 00000000 00:05 9                                  /dev/zero (deleted)\n"
	"7ffd0000-7ffd1000 r-xp 00000000 00:00 0                                  [vdso]\n"
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n";

static char fixture_root[64];

static struct taskdiag *open_fixture_td(void)
{
	struct taskdiag *td;
	char path[128];
	FILE *f;

	if (!fixture_root[0]) {
		strcpy(fixture_root, "/tmp/td_vma_query_XXXXXX");
		assert_non_null(mkdtemp(fixture_root));
		snprintf(path, sizeof(path), "%s/4242", fixture_root);
		assert_int_equal(mkdir(path, 0755), 0);
		snprintf(path, sizeof(path), "%s/4242/maps", fixture_root);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(fixture_maps, f);
		fclose(f);
	}
	assert_int_equal(taskdiag_open(&td, TASKDIAG_BACKEND_PROCFS), 0);
	assert_int_equal(td_procfs_open_at(td, fixture_root), 0);
	return td;
}

/* The answers to @n addresses as "start" (hex) or "none", space-separated. */
static void answers(uint32_t filter, const uint64_t *a, size_t n, const char *want)
{
	struct taskdiag_vma_query q = { .pid = 4242, .filter = filter, .addrs = a, .naddrs = n };
	struct taskdiag *td = open_fixture_td();
	const struct taskdiag_vma *v;
	struct taskdiag_vma_iter *it;
	char got[512] = "";
	uint64_t addr;
	size_t i = 0;
	int ret;

	assert_int_equal(taskdiag_vma_query_start(td, &q, &it), 0);
	while ((ret = taskdiag_vma_query_next(it, &addr, &v)) == 1) {
		assert_true(i < n);
		assert_true(addr == a[i]);
		i++;
		if (v)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%llx", *got ? " " : "",
				 (unsigned long long)v->start);
		else
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%snone",
				 *got ? " " : "");
	}
	assert_int_equal(ret, 0);
	assert_int_equal(i, n);
	/* over: 0 again, and the other iterator is refused on a query */
	assert_int_equal(taskdiag_vma_query_next(it, &addr, &v), 0);
	assert_int_equal(taskdiag_vma_iter_next(it, &v), -EINVAL);
	assert_string_equal(got, want);
	taskdiag_vma_iter_end(it);
	taskdiag_close(td);
}

static void test_query_text(void **state)
{
	static const uint64_t a[] = {
		0, 0x3fffff, 0x400000, 0x400fff, 0x401000, 0x403fff, 0x404000, 0x4fffff,
		0x500800, 0x501fff, 0x502000, 0x7ffd0fff, 0x7ffd1000, 0xffffffffff600000,
		UINT64_MAX,
	};
	const size_t n = sizeof(a) / sizeof(a[0]);

	(void)state;
	/* the gate area ([vsyscall]) is no VMA of the mm */
	answers(0, a, n, "400000 400000 400000 400000 401000 403000 500000 500000 500000 501000 "
			 "7ffd0000 7ffd0000 none none none");
	answers(TASKDIAG_VMA_FILE_BACKED, a, n,
		"400000 400000 400000 400000 401000 501000 501000 501000 501000 501000 "
		"none none none none none");
	answers(TASKDIAG_VMA_EXEC, a, n,
		"401000 401000 401000 401000 401000 7ffd0000 7ffd0000 7ffd0000 7ffd0000 "
		"7ffd0000 7ffd0000 7ffd0000 none none none");
	answers(TASKDIAG_VMA_EXEC | TASKDIAG_VMA_FILE_BACKED, a, 3, "401000 401000 401000");
}

static void test_query_fields_and_errors(void **state)
{
	static const uint64_t a[] = { 0x501000 };
	struct taskdiag_vma_query q = { .pid = 4242, .addrs = a, .naddrs = 1 };
	struct taskdiag *td = open_fixture_td();
	const struct taskdiag_vma *v;
	struct taskdiag_vma_iter *it;
	uint64_t addr;

	(void)state;
	assert_int_equal(taskdiag_vma_query_start(td, &q, &it), 0);
	assert_int_equal(taskdiag_vma_query_next(it, &addr, &v), 1);
	assert_non_null(v);
	assert_true(v->start == 0x501000 && v->end == 0x502000 && v->inode == 9 &&
		    v->dev_major == 0 && v->dev_minor == 5 && v->pid == 4242);
	assert_true(v->flags == (TASKDIAG_VMA_F_READ | TASKDIAG_VMA_F_WRITE |
				 TASKDIAG_VMA_F_MAYSHARE));
	assert_string_equal(v->name, "/dev/zero (deleted)");
	/* one iteration at a time */
	{
		struct taskdiag_vma_iter *it2;

		assert_int_equal(taskdiag_vma_query_start(td, &q, &it2), -EBUSY);
		assert_null(it2);
	}
	taskdiag_vma_iter_end(it);

	q.pid = 0;
	assert_int_equal(taskdiag_vma_query_start(td, &q, &it), -EINVAL);
	assert_null(it);
	q.pid = 4242;
	q.naddrs = 0;
	assert_int_equal(taskdiag_vma_query_start(td, &q, &it), -EINVAL);
	q.naddrs = 1;
	q.addrs = NULL;
	assert_int_equal(taskdiag_vma_query_start(td, &q, &it), -EINVAL);
	q.addrs = a;
	q.filter = 1u << 5;
	assert_int_equal(taskdiag_vma_query_start(td, &q, &it), -EINVAL);
	q.filter = 0;
	q.flags = 1u << 7;
	assert_int_equal(taskdiag_vma_query_start(td, &q, &it), -EINVAL);
	q.flags = 0;
	q.pid = 4243;	/* no such directory */
	assert_int_equal(taskdiag_vma_query_start(td, &q, &it), -ESRCH);
	assert_int_equal(taskdiag_vma_query_start(td, NULL, &it), -EINVAL);
	taskdiag_close(td);
}

static int remove_fixture(void **state)
{
	char path[128];

	(void)state;
	if (!fixture_root[0])
		return 0;
	snprintf(path, sizeof(path), "%s/4242/maps", fixture_root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/4242", fixture_root);
	rmdir(path);
	rmdir(fixture_root);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named),
		cmocka_unit_test(test_unnamed_and_edges),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_flag_names),
		cmocka_unit_test(test_query_text),
		cmocka_unit_test(test_query_fields_and_errors),
	};

	return cmocka_run_group_tests(tests, NULL, remove_fixture);
}
