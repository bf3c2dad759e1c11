// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the VMA iterator (taskdiag_vma_iter_*), on the module's
 * get-vma dump or, on the procfs backend, on /proc/PID/maps.
 *
 * Netlink: one dump request; the replies are walked in the receive buffer
 * (messages, then their entry nests), one VMA per call, nothing copied but
 * the struct (min(len, sizeof) into a zeroed one, as the ABI's readers do).
 * Procfs: the processes of the proc root in ascending pid order, each maps
 * file read whole and parsed line by line.
 *
 * The address query (taskdiag_vma_query_*) shares the iterator: on netlink
 * get-vma requests with addrs, TD_VMA_QUERY_CHUNK addresses each, one
 * after the other; on procfs the PROCMAP_QUERY ioctl per address where the
 * kernel has it, else a binary search in the VMAs of maps's text (read and
 * parsed once, only those that pass the filter kept).
 */
#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "internal.h"
#include "nl.h"
#include "procfs.h"

/* The longest build id (the module's, the kernel's BUILD_ID_SIZE_MAX). */
#define TD_VMA_BID_MAX		20

struct taskdiag_vma_iter {
	struct taskdiag *td;
	struct taskdiag_vma_request req;
	struct taskdiag_vma vma;
	/* netlink: the message being walked (in nl->buf) and the next entry */
	const unsigned char *msg;
	size_t msg_len, msg_off;
	/* procfs */
	pid_t *pids;
	size_t npids, next_pid;
	char *maps;		/* the current process's maps, NUL-terminated */
	size_t maps_len, maps_cap, maps_off;
	int err;		/* sticky */
	bool done;
	/* an address query */
	bool query;
	struct taskdiag_vma_query q;
	size_t sent, answered;	/* addresses asked for (netlink), answered */
	uint64_t qaddr;		/* netlink: the entry's query-addr */
	bool have_qaddr, none;	/* netlink: it had query-addr, no-vma */
	int maps_fd;		/* procfs: the process's maps, for PROCMAP_QUERY */
	bool text;		/* procfs: answer from the text (no PROCMAP_QUERY) */
	struct taskdiag_vma *table;	/* procfs text: the VMAs passing the filter */
	size_t ntable;
	char *name;		/* procfs ioctl: the name, then its escaped form */
	unsigned char bid[TD_VMA_BID_MAX];	/* procfs: the build id read */
};

/* The request bits the module takes as filter. */
#define TD_VMA_FILTERS		(TASKDIAG_VMA_FILE_BACKED | TASKDIAG_VMA_EXEC)

/* Addresses per get-vma request: the addrs attribute's limit (16384 bytes). */
#define TD_VMA_QUERY_CHUNK	2048

static const char *const td_vma_mnemonics[] = {
	"rd", "wr", "ex", "sh", "mr", "mw", "me", "ms", "gd", "pf", "lo", "io", "sr", "rr",
	"dc", "de", "lf", "ac", "nr", "ht", "sf", "ar", "wf", "dd", "sd", "mm", "hg", "nh",
	"mg", "um", "uw", "ui", "ss", "dp", "sl", "bt", "mt", "gu", "ur",
};

_Static_assert(sizeof(td_vma_mnemonics) / sizeof(td_vma_mnemonics[0]) ==
	       TASK_DIAG_VMA_FLAG_UFFD_RWP + 1, "one mnemonic per vma-flag bit");

const char *taskdiag_vma_flag_name(unsigned int bit)
{
	return bit < sizeof(td_vma_mnemonics) / sizeof(td_vma_mnemonics[0]) ?
		td_vma_mnemonics[bit] : NULL;
}

/* ------------------------------------------------------------------------
 * Netlink
 */

/*
 * Send a get-vma request: it->req's (a dump), or, with @n addresses at
 * @addrs, an address query of it->q's pid and filter.
 */
