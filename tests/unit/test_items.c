// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The item table against the enum it is indexed by and against the uapi
 * header: row i describes item i, every group attribute of the ABI (all but
 * PAD) has exactly one row, names are unique where lookups need them to be.
 * Nothing is parsed at run time: the header's own enum constants are the
 * reference.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <linux/task_diag.h>

#include "internal.h"

/* The nests of the ABI and the library's name and bit for each. */
static const struct {
	uint32_t group;
	const char *name;
	int nest;	/* TASK_DIAG_A_TASK_<GROUP> */
	int max;	/* TASK_DIAG_A_<GROUP>_MAX */
} nests[] = {
	{ TASKDIAG_GROUP_BASE, "base", TASK_DIAG_A_TASK_BASE, TASK_DIAG_A_BASE_MAX },
	{ TASKDIAG_GROUP_STAT, "stat", TASK_DIAG_A_TASK_STAT, TASK_DIAG_A_STAT_MAX },
	{ TASKDIAG_GROUP_STATM, "statm", TASK_DIAG_A_TASK_STATM, TASK_DIAG_A_STATM_MAX },
	{ TASKDIAG_GROUP_IO, "io", TASK_DIAG_A_TASK_IO, TASK_DIAG_A_IO_MAX },
	{ TASKDIAG_GROUP_STATUS, "status", TASK_DIAG_A_TASK_STATUS, TASK_DIAG_A_STATUS_MAX },
	{ TASKDIAG_GROUP_CRED, "cred", TASK_DIAG_A_TASK_CRED, TASK_DIAG_A_CRED_MAX },
};

#define N_NESTS (sizeof(nests) / sizeof(nests[0]))

static int nest_of(uint32_t group)
{
	for (size_t n = 0; n < N_NESTS; n++)
		if (nests[n].group == group)
			return (int)n;
	return -1;
}

static void test_row_i_is_item_i(void **state)
{
	(void)state;
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = taskdiag_item_info((enum taskdiag_item)i);

		assert_non_null(r);
		assert_ptr_equal(r, &td_items[i]);
		if ((int)r->item != i)
			fail_msg("row %d describes item %d", i, (int)r->item);
		assert_non_null(r->name);
		assert_non_null(r->group_name);
		assert_true(r->name[0] != '\0');
	}
}

static void test_out_of_range_info_is_null(void **state)
{
	(void)state;
	assert_null(taskdiag_item_info(TASKDIAG_ITEM__COUNT));
	assert_null(taskdiag_item_info((enum taskdiag_item)(TASKDIAG_ITEM__COUNT + 1)));
	assert_null(taskdiag_item_info((enum taskdiag_item)-1));
	assert_null(taskdiag_item_info((enum taskdiag_item)0x7fffffff));
}

/* The library's group bits and scopes are the ABI's values. */
static void test_groups_and_scopes_match_abi(void **state)
{
	(void)state;
	assert_int_equal(TASKDIAG_GROUP_BASE, TASK_DIAG_SHOW_BASE);
	assert_int_equal(TASKDIAG_GROUP_STAT, TASK_DIAG_SHOW_STAT);
	assert_int_equal(TASKDIAG_GROUP_STATM, TASK_DIAG_SHOW_STATM);
	assert_int_equal(TASKDIAG_GROUP_IO, TASK_DIAG_SHOW_IO);
	assert_int_equal(TASKDIAG_GROUP_STATUS, TASK_DIAG_SHOW_STATUS);
	assert_int_equal(TASKDIAG_GROUP_CRED, TASK_DIAG_SHOW_CRED);
	assert_int_equal(TASKDIAG_GROUP_CMDLINE, TASK_DIAG_SHOW_CMDLINE);
	assert_int_equal(TASKDIAG_GROUP_ALL, TASK_DIAG_SHOW_ALL);

	assert_int_equal(TASKDIAG_SCOPE_ALL_PROCESSES, TASK_DIAG_SCOPE_ALL_PROCESSES);
	assert_int_equal(TASKDIAG_SCOPE_ALL_THREADS, TASK_DIAG_SCOPE_ALL_THREADS);
	assert_int_equal(TASKDIAG_SCOPE_TASK, TASK_DIAG_SCOPE_TASK);
	assert_int_equal(TASKDIAG_SCOPE_THREADS, TASK_DIAG_SCOPE_THREADS);
	assert_int_equal(TASKDIAG_SCOPE_CHILDREN, TASK_DIAG_SCOPE_CHILDREN);
	assert_int_equal(TASKDIAG_SCOPE_CHILDREN, TASK_DIAG_SCOPE_MAX);
}

