// SPDX-License-Identifier: GPL-2.0
/*
 * mem_lib BACKEND PID: the mem items libtaskdiag gives for process PID
 * (scope task, group mem), one "name value" line each (names as the item
 * table has them: rss, pss, ...), then a line "--" and the text of
 * /proc/PID/smaps_rollup read right after the sample, unparsed, for
 * test_mem.py to hold the items against. Read here rather than by the
 * test: this program's own mappings of shared libraries change the PID's
 * Pss while it runs. It reads the file once before the sample too, so
 * that nothing between the sample and the second read faults in a page
 * of a library the PID maps. BACKEND is netlink or procfs.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <taskdiag/taskdiag.h>

static char rollup[8192];

static ssize_t read_rollup(const char *path)
{
	ssize_t len = 0, n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((size_t)len < sizeof(rollup) &&
	       (n = read(fd, rollup + len, sizeof(rollup) - (size_t)len)) > 0)
		len += n;
	close(fd);
	return len;
}

int main(int argc, char **argv)
{
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_TASK, .groups = TASKDIAG_GROUP_MEM };
	const struct taskdiag_task *t;
	struct taskdiag_iter *it;
	struct taskdiag *td;
	uint64_t vals[TASKDIAG_ITEM__COUNT];
	bool has[TASKDIAG_ITEM__COUNT] = { false };
	char path[64];
	ssize_t len;
	int err, n = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: mem_lib netlink|procfs PID\n");
		return 2;
	}
	req.pid = atoi(argv[2]);
	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", req.pid);
	read_rollup(path);
	err = taskdiag_open(&td, strcmp(argv[1], "procfs") ? TASKDIAG_BACKEND_NETLINK :
							     TASKDIAG_BACKEND_PROCFS);
	if (err) {
		fprintf(stderr, "mem_lib: open: %s\n", taskdiag_strerror(err));
		return 1;
	}
	err = taskdiag_iter_start(td, &req, &it);
	while (!err && (err = taskdiag_iter_next(it, &t)) == 1) {
		err = 0;
		n++;
		for (int i = TASKDIAG_ITEM_MEM_RSS; i <= TASKDIAG_ITEM_MEM_KSM; i++)
			has[i] = !taskdiag_task_get_u64(t, (enum taskdiag_item)i, &vals[i]);
	}
	len = read_rollup(path);
	for (int i = TASKDIAG_ITEM_MEM_RSS; i <= TASKDIAG_ITEM_MEM_KSM; i++)
		if (has[i])
			printf("%s %" PRIu64 "\n", taskdiag_item_info((enum taskdiag_item)i)->name, vals[i]);
	printf("--\n%.*s", len > 0 ? (int)len : 0, rollup);
	if (err < 0)
		fprintf(stderr, "mem_lib: %s\n", taskdiag_strerror(err));
	else
		taskdiag_iter_end(it);
	taskdiag_close(td);
	return err < 0 || n != 1 ? 1 : 0;
}
