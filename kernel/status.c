// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the fields of /proc/PID/status that no other group carries.
 *
 * Each value is computed as proc_pid_status() computes it in Linux 6.1,
 * with sizes converted from the kB procfs prints to bytes. Everything in
 * status is per-task (the thread's own pending set, its own context switch
 * counts, ...) for /proc/PID and /proc/PID/task/TID alike, so the group
 * ignores ctx->whole. The Name, State, ids, Threads and Cap* lines belong
 * to other groups; VmSize is statm's size. The NS* lines are four u32
 * arrays next to the struct. The Ngid line and the
 * Speculation_* lines have no field in the ABI. A field whose line procfs
 * leaves out (Umask without fs, the memory lines without mm, the seccomp
 * lines without the config) has its mask bit clear.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/fdtable.h>
#include <linux/fs_struct.h>
#include <linux/mm.h>
#include <linux/nodemask.h>
#include <linux/pid_namespace.h>
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

/* The memory fields, filled for a task with an mm. */
#define TD_STATUS_MM							\
	(TD_F_UPTO(STATUS, VM_SWAP) | TD_F(STATUS, CORE_DUMPING) |		\
	 TD_F(STATUS, THP_ENABLED) |						\
	 (IS_ENABLED(CONFIG_HUGETLB_PAGE) ? TD_F(STATUS, HUGETLB_PAGES) : 0))

/* The signal fields of task_sig(). */
#define TD_STATUS_SIG							\
	(TD_F(STATUS, SIGQ_LIMIT) | TD_F(STATUS, SIG_PENDING) |			\
	 TD_F(STATUS, SIG_SHARED_PENDING) | TD_F(STATUS, SIG_BLOCKED) |		\
	 TD_F(STATUS, SIG_IGNORED) | TD_F(STATUS, SIG_CAUGHT) |			\
	 TD_F(STATUS, SIGQ_QUEUED))

/* The fields every task has (task_seccomp() as configured). */
#define TD_STATUS_ALWAYS						\
	(TD_STATUS_SIG | TD_F(STATUS, VOLUNTARY_CTXT_SWITCHES) |		\
	 TD_F(STATUS, NONVOLUNTARY_CTXT_SWITCHES) | TD_F(STATUS, FDSIZE) |	\
	 TD_F(STATUS, NO_NEW_PRIVS) |						\
	 (IS_ENABLED(CONFIG_SECCOMP) ? TD_F(STATUS, SECCOMP) : 0) |		\
	 (IS_ENABLED(CONFIG_SECCOMP_FILTER) ? TD_F(STATUS, SECCOMP_FILTERS) : 0))