/*
 * Every row of a nest group names an attribute 2..MAX of that nest (1 is
 * PAD), no two rows share one, and every attribute has a row.
 */
static void test_every_abi_attribute_has_one_row(void **state)
{
	int count[N_NESTS] = { 0 };
	bool seen[N_NESTS][256];

	(void)state;
	memset(seen, 0, sizeof(seen));
	for (size_t n = 0; n < N_NESTS; n++)
		assert_true(nests[n].max < 256);

	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = &td_items[i];
		int n = nest_of(r->group);

		if (n < 0)
			continue;	/* top-level attribute: next test */
		if (r->attr < 2 || r->attr > nests[n].max)
			fail_msg("%s.%s: attribute %u outside 2..%d of its nest", r->group_name,
				 r->name, r->attr, nests[n].max);
		if (seen[n][r->attr])
			fail_msg("%s.%s: attribute %u has two rows", r->group_name, r->name,
				 r->attr);
		seen[n][r->attr] = true;
		count[n]++;
		assert_string_equal(r->group_name, nests[n].name);
	}
	for (size_t n = 0; n < N_NESTS; n++) {
		if (count[n] != nests[n].max - 1)
			fail_msg("group %s: %d rows, the header has %d attributes besides PAD",
				 nests[n].name, count[n], nests[n].max - 1);
	}
}

/* Rows outside the nests are the reply's top-level PID, TGID and CMDLINE. */
static void test_top_level_rows(void **state)
{
	int n_top = 0;

	(void)state;
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = &td_items[i];

		if (nest_of(r->group) >= 0)
			continue;
		n_top++;
		assert_string_equal(r->group_name, "task");
		switch (r->attr) {
		case TASK_DIAG_A_TASK_PID:
			assert_int_equal(i, TASKDIAG_ITEM_PID);
			assert_int_equal(r->group, 0);
			break;
		case TASK_DIAG_A_TASK_TGID:
			assert_int_equal(i, TASKDIAG_ITEM_TGID);
			assert_int_equal(r->group, 0);
			break;
		case TASK_DIAG_A_TASK_CMDLINE:
			assert_int_equal(i, TASKDIAG_ITEM_CMDLINE);
			assert_int_equal(r->group, TASKDIAG_GROUP_CMDLINE);
			break;
		default:
			fail_msg("task.%s: attribute %u is not a top-level reply attribute", r->name,
				 r->attr);
		}
	}
	assert_int_equal(n_top, 3);
}

