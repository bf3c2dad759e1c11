// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * td_nl_parse_task(): reply messages built in memory, both with libnl (as
 * a producer other than the kernel would) and byte by byte (as the kernel
 * lays them out: NLA_F_NESTED on nests, PAD before 64-bit values), fed to
 * the decoder; values come back through the public getters.
 *
 * The decoder gets an exact-size heap copy of each message, so that under
 * ASan a read one byte past the end is caught, and the copy starts 4 bytes
 * off an 8-byte boundary, as attributes do after a 20-byte nlmsghdr +
 * genlmsghdr, so that UBSan catches misaligned 64-bit loads.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include <linux/task_diag.h>

#include "internal.h"

/* ---- a kernel-like message builder ------------------------------------ */

struct msg {
	uint8_t b[32768];
	size_t len;
};

static void put_raw(struct msg *m, uint16_t type, const void *p, size_t n)
{
	struct nlattr nla = { .nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type };
	size_t total = NLA_ALIGN(NLA_HDRLEN + n);

	assert_true(m->len + total <= sizeof(m->b));
	memcpy(m->b + m->len, &nla, sizeof(nla));
	if (n)
		memcpy(m->b + m->len + NLA_HDRLEN, p, n);
	memset(m->b + m->len + NLA_HDRLEN + n, 0, total - NLA_HDRLEN - n);
	m->len += total;
}

static void put_u8(struct msg *m, uint16_t type, uint8_t v)
{
	put_raw(m, type, &v, 1);
}

static void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put_raw(m, type, &v, 4);
}

static void put_s32(struct msg *m, uint16_t type, int32_t v)
{
	put_raw(m, type, &v, 4);
}

/* nla_put_u64_64bit(): a zero-length PAD first if the value would be misaligned. */
static void put_u64(struct msg *m, uint16_t type, uint64_t v, uint16_t pad)
{
	if ((20 + m->len + NLA_HDRLEN) % 8)
		put_raw(m, pad, NULL, 0);
	put_raw(m, type, &v, 8);
}

static void put_str(struct msg *m, uint16_t type, const char *s)
{
	put_raw(m, type, s, strlen(s) + 1);
}

static size_t nest_start(struct msg *m, uint16_t type)
{
	size_t off = m->len;

	put_raw(m, type | NLA_F_NESTED, NULL, 0);
	return off;
}

static void nest_end(struct msg *m, size_t off)
{
	struct nlattr nla;

	memcpy(&nla, m->b + off, sizeof(nla));
	nla.nla_len = (uint16_t)(m->len - off);
	memcpy(m->b + off, &nla, sizeof(nla));
}

static void set_nla_len(struct msg *m, size_t off, uint16_t len)
{
	memcpy(m->b + off, &len, sizeof(len));
}

/* ---- feeding the decoder ---------------------------------------------- */

static uint8_t *copy_base;	/* the current message's heap copy */
static size_t copy_len;

static int parse_bytes(const void *p, size_t len, struct taskdiag_task *t)
{
	free(copy_base);
	copy_base = malloc(len + 4);
	assert_non_null(copy_base);
	memcpy(copy_base + 4, p, len);
	copy_len = len;
	memset(t, 0xa5, sizeof(*t));	/* garbage: the decoder must reset it */
	return td_nl_parse_task(copy_base + 4, len, t);
}

static int parse(const struct msg *m, struct taskdiag_task *t)
{
	return parse_bytes(m->b, m->len, t);
}

static int teardown(void **state)
{
	(void)state;
	free(copy_base);
	copy_base = NULL;
	return 0;
}

static bool in_copy(const void *p, size_t len)
{
	const uint8_t *q = p;

	return q >= copy_base + 4 && q + len <= copy_base + 4 + copy_len;
}

static uint64_t get_u(const struct taskdiag_task *t, enum taskdiag_item item)
{
	uint64_t v = 0xdeadbeef;

	if (taskdiag_task_get_u64(t, item, &v))
		fail_msg("%s.%s: get_u64 = %d", td_items[item].group_name, td_items[item].name,
			 taskdiag_task_get_u64(t, item, &v));
	return v;
}

static int64_t get_s(const struct taskdiag_task *t, enum taskdiag_item item)
{
	int64_t v = 0xdeadbeef;

	if (taskdiag_task_get_s64(t, item, &v))
		fail_msg("%s.%s: get_s64 = %d", td_items[item].group_name, td_items[item].name,
			 taskdiag_task_get_s64(t, item, &v));
	return v;
}

static void assert_absent(const struct taskdiag_task *t, enum taskdiag_item item)
{
	uint64_t u;
	int64_t s;
	const char *str;
	const void *data;
	size_t len;
	int ret = 0;

	assert_false(taskdiag_task_has(t, item));
	switch (td_items[item].type) {
	case TASKDIAG_TYPE_U64:
		ret = taskdiag_task_get_u64(t, item, &u);
		break;
	case TASKDIAG_TYPE_S64:
		ret = taskdiag_task_get_s64(t, item, &s);
		break;
	case TASKDIAG_TYPE_STRING:
		ret = taskdiag_task_get_string(t, item, &str);
		break;
	case TASKDIAG_TYPE_BYTES:
	case TASKDIAG_TYPE_U32_ARRAY:
		ret = taskdiag_task_get_bytes(t, item, &data, &len);
		break;
	}
	if (ret != -ENOENT)
		fail_msg("%s.%s: absent item returns %d, want -ENOENT", td_items[item].group_name,
			 td_items[item].name, ret);
}

/* ---- every group, written from the header alone ----------------------- */

/*
 * Expected fixed-size values, with the attribute numbers and sizes the uapi
 * header gives (not the item table's): size 1 = u8, 4 = u32, -4 = s32,
 * 8 = u64.
 */
struct fixed {
	enum taskdiag_item item;
	uint16_t nest;		/* 0: top level */
	uint16_t attr;
	int size;
	uint64_t u;
	int64_t s;
};

#define U8(i, n, a, v) { i, n, a, 1, v, 0 }
#define U32(i, n, a, v) { i, n, a, 4, v, 0 }
#define S32(i, n, a, v) { i, n, a, -4, 0, v }
#define U64(i, n, a, v) { i, n, a, 8, v, 0 }

#define B TASK_DIAG_A_TASK_BASE
#define ST TASK_DIAG_A_TASK_STAT
#define SM TASK_DIAG_A_TASK_STATM
#define IO TASK_DIAG_A_TASK_IO
#define SS TASK_DIAG_A_TASK_STATUS
#define CR TASK_DIAG_A_TASK_CRED

