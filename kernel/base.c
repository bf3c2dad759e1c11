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

/**
 * td_base_fill() - write the base group of one task
 * @skb: the message, with the base nest open
 * @ctx: the task
 *
 * As do_task_stat() and task_state(): ppid, pgid and sid are read under the
 * sighand lock, pids outside the requester's namespace read 0, the start
 * time is shifted by the requester's time namespace.
 *
 * Return: 0, -ESRCH for a task being released, or -EMSGSIZE when @skb is full.
 */
static int td_base_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct pid_namespace *ns = ctx->subj->ns;
	struct task_struct *task = ctx->task;
	struct task_struct *tracer;
	struct signal_struct *sig;
	pid_t ppid = 0, pgid = -1, sid = -1, tpgid = -1, tracer_pid = 0;
	unsigned int num_threads = 0;
	unsigned long flags;
	u32 tty_nr = 0;
	char comm[TASK_COMM_LEN];
	u64 start;

	/* No sighand: the task is being released. Skip it, as if it were gone. */
	if (!td_lock_sighand(task, &flags))
		return -ESRCH;
	sig = task->signal;
	if (sig->tty) {
		struct pid *pgrp = tty_get_pgrp(sig->tty);

		tpgid = pid_nr_ns(pgrp, ns);
		put_pid(pgrp);
		tty_nr = new_encode_dev(tty_devnum(sig->tty));
	}
	num_threads = get_nr_threads(task);
	sid = task_session_nr_ns(task, ns);
	ppid = task_ppid_nr_ns(task, ns);
	pgid = task_pgrp_nr_ns(task, ns);
	td_unlock_sighand(task, &flags);

	rcu_read_lock();
	tracer = ptrace_parent(task);
	if (tracer)
		tracer_pid = task_pid_nr_ns(tracer, ns);
	rcu_read_unlock();

	get_task_comm(comm, task);
	start = task->start_boottime + ctx->subj->boottime_offset;

	if (td_put_u32(skb, TASK_DIAG_A_BASE_PPID, ppid) ||
	    td_put_u32(skb, TASK_DIAG_A_BASE_PGID, pgid) ||
	    td_put_u32(skb, TASK_DIAG_A_BASE_SID, sid) ||
	    td_put_u32(skb, TASK_DIAG_A_BASE_TRACER_PID, tracer_pid) ||
	    td_put_u32(skb, TASK_DIAG_A_BASE_TTY_NR, tty_nr) ||
	    td_put_s32(skb, TASK_DIAG_A_BASE_TPGID, tpgid) ||
	    td_put_u8(skb, TASK_DIAG_A_BASE_STATE, td_task_state_char(task)) ||
	    td_put_strn(skb, TASK_DIAG_A_BASE_COMM, comm, sizeof(comm)) ||
	    td_put_u32(skb, TASK_DIAG_A_BASE_FLAGS, task->flags) ||
	    td_put_u64(skb, TASK_DIAG_A_BASE_START_TIME, start, TASK_DIAG_A_BASE_PAD) ||
	    td_put_u32(skb, TASK_DIAG_A_BASE_NUM_THREADS, num_threads))
		return -EMSGSIZE;
	return 0;
}

const struct td_group td_base_group = {
	.show = TASK_DIAG_SHOW_BASE,
	.attr = TASK_DIAG_A_TASK_BASE,
	.fill = td_base_fill,
};
