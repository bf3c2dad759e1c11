// SPDX-License-Identifier: GPL-2.0
/*
 * tdtop's interactive screen (ncurses): the summary, a message and prompt
 * line, the column header in reverse video and as many rows as fit; the
 * keys are top's (P M T N < > R u H i c k r d q), and a resize redraws.
 */
#include <ctype.h>
#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <termios.h>
#include <unistd.h>

#include "tdtop.h"

#define MSG_ROW 5
#define HDR_ROW 6

static void draw(struct tdtop *tt)
{
	char lines[5][512], line[8192];
	int k, row;
	size_t i;

	erase();
	tdtop_summary(tt, lines);
	for (k = 0; k < 5 && k < LINES; k++)
		mvaddnstr(k, 0, lines[k], COLS);
	if (tt->msg[0] && MSG_ROW < LINES) {
		attron(A_BOLD);
		mvaddnstr(MSG_ROW, 0, tt->msg, COLS);
		attroff(A_BOLD);
		tt->msg[0] = '\0';
	}
	if (HDR_ROW < LINES) {
		tdtop_header(tt, line, sizeof(line), COLS);
		attron(A_REVERSE);
		mvaddnstr(HDR_ROW, 0, line, COLS);
		for (k = (int)strlen(line); k < COLS; k++)
			addch(' ');
		attroff(A_REVERSE);
	}
	for (i = 0, row = HDR_ROW + 1; i < tt->nrows && row < LINES; i++, row++) {
		tdtop_row_text(tt, &tt->rows[i], line, sizeof(line), COLS);
		mvaddnstr(row, 0, line, COLS);
	}
	refresh();
}

/* Ask on the message line; false if the answer is empty. */
static bool prompt(const char *question, char *buf, int size)
{
	int ok;

	move(MSG_ROW, 0);
	clrtoeol();
	attron(A_BOLD);
	addnstr(question, COLS - 1);
	attroff(A_BOLD);
	echo();
	curs_set(1);
	timeout(-1);
	ok = getnstr(buf, size - 1);
	noecho();
	curs_set(0);
	if (ok == ERR)
		buf[0] = '\0';
	while (*buf && isspace((unsigned char)buf[strlen(buf) - 1]))
		buf[strlen(buf) - 1] = '\0';
	return buf[0] != '\0';
}

static bool parse_int(const char *s, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return *s && !*end && !errno;
}

static const struct {
	const char *name;
	int sig;
} signals[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "KILL", SIGKILL },
	{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "TERM", SIGTERM }, { "CONT", SIGCONT },
	{ "STOP", SIGSTOP }, { "TSTP", SIGTSTP },
};

static int parse_signal(const char *s)
{
	long v;
	size_t k;

	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	if (parse_int(s, &v))
		return v > 0 && v < NSIG ? (int)v : -1;
	for (k = 0; k < sizeof(signals) / sizeof(signals[0]); k++)
		if (!strcasecmp(s, signals[k].name))
			return signals[k].sig;
	return -1;
}

/* The pid a prompt asks about, top's row as the default: 0 if none or cancelled. */
static pid_t ask_pid(struct tdtop *tt, const char *what)
{
	pid_t def = tt->nrows ? tt->rows[0].pid : 0;
	char q[128], a[64];
	long v;

	snprintf(q, sizeof(q), "PID to %s [default pid = %d] ", what, (int)def);
	if (!prompt(q, a, sizeof(a)))
		return def;
	if (!parse_int(a, &v) || v <= 0 || v > INT32_MAX) {
		snprintf(tt->msg, sizeof(tt->msg), " Unacceptable integer ");
		return 0;
	}
	return (pid_t)v;
}

static void key_kill(struct tdtop *tt)
{
	pid_t pid = ask_pid(tt, "signal/kill");
	char q[128], a[64];
	int sig = SIGTERM;

	if (!pid)
		return;
	snprintf(q, sizeof(q), "Send pid %d signal [15/sigterm] ", (int)pid);
	if (prompt(q, a, sizeof(a)) && (sig = parse_signal(a)) < 0) {
		snprintf(tt->msg, sizeof(tt->msg), " Unacceptable signal value ");
		return;
	}
	if (kill(pid, sig))
		snprintf(tt->msg, sizeof(tt->msg), " Failed signal pid '%d' with '%d': %s ",
			 (int)pid, sig, strerror(errno));
}

