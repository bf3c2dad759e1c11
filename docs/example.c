// SPDX-License-Identifier: LGPL-2.1-or-later
/* List every process: pid, comm and resident set size in KiB (libtaskdiag). */
#include <stdio.h>
#include <taskdiag/taskdiag.h>

static int show(const struct taskdiag_task *task, void *arg)
{
	const char *comm = "?";
	uint64_t rss = 0;

	(void)arg;
	taskdiag_task_get_string(task, TASKDIAG_ITEM_BASE_COMM, &comm);
	taskdiag_task_get_u64(task, TASKDIAG_ITEM_STATM_RESIDENT, &rss);	/* bytes */
	printf("%7d %-16s %10llu\n", (int)taskdiag_task_pid(task), comm,
	       (unsigned long long)(rss / 1024));
	return 0;
}

int main(void)
{
	struct taskdiag_request req = { .groups = TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STATM };
	struct taskdiag *td;
	int err = taskdiag_open(&td, TASKDIAG_BACKEND_AUTO);

	if (!err) {
		printf("%7s %-16s %10s\n", "PID", "COMMAND", "RSS_KIB");
		err = taskdiag_dump(td, &req, show, NULL);
		taskdiag_close(td);
	}
	if (err)
		fprintf(stderr, "example: %s\n", taskdiag_strerror(err));
	return err ? 1 : 0;
}
