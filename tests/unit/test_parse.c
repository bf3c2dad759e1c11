// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * td_nl_parse_task(): ABI version 2 reply messages built in memory and fed
 * to the decoder; values come back through the public getters.
 *
 * The group structs are written field by field from the uapi header alone:
 * each value's bytes at offsetof(struct task_diag_<group>, <field>), its
 * mask bit TASK_DIAG_<GROUP>_F_<FIELD> set in the leading u64 (never the
 * library's item table or record layout). Messages are also built with
 * libnl, as another producer would write them.
 *
 * The decoder gets an exact-size heap copy of each message, so that under
 * ASan a read one byte past the end is caught, and the copy starts 4 bytes
 * off an 8-byte boundary, as attributes do after a 20-byte nlmsghdr +
 * genlmsghdr, so that UBSan catches a struct cast over the payload (other
 * offsets are tried too).
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
#include "td_msg.h"

/* ---- the message builder (td_msg.h), and one thing more ---------------- */

static void set_nla_len(struct td_msg *m, size_t off, uint16_t len)
{
	memcpy(m->b + off, &len, sizeof(len));
}

/* ---- feeding the decoder ---------------------------------------------- */

static uint8_t *copy_base;	/* the current message's heap copy */
static uint8_t *copy_at;
static size_t copy_len;

/* Decode a copy of @p that starts @shift bytes past an 8-byte boundary. */
static int parse_at(const void *p, size_t len, size_t shift, struct taskdiag_task *t)
{
	free(copy_base);
	copy_base = malloc(len + shift + 1);	/* malloc: 16-byte aligned */
	assert_non_null(copy_base);
	copy_at = copy_base + shift;
	memcpy(copy_at, p, len);
	copy_len = len;
	memset(t, 0xa5, sizeof(*t));	/* garbage: the decoder must reset it */
	return td_nl_parse_task(copy_at, len, t);
}

static int parse_bytes(const void *p, size_t len, struct taskdiag_task *t)
{
	return parse_at(p, len, 4, t);
}

static int parse(const struct td_msg *m, struct taskdiag_task *t)
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

	return q >= copy_at && q + len <= copy_at + copy_len;
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

	if (taskdiag_task_has(t, item))
		fail_msg("%s.%s: present, want absent", td_items[item].group_name,
			 td_items[item].name);
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

/* ---- every group struct, written from the header alone ---------------- */

/*
 * One field: its item, the attribute of its struct, its offset, size (< 0:
 * signed) and mask bit as the uapi header gives them, and a value.
 */
struct fixed {
	enum taskdiag_item item;
	uint16_t attr;
	uint16_t off;
	int size;
	unsigned int bit;
	uint64_t u;
	int64_t s;
};

#define MSIZE(g, f) ((int)sizeof(((struct task_diag_##g *)0)->f))
#define U(G, g, F, f, v)							\
	{ TASKDIAG_ITEM_##G##_##F, TASK_DIAG_A_TASK_##G, offsetof(struct task_diag_##g, f),	\
	  MSIZE(g, f), TASK_DIAG_##G##_F_##F, (uint64_t)(v), 0 }
#define S(G, g, F, f, v)							\
	{ TASKDIAG_ITEM_##G##_##F, TASK_DIAG_A_TASK_##G, offsetof(struct task_diag_##g, f),	\
	  -MSIZE(g, f), TASK_DIAG_##G##_F_##F, 0, (v) }

static const struct fixed fixed_values[] = {
	U(BASE, base, PPID, ppid, 1),
	U(BASE, base, PGID, pgid, 4240),
	U(BASE, base, SID, sid, 4000),
	U(BASE, base, TRACER_PID, tracer_pid, 0),
	U(BASE, base, TTY_NR, tty_nr, 0x8801),
	S(BASE, base, TPGID, tpgid, -1),
	U(BASE, base, STATE, state, 'S'),
	U(BASE, base, FLAGS, flags, 0x80400140u),
	U(BASE, base, START_TIME, start_time, 1234567890123ull),
	U(BASE, base, NUM_THREADS, num_threads, 3),

	U(STAT, stat, MINFLT, minflt, 100),
	U(STAT, stat, CMINFLT, cminflt, 0),
	U(STAT, stat, MAJFLT, majflt, 7),
	U(STAT, stat, CMAJFLT, cmajflt, 1),
	U(STAT, stat, UTIME, utime, 30000000),
	U(STAT, stat, STIME, stime, 10000000),
	U(STAT, stat, CUTIME, cutime, 1ull << 40),
	U(STAT, stat, CSTIME, cstime, 5),
	S(STAT, stat, PRIORITY, priority, -51),
	S(STAT, stat, NICE, nice, -5),
	U(STAT, stat, VSIZE, vsize, 0x7fff12345000ull),
	U(STAT, stat, RSS, rss, 4096 * 321),
	U(STAT, stat, RSSLIM, rsslim, UINT64_MAX),
	U(STAT, stat, START_CODE, start_code, 0x400000),
	U(STAT, stat, END_CODE, end_code, 0x401000),
	U(STAT, stat, START_STACK, start_stack, 0x7ffd00000000ull),
	U(STAT, stat, KSTK_ESP, kstk_esp, 0),
	U(STAT, stat, KSTK_EIP, kstk_eip, 0),
	U(STAT, stat, WCHAN, wchan, 1),
	S(STAT, stat, EXIT_SIGNAL, exit_signal, -1),
	U(STAT, stat, PROCESSOR, processor, 1),
	U(STAT, stat, RT_PRIORITY, rt_priority, 50),
	U(STAT, stat, POLICY, policy, 1),
	U(STAT, stat, BLKIO_DELAY, blkio_delay, 20000000),
	U(STAT, stat, GUEST_TIME, guest_time, 0),
	U(STAT, stat, CGUEST_TIME, cguest_time, 40000000),
	U(STAT, stat, START_DATA, start_data, 0x600000),
	U(STAT, stat, END_DATA, end_data, 0x601000),
	U(STAT, stat, START_BRK, start_brk, 0x1000000),
	U(STAT, stat, ARG_START, arg_start, 0x7ffd00001000ull),
	U(STAT, stat, ARG_END, arg_end, 0x7ffd00001010ull),
	U(STAT, stat, ENV_START, env_start, 0x7ffd00001010ull),
	U(STAT, stat, ENV_END, env_end, 0x7ffd00002000ull),
	S(STAT, stat, EXIT_CODE, exit_code, INT32_MIN),

	U(STATM, statm, SIZE, size, 4096ull * 5000),
	U(STATM, statm, RESIDENT, resident, 4096ull * 321),
	U(STATM, statm, SHARED, shared, 4096ull * 200),
	U(STATM, statm, TEXT, text, 4096ull * 1),
	U(STATM, statm, LIB, lib, 0),
	U(STATM, statm, DATA, data, 4096ull * 90),
	U(STATM, statm, DT, dt, 0),
	U(STATM, statm, LOCKED, locked, 4096ull * 16),

	U(IO, io, RCHAR, rchar, 11),
	U(IO, io, WCHAR, wchar, 12),
	U(IO, io, SYSCR, syscr, 13),
	U(IO, io, SYSCW, syscw, 14),
	U(IO, io, READ_BYTES, read_bytes, 4096 * 15),
	U(IO, io, WRITE_BYTES, write_bytes, 4096 * 16),
	U(IO, io, CANCELLED_WRITE_BYTES, cancelled_write_bytes, 0),

	U(STATUS, status, UMASK, umask, 022),
	U(STATUS, status, FDSIZE, fdsize, 64),
	U(STATUS, status, VM_PEAK, vm_peak, 1024ull * 20001),
	U(STATUS, status, VM_LCK, vm_lck, 0),
	U(STATUS, status, VM_PIN, vm_pin, 0),
	U(STATUS, status, VM_HWM, vm_hwm, 1024ull * 1300),
	U(STATUS, status, VM_RSS, vm_rss, 1024ull * 1284),
	U(STATUS, status, RSS_ANON, rss_anon, 1024ull * 84),
	U(STATUS, status, RSS_FILE, rss_file, 1024ull * 1200),
	U(STATUS, status, RSS_SHMEM, rss_shmem, 0),
	U(STATUS, status, VM_DATA, vm_data, 1024ull * 360),
	U(STATUS, status, VM_STK, vm_stk, 1024ull * 132),
	U(STATUS, status, VM_EXE, vm_exe, 1024ull * 4),
	U(STATUS, status, VM_LIB, vm_lib, 1024ull * 1800),
	U(STATUS, status, VM_PTE, vm_pte, 1024ull * 52),
	U(STATUS, status, VM_SWAP, vm_swap, 0),
	U(STATUS, status, HUGETLB_PAGES, hugetlb_pages, 0),
	U(STATUS, status, CORE_DUMPING, core_dumping, 0),
	U(STATUS, status, THP_ENABLED, thp_enabled, 1),
	U(STATUS, status, SIGQ_QUEUED, sigq_queued, 2),
	U(STATUS, status, SIGQ_LIMIT, sigq_limit, 95381),
	U(STATUS, status, SIG_PENDING, sig_pending, 0),
	U(STATUS, status, SIG_SHARED_PENDING, sig_shared_pending, 1ull << 63),
	U(STATUS, status, SIG_BLOCKED, sig_blocked, 0x10002),
	U(STATUS, status, SIG_IGNORED, sig_ignored, 0x384004),
	U(STATUS, status, SIG_CAUGHT, sig_caught, 0x4b813efb),
	U(STATUS, status, NO_NEW_PRIVS, no_new_privs, 1),
	U(STATUS, status, SECCOMP, seccomp, 2),
	U(STATUS, status, SECCOMP_FILTERS, seccomp_filters, 1),
	U(STATUS, status, VOLUNTARY_CTXT_SWITCHES, voluntary_ctxt_switches, 1000),
	U(STATUS, status, NONVOLUNTARY_CTXT_SWITCHES, nonvoluntary_ctxt_switches, 3),

	U(CRED, cred, UID, uid, 1000),
	U(CRED, cred, EUID, euid, 0),
	U(CRED, cred, SUID, suid, 65534),
	U(CRED, cred, FSUID, fsuid, 0xfffffffeu),
	U(CRED, cred, GID, gid, 100),
	U(CRED, cred, EGID, egid, 101),
	U(CRED, cred, SGID, sgid, 102),
	U(CRED, cred, FSGID, fsgid, 0xffffffffu),
	U(CRED, cred, NGROUPS, ngroups, 3),
	U(CRED, cred, CAP_INHERITABLE, cap_inheritable, 0),
	U(CRED, cred, CAP_PERMITTED, cap_permitted, 0x1ffffffffffull),
	U(CRED, cred, CAP_EFFECTIVE, cap_effective, 0x1ffffffffffull),
	U(CRED, cred, CAP_BOUNDING, cap_bounding, 0x1ffffffffffull),
	U(CRED, cred, CAP_AMBIENT, cap_ambient, 1ull << 12),
	U(MEM, mem, RSS, rss, 4096),
	U(MEM, mem, PSS, pss, 9216),
	U(MEM, mem, PSS_DIRTY, pss_dirty, 14336),
	U(MEM, mem, PSS_ANON, pss_anon, 16384),
	U(MEM, mem, PSS_FILE, pss_file, 21504),
	U(MEM, mem, PSS_SHMEM, pss_shmem, 26624),
	U(MEM, mem, SHARED_CLEAN, shared_clean, 28672),
	U(MEM, mem, SHARED_DIRTY, shared_dirty, 33792),
	U(MEM, mem, PRIVATE_CLEAN, private_clean, 38912),
	U(MEM, mem, PRIVATE_DIRTY, private_dirty, 40960),
	U(MEM, mem, REFERENCED, referenced, 46080),
	U(MEM, mem, ANONYMOUS, anonymous, 51200),
	U(MEM, mem, LAZYFREE, lazyfree, 53248),
	U(MEM, mem, ANON_HUGE_PAGES, anon_huge_pages, 58368),
	U(MEM, mem, SHMEM_PMD_MAPPED, shmem_pmd_mapped, 63488),
	U(MEM, mem, FILE_PMD_MAPPED, file_pmd_mapped, 65536),
	U(MEM, mem, SHARED_HUGETLB, shared_hugetlb, 70656),
	U(MEM, mem, PRIVATE_HUGETLB, private_hugetlb, 75776),
	U(MEM, mem, SWAP, swap, 77824),
	U(MEM, mem, SWAP_PSS, swap_pss, 82944),
	U(MEM, mem, LOCKED, locked, 88064),
	U(MEM, mem, KSM, ksm, 90112),
};

#define N_FIXED (sizeof(fixed_values) / sizeof(fixed_values[0]))

/* The group attributes, with the size of each struct as the header has it. */
static const struct {
	uint16_t attr;
	size_t size;
	size_t ver0;
} structs[] = {
	{ TASK_DIAG_A_TASK_BASE, sizeof(struct task_diag_base), TASK_DIAG_BASE_SIZE_VER0 },
	{ TASK_DIAG_A_TASK_STAT, sizeof(struct task_diag_stat), TASK_DIAG_STAT_SIZE_VER0 },
	{ TASK_DIAG_A_TASK_STATM, sizeof(struct task_diag_statm), TASK_DIAG_STATM_SIZE_VER0 },
	{ TASK_DIAG_A_TASK_IO, sizeof(struct task_diag_io), TASK_DIAG_IO_SIZE_VER0 },
	{ TASK_DIAG_A_TASK_STATUS, sizeof(struct task_diag_status), TASK_DIAG_STATUS_SIZE_VER0 },
	{ TASK_DIAG_A_TASK_CRED, sizeof(struct task_diag_cred), TASK_DIAG_CRED_SIZE_VER0 },
	{ TASK_DIAG_A_TASK_MEM, sizeof(struct task_diag_mem), TASK_DIAG_MEM_SIZE_VER0 },
};

#define N_STRUCTS (sizeof(structs) / sizeof(structs[0]))

static const char full_comm[] = "kworker/0:1H";
static const uint8_t full_cmdline[] = "sleep\0--\0" "1000";	/* 15 bytes, NUL-separated */
static const uint32_t full_cpus[] = { 0xffffffffu, 0x3 };
static const uint32_t full_mems[] = { 0x1 };
static const uint32_t full_groups[] = { 4, 24, 27 };
/*
 * The NS* arrays of a task two pid namespaces below the reader's: its ids
 * at levels 0..2; its process group and session are led from level 1, so
 * invisible (0) at level 2.
 */
static const uint32_t full_ns_tgid[] = { 4240, 40, 1 };
static const uint32_t full_ns_pid[] = { 4242, 42, 3 };
static const uint32_t full_ns_pgid[] = { 4200, 20, 0 };
static const uint32_t full_ns_sid[] = { 4100, 10, 0 };

/* A struct image: the bytes of one group attribute's payload. */
struct img {
	uint8_t b[512];
	size_t len;
};

/* Write @f into @g: its bytes at its offset, its bit in the mask. */
static void img_put(struct img *g, const struct fixed *f)
{
	uint64_t mask;
	uint8_t u8;
	uint32_t u32;
	int32_t s32;
	uint64_t u64;

	switch (f->size) {
	case 1:
		u8 = (uint8_t)f->u;
		memcpy(g->b + f->off, &u8, 1);
		break;
	case 4:
		u32 = (uint32_t)f->u;
		memcpy(g->b + f->off, &u32, 4);
		break;
	case -4:
		s32 = (int32_t)f->s;
		memcpy(g->b + f->off, &s32, 4);
		break;
	case 8:
		u64 = f->u;
		memcpy(g->b + f->off, &u64, 8);
		break;
	default:
		fail_msg("item %d: a field of size %d", (int)f->item, f->size);
	}
	memcpy(&mask, g->b, sizeof(mask));
	mask |= 1ull << f->bit;
	memcpy(g->b, &mask, sizeof(mask));
}

/* Every field of group @k, at the struct's own size plus @tail bytes of 0xee. */
static void img_build(struct img *g, size_t k, size_t tail)
{
	memset(g->b, 0, sizeof(g->b));
	g->len = structs[k].size + tail;
	assert_true(g->len <= sizeof(g->b));
	memset(g->b + structs[k].size, 0xee, tail);
	for (size_t i = 0; i < N_FIXED; i++)
		if (fixed_values[i].attr == structs[k].attr)
			img_put(g, &fixed_values[i]);
}

static void img_clear_bit(struct img *g, unsigned int bit)
{
	uint64_t mask;

	memcpy(&mask, g->b, sizeof(mask));
	mask &= ~(1ull << bit);
	memcpy(g->b, &mask, sizeof(mask));
}

/*
 * The whole message: pid, tgid, each struct (with @tail extra bytes; the
 * field whose row is @clear, if any, with its mask bit clear), the
 * variable-length attributes.
 */
static void build_full_ex(struct td_msg *m, size_t tail, const struct fixed *clear)
{
	struct img g;

	m->len = 0;
	td_msg_put_u32(m, TASK_DIAG_A_TASK_PID, 4242);
	td_msg_put_u32(m, TASK_DIAG_A_TASK_TGID, 4240);
	for (size_t k = 0; k < N_STRUCTS; k++) {
		img_build(&g, k, tail);
		if (clear && clear->attr == structs[k].attr)
			img_clear_bit(&g, clear->bit);
		td_msg_put(m, structs[k].attr, g.b, g.len);
		if (structs[k].attr == TASK_DIAG_A_TASK_BASE)
			td_msg_put_str(m, TASK_DIAG_A_TASK_COMM, full_comm);
		if (structs[k].attr == TASK_DIAG_A_TASK_STATUS) {
			td_msg_put(m, TASK_DIAG_A_TASK_CPUS_ALLOWED, full_cpus, sizeof(full_cpus));
			td_msg_put(m, TASK_DIAG_A_TASK_MEMS_ALLOWED, full_mems, sizeof(full_mems));
			td_msg_put(m, TASK_DIAG_A_TASK_NS_TGID, full_ns_tgid, sizeof(full_ns_tgid));
			td_msg_put(m, TASK_DIAG_A_TASK_NS_PID, full_ns_pid, sizeof(full_ns_pid));
			td_msg_put(m, TASK_DIAG_A_TASK_NS_PGID, full_ns_pgid, sizeof(full_ns_pgid));
			td_msg_put(m, TASK_DIAG_A_TASK_NS_SID, full_ns_sid, sizeof(full_ns_sid));
		}
		if (structs[k].attr == TASK_DIAG_A_TASK_CRED)
			td_msg_put(m, TASK_DIAG_A_TASK_GROUPS, full_groups, sizeof(full_groups));
	}
	td_msg_put(m, TASK_DIAG_A_TASK_CMDLINE, full_cmdline, sizeof(full_cmdline) - 1);
}

static void build_full(struct td_msg *m)
{
	build_full_ex(m, 0, NULL);
}

static void check_fixed(const struct taskdiag_task *t, const struct fixed *f)
{
	if (!taskdiag_task_has(t, f->item))
		fail_msg("%s.%s absent", td_items[f->item].group_name, td_items[f->item].name);
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

/* A u32 array item holds @len bytes equal to @want, in the receive buffer. */
static void check_words(const struct taskdiag_task *t, enum taskdiag_item item,
			const uint32_t *want, size_t len)
{
	const void *data;
	size_t n;

	assert_int_equal(taskdiag_task_get_bytes(t, item, &data, &n), 0);
	assert_int_equal(n, len);
	assert_memory_equal(data, want, len);
	assert_true(in_copy(data, len));
}

/* Everything but the row @except (NULL: everything). */
static void check_full_ex(const struct taskdiag_task *t, const struct fixed *except)
{
	const char *s;
	const void *data;
	size_t len;

	assert_int_equal(taskdiag_task_pid(t), 4242);
	assert_int_equal(taskdiag_task_tgid(t), 4240);
	assert_int_equal(get_u(t, TASKDIAG_ITEM_PID), 4242);
	assert_int_equal(get_u(t, TASKDIAG_ITEM_TGID), 4240);

	for (size_t i = 0; i < N_FIXED; i++)
		if (&fixed_values[i] != except)
			check_fixed(t, &fixed_values[i]);

	assert_int_equal(taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &s), 0);
	assert_string_equal(s, full_comm);
	assert_true(in_copy(s, sizeof(full_comm)));

	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CMDLINE, &data, &len), 0);
	assert_int_equal(len, sizeof(full_cmdline) - 1);
	assert_memory_equal(data, full_cmdline, len);
	assert_true(in_copy(data, len));
	assert_absent(t, TASKDIAG_ITEM_CMDLINE_LEN);	/* sent only when cut */

	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_STATUS_CPUS_ALLOWED, &data, &len), 0);
	assert_int_equal(len, sizeof(full_cpus));
	assert_memory_equal(data, full_cpus, len);
	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_STATUS_MEMS_ALLOWED, &data, &len), 0);
	assert_int_equal(len, sizeof(full_mems));
	assert_memory_equal(data, full_mems, len);
	assert_int_equal(taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CRED_GROUPS, &data, &len), 0);
	assert_int_equal(len, sizeof(full_groups));
	assert_memory_equal(data, full_groups, len);
	check_words(t, TASKDIAG_ITEM_STATUS_NSTGID, full_ns_tgid, sizeof(full_ns_tgid));
	check_words(t, TASKDIAG_ITEM_STATUS_NSPID, full_ns_pid, sizeof(full_ns_pid));
	check_words(t, TASKDIAG_ITEM_STATUS_NSPGID, full_ns_pgid, sizeof(full_ns_pgid));
	check_words(t, TASKDIAG_ITEM_STATUS_NSSID, full_ns_sid, sizeof(full_ns_sid));
}

