// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all --format openmetrics and prometheus: per-process metrics in
 * the OpenMetrics 1.0 text (counter families named without _total, UNIT
 * lines, # EOF) or the Prometheus text exposition format version 0.0.4
 * (what node_exporter's textfile collector and promtool read; --textfile
 * writes it), the same samples in both, one series per process, or with
 * --aggregate one per user and/or command name; --textfile DIR keeps
 * DIR/task_diag.prom up to date, each version written beside it and
 * renamed over it, so a reader sees a whole file or the one before.
 *
 * The records come through run_dump() (tda_out.c), so both backends,
 * -p/-c and --replay work as for the other formats. Names and units: the
 * prefix taskdiag_process_, then process-exporter's names where it has the
 * metric (cpu_seconds_total{mode}, memory_bytes{memtype},
 * context_switches_total{ctxswitchtype}, ...); seconds and bytes.
 * docs/prometheus.md has the list and the mapping.
 *
 * Aggregates: counters and gauges are summed over the group, the start time
 * is the oldest. While --textfile runs, a process that exits (or leaves
 * its group: exec, setuid) adds its last counters to what the group keeps,
 * so that the group's counters never go down, as process-exporter's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tda.h"

#define OM_PREFIX "taskdiag_process_"
#define OM_FILE "task_diag.prom"

/* The values of one process, or the sums of one group. */
enum om_val {
	V_UTIME,
	V_STIME,
	V_RSS,
	V_VSIZE,
	V_SWAP,
	V_READ_BYTES,
	V_WRITE_BYTES,
	V_RCHAR,
	V_WCHAR,
	V_VCSW,
	V_NVCSW,
	V_THREADS,
	V_MAJFLT,
	V_MINFLT,
	V_START,	/* nanoseconds since the epoch; a group's oldest */
	V__COUNT
};

static const enum taskdiag_item val_item[V__COUNT] = {
	[V_UTIME] = TASKDIAG_ITEM_STAT_UTIME,
	[V_STIME] = TASKDIAG_ITEM_STAT_STIME,
	[V_RSS] = TASKDIAG_ITEM_STAT_RSS,
	[V_VSIZE] = TASKDIAG_ITEM_STAT_VSIZE,
	[V_SWAP] = TASKDIAG_ITEM_STATUS_VM_SWAP,
	[V_READ_BYTES] = TASKDIAG_ITEM_IO_READ_BYTES,
	[V_WRITE_BYTES] = TASKDIAG_ITEM_IO_WRITE_BYTES,
	[V_RCHAR] = TASKDIAG_ITEM_IO_RCHAR,
	[V_WCHAR] = TASKDIAG_ITEM_IO_WCHAR,
	[V_VCSW] = TASKDIAG_ITEM_STATUS_VOLUNTARY_CTXT_SWITCHES,
	[V_NVCSW] = TASKDIAG_ITEM_STATUS_NONVOLUNTARY_CTXT_SWITCHES,
	[V_THREADS] = TASKDIAG_ITEM_BASE_NUM_THREADS,
	[V_MAJFLT] = TASKDIAG_ITEM_STAT_MAJFLT,
	[V_MINFLT] = TASKDIAG_ITEM_STAT_MINFLT,
	[V_START] = TASKDIAG_ITEM_BASE_START_TIME,
};

#define BIT(v) (1u << (v))
#define V_COUNTERS (BIT(V_UTIME) | BIT(V_STIME) | BIT(V_READ_BYTES) | BIT(V_WRITE_BYTES) | \
		    BIT(V_RCHAR) | BIT(V_WCHAR) | BIT(V_VCSW) | BIT(V_NVCSW) |           \
		    BIT(V_MAJFLT) | BIT(V_MINFLT))
#define V_NS (BIT(V_UTIME) | BIT(V_STIME) | BIT(V_START))	/* shown in seconds */

/* Which outputs a family is in. */
enum om_when { OM_BOTH, OM_PER_PROCESS, OM_AGGREGATES };

