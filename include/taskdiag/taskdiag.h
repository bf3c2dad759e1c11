/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtaskdiag: per-task information for every process, from the task_diag
 * kernel module (generic netlink) or, where it is absent, from /proc.
 *
 * Conventions: every function that can fail returns 0 (or a count) on
 * success and a negative errno on failure; taskdiag_strerror() explains
 * it. Units are those of the task_diag ABI: bytes, nanoseconds, counts;
 * pids of the caller's pid namespace, ids of its user namespace.
 *
 * The ABI of this library is append-only, as the kernel's: items, enums and
 * functions are never renumbered or removed.
 */
#ifndef TASKDIAG_TASKDIAG_H
#define TASKDIAG_TASKDIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TASKDIAG_BUILDING) && defined(__GNUC__)
#define TASKDIAG_API __attribute__((visibility("default")))
#else
#define TASKDIAG_API
#endif

/*
 * Errors beyond the usual errno meanings (all returned negated):
 *
 * TASKDIAG_ENOMODULE   the task_diag family is not registered: the kernel
 *                      module is not loaded (netlink backend only)
 * TASKDIAG_EVERSION    the module speaks a version this library does not know
 * EBADMSG              a reply was malformed or truncated; nothing of the
 *                      offending message was passed on
 * ESRCH                the pid of a request names no task (or no process)
 * EINVAL               a malformed request (see taskdiag_extack())
 */
#define TASKDIAG_ENOMODULE ENOPKG
#define TASKDIAG_EVERSION EPROTONOSUPPORT

/** enum taskdiag_backend - where the records come from */
enum taskdiag_backend {
	TASKDIAG_BACKEND_AUTO = 0,	/* netlink if the module is loaded, else procfs */
	TASKDIAG_BACKEND_NETLINK,
	TASKDIAG_BACKEND_PROCFS,
};

/** enum taskdiag_scope - which tasks a request covers (values of the ABI) */
enum taskdiag_scope {
	TASKDIAG_SCOPE_ALL_PROCESSES = 1,	/* whole-process values */
	TASKDIAG_SCOPE_ALL_THREADS,		/* per-thread values */
	TASKDIAG_SCOPE_TASK,			/* one task (pid), whole-process values */
	TASKDIAG_SCOPE_THREADS,			/* threads of process pid */
	TASKDIAG_SCOPE_CHILDREN,		/* processes whose parent is pid */
};

/** Groups of items a request asks for (bits of the ABI's SHOW mask). */
#define TASKDIAG_GROUP_BASE	(1u << 0)
#define TASKDIAG_GROUP_STAT	(1u << 1)
#define TASKDIAG_GROUP_STATM	(1u << 2)
#define TASKDIAG_GROUP_IO	(1u << 3)
#define TASKDIAG_GROUP_STATUS	(1u << 4)
#define TASKDIAG_GROUP_CRED	(1u << 5)
#define TASKDIAG_GROUP_CMDLINE	(1u << 6)
#define TASKDIAG_GROUP_MEM	(1u << 7)	/* since 0.5: smaps_rollup (walks page tables) */
#define TASKDIAG_GROUP_ALL	0xffu

/**
 * enum taskdiag_item - one field of a task record
 *
 * TASKDIAG_ITEM_PID and TASKDIAG_ITEM_TGID are in every record; the others
 * belong to the group their name starts with. taskdiag_item_info() tells
 * each one's name, group, type and unit.
 */
