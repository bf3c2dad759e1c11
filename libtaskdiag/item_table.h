/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtaskdiag: the item list, one row per enum taskdiag_item (the tables
 * are indexed by item: the order of the rows does not matter). No include
 * guard: it is an X-macro list, expanded by items.c with its own TD_ROW()
 * for each table it builds (the public item table, the record locations)
 * and by the tests.
 *
 * TD_ROW(item, group_name, name, group bit, attribute, container, member,
 *        mask bit, type, unit)
 *
 * container.member is where the value lives in struct taskdiag_task: a
 * group struct of the uapi header (base, stat, ...), whose mask bit is the
 * header's TASK_DIAG_<GROUP>_F_<FIELD>, or the record's own top part
 * (TD_TOP_F_*). Offsets and sizes are derived from these with offsetof()
 * and sizeof(). type and unit are the suffixes of TASKDIAG_TYPE_* and
 * TASKDIAG_UNIT_*.
 *
 * Every field of a group struct is a row of items_gen.h, which scripts/gen-abi
 * writes from the YAML spec (its name, item, unit and mask bit): those rows
 * are expanded at the end. Kept by hand here is only what the spec does not
 * say: the items outside the group structs (the record's top part: pid,
 * comm, cmdline, the arrays) and, per group, its TASKDIAG_GROUP_* bit.
 */
/* The items outside the group structs. */
TD_ROW(TASKDIAG_ITEM_PID, "task", "pid", 0, TASK_DIAG_A_TASK_PID, top, pid, TD_TOP_F_PID, U64, PID)
TD_ROW(TASKDIAG_ITEM_TGID, "task", "tgid", 0, TASK_DIAG_A_TASK_TGID, top, tgid, TD_TOP_F_TGID, U64, PID)
TD_ROW(TASKDIAG_ITEM_CMDLINE, "task", "cmdline", TASKDIAG_GROUP_CMDLINE, TASK_DIAG_A_TASK_CMDLINE, top, cmdline, TD_TOP_F_CMDLINE, BYTES, TEXT)
TD_ROW(TASKDIAG_ITEM_BASE_COMM, "base", "comm", TASKDIAG_GROUP_BASE, TASK_DIAG_A_TASK_COMM, top, comm, TD_TOP_F_COMM, STRING, TEXT)
TD_ROW(TASKDIAG_ITEM_STATUS_CPUS_ALLOWED, "status", "cpus_allowed", TASKDIAG_GROUP_STATUS, TASK_DIAG_A_TASK_CPUS_ALLOWED, top, cpus_allowed, TD_TOP_F_CPUS_ALLOWED, U32_ARRAY, BITMAP)
TD_ROW(TASKDIAG_ITEM_STATUS_MEMS_ALLOWED, "status", "mems_allowed", TASKDIAG_GROUP_STATUS, TASK_DIAG_A_TASK_MEMS_ALLOWED, top, mems_allowed, TD_TOP_F_MEMS_ALLOWED, U32_ARRAY, BITMAP)
TD_ROW(TASKDIAG_ITEM_CRED_GROUPS, "cred", "groups", TASKDIAG_GROUP_CRED, TASK_DIAG_A_TASK_GROUPS, top, groups, TD_TOP_F_GROUPS, U32_ARRAY, ID)
TD_ROW(TASKDIAG_ITEM_CMDLINE_LEN, "task", "cmdline_len", TASKDIAG_GROUP_CMDLINE, TASK_DIAG_A_TASK_CMDLINE_LEN, top, cmdline_len, TD_TOP_F_CMDLINE_LEN, U64, BYTES)
TD_ROW(TASKDIAG_ITEM_STATUS_NSTGID, "status", "nstgid", TASKDIAG_GROUP_STATUS, TASK_DIAG_A_TASK_NS_TGID, top, ns_tgid, TD_TOP_F_NS_TGID, U32_ARRAY, PID)
TD_ROW(TASKDIAG_ITEM_STATUS_NSPID, "status", "nspid", TASKDIAG_GROUP_STATUS, TASK_DIAG_A_TASK_NS_PID, top, ns_pid, TD_TOP_F_NS_PID, U32_ARRAY, PID)
TD_ROW(TASKDIAG_ITEM_STATUS_NSPGID, "status", "nspgid", TASKDIAG_GROUP_STATUS, TASK_DIAG_A_TASK_NS_PGID, top, ns_pgid, TD_TOP_F_NS_PGID, U32_ARRAY, PID)
TD_ROW(TASKDIAG_ITEM_STATUS_NSSID, "status", "nssid", TASKDIAG_GROUP_STATUS, TASK_DIAG_A_TASK_NS_SID, top, ns_sid, TD_TOP_F_NS_SID, U32_ARRAY, PID)

/* A group's TASKDIAG_GROUP_* bit and attribute (checked against items_gen.h's structs). */
#define TD_GROUP_base TASKDIAG_GROUP_BASE, TASK_DIAG_A_TASK_BASE
#define TD_GROUP_stat TASKDIAG_GROUP_STAT, TASK_DIAG_A_TASK_STAT
#define TD_GROUP_statm TASKDIAG_GROUP_STATM, TASK_DIAG_A_TASK_STATM
#define TD_GROUP_io TASKDIAG_GROUP_IO, TASK_DIAG_A_TASK_IO
#define TD_GROUP_status TASKDIAG_GROUP_STATUS, TASK_DIAG_A_TASK_STATUS
#define TD_GROUP_cred TASKDIAG_GROUP_CRED, TASK_DIAG_A_TASK_CRED
#define TD_GROUP_mem TASKDIAG_GROUP_MEM, TASK_DIAG_A_TASK_MEM
/* A field's C type -> the item's type: every number is read as 64 bits. */
#define TD_TYPE_u8 U64
#define TD_TYPE_u16 U64
#define TD_TYPE_u32 U64
#define TD_TYPE_u64 U64
#define TD_TYPE_s8 S64
#define TD_TYPE_s16 S64
#define TD_TYPE_s32 S64
#define TD_TYPE_s64 S64
/*
 * TD_ROW with its arguments expanded first (TD_GROUP_* gives two). These
 * helpers stay defined (the same definitions at each inclusion): items.c
 * checks TD_GROUP_* against items_gen.h's structs.
 */
#define TD_ROW_X(...) TD_ROW(__VA_ARGS__)
#define TD_GEN_ROW(_group, _field, _item, _type, _size, _offset, _unit, _bit)	\
	TD_ROW_X(_item, #_group, #_field, TD_GROUP_##_group, _group, _field, _bit,	\
		 TD_TYPE_##_type, _unit)

/* The fields of the group structs, from the spec. */
TD_GEN_FIELDS(TD_GEN_ROW)

