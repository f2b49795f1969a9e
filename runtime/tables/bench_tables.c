/*
 * Lookup rates of the table structures, one thread:
 *   exact       1M entries, 13-byte keys (a 5-tuple), cuckoo hash
 *   mac         1k entries, 6-byte keys (an L2 switch's MACs), cuckoo hash
 *   lpm         10k IPv4 prefixes, DIR-24-8
 *   lpm128      10k IPv6 prefixes, multibit trie
 *   lpm128_tss  the same prefixes, prefix-length tuple space
 *   ternary     1k ACL entries (src/dst prefixes, protocol, port ranges), TSS
 * Keys are drawn from the entries (hits) in random order, so large tables
 * miss the caches as real traffic would; the keys themselves are read in
 * sequence (in a switch they sit in packet headers already in cache).
 * IPv6 prefix lengths: half /48, 15% /32, the rest /33-/47 and /49-/64
 * (--plen N: all /N).
 *
 * Instructions per lookup: the lookups run in lookup_single and
 * lookup_burst, which callgrind can count alone:
 *   valgrind --tool=callgrind --toggle-collect=lookup_single bench_tables --quick --only mac
 * then divide the total by the lookups printed.
 *
 * Usage: bench_tables [--quick] [--only NAME] [--plen N]
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "p4odp_table.h"

#define ROUNDS 3

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

/* One lookup after the other; returns the hits (action ids summed into
 * sink, so that nothing is optimized away). */
__attribute__((noinline)) static uint64_t lookup_single(const struct p4odp_table *t,
							 const uint8_t *const *keys, uint32_t n)
{
	uint64_t acc = 0, h = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct p4odp_table_entry *e = p4odp_table_lookup(t, keys[i]);

		if (e) {
			acc += e->action_id;
			h++;
		}
	}
	sink += acc;
	return h;
}

/* Bursts of 32, as a worker looks up the packets of one receive burst. */
__attribute__((noinline)) static uint64_t lookup_burst(const struct p4odp_table *t,
							const uint8_t *const *keys, uint32_t n)
{
	const struct p4odp_table_entry *out[32];
	uint64_t acc = 0, h = 0;

	for (uint32_t i = 0; i + 32 <= n; i += 32) {
		p4odp_table_lookup_burst(t, keys + i, 32, out);
		for (int j = 0; j < 32; j++) {
			if (out[j]) {
				acc += out[j]->action_id;
				h++;
			}
		}
	}
	sink += acc;
	return h;
}

/* Lookups per second over keys[0..n) (pointers, in random order), and the
 * share of hits. */
static double run(const struct p4odp_table *t, const uint8_t *const *keys, uint32_t n, bool burst,
		  double *hit_share)
{
	uint32_t done = burst ? n / 32 * 32 : n;
	uint64_t hits = 0;
	double t0 = now();

	for (uint32_t r = 0; r < ROUNDS; r++)
		hits += burst ? lookup_burst(t, keys, n) : lookup_single(t, keys, n);
	*hit_share = (double)hits / ((double)done * ROUNDS);
	return (double)done * ROUNDS / (now() - t0);
}

/* count keys drawn at random from keys[0..n), copied in lookup order (as
 * packets bring them: the key itself is in cache, the table is not). */
static const uint8_t **shuffled(const uint8_t *keys, uint32_t n, uint32_t stride, uint32_t count)
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

/* Run and print one row: single lookups, and bursts unless !burst. */
static void measure(const char *name, const struct p4odp_table *t, const uint8_t *keys,
		    uint32_t stride, uint32_t lookups, bool burst, double add_rate)
{
	const uint8_t **kp = shuffled(keys, p4odp_table_count(t), stride, lookups);
	double hit1, hit2 = 1, single = run(t, kp, lookups, false, &hit1);

	printf("%-10s %-9s %8u entries  %7.2f Mlookups/s", name, p4odp_table_kind_name(t),
	       p4odp_table_count(t), single / 1e6);
	if (burst)
		printf("  (bursts of 32: %7.2f Mlookups/s)", run(t, kp, lookups, true, &hit2) / 1e6);
	printf("  hits %.0f%%  adds %.2f M/s\n", 100.0 * (hit1 < hit2 ? hit1 : hit2),
	       add_rate / 1e6);
	free(kp);
}

/* An exact table of n random unique keys of len bytes. */
static void bench_exact(const char *name, uint32_t n, uint32_t lookups, uint32_t n_fields,
			const struct p4odp_key_field *f, uint32_t len)
{
	struct p4odp_table_spec spec = {name, n_fields, f, n, 8, P4ODP_TABLE_AUTO};
	struct p4odp_field_match fm[8];
	struct p4odp_table *t;
	uint8_t *keys = malloc((size_t)n * len);
	double t0;
	int err = p4odp_table_create(&spec, NULL, &t);

	if (err || !keys)
		die("exact create", err);
	t0 = now();
	for (uint32_t i = 0; i < n;) {
		uint8_t *k = keys + (size_t)i * len;
		uint64_t d = rnd();
		int64_t h;

		for (uint32_t j = 0, off = 0; j < n_fields; off += f[j++].width_bits / 8)
			fm[j] = (struct p4odp_field_match){.value = k + off};
		for (uint32_t j = 0; j < len; j++)
			k[j] = (uint8_t)rnd();
		h = p4odp_table_add(t, &(struct p4odp_match){fm, 0}, (uint16_t)i, &d);
		if (h == -EEXIST)
			continue;
		if (h < 0)
			die("exact add", h);
		i++;
	}
	measure(name, t, keys, len, lookups, true, n / (now() - t0));
	p4odp_table_destroy(t);
	free(keys);
}

