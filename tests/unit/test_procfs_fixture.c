// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The procfs backend against a /proc tree this test writes at run time (in
 * a mkdtemp() folder) and opens with td_procfs_open_at(): every item of
 * every group is compared with the value the test computed from the numbers
 * it wrote (ticks * 1e9 / CLK_TCK, pages * page size, kB * 1024), in every
 * scope, with the corner cases procfs has: a comm with spaces and
 * parentheses, a kernel thread (no memory lines, empty cmdline), a task
 * whose io file the reader may not open, tasks that vanish or are being
 * released while the dump runs, entries that are not pids.
 *
 * The last test compares the backend on the live /proc with what the test
 * process knows of itself (getpid(), getppid(), getuid(), /proc/self/comm):
 * a difference there is a bug of the backend, since both read the same
 * kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/capability.h>

#include <cmocka.h>

#include "internal.h"

/* ---- the fixture's processes ------------------------------------------ */

struct fx {
	int pid, ppid, pgid, sid, tracer;
	const char *comm;
	char state;
	int tty, tpgid, priority, nice;
	int wchan;
	bool hidden;	/* a reader that fails procfs's ptrace check: start/end_code 1, io mode 000 */
	bool kthread;	/* no mm: no memory lines in status, statm zeros, empty cmdline */
	bool released;	/* pgid and sid -1 in stat: being released, skipped */
	int nthreads;
	int tids[3];
	const char *cmdline;
	size_t cmdline_len;
	int ngroups;
	uint32_t groups[3];
};

static const struct fx fxs[] = {
	{ .pid = 1, .ppid = 0, .pgid = 1, .sid = 1, .comm = "init", .state = 'S', .tpgid = -1,
	  .priority = 20, .wchan = 1, .nthreads = 1, .tids = { 1 },
	  .cmdline = "/sbin/init\0splash", .cmdline_len = 18 },
	{ .pid = 7, .ppid = 1, .pgid = 7, .sid = 7, .comm = "secret", .state = 'S', .tpgid = -1,
	  .priority = 0, .nice = -20, .hidden = true, .nthreads = 1, .tids = { 7 },
	  .cmdline = "secret", .cmdline_len = 7 },
	{ .pid = 30, .ppid = 1000, .pgid = 1000, .sid = 1, .tracer = 1, .comm = "a) (b",
	  .state = 'R', .tty = 34817, .tpgid = 1000, .priority = -51, .nthreads = 1,
	  .tids = { 30 }, .cmdline = "child\0--flag", .cmdline_len = 13, .ngroups = 3,
	  .groups = { 4, 24, 27 } },
	{ .pid = 55, .ppid = 1, .pgid = -1, .sid = -1, .comm = "dying", .state = 'Z', .tpgid = -1,
	  .priority = 20, .released = true, .nthreads = 1, .tids = { 55 },
	  .cmdline = "dying", .cmdline_len = 6 },
	{ .pid = 1000, .ppid = 1, .pgid = 1000, .sid = 1, .comm = "main proc", .state = 'S',
	  .tty = 34817, .tpgid = 1000, .priority = 39, .nice = 19, .nthreads = 3,
	  .tids = { 1000, 1001, 1002 }, .cmdline = "main\0-x\0\xff\x01", .cmdline_len = 10,
	  .ngroups = 1, .groups = { 1000 } },
	{ .pid = 4000, .ppid = 1000, .pgid = 0, .sid = 0, .comm = "kworker/0:1", .state = 'I',
	  .tpgid = -1, .priority = 20, .kthread = true, .nthreads = 1, .tids = { 4000 } },
};

#define N_FX (sizeof(fxs) / sizeof(fxs[0]))
#define PID_VANISHED 200	/* an empty directory: exited before anything was read */
#define PID_HALF_GONE 201	/* stat, then nothing: exited between two reads */

static char root[200];
static uint64_t hz, page;

/* Which file a record was read from: per-thread values differ by 500. */
static uint64_t base_of(int tid, bool thread_file)
{
	return (uint64_t)tid * 1000 + (thread_file ? 500 : 0);
}

static int exit_signal_of(const struct fx *f, int tid)
{
	return tid == f->pid ? 17 : -1;	/* -1 for threads that are not the leader */
}

/* stat fields 3..52 as man 5 proc numbers them; signed ones returned as such. */
static int64_t stat_field(const struct fx *f, int tid, bool thread_file, int field)
{
	uint64_t base = base_of(tid, thread_file);

	switch (field) {
	case 4:
		return f->ppid;
	case 5:
		return f->pgid;
	case 6:
		return f->sid;
	case 7:
		return f->tty;
	case 8:
		return f->tpgid;
	case 9:
		return (int64_t)(0x80400100u + (uint32_t)tid);	/* u32 above INT32_MAX */
	case 18:
		return f->priority;
	case 19:
		return f->nice;
	case 20:
		return f->nthreads;
	case 21:	/* itrealvalue */
	case 29:	/* kstkesp */
	case 30:	/* kstkeip */
	case 36:	/* nswap */
	case 37:	/* cnswap */
		return 0;
	case 25:
		return -1;	/* rsslim RLIM_INFINITY, printed %lu: all ones */
	case 26:
	case 27:
		return f->hidden ? 1 : (int64_t)(base + (uint64_t)field) * 4096;
	case 35:
		return f->wchan;
	case 38:
		return exit_signal_of(f, tid);
	case 52:
		return f->hidden ? 0 : 256;
	default:
		return (int64_t)(base + (uint64_t)field);
	}
}

static bool stat_field_signed(int field)
{
	return field == 5 || field == 6 || field == 8 || field == 18 || field == 19 ||
	       field == 38 || field == 52;
}

/* ---- writing the tree ------------------------------------------------- */

struct sb {
	char b[8192];
	size_t n;
};

__attribute__((format(printf, 2, 3))) static void sb_printf(struct sb *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(s->b + s->n, sizeof(s->b) - s->n, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(s->b) - s->n);
	s->n += (size_t)n;
}

static void write_file(const char *dir, const char *name, const void *data, size_t len,
		       mode_t mode)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) && errno != EEXIST)
		fail_msg("%s: %s", path, strerror(errno));
}

