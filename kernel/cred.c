// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the cred group, the Uid/Gid/Groups/Cap* lines of
 * /proc/PID/status, with ids mapped into the requester's user namespace.
 */
#include <linux/cred.h>
#include <linux/rcupdate.h>
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
	u32 *ids = td_attr_reserve(skb, TASK_DIAG_A_TASK_GROUPS, n * sizeof(u32));

	if (!ids)
		return -EMSGSIZE;
	for (i = 0; i < n; i++)
		ids[i] = from_kgid_munged(uns, gi->gid[i]);
	return 0;
}

/**
 * td_cred_fill() - write the cred struct and the groups of one task
 * @skb: the message
 * @ctx: the task
 *
 * The task's objective credentials, as task_state() and task_cap() show
 * them; unmapped ids read as the overflow id. Every field is filled.
 *
 * Context: reads the credentials under rcu_read_lock() (they are freed
 * after a grace period once replaced) rather than taking a reference:
 * nothing here sleeps.
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
static int td_cred_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct user_namespace *uns = ctx->subj->user_ns;
	struct task_diag_cred *cr;
	const struct cred *c;
	int err;

	cr = td_reserve(skb, TASK_DIAG_A_TASK_CRED, struct task_diag_cred);
	if (!cr)
		return -EMSGSIZE;
	rcu_read_lock();
	c = __task_cred(ctx->task);
	cr->uid = from_kuid_munged(uns, c->uid);
	cr->euid = from_kuid_munged(uns, c->euid);
	cr->suid = from_kuid_munged(uns, c->suid);
	cr->fsuid = from_kuid_munged(uns, c->fsuid);
	cr->gid = from_kgid_munged(uns, c->gid);
	cr->egid = from_kgid_munged(uns, c->egid);
	cr->sgid = from_kgid_munged(uns, c->sgid);
	cr->fsgid = from_kgid_munged(uns, c->fsgid);
	cr->ngroups = c->group_info->ngroups;
	cr->cap_inheritable = td_cap_u64(&c->cap_inheritable);
	cr->cap_permitted = td_cap_u64(&c->cap_permitted);
	cr->cap_effective = td_cap_u64(&c->cap_effective);
	cr->cap_bounding = td_cap_u64(&c->cap_bset);
	cr->cap_ambient = td_cap_u64(&c->cap_ambient);
	cr->mask = TD_F_UPTO(CRED, CAP_AMBIENT);
	err = td_put_groups(skb, c->group_info, uns);
	rcu_read_unlock();
	return err;
}

static size_t td_cred_msg_size(void)
{
	return td_struct_msg_size(struct task_diag_cred) +
	       nla_total_size(TD_MAX_GROUPS * sizeof(u32));
}

const struct td_group td_cred_group = {
	.show = TASK_DIAG_SHOW_CRED,
	.fill = td_cred_fill,
	.msg_size = td_cred_msg_size,
};
