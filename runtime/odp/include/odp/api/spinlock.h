/* Bundled ODP: spin locks (odp/api/spinlock.h). */
#ifndef ODP_BUNDLED_API_SPINLOCK_H_
#define ODP_BUNDLED_API_SPINLOCK_H_

#include <odp/api/cpu.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Spin lock; a test-and-test-and-set byte. */
typedef struct odp_spinlock_s {
	char lock;
} odp_spinlock_t;

static inline void odp_spinlock_init(odp_spinlock_t *splock)
{
	__atomic_store_n(&splock->lock, 0, __ATOMIC_RELAXED);
}

/** Take the lock, spinning while another thread holds it. */
static inline void odp_spinlock_lock(odp_spinlock_t *splock)
{
	while (__atomic_exchange_n(&splock->lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&splock->lock, __ATOMIC_RELAXED))
			odp_cpu_pause();
}

/** Take the lock when it is free: 1 when taken, 0 otherwise. */
static inline int odp_spinlock_trylock(odp_spinlock_t *splock)
{
	return __atomic_exchange_n(&splock->lock, 1, __ATOMIC_ACQUIRE) == 0;
}

static inline void odp_spinlock_unlock(odp_spinlock_t *splock)
{
	__atomic_store_n(&splock->lock, 0, __ATOMIC_RELEASE);
}

/** 1 when some thread holds the lock. */
static inline int odp_spinlock_is_locked(odp_spinlock_t *splock)
{
	return __atomic_load_n(&splock->lock, __ATOMIC_RELAXED) != 0;
}

#ifdef __cplusplus
}
#endif

#endif
