// SPDX-License-Identifier: GPL-2.0
/*
 * tdmembench: the mem group against /proc/PID/smaps_rollup, timed
 * in-process.
 *
 *   tdmembench rollup [ROUNDS]   read and parse every /proc/PID/smaps_rollup
 *   tdmembench procfs [ROUNDS]   the mem group of every process through
 *                                libtaskdiag's procfs backend (which reads
 *                                smaps_rollup too)
 *   tdmembench lib [ROUNDS]      the same through libtaskdiag's netlink
 *                                backend (the module's mem group)
 *   tdmembench statm [ROUNDS]    the statm group instead (no page walk): what
 *                                a dump costs without the walk
 *
 * Each prints "procs=N ns=T sum=S": the processes that had the group, the
 * wall-clock time of the whole walk (CLOCK_MONOTONIC) and the sum of their
 * Pss (so that both sides read the values). With ROUNDS, the walk is made
 * ROUNDS times in one process and T is the fastest round after the first.
 * The rollup reader parses every "Name: N kB" line into its number, as a
 * monitoring agent would.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <taskdiag/taskdiag.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* One smaps_rollup: every line's number (kB) into v[], Pss returned. */
static uint64_t parse_rollup(const char *p, const char *end, uint64_t *v, int max)
{
	uint64_t pss = 0;
	int n = 0;

	p = memchr(p, '\n', (size_t)(end - p));	/* the [rollup] header */
	while (p && ++p < end && n < max) {
		const char *line = p, *colon = memchr(p, ':', (size_t)(end - p));
		uint64_t x = 0;

		if (!colon)
			break;
		for (p = colon + 1; *p == ' '; p++)
			;
		for (; *p >= '0' && *p <= '9'; p++)
			x = x * 10 + (uint64_t)(*p - '0');
		if (colon - line == 3 && !memcmp(line, "Pss", 3))
			pss = x;
		v[n++] = x;
		p = memchr(p, '\n', (size_t)(end - p));
	}
	return pss * 1024;
}

static int cmd_rollup(int rounds)
{
	static char buf[8192];
	uint64_t best = UINT64_MAX, sum = 0, v[32];
	int procs = 0;

	for (int r = 0; r < rounds; r++) {
		uint64_t t0 = now_ns();
		DIR *d = opendir("/proc");
		struct dirent *e;

		procs = 0;
		sum = 0;
		while (d && (e = readdir(d))) {
			char path[300];
			ssize_t n;
			int fd;

			if (e->d_name[0] < '1' || e->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "/proc/%s/smaps_rollup", e->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n <= 0)
				continue;
			buf[n] = '\0';
			sum += parse_rollup(buf, buf + n, v, 32);
			procs++;
		}
		if (d)
			closedir(d);
		t0 = now_ns() - t0;
		if ((rounds == 1 || r > 0) && t0 < best)
			best = t0;
	}
	printf("procs=%d ns=%" PRIu64 " sum=%" PRIu64 "\n", procs, best, sum);
	return 0;
}

static int cmd_lib(int rounds, enum taskdiag_backend backend, uint32_t groups)
{
	struct taskdiag_request req = { .groups = groups };
	uint64_t best = UINT64_MAX, sum = 0;
	struct taskdiag *td;
	int procs = 0, err;

	err = taskdiag_open(&td, backend);
	if (err) {
		fprintf(stderr, "tdmembench: open: %s\n", taskdiag_strerror(err));
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		uint64_t t0 = now_ns();
		const struct taskdiag_task *t;
		struct taskdiag_iter *it;

		procs = 0;
		sum = 0;
		err = taskdiag_iter_start(td, &req, &it);
		while (!err && (err = taskdiag_iter_next(it, &t)) == 1) {
			uint64_t v;

			err = 0;
			if (groups == TASKDIAG_GROUP_STATM &&
			    !taskdiag_task_get_u64(t, TASKDIAG_ITEM_STATM_RESIDENT, &v)) {
				sum += v;
				procs++;
			}
			for (int i = TASKDIAG_ITEM_MEM_RSS; i <= TASKDIAG_ITEM_MEM_KSM; i++)
				if (!taskdiag_task_get_u64(t, (enum taskdiag_item)i, &v) &&
				    i == TASKDIAG_ITEM_MEM_PSS) {
					sum += v;
					procs++;
				}
		}
		if (err < 0) {
			fprintf(stderr, "tdmembench: %s\n", taskdiag_strerror(err));
			return 1;
		}
		taskdiag_iter_end(it);
		t0 = now_ns() - t0;
		if ((rounds == 1 || r > 0) && t0 < best)
			best = t0;
	}
	taskdiag_close(td);
	printf("procs=%d ns=%" PRIu64 " sum=%" PRIu64 "\n", procs, best, sum);
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc == 3 ? atoi(argv[2]) : 1;

	if (argc < 2 || argc > 3 || rounds < 1)
		goto usage;
	if (!strcmp(argv[1], "rollup"))
		return cmd_rollup(rounds);
	if (!strcmp(argv[1], "procfs"))
		return cmd_lib(rounds, TASKDIAG_BACKEND_PROCFS, TASKDIAG_GROUP_MEM);
	if (!strcmp(argv[1], "lib"))
		return cmd_lib(rounds, TASKDIAG_BACKEND_NETLINK, TASKDIAG_GROUP_MEM);
	if (!strcmp(argv[1], "statm"))
		return cmd_lib(rounds, TASKDIAG_BACKEND_NETLINK, TASKDIAG_GROUP_STATM);
usage:
	fprintf(stderr, "usage: tdmembench rollup|procfs|lib|statm [ROUNDS]\n");
	return 2;
}
