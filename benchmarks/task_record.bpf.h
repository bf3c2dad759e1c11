/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One task's struct td_bench_rec, as the BPF peers fill it: the fields of
 * the task_diag base and stat groups, in the module's units. Included by
 * task_iter.bpf.c (the classic task iterator) and task_iter_open.bpf.c (the
 * open-coded one), after vmlinux.h and bench_record.h.
 *
 * What it does not reproduce of the module (each makes the peer cheaper,
 * never dearer): no locks (sighand, stats_lock, exec_update_lock, the
 * prev_cputime lock), so values may tear; utime/stime are scaled as
 * cputime_adjust() without its monotonic clamp; no permission checks (it
 * runs as root and shows everything); pids and ids of the initial
 * namespaces only; kstk_esp/kstk_eip are 0 as the module sends them.
 *
 * benchmarks/run defines TD_RSS_PERCPU when the kernel's mm counters are
 * percpu_counters (6.2+).
 */
#ifndef TD_TASK_RECORD_BPF_H
#define TD_TASK_RECORD_BPF_H

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#define TD_TASK_REPORT		0x7f	/* TASK_REPORT of 6.1 */
#define TD_TASK_IDLE		0x402	/* TASK_UNINTERRUPTIBLE | TASK_NOLOAD */
#define TD_TASK_REPORT_IDLE	0x80
#define TD_RLIMIT_RSS		5
#define TD_MAX_RT_PRIO		100
#define TD_NICE_TO_PRIO0	120
#define TD_PAGE_SHIFT		12
#define TD_SIGNAL_GROUP_EXIT	0x00000004
#define TD_SIGNAL_STOP_STOPPED	0x00000001
#define TD_MAX_THREADS		(1 << 20)

/* Thread-walk state for bpf_loop(). */
struct td_walk {
	__u64 cur;		/* the thread whose values are added next */
	__u64 head;		/* &signal->thread_head: the end of the list */
	__u64 node_off;		/* offsetof(struct task_struct, thread_node) */
	__u64 utime, stime, rtime, min_flt, maj_flt, gtime;
};

static long td_walk_one(__u32 i __attribute__((unused)), void *arg)
{
	struct td_walk *w = arg;
	struct task_struct *t = (struct task_struct *)w->cur;
	struct list_head *next;

	w->utime += BPF_CORE_READ(t, utime);
	w->stime += BPF_CORE_READ(t, stime);
	w->rtime += BPF_CORE_READ(t, se.sum_exec_runtime);
	w->min_flt += BPF_CORE_READ(t, min_flt);
	w->maj_flt += BPF_CORE_READ(t, maj_flt);
	w->gtime += BPF_CORE_READ(t, gtime);
	next = BPF_CORE_READ(t, thread_node.next);
	if (!next || (__u64)next == w->head)
		return 1;
	w->cur = (__u64)next - w->node_off;
	return 0;
}

/*
 * stime * rtime / total (stime <= total) without 128-bit arithmetic and
 * without loops (the verifier walks every iteration of a loop): exact while
 * the product fits in 64 bits, else through a 20-bit fixed-point ratio
 * (relative error below 1e-6: what matters here is the work, not the last
 * nanosecond of the split).
 */
static __u64 td_scale(__u64 stime, __u64 rtime, __u64 total)
{
	__u64 ratio;

	if (!total)
		return 0;
	if (!(stime >> 32) && !(rtime >> 32))
		return stime * rtime / total;
	if (stime >> 43) {
		stime >>= 24;
		total >>= 24;
		if (!total)
			return rtime;
	}
	ratio = (stime << 20) / total;
	return (rtime >> 20) * ratio + (((rtime & 0xfffff) * ratio) >> 20);
}

/* cputime_adjust() without prev_cputime: split @rtime as @stime:@utime. */
static void td_adjust(__u64 rtime, __u64 stime, __u64 utime, __u64 *ut, __u64 *st)
{
	if (!stime) {
		utime = rtime;
	} else if (!utime) {
		stime = rtime;
	} else {
		stime = td_scale(stime, rtime, stime + utime);
		if (stime > rtime)
			stime = rtime;
		utime = rtime - stime;
	}
	*ut = utime;
	*st = stime;
}

static __u8 td_state_char(struct task_struct *task)
{
	unsigned int st = task->__state;
	unsigned int report = (st | (unsigned int)task->exit_state) & TD_TASK_REPORT;
	unsigned int idx = 0;
	int i;

	if (st == TD_TASK_IDLE)
		report = TD_TASK_REPORT_IDLE;
	for (i = 0; i < 8; i++)
		if (report >> i)
			idx = i + 1;
	/* "RSDTtXZPI"[idx], spelt out: the verifier wants no string index. */
	switch (idx) {
	case 0: return 'R';
	case 1: return 'S';
	case 2: return 'D';
	case 3: return 'T';
	case 4: return 't';
	case 5: return 'X';
	case 6: return 'Z';
	case 7: return 'P';
	default: return 'I';
	}
}

static __u32 td_pid_nr(struct pid *pid)
{
	if (!pid)
		return 0;
	return pid->numbers[0].nr;
}

/*
 * Fill @r (zeroed by the caller) from @task: @whole for the process scopes
 * (whole-process faults and times). Returns 0 for a task that has no record
 * (no task; a thread other than the leader in the process scopes).
 */
