// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the netlink transport, below the netlink backend's two
 * iterations (tasks in netlink.c, VMAs in vma_netlink.c) and the replay
 * (replay.c): the socket and the family lookup, sending a request, the
 * socket's datagram source, and the next message of the running request
 * with its errors and extended acks.
 *
 * libnl-3 opens the socket, resolves the family and builds requests: none of
 * that is on the hot path. Replies are not handed to libnl: each handle owns
 * one receive buffer, allocated once, and the iterations walk the netlink
 * messages and their attributes in place, with their own bounds checks.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/task_diag.h>

#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "internal.h"
#include "nl.h"

/* SO_RCVBUF: room for several dump skbs queued ahead of the reader. */
#define TD_NL_RCVBUF	(1024 * 1024)

/* ------------------------------------------------------------------------
 * Errors
 */

/**
 * td_nl_errno() - translate a libnl error code into a negative errno
 * @nle_err: an NLE_* code, negative (as libnl returns it) or positive
 *
 * The one place libnl codes are translated: nothing else in the library
 * returns them. libnl folds several errnos into one code, so this is the
 * nearest errno, not necessarily the one the kernel sent.
 *
 * Return: 0 for NLE_SUCCESS, else a negative errno (-EIO if unknown).
 */
int td_nl_errno(int nle_err)
{
	switch (nle_err < 0 ? -nle_err : nle_err) {
	case NLE_SUCCESS:
		return 0;
	case NLE_INTR:
		return -EINTR;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_EXIST:
		return -EEXIST;
	case NLE_INVAL:
	case NLE_AF_MISMATCH:
	case NLE_OBJ_MISMATCH:
		return -EINVAL;
	case NLE_RANGE:
		return -ERANGE;
	case NLE_MSGSIZE:
	case NLE_ATTRSIZE:	/* an attribute too large to put in a message */
		return -EMSGSIZE;
	case NLE_OPNOTSUPP:
	case NLE_SRCRT_NOSUPPORT:
		return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:
		return -EAFNOSUPPORT;
	case NLE_OBJ_NOTFOUND:
		/*
		 * libnl's code for ENOENT (and ESRCH) from the kernel. The only
		 * libnl receive in this backend is the family lookup, where
		 * the controller's ENOENT means "no such family": the module
		 * is not loaded. Task requests are read without libnl, so
		 * their ESRCH never comes through here.
		 */
		return -TASKDIAG_ENOMODULE;
	case NLE_NOATTR:
	case NLE_MISSING_ATTR:
	case NLE_SEQ_MISMATCH:
	case NLE_MSG_TRUNC:
	case NLE_MSG_TOOSHORT:
	case NLE_MSGTYPE_NOSUPPORT:
		return -EBADMSG;
	case NLE_MSG_OVERFLOW:	/* NLMSG_OVERRUN: the kernel dropped messages */
		return -ENOBUFS;
	case NLE_NOADDR:
		return -EADDRNOTAVAIL;
	case NLE_BUSY:
		return -EBUSY;
	case NLE_PROTO_MISMATCH:
		return -EPROTONOSUPPORT;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_PERM:
		return -EPERM;
	case NLE_NODEV:
		return -ENODEV;
	case NLE_DUMP_INTR:	/* the dump changed under us: try again */
		return -EAGAIN;
	default:
		return -EIO;
	}
}

/* ------------------------------------------------------------------------
 * The socket
 */

struct td_nl_family {
	int err;	/* of td_nl_parse_family(), until a reply came: -EBADMSG */
	uint16_t id;
};

/*
 * td_nl_parse_family() - the controller's answer to CTRL_CMD_GETFAMILY
 * @attrs: the attributes after the genetlink header
 * @len: their length
 * @id: set to the family id
 *
 * The family's version (CTRL_ATTR_VERSION) is part of the same answer, so
 * checking it costs nothing beyond the lookup that finds the id.
 *
 * Return: 0, -TASKDIAG_EVERSION (the module speaks another ABI version) or
 * -EBADMSG (not an answer about task_diag, or malformed).
 */
