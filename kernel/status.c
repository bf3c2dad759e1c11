// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the fields of /proc/PID/status that no other group carries.
 *
 * Each value is computed as proc_pid_status() computes it in Linux 6.1,
 * with sizes converted from the kB procfs prints to bytes. Everything in
 * status is per-task (the thread's own pending set, its own context switch
 * counts, ...) for /proc/PID and /proc/PID/task/TID alike, so the group
 * ignores ctx->whole. The Name, State, ids, Threads, Cap* and NS* lines
 * belong to other groups; VmSize is statm's SIZE. The Ngid line and the
 * Speculation_* lines have no attribute in the ABI.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/fdtable.h>
#include <linux/fs_struct.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/rcupdate.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/signal.h>
#include <linux/user_namespace.h>
#include <net/netlink.h>

#include <linux/task_diag.h>
#include "compat.h"
#include "task_diag.h"

static int td_status_u64(struct sk_buff *skb, int attr, u64 val)
{
	return td_put_u64(skb, attr, val, TASK_DIAG_A_STATUS_PAD);
}

/* A page count as the bytes it covers. */
static int td_put_pages(struct sk_buff *skb, int attr, unsigned long pages)
{
	return td_status_u64(skb, attr, (u64)pages << PAGE_SHIFT);
}

/*
 * Put @nbits bits of @bits as an array of u32 words, bit 0 of word 0 first
 * (the word order bitmap_to_arr32() gives), unused high bits cleared.
 */
static int td_put_bitmap(struct sk_buff *skb, int attr,
			 const unsigned long *bits, unsigned int nbits)
{
	u32 *words = td_attr_reserve(skb, attr, BITS_TO_U32(nbits) * sizeof(u32));

	if (!words)
		return -EMSGSIZE;
	bitmap_to_arr32(words, bits, nbits);
	return 0;
}

/* Umask and FDSize: the fs and files lookups of task_state(). */
static int td_status_fs(struct sk_buff *skb, struct task_struct *task)
{
	unsigned int max_fds = 0;
	int umask = -1;

	task_lock(task);
	if (task->fs)
		umask = task->fs->umask;
	if (task->files) {
		rcu_read_lock();
		max_fds = files_fdtable(task->files)->max_fds;
		rcu_read_unlock();
	}
	task_unlock(task);

	/* procfs leaves out the Umask line for a task without fs. */
	if (umask >= 0 && td_put_u32(skb, TASK_DIAG_A_STATUS_UMASK, umask))
		return -EMSGSIZE;
	if (td_put_u32(skb, TASK_DIAG_A_STATUS_FDSIZE, max_fds))
		return -EMSGSIZE;
	return 0;
}

/* task_mem(), task_core_dumping() and task_thp_status(): tasks with an mm. */
static int td_status_mm(struct sk_buff *skb, struct task_struct *task,
			struct mm_struct *mm)
{
	unsigned long anon, file, shmem, rss, hwm, peak, exec, text;
	bool thp = false;

	anon = td_mm_counter(mm, MM_ANONPAGES);
	file = td_mm_counter(mm, MM_FILEPAGES);
	shmem = td_mm_counter(mm, MM_SHMEMPAGES);
	rss = anon + file + shmem;

	/* The high-water marks lag the current values, which may be higher. */
	peak = max(mm->hiwater_vm, mm->total_vm);
	hwm = max(mm->hiwater_rss, rss);

	/* VmExe: the page-aligned code range, at most the executable mappings. */
	exec = mm->exec_vm << PAGE_SHIFT;
	text = PAGE_ALIGN(mm->end_code) - (mm->start_code & PAGE_MASK);
	text = min(text, exec);

