// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the VMA dump (TASK_DIAG_CMD_GET_VMA), what /proc/PID/maps
 * shows, as binary records.
 *
 * Processes are walked in ascending pid order of the requester's pid
 * namespace, the VMAs of each in ascending address order. The cursor is a
 * key, (pid, the end of the last VMA written), never a position, so a dump
 * resumed in the next recvmsg() finds its place in O(log n) whatever
 * changed in between (the lesson of the 2005 /proc/PID/maps speed-up).
 * A process's mmap lock is held while one skb is filled, never across
 * dump calls, and dropped every TD_VMA_PER_LOCK VMAs visited (see
 * td_vma_lock_break()); no task or mm reference outlives the call that
 * took it.
 *
 * The address query (a request with TASK_DIAG_A_VMA_ADDRS) is a mode of
 * the same dump: for each address, in the request's order, the VMA
 * covering it or else the first one above it that passes the filter
 * (PROCMAP_QUERY_COVERING_OR_NEXT_VMA), or a no-vma answer. Its cursor is
 * the index of the next address to answer.
 */
#include <linux/dcache.h>
#include <linux/elf.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/magic.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/path.h>
#include <linux/pid_namespace.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include <linux/task_diag.h>
#include "task_diag.h"

/*
 * The smallest skb a VMA dump fills: one message with the largest entry
 * (a PATH_MAX name) must fit an empty one.
 */
#define TD_VMA_MIN_ALLOC (8 * 1024)

/*
 * VMAs visited under one hold of a process's mmap lock. A filtered walk
 * may skip up to max_map_count VMAs without writing one, so the number of
 * VMAs written bounds nothing: the walk counts the VMAs it visits and
 * after this many drops the lock, reschedules and resumes from the end of
 * the last VMA visited, as a read of maps resumes by address (writers to
 * the mm, mmap() and munmap(), wait at most this long for the lock).
 */
#define TD_VMA_PER_LOCK 1024

/* The most addresses an address query takes (the policy's 16384 bytes). */
#define TD_VMA_MAX_ADDRS (16384 / sizeof(u64))

/*
 * Names of mapped files, cached for one dump call: a library's text, data
 * and relro VMAs, and every process's mappings of the same libraries, name
 * the same path (dentry and mount), and d_path() is most of the cost of a
 * file-backed VMA. Each slot holds a reference on its path, put at the end
 * of the call, outside the mmap lock; a name is thus never older than the
 * dump call that sends it (a rename or unlink shows in the next one, as in
 * the next read() of maps). When the slots are full, names are computed
 * each time.
 */
#define TD_VMA_SLOTS 16

/* The longest build id (the kernel's BUILD_ID_SIZE_MAX, a SHA-1). */
#define TD_BID_MAX 20
/* td_vma_slot::bid_len of a build id not looked for yet. */
#define TD_BID_UNKNOWN (-2)

/**
 * struct td_vma_slot - one cached name, and the file's build id
 * @path: the mapped file's path (referenced)
 * @len: the length of its name, or -1 if maps prints none (d_path() failed
 *       or the escaped name is too long)
 * @bid_len: the length of @bid, -1 if the file has none (or it could not be
 *           read), TD_BID_UNKNOWN if not looked for yet
 * @bid: the build id
 */
struct td_vma_slot {
	struct path path;
	int len;
	int bid_len;
	u8 bid[TD_BID_MAX];
};

/**
 * struct td_vma_dump - the cursor of a VMA dump, allocated by
 * td_vma_dump_start(); netlink_callback::ctx holds its address
 * @subj: the requester; NULL if the request was refused
 * @target: the process of scope task (its thread-group pid), referenced
 * @thread: the task the request's pid names (a thread of @target, or its
 *          leader), referenced: its mm is read, as /proc/TID/maps reads it
 * @addrs: the addresses of an address query
 * @naddrs: how many (0: not a query but a dump)
 * @next_q: the index in @addrs of the next address to answer
 * @err_msg: extack text of a refused request
 * @path: a PATH_MAX buffer for d_path()
 * @esc: a PATH_MAX buffer for the escaped path
 * @slot: the names of the mapped files met in this dump call (see
 *        td_vma_file_name()), @nslots of them
 * @names: TD_VMA_SLOTS buffers of PATH_MAX bytes, one per slot
 * @nslots: slots in use
 * @last: the slot that answered last
 * @anon: the [anon:NAME] and [anon_shmem:NAME] names
 * @start: the request's range: VMAs that end above it...
 * @end: ...and begin below it
 * @next_addr: where the next VMA of process @next_nr is looked for: the end
 *             of the last one written (0 for a process not begun)
 * @next_nr: the smallest pid not yet completely written
 * @cur_nr: the pid of the process @next_addr belongs to...
 * @cur_start: ...and its start time: when that process is gone (exited, or
 *             its pid reused) by the next call, the next one begins at 0
 * @cur_exec: ...and its self_exec_id, read under its exec_update_lock: when
 *            it has execve()d by the next call, its listing ends there
 * @filter: TASK_DIAG_VMA_FILTER_* bits
 * @scope: TASK_DIAG_SCOPE_ALL_PROCESSES or TASK_DIAG_SCOPE_TASK
 * @err: the error td_vma_dump_start() found in the request, or 0
 * @with_bid: the request asked for build ids (with-build-id)
 * @view: the parties of this call (td_vma_dumpit()'s)
 * @started: the first call was made: it runs under genetlink's cb_lock
 *           and writes no process (td_dump_header())
 * @bid: the build id of a file no slot holds
 */
struct td_vma_dump {
	struct td_subject *subj;
	struct pid *target;
	struct pid *thread;
	unsigned long *addrs;
	unsigned int naddrs;
	unsigned int next_q;
	const char *err_msg;
	char *path;
	char *esc;
	struct td_vma_slot slot[TD_VMA_SLOTS];
	char *names;
	unsigned int nslots;
	unsigned int last;
	char anon[128];
	unsigned long start;
	unsigned long end;
	unsigned long next_addr;
	u32 next_nr;
	u32 cur_nr;
	u64 cur_start;
	u64 cur_exec;
	u32 filter;
	u32 scope;
	int err;
	bool with_bid;
	bool started;
	const struct td_view *view;
	u8 bid[TD_BID_MAX];
};

