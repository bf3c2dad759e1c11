// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the base group, the identity and state fields that lead
 * /proc/PID/stat (and the PPid/TracerPid lines of /proc/PID/status).
 */
#include <linux/pid_namespace.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/tty.h>

#include <linux/task_diag.h>
#include "compat.h"
#include "task_diag.h"

/* The fields do_task_stat() reads under the siglock. */
static void td_base_locked(struct td_task_ctx *ctx, void *st)
{
	struct pid_namespace *ns = ctx->subj->ns;
	struct task_struct *task = ctx->task;
	struct signal_struct *sig = task->signal;
	struct task_diag_base *b = st;

	if (sig->tty) {
		struct pid *pgrp = tty_get_pgrp(sig->tty);

		b->tpgid = pid_nr_ns(pgrp, ns);
		put_pid(pgrp);
		b->tty_nr = new_encode_dev(tty_devnum(sig->tty));
	}
	b->num_threads = get_nr_threads(task);
	b->sid = task_session_nr_ns(task, ns);
	b->ppid = task_ppid_nr_ns(task, ns);
	b->pgid = task_pgrp_nr_ns(task, ns);
}

static size_t td_base_msg_size(void)
{
	return td_struct_msg_size(struct task_diag_base) + nla_total_size(TASK_COMM_LEN);
}

/**
 * td_base_fill() - write the base struct and the comm of one task
 * @skb: the message
 * @ctx: the task
 *
 * As do_task_stat() and task_state(): ppid, pgid, sid, the tty and the
 * thread count are read under the siglock (td_base_locked()), pids
 * outside the requester's namespace read 0, the start time is shifted by
 * the requester's time namespace. Every field is always filled; a task
 * without a sighand is skipped (td_fill_locked()).
 *
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
static int td_base_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct pid_namespace *ns = ctx->subj->ns;
	struct task_struct *task = ctx->task;
	struct task_struct *tracer;
	struct task_diag_base *b;
	char comm[TASK_COMM_LEN];

	b = td_reserve(skb, TASK_DIAG_A_TASK_BASE, struct task_diag_base);
	if (!b)
		return -EMSGSIZE;
	ctx->st = b;
	b->tpgid = -1;

	rcu_read_lock();
	tracer = ptrace_parent(task);
	if (tracer)
		b->tracer_pid = task_pid_nr_ns(tracer, ns);
	rcu_read_unlock();

	b->flags = task->flags;
	b->start_time = task->start_boottime + ctx->subj->boottime_offset;
	b->state = td_task_state_char(task);
	b->mask = TD_F_UPTO(BASE, STATE);

	get_task_comm(comm, task);
	return td_put_strn(skb, TASK_DIAG_A_TASK_COMM, comm, sizeof(comm));
}

const struct td_group td_base_group = {
	.show = TASK_DIAG_SHOW_BASE,
	.fill = td_base_fill,
	.locked = td_base_locked,
	.msg_size = td_base_msg_size,
};
