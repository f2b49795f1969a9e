/*
 * Lookup rates of the table structures, one thread:
 *   exact    1M entries, 13-byte keys (a 5-tuple), cuckoo hash
 *   lpm      10k IPv4 prefixes, DIR-24-8
 *   lpm128   10k IPv6 prefixes, prefix-length tuple space
 *   ternary  1k ACL entries (src/dst prefixes, protocol, port ranges), TSS
 * Keys are drawn from the entries (hits) in random order, so large tables
 * miss the caches as real traffic would; the keys themselves are read in
 * sequence (in a switch they sit in packet headers already in cache).
 * IPv6 prefix lengths: half /48, 15% /32, the rest /33-/47 and /49-/64.
 * Usage: bench_tables [--quick]
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "p4odp_table.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, long long err)
{
	fprintf(stderr, "bench_tables: %s: %lld\n", what, err);
	exit(1);
}

static volatile uint64_t sink;

/* Lookups per second over keys[0..n) (pointers, in random order). */
static double run(const struct p4odp_table *t, const uint8_t *const *keys, uint32_t n,
		  uint32_t rounds, bool burst, uint64_t *hits)
{
	uint64_t acc = 0, h = 0;
	double t0 = now(), dt;

	for (uint32_t r = 0; r < rounds; r++) {
		if (burst) {
			const struct p4odp_table_entry *out[32];

			for (uint32_t i = 0; i + 32 <= n; i += 32) {
				p4odp_table_lookup_burst(t, keys + i, 32, out);
				for (int j = 0; j < 32; j++) {
					if (out[j]) {
						acc += out[j]->action_id;
						h++;
					}
				}
			}
		} else {
			for (uint32_t i = 0; i < n; i++) {
				const struct p4odp_table_entry *e = p4odp_table_lookup(t, keys[i]);

				if (e) {
					acc += e->action_id;
					h++;
				}
			}
		}
	}
	dt = now() - t0;
	sink += acc;
	*hits = h;
	return (double)(burst ? n / 32 * 32 : n) * rounds / dt;
}

/* count keys drawn at random from keys[0..n), copied in lookup order (as
 * packets bring them: the key itself is in cache, the table is not). */
static const uint8_t **shuffled(uint8_t *keys, uint32_t n, uint32_t stride, uint32_t count)
{
	const uint8_t **p = malloc(count * sizeof(*p) + (size_t)count * stride);
	uint8_t *copy = (uint8_t *)(p + count);

	if (!p)
		die("malloc", -ENOMEM);
	for (uint32_t i = 0; i < count; i++) {
		memcpy(copy + (size_t)i * stride, keys + (size_t)(rnd() % n) * stride, stride);
		p[i] = copy + (size_t)i * stride;
	}
	return p;
}

static void report(const char *name, const struct p4odp_table *t, double single, double burst,
		   uint64_t hits, uint64_t total, double add_rate)
{
	printf("%-8s %-9s %8u entries  %7.2f Mlookups/s", name, p4odp_table_kind_name(t),
	       p4odp_table_count(t), single / 1e6);
	if (burst > 0)
		printf("  (bursts of 32: %7.2f Mlookups/s)", burst / 1e6);
	printf("  hits %.0f%%  adds %.2f M/s\n", 100.0 * (double)hits / (double)total,
	       add_rate / 1e6);
}

