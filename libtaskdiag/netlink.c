// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the netlink backend's task iteration, a client of the
 * task_diag generic netlink family, on the transport of nl.c.
 *
 * iter_next() walks the reply messages and their attributes in the handle's
 * receive buffer, in place. A record's strings and blobs point into that
 * buffer, which is why a record is valid only until the next call.
 *
 * An iteration that is ended before its dump finished leaves replies on the
 * socket (and a dump open in the kernel). Rather than read and throw away
 * what may be thousands of messages, iter_end() closes the socket, which ends
 * the dump in the kernel at once; the next iter_start() opens a fresh socket
 * and looks the family up again (one round trip). See td_nl_abandon().
 *
 * Record and replay (ss -D style, record.c and replay.c): a handle may copy
 * every datagram it receives to a file (taskdiag_set_record()), and a replay
 * handle (taskdiag_open_replay()) reads such a file back through the same
 * iteration code: the iteration takes its datagrams from nl->recv, the
 * socket's or the recording's (nl.h), and knows nothing else of either.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/task_diag.h>

#include <netlink/attr.h>
#include <netlink/msg.h>

#include "internal.h"
#include "procfs.h"
#include "nl.h"

/* The public group bits and scopes are the ABI's, passed through as they are. */
_Static_assert(TASKDIAG_GROUP_BASE == TASK_DIAG_SHOW_BASE, "group bits are the ABI's");
_Static_assert(TASKDIAG_GROUP_STAT == TASK_DIAG_SHOW_STAT, "group bits are the ABI's");
_Static_assert(TASKDIAG_GROUP_STATM == TASK_DIAG_SHOW_STATM, "group bits are the ABI's");
_Static_assert(TASKDIAG_GROUP_IO == TASK_DIAG_SHOW_IO, "group bits are the ABI's");
_Static_assert(TASKDIAG_GROUP_STATUS == TASK_DIAG_SHOW_STATUS, "group bits are the ABI's");
_Static_assert(TASKDIAG_GROUP_CRED == TASK_DIAG_SHOW_CRED, "group bits are the ABI's");
_Static_assert(TASKDIAG_GROUP_CMDLINE == TASK_DIAG_SHOW_CMDLINE, "group bits are the ABI's");
_Static_assert(TASKDIAG_GROUP_MEM == TASK_DIAG_SHOW_MEM, "group bits are the ABI's");
_Static_assert(TASKDIAG_GROUP_ALL == TASK_DIAG_SHOW_ALL, "group bits are the ABI's");
_Static_assert((int)TASKDIAG_SCOPE_ALL_PROCESSES == (int)TASK_DIAG_SCOPE_ALL_PROCESSES &&
	       (int)TASKDIAG_SCOPE_ALL_THREADS == (int)TASK_DIAG_SCOPE_ALL_THREADS &&
	       (int)TASKDIAG_SCOPE_TASK == (int)TASK_DIAG_SCOPE_TASK &&
	       (int)TASKDIAG_SCOPE_THREADS == (int)TASK_DIAG_SCOPE_THREADS &&
	       (int)TASKDIAG_SCOPE_CHILDREN == (int)TASK_DIAG_SCOPE_CHILDREN,
	       "scopes are the ABI's");

static int td_nl_open(struct taskdiag *td)
{
	struct td_nl *nl;
	int err;

	nl = td_nl_alloc(td_nl_sock_recv, NULL);
	if (!nl)
		return -ENOMEM;
	err = td_nl_connect(nl);
	if (err) {
		td_nl_free(nl);
		return err;
	}
	td->priv = nl;
	return 0;
}

/* ------------------------------------------------------------------------
 * Iteration
 */

void td_nl_begin(struct taskdiag_iter *it, uint32_t seq, uint16_t family)
{
	struct td_nl *nl = it->td->priv;

	nl->seq = seq;
	nl->family = family;
	td_nl_expect_replies(nl);
	it->priv = nl;
}