/* One metric family: its name after the prefix, and its series. */
struct om_family {
	const char *name;	/* as the 0.0.4 text names it: counters end in _total */
	const char *type;
	const char *unit;	/* OpenMetrics' UNIT (the end of the name), or NULL */
	const char *help;
	const char *label;	/* the label that tells its series apart, or NULL */
	unsigned int nseries;
	struct {
		const char *value;	/* of @label */
		enum om_val val;
	} series[3];
	enum om_when when;
};

static const struct om_family families[] = {
	{ "cpu_seconds_total", "counter", "seconds",
	  "CPU time spent in user and in system mode (stat utime, stime), in seconds",
	  "mode", 2, { { "user", V_UTIME }, { "system", V_STIME } }, OM_BOTH },
	{ "memory_bytes", "gauge", "bytes",
	  "Resident set (stat rss), virtual size (stat vsize) and swapped-out size "
	  "(status VmSwap), in bytes",
	  "memtype", 3, { { "resident", V_RSS }, { "virtual", V_VSIZE }, { "swapped", V_SWAP } },
	  OM_BOTH },
	{ "read_bytes_total", "counter", "bytes",
	  "Bytes fetched from storage for the process (io read_bytes)",
	  NULL, 1, { { NULL, V_READ_BYTES } }, OM_BOTH },
	{ "write_bytes_total", "counter", "bytes",
	  "Bytes the process caused to be sent to storage (io write_bytes)",
	  NULL, 1, { { NULL, V_WRITE_BYTES } }, OM_BOTH },
	{ "rchar_bytes_total", "counter", "bytes",
	  "Bytes read through read() and the like, page cache hits included (io rchar)",
	  NULL, 1, { { NULL, V_RCHAR } }, OM_BOTH },
	{ "wchar_bytes_total", "counter", "bytes",
	  "Bytes written through write() and the like (io wchar)",
	  NULL, 1, { { NULL, V_WCHAR } }, OM_BOTH },
	{ "context_switches_total", "counter", NULL,
	  "Context switches of the main thread (status voluntary_ctxt_switches, "
	  "nonvoluntary_ctxt_switches)",
	  "ctxswitchtype", 2, { { "voluntary", V_VCSW }, { "nonvoluntary", V_NVCSW } }, OM_BOTH },
	{ "num_threads", "gauge", NULL, "Threads (stat num_threads)",
	  NULL, 1, { { NULL, V_THREADS } }, OM_BOTH },
	{ "start_time_seconds", "gauge", "seconds",
	  "Start time in seconds since the epoch (stat starttime after btime of /proc/stat)",
	  NULL, 1, { { NULL, V_START } }, OM_PER_PROCESS },
	{ "oldest_start_time_seconds", "gauge", "seconds",
	  "Start time of the group's oldest process in seconds since the epoch "
	  "(stat starttime after btime of /proc/stat)",
	  NULL, 1, { { NULL, V_START } }, OM_AGGREGATES },
	{ "major_page_faults_total", "counter", NULL, "Major page faults (stat majflt)",
	  NULL, 1, { { NULL, V_MAJFLT } }, OM_BOTH },
	{ "minor_page_faults_total", "counter", NULL, "Minor page faults (stat minflt)",
	  NULL, 1, { { NULL, V_MINFLT } }, OM_BOTH },
	{ "num_procs", "gauge", NULL, "Processes in the group",
	  NULL, 0, { { NULL, V__COUNT } }, OM_AGGREGATES },
};

/* One process of a sample. */
struct om_rec {
	pid_t pid;
	char *user, *comm;	/* label values, escaped */
	char *labels;		/* pid="..",comm="..",user=".." */
	uint64_t v[V__COUNT];
	uint32_t have;		/* BIT(v): value present */
};

