// SPDX-License-Identifier: GPL-2.0
/*
 * tdps: the command line, read as procps's ps reads it: UNIX options
 * (-ef, grouped, after one dash), BSD options (aux, grouped, no dash),
 * GNU long options (--sort=-pid, --ppid 1), and bare pid lists. Then the
 * columns: a -o/-O list, or the preset formats (-f, -F, -l, -j, -y, u, v,
 * j, l, s) with the columns -L and -T add.
 *
 * What each option does, and its error message, was learnt by running ps
 * 4.0.2 and reading ps(1); the order of the preset columns is the one ps
 * prints. tests/vm/test_tdps.py compares both tools line by line.
 */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "td_backend_opt.h"
#include "tdps.h"

#ifndef TDPS_VERSION
#define TDPS_VERSION "unknown"
#endif

void tdps_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n\nUsage:\n tdps [options]\n\n Try 'tdps --help' for more information.\n",
	      stderr);
	exit(1);
}

static void usage(void)
{
	fputs("Usage:\n"
	      " tdps [options]\n"
	      "\n"
	      "A ps from the task_diag module or /proc; it takes ps's UNIX (-ef),\n"
	      "BSD (aux) and GNU (--sort) options.\n"
	      "\n"
	      "Selection (several add up; default: the processes of your terminal\n"
	      "and effective user):\n"
	      " -e, -A            all processes          a, x     BSD: with a tty, yours\n"
	      " -a                with a tty, no leaders -d       no session leaders\n"
	      " -N, --deselect    the others             r        running only\n"
	      " -p, p, --pid      process ids            -q, q    these, in this order\n"
	      " --ppid            parent ids             -s, --sid  session ids\n"
	      " -C                command names          -t, t, --tty  terminals; T this one\n"
	      " -u, U, --user     effective users        -U, --User  real users\n"
	      " -g, --group       sessions or effective groups; -G, --Group real groups\n"
	      "\n"
	      "Output:\n"
	      " -o, o, --format   columns: SPEC[:WIDTH][=HEADER], comma or blank separated\n"
	      " -O, O             pid, these, and the default columns\n"
	      " -f -F -l -j -y -c -M, Z  UNIX formats;  u v j l s  BSD formats\n"
	      " -L, -T, H         threads (with LWP, with SPID, as processes)\n"
	      " --sort, k         [+|-]SPEC,...\n"
	      " --forest, f, -H   process trees\n"
	      " -h, h, --no-headers  no header line;  c  command names for args\n"
	      " e                 the environment after the command\n"
	      " S, --cumulative   dead children's CPU time and faults added\n"
	      " -w, w             wider (twice: unlimited); --cols, --width N\n"
	      "\n"
	      "Other:\n"
	      "     --backend B   auto (default), netlink or procfs\n"
	      "     --quiet-fallback  no notice when auto reads /proc for want of the module\n"
	      "     --help        this text\n"
	      " -V, V, --version  the version\n"
	      "\n"
	      "Format specifiers:\n", stdout);
	psf_spec_list(stdout);
	fputs("\n"
	      "Exit status: 0 some task listed, 1 none or bad usage, 3 task_diag module\n"
	      "not loaded (--backend netlink), 4 other error.\n", stdout);
}

static void version(void)
{
	printf("tdps (task_diag) %s\n", TDPS_VERSION);
	exit(0);
}

/* ------------------------------------------------------------------------
 * Lists
 */

void tdps_ids_add(struct tdps_ids *l, uint32_t id)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		uint32_t *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			td_nomem();
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = id;
}

bool tdps_ids_has(const struct tdps_ids *l, uint32_t id)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i] == id)
			return true;
	return false;
}

/* Calls @one for each item of a list separated by commas or blanks. */
static void split_list(char *s, const char *improper, void (*one)(char *item, void *arg),
		       void *arg)
{
	char *p = s, *end;

	for (;;) {
		end = p + strcspn(p, ", \t");
		if (end == p)
			tdps_usage_error("%s", improper);
		if (!*end) {
			one(p, arg);
			return;
		}
		*end = '\0';
		one(p, arg);
		p = end + 1;
	}
}

