// SPDX-License-Identifier: GPL-2.0
/*
 * tdbench: the benchmark harness of task_diag.
 *
 *   tdbench run METHOD [--threads] [--loops N] [--bpf-dir DIR] [--print N]
 *               [--records FILE] [--uid UID] [--ran-since-ms MS [--idle]]
 *               [--pause-ms MS]
 *       Read every task once (N times) with METHOD and report, as one JSON
 *       line, the number of tasks and the time of the reading loop only
 *       (opening the netlink handle, allocating buffers and exiting are
 *       outside it). The line goes to the file descriptor named by
 *       $TDBENCH_FD when that is set (so that "tdbench exec" can collect it
 *       while the command's standard output goes to /dev/null), else to
 *       standard output. --print N shows some fields of the first N records
 *       on standard error (to check that methods agree); --records FILE
 *       writes every struct td_bench_rec the BPF methods read to FILE, as
 *       read (for the BPF peer's test).
 *
 *   tdbench exec [--reps N] [--warmup W] -- CMD [ARGS...]
 *       Run CMD W + N times, standard output to /dev/null, and print one JSON
 *       line per measured run: the time from before fork() to after wait4()
 *       (exec to exit), the child's peak RSS, user and system time
 *       (wait4's rusage), and what the child reported through $TDBENCH_FD.
 *
 *   tdbench exec --plan FILE
 *       The same for several commands, round-robin: each line of FILE is
 *       "ID<TAB>RUNS<TAB>ARG0<TAB>ARG1..."; every round runs each command
 *       that has runs left once, so that the background load of a shared
 *       machine falls alike on every command.
 *
 * Methods (--threads: per thread, /proc/PID/task/TID and the all-threads
 * scope, instead of per process):
 *   proc_status_raw     readdir /proc, open/read/close PID/status, no parsing
 *   proc_4files_parsed  libtaskdiag's procfs backend, base|stat|statm|io|status:
 *                       reads and parses stat, statm, io and status into the
 *                       library's record
 *   netlink_pid_only    libtaskdiag, netlink, no groups (pid and tgid only)
 *   netlink_base_stat   libtaskdiag, netlink, base|stat
 *   netlink_full        libtaskdiag, netlink, base|stat|statm|io|status
 *   netlink_full_bulk   the same, every item of a record read with one
 *                       taskdiag_task_get_items() call (as tdps and tdtop
 *                       read their columns) instead of one getter per item
 *   bpf_iter            the pinned BPF task iterator (DIR/procs: leaders only,
 *                       DIR/threads with --threads), read with a 1 MiB buffer;
 *                       where DIR/procs_recs exists (6.7+), DIR/procs is the
 *                       open-coded iterator: a header through the pinned file,
 *                       the records in the mmap-ed array DIR/procs_recs
 *   bpf_iter_classic    process scope only, where bpf_iter is the open-coded
 *                       iterator: the classic one (DIR/procs_classic)
 *   noop                nothing (start-up cost, for syscall counts)
 * The library methods decode every item of the groups asked for through
 * the typed getters; bpf_iter reads every field of every record.
 *
 * Kernel-side filters, for the netlink methods: --uid UID keeps the tasks
 * of that real uid; --ran-since-ms MS makes each timed dump a "ran since"
 * dump from the start of the previous one (the first from an untimed
 * pid-only dump), MS milliseconds later (the sleep is outside the timing),
 * as a sampler every MS ms would; --idle adds ran-since-idle records.
 * --pause-ms MS sleeps MS milliseconds before each timed loop (outside the
 * timing), for any method: a dump that follows a pause as a ran-since dump
 * does, so that the two start alike (a guest CPU that idled or ran other
 * tasks for an interval starts a dump slower than one that dumped just
 * before).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>

#include <taskdiag/taskdiag.h>

#include "bench_record.h"

#define TDB_READ_BUF	(8 * 1024)
#define TDB_BPF_BUF	(1024 * 1024)
#define TDB_MAX_LOOPS	100
#define TDB_MAX_REPS	1000

/* What the reading loops compute, so that the compiler keeps every read. */
static volatile uint64_t tdb_sink;
/* --print N: show some fields of the first N records on stderr (checks). */
static long tdb_print;
/* --records FILE: the BPF readers' records, as read, for the tests. */
static FILE *tdb_records;