/* One group of --aggregate; kept from sample to sample by --textfile. */
struct om_group {
	char *user, *comm;	/* its key: label values ("" for one not grouped on) */
	char *labels;		/* user="..",comm=".." (those grouped on) */
	uint64_t v[V__COUNT];	/* this sample's sums (V_START: the oldest) */
	uint32_t have;
	uint64_t nprocs;
	uint64_t gone[V__COUNT];	/* counters of its processes that are gone */
	uint32_t gone_have;
};

struct om {
	const struct om_opts *opts;
	uint64_t boot_ns;	/* btime of /proc/stat, in ns since the epoch */
	struct om_rec *recs, *prev;	/* this sample; the last one (aggregates in a loop) */
	size_t n, cap, nprev, capprev;
	struct om_group *groups;	/* sorted by key */
	size_t ng, capg;
	struct tdbuf out, text;
};

/* ------------------------------------------------------------------------
 * Options
 */

void om_parse_aggregate(struct om_opts *om, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	unsigned int agg = 0, ntok = 0;

	if (!copy)
		td_nomem();
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		ntok++;
		if (!strcmp(tok, "user"))
			agg |= OM_AGG_USER;
		else if (!strcmp(tok, "comm"))
			agg |= OM_AGG_COMM;
		else if (strcmp(tok, "pid"))
			usage_defer("--aggregate: unknown label '%s' (user, comm, user,comm or pid)",
				    tok);
	}
	free(copy);
	if (!ntok)
		usage_defer("--aggregate: no label given (user, comm, user,comm or pid)");
	om->agg = agg;
	om->agg_set = true;
}

void om_parse_interval(struct om_opts *om, const char *arg)
{
	char *end;

	errno = 0;
	om->interval = strtod(arg, &end);
	if (!*arg || *end || errno || !(om->interval >= 0.01) || om->interval > 86400)
		usage_defer("--interval: '%s' is not a number of seconds from 0.01 to 86400", arg);
}

void om_parse_count(struct om_opts *om, const char *arg)
{
	char *end;

	errno = 0;
	om->count = strtol(arg, &end, 10);
	if (!*arg || *end || errno || om->count < 1)
		usage_defer("--count: '%s' is not a number above 0", arg);
}

void om_check_args(struct om_opts *om, enum out_mode *mode, const char *other)
{
	if (om->textfile) {
		if (*mode != OUT_OPENMETRICS && *mode != OUT_TABLE)
			usage_error("--textfile writes the prometheus format: not with -j, --csv "
				    "or -q");
		/* node_exporter's textfile collector reads the 0.0.4 text only */
		if (om->om1)
			usage_error("--textfile writes the Prometheus 0.0.4 text node_exporter reads: "
				    "-f prometheus (or no -f), not -f openmetrics");
		if (!*om->textfile)
			usage_error("--textfile needs a directory");
		*mode = OUT_OPENMETRICS;
	}
	if (*mode != OUT_OPENMETRICS) {
		if (om->agg_set)
			usage_error("--aggregate goes with --format prometheus or openmetrics (or "
				    "--textfile)");
		/* --interval without the metrics formats is the pidstat mode */
		if (om->count)
			usage_error("--count needs --interval");
		return;
	}
	if (other)
		usage_error("--format %s reports processes with its own metrics: not with %s",
			    om->om1 ? "openmetrics" : "prometheus", other);
	if (om->interval && !om->textfile)
		usage_error("--format %s --interval needs --textfile DIR (one text exposition "
			    "per file)", om->om1 ? "openmetrics" : "prometheus");
	if (om->count && !om->interval)
		usage_error("--count needs --interval");
}

uint32_t om_groups(void)
{
	return TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT | TASKDIAG_GROUP_IO |
	       TASKDIAG_GROUP_STATUS | TASKDIAG_GROUP_CRED;
}

/* ------------------------------------------------------------------------
 * Records
 */

static char *buf_copy(const struct tdbuf *b)
{
	char *copy = strdup(b->p);

	if (!copy)
		td_nomem();
	return copy;
}

