// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: per-task information over generic netlink.
 *
 * The core: the family, its request policy, the task walk shared by doit
 * and dumpit, and fill_task(), which writes one task's message from the
 * groups the request asked for.
 */
#include <linux/cred.h>
#include <linux/module.h>
#include <linux/pid_namespace.h>
#include <linux/threads.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/task_diag.h>
#include "task_diag.h"

static const struct td_group *const td_groups[] = {
	&td_base_group,
	&td_stat_group,
	&td_statm_group,
	&td_io_group,
	&td_status_group,
	&td_cred_group,
	&td_mem_group,
};

/* td_req_policy: generated from the spec (scripts/gen-abi). */
#include "task_diag_policy.h"

/**
 * struct td_dump - the dump cursor, cast over netlink_callback::ctx
 * @subj: the requester, fixed by td_dump_start(); NULL if it refused the
 *        request
 * @target: the process named by PID (scopes task, threads, children)
 * @err_msg: extack text of a request td_dump_start() refused
 * @scope: enum task_diag_scope
 * @show: TASK_DIAG_SHOW_* mask
 * @next_nr: the smallest pid (in @subj.ns) not yet written; advanced only
 *           after a task was completely written, so a dump resumes by key
 * @err: the error td_dump_start() found in the request, or 0
 * @started: the first batch was written: it runs under genetlink's
 *           cb_lock, inside the sender's sendmsg(), and holds no task
 *           (td_dump_header()); the tasks are written in the sender's
 *           later recvmsg() calls
 *
 * On 6.1 ->start() runs before netlink sets cb->extack, so an error found
 * there would lose its message: td_dump_start() keeps it here and the first
 * td_dumpit() returns it, which netlink sends in NLMSG_DONE with the text.
 */
struct td_dump {
	struct td_subject *subj;
	struct pid *target;
	const char *err_msg;
	u32 scope;
	u32 show;
	u32 next_nr;
	int err;
	bool started;
};

/*
 * The smallest buffer a dump that asks for status, cred or cmdline fills:
 * the largest task message (~3 KiB of fixed-size attributes, bitmaps and
 * NS* pid arrays, 4 KiB of groups, 4 KiB of cmdline) must fit an empty one. Netlink starts
 * a dump with NLMSG_GOODSIZE (~3.7 KiB) otherwise. Other dumps keep that
 * size, so a reader with a 4 KiB buffer can take them.
 */
#define TD_DUMP_MIN_ALLOC (12 * 1024)
#define TD_SHOW_VARIABLE (TASK_DIAG_SHOW_STATUS | TASK_DIAG_SHOW_CRED | TASK_DIAG_SHOW_CMDLINE)

struct genl_family td_family;

static struct td_dump *td_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct td_dump) > sizeof(cb->ctx));
	return (struct td_dump *)cb->ctx;
}

/* Whole-process values (as /proc/PID) or per-thread (as /proc/PID/task/TID). */
static bool td_scope_whole(u32 scope)
{
	return scope != TASK_DIAG_SCOPE_ALL_THREADS && scope != TASK_DIAG_SCOPE_THREADS;
}

/* The groups whose guarded values must belong to the program checked. */
#define TD_SHOW_EXEC_LOCKED (TASK_DIAG_SHOW_STAT | TASK_DIAG_SHOW_IO | TASK_DIAG_SHOW_MEM)

/*
 * May a task that the requester's /proc lists but does not open
 * (hidepid=noaccess) be written, with its pid and tgid only? Only where
 * a listing of /proc would show it: a thread-group leader, in a scope
 * whose membership says nothing more (a listing does not tell whose child
 * or thread a task is).
 */
static bool td_listed_ok(struct task_struct *task, u32 scope)
{
	switch (scope) {
	case TASK_DIAG_SCOPE_ALL_PROCESSES:
	case TASK_DIAG_SCOPE_ALL_THREADS:
	case TASK_DIAG_SCOPE_TASK:
		return thread_group_leader(task);
	default:
		return false;
	}
}

/*
 * The parts of the struct groups that procfs reads under the task's
 * siglock, all in one lock section: @st[i] is the struct td_groups[i]
 * reserved, or NULL. Without a sighand (the task is being released) the
 * task is skipped if base was asked for (procfs would not show its
 * pids); the other groups keep what they filled unlocked.
 */