static void write_stat(const char *dir, const struct fx *f, int tid, bool thread_file)
{
	struct sb s = { .n = 0 };

	sb_printf(&s, "%d (%s) %c", tid, f->comm, f->state);
	for (int field = 4; field <= 52; field++) {
		int64_t v = stat_field(f, tid, thread_file, field);

		if (stat_field_signed(field))
			sb_printf(&s, " %lld", (long long)v);
		else
			sb_printf(&s, " %llu", (unsigned long long)v);
	}
	sb_printf(&s, "\n");
	write_file(dir, "stat", s.b, s.n, 0444);
}

static void write_statm(const char *dir, const struct fx *f, uint64_t base)
{
	struct sb s = { .n = 0 };

	if (f->kthread)
		sb_printf(&s, "0 0 0 0 0 0 0\n");
	else
		sb_printf(&s, "%llu %llu %llu %llu 0 %llu 0\n", (unsigned long long)base + 1,
			  (unsigned long long)base + 2, (unsigned long long)base + 3,
			  (unsigned long long)base + 4, (unsigned long long)base + 6);
	write_file(dir, "statm", s.b, s.n, 0444);
}

static void write_io(const char *dir, const struct fx *f, uint64_t base)
{
	static const char *const keys[] = { "rchar", "wchar", "syscr", "syscw", "read_bytes",
					    "write_bytes", "cancelled_write_bytes" };
	struct sb s = { .n = 0 };

	for (int i = 0; i < 7; i++)
		sb_printf(&s, "%s: %llu\n", keys[i], (unsigned long long)base + 1 + (unsigned)i);
	/* procfs: mode 0400 and refused to readers that fail its check */
	write_file(dir, "io", s.b, s.n, f->hidden ? 0000 : 0400);
}

static const char *const vm_keys[] = { "VmPeak", "VmSize", "VmLck", "VmPin", "VmHWM",
				       "VmRSS", "RssAnon", "RssFile", "RssShmem", "VmData",
				       "VmStk", "VmExe", "VmLib", "VmPTE", "VmSwap",
				       "HugetlbPages" };

#define NS_LEVELS 3

/*
 * The NStgid, NSpid, NSpgid and NSsid lines of thread @tid of @f, into
 * @ids[line][level]; returns the number of levels. Process 1000 lives two
 * pid namespaces below the reader's (3 levels), where it is 10 and then 1,
 * its threads 10.. and 1..; its session (1) is led from the reader's
 * namespace, so 0 below it. Every other process has 1 level.
 */
static int ns_ids(const struct fx *f, int tid, uint32_t ids[4][NS_LEVELS])
{
	const int v[4] = { f->pid, tid, f->pgid, f->sid };
	int n = f->pid == 1000 ? NS_LEVELS : 1;

	for (int i = 0; i < 4; i++) {
		ids[i][0] = (uint32_t)v[i];
		ids[i][1] = v[i] >= 1000 ? (uint32_t)(v[i] - 990) : 0;
		ids[i][2] = v[i] >= 1000 ? (uint32_t)(v[i] - 999) : 0;
	}
	return n;
}

/* As 6.1's proc_pid_status() prints it, tabs and all. */
static void write_status(const char *dir, const struct fx *f, int tid, uint64_t base)
{
	static const char *const ns_keys[] = { "NStgid", "NSpid", "NSpgid", "NSsid" };
	uint32_t ids[4][NS_LEVELS];
	struct sb s = { .n = 0 };
	int n;

	sb_printf(&s, "Name:\t%s\nUmask:\t%04o\nState:\t%c (whatever)\n", f->comm,
		  f->kthread ? 0 : 022, f->state);
	sb_printf(&s, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t%d\n", f->pid, tid,
		  f->ppid, f->tracer);
	sb_printf(&s, "Uid:\t%d\t%d\t%d\t%d\n", tid, tid + 1, tid + 2, tid + 3);
	sb_printf(&s, "Gid:\t%d\t%d\t%d\t%d\n", tid + 10, tid + 11, tid + 12, tid + 13);
	sb_printf(&s, "FDSize:\t%d\nGroups:\t", 64 + tid);
	for (int g = 0; g < f->ngroups; g++)
		sb_printf(&s, "%s%u", g ? " " : "", f->groups[g]);
	sb_printf(&s, " ");
	n = ns_ids(f, tid, ids);
	for (int i = 0; i < 4; i++) {
		sb_printf(&s, "\n%s:", ns_keys[i]);
		for (int g = 0; g < n; g++)
			sb_printf(&s, "\t%d", (int32_t)ids[i][g]);	/* -1 for a released one */
	}
	sb_printf(&s, "\n");
	if (!f->kthread)
		for (int k = 0; k < 16; k++)
			sb_printf(&s, "%s:\t%8llu kB\n", vm_keys[k],
				  (unsigned long long)base + 101 + (unsigned)k);
	if (!f->kthread)
		sb_printf(&s, "CoreDumping:\t0\nTHP_enabled:\t1\n");
	sb_printf(&s, "Threads:\t%d\nSigQ:\t%d/95381\n", f->nthreads, tid % 5);
	sb_printf(&s, "SigPnd:\t%016llx\nShdPnd:\t%016llx\nSigBlk:\t%016llx\n",
		  (unsigned long long)base + 1, 0x8000000000000000ull,
		  (unsigned long long)base + 3);
	sb_printf(&s, "SigIgn:\t%016llx\nSigCgt:\t%016llx\n", (unsigned long long)base + 4,
		  (unsigned long long)base + 5);
	sb_printf(&s, "CapInh:\t%016llx\nCapPrm:\t%016llx\nCapEff:\t%016llx\n", 0ull,
		  0x1ffffffffffull, (unsigned long long)base + 6);
	sb_printf(&s, "CapBnd:\t%016llx\nCapAmb:\t%016llx\n", 0x1ffffffffffull,
		  (unsigned long long)base + 7);
	sb_printf(&s, "NoNewPrivs:\t%d\nSeccomp:\t%d\nSeccomp_filters:\t%d\n", tid % 2, tid % 3,
		  tid % 4);
	sb_printf(&s, "Speculation_Store_Bypass:\tthread vulnerable\n"
		      "SpeculationIndirectBranch:\tconditional enabled\n");
	sb_printf(&s, "Cpus_allowed:\tff,ffffffff\nCpus_allowed_list:\t0-39\n");
	sb_printf(&s, "Mems_allowed:\t00000000,00000000,00000001\nMems_allowed_list:\t0\n");
	sb_printf(&s, "voluntary_ctxt_switches:\t%llu\nnonvoluntary_ctxt_switches:\t%llu\n",
		  (unsigned long long)base + 201, (unsigned long long)base + 202);
	write_file(dir, "status", s.b, s.n, 0444);
}

