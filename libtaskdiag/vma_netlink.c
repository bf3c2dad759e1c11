// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the VMA iterator on the module's get-vma dump. One dump
 * request; the replies are walked in the receive buffer (messages, then
 * their entry nests), one VMA per call, nothing copied but the struct
 * (min(len, sizeof) into a zeroed one, as the ABI's readers do). An
 * address query sends get-vma requests with addrs, TD_VMA_QUERY_CHUNK
 * addresses each, one after the other.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "nl.h"
#include "vma.h"

/* Addresses per get-vma request: the addrs attribute's limit (16384 bytes). */
#define TD_VMA_QUERY_CHUNK	2048

/*
 * Send a get-vma request: it->req's (a dump), or, with @n addresses at
 * @addrs, an address query of it->q's pid and filter.
 */
static int td_vma_nl_send(struct taskdiag_vma_iter *it, const uint64_t *addrs, size_t n)
{
	const struct taskdiag_vma_request *r = &it->req;
	pid_t pid = n ? it->q.pid : r->pid;
	uint32_t filter = n ? it->q.filter : r->filter;
	struct td_nl *nl = it->td->priv;
	int err, procfs_fd, tmp_fd;
	struct nl_msg *msg;

	err = td_nl_dump_msg(nl, TASK_DIAG_CMD_GET_VMA, &msg);
	if (err)
		return err;
	err = nla_put_u32(msg, TASK_DIAG_A_VMA_SCOPE, pid ? TASK_DIAG_SCOPE_TASK :
					 TASK_DIAG_SCOPE_ALL_PROCESSES);
	if (!err && pid)
		err = nla_put_u32(msg, TASK_DIAG_A_VMA_PID, (uint32_t)pid);
	if (!err && (filter & TD_VMA_FILTERS))
		err = nla_put_u32(msg, TASK_DIAG_A_VMA_FILTER, filter & TD_VMA_FILTERS);
	if (!err && (filter & TASKDIAG_VMA_BUILD_ID))
		err = nla_put_flag(msg, TASK_DIAG_A_VMA_WITH_BUILD_ID);
	if (!err && r->start)
		err = nla_put_u64(msg, TASK_DIAG_A_VMA_START, r->start);
	if (!err && r->end)
		err = nla_put_u64(msg, TASK_DIAG_A_VMA_END, r->end);
	if (!err && n)
		err = nla_put(msg, TASK_DIAG_A_VMA_ADDRS, (int)(n * sizeof(*addrs)), addrs);
	procfs_fd = td_nl_procfs_fd(it->td, &tmp_fd);
	if (!err && procfs_fd >= 0)
		err = nla_put_u32(msg, TASK_DIAG_A_VMA_PROCFS_FD, (uint32_t)procfs_fd);
	err = td_nl_send_built(nl, msg, err);
	if (tmp_fd >= 0)
		close(tmp_fd);
	if (err)
		return err;
	td_nl_expect_replies(nl);
	return 0;
}

static int td_vma_nl_start(struct taskdiag_vma_iter *it)
{
	struct td_nl *nl = it->td->priv;

	if (nl->state == TD_NL_RUNNING)
		return -EBUSY;
	return td_vma_nl_send(it, NULL, 0);
}

/* One entry nest into it->vma. */
static int td_vma_nl_entry(struct taskdiag_vma_iter *it, const unsigned char *p, size_t len)
{
	struct task_diag_vma st = { 0 };
	const unsigned char *payload;
	struct nlattr nla;
	bool have = false;
	size_t off = 0;
	int ret;

	it->vma.name = NULL;
	it->vma.build_id = NULL;
	it->vma.build_id_len = 0;
	it->have_qaddr = it->none = false;
	while ((ret = td_attr_next(p, len, &off, &nla, &payload)) == 1) {
		size_t plen = nla.nla_len - NLA_HDRLEN;

		switch (nla.nla_type & NLA_TYPE_MASK) {
		case TASK_DIAG_A_VMA_ENTRY_QUERY_ADDR:
			if (plen != sizeof(it->qaddr))
				return -EBADMSG;
			memcpy(&it->qaddr, payload, sizeof(it->qaddr));
			it->have_qaddr = true;
			break;
		case TASK_DIAG_A_VMA_ENTRY_NO_VMA:
			it->none = true;
			break;
		case TASK_DIAG_A_VMA_ENTRY_VMA:
			if (plen < TASK_DIAG_VMA_SIZE_VER0)
				return -EBADMSG;
			memcpy(&st, payload, plen < sizeof(st) ? plen : sizeof(st));
			have = true;
			break;
		case TASK_DIAG_A_VMA_ENTRY_NAME:
			if (!plen || payload[plen - 1] != '\0')
				return -EBADMSG;
			it->vma.name = (const char *)payload;
			break;
		case TASK_DIAG_A_VMA_ENTRY_BUILD_ID:
			if (!plen || plen > TD_VMA_BID_MAX)
				return -EBADMSG;
			it->vma.build_id = payload;
			it->vma.build_id_len = (uint32_t)plen;
			break;
		default:
			break;	/* pad, or newer than this library */
		}
	}
	if (ret < 0 || it->query != it->have_qaddr)
		return -EBADMSG;
	/* An answer has its VMA or no-vma, never both; a dump's entry its VMA. */
	if (it->query && it->none)
		return have ? -EBADMSG : 1;
	if (!have || it->none)
		return -EBADMSG;
	it->vma.start = st.start;
	it->vma.end = st.end;
	it->vma.offset = st.offset;
	it->vma.inode = st.inode;
	it->vma.flags = st.flags;
	it->vma.dev_major = st.dev_major;
	it->vma.dev_minor = st.dev_minor;
	return 1;
}

static int td_vma_nl_next(struct taskdiag_vma_iter *it)
{
	struct td_nl *nl = it->td->priv;
	const unsigned char *payload;
	struct nlattr nla;
	int ret;

	for (;;) {
		const struct nlmsghdr *nlh;

		/* The rest of the current message's attributes. */
		while (it->msg && (ret = td_attr_next(it->msg, it->msg_len, &it->msg_off, &nla,
						     &payload)) != 0) {
			if (ret < 0)
				return ret;
			if ((nla.nla_type & NLA_TYPE_MASK) == TASK_DIAG_A_VMA_ENTRY)
				return td_vma_nl_entry(it, payload, nla.nla_len - NLA_HDRLEN);
		}
		it->msg = NULL;

		ret = td_nl_next_msg(nl, &nlh);
		if (ret)
			return ret;
		if (nlh->nlmsg_type == nl->family) {
			const unsigned char *attrs = (const unsigned char *)NLMSG_DATA(nlh) + GENL_HDRLEN;
			size_t alen, off = 0;
			bool pid = false;

			if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
				return -EBADMSG;
			alen = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
			/* The pid first: the entries follow it. */
			while ((ret = td_attr_next(attrs, alen, &off, &nla, &payload)) == 1) {
				if ((nla.nla_type & NLA_TYPE_MASK) == TASK_DIAG_A_VMA_PID &&
				    nla.nla_len == NLA_HDRLEN + sizeof(uint32_t)) {
					uint32_t v;

					memcpy(&v, payload, sizeof(v));
					it->vma.pid = (pid_t)v;
					pid = true;
					break;
				}
			}
			if (ret < 0 || !pid)
				return -EBADMSG;
			it->msg = attrs;
			it->msg_len = alen;
			it->msg_off = 0;
			continue;
		}
		if (nlh->nlmsg_type == NLMSG_DONE || nlh->nlmsg_type == NLMSG_ERROR) {
			nl->pending = false;
			return nlh->nlmsg_type == NLMSG_DONE ? td_nl_done_msg(it->td, nlh) :
							       td_nl_error_msg(it->td, nlh);
		}
	}
}

/* The next get-vma request of a query: its next TD_VMA_QUERY_CHUNK addresses. */
static int td_vma_nl_query_send(struct taskdiag_vma_iter *it)
{
	size_t n = it->q.naddrs - it->sent;
	int err;

	if (n > TD_VMA_QUERY_CHUNK)
		n = TD_VMA_QUERY_CHUNK;
	err = td_vma_nl_send(it, it->q.addrs + it->sent, n);
	if (!err)
		it->sent += n;
	return err;
}

static int td_vma_nl_query_next(struct taskdiag_vma_iter *it)
{
	int ret;

	for (;;) {
		ret = td_vma_nl_next(it);
		if (ret == 1) {
			/* One answer per address, in their order. */
			if (it->answered >= it->sent || it->qaddr != it->q.addrs[it->answered])
				return -EBADMSG;
			return 1;
		}
		if (ret < 0)
			return ret;
		/* A request ended short: the thread exited in between. */
		if (it->answered != it->sent)
			return -ESRCH;
		if (it->sent == it->q.naddrs)
			return 0;
		ret = td_vma_nl_query_send(it);
		if (ret)
			return ret;
	}
}

/* A query's answer: its VMA, or none where the entry says no-vma. */
static int td_vma_nl_query_answer(struct taskdiag_vma_iter *it)
{
	int ret = td_vma_nl_query_next(it);

	/* Every request over with addresses unanswered. */
	if (ret == 0)
		return -EBADMSG;
	return ret == 1 && it->none ? 0 : ret;
}

/* After the last answer: the last request's NLMSG_DONE, for its errors. */
static int td_vma_nl_query_end(struct taskdiag_vma_iter *it)
{
	int ret = td_vma_nl_query_next(it);

	return ret > 0 ? -EBADMSG : ret;
}

static void td_vma_nl_abandon(struct taskdiag_vma_iter *it)
{
	td_nl_abandon(it->td->priv);
}

const struct td_vma_ops td_vma_netlink_ops = {
	.start = td_vma_nl_start,
	.next = td_vma_nl_next,
	.query_start = td_vma_nl_query_send,
	.query_next = td_vma_nl_query_answer,
	.query_end = td_vma_nl_query_end,
	.abandon = td_vma_nl_abandon,
};
