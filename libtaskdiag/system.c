// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: machine-wide figures (boot time, HZ, uptime, load average,
 * memory and swap, CPU times) from /proc/stat, /proc/uptime,
 * /proc/loadavg and /proc/meminfo, read line by line through a buffer on
 * the stack: no allocation, and lines longer than the buffer (the "intr"
 * line of /proc/stat) are skipped whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

struct td_lines {
	int fd;
	size_t len, pos;
	bool eof;
	char buf[4096];
};

static int td_lines_open(struct td_lines *l, const char *root, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", root, name) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	l->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (l->fd < 0)
		return -errno;
	l->len = 0;
	l->pos = 0;
	l->eof = false;
	return 0;
}

static int td_lines_fill(struct td_lines *l)
{
	ssize_t r;

	if (l->pos) {
		memmove(l->buf, l->buf + l->pos, l->len - l->pos);
		l->len -= l->pos;
		l->pos = 0;
	}
	do {
		r = read(l->fd, l->buf + l->len, sizeof(l->buf) - 1 - l->len);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (!r)
		l->eof = true;
	l->len += (size_t)r;
	return 0;
}

/* The next line, NUL-terminated, without its newline: 1, 0 at the end, or -errno. */
static int td_lines_next(struct td_lines *l, char **line)
{
	bool skipping = false;

	for (;;) {
		char *start = l->buf + l->pos;
		char *nl = memchr(start, '\n', l->len - l->pos);
		int err;

		if (nl) {
			*nl = '\0';
			l->pos = (size_t)(nl + 1 - l->buf);
			if (skipping) {
				skipping = false;
				continue;
			}
			*line = start;
			return 1;
		}
		if (l->eof) {
			if (l->pos == l->len || skipping)
				return 0;
			l->buf[l->len] = '\0';	/* a last line without newline */
			*line = start;
			l->pos = l->len;
			return 1;
		}
		if (l->pos == 0 && l->len == sizeof(l->buf) - 1) {
			/* longer than the buffer: drop it up to its newline */
			skipping = true;
			l->len = 0;
		}
		err = td_lines_fill(l);
		if (err)
			return err;
	}
}

static void td_lines_close(struct td_lines *l)
{
	close(l->fd);
}

static bool td_starts(const char *line, const char *word, const char **rest)
{
	size_t n = strlen(word);

	if (strncmp(line, word, n))
		return false;
	*rest = line + n;
	return true;
}

static int td_read_stat(const char *root, struct taskdiag_system *sys)
{
	struct td_lines l;
	char *line;
	const char *rest;
	uint64_t tick_ns = 1000000000u / sys->hz;
	bool have_cpu = false, have_btime = false;
	int r = td_lines_open(&l, root, "stat");

	if (r)
		return r;
	while ((r = td_lines_next(&l, &line)) == 1) {
		unsigned long long v[10] = { 0 };

		if (td_starts(line, "cpu ", &rest)) {
			struct taskdiag_cpu_times *c = &sys->cpu;

			if (sscanf(rest, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
				   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8],
				   &v[9]) < 4) {
				r = -EBADMSG;
				break;
			}
			c->user = v[0] * tick_ns;
			c->nice = v[1] * tick_ns;
			c->system = v[2] * tick_ns;
			c->idle = v[3] * tick_ns;
			c->iowait = v[4] * tick_ns;
			c->irq = v[5] * tick_ns;
			c->softirq = v[6] * tick_ns;
			c->steal = v[7] * tick_ns;
			c->guest = v[8] * tick_ns;
			c->guest_nice = v[9] * tick_ns;
			have_cpu = true;
		} else if (td_starts(line, "cpu", &rest) && *rest >= '0' && *rest <= '9') {
			sys->ncpu++;
		} else if (td_starts(line, "btime ", &rest)) {
			have_btime = sscanf(rest, "%" SCNu64, &sys->boot_time) == 1;
		} else if (td_starts(line, "ctxt ", &rest)) {
			sscanf(rest, "%" SCNu64, &sys->ctxt);
		} else if (td_starts(line, "processes ", &rest)) {
			sscanf(rest, "%" SCNu64, &sys->processes);
		} else if (td_starts(line, "procs_running ", &rest)) {
			sscanf(rest, "%" SCNu32, &sys->procs_running);
		} else if (td_starts(line, "procs_blocked ", &rest)) {
			sscanf(rest, "%" SCNu32, &sys->procs_blocked);
		}
	}
	td_lines_close(&l);
	if (!r && (!have_cpu || !have_btime))
		r = -EBADMSG;
	return r;
}

