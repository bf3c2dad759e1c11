// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all: dump per-task information for every process (or thread, or
 * one task, its threads, its children) through libtaskdiag, from the
 * task_diag kernel module or from /proc.
 *
 * This file: the options (one table for the dump, the metrics, --interval
 * and --maps) and main(); tda.h says what the others hold (values, output,
 * errors, --verify, --interval, --maps). --dump-raw records the raw
 * netlink reply stream and --replay decodes it again.
 *
 * Exit codes (also in usage() and task_diag_all.1): see enum tda_exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <taskdiag/taskdiag.h>

#include "td_backend_opt.h"
#include "tda.h"

#ifndef TDA_VERSION
#define TDA_VERSION "unknown"
#endif

#define DEFAULT_GROUPS	(TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT | \
			 TASKDIAG_GROUP_STATM | TASKDIAG_GROUP_CRED)

/* ------------------------------------------------------------------------
 * Options
 */

struct opts {
	enum taskdiag_scope scope;
	pid_t pid;
	pid_t *pids;		/* -p: ascending, no repeats */
	size_t npids;
	uint32_t groups;	/* -s */
	bool groups_set;
	char *fields;		/* -o */
	enum out_mode mode;
	enum taskdiag_backend backend;
	bool backend_set;
	bool quiet_fallback;	/* --quiet-fallback (and -q): no notice of the fallback */
	bool verify;
	bool crlf;		/* --crlf */
	bool wide;		/* -w */
	const char *dump_raw;
	const char *replay;
	int nscope;
	uint32_t *uids, *euids;	/* --uid, --euid */
	uint32_t nuids, neuids;
	const char *cgroup;	/* --cgroup: a path (/...) or an id */
	const char *comm;	/* --comm */
	struct om_opts om;	/* -f openmetrics or prometheus, --aggregate, --textfile,
				 * --interval, --count */
	bool scope_clash;	/* two of -a, -A, -p, -t, -c that do not go together */
	bool interval_mode;	/* --interval without the metrics formats */
	uint32_t vma_filter;	/* --file-backed, --exec, --build-id (--maps) */
	uint64_t *addrs;	/* --addr (--maps) */
	size_t naddrs;
	int given[64];		/* the options given (getopt's values), each once */
	size_t ngiven;
};

static const struct {
	const char *name;
	uint32_t bit;
} group_names[] = {
	{ "base", TASKDIAG_GROUP_BASE },
	{ "stat", TASKDIAG_GROUP_STAT },
	{ "statm", TASKDIAG_GROUP_STATM },
	{ "io", TASKDIAG_GROUP_IO },
	{ "status", TASKDIAG_GROUP_STATUS },
	{ "cred", TASKDIAG_GROUP_CRED },
	{ "cmdline", TASKDIAG_GROUP_CMDLINE },
	/* smaps_rollup: walks page tables, so only when named (not in "all") */
	{ "mem", TASKDIAG_GROUP_MEM },
	{ "all", TASKDIAG_GROUP_ALL & ~TASKDIAG_GROUP_MEM },
};

enum {
	OPT_CSV = 256,
	OPT_VERIFY,
	OPT_DUMP_RAW,
	OPT_REPLAY,
	OPT_CRLF,
	OPT_UID,
	OPT_EUID,
	OPT_CGROUP,
	OPT_COMM,
	OPT_AGGREGATE,
	OPT_TEXTFILE,
	OPT_INTERVAL,
	OPT_COUNT,
	OPT_QUIET_FALLBACK,
	OPT_MAPS,
	OPT_FILE_BACKED,
	OPT_EXEC,
	OPT_ADDR,
	OPT_BUILD_ID,
};