static void one_pid(char *s, void *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (*end)
		tdps_usage_error("process ID list syntax error");
	if (errno || v <= 0 || v > INT_MAX)
		tdps_usage_error("process ID out of range");
	tdps_ids_add(arg, (uint32_t)v);
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

static uint32_t numeric_id(const char *s, const char *what)
{
	long long v;

	errno = 0;
	v = strtoll(s, NULL, 10);
	if (errno || v < 0 || v >= (long long)UINT32_MAX)
		tdps_usage_error("%s ID out of range", what);
	return (uint32_t)v;
}

/* A user or group, by name or number. */
static void one_id(char *s, struct tdps_ids *l, bool group)
{
	const char *what = group ? "group" : "user";
	struct passwd *pw = NULL;
	struct group *gr = NULL;

	if (all_digits(s)) {
		tdps_ids_add(l, numeric_id(s, what));
		return;
	}
	if (group)
		gr = getgrnam(s);
	else
		pw = getpwnam(s);
	if (!gr && !pw)
		tdps_usage_error("%s name does not exist", what);
	tdps_ids_add(l, gr ? gr->gr_gid : pw->pw_uid);
}

static void one_user(char *s, void *arg)
{
	one_id(s, arg, false);
}

static void one_group(char *s, void *arg)
{
	one_id(s, arg, true);
}

/* A terminal as ps takes it: "-" (none), /dev/NAME, NAME or ttyNAME. */
static void one_tty(char *s, void *arg)
{
	static const char *const prefixes[] = { "", "/dev/", "/dev/tty" };
	char path[PATH_MAX];
	struct stat st;
	size_t i;

	if (!strcmp(s, "-") || !strcmp(s, "?")) {
		tdps_ids_add(arg, 0);
		return;
	}
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		if (i == 0 && s[0] != '/')
			continue;
		snprintf(path, sizeof(path), "%s%s", prefixes[i], s);
		if (!stat(path, &st) && S_ISCHR(st.st_mode)) {
			unsigned int maj = major(st.st_rdev), min = minor(st.st_rdev);

			tdps_ids_add(arg, (min & 0xff) | (maj << 8) | ((min & ~0xffu) << 12));
			return;
		}
	}
	tdps_usage_error("TTY could not be found");
}

static void one_comm(char *s, void *arg)
{
	struct tdps_opts *o = arg;
	char **v = realloc(o->comms, (o->ncomms + 1) * sizeof(*v));

	if (!v)
		td_nomem();
	o->comms = v;
	v[o->ncomms++] = s;
}

/* -g: sessions when the list is all numbers, else effective groups */
static void group_or_session(struct tdps_opts *o, char *list)
{
	char *copy = strdup(list), *p;
	bool numeric = true;

	if (!copy)
		td_nomem();
	for (p = strtok(copy, ", \t"); p; p = strtok(NULL, ", \t"))
		numeric = numeric && all_digits(p);
	free(copy);
	if (numeric)
		split_list(list, "process ID list syntax error", one_pid, &o->sel[TDPS_SEL_SID]);
	else
		split_list(list, "improper list", one_group, &o->sel[TDPS_SEL_EGID]);
}

/* ------------------------------------------------------------------------
 * Format and sort lists
 *
 * They are kept as given, NUL-separated in one buffer that lives as long
 * as the columns (their headers point into it), and read once all options
 * are known. A leading byte says what each one is.
 */

enum { TXT_O = 'o', TXT_UPPER_O = 'O', TXT_SORT = 's' };

static void keep_text(struct tdps_opts *o, char kind, const char *arg)
{
	size_t n = strlen(arg);
	char *p = realloc(o->text, o->text_len + n + 2);

	if (!p)
		td_nomem();
	p[o->text_len] = kind;
	memcpy(p + o->text_len + 1, arg, n + 1);
	o->text = p;
	o->text_len += n + 2;
}

static void add_column(struct tdps_opts *o, const struct psf_spec *sp, const char *header,
		       size_t width)
{
	struct tdps_column *c = realloc(o->col, (o->ncols + 1) * sizeof(*c));

	if (!c)
		td_nomem();
	o->col = c;
	c[o->ncols++] = (struct tdps_column){ .sp = sp, .header = header, .width = width };
}

/*
 * A pid column is as wide as the largest pid (pid_max - 1) or its header,
 * whichever is wider, as ps's; 5 when pid_max cannot be read.
 */