#define TDB_PRINT_FMT "%-5s pid %d tgid %d ppid %u pgid %u sid %u state %c comm %-15s " \
	"threads %u utime %" PRIu64 " stime %" PRIu64 " minflt %" PRIu64 " vsize %" PRIu64 \
	" rss %" PRIu64 " nice %d start %" PRIu64 "\n"

static double tdb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tdb_tv(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void tdb_die(const char *what, int err)
{
	fprintf(stderr, "tdbench: %s: %s\n", what, strerror(err));
	exit(1);
}

static bool tdb_is_pid(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* ------------------------------------------------------------------------
 * proc_status_raw
 */

/* Read a file to its end, no parsing. Return 1 if it was read, 0 if gone. */
static int tdb_slurp(int dirfd, const char *path, char *buf)
{
	ssize_t n;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, TDB_READ_BUF)) > 0)
		tdb_sink += (uint64_t)n + (unsigned char)buf[0];
	close(fd);
	return n == 0;
}

static long tdb_status_raw(bool threads)
{
	char path[NAME_MAX + 32], buf[TDB_READ_BUF];
	struct dirent *de, *te;
	long count = 0;
	DIR *d, *td;
	int procfd;

	d = opendir("/proc");
	if (!d)
		tdb_die("/proc", errno);
	procfd = dirfd(d);
	while ((de = readdir(d))) {
		if (!tdb_is_pid(de->d_name))
			continue;
		if (!threads) {
			snprintf(path, sizeof(path), "%s/status", de->d_name);
			count += tdb_slurp(procfd, path, buf);
			continue;
		}
		snprintf(path, sizeof(path), "%s/task", de->d_name);
		int tfd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (tfd < 0)
			continue;
		td = fdopendir(tfd);
		if (!td) {
			close(tfd);
			continue;
		}
		while ((te = readdir(td))) {
			if (!tdb_is_pid(te->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/status", te->d_name);
			count += tdb_slurp(tfd, path, buf);
		}
		closedir(td);
	}
	closedir(d);
	return count;
}

/* ------------------------------------------------------------------------
 * libtaskdiag methods: every item of the requested groups, through getters
 */

/* next-ran-since of the last dump (--ran-since-ms). */
static uint64_t tdb_stamp;
static bool tdb_stamp_seen;

struct tdb_consumer {
	enum taskdiag_item items[TASKDIAG_ITEM__COUNT];
	enum taskdiag_type types[TASKDIAG_ITEM__COUNT];
	struct taskdiag_value vals[TASKDIAG_ITEM__COUNT];
	int nitems;
	uint64_t sum;
	long count;
	long missing;	/* items asked for but absent (should stay 0 as root) */
};

static void tdb_consumer_init(struct tdb_consumer *c, uint32_t groups)
{
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *info = taskdiag_item_info((enum taskdiag_item)i);

		if (!info || (info->group && !(info->group & groups)))
			continue;
		c->items[c->nitems] = (enum taskdiag_item)i;
		c->types[c->nitems] = info->type;
		c->nitems++;
	}
}

static int tdb_consume(const struct taskdiag_task *t, void *arg)
{
	struct tdb_consumer *c = arg;
	uint64_t sum = (uint64_t)taskdiag_task_pid(t) + (uint64_t)taskdiag_task_tgid(t);
	int i;

	if (!tdb_stamp_seen && !taskdiag_task_next_ran_since(t, &tdb_stamp))
		tdb_stamp_seen = true;
	for (i = 0; i < c->nitems; i++) {
		enum taskdiag_item item = (enum taskdiag_item)c->items[i];
		const void *data;
		const char *str;
		uint64_t u;
		int64_t s;
		size_t len;
		int err;

		switch (c->types[i]) {
		case TASKDIAG_TYPE_U64:
			err = taskdiag_task_get_u64(t, item, &u);
			sum += u;
			break;
		case TASKDIAG_TYPE_S64:
			err = taskdiag_task_get_s64(t, item, &s);
			sum += (uint64_t)s;
			break;
		case TASKDIAG_TYPE_STRING:
			err = taskdiag_task_get_string(t, item, &str);
			if (!err)
				sum += (unsigned char)str[0];
			break;
		default:
			err = taskdiag_task_get_bytes(t, item, &data, &len);
			if (!err)
				sum += len;
			break;
		}
		if (err)
			c->missing++;
	}
	if (c->count < tdb_print) {
		uint64_t v[11] = { 0 };
		int64_t nice = 0;
		const char *comm = "?";
		static const enum taskdiag_item it[] = {
			TASKDIAG_ITEM_BASE_PPID, TASKDIAG_ITEM_BASE_PGID, TASKDIAG_ITEM_BASE_SID,
			TASKDIAG_ITEM_BASE_STATE, TASKDIAG_ITEM_BASE_NUM_THREADS,
			TASKDIAG_ITEM_STAT_UTIME, TASKDIAG_ITEM_STAT_STIME, TASKDIAG_ITEM_STAT_MINFLT,
			TASKDIAG_ITEM_STAT_VSIZE, TASKDIAG_ITEM_STAT_RSS, TASKDIAG_ITEM_BASE_START_TIME,
		};

		for (i = 0; i < (int)(sizeof(it) / sizeof(it[0])); i++)
			taskdiag_task_get_u64(t, it[i], &v[i]);
		taskdiag_task_get_s64(t, TASKDIAG_ITEM_STAT_NICE, &nice);
		taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &comm);
		fprintf(stderr, TDB_PRINT_FMT, "lib", taskdiag_task_pid(t), taskdiag_task_tgid(t),
			(unsigned int)v[0], (unsigned int)v[1], (unsigned int)v[2], (int)v[3] ? (int)v[3] : '?',
			comm, (unsigned int)v[4], v[5], v[6], v[7], v[8], v[9], (int)nice, v[10]);
	}
	c->sum += sum;
	c->count++;
	return 0;
}