static void bench_exact(uint32_t n, uint32_t lookups)
{
	struct p4odp_key_field f[] = {{32, P4ODP_MATCH_EXACT}, {32, P4ODP_MATCH_EXACT},
				      {8, P4ODP_MATCH_EXACT}, {16, P4ODP_MATCH_EXACT},
				      {16, P4ODP_MATCH_EXACT}};
	struct p4odp_table_spec spec = {"exact", 5, f, n, 8, P4ODP_TABLE_AUTO};
	struct p4odp_table *t;
	uint8_t *keys = malloc((size_t)n * 13);
	const uint8_t **kp;
	uint64_t hits;
	double t0, add_rate, single, burst;
	int err = p4odp_table_create(&spec, NULL, &t);

	if (err || !keys)
		die("exact create", err);
	t0 = now();
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *k = keys + (size_t)i * 13;
		uint64_t a = rnd(), b = rnd();
		struct p4odp_field_match fm[5] = {{.value = k}, {.value = k + 4}, {.value = k + 8},
						  {.value = k + 9}, {.value = k + 11}};
		int64_t h;

		memcpy(k, &a, 8);
		memcpy(k + 8, &b, 5);
		memcpy(k, &i, 4);  /* unique */
		h = p4odp_table_add(t, &(struct p4odp_match){fm, 0}, (uint16_t)i, &b);
		if (h < 0)
			die("exact add", h);
	}
	add_rate = n / (now() - t0);
	kp = shuffled(keys, n, 13, lookups);
	single = run(t, kp, lookups, 3, false, &hits);
	burst = run(t, kp, lookups, 3, true, &hits);
	report("exact", t, single, burst, hits, lookups / 32 * 32 * 3ull, add_rate);
	p4odp_table_destroy(t);
	free(kp);
	free(keys);
}

static void bench_lpm(uint32_t n, uint32_t lookups, uint32_t width)
{
	struct p4odp_key_field f = {(uint16_t)width, P4ODP_MATCH_LPM};
	struct p4odp_table_spec spec = {"lpm", 1, &f, n, 4, P4ODP_TABLE_AUTO};
	uint32_t bytes = width / 8, added = 0;
	struct p4odp_table *t;
	uint8_t *keys = malloc((size_t)n * bytes);
	const uint8_t **kp;
	uint64_t hits;
	double t0, add_rate, single;
	int err = p4odp_table_create(&spec, NULL, &t);

	if (err || !keys)
		die("lpm create", err);
	t0 = now();
	while (added < n) {
		/* A routing-table-like mix: mostly /24 (IPv4) or /48 (IPv6). */
		uint32_t r = (uint32_t)(rnd() % 100), plen;
		uint8_t v[16];
		struct p4odp_field_match fm = {.value = v};
		int64_t h;

		if (width == 32)
			plen = r < 60 ? 24 : r < 90 ? 16 + (uint32_t)(rnd() % 8) : 25 + (uint32_t)(rnd() % 8);
		else
			plen = r < 50 ? 48 : r < 65 ? 32 : r < 90 ? 33 + (uint32_t)(rnd() % 15)
							     : 49 + (uint32_t)(rnd() % 16);
		for (uint32_t i = 0; i < bytes; i++)
			v[i] = (uint8_t)rnd();
		for (uint32_t b = plen; b < width; b++)
			v[b / 8] &= (uint8_t)~(0x80 >> (b % 8));
		fm.prefix_len = plen;
		h = p4odp_table_add(t, &(struct p4odp_match){&fm, 0}, (uint16_t)added, NULL);
		if (h == -EEXIST)
			continue;
		if (h < 0)
			die("lpm add", h);
		/* The lookup key: inside the prefix, random host bits. */
		for (uint32_t b = plen; b < width; b++)
			if (rnd() & 1)
				v[b / 8] |= (uint8_t)(0x80 >> (b % 8));
		memcpy(keys + (size_t)added * bytes, v, bytes);
		added++;
	}
	add_rate = n / (now() - t0);
	kp = shuffled(keys, n, bytes, lookups);
	single = run(t, kp, lookups, 3, false, &hits);
	report(width == 32 ? "lpm" : "lpm128", t, single, 0, hits, lookups * 3ull, add_rate);
	p4odp_table_destroy(t);
	free(kp);
	free(keys);
}

