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

/**
 * struct td_subject - who asks, fixed when the request arrives
 * @sender: credentials of the process that sent the request
 * @opener: credentials of the process that opened the socket
 * @sender_tgid: thread group of the sender (for the same-group rule)
 * @ns: the sender's pid namespace; pids are reported in it
 * @boottime_offset: the sender's time namespace's boot-time offset, in ns
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

extern const struct td_group td_base_group;
extern const struct td_group td_stat_group;
extern const struct td_group td_statm_group;
extern const struct td_group td_io_group;
extern const struct td_group td_status_group;
extern const struct td_group td_cred_group;
extern const struct td_group td_cmdline_group;

extern bool td_ptrace_cap_only;

bool td_may_read(struct td_task_ctx *ctx);
bool td_may_read_io(struct td_task_ctx *ctx);
struct mm_struct *td_task_mm(struct td_task_ctx *ctx);

#endif /* _TASK_DIAG_INTERNAL_H */
