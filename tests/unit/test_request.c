// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The request members of 0.4 (filters, ran-since) on the host: what the
 * library refuses before asking the kernel, the filters on the procfs
 * backend (against the same selection made from full dumps),
 * the decoding of next-ran-since and ran-since-idle, and the ABI promise
 * that a program built against the 0.1 header (a three-member struct
 * taskdiag_request) still works: its symbol versions read no byte past the
 * old struct, which this test puts just before an inaccessible page.
 *
 * Usage: test_request LIBTASKDIAG_SO (the shared library, for dlvsym()).
 */
#include <dlfcn.h>
#include <inttypes.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/netlink.h>
#include <linux/task_diag.h>

#include "internal.h"
#include "td_msg.h"

static const char *so_path;

static struct taskdiag *open_procfs(void)
{
	struct taskdiag *td = NULL;

	assert_int_equal(taskdiag_open(&td, TASKDIAG_BACKEND_PROCFS), 0);
	return td;
}

static int start(struct taskdiag *td, const struct taskdiag_request *req)
{
	struct taskdiag_iter *it = NULL;
	int err = taskdiag_iter_start(td, req, &it);

	if (!err)
		taskdiag_iter_end(it);
	return err;
}

/* Inconsistent members are -EINVAL in the library, whatever the backend. */
static void test_bad_members(void **state)
{
	static const uint32_t ids[TASKDIAG_FILTER_MAX + 1];
	struct taskdiag *td = open_procfs();
	const struct taskdiag_request bad[] = {
		{ .npids = 1 },				/* a count without its array */
		{ .nuids = 2 },
		{ .neuids = 1 },
		{ .npids = TASKDIAG_FILTER_MAX + 1, .pids = ids },
		{ .nuids = TASKDIAG_FILTER_MAX + 1, .uids = ids },
		{ .neuids = TASKDIAG_FILTER_MAX + 1, .euids = ids },
		{ .flags = TASKDIAG_REQ_RAN_SINCE_IDLE },	/* idle without ran-since */
		{ .flags = 1u << 2 },				/* an unknown flag */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (start(td, &bad[i]) != -EINVAL)
			fail_msg("bad request %zu accepted", i);
	}
	taskdiag_close(td);
}

/*
 * The pids (and each record's uid and comm) of @req on the procfs backend;
 * returns the count, or a negative errno.
 */
#define MAXREC 65536
struct rec {
	pid_t pid;
	uint64_t uid;
	char comm[16];
};
static struct rec before[MAXREC], got[MAXREC], after[MAXREC];

static int collect(struct taskdiag *td, const struct taskdiag_request *req, struct rec *out)
{
	const struct taskdiag_task *t;
	struct taskdiag_iter *it;
	int n = 0, ret;

	ret = taskdiag_iter_start(td, req, &it);
	if (ret)
		return ret;
	while ((ret = taskdiag_iter_next(it, &t)) == 1 && n < MAXREC) {
		const char *comm = "";

		out[n].pid = taskdiag_task_pid(t);
		out[n].uid = UINT64_MAX;
		taskdiag_task_get_u64(t, TASKDIAG_ITEM_CRED_UID, &out[n].uid);
		taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &comm);
		snprintf(out[n].comm, sizeof(out[n].comm), "%s", comm);
		n++;
	}
	taskdiag_iter_end(it);
	return ret < 0 ? ret : n;
}

static const struct rec *find(const struct rec *r, int n, pid_t pid)
{
	for (int i = 0; i < n; i++)
		if (r[i].pid == pid)
			return &r[i];
	return NULL;
}

/*
 * A filtered procfs dump against the same selection made here from full
 * dumps before and after it: a task in both with the same uid and comm
 * is in the filtered one exactly when @match says; every task of the
 * filtered one matches by its own values. Returns how many matched.
 */