static const struct fixed fixed_values[] = {
	U32(TASKDIAG_ITEM_BASE_PPID, B, TASK_DIAG_A_BASE_PPID, 1),
	U32(TASKDIAG_ITEM_BASE_PGID, B, TASK_DIAG_A_BASE_PGID, 4240),
	U32(TASKDIAG_ITEM_BASE_SID, B, TASK_DIAG_A_BASE_SID, 4000),
	U32(TASKDIAG_ITEM_BASE_TRACER_PID, B, TASK_DIAG_A_BASE_TRACER_PID, 0),
	U32(TASKDIAG_ITEM_BASE_TTY_NR, B, TASK_DIAG_A_BASE_TTY_NR, 0x8801),
	S32(TASKDIAG_ITEM_BASE_TPGID, B, TASK_DIAG_A_BASE_TPGID, -1),
	U8(TASKDIAG_ITEM_BASE_STATE, B, TASK_DIAG_A_BASE_STATE, 'S'),
	U32(TASKDIAG_ITEM_BASE_FLAGS, B, TASK_DIAG_A_BASE_FLAGS, 0x80400140u), /* not sign-extended */
	U64(TASKDIAG_ITEM_BASE_START_TIME, B, TASK_DIAG_A_BASE_START_TIME, 1234567890123ull),
	U32(TASKDIAG_ITEM_BASE_NUM_THREADS, B, TASK_DIAG_A_BASE_NUM_THREADS, 3),

	U64(TASKDIAG_ITEM_STAT_MINFLT, ST, TASK_DIAG_A_STAT_MINFLT, 100),
	U64(TASKDIAG_ITEM_STAT_CMINFLT, ST, TASK_DIAG_A_STAT_CMINFLT, 0),
	U64(TASKDIAG_ITEM_STAT_MAJFLT, ST, TASK_DIAG_A_STAT_MAJFLT, 7),
	U64(TASKDIAG_ITEM_STAT_CMAJFLT, ST, TASK_DIAG_A_STAT_CMAJFLT, 1),
	U64(TASKDIAG_ITEM_STAT_UTIME, ST, TASK_DIAG_A_STAT_UTIME, 30000000),
	U64(TASKDIAG_ITEM_STAT_STIME, ST, TASK_DIAG_A_STAT_STIME, 10000000),
	U64(TASKDIAG_ITEM_STAT_CUTIME, ST, TASK_DIAG_A_STAT_CUTIME, 1ull << 40),
	U64(TASKDIAG_ITEM_STAT_CSTIME, ST, TASK_DIAG_A_STAT_CSTIME, 5),
	S32(TASKDIAG_ITEM_STAT_PRIORITY, ST, TASK_DIAG_A_STAT_PRIORITY, -51),
	S32(TASKDIAG_ITEM_STAT_NICE, ST, TASK_DIAG_A_STAT_NICE, -5),
	U64(TASKDIAG_ITEM_STAT_VSIZE, ST, TASK_DIAG_A_STAT_VSIZE, 0x7fff12345000ull),
	U64(TASKDIAG_ITEM_STAT_RSS, ST, TASK_DIAG_A_STAT_RSS, 4096 * 321),
	U64(TASKDIAG_ITEM_STAT_RSSLIM, ST, TASK_DIAG_A_STAT_RSSLIM, UINT64_MAX),
	U64(TASKDIAG_ITEM_STAT_START_CODE, ST, TASK_DIAG_A_STAT_START_CODE, 0x400000),
	U64(TASKDIAG_ITEM_STAT_END_CODE, ST, TASK_DIAG_A_STAT_END_CODE, 0x401000),
	U64(TASKDIAG_ITEM_STAT_START_STACK, ST, TASK_DIAG_A_STAT_START_STACK, 0x7ffd00000000ull),
	U64(TASKDIAG_ITEM_STAT_KSTK_ESP, ST, TASK_DIAG_A_STAT_KSTK_ESP, 0),
	U64(TASKDIAG_ITEM_STAT_KSTK_EIP, ST, TASK_DIAG_A_STAT_KSTK_EIP, 0),
	U8(TASKDIAG_ITEM_STAT_WCHAN, ST, TASK_DIAG_A_STAT_WCHAN, 1),
	S32(TASKDIAG_ITEM_STAT_EXIT_SIGNAL, ST, TASK_DIAG_A_STAT_EXIT_SIGNAL, -1),
	U32(TASKDIAG_ITEM_STAT_PROCESSOR, ST, TASK_DIAG_A_STAT_PROCESSOR, 1),
	U32(TASKDIAG_ITEM_STAT_RT_PRIORITY, ST, TASK_DIAG_A_STAT_RT_PRIORITY, 50),
	U32(TASKDIAG_ITEM_STAT_POLICY, ST, TASK_DIAG_A_STAT_POLICY, 1),
	U64(TASKDIAG_ITEM_STAT_BLKIO_DELAY, ST, TASK_DIAG_A_STAT_BLKIO_DELAY, 20000000),
	U64(TASKDIAG_ITEM_STAT_GUEST_TIME, ST, TASK_DIAG_A_STAT_GUEST_TIME, 0),
	U64(TASKDIAG_ITEM_STAT_CGUEST_TIME, ST, TASK_DIAG_A_STAT_CGUEST_TIME, 40000000),
	U64(TASKDIAG_ITEM_STAT_START_DATA, ST, TASK_DIAG_A_STAT_START_DATA, 0x600000),
	U64(TASKDIAG_ITEM_STAT_END_DATA, ST, TASK_DIAG_A_STAT_END_DATA, 0x601000),
	U64(TASKDIAG_ITEM_STAT_START_BRK, ST, TASK_DIAG_A_STAT_START_BRK, 0x1000000),
	U64(TASKDIAG_ITEM_STAT_ARG_START, ST, TASK_DIAG_A_STAT_ARG_START, 0x7ffd00001000ull),
	U64(TASKDIAG_ITEM_STAT_ARG_END, ST, TASK_DIAG_A_STAT_ARG_END, 0x7ffd00001010ull),
	U64(TASKDIAG_ITEM_STAT_ENV_START, ST, TASK_DIAG_A_STAT_ENV_START, 0x7ffd00001010ull),
	U64(TASKDIAG_ITEM_STAT_ENV_END, ST, TASK_DIAG_A_STAT_ENV_END, 0x7ffd00002000ull),
	S32(TASKDIAG_ITEM_STAT_EXIT_CODE, ST, TASK_DIAG_A_STAT_EXIT_CODE, INT32_MIN),

	U64(TASKDIAG_ITEM_STATM_SIZE, SM, TASK_DIAG_A_STATM_SIZE, 4096ull * 5000),
	U64(TASKDIAG_ITEM_STATM_RESIDENT, SM, TASK_DIAG_A_STATM_RESIDENT, 4096ull * 321),
	U64(TASKDIAG_ITEM_STATM_SHARED, SM, TASK_DIAG_A_STATM_SHARED, 4096ull * 200),
	U64(TASKDIAG_ITEM_STATM_TEXT, SM, TASK_DIAG_A_STATM_TEXT, 4096ull * 1),
	U64(TASKDIAG_ITEM_STATM_LIB, SM, TASK_DIAG_A_STATM_LIB, 0),
	U64(TASKDIAG_ITEM_STATM_DATA, SM, TASK_DIAG_A_STATM_DATA, 4096ull * 90),
	U64(TASKDIAG_ITEM_STATM_DT, SM, TASK_DIAG_A_STATM_DT, 0),

	U64(TASKDIAG_ITEM_IO_RCHAR, IO, TASK_DIAG_A_IO_RCHAR, 11),
	U64(TASKDIAG_ITEM_IO_WCHAR, IO, TASK_DIAG_A_IO_WCHAR, 12),
	U64(TASKDIAG_ITEM_IO_SYSCR, IO, TASK_DIAG_A_IO_SYSCR, 13),
	U64(TASKDIAG_ITEM_IO_SYSCW, IO, TASK_DIAG_A_IO_SYSCW, 14),
	U64(TASKDIAG_ITEM_IO_READ_BYTES, IO, TASK_DIAG_A_IO_READ_BYTES, 4096 * 15),
	U64(TASKDIAG_ITEM_IO_WRITE_BYTES, IO, TASK_DIAG_A_IO_WRITE_BYTES, 4096 * 16),
	U64(TASKDIAG_ITEM_IO_CANCELLED_WRITE_BYTES, IO, TASK_DIAG_A_IO_CANCELLED_WRITE_BYTES, 0),

	U32(TASKDIAG_ITEM_STATUS_UMASK, SS, TASK_DIAG_A_STATUS_UMASK, 022),
	U32(TASKDIAG_ITEM_STATUS_FDSIZE, SS, TASK_DIAG_A_STATUS_FDSIZE, 64),
	U64(TASKDIAG_ITEM_STATUS_VM_PEAK, SS, TASK_DIAG_A_STATUS_VM_PEAK, 1024ull * 20001),
	U64(TASKDIAG_ITEM_STATUS_VM_LCK, SS, TASK_DIAG_A_STATUS_VM_LCK, 0),
	U64(TASKDIAG_ITEM_STATUS_VM_PIN, SS, TASK_DIAG_A_STATUS_VM_PIN, 0),
	U64(TASKDIAG_ITEM_STATUS_VM_HWM, SS, TASK_DIAG_A_STATUS_VM_HWM, 1024ull * 1300),
	U64(TASKDIAG_ITEM_STATUS_VM_RSS, SS, TASK_DIAG_A_STATUS_VM_RSS, 1024ull * 1284),
	U64(TASKDIAG_ITEM_STATUS_RSS_ANON, SS, TASK_DIAG_A_STATUS_RSS_ANON, 1024ull * 84),
	U64(TASKDIAG_ITEM_STATUS_RSS_FILE, SS, TASK_DIAG_A_STATUS_RSS_FILE, 1024ull * 1200),
	U64(TASKDIAG_ITEM_STATUS_RSS_SHMEM, SS, TASK_DIAG_A_STATUS_RSS_SHMEM, 0),
	U64(TASKDIAG_ITEM_STATUS_VM_DATA, SS, TASK_DIAG_A_STATUS_VM_DATA, 1024ull * 360),
	U64(TASKDIAG_ITEM_STATUS_VM_STK, SS, TASK_DIAG_A_STATUS_VM_STK, 1024ull * 132),
	U64(TASKDIAG_ITEM_STATUS_VM_EXE, SS, TASK_DIAG_A_STATUS_VM_EXE, 1024ull * 4),
	U64(TASKDIAG_ITEM_STATUS_VM_LIB, SS, TASK_DIAG_A_STATUS_VM_LIB, 1024ull * 1800),
	U64(TASKDIAG_ITEM_STATUS_VM_PTE, SS, TASK_DIAG_A_STATUS_VM_PTE, 1024ull * 52),
	U64(TASKDIAG_ITEM_STATUS_VM_SWAP, SS, TASK_DIAG_A_STATUS_VM_SWAP, 0),
	U64(TASKDIAG_ITEM_STATUS_HUGETLB_PAGES, SS, TASK_DIAG_A_STATUS_HUGETLB_PAGES, 0),
	U8(TASKDIAG_ITEM_STATUS_CORE_DUMPING, SS, TASK_DIAG_A_STATUS_CORE_DUMPING, 0),
	U8(TASKDIAG_ITEM_STATUS_THP_ENABLED, SS, TASK_DIAG_A_STATUS_THP_ENABLED, 1),
	U32(TASKDIAG_ITEM_STATUS_SIGQ_QUEUED, SS, TASK_DIAG_A_STATUS_SIGQ_QUEUED, 2),
	U64(TASKDIAG_ITEM_STATUS_SIGQ_LIMIT, SS, TASK_DIAG_A_STATUS_SIGQ_LIMIT, 95381),
	U64(TASKDIAG_ITEM_STATUS_SIG_PENDING, SS, TASK_DIAG_A_STATUS_SIG_PENDING, 0),
	U64(TASKDIAG_ITEM_STATUS_SIG_SHARED_PENDING, SS, TASK_DIAG_A_STATUS_SIG_SHARED_PENDING, 1ull << 63),
	U64(TASKDIAG_ITEM_STATUS_SIG_BLOCKED, SS, TASK_DIAG_A_STATUS_SIG_BLOCKED, 0x10002),
	U64(TASKDIAG_ITEM_STATUS_SIG_IGNORED, SS, TASK_DIAG_A_STATUS_SIG_IGNORED, 0x384004),
	U64(TASKDIAG_ITEM_STATUS_SIG_CAUGHT, SS, TASK_DIAG_A_STATUS_SIG_CAUGHT, 0x4b813efb),
	U8(TASKDIAG_ITEM_STATUS_NO_NEW_PRIVS, SS, TASK_DIAG_A_STATUS_NO_NEW_PRIVS, 1),
	U8(TASKDIAG_ITEM_STATUS_SECCOMP, SS, TASK_DIAG_A_STATUS_SECCOMP, 2),
	U32(TASKDIAG_ITEM_STATUS_SECCOMP_FILTERS, SS, TASK_DIAG_A_STATUS_SECCOMP_FILTERS, 1),
	U64(TASKDIAG_ITEM_STATUS_VOLUNTARY_CTXT_SWITCHES, SS, TASK_DIAG_A_STATUS_VOLUNTARY_CTXT_SWITCHES, 1000),
	U64(TASKDIAG_ITEM_STATUS_NONVOLUNTARY_CTXT_SWITCHES, SS, TASK_DIAG_A_STATUS_NONVOLUNTARY_CTXT_SWITCHES, 3),

	U32(TASKDIAG_ITEM_CRED_UID, CR, TASK_DIAG_A_CRED_UID, 1000),
	U32(TASKDIAG_ITEM_CRED_EUID, CR, TASK_DIAG_A_CRED_EUID, 0),
	U32(TASKDIAG_ITEM_CRED_SUID, CR, TASK_DIAG_A_CRED_SUID, 65534),
	U32(TASKDIAG_ITEM_CRED_FSUID, CR, TASK_DIAG_A_CRED_FSUID, 0xfffffffeu),
	U32(TASKDIAG_ITEM_CRED_GID, CR, TASK_DIAG_A_CRED_GID, 100),
	U32(TASKDIAG_ITEM_CRED_EGID, CR, TASK_DIAG_A_CRED_EGID, 101),
	U32(TASKDIAG_ITEM_CRED_SGID, CR, TASK_DIAG_A_CRED_SGID, 102),
	U32(TASKDIAG_ITEM_CRED_FSGID, CR, TASK_DIAG_A_CRED_FSGID, 0xffffffffu),
	U64(TASKDIAG_ITEM_CRED_CAP_INHERITABLE, CR, TASK_DIAG_A_CRED_CAP_INHERITABLE, 0),
	U64(TASKDIAG_ITEM_CRED_CAP_PERMITTED, CR, TASK_DIAG_A_CRED_CAP_PERMITTED, 0x1ffffffffffull),
	U64(TASKDIAG_ITEM_CRED_CAP_EFFECTIVE, CR, TASK_DIAG_A_CRED_CAP_EFFECTIVE, 0x1ffffffffffull),
	U64(TASKDIAG_ITEM_CRED_CAP_BOUNDING, CR, TASK_DIAG_A_CRED_CAP_BOUNDING, 0x1ffffffffffull),
	U64(TASKDIAG_ITEM_CRED_CAP_AMBIENT, CR, TASK_DIAG_A_CRED_CAP_AMBIENT, 1ull << 12),
};