static void check_full(const struct taskdiag_task *t)
{
	check_full_ex(t, NULL);
}

static void test_every_group_decoded(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;

	(void)state;
	build_full(&m);
	assert_int_equal(parse(&m, &t), 0);
	check_full(&t);
}

/*
 * The test's rows cover every numeric item of the table, and agree with it
 * on the attribute: so check_full() checks every field of every struct.
 */
static void test_rows_cover_the_table(void **state)
{
	(void)state;
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = &td_items[i];
		size_t k;

		if (td_item_locs[i].kind == TD_LOC_BLOB || i == TASKDIAG_ITEM_PID ||
		    i == TASKDIAG_ITEM_TGID || i == TASKDIAG_ITEM_CMDLINE_LEN)
			continue;
		for (k = 0; k < N_FIXED; k++)
			if ((int)fixed_values[k].item == i)
				break;
		if (k == N_FIXED)
			fail_msg("%s.%s: no row in this test", r->group_name, r->name);
		assert_int_equal(r->attr, fixed_values[k].attr);
		assert_int_equal(r->attr_size, abs(fixed_values[k].size));
		assert_int_equal(r->type == TASKDIAG_TYPE_S64, fixed_values[k].size < 0);
	}
}

/*
 * The payload at every offset from an 8-byte boundary: 4 as after the
 * netlink and genetlink headers, the others as after a PAD or an odd
 * producer. The decoder copies; a cast would trap under UBSan.
 */
