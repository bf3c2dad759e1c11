// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the procfs backend. The same records as the netlink backend
 * (same items, same units: bytes, nanoseconds, counts), read from the text
 * files of /proc where the task_diag module is not loaded. It is also the
 * baseline the benchmarks compare the module against, so it is written to
 * be fast: per task, one directory fd of /proc/PID (or PID/task/TID), one
 * openat()/read()/close() per file a requested group needs, into buffers
 * that belong to the iterator and are reused for every task, parsed by
 * hand-written scanners (no stdio, no sscanf, no allocation in the steady
 * state).
 *
 * Files read per group:
 *   base    stat, status (TracerPid)
 *   stat    stat
 *   statm   statm
 *   io      io
 *   status  status
 *   cred    status (groups: the first 1024, as the module; ngroups counts all)
 *   cmdline cmdline (at most 4096 bytes, as the module)
 *   mem     smaps_rollup (absent where its open is refused, EACCES, or its
 *           read finds no mm, ESRCH, as the module; or it is missing)
 * plus stat for the children scope (the ppid filter) and status for the
 * task scope (the tgid of a pid that may name a thread).
 *
 * The proc root is "/proc", or $TASKDIAG_PROC_ROOT when that is set and
 * not empty (read with secure_getenv(), so set-uid programs ignore it), or
 * whatever td_procfs_open_at() points the handle at: the tests aim it at
 * fixture trees laid out as /proc (PID/{stat,statm,io,status,cmdline} and
 * PID/task/TID/...). Clock ticks and pages are converted with this host's
 * sysconf(_SC_CLK_TCK) and sysconf(_SC_PAGESIZE) in every case.
 *
 * Scopes: all_processes lists the numeric entries of the root and reads
 * /proc/PID/<file> (whole-process values); all_threads lists every
 * PID/task/TID and reads per-thread files; task reads /proc/PID (which
 * also resolves a thread id, as the module's task scope does); threads
 * reads every PID/task/TID; children lists every process and keeps those
 * whose stat ppid is PID. The pids are collected when the iteration starts and
 * sorted, so records come in ascending pid order whatever order the
 * directory gives. A task that vanishes while it is read (ENOENT, ESRCH,
 * or procfs's pgid/sid of -1 for a task being released, which the module
 * skips too) is skipped, never reported as an error; so is a task whose
 * directory the reader may not enter (hidepid=1). A stat file that does
 * not parse ends the iteration with -EBADMSG.
 *
 * Differences from the module that procfs imposes (see docs/fields.md):
 * times are whole clock ticks (start_time included) converted to ns;
 * comm is procfs's name (a kernel thread's full name, a workqueue
 * worker's "+desc"); kstk_esp/kstk_eip are procfs's values; cmdline is
 * absent when the file reads empty (kernel threads, zombies, but also a
 * task with an mm whose argv reads empty, where the module sends an empty
 * attribute); Mems_allowed is cut to the module's nr_node_ids bits
 * (td_pf_trim_mems()); the guarded stat fields follow the rule in
 * td_pf_stat_permitted().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "internal.h"
#include "procfs.h"

#define TD_PF_DEFAULT_ROOT	"/proc"
#define TD_PF_ENV_ROOT		"TASKDIAG_PROC_ROOT"
/* As the module's TD_CMDLINE_MAX (kernel/cmdline.c). */
#define TD_PF_CMDLINE_MAX	4096
#define TD_PF_DENTS_SIZE	32768
/* Room for "4294967295/task/4294967295". */
#define TD_PF_PATH_MAX		32

#define TD_GROUPS_STAT_FILE	(TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT)
#define TD_GROUPS_STATUS_FILE	(TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STATUS | TASKDIAG_GROUP_CRED)

struct td_pf_ent {
	pid_t pid;	/* the record's pid (a tid in thread scopes) */
	pid_t tgid;	/* its directory's process, 0 where status tells */
};

struct td_pf_buf {
	char *p;
	size_t cap;
};

/* it->priv: everything one iteration reuses from task to task. */
struct td_pf_iter {
	struct td_pf_ent *ents;
	size_t nents, cap, pos;
	bool thread_paths;	/* open TGID/task/TID rather than PID */
	struct td_pf_buf stat, status, small, cmdline;
	struct td_pf_parse px;	/* the parsers' state (procfs.h) */
	struct td_pf_filter filter; /* the request's filters (procfs_filter.c) */
	char *dents;
};

static bool td_pf_gone(int err)
{
	/* The task exited (or is not ours to see: hidepid) while we read it. */
	return err == -ENOENT || err == -ESRCH || err == -ENOTDIR;
}

/* ------------------------------------------------------------------ */
/* Buffers                                                             */

static int td_pf_buf_init(struct td_pf_buf *b, size_t cap)
{
	b->p = malloc(cap);
	if (!b->p)
		return -ENOMEM;
	b->cap = cap;
	return 0;
}

/*
 * td_pf_read_total() - read file @name of the task directory @dirfd into @b
 * @max: read at most this many bytes (the cmdline cap), 0 for all
 * @total: NULL, or (only with @max) set to the file's whole length: when
 *         @max bytes were read, the rest is read and counted (the cmdline's
 *         full length, which the module sends as CMDLINE_LEN)
 *
 * The buffer grows as needed and is NUL-terminated. The procfs files read
 * here are single-record seq_files (or cmdline, which fills any count it
 * can): a read shorter than asked for is the end of the file, which saves
 * the second read() a generic loop would make.
 *
 * Return: the length read, or a negative errno.
 */
static ssize_t td_pf_read_total(int dirfd, const char *name, struct td_pf_buf *b, size_t max,
				uint64_t *total)
{
	size_t len = 0;
	int fd, err;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	for (;;) {
		size_t room;
		ssize_t n;

		if (max && len >= max)
			break;
		if (b->cap - len < 2) {
			char *np = realloc(b->p, b->cap * 2);

			if (!np) {
				err = -ENOMEM;
				goto err_close;
			}
			b->p = np;
			b->cap *= 2;
		}
		room = b->cap - len - 1;
		if (max && room > max - len)
			room = max - len;
		n = read(fd, b->p + len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto err_close;
		}
		len += (size_t)n;
		if ((size_t)n < room)
			break;
	}
	if (total) {
		*total = len;
		while (max && len >= max) {
			char rest[4096];
			ssize_t n = read(fd, rest, sizeof(rest));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;	/* an error past the cap only loses the length */
			*total += (uint64_t)n;
		}
	}
	close(fd);
	b->p[len] = '\0';
	return (ssize_t)len;

err_close:
	close(fd);
	return err;
}

/* td_pf_read_total() without the whole length. */
static ssize_t td_pf_read(int dirfd, const char *name, struct td_pf_buf *b, size_t max)
{
	return td_pf_read_total(dirfd, name, b, max, NULL);
}

/* ------------------------------------------------------------------ */
/* One task                                                            */

/*
 * Fill it->task from the task directory @dirfd.
 * Return: 1 with the record filled, 0 to skip the task (it vanished, or the
 * children scope does not want it), or a negative errno.
 */
static int td_pf_fill(struct taskdiag_iter *it, struct td_pf_iter *pi, int dirfd,
		      const struct td_pf_ent *e)
{
	struct taskdiag_task *t = &it->task;
	uint32_t groups = it->req.groups;
	enum taskdiag_scope scope = it->req.scope;
	struct td_pf_stat st;
	bool need_stat, io_read = false;
	pid_t tgid = e->tgid;
	ssize_t n;
	int err;

	st.n = 0;
	st.comm = NULL;
	st.comm_len = 0;
	need_stat = (groups & TD_GROUPS_STAT_FILE) || scope == TASKDIAG_SCOPE_CHILDREN ||
		    pi->filter.comm;
	if (need_stat) {
		n = td_pf_read(dirfd, "stat", &pi->stat, 0);
		if (n < 0)
			return td_pf_gone((int)n) ? 0 : (int)n;
		err = td_pf_parse_stat(pi->stat.p, (size_t)n, &st);
		if (err)
			return err;
		/* Being released (no sighand): the module skips it too. */
		if (st.n > TD_SF_SID &&
		    ((int64_t)st.f[TD_SF_PGID] < 0 || (int64_t)st.f[TD_SF_SID] < 0))
			return 0;
		if (scope == TASKDIAG_SCOPE_CHILDREN &&
		    (st.n <= TD_SF_PPID || st.f[TD_SF_PPID] != (uint64_t)it->req.pid))
			return 0;
		if (!td_pf_filter_comm(&pi->filter, dirfd, st.comm, st.comm_len - 1,
				       st.n > TD_SF_FLAGS ? st.f[TD_SF_FLAGS] : 0))
			return 0;
	}

	if ((groups & TD_GROUPS_STATUS_FILE) || scope == TASKDIAG_SCOPE_TASK ||
	    pi->filter.nuids || pi->filter.neuids) {
		n = td_pf_read(dirfd, "status", &pi->status, 0);
		if (n < 0)
			return td_pf_gone((int)n) ? 0 : (int)n;
		if (!td_pf_filter_ids(&pi->filter, pi->status.p, (size_t)n))
			return 0;
		err = td_pf_parse_status(&pi->px, pi->status.p, (size_t)n, &tgid);
		if (err)
			return err;
	}

	err = td_pf_filter_cgroup(&pi->filter, dirfd);
	if (err <= 0)
		return td_pf_gone(err) || !err ? 0 : err;

	if (groups & TASKDIAG_GROUP_STATM) {
		n = td_pf_read(dirfd, "statm", &pi->small, 0);
		if (n < 0)
			return td_pf_gone((int)n) ? 0 : (int)n;
		err = td_pf_parse_statm(&pi->px, pi->small.p);
		if (err)
			return err;
		/*
		 * statm's locked is status's VmLck, which statm does not print:
		 * given when status is read too (0 without an mm, as the module).
		 */
		if (groups & TASKDIAG_GROUP_STATUS) {
			uint64_t lck = 0;

			taskdiag_task_get_u64(t, TASKDIAG_ITEM_STATUS_VM_LCK, &lck);
			td_pf_set(t, TASKDIAG_ITEM_STATM_LOCKED, lck);
		}
	}

	if (groups & TASKDIAG_GROUP_IO) {
		/* Guarded: absent when procfs refuses it, as the module's nest. */
		n = td_pf_read(dirfd, "io", &pi->small, 0);
		if (n >= 0) {
			td_pf_parse_io(&pi->px, pi->small.p, (size_t)n);
			io_read = true;
		} else if (td_pf_gone((int)n)) {
			return 0;
		} else if (n != -EACCES && n != -EPERM) {
			return (int)n;
		}
	}

	if (groups & TASKDIAG_GROUP_MEM) {
		n = td_pf_read(dirfd, "smaps_rollup", &pi->small, 0);
		/*
		 * Absent where procfs refuses it (EACCES), finds no mm
		 * (ESRCH) or has no such file (ENOENT: a tree without it,
		 * or a task gone, which the other files of the request
		 * tell).
		 */
		if (n >= 0)
			td_pf_parse_rollup(t, pi->small.p, (size_t)n);
		else if (n != -EACCES && n != -EPERM && n != -ESRCH && n != -ENOENT)
			return (int)n;
	}

	if (groups & TASKDIAG_GROUP_CMDLINE) {
		uint64_t total;

		n = td_pf_read_total(dirfd, "cmdline", &pi->cmdline, TD_PF_CMDLINE_MAX, &total);
		if (n < 0)
			return td_pf_gone((int)n) ? 0 : (int)n;
		/* Empty: no mm (kernel thread, zombie); the module sends nothing. */
		if (n > 0)
			td_task_set_blob(t, TASKDIAG_ITEM_CMDLINE, pi->cmdline.p, (uint32_t)n);
		/* Cut at the cap: the module says how long the whole argv is. */
		if (total > (uint64_t)n)
			td_pf_set(t, TASKDIAG_ITEM_CMDLINE_LEN, total);
	}

	if (need_stat && (groups & TD_GROUPS_STAT_FILE))
		td_pf_emit_stat(&pi->px, &st, td_pf_stat_permitted(&st, io_read));

	td_task_set_u64(t, TASKDIAG_ITEM_PID, (uint64_t)e->pid);
	td_task_set_u64(t, TASKDIAG_ITEM_TGID, (uint64_t)(tgid ? tgid : e->pid));
	return 1;
}

/* ------------------------------------------------------------------ */
/* Collecting the pids                                                 */

static char *td_pf_utoa(char *p, uint32_t v)
{
	char tmp[10];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* "PID" or "TGID/task/TID" */
static void td_pf_path(char *buf, pid_t dir, pid_t tid)
{
	char *p = td_pf_utoa(buf, (uint32_t)dir);

	if (tid) {
		memcpy(p, "/task/", 6);
		p = td_pf_utoa(p + 6, (uint32_t)tid);
	}
	*p = '\0';
}

/* A directory entry's name as a pid, or 0 if it is not one. */
static pid_t td_pf_name_pid(const char *s)
{
	uint64_t v = 0;

	if ((unsigned int)(*s - '1') >= 9)
		return 0;
	for (; *s; s++) {
		if ((unsigned int)(*s - '0') >= 10)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > INT32_MAX)
			return 0;
	}
	return (pid_t)v;
}

static int td_pf_push(struct td_pf_iter *pi, pid_t pid, pid_t tgid)
{
	if (pi->nents == pi->cap) {
		size_t cap = pi->cap ? pi->cap * 2 : 1024;
		struct td_pf_ent *ne = realloc(pi->ents, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		pi->ents = ne;
		pi->cap = cap;
	}
	pi->ents[pi->nents].pid = pid;
	pi->ents[pi->nents].tgid = tgid;
	pi->nents++;
	return 0;
}

struct td_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Append every numeric entry of directory @path (under the root) to the
 * list, with @tgid as their process (0: each is its own). A directory that
 * vanished adds nothing.
 */
static int td_pf_list(struct td_pf_iter *pi, int rootfd, const char *path, pid_t tgid)
{
	int fd, err = 0;

	fd = openat(rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return td_pf_gone(-errno) || errno == EACCES ? 0 : -errno;
	for (;;) {
		long n = syscall(SYS_getdents64, fd, pi->dents, TD_PF_DENTS_SIZE);
		long off;

		if (n < 0) {
			err = td_pf_gone(-errno) ? 0 : -errno;
			break;
		}
		if (n == 0)
			break;
		for (off = 0; off < n;) {
			const struct td_dirent64 *d = (const void *)(pi->dents + off);
			pid_t pid = td_pf_name_pid(d->d_name);

			off += d->d_reclen;
			if (!pid)
				continue;
			err = td_pf_push(pi, pid, tgid ? tgid : pid);
			if (err)
				goto out;
		}
	}
out:
	close(fd);
	return err;
}

static int td_pf_ent_cmp(const void *a, const void *b)
{
	pid_t x = ((const struct td_pf_ent *)a)->pid;
	pid_t y = ((const struct td_pf_ent *)b)->pid;

	return (x > y) - (x < y);
}

static void td_pf_sort(struct td_pf_iter *pi)
{
	size_t i;

	/* /proc lists in ascending order already: usually nothing to do. */
	for (i = 1; i < pi->nents; i++)
		if (pi->ents[i - 1].pid > pi->ents[i].pid)
			break;
	if (i < pi->nents)
		qsort(pi->ents, pi->nents, sizeof(*pi->ents), td_pf_ent_cmp);
}

/*
 * Does @pid name a task, and if @leader, a thread-group leader (Tgid in its
 * status is itself)? -ESRCH if not, as the module answers.
 */
static int td_pf_check_pid(struct taskdiag_iter *it, struct td_pf_iter *pi, bool leader)
{
	const struct td_procfs *pf = it->td->priv;
	char path[TD_PF_PATH_MAX];
	const char *msg = "no such pid";
	pid_t pid = it->req.pid, tgid = 0;
	const char *p;
	ssize_t n;
	int dirfd;

	td_pf_path(path, pid, 0);
	dirfd = openat(pf->rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		if (!td_pf_gone(-errno) && errno != EACCES)
			return -errno;
		goto err_srch;
	}
	if (!leader) {
		close(dirfd);
		return 0;
	}
	n = td_pf_read(dirfd, "status", &pi->status, 0);
	close(dirfd);
	if (n < 0) {
		if (!td_pf_gone((int)n))
			return (int)n;
		goto err_srch;
	}
	p = pi->status.p;
	if (!strncmp(p, "Tgid:", 5))
		p += 5;
	else if ((p = strstr(p, "\nTgid:")))
		p += 6;
	if (p) {
		uint64_t v;

		if (td_scan_dec(td_skip_blank(p), &v))
			tgid = (pid_t)v;
	}
	if (tgid == pid)
		return 0;
	msg = "pid is not a process (thread-group leader)";
err_srch:
	td_set_extack(it->td, msg, strlen(msg));
	return -ESRCH;
}

/* Every process, and for all_threads every thread of each. */
static int td_pf_list_all(struct td_pf_iter *pi, int rootfd, bool threads)
{
	char path[TD_PF_PATH_MAX + 8];
	size_t i, nproc;
	int err;

	err = td_pf_list(pi, rootfd, ".", 0);
	if (err || !threads)
		return err;
	/* The processes are the head of the list; their threads follow. */
	nproc = pi->nents;
	for (i = 0; i < nproc; i++) {
		pid_t tgid = pi->ents[i].pid;
		char *p = td_pf_utoa(path, (uint32_t)tgid);

		memcpy(p, "/task", 6);
		err = td_pf_list(pi, rootfd, path, tgid);
		if (err)
			return err;
	}
	memmove(pi->ents, pi->ents + nproc, (pi->nents - nproc) * sizeof(*pi->ents));
	pi->nents -= nproc;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The backend                                                         */

static void td_pf_iter_free(struct td_pf_iter *pi)
{
	if (!pi)
		return;
	free(pi->ents);
	free(pi->stat.p);
	free(pi->status.p);
	free(pi->small.p);
	free(pi->cmdline.p);
	td_pf_parse_free(&pi->px);
	free(pi->dents);
	td_pf_filter_free(&pi->filter);
	free(pi);
}

static int td_pf_einval(struct taskdiag_iter *it, const char *msg)
{
	td_set_extack(it->td, msg, strlen(msg));
	return -EINVAL;
}

static int td_pf_iter_start(struct taskdiag_iter *it)
{
	const struct td_procfs *pf = it->td->priv;
	enum taskdiag_scope scope = it->req.scope;
	char path[TD_PF_PATH_MAX + 8];
	struct td_pf_iter *pi;
	int err;

	switch (scope) {
	case TASKDIAG_SCOPE_ALL_PROCESSES:
	case TASKDIAG_SCOPE_ALL_THREADS:
		if (it->req.pid)
			return td_pf_einval(it, "this scope takes no pid");
		break;
	default:
		if (!it->req.pid)
			return td_pf_einval(it, "this scope needs the pid attribute");
		break;
	}

	pi = calloc(1, sizeof(*pi));
	if (!pi)
		return -ENOMEM;
	err = -ENOMEM;
	pi->dents = malloc(TD_PF_DENTS_SIZE);
	if (!pi->dents || td_pf_buf_init(&pi->stat, 1024) ||
	    td_pf_buf_init(&pi->status, 4096) || td_pf_buf_init(&pi->small, 512) ||
	    td_pf_buf_init(&pi->cmdline, TD_PF_CMDLINE_MAX + 1) ||
	    td_pf_words_reserve(&pi->px.cpus, 64) || td_pf_words_reserve(&pi->px.mems, 64) ||
	    td_pf_words_reserve(&pi->px.groups_w, 64))
		goto err_free;
	err = td_pf_filter_init(&pi->filter, it->td, &it->req);
	if (err)
		goto err_free;
	err = -ENOMEM;
	pi->px.t = &it->task;
	pi->px.groups = it->req.groups;
	pi->px.tick_ns = pf->tick_ns;
	pi->px.page_size = pf->page_size;
	pi->px.mems_words = pf->mems_words;

	switch (scope) {
	case TASKDIAG_SCOPE_ALL_PROCESSES:
		err = td_pf_list_all(pi, pf->rootfd, false);
		break;
	case TASKDIAG_SCOPE_ALL_THREADS:
		pi->thread_paths = true;
		err = td_pf_list_all(pi, pf->rootfd, true);
		break;
	case TASKDIAG_SCOPE_TASK:
		err = td_pf_check_pid(it, pi, false);
		/* The tgid comes from status: the pid may name a thread. */
		if (!err)
			err = td_pf_push(pi, it->req.pid, 0);
		break;
	case TASKDIAG_SCOPE_THREADS:
		pi->thread_paths = true;
		err = td_pf_check_pid(it, pi, true);
		if (!err) {
			char *p = td_pf_utoa(path, (uint32_t)it->req.pid);

			memcpy(p, "/task", 6);
			err = td_pf_list(pi, pf->rootfd, path, it->req.pid);
		}
		break;
	case TASKDIAG_SCOPE_CHILDREN:
		err = td_pf_check_pid(it, pi, true);
		if (!err)
			err = td_pf_list_all(pi, pf->rootfd, false);
		break;
	default:
		err = -EINVAL;
		break;
	}
	if (err)
		goto err_free;
	td_pf_sort(pi);
	/* Not needed any more: give the listing buffer back. */
	free(pi->dents);
	pi->dents = NULL;
	it->priv = pi;
	return 0;

err_free:
	td_pf_iter_free(pi);
	return err;
}

static int td_pf_iter_next(struct taskdiag_iter *it)
{
	const struct td_procfs *pf = it->td->priv;
	struct td_pf_iter *pi = it->priv;
	char path[TD_PF_PATH_MAX];

	while (pi->pos < pi->nents) {
		const struct td_pf_ent *e = &pi->ents[pi->pos++];
		int dirfd, ret;

		if (!td_pf_filter_pid(&pi->filter, e->pid))
			continue;
		if (pi->thread_paths)
			td_pf_path(path, e->tgid, e->pid);
		else
			td_pf_path(path, e->pid, 0);
		dirfd = openat(pf->rootfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dirfd < 0) {
			/* Exited since the listing, or hidden from us (hidepid). */
			if (td_pf_gone(-errno) || errno == EACCES || errno == EPERM)
				continue;
			return -errno;
		}
		td_task_reset(&it->task);
		ret = td_pf_fill(it, pi, dirfd, e);
		close(dirfd);
		if (ret)
			return ret;
	}
	td_task_reset(&it->task);
	return 0;
}

static void td_pf_iter_end(struct taskdiag_iter *it)
{
	td_pf_iter_free(it->priv);
	it->priv = NULL;
}

/* BITS_TO_U32(nr_node_ids) from sysfs ("0", "0-3", "0,2-5"), 0 if unknown. */
static unsigned int td_pf_mems_words(void)
{
	char buf[256];
	const char *p;
	uint64_t last = 0;
	bool any = false;
	ssize_t n;
	int fd;

	fd = open("/sys/devices/system/node/possible", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (p = buf; *p;) {
		uint64_t v;
		const char *q = td_scan_dec(p, &v);

		if (q) {
			last = v;
			any = true;
			p = q;
		} else {
			p++;
		}
	}
	if (!any || last >= 1u << 20)
		return 0;
	return (unsigned int)((last + 1 + 31) / 32);
}

/*
 * Read the tree at @root (relative to @dirfd; NULL for the default), or the
 * directory @dirfd itself when @root is ".". Only this host's procfs (the
 * default root, or an instance named by descriptor) gets its nr_node_ids.
 */
static int td_pf_setup(struct taskdiag *td, int dirfd, const char *root)
{
	bool host = !root || !strcmp(root, TD_PF_DEFAULT_ROOT) || dirfd != AT_FDCWD;
	struct td_procfs *pf;
	long hz, page;

	pf = calloc(1, sizeof(*pf));
	if (!pf)
		return -ENOMEM;
	pf->rootfd = openat(dirfd, root ? root : TD_PF_DEFAULT_ROOT,
			    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pf->rootfd < 0) {
		int err = -errno;

		free(pf);
		return err;
	}
	hz = sysconf(_SC_CLK_TCK);
	page = sysconf(_SC_PAGESIZE);
	pf->tick_ns = 1000000000ull / (uint64_t)(hz > 0 ? hz : 100);
	pf->page_size = (uint64_t)(page > 0 ? page : 4096);
	/* nr_node_ids describes this host: only for its own /proc. */
	if (host)
		pf->mems_words = td_pf_mems_words();
	if (td->priv) {
		struct td_procfs *old = td->priv;

		close(old->rootfd);
		free(old);
	}
	td->priv = pf;
	return 0;
}

static int td_pf_open(struct taskdiag *td)
{
	const char *root = secure_getenv(TD_PF_ENV_ROOT);

	return td_pf_setup(td, AT_FDCWD, root && *root ? root : NULL);
}

static void td_pf_close(struct taskdiag *td)
{
	struct td_procfs *pf = td->priv;

	if (!pf)
		return;
	close(pf->rootfd);
	free(pf);
	td->priv = NULL;
}

int td_procfs_open_at(struct taskdiag *td, const char *root)
{
	int err;

	if (!td || (td->ops && td->ops != &td_procfs_backend))
		return -EINVAL;
	if (td->iter)
		return -EBUSY;
	err = td_pf_setup(td, AT_FDCWD, root);
	if (err)
		return err;
	td->backend = TASKDIAG_BACKEND_PROCFS;
	td->ops = &td_procfs_backend;
	return 0;
}

int td_procfs_open_fd(struct taskdiag *td, int fd)
{
	return fd < 0 ? td_pf_setup(td, AT_FDCWD, NULL) : td_pf_setup(td, fd, ".");
}

const struct td_backend td_procfs_backend = {
	.open = td_pf_open,
	.close = td_pf_close,
	.iter_start = td_pf_iter_start,
	.iter_next = td_pf_iter_next,
	.iter_end = td_pf_iter_end,
	.vma = &td_vma_procfs_ops,
};
