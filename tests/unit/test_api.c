// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The public API, through the shared library as a program links it: misuse
 * is refused with -EINVAL (never a crash), one iterator at a time, the
 * callback's stop value comes back, and on this host (no task_diag module,
 * and a kernel without module support at all) the netlink backend says
 * -TASKDIAG_ENOMODULE while AUTO falls back to procfs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <taskdiag/taskdiag.h>

static struct taskdiag *open_procfs(void)
{
	struct taskdiag *td = NULL;

	assert_int_equal(taskdiag_open(&td, TASKDIAG_BACKEND_PROCFS), 0);
	assert_non_null(td);
	assert_int_equal(taskdiag_get_backend(td), TASKDIAG_BACKEND_PROCFS);
	return td;
}

static int count_cb(const struct taskdiag_task *t, void *arg)
{
	(void)t;
	++*(int *)arg;
	return 0;
}

static void test_open_misuse(void **state)
{
	struct taskdiag *td = (struct taskdiag *)&td;

	(void)state;
	assert_int_equal(taskdiag_open(NULL, TASKDIAG_BACKEND_PROCFS), -EINVAL);
	assert_int_equal(taskdiag_open(NULL, TASKDIAG_BACKEND_AUTO), -EINVAL);
	assert_int_equal(taskdiag_open(&td, (enum taskdiag_backend)3), -EINVAL);
	assert_null(td);
	td = (struct taskdiag *)&td;
	assert_int_equal(taskdiag_open(&td, (enum taskdiag_backend)-1), -EINVAL);
	assert_null(td);
	assert_int_equal(taskdiag_open(&td, (enum taskdiag_backend)1000), -EINVAL);
	assert_null(td);
}

static void test_null_is_safe(void **state)
{
	(void)state;
	taskdiag_close(NULL);
	taskdiag_iter_end(NULL);
	assert_null(taskdiag_extack(NULL));
	assert_int_equal(taskdiag_get_backend(NULL), TASKDIAG_BACKEND_AUTO);
	assert_false(taskdiag_task_has(NULL, TASKDIAG_ITEM_PID));
	assert_int_equal(taskdiag_task_pid(NULL), 0);
	assert_int_equal(taskdiag_task_tgid(NULL), 0);
}

static void test_getters_null(void **state)
{
	struct taskdiag *td = open_procfs();
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_TASK, .pid = getpid(),
					.groups = TASKDIAG_GROUP_ALL };
	struct taskdiag_iter *it;
	const struct taskdiag_task *t;
	uint64_t u;
	int64_t s;
	const char *str;
	const void *data;
	size_t len;

	(void)state;
	/* NULL task */
	assert_int_equal(taskdiag_task_get_u64(NULL, TASKDIAG_ITEM_PID, &u), -EINVAL);
	assert_int_equal(taskdiag_task_get_s64(NULL, TASKDIAG_ITEM_BASE_TPGID, &s), -EINVAL);
	assert_int_equal(taskdiag_task_get_string(NULL, TASKDIAG_ITEM_BASE_COMM, &str), -EINVAL);
	assert_int_equal(taskdiag_task_get_bytes(NULL, TASKDIAG_ITEM_CMDLINE, &data, &len),
			 -EINVAL);

	/* a real record, NULL out pointers */
	assert_int_equal(taskdiag_iter_start(td, &req, &it), 0);
	assert_int_equal(taskdiag_iter_next(it, &t), 1);
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_PID, NULL), -EINVAL);
	assert_int_equal(taskdiag_task_get_s64(t, TASKDIAG_ITEM_BASE_TPGID, NULL), -EINVAL);
	assert_int_equal(taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, NULL), -EINVAL);
	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CMDLINE, NULL, &len), -EINVAL);
	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CMDLINE, &data, NULL), -EINVAL);
	/* and out-of-range items */
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM__COUNT, &u), -EINVAL);
	assert_int_equal(taskdiag_task_get_u64(t, (enum taskdiag_item)-5, &u), -EINVAL);
	/* the same calls, done right */
	assert_int_equal(taskdiag_task_get_u64(t, TASKDIAG_ITEM_PID, &u), 0);
	assert_int_equal(u, getpid());
	assert_int_equal(taskdiag_task_get_s64(t, TASKDIAG_ITEM_BASE_TPGID, &s), 0);
	assert_int_equal(taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &str), 0);
	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CMDLINE, &data, &len), 0);
	/* iterator misuse */
	assert_int_equal(taskdiag_iter_next(NULL, &t), -EINVAL);
	assert_int_equal(taskdiag_iter_next(it, NULL), -EINVAL);
	taskdiag_iter_end(it);
	taskdiag_close(td);
}

