// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * _taskdiag: the C half of the taskdiag Python package, over libtaskdiag's
 * public API only.
 *
 * A read is one libtaskdiag sample (the whole dump, taken with the GIL
 * released); Process objects point at records of that sample and build
 * Python values only when asked. Values are named and typed as psutil's
 * where psutil has them, and by the library's item names otherwise.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <taskdiag/taskdiag.h>

/* The project's version (project() in the top CMakeLists.txt), from the build. */
#ifndef TD_PY_VERSION
#error "TD_PY_VERSION must be defined (python/CMakeLists.txt, python/setup.py)"
#endif

/* Set by _setup() from the package's __init__.py. */
static PyObject *Exc_NoSuchProcess, *Exc_AccessDenied, *Exc_TaskDiagError,
	*Exc_ModuleNotLoaded, *Warn_Fallback;
static PyObject *T_pcputimes, *T_pmem, *T_pio, *T_puids, *T_pgids, *T_pctxsw;

static int fallback_warned;

/* ---- handles -------------------------------------------------------- */

/*
 * One cached handle per explicit backend (netlink, procfs) and for "auto"
 * when it found the module; a thread that finds the cache busy opens its
 * own. A handle inherited through fork() is never used (the netlink socket
 * would be shared with the parent).
 */
struct slot {
	struct taskdiag *td;
	pid_t owner;
	PyThread_type_lock lock;
};
static struct slot slots[3];

static int parse_backend(const char *s, enum taskdiag_backend *be)
{
	if (!strcmp(s, "auto"))
		*be = TASKDIAG_BACKEND_AUTO;
	else if (!strcmp(s, "netlink"))
		*be = TASKDIAG_BACKEND_NETLINK;
	else if (!strcmp(s, "procfs"))
		*be = TASKDIAG_BACKEND_PROCFS;
	else {
		PyErr_Format(PyExc_ValueError,
			     "backend must be 'auto', 'netlink' or 'procfs' (got '%s')", s);
		return -1;
	}
	return 0;
}

static PyObject *raise_td(int err, const struct taskdiag *td, pid_t pid)
{
	const char *ext = td ? taskdiag_extack(td) : NULL;
	PyObject *msg, *exc, *val;

	if (err == -ESRCH && pid > 0) {
		val = PyObject_CallFunction(Exc_NoSuchProcess, "is", (int)pid,
					    NULL);
		goto out;
	}
	if (err == -TASKDIAG_ENOMODULE)
		msg = PyUnicode_FromFormat("%s: load it (modprobe task_diag) or use backend='procfs' "
					   "or 'auto', which reads /proc instead",
					   taskdiag_strerror(err));
	else if (ext)
		msg = PyUnicode_FromFormat("%s: %s", taskdiag_strerror(err), ext);
	else
		msg = PyUnicode_FromString(taskdiag_strerror(err));
	if (!msg)
		return NULL;
	exc = err == -TASKDIAG_ENOMODULE ? Exc_ModuleNotLoaded : Exc_TaskDiagError;
	val = PyObject_CallFunction(exc, "iO", -err, msg);
	Py_DECREF(msg);
out:
	if (val) {
		PyErr_SetObject((PyObject *)Py_TYPE(val), val);
		Py_DECREF(val);
	}
	return NULL;
}

/* Called with the GIL released. */
static int handle_get(enum taskdiag_backend be, struct taskdiag **td, int *cached)
{
	struct slot *sl = &slots[be];
	int err;

	*cached = 0;
	if (PyThread_acquire_lock(sl->lock, NOWAIT_LOCK)) {
		if (sl->td && sl->owner != getpid())
			sl->td = NULL;	/* the parent's: leave its socket alone */
		if (sl->td) {
			*td = sl->td;
			*cached = 1;
			return 0;
		}
		err = taskdiag_open(td, be);
		if (!err && (be != TASKDIAG_BACKEND_AUTO ||
			     taskdiag_get_backend(*td) == TASKDIAG_BACKEND_NETLINK)) {
			/* "auto" on /proc is not kept: a module loaded later is used */
			sl->td = *td;
			sl->owner = getpid();
			*cached = 1;
			return 0;
		}
		PyThread_release_lock(sl->lock);
		return err;
	}
	return taskdiag_open(td, be);
}

static void handle_put(enum taskdiag_backend be, struct taskdiag *td, int cached, int failed)
{
	struct slot *sl = &slots[be];

	if (!cached) {
		taskdiag_close(td);
		return;
	}
	if (failed) {
		taskdiag_close(td);
		sl->td = NULL;
	}
	PyThread_release_lock(sl->lock);
}

/* ---- samples -------------------------------------------------------- */

typedef struct {
	PyObject_HEAD
	struct taskdiag_sample *s;
	uint32_t groups;
	enum taskdiag_backend backend;	/* the one used */
	int scope;
	int have_sys;
	struct taskdiag_system sys;
	PyObject *users;	/* uid -> name, filled as asked */
	PyObject *ttys;		/* st_rdev -> /dev path, read when first asked */
} SampleObject;

static PyTypeObject SampleType, ProcessType, DiffType, IterType;

