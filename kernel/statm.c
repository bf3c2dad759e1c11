// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the statm group, /proc/PID/statm in bytes.
 */
#include <linux/mm.h>

#include <linux/task_diag.h>
#include "compat.h"
#include "task_diag.h"

/**
 * td_statm_fill() - write the statm struct of one task
 * @skb: the message
 * @ctx: the task
 *
 * The values of task_statm() (not exported), in bytes; zeros for a task
 * without an mm, as procfs shows. procfs always prints lib and dt as 0:
 * their bits stay clear. locked is VmLck of status, which statm does not
 * print (read unlocked, as status reads it).
 *
 * Return: 0, or -EMSGSIZE when @skb is full.
 */
static int td_statm_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	struct mm_struct *mm = td_task_mm(ctx);
	struct task_diag_statm *s;
	unsigned long shared;

	s = td_reserve(skb, TASK_DIAG_A_TASK_STATM, struct task_diag_statm);
	if (!s)
		return -EMSGSIZE;
	if (mm) {
		const unsigned long *c = td_task_counters(ctx, mm);

		shared = c[MM_FILEPAGES] + c[MM_SHMEMPAGES];
		s->shared = (u64)shared << PAGE_SHIFT;
		s->resident = (u64)(shared + c[MM_ANONPAGES]) << PAGE_SHIFT;
		s->text = PAGE_ALIGN(mm->end_code) - (mm->start_code & PAGE_MASK);
		s->data = (u64)(mm->data_vm + mm->stack_vm) << PAGE_SHIFT;
		s->size = (u64)mm->total_vm << PAGE_SHIFT;
		s->locked = (u64)mm->locked_vm << PAGE_SHIFT;
	}
	s->mask = TD_F_UPTO(STATM, LOCKED) & ~(TD_F(STATM, LIB) | TD_F(STATM, DT));
	return 0;
}

static size_t td_statm_msg_size(void)
{
	return td_struct_msg_size(struct task_diag_statm);
}

const struct td_group td_statm_group = {
	.show = TASK_DIAG_SHOW_STATM,
	.fill = td_statm_fill,
	.msg_size = td_statm_msg_size,
};