static int td_vma_nl_send(struct taskdiag_vma_iter *it, const uint64_t *addrs, size_t n)
{
	const struct taskdiag_vma_request *r = &it->req;
	pid_t pid = n ? it->q.pid : r->pid;
	uint32_t filter = n ? it->q.filter : r->filter;
	struct td_nl *nl = it->td->priv;
	struct nl_msg *msg;
	int err;

	if (nl->state == TD_NL_RUNNING && !n)
		return -EBUSY;
	err = td_nl_dump_msg(nl, TASK_DIAG_CMD_GET_VMA, &msg);
	if (err)
		return err;
	err = nla_put_u32(msg, TASK_DIAG_A_VMA_SCOPE, pid ? TASK_DIAG_SCOPE_TASK :
					 TASK_DIAG_SCOPE_ALL_PROCESSES);
	if (!err && pid)
		err = nla_put_u32(msg, TASK_DIAG_A_VMA_PID, (uint32_t)pid);
	if (!err && (filter & TD_VMA_FILTERS))
		err = nla_put_u32(msg, TASK_DIAG_A_VMA_FILTER, filter & TD_VMA_FILTERS);
	if (!err && (filter & TASKDIAG_VMA_BUILD_ID))
		err = nla_put_flag(msg, TASK_DIAG_A_VMA_WITH_BUILD_ID);
	if (!err && r->start)
		err = nla_put_u64(msg, TASK_DIAG_A_VMA_START, r->start);
	if (!err && r->end)
		err = nla_put_u64(msg, TASK_DIAG_A_VMA_END, r->end);
	if (!err && n)
		err = nla_put(msg, TASK_DIAG_A_VMA_ADDRS, (int)(n * sizeof(*addrs)), addrs);
	if (!err && it->td->procfs_fd >= 0)
		err = nla_put_u32(msg, TASK_DIAG_A_VMA_PROCFS_FD, (uint32_t)it->td->procfs_fd);
	if (err < 0) {
		err = td_nl_errno(err);
		goto out_free_msg;
	}
	err = td_nl_send(nl, msg);
	if (err)
		goto out_free_msg;
	td_nl_expect_replies(nl);
	err = 0;

out_free_msg:
	nlmsg_free(msg);
	return err;
}

static int td_vma_nl_start(struct taskdiag_vma_iter *it)
{
	return td_vma_nl_send(it, NULL, 0);
}

/* An attribute at @off of @buf (@len bytes): its header, or NULL at the end. */
static int td_vma_attr(const unsigned char *buf, size_t len, size_t *off, struct nlattr *nla,
		       const unsigned char **payload)
{
	size_t step;

	if (*off >= len)
		return 0;
	if (len - *off < NLA_HDRLEN)
		return -EBADMSG;
	memcpy(nla, buf + *off, sizeof(*nla));
	if (nla->nla_len < NLA_HDRLEN || nla->nla_len > len - *off)
		return -EBADMSG;
	*payload = buf + *off + NLA_HDRLEN;
	step = NLA_ALIGN((size_t)nla->nla_len);
	*off += step < len - *off ? step : len - *off;
	return 1;
}

/* One entry nest into it->vma. */
static int td_vma_nl_entry(struct taskdiag_vma_iter *it, const unsigned char *p, size_t len)
{
	struct task_diag_vma st = { 0 };
	const unsigned char *payload;
	struct nlattr nla;
	bool have = false;
	size_t off = 0;
	int ret;

	it->vma.name = NULL;
	it->vma.build_id = NULL;
	it->vma.build_id_len = 0;
	it->have_qaddr = it->none = false;
	while ((ret = td_vma_attr(p, len, &off, &nla, &payload)) == 1) {
		size_t plen = nla.nla_len - NLA_HDRLEN;

		switch (nla.nla_type & NLA_TYPE_MASK) {
		case TASK_DIAG_A_VMA_ENTRY_QUERY_ADDR:
			if (plen != sizeof(it->qaddr))
				return -EBADMSG;
			memcpy(&it->qaddr, payload, sizeof(it->qaddr));
			it->have_qaddr = true;
			break;
		case TASK_DIAG_A_VMA_ENTRY_NO_VMA:
			it->none = true;
			break;
		case TASK_DIAG_A_VMA_ENTRY_VMA:
			if (plen < TASK_DIAG_VMA_SIZE_VER0)
				return -EBADMSG;
			memcpy(&st, payload, plen < sizeof(st) ? plen : sizeof(st));
			have = true;
			break;
		case TASK_DIAG_A_VMA_ENTRY_NAME:
			if (!plen || payload[plen - 1] != '\0')
				return -EBADMSG;
			it->vma.name = (const char *)payload;
			break;
		case TASK_DIAG_A_VMA_ENTRY_BUILD_ID:
			if (!plen || plen > TD_VMA_BID_MAX)
				return -EBADMSG;
			it->vma.build_id = payload;
			it->vma.build_id_len = (uint32_t)plen;
			break;
		default:
			break;	/* pad, or newer than this library */
		}
	}
	if (ret < 0 || it->query != it->have_qaddr)
		return -EBADMSG;
	/* An answer has its VMA or no-vma, never both; a dump's entry its VMA. */
	if (it->query && it->none)
		return have ? -EBADMSG : 1;
	if (!have || it->none)
		return -EBADMSG;
	it->vma.start = st.start;
	it->vma.end = st.end;
	it->vma.offset = st.offset;
	it->vma.inode = st.inode;
	it->vma.flags = st.flags;
	it->vma.dev_major = st.dev_major;
	it->vma.dev_minor = st.dev_minor;
	return 1;
}

