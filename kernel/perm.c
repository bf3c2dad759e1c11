// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: what each party may see, as procfs decides it.
 *
 * A reply is written only for the process that sent the request: a do in
 * its sendmsg(), a dump's tasks in its own later recvmsg() calls (the
 * first batch, under genetlink's cb_lock, holds no task), and a dump read
 * by another thread group, or by the sender after an execve(), ends with
 * EPERM (td_view_init()). Two parties bound every part: the sender, with
 * the credentials it holds when the part is written, and the credentials
 * the socket was opened with. Each must pass the check procfs would make
 * for it, so the reply never holds more than the sender's /proc would show
 * it then, nor more than the opener's.
 *
 * ptrace_may_access() checks current; the opener is a stored credential.
 * This re-implements the discretionary part of
 * __ptrace_may_access(PTRACE_MODE_READ_FSCREDS) for a given credential and,
 * built into the kernel, asks the LSM hook (SELinux, AppArmor, Landlock) as
 * that credential. A module cannot call the hook (it is not exported); two
 * parameters close that gap there: a party with no_new_privs (every
 * Landlock domain and seccomp sandbox has it) is given other processes'
 * guarded data only with CAP_SYS_PTRACE (nnp_cap_only, on by default, a
 * module's only), and ptrace_cap_only asks CAP_SYS_PTRACE of every party
 * for guarded fields. The procfs instance the sender sees at
 * /proc (or the one procfs-fd names) decides the view: its pid namespace is
 * the one walked and numbered, its hidepid= and gid= hide tasks as
 * has_pid_permissions() does. A sender with no_new_privs must name its
 * procfs with a descriptor of its root it opened for reading (procfs-fd):
 * that open asked the LSMs' file rules for reading the /proc directory
 * (Landlock's, AppArmor's paths, SELinux's labels), which a netlink request
 * never meets; rules on the files under it are not asked (see
 * docs/kernel-module.md, "Residual risks").
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/fs_struct.h>
#include <linux/magic.h>
#include <linux/mmap_lock.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/pid_namespace.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/sched/clock.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/time_namespace.h>
#include <linux/user_namespace.h>
#include <net/genetlink.h>
#include <net/sock.h>

#include <linux/task_diag.h>
#include "task_diag.h"

bool td_ptrace_cap_only;
module_param_named(ptrace_cap_only, td_ptrace_cap_only, bool, 0644);
MODULE_PARM_DESC(ptrace_cap_only,
		 "Send ptrace-guarded fields (io, stat addresses, wchan, exit code, maps, mem) only to requesters with CAP_SYS_PTRACE in the initial user namespace (default: procfs rules)");

#ifdef MODULE
bool td_nnp_cap_only = true;
module_param_named(nnp_cap_only, td_nnp_cap_only, bool, 0644);
MODULE_PARM_DESC(nnp_cap_only,
		 "A requester with no_new_privs (every Landlock or seccomp sandbox) sees other processes' ptrace-guarded data, and tasks hidepid= hides, only with CAP_SYS_PTRACE: an LSM may confine it where the module cannot look (default: Y; N: the plain DAC rule)");
#else
/* Built in, the LSM hook itself is asked (td_cred_lsm_may_read()). */
bool td_nnp_cap_only;
#endif

/*
 * Has current no_new_privs? An io_uring worker (PF_IO_WORKER) runs a
 * sendmsg() or recvmsg() of its thread group with the submitter's
 * credentials, but keeps the flags it was created with: one made before
 * the group set no_new_privs (or entered a Landlock domain) would pass
 * for a process without it. Such a worker is taken to have it.
 */
static bool td_current_nnp(void)
{
	return task_no_new_privs(current) || (current->flags & PF_IO_WORKER);
}

/*
 * ns_capable() for a stored credential (the opener's) instead of
 * current's. security_capable() is not exported, so borrow the credential
 * for the duration of the check.
 * ns_capable() marks the caller PF_SUPERPRIV when it succeeds ("used
 * super-user privileges", as process accounting reports). The answers are
 * asked once per request, before any task shows whether they are needed
 * (procfs asks only when the uid rule fails), so the flag is left as it
 * was, also when @cred is current's: a root "ps" is not marked for using a
 * privilege it may not have used.
 */
static bool td_cred_capable(const struct cred *cred, struct user_namespace *ns,
			    int cap)
{
	unsigned int superpriv = current->flags & PF_SUPERPRIV;
	const struct cred *old = NULL;
	bool ok;

	if (cred != current_cred())
		old = override_creds(cred);
	ok = ns_capable_noaudit(ns, cap);
	if (old)
		revert_creds(old);
	if (!superpriv)
		current->flags &= ~PF_SUPERPRIV;
	return ok;
}

/* in_group_p() for @cred: its fsgid or one of its (sorted) groups is @gid. */
static bool td_cred_in_group(const struct cred *cred, kgid_t gid)
{
	const struct group_info *gi = cred->group_info;
	unsigned int left = 0, right = gi->ngroups;

	if (gid_eq(cred->fsgid, gid))
		return true;
	while (left < right) {
		unsigned int mid = (left + right) / 2;

		if (gid_gt(gid, gi->gid[mid]))
			left = mid + 1;
		else if (gid_lt(gid, gi->gid[mid]))
			right = mid;
		else
			return true;
	}
	return false;
}

/**
 * td_who_init() - describe one party of a request
 * @w: the party
 * @cred: its credentials (the caller keeps them alive while @w is used)
 * @tgid: its thread group, or NULL when not known (the opener)
 * @s: the request, its procfs options already set (td_subject_procfs())
 *
 * Looks up once whether @cred holds CAP_SYS_PTRACE over the initial user
 * namespace, the namespace of almost every task a dump visits, and a DAC
 * override (CAP_DAC_READ_SEARCH or CAP_DAC_OVERRIDE) in its own: the
 * per-task checks use the answers instead of asking the capability module
 * and the LSMs again for every task. Credentials are immutable, so the
 * answers hold as long as @cred does.
 */
static void td_who_init(struct td_who *w, const struct cred *cred, struct pid *tgid,
			const struct td_subject *s)
{
	w->cred = cred;
	w->tgid = tgid;
	w->caps.ptrace = td_cred_capable(cred, &init_user_ns, CAP_SYS_PTRACE);
	w->caps.dac = td_cred_capable(cred, cred->user_ns, CAP_DAC_READ_SEARCH) ||
		      td_cred_capable(cred, cred->user_ns, CAP_DAC_OVERRIDE);
#ifdef HAVE_MM_ACCESS_PERFMON
	w->caps.perfmon = td_cred_capable(cred, &init_user_ns, CAP_PERFMON) ||
			  td_cred_capable(cred, &init_user_ns, CAP_SYS_ADMIN);
#endif
	w->in_pid_gid = s->hide_pid != HIDEPID_OFF && td_cred_in_group(cred, s->pid_gid);
	w->rule = TD_RULE_DAC;
}

/* Is @ns @ancestor or one of its descendants? */
static bool td_pid_ns_within(struct pid_namespace *ns, struct pid_namespace *ancestor)
{
	while (ns->level > ancestor->level)
		ns = ns->parent;
	return ns == ancestor;
}

/*
 * The hidepid= and gid= of the subject's procfs instance now: procfs reads
 * them at each lookup and listing, so a remount changes what a running
 * dump shows from its next part on.
 */
static void td_subject_read_procfs(struct td_subject *s)
{
	const struct proc_fs_info *fsi = td_proc_fs_info(s->procfs.dentry->d_sb);

	/* Unlocked, as has_pid_permissions() reads them. */
	s->hide_pid = READ_ONCE(fsi->hide_pid);
	s->pid_gid = KGIDT_INIT(READ_ONCE(fsi->pid_gid.val));
}

/*
 * Take the view of the procfs instance @root is the root of: its pid
 * namespace (the tasks it lists, by the numbers it gives them), fixed when
 * the request arrives, and its hidepid= and gid=, read again for each part
 * of the reply (td_subject_read_procfs()), as procfs reads them whenever
 * /proc/PID is opened or listed. The root is held. An instance of a pid
 * namespace that is neither the sender's nor a descendant of it is
 * refused: its numbers mean nothing to the sender, and one of an ancestor
 * would list tasks the sender's own namespace does not hold.
 */
static int td_subject_set_procfs(struct td_subject *s, const struct path *root)
{
	const struct proc_fs_info *fsi = td_proc_fs_info(root->dentry->d_sb);

	if (!td_pid_ns_within(fsi->pid_ns, task_active_pid_ns(current)))
		return -EXDEV;
	s->ns = get_pid_ns(fsi->pid_ns);
	s->procfs = *root;
	path_get(&s->procfs);
	td_subject_read_procfs(s);
	return 0;
}

/*
 * What the sender's "ls /proc" would open, from the caches alone: the
 * dentry "proc" in the sender's root, and the mount on top of it. Nothing
 * here asks a file system (no ->lookup, ->d_revalidate or ->permission,
 * which FUSE answers from user space, or a network file system from the
 * network): the caller holds genetlink's cb_lock. A mount point is always
 * in the dentry cache, so a "proc" that is not there, or is not a mount
 * point (a symlink, a plain directory, a negative entry), has no procfs
 * mounted on it: -EACCES.
 */
static int td_cached_proc(struct path *path)
{
	struct path root;
	struct dentry *d;

	get_fs_root(current->fs, &root);
#ifdef HAVE_EXPORT_D_HASH_AND_LOOKUP
	d = d_hash_and_lookup(root.dentry, &(struct qstr)QSTR_INIT("proc", 4));
#else
	d = try_lookup_noperm(&(struct qstr)QSTR_INIT("proc", 4), root.dentry);
#endif
	if (IS_ERR_OR_NULL(d)) {
		path_put(&root);
		return -EACCES;
	}
	path->mnt = root.mnt;
	path->dentry = d;
	/* follow_down_one() puts the path it leaves and gets the next. */
	mntget(path->mnt);
	path_put(&root);
	if (!d_mountpoint(path->dentry)) {
		path_put(path);
		return -EACCES;
	}
	while (d_mountpoint(path->dentry) && follow_down_one(path))
		;
	return 0;
}

/**
 * td_subject_procfs() - find the procfs instance that decides the view
 * @s: the request
 * @fd_attr: the procfs-fd request attribute, or NULL
 * @extack: for the message of a refused request
 *
 * The instance whose root directory @fd_attr is a descriptor of, or else
 * the one mounted at /proc in the sender's root and mount namespace (what
 * its own ls /proc would read). Called in the sender's context, under
 * genetlink's cb_lock: /proc is found from the dentry and mount caches
 * only (td_cached_proc()), so a root or /proc on a file system that never
 * answers (FUSE) cannot hold the lock: no procfs is mounted there then,
 * and procfs-fd (a descriptor the sender opened itself) is the way round.
 *
 * A sender with no_new_privs (every Landlock domain and seccomp sandbox
 * has it) must pass @fd_attr, opened for reading (not O_PATH): a sandbox
 * whose rules refuse it /proc cannot open one, and the module cannot ask
 * those rules itself.
 *
 * Return: 0, with references on s->ns and s->procfs; -EBADF or -EINVAL
 * for a bad procfs-fd; -EXDEV for an instance of another pid namespace;
 * -EACCES when there is no procfs at /proc, or for a sender with
 * no_new_privs without a readable procfs-fd.
 */
int td_subject_procfs(struct td_subject *s, const struct nlattr *fd_attr,
		      struct netlink_ext_ack *extack)
{
	bool nnp = td_current_nnp();
	struct super_block *sb;
	struct file *file;
	struct path path;
	int err;

	if (fd_attr) {
		/* O_PATH descriptors too, but from a sandbox (see above). */
		file = fget_raw(nla_get_u32(fd_attr));
		if (!file) {
			NL_SET_ERR_MSG_ATTR(extack, fd_attr,
					    "procfs-fd is not an open file descriptor");
			return -EBADF;
		}
		sb = file_inode(file)->i_sb;
		if (nnp && !(file->f_mode & FMODE_READ)) {
			NL_SET_ERR_MSG_ATTR(extack, fd_attr,
					    "a sender with no_new_privs needs procfs-fd opened for reading, not O_PATH");
			err = -EACCES;
		} else if (sb->s_magic != PROC_SUPER_MAGIC || file->f_path.dentry != sb->s_root) {
			NL_SET_ERR_MSG_ATTR(extack, fd_attr,
					    "procfs-fd is not the root directory of a procfs mount");
			err = -EINVAL;
		} else {
			err = td_subject_set_procfs(s, &file->f_path);
			if (err)
				NL_SET_ERR_MSG_ATTR(extack, fd_attr,
						    "procfs-fd is a procfs of a pid namespace that is neither the sender's nor a descendant of it");
		}
		fput(file);
		return err;
	}

	if (nnp) {
		NL_SET_ERR_MSG(extack,
			       "a sender with no_new_privs must name its procfs with procfs-fd, a descriptor of /proc opened for reading");
		return -EACCES;
	}
	err = td_cached_proc(&path);
	if (!err) {
		sb = path.dentry->d_sb;
		err = -EACCES;
		if (sb->s_magic == PROC_SUPER_MAGIC && path.dentry == sb->s_root &&
		    path.dentry == path.mnt->mnt_root)
			err = td_subject_set_procfs(s, &path);
		path_put(&path);
	}
	if (err == -EXDEV) {
		NL_SET_ERR_MSG(extack,
			       "the procfs at /proc is of a pid namespace that is neither the sender's nor a descendant of it: mount one for this namespace, or name one with procfs-fd");
		return err;
	}
	if (err) {
		NL_SET_ERR_MSG(extack,
			       "no procfs mounted at /proc: mount one, or name one with procfs-fd");
		return -EACCES;
	}
	return 0;
}

/**
 * td_view_init() - the parties for the part of a reply written now
 * @v: set up
 * @s: the request
 * @nowait: the part is written under genetlink's cb_lock (see td_view)
 * @extack: for the message of a refused reader, or NULL
 *
 * Called in the context of the process that will receive what is written:
 * the sender, in its sendmsg() (a do, a dump's start) or in the recvmsg()
 * calls that write a dump's tasks. Only the thread group that sent the
 * request, still running the program that sent it, may receive them: a
 * socket handed to another process (over SCM_RIGHTS, across fork()) or
 * read on after an execve() (of a setuid program, say) gets no more of the
 * dump than the one batch netlink had queued for the sender before (as
 * data a read() returned before the hand-over). So the process judged is
 * current, with its credentials of now, and its own thread group's
 * exemption from the ptrace check is its own. The procfs instance's
 * hidepid= and gid= are read again.
 *
 * Return: 0, or -EPERM for any other reader.
 */
int td_view_init(struct td_view *v, struct td_subject *s, bool nowait,
		 struct netlink_ext_ack *extack)
{
	const struct cred *cred = current_cred();

	if (task_tgid(current) != s->tgid || READ_ONCE(current->self_exec_id) != s->exec_id) {
		if (extack)
			NL_SET_ERR_MSG(extack,
				       "a dump is written only for the process that sent the request, in the program that sent it");
		return -EPERM;
	}
	td_subject_read_procfs(s);
	v->subj = s;
	v->nowait = nowait;
	v->deadline = nowait ? local_clock() + TD_NOWAIT_NS : 0;
	td_who_init(&v->self, cred, s->tgid, s);
	if (s->nnp_cap_only && td_current_nnp())
		v->self.rule = TD_RULE_NNP;
	v->who[0] = &v->self;
	v->n = 1;
	if (s->opener && s->opener != cred) {
		td_who_init(&v->opener, s->opener, NULL, s);
		v->who[v->n++] = &v->opener;
	}
	return 0;
}

/*
 * Poll @try_lock(@arg) until it succeeds or @v's deadline passes. A
 * fatal signal ends the wait too (the sender is being killed).
 */
static int td_poll_lock(const struct td_view *v, bool (*try_lock)(void *), void *arg)
{
	for (;;) {
		if (try_lock(arg))
			return 0;
		if (local_clock() >= v->deadline || fatal_signal_pending(current))
			return -EAGAIN;
		usleep_range(50, 100);
	}
}

static bool td_try_down_read(void *sem)
{
	return down_read_trylock(sem);
}

static bool td_try_mmap_read(void *mm)
{
	return mmap_read_trylock(mm);
}

/**
 * td_down_read() - take a target's rw_semaphore for reading
 * @v: the parts being written
 * @sem: the target's exec_update_lock
 *
 * Waits (killably) in a dump's batches, which run in the sender's
 * recvmsg(). Under cb_lock (@v->nowait) a busy lock is polled until
 * @v->deadline only: a task stuck in exec or in a page fault on a file
 * system that never answers (FUSE) holds it for as long as it likes, and a
 * genl_register_family() queued behind our cb_lock would stall every
 * generic netlink family.
 *
 * Return: 0 (held), -EINTR (a fatal signal), -EAGAIN (busy, @v->nowait).
 */
int td_down_read(const struct td_view *v, struct rw_semaphore *sem)
{
	if (v->nowait)
		return td_poll_lock(v, td_try_down_read, sem);
	return down_read_killable(sem);
}

/**
 * td_mmap_read_lock() - take a target's mmap lock for reading
 * @v: the parts being written
 * @mm: the target's mm
 *
 * As td_down_read().
 *
 * Return: 0 (held), -EINTR (a fatal signal), -EAGAIN (busy, @v->nowait).
 */
int td_mmap_read_lock(const struct td_view *v, struct mm_struct *mm)
{
	if (v->nowait)
		return td_poll_lock(v, td_try_mmap_read, mm);
	return mmap_read_lock_killable(mm) ? -EINTR : 0;
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
 * task_still_dumpable() of ptrace: the task is dumpable, or @cred holds
 * CAP_SYS_PTRACE over its exec's user namespace. 7.2 keeps both in
 * task->exec_state, which outlives the mm (an exited task keeps its exec's
 * namespace); up to 6.x they are the mm's, and a task without one asks for
 * the initial namespace unless user_dumpable (Debian's backport) says it was
 * dumpable. The capability check does not sleep (ptrace makes it under
 * task_lock, 7.x under RCU).
 */
static bool td_cred_dumpable_for(const struct cred *cred, const struct td_caps *caps,
				 struct task_struct *task)
{
#ifdef HAVE_TASK_EXEC_STATE
	const struct task_exec_state *es;
	bool ok;

	rcu_read_lock();
	es = rcu_dereference(task->exec_state);
	ok = READ_ONCE(es->dumpable) == TASK_DUMPABLE_OWNER ||
	     td_cred_ptrace(cred, caps, es->user_ns);
	rcu_read_unlock();
	return ok;
#else
	struct mm_struct *mm;
	bool ok;

	task_lock(task);
	mm = task->mm;
	if (mm)
		ok = get_dumpable(mm) == SUID_DUMP_USER ||
		     td_cred_ptrace(cred, caps, mm->user_ns);
	else
		ok = task->user_dumpable || caps->ptrace;
	task_unlock(task);
	return ok;
#endif
}

#ifndef MODULE
/*
 * The LSM part of __ptrace_may_access(task, PTRACE_MODE_READ_FSCREDS),
 * asked as @cred would ask it: Landlock's domain, SELinux's and AppArmor's
 * labels and the capability module's rule are read from the subjective
 * credentials, so @cred is lent to current for the call (as in
 * td_cred_capable(), and for the same reason PF_SUPERPRIV is left as it
 * was). Under task_lock(), as ptrace_may_access() calls it. Not callable
 * from a module: security_ptrace_access_check() is not exported.
 */
static bool td_cred_lsm_may_read(const struct cred *cred, struct task_struct *task)
{
	unsigned int superpriv = current->flags & PF_SUPERPRIV;
	const struct cred *old = NULL;
	int err;

	if (cred != current_cred())
		old = override_creds(cred);
	task_lock(task);
	err = security_ptrace_access_check(task, PTRACE_MODE_READ_FSCREDS);
	task_unlock(task);
	if (old)
		revert_creds(old);
	if (!superpriv)
		current->flags &= ~PF_SUPERPRIV;
	return !err;
}
#endif

/*
 * __ptrace_may_access(task, PTRACE_MODE_READ_FSCREDS) for a stored
 * credential, less the same-thread-group exemption (the caller's): its
 * DAC part, then, built in, the LSM hook; @caps: what td_who_init() found
 * for @cred.
 */
static bool td_cred_may_read(const struct cred *cred, const struct td_caps *caps,
			     struct task_struct *task)
{
	const struct cred *tcred;
	bool ok;

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
	if (!td_cred_dumpable_for(cred, caps, task))
		return false;
#ifdef MODULE
	return true;
#else
	return td_cred_lsm_may_read(cred, task);
#endif
}

/*
 * Does @ctx->view->who[@i] pass the ptrace read check for the task, as
 * procfs makes it (for hidepid= too)? As in ptrace, a process in the
 * task's own thread group always does. A party under TD_RULE_NNP passes
 * for other tasks only with CAP_SYS_PTRACE.
 */
static bool td_who_may_read(struct td_task_ctx *ctx, int i)
{
	const struct td_who *w = ctx->view->who[i];
	u8 bit = 1U << i;
	bool ok;

	if (ctx->known & bit)
		return ctx->ok & bit;
	if (w->tgid && task_tgid(ctx->task) == w->tgid)
		ok = true;
	else if (w->rule == TD_RULE_NNP)
		ok = w->caps.ptrace;
	else
		ok = td_cred_may_read(w->cred, &w->caps, ctx->task);
	ctx->known |= bit;
	if (ok)
		ctx->ok |= bit;
	return ok;
}

/**
 * td_may_read() - may the requester see @ctx->task's guarded fields?
 * @ctx: the task being written; the answers are cached in it
 *
 * True when both parties (the sender as it is now, the opener) pass the
 * check procfs makes before showing /proc/PID/io or the guarded
 * /proc/PID/stat fields.
 * With ptrace_cap_only, every party also needs CAP_SYS_PTRACE (its own
 * thread group included), which passes the DAC part for it: built in,
 * the LSM hook is still asked. This applies to guarded fields only, never
 * to which tasks are listed.
 *
 * Return: true if every party may; false if one may not, or when the lock
 * that ties the check to the values was busy (ctx->busy).
 */
bool td_may_read(struct td_task_ctx *ctx)
{
	int i;

	if (ctx->busy)
		return false;
	for (i = 0; i < ctx->view->n; i++) {
		if (ctx->subj->cap_only && !ctx->view->who[i]->caps.ptrace)
			return false;
		if (!td_who_may_read(ctx, i))
			return false;
	}
	return true;
}

/**
 * td_may_access_mm() - may the requester see @mm, @ctx->task's (maps, mem)?
 * @ctx: the task being written
 * @mm: its mm (only compared with the sender's)
 *
 * mm_access(), which procfs's maps and smaps_rollup open with, for each
 * party: the sender passes for its own mm (current is the sender:
 * td_view_init(); a vfork child's), the opener never by that rule;
 * otherwise a party must pass td_may_read()'s check. From 6.15 on it also
 * admits a party that is perfmon_capable() (a read-only access; no ptrace
 * hook is asked then, so TD_RULE_NNP does not refuse it either);
 * ptrace_cap_only also asks CAP_SYS_PTRACE.
 *
 * Return: true if every party may.
 */
bool td_may_access_mm(struct td_task_ctx *ctx, struct mm_struct *mm)
{
	bool own = mm == current->mm;
	int i;

	for (i = 0; i < ctx->view->n; i++) {
		const struct td_who *w = ctx->view->who[i];

		/* The sender (who[0], current) passes for its own mm. */
		if (i == 0 && own)
			continue;
		if (ctx->busy)
			return false;
		if (ctx->subj->cap_only && !w->caps.ptrace)
			return false;
		if (!w->caps.perfmon && !td_who_may_read(ctx, i))
			return false;
	}
	return true;
}

/**
 * td_visibility() - what the requester's /proc shows of @ctx->task
 * @ctx: the task being written
 *
 * has_pid_permissions() for every party: with hidepid=ptraceable a party
 * must pass the ptrace read check; with noaccess or invisible, it must be
 * in the gid= group or pass it. Listing /proc needs it under invisible
 * and ptraceable, opening /proc/PID under noaccess too.
 */
enum td_vis td_visibility(struct td_task_ctx *ctx)
{
	int hide_pid = ctx->subj->hide_pid;
	int i;

	if (hide_pid == HIDEPID_OFF)
		return TD_VIS_FULL;
	for (i = 0; i < ctx->view->n; i++) {
		const struct td_who *w = ctx->view->who[i];

		if ((hide_pid == HIDEPID_NOT_PTRACEABLE || !w->in_pid_gid) &&
		    !td_who_may_read(ctx, i))
			return hide_pid == HIDEPID_NO_ACCESS ? TD_VIS_LISTED : TD_VIS_HIDDEN;
	}
	return TD_VIS_FULL;
}

/*
 * The owner procfs gives /proc/PID/io (task_dump_owner()): root for kernel
 * threads, the root of the exec's user namespace (or global root if it has
 * none) for non-dumpable tasks, else the task's euid and egid; up to 6.x
 * also root for a task without an mm (an exited one), and the namespace is
 * the mm's. The file is mode 0400.
 */
static void td_task_dump_owner(struct task_struct *task, kuid_t *uid, kgid_t *gid)
{
	struct user_namespace *ns = NULL;
#ifdef HAVE_TASK_EXEC_STATE
	const struct task_exec_state *es;

	rcu_read_lock();
	es = rcu_dereference(task->exec_state);
	if (READ_ONCE(es->dumpable) != TASK_DUMPABLE_OWNER)
		ns = es->user_ns;
	if (ns) {
		*uid = make_kuid(ns, 0);
		*gid = make_kgid(ns, 0);
	}
	rcu_read_unlock();
#else
	struct mm_struct *mm;

	task_lock(task);
	mm = task->mm;
	if (!mm) {
		*uid = GLOBAL_ROOT_UID;
		*gid = GLOBAL_ROOT_GID;
	} else if (get_dumpable(mm) != SUID_DUMP_USER) {
		ns = mm->user_ns;
		*uid = make_kuid(ns, 0);
		*gid = make_kgid(ns, 0);
	}
	task_unlock(task);
#endif
	if (ns && !uid_valid(*uid))
		*uid = GLOBAL_ROOT_UID;
	if (ns && !gid_valid(*gid))
		*gid = GLOBAL_ROOT_GID;
}

static bool td_cred_may_open_io(const struct cred *cred, const struct td_caps *caps,
				struct task_struct *task)
{
	const struct cred *tcred;
	kuid_t uid = GLOBAL_ROOT_UID;
	kgid_t gid = GLOBAL_ROOT_GID;

	if (!(task->flags & PF_KTHREAD)) {
		rcu_read_lock();
		tcred = __task_cred(task);
		uid = tcred->euid;
		gid = tcred->egid;
		rcu_read_unlock();
		td_task_dump_owner(task, &uid, &gid);
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
 * dumpable. Every party must pass both checks.
 */
bool td_may_read_io(struct td_task_ctx *ctx)
{
	int i;

	if (!td_may_read(ctx))
		return false;
	for (i = 0; i < ctx->view->n; i++) {
		const struct td_who *w = ctx->view->who[i];

		if (!td_cred_may_open_io(w->cred, &w->caps, ctx->task))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------------
 * The subject, and what a group does with the target's mm and locks
 */

void td_subject_free(struct td_subject *s)
{
	if (!s)
		return;
	if (s->opener)
		put_cred(s->opener);
	put_user_ns(s->user_ns);
	put_pid(s->tgid);
	put_pid_ns(s->ns);
	path_put(&s->procfs);
	td_filter_free(&s->filter);
	kfree(s);
}

/*
 * Fix the subject while still in the sender's context: its thread group
 * and program, the credentials the socket was opened with, and the procfs
 * instance it sees at /proc (its pid namespace and options).
 */
struct td_subject *td_subject_new(struct sk_buff *skb, struct nlattr **attrs,
				  struct netlink_ext_ack *extack, int *err)
{
	struct sock *sk = NETLINK_CB(skb).sk;
	const struct cred *opener = NULL;
	struct td_subject *s;

#ifdef HAVE_KZALLOC_OBJ
	s = kzalloc_obj(*s);
#else
	s = kzalloc(sizeof(*s), GFP_KERNEL);
#endif
	if (!s) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = td_subject_procfs(s, attrs[TASK_DIAG_A_TASK_PROCFS_FD], extack);
	if (*err) {
		kfree(s);
		return NULL;
	}
	if (sk && sk->sk_socket && sk->sk_socket->file)
		opener = sk->sk_socket->file->f_cred;
	s->cap_only = READ_ONCE(td_ptrace_cap_only);
	s->nnp_cap_only = READ_ONCE(td_nnp_cap_only);
	s->tgid = get_pid(task_tgid(current));
	s->exec_id = READ_ONCE(current->self_exec_id);
	/*
	 * The opener's checks are the sender's when the credentials are the
	 * same object (a process that did not change them since it opened
	 * the socket, the usual case): td_view_init() skips them then.
	 */
	if (opener)
		s->opener = get_cred(opener);
	s->user_ns = get_user_ns(opener ? opener->user_ns : current_user_ns());
	s->boottime_offset = timens_add_boottime_ns(0);
	return s;
}

/**
 * td_task_mm() - the task's mm, looked up once per task
 * @ctx: the task being written
 *
 * Return: a referenced mm put by td_fill_task(), or NULL for kernel
 * threads and exiting tasks. May sleep only on the put side.
 */
struct mm_struct *td_task_mm(struct td_task_ctx *ctx)
{
	if (!ctx->mm_done) {
		ctx->mm = get_task_mm(ctx->task);
		ctx->mm_done = true;
	}
	return ctx->mm;
}

/**
 * td_task_counters() - @mm's rss counters, read once per task
 * @ctx: the task being written
 * @mm: td_task_mm(@ctx), not NULL
 *
 * Return: the counters, indexed by MM_FILEPAGES, MM_ANONPAGES, ...
 */
const unsigned long *td_task_counters(struct td_task_ctx *ctx, struct mm_struct *mm)
{
	int i;

	if (!ctx->counters_done) {
		for (i = 0; i < NR_MM_COUNTERS; i++)
			ctx->counters[i] = td_mm_counter(mm, i);
		ctx->counters_done = true;
	}
	return ctx->counters;
}

/**
 * td_busy() - what a group does when a lock it needs is busy
 * @ctx: the task being written
 *
 * Under cb_lock (td_view::nowait: a do) a busy target lock is not waited
 * for past the view's deadline, nor is a page walk made past it: what
 * needs it is withheld from the reply, as from a requester that may not
 * see it.
 *
 * Return: -ENOENT (leave the part out).
 */
int td_busy(struct td_task_ctx *ctx)
{
	ctx->busy = true;
	return -ENOENT;
}

/*
 * What the sender's /proc shows of the task @pid names. Called in the
 * sender's context.
 */
enum td_vis td_target_visibility(struct td_subject *subj, struct pid *pid)
{
	struct td_task_ctx ctx = { .subj = subj };
	struct td_view view;
	enum td_vis vis;

	ctx.task = get_pid_task(pid, PIDTYPE_PID);
	if (!ctx.task)
		return TD_VIS_HIDDEN;
	/* Cannot fail: called in the sender's context. */
	td_view_init(&view, subj, true, NULL);
	ctx.view = &view;
	vis = td_visibility(&ctx);
	if (vis == TD_VIS_LISTED && !thread_group_leader(ctx.task))
		vis = TD_VIS_HIDDEN;
	put_task_struct(ctx.task);
	return vis;
}
