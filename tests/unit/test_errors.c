// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Errors: td_nl_errno(), the one place libnl's NLE_* codes become errnos
 * (none may leak to callers), taskdiag_strerror(), and the version check
 * (TASKDIAG_EVERSION) of the family lookup and of a recording.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/task_diag.h>

#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "internal.h"

/* What internal.h and nl.c promise, code by code. */
static const struct {
	int nle;
	int err;
} mapping[] = {
	{ NLE_SUCCESS, 0 },
	{ NLE_INTR, -EINTR },
	{ NLE_BAD_SOCK, -EBADF },
	{ NLE_AGAIN, -EAGAIN },
	{ NLE_NOMEM, -ENOMEM },
	{ NLE_EXIST, -EEXIST },
	{ NLE_INVAL, -EINVAL },
	{ NLE_AF_MISMATCH, -EINVAL },
	{ NLE_OBJ_MISMATCH, -EINVAL },
	{ NLE_RANGE, -ERANGE },
	{ NLE_MSGSIZE, -EMSGSIZE },
	{ NLE_ATTRSIZE, -EMSGSIZE },
	{ NLE_OPNOTSUPP, -EOPNOTSUPP },
	{ NLE_SRCRT_NOSUPPORT, -EOPNOTSUPP },
	{ NLE_AF_NOSUPPORT, -EAFNOSUPPORT },
	{ NLE_OBJ_NOTFOUND, -TASKDIAG_ENOMODULE },
	{ NLE_NOATTR, -EBADMSG },
	{ NLE_MISSING_ATTR, -EBADMSG },
	{ NLE_SEQ_MISMATCH, -EBADMSG },
	{ NLE_MSG_TRUNC, -EBADMSG },
	{ NLE_MSG_TOOSHORT, -EBADMSG },
	{ NLE_MSGTYPE_NOSUPPORT, -EBADMSG },
	{ NLE_MSG_OVERFLOW, -ENOBUFS },
	{ NLE_NOADDR, -EADDRNOTAVAIL },
	{ NLE_BUSY, -EBUSY },
	{ NLE_PROTO_MISMATCH, -EPROTONOSUPPORT },
	{ NLE_NOACCESS, -EACCES },
	{ NLE_PERM, -EPERM },
	{ NLE_NODEV, -ENODEV },
	{ NLE_DUMP_INTR, -EAGAIN },
	/* codes with no errno of their own */
	{ NLE_FAILURE, -EIO },
	{ NLE_NOCACHE, -EIO },
	{ NLE_PKTLOC_FILE, -EIO },
	{ NLE_PARSE_ERR, -EIO },
	{ NLE_IMMUTABLE, -EIO },
};

#define N_MAPPING (sizeof(mapping) / sizeof(mapping[0]))

/* libnl returns its codes negated; nl.c accepts either sign. */
static void test_mapping(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_MAPPING; i++) {
		int got = td_nl_errno(-mapping[i].nle);

		if (got != mapping[i].err)
			fail_msg("td_nl_errno(-%s) = %d (%s), want %d (%s)",
				 nl_geterror(mapping[i].nle), got, strerror(-got), mapping[i].err,
				 strerror(-mapping[i].err));
		got = td_nl_errno(mapping[i].nle);
		if (got != mapping[i].err)
			fail_msg("td_nl_errno(%s) = %d, want %d", nl_geterror(mapping[i].nle), got,
				 mapping[i].err);
	}
}

static void test_the_documented_ones(void **state)
{
	(void)state;
	assert_int_equal(td_nl_errno(0), 0);
	assert_int_equal(td_nl_errno(-NLE_NOMEM), -ENOMEM);
	assert_int_equal(td_nl_errno(-NLE_OBJ_NOTFOUND), -TASKDIAG_ENOMODULE);
	assert_int_equal(td_nl_errno(-NLE_MAX - 1), -EIO);
	assert_int_equal(td_nl_errno(-1000), -EIO);
	assert_int_equal(td_nl_errno(1000), -EIO);
}

/*
 * The chain a missing module goes through: the controller answers ENOENT,
 * libnl turns it into NLE_OBJ_NOTFOUND, td_nl_errno() into ENOMODULE.
 */
