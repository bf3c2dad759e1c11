/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_diag: internal interfaces between the core (main.c: the family and
 * the task walk), the permission layer (perm.c), the filters (filter.c),
 * the VMA dump (vma.c) and the per-group files (base.c, stat.c, ...).
 */
#ifndef _TASK_DIAG_INTERNAL_H
#define _TASK_DIAG_INTERNAL_H

#include <linux/bits.h>
#include <linux/cred.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/skbuff.h>
#include <net/netlink.h>

#include <linux/task_diag.h>
#include "compat.h"

/**
 * struct td_caps - the capabilities the permission checks ask about
 * @ptrace: CAP_SYS_PTRACE over the initial user namespace
 * @dac: CAP_DAC_READ_SEARCH or CAP_DAC_OVERRIDE in the credential's own
 *       user namespace
 * @perfmon: perfmon_capable() (CAP_PERFMON or CAP_SYS_ADMIN over the
 *           initial user namespace), where mm_access() admits it
 */
struct td_caps {
	bool ptrace;
	bool dac;
	bool perfmon;
};

/**
 * enum td_rule - how a party's ptrace read check is made
 * @TD_RULE_DAC: the discretionary part of __ptrace_may_access(), as procfs
 *               makes it (less the LSM hook, which a module cannot call)
 * @TD_RULE_NNP: the party has no_new_privs (every Landlock domain and
 *               seccomp sandbox needs it) and the nnp_cap_only parameter
 *               is on: tasks outside its own thread group only with
 *               CAP_SYS_PTRACE, for an LSM may confine it where the module
 *               cannot look
 */
enum td_rule {
	TD_RULE_DAC,
	TD_RULE_NNP,
};

/**
 * struct td_who - one party whose view of /proc bounds the reply
 * @cred: its credentials
 * @caps: capabilities of @cred, looked up once (td_who_init())
 * @tgid: its thread group, for the same-thread-group exemption of ptrace;
 *        NULL for the socket's opener, whose process is not known
 * @in_pid_gid: @cred is a member of the procfs instance's gid= group
 *              (in_group_p(): fsgid or a supplementary group)
 * @rule: how its ptrace read check is made
 */
struct td_who {
	const struct cred *cred;
	struct td_caps caps;
	struct pid *tgid;
	bool in_pid_gid;
	enum td_rule rule;
};

/**
 * struct td_ids - a sorted array of ids of a filter
 * @v: the ids, ascending (kmalloc'd), or NULL
 * @n: entries in @v; 0 means no such filter
 */
struct td_ids {
	u32 *v;
	u32 n;
};

/**
 * struct td_filter - a dump's filters (kernel/filter.c), fixed at its start
 * @pids: filter-pid
 * @uids: filter-uid (as mapped into the opener's user namespace)
 * @euids: filter-euid
 * @cgrp: the cgroup of filter-cgroup-id or -path (referenced), or NULL
 * @comm: filter-comm, valid when @has_comm
 * @has_comm: the request has filter-comm
 * @ran_since: the request has ran-since
 * @idle: ran-since-idle: write tasks that did not run as idle records
 * @guarded: a filter on something a listing of /proc does not show (all
 *           but filter-pid): a task of hidepid=noaccess never matches
 * @since: ran-since's value
 * @stamp: next-ran-since: local_clock() when the dump started
 */
struct td_filter {
	struct td_ids pids;
	struct td_ids uids;
	struct td_ids euids;
	struct cgroup *cgrp;
	char comm[64];
	bool has_comm;
	bool ran_since;
	bool idle;
	bool guarded;
	u64 since;
	u64 stamp;
};