static size_t default_width(const struct tdps_opts *o, const struct psf_spec *sp)
{
	size_t h = strlen(sp->header);

	if (!sp->pid)
		return sp->width;
	return o->pid_width > h ? o->pid_width : h;
}

/* One item of -o: NAME[:WIDTH][=HEADER]. */
static void one_spec(char *s, void *arg)
{
	struct tdps_opts *o = arg;
	char *hdr = strchr(s, '='), *colon, *end;
	const struct psf_spec *sp;
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
			tdps_usage_error("column widths must be unsigned decimal numbers");
		width = w;
	}
	sp = psf_spec_find(s);
	if (!sp)
		tdps_usage_error("unknown user-defined format specifier \"%s\"", s);
	if (!width) {
		width = default_width(o, sp);
		if (hdr && strlen(hdr) > width)
			width = strlen(hdr);
	}
	add_column(o, sp, hdr ? hdr : sp->header, width);
}

/* A list of names this file gives (the presets). */
static void add_names(struct tdps_opts *o, const char *list)
{
	char name[32];
	const char *p = list;
	size_t n;

	while (*p) {
		n = strcspn(p, ",");
		memcpy(name, p, n);
		name[n] = '\0';
		one_spec(name, o);
		p += n + (p[n] == ',');
	}
}

static void parse_o_list(struct tdps_opts *o, char *s)
{
	size_t n = strlen(s);

	/* a separator at the end is allowed, one alone is not */
	if (n > 1 && (s[n - 1] == ',' || s[n - 1] == ' '))
		s[n - 1] = '\0';
	if (strspn(s, ", \t") == strlen(s))
		tdps_usage_error("improper format list");
	split_list(s, "improper format list", one_spec, o);
}

static void one_sortkey(char *s, void *arg)
{
	struct tdps_opts *o = arg;
	struct tdps_sortkey *k;
	int dir = 1;

	if (*s == '+' || *s == '-')
		dir = *s++ == '-' ? -1 : 1;
	k = realloc(o->sort, (o->nsort + 1) * sizeof(*k));
	if (!k)
		td_nomem();
	o->sort = k;
	k[o->nsort].sp = psf_spec_find(s);
	k[o->nsort].dir = dir;
	if (!k[o->nsort].sp)
		tdps_usage_error("unknown sort specifier");
	o->nsort++;
}

/* Where ps puts a column it adds to a preset: after the first of @after. */
static void insert_after(struct tdps_opts *o, const char *const *after, const char *name)
{
	const struct psf_spec *sp = psf_spec_find(name);
	size_t i, w = default_width(o, sp);

	for (; *after; after++)
		for (i = 0; i < o->ncols; i++)
			if (!strcmp(o->col[i].header, *after))
				goto found;
	return;	/* none of them: ps leaves it out */
found:
	add_column(o, sp, sp->header, w);
	memmove(&o->col[i + 2], &o->col[i + 1], (o->ncols - 2 - i) * sizeof(*o->col));
	o->col[i + 1] = (struct tdps_column){ .sp = sp, .header = sp->header, .width = w };
}

static void delete_header(struct tdps_opts *o, const char *header)
{
	size_t i;

	for (i = 0; i < o->ncols; i++)
		if (!strcmp(o->col[i].header, header)) {
			memmove(&o->col[i], &o->col[i + 1], (o->ncols - i - 1) * sizeof(*o->col));
			o->ncols--;
			return;
		}
}

