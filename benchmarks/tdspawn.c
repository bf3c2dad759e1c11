// SPDX-License-Identifier: GPL-2.0
/*
 * tdspawn: the population of a benchmark. Forks PROCS processes, each with
 * THREADS threads (the main one included), all sleeping, spread round-robin
 * over the given uids (each child also takes the uid as its gid), prints
 * "ready N" on standard output when every thread exists, and keeps them
 * until its standard input reaches end of file (or it gets SIGTERM): then it
 * kills and reaps every child before exiting. A child's main thread wakes
 * on SIGUSR1 (and sleeps again): a benchmark that wants some tasks to have
 * run sends it.
 *
 *   tdspawn PROCS THREADS UID[,UID...]
 *
 * Run as root: it lifts RLIMIT_NPROC, which the kernel sized at boot from
 * the memory, before threads-max was raised.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <grp.h>

#define TDS_MAX_UIDS	64
#define TDS_STACK	(64 * 1024)

static void *tds_sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void tds_on_wake(int sig)
{
	(void)sig;
}

/* The child: drop to @uid, start @threads - 1 threads, report, sleep. */
static void tds_child(int readyfd, uid_t uid, int threads)
{
	struct sigaction sa;
	pthread_attr_t attr;
	pthread_t t;
	int i, err, null;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
	/* Let go of the parent's pipes: only it talks to the caller. */
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(null, STDOUT_FILENO) < 0)
		_exit(1);
	if (null > STDERR_FILENO)
		close(null);
	if (setgroups(0, NULL) || setgid((gid_t)uid) || setuid(uid)) {
		perror("tdspawn: setuid");
		_exit(1);
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, TDS_STACK);
	for (i = 1; i < threads; i++) {
		err = pthread_create(&t, &attr, tds_sleeper, NULL);
		if (err) {
			fprintf(stderr, "tdspawn: pthread_create: %s\n", strerror(err));
			_exit(1);
		}
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tds_on_wake;
	sigaction(SIGUSR1, &sa, NULL);
	if (write(readyfd, "x", 1) != 1)
		_exit(1);
	close(readyfd);
	for (;;)
		pause();
}

static volatile sig_atomic_t tds_stop;

static void tds_on_term(int sig)
{
	(void)sig;
	tds_stop = 1;
}

int main(int argc, char **argv)
{
	uid_t uids[TDS_MAX_UIDS];
	int procs, threads, nuids = 0, i, pfd[2];
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	struct sigaction sa;
	pid_t *pids;
	char *s, *tok, *save = NULL, buf[4096];
	long ready = 0;
	ssize_t n;

	if (argc != 4) {
		fprintf(stderr, "usage: tdspawn PROCS THREADS UID[,UID...]\n");
		return 2;
	}
	procs = atoi(argv[1]);
	threads = atoi(argv[2]);
	for (s = argv[3]; (tok = strtok_r(s, ",", &save)) && nuids < TDS_MAX_UIDS; s = NULL)
		uids[nuids++] = (uid_t)strtoul(tok, NULL, 10);
	if (procs < 1 || threads < 1 || !nuids) {
		fprintf(stderr, "tdspawn: bad arguments\n");
		return 2;
	}
	if (setrlimit(RLIMIT_NPROC, &rl))
		perror("tdspawn: RLIMIT_NPROC");
	pids = calloc((size_t)procs, sizeof(*pids));
	if (!pids || pipe(pfd))
		return 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tds_on_term;
	sigaction(SIGTERM, &sa, NULL);

	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			fprintf(stderr, "tdspawn: fork %d: %s\n", i, strerror(errno));
			procs = i;
			goto out;
		}
		if (pids[i] == 0) {
			close(pfd[0]);
			tds_child(pfd[1], uids[i % nuids], threads);
		}
	}
	close(pfd[1]);
	pfd[1] = -1;
	while (ready < procs && (n = read(pfd[0], buf, sizeof(buf))) > 0)
		ready += n;
	if (ready < procs) {
		fprintf(stderr, "tdspawn: only %ld of %d children started\n", ready, procs);
		goto out;
	}
	printf("ready %ld\n", (long)procs * threads);
	fflush(stdout);

	/* Hold the population until told to let go. */
	while (!tds_stop && (n = read(STDIN_FILENO, buf, sizeof(buf))) != 0)
		if (n < 0 && errno != EINTR)
			break;
out:
	for (i = 0; i < procs; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < procs; i++)
		waitpid(pids[i], NULL, 0);
	return ready == procs ? 0 : 1;
}
