/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtaskdiag internals of the procfs backend: the parsers of the procfs
 * text files (procfs_parse.c), pure functions of a buffer that fill a
 * record, apart from the /proc walk that reads the files (procfs.c). The
 * unit tests and a fuzzer can call them on any bytes. Also the handle's
 * state, which the VMA iterator (vma_procfs.c) opens files under.
 */
#ifndef TASKDIAG_PROCFS_H
#define TASKDIAG_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

/* The stat fields after "pid (comm)" that a record may carry. */
#define TD_PF_STAT_FIELDS	50
/* Supplementary groups kept, as the module (ngroups counts them all). */
#define TD_PF_MAX_GROUPS	1024
/* NStgid, NSpid, NSpgid, NSsid: items TASKDIAG_ITEM_STATUS_NSTGID on. */
#define TD_PF_NS_LINES		4

/* td->priv of a procfs handle (procfs.c): the handle's proc root and host constants. */
struct td_procfs {
	int rootfd;
	uint64_t tick_ns;	/* ns per clock tick */
	uint64_t page_size;
	unsigned int mems_words; /* BITS_TO_U32(nr_node_ids), 0 if not known */
};

/* The procfs handle's proc root, a directory descriptor (vma_procfs.c opens in it). */
static inline int td_procfs_rootfd(const struct taskdiag *td)
{
	return ((const struct td_procfs *)td->priv)->rootfd;
}

struct td_pf_words {
	uint32_t *w;
	size_t n, cap;
};

/* What stat says, before it is turned into items. */
struct td_pf_stat {
	uint64_t f[TD_PF_STAT_FIELDS];
	unsigned int n;		/* fields present */
	const char *comm;
	uint32_t comm_len;	/* with its NUL, as the netlink attribute */
};

/* Indexes into td_pf_stat_fields[] the code needs by name. */
enum {
	TD_SF_PPID = 1,
	TD_SF_PGID = 2,
	TD_SF_SID = 3,
	TD_SF_FLAGS = 6,
	TD_SF_START_CODE = 23,
	TD_SF_END_CODE = 24,
	TD_SF_WCHAN = 32,
};

/*
 * struct td_pf_parse - what the parsers fill, and with what
 * @t: the record
 * @groups: the TASKDIAG_GROUP_* asked for: items of other groups are left out
 * @tick_ns: nanoseconds per clock tick of the texts
 * @page_size: bytes per page of the texts
 * @mems_words: BITS_TO_U32(nr_node_ids), 0 if not known (Mems_allowed)
 * @cpus, @mems, @groups_w, @ns: the arrays the record's blobs point into,
 *        owned by the caller, reused from task to task (td_pf_parse_free());
 *        @ns[i] holds item TASKDIAG_ITEM_STATUS_NSTGID + i
 */
struct td_pf_parse {
	struct taskdiag_task *t;
	uint32_t groups;
	uint64_t tick_ns;
	uint64_t page_size;
	unsigned int mems_words;
	struct td_pf_words cpus, mems, groups_w;
	struct td_pf_words ns[TD_PF_NS_LINES];
};

/*
 * struct td_pf_filter - a request's filters on the procfs backend
 * (procfs_filter.c): sorted copies of the id arrays, the comm, and the
 * cgroup as a path of the reader's cgroup namespace (NULL: no filter)
 */
struct td_pf_filter {
	uint32_t *pids, *uids, *euids;
	size_t npids, nuids, neuids;
	const char *comm;
	size_t comm_len;
	char *cgroup;
	size_t cgroup_len;
};

/*
 * td_pf_filter_init(): 0, -EINVAL (a bad filter), -ENOENT (no such
 * cgroup), -EOPNOTSUPP or -ENOMEM, with the extack message set on @td.
 * The tests: pid (true to keep it); comm from stat with its flags; the
 * ids from status's text; the cgroup from the directory's cgroup file (1
 * keep, 0 leave out, or a negative errno of the read).
 */
