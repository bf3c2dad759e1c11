// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the VMA iterator on /proc. A dump reads the processes of
 * the proc root in ascending pid order, each maps file whole, parsed line
 * by line. An address query asks PROCMAP_QUERY per address where the
 * kernel has it, else searches the VMAs of maps's text (read and parsed
 * once, only those that pass the filter kept).
 */
#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "procfs.h"
#include "vma.h"

static int td_vma_cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static int td_vma_pf_start(struct taskdiag_vma_iter *it)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *dir;
	int fd;

	if (it->req.pid) {
		it->pids = malloc(sizeof(*it->pids));
		if (!it->pids)
			return -ENOMEM;
		it->pids[0] = it->req.pid;
		it->npids = 1;
		return 0;
	}
	fd = openat(td_procfs_rootfd(it->td), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(dir))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);

		if (!isdigit((unsigned char)de->d_name[0]) || *end || v <= 0)
			continue;
		if (it->npids == cap) {
			pid_t *n = realloc(it->pids, (cap ? 2 * cap : 256) * sizeof(*n));

			if (!n) {
				closedir(dir);
				return -ENOMEM;
			}
			it->pids = n;
			cap = cap ? 2 * cap : 256;
		}
		it->pids[it->npids++] = (pid_t)v;
	}
	closedir(dir);
	qsort(it->pids, it->npids, sizeof(*it->pids), td_vma_cmp_pid);
	return 0;
}

/* Read an open maps file whole into it->maps. 0, or a negative errno. */
static int td_vma_pf_read_fd(struct taskdiag_vma_iter *it, int fd)
{
	ssize_t n;

	it->maps_len = 0;
	for (;;) {
		if (it->maps_cap - it->maps_len < 4096) {
			size_t cap = it->maps_cap ? 2 * it->maps_cap : 64 * 1024;
			char *b = realloc(it->maps, cap);

			if (!b)
				return -ENOMEM;
			it->maps = b;
			it->maps_cap = cap;
		}
		n = read(fd, it->maps + it->maps_len, it->maps_cap - it->maps_len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ENOENT ? -ESRCH : -errno;
		if (!n)
			break;
		it->maps_len += (size_t)n;
	}
	it->maps[it->maps_len] = '\0';
	it->maps_off = 0;
	return 0;
}

/* Read /proc/PID/maps whole into it->maps. 0, or a negative errno. */
static int td_vma_pf_read(struct taskdiag_vma_iter *it, pid_t pid)
{
	char path[32];
	int fd, err;

	snprintf(path, sizeof(path), "%d/maps", (int)pid);
	fd = openat(td_procfs_rootfd(it->td), path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	err = td_vma_pf_read_fd(it, fd);
	close(fd);
	return err;
}

/* Parse one maps line (NUL-terminated, no newline) into it->vma. */
TD_HIDDEN int td_vma_parse_maps_line(char *line, struct taskdiag_vma *v)
{
	unsigned long long start, end, off, ino;
	unsigned int maj, min;
	char perms[5];
	int pos = 0;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj,
		   &min, &ino, &pos) != 7 || strlen(perms) != 4 || !pos)
		return -EBADMSG;
	v->start = start;
	v->end = end;
	v->offset = off;
	v->dev_major = maj;
	v->dev_minor = min;
	v->inode = ino;
	v->build_id = NULL;
	v->build_id_len = 0;
	v->flags = (perms[0] == 'r' ? TASKDIAG_VMA_F_READ : 0) |
		   (perms[1] == 'w' ? TASKDIAG_VMA_F_WRITE : 0) |
		   (perms[2] == 'x' ? TASKDIAG_VMA_F_EXEC : 0) |
		   (perms[3] == 's' ? TASKDIAG_VMA_F_MAYSHARE : 0);
	/*
	 * The header ends in a space; show_map_vma() pads it with spaces up to
	 * column 72 (25 + 6 * sizeof(void *) - 1) and writes one more before
	 * a name. %n above skipped the padding too, so find the header's end
	 * again: the first space after the inode.
	 */
	{
		const char *h = strchr(line, ' ');
		int i;

		for (i = 0; i < 4 && h; i++)
			h = strchr(h + 1, ' ');
		if (!h)
			return -EBADMSG;
		pos = (int)(h - line) + 1;	/* the header's length, its space included */
		pos = pos < 72 ? 73 : pos + 1;
		v->name = (size_t)pos <= strlen(line) && line[pos - 1] == ' ' && line[pos] ?
			  line + pos : NULL;
	}
	return 0;
}