/**
 * struct td_subject - who asks, and through which procfs
 * @tgid: the sender's thread group (referenced): the only one whose
 *        recvmsg() a dump is written in (td_view_init())
 * @exec_id: the sender's self_exec_id when it sent the request: after an
 *           execve() the thread group runs another program, which may not
 *           read on
 * @opener: the credentials the socket was opened with (referenced), or
 *          NULL for a socket without a file; td_view_init() leaves them
 *          out where they are the sender's of the moment (the same object)
 * @user_ns: uids and gids are mapped into it: the opener's user namespace,
 *           as sock_diag's sk_user_ns() and procfs's seq_user_ns() do
 *           (referenced)
 * @ns: the pid namespace of the procfs instance (referenced): the tasks
 *      walked and the pids reported are those it lists, as procfs does;
 *      it is the sender's pid namespace or a descendant of it
 * @procfs: the root of that procfs instance (referenced): its hidepid= and
 *          gid= are read again for each part of the reply, as procfs reads
 *          them at each access, so a remount reaches a running dump
 * @boottime_offset: the sender's time namespace's boot-time offset, in ns
 * @hide_pid: the hidepid= of the procfs instance, an enum proc_hidepid
 *            value, as td_view_init() last read it
 * @pid_gid: the gid= of that instance, as td_view_init() last read it
 * @cap_only: ptrace_cap_only, read once when the request arrived
 * @nnp_cap_only: nnp_cap_only, read once when the request arrived
 * @filter: the request's filters
 *
 * The sender itself is not stored: each part of a reply is written in the
 * sender's thread group, running the program that sent the request, and is
 * judged with the credentials it holds then (td_view_init()).
 */
struct td_subject {
	struct pid *tgid;
	u64 exec_id;
	const struct cred *opener;
	struct user_namespace *user_ns;
	struct pid_namespace *ns;
	struct path procfs;
	u64 boottime_offset;
	int hide_pid;
	kgid_t pid_gid;
	bool cap_only;
	bool nnp_cap_only;
	struct td_filter filter;
};

#define TD_MAX_WHO 2

/**
 * struct td_view - the parties that bound one part of a reply
 * @subj: the request
 * @who: the parties that must all pass: the sender, and the opener if its
 *       credentials are not the sender's
 * @n: entries in @who
 * @self: the sender as it is when this part is written: current (a thread
 *        of its thread group) with its credentials of now, valid for the
 *        call only
 * @opener: the socket's opener
 * @nowait: this part is written under genetlink's cb_lock (a do, called
 *          from genl_rcv(); a dump writes no task there): no lock another
 *          task can hold without bound (exec_update_lock, the mmap lock)
 *          is waited for longer than until @deadline, and no page walk
 *          goes on past it; see td_down_read()
 * @deadline: with @nowait, the local_clock() after which a busy lock is
 *            no longer polled and a walk gives up (TD_NOWAIT_NS after the
 *            view was set up)
 */
struct td_view {
	const struct td_subject *subj;
	const struct td_who *who[TD_MAX_WHO];
	int n;
	struct td_who self;
	struct td_who opener;
	bool nowait;
	u64 deadline;
};

/*
 * The longest a part written under cb_lock waits, in all, for the locks of
 * its targets: a writer of cb_lock (a family being registered) and every
 * generic netlink request behind it wait that long at most, and a lock
 * held for a moment (an mmap() of the target, an exec) rarely costs the
 * reply its data.
 */
#define TD_NOWAIT_NS (20 * NSEC_PER_MSEC)

int td_down_read(const struct td_view *v, struct rw_semaphore *sem);
int td_mmap_read_lock(const struct td_view *v, struct mm_struct *mm);

/**
 * struct td_task_ctx - one task being written
 * @subj: the requester
 * @view: the parties whose checks apply to this part of the reply
 * @task: the task, referenced by the caller
 * @mm: the task's mm (referenced) or NULL; valid when @mm_done
 * @whole: report whole-process values (as /proc/PID) rather than per-thread
 * @mm_done: @mm was looked up
 * @busy: a lock the guarded values need was busy under cb_lock, or a
 *        walk passed the view's deadline: they are withheld (td_busy())
 * @known: bit i set: @ok's bit i holds whether @view->who[i] passes the
 *         procfs ptrace read check for @task
 * @ok: see @known
 * @st: the struct the last td_group::fill reserved, or NULL
 * @counters_done: @counters were read
 * @counters: @mm's rss counters as statm and status read them
 *            (td_mm_counter()), read once for both groups: on kernels
 *            where that is the exact sum, each read walks every CPU
 */
