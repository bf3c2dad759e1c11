/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * task_diag: per-task information over generic netlink.
 *
 * Written to match docs/netlink/task_diag.yaml, which is the source of
 * truth (tests/spec/check_spec.py checks that the two agree). The ABI is
 * append-only: attributes are never renumbered or removed.
 *
 * Units: sizes and addresses in bytes, times in nanoseconds, everything
 * else plain counts. Pids are those of the requester's pid namespace,
 * uids and gids those of the requester's user namespace.
 */
#ifndef _UAPI_LINUX_TASK_DIAG_H
#define _UAPI_LINUX_TASK_DIAG_H

#define TASK_DIAG_FAMILY_NAME		"task_diag"
#define TASK_DIAG_FAMILY_VERSION	1

/**
 * enum task_diag_scope - which tasks a GET request covers
 * @TASK_DIAG_SCOPE_ALL_PROCESSES: every thread-group leader (as /proc/PID)
 * @TASK_DIAG_SCOPE_ALL_THREADS: every thread (as /proc/PID/task/TID)
 * @TASK_DIAG_SCOPE_TASK: the one task named by PID (as /proc/PID)
 * @TASK_DIAG_SCOPE_THREADS: the threads of process PID (as /proc/PID/task/TID)
 * @TASK_DIAG_SCOPE_CHILDREN: the processes whose parent is process PID
 */
enum task_diag_scope {
	TASK_DIAG_SCOPE_ALL_PROCESSES = 1,
	TASK_DIAG_SCOPE_ALL_THREADS,
	TASK_DIAG_SCOPE_TASK,
	TASK_DIAG_SCOPE_THREADS,
	TASK_DIAG_SCOPE_CHILDREN,

	/* private: */
	__TASK_DIAG_SCOPE_MAX,
	TASK_DIAG_SCOPE_MAX = (__TASK_DIAG_SCOPE_MAX - 1)
};

/**
 * enum task_diag_show - groups of attributes a request asks for (SHOW mask)
 * @TASK_DIAG_SHOW_BASE: identity and state (TASK_DIAG_A_TASK_BASE)
 * @TASK_DIAG_SHOW_STAT: the rest of /proc/PID/stat (TASK_DIAG_A_TASK_STAT)
 * @TASK_DIAG_SHOW_STATM: /proc/PID/statm (TASK_DIAG_A_TASK_STATM)
 * @TASK_DIAG_SHOW_IO: /proc/PID/io (TASK_DIAG_A_TASK_IO)
 * @TASK_DIAG_SHOW_STATUS: the rest of /proc/PID/status (TASK_DIAG_A_TASK_STATUS)
 * @TASK_DIAG_SHOW_CRED: ids, groups and capabilities (TASK_DIAG_A_TASK_CRED)
 * @TASK_DIAG_SHOW_CMDLINE: the argument vector (TASK_DIAG_A_TASK_CMDLINE)
 */
enum task_diag_show {
	TASK_DIAG_SHOW_BASE = 1,
	TASK_DIAG_SHOW_STAT = 2,
	TASK_DIAG_SHOW_STATM = 4,
	TASK_DIAG_SHOW_IO = 8,
	TASK_DIAG_SHOW_STATUS = 16,
	TASK_DIAG_SHOW_CRED = 32,
	TASK_DIAG_SHOW_CMDLINE = 64,
};

#define TASK_DIAG_SHOW_ALL						\
	(TASK_DIAG_SHOW_BASE | TASK_DIAG_SHOW_STAT | TASK_DIAG_SHOW_STATM |	\
	 TASK_DIAG_SHOW_IO | TASK_DIAG_SHOW_STATUS | TASK_DIAG_SHOW_CRED |	\
	 TASK_DIAG_SHOW_CMDLINE)

/*
 * Top-level attributes of GET requests and replies (one set, as netdev
 * does). A request carries SCOPE, PID, SHOW and PROCFS_FD; each reply
 * message, one per task, carries PID, TGID and one attribute per group
 * asked for.
 */
