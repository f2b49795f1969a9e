/* Bundled ODP: thread barrier. */
#include "odp_internal.h"

void odp_barrier_init(odp_barrier_t *barr, int count)
{
	barr->count = (uint32_t)count;
	odp_atomic_init_u32(&barr->bar, 0);
	odp_mb_full();
}

/*
 * 'bar' counts arrivals over two rounds, 0 ... 2 * count - 1. In the first
 * round threads arrive below 'count' and wait until it reaches 'count'; in
 * the second they arrive at or above it and wait until the last one wraps
 * it to 0. So the barrier can be reused without a separate reset.
 */
void odp_barrier_wait(odp_barrier_t *barr)
{
	uint32_t count = barr->count;
	uint32_t ticket;
	int first_half;

	odp_mb_full();
	ticket = __atomic_fetch_add(&barr->bar.v, 1, __ATOMIC_ACQ_REL);
	first_half = ticket < count;
	if (ticket == 2 * count - 1) {
		odp_atomic_store_rel_u32(&barr->bar, 0);
	} else {
		while ((odp_atomic_load_acq_u32(&barr->bar) < count) == first_half)
			odp_cpu_pause();
	}
	odp_mb_full();
}