static int td_fill_locked(struct td_task_ctx *ctx, void *const *st)
{
	unsigned long flags;
	bool any = false;
	int i;

	for (i = 0; i < ARRAY_SIZE(td_groups); i++)
		any |= st[i] && td_groups[i]->locked;
	if (!any)
		return 0;
	if (!td_lock_sighand(ctx->task, &flags)) {
		for (i = 0; i < ARRAY_SIZE(td_groups); i++)
			if (st[i] && td_groups[i] == &td_base_group)
				return -ESRCH;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(td_groups); i++)
		if (st[i] && td_groups[i]->locked)
			td_groups[i]->locked(ctx, st[i]);
	td_unlock_sighand(ctx->task, &flags);
	return 0;
}

/*
 * Write one task's message for the parties of @view; @nr is the task's pid
 * in the requester's namespace if the caller knows it, else 0. Return 0, -EMSGSIZE
 * if the skb is full (nothing of the task is left in it), -ESRCH if the
 * task is gone from the namespace, being released, or hidden from the
 * requester by its /proc, -EINTR if the caller was killed while waiting
 * for an exec of the task to finish, or -ENOMEM.
 */
static int td_fill_task(struct sk_buff *skb, const struct td_view *view,
			struct task_struct *task, pid_t nr, u32 show, u32 scope,
			u32 portid, u32 seq, int flags)
{
	const struct td_subject *subj = view->subj;
	const struct td_filter *f = &subj->filter;
	struct td_task_ctx ctx = {
		.subj = subj,
		.view = view,
		.task = task,
		.whole = td_scope_whole(scope),
	};
	bool exec_locked;
	void *st[ARRAY_SIZE(td_groups)] = {};
	enum td_match match;
	enum td_vis vis;
	pid_t tgid;
	void *hdr;
	int i, err;

	/* A task reaped since the walk found it: gone, whatever its number was. */
	if (!pid_alive(task))
		return -ESRCH;
	if (!nr)
		nr = task_pid_nr_ns(task, subj->ns);
	/* A leader's thread-group pid is its own pid. */
	tgid = thread_group_leader(task) ? nr : task_tgid_nr_ns(task, subj->ns);
	if (!nr || !tgid)
		return -ESRCH;

	/*
	 * Which tasks the requester's /proc shows, then the filters: a task
	 * either leaves out costs the walk and these tests only, no lock and
	 * no group (a filter or ran-since that keeps a tenth of the tasks).
	 * The visibility decision stays first: a filter never runs on a task
	 * /proc hides. (Where /proc hides none, the walk has already left out
	 * the tasks ran-since leaves out: td_filter_walk_skip().)
	 */
	vis = td_visibility(&ctx);
	switch (vis) {
	case TD_VIS_FULL:
		break;
	case TD_VIS_LISTED:
		if (!td_listed_ok(task, scope))
			return -ESRCH;
		show = 0;
		break;
	case TD_VIS_HIDDEN:
		return -ESRCH;
	}
	match = td_filter_match(&ctx, vis, nr);
	if (match == TD_MATCH_NO)
		return -ESRCH;
	if (match == TD_MATCH_IDLE)
		show = 0;

	/*
	 * As procfs: the permission check and the guarded values must belong
	 * to the same program, so keep exec from switching credentials and mm
	 * in between. Held for the struct groups only: cmdline reads the
	 * task's memory, as procfs does, without it. Not waited for under
	 * cb_lock (td_busy()): an exec can hold it as long as closing its
	 * files takes, and a FUSE daemon decides that. The answers the
	 * visibility check cached were given before the lock: the guarded
	 * fields ask again under it.
	 */
	exec_locked = show & TD_SHOW_EXEC_LOCKED;
	if (exec_locked) {
		err = td_down_read(view, &task->signal->exec_update_lock);
		if (err == -EAGAIN)
			err = td_busy(&ctx);
		if (err == -ENOENT)
			exec_locked = false;
		else if (err)
			return err;
		ctx.known = 0;
		ctx.ok = 0;
	}

	hdr = genlmsg_put(skb, portid, seq, &td_family, flags, TASK_DIAG_CMD_GET);
	if (!hdr) {
		err = -EMSGSIZE;
		goto out_unlock;
	}

	err = -EMSGSIZE;
	if (td_put_u32(skb, TASK_DIAG_A_TASK_PID, nr) ||
	    td_put_u32(skb, TASK_DIAG_A_TASK_TGID, tgid))
		goto err_cancel;
	if (f->ran_since &&
	    (nla_put_u64_64bit(skb, TASK_DIAG_A_TASK_NEXT_RAN_SINCE, f->stamp,
			       TASK_DIAG_A_TASK_PAD) ||
	     (match == TD_MATCH_IDLE && nla_put_flag(skb, TASK_DIAG_A_TASK_RAN_SINCE_IDLE))))
		goto err_cancel;

	for (i = 0; i < ARRAY_SIZE(td_groups); i++) {
		if (!(show & td_groups[i]->show))
			continue;
		ctx.st = NULL;
		err = td_groups[i]->fill(skb, &ctx);
		if (err && err != -ENOENT)
			goto err_cancel;
		st[i] = ctx.st;
	}
	err = td_fill_locked(&ctx, st);
	if (err)
		goto err_cancel;

	if (exec_locked) {
		up_read(&task->signal->exec_update_lock);
		exec_locked = false;
	}
	/* Only mem, the last group, has one: its attribute is the skb's last. */
	for (i = 0; i < ARRAY_SIZE(td_groups); i++) {
		if (!st[i] || !td_groups[i]->late)
			continue;
		err = td_groups[i]->late(skb, &ctx, st[i]);
		if (err && err != -ENOENT)
			goto err_cancel;
	}
	if (show & TASK_DIAG_SHOW_CMDLINE) {
		err = td_cmdline_fill(skb, &ctx);
		if (err && err != -ENOENT)
			goto err_cancel;
	}
	genlmsg_end(skb, hdr);
	err = 0;
	goto out_put_mm;

err_cancel:
	genlmsg_cancel(skb, hdr);
out_put_mm:
	/*
	 * Under cb_lock (a do) the last reference of an mm that exited
	 * meanwhile is dropped by a worker: exit_mmap() and exit_aio() (which
	 * waits for the target's I/O, a FUSE daemon's to answer) do not run
	 * under the lock. In a dump's recvmsg() the sender pays for it itself.
	 */
	if (ctx.mm && view->nowait)
		mmput_async(ctx.mm);
	else if (ctx.mm)
		mmput(ctx.mm);
out_unlock:
	if (exec_locked)
		up_read(&task->signal->exec_update_lock);
	return err;
}

