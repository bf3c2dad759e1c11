// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: record and replay of the netlink backend's reply stream
 * (ss -D style). The recording side writes what netlink.c sends and
 * receives; the replay side is a datagram source (nl.h) that hands the
 * recorded datagrams to the netlink backend's own iteration.
 *
 * A recording is the reply stream as the kernel sent it, in host byte order
 * (as netlink itself):
 *
 *   header  "TDIAGRAW" | u32 format (2; 1 is read too) | u32 TASK_DIAG_FAMILY_VERSION
 *   record  u32 type | u32 length | length bytes of payload, no padding
 *     TD_RAW_REQUEST   struct td_raw_request: the sequence number and
 *                      family id of a request sent, and what it asked for
 *     TD_RAW_DATAGRAM  one datagram of at most TD_NL_BUFSZ bytes, as
 *                      recvmsg() returned it (replies to any request)
 *     TD_RAW_SYSTEM    struct td_raw_system (format 2, before each request):
 *                      the recording host's clocks when it was sent, its
 *                      boot time, HZ, CPUs and memory, so that a replay
 *                      computes %CPU, elapsed and start times as they were
 *                      (a longer payload is read as far as this one goes)
 *
 * The header's family version is the ABI version of the messages: a
 * recording of another version than this library's is refused with
 * -TASKDIAG_EVERSION (the file format itself did not change).
 *
 * A replay handle takes the sequence number and family id of the next
 * request record at iter_start() and hands each datagram record to the
 * live code as if recvmsg() had returned it: the same walk, the same
 * decoder, the same error and extack handling. Datagrams left over from an
 * iteration that was ended early are skipped, as the live backend drops
 * them with its socket. A file that ends, or reaches the next request,
 * before its dump ended is truncated: -EBADMSG, as is any malformed record.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/task_diag.h>

#include "internal.h"
#include "nl.h"

struct td_raw_request {
	uint32_t seq;
	uint32_t family;
	uint32_t scope;
	uint32_t pid;
	uint32_t groups;
};

struct td_raw_system {
	uint64_t realtime;	/* CLOCK_REALTIME, ns since the epoch */
	uint64_t uptime;	/* CLOCK_BOOTTIME, ns (the samples' clock) */
	uint64_t boot_time;	/* /proc/stat btime, seconds since the epoch */
	uint64_t mem_total;	/* bytes */
	uint32_t hz;
	uint32_t ncpu;
	uint32_t page_size;
	uint32_t reserved;	/* 0 */
};

/* A replay's datagram source. */
struct td_replay {
	int fd;
	bool have_req;			/* req holds the next request record */
	bool have_sys;			/* sys came before it */
	struct td_raw_request req;
	struct td_raw_system sys;
};

#define TD_RAW_MAGIC	"TDIAGRAW"
#define TD_RAW_FORMAT	2

enum {
	TD_RAW_REQUEST = 1,
	TD_RAW_DATAGRAM = 2,
	TD_RAW_SYSTEM = 3,
};

struct td_raw_header {
	char magic[8];
	uint32_t format;
	uint32_t family_version;
};

_Static_assert(sizeof(struct td_raw_header) == 16, "the file header is 16 bytes");
_Static_assert(sizeof(struct td_raw_request) == 20, "a request record is 20 bytes");
_Static_assert(sizeof(struct td_raw_system) == 48, "a system record is 48 bytes");

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

/* Read @len bytes: 1, 0 at the end of the file before the first byte, -EBADMSG
 * at the end of the file after it, or -errno. */
static int td_read_all(int fd, void *p, size_t len)
{
	unsigned char *b = p;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, b + got, len - got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return got ? -EBADMSG : 0;
		got += (size_t)n;
	}
	return 1;
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

/*
 * The next record of a replay: 1 with *type set (a datagram is in nl->buf,
 * *len bytes; a request is in nl->replay_req), 0 at the end of the file, or
 * a negative errno (-EBADMSG for a malformed or cut record).
 */
static int td_raw_next(struct td_nl *nl, uint32_t *type, size_t *len)
{
	struct td_replay *rp = nl->src;
	uint32_t hdr[2];
	int r;

	r = td_read_all(rp->fd, hdr, sizeof(hdr));
	if (r <= 0)
		return r;
	switch (hdr[0]) {
	case TD_RAW_REQUEST:
		if (hdr[1] != sizeof(rp->req))
			return -EBADMSG;
		r = td_read_all(rp->fd, &rp->req, sizeof(rp->req));
		if (r == 1 && rp->req.family > UINT16_MAX)
			r = -EBADMSG;
		if (r == 1)
			rp->have_req = true;
		break;
	case TD_RAW_SYSTEM:
		if (hdr[1] < sizeof(rp->sys) || hdr[1] > TD_NL_BUFSZ)
			return -EBADMSG;
		r = td_read_all(rp->fd, &rp->sys, sizeof(rp->sys));
		/* what a later format adds after it */
		if (r == 1 && hdr[1] > sizeof(rp->sys))
			r = td_read_all(rp->fd, nl->buf, hdr[1] - sizeof(rp->sys));
		if (r == 1 && (!rp->sys.hz || !rp->sys.realtime))
			r = -EBADMSG;
		rp->have_sys = r == 1;
		break;
	case TD_RAW_DATAGRAM:
		if (hdr[1] > TD_NL_BUFSZ)
			return -EBADMSG;
		r = hdr[1] ? td_read_all(rp->fd, nl->buf, hdr[1]) : 1;
		break;
	default:
		return -EBADMSG;
	}
	if (r == 0)
		return -EBADMSG;	/* the header promised a payload */
	if (r < 0)
		return r;
	*type = hdr[0];
	*len = hdr[1];
	return 1;
}

