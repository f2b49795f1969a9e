/* Bundled ODP: atomic integers (odp/api/atomic.h).
 *
 * Plain operations are relaxed: atomic, but they order no other access.
 * The _acq, _rel and _acq_rel forms add acquire/release ordering.
 */
#ifndef ODP_BUNDLED_API_ATOMIC_H_
#define ODP_BUNDLED_API_ATOMIC_H_

#include <odp/api/std_types.h>
#include <odp/api/align.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Atomic 32-bit unsigned integer; use only through the calls below. */
typedef struct ODP_ALIGNED(sizeof(uint32_t)) odp_atomic_u32_s {
	uint32_t v;
} odp_atomic_u32_t;

/** Atomic 64-bit unsigned integer; use only through the calls below. */
typedef struct ODP_ALIGNED(sizeof(uint64_t)) odp_atomic_u64_s {
	uint64_t v;
} odp_atomic_u64_t;

#define _ODP_RLX __ATOMIC_RELAXED
#define _ODP_ACQ __ATOMIC_ACQUIRE
#define _ODP_REL __ATOMIC_RELEASE
#define _ODP_AR  __ATOMIC_ACQ_REL

/* ---- u32 ---- */

static inline void odp_atomic_init_u32(odp_atomic_u32_t *atom, uint32_t val)
{
	__atomic_store_n(&atom->v, val, _ODP_RLX);
}

static inline uint32_t odp_atomic_load_u32(odp_atomic_u32_t *atom)
{
	return __atomic_load_n(&atom->v, _ODP_RLX);
}

static inline void odp_atomic_store_u32(odp_atomic_u32_t *atom, uint32_t val)
{
	__atomic_store_n(&atom->v, val, _ODP_RLX);
}

/** Add and return the value before the add. */
static inline uint32_t odp_atomic_fetch_add_u32(odp_atomic_u32_t *atom, uint32_t val)
{
	return __atomic_fetch_add(&atom->v, val, _ODP_RLX);
}

static inline void odp_atomic_add_u32(odp_atomic_u32_t *atom, uint32_t val)
{
	(void)__atomic_fetch_add(&atom->v, val, _ODP_RLX);
}

static inline uint32_t odp_atomic_fetch_sub_u32(odp_atomic_u32_t *atom, uint32_t val)
{
	return __atomic_fetch_sub(&atom->v, val, _ODP_RLX);
}

static inline void odp_atomic_sub_u32(odp_atomic_u32_t *atom, uint32_t val)
{
	(void)__atomic_fetch_sub(&atom->v, val, _ODP_RLX);
}

static inline uint32_t odp_atomic_fetch_inc_u32(odp_atomic_u32_t *atom)
{
	return __atomic_fetch_add(&atom->v, 1, _ODP_RLX);
}

static inline void odp_atomic_inc_u32(odp_atomic_u32_t *atom)
{
	(void)__atomic_fetch_add(&atom->v, 1, _ODP_RLX);
}

static inline uint32_t odp_atomic_fetch_dec_u32(odp_atomic_u32_t *atom)
{
	return __atomic_fetch_sub(&atom->v, 1, _ODP_RLX);
}

static inline void odp_atomic_dec_u32(odp_atomic_u32_t *atom)
{
	(void)__atomic_fetch_sub(&atom->v, 1, _ODP_RLX);
}

/**
 * Compare and swap: when the value equals *old_val, write new_val and
 * return nonzero; otherwise copy the current value to *old_val, return 0.
 */
static inline int odp_atomic_cas_u32(odp_atomic_u32_t *atom, uint32_t *old_val,
				      uint32_t new_val)
{
	return __atomic_compare_exchange_n(&atom->v, old_val, new_val, 0,
					   _ODP_RLX, _ODP_RLX);
}

static inline int odp_atomic_cas_acq_u32(odp_atomic_u32_t *atom, uint32_t *old_val,
					  uint32_t new_val)
{
	return __atomic_compare_exchange_n(&atom->v, old_val, new_val, 0,
					   _ODP_ACQ, _ODP_RLX);
}

