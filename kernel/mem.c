// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the mem group, the sums of /proc/PID/smaps_rollup.
 *
 * smaps_rollup walks every VMA's page tables with walk_page_vma() and
 * smaps_walk_ops (fs/proc/task_mmu.c); neither is exported, nor are
 * vm_normal_page(), follow_trans_huge_pmd(), the huge zero page and
 * swp_swapcount(). This file walks the tables itself, with the same locks
 * (the mmap read lock, let go between two VMAs when a writer waits for it,
 * each page table's lock, the pmd lock for a huge pmd) and the same
 * accounting, entry by entry, as
 * smaps_pte_entry(), smaps_pmd_entry(), smaps_hugetlb_range() and
 * smaps_account(). Where it cannot be exact it says so in the mask (see
 * td_mem_fill()).
 */
#include <linux/mm.h>
#include <linux/huge_mm.h>
#include <linux/hugetlb.h>
#include <linux/mmap_lock.h>
#include <linux/page_idle.h>
#include <linux/pgtable.h>
#include <linux/sched/clock.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>
#include <linux/swap.h>
#include <linux/swapops.h>

#include <linux/task_diag.h>
#include "compat.h"
#include "task_diag.h"

/* As task_mmu.c: proportional sums carry 12 bits of fraction. */
#define TD_PSS_SHIFT 12

/*
 * The sums of one walk, as task_mmu.c's mem_size_stats (the pss* in units
 * of 2^-12 bytes), and what makes them inexact: @swap_seen, a swap entry
 * was met (swap_pss); @shmem_swapped, a mapped shmem object has swapped
 * pages (swap); @nowait, the walk runs under genetlink's cb_lock
 * (td_view::nowait: a do) and gives up at @deadline; @busy, a lock it
 * would have waited for was busy, or the deadline passed.
 */
struct td_mss {
	u64 resident, shared_clean, shared_dirty, private_clean, private_dirty;
	u64 referenced, anonymous, lazyfree, anonymous_thp, shmem_thp, file_thp;
	u64 swap, swap_pss, shared_hugetlb, private_hugetlb, ksm;
	u64 pss, pss_anon, pss_file, pss_shmem, pss_locked, pss_dirty;
	bool swap_seen;
	bool shmem_swapped;
	bool nowait;
	bool busy;
	u64 deadline;
};

/*
 * Under cb_lock, a walk of an mm of any size (a 256 GiB mapping of the
 * zero page is 64 M page table entries) gives up at the view's deadline:
 * asked once per page table (2 MiB) or huge page step.
 */
static bool td_mem_late_now(struct td_mss *m)
{
	if (!m->nowait || local_clock() < m->deadline)
		return false;
	m->busy = true;
	return true;
}

/* smaps_page_accumulate() */
static void td_mem_page_acc(struct td_mss *m, struct folio *folio, unsigned long size,
			    u64 pss, bool dirty, bool locked, bool private)
{
	m->pss += pss;
	if (folio_test_anon(folio))
		m->pss_anon += pss;
	else if (folio_test_swapbacked(folio))
		m->pss_shmem += pss;
	else
		m->pss_file += pss;
	if (locked)
		m->pss_locked += pss;
	if (dirty || folio_test_dirty(folio)) {
		m->pss_dirty += pss;
		if (private)
			m->private_dirty += size;
		else
			m->shared_dirty += size;
	} else {
		if (private)
			m->private_clean += size;
		else
			m->shared_clean += size;
	}
}

/*
 * smaps_account(): @page mapped by one entry, @nr pages of it (1, or a
 * PMD's worth); @present is false for a migration entry.
 */
static void td_mem_account(struct td_mss *m, struct page *page, int nr, bool young,
			   bool dirty, bool locked, bool present)
{
	struct folio *folio = page_folio(page);
	unsigned long size = (unsigned long)nr * PAGE_SIZE;
	int i;

	if (folio_test_anon(folio)) {
		m->anonymous += size;
		if (!folio_test_swapbacked(folio) && !dirty && !folio_test_dirty(folio))
			m->lazyfree += size;
	}
#if TD_MEM_HAS_KSM
	if (folio_test_ksm(folio))
		m->ksm += size;
#endif
	m->resident += size;
	if (young || folio_test_young(folio) || folio_test_referenced(folio))
		m->referenced += size;

	if (folio_ref_count(folio) == 1 || !present) {
		td_mem_page_acc(m, folio, size, (u64)size << TD_PSS_SHIFT, dirty, locked,
				present || TD_MEM_NONPRESENT_PRIVATE);
		return;
	}
	for (i = 0; i < nr; i++, page++) {
		int mapcount = td_page_mapcount(folio, page);
		u64 pss = (u64)PAGE_SIZE << TD_PSS_SHIFT;

		if (mapcount >= 2)
			pss = div_u64(pss, mapcount);
		td_mem_page_acc(m, folio, PAGE_SIZE, pss, dirty, locked, mapcount < 2);
	}
}

/* vm_normal_page() for an architecture with pte_special() (x86). */
static struct page *td_mem_normal_page(struct vm_area_struct *vma, unsigned long addr,
				       pte_t pte)
{
	unsigned long pfn = pte_pfn(pte);

#if defined(HAVE_VM_OPS_FIND_NORMAL_PAGE)
	if (unlikely(pte_special(pte)) && vma->vm_ops && vma->vm_ops->find_normal_page)
		return vma->vm_ops->find_normal_page(vma, addr);
#elif defined(HAVE_VM_OPS_FIND_SPECIAL_PAGE)
	if (unlikely(pte_special(pte)) && vma->vm_ops && vma->vm_ops->find_special_page)
		return vma->vm_ops->find_special_page(vma, addr);
#endif
	if (unlikely(pte_special(pte)))
		return NULL;
	if (unlikely(!pfn_valid(pfn)))
		return NULL;
	return pfn_to_page(pfn);
}

/*
 * smaps_pte_entry()'s share of a swapped-out page: the page divided among
 * the swap entry's users (swp_swapcount()). Not exported: a module marks
 * swap_pss inexact instead (@swap_seen).
 */
static void td_mem_swap_pss(struct td_mss *m, swp_entry_t ent)
{
#ifdef MODULE
	m->swap_seen = true;
#else
	int mapcount = swp_swapcount(ent);
	u64 pss = (u64)PAGE_SIZE << TD_PSS_SHIFT;

	if (mapcount >= 2)
		do_div(pss, mapcount);
	m->swap_pss += pss;
#endif
}

/* smaps_pte_entry() */
static void td_mem_pte(struct td_mss *m, struct vm_area_struct *vma, pte_t *ptep,
		       unsigned long addr, bool locked)
{
	pte_t pte = ptep_get(ptep);
	bool present = false, young = false, dirty = false;
	struct page *page = NULL;

	if (pte_present(pte)) {
		page = td_mem_normal_page(vma, addr, pte);
		young = pte_young(pte);
		dirty = pte_dirty(pte);
		present = true;
	} else if (!pte_none(pte)) {
		swp_entry_t ent = td_pte_leaf(pte);

		if (td_leaf_is_swap(ent)) {
			m->swap += PAGE_SIZE;
			td_mem_swap_pss(m, ent);
		} else if (td_leaf_has_pfn(ent)) {
			present = td_swp_entry_present(ent);
			page = td_leaf_to_page(ent);
		}
	}
	if (page)
		td_mem_account(m, page, 1, young, dirty, locked, present);
}

/*
 * smaps_pmd_entry(), under the pmd lock. The huge zero page (not exported)
 * is the one pmd-mapped page that is neither anonymous nor in a mapping: a
 * file page cannot leave its mapping while mapped. A DAX pmd (devmap) is
 * accounted on 6.1 (follow_trans_huge_pmd() returns its page) and not on
 * 6.12 (vm_normal_page_pmd() returns NULL); a PROT_NONE pmd the other way
 * round, and a special pmd on 6.12 not: see compat.h.
 */
static void td_mem_pmd_huge(struct td_mss *m, struct vm_area_struct *vma, pmd_t pmd,
			    bool locked)
{
	struct page *page = NULL;
	struct folio *folio;
	bool present = false;

	if (pmd_present(pmd)) {
		if (!pfn_valid(pmd_pfn(pmd)))
			return;
		if (td_pmd_devmap(pmd) && !TD_MEM_DEVMAP_PMD_COUNTED)
			return;
		if ((!TD_MEM_PROTNONE_PMD_COUNTED && pmd_protnone(pmd)) || td_pmd_special(pmd))
			return;
		page = pmd_page(pmd);
		present = true;
	} else if (thp_migration_supported()) {
		swp_entry_t ent = td_pmd_leaf(pmd);

		if (td_leaf_has_pfn(ent))
			page = td_leaf_to_page(ent);
	}
	if (!page)
		return;
	folio = page_folio(page);
	if (present && !is_zone_device_page(page) && !READ_ONCE(folio->mapping))
		return;
	if (folio_test_anon(folio))
		m->anonymous_thp += HPAGE_PMD_SIZE;
	else if (folio_test_swapbacked(folio))
		m->shmem_thp += HPAGE_PMD_SIZE;
	else if (!is_zone_device_page(page))
		m->file_thp += HPAGE_PMD_SIZE;
	td_mem_account(m, page, compound_nr(page), pmd_young(pmd), pmd_dirty(pmd), locked,
		       present);
}

/* Are the eight entries from @pte (8-aligned) all zero words? */
static __always_inline bool td_mem_ptes_zero(const pte_t *pte)
{
	const unsigned long *w = (const unsigned long *)pte;

	BUILD_BUG_ON(sizeof(pte_t) != sizeof(unsigned long));
	return !(READ_ONCE(w[0]) | READ_ONCE(w[1]) | READ_ONCE(w[2]) | READ_ONCE(w[3]) |
		 READ_ONCE(w[4]) | READ_ONCE(w[5]) | READ_ONCE(w[6]) | READ_ONCE(w[7]));
}

/* smaps_pte_range() over one pmd's range [@addr, @end). */
static void td_mem_pmd(struct td_mss *m, struct vm_area_struct *vma, pmd_t *pmd,
		       unsigned long addr, unsigned long end, bool locked)
{
	struct mm_struct *mm = vma->vm_mm;
	spinlock_t *ptl;	/* the pmd's lock */
	pmd_t pmdval;
	pte_t *pte;

again:
	pmdval = READ_ONCE(*pmd);
	if (pmd_none(pmdval))
		return;
	if (td_pmd_is_huge(pmdval)) {
		ptl = pmd_lock(mm, pmd);
		pmdval = *pmd;
		if (td_pmd_is_huge(pmdval)) {
			td_mem_pmd_huge(m, vma, pmdval, locked);
			spin_unlock(ptl);
			return;
		}
		spin_unlock(ptl);
		goto again;
	}
	if (pmd_bad(pmdval))
		return;
	pte = td_pte_map_lock(mm, pmd, addr, &ptl);
	if (!pte)
		goto again;
	while (addr != end) {
		/*
		 * Most entries of a VMA's tables are empty (pages never
		 * touched): skip them eight (one cache line) at a time while
		 * they are all-zero words, which smaps would pass over one
		 * by one to the same effect (an empty entry counts nothing).
		 */
		if (!((addr >> PAGE_SHIFT) & 7) && end - addr >= 8 * PAGE_SIZE &&
		    td_mem_ptes_zero(pte)) {
			pte += 8;
			addr += 8 * PAGE_SIZE;
			continue;
		}
		td_mem_pte(m, vma, pte, addr, locked);
		pte++;
		addr += PAGE_SIZE;
	}
	td_pte_unmap_unlock(ptl);
}

/*
 * walk_pgd_range() down to td_mem_pmd() for a VMA that is not hugetlb, from
 * @addr (its start, or where a walk that dropped the lock resumes).
 */
static void td_mem_walk_vma(struct td_mss *m, struct vm_area_struct *vma, unsigned long addr)
{
	bool locked = vma->vm_flags & VM_LOCKED;
	unsigned long end = vma->vm_end, next;
	struct mm_struct *mm = vma->vm_mm;
	pgd_t *pgd;
	p4d_t *p4d;
	pud_t *pud;
	pmd_t *pmd;

	for (; addr < end; addr = next) {
		pgd = pgd_offset(mm, addr);
		next = pgd_addr_end(addr, end);
		if (pgd_none(*pgd) || unlikely(pgd_bad(*pgd)))
			continue;
		p4d = p4d_offset(pgd, addr);
		next = p4d_addr_end(addr, end);
		if (p4d_none(*p4d) || unlikely(p4d_bad(*p4d)))
			continue;
		pud = pud_offset(p4d, addr);
		next = pud_addr_end(addr, end);
		/*
		 * A huge pud outside hugetlb is a 1 GiB DAX mapping, which
		 * smaps splits (split_huge_pud()) and this walk skips.
		 */
		if (pud_none(*pud) || !pud_present(*pud) || pud_leaf(*pud) || pud_bad(*pud))
			continue;
		pmd = pmd_offset(pud, addr);
		for (; addr < next; pmd++) {
			unsigned long pend = pmd_addr_end(addr, next);

			td_mem_pmd(m, vma, pmd, addr, pend, locked);
			addr = pend;
			cond_resched();
			if (td_mem_late_now(m))
				return;
		}
	}
}

/*
 * huge_pte_offset() of the generic hugetlb code (x86): the pud of a 1 GiB
 * page, the pmd of a 2 MiB one, or NULL where no table leads there.
 */
static pte_t *td_mem_huge_pte(struct mm_struct *mm, unsigned long addr, unsigned long sz)
{
	pgd_t *pgd = pgd_offset(mm, addr);
	p4d_t *p4d;
	pud_t *pud;

	if (!pgd_present(*pgd))
		return NULL;
	p4d = p4d_offset(pgd, addr);
	if (!p4d_present(*p4d))
		return NULL;
	pud = pud_offset(p4d, addr);
	if (sz == PUD_SIZE)
		return (pte_t *)pud;
	if (!pud_present(*pud))
		return NULL;
	return (pte_t *)pmd_offset(pud, addr);
}

/*
 * walk_hugetlb_range() with smaps_hugetlb_range(). hugetlb_vma_lock_read(),
 * which 6.12's walk takes against the unsharing of a shared pmd table, is
 * not exported: the file's i_mmap_rwsem, which huge_pmd_unshare() needs for
 * writing, keeps it out instead.
 */
static void td_mem_walk_hugetlb(struct td_mss *m, struct vm_area_struct *vma,
				unsigned long start)
{
	struct address_space *mapping = vma->vm_file->f_mapping;
	struct hstate *h = hstate_vma(vma);
	unsigned long sz = huge_page_size(h);
	struct mm_struct *mm = vma->vm_mm;
	unsigned long addr;

	if (!m->nowait)
		i_mmap_lock_read(mapping);
	else if (!i_mmap_trylock_read(mapping))
		goto busy;
	for (addr = start; addr < vma->vm_end; addr += sz) {
		pte_t *ptep = td_mem_huge_pte(mm, addr & huge_page_mask(h), sz);
		struct folio *folio = NULL;
		bool present = false;
		spinlock_t *ptl;	/* the page table's lock */
		pte_t pte;

		/*
		 * A 1 TiB mapping of 2 MiB pages is half a million steps, with
		 * page tables or not (an unbacked MAP_NORESERVE one of any size
		 * has none).
		 */
		if (!(addr & (512 * sz - 1))) {
			cond_resched();
			if (td_mem_late_now(m))
				break;
		}
		if (!ptep)
			continue;
		ptl = huge_pte_lock(h, mm, ptep);
		pte = td_huge_ptep_get(mm, addr, ptep);
		if (pte_present(pte)) {
			folio = page_folio(pte_page(pte));
			present = true;
		} else if (!pte_none(pte)) {
			swp_entry_t ent = td_pte_leaf(pte);

			if (td_leaf_has_pfn(ent))
				folio = page_folio(td_leaf_to_page(ent));
		}
		if (folio) {
			if (td_hugetlb_shared(folio, present, ptep))
				m->shared_hugetlb += sz;
			else
				m->private_hugetlb += sz;
		}
		spin_unlock(ptl);
	}
	i_mmap_unlock_read(mapping);
	return;
busy:
	m->busy = true;
}

/*
 * The swap of the shmem object @vma maps, as smap_gather_stats() counts it:
 * shmem_swap_usage() for a shared or read-only mapping walked from its
 * start (@start is vm_start), or when nothing is swapped; else (a private writable mapping,
 * whose copied pages hide the object's, or a walk resumed inside the VMA)
 * smaps adds shmem_partial_swap_usage() of the page walk's holes, which is
 * not done here: the sum is marked inexact (@shmem_swapped). Neither
 * function is exported: a module marks it inexact whenever the object has
 * swapped pages.
 */
static void td_mem_shmem_swap(struct td_mss *m, struct vm_area_struct *vma,
			      unsigned long start)
{
#ifdef MODULE
	if (READ_ONCE(SHMEM_I(vma->vm_file->f_mapping->host)->swapped))
		m->shmem_swapped = true;
#else
	unsigned long swapped = shmem_swap_usage(vma);

	if (!swapped)
		return;
	if (start == vma->vm_start && ((vma->vm_flags & VM_SHARED) || !(vma->vm_flags & VM_WRITE)))
		m->swap += swapped;
	else
		m->shmem_swapped = true;
#endif
}

/* smap_gather_stats() for one VMA, from @start on. */
static void td_mem_vma(struct td_mss *m, struct vm_area_struct *vma, unsigned long start)
{
	struct address_space *mapping = vma->vm_file ? vma->vm_file->f_mapping : NULL;

	if (mapping && td_mapping_is_shmem(mapping))
		td_mem_shmem_swap(m, vma, start);
	/* walk_page_test(): no struct pages behind a VM_PFNMAP VMA. */
	if (vma->vm_flags & VM_PFNMAP)
		return;
	if (is_vm_hugetlb_page(vma))
		td_mem_walk_hugetlb(m, vma, start);
	else
		td_mem_walk_vma(m, vma, start);
}

/*
 * The walk of show_smaps_rollup(), which also lets a writer waiting for the
 * mmap lock (mmap(), munmap(), mprotect()) have it between two VMAs, so that
 * the walk of a large process does not stall it: the walk then resumes from
 * the end of the last VMA it walked, in the VMA that covers that address
 * or else the next one (a VMA that grew over it is walked from there on).
 * The lock is taken with td_mmap_read_lock(), so not waited for under
 * cb_lock. Return 0, -EINTR or -EAGAIN (busy).
 */
static int td_mem_gather(struct td_mss *m, struct mm_struct *mm, const struct td_view *v)
{
	struct vm_area_struct *vma;
	unsigned long done = 0;
	int err;

	VMA_ITERATOR(vmi, mm, 0);

	m->nowait = v->nowait;
	m->deadline = v->deadline;
	err = td_mmap_read_lock(v, mm);
	if (err)
		return err;
	for_each_vma(vmi, vma) {
		td_mem_vma(m, vma, max(vma->vm_start, done));
		if (m->busy || td_mem_late_now(m)) {
			mmap_read_unlock(mm);
			return -EAGAIN;
		}
		done = vma->vm_end;
		if (mmap_lock_is_contended(mm)) {
			mmap_read_unlock(mm);
			err = td_mmap_read_lock(v, mm);
			if (err)
				return err;
			vma_iter_init(&vmi, mm, done);
		}
		cond_resched();
	}
	mmap_read_unlock(mm);
	return 0;
}

/* A proportional sum as smaps_rollup prints it: whole KiB, rounded down. */
static u64 td_mem_pss(u64 v)
{
	return (v >> TD_PSS_SHIFT) & ~(u64)(SZ_1K - 1);
}

/**
 * td_mem_fill() - reserve the mem struct of one task
 * @skb: the message
 * @ctx: the task
 *
 * As smaps_rollup: no mm (kernel thread, zombie), or a party that fails the
 * ptrace read check with which its open (proc_mem_open(), mm_access())
 * refuses it: the group is left out. Called with exec_update_lock held
 * (TD_SHOW_EXEC_LOCKED), so the check and the mm belong to one program, as
 * mm_access() holds it; the walk itself is td_mem_late()'s, after the lock
 * is released, as smaps_rollup walks an mm it opened earlier. A sender
 * that shares the mm (a vfork child) passes, as mm_access() lets it.
 *
 * Return: 0, -ENOENT (left out) or -EMSGSIZE.
 */
static int td_mem_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct mm_struct *mm = td_task_mm(ctx);
	struct task_diag_mem *s;

	if (!mm || !td_may_access_mm(ctx, mm))
		return -ENOENT;
	s = td_reserve(skb, TASK_DIAG_A_TASK_MEM, struct task_diag_mem);
	if (!s)
		return -EMSGSIZE;
	ctx->st = s;
	return 0;
}

