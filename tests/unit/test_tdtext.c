// SPDX-License-Identifier: GPL-2.0
/*
 * The tools' shared layer (tools/tdtext.c): the user and group name cache
 * against getpwuid()/getgrgid(), the oracle, and the sorted pid list
 * against qsort() of the same values with repeats dropped.
 */
#include <grp.h>
#include <pwd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../tools/tdtext.h"

static void expect_label(uint32_t id, bool group, const char *got)
{
	char num[16];
	const char *want;

	if (group) {
		struct group *gr = getgrgid(id);

		want = gr ? gr->gr_name : NULL;
	} else {
		struct passwd *pw = getpwuid(id);

		want = pw ? pw->pw_name : NULL;
	}
	if (!want) {
		snprintf(num, sizeof(num), "%u", (unsigned int)id);
		want = num;
	}
	assert_string_equal(got, want);
}

/* Ids 0..999 and some far ones, users and groups, twice: the second pass
 * hits the cache, after it has grown, and returns the first pass's pointers. */
static void id_labels(void **state)
{
	static const uint32_t far[] = { 65534, 65535, 100000, 4294967294u, 4294967295u };
	enum { N = 1000, NF = sizeof(far) / sizeof(far[0]) };
	const char *first[2][N + NF];
	int pass, g, i;

	(void)state;
	for (pass = 0; pass < 2; pass++)
		for (g = 0; g < 2; g++)
			for (i = 0; i < N + NF; i++) {
				uint32_t id = i < N ? (uint32_t)i : far[i - N];
				const char *l = td_id_label(id, g);

				expect_label(id, g, l);
				if (pass)
					assert_ptr_equal(l, first[g][i]);
				else
					first[g][i] = l;
			}
	td_id_cache_free();
	expect_label(0, false, td_id_label(0, false));
	td_id_cache_free();
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static void pid_set(void **state)
{
	enum { N = 3000 };
	pid_t *v = NULL, ref[N];
	size_t n = 0, nref = 0, i;

	(void)state;
	srand(7);
	for (i = 0; i < N; i++) {
		ref[i] = 1 + rand() % 1000;	/* many repeats */
		td_pid_set_add(&v, &n, ref[i]);
	}
	qsort(ref, N, sizeof(ref[0]), cmp_pid);
	for (i = 0; i < N; i++)
		if (!nref || ref[nref - 1] != ref[i])
			ref[nref++] = ref[i];
	assert_int_equal(n, nref);
	assert_memory_equal(v, ref, n * sizeof(*v));
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(id_labels),
		cmocka_unit_test(pid_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
