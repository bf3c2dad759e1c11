// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: decoding one task_diag reply message (ABI version 2), shared
 * by the netlink backend, the unit tests and the fuzzer.
 *
 * A message is a flat list of top-level attributes: PID and TGID (u32),
 * one binary attribute per numeric group holding its struct, and the
 * variable-length values (COMM, CMDLINE, CPUS_ALLOWED, MEMS_ALLOWED,
 * GROUPS, the NS_* pid arrays) and CMDLINE_LEN. A group struct is copied into the record in one
 * bounded copy; the getters then read it in place (items.c says where).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/netlink.h>
#include <linux/task_diag.h>

#include "nl.h"

/*
 * The library's structs are the header's; VER0 is the oldest size a reader
 * accepts, at most the size (a struct grows at its end: the fields past a
 * shorter payload read as not set).
 */
_Static_assert(sizeof(struct task_diag_base) >= TASK_DIAG_BASE_SIZE_VER0, "base: VER0 fits");
_Static_assert(sizeof(struct task_diag_stat) >= TASK_DIAG_STAT_SIZE_VER0, "stat: VER0 fits");
_Static_assert(sizeof(struct task_diag_statm) >= TASK_DIAG_STATM_SIZE_VER0, "statm: VER0 fits");
_Static_assert(sizeof(struct task_diag_io) >= TASK_DIAG_IO_SIZE_VER0, "io: VER0 fits");
_Static_assert(sizeof(struct task_diag_status) >= TASK_DIAG_STATUS_SIZE_VER0, "status: VER0 fits");
_Static_assert(sizeof(struct task_diag_cred) >= TASK_DIAG_CRED_SIZE_VER0, "cred: VER0 fits");
_Static_assert(sizeof(struct task_diag_mem) >= TASK_DIAG_MEM_SIZE_VER0, "mem: VER0 fits");
_Static_assert(offsetof(struct task_diag_base, mask) == 0 &&
	       offsetof(struct task_diag_stat, mask) == 0 &&
	       offsetof(struct task_diag_statm, mask) == 0 &&
	       offsetof(struct task_diag_io, mask) == 0 &&
	       offsetof(struct task_diag_status, mask) == 0 &&
	       offsetof(struct task_diag_cred, mask) == 0 &&
	       offsetof(struct task_diag_mem, mask) == 0, "the mask comes first");

enum td_dec_kind {
	TD_DEC_SKIP,		/* PAD, request-only, or newer than this library */
	TD_DEC_U32,		/* exactly 4 bytes, into a top-part item */
	TD_DEC_NEXT_RAN_SINCE,	/* exactly 8 bytes, into top.next_ran_since */
	TD_DEC_RAN_SINCE_IDLE,	/* empty: top.ran_since_idle is 1 */
	TD_DEC_STRUCT,		/* a group struct */
	TD_DEC_STRING,		/* NUL-terminated */
	TD_DEC_U32_ARRAY,	/* a multiple of 4 bytes */
	TD_DEC_BYTES,		/* anything */
};

/*
 * struct td_attr_rule - how one top-level attribute is decoded
 * @kind: enum td_dec_kind
 * @item: the item (U32, STRING, U32_ARRAY, BYTES)
 * @off: the group struct's offset in the record (STRUCT)
 * @size: the size of the struct this library knows (STRUCT)
 * @ver0: the smallest payload accepted (STRUCT)
 */
struct td_attr_rule {
	uint8_t kind;
	uint8_t item;
	uint16_t off;
	uint16_t size;
	uint16_t ver0;
};

_Static_assert(TASKDIAG_ITEM__COUNT <= UINT8_MAX, "td_attr_rule holds an item in a u8");

#define TD_STRUCT_RULE(_member, _ver0) \
	{ .kind = TD_DEC_STRUCT, .off = offsetof(struct taskdiag_task, _member), \
	  .size = sizeof(((struct taskdiag_task *)0)->_member), .ver0 = _ver0 }