static void sample_dealloc(SampleObject *self)
{
	taskdiag_sample_free(self->s);
	Py_XDECREF(self->users);
	Py_XDECREF(self->ttys);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static SampleObject *sample_take(enum taskdiag_backend be, enum taskdiag_scope scope, pid_t pid,
				 uint32_t groups)
{
	struct taskdiag_request req = { .scope = scope, .pid = pid, .groups = groups };
	SampleObject *self;
	struct taskdiag *td = NULL;
	int err, cached = 0, n = 0;

	self = PyObject_New(SampleObject, &SampleType);
	if (!self)
		return NULL;
	self->s = NULL;
	self->users = NULL;
	self->ttys = NULL;
	self->have_sys = 0;
	self->groups = groups;
	self->scope = scope;
	err = taskdiag_sample_new(&self->s);
	if (err) {
		Py_DECREF(self);
		return (SampleObject *)raise_td(err, NULL, 0);
	}
	Py_BEGIN_ALLOW_THREADS
	err = handle_get(be, &td, &cached);
	if (!err) {
		self->backend = taskdiag_get_backend(td);
		n = taskdiag_sample_take(td, &req, self->s);
	}
	Py_END_ALLOW_THREADS
	if (err) {
		Py_DECREF(self);
		return (SampleObject *)raise_td(err, NULL, 0);
	}
	if (n < 0) {
		raise_td(n, td, scope == TASKDIAG_SCOPE_TASK ? pid : 0);
		handle_put(be, td, cached, 1);
		Py_DECREF(self);
		return NULL;
	}
	handle_put(be, td, cached, 0);
	if (be == TASKDIAG_BACKEND_AUTO && self->backend == TASKDIAG_BACKEND_PROCFS &&
	    !fallback_warned) {
		fallback_warned = 1;
		if (PyErr_WarnFormat(Warn_Fallback, 1,
				     "%s: reading /proc instead (the same values, more slowly); "
				     "load the module with 'modprobe task_diag'",
				     taskdiag_strerror(-TASKDIAG_ENOMODULE)) < 0) {
			Py_DECREF(self);
			return NULL;
		}
	}
	return self;
}

static const struct taskdiag_system *sample_sys(SampleObject *s)
{
	int err;

	if (!s->have_sys) {
		memset(&s->sys, 0, sizeof(s->sys));
		err = taskdiag_system_read(&s->sys, sizeof(s->sys));
		if (err) {
			raise_td(err, NULL, 0);
			return NULL;
		}
		s->have_sys = 1;
	}
	return &s->sys;
}

/* ---- diffs ---------------------------------------------------------- */

typedef struct {
	PyObject_HEAD
	struct taskdiag_diff *d;
	SampleObject *prev, *cur;
} DiffObject;

static void diff_dealloc(DiffObject *self)
{
	taskdiag_diff_free(self->d);
	Py_XDECREF(self->prev);
	Py_XDECREF(self->cur);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static DiffObject *diff_make(SampleObject *prev, SampleObject *cur, unsigned int ncpu)
{
	DiffObject *self = PyObject_New(DiffObject, &DiffType);
	int err;

	if (!self)
		return NULL;
	self->d = NULL;
	Py_INCREF(prev);
	Py_INCREF(cur);
	self->prev = prev;
	self->cur = cur;
	err = taskdiag_diff_new(&self->d);
	if (!err) {
		Py_BEGIN_ALLOW_THREADS
		err = taskdiag_diff_compute(self->d, prev->s, cur->s, ncpu);
		Py_END_ALLOW_THREADS
	}
	if (err) {
		Py_DECREF(self);
		return (DiffObject *)raise_td(err, NULL, 0);
	}
	return self;
}

/* ---- processes ------------------------------------------------------ */

typedef struct {
	PyObject_HEAD
	SampleObject *sample;
	const struct taskdiag_task *task;
	DiffObject *diff;	/* when it came from one: rates and cpu_percent() */
	Py_ssize_t index;	/* its position in the diff */
	pid_t pid;
	PyObject *info;
	int thread;		/* a record with per-thread values (threads=True) */
	int from_iter;		/* from process_iter(): cpu_percent()'s first call has a baseline */
	int cpu_have;		/* cpu_percent(): the last call's read */
	uint64_t cpu_time, cpu_ns;	/* its CLOCK_BOOTTIME and utime + stime, ns */
	int gone, reused;	/* is_running() found it gone, or its pid reused */
} ProcessObject;

static ProcessObject *process_make(SampleObject *s, const struct taskdiag_task *t, DiffObject *d,
				   Py_ssize_t index)
{
	ProcessObject *p = (ProcessObject *)ProcessType.tp_alloc(&ProcessType, 0);

	if (!p)
		return NULL;
	Py_INCREF(s);
	p->sample = s;
	p->task = t;
	Py_XINCREF(d);
	p->diff = d;
	p->index = index;
	p->pid = taskdiag_task_pid(t);
	p->info = NULL;
	p->thread = s->scope == TASKDIAG_SCOPE_ALL_THREADS || s->scope == TASKDIAG_SCOPE_THREADS;
	p->from_iter = 0;
	p->cpu_have = 0;
	p->gone = p->reused = 0;
	return p;
}

static void process_dealloc(ProcessObject *self)
{
	Py_XDECREF(self->sample);
	Py_XDECREF(self->diff);
	Py_XDECREF(self->info);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *no_such_process(pid_t pid, const char *msg)
{
	PyObject *v = PyObject_CallFunction(Exc_NoSuchProcess, "isz", (int)pid, NULL, msg);

	if (v) {
		PyErr_SetObject((PyObject *)Py_TYPE(v), v);
		Py_DECREF(v);
	}
	return NULL;
}

static PyObject *access_denied(ProcessObject *p)
{
	PyObject *v = PyObject_CallFunction(Exc_AccessDenied, "i", (int)p->pid);

	if (v) {
		PyErr_SetObject((PyObject *)Py_TYPE(v), v);
		Py_DECREF(v);
	}
	return NULL;
}

/*
 * What a read asks for when it is not told: every group but mem, which walks
 * the page tables (smaps_rollup's cost); mem items are read when named.
 */
#define TD_PY_GROUPS (TASKDIAG_GROUP_ALL & ~TASKDIAG_GROUP_MEM)

/*
 * Make sure the record holds @groups: a process from a read that did not ask
 * for them is read again, alone, with those and the default groups.
 */
static int process_need(ProcessObject *p, uint32_t groups)
{
	SampleObject *s;
	enum taskdiag_backend be;

	if ((p->sample->groups & groups) == groups)
		return 0;
	be = p->sample->backend;
	s = sample_take(be, TASKDIAG_SCOPE_TASK, p->pid, TD_PY_GROUPS | groups);
	if (!s)
		return -1;
	if (!taskdiag_sample_count(s->s)) {
		Py_DECREF(s);
		no_such_process(p->pid, NULL);
		return -1;
	}
	Py_SETREF(p->sample, s);
	p->task = taskdiag_sample_task(s->s, 0);
	return 0;
}

static int get_u64(ProcessObject *p, enum taskdiag_item item, uint64_t *v)
{
	if (taskdiag_task_get_u64(p->task, item, v)) {
		access_denied(p);
		return -1;
	}
	return 0;
}

/* In a u64_tuple() list: a value /proc always shows as 0, which the library leaves absent. */
#define ITEM_ALWAYS_ZERO ((enum taskdiag_item)-1)

static PyObject *u64_tuple(ProcessObject *p, PyObject *type, const enum taskdiag_item *items,
			   int n, int ticks)
{
	PyObject *args, *pack, *res;
	uint64_t v;
	long hz = sysconf(_SC_CLK_TCK);
	int i;

	args = PyTuple_New(n);
	if (!args)
		return NULL;
	for (i = 0; i < n; i++) {
		PyObject *o;

		v = 0;
		if (items[i] != ITEM_ALWAYS_ZERO && get_u64(p, items[i], &v)) {
			Py_DECREF(args);
			return NULL;
		}
		/* /proc shows whole clock ticks: truncate nanoseconds to them */
		if (ticks)
			o = PyFloat_FromDouble((double)(v / (1000000000ull / hz)) / (double)hz);
		else
			o = PyLong_FromUnsignedLongLong(v);
		if (!o) {
			Py_DECREF(args);
			return NULL;
		}
		PyTuple_SET_ITEM(args, i, o);
	}
	/* the psutil namedtuple, built without running its Python __new__ */
	pack = PyTuple_Pack(1, args);
	Py_DECREF(args);
	if (!pack)
		return NULL;
	res = PyTuple_Type.tp_new((PyTypeObject *)type, pack, NULL);
	Py_DECREF(pack);
	return res;
}

static PyObject *decode(const char *s, size_t len)
{
	return PyUnicode_DecodeFSDefaultAndSize(s, (Py_ssize_t)len);
}

/* Each psutil-named value: its groups and its getter. */
static PyObject *a_pid(ProcessObject *p)
{
	return PyLong_FromLong(p->pid);
}

static PyObject *a_ppid(ProcessObject *p)
{
	uint64_t v;

	return get_u64(p, TASKDIAG_ITEM_BASE_PPID, &v) ? NULL : PyLong_FromUnsignedLongLong(v);
}

/* The module, and the procfs backend alike, send the first 4096 bytes. */
#define TD_CMDLINE_CAP 4096

/*
 * /proc's cmdline as psutil splits it: on NULs, or on spaces when a process
 * rewrote its arguments as one space-separated string.
 */
static PyObject *split_cmdline(const char *data, size_t len)
{
	PyObject *list = PyList_New(0);
	char sep;
	size_t i, start;

	if (!list || !len)
		return list;
	sep = data[len - 1] == '\0' ? '\0' : ' ';
	/* cut at the cap (mid-argument): its NULs still separate the arguments */
	if (len >= TD_CMDLINE_CAP && memchr(data, '\0', len))
		sep = '\0';
	if (data[len - 1] == sep)
		len--;
	if (sep == '\0' && !memchr(data, '\0', len) && memchr(data, ' ', len))
		sep = ' ';
	for (i = start = 0; i <= len; i++) {
		if (i == len || data[i] == sep) {
			PyObject *s = decode(data + start, i - start);

			if (!s || PyList_Append(list, s)) {
				Py_XDECREF(s);
				Py_DECREF(list);
				return NULL;
			}
			Py_DECREF(s);
			start = i + 1;
		}
	}
	return list;
}

static PyObject *a_cmdline(ProcessObject *p)
{
	const void *data;
	size_t len;

	/* /proc/PID/cmdline is readable by all: absent means empty (kernel threads, zombies) */
	if (taskdiag_task_get_bytes(p->task, TASKDIAG_ITEM_CMDLINE, &data, &len))
		len = 0;
	return split_cmdline(data, len);
}

static PyObject *a_name(ProcessObject *p)
{
	const void *data;
	const char *comm;
	size_t len;
	PyObject *name, *args, *arg0, *base;
	Py_ssize_t slash;

	if (taskdiag_task_get_string(p->task, TASKDIAG_ITEM_BASE_COMM, &comm))
		return access_denied(p);
	name = decode(comm, strlen(comm));
	/*
	 * The kernel keeps 15 characters: as psutil, take the base name of
	 * argv[0] instead when it starts with them.
	 */
	if (!name || PyUnicode_GET_LENGTH(name) < 15 ||
	    taskdiag_task_get_bytes(p->task, TASKDIAG_ITEM_CMDLINE, &data, &len))
		return name;
	args = split_cmdline(data, len);
	if (!args) {
		Py_DECREF(name);
		return NULL;
	}
	if (PyList_GET_SIZE(args)) {
		arg0 = PyList_GET_ITEM(args, 0);
		slash = PyUnicode_FindChar(arg0, '/', 0, PyUnicode_GET_LENGTH(arg0), -1);
		base = slash >= 0 ? PyUnicode_Substring(arg0, slash + 1, PyUnicode_GET_LENGTH(arg0))
				  : (Py_INCREF(arg0), arg0);
		if (base && PyUnicode_Tailmatch(base, name, 0, PY_SSIZE_T_MAX, -1) == 1)
			Py_SETREF(name, base);
		else
			Py_XDECREF(base);
	}
	Py_DECREF(args);
	return name;
}

/*
 * Where /proc/PID/exe may not be read, psutil takes argv[0] when it is the
 * absolute path of an executable file: so do we.
 */
static PyObject *exe_guess(ProcessObject *p, int denied)
{
	PyObject *args, *arg0 = NULL, *raw = NULL;
	struct stat st;
	const char *path;

	args = a_cmdline(p);
	if (!args)
		return NULL;
	if (PyList_GET_SIZE(args)) {
		arg0 = PyList_GET_ITEM(args, 0);
		raw = PyUnicode_EncodeFSDefault(arg0);
		if (!raw) {
			Py_DECREF(args);
			return NULL;
		}
		path = PyBytes_AS_STRING(raw);
		if (path[0] == '/' && !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK))
			Py_INCREF(arg0);
		else
			arg0 = NULL;
		Py_DECREF(raw);
	}
	Py_DECREF(args);
	if (arg0)
		return arg0;
	return denied ? access_denied(p) : PyUnicode_FromString("");
}

/* exe is not part of the records: read from /proc as psutil does. */
static PyObject *a_exe(ProcessObject *p)
{
	char path[64], buf[4096 + 16];
	struct stat st;
	ssize_t n;
	size_t len;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)p->pid);
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n < 0) {
		if (errno == EACCES || errno == EPERM)
			return exe_guess(p, 1);
		if (errno == ENOENT || errno == ESRCH) {
			/* kernel threads and zombies have none */
			snprintf(path, sizeof(path), "/proc/%d", (int)p->pid);
			if (!lstat(path, &st))
				return exe_guess(p, 0);
			return no_such_process(p->pid, NULL);
		}
		return PyErr_SetFromErrnoWithFilename(PyExc_OSError, path);
	}
	buf[n] = '\0';
	len = strlen(buf);
	if (len > 10 && !strcmp(buf + len - 10, " (deleted)") && stat(buf, &st))
		len -= 10;
	if (!len)
		return exe_guess(p, 0);
	return decode(buf, len);
}