enum taskdiag_item {
	TASKDIAG_ITEM_PID,
	TASKDIAG_ITEM_TGID,
	TASKDIAG_ITEM_CMDLINE,
	TASKDIAG_ITEM_BASE_PPID,
	TASKDIAG_ITEM_BASE_PGID,
	TASKDIAG_ITEM_BASE_SID,
	TASKDIAG_ITEM_BASE_TRACER_PID,
	TASKDIAG_ITEM_BASE_TTY_NR,
	TASKDIAG_ITEM_BASE_TPGID,
	TASKDIAG_ITEM_BASE_STATE,
	TASKDIAG_ITEM_BASE_COMM,
	TASKDIAG_ITEM_BASE_FLAGS,
	TASKDIAG_ITEM_BASE_START_TIME,
	TASKDIAG_ITEM_BASE_NUM_THREADS,
	TASKDIAG_ITEM_STAT_MINFLT,
	TASKDIAG_ITEM_STAT_CMINFLT,
	TASKDIAG_ITEM_STAT_MAJFLT,
	TASKDIAG_ITEM_STAT_CMAJFLT,
	TASKDIAG_ITEM_STAT_UTIME,
	TASKDIAG_ITEM_STAT_STIME,
	TASKDIAG_ITEM_STAT_CUTIME,
	TASKDIAG_ITEM_STAT_CSTIME,
	TASKDIAG_ITEM_STAT_PRIORITY,
	TASKDIAG_ITEM_STAT_NICE,
	TASKDIAG_ITEM_STAT_VSIZE,
	TASKDIAG_ITEM_STAT_RSS,
	TASKDIAG_ITEM_STAT_RSSLIM,
	TASKDIAG_ITEM_STAT_START_CODE,
	TASKDIAG_ITEM_STAT_END_CODE,
	TASKDIAG_ITEM_STAT_START_STACK,
	TASKDIAG_ITEM_STAT_KSTK_ESP,
	TASKDIAG_ITEM_STAT_KSTK_EIP,
	TASKDIAG_ITEM_STAT_WCHAN,
	TASKDIAG_ITEM_STAT_EXIT_SIGNAL,
	TASKDIAG_ITEM_STAT_PROCESSOR,
	TASKDIAG_ITEM_STAT_RT_PRIORITY,
	TASKDIAG_ITEM_STAT_POLICY,
	TASKDIAG_ITEM_STAT_BLKIO_DELAY,
	TASKDIAG_ITEM_STAT_GUEST_TIME,
	TASKDIAG_ITEM_STAT_CGUEST_TIME,
	TASKDIAG_ITEM_STAT_START_DATA,
	TASKDIAG_ITEM_STAT_END_DATA,
	TASKDIAG_ITEM_STAT_START_BRK,
	TASKDIAG_ITEM_STAT_ARG_START,
	TASKDIAG_ITEM_STAT_ARG_END,
	TASKDIAG_ITEM_STAT_ENV_START,
	TASKDIAG_ITEM_STAT_ENV_END,
	TASKDIAG_ITEM_STAT_EXIT_CODE,
	TASKDIAG_ITEM_STATM_SIZE,
	TASKDIAG_ITEM_STATM_RESIDENT,
	TASKDIAG_ITEM_STATM_SHARED,
	TASKDIAG_ITEM_STATM_TEXT,
	TASKDIAG_ITEM_STATM_LIB,
	TASKDIAG_ITEM_STATM_DATA,
	TASKDIAG_ITEM_STATM_DT,
	TASKDIAG_ITEM_IO_RCHAR,
	TASKDIAG_ITEM_IO_WCHAR,
	TASKDIAG_ITEM_IO_SYSCR,
	TASKDIAG_ITEM_IO_SYSCW,
	TASKDIAG_ITEM_IO_READ_BYTES,
	TASKDIAG_ITEM_IO_WRITE_BYTES,
	TASKDIAG_ITEM_IO_CANCELLED_WRITE_BYTES,
	TASKDIAG_ITEM_STATUS_UMASK,
	TASKDIAG_ITEM_STATUS_FDSIZE,
	TASKDIAG_ITEM_STATUS_VM_PEAK,
	TASKDIAG_ITEM_STATUS_VM_LCK,
	TASKDIAG_ITEM_STATUS_VM_PIN,
	TASKDIAG_ITEM_STATUS_VM_HWM,
	TASKDIAG_ITEM_STATUS_VM_RSS,
	TASKDIAG_ITEM_STATUS_RSS_ANON,
	TASKDIAG_ITEM_STATUS_RSS_FILE,
	TASKDIAG_ITEM_STATUS_RSS_SHMEM,
	TASKDIAG_ITEM_STATUS_VM_DATA,
	TASKDIAG_ITEM_STATUS_VM_STK,
	TASKDIAG_ITEM_STATUS_VM_EXE,
	TASKDIAG_ITEM_STATUS_VM_LIB,
	TASKDIAG_ITEM_STATUS_VM_PTE,
	TASKDIAG_ITEM_STATUS_VM_SWAP,
	TASKDIAG_ITEM_STATUS_HUGETLB_PAGES,
	TASKDIAG_ITEM_STATUS_CORE_DUMPING,
	TASKDIAG_ITEM_STATUS_THP_ENABLED,
	TASKDIAG_ITEM_STATUS_SIGQ_QUEUED,
	TASKDIAG_ITEM_STATUS_SIGQ_LIMIT,
	TASKDIAG_ITEM_STATUS_SIG_PENDING,
	TASKDIAG_ITEM_STATUS_SIG_SHARED_PENDING,
	TASKDIAG_ITEM_STATUS_SIG_BLOCKED,
	TASKDIAG_ITEM_STATUS_SIG_IGNORED,
	TASKDIAG_ITEM_STATUS_SIG_CAUGHT,
	TASKDIAG_ITEM_STATUS_NO_NEW_PRIVS,
	TASKDIAG_ITEM_STATUS_SECCOMP,
	TASKDIAG_ITEM_STATUS_SECCOMP_FILTERS,
	TASKDIAG_ITEM_STATUS_CPUS_ALLOWED,
	TASKDIAG_ITEM_STATUS_MEMS_ALLOWED,
	TASKDIAG_ITEM_STATUS_VOLUNTARY_CTXT_SWITCHES,
	TASKDIAG_ITEM_STATUS_NONVOLUNTARY_CTXT_SWITCHES,
	TASKDIAG_ITEM_CRED_UID,
	TASKDIAG_ITEM_CRED_EUID,
	TASKDIAG_ITEM_CRED_SUID,
	TASKDIAG_ITEM_CRED_FSUID,
	TASKDIAG_ITEM_CRED_GID,
	TASKDIAG_ITEM_CRED_EGID,
	TASKDIAG_ITEM_CRED_SGID,
	TASKDIAG_ITEM_CRED_FSGID,
	TASKDIAG_ITEM_CRED_GROUPS,
	TASKDIAG_ITEM_CRED_CAP_INHERITABLE,
	TASKDIAG_ITEM_CRED_CAP_PERMITTED,
	TASKDIAG_ITEM_CRED_CAP_EFFECTIVE,
	TASKDIAG_ITEM_CRED_CAP_BOUNDING,
	TASKDIAG_ITEM_CRED_CAP_AMBIENT,
	TASKDIAG_ITEM_CRED_NGROUPS,
	TASKDIAG_ITEM_CMDLINE_LEN,	/* since 0.3: the whole argv's length, when CMDLINE holds only its start */
	/*
	 * since 0.3: the NStgid, NSpid, NSpgid and NSsid lines of status, one
	 * u32 per pid-namespace level from the caller's (element 0, the pid,
	 * tgid, pgid and sid items' values) down to the task's own
	 */
	TASKDIAG_ITEM_STATUS_NSTGID,
	TASKDIAG_ITEM_STATUS_NSPID,
	TASKDIAG_ITEM_STATUS_NSPGID,
	TASKDIAG_ITEM_STATUS_NSSID,
	/*
	 * since 0.5: the lines of /proc/PID/smaps_rollup, in bytes (1024 times
	 * the kB it prints); group mem
	 */
	TASKDIAG_ITEM_MEM_RSS,
	TASKDIAG_ITEM_MEM_PSS,
	TASKDIAG_ITEM_MEM_PSS_DIRTY,
	TASKDIAG_ITEM_MEM_PSS_ANON,
	TASKDIAG_ITEM_MEM_PSS_FILE,
	TASKDIAG_ITEM_MEM_PSS_SHMEM,
	TASKDIAG_ITEM_MEM_SHARED_CLEAN,
	TASKDIAG_ITEM_MEM_SHARED_DIRTY,
	TASKDIAG_ITEM_MEM_PRIVATE_CLEAN,
	TASKDIAG_ITEM_MEM_PRIVATE_DIRTY,
	TASKDIAG_ITEM_MEM_REFERENCED,
	TASKDIAG_ITEM_MEM_ANONYMOUS,
	TASKDIAG_ITEM_MEM_LAZYFREE,
	TASKDIAG_ITEM_MEM_ANON_HUGE_PAGES,
	TASKDIAG_ITEM_MEM_SHMEM_PMD_MAPPED,
	TASKDIAG_ITEM_MEM_FILE_PMD_MAPPED,
	TASKDIAG_ITEM_MEM_SHARED_HUGETLB,
	TASKDIAG_ITEM_MEM_PRIVATE_HUGETLB,
	TASKDIAG_ITEM_MEM_SWAP,
	TASKDIAG_ITEM_MEM_SWAP_PSS,
	TASKDIAG_ITEM_MEM_LOCKED,
	TASKDIAG_ITEM_MEM_KSM,
	/*
	 * since 0.6: VmLck of status (mm->locked_vm), in group statm so that
	 * ps's L flag needs no status group; from version 1 of the statm
	 * struct (absent from an older module's); the procfs backend gives
	 * it only when the request reads status too
	 */
	TASKDIAG_ITEM_STATM_LOCKED,