static const char short_opts[] = ":aAp:t:c:s:o:jqwf:hV";
static const struct option long_opts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "all-threads", no_argument, NULL, 'A' },
	{ "pid", required_argument, NULL, 'p' },
	{ "threads-of", required_argument, NULL, 't' },
	{ "children-of", required_argument, NULL, 'c' },
	{ "show", required_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, OPT_CSV },
	{ "crlf", no_argument, NULL, OPT_CRLF },
	{ "wide", no_argument, NULL, 'w' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "format", required_argument, NULL, 'f' },
	{ "aggregate", required_argument, NULL, OPT_AGGREGATE },
	{ "textfile", required_argument, NULL, OPT_TEXTFILE },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "count", required_argument, NULL, OPT_COUNT },
	{ "backend", required_argument, NULL, 'b' },
	{ "quiet-fallback", no_argument, NULL, OPT_QUIET_FALLBACK },
	{ "verify", no_argument, NULL, OPT_VERIFY },
	{ "dump-raw", required_argument, NULL, OPT_DUMP_RAW },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "uid", required_argument, NULL, OPT_UID },
	{ "euid", required_argument, NULL, OPT_EUID },
	{ "cgroup", required_argument, NULL, OPT_CGROUP },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "maps", no_argument, NULL, OPT_MAPS },
	{ "file-backed", no_argument, NULL, OPT_FILE_BACKED },
	{ "exec", no_argument, NULL, OPT_EXEC },
	{ "addr", required_argument, NULL, OPT_ADDR },
	{ "build-id", no_argument, NULL, OPT_BUILD_ID },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [OPTIONS]\n"
	      "Dump per-task information from the task_diag kernel module or /proc.\n"
	      "\n"
	      "Tasks (one of):\n"
	      "  -a, --all                every process (default)\n"
	      "  -A, --all-threads        every thread\n"
	      "  -p, --pid PID,...        these tasks (a list, as ps takes it: commas or\n"
	      "                           blanks, -p repeated)\n"
	      "  -t, --threads-of PID     the threads of process PID\n"
	      "  -c, --children-of PID    the processes whose parent is PID\n"
	      "\n"
	      "Filters (all must match; on both backends: the module applies them in\n"
	      "the kernel, the procfs backend from each task's files):\n"
	      "      --uid UID,...        real uid (number or user name) is one of these\n"
	      "      --euid UID,...       effective uid is one of these\n"
	      "      --cgroup CG          in cgroup v2 CG or below: a path from the cgroup\n"
	      "                           namespace's root (/system.slice) or an id\n"
	      "      --comm NAME          command name is exactly NAME\n"
	      "\n"
	      "What:\n"
	      "  -s, --show GROUP,...     groups to read: base stat statm io status cred\n"
	      "                           cmdline mem (smaps_rollup, walks page tables),\n"
	      "                           or all but mem (default: base,stat,statm,cred);\n"
	      "                           without -o, every item of them is shown (the\n"
	      "                           wide table)\n"
	      "  -o, --output FIELD,...   these columns only: ps's format specifiers, as tdps\n"
	      "                           shows them (pid user %cpu rss stat etime args ...,\n"
	      "                           NAME:WIDTH, NAME=HEADER), or item names\n"
	      "                           (stat.utime, or utime where unique); -o help\n"
	      "                           lists them all\n"
	      "\n"
	      "Output (default: a table like ps's, " TDA_DEFAULT_FIELDS ";\n"
	      "JSON and CSV: every item of the groups):\n"
	      "  -w, --wide               the table's last column uncut (by default it is\n"
	      "                           cut at the terminal's width, or COLUMNS)\n"
	      "  -j, --json               JSON Lines: one JSON object per task per line\n"
	      "      --csv                CSV (RFC 4180) with a header line, LF line ends\n"
	      "      --crlf               CSV with CR LF line ends\n"
	      "  -q, --quiet              decode everything, print nothing\n"
	      "  -f, --format FMT         table, json, csv, or per-process metrics:\n"
	      "                           openmetrics (OpenMetrics 1.0 text) or prometheus\n"
	      "                           (the Prometheus 0.0.4 text)\n"
	      "\n"
	      "Metrics (-f openmetrics or prometheus; processes of -a, -p or -c):\n"
	      "      --aggregate BY       one series per user, per comm, or per user,comm\n"
	      "                           (sums; oldest start time; a num_procs gauge)\n"
	      "      --textfile DIR       write DIR/task_diag.prom for node_exporter's textfile\n"
	      "                           collector (the 0.0.4 text; written aside, renamed)\n"
	      "      --interval SEC       with --textfile: rewrite it every SEC seconds\n"
	      "      --count N            with --interval: write N times, then exit\n"
	      "\n"
	      "Source:\n"
	      "      --backend B          auto (default), netlink or procfs\n"
	      "      --quiet-fallback     no notice when auto reads /proc for want of the\n"
	      "                           module (-q gives none either)\n"
	      "      --verify             dump with both backends and report every field\n"
	      "                           that differs (default: -s all)\n"
	      "      --dump-raw FILE      also record the raw netlink replies in FILE\n"
	      "      --replay FILE        decode a recording instead of asking the kernel\n"
	      "\n"
	      "  -h, --help               this text\n"
	      "  -V, --version            the version\n"
	      "\n"
	      "Per interval (%cpu and rates, like pidstat; see the man page):\n"
	      "task_diag_all --interval SEC [--count N] [-A] [-p PID,...] [-j|--csv] [--backend B]\n"
	      "\n"
	      "Memory maps, as pmap -x (see --maps --help):\n"
	      "task_diag_all --maps [-a | -p PID,...] [--backend B] [--file-backed] [--exec]\n"
	      "                     [--build-id]\n"
	      "task_diag_all --maps -p PID --addr A[,A...]: the VMA at or above each address\n"
	      "\n"
	      "Exit status: 0 ok, 1 error, 2 bad usage, 3 task_diag module not loaded,\n"
	      "4 permission denied, 5 no such pid, 6 --verify found differences.\n", f);
}

