// SPDX-License-Identifier: GPL-2.0
/*
 * vma_lib BACKEND [PID]: every VMA libtaskdiag's iterator gives, one line
 * each, "start end offset inode major minor flags name" (hex but inode),
 * for test_vma.py to hold against its own decoder. BACKEND is netlink or
 * procfs; without PID, every process ("pid:" lines before each one's).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <taskdiag/taskdiag.h>

int main(int argc, char **argv)
{
	struct taskdiag_vma_request req = { 0 };
	const struct taskdiag_vma *v;
	struct taskdiag_vma_iter *it;
	struct taskdiag *td;
	pid_t last = 0;
	int err;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: vma_lib netlink|procfs [PID]\n");
		return 2;
	}
	if (argc == 3)
		req.pid = atoi(argv[2]);
	err = taskdiag_open(&td, strcmp(argv[1], "procfs") ? TASKDIAG_BACKEND_NETLINK :
							     TASKDIAG_BACKEND_PROCFS);
	if (err) {
		fprintf(stderr, "vma_lib: open: %s\n", taskdiag_strerror(err));
		return 1;
	}
	err = taskdiag_vma_iter_start(td, &req, &it);
	while (!err && (err = taskdiag_vma_iter_next(it, &v)) == 1) {
		err = 0;
		if (!req.pid && v->pid != last)
			printf("pid: %d\n", (int)v->pid);
		last = v->pid;
		printf("%" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIu64 " %x %x %" PRIx64 " %s\n",
		       v->start, v->end, v->offset, v->inode, v->dev_major, v->dev_minor, v->flags,
		       v->name ? v->name : "");
	}
	if (err < 0)
		fprintf(stderr, "vma_lib: %s%s%s\n", taskdiag_strerror(err),
			taskdiag_extack(td) ? ": " : "", taskdiag_extack(td) ?: "");
	else
		err = 0;
	if (!err)
		taskdiag_vma_iter_end(it);
	taskdiag_close(td);
	return err ? 1 : 0;
}