static inline int odp_atomic_cas_rel_u32(odp_atomic_u32_t *atom, uint32_t *old_val,
					  uint32_t new_val)
{
	return __atomic_compare_exchange_n(&atom->v, old_val, new_val, 0,
					   _ODP_REL, _ODP_RLX);
}

static inline int odp_atomic_cas_acq_rel_u32(odp_atomic_u32_t *atom, uint32_t *old_val,
					      uint32_t new_val)
{
	return __atomic_compare_exchange_n(&atom->v, old_val, new_val, 0,
					   _ODP_AR, _ODP_ACQ);
}

/** Write new_val, return the old value. */
static inline uint32_t odp_atomic_xchg_u32(odp_atomic_u32_t *atom, uint32_t new_val)
{
	return __atomic_exchange_n(&atom->v, new_val, _ODP_RLX);
}

/** Raise the value to new_max when it is smaller. */
static inline void odp_atomic_max_u32(odp_atomic_u32_t *atom, uint32_t new_max)
{
	uint32_t old = __atomic_load_n(&atom->v, _ODP_RLX);

	while (new_max > old &&
	       !__atomic_compare_exchange_n(&atom->v, &old, new_max, 1, _ODP_RLX, _ODP_RLX))
		;
}

/** Lower the value to new_min when it is larger. */
static inline void odp_atomic_min_u32(odp_atomic_u32_t *atom, uint32_t new_min)
{
	uint32_t old = __atomic_load_n(&atom->v, _ODP_RLX);

	while (new_min < old &&
	       !__atomic_compare_exchange_n(&atom->v, &old, new_min, 1, _ODP_RLX, _ODP_RLX))
		;
}

static inline uint32_t odp_atomic_load_acq_u32(odp_atomic_u32_t *atom)
{
	return __atomic_load_n(&atom->v, _ODP_ACQ);
}

static inline void odp_atomic_store_rel_u32(odp_atomic_u32_t *atom, uint32_t val)
{
	__atomic_store_n(&atom->v, val, _ODP_REL);
}

static inline void odp_atomic_add_rel_u32(odp_atomic_u32_t *atom, uint32_t val)
{
	(void)__atomic_fetch_add(&atom->v, val, _ODP_REL);
}

static inline void odp_atomic_sub_rel_u32(odp_atomic_u32_t *atom, uint32_t val)
{
	(void)__atomic_fetch_sub(&atom->v, val, _ODP_REL);
}

/* ---- u64 ---- */

static inline void odp_atomic_init_u64(odp_atomic_u64_t *atom, uint64_t val)
{
	__atomic_store_n(&atom->v, val, _ODP_RLX);
}

static inline uint64_t odp_atomic_load_u64(odp_atomic_u64_t *atom)
{
	return __atomic_load_n(&atom->v, _ODP_RLX);
}

static inline void odp_atomic_store_u64(odp_atomic_u64_t *atom, uint64_t val)
{
	__atomic_store_n(&atom->v, val, _ODP_RLX);
}

/** Add and return the value before the add. */
static inline uint64_t odp_atomic_fetch_add_u64(odp_atomic_u64_t *atom, uint64_t val)
{
	return __atomic_fetch_add(&atom->v, val, _ODP_RLX);
}

static inline void odp_atomic_add_u64(odp_atomic_u64_t *atom, uint64_t val)
{
	(void)__atomic_fetch_add(&atom->v, val, _ODP_RLX);
}

static inline uint64_t odp_atomic_fetch_sub_u64(odp_atomic_u64_t *atom, uint64_t val)
{
	return __atomic_fetch_sub(&atom->v, val, _ODP_RLX);
}

static inline void odp_atomic_sub_u64(odp_atomic_u64_t *atom, uint64_t val)
{
	(void)__atomic_fetch_sub(&atom->v, val, _ODP_RLX);
}

