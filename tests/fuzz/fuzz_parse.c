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
 *  - each getter answers for its own type only (-EINVAL for the others);
 *  - the bulk getter (taskdiag_task_get_items()) says what they say.
 *
 * Built with -DTD_FUZZ_SEED_MAIN instead, the same file is a small program
 * that writes the seed corpus into the folder given as its argument: a full
 * kernel-like message (every group struct with every mask bit, the
 * variable-length attributes), a minimal one, one with unknown attributes,
 * one that ends in a string without its padding, structs one byte short of
 * VER0 and with a tail, and one with a leading PAD (the structs 8-byte
 * aligned in the message).
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

/* The bulk getter over every item (and one out of range) against the typed ones. */
static void check_bulk(const struct taskdiag_task *t)
{
	static enum taskdiag_item items[TASKDIAG_ITEM__COUNT + 1];
	static struct taskdiag_value vals[TASKDIAG_ITEM__COUNT + 1];
	int present = 0, i;

	for (i = 0; i <= TASKDIAG_ITEM__COUNT; i++)
		items[i] = (enum taskdiag_item)i;
	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++)
		present += taskdiag_task_has(t, items[i]);
	CHECK(taskdiag_task_get_items(t, items, TASKDIAG_ITEM__COUNT + 1, vals) == present);
	CHECK(vals[TASKDIAG_ITEM__COUNT].err == -EINVAL);
	for (i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = taskdiag_item_info(items[i]);
		uint64_t u;
		const void *blob;
		const char *str;
		size_t len;

		CHECK(vals[i].err == (taskdiag_task_has(t, items[i]) ? 0 : -ENOENT));
		if (vals[i].err)
			continue;
		if (r->type == TASKDIAG_TYPE_U64) {
			CHECK(taskdiag_task_get_u64(t, items[i], &u) == 0 && u == vals[i].u);
		} else if (r->type == TASKDIAG_TYPE_S64) {
			int64_t s;

			CHECK(taskdiag_task_get_s64(t, items[i], &s) == 0 && s == vals[i].s);
		} else if (r->type == TASKDIAG_TYPE_STRING) {
			CHECK(taskdiag_task_get_string(t, items[i], &str) == 0 &&
			      str == vals[i].data && strlen(str) == vals[i].len);
		} else {
			CHECK(taskdiag_task_get_bytes(t, items[i], &blob, &len) == 0 &&
			      blob == vals[i].data && len == vals[i].len);
		}
	}
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
	check_bulk(&t);
	return 0;
}

#else /* TD_FUZZ_SEED_MAIN: write the seed corpus */

#include "../unit/td_msg.h"

/* Every field of every group struct, with its mask bit, from the header's members. */
static void put_structs(struct td_msg *m, size_t tail, long short_by)
{
	static const uint32_t words[2] = { 0xffffffffu, 0x3 };
	static uint8_t buf[512];
	struct task_diag_base b = { .mask = (1ull << (TASK_DIAG_BASE_F_STATE + 1)) - 1,
		.ppid = 1, .pgid = 2, .sid = 3, .tracer_pid = 4, .tty_nr = 0x8801, .tpgid = -1,
		.flags = 0x400100, .num_threads = 1, .start_time = 123456789, .state = 'S' };
	struct task_diag_stat st = { .mask = (1ull << (TASK_DIAG_STAT_F_WCHAN + 1)) - 1,
		.minflt = 1, .utime = 1000000000, .vsize = 1 << 20, .rsslim = UINT64_MAX,
		.priority = -51, .nice = -5, .exit_signal = 17, .exit_code = -1, .wchan = 1 };
	struct task_diag_statm sm = { .mask = (1ull << (TASK_DIAG_STATM_F_DT + 1)) - 1,
		.size = 8192, .resident = 4096 };
	struct task_diag_io io = { .mask = (1ull << (TASK_DIAG_IO_F_CANCELLED_WRITE_BYTES + 1)) - 1,
		.rchar = 11, .wchar = 12 };
	struct task_diag_status ss = { .mask = (1ull << (TASK_DIAG_STATUS_F_SECCOMP + 1)) - 1,
		.vm_peak = 4096, .umask = 022, .fdsize = 64, .thp_enabled = 1, .seccomp = 2 };
	struct task_diag_cred cr = { .mask = (1ull << (TASK_DIAG_CRED_F_CAP_AMBIENT + 1)) - 1,
		.uid = 1000, .ngroups = 2, .cap_bounding = 0x1ffffffffffull };
	const struct {
		uint16_t attr;
		const void *p;
		size_t size;
	} s[] = {
		{ TASK_DIAG_A_TASK_BASE, &b, sizeof(b) },
		{ TASK_DIAG_A_TASK_STAT, &st, sizeof(st) },
		{ TASK_DIAG_A_TASK_STATM, &sm, sizeof(sm) },
		{ TASK_DIAG_A_TASK_IO, &io, sizeof(io) },
		{ TASK_DIAG_A_TASK_STATUS, &ss, sizeof(ss) },
		{ TASK_DIAG_A_TASK_CRED, &cr, sizeof(cr) },
	};

	for (size_t k = 0; k < sizeof(s) / sizeof(s[0]); k++) {
		memset(buf, 0xee, sizeof(buf));
		memcpy(buf, s[k].p, s[k].size);
		td_msg_put(m, s[k].attr, buf, (size_t)((long)(s[k].size + tail) - short_by));
		if (s[k].attr == TASK_DIAG_A_TASK_BASE)
			td_msg_put(m, TASK_DIAG_A_TASK_COMM, "bash", 5);
		if (s[k].attr == TASK_DIAG_A_TASK_STATUS) {
			td_msg_put(m, TASK_DIAG_A_TASK_CPUS_ALLOWED, words, sizeof(words));
			td_msg_put(m, TASK_DIAG_A_TASK_MEMS_ALLOWED, words, 4);
		}
		if (s[k].attr == TASK_DIAG_A_TASK_CRED)
			td_msg_put(m, TASK_DIAG_A_TASK_GROUPS, words, sizeof(words));
	}
}