static void test_missing_family_chain(void **state)
{
	(void)state;
	assert_int_equal(nl_syserr2nlerr(ENOENT), NLE_OBJ_NOTFOUND);
	assert_int_equal(td_nl_errno(-nl_syserr2nlerr(ENOENT)), -TASKDIAG_ENOMODULE);
	assert_int_equal(td_nl_errno(-nl_syserr2nlerr(ENOMEM)), -ENOMEM);
	assert_int_equal(td_nl_errno(-nl_syserr2nlerr(EPERM)), -EPERM);
	assert_int_equal(td_nl_errno(-nl_syserr2nlerr(EACCES)), -EACCES);
	assert_int_equal(td_nl_errno(-nl_syserr2nlerr(EBUSY)), -EBUSY);
}

/*
 * Whatever the code (every NLE_* and far beyond, both signs): 0 only for
 * success, else a negative errno that names an error (strerror knows it),
 * never a positive value.
 */
static void test_never_positive_never_raw(void **state)
{
	(void)state;
	for (int code = -300; code <= 300; code++) {
		int got = td_nl_errno(code);
		char unknown[64];

		if (code == 0) {
			assert_int_equal(got, 0);
			continue;
		}
		if (got >= 0)
			fail_msg("td_nl_errno(%d) = %d: not a negative errno", code, got);
		if (got < -4095)
			fail_msg("td_nl_errno(%d) = %d: outside errno range", code, got);
		snprintf(unknown, sizeof(unknown), "Unknown error %d", -got);
		if (!strcmp(strerror(-got), unknown))
			fail_msg("td_nl_errno(%d) = %d: no such errno", code, got);
	}
	/*
	 * No identity pass-through: where the NLE value and the errno
	 * number differ in meaning, the result must be the errno.
	 */
	assert_true(td_nl_errno(-NLE_NOMEM) != -NLE_NOMEM);
	assert_true(td_nl_errno(-NLE_OBJ_NOTFOUND) != -NLE_OBJ_NOTFOUND);
	assert_true(td_nl_errno(-NLE_INVAL) != -NLE_INVAL);
}

static void test_strerror(void **state)
{
	const char *codes[4];
	int errs[4] = { -TASKDIAG_ENOMODULE, -EBADMSG, 0, -123456 };

	(void)state;
	for (int i = 0; i < 4; i++) {
		codes[i] = taskdiag_strerror(errs[i]);
		assert_non_null(codes[i]);
		assert_true(codes[i][0] != '\0');
	}
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			if (!strcmp(codes[i], codes[j]))
				fail_msg("taskdiag_strerror(%d) and (%d) both say \"%s\"", errs[i],
					 errs[j], codes[i]);
	/* the module's absence says so */
	assert_non_null(strstr(taskdiag_strerror(-TASKDIAG_ENOMODULE), "module"));
	/* the library's own codes differ from each other */
	assert_true(strcmp(taskdiag_strerror(-TASKDIAG_EVERSION),
			   taskdiag_strerror(-TASKDIAG_ENOMODULE)) != 0);
	/* a plain errno reads as one */
	assert_string_equal(taskdiag_strerror(-ENOMEM), strerror(ENOMEM));
	/* positive values are not error codes of this library, but still text */
	assert_non_null(taskdiag_strerror(5));
	assert_non_null(taskdiag_strerror(INT32_MIN));
	assert_non_null(taskdiag_strerror(INT32_MAX));
}

/*
 * The controller's answer to CTRL_CMD_GETFAMILY, as the kernel writes it
 * (id, name, version, hdrsize, maxattr, ops, in that order), with libnl.
 */