static pid_t parse_pid(const char *opt, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > INT_MAX) {
		usage_defer("%s: '%s' is not a pid", opt, s);
		return 0;
	}
	return (pid_t)v;
}

static uint32_t parse_groups(const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	uint32_t groups = 0;
	size_t i;

	if (!copy)
		td_nomem();
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		for (i = 0; i < sizeof(group_names) / sizeof(group_names[0]); i++)
			if (!strcmp(tok, group_names[i].name))
				break;
		if (i == sizeof(group_names) / sizeof(group_names[0])) {
			usage_defer("-s: unknown group '%s' (base stat statm io status cred cmdline mem all)",
				    tok);
			continue;
		}
		groups |= group_names[i].bit;
	}
	free(copy);
	if (!groups)
		usage_defer("-s: no group given");
	return groups;
}

/* The --interval mode takes -A with -p: parse_args() decides once it knows the mode. */
static void set_scope(struct opts *o, enum taskdiag_scope scope, pid_t pid)
{
	if (o->nscope++ && (o->scope != scope || (scope != TASKDIAG_SCOPE_TASK && o->pid != pid)))
		o->scope_clash = true;
	o->scope = scope;
	if (scope != TASKDIAG_SCOPE_TASK)
		o->pid = pid;
}

/* -p LIST: pids separated by a comma or a blank, kept ascending without repeats. */
static void add_pids(struct opts *o, const char *arg)
{
	const char *p = arg;
	char tok[32];
	size_t n;
	pid_t pid;

	do {
		n = strcspn(p, ", \t");
		if (!n || n >= sizeof(tok)) {
			usage_defer("-p: '%s' is not a pid or a list of pids", arg);
			return;
		}
		memcpy(tok, p, n);
		tok[n] = '\0';
		p += n;
		pid = parse_pid("-p", tok);
		if (!pid)
			return;
		td_pid_set_add(&o->pids, &o->npids, pid);
	} while (*p++);
	set_scope(o, TASKDIAG_SCOPE_TASK, 0);
	o->pid = o->pids[0];
}

