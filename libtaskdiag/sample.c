// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: samples (every record of one request, copied into storage
 * that the next sample reuses) and diffs between two samples (tasks matched
 * on pid and start time; CPU shares and rates derived from the counters).
 *
 * A sample keeps its records in one array, their strings and bytes in one
 * arena, and two index arrays: the order a caller sorted it in, and the
 * records by ascending pid, which a diff merges with the other sample's.
 * Arrays only grow (doubling), so a warm sample allocates nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

struct taskdiag_sample {
	struct taskdiag_task *recs;
	size_t n, cap;
	char *arena;
	size_t used, acap;
	uint32_t *order;	/* view: position -> record */
	uint32_t *bypid;	/* records by ascending pid */
	size_t icap;		/* capacity of order and bypid */
	uint64_t time;		/* CLOCK_BOOTTIME, ns */
	uint64_t next_ran_since; /* the module's stamp for the next take_since */
	bool has_stamp;		/* next_ran_since came with the replies */
	size_t nidle;		/* records copied from the previous sample */
};

struct taskdiag_diff {
	const struct taskdiag_sample *prev, *cur;
	size_t n, cap;
	int32_t *prev_of;	/* cur record -> prev record, -1 if it appeared */
	uint32_t *order;	/* position -> cur record */
	double *vals;		/* cur record * TASKDIAG_DERIVED__COUNT */
	int8_t *err;		/* the same, 0 or a negative errno */
	unsigned int ncpu;	/* for TASKDIAG_DERIVED_CPU_MACHINE */
	uint32_t *exited;	/* prev records without a match */
	size_t nexited, ecap;
	size_t appeared;
	uint64_t interval;	/* ns */
};

/* Grow *@p to hold at least @need elements of @size bytes (doubling). */
static int td_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / size)
			return -ENOMEM;
		ncap *= 2;
	}
	q = realloc(*(void **)p, ncap * size);
	if (!q)
		return -ENOMEM;
	*(void **)p = q;
	*cap = ncap;
	return 0;
}

/* Items whose value points elsewhere (strings, bytes), computed once. */
static int td_blob_items[TASKDIAG_ITEM__COUNT];
static int td_nblob_items = -1;

static void td_blob_items_init(void)
{
	int i, n = 0;

	if (td_nblob_items >= 0)
		return;
	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++)
		if (td_item_locs[i].kind == TD_LOC_BLOB)
			td_blob_items[n++] = i;
	td_nblob_items = n;
}

/* A zeroed object of @size bytes in *@p: 0, -EINVAL or -ENOMEM. */
static int td_new(void *p, size_t size)
{
	if (!p)
		return -EINVAL;
	*(void **)p = calloc(1, size);
	return *(void **)p ? 0 : -ENOMEM;
}

int taskdiag_sample_new(struct taskdiag_sample **s)
{
	return td_new(s, sizeof(**s));
}

void taskdiag_sample_free(struct taskdiag_sample *s)
{
	if (!s)
		return;
	free(s->recs);
	free(s->arena);
	free(s->order);
	free(s->bypid);
	free(s);
}

void td_sample_reset(struct taskdiag_sample *s)
{
	s->n = 0;
	s->used = 0;
	s->time = 0;
	s->has_stamp = false;
	s->next_ran_since = 0;
	s->nidle = 0;
}

int td_sample_append(struct taskdiag_sample *s, const struct taskdiag_task *t)
{
	struct taskdiag_task *r;
	int k, err;

	if (s->n >= UINT32_MAX)
		return -EOVERFLOW;
	err = td_grow(&s->recs, &s->cap, s->n + 1, sizeof(*s->recs));
	if (err)
		return err;
	r = &s->recs[s->n];
	memcpy(r, t, sizeof(*r));
	td_blob_items_init();
	for (k = 0; k < td_nblob_items; k++) {
		int item = td_blob_items[k];
		struct td_blob *b = td_task_blob(r, item);
		uint32_t len;

		if (!td_task_present(r, item))
			continue;
		len = b->len;
		/* room for a NUL after the bytes, and 8-byte alignment */
		err = td_grow(&s->arena, &s->acap, s->used + len + 8, 1);
		if (err)
			return err;
		if (len)
			memcpy(s->arena + s->used, b->p, len);
		s->arena[s->used + len] = '\0';
		/* an offset until td_sample_finish(): the arena may move */
		b->p = (const void *)(uintptr_t)s->used;
		s->used += (len + 8) & ~(size_t)7;
	}
	s->n++;
	return 0;
}