/* The UNIX presets and the default format, in the order ps prints them. */
static void sysv_format(struct tdps_opts *o)
{
	unsigned int ff = o->format_flags, fm = o->format_mods, tf = o->thread_flags;
	bool f = ff & TDPS_FF_Uf, l = ff & TDPS_FF_Ul, y = fm & TDPS_FM_y;

	if (y && !l)
		tdps_usage_error("modifier -y without format -l makes no sense");
	if (fm & TDPS_FM_M)
		add_names(o, "label");
	if (l)
		add_names(o, y ? "s" : "f,s");
	if (f)
		add_names(o, "uid_hack");
	else if (l)
		add_names(o, "uid");
	add_names(o, "pid");
	if (tf & TDPS_TF_T)
		add_names(o, "spid");
	if (f || l)
		add_names(o, "ppid");
	if (fm & TDPS_FM_j)
		add_names(o, "pgid,sid");
	if (tf & TDPS_TF_L)
		add_names(o, "lwp");
	if ((f || l) && !(fm & TDPS_FM_c))
		add_names(o, "c");
	if ((tf & TDPS_TF_L) && f)
		add_names(o, "nlwp");
	if (fm & TDPS_FM_c)
		add_names(o, "class,pri");
	else if (l)
		add_names(o, "opri,ni");
	if (l)
		add_names(o, y ? "rss" : "addr_1");
	if ((fm & TDPS_FM_F) || l)
		add_names(o, "sz");
	if (l)
		add_names(o, "wchan");
	if ((fm & TDPS_FM_F) && !(l && y))
		add_names(o, "rss");
	if (fm & TDPS_FM_F)
		add_names(o, "psr");
	if (f)
		add_names(o, "stime");
	add_names(o, "tname");
	if (o->bsd) {
		if (!l)
			add_names(o, "stat");
		add_names(o, ff ? "bsdtime,cmd" : "bsdtime,args");
	} else {
		add_names(o, f ? "time,cmd" : "time,ucmd");
	}
}

static void bsd_format(struct tdps_opts *o, const char *list)
{
	static const char *const lwp_after[] = { "SID", "SESS", "PGID", "PGRP", "PPID", "PID",
						 NULL };
	static const char *const pgid_after[] = { "PPID", "PID", NULL };
	static const char *const sid_after[] = { "PGID", NULL };
	static const char *const spid_after[] = { "PID", NULL };
	static const char *const nlwp_after[] = { "%CPU", NULL };
	unsigned int fm = o->format_mods;

	add_names(o, list);
	if (fm & TDPS_FM_j) {
		insert_after(o, pgid_after, "pgid");
		insert_after(o, sid_after, "sid");
	}
	if (fm & TDPS_FM_y) {
		static const char *const rss_after[] = { "ADDR", NULL };

		delete_header(o, "F");
		insert_after(o, rss_after, "rss");
	}
	if (o->thread_flags & TDPS_TF_T)
		insert_after(o, spid_after, "spid");
	if (o->thread_flags & TDPS_TF_L) {
		insert_after(o, lwp_after, "lwp");
		insert_after(o, nlwp_after, "nlwp");
	}
	if (fm & TDPS_FM_M) {
		const struct psf_spec *sp = psf_spec_find("label");

		add_column(o, sp, sp->header, sp->width);
		memmove(&o->col[1], &o->col[0], (o->ncols - 1) * sizeof(*o->col));
		o->col[0] = (struct tdps_column){ .sp = sp, .header = sp->header,
						  .width = sp->width };
	}
}

static void build_columns(struct tdps_opts *o)
{
	bool user_list = false, upper_o = false;
	size_t off, n;

	for (off = 0; off < o->text_len; off += n + 2) {
		char kind = o->text[off], *s = o->text + off + 1;

		n = strlen(s);
		if (kind == TXT_SORT) {
			/* a copy: the sort keys keep no text */
			char *copy = strdup(s);

			if (!copy)
				td_nomem();
			if (strspn(s, ", \t") == n || strstr(s, ",,") || s[n - 1] == ',')
				tdps_usage_error("improper sort list");
			split_list(copy, "improper sort list", one_sortkey, o);
			free(copy);
		} else if (kind == TXT_O) {
			user_list = true;
		} else {
			upper_o = true;
		}
	}
	if (user_list || upper_o) {
		if (o->format_flags)
			tdps_usage_error("conflicting format options");
		if (o->format_mods)
			tdps_usage_error("can't use output modifiers with user-defined output");
	}
	if (upper_o)
		add_names(o, "pid");
	for (off = 0; off < o->text_len; off += n + 2) {
		char kind = o->text[off], *s = o->text + off + 1;

		n = strlen(s);
		if (kind != TXT_SORT)
			parse_o_list(o, s);
	}
	if (upper_o)
		add_names(o, "s,tname,time,args");
	if (user_list || upper_o)
		return;
	switch (o->format_flags) {
	case 0:
	case TDPS_FF_Uf:
	case TDPS_FF_Ul:
	case TDPS_FF_Uf | TDPS_FF_Ul:
		sysv_format(o);
		break;
	case TDPS_FF_Bj:
		bsd_format(o, "ppid,pid,pgid,sid,tname,tpgid,stat,uid,bsdtime,args");
		break;
	case TDPS_FF_Bl:
		bsd_format(o, "flags,uid,pid,ppid,priority,nice,vsz,rss,wchan,stat,tname,bsdtime,"
			      "args");
		break;
	case TDPS_FF_Bs:
		bsd_format(o, "uid,pid,pending,sig_block,sig_ignore,caught,stat,tname,bsdtime,args");
		break;
	case TDPS_FF_Bu:
		bsd_format(o, "user,pid,pcpu,pmem,vsz,rss,tname,stat,start_time,bsdtime,args");
		break;
	case TDPS_FF_Bv:
		bsd_format(o, "pid,tname,stat,bsdtime,maj_flt,m_trs,m_drs,rss,pmem,args");
		break;
	default:
		tdps_usage_error("conflicting format options");
	}
}