/* tdb_consume() with one taskdiag_task_get_items() call per record. */
static int tdb_consume_bulk(const struct taskdiag_task *t, void *arg)
{
	struct tdb_consumer *c = arg;
	uint64_t sum = (uint64_t)taskdiag_task_pid(t) + (uint64_t)taskdiag_task_tgid(t);
	int i;

	taskdiag_task_get_items(t, c->items, (size_t)c->nitems, c->vals);
	for (i = 0; i < c->nitems; i++) {
		const struct taskdiag_value *v = &c->vals[i];

		if (v->err) {
			c->missing++;
			continue;
		}
		switch (c->types[i]) {
		case TASKDIAG_TYPE_U64:
		case TASKDIAG_TYPE_S64:
			sum += v->u;
			break;
		case TASKDIAG_TYPE_STRING:
			sum += *(const unsigned char *)v->data;
			break;
		default:
			sum += v->len;
			break;
		}
	}
	c->sum += sum;
	c->count++;
	return 0;
}

/* ------------------------------------------------------------------------
 * bpf_iter: the pinned iterator file
 */

static uint64_t tdb_rec_sum(const struct td_bench_rec *r)
{
	uint64_t s = 0;

	s += r->pid + r->tgid + r->ppid + r->pgid + r->sid + r->tracer_pid + r->tty_nr;
	s += (uint64_t)r->tpgid + r->flags + r->num_threads + r->state + r->wchan;
	s += (uint64_t)r->priority + (uint64_t)r->nice + (uint64_t)r->exit_signal;
	s += r->processor + r->rt_priority + r->policy + (uint64_t)r->exit_code;
	s += (unsigned char)r->comm[0] + r->start_time;
	s += r->minflt + r->cminflt + r->majflt + r->cmajflt + r->utime + r->stime;
	s += r->cutime + r->cstime + r->vsize + r->rss + r->rsslim + r->start_code;
	s += r->end_code + r->start_stack + r->kstk_esp + r->kstk_eip + r->blkio_delay;
	s += r->guest_time + r->cguest_time + r->start_data + r->end_data + r->start_brk;
	s += r->arg_start + r->arg_end + r->env_start + r->env_end;
	return s;
}

