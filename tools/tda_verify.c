// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all --verify: dumps with both backends and compares every
 * field; only the differences that persist are reported.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tda.h"

#define PF_KTHREAD	0x00200000u
#define CMDLINE_CAP	4096	/* the module's cap of task.cmdline */
#define GROUPS_CAP	1024	/* and of cred.groups (in u32 words) */
#define VERIFY_RETRIES	3

/* A copy of one record: the values of the items asked for. */
struct snap {
	pid_t pid, tgid;
	struct raw v[TASKDIAG_ITEM__COUNT];
};

struct snapset {
	struct snap **t;	/* ascending pid */
	size_t n, cap;
};

static void snapset_free(struct snapset *s)
{
	size_t i;
	int it;

	for (i = 0; i < s->n; i++) {
		for (it = 0; it < TASKDIAG_ITEM__COUNT; it++)
			free((void *)s->t[i]->v[it].p);
		free(s->t[i]);
	}
	free(s->t);
	memset(s, 0, sizeof(*s));
}

static const struct snap *snapset_find(const struct snapset *s, pid_t pid)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->t[mid]->pid == pid)
			return s->t[mid];
		if (s->t[mid]->pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Dump @req into @s; ESRCH (the pid is gone) leaves it empty when @gone_ok. */
static int snapshot(struct taskdiag *td, const struct taskdiag_request *req, struct snapset *s,
		    bool gone_ok)
{
	const struct taskdiag_task *t;
	struct taskdiag_iter *it;
	int ret, i;

	ret = taskdiag_iter_start(td, req, &it);
	if (ret)
		return gone_ok && ret == -ESRCH ? 0 : ret;
	while ((ret = taskdiag_iter_next(it, &t)) == 1) {
		struct snap *sn = calloc(1, sizeof(*sn));

		if (!sn)
			td_nomem();
		sn->pid = taskdiag_task_pid(t);
		sn->tgid = taskdiag_task_tgid(t);
		for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
			struct raw *r = &sn->v[i];

			raw_get(t, i, r);
			if (r->present && r->p) {
				void *copy = malloc(r->len + 1);

				if (!copy)
					td_nomem();
				memcpy(copy, r->p, r->len);
				((char *)copy)[r->len] = '\0';
				r->p = copy;
			}
		}
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 256;
			s->t = realloc(s->t, s->cap * sizeof(*s->t));
			if (!s->t)
				td_nomem();
		}
		if (s->n && s->t[s->n - 1]->pid >= sn->pid) {
			free(sn);	/* not ascending: the libraries promise it */
			ret = -EBADMSG;
			break;
		}
		s->t[s->n++] = sn;
	}
	taskdiag_iter_end(it);
	if (ret == -ESRCH && gone_ok)
		ret = 0;
	return ret < 0 ? ret : 0;
}

static bool is_time(int item)
{
	return taskdiag_item_info(item)->unit == TASKDIAG_UNIT_NANOSECONDS;
}

/* Guarded stat fields: procfs prints 0 (1 for start/end_code) to whom it refuses. */
static bool is_guard_placeholder(int item, const struct raw *r)
{
	switch (item) {
	case TASKDIAG_ITEM_STAT_START_CODE:
	case TASKDIAG_ITEM_STAT_END_CODE:
		return r->u <= 1;
	case TASKDIAG_ITEM_STAT_START_STACK:
	case TASKDIAG_ITEM_STAT_KSTK_ESP:
	case TASKDIAG_ITEM_STAT_KSTK_EIP:
	case TASKDIAG_ITEM_STAT_WCHAN:
	case TASKDIAG_ITEM_STAT_START_DATA:
	case TASKDIAG_ITEM_STAT_END_DATA:
	case TASKDIAG_ITEM_STAT_START_BRK:
	case TASKDIAG_ITEM_STAT_ARG_START:
	case TASKDIAG_ITEM_STAT_ARG_END:
	case TASKDIAG_ITEM_STAT_ENV_START:
	case TASKDIAG_ITEM_STAT_ENV_END:
		return r->u == 0;
	case TASKDIAG_ITEM_STAT_EXIT_CODE:
		return r->s == 0;
	default:
		return false;
	}
}

