// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Errors: td_nl_errno(), the one place libnl's NLE_* codes become errnos
 * (none may leak to callers), and taskdiag_strerror().
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <netlink/errno.h>

#include "internal.h"

/* What internal.h and netlink.c promise, code by code. */
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

/* libnl returns its codes negated; netlink.c accepts either sign. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mapping),
		cmocka_unit_test(test_the_documented_ones),
		cmocka_unit_test(test_missing_family_chain),
		cmocka_unit_test(test_never_positive_never_raw),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
