// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The request filters on the procfs backend: what kernel/filter.c does in
 * the module, done with the files of each task directory, so that a
 * request gets the same tasks from either backend.
 *
 * - pids: the record's pid (a thread's in thread scopes), before anything
 *   is read;
 * - uids, euids: the first two numbers of status's Uid line, which procfs
 *   prints in the user namespace of the process reading it (the module:
 *   the namespace the socket was opened in);
 * - comm: stat's name as task->comm holds it: procfs names a kernel thread
 *   by its whole name, of which task->comm keeps the first 15 bytes, and a
 *   workqueue worker by task->comm followed by "+" or "-" and the
 *   workqueue's description (kworker/0:1-events): for those, task->comm
 *   is taken from the first line of their sched file;
 * - cgroup: the 0:: line of the directory's cgroup file (the unified
 *   hierarchy, relative to the reader's cgroup namespace; without one, as
 *   before a cgroup2 has been mounted, every task is in its root), that
 *   cgroup or below. A cgroup id is turned into that path once, by looking for the
 *   directory of that inode number under /sys/fs/cgroup (when a cgroup2
 *   file system is mounted there); a path is checked for the module's
 *   ENOENT where the unified hierarchy is mounted (/sys/fs/cgroup, or on a
 *   hybrid system a cgroup2 mount rooted at the reader's cgroup namespace,
 *   /sys/fs/cgroup/unified);
 * - ran-since: every task is kept (the guarantee is that no task that ran
 *   is left out; procfs has nothing to leave the others out by), and
 *   ran-since-idle adds nothing.
 * A task whose directory the reader may not enter (hidepid=1) is skipped
 * by the backend whatever the filters, as the module sends such a task
 * only to a request without filters or one naming its pid.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "internal.h"
#include "procfs.h"

#define TD_PF_CGROUP_ROOT	"/sys/fs/cgroup"
#define TD_CGROUP2_MAGIC	0x63677270	/* CGROUP2_SUPER_MAGIC */
#define TD_PF_PF_WQ_WORKER	0x00000020u	/* PF_WQ_WORKER in stat's flags */

static int td_u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* A sorted copy of @n ids (bsearch later). */
static int td_pf_ids_copy(uint32_t **dst, size_t *dn, const uint32_t *src, uint32_t n)
{
	if (!n)
		return 0;
	*dst = malloc(n * sizeof(**dst));
	if (!*dst)
		return -ENOMEM;
	memcpy(*dst, src, n * sizeof(**dst));
	qsort(*dst, n, sizeof(**dst), td_u32_cmp);
	*dn = n;
	return 0;
}

static bool td_pf_ids_has(const uint32_t *ids, size_t n, uint64_t v)
{
	uint32_t key = (uint32_t)v;

	return v <= UINT32_MAX && bsearch(&key, ids, n, sizeof(*ids), td_u32_cmp);
}

static bool td_pf_cgroup2_at(const char *path)
{
	struct statfs sfs;

	return statfs(path, &sfs) == 0 && (unsigned long)sfs.f_type == TD_CGROUP2_MAGIC;
}

/* Undo mountinfo's octal escapes (\040 for a blank, ...) in place. */
static void td_pf_unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/*
 * Where the unified hierarchy is mounted with the root of the reader's
 * cgroup namespace as its root (what the 0:: lines are relative to):
 * /sys/fs/cgroup, else the first such cgroup2 mount of /proc/self/mountinfo
 * (a hybrid system's /sys/fs/cgroup/unified). NULL if none (malloc'ed).
 */
static char *td_pf_cgroup2_mount(void)
{
	char *line = NULL, *found = NULL;
	size_t cap = 0;
	FILE *f;

	if (td_pf_cgroup2_at(TD_PF_CGROUP_ROOT))
		return strdup(TD_PF_CGROUP_ROOT);
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return NULL;
	while (!found && getline(&line, &cap, f) > 0) {
		/* id parent maj:min root mount-point options [optional...] - fstype ... */
		char *fields[5], *sep, *save = NULL, *tok;
		int n = 0;

		sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "cgroup2 ", 8))
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok && n < 5; tok = strtok_r(NULL, " ", &save))
			fields[n++] = tok;
		if (n < 5 || strcmp(fields[3], "/"))
			continue;
		td_pf_unescape(fields[4]);
		if (td_pf_cgroup2_at(fields[4]))
			found = strdup(fields[4]);
	}
	free(line);
	fclose(f);
	return found;
}

/*
 * The path (from the hierarchy's root, "/..." ) of the directory whose inode
 * is @ino under the directory @fd0 (@rel its path; @fd0 is closed), or
 * NULL; depth-first.
 */
