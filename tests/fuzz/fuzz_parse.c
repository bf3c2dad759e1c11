// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for td_nl_parse_task(), the decoder of the bytes the
 * kernel (or anyone able to send to our socket) puts after the genetlink
 * header, and for the getters over every item of what it accepts.
 *
 * Built with clang -fsanitize=fuzzer,address,undefined (tests/fuzz/
 * CMakeLists.txt). Beyond "no crash, no out-of-bounds read", it checks the
 * decoder's contract:
 *  - the only error is -EBADMSG, and it leaves nothing in the record;
 *  - an accepted record has its pid; strings are NUL-terminated and, like
 *    every blob, lie inside the input; u32 arrays are whole words; values
 *    fit the attribute's size (a u8 item is at most 255, an s32 item within
 *    int32_t);
 *  - each getter answers for its own type only (-EINVAL for the others).
 *
 * Built with -DTD_FUZZ_SEED_MAIN instead, the same file is a small program
 * that writes the seed corpus into the folder given as its argument: a full
 * kernel-like message (every group, PADs before 64-bit values, NLA_F_NESTED
 * on nests), a minimal one, one with unknown attributes and one that ends
 * in a string without its padding.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <linux/netlink.h>
#include <linux/task_diag.h>

#ifndef TD_FUZZ_SEED_MAIN

#include "internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "fuzz_parse: %s:%d: %s\n", __FILE__,  \
				__LINE__, #cond);                             \
			__builtin_trap();                                     \
		}                                                             \
	} while (0)

static void check_inside(const void *p, size_t len, const uint8_t *data, size_t size)
{
	const uint8_t *q = p;

	CHECK(len == 0 || (q >= data && q + len <= data + size));
}

static void check_item(const struct taskdiag_task *t, enum taskdiag_item item,
		       const uint8_t *data, size_t size)
{
	const struct taskdiag_item_info *r = taskdiag_item_info(item);
	bool has = taskdiag_task_has(t, item);
	int want = has ? 0 : -ENOENT;
	uint64_t u;
	int64_t s;
	const char *str;
	const void *blob;
	size_t len;
	volatile uint8_t sink = 0;

	/* the right getter */
	switch (r->type) {
	case TASKDIAG_TYPE_U64:
		CHECK(taskdiag_task_get_u64(t, item, &u) == want);
		if (has && r->attr_size < 8)
			CHECK(u < (1ull << (8 * r->attr_size)));
		break;
	case TASKDIAG_TYPE_S64:
		CHECK(taskdiag_task_get_s64(t, item, &s) == want);
		if (has && r->attr_size == 4)
			CHECK(s >= INT32_MIN && s <= INT32_MAX);
		break;
	case TASKDIAG_TYPE_STRING:
		CHECK(taskdiag_task_get_string(t, item, &str) == want);
		if (has) {
			len = strlen(str);	/* ASan: stops inside the input */
			check_inside(str, len + 1, data, size);
		}
		break;
	case TASKDIAG_TYPE_BYTES:
	case TASKDIAG_TYPE_U32_ARRAY:
		CHECK(taskdiag_task_get_bytes(t, item, &blob, &len) == want);
		if (has) {
			check_inside(blob, len, data, size);
			for (size_t i = 0; i < len; i++)
				sink ^= ((const uint8_t *)blob)[i];
			if (r->type == TASKDIAG_TYPE_U32_ARRAY)
				CHECK(len % 4 == 0);
		}
		break;
	}
	(void)sink;

	/* the wrong ones: -EINVAL when present (absence may be said first) */
	if (!has)
		return;
	if (r->type != TASKDIAG_TYPE_U64)
		CHECK(taskdiag_task_get_u64(t, item, &u) == -EINVAL);
	if (r->type != TASKDIAG_TYPE_S64)
		CHECK(taskdiag_task_get_s64(t, item, &s) == -EINVAL);
	if (r->type != TASKDIAG_TYPE_STRING)
		CHECK(taskdiag_task_get_string(t, item, &str) == -EINVAL);
	if (r->type != TASKDIAG_TYPE_BYTES && r->type != TASKDIAG_TYPE_U32_ARRAY)
		CHECK(taskdiag_task_get_bytes(t, item, &blob, &len) == -EINVAL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct taskdiag_task t;
	int err, i;

	err = td_nl_parse_task(data, size, &t);
	if (err) {
		CHECK(err == -EBADMSG);
		for (i = 0; i < TASKDIAG_ITEM__COUNT; i++)
			CHECK(!taskdiag_task_has(&t, (enum taskdiag_item)i));
		return 0;
	}
	CHECK(taskdiag_task_has(&t, TASKDIAG_ITEM_PID));
	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++)
		check_item(&t, (enum taskdiag_item)i, data, size);
	CHECK(!taskdiag_task_has(&t, TASKDIAG_ITEM__COUNT));
	return 0;
}

