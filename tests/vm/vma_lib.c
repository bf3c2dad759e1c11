// SPDX-License-Identifier: GPL-2.0
/*
 * vma_lib BACKEND [PID]: every VMA libtaskdiag's iterator gives, one line
 * each, "start end offset inode major minor flags name" (hex but inode),
 * for test_vma.py to hold against its own decoder. BACKEND is netlink or
 * procfs; without PID, every process ("pid:" lines before each one's).
 *
 * vma_lib query BACKEND PID FILTER[,text] ADDR...: the address query, one
 * line per answer, "addr" (hex) then the VMA's line as above, or "addr
 * none"; FILTER is the TASKDIAG_VMA_* mask (decimal), ",text" asks the
 * procfs backend for maps's text even where PROCMAP_QUERY exists.
 *
 * With VMA_LIB_BUILD_ID=1 in the environment, both ask for build ids
 * (TASKDIAG_VMA_BUILD_ID) and print each VMA's, in hex or "-", between
 * the flags and the name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <taskdiag/taskdiag.h>

static int with_bid;

static void print_vma(const struct taskdiag_vma *v)
{
	uint32_t i;

	printf("%" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIu64 " %x %x %" PRIx64 " ",
	       v->start, v->end, v->offset, v->inode, v->dev_major, v->dev_minor, v->flags);
	if (with_bid) {
		for (i = 0; i < v->build_id_len; i++)
			printf("%02x", v->build_id[i]);
		printf("%s ", v->build_id_len ? "" : "-");
	}
	printf("%s\n", v->name ? v->name : "");
}

static int query(int argc, char **argv)
{
	struct taskdiag_vma_query q = { 0 };
	const struct taskdiag_vma *v;
	struct taskdiag_vma_iter *it;
	struct taskdiag *td;
	uint64_t *addrs, a;
	int i, err;

	if (argc < 6) {
		fprintf(stderr, "usage: vma_lib query netlink|procfs PID FILTER[,text] ADDR...\n");
		return 2;
	}
	q.pid = atoi(argv[3]);
	q.filter = (uint32_t)strtoul(argv[4], NULL, 10) | (with_bid ? TASKDIAG_VMA_BUILD_ID : 0);
	if (strstr(argv[4], ",text"))
		q.flags = TASKDIAG_VMA_QUERY_MAPS_TEXT;
	addrs = calloc((size_t)(argc - 5), sizeof(*addrs));
	if (!addrs)
		return 1;
	for (i = 5; i < argc; i++)
		addrs[i - 5] = strtoull(argv[i], NULL, 16);
	q.addrs = addrs;
	q.naddrs = (size_t)(argc - 5);
	err = taskdiag_open(&td, strcmp(argv[2], "procfs") ? TASKDIAG_BACKEND_NETLINK :
							     TASKDIAG_BACKEND_PROCFS);
	if (err) {
		fprintf(stderr, "vma_lib: open: %s\n", taskdiag_strerror(err));
		free(addrs);
		return 1;
	}
	err = taskdiag_vma_query_start(td, &q, &it);
	while (!err && (err = taskdiag_vma_query_next(it, &a, &v)) == 1) {
		err = 0;
		printf("%" PRIx64 " ", a);
		if (v)
			print_vma(v);
		else
			printf("none\n");
	}
	if (err < 0)
		fprintf(stderr, "vma_lib: %s%s%s\n", taskdiag_strerror(err),
			taskdiag_extack(td) ? ": " : "", taskdiag_extack(td) ?: "");
	taskdiag_vma_iter_end(it);
	taskdiag_close(td);
	free(addrs);
	return err < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct taskdiag_vma_request req = { 0 };
	const struct taskdiag_vma *v;
	struct taskdiag_vma_iter *it;
	struct taskdiag *td;
	pid_t last = 0;
	int err;

	with_bid = getenv("VMA_LIB_BUILD_ID") && !strcmp(getenv("VMA_LIB_BUILD_ID"), "1");
	if (argc > 1 && !strcmp(argv[1], "query"))
		return query(argc, argv);
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: vma_lib netlink|procfs [PID]\n");
		return 2;
	}
	if (argc == 3)
		req.pid = atoi(argv[2]);
	if (with_bid)
		req.filter = TASKDIAG_VMA_BUILD_ID;
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
		print_vma(v);
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
