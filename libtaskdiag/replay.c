// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the replay of a recording (record.h), a datagram source
 * (nl.h) that hands the recorded datagrams to the netlink backend's own
 * iteration.
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
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/task_diag.h>

#include "internal.h"
#include "nl.h"
#include "record.h"

/* A replay's datagram source. */
struct td_replay {
	int fd;
	bool have_req;			/* req holds the next request record */
	bool have_sys;			/* sys came before it */
	struct td_raw_request req;
	struct td_raw_system sys;
};

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
