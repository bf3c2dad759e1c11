// SPDX-License-Identifier: GPL-2.0
/*
 * tdvmabench: the VMA dump against /proc/PID/maps, timed in-process.
 *
 *   tdvmabench maps [ROUNDS]        read and parse every /proc/PID/maps
 *   tdvmabench lib [ROUNDS]         every VMA through libtaskdiag (netlink)
 *   tdvmabench mapsone PID BUF      read and parse one maps with read()s of BUF bytes
 *   tdvmabench rawone PID BUF       one process's get-vma dump on a raw socket,
 *                                   recvmsg() buffer BUF bytes (the kernel sizes
 *                                   its skbs after it), entries walked
 *   tdvmabench hold N               make a process of N + a few VMAs, print
 *                                   "ready PID", wait for end of input
 *   tdvmabench query HOW PID N [ROUNDS]
 *                                   N address lookups in process PID (the
 *                                   VMA covering each address or the next
 *                                   one), HOW: maps (read and parse its
 *                                   maps once, then a binary search per
 *                                   address), ioctl (one PROCMAP_QUERY per
 *                                   address, 6.11+), lib (libtaskdiag's
 *                                   address query on netlink: batched, N
 *                                   addresses in one request up to 2,048)
 *
 * The addresses of query are the same for every HOW: a fixed pseudo-random
 * sequence over the VMAs of maps (read before the clock starts), inside
 * VMAs, at their edges, in gaps and above the last; "vmas" is the number
 * of addresses answered with a VMA, which must agree between HOWs.
 *
 * Each prints "vmas=N ns=T datagrams=D": the VMAs seen, the wall-clock
 * time of the whole read (CLOCK_MONOTONIC), the datagrams or read()s. With
 * ROUNDS, the walk is made ROUNDS times in the same process (one handle,
 * one buffer) and T is the fastest round after the first, so that neither
 * the first touch of the buffers nor the library's set-up is counted. Both
 * readers parse every field of every line or entry (start, end, mode,
 * offset, device, inode, name), so they do the same work.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/task_diag.h>
#include <taskdiag/taskdiag.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static volatile uint64_t sink;

static uint64_t hex(const char **p)
{
	uint64_t v = 0;

	for (;; (*p)++) {
		unsigned int c = (unsigned char)**p;

		if (c - '0' < 10)
			v = v * 16 + (c - '0');
		else if ((c | 0x20) - 'a' < 6)
			v = v * 16 + ((c | 0x20) - 'a' + 10);
		else
			return v;
	}
}

/* One maps line: every field, as a reader of maps must. */
static void parse_line(const char *p, const char *end)
{
	uint64_t s, e, off, maj, min, ino = 0;
	unsigned int mode = 0;
	const char *name;

	s = hex(&p);
	p++;
	e = hex(&p);
	p++;
	mode = (p[0] == 'r') | (p[1] == 'w') << 1 | (p[2] == 'x') << 2 | (p[3] == 's') << 3;
	p += 5;
	off = hex(&p);
	p++;
	maj = hex(&p);
	p++;
	min = hex(&p);
	p++;
	while (*p >= '0' && *p <= '9')
		ino = ino * 10 + (uint64_t)(*p++ - '0');
	while (p < end && *p == ' ')
		p++;
	name = p;
	sink += s + e + mode + off + maj + min + ino + (uint64_t)(end - name);
}

/* The VMAs of a maps text, kept for the address lookups (query). */
struct span {
	uint64_t start, end;
};

struct spans {
	struct span *v;
	size_t n, cap;
};

static void keep_span(struct spans *sp, const char *p)
{
	if (sp->n == sp->cap) {
		sp->cap = sp->cap ? 2 * sp->cap : 256;
		sp->v = realloc(sp->v, sp->cap * sizeof(*sp->v));
		if (!sp->v)
			exit(1);
	}
	sp->v[sp->n].start = hex(&p);
	p++;
	sp->v[sp->n++].end = hex(&p);
}

