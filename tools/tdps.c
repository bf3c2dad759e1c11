// SPDX-License-Identifier: GPL-2.0
/*
 * tdps: a ps for the common cases, on libtaskdiag (the task_diag kernel
 * module, or /proc without it). Its output is meant to be byte for byte
 * that of procps's ps for the options and format specifiers it knows
 * (tdps.1 lists them and the differences).
 *
 * tdps.c: options, the selection of tasks, the screen width and the layout
 * of the columns; tdps_fmt.c: the table of format specifiers.
 *
 * Exit status (as ps): 0 when at least one task was listed, 1 for none, or
 * for bad usage; 3 when the netlink backend was asked for and the module
 * is not loaded; 4 for any other error of libtaskdiag.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <langinfo.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "tdps.h"

#ifndef TDPS_VERSION
#define TDPS_VERSION "unknown"
#endif

enum tdps_exit {
	TDPS_EXIT_OK = 0,
	TDPS_EXIT_NONE = 1,	/* no task selected, or bad usage (as ps) */
	TDPS_EXIT_NOMODULE = 3,
	TDPS_EXIT_ERROR = 4,
};

#define UNLIMITED	SIZE_MAX
#define WIDE_MIN_COLS	132	/* -w: at least this wide */

/* ------------------------------------------------------------------------
 * Options
 */

/* A list of ids from -p, -u or -U. */
struct idlist {
	uint32_t *v;
	size_t n, cap;
};

struct column {
	const struct tdps_spec *sp;
	const char *header;
	size_t width;
};

struct opts {
	size_t pid_width;	/* digits of kernel.pid_max */
	bool all, threads;
	int wide;		/* how many -w */
	struct idlist pids, euids, ruids;
	struct column *cols;
	size_t ncols;
	char *fmt_text;		/* the -o lists, which the columns point into */
	size_t fmt_len;
	enum taskdiag_backend backend;
};

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\nUsage:\n tdps [options]\n\n Try 'tdps --help' for more information.\n",
	      stderr);
	exit(TDPS_EXIT_NONE);
}

static void usage(void)
{
	fputs("Usage:\n"
	      " tdps [options]\n"
	      "\n"
	      "A ps for the common cases, from the task_diag module or /proc.\n"
	      "\n"
	      "Selection (several add up; default: the processes of your terminal\n"
	      "and effective user):\n"
	      " -e, -A               all processes\n"
	      " -p PIDLIST           these process ids\n"
	      " -u USERLIST          these effective users (names or ids)\n"
	      " -U USERLIST          these real users (names or ids)\n"
	      " -L                   one line per thread (adds LWP to the default format)\n"
	      "\n"
	      "Output:\n"
	      " -o FORMAT            columns: specifiers separated by commas or blanks,\n"
	      "                      each SPEC[:WIDTH][=HEADER]; repeatable\n"
	      " -w                   at least 132 columns wide; twice: unlimited\n"
	      "\n"
	      "Other:\n"
	      "     --backend B      auto (default), netlink or procfs\n"
	      " -h, --help           this text\n"
	      " -V, --version        the version\n"
	      "\n"
	      "Format specifiers:\n", stdout);
	tdps_spec_list(stdout);
	fputs("\n"
	      "Exit status: 0 some task listed, 1 none or bad usage, 3 task_diag module\n"
	      "not loaded (--backend netlink), 4 other error.\n", stdout);
}

static void idlist_add(struct idlist *l, uint32_t id)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		uint32_t *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			tdps_nomem();
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = id;
}

static bool idlist_has(const struct idlist *l, uint32_t id)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i] == id)
			return true;
	return false;
}

/* Calls @one for each item of a list separated by commas or blanks. */
static void split_list(char *s, void (*one)(const char *item, void *arg), void *arg)
{
	char *p = s, *end;

	for (;;) {
		end = p + strcspn(p, ", \t");
		if (end == p)
			usage_error("improper list");
		if (!*end) {
			one(p, arg);
			return;
		}
		*end = '\0';
		one(p, arg);
		p = end + 1;
	}
}

