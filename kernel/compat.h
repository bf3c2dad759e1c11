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
 *   td_proc_fs_info(). d_hash_and_lookup() and follow_down_one(), which
 *   find /proc from the caches (td_cached_proc()), are exported with the
 *   same signatures on both.
 * - FOLL_ANON: unchanged (a #define on 6.1, an enum value on 6.12).
 *   while_each_thread() still exists on 6.12.
 */
#ifndef _TASK_DIAG_COMPAT_H
#define _TASK_DIAG_COMPAT_H

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/hugetlb.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/pagemap.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/shmem_fs.h>
#include <linux/spinlock.h>
#include <linux/swapops.h>
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
 * copy @len bytes at @addr of @mm into @buf, a page at a time; the caller
 * holds the mmap read lock (td_mmap_read_lock()); stop at the first page that cannot be had (with
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

	/* Not mmap_assert_locked(): with DEBUG_VM it calls dump_mm(), not exported. */
	lockdep_assert_held(&mm->mmap_lock);
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
static inline bool td_sched_ran_since(u64 exec_start, u64 since)
{
#if defined(CONFIG_IRQ_TIME_ACCOUNTING) || defined(CONFIG_PARAVIRT_TIME_ACCOUNTING)
	return true;
#else
	return !exec_start || exec_start + 2 * TICK_NSEC >= since;
#endif
}

/*
 * The VMA dump (vma.c) and fs/proc/task_mmu.c.
 *
 * - arch_vma_name() is not exported; x86's returns NULL on 6.1 and 6.12
 *   (arch/x86/mm/mmap.c), so the name of a VMA never comes from it there.
 *   Other architectures' would be missed.
 * - get_gate_vma() and in_gate_area() are not exported: the gate area
 *   ([vsyscall] on x86-64, present only with vsyscall=emulate or xonly;
 *   Debian's kernels default to none) is not dumped.
 * - mm_access() is not exported: vma.c does what it does (exec_update_lock,
 *   get_task_mm(), the ptrace read check) with the module's checks.
 * - The VMA iterator (VMA_ITERATOR, for_each_vma() over the maple tree's
 *   exported mas_find()) and mmap_read_lock_killable() are the same on both.
 */

/*
 * The name prctl(PR_SET_VMA_ANON_NAME) gave a VMA: anon_vma_name() is not
 * exported; it reads vma->anon_name under the mmap lock. 6.1: anonymous
 * VMAs only (anon_name shares a union with the file rmap's node). 6.2: a
 * field of its own, and shared anonymous (shmem) VMAs may be named too,
 * which 6.12's maps prints as [anon_shmem:NAME]. Debian's 6.1 and 6.12
 * kernels are built without CONFIG_ANON_VMA_NAME: no VMA has a name then.
 */
static inline const char *td_vma_anon_name(struct vm_area_struct *vma)
{
#ifdef CONFIG_ANON_VMA_NAME
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
	if (vma->vm_file)
		return NULL;
#endif
	return vma->anon_name ? vma->anon_name->name : NULL;
#else
	return NULL;
#endif
}

/*
 * The path and inode maps shows for a mapped file. 6.8: a backing file
 * (FMODE_BACKING, overlayfs) shows the path and inode the user opened,
 * file_user_path() and file_user_inode() (inlines over the exported
 * backing_file_user_path()).
 */
static inline const struct path *td_file_user_path(struct file *f)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	return file_user_path(f);
#else
	return &f->f_path;
#endif
}

static inline const struct inode *td_file_user_inode(struct file *f)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	return file_user_inode(f);
#else
	return file_inode(f);
#endif
}

/*
 * The folio of @mapping's page cache at @index, referenced, or NULL if none
 * is cached; it never sleeps. 6.3 made filemap_get_folio() return
 * ERR_PTR(-ENOENT) instead of NULL.
 */
static inline struct folio *td_filemap_get_folio(struct address_space *mapping, pgoff_t index)
{
	struct folio *folio = filemap_get_folio(mapping, index);

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	if (IS_ERR(folio))
		return NULL;
#endif
	return folio;
}

/*
 * Is @vma the heap ([heap] in maps)? 6.1's show_map_vma() tests
 * vm_start <= brk && vm_end >= start_brk; 6.6's vma_is_initial_heap(),
 * which 6.12's maps uses, the strict vm_start < brk && vm_end > start_brk.
 */
static inline bool td_vma_is_heap(const struct vm_area_struct *vma)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return vma_is_initial_heap(vma);
#else
	return vma->vm_start <= vma->vm_mm->brk && vma->vm_end >= vma->vm_mm->start_brk;
#endif
}

