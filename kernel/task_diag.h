/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_diag: internal interfaces between the core (main.c) and the
 * per-group files (base.c, stat.c, ...).
 */
#ifndef _TASK_DIAG_INTERNAL_H
#define _TASK_DIAG_INTERNAL_H

#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <net/netlink.h>

#include "compat.h"

/**
 * struct td_caps - the capabilities the permission checks ask about
 * @ptrace: CAP_SYS_PTRACE over the initial user namespace
 * @dac: CAP_DAC_READ_SEARCH or CAP_DAC_OVERRIDE in the credential's own
 *       user namespace
 */
struct td_caps {
	bool ptrace;
	bool dac;
};

/**
 * struct td_subject - who asks, fixed when the request arrives
 * @sender: credentials of the process that sent the request
 * @opener: credentials of the process that opened the socket, or NULL when
 *          they are @sender itself
 * @sender_tgid: thread group of the sender (for the same-group rule)
 * @ns: the sender's pid namespace; pids are reported in it
 * @boottime_offset: the sender's time namespace's boot-time offset, in ns
 * @sender_caps: capabilities of @sender, looked up once (td_subject_caps())
 * @opener_caps: the same for @opener
 *
 * Both credentials must pass every permission check (the netlink_ns_capable
 * rule), so a socket handed to a more privileged program gains nothing.
 */
struct td_subject {
	const struct cred *sender;
	const struct cred *opener;
	struct pid *sender_tgid;
	struct pid_namespace *ns;
	u64 boottime_offset;
	struct td_caps sender_caps;
	struct td_caps opener_caps;
};

/**
 * struct td_task_ctx - one task being written
 * @subj: the requester
 * @task: the task, referenced by the caller
 * @mm: the task's mm (referenced) or NULL; valid when @mm_done
 * @whole: report whole-process values (as /proc/PID) rather than per-thread
 * @mm_done: @mm was looked up
 * @perm: -1 not computed yet, else whether the requester passes the
 *        procfs ptrace read check for @task
 */
struct td_task_ctx {
	const struct td_subject *subj;
	struct task_struct *task;
	struct mm_struct *mm;
	bool whole;
	bool mm_done;
	int perm;
};

/**
 * struct td_group - one reply group (a nest in the task message)
 * @show: its TASK_DIAG_SHOW_* bit
 * @attr: its TASK_DIAG_A_TASK_* attribute
 * @flat: @attr is not a nest: @fill writes it itself
 * @fill: write the group's attributes into the open nest (or, if @flat,
 *        write @attr). Called in
 *        process context without locks held; may sleep. Returns 0,
 *        -EMSGSIZE when @skb is full, or -ENOENT to omit the whole nest
 *        (e.g. a guarded group the requester may not see).
 */
struct td_group {
	u32 show;
	int attr;
	bool flat;
	int (*fill)(struct sk_buff *skb, struct td_task_ctx *ctx);
};

/*
 * Attribute writers for the per-task hot path. nla_put() and friends are
 * out-of-line calls that each re-check the room, call skb_put() and then
 * memset() the padding and memcpy() the value; a full dump writes ~90
 * attributes per task through them. These do the same with one inline
 * tailroom test and direct stores. A dump skb is linear; for a non-linear
 * one skb_tailroom() is 0 and they report -EMSGSIZE.
 *
 * Return: the payload (its padding zeroed) or NULL when @skb is full.
 */
static __always_inline void *td_attr_reserve(struct sk_buff *skb, int type, int len)
{
	int total = nla_total_size(len);
	struct nlattr *nla;

	if (unlikely(skb_tailroom(skb) < total))
		return NULL;
	nla = (struct nlattr *)skb_tail_pointer(skb);
	nla->nla_len = nla_attr_size(len);
	nla->nla_type = type;
	if (total != nla_attr_size(len))
		put_unaligned(0U, (u32 *)((char *)nla + total - 4));
	skb->tail += total;
	skb->len += total;
	return nla_data(nla);
}

static __always_inline int td_put_u8(struct sk_buff *skb, int type, u8 v)
{
	u8 *d = td_attr_reserve(skb, type, sizeof(v));

	if (!d)
		return -EMSGSIZE;
	*d = v;
	return 0;
}

static __always_inline int td_put_u32(struct sk_buff *skb, int type, u32 v)
{
	void *d = td_attr_reserve(skb, type, sizeof(v));

	if (!d)
		return -EMSGSIZE;
	put_unaligned(v, (u32 *)d);
	return 0;
}

static __always_inline int td_put_s32(struct sk_buff *skb, int type, s32 v)
{
	return td_put_u32(skb, type, (u32)v);
}

/*
 * A u64 needs no alignment where unaligned access is efficient (x86,
 * arm64); elsewhere nla_put_64bit() inserts the @pad attribute.
 */
static __always_inline int td_put_u64(struct sk_buff *skb, int type, u64 v, int pad)
{
	void *d;

	if (nla_need_padding_for_64bit(skb))
		return nla_put_64bit(skb, type, sizeof(v), &v, pad);
	d = td_attr_reserve(skb, type, sizeof(v));
	if (!d)
		return -EMSGSIZE;
	put_unaligned(v, (u64 *)d);
	return 0;
}

/* A NUL-terminated string of at most @max bytes (NUL included). */
static __always_inline int td_put_strn(struct sk_buff *skb, int type, const char *s,
				       size_t max)
{
	size_t n = strnlen(s, max - 1);
	char *d = td_attr_reserve(skb, type, n + 1);

	if (!d)
		return -EMSGSIZE;
	memcpy(d, s, n);
	d[n] = '\0';
	return 0;
}

/* nla_nest_start() without the call; close it with nla_nest_end(). */
static __always_inline struct nlattr *td_nest_start(struct sk_buff *skb, int type)
{
	void *d = td_attr_reserve(skb, type | NLA_F_NESTED, 0);

	return d ? (struct nlattr *)((char *)d - NLA_HDRLEN) : NULL;
}

extern const struct td_group td_base_group;
extern const struct td_group td_stat_group;
extern const struct td_group td_statm_group;
extern const struct td_group td_io_group;
extern const struct td_group td_status_group;
extern const struct td_group td_cred_group;
extern const struct td_group td_cmdline_group;

extern bool td_ptrace_cap_only;

void td_subject_caps(struct td_subject *s);
bool td_may_read(struct td_task_ctx *ctx);
bool td_may_read_io(struct td_task_ctx *ctx);
struct mm_struct *td_task_mm(struct td_task_ctx *ctx);

#endif /* _TASK_DIAG_INTERNAL_H */