	TASKDIAG_ITEM__COUNT	/* not an item: the number of items */
};

/** enum taskdiag_type - how an item's value is read */
enum taskdiag_type {
	TASKDIAG_TYPE_U64 = 1,	/* taskdiag_task_get_u64() */
	TASKDIAG_TYPE_S64,	/* taskdiag_task_get_s64() */
	TASKDIAG_TYPE_STRING,	/* taskdiag_task_get_string() */
	TASKDIAG_TYPE_BYTES,	/* taskdiag_task_get_bytes() */
	TASKDIAG_TYPE_U32_ARRAY, /* taskdiag_task_get_bytes(): host-order u32 words */
};

/** enum taskdiag_unit - what an item's value counts */
enum taskdiag_unit {
	TASKDIAG_UNIT_COUNT = 1,	/* a plain count */
	TASKDIAG_UNIT_BYTES,
	TASKDIAG_UNIT_NANOSECONDS,
	TASKDIAG_UNIT_PID,		/* a pid of the caller's pid namespace */
	TASKDIAG_UNIT_ID,		/* a uid or gid of the caller's user namespace */
	TASKDIAG_UNIT_ADDRESS,		/* a user-space address */
	TASKDIAG_UNIT_MASK,		/* a bit mask */
	TASKDIAG_UNIT_BITMAP,		/* a bitmap in u32 words, lowest first */
	TASKDIAG_UNIT_CHAR,		/* one character (the state letter) */
	TASKDIAG_UNIT_TEXT,
	TASKDIAG_UNIT_VALUE,		/* a code or setting (policy, nice, ...) */
};

/** struct taskdiag_item_info - one row of the item table */
struct taskdiag_item_info {
	enum taskdiag_item item;
	const char *group_name;	/* "task", "base", "stat", ... (JSON object) */
	const char *name;	/* "pid", "utime", "vm_rss", ... (JSON key) */
	uint32_t group;		/* TASKDIAG_GROUP_* bit, 0 for pid and tgid */
	uint16_t attr;		/* ABI attribute that carries it (top level; a group struct for numbers) */
	enum taskdiag_type type;
	enum taskdiag_unit unit;
	uint8_t attr_size;	/* size of a number in the ABI (its struct member), else 0 */
};

/** The row of @item, or NULL if @item is out of range. */
TASKDIAG_API const struct taskdiag_item_info *taskdiag_item_info(enum taskdiag_item item);
/** Look an item up by "group.name" or by its bare name if that is unique. */
TASKDIAG_API int taskdiag_item_lookup(const char *name);

struct taskdiag;
struct taskdiag_task;
struct taskdiag_iter;

/* Bits of taskdiag_request.flags (since 0.4). */
#define TASKDIAG_REQ_RAN_SINCE		(1u << 0)	/* send ran_since (0 too) */
#define TASKDIAG_REQ_RAN_SINCE_IDLE	(1u << 1)	/* tasks that did not run as idle records */

/** The most ids one filter array may hold (the module's limit). */
#define TASKDIAG_FILTER_MAX	1024u

/**
 * struct taskdiag_request - what to dump
 *
 * The members after groups were appended in 0.4 (programs built against an
 * older header reach the older functions, which read only the first
 * three): the kernel-side filters and "ran since" of the module, all
 * of which must match (AND). A zero, NULL or 0-count member is no filter.
 * Arrays and strings are read when the iteration starts and must stay
 * valid until it ends. The procfs backend applies the filters itself
 * (a library older than this refused them there with -EOPNOTSUPP): the same
 * selection from each task's stat, status and cgroup files; a cgroup_id
 * needs the unified hierarchy mounted at /sys/fs/cgroup (else
 * -EOPNOTSUPP), and ran_since keeps every task. See the module's
 * documentation for the exact meaning; in short:
 * @pids: keep tasks whose pid (a thread's in thread scopes) is listed
 * @uids, @euids: keep tasks whose real / effective uid (as ids are shown,
 *                in the opening process's user namespace) is listed
 * @cgroup_id: keep tasks in this cgroup v2 (its inode number) or below
 * @cgroup_path: the same by path, from the caller's cgroup namespace root,
 *               starting with "/"; not with @cgroup_id
 * @comm: keep tasks whose comm is exactly this (1 to 15 bytes: a comm has at most 15)
 * @flags: TASKDIAG_REQ_* bits
 * @ran_since: with TASKDIAG_REQ_RAN_SINCE, keep only the tasks that may
 *             have run since this taskdiag_task_next_ran_since() of an
 *             earlier reply (0: all); never misses one that ran
 */