struct td_task_ctx {
	const struct td_subject *subj;
	const struct td_view *view;
	struct task_struct *task;
	struct mm_struct *mm;
	bool whole;
	bool mm_done;
	bool busy;
	u8 known;
	u8 ok;
	bool counters_done;
	void *st;
	unsigned long counters[NR_MM_COUNTERS];
};

/**
 * enum td_vis - what the hidepid= of the requester's /proc leaves of a task
 * @TD_VIS_FULL: everything the other checks allow
 * @TD_VIS_LISTED: only what a listing of /proc shows (hidepid=noaccess)
 * @TD_VIS_HIDDEN: nothing (hidepid=invisible or ptraceable)
 */
enum td_vis {
	TD_VIS_FULL,
	TD_VIS_LISTED,
	TD_VIS_HIDDEN,
};

/**
 * enum td_match - what the filters make of a task
 * @TD_MATCH_YES: write it
 * @TD_MATCH_NO: leave it out
 * @TD_MATCH_IDLE: write it as an idle record (pid, tgid, next-ran-since,
 *                 ran-since-idle)
 */
enum td_match {
	TD_MATCH_YES,
	TD_MATCH_NO,
	TD_MATCH_IDLE,
};

/**
 * struct td_group - one reply group with a struct
 * @show: its TASK_DIAG_SHOW_* bit
 * @fill: write the group's attributes: its struct (TASK_DIAG_A_TASK_<G>,
 *        reserved with td_reserve(), its address left in ctx->st) and its
 *        variable-length attributes. Called in process context without
 *        locks held; may sleep. Returns 0, -EMSGSIZE when @skb is full,
 *        -ENOENT to leave the group out (e.g. a guarded group the
 *        requester may not see: nothing of it may have been written then),
 *        or -ESRCH to skip the task. On any error but -ENOENT the caller
 *        cancels the message.
 * @locked: optional: fill the fields procfs reads under the task's siglock
 *          into @st, the struct @fill reserved. Called after every @fill,
 *          in one siglock section for all groups, if the task still has a
 *          sighand; must not sleep.
 * @late: optional: finish @st, the struct @fill reserved, after the
 *        task's exec_update_lock was released (the mem group's page walk,
 *        which procfs makes without it). Called after every @locked, in
 *        group order, while @st's attribute is still the last of @skb; may
 *        sleep. Returns 0, -ENOENT (the attribute taken out of @skb again)
 *        or an error that cancels the message.
 * @msg_size: the most room @fill takes in a message, attribute headers
 *            and padding included (sizes a do reply)
 */
struct td_group {
	u32 show;
	int (*fill)(struct sk_buff *skb, struct td_task_ctx *ctx);
	void (*locked)(struct td_task_ctx *ctx, void *st);
	int (*late)(struct sk_buff *skb, struct td_task_ctx *ctx, void *st);
	size_t (*msg_size)(void);
};

/* The room of a struct attribute, with the pad attribute it may need. */
#define td_struct_msg_size(type) nla_total_size_64bit(sizeof(type))

/*
 * Attribute writers for the per-task hot path. nla_put() and friends are
 * out-of-line calls that each re-check the room, call skb_put() and then
 * memset() the padding and memcpy() the value; the pids and the
 * variable-length attributes go through these instead: one inline
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

/*
 * Cut the last attribute of @skb, @nla (from td_attr_reserve()), to a
 * payload of @len bytes, at most the one it was reserved with, and zero
 * its new padding.
 */
static inline void td_attr_shrink(struct sk_buff *skb, struct nlattr *nla, int len)
{
	int cut = nla_total_size(nla_len(nla)) - nla_total_size(len);

	nla->nla_len = nla_attr_size(len);
	skb->tail -= cut;
	skb->len -= cut;
	memset((char *)nla + nla->nla_len, 0, nla_padlen(len));
}