static PyObject *a_status(ProcessObject *p)
{
	static const char *const names[128] = {
		['R'] = "running", ['S'] = "sleeping", ['D'] = "disk-sleep",
		['T'] = "stopped", ['t'] = "tracing-stop", ['Z'] = "zombie",
		['X'] = "dead", ['x'] = "dead", ['K'] = "wake-kill",
		['W'] = "waking", ['I'] = "idle", ['P'] = "parked",
	};
	uint64_t v;

	if (get_u64(p, TASKDIAG_ITEM_BASE_STATE, &v))
		return NULL;
	return PyUnicode_FromString(v < 128 && names[v] ? names[v] : "?");
}

static PyObject *a_uids(ProcessObject *p)
{
	static const enum taskdiag_item it[] = { TASKDIAG_ITEM_CRED_UID, TASKDIAG_ITEM_CRED_EUID,
						 TASKDIAG_ITEM_CRED_SUID };

	return u64_tuple(p, T_puids, it, 3, 0);
}

static PyObject *a_gids(ProcessObject *p)
{
	static const enum taskdiag_item it[] = { TASKDIAG_ITEM_CRED_GID, TASKDIAG_ITEM_CRED_EGID,
						 TASKDIAG_ITEM_CRED_SGID };

	return u64_tuple(p, T_pgids, it, 3, 0);
}

static PyObject *a_username(ProcessObject *p)
{
	SampleObject *s = p->sample;
	struct passwd pw, *res = NULL;
	char buf[4096];
	PyObject *key, *name;
	uint64_t uid;

	if (get_u64(p, TASKDIAG_ITEM_CRED_UID, &uid))
		return NULL;
	if (!s->users && !(s->users = PyDict_New()))
		return NULL;
	key = PyLong_FromUnsignedLongLong(uid);
	if (!key)
		return NULL;
	name = PyDict_GetItemWithError(s->users, key);
	if (name || PyErr_Occurred()) {
		Py_DECREF(key);
		Py_XINCREF(name);
		return name;
	}
	if (!getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &res) && res)
		name = decode(pw.pw_name, strlen(pw.pw_name));
	else
		name = PyUnicode_FromFormat("%llu", (unsigned long long)uid);
	if (name && PyDict_SetItem(s->users, key, name)) {
		Py_CLEAR(name);
	}
	Py_DECREF(key);
	return name;
}

/* The terminal devices under /dev as psutil finds them: /dev/tty..., /dev/pts/.... */
static int scan_ttys(PyObject *map, const char *dir, const char *prefix)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);
	int err = 0;

	if (!d)
		return 0;
	while (!err && (de = readdir(d))) {
		PyObject *k, *v;

		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st))
			continue;
		k = PyLong_FromUnsignedLongLong(st.st_rdev);
		v = decode(path, strlen(path));
		err = !k || !v || PyDict_SetItem(map, k, v);
		Py_XDECREF(k);
		Py_XDECREF(v);
	}
	closedir(d);
	return err ? -1 : 0;
}

static PyObject *a_terminal(ProcessObject *p)
{
	SampleObject *s = p->sample;
	PyObject *key, *name;
	uint64_t nr;

	if (get_u64(p, TASKDIAG_ITEM_BASE_TTY_NR, &nr))
		return NULL;
	if (!s->ttys) {
		s->ttys = PyDict_New();
		if (!s->ttys || scan_ttys(s->ttys, "/dev", "tty") || scan_ttys(s->ttys, "/dev/pts", "")) {
			Py_CLEAR(s->ttys);
			return NULL;
		}
	}
	key = PyLong_FromUnsignedLongLong(nr);
	if (!key)
		return NULL;
	name = PyDict_GetItemWithError(s->ttys, key);
	Py_DECREF(key);
	if (!name && PyErr_Occurred())
		return NULL;
	if (!name)
		Py_RETURN_NONE;
	Py_INCREF(name);
	return name;
}

static PyObject *a_nice(ProcessObject *p)
{
	int64_t v;

	if (taskdiag_task_get_s64(p->task, TASKDIAG_ITEM_STAT_NICE, &v))
		return access_denied(p);
	return PyLong_FromLongLong(v);
}

static PyObject *a_num_threads(ProcessObject *p)
{
	uint64_t v;

	return get_u64(p, TASKDIAG_ITEM_BASE_NUM_THREADS, &v) ? NULL : PyLong_FromUnsignedLongLong(v);
}

static PyObject *a_cpu_num(ProcessObject *p)
{
	uint64_t v;

	return get_u64(p, TASKDIAG_ITEM_STAT_PROCESSOR, &v) ? NULL : PyLong_FromUnsignedLongLong(v);
}

static PyObject *a_num_ctx_switches(ProcessObject *p)
{
	static const enum taskdiag_item it[] = { TASKDIAG_ITEM_STATUS_VOLUNTARY_CTXT_SWITCHES,
						 TASKDIAG_ITEM_STATUS_NONVOLUNTARY_CTXT_SWITCHES };

	return u64_tuple(p, T_pctxsw, it, 2, 0);
}

static PyObject *a_cpu_times(ProcessObject *p)
{
	static const enum taskdiag_item it[] = { TASKDIAG_ITEM_STAT_UTIME, TASKDIAG_ITEM_STAT_STIME,
						 TASKDIAG_ITEM_STAT_CUTIME, TASKDIAG_ITEM_STAT_CSTIME,
						 TASKDIAG_ITEM_STAT_BLKIO_DELAY };

	return u64_tuple(p, T_pcputimes, it, 5, 1);
}

static PyObject *a_create_time(ProcessObject *p)
{
	const struct taskdiag_system *sys;
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t v;

	if (get_u64(p, TASKDIAG_ITEM_BASE_START_TIME, &v))
		return NULL;
	sys = sample_sys(p->sample);
	if (!sys)
		return NULL;
	return PyFloat_FromDouble((double)(v / (1000000000ull / hz)) / (double)hz +
				  (double)sys->boot_time);
}

static PyObject *a_memory_info(ProcessObject *p)
{
	/* statm's lib and dt: 0 in /proc/PID/statm since Linux 2.6, absent in a record */
	static const enum taskdiag_item it[] = { TASKDIAG_ITEM_STATM_RESIDENT, TASKDIAG_ITEM_STATM_SIZE,
						 TASKDIAG_ITEM_STATM_SHARED, TASKDIAG_ITEM_STATM_TEXT,
						 ITEM_ALWAYS_ZERO, TASKDIAG_ITEM_STATM_DATA,
						 ITEM_ALWAYS_ZERO };

	return u64_tuple(p, T_pmem, it, 7, 0);
}

static PyObject *a_memory_percent(ProcessObject *p)
{
	const struct taskdiag_system *sys;
	uint64_t rss;

	if (get_u64(p, TASKDIAG_ITEM_STATM_RESIDENT, &rss))
		return NULL;
	sys = sample_sys(p->sample);
	if (!sys)
		return NULL;
	if (!sys->mem_total) {
		PyErr_SetString(PyExc_ValueError, "total physical memory is not positive");
		return NULL;
	}
	return PyFloat_FromDouble((double)rss / (double)sys->mem_total * 100);
}

static PyObject *a_io_counters(ProcessObject *p)
{
	static const enum taskdiag_item it[] = { TASKDIAG_ITEM_IO_SYSCR, TASKDIAG_ITEM_IO_SYSCW,
						 TASKDIAG_ITEM_IO_READ_BYTES,
						 TASKDIAG_ITEM_IO_WRITE_BYTES, TASKDIAG_ITEM_IO_RCHAR,
						 TASKDIAG_ITEM_IO_WCHAR };

	return u64_tuple(p, T_pio, it, 6, 0);
}

static PyObject *a_cpu_affinity(ProcessObject *p)
{
	const uint32_t *w;
	const void *data;
	PyObject *list;
	size_t len, i;

	if (taskdiag_task_get_bytes(p->task, TASKDIAG_ITEM_STATUS_CPUS_ALLOWED, &data, &len))
		return access_denied(p);
	w = data;
	list = PyList_New(0);
	for (i = 0; list && i < len / 4 * 32; i++) {
		PyObject *o;

		if (!(w[i / 32] & (1u << (i % 32))))
			continue;
		o = PyLong_FromSize_t(i);
		if (!o || PyList_Append(list, o))
			Py_CLEAR(list);
		Py_XDECREF(o);
	}
	return list;
}

static PyObject *derived(ProcessObject *p, enum taskdiag_derived what, int *ok)
{
	double v;

	*ok = p->diff && !taskdiag_diff_get(p->diff->d, (size_t)p->index, what, &v);
	return *ok ? PyFloat_FromDouble(v) : NULL;
}

/* The record's start time in clock ticks (as create_time() and /proc): 0 if it lacks it. */
static uint64_t start_ticks(const struct taskdiag_task *t)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t v;

	if (taskdiag_task_get_u64(t, TASKDIAG_ITEM_BASE_START_TIME, &v))
		return 0;
	return v / (1000000000ull / hz);
}

/*
 * This task read again now, alone, with @groups: *out (its sample, a new
 * reference) and *task; NULL in *out if it is gone (no task with its pid, or
 * one that started at another time: its pid reused, *reused then set).
 */