struct taskdiag_request {
	enum taskdiag_scope scope;	/* 0 means TASKDIAG_SCOPE_ALL_PROCESSES */
	pid_t pid;			/* for TASK, THREADS and CHILDREN */
	uint32_t groups;		/* TASKDIAG_GROUP_* bits */
	/* since 0.4 */
	uint32_t npids;
	const uint32_t *pids;
	const uint32_t *uids;
	const uint32_t *euids;
	uint32_t nuids;
	uint32_t neuids;
	uint64_t cgroup_id;
	const char *cgroup_path;
	const char *comm;
	uint32_t flags;
	uint64_t ran_since;
};

/**
 * taskdiag_open() - open a handle
 * @td: set to the new handle on success
 * @backend: TASKDIAG_BACKEND_AUTO picks netlink when the module is loaded
 *
 * Return: 0, -TASKDIAG_ENOMODULE (netlink asked for, module absent),
 * -TASKDIAG_EVERSION, or another negative errno.
 */
TASKDIAG_API int taskdiag_open(struct taskdiag **td, enum taskdiag_backend backend);
/**
 * taskdiag_set_procfs() - follow another procfs instance than /proc
 * @td: a netlink or procfs handle (not a replay one), no iteration running
 * @fd: an open descriptor of the root directory of a procfs mount (O_PATH
 *      will do, but from a process with no_new_privs, which the module
 *      asks for one opened for reading), which the caller keeps open while
 *      the handle uses it; -1 for the procfs at /proc again
 *
 * With netlink, the module applies that instance's hidepid= and gid=
 * options instead of those of the procfs mounted at the caller's /proc
 * (the PROCFS_FD request attribute); pids stay those of the caller's pid
 * namespace. The procfs backend reads that instance instead of /proc. For
 * callers such as container managers that hold a container's /proc, or
 * that have no procfs at /proc (where the module refuses requests).
 * Without it, a process with no_new_privs (a Landlock or seccomp sandbox)
 * sends a descriptor of /proc that the library opens for each request:
 * the module takes such a sender's procfs from a descriptor only, so that
 * the sandbox's file rules decide whether it may read /proc.
 *
 * Return: 0, -EINVAL, -EBUSY, -ENOTDIR, or the errno of fstat() or of
 * opening the directory (procfs backend).
 */
TASKDIAG_API int taskdiag_set_procfs(struct taskdiag *td, int fd);
/** Close a handle; NULL is ignored. */
TASKDIAG_API void taskdiag_close(struct taskdiag *td);
/** The backend the handle uses (never AUTO). */
TASKDIAG_API enum taskdiag_backend taskdiag_get_backend(const struct taskdiag *td);
/** The kernel's message (extack) for the last failed request, or NULL. */
TASKDIAG_API const char *taskdiag_extack(const struct taskdiag *td);
/** A message for a negative error code returned by this library. */
TASKDIAG_API const char *taskdiag_strerror(int err);

/**
 * taskdiag_cb - called once per task, in ascending pid order
 * @task: the record, valid only during the call
 * @arg: the caller's pointer
 *
 * Return: 0 to go on; anything else stops the dump, and taskdiag_dump()
 * returns that value.
 */
typedef int (*taskdiag_cb)(const struct taskdiag_task *task, void *arg);

/**
 * taskdiag_dump() - stream every task of a request through a callback
 *
 * Memory use does not grow with the number of tasks. Tasks that exit
 * while they are read are skipped.
 *
 * Return: 0 when every task was passed, the callback's non-zero value if it
 * stopped the dump, or a negative errno.
 */
TASKDIAG_API int taskdiag_dump(struct taskdiag *td, const struct taskdiag_request *req,
			       taskdiag_cb cb, void *arg);

/**
 * taskdiag_iter_start() - the same stream, pulled one task at a time
 *
 * One iterator at a time per handle. End it with taskdiag_iter_end(),
 * whether or not it ran to the end.
 */
TASKDIAG_API int taskdiag_iter_start(struct taskdiag *td, const struct taskdiag_request *req,
				     struct taskdiag_iter **it);
/**
 * taskdiag_iter_next() - the next task
 * @task: set to a record valid until the next call or taskdiag_iter_end()
 *
 * Return: 1 with @task set, 0 at the end, or a negative errno.
 */
TASKDIAG_API int taskdiag_iter_next(struct taskdiag_iter *it, const struct taskdiag_task **task);
/** End an iteration; NULL is ignored. */
TASKDIAG_API void taskdiag_iter_end(struct taskdiag_iter *it);

/** Is @item present in the record (asked for, and shown to the caller)? */
TASKDIAG_API bool taskdiag_task_has(const struct taskdiag_task *task, enum taskdiag_item item);
/*
 * Typed getters. Return 0 with the value set, -ENOENT if the item is
 * absent from this record (not asked for, or not shown to the caller:
 * guarded fields), -EINVAL if @item is out of range or not of that type.
 * Strings and bytes point into the record: valid as long as the record.
 */
TASKDIAG_API int taskdiag_task_get_u64(const struct taskdiag_task *task, enum taskdiag_item item,
				       uint64_t *val);
TASKDIAG_API int taskdiag_task_get_s64(const struct taskdiag_task *task, enum taskdiag_item item,
				       int64_t *val);
TASKDIAG_API int taskdiag_task_get_string(const struct taskdiag_task *task,
					  enum taskdiag_item item, const char **str);
TASKDIAG_API int taskdiag_task_get_bytes(const struct taskdiag_task *task, enum taskdiag_item item,
					 const void **data, size_t *len);
/**
 * struct taskdiag_value - one item of taskdiag_task_get_items() (since 0.3)
 * @err: 0 (present), -ENOENT (absent from the record) or -EINVAL (out of
 *       range); the value is zero unless @err is 0
 * @u: TASKDIAG_TYPE_U64 items (and S64 ones as their two's complement)
 * @s: TASKDIAG_TYPE_S64 items (and U64 ones cast)
 * @data, @len: strings (NUL-terminated, @len without the NUL), bytes and
 *       u32 arrays, pointing into the record
 */
