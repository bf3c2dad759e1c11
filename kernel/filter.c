// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: the request filters (filter-pid, filter-uid, filter-euid,
 * filter-cgroup-id, filter-cgroup-path, filter-comm) and "ran since".
 *
 * A dump's filters are parsed once, in the sender's context, into the
 * request's struct td_filter; each task the walk visits is then matched
 * after the hidepid= checks and before any group is computed. Every filter
 * but filter-pid tests something a listing of /proc does not show, so a
 * task the requester may only list (hidepid=noaccess) never matches one:
 * a filter must not become a way to learn what /proc withholds.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/err.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/uidgid.h>

#include <linux/task_diag.h>
#include "task_diag.h"

static int td_u32_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * Copy a u32-array filter out of the request, sorted. The policy bounds
 * its length to 4..4096 bytes; a length that is not a multiple of 4 and,
 * for pids, a value outside 1..PID_MAX_LIMIT are refused here.
 */
static int td_filter_ids(const struct nlattr *attr, bool pids, struct td_ids *ids,
			 struct netlink_ext_ack *extack)
{
	u32 n;

	if (!attr)
		return 0;
	if (nla_len(attr) % sizeof(u32)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "an id list is an array of u32 (length a multiple of 4)");
		return -EINVAL;
	}
	n = nla_len(attr) / sizeof(u32);
	ids->v = kmemdup(nla_data(attr), n * sizeof(u32), GFP_KERNEL);
	if (!ids->v)
		return -ENOMEM;
	ids->n = n;
	sort(ids->v, n, sizeof(u32), td_u32_cmp, NULL);
	if (pids && (ids->v[0] < 1 || ids->v[n - 1] > PID_MAX_LIMIT)) {
		NL_SET_ERR_MSG_ATTR(extack, attr,
				    "filter-pid: each pid must be 1 to PID_MAX_LIMIT");
		return -EINVAL;
	}
	return 0;
}

static bool td_ids_has(const struct td_ids *ids, u32 v)
{
	u32 lo = 0, hi = ids->n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (ids->v[mid] < v)
			lo = mid + 1;
		else if (ids->v[mid] > v)
			hi = mid;
		else
			return true;
	}
	return false;
}

/* The cgroup of filter-cgroup-id or filter-cgroup-path, referenced. */
static int td_filter_cgroup(struct td_filter *f, struct nlattr **attrs,
			    struct netlink_ext_ack *extack)
{
	const struct nlattr *id = attrs[TASK_DIAG_A_TASK_FILTER_CGROUP_ID];
	const struct nlattr *path = attrs[TASK_DIAG_A_TASK_FILTER_CGROUP_PATH];
	struct cgroup *cgrp;

	if (!id && !path)
		return 0;
	if (id && path) {
		NL_SET_ERR_MSG_ATTR(extack, path,
				    "give filter-cgroup-id or filter-cgroup-path, not both");
		return -EINVAL;
	}
	if (path && ((const char *)nla_data(path))[0] != '/') {
		NL_SET_ERR_MSG_ATTR(extack, path, "filter-cgroup-path must start with /");
		return -EINVAL;
	}
	/* Both resolve within current's (the sender's) cgroup namespace. */
	cgrp = id ? cgroup_get_from_id(nla_get_u64(id)) : cgroup_get_from_path(nla_data(path));
	if (IS_ERR(cgrp)) {
		NL_SET_ERR_MSG_ATTR(extack, id ?: path,
				    "no such cgroup in the sender's cgroup namespace (unified hierarchy)");
		return PTR_ERR(cgrp) == -ENOMEM ? -ENOMEM : -ENOENT;
	}
	f->cgrp = cgrp;
	return 0;
}

/**
 * td_filter_parse() - read a request's filters into @f
 * @f: zeroed; filled (free it with td_filter_free() whatever the result)
 * @attrs: the request's attributes
 * @dump: the request is a dump (filters are refused in a do)
 * @extack: for the message of a refused request
 *
 * Called in the sender's context (cgroups resolve in its cgroup namespace);
 * may sleep.
 *
 * Return: 0, -EINVAL for a bad filter, -ENOENT for an unknown cgroup, or
 * -ENOMEM.
 */