static struct td_vma_dump **td_vma_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct td_vma_dump *) > sizeof(cb->ctx));
	return (struct td_vma_dump **)cb->ctx;
}

/* Entries reuse td_reserve(), which pads with the task set's pad type. */
static_assert((int)TASK_DIAG_A_VMA_ENTRY_PAD == (int)TASK_DIAG_A_TASK_PAD);

/*
 * vm_flags -> struct vma's flags, a byte at a time: td_vma_flag_map[i][b]
 * is the ABI's bits for the VM_* bits b of byte i (those smaps shows a
 * mnemonic for), filled once by td_vma_init(). Eight loads per VMA.
 */
static u64 td_vma_flag_map[sizeof(unsigned long)][256] __ro_after_init;

/*
 * The VM_* flags the running kernel's show_smap_vma_flags() prints a
 * mnemonic for, under the same conditions, and their ABI bits. 6.12 (not
 * 6.1) prints lf (VM_LOCKONFAULT), ss (VM_SHADOW_STACK, 6.6), dp
 * (VM_DROPPABLE, 6.11) and sl (VM_SEALED, 6.10); 7.2 gu (VM_MAYBE_GUARD),
 * 7.3 ur (VM_UFFD_RWP, with CONFIG_USERFAULTFD_RWP), as procfs does.
 */
struct td_vma_flag_row {
	unsigned long vm;
	u8 abi;
};

static const struct td_vma_flag_row td_vma_flag_rows[] __initconst = {
	{ VM_READ, TASK_DIAG_VMA_FLAG_READ },
	{ VM_WRITE, TASK_DIAG_VMA_FLAG_WRITE },
	{ VM_EXEC, TASK_DIAG_VMA_FLAG_EXEC },
	{ VM_SHARED, TASK_DIAG_VMA_FLAG_SHARED },
	{ VM_MAYREAD, TASK_DIAG_VMA_FLAG_MAYREAD },
	{ VM_MAYWRITE, TASK_DIAG_VMA_FLAG_MAYWRITE },
	{ VM_MAYEXEC, TASK_DIAG_VMA_FLAG_MAYEXEC },
	{ VM_MAYSHARE, TASK_DIAG_VMA_FLAG_MAYSHARE },
	{ VM_GROWSDOWN, TASK_DIAG_VMA_FLAG_GROWSDOWN },
	{ VM_PFNMAP, TASK_DIAG_VMA_FLAG_PFNMAP },
	{ VM_LOCKED, TASK_DIAG_VMA_FLAG_LOCKED },
	{ VM_IO, TASK_DIAG_VMA_FLAG_IO },
	{ VM_SEQ_READ, TASK_DIAG_VMA_FLAG_SEQ_READ },
	{ VM_RAND_READ, TASK_DIAG_VMA_FLAG_RAND_READ },
	{ VM_DONTCOPY, TASK_DIAG_VMA_FLAG_DONTCOPY },
	{ VM_DONTEXPAND, TASK_DIAG_VMA_FLAG_DONTEXPAND },
	{ VM_ACCOUNT, TASK_DIAG_VMA_FLAG_ACCOUNT },
	{ VM_NORESERVE, TASK_DIAG_VMA_FLAG_NORESERVE },
	{ VM_HUGETLB, TASK_DIAG_VMA_FLAG_HUGETLB },
	{ VM_SYNC, TASK_DIAG_VMA_FLAG_SYNC },
	{ VM_ARCH_1, TASK_DIAG_VMA_FLAG_ARCH_1 },
	{ VM_WIPEONFORK, TASK_DIAG_VMA_FLAG_WIPEONFORK },
	{ VM_DONTDUMP, TASK_DIAG_VMA_FLAG_DONTDUMP },
	{ VM_MIXEDMAP, TASK_DIAG_VMA_FLAG_MIXEDMAP },
	{ VM_HUGEPAGE, TASK_DIAG_VMA_FLAG_HUGEPAGE },
	{ VM_NOHUGEPAGE, TASK_DIAG_VMA_FLAG_NOHUGEPAGE },
	{ VM_MERGEABLE, TASK_DIAG_VMA_FLAG_MERGEABLE },
	{ VM_UFFD_MISSING, TASK_DIAG_VMA_FLAG_UFFD_MISSING },
	{ VM_UFFD_WP, TASK_DIAG_VMA_FLAG_UFFD_WP },
#ifdef CONFIG_MEM_SOFT_DIRTY
	{ VM_SOFTDIRTY, TASK_DIAG_VMA_FLAG_SOFTDIRTY },
#endif
#ifdef CONFIG_HAVE_ARCH_USERFAULTFD_MINOR
	{ VM_UFFD_MINOR, TASK_DIAG_VMA_FLAG_UFFD_MINOR },
#endif
#ifdef CONFIG_X86_USER_SHADOW_STACK
	{ VM_SHADOW_STACK, TASK_DIAG_VMA_FLAG_SHADOW_STACK },
#endif
#ifdef HAVE_SMAPS_LF
	{ VM_LOCKONFAULT, TASK_DIAG_VMA_FLAG_LOCKONFAULT },
	{ VM_DROPPABLE, TASK_DIAG_VMA_FLAG_DROPPABLE },
	{ VM_SEALED, TASK_DIAG_VMA_FLAG_SEALED },
#endif
#ifdef VM_MAYBE_GUARD
	{ VM_MAYBE_GUARD, TASK_DIAG_VMA_FLAG_MAYBE_GUARD },
#endif
#ifdef CONFIG_USERFAULTFD_RWP
	{ VM_UFFD_RWP, TASK_DIAG_VMA_FLAG_UFFD_RWP },
#endif
};

/**
 * td_vma_init() - fill the flag translation table; called at module load
 */
void __init td_vma_init(void)
{
	unsigned int i, b, r;

	for (i = 0; i < sizeof(unsigned long); i++)
		for (b = 0; b < 256; b++)
			for (r = 0; r < ARRAY_SIZE(td_vma_flag_rows); r++)
				if ((unsigned long)b << (8 * i) & td_vma_flag_rows[r].vm)
					td_vma_flag_map[i][b] |= BIT_ULL(td_vma_flag_rows[r].abi);
}