static bool td_vma_pf_wanted(const struct taskdiag_vma_iter *it, const struct taskdiag_vma *v)
{
	if ((it->req.filter & TASKDIAG_VMA_FILE_BACKED) && !v->inode)
		return false;
	if ((it->req.filter & TASKDIAG_VMA_EXEC) && !(v->flags & TASKDIAG_VMA_F_EXEC))
		return false;
	if (v->end <= it->req.start || (it->req.end && v->start >= it->req.end))
		return false;
	return true;
}

/*
 * Build ids on procfs, by the module's rules (those of the kernel's
 * build_id_parse()): an ELF executable or shared object (32- or 64-bit,
 * host byte order), the first PT_NOTE segment among its first 256 program
 * headers holding a GNU build-id note, each segment scanned up to 16 KiB.
 */
#define TD_BID_MAX_PHDRS	256
#define TD_BID_MAX_NOTES	(16 * 1024)

static bool td_pread_all(int fd, void *buf, size_t len, uint64_t off, uint64_t size)
{
	if (off > size || len > size - off)
		return false;
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len;
}

/* The build-id note among a segment's notes: its length, copied to @bid, or 0. */
static int td_bid_notes(int fd, uint64_t size, uint64_t off, uint64_t len, unsigned char *bid)
{
	struct {
		Elf32_Nhdr h;
		char name[4];
	} n;
	uint64_t end, desc;

	if (len > TD_BID_MAX_NOTES)
		len = TD_BID_MAX_NOTES;
	if (off > UINT64_MAX - len)
		return 0;
	end = off + len;
	while (end - off >= sizeof(n.h)) {
		if (!td_pread_all(fd, &n.h, sizeof(n.h), off, size))
			return 0;
		desc = off + sizeof(n.h) + (((uint64_t)n.h.n_namesz + 3) & ~3ull);
		if (n.h.n_type == NT_GNU_BUILD_ID && n.h.n_namesz == sizeof(n.name) &&
		    n.h.n_descsz >= 1 && n.h.n_descsz <= TD_VMA_BID_MAX &&
		    desc + n.h.n_descsz <= end &&
		    td_pread_all(fd, n.name, sizeof(n.name), off + sizeof(n.h), size) &&
		    !memcmp(n.name, "GNU", sizeof(n.name)))
			return td_pread_all(fd, bid, n.h.n_descsz, desc, size) ? (int)n.h.n_descsz : 0;
		off = desc + (((uint64_t)n.h.n_descsz + 3) & ~3ull);
		if (off >= end)
			break;
	}
	return 0;
}

/* The build id of the ELF file open at @fd (@size bytes): its length, or 0. */
static int td_elf_build_id(int fd, uint64_t size, unsigned char *bid)
{
	union {
		Elf32_Ehdr e32;
		Elf64_Ehdr e64;
	} eh;
	union {
		Elf32_Phdr p32;
		Elf64_Phdr p64;
	} ph;
	uint64_t phoff;
	unsigned int i, phnum, phsz;
	bool is64;
	int n;

	if (!td_pread_all(fd, &eh.e32, sizeof(eh.e32), 0, size) ||
	    memcmp(eh.e32.e_ident, ELFMAG, SELFMAG) ||
	    (eh.e32.e_type != ET_EXEC && eh.e32.e_type != ET_DYN))
		return 0;
	if (eh.e32.e_ident[EI_CLASS] == ELFCLASS64) {
		if (!td_pread_all(fd, &eh.e64, sizeof(eh.e64), 0, size))
			return 0;
		is64 = true;
		phoff = eh.e64.e_phoff;
		phnum = eh.e64.e_phnum;
		phsz = sizeof(ph.p64);
	} else if (eh.e32.e_ident[EI_CLASS] == ELFCLASS32) {
		is64 = false;
		phoff = eh.e32.e_phoff;
		phnum = eh.e32.e_phnum;
		phsz = sizeof(ph.p32);
	} else {
		return 0;
	}
	if (phoff > size)
		return 0;
	if (phnum > TD_BID_MAX_PHDRS)
		phnum = TD_BID_MAX_PHDRS;
	for (i = 0; i < phnum; i++) {
		if (!td_pread_all(fd, &ph, phsz, phoff + (uint64_t)i * phsz, size))
			return 0;
		if ((is64 ? ph.p64.p_type : ph.p32.p_type) != PT_NOTE)
			continue;
		n = td_bid_notes(fd, size, is64 ? ph.p64.p_offset : ph.p32.p_offset,
				 is64 ? ph.p64.p_filesz : ph.p32.p_filesz, bid);
		if (n)
			return n;
	}
	return 0;
}

/*
 * Procfs: the build id of @v's file, read from the path maps names while
 * that is still the mapped file (a regular file of the same device and
 * inode); none for a deleted file, an escaped name, or one the caller
 * cannot open. stat() before open(): a mapped device node is never opened.
 */
