/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record the BPF task iterators write for every task (task_iter.bpf.c
 * with bpf_seq_write(), task_iter_open.bpf.c into an array map), and
 * tdbench reads back: the fields of the
 * task_diag base and stat groups (what netlink_base_stat asks for), in the
 * same units (bytes, nanoseconds, counts). Shared by the BPF program (which
 * includes vmlinux.h first, so the __u* types exist) and user space.
 */
#ifndef TD_BENCH_RECORD_H
#define TD_BENCH_RECORD_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define TD_BENCH_COMM_LEN 16

struct td_bench_rec {
	/* base */
	__u32 pid;
	__u32 tgid;
	__u32 ppid;
	__u32 pgid;
	__u32 sid;
	__u32 tracer_pid;
	__u32 tty_nr;
	__s32 tpgid;
	__u32 flags;
	__u32 num_threads;
	__u8 state;		/* the procfs state letter */
	__u8 wchan;		/* stat: 0 or 1, as the module's attribute */
	__u8 pad[2];
	/* stat, 32-bit */
	__s32 priority;
	__s32 nice;
	__s32 exit_signal;
	__u32 processor;
	__u32 rt_priority;
	__u32 policy;
	__s32 exit_code;
	char comm[TD_BENCH_COMM_LEN];
	/* base, 64-bit */
	__u64 start_time;
	/* stat, 64-bit */
	__u64 minflt;
	__u64 cminflt;
	__u64 majflt;
	__u64 cmajflt;
	__u64 utime;
	__u64 stime;
	__u64 cutime;
	__u64 cstime;
	__u64 vsize;
	__u64 rss;
	__u64 rsslim;
	__u64 start_code;
	__u64 end_code;
	__u64 start_stack;
	__u64 kstk_esp;
	__u64 kstk_eip;
	__u64 blkio_delay;
	__u64 guest_time;
	__u64 cguest_time;
	__u64 start_data;
	__u64 end_data;
	__u64 start_brk;
	__u64 arg_start;
	__u64 arg_end;
	__u64 env_start;
	__u64 env_end;
};

/*
 * The open-coded iterator's output (task_iter_open.bpf.c): this header
 * through the pinned iterator file, then count records at the start of the
 * mmap-ed array map of TD_BENCH_OPEN_MAX records (stride: the record; the
 * whole array, 4.75 MiB, is mapped into the reader and counts in its RSS).
 */
#define TD_BENCH_OPEN_MAX 16384

struct td_bench_open_hdr {
	__u32 count;		/* records in the map, from index 0 */
	__u32 overflow;		/* 1: more processes than the map holds */
};

#endif /* TD_BENCH_RECORD_H */
