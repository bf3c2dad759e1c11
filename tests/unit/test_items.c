// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The item table against the enum it is indexed by and against the uapi
 * header: row i describes item i, every field of every group struct of the
 * ABI and every top-level value has exactly one row at the right place,
 * names are unique where lookups need them to be.
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
#include "items_gen.h"

/*
 * The group structs of the ABI: the library's name and bit, the reply
 * attribute, where the struct sits in a record, its size and its number of
 * fields (the last TASK_DIAG_<GROUP>_F_* + 1).
 */
static const struct {
	uint32_t group;
	const char *name;
	int attr;	/* TASK_DIAG_A_TASK_<GROUP> */
	size_t rec_off;
	size_t size;
	int nfields;
} groups[] = {
	{ TASKDIAG_GROUP_BASE, "base", TASK_DIAG_A_TASK_BASE, offsetof(struct taskdiag_task, base),
	  sizeof(struct task_diag_base), TASK_DIAG_BASE_F_STATE + 1 },
	{ TASKDIAG_GROUP_STAT, "stat", TASK_DIAG_A_TASK_STAT, offsetof(struct taskdiag_task, stat),
	  sizeof(struct task_diag_stat), TASK_DIAG_STAT_F_WCHAN + 1 },
	{ TASKDIAG_GROUP_STATM, "statm", TASK_DIAG_A_TASK_STATM,
	  offsetof(struct taskdiag_task, statm), sizeof(struct task_diag_statm),
	  TASK_DIAG_STATM_F_LOCKED + 1 },
	{ TASKDIAG_GROUP_IO, "io", TASK_DIAG_A_TASK_IO, offsetof(struct taskdiag_task, io),
	  sizeof(struct task_diag_io), TASK_DIAG_IO_F_CANCELLED_WRITE_BYTES + 1 },
	{ TASKDIAG_GROUP_STATUS, "status", TASK_DIAG_A_TASK_STATUS,
	  offsetof(struct taskdiag_task, status), sizeof(struct task_diag_status),
	  TASK_DIAG_STATUS_F_SECCOMP + 1 },
	{ TASKDIAG_GROUP_CRED, "cred", TASK_DIAG_A_TASK_CRED, offsetof(struct taskdiag_task, cred),
	  sizeof(struct task_diag_cred), TASK_DIAG_CRED_F_CAP_AMBIENT + 1 },
	{ TASKDIAG_GROUP_MEM, "mem", TASK_DIAG_A_TASK_MEM, offsetof(struct taskdiag_task, mem),
	  sizeof(struct task_diag_mem), TASK_DIAG_MEM_F_KSM + 1 },
};

#define N_GROUPS (sizeof(groups) / sizeof(groups[0]))