/*
 * Read and parse one maps file with read()s of @bufsz; VMAs seen. With @sp,
 * their spans are kept too.
 */
static uint64_t read_maps(int dirfd, const char *path, char *buf, size_t bufsz, uint64_t *reads,
			  struct spans *sp)
{
	size_t have = 0;
	uint64_t n = 0;
	ssize_t got;
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	for (;;) {
		char *p, *nl;

		got = read(fd, buf + have, bufsz - have);
		(*reads)++;
		if (got <= 0)
			break;
		have += (size_t)got;
		p = buf;
		while ((nl = memchr(p, '\n', have - (size_t)(p - buf)))) {
			parse_line(p, nl);
			if (sp)
				keep_span(sp, p);
			n++;
			p = nl + 1;
		}
		have -= (size_t)(p - buf);
		memmove(buf, p, have);
	}
	close(fd);
	return n;
}

/* The fastest of rounds 2..@rounds (round 1 if there is only one). */
static uint64_t best_of(uint64_t best, uint64_t t, int round, int rounds)
{
	if (rounds > 1 && round == 0)
		return best;
	return !best || t < best ? t : best;
}

static int cmd_maps(int rounds)
{
	static char buf[256 * 1024];
	uint64_t n = 0, reads = 0, best = 0;
	int r;

	for (r = 0; r < rounds; r++) {
		uint64_t t0 = now_ns();
		struct dirent *de;
		char path[300];
		DIR *d = opendir("/proc");
		int fd = dirfd(d);

		n = reads = 0;
		while ((de = readdir(d))) {
			if (de->d_name[0] < '1' || de->d_name[0] > '9')
				continue;
			snprintf(path, sizeof(path), "%s/maps", de->d_name);
			n += read_maps(fd, path, buf, sizeof(buf), &reads, NULL);
		}
		closedir(d);
		best = best_of(best, now_ns() - t0, r, rounds);
	}
	printf("vmas=%" PRIu64 " ns=%" PRIu64 " datagrams=%" PRIu64 "\n", n, best, reads);
	return 0;
}

static int cmd_mapsone(const char *pid, size_t bufsz)
{
	char *buf = malloc(bufsz + 4096);
	uint64_t n, reads = 0, t0 = now_ns();
	char path[64];

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	n = read_maps(AT_FDCWD, path, buf, bufsz, &reads, NULL);
	printf("vmas=%" PRIu64 " ns=%" PRIu64 " datagrams=%" PRIu64 "\n", n, now_ns() - t0, reads);
	free(buf);
	return 0;
}

static int cmd_lib(int rounds)
{
	const struct taskdiag_vma *v;
	struct taskdiag_vma_iter *it;
	struct taskdiag *td;
	uint64_t n = 0, best = 0;
	int err, r;

	err = taskdiag_open(&td, TASKDIAG_BACKEND_NETLINK);
	for (r = 0; r < rounds && !err; r++) {
		uint64_t t0 = now_ns();

		n = 0;
		err = taskdiag_vma_iter_start(td, NULL, &it);
		if (err)
			break;
		while ((err = taskdiag_vma_iter_next(it, &v)) == 1) {
			sink += v->start + v->end + v->flags + v->offset + v->dev_major +
				v->dev_minor + v->inode + (v->name ? strlen(v->name) : 0);
			n++;
		}
		taskdiag_vma_iter_end(it);
		best = best_of(best, now_ns() - t0, r, rounds);
	}
	taskdiag_close(td);
	if (err) {
		fprintf(stderr, "tdvmabench: %s\n", taskdiag_strerror(err));
		return 1;
	}
	printf("vmas=%" PRIu64 " ns=%" PRIu64 " datagrams=0\n", n, best);
	return 0;
}

