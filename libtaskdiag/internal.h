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

#include <linux/task_diag.h>

/* A string or byte value: a pointer into the buffer the record came from. */
struct td_blob {
	const void *p;
	uint32_t len;
};

/*
 * The record's own part: what the ABI carries outside the group structs
 * (pid, tgid, CMDLINE_LEN and the variable-length values), laid out as a
 * group struct is: a mask of TD_TOP_F_* bits, then the fields.
 */
struct td_task_top {
	uint64_t mask;
	uint32_t pid;
	uint32_t tgid;
	uint32_t cmdline_len;
	uint32_t __reserved;
	struct td_blob comm;
	struct td_blob cmdline;
	struct td_blob cpus_allowed;
	struct td_blob mems_allowed;
	struct td_blob groups;
	struct td_blob ns_tgid;
	struct td_blob ns_pid;
	struct td_blob ns_pgid;
	struct td_blob ns_sid;
	uint64_t next_ran_since;
	uint32_t ran_since_idle;
	uint32_t __reserved2;
};

enum {
	TD_TOP_F_PID,
	TD_TOP_F_TGID,
	TD_TOP_F_CMDLINE_LEN,
	TD_TOP_F_COMM,
	TD_TOP_F_CMDLINE,
	TD_TOP_F_CPUS_ALLOWED,
	TD_TOP_F_MEMS_ALLOWED,
	TD_TOP_F_GROUPS,
	TD_TOP_F_NS_TGID,
	TD_TOP_F_NS_PID,
	TD_TOP_F_NS_PGID,
	TD_TOP_F_NS_SID,
	TD_TOP_F_NEXT_RAN_SINCE,
	TD_TOP_F_RAN_SINCE_IDLE,
};

/*
 * A record: the group structs of the ABI as the module sent them (copied,
 * zero-filled past a short payload) or as the procfs backend filled them,
 * plus the top part. An item is present when its mask bit is set; a group
 * that was not sent has mask 0. Resetting a record clears the eight masks.
 */
struct taskdiag_task {
	struct td_task_top top;
	struct task_diag_base base;
	struct task_diag_stat stat;
	struct task_diag_statm statm;
	struct task_diag_io io;
	struct task_diag_status status;
	struct task_diag_cred cred;
	struct task_diag_mem mem;
	/* td_task_u() loads 8 bytes at a number of 1 to 8: room past the last. */
	uint64_t load_room;
};

/* How an item's value is stored (enum td_loc_kind). */
enum td_loc_kind {
	TD_LOC_UNSIGNED = 1,	/* an unsigned number of 1, 2, 4 or 8 bytes */
	TD_LOC_SIGNED,		/* a signed number of 1, 2, 4 or 8 bytes */
	TD_LOC_BLOB,		/* a struct td_blob */
};

/*
 * struct td_item_loc - where item i lives in a record (items.c, derived
 * with offsetof()/sizeof() from the X-macro list in item_table.h)
 * @mask_off: offset of the u64 mask that holds its bit
 * @off: offset of the value
 * @size: size of the value (numbers: 1, 2, 4 or 8)
 * @bit: its bit in that mask
 * @kind: enum td_loc_kind
 * @type: its enum taskdiag_type, as td_items[] (the getters' check)
 */
struct td_item_loc {
	uint16_t mask_off;
	uint16_t off;
	uint8_t size;
	uint8_t bit;
	uint8_t kind;
	uint8_t type;
};

extern const struct td_item_loc td_item_locs[TASKDIAG_ITEM__COUNT] TD_HIDDEN;

static inline uint64_t *td_task_maskp(struct taskdiag_task *t, const struct td_item_loc *l)
{
	return (uint64_t *)(void *)((char *)t + l->mask_off);
}

static inline void td_task_reset(struct taskdiag_task *t)
{
	t->top.mask = 0;
	t->base.mask = 0;
	t->stat.mask = 0;
	t->statm.mask = 0;
	t->io.mask = 0;
	t->status.mask = 0;
	t->cred.mask = 0;
	t->mem.mask = 0;
}