static int td_vma_nl_next(struct taskdiag_vma_iter *it)
{
	struct td_nl *nl = it->td->priv;
	const unsigned char *payload;
	struct nlattr nla;
	int ret;

	for (;;) {
		const struct nlmsghdr *nlh;

		/* The rest of the current message's attributes. */
		while (it->msg && (ret = td_vma_attr(it->msg, it->msg_len, &it->msg_off, &nla,
						     &payload)) != 0) {
			if (ret < 0)
				return ret;
			if ((nla.nla_type & NLA_TYPE_MASK) == TASK_DIAG_A_VMA_ENTRY)
				return td_vma_nl_entry(it, payload, nla.nla_len - NLA_HDRLEN);
		}
		it->msg = NULL;

		ret = td_nl_next_msg(nl, &nlh);
		if (ret)
			return ret;
		if (nlh->nlmsg_type == nl->family) {
			const unsigned char *attrs = (const unsigned char *)NLMSG_DATA(nlh) + GENL_HDRLEN;
			size_t alen, off = 0;
			bool pid = false;

			if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
				return -EBADMSG;
			alen = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
			/* The pid first: the entries follow it. */
			while ((ret = td_vma_attr(attrs, alen, &off, &nla, &payload)) == 1) {
				if ((nla.nla_type & NLA_TYPE_MASK) == TASK_DIAG_A_VMA_PID &&
				    nla.nla_len == NLA_HDRLEN + sizeof(uint32_t)) {
					uint32_t v;

					memcpy(&v, payload, sizeof(v));
					it->vma.pid = (pid_t)v;
					pid = true;
					break;
				}
			}
			if (ret < 0 || !pid)
				return -EBADMSG;
			it->msg = attrs;
			it->msg_len = alen;
			it->msg_off = 0;
			continue;
		}
		if (nlh->nlmsg_type == NLMSG_DONE || nlh->nlmsg_type == NLMSG_ERROR) {
			nl->pending = false;
			ret = nlh->nlmsg_type == NLMSG_DONE ? td_nl_done_msg(it->td, nlh) :
							      td_nl_error_msg(it->td, nlh);
			return ret ? ret : 0;
		}
	}
}

/* ------------------------------------------------------------------------
 * Procfs
 */

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

/* ------------------------------------------------------------------------
 * The address query
 */

/* The next get-vma request of a query: its next TD_VMA_QUERY_CHUNK addresses. */
static int td_vma_nl_query_send(struct taskdiag_vma_iter *it)
{
	size_t n = it->q.naddrs - it->sent;
	int err;

	if (n > TD_VMA_QUERY_CHUNK)
		n = TD_VMA_QUERY_CHUNK;
	err = td_vma_nl_send(it, it->q.addrs + it->sent, n);
	if (!err)
		it->sent += n;
	return err;
}