static inline uint64_t odp_atomic_fetch_inc_u64(odp_atomic_u64_t *atom)
{
	return __atomic_fetch_add(&atom->v, 1, _ODP_RLX);
}

static inline void odp_atomic_inc_u64(odp_atomic_u64_t *atom)
{
	(void)__atomic_fetch_add(&atom->v, 1, _ODP_RLX);
}

static inline uint64_t odp_atomic_fetch_dec_u64(odp_atomic_u64_t *atom)
{
	return __atomic_fetch_sub(&atom->v, 1, _ODP_RLX);
}

static inline void odp_atomic_dec_u64(odp_atomic_u64_t *atom)
{
	(void)__atomic_fetch_sub(&atom->v, 1, _ODP_RLX);
}

/**
 * Compare and swap: when the value equals *old_val, write new_val and
 * return nonzero; otherwise copy the current value to *old_val, return 0.
 */
static inline int odp_atomic_cas_u64(odp_atomic_u64_t *atom, uint64_t *old_val,
				      uint64_t new_val)
{
	return __atomic_compare_exchange_n(&atom->v, old_val, new_val, 0,
					   _ODP_RLX, _ODP_RLX);
}

static inline int odp_atomic_cas_acq_u64(odp_atomic_u64_t *atom, uint64_t *old_val,
					  uint64_t new_val)
{
	return __atomic_compare_exchange_n(&atom->v, old_val, new_val, 0,
					   _ODP_ACQ, _ODP_RLX);
}

static inline int odp_atomic_cas_rel_u64(odp_atomic_u64_t *atom, uint64_t *old_val,
					  uint64_t new_val)
{
	return __atomic_compare_exchange_n(&atom->v, old_val, new_val, 0,
					   _ODP_REL, _ODP_RLX);
}

static inline int odp_atomic_cas_acq_rel_u64(odp_atomic_u64_t *atom, uint64_t *old_val,
					      uint64_t new_val)
{
	return __atomic_compare_exchange_n(&atom->v, old_val, new_val, 0,
					   _ODP_AR, _ODP_ACQ);
}

/** Write new_val, return the old value. */
static inline uint64_t odp_atomic_xchg_u64(odp_atomic_u64_t *atom, uint64_t new_val)
{
	return __atomic_exchange_n(&atom->v, new_val, _ODP_RLX);
}

/** Raise the value to new_max when it is smaller. */
static inline void odp_atomic_max_u64(odp_atomic_u64_t *atom, uint64_t new_max)
{
	uint64_t old = __atomic_load_n(&atom->v, _ODP_RLX);

	while (new_max > old &&
	       !__atomic_compare_exchange_n(&atom->v, &old, new_max, 1, _ODP_RLX, _ODP_RLX))
		;
}

/** Lower the value to new_min when it is larger. */
static inline void odp_atomic_min_u64(odp_atomic_u64_t *atom, uint64_t new_min)
{
	uint64_t old = __atomic_load_n(&atom->v, _ODP_RLX);

	while (new_min < old &&
	       !__atomic_compare_exchange_n(&atom->v, &old, new_min, 1, _ODP_RLX, _ODP_RLX))
		;
}

static inline uint64_t odp_atomic_load_acq_u64(odp_atomic_u64_t *atom)
{
	return __atomic_load_n(&atom->v, _ODP_ACQ);
}

static inline void odp_atomic_store_rel_u64(odp_atomic_u64_t *atom, uint64_t val)
{
	__atomic_store_n(&atom->v, val, _ODP_REL);
}

static inline void odp_atomic_add_rel_u64(odp_atomic_u64_t *atom, uint64_t val)
{
	(void)__atomic_fetch_add(&atom->v, val, _ODP_REL);
}

static inline void odp_atomic_sub_rel_u64(odp_atomic_u64_t *atom, uint64_t val)
{
	(void)__atomic_fetch_sub(&atom->v, val, _ODP_REL);
}

#ifdef __cplusplus
}
#endif

#endif