#define N_FIXED (sizeof(fixed_values) / sizeof(fixed_values[0]))

static const char full_comm[] = "kworker/0:1H";
static const uint8_t full_cmdline[] = "sleep\0--\0" "1000";	/* 15 bytes, NUL-separated */
static const uint32_t full_cpus[] = { 0xffffffffu, 0x3 };
static const uint32_t full_mems[] = { 0x1 };
static const uint32_t full_groups[] = { 4, 24, 27 };

static void put_fixed(struct msg *m, const struct fixed *f, uint16_t pad)
{
	switch (f->size) {
	case 1:
		put_u8(m, f->attr, (uint8_t)f->u);
		break;
	case 4:
		put_u32(m, f->attr, (uint32_t)f->u);
		break;
	case -4:
		put_s32(m, f->attr, (int32_t)f->s);
		break;
	case 8:
		put_u64(m, f->attr, f->u, pad);
		break;
	}
}

static void put_group(struct msg *m, uint16_t nest, uint16_t pad)
{
	size_t n = nest_start(m, nest);

	for (size_t i = 0; i < N_FIXED; i++)
		if (fixed_values[i].nest == nest)
			put_fixed(m, &fixed_values[i], pad);
	if (nest == B)
		put_str(m, TASK_DIAG_A_BASE_COMM, full_comm);
	if (nest == SS) {
		put_raw(m, TASK_DIAG_A_STATUS_CPUS_ALLOWED, full_cpus, sizeof(full_cpus));
		put_raw(m, TASK_DIAG_A_STATUS_MEMS_ALLOWED, full_mems, sizeof(full_mems));
	}
	if (nest == CR)
		put_raw(m, TASK_DIAG_A_CRED_GROUPS, full_groups, sizeof(full_groups));
	nest_end(m, n);
}