/*
 * Does @task belong to the dump? Called under rcu_read_lock() with the
 * task that @pid names for @type.
 */
static bool td_scope_match(const struct td_dump *d, struct task_struct *task)
{
	switch (d->scope) {
	case TASK_DIAG_SCOPE_THREADS:
		return task_tgid(task) == d->target;
	case TASK_DIAG_SCOPE_CHILDREN:
		return task_tgid(rcu_dereference(task->real_parent)) == d->target;
	default:
		return true;
	}
}

/*
 * Up to this many threads, the threads scope walks the process's thread
 * list; past it, the pids of the namespace (see td_next_thread()).
 */
#define TD_THREAD_WALK_MAX 256

/*
 * The thread of the target process whose pid (in the requester's
 * namespace) is the smallest at least d->next_nr, referenced, with
 * d->next_nr set to it; NULL when there is none. The thread list is not in
 * pid order, so each call walks all of it: a dump costs threads² steps,
 * which beats walking every pid of the namespace for a process of up to
 * TD_THREAD_WALK_MAX threads. Sets *@walked to false, and does nothing,
 * for a larger one.
 */
static struct task_struct *td_next_thread(struct td_dump *d, bool *walked)
{
	struct task_struct *leader, *t, *best = NULL;
	pid_t nr, best_nr = 0;

	*walked = true;
	rcu_read_lock();
	leader = pid_task(d->target, PIDTYPE_TGID);
	if (leader && get_nr_threads(leader) > TD_THREAD_WALK_MAX) {
		*walked = false;
		leader = NULL;
	}
	if (leader) {
		for_each_thread(leader, t) {
			nr = task_pid_nr_ns(t, d->subj->ns);
			if (nr > 0 && nr >= d->next_nr && (!best || nr < best_nr)) {
				best = t;
				best_nr = nr;
			}
		}
	}
	if (best) {
		get_task_struct(best);
		d->next_nr = best_nr;
	}
	rcu_read_unlock();
	return best;
}