static size_t words_trimmed(const struct raw *r)
{
	size_t n = r->len / 4;

	while (n && !word_at(r->p, n - 1))
		n--;
	return n;
}

static bool mem_eq(const void *a, const void *b, size_t n)
{
	return !n || !memcmp(a, b, n);
}

/* Does netlink's @n agree with procfs's reading @p (the module's caps applied)? */
static bool same_value(int item, const struct raw *n, const struct raw *p, uint64_t nflags)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);
	size_t len;

	switch (info->type) {
	case TASKDIAG_TYPE_U64:
		return n->u == p->u;
	case TASKDIAG_TYPE_S64:
		return n->s == p->s;
	case TASKDIAG_TYPE_STRING:
		if (n->len == p->len && mem_eq(n->p, p->p, n->len))
			return true;
		/* procfs shows a kernel thread's full name, a worker's queue. */
		return (nflags & PF_KTHREAD) && p->len > n->len && mem_eq(n->p, p->p, n->len);
	case TASKDIAG_TYPE_BYTES:
		len = p->len > CMDLINE_CAP ? CMDLINE_CAP : p->len;
		return n->len == len && mem_eq(n->p, p->p, len);
	case TASKDIAG_TYPE_U32_ARRAY:
		/* Lists (groups, the NS* pid arrays): every element counts. */
		if (info->unit != TASKDIAG_UNIT_BITMAP) {
			len = p->len > 4 * GROUPS_CAP ? 4 * GROUPS_CAP : p->len;
			return n->len == len && mem_eq(n->p, p->p, len);
		}
		len = words_trimmed(n);
		return len == words_trimmed(p) && mem_eq(n->p, p->p, 4 * len);
	}
	return false;
}

/*
 * One item of one task, netlink's @n against procfs's @a (before) and @b
 * (after): equal to either, or, for numbers, between them (times compared
 * at clock-tick granularity); see docs/fields.md for the known differences
 * accepted here.
 */
static bool item_agrees(int item, const struct raw *a, const struct raw *n, const struct raw *b,
			uint64_t nflags, uint64_t tick_ns)
{
	const struct taskdiag_item_info *info = taskdiag_item_info(item);
	const struct raw *one = a->present ? a : b;

	if (!n->present) {
		if (!a->present && !b->present)
			return true;
		if (a->present != b->present)
			return true;	/* appeared or vanished meanwhile */
		/* procfs cannot always tell that it refused the guarded fields. */
		return is_guard_placeholder(item, a) && is_guard_placeholder(item, b);
	}
	if (!a->present && !b->present)
		/*
		 * procfs reads an empty cmdline as none; its backend gives
		 * statm's locked only when it reads status too.
		 */
		return (item == TASKDIAG_ITEM_CMDLINE && n->len == 0) ||
		       item == TASKDIAG_ITEM_STATM_LOCKED;
	if (item == TASKDIAG_ITEM_STAT_KSTK_ESP || item == TASKDIAG_ITEM_STAT_KSTK_EIP)
		return n->u == 0 || same_value(item, n, one, nflags);
	if (info->type == TASKDIAG_TYPE_U64 && is_time(item)) {
		struct raw fl = *n;

		fl.u = n->u / tick_ns * tick_ns;
		n = &fl;
		if ((a->present && fl.u == a->u) || (b->present && fl.u == b->u))
			return true;
		return a->present && b->present && fl.u >= (a->u < b->u ? a->u : b->u) &&
		       fl.u <= (a->u > b->u ? a->u : b->u);
	}
	if ((a->present && same_value(item, n, a, nflags)) ||
	    (b->present && same_value(item, n, b, nflags)))
		return true;
	if (!a->present || !b->present || info->unit == TASKDIAG_UNIT_CHAR)
		return false;
	if (info->type == TASKDIAG_TYPE_U64)
		return n->u >= (a->u < b->u ? a->u : b->u) && n->u <= (a->u > b->u ? a->u : b->u);
	if (info->type == TASKDIAG_TYPE_S64)
		return n->s >= (a->s < b->s ? a->s : b->s) && n->s <= (a->s > b->s ? a->s : b->s);
	return false;
}