int td_nl_parse_family(const void *attrs, size_t len, uint16_t *id)
{
	const unsigned char *p = attrs, *end = p + len;
	bool have_id = false, have_version = false, named = false;
	uint32_t version = 0;

	if (!attrs && len)
		return -EBADMSG;
	while (len && p < end) {
		size_t left = (size_t)(end - p), plen;
		struct nlattr nla;
		const unsigned char *v;

		if (left < NLA_HDRLEN)
			return -EBADMSG;
		memcpy(&nla, p, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || nla.nla_len > left)
			return -EBADMSG;
		v = p + NLA_HDRLEN;
		plen = nla.nla_len - NLA_HDRLEN;
		switch (nla.nla_type & NLA_TYPE_MASK) {
		case CTRL_ATTR_FAMILY_ID:
			if (plen < sizeof(*id))
				return -EBADMSG;
			memcpy(id, v, sizeof(*id));
			have_id = true;
			break;
		case CTRL_ATTR_FAMILY_NAME:
			named = plen == sizeof(TASK_DIAG_FAMILY_NAME) &&
				!memcmp(v, TASK_DIAG_FAMILY_NAME, plen);
			break;
		case CTRL_ATTR_VERSION:
			if (plen != sizeof(version))
				return -EBADMSG;
			memcpy(&version, v, sizeof(version));
			have_version = true;
			break;
		}
		if (NLA_ALIGN((size_t)nla.nla_len) >= left)
			break;
		p += NLA_ALIGN((size_t)nla.nla_len);
	}
	if (!have_id || !have_version || !named)
		return -EBADMSG;
	return version == TASK_DIAG_FAMILY_VERSION ? 0 : -TASKDIAG_EVERSION;
}

static int td_nl_family_cb(struct nl_msg *msg, void *arg)
{
	struct td_nl_family *f = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int err;

	if (!genlmsg_valid_hdr(nlh, 0))
		return NL_SKIP;
	err = td_nl_parse_family(genlmsg_attrdata(nlmsg_data(nlh), 0),
				 (size_t)genlmsg_attrlen(nlmsg_data(nlh), 0), &f->id);
	if (err == -EBADMSG)
		return NL_SKIP;
	f->err = err;
	return NL_OK;
}

/*
 * Ask the controller for the family's id and version (CTRL_CMD_GETFAMILY).
 * This goes through libnl's receive path; with the message buffer set to
 * TD_NL_BUFSZ first, it also tells the kernel, before the first dump, that
 * this socket reads large datagrams, so that even the first dump skb (which
 * is filled while the request is sent) gets the full size.
 */
static int td_nl_resolve(struct nl_sock *sk, struct td_nl_family *f)
{
	struct nl_msg *msg;
	struct nl_cb *cb;
	int err;

	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0, 0,
			 CTRL_CMD_GETFAMILY, 1)) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	err = nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, TASK_DIAG_FAMILY_NAME);
	if (err >= 0)
		err = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return td_nl_errno(err);

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, td_nl_family_cb, f);
	/* Returns after the one reply, or the controller's error (ENOENT). */
	err = nl_recvmsgs(sk, cb);
	nl_cb_put(cb);
	if (err < 0)
		return td_nl_errno(err);
	return f->err;
}

/*
 * Open and set up a socket and look the family up: at open, and again for
 * the first request after an abandoned dump (the id is refreshed then, in
 * case the module was reloaded meanwhile).
 */
int td_nl_connect(struct td_nl *nl)
{
	struct td_nl_family f = { .err = -EBADMSG };
	struct nl_sock *sk;
	int one = 1, err;

	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	/*
	 * No NLM_F_ACK on requests: a dump ends with NLMSG_DONE, errors come
	 * anyway, and an ack would only be one more message to read.
	 */
	nl_socket_disable_auto_ack(sk);
	err = genl_connect(sk);
	if (err >= 0)
		err = nl_socket_set_buffer_size(sk, TD_NL_RCVBUF, 0);
	if (err >= 0)
		err = nl_socket_set_msg_buf_size(sk, TD_NL_BUFSZ);
	if (err < 0) {
		err = td_nl_errno(err);
		goto err_free_sk;
	}
	/*
	 * Extended acks carry the kernel's error text; capped acks do not echo
	 * the request. Both are best effort: the reader below handles acks
	 * with and without them, only the text would be missing.
	 */
	(void)setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	(void)setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));

	err = td_nl_resolve(sk, &f);
	if (err)
		goto err_free_sk;
	nl->sk = sk;
	nl->fd = nl_socket_get_fd(sk);
	nl->family = f.id;
	return 0;

err_free_sk:
	nl_socket_free(sk);
	return err;
}

void td_nl_disconnect(struct td_nl *nl)
{
	nl_socket_free(nl->sk);	/* NULL is ignored */
	nl->sk = NULL;
	nl->fd = -1;
	nl->pending = false;
}

