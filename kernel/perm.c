// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: who may see the fields procfs guards with a ptrace read check.
 *
 * ptrace_may_access() is not exported to modules. This re-implements the
 * discretionary part of __ptrace_may_access(PTRACE_MODE_READ_FSCREDS) for a
 * credential fixed at request time; the LSM hook (Yama, SELinux, ...) cannot
 * be called from a module. The ptrace_cap_only parameter closes that gap
 * for those who need it by requiring CAP_SYS_PTRACE.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/module.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/user_namespace.h>

#include "task_diag.h"

bool td_ptrace_cap_only;
module_param_named(ptrace_cap_only, td_ptrace_cap_only, bool, 0644);
MODULE_PARM_DESC(ptrace_cap_only,
		 "Send ptrace-guarded fields (io, stat addresses, wchan, exit code) only to requesters with CAP_SYS_PTRACE in the initial user namespace (default: procfs rules)");

/*
 * ns_capable() for a stored credential instead of current's: the dump may
 * be continued by whichever process reads the socket. security_capable() is
 * not exported, so borrow the credential for the duration of the check.
 */
static bool td_cred_capable(const struct cred *cred, struct user_namespace *ns,
			    int cap)
{
	const struct cred *old;
	bool ok;

	if (cred == current_cred())
		return ns_capable_noaudit(ns, cap);
	old = override_creds(cred);
	ok = ns_capable_noaudit(ns, cap);
	revert_creds(old);
	return ok;
}

static void td_caps_get(const struct cred *cred, struct td_caps *caps)
{
	caps->ptrace = td_cred_capable(cred, &init_user_ns, CAP_SYS_PTRACE);
	caps->dac = td_cred_capable(cred, cred->user_ns, CAP_DAC_READ_SEARCH) ||
		    td_cred_capable(cred, cred->user_ns, CAP_DAC_OVERRIDE);
}

/**
 * td_subject_caps() - look up the subject's capabilities once per request
 * @s: the subject, its credentials set
 *
 * Whether each credential holds CAP_SYS_PTRACE over the initial user
 * namespace, the namespace of almost every task a dump visits, and a DAC
 * override (CAP_DAC_READ_SEARCH or CAP_DAC_OVERRIDE) in its own: the
 * per-task checks use the answers instead of asking the capability module
 * and the LSMs again for every task. Credentials are immutable, so the
 * answers hold for the whole request. Called in the sender's context.
 */
void td_subject_caps(struct td_subject *s)
{
	td_caps_get(s->sender, &s->sender_caps);
	if (s->opener)
		td_caps_get(s->opener, &s->opener_caps);
}

/* CAP_SYS_PTRACE over @ns, from the cached answer for the initial namespace. */
static bool td_cred_ptrace(const struct cred *cred, const struct td_caps *caps,
			   struct user_namespace *ns)
{
	if (ns == &init_user_ns)
		return caps->ptrace;
	return td_cred_capable(cred, ns, CAP_SYS_PTRACE);
}

/*
 * The DAC part of __ptrace_may_access(task, PTRACE_MODE_READ_FSCREDS);
 * @caps: what td_subject_caps() found for @cred.
 */
static bool td_cred_may_read(const struct cred *cred, const struct td_caps *caps,
			     struct task_struct *task)
{
	const struct cred *tcred;
	struct mm_struct *mm;
	bool ok;

	if (td_ptrace_cap_only)
		return caps->ptrace;

	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (uid_eq(cred->fsuid, tcred->euid) &&
	      uid_eq(cred->fsuid, tcred->suid) &&
	      uid_eq(cred->fsuid, tcred->uid) &&
	      gid_eq(cred->fsgid, tcred->egid) &&
	      gid_eq(cred->fsgid, tcred->sgid) &&
	      gid_eq(cred->fsgid, tcred->gid)) ||
	     td_cred_ptrace(cred, caps, tcred->user_ns);
	/*
	 * The capability module's ptrace hook (cap_ptrace_access_check(),
	 * always on): a caller without CAP_SYS_PTRACE over the task must hold
	 * every capability the task is permitted, in the same user namespace.
	 */
	ok = ok && ((cred->user_ns == tcred->user_ns &&
		     cap_issubset(tcred->cap_permitted, cred->cap_effective)) ||
		    td_cred_ptrace(cred, caps, tcred->user_ns));
	rcu_read_unlock();
	if (!ok)
		return false;