static int td_read_line(const char *root, const char *name, char *buf, size_t size)
{
	struct td_lines l;
	char *line;
	int r = td_lines_open(&l, root, name);

	if (r)
		return r;
	r = td_lines_next(&l, &line);
	if (r == 1)
		snprintf(buf, size, "%s", line);
	td_lines_close(&l);
	return r == 1 ? 0 : r ? r : -EBADMSG;
}

static int td_read_meminfo(const char *root, struct taskdiag_system *sys)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "MemTotal:", offsetof(struct taskdiag_system, mem_total) },
		{ "MemFree:", offsetof(struct taskdiag_system, mem_free) },
		{ "MemAvailable:", offsetof(struct taskdiag_system, mem_available) },
		{ "Buffers:", offsetof(struct taskdiag_system, buffers) },
		{ "Cached:", offsetof(struct taskdiag_system, cached) },
		{ "SReclaimable:", offsetof(struct taskdiag_system, sreclaimable) },
		{ "Shmem:", offsetof(struct taskdiag_system, shmem) },
		{ "SwapTotal:", offsetof(struct taskdiag_system, swap_total) },
		{ "SwapFree:", offsetof(struct taskdiag_system, swap_free) },
	};
	struct td_lines l;
	char *line;
	const char *rest;
	bool total = false;
	size_t k;
	int r = td_lines_open(&l, root, "meminfo");

	if (r)
		return r;
	while ((r = td_lines_next(&l, &line)) == 1) {
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			uint64_t kib;

			if (!td_starts(line, keys[k].key, &rest))
				continue;
			if (sscanf(rest, "%" SCNu64, &kib) != 1) {
				r = -EBADMSG;
				break;
			}
			*(uint64_t *)((char *)sys + keys[k].off) = kib * 1024;
			total |= k == 0;
			break;
		}
		if (r < 0)
			break;
	}
	td_lines_close(&l);
	if (!r && !total)
		r = -EBADMSG;
	return r;
}

int td_system_read_at(const char *root, struct taskdiag_system *out, size_t size)
{
	struct taskdiag_system sys = { 0 };
	char line[256];
	double up;
	long hz = sysconf(_SC_CLK_TCK);
	int r;

	if (!out || !root)
		return -EINVAL;
	sys.hz = hz > 0 ? (uint32_t)hz : 100;
	r = td_read_stat(root, &sys);
	if (!r)
		r = td_read_meminfo(root, &sys);
	if (!r)
		r = td_read_line(root, "uptime", line, sizeof(line));
	if (!r) {
		if (sscanf(line, "%lf", &up) != 1 || up < 0)
			r = -EBADMSG;
		else
			sys.uptime = (uint64_t)(up * 1e9 + 0.5);
	}
	if (!r)
		r = td_read_line(root, "loadavg", line, sizeof(line));
	if (!r && sscanf(line, "%lf %lf %lf %" SCNu32 "/%" SCNu32, &sys.loadavg[0],
			 &sys.loadavg[1], &sys.loadavg[2], &sys.nr_running, &sys.nr_threads) != 5)
		r = -EBADMSG;
	if (r)
		return r;
	memset(out, 0, size);
	memcpy(out, &sys, size < sizeof(sys) ? size : sizeof(sys));
	return 0;
}

int taskdiag_system_read(struct taskdiag_system *sys, size_t size)
{
	const char *root = secure_getenv("TASKDIAG_PROC_ROOT");

	return td_system_read_at(root && *root ? root : "/proc", sys, size);
}