/* The family id, from the controller. */
static int resolve(int fd)
{
	struct {
		struct nlmsghdr n;
		struct genlmsghdr g;
		char buf[64];
	} req = { 0 };
	static char buf[8192];
	struct nlattr *a;
	ssize_t len;
	size_t off;

	req.n.nlmsg_type = GENL_ID_CTRL;
	req.n.nlmsg_flags = NLM_F_REQUEST;
	req.g.cmd = CTRL_CMD_GETFAMILY;
	req.g.version = 1;
	a = (struct nlattr *)req.buf;
	a->nla_type = CTRL_ATTR_FAMILY_NAME;
	a->nla_len = NLA_HDRLEN + sizeof(TASK_DIAG_FAMILY_NAME);
	memcpy(req.buf + NLA_HDRLEN, TASK_DIAG_FAMILY_NAME, sizeof(TASK_DIAG_FAMILY_NAME));
	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(a->nla_len));
	if (send(fd, &req, req.n.nlmsg_len, 0) < 0)
		return -1;
	len = recv(fd, buf, sizeof(buf), 0);
	if (len < (ssize_t)(NLMSG_HDRLEN + GENL_HDRLEN))
		return -1;
	for (off = NLMSG_HDRLEN + GENL_HDRLEN; off + NLA_HDRLEN <= (size_t)len;
	     off += NLA_ALIGN(a->nla_len)) {
		a = (struct nlattr *)(buf + off);
		if (a->nla_len < NLA_HDRLEN)
			return -1;
		if (a->nla_type == CTRL_ATTR_FAMILY_ID)
			return *(uint16_t *)(buf + off + NLA_HDRLEN);
	}
	return -1;
}

/* Walk one entry nest: every field, as a reader of the dump must. */
static void parse_entry(const char *p, size_t len)
{
	struct task_diag_vma st;
	size_t off = 0, name = 0;

	while (off + NLA_HDRLEN <= len) {
		const struct nlattr *a = (const void *)(p + off);

		if ((a->nla_type & NLA_TYPE_MASK) == TASK_DIAG_A_VMA_ENTRY_VMA) {
			memset(&st, 0, sizeof(st));
			memcpy(&st, p + off + NLA_HDRLEN, sizeof(st));
		} else if ((a->nla_type & NLA_TYPE_MASK) == TASK_DIAG_A_VMA_ENTRY_NAME) {
			name = a->nla_len - NLA_HDRLEN;
		}
		off += NLA_ALIGN(a->nla_len);
	}
	sink += st.start + st.end + st.flags + st.offset + st.dev_major + st.dev_minor + st.inode +
		name;
}

static int cmd_rawone(const char *pid, size_t bufsz)
{
	struct {
		struct nlmsghdr n;
		struct genlmsghdr g;
		struct nlattr a1;
		uint32_t scope;
		struct nlattr a2;
		uint32_t pid;
	} req = { 0 };
	char *buf = malloc(bufsz);
	uint64_t n = 0, dgrams = 0, t0;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	int family = fd < 0 ? -1 : resolve(fd);

	if (family < 0 || !buf) {
		fprintf(stderr, "tdvmabench: no task_diag family\n");
		return 1;
	}
	req.n.nlmsg_len = sizeof(req);
	req.n.nlmsg_type = (uint16_t)family;
	req.n.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.n.nlmsg_seq = 1;
	req.g.cmd = TASK_DIAG_CMD_GET_VMA;
	req.g.version = TASK_DIAG_FAMILY_VERSION;
	req.a1.nla_len = NLA_HDRLEN + 4;
	req.a1.nla_type = TASK_DIAG_A_VMA_SCOPE;
	req.scope = TASK_DIAG_SCOPE_TASK;
	req.a2.nla_len = NLA_HDRLEN + 4;
	req.a2.nla_type = TASK_DIAG_A_VMA_PID;
	req.pid = (uint32_t)atoi(pid);
	t0 = now_ns();
	if (send(fd, &req, sizeof(req), 0) < 0)
		return 1;
	for (;;) {
		ssize_t len = recv(fd, buf, bufsz, 0);
		struct nlmsghdr *h;

		if (len <= 0) {
			fprintf(stderr, "tdvmabench: recv: %s\n", strerror(errno));
			return 1;
		}
		dgrams++;
		for (h = (void *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			const char *p = (const char *)NLMSG_DATA(h) + GENL_HDRLEN;
			size_t alen, off = 0;

			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) {
				int e = *(int *)NLMSG_DATA(h);

				if (e) {
					fprintf(stderr, "tdvmabench: get-vma: %s\n", strerror(-e));
					return 1;
				}
				goto done;
			}
			if (h->nlmsg_type < NLMSG_MIN_TYPE)
				continue;	/* the dump's first datagram: NLMSG_NOOP */
			alen = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
			while (off + NLA_HDRLEN <= alen) {
				const struct nlattr *a = (const void *)(p + off);

				if (a->nla_len < NLA_HDRLEN)
					break;
				if ((a->nla_type & NLA_TYPE_MASK) == TASK_DIAG_A_VMA_ENTRY) {
					parse_entry(p + off + NLA_HDRLEN, a->nla_len - NLA_HDRLEN);
					n++;
				}
				off += NLA_ALIGN(a->nla_len);
			}
		}
	}
done:
	printf("vmas=%" PRIu64 " ns=%" PRIu64 " datagrams=%" PRIu64 "\n", n, now_ns() - t0, dgrams);
	close(fd);
	free(buf);
	return 0;
}

