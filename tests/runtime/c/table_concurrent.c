/*
 * Readers against a writer: two reader threads look up keys while the main
 * thread adds, deletes and modifies entries, changes the default action and
 * now and then clears the table. Every entry's action data describes its
 * own match and version with a checksum, so a reader checks that what it got
 * is complete and matches its key. Stable entries are never deleted (only
 * modified): keys they cover must never miss, even while the cuckoo hash
 * displaces entries, a tuple-space group is rebuilt bigger or trie nodes
 * are copied.
 * Usage: table_concurrent KIND [MILLISECONDS]
 *   KIND: exact dir lpm128 (trie) lpm128_tss (the same in tuple space) ternary
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "table_test.h"

#define READERS 2
#define DATA_LEN 48  /* value[16] mask[16] version[8] checksum[8] */
#define N_STABLE 16
#define N_CHURN 6000

enum kind { K_EXACT, K_DIR, K_LPM128, K_LPM128_TSS, K_TERNARY };

static enum kind kind;
static struct layout lay;
static struct p4odp_table *table;
static struct p4odp_rcu *rcu;
static atomic_bool stop;
static atomic_bool stable_on;

struct desc {
	uint8_t val[16], mask[16];
	uint32_t plen;
	int32_t prio;
	int64_t handle;
};

static struct desc stable[N_STABLE], churn[N_CHURN];
static uint64_t version = 1;

static uint64_t checksum(const uint8_t *d, uint16_t action)
{
	uint64_t h = 0x12345678 ^ action;

	for (int i = 0; i < 40; i++)
		h = (h ^ d[i]) * 0x100000001b3ull;
	return h;
}

static void make_data(const struct desc *m, uint8_t *d, uint16_t *action)
{
	uint64_t sum, v = version++;

	memcpy(d, m->val, 16);
	memcpy(d + 16, m->mask, 16);
	memcpy(d + 32, &v, 8);
	*action = (uint16_t)v;
	sum = checksum(d, *action);
	memcpy(d + 40, &sum, 8);
}

/* Readers: a complete entry whose match covers the key. */
static void verify(const struct p4odp_table_entry *e, const uint8_t *key, bool is_default)
{
	uint64_t sum, v;

	memcpy(&sum, e->data + 40, 8);
	memcpy(&v, e->data + 32, 8);
	CHECK(sum == checksum(e->data, e->action_id));
	CHECK(e->action_id == (uint16_t)v);
	if (is_default)
		return;
	for (uint32_t i = 0; i < lay.key_len; i++)
		CHECK((key[i] & e->data[16 + i]) == e->data[i]);
}

static void desc_prefix(struct desc *m, uint32_t plen)
{
	m->plen = plen;
	memset(m->mask, 0, sizeof(m->mask));
	for (uint32_t b = 0; b < plen; b++)
		m->mask[b / 8] |= (uint8_t)(0x80 >> (b % 8));
	for (uint32_t i = 0; i < 16; i++)
		m->val[i] &= m->mask[i];
}

static void make_descs(void)
{
	static const uint8_t tmasks[4][4] = {
		{0xff, 0xff, 0, 0}, {0xff, 0, 0xff, 0}, {0xff, 0xf0, 0xf0, 0x0f}, {0xff, 0xff, 0xff, 0xff}};

	for (uint32_t i = 0; i < N_STABLE + N_CHURN; i++) {
		struct desc *m = i < N_STABLE ? &stable[i] : &churn[i - N_STABLE];

		memset(m, 0, sizeof(*m));
		m->handle = -1;
		random_data(m->val, 16);
		m->val[0] = (uint8_t)(i < N_STABLE ? i : rnd_below(N_STABLE));
		switch (kind) {
		case K_EXACT:
			/* 8-byte keys: the index, big endian */
			memset(m->val, 0, 16);
			m->val[6] = (uint8_t)(i >> 8);
			m->val[7] = (uint8_t)i;
			memset(m->mask, 0xff, 8);
			break;
		case K_DIR:
			desc_prefix(m, i < N_STABLE ? 8 : 14 + rnd_below(19));
			break;
		case K_LPM128:
		case K_LPM128_TSS:
			desc_prefix(m, i < N_STABLE ? 8 : 9 + rnd_below(120));
			break;
		case K_TERNARY:
			memcpy(m->mask, i < N_STABLE ? tmasks[0] : tmasks[rnd_below(4)], 4);
			if (i < N_STABLE)
				m->mask[1] = 0;
			for (int k = 0; k < 4; k++)
				m->val[k] &= m->mask[k];
			m->val[4] = 0;
			m->mask[4] = 0xff;  /* the exact field */
			m->prio = i < N_STABLE ? 0 : 1 + (int32_t)rnd_below(10);
			break;
		}
	}
}

