/* SPDX-License-Identifier: GPL-2.0 */
/* The --backend option's names, for the tools on libtaskdiag. */
#ifndef TD_BACKEND_OPT_H
#define TD_BACKEND_OPT_H

#include <stdbool.h>
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

#endif