/* ---- query ---- */

/* Every VMA of /proc/@pid/maps (for the addresses, and for HOW maps). */
static size_t parse_spans(const char *pid, struct span **out)
{
	static char buf[64 * 1024];
	struct spans sp = { 0 };
	uint64_t reads = 0;
	char path[64];

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	read_maps(AT_FDCWD, path, buf, sizeof(buf), &reads, &sp);
	*out = sp.v;
	return sp.n;
}

/* The fixed addresses: a VMA's inside, its start, end - 1, end (often a gap). */
static uint64_t *query_addrs(const struct span *v, size_t nv, size_t n)
{
	uint64_t *a = malloc(n * sizeof(*a)), x = 0x9e3779b97f4a7c15ull;
	size_t i;

	if (!a || !nv)
		exit(1);
	for (i = 0; i < n; i++) {
		const struct span *s;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		s = &v[x % nv];
		switch (x >> 60 & 3) {
		case 0:
			a[i] = s->start + (x >> 20) % (s->end - s->start);
			break;
		case 1:
			a[i] = s->start;
			break;
		case 2:
			a[i] = s->end - 1;
			break;
		default:
			a[i] = i % 64 ? s->end : v[nv - 1].end + 4096;
			break;
		}
	}
	return a;
}

/* struct procmap_query of <linux/fs.h> in 6.11 (older headers lack it). */
struct pmq {
	uint64_t size, query_flags, query_addr, vma_start, vma_end, vma_flags, vma_page_size;
	uint64_t vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};

#define PMQ_IOCTL _IOWR('f', 17, struct pmq)
#define PMQ_COVERING_OR_NEXT 0x10