/* One record read as a tool would: every field, the first few printed. */
static uint64_t tdb_bpf_take(const unsigned char *p, long count)
{
	struct td_bench_rec r;

	memcpy(&r, p, sizeof(r));
	if (tdb_records && fwrite(&r, sizeof(r), 1, tdb_records) != 1)
		tdb_die("--records", errno);
	if (count < tdb_print)
		fprintf(stderr, TDB_PRINT_FMT, "bpf", r.pid, r.tgid, r.ppid, r.pgid,
			r.sid, r.state, r.comm, r.num_threads, (uint64_t)r.utime,
			(uint64_t)r.stime, (uint64_t)r.minflt, (uint64_t)r.vsize,
			(uint64_t)r.rss, r.nice, (uint64_t)r.start_time);
	return tdb_rec_sum(&r);
}

static long tdb_bpf_read(const char *path, unsigned char *buf)
{
	size_t have = 0, off;
	long count = 0;
	uint64_t sum = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		tdb_die(path, errno);
	for (;;) {
		n = read(fd, buf + have, TDB_BPF_BUF - have);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			tdb_die(path, errno);
		}
		if (n == 0)
			break;
		have += (size_t)n;
		for (off = 0; off + sizeof(struct td_bench_rec) <= have;
		     off += sizeof(struct td_bench_rec))
			sum += tdb_bpf_take(buf + off, count++);
		/* A record cut by the buffer's end (never seen: reads return whole
		 * seq buffers of at most 32 KiB) moves to the front. */
		memmove(buf, buf + off, have - off);
		have -= off;
	}
	close(fd);
	if (have)
		tdb_die("partial BPF record at the end", EBADMSG);
	tdb_sink += sum;
	return count;
}

/*
 * The open-coded iterator (task_iter_open.bpf.c): its pinned record array
 * (DIR/procs_recs) mapped once, before the reading loop, like the buffer
 * of the other readers. Returns the mapping; *max: its records.
 */
static const unsigned char *tdb_bpf_map(const char *path, uint32_t *max)
{
	struct bpf_map_info info;
	union bpf_attr a;
	void *p;
	int fd;

	memset(&a, 0, sizeof(a));
	a.pathname = (uint64_t)(uintptr_t)path;
	fd = (int)syscall(__NR_bpf, BPF_OBJ_GET, &a, sizeof(a));
	if (fd < 0)
		tdb_die(path, errno);
	memset(&info, 0, sizeof(info));
	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = sizeof(info);
	a.info.info = (uint64_t)(uintptr_t)&info;
	if (syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a)))
		tdb_die(path, errno);
	if (info.value_size != sizeof(struct td_bench_rec))
		tdb_die("the record array's value is not a struct td_bench_rec", EPROTO);
	p = mmap(NULL, (size_t)info.max_entries * sizeof(struct td_bench_rec), PROT_READ,
		 MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		tdb_die(path, errno);
	close(fd);
	*max = info.max_entries;
	return p;
}

/* One walk: the header through the pinned iterator, the records in place. */
static long tdb_bpf_open_read(const char *path, const unsigned char *recs, uint32_t max)
{
	struct td_bench_open_hdr h;
	uint64_t sum = 0;
	long i;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		tdb_die(path, errno);
	do
		n = read(fd, &h, sizeof(h));
	while (n < 0 && (errno == EAGAIN || errno == EINTR));
	if (n < 0)
		tdb_die(path, errno);
	close(fd);
	if (n != sizeof(h))
		tdb_die("no header from the open-coded iterator", EBADMSG);
	if (h.overflow || h.count > max)
		tdb_die("more processes than the record array holds", EOVERFLOW);
	for (i = 0; i < h.count; i++)
		sum += tdb_bpf_take(recs + (size_t)i * sizeof(struct td_bench_rec), i);
	tdb_sink += sum;
	return h.count;
}

/* ------------------------------------------------------------------------
 * run
 */