static u64 td_vma_flags(unsigned long vm_flags)
{
	u64 out = 0;
	unsigned int i;

	for (i = 0; i < sizeof(vm_flags); i++)
		out |= td_vma_flag_map[i][(vm_flags >> (8 * i)) & 0xff];
	return out;
}

/*
 * The path of @file as maps prints it: d_path() (" (deleted)" and the
 * names of pseudo files included), each "\n" written as "\012" as
 * seq_file_path(m, file, "\n") escapes it. NULL if it does not fit.
 */
static const char *td_vma_path(struct td_vma_dump *d, struct file *file)
{
	const char *p = d_path(td_file_user_path(file), d->path, PATH_MAX);
	char *o;

	if (IS_ERR(p))
		return NULL;
	if (!strchr(p, '\n'))
		return p;
	for (o = d->esc; *p; p++) {
		if (o + 4 >= d->esc + PATH_MAX)
			return NULL;
		if (*p == '\n') {
			memcpy(o, "\\012", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return d->esc;
}

/* Drop the cached names: at the end of each dump call, with no lock held. */
static void td_vma_name_forget(struct td_vma_dump *d)
{
	while (d->nslots)
		path_put(&d->slot[--d->nslots].path);
	d->last = 0;
}

/*
 * The slot of a mapped file, found or filled (its name computed); NULL
 * when the file has none and every slot is taken.
 */
static struct td_vma_slot *td_vma_slot(struct td_vma_dump *d, struct file *file)
{
	const struct path *p = td_file_user_path(file);
	struct td_vma_slot *s;
	const char *name;
	unsigned int i;

	for (i = 0; i < d->nslots; i++) {
		unsigned int j = (d->last + i) % d->nslots;

		s = &d->slot[j];
		if (s->path.dentry == p->dentry && s->path.mnt == p->mnt) {
			d->last = j;
			return s;
		}
	}
	if (d->nslots == TD_VMA_SLOTS)
		return NULL;
	s = &d->slot[d->nslots];
	name = td_vma_path(d, file);
	s->len = name ? strlen(name) : -1;
	if (name)
		memcpy(d->names + d->nslots * PATH_MAX, name, s->len + 1);
	s->path = *p;
	path_get(&s->path);
	s->bid_len = TD_BID_UNKNOWN;
	d->last = d->nslots++;
	return s;
}

/* The name of a mapped file, from the slots or d_path(); NULL for none. */
static const char *td_vma_file_name(struct td_vma_dump *d, struct file *file, int *len)
{
	struct td_vma_slot *s = td_vma_slot(d, file);
	const char *name;

	if (s) {
		*len = s->len;
		return s->len < 0 ? NULL : d->names + (s - d->slot) * PATH_MAX;
	}
	name = td_vma_path(d, file);
	*len = name ? strlen(name) : -1;
	return name;
}

/*
 * Build ids. The ELF format (its header, program headers and notes) is
 * read from the file's page cache only: the mmap read lock of the process
 * is held, and a read that waits for I/O there would hold up every writer
 * to its mm (and could wait on a file system served by the process
 * itself). A page not cached makes the build id absent, as 6.1's
 * build_id_parse() does.
 */
/* Program headers looked at, as build_id_parse() bounds them. */
#define TD_BID_MAX_PHDRS 256
/* The GNU note type of a build id (elf.h's NT_GNU_BUILD_ID). */
#define TD_NT_GNU_BUILD_ID 3
/* Bytes of one PT_NOTE segment scanned for the build-id note. */
#define TD_BID_MAX_NOTES (16 * 1024)
/*
 * Page-cache lookups one file's parse may make: every program header
 * (TD_BID_MAX_PHDRS) and 128 notes. A real ELF file needs a dozen; a file
 * crafted with 256 note segments of 16 KiB of tiny notes would need
 * 350,000, under the mmap lock of the process that maps it.
 */
#define TD_BID_BUDGET (TD_BID_MAX_PHDRS + 128)

/*
 * Copy @len bytes at @pos of @file (of size @size) from its page cache to
 * @buf, one lookup of @budget's per page. Return 0, or -ENODATA if they
 * are not all within the file and cached, or the budget is spent. Never
 * sleeps.
 */
static int td_bid_read(struct file *file, u64 size, u64 pos, void *buf, size_t len,
		       unsigned int *budget)
{
	u8 *dst = buf;

	if (pos > size || len > size - pos)
		return -ENODATA;
	while (len) {
		pgoff_t index = pos >> PAGE_SHIFT;
		size_t in = offset_in_page(pos), n = min_t(size_t, len, PAGE_SIZE - in);
		struct folio *folio;
		void *kaddr;

		if (!*budget)
			return -ENODATA;
		--*budget;
		folio = td_filemap_get_folio(file->f_mapping, index);
		if (!folio)
			return -ENODATA;
		if (!folio_test_uptodate(folio)) {
			folio_put(folio);
			return -ENODATA;
		}
		kaddr = kmap_local_page(folio_file_page(folio, index));
		memcpy(dst, kaddr + in, n);
		kunmap_local(kaddr);
		folio_put(folio);
		dst += n;
		pos += n;
		len -= n;
	}
	return 0;
}

/*
 * The GNU build-id note among the notes of the segment at @off, @len bytes
 * long: its length, copied to @bid, or a negative errno.
 */
static int td_bid_notes(struct file *file, u64 size, u64 off, u64 len, u8 *bid,
			unsigned int *budget)
{
	/* Elf32_Nhdr and Elf64_Nhdr are the same three u32. */
	struct {
		Elf32_Nhdr h;
		char name[4];
	} n;
	u64 end;

	if (check_add_overflow(off, min_t(u64, len, TD_BID_MAX_NOTES), &end))
		return -EINVAL;
	while (end - off >= sizeof(n.h)) {
		u64 desc;

		if (td_bid_read(file, size, off, &n.h, sizeof(n.h), budget))
			return -ENODATA;
		desc = off + sizeof(n.h) + ALIGN((u64)n.h.n_namesz, 4);
		if (n.h.n_type == TD_NT_GNU_BUILD_ID && n.h.n_namesz == sizeof(n.name) &&
		    n.h.n_descsz >= 1 && n.h.n_descsz <= TD_BID_MAX &&
		    desc + n.h.n_descsz <= end) {
			if (td_bid_read(file, size, off + sizeof(n.h), n.name, sizeof(n.name),
					budget))
				return -ENODATA;
			if (!memcmp(n.name, "GNU", sizeof(n.name))) {
				if (td_bid_read(file, size, desc, bid, n.h.n_descsz, budget))
					return -ENODATA;
				return n.h.n_descsz;
			}
		}
		off = desc + ALIGN((u64)n.h.n_descsz, 4);
		if (off >= end)
			break;
	}
	return -ENOENT;
}

/*
 * The build id of @file: its length, copied to @bid, or a negative errno
 * (-ENODATA also when TD_BID_BUDGET page-cache lookups did not find it).
 */
static int td_bid_parse(struct file *file, u8 *bid)
{
	unsigned int budget = TD_BID_BUDGET;
	struct inode *inode = file_inode(file);
	union {
		Elf32_Ehdr e32;
		Elf64_Ehdr e64;
	} eh;
	union {
		Elf32_Phdr p32;
		Elf64_Phdr p64;
	} ph;
	u64 size, phoff, off, len;
	unsigned int i, phnum, phsz;
	bool is64;
	int ret;

	/*
	 * memfd_secret() pages are out of the kernel's direct map; hugetlbfs
	 * indexes its page cache in huge pages, not in PAGE_SIZE ones.
	 */
	if (!S_ISREG(inode->i_mode) || inode->i_sb->s_magic == SECRETMEM_MAGIC ||
	    inode->i_sb->s_magic == HUGETLBFS_MAGIC)
		return -ENOENT;
	size = i_size_read(inode);
	if (td_bid_read(file, size, 0, &eh.e32, sizeof(eh.e32), &budget))
		return -ENODATA;
	if (memcmp(eh.e32.e_ident, ELFMAG, SELFMAG) ||
	    (eh.e32.e_type != ET_EXEC && eh.e32.e_type != ET_DYN))
		return -ENOENT;
	switch (eh.e32.e_ident[EI_CLASS]) {
	case ELFCLASS64:
		if (td_bid_read(file, size, 0, &eh.e64, sizeof(eh.e64), &budget))
			return -ENODATA;
		is64 = true;
		phoff = eh.e64.e_phoff;
		phnum = eh.e64.e_phnum;
		phsz = sizeof(ph.p64);
		break;
	case ELFCLASS32:
		is64 = false;
		phoff = eh.e32.e_phoff;
		phnum = eh.e32.e_phnum;
		phsz = sizeof(ph.p32);
		break;
	default:
		return -ENOENT;
	}
	if (phoff > size)
		return -ENOENT;
	phnum = min_t(unsigned int, phnum, TD_BID_MAX_PHDRS);
	for (i = 0; i < phnum; i++) {
		if (td_bid_read(file, size, phoff + (u64)i * phsz, &ph, phsz, &budget))
			return -ENODATA;
		if ((is64 ? ph.p64.p_type : ph.p32.p_type) != PT_NOTE)
			continue;
		off = is64 ? ph.p64.p_offset : ph.p32.p_offset;
		len = is64 ? ph.p64.p_filesz : ph.p32.p_filesz;
		ret = td_bid_notes(file, size, off, len, bid, &budget);
		if (ret > 0)
			return ret;
	}
	return -ENOENT;
}

/* Put the build id of @file, from its slot or parsed now; 0 or -EMSGSIZE. */
static int td_vma_put_bid(struct sk_buff *skb, struct td_vma_dump *d, struct file *file)
{
	struct td_vma_slot *s = td_vma_slot(d, file);
	const u8 *bid = d->bid;
	int len;

	if (s) {
		if (s->bid_len == TD_BID_UNKNOWN)
			s->bid_len = max(td_bid_parse(file, s->bid), -1);
		len = s->bid_len;
		bid = s->bid;
	} else {
		/* Past the slots a file is parsed at each of its VMAs: budgeted. */
		len = td_bid_parse(file, d->bid);
	}
	/* Under the mmap read lock, which may be held while sleeping. */
	cond_resched();
	if (len <= 0)
		return 0;
	return nla_put(skb, TASK_DIAG_A_VMA_ENTRY_BUILD_ID, len, bid);
}

/*
 * The name show_map_vma() prints for @vma, or NULL if it prints none.
 * Called under the mmap read lock.
 */
static const char *td_vma_name(struct td_vma_dump *d, struct vm_area_struct *vma, int *len)
{
	const char *name, *anon = td_vma_anon_name(vma);

	*len = -1;
	if (vma->vm_file) {
		if (anon) {
			snprintf(d->anon, sizeof(d->anon), "[anon_shmem:%s]", anon);
			return d->anon;
		}
		return td_vma_file_name(d, vma->vm_file, len);
	}
	if (vma->vm_ops && vma->vm_ops->name) {
		name = vma->vm_ops->name(vma);
		if (name)
			return name;
	}
	if (td_vma_is_heap(vma))
		return "[heap]";
	if (td_vma_is_stack(vma))
		return "[stack]";
	if (anon) {
		snprintf(d->anon, sizeof(d->anon), "[anon:%s]", anon);
		return d->anon;
	}
	return NULL;
}

/*
 * Write one VMA's entry; in an address query's reply (@qaddr not NULL) the
 * answer for *@qaddr: query-addr, then @vma's attributes, or no-vma if
 * @vma is NULL. Return 0 or -EMSGSIZE (nothing of it left then).
 */
static int td_vma_put(struct sk_buff *skb, struct td_vma_dump *d, struct vm_area_struct *vma,
		      const unsigned long *qaddr)
{
	struct nlattr *nest = (struct nlattr *)skb_tail_pointer(skb);
	struct task_diag_vma *st;
	const char *name;
	int len;

	if (!td_attr_reserve(skb, TASK_DIAG_A_VMA_ENTRY | NLA_F_NESTED, 0))
		return -EMSGSIZE;
	if (qaddr) {
		if (nla_put_u64_64bit(skb, TASK_DIAG_A_VMA_ENTRY_QUERY_ADDR, *qaddr,
				      TASK_DIAG_A_VMA_ENTRY_PAD))
			goto err_trim;
		if (!vma) {
			if (nla_put_flag(skb, TASK_DIAG_A_VMA_ENTRY_NO_VMA))
				goto err_trim;
			goto out;
		}
	}
	/*
	 * Every member is written below (the struct has no __reserved), so
	 * the payload needs no memset; without efficient unaligned access it
	 * goes through td_reserve() for its 8-byte alignment.
	 */
#ifdef CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS
	st = td_attr_reserve(skb, TASK_DIAG_A_VMA_ENTRY_VMA, sizeof(*st));
#else
	st = td_reserve(skb, TASK_DIAG_A_VMA_ENTRY_VMA, struct task_diag_vma);
#endif
	if (!st)
		goto err_trim;
	BUILD_BUG_ON(sizeof(*st) != 56);
	st->mask = TD_F_UPTO(VMA, DEV_MINOR);
	st->start = vma->vm_start;
	st->end = vma->vm_end;
	st->flags = td_vma_flags(vma->vm_flags);
	if (vma->vm_file) {
		const struct inode *inode = td_file_user_inode(vma->vm_file);

		st->offset = (u64)vma->vm_pgoff << PAGE_SHIFT;
		st->inode = inode->i_ino;
		st->dev_major = MAJOR(inode->i_sb->s_dev);
		st->dev_minor = MINOR(inode->i_sb->s_dev);
	} else {
		st->offset = 0;
		st->inode = 0;
		st->dev_major = 0;
		st->dev_minor = 0;
	}
	name = td_vma_name(d, vma, &len);
	if (name) {
		char *dst;

		if (len < 0)
			len = strnlen(name, PATH_MAX - 1);
		dst = td_attr_reserve(skb, TASK_DIAG_A_VMA_ENTRY_NAME, len + 1);
		if (!dst)
			goto err_trim;
		memcpy(dst, name, len);
		dst[len] = '\0';
	}
	if (d->with_bid && vma->vm_file && td_vma_put_bid(skb, d, vma->vm_file))
		goto err_trim;
out:
	nest->nla_len = skb_tail_pointer(skb) - (unsigned char *)nest;
	return 0;

err_trim:
	nlmsg_trim(skb, nest);
	return -EMSGSIZE;
}

static bool td_vma_wanted(const struct td_vma_dump *d, const struct vm_area_struct *vma)
{
	if ((d->filter & TASK_DIAG_VMA_FILTER_FILE_BACKED) && !vma->vm_file)
		return false;
	if ((d->filter & TASK_DIAG_VMA_FILTER_EXEC) && !(vma->vm_flags & VM_EXEC))
		return false;
	return true;
}

/*
 * Count one VMA visited under @mm's mmap read lock; after TD_VMA_PER_LOCK
 * of them drop the lock, reschedule and take it again (the bound on the
 * work per lock hold, see TD_VMA_PER_LOCK). Return 0 if the lock was kept,
 * 1 if it was dropped and is held again (every VMA pointer and iterator
 * of the caller is stale: it resumes by address), -EINTR if a fatal
 * signal came while waiting for it (it is not held then).
 */
static int td_vma_lock_break(struct mm_struct *mm, unsigned int *visited)
{
	if (++*visited < TD_VMA_PER_LOCK)
		return 0;
	*visited = 0;
	mmap_read_unlock(mm);
	cond_resched();
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	return 1;
}

/* @mm's mmap read lock, or -EINTR. */
static int td_vma_lock(const struct td_vma_dump *d, struct mm_struct *mm)
{
	return td_mmap_read_lock(d->view, mm);
}

/* Begin a reply message for process @nr: NULL if the skb is full. */
static void *td_vma_msg_start(struct sk_buff *skb, pid_t nr, struct netlink_callback *cb)
{
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, &td_family,
				NLM_F_MULTI, TASK_DIAG_CMD_GET_VMA);

	if (hdr && td_put_u32(skb, TASK_DIAG_A_VMA_PID, nr)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

#ifndef MODULE
/*
 * The gate area (x86-64's [vsyscall], with vsyscall=emulate or xonly),
 * which maps lists after the last VMA: no VMA of the mm, so the walk does
 * not meet it (nor does an address query: PROCMAP_QUERY does not answer it
 * either). get_gate_vma() is not exported, so a module leaves it out.
 * Return 0 (written, or none to write) or -EMSGSIZE.
 */
static int td_vma_put_gate(struct sk_buff *skb, struct td_vma_dump *d, struct mm_struct *mm,
			   unsigned int *n)
{
	struct vm_area_struct *gate = get_gate_vma(mm);
	int err;

	if (!gate || gate->vm_end <= max(d->next_addr, d->start) || gate->vm_start >= d->end ||
	    !td_vma_wanted(d, gate))
		return 0;
	err = td_vma_put(skb, d, gate, NULL);
	if (err)
		return err;
	(*n)++;
	d->next_addr = gate->vm_end;
	return 0;
}
#endif

/*
 * Write the VMAs of @mm from d->next_addr on, one message for @nr, until
 * the skb is full. Return 0 when the process is done, -EMSGSIZE when the
 * skb filled first (d->next_addr says where to go on), -EINTR
 * (td_vma_lock()).
 */
static int td_vma_fill_mm(struct sk_buff *skb, struct td_vma_dump *d, struct mm_struct *mm,
			  pid_t nr, struct netlink_callback *cb)
{
	struct vm_area_struct *vma;
	unsigned int n = 0, visited = 0;
	int err, brk;
	void *hdr;

	err = td_vma_lock(d, mm);
	if (err)
		return err;
	hdr = td_vma_msg_start(skb, nr, cb);
	if (!hdr) {
		mmap_read_unlock(mm);
		return -EMSGSIZE;
	}
	do {
		VMA_ITERATOR(vmi, mm, max(d->next_addr, d->start));

		brk = 0;
		for_each_vma(vmi, vma) {
			if (vma->vm_start >= d->end)
				break;
			if (td_vma_wanted(d, vma)) {
				err = td_vma_put(skb, d, vma, NULL);
				if (err)
					break;
				n++;
			}
			d->next_addr = vma->vm_end;
			brk = td_vma_lock_break(mm, &visited);
			if (brk)
				break;
		}
	} while (brk > 0);
	if (brk < 0) {
		genlmsg_cancel(skb, hdr);
		return brk;
	}
#ifndef MODULE
	if (!err)
		err = td_vma_put_gate(skb, d, mm, &n);
#endif
	if (n)
		genlmsg_end(skb, hdr);
	else
		genlmsg_cancel(skb, hdr);
	mmap_read_unlock(mm);
	return err;
}

/*
 * The VMA covering @addr or else the first above it that passes the
 * filter, as PROCMAP_QUERY_COVERING_OR_NEXT_VMA finds it; NULL if there is
 * none. Called and returns under @mm's mmap read lock (dropped and taken
 * again on the way, see td_vma_lock_break()); ERR_PTR(-EINTR) with the
 * lock not held.
 */
static struct vm_area_struct *td_vma_find(struct td_vma_dump *d, struct mm_struct *mm,
					  unsigned long addr, unsigned int *visited)
{
	struct vm_area_struct *vma;
	int brk;

	while ((vma = find_vma(mm, addr))) {
		if (td_vma_wanted(d, vma))
			return vma;
		addr = vma->vm_end;
		brk = td_vma_lock_break(mm, visited);
		if (brk < 0)
			return ERR_PTR(brk);
	}
	return NULL;
}

/*
 * Answer the addresses of an address query from d->next_q on, one message
 * for @nr, until the skb is full; @mm NULL (no mm: a kernel thread, a
 * zombie) answers each with no-vma. Return 0 when every address is
 * answered, -EMSGSIZE when the skb filled first (d->next_q says where to
 * go on), -EINTR (td_vma_lock()).
 */
static int td_vma_query_mm(struct sk_buff *skb, struct td_vma_dump *d, struct mm_struct *mm,
			   pid_t nr, struct netlink_callback *cb)
{
	struct vm_area_struct *vma = NULL;
	unsigned int n = 0, visited = 0;
	int err = 0;
	void *hdr;

	if (mm) {
		err = td_vma_lock(d, mm);
		if (err)
			return err;
	}
	hdr = td_vma_msg_start(skb, nr, cb);
	if (!hdr) {
		err = -EMSGSIZE;
		goto out_unlock;
	}
	for (; d->next_q < d->naddrs; d->next_q++, n++) {
		const unsigned long *addr = &d->addrs[d->next_q];

		if (mm) {
			vma = td_vma_find(d, mm, *addr, &visited);
			if (IS_ERR(vma)) {
				err = PTR_ERR(vma);
				goto err_cancel;
			}
		}
		err = td_vma_put(skb, d, vma, addr);
		if (err)
			break;
		/* Each answer counts as a visit (a find_vma() each). */
		if (mm) {
			err = td_vma_lock_break(mm, &visited);
			if (err < 0)
				goto err_cancel;
			err = 0;
		}
	}
	if (n)
		genlmsg_end(skb, hdr);
	else
		genlmsg_cancel(skb, hdr);
out_unlock:
	if (mm)
		mmap_read_unlock(mm);
	return err;

err_cancel:
	/* A fatal signal: the lock is not held. */
	genlmsg_cancel(skb, hdr);
	return err;
}

/*
 * A process whose exec_update_lock is busy: an exec under way, which may
 * wait without bound (for the mmap lock of a vfork parent's mm that a
 * FUSE page fault holds). -ESRCH or -EACCES if the requester may not read
 * its maps now, as procfs decides hidepid= without the lock; 0 if it may,
 * and the lock is to be waited for. Only a refusal is taken from a check
 * made without the lock, the answer a read of the maps made just before
 * the exec began would have had: so another user's process stuck in exec
 * does not block this requester's dump.
 */
static int td_vma_refused_unlocked(struct td_task_ctx *ctx)
{
	struct mm_struct *mm = READ_ONCE(ctx->task->mm);
	int err = 0;

	switch (td_visibility(ctx)) {
	case TD_VIS_FULL:
		/*
		 * As under the lock: no mm (get_task_mm()'s NULL for a kernel
		 * thread too), no check. The mm is compared, not read: a vfork
		 * child of the sender's shares its mm.
		 */
		if (mm && !(ctx->task->flags & PF_KTHREAD) && !td_may_access_mm(ctx, mm))
			err = -EACCES;
		break;
	case TD_VIS_LISTED:
		err = -EACCES;
		break;
	case TD_VIS_HIDDEN:
		err = -ESRCH;
		break;
	}
	/* Answers made without the lock: asked again under it. */
	ctx->known = 0;
	ctx->ok = 0;
	return err;
}

/*
 * Write the VMAs of @task's process, number @nr, for the parties of @view.
 * As mm_access() for /proc/PID/maps: the permission check and the mm
 * belong to the same program (exec_update_lock). A process whose
 * exec_update_lock is busy may be refused without it
 * (td_vma_refused_unlocked()); every grant is made under it. Return 0
 * (done, or no mm), -EMSGSIZE (see td_vma_fill_mm()), -EACCES (a party may
 * not read the process's maps), -ESRCH (its /proc hides it), -EINTR,
 * -ESTALE (it execve()d since its listing began: the listing ends).
 */
static int td_vma_fill(struct sk_buff *skb, struct td_vma_dump *d, const struct td_view *view,
		       struct task_struct *task, pid_t nr, struct netlink_callback *cb)
{
	struct td_task_ctx ctx = {
		.subj = d->subj,
		.view = view,
		.task = task,
		.whole = true,
	};
	struct mm_struct *mm;
	int err = 0;

	if (!down_read_trylock(&task->signal->exec_update_lock)) {
		err = td_vma_refused_unlocked(&ctx);
		if (!err)
			err = td_down_read(view, &task->signal->exec_update_lock);
		if (err)
			return err;
	}
	/*
	 * A process that execve()d since its listing began: the new image is
	 * not joined to the old one's (an open maps reads on in the mm it was
	 * opened on, then ends); its listing ends where the old one's did.
	 * exec bumps the id under this lock, after exec_mmap(), so the id and
	 * the mm read below belong to the same image. Not for an address
	 * query, whose answers are each a lookup of their own.
	 */
	if (d->next_addr && !d->naddrs && READ_ONCE(task->self_exec_id) != d->cur_exec) {
		up_read(&task->signal->exec_update_lock);
		return -ESTALE;
	}
	d->cur_exec = READ_ONCE(task->self_exec_id);
	switch (td_visibility(&ctx)) {
	case TD_VIS_FULL:
		break;
	case TD_VIS_LISTED:
		/* hidepid=noaccess: /proc/PID/maps cannot be opened. */
		up_read(&task->signal->exec_update_lock);
		return -EACCES;
	case TD_VIS_HIDDEN:
		up_read(&task->signal->exec_update_lock);
		return -ESRCH;
	}
	mm = td_task_mm(&ctx);
	/* mm_access(): a sender that shares the mm (a vfork child) may read it. */
	if (mm && !td_may_access_mm(&ctx, mm))
		err = -EACCES;
	up_read(&task->signal->exec_update_lock);
	if (!err && d->naddrs)
		err = td_vma_query_mm(skb, d, mm, nr, cb);
	else if (mm && !err)
		err = td_vma_fill_mm(skb, d, mm, nr, cb);
	if (mm)
		mmput(mm);
	return err;
}

/*
 * The process with the smallest pid at least d->next_nr, referenced, with
 * d->next_nr set to its pid; NULL when the walk is over.
 */
static struct task_struct *td_vma_next_process(struct td_vma_dump *d)
{
	struct task_struct *task = NULL;
	unsigned int skipped = 0;
	struct pid *pid;

	if (d->scope == TASK_DIAG_SCOPE_TASK) {
		if (d->next_nr > (u32)pid_nr_ns(d->target, d->subj->ns))
			return NULL;
		rcu_read_lock();
		/* The task the pid names, as /proc/TID/maps reads its mm. */
		task = pid_task(d->thread, PIDTYPE_PID);
		if (task)
			get_task_struct(task);
		rcu_read_unlock();
		d->next_nr = pid_nr_ns(d->target, d->subj->ns);
		return task;
	}
	rcu_read_lock();
	for (;;) {
		pid = find_ge_pid(d->next_nr, d->subj->ns);
		if (!pid)
			break;
		d->next_nr = pid_nr_ns(pid, d->subj->ns);
		task = pid_task(pid, PIDTYPE_TGID);
		if (task) {
			get_task_struct(task);
			break;
		}
		d->next_nr++;
		if (++skipped % 1024 == 0) {
			rcu_read_unlock();
			cond_resched();
			rcu_read_lock();
		}
	}
	rcu_read_unlock();
	return task;
}

/* The addresses of an address query: checked and copied to d->addrs. */
static int td_vma_parse_addrs(struct td_vma_dump *d, struct nlattr **attrs,
			      struct netlink_ext_ack *extack)
{
	const struct nlattr *a = attrs[TASK_DIAG_A_VMA_ADDRS];
	unsigned int i, n;
	u64 v;

	if (nla_len(a) % sizeof(u64)) {
		NL_SET_ERR_MSG_ATTR(extack, a,
				    "addrs is an array of u64 (length a multiple of 8)");
		return -EINVAL;
	}
	if (d->scope != TASK_DIAG_SCOPE_TASK) {
		NL_SET_ERR_MSG_ATTR(extack, a, "an address query needs scope task and a pid");
		return -EINVAL;
	}
	if (attrs[TASK_DIAG_A_VMA_START] || attrs[TASK_DIAG_A_VMA_END]) {
		NL_SET_ERR_MSG_ATTR(extack, a, "an address query takes no start or end");
		return -EINVAL;
	}
	n = nla_len(a) / sizeof(u64);
	BUILD_BUG_ON(TD_VMA_MAX_ADDRS != 2048);
	/* The policy's range check already keeps n within 1..TD_VMA_MAX_ADDRS. */
	if (!n || n > TD_VMA_MAX_ADDRS) {
		NL_SET_ERR_MSG_ATTR(extack, a, "an address query takes 1 to 2048 addresses");
		return -ERANGE;
	}
	d->addrs = kvmalloc_array(n, sizeof(*d->addrs), GFP_KERNEL);
	if (!d->addrs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		/* The payload is only 4-byte aligned. */
		memcpy(&v, (const u8 *)nla_data(a) + i * sizeof(v), sizeof(v));
		if (v != (unsigned long)v) {
			NL_SET_ERR_MSG_ATTR(extack, a, "an address above ULONG_MAX");
			return -EINVAL;
		}
		d->addrs[i] = v;
	}
	d->naddrs = n;
	return 0;
}

static int td_vma_parse_req(struct td_vma_dump *d, struct nlattr **attrs,
			    struct netlink_ext_ack *extack)
{
	struct task_struct *task;
	struct pid *pid;
	u32 nr = 0;

	d->scope = TASK_DIAG_SCOPE_ALL_PROCESSES;
	if (attrs[TASK_DIAG_A_VMA_SCOPE])
		d->scope = nla_get_u32(attrs[TASK_DIAG_A_VMA_SCOPE]);
	if (attrs[TASK_DIAG_A_VMA_PID])
		nr = nla_get_u32(attrs[TASK_DIAG_A_VMA_PID]);
	if (attrs[TASK_DIAG_A_VMA_FILTER])
		d->filter = nla_get_u32(attrs[TASK_DIAG_A_VMA_FILTER]);
	d->with_bid = nla_get_flag(attrs[TASK_DIAG_A_VMA_WITH_BUILD_ID]);
	d->end = ULONG_MAX;
	if (attrs[TASK_DIAG_A_VMA_START])
		d->start = min_t(u64, nla_get_u64(attrs[TASK_DIAG_A_VMA_START]), ULONG_MAX);
	if (attrs[TASK_DIAG_A_VMA_END])
		d->end = min_t(u64, nla_get_u64(attrs[TASK_DIAG_A_VMA_END]), ULONG_MAX);
	if (attrs[TASK_DIAG_A_VMA_ADDRS]) {
		int err = td_vma_parse_addrs(d, attrs, extack);

		if (err)
			return err;
	}
	if (attrs[TASK_DIAG_A_VMA_END] && d->end <= d->start) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_VMA_END],
				    "the range's end must be above its start");
		return -EINVAL;
	}

	switch (d->scope) {
	case TASK_DIAG_SCOPE_ALL_PROCESSES:
		if (nr) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_VMA_PID],
					    "this scope takes no pid");
			return -EINVAL;
		}
		return 0;
	case TASK_DIAG_SCOPE_TASK:
		break;
	default:
		NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_VMA_SCOPE],
				    "get-vma takes scope all-processes or task");
		return -EINVAL;
	}
	if (!nr) {
		NL_SET_ERR_MSG(extack, "scope task needs the pid attribute");
		return -EINVAL;
	}
	rcu_read_lock();
	pid = find_pid_ns(nr, d->subj->ns);
	task = pid ? pid_task(pid, PIDTYPE_PID) : NULL;
	/*
	 * A thread's pid names its process (the reply's pid), and its own mm
	 * is read, as /proc/TID/maps reads it: the leader's may be gone.
	 */
	d->target = task ? get_pid(task_tgid(task)) : NULL;
	d->thread = task ? get_pid(pid) : NULL;
	rcu_read_unlock();
	if (d->target) {
		/* as /proc/TID: the hidepid= rules of the task whose maps is read */
		switch (td_target_visibility(d->subj, d->thread)) {
		case TD_VIS_FULL:
			return 0;
		case TD_VIS_LISTED:
			NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_VMA_PID],
					    "the hidepid= of /proc forbids access to this pid");
			return -EACCES;
		case TD_VIS_HIDDEN:
			break;
		}
	}
	NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_VMA_PID], "no such pid");
	return -ESRCH;
}

