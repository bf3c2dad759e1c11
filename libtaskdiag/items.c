// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the item table and where each item lives in a record, both
 * expanded from the X-macro list item_table.h, whose rows for the group
 * structs' fields come from the spec (items_gen.h; a unit test checks that
 * row i describes item i and agrees with the uapi header). It drives the
 * getters, the procfs backend, the CLI columns and the JSON keys: a new
 * field of a group is its spec entry (and the enum line gen-abi checks).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <linux/task_diag.h>

#include "internal.h"
#include "items_gen.h"

/* The size of container.member of a record. */
#define TD_MSIZE(_cont, _mem) sizeof(((struct taskdiag_task *)0)->_cont._mem)
#define TD_IS_NUM(_type) (TASKDIAG_TYPE_##_type == TASKDIAG_TYPE_U64 ||	\
			  TASKDIAG_TYPE_##_type == TASKDIAG_TYPE_S64)

#define TD_ROW(_item, _gname, _name, _group, _attr, _cont, _mem, _bit, _type, _unit) \
	[_item] = {							\
		.item = _item,						\
		.group_name = _gname,					\
		.name = _name,						\
		.group = _group,					\
		.attr = _attr,						\
		.type = TASKDIAG_TYPE_##_type,				\
		.unit = TASKDIAG_UNIT_##_unit,				\
		.attr_size = TD_IS_NUM(_type) ? TD_MSIZE(_cont, _mem) : 0,	\
	},

const struct taskdiag_item_info td_items[TASKDIAG_ITEM__COUNT] = {
#include "item_table.h"
};
#undef TD_ROW

#define TD_ROW(_item, _gname, _name, _group, _attr, _cont, _mem, _bit, _type, _unit) \
	[_item] = {							\
		.mask_off = offsetof(struct taskdiag_task, _cont.mask),	\
		.off = offsetof(struct taskdiag_task, _cont._mem),	\
		.size = TD_MSIZE(_cont, _mem),				\
		.bit = _bit,						\
		.kind = !TD_IS_NUM(_type) ? TD_LOC_BLOB :		\
			TASKDIAG_TYPE_##_type == TASKDIAG_TYPE_S64 ? TD_LOC_SIGNED : \
			TD_LOC_UNSIGNED,				\
		.type = TASKDIAG_TYPE_##_type,				\
	},

const struct td_item_loc td_item_locs[TASKDIAG_ITEM__COUNT] = {
#include "item_table.h"
};
#undef TD_ROW

/* Checked at build time: every bit fits its mask, every number a getter's load. */
#define TD_ROW(_item, _gname, _name, _group, _attr, _cont, _mem, _bit, _type, _unit) \
	_Static_assert((_bit) < 64, #_item ": mask bit out of range");	\
	_Static_assert(!TD_IS_NUM(_type) || TD_MSIZE(_cont, _mem) == 1 ||	\
		       TD_MSIZE(_cont, _mem) == 2 || TD_MSIZE(_cont, _mem) == 4 || \
		       TD_MSIZE(_cont, _mem) == 8, #_item ": not a number's size"); \
	_Static_assert(TD_IS_NUM(_type) ||					\
		       TD_MSIZE(_cont, _mem) == sizeof(struct td_blob),	\
		       #_item ": a blob item must name a struct td_blob");
#include "item_table.h"
#undef TD_ROW
_Static_assert(sizeof(struct taskdiag_task) <= UINT16_MAX, "td_item_loc offsets are u16");

/* item_table.h's attribute of each group is the one the spec gives its struct. */
#define TD_SECOND(_a, _b) (_b)
#define TD_SECOND_X(...) TD_SECOND(__VA_ARGS__)
#define TD_STRUCT_CHECK(_group, _attr, _size, _size0, _n)			\
	_Static_assert(TD_SECOND_X(TD_GROUP_##_group) == (_attr), #_group ": attribute");
TD_GEN_STRUCTS(TD_STRUCT_CHECK)
#undef TD_STRUCT_CHECK

const struct taskdiag_item_info *taskdiag_item_info(enum taskdiag_item item)
{
	if ((unsigned int)item >= TASKDIAG_ITEM__COUNT)
		return NULL;
	return &td_items[item];
}

int taskdiag_item_lookup(const char *name)
{
	const char *dot;
	int i, found = -ENOENT;

	if (!name)
		return -EINVAL;
	dot = strchr(name, '.');
	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = &td_items[i];

		if (dot) {
			size_t glen = (size_t)(dot - name);

			if (strlen(r->group_name) == glen && !strncmp(r->group_name, name, glen) &&
			    !strcmp(r->name, dot + 1))
				return i;
		} else if (!strcmp(r->name, name)) {
			if (found >= 0)
				return -EEXIST;	/* ambiguous: qualify it */
			found = i;
		}
	}
	return found;
}

/* Group bit -> index 0..7 of the group's nest table, or -1. */
int td_group_index(uint32_t group)
{
	if (!group || (group & (group - 1)) || group > TASKDIAG_GROUP_MEM)
		return -1;
	return __builtin_ctz(group);
}