/* Fixed-size types carry a size, variable-size ones none. */
static void test_types_and_sizes(void **state)
{
	(void)state;
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = &td_items[i];

		switch (r->type) {
		case TASKDIAG_TYPE_U64:
			if (r->attr_size != 1 && r->attr_size != 4 && r->attr_size != 8)
				fail_msg("%s.%s: u64 item of size %u", r->group_name, r->name,
					 r->attr_size);
			break;
		case TASKDIAG_TYPE_S64:
			/* signed values are s32 in the ABI */
			if (r->attr_size != 4)
				fail_msg("%s.%s: s64 item of size %u", r->group_name, r->name,
					 r->attr_size);
			break;
		case TASKDIAG_TYPE_STRING:
		case TASKDIAG_TYPE_BYTES:
		case TASKDIAG_TYPE_U32_ARRAY:
			if (r->attr_size != 0)
				fail_msg("%s.%s: variable-size item of size %u", r->group_name,
					 r->name, r->attr_size);
			break;
		default:
			fail_msg("%s.%s: type %d", r->group_name, r->name, (int)r->type);
		}
		assert_true(r->unit >= TASKDIAG_UNIT_COUNT && r->unit <= TASKDIAG_UNIT_VALUE);
	}
	/* A few the header spells out, so the table is not its own reference. */
	assert_int_equal(td_items[TASKDIAG_ITEM_PID].attr_size, 4);
	assert_int_equal(td_items[TASKDIAG_ITEM_BASE_STATE].attr_size, 1);
	assert_int_equal(td_items[TASKDIAG_ITEM_BASE_TPGID].type, TASKDIAG_TYPE_S64);
	assert_int_equal(td_items[TASKDIAG_ITEM_BASE_COMM].type, TASKDIAG_TYPE_STRING);
	assert_int_equal(td_items[TASKDIAG_ITEM_BASE_START_TIME].attr_size, 8);
	assert_int_equal(td_items[TASKDIAG_ITEM_STAT_UTIME].attr_size, 8);
	assert_int_equal(td_items[TASKDIAG_ITEM_STAT_UTIME].unit, TASKDIAG_UNIT_NANOSECONDS);
	assert_int_equal(td_items[TASKDIAG_ITEM_STAT_NICE].type, TASKDIAG_TYPE_S64);
	assert_int_equal(td_items[TASKDIAG_ITEM_STAT_EXIT_CODE].type, TASKDIAG_TYPE_S64);
	assert_int_equal(td_items[TASKDIAG_ITEM_STAT_WCHAN].attr_size, 1);
	assert_int_equal(td_items[TASKDIAG_ITEM_STATUS_SIGQ_QUEUED].attr_size, 4);
	assert_int_equal(td_items[TASKDIAG_ITEM_STATUS_SIGQ_LIMIT].attr_size, 8);
	assert_int_equal(td_items[TASKDIAG_ITEM_STATUS_CPUS_ALLOWED].type, TASKDIAG_TYPE_U32_ARRAY);
	assert_int_equal(td_items[TASKDIAG_ITEM_CRED_GROUPS].type, TASKDIAG_TYPE_U32_ARRAY);
	assert_int_equal(td_items[TASKDIAG_ITEM_CMDLINE].type, TASKDIAG_TYPE_BYTES);
}

static void test_names_unique_within_group(void **state)
{
	(void)state;
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++)
		for (int j = i + 1; j < TASKDIAG_ITEM__COUNT; j++)
			if (!strcmp(td_items[i].group_name, td_items[j].group_name) &&
			    !strcmp(td_items[i].name, td_items[j].name))
				fail_msg("%s.%s named twice (items %d and %d)", td_items[i].group_name,
					 td_items[i].name, i, j);
}

/* Names are what the CLI and JSON show: lower case, digits, underscores. */
static void test_names_are_identifiers(void **state)
{
	(void)state;
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const char *s;

		for (s = td_items[i].name; *s; s++)
			if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
				fail_msg("item %d: name \"%s\"", i, td_items[i].name);
		for (s = td_items[i].group_name; *s; s++)
			if (!(*s >= 'a' && *s <= 'z'))
				fail_msg("item %d: group name \"%s\"", i, td_items[i].group_name);
	}
}