static void test_any_alignment(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;

	(void)state;
	build_full(&m);
	for (size_t shift = 0; shift < 8; shift++) {
		assert_int_equal(parse_at(m.b, m.len, shift, &t), 0);
		check_full(&t);
	}
	/* a zero-length PAD first moves every struct by 4 bytes in the message */
	memmove(m.b + NLA_HDRLEN, m.b, m.len);
	m.len += NLA_HDRLEN;
	{
		struct nlattr pad = { .nla_len = NLA_HDRLEN, .nla_type = TASK_DIAG_A_TASK_PAD };

		memcpy(m.b, &pad, sizeof(pad));
	}
	for (size_t shift = 0; shift < 8; shift += 4) {
		assert_int_equal(parse_at(m.b, m.len, shift, &t), 0);
		check_full(&t);
	}
}

/* A clear mask bit: that item is absent, whatever its bytes hold; the rest are there. */
static void test_mask_bit_clear_is_absent(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;

	(void)state;
	for (size_t i = 0; i < N_FIXED; i++) {
		build_full_ex(&m, 0, &fixed_values[i]);
		assert_int_equal(parse(&m, &t), 0);
		assert_absent(&t, fixed_values[i].item);
		check_full_ex(&t, &fixed_values[i]);
	}
}

/* A mask of 0: a struct sent with nothing in it (every field withheld). */
static void test_empty_mask(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	uint8_t zero[512] = { 0 };

	(void)state;
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 3);
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_TGID, 3);
	for (size_t k = 0; k < N_STRUCTS; k++) {
		memset(zero + 8, 0x5a, structs[k].size - 8);	/* values without their bits */
		td_msg_put(&m, structs[k].attr, zero, structs[k].size);
		memset(zero, 0, sizeof(zero));
	}
	td_msg_put(&m, TASK_DIAG_A_TASK_CMDLINE, NULL, 0);	/* a kernel thread's empty cmdline */

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

