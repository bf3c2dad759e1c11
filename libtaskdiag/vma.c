// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the VMA iterator (taskdiag_vma_iter_*) and the address
 * query (taskdiag_vma_query_*), which shares it: the arguments, the
 * sticky error and the answers' order here; the handle's backend does the
 * rest (its vma operations: vma_netlink.c on the module's get-vma dump,
 * vma_procfs.c on /proc/PID/maps and PROCMAP_QUERY).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "vma.h"

static const char *const td_vma_mnemonics[] = {
	"rd", "wr", "ex", "sh", "mr", "mw", "me", "ms", "gd", "pf", "lo", "io", "sr", "rr",
	"dc", "de", "lf", "ac", "nr", "ht", "sf", "ar", "wf", "dd", "sd", "mm", "hg", "nh",
	"mg", "um", "uw", "ui", "ss", "dp", "sl", "bt", "mt", "gu", "ur",
};

_Static_assert(sizeof(td_vma_mnemonics) / sizeof(td_vma_mnemonics[0]) ==
	       TASK_DIAG_VMA_FLAG_UFFD_RWP + 1, "one mnemonic per vma-flag bit");

const char *taskdiag_vma_flag_name(unsigned int bit)
{
	return bit < sizeof(td_vma_mnemonics) / sizeof(td_vma_mnemonics[0]) ?
		td_vma_mnemonics[bit] : NULL;
}

/* A new iterator, registered on @td (taskdiag_vma_iter_end() undoes it). */
static struct taskdiag_vma_iter *td_vma_iter_new(struct taskdiag *td)
{
	struct taskdiag_vma_iter *it = calloc(1, sizeof(*it));

	if (!it)
		return NULL;
	it->td = td;
	it->maps_fd = -1;
	td_set_extack(td, NULL, 0);
	td->vma_iter = it;
	return it;
}

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
	if (req && ((req->filter & ~(TD_VMA_FILTERS | TASKDIAG_VMA_BUILD_ID)) ||
		    req->pid < 0 || (req->end && req->end <= req->start)))
		return -EINVAL;
	if (!td->ops->vma)
		return -EOPNOTSUPP;	/* a replay handle */
	it = td_vma_iter_new(td);
	if (!it)
		return -ENOMEM;
	if (req)
		it->req = *req;
	err = td->ops->vma->start(it);
	if (err) {
		taskdiag_vma_iter_end(it);
		return err;
	}
	*itp = it;
	return 0;
}

int taskdiag_vma_iter_next(struct taskdiag_vma_iter *it, const struct taskdiag_vma **vma)
{
	int ret;

	if (!it || !vma || it->query)
		return -EINVAL;
	*vma = NULL;
	if (it->err)
		return it->err;
	if (it->done)
		return 0;
	ret = it->td->ops->vma->next(it);
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
	if (it->td->ops->vma->abandon)
		it->td->ops->vma->abandon(it);
	it->td->vma_iter = NULL;
	if (it->maps_fd >= 0)
		close(it->maps_fd);
	free(it->table);
	free(it->name);
	free(it->pids);
	free(it->maps);
	free(it);
}

int taskdiag_vma_query_start(struct taskdiag *td, const struct taskdiag_vma_query *q,
			     struct taskdiag_vma_iter **itp)
{
	struct taskdiag_vma_iter *it;
	int err;

	if (!td || !itp)
		return -EINVAL;
	*itp = NULL;
	if (!q || q->pid <= 0 || !q->addrs || !q->naddrs ||
	    (q->filter & ~(TD_VMA_FILTERS | TASKDIAG_VMA_BUILD_ID)) ||
	    (q->flags & ~TASKDIAG_VMA_QUERY_MAPS_TEXT))
		return -EINVAL;
	if (td->iter || td->vma_iter)
		return -EBUSY;
	if (!td->ops->vma)
		return -EOPNOTSUPP;	/* a replay handle */
	it = td_vma_iter_new(td);
	if (!it)
		return -ENOMEM;
	it->query = true;
	it->q = *q;
	err = td->ops->vma->query_start(it);
	if (err) {
		taskdiag_vma_iter_end(it);
		return err;
	}
	*itp = it;
	return 0;
}

int taskdiag_vma_query_next(struct taskdiag_vma_iter *it, uint64_t *addr,
			    const struct taskdiag_vma **vma)
{
	const struct td_vma_ops *ops;
	int ret;

	if (!it || !addr || !vma || !it->query)
		return -EINVAL;
	*vma = NULL;
	if (it->err)
		return it->err;
	ops = it->td->ops->vma;
	if (it->answered == it->q.naddrs) {
		if (!it->done && ops->query_end) {
			ret = ops->query_end(it);
			if (ret) {
				it->err = ret;
				return ret;
			}
		}
		it->done = true;
		return 0;
	}
	ret = ops->query_next(it);
	if (ret < 0) {
		it->err = ret;
		return ret;
	}
	*addr = it->q.addrs[it->answered++];
	it->vma.pid = it->q.pid;
	if (ret == 1)
		*vma = &it->vma;
	return 1;
}
