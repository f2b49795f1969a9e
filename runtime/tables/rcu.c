/*
 * QSBR grace periods and deferred reclamation; see p4odp_rcu.h.
 *
 * The domain keeps a grace-period number gp (starts at 1, only grows). A
 * reader's ctr is 0 while offline, else the gp it last observed at a
 * quiescent state. A cookie C taken after unlinking memory is gp + 1: the
 * memory is safe to free once gp >= C and every online reader has ctr >= C.
 * gp is advanced lazily, only when someone asks whether a cookie expired,
 * so idle writers cost the readers nothing.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "p4odp_rcu.h"

#define CB_CHUNK 254

struct cb {
	void (*fn)(void *);
	void *arg;
	uint64_t cookie;
};

struct cb_chunk {
	struct cb_chunk *next;
	uint32_t head, tail;  /* live callbacks are cb[head..tail) */
	struct cb cb[CB_CHUNK];
};

struct p4odp_rcu {
	_Alignas(64) _Atomic uint64_t gp;
	_Alignas(64) pthread_mutex_t lock;
	struct p4odp_rcu_thread *threads;
	uint32_t n_threads;
	struct cb_chunk *first, *last;  /* FIFO of deferred callbacks */
	struct cb_chunk *spare;
	uint64_t deferred, reclaimed;
};

int p4odp_rcu_create(struct p4odp_rcu **out)
{
	struct p4odp_rcu *rcu = aligned_alloc(64, sizeof(*rcu));

	if (!rcu)
		return -ENOMEM;
	*rcu = (struct p4odp_rcu){0};
	atomic_init(&rcu->gp, 1);
	if (pthread_mutex_init(&rcu->lock, NULL)) {
		free(rcu);
		return -ENOMEM;
	}
	*out = rcu;
	return 0;
}

/* Start the grace period of cookie want if needed, and return the newest
 * cookie that has expired: every callback with a cookie <= the returned
 * value may run. Called with the lock held. */
static uint64_t safe_cookie(struct p4odp_rcu *rcu, uint64_t want)
{
	uint64_t gp = atomic_load_explicit(&rcu->gp, memory_order_relaxed);
	uint64_t safe;

	if (gp < want) {
		/* Start a grace period: readers that see the new number saw
		 * every unlink done before (release/acquire on gp). */
		atomic_store_explicit(&rcu->gp, want, memory_order_seq_cst);
		gp = want;
	}
	/* Pairs with the fence in p4odp_rcu_online(). */
#if !P4ODP__TSAN
	atomic_thread_fence(memory_order_seq_cst);
#endif
	safe = gp;
	for (struct p4odp_rcu_thread *thr = rcu->threads; thr; thr = thr->next) {
		uint64_t ctr = atomic_load_explicit(&thr->ctr, memory_order_acquire);

		if (ctr && ctr < safe)
			safe = ctr;
	}
	return safe;
}

static unsigned run_callbacks(struct p4odp_rcu *rcu, uint64_t safe)
{
	unsigned n = 0;

	while (rcu->first) {
		struct cb_chunk *c = rcu->first;

		while (c->head < c->tail && c->cb[c->head].cookie <= safe) {
			struct cb *cb = &c->cb[c->head++];

			cb->fn(cb->arg);
			n++;
		}
		if (c->head < c->tail)
			break;
		if (c->tail < CB_CHUNK && c == rcu->last) {
			c->head = c->tail = 0;  /* empty and still being filled */
			break;
		}
		rcu->first = c->next;
		if (!rcu->first)
			rcu->last = NULL;
		if (!rcu->spare) {
			rcu->spare = c;
		} else {
			free(c);
		}
	}
	rcu->reclaimed += n;
	return n;
}

static uint64_t last_cookie(const struct p4odp_rcu *rcu)
{
	const struct cb_chunk *c = rcu->last;

	return c && c->tail > c->head ? c->cb[c->tail - 1].cookie : 0;
}

int p4odp_rcu_destroy(struct p4odp_rcu *rcu)
{
	struct cb_chunk *c;

	if (!rcu)
		return 0;
	pthread_mutex_lock(&rcu->lock);
	if (rcu->n_threads) {
		pthread_mutex_unlock(&rcu->lock);
		return -EBUSY;
	}
	run_callbacks(rcu, UINT64_MAX);
	pthread_mutex_unlock(&rcu->lock);
	while ((c = rcu->first)) {
		rcu->first = c->next;
		free(c);
	}
	free(rcu->spare);
	pthread_mutex_destroy(&rcu->lock);
	free(rcu);
	return 0;
}