static int read_again(ProcessObject *p, uint32_t groups, SampleObject **out,
		      const struct taskdiag_task **task, int *reused)
{
	const struct taskdiag_task *t = NULL;
	SampleObject *s;
	uint64_t tgid;
	size_t i, n;

	*out = NULL;
	*reused = 0;
	if (p->thread && !taskdiag_task_get_u64(p->task, TASKDIAG_ITEM_TGID, &tgid)) {
		/* a thread's own values: its process's threads, then this one */
		s = sample_take(p->sample->backend, TASKDIAG_SCOPE_THREADS, (pid_t)tgid,
				groups | TASKDIAG_GROUP_BASE);
	} else {
		s = sample_take(p->sample->backend, TASKDIAG_SCOPE_TASK, p->pid, groups | TASKDIAG_GROUP_BASE);
	}
	if (!s) {
		if (!PyErr_ExceptionMatches(Exc_NoSuchProcess))
			return -1;
		PyErr_Clear();
		return 0;
	}
	n = taskdiag_sample_count(s->s);
	for (i = 0; i < n && !t; i++)
		if (taskdiag_task_pid(taskdiag_sample_task(s->s, i)) == p->pid)
			t = taskdiag_sample_task(s->s, i);
	if (!t) {
		Py_DECREF(s);
		return 0;
	}
	if (start_ticks(t) != start_ticks(p->task)) {
		*reused = 1;
		Py_DECREF(s);
		return 0;
	}
	*out = s;
	*task = t;
	return 0;
}

static int task_cpu_ns(const struct taskdiag_task *t, uint64_t *ns)
{
	uint64_t u, s;

	if (taskdiag_task_get_u64(t, TASKDIAG_ITEM_STAT_UTIME, &u) ||
	    taskdiag_task_get_u64(t, TASKDIAG_ITEM_STAT_STIME, &s))
		return -1;
	*ns = u + s;
	return 0;
}

/* utime + stime of this task now, and when: raises NoSuchProcess if it is gone. */
static int cpu_now(ProcessObject *p, uint64_t *when, uint64_t *ns)
{
	const struct taskdiag_task *t;
	SampleObject *s;
	int reused, err = 0;

	if (process_need(p, TASKDIAG_GROUP_BASE) || read_again(p, TASKDIAG_GROUP_STAT, &s, &t, &reused))
		return -1;
	if (!s) {
		no_such_process(p->pid, reused ? "process no longer exists and its pid has been reused"
					       : NULL);
		return -1;
	}
	*when = taskdiag_sample_time(s->s);
	if (task_cpu_ns(t, ns)) {
		access_denied(p);
		err = -1;
	}
	Py_DECREF(s);
	return err;
}

/* psutil's figure: % of one CPU, rounded to 0.1 (0.0 over no time). */
static PyObject *cpu_share(uint64_t t1, uint64_t c1, uint64_t t2, uint64_t c2)
{
	double pct;

	if (t2 <= t1 || c2 < c1)
		return PyFloat_FromDouble(0.0);
	pct = (double)(c2 - c1) / (double)(t2 - t1) * 100;
	return PyFloat_FromDouble(round(pct * 10) / 10);
}

/*
 * psutil's cpu_percent(None): % of one CPU since the previous call on this
 * object. The first call of one from process_iter() (or a diff) gives the
 * diff's figure (0.0 without one) and takes the record as the baseline; the
 * first call of any other reads the task and gives 0.0, as psutil's.
 */
static PyObject *a_cpu_percent(ProcessObject *p)
{
	uint64_t when, ns;
	PyObject *v;
	int ok;

	if (!p->cpu_have && (p->diff || p->from_iter)) {
		v = derived(p, TASKDIAG_DERIVED_CPU, &ok);
		if (ok && v) {
			double x = PyFloat_AS_DOUBLE(v);

			Py_SETREF(v, PyFloat_FromDouble(round(x * 10) / 10));
		} else if (!ok) {
			v = PyFloat_FromDouble(0.0);
		}
		if (v && !task_cpu_ns(p->task, &p->cpu_ns)) {
			p->cpu_time = taskdiag_sample_time(p->sample->s);
			p->cpu_have = 1;
		}
		return v;
	}
	if (cpu_now(p, &when, &ns))
		return NULL;
	v = p->cpu_have ? cpu_share(p->cpu_time, p->cpu_ns, when, ns) : PyFloat_FromDouble(0.0);
	p->cpu_time = when;
	p->cpu_ns = ns;
	p->cpu_have = 1;
	return v;
}

/*
 * Each psutil-named value but pid (a property): X(name, groups, doc); its
 * getter is a_<name>(). Each is a method without arguments too, but
 * cpu_percent (which takes interval): PS_ATTRS_1 and PS_ATTRS_2 are the others.
 */
#define G_B TASKDIAG_GROUP_BASE
#define G_S TASKDIAG_GROUP_STAT
#define PS_ATTRS(X) PS_ATTRS_1(X) PS_ATTR_CPU_PERCENT(X) PS_ATTRS_2(X)
#define PS_ATTRS_1(X)								\
	X(ppid, G_B, "The parent's pid.")					\
	X(name, G_B | TASKDIAG_GROUP_CMDLINE,					\
	  "The command name (argv[0]'s base name when the kernel's 15 characters begin it).") \
	X(exe, TASKDIAG_GROUP_CMDLINE, "The executable's path, read from /proc/PID/exe ('' if none).")	\
	X(cmdline, TASKDIAG_GROUP_CMDLINE,					\
	  "The arguments, a list of str (the first 4096 bytes, as the module sends).") \
	X(status, G_B, "'running', 'sleeping', 'disk-sleep', 'stopped', 'zombie', ...") \
	X(username, TASKDIAG_GROUP_CRED, "The name of the real user id.")	\
	X(uids, TASKDIAG_GROUP_CRED, "puids(real, effective, saved).")		\
	X(gids, TASKDIAG_GROUP_CRED, "pgids(real, effective, saved).")		\
	X(terminal, G_B, "The controlling terminal's /dev path, or None.")	\
	X(nice, G_S, "The nice value.")						\
	X(num_threads, G_B, "The number of threads.")				\
	X(num_ctx_switches, TASKDIAG_GROUP_STATUS, "pctxsw(voluntary, involuntary).") \
	X(cpu_times, G_S,							\
	  "pcputimes(user, system, children_user, children_system, iowait), seconds.") \
	X(cpu_num, G_S, "The CPU it last ran on.")
#define PS_ATTR_CPU_PERCENT(X)							\
	X(cpu_percent, G_B | G_S,						\
	  "% of one CPU since the previous call (0.0 at the first).")
#define PS_ATTRS_2(X)								\
	X(create_time, G_B, "When it started, seconds since the epoch.")	\
	X(memory_info, TASKDIAG_GROUP_STATM,					\
	  "pmem(rss, vms, shared, text, lib, data, dirty), bytes.")		\
	X(memory_percent, TASKDIAG_GROUP_STATM, "rss as a % of the machine's memory.") \
	X(io_counters, TASKDIAG_GROUP_IO,					\
	  "pio(read_count, write_count, read_bytes, write_bytes, read_chars, write_chars).") \
	X(cpu_affinity, TASKDIAG_GROUP_STATUS, "The CPUs it may run on, a list of int.")

#define X_ENUM(n, g, d) A_##n,
enum { A_pid, PS_ATTRS(X_ENUM) NPS };
#define NATTR (NPS + TASKDIAG_ITEM__COUNT)

struct psattr {
	const char *name;
	uint32_t groups;
	PyObject *(*get)(ProcessObject *p);
};

#define X_ROW(n, g, d) { #n, g, a_##n },
static const struct psattr psattrs[] = { { "pid", 0, a_pid }, PS_ATTRS(X_ROW) };

static PyObject *attr_keys[NATTR];	/* str key of each attribute id */
static PyObject *attr_ids;		/* key -> id, for every accepted name */
static PyObject *default_attrs;		/* tuple of the ids as_dict() gives by default */

static uint32_t attr_groups(int id)
{
	return id < NPS ? psattrs[id].groups : taskdiag_item_info(id - NPS)->group;
}

/* An item as a Python value, by its type in the item table. */
static PyObject *item_value(ProcessObject *p, enum taskdiag_item item)
{
	const struct taskdiag_item_info *ii = taskdiag_item_info(item);
	const char *str;
	const void *data;
	const uint32_t *w;
	PyObject *list;
	uint64_t u;
	int64_t s;
	size_t len, i;

	switch (ii->type) {
	case TASKDIAG_TYPE_U64:
		if (taskdiag_task_get_u64(p->task, item, &u))
			break;
		if (ii->unit == TASKDIAG_UNIT_CHAR) {
			char c = (char)u;

			return PyUnicode_FromStringAndSize(&c, 1);
		}
		return PyLong_FromUnsignedLongLong(u);
	case TASKDIAG_TYPE_S64:
		if (taskdiag_task_get_s64(p->task, item, &s))
			break;
		return PyLong_FromLongLong(s);
	case TASKDIAG_TYPE_STRING:
		if (taskdiag_task_get_string(p->task, item, &str))
			break;
		return decode(str, strlen(str));
	case TASKDIAG_TYPE_BYTES:
		if (taskdiag_task_get_bytes(p->task, item, &data, &len))
			break;
		return PyBytes_FromStringAndSize(data, (Py_ssize_t)len);
	case TASKDIAG_TYPE_U32_ARRAY:
		if (taskdiag_task_get_bytes(p->task, item, &data, &len))
			break;
		w = data;
		list = PyList_New((Py_ssize_t)(len / 4));
		for (i = 0; list && i < len / 4; i++) {
			PyObject *o = PyLong_FromUnsignedLong(w[i]);

			if (!o) {
				Py_CLEAR(list);
				break;
			}
			PyList_SET_ITEM(list, (Py_ssize_t)i, o);
		}
		return list;
	}
	return access_denied(p);
}

