/* Bundled ODP: memory barriers (odp/api/sync.h). */
#ifndef ODP_BUNDLED_API_SYNC_H_
#define ODP_BUNDLED_API_SYNC_H_

#ifdef __cplusplus
extern "C" {
#endif

/** Earlier loads and stores complete before later stores (release). */
static inline void odp_mb_release(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

/** Later loads and stores happen after earlier loads (acquire). */
static inline void odp_mb_acquire(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

/** Full barrier: no load or store moves across it. */
static inline void odp_mb_full(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/** Barriers that also order accesses to memory shared with devices. */
static inline void odp_mb_sync(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static inline void odp_mb_sync_load(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static inline void odp_mb_sync_store(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#ifdef __cplusplus
}
#endif

#endif
