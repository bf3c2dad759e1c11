// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF peer's process scope on 6.7+: the open-coded task iterator
 * (bpf_iter_task_new(..., BPF_TASK_ITER_ALL_PROCS), kfuncs) walks the
 * thread-group leaders on the task list and never visits their threads,
 * where the classic "iter/task" program of task_iter.bpf.c is called for
 * every thread and returns early for all but the leaders.
 *
 * td_procs_open is an "iter/task" program attached to one task (tid 1, so
 * the classic iterator calls it once per read plus once at the end): on
 * that call it runs the whole open-coded walk, fills one struct
 * td_bench_rec per process (task_record.bpf.h, as td_procs fills it) in
 * place in td_recs, an mmap-able array map, and writes only a struct
 * td_bench_open_hdr (how many records, whether the map was too small) to
 * its seq_file. The records cannot go through bpf_seq_write(): one program
 * run may write at most the seq_file's buffer (8 pages, ~100 records), and
 * the open-coded iterator's state does not live from one run to the next.
 * The reader (tdbench) reads the header through the pinned file and the
 * records where they are, in the mapped array: no copy of them at all.
 * The map is one buffer: two readers at once would overwrite each other's
 * records (the benchmark has one reader).
 */
#include "vmlinux.h"
#include "bench_record.h"
#include "task_record.bpf.h"

char LICENSE[] SEC("license") = "GPL";

extern int bpf_iter_task_new(struct bpf_iter_task *it, struct task_struct *task,
			     unsigned int flags) __weak __ksym;
extern struct task_struct *bpf_iter_task_next(struct bpf_iter_task *it) __weak __ksym;
extern void bpf_iter_task_destroy(struct bpf_iter_task *it) __weak __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, TD_BENCH_OPEN_MAX);
	__type(key, __u32);
	__type(value, struct td_bench_rec);
} td_recs SEC(".maps");

SEC("iter/task")
int td_procs_open(struct bpf_iter__task *ctx)
{
	struct td_bench_open_hdr h = {};
	struct bpf_iter_task it;
	struct task_struct *t;
	struct td_bench_rec *r;
	__u32 i = 0;

	if (!ctx->task)
		return 0;
	bpf_iter_task_new(&it, NULL, BPF_TASK_ITER_ALL_PROCS);
	while ((t = bpf_iter_task_next(&it))) {
		/* The walk starts at init_task, the idle task (pid 0): /proc and
		 * the other readers do not show it. */
		if (!t->pid)
			continue;
		if (i >= TD_BENCH_OPEN_MAX) {
			h.overflow = 1;
			break;
		}
		r = bpf_map_lookup_elem(&td_recs, &i);
		if (!r)
			break;
		__builtin_memset(r, 0, sizeof(*r));
		if (td_fill(t, true, r))
			i++;
	}
	bpf_iter_task_destroy(&it);
	h.count = i;
	bpf_seq_write(ctx->meta->seq, &h, sizeof(h));
	return 0;
}