struct td_nl *td_nl_alloc(td_nl_recv_fn recv, void *src)
{
	struct td_nl *nl = calloc(1, sizeof(*nl));

	if (!nl)
		return NULL;
	nl->fd = -1;
	nl->rec_fd = -1;
	nl->recv = recv;
	nl->src = src;
	nl->buf = malloc(TD_NL_BUFSZ);
	if (!nl->buf) {
		free(nl);
		return NULL;
	}
	return nl;
}

void td_nl_free(struct td_nl *nl)
{
	td_nl_disconnect(nl);
	free(nl->buf);
	free(nl);
}

void td_nl_close(struct taskdiag *td)
{
	struct td_nl *nl = td->priv;

	if (!nl)
		return;
	if (nl->src_free)
		nl->src_free(nl->src);
	td_nl_free(nl);
	td->priv = NULL;
}

/* ------------------------------------------------------------------------
 * Requests and replies
 */

void td_nl_expect_replies(struct td_nl *nl)
{
	nl->pending = true;
	nl->state = TD_NL_RUNNING;
	nl->err = 0;
	nl->len = 0;
	nl->off = 0;
}

int td_nl_dump_msg(struct td_nl *nl, uint8_t cmd, struct nl_msg **msg)
{
	int err;

	if (!nl->sk) {
		err = td_nl_connect(nl);
		if (err)
			return err;
	}
	/*
	 * Room for the largest request: an address query's 16 KiB of addrs,
	 * or get's id lists (4 KiB each); nlmsg_alloc()'s default is a page.
	 */
	*msg = nlmsg_alloc_size(32 * 1024);
	if (!*msg)
		return -ENOMEM;
	if (!genlmsg_put(*msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, NLM_F_DUMP, cmd,
			 TASK_DIAG_FAMILY_VERSION)) {
		nlmsg_free(*msg);
		*msg = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int td_nl_send(struct td_nl *nl, struct nl_msg *msg)
{
	int err = nl_send_auto(nl->sk, msg);

	if (err < 0) {
		/* What the kernel made of it is unknown: start afresh next time. */
		td_nl_disconnect(nl);
		return td_nl_errno(err);
	}
	/* nl_send_auto() filled in the sequence number. */
	nl->seq = nlmsg_hdr(msg)->nlmsg_seq;
	return 0;
}

/*
 * The procfs-fd a request names: taskdiag_set_procfs()'s; else, from a
 * process with no_new_privs (every Landlock and seccomp sandbox), a
 * descriptor of /proc opened now for reading, in *@tmp, which the caller
 * closes once the request is sent: the module takes the procfs of such a
 * sender only so, so that the sandbox's own file rules decide whether it
 * may read /proc. -1: none (the module looks at the sender's /proc).
 */
int td_nl_procfs_fd(const struct taskdiag *td, int *tmp)
{
	*tmp = -1;
	if (td->procfs_fd >= 0)
		return td->procfs_fd;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return -1;
	*tmp = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return *tmp;
}

int td_nl_send_built(struct td_nl *nl, struct nl_msg *msg, int put_err)
{
	int err = put_err < 0 ? td_nl_errno(put_err) : td_nl_send(nl, msg);

	nlmsg_free(msg);
	return err;
}

/* The socket's datagram source: one datagram into nl->buf (and recorded). */
int td_nl_sock_recv(struct td_nl *nl)
{
	struct sockaddr_nl sa;
	struct iovec iov = { .iov_base = nl->buf, .iov_len = TD_NL_BUFSZ };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	for (;;) {
		mh.msg_name = &sa;
		mh.msg_namelen = sizeof(sa);
		/* MSG_TRUNC: the datagram's real length, even if it did not fit. */
		n = recvmsg(nl->fd, &mh, MSG_TRUNC);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0 || (size_t)n > TD_NL_BUFSZ || (mh.msg_flags & MSG_TRUNC))
			return -EBADMSG;
		/*
		 * Only the kernel (port 0) answers. Another process could send
		 * to our port only with CAP_NET_ADMIN; drop that anyway.
		 */
		if (mh.msg_namelen < sizeof(sa) || sa.nl_family != AF_NETLINK || sa.nl_pid != 0)
			continue;
		nl->len = (size_t)n;
		nl->off = 0;
		if (nl->rec_fd >= 0)
			return td_rec_datagram(nl->rec_fd, nl->buf, nl->len);
		return 0;
	}
}

/*
 * Take the kernel's message (NLMSGERR_ATTR_MSG) out of the TLVs that follow
 * an error. Best effort: a malformed TLV stream only loses the text.
 */
static void td_nl_extack(struct taskdiag *td, const unsigned char *p, size_t len)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr nla;
		size_t step;

		memcpy(&nla, p, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || nla.nla_len > len)
			return;
		if ((nla.nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
			const char *s = (const char *)p + NLA_HDRLEN;

			td_set_extack(td, s, strnlen(s, nla.nla_len - NLA_HDRLEN));
			return;
		}
		step = NLA_ALIGN((size_t)nla.nla_len);
		if (step >= len)
			return;
		p += step;
		len -= step;
	}
}