/* The request's filters and ran-since (0 or libnl's negative NLE_*). */
static int td_nl_put_filters(struct nl_msg *msg, const struct taskdiag_request *req)
{
	int err = 0;

	if (req->npids)
		err = nla_put(msg, TASK_DIAG_A_TASK_FILTER_PID, (int)(req->npids * 4), req->pids);
	if (!err && req->nuids)
		err = nla_put(msg, TASK_DIAG_A_TASK_FILTER_UID, (int)(req->nuids * 4), req->uids);
	if (!err && req->neuids)
		err = nla_put(msg, TASK_DIAG_A_TASK_FILTER_EUID, (int)(req->neuids * 4), req->euids);
	if (!err && req->cgroup_id)
		err = nla_put_u64(msg, TASK_DIAG_A_TASK_FILTER_CGROUP_ID, req->cgroup_id);
	if (!err && req->cgroup_path)
		err = nla_put_string(msg, TASK_DIAG_A_TASK_FILTER_CGROUP_PATH, req->cgroup_path);
	if (!err && req->comm)
		err = nla_put_string(msg, TASK_DIAG_A_TASK_FILTER_COMM, req->comm);
	if (!err && (req->flags & TASKDIAG_REQ_RAN_SINCE))
		err = nla_put_u64(msg, TASK_DIAG_A_TASK_RAN_SINCE, req->ran_since);
	if (!err && (req->flags & TASKDIAG_REQ_RAN_SINCE_IDLE))
		err = nla_put_flag(msg, TASK_DIAG_A_TASK_RAN_SINCE_IDLE);
	return err;
}

static int td_nl_iter_start(struct taskdiag_iter *it)
{
	struct td_nl *nl = it->td->priv;
	int err, procfs_fd, tmp_fd;
	struct nl_msg *msg;

	/* Always a dump: the module answers the TASK scope as a dump too. */
	err = td_nl_dump_msg(nl, TASK_DIAG_CMD_GET, &msg);
	if (err)
		return err;
	err = nla_put_u32(msg, TASK_DIAG_A_TASK_SCOPE, (uint32_t)it->req.scope);
	if (!err && it->req.pid)
		err = nla_put_u32(msg, TASK_DIAG_A_TASK_PID, (uint32_t)it->req.pid);
	if (!err)
		err = nla_put_u32(msg, TASK_DIAG_A_TASK_SHOW, it->req.groups);
	procfs_fd = td_nl_procfs_fd(it->td, &tmp_fd);
	if (!err && procfs_fd >= 0)
		err = nla_put_u32(msg, TASK_DIAG_A_TASK_PROCFS_FD, (uint32_t)procfs_fd);
	if (!err)
		err = td_nl_put_filters(msg, &it->req);
	err = td_nl_send_built(nl, msg, err);
	if (tmp_fd >= 0)
		close(tmp_fd);
	if (err)
		return err;
	if (nl->rec_fd >= 0) {
		err = td_rec_request(nl->rec_fd, nl->seq, nl->family, &it->req);
		if (err) {
			td_nl_disconnect(nl);	/* abandon the dump just asked for */
			return err;
		}
	}
	td_nl_begin(it, nl->seq, nl->family);
	return 0;
}

/* The request is over: 0 at its end, or its error, for good. */
static int td_nl_finish(struct td_nl *nl, int ret)
{
	nl->pending = false;
	nl->state = ret ? TD_NL_FAILED : TD_NL_DONE;
	nl->err = ret;
	return ret;
}

/* Fail the iteration with the request's replies possibly still coming. */
static int td_nl_fail(struct td_nl *nl, int err)
{
	nl->state = TD_NL_FAILED;
	nl->err = err;
	return err;
}

#define TD_PF_KTHREAD	0x00200000u
#define TD_COMM_LEN	16	/* the kernel's TASK_COMM_LEN */

/*
 * The module sends task->comm; procfs names a kernel thread by its full
 * name when longer than 15 characters, and a workqueue worker by its work
 * (kworker/0:1-events), from helpers no module can call. So for the few
 * kernel threads whose name may differ (15 characters, or a kworker), the
 * name is taken from /proc/PID/comm, which procfs fills with the same
 * function as stat. A thread gone in between keeps the module's name. A
 * task_diag built into the kernel sends procfs's name itself: a name longer
 * than task->comm can be is that one, and is kept.
 */