static void one_pid(const char *s, void *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (*end)
		usage_error("process ID list syntax error");
	if (errno || v <= 0 || v > INT_MAX)
		usage_error("process ID out of range");
	idlist_add(arg, (uint32_t)v);
}

static bool all_digits(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static void one_user(const char *s, void *arg)
{
	struct passwd *pw;
	long long v;

	if (all_digits(s)) {
		errno = 0;
		v = strtoll(s, NULL, 10);
		if (errno || v < 0 || v >= (long long)UINT32_MAX)
			usage_error("user ID out of range");
		idlist_add(arg, (uint32_t)v);
		return;
	}
	pw = getpwnam(s);
	if (!pw)
		usage_error("user name does not exist");
	idlist_add(arg, pw->pw_uid);
}

static void add_column(struct opts *o, const struct tdps_spec *sp, const char *header,
		       size_t width)
{
	struct column *c = realloc(o->cols, (o->ncols + 1) * sizeof(*c));

	if (!c)
		tdps_nomem();
	o->cols = c;
	c[o->ncols++] = (struct column){ .sp = sp, .header = header, .width = width };
}

/* One item of -o: NAME[:WIDTH][=HEADER]. */
static void one_spec(const char *item, void *arg)
{
	char *s = (char *)item, *hdr = strchr(s, '='), *colon, *end;
	const struct tdps_spec *sp;
	size_t width = 0;
	unsigned long w;

	if (hdr)
		*hdr++ = '\0';
	colon = strchr(s, ':');
	if (colon) {
		*colon++ = '\0';
		errno = 0;
		w = strtoul(colon, &end, 10);
		if (!*colon || *end || errno || !w || w > 0xffff || *colon == '-' ||
		    *colon == '+')
			usage_error("column widths must be unsigned decimal numbers");
		width = w;
	}
	sp = tdps_spec_find(s);
	if (!sp)
		usage_error("unknown user-defined format specifier \"%s\"", s);
	if (!width) {
		width = sp->width;
		if (sp->pid && ((struct opts *)arg)->pid_width > width)
			width = ((struct opts *)arg)->pid_width;
		if (hdr && strlen(hdr) > width)
			width = strlen(hdr);
	}
	add_column(arg, sp, hdr ? hdr : sp->header, width);
}

/*
 * The -o lists are kept in one buffer that lives as long as the columns
 * (their headers point into it); parse_format() runs once all are known.
 */
static void keep_format(struct opts *o, const char *arg)
{
	size_t n = strlen(arg);
	char *p;

	if (!n)
		usage_error("format specification must follow -o");
	p = realloc(o->fmt_text, o->fmt_len + n + 1);
	if (!p)
		tdps_nomem();
	memcpy(p + o->fmt_len, arg, n + 1);
	o->fmt_text = p;
	o->fmt_len += n + 1;
}

static void parse_formats(struct opts *o)
{
	size_t off, n;

	for (off = 0; off < o->fmt_len; off += n + 1) {
		char *s = o->fmt_text + off;

		n = strlen(s);

		/* a separator at the end is allowed, one alone is not */
		if (n > 1 && (s[n - 1] == ',' || s[n - 1] == ' '))
			s[n - 1] = '\0';
		if (strspn(s, ", \t") == strlen(s))
			usage_error("improper format list");
		split_list(s, one_spec, o);
	}
}

static void default_format(struct opts *o)
{
	static const char *const plain[] = { "pid", "tname", "time", "ucmd" };
	static const char *const threads[] = { "pid", "lwp", "tname", "time", "ucmd" };
	const char *const *names = o->threads ? threads : plain;
	size_t i, n = o->threads ? 5 : 4;

	for (i = 0; i < n; i++) {
		const struct tdps_spec *sp = tdps_spec_find(names[i]);
		size_t w = sp->pid && o->pid_width > sp->width ? o->pid_width : sp->width;

		add_column(o, sp, sp->header, w);
	}
}

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ "backend", required_argument, NULL, 'b' },
	{ NULL, 0, NULL, 0 },
};