/**
 * td_vma_dump_start() - netlink ->start() of TASK_DIAG_CMD_GET_VMA
 * @cb: the dump
 *
 * Fixes the requester and checks the request; an error found is kept for
 * the first td_vma_dumpit() (see struct td_dump in main.c for why).
 *
 * Return: 0, or -ENOMEM.
 */
int td_vma_dump_start(struct netlink_callback *cb)
{
	struct nlattr **attrs = td_dump_attrs(cb);
	struct nlattr *task_attrs[TASK_DIAG_A_TASK_MAX + 1] = {};
	struct netlink_ext_ack ext = {};
	struct td_vma_dump *d;

#ifdef HAVE_KZALLOC_OBJ
	d = kzalloc_obj(*d);
#else
	d = kzalloc(sizeof(*d), GFP_KERNEL);
#endif
	if (!d)
		return -ENOMEM;
	d->path = kmalloc(PATH_MAX, GFP_KERNEL);
	d->esc = kmalloc(PATH_MAX, GFP_KERNEL);
	d->names = kvmalloc(TD_VMA_SLOTS * PATH_MAX, GFP_KERNEL);
	if (!d->path || !d->esc || !d->names)
		goto err_free;
	/* td_subject_new() reads procfs-fd from get's attribute numbering. */
	task_attrs[TASK_DIAG_A_TASK_PROCFS_FD] = attrs[TASK_DIAG_A_VMA_PROCFS_FD];
	d->subj = td_subject_new(cb->skb, task_attrs, &ext, &d->err);
	if (d->subj)
		d->err = td_vma_parse_req(d, attrs, &ext);
	else if (d->err == -ENOMEM)
		goto err_free;
	d->err_msg = ext._msg;
	*td_vma_ctx(cb) = d;
	cb->min_dump_alloc = TD_VMA_MIN_ALLOC;
	return 0;

err_free:
	kvfree(d->names);
	kfree(d->esc);
	kfree(d->path);
	kfree(d);
	return -ENOMEM;
}