/* ------------------------------------------------------------------------
 * The three syntaxes
 */

struct argv_walk {
	int argc, i;
	char **argv;
};

/* The argument of an option: the rest of this word, or the next word. */
static char *opt_arg(struct argv_walk *w, char *rest)
{
	if (*rest)
		return rest;
	if (w->i + 1 < w->argc)
		return w->argv[++w->i];
	return NULL;
}

static void need(const char *arg, const char *msg)
{
	if (!arg || !*arg)
		tdps_usage_error("%s", msg);
}

static void pid_list(struct tdps_opts *o, enum tdps_sel sel, char *arg, const char *msg)
{
	need(arg, msg);
	split_list(arg, "process ID list syntax error", one_pid, &o->sel[sel]);
}

static void quick_list(struct tdps_opts *o, char *arg, const char *msg)
{
	need(arg, msg);
	o->quick = true;
	split_list(arg, "process ID list syntax error", one_pid, &o->sel[TDPS_SEL_PID]);
}

static void user_list(struct tdps_opts *o, enum tdps_sel sel, char *arg, const char *msg)
{
	need(arg, msg);
	split_list(arg, "improper list", one_user, &o->sel[sel]);
}

static void group_list(struct tdps_opts *o, enum tdps_sel sel, char *arg, const char *msg)
{
	need(arg, msg);
	split_list(arg, "improper list", one_group, &o->sel[sel]);
}

static void tty_list(struct tdps_opts *o, char *arg)
{
	split_list(arg, "improper list", one_tty, &o->sel[TDPS_SEL_TTY]);
}

static void format_list(struct tdps_opts *o, char kind, char *arg, const char *msg)
{
	need(arg, msg);
	keep_text(o, kind, arg);
}

static enum taskdiag_backend parse_backend(const char *s)
{
	enum taskdiag_backend b;

	if (!s)
		tdps_usage_error("option --backend needs auto, netlink or procfs");
	if (td_backend_parse(s, &b))
		return b;
	tdps_usage_error("unknown backend \"%s\" (auto, netlink or procfs)", s);
}

static void unsupported_bsd(void) __attribute__((noreturn));
static void unsupported_bsd(void)
{
	tdps_usage_error("unsupported option (BSD syntax)");
}