static void build_full(struct td_msg *m, size_t tail, long short_by)
{
	m->len = 0;
	td_msg_put_u32(m, TASK_DIAG_A_TASK_PID, 4242);
	td_msg_put_u32(m, TASK_DIAG_A_TASK_TGID, 4240);
	put_structs(m, tail, short_by);
	td_msg_put(m, TASK_DIAG_A_TASK_CMDLINE, "bash\0-l", 8);
	td_msg_put_u32(m, TASK_DIAG_A_TASK_CMDLINE_LEN, 9000);
}

static void build_padded(struct td_msg *m)
{
	m->len = 0;
	td_msg_put(m, TASK_DIAG_A_TASK_PAD, NULL, 0);
	td_msg_put_u32(m, TASK_DIAG_A_TASK_PID, 7);
	put_structs(m, 0, 0);
}

static void build_min(struct td_msg *m)
{
	m->len = 0;
	td_msg_put_u32(m, TASK_DIAG_A_TASK_PID, 1);
}

static void build_unknown(struct td_msg *m)
{
	m->len = 0;
	td_msg_put(m, TASK_DIAG_A_TASK_MAX + 1, "xyz", 3);
	td_msg_put_u32(m, TASK_DIAG_A_TASK_PID, 2);
	td_msg_put(m, TASK_DIAG_A_TASK_MAX + 2, "abcdefgh", 8);
	td_msg_put(m, TASK_DIAG_A_TASK_PAD, NULL, 0);
	td_msg_put(m, TASK_DIAG_A_TASK_COMM, "", 1);
	td_msg_put(m, TASK_DIAG_A_TASK_GROUPS, NULL, 0);
	td_msg_put_u32(m, TASK_DIAG_A_TASK_SHOW, 0x7f);
}

/* A string last, its padding cut off: one flipped byte from running off the end. */
static void build_string_last(struct td_msg *m)
{
	m->len = 0;
	td_msg_put_u32(m, TASK_DIAG_A_TASK_PID, 3);
	td_msg_put(m, TASK_DIAG_A_TASK_COMM, "kthreadd", 9);
	m->len -= 3;
}

static int write_seed(const char *dir, const char *name, const struct td_msg *m)
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
	static struct td_msg m;
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	build_full(&m, 0, 0);
	err |= write_seed(argv[1], "full", &m);
	build_full(&m, 12, 0);
	err |= write_seed(argv[1], "tail", &m);
	build_full(&m, 0, 1);
	err |= write_seed(argv[1], "short", &m);
	build_padded(&m);
	err |= write_seed(argv[1], "padded", &m);
	build_min(&m);
	err |= write_seed(argv[1], "min", &m);
	build_unknown(&m);
	err |= write_seed(argv[1], "unknown", &m);
	build_string_last(&m);
	err |= write_seed(argv[1], "string_last", &m);
	return err;
}

#endif /* TD_FUZZ_SEED_MAIN */
