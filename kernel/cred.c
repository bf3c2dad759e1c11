// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the cred group, the Uid/Gid/Groups/Cap* lines of
 * /proc/PID/status, with ids mapped into the requester's user namespace.
 */
#include <linux/cred.h>
#include <linux/slab.h>
#include <linux/uidgid.h>

#include <linux/task_diag.h>
#include "compat.h"
#include "task_diag.h"

/*
 * At most this many groups go into a message, so that a task with every
 * group keeps within the dump's minimum buffer (TD_DUMP_MIN_ALLOC);
 * NGROUPS carries the real count.
 */
#define TD_MAX_GROUPS 1024

static int td_put_groups(struct sk_buff *skb, const struct group_info *gi,
			 struct user_namespace *uns)
{
	int i, n = min(gi->ngroups, TD_MAX_GROUPS);
	u32 *ids = td_attr_reserve(skb, TASK_DIAG_A_CRED_GROUPS, n * sizeof(u32));

	if (!ids)
		return -EMSGSIZE;
	for (i = 0; i < n; i++)
		ids[i] = from_kgid_munged(uns, gi->gid[i]);
	return td_put_u32(skb, TASK_DIAG_A_CRED_NGROUPS, gi->ngroups);
}

/**
 * td_cred_fill() - write the cred group of one task
 * @skb: the message, with the cred nest open
 * @ctx: the task
 *
 * The task's objective credentials, as task_state() and task_cap() show
 * them; unmapped ids read as the overflow id.
 *
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
static int td_cred_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct user_namespace *uns = ctx->subj->user_ns;
	const struct cred *c;
	int err = -EMSGSIZE;

	c = get_task_cred(ctx->task);
	if (td_put_u32(skb, TASK_DIAG_A_CRED_UID, from_kuid_munged(uns, c->uid)) ||
	    td_put_u32(skb, TASK_DIAG_A_CRED_EUID, from_kuid_munged(uns, c->euid)) ||
	    td_put_u32(skb, TASK_DIAG_A_CRED_SUID, from_kuid_munged(uns, c->suid)) ||
	    td_put_u32(skb, TASK_DIAG_A_CRED_FSUID, from_kuid_munged(uns, c->fsuid)) ||
	    td_put_u32(skb, TASK_DIAG_A_CRED_GID, from_kgid_munged(uns, c->gid)) ||
	    td_put_u32(skb, TASK_DIAG_A_CRED_EGID, from_kgid_munged(uns, c->egid)) ||
	    td_put_u32(skb, TASK_DIAG_A_CRED_SGID, from_kgid_munged(uns, c->sgid)) ||
	    td_put_u32(skb, TASK_DIAG_A_CRED_FSGID, from_kgid_munged(uns, c->fsgid)) ||
	    td_put_groups(skb, c->group_info, uns) ||
	    td_put_u64(skb, TASK_DIAG_A_CRED_CAP_INHERITABLE,
			      td_cap_u64(&c->cap_inheritable), TASK_DIAG_A_CRED_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_CRED_CAP_PERMITTED,
			      td_cap_u64(&c->cap_permitted), TASK_DIAG_A_CRED_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_CRED_CAP_EFFECTIVE,
			      td_cap_u64(&c->cap_effective), TASK_DIAG_A_CRED_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_CRED_CAP_BOUNDING,
			      td_cap_u64(&c->cap_bset), TASK_DIAG_A_CRED_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_CRED_CAP_AMBIENT,
			      td_cap_u64(&c->cap_ambient), TASK_DIAG_A_CRED_PAD))
		goto out_put_cred;
	err = 0;
out_put_cred:
	put_cred(c);
	return err;
}

const struct td_group td_cred_group = {
	.show = TASK_DIAG_SHOW_CRED,
	.attr = TASK_DIAG_A_TASK_CRED,
	.fill = td_cred_fill,
};
