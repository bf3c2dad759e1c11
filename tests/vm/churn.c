// SPDX-License-Identifier: GPL-2.0
/*
 * churn: fork and reap processes, and create and join threads, as fast as
 * possible for a given number of seconds; the load the churn test dumps
 * under. Prints how many of each it made.
 *
 *   churn SECONDS     (SIGTERM stops it early, with the report)
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int stop;
static unsigned long threads_made;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void *nothing(void *arg)
{
	return arg;
}

static void *thread_churn(void *arg)
{
	pthread_t t[4];
	int i;

	while (!stop) {
		for (i = 0; i < 4; i++)
			if (pthread_create(&t[i], NULL, nothing, NULL))
				t[i] = 0;
		for (i = 0; i < 4; i++)
			if (t[i]) {
				pthread_join(t[i], NULL);
				__atomic_add_fetch(&threads_made, 1, __ATOMIC_RELAXED);
			}
	}
	return arg;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 10;
	unsigned long forks = 0;
	struct timespec start, now;
	pthread_t th;

	signal(SIGTERM, on_term);
	if (pthread_create(&th, NULL, thread_churn, NULL))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!stop) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		if (pid > 0) {
			waitpid(pid, NULL, 0);
			forks++;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec + (now.tv_nsec - start.tv_nsec) / 1e9 > secs)
			break;
	}
	stop = 1;
	pthread_join(th, NULL);
	printf("churn: %lu processes forked and reaped, %lu threads created and joined\n", forks,
	       threads_made);
	return 0;
}
