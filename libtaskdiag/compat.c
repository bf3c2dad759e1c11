// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libtaskdiag: the symbol versions of the functions that take a struct
 * taskdiag_request.
 *
 * The struct grew in 0.4 (the filters and ran-since, appended). A program
 * built against an older header passes the three-member struct of 0.1 to
 * the names it was linked with at TASKDIAG_0.1 (taskdiag_sample_take:
 * TASKDIAG_0.2); those versions, here, copy it into a zeroed current one
 * (or, for taskdiag_replay_request(), copy only the old members back), so
 * they never read or write past its end. Programs built now get the
 * TASKDIAG_0.4 versions, the td_api_* functions, under the public names
 * (bound where each is defined: the assembler wants the default version
 * in the defining file).
 */
#include <string.h>

#include "internal.h"

/* struct taskdiag_request as released in 0.1 (never changes). */
struct td_request_v1 {
	enum taskdiag_scope scope;
	pid_t pid;
	uint32_t groups;
};

_Static_assert(offsetof(struct taskdiag_request, groups) == offsetof(struct td_request_v1, groups),
	       "the 0.1 members keep their place");

TD_VERSIONED int td_dump_v1(struct taskdiag *td, const struct td_request_v1 *req,
			    taskdiag_cb cb, void *arg);
TD_VERSIONED int td_iter_start_v1(struct taskdiag *td, const struct td_request_v1 *req,
				  struct taskdiag_iter **itp);
TD_VERSIONED int td_replay_request_v1(struct taskdiag *td, struct td_request_v1 *req);
TD_VERSIONED int td_sample_take_v1(struct taskdiag *td, const struct td_request_v1 *req,
				   struct taskdiag_sample *s);

TD_SYMVER(td_dump_v1, "taskdiag_dump@TASKDIAG_0.1");
TD_SYMVER(td_iter_start_v1, "taskdiag_iter_start@TASKDIAG_0.1");
TD_SYMVER(td_replay_request_v1, "taskdiag_replay_request@TASKDIAG_0.1");
TD_SYMVER(td_sample_take_v1, "taskdiag_sample_take@TASKDIAG_0.2");

/* The current request of an old one; NULL stays NULL (the callee's -EINVAL). */
static const struct taskdiag_request *td_req_of_v1(struct taskdiag_request *r,
						   const struct td_request_v1 *old)
{
	if (!old)
		return NULL;
	memset(r, 0, sizeof(*r));
	r->scope = old->scope;
	r->pid = old->pid;
	r->groups = old->groups;
	return r;
}

int td_dump_v1(struct taskdiag *td, const struct td_request_v1 *req, taskdiag_cb cb, void *arg)
{
	struct taskdiag_request r;

	return td_api_dump(td, td_req_of_v1(&r, req), cb, arg);
}

int td_iter_start_v1(struct taskdiag *td, const struct td_request_v1 *req,
		     struct taskdiag_iter **itp)
{
	struct taskdiag_request r;

	return td_api_iter_start(td, td_req_of_v1(&r, req), itp);
}

int td_replay_request_v1(struct taskdiag *td, struct td_request_v1 *req)
{
	struct taskdiag_request r;
	int err;

	if (!req)
		return td_api_replay_request(td, NULL);
	err = td_api_replay_request(td, &r);
	if (!err) {
		req->scope = r.scope;
		req->pid = r.pid;
		req->groups = r.groups;
	}
	return err;
}

int td_sample_take_v1(struct taskdiag *td, const struct td_request_v1 *req,
		      struct taskdiag_sample *s)
{
	struct taskdiag_request r;

	return td_api_sample_take(td, td_req_of_v1(&r, req), s);
}
