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

static void td_io_copy(struct task_diag_io *io, const struct task_io_accounting *a)
{
	io->rchar = a->rchar;
	io->wchar = a->wchar;
	io->syscr = a->syscr;
	io->syscw = a->syscw;
	io->read_bytes = a->read_bytes;
	io->write_bytes = a->write_bytes;
	io->cancelled_write_bytes = a->cancelled_write_bytes;
}

/* For a whole process: add the other threads' and the exited threads' counters. */
static void td_io_locked(struct td_task_ctx *ctx, void *st)
{
	struct task_struct *task = ctx->task, *t = task;
	struct task_io_accounting acct = task->ioac;
	struct task_diag_io *io = st;

	if (!ctx->whole)
		return;
	task_io_accounting_add(&acct, &task->signal->ioac);
	while_each_thread(task, t)
		task_io_accounting_add(&acct, &t->ioac);
	td_io_copy(io, &acct);
}

/**
 * td_io_fill() - write the io struct of one task
 * @skb: the message
 * @ctx: the task
 *
 * As do_io_accounting(): the task's own counters, plus, for a whole
 * process, those of its other threads and of the threads that exited
 * (td_io_locked(), under the siglock; the task's own alone if it has no
 * sighand any more).
 *
 * Return: 0, -ENOENT when the requester may not see it, or -EMSGSIZE.
 */
static int td_io_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct task_io_accounting *own = &ctx->task->ioac;
	struct task_diag_io *io;

	if (!td_may_read_io(ctx))
		return -ENOENT;
	io = td_reserve(skb, TASK_DIAG_A_TASK_IO, struct task_diag_io);
	if (!io)
		return -EMSGSIZE;
	/* The other threads' counters only for a whole process (td_io_locked()). */
	if (ctx->whole)
		ctx->st = io;
	td_io_copy(io, own);
	io->mask = TD_F_UPTO(IO, CANCELLED_WRITE_BYTES);
	return 0;
}

static size_t td_io_msg_size(void)
{
	return td_struct_msg_size(struct task_diag_io);
}

const struct td_group td_io_group = {
	.show = TASK_DIAG_SHOW_IO,
	.fill = td_io_fill,
	.locked = td_io_locked,
	.msg_size = td_io_msg_size,
};
