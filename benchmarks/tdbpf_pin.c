// SPDX-License-Identifier: GPL-2.0
/*
 * tdbpf_pin: load the BPF task iterators and pin them as files that any
 * later open()+read() runs (bpffs must be mounted):
 *
 *   tdbpf_pin OBJ DIR [OPEN_OBJ]
 *
 * OBJ (task_iter.bpf.o): DIR/threads (td_threads) and DIR/procs (td_procs,
 * the classic iterator). With OPEN_OBJ (task_iter_open.bpf.o, 6.7+: the
 * open-coded iterator): DIR/procs is td_procs_open instead, attached to
 * tid 1, its record array is pinned as DIR/procs_recs, and td_procs moves
 * to DIR/procs_classic. Prints which iterator DIR/procs is ("procs:
 * open-coded" or "procs: classic"); if OPEN_OBJ does not load, it says why
 * on stderr and pins the classic one.
 *
 * Needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN). Kept apart from tdbench
 * so that the reader links neither libbpf nor libelf.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <bpf/libbpf.h>

__attribute__((format(printf, 2, 0)))
static int tdp_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static struct bpf_object *tdp_load(const char *file)
{
	struct bpf_object *obj;
	int err;

	obj = bpf_object__open_file(file, NULL);
	if (!obj) {
		fprintf(stderr, "tdbpf_pin: open %s: %s\n", file, strerror(errno));
		return NULL;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "tdbpf_pin: load %s: %s\n", file, strerror(-err));
		bpf_object__close(obj);
		return NULL;
	}
	return obj;
}

/* Attach @name of @obj as an iterator (to task @tid if non-zero), pin it. */
static int tdp_pin(struct bpf_object *obj, const char *name, unsigned int tid,
		   const char *dir, const char *file)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, name);
	LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info linfo;
	struct bpf_link *link;
	char path[4096];
	int err;

	if (!prog) {
		fprintf(stderr, "tdbpf_pin: no program %s\n", name);
		return -1;
	}
	memset(&linfo, 0, sizeof(linfo));
	if (tid) {
		linfo.task.tid = tid;
		opts.link_info = &linfo;
		opts.link_info_len = sizeof(linfo);
	}
	link = bpf_program__attach_iter(prog, &opts);
	if (!link) {
		fprintf(stderr, "tdbpf_pin: attach %s: %s\n", name, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	err = bpf_link__pin(link, path);
	if (err) {
		fprintf(stderr, "tdbpf_pin: pin %s: %s\n", path, strerror(-err));
		bpf_link__destroy(link);
		return -1;
	}
	/* The pin holds the link: dropping ours leaves it attached. */
	bpf_link__disconnect(link);
	bpf_link__destroy(link);
	return 0;
}

/* The open-coded iterator as DIR/procs, its records as DIR/procs_recs. */
static int tdp_pin_open(const char *file, const char *dir)
{
	struct bpf_object *obj = tdp_load(file);
	struct bpf_map *map;
	char path[4096];
	int err = -1;

	if (!obj)
		return -1;
	map = bpf_object__find_map_by_name(obj, "td_recs");
	snprintf(path, sizeof(path), "%s/procs_recs", dir);
	if (!map)
		fprintf(stderr, "tdbpf_pin: %s has no map td_recs\n", file);
	else if (bpf_map__pin(map, path))
		fprintf(stderr, "tdbpf_pin: pin %s: %s\n", path, strerror(errno));
	else if (tdp_pin(obj, "td_procs_open", 1, dir, "procs"))
		bpf_map__unpin(map, path);
	else
		err = 0;
	bpf_object__close(obj);
	return err;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	int open_coded = 0;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: tdbpf_pin OBJ DIR [OPEN_OBJ]\n");
		return 2;
	}
	libbpf_set_print(tdp_print);
	if (mkdir(argv[2], 0700) && errno != EEXIST) {
		fprintf(stderr, "tdbpf_pin: mkdir %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	obj = tdp_load(argv[1]);
	if (!obj || tdp_pin(obj, "td_threads", 0, argv[2], "threads"))
		return 1;
	if (argc == 4)
		open_coded = !tdp_pin_open(argv[3], argv[2]);
	if (tdp_pin(obj, "td_procs", 0, argv[2], open_coded ? "procs_classic" : "procs"))
		return 1;
	bpf_object__close(obj);
	printf("procs: %s\n", open_coded ? "open-coded" : "classic");
	return 0;
}