enum tdb_method {
	TDB_NOOP,
	TDB_STATUS_RAW,
	TDB_4FILES,
	TDB_NL_PID,
	TDB_NL_BASE_STAT,
	TDB_NL_FULL,
	TDB_NL_FULL_BULK,
	TDB_BPF,
	TDB_BPF_CLASSIC,
};

static const struct {
	const char *name;
	enum tdb_method m;
	uint32_t groups;
} tdb_methods[] = {
	{ "noop", TDB_NOOP, 0 },
	{ "proc_status_raw", TDB_STATUS_RAW, 0 },
	{ "proc_4files_parsed", TDB_4FILES,
	  TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT | TASKDIAG_GROUP_STATM |
	  TASKDIAG_GROUP_IO | TASKDIAG_GROUP_STATUS },
	{ "netlink_pid_only", TDB_NL_PID, 0 },
	{ "netlink_base_stat", TDB_NL_BASE_STAT, TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT },
	{ "netlink_full", TDB_NL_FULL,
	  TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT | TASKDIAG_GROUP_STATM |
	  TASKDIAG_GROUP_IO | TASKDIAG_GROUP_STATUS },
	{ "netlink_full_bulk", TDB_NL_FULL_BULK,
	  TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT | TASKDIAG_GROUP_STATM |
	  TASKDIAG_GROUP_IO | TASKDIAG_GROUP_STATUS },
	{ "bpf_iter", TDB_BPF, 0 },
	{ "bpf_iter_classic", TDB_BPF_CLASSIC, 0 },
};

static FILE *tdb_result_file(void)
{
	const char *s = getenv("TDBENCH_FD");
	FILE *f;
	int fd;

	if (!s || !*s)
		return stdout;
	fd = atoi(s);
	f = fdopen(fd, "w");
	if (!f)
		tdb_die("TDBENCH_FD", errno);
	return f;
}