struct taskdiag_value {
	int err;
	uint64_t u;
	int64_t s;
	const void *data;
	size_t len;
};

/**
 * taskdiag_task_get_items() - several items of a record in one call
 * @task: the record
 * @items: @n items, any types, in any order (repeats allowed)
 * @n: how many
 * @vals: @n values, filled in the order of @items
 *
 * The same values as the typed getters, for a caller that reads the same
 * columns of every record (a ps, a top).
 * Return: the number of items present, or -EINVAL (@task, @items or @vals
 * NULL with @n > 0).
 */
TASKDIAG_API int taskdiag_task_get_items(const struct taskdiag_task *task,
					 const enum taskdiag_item *items, size_t n,
					 struct taskdiag_value *vals);

/** The record's pid and tgid (always present). */
TASKDIAG_API pid_t taskdiag_task_pid(const struct taskdiag_task *task);
TASKDIAG_API pid_t taskdiag_task_tgid(const struct taskdiag_task *task);
/**
 * taskdiag_task_next_ran_since() - the module's stamp for the next request
 * @v: set to the value for the next request's ran_since
 *
 * Since 0.4. Every record of a reply to a request with
 * TASKDIAG_REQ_RAN_SINCE carries it (netlink backend).
 * Return: 0, or -ENOENT when the record has none.
 */
TASKDIAG_API int taskdiag_task_next_ran_since(const struct taskdiag_task *task, uint64_t *v);
/**
 * taskdiag_task_is_idle() - is this an idle record (ran-since-idle)?
 *
 * Since 0.4. True for the record of a task that did not run since the
 * request's ran_since (TASKDIAG_REQ_RAN_SINCE_IDLE): it has pid and tgid only.
 */
TASKDIAG_API bool taskdiag_task_is_idle(const struct taskdiag_task *task);

/*
 * Record and replay of the raw reply stream (as ss -D), so that consumers
 * can be tested without a kernel. A recording holds a small header, then
 * for each request a record of what it asked for and one record per
 * datagram the kernel sent, in host byte order.
 */

/**
 * taskdiag_set_record() - copy the reply stream of a netlink handle to a file
 * @td: a handle of the netlink backend (not a replay handle), with no
 *      iteration running
 * @fd: a file open for writing; -1 stops recording. The caller keeps it
 *      (and closes it after the handle stopped writing to it).
 *
 * Writes the file header at once, then records every later request. A write
 * that fails during an iteration fails that iteration with its errno.
 *
 * Return: 0, -EINVAL (not a live netlink handle), -EBUSY, or the errno of
 * the failed write.
 */
TASKDIAG_API int taskdiag_set_record(struct taskdiag *td, int fd);

/**
 * taskdiag_open_replay() - open a handle that replays a recording
 * @td: set to the new handle on success
 * @fd: a file written through taskdiag_set_record(), read sequentially from
 *      its current offset; the caller keeps it open until taskdiag_close()
 *
 * Each taskdiag_iter_start() or taskdiag_dump() replays the next recorded
 * request, whatever the request passed asks for, through the netlink
 * backend's own decoder and error handling (taskdiag_extack() included);
 * taskdiag_get_backend() says TASKDIAG_BACKEND_NETLINK.
 *
 * Return: 0, -EBADMSG (@fd does not start with a recording's header),
 * -TASKDIAG_EVERSION (recorded from a module of another ABI version), or
 * another negative errno. Iterations return -EBADMSG for a recording that is
 * truncated or corrupt, and when no request is left to replay.
 */
TASKDIAG_API int taskdiag_open_replay(struct taskdiag **td, int fd);

/**
 * taskdiag_replay_request() - what the next iteration of a replay handle replays
 * @td: a replay handle, with no iteration running
 * @req: set to the recorded request (scope, pid and groups)
 *
 * Return: 0, -ENODATA when no request is left, -EINVAL (not a replay
 * handle), -EBUSY, -EBADMSG (a corrupt recording) or a read error.
 */
TASKDIAG_API int taskdiag_replay_request(struct taskdiag *td, struct taskdiag_request *req);

struct taskdiag_system;

/**
 * taskdiag_replay_system() - the machine the next replayed request was recorded on
 * @td: a replay handle, with no iteration running
 * @sys: filled up to @size bytes with what the recording host had when it
 *       sent the request: boot_time, uptime (CLOCK_BOOTTIME, the clock of
 *       taskdiag_sample_time()), hz, ncpu and mem_total; the rest zero
 * @size: sizeof(*sys) as the caller knows it
 * @now: set to the recording host's CLOCK_REALTIME then, ns since the epoch
 *
 * Since 0.7: recordings of this version keep these, so that a replay shows
 * %CPU, elapsed and start times as the recording host would have.
 * Return: 0, -ENODATA (a recording of an older version, or none left),
 * -EINVAL (not a replay handle), -EBUSY, -EBADMSG or a read error.
 */
TASKDIAG_API int taskdiag_replay_system(struct taskdiag *td, struct taskdiag_system *sys,
					size_t size, uint64_t *now);

/*
 * Samples and rates (since 0.2). A sample holds every record of one request
 * in storage that the next taskdiag_sample_take() reuses (one array of
 * records, one arena for their strings and bytes, two index arrays): once it
 * has grown to the population, the sample and the diff allocate nothing
 * (the request itself still allocates its iterator and message). A diff
 * compares two samples: tasks are matched on (pid, start time), so a reused
 * pid is a new task, and it derives CPU shares and per-second rates.
 */
struct taskdiag_sample;
struct taskdiag_diff;

/** A new, empty sample. Return: 0 or -ENOMEM. */
TASKDIAG_API int taskdiag_sample_new(struct taskdiag_sample **s);
/** Free a sample; NULL is ignored. Diffs that use it must not be read after. */
TASKDIAG_API void taskdiag_sample_free(struct taskdiag_sample *s);
/**
 * taskdiag_sample_take() - replace the sample's records with those of @req
 *
 * Strings and bytes are copied into the sample, so records stay valid until
 * the next take or free. The sample's time is CLOCK_BOOTTIME when the
 * request starts (the clock of base.start_time); its order is the dump's
 * (ascending pid). Ask for TASKDIAG_GROUP_BASE to match tasks on their start
 * time, TASKDIAG_GROUP_STAT for CPU and faults, TASKDIAG_GROUP_IO and
 * TASKDIAG_GROUP_STATUS for I/O and context-switch rates.
 *
 * Return: the number of records, or a negative errno (the sample is then
 * empty).
 */
