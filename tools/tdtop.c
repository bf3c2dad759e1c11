// SPDX-License-Identifier: GPL-2.0
/*
 * tdtop: a top on libtaskdiag (the task_diag kernel module, or /proc
 * without it): options and batch mode. Batch mode prints procps top's
 * summary and default task table in top's units and layout (the rows and
 * the layout: tdtop_rows.c); without -b the screen is interactive
 * (tdtop_tui.c). tdtop opens nothing in /proc itself but kernel.pid_max
 * once.
 *
 * Exit status: 0, 1 for an error of libtaskdiag or, without -b, no terminal
 * on standard input (as top: "failed tty get"), 2 for bad usage, 3 when the
 * netlink backend was asked for and the module is not loaded.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "td_backend_opt.h"
#include "tdtext.h"
#include "tdtop.h"

#ifndef TDTOP_VERSION
#define TDTOP_VERSION "unknown"
#endif

#define EXIT_USAGE	2
#define EXIT_NOMODULE	3

static void tdtop_sleep(double seconds)
{
	struct timespec ts;

	if (seconds <= 0)
		return;
	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ------------------------------------------------------------------------
 * Batch mode and options
 */
/* A frame, as top -b prints it: written in one piece from the shared text buffer. */
static int batch(struct tdtop *tt)
{
	char lines[5][512], line[8192];
	struct tdbuf out = { 0 };
	long frame;
	size_t i;
	int k, err = 0;

	for (frame = 0; !tt->iterations || frame < tt->iterations; frame++) {
		tdbuf_clear(&out);
		if (frame) {
			tdtop_sleep(tt->delay);
			tdbuf_addc(&out, '\n');
		}
		err = tdtop_refresh(tt);
		if (err)
			break;
		tdtop_summary(tt, lines);
		for (k = 0; k < 5; k++) {
			tdbuf_puts(&out, lines[k]);
			tdbuf_addc(&out, '\n');
		}
		tdbuf_addc(&out, '\n');
		/* top leaves the last column of its width empty in batch mode */
		tdtop_header(tt, line, sizeof(line), tt->width - 1);
		tdbuf_puts(&out, line);
		tdbuf_addc(&out, '\n');
		for (i = 0; i < tt->nrows; i++) {
			tdtop_row_text(tt, &tt->rows[i], line, sizeof(line), tt->width - 1);
			tdbuf_puts(&out, line);
			tdbuf_addc(&out, '\n');
		}
		if (fwrite(out.p, 1, out.len, stdout) != out.len || fflush(stdout)) {
			err = errno ? -errno : -EIO;
			break;
		}
	}
	tdbuf_free(&out);
	return err;
}

static void usage(FILE *f)
{
	fputs("Usage: tdtop [options]\n"
	      "A top on libtaskdiag: the task_diag module, or /proc without it.\n\n"
	      "  -b                batch mode: print frames, no screen\n"
	      "  -n N              stop after N frames\n"
	      "  -d SECS           delay between frames (default 3.0)\n"
	      "  -u USER           only tasks of this effective user (name or uid)\n"
	      "  -U USER           only tasks with this real, effective, saved or\n"
	      "                    file-system user\n"
	      "  -p PID[,PID...]   only these processes\n"
	      "  -H                threads instead of processes\n"
	      "  -i                hide idle tasks (no CPU used, not running)\n"
	      "  -c                command lines instead of names\n"
	      "  -o FIELD          sort by FIELD (PID, USER, PR, NI, VIRT, RES, SHR, S,\n"
	      "                    %CPU, %MEM, TIME+, COMMAND); a leading + or - sets the\n"
	      "                    direction (+: high to low)\n"
	      "  -w [N]            batch width (default 80; no N: $COLUMNS)\n"
	      "      --backend B   auto (default), netlink or procfs\n"
	      "  -q, --quiet       no notice when auto reads /proc for want of the module\n"
	      "                    (also --quiet-fallback)\n"
	      "  -h, --help        this text;  -V, --version\n\n"
	      "Keys: P M T N sort by %CPU, %MEM, TIME+, PID;  < > move the sort column;\n"
	      "R reverse;  u user;  H threads;  i idle;  c command line;  k kill;\n"
	      "r renice;  d delay;  q quit.\n"
	      "Without -b, standard input must be a terminal (as top's screen).\n"
	      "Exit status: 0 ok, 1 error or no terminal, 2 bad usage, 3 module not loaded\n"
	      "(--backend netlink).\n",
	      f);
}

static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("tdtop: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'tdtop --help'.\n", stderr);
	exit(EXIT_USAGE);
}

static long parse_long(const char *s, const char *what, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max)
		usage_error("bad %s \"%s\"", what, s);
	return v;
}

static void parse_pids(struct tdtop *tt, const char *arg)
{
	char *copy = strdup(arg), *tok, *save = NULL;

	if (!copy)
		exit(1);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		pid_t *p = realloc(tt->pids, (tt->npids + 1) * sizeof(*p));

		if (!p)
			exit(1);
		tt->pids = p;
		tt->pids[tt->npids++] = (pid_t)parse_long(tok, "pid", 1, INT32_MAX);
	}
	free(copy);
	if (!tt->npids)
		usage_error("-p needs a pid");
}