static int tdb_run(int argc, char **argv)
{
	const char *bpf_dir = "/sys/fs/bpf/tdbench", *name;
	double loop_s[TDB_MAX_LOOPS], ut[TDB_MAX_LOOPS], st[TDB_MAX_LOOPS];
	struct taskdiag *td = NULL;
	struct tdb_consumer *c = NULL;
	struct taskdiag_request req = { 0 };
	unsigned char *bpfbuf = NULL;
	const unsigned char *recs = NULL;
	uint32_t recs_max = 0;
	char bpf_path[512], recs_path[512];
	bool threads = false, idle = false;
	int loops = 1, i, m = -1, err, since_ms = -1, pause_ms = 0;
	uint32_t uid = 0;
	bool by_uid = false;
	long count = 0, missing = 0;
	FILE *out;

	if (argc < 1) {
		fprintf(stderr, "tdbench run: no method\n");
		return 2;
	}
	name = argv[0];
	for (i = 0; i < (int)(sizeof(tdb_methods) / sizeof(tdb_methods[0])); i++)
		if (!strcmp(name, tdb_methods[i].name))
			m = i;
	if (m < 0) {
		fprintf(stderr, "tdbench run: unknown method '%s'\n", name);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--threads")) {
			threads = true;
		} else if (!strcmp(argv[i], "--loops") && i + 1 < argc) {
			loops = atoi(argv[++i]);
			if (loops < 1 || loops > TDB_MAX_LOOPS)
				loops = 1;
		} else if (!strcmp(argv[i], "--print") && i + 1 < argc) {
			tdb_print = atol(argv[++i]);
		} else if (!strcmp(argv[i], "--records") && i + 1 < argc) {
			tdb_records = fopen(argv[++i], "we");
			if (!tdb_records)
				tdb_die(argv[i], errno);
		} else if (!strcmp(argv[i], "--bpf-dir") && i + 1 < argc) {
			bpf_dir = argv[++i];
		} else if (!strcmp(argv[i], "--uid") && i + 1 < argc) {
			uid = (uint32_t)strtoul(argv[++i], NULL, 10);
			by_uid = true;
		} else if (!strcmp(argv[i], "--ran-since-ms") && i + 1 < argc) {
			since_ms = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--pause-ms") && i + 1 < argc) {
			pause_ms = atoi(argv[++i]);
			if (pause_ms < 0)
				pause_ms = 0;
		} else if (!strcmp(argv[i], "--idle")) {
			idle = true;
		} else {
			fprintf(stderr, "tdbench run: unknown option '%s'\n", argv[i]);
			return 2;
		}
	}

	/* Set-up, outside the timed loop. */
	switch (tdb_methods[m].m) {
	case TDB_4FILES:
	case TDB_NL_PID:
	case TDB_NL_BASE_STAT:
	case TDB_NL_FULL:
	case TDB_NL_FULL_BULK:
		err = taskdiag_open(&td, tdb_methods[m].m == TDB_4FILES ?
				    TASKDIAG_BACKEND_PROCFS : TASKDIAG_BACKEND_NETLINK);
		if (err) {
			fprintf(stderr, "tdbench: taskdiag_open: %s\n", taskdiag_strerror(err));
			return 1;
		}
		c = malloc(sizeof(*c));
		if (!c)
			tdb_die("malloc", ENOMEM);
		req.scope = threads ? TASKDIAG_SCOPE_ALL_THREADS : TASKDIAG_SCOPE_ALL_PROCESSES;
		req.groups = tdb_methods[m].groups;
		if (by_uid) {
			req.uids = &uid;
			req.nuids = 1;
		}
		break;
	case TDB_BPF:
	case TDB_BPF_CLASSIC:
		snprintf(bpf_path, sizeof(bpf_path), "%s/%s", bpf_dir,
			 threads ? "threads" : tdb_methods[m].m == TDB_BPF ? "procs" : "procs_classic");
		snprintf(recs_path, sizeof(recs_path), "%s/procs_recs", bpf_dir);
		if (tdb_methods[m].m == TDB_BPF_CLASSIC && (threads || access(bpf_path, F_OK))) {
			fprintf(stderr, "tdbench: bpf_iter_classic: process scope, and only where "
				"bpf_iter is the open-coded iterator (%s)\n", bpf_path);
			return 2;
		}
		if (tdb_methods[m].m == TDB_BPF && !threads && !access(recs_path, F_OK)) {
			recs = tdb_bpf_map(recs_path, &recs_max);
			break;
		}
		bpfbuf = malloc(TDB_BPF_BUF);
		if (!bpfbuf)
			tdb_die("malloc", ENOMEM);
		/* Fault the buffer in: it is set-up, not reading. */
		memset(bpfbuf, 0, TDB_BPF_BUF);
		break;
	default:
		break;
	}

	if ((by_uid || since_ms >= 0) && !td) {
		fprintf(stderr, "tdbench: --uid and --ran-since-ms are for the netlink methods\n");
		return 2;
	}
	for (i = 0; i < loops; i++) {
		struct rusage r0, r1;
		double t0, t1;

		if (since_ms >= 0) {
			/* Outside the timing: the first stamp, the sampler's interval. */
			if (!tdb_stamp_seen) {
				struct taskdiag_request first = req;

				first.groups = 0;
				first.flags = TASKDIAG_REQ_RAN_SINCE;
				first.ran_since = 0;
				tdb_consumer_init(c, 0);
				err = taskdiag_dump(td, &first, tdb_consume, c);
				if (err || !tdb_stamp_seen)
					tdb_die("the first ran-since dump", err ? -err : EPROTO);
			}
			usleep((useconds_t)since_ms * 1000);
			req.flags = TASKDIAG_REQ_RAN_SINCE | (idle ? TASKDIAG_REQ_RAN_SINCE_IDLE : 0);
			req.ran_since = tdb_stamp;
			tdb_stamp_seen = false;
		}
		if (pause_ms > 0)
			usleep((useconds_t)pause_ms * 1000);
		getrusage(RUSAGE_SELF, &r0);
		t0 = tdb_now();
		switch (tdb_methods[m].m) {
		case TDB_NOOP:
			count = 0;
			break;
		case TDB_STATUS_RAW:
			count = tdb_status_raw(threads);
			break;
		case TDB_BPF:
		case TDB_BPF_CLASSIC:
			count = recs ? tdb_bpf_open_read(bpf_path, recs, recs_max) :
				tdb_bpf_read(bpf_path, bpfbuf);
			break;
		default:
			tdb_consumer_init(c, req.groups);
			err = taskdiag_dump(td, &req, tdb_methods[m].m == TDB_NL_FULL_BULK ?
					    tdb_consume_bulk : tdb_consume, c);
			if (err) {
				fprintf(stderr, "tdbench: taskdiag_dump: %s%s%s\n",
					taskdiag_strerror(err), taskdiag_extack(td) ? ": " : "",
					taskdiag_extack(td) ? taskdiag_extack(td) : "");
				return 1;
			}
			count = c->count;
			missing += c->missing;
			tdb_sink += c->sum;
			break;
		}
		t1 = tdb_now();
		getrusage(RUSAGE_SELF, &r1);
		loop_s[i] = t1 - t0;
		ut[i] = tdb_tv(&r1.ru_utime) - tdb_tv(&r0.ru_utime);
		st[i] = tdb_tv(&r1.ru_stime) - tdb_tv(&r0.ru_stime);
	}

	out = tdb_result_file();
	fprintf(out, "{\"method\":\"%s\",\"threads\":%s,\"tasks\":%ld,\"missing_items\":%ld,"
		"\"uid\":%ld,\"ran_since_ms\":%d,\"idle\":%s,\"pause_ms\":%d,\"loop_s\":[", name,
		threads ? "true" : "false", count, missing, by_uid ? (long)uid : -1L, since_ms,
		idle ? "true" : "false", pause_ms);
	for (i = 0; i < loops; i++)
		fprintf(out, "%s%.6f", i ? "," : "", loop_s[i]);
	fprintf(out, "],\"loop_utime_s\":[");
	for (i = 0; i < loops; i++)
		fprintf(out, "%s%.6f", i ? "," : "", ut[i]);
	fprintf(out, "],\"loop_stime_s\":[");
	for (i = 0; i < loops; i++)
		fprintf(out, "%s%.6f", i ? "," : "", st[i]);
	fprintf(out, "]}\n");
	fflush(out);

	taskdiag_close(td);
	free(c);
	free(bpfbuf);
	if (tdb_records && fclose(tdb_records))
		tdb_die("--records", errno);
	if (recs)
		munmap((void *)recs, (size_t)recs_max * sizeof(struct td_bench_rec));
	return 0;
}

