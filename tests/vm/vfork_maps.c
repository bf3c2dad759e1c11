// SPDX-License-Identifier: GPL-2.0
/*
 * vfork_maps: mm_access()'s "the reader's own mm" rule, through the module,
 * against procfs in the same situation.
 *
 * The process makes itself non-dumpable (prctl PR_SET_DUMPABLE 0), so that
 * its user, without CAP_SYS_PTRACE, fails the ptrace read check on it. A
 * child that shares its mm (clone(CLONE_VM | CLONE_VFORK), another thread
 * group: what vfork() makes) then asks, while the parent waits:
 *
 *   - /proc/PARENT/maps (mm_access(): mm == current->mm lets it open) and
 *     /proc/PARENT/io (the ptrace check alone: refused);
 *   - the module's get-vma of the parent (libtaskdiag's netlink backend),
 *     and its io group.
 *
 * Printed, one per line: "procfs maps N|EACCES", "procfs io ok|EACCES",
 * "module maps N|errno", "module io yes|no", for test_permissions.py to
 * hold the module's lines against the procfs ones. Run it as an
 * unprivileged user.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <taskdiag/taskdiag.h>

/* What the child finds; the parent reads it after the child exits (shared mm). */
static struct {
	pid_t parent;
	int proc_maps;		/* lines, or -errno */
	int proc_io;		/* 0 or -errno */
	int mod_maps;		/* VMAs, or a negative libtaskdiag error */
	int mod_io;		/* 1: the io group came, 0: not, < 0: error */
} r;

static int count_lines(const char *path)
{
	char buf[4096];
	ssize_t n, i;
	int fd, lines = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			lines += buf[i] == '\n';
	if (n < 0)
		lines = -errno;
	close(fd);
	return lines;
}

static int child(void *arg)
{
	struct taskdiag_vma_request req = { .pid = r.parent };
	struct taskdiag_request treq = { .scope = TASKDIAG_SCOPE_TASK, .pid = r.parent,
					 .groups = TASKDIAG_GROUP_IO };
	const struct taskdiag_vma *v;
	struct taskdiag_vma_iter *it;
	struct taskdiag_iter *ti;
	const struct taskdiag_task *t;
	struct taskdiag *td;
	char path[64];
	int err, n = 0;

	(void)arg;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)r.parent);
	r.proc_maps = count_lines(path);
	snprintf(path, sizeof(path), "/proc/%d/io", (int)r.parent);
	r.proc_io = count_lines(path) < 0 ? -EACCES : 0;

	err = taskdiag_open(&td, TASKDIAG_BACKEND_NETLINK);
	if (err) {
		r.mod_maps = r.mod_io = err;
		return 0;
	}
	err = taskdiag_vma_iter_start(td, &req, &it);
	while (!err && (err = taskdiag_vma_iter_next(it, &v)) == 1) {
		err = 0;
		n++;
	}
	r.mod_maps = err < 0 ? err : n;
	if (err >= 0)
		taskdiag_vma_iter_end(it);

	r.mod_io = 0;
	err = taskdiag_iter_start(td, &treq, &ti);
	while (!err && (err = taskdiag_iter_next(ti, &t)) == 1) {
		err = 0;
		if (taskdiag_task_has(t, TASKDIAG_ITEM_IO_RCHAR))
			r.mod_io = 1;
	}
	if (err < 0)
		r.mod_io = err;
	else
		taskdiag_iter_end(ti);
	taskdiag_close(td);
	return 0;
}

int main(void)
{
	static char stack[256 * 1024] __attribute__((aligned(16)));
	pid_t pid;
	int st;

	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) {
		perror("vfork_maps: prctl");
		return 1;
	}
	r.parent = getpid();
	pid = clone(child, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
	if (pid < 0 || waitpid(pid, &st, 0) != pid) {
		perror("vfork_maps: clone");
		return 1;
	}
	if (r.proc_maps < 0)
		printf("procfs maps %s\n", r.proc_maps == -EACCES ? "EACCES" : strerror(-r.proc_maps));
	else
		printf("procfs maps %d\n", r.proc_maps);
	printf("procfs io %s\n", r.proc_io ? "EACCES" : "ok");
	if (r.mod_maps < 0)
		printf("module maps %s\n", taskdiag_strerror(r.mod_maps));
	else
		printf("module maps %d\n", r.mod_maps);
	if (r.mod_io < 0)
		printf("module io %s\n", taskdiag_strerror(r.mod_io));
	else
		printf("module io %s\n", r.mod_io ? "yes" : "no");
	return 0;
}