static void bench_ternary(uint32_t n, uint32_t lookups)
{
	struct p4odp_key_field f[] = {{32, P4ODP_MATCH_TERNARY}, {32, P4ODP_MATCH_TERNARY},
				      {8, P4ODP_MATCH_TERNARY}, {16, P4ODP_MATCH_RANGE},
				      {16, P4ODP_MATCH_RANGE}};
	struct p4odp_table_spec spec = {"acl", 5, f, n, 4, P4ODP_TABLE_AUTO};
	static const uint32_t plens[] = {0, 8, 16, 24, 32};
	struct p4odp_table *t;
	uint8_t *keys = malloc((size_t)n * 13);
	const uint8_t **kp;
	uint64_t hits;
	double t0, add_rate, single;
	uint32_t added = 0;
	int err = p4odp_table_create(&spec, NULL, &t);

	if (err || !keys)
		die("ternary create", err);
	t0 = now();
	while (added < n) {
		uint8_t v[13], m[13], lo[4], hi[4], *k = keys + (size_t)added * 13;
		struct p4odp_field_match fm[5] = {
			{.value = v, .mask = m}, {.value = v + 4, .mask = m + 4},
			{.value = v + 8, .mask = m + 8}, {.low = lo, .high = hi},
			{.low = lo + 2, .high = hi + 2}};
		uint16_t l1 = (uint16_t)(rnd() % 60000), l2 = (uint16_t)(rnd() % 1024);
		uint16_t h1 = (uint16_t)(l1 + rnd() % 5000), h2 = (uint16_t)(l2 + rnd() % 64);
		int64_t h;

		for (int fi = 0; fi < 2; fi++) {
			uint32_t p = plens[rnd() % 5], a = (uint32_t)rnd(), mk = p ? ~0u << (32 - p) : 0;

			for (int i = 0; i < 4; i++) {
				m[4 * fi + i] = (uint8_t)(mk >> (24 - 8 * i));
				v[4 * fi + i] = (uint8_t)(a >> (24 - 8 * i)) & m[4 * fi + i];
			}
		}
		m[8] = rnd() % 4 ? 0xff : 0;
		v[8] = m[8] ? (rnd() & 1 ? 6 : 17) : 0;
		lo[0] = (uint8_t)(l1 >> 8), lo[1] = (uint8_t)l1, hi[0] = (uint8_t)(h1 >> 8), hi[1] = (uint8_t)h1;
		lo[2] = (uint8_t)(l2 >> 8), lo[3] = (uint8_t)l2, hi[2] = (uint8_t)(h2 >> 8), hi[3] = (uint8_t)h2;
		if (h1 < l1)
			continue;
		h = p4odp_table_add(t, &(struct p4odp_match){fm, (int32_t)(rnd() % 1000)},
				    (uint16_t)added, NULL);
		if (h == -EEXIST)
			continue;
		if (h < 0)
			die("ternary add", h);
		for (int i = 0; i < 9; i++)
			k[i] = (uint8_t)((rnd() & ~m[i]) | v[i]);
		k[9] = lo[0], k[10] = lo[1], k[11] = lo[2], k[12] = lo[3];
		added++;
	}
	add_rate = n / (now() - t0);
	kp = shuffled(keys, n, 13, lookups);
	single = run(t, kp, lookups, 3, false, &hits);
	report("ternary", t, single, 0, hits, lookups * 3ull, add_rate);
	{
		struct p4odp_table_stats st;

		p4odp_table_stats(t, &st);
		printf("         (%u mask groups)\n", st.groups);
	}
	p4odp_table_destroy(t);
	free(kp);
	free(keys);
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");
	uint32_t lookups = quick ? 100000 : 4000000;

	printf("p4odp tables, one thread, %u random lookups x 3 per table\n", lookups);
	bench_exact(quick ? 10000 : 1000000, lookups);
	bench_lpm(quick ? 1000 : 10000, lookups, 32);
	bench_lpm(quick ? 1000 : 10000, lookups / 4, 128);
	bench_ternary(quick ? 100 : 1000, lookups / 4);
	return sink == 42;  /* never; keeps the lookups */
}