/* An errno from the wire, negative, and within what errno can be. */
static int td_nl_wire_errno(int32_t e)
{
	if (e > 0)
		e = -e;
	return e < -4095 ? -EBADMSG : e;
}

/*
 * NLMSG_ERROR: payload struct nlmsgerr, then (unless NLM_F_CAPPED) the rest
 * of our request, then (with NLM_F_ACK_TLVS) the extended-ack attributes.
 * Error 0 is an ack, which always ends its request.
 */
int td_nl_error_msg(struct taskdiag *td, const struct nlmsghdr *nlh)
{
	const unsigned char *p = NLMSG_DATA(nlh);
	size_t plen = nlh->nlmsg_len - NLMSG_HDRLEN;
	struct nlmsgerr e;
	size_t skip;
	int32_t error;

	if (plen < sizeof(error))
		return -EBADMSG;
	memcpy(&error, p, sizeof(error));
	if (!error)
		return 0;
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && plen >= sizeof(e)) {
		memcpy(&e, p, sizeof(e));
		skip = sizeof(e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
			/* The request's payload, padded as nlmsg_append() does. */
			if (e.msg.nlmsg_len < NLMSG_HDRLEN || e.msg.nlmsg_len > plen)
				skip = plen;
			else
				skip += NLMSG_ALIGN(e.msg.nlmsg_len - NLMSG_HDRLEN);
		}
		if (skip < plen)
			td_nl_extack(td, p + skip, plen - skip);
	}
	return td_nl_wire_errno(error);
}

/* NLMSG_DONE: payload the dump's errno (0: the end), then extack TLVs. */
int td_nl_done_msg(struct taskdiag *td, const struct nlmsghdr *nlh)
{
	const unsigned char *p = NLMSG_DATA(nlh);
	size_t plen = nlh->nlmsg_len - NLMSG_HDRLEN;
	int32_t error = 0;

	if (plen >= sizeof(error))
		memcpy(&error, p, sizeof(error));
	if (!error)
		return 0;
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && plen > NLMSG_ALIGN(sizeof(error)))
		td_nl_extack(td, p + NLMSG_ALIGN(sizeof(error)),
			     plen - NLMSG_ALIGN(sizeof(error)));
	return td_nl_wire_errno(error);
}

int td_nl_next_msg(struct td_nl *nl, const struct nlmsghdr **nlhp)
{
	for (;;) {
		const struct nlmsghdr *nlh;
		size_t left, step;
		int err;

		if (nl->off >= nl->len) {
			err = nl->recv(nl);
			if (err)
				return err;
		}
		/* Messages start 4-byte aligned in buf (malloc'd, NLMSG_ALIGN). */
		left = nl->len - nl->off;
		nlh = (const struct nlmsghdr *)(nl->buf + nl->off);
		if (left < NLMSG_HDRLEN || nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > left)
			return -EBADMSG;
		step = NLMSG_ALIGN(nlh->nlmsg_len);
		nl->off += step < left ? step : left;
		if (nlh->nlmsg_seq == nl->seq) {
			*nlhp = nlh;
			return 0;
		}
		/* not an answer to this request */
	}
}

/*
 * If the dump did not run to its end, its remaining replies would be read by
 * the next request. Draining them could mean reading the rest of a dump of
 * every task on the system (and would wait on a misbehaving stream), so the
 * socket is closed instead: the kernel ends the dump (the module's done
 * callback runs) when the socket goes, and the next iter_start() opens a
 * new one. A failure to reopen is reported there, not here.
 */
void td_nl_abandon(struct td_nl *nl)
{
	if (nl->pending)
		td_nl_disconnect(nl);
	nl->state = TD_NL_IDLE;
	nl->len = 0;
	nl->off = 0;
}
