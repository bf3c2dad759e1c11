// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all's errors, below every other file of it: a library error
 * reported with the kernel's message (report()), a usage error (now, or
 * deferred until the options are all read), each as one line on stderr
 * and, in JSON mode, as a JSON object on stdout; and the exit code each
 * calls for (enum tda_exit).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <taskdiag/taskdiag.h>

#include "td_backend_opt.h"
#include "tda.h"

struct tda_errors tda_errors;
static char g_usage_err[512];	/* the first bad option, reported after parsing */

static void json_error(const char *msg, int err, const char *extack)
{
	struct tdbuf b = { 0 };

	tdbuf_puts(&b, "{\"error\":");
	td_json_str(&b, msg, strlen(msg));
	tdbuf_addf(&b, ",\"errno\":%d", err < 0 ? -err : err);
	if (extack) {
		tdbuf_puts(&b, ",\"extack\":");
		td_json_str(&b, extack, strlen(extack));
	}
	tdbuf_puts(&b, "}\n");
	fflush(stdout);
	fwrite(b.p, 1, b.len, stdout);
	fflush(stdout);
	free(b.p);
}

void usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, PROG ": %s\nTry '" PROG " --help' for more information.\n", msg);
	if (tda_errors.json)
		json_error(msg, EINVAL, NULL);
	exit(TDA_EXIT_USAGE);
}

/* Note a usage error; the parser reports the first once it knows about -j. */
void usage_defer(const char *fmt, ...)
{
	va_list ap;

	if (g_usage_err[0])
		return;
	va_start(ap, fmt);
	vsnprintf(g_usage_err, sizeof(g_usage_err), fmt, ap);
	va_end(ap);
}

static int exit_code_of(int err)
{
	switch (-err) {
	case TASKDIAG_ENOMODULE:
		return TDA_EXIT_NOMODULE;
	case EACCES:
	case EPERM:
		return TDA_EXIT_PERM;
	case ESRCH:
		return TDA_EXIT_NOPID;
	default:
		return TDA_EXIT_ERROR;
	}
}

/* tda.h says what it does. */
int report(int err, struct taskdiag *td, const char *fmt, ...)
{
	const char *extack = td ? taskdiag_extack(td) : NULL;
	char what[256], msg[640];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (err == -EBADMSG && tda_errors.replay)
		snprintf(msg, sizeof(msg),
			 "%s: not a task_diag recording, or a truncated or corrupt one", what);
	else if (err == -TASKDIAG_ENOMODULE && tda_errors.needs_module)
		/* --backend procfs is refused with these: name what they need */
		snprintf(msg, sizeof(msg), "%s: %s (%s needs the module: " TD_MODULE_HINT ")",
			 what, taskdiag_strerror(err), tda_errors.needs_module);
	else if (err == -TASKDIAG_ENOMODULE)
		snprintf(msg, sizeof(msg), "%s: %s (" TD_MODULE_HINT ", or use --backend procfs)",
			 what, taskdiag_strerror(err));
	else if (extack && err == -ESRCH && !strcmp(extack, "no such pid") &&
		 taskdiag_get_backend(td) != TASKDIAG_BACKEND_NETLINK)
		/* the procfs backend's extack says what strerror says: once */
		snprintf(msg, sizeof(msg), "%s: %s", what, taskdiag_strerror(err));
	else if (extack)
		snprintf(msg, sizeof(msg), "%s: %s (%s%s)", what, taskdiag_strerror(err),
			 taskdiag_get_backend(td) == TASKDIAG_BACKEND_NETLINK ? "kernel: " : "",
			 extack);
	else
		snprintf(msg, sizeof(msg), "%s: %s", what, taskdiag_strerror(err));
	fflush(stdout);
	fprintf(stderr, PROG ": %s\n", msg);
	if (tda_errors.json)
		json_error(msg, err, extack);
	return exit_code_of(err);
}

const char *usage_deferred(void)
{
	return g_usage_err[0] ? g_usage_err : NULL;
}