/* The group whose struct holds the value of row @i, or -1 (the top part). */
static int struct_of(int i)
{
	for (size_t n = 0; n < N_GROUPS; n++)
		if (td_item_locs[i].mask_off == groups[n].rec_off)
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
 * Every field of every group struct has exactly one row: the row's bit is
 * in range and unique, its value lies inside the struct after the mask,
 * no two overlap, and since the header numbers the fields in the order
 * they appear, the rows sorted by offset have bits 0, 1, 2, ... (a row that
 * pairs a member with another member's bit fails here).
 */
static void test_every_struct_field_has_one_row(void **state)
{
	(void)state;
	for (size_t n = 0; n < N_GROUPS; n++) {
		int by_bit[64], count = 0;
		size_t last_end = sizeof(uint64_t);

		for (int b = 0; b < 64; b++)
			by_bit[b] = -1;
		for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
			const struct td_item_loc *l = &td_item_locs[i];
			const struct taskdiag_item_info *r = &td_items[i];

			if (struct_of(i) != (int)n)
				continue;
			count++;
			assert_int_equal(r->group, groups[n].group);
			assert_string_equal(r->group_name, groups[n].name);
			assert_int_equal(r->attr, groups[n].attr);
			if (l->bit >= groups[n].nfields)
				fail_msg("%s.%s: bit %u, the struct has %d fields", r->group_name,
					 r->name, l->bit, groups[n].nfields);
			if (by_bit[l->bit] >= 0)
				fail_msg("%s.%s: bit %u has two rows", r->group_name, r->name, l->bit);
			by_bit[l->bit] = i;
			if (l->off < groups[n].rec_off + sizeof(uint64_t) ||
			    l->off + l->size > groups[n].rec_off + groups[n].size)
				fail_msg("%s.%s: outside its struct", r->group_name, r->name);
			assert_int_equal(l->size, r->attr_size);
		}
		if (count != groups[n].nfields)
			fail_msg("group %s: %d rows, the header has %d fields", groups[n].name, count,
				 groups[n].nfields);
		for (int b = 0; b < groups[n].nfields; b++) {
			const struct td_item_loc *l = &td_item_locs[by_bit[b]];
			size_t off = l->off - groups[n].rec_off;

			if (off < last_end)
				fail_msg("group %s: bit %d (%s) at offset %zu, before the end %zu of bit %d",
					 groups[n].name, b, td_items[by_bit[b]].name, off, last_end,
					 b - 1);
			last_end = off + l->size;
		}
	}
}

/* A few offsets the header spells out, so the table is not its own reference. */
static void test_struct_offsets(void **state)
{
	(void)state;
	assert_int_equal(td_item_locs[TASKDIAG_ITEM_BASE_PPID].off,
			 offsetof(struct taskdiag_task, base) + offsetof(struct task_diag_base, ppid));
	assert_int_equal(td_item_locs[TASKDIAG_ITEM_BASE_PPID].bit, TASK_DIAG_BASE_F_PPID);
	assert_int_equal(td_item_locs[TASKDIAG_ITEM_STAT_WCHAN].off,
			 offsetof(struct taskdiag_task, stat) + offsetof(struct task_diag_stat, wchan));
	assert_int_equal(td_item_locs[TASKDIAG_ITEM_STATUS_UMASK].bit, TASK_DIAG_STATUS_F_UMASK);
	assert_int_equal(td_item_locs[TASKDIAG_ITEM_CRED_NGROUPS].off,
			 offsetof(struct taskdiag_task, cred) +
				 offsetof(struct task_diag_cred, ngroups));
	assert_int_equal(td_item_locs[TASKDIAG_ITEM_CRED_NGROUPS].bit, TASK_DIAG_CRED_F_NGROUPS);
	/* a struct only grows at its end: its VER0 size is a prefix of it */
	assert_true(sizeof(struct task_diag_base) >= TASK_DIAG_BASE_SIZE_VER0);
	assert_true(sizeof(struct task_diag_stat) >= TASK_DIAG_STAT_SIZE_VER0);
	assert_true(sizeof(struct task_diag_statm) >= TASK_DIAG_STATM_SIZE_VER0);
	assert_true(sizeof(struct task_diag_io) >= TASK_DIAG_IO_SIZE_VER0);
	assert_true(sizeof(struct task_diag_status) >= TASK_DIAG_STATUS_SIZE_VER0);
	assert_true(sizeof(struct task_diag_cred) >= TASK_DIAG_CRED_SIZE_VER0);
}

/*
 * The rows outside the group structs: the reply's top-level attributes,
 * each with its own bit of the record's top part.
 */
static void test_top_level_rows(void **state)
{
	static const struct {
		int item, attr;
		uint32_t group;
		const char *group_name;
	} want[] = {
		{ TASKDIAG_ITEM_PID, TASK_DIAG_A_TASK_PID, 0, "task" },
		{ TASKDIAG_ITEM_TGID, TASK_DIAG_A_TASK_TGID, 0, "task" },
		{ TASKDIAG_ITEM_CMDLINE, TASK_DIAG_A_TASK_CMDLINE, TASKDIAG_GROUP_CMDLINE, "task" },
		{ TASKDIAG_ITEM_CMDLINE_LEN, TASK_DIAG_A_TASK_CMDLINE_LEN, TASKDIAG_GROUP_CMDLINE,
		  "task" },
		{ TASKDIAG_ITEM_BASE_COMM, TASK_DIAG_A_TASK_COMM, TASKDIAG_GROUP_BASE, "base" },
		{ TASKDIAG_ITEM_STATUS_CPUS_ALLOWED, TASK_DIAG_A_TASK_CPUS_ALLOWED,
		  TASKDIAG_GROUP_STATUS, "status" },
		{ TASKDIAG_ITEM_STATUS_MEMS_ALLOWED, TASK_DIAG_A_TASK_MEMS_ALLOWED,
		  TASKDIAG_GROUP_STATUS, "status" },
		{ TASKDIAG_ITEM_CRED_GROUPS, TASK_DIAG_A_TASK_GROUPS, TASKDIAG_GROUP_CRED, "cred" },
		{ TASKDIAG_ITEM_STATUS_NSTGID, TASK_DIAG_A_TASK_NS_TGID, TASKDIAG_GROUP_STATUS,
		  "status" },
		{ TASKDIAG_ITEM_STATUS_NSPID, TASK_DIAG_A_TASK_NS_PID, TASKDIAG_GROUP_STATUS,
		  "status" },
		{ TASKDIAG_ITEM_STATUS_NSPGID, TASK_DIAG_A_TASK_NS_PGID, TASKDIAG_GROUP_STATUS,
		  "status" },
		{ TASKDIAG_ITEM_STATUS_NSSID, TASK_DIAG_A_TASK_NS_SID, TASKDIAG_GROUP_STATUS,
		  "status" },
	};
	uint64_t bits = 0;
	int n_top = 0;

	(void)state;
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = &td_items[i];
		const struct td_item_loc *l = &td_item_locs[i];
		size_t k;

		if (struct_of(i) >= 0)
			continue;
		n_top++;
		assert_int_equal(l->mask_off, offsetof(struct taskdiag_task, top.mask));
		assert_false(bits & (1ull << l->bit));
		bits |= 1ull << l->bit;
		for (k = 0; k < sizeof(want) / sizeof(want[0]); k++)
			if (want[k].item == i)
				break;
		if (k == sizeof(want) / sizeof(want[0]))
			fail_msg("%s.%s: not a top-level reply attribute", r->group_name, r->name);
		assert_int_equal(r->attr, want[k].attr);
		assert_int_equal(r->group, want[k].group);
		assert_string_equal(r->group_name, want[k].group_name);
	}
	assert_int_equal(n_top, sizeof(want) / sizeof(want[0]));
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
	assert_int_equal(td_items[TASKDIAG_ITEM_CMDLINE_LEN].attr_size, 4);
	assert_int_equal(td_items[TASKDIAG_ITEM_CMDLINE_LEN].unit, TASKDIAG_UNIT_BYTES);
	assert_int_equal(td_items[TASKDIAG_ITEM_STATUS_NSPID].type, TASKDIAG_TYPE_U32_ARRAY);
	assert_int_equal(td_items[TASKDIAG_ITEM_STATUS_NSSID].unit, TASKDIAG_UNIT_PID);
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
	assert_int_equal(td_group_index(TASKDIAG_GROUP_MEM), 7);
	assert_int_equal(td_group_index(0), -1);
	assert_int_equal(td_group_index(TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT), -1);
	assert_int_equal(td_group_index(TASKDIAG_GROUP_MEM << 1), -1);
}