/*
 * The first task of the dump whose pid is at least d->next_nr, referenced,
 * with d->next_nr set to its pid; NULL when the walk is over. Pids are
 * walked in ascending order in the requester's namespace, so the walk
 * resumes by key whatever happened between two calls.
 */
static struct task_struct *td_next_task(struct td_dump *d)
{
	bool whole = td_scope_whole(d->scope);
	enum pid_type type = whole ? PIDTYPE_TGID : PIDTYPE_PID;
	const struct td_filter *f = &d->subj->filter;
	struct task_struct *task = NULL;
	unsigned int skipped = 0, read = 0;
	struct pid *pid;
	bool walked;
	u32 nr;

	if (d->scope == TASK_DIAG_SCOPE_THREADS) {
		task = td_next_thread(d, &walked);
		if (walked)
			return task;
	}
	if (d->scope == TASK_DIAG_SCOPE_TASK) {
		/* One task: the one PID names, once. */
		if (d->next_nr)
			return NULL;
		rcu_read_lock();
		task = pid_task(d->target, PIDTYPE_PID);
		if (task)
			get_task_struct(task);
		rcu_read_unlock();
		d->next_nr = 1;
		return task;
	}

	rcu_read_lock();
	for (;;) {
		/* With filter-pid: from one listed pid to the next. */
		if (!td_filter_next_pid(f, &d->next_nr))
			break;
		pid = find_ge_pid(d->next_nr, d->subj->ns);
		if (!pid)
			break;
		nr = pid_nr_ns(pid, d->subj->ns);
		if (f->pids.n && nr != d->next_nr) {
			/* No task has the listed pid: on to the next one >= nr. */
			d->next_nr = nr;
			continue;
		}
		d->next_nr = nr;
		task = pid_task(pid, type);
		/*
		 * A task ran-since leaves out whatever else is asked is left
		 * here, before a reference or a pid lookup more (see
		 * td_filter_walk_skip()).
		 */
		if (task && td_scope_match(d, task) &&
		    !td_filter_walk_skip(d->subj, task, whole, &read)) {
			get_task_struct(task);
			break;
		}
		task = NULL;
		d->next_nr++;
		/*
		 * Long runs of pids that are not ours, or of tasks (threads)
		 * that did not run: let others in.
		 */
		if (++skipped + read >= 1024) {
			skipped = 0;
			read = 0;
			rcu_read_unlock();
			cond_resched();
			rcu_read_lock();
		}
	}
	rcu_read_unlock();
	return task;
}

static int td_parse_req(struct nlattr **attrs, bool dump, u32 *scope, u32 *show,
			struct pid **target, struct td_subject *subj,
			struct netlink_ext_ack *extack)
{
	bool alive, leader;
	struct pid *pid;
	u32 nr = 0;

	*scope = dump ? TASK_DIAG_SCOPE_ALL_PROCESSES : TASK_DIAG_SCOPE_TASK;
	if (attrs[TASK_DIAG_A_TASK_SCOPE])
		*scope = nla_get_u32(attrs[TASK_DIAG_A_TASK_SCOPE]);
	*show = attrs[TASK_DIAG_A_TASK_SHOW] ? nla_get_u32(attrs[TASK_DIAG_A_TASK_SHOW]) : 0;
	if (attrs[TASK_DIAG_A_TASK_PID])
		nr = nla_get_u32(attrs[TASK_DIAG_A_TASK_PID]);
	*target = NULL;

	if (!dump && *scope != TASK_DIAG_SCOPE_TASK) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_TASK_SCOPE],
				    "only the task scope can be used without NLM_F_DUMP");
		return -EINVAL;
	}

	switch (*scope) {
	case TASK_DIAG_SCOPE_ALL_PROCESSES:
	case TASK_DIAG_SCOPE_ALL_THREADS:
		if (nr) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_TASK_PID],
					    "this scope takes no pid");
			return -EINVAL;
		}
		return 0;
	default:
		break;
	}

	if (!nr) {
		NL_SET_ERR_MSG(extack, "this scope needs the pid attribute");
		return -EINVAL;
	}
	rcu_read_lock();
	pid = find_pid_ns(nr, subj->ns);
	alive = pid && pid_task(pid, PIDTYPE_PID);
	leader = pid && pid_task(pid, PIDTYPE_TGID);
	*target = get_pid(pid);
	rcu_read_unlock();
	if (!alive)
		goto err_no_pid;
	/*
	 * A pid the sender's /proc hides does not exist for it; one that /proc
	 * lists but does not open (hidepid=noaccess) has no threads or
	 * children to show.
	 */
	switch (td_target_visibility(subj, *target)) {
	case TD_VIS_FULL:
		break;
	case TD_VIS_LISTED:
		if (*scope == TASK_DIAG_SCOPE_TASK)
			break;
		NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_TASK_PID],
				    "the hidepid= of /proc forbids access to this pid");
		put_pid(*target);
		*target = NULL;
		return -EACCES;
	case TD_VIS_HIDDEN:
		goto err_no_pid;
	}
	if (*scope != TASK_DIAG_SCOPE_TASK && !leader) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_TASK_PID],
				    "pid is not a process (thread-group leader)");
		goto err_put_target;
	}
	return 0;

