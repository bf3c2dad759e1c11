/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_diag: what differs between the kernels the module builds for
 * (Linux 6.1 and 6.12, generic, -rt and -cloud flavours), and helpers that
 * procfs uses but does not export to modules, re-derived from the inline
 * helpers and struct fields they are built on. Each difference says the
 * version that introduced it; each helper which procfs helper it stands
 * for. Nothing else in kernel/ tests LINUX_VERSION_CODE.
 *
 * Differences met between 6.1 and 6.12 that need no code, kept here so
 * that whoever touches these areas knows:
 *
 * - 6.2: generic netlink split ops (struct genl_split_ops). The small ops
 *   of td_ops[] (.doit, .start, .dumpit, .done, one .policy) are still
 *   accepted on 6.12 and converted by the core. genl_dumpit_info() keeps
 *   the parsed attributes in an embedded struct genl_info since 6.2, read
 *   them through td_dump_attrs().
 * - 6.2: the mm's rss_stat counters are percpu_counters; see
 *   td_mm_counter() for which read procfs uses where.
 * - 6.7: nla_put_uint() (variable-size attribute). Not used: the ABI has
 *   fixed-size attributes on every kernel.
 * - 6.10: netlink_dump() turns a dumpit's -EMSGSIZE into "skb full, call
 *   again" when the skb holds something. td_dumpit() already returns the
 *   length in that case and -EMSGSIZE only for an empty skb (not even one
 *   task fits), which is an error on both.
 * - exec_update_lock: signal_struct::exec_update_lock (an rw_semaphore)
 *   on both series (since 5.10); down_read_killable() on it is unchanged.
 * - struct proc_fs_info (a procfs superblock's s_fs_info): pid_ns,
 *   proc_self, proc_thread_self, pid_gid (kgid_t), hide_pid (enum
 *   proc_hidepid) and pidonly (enum proc_pidonly) have the same names and
 *   types on 6.1 and 6.12; 6.12 adds a trailing struct rcu_head (the info
 *   is freed after a grace period), so code must not depend on the size.
 *   proc_sb_info() is an inline in <linux/proc_fs.h> on both; use
 *   td_proc_fs_info(). kern_path() is exported with the same signature on
 *   both.
 * - FOLL_ANON: unchanged (a #define on 6.1, an enum value on 6.12).
 *   while_each_thread() still exists on 6.12.
 */
#ifndef _TASK_DIAG_COMPAT_H
#define _TASK_DIAG_COMPAT_H

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/spinlock.h>
#include <linux/version.h>
#include <net/genetlink.h>

/* 6.12: <asm/unaligned.h> moved to <linux/unaligned.h>. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * The parsed request attributes of a dump, for ->start(). 6.2: they moved
 * into the struct genl_info that genl_dumpit_info embeds.
 */
static inline struct nlattr **td_dump_attrs(struct netlink_callback *cb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * A capability set as the u64 procfs prints (bit N is capability N).
 * 6.3: kernel_cap_t is one u64 (val) instead of two u32 words (cap[]).
 */
static inline u64 td_cap_u64(const kernel_cap_t *c)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	return c->val;
#else
	BUILD_BUG_ON(_KERNEL_CAPABILITY_U32S != 2);
	return (u64)c->cap[1] << 32 | c->cap[0];
#endif
}

/*
 * An mm counter as /proc/PID/status and /proc/PID/statm read it.
 * 6.2: the counters became percpu_counters, read approximately by
 * get_mm_counter() (percpu_counter_read_positive()). 6.16, and 6.12.39 in
 * the 6.12 stable series: task_mem() and task_statm() read the exact sum
 * (get_mm_counter_sum(), under the counter's raw spinlock) instead. The
 * rss of /proc/PID/stat (get_mm_rss()) stays approximate on every kernel.
 * On 6.1 the counters are atomics and get_mm_counter() is what procfs
 * reads.
 */
static inline unsigned long td_mm_counter(struct mm_struct *mm, int member)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0) || \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 39) && \
	 LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0))
	return get_mm_counter_sum(mm, member);
#else
	return get_mm_counter(mm, member);
#endif
}

/* The mount options (hidepid=, gid=) of a procfs superblock; see above. */
static inline struct proc_fs_info *td_proc_fs_info(struct super_block *sb)
{
	return proc_sb_info(sb);
}

/*
 * lock_task_sighand(): __lock_task_sighand() is not exported. The sighand
 * of a live task is freed only after an RCU grace period, and it is
 * detached (set to NULL) under its own lock, so lock it and check that it
 * is still the task's.
 */
static inline struct sighand_struct *td_lock_sighand(struct task_struct *t,
						     unsigned long *flags)
{
	struct sighand_struct *sh;

	rcu_read_lock();
	for (;;) {
		sh = rcu_dereference(t->sighand);
		if (!sh)
			break;
		spin_lock_irqsave(&sh->siglock, *flags);
		if (likely(sh == rcu_access_pointer(t->sighand)))
			break;
		spin_unlock_irqrestore(&sh->siglock, *flags);
	}
	rcu_read_unlock();
	return sh;
}