/*
 * Sort index arrays with a heapsort: in place, where glibc's qsort_r()
 * allocates a buffer for arrays above a few hundred entries. The
 * comparisons end on the record index, so the order is total and any
 * correct sort gives the same result.
 */
typedef int (*td_idx_cmp)(const void *a, const void *b, void *arg);

static void td_sift(uint32_t *a, size_t root, size_t n, td_idx_cmp cmp, void *arg)
{
	for (;;) {
		size_t child = 2 * root + 1;
		uint32_t t;

		if (child >= n)
			return;
		if (child + 1 < n && cmp(&a[child], &a[child + 1], arg) < 0)
			child++;
		if (cmp(&a[root], &a[child], arg) >= 0)
			return;
		t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

static void td_sort_idx(uint32_t *a, size_t n, td_idx_cmp cmp, void *arg)
{
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)
		td_sift(a, i, n, cmp, arg);
	for (i = n - 1; i > 0; i--) {
		uint32_t t = a[0];

		a[0] = a[i];
		a[i] = t;
		td_sift(a, 0, i, cmp, arg);
	}
}

static pid_t td_rec_pid(const struct taskdiag_task *t)
{
	return (pid_t)t->top.pid;
}

static int td_bypid_cmp(const void *a, const void *b, void *arg)
{
	const struct taskdiag_sample *s = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	pid_t px = td_rec_pid(&s->recs[x]), py = td_rec_pid(&s->recs[y]);

	if (px != py)
		return px < py ? -1 : 1;
	return x < y ? -1 : x > y;
}

int td_sample_finish(struct taskdiag_sample *s, uint64_t time_ns)
{
	bool sorted = true;
	size_t i, cap;
	int k, err;

	cap = s->icap;
	err = td_grow(&s->order, &cap, s->n, sizeof(*s->order));
	if (!err && cap != s->icap) {
		/* bypid follows order's capacity */
		void *q = realloc(s->bypid, cap * sizeof(*s->bypid));

		if (q) {
			s->bypid = q;
			s->icap = cap;
		} else {
			err = -ENOMEM;
		}
	}
	if (err) {
		td_sample_reset(s);
		return err;
	}
	td_blob_items_init();
	for (i = 0; i < s->n; i++) {
		struct taskdiag_task *r = &s->recs[i];

		for (k = 0; k < td_nblob_items; k++) {
			int item = td_blob_items[k];

			if (td_task_present(r, item)) {
				struct td_blob *b = td_task_blob(r, item);

				b->p = s->arena + (uintptr_t)b->p;
			}
		}
		s->order[i] = (uint32_t)i;
		s->bypid[i] = (uint32_t)i;
		if (i && td_rec_pid(r) <= td_rec_pid(r - 1))
			sorted = false;
	}
	if (!sorted)
		td_sort_idx(s->bypid, s->n, td_bypid_cmp, s);
	s->time = time_ns;
	return 0;
}

static uint64_t td_boottime_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_BOOTTIME, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The record of @pid in @s (its bypid index is sorted), or NULL. */
static const struct taskdiag_task *td_sample_find(const struct taskdiag_sample *s, pid_t pid)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		pid_t p = td_rec_pid(&s->recs[s->bypid[mid]]);

		if (p < pid)
			lo = mid + 1;
		else if (p > pid)
			hi = mid;
		else
			return &s->recs[s->bypid[mid]];
	}
	return NULL;
}

/*
 * Fill @s with the records of @req. An idle record (ran-since-idle: the
 * task did not run since @prev) takes the task's record in @prev, if it
 * has one.
 */
static int td_sample_fill(struct taskdiag *td, const struct taskdiag_request *req,
			  const struct taskdiag_sample *prev, struct taskdiag_sample *s)
{
	const struct taskdiag_task *t, *old;
	struct taskdiag_iter *it;
	uint64_t now;
	int ret;

	if (!s)
		return -EINVAL;
	td_sample_reset(s);
	now = td_boottime_ns();
	ret = td_api_iter_start(td, req, &it);
	if (ret)
		return ret;
	while ((ret = taskdiag_iter_next(it, &t)) == 1) {
		if (!s->has_stamp && !taskdiag_task_next_ran_since(t, &s->next_ran_since))
			s->has_stamp = true;
		old = NULL;
		if (prev && taskdiag_task_is_idle(t))
			old = td_sample_find(prev, td_rec_pid(t));
		ret = td_sample_append(s, old ? old : t);
		if (ret)
			break;
		if (old)
			s->nidle++;
	}
	taskdiag_iter_end(it);
	if (!ret)
		ret = td_sample_finish(s, now);
	if (ret) {
		td_sample_reset(s);
		return ret;
	}
	return s->n > INT32_MAX ? INT32_MAX : (int)s->n;
}