	/* Pairs with the write barrier in commit_creds(), as in ptrace. */
	smp_rmb();
	task_lock(task);
	mm = task->mm;
	if (mm)
		ok = get_dumpable(mm) == SUID_DUMP_USER ||
		     td_cred_ptrace(cred, caps, mm->user_ns);
	else
		ok = task->user_dumpable || caps->ptrace;
	task_unlock(task);
	return ok;
}

/**
 * td_may_read() - may the requester see @ctx->task's guarded fields?
 * @ctx: the task being written; the answer is cached in it
 *
 * True when both the sender's and the socket opener's credentials pass the
 * check procfs makes before showing /proc/PID/io or the guarded /proc/PID/stat
 * fields. The sender's own thread group always passes, as in ptrace.
 */
bool td_may_read(struct td_task_ctx *ctx)
{
	const struct td_subject *s = ctx->subj;
	bool ok;

	if (ctx->perm >= 0)
		return ctx->perm;

	if (!td_ptrace_cap_only && task_tgid(ctx->task) == s->sender_tgid)
		ok = true;
	else
		ok = td_cred_may_read(s->sender, &s->sender_caps, ctx->task);
	ok = ok && (!s->opener || td_cred_may_read(s->opener, &s->opener_caps, ctx->task));
	ctx->perm = ok;
	return ok;
}

/*
 * The owner procfs gives /proc/PID/io (task_dump_owner()): root for kernel
 * threads and tasks without an mm, the root of the mm's user namespace (or
 * global root if it has none) for non-dumpable tasks, else the task's euid
 * and egid. The file is mode 0400.
 */
static bool td_cred_may_open_io(const struct cred *cred, const struct td_caps *caps,
				struct task_struct *task)
{
	const struct cred *tcred;
	struct mm_struct *mm;
	kuid_t uid = GLOBAL_ROOT_UID;
	kgid_t gid = GLOBAL_ROOT_GID;

	if (!(task->flags & PF_KTHREAD)) {
		rcu_read_lock();
		tcred = __task_cred(task);
		uid = tcred->euid;
		gid = tcred->egid;
		rcu_read_unlock();

		task_lock(task);
		mm = task->mm;
		if (!mm) {
			uid = GLOBAL_ROOT_UID;
			gid = GLOBAL_ROOT_GID;
		} else if (get_dumpable(mm) != SUID_DUMP_USER) {
			uid = make_kuid(mm->user_ns, 0);
			if (!uid_valid(uid))
				uid = GLOBAL_ROOT_UID;
			gid = make_kgid(mm->user_ns, 0);
			if (!gid_valid(gid))
				gid = GLOBAL_ROOT_GID;
		}
		task_unlock(task);
	}
	if (uid_eq(cred->fsuid, uid))
		return true;
	/* generic_permission(): DAC overrides, if the owner maps into the caller's namespace. */
	return caps->dac && kuid_has_mapping(cred->user_ns, uid) &&
	       kgid_has_mapping(cred->user_ns, gid);
}

/**
 * td_may_read_io() - may the requester see @ctx->task's io group?
 * @ctx: the task being written
 *
 * /proc/PID/io adds file permissions to the ptrace read check: it is mode
 * 0400 and owned by root for tasks without an mm (zombies) or that are not
 * dumpable. Both credentials must pass both checks.
 */
bool td_may_read_io(struct td_task_ctx *ctx)
{
	const struct td_subject *s = ctx->subj;

	if (!td_may_read(ctx))
		return false;
	return td_cred_may_open_io(s->sender, &s->sender_caps, ctx->task) &&
	       (!s->opener || td_cred_may_open_io(s->opener, &s->opener_caps, ctx->task));
}
