/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libtaskdiag: the file format of a recording of the netlink backend's
 * reply stream, written by record.c and read back by replay.c.
 *
 * A recording is the reply stream as the kernel sent it, in host byte order
 * (as netlink itself):
 *
 *   header  "TDIAGRAW" | u32 format (2; 1 is read too) | u32 TASK_DIAG_FAMILY_VERSION
 *   record  u32 type | u32 length | length bytes of payload, no padding
 *     TD_RAW_REQUEST   struct td_raw_request: the sequence number and
 *                      family id of a request sent, and what it asked for
 *     TD_RAW_DATAGRAM  one datagram of at most TD_NL_BUFSZ bytes, as
 *                      recvmsg() returned it (replies to any request)
 *     TD_RAW_SYSTEM    struct td_raw_system (format 2, before each request):
 *                      the recording host's clocks when it was sent, its
 *                      boot time, HZ, CPUs and memory, so that a replay
 *                      computes %CPU, elapsed and start times as they were
 *                      (a longer payload is read as far as this one goes)
 *
 * The header's family version is the ABI version of the messages: a
 * recording of another version than this library's is refused with
 * -TASKDIAG_EVERSION (the file format itself did not change).
 */
#ifndef TASKDIAG_RECORD_H
#define TASKDIAG_RECORD_H

#include <stdint.h>

struct td_raw_request {
	uint32_t seq;
	uint32_t family;
	uint32_t scope;
	uint32_t pid;
	uint32_t groups;
};

struct td_raw_system {
	uint64_t realtime;	/* CLOCK_REALTIME, ns since the epoch */
	uint64_t uptime;	/* CLOCK_BOOTTIME, ns (the samples' clock) */
	uint64_t boot_time;	/* /proc/stat btime, seconds since the epoch */
	uint64_t mem_total;	/* bytes */
	uint32_t hz;
	uint32_t ncpu;
	uint32_t page_size;
	uint32_t reserved;	/* 0 */
};

#define TD_RAW_MAGIC	"TDIAGRAW"
#define TD_RAW_FORMAT	2

enum {
	TD_RAW_REQUEST = 1,
	TD_RAW_DATAGRAM = 2,
	TD_RAW_SYSTEM = 3,
};

struct td_raw_header {
	char magic[8];
	uint32_t format;
	uint32_t family_version;
};

_Static_assert(sizeof(struct td_raw_header) == 16, "the file header is 16 bytes");
_Static_assert(sizeof(struct td_raw_request) == 20, "a request record is 20 bytes");
_Static_assert(sizeof(struct td_raw_system) == 48, "a system record is 48 bytes");

#endif /* TASKDIAG_RECORD_H */
