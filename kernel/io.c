// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the io group, /proc/PID/io. Guarded as a whole: procfs shows
 * it only to those who pass the ptrace read check.
 */
#include <linux/sched/signal.h>
#include <linux/task_io_accounting_ops.h>

#include <linux/task_diag.h>
#include "compat.h"
#include "task_diag.h"

/**
 * td_io_fill() - write the io group of one task
 * @skb: the message, with the io nest open
 * @ctx: the task
 *
 * As do_io_accounting(): the task's own counters, plus, for a whole
 * process, those of its other threads and of the threads that exited.
 *
 * Return: 0, -ENOENT when the requester may not see it, or -EMSGSIZE.
 */
static int td_io_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct task_struct *task = ctx->task;
	struct task_io_accounting acct;
	unsigned long flags;

	if (!td_may_read_io(ctx))
		return -ENOENT;

	acct = task->ioac;
	if (ctx->whole && td_lock_sighand(task, &flags)) {
		struct task_struct *t = task;

		task_io_accounting_add(&acct, &task->signal->ioac);
		while_each_thread(task, t)
			task_io_accounting_add(&acct, &t->ioac);
		td_unlock_sighand(task, &flags);
	}

	if (td_put_u64(skb, TASK_DIAG_A_IO_RCHAR, acct.rchar, TASK_DIAG_A_IO_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_IO_WCHAR, acct.wchar, TASK_DIAG_A_IO_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_IO_SYSCR, acct.syscr, TASK_DIAG_A_IO_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_IO_SYSCW, acct.syscw, TASK_DIAG_A_IO_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_IO_READ_BYTES, acct.read_bytes,
			      TASK_DIAG_A_IO_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_IO_WRITE_BYTES, acct.write_bytes,
			      TASK_DIAG_A_IO_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_IO_CANCELLED_WRITE_BYTES,
			      acct.cancelled_write_bytes, TASK_DIAG_A_IO_PAD))
		return -EMSGSIZE;
	return 0;
}

const struct td_group td_io_group = {
	.show = TASK_DIAG_SHOW_IO,
	.attr = TASK_DIAG_A_TASK_IO,
	.fill = td_io_fill,
};
