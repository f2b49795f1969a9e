/* Bundled ODP: ticket locks, fair in arrival order (odp/api/ticketlock.h). */
#ifndef ODP_BUNDLED_API_TICKETLOCK_H_
#define ODP_BUNDLED_API_TICKETLOCK_H_

#include <odp/api/atomic.h>
#include <odp/api/cpu.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct odp_ticketlock_s {
	odp_atomic_u32_t next_ticket; /* next ticket to hand out */
	odp_atomic_u32_t cur_ticket;  /* ticket now being served */
} odp_ticketlock_t;

static inline void odp_ticketlock_init(odp_ticketlock_t *tklock)
{
	odp_atomic_init_u32(&tklock->next_ticket, 0);
	odp_atomic_init_u32(&tklock->cur_ticket, 0);
}

static inline void odp_ticketlock_lock(odp_ticketlock_t *tklock)
{
	uint32_t ticket = odp_atomic_fetch_inc_u32(&tklock->next_ticket);

	while (odp_atomic_load_acq_u32(&tklock->cur_ticket) != ticket)
		odp_cpu_pause();
}

/** 1 when the lock was free and is now taken, 0 otherwise. */
static inline int odp_ticketlock_trylock(odp_ticketlock_t *tklock)
{
	uint32_t cur = odp_atomic_load_u32(&tklock->cur_ticket);
	uint32_t next = cur;

	return odp_atomic_cas_acq_u32(&tklock->next_ticket, &next, cur + 1);
}

static inline void odp_ticketlock_unlock(odp_ticketlock_t *tklock)
{
	/* Only the holder writes cur_ticket. */
	uint32_t cur = odp_atomic_load_u32(&tklock->cur_ticket);

	odp_atomic_store_rel_u32(&tklock->cur_ticket, cur + 1);
}

static inline int odp_ticketlock_is_locked(odp_ticketlock_t *tklock)
{
	return odp_atomic_load_u32(&tklock->cur_ticket) !=
	       odp_atomic_load_u32(&tklock->next_ticket);
}

#ifdef __cplusplus
}
#endif

#endif