/* n random prefixes: a routing-table-like mix, mostly /24 (IPv4) or /48
 * (IPv6), or all of length plen when not 0; in values, and one key inside
 * each (random host bits) in keys. */
static void lpm_prefixes(uint32_t n, uint32_t width, uint32_t plen_all, uint8_t *values,
			 uint32_t *plens, uint8_t *keys)
{
	uint32_t bytes = width / 8;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t r = (uint32_t)(rnd() % 100), plen;
		uint8_t *v = values + (size_t)i * bytes, *k = keys + (size_t)i * bytes;

		if (plen_all)
			plen = plen_all;
		else if (width == 32)
			plen = r < 60 ? 24 : r < 90 ? 16 + (uint32_t)(rnd() % 8) : 25 + (uint32_t)(rnd() % 8);
		else
			plen = r < 50 ? 48 : r < 65 ? 32 : r < 90 ? 33 + (uint32_t)(rnd() % 15)
							     : 49 + (uint32_t)(rnd() % 16);
		for (uint32_t j = 0; j < bytes; j++)
			v[j] = (uint8_t)rnd();
		for (uint32_t b = plen; b < width; b++)
			v[b / 8] &= (uint8_t)~(0x80 >> (b % 8));
		plens[i] = plen;
		memcpy(k, v, bytes);
		for (uint32_t b = plen; b < width; b++)
			if (rnd() & 1)
				k[b / 8] |= (uint8_t)(0x80 >> (b % 8));
	}
}

static void bench_lpm(const char *name, uint32_t n, uint32_t lookups, uint32_t width, uint8_t kind,
		      const uint8_t *values, const uint32_t *plens, const uint8_t *keys)
{
	struct p4odp_key_field f = {(uint16_t)width, P4ODP_MATCH_LPM};
	struct p4odp_table_spec spec = {name, 1, &f, n, 4, kind};
	uint32_t bytes = width / 8, added = 0;
	uint8_t *hit_keys = malloc((size_t)n * bytes);
	struct p4odp_table *t;
	double t0;
	int err = p4odp_table_create(&spec, NULL, &t);

	if (err || !hit_keys)
		die("lpm create", err);
	t0 = now();
	for (uint32_t i = 0; i < n; i++) {
		struct p4odp_field_match fm = {.value = values + (size_t)i * bytes,
					       .prefix_len = plens[i]};
		int64_t h = p4odp_table_add(t, &(struct p4odp_match){&fm, 0}, (uint16_t)i, NULL);

		if (h == -EEXIST)
			continue;
		if (h < 0)
			die("lpm add", h);
		memcpy(hit_keys + (size_t)added++ * bytes, keys + (size_t)i * bytes, bytes);
	}
	measure(name, t, hit_keys, bytes, lookups, true, added / (now() - t0));
	p4odp_table_destroy(t);
	free(hit_keys);
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
	struct p4odp_table_stats st;
	double t0;
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
	measure("ternary", t, keys, 13, lookups, false, n / (now() - t0));
	p4odp_table_stats(t, &st);
	printf("           (%u mask groups)\n", st.groups);
	p4odp_table_destroy(t);
	free(keys);
}

int main(int argc, char **argv)
{
	static const struct p4odp_key_field tuple5[] = {
		{32, P4ODP_MATCH_EXACT}, {32, P4ODP_MATCH_EXACT}, {8, P4ODP_MATCH_EXACT},
		{16, P4ODP_MATCH_EXACT}, {16, P4ODP_MATCH_EXACT}};
	static const struct p4odp_key_field mac[] = {{48, P4ODP_MATCH_EXACT}};
	const char *only = NULL;
	bool quick = false;
	uint32_t lookups, plen = 0, n4, n6;
	uint8_t *v, *k;
	uint32_t *pl;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--only") && i + 1 < argc)
			only = argv[++i];
		else if (!strcmp(argv[i], "--plen") && i + 1 < argc && (plen = (uint32_t)atoi(argv[++i])) &&
			 plen <= 128)
			continue;
		else
			die("usage: bench_tables [--quick] [--only NAME] [--plen 1..128]", 2);
	}
#define ROW(name) (!only || !strcmp(only, name))
	lookups = quick ? 100000 : 4000000;
	n4 = quick ? 1000 : 10000;
	n6 = quick ? 1000 : 10000;
	printf("p4odp tables, one thread, %u random lookups x %d per table\n", lookups, ROUNDS);
	if (ROW("exact"))
		bench_exact("exact", quick ? 10000 : 1000000, lookups, 5, tuple5, 13);
	if (ROW("mac"))
		bench_exact("mac", 1000, lookups, 1, mac, 6);
	v = malloc((size_t)n6 * 16);
	k = malloc((size_t)n6 * 16);
	pl = malloc(n6 * sizeof(*pl));
	if (!v || !k || !pl)
		die("malloc", -ENOMEM);
	if (ROW("lpm")) {
		lpm_prefixes(n4, 32, 0, v, pl, k);
		bench_lpm("lpm", n4, lookups, 32, P4ODP_TABLE_AUTO, v, pl, k);
	}
	lpm_prefixes(n6, 128, plen, v, pl, k);
	if (ROW("lpm128"))
		bench_lpm("lpm128", n6, lookups / 4, 128, P4ODP_TABLE_AUTO, v, pl, k);
	if (ROW("lpm128_tss"))
		bench_lpm("lpm128_tss", n6, lookups / 4, 128, P4ODP_TABLE_TSS_LPM, v, pl, k);
	if (ROW("ternary"))
		bench_ternary(quick ? 100 : 1000, lookups / 4);
	free(v);
	free(k);
	free(pl);
	return sink == 42;  /* never; keeps the lookups */
}