static void write_task_dir(const char *dir, const struct fx *f, int tid, bool thread_file)
{
	uint64_t base = base_of(tid, thread_file);

	make_dir(dir);
	write_stat(dir, f, tid, thread_file);
	write_statm(dir, f, base);
	write_status(dir, f, tid, base);
	write_io(dir, f, base);
	write_file(dir, "cmdline", f->cmdline ? f->cmdline : "", f->cmdline_len, 0444);
}

static void build_tree(void)
{
	char dir[300], sub[400];
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/td_fixture.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root))
		fail_msg("mkdtemp: %s", strerror(errno));
	/* Written in an order that is not the pid order. */
	for (size_t i = N_FX; i-- > 0;) {
		const struct fx *f = &fxs[i];

		snprintf(dir, sizeof(dir), "%s/%d", root, f->pid);
		write_task_dir(dir, f, f->pid, false);
		snprintf(dir, sizeof(dir), "%s/%d/task", root, f->pid);
		make_dir(dir);
		for (int t = f->nthreads; t-- > 0;) {
			snprintf(sub, sizeof(sub), "%s/%d", dir, f->tids[t]);
			write_task_dir(sub, f, f->tids[t], true);
		}
	}
	snprintf(dir, sizeof(dir), "%s/%d", root, PID_VANISHED);
	make_dir(dir);
	snprintf(dir, sizeof(dir), "%s/%d/task", root, PID_VANISHED);
	make_dir(dir);
	snprintf(dir, sizeof(dir), "%s/%d", root, PID_HALF_GONE);
	make_dir(dir);
	write_stat(dir, &fxs[0], PID_HALF_GONE, false);
	/* Entries /proc has that are not pids. */
	snprintf(dir, sizeof(dir), "%s/self", root);
	assert_int_equal(symlink("1000", dir), 0);
	snprintf(dir, sizeof(dir), "%s/sys", root);
	make_dir(dir);
	snprintf(dir, sizeof(dir), "%s/0", root);
	make_dir(dir);
	snprintf(dir, sizeof(dir), "%s/012", root);
	make_dir(dir);
	snprintf(dir, sizeof(dir), "%s/12abc", root);
	make_dir(dir);
	write_file(root, "uptime", "1.00 2.00\n", 10, 0444);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* ---- a reader that fails procfs's checks, even as root ---------------- */

/*
 * Root opens a mode-000 file through CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH:
 * take both out of the effective set while the fixture is read (they stay
 * permitted, and come back at teardown).
 */
static void set_dac_caps(bool on)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	const uint32_t dac = (1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH);

	if (syscall(SYS_capget, &h, d))
		fail_msg("capget: %s", strerror(errno));
	if (on)
		d[0].effective |= d[0].permitted & dac;
	else
		d[0].effective &= ~dac;
	if (syscall(SYS_capset, &h, d))
		fail_msg("capset: %s", strerror(errno));
}

static int setup_tree(void **state)
{
	char path[512];
	int fd;

	(void)state;
	hz = (uint64_t)sysconf(_SC_CLK_TCK);
	page = (uint64_t)sysconf(_SC_PAGESIZE);
	build_tree();
	set_dac_caps(false);
	/* The prerequisite of the io cases: a mode-000 file is refused. */
	snprintf(path, sizeof(path), "%s/7/io", root);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		close(fd);
		print_error("%s is readable despite mode 000\n", path);
		return -1;
	}
	return 0;
}

