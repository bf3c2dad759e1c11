/* SPDX-License-Identifier: GPL-2.0 */
/* The --backend option's names and the fallback notice, for the tools. */
#ifndef TD_BACKEND_OPT_H
#define TD_BACKEND_OPT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <taskdiag/taskdiag.h>

/* "auto", "netlink" or "procfs" into *@b; false for anything else. */
static inline bool td_backend_parse(const char *name, enum taskdiag_backend *b)
{
	static const char *const names[] = {
		[TASKDIAG_BACKEND_AUTO] = "auto",
		[TASKDIAG_BACKEND_NETLINK] = "netlink",
		[TASKDIAG_BACKEND_PROCFS] = "procfs",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*b = (enum taskdiag_backend)i;
			return true;
		}
	return false;
}

/* How to get the module, where a tool says it is not loaded. */
#define TD_MODULE_HINT	"install the task-diag-dkms package and run modprobe task_diag"

/*
 * After taskdiag_open(&@td, @asked): where auto found no module and reads
 * /proc, say so once on stderr (as the Python binding's warning), unless
 * @quiet.
 */
static inline void td_backend_notice(const char *prog, const struct taskdiag *td,
				     enum taskdiag_backend asked, bool quiet)
{
	if (quiet || asked != TASKDIAG_BACKEND_AUTO ||
	    taskdiag_get_backend(td) != TASKDIAG_BACKEND_PROCFS)
		return;
	fprintf(stderr, "%s: %s: reading /proc instead (" TD_MODULE_HINT ")\n", prog,
		taskdiag_strerror(-TASKDIAG_ENOMODULE));
}

#endif
