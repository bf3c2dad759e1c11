// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the parsers of the procfs backend, pure functions of a
 * buffer (procfs.h). The tables say which line or field of which file
 * becomes which item, with what conversion.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "procfs.h"

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
	TD_ST_NS,	/* one id per pid-namespace level */
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
	SK("NStgid", NS, STATUS_NSTGID),
	SK("NSpid", NS, STATUS_NSPID),
	SK("NSpgid", NS, STATUS_NSPGID),
	SK("NSsid", NS, STATUS_NSSID),
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

_Static_assert(TASKDIAG_ITEM_STATUS_NSSID - TASKDIAG_ITEM_STATUS_NSTGID + 1 == TD_PF_NS_LINES,
	       "the NS* items are consecutive, one per px->ns[]");

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

/*
 * The lines of /proc/PID/smaps_rollup after its first (the [rollup]
 * header), in the order 6.1 and 6.12 print them (KSM: 6.7 and later), in kB.
 */
static const struct td_pf_key td_pf_rollup_keys[] = {
	SK("Rss", DEC, MEM_RSS),
	SK("Pss", DEC, MEM_PSS),
	SK("Pss_Dirty", DEC, MEM_PSS_DIRTY),
	SK("Pss_Anon", DEC, MEM_PSS_ANON),
	SK("Pss_File", DEC, MEM_PSS_FILE),
	SK("Pss_Shmem", DEC, MEM_PSS_SHMEM),
	SK("Shared_Clean", DEC, MEM_SHARED_CLEAN),
	SK("Shared_Dirty", DEC, MEM_SHARED_DIRTY),
	SK("Private_Clean", DEC, MEM_PRIVATE_CLEAN),
	SK("Private_Dirty", DEC, MEM_PRIVATE_DIRTY),
	SK("Referenced", DEC, MEM_REFERENCED),
	SK("Anonymous", DEC, MEM_ANONYMOUS),
	SK("KSM", DEC, MEM_KSM),
	SK("LazyFree", DEC, MEM_LAZYFREE),
	SK("AnonHugePages", DEC, MEM_ANON_HUGE_PAGES),
	SK("ShmemPmdMapped", DEC, MEM_SHMEM_PMD_MAPPED),
	SK("FilePmdMapped", DEC, MEM_FILE_PMD_MAPPED),
	SK("Shared_Hugetlb", DEC, MEM_SHARED_HUGETLB),
	SK("Private_Hugetlb", DEC, MEM_PRIVATE_HUGETLB),
	SK("Swap", DEC, MEM_SWAP),
	SK("SwapPss", DEC, MEM_SWAP_PSS),
	SK("Locked", DEC, MEM_LOCKED),
};

#define TD_PF_NROLLUPKEYS (sizeof(td_pf_rollup_keys) / sizeof(td_pf_rollup_keys[0]))

int td_pf_words_reserve(struct td_pf_words *w, size_t n)
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