static inline bool td_task_present(const struct taskdiag_task *t, int item)
{
	const struct td_item_loc *l = &td_item_locs[item];

	return (*(const uint64_t *)(const void *)((const char *)t + l->mask_off) >> l->bit) & 1;
}

static inline void td_task_mark(struct taskdiag_task *t, int item)
{
	const struct td_item_loc *l = &td_item_locs[item];

	*td_task_maskp(t, l) |= 1ull << l->bit;
}

/*
 * A number's value, sign-extended if @sgn (a signed field). Every getter
 * call of a tool comes here: on a little-endian machine, one 8-byte load
 * and two shifts, no branch on the field's size (the record's load_room
 * keeps the load inside it).
 */
static inline uint64_t td_task_num(const struct taskdiag_task *t, int item, bool sgn)
{
	const struct td_item_loc *l = &td_item_locs[item];
	const void *p = (const char *)t + l->off;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	unsigned int sh = 64 - 8 * l->size;
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	v <<= sh;
	return sgn ? (uint64_t)((int64_t)v >> sh) : v >> sh;
#else
	switch (l->size) {
	case 1:
		return sgn ? (uint64_t)(int64_t)*(const int8_t *)p : *(const uint8_t *)p;
	case 2:
		return sgn ? (uint64_t)(int64_t)*(const int16_t *)p : *(const uint16_t *)p;
	case 4:
		return sgn ? (uint64_t)(int64_t)*(const int32_t *)p : *(const uint32_t *)p;
	default:
		return *(const uint64_t *)p;
	}
#endif
}

/* A number's value, sign-extended for signed fields (cast it to int64_t). */
static inline uint64_t td_task_u(const struct taskdiag_task *t, int item)
{
	return td_task_num(t, item, td_item_locs[item].kind == TD_LOC_SIGNED);
}

static inline struct td_blob *td_task_blob(struct taskdiag_task *t, int item)
{
	return (struct td_blob *)(void *)((char *)t + td_item_locs[item].off);
}

static inline const struct td_blob *td_task_cblob(const struct taskdiag_task *t, int item)
{
	return (const struct td_blob *)(const void *)((const char *)t + td_item_locs[item].off);
}

/* Store a number in its field (truncated to the field's size) and mark it. */
static inline void td_task_set_u64(struct taskdiag_task *t, int item, uint64_t val)
{
	const struct td_item_loc *l = &td_item_locs[item];
	void *p = (char *)t + l->off;

	switch (l->size) {
	case 1:
		*(uint8_t *)p = (uint8_t)val;
		break;
	case 2:
		*(uint16_t *)p = (uint16_t)val;
		break;
	case 4:
		*(uint32_t *)p = (uint32_t)val;
		break;
	default:
		*(uint64_t *)p = val;
		break;
	}
	*td_task_maskp(t, l) |= 1ull << l->bit;
}