/*
 * A longer payload (a newer module's struct): the tail is ignored, even
 * with mask bits set past the fields this library knows.
 */
static void test_longer_payload_tail_ignored(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	static const size_t tails[] = { 1, 3, 4, 8, 12, 64 };

	(void)state;
	for (size_t k = 0; k < sizeof(tails) / sizeof(tails[0]); k++) {
		build_full_ex(&m, tails[k], NULL);
		assert_int_equal(parse(&m, &t), 0);
		check_full(&t);
	}
	/* bits past the last field of each struct: nothing more is present */
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	for (size_t k = 0; k < N_STRUCTS; k++) {
		struct img g;
		uint64_t mask = ~0ull;

		memset(g.b, 0, sizeof(g.b));
		memcpy(g.b, &mask, sizeof(mask));	/* every bit, no field set */
		for (size_t i = 0; i < N_FIXED; i++)
			if (fixed_values[i].attr == structs[k].attr)
				img_put(&g, &fixed_values[i]);
		memset(g.b + structs[k].size, 0xff, 16);
		td_msg_put(&m, structs[k].attr, g.b, structs[k].size + 16);
	}
	assert_int_equal(parse(&m, &t), 0);
	for (size_t i = 0; i < N_FIXED; i++)
		check_fixed(&t, &fixed_values[i]);
}

