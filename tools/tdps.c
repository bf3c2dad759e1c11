// SPDX-License-Identifier: GPL-2.0
/*
 * tdps: a ps on libtaskdiag (the task_diag kernel module, or /proc without
 * it). Its output is meant to be byte for byte that of procps's ps for the
 * options and format specifiers it knows (tdps.1 lists them and the
 * differences).
 *
 * tdps.c: the selection of tasks, sorting, process trees, the screen width
 * and the layout of the columns; tdps_opt.c: the command line and the
 * columns it asks for; psfields.c: the table of format specifiers.
 *
 * Exit status (as ps): 0 when at least one task was listed, 1 for none, or
 * for bad usage; 3 when the netlink backend was asked for and the module
 * is not loaded; 4 for any other error of libtaskdiag.
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "td_backend_opt.h"
#include "tdps.h"

enum tdps_exit {
	TDPS_EXIT_OK = 0,
	TDPS_EXIT_NONE = 1,	/* no task selected, or bad usage (as ps) */
	TDPS_EXIT_NOMODULE = 3,
	TDPS_EXIT_ERROR = 4,
};

#define UNLIMITED	TDPS_UNLIMITED
#define WIDE_MIN_COLS	132	/* -w: at least this wide */

/* ------------------------------------------------------------------------
 * Screen width and the layout of a line
 */