static inline void td_unlock_sighand(struct task_struct *t, unsigned long *flags)
{
	spin_unlock_irqrestore(&t->sighand->siglock, *flags);
}

/*
 * access_remote_vm() (not exported) for the reads of /proc/PID/cmdline:
 * copy @len bytes at @addr of @mm into @buf, a page at a time, under the
 * mmap read lock; stop at the first page that cannot be had (with
 * FOLL_ANON, any page outside an anonymous mapping). The VM_IO fallback
 * of __access_remote_vm() is left out: FOLL_ANON excludes such mappings.
 * 6.5: get_user_pages_remote() lost its vmas argument.
 *
 * Return: the number of bytes copied.
 */
static inline size_t td_access_remote_vm(struct mm_struct *mm, unsigned long addr,
					 void *buf, size_t len, unsigned int gup_flags)
{
	size_t done = 0;

	if (mmap_read_lock_killable(mm))
		return 0;
	while (done < len) {
		size_t offset = offset_in_page(addr);
		size_t bytes = min_t(size_t, len - done, PAGE_SIZE - offset);
		struct page *page;
		long got;

		/*
		 * An unmapped address is the end, as in __access_remote_vm():
		 * 6.12's GUP warns with a stack dump when the address lies
		 * just below a VM_GROWSDOWN mapping (it no longer grows the
		 * stack), which any process could make its own argv do. The
		 * stack is not grown here either.
		 */
		if (!vma_lookup(mm, addr))
			break;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
		got = get_user_pages_remote(mm, addr, 1, gup_flags, &page, NULL);
#else
		got = get_user_pages_remote(mm, addr, 1, gup_flags, &page, NULL, NULL);
#endif
		if (got <= 0)
			break;
		memcpy_from_page((char *)buf + done, page, offset, bytes);
		put_page(page);
		done += bytes;
		addr += bytes;
	}
	mmap_read_unlock(mm);
	return done;
}

/* task_prio() is not exported: the priority stat shows, -100..39. */
static inline int td_task_prio(const struct task_struct *p)
{
	return p->prio - MAX_RT_PRIO;
}

/* get_task_state(): the state letter of stat, from the report index. */
static inline char td_task_state_char(struct task_struct *t)
{
	static const char letters[] = "RSDTtXZPI";

	BUILD_BUG_ON(1 + ilog2(TASK_REPORT_MAX) != sizeof(letters) - 1);
	return letters[task_state_index(t)];
}

/*
 * Ran since @since (a local_clock() value)? @exec_start is the task's
 * se.exec_start: the scheduler's clock_task of its CPU when it was last
 * accounted (switch-in, each tick and update_curr() while it runs, and
 * when it stops: sleep, preemption), on 6.1 (CFS) and 6.12 (EEVDF) alike,
 * for the fair, rt, deadline and stop classes. 0 means it never ran, or
 * that it was migrated since (enqueue_entity() with ENQUEUE_MIGRATED
 * zeroes it until it next runs): count that as ran, never a miss.
 *
 * Without IRQ and steal time accounting, clock_task is the rq's clock,
 * sched_clock_cpu() of that CPU, the domain of local_clock(). Where
 * sched_clock is not stable, each CPU's clock is kept within one tick
 * (TICK_NSEC) of the time of day sampled at its last tick, so two CPUs'
 * clocks differ by less than two ticks: the comparison allows for that.
 * With CONFIG_IRQ_TIME_ACCOUNTING or CONFIG_PARAVIRT_TIME_ACCOUNTING
 * (none of Debian's 6.1 and 6.12 kernels, -rt and -cloud included),
 * clock_task lags the clock by the CPU's interrupt and steal time since
 * boot, which a module cannot read (struct rq is private): every task
 * counts as ran there.
 */
/*
 * Is @t on a CPU? task_struct::on_cpu exists only with CONFIG_SMP (every
 * Debian kernel); without it, say yes: ran-since then keeps every task.
 * On SMP, on_cpu is cleared with a release (finish_task()) after the task's
 * last accounting: the acquire orders the caller's later reads after it.
 */
static inline bool td_task_on_cpu(struct task_struct *t)
{
#ifdef CONFIG_SMP
	/* Pairs with the smp_store_release() of finish_task(). */
	return smp_load_acquire(&t->on_cpu);
#else
	return true;
#endif
}

static inline bool td_sched_ran_since(u64 exec_start, u64 since)
{
#if defined(CONFIG_IRQ_TIME_ACCOUNTING) || defined(CONFIG_PARAVIRT_TIME_ACCOUNTING)
	return true;
#else
	return !exec_start || exec_start + 2 * TICK_NSEC >= since;
#endif
}

#endif /* _TASK_DIAG_COMPAT_H */