err_no_pid:
	NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_TASK_PID], "no such pid");
err_put_target:
	put_pid(*target);
	*target = NULL;
	return -ESRCH;
}

static int td_dump_start(struct netlink_callback *cb)
{
	struct nlattr **attrs = td_dump_attrs(cb);
	struct td_dump *d = td_dump_ctx(cb);
	struct netlink_ext_ack ext = {};

	memset(d, 0, sizeof(*d));
	d->subj = td_subject_new(cb->skb, attrs, &ext, &d->err);
	if (d->subj)
		d->err = td_parse_req(attrs, true, &d->scope, &d->show, &d->target,
				      d->subj, &ext) ?:
			 td_filter_parse(&d->subj->filter, attrs, true, &ext);
	else if (d->err == -ENOMEM)
		return -ENOMEM;
	d->err_msg = ext._msg;
	if (d->show & TD_SHOW_VARIABLE)
		cb->min_dump_alloc = TD_DUMP_MIN_ALLOC;
	return 0;
}

static int td_dump_done(struct netlink_callback *cb)
{
	struct td_dump *d = td_dump_ctx(cb);

	put_pid(d->target);
	td_subject_free(d->subj);
	return 0;
}

/**
 * td_dump_header() - the first batch of a dump
 * @skb: the batch
 * @cb: the dump
 * @cmd: the dump's command
 *
 * netlink writes a dump's first batch inside the sender's sendmsg(), under
 * genetlink's cb_lock, which every generic netlink request and family
 * registration of the machine shares. That batch holds one NLMSG_NOOP
 * message (netlink's "nothing: ignore it", which libnl, libmnl, the kernel's
 * C YNL library and libtaskdiag skip) and no task: every task, every lock
 * of a target, every mm reference put and every page walk happens in the
 * sender's own later recvmsg() calls, outside any lock of others. It costs
 * a dump one recvmsg() more. Its payload is a generic netlink header of
 * @cmd and no attribute: the kernel's Python YNL, which decodes every
 * message of a reply as the family's, reads it as an empty record.
 *
 * Return: the batch's length, or -EMSGSIZE.
 */
int td_dump_header(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd)
{
	struct genlmsghdr *hdr;
	struct nlmsghdr *nlh;

	nlh = nlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, NLMSG_NOOP,
			GENL_HDRLEN, NLM_F_MULTI);
	if (!nlh)
		return -EMSGSIZE;
	hdr = nlmsg_data(nlh);
	hdr->cmd = cmd;
	hdr->version = TASK_DIAG_FAMILY_VERSION;
	hdr->reserved = 0;
	nlmsg_end(skb, nlh);
	return skb->len;
}

static int td_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct td_dump *d = td_dump_ctx(cb);
	struct task_struct *task;
	u32 first = d->next_nr;
	struct td_view view;
	int err;

	if (d->err) {
		if (cb->extack)
			cb->extack->_msg = d->err_msg;
		return d->err;
	}

	if (!d->started) {
		d->started = true;
		return td_dump_header(skb, cb, TASK_DIAG_CMD_GET);
	}
	/* Written only for the sender, in its recvmsg(): td_view_init(). */
	err = td_view_init(&view, d->subj, false, cb->extack);
	if (err)
		return err;
	while ((task = td_next_task(d))) {
		/* The walk found the task by its pid number: no second lookup. */
		err = td_fill_task(skb, &view, task,
				   d->scope == TASK_DIAG_SCOPE_TASK ? 0 : d->next_nr,
				   d->show, d->scope,
				   NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				   NLM_F_MULTI);
		put_task_struct(task);
		if (err && err != -ESRCH) {
			/*
			 * Full (or out of memory): the next call retries this
			 * task. If not even one task fits, the reader's buffer
			 * is too small: fail rather than loop.
			 */
			if (!skb->len) {
				d->next_nr = first;
				return err;
			}
			break;
		}
		/* Written, gone since we found it, or hidden: move on. */
		d->next_nr++;
		cond_resched();
	}
	return skb->len;
}