TASKDIAG_API int taskdiag_sample_take(struct taskdiag *td, const struct taskdiag_request *req,
				      struct taskdiag_sample *s);
/**
 * taskdiag_sample_take_since() - a sample that reads only the tasks that ran
 * @prev: the sample this request filled last time (it may have been taken
 *        with taskdiag_sample_take()), or NULL for the first one
 *
 * Since 0.4. As taskdiag_sample_take(), but with the netlink backend the
 * module computes groups only for the tasks that may have run since @prev
 * was taken (ran-since); each other task comes as an idle record and gets
 * a copy of its record in @prev, whose values cannot have changed. Tasks
 * that exited are absent, as with taskdiag_sample_take(), so a diff with
 * @prev reports them as exited. Without @prev, or with the procfs backend,
 * every task is read. The request's own flags and ran_since are ignored.
 *
 * Return: the number of records, or a negative errno (@s is then empty);
 * -EINVAL if @s is @prev.
 */
TASKDIAG_API int taskdiag_sample_take_since(struct taskdiag *td,
					    const struct taskdiag_request *req,
					    const struct taskdiag_sample *prev,
					    struct taskdiag_sample *s);
/** Records of the last take_since that were copied from @prev (did not run). */
TASKDIAG_API size_t taskdiag_sample_idle_count(const struct taskdiag_sample *s);
/** The number of records. */
TASKDIAG_API size_t taskdiag_sample_count(const struct taskdiag_sample *s);
/** The record at position @i of the sample's current order, or NULL. */
TASKDIAG_API const struct taskdiag_task *taskdiag_sample_task(const struct taskdiag_sample *s,
							      size_t i);
/** When the sample was taken: nanoseconds of CLOCK_BOOTTIME. */
TASKDIAG_API uint64_t taskdiag_sample_time(const struct taskdiag_sample *s);
/**
 * taskdiag_sample_sort() - order the sample's records by @item
 *
 * Numbers compare as numbers, strings and bytes as bytes; records without
 * the item come last in either direction; ties go by ascending pid.
 * Return: 0, or -EINVAL for an item out of range.
 */
TASKDIAG_API int taskdiag_sample_sort(struct taskdiag_sample *s, enum taskdiag_item item,
				      bool descending);

/** enum taskdiag_derived - values a diff derives for each task */
enum taskdiag_derived {
	TASKDIAG_DERIVED_CPU = 1,	/* utime+stime over the interval, % of one CPU (top's %CPU) */
	TASKDIAG_DERIVED_CPU_MACHINE,	/* the same, % of all online CPUs */
	TASKDIAG_DERIVED_CPU_TIME,	/* utime+stime grown in the interval, nanoseconds */
	TASKDIAG_DERIVED_MINFLT_RATE,	/* per second, as every *_RATE */
	TASKDIAG_DERIVED_MAJFLT_RATE,
	TASKDIAG_DERIVED_RCHAR_RATE,	/* bytes per second */
	TASKDIAG_DERIVED_WCHAR_RATE,
	TASKDIAG_DERIVED_SYSCR_RATE,	/* read calls per second */
	TASKDIAG_DERIVED_SYSCW_RATE,
	TASKDIAG_DERIVED_READ_BYTES_RATE,	/* storage bytes per second */
	TASKDIAG_DERIVED_WRITE_BYTES_RATE,
	TASKDIAG_DERIVED_VOLUNTARY_CTXT_RATE,	/* context switches per second */
	TASKDIAG_DERIVED_NONVOLUNTARY_CTXT_RATE,

	TASKDIAG_DERIVED__COUNT	/* not a value: one more than the last */
};

/** The name of a derived value ("cpu", "minflt_rate", ...), or NULL. */
TASKDIAG_API const char *taskdiag_derived_name(enum taskdiag_derived d);
/** Look a derived value up by name: the value, or -ENOENT. */
TASKDIAG_API int taskdiag_derived_lookup(const char *name);

/** A new diff. Return: 0 or -ENOMEM. */
TASKDIAG_API int taskdiag_diff_new(struct taskdiag_diff **d);
/** Free a diff; NULL is ignored. */
TASKDIAG_API void taskdiag_diff_free(struct taskdiag_diff *d);
/**
 * taskdiag_diff_compute() - compare @prev (older) with @cur (newer)
 *
 * The diff refers to both samples until the next compute: keep them, and
 * take nothing into them meanwhile (sorting them is fine). Its tasks are
 * those of @cur, in @cur's order at the time of the call.
 * A task of @cur matches a task of @prev with the same pid and, when both
 * records have it, the same base.start_time. A task that appeared (no
 * match) and started after @prev was taken counts from zero: its whole use
 * falls in the interval. With ncpu = 0 the online CPUs are counted.
 *
 * Return: 0, -EINVAL, or -ENOMEM (the diff is then empty).
 */
TASKDIAG_API int taskdiag_diff_compute(struct taskdiag_diff *d, const struct taskdiag_sample *prev,
				       const struct taskdiag_sample *cur, unsigned int ncpu);
/** The interval between the two samples, in nanoseconds (0 if cur is not later). */
TASKDIAG_API uint64_t taskdiag_diff_interval(const struct taskdiag_diff *d);
/** The number of tasks (those of the newer sample). */
TASKDIAG_API size_t taskdiag_diff_count(const struct taskdiag_diff *d);
/** The newer record at position @i of the diff's order, or NULL. */
TASKDIAG_API const struct taskdiag_task *taskdiag_diff_task(const struct taskdiag_diff *d,
							    size_t i);