/* --addr LIST: hex addresses, separated by commas or blanks, in the order given. */
static void add_addrs(struct opts *o, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL, *end;
	uint64_t *m;
	uint64_t a;

	if (!copy)
		td_nomem();
	for (tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		errno = 0;
		a = strtoull(tok, &end, 16);
		if (*end || end == tok || errno || *tok == '-' || *tok == '+') {
			usage_defer("--addr: '%s' is not a hex address", tok);
			break;
		}
		m = realloc(o->addrs, (o->naddrs + 1) * sizeof(*m));
		if (!m)
			td_nomem();
		o->addrs = m;
		o->addrs[o->naddrs++] = a;
	}
	if (!o->naddrs)
		usage_defer("--addr: no address");
	free(copy);
}

/* --uid/--euid LIST: numbers or user names, separated by commas. */
static void add_uids(const char *opt, const char *arg, uint32_t **ids, uint32_t *n)
{
	char *copy = strdup(arg), *tok, *save = NULL, *end;
	struct passwd *pw;
	unsigned long v;

	if (!copy)
		td_nomem();
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		errno = 0;
		v = strtoul(tok, &end, 10);
		if (*tok >= '0' && *tok <= '9' && !*end && !errno && v <= UINT32_MAX) {
			/* a number */
		} else if ((pw = getpwnam(tok))) {
			v = pw->pw_uid;
		} else {
			usage_defer("%s: '%s' is not a uid or a user name", opt, tok);
			break;
		}
		if (*n >= TASKDIAG_FILTER_MAX) {
			usage_defer("%s: at most %u uids", opt, TASKDIAG_FILTER_MAX);
			break;
		}
		*ids = realloc(*ids, (*n + 1) * sizeof(**ids));
		if (!*ids)
			td_nomem();
		(*ids)[(*n)++] = (uint32_t)v;
	}
	free(copy);
}

/* The filters of the options into @req. */
static void set_filters(const struct opts *o, struct taskdiag_request *req)
{
	char *end;

	req->uids = o->uids;
	req->nuids = o->nuids;
	req->euids = o->euids;
	req->neuids = o->neuids;
	req->comm = o->comm;
	if (o->cgroup && o->cgroup[0] == '/') {
		req->cgroup_path = o->cgroup;
	} else if (o->cgroup) {
		errno = 0;
		req->cgroup_id = strtoull(o->cgroup, &end, 10);
		if (errno || *end || !req->cgroup_id || o->cgroup[0] < '0' || o->cgroup[0] > '9')
			usage_error("--cgroup: '%s' is not a path (/...) or a cgroup id", o->cgroup);
	}
}

/* The option as it was written: "--pid" or "-p". */
static void bad_option(const char *what, char **argv, int c)
{
	const char *arg = argv[optind - 1];

	if (!strncmp(arg, "--", 2)) {
		size_t n = strcspn(arg, "=");

		usage_defer("%s %.*s", what, (int)n, arg);
	} else if (c == 'b' && !strcmp(what, "unknown option")) {
		/* one meaning per letter across the tools: top's and tdtop's batch mode */
		usage_defer("unknown option -b (the backend is --backend B; -b is batch mode in "
			    "top and tdtop)");
	} else if (c > 0 && c < 256) {
		usage_defer("%s -%c", what, c);
	} else {
		usage_defer("%s %s", what, arg);
	}
}

/* An option as --help names it: "-s (--show)", "--csv". */
static const char *option_name(int c)
{
	static char name[64];
	const struct option *l;

	for (l = long_opts; l->name && l->val != c; l++)
		;
	if (c > 0 && c < 256 && strchr(short_opts, c) && l->name)
		snprintf(name, sizeof(name), "-%c (--%s)", c, l->name);
	else
		snprintf(name, sizeof(name), "--%s", l->name ? l->name : "?");
	return name;
}

static bool given(const struct opts *o, int c)
{
	size_t i;

	for (i = 0; i < o->ngiven && o->given[i] != c; i++)
		;
	return i < o->ngiven;
}

