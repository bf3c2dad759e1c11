/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtaskdiag internals of the netlink backend, shared by nl.c (the
 * transport: the socket, requests, the next reply message), netlink.c (the
 * task iteration over datagrams), record.c (the recording file), replay.c
 * (the replay handle, which runs the same iteration over a file), decode.c
 * (a task's attributes) and vma_netlink.c (get-vma's replies).
 */
#ifndef TASKDIAG_NL_H
#define TASKDIAG_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <linux/netlink.h>

#include "internal.h"

/*
 * td_attr_next() - the attribute at *@off of @buf (@len bytes, any alignment)
 * @nla: its header, copied out
 * @payload: where its payload starts in @buf
 *
 * Every attribute must lie wholly within @len; the last one may lack its
 * padding. Moves *@off past the attribute.
 *
 * Return: 1, 0 at the end of @buf, or -EBADMSG.
 */
static inline int td_attr_next(const unsigned char *buf, size_t len, size_t *off,
			       struct nlattr *nla, const unsigned char **payload)
{
	size_t step;

	if (*off >= len)
		return 0;
	if (len - *off < NLA_HDRLEN)
		return -EBADMSG;
	memcpy(nla, buf + *off, sizeof(*nla));
	if (nla->nla_len < NLA_HDRLEN || nla->nla_len > len - *off)
		return -EBADMSG;
	*payload = buf + *off + NLA_HDRLEN;
	step = NLA_ALIGN((size_t)nla->nla_len);
	*off += step < len - *off ? step : len - *off;
	return 1;
}

/*
 * The receive buffer. netlink sizes dump skbs after the largest buffer the
 * reader has passed to recvmsg(), capped at 32 KiB less the skb overhead, so
 * 64 KiB always holds a whole datagram.
 */
#define TD_NL_BUFSZ	(64 * 1024)

enum td_nl_state {
	TD_NL_IDLE,
	TD_NL_RUNNING,
	TD_NL_DONE,
	TD_NL_FAILED,
};

struct td_nl;

/*
 * A datagram source: put the next datagram into nl->buf and its length in
 * nl->len (nl->off = 0); return 0 or a negative errno. The socket's
 * (nl.c) and a recording's (replay.c).
 */
typedef int (*td_nl_recv_fn)(struct td_nl *nl);

/* The socket's datagram source (nl.c): one datagram into nl->buf, and recorded. */
TD_HIDDEN int td_nl_sock_recv(struct td_nl *nl);

/*
 * The backend's part of a handle. One iteration at a time runs on a handle,
 * so the iteration's state lives here too and it->priv points here.
 */
struct td_nl {
	struct nl_sock *sk;	/* NULL after an abandoned dump, and for a replay */
	int fd;
	uint16_t family;
	uint32_t seq;		/* of the running request */
	bool pending;		/* the running request may still have replies */
	enum td_nl_state state;
	int err;		/* sticky error of a failed iteration */
	size_t len;		/* bytes of the datagram in buf */
	size_t off;		/* next message in buf */
	unsigned char *buf;	/* TD_NL_BUFSZ bytes */
	td_nl_recv_fn recv;	/* where datagrams come from */
	void *src;		/* its state (a replay's file), or NULL */
	void (*src_free)(void *src);
	int rec_fd;		/* recording to this file, or -1 */
	char kthread_comm[64];	/* a kernel thread's name as procfs shows it */
};

/* A new td_nl reading from @recv (NULL on ENOMEM); td_nl_free() undoes it. */
TD_HIDDEN struct td_nl *td_nl_alloc(td_nl_recv_fn recv, void *src);
TD_HIDDEN void td_nl_free(struct td_nl *nl);

/* Start iterating the replies to request @seq of family @family. */
TD_HIDDEN void td_nl_begin(struct taskdiag_iter *it, uint32_t seq, uint16_t family);
TD_HIDDEN int td_nl_iter_next(struct taskdiag_iter *it);
TD_HIDDEN void td_nl_iter_end(struct taskdiag_iter *it);
TD_HIDDEN void td_nl_close(struct taskdiag *td);

/* For the VMA iterator (vma_netlink.c), which runs its own request on the socket. */
struct nlmsghdr;
TD_HIDDEN int td_nl_connect(struct td_nl *nl);
TD_HIDDEN void td_nl_disconnect(struct td_nl *nl);
TD_HIDDEN int td_nl_error_msg(struct taskdiag *td, const struct nlmsghdr *nlh);
TD_HIDDEN int td_nl_done_msg(struct taskdiag *td, const struct nlmsghdr *nlh);
/* A dump request of @cmd in *@msg (connecting first if need be), for its attributes. */
struct nl_msg;
TD_HIDDEN int td_nl_dump_msg(struct td_nl *nl, uint8_t cmd, struct nl_msg **msg);
/* Replies to request nl->seq are to come: reset the receive state. */
TD_HIDDEN void td_nl_expect_replies(struct td_nl *nl);
/*
 * Send a request built by td_nl_dump_msg() and the nla_put*() calls after
 * it, whose last result is @put_err (0, or libnl's negative NLE_*: not
 * sent), and free it: 0 or a negative errno. A failed send disconnects;
 * after a send nl->seq is the request's sequence number.
 */
TD_HIDDEN int td_nl_send_built(struct td_nl *nl, struct nl_msg *msg, int put_err);
/*
 * The procfs-fd a request names: taskdiag_set_procfs()'s, or, for a caller
 * with no_new_privs, /proc opened now in *@tmp (closed by the caller after
 * the send); -1: none.
 */
TD_HIDDEN int td_nl_procfs_fd(const struct taskdiag *td, int *tmp);
/* The next message of request nl->seq, receiving datagrams as needed. */
TD_HIDDEN int td_nl_next_msg(struct td_nl *nl, const struct nlmsghdr **nlh);
/* End the iteration; a request with replies still to come loses its socket. */
TD_HIDDEN void td_nl_abandon(struct td_nl *nl);

/* Recording (record.c): a request sent, a datagram received. 0 or -errno. */
TD_HIDDEN int td_rec_request(int fd, uint32_t seq, uint16_t family,
			     const struct taskdiag_request *req);
TD_HIDDEN int td_rec_datagram(int fd, const void *buf, size_t len);

#endif /* TASKDIAG_NL_H */