static int check_filter(struct taskdiag *td, const char *what, struct taskdiag_request *req,
			bool (*match)(const struct rec *r, const void *arg), const void *arg)
{
	struct taskdiag_request full = { .groups = TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_CRED };
	int nb, ng, na, want = 0;

	req->groups = full.groups;
	nb = collect(td, &full, before);
	ng = collect(td, req, got);
	na = collect(td, &full, after);
	if (nb <= 0 || ng < 0 || na <= 0)
		fail_msg("%s: dumps failed (%d, %d, %d): %s", what, nb, ng, na,
			 taskdiag_extack(td) ? taskdiag_extack(td) : "");
	for (int i = 0; i < ng; i++)
		if (!match(&got[i], arg))
			fail_msg("%s: pid %d (uid %" PRIu64 ", %s) does not match", what, got[i].pid,
				 got[i].uid, got[i].comm);
	for (int i = 0; i < nb; i++) {
		const struct rec *a = find(after, na, before[i].pid);

		if (!a || a->uid != before[i].uid || strcmp(a->comm, before[i].comm) ||
		    !match(&before[i], arg))
			continue;
		want++;
		if (!find(got, ng, before[i].pid))
			fail_msg("%s: pid %d matches but is missing", what, before[i].pid);
	}
	return want;
}

static bool match_pids(const struct rec *r, const void *arg)
{
	const uint32_t *p = arg;

	return r->pid == (pid_t)p[0] || r->pid == (pid_t)p[1] || r->pid == (pid_t)p[2];
}

static bool match_uid(const struct rec *r, const void *arg)
{
	return r->uid == *(const uint64_t *)arg;
}

static bool match_comm(const struct rec *r, const void *arg)
{
	return !strcmp(r->comm, arg);
}

static bool match_any(const struct rec *r, const void *arg)
{
	(void)r;
	(void)arg;
	return true;
}

static bool match_none(const struct rec *r, const void *arg)
{
	(void)r;
	(void)arg;
	return false;
}

/* The procfs backend applies the filters itself, as the module would. */
static void test_procfs_filters(void **state)
{
	uint32_t mine[3] = { 1, (uint32_t)getpid(), 3999999 }, uid = (uint32_t)getuid();
	uint64_t uid64 = uid;
	uint32_t nouid = 4242, me = (uint32_t)getpid();
	struct taskdiag *td = open_procfs();
	struct taskdiag_request r;
	char comm[16] = "";
	struct statfs sfs;
	struct stat st;
	FILE *f;

	(void)state;
	f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(comm, sizeof(comm), f));
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';

	r = (struct taskdiag_request){ .npids = 3, .pids = mine };
	assert_true(check_filter(td, "pids", &r, match_pids, mine) >= 1);
	assert_non_null(find(got, collect(td, &r, got), getpid()));
	r = (struct taskdiag_request){ .scope = TASKDIAG_SCOPE_ALL_THREADS, .npids = 1, .pids = &me };
	assert_int_equal(collect(td, &r, got), 1);
	r = (struct taskdiag_request){ .nuids = 1, .uids = &uid };
	assert_true(check_filter(td, "uid", &r, match_uid, &uid64) >= 1);
	r = (struct taskdiag_request){ .neuids = 1, .euids = &uid };
	assert_true(check_filter(td, "euid", &r, match_uid, &uid64) >= 1);
	r = (struct taskdiag_request){ .comm = comm };
	assert_true(check_filter(td, "comm", &r, match_comm, comm) >= 1);
	r = (struct taskdiag_request){ .comm = comm, .nuids = 1, .uids = &nouid };
	check_filter(td, "comm and a uid no task has", &r, match_none, NULL);
	r = (struct taskdiag_request){ .cgroup_path = "/" };
	assert_true(check_filter(td, "cgroup /", &r, match_any, NULL) > 1);
	r = (struct taskdiag_request){ .flags = TASKDIAG_REQ_RAN_SINCE };
	assert_true(check_filter(td, "ran-since 0 keeps every task", &r, match_any, NULL) > 1);

	/* The id of the cgroup2 root: every task; elsewhere not supported, said so. */
	r = (struct taskdiag_request){ .cgroup_id = 1 };
	if (statfs("/sys/fs/cgroup", &sfs) == 0 && (unsigned long)sfs.f_type == 0x63677270 &&
	    stat("/sys/fs/cgroup", &st) == 0) {
		r.cgroup_id = st.st_ino;
		assert_true(check_filter(td, "cgroup id of the root", &r, match_any, NULL) > 1);
	} else {
		assert_int_equal(start(td, &r), -EOPNOTSUPP);
		assert_non_null(strstr(taskdiag_extack(td), "cgroup"));
	}

	/* What the module refuses with EINVAL, the backend refuses too, explained. */
	{
		const struct taskdiag_request bad[] = {
			{ .comm = "" },
			{ .comm = "sixteen-bytes-xx" },
			{ .cgroup_path = "relative" },
			{ .cgroup_path = "/", .cgroup_id = 1 },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			if (start(td, &bad[i]) != -EINVAL)
				fail_msg("bad procfs filter %zu accepted", i);
			assert_non_null(taskdiag_extack(td));
		}
	}
	taskdiag_close(td);
}

