// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the procfs backend. The same records as the netlink backend
 * (same items, same units: bytes, nanoseconds, counts), read from the text
 * files of /proc where the task_diag module is not loaded. It is also the
 * baseline the benchmarks compare the module against, so it is written to
 * be fast: per task, one directory fd of /proc/PID (or PID/task/TID), one
 * openat()/read()/close() per file a requested group needs, into buffers
 * that belong to the iterator and are reused for every task, parsed by
 * hand-written scanners (no stdio, no sscanf, no allocation in the steady
 * state).
 *
 * Files read per group:
 *   base    stat, status (TracerPid)
 *   stat    stat
 *   statm   statm
 *   io      io
 *   status  status
 *   cred    status (groups: the first 1024, as the module; ngroups counts all)
 *   cmdline cmdline (at most 4096 bytes, as the module)
 * plus stat for the children scope (the ppid filter) and status for the
 * task scope (the tgid of a pid that may name a thread).
 *
 * The proc root is "/proc", or $TASKDIAG_PROC_ROOT when that is set and
 * not empty (read with secure_getenv(), so set-uid programs ignore it), or
 * whatever td_procfs_open_at() points the handle at: the tests aim it at
 * fixture trees laid out as /proc (PID/{stat,statm,io,status,cmdline} and
 * PID/task/TID/...). Clock ticks and pages are converted with this host's
 * sysconf(_SC_CLK_TCK) and sysconf(_SC_PAGESIZE) in every case.
 *
 * Scopes: all_processes lists the numeric entries of the root and reads
 * /proc/PID/<file> (whole-process values); all_threads lists every
 * PID/task/TID and reads per-thread files; task reads /proc/PID (which
 * also resolves a thread id, as the module's task scope does); threads
 * reads every PID/task/TID; children lists every process and keeps those
 * whose stat ppid is PID. The pids are collected when the iteration starts and
 * sorted, so records come in ascending pid order whatever order the
 * directory gives. A task that vanishes while it is read (ENOENT, ESRCH,
 * or procfs's pgid/sid of -1 for a task being released, which the module
 * skips too) is skipped, never reported as an error; so is a task whose
 * directory the reader may not enter (hidepid=1). A stat file that does
 * not parse ends the iteration with -EBADMSG.
 *
 * Differences from the module that procfs imposes (see docs/fields.md):
 * times are whole clock ticks (start_time included) converted to ns;
 * comm is procfs's name (a kernel thread's full name, a workqueue
 * worker's "+desc"); kstk_esp/kstk_eip are procfs's values; cmdline is
 * absent when the file reads empty (kernel threads, zombies, but also a
 * task with an mm whose argv reads empty, where the module sends an empty
 * attribute); Mems_allowed is cut to the module's nr_node_ids bits
 * (td_pf_trim_mems()); the guarded stat fields follow the rule in
 * td_pf_stat_permitted().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "internal.h"

#define TD_PF_DEFAULT_ROOT	"/proc"
#define TD_PF_ENV_ROOT		"TASKDIAG_PROC_ROOT"
/* As the module's TD_CMDLINE_MAX (kernel/cmdline.c). */
#define TD_PF_CMDLINE_MAX	4096
/* As the module's TD_MAX_GROUPS (kernel/cred.c): cred.ngroups has them all. */
#define TD_PF_MAX_GROUPS	1024
#define TD_PF_DENTS_SIZE	32768
/* Room for "4294967295/task/4294967295". */
#define TD_PF_PATH_MAX		32
/* Fields of stat after "pid (comm)": state is the first, exit_code the 50th. */
#define TD_PF_STAT_FIELDS	50

#define TD_GROUPS_STAT_FILE	(TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT)
#define TD_GROUPS_STATUS_FILE	(TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STATUS | TASKDIAG_GROUP_CRED)

/* td->priv: the handle's proc root and host constants. */
struct td_procfs {
	int rootfd;
	uint64_t tick_ns;	/* ns per clock tick */
	uint64_t page_size;
	unsigned int mems_words; /* BITS_TO_U32(nr_node_ids), 0 if not known */
};

struct td_pf_ent {
	pid_t pid;	/* the record's pid (a tid in thread scopes) */
	pid_t tgid;	/* its directory's process, 0 where status tells */
};

struct td_pf_buf {
	char *p;
	size_t cap;
};

struct td_pf_words {
	uint32_t *w;
	size_t n, cap;
};

/* it->priv: everything one iteration reuses from task to task. */
struct td_pf_iter {
	struct td_pf_ent *ents;
	size_t nents, cap, pos;
	bool thread_paths;	/* open TGID/task/TID rather than PID */
	struct td_pf_buf stat, status, small, cmdline;
	struct td_pf_words cpus, mems, groups;
	char *dents;
};

/* What stat says, before it is turned into items. */
struct td_pf_stat {
	uint64_t f[TD_PF_STAT_FIELDS];
	unsigned int n;		/* fields present */
	const char *comm;
	uint32_t comm_len;	/* with its NUL, as the netlink attribute */
};

enum { TD_CV_NONE, TD_CV_TICKS, TD_CV_PAGES };

struct td_pf_stat_field {
	int16_t item;		/* -1: not carried */
	uint8_t conv;
	uint8_t guarded;
};

#define SF(_item, _conv, _guarded) { TASKDIAG_ITEM_##_item, _conv, _guarded }
#define SF_NONE { -1, TD_CV_NONE, 0 }

/* The stat fields after "pid (comm)", in the order procfs prints them. */
static const struct td_pf_stat_field td_pf_stat_fields[TD_PF_STAT_FIELDS] = {
	SF(BASE_STATE, TD_CV_NONE, 0),
	SF(BASE_PPID, TD_CV_NONE, 0),
	SF(BASE_PGID, TD_CV_NONE, 0),
	SF(BASE_SID, TD_CV_NONE, 0),
	SF(BASE_TTY_NR, TD_CV_NONE, 0),
	SF(BASE_TPGID, TD_CV_NONE, 0),
	SF(BASE_FLAGS, TD_CV_NONE, 0),
	SF(STAT_MINFLT, TD_CV_NONE, 0),
	SF(STAT_CMINFLT, TD_CV_NONE, 0),
	SF(STAT_MAJFLT, TD_CV_NONE, 0),
	SF(STAT_CMAJFLT, TD_CV_NONE, 0),
	SF(STAT_UTIME, TD_CV_TICKS, 0),
	SF(STAT_STIME, TD_CV_TICKS, 0),
	SF(STAT_CUTIME, TD_CV_TICKS, 0),
	SF(STAT_CSTIME, TD_CV_TICKS, 0),
	SF(STAT_PRIORITY, TD_CV_NONE, 0),
	SF(STAT_NICE, TD_CV_NONE, 0),
	SF(BASE_NUM_THREADS, TD_CV_NONE, 0),
	SF_NONE,				/* itrealvalue */
	SF(BASE_START_TIME, TD_CV_TICKS, 0),
	SF(STAT_VSIZE, TD_CV_NONE, 0),
	SF(STAT_RSS, TD_CV_PAGES, 0),
	SF(STAT_RSSLIM, TD_CV_NONE, 0),
	SF(STAT_START_CODE, TD_CV_NONE, 1),
	SF(STAT_END_CODE, TD_CV_NONE, 1),
	SF(STAT_START_STACK, TD_CV_NONE, 1),
	SF(STAT_KSTK_ESP, TD_CV_NONE, 1),
	SF(STAT_KSTK_EIP, TD_CV_NONE, 1),
	SF_NONE,				/* signal */
	SF_NONE,				/* blocked */
	SF_NONE,				/* sigignore */
	SF_NONE,				/* sigcatch */
	SF(STAT_WCHAN, TD_CV_NONE, 1),
	SF_NONE,				/* nswap */
	SF_NONE,				/* cnswap */
	SF(STAT_EXIT_SIGNAL, TD_CV_NONE, 0),
	SF(STAT_PROCESSOR, TD_CV_NONE, 0),
	SF(STAT_RT_PRIORITY, TD_CV_NONE, 0),
	SF(STAT_POLICY, TD_CV_NONE, 0),
	SF(STAT_BLKIO_DELAY, TD_CV_TICKS, 0),
	SF(STAT_GUEST_TIME, TD_CV_TICKS, 0),
	SF(STAT_CGUEST_TIME, TD_CV_TICKS, 0),
	SF(STAT_START_DATA, TD_CV_NONE, 1),
	SF(STAT_END_DATA, TD_CV_NONE, 1),
	SF(STAT_START_BRK, TD_CV_NONE, 1),
	SF(STAT_ARG_START, TD_CV_NONE, 1),
	SF(STAT_ARG_END, TD_CV_NONE, 1),
	SF(STAT_ENV_START, TD_CV_NONE, 1),
	SF(STAT_ENV_END, TD_CV_NONE, 1),
	SF(STAT_EXIT_CODE, TD_CV_NONE, 1),
};

/* Indexes into td_pf_stat_fields[] the code needs by name. */
enum {
	TD_SF_PPID = 1,
	TD_SF_PGID = 2,
	TD_SF_SID = 3,
	TD_SF_START_CODE = 23,
	TD_SF_END_CODE = 24,
	TD_SF_WCHAN = 32,
};

enum td_pf_status_kind {
	TD_ST_SKIP,	/* a line no item carries */
	TD_ST_TGID,
	TD_ST_DEC,
	TD_ST_KB,	/* "1234 kB" -> bytes */
	TD_ST_HEX,
	TD_ST_OCT,
	TD_ST_SIGQ,	/* "queued/limit" */
	TD_ST_IDS,	/* four ids: real, effective, saved, fs */
	TD_ST_GROUPS,
	TD_ST_CPUS,
	TD_ST_MEMS,
};

struct td_pf_key {
	const char *key;
	uint8_t len;
	uint8_t kind;
	int16_t item;
};

#define SK(_key, _kind, _item) { _key, sizeof(_key) - 1, TD_ST_##_kind, TASKDIAG_ITEM_##_item }
#define SK_SKIP(_key) { _key, sizeof(_key) - 1, TD_ST_SKIP, -1 }

/*
 * The lines of /proc/PID/status in the order the kernel prints them (6.1,
 * plus the lines newer kernels add). The lookup starts after the line
 * matched last, so in the usual case every line matches at the first try;
 * a line out of order or unknown costs one pass over the table.
 */
static const struct td_pf_key td_pf_status_keys[] = {
	SK_SKIP("Name"),
	SK("Umask", OCT, STATUS_UMASK),
	SK_SKIP("State"),
	{ "Tgid", 4, TD_ST_TGID, -1 },
	SK_SKIP("Ngid"),
	SK_SKIP("Pid"),
	SK_SKIP("PPid"),
	SK("TracerPid", DEC, BASE_TRACER_PID),
	SK("Uid", IDS, CRED_UID),
	SK("Gid", IDS, CRED_GID),
	SK("FDSize", DEC, STATUS_FDSIZE),
	SK("Groups", GROUPS, CRED_GROUPS),
	SK_SKIP("NStgid"),
	SK_SKIP("NSpid"),
	SK_SKIP("NSpgid"),
	SK_SKIP("NSsid"),
	SK_SKIP("Kthread"),
	SK("VmPeak", KB, STATUS_VM_PEAK),
	SK_SKIP("VmSize"),
	SK("VmLck", KB, STATUS_VM_LCK),
	SK("VmPin", KB, STATUS_VM_PIN),
	SK("VmHWM", KB, STATUS_VM_HWM),
	SK("VmRSS", KB, STATUS_VM_RSS),
	SK("RssAnon", KB, STATUS_RSS_ANON),
	SK("RssFile", KB, STATUS_RSS_FILE),
	SK("RssShmem", KB, STATUS_RSS_SHMEM),
	SK("VmData", KB, STATUS_VM_DATA),
	SK("VmStk", KB, STATUS_VM_STK),
	SK("VmExe", KB, STATUS_VM_EXE),
	SK("VmLib", KB, STATUS_VM_LIB),
	SK("VmPTE", KB, STATUS_VM_PTE),
	SK("VmSwap", KB, STATUS_VM_SWAP),
	SK("HugetlbPages", KB, STATUS_HUGETLB_PAGES),
	SK("CoreDumping", DEC, STATUS_CORE_DUMPING),
	SK("THP_enabled", DEC, STATUS_THP_ENABLED),
	SK_SKIP("untag_mask"),
	SK_SKIP("Threads"),
	SK("SigQ", SIGQ, STATUS_SIGQ_QUEUED),
	SK("SigPnd", HEX, STATUS_SIG_PENDING),
	SK("ShdPnd", HEX, STATUS_SIG_SHARED_PENDING),
	SK("SigBlk", HEX, STATUS_SIG_BLOCKED),
	SK("SigIgn", HEX, STATUS_SIG_IGNORED),
	SK("SigCgt", HEX, STATUS_SIG_CAUGHT),
	SK("CapInh", HEX, CRED_CAP_INHERITABLE),
	SK("CapPrm", HEX, CRED_CAP_PERMITTED),
	SK("CapEff", HEX, CRED_CAP_EFFECTIVE),
	SK("CapBnd", HEX, CRED_CAP_BOUNDING),
	SK("CapAmb", HEX, CRED_CAP_AMBIENT),
	SK("NoNewPrivs", DEC, STATUS_NO_NEW_PRIVS),
	SK("Seccomp", DEC, STATUS_SECCOMP),
	SK("Seccomp_filters", DEC, STATUS_SECCOMP_FILTERS),
	SK_SKIP("Speculation_Store_Bypass"),
	SK_SKIP("SpeculationIndirectBranch"),
	SK("Cpus_allowed", CPUS, STATUS_CPUS_ALLOWED),
	SK_SKIP("Cpus_allowed_list"),
	SK("Mems_allowed", MEMS, STATUS_MEMS_ALLOWED),
	SK_SKIP("Mems_allowed_list"),
	SK("voluntary_ctxt_switches", DEC, STATUS_VOLUNTARY_CTXT_SWITCHES),
	SK("nonvoluntary_ctxt_switches", DEC, STATUS_NONVOLUNTARY_CTXT_SWITCHES),
};

#define TD_PF_NKEYS (sizeof(td_pf_status_keys) / sizeof(td_pf_status_keys[0]))

/* The lines of /proc/PID/io, in order: items TASKDIAG_ITEM_IO_RCHAR on. */
static const struct td_pf_key td_pf_io_keys[] = {
	SK("rchar", DEC, IO_RCHAR),
	SK("wchar", DEC, IO_WCHAR),
	SK("syscr", DEC, IO_SYSCR),
	SK("syscw", DEC, IO_SYSCW),
	SK("read_bytes", DEC, IO_READ_BYTES),
	SK("write_bytes", DEC, IO_WRITE_BYTES),
	SK("cancelled_write_bytes", DEC, IO_CANCELLED_WRITE_BYTES),
};

#define TD_PF_NIOKEYS (sizeof(td_pf_io_keys) / sizeof(td_pf_io_keys[0]))

/* ------------------------------------------------------------------ */
/* Scanners: the text stops at any character that is not a digit, and */
/* every buffer is NUL-terminated, so they never run past the end.     */

static const char *td_scan_dec(const char *p, uint64_t *v)
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

static const char *td_scan_hex(const char *p, uint64_t *v)
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

static const char *td_scan_oct(const char *p, uint64_t *v)
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

static const char *td_skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static bool td_pf_gone(int err)
{
	/* The task exited (or is not ours to see: hidepid) while we read it. */
	return err == -ENOENT || err == -ESRCH || err == -ENOTDIR;
}

/* ------------------------------------------------------------------ */
/* Buffers                                                             */

static int td_pf_buf_init(struct td_pf_buf *b, size_t cap)
{
	b->p = malloc(cap);
	if (!b->p)
		return -ENOMEM;
	b->cap = cap;
	return 0;
}

static int td_pf_words_reserve(struct td_pf_words *w, size_t n)
{
	uint32_t *nw;
	size_t cap;

	if (n <= w->cap)
		return 0;
	cap = w->cap ? w->cap : 64;
	while (cap < n)
		cap *= 2;
	nw = realloc(w->w, cap * sizeof(*nw));
	if (!nw)
		return -ENOMEM;
	w->w = nw;
	w->cap = cap;
	return 0;
}

/*
 * td_pf_read_total() - read file @name of the task directory @dirfd into @b
 * @max: read at most this many bytes (the cmdline cap), 0 for all
 * @total: NULL, or (only with @max) set to the file's whole length: when
 *         @max bytes were read, the rest is read and counted (the cmdline's
 *         full length, which the module sends as CMDLINE_LEN)
 *
 * The buffer grows as needed and is NUL-terminated. The procfs files read
 * here are single-record seq_files (or cmdline, which fills any count it
 * can): a read shorter than asked for is the end of the file, which saves
 * the second read() a generic loop would make.
 *
 * Return: the length read, or a negative errno.
 */
static ssize_t td_pf_read_total(int dirfd, const char *name, struct td_pf_buf *b, size_t max,
				uint64_t *total)
{
	size_t len = 0;
	int fd, err;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	for (;;) {
		size_t room;
		ssize_t n;

		if (max && len >= max)
			break;
		if (b->cap - len < 2) {
			char *np = realloc(b->p, b->cap * 2);

			if (!np) {
				err = -ENOMEM;
				goto err_close;
			}
			b->p = np;
			b->cap *= 2;
		}
		room = b->cap - len - 1;
		if (max && room > max - len)
			room = max - len;
		n = read(fd, b->p + len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto err_close;
		}
		len += (size_t)n;
		if ((size_t)n < room)
			break;
	}
	if (total) {
		*total = len;
		while (max && len >= max) {
			char rest[4096];
			ssize_t n = read(fd, rest, sizeof(rest));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;	/* an error past the cap only loses the length */
			*total += (uint64_t)n;
		}
	}
	close(fd);
	b->p[len] = '\0';
	return (ssize_t)len;

err_close:
	close(fd);
	return err;
}

/* td_pf_read_total() without the whole length. */
static ssize_t td_pf_read(int dirfd, const char *name, struct td_pf_buf *b, size_t max)
{
	return td_pf_read_total(dirfd, name, b, max, NULL);
}

/*
 * Set @item from a number as procfs prints it: stored at the size the ABI
 * carries it (tty_nr, printed signed, is the u32 it is; s32 fields keep
 * their sign through the getter's sign extension).
 */
static void td_pf_set(struct taskdiag_task *t, int item, uint64_t v)
{
	td_task_set_u64(t, item, v);
}

static bool td_pf_wants(uint32_t groups, int item)
{
	return item >= 0 && (groups & td_items[item].group);
}

/* ------------------------------------------------------------------ */
/* stat                                                                */

/*
 * "pid (comm) S 1 2 ...": comm may hold spaces and parentheses, so it ends
 * at the last ')'. comm is NUL-terminated in place and stays in the stat
 * buffer until the next task.
 */
static int td_pf_parse_stat(char *buf, size_t len, struct td_pf_stat *st)
{
	char *lp = memchr(buf, '(', len);
	char *rp = memrchr(buf, ')', len);
	const char *p;
	unsigned int i;

	if (!lp || !rp || rp < lp || rp[1] != ' ' || !rp[2])
		return -EBADMSG;
	*rp = '\0';
	st->comm = lp + 1;
	st->comm_len = (uint32_t)(rp - lp);
	st->f[0] = (unsigned char)rp[2];
	p = rp + 3;
	for (i = 1; i < TD_PF_STAT_FIELDS; i++) {
		p = td_skip_blank(p);
		if (!*p || *p == '\n')
			break;
		p = td_scan_dec(p, &st->f[i]);
		if (!p)
			return -EBADMSG;
	}
	st->n = i;
	return 0;
}

/*
 * Were the guarded stat fields shown to us? procfs prints them to everyone,
 * as 0 (1 for start_code and end_code of a task with an mm) to readers that
 * fail its ptrace read check, where the module leaves them out. As in
 * stat_permitted() of tests/vm/test_compare_proc.py:
 *
 *  - /proc/PID/io read (the io group was asked for and read) or wchan 1:
 *    the check passed;
 *  - start_code and end_code both 1: it failed (no real mm has code at 1),
 *    so the guarded fields are left out, as the module does;
 *  - otherwise procfs does not tell (a task without an mm shows 0s either
 *    way): treat them as permitted; the values are then procfs's, which are
 *    the module's for a reader that passes.
 */
static bool td_pf_stat_permitted(const struct td_pf_stat *st, bool io_read)
{
	if (io_read)
		return true;
	if (st->n > TD_SF_WCHAN && st->f[TD_SF_WCHAN] == 1)
		return true;
	if (st->n > TD_SF_END_CODE && st->f[TD_SF_START_CODE] == 1 && st->f[TD_SF_END_CODE] == 1)
		return false;
	return true;
}

static void td_pf_emit_stat(struct taskdiag_task *t, const struct td_procfs *pf,
			    const struct td_pf_stat *st, uint32_t groups, bool permitted)
{
	unsigned int i;

	if (groups & TASKDIAG_GROUP_BASE)
		td_task_set_blob(t, TASKDIAG_ITEM_BASE_COMM, st->comm, st->comm_len);
	for (i = 0; i < st->n; i++) {
		const struct td_pf_stat_field *sf = &td_pf_stat_fields[i];
		uint64_t v = st->f[i];

		if (!td_pf_wants(groups, sf->item) || (sf->guarded && !permitted))
			continue;
		if (sf->conv == TD_CV_TICKS)
			v *= pf->tick_ns;
		else if (sf->conv == TD_CV_PAGES)
			v *= pf->page_size;
		td_pf_set(t, sf->item, v);
	}
}

/* ------------------------------------------------------------------ */
/* status                                                              */

static const struct td_pf_key *td_pf_find_key(const char *k, size_t len, size_t *cur)
{
	size_t i, j = *cur;

	for (i = 0; i < TD_PF_NKEYS; i++, j++) {
		const struct td_pf_key *e;

		if (j == TD_PF_NKEYS)
			j = 0;
		e = &td_pf_status_keys[j];
		if (e->len == len && !memcmp(e->key, k, len)) {
			*cur = j + 1 == TD_PF_NKEYS ? 0 : j + 1;
			return e;
		}
	}
	return NULL;
}

/* "ffffffff,00000003" (high word first) -> u32 words, low first. */
static int td_pf_parse_bitmap(const char *p, const char *end, struct td_pf_words *w)
{
	size_t n = 1, i;
	const char *q;
	int err;

	for (q = p; q < end; q++)
		n += *q == ',';
	err = td_pf_words_reserve(w, n);
	if (err)
		return err;
	for (i = n; i > 0; i--) {
		uint64_t v;

		q = td_scan_hex(p, &v);
		if (!q || q > end)
			return -EBADMSG;
		w->w[i - 1] = (uint32_t)v;
		p = q + 1;	/* past the ',' */
	}
	w->n = n;
	return 0;
}

/*
 * "Groups:\t4 5 6 \n": the first TD_PF_MAX_GROUPS into @w, all of them
 * counted in *@count.
 */
static int td_pf_parse_groups(const char *p, const char *end, struct td_pf_words *w,
			      uint64_t *count)
{
	uint64_t n = 0;
	int err;

	w->n = 0;
	for (;;) {
		uint64_t v;

		p = td_skip_blank(p);
		if (p >= end)
			break;
		p = td_scan_dec(p, &v);
		if (!p)
			return -EBADMSG;
		if (n++ >= TD_PF_MAX_GROUPS)
			continue;
		err = td_pf_words_reserve(w, w->n + 1);
		if (err)
			return err;
		w->w[w->n++] = (uint32_t)v;
	}
	*count = n;
	return 0;
}

/*
 * Mems_allowed: procfs prints MAX_NUMNODES bits, the module sends
 * nr_node_ids bits. Keep the words the module would send: the first
 * BITS_TO_U32(nr_node_ids) when that is known, else all but the high zero
 * words (at least one), which is the same wherever nr_node_ids <= 32.
 */
static void td_pf_trim_mems(const struct td_procfs *pf, struct td_pf_words *w)
{
	size_t n = w->n;

	if (pf->mems_words && n > pf->mems_words) {
		size_t i;

		for (i = pf->mems_words; i < n && !w->w[i]; i++)
			;
		if (i == n)
			w->n = pf->mems_words;
		return;
	}
	if (pf->mems_words)
		return;
	while (n > 1 && !w->w[n - 1])
		n--;
	w->n = n;
}

/* One status line's value (at @p, the line ends at @end). */
static int td_pf_status_value(struct taskdiag_iter *it, struct td_pf_iter *pi,
			      const struct td_pf_key *k, const char *p, const char *end)
{
	const struct td_procfs *pf = it->td->priv;
	struct taskdiag_task *t = &it->task;
	struct td_pf_words *w;
	uint64_t v, v2;
	int i, err;

	p = td_skip_blank(p);
	switch (k->kind) {
	case TD_ST_DEC:
		if (td_scan_dec(p, &v))
			td_pf_set(t, k->item, v);
		return 0;
	case TD_ST_KB:
		if (td_scan_dec(p, &v))
			td_pf_set(t, k->item, v * 1024);
		return 0;
	case TD_ST_HEX:
		if (td_scan_hex(p, &v))
			td_pf_set(t, k->item, v);
		return 0;
	case TD_ST_OCT:
		if (td_scan_oct(p, &v))
			td_pf_set(t, k->item, v);
		return 0;
	case TD_ST_SIGQ:
		p = td_scan_dec(p, &v);
		if (!p || *p != '/' || !td_scan_dec(p + 1, &v2))
			return 0;
		td_pf_set(t, TASKDIAG_ITEM_STATUS_SIGQ_QUEUED, v);
		td_pf_set(t, TASKDIAG_ITEM_STATUS_SIGQ_LIMIT, v2);
		return 0;
	case TD_ST_IDS:
		for (i = 0; i < 4; i++) {
			p = td_scan_dec(td_skip_blank(p), &v);
			if (!p)
				break;
			td_pf_set(t, k->item + i, v);
		}
		return 0;
	case TD_ST_GROUPS:
		w = &pi->groups;
		err = td_pf_parse_groups(p, end, w, &v);
		if (!err)
			td_pf_set(t, TASKDIAG_ITEM_CRED_NGROUPS, v);
		break;
	case TD_ST_CPUS:
		w = &pi->cpus;
		err = td_pf_parse_bitmap(p, end, w);
		break;
	case TD_ST_MEMS:
		w = &pi->mems;
		err = td_pf_parse_bitmap(p, end, w);
		if (!err)
			td_pf_trim_mems(pf, w);
		break;
	default:
		return 0;
	}
	if (err == -EBADMSG)
		return 0;	/* a line we do not understand: leave it out */
	if (err)
		return err;
	td_task_set_blob(t, k->item, w->w, (uint32_t)(w->n * sizeof(uint32_t)));
	return 0;
}

/* Set the requested items status carries; *tgid from the Tgid line. */
static int td_pf_parse_status(struct taskdiag_iter *it, struct td_pf_iter *pi,
			      const char *buf, size_t len, pid_t *tgid)
{
	uint32_t groups = it->req.groups;
	const char *p = buf, *end = buf + len;
	size_t cur = 0;
	int err;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *colon;
		const struct td_pf_key *k;

		if (!nl)
			nl = end;
		colon = memchr(p, ':', (size_t)(nl - p));
		if (colon) {
			k = td_pf_find_key(p, (size_t)(colon - p), &cur);
			if (k && k->kind == TD_ST_TGID) {
				uint64_t v;

				if (td_scan_dec(td_skip_blank(colon + 1), &v))
					*tgid = (pid_t)v;
			} else if (k && td_pf_wants(groups, k->item)) {
				err = td_pf_status_value(it, pi, k, colon + 1, nl);
				if (err)
					return err;
			}
		}
		p = nl + 1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* statm, io                                                           */

static int td_pf_parse_statm(struct taskdiag_task *t, const struct td_procfs *pf,
			     const char *p)
{
	int i;

	for (i = 0; i < 7; i++) {
		uint64_t v;

		p = td_scan_dec(td_skip_blank(p), &v);
		if (!p)
			return i ? 0 : -EBADMSG;
		td_pf_set(t, TASKDIAG_ITEM_STATM_SIZE + i, v * pf->page_size);
	}
	return 0;
}

static void td_pf_parse_io(struct taskdiag_task *t, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;
	size_t cur = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *colon;
		size_t i, klen;

		if (!nl)
			nl = end;
		colon = memchr(p, ':', (size_t)(nl - p));
		if (colon) {
			klen = (size_t)(colon - p);
			for (i = 0; i < TD_PF_NIOKEYS; i++, cur++) {
				const struct td_pf_key *k;
				uint64_t v;

				if (cur == TD_PF_NIOKEYS)
					cur = 0;
				k = &td_pf_io_keys[cur];
				if (k->len != klen || memcmp(k->key, p, klen))
					continue;
				if (td_scan_dec(td_skip_blank(colon + 1), &v))
					td_pf_set(t, k->item, v);
				cur++;
				break;
			}
		}
		p = nl + 1;
	}
}

/* ------------------------------------------------------------------ */
/* One task                                                            */

/*
 * Fill it->task from the task directory @dirfd.
 * Return: 1 with the record filled, 0 to skip the task (it vanished, or the
 * children scope does not want it), or a negative errno.
 */
static int td_pf_fill(struct taskdiag_iter *it, struct td_pf_iter *pi, int dirfd,
		      const struct td_pf_ent *e)
{
	const struct td_procfs *pf = it->td->priv;
	struct taskdiag_task *t = &it->task;
	uint32_t groups = it->req.groups;
	enum taskdiag_scope scope = it->req.scope;
	struct td_pf_stat st;
	bool need_stat, io_read = false;
	pid_t tgid = e->tgid;
	ssize_t n;
	int err;

	st.n = 0;
	st.comm = NULL;
	st.comm_len = 0;
	need_stat = (groups & TD_GROUPS_STAT_FILE) || scope == TASKDIAG_SCOPE_CHILDREN;
	if (need_stat) {
		n = td_pf_read(dirfd, "stat", &pi->stat, 0);
		if (n < 0)
			return td_pf_gone((int)n) ? 0 : (int)n;
		err = td_pf_parse_stat(pi->stat.p, (size_t)n, &st);
		if (err)
			return err;
		/* Being released (no sighand): the module skips it too. */
		if (st.n > TD_SF_SID &&
		    ((int64_t)st.f[TD_SF_PGID] < 0 || (int64_t)st.f[TD_SF_SID] < 0))
			return 0;
		if (scope == TASKDIAG_SCOPE_CHILDREN &&
		    (st.n <= TD_SF_PPID || st.f[TD_SF_PPID] != (uint64_t)it->req.pid))
			return 0;
	}

	if ((groups & TD_GROUPS_STATUS_FILE) || scope == TASKDIAG_SCOPE_TASK) {
		n = td_pf_read(dirfd, "status", &pi->status, 0);
		if (n < 0)
			return td_pf_gone((int)n) ? 0 : (int)n;
		err = td_pf_parse_status(it, pi, pi->status.p, (size_t)n, &tgid);
		if (err)
			return err;
	}

	if (groups & TASKDIAG_GROUP_STATM) {
		n = td_pf_read(dirfd, "statm", &pi->small, 0);
		if (n < 0)
			return td_pf_gone((int)n) ? 0 : (int)n;
		err = td_pf_parse_statm(t, pf, pi->small.p);
		if (err)
			return err;
	}

	if (groups & TASKDIAG_GROUP_IO) {
		/* Guarded: absent when procfs refuses it, as the module's nest. */
		n = td_pf_read(dirfd, "io", &pi->small, 0);
		if (n >= 0) {
			td_pf_parse_io(t, pi->small.p, (size_t)n);
			io_read = true;
		} else if (td_pf_gone((int)n)) {
			return 0;
		} else if (n != -EACCES && n != -EPERM) {
			return (int)n;
		}
	}

	if (groups & TASKDIAG_GROUP_CMDLINE) {
		uint64_t total;

		n = td_pf_read_total(dirfd, "cmdline", &pi->cmdline, TD_PF_CMDLINE_MAX, &total);
		if (n < 0)
			return td_pf_gone((int)n) ? 0 : (int)n;
		/* Empty: no mm (kernel thread, zombie); the module sends nothing. */
		if (n > 0)
			td_task_set_blob(t, TASKDIAG_ITEM_CMDLINE, pi->cmdline.p, (uint32_t)n);
		/* Cut at the cap: the module says how long the whole argv is. */
		if (total > (uint64_t)n)
			td_pf_set(t, TASKDIAG_ITEM_CMDLINE_LEN, total);
	}

	if (need_stat && (groups & TD_GROUPS_STAT_FILE))
		td_pf_emit_stat(t, pf, &st, groups, td_pf_stat_permitted(&st, io_read));

	td_task_set_u64(t, TASKDIAG_ITEM_PID, (uint64_t)e->pid);
	td_task_set_u64(t, TASKDIAG_ITEM_TGID, (uint64_t)(tgid ? tgid : e->pid));
	return 1;
}

/* ------------------------------------------------------------------ */
/* Collecting the pids                                                 */

static char *td_pf_utoa(char *p, uint32_t v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* "PID" or "TGID/task/TID" */
static void td_pf_path(char *buf, pid_t dir, pid_t tid)
{
	char *p = td_pf_utoa(buf, (uint32_t)dir);

	if (tid) {
		memcpy(p, "/task/", 6);
		p = td_pf_utoa(p + 6, (uint32_t)tid);
	}
	*p = '\0';
}

/* A directory entry's name as a pid, or 0 if it is not one. */
static pid_t td_pf_name_pid(const char *s)
{
	uint64_t v = 0;

	if ((unsigned int)(*s - '1') >= 9)
		return 0;
	for (; *s; s++) {
		if ((unsigned int)(*s - '0') >= 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > INT32_MAX)
			return 0;
	}
	return (pid_t)v;
}

static int td_pf_push(struct td_pf_iter *pi, pid_t pid, pid_t tgid)
{
	if (pi->nents == pi->cap) {
		size_t cap = pi->cap ? pi->cap * 2 : 1024;
		struct td_pf_ent *ne = realloc(pi->ents, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		pi->ents = ne;
		pi->cap = cap;
	}
	pi->ents[pi->nents].pid = pid;
	pi->ents[pi->nents].tgid = tgid;
	pi->nents++;
	return 0;
}

struct td_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Append every numeric entry of directory @path (under the root) to the
 * list, with @tgid as their process (0: each is its own). A directory that
 * vanished adds nothing.
 */
static int td_pf_list(struct td_pf_iter *pi, int rootfd, const char *path, pid_t tgid)
{
	int fd, err = 0;

	fd = openat(rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return td_pf_gone(-errno) || errno == EACCES ? 0 : -errno;
	for (;;) {
		long n = syscall(SYS_getdents64, fd, pi->dents, TD_PF_DENTS_SIZE);
		long off;

		if (n < 0) {
			err = td_pf_gone(-errno) ? 0 : -errno;
			break;
		}
		if (n == 0)
			break;
		for (off = 0; off < n;) {
			const struct td_dirent64 *d = (const void *)(pi->dents + off);
			pid_t pid = td_pf_name_pid(d->d_name);

			off += d->d_reclen;
			if (!pid)
				continue;
			err = td_pf_push(pi, pid, tgid ? tgid : pid);
			if (err)
				goto out;
		}
	}
out:
	close(fd);
	return err;
}

static int td_pf_ent_cmp(const void *a, const void *b)
{
	pid_t x = ((const struct td_pf_ent *)a)->pid;
	pid_t y = ((const struct td_pf_ent *)b)->pid;

	return (x > y) - (x < y);
}

static void td_pf_sort(struct td_pf_iter *pi)
{
	size_t i;

	/* /proc lists in ascending order already: usually nothing to do. */
	for (i = 1; i < pi->nents; i++)
		if (pi->ents[i - 1].pid > pi->ents[i].pid)
			break;
	if (i < pi->nents)
		qsort(pi->ents, pi->nents, sizeof(*pi->ents), td_pf_ent_cmp);
}

/*
 * Does @pid name a task, and if @leader, a thread-group leader (Tgid in its
 * status is itself)? -ESRCH if not, as the module answers.
 */
static int td_pf_check_pid(struct taskdiag_iter *it, struct td_pf_iter *pi, bool leader)
{
	const struct td_procfs *pf = it->td->priv;
	char path[TD_PF_PATH_MAX];
	const char *msg = "no such pid";
	pid_t pid = it->req.pid, tgid = 0;
	const char *p;
	ssize_t n;
	int dirfd;

	td_pf_path(path, pid, 0);
	dirfd = openat(pf->rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		if (!td_pf_gone(-errno) && errno != EACCES)
			return -errno;
		goto err_srch;
	}
	if (!leader) {
		close(dirfd);
		return 0;
	}
	n = td_pf_read(dirfd, "status", &pi->status, 0);
	close(dirfd);
	if (n < 0) {
		if (!td_pf_gone((int)n))
			return (int)n;
		goto err_srch;
	}
	p = pi->status.p;
	if (!strncmp(p, "Tgid:", 5))
		p += 5;
	else if ((p = strstr(p, "\nTgid:")))
		p += 6;
	if (p) {
		uint64_t v;

		if (td_scan_dec(td_skip_blank(p), &v))
			tgid = (pid_t)v;
	}
	if (tgid == pid)
		return 0;
	msg = "pid is not a process (thread-group leader)";
err_srch:
	td_set_extack(it->td, msg, strlen(msg));
	return -ESRCH;
}

/* Every process, and for all_threads every thread of each. */
static int td_pf_list_all(struct td_pf_iter *pi, int rootfd, bool threads)
{
	char path[TD_PF_PATH_MAX + 8];
	size_t i, nproc;
	int err;

	err = td_pf_list(pi, rootfd, ".", 0);
	if (err || !threads)
		return err;
	/* The processes are the head of the list; their threads follow. */
	nproc = pi->nents;
	for (i = 0; i < nproc; i++) {
		pid_t tgid = pi->ents[i].pid;
		char *p = td_pf_utoa(path, (uint32_t)tgid);

		memcpy(p, "/task", 6);
		err = td_pf_list(pi, rootfd, path, tgid);
		if (err)
			return err;
	}
	memmove(pi->ents, pi->ents + nproc, (pi->nents - nproc) * sizeof(*pi->ents));
	pi->nents -= nproc;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The backend                                                         */

static void td_pf_iter_free(struct td_pf_iter *pi)
{
	if (!pi)
		return;
	free(pi->ents);
	free(pi->stat.p);
	free(pi->status.p);
	free(pi->small.p);
	free(pi->cmdline.p);
	free(pi->cpus.w);
	free(pi->mems.w);
	free(pi->groups.w);
	free(pi->dents);
	free(pi);
}

static int td_pf_einval(struct taskdiag_iter *it, const char *msg)
{
	td_set_extack(it->td, msg, strlen(msg));
	return -EINVAL;
}

static int td_pf_iter_start(struct taskdiag_iter *it)
{
	const struct td_procfs *pf = it->td->priv;
	enum taskdiag_scope scope = it->req.scope;
	char path[TD_PF_PATH_MAX + 8];
	struct td_pf_iter *pi;
	int err;

	switch (scope) {
	case TASKDIAG_SCOPE_ALL_PROCESSES:
	case TASKDIAG_SCOPE_ALL_THREADS:
		if (it->req.pid)
			return td_pf_einval(it, "this scope takes no pid");
		break;
	default:
		if (!it->req.pid)
			return td_pf_einval(it, "this scope needs the pid attribute");
		break;
	}

	pi = calloc(1, sizeof(*pi));
	if (!pi)
		return -ENOMEM;
	err = -ENOMEM;
	pi->dents = malloc(TD_PF_DENTS_SIZE);
	if (!pi->dents || td_pf_buf_init(&pi->stat, 1024) ||
	    td_pf_buf_init(&pi->status, 4096) || td_pf_buf_init(&pi->small, 512) ||
	    td_pf_buf_init(&pi->cmdline, TD_PF_CMDLINE_MAX + 1) ||
	    td_pf_words_reserve(&pi->cpus, 64) || td_pf_words_reserve(&pi->mems, 64) ||
	    td_pf_words_reserve(&pi->groups, 64))
		goto err_free;

	switch (scope) {
	case TASKDIAG_SCOPE_ALL_PROCESSES:
		err = td_pf_list_all(pi, pf->rootfd, false);
		break;
	case TASKDIAG_SCOPE_ALL_THREADS:
		pi->thread_paths = true;
		err = td_pf_list_all(pi, pf->rootfd, true);
		break;
	case TASKDIAG_SCOPE_TASK:
		err = td_pf_check_pid(it, pi, false);
		/* The tgid comes from status: the pid may name a thread. */
		if (!err)
			err = td_pf_push(pi, it->req.pid, 0);
		break;
	case TASKDIAG_SCOPE_THREADS:
		pi->thread_paths = true;
		err = td_pf_check_pid(it, pi, true);
		if (!err) {
			char *p = td_pf_utoa(path, (uint32_t)it->req.pid);

			memcpy(p, "/task", 6);
			err = td_pf_list(pi, pf->rootfd, path, it->req.pid);
		}
		break;
	case TASKDIAG_SCOPE_CHILDREN:
		err = td_pf_check_pid(it, pi, true);
		if (!err)
			err = td_pf_list_all(pi, pf->rootfd, false);
		break;
	default:
		err = -EINVAL;
		break;
	}
	if (err)
		goto err_free;
	td_pf_sort(pi);
	/* Not needed any more: give the listing buffer back. */
	free(pi->dents);
	pi->dents = NULL;
	it->priv = pi;
	return 0;

err_free:
	td_pf_iter_free(pi);
	return err;
}

static int td_pf_iter_next(struct taskdiag_iter *it)
{
	const struct td_procfs *pf = it->td->priv;
	struct td_pf_iter *pi = it->priv;
	char path[TD_PF_PATH_MAX];

	while (pi->pos < pi->nents) {
		const struct td_pf_ent *e = &pi->ents[pi->pos++];
		int dirfd, ret;

		if (pi->thread_paths)
			td_pf_path(path, e->tgid, e->pid);
		else
			td_pf_path(path, e->pid, 0);
		dirfd = openat(pf->rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0) {
			/* Exited since the listing, or hidden from us (hidepid). */
			if (td_pf_gone(-errno) || errno == EACCES || errno == EPERM)
				continue;
			return -errno;
		}
		td_task_reset(&it->task);
		ret = td_pf_fill(it, pi, dirfd, e);
		close(dirfd);
		if (ret)
			return ret;
	}
	td_task_reset(&it->task);
	return 0;
}

static void td_pf_iter_end(struct taskdiag_iter *it)
{
	td_pf_iter_free(it->priv);
	it->priv = NULL;
}

/* BITS_TO_U32(nr_node_ids) from sysfs ("0", "0-3", "0,2-5"), 0 if unknown. */
static unsigned int td_pf_mems_words(void)
{
	char buf[256];
	const char *p;
	uint64_t last = 0;
	bool any = false;
	ssize_t n;
	int fd;

	fd = open("/sys/devices/system/node/possible", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (p = buf; *p;) {
		uint64_t v;
		const char *q = td_scan_dec(p, &v);

		if (q) {
			last = v;
			any = true;
			p = q;
		} else {
			p++;
		}
	}
	if (!any || last >= 1u << 20)
		return 0;
	return (unsigned int)((last + 1 + 31) / 32);
}

/*
 * Read the tree at @root (relative to @dirfd; NULL for the default), or the
 * directory @dirfd itself when @root is ".". Only this host's procfs (the
 * default root, or an instance named by descriptor) gets its nr_node_ids.
 */
static int td_pf_setup(struct taskdiag *td, int dirfd, const char *root)
{
	bool host = !root || !strcmp(root, TD_PF_DEFAULT_ROOT) || dirfd != AT_FDCWD;
	struct td_procfs *pf;
	long hz, page;

	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return -ENOMEM;
	pf->rootfd = openat(dirfd, root ? root : TD_PF_DEFAULT_ROOT,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pf->rootfd < 0) {
		int err = -errno;

		free(pf);
		return err;
	}
	hz = sysconf(_SC_CLK_TCK);
	page = sysconf(_SC_PAGESIZE);
	pf->tick_ns = 1000000000ull / (uint64_t)(hz > 0 ? hz : 100);
	pf->page_size = (uint64_t)(page > 0 ? page : 4096);
	/* nr_node_ids describes this host: only for its own /proc. */
	if (host)
		pf->mems_words = td_pf_mems_words();
	if (td->priv) {
		struct td_procfs *old = td->priv;

		close(old->rootfd);
		free(old);
	}
	td->priv = pf;
	return 0;
}

static int td_pf_open(struct taskdiag *td)
{
	const char *root = secure_getenv(TD_PF_ENV_ROOT);

	return td_pf_setup(td, AT_FDCWD, root && *root ? root : NULL);
}

static void td_pf_close(struct taskdiag *td)
{
	struct td_procfs *pf = td->priv;

	if (!pf)
		return;
	close(pf->rootfd);
	free(pf);
	td->priv = NULL;
}

int td_procfs_open_at(struct taskdiag *td, const char *root)
{
	int err;

	if (!td || (td->ops && td->ops != &td_procfs_backend))
		return -EINVAL;
	if (td->iter)
		return -EBUSY;
	err = td_pf_setup(td, AT_FDCWD, root);
	if (err)
		return err;
	td->backend = TASKDIAG_BACKEND_PROCFS;
	td->ops = &td_procfs_backend;
	return 0;
}

int td_procfs_open_fd(struct taskdiag *td, int fd)
{
	return fd < 0 ? td_pf_setup(td, AT_FDCWD, NULL) : td_pf_setup(td, fd, ".");
}

const struct td_backend td_procfs_backend = {
	.open = td_pf_open,
	.close = td_pf_close,
	.iter_start = td_pf_iter_start,
	.iter_next = td_pf_iter_next,
	.iter_end = td_pf_iter_end,
};