/* The replay's datagram source, standing in for recvmsg(). */
static int td_replay_recv(struct td_nl *nl)
{
	uint32_t type;
	size_t len;
	int r;

	r = td_raw_next(nl, &type, &len);
	if (r < 0)
		return r;
	/* The end of the file or the next request before this dump ended. */
	if (r == 0 || type != TD_RAW_DATAGRAM || len == 0)
		return -EBADMSG;
	nl->len = len;
	nl->off = 0;
	return 0;
}

/* Make the replay's req the next request: 1, 0 if there is none, or an errno. */
static int td_replay_peek(struct td_nl *nl)
{
	struct td_replay *rp = nl->src;
	uint32_t type;
	size_t len;
	int r;

	while (!rp->have_req) {
		r = td_raw_next(nl, &type, &len);
		if (r <= 0)
			return r;
		/* else a datagram of an iteration ended early, or the system: on */
	}
	return 1;
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

int td_nl_replay_open(struct taskdiag *td, int fd)
{
	struct td_raw_header h;
	struct td_replay *rp;
	struct td_nl *nl;
	int err;

	err = td_read_all(fd, &h, sizeof(h));
	if (err <= 0)
		return err ? err : -EBADMSG;
	if (memcmp(h.magic, TD_RAW_MAGIC, sizeof(h.magic)) || !h.format || h.format > TD_RAW_FORMAT)
		return -EBADMSG;
	/* Recorded from a module of another ABI version: its messages are not ours. */
	if (h.family_version != TASK_DIAG_FAMILY_VERSION)
		return -TASKDIAG_EVERSION;
	rp = calloc(1, sizeof(*rp));
	if (!rp)
		return -ENOMEM;
	rp->fd = fd;
	nl = td_nl_alloc(td_replay_recv, rp);
	if (!nl) {
		free(rp);
		return -ENOMEM;
	}
	nl->src_free = free;
	td->priv = nl;
	return 0;
}

int td_nl_replay_request(struct taskdiag *td, struct taskdiag_request *req)
{
	struct td_nl *nl = td->priv;
	const struct td_raw_request *r = &((struct td_replay *)nl->src)->req;
	int err;

	err = td_replay_peek(nl);
	if (err <= 0)
		return err ? err : -ENODATA;
	if (r->scope < TASKDIAG_SCOPE_ALL_PROCESSES || r->scope > TASKDIAG_SCOPE_CHILDREN ||
	    (r->groups & ~TASKDIAG_GROUP_ALL) || r->pid > INT32_MAX)
		return -EBADMSG;
	req->scope = (enum taskdiag_scope)r->scope;
	req->pid = (pid_t)r->pid;
	req->groups = r->groups;
	return 0;
}

int td_nl_replay_system(struct taskdiag *td, struct taskdiag_system *sys, size_t size,
			uint64_t *now)
{
	struct td_nl *nl = td->priv;
	struct td_replay *rp = nl->src;
	struct taskdiag_system s = { 0 };
	int err;

	err = td_replay_peek(nl);
	if (err <= 0)
		return err ? err : -ENODATA;
	if (!rp->have_sys)
		return -ENODATA;
	s.boot_time = rp->sys.boot_time;
	s.uptime = rp->sys.uptime;
	s.hz = rp->sys.hz;
	s.ncpu = rp->sys.ncpu;
	s.mem_total = rp->sys.mem_total;
	memset(sys, 0, size);
	memcpy(sys, &s, size < sizeof(s) ? size : sizeof(s));
	*now = rp->sys.realtime;
	return 0;
}

/* The request is not sent: the next one recorded is replayed, whatever it asked. */
static int td_replay_iter_start(struct taskdiag_iter *it)
{
	struct td_nl *nl = it->td->priv;
	struct td_replay *rp = nl->src;
	int r;

	r = td_replay_peek(nl);
	if (r <= 0)
		return r ? r : -EBADMSG;	/* nothing (more) was recorded */
	rp->have_req = false;
	rp->have_sys = false;	/* the next request's comes before it */
	td_nl_begin(it, rp->req.seq, (uint16_t)rp->req.family);
	return 0;
}

/* A replay handle: td_nl_replay_open() sets it up (no .open), td_nl_close() frees it. */
const struct td_backend td_replay_backend = {
	.close = td_nl_close,
	.iter_start = td_replay_iter_start,
	.iter_next = td_nl_iter_next,
	.iter_end = td_nl_iter_end,
};
