/*
 * QSBR semantics: what a registered reader blocks and what it does not;
 * then a stress where readers dereference a pointer that a writer replaces
 * and frees through RCU (ASan/TSan catch an early free).
 * Usage: table_rcu semantics|stress [MILLISECONDS]
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "table_test.h"

static int freed;

static void count_free(void *p)
{
	free(p);
	freed++;
}

static void test_semantics(void)
{
	struct p4odp_rcu *rcu;
	struct p4odp_rcu_thread r1, r2;
	struct p4odp_rcu_stats st;
	uint64_t c;

	CHECK_EQ(p4odp_rcu_create(&rcu), 0);
	/* No reader: reclaimed at the next poll. */
	p4odp_rcu_defer(rcu, count_free, malloc(8));
	CHECK_EQ(p4odp_rcu_poll(rcu), 1);
	CHECK_EQ(freed, 1);
	CHECK(p4odp_rcu_expired(rcu, p4odp_rcu_cookie(rcu)));

	CHECK_EQ(p4odp_rcu_register(rcu, &r1), 0);
	CHECK_EQ(p4odp_rcu_register(rcu, &r2), 0);
	p4odp_rcu_defer(rcu, count_free, malloc(8));
	c = p4odp_rcu_cookie(rcu);
	CHECK_EQ(p4odp_rcu_poll(rcu), 0);  /* both readers online, not quiescent */
	CHECK(!p4odp_rcu_expired(rcu, c));
	p4odp_rcu_quiescent(&r1);
	CHECK_EQ(p4odp_rcu_poll(rcu), 0);  /* r2 still holds */
	p4odp_rcu_quiescent(&r2);
	CHECK_EQ(p4odp_rcu_poll(rcu), 1);
	CHECK(p4odp_rcu_expired(rcu, c));
	CHECK_EQ(freed, 2);
	/* Quiescent states before the defer do not count. */
	p4odp_rcu_quiescent(&r1);
	p4odp_rcu_quiescent(&r2);
	p4odp_rcu_defer(rcu, count_free, malloc(8));
	CHECK_EQ(p4odp_rcu_poll(rcu), 0);
	/* An offline reader does not hold anything back. */
	p4odp_rcu_offline(&r2);
	p4odp_rcu_quiescent(&r1);
	CHECK_EQ(p4odp_rcu_poll(rcu), 1);
	CHECK_EQ(freed, 3);
	/* Back online: holds the next grace period again. */
	p4odp_rcu_online(&r2);
	p4odp_rcu_defer(rcu, count_free, malloc(8));
	p4odp_rcu_quiescent(&r1);
	CHECK_EQ(p4odp_rcu_poll(rcu), 0);
	/* Many callbacks, FIFO, across chunks. */
	for (int i = 0; i < 1000; i++)
		p4odp_rcu_defer(rcu, count_free, malloc(8));
	p4odp_rcu_stats(rcu, &st);
	CHECK_EQ(st.pending, 1001);
	CHECK_EQ(st.threads, 2);
	CHECK_EQ(p4odp_rcu_destroy(rcu), -EBUSY);
	/* The first poll starts the grace period of the 1000 (they were
	 * queued after it started the one of the first). */
	p4odp_rcu_quiescent(&r1);
	p4odp_rcu_quiescent(&r2);
	CHECK_EQ(p4odp_rcu_poll(rcu), 1);
	p4odp_rcu_quiescent(&r1);
	p4odp_rcu_quiescent(&r2);
	CHECK_EQ(p4odp_rcu_poll(rcu), 1000);
	/* Unregistered readers do not count; destroy runs what is left. */
	p4odp_rcu_defer(rcu, count_free, malloc(8));
	p4odp_rcu_unregister(&r1);
	p4odp_rcu_unregister(&r2);
	p4odp_rcu_synchronize(rcu);
	CHECK_EQ(p4odp_rcu_destroy(rcu), 0);
	CHECK_EQ(freed, 3 + 1001 + 1);
}

struct obj {
	uint64_t a, b;  /* b == ~a while alive */
};

static struct p4odp_rcu *srcu;
static _Atomic(struct obj *) shared;
static atomic_bool stop;

static void *stress_reader(void *arg)
{
	struct p4odp_rcu_thread thr;
	uint64_t n = 0;

	CHECK_EQ(p4odp_rcu_register(srcu, &thr), 0);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int i = 0; i < 16; i++) {
			const struct obj *o = atomic_load_explicit(&shared, memory_order_acquire);

			CHECK(o->b == ~o->a);
			n++;
		}
		if (n % 4096 == 0) {
			/* sometimes idle */
			p4odp_rcu_offline(&thr);
			p4odp_rcu_online(&thr);
		}
		p4odp_rcu_quiescent(&thr);
	}
	p4odp_rcu_unregister(&thr);
	*(uint64_t *)arg = n;
	return NULL;
}

static void scrub_free(void *p)
{
	struct obj *o = p;

	o->b = o->a;  /* a reader still using it would notice (and ASan too) */
	free(o);
}

static void test_stress(double ms)
{
	pthread_t th[2];
	uint64_t reads[2], writes = 0;
	struct timespec t0, t1;
	struct obj *o = malloc(sizeof(*o));

	CHECK_EQ(p4odp_rcu_create(&srcu), 0);
	o->a = 1;
	o->b = ~1ull;
	atomic_store(&shared, o);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(pthread_create(&th[i], NULL, stress_reader, &reads[i]), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		struct obj *n = malloc(sizeof(*n)), *old;

		n->a = writes + 2;
		n->b = ~n->a;
		old = atomic_exchange_explicit(&shared, n, memory_order_acq_rel);
		if (writes % 64 == 0) {
			p4odp_rcu_synchronize(srcu);
			scrub_free(old);
		} else {
			p4odp_rcu_defer(srcu, scrub_free, old);
			p4odp_rcu_poll(srcu);
		}
		writes++;
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while ((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6 < ms);
	atomic_store(&stop, true);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(pthread_join(th[i], NULL), 0);
	printf("table_rcu stress: %llu writes, %llu + %llu reads\n", (unsigned long long)writes,
	       (unsigned long long)reads[0], (unsigned long long)reads[1]);
	CHECK(writes > 10 && reads[0] > 0 && reads[1] > 0);
	CHECK_EQ(p4odp_rcu_destroy(srcu), 0);
	free(atomic_load(&shared));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "semantics")) {
		test_semantics();
	} else if (argc > 1 && !strcmp(argv[1], "stress")) {
		test_stress(argc > 2 ? strtod(argv[2], NULL) : 1000);
	} else {
		fprintf(stderr, "usage: %s semantics|stress [MS]\n", argv[0]);
		return 2;
	}
	printf("table_rcu %s: OK\n", argv[1]);
	return 0;
}
