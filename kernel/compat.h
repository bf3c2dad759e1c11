/* SPDX-License-Identifier: GPL-2.0 */
/*
 * task_diag: helpers that procfs uses but Linux 6.1 does not export to
 * modules, re-derived from the inline helpers and struct fields they are
 * built on. Each says which procfs helper it stands for.
 */
#ifndef _TASK_DIAG_COMPAT_H
#define _TASK_DIAG_COMPAT_H

#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/spinlock.h>

/*
 * lock_task_sighand(): __lock_task_sighand() is not exported. The sighand
 * of a live task is freed only after an RCU grace period, and it is
 * detached (set to NULL) under its own lock, so lock it and check that it
 * is still the task's.
 */
static inline struct sighand_struct *td_lock_sighand(struct task_struct *t,
						     unsigned long *flags)
{
	struct sighand_struct *sh;

	rcu_read_lock();
	for (;;) {
		sh = rcu_dereference(t->sighand);
		if (!sh)
			break;
		spin_lock_irqsave(&sh->siglock, *flags);
		if (likely(sh == rcu_access_pointer(t->sighand)))
			break;
		spin_unlock_irqrestore(&sh->siglock, *flags);
	}
	rcu_read_unlock();
	return sh;
}

static inline void td_unlock_sighand(struct task_struct *t, unsigned long *flags)
{
	spin_unlock_irqrestore(&t->sighand->siglock, *flags);
}

/* task_prio() is not exported: the priority stat shows, -100..39. */
static inline int td_task_prio(const struct task_struct *p)
{
	return p->prio - MAX_RT_PRIO;
}

/* get_task_state(): the state letter of stat, from the report index. */
static inline char td_task_state_char(struct task_struct *t)
{
	static const char letters[] = "RSDTtXZPI";

	BUILD_BUG_ON(1 + ilog2(TASK_REPORT_MAX) != sizeof(letters) - 1);
	return letters[task_state_index(t)];
}

#endif /* _TASK_DIAG_COMPAT_H */