static int teardown_tree(void **state)
{
	(void)state;
	set_dac_caps(true);
	if (root[0])
		nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

/* ---- expected records ------------------------------------------------- */

struct expect {
	bool has[TASKDIAG_ITEM__COUNT];
	uint64_t u[TASKDIAG_ITEM__COUNT];
	int64_t s[TASKDIAG_ITEM__COUNT];
	const void *p[TASKDIAG_ITEM__COUNT];
	size_t len[TASKDIAG_ITEM__COUNT];
	uint32_t words[3][4];	/* cpus, mems, groups */
	uint32_t ns[4][NS_LEVELS];	/* NStgid, NSpid, NSpgid, NSsid */
};

static bool wanted(uint32_t groups, int item)
{
	uint32_t g = taskdiag_item_info((enum taskdiag_item)item)->group;

	return !g || (groups & g);
}

static void want_u(struct expect *e, uint32_t groups, int item, uint64_t v)
{
	if (!wanted(groups, item))
		return;
	e->has[item] = true;
	e->u[item] = v;
}

static void want_s(struct expect *e, uint32_t groups, int item, int64_t v)
{
	if (!wanted(groups, item))
		return;
	e->has[item] = true;
	e->s[item] = v;
}

static void want_b(struct expect *e, uint32_t groups, int item, const void *p, size_t len)
{
	if (!wanted(groups, item))
		return;
	e->has[item] = true;
	e->p[item] = p;
	e->len[item] = len;
}

/*
 * man 5 proc's stat field -> item, and how procfs prints it: 'T' clock
 * ticks, 'P' pages, 'G' guarded (left out for a reader procfs refuses).
 */
static const struct {
	int field;
	enum taskdiag_item item;
	char conv;
	bool guarded;
} stat_map[] = {
	{ 4, TASKDIAG_ITEM_BASE_PPID, 0, false },
	{ 5, TASKDIAG_ITEM_BASE_PGID, 0, false },
	{ 6, TASKDIAG_ITEM_BASE_SID, 0, false },
	{ 7, TASKDIAG_ITEM_BASE_TTY_NR, 0, false },
	{ 8, TASKDIAG_ITEM_BASE_TPGID, 0, false },
	{ 9, TASKDIAG_ITEM_BASE_FLAGS, 0, false },
	{ 10, TASKDIAG_ITEM_STAT_MINFLT, 0, false },
	{ 11, TASKDIAG_ITEM_STAT_CMINFLT, 0, false },
	{ 12, TASKDIAG_ITEM_STAT_MAJFLT, 0, false },
	{ 13, TASKDIAG_ITEM_STAT_CMAJFLT, 0, false },
	{ 14, TASKDIAG_ITEM_STAT_UTIME, 'T', false },
	{ 15, TASKDIAG_ITEM_STAT_STIME, 'T', false },
	{ 16, TASKDIAG_ITEM_STAT_CUTIME, 'T', false },
	{ 17, TASKDIAG_ITEM_STAT_CSTIME, 'T', false },
	{ 18, TASKDIAG_ITEM_STAT_PRIORITY, 0, false },
	{ 19, TASKDIAG_ITEM_STAT_NICE, 0, false },
	{ 20, TASKDIAG_ITEM_BASE_NUM_THREADS, 0, false },
	{ 22, TASKDIAG_ITEM_BASE_START_TIME, 'T', false },
	{ 23, TASKDIAG_ITEM_STAT_VSIZE, 0, false },
	{ 24, TASKDIAG_ITEM_STAT_RSS, 'P', false },
	{ 25, TASKDIAG_ITEM_STAT_RSSLIM, 0, false },
	{ 26, TASKDIAG_ITEM_STAT_START_CODE, 0, true },
	{ 27, TASKDIAG_ITEM_STAT_END_CODE, 0, true },
	{ 28, TASKDIAG_ITEM_STAT_START_STACK, 0, true },
	{ 29, TASKDIAG_ITEM_STAT_KSTK_ESP, 0, true },
	{ 30, TASKDIAG_ITEM_STAT_KSTK_EIP, 0, true },
	{ 35, TASKDIAG_ITEM_STAT_WCHAN, 0, true },
	{ 38, TASKDIAG_ITEM_STAT_EXIT_SIGNAL, 0, false },
	{ 39, TASKDIAG_ITEM_STAT_PROCESSOR, 0, false },
	{ 40, TASKDIAG_ITEM_STAT_RT_PRIORITY, 0, false },
	{ 41, TASKDIAG_ITEM_STAT_POLICY, 0, false },
	{ 42, TASKDIAG_ITEM_STAT_BLKIO_DELAY, 'T', false },
	{ 43, TASKDIAG_ITEM_STAT_GUEST_TIME, 'T', false },
	{ 44, TASKDIAG_ITEM_STAT_CGUEST_TIME, 'T', false },
	{ 45, TASKDIAG_ITEM_STAT_START_DATA, 0, true },
	{ 46, TASKDIAG_ITEM_STAT_END_DATA, 0, true },
	{ 47, TASKDIAG_ITEM_STAT_START_BRK, 0, true },
	{ 48, TASKDIAG_ITEM_STAT_ARG_START, 0, true },
	{ 49, TASKDIAG_ITEM_STAT_ARG_END, 0, true },
	{ 50, TASKDIAG_ITEM_STAT_ENV_START, 0, true },
	{ 51, TASKDIAG_ITEM_STAT_ENV_END, 0, true },
	{ 52, TASKDIAG_ITEM_STAT_EXIT_CODE, 0, true },
};

static void expect_task(struct expect *e, const struct fx *f, int tid, bool thread_file,
			uint32_t groups)
{
	uint64_t base = base_of(tid, thread_file);
	int ngroups_item = taskdiag_item_lookup("cred.ngroups");
	int levels;

	memset(e, 0, sizeof(*e));
	want_u(e, groups, TASKDIAG_ITEM_PID, (uint64_t)tid);
	want_u(e, groups, TASKDIAG_ITEM_TGID, (uint64_t)f->pid);

	/* base and stat, from stat */
	want_u(e, groups, TASKDIAG_ITEM_BASE_STATE, (uint64_t)(unsigned char)f->state);
	want_b(e, groups, TASKDIAG_ITEM_BASE_COMM, f->comm, strlen(f->comm));
	want_u(e, groups, TASKDIAG_ITEM_BASE_TRACER_PID, (uint64_t)f->tracer);	/* from status */
	for (size_t i = 0; i < sizeof(stat_map) / sizeof(stat_map[0]); i++) {
		int64_t v = stat_field(f, tid, thread_file, stat_map[i].field);
		enum taskdiag_item item = stat_map[i].item;

		if (stat_map[i].guarded && f->hidden)
			continue;
		if (stat_map[i].conv == 'T')
			v = (int64_t)((uint64_t)v * 1000000000ull / hz);
		else if (stat_map[i].conv == 'P')
			v = (int64_t)((uint64_t)v * page);
		if (taskdiag_item_info(item)->type == TASKDIAG_TYPE_S64)
			want_s(e, groups, item, v);
		else
			want_u(e, groups, item, (uint64_t)v);
	}

	/*
	 * statm: pages; lib and dt (4 and 6), always 0 in procfs, are absent
	 * (the ABI's bits for them are never set)
	 */
	for (int i = 0; i < 7; i++) {
		uint64_t pages = f->kthread ? 0 : base + 1 + (unsigned)i;

		if (i != 4 && i != 6)
			want_u(e, groups, TASKDIAG_ITEM_STATM_SIZE + i, pages * page);
	}

	/* io: refused to this reader for hidden tasks, so absent */
	if (!f->hidden)
		for (int i = 0; i < 7; i++)
			want_u(e, groups, TASKDIAG_ITEM_IO_RCHAR + i, base + 1 + (unsigned)i);

	/* status */
	want_u(e, groups, TASKDIAG_ITEM_STATUS_UMASK, f->kthread ? 0 : 022);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_FDSIZE, 64 + (unsigned)tid);
	if (!f->kthread) {
		static const enum taskdiag_item vm_items[16] = {
			TASKDIAG_ITEM_STATUS_VM_PEAK, TASKDIAG_ITEM__COUNT /* VmSize */,
			TASKDIAG_ITEM_STATUS_VM_LCK, TASKDIAG_ITEM_STATUS_VM_PIN,
			TASKDIAG_ITEM_STATUS_VM_HWM, TASKDIAG_ITEM_STATUS_VM_RSS,
			TASKDIAG_ITEM_STATUS_RSS_ANON, TASKDIAG_ITEM_STATUS_RSS_FILE,
			TASKDIAG_ITEM_STATUS_RSS_SHMEM, TASKDIAG_ITEM_STATUS_VM_DATA,
			TASKDIAG_ITEM_STATUS_VM_STK, TASKDIAG_ITEM_STATUS_VM_EXE,
			TASKDIAG_ITEM_STATUS_VM_LIB, TASKDIAG_ITEM_STATUS_VM_PTE,
			TASKDIAG_ITEM_STATUS_VM_SWAP, TASKDIAG_ITEM_STATUS_HUGETLB_PAGES,
		};

		for (int k = 0; k < 16; k++)
			if (vm_items[k] != TASKDIAG_ITEM__COUNT)
				want_u(e, groups, vm_items[k], (base + 101 + (unsigned)k) * 1024);
		want_u(e, groups, TASKDIAG_ITEM_STATUS_CORE_DUMPING, 0);
		want_u(e, groups, TASKDIAG_ITEM_STATUS_THP_ENABLED, 1);
	}
	want_u(e, groups, TASKDIAG_ITEM_STATUS_SIGQ_QUEUED, (uint64_t)tid % 5);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_SIGQ_LIMIT, 95381);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_SIG_PENDING, base + 1);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_SIG_SHARED_PENDING, 0x8000000000000000ull);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_SIG_BLOCKED, base + 3);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_SIG_IGNORED, base + 4);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_SIG_CAUGHT, base + 5);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_NO_NEW_PRIVS, (uint64_t)tid % 2);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_SECCOMP, (uint64_t)tid % 3);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_SECCOMP_FILTERS, (uint64_t)tid % 4);
	e->words[0][0] = 0xffffffffu;	/* "ff,ffffffff": high word first */
	e->words[0][1] = 0xff;
	want_b(e, groups, TASKDIAG_ITEM_STATUS_CPUS_ALLOWED, e->words[0], 8);
	e->words[1][0] = 1;		/* high zero words are not the module's */
	want_b(e, groups, TASKDIAG_ITEM_STATUS_MEMS_ALLOWED, e->words[1], 4);
	levels = ns_ids(f, tid, e->ns);
	for (int i = 0; i < 4; i++)
		want_b(e, groups, TASKDIAG_ITEM_STATUS_NSTGID + i, e->ns[i], (size_t)levels * 4);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_VOLUNTARY_CTXT_SWITCHES, base + 201);
	want_u(e, groups, TASKDIAG_ITEM_STATUS_NONVOLUNTARY_CTXT_SWITCHES, base + 202);

	/* statm's locked: status's VmLck (0 without it), only when status is read too */
	if (groups & TASKDIAG_GROUP_STATUS)
		want_u(e, groups, TASKDIAG_ITEM_STATM_LOCKED, f->kthread ? 0 : (base + 103) * 1024);

	/* cred, from status */
	for (int i = 0; i < 4; i++) {
		want_u(e, groups, TASKDIAG_ITEM_CRED_UID + i, (uint64_t)(tid + i));
		want_u(e, groups, TASKDIAG_ITEM_CRED_GID + i, (uint64_t)(tid + 10 + i));
	}
	memcpy(e->words[2], f->groups, sizeof(f->groups));
	want_b(e, groups, TASKDIAG_ITEM_CRED_GROUPS, e->words[2], (size_t)f->ngroups * 4);
	if (ngroups_item >= 0)
		want_u(e, groups, ngroups_item, (uint64_t)f->ngroups);
	want_u(e, groups, TASKDIAG_ITEM_CRED_CAP_INHERITABLE, 0);
	want_u(e, groups, TASKDIAG_ITEM_CRED_CAP_PERMITTED, 0x1ffffffffffull);
	want_u(e, groups, TASKDIAG_ITEM_CRED_CAP_EFFECTIVE, base + 6);
	want_u(e, groups, TASKDIAG_ITEM_CRED_CAP_BOUNDING, 0x1ffffffffffull);
	want_u(e, groups, TASKDIAG_ITEM_CRED_CAP_AMBIENT, base + 7);

	/* cmdline: absent when empty, as the module sends none for kernel threads */
	if (f->cmdline_len)
		want_b(e, groups, TASKDIAG_ITEM_CMDLINE, f->cmdline, f->cmdline_len);
}