#else /* TD_FUZZ_SEED_MAIN: write the seed corpus */

struct msg {
	uint8_t b[8192];
	size_t len;
};

static void put(struct msg *m, uint16_t type, const void *p, size_t n)
{
	struct nlattr nla = { .nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = type };
	size_t total = NLA_ALIGN(NLA_HDRLEN + n);

	memcpy(m->b + m->len, &nla, sizeof(nla));
	if (n)
		memcpy(m->b + m->len + NLA_HDRLEN, p, n);
	memset(m->b + m->len + NLA_HDRLEN + n, 0, total - NLA_HDRLEN - n);
	m->len += total;
}

static void put_u8(struct msg *m, uint16_t type, uint8_t v)
{
	put(m, type, &v, 1);
}

static void put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	put(m, type, &v, 4);
}

static void put_u64(struct msg *m, uint16_t type, uint64_t v)
{
	/* a PAD (attribute 1 of every set) where the kernel would put one */
	if ((20 + m->len + NLA_HDRLEN) % 8)
		put(m, 1, NULL, 0);
	put(m, type, &v, 8);
}

static size_t nest_start(struct msg *m, uint16_t type)
{
	size_t off = m->len;

	put(m, type | NLA_F_NESTED, NULL, 0);
	return off;
}

static void nest_end(struct msg *m, size_t off)
{
	uint16_t len = (uint16_t)(m->len - off);

	memcpy(m->b + off, &len, sizeof(len));
}

/* Every attribute of a nest, u32 or u64 as the header says (u8 and blobs below). */
static void put_range(struct msg *m, uint16_t first, uint16_t last, int bits)
{
	for (uint16_t a = first; a <= last; a++) {
		if (bits == 64)
			put_u64(m, a, 0x100000000ull * a + a);
		else
			put_u32(m, a, a);
	}
}

