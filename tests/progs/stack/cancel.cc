// SPDX-License-Identifier: GPL-2.0-or-later
// cancel.cc: a thread blocked in a traced call (bhv_apply calling sleep)
// is cancelled: the destructors of the frames around the call must run,
// releasing the lock a guard holds, as they do untraced.
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include <mutex>

extern "C" {
#include "../behaviour/libbhv.h"
}

static std::mutex lock;

// The guard's destructor says it ran.
struct noisy {
	~noisy() { printf("destructor ran\n"); }
};

// bhv_apply's callback: block at a cancellation point.
static long block(long x)
{
	sleep(10);
	return x;
}

static void *worker(void *arg)
{
	noisy n;
	std::lock_guard<std::mutex> guard(lock);

	(void)arg;
	bhv_apply(block, 1);
	return nullptr;
}

int main()
{
	pthread_t t;
	void *ret;

	pthread_create(&t, nullptr, worker, nullptr);
	usleep(200000);
	pthread_cancel(t);
	pthread_join(t, &ret);
	printf("cancelled: %s\n", ret == PTHREAD_CANCELED ? "yes" : "no");
	printf("lock free: %s\n", lock.try_lock() ? "yes" : "no");
	return 0;
}