static void missing_arg(int c) __attribute__((noreturn));
static void missing_arg(int c)
{
	switch (c) {
	case 'p':
		usage_error("list of process IDs must follow -p");
	case 'u':
		usage_error("list of users must follow -u");
	case 'U':
		usage_error("list of real users must follow -U");
	case 'o':
		usage_error("format specification must follow -o");
	default:
		usage_error("option --backend needs auto, netlink or procfs");
	}
}

static enum taskdiag_backend parse_backend(const char *s)
{
	if (!strcmp(s, "auto"))
		return TASKDIAG_BACKEND_AUTO;
	if (!strcmp(s, "netlink"))
		return TASKDIAG_BACKEND_NETLINK;
	if (!strcmp(s, "procfs"))
		return TASKDIAG_BACKEND_PROCFS;
	usage_error("unknown backend \"%s\" (auto, netlink or procfs)", s);
}

static uint64_t file_value(const char *path, const char *key)
{
	size_t klen = strlen(key);
	unsigned long long v = 0;
	char line[256];
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen)) {
			v = strtoull(line + klen, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* ps makes pid columns as wide as the largest pid can be. */
static size_t pid_digits(void)
{
	uint64_t max = file_value("/proc/sys/kernel/pid_max", "");
	size_t n = 1;

	for (; max >= 10; max /= 10)
		n++;
	return n;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":eAp:u:U:Lo:wVh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'e':
		case 'A':
			o->all = true;
			break;
		case 'p':
			if (!*optarg)
				missing_arg(c);
			split_list(optarg, one_pid, &o->pids);
			break;
		case 'u':
		case 'U':
			if (!*optarg)
				missing_arg(c);
			split_list(optarg, one_user, c == 'u' ? &o->euids : &o->ruids);
			break;
		case 'L':
			o->threads = true;
			break;
		case 'o':
			keep_format(o, optarg);
			break;
		case 'w':
			o->wide++;
			break;
		case 'b':
			o->backend = parse_backend(optarg);
			break;
		case 'h':
			usage();
			exit(TDPS_EXIT_OK);
		case 'V':
			printf("tdps (task_diag) %s\n", TDPS_VERSION);
			exit(TDPS_EXIT_OK);
		case ':':
			missing_arg(optopt);
			break;
		default:
			if (optopt)
				usage_error("unsupported option -%c", optopt);
			usage_error("unsupported option %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		usage_error("unsupported argument \"%s\"", argv[optind]);
	o->pid_width = pid_digits();
	if (o->fmt_len)
		parse_formats(o);
	else
		default_format(o);
}

/* ------------------------------------------------------------------------
 * The facts the formatters need
 */

static uint64_t uptime_cs(void)
{
	double up = 0;
	FILE *f = fopen("/proc/uptime", "re");

	if (f) {
		if (fscanf(f, "%lf", &up) != 1)
			up = 0;
		fclose(f);
	}
	return (uint64_t)(up * 100 + 0.5);
}

static void read_ctx(struct tdps_ctx *cx, bool threads)
{
	const char *cs = nl_langinfo(CODESET);
	long v;

	cx->threads = threads;
	cx->utf8 = cs && !strcmp(cs, "UTF-8");
	v = sysconf(_SC_CLK_TCK);
	cx->hz = v > 0 ? (uint64_t)v : 100;
	v = sysconf(_SC_PAGESIZE);
	cx->page_size = v > 0 ? (uint64_t)v : 4096;
	cx->mem_total_kib = file_value("/proc/meminfo", "MemTotal:");
	cx->boot_time = (time_t)file_value("/proc/stat", "btime ");
	cx->uptime_cs = uptime_cs();
	cx->now = time(NULL);
}

/* ------------------------------------------------------------------------
 * Screen width and the layout of a line
 */

static size_t screen_cols(int wide)
{
	const char *env = getenv("COLUMNS");
	size_t cols = UNLIMITED;
	struct winsize ws;
	char *end;
	long v;

	if (env && *env) {
		v = strtol(env, &end, 10);
		if (!*end && v > 0 && v < 131072)
			cols = (size_t)v;
	}
	if (cols == UNLIMITED && isatty(STDOUT_FILENO) &&
	    !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		cols = ws.ws_col;
	if (cols != UNLIMITED && cols < 9) {
		const char *lines = getenv("LINES");

		fprintf(stderr, "your %zux%d screen size is bogus. expect trouble\n", cols,
			lines && atoi(lines) > 0 ? atoi(lines) : 24);
	}
	if (wide >= 2)
		return UNLIMITED;
	if (wide && cols != UNLIMITED && cols < WIDE_MIN_COLS)
		cols = WIDE_MIN_COLS;
	return cols;
}

struct layout {
	const struct column *cols;
	size_t ncols;
	size_t screen;		/* columns of the screen, or UNLIMITED */
	bool utf8;
	struct tdps_buf line;
	size_t pos;		/* columns written to line */
	size_t debt;		/* columns written beyond the widths so far */
};

static void put_spaces(struct layout *l, size_t n)
{
	while (n--)
		tdps_addc(&l->line, ' ');
}

/* Room for the last column, if it is as wide as the screen allows. */
static size_t room(const struct layout *l, size_t min)
{
	long long avail;

	if (l->screen == UNLIMITED)
		return UNLIMITED;
	avail = (long long)l->screen - (long long)l->pos;
	while (avail < (long long)min)
		avail += (long long)l->screen;
	return (size_t)avail;
}

/* Cut @s to @limit columns as @fit says; returns the bytes kept. */
static size_t fit_text(const char *s, size_t n, size_t limit, enum tdps_fit fit, bool utf8,
		       bool *plus)
{
	*plus = false;
	if (fit == TDPS_SPILL || limit == UNLIMITED || tdps_text_width(s, n, utf8) <= limit)
		return n;
	if (fit == TDPS_PLUS && limit > 0) {
		*plus = true;
		return tdps_text_cut(s, n, limit - 1, utf8);
	}
	return tdps_text_cut(s, n, limit, utf8);
}

/*
 * The padding of a value @w columns wide in a column @width wide: what the
 * columns before wrote beyond their widths is given back from it.
 */
static size_t padding(struct layout *l, size_t width, size_t w)
{
	size_t pad = width > w ? width - w : 0, take;

	if (w > width)
		l->debt += w - width;
	take = pad < l->debt ? pad : l->debt;
	l->debt -= take;
	return pad - take;
}

static void put_cell(struct layout *l, size_t i, const char *s, bool header)
{
	const struct column *c = &l->cols[i];
	bool last = i + 1 == l->ncols, plus = false;
	size_t n = strlen(s), w, pad, limit = c->width;

	if (i) {
		tdps_addc(&l->line, ' ');
		l->pos++;
	}
	if (!header) {
		if (last && c->sp->wide)
			limit = room(l, c->sp->min);
		n = fit_text(s, n, limit, c->sp->fit, l->utf8, &plus);
	}
	w = tdps_text_width(s, n, l->utf8) + plus;
	pad = padding(l, c->width, w);
	/* a left-aligned last column is not padded */
	if (!c->sp->right && last)
		pad = 0;
	if (c->sp->right)
		put_spaces(l, pad);
	tdps_add(&l->line, s, n);
	if (plus)
		tdps_addc(&l->line, '+');
	if (!c->sp->right)
		put_spaces(l, pad);
	l->pos += w + pad;
}

static void line_begin(struct layout *l)
{
	l->line.len = 0;
	l->pos = 0;
	l->debt = 0;
}

static void line_end(struct layout *l)
{
	tdps_addc(&l->line, '\n');
}

/* The header line, or nothing when every header is empty. */
static void put_header(struct layout *l)
{
	size_t i;

	for (i = 0; i < l->ncols; i++)
		if (*l->cols[i].header)
			break;
	if (i == l->ncols)
		return;
	line_begin(l);
	for (i = 0; i < l->ncols; i++)
		put_cell(l, i, l->cols[i].header, true);
	line_end(l);
	fwrite(l->line.p, 1, l->line.len, stdout);
}

/* ------------------------------------------------------------------------
 * Selection and the rows
 */

struct row {
	pid_t tgid, tid;
	char *text;
};

struct run {
	const struct opts *o;
	struct tdps_ctx cx;
	struct layout lay;
	struct tdps_buf cell;
	bool leaders;		/* -L: the pass over processes, not threads */
	uid_t my_euid;
	uint64_t my_tty;
	size_t listed;
	struct row *rows;	/* -L: the lines, to be sorted */
	size_t nrows, cap;
};

static uint32_t id_of(const struct taskdiag_task *t, enum taskdiag_item item)
{
	uint64_t v = UINT64_MAX;

	taskdiag_task_get_u64(t, item, &v);
	return (uint32_t)v;
}

static bool selected(const struct run *r, const struct taskdiag_task *t)
{
	const struct opts *o = r->o;
	uint64_t tty = 0;

	if (o->all)
		return true;
	if (o->pids.n || o->euids.n || o->ruids.n)
		return idlist_has(&o->pids, (uint32_t)taskdiag_task_tgid(t)) ||
		       idlist_has(&o->euids, id_of(t, TASKDIAG_ITEM_CRED_EUID)) ||
		       idlist_has(&o->ruids, id_of(t, TASKDIAG_ITEM_CRED_UID));
	taskdiag_task_get_u64(t, TASKDIAG_ITEM_BASE_TTY_NR, &tty);
	return id_of(t, TASKDIAG_ITEM_CRED_EUID) == r->my_euid && tty == r->my_tty;
}

static void add_row(struct run *r, const struct taskdiag_task *t, const char *text)
{
	struct row *row;

	if (r->nrows == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;

		row = realloc(r->rows, cap * sizeof(*row));
		if (!row)
			tdps_nomem();
		r->rows = row;
		r->cap = cap;
	}
	row = &r->rows[r->nrows++];
	row->tgid = taskdiag_task_tgid(t);
	row->tid = taskdiag_task_pid(t);
	row->text = strdup(text);
	if (!row->text)
		tdps_nomem();
}

static int one_task(const struct taskdiag_task *t, void *arg)
{
	struct run *r = arg;
	struct layout *l = &r->lay;
	size_t i;

	/* -L: a process's own line has whole-process values, as in ps */
	if (r->o->threads && (taskdiag_task_pid(t) == taskdiag_task_tgid(t)) != r->leaders)
		return 0;
	if (!selected(r, t))
		return 0;
	line_begin(l);
	for (i = 0; i < l->ncols; i++) {
		struct tdps_arg a = { .t = t, .cx = &r->cx, .item = l->cols[i].sp->item };

		tdps_clear(&r->cell);
		l->cols[i].sp->fmt(&r->cell, &a);
		put_cell(l, i, r->cell.p, false);
	}
	line_end(l);
	r->listed++;
	/* processes come in pid order: print at once; threads are sorted */
	if (r->o->threads)
		add_row(r, t, l->line.p);
	else
		fwrite(l->line.p, 1, l->line.len, stdout);
	return 0;
}

/* ps lists the threads of each process together, in pid order. */
static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if ((x->tid == x->tgid) != (y->tid == y->tgid))
		return x->tid == x->tgid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int report(int err, struct taskdiag *td, const char *what)
{
	const char *extack = td ? taskdiag_extack(td) : NULL;

	fprintf(stderr, "tdps: %s: %s%s%s%s\n", what, taskdiag_strerror(err),
		extack ? " (" : "", extack ? extack : "", extack ? ")" : "");
	if (err == -TASKDIAG_ENOMODULE) {
		fputs("tdps: load it with modprobe task_diag, or use --backend procfs\n", stderr);
		return TDPS_EXIT_NOMODULE;
	}
	return TDPS_EXIT_ERROR;
}

/* The caller's terminal, for the default selection. */
static int find_my_tty(struct run *r, struct taskdiag *td)
{
	struct taskdiag_request req = {
		.scope = TASKDIAG_SCOPE_TASK,
		.pid = getpid(),
		.groups = TASKDIAG_GROUP_BASE,
	};
	const struct taskdiag_task *t;
	struct taskdiag_iter *it;
	int ret;

	ret = taskdiag_iter_start(td, &req, &it);
	if (ret)
		return ret;
	ret = taskdiag_iter_next(it, &t);
	if (ret > 0) {
		taskdiag_task_get_u64(t, TASKDIAG_ITEM_BASE_TTY_NR, &r->my_tty);
		ret = 0;
	}
	taskdiag_iter_end(it);
	return ret;
}

static uint32_t groups_needed(const struct opts *o)
{
	uint32_t g = TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_CRED;
	size_t i;

	if (o->all || (o->pids.n && !o->euids.n && !o->ruids.n))
		g = 0;
	for (i = 0; i < o->ncols; i++)
		g |= o->cols[i].sp->groups;
	return g;
}

static int run_dump(struct run *r, struct taskdiag *td)
{
	const struct opts *o = r->o;
	struct taskdiag_request req = {
		.scope = o->threads ? TASKDIAG_SCOPE_ALL_THREADS : TASKDIAG_SCOPE_ALL_PROCESSES,
		.groups = groups_needed(o),
	};
	size_t i;
	int ret;

	if (!o->all && !o->pids.n && !o->euids.n && !o->ruids.n) {
		ret = find_my_tty(r, td);
		if (ret)
			return report(ret, td, "reading the own terminal");
	}
	put_header(&r->lay);
	if (o->threads) {
		struct taskdiag_request procs = req;

		procs.scope = TASKDIAG_SCOPE_ALL_PROCESSES;
		r->leaders = true;
		ret = taskdiag_dump(td, &procs, one_task, r);
		if (ret)
			return report(ret, td, "reading the processes");
		r->leaders = false;
	}
	ret = taskdiag_dump(td, &req, one_task, r);
	if (ret)
		return report(ret, td, "reading the tasks");
	if (r->nrows)
		qsort(r->rows, r->nrows, sizeof(*r->rows), row_cmp);
	for (i = 0; i < r->nrows; i++)
		fputs(r->rows[i].text, stdout);
	return r->listed ? TDPS_EXIT_OK : TDPS_EXIT_NONE;
}

static void free_opts(struct opts *o)
{
	free(o->pids.v);
	free(o->euids.v);
	free(o->ruids.v);
	free(o->cols);
	free(o->fmt_text);
}

int main(int argc, char **argv)
{
	struct opts o = { .backend = TASKDIAG_BACKEND_AUTO };
	struct taskdiag *td = NULL;
	struct run r = { .o = &o };
	size_t i;
	int ret;

	setlocale(LC_ALL, "");
	parse_args(argc, argv, &o);
	read_ctx(&r.cx, o.threads);
	r.my_euid = geteuid();
	r.lay = (struct layout){
		.cols = o.cols,
		.ncols = o.ncols,
		.screen = screen_cols(o.wide),
		.utf8 = r.cx.utf8,
	};
	ret = taskdiag_open(&td, o.backend);
	if (ret)
		ret = report(ret, NULL, "opening the backend");
	else
		ret = run_dump(&r, td);
	taskdiag_close(td);
	if (fflush(stdout) && !ret) {
		fprintf(stderr, "tdps: writing the output: %s\n", strerror(errno));
		ret = TDPS_EXIT_ERROR;
	}
	for (i = 0; i < r.nrows; i++)
		free(r.rows[i].text);
	free(r.rows);
	free(r.lay.line.p);
	free(r.cell.p);
	free_opts(&o);
	tdps_fmt_cleanup();
	return ret;
}
