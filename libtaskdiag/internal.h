/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtaskdiag internals: the record layout, the backend interface and the
 * decoder shared by the netlink backend, the tests and the fuzzer.
 */
#ifndef TASKDIAG_INTERNAL_H
#define TASKDIAG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <taskdiag/taskdiag.h>

#define TD_HIDDEN __attribute__((visibility("hidden")))

/* One value: a number, or a pointer into the buffer the record came from. */
struct td_value {
	union {
		uint64_t u;
		int64_t s;
		struct {
			const void *p;
			uint32_t len;
		} b;
	};
};

/*
 * A record. Resetting it clears only the presence bits: values of absent
 * items are never read, so a record costs nothing per item not present.
 */
struct taskdiag_task {
	uint64_t present[(TASKDIAG_ITEM__COUNT + 63) / 64];
	struct td_value v[TASKDIAG_ITEM__COUNT];
};

static inline void td_task_reset(struct taskdiag_task *t)
{
	memset(t->present, 0, sizeof(t->present));
}

static inline void td_task_mark(struct taskdiag_task *t, int item)
{
	t->present[item / 64] |= 1ull << (item % 64);
}

static inline bool td_task_present(const struct taskdiag_task *t, int item)
{
	return t->present[item / 64] & (1ull << (item % 64));
}

static inline void td_task_set_u64(struct taskdiag_task *t, int item, uint64_t val)
{
	t->v[item].u = val;
	td_task_mark(t, item);
}

static inline void td_task_set_s64(struct taskdiag_task *t, int item, int64_t val)
{
	t->v[item].s = val;
	td_task_mark(t, item);
}

static inline void td_task_set_blob(struct taskdiag_task *t, int item, const void *p,
				    uint32_t len)
{
	t->v[item].b.p = p;
	t->v[item].b.len = len;
	td_task_mark(t, item);
}

struct taskdiag_iter;

/**
 * struct td_backend - what a backend provides
 * @open: set up td->priv; return 0 or a negative errno
 * @close: free td->priv
 * @iter_start: start the request in it->req; it->priv is the backend's
 * @iter_next: fill it->task (return 1), 0 at the end, or a negative errno
 * @iter_end: free it->priv; may be called at any point of the iteration
 */
struct td_backend {
	int (*open)(struct taskdiag *td);
	void (*close)(struct taskdiag *td);
	int (*iter_start)(struct taskdiag_iter *it);
	int (*iter_next)(struct taskdiag_iter *it);
	void (*iter_end)(struct taskdiag_iter *it);
};

struct taskdiag {
	enum taskdiag_backend backend;
	const struct td_backend *ops;
	void *priv;
	struct taskdiag_iter *iter;	/* the running iteration, if any */
	bool has_extack;
	char extack[256];
	int procfs_fd;		/* taskdiag_set_procfs(), or -1 */
};

struct taskdiag_iter {
	struct taskdiag *td;
	struct taskdiag_request req;
	void *priv;
	struct taskdiag_task task;
};

extern const struct td_backend td_netlink_backend TD_HIDDEN;
extern const struct td_backend td_procfs_backend TD_HIDDEN;
/* A replay handle's backend (netlink.c): the netlink iteration over a file. */
extern const struct td_backend td_replay_backend TD_HIDDEN;
extern const struct taskdiag_item_info td_items[TASKDIAG_ITEM__COUNT] TD_HIDDEN;

/*
 * td_procfs_open_at() - read /proc from another root (tests, fixture trees)
 * @td: a handle of the procfs backend (taskdiag_open() with
 *      TASKDIAG_BACKEND_PROCFS), or a zeroed one, which this makes one
 * @root: a directory laid out as /proc (PID/stat, PID/task/TID/status...);
 *        NULL for "/proc"
 *
 * Without it the backend reads "/proc", or $TASKDIAG_PROC_ROOT when that is
 * set and not empty (ignored in set-uid programs: secure_getenv()). Ticks
 * and pages are converted with this host's sysconf() values whatever the
 * root. Return: 0, -EINVAL (not a procfs handle), -EBUSY (an iteration is
 * running) or the errno of opening @root; on error the old root is kept.
 */
TD_HIDDEN int td_procfs_open_at(struct taskdiag *td, const char *root);

/* Read the procfs instance open at @fd (-1: the default root) from now on. */
TD_HIDDEN int td_procfs_open_fd(struct taskdiag *td, int fd);

TD_HIDDEN int td_group_index(uint32_t group);
TD_HIDDEN void td_set_extack(struct taskdiag *td, const char *msg, size_t len);

/*
 * td_nl_parse_task() - decode one task_diag reply message
 * @attrs: the attributes after the genetlink header
 * @len: their length
 * @t: the record to fill (reset first); blobs point into @attrs
 *
 * Unknown attributes are skipped (newer modules may add some); attributes
 * of the wrong size, lengths running past the end, nests that are not
 * well-formed or a missing pid make the whole message -EBADMSG.
 */
TD_HIDDEN int td_nl_parse_task(const void *attrs, size_t len, struct taskdiag_task *t);

/*
 * td_nl_errno() - the one translation of libnl's NLE_* codes (negative or
 * positive) into a negative errno: NLE_SUCCESS -> 0, NLE_NOMEM -> -ENOMEM,
 * NLE_OBJ_NOTFOUND -> -TASKDIAG_ENOMODULE (libnl's code for the controller's
 * ENOENT: the family lookup is the only libnl receive), ..., unknown -> -EIO.
 */
TD_HIDDEN int td_nl_errno(int nle_err);

/*
 * Record and replay (netlink.c; the file format is described there).
 * td_nl_set_record(): @td is a live netlink handle with no iteration
 * running; writes the file header to @fd and records from then on (@fd < 0
 * stops). td_nl_replay_open(): reads and checks the header of @fd and sets
 * up td->priv for td_replay_backend; -EBADMSG if it is not a recording this
 * library writes. td_nl_replay_request(): the request the next iteration
 * replays; -ENODATA if none is left.
 */
TD_HIDDEN int td_nl_set_record(struct taskdiag *td, int fd);
TD_HIDDEN int td_nl_replay_open(struct taskdiag *td, int fd);
TD_HIDDEN int td_nl_replay_request(struct taskdiag *td, struct taskdiag_request *req);

/*
 * Samples (sample.c) built by hand, for tests: td_sample_reset() empties
 * @s, td_sample_append() copies @t (its blobs included) and
 * td_sample_finish() fixes the blobs' pointers, builds the pid index and
 * stamps the sample with @time_ns (CLOCK_BOOTTIME). taskdiag_sample_take()
 * is these three around an iteration.
 */
TD_HIDDEN void td_sample_reset(struct taskdiag_sample *s);
TD_HIDDEN int td_sample_append(struct taskdiag_sample *s, const struct taskdiag_task *t);
TD_HIDDEN int td_sample_finish(struct taskdiag_sample *s, uint64_t time_ns);

/* taskdiag_system_read() from another root laid out as /proc (tests). */
TD_HIDDEN int td_system_read_at(const char *root, struct taskdiag_system *sys, size_t size);

#endif /* TASKDIAG_INTERNAL_H */