/* getopt's values are fewer than o->given's slots: each is noted once. */
static void note_given(struct opts *o, int c)
{
	if (!given(o, c) && o->ngiven < sizeof(o->given) / sizeof(o->given[0]))
		o->given[o->ngiven++] = c;
}

/* A mode (@mode: --interval, --maps) takes the options of @takes only. */
static void check_mode_args(const struct opts *o, const char *mode, const int *takes, size_t n)
{
	size_t i, k;

	for (i = 0; i < o->ngiven; i++) {
		for (k = 0; k < n && takes[k] != o->given[i]; k++)
			;
		if (k == n)
			usage_error("%s does not take %s", mode, option_name(o->given[i]));
	}
}

/* What the --interval mode reads: the tasks, the format, the backend, its clock. */
static const int interval_takes[] = { 'A', 'p', 'j', OPT_CSV, 'f', 'b', OPT_QUIET_FALLBACK,
				      OPT_INTERVAL, OPT_COUNT };
/* What --maps reads: the processes, the VMA filters, the addresses, the backend. */
static const int maps_takes[] = { OPT_MAPS, 'a', 'p', 'b', OPT_QUIET_FALLBACK, OPT_FILE_BACKED,
				  OPT_EXEC, OPT_ADDR, OPT_BUILD_ID };
static const int maps_only[] = { OPT_FILE_BACKED, OPT_EXEC, OPT_ADDR, OPT_BUILD_ID };

