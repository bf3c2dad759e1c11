// SPDX-License-Identifier: GPL-2.0
/*
 * task_diag_all --maps: the memory maps of processes, printed as procps
 * pmap -x prints them (address, size, mode, mapping), from libtaskdiag's
 * VMA iterator. The RSS and Dirty columns need page-table walks the VMA
 * dump does not make: they are printed as "-".
 *
 * With --addr A,...: the address query, one row per address, the VMA
 * covering it or the next one above it (PROCMAP_QUERY's lookup), "none" if
 * there is none.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <taskdiag/taskdiag.h>

#include "td_backend_opt.h"
#include "tda.h"

void tda_maps_usage(FILE *f)
{
	fputs("Usage: " PROG " --maps [-a | -p PID,...] [--backend B] [--file-backed] [--exec] [--build-id]\n"
	      "       " PROG " --maps -p PID --addr A[,A...] [--backend B] [--file-backed] [--exec]\n"
	      "                 [--build-id]\n"
	      "The memory maps of processes as pmap -x prints them (RSS and Dirty as -).\n"
	      "      --addr A,..  for each address (hex), the VMA covering it or the next\n"
	      "                   one above it, as a row after the address; none if none\n"
	      "  -a, --all        every process the caller may read (default)\n"
	      "  -p, --pid PID,.. these processes, in pid order\n"
	      "      --backend B  auto (default), netlink or procfs\n"
	      "      --quiet-fallback  no notice when auto reads /proc for want of the module\n"
	      "      --file-backed, --exec  only VMAs that map a file, that are executable\n"
	      "      --build-id   the GNU build id of a mapped ELF file, in hex, after the\n"
	      "                   mapping (as readelf -n prints it)\n", f);
}

/* The process's name line, as pmap's: "PID:   cmdline" (or [comm]). */
static void maps_header(struct taskdiag *td, pid_t pid)
{
	struct taskdiag_request req = { .scope = TASKDIAG_SCOPE_TASK, .pid = pid,
					.groups = TASKDIAG_GROUP_BASE | TASKDIAG_GROUP_CMDLINE };
	const struct taskdiag_task *t;
	struct taskdiag_iter *it;
	const void *args = NULL;
	const char *comm = "";
	size_t len = 0, i;

	printf("%d:   ", (int)pid);
	if (td && !taskdiag_iter_start(td, &req, &it)) {
		if (taskdiag_iter_next(it, &t) == 1) {
			if (taskdiag_task_get_bytes(t, TASKDIAG_ITEM_CMDLINE, &args, &len))
				len = 0;
			if (taskdiag_task_get_string(t, TASKDIAG_ITEM_BASE_COMM, &comm))
				comm = "";
		}
		if (len) {
			const char *a = args;

			while (len && !a[len - 1])
				len--;
			for (i = 0; i < len; i++)
				putchar(a[i] ? a[i] : ' ');
		} else {
			printf("[%s]", comm);
		}
		taskdiag_iter_end(it);
	}
	printf("\nAddress           Kbytes     RSS   Dirty Mode  Mapping\n");
}

/* pmap's mapping column: a file's base name, else [ anon ] or [ stack ]. */
static void maps_row(const struct taskdiag_vma *v)
{
	const char *name = v->name, *slash = name ? strrchr(name, '/') : NULL;
	char mode[6] = "-----";
	uint64_t kb = (v->end - v->start) >> 10;

	if (v->flags & TASKDIAG_VMA_F_READ)
		mode[0] = 'r';
	if (v->flags & TASKDIAG_VMA_F_WRITE)
		mode[1] = 'w';
	if (v->flags & TASKDIAG_VMA_F_EXEC)
		mode[2] = 'x';
	if (v->flags & TASKDIAG_VMA_F_MAYSHARE)
		mode[3] = 's';
	uint32_t i;

	printf("%016" PRIx64 " %7" PRIu64 "       -       - %s ", v->start, kb, mode);
	if (!v->dev_major && name && strstr(name, "/SYSV"))
		printf("  [ shmid=0x%" PRIx64 " ]", v->inode);
	else if (slash)
		printf("%s", slash[1] ? slash + 1 : slash);
	else if (name && !strcmp(name, "[stack]"))
		printf("  [ stack ]");
	else
		printf("  [ anon ]");
	if (v->build_id_len)
		printf("  ");
	for (i = 0; i < v->build_id_len; i++)
		printf("%02x", v->build_id[i]);
	putchar('\n');
}

static void maps_total(uint64_t kb)
{
	printf("---------------- ------- ------- ------- \n");
	printf("total kB         %7" PRIu64 "       -       -\n", kb);
}

/* --addr: the query's answers, "ADDRESS  row" each. */
static int maps_query(struct taskdiag *td, const struct tda_maps *m)
{
	struct taskdiag_vma_query q = { .pid = m->pids[0], .filter = m->filter,
					.addrs = m->addrs, .naddrs = m->naddrs };
	const struct taskdiag_vma *v;
	struct taskdiag_vma_iter *it;
	uint64_t a;
	int ret;

	ret = taskdiag_vma_query_start(td, &q, &it);
	if (ret)
		return report(ret, td, "--maps --addr");
	printf("Query            Address           Kbytes     RSS   Dirty Mode  Mapping\n");
	while ((ret = taskdiag_vma_query_next(it, &a, &v)) == 1) {
		printf("%016" PRIx64 " ", a);
		if (v)
			maps_row(v);
		else
			printf("none\n");
	}
	taskdiag_vma_iter_end(it);
	return ret < 0 ? report(ret, td, "--maps --addr") : 0;
}

static int maps_one(struct taskdiag *td, struct taskdiag *names,
		    const struct taskdiag_vma_request *req)
{
	const struct taskdiag_vma *v;
	struct taskdiag_vma_iter *it;
	pid_t cur = 0;
	uint64_t kb = 0;
	int ret;

	ret = taskdiag_vma_iter_start(td, req, &it);
	if (ret)
		return report(ret, td, "--maps");
	if (req->pid) {
		maps_header(names, req->pid);
		cur = req->pid;
	}
	while ((ret = taskdiag_vma_iter_next(it, &v)) == 1) {
		if (v->pid != cur) {
			if (cur)
				maps_total(kb);
			kb = 0;
			cur = v->pid;
			maps_header(names, cur);
		}
		maps_row(v);
		kb += (v->end - v->start) >> 10;
	}
	if (cur && ret == 0)
		maps_total(kb);
	taskdiag_vma_iter_end(it);
	return ret < 0 ? report(ret, td, "--maps%s", req->pid ? " -p" : "") : 0;
}

int tda_maps_main(const struct tda_maps *m)
{
	struct taskdiag_vma_request req = { .filter = m->filter };
	struct taskdiag *td = NULL, *names = NULL;
	size_t i;
	int ret;

	ret = taskdiag_open(&td, m->backend);
	if (ret)
		return report(ret, NULL, "opening the backend");
	td_backend_notice(PROG, td, m->backend, m->quiet_fallback);
	if (m->naddrs) {
		ret = maps_query(td, m);
		taskdiag_close(td);
		return ret;
	}
	/* The header lines' names, from a second handle (one iteration each). */
	if (taskdiag_open(&names, taskdiag_get_backend(td)))
		names = NULL;
	if (!m->npids)
		ret = maps_one(td, names, &req);
	for (i = 0; i < m->npids && !ret; i++) {
		req.pid = m->pids[i];
		ret = maps_one(td, names, &req);
	}
	taskdiag_close(names);
	taskdiag_close(td);
	return ret;
}
