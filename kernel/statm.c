// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the statm group, /proc/PID/statm in bytes.
 */
#include <linux/mm.h>

#include <linux/task_diag.h>
#include "compat.h"
#include "task_diag.h"

/**
 * td_statm_fill() - write the statm group of one task
 * @skb: the message, with the statm nest open
 * @ctx: the task
 *
 * The values of task_statm() (not exported), in bytes; zeros for a task
 * without an mm, as procfs shows. lib and dt are always 0 there too.
 *
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
static int td_statm_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct mm_struct *mm = td_task_mm(ctx);
	u64 size = 0, resident = 0, shared = 0, text = 0, data = 0;

	if (mm) {
		shared = td_mm_counter(mm, MM_FILEPAGES) +
			 td_mm_counter(mm, MM_SHMEMPAGES);
		resident = shared + td_mm_counter(mm, MM_ANONPAGES);
		text = (PAGE_ALIGN(mm->end_code) - (mm->start_code & PAGE_MASK)) >> PAGE_SHIFT;
		data = mm->data_vm + mm->stack_vm;
		size = mm->total_vm;
	}

	if (td_put_u64(skb, TASK_DIAG_A_STATM_SIZE, size << PAGE_SHIFT,
			      TASK_DIAG_A_STATM_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_STATM_RESIDENT, resident << PAGE_SHIFT,
			      TASK_DIAG_A_STATM_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_STATM_SHARED, shared << PAGE_SHIFT,
			      TASK_DIAG_A_STATM_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_STATM_TEXT, text << PAGE_SHIFT,
			      TASK_DIAG_A_STATM_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_STATM_LIB, 0, TASK_DIAG_A_STATM_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_STATM_DATA, data << PAGE_SHIFT,
			      TASK_DIAG_A_STATM_PAD) ||
	    td_put_u64(skb, TASK_DIAG_A_STATM_DT, 0, TASK_DIAG_A_STATM_PAD))
		return -EMSGSIZE;
	return 0;
}

const struct td_group td_statm_group = {
	.show = TASK_DIAG_SHOW_STATM,
	.attr = TASK_DIAG_A_TASK_STATM,
	.fill = td_statm_fill,
};