static void td_vma_pf_build_id(struct taskdiag_vma_iter *it, struct taskdiag_vma *v)
{
	size_t len = v->name ? strlen(v->name) : 0;
	static const char deleted[] = " (deleted)";
	struct stat st;
	int fd, n;

	v->build_id = NULL;
	v->build_id_len = 0;
	if (!v->inode || !len || v->name[0] != '/' || strstr(v->name, "\\012") ||
	    (len >= sizeof(deleted) - 1 && !strcmp(v->name + len - (sizeof(deleted) - 1), deleted)))
		return;
	if (stat(v->name, &st) || !S_ISREG(st.st_mode) || st.st_ino != v->inode)
		return;
	fd = open(v->name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_ino == v->inode &&
	    major(st.st_dev) == v->dev_major && minor(st.st_dev) == v->dev_minor) {
		n = td_elf_build_id(fd, (uint64_t)st.st_size, it->bid);
		if (n) {
			v->build_id = it->bid;
			v->build_id_len = (uint32_t)n;
		}
	}
	close(fd);
}

static int td_vma_pf_next(struct taskdiag_vma_iter *it)
{
	int err;

	for (;;) {
		while (it->maps && it->maps_off < it->maps_len) {
			char *line = it->maps + it->maps_off;
			char *nl = strchr(line, '\n');

			if (!nl)
				return -EBADMSG;
			*nl = '\0';
			it->maps_off = (size_t)(nl - it->maps) + 1;
			err = td_vma_parse_maps_line(line, &it->vma);
			if (err)
				return err;
			if (td_vma_pf_wanted(it, &it->vma)) {
				if (it->req.filter & TASKDIAG_VMA_BUILD_ID)
					td_vma_pf_build_id(it, &it->vma);
				return 1;
			}
		}
		it->maps_len = it->maps_off = 0;
		if (it->next_pid >= it->npids)
			return 0;
		it->vma.pid = it->pids[it->next_pid++];
		err = td_vma_pf_read(it, it->vma.pid);
		if (err && it->req.pid)
			return err;
		if (err == -ENOMEM)
			return err;
		if (err)
			it->maps_len = 0;	/* gone or not readable: left out */
	}
}

/* struct procmap_query of <linux/fs.h> (6.11+), which older headers lack. */
struct td_procmap_query {
	uint64_t size;
	uint64_t query_flags;
	uint64_t query_addr;
	uint64_t vma_start;
	uint64_t vma_end;
	uint64_t vma_flags;
	uint64_t vma_page_size;
	uint64_t vma_offset;
	uint64_t inode;
	uint32_t dev_major;
	uint32_t dev_minor;
	uint32_t vma_name_size;
	uint32_t build_id_size;
	uint64_t vma_name_addr;
	uint64_t build_id_addr;
};

_Static_assert(sizeof(struct td_procmap_query) == 104, "the layout of 6.11");

#define TD_PROCMAP_QUERY	_IOWR('f', 17, struct td_procmap_query)
#define TD_PMQ_READABLE		0x01
#define TD_PMQ_WRITABLE		0x02
#define TD_PMQ_EXECUTABLE	0x04
#define TD_PMQ_SHARED		0x08
#define TD_PMQ_COVERING_OR_NEXT	0x10
#define TD_PMQ_FILE_BACKED	0x20
#define TD_PMQ_NAME_MAX		4096

/*
 * One answer from PROCMAP_QUERY into it->vma: 1, 0 for none (ENOENT), or
 * a negative errno (-ENOTTY: the kernel has no PROCMAP_QUERY).
 */