static inline void td_task_set_blob(struct taskdiag_task *t, int item, const void *p,
				    uint32_t len)
{
	struct td_blob *b = td_task_blob(t, item);

	b->p = p;
	b->len = len;
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
struct td_vma_ops;	/* vma.h */

struct td_backend {
	int (*open)(struct taskdiag *td);
	void (*close)(struct taskdiag *td);
	int (*iter_start)(struct taskdiag_iter *it);
	int (*iter_next)(struct taskdiag_iter *it);
	void (*iter_end)(struct taskdiag_iter *it);
	const struct td_vma_ops *vma;	/* the VMA iterator's; NULL: none (replay) */
};

struct taskdiag {
	enum taskdiag_backend backend;
	const struct td_backend *ops;
	void *priv;
	struct taskdiag_iter *iter;	/* the running iteration, if any */
	struct taskdiag_vma_iter *vma_iter;	/* the running VMA iteration (vma.h) */
	bool has_extack;
	char extack[256];
	int procfs_fd;		/* taskdiag_set_procfs(), or -1 */
};

/*
 * The handle's last error message: the kernel's extack or a backend's own
 * (@len bytes of @msg, cut to fit); NULL: none. Inline, so that every
 * backend sets it without calling back up into core.c.
 */
static inline void td_set_extack(struct taskdiag *td, const char *msg, size_t len)
{
	if (!msg) {
		td->has_extack = false;
		return;
	}
	if (len >= sizeof(td->extack))
		len = sizeof(td->extack) - 1;
	memcpy(td->extack, msg, len);
	td->extack[len] = '\0';
	td->has_extack = true;
}

struct taskdiag_iter {
	struct taskdiag *td;
	struct taskdiag_request req;
	void *priv;
	struct taskdiag_task task;
};

extern const struct td_backend td_netlink_backend TD_HIDDEN;
extern const struct td_backend td_procfs_backend TD_HIDDEN;
/* A replay handle's backend (replay.c): the netlink iteration over a file. */
extern const struct td_backend td_replay_backend TD_HIDDEN;
/* The backends' VMA iterators (vma_netlink.c, vma_procfs.c). */
extern const struct td_vma_ops td_vma_netlink_ops TD_HIDDEN;
extern const struct td_vma_ops td_vma_procfs_ops TD_HIDDEN;
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
/* One /proc/PID/maps line (modified in place) into @v (vma_procfs.c). */
TD_HIDDEN int td_vma_parse_maps_line(char *line, struct taskdiag_vma *v);

/*
 * td_nl_parse_task() - decode one task_diag reply message
 * @attrs: the attributes after the genetlink header
 * @len: their length
 * @t: the record to fill (reset first); blobs point into @attrs
 *
 * ABI version 2 (decode.c): each group struct is copied out (at most the
 * size this library knows; zero-filled and its mask bits past the payload
 * cleared when shorter), a payload shorter than the group's VER0 size, a
 * number of the wrong size, a string without NUL, an array not a multiple
 * of 4 bytes, lengths running past the end or a missing pid make the whole
 * message -EBADMSG. Unknown attributes are skipped (newer modules).
 */
TD_HIDDEN int td_nl_parse_task(const void *attrs, size_t len, struct taskdiag_task *t);

/* td_nl_parse_family() (nl.c): the family lookup's answer, version checked. */
TD_HIDDEN int td_nl_parse_family(const void *attrs, size_t len, uint16_t *id);

/*
 * td_nl_errno() - the one translation of libnl's NLE_* codes (negative or
 * positive) into a negative errno: NLE_SUCCESS -> 0, NLE_NOMEM -> -ENOMEM,
 * NLE_OBJ_NOTFOUND -> -TASKDIAG_ENOMODULE (libnl's code for the controller's
 * ENOENT: the family lookup is the only libnl receive), ..., unknown -> -EIO.
 */
TD_HIDDEN int td_nl_errno(int nle_err);

/*
 * Record and replay (record.c, replay.c; the file format: record.h).
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
/* td_nl_replay_system(): the recording host of the next request (format 2). */
TD_HIDDEN int td_nl_replay_system(struct taskdiag *td, struct taskdiag_system *sys, size_t size,
				  uint64_t *now);

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

/*
 * The functions that take a struct taskdiag_request, at their current
 * symbol version (core.c, sample.c; compat.c binds the names). Code in the
 * library calls these, never the public names.
 */
#define TD_VERSIONED __attribute__((visibility("default")))
#define TD_SYMVER(impl, name) __asm__(".symver " #impl ", " name)
TD_VERSIONED int td_api_iter_start(struct taskdiag *td, const struct taskdiag_request *req,
				   struct taskdiag_iter **itp);
TD_VERSIONED int td_api_dump(struct taskdiag *td, const struct taskdiag_request *req,
			     taskdiag_cb cb, void *arg);
TD_VERSIONED int td_api_replay_request(struct taskdiag *td, struct taskdiag_request *req);
TD_VERSIONED int td_api_sample_take(struct taskdiag *td, const struct taskdiag_request *req,
				    struct taskdiag_sample *s);
/* Does @req use a member of 0.4 (a filter, ran-since)? (core.c) */
TD_HIDDEN bool td_req_has_filters(const struct taskdiag_request *req);

/* taskdiag_system_read() from another root laid out as /proc (tests). */
TD_HIDDEN int td_system_read_at(const char *root, struct taskdiag_system *sys, size_t size);

#endif /* TASKDIAG_INTERNAL_H */