/*
 * Shorter than VER0: the whole message is malformed; exactly VER0 is fine,
 * and a field added after version 0 (past VER0) is then absent.
 */
static void test_shorter_than_ver0(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	struct img g;

	(void)state;
	for (size_t k = 0; k < N_STRUCTS; k++) {
		img_build(&g, k, 0);
		for (size_t len = 0; len <= structs[k].ver0; len++) {
			int ret;

			m.len = 0;
			td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
			td_msg_put(&m, structs[k].attr, g.b, len);
			ret = parse(&m, &t);
			if (ret != (len < structs[k].ver0 ? -EBADMSG : 0))
				fail_msg("attribute %u with %zu of %zu bytes: %d", structs[k].attr, len,
					 structs[k].ver0, ret);
		}
		for (size_t i = 0; i < N_FIXED; i++) {
			const struct fixed *f = &fixed_values[i];

			if (f->attr != structs[k].attr)
				continue;
			if (f->off + (size_t)abs(f->size) <= structs[k].ver0)
				check_fixed(&t, f);
			else if (taskdiag_task_has(&t, f->item))
				fail_msg("%s.%s: present past VER0", td_items[f->item].group_name,
					 td_items[f->item].name);
		}
	}
}

/* ---- the same through libnl, as another producer would write it ------ */