enum {
	TASK_DIAG_A_TASK_PAD = 1,
	TASK_DIAG_A_TASK_PID,		/* u32: pid (thread id); in a request, the task or process the scope names */
	TASK_DIAG_A_TASK_TGID,		/* u32: thread-group id */
	TASK_DIAG_A_TASK_BASE,		/* nest: TASK_DIAG_A_BASE_* */
	TASK_DIAG_A_TASK_STAT,		/* nest: TASK_DIAG_A_STAT_* */
	TASK_DIAG_A_TASK_STATM,		/* nest: TASK_DIAG_A_STATM_* */
	TASK_DIAG_A_TASK_IO,		/* nest: TASK_DIAG_A_IO_* */
	TASK_DIAG_A_TASK_STATUS,	/* nest: TASK_DIAG_A_STATUS_* */
	TASK_DIAG_A_TASK_CRED,		/* nest: TASK_DIAG_A_CRED_* */
	TASK_DIAG_A_TASK_CMDLINE,	/* binary: NUL-separated argv */
	TASK_DIAG_A_TASK_SCOPE,		/* u32, enum task_diag_scope: request only */
	TASK_DIAG_A_TASK_SHOW,		/* u32, enum task_diag_show bits: request only */
	TASK_DIAG_A_TASK_PROCFS_FD,	/* u32: fd of a file on the procfs whose hidepid= applies: request only */

	__TASK_DIAG_A_TASK_MAX,
	TASK_DIAG_A_TASK_MAX = (__TASK_DIAG_A_TASK_MAX - 1)
};

/* Identity and state: the leading fields of /proc/PID/stat. */
enum {
	TASK_DIAG_A_BASE_PAD = 1,
	TASK_DIAG_A_BASE_PPID,		/* u32: 0 if outside the namespace */
	TASK_DIAG_A_BASE_PGID,		/* u32 */
	TASK_DIAG_A_BASE_SID,		/* u32 */
	TASK_DIAG_A_BASE_TRACER_PID,	/* u32: 0 if not traced */
	TASK_DIAG_A_BASE_TTY_NR,	/* u32: encoded as in stat */
	TASK_DIAG_A_BASE_TPGID,		/* s32: -1 without a tty */
	TASK_DIAG_A_BASE_STATE,		/* u8: the state letter of stat */
	TASK_DIAG_A_BASE_COMM,		/* string */
	TASK_DIAG_A_BASE_FLAGS,		/* u32: PF_* */
	TASK_DIAG_A_BASE_START_TIME,	/* u64 ns after boot */
	TASK_DIAG_A_BASE_NUM_THREADS,	/* u32 */

	__TASK_DIAG_A_BASE_MAX,
	TASK_DIAG_A_BASE_MAX = (__TASK_DIAG_A_BASE_MAX - 1)
};

