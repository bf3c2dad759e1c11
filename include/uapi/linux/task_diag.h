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

#include <linux/types.h>

#define TASK_DIAG_FAMILY_NAME		"task_diag"
#define TASK_DIAG_FAMILY_VERSION	2

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
 * does). A request carries SCOPE, PID, SHOW and PROCFS_FD. Each reply
 * message, one per task, carries PID, TGID and, for each group asked for,
 * its struct (BASE, STAT, STATM, IO, STATUS, CRED: binary, one struct
 * task_diag_<group> each) and its variable-length attributes (COMM with
 * BASE; CPUS_ALLOWED and MEMS_ALLOWED with STATUS; GROUPS with CRED;
 * CMDLINE and CMDLINE_LEN with CMDLINE). A group withheld from the reader
 * as a whole (IO without permission) is left out; a field withheld inside
 * a struct has its mask bit clear.
 */
enum {
	TASK_DIAG_A_TASK_PAD = 1,
	TASK_DIAG_A_TASK_PID,		/* u32: pid (thread id); in a request, the task or process the scope names */
	TASK_DIAG_A_TASK_TGID,		/* u32: thread-group id */
	TASK_DIAG_A_TASK_BASE,		/* binary: struct task_diag_base */
	TASK_DIAG_A_TASK_STAT,		/* binary: struct task_diag_stat */
	TASK_DIAG_A_TASK_STATM,		/* binary: struct task_diag_statm */
	TASK_DIAG_A_TASK_IO,		/* binary: struct task_diag_io */
	TASK_DIAG_A_TASK_STATUS,	/* binary: struct task_diag_status */
	TASK_DIAG_A_TASK_CRED,		/* binary: struct task_diag_cred */
	TASK_DIAG_A_TASK_CMDLINE,	/* binary: NUL-separated argv, as /proc/PID/cmdline reads */
	TASK_DIAG_A_TASK_SCOPE,		/* u32, enum task_diag_scope: request only */
	TASK_DIAG_A_TASK_SHOW,		/* u32, enum task_diag_show bits: request only */
	TASK_DIAG_A_TASK_PROCFS_FD,	/* u32: fd of a file on the procfs whose hidepid= applies: request only */
	TASK_DIAG_A_TASK_COMM,		/* string: the Name of status, NUL-terminated (BASE) */
	TASK_DIAG_A_TASK_CPUS_ALLOWED,	/* binary: bitmap, u32 words, as Cpus_allowed (STATUS) */
	TASK_DIAG_A_TASK_MEMS_ALLOWED,	/* binary: bitmap, u32 words, as Mems_allowed (STATUS) */
	TASK_DIAG_A_TASK_GROUPS,	/* binary: array of u32, the supplementary groups (CRED; may hold fewer than ngroups) */
	TASK_DIAG_A_TASK_CMDLINE_LEN,	/* u32: length of the whole argv when CMDLINE holds only its start (CMDLINE) */

	__TASK_DIAG_A_TASK_MAX,
	TASK_DIAG_A_TASK_MAX = (__TASK_DIAG_A_TASK_MAX - 1)
};

/*
 * The group structs.
 *
 * The first member is a mask: bit TASK_DIAG_<GROUP>_F_<FIELD> set means
 * that field holds a value. A field not computed, not supported by the
 * running kernel or withheld by a permission check has its bit clear and
 * is zero. Fields are numbered in the order they appear; __reserved
 * members are padding, always zero, and have no bit.
 *
 * Each struct is the whole payload of its attribute; the attribute's
 * length is the struct's size. Structs only grow, at their end, with the
 * next bit: TASK_DIAG_<GROUP>_SIZE_VER<n> is the size of version n.
 * Readers treat a payload shorter than VER0 as malformed, leave fields
 * past a shorter payload's end absent, and ignore the tail of a longer
 * one. The payload is only 4-byte aligned: copy it out, never cast it.
 */