static void parse_args(int argc, char **argv, struct opts *o)
{
	size_t i;
	int c;

	memset(o, 0, sizeof(*o));
	o->scope = TASKDIAG_SCOPE_ALL_PROCESSES;
	o->groups = DEFAULT_GROUPS;
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		note_given(o, c);
		switch (c) {
		case 'a':
			set_scope(o, TASKDIAG_SCOPE_ALL_PROCESSES, 0);
			break;
		case 'A':
			set_scope(o, TASKDIAG_SCOPE_ALL_THREADS, 0);
			break;
		case 'p':
			add_pids(o, optarg);
			break;
		case 't':
			set_scope(o, TASKDIAG_SCOPE_THREADS, parse_pid("-t", optarg));
			break;
		case 'c':
			set_scope(o, TASKDIAG_SCOPE_CHILDREN, parse_pid("-c", optarg));
			break;
		case 's':
			o->groups = (o->groups_set ? o->groups : 0) | parse_groups(optarg);
			o->groups_set = true;
			break;
		case 'o':
			free(o->fields);
			o->fields = strdup(optarg);
			if (!o->fields)
				td_nomem();
			break;
		case 'j':
			o->mode = OUT_JSON;
			break;
		case OPT_CSV:
			o->mode = OUT_CSV;
			break;
		case 'q':
			o->mode = OUT_QUIET;
			break;
		case 'w':
			o->wide = true;
			break;
		case 'f':
			if (!strcmp(optarg, "table"))
				o->mode = OUT_TABLE;
			else if (!strcmp(optarg, "json"))
				o->mode = OUT_JSON;
			else if (!strcmp(optarg, "csv"))
				o->mode = OUT_CSV;
			else if (!strcmp(optarg, "openmetrics") || !strcmp(optarg, "prometheus")) {
				o->mode = OUT_OPENMETRICS;
				o->om.om1 = !strcmp(optarg, "openmetrics");
			} else {
				usage_defer("-f: unknown format '%s' (table, json, csv, openmetrics or "
					    "prometheus)", optarg);
			}
			break;
		case OPT_AGGREGATE:
			om_parse_aggregate(&o->om, optarg);
			break;
		case OPT_TEXTFILE:
			o->om.textfile = optarg;
			break;
		case OPT_INTERVAL:
			om_parse_interval(&o->om, optarg);
			break;
		case OPT_COUNT:
			om_parse_count(&o->om, optarg);
			break;
		case OPT_CRLF:
			o->mode = OUT_CSV;
			o->crlf = true;
			break;
		case 'b':
			if (!td_backend_parse(optarg, &o->backend))
				usage_defer("--backend: unknown backend '%s' (auto, netlink or procfs)", optarg);
			o->backend_set = true;
			break;
		case OPT_QUIET_FALLBACK:
			o->quiet_fallback = true;
			break;
		case OPT_VERIFY:
			o->verify = true;
			break;
		case OPT_DUMP_RAW:
			o->dump_raw = optarg;
			break;
		case OPT_REPLAY:
			o->replay = optarg;
			break;
		case OPT_UID:
			add_uids("--uid", optarg, &o->uids, &o->nuids);
			break;
		case OPT_EUID:
			add_uids("--euid", optarg, &o->euids, &o->neuids);
			break;
		case OPT_CGROUP:
			o->cgroup = optarg;
			break;
		case OPT_COMM:
			o->comm = optarg;
			break;
		case OPT_MAPS:
			break;
		case OPT_FILE_BACKED:
			o->vma_filter |= TASKDIAG_VMA_FILE_BACKED;
			break;
		case OPT_EXEC:
			o->vma_filter |= TASKDIAG_VMA_EXEC;
			break;
		case OPT_BUILD_ID:
			o->vma_filter |= TASKDIAG_VMA_BUILD_ID;
			break;
		case OPT_ADDR:
			add_addrs(o, optarg);
			break;
		case 'h':	/* --help, or --maps --help: once the mode is known */
			break;
		case 'V':
			printf(PROG " %s (libtaskdiag)\n", TDA_VERSION);
			exit(TDA_EXIT_OK);
		case ':':
			bad_option("missing argument to", argv, optopt);
			break;
		default:
			bad_option("unknown option", argv, optopt);
			break;
		}
	}
	if (given(o, 'h')) {
		if (given(o, OPT_MAPS))
			tda_maps_usage(stdout);
		else
			usage(stdout);
		exit(TDA_EXIT_OK);
	}
	tda_errors.json = o->mode == OUT_JSON;
	if (usage_deferred())
		usage_error("%s", usage_deferred());
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	o->interval_mode = o->om.interval && !o->om.textfile && o->mode != OUT_OPENMETRICS;
	if (o->interval_mode) {
		check_mode_args(o, "--interval (without --textfile)", interval_takes,
				sizeof(interval_takes) / sizeof(interval_takes[0]));
		return;
	}
	if (o->scope_clash)
		usage_error("-a, -A, -p, -t and -c are exclusive");
	if (given(o, OPT_MAPS)) {
		check_mode_args(o, "--maps", maps_takes,
				sizeof(maps_takes) / sizeof(maps_takes[0]));
		if (o->naddrs && o->npids != 1)
			usage_error("--addr needs -p with one pid");
		return;
	}
	for (i = 0; i < sizeof(maps_only) / sizeof(maps_only[0]); i++)
		if (given(o, maps_only[i]))
			usage_error("%s goes with --maps", option_name(maps_only[i]));
	if (o->dump_raw && !strcmp(o->dump_raw, "-"))
		usage_error("--dump-raw needs a file, not standard output");
	if (o->replay && (o->backend_set || o->verify || o->dump_raw || o->nscope))
		usage_error("--replay replays what was recorded: no -a/-A/-p/-t/-c, --backend, --verify "
			    "or --dump-raw with it");
	if (o->verify && (o->backend_set || o->dump_raw))
		usage_error("--verify reads both backends: no --backend or --dump-raw with it");
	if (o->dump_raw && o->backend == TASKDIAG_BACKEND_PROCFS)
		usage_error("--dump-raw records netlink replies: not with --backend procfs");
	if (o->verify && o->mode == OUT_CSV)
		usage_error("--verify reports as text or JSON, not CSV");
	if (o->npids > 1 && (o->verify || o->dump_raw))
		usage_error("--verify and --dump-raw take one pid (-p)");
	om_check_args(&o->om, &o->mode,
		      o->scope == TASKDIAG_SCOPE_ALL_THREADS || o->scope == TASKDIAG_SCOPE_THREADS ?
		      "-A or -t" : o->fields ? "-o" : o->groups_set ? "-s" :
		      o->verify ? "--verify" : o->crlf ? "--crlf" : NULL);
}