/* ------------------------------------------------------------------------
 * exec: whole-process figures
 */

static void tdb_json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

/*
 * Run @argv once, standard output to /dev/null, and print one JSON line:
 * {"id":..., "rep":..., "wall_s":..., rusage, "child": what it reported}.
 * Return the child's exit status (0 when it succeeded).
 */
static int tdb_exec_once(const char *id, int rep, char **argv, bool print)
{
	char child[4096];
	struct rusage ru;
	int pfd[2], status, rc;
	double t0, t1;
	ssize_t n;
	size_t got = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		tdb_die("pipe", errno);
	fflush(stdout);
	t0 = tdb_now();
	pid = fork();
	if (pid < 0)
		tdb_die("fork", errno);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
			_exit(126);
		/* The result pipe as fd 3, inherited across exec. */
		if (pfd[1] == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(pfd[1], 3) < 0)
			_exit(126);
		setenv("TDBENCH_FD", "3", 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	if (wait4(pid, &status, 0, &ru) < 0)
		tdb_die("wait4", errno);
	t1 = tdb_now();
	while (got < sizeof(child) - 1 &&
	       (n = read(pfd[0], child + got, sizeof(child) - 1 - got)) > 0)
		got += (size_t)n;
	close(pfd[0]);
	child[got] = 0;
	while (got && (child[got - 1] == '\n' || child[got - 1] == ' '))
		child[--got] = 0;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (!print && !rc)
		return 0;
	printf("{\"id\":");
	tdb_json_str(id);
	printf(",\"rep\":%d,\"wall_s\":%.6f,\"utime_s\":%.6f,\"stime_s\":%.6f,"
	       "\"maxrss_kb\":%ld,\"status\":%d,\"child\":",
	       rep, t1 - t0, tdb_tv(&ru.ru_utime), tdb_tv(&ru.ru_stime), ru.ru_maxrss, rc);
	if (got && child[0] == '{')
		fputs(child, stdout);
	else if (got)
		tdb_json_str(child);
	else
		fputs("null", stdout);
	printf("}\n");
	fflush(stdout);
	return rc;
}

/* One line of a plan: "ID<TAB>REPS<TAB>ARG0<TAB>ARG1...". */
struct tdb_plan {
	char *id;
	int reps;
	char **argv;
};

static int tdb_read_plan(const char *path, struct tdb_plan **plan)
{
	char *line = NULL;
	size_t cap = 0;
	int n = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		tdb_die(path, errno);
	*plan = NULL;
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok, *p = line;
		struct tdb_plan *e;
		int argc = 0;
		size_t len;

		line[strcspn(line, "\n")] = 0;
		if (!*line || *line == '#')
			continue;
		len = strlen(line);	/* bounds the number of arguments */
		*plan = realloc(*plan, sizeof(**plan) * (size_t)(n + 1));
		if (!*plan)
			tdb_die("realloc", ENOMEM);
		e = &(*plan)[n];
		e->id = strdup(strtok_r(p, "\t", &save));
		tok = strtok_r(NULL, "\t", &save);
		e->reps = tok ? atoi(tok) : 0;
		e->argv = calloc(len + 2, sizeof(char *));
		if (!e->id || !e->argv)
			tdb_die("malloc", ENOMEM);
		while ((tok = strtok_r(NULL, "\t", &save)))
			e->argv[argc++] = strdup(tok);
		if (!argc || e->reps < 0) {
			fprintf(stderr, "tdbench: bad plan line for '%s'\n", e->id);
			exit(2);
		}
		n++;
	}
	free(line);
	fclose(f);
	return n;
}