static void test_libnl_message(void **state)
{
	static const uint32_t ns_pid[] = { 77, 1 };
	struct nl_msg *msg = nlmsg_alloc();
	struct task_diag_base base;
	struct task_diag_stat stat;
	struct task_diag_cred cred;
	struct genlmsghdr *gh;
	struct taskdiag_task t;
	const char *s;
	const void *data;
	size_t len;

	(void)state;
	/* Structs filled as a C producer (the module) would: named members. */
	memset(&base, 0, sizeof(base));
	base.ppid = 70;
	base.state = 'R';
	base.tpgid = -1;
	base.start_time = 99;
	base.mask = 1ull << TASK_DIAG_BASE_F_PPID | 1ull << TASK_DIAG_BASE_F_STATE |
		    1ull << TASK_DIAG_BASE_F_TPGID | 1ull << TASK_DIAG_BASE_F_START_TIME;
	memset(&stat, 0, sizeof(stat));
	stat.utime = 5000000000ull;
	stat.nice = 19;
	stat.exit_code = 7;	/* withheld: its bit is clear */
	stat.mask = 1ull << TASK_DIAG_STAT_F_UTIME | 1ull << TASK_DIAG_STAT_F_NICE;
	memset(&cred, 0, sizeof(cred));
	cred.uid = 1000;
	cred.mask = 1ull << TASK_DIAG_CRED_F_UID;

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, 0x20, 0, NLM_F_MULTI,
				    TASK_DIAG_CMD_GET, TASK_DIAG_FAMILY_VERSION));
	assert_int_equal(nla_put_u32(msg, TASK_DIAG_A_TASK_PID, 77), 0);
	assert_int_equal(nla_put_u32(msg, TASK_DIAG_A_TASK_TGID, 70), 0);
	assert_int_equal(nla_put(msg, TASK_DIAG_A_TASK_BASE, sizeof(base), &base), 0);
	assert_int_equal(nla_put_string(msg, TASK_DIAG_A_TASK_COMM, "worker"), 0);
	assert_int_equal(nla_put(msg, TASK_DIAG_A_TASK_STAT, sizeof(stat), &stat), 0);
	assert_int_equal(nla_put(msg, TASK_DIAG_A_TASK_CRED, sizeof(cred), &cred), 0);
	assert_int_equal(nla_put(msg, TASK_DIAG_A_TASK_GROUPS, 0, NULL), 0);
	assert_int_equal(nla_put(msg, TASK_DIAG_A_TASK_CMDLINE, 3, "a\0b"), 0);
	assert_int_equal(nla_put_u32(msg, TASK_DIAG_A_TASK_CMDLINE_LEN, 131072), 0);
	/* a task one pid namespace below the reader's: pid 77 there, 1 inside */
	assert_int_equal(nla_put(msg, TASK_DIAG_A_TASK_NS_PID, sizeof(ns_pid), ns_pid), 0);

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
	assert_absent(&t, TASKDIAG_ITEM_STAT_EXIT_CODE);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_CRED_UID), 1000);
	assert_absent(&t, TASKDIAG_ITEM_CRED_EUID);
	/* zero-length GROUPS: present, empty */
	assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_CRED_GROUPS, &data, &len), 0);
	assert_int_equal(len, 0);
	assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_CMDLINE, &data, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(data, "a\0b", 3);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_CMDLINE_LEN), 131072);
	assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_STATUS_NSPID, &data, &len), 0);
	assert_int_equal(len, sizeof(ns_pid));
	assert_memory_equal(data, ns_pid, len);
	assert_absent(&t, TASKDIAG_ITEM_STATUS_NSTGID);	/* not sent */
	/* groups not sent are absent */
	assert_absent(&t, TASKDIAG_ITEM_STATM_SIZE);
	assert_absent(&t, TASKDIAG_ITEM_IO_RCHAR);
	assert_absent(&t, TASKDIAG_ITEM_STATUS_UMASK);
	assert_absent(&t, TASKDIAG_ITEM_STATUS_CPUS_ALLOWED);
	assert_absent(&t, TASKDIAG_ITEM_BASE_SID);
	nlmsg_free(msg);
}

/* ---- what is skipped -------------------------------------------------- */

static void test_unknown_attributes_skipped(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	struct img g;
	const char *s;
	uint8_t junk[13] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13 };

	(void)state;
	m.len = 0;
	td_msg_put(&m, TASK_DIAG_A_TASK_MAX + 1, junk, sizeof(junk));	/* before the pid */
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 10);
	td_msg_put(&m, 0x3fff, junk, 3);
	td_msg_put(&m, TASK_DIAG_A_TASK_MAX + 7, NULL, 0);
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_TGID, 10);
	/* request-only attributes in a reply mean nothing */
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_SCOPE, 1);
	td_msg_put(&m, TASK_DIAG_A_TASK_SHOW, junk, 2);
	td_msg_put(&m, TASK_DIAG_A_TASK_PROCFS_FD, junk, 9);
	/* an unknown attribute flagged as a nest */
	td_msg_put(&m, (TASK_DIAG_A_TASK_MAX + 2) | NLA_F_NESTED, junk, 8);
	img_build(&g, 0, 0);
	td_msg_put(&m, TASK_DIAG_A_TASK_BASE, g.b, g.len);
	td_msg_put_str(&m, TASK_DIAG_A_TASK_COMM, "init");
	td_msg_put(&m, TASK_DIAG_A_TASK_MAX + 1, junk, 1);	/* last */

	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_pid(&t), 10);
	assert_int_equal(taskdiag_task_tgid(&t), 10);
	assert_int_equal(taskdiag_task_get_string(&t, TASKDIAG_ITEM_BASE_COMM, &s), 0);
	assert_string_equal(s, "init");
	for (size_t i = 0; i < N_FIXED; i++)
		if (fixed_values[i].attr == TASK_DIAG_A_TASK_BASE)
			check_fixed(&t, &fixed_values[i]);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		if (i == TASKDIAG_ITEM_PID || i == TASKDIAG_ITEM_TGID ||
		    td_items[i].group == TASKDIAG_GROUP_BASE)
			continue;
		assert_absent(&t, (enum taskdiag_item)i);
	}
}

/* PAD attributes, zero-length as the kernel writes them and with payload. */
static void test_pad_skipped(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	uint64_t zero = 0;

	(void)state;
	m.len = 0;
	td_msg_put(&m, TASK_DIAG_A_TASK_PAD, NULL, 0);
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 5);
	td_msg_put(&m, TASK_DIAG_A_TASK_PAD, &zero, 4);
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_TGID, 5);
	td_msg_put(&m, TASK_DIAG_A_TASK_PAD, &zero, 8);
	td_msg_put(&m, TASK_DIAG_A_TASK_PAD, NULL, 0);

	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_pid(&t), 5);
	assert_int_equal(taskdiag_task_tgid(&t), 5);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++)
		if (i != TASKDIAG_ITEM_PID && i != TASKDIAG_ITEM_TGID)
			assert_absent(&t, (enum taskdiag_item)i);
}

/* ---- absent, zero and wrong-type getters ------------------------------ */

static void test_absent_is_not_zero(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	uint8_t stat[sizeof(struct task_diag_stat)];
	uint64_t mask = 1ull << TASK_DIAG_STAT_F_UTIME | 1ull << TASK_DIAG_STAT_F_NICE |
			1ull << TASK_DIAG_STAT_F_WCHAN;
	uint64_t u = 1234;
	int64_t s = 1234;

	(void)state;
	memset(stat, 0, sizeof(stat));
	memcpy(stat, &mask, sizeof(mask));
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 8);
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_TGID, 8);
	td_msg_put(&m, TASK_DIAG_A_TASK_STAT, stat, sizeof(stat));

	assert_int_equal(parse(&m, &t), 0);
	assert_true(taskdiag_task_has(&t, TASKDIAG_ITEM_STAT_UTIME));
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM_STAT_UTIME, &u), 0);
	assert_int_equal(u, 0);
	assert_int_equal(taskdiag_task_get_s64(&t, TASKDIAG_ITEM_STAT_NICE, &s), 0);
	assert_true(s == 0);
	u = 1234;
	assert_int_equal(taskdiag_task_get_u64(&t, TASKDIAG_ITEM_STAT_WCHAN, &u), 0);
	assert_int_equal(u, 0);
	/* the neighbours in the same struct, bits clear */
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
	static struct td_msg m;
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