int p4odp_rcu_register(struct p4odp_rcu *rcu, struct p4odp_rcu_thread *thr)
{
	thr->gp = &rcu->gp;
	thr->rcu = rcu;
	pthread_mutex_lock(&rcu->lock);
	atomic_store_explicit(&thr->ctr, atomic_load_explicit(&rcu->gp, memory_order_relaxed),
			      memory_order_relaxed);
	thr->next = rcu->threads;
	rcu->threads = thr;
	rcu->n_threads++;
	/* Reads after registration come after the unlock, which follows any
	 * unlink done by a writer that scanned the list without us. */
	pthread_mutex_unlock(&rcu->lock);
	return 0;
}

void p4odp_rcu_unregister(struct p4odp_rcu_thread *thr)
{
	struct p4odp_rcu *rcu = thr->rcu;

	if (!rcu)
		return;
	/* Offline first: a writer waiting for us under the lock moves on. */
	p4odp_rcu_offline(thr);
	pthread_mutex_lock(&rcu->lock);
	for (struct p4odp_rcu_thread **pp = &rcu->threads; *pp; pp = &(*pp)->next) {
		if (*pp == thr) {
			*pp = thr->next;
			rcu->n_threads--;
			break;
		}
	}
	pthread_mutex_unlock(&rcu->lock);
	thr->rcu = NULL;
	thr->next = NULL;
}

uint64_t p4odp_rcu_cookie(struct p4odp_rcu *rcu)
{
	uint64_t cookie;

	/* Under the lock: whoever advances gp next does so after our unlinks
	 * (lock order), so readers that see the new number see them too. */
	pthread_mutex_lock(&rcu->lock);
	cookie = atomic_load_explicit(&rcu->gp, memory_order_relaxed) + 1;
	pthread_mutex_unlock(&rcu->lock);
	return cookie;
}

bool p4odp_rcu_expired(struct p4odp_rcu *rcu, uint64_t cookie)
{
	bool done;

	pthread_mutex_lock(&rcu->lock);
	done = safe_cookie(rcu, cookie) >= cookie;
	pthread_mutex_unlock(&rcu->lock);
	return done;
}

static void backoff(unsigned *spins)
{
	if (++*spins < 64) {
		sched_yield();
	} else {
		struct timespec ts = {0, 20000};

		nanosleep(&ts, NULL);
	}
}

void p4odp_rcu_wait(struct p4odp_rcu *rcu, uint64_t cookie)
{
	unsigned spins = 0;

	while (!p4odp_rcu_expired(rcu, cookie))
		backoff(&spins);
}

void p4odp_rcu_synchronize(struct p4odp_rcu *rcu)
{
	p4odp_rcu_wait(rcu, p4odp_rcu_cookie(rcu));
}

void p4odp_rcu_defer(struct p4odp_rcu *rcu, void (*fn)(void *), void *arg)
{
	struct cb_chunk *c;

	pthread_mutex_lock(&rcu->lock);
	c = rcu->last;
	if (!c || c->tail == CB_CHUNK) {
		c = rcu->spare;
		rcu->spare = NULL;
		if (!c)
			c = malloc(sizeof(*c));
		if (!c) {
			pthread_mutex_unlock(&rcu->lock);
			p4odp_rcu_synchronize(rcu);
			fn(arg);
			return;
		}
		c->next = NULL;
		c->head = c->tail = 0;
		if (rcu->last)
			rcu->last->next = c;
		else
			rcu->first = c;
		rcu->last = c;
	}
	c->cb[c->tail++] = (struct cb){fn, arg,
				       atomic_load_explicit(&rcu->gp, memory_order_relaxed) + 1};
	rcu->deferred++;
	pthread_mutex_unlock(&rcu->lock);
}

unsigned p4odp_rcu_poll(struct p4odp_rcu *rcu)
{
	unsigned n = 0;

	pthread_mutex_lock(&rcu->lock);
	if (rcu->first)
		n = run_callbacks(rcu, safe_cookie(rcu, last_cookie(rcu)));
	pthread_mutex_unlock(&rcu->lock);
	return n;
}

void p4odp_rcu_barrier(struct p4odp_rcu *rcu)
{
	uint64_t cookie;

	pthread_mutex_lock(&rcu->lock);
	cookie = last_cookie(rcu);
	pthread_mutex_unlock(&rcu->lock);
	if (cookie) {
		p4odp_rcu_wait(rcu, cookie);
		pthread_mutex_lock(&rcu->lock);
		run_callbacks(rcu, cookie);
		pthread_mutex_unlock(&rcu->lock);
	}
}

void p4odp_rcu_stats(struct p4odp_rcu *rcu, struct p4odp_rcu_stats *st)
{
	pthread_mutex_lock(&rcu->lock);
	st->gp = atomic_load_explicit(&rcu->gp, memory_order_relaxed);
	st->deferred = rcu->deferred;
	st->reclaimed = rcu->reclaimed;
	st->pending = rcu->deferred - rcu->reclaimed;
	st->threads = rcu->n_threads;
	pthread_mutex_unlock(&rcu->lock);
}
