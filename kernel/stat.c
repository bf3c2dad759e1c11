// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the stat group, the fields of /proc/PID/stat that the base
 * group does not carry. Times in nanoseconds, sizes in bytes.
 */
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/sched/cputime.h>
#include <linux/sched/signal.h>
/* delayacct.h needs spinlock types it does not include itself. */
#include <linux/delayacct.h>

#include <linux/task_diag.h>
#include "compat.h"
#include "task_diag.h"

struct td_times {
	u64 utime, stime, gtime;
	u64 min_flt, maj_flt;
	u64 cutime, cstime, cgtime;
	u64 cmin_flt, cmaj_flt;
};

/*
 * The scaling cputime_adjust() applies (not exported): split the precise
 * runtime @rtime in the ratio of the tick-sampled @stime:@utime, never
 * letting either go below what was last reported through @prev. Sharing
 * @prev with procfs keeps both views monotonic and equal.
 */
static void td_cputime_adjust(u64 rtime, u64 stime, u64 utime,
			      struct prev_cputime *prev, u64 *ut, u64 *st)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&prev->lock, flags);
	if (prev->stime + prev->utime >= rtime)
		goto out;

	if (!stime)
		utime = rtime;
	else if (!utime)
		stime = rtime;
	else
		stime = min(mul_u64_u64_div_u64(stime, rtime, stime + utime), rtime);

	stime = max(stime, prev->stime);
	utime = rtime - stime;
	if (utime < prev->utime) {
		utime = prev->utime;
		stime = rtime - utime;
	}
	prev->stime = stime;
	prev->utime = utime;
out:
	*ut = prev->utime;
	*st = prev->stime;
	raw_spin_unlock_irqrestore(&prev->lock, flags);
}

/*
 * The times and faults of the children that were waited for, and, for a
 * whole process, thread_group_cputime_adjusted() (not exported): the
 * process's runtime and ticks, those of exited threads included, scaled as
 * above. Without nohz_full (vtime accounting off) t->utime/t->stime are
 * what task_cputime() reads. One stats_lock read section reads it all.
 */
static void td_read_times(struct td_task_ctx *ctx, struct td_times *tt)
{
	struct task_struct *task = ctx->task;
	struct signal_struct *sig = task->signal;
	u64 utime = 0, stime = 0, rtime = 0;
	struct task_struct *t;
	unsigned long flags;
	int seq = 0;

	rcu_read_lock();
retry:
	/* Lockless first, as thread_group_cputime(); locked if a writer interfered. */
	flags = read_seqbegin_or_lock_irqsave(&sig->stats_lock, &seq);
	tt->cmin_flt = sig->cmin_flt;
	tt->cmaj_flt = sig->cmaj_flt;
	tt->cutime = sig->cutime;
	tt->cstime = sig->cstime;
	tt->cgtime = sig->cgtime;
	if (ctx->whole) {
		utime = sig->utime;
		stime = sig->stime;
		rtime = sig->sum_sched_runtime;
		tt->min_flt = sig->min_flt;
		tt->maj_flt = sig->maj_flt;
		tt->gtime = sig->gtime;
		__for_each_thread(sig, t) {
			utime += t->utime;
			stime += t->stime;
			rtime += t->se.sum_exec_runtime;
			tt->min_flt += t->min_flt;
			tt->maj_flt += t->maj_flt;
			tt->gtime += t->gtime;
		}
	}
	if (need_seqretry(&sig->stats_lock, seq)) {
		seq = 1;
		goto retry;
	}
	done_seqretry_irqrestore(&sig->stats_lock, seq, flags);
	rcu_read_unlock();

	if (ctx->whole) {
		td_cputime_adjust(rtime, stime, utime, &sig->prev_cputime, &tt->utime, &tt->stime);
	} else {
		task_cputime_adjusted(task, &tt->utime, &tt->stime);
		tt->min_flt = task->min_flt;
		tt->maj_flt = task->maj_flt;
		tt->gtime = task->gtime;
	}
}

/* delayacct_blkio_ticks() in nanoseconds; __delayacct_blkio_ticks() is not exported. */
static u64 td_blkio_delay(struct task_struct *task)
{
	unsigned long flags;
	u64 ns = 0;

	if (task->delays) {
		raw_spin_lock_irqsave(&task->delays->lock, flags);
		ns = task->delays->blkio_delay;
		raw_spin_unlock_irqrestore(&task->delays->lock, flags);
	}
	return ns;
}