static struct p4odp_match to_match(const struct desc *m, struct p4odp_field_match *fm)
{
	fm[0] = (struct p4odp_field_match){.value = m->val, .mask = m->mask,
					   .prefix_len = m->plen};
	fm[1] = (struct p4odp_field_match){.value = m->val + 4};
	return (struct p4odp_match){fm, m->prio};
}

static void add(struct desc *m)
{
	struct p4odp_field_match fm[2];
	struct p4odp_match mt = to_match(m, fm);
	uint8_t d[DATA_LEN];
	uint16_t action;
	int64_t h;

	make_data(m, d, &action);
	h = p4odp_table_add(table, &mt, action, d);
	if (h == -ENOSPC)
		return;
	if (h == -EEXIST)  /* two churn descriptions with one match */
		return;
	CHECK(h >= 0);
	m->handle = h;
}

static void modify(struct desc *m)
{
	uint8_t d[DATA_LEN];
	uint16_t action;

	make_data(m, d, &action);
	CHECK_EQ(p4odp_table_modify(table, m->handle, action, d), 0);
}

static void gen_key(uint64_t *state, uint8_t *key)
{
	uint64_t r;

	for (uint32_t i = 0; i < lay.key_len; i += 8) {
		uint32_t n = lay.key_len - i < 8 ? lay.key_len - i : 8;

		*state ^= *state << 13;
		*state ^= *state >> 7;
		*state ^= *state << 17;
		r = *state;
		memcpy(key + i, &r, n);
	}
	r = *state;
	switch (kind) {
	case K_EXACT:
		memset(key, 0, 6);
		key[6] = (uint8_t)(r % (N_STABLE + N_CHURN) >> 8);
		key[7] = (uint8_t)(r % (N_STABLE + N_CHURN));
		break;
	default: {
		/* Usually a key inside a churn prefix, always inside a
		 * stable one. */
		const struct desc *m = &churn[(r >> 20) % N_CHURN];

		for (uint32_t i = 0; i < lay.key_len && (r & 3); i++)
			key[i] = (uint8_t)((key[i] & ~m->mask[i]) | m->val[i]);
		key[0] = (uint8_t)((r >> 8) % N_STABLE);
		if (kind == K_TERNARY)
			key[4] = 0;
		break;
	}
	}
}

static bool stable_key(const uint8_t *key)
{
	if (kind == K_EXACT)
		return key[6] == 0 && key[7] < N_STABLE;
	return true;
}

struct reader {
	struct p4odp_rcu_thread thr;
	int id;
	uint64_t lookups, hits;
};