/* A reply message: pid and tgid 42; the test puts what follows. */
static void reply_start(struct td_msg *m)
{
	m->len = 0;
	td_msg_put_u32(m, TASK_DIAG_A_TASK_PID, 42);
	td_msg_put_u32(m, TASK_DIAG_A_TASK_TGID, 42);
}

static void test_decode_stamp_and_idle(void **state)
{
	uint64_t stamp = 0x123456789abcULL, v = 0;
	static struct taskdiag_task t;
	static struct td_msg m;

	(void)state;
	/* Neither: no stamp, not idle. */
	reply_start(&m);
	assert_int_equal(td_nl_parse_task(m.b, m.len, &t), 0);
	assert_int_equal(taskdiag_task_next_ran_since(&t, &v), -ENOENT);
	assert_false(taskdiag_task_is_idle(&t));
	/* Both. */
	reply_start(&m);
	td_msg_put(&m, TASK_DIAG_A_TASK_NEXT_RAN_SINCE, &stamp, 8);
	td_msg_put(&m, TASK_DIAG_A_TASK_RAN_SINCE_IDLE, NULL, 0);
	assert_int_equal(td_nl_parse_task(m.b, m.len, &t), 0);
	assert_int_equal(taskdiag_task_next_ran_since(&t, &v), 0);
	assert_true(v == stamp);
	assert_true(taskdiag_task_is_idle(&t));
	assert_int_equal(taskdiag_task_pid(&t), 42);
	assert_false(taskdiag_task_has(&t, TASKDIAG_ITEM_BASE_COMM));
	assert_int_equal(taskdiag_task_next_ran_since(NULL, &v), -EINVAL);
	assert_int_equal(taskdiag_task_next_ran_since(&t, NULL), -EINVAL);
	/* Malformed: a stamp of 4 bytes, a flag with a payload. */
	reply_start(&m);
	td_msg_put(&m, TASK_DIAG_A_TASK_NEXT_RAN_SINCE, &stamp, 4);
	assert_int_equal(td_nl_parse_task(m.b, m.len, &t), -EBADMSG);
	assert_false(taskdiag_task_is_idle(&t));
	reply_start(&m);
	td_msg_put(&m, TASK_DIAG_A_TASK_RAN_SINCE_IDLE, &stamp, 4);
	assert_int_equal(td_nl_parse_task(m.b, m.len, &t), -EBADMSG);
	assert_false(taskdiag_task_is_idle(&t));
}

/* struct taskdiag_request of the 0.1 header. */
struct request_v1 {
	enum taskdiag_scope scope;
	pid_t pid;
	uint32_t groups;
};

