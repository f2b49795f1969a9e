/*
 * Helpers of the match-table tests: checks, a PRNG, and a brute-force
 * reference model. The model sees every entry as a value/mask pair over the
 * whole key plus [low, high] per range field, and picks the best match by
 * priority (the prefix length in lpm tables), then by age: the rules of
 * p4odp_table.h, written independently of the library.
 */
#ifndef TABLE_TEST_H
#define TABLE_TEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "p4odp_table.h"

#define CHECK(cond)                                                             \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,  \
				__LINE__, #cond);                               \
			exit(1);                                                \
		}                                                               \
	} while (0)

#define CHECK_EQ(a, b)                                                          \
	do {                                                                    \
		long long a_ = (long long)(a), b_ = (long long)(b);             \
		if (a_ != b_) {                                                 \
			fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n", \
				__FILE__, __LINE__, #a, #b, a_, b_);            \
			exit(1);                                                \
		}                                                               \
	} while (0)

#define KMAX 64  /* key bytes in the tests */
#define FMAX 8

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static inline uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t rnd_below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

/* A table layout as the tests see it. */
struct layout {
	uint32_t n;
	struct p4odp_key_field f[FMAX];
	uint32_t off[FMAX], bytes[FMAX];
	uint32_t key_len;
	bool lpm_only;  /* no ternary/range/optional: priorities do not count */
};

static inline void layout_init(struct layout *l, uint32_t n, const struct p4odp_key_field *f)
{
	uint32_t off = 0;

	CHECK(n <= FMAX);
	l->n = n;
	l->lpm_only = true;
	for (uint32_t i = 0; i < n; i++) {
		l->f[i] = f[i];
		l->off[i] = off;
		l->bytes[i] = (f[i].width_bits + 7u) / 8;
		off += l->bytes[i];
		if (f[i].match_kind == P4ODP_MATCH_TERNARY || f[i].match_kind == P4ODP_MATCH_RANGE ||
		    f[i].match_kind == P4ODP_MATCH_OPTIONAL)
			l->lpm_only = false;
	}
	l->key_len = off;
	CHECK(off <= KMAX);
}

static inline struct p4odp_table *layout_table(const struct layout *l, uint32_t max,
					       uint32_t data_len, struct p4odp_rcu *rcu)
{
	struct p4odp_table_spec spec = {"test", l->n, l->f, max, data_len, P4ODP_TABLE_AUTO};
	struct p4odp_table *t = NULL;

	CHECK_EQ(p4odp_table_create(&spec, rcu, &t), 0);
	CHECK(t);
	return t;
}

/* Set bit i of a field (0: the field's most significant bit). */
static inline void field_bit(const struct layout *l, uint32_t fi, uint32_t i, uint8_t *p)
{
	uint32_t pos = 8 * l->bytes[fi] - l->f[fi].width_bits + i;

	p[l->off[fi] + pos / 8] |= (uint8_t)(0x80 >> (pos % 8));
}

static inline void field_random(const struct layout *l, uint32_t fi, uint8_t *p)
{
	memset(p + l->off[fi], 0, l->bytes[fi]);
	for (uint32_t i = 0; i < l->f[fi].width_bits; i++)
		if (rnd() & 1)
			field_bit(l, fi, i, p);
}

static inline void field_ones(const struct layout *l, uint32_t fi, uint8_t *p)
{
	memset(p + l->off[fi], 0, l->bytes[fi]);
	for (uint32_t i = 0; i < l->f[fi].width_bits; i++)
		field_bit(l, fi, i, p);
}

/* One entry of the reference model. */
struct ref {
	uint8_t val[KMAX], mask[KMAX], lo[KMAX], hi[KMAX];
	uint32_t plen[FMAX];
	bool wild[FMAX];
	int32_t prio;
	uint64_t seq;
	int64_t handle;
	uint16_t action;
	uint8_t data[16];
	bool live;
	struct p4odp_field_match fm[FMAX];
};

static inline struct p4odp_match ref_match(const struct layout *l, struct ref *r)
{
	for (uint32_t i = 0; i < l->n; i++) {
		uint32_t o = l->off[i];

		r->fm[i] = (struct p4odp_field_match){
			.value = r->val + o, .mask = r->mask + o, .low = r->lo + o,
			.high = r->hi + o, .prefix_len = r->plen[i], .wildcard = r->wild[i]};
		if (l->f[i].match_kind == P4ODP_MATCH_LPM)
			r->fm[i].mask = NULL;
	}
	return (struct p4odp_match){r->fm, r->prio};
}

static inline int32_t ref_score(const struct layout *l, const struct ref *r)
{
	if (l->lpm_only) {
		for (uint32_t i = 0; i < l->n; i++)
			if (l->f[i].match_kind == P4ODP_MATCH_LPM)
				return (int32_t)r->plen[i];
		return 0;
	}
	return r->prio;
}

static inline bool ref_matches(const struct layout *l, const struct ref *r, const uint8_t *key)
{
	for (uint32_t i = 0; i < l->key_len; i++)
		if ((key[i] & r->mask[i]) != r->val[i])
			return false;
	for (uint32_t i = 0; i < l->n; i++) {
		uint32_t o = l->off[i], n = l->bytes[i];

		if (l->f[i].match_kind == P4ODP_MATCH_RANGE &&
		    (memcmp(key + o, r->lo + o, n) < 0 || memcmp(key + o, r->hi + o, n) > 0))
			return false;
	}
	return true;
}

static inline const struct ref *ref_best(const struct layout *l, const struct ref *refs,
					 uint32_t n, const uint8_t *key)
{
	const struct ref *best = NULL;

	for (uint32_t i = 0; i < n; i++) {
		const struct ref *r = &refs[i];

		if (!r->live || !ref_matches(l, r, key))
			continue;
		if (!best || ref_score(l, r) > ref_score(l, best) ||
		    (ref_score(l, r) == ref_score(l, best) && r->seq < best->seq))
			best = r;
	}
	return best;
}

/* Same identity (match, and priority where it counts)? */
static inline bool ref_same(const struct layout *l, const struct ref *a, const struct ref *b)
{
	if (memcmp(a->val, b->val, l->key_len) || memcmp(a->mask, b->mask, l->key_len))
		return false;
	for (uint32_t i = 0; i < l->n; i++) {
		uint32_t o = l->off[i], n = l->bytes[i];

		if (l->f[i].match_kind == P4ODP_MATCH_RANGE &&
		    (memcmp(a->lo + o, b->lo + o, n) || memcmp(a->hi + o, b->hi + o, n)))
			return false;
	}
	return l->lpm_only || a->prio == b->prio;
}

/* A key that the entry matches, other bits random. */
static inline void ref_key(const struct layout *l, const struct ref *r, uint8_t *key)
{
	for (uint32_t i = 0; i < l->n; i++)
		field_random(l, i, key);
	for (uint32_t i = 0; i < l->key_len; i++)
		key[i] = (uint8_t)((key[i] & ~r->mask[i]) | r->val[i]);
	for (uint32_t i = 0; i < l->n; i++) {
		uint32_t o = l->off[i], n = l->bytes[i];

		if (l->f[i].match_kind != P4ODP_MATCH_RANGE)
			continue;
		/* lo, hi, or in between (range fields of the tests fit 32 bits). */
		uint64_t lo = 0, hi = 0, v;

		CHECK(n <= 4);
		for (uint32_t k = 0; k < n; k++) {
			lo = lo << 8 | r->lo[o + k];
			hi = hi << 8 | r->hi[o + k];
		}
		switch (rnd_below(4)) {
		case 0:
			v = lo;
			break;
		case 1:
			v = hi;
			break;
		default:
			v = lo + rnd() % (hi - lo + 1);
			break;
		}
		for (uint32_t k = n; k-- > 0; v >>= 8)
			key[o + k] = (uint8_t)v;
	}
}

static inline void random_data(uint8_t *d, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		d[i] = (uint8_t)rnd();
}

#endif