/* Identity and state: the leading fields of /proc/PID/stat. */
struct task_diag_base {
	__u64	mask;
	__u32	ppid;		/* 0 if outside the requester's pid namespace */
	__u32	pgid;
	__u32	sid;
	__u32	tracer_pid;	/* 0 if not traced */
	__u32	tty_nr;		/* encoded as in stat */
	__s32	tpgid;		/* -1 without a tty */
	__u32	flags;		/* PF_* */
	__u32	num_threads;
	__u64	start_time;	/* ns after boot */
	__u8	state;		/* the state letter of stat */
	__u8	__reserved[7];
};

enum {
	TASK_DIAG_BASE_F_PPID,
	TASK_DIAG_BASE_F_PGID,
	TASK_DIAG_BASE_F_SID,
	TASK_DIAG_BASE_F_TRACER_PID,
	TASK_DIAG_BASE_F_TTY_NR,
	TASK_DIAG_BASE_F_TPGID,
	TASK_DIAG_BASE_F_FLAGS,
	TASK_DIAG_BASE_F_NUM_THREADS,
	TASK_DIAG_BASE_F_START_TIME,
	TASK_DIAG_BASE_F_STATE,
};

#define TASK_DIAG_BASE_SIZE_VER0	56

/* The rest of /proc/PID/stat. Addresses, wchan and exit_code are guarded. */
struct task_diag_stat {
	__u64	mask;
	__u64	minflt;
	__u64	cminflt;
	__u64	majflt;
	__u64	cmajflt;
	__u64	utime;		/* ns */
	__u64	stime;		/* ns */
	__u64	cutime;		/* ns */
	__u64	cstime;		/* ns */
	__u64	vsize;		/* bytes */
	__u64	rss;		/* bytes */
	__u64	rsslim;		/* bytes */
	__u64	start_code;	/* address, guarded */
	__u64	end_code;	/* address, guarded */
	__u64	start_stack;	/* address, guarded */
	__u64	kstk_esp;	/* address, guarded */
	__u64	kstk_eip;	/* address, guarded */
	__u64	blkio_delay;	/* ns */
	__u64	guest_time;	/* ns */
	__u64	cguest_time;	/* ns */
	__u64	start_data;	/* address, guarded */
	__u64	end_data;	/* address, guarded */
	__u64	start_brk;	/* address, guarded */
	__u64	arg_start;	/* address, guarded */
	__u64	arg_end;	/* address, guarded */
	__u64	env_start;	/* address, guarded */
	__u64	env_end;	/* address, guarded */
	__s32	priority;
	__s32	nice;
	__s32	exit_signal;
	__u32	processor;
	__u32	rt_priority;
	__u32	policy;
	__s32	exit_code;	/* guarded */
	__u8	wchan;		/* 0 or 1 as stat's wchan field, guarded */
	__u8	__reserved[3];
};

enum {
	TASK_DIAG_STAT_F_MINFLT,
	TASK_DIAG_STAT_F_CMINFLT,
	TASK_DIAG_STAT_F_MAJFLT,
	TASK_DIAG_STAT_F_CMAJFLT,
	TASK_DIAG_STAT_F_UTIME,
	TASK_DIAG_STAT_F_STIME,
	TASK_DIAG_STAT_F_CUTIME,
	TASK_DIAG_STAT_F_CSTIME,
	TASK_DIAG_STAT_F_VSIZE,
	TASK_DIAG_STAT_F_RSS,
	TASK_DIAG_STAT_F_RSSLIM,
	TASK_DIAG_STAT_F_START_CODE,
	TASK_DIAG_STAT_F_END_CODE,
	TASK_DIAG_STAT_F_START_STACK,
	TASK_DIAG_STAT_F_KSTK_ESP,
	TASK_DIAG_STAT_F_KSTK_EIP,
	TASK_DIAG_STAT_F_BLKIO_DELAY,
	TASK_DIAG_STAT_F_GUEST_TIME,
	TASK_DIAG_STAT_F_CGUEST_TIME,
	TASK_DIAG_STAT_F_START_DATA,
	TASK_DIAG_STAT_F_END_DATA,
	TASK_DIAG_STAT_F_START_BRK,
	TASK_DIAG_STAT_F_ARG_START,
	TASK_DIAG_STAT_F_ARG_END,
	TASK_DIAG_STAT_F_ENV_START,
	TASK_DIAG_STAT_F_ENV_END,
	TASK_DIAG_STAT_F_PRIORITY,
	TASK_DIAG_STAT_F_NICE,
	TASK_DIAG_STAT_F_EXIT_SIGNAL,
	TASK_DIAG_STAT_F_PROCESSOR,
	TASK_DIAG_STAT_F_RT_PRIORITY,
	TASK_DIAG_STAT_F_POLICY,
	TASK_DIAG_STAT_F_EXIT_CODE,
	TASK_DIAG_STAT_F_WCHAN,
};