void td_pf_parse_free(struct td_pf_parse *px)
{
	free(px->cpus.w);
	free(px->mems.w);
	free(px->groups_w.w);
	memset(&px->cpus, 0, sizeof(px->cpus));
	memset(&px->mems, 0, sizeof(px->mems));
	memset(&px->groups_w, 0, sizeof(px->groups_w));
	for (size_t i = 0; i < TD_PF_NS_LINES; i++) {
		free(px->ns[i].w);
		memset(&px->ns[i], 0, sizeof(px->ns[i]));
	}
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
int td_pf_parse_stat(char *buf, size_t len, struct td_pf_stat *st)
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
bool td_pf_stat_permitted(const struct td_pf_stat *st, bool io_read)
{
	if (io_read)
		return true;
	if (st->n > TD_SF_WCHAN && st->f[TD_SF_WCHAN] == 1)
		return true;
	if (st->n > TD_SF_END_CODE && st->f[TD_SF_START_CODE] == 1 && st->f[TD_SF_END_CODE] == 1)
		return false;
	return true;
}

void td_pf_emit_stat(struct td_pf_parse *px, const struct td_pf_stat *st, bool permitted)
{
	struct taskdiag_task *t = px->t;
	uint32_t groups = px->groups;
	unsigned int i;

	if (groups & TASKDIAG_GROUP_BASE)
		td_task_set_blob(t, TASKDIAG_ITEM_BASE_COMM, st->comm, st->comm_len);
	for (i = 0; i < st->n; i++) {
		const struct td_pf_stat_field *sf = &td_pf_stat_fields[i];
		uint64_t v = st->f[i];

		if (!td_pf_wants(groups, sf->item) || (sf->guarded && !permitted))
			continue;
		if (sf->conv == TD_CV_TICKS)
			v *= px->tick_ns;
		else if (sf->conv == TD_CV_PAGES)
			v *= px->page_size;
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
 * "Groups:\t4 5 6 \n" (or "NSpid:\t7\t1\n"): the first TD_PF_MAX_GROUPS
 * numbers into @w, all of them counted in *@count.
 */
static int td_pf_parse_decs(const char *p, const char *end, struct td_pf_words *w,
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
static void td_pf_trim_mems(const struct td_pf_parse *px, struct td_pf_words *w)
{
	size_t n = w->n;

	if (px->mems_words && n > px->mems_words) {
		size_t i;

		for (i = px->mems_words; i < n && !w->w[i]; i++)
			;
		if (i == n)
			w->n = px->mems_words;
		return;
	}
	if (px->mems_words)
		return;
	while (n > 1 && !w->w[n - 1])
		n--;
	w->n = n;
}

static void td_pf_unset(struct taskdiag_task *t, int item)
{
	const struct td_item_loc *l = &td_item_locs[item];

	*td_task_maskp(t, l) &= ~(1ull << l->bit);
}

/* One status line's value (at @p, the line ends at @end). */
static int td_pf_status_value(struct td_pf_parse *px, const struct td_pf_key *k, const char *p,
			      const char *end)
{
	struct taskdiag_task *t = px->t;
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
		w = &px->groups_w;
		err = td_pf_parse_decs(p, end, w, &v);
		if (!err)
			td_pf_set(t, TASKDIAG_ITEM_CRED_NGROUPS, v);
		break;
	case TD_ST_CPUS:
		w = &px->cpus;
		err = td_pf_parse_bitmap(p, end, w);
		break;
	case TD_ST_MEMS:
		w = &px->mems;
		err = td_pf_parse_bitmap(p, end, w);
		if (!err)
			td_pf_trim_mems(px, w);
		break;
	case TD_ST_NS:
		/* procfs prints at least the level of its own pid namespace. */
		w = &px->ns[k->item - TASKDIAG_ITEM_STATUS_NSTGID];
		err = td_pf_parse_decs(p, end, w, &v);
		if (!err && !w->n)
			err = -EBADMSG;
		break;
	default:
		return 0;
	}
	if (err == -EBADMSG) {
		/*
		 * A line we do not understand: leave it out. Its array is
		 * the one an earlier line of the same key (procfs never
		 * prints two) set the item from, and the parse has written
		 * over it, perhaps moved it: that item goes too.
		 */
		td_pf_unset(t, k->item);
		if (k->kind == TD_ST_GROUPS)
			td_pf_unset(t, TASKDIAG_ITEM_CRED_NGROUPS);
		return 0;
	}
	if (err)
		return err;
	td_task_set_blob(t, k->item, w->w, (uint32_t)(w->n * sizeof(uint32_t)));
	return 0;
}

/* Set the requested items status carries; *tgid from the Tgid line. */
int td_pf_parse_status(struct td_pf_parse *px, const char *buf, size_t len, pid_t *tgid)
{
	uint32_t groups = px->groups;
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
				err = td_pf_status_value(px, k, colon + 1, nl);
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

/*
 * "size resident shared text lib data dt", in pages. procfs always prints
 * lib and dt as 0, which the ABI says with their mask bits clear (the
 * module never sets them), so they are left out here too.
 */
int td_pf_parse_statm(struct td_pf_parse *px, const char *p)
{
	int i;

	for (i = 0; i < 7; i++) {
		int item = TASKDIAG_ITEM_STATM_SIZE + i;
		uint64_t v;

		p = td_scan_dec(td_skip_blank(p), &v);
		if (!p)
			return i ? 0 : -EBADMSG;
		if (item != TASKDIAG_ITEM_STATM_LIB && item != TASKDIAG_ITEM_STATM_DT)
			td_pf_set(px->t, item, v * px->page_size);
	}
	return 0;
}

/*
 * "key: number" lines of @keys (in the order the kernel prints them: the
 * lookup starts after the last line found), each number times @scale.
 */
static void td_pf_parse_keyed(struct taskdiag_task *t, const char *buf, size_t len,
			      const struct td_pf_key *keys, size_t nkeys, uint64_t scale)
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
			for (i = 0; i < nkeys; i++, cur++) {
				const struct td_pf_key *k;
				uint64_t v;

				if (cur == nkeys)
					cur = 0;
				k = &keys[cur];
				if (k->len != klen || memcmp(k->key, p, klen))
					continue;
				if (td_scan_dec(td_skip_blank(colon + 1), &v) && v <= UINT64_MAX / scale)
					td_pf_set(t, k->item, v * scale);
				cur++;
				break;
			}
		}
		p = nl + 1;
	}
}

void td_pf_parse_io(struct td_pf_parse *px, const char *buf, size_t len)
{
	td_pf_parse_keyed(px->t, buf, len, td_pf_io_keys, TD_PF_NIOKEYS, 1);
}

void td_pf_parse_rollup(struct taskdiag_task *t, const char *buf, size_t len)
{
	td_pf_parse_keyed(t, buf, len, td_pf_rollup_keys, TD_PF_NROLLUPKEYS, 1024);
}