static char *td_pf_cgroup_find(int fd0, const char *rel, uint64_t ino, int depth)
{
	char *found = NULL;
	struct dirent *de;
	DIR *d;

	if (depth > 64)
		return NULL;
	d = fdopendir(fd0);
	if (!d) {
		close(fd0);
		return NULL;
	}
	while (!found && (de = readdir(d))) {
		size_t rl = strlen(rel), nl = strlen(de->d_name);
		char *sub;
		int fd;

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = malloc(rl + 1 + nl + 1);
		if (!sub)
			break;
		memcpy(sub, rel, rl);
		sub[rl] = '/';
		memcpy(sub + rl + 1, de->d_name, nl + 1);
		if (de->d_ino == ino) {
			found = sub;
			break;
		}
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			found = td_pf_cgroup_find(fd, sub, ino, depth + 1);
		free(sub);
	}
	closedir(d);
	return found;
}

static int td_pf_filter_einval(struct taskdiag *td, const char *msg)
{
	td_set_extack(td, msg, strlen(msg));
	return -EINVAL;
}

static int td_pf_filter_cgroup_init(struct td_pf_filter *f, struct taskdiag *td,
				    const struct taskdiag_request *req)
{
	static const char noent[] = "no such cgroup in the sender's cgroup namespace "
				    "(unified hierarchy)";
	char *root = NULL;
	struct stat st;

	if (req->cgroup_id && req->cgroup_path)
		return td_pf_filter_einval(td, "give filter-cgroup-id or filter-cgroup-path, "
					       "not both");
	/*
	 * A path is checked wherever the hierarchy is mounted; an id is looked
	 * for under /sys/fs/cgroup only (tests/unit/test_request.c expects
	 * EOPNOTSUPP for one elsewhere).
	 */
	if (req->cgroup_path)
		root = td_pf_cgroup2_mount();
	else if (req->cgroup_id && td_pf_cgroup2_at(TD_PF_CGROUP_ROOT))
		root = strdup(TD_PF_CGROUP_ROOT);
	if (req->cgroup_path) {
		size_t len = strlen(req->cgroup_path), rl;
		char *full;

		if (req->cgroup_path[0] != '/' || len > 4095) {
			free(root);
			return td_pf_filter_einval(td, req->cgroup_path[0] != '/' ?
						   "filter-cgroup-path must start with /" :
						   "filter-cgroup-path is longer than 4095 bytes");
		}
		f->cgroup = strdup(req->cgroup_path);
		if (!f->cgroup) {
			free(root);
			return -ENOMEM;
		}
		/* "/a/b/" names /a/b, as the kernel's lookup takes it */
		while (len > 1 && f->cgroup[len - 1] == '/')
			f->cgroup[--len] = '\0';
		f->cgroup_len = len;
		if (!root)
			return 0;
		rl = strlen(root);
		full = malloc(rl + len + 1);
		if (!full) {
			free(root);
			return -ENOMEM;
		}
		memcpy(full, root, rl);
		memcpy(full + rl, f->cgroup, len + 1);
		free(root);
		if (stat(full, &st) || !S_ISDIR(st.st_mode)) {
			free(full);
			td_set_extack(td, noent, strlen(noent));
			return -ENOENT;
		}
		free(full);
		return 0;
	}
	if (!req->cgroup_id)
		return 0;
	if (!root) {
		static const char msg[] = "filter-cgroup-id on the procfs backend needs the "
					  "unified cgroup hierarchy mounted at /sys/fs/cgroup";

		td_set_extack(td, msg, strlen(msg));
		return -EOPNOTSUPP;
	}
	if (stat(root, &st) == 0 && st.st_ino == req->cgroup_id) {
		f->cgroup = strdup("/");
	} else {
		int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd >= 0)
			f->cgroup = td_pf_cgroup_find(fd, "", req->cgroup_id, 0);
		if (!f->cgroup) {
			free(root);
			td_set_extack(td, noent, strlen(noent));
			return -ENOENT;
		}
	}
	free(root);
	if (!f->cgroup)
		return -ENOMEM;
	f->cgroup_len = strlen(f->cgroup);
	return 0;
}