/* The rest of /proc/PID/stat. */
enum {
	TASK_DIAG_A_STAT_PAD = 1,
	TASK_DIAG_A_STAT_MINFLT,	/* u64 */
	TASK_DIAG_A_STAT_CMINFLT,	/* u64 */
	TASK_DIAG_A_STAT_MAJFLT,	/* u64 */
	TASK_DIAG_A_STAT_CMAJFLT,	/* u64 */
	TASK_DIAG_A_STAT_UTIME,		/* u64 ns */
	TASK_DIAG_A_STAT_STIME,		/* u64 ns */
	TASK_DIAG_A_STAT_CUTIME,	/* u64 ns */
	TASK_DIAG_A_STAT_CSTIME,	/* u64 ns */
	TASK_DIAG_A_STAT_PRIORITY,	/* s32 */
	TASK_DIAG_A_STAT_NICE,		/* s32 */
	TASK_DIAG_A_STAT_VSIZE,		/* u64 bytes */
	TASK_DIAG_A_STAT_RSS,		/* u64 bytes */
	TASK_DIAG_A_STAT_RSSLIM,	/* u64 bytes */
	TASK_DIAG_A_STAT_START_CODE,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_END_CODE,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_START_STACK,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_KSTK_ESP,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_KSTK_EIP,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_WCHAN,		/* u8 flag, guarded */
	TASK_DIAG_A_STAT_EXIT_SIGNAL,	/* s32 */
	TASK_DIAG_A_STAT_PROCESSOR,	/* u32 */
	TASK_DIAG_A_STAT_RT_PRIORITY,	/* u32 */
	TASK_DIAG_A_STAT_POLICY,	/* u32 */
	TASK_DIAG_A_STAT_BLKIO_DELAY,	/* u64 ns */
	TASK_DIAG_A_STAT_GUEST_TIME,	/* u64 ns */
	TASK_DIAG_A_STAT_CGUEST_TIME,	/* u64 ns */
	TASK_DIAG_A_STAT_START_DATA,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_END_DATA,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_START_BRK,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_ARG_START,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_ARG_END,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_ENV_START,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_ENV_END,	/* u64 address, guarded */
	TASK_DIAG_A_STAT_EXIT_CODE,	/* s32, guarded */

	__TASK_DIAG_A_STAT_MAX,
	TASK_DIAG_A_STAT_MAX = (__TASK_DIAG_A_STAT_MAX - 1)
};

/* /proc/PID/statm, in bytes instead of pages. */
enum {
	TASK_DIAG_A_STATM_PAD = 1,
	TASK_DIAG_A_STATM_SIZE,		/* u64 bytes */
	TASK_DIAG_A_STATM_RESIDENT,	/* u64 bytes */
	TASK_DIAG_A_STATM_SHARED,	/* u64 bytes */
	TASK_DIAG_A_STATM_TEXT,		/* u64 bytes */
	TASK_DIAG_A_STATM_LIB,		/* u64 bytes: always 0, as procfs */
	TASK_DIAG_A_STATM_DATA,		/* u64 bytes */
	TASK_DIAG_A_STATM_DT,		/* u64 bytes: always 0, as procfs */

	__TASK_DIAG_A_STATM_MAX,
	TASK_DIAG_A_STATM_MAX = (__TASK_DIAG_A_STATM_MAX - 1)
};

/* /proc/PID/io: the whole group is guarded. */
enum {
	TASK_DIAG_A_IO_PAD = 1,
	TASK_DIAG_A_IO_RCHAR,		/* u64 bytes */
	TASK_DIAG_A_IO_WCHAR,		/* u64 bytes */
	TASK_DIAG_A_IO_SYSCR,		/* u64 */
	TASK_DIAG_A_IO_SYSCW,		/* u64 */
	TASK_DIAG_A_IO_READ_BYTES,	/* u64 bytes */
	TASK_DIAG_A_IO_WRITE_BYTES,	/* u64 bytes */
	TASK_DIAG_A_IO_CANCELLED_WRITE_BYTES, /* u64 bytes */

	__TASK_DIAG_A_IO_MAX,
	TASK_DIAG_A_IO_MAX = (__TASK_DIAG_A_IO_MAX - 1)
};