	if (td_put_pages(skb, TASK_DIAG_A_STATUS_VM_PEAK, peak) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_VM_LCK, mm->locked_vm) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_VM_PIN,
			 atomic64_read(&mm->pinned_vm)) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_VM_HWM, hwm) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_VM_RSS, rss) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_RSS_ANON, anon) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_RSS_FILE, file) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_RSS_SHMEM, shmem) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_VM_DATA, mm->data_vm) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_VM_STK, mm->stack_vm) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_VM_EXE, text) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_VM_LIB, exec - text) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_VM_PTE, mm_pgtables_bytes(mm)) ||
	    td_put_pages(skb, TASK_DIAG_A_STATUS_VM_SWAP,
			 td_mm_counter(mm, MM_SWAPENTS)))
		return -EMSGSIZE;
#ifdef CONFIG_HUGETLB_PAGE
	/* hugetlb_report_usage() is not exported; it prints this counter. */
	if (td_put_pages(skb, TASK_DIAG_A_STATUS_HUGETLB_PAGES,
			 atomic_long_read(&mm->hugetlb_usage)))
		return -EMSGSIZE;
#endif

	if (IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE))
		thp = !test_bit(MMF_DISABLE_THP, &mm->flags);
	if (td_put_u8(skb, TASK_DIAG_A_STATUS_CORE_DUMPING,
		       !!READ_ONCE(task->signal->core_state)) ||
	    td_put_u8(skb, TASK_DIAG_A_STATUS_THP_ENABLED, thp))
		return -EMSGSIZE;
	return 0;
}

/* Mark in @ign and @cgt the signals whose action ignores or catches them. */
static void td_sig_actions(struct task_struct *task, sigset_t *ign,
			   sigset_t *cgt)
{
	const struct k_sigaction *k = task->sighand->action;
	int sig;

	for (sig = 1; sig <= _NSIG; sig++, k++) {
		if (k->sa.sa_handler == SIG_IGN)
			sigaddset(ign, sig);
		else if (k->sa.sa_handler != SIG_DFL)
			sigaddset(cgt, sig);
	}
}

/*
 * task_sig() without Threads. A task whose sighand is gone (it is being
 * reaped) reads as all zeros, as in procfs.
 */
static int td_status_sig(struct sk_buff *skb, struct task_struct *task)
{
	sigset_t pnd, shd, blk, ign, cgt;
	unsigned long flags, qlim = 0;
	unsigned int queued = 0;

	/* A mask is sent as one u64: bit N-1 is signal N. */
	BUILD_BUG_ON(_NSIG_WORDS != 1);

	sigemptyset(&pnd);
	sigemptyset(&shd);
	sigemptyset(&blk);
	sigemptyset(&ign);
	sigemptyset(&cgt);

	if (td_lock_sighand(task, &flags)) {
		pnd = task->pending.signal;
		shd = task->signal->shared_pending.signal;
		blk = task->blocked;
		td_sig_actions(task, &ign, &cgt);
		/* The real uid's queued signals, as SigQ counts them. */
		rcu_read_lock();
		queued = get_rlimit_value(task_ucounts(task),
					  UCOUNT_RLIMIT_SIGPENDING);
		rcu_read_unlock();
		qlim = task_rlimit(task, RLIMIT_SIGPENDING);
		td_unlock_sighand(task, &flags);
	}

	if (td_put_u32(skb, TASK_DIAG_A_STATUS_SIGQ_QUEUED, queued) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_SIGQ_LIMIT, qlim) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_SIG_PENDING, pnd.sig[0]) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_SIG_SHARED_PENDING, shd.sig[0]) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_SIG_BLOCKED, blk.sig[0]) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_SIG_IGNORED, ign.sig[0]) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_SIG_CAUGHT, cgt.sig[0]))
		return -EMSGSIZE;
	return 0;
}