static int cmd_query(const char *how, const char *pid, size_t n, int rounds)
{
	struct span *v = NULL;
	size_t nv = parse_spans(pid, &v), i;
	uint64_t *a = query_addrs(v, nv, n), found = 0, best = 0;
	static char name[4096];
	struct taskdiag *td = NULL;
	int r, err = 0;

	/* One handle for every round: its connection is made in round 1. */
	if (!strcmp(how, "lib"))
		err = -taskdiag_open(&td, TASKDIAG_BACKEND_NETLINK);
	for (r = 0; r < rounds && !err; r++) {
		uint64_t t0 = now_ns();

		found = 0;
		if (!strcmp(how, "maps")) {
			/* Read and parse maps afresh, then a binary search each. */
			free(v);
			nv = parse_spans(pid, &v);
			for (i = 0; i < n; i++) {
				size_t lo = 0, hi = nv;

				while (lo < hi) {
					size_t mid = lo + (hi - lo) / 2;

					if (v[mid].end > a[i])
						hi = mid;
					else
						lo = mid + 1;
				}
				if (lo < nv) {
					sink += v[lo].start;
					found++;
				}
			}
		} else if (!strcmp(how, "ioctl")) {
			char path[64];
			int fd;

			snprintf(path, sizeof(path), "/proc/%s/maps", pid);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			for (i = 0; fd >= 0 && i < n; i++) {
				struct pmq q = { .size = sizeof(q), .query_flags = PMQ_COVERING_OR_NEXT,
						 .query_addr = a[i], .vma_name_size = sizeof(name),
						 .vma_name_addr = (uintptr_t)name };

				if (ioctl(fd, PMQ_IOCTL, &q) == 0) {
					sink += q.vma_start + q.vma_end + q.vma_flags + q.vma_offset +
						q.inode + q.dev_major + q.dev_minor + q.vma_name_size;
					found++;
				} else if (errno != ENOENT) {
					err = errno;
					break;
				}
			}
			if (fd < 0)
				err = errno;
			else
				close(fd);
		} else if (!strcmp(how, "lib")) {
			struct taskdiag_vma_query q = { .pid = atoi(pid), .addrs = a, .naddrs = n };
			const struct taskdiag_vma *vma;
			struct taskdiag_vma_iter *it;
			uint64_t addr;
			int ret;

			ret = taskdiag_vma_query_start(td, &q, &it);
			while (!ret && (ret = taskdiag_vma_query_next(it, &addr, &vma)) == 1) {
				ret = 0;
				if (vma) {
					sink += vma->start + vma->end + vma->flags + vma->offset +
						vma->inode + vma->dev_major + vma->dev_minor +
						(vma->name ? strlen(vma->name) : 0);
					found++;
				}
			}
			if (ret < 0)
				err = -ret;
			taskdiag_vma_iter_end(it);
		} else {
			fprintf(stderr, "tdvmabench: query: HOW is maps, ioctl or lib\n");
			return 2;
		}
		best = best_of(best, now_ns() - t0, r, rounds);
	}
	taskdiag_close(td);
	if (err) {
		fprintf(stderr, "tdvmabench: query %s: %s\n", how, strerror(err));
		return 1;
	}
	printf("vmas=%" PRIu64 " ns=%" PRIu64 " datagrams=0\n", found, best);
	free(a);
	free(v);
	return 0;
}

static int cmd_hold(long n)
{
	long page = sysconf(_SC_PAGESIZE), i;
	char *base = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char c;

	if (base == MAP_FAILED)
		return 1;
	/* every other page read-only: two VMAs per step */
	for (i = 0; i < n / 2; i++)
		if (mprotect(base + 2 * i * page, (size_t)page, PROT_READ))
			return 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	int rounds = argc == 3 ? atoi(argv[2]) : 1;

	if ((argc == 2 || argc == 3) && rounds > 0 && !strcmp(argv[1], "maps"))
		return cmd_maps(rounds);
	if ((argc == 2 || argc == 3) && rounds > 0 && !strcmp(argv[1], "lib"))
		return cmd_lib(rounds);
	if (argc == 4 && !strcmp(argv[1], "mapsone"))
		return cmd_mapsone(argv[2], (size_t)atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "rawone"))
		return cmd_rawone(argv[2], (size_t)atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "hold"))
		return cmd_hold(atol(argv[2]));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "query") && atol(argv[4]) > 0)
		return cmd_query(argv[2], argv[3], (size_t)atol(argv[4]),
				 argc == 6 && atoi(argv[5]) > 0 ? atoi(argv[5]) : 1);
	fprintf(stderr, "usage: tdvmabench maps [ROUNDS] | lib [ROUNDS] | mapsone PID BUF | "
		"rawone PID BUF | hold N | query maps|ioctl|lib PID N [ROUNDS]\n");
	return 2;
}