static void test_request_misuse(void **state)
{
	struct taskdiag *td = open_procfs();
	struct taskdiag_request req = { .scope = 0, .pid = 0, .groups = 0 };
	struct taskdiag_iter *it = (struct taskdiag_iter *)&req;
	int n = 0;

	(void)state;
	assert_int_equal(taskdiag_dump(td, &req, NULL, NULL), -EINVAL);
	assert_int_equal(taskdiag_dump(NULL, &req, count_cb, &n), -EINVAL);
	assert_int_equal(taskdiag_dump(td, NULL, count_cb, &n), -EINVAL);
	assert_int_equal(taskdiag_iter_start(NULL, &req, &it), -EINVAL);
	assert_int_equal(taskdiag_iter_start(td, NULL, &it), -EINVAL);
	assert_int_equal(taskdiag_iter_start(td, &req, NULL), -EINVAL);
	assert_int_equal(n, 0);

	/* scope: 0 means all processes; 1..5 are the ABI's; 6 and beyond are not */
	req.scope = (enum taskdiag_scope)6;
	assert_int_equal(taskdiag_iter_start(td, &req, &it), -EINVAL);
	assert_null(it);
	req.scope = (enum taskdiag_scope)-1;
	assert_int_equal(taskdiag_iter_start(td, &req, &it), -EINVAL);
	req.scope = (enum taskdiag_scope)0x10001;
	assert_int_equal(taskdiag_dump(td, &req, count_cb, &n), -EINVAL);

	/* groups: bits beyond TASKDIAG_GROUP_ALL */
	req.scope = TASKDIAG_SCOPE_ALL_PROCESSES;
	req.groups = TASKDIAG_GROUP_ALL + 1;
	assert_int_equal(taskdiag_iter_start(td, &req, &it), -EINVAL);
	req.groups = 0x80000000u;
	assert_int_equal(taskdiag_dump(td, &req, count_cb, &n), -EINVAL);

	/* pid: negative */
	req.groups = TASKDIAG_GROUP_BASE;
	req.scope = TASKDIAG_SCOPE_TASK;
	req.pid = -1;
	assert_int_equal(taskdiag_iter_start(td, &req, &it), -EINVAL);
	req.pid = INT32_MIN;
	assert_int_equal(taskdiag_dump(td, &req, count_cb, &n), -EINVAL);
	assert_int_equal(n, 0);

	/* refusals leave no iteration behind: a good request still runs */
	req.scope = 0;
	req.pid = 0;
	assert_int_equal(taskdiag_dump(td, &req, count_cb, &n), 0);
	assert_true(n > 0);
	taskdiag_close(td);
}

static void test_one_iterator_at_a_time(void **state)
{
	struct taskdiag *td = open_procfs();
	struct taskdiag_request req = { .groups = TASKDIAG_GROUP_BASE };
	struct taskdiag_iter *it, *it2 = (struct taskdiag_iter *)&req;
	const struct taskdiag_task *t;
	int n = 0;

	(void)state;
	assert_int_equal(taskdiag_iter_start(td, &req, &it), 0);
	assert_int_equal(taskdiag_iter_next(it, &t), 1);
	assert_int_equal(taskdiag_iter_start(td, &req, &it2), -EBUSY);
	assert_null(it2);
	assert_int_equal(taskdiag_dump(td, &req, count_cb, &n), -EBUSY);
	assert_int_equal(n, 0);
	/* the first one is unharmed */
	assert_int_equal(taskdiag_iter_next(it, &t), 1);
	taskdiag_iter_end(it);
	/* and once it is ended, a new one may start */
	assert_int_equal(taskdiag_iter_start(td, &req, &it), 0);
	taskdiag_iter_end(it);
	/* close with an iteration still running frees it (ASan: no leak) */
	assert_int_equal(taskdiag_iter_start(td, &req, &it), 0);
	assert_int_equal(taskdiag_iter_next(it, &t), 1);
	taskdiag_close(td);
}

struct find {
	pid_t pid;
	const char *comm;
	int seen, records;
	pid_t last;
	bool ordered;
	bool comm_ok;
};

static int find_cb(const struct taskdiag_task *t, void *arg)
{
	struct find *f = arg;
	pid_t pid = taskdiag_task_pid(t);
	const char *comm;

	f->records++;
	if (pid <= f->last)
		f->ordered = false;
	f->last = pid;
	if (taskdiag_task_tgid(t) != pid)
		f->ordered = false;	/* a process scope lists leaders */
	if (pid == f->pid) {
		f->seen++;
		f->comm_ok = !taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &comm) &&
			     !strcmp(comm, f->comm);
	}
	return 0;
}

