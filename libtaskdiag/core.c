// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: handles, iteration, the callback API on top of it, typed
 * getters and error messages. Backends live in netlink.c (on nl.c) and procfs.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

#define TD_STR_(x) #x
#define TD_STR(x) TD_STR_(x)

static const struct td_backend *td_ops_of(enum taskdiag_backend b)
{
	switch (b) {
	case TASKDIAG_BACKEND_NETLINK:
		return &td_netlink_backend;
	case TASKDIAG_BACKEND_PROCFS:
		return &td_procfs_backend;
	default:
		return NULL;
	}
}

static int td_open_backend(struct taskdiag *td, enum taskdiag_backend b)
{
	td->backend = b;
	td->ops = td_ops_of(b);
	return td->ops->open(td);
}

int taskdiag_open(struct taskdiag **tdp, enum taskdiag_backend backend)
{
	struct taskdiag *td;
	int err;

	if (!tdp)
		return -EINVAL;
	*tdp = NULL;
	if (backend != TASKDIAG_BACKEND_AUTO && !td_ops_of(backend))
		return -EINVAL;
	td = calloc(1, sizeof(*td));
	if (!td)
		return -ENOMEM;
	td->procfs_fd = -1;
	if (backend == TASKDIAG_BACKEND_AUTO) {
		err = td_open_backend(td, TASKDIAG_BACKEND_NETLINK);
		if (err == -TASKDIAG_ENOMODULE)
			err = td_open_backend(td, TASKDIAG_BACKEND_PROCFS);
	} else {
		err = td_open_backend(td, backend);
	}
	if (err) {
		free(td);
		return err;
	}
	*tdp = td;
	return 0;
}

