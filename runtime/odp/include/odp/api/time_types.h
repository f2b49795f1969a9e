/* Bundled ODP: time types (odp/api/time_types.h). */
#ifndef ODP_BUNDLED_API_TIME_TYPES_H_
#define ODP_BUNDLED_API_TIME_TYPES_H_

#include <odp/api/std_types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ODP_TIME_USEC_IN_NS  1000ULL
#define ODP_TIME_MSEC_IN_NS  1000000ULL
#define ODP_TIME_SEC_IN_NS   1000000000ULL
#define ODP_TIME_MIN_IN_NS   60000000000ULL
#define ODP_TIME_HOUR_IN_NS  3600000000000ULL

/** A point in time or a duration. Here it counts nanoseconds of CLOCK_MONOTONIC. */
typedef struct odp_time_s {
	union {
		uint64_t u64;
		uint64_t nsec;
		uint64_t count;
	};
} odp_time_t;

/** Zero time. */
#define ODP_TIME_NULL ((odp_time_t){.u64 = 0})

#ifdef __cplusplus
}
#endif

#endif