static void *reader_main(void *arg)
{
	struct reader *rd = arg;
	uint64_t state = 0x9e3779b97f4a7c15ull * (uint64_t)(rd->id + 1);
	uint8_t key[KMAX];

	CHECK_EQ(p4odp_rcu_register(rcu, &rd->thr), 0);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		bool check_stable = atomic_load_explicit(&stable_on, memory_order_acquire);

		for (int i = 0; i < 32; i++) {
			const struct p4odp_table_entry *e;

			gen_key(&state, key);
			e = p4odp_table_lookup(table, key);
			if (e) {
				verify(e, key, false);
				rd->hits++;
			} else if (check_stable && stable_key(key)) {
				fprintf(stderr, "reader %d: a stable key missed\n", rd->id);
				exit(1);
			}
		}
		verify(p4odp_table_get_default(table), key, true);
		rd->lookups += 32;
		p4odp_rcu_quiescent(&rd->thr);
	}
	p4odp_rcu_unregister(&rd->thr);
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	static const char *const names[] = {"exact", "dir", "lpm128", "lpm128_tss", "ternary"};
	static const struct p4odp_key_field fields[][2] = {
		{{64, P4ODP_MATCH_EXACT}},
		{{32, P4ODP_MATCH_LPM}},
		{{128, P4ODP_MATCH_LPM}},
		{{128, P4ODP_MATCH_LPM}},
		{{32, P4ODP_MATCH_TERNARY}, {8, P4ODP_MATCH_EXACT}},
	};
	static const uint8_t kinds[] = {P4ODP_TABLE_CUCKOO, P4ODP_TABLE_DIR24, P4ODP_TABLE_TRIE,
					P4ODP_TABLE_TSS_LPM, P4ODP_TABLE_TSS};
	static struct reader rd[READERS];
	pthread_t th[READERS];
	double ms = argc > 2 ? strtod(argv[2], NULL) : 1000, t0;
	uint64_t ops = 0, clears = 0, lookups = 0, hits = 0;
	struct p4odp_table_stats st;
	struct p4odp_rcu_stats rst;
	int k = -1;

	for (int i = 0; i < 5; i++)
		if (argc > 1 && !strcmp(argv[1], names[i]))
			k = i;
	if (k < 0) {
		fprintf(stderr, "usage: %s exact|dir|lpm128|lpm128_tss|ternary [MS]\n", argv[0]);
		return 2;
	}
	kind = (enum kind)k;
	layout_init(&lay, kind == K_TERNARY ? 2 : 1, fields[k]);
	make_descs();
	CHECK_EQ(p4odp_rcu_create(&rcu), 0);
	/* Exact: 80% load at the limit, so inserts displace. */
	{
		struct p4odp_table_spec spec = {"concurrent", lay.n, lay.f,
						kind == K_EXACT ? 5734 : 8000, DATA_LEN, kinds[k]};

		CHECK_EQ(p4odp_table_create(&spec, rcu, &table), 0);
	}
	{
		struct desc dflt = {0};
		uint8_t d[DATA_LEN];
		uint16_t action;

		make_data(&dflt, d, &action);
		CHECK_EQ(p4odp_table_set_default(table, action, d), 0);
	}
	for (int i = 0; i < N_STABLE; i++) {
		add(&stable[i]);
		CHECK(stable[i].handle >= 0);
	}
	atomic_store(&stable_on, true);
	for (int i = 0; i < READERS; i++) {
		rd[i].id = i;
		CHECK_EQ(pthread_create(&th[i], NULL, reader_main, &rd[i]), 0);
	}
	t0 = now();
	while ((now() - t0) * 1000 < ms) {
		uint32_t op = rnd_below(20000) ? rnd_below(999) : 999;
		struct desc *m = &churn[rnd_below(N_CHURN)];

		if (op < 600) {
			/* Three in four present at steady state: the exact
			 * table runs at two thirds load and displaces. */
			if (m->handle < 0) {
				add(m);
			} else if (rnd_below(3)) {
				modify(m);
			} else {
				CHECK_EQ(p4odp_table_delete(table, m->handle), 0);
				m->handle = -1;
			}
		} else if (op < 900) {
			if (m->handle >= 0)
				modify(m);
			modify(&stable[rnd_below(N_STABLE)]);
		} else if (op < 999) {
			struct desc dflt = {0};
			uint8_t d[DATA_LEN];
			uint16_t action;

			make_data(&dflt, d, &action);
			CHECK_EQ(p4odp_table_set_default(table, action, d), 0);
		} else {
			/* Clear: readers stop expecting stable keys first. */
			atomic_store_explicit(&stable_on, false, memory_order_release);
			p4odp_rcu_synchronize(rcu);
			CHECK_EQ(p4odp_table_clear(table), 0);
			for (int i = 0; i < N_CHURN; i++)
				churn[i].handle = -1;
			for (int i = 0; i < N_STABLE; i++)
				add(&stable[i]);
			atomic_store_explicit(&stable_on, true, memory_order_release);
			clears++;
		}
		ops++;
	}
	atomic_store(&stop, true);
	for (int i = 0; i < READERS; i++) {
		CHECK_EQ(pthread_join(th[i], NULL), 0);
		lookups += rd[i].lookups;
		hits += rd[i].hits;
	}
	p4odp_table_stats(table, &st);
	printf("table_concurrent %s: %llu writes (%llu clears), %llu lookups, %llu hits, "
	       "%llu moves, %llu rebuilds, %llu index waits\n",
	       names[k], (unsigned long long)ops, (unsigned long long)clears,
	       (unsigned long long)lookups, (unsigned long long)hits,
	       (unsigned long long)st.cuckoo_moves, (unsigned long long)st.rebuilds,
	       (unsigned long long)st.index_waits);
	CHECK(ops > 100 && lookups > 1000 && hits > 0);
	p4odp_table_destroy(table);
	p4odp_rcu_stats(rcu, &rst);
	CHECK_EQ(rst.threads, 0);
	CHECK_EQ(p4odp_rcu_destroy(rcu), 0);
	printf("table_concurrent %s: OK\n", names[k]);
	return 0;
}