static size_t screen_cols(int wide, size_t forced)
{
	const char *env = getenv("COLUMNS");
	size_t cols = UNLIMITED;
	struct winsize ws;
	char *end;
	long v;

	if (forced)
		cols = forced;
	else if (env && *env) {
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
	const struct tdps_column *cols;
	size_t ncols;
	size_t screen;		/* columns of the screen, or UNLIMITED */
	bool utf8;
	struct tdbuf line;
	size_t pos;		/* columns written to line */
	size_t debt;		/* columns written beyond the widths so far */
};

static void put_spaces(struct layout *l, size_t n)
{
	tdbuf_pad(&l->line, ' ', n);
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

/*
 * Cut @s (*@n bytes, *@w columns) to @limit columns as @fit says; *@plus
 * when a '+' is to follow.
 */
static void fit_text(const char *s, size_t *n, size_t *w, size_t limit, enum psf_fit fit,
		     bool utf8, bool *plus)
{
	*plus = false;
	if (fit == PSF_SPILL || limit == UNLIMITED || *w <= limit)
		return;
	if (fit == PSF_PLUS && limit > 0) {
		*plus = true;
		limit--;
	}
	*n = psf_text_cut(s, *n, limit, utf8);
	*w = psf_text_width(s, *n, utf8);
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

static void put_cell(struct layout *l, size_t i, const char *s, size_t n, bool header)
{
	const struct tdps_column *c = &l->cols[i];
	bool last = i + 1 == l->ncols, plus = false;
	size_t w = psf_text_width(s, n, l->utf8), pad, limit = c->width;

	if (i) {
		tdbuf_addc(&l->line, ' ');
		l->pos++;
	}
	if (!header) {
		if (last && c->sp->wide)
			limit = room(l, c->sp->min);
		fit_text(s, &n, &w, limit, c->sp->fit, l->utf8, &plus);
	}
	w += plus;
	pad = padding(l, c->width, w);
	/* a left-aligned last column is not padded */
	if (!c->sp->right && last)
		pad = 0;
	if (c->sp->right)
		put_spaces(l, pad);
	tdbuf_add(&l->line, s, n);
	if (plus)
		tdbuf_addc(&l->line, '+');
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
	tdbuf_addc(&l->line, '\n');
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
		put_cell(l, i, l->cols[i].header, strlen(l->cols[i].header), true);
	line_end(l);
	fwrite(l->line.p, 1, l->line.len, stdout);
}

/* ------------------------------------------------------------------------
 * Selection
 */

struct key {
	int64_t n;
	char *s;
};

struct row {
	pid_t tgid, tid, ppid;
	uint64_t start_ns;	/* when it started (ns since boot) */
	size_t seq;		/* place before the --sort keys apply */
	char *cells;		/* the values, each followed by a NUL */
	struct key *keys;
};

struct run {
	const struct tdps_opts *o;
	struct psf_ctx cx;
	struct layout lay;
	struct tdbuf cell, text;
	bool threads;		/* -L, -T, H: one row per thread */
	bool leaders;		/* threads: the pass over processes, not threads */
	bool keep;		/* rows are kept (sorted, trees, threads, -q) */
	bool use_table;		/* the simple selections apply */
	unsigned int select_bits;
	uid_t my_euid;
	uint64_t my_tty;
	bool statm_locked;	/* the module sends statm's locked (VmLck) */
	struct tdps_ids ttys;	/* -t and T */
	size_t listed;
	struct row *rows;
	size_t nrows, cap;
	unsigned char *stack;	/* trees: whether the ancestor at each depth has a later sibling */
	size_t stack_cap;
};

static int64_t val(const struct taskdiag_task *t, enum taskdiag_item item)
{
	uint64_t v = 0;

	taskdiag_task_get_u64(t, item, &v);
	return (int64_t)v;
}

static uint32_t id_of(const struct taskdiag_task *t, enum taskdiag_item item)
{
	uint64_t v = UINT64_MAX;

	taskdiag_task_get_u64(t, item, &v);
	return (uint32_t)v;
}

/*
 * The simple selections as ps has them: a table of 16 bits, one for each
 * combination of "has our euid", "leads its session", "has no tty", "is on
 * our tty".
 */
static void select_setup(struct run *r)
{
	const struct tdps_opts *o = r->o;
	unsigned int sw = o->simple;

	if (!o->simple && !o->bsd) {
		r->select_bits = 0xaa00;	/* ours, on our tty */
		return;
	}
	if (!(sw & (TDPS_SS_U_a | TDPS_SS_U_d)))
		sw |= 0x10;	/* BSD g, always on */
	switch (sw) {
	case TDPS_SS_U_a | TDPS_SS_U_d:
		r->select_bits = 0x3f3f;
		break;
	case TDPS_SS_U_a:
		r->select_bits = 0x0303;
		break;
	case TDPS_SS_U_d:
		r->select_bits = 0x3333;
		break;
	case 0x10:
		r->select_bits = 0x0a0a;
		break;
	case 0x10 | TDPS_SS_B_a:
		r->select_bits = 0x0f0f;
		break;
	case 0x10 | TDPS_SS_B_x:
		r->select_bits = 0xaaaa;
		break;
	case 0x10 | TDPS_SS_B_x | TDPS_SS_B_a:
		r->select_bits = 0xffff;
		break;
	default:
		tdps_usage_error("process selection options conflict");
	}
}

static bool table_accept(const struct run *r, const struct taskdiag_task *t)
{
	uint64_t tty = (uint64_t)val(t, TASKDIAG_ITEM_BASE_TTY_NR);
	unsigned int idx = (id_of(t, TASKDIAG_ITEM_CRED_EUID) == r->my_euid) |
			   (val(t, TASKDIAG_ITEM_BASE_SID) == taskdiag_task_tgid(t)) << 1 |
			   (tty == 0) << 2 | (tty == r->my_tty) << 3;

	return r->select_bits & (1u << idx);
}

static bool listed(const struct run *r, const struct taskdiag_task *t)
{
	const struct tdps_ids *s = r->o->sel;
	const char *comm = "";
	size_t i;

	if (tdps_ids_has(&s[TDPS_SEL_PID], (uint32_t)taskdiag_task_tgid(t)) ||
	    tdps_ids_has(&s[TDPS_SEL_PPID], id_of(t, TASKDIAG_ITEM_BASE_PPID)) ||
	    tdps_ids_has(&s[TDPS_SEL_SID], id_of(t, TASKDIAG_ITEM_BASE_SID)) ||
	    tdps_ids_has(&r->ttys, id_of(t, TASKDIAG_ITEM_BASE_TTY_NR)) ||
	    tdps_ids_has(&s[TDPS_SEL_EUID], id_of(t, TASKDIAG_ITEM_CRED_EUID)) ||
	    tdps_ids_has(&s[TDPS_SEL_RUID], id_of(t, TASKDIAG_ITEM_CRED_UID)) ||
	    tdps_ids_has(&s[TDPS_SEL_EGID], id_of(t, TASKDIAG_ITEM_CRED_EGID)) ||
	    tdps_ids_has(&s[TDPS_SEL_RGID], id_of(t, TASKDIAG_ITEM_CRED_GID)))
		return true;
	if (!r->o->ncomms)
		return false;
	taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &comm);
	for (i = 0; i < r->o->ncomms; i++)
		if (!strcmp(comm, r->o->comms[i]))
			return true;
	return false;
}

static bool selected(const struct run *r, const struct taskdiag_task *t)
{
	const struct tdps_opts *o = r->o;
	bool ok = o->all || (r->use_table && table_accept(r, t)) || listed(r, t);

	if (o->running_only) {
		int64_t st = val(t, TASKDIAG_ITEM_BASE_STATE);

		ok = ok && (st == 'R' || st == 'D');
	}
	return o->negate ? !ok : ok;
}

/* ------------------------------------------------------------------------
 * Rows
 */

static struct row *new_row(struct run *r)
{
	struct row *row;

	if (r->nrows == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;

		row = realloc(r->rows, cap * sizeof(*row));
		if (!row)
			td_nomem();
		r->rows = row;
		r->cap = cap;
	}
	row = &r->rows[r->nrows];
	memset(row, 0, sizeof(*row));
	row->seq = r->nrows++;
	return row;
}

static char *dup_text(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		td_nomem();
	memcpy(p, s, n + 1);
	return p;
}

static void keep_row(struct run *r, const struct taskdiag_task *t)
{
	const struct tdps_opts *o = r->o;
	struct row *row = new_row(r);
	size_t i;

	row->tgid = taskdiag_task_tgid(t);
	row->tid = taskdiag_task_pid(t);
	row->ppid = (pid_t)val(t, TASKDIAG_ITEM_BASE_PPID);
	row->start_ns = (uint64_t)val(t, TASKDIAG_ITEM_BASE_START_TIME);
	row->cells = dup_text(r->text.p, r->text.len);
	if (!o->nsort)
		return;
	row->keys = calloc(o->nsort, sizeof(*row->keys));
	if (!row->keys)
		td_nomem();
	for (i = 0; i < o->nsort; i++) {
		const struct psf_spec *sp = o->sort[i].sp;
		struct psf_arg a = { .t = t, .cx = &r->cx, .item = sp->item };

		if (sp->flags & PSF_F_TEXTKEY) {
			tdbuf_clear(&r->cell);
			sp->fmt(&r->cell, &a);
			row->keys[i].s = dup_text(r->cell.p, r->cell.len);
		} else {
			row->keys[i].n = psf_spec_key(sp, &a);
		}
	}
}

/* One line: the values, the command columns after @prefix (trees). */
static void put_row(struct run *r, const char *cells, const char *prefix)
{
	struct layout *l = &r->lay;
	const char *p = cells;
	size_t i;

	line_begin(l);
	for (i = 0; i < l->ncols; i++) {
		const char *s = p;
		size_t n = strlen(p);

		p += n + 1;
		if (prefix && *prefix && (l->cols[i].sp->flags & PSF_F_TREE)) {
			tdbuf_clear(&r->cell);
			tdbuf_add(&r->cell, prefix, strlen(prefix));
			tdbuf_add(&r->cell, s, n);
			s = r->cell.p;
			n = r->cell.len;
		}
		put_cell(l, i, s, n, false);
	}
	line_end(l);
	fwrite(l->line.p, 1, l->line.len, stdout);
}

static int one_task(const struct taskdiag_task *t, void *arg)
{
	struct run *r = arg;
	struct layout *l = &r->lay;
	size_t i;

	/* threads: a process's own line has whole-process values, as in ps */
	if (r->threads && (taskdiag_task_pid(t) == taskdiag_task_tgid(t)) != r->leaders)
		return 0;
	/* only its pid: ps cannot read its stat either and skips it */
	if (!taskdiag_task_has(t, TASKDIAG_ITEM_BASE_COMM))
		return 0;
	if (!selected(r, t))
		return 0;
	r->listed++;
	if (!r->keep)
		line_begin(l);
	r->text.len = 0;
	for (i = 0; i < l->ncols; i++) {
		struct psf_arg a = { .t = t, .cx = &r->cx, .item = l->cols[i].sp->item };

		tdbuf_clear(&r->cell);
		l->cols[i].sp->fmt(&r->cell, &a);
		if (r->keep)
			tdbuf_add(&r->text, r->cell.p, r->cell.len + 1);
		else
			put_cell(l, i, r->cell.p, r->cell.len, false);
	}
	if (r->keep) {
		keep_row(r, t);
	} else {
		/* processes come in pid order: print at once */
		line_end(l);
		fwrite(l->line.p, 1, l->line.len, stdout);
	}
	return 0;
}

/*
 * ps lists the threads of each process together, the leader first, then in
 * the order of /proc/PID/task: the thread list's, the order they were made
 * in (not tid order once tids wrapped). Both backends give tid order: the
 * start time (nanoseconds from the module, clock ticks from /proc) puts
 * them back in the order they were made, tid order among equal ones.
 */
static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if ((x->tid == x->tgid) != (y->tid == y->tgid))
		return x->tid == x->tgid ? -1 : 1;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static uint64_t tree_hz;

/*
 * Trees without --sort, as ps orders them: by parent, then by start time in
 * clock ticks (procfs's resolution), then by pid (the order ps read them).
 * Siblings follow their start, not their pids, once pids wrapped.
 */
static int tree_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	uint64_t tx = x->start_ns / (1000000000u / tree_hz), ty = y->start_ns / (1000000000u / tree_hz);

	if (x->ppid != y->ppid)
		return x->ppid < y->ppid ? -1 : 1;
	if (tx != ty)
		return tx < ty ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static const struct tdps_opts *sort_opts;

static int key_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	size_t i;
	int c;

	for (i = 0; i < sort_opts->nsort; i++) {
		if (sort_opts->sort[i].sp->flags & PSF_F_TEXTKEY)
			c = strcmp(x->keys[i].s, y->keys[i].s);
		else
			c = (x->keys[i].n > y->keys[i].n) - (x->keys[i].n < y->keys[i].n);
		if (c)
			return c * sort_opts->sort[i].dir;
	}
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* -q: in the order of the list */
static int quick_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return (x->seq > y->seq) - (x->seq < y->seq);
}

static void order_rows(struct run *r)
{
	const struct tdps_opts *o = r->o;
	size_t i, j;

	if (r->threads)
		qsort(r->rows, r->nrows, sizeof(*r->rows), row_cmp);
	for (i = 0; i < r->nrows; i++)
		r->rows[i].seq = i;
	if (o->quick) {
		const struct tdps_ids *p = &o->sel[TDPS_SEL_PID];

		for (i = 0; i < r->nrows; i++)
			for (j = 0; j < p->n; j++)
				if (p->v[j] == (uint32_t)r->rows[i].tgid) {
					r->rows[i].seq = j * (size_t)INT_MAX + i;
					break;
				}
		qsort(r->rows, r->nrows, sizeof(*r->rows), quick_cmp);
	} else if (o->nsort) {
		sort_opts = o;
		qsort(r->rows, r->nrows, sizeof(*r->rows), key_cmp);
	} else if (o->tree != TDPS_TREE_NONE) {
		tree_hz = r->cx.hz;
		qsort(r->rows, r->nrows, sizeof(*r->rows), tree_cmp);
	}
}

/* ------------------------------------------------------------------------
 * Trees (--forest, f, -H)
 *
 * As ps: the processes whose parent is not listed are the roots, shown in
 * the reverse of their order; children follow their parent in order, those
 * of pid 1 at its own depth in the ASCII art.
 */

struct tree {
	size_t *first;		/* children of row i: kids[first[i] .. first[i + 1]) */
	size_t *kids;
	size_t *parent;		/* SIZE_MAX: a root */
};

struct pid_index {
	pid_t pid;
	size_t row;
};

static int pid_index_cmp(const void *a, const void *b)
{
	const struct pid_index *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		td_nomem();
	return p;
}

static void build_tree(struct run *r, struct tree *tr)
{
	struct pid_index *idx = xcalloc(r->nrows, sizeof(*idx)), key, *hit;
	size_t i, n = 0, *fill;

	for (i = 0; i < r->nrows; i++)
		idx[n++] = (struct pid_index){ .pid = r->rows[i].tgid, .row = i };
	qsort(idx, n, sizeof(*idx), pid_index_cmp);
	tr->first = xcalloc(r->nrows + 1, sizeof(size_t));
	tr->kids = xcalloc(r->nrows, sizeof(size_t));
	tr->parent = xcalloc(r->nrows, sizeof(size_t));
	fill = xcalloc(r->nrows + 1, sizeof(size_t));
	for (i = 0; i < r->nrows; i++) {
		struct row *row = &r->rows[i];

		tr->parent[i] = SIZE_MAX;
		key.pid = row->ppid;
		hit = bsearch(&key, idx, n, sizeof(*idx), pid_index_cmp);
		if (!hit || hit->row == i)
			continue;
		tr->parent[i] = hit->row;
		tr->first[hit->row + 1]++;
	}
	for (i = 0; i < r->nrows; i++)
		tr->first[i + 1] += tr->first[i];
	for (i = 0; i < r->nrows; i++) {
		size_t p = tr->parent[i];

		if (p != SIZE_MAX)
			tr->kids[tr->first[p] + fill[p]++] = i;
	}
	free(fill);
	free(idx);
}

static void tree_prefix(struct run *r, size_t depth, struct tdbuf *b)
{
	size_t k;

	tdbuf_clear(b);
	if (!depth)
		return;
	if (r->o->tree == TDPS_TREE_SPACES) {
		for (k = 0; k < depth; k++)
			tdbuf_add(b, "  ", 2);
		return;
	}
	for (k = 1; k < depth; k++)
		tdbuf_add(b, r->stack[k] ? " |  " : "    ", 4);
	tdbuf_add(b, " \\_ ", 4);
}

static void show_tree(struct run *r, const struct tree *tr, size_t i, size_t depth)
{
	struct tdbuf prefix = { 0 };
	size_t k, n = tr->first[i + 1] - tr->first[i];
	/* the ASCII art does not indent the children of init */
	size_t kid_depth = r->rows[i].tgid == 1 && r->o->tree == TDPS_TREE_ASCII ? depth : depth + 1;

	tree_prefix(r, depth, &prefix);
	put_row(r, r->rows[i].cells, prefix.p);
	free(prefix.p);
	if (kid_depth >= r->stack_cap) {
		size_t cap = 2 * kid_depth + 16;
		unsigned char *s = realloc(r->stack, cap);

		if (!s)
			td_nomem();
		r->stack = s;
		r->stack_cap = cap;
	}
	for (k = 0; k < n; k++) {
		r->stack[kid_depth] = k + 1 < n;
		show_tree(r, tr, tr->kids[tr->first[i] + k], kid_depth);
	}
}

static void print_rows(struct run *r)
{
	struct tree tr;
	size_t i;

	if (r->o->tree == TDPS_TREE_NONE) {
		for (i = 0; i < r->nrows; i++)
			put_row(r, r->rows[i].cells, NULL);
		return;
	}
	build_tree(r, &tr);
	for (i = r->nrows; i--;)
		if (tr.parent[i] == SIZE_MAX)
			show_tree(r, &tr, i, 0);
	free(tr.first);
	free(tr.kids);
	free(tr.parent);
}

/* ------------------------------------------------------------------------
 * The run
 */

static int report(int err, struct taskdiag *td, const char *what)
{
	const char *extack = td ? taskdiag_extack(td) : NULL;

	fprintf(stderr, "tdps: %s: %s%s%s%s\n", what, taskdiag_strerror(err),
		extack ? " (" : "", extack ? extack : "", extack ? ")" : "");
	if (err == -TASKDIAG_ENOMODULE) {
		fputs("tdps: " TD_MODULE_HINT ", or use --backend procfs\n", stderr);
		return TDPS_EXIT_NOMODULE;
	}
	return TDPS_EXIT_ERROR;
}

/*
 * The caller's own record, in one request: its terminal (@tty: for the
 * default selection and T), and (@vmlck) whether the module sends statm's
 * locked (VmLck). Every reader may read its own task. Version 1 of the
 * statm struct has locked, an older module's does not; the procfs backend,
 * which gives it only with status, is not asked. Without it the status
 * group is read for it.
 */
static int read_own_task(struct run *r, struct taskdiag *td, bool tty, bool vmlck)
{
	struct taskdiag_request req = {
		.scope = TASKDIAG_SCOPE_TASK,
		.pid = getpid(),
		.groups = tty ? TASKDIAG_GROUP_BASE : 0,
	};
	const struct taskdiag_task *t;
	struct taskdiag_iter *it;
	int ret;

	if (vmlck && taskdiag_get_backend(td) == TASKDIAG_BACKEND_NETLINK)
		req.groups |= TASKDIAG_GROUP_STATM;
	if (!req.groups)
		return 0;
	ret = taskdiag_iter_start(td, &req, &it);
	if (ret)
		return tty ? ret : 0;	/* without statm's locked: status */
	ret = taskdiag_iter_next(it, &t);
	if (ret > 0) {
		if (tty)
			taskdiag_task_get_u64(t, TASKDIAG_ITEM_BASE_TTY_NR, &r->my_tty);
		r->statm_locked = (req.groups & TASKDIAG_GROUP_STATM) &&
				  taskdiag_task_has(t, TASKDIAG_ITEM_STATM_LOCKED);
		ret = 0;
	}
	taskdiag_iter_end(it);
	return tty ? ret : 0;
}

/* A column's groups: statm for status where statm's locked serves. */
static uint32_t spec_groups(const struct run *r, const struct psf_spec *sp)
{
	if ((sp->flags & PSF_F_VMLCK) && r->statm_locked)
		return (sp->groups & ~TASKDIAG_GROUP_STATUS) | TASKDIAG_GROUP_STATM;
	return sp->groups;
}

static bool needs_vmlck(const struct tdps_opts *o)
{
	size_t i;

	for (i = 0; i < o->ncols; i++)
		if (o->col[i].sp->flags & PSF_F_VMLCK)
			return true;
	for (i = 0; i < o->nsort; i++)
		if (o->sort[i].sp->flags & PSF_F_VMLCK)
			return true;
	return false;
}

static uint32_t groups_needed(const struct run *r)
{
	const struct tdps_opts *o = r->o;
	uint32_t g = TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_CRED;
	size_t i;

	/*
	 * base always: a record without it is a task the reader's /proc
	 * lists but will not open (hidepid=noaccess), which ps leaves out
	 * (one_task()).
	 */
	if (o->all && !o->running_only && !o->tree && !o->negate)
		g = TASKDIAG_GROUP_BASE;
	for (i = 0; i < o->ncols; i++)
		g |= spec_groups(r, o->col[i].sp);
	for (i = 0; i < o->nsort; i++)
		g |= spec_groups(r, o->sort[i].sp);
	return g;
}

static int run_dump(struct run *r, struct taskdiag *td)
{
	const struct tdps_opts *o = r->o;
	struct taskdiag_request req = {
		.scope = r->threads ? TASKDIAG_SCOPE_ALL_THREADS : TASKDIAG_SCOPE_ALL_PROCESSES,
	};
	int ret;

	ret = read_own_task(r, td, !o->all, needs_vmlck(o));
	if (ret)
		return report(ret, td, "reading the own terminal");
	if (!o->all && o->own_tty)
		tdps_ids_add(&r->ttys, (uint32_t)r->my_tty);
	req.groups = groups_needed(r);
	if (!o->no_header)
		put_header(&r->lay);
	if (r->threads) {
		struct taskdiag_request procs = req;

		procs.scope = TASKDIAG_SCOPE_ALL_PROCESSES;
		r->leaders = true;
		ret = taskdiag_dump(td, &procs, one_task, r);
		if (ret)
			return report(ret, td, "reading the processes");
		r->leaders = false;
	}
	/* as ps 4.0.2: sorted, -L and -T show the processes only */
	if (!(o->nsort && (o->thread_flags & (TDPS_TF_L | TDPS_TF_T)))) {
		ret = taskdiag_dump(td, &req, one_task, r);
		if (ret)
			return report(ret, td, "reading the tasks");
	}
	order_rows(r);
	print_rows(r);
	return r->listed ? TDPS_EXIT_OK : TDPS_EXIT_NONE;
}

static void free_run(struct run *r)
{
	size_t i, k;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].cells);
		if (r->rows[i].keys)
			for (k = 0; k < r->o->nsort; k++)
				free(r->rows[i].keys[k].s);
		free(r->rows[i].keys);
	}
	free(r->rows);
	free(r->lay.line.p);
	free(r->cell.p);
	free(r->text.p);
	free(r->ttys.v);
	free(r->stack);
}

