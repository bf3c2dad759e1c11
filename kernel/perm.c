// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag: what each party may see, as procfs decides it.
 *
 * Three parties bound every part of a reply: the process that sent the
 * request, the credentials the socket was opened with, and the process that
 * reads the socket when the part is written (current in the dump callback).
 * Each must pass the check procfs would make for it, so the reply never
 * holds more than the least privileged of them would see in /proc.
 *
 * ptrace_may_access() is not exported to modules. This re-implements the
 * discretionary part of __ptrace_may_access(PTRACE_MODE_READ_FSCREDS) for
 * a given credential; the LSM hook (Yama, SELinux, ...) cannot be called
 * from a module. The ptrace_cap_only parameter closes that gap for those
 * who need it by requiring CAP_SYS_PTRACE. Task visibility follows the
 * hidepid= and gid= of the procfs instance the sender sees at /proc, as
 * has_pid_permissions() does.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/proc_fs.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/user_namespace.h>

#include <linux/task_diag.h>
#include "task_diag.h"

bool td_ptrace_cap_only;
module_param_named(ptrace_cap_only, td_ptrace_cap_only, bool, 0644);
MODULE_PARM_DESC(ptrace_cap_only,
		 "Send ptrace-guarded fields (io, stat addresses, wchan, exit code) only to requesters with CAP_SYS_PTRACE in the initial user namespace (default: procfs rules)");

/*
 * ns_capable() for a stored credential instead of current's: the dump may
 * be continued by whichever process reads the socket. security_capable() is
 * not exported, so borrow the credential for the duration of the check.
 * ns_capable() marks the caller PF_SUPERPRIV when it succeeds ("used
 * super-user privileges", as process accounting reports): current did not
 * use these capabilities, so leave its flag as it was.
 */
static bool td_cred_capable(const struct cred *cred, struct user_namespace *ns,
			    int cap)
{
	unsigned int superpriv = current->flags & PF_SUPERPRIV;
	const struct cred *old;
	bool ok;

	if (cred == current_cred())
		return ns_capable_noaudit(ns, cap);
	old = override_creds(cred);
	ok = ns_capable_noaudit(ns, cap);
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
void td_who_init(struct td_who *w, const struct cred *cred, struct pid *tgid,
		 const struct td_subject *s)
{
	w->cred = cred;
	w->tgid = tgid;
	w->caps.ptrace = td_cred_capable(cred, &init_user_ns, CAP_SYS_PTRACE);
	w->caps.dac = td_cred_capable(cred, cred->user_ns, CAP_DAC_READ_SEARCH) ||
		      td_cred_capable(cred, cred->user_ns, CAP_DAC_OVERRIDE);
	w->in_pid_gid = s->hide_pid != HIDEPID_OFF && td_cred_in_group(cred, s->pid_gid);
}

/*
 * The hidepid= and gid= of @sb's procfs instance. Copied when the request
 * arrives, as procfs reads them when /proc/PID is opened or listed.
 */
static void td_subject_set_procfs(struct td_subject *s, struct super_block *sb)
{
	const struct proc_fs_info *fsi = td_proc_fs_info(sb);

	s->hide_pid = fsi->hide_pid;
	s->pid_gid = fsi->pid_gid;
}

/**
 * td_subject_procfs() - find the procfs instance whose options apply
 * @s: the request
 * @fd_attr: the procfs-fd request attribute, or NULL
 * @extack: for the message of a refused request
 *
 * The instance @fd_attr's file lives on, or else the one mounted at /proc
 * in the sender's root and mount namespace (what its own ls /proc would
 * read). Called in the sender's context; may sleep.
 *
 * Return: 0; -EBADF or -EINVAL for a bad procfs-fd; -EACCES when there is
 * no procfs at /proc (the sender's /proc would show it nothing).
 */
int td_subject_procfs(struct td_subject *s, const struct nlattr *fd_attr,
		      struct netlink_ext_ack *extack)
{
	struct super_block *sb;
	struct file *file;
	struct path path;
	int err;

	if (fd_attr) {
		/* O_PATH descriptors too: only the file system is looked at. */
		file = fget_raw(nla_get_u32(fd_attr));
		if (!file) {
			NL_SET_ERR_MSG_ATTR(extack, fd_attr, "procfs-fd is not an open file descriptor");
			return -EBADF;
		}
		sb = file_inode(file)->i_sb;
		err = -EINVAL;
		if (sb->s_magic == PROC_SUPER_MAGIC) {
			td_subject_set_procfs(s, sb);
			err = 0;
		} else {
			NL_SET_ERR_MSG_ATTR(extack, fd_attr, "procfs-fd is not a file of a procfs mount");
		}
		fput(file);
		return err;
	}

	err = kern_path("/proc", LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &path);
	if (!err) {
		sb = path.dentry->d_sb;
		err = -EACCES;
		if (sb->s_magic == PROC_SUPER_MAGIC && path.dentry == sb->s_root &&
		    path.dentry == path.mnt->mnt_root) {
			td_subject_set_procfs(s, sb);
			err = 0;
		}
		path_put(&path);
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
 *
 * Called in the context of the process that will receive what is written:
 * the sender when the request arrives and for a do, whichever process
 * reads the socket in later dump calls. The reader is left out when its
 * checks are implied by the others': it is the sender (same credentials,
 * same thread group), or it holds the opener's credentials (the opener's
 * check has no same-thread-group exemption, so it is the stricter one).
 */
void td_view_init(struct td_view *v, const struct td_subject *s)
{
	const struct cred *cred = current_cred();

	v->subj = s;
	v->n = 0;
	v->who[v->n++] = &s->sender;
	if (s->has_opener)
		v->who[v->n++] = &s->opener;
	if (cred == s->sender.cred && task_tgid(current) == s->sender.tgid)
		return;
	if (s->has_opener && cred == s->opener.cred)
		return;
	td_who_init(&v->reader, cred, task_tgid(current), s);
	v->who[v->n++] = &v->reader;
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

/*
 * Does @ctx->view->who[@i] pass the ptrace read check for the task? As in
 * ptrace, a process in the task's own thread group always does.
 */
static bool td_who_may_read(struct td_task_ctx *ctx, int i)
{
	const struct td_who *w = ctx->view->who[i];
	u8 bit = 1U << i;
	bool ok;

	if (ctx->known & bit)
		return ctx->ok & bit;
	ok = (!td_ptrace_cap_only && w->tgid && task_tgid(ctx->task) == w->tgid) ||
	     td_cred_may_read(w->cred, &w->caps, ctx->task);
	ctx->known |= bit;
	if (ok)
		ctx->ok |= bit;
	return ok;
}

/**
 * td_may_read() - may the requester see @ctx->task's guarded fields?
 * @ctx: the task being written; the answers are cached in it
 *
 * True when every party (sender, opener, reader) passes the check procfs
 * makes before showing /proc/PID/io or the guarded /proc/PID/stat fields.
 */
bool td_may_read(struct td_task_ctx *ctx)
{
	int i;

	for (i = 0; i < ctx->view->n; i++)
		if (!td_who_may_read(ctx, i))
			return false;
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
