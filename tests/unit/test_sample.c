// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Samples and diffs (libtaskdiag/sample.c) on hand-built samples: matching
 * on (pid, start time) with pid reuse, exits, counters going backwards, a
 * zero interval, rates and CPU shares worked out by hand, sorting, copies of
 * strings, no allocation once warm (malloc and realloc are wrapped and
 * counted); machine-wide figures from a fixture tree and against sysinfo();
 * and one real sample of this process against getrusage().
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "internal.h"

/* Allocation counters (the test links with --wrap=malloc,--wrap=realloc,--wrap=calloc). */
static unsigned long n_allocs;
void *__real_malloc(size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_calloc(size_t a, size_t b);
void *__wrap_malloc(size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_calloc(size_t a, size_t b);

void *__wrap_malloc(size_t n)
{
	n_allocs++;
	return __real_malloc(n);
}

void *__wrap_realloc(void *p, size_t n)
{
	n_allocs++;
	return __real_realloc(p, n);
}

void *__wrap_calloc(size_t a, size_t b)
{
	n_allocs++;
	return __real_calloc(a, b);
}

#define NS 1000000000ull

struct hand {
	pid_t pid;
	uint64_t start;		/* 0: no start time in the record */
	uint64_t utime, stime;	/* ns */
	uint64_t minflt;
	const char *comm;	/* NULL: absent */
};

static void add(struct taskdiag_sample *s, const struct hand *h)
{
	struct taskdiag_task t;

	td_task_reset(&t);
	td_task_set_u64(&t, TASKDIAG_ITEM_PID, (uint64_t)h->pid);
	td_task_set_u64(&t, TASKDIAG_ITEM_TGID, (uint64_t)h->pid);
	if (h->start)
		td_task_set_u64(&t, TASKDIAG_ITEM_BASE_START_TIME, h->start);
	td_task_set_u64(&t, TASKDIAG_ITEM_STAT_UTIME, h->utime);
	td_task_set_u64(&t, TASKDIAG_ITEM_STAT_STIME, h->stime);
	td_task_set_u64(&t, TASKDIAG_ITEM_STAT_MINFLT, h->minflt);
	if (h->comm)
		td_task_set_blob(&t, TASKDIAG_ITEM_BASE_COMM, h->comm,
				 (uint32_t)strlen(h->comm) + 1);
	assert_int_equal(td_sample_append(s, &t), 0);
}

static struct taskdiag_sample *build(const struct hand *h, size_t n, uint64_t time)
{
	struct taskdiag_sample *s;
	size_t i;

	assert_int_equal(taskdiag_sample_new(&s), 0);
	for (i = 0; i < n; i++)
		add(s, &h[i]);
	assert_int_equal(td_sample_finish(s, time), 0);
	return s;
}

static void rebuild(struct taskdiag_sample *s, const struct hand *h, size_t n, uint64_t time)
{
	size_t i;

	td_sample_reset(s);
	for (i = 0; i < n; i++)
		add(s, &h[i]);
	assert_int_equal(td_sample_finish(s, time), 0);
}

/* The diff position of @pid, or -1. */
static long pos_of(const struct taskdiag_diff *d, pid_t pid)
{
	size_t i;

	for (i = 0; i < taskdiag_diff_count(d); i++)
		if (taskdiag_task_pid(taskdiag_diff_task(d, i)) == pid)
			return (long)i;
	return -1;
}

static double get(const struct taskdiag_diff *d, pid_t pid, enum taskdiag_derived what,
		  int want_err)
{
	long i = pos_of(d, pid);
	double v = -1;

	assert_true(i >= 0);
	assert_int_equal(taskdiag_diff_get(d, (size_t)i, what, &v), want_err);
	return v;
}

/* CPU share and rates worked out by hand: 0.75 s of CPU in 1.5 s, 300 faults. */
static void test_rates(void **state)
{
	const struct hand a[] = { { 10, 5 * NS, 1 * NS, NS / 2, 100, "a" } };
	const struct hand b[] = { { 10, 5 * NS, 3 * NS / 2, 3 * NS / 4, 400, "a" } };
	struct taskdiag_sample *p = build(a, 1, 20 * NS), *c = build(b, 1, 20 * NS + 3 * NS / 2);
	struct taskdiag_diff *d;

	(void)state;
	assert_int_equal(taskdiag_diff_new(&d), 0);
	assert_int_equal(taskdiag_diff_compute(d, p, c, 2), 0);
	assert_int_equal(taskdiag_diff_interval(d), 3 * NS / 2);
	assert_int_equal(taskdiag_diff_count(d), 1);
	assert_ptr_equal(taskdiag_diff_prev(d, 0), taskdiag_sample_task(p, 0));
	assert_true(fabs(get(d, 10, TASKDIAG_DERIVED_CPU, 0) - 50.0) < 1e-9);
	assert_true(fabs(get(d, 10, TASKDIAG_DERIVED_CPU_MACHINE, 0) - 25.0) < 1e-9);
	assert_true(fabs(get(d, 10, TASKDIAG_DERIVED_CPU_TIME, 0) - 0.75e9) < 1e-3);
	assert_true(fabs(get(d, 10, TASKDIAG_DERIVED_MINFLT_RATE, 0) - 200.0) < 1e-9);
	/* not in these records: absent, not zero */
	get(d, 10, TASKDIAG_DERIVED_MAJFLT_RATE, -ENOENT);
	get(d, 10, TASKDIAG_DERIVED_RCHAR_RATE, -ENOENT);
	assert_int_equal(taskdiag_diff_exited_count(d), 0);
	assert_int_equal(taskdiag_diff_appeared_count(d), 0);
	taskdiag_diff_free(d);
	taskdiag_sample_free(p);
	taskdiag_sample_free(c);
}

/*
 * Pid 20 was reused (another start time): one exit and one new task, which
 * started in the interval and so counts from zero. Pid 30 exited, 40 is new
 * but started before the first sample (it was missed): no rate for it.
 */
static void test_reuse_and_exits(void **state)
{
	const struct hand a[] = {
		{ 10, 1 * NS, NS, 0, 0, "x" },
		{ 20, 2 * NS, 5 * NS, 0, 0, "old" },
		{ 30, 3 * NS, NS, 0, 0, "gone" },
	};
	const struct hand b[] = {
		{ 10, 1 * NS, 2 * NS, 0, 0, "x" },
		{ 20, 11 * NS, NS / 2, 0, 0, "new" },
		{ 40, 4 * NS, NS, 0, 0, "missed" },
	};
	struct taskdiag_sample *p = build(a, 3, 10 * NS), *c = build(b, 3, 12 * NS);
	struct taskdiag_diff *d;
	const char *comm;

	(void)state;
	assert_int_equal(taskdiag_diff_new(&d), 0);
	assert_int_equal(taskdiag_diff_compute(d, p, c, 1), 0);
	assert_int_equal(taskdiag_diff_count(d), 3);
	assert_int_equal(taskdiag_diff_appeared_count(d), 2);
	assert_int_equal(taskdiag_diff_exited_count(d), 2);
	assert_int_equal(taskdiag_task_pid(taskdiag_diff_exited(d, 0)), 20);
	assert_int_equal(taskdiag_task_get_string(taskdiag_diff_exited(d, 0),
						  TASKDIAG_ITEM_BASE_COMM, &comm), 0);
	assert_string_equal(comm, "old");
	assert_int_equal(taskdiag_task_pid(taskdiag_diff_exited(d, 1)), 30);
	assert_null(taskdiag_diff_exited(d, 2));
	assert_null(taskdiag_diff_prev(d, (size_t)pos_of(d, 20)));
	assert_non_null(taskdiag_diff_prev(d, (size_t)pos_of(d, 10)));
	/* a reused pid is not 5 s going back to 0.5 s: it is 0.5 s in 2 s */
	assert_true(fabs(get(d, 20, TASKDIAG_DERIVED_CPU, 0) - 25.0) < 1e-9);
	assert_true(fabs(get(d, 10, TASKDIAG_DERIVED_CPU, 0) - 50.0) < 1e-9);
	get(d, 40, TASKDIAG_DERIVED_CPU, -ENOENT);
	taskdiag_diff_free(d);
	taskdiag_sample_free(p);
	taskdiag_sample_free(c);
}

/* Without start times pids alone match; a counter going back has no rate. */
static void test_backwards_and_no_start(void **state)
{
	const struct hand a[] = { { 7, 0, 4 * NS, 0, 50, NULL }, { 8, 0, NS, 0, 1, NULL } };
	const struct hand b[] = { { 7, 0, 3 * NS, 0, 60, NULL }, { 8, 0, NS, 0, 1, NULL } };
	struct taskdiag_sample *p = build(a, 2, NS), *c = build(b, 2, 2 * NS);
	struct taskdiag_diff *d;

	(void)state;
	assert_int_equal(taskdiag_diff_new(&d), 0);
	assert_int_equal(taskdiag_diff_compute(d, p, c, 1), 0);
	assert_int_equal(taskdiag_diff_appeared_count(d), 0);
	assert_int_equal(get(d, 7, TASKDIAG_DERIVED_CPU, -ERANGE), 0);
	assert_int_equal(get(d, 7, TASKDIAG_DERIVED_CPU_TIME, -ERANGE), 0);
	assert_true(fabs(get(d, 7, TASKDIAG_DERIVED_MINFLT_RATE, 0) - 10.0) < 1e-9);
	assert_int_equal(get(d, 8, TASKDIAG_DERIVED_CPU, 0), 0);
	taskdiag_diff_free(d);
	taskdiag_sample_free(p);
	taskdiag_sample_free(c);
}

/* Same time, or the newer sample earlier: no rate, but the CPU time grown is known. */
static void test_zero_interval(void **state)
{
	const struct hand a[] = { { 5, NS, NS, 0, 0, NULL } };
	const struct hand b[] = { { 5, NS, 2 * NS, 0, 0, NULL } };
	struct taskdiag_sample *p = build(a, 1, 9 * NS), *c = build(b, 1, 9 * NS);
	struct taskdiag_diff *d;

	(void)state;
	assert_int_equal(taskdiag_diff_new(&d), 0);
	assert_int_equal(taskdiag_diff_compute(d, p, c, 1), 0);
	assert_int_equal(taskdiag_diff_interval(d), 0);
	assert_int_equal(get(d, 5, TASKDIAG_DERIVED_CPU, -EDOM), 0);
	assert_int_equal(get(d, 5, TASKDIAG_DERIVED_MINFLT_RATE, -EDOM), 0);
	assert_true(fabs(get(d, 5, TASKDIAG_DERIVED_CPU_TIME, 0) - 1e9) < 1e-3);
	rebuild(c, b, 1, 8 * NS);	/* earlier than prev */
	assert_int_equal(taskdiag_diff_compute(d, p, c, 1), 0);
	assert_int_equal(taskdiag_diff_interval(d), 0);
	get(d, 5, TASKDIAG_DERIVED_CPU, -EDOM);
	taskdiag_diff_free(d);
	taskdiag_sample_free(p);
	taskdiag_sample_free(c);
}

/* Records out of pid order still match; an empty older sample at boot time. */
static void test_unordered_and_first(void **state)
{
	const struct hand a[] = { { 30, NS, NS, 0, 0, NULL }, { 10, NS, NS, 0, 0, NULL } };
	const struct hand b[] = { { 10, NS, 2 * NS, 0, 0, NULL }, { 30, NS, 3 * NS, 0, 0, NULL } };
	struct taskdiag_sample *p = build(a, 2, 2 * NS), *c = build(b, 2, 4 * NS);
	struct taskdiag_sample *e = build(NULL, 0, 0);
	struct taskdiag_diff *d;

	(void)state;
	assert_int_equal(taskdiag_diff_new(&d), 0);
	assert_int_equal(taskdiag_diff_compute(d, p, c, 1), 0);
	assert_int_equal(taskdiag_diff_appeared_count(d), 0);
	assert_true(fabs(get(d, 10, TASKDIAG_DERIVED_CPU, 0) - 50.0) < 1e-9);
	assert_true(fabs(get(d, 30, TASKDIAG_DERIVED_CPU, 0) - 100.0) < 1e-9);
	/* from nothing at boot: every task counts from zero since it started */
	assert_int_equal(taskdiag_diff_compute(d, e, c, 1), 0);
	assert_int_equal(taskdiag_diff_appeared_count(d), 2);
	assert_true(fabs(get(d, 30, TASKDIAG_DERIVED_CPU, 0) - 75.0) < 1e-9);
	/* and to nothing: everything exited */
	assert_int_equal(taskdiag_diff_compute(d, c, e, 1), 0);
	assert_int_equal(taskdiag_diff_count(d), 0);
	assert_int_equal(taskdiag_diff_exited_count(d), 2);
	taskdiag_diff_free(d);
	taskdiag_sample_free(p);
	taskdiag_sample_free(c);
	taskdiag_sample_free(e);
}

/* Sorting by an item (absent last either way, ties by pid) and by a derived value. */
static void test_sort(void **state)
{
	const struct hand a[] = {
		{ 1, NS, 0, 0, 5, "b" }, { 2, NS, 0, 0, 9, NULL }, { 3, NS, 0, 0, 5, "a" },
		{ 4, NS, 0, 0, 1, "c" },
	};
	const struct hand b[] = {
		{ 1, NS, 1 * NS, 0, 5, "b" }, { 2, NS, 3 * NS, 0, 9, NULL }, { 3, NS, 0, 0, 5, "a" },
		{ 4, NS, 2 * NS, 0, 1, "c" },
	};
	struct taskdiag_sample *p = build(a, 4, 10 * NS), *c = build(b, 4, 20 * NS);
	struct taskdiag_diff *d;
	pid_t want_comm_asc[] = { 3, 1, 4, 2 }, want_comm_desc[] = { 4, 1, 3, 2 };
	pid_t want_flt_desc[] = { 2, 1, 3, 4 }, want_cpu_desc[] = { 2, 4, 1, 3 };
	size_t i;

	(void)state;
	assert_int_equal(taskdiag_sample_sort(c, TASKDIAG_ITEM_BASE_COMM, false), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(taskdiag_task_pid(taskdiag_sample_task(c, i)), want_comm_asc[i]);
	assert_int_equal(taskdiag_sample_sort(c, TASKDIAG_ITEM_BASE_COMM, true), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(taskdiag_task_pid(taskdiag_sample_task(c, i)), want_comm_desc[i]);
	assert_int_equal(taskdiag_sample_sort(c, TASKDIAG_ITEM_STAT_MINFLT, true), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(taskdiag_task_pid(taskdiag_sample_task(c, i)), want_flt_desc[i]);
	assert_int_equal(taskdiag_sample_sort(c, TASKDIAG_ITEM__COUNT, true), -EINVAL);

	/* a sorted sample still matches by pid; the diff starts in its order */
	assert_int_equal(taskdiag_diff_new(&d), 0);
	assert_int_equal(taskdiag_diff_compute(d, p, c, 1), 0);
	assert_int_equal(taskdiag_diff_appeared_count(d), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(taskdiag_task_pid(taskdiag_diff_task(d, i)), want_flt_desc[i]);
	assert_int_equal(taskdiag_diff_sort_derived(d, TASKDIAG_DERIVED_CPU, true), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(taskdiag_task_pid(taskdiag_diff_task(d, i)), want_cpu_desc[i]);
	assert_int_equal(taskdiag_diff_sort_item(d, TASKDIAG_ITEM_PID, false), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(taskdiag_task_pid(taskdiag_diff_task(d, i)), (pid_t)i + 1);
	assert_int_equal(taskdiag_diff_sort_derived(d, 0, true), -EINVAL);
	taskdiag_diff_free(d);
	taskdiag_sample_free(p);
	taskdiag_sample_free(c);
}

/* Strings are copies: the source buffer may change or go away. */
static void test_strings_copied(void **state)
{
	char name[32];
	struct hand h = { 1, NS, 0, 0, 0, name };
	struct taskdiag_sample *s;
	const char *comm;
	size_t i;

	(void)state;
	assert_int_equal(taskdiag_sample_new(&s), 0);
	for (i = 0; i < 1000; i++) {	/* enough for the arena to move */
		h.pid = (pid_t)i + 1;
		snprintf(name, sizeof(name), "task-%zu", i);
		add(s, &h);
	}
	memset(name, 'X', sizeof(name));
	assert_int_equal(td_sample_finish(s, NS), 0);
	assert_int_equal(taskdiag_sample_count(s), 1000);
	for (i = 0; i < 1000; i++) {
		char want[32];

		snprintf(want, sizeof(want), "task-%zu", i);
		assert_int_equal(taskdiag_task_get_string(taskdiag_sample_task(s, i),
							  TASKDIAG_ITEM_BASE_COMM, &comm), 0);
		assert_string_equal(comm, want);
	}
	assert_null(taskdiag_sample_task(s, 1000));
	taskdiag_sample_free(s);
}

/* Once both samples and the diff have held a population, nothing is allocated. */
static void test_no_alloc_when_warm(void **state)
{
	static struct hand h[3000];
	struct taskdiag_sample *p, *c;
	struct taskdiag_diff *d;
	unsigned long before;
	size_t i;
	int round;

	(void)state;
	for (i = 0; i < 3000; i++)
		h[i] = (struct hand){ (pid_t)i + 1, NS, i * NS, 0, i, "comm-of-a-task" };
	p = build(h, 3000, NS);
	c = build(h, 3000, 2 * NS);
	assert_int_equal(taskdiag_diff_new(&d), 0);
	assert_int_equal(taskdiag_diff_compute(d, p, c, 1), 0);
	before = n_allocs;
	for (round = 0; round < 5; round++) {
		struct taskdiag_sample *t = p;

		p = c;
		c = t;
		rebuild(c, h + round, 3000 - (size_t)round, (uint64_t)(3 + round) * NS);
		assert_int_equal(taskdiag_diff_compute(d, p, c, 1), 0);
		assert_int_equal(taskdiag_diff_sort_derived(d, TASKDIAG_DERIVED_CPU, true), 0);
		assert_int_equal(taskdiag_sample_sort(c, TASKDIAG_ITEM_BASE_COMM, false), 0);
	}
	assert_int_equal(n_allocs - before, 0);
	/* and the counter does count: twice the population must allocate */
	td_sample_reset(c);
	for (i = 0; i < 6000; i++)
		add(c, &h[i % 3000]);
	assert_true(n_allocs > before);
	taskdiag_diff_free(d);
	taskdiag_sample_free(p);
	taskdiag_sample_free(c);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Machine-wide figures from a fixture: a 10 kB intr line, two CPUs. */
static void test_system_fixture(void **state)
{
	char dir[] = "/tmp/td_sys_XXXXXX";
	char *stat = malloc(20000);
	struct taskdiag_system sys;
	uint64_t tick = NS / (uint64_t)sysconf(_SC_CLK_TCK);
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	n = (size_t)sprintf(stat, "cpu  10 2 30 400 5 6 7 8 9 1\ncpu0 5 1 15 200 2 3 3 4 4 0\n"
			    "cpu1 5 1 15 200 3 3 4 4 5 1\nintr 123");
	while (n < 12000)
		n += (size_t)sprintf(stat + n, " 0");
	sprintf(stat + n, "\nctxt 4242\nbtime 1700000000\nprocesses 777\n"
		"procs_running 3\nprocs_blocked 1\nsoftirq 1 2 3\n");
	put(dir, "stat", stat);
	put(dir, "meminfo", "MemTotal:        2000 kB\nMemFree:    500 kB\n"
	    "MemAvailable:   1200 kB\nBuffers:  10 kB\nCached:  300 kB\nSwapCached: 0 kB\n"
	    "Shmem:  7 kB\nSReclaimable:  20 kB\nSwapTotal: 100 kB\nSwapFree: 40 kB\n");
	put(dir, "uptime", "1234.56 2000.00\n");
	put(dir, "loadavg", "0.50 1.25 2.00 2/345 6789\n");
	assert_int_equal(td_system_read_at(dir, &sys, sizeof(sys)), 0);
	assert_int_equal(sys.ncpu, 2);
	assert_int_equal(sys.boot_time, 1700000000);
	assert_int_equal(sys.ctxt, 4242);
	assert_int_equal(sys.processes, 777);
	assert_int_equal(sys.procs_running, 3);
	assert_int_equal(sys.procs_blocked, 1);
	assert_int_equal(sys.cpu.user, 10 * tick);
	assert_int_equal(sys.cpu.idle, 400 * tick);
	assert_int_equal(sys.cpu.guest_nice, 1 * tick);
	assert_int_equal(sys.mem_total, 2000 * 1024);
	assert_int_equal(sys.mem_available, 1200 * 1024);
	assert_int_equal(sys.cached, 300 * 1024);
	assert_int_equal(sys.sreclaimable, 20 * 1024);
	assert_int_equal(sys.swap_free, 40 * 1024);
	assert_int_equal(sys.uptime, 1234560000000ull);
	assert_true(fabs(sys.loadavg[1] - 1.25) < 1e-9);
	assert_int_equal(sys.nr_running, 2);
	assert_int_equal(sys.nr_threads, 345);

	/* a caller built with a shorter struct gets only its part */
	memset(&sys, 0xff, sizeof(sys));
	assert_int_equal(td_system_read_at(dir, &sys, offsetof(struct taskdiag_system, hz)), 0);
	assert_int_equal(sys.uptime, 1234560000000ull);
	assert_int_equal(sys.hz, 0xffffffffu);

	/* malformed: no btime, garbage loadavg, a missing file */
	put(dir, "stat", "cpu  1 2 3 4\n");
	assert_int_equal(td_system_read_at(dir, &sys, sizeof(sys)), -EBADMSG);
	put(dir, "stat", stat);
	put(dir, "loadavg", "zero\n");
	assert_int_equal(td_system_read_at(dir, &sys, sizeof(sys)), -EBADMSG);
	snprintf(stat, 20000, "%s/uptime", dir);
	unlink(stat);
	assert_int_equal(td_system_read_at(dir, &sys, sizeof(sys)), -ENOENT);
	snprintf(stat, 20000, "rm -rf '%s'", dir);
	assert_int_equal(system(stat), 0);
	free(stat);
}

/* The real /proc against sysinfo() and sysconf(). */
static void test_system_real(void **state)
{
	struct taskdiag_system sys;
	struct sysinfo si;

	(void)state;
	assert_int_equal(taskdiag_system_read(&sys, sizeof(sys)), 0);
	assert_int_equal(sysinfo(&si), 0);
	assert_int_equal(sys.mem_total, (uint64_t)si.totalram * si.mem_unit);
	assert_int_equal(sys.swap_total, (uint64_t)si.totalswap * si.mem_unit);
	assert_int_equal(sys.ncpu, (uint32_t)sysconf(_SC_NPROCESSORS_ONLN));
	assert_int_equal(sys.hz, (uint32_t)sysconf(_SC_CLK_TCK));
	/* sysinfo() rounds uptime to whole seconds, read just after */
	assert_true(sys.uptime / NS <= (uint64_t)si.uptime && (uint64_t)si.uptime <= sys.uptime / NS + 2);
	assert_true(sys.boot_time + (uint64_t)si.uptime >= (uint64_t)time(NULL) - 2 &&
		    sys.boot_time + (uint64_t)si.uptime <= (uint64_t)time(NULL) + 2);
}

static double cpu_self_ns(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
}

/* Two real samples (procfs backend) around a burn of CPU: our own growth against getrusage(). */
static void test_take_real(void **state)
{
	struct taskdiag_request req = { .groups = TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT };
	struct taskdiag_sample *p, *c;
	struct taskdiag_diff *d;
	struct taskdiag *td;
	volatile unsigned long x = 0;
	double before, after, grown;
	long me;

	(void)state;
	assert_int_equal(taskdiag_open(&td, TASKDIAG_BACKEND_PROCFS), 0);
	assert_int_equal(taskdiag_sample_new(&p), 0);
	assert_int_equal(taskdiag_sample_new(&c), 0);
	assert_int_equal(taskdiag_diff_new(&d), 0);
	assert_true(taskdiag_sample_take(td, &req, p) > 0);
	before = cpu_self_ns();
	while (cpu_self_ns() - before < 3e8)
		x++;
	after = cpu_self_ns();
	assert_true(taskdiag_sample_take(td, &req, c) > 0);
	assert_true(taskdiag_sample_time(c) > taskdiag_sample_time(p));
	assert_int_equal(taskdiag_diff_compute(d, p, c, 0), 0);
	me = pos_of(d, getpid());
	assert_true(me >= 0);
	assert_non_null(taskdiag_diff_prev(d, (size_t)me));
	assert_int_equal(taskdiag_diff_get(d, (size_t)me, TASKDIAG_DERIVED_CPU_TIME, &grown), 0);
	/* /proc counts in clock ticks: a few ticks either way */
	assert_true(fabs(grown - (after - before)) < 5e7);
	assert_int_equal(taskdiag_sample_take(td, &(struct taskdiag_request){ .groups = 1u << 9 }, c),
			 -EINVAL);
	assert_int_equal(taskdiag_sample_count(c), 0);
	taskdiag_diff_free(d);
	taskdiag_sample_free(p);
	taskdiag_sample_free(c);
	taskdiag_close(td);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_reuse_and_exits),
		cmocka_unit_test(test_backwards_and_no_start),
		cmocka_unit_test(test_zero_interval),
		cmocka_unit_test(test_unordered_and_first),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_strings_copied),
		cmocka_unit_test(test_no_alloc_when_warm),
		cmocka_unit_test(test_system_fixture),
		cmocka_unit_test(test_system_real),
		cmocka_unit_test(test_take_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