/* The bulk getter gives what the typed getters give, item by item. */
static void test_get_items(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	enum taskdiag_item items[TASKDIAG_ITEM__COUNT + 3];
	struct taskdiag_value vals[TASKDIAG_ITEM__COUNT + 3];
	int present = 0, n;

	(void)state;
	build_full_ex(&m, 0, &fixed_values[3]);	/* one field withheld */
	assert_int_equal(parse(&m, &t), 0);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		items[i] = (enum taskdiag_item)(TASKDIAG_ITEM__COUNT - 1 - i);	/* any order */
		present += taskdiag_task_has(&t, items[i]);
	}
	items[TASKDIAG_ITEM__COUNT] = TASKDIAG_ITEM__COUNT;
	items[TASKDIAG_ITEM__COUNT + 1] = (enum taskdiag_item)-1;
	items[TASKDIAG_ITEM__COUNT + 2] = TASKDIAG_ITEM_STAT_UTIME;	/* again */
	memset(vals, 0x5a, sizeof(vals));
	n = taskdiag_task_get_items(&t, items, TASKDIAG_ITEM__COUNT + 3, vals);
	assert_int_equal(n, present + 1);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT + 3; i++) {
		const struct taskdiag_value *v = &vals[i];
		enum taskdiag_item it = items[i];
		uint64_t u;
		int64_t s;
		const char *str;
		const void *data;
		size_t len;

		if ((unsigned int)it >= TASKDIAG_ITEM__COUNT) {
			assert_int_equal(v->err, -EINVAL);
			continue;
		}
		if (!taskdiag_task_has(&t, it)) {
			assert_int_equal(v->err, -ENOENT);
			assert_true(v->u == 0 && v->s == 0 && v->data == NULL && v->len == 0);
			continue;
		}
		assert_int_equal(v->err, 0);
		switch (td_items[it].type) {
		case TASKDIAG_TYPE_U64:
			assert_int_equal(taskdiag_task_get_u64(&t, it, &u), 0);
			assert_true(v->u == u);
			break;
		case TASKDIAG_TYPE_S64:
			assert_int_equal(taskdiag_task_get_s64(&t, it, &s), 0);
			assert_true(v->s == s);
			break;
		case TASKDIAG_TYPE_STRING:
			assert_int_equal(taskdiag_task_get_string(&t, it, &str), 0);
			assert_ptr_equal(v->data, str);
			assert_int_equal(v->len, strlen(str));
			break;
		default:
			assert_int_equal(taskdiag_task_get_bytes(&t, it, &data, &len), 0);
			assert_ptr_equal(v->data, data);
			assert_int_equal(v->len, len);
		}
	}
	assert_int_equal(vals[TASKDIAG_ITEM__COUNT - 1 - fixed_values[3].item].err, -ENOENT);
	assert_int_equal(taskdiag_task_get_items(&t, items, 0, NULL), 0);
	assert_int_equal(taskdiag_task_get_items(NULL, items, 1, vals), -EINVAL);
	assert_int_equal(taskdiag_task_get_items(&t, NULL, 1, vals), -EINVAL);
	assert_int_equal(taskdiag_task_get_items(&t, items, 1, NULL), -EINVAL);
}

/* A second message into the same record leaves nothing of the first. */
static void test_record_reset(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;

	(void)state;
	build_full(&m);
	assert_int_equal(parse(&m, &t), 0);
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 9);
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_TGID, 9);
	assert_int_equal(td_nl_parse_task(m.b, m.len, &t), 0);
	assert_int_equal(taskdiag_task_pid(&t), 9);
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++)
		if (i != TASKDIAG_ITEM_PID && i != TASKDIAG_ITEM_TGID)
			assert_absent(&t, (enum taskdiag_item)i);
}

/* ---- malformed messages ----------------------------------------------- */

static void test_missing_pid(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	struct img g;

	(void)state;
	m.len = 0;
	assert_int_equal(parse(&m, &t), -EBADMSG);	/* nothing at all */

	td_msg_put_u32(&m, TASK_DIAG_A_TASK_TGID, 9);
	img_build(&g, 0, 0);
	td_msg_put(&m, TASK_DIAG_A_TASK_BASE, g.b, g.len);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* only padding */
	m.len = 0;
	td_msg_put(&m, TASK_DIAG_A_TASK_PAD, NULL, 0);
	assert_int_equal(parse(&m, &t), -EBADMSG);
}

/*
 * Cut the full message at every length: never a read past the end, and
 * -EBADMSG unless the cut falls exactly between attributes (or in the last
 * one's padding) after the pid.
 */
static void test_truncated_everywhere(void **state)
{
	static struct td_msg m;
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
	static struct td_msg m;
	struct taskdiag_task t;
	struct img g;
	size_t off;

	(void)state;
	/* the last attribute claims 4 bytes more than there are */
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	off = m.len;
	td_msg_put(&m, TASK_DIAG_A_TASK_CMDLINE, "abcd", 4);
	set_nla_len(&m, off, NLA_HDRLEN + 8);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* a struct running past the end of the message */
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	off = m.len;
	img_build(&g, 1, 0);
	td_msg_put(&m, TASK_DIAG_A_TASK_STAT, g.b, g.len);
	set_nla_len(&m, off, (uint16_t)(NLA_HDRLEN + g.len + 4));
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* an unknown attribute running past the end is no better */
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	off = m.len;
	td_msg_put(&m, TASK_DIAG_A_TASK_MAX + 1, "abcd", 4);
	set_nla_len(&m, off, 0xffff);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* nla_len below the header size */
	for (uint16_t bad = 0; bad < NLA_HDRLEN; bad++) {
		m.len = 0;
		td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
		off = m.len;
		td_msg_put_u32(&m, TASK_DIAG_A_TASK_TGID, 1);
		set_nla_len(&m, off, bad);
		if (parse(&m, &t) != -EBADMSG)
			fail_msg("nla_len %u accepted", bad);
	}

	/* a stub shorter than an attribute header at the end */
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	assert_int_equal(parse_bytes(m.b, m.len + 2, &t), -EBADMSG);
}