static const struct td_attr_rule td_attr_rules[TASK_DIAG_A_TASK_MAX + 1] = {
	[TASK_DIAG_A_TASK_PID] = { .kind = TD_DEC_U32, .item = TASKDIAG_ITEM_PID },
	[TASK_DIAG_A_TASK_TGID] = { .kind = TD_DEC_U32, .item = TASKDIAG_ITEM_TGID },
	[TASK_DIAG_A_TASK_CMDLINE_LEN] = { .kind = TD_DEC_U32, .item = TASKDIAG_ITEM_CMDLINE_LEN },
	[TASK_DIAG_A_TASK_BASE] = TD_STRUCT_RULE(base, TASK_DIAG_BASE_SIZE_VER0),
	[TASK_DIAG_A_TASK_STAT] = TD_STRUCT_RULE(stat, TASK_DIAG_STAT_SIZE_VER0),
	[TASK_DIAG_A_TASK_STATM] = TD_STRUCT_RULE(statm, TASK_DIAG_STATM_SIZE_VER0),
	[TASK_DIAG_A_TASK_IO] = TD_STRUCT_RULE(io, TASK_DIAG_IO_SIZE_VER0),
	[TASK_DIAG_A_TASK_STATUS] = TD_STRUCT_RULE(status, TASK_DIAG_STATUS_SIZE_VER0),
	[TASK_DIAG_A_TASK_CRED] = TD_STRUCT_RULE(cred, TASK_DIAG_CRED_SIZE_VER0),
	[TASK_DIAG_A_TASK_MEM] = TD_STRUCT_RULE(mem, TASK_DIAG_MEM_SIZE_VER0),
	[TASK_DIAG_A_TASK_COMM] = { .kind = TD_DEC_STRING, .item = TASKDIAG_ITEM_BASE_COMM },
	[TASK_DIAG_A_TASK_CMDLINE] = { .kind = TD_DEC_BYTES, .item = TASKDIAG_ITEM_CMDLINE },
	[TASK_DIAG_A_TASK_CPUS_ALLOWED] = { .kind = TD_DEC_U32_ARRAY,
					    .item = TASKDIAG_ITEM_STATUS_CPUS_ALLOWED },
	[TASK_DIAG_A_TASK_MEMS_ALLOWED] = { .kind = TD_DEC_U32_ARRAY,
					    .item = TASKDIAG_ITEM_STATUS_MEMS_ALLOWED },
	[TASK_DIAG_A_TASK_GROUPS] = { .kind = TD_DEC_U32_ARRAY, .item = TASKDIAG_ITEM_CRED_GROUPS },
	[TASK_DIAG_A_TASK_NS_TGID] = { .kind = TD_DEC_U32_ARRAY, .item = TASKDIAG_ITEM_STATUS_NSTGID },
	[TASK_DIAG_A_TASK_NS_PID] = { .kind = TD_DEC_U32_ARRAY, .item = TASKDIAG_ITEM_STATUS_NSPID },
	[TASK_DIAG_A_TASK_NS_PGID] = { .kind = TD_DEC_U32_ARRAY, .item = TASKDIAG_ITEM_STATUS_NSPGID },
	[TASK_DIAG_A_TASK_NS_SID] = { .kind = TD_DEC_U32_ARRAY, .item = TASKDIAG_ITEM_STATUS_NSSID },
	/* Not items (no column, no JSON key): taskdiag_task_next_ran_since(), _is_idle(). */
	[TASK_DIAG_A_TASK_NEXT_RAN_SINCE] = { .kind = TD_DEC_NEXT_RAN_SINCE },
	[TASK_DIAG_A_TASK_RAN_SINCE_IDLE] = { .kind = TD_DEC_RAN_SINCE_IDLE },
};