/* Does @vma hold the main thread's stack start ([stack])? Same on both. */
static inline bool td_vma_is_stack(const struct vm_area_struct *vma)
{
	return vma->vm_start <= vma->vm_mm->start_stack &&
	       vma->vm_end >= vma->vm_mm->start_stack;
}

/*
 * TD_VMA_FLAGS(X): X(VM_flag, TASK_DIAG_VMA_FLAG_bit) for each VM_* flag
 * the running kernel's show_smap_vma_flags() prints a mnemonic for, under
 * the same conditions. 6.12 (not 6.1) prints lf (VM_LOCKONFAULT), ss
 * (VM_SHADOW_STACK, 6.6), dp (VM_DROPPABLE, 6.11) and sl (VM_SEALED,
 * 6.10).
 */
#define TD_VMA_FLAGS_COMMON(X)						\
	X(VM_READ, READ) X(VM_WRITE, WRITE) X(VM_EXEC, EXEC)		\
	X(VM_SHARED, SHARED) X(VM_MAYREAD, MAYREAD)			\
	X(VM_MAYWRITE, MAYWRITE) X(VM_MAYEXEC, MAYEXEC)			\
	X(VM_MAYSHARE, MAYSHARE) X(VM_GROWSDOWN, GROWSDOWN)		\
	X(VM_PFNMAP, PFNMAP) X(VM_LOCKED, LOCKED) X(VM_IO, IO)		\
	X(VM_SEQ_READ, SEQ_READ) X(VM_RAND_READ, RAND_READ)		\
	X(VM_DONTCOPY, DONTCOPY) X(VM_DONTEXPAND, DONTEXPAND)		\
	X(VM_ACCOUNT, ACCOUNT) X(VM_NORESERVE, NORESERVE)		\
	X(VM_HUGETLB, HUGETLB) X(VM_SYNC, SYNC) X(VM_ARCH_1, ARCH_1)	\
	X(VM_WIPEONFORK, WIPEONFORK) X(VM_DONTDUMP, DONTDUMP)		\
	X(VM_MIXEDMAP, MIXEDMAP) X(VM_HUGEPAGE, HUGEPAGE)		\
	X(VM_NOHUGEPAGE, NOHUGEPAGE) X(VM_MERGEABLE, MERGEABLE)		\
	X(VM_UFFD_MISSING, UFFD_MISSING) X(VM_UFFD_WP, UFFD_WP)
#ifdef CONFIG_MEM_SOFT_DIRTY
#define TD_VMA_FLAGS_SD(X) X(VM_SOFTDIRTY, SOFTDIRTY)
#else
#define TD_VMA_FLAGS_SD(X)
#endif
#ifdef CONFIG_HAVE_ARCH_USERFAULTFD_MINOR
#define TD_VMA_FLAGS_UI(X) X(VM_UFFD_MINOR, UFFD_MINOR)
#else
#define TD_VMA_FLAGS_UI(X)
#endif
#ifdef CONFIG_X86_USER_SHADOW_STACK
#define TD_VMA_FLAGS_SS(X) X(VM_SHADOW_STACK, SHADOW_STACK)
#else
#define TD_VMA_FLAGS_SS(X)
#endif
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define TD_VMA_FLAGS_612(X) X(VM_LOCKONFAULT, LOCKONFAULT) X(VM_DROPPABLE, DROPPABLE) \
	X(VM_SEALED, SEALED)
#else
#define TD_VMA_FLAGS_612(X)
#endif
#define TD_VMA_FLAGS(X) TD_VMA_FLAGS_COMMON(X) TD_VMA_FLAGS_SD(X) TD_VMA_FLAGS_UI(X) \
	TD_VMA_FLAGS_SS(X) TD_VMA_FLAGS_612(X)