int td_pf_filter_init(struct td_pf_filter *f, struct taskdiag *td,
		      const struct taskdiag_request *req)
{
	int err;

	memset(f, 0, sizeof(*f));
	if (req->comm) {
		size_t len = strlen(req->comm);

		if (!len || len > 15)
			return td_pf_filter_einval(td, "filter-comm is 1 to 15 bytes "
						       "(a comm has at most 15)");
		f->comm = req->comm;
		f->comm_len = len;
	}
	err = td_pf_ids_copy(&f->pids, &f->npids, req->pids, req->npids);
	if (!err)
		err = td_pf_ids_copy(&f->uids, &f->nuids, req->uids, req->nuids);
	if (!err)
		err = td_pf_ids_copy(&f->euids, &f->neuids, req->euids, req->neuids);
	if (!err)
		err = td_pf_filter_cgroup_init(f, td, req);
	if (err)
		td_pf_filter_free(f);
	return err;
}

void td_pf_filter_free(struct td_pf_filter *f)
{
	free(f->pids);
	free(f->uids);
	free(f->euids);
	free(f->cgroup);
	memset(f, 0, sizeof(*f));
}

bool td_pf_filter_pid(const struct td_pf_filter *f, pid_t pid)
{
	return !f->npids || td_pf_ids_has(f->pids, f->npids, (uint64_t)pid);
}

/*
 * task->comm of a workqueue worker: the first line of sched, "COMM (PID,
 * #threads: N)", which prints task->comm itself (where stat appends the
 * workqueue, after a "+" or "-" that a rescuer's own name, kworker/R-WQ,
 * may contain too). Its length, or -1 if the file cannot be read.
 */
static int td_pf_sched_comm(int dirfd, char *comm, size_t size)
{
	char buf[128];
	const char *nl, *paren = NULL, *p;
	ssize_t n;
	int fd;

	fd = openat(dirfd, "sched", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	nl = memchr(buf, '\n', (size_t)n);
	if (!nl)
		return -1;
	for (p = buf; p + 1 < nl; p++)
		if (p[0] == ' ' && p[1] == '(')
			paren = p;
	if (!paren || (size_t)(paren - buf) >= size)
		return -1;
	memcpy(comm, buf, (size_t)(paren - buf));
	comm[paren - buf] = '\0';
	return (int)(paren - buf);
}

bool td_pf_filter_comm(const struct td_pf_filter *f, int dirfd, const char *name, size_t len,
		       uint64_t flags)
{
	char comm[64];
	int n;

	if (!f->comm)
		return true;
	if (flags & TD_PF_PF_WQ_WORKER) {
		n = td_pf_sched_comm(dirfd, comm, sizeof(comm));
		if (n >= 0)
			return (size_t)n == f->comm_len && !memcmp(comm, f->comm, (size_t)n);
	}
	if (flags & TD_PF_PF_WQ_WORKER) {
		/* without sched: cut at the workqueue's "+" or "-" */
		const char *cut = memchr(name, '+', len), *dash = memchr(name, '-', len);

		if (!cut || (dash && dash < cut))
			cut = dash;
		if (cut)
			len = (size_t)(cut - name);
	}
	if (len > 15)
		len = 15;
	return len == f->comm_len && !memcmp(name, f->comm, len);
}

bool td_pf_filter_ids(const struct td_pf_filter *f, const char *status, size_t len)
{
	const char *p = status, *end = status + len;
	uint64_t uid, euid;

	if (!f->nuids && !f->neuids)
		return true;
	for (;;) {
		if ((size_t)(end - p) > 4 && !memcmp(p, "Uid:", 4))
			break;
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return false;	/* no Uid line: nothing to match */
		p++;
	}
	p = td_scan_dec(td_skip_blank(p + 4), &uid);
	if (!p || !td_scan_dec(td_skip_blank(p), &euid))
		return false;
	return (!f->nuids || td_pf_ids_has(f->uids, f->nuids, uid)) &&
	       (!f->neuids || td_pf_ids_has(f->euids, f->neuids, euid));
}

int td_pf_filter_cgroup(const struct td_pf_filter *f, int dirfd)
{
	char buf[4096 + 64];
	const char *p, *end, *path;
	ssize_t n;
	size_t plen;
	int fd;

	if (!f->cgroup)
		return 1;
	fd = openat(dirfd, "cgroup", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	end = buf + n;
	for (p = buf; p < end; p++) {
		if ((p == buf || p[-1] == '\n') && end - p >= 3 && !memcmp(p, "0::", 3))
			break;
	}
	if (p < end) {
		path = p + 3;
		p = memchr(path, '\n', (size_t)(end - path));
		plen = p ? (size_t)(p - path) : (size_t)(end - path);
	} else {
		/* no 0:: line before a cgroup2 is first mounted: all in its root */
		path = "/";
		plen = 1;
	}
	if (f->cgroup_len == 1)
		return path[0] == '/';
	return plen >= f->cgroup_len && !memcmp(path, f->cgroup, f->cgroup_len) &&
	       (plen == f->cgroup_len || path[f->cgroup_len] == '/');
}