static void build_full(struct msg *m)
{
	m->len = 0;
	put_u32(m, TASK_DIAG_A_TASK_PID, 4242);
	put_u32(m, TASK_DIAG_A_TASK_TGID, 4240);
	put_group(m, B, TASK_DIAG_A_BASE_PAD);
	put_group(m, ST, TASK_DIAG_A_STAT_PAD);
	put_group(m, SM, TASK_DIAG_A_STATM_PAD);
	put_group(m, IO, TASK_DIAG_A_IO_PAD);
	put_group(m, SS, TASK_DIAG_A_STATUS_PAD);
	put_group(m, CR, TASK_DIAG_A_CRED_PAD);
	put_raw(m, TASK_DIAG_A_TASK_CMDLINE, full_cmdline, sizeof(full_cmdline) - 1);
}

static void check_full(const struct taskdiag_task *t)
{
	const char *s;
	const void *data;
	size_t len;

	assert_int_equal(taskdiag_task_pid(t), 4242);
	assert_int_equal(taskdiag_task_tgid(t), 4240);
	assert_int_equal(get_u(t, TASKDIAG_ITEM_PID), 4242);
	assert_int_equal(get_u(t, TASKDIAG_ITEM_TGID), 4240);

	for (size_t i = 0; i < N_FIXED; i++) {
		const struct fixed *f = &fixed_values[i];

		assert_true(taskdiag_task_has(t, f->item));
		if (f->size < 0) {
			int64_t v = get_s(t, f->item);

			if (v != f->s)
				fail_msg("%s.%s = %lld, want %lld", td_items[f->item].group_name,
					 td_items[f->item].name, (long long)v, (long long)f->s);
		} else {
			uint64_t v = get_u(t, f->item);

			if (v != f->u)
				fail_msg("%s.%s = %#llx, want %#llx", td_items[f->item].group_name,
					 td_items[f->item].name, (unsigned long long)v,
					 (unsigned long long)f->u);
		}
	}

	assert_int_equal(taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &s), 0);
	assert_string_equal(s, full_comm);
	assert_true(in_copy(s, sizeof(full_comm)));

	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CMDLINE, &data, &len), 0);
	assert_int_equal(len, sizeof(full_cmdline) - 1);
	assert_memory_equal(data, full_cmdline, len);
	assert_true(in_copy(data, len));

	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_STATUS_CPUS_ALLOWED, &data, &len), 0);
	assert_int_equal(len, sizeof(full_cpus));
	assert_memory_equal(data, full_cpus, len);
	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_STATUS_MEMS_ALLOWED, &data, &len), 0);
	assert_int_equal(len, sizeof(full_mems));
	assert_memory_equal(data, full_mems, len);
	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CRED_GROUPS, &data, &len), 0);
	assert_int_equal(len, sizeof(full_groups));
	assert_memory_equal(data, full_groups, len);
}

static void test_every_group_decoded(void **state)
{
	static struct msg m;
	struct taskdiag_task t;

	(void)state;
	build_full(&m);
	assert_int_equal(parse(&m, &t), 0);
	check_full(&t);
}

/* The same message without NLA_F_NESTED on the nests (older producers). */
static void test_nests_without_nested_flag(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	size_t off = 0;

	(void)state;
	build_full(&m);
	while (off < m.len) {
		struct nlattr nla;

		memcpy(&nla, m.b + off, sizeof(nla));
		nla.nla_type &= (uint16_t)~NLA_F_NESTED;
		memcpy(m.b + off, &nla, sizeof(nla));
		off += NLA_ALIGN(nla.nla_len);
	}
	assert_int_equal(parse(&m, &t), 0);
	check_full(&t);
}

/* ---- the same through libnl, as another producer would write it ------ */