/** The older record of the same task, or NULL if it appeared in the interval. */
TASKDIAG_API const struct taskdiag_task *taskdiag_diff_prev(const struct taskdiag_diff *d,
							    size_t i);
/**
 * taskdiag_diff_get() - a derived value of the task at position @i
 *
 * Return: 0 with @val set; otherwise @val is 0 and the return says why:
 * -ENOENT (an item it needs is absent, or the task is new but did not start
 * in the interval), -ERANGE (a counter went backwards: not the same
 * counting, no rate), -EDOM (zero interval), -EINVAL (bad arguments).
 */
TASKDIAG_API int taskdiag_diff_get(const struct taskdiag_diff *d, size_t i,
				   enum taskdiag_derived what, double *val);
/** The number of tasks of the older sample that the newer one lacks (exited). */
TASKDIAG_API size_t taskdiag_diff_exited_count(const struct taskdiag_diff *d);
/** The older record of exited task @j (0 <= j < exited count), or NULL. */
TASKDIAG_API const struct taskdiag_task *taskdiag_diff_exited(const struct taskdiag_diff *d,
							      size_t j);
/** The number of tasks of the newer sample without a match (appeared). */
TASKDIAG_API size_t taskdiag_diff_appeared_count(const struct taskdiag_diff *d);
/**
 * taskdiag_diff_sort_item() / taskdiag_diff_sort_derived() - order the
 * diff's tasks by an item of the newer record or by a derived value;
 * tasks without one come last, ties go by ascending pid.
 * Return: 0 or -EINVAL.
 */
TASKDIAG_API int taskdiag_diff_sort_item(struct taskdiag_diff *d, enum taskdiag_item item,
					 bool descending);
TASKDIAG_API int taskdiag_diff_sort_derived(struct taskdiag_diff *d, enum taskdiag_derived what,
					    bool descending);

/** struct taskdiag_cpu_times - the "cpu" line of /proc/stat, in nanoseconds */
struct taskdiag_cpu_times {
	uint64_t user, nice, system, idle, iowait, irq, softirq, steal, guest, guest_nice;
};

/**
 * struct taskdiag_system - machine-wide figures a top needs
 *
 * Append-only: callers pass sizeof() of the struct they were built with.
 */
struct taskdiag_system {
	uint64_t boot_time;	/* seconds since the epoch (/proc/stat btime) */
	uint64_t uptime;	/* nanoseconds since boot (/proc/uptime) */
	uint32_t hz;		/* clock ticks per second of /proc (USER_HZ) */
	uint32_t ncpu;		/* CPUs listed in /proc/stat (online) */
	double loadavg[3];	/* 1, 5 and 15 minutes */
	uint32_t nr_running;	/* runnable tasks (/proc/loadavg) */
	uint32_t nr_threads;	/* tasks (/proc/loadavg) */
	uint64_t mem_total;	/* bytes, as every mem_* and swap_* (/proc/meminfo) */
	uint64_t mem_free;
	uint64_t mem_available;
	uint64_t buffers;
	uint64_t cached;
	uint64_t sreclaimable;
	uint64_t shmem;
	uint64_t swap_total;
	uint64_t swap_free;
	struct taskdiag_cpu_times cpu;	/* all CPUs together */
	uint64_t ctxt;		/* context switches since boot */
	uint64_t processes;	/* forks since boot */
	uint32_t procs_running;
	uint32_t procs_blocked;
};

/**
 * taskdiag_system_read() - read the machine-wide figures
 * @sys: filled up to @size bytes (fields this library lacks stay zero)
 * @size: sizeof(*sys) as the caller knows it
 *
 * Reads /proc (or $TASKDIAG_PROC_ROOT, as the procfs backend) with a few
 * reads into the stack: no allocation.
 * Return: 0, -EINVAL, -EBADMSG (a file not laid out as expected) or the
 * errno of opening or reading a file.
 */
TASKDIAG_API int taskdiag_system_read(struct taskdiag_system *sys, size_t size);

/*
 * Memory maps (since 0.4): the VMAs of processes, what /proc/PID/maps shows,
 * from the module's get-vma dump or, on the procfs backend, from maps.
 */

/** Request filters of taskdiag_vma_request::filter (the ABI's vma-filter). */
#define TASKDIAG_VMA_FILE_BACKED	(1u << 0)	/* only VMAs that map a file */
#define TASKDIAG_VMA_EXEC		(1u << 1)	/* only executable VMAs */
/*
 * Not a filter (since 0.6): fill taskdiag_vma::build_id, in a dump and in
 * an address query. Netlink: the module's with-build-id (from the file's
 * page cache, as the kernel's build_id_parse()). Procfs: the file opened
 * by the path maps names (when it is still the mapped file: same device
 * and inode), so none for a deleted file or one the caller cannot open.
 */
#define TASKDIAG_VMA_BUILD_ID		(1u << 16)

/**
 * struct taskdiag_vma_request - which VMAs to read (since 0.4)
 * @pid: 0 for every process the caller may read (as it may read their
 *       /proc/PID/maps), else this process (a thread's pid names its
 *       process)
 * @filter: TASKDIAG_VMA_* bits
 * @start: only VMAs that end above this address
 * @end: only VMAs that begin below it; 0 means no limit
 */
struct taskdiag_vma_request {
	pid_t pid;
	uint32_t filter;
	uint64_t start;
	uint64_t end;
};

/*
 * Bits of taskdiag_vma::flags: bit n is value n of the ABI's vma-flag enum
 * (TASK_DIAG_VMA_FLAG_* of <linux/task_diag.h>), a VM_* flag that smaps's
 * VmFlags line shows; taskdiag_vma_flag_name() gives its mnemonic. The
 * four that make maps's permissions column:
 */
#define TASKDIAG_VMA_F_READ	(1ull << 0)	/* r */
#define TASKDIAG_VMA_F_WRITE	(1ull << 1)	/* w */
#define TASKDIAG_VMA_F_EXEC	(1ull << 2)	/* x */
#define TASKDIAG_VMA_F_MAYSHARE	(1ull << 7)	/* s (else p) */

