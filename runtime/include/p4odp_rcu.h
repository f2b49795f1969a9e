/*
 * p4odp_rcu.h: quiescent-state-based RCU (QSBR) for the switch runtime.
 *
 * Readers (packet workers) never lock and never write shared memory other
 * than their own counter. Writers (the control plane) publish new versions of
 * a structure with release stores and reclaim the old versions only after
 * every registered reader has passed a quiescent state.
 *
 * Reader contract
 *   - A reader thread registers once (p4odp_rcu_register) with a
 *     p4odp_rcu_thread it owns, typically embedded in its cache-aligned
 *     per-worker state (the struct is 64-byte aligned: heap copies need
 *     aligned_alloc). It is then "online".
 *   - Between two calls of p4odp_rcu_quiescent() the reader may hold and
 *     dereference any pointer it loaded from an RCU-protected structure
 *     (for instance an entry returned by p4odp_table_lookup). Workers call
 *     p4odp_rcu_quiescent() once per burst, when they hold no such pointer.
 *   - A reader about to block for long (idle poll with sleep, shutdown) goes
 *     p4odp_rcu_offline() so that writers do not wait for it, and
 *     p4odp_rcu_online() before it reads again. Unregister before the
 *     p4odp_rcu_thread storage goes away.
 *   - An online reader must not call p4odp_rcu_synchronize/wait/barrier
 *     itself: it would wait for its own quiescent state forever.
 *
 * Writer guarantees
 *   - Memory unlinked (made unreachable from published structures) before
 *     p4odp_rcu_cookie() returns C may be reclaimed once
 *     p4odp_rcu_expired(C) is true: every reader that was online then has
 *     since announced a quiescent state, or gone offline.
 *   - p4odp_rcu_defer(fn, arg) runs fn(arg) after such a grace period, from
 *     p4odp_rcu_poll() (non-blocking), p4odp_rcu_barrier() or
 *     p4odp_rcu_destroy(). Callbacks run in FIFO order with the domain lock
 *     held: they must not call back into the same domain (plain free()s).
 *   - The writer-side functions take a mutex of the domain and may be called
 *     from several threads; readers never take it.
 *
 * A domain with no registered reader reclaims at once: single-threaded use
 * needs no special case.
 */
#ifndef P4ODP_RCU_H
#define P4ODP_RCU_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
#error "p4odp_rcu.h is a C11 header"
#endif

/* ThreadSanitizer does not model fences (gcc even rejects them with
 * -Werror=tsan): its builds order the online transition with a seq_cst
 * exchange instead, which it understands. */
#if defined(__SANITIZE_THREAD__)
#define P4ODP__TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define P4ODP__TSAN 1
#endif
#endif
#ifndef P4ODP__TSAN
#define P4ODP__TSAN 0
#endif

struct p4odp_rcu;

/* Per-reader state; owned by the reader, registered with one domain. */
struct p4odp_rcu_thread {
	/* 0 while offline, else the grace-period number last observed. */
	_Alignas(64) _Atomic uint64_t ctr;
	const _Atomic uint64_t *gp;  /* the domain's grace-period counter */
	struct p4odp_rcu *rcu;
	struct p4odp_rcu_thread *next;  /* registry list, under the domain lock */
};

struct p4odp_rcu_stats {
	uint64_t gp;          /* current grace-period number */
	uint64_t deferred;    /* callbacks queued since creation */
	uint64_t reclaimed;   /* callbacks run since creation */
	uint64_t pending;     /* callbacks waiting for their grace period */
	uint32_t threads;     /* registered readers */
};

/* Domain life cycle. Destroy runs the pending callbacks; it fails with
 * -EBUSY while readers are registered. */
int p4odp_rcu_create(struct p4odp_rcu **out);
int p4odp_rcu_destroy(struct p4odp_rcu *rcu);

/* Reader registration; the thread starts online. */
int p4odp_rcu_register(struct p4odp_rcu *rcu, struct p4odp_rcu_thread *thr);
void p4odp_rcu_unregister(struct p4odp_rcu_thread *thr);

/* Grace periods (writer side). */
uint64_t p4odp_rcu_cookie(struct p4odp_rcu *rcu);
bool p4odp_rcu_expired(struct p4odp_rcu *rcu, uint64_t cookie);
void p4odp_rcu_wait(struct p4odp_rcu *rcu, uint64_t cookie);
void p4odp_rcu_synchronize(struct p4odp_rcu *rcu);

/* Deferred reclamation (writer side). defer never fails: without memory for
 * its queue it waits for a grace period and calls fn at once. poll returns
 * the number of callbacks it ran. */
void p4odp_rcu_defer(struct p4odp_rcu *rcu, void (*fn)(void *), void *arg);
unsigned p4odp_rcu_poll(struct p4odp_rcu *rcu);
void p4odp_rcu_barrier(struct p4odp_rcu *rcu);
void p4odp_rcu_stats(struct p4odp_rcu *rcu, struct p4odp_rcu_stats *st);

/* Reader side: no lock, one load of a read-mostly line and, when a writer
 * has started a grace period since the last call, one store to the reader's
 * own line. */
static inline void p4odp_rcu_quiescent(struct p4odp_rcu_thread *thr)
{
	uint64_t gp = atomic_load_explicit(thr->gp, memory_order_acquire);

	/* Release: the reads done so far happen before a writer that sees
	 * the new value frees what they read. */
	if (atomic_load_explicit(&thr->ctr, memory_order_relaxed) != gp)
		atomic_store_explicit(&thr->ctr, gp, memory_order_release);
}

static inline void p4odp_rcu_offline(struct p4odp_rcu_thread *thr)
{
	atomic_store_explicit(&thr->ctr, 0, memory_order_release);
}

static inline void p4odp_rcu_online(struct p4odp_rcu_thread *thr)
{
	uint64_t gp = atomic_load_explicit(thr->gp, memory_order_acquire);

	/* The announcement must be visible before the next reads (a writer
	 * scanning the readers either sees us online or we see its update). */
#if P4ODP__TSAN
	atomic_exchange_explicit(&thr->ctr, gp, memory_order_seq_cst);
#else
	atomic_store_explicit(&thr->ctr, gp, memory_order_relaxed);
	atomic_thread_fence(memory_order_seq_cst);
#endif
}

#endif