TD_SYMVER(td_api_sample_take, "taskdiag_sample_take@@TASKDIAG_0.4");
int td_api_sample_take(struct taskdiag *td, const struct taskdiag_request *req,
		       struct taskdiag_sample *s)
{
	return td_sample_fill(td, req, NULL, s);
}

int taskdiag_sample_take_since(struct taskdiag *td, const struct taskdiag_request *req,
			       const struct taskdiag_sample *prev, struct taskdiag_sample *s)
{
	struct taskdiag_request r;

	if (!td || !req || !s || s == prev)
		return -EINVAL;
	r = *req;
	r.flags = 0;
	r.ran_since = 0;
	if (taskdiag_get_backend(td) == TASKDIAG_BACKEND_NETLINK) {
		/* Without a stamp (first take, procfs, empty), since 0: all. */
		r.flags = TASKDIAG_REQ_RAN_SINCE;
		if (prev && prev->has_stamp) {
			r.flags |= TASKDIAG_REQ_RAN_SINCE_IDLE;
			r.ran_since = prev->next_ran_since;
		} else {
			prev = NULL;
		}
	} else {
		prev = NULL;
	}
	return td_sample_fill(td, &r, prev, s);
}

size_t taskdiag_sample_idle_count(const struct taskdiag_sample *s)
{
	return s ? s->nidle : 0;
}

size_t taskdiag_sample_count(const struct taskdiag_sample *s)
{
	return s ? s->n : 0;
}

const struct taskdiag_task *taskdiag_sample_task(const struct taskdiag_sample *s, size_t i)
{
	return s && i < s->n ? &s->recs[s->order[i]] : NULL;
}

uint64_t taskdiag_sample_time(const struct taskdiag_sample *s)
{
	return s ? s->time : 0;
}

/* Sorting: one comparison of two records by an item, absent last. */
struct td_sort_ctx {
	const struct taskdiag_task *recs;
	const struct taskdiag_diff *d;	/* derived values, or NULL */
	int key;			/* an item, or a derived value with d */
	bool desc;
};

static int td_item_cmp(const struct taskdiag_task *a, const struct taskdiag_task *b, int item)
{
	const struct td_blob *x, *y;
	uint64_t u, v;
	uint32_t n;
	int c;

	switch (td_item_locs[item].kind) {
	case TD_LOC_UNSIGNED:
		u = td_task_u(a, item);
		v = td_task_u(b, item);
		return u < v ? -1 : u > v;
	case TD_LOC_SIGNED:
		u = td_task_u(a, item);
		v = td_task_u(b, item);
		return (int64_t)u < (int64_t)v ? -1 : (int64_t)u > (int64_t)v;
	default:
		x = td_task_cblob(a, item);
		y = td_task_cblob(b, item);
		n = x->len < y->len ? x->len : y->len;
		c = n ? memcmp(x->p, y->p, n) : 0;
		if (c)
			return c < 0 ? -1 : 1;
		return x->len < y->len ? -1 : x->len > y->len;
	}
}

static int td_sort_cmp(const void *pa, const void *pb, void *arg)
{
	const struct td_sort_ctx *c = arg;
	uint32_t ia = *(const uint32_t *)pa, ib = *(const uint32_t *)pb;
	const struct taskdiag_task *a = &c->recs[ia], *b = &c->recs[ib];
	bool ha, hb;
	int r = 0;

	if (c->d) {
		size_t ka = (size_t)ia * TASKDIAG_DERIVED__COUNT + c->key;
		size_t kb = (size_t)ib * TASKDIAG_DERIVED__COUNT + c->key;

		ha = !c->d->err[ka];
		hb = !c->d->err[kb];
		if (ha && hb)
			r = c->d->vals[ka] < c->d->vals[kb] ? -1 : c->d->vals[ka] > c->d->vals[kb];
	} else {
		ha = td_task_present(a, c->key);
		hb = td_task_present(b, c->key);
		if (ha && hb)
			r = td_item_cmp(a, b, c->key);
	}
	if (ha != hb)
		return ha ? -1 : 1;
	if (r)
		return c->desc ? -r : r;
	r = td_rec_pid(a) < td_rec_pid(b) ? -1 : td_rec_pid(a) > td_rec_pid(b);
	return r ? r : (ia < ib ? -1 : ia > ib);
}