int td_filter_parse(struct td_filter *f, struct nlattr **attrs, bool dump,
		    struct netlink_ext_ack *extack)
{
	static const int any_filter[] = {
		TASK_DIAG_A_TASK_FILTER_PID, TASK_DIAG_A_TASK_FILTER_UID,
		TASK_DIAG_A_TASK_FILTER_EUID, TASK_DIAG_A_TASK_FILTER_CGROUP_ID,
		TASK_DIAG_A_TASK_FILTER_CGROUP_PATH, TASK_DIAG_A_TASK_FILTER_COMM,
		TASK_DIAG_A_TASK_RAN_SINCE, TASK_DIAG_A_TASK_RAN_SINCE_IDLE,
	};
	const struct nlattr *comm = attrs[TASK_DIAG_A_TASK_FILTER_COMM];
	int i, err;

	for (i = 0; i < ARRAY_SIZE(any_filter); i++) {
		if (attrs[any_filter[i]] && !dump) {
			NL_SET_ERR_MSG_ATTR(extack, attrs[any_filter[i]],
					    "filters and ran-since need a dump (NLM_F_DUMP)");
			return -EINVAL;
		}
	}
	if (attrs[TASK_DIAG_A_TASK_RAN_SINCE_IDLE] && !attrs[TASK_DIAG_A_TASK_RAN_SINCE]) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[TASK_DIAG_A_TASK_RAN_SINCE_IDLE],
				    "ran-since-idle needs ran-since");
		return -EINVAL;
	}
	if (comm) {
		if (nla_strscpy(f->comm, comm, sizeof(f->comm)) <= 0) {
			NL_SET_ERR_MSG_ATTR(extack, comm, "filter-comm must be 1 to 15 bytes");
			return -EINVAL;
		}
		f->has_comm = true;
	}
	err = td_filter_ids(attrs[TASK_DIAG_A_TASK_FILTER_PID], true, &f->pids, extack) ?:
	      td_filter_ids(attrs[TASK_DIAG_A_TASK_FILTER_UID], false, &f->uids, extack) ?:
	      td_filter_ids(attrs[TASK_DIAG_A_TASK_FILTER_EUID], false, &f->euids, extack) ?:
	      td_filter_cgroup(f, attrs, extack);
	if (err)
		return err;
	if (attrs[TASK_DIAG_A_TASK_RAN_SINCE]) {
		f->ran_since = true;
		f->since = nla_get_u64(attrs[TASK_DIAG_A_TASK_RAN_SINCE]);
		f->idle = nla_get_flag(attrs[TASK_DIAG_A_TASK_RAN_SINCE_IDLE]);
		/* What the next request sends: the clock before any task is read. */
		f->stamp = local_clock();
	}
	f->guarded = f->uids.n || f->euids.n || f->cgrp || f->has_comm || f->ran_since;
	return 0;
}

/**
 * td_filter_free() - release what td_filter_parse() took
 * @f: the filters
 */
void td_filter_free(struct td_filter *f)
{
	kfree(f->pids.v);
	kfree(f->uids.v);
	kfree(f->euids.v);
	if (f->cgrp)
		cgroup_put(f->cgrp);
}

/**
 * td_filter_next_pid() - move a walk's next pid to one filter-pid lists
 * @f: the filters
 * @nr: the smallest pid the walk may visit next; raised to the smallest
 *      listed pid at least @nr
 *
 * Return: false when filter-pid lists no pid at least @nr (the walk is
 * over), else true (always, without filter-pid).
 */
bool td_filter_next_pid(const struct td_filter *f, u32 *nr)
{
	u32 lo = 0, hi = f->pids.n;

	if (!f->pids.n)
		return true;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (f->pids.v[mid] < *nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == f->pids.n)
		return false;
	*nr = f->pids.v[lo];
	return true;
}

/*
 * May @t have run since @since? See the ran-since doc of the spec and
 * td_sched_ran_since() in compat.h. Reads the scheduler's fields without
 * its locks, on_cpu first (td_task_on_cpu()): a task that stopped after
 * @since has its last-run time written before on_cpu was cleared; one
 * migrated since has it zeroed, which counts as ran.
 */
static bool td_thread_ran(struct task_struct *t, u64 since)
{
	if (td_task_on_cpu(t) || td_task_queued(t))
		return true;
	return td_sched_ran_since(READ_ONCE(t->se.exec_start), since);
}