static void add_label(struct tdbuf *b, const char *name, const char *value)
{
	if (b->len)
		tdbuf_addc(b, ',');
	tdbuf_puts(b, name);
	tdbuf_puts(b, "=\"");
	tdbuf_puts(b, value);
	tdbuf_addc(b, '"');
}

/*
 * A label value as the text format wants it: backslash, double quote and
 * line feed escaped; ill-formed UTF-8 (a comm is bytes, cut at 15) as
 * U+FFFD, which is also what the key of an aggregate is made of, so that
 * two names never become two series with the same labels.
 */
static char *label_value(struct tdbuf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, len;
	bool ok;

	tdbuf_clear(b);
	while (i < n) {
		len = td_utf8_next(p + i, n - i, &ok);
		if (!ok)
			tdbuf_puts(b, "\xef\xbf\xbd");
		else if (p[i] == '\\')
			tdbuf_puts(b, "\\\\");
		else if (p[i] == '"')
			tdbuf_puts(b, "\\\"");
		else if (p[i] == '\n')
			tdbuf_puts(b, "\\n");
		else
			tdbuf_add(b, p + i, len);
		i += len;
	}
	return buf_copy(b);
}

/* One record of a dump: run_dump() hands each over (struct out's sink). */
static void om_task(void *arg, const struct taskdiag_task *t)
{
	struct om *om = arg;
	const char *comm = "", *name;
	struct om_rec *r;
	uint64_t euid;
	int v;

	if (om->n == om->cap) {
		size_t cap = om->cap ? 2 * om->cap : 256;

		r = realloc(om->recs, cap * sizeof(*r));
		if (!r)
			td_nomem();
		om->recs = r;
		om->cap = cap;
	}
	r = &om->recs[om->n++];
	memset(r, 0, sizeof(*r));
	r->pid = taskdiag_task_pid(t);
	taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &comm);
	r->comm = label_value(&om->text, comm, strlen(comm));
	name = "";
	if (!taskdiag_task_get_u64(t, TASKDIAG_ITEM_CRED_EUID, &euid)) {
		name = td_id_label((uint32_t)euid, false);
	}
	r->user = label_value(&om->text, name, strlen(name));
	tdbuf_clear(&om->text);
	tdbuf_puts(&om->text, "pid=\"");
	tdbuf_addi(&om->text, r->pid);
	tdbuf_addc(&om->text, '"');
	add_label(&om->text, "comm", r->comm);
	add_label(&om->text, "user", r->user);
	r->labels = buf_copy(&om->text);
	for (v = 0; v < V__COUNT; v++)
		if (!taskdiag_task_get_u64(t, val_item[v], &r->v[v]))
			r->have |= BIT(v);
	if (r->have & BIT(V_START))
		r->v[V_START] += om->boot_ns;
}

static void free_recs(struct om_rec *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(r[i].user);
		free(r[i].comm);
		free(r[i].labels);
	}
}

/* ------------------------------------------------------------------------
 * Aggregates
 */

static int key_cmp(const struct om *om, const char *u1, const char *c1, const char *u2,
		   const char *c2)
{
	int d = 0;

	if (om->opts->agg & OM_AGG_USER)
		d = strcmp(u1, u2);
	if (!d && (om->opts->agg & OM_AGG_COMM))
		d = strcmp(c1, c2);
	return d;
}

/* The group of (@user, @comm), made if there is none yet. */
static struct om_group *group_of(struct om *om, const char *user, const char *comm)
{
	size_t lo = 0, hi = om->ng, mid;
	struct om_group *g;
	int d;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		g = &om->groups[mid];
		d = key_cmp(om, user, comm, g->user, g->comm);
		if (!d)
			return g;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (om->ng == om->capg) {
		size_t cap = om->capg ? 2 * om->capg : 64;

		g = realloc(om->groups, cap * sizeof(*g));
		if (!g)
			td_nomem();
		om->groups = g;
		om->capg = cap;
	}
	g = &om->groups[lo];
	memmove(g + 1, g, (om->ng - lo) * sizeof(*g));
	om->ng++;
	memset(g, 0, sizeof(*g));
	g->user = strdup(om->opts->agg & OM_AGG_USER ? user : "");
	g->comm = strdup(om->opts->agg & OM_AGG_COMM ? comm : "");
	if (!g->user || !g->comm)
		td_nomem();
	tdbuf_clear(&om->text);
	if (om->opts->agg & OM_AGG_USER)
		add_label(&om->text, "user", user);
	if (om->opts->agg & OM_AGG_COMM)
		add_label(&om->text, "comm", comm);
	g->labels = buf_copy(&om->text);
	return g;
}