static int td_vma_pf_ioctl(struct taskdiag_vma_iter *it, uint64_t addr)
{
	struct td_procmap_query pq = {
		.size = sizeof(pq),
		.query_flags = TD_PMQ_COVERING_OR_NEXT |
			       (it->q.filter & TASKDIAG_VMA_FILE_BACKED ? TD_PMQ_FILE_BACKED : 0) |
			       (it->q.filter & TASKDIAG_VMA_EXEC ? TD_PMQ_EXECUTABLE : 0),
		.query_addr = addr,
		.vma_name_size = TD_PMQ_NAME_MAX,
		.vma_name_addr = (uintptr_t)it->name,
	};
	struct taskdiag_vma *v = &it->vma;
	const char *p;
	char *o;

	if (ioctl(it->maps_fd, TD_PROCMAP_QUERY, &pq) < 0)
		return errno == ENOENT ? 0 : -errno;
	v->start = pq.vma_start;
	v->end = pq.vma_end;
	v->offset = pq.vma_offset;
	v->inode = pq.inode;
	v->dev_major = pq.dev_major;
	v->dev_minor = pq.dev_minor;
	v->flags = (pq.vma_flags & TD_PMQ_READABLE ? TASKDIAG_VMA_F_READ : 0) |
		   (pq.vma_flags & TD_PMQ_WRITABLE ? TASKDIAG_VMA_F_WRITE : 0) |
		   (pq.vma_flags & TD_PMQ_EXECUTABLE ? TASKDIAG_VMA_F_EXEC : 0) |
		   (pq.vma_flags & TD_PMQ_SHARED ? TASKDIAG_VMA_F_MAYSHARE : 0);
	v->name = NULL;
	v->build_id = NULL;
	v->build_id_len = 0;
	if (!pq.vma_name_size || !it->name[0])
		return 1;
	/* maps writes a newline of a name as \012; the ioctl copies it as is. */
	it->name[TD_PMQ_NAME_MAX - 1] = '\0';
	o = it->name + TD_PMQ_NAME_MAX;
	for (p = it->name; *p; p++) {
		if (*p == '\n') {
			memcpy(o, "\\012", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	v->name = it->name + TD_PMQ_NAME_MAX;
	return 1;
}

/* Read maps's text from it->maps_fd and keep the VMAs that pass the filter. */
static int td_vma_pf_table(struct taskdiag_vma_iter *it)
{
	struct taskdiag_vma v = { 0 };
	size_t cap = 0;
	int err;

	err = td_vma_pf_read_fd(it, it->maps_fd);
	if (err)
		return err;
	it->req.filter = it->q.filter;
	while (it->maps_off < it->maps_len) {
		char *line = it->maps + it->maps_off;
		char *nl = strchr(line, '\n');

		if (!nl)
			return -EBADMSG;
		*nl = '\0';
		it->maps_off = (size_t)(nl - it->maps) + 1;
		err = td_vma_parse_maps_line(line, &v);
		if (err)
			return err;
		/*
		 * The gate area maps lists last (x86's [vsyscall], where the
		 * kernel was booted with it) is no VMA of the mm: PROCMAP_QUERY
		 * and the module never answer with it.
		 */
		if (!td_vma_pf_wanted(it, &v) || (v.name && !strcmp(v.name, "[vsyscall]")))
			continue;
		if (it->ntable == cap) {
			struct taskdiag_vma *t = realloc(it->table, (cap ? 2 * cap : 64) * sizeof(*t));

			if (!t)
				return -ENOMEM;
			it->table = t;
			cap = cap ? 2 * cap : 64;
		}
		it->table[it->ntable++] = v;
	}
	return 0;
}

static int td_vma_pf_query_next(struct taskdiag_vma_iter *it)
{
	uint64_t addr = it->q.addrs[it->answered];
	size_t lo = 0, hi;
	int ret;

	if (!it->text) {
		ret = td_vma_pf_ioctl(it, addr);
		if (ret != -ENOTTY)
			return ret;
		/* No PROCMAP_QUERY in this kernel: the text from now on. */
		it->text = true;
		ret = td_vma_pf_table(it);
		if (ret)
			return ret;
	}
	/* The first kept VMA ending above addr. */
	hi = it->ntable;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (it->table[mid].end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo == it->ntable)
		return 0;
	it->vma = it->table[lo];
	return 1;
}

static int td_vma_pf_query_start(struct taskdiag_vma_iter *it)
{
	char path[32];

	snprintf(path, sizeof(path), "%d/maps", (int)it->q.pid);
	it->maps_fd = openat(td_procfs_rootfd(it->td), path, O_RDONLY | O_CLOEXEC);
	if (it->maps_fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	it->text = it->q.flags & TASKDIAG_VMA_QUERY_MAPS_TEXT;
	if (it->text)
		return td_vma_pf_table(it);
	/* The name, and its escaped form (each byte at most 4). */
	it->name = malloc(5 * TD_PMQ_NAME_MAX);
	return it->name ? 0 : -ENOMEM;
}

/* A query's answer, with its file's build id where the request asks. */
static int td_vma_pf_query_answer(struct taskdiag_vma_iter *it)
{
	int ret = td_vma_pf_query_next(it);

	if (ret == 1 && (it->q.filter & TASKDIAG_VMA_BUILD_ID))
		td_vma_pf_build_id(it, &it->vma);
	return ret;
}

const struct td_vma_ops td_vma_procfs_ops = {
	.start = td_vma_pf_start,
	.next = td_vma_pf_next,
	.query_start = td_vma_pf_query_start,
	.query_next = td_vma_pf_query_answer,
};