/*
 * The mem group's page-table walk (kernel/mem.c) stands for smaps'
 * walk_page_vma() with smaps_walk_ops, none of it exported. What differs:
 *
 * - 6.5: pte_offset_map_lock() became __pte_offset_map_lock(), not
 *   exported, which maps the table under rcu_read_lock() (a page table
 *   may then be freed under the mmap read lock, after an RCU grace
 *   period: khugepaged's retract_page_tables()) and rechecks the pmd
 *   under the table's lock. td_pte_map_lock() does the same on both
 *   series; on 6.1 the RCU section is merely unneeded.
 * - 6.12 (not 6.1): smap_gather_stats() tells a shmem VMA by its
 *   mapping, shmem_mapping() (exported on 6.12 only), where 6.1 has
 *   vma_is_shmem() (not exported); both come to the mapping's a_ops being
 *   shmem_aops, which 6.1 exports. (A SysV shm VMA maps a shmem mapping
 *   but is not vma_is_shmem(): only the swap sum looks at this, and it is
 *   declared inexact for any swapped shmem object, see kernel/mem.c.)
 * - 6.7: smaps_rollup prints KSM (folio_test_ksm()).
 * - 6.12 (not 6.1): smaps_account() treats a non-present entry
 *   (migration) as "maybe shared" (smaps_page_accumulate(..., private =
 *   false)) where 6.1 sums it as a private page; the mapcount of a page
 *   of a large folio is folio_precise_page_mapcount() (an inline of
 *   fs/proc/internal.h) where 6.1 has page_mapcount() (__page_mapcount(),
 *   exported); smaps_hugetlb_range() counts a hugetlb page shared when it
 *   is !present || folio_likely_mapped_shared(), 6.1 when its
 *   page_mapcount() >= 2, both also when hugetlb_pmd_shared();
 *   huge_ptep_get() takes the mm and the address; a DAX (devmap) pmd is
 *   not accounted (vm_normal_page_pmd() returns NULL) where 6.1 accounts
 *   its page (follow_trans_huge_pmd()), outside the THP sums.
 * - 6.1 (not 6.12): follow_trans_huge_pmd(FOLL_DUMP) gives no page for a
 *   PROT_NONE or NUMA-hinting pmd (pmd_protnone() without FOLL_FORCE),
 *   so 6.1's smaps leaves such a THP out; 6.12's vm_normal_page_pmd()
 *   accounts it, and gives no page for a special (huge pfnmap) pmd,
 *   pmd_special(), which 6.1 does not have.
 */
#define TD_MEM_HAS_KSM (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0))
#define TD_MEM_NONPRESENT_PRIVATE (LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0))
#define TD_MEM_DEVMAP_PMD_COUNTED (LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0))
#define TD_MEM_PROTNONE_PMD_COUNTED (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))

static inline bool td_pmd_special(pmd_t pmd)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return pmd_special(pmd);
#else
	return false;
#endif
}

static inline bool td_mapping_is_shmem(struct address_space *mapping)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return shmem_mapping(mapping);
#else
	return mapping->a_ops == &shmem_aops;
#endif
}

/* pte_offset_map_lock(): NULL if the pmd holds no page table (any more). */
static inline pte_t *td_pte_map_lock(struct mm_struct *mm, pmd_t *pmd,
				     unsigned long addr, spinlock_t **ptlp)
{
	spinlock_t *ptl;
	pmd_t pmdval;
	pte_t *pte;

	rcu_read_lock();
	pmdval = READ_ONCE(*pmd);
	if (pmd_none(pmdval) || !pmd_present(pmdval) || pmd_trans_huge(pmdval) ||
	    pmd_devmap(pmdval) || pmd_bad(pmdval))
		goto nomap;
	pte = pte_offset_kernel(&pmdval, addr);
	ptl = pte_lockptr(mm, &pmdval);
	spin_lock(ptl);
	if (likely(pmd_same(pmdval, READ_ONCE(*pmd)))) {
		*ptlp = ptl;
		return pte;
	}
	spin_unlock(ptl);
nomap:
	rcu_read_unlock();
	return NULL;
}

static inline void td_pte_unmap_unlock(spinlock_t *ptl)
{
	spin_unlock(ptl);
	rcu_read_unlock();
}

/* The mapcount smaps_account() divides a page of a large folio by. */
static inline int td_page_mapcount(struct folio *folio, struct page *page)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	int mapcount = atomic_read(&page->_mapcount) + 1;

	if (page_mapcount_is_type(mapcount))
		mapcount = 0;
	if (folio_test_large(folio))
		mapcount += folio_entire_mapcount(folio);
	return mapcount;
#else
	return page_mapcount(page);
#endif
}

/* Is a hugetlb folio counted as Shared_Hugetlb? */
static inline bool td_hugetlb_shared(struct folio *folio, bool present, pte_t *pte)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return !present || folio_likely_mapped_shared(folio) || hugetlb_pmd_shared(pte);
#else
	return page_mapcount(&folio->page) >= 2 || hugetlb_pmd_shared(pte);
#endif
}

/*
 * Is the page of a non-swap pfn entry in a pte accounted as present?
 * 6.1: all but migration entries (device-private and device-exclusive);
 * 6.12: device-private entries only.
 */
static inline bool td_swp_entry_present(swp_entry_t ent)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return is_device_private_entry(ent);
#else
	return !is_migration_entry(ent);
#endif
}

static inline pte_t td_huge_ptep_get(struct mm_struct *mm, unsigned long addr, pte_t *pte)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	return huge_ptep_get(mm, addr, pte);
#else
	return huge_ptep_get(pte);
#endif
}

#endif /* _TASK_DIAG_COMPAT_H */