static int rec_pid_cmp(const void *a, const void *b)
{
	const struct om_rec *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static const struct om_rec *rec_of_pid(const struct om *om, pid_t pid)
{
	struct om_rec key = { .pid = pid };

	return bsearch(&key, om->recs, om->n, sizeof(key), rec_pid_cmp);
}

/* Is @r (of the last sample) the same process, in the same group, in this one? */
static bool still_there(const struct om *om, const struct om_rec *r)
{
	const struct om_rec *c = rec_of_pid(om, r->pid);

	return c && (c->have & BIT(V_START)) == (r->have & BIT(V_START)) &&
	       c->v[V_START] == r->v[V_START] && !key_cmp(om, c->user, c->comm, r->user, r->comm);
}

static void aggregate(struct om *om, bool keep)
{
	struct om_group *g;
	size_t i;
	int v;

	qsort(om->recs, om->n, sizeof(*om->recs), rec_pid_cmp);
	/* Processes of the last sample that are gone: their counters stay. */
	for (i = 0; i < om->nprev; i++) {
		const struct om_rec *r = &om->prev[i];

		if (still_there(om, r))
			continue;
		g = group_of(om, r->user, r->comm);
		for (v = 0; v < V__COUNT; v++)
			if (r->have & V_COUNTERS & BIT(v)) {
				g->gone[v] += r->v[v];
				g->gone_have |= BIT(v);
			}
	}
	for (i = 0; i < om->ng; i++) {
		g = &om->groups[i];
		memset(g->v, 0, sizeof(g->v));
		g->have = 0;
		g->nprocs = 0;
	}
	for (i = 0; i < om->n; i++) {
		const struct om_rec *r = &om->recs[i];

		g = group_of(om, r->user, r->comm);
		g->nprocs++;
		for (v = 0; v < V__COUNT; v++) {
			if (!(r->have & BIT(v)))
				continue;
			if (v != V_START)
				g->v[v] += r->v[v];
			else if (!(g->have & BIT(v)) || r->v[v] < g->v[v])
				g->v[v] = r->v[v];
			g->have |= BIT(v);
		}
	}
	for (i = 0; i < om->ng; i++) {
		g = &om->groups[i];
		for (v = 0; v < V__COUNT; v++)
			g->v[v] += g->gone[v];
		g->have |= g->gone_have;
	}
	free_recs(om->prev, om->nprev);
	om->nprev = 0;
	if (!keep) {
		free_recs(om->recs, om->n);
		om->n = 0;
		return;
	}
	/* This sample becomes the last one. */
	{
		struct om_rec *r = om->prev;
		size_t cap = om->capprev;

		om->prev = om->recs;
		om->capprev = om->cap;
		om->nprev = om->n;
		om->recs = r;
		om->cap = cap;
		om->n = 0;
	}
}

/* ------------------------------------------------------------------------
 * The text
 */

static void put_value(struct tdbuf *b, enum om_val v, uint64_t x)
{
	uint64_t frac;
	char digits[10];
	int n;

	if (!(V_NS & BIT(v))) {
		tdbuf_addu(b, x);
		return;
	}
	tdbuf_addu(b, x / 1000000000u);
	frac = x % 1000000000u;
	if (!frac)
		return;
	for (n = 9; n > 0; n--, frac /= 10)
		digits[n - 1] = (char)('0' + frac % 10);
	for (n = 9; digits[n - 1] == '0'; n--)
		;
	tdbuf_addc(b, '.');
	tdbuf_add(b, digits, (size_t)n);
}

/* One sample line: the family's name, @labels and the series' label, the value. */
static void put_sample(struct om *om, const struct om_family *f, unsigned int s,
		       const char *labels, uint64_t x)
{
	struct tdbuf *b = &om->out;

	tdbuf_puts(b, OM_PREFIX);
	tdbuf_puts(b, f->name);	/* a counter's sample ends in _total in both */
	tdbuf_addc(b, '{');
	tdbuf_puts(b, labels);
	if (f->label) {
		tdbuf_addc(b, ',');
		tdbuf_puts(b, f->label);
		tdbuf_puts(b, "=\"");
		tdbuf_puts(b, f->series[s].value);
		tdbuf_addc(b, '"');
	}
	tdbuf_puts(b, "} ");
	put_value(b, f->nseries ? f->series[s].val : V__COUNT, x);
	tdbuf_addc(b, '\n');
}

/* Has any record (group) a value of family @f? */
static bool family_used(const struct om *om, const struct om_family *f, bool agg)
{
	uint32_t mask = 0;
	size_t i;
	unsigned int s;

	if (!f->nseries)
		return agg && om->ng;
	for (s = 0; s < f->nseries; s++)
		mask |= BIT(f->series[s].val);
	if (agg) {
		for (i = 0; i < om->ng; i++)
			if (om->groups[i].have & mask)
				return true;
	} else {
		for (i = 0; i < om->n; i++)
			if (om->recs[i].have & mask)
				return true;
	}
	return false;
}

static void render(struct om *om)
{
	bool agg = om->opts->agg;
	size_t i, k;
	unsigned int s;

	tdbuf_clear(&om->out);
	for (k = 0; k < sizeof(families) / sizeof(families[0]); k++) {
		const struct om_family *f = &families[k];

		if (f->when == (agg ? OM_PER_PROCESS : OM_AGGREGATES) || !family_used(om, f, agg))
			continue;
		/* OpenMetrics names a counter's family without _total, and gives its unit */
		int len = (int)strlen(f->name) - (om->opts->om1 && !strcmp(f->type, "counter") ? 6 : 0);

		tdbuf_addf(&om->out, "# HELP " OM_PREFIX "%.*s %s%s\n", len, f->name, f->help,
			   agg && f->nseries && f->series[0].val != V_START ?
			   ", summed over the group" : "");
		tdbuf_addf(&om->out, "# TYPE " OM_PREFIX "%.*s %s\n", len, f->name, f->type);
		if (om->opts->om1 && f->unit)
			tdbuf_addf(&om->out, "# UNIT " OM_PREFIX "%.*s %s\n", len, f->name, f->unit);
		if (agg) {
			for (i = 0; i < om->ng; i++) {
				const struct om_group *g = &om->groups[i];

				if (!f->nseries)
					put_sample(om, f, 0, g->labels, g->nprocs);
				for (s = 0; s < f->nseries; s++)
					if (g->have & BIT(f->series[s].val))
						put_sample(om, f, s, g->labels,
							   g->v[f->series[s].val]);
			}
			continue;
		}
		for (i = 0; i < om->n; i++) {
			const struct om_rec *r = &om->recs[i];

			for (s = 0; s < f->nseries; s++)
				if (r->have & BIT(f->series[s].val))
					put_sample(om, f, s, r->labels,
						   r->v[f->series[s].val]);
		}
	}
	if (om->opts->om1)
		tdbuf_puts(&om->out, "# EOF\n");
}

/* ------------------------------------------------------------------------
 * --textfile
 */

/* DIR/task_diag.prom := @b, through a file beside it that node_exporter ignores. */
static int write_textfile(const char *dir, const struct tdbuf *b)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	size_t done = 0;
	ssize_t n;
	int fd, err = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/." OM_FILE ".XXXXXX", dir) >= sizeof(tmp) ||
	    (size_t)snprintf(dst, sizeof(dst), "%s/" OM_FILE, dir) >= sizeof(dst))
		return report(-ENAMETOOLONG, NULL, "--textfile %s", dir);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return report(-errno, NULL, "--textfile %s: cannot create a file there", dir);
	/* mkostemp() makes it 0600; node_exporter runs as another user. */
	if (fchmod(fd, 0644))
		err = -errno;
	while (!err && done < b->len) {
		n = write(fd, b->p + done, b->len - done);
		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n > 0)
			done += (size_t)n;
	}
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, dst))
		err = -errno;
	if (err) {
		unlink(tmp);
		return report(err, NULL, "--textfile: writing %s", dst);
	}
	return 0;
}

