/* Bundled ODP: thread barriers (odp/api/barrier.h). */
#ifndef ODP_BUNDLED_API_BARRIER_H_
#define ODP_BUNDLED_API_BARRIER_H_

#include <odp/api/atomic.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Barrier for a fixed number of threads; reusable round after round. */
typedef struct odp_barrier_s {
	uint32_t         count; /* threads per round */
	odp_atomic_u32_t bar;   /* arrivals, counting over two rounds */
} odp_barrier_t;

/** Set up a barrier for 'count' threads. */
void odp_barrier_init(odp_barrier_t *barr, int count);

/**
 * Wait until 'count' threads have arrived. Full memory barrier: stores made
 * before the call are visible to all threads after it.
 */
void odp_barrier_wait(odp_barrier_t *barr);

#ifdef __cplusplus
}
#endif

#endif