int taskdiag_sample_sort(struct taskdiag_sample *s, enum taskdiag_item item, bool descending)
{
	struct td_sort_ctx c = { .key = item, .desc = descending };

	if (!s || (unsigned int)item >= TASKDIAG_ITEM__COUNT)
		return -EINVAL;
	c.recs = s->recs;
	td_sort_idx(s->order, s->n, td_sort_cmp, &c);
	return 0;
}

/* Derived values: the counters they come from. */
static const struct {
	const char *name;
	int item, item2;	/* item2: added to item (utime + stime), or -1 */
} td_derived[TASKDIAG_DERIVED__COUNT] = {
	[TASKDIAG_DERIVED_CPU] = { "cpu", TASKDIAG_ITEM_STAT_UTIME, TASKDIAG_ITEM_STAT_STIME },
	[TASKDIAG_DERIVED_CPU_MACHINE] = { "cpu_machine", TASKDIAG_ITEM_STAT_UTIME,
					   TASKDIAG_ITEM_STAT_STIME },
	[TASKDIAG_DERIVED_CPU_TIME] = { "cpu_time", TASKDIAG_ITEM_STAT_UTIME,
					TASKDIAG_ITEM_STAT_STIME },
	[TASKDIAG_DERIVED_MINFLT_RATE] = { "minflt_rate", TASKDIAG_ITEM_STAT_MINFLT, -1 },
	[TASKDIAG_DERIVED_MAJFLT_RATE] = { "majflt_rate", TASKDIAG_ITEM_STAT_MAJFLT, -1 },
	[TASKDIAG_DERIVED_RCHAR_RATE] = { "rchar_rate", TASKDIAG_ITEM_IO_RCHAR, -1 },
	[TASKDIAG_DERIVED_WCHAR_RATE] = { "wchar_rate", TASKDIAG_ITEM_IO_WCHAR, -1 },
	[TASKDIAG_DERIVED_SYSCR_RATE] = { "syscr_rate", TASKDIAG_ITEM_IO_SYSCR, -1 },
	[TASKDIAG_DERIVED_SYSCW_RATE] = { "syscw_rate", TASKDIAG_ITEM_IO_SYSCW, -1 },
	[TASKDIAG_DERIVED_READ_BYTES_RATE] = { "read_bytes_rate", TASKDIAG_ITEM_IO_READ_BYTES, -1 },
	[TASKDIAG_DERIVED_WRITE_BYTES_RATE] = { "write_bytes_rate", TASKDIAG_ITEM_IO_WRITE_BYTES,
						-1 },
	[TASKDIAG_DERIVED_VOLUNTARY_CTXT_RATE] = { "voluntary_ctxt_rate",
		TASKDIAG_ITEM_STATUS_VOLUNTARY_CTXT_SWITCHES, -1 },
	[TASKDIAG_DERIVED_NONVOLUNTARY_CTXT_RATE] = { "nonvoluntary_ctxt_rate",
		TASKDIAG_ITEM_STATUS_NONVOLUNTARY_CTXT_SWITCHES, -1 },
};

const char *taskdiag_derived_name(enum taskdiag_derived d)
{
	return d > 0 && d < TASKDIAG_DERIVED__COUNT ? td_derived[d].name : NULL;
}

int taskdiag_derived_lookup(const char *name)
{
	int d;

	for (d = 1; name && d < TASKDIAG_DERIVED__COUNT; d++)
		if (!strcmp(td_derived[d].name, name))
			return d;
	return -ENOENT;
}

int taskdiag_diff_new(struct taskdiag_diff **d)
{
	return td_new(d, sizeof(**d));
}

void taskdiag_diff_free(struct taskdiag_diff *d)
{
	if (d) {
		free(d->prev_of);
		free(d->order);
		free(d->vals);
		free(d->err);
		free(d->exited);
	}
	free(d);
}

/* The counter of derived value @k in @t: 0, or -ENOENT if absent. */
static int td_counter(const struct taskdiag_task *t, int k, uint64_t *val)
{
	int a = td_derived[k].item, b = td_derived[k].item2;

	if (!td_task_present(t, a) || (b >= 0 && !td_task_present(t, b)))
		return -ENOENT;
	*val = td_task_u(t, a) + (b >= 0 ? td_task_u(t, b) : 0);
	return 0;
}