/* Compare every item of @t with @e. */
static void check_task(const struct taskdiag_task *t, const struct expect *e, const char *what)
{
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = taskdiag_item_info((enum taskdiag_item)i);
		enum taskdiag_item item = (enum taskdiag_item)i;
		uint64_t u;
		int64_t s;
		const char *str;
		const void *data;
		size_t len;

		if (taskdiag_task_has(t, item) != e->has[i])
			fail_msg("%s: %s.%s is %s, want %s", what, r->group_name, r->name,
				 taskdiag_task_has(t, item) ? "present" : "absent",
				 e->has[i] ? "present" : "absent");
		if (!e->has[i])
			continue;
		switch (r->type) {
		case TASKDIAG_TYPE_U64:
			assert_int_equal(taskdiag_task_get_u64(t, item, &u), 0);
			if (u != e->u[i])
				fail_msg("%s: %s.%s = %llu, want %llu", what, r->group_name,
					 r->name, (unsigned long long)u,
					 (unsigned long long)e->u[i]);
			break;
		case TASKDIAG_TYPE_S64:
			assert_int_equal(taskdiag_task_get_s64(t, item, &s), 0);
			if (s != e->s[i])
				fail_msg("%s: %s.%s = %lld, want %lld", what, r->group_name,
					 r->name, (long long)s, (long long)e->s[i]);
			break;
		case TASKDIAG_TYPE_STRING:
			assert_int_equal(taskdiag_task_get_string(t, item, &str), 0);
			if (strlen(str) != e->len[i] || memcmp(str, e->p[i], e->len[i]))
				fail_msg("%s: %s.%s = \"%s\", want \"%.*s\"", what, r->group_name,
					 r->name, str, (int)e->len[i], (const char *)e->p[i]);
			break;
		case TASKDIAG_TYPE_BYTES:
		case TASKDIAG_TYPE_U32_ARRAY:
			assert_int_equal(taskdiag_task_get_bytes(t, item, &data, &len), 0);
			if (len != e->len[i] || (len && memcmp(data, e->p[i], len)))
				fail_msg("%s: %s.%s: %zu bytes, want %zu (or other bytes)", what,
					 r->group_name, r->name, len, e->len[i]);
			break;
		}
	}
}