static PyObject *attr_value(ProcessObject *p, int id)
{
	if (process_need(p, attr_groups(id)))
		return NULL;
	return id < NPS ? psattrs[id].get(p) : item_value(p, id - NPS);
}

/* attrs (None or an iterable of names) as a tuple of ids; *groups their union. */
static PyObject *attrs_to_ids(PyObject *attrs, uint32_t *groups)
{
	PyObject *seq, *ids;
	Py_ssize_t i, n;

	*groups = 0;
	if (attrs == NULL || attrs == Py_None) {
		*groups = TD_PY_GROUPS;
		Py_INCREF(default_attrs);
		return default_attrs;
	}
	if (PyUnicode_Check(attrs)) {
		PyErr_SetString(PyExc_TypeError, "attrs must be a list, tuple or set of names");
		return NULL;
	}
	seq = PySequence_Fast(attrs, "attrs must be a list, tuple or set of names");
	if (!seq)
		return NULL;
	n = PySequence_Fast_GET_SIZE(seq);
	if (!n) {
		Py_DECREF(seq);
		*groups = TD_PY_GROUPS;
		Py_INCREF(default_attrs);
		return default_attrs;
	}
	ids = PyTuple_New(n);
	for (i = 0; ids && i < n; i++) {
		PyObject *name = PySequence_Fast_GET_ITEM(seq, i);
		PyObject *id = PyUnicode_Check(name) ? PyDict_GetItemWithError(attr_ids, name) : NULL;

		if (!id) {
			if (!PyErr_Occurred())
				PyErr_Format(PyExc_ValueError,
					     "invalid attr name %R (see taskdiag.ATTRS)", name);
			Py_CLEAR(ids);
			break;
		}
		*groups |= attr_groups((int)PyLong_AsLong(id));
		Py_INCREF(id);
		PyTuple_SET_ITEM(ids, i, id);
	}
	Py_DECREF(seq);
	return ids;
}

static int is_ad(void)
{
	return PyErr_ExceptionMatches(Exc_AccessDenied);
}

/* {name: value} for @ids; AccessDenied (and a zombie's) values become ad_value. */
static PyObject *process_dict(ProcessObject *p, PyObject *ids, PyObject *ad_value)
{
	PyObject *d = PyDict_New();
	Py_ssize_t i;

	for (i = 0; d && i < PyTuple_GET_SIZE(ids); i++) {
		int id = (int)PyLong_AsLong(PyTuple_GET_ITEM(ids, i));
		PyObject *v = attr_value(p, id);

		if (!v && is_ad()) {
			PyErr_Clear();
			Py_INCREF(ad_value);
			v = ad_value;
		}
		if (!v || PyDict_SetItem(d, attr_keys[id], v))
			Py_CLEAR(d);
		Py_XDECREF(v);
	}
	return d;
}

static PyObject *process_as_dict(ProcessObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "attrs", "ad_value", NULL };
	PyObject *attrs = Py_None, *ad = Py_None, *ids, *d;
	uint32_t groups;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:as_dict", kwlist, &attrs, &ad))
		return NULL;
	ids = attrs_to_ids(attrs, &groups);
	if (!ids)
		return NULL;
	d = process_need(self, groups) ? NULL : process_dict(self, ids, ad);
	Py_DECREF(ids);
	return d;
}

static PyObject *process_item(ProcessObject *self, PyObject *name)
{
	const char *s = PyUnicode_AsUTF8(name);
	int item;

	if (!s)
		return NULL;
	item = taskdiag_item_lookup(s);
	if (item < 0)
		return PyErr_Format(PyExc_ValueError, "no task_diag item %R (see taskdiag.ITEMS)",
				    name);
	return attr_value(self, NPS + item);
}

static PyObject *process_rates(ProcessObject *self, PyObject *unused)
{
	PyObject *d = PyDict_New();
	int w;

	(void)unused;
	if (!self->diff) {
		Py_XDECREF(d);
		PyErr_SetString(PyExc_ValueError,
				"rates() needs a process from taskdiag.diff() or process_iter()");
		return NULL;
	}
	for (w = 1; d && w < TASKDIAG_DERIVED__COUNT; w++) {
		int ok;
		PyObject *v = derived(self, w, &ok);

		if (!ok) {
			v = Py_None;
			Py_INCREF(v);
		}
		if (!v || PyDict_SetItemString(d, taskdiag_derived_name(w), v))
			Py_CLEAR(d);
		Py_XDECREF(v);
	}
	return d;
}

/* cpu_percent(interval=None): blocking over interval seconds when it is > 0. */
static PyObject *process_cpu_percent(ProcessObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "interval", NULL };
	PyObject *io = Py_None, *time_mod, *r;
	uint64_t t1, c1, t2, c2;
	double interval = 0;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:cpu_percent", kwlist, &io))
		return NULL;
	if (io != Py_None) {
		interval = PyFloat_AsDouble(io);
		if (interval == -1 && PyErr_Occurred())
			return NULL;
		if (interval < 0)
			return PyErr_Format(PyExc_ValueError, "interval is not positive (got %R)", io);
	}
	if (!(interval > 0))
		return attr_value(self, A_cpu_percent);
	if (cpu_now(self, &t1, &c1))
		return NULL;
	/* time.sleep(): interruptible (KeyboardInterrupt), the GIL released */
	time_mod = PyImport_ImportModule("time");
	if (!time_mod)
		return NULL;
	r = PyObject_CallMethod(time_mod, "sleep", "d", interval);
	Py_DECREF(time_mod);
	if (!r)
		return NULL;
	Py_DECREF(r);
	if (cpu_now(self, &t2, &c2))
		return NULL;
	self->cpu_time = t2;
	self->cpu_ns = c2;
	self->cpu_have = 1;
	return cpu_share(t1, c1, t2, c2);
}

/* Sort records by parent pid, then by their order in the sample (ascending pid). */
struct by_ppid {
	uint64_t ppid;
	size_t i;
};

static int by_ppid_cmp(const void *a, const void *b)
{
	const struct by_ppid *x = a, *y = b;

	if (x->ppid != y->ppid)
		return x->ppid < y->ppid ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * Every descendant of @pid in @s (all processes, with base), as psutil walks
 * them: a stack from @pid; each popped pid's children (by ascending pid)
 * appended to the result and pushed, if they started no earlier than @self.
 */
static PyObject *descendants(ProcessObject *self, SampleObject *s, uint64_t self_start)
{
	size_t n = taskdiag_sample_count(s->s), i, top = 0, lo, hi;
	struct by_ppid *map = PyMem_Calloc(n ? n : 1, sizeof(*map));
	size_t *stack = PyMem_Calloc(n + 1, sizeof(*stack));	/* record index + 1; 0: self */
	char *seen = PyMem_Calloc(n ? n : 1, 1);
	PyObject *list = PyList_New(0);

	if (!map || !stack || !seen || !list) {
		Py_CLEAR(list);
		PyErr_NoMemory();
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct taskdiag_task *t = taskdiag_sample_task(s->s, i);

		map[i].i = i;
		if (taskdiag_task_get_u64(t, TASKDIAG_ITEM_BASE_PPID, &map[i].ppid))
			map[i].ppid = UINT64_MAX;
		if (taskdiag_task_pid(t) == self->pid)
			seen[i] = 1;	/* a cycle through a reused pid ends here */
	}
	qsort(map, n, sizeof(*map), by_ppid_cmp);
	stack[top++] = 0;
	while (top) {
		size_t at = stack[--top];
		pid_t pid = at ? taskdiag_task_pid(taskdiag_sample_task(s->s, at - 1)) : self->pid;

		/* the first record whose parent is pid */
		lo = 0;
		hi = n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (map[mid].ppid < (uint64_t)pid)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < n && map[lo].ppid == (uint64_t)pid; lo++) {
			const struct taskdiag_task *t = taskdiag_sample_task(s->s, map[lo].i);
			PyObject *c;

			if (seen[map[lo].i] || start_ticks(t) < self_start)
				continue;
			seen[map[lo].i] = 1;
			c = (PyObject *)process_make(s, t, NULL, 0);
			if (!c || PyList_Append(list, c)) {
				Py_XDECREF(c);
				Py_CLEAR(list);
				goto out;
			}
			Py_DECREF(c);
			stack[top++] = map[lo].i + 1;
		}
	}
out:
	PyMem_Free(map);
	PyMem_Free(stack);
	PyMem_Free(seen);
	return list;
}

static PyObject *process_children(ProcessObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "recursive", NULL };
	int recursive = 0;
	uint64_t self_start;
	SampleObject *s;
	PyObject *list;
	size_t i, n;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "|p:children", kwlist, &recursive) ||
	    process_need(self, G_B))
		return NULL;
	self_start = start_ticks(self->task);
	if (recursive) {
		/*
		 * Every process's parent and start time, once; each child's other
		 * values are read when first asked (as by a process_iter(attrs)).
		 */
		s = sample_take(self->sample->backend, TASKDIAG_SCOPE_ALL_PROCESSES, 0, G_B);
		if (!s)
			return NULL;
		list = descendants(self, s, self_start);
		Py_DECREF(s);
		return list;
	}
	s = sample_take(self->sample->backend, TASKDIAG_SCOPE_CHILDREN, self->pid, TD_PY_GROUPS);
	if (!s)
		return NULL;
	n = taskdiag_sample_count(s->s);
	list = PyList_New(0);
	for (i = 0; list && i < n; i++) {
		const struct taskdiag_task *t = taskdiag_sample_task(s->s, i);
		PyObject *c;

		/* as psutil: a child older than its parent has a reused pid's parent */
		if (start_ticks(t) < self_start)
			continue;
		c = (PyObject *)process_make(s, t, NULL, 0);
		if (!c || PyList_Append(list, c))
			Py_CLEAR(list);
		Py_XDECREF(c);
	}
	Py_DECREF(s);
	return list;
}