static void test_libnl_message(void **state)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct genlmsghdr *gh;
	struct nlattr *nest;
	struct taskdiag_task t;
	const char *s;
	const void *data;
	size_t len;

	(void)state;
	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, 0x20, 0, NLM_F_MULTI,
				    TASK_DIAG_CMD_GET, TASK_DIAG_FAMILY_VERSION));
	assert_int_equal(nla_put_u32(msg, TASK_DIAG_A_TASK_PID, 77), 0);
	assert_int_equal(nla_put_u32(msg, TASK_DIAG_A_TASK_TGID, 70), 0);
	nest = nla_nest_start(msg, TASK_DIAG_A_TASK_BASE);
	assert_non_null(nest);
	assert_int_equal(nla_put_u32(msg, TASK_DIAG_A_BASE_PPID, 70), 0);
	assert_int_equal(nla_put_u8(msg, TASK_DIAG_A_BASE_STATE, 'R'), 0);
	assert_int_equal(nla_put_string(msg, TASK_DIAG_A_BASE_COMM, "worker"), 0);
	assert_int_equal(nla_put_s32(msg, TASK_DIAG_A_BASE_TPGID, -1), 0);
	assert_int_equal(nla_put_u64(msg, TASK_DIAG_A_BASE_START_TIME, 99), 0);
	assert_int_equal(nla_nest_end(msg, nest), 0);
	nest = nla_nest_start(msg, TASK_DIAG_A_TASK_STAT);
	assert_non_null(nest);
	assert_int_equal(nla_put_u64(msg, TASK_DIAG_A_STAT_UTIME, 5000000000ull), 0);
	assert_int_equal(nla_put_s32(msg, TASK_DIAG_A_STAT_NICE, 19), 0);
	assert_int_equal(nla_nest_end(msg, nest), 0);
	nest = nla_nest_start(msg, TASK_DIAG_A_TASK_CRED);
	assert_non_null(nest);
	assert_int_equal(nla_put(msg, TASK_DIAG_A_CRED_GROUPS, 0, NULL), 0);
	assert_int_equal(nla_put_u32(msg, TASK_DIAG_A_CRED_UID, 1000), 0);
	assert_int_equal(nla_nest_end(msg, nest), 0);
	assert_int_equal(nla_put(msg, TASK_DIAG_A_TASK_CMDLINE, 3, "a\0b"), 0);

	gh = nlmsg_data(nlmsg_hdr(msg));
	assert_int_equal(parse_bytes(genlmsg_attrdata(gh, 0), (size_t)genlmsg_attrlen(gh, 0), &t),
			 0);
	assert_int_equal(taskdiag_task_pid(&t), 77);
	assert_int_equal(taskdiag_task_tgid(&t), 70);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_BASE_PPID), 70);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_BASE_STATE), 'R');
	assert_int_equal(taskdiag_task_get_string(&t, TASKDIAG_ITEM_BASE_COMM, &s), 0);
	assert_string_equal(s, "worker");
	assert_true(get_s(&t, TASKDIAG_ITEM_BASE_TPGID) == -1);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_BASE_START_TIME), 99);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_STAT_UTIME), 5000000000ull);
	assert_true(get_s(&t, TASKDIAG_ITEM_STAT_NICE) == 19);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_CRED_UID), 1000);
	/* zero-length GROUPS: present, empty */
	assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_CRED_GROUPS, &data, &len), 0);
	assert_int_equal(len, 0);
	assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_CMDLINE, &data, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(data, "a\0b", 3);
	/* groups not sent are absent */
	assert_absent(&t, TASKDIAG_ITEM_STATM_SIZE);
	assert_absent(&t, TASKDIAG_ITEM_IO_RCHAR);
	assert_absent(&t, TASKDIAG_ITEM_STATUS_UMASK);
	assert_absent(&t, TASKDIAG_ITEM_BASE_SID);
	nlmsg_free(msg);
}

/* ---- every row of the item table, driven by the table ----------------- */

static uint16_t nest_attr_of(uint32_t group)
{
	switch (group) {
	case TASKDIAG_GROUP_BASE:
		return TASK_DIAG_A_TASK_BASE;
	case TASKDIAG_GROUP_STAT:
		return TASK_DIAG_A_TASK_STAT;
	case TASKDIAG_GROUP_STATM:
		return TASK_DIAG_A_TASK_STATM;
	case TASKDIAG_GROUP_IO:
		return TASK_DIAG_A_TASK_IO;
	case TASKDIAG_GROUP_STATUS:
		return TASK_DIAG_A_TASK_STATUS;
	case TASKDIAG_GROUP_CRED:
		return TASK_DIAG_A_TASK_CRED;
	default:
		return 0;	/* top level */
	}
}

static uint64_t table_u(int i, int size)
{
	switch (size) {
	case 1:
		return (uint64_t)(0x80 | i) & 0xff;
	case 4:
		return 0x80000000u | (uint32_t)i;
	default:
		return 0x8000000000000000ull | ((uint64_t)i << 32) | (uint64_t)i;
	}
}

/* Put item i's attribute with a value derived from i (or @size bytes of it). */
static void put_table_item(struct msg *m, int i, int size)
{
	const struct taskdiag_item_info *r = &td_items[i];
	uint8_t payload[64];
	uint64_t u = table_u(i, r->attr_size);
	int32_t s = -(int32_t)(i + 1) * 1000;

	memset(payload, 0, sizeof(payload));
	if (r->type == TASKDIAG_TYPE_S64)
		memcpy(payload, &s, sizeof(s));
	else if (r->attr_size == 1)
		payload[0] = (uint8_t)u;
	else if (r->attr_size == 4) {
		uint32_t v = (uint32_t)u;

		memcpy(payload, &v, sizeof(v));
	} else
		memcpy(payload, &u, sizeof(u));
	assert_true(size <= (int)sizeof(payload));
	put_raw(m, r->attr, payload, (size_t)size);
}

static void put_table_blob(struct msg *m, int i)
{
	const struct taskdiag_item_info *r = &td_items[i];
	char str[32];
	uint32_t words[3] = { (uint32_t)i, 0xffffffffu, 7 };

	switch (r->type) {
	case TASKDIAG_TYPE_STRING:
		snprintf(str, sizeof(str), "s%d", i);
		put_str(m, r->attr, str);
		break;
	case TASKDIAG_TYPE_U32_ARRAY:
		put_raw(m, r->attr, words, sizeof(words));
		break;
	default:
		snprintf(str, sizeof(str), "b%d", i);
		put_raw(m, r->attr, str, strlen(str));	/* no NUL: bytes, not a string */
		break;
	}
}

static void build_from_table(struct msg *m)
{
	static const uint32_t groups[] = { TASKDIAG_GROUP_BASE, TASKDIAG_GROUP_STAT,
					   TASKDIAG_GROUP_STATM, TASKDIAG_GROUP_IO,
					   TASKDIAG_GROUP_STATUS, TASKDIAG_GROUP_CRED };

	m->len = 0;
	/* top level first: pid, tgid, cmdline */
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		if (nest_attr_of(td_items[i].group))
			continue;
		if (td_items[i].attr_size)
			put_table_item(m, i, td_items[i].attr_size);
		else
			put_table_blob(m, i);
	}
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		size_t n = nest_start(m, nest_attr_of(groups[g]));

		for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
			if (td_items[i].group != groups[g])
				continue;
			if (td_items[i].attr_size)
				put_table_item(m, i, td_items[i].attr_size);
			else
				put_table_blob(m, i);
		}
		nest_end(m, n);
	}
}