/*
 * Run the plan round-robin: one run of every entry per round, as long as
 * the entry has runs left, so that the background load falls alike on all.
 */
static int tdb_exec_plan(const char *path)
{
	struct tdb_plan *plan;
	int n, i, r, max = 0, rc = 0;

	n = tdb_read_plan(path, &plan);
	for (i = 0; i < n; i++)
		if (plan[i].reps > max)
			max = plan[i].reps;
	for (r = 0; r < max; r++)
		for (i = 0; i < n; i++)
			if (r < plan[i].reps && tdb_exec_once(plan[i].id, r, plan[i].argv, true)) {
				plan[i].reps = r;	/* failed: no more runs of it */
				rc = 1;
			}
	return rc;
}

static int tdb_exec(int argc, char **argv)
{
	int reps = 5, warmup = 1, i, r;

	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
			warmup = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--plan") && i + 1 < argc)
			return tdb_exec_plan(argv[i + 1]);
		else {
			fprintf(stderr, "tdbench exec: unknown option '%s'\n", argv[i]);
			return 2;
		}
	}
	if (i >= argc - 1 || reps < 1 || reps > TDB_MAX_REPS || warmup < 0) {
		fprintf(stderr, "usage: tdbench exec [--reps N] [--warmup W] -- CMD [ARGS...]\n"
			"       tdbench exec --plan FILE\n");
		return 2;
	}
	argv += i + 1;
	for (r = -warmup; r < reps; r++)
		if (tdb_exec_once(argv[0], r, argv, r >= 0))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return tdb_run(argc - 2, argv + 2);
	if (argc >= 2 && !strcmp(argv[1], "exec"))
		return tdb_exec(argc - 2, argv + 2);
	fprintf(stderr,
		"usage: tdbench run METHOD [--threads] [--loops N] [--bpf-dir DIR] [--print N]\n"
		"                   [--records FILE]\n"
		"       tdbench exec [--reps N] [--warmup W] -- CMD [ARGS...]\n"
		"       tdbench exec --plan FILE\n");
	return 2;
}