/* The u32 attributes at sizes other than 4. */
static void test_wrong_size(void **state)
{
	static const uint16_t attrs[] = { TASK_DIAG_A_TASK_PID, TASK_DIAG_A_TASK_TGID,
					  TASK_DIAG_A_TASK_CMDLINE_LEN };
	static const size_t sizes[] = { 0, 1, 2, 3, 5, 7, 8, 9, 16 };
	static struct td_msg m;
	struct taskdiag_task t;
	uint8_t v[16] = { 1 };

	(void)state;
	for (size_t a = 0; a < sizeof(attrs) / sizeof(attrs[0]); a++) {
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			int ret;

			m.len = 0;
			if (attrs[a] != TASK_DIAG_A_TASK_PID)
				td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
			td_msg_put(&m, attrs[a], v, sizes[k]);
			if (attrs[a] == TASK_DIAG_A_TASK_PID)
				td_msg_put_u32(&m, TASK_DIAG_A_TASK_TGID, 1);
			ret = parse(&m, &t);
			if (ret != -EBADMSG)
				fail_msg("attribute %u with %zu bytes: %d, want -EBADMSG", attrs[a],
					 sizes[k], ret);
		}
	}
}

static void test_string_without_nul(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	const char *s;

	(void)state;
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	td_msg_put(&m, TASK_DIAG_A_TASK_COMM, "bash", 4);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* empty payload: not even a NUL */
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	td_msg_put(&m, TASK_DIAG_A_TASK_COMM, NULL, 0);
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* the NUL in the padding does not count: nla_len says 3 bytes */
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	td_msg_put(&m, TASK_DIAG_A_TASK_COMM, "abc", 3);	/* padded with one NUL */
	assert_int_equal(parse(&m, &t), -EBADMSG);

	/* the empty string is a string */
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	td_msg_put_str(&m, TASK_DIAG_A_TASK_COMM, "");
	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_get_string(&t, TASKDIAG_ITEM_BASE_COMM, &s), 0);
	assert_string_equal(s, "");
}

static void test_u32_array_length(void **state)
{
	static const uint16_t attrs[] = { TASK_DIAG_A_TASK_GROUPS, TASK_DIAG_A_TASK_CPUS_ALLOWED,
					  TASK_DIAG_A_TASK_MEMS_ALLOWED, TASK_DIAG_A_TASK_NS_TGID,
					  TASK_DIAG_A_TASK_NS_PID, TASK_DIAG_A_TASK_NS_PGID,
					  TASK_DIAG_A_TASK_NS_SID };
	static struct td_msg m;
	struct taskdiag_task t;
	const uint32_t words[2] = { 1, 2 };

	(void)state;
	for (size_t a = 0; a < sizeof(attrs) / sizeof(attrs[0]); a++) {
		for (size_t len = 0; len <= 8; len++) {
			m.len = 0;
			td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
			td_msg_put(&m, attrs[a], words, len);
			assert_int_equal(parse(&m, &t), len % 4 ? -EBADMSG : 0);
		}
	}
}

/* cmdline is bytes: no NUL needed, odd lengths fine; CMDLINE_LEN a u32. */
static void test_cmdline_bytes(void **state)
{
	static struct td_msg m;
	struct taskdiag_task t;
	const void *data;
	size_t len;

	(void)state;
	m.len = 0;
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_PID, 1);
	td_msg_put(&m, TASK_DIAG_A_TASK_CMDLINE, "abc", 3);
	td_msg_put_u32(&m, TASK_DIAG_A_TASK_CMDLINE_LEN, 0xfffffff0u);
	assert_int_equal(parse(&m, &t), 0);
	assert_int_equal(taskdiag_task_get_bytes(&t, TASKDIAG_ITEM_CMDLINE, &data, &len), 0);
	assert_int_equal(len, 3);
	assert_memory_equal(data, "abc", 3);
	assert_int_equal(get_u(&t, TASKDIAG_ITEM_CMDLINE_LEN), 0xfffffff0u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_every_group_decoded, teardown),
		cmocka_unit_test_teardown(test_rows_cover_the_table, teardown),
		cmocka_unit_test_teardown(test_any_alignment, teardown),
		cmocka_unit_test_teardown(test_mask_bit_clear_is_absent, teardown),
		cmocka_unit_test_teardown(test_empty_mask, teardown),
		cmocka_unit_test_teardown(test_longer_payload_tail_ignored, teardown),
		cmocka_unit_test_teardown(test_shorter_than_ver0, teardown),
		cmocka_unit_test_teardown(test_libnl_message, teardown),
		cmocka_unit_test_teardown(test_unknown_attributes_skipped, teardown),
		cmocka_unit_test_teardown(test_pad_skipped, teardown),
		cmocka_unit_test_teardown(test_absent_is_not_zero, teardown),
		cmocka_unit_test_teardown(test_wrong_type_getter, teardown),
		cmocka_unit_test_teardown(test_get_items, teardown),
		cmocka_unit_test_teardown(test_record_reset, teardown),
		cmocka_unit_test_teardown(test_missing_pid, teardown),
		cmocka_unit_test_teardown(test_truncated_everywhere, teardown),
		cmocka_unit_test_teardown(test_truncated_attribute, teardown),
		cmocka_unit_test_teardown(test_wrong_size, teardown),
		cmocka_unit_test_teardown(test_string_without_nul, teardown),
		cmocka_unit_test_teardown(test_u32_array_length, teardown),
		cmocka_unit_test_teardown(test_cmdline_bytes, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