static void json_or_null(struct tdbuf *b, const struct tv *v)
{
	if (!tv_json(b, v))
		tdbuf_puts(b, "null");
}

static void verify_emit(struct verify *vf, pid_t pid, const char *field, const struct raw *a,
			const struct raw *n, const struct raw *b, int item, const char *why)
{
	static struct tdbuf line, t1, t2, t3;
	const struct raw none = { 0 };
	struct tv va, vn, vb;

	if (vf->o->mode == OUT_QUIET)
		return;
	if (item < 0) {
		a = n = b = &none;
		item = TASKDIAG_ITEM_PID;
	}
	tv_of_raw(item, a, &va);
	tv_of_raw(item, n, &vn);
	tv_of_raw(item, b, &vb);
	tdbuf_clear(&line);
	if (vf->o->mode == OUT_JSON) {
		tdbuf_addf(&line, "{\"pid\":%d,\"field\":", (int)pid);
		td_json_str(&line, field, strlen(field));
		tdbuf_puts(&line, ",\"netlink\":");
		json_or_null(&line, &vn);
		tdbuf_puts(&line, ",\"procfs\":[");
		json_or_null(&line, &va);
		tdbuf_addc(&line, ',');
		json_or_null(&line, &vb);
		tdbuf_puts(&line, "]");
		if (why) {
			tdbuf_puts(&line, ",\"why\":");
			td_json_str(&line, why, strlen(why));
		}
		tdbuf_puts(&line, "}\n");
	} else if (why) {
		tdbuf_addf(&line, "%d %s: %s\n", (int)pid, field, why);
	} else {
		tdbuf_clear(&t1);
		tdbuf_clear(&t2);
		tdbuf_clear(&t3);
		tv_text(&t1, &vn, true);
		tv_text(&t2, &va, true);
		tv_text(&t3, &vb, true);
		tdbuf_addf(&line, "%d %s: netlink %s, procfs %s then %s\n", (int)pid, field, t1.p,
			  t2.p, t3.p);
	}
	fwrite(line.p, 1, line.len, stdout);
}

/* Compare one task (count its differences; print them if @emit). */
static size_t verify_task(struct verify *vf, pid_t pid, const struct snapset *A,
			  const struct snapset *N, const struct snapset *B, bool emit)
{
	const struct snap *a = snapset_find(A, pid), *n = snapset_find(N, pid),
			  *b = snapset_find(B, pid);
	uint64_t nflags = 0;
	size_t diffs = 0;
	int i;

	if (!n) {
		if (!a || !b)
			return 0;	/* not alive throughout: nothing to say */
		if (emit)
			verify_emit(vf, pid, "task", NULL, NULL, NULL, -1,
				    "alive before and after, but missing from the netlink dump");
		return 1;
	}
	if (!a && !b) {
		if (emit)
			verify_emit(vf, pid, "task", NULL, NULL, NULL, -1,
				    "in the netlink dump, but in neither procfs reading");
		return 1;
	}
	if (!a || !b)
		return 0;	/* started or exited meanwhile */
	if (n->v[TASKDIAG_ITEM_BASE_FLAGS].present)
		nflags = n->v[TASKDIAG_ITEM_BASE_FLAGS].u;
	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *info = taskdiag_item_info(i);
		char q[64];

		if (info->group && !(info->group & vf->groups))
			continue;
		if (item_agrees(i, &a->v[i], &n->v[i], &b->v[i], nflags, vf->tick_ns))
			continue;
		diffs++;
		if (emit) {
			item_qname(i, q, sizeof(q));
			verify_emit(vf, pid, q, &a->v[i], &n->v[i], &b->v[i], i, NULL);
		}
	}
	return diffs;
}

/* procfs, netlink, procfs: the netlink reading is bracketed by two of /proc. */
static int verify_read(struct verify *vf, const struct taskdiag_request *req, struct snapset *A,
		       struct snapset *N, struct snapset *B, bool gone_ok)
{
	int err;