static __always_inline int td_fill(struct task_struct *task, bool whole,
				   struct td_bench_rec *r)
{
	struct signal_struct *sig;
	struct tty_struct *tty;
	struct mm_struct *mm;
	__u64 utime, stime, rtime;
	long rss[4] = {};
	unsigned int dev;

	if (!task)
		return 0;
	if (whole && task->pid != task->tgid)
		return 0;
	sig = task->signal;

	r->pid = task->pid;
	r->tgid = task->tgid;
	r->ppid = task->real_parent->tgid;
	r->pgid = td_pid_nr(sig->pids[PIDTYPE_PGID]);
	r->sid = td_pid_nr(sig->pids[PIDTYPE_SID]);
	r->tracer_pid = task->ptrace ? task->parent->pid : 0;
	tty = sig->tty;
	r->tpgid = -1;
	if (tty) {
		dev = ((unsigned int)tty->driver->major << 20) |
		      (unsigned int)(tty->driver->minor_start + tty->index);
		/* new_encode_dev() */
		r->tty_nr = (dev & 0xff) | ((dev >> 20) << 8) | ((dev & 0xfff00) << 12);
		r->tpgid = td_pid_nr(tty->ctrl.pgrp);
	}
	r->flags = task->flags;
	r->num_threads = sig->nr_threads;
	r->state = td_state_char(task);
	bpf_probe_read_kernel_str(r->comm, sizeof(r->comm), task->comm);
	r->start_time = task->start_boottime;

	r->cminflt = sig->cmin_flt;
	r->cmajflt = sig->cmaj_flt;
	r->cutime = sig->cutime;
	r->cstime = sig->cstime;
	r->cguest_time = sig->cgtime;
	if (whole) {
		struct td_walk w = {
			.head = (__u64)sig + bpf_core_field_offset(struct signal_struct, thread_head),
			.node_off = bpf_core_field_offset(struct task_struct, thread_node),
			.utime = sig->utime,
			.stime = sig->stime,
			.rtime = sig->sum_sched_runtime,
			.min_flt = sig->min_flt,
			.maj_flt = sig->maj_flt,
			.gtime = sig->gtime,
		};
		/* The leader is on the list: start there, stop at the head. */
		w.cur = (__u64)BPF_CORE_READ(sig, thread_head.next) - w.node_off;
		bpf_loop(TD_MAX_THREADS, td_walk_one, &w, 0);
		utime = w.utime;
		stime = w.stime;
		rtime = w.rtime;
		r->minflt = w.min_flt;
		r->majflt = w.maj_flt;
		r->guest_time = w.gtime;
	} else {
		utime = task->utime;
		stime = task->stime;
		rtime = task->se.sum_exec_runtime;
		r->minflt = task->min_flt;
		r->majflt = task->maj_flt;
		r->guest_time = task->gtime;
	}
	td_adjust(rtime, stime, utime, &r->utime, &r->stime);

	r->priority = task->prio - TD_MAX_RT_PRIO;
	r->nice = task->static_prio - TD_NICE_TO_PRIO0;
	r->rsslim = sig->rlim[TD_RLIMIT_RSS].rlim_cur;
	r->exit_signal = task->exit_signal;
	r->processor = task->thread_info.cpu;
	r->rt_priority = task->rt_priority;
	r->policy = task->policy;
	if (task->delays)
		r->blkio_delay = task->delays->blkio_delay;

	r->exit_code = task->exit_code;
	if (whole && (sig->flags & (TD_SIGNAL_GROUP_EXIT | TD_SIGNAL_STOP_STOPPED)))
		r->exit_code = sig->group_exit_code;
	if (!whole || r->num_threads < 2)
		r->wchan = task->__state != 0;

	mm = task->mm;
	if (mm) {
#ifdef TD_RSS_PERCPU
		/*
		 * 6.2+: percpu_counters; get_mm_rss() reads each one's
		 * global count (percpu_counter_read_positive()), so do we.
		 */
		bpf_probe_read_kernel(&rss[0], sizeof(rss[0]), &mm->rss_stat[0].count);
		bpf_probe_read_kernel(&rss[1], sizeof(rss[1]), &mm->rss_stat[1].count);
		bpf_probe_read_kernel(&rss[3], sizeof(rss[3]), &mm->rss_stat[3].count);
#else
		/* The 6.1 verifier refuses direct reads of the rss counters. */
		bpf_probe_read_kernel(rss, sizeof(rss), &mm->rss_stat.count);
#endif
		r->vsize = (__u64)mm->total_vm << TD_PAGE_SHIFT;
		/* get_mm_rss(): file + anon + shmem pages, never negative */
		rtime = 0;
		if (rss[0] > 0)
			rtime += rss[0];
		if (rss[1] > 0)
			rtime += rss[1];
		if (rss[3] > 0)
			rtime += rss[3];
		r->rss = rtime << TD_PAGE_SHIFT;
		r->start_code = mm->start_code;
		r->end_code = mm->end_code;
		r->start_stack = mm->start_stack;
		r->start_data = mm->start_data;
		r->end_data = mm->end_data;
		r->start_brk = mm->start_brk;
		r->arg_start = mm->arg_start;
		r->arg_end = mm->arg_end;
		r->env_start = mm->env_start;
		r->env_end = mm->env_end;
	}

	return 1;
}

#endif /* TD_TASK_RECORD_BPF_H */
