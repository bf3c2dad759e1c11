/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtaskdiag: the VMA iterator's state, shared by its API (vma.c) and its
 * two backends (vma_netlink.c, vma_procfs.c), which struct td_backend's
 * vma member names.
 */
#ifndef TD_VMA_H
#define TD_VMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "internal.h"

/* The longest build id (the module's, the kernel's BUILD_ID_SIZE_MAX). */
#define TD_VMA_BID_MAX		20

/* The request bits the module takes as filter. */
#define TD_VMA_FILTERS		(TASKDIAG_VMA_FILE_BACKED | TASKDIAG_VMA_EXEC)

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
	/* an address query */
	bool query;
	struct taskdiag_vma_query q;
	size_t sent, answered;	/* addresses asked for (netlink), answered */
	uint64_t qaddr;		/* netlink: the entry's query-addr */
	bool have_qaddr, none;	/* netlink: it had query-addr, no-vma */
	int maps_fd;		/* procfs: the process's maps, for PROCMAP_QUERY */
	bool text;		/* procfs: answer from the text (no PROCMAP_QUERY) */
	struct taskdiag_vma *table;	/* procfs text: the VMAs passing the filter */
	size_t ntable;
	char *name;		/* procfs ioctl: the name, then its escaped form */
	unsigned char bid[TD_VMA_BID_MAX];	/* procfs: the build id read */
};


/*
 * A backend's VMA operations. Each returns 0 or a negative errno unless
 * said otherwise; vma.c checks the arguments, keeps the sticky error and
 * the answered count, and frees the iterator.
 */
struct td_vma_ops {
	/* Start a dump of it->req. */
	int (*start)(struct taskdiag_vma_iter *it);
	/* The dump's next VMA into it->vma: 1, 0 at the end, or an errno. */
	int (*next)(struct taskdiag_vma_iter *it);
	/* Start an address query of it->q. */
	int (*query_start)(struct taskdiag_vma_iter *it);
	/*
	 * The answer for it->q.addrs[it->answered]: 1 with it->vma, 0 for no
	 * VMA at or above the address, or an errno.
	 */
	int (*query_next)(struct taskdiag_vma_iter *it);
	/* After the last answer: what is left of the replies (NULL: nothing). */
	int (*query_end)(struct taskdiag_vma_iter *it);
	/* An iteration ended early (NULL: nothing to do). */
	void (*abandon)(struct taskdiag_vma_iter *it);
};

#endif /* TD_VMA_H */
