// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the base group, the identity and state fields that lead
 * /proc/PID/stat (and the PPid/TracerPid lines of /proc/PID/status).
 */
#include <linux/kthread.h>
#include <linux/pid_namespace.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/tty.h>
#include <linux/workqueue.h>

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

#ifdef MODULE
#define TD_COMM_MAX	TASK_COMM_LEN
#else
/* proc_task_name()'s buffer, for a kernel thread's or a worker's name */
#define TD_COMM_MAX	64
#endif

static size_t td_base_msg_size(void)
{
	return td_struct_msg_size(struct task_diag_base) + nla_total_size(TD_COMM_MAX);
}

/*
 * The name stat, status and comm print (proc_task_name()) where it is not
 * task->comm: a workqueue worker's, with the work it runs
 * (kworker/0:1-events), and a kernel thread's full name. Return false for
 * other tasks. wq_worker_comm() and get_kthread_comm() are not exported: a
 * module sends task->comm (up to 15 characters) for these too.
 * wq_worker_comm() takes the workqueue's attach mutex, which its holders
 * keep for a bounded time.
 */
static bool td_kthread_name(char *buf, struct task_struct *task)
{
#ifndef MODULE
	if (task->flags & PF_WQ_WORKER) {
		wq_worker_comm(buf, TD_COMM_MAX, task);
		return true;
	}
	if (task->flags & PF_KTHREAD) {
		get_kthread_comm(buf, TD_COMM_MAX, task);
		return true;
	}
#endif
	return false;
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
	char comm[TD_COMM_MAX];

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

	if (!td_kthread_name(comm, task))
		get_task_comm(comm, task);
	return td_put_strn(skb, TASK_DIAG_A_TASK_COMM, comm, sizeof(comm));
}

const struct td_group td_base_group = {
	.show = TASK_DIAG_SHOW_BASE,
	.fill = td_base_fill,
	.locked = td_base_locked,
	.msg_size = td_base_msg_size,
};