static volatile sig_atomic_t g_stop;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
}

/* Sleep until @next (CLOCK_MONOTONIC), then move it on by @sec; false if asked to stop. */
static bool wait_next(struct timespec *next, double sec)
{
	struct timespec now;
	long long ns = (long long)(sec * 1e9);

	next->tv_sec += ns / 1000000000;
	next->tv_nsec += ns % 1000000000;
	if (next->tv_nsec >= 1000000000) {
		next->tv_sec++;
		next->tv_nsec -= 1000000000;
	}
	/* Behind (a dump longer than the interval): from now on. */
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec > next->tv_sec || (now.tv_sec == next->tv_sec && now.tv_nsec > next->tv_nsec))
		*next = now;
	while (!g_stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
	return !g_stop;
}

int run_openmetrics(struct out *o, struct taskdiag *td, const struct taskdiag_request *req,
		    const pid_t *pids, size_t npids, const char *replay,
		    const struct om_opts *opts)
{
	struct om om = { .opts = opts };
	bool loop = opts->textfile && opts->interval > 0;
	struct timespec next;
	long written = 0;
	int ret = 0, err;
	size_t i;

	/* A directory the file cannot go in: say so before the first dump. */
	if (opts->textfile) {
		struct stat st;

		if (stat(opts->textfile, &st))
			return report(-errno, NULL, "--textfile %s: cannot write there", opts->textfile);
		if (!S_ISDIR(st.st_mode))
			return report(-ENOTDIR, NULL, "--textfile %s: cannot write there",
				      opts->textfile);
		if (access(opts->textfile, W_OK | X_OK))
			return report(-errno, NULL, "--textfile %s: cannot write there", opts->textfile);
	}
	om.boot_ns = (uint64_t)o->cx.boot_time * 1000000000u;
	o->sink = om_task;
	o->sink_arg = &om;
	out_begin(o);
	if (loop) {
		struct sigaction sa = { .sa_handler = on_signal };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		/* A pid of -p that is gone is reported, and the others written. */
		ret = run_dump(o, td, req, pids, npids, replay);
		if (ret && ret != TDA_EXIT_NOPID)
			break;
		if (opts->agg)
			aggregate(&om, loop);
		render(&om);
		if (!opts->agg) {
			free_recs(om.recs, om.n);
			om.n = 0;
		}
		if (!opts->textfile) {
			fwrite(om.out.p, 1, om.out.len, stdout);
			break;
		}
		err = write_textfile(opts->textfile, &om.out);
		if (err) {
			ret = err;
			break;
		}
		written++;
		if (!loop || (opts->count && written >= opts->count) || !wait_next(&next, opts->interval))
			break;
	}
	free_recs(om.recs, om.n);
	free_recs(om.prev, om.nprev);
	free(om.recs);
	free(om.prev);
	for (i = 0; i < om.ng; i++) {
		free(om.groups[i].user);
		free(om.groups[i].comm);
		free(om.groups[i].labels);
	}
	free(om.groups);
	tdbuf_free(&om.out);
	tdbuf_free(&om.text);
	o->sink = NULL;
	o->sink_arg = NULL;
	return ret;
}