/* The most room one task's message takes with the groups @show asks for. */
static size_t td_msg_size(u32 show)
{
	size_t size = 2 * nla_total_size(sizeof(u32));	/* PID, TGID */
	int i;

	for (i = 0; i < ARRAY_SIZE(td_groups); i++)
		if (show & td_groups[i]->show)
			size += td_groups[i]->msg_size();
	if (show & TASK_DIAG_SHOW_CMDLINE)
		size += td_cmdline_msg_size();
	return size;
}

static int td_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct td_subject *subj;
	struct task_struct *task;
	struct td_view view;
	struct sk_buff *msg;
	struct pid *target;
	u32 scope, show;
	int err;

	subj = td_subject_new(skb, info->attrs, info->extack, &err);
	if (!subj)
		return err;
	/* Filters need a dump: this only refuses them, with a message. */
	err = td_filter_parse(&subj->filter, info->attrs, false, info->extack);
	if (err)
		goto err_free_subj;
	err = td_parse_req(info->attrs, false, &scope, &show, &target, subj,
			   info->extack);
	if (err)
		goto err_free_subj;

	err = -ESRCH;
	task = get_pid_task(target, PIDTYPE_PID);
	if (!task) {
		GENL_SET_ERR_MSG(info, "the task exited");
		goto err_put_target;
	}

	err = -ENOMEM;
	msg = genlmsg_new(td_msg_size(show), GFP_KERNEL);
	if (!msg)
		goto err_put_task;
	/* A do runs under cb_lock: no waiting for the task's locks. */
	td_view_init(&view, subj, true, NULL);
	err = td_fill_task(msg, &view, task, 0, show, scope, info->snd_portid,
			   info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		if (err == -ESRCH)
			GENL_SET_ERR_MSG(info, "the task exited");
		goto err_put_task;
	}
	err = genlmsg_reply(msg, info);

err_put_task:
	put_task_struct(task);
err_put_target:
	put_pid(target);
err_free_subj:
	td_subject_free(subj);
	return err;
}

static const struct genl_ops td_ops[] = {
	{
		.cmd = TASK_DIAG_CMD_GET,
		.doit = td_doit,
		.start = td_dump_start,
		.dumpit = td_dumpit,
		.done = td_dump_done,
		.policy = td_req_policy,
		.maxattr = TASK_DIAG_A_TASK_MAX,
	},
	{
		.cmd = TASK_DIAG_CMD_GET_VMA,
		.start = td_vma_dump_start,
		.dumpit = td_vma_dumpit,
		.done = td_vma_dump_done,
		.policy = td_get_vma_policy,
		.maxattr = TASK_DIAG_A_VMA_MAX,
	},
};

struct genl_family td_family __ro_after_init = {
	.name = TASK_DIAG_FAMILY_NAME,
	.version = TASK_DIAG_FAMILY_VERSION,
	.netnsok = true,
	/*
	 * No state is shared between requests (a dump's cursor lives in its
	 * netlink_callback, serialised per socket by netlink), so requests
	 * need not wait for each other on genl_mutex.
	 */
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = td_ops,
	.n_ops = ARRAY_SIZE(td_ops),
	.resv_start_op = TASK_DIAG_CMD_GET,
};

static int __init td_init(void)
{
	td_vma_init();
	return genl_register_family(&td_family);
}

static void __exit td_exit(void)
{
	genl_unregister_family(&td_family);
}

module_init(td_init);
module_exit(td_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("task_diag developers");
MODULE_DESCRIPTION("task_diag: per-task information over generic netlink");
/*
 * No MODULE_ALIAS_GENL_FAMILY(): any user's CTRL_CMD_GETFAMILY would load
 * the module (and register a family, which takes cb_lock for writing);
 * the package loads it at boot (modules-load.d), or the administrator does.
 */