static __always_inline int td_put_u32(struct sk_buff *skb, int type, u32 v)
{
	void *d = td_attr_reserve(skb, type, sizeof(v));

	if (!d)
		return -EMSGSIZE;
	put_unaligned(v, (u32 *)d);
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

/* The mask bit of a struct field: TD_F(STAT, MINFLT). */
#define TD_F(group, field)	BIT_ULL(TASK_DIAG_##group##_F_##field)
/* The mask bits 0..@last: TD_F_UPTO(BASE, STATE). */
#define TD_F_UPTO(group, last)	GENMASK_ULL(TASK_DIAG_##group##_F_##last, 0)

/**
 * td_struct_reserve() - reserve a group's struct as one attribute
 * @skb: the message
 * @attr: its TASK_DIAG_A_TASK_* attribute
 * @size: sizeof the struct (a multiple of 8)
 *
 * The payload is 8-aligned where unaligned access is slow (a
 * TASK_DIAG_A_TASK_PAD attribute goes before it then), else 4-aligned, as
 * inet_diag reserves tcp_info; the fill writes its members in place. It is
 * zeroed, so every byte that reaches user space was written: a field left
 * unfilled, and the __reserved members, read 0, their mask bits clear.
 *
 * Return: the payload, or NULL when @skb is full.
 */
static __always_inline void *td_struct_reserve(struct sk_buff *skb, int attr, int size)
{
	struct nlattr *nla = nla_reserve_64bit(skb, attr, size, TASK_DIAG_A_TASK_PAD);
	void *p;

	if (!nla)
		return NULL;
	p = nla_data(nla);
	memset(p, 0, size);
	return p;
}

#define td_reserve(skb, attr, type) ((type *)td_struct_reserve(skb, attr, sizeof(type)))

extern const struct td_group td_base_group;
extern const struct td_group td_stat_group;
extern const struct td_group td_statm_group;
extern const struct td_group td_io_group;
extern const struct td_group td_status_group;
extern const struct td_group td_cred_group;
extern const struct td_group td_mem_group;

int td_cmdline_fill(struct sk_buff *skb, struct td_task_ctx *ctx);
size_t td_cmdline_msg_size(void);

/* perm.c: the parties, their checks, and the target's locks */
extern bool td_ptrace_cap_only;
extern bool td_nnp_cap_only;

struct td_subject *td_subject_new(struct sk_buff *skb, struct nlattr **attrs,
				  struct netlink_ext_ack *extack, int *err);
void td_subject_free(struct td_subject *s);
enum td_vis td_target_visibility(struct td_subject *subj, struct pid *pid);

int td_subject_procfs(struct td_subject *s, const struct nlattr *fd_attr,
		      struct netlink_ext_ack *extack);
int td_view_init(struct td_view *v, struct td_subject *s, bool nowait,
		 struct netlink_ext_ack *extack);
enum td_vis td_visibility(struct td_task_ctx *ctx);
bool td_may_read(struct td_task_ctx *ctx);
bool td_may_access_mm(struct td_task_ctx *ctx, struct mm_struct *mm);
bool td_may_read_io(struct td_task_ctx *ctx);
struct mm_struct *td_task_mm(struct td_task_ctx *ctx);
const unsigned long *td_task_counters(struct td_task_ctx *ctx, struct mm_struct *mm);
int td_busy(struct td_task_ctx *ctx);

/* filter.c */
int td_filter_parse(struct td_filter *f, struct nlattr **attrs, bool dump,
		    struct netlink_ext_ack *extack);
void td_filter_free(struct td_filter *f);
bool td_filter_next_pid(const struct td_filter *f, u32 *nr);
enum td_match td_filter_match(struct td_task_ctx *ctx, enum td_vis vis, pid_t nr);
bool td_filter_walk_skip(const struct td_subject *subj, struct task_struct *task,
			 bool whole, unsigned int *read);

/* main.c */
extern struct genl_family td_family;
int td_dump_header(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd);

/* vma.c */
void td_vma_init(void);
int td_vma_dump_start(struct netlink_callback *cb);
int td_vma_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int td_vma_dump_done(struct netlink_callback *cb);

#endif /* _TASK_DIAG_INTERNAL_H */