/* psutil's is_running(): gone, or its pid reused, is not running; a zombie is. */
static PyObject *process_is_running(ProcessObject *self, PyObject *unused)
{
	const struct taskdiag_task *t;
	SampleObject *s;
	int reused;

	(void)unused;
	if (self->gone || self->reused)
		Py_RETURN_FALSE;
	if (process_need(self, G_B) || read_again(self, 0, &s, &t, &reused))
		return NULL;
	if (!s) {
		self->gone = !reused;
		self->reused = reused;
		Py_RETURN_FALSE;
	}
	Py_DECREF(s);
	Py_RETURN_TRUE;
}

/* psutil's identity: pid and create time (start time in clock ticks). */
static PyObject *process_richcompare(PyObject *a, PyObject *b, int op)
{
	ProcessObject *x = (ProcessObject *)a, *y = (ProcessObject *)b;
	int eq;

	if (!PyObject_TypeCheck(a, &ProcessType) || !PyObject_TypeCheck(b, &ProcessType) ||
	    (op != Py_EQ && op != Py_NE))
		Py_RETURN_NOTIMPLEMENTED;
	eq = x->pid == y->pid && start_ticks(x->task) == start_ticks(y->task);
	if (op == Py_NE)
		eq = !eq;
	return PyBool_FromLong(eq);
}

static Py_hash_t process_hash(ProcessObject *self)
{
	PyObject *ident = Py_BuildValue("(iK)", (int)self->pid,
					(unsigned long long)start_ticks(self->task));
	Py_hash_t h;

	if (!ident)
		return -1;
	h = PyObject_Hash(ident);
	Py_DECREF(ident);
	return h;
}

static PyObject *process_new_pid(enum taskdiag_backend be, pid_t pid)
{
	SampleObject *s = sample_take(be, TASKDIAG_SCOPE_TASK, pid, TD_PY_GROUPS);
	PyObject *p;

	if (!s)
		return NULL;
	if (!taskdiag_sample_count(s->s)) {
		Py_DECREF(s);
		return no_such_process(pid, NULL);
	}
	p = (PyObject *)process_make(s, taskdiag_sample_task(s->s, 0), NULL, 0);
	Py_DECREF(s);
	return p;
}

static PyObject *process_parent(ProcessObject *self, PyObject *unused)
{
	uint64_t ppid;

	(void)unused;
	if (process_need(self, TASKDIAG_GROUP_BASE) ||
	    get_u64(self, TASKDIAG_ITEM_BASE_PPID, &ppid))
		return NULL;
	if (!ppid)
		Py_RETURN_NONE;
	return process_new_pid(self->sample->backend, (pid_t)ppid);
}

static PyObject *process_tp_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "pid", "backend", NULL };
	PyObject *pido = Py_None;
	const char *bs = "auto";
	enum taskdiag_backend be;
	long pid;

	(void)type;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|Os:Process", kwlist, &pido, &bs) ||
	    parse_backend(bs, &be))
		return NULL;
	if (pido == Py_None) {
		pid = getpid();
	} else {
		if (!PyLong_Check(pido))
			return PyErr_Format(PyExc_TypeError, "pid must be an integer (got %R)", pido);
		pid = PyLong_AsLong(pido);
		if (pid == -1 && PyErr_Occurred())
			return NULL;
		if (pid <= 0 || pid > INT32_MAX)
			return PyErr_Format(PyExc_ValueError,
					    "pid must be a positive integer (got %ld)", pid);
	}
	return process_new_pid(be, (pid_t)pid);
}

static PyObject *process_repr(ProcessObject *self)
{
	const char *comm;

	if (!taskdiag_task_get_string(self->task, TASKDIAG_ITEM_BASE_COMM, &comm))
		return PyUnicode_FromFormat("taskdiag.Process(pid=%d, name='%s')", (int)self->pid,
					    comm);
	return PyUnicode_FromFormat("taskdiag.Process(pid=%d)", (int)self->pid);
}

static PyObject *process_get_pid(ProcessObject *self, void *unused)
{
	(void)unused;
	return PyLong_FromLong(self->pid);
}

static PyObject *process_get_info(ProcessObject *self, void *unused)
{
	(void)unused;
	if (!self->info)
		return PyErr_Format(PyExc_AttributeError,
				    "'info' is set only by process_iter(attrs=...)");
	Py_INCREF(self->info);
	return self->info;
}

static int process_set_info(ProcessObject *self, PyObject *v, void *unused)
{
	(void)unused;
	Py_XINCREF(v);
	Py_XSETREF(self->info, v);
	return 0;
}

static PyObject *process_get_backend(ProcessObject *self, void *unused)
{
	(void)unused;
	return PyUnicode_FromString(self->sample->backend == TASKDIAG_BACKEND_NETLINK ? "netlink"
										     : "procfs");
}

static PyObject *process_oneshot(PyObject *self, PyObject *unused)
{
	PyObject *ctx = PyImport_ImportModule("contextlib"), *r;

	(void)self;
	(void)unused;
	if (!ctx)
		return NULL;
	r = PyObject_CallMethod(ctx, "nullcontext", NULL);
	Py_DECREF(ctx);
	return r;
}