static const struct fx *fx_of(int pid)
{
	for (size_t i = 0; i < N_FX; i++)
		if (fxs[i].pid == pid)
			return &fxs[i];
	return NULL;
}

static const struct fx *fx_of_tid(int tid)
{
	for (size_t i = 0; i < N_FX; i++)
		for (int t = 0; t < fxs[i].nthreads; t++)
			if (fxs[i].tids[t] == tid)
				return &fxs[i];
	return NULL;
}

/* ---- running requests ------------------------------------------------- */

/* When >= 0, open_fixture() names the fixture by this descriptor instead. */
static int fixture_fd = -1;

static struct taskdiag *open_fixture(void)
{
	struct taskdiag *td;

	assert_int_equal(taskdiag_open(&td, TASKDIAG_BACKEND_PROCFS), 0);
	if (fixture_fd >= 0)
		assert_int_equal(taskdiag_set_procfs(td, fixture_fd), 0);
	else
		assert_int_equal(td_procfs_open_at(td, root), 0);
	assert_int_equal(taskdiag_get_backend(td), TASKDIAG_BACKEND_PROCFS);
	return td;
}

/*
 * Run @req over the fixture and check the pids that come back, in order,
 * and, for the tasks of the fixture, every item. Pids in @tolerated may
 * come or not (what their partial files reveal depends on what is read).
 */
static void run_and_check(const struct taskdiag_request *req, const int *want_pids,
			  size_t n_want, bool thread_files, const int *tolerated, size_t n_tol)
{
	struct taskdiag *td = open_fixture();
	struct taskdiag_iter *it;
	const struct taskdiag_task *t;
	struct expect *e = malloc(sizeof(*e));
	size_t got = 0;
	int ret, last = 0;
	char what[128];

	assert_non_null(e);
	assert_int_equal(taskdiag_iter_start(td, req, &it), 0);
	while ((ret = taskdiag_iter_next(it, &t)) == 1) {
		int pid = taskdiag_task_pid(t);
		bool tol = false;

		if (pid <= last)
			fail_msg("pid %d after %d: not in ascending order", pid, last);
		last = pid;
		for (size_t k = 0; k < n_tol; k++)
			tol |= tolerated[k] == pid;
		if (tol)
			continue;
		if (got >= n_want || want_pids[got] != pid)
			fail_msg("scope %d groups %#x: got pid %d, want %d", req->scope, req->groups,
				 pid, got < n_want ? want_pids[got] : -1);
		snprintf(what, sizeof(what), "scope %d groups %#x pid %d", req->scope, req->groups,
			 pid);
		expect_task(e, thread_files ? fx_of_tid(pid) : fx_of(pid), pid, thread_files,
			    req->groups);
		check_task(t, e, what);
		got++;
	}
	assert_int_equal(ret, 0);
	if (got != n_want)
		fail_msg("scope %d groups %#x: %zu records, want %zu", req->scope, req->groups, got,
			 n_want);
	taskdiag_iter_end(it);
	taskdiag_close(td);
	free(e);
}

static void test_all_processes(void **state)
{
	static const int want[] = { 1, 7, 30, 1000, 4000 };
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_ALL_PROCESSES,
					.groups = TASKDIAG_GROUP_ALL };

	(void)state;
	run_and_check(&req, want, 5, false, NULL, 0);
	req.scope = 0;	/* the default scope */
	run_and_check(&req, want, 5, false, NULL, 0);
}

/* One group at a time: only that group's items (and pid, tgid) come back. */
static void test_each_group_alone(void **state)
{
	static const int want[] = { 1, 7, 30, 1000, 4000 };
	static const int released[] = { 55, PID_HALF_GONE };

	(void)state;
	for (uint32_t g = 1; g <= TASKDIAG_GROUP_CMDLINE; g <<= 1) {
		struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_ALL_PROCESSES,
						.groups = g };

		/*
		 * 55's stat says it is being released, 201 has nothing but
		 * stat: a group that does not read those files may list them.
		 */
		run_and_check(&req, want, 5, false, released, 2);
	}
}

static void test_all_threads(void **state)
{
	static const int want[] = { 1, 7, 30, 1000, 1001, 1002, 4000 };
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_ALL_THREADS,
					.groups = TASKDIAG_GROUP_ALL };

	(void)state;
	run_and_check(&req, want, 7, true, NULL, 0);
}

static void test_task(void **state)
{
	static const int want[] = { 1000 };
	static const int want_hidden[] = { 7 };
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_TASK, .pid = 1000,
					.groups = TASKDIAG_GROUP_ALL };

	(void)state;
	run_and_check(&req, want, 1, false, NULL, 0);
	req.pid = 7;
	run_and_check(&req, want_hidden, 1, false, NULL, 0);
	req.groups = 0;	/* pid and tgid only */
	run_and_check(&req, want_hidden, 1, false, NULL, 0);
}

static void test_threads(void **state)
{
	static const int want[] = { 1000, 1001, 1002 };
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_THREADS, .pid = 1000,
					.groups = TASKDIAG_GROUP_ALL };

	(void)state;
	run_and_check(&req, want, 3, true, NULL, 0);
}