/* A page count as the bytes it covers. */
static u64 td_pages(unsigned long pages)
{
	return (u64)pages << PAGE_SHIFT;
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
static void td_status_fs(struct task_diag_status *s, struct task_struct *task)
{
	task_lock(task);
	/* procfs leaves out the Umask line for a task without fs. */
	if (td_task_fs(task)) {
		s->umask = td_task_fs(task)->umask;
		s->mask |= TD_F(STATUS, UMASK);
	}
	if (task->files) {
		rcu_read_lock();
		s->fdsize = files_fdtable(task->files)->max_fds;
		rcu_read_unlock();
	}
	task_unlock(task);
}

/* task_mem(), task_core_dumping() and task_thp_status(): tasks with an mm. */
static void td_status_mm(struct task_diag_status *s, struct td_task_ctx *ctx,
			 struct mm_struct *mm)
{
	const unsigned long *c = td_task_counters(ctx, mm);
	unsigned long anon, file, shmem, rss, exec, text;

	anon = c[MM_ANONPAGES];
	file = c[MM_FILEPAGES];
	shmem = c[MM_SHMEMPAGES];
	rss = anon + file + shmem;

	/* The high-water marks lag the current values, which may be higher. */
	s->vm_peak = td_pages(max(mm->hiwater_vm, mm->total_vm));
	s->vm_hwm = td_pages(max(mm->hiwater_rss, rss));
	s->vm_lck = td_pages(mm->locked_vm);
	s->vm_pin = td_pages(atomic64_read(&mm->pinned_vm));
	s->vm_rss = td_pages(rss);
	s->rss_anon = td_pages(anon);
	s->rss_file = td_pages(file);
	s->rss_shmem = td_pages(shmem);
	s->vm_data = td_pages(mm->data_vm);
	s->vm_stk = td_pages(mm->stack_vm);

	/* VmExe: the page-aligned code range, at most the executable mappings. */
	exec = mm->exec_vm << PAGE_SHIFT;
	text = PAGE_ALIGN(mm->end_code) - (mm->start_code & PAGE_MASK);
	text = min(text, exec);
	s->vm_exe = text;
	s->vm_lib = exec - text;
	s->vm_pte = mm_pgtables_bytes(mm);
	s->vm_swap = td_pages(c[MM_SWAPENTS]);
#ifdef CONFIG_HUGETLB_PAGE
	/* hugetlb_report_usage() is not exported; it prints this counter. */
	s->hugetlb_pages = td_pages(atomic_long_read(&mm->hugetlb_usage));
#endif
	if (IS_ENABLED(CONFIG_TRANSPARENT_HUGEPAGE))
		s->thp_enabled = !td_mm_thp_disabled(mm);
	s->core_dumping = !!READ_ONCE(ctx->task->signal->core_state);
	s->mask |= TD_STATUS_MM;
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
 * task_sig() without Threads, under the siglock (td_fill_locked()). A task
 * whose sighand is gone (it is being reaped) reads as all zeros, as in
 * procfs.
 */
static void td_status_locked(struct td_task_ctx *ctx, void *st)
{
	struct task_struct *task = ctx->task;
	struct task_diag_status *s = st;
	sigset_t ign, cgt;

	/* A mask is sent as one u64: bit N-1 is signal N. */
	BUILD_BUG_ON(_NSIG_WORDS != 1);

	sigemptyset(&ign);
	sigemptyset(&cgt);
	s->sig_pending = task->pending.signal.sig[0];
	s->sig_shared_pending = task->signal->shared_pending.signal.sig[0];
	s->sig_blocked = task->blocked.sig[0];
	td_sig_actions(task, &ign, &cgt);
	s->sig_ignored = ign.sig[0];
	s->sig_caught = cgt.sig[0];
	/* The real uid's queued signals, as SigQ counts them. */
	rcu_read_lock();
	s->sigq_queued = get_rlimit_value(task_ucounts(task), UCOUNT_RLIMIT_SIGPENDING);
	rcu_read_unlock();
	s->sigq_limit = task_rlimit(task, RLIMIT_SIGPENDING);
}

/* task_seccomp() without the Speculation_* lines. */
static void td_status_seccomp(struct task_diag_status *s, struct task_struct *task)
{
	s->no_new_privs = task_no_new_privs(task);
#ifdef CONFIG_SECCOMP
	s->seccomp = READ_ONCE(task->seccomp.mode);
#ifdef CONFIG_SECCOMP_FILTER
	s->seccomp_filters = atomic_read(&task->seccomp.filter_count);
#endif
#endif
}

/*
 * Cpus_allowed, as task_cpus_allowed(): the task's own cpus_mask (not the
 * cpus_ptr a migrate_disable() section narrows), nr_cpu_ids bits, read
 * without a lock as procfs reads it.
 */
static int td_status_cpus(struct sk_buff *skb, struct task_struct *task)
{
	return td_put_bitmap(skb, TASK_DIAG_A_TASK_CPUS_ALLOWED,
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
	u32 *words = td_attr_reserve(skb, TASK_DIAG_A_TASK_MEMS_ALLOWED,
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

/* The NS* lines of status: each attribute with the pid type its ids are of. */
static const struct {
	u16 attr;
	u16 type;
} td_status_ns_ids[] = {
	{ TASK_DIAG_A_TASK_NS_TGID, PIDTYPE_TGID },
	{ TASK_DIAG_A_TASK_NS_PID, PIDTYPE_PID },
	{ TASK_DIAG_A_TASK_NS_PGID, PIDTYPE_PGID },
	{ TASK_DIAG_A_TASK_NS_SID, PIDTYPE_SID },
};

/* A task's pid has one number per level, 0 to MAX_PID_NS_LEVEL. */
#define TD_NS_IDS_MAX (MAX_PID_NS_LEVEL + 1)

/*
 * The NStgid, NSpid, NSpgid and NSsid lines of task_state(): for every pid
 * namespace from @ns (the requester's) down to the task's own, the task's
 * tgid, pid, pgid and sid there, one u32 each per level, as
 * task_tgid_nr_ns() and friends give them: 0 where the id is not visible
 * (a process group or session led from a namespace above). procfs takes
 * the levels from the struct pid its inode holds; here it is the task's
 * thread pid, read under RCU (exec may swap it with the old leader's, and
 * release_task() clears it; struct pid is freed after a grace period).
 * Without CONFIG_PID_NS procfs prints none of these lines, and nothing is
 * sent. Return 0, -ESRCH if the task was reaped, or -EMSGSIZE.
 */
static int td_status_ns(struct sk_buff *skb, struct task_struct *task,
			struct pid_namespace *ns)
{
	unsigned int i, g, n;
	struct pid *pid;
	int err = 0;

	if (!IS_ENABLED(CONFIG_PID_NS))
		return 0;
	rcu_read_lock();
	pid = READ_ONCE(task->thread_pid);
	/* Not in @ns at all: a task of another branch, or reaped. */
	if (!pid || pid->level < ns->level || pid->numbers[ns->level].ns != ns) {
		err = -ESRCH;
		goto out_unlock;
	}
	n = pid->level - ns->level + 1;
	for (i = 0; i < ARRAY_SIZE(td_status_ns_ids); i++) {
		u32 *ids = td_attr_reserve(skb, td_status_ns_ids[i].attr, n * sizeof(u32));

		if (!ids) {
			err = -EMSGSIZE;
			break;
		}
		for (g = 0; g < n; g++)
			ids[g] = __task_pid_nr_ns(task, td_status_ns_ids[i].type,
						  pid->numbers[ns->level + g].ns);
	}
out_unlock:
	rcu_read_unlock();
	return err;
}

/**
 * td_status_fill() - write the status struct and bitmaps of a task
 * @skb: the reply
 * @ctx: the task being written
 *
 * Values are those /proc/PID/status shows, sizes in bytes. The memory
 * fields (Vm*, Rss*, HugetlbPages, CoreDumping, THP_enabled) are filled
 * only for a task with an mm, and Umask only for a task with an fs, as
 * procfs prints those lines. After the bitmaps come the four NS* pid
 * arrays (td_status_ns()). /proc/PID/status needs no permission, so
 * nothing here is guarded.
 *
 * Context: process context, no locks held; takes task_lock() and the RCU
 * read lock briefly. The signal fields are filled by td_status_locked().
 * Return: 0, -ESRCH if the task was reaped meanwhile, or -EMSGSIZE when
 * @skb is full.
 */
static int td_status_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct task_struct *task = ctx->task;
	struct mm_struct *mm = td_task_mm(ctx);
	struct task_diag_status *s;

	s = td_reserve(skb, TASK_DIAG_A_TASK_STATUS, struct task_diag_status);
	if (!s)
		return -EMSGSIZE;
	ctx->st = s;
	s->mask = TD_STATUS_ALWAYS;
	td_status_fs(s, task);
	if (mm)
		td_status_mm(s, ctx, mm);
	td_status_seccomp(s, task);
	/* task_context_switch_counts(): the task's own, also for /proc/PID. */
	s->voluntary_ctxt_switches = READ_ONCE(task->nvcsw);
	s->nonvoluntary_ctxt_switches = READ_ONCE(task->nivcsw);

	if (td_status_cpus(skb, task) || td_status_mems(skb, task))
		return -EMSGSIZE;
	return td_status_ns(skb, task, ctx->subj->ns);
}

/*
 * The struct, the two bitmaps (nr_cpu_ids and at most nr_node_ids bits)
 * and the four NS* arrays of at most TD_NS_IDS_MAX ids.
 */
static size_t td_status_msg_size(void)
{
	return td_struct_msg_size(struct task_diag_status) +
	       nla_total_size(BITS_TO_U32(nr_cpu_ids) * sizeof(u32)) +
	       nla_total_size(BITS_TO_U32(nr_node_ids) * sizeof(u32)) +
	       ARRAY_SIZE(td_status_ns_ids) * nla_total_size(TD_NS_IDS_MAX * sizeof(u32));
}

const struct td_group td_status_group = {
	.show = TASK_DIAG_SHOW_STATUS,
	.fill = td_status_fill,
	.locked = td_status_locked,
	.msg_size = td_status_msg_size,
};
