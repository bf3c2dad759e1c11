// SPDX-License-Identifier: GPL-2.0
/*
 * The strongest existing peer of task_diag: a BPF task iterator that writes
 * one binary record per task (struct td_bench_rec: the fields of the
 * task_diag base and stat groups, in the same units) with bpf_seq_write().
 * CO-RE: built against a vmlinux.h generated from the guest kernel's BTF.
 *
 * Two programs, pinned by tdbpf_pin and read through their pinned
 * files:
 *   td_procs    one record per process (thread-group leaders), with the
 *               whole-process faults and times (the leader's signal_struct
 *               plus every live thread, walked with bpf_loop()), as the
 *               module's process scopes. On 6.1 the task iterator has no
 *               leaders-only mode: it still visits every thread, and this
 *               program returns early for the others.
 *   td_threads  one record per task, per-thread faults and times, as the
 *               module's thread scopes.
 *
 * The fields and what they leave out of the module: task_record.bpf.h. On
 * 6.7+ the process scope is read by task_iter_open.bpf.c instead (the
 * open-coded iterator, which visits no threads); td_procs stays as the
 * classic reference there.
 */
#include "vmlinux.h"
#include "bench_record.h"
#include "task_record.bpf.h"

char LICENSE[] SEC("license") = "GPL";

static int td_emit(struct bpf_iter__task *ctx, bool whole)
{
	struct td_bench_rec r = {};

	if (td_fill(ctx->task, whole, &r))
		bpf_seq_write(ctx->meta->seq, &r, sizeof(r));
	return 0;
}

SEC("iter/task")
int td_procs(struct bpf_iter__task *ctx)
{
	return td_emit(ctx, true);
}

SEC("iter/task")
int td_threads(struct bpf_iter__task *ctx)
{
	return td_emit(ctx, false);
}