int main(int argc, char **argv)
{
	struct tdps_opts o = { .backend = TASKDIAG_BACKEND_AUTO };
	struct taskdiag *td = NULL;
	struct run r = { .o = &o };
	size_t i;
	int ret;

	td_prog = "tdps";
	setlocale(LC_ALL, "");
	tdps_parse_args(argc, argv, &o);
	r.threads = o.thread_flags != 0;
	r.keep = r.threads || o.nsort || o.tree || o.quick;
	r.use_table = true;
	for (i = 0; i < TDPS_SEL__COUNT; i++)
		r.use_table = r.use_table && !o.sel[i].n;
	r.use_table = o.simple || (r.use_table && !o.ncomms && !o.own_tty);
	for (i = 0; i < o.sel[TDPS_SEL_TTY].n; i++)
		tdps_ids_add(&r.ttys, o.sel[TDPS_SEL_TTY].v[i]);
	select_setup(&r);
	if (r.select_bits == 0xffff)
		o.all = true;
	psf_ctx_read(&r.cx, r.threads, o.bsd_c);
	r.cx.cumulative = o.cumulative;
	r.cx.bsd_e = o.bsd_e;
	r.my_euid = geteuid();
	r.lay = (struct layout){
		.cols = o.col,
		.ncols = o.ncols,
		.screen = screen_cols(o.wide, o.cols),
		.utf8 = r.cx.utf8,
	};
	ret = taskdiag_open(&td, o.backend);
	if (ret) {
		ret = report(ret, NULL, "opening the backend");
	} else {
		td_backend_notice("tdps", td, o.backend, o.quiet_fallback);
		ret = run_dump(&r, td);
	}
	taskdiag_close(td);
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		/* as procps ps (its close_stdout()): the message, exit status 1 */
		fprintf(stderr, "tdps: write error: %s\n", strerror(errno ? errno : EIO));
		if (!ret)
			ret = TDPS_EXIT_NONE;
	}
	free_run(&r);
	tdps_free_opts(&o);
	psf_cleanup();
	return ret;
}