/*
 * The fields procfs shows only to those who pass the ptrace read check,
 * but for the stack and instruction pointers: procfs shows those only for
 * a task that is exiting or dumping core, and put_task_stack() is not
 * exported, so they are never filled (see docs/fields.md).
 */
#define TD_STAT_GUARDED							\
	(TD_F(STAT, START_CODE) | TD_F(STAT, END_CODE) |			\
	 TD_F(STAT, START_STACK) | TD_F(STAT, START_DATA) |			\
	 TD_F(STAT, END_DATA) | TD_F(STAT, START_BRK) |			\
	 TD_F(STAT, ARG_START) | TD_F(STAT, ARG_END) |			\
	 TD_F(STAT, ENV_START) | TD_F(STAT, ENV_END) |			\
	 TD_F(STAT, EXIT_CODE) | TD_F(STAT, WCHAN))
#define TD_STAT_UNFILLED (TD_F(STAT, KSTK_ESP) | TD_F(STAT, KSTK_EIP))

/*
 * The guarded fields. For a task without an mm procfs shows zeros; so do
 * we, with their bits set.
 */
static void td_stat_fill_guarded(struct task_diag_stat *s, struct td_task_ctx *ctx)
{
	struct task_struct *task = ctx->task;
	struct mm_struct *mm = td_task_mm(ctx);
	struct signal_struct *sig = task->signal;

	if (!ctx->whole || get_nr_threads(task) < 2)
		s->wchan = !task_is_running(task);
	s->exit_code = task->exit_code;
	if (ctx->whole && (READ_ONCE(sig->flags) & (SIGNAL_GROUP_EXIT | SIGNAL_STOP_STOPPED)))
		s->exit_code = READ_ONCE(sig->group_exit_code);
	if (mm) {
		s->start_code = mm->start_code;
		s->end_code = mm->end_code;
		s->start_stack = mm->start_stack;
		s->start_data = mm->start_data;
		s->end_data = mm->end_data;
		s->start_brk = mm->start_brk;
		s->arg_start = mm->arg_start;
		s->arg_end = mm->arg_end;
		s->env_start = mm->env_start;
		s->env_end = mm->env_end;
	}
	s->mask |= TD_STAT_GUARDED;
}

/**
 * td_stat_fill() - write the stat struct of one task
 * @skb: the message
 * @ctx: the task
 *
 * As do_task_stat(): faults and times of the whole thread group (exited
 * threads included) for a process, of the thread alone for a thread.
 * Guarded fields have their bits clear unless td_may_read() allows them.
 *
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
static int td_stat_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct task_struct *task = ctx->task;
	struct mm_struct *mm = td_task_mm(ctx);
	struct task_diag_stat *s;
	struct td_times tt;

	s = td_reserve(skb, TASK_DIAG_A_TASK_STAT, struct task_diag_stat);
	if (!s)
		return -EMSGSIZE;

	td_read_times(ctx, &tt);
	if (mm) {
		s->vsize = (u64)mm->total_vm << PAGE_SHIFT;
		s->rss = (u64)get_mm_rss(mm) << PAGE_SHIFT;
	}
	s->minflt = tt.min_flt;
	s->cminflt = tt.cmin_flt;
	s->majflt = tt.maj_flt;
	s->cmajflt = tt.cmaj_flt;
	s->utime = tt.utime;
	s->stime = tt.stime;
	s->cutime = tt.cutime;
	s->cstime = tt.cstime;
	s->rsslim = task_rlimit(task, RLIMIT_RSS);
	s->blkio_delay = td_blkio_delay(task);
	s->guest_time = tt.gtime;
	s->cguest_time = tt.cgtime;
	s->priority = td_task_prio(task);
	s->nice = task_nice(task);
	s->exit_signal = task->exit_signal;
	s->processor = task_cpu(task);
	s->rt_priority = task->rt_priority;
	s->policy = task->policy;
	s->mask = TD_F_UPTO(STAT, WCHAN) & ~(TD_STAT_GUARDED | TD_STAT_UNFILLED);

	if (td_may_read(ctx))
		td_stat_fill_guarded(s, ctx);
	return 0;
}

static size_t td_stat_msg_size(void)
{
	return td_struct_msg_size(struct task_diag_stat);
}

const struct td_group td_stat_group = {
	.show = TASK_DIAG_SHOW_STAT,
	.fill = td_stat_fill,
	.msg_size = td_stat_msg_size,
};
