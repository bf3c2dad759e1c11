// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the VMA iterator (taskdiag_vma_iter_*), on the module's
 * get-vma dump or, on the procfs backend, on /proc/PID/maps.
 *
 * Netlink: one dump request; the replies are walked in the receive buffer
 * (messages, then their entry nests), one VMA per call, nothing copied but
 * the struct (min(len, sizeof) into a zeroed one, as the ABI's readers do).
 * Procfs: the processes of the proc root in ascending pid order, each maps
 * file read whole and parsed line by line.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "internal.h"
#include "nl.h"
#include "procfs.h"

struct taskdiag_vma_iter {
	struct taskdiag *td;
	struct taskdiag_vma_request req;
	struct taskdiag_vma vma;
	/* netlink: the message being walked (in nl->buf) and the next entry */
	const unsigned char *msg;
	size_t msg_len, msg_off;
	/* procfs */
	pid_t *pids;
	size_t npids, next_pid;
	char *maps;		/* the current process's maps, NUL-terminated */
	size_t maps_len, maps_cap, maps_off;
	int err;		/* sticky */
	bool done;
};

static const char *const td_vma_mnemonics[] = {
	"rd", "wr", "ex", "sh", "mr", "mw", "me", "ms", "gd", "pf", "lo", "io", "sr", "rr",
	"dc", "de", "lf", "ac", "nr", "ht", "sf", "ar", "wf", "dd", "sd", "mm", "hg", "nh",
	"mg", "um", "uw", "ui", "ss", "dp", "sl", "bt", "mt",
};

_Static_assert(sizeof(td_vma_mnemonics) / sizeof(td_vma_mnemonics[0]) ==
	       TASK_DIAG_VMA_FLAG_MTE + 1, "one mnemonic per vma-flag bit");

const char *taskdiag_vma_flag_name(unsigned int bit)
{
	return bit < sizeof(td_vma_mnemonics) / sizeof(td_vma_mnemonics[0]) ?
		td_vma_mnemonics[bit] : NULL;
}

/* ------------------------------------------------------------------------
 * Netlink
 */

static int td_vma_nl_start(struct taskdiag_vma_iter *it)
{
	struct td_nl *nl = it->td->priv;
	struct nl_msg *msg;
	int err;

	if (nl->state == TD_NL_RUNNING)
		return -EBUSY;
	err = td_nl_dump_msg(nl, TASK_DIAG_CMD_GET_VMA, &msg);
	if (err)
		return err;
	err = nla_put_u32(msg, TASK_DIAG_A_VMA_SCOPE, it->req.pid ? TASK_DIAG_SCOPE_TASK :
					 TASK_DIAG_SCOPE_ALL_PROCESSES);
	if (!err && it->req.pid)
		err = nla_put_u32(msg, TASK_DIAG_A_VMA_PID, (uint32_t)it->req.pid);
	if (!err && it->req.filter)
		err = nla_put_u32(msg, TASK_DIAG_A_VMA_FILTER, it->req.filter);
	if (!err && it->req.start)
		err = nla_put_u64(msg, TASK_DIAG_A_VMA_START, it->req.start);
	if (!err && it->req.end)
		err = nla_put_u64(msg, TASK_DIAG_A_VMA_END, it->req.end);
	if (!err && it->td->procfs_fd >= 0)
		err = nla_put_u32(msg, TASK_DIAG_A_VMA_PROCFS_FD, (uint32_t)it->td->procfs_fd);
	if (err < 0) {
		err = td_nl_errno(err);
		goto out_free_msg;
	}
	err = td_nl_send(nl, msg);
	if (err)
		goto out_free_msg;
	td_nl_expect_replies(nl);
	err = 0;

out_free_msg:
	nlmsg_free(msg);
	return err;
}

/* An attribute at @off of @buf (@len bytes): its header, or NULL at the end. */
static int td_vma_attr(const unsigned char *buf, size_t len, size_t *off, struct nlattr *nla,
		       const unsigned char **payload)
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
	while ((ret = td_vma_attr(p, len, &off, &nla, &payload)) == 1) {
		size_t plen = nla.nla_len - NLA_HDRLEN;

		switch (nla.nla_type & NLA_TYPE_MASK) {
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
		default:
			break;	/* pad, or newer than this library */
		}
	}
	if (ret < 0 || !have)
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
		while (it->msg && (ret = td_vma_attr(it->msg, it->msg_len, &it->msg_off, &nla,
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
			while ((ret = td_vma_attr(attrs, alen, &off, &nla, &payload)) == 1) {
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
			ret = nlh->nlmsg_type == NLMSG_DONE ? td_nl_done_msg(it->td, nlh) :
							      td_nl_error_msg(it->td, nlh);
			return ret ? ret : 0;
		}
	}
}

/* ------------------------------------------------------------------------
 * Procfs
 */

static int td_vma_cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static int td_vma_pf_start(struct taskdiag_vma_iter *it)
{
	size_t cap = 0;
	struct dirent *de;
	DIR *dir;
	int fd;

	if (it->req.pid) {
		it->pids = malloc(sizeof(*it->pids));
		if (!it->pids)
			return -ENOMEM;
		it->pids[0] = it->req.pid;
		it->npids = 1;
		return 0;
	}
	fd = openat(td_procfs_rootfd(it->td), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(dir))) {
		char *end;
		long v = strtol(de->d_name, &end, 10);

		if (!isdigit((unsigned char)de->d_name[0]) || *end || v <= 0)
			continue;
		if (it->npids == cap) {
			pid_t *n = realloc(it->pids, (cap ? 2 * cap : 256) * sizeof(*n));

			if (!n) {
				closedir(dir);
				return -ENOMEM;
			}
			it->pids = n;
			cap = cap ? 2 * cap : 256;
		}
		it->pids[it->npids++] = (pid_t)v;
	}
	closedir(dir);
	qsort(it->pids, it->npids, sizeof(*it->pids), td_vma_cmp_pid);
	return 0;
}

/* Read /proc/PID/maps whole into it->maps. 0, or a negative errno. */
static int td_vma_pf_read(struct taskdiag_vma_iter *it, pid_t pid)
{
	char path[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%d/maps", (int)pid);
	fd = openat(td_procfs_rootfd(it->td), path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	it->maps_len = 0;
	for (;;) {
		if (it->maps_cap - it->maps_len < 4096) {
			size_t cap = it->maps_cap ? 2 * it->maps_cap : 64 * 1024;
			char *b = realloc(it->maps, cap);

			if (!b) {
				close(fd);
				return -ENOMEM;
			}
			it->maps = b;
			it->maps_cap = cap;
		}
		n = read(fd, it->maps + it->maps_len, it->maps_cap - it->maps_len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			return n == -ENOENT ? -ESRCH : (int)n;
		}
		if (!n)
			break;
		it->maps_len += (size_t)n;
	}
	close(fd);
	it->maps[it->maps_len] = '\0';
	it->maps_off = 0;
	return 0;
}

/* Parse one maps line (NUL-terminated, no newline) into it->vma. */
TD_HIDDEN int td_vma_parse_maps_line(char *line, struct taskdiag_vma *v)
{
	unsigned long long start, end, off, ino;
	unsigned int maj, min;
	char perms[5];
	int pos = 0;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj,
		   &min, &ino, &pos) != 7 || strlen(perms) != 4 || !pos)
		return -EBADMSG;
	v->start = start;
	v->end = end;
	v->offset = off;
	v->dev_major = maj;
	v->dev_minor = min;
	v->inode = ino;
	v->flags = (perms[0] == 'r' ? TASKDIAG_VMA_F_READ : 0) |
		   (perms[1] == 'w' ? TASKDIAG_VMA_F_WRITE : 0) |
		   (perms[2] == 'x' ? TASKDIAG_VMA_F_EXEC : 0) |
		   (perms[3] == 's' ? TASKDIAG_VMA_F_MAYSHARE : 0);
	/*
	 * The header ends in a space; show_map_vma() pads it with spaces up to
	 * column 72 (25 + 6 * sizeof(void *) - 1) and writes one more before
	 * a name. %n above skipped the padding too, so find the header's end
	 * again: the first space after the inode.
	 */
	{
		const char *h = strchr(line, ' ');
		int i;

		for (i = 0; i < 4 && h; i++)
			h = strchr(h + 1, ' ');
		if (!h)
			return -EBADMSG;
		pos = (int)(h - line) + 1;	/* the header's length, its space included */
		pos = pos < 72 ? 73 : pos + 1;
		v->name = (size_t)pos <= strlen(line) && line[pos - 1] == ' ' && line[pos] ?
			  line + pos : NULL;
	}
	return 0;
}

static bool td_vma_pf_wanted(const struct taskdiag_vma_iter *it, const struct taskdiag_vma *v)
{
	if ((it->req.filter & TASKDIAG_VMA_FILE_BACKED) && !v->inode)
		return false;
	if ((it->req.filter & TASKDIAG_VMA_EXEC) && !(v->flags & TASKDIAG_VMA_F_EXEC))
		return false;
	if (v->end <= it->req.start || (it->req.end && v->start >= it->req.end))
		return false;
	return true;
}

static int td_vma_pf_next(struct taskdiag_vma_iter *it)
{
	int err;

	for (;;) {
		while (it->maps && it->maps_off < it->maps_len) {
			char *line = it->maps + it->maps_off;
			char *nl = strchr(line, '\n');

			if (!nl)
				return -EBADMSG;
			*nl = '\0';
			it->maps_off = (size_t)(nl - it->maps) + 1;
			err = td_vma_parse_maps_line(line, &it->vma);
			if (err)
				return err;
			if (td_vma_pf_wanted(it, &it->vma))
				return 1;
		}
		it->maps_len = it->maps_off = 0;
		if (it->next_pid >= it->npids)
			return 0;
		it->vma.pid = it->pids[it->next_pid++];
		err = td_vma_pf_read(it, it->vma.pid);
		if (err && it->req.pid)
			return err;
		if (err == -ENOMEM)
			return err;
		if (err)
			it->maps_len = 0;	/* gone or not readable: left out */
	}
}

/* ------------------------------------------------------------------------
 * The API
 */

int taskdiag_vma_iter_start(struct taskdiag *td, const struct taskdiag_vma_request *req,
			    struct taskdiag_vma_iter **itp)
{
	struct taskdiag_vma_iter *it;
	int err;

	if (!td || !itp)
		return -EINVAL;
	*itp = NULL;
	if (td->iter || td->vma_iter)
		return -EBUSY;
	if (req && ((req->filter & ~(TASKDIAG_VMA_FILE_BACKED | TASKDIAG_VMA_EXEC)) ||
		    req->pid < 0 || (req->end && req->end <= req->start)))
		return -EINVAL;
	if (td->ops != &td_netlink_backend && td->ops != &td_procfs_backend)
		return -EOPNOTSUPP;
	it = calloc(1, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->td = td;
	if (req)
		it->req = *req;
	td_set_extack(td, NULL, 0);
	err = td->ops == &td_netlink_backend ? td_vma_nl_start(it) : td_vma_pf_start(it);
	if (err) {
		free(it->pids);
		free(it);
		return err;
	}
	td->vma_iter = it;
	*itp = it;
	return 0;
}

int taskdiag_vma_iter_next(struct taskdiag_vma_iter *it, const struct taskdiag_vma **vma)
{
	int ret;

	if (!it || !vma)
		return -EINVAL;
	*vma = NULL;
	if (it->err)
		return it->err;
	if (it->done)
		return 0;
	ret = it->td->ops == &td_netlink_backend ? td_vma_nl_next(it) : td_vma_pf_next(it);
	if (ret == 1)
		*vma = &it->vma;
	else if (ret < 0)
		it->err = ret;
	else
		it->done = true;
	return ret;
}

void taskdiag_vma_iter_end(struct taskdiag_vma_iter *it)
{
	if (!it)
		return;
	if (it->td->ops == &td_netlink_backend)
		td_nl_abandon(it->td->priv);
	it->td->vma_iter = NULL;
	free(it->pids);
	free(it->maps);
	free(it);
}
