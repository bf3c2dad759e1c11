// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The request members of 0.4 (filters, ran-since) on the host: what the
 * library refuses before asking the kernel, the procfs backend's refusal,
 * the decoding of next-ran-since and ran-since-idle, and the ABI promise
 * that a program built against the 0.1 header (a three-member struct
 * taskdiag_request) still works: its symbol versions read no byte past the
 * old struct, which this test puts just before an inaccessible page.
 *
 * Usage: test_request LIBTASKDIAG_SO (the shared library, for dlvsym()).
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/netlink.h>
#include <linux/task_diag.h>

#include "internal.h"

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

/* The procfs backend cannot filter: each member alone is -EOPNOTSUPP, explained. */
static void test_procfs_refuses_filters(void **state)
{
	static const uint32_t one[] = { 1 };
	struct taskdiag *td = open_procfs();
	const struct taskdiag_request reqs[] = {
		{ .npids = 1, .pids = one },
		{ .nuids = 1, .uids = one },
		{ .neuids = 1, .euids = one },
		{ .cgroup_id = 1 },
		{ .cgroup_path = "/" },
		{ .comm = "init" },
		{ .flags = TASKDIAG_REQ_RAN_SINCE },
	};
	const struct taskdiag_request plain = { .scope = TASKDIAG_SCOPE_TASK, .pid = getpid() };

	(void)state;
	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		if (start(td, &reqs[i]) != -EOPNOTSUPP)
			fail_msg("procfs request %zu not refused", i);
		assert_non_null(taskdiag_extack(td));
		assert_non_null(strstr(taskdiag_extack(td), "module"));
	}
	/* Control: without them the same handle works. */
	assert_int_equal(start(td, &plain), 0);
	taskdiag_close(td);
}

/* A reply message: pid, tgid, and @extra attributes. */
static size_t build(unsigned char *buf, const void *extra, size_t extra_len)
{
	struct nlattr a = { .nla_len = NLA_HDRLEN + 4 };
	uint32_t pid = 42;
	size_t off = 0;

	a.nla_type = TASK_DIAG_A_TASK_PID;
	memcpy(buf + off, &a, sizeof(a));
	memcpy(buf + off + NLA_HDRLEN, &pid, 4);
	off += NLA_ALIGN(a.nla_len);
	a.nla_type = TASK_DIAG_A_TASK_TGID;
	memcpy(buf + off, &a, sizeof(a));
	memcpy(buf + off + NLA_HDRLEN, &pid, 4);
	off += NLA_ALIGN(a.nla_len);
	if (extra_len)
		memcpy(buf + off, extra, extra_len);
	return off + extra_len;
}

static size_t put_attr(unsigned char *p, int type, const void *data, uint16_t len)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + len), .nla_type = (uint16_t)type };

	memcpy(p, &a, sizeof(a));
	if (len)	/* a flag has no payload, and may have no pointer */
		memcpy(p + NLA_HDRLEN, data, len);
	memset(p + NLA_HDRLEN + len, 0, NLA_ALIGN(a.nla_len) - a.nla_len);
	return NLA_ALIGN(a.nla_len);
}

static void test_decode_stamp_and_idle(void **state)
{
	unsigned char extra[64], buf[128];
	uint64_t stamp = 0x123456789abcULL, v = 0;
	static struct taskdiag_task t;
	size_t n, len;

	(void)state;
	/* Neither: no stamp, not idle. */
	len = build(buf, NULL, 0);
	assert_int_equal(td_nl_parse_task(buf, len, &t), 0);
	assert_int_equal(taskdiag_task_next_ran_since(&t, &v), -ENOENT);
	assert_false(taskdiag_task_is_idle(&t));
	/* Both. */
	n = put_attr(extra, TASK_DIAG_A_TASK_NEXT_RAN_SINCE, &stamp, 8);
	n += put_attr(extra + n, TASK_DIAG_A_TASK_RAN_SINCE_IDLE, NULL, 0);
	len = build(buf, extra, n);
	assert_int_equal(td_nl_parse_task(buf, len, &t), 0);
	assert_int_equal(taskdiag_task_next_ran_since(&t, &v), 0);
	assert_true(v == stamp);
	assert_true(taskdiag_task_is_idle(&t));
	assert_int_equal(taskdiag_task_pid(&t), 42);
	assert_false(taskdiag_task_has(&t, TASKDIAG_ITEM_BASE_COMM));
	assert_int_equal(taskdiag_task_next_ran_since(NULL, &v), -EINVAL);
	assert_int_equal(taskdiag_task_next_ran_since(&t, NULL), -EINVAL);
	/* Malformed: a stamp of 4 bytes, a flag with a payload. */
	n = put_attr(extra, TASK_DIAG_A_TASK_NEXT_RAN_SINCE, &stamp, 4);
	len = build(buf, extra, n);
	assert_int_equal(td_nl_parse_task(buf, len, &t), -EBADMSG);
	assert_false(taskdiag_task_is_idle(&t));
	n = put_attr(extra, TASK_DIAG_A_TASK_RAN_SINCE_IDLE, &stamp, 4);
	len = build(buf, extra, n);
	assert_int_equal(td_nl_parse_task(buf, len, &t), -EBADMSG);
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
		cmocka_unit_test(test_procfs_refuses_filters),
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