/* One BSD letter; returns true when it took the rest of the word. */
static bool bsd_letter(struct tdps_opts *o, struct argv_walk *w, char c, char *rest)
{
	char *arg;

	switch (c) {
	case 'a':
		o->simple |= TDPS_SS_B_a;
		break;
	case 'x':
		o->simple |= TDPS_SS_B_x;
		break;
	case 'g':
		break;
	case 'c':
		o->bsd_c = true;
		break;
	case 'e':
		o->bsd_e = true;
		break;
	case 'S':
		o->cumulative = true;
		break;
	case 'f':
		o->tree = TDPS_TREE_ASCII;
		break;
	case 'h':
		o->no_header = true;
		break;
	case 'H':
		o->thread_flags |= TDPS_TF_H;
		break;
	case 'j':
		o->format_flags |= TDPS_FF_Bj;
		break;
	case 'l':
		o->format_flags |= TDPS_FF_Bl;
		break;
	case 's':
		o->format_flags |= TDPS_FF_Bs;
		break;
	case 'u':
		o->format_flags |= TDPS_FF_Bu;
		break;
	case 'v':
		o->format_flags |= TDPS_FF_Bv;
		break;
	case 'M':
	case 'Z':
		o->format_mods |= TDPS_FM_M;
		break;
	case 'r':
		o->running_only = true;
		break;
	case 'T':
		o->own_tty = true;
		break;
	case 'w':
		o->wide++;
		break;
	case 'L':
		psf_spec_list(stdout);
		exit(0);
	case 'V':
		version();
		break;
	case 'k':
		arg = opt_arg(w, rest);
		format_list(o, TXT_SORT, arg, "long sort specification must follow 'k'");
		return true;
	case 'o':
		format_list(o, TXT_O, opt_arg(w, rest), "format specification must follow o");
		return true;
	case 'O':
		format_list(o, TXT_UPPER_O, opt_arg(w, rest),
			    "format or sort specification must follow O");
		return true;
	case 'p':
		pid_list(o, TDPS_SEL_PID, opt_arg(w, rest), "list of process IDs must follow p");
		return true;
	case 'q':
		quick_list(o, opt_arg(w, rest), "list of process IDs must follow q");
		return true;
	case 'U':
		user_list(o, TDPS_SEL_EUID, opt_arg(w, rest), "list of users must follow U");
		return true;
	case 't':
		arg = opt_arg(w, rest);
		if (arg && *arg)
			tty_list(o, arg);
		else
			o->own_tty = true;
		return true;
	default:
		unsupported_bsd();
	}
	return false;
}

static void parse_bsd(struct tdps_opts *o, struct argv_walk *w, char *s)
{
	o->bsd = true;
	for (; *s; s++)
		if (bsd_letter(o, w, *s, s + 1))
			return;
}

/* A UNIX option whose list is missing is read as the BSD letter (ps -u). */
static bool unix_as_bsd(struct tdps_opts *o, struct argv_walk *w, char c, char *arg)
{
	if (arg)
		return false;
	o->bsd = true;
	bsd_letter(o, w, c, "");
	return true;
}

/* One UNIX letter; returns true when it took the rest of the word. */
static bool unix_letter(struct tdps_opts *o, struct argv_walk *w, char c, char *rest)
{
	char *arg;

	switch (c) {
	case 'A':
	case 'e':
		o->all = true;
		break;
	case 'a':
		o->simple |= TDPS_SS_U_a;
		break;
	case 'd':
		o->simple |= TDPS_SS_U_d;
		break;
	case 'N':
		o->negate = true;
		break;
	case 'c':
		o->format_mods |= TDPS_FM_c;
		break;
	case 'F':
		o->format_flags |= TDPS_FF_Uf;
		o->format_mods |= TDPS_FM_F;
		break;
	case 'f':
		o->format_flags |= TDPS_FF_Uf;
		break;
	case 'l':
		o->format_flags |= TDPS_FF_Ul;
		break;
	case 'j':
		o->format_mods |= TDPS_FM_j;
		break;
	case 'y':
		o->format_mods |= TDPS_FM_y;
		break;
	case 'M':
	case 'Z':
		o->format_mods |= TDPS_FM_M;
		break;
	case 'H':
		o->tree = TDPS_TREE_SPACES;
		break;
	case 'L':
		o->thread_flags |= TDPS_TF_L;
		break;
	case 'T':
		o->thread_flags |= TDPS_TF_T;
		break;
	case 'h':
		o->bsd = true;	/* as ps: also the BSD selection */
		o->no_header = true;
		break;
	case 'w':
		o->wide++;
		break;
	case 'V':
		version();
		break;
	case 'C':
		arg = opt_arg(w, rest);
		need(arg, "list of command names must follow -C");
		split_list(arg, "improper list", one_comm, o);
		return true;
	case 'G':
		group_list(o, TDPS_SEL_RGID, opt_arg(w, rest),
			   "list of real groups must follow -G");
		return true;
	case 'g':
		arg = opt_arg(w, rest);
		if (!unix_as_bsd(o, w, c, arg))
			group_or_session(o, arg);
		return true;
	case 'o':
		format_list(o, TXT_O, opt_arg(w, rest), "format specification must follow -o");
		return true;
	case 'O':
		format_list(o, TXT_UPPER_O, opt_arg(w, rest),
			    "format or sort specification must follow -O");
		return true;
	case 'p':
		pid_list(o, TDPS_SEL_PID, opt_arg(w, rest), "list of process IDs must follow -p");
		return true;
	case 'q':
		quick_list(o, opt_arg(w, rest), "List of process IDs must follow -q.");
		return true;
	case 's':
		arg = opt_arg(w, rest);
		if (!unix_as_bsd(o, w, c, arg))
			pid_list(o, TDPS_SEL_SID, arg, "list of session IDs must follow -s");
		return true;
	case 't':
		arg = opt_arg(w, rest);
		if (!unix_as_bsd(o, w, c, arg))
			tty_list(o, arg);
		return true;
	case 'u':
		arg = opt_arg(w, rest);
		if (!unix_as_bsd(o, w, c, arg))
			user_list(o, TDPS_SEL_EUID, arg, "list of users must follow -u");
		return true;
	case 'U':
		user_list(o, TDPS_SEL_RUID, opt_arg(w, rest), "list of real users must follow -U");
		return true;
	default:
		tdps_usage_error("unsupported SysV option");
	}
	return false;
}

