// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: recording the netlink backend's reply stream (ss -D style):
 * what nl.c and netlink.c send and receive, in the format of record.h;
 * replay.c reads it back.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/task_diag.h>

#include "internal.h"
#include "nl.h"
#include "record.h"

static int td_write_all(int fd, const void *p, size_t len)
{
	const unsigned char *b = p;

	while (len) {
		ssize_t n = write(fd, b, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

static int td_raw_write(int fd, uint32_t type, const void *p, size_t len)
{
	uint32_t hdr[2] = { type, (uint32_t)len };
	int err;

	err = td_write_all(fd, hdr, sizeof(hdr));
	if (!err)
		err = td_write_all(fd, p, len);
	return err;
}

/* The recording host as the request is sent: its clocks, boot time, HZ, CPUs and memory. */
static int td_rec_system(int fd)
{
	struct td_raw_system r = { 0 };
	struct taskdiag_system sys;
	struct timespec rt, bt;
	long page = sysconf(_SC_PAGESIZE);
	int err;

	err = taskdiag_system_read(&sys, sizeof(sys));
	if (err)
		return err;
	if (clock_gettime(CLOCK_REALTIME, &rt) || clock_gettime(CLOCK_BOOTTIME, &bt))
		return -errno;
	r.realtime = (uint64_t)rt.tv_sec * 1000000000u + (uint64_t)rt.tv_nsec;
	r.uptime = (uint64_t)bt.tv_sec * 1000000000u + (uint64_t)bt.tv_nsec;
	r.boot_time = sys.boot_time;
	r.mem_total = sys.mem_total;
	r.hz = sys.hz;
	r.ncpu = sys.ncpu;
	r.page_size = page > 0 ? (uint32_t)page : 0;
	return td_raw_write(fd, TD_RAW_SYSTEM, &r, sizeof(r));
}

int td_rec_request(int fd, uint32_t seq, uint16_t family, const struct taskdiag_request *req)
{
	struct td_raw_request r = {
		.seq = seq,
		.family = family,
		.scope = (uint32_t)req->scope,
		.pid = (uint32_t)req->pid,
		.groups = req->groups,
	};
	int err = td_rec_system(fd);

	return err ? err : td_raw_write(fd, TD_RAW_REQUEST, &r, sizeof(r));
}

int td_rec_datagram(int fd, const void *buf, size_t len)
{
	return td_raw_write(fd, TD_RAW_DATAGRAM, buf, len);
}

int td_nl_set_record(struct taskdiag *td, int fd)
{
	struct td_nl *nl = td->priv;
	struct td_raw_header h = {
		.format = TD_RAW_FORMAT,
		.family_version = TASK_DIAG_FAMILY_VERSION,
	};
	int err;

	if (fd < 0) {
		nl->rec_fd = -1;
		return 0;
	}
	memcpy(h.magic, TD_RAW_MAGIC, sizeof(h.magic));
	err = td_write_all(fd, &h, sizeof(h));
	if (err)
		return err;
	nl->rec_fd = fd;
	return 0;
}