/*
 * A payload shorter than the struct this library knows (an older module):
 * the fields past its end are absent, whatever its mask says. The rare
 * path, so a walk over the item locations will do.
 */
static void td_trim_mask(struct taskdiag_task *t, uint16_t off, uint32_t len)
{
	uint64_t *mask = (uint64_t *)(void *)((char *)t + off);
	int i;

	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct td_item_loc *l = &td_item_locs[i];

		if (l->mask_off == off && (uint32_t)(l->off - off) + l->size > len)
			*mask &= ~(1ull << l->bit);
	}
}

/* Store one attribute's payload @p of @len bytes as rule @r says. */
static int td_put_attr(struct taskdiag_task *t, const struct td_attr_rule *r,
		       const unsigned char *p, uint32_t len)
{
	uint64_t u64;
	uint32_t u32;

	switch (r->kind) {
	case TD_DEC_NEXT_RAN_SINCE:
		if (len != sizeof(u64))
			return -EBADMSG;
		memcpy(&u64, p, sizeof(u64));
		t->top.next_ran_since = u64;
		t->top.mask |= 1ull << TD_TOP_F_NEXT_RAN_SINCE;
		return 0;
	case TD_DEC_RAN_SINCE_IDLE:
		if (len)
			return -EBADMSG;
		t->top.ran_since_idle = 1;
		t->top.mask |= 1ull << TD_TOP_F_RAN_SINCE_IDLE;
		return 0;
	case TD_DEC_U32:
		if (len != sizeof(u32))
			return -EBADMSG;
		memcpy(&u32, p, sizeof(u32));
		td_task_set_u64(t, r->item, u32);
		return 0;
	case TD_DEC_STRUCT:
		if (len < r->ver0)
			return -EBADMSG;
		/* The payload is only 4-byte aligned: copied, never cast. */
		if (len >= r->size) {
			memcpy((char *)t + r->off, p, r->size);	/* a longer one's tail is ignored */
		} else {
			memcpy((char *)t + r->off, p, len);
			memset((char *)t + r->off + len, 0, r->size - len);
			td_trim_mask(t, r->off, len);
		}
		return 0;
	case TD_DEC_STRING:
		/* The getter hands out the payload as a C string. */
		if (!len || !memchr(p, '\0', len))
			return -EBADMSG;
		td_task_set_blob(t, r->item, p, (uint32_t)strlen((const char *)p));
		return 0;
	case TD_DEC_U32_ARRAY:
		if (len % 4)
			return -EBADMSG;
		td_task_set_blob(t, r->item, p, len);
		return 0;
	case TD_DEC_BYTES:
		td_task_set_blob(t, r->item, p, len);
		return 0;
	default:
		return 0;
	}
}

/*
 * Every attribute must lie wholly within @len, and the stream must end
 * exactly at @len, padding included (the last attribute may lack its
 * padding). @attrs may have any alignment.
 */
int td_nl_parse_task(const void *attrs, size_t len, struct taskdiag_task *t)
{
	const unsigned char *payload;
	struct nlattr nla;
	size_t off = 0;
	int ret, err = 0;

	td_task_reset(t);
	if (!len)
		return -EBADMSG;	/* no pid */
	if (!attrs)
		return -EBADMSG;
	while ((ret = td_attr_next(attrs, len, &off, &nla, &payload)) == 1) {
		unsigned int type = nla.nla_type & NLA_TYPE_MASK;

		/* A type beyond the table: a newer module's; skipped. */
		if (type <= TASK_DIAG_A_TASK_MAX) {
			err = td_put_attr(t, &td_attr_rules[type], payload,
					  nla.nla_len - NLA_HDRLEN);
			if (err)
				break;
		}
	}
	if (ret < 0)
		err = ret;
	if (!err && !td_task_present(t, TASKDIAG_ITEM_PID))
		err = -EBADMSG;
	if (err)
		td_task_reset(t);	/* nothing of a bad message is passed on */
	return err;
}