/* The dump of every process finds this one, by pid and comm, in order. */
static void test_dump_finds_self(void **state)
{
	struct taskdiag *td = open_procfs();
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_ALL_PROCESSES,
					.groups = TASKDIAG_GROUP_BASE };
	char comm[64] = "";
	struct find f = { .pid = getpid(), .comm = comm, .ordered = true };
	FILE *fp = fopen("/proc/self/comm", "re");
	size_t n;

	(void)state;
	assert_non_null(fp);
	assert_non_null(fgets(comm, sizeof(comm), fp));
	fclose(fp);
	n = strlen(comm);
	while (n && (comm[n - 1] == '\n' || comm[n - 1] == ' '))
		comm[--n] = '\0';

	assert_int_equal(taskdiag_dump(td, &req, find_cb, &f), 0);
	assert_int_equal(f.seen, 1);
	assert_true(f.comm_ok);
	assert_true(f.ordered);
	assert_true(f.records > 1);	/* at least our parent, ctest */
	assert_null(taskdiag_extack(td));
	taskdiag_close(td);
}

static int stop_cb(const struct taskdiag_task *t, void *arg)
{
	int *calls = arg;

	(void)t;
	return ++*calls == 2 ? 42 : 0;
}

static int stop_negative_cb(const struct taskdiag_task *t, void *arg)
{
	(void)t;
	(void)arg;
	return -ECANCELED;
}

static void test_callback_stop_value(void **state)
{
	struct taskdiag *td = open_procfs();
	struct taskdiag_request req = { .groups = 0 };
	struct taskdiag_iter *it;
	int calls = 0;

	(void)state;
	assert_int_equal(taskdiag_dump(td, &req, stop_cb, &calls), 42);
	assert_int_equal(calls, 2);
	assert_int_equal(taskdiag_dump(td, &req, stop_negative_cb, NULL), -ECANCELED);
	/* the stopped dumps left no iteration running */
	assert_int_equal(taskdiag_iter_start(td, &req, &it), 0);
	taskdiag_iter_end(it);
	taskdiag_close(td);
}

/* Does the running kernel have the task_diag family? (genl-ctrl-list, libnl-utils) */
static int family_registered(void)
{
	FILE *p = popen("genl-ctrl-list 2>/dev/null", "r");
	char line[256];
	bool nlctrl = false, task_diag = false;

	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		nlctrl |= strstr(line, " nlctrl ") != NULL;
		task_diag |= strstr(line, " task_diag ") != NULL;
	}
	pclose(p);
	if (!nlctrl)
		return -1;	/* the tool is missing or failed: we cannot tell */
	return task_diag;
}

static void test_netlink_without_module(void **state)
{
	struct taskdiag *td = (struct taskdiag *)&td;
	int reg = family_registered();

	(void)state;
	if (reg < 0) {
		print_message("genl-ctrl-list unavailable: cannot tell whether task_diag is "
			      "registered (install libnl-utils: scripts/setup)\n");
		skip();
	}
	if (reg > 0) {
		print_message("task_diag is registered on this kernel: not the host case\n");
		skip();
	}
	assert_int_equal(taskdiag_open(&td, TASKDIAG_BACKEND_NETLINK), -TASKDIAG_ENOMODULE);
	assert_null(td);
	assert_non_null(strstr(taskdiag_strerror(-TASKDIAG_ENOMODULE), "module"));
}

static void test_auto_falls_back(void **state)
{
	struct taskdiag *td;
	struct taskdiag_request req = { .groups = TASKDIAG_GROUP_BASE };
	int reg = family_registered(), n = 0;

	(void)state;
	assert_int_equal(taskdiag_open(&td, TASKDIAG_BACKEND_AUTO), 0);
	if (reg == 0)
		assert_int_equal(taskdiag_get_backend(td), TASKDIAG_BACKEND_PROCFS);
	else if (reg > 0)
		assert_int_equal(taskdiag_get_backend(td), TASKDIAG_BACKEND_NETLINK);
	assert_true(taskdiag_get_backend(td) != TASKDIAG_BACKEND_AUTO);
	assert_int_equal(taskdiag_dump(td, &req, count_cb, &n), 0);
	assert_true(n > 0);
	taskdiag_close(td);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_misuse),
		cmocka_unit_test(test_null_is_safe),
		cmocka_unit_test(test_getters_null),
		cmocka_unit_test(test_request_misuse),
		cmocka_unit_test(test_one_iterator_at_a_time),
		cmocka_unit_test(test_dump_finds_self),
		cmocka_unit_test(test_callback_stop_value),
		cmocka_unit_test(test_netlink_without_module),
		cmocka_unit_test(test_auto_falls_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