/* ------------------------------------------------------------------------
 * Dump
 */

static int open_file(const char *path, bool write)
{
	int fd;

	if (!strcmp(path, "-"))
		return write ? STDOUT_FILENO : STDIN_FILENO;
	fd = write ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)
		   : open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* ------------------------------------------------------------------------
 * main
 */

/* The terminal's width (COLUMNS first, as ps), or SIZE_MAX when not a terminal. */
static size_t screen_width(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;
	long v;

	if (env && *env) {
		v = strtol(env, &end, 10);
		if (!*end && v > 0)
			return (size_t)v;
	}
	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return SIZE_MAX;
}

/* What parse_args() allocated. */
static void opts_free(struct opts *o)
{
	free(o->fields);
	free(o->pids);
	free(o->uids);
	free(o->euids);
	free(o->addrs);
}

static int finish(int ret)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, PROG ": writing the output: %s\n", strerror(errno ? errno : EIO));
		return ret ? ret : TDA_EXIT_ERROR;
	}
	return ret;
}

/*
 * A recording that keeps its host (this version's): %CPU, elapsed and start
 * times as they were when it was made, not against this machine's clocks.
 */
static void use_recorded_host(struct taskdiag *td, struct psf_ctx *cx)
{
	struct taskdiag_system sys;
	uint64_t now;

	if (taskdiag_replay_system(td, &sys, sizeof(sys), &now))
		return;	/* an older recording: this host's, as before */
	cx->boot_time = (time_t)sys.boot_time;
	cx->uptime_cs = sys.uptime / 10000000u;
	cx->now = (time_t)(now / 1000000000u);
	cx->hz = sys.hz;
	cx->mem_total_kib = sys.mem_total / 1024;
}