#define TASK_DIAG_STAT_SIZE_VER0	248

/* /proc/PID/statm, in bytes instead of pages. */
struct task_diag_statm {
	__u64	mask;
	__u64	size;
	__u64	resident;
	__u64	shared;
	__u64	text;
	__u64	lib;		/* procfs always prints 0: bit never set */
	__u64	data;
	__u64	dt;		/* procfs always prints 0: bit never set */
};

enum {
	TASK_DIAG_STATM_F_SIZE,
	TASK_DIAG_STATM_F_RESIDENT,
	TASK_DIAG_STATM_F_SHARED,
	TASK_DIAG_STATM_F_TEXT,
	TASK_DIAG_STATM_F_LIB,
	TASK_DIAG_STATM_F_DATA,
	TASK_DIAG_STATM_F_DT,
};

#define TASK_DIAG_STATM_SIZE_VER0	64

/* /proc/PID/io: the whole group is guarded (left out when withheld). */
struct task_diag_io {
	__u64	mask;
	__u64	rchar;		/* bytes */
	__u64	wchar;		/* bytes */
	__u64	syscr;
	__u64	syscw;
	__u64	read_bytes;
	__u64	write_bytes;
	__u64	cancelled_write_bytes;
};

enum {
	TASK_DIAG_IO_F_RCHAR,
	TASK_DIAG_IO_F_WCHAR,
	TASK_DIAG_IO_F_SYSCR,
	TASK_DIAG_IO_F_SYSCW,
	TASK_DIAG_IO_F_READ_BYTES,
	TASK_DIAG_IO_F_WRITE_BYTES,
	TASK_DIAG_IO_F_CANCELLED_WRITE_BYTES,
};

#define TASK_DIAG_IO_SIZE_VER0		64

/* The numbers of /proc/PID/status that no other group carries. */
struct task_diag_status {
	__u64	mask;
	__u64	vm_peak;	/* bytes */
	__u64	vm_lck;		/* bytes */
	__u64	vm_pin;		/* bytes */
	__u64	vm_hwm;		/* bytes */
	__u64	vm_rss;		/* bytes */
	__u64	rss_anon;	/* bytes */
	__u64	rss_file;	/* bytes */
	__u64	rss_shmem;	/* bytes */
	__u64	vm_data;	/* bytes */
	__u64	vm_stk;		/* bytes */
	__u64	vm_exe;		/* bytes */
	__u64	vm_lib;		/* bytes */
	__u64	vm_pte;		/* bytes */
	__u64	vm_swap;	/* bytes */
	__u64	hugetlb_pages;	/* bytes */
	__u64	sigq_limit;
	__u64	sig_pending;	/* signal mask */
	__u64	sig_shared_pending; /* signal mask */
	__u64	sig_blocked;	/* signal mask */
	__u64	sig_ignored;	/* signal mask */
	__u64	sig_caught;	/* signal mask */
	__u64	voluntary_ctxt_switches;
	__u64	nonvoluntary_ctxt_switches;
	__u32	umask;
	__u32	fdsize;
	__u32	sigq_queued;
	__u32	seccomp_filters;
	__u8	core_dumping;
	__u8	thp_enabled;
	__u8	no_new_privs;
	__u8	seccomp;	/* SECCOMP_MODE_* */
	__u8	__reserved[4];
};