/* The psutil-named methods: p.name(), p.cpu_times(), ... */
#define X_METH(n, g, d)							\
	static PyObject *m_##n(PyObject *self, PyObject *unused)		\
	{									\
		(void)unused;							\
		return attr_value((ProcessObject *)self, A_##n);		\
	}
PS_ATTRS_1(X_METH)
PS_ATTRS_2(X_METH)
#define X_DEF(n, g, d) { #n, m_##n, METH_NOARGS, #n "()\n\n" d },

static PyMethodDef process_methods[] = {
	PS_ATTRS_1(X_DEF)
	PS_ATTRS_2(X_DEF)
	{ "cpu_percent", (PyCFunction)(void (*)(void))process_cpu_percent,
	  METH_VARARGS | METH_KEYWORDS,
	  "cpu_percent(interval=None) -> float\n\n"
	  "% of one CPU, as psutil's: with interval > 0, over that many seconds (blocking);\n"
	  "else since the previous call on this object, 0.0 at the first (from process_iter(),\n"
	  "since the previous process_iter() of the same kind)." },
	{ "is_running", (PyCFunction)process_is_running, METH_NOARGS,
	  "is_running() -> bool\n\nWhether the process still runs (a zombie does), and its pid "
	  "was not reused:\nthe task with its pid started when this one did (read now)." },
	{ "as_dict", (PyCFunction)(void (*)(void))process_as_dict, METH_VARARGS | METH_KEYWORDS,
	  "as_dict(attrs=None, ad_value=None) -> dict\n\nThe values named in attrs (all of "
	  "taskdiag.ATTRS by default); those the caller may not see are ad_value." },
	{ "item", (PyCFunction)process_item, METH_O,
	  "item(name) -> value\n\nA task_diag item by its name ('minflt', 'stat.minflt', ...)." },
	{ "rates", (PyCFunction)process_rates, METH_NOARGS,
	  "rates() -> dict\n\nThe values the library derives over the interval of a diff "
	  "('cpu', 'minflt_rate', ...; None where there is none)." },
	{ "children", (PyCFunction)(void (*)(void))process_children, METH_VARARGS | METH_KEYWORDS,
	  "children(recursive=False) -> list of Process\n\nThe processes whose parent this is, "
	  "or (recursive) all its descendants,\nin psutil's order; those that started before "
	  "this one (a reused pid) left out (read now)." },
	{ "parent", (PyCFunction)process_parent, METH_NOARGS,
	  "parent() -> Process or None\n\nThe parent process (read now)." },
	{ "oneshot", (PyCFunction)process_oneshot, METH_NOARGS,
	  "oneshot() -> context manager\n\nFor psutil compatibility: values are always one read." },
	{ NULL, NULL, 0, NULL }
};

static PyGetSetDef process_getset[] = {
	{ "pid", (getter)process_get_pid, NULL, "The process (or thread) id.", NULL },
	{ "info", (getter)process_get_info, (setter)process_set_info,
	  "The dict of the attrs asked of process_iter().", NULL },
	{ "backend", (getter)process_get_backend, NULL, "'netlink' or 'procfs': where the record came from.",
	  NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject ProcessType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "taskdiag.Process",
	.tp_basicsize = sizeof(ProcessObject),
	.tp_dealloc = (destructor)process_dealloc,
	.tp_repr = (reprfunc)process_repr,
	.tp_hash = (hashfunc)process_hash,
	.tp_richcompare = process_richcompare,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Process(pid=None, backend='auto')\n\n"
		  "One task as read at one moment: by process_iter(), a Sample, a diff, or alone\n"
		  "(Process(pid) reads that one task now; NoSuchProcess if there is none).\n"
		  "Methods named as psutil's return the values of that read.",
	.tp_methods = process_methods,
	.tp_getset = process_getset,
	.tp_new = process_tp_new,
};

/* ---- iteration ------------------------------------------------------ */

typedef struct {
	PyObject_HEAD
	SampleObject *sample;
	DiffObject *diff;
	size_t i, n;
	PyObject *ids;	/* NULL: no info dict */
	PyObject *ad_value;
	int from_iter;	/* process_iter()'s: a baseline for cpu_percent() */
} IterObject;

static void iter_dealloc(IterObject *self)
{
	Py_XDECREF(self->sample);
	Py_XDECREF(self->diff);
	Py_XDECREF(self->ids);
	Py_XDECREF(self->ad_value);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *iter_next(IterObject *self)
{
	while (self->i < self->n) {
		size_t i = self->i++;
		const struct taskdiag_task *t = self->diff ? taskdiag_diff_task(self->diff->d, i)
							   : taskdiag_sample_task(self->sample->s, i);
		ProcessObject *p = process_make(self->sample, t, self->diff, (Py_ssize_t)i);

		if (p)
			p->from_iter = self->from_iter;
		if (!p || !self->ids)
			return (PyObject *)p;
		p->info = process_dict(p, self->ids, self->ad_value);
		if (p->info)
			return (PyObject *)p;
		Py_DECREF(p);
		/* as psutil's process_iter(): a process gone meanwhile is left out */
		if (!PyErr_ExceptionMatches(Exc_NoSuchProcess))
			return NULL;
		PyErr_Clear();
	}
	return NULL;
}

static PyTypeObject IterType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "taskdiag._Iter",
	.tp_basicsize = sizeof(IterObject),
	.tp_dealloc = (destructor)iter_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_iter = PyObject_SelfIter,
	.tp_iternext = (iternextfunc)iter_next,
};

static PyObject *iter_make(SampleObject *s, DiffObject *d, PyObject *ids, PyObject *ad)
{
	IterObject *it = PyObject_New(IterObject, &IterType);

	if (!it)
		return NULL;
	Py_INCREF(s);
	it->sample = s;
	Py_XINCREF(d);
	it->diff = d;
	it->i = 0;
	it->n = d ? taskdiag_diff_count(d->d) : taskdiag_sample_count(s->s);
	Py_XINCREF(ids);
	it->ids = ids;
	Py_INCREF(ad);
	it->ad_value = ad;
	it->from_iter = 0;
	return (PyObject *)it;
}

/* ---- Sample and Diff as Python types -------------------------------- */

static Py_ssize_t sample_len(SampleObject *self)
{
	return (Py_ssize_t)taskdiag_sample_count(self->s);
}

static PyObject *sample_item(SampleObject *self, Py_ssize_t i)
{
	if (i < 0 || (size_t)i >= taskdiag_sample_count(self->s)) {
		PyErr_SetString(PyExc_IndexError, "sample index out of range");
		return NULL;
	}
	return (PyObject *)process_make(self, taskdiag_sample_task(self->s, (size_t)i), NULL, 0);
}

static PyObject *sample_iter(SampleObject *self)
{
	return iter_make(self, NULL, NULL, Py_None);
}

static PyObject *sample_get_time(SampleObject *self, void *unused)
{
	(void)unused;
	return PyFloat_FromDouble((double)taskdiag_sample_time(self->s) / 1e9);
}

static PyObject *sample_get_backend(SampleObject *self, void *unused)
{
	(void)unused;
	return PyUnicode_FromString(self->backend == TASKDIAG_BACKEND_NETLINK ? "netlink"
									      : "procfs");
}

static PySequenceMethods sample_seq = {
	.sq_length = (lenfunc)sample_len,
	.sq_item = (ssizeargfunc)sample_item,
};

static PyGetSetDef sample_getset[] = {
	{ "time", (getter)sample_get_time, NULL,
	  "When it was taken: seconds since boot (CLOCK_BOOTTIME).", NULL },
	{ "backend", (getter)sample_get_backend, NULL, "'netlink' or 'procfs'.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject SampleType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "taskdiag.Sample",
	.tp_basicsize = sizeof(SampleObject),
	.tp_dealloc = (destructor)sample_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Every task of one read, in ascending pid order (a sequence of Process).",
	.tp_as_sequence = &sample_seq,
	.tp_iter = (getiterfunc)sample_iter,
	.tp_getset = sample_getset,
};

static Py_ssize_t diff_len(DiffObject *self)
{
	return (Py_ssize_t)taskdiag_diff_count(self->d);
}

static PyObject *diff_item(DiffObject *self, Py_ssize_t i)
{
	if (i < 0 || (size_t)i >= taskdiag_diff_count(self->d)) {
		PyErr_SetString(PyExc_IndexError, "diff index out of range");
		return NULL;
	}
	return (PyObject *)process_make(self->cur, taskdiag_diff_task(self->d, (size_t)i), self, i);
}

static PyObject *diff_iter(DiffObject *self)
{
	return iter_make(self->cur, self, NULL, Py_None);
}

static PyObject *diff_get_interval(DiffObject *self, void *unused)
{
	(void)unused;
	return PyFloat_FromDouble((double)taskdiag_diff_interval(self->d) / 1e9);
}

static PyObject *diff_get_exited(DiffObject *self, void *unused)
{
	size_t j, n = taskdiag_diff_exited_count(self->d);
	PyObject *list = PyList_New((Py_ssize_t)n);

	(void)unused;
	for (j = 0; list && j < n; j++) {
		PyObject *p = (PyObject *)process_make(self->prev, taskdiag_diff_exited(self->d, j),
						       NULL, 0);

		if (!p)
			Py_CLEAR(list);
		else
			PyList_SET_ITEM(list, (Py_ssize_t)j, p);
	}
	return list;
}

static PyObject *diff_get_appeared(DiffObject *self, void *unused)
{
	(void)unused;
	return PyLong_FromSize_t(taskdiag_diff_appeared_count(self->d));
}

static PySequenceMethods diff_seq = {
	.sq_length = (lenfunc)diff_len,
	.sq_item = (ssizeargfunc)diff_item,
};

static PyGetSetDef diff_getset[] = {
	{ "interval", (getter)diff_get_interval, NULL, "Seconds between the two samples.", NULL },
	{ "exited", (getter)diff_get_exited, NULL,
	  "The older records of the tasks that exited (a list of Process).", NULL },
	{ "appeared", (getter)diff_get_appeared, NULL, "How many tasks appeared.", NULL },
	{ NULL, NULL, NULL, NULL, NULL }
};

static PyTypeObject DiffType = {
	PyVarObject_HEAD_INIT(NULL, 0)
	.tp_name = "taskdiag.Diff",
	.tp_basicsize = sizeof(DiffObject),
	.tp_dealloc = (destructor)diff_dealloc,
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Two samples compared: the newer one's tasks (Process, with rates() and\n"
		  "cpu_percent()), matched on pid and start time.",
	.tp_as_sequence = &diff_seq,
	.tp_iter = (getiterfunc)diff_iter,
	.tp_getset = diff_getset,
};

/* ---- module functions ----------------------------------------------- */

static SampleObject *last_read[2][3];	/* [threads][backend used]: for cpu_percent */

static PyObject *m_process_iter(PyObject *mod, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "attrs", "ad_value", "threads", "backend", NULL };
	PyObject *attrs = Py_None, *ad = Py_None, *ids = NULL, *it = NULL;
	const char *bs = "auto";
	int threads = 0;
	enum taskdiag_backend be;
	uint32_t groups;
	SampleObject *s, **last;
	DiffObject *d = NULL;

	(void)mod;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOps:process_iter", kwlist, &attrs, &ad,
					 &threads, &bs) ||
	    parse_backend(bs, &be))
		return NULL;
	ids = attrs_to_ids(attrs, &groups);
	if (!ids)
		return NULL;
	/* base always: the start time is a Process's identity (==, hash, is_running()) */
	groups |= G_B;
	s = sample_take(be, threads ? TASKDIAG_SCOPE_ALL_THREADS : TASKDIAG_SCOPE_ALL_PROCESSES, 0,
			groups);
	if (!s)
		goto out;
	/* cpu_percent(): against the previous read of the same kind */
	last = &last_read[threads][s->backend];
	if ((groups & (G_B | G_S)) == (G_B | G_S)) {
		if (*last && ((*last)->groups & (G_B | G_S)) == (G_B | G_S)) {
			d = diff_make(*last, s, 0);
			if (!d)
				goto out;
		}
		Py_INCREF(s);
		Py_XSETREF(*last, s);
	}
	it = iter_make(s, d, attrs == Py_None ? NULL : ids, ad);
	if (it && (groups & G_S))
		((IterObject *)it)->from_iter = 1;
out:
	Py_XDECREF(d);
	Py_XDECREF(s);
	Py_DECREF(ids);
	return it;
}

static PyObject *m_sample(PyObject *mod, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "attrs", "threads", "backend", NULL };
	PyObject *attrs = Py_None, *ids;
	const char *bs = "auto";
	int threads = 0;
	enum taskdiag_backend be;
	uint32_t groups;

	(void)mod;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|Ops:sample", kwlist, &attrs, &threads, &bs) ||
	    parse_backend(bs, &be))
		return NULL;
	ids = attrs_to_ids(attrs, &groups);
	if (!ids)
		return NULL;
	Py_DECREF(ids);
	/* base for matching tasks in a diff, stat for CPU */
	return (PyObject *)sample_take(be,
				       threads ? TASKDIAG_SCOPE_ALL_THREADS
					       : TASKDIAG_SCOPE_ALL_PROCESSES,
				       0, groups | G_B | G_S);
}

static PyObject *m_diff(PyObject *mod, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "older", "newer", "ncpu", NULL };
	SampleObject *a, *b;
	unsigned int ncpu = 0;

	(void)mod;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O!|I:diff", kwlist, &SampleType, &a,
					 &SampleType, &b, &ncpu))
		return NULL;
	return (PyObject *)diff_make(a, b, ncpu);
}