/**
 * td_vma_dump_done() - netlink ->done() of TASK_DIAG_CMD_GET_VMA
 * @cb: the dump
 *
 * Return: 0.
 */
int td_vma_dump_done(struct netlink_callback *cb)
{
	struct td_vma_dump *d = *td_vma_ctx(cb);

	if (!d)
		return 0;
	td_vma_name_forget(d);
	put_pid(d->target);
	put_pid(d->thread);
	kvfree(d->addrs);
	td_subject_free(d->subj);
	kvfree(d->names);
	kfree(d->esc);
	kfree(d->path);
	kfree(d);
	return 0;
}

/**
 * td_vma_dumpit() - netlink ->dumpit() of TASK_DIAG_CMD_GET_VMA
 * @skb: the buffer to fill
 * @cb: the dump
 *
 * Fills @skb with the VMAs from the cursor on, for the sender, in its
 * recvmsg() (td_view_init() refuses any other reader); the first call, in
 * its sendmsg() under cb_lock, writes no process (td_dump_header()).
 *
 * Return: the length written, 0 when the dump is over, or a negative errno.
 */
int td_vma_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct td_vma_dump *d = *td_vma_ctx(cb);
	struct task_struct *task;
	struct td_view view;
	int err;

	if (d->err) {
		if (cb->extack)
			cb->extack->_msg = d->err_msg;
		return d->err;
	}
	if (!d->started) {
		d->started = true;
		return td_dump_header(skb, cb, TASK_DIAG_CMD_GET_VMA);
	}
	err = td_view_init(&view, d->subj, false, cb->extack);
	if (err)
		return err;
	d->view = &view;
	while ((task = td_vma_next_process(d))) {
		/* A process partly written may have exited since: not resumed into another. */
		if (d->next_addr && (d->next_nr != d->cur_nr || task->start_time != d->cur_start))
			d->next_addr = 0;
		d->cur_nr = d->next_nr;
		d->cur_start = task->start_time;
		err = td_vma_fill(skb, d, &view, task, d->next_nr, cb);
		put_task_struct(task);
		if (err == -ESTALE)
			err = 0;
		if (err == -EMSGSIZE) {
			td_vma_name_forget(d);
			/*
			 * Full: the next call goes on where this one stopped.
			 * Not even one entry fits an empty skb: fail, not loop.
			 */
			return skb->len ?: -EMSGSIZE;
		}
		if (err && (d->scope == TASK_DIAG_SCOPE_TASK || err == -EINTR)) {
			td_vma_name_forget(d);
			if (cb->extack && err != -EINTR)
				cb->extack->_msg = err == -EACCES ?
					"may not read this process's maps" :
					"no such pid";
			return err;
		}
		/* Done, hidden or not readable: the next process. */
		d->next_nr++;
		d->next_addr = 0;
		cond_resched();
	}
	td_vma_name_forget(d);
	return skb->len;
}