static void test_every_table_item_decoded(void **state)
{
	static struct msg m;
	struct taskdiag_task t;

	(void)state;
	build_from_table(&m);
	assert_int_equal(parse(&m, &t), 0);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = &td_items[i];
		const char *s;
		const void *data;
		size_t len;
		char want[32];

		if (!taskdiag_task_has(&t, (enum taskdiag_item)i))
			fail_msg("%s.%s not decoded", r->group_name, r->name);
		switch (r->type) {
		case TASKDIAG_TYPE_U64:
			if (get_u(&t, (enum taskdiag_item)i) != table_u(i, r->attr_size))
				fail_msg("%s.%s = %#llx, want %#llx", r->group_name, r->name,
					 (unsigned long long)get_u(&t, (enum taskdiag_item)i),
					 (unsigned long long)table_u(i, r->attr_size));
			break;
		case TASKDIAG_TYPE_S64:
			if (get_s(&t, (enum taskdiag_item)i) != -(int64_t)(i + 1) * 1000)
				fail_msg("%s.%s = %lld, want %lld (sign-extended)", r->group_name,
					 r->name, (long long)get_s(&t, (enum taskdiag_item)i),
					 (long long)(-(int64_t)(i + 1) * 1000));
			break;
		case TASKDIAG_TYPE_STRING:
			snprintf(want, sizeof(want), "s%d", i);
			assert_int_equal(taskdiag_task_get_string(&t, (enum taskdiag_item)i, &s), 0);
			assert_string_equal(s, want);
			break;
		case TASKDIAG_TYPE_U32_ARRAY: {
			const uint32_t words[3] = { (uint32_t)i, 0xffffffffu, 7 };

			assert_int_equal(
				taskdiag_task_get_bytes(&t, (enum taskdiag_item)i, &data, &len), 0);
			assert_int_equal(len, sizeof(words));
			assert_memory_equal(data, words, sizeof(words));
			break;
		}
		case TASKDIAG_TYPE_BYTES:
			snprintf(want, sizeof(want), "b%d", i);
			assert_int_equal(
				taskdiag_task_get_bytes(&t, (enum taskdiag_item)i, &data, &len), 0);
			assert_int_equal(len, strlen(want));
			assert_memory_equal(data, want, len);
			break;
		}
	}
}

/* ---- what is skipped -------------------------------------------------- */

static void test_unknown_attributes_skipped(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	const char *s;
	size_t n;
	uint8_t junk[13] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 };

	(void)state;
	m.len = 0;
	put_raw(&m, TASK_DIAG_A_TASK_MAX + 1, junk, sizeof(junk));	/* before the pid */
	put_u32(&m, TASK_DIAG_A_TASK_PID, 10);
	put_raw(&m, 0x3fff, junk, 3);
	put_raw(&m, TASK_DIAG_A_TASK_MAX + 7, NULL, 0);
	put_u32(&m, TASK_DIAG_A_TASK_TGID, 10);
	/* an unknown nest, with attributes inside */
	n = nest_start(&m, TASK_DIAG_A_TASK_MAX + 2);
	put_u32(&m, TASK_DIAG_A_BASE_PPID, 999);
	put_raw(&m, 1, junk, 1);
	nest_end(&m, n);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_raw(&m, TASK_DIAG_A_BASE_MAX + 1, junk, sizeof(junk));
	put_u32(&m, TASK_DIAG_A_BASE_PPID, 1);
	put_raw(&m, 0x3fff, junk, 2);
	put_raw(&m, TASK_DIAG_A_BASE_MAX + 3, NULL, 0);
	put_str(&m, TASK_DIAG_A_BASE_COMM, "init");
	put_raw(&m, TASK_DIAG_A_BASE_MAX + 2, junk, 8);
	nest_end(&m, n);
	n = nest_start(&m, TASK_DIAG_A_TASK_STAT);
	put_raw(&m, TASK_DIAG_A_STAT_MAX + 1, junk, 5);
	put_u64(&m, TASK_DIAG_A_STAT_UTIME, 17, TASK_DIAG_A_STAT_PAD);
	put_raw(&m, TASK_DIAG_A_STAT_MAX + 1, junk, 4);	/* same unknown twice */
	nest_end(&m, n);
	n = nest_start(&m, TASK_DIAG_A_TASK_CRED);
	put_raw(&m, TASK_DIAG_A_CRED_MAX + 1, junk, 11);
	nest_end(&m, n);
	put_raw(&m, TASK_DIAG_A_TASK_MAX + 1, junk, 1);	/* last */

	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_pid(&t), 10);
	assert_int_equal(taskdiag_task_tgid(&t), 10);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_BASE_PPID), 1);
	assert_int_equal(taskdiag_task_get_string(&t, TASKDIAG_ITEM_BASE_COMM, &s), 0);
	assert_string_equal(s, "init");
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_STAT_UTIME), 17);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		if (i == TASKDIAG_ITEM_PID || i == TASKDIAG_ITEM_TGID ||
		    i == TASKDIAG_ITEM_BASE_PPID || i == TASKDIAG_ITEM_BASE_COMM ||
		    i == TASKDIAG_ITEM_STAT_UTIME)
			continue;
		assert_absent(&t, (enum taskdiag_item)i);
	}
}

/* PAD attributes, zero-length as the kernel writes them and with payload. */
static void test_pad_skipped(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	size_t n;
	uint64_t zero = 0;

	(void)state;
	m.len = 0;
	put_raw(&m, TASK_DIAG_A_TASK_PAD, NULL, 0);
	put_u32(&m, TASK_DIAG_A_TASK_PID, 5);
	put_raw(&m, TASK_DIAG_A_TASK_PAD, &zero, 4);
	put_u32(&m, TASK_DIAG_A_TASK_TGID, 5);
	for (uint16_t nest = TASK_DIAG_A_TASK_BASE; nest <= TASK_DIAG_A_TASK_CRED; nest++) {
		n = nest_start(&m, nest);
		put_raw(&m, 1, NULL, 0);	/* every nest's PAD is attribute 1 */
		put_raw(&m, 1, &zero, 8);
		nest_end(&m, n);
	}
	n = nest_start(&m, TASK_DIAG_A_TASK_STATM);
	put_u64(&m, TASK_DIAG_A_STATM_SIZE, 8192, TASK_DIAG_A_STATM_PAD);
	put_u64(&m, TASK_DIAG_A_STATM_RESIDENT, 4096, TASK_DIAG_A_STATM_PAD);
	put_raw(&m, TASK_DIAG_A_STATM_PAD, NULL, 0);
	put_u64(&m, TASK_DIAG_A_STATM_SHARED, 0, TASK_DIAG_A_STATM_PAD);
	nest_end(&m, n);
	put_raw(&m, TASK_DIAG_A_TASK_PAD, NULL, 0);

	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_pid(&t), 5);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_STATM_SIZE), 8192);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_STATM_RESIDENT), 4096);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_STATM_SHARED), 0);
	assert_absent(&t, TASKDIAG_ITEM_STATM_TEXT);
	assert_absent(&t, TASKDIAG_ITEM_BASE_PPID);
	assert_absent(&t, TASKDIAG_ITEM_STAT_MINFLT);
	assert_absent(&t, TASKDIAG_ITEM_CRED_UID);
}

static void test_empty_nests(void **state)
{
	static struct msg m;
	struct taskdiag_task t;

	(void)state;
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 3);
	put_u32(&m, TASK_DIAG_A_TASK_TGID, 3);
	for (uint16_t nest = TASK_DIAG_A_TASK_BASE; nest <= TASK_DIAG_A_TASK_CRED; nest++)
		nest_end(&m, nest_start(&m, nest));
	put_raw(&m, TASK_DIAG_A_TASK_CMDLINE, NULL, 0);	/* a kernel thread's empty cmdline */

	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_pid(&t), 3);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const void *data;
		size_t len;

		if (i == TASKDIAG_ITEM_PID || i == TASKDIAG_ITEM_TGID)
			continue;
		if (i == TASKDIAG_ITEM_CMDLINE) {
			assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_CMDLINE, &data,
								 &len), 0);
			assert_int_equal(len, 0);
			continue;
		}
		assert_absent(&t, (enum taskdiag_item)i);
	}
}