typedef int (*iter_start_fn)(struct taskdiag *, const void *, struct taskdiag_iter **);
typedef int (*dump_fn)(struct taskdiag *, const void *, taskdiag_cb, void *);

static int count_cb(const struct taskdiag_task *t, void *arg)
{
	int *n = arg;

	if (taskdiag_task_pid(t) == getpid())
		(*n)++;
	return 0;
}

/*
 * The 0.1 versions, found with dlvsym() as a program linked against 0.1
 * finds them, read only the old struct: it ends where an inaccessible page
 * begins, so a read of a 0.4 member would kill the test.
 */
static void test_v1_versions_read_only_the_old_struct(void **state)
{
	long page = sysconf(_SC_PAGESIZE);
	int (*open_fn)(struct taskdiag **, enum taskdiag_backend);
	void (*close_fn)(struct taskdiag *);
	int (*next_fn)(struct taskdiag_iter *, const struct taskdiag_task **);
	void (*end_fn)(struct taskdiag_iter *);
	const struct taskdiag_task *t;
	struct taskdiag_iter *it = NULL;
	struct taskdiag *td = NULL;
	struct request_v1 *old;
	iter_start_fn start_v1, start_v4;
	dump_fn dump_v1;
	void *h, *mem;
	int n = 0;

	(void)state;
	h = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		fail_msg("dlopen %s: %s", so_path, dlerror());
	*(void **)&open_fn = dlsym(h, "taskdiag_open");
	*(void **)&close_fn = dlsym(h, "taskdiag_close");
	*(void **)&next_fn = dlsym(h, "taskdiag_iter_next");
	*(void **)&end_fn = dlsym(h, "taskdiag_iter_end");
	*(void **)&start_v1 = dlvsym(h, "taskdiag_iter_start", "TASKDIAG_0.1");
	*(void **)&start_v4 = dlvsym(h, "taskdiag_iter_start", "TASKDIAG_0.4");
	*(void **)&dump_v1 = dlvsym(h, "taskdiag_dump", "TASKDIAG_0.1");
	assert_non_null(open_fn);
	assert_non_null(start_v1);
	assert_non_null(start_v4);
	assert_non_null(dump_v1);
	assert_true((void *)start_v1 != (void *)start_v4);
	assert_non_null(dlvsym(h, "taskdiag_sample_take", "TASKDIAG_0.2"));
	assert_non_null(dlvsym(h, "taskdiag_sample_take", "TASKDIAG_0.4"));
	assert_non_null(dlvsym(h, "taskdiag_replay_request", "TASKDIAG_0.1"));

	mem = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(mem != MAP_FAILED);
	assert_int_equal(mprotect((char *)mem + page, page, PROT_NONE), 0);
	old = (struct request_v1 *)(void *)((char *)mem + page - sizeof(*old));
	old->scope = TASKDIAG_SCOPE_TASK;
	old->pid = getpid();
	old->groups = TASKDIAG_GROUP_BASE;

	assert_int_equal(open_fn(&td, TASKDIAG_BACKEND_PROCFS), 0);
	assert_int_equal(start_v1(td, old, &it), 0);
	assert_int_equal(next_fn(it, &t), 1);
	assert_int_equal(taskdiag_task_pid(t), getpid());
	assert_int_equal(next_fn(it, &t), 0);
	end_fn(it);
	assert_int_equal(dump_v1(td, old, count_cb, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(start_v1(td, NULL, &it), -EINVAL);
	close_fn(td);
	munmap(mem, 2 * page);
	dlclose(h);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_members),
		cmocka_unit_test(test_procfs_filters),
		cmocka_unit_test(test_decode_stamp_and_idle),
		cmocka_unit_test(test_v1_versions_read_only_the_old_struct),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: test_request LIBTASKDIAG_SO\n");
		return 2;
	}
	so_path = argv[1];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