static void build_full(struct msg *m)
{
	static const uint32_t words[2] = { 0xffffffffu, 0x3 };
	size_t n;

	m->len = 0;
	put_u32(m, TASK_DIAG_A_TASK_PID, 4242);
	put_u32(m, TASK_DIAG_A_TASK_TGID, 4240);

	n = nest_start(m, TASK_DIAG_A_TASK_BASE);
	put_range(m, TASK_DIAG_A_BASE_PPID, TASK_DIAG_A_BASE_TPGID, 32);
	put_u8(m, TASK_DIAG_A_BASE_STATE, 'S');
	put(m, TASK_DIAG_A_BASE_COMM, "bash", 5);
	put_u32(m, TASK_DIAG_A_BASE_FLAGS, 0x400100);
	put_u64(m, TASK_DIAG_A_BASE_START_TIME, 123456789);
	put_u32(m, TASK_DIAG_A_BASE_NUM_THREADS, 1);
	nest_end(m, n);

	n = nest_start(m, TASK_DIAG_A_TASK_STAT);
	put_range(m, TASK_DIAG_A_STAT_MINFLT, TASK_DIAG_A_STAT_CSTIME, 64);
	put_range(m, TASK_DIAG_A_STAT_PRIORITY, TASK_DIAG_A_STAT_NICE, 32);
	put_range(m, TASK_DIAG_A_STAT_VSIZE, TASK_DIAG_A_STAT_KSTK_EIP, 64);
	put_u8(m, TASK_DIAG_A_STAT_WCHAN, 1);
	put_range(m, TASK_DIAG_A_STAT_EXIT_SIGNAL, TASK_DIAG_A_STAT_POLICY, 32);
	put_range(m, TASK_DIAG_A_STAT_BLKIO_DELAY, TASK_DIAG_A_STAT_ENV_END, 64);
	put_u32(m, TASK_DIAG_A_STAT_EXIT_CODE, 0xffffffffu);
	nest_end(m, n);

	n = nest_start(m, TASK_DIAG_A_TASK_STATM);
	put_range(m, TASK_DIAG_A_STATM_SIZE, TASK_DIAG_A_STATM_DT, 64);
	nest_end(m, n);

	n = nest_start(m, TASK_DIAG_A_TASK_IO);
	put_range(m, TASK_DIAG_A_IO_RCHAR, TASK_DIAG_A_IO_CANCELLED_WRITE_BYTES, 64);
	nest_end(m, n);

	n = nest_start(m, TASK_DIAG_A_TASK_STATUS);
	put_range(m, TASK_DIAG_A_STATUS_UMASK, TASK_DIAG_A_STATUS_FDSIZE, 32);
	put_range(m, TASK_DIAG_A_STATUS_VM_PEAK, TASK_DIAG_A_STATUS_HUGETLB_PAGES, 64);
	put_u8(m, TASK_DIAG_A_STATUS_CORE_DUMPING, 0);
	put_u8(m, TASK_DIAG_A_STATUS_THP_ENABLED, 1);
	put_u32(m, TASK_DIAG_A_STATUS_SIGQ_QUEUED, 2);
	put_range(m, TASK_DIAG_A_STATUS_SIGQ_LIMIT, TASK_DIAG_A_STATUS_SIG_CAUGHT, 64);
	put_u8(m, TASK_DIAG_A_STATUS_NO_NEW_PRIVS, 0);
	put_u8(m, TASK_DIAG_A_STATUS_SECCOMP, 0);
	put_u32(m, TASK_DIAG_A_STATUS_SECCOMP_FILTERS, 0);
	put(m, TASK_DIAG_A_STATUS_CPUS_ALLOWED, words, sizeof(words));
	put(m, TASK_DIAG_A_STATUS_MEMS_ALLOWED, words, 4);
	put_range(m, TASK_DIAG_A_STATUS_VOLUNTARY_CTXT_SWITCHES,
		  TASK_DIAG_A_STATUS_NONVOLUNTARY_CTXT_SWITCHES, 64);
	nest_end(m, n);

	n = nest_start(m, TASK_DIAG_A_TASK_CRED);
	put_range(m, TASK_DIAG_A_CRED_UID, TASK_DIAG_A_CRED_FSGID, 32);
	put(m, TASK_DIAG_A_CRED_GROUPS, words, sizeof(words));
	put_range(m, TASK_DIAG_A_CRED_CAP_INHERITABLE, TASK_DIAG_A_CRED_CAP_AMBIENT, 64);
	nest_end(m, n);

	put(m, TASK_DIAG_A_TASK_CMDLINE, "bash\0-l", 8);
}

static void build_min(struct msg *m)
{
	m->len = 0;
	put_u32(m, TASK_DIAG_A_TASK_PID, 1);
}

static void build_unknown(struct msg *m)
{
	size_t n;

	m->len = 0;
	put(m, TASK_DIAG_A_TASK_MAX + 1, "xyz", 3);
	put_u32(m, TASK_DIAG_A_TASK_PID, 2);
	n = nest_start(m, TASK_DIAG_A_TASK_BASE);
	put(m, TASK_DIAG_A_BASE_MAX + 1, "abcdefgh", 8);
	put(m, TASK_DIAG_A_BASE_PAD, NULL, 0);
	put(m, TASK_DIAG_A_BASE_COMM, "", 1);
	nest_end(m, n);
	n = nest_start(m, TASK_DIAG_A_TASK_CRED);
	put(m, TASK_DIAG_A_CRED_GROUPS, NULL, 0);
	nest_end(m, n);
}

/* A string last, its padding cut off: one flipped byte from running off the end. */
static void build_string_last(struct msg *m)
{
	size_t n;

	m->len = 0;
	put_u32(m, TASK_DIAG_A_TASK_PID, 3);
	n = nest_start(m, TASK_DIAG_A_TASK_BASE);
	put(m, TASK_DIAG_A_BASE_COMM, "kthreadd", 9);
	m->len -= 3;
	nest_end(m, n);
}

static int write_seed(const char *dir, const char *name, const struct msg *m)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(m->b, 1, m->len, f) != m->len || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct msg m;
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	build_full(&m);
	err |= write_seed(argv[1], "full", &m);
	build_min(&m);
	err |= write_seed(argv[1], "min", &m);
	build_unknown(&m);
	err |= write_seed(argv[1], "unknown", &m);
	build_string_last(&m);
	err |= write_seed(argv[1], "string_last", &m);
	return err;
}

#endif /* TD_FUZZ_SEED_MAIN */