/* The fields of /proc/PID/status that no other group carries. */
enum {
	TASK_DIAG_A_STATUS_PAD = 1,
	TASK_DIAG_A_STATUS_UMASK,	/* u32 */
	TASK_DIAG_A_STATUS_FDSIZE,	/* u32 */
	TASK_DIAG_A_STATUS_VM_PEAK,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_LCK,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_PIN,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_HWM,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_RSS,	/* u64 bytes */
	TASK_DIAG_A_STATUS_RSS_ANON,	/* u64 bytes */
	TASK_DIAG_A_STATUS_RSS_FILE,	/* u64 bytes */
	TASK_DIAG_A_STATUS_RSS_SHMEM,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_DATA,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_STK,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_EXE,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_LIB,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_PTE,	/* u64 bytes */
	TASK_DIAG_A_STATUS_VM_SWAP,	/* u64 bytes */
	TASK_DIAG_A_STATUS_HUGETLB_PAGES, /* u64 bytes */
	TASK_DIAG_A_STATUS_CORE_DUMPING, /* u8 */
	TASK_DIAG_A_STATUS_THP_ENABLED,	/* u8 */
	TASK_DIAG_A_STATUS_SIGQ_QUEUED,	/* u32 */
	TASK_DIAG_A_STATUS_SIGQ_LIMIT,	/* u64 */
	TASK_DIAG_A_STATUS_SIG_PENDING,	/* u64 mask */
	TASK_DIAG_A_STATUS_SIG_SHARED_PENDING, /* u64 mask */
	TASK_DIAG_A_STATUS_SIG_BLOCKED,	/* u64 mask */
	TASK_DIAG_A_STATUS_SIG_IGNORED,	/* u64 mask */
	TASK_DIAG_A_STATUS_SIG_CAUGHT,	/* u64 mask */
	TASK_DIAG_A_STATUS_NO_NEW_PRIVS, /* u8 */
	TASK_DIAG_A_STATUS_SECCOMP,	/* u8: SECCOMP_MODE_* */
	TASK_DIAG_A_STATUS_SECCOMP_FILTERS, /* u32 */
	TASK_DIAG_A_STATUS_CPUS_ALLOWED, /* binary: bitmap, u32 words */
	TASK_DIAG_A_STATUS_MEMS_ALLOWED, /* binary: bitmap, u32 words */
	TASK_DIAG_A_STATUS_VOLUNTARY_CTXT_SWITCHES, /* u64 */
	TASK_DIAG_A_STATUS_NONVOLUNTARY_CTXT_SWITCHES, /* u64 */

	__TASK_DIAG_A_STATUS_MAX,
	TASK_DIAG_A_STATUS_MAX = (__TASK_DIAG_A_STATUS_MAX - 1)
};

/* Credentials, as the Uid/Gid/Groups/Cap* lines of /proc/PID/status. */
enum {
	TASK_DIAG_A_CRED_PAD = 1,
	TASK_DIAG_A_CRED_UID,		/* u32 */
	TASK_DIAG_A_CRED_EUID,		/* u32 */
	TASK_DIAG_A_CRED_SUID,		/* u32 */
	TASK_DIAG_A_CRED_FSUID,		/* u32 */
	TASK_DIAG_A_CRED_GID,		/* u32 */
	TASK_DIAG_A_CRED_EGID,		/* u32 */
	TASK_DIAG_A_CRED_SGID,		/* u32 */
	TASK_DIAG_A_CRED_FSGID,		/* u32 */
	TASK_DIAG_A_CRED_GROUPS,	/* binary: array of u32 */
	TASK_DIAG_A_CRED_CAP_INHERITABLE, /* u64 mask */
	TASK_DIAG_A_CRED_CAP_PERMITTED,	/* u64 mask */
	TASK_DIAG_A_CRED_CAP_EFFECTIVE,	/* u64 mask */
	TASK_DIAG_A_CRED_CAP_BOUNDING,	/* u64 mask */
	TASK_DIAG_A_CRED_CAP_AMBIENT,	/* u64 mask */
	TASK_DIAG_A_CRED_NGROUPS,	/* u32: all supplementary groups (GROUPS may hold fewer) */

	__TASK_DIAG_A_CRED_MAX,
	TASK_DIAG_A_CRED_MAX = (__TASK_DIAG_A_CRED_MAX - 1)
};

/* Commands. */
enum {
	TASK_DIAG_CMD_GET = 1,

	__TASK_DIAG_CMD_MAX,
	TASK_DIAG_CMD_MAX = (__TASK_DIAG_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_TASK_DIAG_H */