static PyObject *m_pids(PyObject *mod, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "threads", "backend", NULL };
	const char *bs = "auto";
	int threads = 0;
	enum taskdiag_backend be;
	SampleObject *s;
	PyObject *list;
	size_t i, n;

	(void)mod;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|ps:pids", kwlist, &threads, &bs) ||
	    parse_backend(bs, &be))
		return NULL;
	s = sample_take(be, threads ? TASKDIAG_SCOPE_ALL_THREADS : TASKDIAG_SCOPE_ALL_PROCESSES, 0,
			0);
	if (!s)
		return NULL;
	n = taskdiag_sample_count(s->s);
	list = PyList_New((Py_ssize_t)n);
	for (i = 0; list && i < n; i++) {
		PyObject *o = PyLong_FromLong(taskdiag_task_pid(taskdiag_sample_task(s->s, i)));

		if (!o)
			Py_CLEAR(list);
		else
			PyList_SET_ITEM(list, (Py_ssize_t)i, o);
	}
	Py_DECREF(s);
	return list;
}

/* psutil's pid_exists(): a process (not a thread id) with this pid, zombies included. */
static PyObject *m_pid_exists(PyObject *mod, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "pid", "backend", NULL };
	const char *bs = "auto";
	enum taskdiag_backend be;
	PyObject *pido;
	SampleObject *s;
	long long pid;
	uint64_t tgid;
	int overflow, yes;

	(void)mod;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|s:pid_exists", kwlist, &pido, &bs) ||
	    parse_backend(bs, &be))
		return NULL;
	if (!PyLong_Check(pido))
		return PyErr_Format(PyExc_TypeError, "pid must be an integer (got %R)", pido);
	pid = PyLong_AsLongLongAndOverflow(pido, &overflow);
	if (pid == -1 && PyErr_Occurred())
		return NULL;
	/* pid 0 is no process on Linux (psutil: 0 in pids(), False) */
	if (overflow || pid <= 0 || pid > INT32_MAX)
		Py_RETURN_FALSE;
	s = sample_take(be, TASKDIAG_SCOPE_TASK, (pid_t)pid, 0);
	if (!s) {
		if (!PyErr_ExceptionMatches(Exc_NoSuchProcess))
			return NULL;
		PyErr_Clear();
		Py_RETURN_FALSE;
	}
	/* a thread's id names a task too: as psutil, only a process's pid counts */
	yes = taskdiag_sample_count(s->s) &&
	      !taskdiag_task_get_u64(taskdiag_sample_task(s->s, 0), TASKDIAG_ITEM_TGID, &tgid) &&
	      tgid == (uint64_t)pid;
	Py_DECREF(s);
	return PyBool_FromLong(yes);
}

static PyObject *m_backend(PyObject *mod, PyObject *args)
{
	const char *bs = "auto";
	enum taskdiag_backend be;
	struct taskdiag *td;
	int err;

	(void)mod;
	if (!PyArg_ParseTuple(args, "|s:backend", &bs) || parse_backend(bs, &be))
		return NULL;
	err = taskdiag_open(&td, be);
	if (err)
		return raise_td(err, NULL, 0);
	be = taskdiag_get_backend(td);
	taskdiag_close(td);
	return PyUnicode_FromString(be == TASKDIAG_BACKEND_NETLINK ? "netlink" : "procfs");
}

static PyObject *m_setup(PyObject *mod, PyObject *args)
{
	PyObject **const slot[] = { &Exc_NoSuchProcess, &Exc_AccessDenied, &Exc_TaskDiagError,
				    &Exc_ModuleNotLoaded, &Warn_Fallback, &T_pcputimes, &T_pmem,
				    &T_pio, &T_puids, &T_pgids, &T_pctxsw };
	PyObject *o[11];
	size_t i;

	(void)mod;
	if (!PyArg_ParseTuple(args, "OOOOOOOOOOO:_setup", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
			      &o[6], &o[7], &o[8], &o[9], &o[10]))
		return NULL;
	for (i = 0; i < 11; i++) {
		Py_INCREF(o[i]);
		Py_XSETREF(*slot[i], o[i]);
	}
	Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
	{ "process_iter", (PyCFunction)(void (*)(void))m_process_iter, METH_VARARGS | METH_KEYWORDS,
	  "process_iter(attrs=None, ad_value=None, threads=False, backend='auto')\n\n"
	  "Every process (every thread with threads=True) of one read, as Process objects in\n"
	  "ascending pid order. With attrs (a list of names of taskdiag.ATTRS; [] for all),\n"
	  "each one's .info is the dict of those values, ad_value where access is denied.\n"
	  "The read takes only the groups those attrs need; the GIL is released meanwhile." },
	{ "sample", (PyCFunction)(void (*)(void))m_sample, METH_VARARGS | METH_KEYWORDS,
	  "sample(attrs=None, threads=False, backend='auto') -> Sample\n\n"
	  "One read of every process (or thread), to compare with another by diff()." },
	{ "diff", (PyCFunction)(void (*)(void))m_diff, METH_VARARGS | METH_KEYWORDS,
	  "diff(older, newer, ncpu=0) -> Diff\n\nCompare two samples: CPU shares and rates." },
	{ "pids", (PyCFunction)(void (*)(void))m_pids, METH_VARARGS | METH_KEYWORDS,
	  "pids(threads=False, backend='auto') -> list of int" },
	{ "pid_exists", (PyCFunction)(void (*)(void))m_pid_exists, METH_VARARGS | METH_KEYWORDS,
	  "pid_exists(pid, backend='auto') -> bool\n\n"
	  "Whether a process with this pid exists (a zombie does; a thread id is not a pid)." },
	{ "backend", (PyCFunction)m_backend, METH_VARARGS,
	  "backend(backend='auto') -> 'netlink' or 'procfs'\n\nWhat a read would use." },
	{ "_setup", (PyCFunction)m_setup, METH_VARARGS, NULL },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef moduledef = {
	PyModuleDef_HEAD_INIT,
	.m_name = "taskdiag._taskdiag",
	.m_doc = "The C half of the taskdiag package (use the package, not this).",
	.m_size = -1,
	.m_methods = module_methods,
};

/* Keys: psutil's names, then every item as "group.name", and as its bare name when unique. */
static int build_attrs(PyObject *m)
{
	PyObject *items = PyDict_New(), *defaults = PyList_New(0);
	int id, i;

	attr_ids = PyDict_New();
	if (!items || !defaults || !attr_ids)
		return -1;
	for (id = 0; id < NATTR; id++) {
		PyObject *idn = PyLong_FromLong(id), *full = NULL;
		const struct taskdiag_item_info *ii = id >= NPS ? taskdiag_item_info(id - NPS) : NULL;
		int bare = 1;

		if (!idn)
			return -1;
		if (ii) {
			full = PyUnicode_FromFormat("%s.%s", ii->group_name, ii->name);
			if (!full || PyDict_SetItem(attr_ids, full, idn) ||
			    PyDict_SetItem(items, full, idn))
				return -1;
			for (i = 0; i < NPS; i++)
				bare = bare && strcmp(psattrs[i].name, ii->name);
			bare = bare && taskdiag_item_lookup(ii->name) == id - NPS;
		}
		if (bare) {
			attr_keys[id] = PyUnicode_InternFromString(ii ? ii->name : psattrs[id].name);
			Py_XDECREF(full);
			if (!attr_keys[id] || PyDict_SetItem(attr_ids, attr_keys[id], idn) ||
			    ((!ii || (ii->group & TD_PY_GROUPS)) && PyList_Append(defaults, idn)))
				return -1;
		} else {
			attr_keys[id] = full;
		}
		Py_DECREF(idn);
	}
	default_attrs = PyList_AsTuple(defaults);
	Py_DECREF(defaults);
	if (!default_attrs)
		return -1;
	/* ATTRS: the names as_dict() gives by default; ITEMS: "group.name" -> id */
	{
		PyObject *names = PyTuple_New(PyTuple_GET_SIZE(default_attrs));
		Py_ssize_t k;

		for (k = 0; names && k < PyTuple_GET_SIZE(default_attrs); k++) {
			PyObject *key = attr_keys[PyLong_AsLong(PyTuple_GET_ITEM(default_attrs, k))];

			Py_INCREF(key);
			PyTuple_SET_ITEM(names, k, key);
		}
		if (!names || PyModule_AddObject(m, "ATTRS", names))
			return -1;
	}
	return PyModule_AddObject(m, "ITEMS", PyDictProxy_New(items));
}

PyMODINIT_FUNC PyInit__taskdiag(void);
PyMODINIT_FUNC PyInit__taskdiag(void)
{
	PyObject *m;
	int i;

	for (i = 0; i < 3; i++) {
		slots[i].lock = PyThread_allocate_lock();
		if (!slots[i].lock)
			return PyErr_NoMemory();
	}
	if (PyType_Ready(&ProcessType) || PyType_Ready(&SampleType) || PyType_Ready(&DiffType) ||
	    PyType_Ready(&IterType))
		return NULL;
	m = PyModule_Create(&moduledef);
	if (!m)
		return NULL;
	if (build_attrs(m) || PyModule_AddStringConstant(m, "__version__", TD_PY_VERSION))
		goto err;
	Py_INCREF(&ProcessType);
	Py_INCREF(&SampleType);
	Py_INCREF(&DiffType);
	if (PyModule_AddObject(m, "Process", (PyObject *)&ProcessType) ||
	    PyModule_AddObject(m, "Sample", (PyObject *)&SampleType) ||
	    PyModule_AddObject(m, "Diff", (PyObject *)&DiffType))
		goto err;
	return m;
err:
	Py_DECREF(m);
	return NULL;
}