static int td_vma_nl_query_next(struct taskdiag_vma_iter *it)
{
	int ret;

	for (;;) {
		ret = td_vma_nl_next(it);
		if (ret == 1) {
			/* One answer per address, in their order. */
			if (it->answered >= it->sent || it->qaddr != it->q.addrs[it->answered])
				return -EBADMSG;
			return 1;
		}
		if (ret < 0)
			return ret;
		/* A request ended short: the thread exited in between. */
		if (it->answered != it->sent)
			return -ESRCH;
		if (it->sent == it->q.naddrs)
			return 0;
		ret = td_vma_nl_query_send(it);
		if (ret)
			return ret;
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

/* ------------------------------------------------------------------------
 * The API
 */

/* A new iterator, registered on @td (taskdiag_vma_iter_end() undoes it). */
static struct taskdiag_vma_iter *td_vma_iter_new(struct taskdiag *td)
{
	struct taskdiag_vma_iter *it = calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->td = td;
	it->maps_fd = -1;
	td_set_extack(td, NULL, 0);
	td->vma_iter = it;
	return it;
}

int taskdiag_vma_iter_start(struct taskdiag *td, const struct taskdiag_vma_request *req,
			    struct taskdiag_vma_iter **itp)
{
	struct taskdiag_vma_iter *it;
	int err;

	if (!td || !itp)
		return -EINVAL;
	*itp = NULL;
	if (td->iter || td->vma_iter)
		return -EBUSY;
	if (req && ((req->filter & ~(TD_VMA_FILTERS | TASKDIAG_VMA_BUILD_ID)) ||
		    req->pid < 0 || (req->end && req->end <= req->start)))
		return -EINVAL;
	if (td->ops != &td_netlink_backend && td->ops != &td_procfs_backend)
		return -EOPNOTSUPP;
	it = td_vma_iter_new(td);
	if (!it)
		return -ENOMEM;
	if (req)
		it->req = *req;
	err = td->ops == &td_netlink_backend ? td_vma_nl_start(it) : td_vma_pf_start(it);
	if (err) {
		taskdiag_vma_iter_end(it);
		return err;
	}
	*itp = it;
	return 0;
}

int taskdiag_vma_iter_next(struct taskdiag_vma_iter *it, const struct taskdiag_vma **vma)
{
	int ret;

	if (!it || !vma || it->query)
		return -EINVAL;
	*vma = NULL;
	if (it->err)
		return it->err;
	if (it->done)
		return 0;
	ret = it->td->ops == &td_netlink_backend ? td_vma_nl_next(it) : td_vma_pf_next(it);
	if (ret == 1)
		*vma = &it->vma;
	else if (ret < 0)
		it->err = ret;
	else
		it->done = true;
	return ret;
}

void taskdiag_vma_iter_end(struct taskdiag_vma_iter *it)
{
	if (!it)
		return;
	if (it->td->ops == &td_netlink_backend)
		td_nl_abandon(it->td->priv);
	it->td->vma_iter = NULL;
	if (it->maps_fd >= 0)
		close(it->maps_fd);
	free(it->table);
	free(it->name);
	free(it->pids);
	free(it->maps);
	free(it);
}

int taskdiag_vma_query_start(struct taskdiag *td, const struct taskdiag_vma_query *q,
			     struct taskdiag_vma_iter **itp)
{
	struct taskdiag_vma_iter *it;
	int err;

	if (!td || !itp)
		return -EINVAL;
	*itp = NULL;
	if (!q || q->pid <= 0 || !q->addrs || !q->naddrs ||
	    (q->filter & ~(TD_VMA_FILTERS | TASKDIAG_VMA_BUILD_ID)) ||
	    (q->flags & ~TASKDIAG_VMA_QUERY_MAPS_TEXT))
		return -EINVAL;
	if (td->iter || td->vma_iter)
		return -EBUSY;
	if (td->ops != &td_netlink_backend && td->ops != &td_procfs_backend)
		return -EOPNOTSUPP;
	it = td_vma_iter_new(td);
	if (!it)
		return -ENOMEM;
	it->query = true;
	it->q = *q;
	err = td->ops == &td_netlink_backend ? td_vma_nl_query_send(it) :
					       td_vma_pf_query_start(it);
	if (err) {
		taskdiag_vma_iter_end(it);
		return err;
	}
	*itp = it;
	return 0;
}

int taskdiag_vma_query_next(struct taskdiag_vma_iter *it, uint64_t *addr,
			    const struct taskdiag_vma **vma)
{
	int ret;

	if (!it || !addr || !vma || !it->query)
		return -EINVAL;
	*vma = NULL;
	if (it->err)
		return it->err;
	if (it->answered == it->q.naddrs) {
		/* Netlink: the last request's NLMSG_DONE, for its errors. */
		if (!it->done && it->td->ops == &td_netlink_backend) {
			ret = td_vma_nl_query_next(it);
			if (ret) {
				it->err = ret < 0 ? ret : -EBADMSG;
				return it->err;
			}
		}
		it->done = true;
		return 0;
	}
	ret = it->td->ops == &td_netlink_backend ? td_vma_nl_query_next(it) :
						   td_vma_pf_query_next(it);
	if (ret == 1 && it->td->ops != &td_netlink_backend && (it->q.filter & TASKDIAG_VMA_BUILD_ID))
		td_vma_pf_build_id(it, &it->vma);
	if (ret < 0) {
		it->err = ret;
		return ret;
	}
	if (ret == 0 && it->td->ops == &td_netlink_backend) {
		/* Every request over with addresses unanswered. */
		it->err = -EBADMSG;
		return it->err;
	}
	*addr = it->q.addrs[it->answered++];
	it->vma.pid = it->q.pid;
	if (ret == 1 && !(it->td->ops == &td_netlink_backend && it->none))
		*vma = &it->vma;
	return 1;
}
