// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the argument vector, as /proc/PID/cmdline returns it.
 *
 * procfs reads the target's memory with access_remote_vm(), which is not
 * exported; td_access_remote_vm() (compat.h) does the same from the mm the
 * task was looked up with once (td_task_mm()), straight into the
 * attribute reserved in the message. After reading, the task must still
 * run that mm, or the bytes could come from a different program image;
 * the attribute is then taken back out.
 */
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/sched/task.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <net/netlink.h>

#include <linux/task_diag.h>
#include "task_diag.h"

/*
 * At most this many bytes are sent; /proc/PID/cmdline has no limit for an
 * unmodified argv (a read returns the rest), so a longer one is cut here.
 * A setproctitle() title is limited to a page by procfs itself.
 */
#define TD_CMDLINE_MAX	4096

/* Read the target's memory as procfs does: anonymous mappings only. */
static size_t td_cmdline_read(struct mm_struct *mm, unsigned long addr,
			      char *buf, size_t len)
{
	if (!len)
		return 0;
	return td_access_remote_vm(mm, addr, buf, len, FOLL_ANON);
}

/*
 * Fill @buf as get_mm_cmdline() fills a read of @size bytes at offset 0 and
 * return the number of bytes it holds; set *@whole to the length of an
 * intact argv longer than @size. The argument range is [@arg_start,
 * @arg_end); @size is at most a page and at most the length a setproctitle()
 * title may have (to the end of an environment that follows argv).
 */
static size_t td_cmdline_copy(struct mm_struct *mm, char *buf, size_t size,
			      unsigned long arg_start, unsigned long arg_end,
			      size_t *whole)
{
	size_t argv_len = arg_end - arg_start;
	bool last_read = false;
	size_t got = 0, n;
	char last = 0;

	/*
	 * An argv that fits is read at once, its last byte with it, which
	 * saves procfs's separate one-byte read in the common case.
	 */
	if (argv_len <= size) {
		got = td_cmdline_read(mm, arg_start, buf, argv_len);
		if (got == argv_len) {
			last = buf[argv_len - 1];
			last_read = true;
		}
	}
	if (!last_read)
		last_read = td_cmdline_read(mm, arg_end - 1, &last, 1) == 1;

	if (!last_read || !last) {
		/* argv is intact: send [arg_start, arg_end) only. */
		if (argv_len <= size)
			return got;
		*whole = argv_len;
		return td_cmdline_read(mm, arg_start, buf, size);
	}

	/*
	 * The last byte of argv is not NUL: setproctitle() has rewritten the
	 * title, which may run on into the environment. Send it up to and
	 * including its first NUL (@size stops it within a page and within
	 * the environment).
	 */
	if (got == argv_len)
		got += td_cmdline_read(mm, arg_end, buf + got, size - got);
	else
		got = td_cmdline_read(mm, arg_start, buf, size);
	n = strnlen(buf, got);
	return n < got ? n + 1 : got;
}

/**
 * td_cmdline_fill() - write TASK_DIAG_A_TASK_CMDLINE for a task
 * @skb: the reply
 * @ctx: the task being written
 *
 * The attribute holds the bytes a read of /proc/PID/cmdline returns,
 * including the setproctitle() rule (a title that overwrote the final NUL
 * of argv is followed into the environment up to its first NUL), cut at
 * TD_CMDLINE_MAX bytes; an argv cut there is followed by
 * TASK_DIAG_A_TASK_CMDLINE_LEN, its whole length. A task with an mm whose
 * cmdline reads as empty gets an empty attribute. Like /proc/PID/cmdline,
 * it needs no permission.
 *
 * Context: process context, no locks held; sleeps to read the task's
 * memory, under its mmap lock (td_mmap_read_lock(): not waited for under
 * cb_lock).
 * Return: 0; -ENOENT to leave the attribute out (a kernel thread or an
 * exited task has no mm, the task changed its mm while it was read, or
 * its mmap lock was busy under cb_lock, see td_busy()); -EMSGSIZE when
 * @skb is full; -EINTR.
 */
int td_cmdline_fill(struct sk_buff *skb, struct td_task_ctx *ctx)
{
	unsigned long arg_start, arg_end, env_start, env_end, len;
	struct task_struct *task = ctx->task;
	struct mm_struct *mm = td_task_mm(ctx);
	size_t size = 0, n = 0, whole = 0;
	struct nlattr *nla;
	bool same_mm;
	char *buf;
	int err;

	BUILD_BUG_ON(TD_CMDLINE_MAX > PAGE_SIZE);

	if (!mm)
		return -ENOENT;

	/* env_end is set last by exec: until then there is no argv yet. */
	if (READ_ONCE(mm->env_end)) {
		spin_lock(&mm->arg_lock);
		arg_start = mm->arg_start;
		arg_end = mm->arg_end;
		env_start = mm->env_start;
		env_end = mm->env_end;
		spin_unlock(&mm->arg_lock);

		if (arg_start < arg_end) {
			/* A title may only overflow into an environment right after argv. */
			if (env_start != arg_end || env_end < env_start)
				env_end = arg_end;
			len = env_end - arg_start;
			size = min_t(unsigned long, len, TD_CMDLINE_MAX);
		}
	}

	buf = td_attr_reserve(skb, TASK_DIAG_A_TASK_CMDLINE, size);
	if (!buf)
		return -EMSGSIZE;
	nla = (struct nlattr *)(buf - NLA_HDRLEN);
	if (!size)
		return 0;
	err = td_mmap_read_lock(ctx->view, mm);
	if (err) {
		nlmsg_trim(skb, nla);
		return err == -EAGAIN ? td_busy(ctx) : err;
	}
	n = td_cmdline_copy(mm, buf, size, arg_start, arg_end, &whole);
	mmap_read_unlock(mm);

	task_lock(task);
	same_mm = task->mm == mm;
	task_unlock(task);
	if (!same_mm) {
		nlmsg_trim(skb, nla);
		return -ENOENT;
	}
	td_attr_shrink(skb, nla, n);
	/* Only a full first part says how long the whole is, as procfs would read on. */
	if (whole && n == size)
		return td_put_u32(skb, TASK_DIAG_A_TASK_CMDLINE_LEN, min_t(size_t, whole, U32_MAX));
	return 0;
}

/* The most room td_cmdline_fill() takes: a cut argv and its length. */
size_t td_cmdline_msg_size(void)
{
	return nla_total_size(TD_CMDLINE_MAX) + nla_total_size(sizeof(u32));
}
