// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libFuzzer target for the procfs backend's text parsers (procfs_parse.c):
 * the first input byte picks the file (stat, status, statm, io), the rest
 * is its text. Beyond "no crash, no read past the text", it checks that
 * every blob of the record lies in the text (comm) or in the parser's
 * arrays, that u32 arrays are whole words, that no item is set outside the
 * groups asked for that the file carries (statm and io are parsed only
 * when their group is asked for), and that every number fits its field.
 *
 * Built with -DTD_FUZZ_SEED_MAIN, it writes a seed per file (texts laid out
 * as procfs prints them) into the folder given as its argument.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TD_FUZZ_SEED_MAIN

#include "internal.h"
#include "procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                           \
	do {                                                                  \
		if (!(cond)) {                                                \
			fprintf(stderr, "fuzz_procfs: %s:%d: %s\n", __FILE__, \
				__LINE__, #cond);                             \
			__builtin_trap();                                     \
		}                                                             \
	} while (0)

static bool inside(const void *p, size_t len, const void *base, size_t size)
{
	const uint8_t *q = p, *b = base;

	return q >= b && q + len <= b + size;
}

/* @p..@len lies in one of the parser's word arrays. */
static bool in_words(const void *p, size_t len, const struct td_pf_parse *px)
{
	const struct td_pf_words *w[3 + TD_PF_NS_LINES] = { &px->cpus, &px->mems, &px->groups_w };

	for (size_t i = 0; i < TD_PF_NS_LINES; i++)
		w[3 + i] = &px->ns[i];
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (w[i]->w && inside(p, len, w[i]->w, w[i]->cap * 4))
			return true;
	return false;
}

static void check_record(const struct taskdiag_task *t, const struct td_pf_parse *px,
			 const char *text, size_t len, uint32_t groups)
{
	for (int i = 0; i < TASKDIAG_ITEM__COUNT; i++) {
		const struct taskdiag_item_info *r = taskdiag_item_info((enum taskdiag_item)i);
		const void *blob;
		size_t blen;
		uint64_t u;

		if (!taskdiag_task_has(t, (enum taskdiag_item)i))
			continue;
		CHECK(r->group & groups);
		switch (r->type) {
		case TASKDIAG_TYPE_U64:
			CHECK(taskdiag_task_get_u64(t, (enum taskdiag_item)i, &u) == 0);
			CHECK(r->attr_size == 8 || u < (1ull << (8 * r->attr_size)));
			break;
		case TASKDIAG_TYPE_STRING: {
			const char *s;

			CHECK(taskdiag_task_get_string(t, (enum taskdiag_item)i, &s) == 0);
			CHECK(inside(s, strlen(s) + 1, text, len + 1));
			break;
		}
		case TASKDIAG_TYPE_U32_ARRAY:
			CHECK(taskdiag_task_get_bytes(t, (enum taskdiag_item)i, &blob, &blen) == 0);
			CHECK(blen % 4 == 0);
			CHECK(in_words(blob, blen, px));
			break;
		default:
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct td_pf_parse px;
	static struct taskdiag_task t;
	uint32_t groups, allowed;
	struct td_pf_stat st;
	pid_t tgid = 0;
	char *text;
	size_t len;
	int err = 0;

	if (!size)
		return 0;
	len = size - 1;
	text = malloc(len + 1);	/* exact size: ASan catches a read past the NUL */
	if (!text)
		return 0;
	memcpy(text, data + 1, len);
	text[len] = '\0';
	groups = (uint32_t)(data[0] >> 2) & TASKDIAG_GROUP_ALL;
	td_task_reset(&t);
	px.t = &t;
	px.groups = groups ? groups : TASKDIAG_GROUP_ALL;
	px.tick_ns = 10000000;
	px.page_size = 4096;
	px.mems_words = data[0] & 0x80 ? 1 : 0;
	switch (data[0] & 3) {
	case 0:
		allowed = px.groups & (TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STAT);
		err = td_pf_parse_stat(text, len, &st);
		if (!err) {
			CHECK(st.n <= TD_PF_STAT_FIELDS);
			CHECK(inside(st.comm, st.comm_len, text, len + 1));
			td_pf_emit_stat(&px, &st, td_pf_stat_permitted(&st, data[0] & 0x40));
		}
		break;
	case 1:
		allowed = px.groups &
			  (TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_STATUS | TASKDIAG_GROUP_CRED);
		err = td_pf_parse_status(&px, text, len, &tgid);
		break;
	case 2:
		allowed = TASKDIAG_GROUP_STATM;
		err = td_pf_parse_statm(&px, text);
		break;
	default:
		allowed = TASKDIAG_GROUP_IO;
		td_pf_parse_io(&px, text, len);
		break;
	}
	CHECK(err == 0 || err == -EBADMSG || err == -ENOMEM);
	if (!err)
		check_record(&t, &px, text, len, allowed);
	free(text);
	return 0;
}

#else /* TD_FUZZ_SEED_MAIN: write the seed corpus */

#define TD_SEED_10 "1 1 1 1 1 1 1 1 1 1 "
#define TD_SEED_70 TD_SEED_10 TD_SEED_10 TD_SEED_10 TD_SEED_10 TD_SEED_10 TD_SEED_10 TD_SEED_10
#define TD_SEED_10_HEX "1,1,1,1,1,1,1,1,1,1,"
#define TD_SEED_70_HEX TD_SEED_10_HEX TD_SEED_10_HEX TD_SEED_10_HEX TD_SEED_10_HEX \
	TD_SEED_10_HEX TD_SEED_10_HEX TD_SEED_10_HEX

static const struct {
	const char *name;
	unsigned char kind;
	const char *text;
} seeds[] = {
	{ "stat", 0, "1234 (a (b) c) S 1 1234 1234 34817 1234 4194304 100 0 3 0 5 6 0 0 20 0 1 0 "
		     "777 12345678 321 18446744073709551615 1 1 0 0 0 0 0 0 65536 1 0 0 17 1 0 0 "
		     "0 0 0 0 0 0 0 0 0 0\n" },
	{ "status", 1, "Name:\tbash\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t42\nNgid:\t0\n"
		       "Pid:\t42\nPPid:\t1\nTracerPid:\t0\nUid:\t1000\t1000\t1000\t1000\n"
		       "Gid:\t100\t100\t100\t100\nFDSize:\t256\nGroups:\t4 24 27 \n"
		       "NStgid:\t42\t7\t1\nNSpid:\t42\t7\t1\nNSpgid:\t40\t5\t0\n"
		       "NSsid:\t40\t0\t0\n"
		       "VmPeak:\t  8000 kB\nVmRSS:\t   4000 kB\nThreads:\t1\n"
		       "SigQ:\t0/15000\nSigPnd:\t0000000000000000\nSigBlk:\t0000000000010000\n"
		       "CapEff:\t000001ffffffffff\nNoNewPrivs:\t0\nSeccomp:\t2\n"
		       "Seccomp_filters:\t1\nCpus_allowed:\tffffffff,00000003\n"
		       "Mems_allowed:\t00000000,00000001\nvoluntary_ctxt_switches:\t5\n"
		       "nonvoluntary_ctxt_switches:\t6\n" },
	/*
	 * Lines repeated, the second one not understood after more numbers
	 * than the first's array holds: the item must not keep pointing at
	 * the array the second parse moved.
	 */
	{ "status-repeat", 1, "NSpid:\t42\t7\t1\nGroups:\t4 24\nCpus_allowed:\t3\n"
			      "NSpid:\t" TD_SEED_70 "x\nGroups:\t" TD_SEED_70 "x\n"
			      "Cpus_allowed:\t" TD_SEED_70_HEX "x\n" },
	{ "statm", 2, "2000 1000 500 10 0 300 0\n" },
	{ "io", 3, "rchar: 1\nwchar: 2\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\n"
		   "write_bytes: 8192\ncancelled_write_bytes: 0\n" },
};

int main(int argc, char **argv)
{
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		char path[4096];
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", argv[1], seeds[i].name);
		f = fopen(path, "wb");
		if (!f || fputc(seeds[i].kind, f) == EOF ||
		    fwrite(seeds[i].text, 1, strlen(seeds[i].text), f) != strlen(seeds[i].text) ||
		    fclose(f)) {
			perror(path);
			err = 1;
		}
	}
	return err;
}

#endif /* TD_FUZZ_SEED_MAIN */