static void parse_unix(struct tdps_opts *o, struct argv_walk *w, char *s)
{
	if (!*s)
		tdps_usage_error("unsupported SysV option");
	/* as ps: a group with an x (ps -aux, -axjf) is BSD after a stray dash */
	if (strchr(s, 'x')) {
		parse_bsd(o, w, s);
		return;
	}
	for (; *s; s++)
		if (unix_letter(o, w, *s, s + 1))
			return;
}

static size_t parse_cols(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		tdps_usage_error("number of columns must follow --cols, --width, or --columns");
	errno = 0;
	v = strtol(s, &end, 0);
	if (*end || errno || v <= 0 || v > 131072)
		tdps_usage_error("number of columns must follow --cols, --width, or --columns");
	return (size_t)v;
}

enum long_id {
	L_SORT, L_PPID, L_PID, L_QUICK, L_USER, L_RUSER, L_GROUP, L_RGROUP, L_SID, L_TTY,
	L_COLS, L_LINES, L_NOHDR, L_FOREST, L_FORMAT, L_DESELECT, L_HELP, L_VERSION, L_BACKEND,
	L_QUIET_FALLBACK, L_CUMULATIVE,
};

struct long_opt {
	const char *name;
	enum long_id id;
	bool arg;
};

static const struct long_opt long_opts[] = {
	{ "sort", L_SORT, true }, { "ppid", L_PPID, true }, { "pid", L_PID, true },
	{ "quick-pid", L_QUICK, true }, { "user", L_USER, true }, { "User", L_RUSER, true },
	{ "group", L_GROUP, true }, { "Group", L_RGROUP, true }, { "sid", L_SID, true },
	{ "tty", L_TTY, true }, { "cols", L_COLS, true }, { "columns", L_COLS, true },
	{ "width", L_COLS, true }, { "lines", L_LINES, true }, { "rows", L_LINES, true },
	{ "no-headers", L_NOHDR, false }, { "no-heading", L_NOHDR, false },
	{ "forest", L_FOREST, false }, { "format", L_FORMAT, true },
	{ "deselect", L_DESELECT, false }, { "help", L_HELP, false },
	{ "version", L_VERSION, false }, { "backend", L_BACKEND, true },
	{ "quiet-fallback", L_QUIET_FALLBACK, false }, { "cumulative", L_CUMULATIVE, false },
};