TD_HIDDEN int td_pf_filter_init(struct td_pf_filter *f, struct taskdiag *td,
				const struct taskdiag_request *req);
TD_HIDDEN void td_pf_filter_free(struct td_pf_filter *f);
TD_HIDDEN bool td_pf_filter_pid(const struct td_pf_filter *f, pid_t pid);
TD_HIDDEN bool td_pf_filter_comm(const struct td_pf_filter *f, int dirfd, const char *name,
				 size_t len, uint64_t flags);
TD_HIDDEN bool td_pf_filter_ids(const struct td_pf_filter *f, const char *status, size_t len);
TD_HIDDEN int td_pf_filter_cgroup(const struct td_pf_filter *f, int dirfd);

TD_HIDDEN int td_pf_words_reserve(struct td_pf_words *w, size_t n);
TD_HIDDEN void td_pf_parse_free(struct td_pf_parse *px);

/*
 * The parsers. @buf is NUL-terminated at @len (the scanners rely on it).
 * stat: into @st (comm NUL-terminated in place), then td_pf_emit_stat();
 * -EBADMSG if it is not a stat line. status: *@tgid from its Tgid line;
 * a line not understood is left out. statm: -EBADMSG without a number.
 * Other errors: -ENOMEM.
 */
TD_HIDDEN int td_pf_parse_stat(char *buf, size_t len, struct td_pf_stat *st);
TD_HIDDEN bool td_pf_stat_permitted(const struct td_pf_stat *st, bool io_read);
TD_HIDDEN void td_pf_emit_stat(struct td_pf_parse *px, const struct td_pf_stat *st,
			       bool permitted);
TD_HIDDEN int td_pf_parse_status(struct td_pf_parse *px, const char *buf, size_t len,
				 pid_t *tgid);
TD_HIDDEN int td_pf_parse_statm(struct td_pf_parse *px, const char *buf);
TD_HIDDEN void td_pf_parse_io(struct td_pf_parse *px, const char *buf, size_t len);
/*
 * smaps_rollup: each "Name: N kB" line as item MEM_<NAME> = N * 1024; a
 * line not understood (the [rollup] header among them) is left out.
 */
TD_HIDDEN void td_pf_parse_rollup(struct taskdiag_task *t, const char *buf, size_t len);

/* Set @item from a number as procfs prints it (td_task_set_u64()). */
static inline void td_pf_set(struct taskdiag_task *t, int item, uint64_t v)
{
	td_task_set_u64(t, item, v);
}

/*
 * Scanners: the text stops at any character that is not a digit, and
 * every buffer is NUL-terminated, so they never run past the end.
 */
static inline const char *td_scan_dec(const char *p, uint64_t *v)
{
	const char *s;
	uint64_t x = 0;
	bool neg = false;

	if (*p == '-') {
		neg = true;
		p++;
	}
	for (s = p; (unsigned int)(*p - '0') < 10; p++)
		x = x * 10 + (uint64_t)(*p - '0');
	if (p == s)
		return NULL;
	*v = neg ? -x : x;
	return p;
}

static inline const char *td_scan_hex(const char *p, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	for (;; p++) {
		unsigned int c = (unsigned char)*p;
		unsigned int d;

		if (c - '0' < 10)
			d = c - '0';
		else if ((c | 0x20) - 'a' < 6)
			d = (c | 0x20) - 'a' + 10;
		else
			break;
		x = x << 4 | d;
	}
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

static inline const char *td_scan_oct(const char *p, uint64_t *v)
{
	const char *s = p;
	uint64_t x = 0;

	for (; (unsigned int)(*p - '0') < 8; p++)
		x = x << 3 | (uint64_t)(*p - '0');
	if (p == s)
		return NULL;
	*v = x;
	return p;
}

static inline const char *td_skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}


#endif /* TASKDIAG_PROCFS_H */