/*
 * How much earlier than it really was a start time may read: procfs gives
 * it in whole clock ticks, rounded down, so a task started just after the
 * previous sample's time stamp, in the same tick, reads as started before
 * it. Such a task is still one that appeared in the interval.
 */
static uint64_t td_start_resolution(void)
{
	static uint64_t ns;

	if (!ns) {
		long hz = sysconf(_SC_CLK_TCK);

		ns = hz > 0 ? 1000000000ull / (uint64_t)hz : 10000000ull;
	}
	return ns;
}

/*
 * Derived values are computed when first asked for (taskdiag_diff_get(), a
 * sort on one): a top shows one or two of them, and working out every one
 * for every task took as long as the merge itself.
 */
#define TD_DERIVED_LAZY INT8_MIN

/* Derived value @k of current record @ci, into d->vals and d->err. */
static void td_derive(struct taskdiag_diff *d, uint32_t ci, int k)
{
	const struct taskdiag_task *cur = &d->cur->recs[ci];
	const struct taskdiag_task *old = NULL;
	size_t at = (size_t)ci * TASKDIAG_DERIVED__COUNT + (size_t)k;
	bool from_zero = false;
	uint64_t now, then = 0, delta;
	int e;

	if (d->prev_of[ci] >= 0)
		old = &d->prev->recs[d->prev_of[ci]];
	else if (td_task_present(cur, TASKDIAG_ITEM_BASE_START_TIME) &&
		 cur->base.start_time + td_start_resolution() >= d->prev->time)
		from_zero = true;	/* started in the interval */
	d->vals[at] = 0;
	e = td_counter(cur, k, &now);
	if (!e && old)
		e = td_counter(old, k, &then);
	else if (!e && !from_zero)
		e = -ENOENT;
	if (!e && now < then)
		e = -ERANGE;
	if (!e && k != TASKDIAG_DERIVED_CPU_TIME && !d->interval)
		e = -EDOM;
	d->err[at] = (int8_t)e;
	if (e)
		return;
	delta = now - then;
	switch (k) {
	case TASKDIAG_DERIVED_CPU_TIME:
		d->vals[at] = (double)delta;
		break;
	case TASKDIAG_DERIVED_CPU:
		d->vals[at] = 100.0 * (double)delta / (double)d->interval;
		break;
	case TASKDIAG_DERIVED_CPU_MACHINE:
		d->vals[at] = 100.0 * (double)delta / (double)d->interval / d->ncpu;
		break;
	default:
		d->vals[at] = (double)delta * 1e9 / (double)d->interval;
	}
}

/* The index of derived value @k of record @ci, computed if it was not yet. */
static size_t td_derived_at(struct taskdiag_diff *d, uint32_t ci, int k)
{
	size_t at = (size_t)ci * TASKDIAG_DERIVED__COUNT + (size_t)k;

	if (d->err[at] == TD_DERIVED_LAZY)
		td_derive(d, ci, k);
	return at;
}

static bool td_same_task(const struct taskdiag_task *a, const struct taskdiag_task *b)
{
	int st = TASKDIAG_ITEM_BASE_START_TIME;

	if (td_task_present(a, st) && td_task_present(b, st))
		return td_task_u(a, st) == td_task_u(b, st);
	return true;
}