int taskdiag_set_procfs(struct taskdiag *td, int fd)
{
	struct stat st;
	int err = 0;

	if (!td || fd < -1 || (td->ops != &td_netlink_backend && td->ops != &td_procfs_backend))
		return -EINVAL;
	if (td->iter)
		return -EBUSY;
	if (fd >= 0 && fstat(fd, &st) < 0)
		return -errno;
	if (fd >= 0 && !S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (td->ops == &td_procfs_backend)
		err = td_procfs_open_fd(td, fd);
	if (!err)
		td->procfs_fd = fd;
	return err;
}

int taskdiag_open_replay(struct taskdiag **tdp, int fd)
{
	struct taskdiag *td;
	int err;

	if (!tdp)
		return -EINVAL;
	*tdp = NULL;
	if (fd < 0)
		return -EBADF;
	td = calloc(1, sizeof(*td));
	if (!td)
		return -ENOMEM;
	td->procfs_fd = -1;
	td->backend = TASKDIAG_BACKEND_NETLINK;
	td->ops = &td_replay_backend;
	err = td_nl_replay_open(td, fd);
	if (err) {
		free(td);
		return err;
	}
	*tdp = td;
	return 0;
}

TD_SYMVER(td_api_replay_request, "taskdiag_replay_request@@TASKDIAG_0.4");
int td_api_replay_request(struct taskdiag *td, struct taskdiag_request *req)
{
	if (!td || !req || td->ops != &td_replay_backend)
		return -EINVAL;
	if (td->iter)
		return -EBUSY;
	/* A recording keeps scope, pid and groups: no filter. */
	memset(req, 0, sizeof(*req));
	return td_nl_replay_request(td, req);
}

int taskdiag_replay_system(struct taskdiag *td, struct taskdiag_system *sys, size_t size,
			   uint64_t *now)
{
	if (!td || !sys || !now || td->ops != &td_replay_backend)
		return -EINVAL;
	if (td->iter)
		return -EBUSY;
	return td_nl_replay_system(td, sys, size, now);
}

int taskdiag_set_record(struct taskdiag *td, int fd)
{
	if (!td || td->ops != &td_netlink_backend)
		return -EINVAL;
	if (td->iter)
		return -EBUSY;
	return td_nl_set_record(td, fd);
}

void taskdiag_close(struct taskdiag *td)
{
	if (!td)
		return;
	if (td->iter)
		taskdiag_iter_end(td->iter);
	if (td->vma_iter)
		taskdiag_vma_iter_end(td->vma_iter);
	td->ops->close(td);
	free(td);
}

enum taskdiag_backend taskdiag_get_backend(const struct taskdiag *td)
{
	return td ? td->backend : TASKDIAG_BACKEND_AUTO;
}

const char *taskdiag_extack(const struct taskdiag *td)
{
	return td && td->has_extack ? td->extack : NULL;
}

/* The 0.4 members: counts within the module's limit, arrays where counted. */
static bool td_req_filters_ok(const struct taskdiag_request *req)
{
	if ((req->npids && !req->pids) || (req->nuids && !req->uids) ||
	    (req->neuids && !req->euids))
		return false;
	if (req->npids > TASKDIAG_FILTER_MAX || req->nuids > TASKDIAG_FILTER_MAX ||
	    req->neuids > TASKDIAG_FILTER_MAX)
		return false;
	if (req->flags & ~(TASKDIAG_REQ_RAN_SINCE | TASKDIAG_REQ_RAN_SINCE_IDLE))
		return false;
	return (req->flags & TASKDIAG_REQ_RAN_SINCE) || !(req->flags & TASKDIAG_REQ_RAN_SINCE_IDLE);
}

/* Does @req use a 0.4 member (a filter or ran-since)? */
bool td_req_has_filters(const struct taskdiag_request *req)
{
	return req->npids || req->nuids || req->neuids || req->cgroup_id || req->cgroup_path ||
	       req->comm || req->flags;
}

TD_SYMVER(td_api_iter_start, "taskdiag_iter_start@@TASKDIAG_0.4");
int td_api_iter_start(struct taskdiag *td, const struct taskdiag_request *req,
		      struct taskdiag_iter **itp)
{
	struct taskdiag_iter *it;
	int err;

	if (!td || !req || !itp)
		return -EINVAL;
	*itp = NULL;
	if (td->iter || td->vma_iter)
		return -EBUSY;
	if ((req->scope && (req->scope < TASKDIAG_SCOPE_ALL_PROCESSES ||
			    req->scope > TASKDIAG_SCOPE_CHILDREN)) ||
	    (req->groups & ~TASKDIAG_GROUP_ALL) || req->pid < 0 || !td_req_filters_ok(req))
		return -EINVAL;
	it = calloc(1, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->td = td;
	it->req = *req;
	if (!it->req.scope)
		it->req.scope = TASKDIAG_SCOPE_ALL_PROCESSES;
	td_set_extack(td, NULL, 0);
	err = td->ops->iter_start(it);
	if (err) {
		free(it);
		return err;
	}
	td->iter = it;
	*itp = it;
	return 0;
}

int taskdiag_iter_next(struct taskdiag_iter *it, const struct taskdiag_task **task)
{
	int ret;

	if (!it || !task)
		return -EINVAL;
	*task = NULL;
	td_task_reset(&it->task);
	ret = it->td->ops->iter_next(it);
	if (ret == 1)
		*task = &it->task;
	return ret;
}

void taskdiag_iter_end(struct taskdiag_iter *it)
{
	if (!it)
		return;
	it->td->ops->iter_end(it);
	it->td->iter = NULL;
	free(it);
}

TD_SYMVER(td_api_dump, "taskdiag_dump@@TASKDIAG_0.4");
int td_api_dump(struct taskdiag *td, const struct taskdiag_request *req, taskdiag_cb cb,
		void *arg)
{
	const struct taskdiag_task *task;
	struct taskdiag_iter *it;
	int ret;

	if (!cb)
		return -EINVAL;
	ret = td_api_iter_start(td, req, &it);
	if (ret)
		return ret;
	while ((ret = taskdiag_iter_next(it, &task)) == 1) {
		ret = cb(task, arg);
		if (ret)
			break;
	}
	taskdiag_iter_end(it);
	return ret;
}

/*
 * The one check every typed getter makes: @item is in range, present and
 * of type @type (or @alt). @out_ok: the caller's out pointers. A tool
 * calls it for every item of every task: the usual answer (0) is decided
 * on one branch after the range check.
 */
static inline int td_check(const struct taskdiag_task *t, enum taskdiag_item item, bool out_ok,
			   enum taskdiag_type type, enum taskdiag_type alt)
{
	const struct td_item_loc *l;
	bool present, typed;

	if (!t | !out_ok | ((unsigned int)item >= TASKDIAG_ITEM__COUNT))
		return -EINVAL;
	l = &td_item_locs[item];
	present = td_task_present(t, item);
	typed = (l->type == type) | (l->type == alt);
	if (__builtin_expect(present & typed, 1))
		return 0;
	return present ? -EINVAL : -ENOENT;
}

bool taskdiag_task_has(const struct taskdiag_task *t, enum taskdiag_item item)
{
	return t && (unsigned int)item < TASKDIAG_ITEM__COUNT && td_task_present(t, item);
}

/*
 * The two getters a tool calls for nearly every item of every task start
 * at a multiple of 256 bytes, so that neither (about 140 bytes at -O2)
 * crosses a 4 KiB page. Hardware does not mind; QEMU's TCG, where this
 * project's benchmarks run, ends a translation block at a page boundary
 * and cannot chain a jump across one, so an instruction on the boundary
 * costs a block lookup on every call. Where the linker happened to put
 * taskdiag_task_get_u64() across one, an item-by-item dump of base and
 * stat took 1.09-1.12 times as long (docs/performance.md).
 */
#define TD_GETTER_ALIGN __attribute__((aligned(256)))

TD_GETTER_ALIGN
int taskdiag_task_get_u64(const struct taskdiag_task *t, enum taskdiag_item item, uint64_t *val)
{
	int err = td_check(t, item, val, TASKDIAG_TYPE_U64, TASKDIAG_TYPE_U64);

	if (!err)
		*val = td_task_num(t, item, false);
	return err;
}

TD_GETTER_ALIGN
int taskdiag_task_get_s64(const struct taskdiag_task *t, enum taskdiag_item item, int64_t *val)
{
	int err = td_check(t, item, val, TASKDIAG_TYPE_S64, TASKDIAG_TYPE_S64);

	if (!err)
		*val = (int64_t)td_task_num(t, item, true);
	return err;
}

int taskdiag_task_get_string(const struct taskdiag_task *t, enum taskdiag_item item,
			     const char **str)
{
	int err = td_check(t, item, str, TASKDIAG_TYPE_STRING, TASKDIAG_TYPE_STRING);

	if (!err)
		*str = td_task_cblob(t, item)->p;
	return err;
}

int taskdiag_task_get_bytes(const struct taskdiag_task *t, enum taskdiag_item item,
			    const void **data, size_t *len)
{
	int err = td_check(t, item, data && len, TASKDIAG_TYPE_BYTES, TASKDIAG_TYPE_U32_ARRAY);

	if (!err) {
		const struct td_blob *b = td_task_cblob(t, item);

		*data = b->p;
		*len = b->len;
	}
	return err;
}

int taskdiag_task_get_items(const struct taskdiag_task *t, const enum taskdiag_item *items,
			    size_t n, struct taskdiag_value *vals)
{
	size_t i;
	int found = 0;

	if (n && (!t || !items || !vals))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		struct taskdiag_value *v = &vals[i];
		enum taskdiag_item item = items[i];

		memset(v, 0, sizeof(*v));
		if ((unsigned int)item >= TASKDIAG_ITEM__COUNT) {
			v->err = -EINVAL;
			continue;
		}
		if (!td_task_present(t, item)) {
			v->err = -ENOENT;
			continue;
		}
		if (td_item_locs[item].kind == TD_LOC_BLOB) {
			const struct td_blob *b = td_task_cblob(t, item);

			v->data = b->p;
			v->len = b->len;
		} else {
			v->u = td_task_u(t, item);
			v->s = (int64_t)v->u;
		}
		found++;
	}
	return found;
}

pid_t taskdiag_task_pid(const struct taskdiag_task *t)
{
	return t && td_task_present(t, TASKDIAG_ITEM_PID) ? (pid_t)t->top.pid : 0;
}

pid_t taskdiag_task_tgid(const struct taskdiag_task *t)
{
	return t && td_task_present(t, TASKDIAG_ITEM_TGID) ? (pid_t)t->top.tgid : 0;
}

int taskdiag_task_next_ran_since(const struct taskdiag_task *t, uint64_t *v)
{
	if (!t || !v || !(t->top.mask & (1ull << TD_TOP_F_NEXT_RAN_SINCE)))
		return t && v ? -ENOENT : -EINVAL;
	*v = t->top.next_ran_since;
	return 0;
}

bool taskdiag_task_is_idle(const struct taskdiag_task *t)
{
	return t && (t->top.mask & (1ull << TD_TOP_F_RAN_SINCE_IDLE));
}

const char *taskdiag_strerror(int err)
{
	if (err > 0 || err == INT_MIN)
		return "unknown error";
	switch (-err) {
	case 0:
		return "success";
	case TASKDIAG_ENOMODULE:
		return "the task_diag kernel module is not loaded";
	case TASKDIAG_EVERSION:
		return "the task_diag kernel module speaks another ABI version than this library "
		       "(version " TD_STR(TASK_DIAG_FAMILY_VERSION) "): rebuild one to match the other";
	case EBADMSG:
		return "malformed or truncated reply from the kernel";
	case ESRCH:
		return "no such process";
	default:
		return strerror(-err);
	}
}