static void test_children(void **state)
{
	static const int of_1000[] = { 30, 4000 };
	static const int of_1[] = { 7, 1000 };
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_CHILDREN, .pid = 1000,
					.groups = TASKDIAG_GROUP_ALL };

	(void)state;
	run_and_check(&req, of_1000, 2, false, NULL, 0);
	/* the filter reads stat even when no group needs it */
	req.groups = TASKDIAG_GROUP_STATM;
	run_and_check(&req, of_1000, 2, false, NULL, 0);
	req.groups = 0;
	run_and_check(&req, of_1000, 2, false, NULL, 0);
	/* 55 is a child of 1 too, but being released */
	req.pid = 1;
	req.groups = TASKDIAG_GROUP_ALL;
	run_and_check(&req, of_1, 2, false, NULL, 0);
	/* a process without children */
	req.pid = 30;
	run_and_check(&req, NULL, 0, false, NULL, 0);
}

static void expect_esrch(enum taskdiag_scope scope, pid_t pid)
{
	struct taskdiag *td = open_fixture();
	struct taskdiag_request req = { .scope = scope, .pid = pid, .groups = TASKDIAG_GROUP_ALL };
	struct taskdiag_iter *it = (struct taskdiag_iter *)&req;
	const struct taskdiag_task *t;
	int ret;

	ret = taskdiag_iter_start(td, &req, &it);
	if (!ret) {
		ret = taskdiag_iter_next(it, &t);
		taskdiag_iter_end(it);
		fail_msg("scope %d, pid %d: started, first next() %d, want -ESRCH", scope, pid,
			 ret);
	}
	assert_int_equal(ret, -ESRCH);
	assert_null(it);
	assert_non_null(taskdiag_extack(td));
	taskdiag_close(td);
}

static int never_called(const struct taskdiag_task *t, void *arg)
{
	(void)arg;
	fail_msg("callback called for pid %d", taskdiag_task_pid(t));
	return -1;
}

static void test_missing_pid(void **state)
{
	(void)state;
	expect_esrch(TASKDIAG_SCOPE_TASK, 9999);
	expect_esrch(TASKDIAG_SCOPE_THREADS, 9999);
	expect_esrch(TASKDIAG_SCOPE_CHILDREN, 9999);
	/* 1001 is a thread, not a directory at the root of this tree */
	expect_esrch(TASKDIAG_SCOPE_TASK, 1001);
	/* dump through the callback API: same answer */
	{
		struct taskdiag *td = open_fixture();
		struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_TASK, .pid = 9999 };

		assert_int_equal(taskdiag_dump(td, &req, never_called, NULL), -ESRCH);
		taskdiag_close(td);
	}
}

/* Scopes that take a pid refuse 0, the others refuse a pid. */
static void test_pid_rules(void **state)
{
	struct taskdiag *td;
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_TASK, .pid = 0 };
	struct taskdiag_iter *it;

	(void)state;
	td = open_fixture();
	assert_int_equal(taskdiag_iter_start(td, &req, &it), -EINVAL);
	req.scope = TASKDIAG_SCOPE_CHILDREN;
	assert_int_equal(taskdiag_iter_start(td, &req, &it), -EINVAL);
	req.scope = TASKDIAG_SCOPE_THREADS;
	assert_int_equal(taskdiag_iter_start(td, &req, &it), -EINVAL);
	req.scope = TASKDIAG_SCOPE_ALL_PROCESSES;
	req.pid = 1;
	assert_int_equal(taskdiag_iter_start(td, &req, &it), -EINVAL);
	assert_non_null(taskdiag_extack(td));
	taskdiag_close(td);
}

/* The callback API over the same tree: same pids, stop value passed back. */
static int collect(const struct taskdiag_task *t, void *arg)
{
	int *v = arg;

	v[++v[0]] = taskdiag_task_pid(t);
	return v[0] == 3 ? 77 : 0;
}

static void test_dump_callback(void **state)
{
	struct taskdiag *td = open_fixture();
	struct taskdiag_request req = { .groups = TASKDIAG_GROUP_BASE };
	int got[16] = { 0 };

	(void)state;
	assert_int_equal(taskdiag_dump(td, &req, collect, got), 77);
	assert_int_equal(got[0], 3);
	assert_int_equal(got[1], 1);
	assert_int_equal(got[2], 7);
	assert_int_equal(got[3], 30);
	taskdiag_close(td);
}

static void test_open_at_errors(void **state)
{
	struct taskdiag *td = open_fixture();
	struct taskdiag_iter *it;
	struct taskdiag_request req = { .groups = 0 };
	char missing[300];

	(void)state;
	snprintf(missing, sizeof(missing), "%s/no_such_dir", root);
	assert_int_equal(td_procfs_open_at(td, missing), -ENOENT);
	assert_int_equal(td_procfs_open_at(NULL, root), -EINVAL);
	/* the old root is kept after an error */
	assert_int_equal(taskdiag_iter_start(td, &req, &it), 0);
	assert_int_equal(td_procfs_open_at(td, root), -EBUSY);
	taskdiag_iter_end(it);
	taskdiag_close(td);
}

/*
 * taskdiag_set_procfs(): the same records from the tree named by an O_PATH
 * descriptor as from its path; bad descriptors refused, the root kept.
 */
static void test_set_procfs(void **state)
{
	static const int want[] = { 1, 7, 30, 1000, 4000 };
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_ALL_PROCESSES,
					.groups = TASKDIAG_GROUP_ALL };
	struct taskdiag *td;
	char file[300];
	int fd;

	(void)state;
	fixture_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(fixture_fd >= 0);
	run_and_check(&req, want, 5, false, NULL, 0);

	td = open_fixture();
	snprintf(file, sizeof(file), "%s/1/stat", root);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(taskdiag_set_procfs(td, fd), -ENOTDIR);
	close(fd);
	assert_int_equal(taskdiag_set_procfs(td, fd), -EBADF);
	assert_int_equal(taskdiag_set_procfs(td, -2), -EINVAL);
	assert_int_equal(taskdiag_set_procfs(NULL, fixture_fd), -EINVAL);
	{
		/* the refused descriptors left the handle on the fixture */
		struct taskdiag_iter *it;
		const struct taskdiag_task *t;

		assert_int_equal(taskdiag_iter_start(td, &req, &it), 0);
		assert_int_equal(taskdiag_iter_next(it, &t), 1);
		assert_int_equal(taskdiag_task_pid(t), want[0]);
		assert_int_equal(taskdiag_set_procfs(td, -1), -EBUSY);
		taskdiag_iter_end(it);
	}
	taskdiag_close(td);
	close(fixture_fd);
	fixture_fd = -1;
}

