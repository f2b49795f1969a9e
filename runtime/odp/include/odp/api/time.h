/* Bundled ODP: time (odp/api/time.h).
 *
 * Local and global time are the same clock here (CLOCK_MONOTONIC, in ns),
 * so values may be compared across threads.
 */
#ifndef ODP_BUNDLED_API_TIME_H_
#define ODP_BUNDLED_API_TIME_H_

#include <odp/api/time_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Current time. */
odp_time_t odp_time_local(void);
odp_time_t odp_time_global(void);
odp_time_t odp_time_local_strict(void);
odp_time_t odp_time_global_strict(void);

/** Current time in nanoseconds. */
uint64_t odp_time_local_ns(void);
uint64_t odp_time_global_ns(void);
uint64_t odp_time_local_strict_ns(void);
uint64_t odp_time_global_strict_ns(void);

/** t2 - t1; t2 must not be earlier than t1. */
static inline odp_time_t odp_time_diff(odp_time_t t2, odp_time_t t1)
{
	odp_time_t t;

	t.u64 = t2.u64 - t1.u64;
	return t;
}

static inline uint64_t odp_time_diff_ns(odp_time_t t2, odp_time_t t1)
{
	return t2.u64 - t1.u64;
}

static inline odp_time_t odp_time_add_ns(odp_time_t time, uint64_t ns)
{
	odp_time_t t;

	t.u64 = time.u64 + ns;
	return t;
}

static inline odp_time_t odp_time_sum(odp_time_t t1, odp_time_t t2)
{
	odp_time_t t;

	t.u64 = t1.u64 + t2.u64;
	return t;
}

static inline uint64_t odp_time_to_ns(odp_time_t time)
{
	return time.u64;
}

static inline odp_time_t odp_time_local_from_ns(uint64_t ns)
{
	odp_time_t t;

	t.u64 = ns;
	return t;
}

static inline odp_time_t odp_time_global_from_ns(uint64_t ns)
{
	return odp_time_local_from_ns(ns);
}

/** <0 when t2 is earlier than t1, 0 when equal, >0 when later. */
static inline int odp_time_cmp(odp_time_t t2, odp_time_t t1)
{
	return (t2.u64 > t1.u64) - (t2.u64 < t1.u64);
}

/** Resolution in Hz (ticks per second). */
uint64_t odp_time_local_res(void);
uint64_t odp_time_global_res(void);

/** Wait until the given local time. */
void odp_time_wait_until(odp_time_t time);

/** Wait at least 'ns' nanoseconds. */
void odp_time_wait_ns(uint64_t ns);

#ifdef __cplusplus
}
#endif

#endif
