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

static int td_stat_u64(struct sk_buff *skb, int attr, u64 v)
{
	return td_put_u64(skb, attr, v, TASK_DIAG_A_STAT_PAD);
}

/*
 * The fields procfs shows only to those who pass the ptrace read check.
 * For a task without an mm procfs shows zeros; so do we.
 */
static int td_stat_fill_guarded(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct task_struct *task = ctx->task;
	struct mm_struct *mm = td_task_mm(ctx);
	struct signal_struct *sig = task->signal;
	int exit_code = task->exit_code;
	bool wchan = false;

	/*
	 * procfs shows the stack and instruction pointers only for a task
	 * that is exiting or dumping core; put_task_stack() is not exported,
	 * so they read 0 here always (see docs/fields.md).
	 */
	if (!ctx->whole || get_nr_threads(task) < 2)
		wchan = !task_is_running(task);
	if (ctx->whole && (READ_ONCE(sig->flags) & (SIGNAL_GROUP_EXIT | SIGNAL_STOP_STOPPED)))
		exit_code = READ_ONCE(sig->group_exit_code);

	if (td_stat_u64(skb, TASK_DIAG_A_STAT_START_CODE, mm ? mm->start_code : 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_END_CODE, mm ? mm->end_code : 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_START_STACK, mm ? mm->start_stack : 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_KSTK_ESP, 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_KSTK_EIP, 0) ||
	    td_put_u8(skb, TASK_DIAG_A_STAT_WCHAN, wchan) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_START_DATA, mm ? mm->start_data : 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_END_DATA, mm ? mm->end_data : 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_START_BRK, mm ? mm->start_brk : 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_ARG_START, mm ? mm->arg_start : 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_ARG_END, mm ? mm->arg_end : 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_ENV_START, mm ? mm->env_start : 0) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_ENV_END, mm ? mm->env_end : 0) ||
	    td_put_s32(skb, TASK_DIAG_A_STAT_EXIT_CODE, exit_code))
		return -EMSGSIZE;
	return 0;
}

/**
 * td_stat_fill() - write the stat group of one task
 * @skb: the message, with the stat nest open
 * @ctx: the task
 *
 * As do_task_stat(): faults and times of the whole thread group (exited
 * threads included) for a process, of the thread alone for a thread.
 * Guarded fields are absent unless td_may_read() allows them.
 *
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
static int td_stat_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct task_struct *task = ctx->task;
	struct mm_struct *mm = td_task_mm(ctx);
	struct td_times tt;
	u64 vsize = 0, rss = 0;

	td_read_times(ctx, &tt);
	if (mm) {
		vsize = (u64)mm->total_vm << PAGE_SHIFT;
		rss = (u64)get_mm_rss(mm) << PAGE_SHIFT;
	}

	if (td_stat_u64(skb, TASK_DIAG_A_STAT_MINFLT, tt.min_flt) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_CMINFLT, tt.cmin_flt) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_MAJFLT, tt.maj_flt) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_CMAJFLT, tt.cmaj_flt) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_UTIME, tt.utime) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_STIME, tt.stime) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_CUTIME, tt.cutime) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_CSTIME, tt.cstime) ||
	    td_put_s32(skb, TASK_DIAG_A_STAT_PRIORITY, td_task_prio(task)) ||
	    td_put_s32(skb, TASK_DIAG_A_STAT_NICE, task_nice(task)) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_VSIZE, vsize) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_RSS, rss) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_RSSLIM, task_rlimit(task, RLIMIT_RSS)) ||
	    td_put_s32(skb, TASK_DIAG_A_STAT_EXIT_SIGNAL, task->exit_signal) ||
	    td_put_u32(skb, TASK_DIAG_A_STAT_PROCESSOR, task_cpu(task)) ||
	    td_put_u32(skb, TASK_DIAG_A_STAT_RT_PRIORITY, task->rt_priority) ||
	    td_put_u32(skb, TASK_DIAG_A_STAT_POLICY, task->policy) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_BLKIO_DELAY, td_blkio_delay(task)) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_GUEST_TIME, tt.gtime) ||
	    td_stat_u64(skb, TASK_DIAG_A_STAT_CGUEST_TIME, tt.cgtime))
		return -EMSGSIZE;

	if (td_may_read(ctx))
		return td_stat_fill_guarded(skb, ctx);
	return 0;
}

const struct td_group td_stat_group = {
	.show = TASK_DIAG_SHOW_STAT,
	.attr = TASK_DIAG_A_TASK_STAT,
	.fill = td_stat_fill,
};