/**
 * td_mem_late() - walk the mm and fill the mem struct td_mem_fill() reserved
 * @skb: the message; @st's attribute is its last
 * @ctx: the task
 * @st: the struct
 *
 * Mask bits left clear where the sum cannot be exact: swap_pss after any
 * swap entry (swp_swapcount() is not exported; built in, it is called),
 * swap when a mapped shmem object has swapped pages (built in: only where
 * smaps walks the mapping's holes, td_mem_shmem_swap()). A busy mmap lock under cb_lock (td_busy())
 * takes the attribute out of @skb again.
 *
 * Context: process context, exec_update_lock not held; sleeps.
 * Return: 0, -ENOENT (left out), -EINTR or -EAGAIN (td_busy()).
 */
static int td_mem_late(struct sk_buff *skb, struct td_task_ctx *ctx, void *st)
{
	struct task_diag_mem *s = st;
	struct td_mss m = {};
	u64 mask;
	int err;

	err = td_mem_gather(&m, ctx->mm, ctx->view);
	if (err == -EAGAIN) {
		nlmsg_trim(skb, (u8 *)st - NLA_HDRLEN);
		return td_busy(ctx);
	}
	if (err)
		return err;
	mask = TD_F_UPTO(MEM, LOCKED);
	if (TD_MEM_HAS_KSM)
		mask |= TD_F(MEM, KSM);
	if (m.swap_seen)
		mask &= ~TD_F(MEM, SWAP_PSS);
	if (m.shmem_swapped)
		mask &= ~TD_F(MEM, SWAP);
	s->rss = m.resident;
	s->pss = td_mem_pss(m.pss);
	s->pss_dirty = td_mem_pss(m.pss_dirty);
	s->pss_anon = td_mem_pss(m.pss_anon);
	s->pss_file = td_mem_pss(m.pss_file);
	s->pss_shmem = td_mem_pss(m.pss_shmem);
	s->shared_clean = m.shared_clean;
	s->shared_dirty = m.shared_dirty;
	s->private_clean = m.private_clean;
	s->private_dirty = m.private_dirty;
	s->referenced = m.referenced;
	s->anonymous = m.anonymous;
	s->lazyfree = m.lazyfree;
	s->anon_huge_pages = m.anonymous_thp;
	s->shmem_pmd_mapped = m.shmem_thp;
	s->file_pmd_mapped = m.file_thp;
	s->shared_hugetlb = m.shared_hugetlb;
	s->private_hugetlb = m.private_hugetlb;
	s->swap = mask & TD_F(MEM, SWAP) ? m.swap : 0;
	s->swap_pss = td_mem_pss(m.swap_pss);	/* 0 from a module: see above */
	s->locked = td_mem_pss(m.pss_locked);
	s->ksm = m.ksm;
	s->mask = mask;
	return 0;
}

static size_t td_mem_msg_size(void)
{
	return td_struct_msg_size(struct task_diag_mem);
}

const struct td_group td_mem_group = {
	.show = TASK_DIAG_SHOW_MEM,
	.fill = td_mem_fill,
	.late = td_mem_late,
	.msg_size = td_mem_msg_size,
};