/* task_seccomp() without the Speculation_* lines. */
static int td_status_seccomp(struct sk_buff *skb, struct task_struct *task)
{
	if (td_put_u8(skb, TASK_DIAG_A_STATUS_NO_NEW_PRIVS,
		       task_no_new_privs(task)))
		return -EMSGSIZE;
#ifdef CONFIG_SECCOMP
	if (td_put_u8(skb, TASK_DIAG_A_STATUS_SECCOMP,
		       READ_ONCE(task->seccomp.mode)))
		return -EMSGSIZE;
#ifdef CONFIG_SECCOMP_FILTER
	if (td_put_u32(skb, TASK_DIAG_A_STATUS_SECCOMP_FILTERS,
			atomic_read(&task->seccomp.filter_count)))
		return -EMSGSIZE;
#endif
#endif
	return 0;
}

/*
 * Cpus_allowed, as task_cpus_allowed(): the task's own cpus_mask (not the
 * cpus_ptr a migrate_disable() section narrows), nr_cpu_ids bits, read
 * without a lock as procfs reads it.
 */
static int td_status_cpus(struct sk_buff *skb, struct task_struct *task)
{
	return td_put_bitmap(skb, TASK_DIAG_A_STATUS_CPUS_ALLOWED,
			     cpumask_bits(&task->cpus_mask), nr_cpu_ids);
}

#ifdef CONFIG_CPUSETS
/*
 * Mems_allowed, as cpuset_task_status_allowed(). procfs prints MAX_NUMNODES
 * bits; nodes from nr_node_ids up are never possible, so never allowed, and
 * their bits are left out. The cpuset code rewrites the mask under
 * task_lock(), so reading it under the lock gives a consistent snapshot.
 */
static int td_status_mems(struct sk_buff *skb, struct task_struct *task)
{
	u32 *words = td_attr_reserve(skb, TASK_DIAG_A_STATUS_MEMS_ALLOWED,
				     BITS_TO_U32(nr_node_ids) * sizeof(u32));

	if (!words)
		return -EMSGSIZE;
	task_lock(task);
	bitmap_to_arr32(words, nodes_addr(task->mems_allowed),
			nr_node_ids);
	task_unlock(task);
	return 0;
}
#else
/* Without cpusets procfs prints no Mems_allowed line. */
static int td_status_mems(struct sk_buff *skb, struct task_struct *task)
{
	return 0;
}
#endif

/**
 * td_status_fill() - write the TASK_DIAG_A_STATUS_* attributes of a task
 * @skb: the reply, with the TASK_DIAG_A_TASK_STATUS nest open
 * @ctx: the task being written
 *
 * Values are those /proc/PID/status shows, sizes in bytes. The memory
 * attributes (Vm*, Rss*, HugetlbPages, CoreDumping, THP_enabled) are sent
 * only for a task with an mm, and Umask only for a task with an fs, as
 * procfs prints those lines. /proc/PID/status needs no permission, so
 * nothing here is guarded.
 *
 * Context: process context, no locks held; takes task_lock() and the
 * task's siglock briefly.
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
static int td_status_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct task_struct *task = ctx->task;
	struct mm_struct *mm = td_task_mm(ctx);
	int err;

	err = td_status_fs(skb, task);
	if (err)
		return err;
	if (mm) {
		err = td_status_mm(skb, task, mm);
		if (err)
			return err;
	}
	err = td_status_sig(skb, task);
	if (err)
		return err;
	err = td_status_seccomp(skb, task);
	if (err)
		return err;
	err = td_status_cpus(skb, task);
	if (err)
		return err;
	err = td_status_mems(skb, task);
	if (err)
		return err;

	/* task_context_switch_counts(): the task's own, also for /proc/PID. */
	if (td_status_u64(skb, TASK_DIAG_A_STATUS_VOLUNTARY_CTXT_SWITCHES,
		       READ_ONCE(task->nvcsw)) ||
	    td_status_u64(skb, TASK_DIAG_A_STATUS_NONVOLUNTARY_CTXT_SWITCHES,
		       READ_ONCE(task->nivcsw)))
		return -EMSGSIZE;
	return 0;
}

const struct td_group td_status_group = {
	.show = TASK_DIAG_SHOW_STATUS,
	.attr = TASK_DIAG_A_TASK_STATUS,
	.fill = td_status_fill,
};