/* ---- absent, zero and wrong-type getters ------------------------------ */

static void test_absent_is_not_zero(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	size_t n;
	uint64_t u = 1234;
	int64_t s = 1234;

	(void)state;
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 8);
	put_u32(&m, TASK_DIAG_A_TASK_TGID, 8);
	n = nest_start(&m, TASK_DIAG_A_TASK_STAT);
	put_u64(&m, TASK_DIAG_A_STAT_UTIME, 0, TASK_DIAG_A_STAT_PAD);
	put_s32(&m, TASK_DIAG_A_STAT_NICE, 0);
	put_u8(&m, TASK_DIAG_A_STAT_WCHAN, 0);
	nest_end(&m, n);

	assert_int_equal(parse(&m, &t), 0);
	assert_true(taskdiag_task_has(&t, TASKDIAG_ITEM_STAT_UTIME));
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM_STAT_UTIME, &u), 0);
	assert_int_equal(u, 0);
	assert_int_equal(taskdiag_task_get_s64(&t, TASKDIAG_ITEM_STAT_NICE, &s), 0);
	assert_true(s == 0);
	u = 1234;
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM_STAT_WCHAN, &u), 0);
	assert_int_equal(u, 0);
	/* the neighbours in the same nest, not sent */
	assert_false(taskdiag_task_has(&t, TASKDIAG_ITEM_STAT_STIME));
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM_STAT_STIME, &u), -ENOENT);
	assert_int_equal(taskdiag_task_get_s64(&t, TASKDIAG_ITEM_STAT_PRIORITY, &s), -ENOENT);
	/* a group not sent at all */
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM_STATM_SIZE, &u), -ENOENT);
	assert_absent(&t, TASKDIAG_ITEM_BASE_COMM);
	assert_absent(&t, TASKDIAG_ITEM_CMDLINE);
	assert_absent(&t, TASKDIAG_ITEM_CRED_GROUPS);
}

static void test_wrong_type_getter(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	uint64_t u;
	int64_t s;
	const char *str;
	const void *data;
	size_t len;

	(void)state;
	build_full(&m);
	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_get_s64(&t, TASKDIAG_ITEM_STAT_UTIME, &s), -EINVAL);
	assert_int_equal(taskdiag_task_get_string(&t, TASKDIAG_ITEM_STAT_UTIME, &str), -EINVAL);
	assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_STAT_UTIME, &data, &len), -EINVAL);
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM_BASE_TPGID, &u), -EINVAL);
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM_BASE_COMM, &u), -EINVAL);
	assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_BASE_COMM, &data, &len), -EINVAL);
	assert_int_equal(taskdiag_task_get_string(&t, TASKDIAG_ITEM_CMDLINE, &str), -EINVAL);
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM_CMDLINE, &u), -EINVAL);
	assert_int_equal(taskdiag_task_get_string(&t, TASKDIAG_ITEM_CRED_GROUPS, &str), -EINVAL);
	assert_int_equal(taskdiag_task_get_s64(&t, TASKDIAG_ITEM_CRED_GROUPS, &s), -EINVAL);
	/* out of range */
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM__COUNT, &u), -EINVAL);
	assert_int_equal(taskdiag_task_get_u64(&t, (enum taskdiag_item)-1, &u), -EINVAL);
	assert_int_equal(taskdiag_task_get_bytes(&t, (enum taskdiag_item)100000, &data, &len),
			 -EINVAL);
	assert_false(taskdiag_task_has(&t, TASKDIAG_ITEM__COUNT));
	assert_false(taskdiag_task_has(&t, (enum taskdiag_item)-1));
}

/* A second message into the same record leaves nothing of the first. */
static void test_record_reset(void **state)
{
	static struct msg m;
	struct taskdiag_task t;

	(void)state;
	build_full(&m);
	assert_int_equal(parse(&m, &t), 0);
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 9);
	put_u32(&m, TASK_DIAG_A_TASK_TGID, 9);
	assert_int_equal(td_nl_parse_task(m.b, m.len, &t), 0);
	assert_int_equal(taskdiag_task_pid(&t), 9);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++)
		if (i != TASKDIAG_ITEM_PID && i != TASKDIAG_ITEM_TGID)
			assert_absent(&t, (enum taskdiag_item)i);
}

/* ---- malformed messages ----------------------------------------------- */

static void test_missing_pid(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	size_t n;

	(void)state;
	m.len = 0;
	assert_int_equal(parse(&m, &t), -EBADMSG);	/* nothing at all */

	put_u32(&m, TASK_DIAG_A_TASK_TGID, 9);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_u32(&m, TASK_DIAG_A_BASE_PPID, 1);
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* a pid inside a nest is not the task's pid */
	m.len = 0;
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_u32(&m, TASK_DIAG_A_TASK_PID, 9);
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* only padding */
	m.len = 0;
	put_raw(&m, TASK_DIAG_A_TASK_PAD, NULL, 0);
	assert_int_equal(parse(&m, &t), -EBADMSG);
}

/* Cut the full message at every length: never a read past the end, and -EBADMSG unless the
 * cut falls exactly between attributes (or in the last one's padding) after the pid. */
static void test_truncated_everywhere(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	size_t starts[64], lens[64], n_attrs = 0, off = 0;

	(void)state;
	build_full(&m);
	while (off < m.len) {
		struct nlattr nla;

		memcpy(&nla, m.b + off, sizeof(nla));
		assert_true(n_attrs < 64);
		starts[n_attrs] = off;
		lens[n_attrs++] = nla.nla_len;
		off += NLA_ALIGN(nla.nla_len);
	}
	for (size_t cut = 0; cut < m.len; cut++) {
		int want = -EBADMSG, ret;

		for (size_t k = 0; k < n_attrs; k++) {
			if (cut < starts[k] || cut >= starts[k] + NLA_ALIGN(lens[k]))
				continue;
			if (k > 0 && (cut == starts[k] || cut - starts[k] >= lens[k]))
				want = 0;
			break;
		}
		ret = parse_bytes(m.b, cut, &t);
		if (ret != want)
			fail_msg("message cut to %zu of %zu bytes: %d, want %d", cut, m.len, ret,
				 want);
	}
}