static void test_lookup_qualified(void **state)
{
	char buf[128];

	(void)state;
	assert_int_equal(taskdiag_item_lookup("stat.utime"), TASKDIAG_ITEM_STAT_UTIME);
	assert_int_equal(taskdiag_item_lookup("task.pid"), TASKDIAG_ITEM_PID);
	assert_int_equal(taskdiag_item_lookup("task.cmdline"), TASKDIAG_ITEM_CMDLINE);
	assert_int_equal(taskdiag_item_lookup("status.vm_rss"), TASKDIAG_ITEM_STATUS_VM_RSS);
	assert_int_equal(taskdiag_item_lookup("cred.cap_ambient"), TASKDIAG_ITEM_CRED_CAP_AMBIENT);
	/* Every row is found by its qualified name. */
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		snprintf(buf, sizeof(buf), "%s.%s", td_items[i].group_name, td_items[i].name);
		if (taskdiag_item_lookup(buf) != i)
			fail_msg("lookup(\"%s\") = %d, want %d", buf, taskdiag_item_lookup(buf), i);
	}
}

/*
 * A bare name finds its item when one row has it, and is ambiguous
 * (-EEXIST) when several do; the rule is checked over the whole table, so
 * it holds for names added later. (No bare name is shared today, so the
 * -EEXIST branch waits for the first one.)
 */
static void test_lookup_bare(void **state)
{
	(void)state;
	assert_int_equal(taskdiag_item_lookup("utime"), TASKDIAG_ITEM_STAT_UTIME);
	assert_int_equal(taskdiag_item_lookup("pid"), TASKDIAG_ITEM_PID);
	assert_int_equal(taskdiag_item_lookup("comm"), TASKDIAG_ITEM_BASE_COMM);
	assert_int_equal(taskdiag_item_lookup("rchar"), TASKDIAG_ITEM_IO_RCHAR);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		int rows = 0;

		for (int j = 0; j < TASKDIAG_ITEM__COUNT; j++)
			rows += !strcmp(td_items[i].name, td_items[j].name);
		if (rows == 1)
			assert_int_equal(taskdiag_item_lookup(td_items[i].name), i);
		else
			assert_int_equal(taskdiag_item_lookup(td_items[i].name), -EEXIST);
	}
}

static void test_lookup_unknown(void **state)
{
	(void)state;
	assert_int_equal(taskdiag_item_lookup(NULL), -EINVAL);
	assert_int_equal(taskdiag_item_lookup(""), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("no_such_item"), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("stat.no_such_item"), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("nogroup.utime"), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("stat."), -ENOENT);
	assert_int_equal(taskdiag_item_lookup(".utime"), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("."), -ENOENT);
	/* prefixes and extensions of real names are not matches */
	assert_int_equal(taskdiag_item_lookup("sta.utime"), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("stats.utime"), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("stat.utim"), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("stat.utimes"), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("utim"), -ENOENT);
	assert_int_equal(taskdiag_item_lookup("UTIME"), -ENOENT);
	/* the group is a prefix, not a nest path */
	assert_int_equal(taskdiag_item_lookup("base.stat.utime"), -ENOENT);
	/* right name, wrong group */
	assert_int_equal(taskdiag_item_lookup("base.utime"), -ENOENT);
}

static void test_group_index(void **state)
{
	(void)state;
	assert_int_equal(td_group_index(TASKDIAG_GROUP_BASE), 0);
	assert_int_equal(td_group_index(TASKDIAG_GROUP_CRED), 5);
	assert_int_equal(td_group_index(TASKDIAG_GROUP_CMDLINE), 6);
	assert_int_equal(td_group_index(0), -1);
	assert_int_equal(td_group_index(TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT), -1);
	assert_int_equal(td_group_index(TASKDIAG_GROUP_CMDLINE << 1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_i_is_item_i),
		cmocka_unit_test(test_out_of_range_info_is_null),
		cmocka_unit_test(test_groups_and_scopes_match_abi),
		cmocka_unit_test(test_every_abi_attribute_has_one_row),
		cmocka_unit_test(test_top_level_rows),
		cmocka_unit_test(test_types_and_sizes),
		cmocka_unit_test(test_names_unique_within_group),
		cmocka_unit_test(test_names_are_identifiers),
		cmocka_unit_test(test_lookup_qualified),
		cmocka_unit_test(test_lookup_bare),
		cmocka_unit_test(test_lookup_unknown),
		cmocka_unit_test(test_group_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
