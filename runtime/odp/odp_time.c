/* Bundled ODP: time, on CLOCK_MONOTONIC. */
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>

#include "odp_internal.h"

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * ODP_TIME_SEC_IN_NS + (uint64_t)ts.tv_nsec;
}

odp_time_t odp_time_local(void)
{
	return odp_time_local_from_ns(now_ns());
}

odp_time_t odp_time_global(void)
{
	return odp_time_local_from_ns(now_ns());
}

odp_time_t odp_time_local_strict(void)
{
	return odp_time_local_from_ns(now_ns());
}

odp_time_t odp_time_global_strict(void)
{
	return odp_time_local_from_ns(now_ns());
}

uint64_t odp_time_local_ns(void)
{
	return now_ns();
}

uint64_t odp_time_global_ns(void)
{
	return now_ns();
}

uint64_t odp_time_local_strict_ns(void)
{
	return now_ns();
}

uint64_t odp_time_global_strict_ns(void)
{
	return now_ns();
}

uint64_t odp_time_local_res(void)
{
	return ODP_TIME_SEC_IN_NS;
}

uint64_t odp_time_global_res(void)
{
	return ODP_TIME_SEC_IN_NS;
}

/* Short waits spin (sleeping is too coarse); longer ones sleep, then spin. */
#define SPIN_NS (50 * ODP_TIME_USEC_IN_NS)

void odp_time_wait_until(odp_time_t time)
{
	uint64_t end = time.u64;
	uint64_t now = now_ns();

	if (end > now + SPIN_NS) {
		uint64_t wake = end - SPIN_NS;
		struct timespec ts = {
			.tv_sec = (time_t)(wake / ODP_TIME_SEC_IN_NS),
			.tv_nsec = (long)(wake % ODP_TIME_SEC_IN_NS),
		};

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	while (now_ns() < end)
		odp_cpu_pause();
}

void odp_time_wait_ns(uint64_t ns)
{
	odp_time_wait_until(odp_time_local_from_ns(now_ns() + ns));
}