/*
 * Did @task (with @whole, any of its threads) run since @since? The task
 * itself first: a process of one thread, most of them, is answered from
 * its task_struct alone, without the signal_struct the thread list hangs
 * from (one more object per task that nothing else a skipped task costs
 * reads). thread_group_empty() reads the list without a lock: a thread
 * created after the read was created by one that ran after the request's
 * stamp, which the next request counts. Adds the threads read to *@read.
 */
static bool td_task_ran(struct task_struct *task, bool whole, u64 since,
			unsigned int *read)
{
	struct task_struct *t;
	bool ran = false;

	++*read;
	if (td_thread_ran(task, since))
		return true;
	if (!whole || thread_group_empty(task))
		return false;
	rcu_read_lock();
	for_each_thread(task, t) {
		if (t == task)
			continue;
		++*read;
		if (td_thread_ran(t, since)) {
			ran = true;
			break;
		}
	}
	rcu_read_unlock();
	return ran;
}

/**
 * td_filter_walk_skip() - may the walk leave @task out before it is referenced?
 * @subj: the requester
 * @task: the task the walk found, under rcu_read_lock()
 * @whole: the dump's values are whole-process ones
 * @read: the threads read are added to it (the walk's cond_resched() count)
 *
 * Only where the answer is the one td_filter_match() would give, whatever
 * /proc shows and whatever the other filters say: a ran-since request
 * without ran-since-idle records, by a requester whose /proc hides no
 * task (hidepid=off), for a task that did not run. Under hidepid=, the
 * visibility decision comes first (td_fill_task()): whether a task /proc
 * hides ran must not shape the dump, not even its time.
 *
 * Return: true to leave @task out.
 */
bool td_filter_walk_skip(const struct td_subject *subj, struct task_struct *task,
			 bool whole, unsigned int *read)
{
	const struct td_filter *f = &subj->filter;

	if (!f->ran_since || f->idle || subj->hide_pid != HIDEPID_OFF)
		return false;
	return !td_task_ran(task, whole, f->since, read);
}

/**
 * td_filter_match() - does the task of @ctx pass the request's filters?
 * @ctx: the task being written
 * @vis: what the requester's /proc shows of it
 * @nr: its pid in the requester's namespace
 *
 * Called without locks; takes rcu_read_lock() for the credentials, the
 * cgroup and the thread list. Cheap tests first.
 *
 * Return: TD_MATCH_YES, TD_MATCH_NO (leave the task out), or
 * TD_MATCH_IDLE (it passes every filter but did not run since ran-since,
 * and the request asked for ran-since-idle records).
 */
enum td_match td_filter_match(struct td_task_ctx *ctx, enum td_vis vis, pid_t nr)
{
	const struct td_filter *f = &ctx->subj->filter;
	struct task_struct *task = ctx->task;
	struct user_namespace *ns = ctx->subj->user_ns;
	unsigned int read = 0;
	bool ok = true, ran;

	if (f->pids.n && !td_ids_has(&f->pids, nr))
		return TD_MATCH_NO;
	if (!f->guarded)
		return TD_MATCH_YES;
	if (vis != TD_VIS_FULL)
		return TD_MATCH_NO;
	if (f->uids.n || f->euids.n) {
		const struct cred *cred;

		rcu_read_lock();
		cred = __task_cred(task);
		ok = (!f->uids.n || td_ids_has(&f->uids, from_kuid_munged(ns, cred->uid))) &&
		     (!f->euids.n || td_ids_has(&f->euids, from_kuid_munged(ns, cred->euid)));
		rcu_read_unlock();
		if (!ok)
			return TD_MATCH_NO;
	}
	if (f->has_comm) {
		char comm[TASK_COMM_LEN];

		get_task_comm(comm, task);
		if (strcmp(comm, f->comm))
			return TD_MATCH_NO;
	}
	if (f->cgrp) {
		rcu_read_lock();
		ok = task_under_cgroup_hierarchy(task, f->cgrp);
		rcu_read_unlock();
		if (!ok)
			return TD_MATCH_NO;
	}
	if (!f->ran_since)
		return TD_MATCH_YES;
	ran = td_task_ran(task, ctx->whole, f->since, &read);
	if (ran)
		return TD_MATCH_YES;
	return f->idle ? TD_MATCH_IDLE : TD_MATCH_NO;
}