static void td_nl_complete_comm(struct td_nl *nl, struct taskdiag_task *t)
{
	const struct td_blob *comm = &t->top.comm;
	char path[64];
	ssize_t n;
	int fd;

	if (!td_task_present(t, TASKDIAG_ITEM_BASE_COMM) ||
	    !td_task_present(t, TASKDIAG_ITEM_BASE_FLAGS) || !(t->base.flags & TD_PF_KTHREAD))
		return;
	if (comm->len >= TD_COMM_LEN ||
	    (comm->len != TD_COMM_LEN - 1 && strncmp(comm->p, "kworker/", 8)))
		return;
	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/task/%" PRIu32 "/comm", t->top.tgid,
		 t->top.pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, nl->kthread_comm, sizeof(nl->kthread_comm) - 1);
	close(fd);
	if (n <= 1 || nl->kthread_comm[n - 1] != '\n')
		return;
	nl->kthread_comm[n - 1] = '\0';
	td_task_set_blob(t, TASKDIAG_ITEM_BASE_COMM, nl->kthread_comm, (uint32_t)n - 1);
}

/*
 * The module leaves a mem field's bit clear where it cannot compute the
 * value exactly (SwapPss when the task has swap entries, Swap when a shmem
 * object it maps has swapped pages: see struct mem in the spec). Such a
 * record takes the whole group from /proc/PID/smaps_rollup instead, read
 * now (one snapshot, not a mix); if that read fails, the module's fields
 * stay. The KSM bit, which 6.1 never sets, is not asked for.
 */
static void td_nl_complete_mem(struct taskdiag_task *t)
{
	const uint64_t exact = (1ull << (TASK_DIAG_MEM_F_LOCKED + 1)) - 1;
	char path[64], buf[4096];
	size_t len = 0;
	ssize_t n;
	int fd;

	if (!t->mem.mask || (t->mem.mask & exact) == exact)
		return;
	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/task/%" PRIu32 "/smaps_rollup",
		 t->top.tgid, t->top.pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while (len < sizeof(buf) - 1) {
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!len)
		return;
	buf[len] = '\0';
	t->mem.mask = 0;
	td_pf_parse_rollup(t, buf, len);
}

int td_nl_iter_next(struct taskdiag_iter *it)
{
	struct td_nl *nl = it->priv;
	int err;

	if (nl->state == TD_NL_DONE)
		return 0;
	if (nl->state != TD_NL_RUNNING)
		return nl->err;

	for (;;) {
		const struct nlmsghdr *nlh;

		err = td_nl_next_msg(nl, &nlh);
		if (err)
			return td_nl_fail(nl, err);
		if (nlh->nlmsg_type == nl->family) {
			if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
				return td_nl_fail(nl, -EBADMSG);
			err = td_nl_parse_task((const unsigned char *)NLMSG_DATA(nlh) + GENL_HDRLEN,
					       nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN,
					       &it->task);
			if (err)
				return td_nl_fail(nl, err);
			/*
			 * A replay shows what was recorded; so does the live
			 * dump that is being recorded, so that the two agree.
			 */
			if (it->td->ops == &td_netlink_backend && nl->rec_fd < 0) {
				td_nl_complete_comm(nl, &it->task);
				td_nl_complete_mem(&it->task);
			}
			return 1;
		}
		switch (nlh->nlmsg_type) {
		case NLMSG_DONE:
			return td_nl_finish(nl, td_nl_done_msg(it->td, nlh));
		case NLMSG_ERROR:
			return td_nl_finish(nl, td_nl_error_msg(it->td, nlh));
		default:
			continue;	/* NLMSG_NOOP and the like */
		}
	}
}

void td_nl_iter_end(struct taskdiag_iter *it)
{
	td_nl_abandon(it->td->priv);
	it->priv = NULL;
}

const struct td_backend td_netlink_backend = {
	.open = td_nl_open,
	.close = td_nl_close,
	.iter_start = td_nl_iter_start,
	.iter_next = td_nl_iter_next,
	.iter_end = td_nl_iter_end,
	.vma = &td_vma_netlink_ops,
};