/*
 * The library's table against the one scripts/gen-abi writes from the YAML
 * spec (items_gen.h): for every field of every struct, the item's unit,
 * size, signedness, place in the record and mask bit are the spec's, and
 * no numeric item lives in a group struct without a row there.
 */
#define TD_GEN_S_u8 0
#define TD_GEN_S_u16 0
#define TD_GEN_S_u32 0
#define TD_GEN_S_u64 0
#define TD_GEN_S_s8 1
#define TD_GEN_S_s16 1
#define TD_GEN_S_s32 1
#define TD_GEN_S_s64 1
static void test_table_matches_spec(void **state)
{
	unsigned char seen[TASKDIAG_ITEM__COUNT] = { 0 };
	int i, rows = 0;

	(void)state;
#define X(_g, _f, _item, _type, _size, _off, _unit, _bit)			\
	do {								\
		const struct taskdiag_item_info *in = taskdiag_item_info(_item); \
		const struct td_item_loc *l = &td_item_locs[_item];		\
									\
		assert_non_null(in);					\
		assert_int_equal(in->unit, TASKDIAG_UNIT_##_unit);	\
		assert_int_equal(in->attr_size, _size);			\
		assert_int_equal(in->type, TD_GEN_S_##_type ? TASKDIAG_TYPE_S64 : TASKDIAG_TYPE_U64); \
		assert_int_equal(l->size, _size);			\
		assert_int_equal(l->off, offsetof(struct taskdiag_task, _g) + (_off)); \
		assert_int_equal(l->mask_off, offsetof(struct taskdiag_task, _g.mask)); \
		assert_int_equal(l->bit, _bit);				\
		assert_int_equal(l->type, in->type);			\
		assert_int_equal(seen[_item]++, 0);			\
		rows++;							\
	} while (0);
	TD_GEN_FIELDS(X)
#undef X
	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct td_item_loc *l = &td_item_locs[i];

		/* The getters check the type the location row carries. */
		assert_int_equal(l->type, td_items[i].type);
		if (l->kind != TD_LOC_BLOB && l->mask_off != offsetof(struct taskdiag_task, top.mask))
			assert_int_equal(seen[i], 1);
	}
	assert_true(rows > 90);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_row_i_is_item_i),
		cmocka_unit_test(test_out_of_range_info_is_null),
		cmocka_unit_test(test_groups_and_scopes_match_abi),
		cmocka_unit_test(test_every_struct_field_has_one_row),
		cmocka_unit_test(test_struct_offsets),
		cmocka_unit_test(test_top_level_rows),
		cmocka_unit_test(test_types_and_sizes),
		cmocka_unit_test(test_names_unique_within_group),
		cmocka_unit_test(test_names_are_identifiers),
		cmocka_unit_test(test_lookup_qualified),
		cmocka_unit_test(test_lookup_bare),
		cmocka_unit_test(test_lookup_unknown),
		cmocka_unit_test(test_group_index),
		cmocka_unit_test(test_table_matches_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
