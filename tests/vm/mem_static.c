// SPDX-License-Identifier: GPL-2.0
/*
 * mem_static: a fixture for test_mem.py's tdps check, linked statically so
 * that it maps no file page that ps or tdps map too (a shared library's
 * page mapped by the tool that reads it would change its Pss and USS while
 * the tool runs). It writes 1 MiB of private and 256 KiB of shared
 * anonymous memory, forks a child that writes a quarter of the shared part
 * (so that some pages are mapped twice), prints both pids and waits for
 * SIGTERM.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	size_t priv = 1 << 20, shared = 256 << 10;
	char *p = mmap(NULL, priv, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *s = mmap(NULL, shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int fds[2];
	pid_t kid;
	char c;

	if (p == MAP_FAILED || s == MAP_FAILED || pipe(fds))
		return 1;
	memset(p, 1, priv);
	memset(s, 2, shared);
	kid = fork();
	if (kid < 0)
		return 1;
	if (kid == 0) {
		memset(s, 3, shared / 4);
		if (write(fds[1], "x", 1) != 1)
			return 1;
		for (;;)
			pause();
	}
	if (read(fds[0], &c, 1) != 1)
		return 1;
	printf("%d %d\n", (int)getpid(), (int)kid);
	fflush(stdout);
	for (;;)
		pause();
}