static int parse_col(const char *name)
{
	int c;

	for (c = 0; c < TDTOP_COL__COUNT; c++)
		if (!strcasecmp(name, tdtop_col_name((enum tdtop_col)c)))
			return c;
	return -1;
}

static int pid_digits(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	unsigned long max = 32768;
	int d = 0;

	if (f) {
		if (fscanf(f, "%lu", &max) != 1)
			max = 32768;
		fclose(f);
	}
	for (max = max > 0 ? max - 1 : 0; max; max /= 10)
		d++;
	return d > 5 ? d : 5;
}

static void parse_options(struct tdtop *tt, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "backend", required_argument, NULL, 'B' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "quiet-fallback", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c, col;

	while ((c = getopt_long(argc, argv, "bn:d:u:U:p:Hico:w::qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			tt->batch = true;
			break;
		case 'n':
			tt->iterations = parse_long(optarg, "number of frames", 1, LONG_MAX);
			break;
		case 'd':
			errno = 0;
			tt->delay = strtod(optarg, &end);
			if (!*optarg || *end || errno || !(tt->delay >= 0) || tt->delay > 86400)
				usage_error("bad delay \"%s\"", optarg);
			break;
		case 'u':
		case 'U':
			if (tdtop_user_lookup(optarg, &tt->user))
				usage_error("invalid user \"%s\"", optarg);
			tt->has_user = true;
			tt->any_user = c == 'U';
			break;
		case 'p':
			parse_pids(tt, optarg);
			break;
		case 'H':
			tt->threads = true;
			break;
		case 'i':
			tt->hide_idle = true;
			break;
		case 'c':
			tt->cmdline = true;
			break;
		case 'o':
			tt->reverse = optarg[0] == '-';
			col = parse_col(optarg + (optarg[0] == '+' || optarg[0] == '-'));
			if (col < 0)
				usage_error("unknown sort field \"%s\"", optarg);
			tt->sort = (enum tdtop_col)col;
			break;
		case 'w': {
			const char *w = optarg ? optarg : getenv("COLUMNS");

			if (!optarg && optind < argc && argv[optind][0] >= '0' && argv[optind][0] <= '9')
				w = argv[optind++];
			tt->width = w ? (int)parse_long(w, "width", 20, 512) : 80;
			break;
		}
		case 'B':
			if (!td_backend_parse(optarg, &tt->backend))
				usage_error("unknown backend \"%s\" (auto, netlink or procfs)", optarg);
			break;
		case 'q':
			tt->quiet = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("tdtop %s (libtaskdiag)\n", TDTOP_VERSION);
			exit(0);
		default:
			usage_error("bad option");
		}
	}
	if (optind < argc)
		usage_error("unexpected argument \"%s\"", argv[optind]);
}

int main(int argc, char **argv)
{
	struct tdtop tt = { .delay = 3.0, .sort = TDTOP_COL_CPU, .width = 80 };
	struct termios tio;
	int err;

	setlocale(LC_ALL, "");
	td_prog = "tdtop";
	parse_options(&tt, argc, argv);
	/* as top: the screen reads its keys from a terminal on standard input */
	if (!tt.batch && tcgetattr(STDIN_FILENO, &tio)) {
		fputs("tdtop: failed tty get\n", stderr);
		return 1;
	}
	tt.pid_width = pid_digits();
	tt.ncpu = sysconf(_SC_NPROCESSORS_ONLN) > 0 ? (unsigned int)sysconf(_SC_NPROCESSORS_ONLN) : 1;
	err = taskdiag_open(&tt.td, tt.backend);
	if (err) {
		fprintf(stderr, "tdtop: %s\n", taskdiag_strerror(err));
		if (err == -TASKDIAG_ENOMODULE) {
			fputs("tdtop: " TD_MODULE_HINT ", or use --backend procfs\n", stderr);
			return EXIT_NOMODULE;
		}
		return 1;
	}
	td_backend_notice("tdtop", tt.td, tt.backend, tt.quiet);
	if (taskdiag_sample_new(&tt.s[0]) || taskdiag_sample_new(&tt.s[1]) ||
	    taskdiag_diff_new(&tt.diff)) {
		fputs("tdtop: out of memory\n", stderr);
		return 1;
	}
	/* prime the older sample, as top does, so the first frame has an interval */
	err = tdtop_refresh(&tt);
	if (!err) {
		tdtop_sleep(0.1);
		err = tt.batch ? batch(&tt) : tdtop_tui(&tt);
	}
	if (err > 0)
		return err;	/* the screen's own exit status */
	if (err) {
		fprintf(stderr, "tdtop: %s\n", taskdiag_strerror(err));
		return 1;
	}
	taskdiag_diff_free(tt.diff);
	taskdiag_sample_free(tt.s[0]);
	taskdiag_sample_free(tt.s[1]);
	taskdiag_close(tt.td);
	free(tt.rows);
	free(tt.pids);
	td_id_cache_free();
	return 0;
}