int main(int argc, char **argv)
{
	struct taskdiag_request req = { 0 };
	struct out o = { 0 };
	struct opts opt;
	struct taskdiag *td = NULL;
	uint32_t need = 0;
	int ret, fd = -1;

	td_prog = PROG;
	parse_args(argc, argv, &opt);
	if (given(&opt, OPT_MAPS)) {
		struct tda_maps m = {
			.pids = opt.pids, .npids = opt.npids, .filter = opt.vma_filter,
			.addrs = opt.addrs, .naddrs = opt.naddrs, .backend = opt.backend,
			.quiet_fallback = opt.quiet_fallback,
		};

		ret = tda_maps_main(&m);
		opts_free(&opt);
		return finish(ret);
	}
	if (opt.interval_mode) {
		struct tda_interval io = {
			.interval = opt.om.interval, .count = opt.om.count,
			.threads = given(&opt, 'A'), .pids = opt.pids, .npids = opt.npids,
			.mode = opt.mode, .backend = opt.backend,
			.quiet_fallback = opt.quiet_fallback,
		};

		ret = tda_interval_main(&io);
		opts_free(&opt);
		return finish(ret);
	}
	/* Not before: the modes above print numbers in the C locale's form. */
	setlocale(LC_ALL, "");
	o.mode = opt.mode;
	o.crlf = opt.crlf;
	o.screen = opt.wide ? SIZE_MAX : screen_width();
	psf_ctx_read(&o.cx, opt.scope == TASKDIAG_SCOPE_ALL_THREADS ||
		     opt.scope == TASKDIAG_SCOPE_THREADS, false);
	/* The table without -o or -s: ps's columns; -s asks for the wide one. */
	if (!opt.fields && !opt.groups_set && o.mode == OUT_TABLE && !opt.verify) {
		opt.fields = strdup(TDA_DEFAULT_FIELDS);
		if (!opt.fields)
			td_nomem();
	}
	if (opt.fields)
		need = columns_of_fields(&o, opt.fields);

	req.scope = opt.scope;
	req.pid = opt.pid;
	set_filters(&opt, &req);

	if (opt.verify) {
		struct verify vf = { .o = &o, .self = getpid(), .tick_ns = 1000000000u / o.cx.hz };

		req.groups = opt.groups_set || opt.fields ? (opt.groups_set ? opt.groups : 0) | need
							  : TASKDIAG_GROUP_ALL & ~TASKDIAG_GROUP_MEM;
		vf.groups = req.groups;
		tda_errors.needs_module = "--verify, which compares the module's dump with /proc,";
		ret = taskdiag_open(&vf.nl, TASKDIAG_BACKEND_NETLINK);
		if (ret) {
			ret = report(ret, NULL, "--verify");
		} else {
			tda_errors.needs_module = NULL;
			ret = taskdiag_open(&vf.pf, TASKDIAG_BACKEND_PROCFS);
			if (ret)
				ret = report(ret, NULL, "procfs backend");
			else
				ret = run_verify(&vf, &req);
			taskdiag_close(vf.nl);
			taskdiag_close(vf.pf);
		}
		opts_free(&opt);
		return finish(ret);
	}

	if (opt.replay) {
		struct taskdiag_request rec;

		fd = open_file(opt.replay, false);
		if (fd < 0)
			return finish(report(fd, NULL, "--replay %s", opt.replay));
		tda_errors.replay = true;
		ret = taskdiag_open_replay(&td, fd);
		if (!ret)
			ret = taskdiag_replay_request(td, &rec);
		if (ret) {
			ret = report(ret == -ENODATA ? -EBADMSG : ret, NULL, "--replay %s", opt.replay);
			goto out;
		}
		req = rec;
		use_recorded_host(td, &o.cx);
		/* Columns for what was recorded, unless asked otherwise. */
		if (!opt.groups_set)
			opt.groups = rec.groups;
	} else {
		enum taskdiag_backend b = opt.dump_raw ? TASKDIAG_BACKEND_NETLINK : opt.backend;

		ret = taskdiag_open(&td, b);
		if (ret) {
			if (opt.dump_raw)
				tda_errors.needs_module =
					"--dump-raw, which records the module's netlink replies,";
			ret = report(ret, NULL, "%s", opt.dump_raw ? "--dump-raw" :
				     b == TASKDIAG_BACKEND_NETLINK ? "netlink backend" :
				     b == TASKDIAG_BACKEND_PROCFS ? "procfs backend" : "opening the backend");
			goto out;
		}
		td_backend_notice(PROG, td, b, opt.quiet_fallback || o.mode == OUT_QUIET);
		if (opt.dump_raw) {
			fd = open_file(opt.dump_raw, true);
			if (fd < 0) {
				ret = report(fd, NULL, "--dump-raw %s", opt.dump_raw);
				goto out;
			}
			ret = taskdiag_set_record(td, fd);
			if (ret) {
				ret = report(ret, NULL, "--dump-raw %s", opt.dump_raw);
				goto out;
			}
		}
	}

	if (o.mode == OUT_OPENMETRICS) {
		req.groups = om_groups();
		ret = run_openmetrics(&o, td, &req, opt.pids, opt.npids, opt.replay, &opt.om);
		goto out;
	}
	if (opt.fields) {
		req.groups = (opt.groups_set ? opt.groups : 0) | need;
	} else {
		req.groups = opt.groups;
		columns_of_groups(&o, opt.groups);
	}
	out_begin(&o);
	ret = run_dump(&o, td, &req, opt.pids, opt.npids, opt.replay);
out:
	taskdiag_close(td);
	if (fd > STDERR_FILENO && close(fd) && opt.dump_raw && !ret)
		ret = report(-errno, NULL, "--dump-raw %s", opt.dump_raw);
	out_free(&o);
	opts_free(&opt);
	return finish(ret);
}