static void key_renice(struct tdtop *tt)
{
	pid_t pid = ask_pid(tt, "renice");
	char q[128], a[64];
	long v;

	if (!pid)
		return;
	snprintf(q, sizeof(q), "Renice PID %d to value ", (int)pid);
	if (!prompt(q, a, sizeof(a)))
		return;
	if (!parse_int(a, &v) || v < -20 || v > 19) {
		snprintf(tt->msg, sizeof(tt->msg), " Unacceptable nice value ");
		return;
	}
	if (setpriority(PRIO_PROCESS, (id_t)pid, (int)v))
		snprintf(tt->msg, sizeof(tt->msg), " Failed renice of PID %d to %ld: %s ",
			 (int)pid, v, strerror(errno));
}

static void key_user(struct tdtop *tt)
{
	char a[64];
	uid_t uid;

	if (!prompt("Which user (blank for all) ", a, sizeof(a))) {
		tt->has_user = false;
		return;
	}
	if (tdtop_user_lookup(a, &uid)) {
		snprintf(tt->msg, sizeof(tt->msg), " Invalid user ");
		return;
	}
	tt->user = uid;
	tt->has_user = true;
	tt->any_user = false;
}

static void key_delay(struct tdtop *tt)
{
	char q[128], a[64], *end;
	double d;

	snprintf(q, sizeof(q), "Change delay from %.1f to ", tt->delay);
	if (!prompt(q, a, sizeof(a)))
		return;
	errno = 0;
	d = strtod(a, &end);
	if (*end || errno || !(d >= 0) || d > 86400)
		snprintf(tt->msg, sizeof(tt->msg), " Unacceptable floating point ");
	else
		tt->delay = d;
}

/*
 * ncurses sets the terminal's modes on its output. With standard output
 * not a terminal (tdtop | tee f), top still reads single keys from the
 * terminal on standard input: set and restore that one's modes here, on a
 * signal too.
 */
static struct termios stdin_saved;
static volatile sig_atomic_t stdin_changed;

static void stdin_restore(void)
{
	if (stdin_changed)
		tcsetattr(STDIN_FILENO, TCSAFLUSH, &stdin_saved);
	stdin_changed = 0;
}

/* then the default action (SA_RESETHAND) */
static void stdin_restore_signal(int sig)
{
	stdin_restore();
	raise(sig);
}

static void stdin_keys(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };
	struct sigaction sa = { .sa_handler = stdin_restore_signal, .sa_flags = SA_RESETHAND };
	struct termios raw;
	size_t i;

	if (isatty(STDOUT_FILENO) || tcgetattr(STDIN_FILENO, &stdin_saved))
		return;
	raw = stdin_saved;
	raw.c_lflag &= ~(ECHO | ECHOCTL | ECHOE | ICANON);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw))
		return;
	stdin_changed = 1;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static void toggle(struct tdtop *tt, bool *flag, const char *what)
{
	*flag = !*flag;
	snprintf(tt->msg, sizeof(tt->msg), "%s %s", what, *flag ? "On" : "Off");
}

int tdtop_tui(struct tdtop *tt)
{
	bool quit = false;
	int err = 0, key;

	if (!initscr()) {
		fputs("tdtop: cannot set up the terminal\n", stderr);
		return 1;
	}
	cbreak();
	noecho();
	stdin_keys();
	keypad(stdscr, TRUE);
	curs_set(0);
	while (!quit && !(err = tdtop_refresh(tt))) {
		draw(tt);
		timeout(tt->delay > 0 ? (int)(tt->delay * 1000) : 0);
		key = getch();
		switch (key) {
		case 'q':
			quit = true;
			break;
		case 'P':
			tt->sort = TDTOP_COL_CPU;
			break;
		case 'M':
			tt->sort = TDTOP_COL_MEM;
			break;
		case 'T':
			tt->sort = TDTOP_COL_TIME;
			break;
		case 'N':
			tt->sort = TDTOP_COL_PID;
			break;
		case '<':
			if (tt->sort > 0)
				tt->sort--;
			break;
		case '>':
			if (tt->sort + 1 < TDTOP_COL__COUNT)
				tt->sort++;
			break;
		case 'R':
			tt->reverse = !tt->reverse;
			break;
		case 'u':
		case 'U':
			key_user(tt);
			break;
		case 'H':
			toggle(tt, &tt->threads, "Show threads");
			break;
		case 'i':
			tt->hide_idle = !tt->hide_idle;
			break;
		case 'c':
			tt->cmdline = !tt->cmdline;
			break;
		case 'k':
			key_kill(tt);
			break;
		case 'r':
			key_renice(tt);
			break;
		case 'd':
		case 's':
			key_delay(tt);
			break;
		default:	/* time-out, KEY_RESIZE (ncurses has new LINES/COLS) */
			break;
		}
	}
	endwin();
	stdin_restore();
	return err;
}