/**
 * struct taskdiag_vma - one VMA (since 0.4); the library owns it, and the
 * struct only grows at its end
 * @pid: the process (thread-group id)
 * @start: its first address
 * @end: the address past it
 * @offset: the offset in the mapped file, in bytes (0 without a file)
 * @inode: the inode of the mapped file (0 without a file)
 * @flags: TASKDIAG_VMA_F_* and the other vma-flag bits. The procfs backend
 *         reads maps only, so it gives the four permission bits alone
 * @dev_major: the device of the file's file system (0 without a file)
 * @dev_minor: see @dev_major
 * @name: the name maps prints (a path as escaped there, [heap], [stack],
 *        [vdso], ...), NUL-terminated, or NULL when maps prints none
 * @build_id: with TASKDIAG_VMA_BUILD_ID, the GNU build id of the mapped
 *            ELF file (what readelf -n prints as "Build ID"), else NULL
 *            (since 0.6)
 * @build_id_len: its length in bytes, 1 to 20; 0 without one (since 0.6)
 */
struct taskdiag_vma {
	pid_t pid;
	uint32_t dev_major;
	uint64_t start;
	uint64_t end;
	uint64_t offset;
	uint64_t inode;
	uint64_t flags;
	uint32_t dev_minor;
	const char *name;
	const unsigned char *build_id;
	uint32_t build_id_len;
};

struct taskdiag_vma_iter;

/**
 * taskdiag_vma_iter_start() - read VMAs, in ascending (pid, start) order
 * @td: a netlink or procfs handle, with no other iteration running
 * @req: which VMAs; NULL for every VMA of every process
 * @it: set to the iterator
 *
 * Processes the caller may not read are left out of a walk of every
 * process; for one process, that is -EACCES (from taskdiag_vma_iter_next()
 * on netlink). On netlink, a request whose first process stays busy (in
 * exec, or its memory map locked) for the 20 ms the kernel may wait for it
 * is sent again, for up to about 2 s in all; -EAGAIN after that. End it
 * with taskdiag_vma_iter_end().
 *
 * Return: 0, -EINVAL (a bad request), -EBUSY, -ENOMEM, or another
 * negative errno.
 */
TASKDIAG_API int taskdiag_vma_iter_start(struct taskdiag *td,
					 const struct taskdiag_vma_request *req,
					 struct taskdiag_vma_iter **it);
/**
 * taskdiag_vma_iter_next() - the next VMA
 * @vma: set to a record valid until the next call or taskdiag_vma_iter_end()
 *
 * Return: 1 with @vma set, 0 at the end, or a negative errno (-EACCES,
 * -ESRCH for one process; -EAGAIN, see taskdiag_vma_iter_start();
 * -EBADMSG for a malformed reply).
 */
TASKDIAG_API int taskdiag_vma_iter_next(struct taskdiag_vma_iter *it,
					const struct taskdiag_vma **vma);
/** End a VMA iteration; NULL is ignored. */
TASKDIAG_API void taskdiag_vma_iter_end(struct taskdiag_vma_iter *it);
/** The VmFlags mnemonic ("rd", "wr", ...) of flag bit @bit, or NULL. */
TASKDIAG_API const char *taskdiag_vma_flag_name(unsigned int bit);

/*
 * The address query (since 0.5): for each address, the VMA covering it or
 * else the next one above it that passes the filter, as PROCMAP_QUERY's
 * PROCMAP_QUERY_COVERING_OR_NEXT_VMA finds it, or none. Netlink: get-vma's
 * address query, 2,048 addresses per request; procfs: the PROCMAP_QUERY
 * ioctl on /proc/PID/maps where the kernel has it (6.11+, detected at run
 * time), else a lookup in the text of maps, read once.
 */

/** taskdiag_vma_query::flags: on procfs, look up maps's text even where
 *  PROCMAP_QUERY exists (to compare the two). */
#define TASKDIAG_VMA_QUERY_MAPS_TEXT	(1u << 0)

/**
 * struct taskdiag_vma_query - an address query (since 0.5)
 * @pid: the process (a thread's pid reads that thread's mm, as
 *       /proc/TID/maps does); required
 * @filter: TASKDIAG_VMA_FILE_BACKED and/or TASKDIAG_VMA_EXEC, and
 *          TASKDIAG_VMA_BUILD_ID
 * @addrs: the addresses, in any order (answered in this order); the array
 *         must stay valid until taskdiag_vma_iter_end()
 * @naddrs: how many, at least 1
 * @flags: TASKDIAG_VMA_QUERY_* bits
 */
struct taskdiag_vma_query {
	pid_t pid;
	uint32_t filter;
	const uint64_t *addrs;
	size_t naddrs;
	uint32_t flags;
};

/**
 * taskdiag_vma_query_start() - answer an address query
 * @td: a netlink or procfs handle, with no other iteration running
 * @q: the query
 * @it: set to an iterator for taskdiag_vma_query_next(), ended with
 *      taskdiag_vma_iter_end()
 *
 * Return: 0, -EINVAL (no pid, no address, a bad filter or flag), -EBUSY,
 * -ENOMEM, -EACCES or -ESRCH (procfs), or another negative errno.
 */
TASKDIAG_API int taskdiag_vma_query_start(struct taskdiag *td,
					  const struct taskdiag_vma_query *q,
					  struct taskdiag_vma_iter **it);
/**
 * taskdiag_vma_query_next() - the next address's answer
 * @addr: set to the queried address
 * @vma: set to its VMA (valid until the next call), or NULL if no VMA at
 *       or above @addr passes the filter
 *
 * Return: 1 with @addr and @vma set, 0 once every address is answered, or
 * a negative errno (-EACCES, -ESRCH; -EBADMSG for a malformed reply).
 */
TASKDIAG_API int taskdiag_vma_query_next(struct taskdiag_vma_iter *it, uint64_t *addr,
					 const struct taskdiag_vma **vma);

#ifdef __cplusplus
}
#endif

#endif /* TASKDIAG_TASKDIAG_H */