static int parse_ctrl_reply(uint32_t version, const char *name, bool with_version,
			    uint16_t *id)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct genlmsghdr *gh;
	struct nlattr *ops, *op;
	int ret;

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, GENL_ID_CTRL, 0, 0,
				    CTRL_CMD_NEWFAMILY, 2));
	assert_int_equal(nla_put_u16(msg, CTRL_ATTR_FAMILY_ID, 0x1d), 0);
	assert_int_equal(nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name), 0);
	if (with_version)
		assert_int_equal(nla_put_u32(msg, CTRL_ATTR_VERSION, version), 0);
	assert_int_equal(nla_put_u32(msg, CTRL_ATTR_HDRSIZE, 0), 0);
	assert_int_equal(nla_put_u32(msg, CTRL_ATTR_MAXATTR, TASK_DIAG_A_TASK_MAX), 0);
	ops = nla_nest_start(msg, CTRL_ATTR_OPS);
	op = nla_nest_start(msg, 1);
	assert_int_equal(nla_put_u32(msg, CTRL_ATTR_OP_ID, TASK_DIAG_CMD_GET), 0);
	nla_nest_end(msg, op);
	nla_nest_end(msg, ops);
	gh = nlmsg_data(nlmsg_hdr(msg));
	*id = 0;
	ret = td_nl_parse_family(genlmsg_attrdata(gh, 0), (size_t)genlmsg_attrlen(gh, 0), id);
	nlmsg_free(msg);
	return ret;
}

/* A module of family version 1 (or any other than this library's) is refused as such. */
static void test_family_version(void **state)
{
	uint16_t id;

	(void)state;
	assert_int_equal(parse_ctrl_reply(TASK_DIAG_FAMILY_VERSION, "task_diag", true, &id), 0);
	assert_int_equal(id, 0x1d);
	assert_int_equal(parse_ctrl_reply(1, "task_diag", true, &id), -TASKDIAG_EVERSION);
	assert_int_equal(parse_ctrl_reply(3, "task_diag", true, &id), -TASKDIAG_EVERSION);
	assert_int_equal(parse_ctrl_reply(0, "task_diag", true, &id), -TASKDIAG_EVERSION);
	/* not about task_diag, or no version at all: not an answer */
	assert_int_equal(parse_ctrl_reply(TASK_DIAG_FAMILY_VERSION, "task_dia", true, &id),
			 -EBADMSG);
	assert_int_equal(parse_ctrl_reply(TASK_DIAG_FAMILY_VERSION, "task_diag2", true, &id),
			 -EBADMSG);
	assert_int_equal(parse_ctrl_reply(TASK_DIAG_FAMILY_VERSION, "task_diag", false, &id),
			 -EBADMSG);
	assert_int_equal(td_nl_parse_family(NULL, 0, &id), -EBADMSG);
	assert_int_equal(td_nl_parse_family("\x03\x00", 2, &id), -EBADMSG);
}

/* A recording's header: the family version it was made with must be this library's. */
static int open_recording(uint32_t format, uint32_t version)
{
	struct {
		char magic[8];
		uint32_t format, version;
	} h = { .format = format, .version = version };
	struct taskdiag *td = NULL;
	int fds[2], ret;

	memcpy(h.magic, "TDIAGRAW", 8);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], &h, sizeof(h)), (ssize_t)sizeof(h));
	close(fds[1]);
	ret = taskdiag_open_replay(&td, fds[0]);
	taskdiag_close(td);
	close(fds[0]);
	return ret;
}

static void test_recording_version(void **state)
{
	(void)state;
	assert_int_equal(open_recording(1, TASK_DIAG_FAMILY_VERSION), 0);
	assert_int_equal(open_recording(1, 1), -TASKDIAG_EVERSION);
	assert_int_equal(open_recording(1, TASK_DIAG_FAMILY_VERSION + 1), -TASKDIAG_EVERSION);
	/* format 2 keeps the recording host's clocks; a later one is refused */
	assert_int_equal(open_recording(2, TASK_DIAG_FAMILY_VERSION), 0);
	assert_int_equal(open_recording(3, TASK_DIAG_FAMILY_VERSION), -EBADMSG);
	assert_int_equal(open_recording(0, TASK_DIAG_FAMILY_VERSION), -EBADMSG);
	assert_non_null(strstr(taskdiag_strerror(-TASKDIAG_EVERSION), "version"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_the_documented_ones),
		cmocka_unit_test(test_missing_family_chain),
		cmocka_unit_test(test_never_positive_never_raw),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_family_version),
		cmocka_unit_test(test_recording_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