static void test_truncated_attribute(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	size_t off, n;

	(void)state;
	/* top level: the last attribute claims 4 bytes more than there are */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	off = m.len;
	put_raw(&m, TASK_DIAG_A_TASK_CMDLINE, "abcd", 4);
	set_nla_len(&m, off, NLA_HDRLEN + 8);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* an unknown attribute running past the end is no better */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	off = m.len;
	put_raw(&m, TASK_DIAG_A_TASK_MAX + 1, "abcd", 4);
	set_nla_len(&m, off, 0xffff);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* a nest running past the end of the message */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_u32(&m, TASK_DIAG_A_BASE_PPID, 1);
	nest_end(&m, n);
	set_nla_len(&m, n, (uint16_t)(m.len - n + 8));
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* inside a nest: an attribute running past the nest (not past the message) */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	off = m.len;
	put_u32(&m, TASK_DIAG_A_BASE_PPID, 1);
	nest_end(&m, n);
	put_u32(&m, TASK_DIAG_A_TASK_TGID, 1);
	set_nla_len(&m, off, NLA_HDRLEN + 12);	/* reaches into TGID */
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* inside a nest: an unknown attribute running past the nest */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_STATUS);
	off = m.len;
	put_raw(&m, TASK_DIAG_A_STATUS_MAX + 1, "abcd", 4);
	nest_end(&m, n);
	put_u32(&m, TASK_DIAG_A_TASK_TGID, 1);
	set_nla_len(&m, off, NLA_HDRLEN + 8);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* nla_len below the header size */
	for (uint16_t bad = 0; bad < NLA_HDRLEN; bad++) {
		m.len = 0;
		put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
		off = m.len;
		put_u32(&m, TASK_DIAG_A_TASK_TGID, 1);
		set_nla_len(&m, off, bad);
		if (parse(&m, &t) != -EBADMSG)
			fail_msg("top-level nla_len %u accepted", bad);

		m.len = 0;
		put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
		n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
		off = m.len;
		put_u32(&m, TASK_DIAG_A_BASE_PPID, 1);
		nest_end(&m, n);
		set_nla_len(&m, off, bad);
		if (parse(&m, &t) != -EBADMSG)
			fail_msg("nested nla_len %u accepted", bad);
	}

	/* a nest whose payload ends in a stub shorter than an attribute header */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	put_raw(&m, TASK_DIAG_A_TASK_BASE | NLA_F_NESTED, "\x08\x00\x02\x00\x01\x00\x00\x00\x05\x00",
		10);
	assert_int_equal(parse(&m, &t), -EBADMSG);
}

/* Every fixed-size item, at sizes other than its own: 0, 1, 2, 3, its own +-1, double. */
static void test_wrong_size(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	int sizes[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 16 };

	(void)state;
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = &td_items[i];
		uint16_t nest = nest_attr_of(r->group);

		if (!r->attr_size)
			continue;
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			size_t n = 0;
			int ret;

			if (sizes[k] == r->attr_size)
				continue;
			m.len = 0;
			if (i != TASKDIAG_ITEM_PID)
				put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
			if (nest)
				n = nest_start(&m, nest);
			put_table_item(&m, i, sizes[k]);
			if (nest)
				nest_end(&m, n);
			if (i == TASKDIAG_ITEM_PID)
				put_u32(&m, TASK_DIAG_A_TASK_TGID, 1);
			ret = parse(&m, &t);
			if (ret != -EBADMSG)
				fail_msg("%s.%s (%u bytes) sent with %d bytes: %d, want -EBADMSG",
					 r->group_name, r->name, r->attr_size, sizes[k], ret);
		}
	}
}

/* The header's examples, spelled out: u32 with 2 or 8 bytes, u64 with 4. */
static void test_wrong_size_examples(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	uint64_t v = 1;
	size_t n;

	(void)state;
	m.len = 0;
	put_raw(&m, TASK_DIAG_A_TASK_PID, &v, 8);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	m.len = 0;
	put_raw(&m, TASK_DIAG_A_TASK_PID, &v, 2);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_raw(&m, TASK_DIAG_A_BASE_PPID, &v, 2);
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_CRED);
	put_raw(&m, TASK_DIAG_A_CRED_UID, &v, 8);
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_STAT);
	put_raw(&m, TASK_DIAG_A_STAT_UTIME, &v, 4);
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_raw(&m, TASK_DIAG_A_BASE_STATE, &v, 4);	/* u8 sent as u32 */
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* a group attribute that is not a nest at all: a u32 where BASE goes */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	put_raw(&m, TASK_DIAG_A_TASK_BASE, "\x01\x00\x00", 3);
	assert_int_equal(parse(&m, &t), -EBADMSG);
}

static void test_string_without_nul(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	const char *s;
	size_t n;

	(void)state;
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_raw(&m, TASK_DIAG_A_BASE_COMM, "bash", 4);
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* empty payload: not even a NUL */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_raw(&m, TASK_DIAG_A_BASE_COMM, NULL, 0);
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* the NUL in the padding does not count: nla_len says 4 bytes */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_raw(&m, TASK_DIAG_A_BASE_COMM, "abc", 3);	/* padded with one NUL */
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* the empty string is a string */
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	n = nest_start(&m, TASK_DIAG_A_TASK_BASE);
	put_str(&m, TASK_DIAG_A_BASE_COMM, "");
	nest_end(&m, n);
	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_get_string(&t, TASKDIAG_ITEM_BASE_COMM, &s), 0);
	assert_string_equal(s, "");
}

static void test_u32_array_length(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	const uint32_t words[2] = { 1, 2 };
	size_t n;

	(void)state;
	for (size_t len = 1; len < 8; len++) {
		if (len == 4)
			continue;
		m.len = 0;
		put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
		n = nest_start(&m, TASK_DIAG_A_TASK_CRED);
		put_raw(&m, TASK_DIAG_A_CRED_GROUPS, words, len);
		nest_end(&m, n);
		assert_int_equal(parse(&m, &t), -EBADMSG);

		m.len = 0;
		put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
		n = nest_start(&m, TASK_DIAG_A_TASK_STATUS);
		put_raw(&m, TASK_DIAG_A_STATUS_CPUS_ALLOWED, words, len);
		nest_end(&m, n);
		assert_int_equal(parse(&m, &t), -EBADMSG);

		m.len = 0;
		put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
		n = nest_start(&m, TASK_DIAG_A_TASK_STATUS);
		put_raw(&m, TASK_DIAG_A_STATUS_MEMS_ALLOWED, words, len);
		nest_end(&m, n);
		assert_int_equal(parse(&m, &t), -EBADMSG);
	}
}

/* cmdline is bytes: no NUL needed, odd lengths fine. */
static void test_cmdline_bytes(void **state)
{
	static struct msg m;
	struct taskdiag_task t;
	const void *data;
	size_t len;

	(void)state;
	m.len = 0;
	put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	put_raw(&m, TASK_DIAG_A_TASK_CMDLINE, "abc", 3);
	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_CMDLINE, &data, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(data, "abc", 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_every_group_decoded, teardown),
		cmocka_unit_test_teardown(test_nests_without_nested_flag, teardown),
		cmocka_unit_test_teardown(test_libnl_message, teardown),
		cmocka_unit_test_teardown(test_every_table_item_decoded, teardown),
		cmocka_unit_test_teardown(test_unknown_attributes_skipped, teardown),
		cmocka_unit_test_teardown(test_pad_skipped, teardown),
		cmocka_unit_test_teardown(test_empty_nests, teardown),
		cmocka_unit_test_teardown(test_absent_is_not_zero, teardown),
		cmocka_unit_test_teardown(test_wrong_type_getter, teardown),
		cmocka_unit_test_teardown(test_record_reset, teardown),
		cmocka_unit_test_teardown(test_missing_pid, teardown),
		cmocka_unit_test_teardown(test_truncated_everywhere, teardown),
		cmocka_unit_test_teardown(test_truncated_attribute, teardown),
		cmocka_unit_test_teardown(test_wrong_size, teardown),
		cmocka_unit_test_teardown(test_wrong_size_examples, teardown),
		cmocka_unit_test_teardown(test_string_without_nul, teardown),
		cmocka_unit_test_teardown(test_u32_array_length, teardown),
		cmocka_unit_test_teardown(test_cmdline_bytes, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