int taskdiag_diff_compute(struct taskdiag_diff *d, const struct taskdiag_sample *prev,
			  const struct taskdiag_sample *cur, unsigned int ncpu)
{
	size_t i = 0, j = 0, n, cap;
	int err;

	if (!d || !prev || !cur)
		return -EINVAL;
	d->n = 0;
	d->nexited = 0;
	d->appeared = 0;
	d->prev = prev;
	d->cur = cur;
	if (!ncpu) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		ncpu = c > 0 ? (unsigned int)c : 1;
	}
	n = cur->n;
	cap = d->cap;
	err = td_grow(&d->prev_of, &cap, n, sizeof(*d->prev_of));
	if (!err && cap != d->cap) {
		void *o = realloc(d->order, cap * sizeof(*d->order));
		void *v = o ? realloc(d->vals, cap * TASKDIAG_DERIVED__COUNT * sizeof(*d->vals)) : NULL;
		void *e = v ? realloc(d->err, cap * TASKDIAG_DERIVED__COUNT * sizeof(*d->err)) : NULL;

		if (o)
			d->order = o;
		if (v)
			d->vals = v;
		if (e)
			d->err = e;
		if (e)
			d->cap = cap;
		else
			err = -ENOMEM;
	}
	if (!err)
		err = td_grow(&d->exited, &d->ecap, prev->n, sizeof(*d->exited));
	if (err)
		return err;
	d->interval = cur->time > prev->time ? cur->time - prev->time : 0;

	/* merge the two pid indexes */
	while (i < prev->n || j < cur->n) {
		const struct taskdiag_task *p = i < prev->n ? &prev->recs[prev->bypid[i]] : NULL;
		const struct taskdiag_task *c = j < cur->n ? &cur->recs[cur->bypid[j]] : NULL;

		if (p && (!c || td_rec_pid(p) < td_rec_pid(c))) {
			d->exited[d->nexited++] = prev->bypid[i++];
		} else if (c && (!p || td_rec_pid(c) < td_rec_pid(p))) {
			d->prev_of[cur->bypid[j++]] = -1;
			d->appeared++;
		} else if (td_same_task(p, c)) {
			d->prev_of[cur->bypid[j++]] = (int32_t)prev->bypid[i++];
		} else {	/* the pid was reused */
			d->exited[d->nexited++] = prev->bypid[i++];
			d->prev_of[cur->bypid[j++]] = -1;
			d->appeared++;
		}
	}
	if (n) {	/* an empty sample may have no arrays yet */
		memcpy(d->order, cur->order, n * sizeof(*d->order));
		memset(d->err, TD_DERIVED_LAZY, n * TASKDIAG_DERIVED__COUNT);
	}
	for (j = 0; j < n; j++) {	/* an invalid value is invalid at once */
		d->err[j * TASKDIAG_DERIVED__COUNT] = -EINVAL;
		d->vals[j * TASKDIAG_DERIVED__COUNT] = 0;
	}
	d->ncpu = ncpu;
	d->n = n;
	return 0;
}

uint64_t taskdiag_diff_interval(const struct taskdiag_diff *d)
{
	return d ? d->interval : 0;
}

size_t taskdiag_diff_count(const struct taskdiag_diff *d)
{
	return d ? d->n : 0;
}

const struct taskdiag_task *taskdiag_diff_task(const struct taskdiag_diff *d, size_t i)
{
	return d && i < d->n ? &d->cur->recs[d->order[i]] : NULL;
}

const struct taskdiag_task *taskdiag_diff_prev(const struct taskdiag_diff *d, size_t i)
{
	int32_t p;

	if (!d || i >= d->n)
		return NULL;
	p = d->prev_of[d->order[i]];
	return p >= 0 ? &d->prev->recs[p] : NULL;
}

int taskdiag_diff_get(const struct taskdiag_diff *d, size_t i, enum taskdiag_derived what,
		      double *val)
{
	size_t k;

	if (val)
		*val = 0;
	if (!d || !val || i >= d->n || what <= 0 || what >= TASKDIAG_DERIVED__COUNT)
		return -EINVAL;
	/* the cache is filled in place: a diff is read-only to its caller */
	k = td_derived_at((struct taskdiag_diff *)d, d->order[i], what);
	*val = d->vals[k];
	return d->err[k];
}

size_t taskdiag_diff_exited_count(const struct taskdiag_diff *d)
{
	return d ? d->nexited : 0;
}

const struct taskdiag_task *taskdiag_diff_exited(const struct taskdiag_diff *d, size_t j)
{
	return d && j < d->nexited ? &d->prev->recs[d->exited[j]] : NULL;
}

size_t taskdiag_diff_appeared_count(const struct taskdiag_diff *d)
{
	return d ? d->appeared : 0;
}

static int td_diff_sort(struct taskdiag_diff *d, struct td_sort_ctx *c)
{
	if (d->n) {
		c->recs = d->cur->recs;
		td_sort_idx(d->order, d->n, td_sort_cmp, c);
	}
	return 0;
}

int taskdiag_diff_sort_item(struct taskdiag_diff *d, enum taskdiag_item item, bool descending)
{
	struct td_sort_ctx c = { .key = item, .desc = descending };

	if (!d || (unsigned int)item >= TASKDIAG_ITEM__COUNT)
		return -EINVAL;
	return td_diff_sort(d, &c);
}

int taskdiag_diff_sort_derived(struct taskdiag_diff *d, enum taskdiag_derived what,
			       bool descending)
{
	struct td_sort_ctx c = { .d = d, .key = what, .desc = descending };
	size_t i;

	if (!d || what <= 0 || what >= TASKDIAG_DERIVED__COUNT)
		return -EINVAL;
	for (i = 0; i < d->n; i++)
		td_derived_at(d, (uint32_t)i, what);
	return td_diff_sort(d, &c);
}
