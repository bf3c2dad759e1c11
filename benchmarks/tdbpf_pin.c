// SPDX-License-Identifier: GPL-2.0
/*
 * tdbpf_pin: load the BPF task iterators of task_iter.bpf.o and pin them
 * as files that any later open()+read() runs (bpffs must be mounted):
 *
 *   tdbpf_pin OBJ DIR     creates DIR/procs (td_procs) and DIR/threads
 *                         (td_threads)
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

int main(int argc, char **argv)
{
	static const char *const progs[][2] = {
		{ "td_procs", "procs" },
		{ "td_threads", "threads" },
	};
	struct bpf_object *obj;
	unsigned int i;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: tdbpf_pin OBJ DIR\n");
		return 2;
	}
	libbpf_set_print(tdp_print);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "tdbpf_pin: open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "tdbpf_pin: load %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	if (mkdir(argv[2], 0700) && errno != EEXIST) {
		fprintf(stderr, "tdbpf_pin: mkdir %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		struct bpf_program *prog = bpf_object__find_program_by_name(obj, progs[i][0]);
		struct bpf_link *link;
		char path[4096];

		if (!prog) {
			fprintf(stderr, "tdbpf_pin: no program %s\n", progs[i][0]);
			return 1;
		}
		link = bpf_program__attach_iter(prog, NULL);
		if (!link) {
			fprintf(stderr, "tdbpf_pin: attach %s: %s\n", progs[i][0], strerror(errno));
			return 1;
		}
		snprintf(path, sizeof(path), "%s/%s", argv[2], progs[i][1]);
		err = bpf_link__pin(link, path);
		if (err) {
			fprintf(stderr, "tdbpf_pin: pin %s: %s\n", path, strerror(-err));
			return 1;
		}
		/* The pin holds the link: dropping ours leaves it attached. */
		bpf_link__disconnect(link);
		bpf_link__destroy(link);
	}
	bpf_object__close(obj);
	return 0;
}