	err = snapshot(vf->pf, req, A, gone_ok);
	if (err)
		return report(err, vf->pf, "verify: procfs");
	err = snapshot(vf->nl, req, N, gone_ok);
	if (err)
		return report(err, vf->nl, "verify: netlink");
	err = snapshot(vf->pf, req, B, gone_ok);
	if (err)
		return report(err, vf->pf, "verify: procfs");
	return 0;
}

/*
 * Compare the whole scope once; then every task that differs is read again,
 * alone (its own process, or its process's threads), up to VERIFY_RETRIES
 * times, so that only differences that persist are reported: values that
 * move while they are read (a counter, a state) agree on a narrower reading.
 */
int run_verify(struct verify *vf, const struct taskdiag_request *req)
{
	struct snapset A = { 0 }, N = { 0 }, B = { 0 };
	pid_t *pids = NULL;
	size_t npids = 0, i, j, k;
	int ret;

	ret = verify_read(vf, req, &A, &N, &B, false);
	if (ret)
		goto out;
	/* Every pid of any reading, in order (the three are sorted). */
	pids = malloc((A.n + N.n + B.n + 1) * sizeof(*pids));
	if (!pids)
		td_nomem();
	for (i = j = k = 0; i < A.n || j < N.n || k < B.n;) {
		pid_t p = INT_MAX;

		if (i < A.n && A.t[i]->pid < p)
			p = A.t[i]->pid;
		if (j < N.n && N.t[j]->pid < p)
			p = N.t[j]->pid;
		if (k < B.n && B.t[k]->pid < p)
			p = B.t[k]->pid;
		i += i < A.n && A.t[i]->pid == p;
		j += j < N.n && N.t[j]->pid == p;
		k += k < B.n && B.t[k]->pid == p;
		pids[npids++] = p;
	}
	for (i = 0; i < npids; i++) {
		const struct snap *any = snapset_find(&N, pids[i]);
		struct snapset A2 = { 0 }, N2 = { 0 }, B2 = { 0 };
		struct taskdiag_request r = { .groups = req->groups };
		size_t d;
		int tries;

		if (!any)
			any = snapset_find(&A, pids[i]);
		if (!any)
			any = snapset_find(&B, pids[i]);
		if (any->tgid == vf->self)
			continue;	/* this program: its values move as it runs */
		d = verify_task(vf, pids[i], &A, &N, &B, false);
		if (!d) {
			vf->tasks += snapset_find(&N, pids[i]) != NULL;
			continue;
		}
		if (req->scope == TASKDIAG_SCOPE_ALL_THREADS || req->scope == TASKDIAG_SCOPE_THREADS) {
			r.scope = TASKDIAG_SCOPE_THREADS;
			r.pid = any->tgid;
		} else {
			r.scope = TASKDIAG_SCOPE_TASK;
			r.pid = pids[i];
		}
		for (tries = 0; tries < VERIFY_RETRIES && d; tries++) {
			snapset_free(&A2);
			snapset_free(&N2);
			snapset_free(&B2);
			ret = verify_read(vf, &r, &A2, &N2, &B2, true);
			if (ret)
				goto out;
			d = verify_task(vf, pids[i], &A2, &N2, &B2, false);
		}
		if (d) {
			vf->diffs += verify_task(vf, pids[i], &A2, &N2, &B2, true);
			vf->tasks++;
		} else {
			vf->tasks += snapset_find(&N2, pids[i]) != NULL;
		}
		snapset_free(&A2);
		snapset_free(&N2);
		snapset_free(&B2);
	}
	fflush(stdout);
	fprintf(stderr, PROG ": verify: %zu tasks compared, %zu difference%s\n", vf->tasks,
		vf->diffs, vf->diffs == 1 ? "" : "s");
	ret = vf->diffs ? TDA_EXIT_DIFF : TDA_EXIT_OK;
out:
	free(pids);
	snapset_free(&A);
	snapset_free(&N);
	snapset_free(&B);
	return ret;
}