/* ---- the live /proc --------------------------------------------------- */

static void read_text(const char *path, char *buf, size_t size, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, size - 1);
	assert_true(n >= 0);
	close(fd);
	buf[n] = '\0';
	*len = (size_t)n;
}

static void test_live_self(void **state)
{
	struct taskdiag *td;
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_TASK, .pid = getpid(),
					.groups = TASKDIAG_GROUP_ALL };
	struct taskdiag_iter *it;
	const struct taskdiag_task *t;
	char comm[64], cmdline[4096];
	size_t comm_len, cmdline_len, len;
	const char *s;
	const void *data;
	uint64_t u;

	(void)state;
	read_text("/proc/self/comm", comm, sizeof(comm), &comm_len);
	while (comm_len && comm[comm_len - 1] == '\n')
		comm[--comm_len] = '\0';
	read_text("/proc/self/cmdline", cmdline, sizeof(cmdline), &cmdline_len);

	assert_int_equal(taskdiag_open(&td, TASKDIAG_BACKEND_PROCFS), 0);
	assert_int_equal(taskdiag_iter_start(td, &req, &it), 0);
	assert_int_equal(taskdiag_iter_next(it, &t), 1);
	assert_int_equal(taskdiag_task_pid(t), getpid());
	assert_int_equal(taskdiag_task_tgid(t), getpid());
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_BASE_PPID, &u), 0);
	assert_int_equal(u, getppid());
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_CRED_UID, &u), 0);
	assert_int_equal(u, getuid());
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_CRED_EUID, &u), 0);
	assert_int_equal(u, geteuid());
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_CRED_GID, &u), 0);
	assert_int_equal(u, getgid());
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_BASE_NUM_THREADS, &u), 0);
	assert_int_equal(u, 1);
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_BASE_STATE, &u), 0);
	assert_int_equal(u, 'R');	/* we are running while /proc/self/stat is read */
	assert_int_equal(taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &s), 0);
	assert_string_equal(s, comm);
	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CMDLINE, &data, &len), 0);
	assert_int_equal(len, cmdline_len);
	assert_memory_equal(data, cmdline, len);
	/* our own io is ours to read */
	assert_true(taskdiag_task_has(t, TASKDIAG_ITEM_IO_RCHAR));
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_STATM_RESIDENT, &u), 0);
	assert_true(u > 0 && u % (uint64_t)sysconf(_SC_PAGESIZE) == 0);
	assert_int_equal(taskdiag_iter_next(it, &t), 0);
	taskdiag_iter_end(it);
	taskdiag_close(td);
}

/*
 * A child with an argv longer than the 4096 bytes a record carries: the
 * cmdline is its first 4096 bytes and CMDLINE_LEN the whole length, which
 * the test knows from the argv it passed (and none at exactly 4096).
 */
static void check_long_argv(size_t arg_len)
{
	static char arg[10000];
	char *argv[] = { (char *)"/proc/self/exe", (char *)"--sleep", arg, NULL };
	size_t total = strlen(argv[0]) + 1 + strlen(argv[1]) + 1 + arg_len + 1;
	struct taskdiag *td;
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_TASK,
					.groups = TASKDIAG_GROUP_CMDLINE };
	struct taskdiag_iter *it;
	const struct taskdiag_task *t;
	const void *data;
	size_t len;
	uint64_t u;
	int tries;
	pid_t pid;

	assert_true(arg_len < sizeof(arg));
	memset(arg, 'a', arg_len);
	arg[arg_len] = '\0';
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	req.pid = pid;
	assert_int_equal(taskdiag_open(&td, TASKDIAG_BACKEND_PROCFS), 0);
	/* until the exec is done: the argv is ours, not the parent's copy */
	for (tries = 0; tries < 500; tries++) {
		assert_int_equal(taskdiag_iter_start(td, &req, &it), 0);
		assert_int_equal(taskdiag_iter_next(it, &t), 1);
		if (!taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CMDLINE, &data, &len) &&
		    len > strlen(argv[0]) && memmem(data, len, "--sleep", 8))
			break;
		taskdiag_iter_end(it);
		usleep(10000);
	}
	assert_true(tries < 500);
	assert_int_equal(len, total < 4096 ? total : 4096);
	if (total > 4096) {
		assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_CMDLINE_LEN, &u), 0);
		assert_int_equal(u, total);
	} else {
		assert_false(taskdiag_task_has(t, TASKDIAG_ITEM_CMDLINE_LEN));
	}
	taskdiag_iter_end(it);
	taskdiag_close(td);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_live_cmdline_len(void **state)
{
	size_t fixed = strlen("/proc/self/exe") + 1 + strlen("--sleep") + 1 + 1;

	(void)state;
	check_long_argv(9000);
	check_long_argv(4096 - fixed);		/* exactly 4096: whole, no length */
	check_long_argv(4096 - fixed + 1);	/* one more: cut, with its length */
	check_long_argv(100);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest fixture[] = {
		cmocka_unit_test(test_all_processes),
		cmocka_unit_test(test_each_group_alone),
		cmocka_unit_test(test_all_threads),
		cmocka_unit_test(test_task),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_children),
		cmocka_unit_test(test_missing_pid),
		cmocka_unit_test(test_pid_rules),
		cmocka_unit_test(test_dump_callback),
		cmocka_unit_test(test_open_at_errors),
		cmocka_unit_test(test_set_procfs),
	};
	const struct CMUnitTest live[] = {
		cmocka_unit_test(test_live_self),
		cmocka_unit_test(test_live_cmdline_len),
	};
	int failed;

	if (argc > 1 && !strcmp(argv[1], "--sleep")) {	/* check_long_argv()'s child */
		sleep(1000);
		return 0;
	}

	failed = cmocka_run_group_tests_name("procfs_fixture", fixture, setup_tree, teardown_tree);
	failed += cmocka_run_group_tests_name("procfs_live", live, NULL, NULL);
	return failed;
}