static void parse_long(struct tdps_opts *o, struct argv_walk *w, char *s)
{
	char *eq = strchr(s, '='), *arg = NULL;
	const struct long_opt *lo = NULL;
	size_t i, n = eq ? (size_t)(eq - s) : strlen(s);

	for (i = 0; i < sizeof(long_opts) / sizeof(long_opts[0]); i++)
		if (strlen(long_opts[i].name) == n && !strncmp(long_opts[i].name, s, n))
			lo = &long_opts[i];
	if (!lo)
		tdps_usage_error("unknown gnu long option");
	if (lo->arg)
		arg = eq ? eq + 1 : w->i + 1 < w->argc ? w->argv[++w->i] : NULL;
	switch (lo->id) {
	case L_SORT:
		format_list(o, TXT_SORT, arg, "long sort specification must follow --sort");
		break;
	case L_PPID:
		pid_list(o, TDPS_SEL_PPID, arg, "list of process IDs must follow --ppid");
		break;
	case L_PID:
		pid_list(o, TDPS_SEL_PID, arg, "list of process IDs must follow --pid");
		break;
	case L_QUICK:
		quick_list(o, arg, "list of process IDs must follow --quick-pid");
		break;
	case L_USER:
		user_list(o, TDPS_SEL_EUID, arg, "list of users must follow --user");
		break;
	case L_RUSER:
		user_list(o, TDPS_SEL_RUID, arg, "list of real users must follow --User");
		break;
	case L_GROUP:
		group_list(o, TDPS_SEL_EGID, arg, "list of effective groups must follow --group");
		break;
	case L_RGROUP:
		group_list(o, TDPS_SEL_RGID, arg, "list of real groups must follow --Group");
		break;
	case L_SID:
		pid_list(o, TDPS_SEL_SID, arg, "list of session IDs must follow --sid");
		break;
	case L_TTY:
		need(arg, "list of ttys must follow --tty");
		tty_list(o, arg);
		break;
	case L_COLS:
		o->cols = parse_cols(arg);
		break;
	case L_LINES:
		need(arg, "number of rows must follow --rows or --lines");
		break;
	case L_NOHDR:
		o->no_header = true;
		break;
	case L_FOREST:
		o->tree = TDPS_TREE_ASCII;
		break;
	case L_CUMULATIVE:
		o->cumulative = true;
		break;
	case L_FORMAT:
		format_list(o, TXT_O, arg, "format specification must follow --format");
		break;
	case L_DESELECT:
		o->negate = true;
		break;
	case L_HELP:
		usage();
		exit(0);
	case L_VERSION:
		version();
		break;
	case L_BACKEND:
		o->backend = parse_backend(arg);
		break;
	case L_QUIET_FALLBACK:
		o->quiet_fallback = true;
		break;
	}
}

/* ps makes pid columns as wide as the largest pid can be. */
static size_t pid_digits(void)
{
	uint64_t max = psf_file_value("/proc/sys/kernel/pid_max", "");
	size_t n = 1;

	if (!max)
		return 5;
	for (max--; max >= 10; max /= 10)
		n++;
	return n;
}

static bool any_list(const struct tdps_opts *o)
{
	size_t i;

	for (i = 0; i < TDPS_SEL__COUNT; i++)
		if (o->sel[i].n)
			return true;
	return o->ncomms || o->own_tty;
}

void tdps_parse_args(int argc, char **argv, struct tdps_opts *o)
{
	struct argv_walk w = { .argc = argc, .argv = argv };

	for (w.i = 1; w.i < argc; w.i++) {
		char *a = argv[w.i];

		if (a[0] == '-' && a[1] == '-')
			parse_long(o, &w, a + 2);
		else if (a[0] == '-')
			parse_unix(o, &w, a + 1);
		else if (a[0] >= '0' && a[0] <= '9') {
			o->bsd = true;
			one_pid(a, &o->sel[TDPS_SEL_PID]);
		} else
			parse_bsd(o, &w, a);
	}
	if ((o->thread_flags & TDPS_TF_L) && (o->thread_flags & TDPS_TF_T))
		tdps_usage_error("thread flags conflict; can't use both -L and -T");
	if (o->thread_flags && o->tree)
		tdps_usage_error("thread display conflicts with forest display");
	if (o->quick) {
		struct tdps_ids pids = o->sel[TDPS_SEL_PID];

		o->sel[TDPS_SEL_PID].n = 0;
		if (o->all || o->simple || any_list(o) || o->negate || o->running_only) {
			fputs("q/-q/--quick-pid cannot be combined with other selection options.\n",
			      stderr);
			exit(1);
		}
		o->sel[TDPS_SEL_PID] = pids;
	}
	o->pid_width = pid_digits();
	build_columns(o);
	if (o->quick && (o->nsort || o->tree)) {
		fputs("q/-q/--quick-pid cannot be combined with sorting or forest options.\n",
		      stderr);
		exit(1);
	}
}

void tdps_free_opts(struct tdps_opts *o)
{
	size_t i;

	for (i = 0; i < TDPS_SEL__COUNT; i++)
		free(o->sel[i].v);
	free(o->comms);
	free(o->col);
	free(o->sort);
	free(o->text);
}