enum {
	TASK_DIAG_STATUS_F_VM_PEAK,
	TASK_DIAG_STATUS_F_VM_LCK,
	TASK_DIAG_STATUS_F_VM_PIN,
	TASK_DIAG_STATUS_F_VM_HWM,
	TASK_DIAG_STATUS_F_VM_RSS,
	TASK_DIAG_STATUS_F_RSS_ANON,
	TASK_DIAG_STATUS_F_RSS_FILE,
	TASK_DIAG_STATUS_F_RSS_SHMEM,
	TASK_DIAG_STATUS_F_VM_DATA,
	TASK_DIAG_STATUS_F_VM_STK,
	TASK_DIAG_STATUS_F_VM_EXE,
	TASK_DIAG_STATUS_F_VM_LIB,
	TASK_DIAG_STATUS_F_VM_PTE,
	TASK_DIAG_STATUS_F_VM_SWAP,
	TASK_DIAG_STATUS_F_HUGETLB_PAGES,
	TASK_DIAG_STATUS_F_SIGQ_LIMIT,
	TASK_DIAG_STATUS_F_SIG_PENDING,
	TASK_DIAG_STATUS_F_SIG_SHARED_PENDING,
	TASK_DIAG_STATUS_F_SIG_BLOCKED,
	TASK_DIAG_STATUS_F_SIG_IGNORED,
	TASK_DIAG_STATUS_F_SIG_CAUGHT,
	TASK_DIAG_STATUS_F_VOLUNTARY_CTXT_SWITCHES,
	TASK_DIAG_STATUS_F_NONVOLUNTARY_CTXT_SWITCHES,
	TASK_DIAG_STATUS_F_UMASK,
	TASK_DIAG_STATUS_F_FDSIZE,
	TASK_DIAG_STATUS_F_SIGQ_QUEUED,
	TASK_DIAG_STATUS_F_SECCOMP_FILTERS,
	TASK_DIAG_STATUS_F_CORE_DUMPING,
	TASK_DIAG_STATUS_F_THP_ENABLED,
	TASK_DIAG_STATUS_F_NO_NEW_PRIVS,
	TASK_DIAG_STATUS_F_SECCOMP,
};

#define TASK_DIAG_STATUS_SIZE_VER0	216

/* Credentials, as the Uid/Gid/Groups/Cap* lines of /proc/PID/status. */
struct task_diag_cred {
	__u64	mask;
	__u32	uid;
	__u32	euid;
	__u32	suid;
	__u32	fsuid;
	__u32	gid;
	__u32	egid;
	__u32	sgid;
	__u32	fsgid;
	__u32	ngroups;	/* all supplementary groups (GROUPS may hold fewer) */
	__u32	__reserved;
	__u64	cap_inheritable; /* capability mask */
	__u64	cap_permitted;	/* capability mask */
	__u64	cap_effective;	/* capability mask */
	__u64	cap_bounding;	/* capability mask */
	__u64	cap_ambient;	/* capability mask */
};

enum {
	TASK_DIAG_CRED_F_UID,
	TASK_DIAG_CRED_F_EUID,
	TASK_DIAG_CRED_F_SUID,
	TASK_DIAG_CRED_F_FSUID,
	TASK_DIAG_CRED_F_GID,
	TASK_DIAG_CRED_F_EGID,
	TASK_DIAG_CRED_F_SGID,
	TASK_DIAG_CRED_F_FSGID,
	TASK_DIAG_CRED_F_NGROUPS,
	TASK_DIAG_CRED_F_CAP_INHERITABLE,
	TASK_DIAG_CRED_F_CAP_PERMITTED,
	TASK_DIAG_CRED_F_CAP_EFFECTIVE,
	TASK_DIAG_CRED_F_CAP_BOUNDING,
	TASK_DIAG_CRED_F_CAP_AMBIENT,
};

#define TASK_DIAG_CRED_SIZE_VER0	88

/* Commands. */
enum {
	TASK_DIAG_CMD_GET = 1,

	__TASK_DIAG_CMD_MAX,
	TASK_DIAG_CMD_MAX = (__TASK_DIAG_CMD_MAX - 1)
};

#endif /* _UAPI_LINUX_TASK_DIAG_H */
