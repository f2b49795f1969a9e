/*
 * p4odp_table.h: the match tables of the switch runtime.
 *
 * Keys
 *   A key is a byte string: the table's key fields concatenated in order,
 *   each in network byte order in ceil(width/8) bytes, right-aligned (the
 *   unused high bits of the first byte are zero). Lookups trust the caller on
 *   the unused bits; the control-plane functions check them.
 *
 * Structures (picked at creation from the match kinds)
 *   all exact                         -> bucketed cuckoo hash ("cuckoo")
 *   one lpm field of <= 32 bits alone -> DIR-24-8 ("dir-24-8")
 *   one lpm field + exact fields, or
 *   one lpm field wider than 32 bits  -> prefix-length groups, longest first
 *                                        ("tss-lpm")
 *   any ternary, range or optional    -> tuple-space search ("tss")
 *   no field                          -> every lookup misses ("empty")
 *   More than one lpm field is rejected (as p4c does).
 *
 * Priorities (tables with a ternary, range or optional field)
 *   The larger priority wins, as in P4Runtime. simple_switch_CLI's
 *   priorities are the other way round: the control channel converts.
 *   Among overlapping entries of equal priority the one added first wins
 *   (deterministic; P4Runtime leaves that case undefined). An entry is
 *   identified by its match and its priority. In lpm and exact tables the
 *   priority is ignored: the longest prefix wins.
 *
 * Concurrency
 *   One writer at a time: every function but the lookups and
 *   p4odp_table_get_default belongs to the control plane, which serializes
 *   its calls (the library takes no lock). Any number of readers look up
 *   concurrently without locking, each registered with the table's RCU
 *   domain (p4odp_rcu.h) and calling p4odp_rcu_quiescent() between bursts.
 *   - Entries (action id and data) are immutable once published: a lookup
 *     returns a complete entry, the one before or the one after any
 *     concurrent add, modify or delete, never a mix.
 *   - A returned pointer stays valid until the reader's next quiescent
 *     state; the memory is reclaimed only after every online reader passed
 *     one.
 *   - A lookup concurrent with several updates sees each of them done or not
 *     done, possibly not in the order they were made (like a P4Runtime batch,
 *     which is not atomic either). clear() swaps in an empty structure at
 *     once.
 *   - Writes never wait for readers, except when an add needs an entry slot
 *     (index) or a DIR-24-8 tbl8 group that a delete freed less than a grace
 *     period ago and no other is free: then it waits for that grace period.
 *     So the control-plane thread must not be an online reader of the same
 *     domain (go offline first).
 *   A table created with a NULL domain uses a private one with no readers:
 *   for single-threaded use (tests, tools), memory is reclaimed at once.
 */
#ifndef P4ODP_TABLE_H
#define P4ODP_TABLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "p4odp_rcu.h"

enum p4odp_match_kind {
	P4ODP_MATCH_EXACT,
	P4ODP_MATCH_LPM,
	P4ODP_MATCH_TERNARY,
	P4ODP_MATCH_RANGE,
	P4ODP_MATCH_OPTIONAL,
};

/* The lookup structures.  AUTO in a spec: the one the match kinds call for
 * (the rule of the compiler's table-structures pass). */
enum p4odp_table_kind {
	P4ODP_TABLE_AUTO,
	P4ODP_TABLE_EMPTY,
	P4ODP_TABLE_CUCKOO,
	P4ODP_TABLE_DIR24,
	P4ODP_TABLE_TSS_LPM,
	P4ODP_TABLE_TSS,
};

/* Limits checked by p4odp_table_create. */
#define P4ODP_TABLE_KEY_MAX 512u           /* bytes of a key */
#define P4ODP_TABLE_ENTRIES_MAX (1u << 26)

struct p4odp_key_field {
	uint16_t width_bits;  /* 1 .. 4096 */
	uint8_t match_kind;   /* enum p4odp_match_kind */
};

struct p4odp_table_spec {
	const char *name;
	uint32_t n_fields;
	const struct p4odp_key_field *fields;
	uint32_t max_entries;
	uint32_t action_data_len;  /* bytes of every entry's action data */
	uint8_t kind;              /* enum p4odp_table_kind: AUTO, or one the fields allow */
};

/*
 * How one field of an entry matches. Byte strings are in the key's format:
 * ceil(width/8) bytes, network order, unused high bits zero.
 *   exact:    value.
 *   lpm:      value and prefix_len (0 .. width); bits past the prefix must
 *             be zero. prefix_len 0 matches everything.
 *   ternary:  value and mask (NULL mask: all ones); value bits outside the
 *             mask must be zero. wildcard: don't care (value, mask ignored).
 *   range:    low <= key <= high, unsigned. wildcard: the full range.
 *   optional: value, or wildcard for don't care.
 * Anything else is -EINVAL.
 */
struct p4odp_field_match {
	const uint8_t *value;
	const uint8_t *mask;
	const uint8_t *low;
	const uint8_t *high;
	uint32_t prefix_len;
	bool wildcard;
};

struct p4odp_match {
	const struct p4odp_field_match *fields;  /* spec.n_fields of them */
	int32_t priority;  /* larger wins; see above */
};

/* What a lookup returns; immutable once published. */
struct p4odp_table_entry {
	uint16_t action_id;
	uint16_t reserved;
	/* 0 .. max_entries-1, stable from add to delete (modify keeps it):
	 * the index of the entry's direct counters and meters. A deleted
	 * entry's index is reused only after a grace period. The default
	 * entry has UINT32_MAX. */
	uint32_t index;
	_Alignas(8) uint8_t data[];  /* action_data_len bytes */
};

#define P4ODP_TABLE_NO_INDEX UINT32_MAX

struct p4odp_table_stats {
	uint32_t entries;
	uint32_t max_entries;
	uint32_t key_len;
	uint32_t groups;       /* tss: mask groups; dir-24-8: tbl8 groups in use */
	uint32_t buckets;      /* cuckoo: buckets (7 slots each) */
	uint64_t adds, deletes, modifies, clears;
	uint64_t cuckoo_moves; /* displacements made by inserts */
	uint64_t rebuilds;     /* hash tables grown */
	uint64_t index_waits;  /* adds that waited for a grace period */
};

struct p4odp_table;

/* Create a table; *out is set on success. -EINVAL for a bad spec (no
 * max_entries, a width of 0 or over 4096, a key over P4ODP_TABLE_KEY_MAX,
 * two lpm fields, an unknown match kind), -ENOMEM. rcu may be NULL (see
 * above); otherwise it must outlive the table. */
int p4odp_table_create(const struct p4odp_table_spec *spec, struct p4odp_rcu *rcu,
		       struct p4odp_table **out);
/* Frees everything at once: no reader may use the table any more. */
void p4odp_table_destroy(struct p4odp_table *t);

/* Add an entry; data holds action_data_len bytes (NULL: zeros). Returns a
 * handle >= 0, or -EEXIST (same match, and same priority where priorities
 * count), -ENOSPC (max_entries reached), -EINVAL (bad match), -ENOMEM.
 * A failed call changes nothing. */
int64_t p4odp_table_add(struct p4odp_table *t, const struct p4odp_match *m,
			uint16_t action_id, const void *data);
/* The handle of the entry with this match, -ENOENT or -EINVAL. */
int64_t p4odp_table_find(const struct p4odp_table *t, const struct p4odp_match *m);
/* Replace the action of an entry (published atomically). -ENOENT for a
 * handle that is not (or no longer) an entry's. */
int p4odp_table_modify(struct p4odp_table *t, int64_t handle, uint16_t action_id,
		       const void *data);
int p4odp_table_modify_match(struct p4odp_table *t, const struct p4odp_match *m,
			     uint16_t action_id, const void *data);
int p4odp_table_delete(struct p4odp_table *t, int64_t handle);
int p4odp_table_delete_match(struct p4odp_table *t, const struct p4odp_match *m);
/* Delete every entry; the default action stays. */
int p4odp_table_clear(struct p4odp_table *t);
/* The action used on a miss; action 0 with zero data until set. */
int p4odp_table_set_default(struct p4odp_table *t, uint16_t action_id, const void *data);

/* Dump entries, in index order: fn(arg, handle, match, entry) for each,
 * stopping at the first nonzero return, which foreach returns. fn may
 * modify or delete the entry it visits. The match points into the table
 * (valid until the next write): ternary don't-cares
 * come back as wildcards with a zero mask, range wildcards as the full range,
 * lpm tables report priority 0. get visits one entry (-ENOENT if none). */
typedef int (*p4odp_table_visit_fn)(void *arg, int64_t handle, const struct p4odp_match *m,
				    const struct p4odp_table_entry *e);
int p4odp_table_foreach(const struct p4odp_table *t, p4odp_table_visit_fn fn, void *arg);
int p4odp_table_get(const struct p4odp_table *t, int64_t handle, p4odp_table_visit_fn fn,
		    void *arg);

uint32_t p4odp_table_count(const struct p4odp_table *t);
uint32_t p4odp_table_key_len(const struct p4odp_table *t);
enum p4odp_table_kind p4odp_table_kind(const struct p4odp_table *t);
const char *p4odp_table_kind_name(const struct p4odp_table *t);
const char *p4odp_table_name(const struct p4odp_table *t);
void p4odp_table_stats(const struct p4odp_table *t, struct p4odp_table_stats *st);

/*
 * Lookups (reader side). NULL on a miss: the caller then applies
 * p4odp_table_get_default(). The burst form looks up n keys at once,
 * prefetching (faster on large tables).
 */
static inline const struct p4odp_table_entry *
p4odp_table_lookup(const struct p4odp_table *t, const uint8_t *key);
static inline const struct p4odp_table_entry *
p4odp_table_get_default(const struct p4odp_table *t);
void p4odp_table_lookup_burst(const struct p4odp_table *t, const uint8_t *const keys[],
			      uint32_t n, const struct p4odp_table_entry *out[]);

/* ---- Internals of the inline lookups; not an API. ---- */

#if defined(__GNUC__)
#define P4ODP__LIKELY(x) __builtin_expect(!!(x), 1)
#define P4ODP__UNLIKELY(x) __builtin_expect(!!(x), 0)
#define P4ODP__PREFETCH(p) __builtin_prefetch(p)
#else
#define P4ODP__LIKELY(x) (x)
#define P4ODP__UNLIKELY(x) (x)
#define P4ODP__PREFETCH(p) ((void)(p))
#endif

#define P4ODP__WAYS 7
#define P4ODP__TAG_HI 0x0080808080808080ull  /* byte 7 of tags is unused */
#define P4ODP__TAG_LO 0x7f7f7f7f7f7f7f7full
#define P4ODP__DIR_EXT 0x80000000u

/*
 * A cuckoo bucket: one cache line, 7 slots. Byte i of tags is the 8-bit
 * tag of slot i (0: empty); obj[i] points to an immutable object holding
 * its key as 64-bit words at the table's key_off. Objects are entries
 * (exact tables) or tuple-space nodes.
 */
struct p4odp__bucket {
	_Alignas(64) _Atomic uint64_t tags;
	_Atomic(const void *) obj[P4ODP__WAYS];
};

struct p4odp__cuckoo {
	uint32_t mask;       /* buckets - 1 */
	uint32_t key_words;
	uint32_t key_off;    /* offset of the key words in an object */
	uint32_t count;      /* objects (writer) */
	uint64_t seed;
	/* Bumped on every displacement; a miss seen while it moved is
	 * retried (an object moving between its two buckets). */
	_Atomic uint32_t moves;
	void *base;          /* the allocation (writer) */
	struct p4odp__bucket b[];
};

/* DIR-24-8 generalized to DIR-b1-b2 with b1 = min(width, 24), b2 = width -
 * b1. Slots hold 0 (no rule), index + 1 of the rule's entry, or
 * P4ODP__DIR_EXT | group for a slot split into 2^b2 slots of tbl8. */
struct p4odp__dir {
	uint32_t b1, b2;
	_Atomic uint32_t *tbl1;
	_Atomic(_Atomic uint32_t *) tbl8;
};

struct p4odp__writer;
struct p4odp__tss_list;

struct p4odp_table {
	/* Read by the lookups. */
	uint8_t kind;
	uint32_t key_len;
	uint32_t key_words;
	_Atomic(struct p4odp__cuckoo *) cuckoo;
	_Atomic(struct p4odp__dir *) dir;
	_Atomic(struct p4odp__tss_list *) tss;
	_Atomic(const struct p4odp_table_entry *) *entries;  /* by index */
	_Atomic(const struct p4odp_table_entry *) default_entry;
	/* Control-plane state. */
	struct p4odp__writer *w;
};

const struct p4odp_table_entry *p4odp__tss_lookup(const struct p4odp_table *t,
						  const uint8_t *key);
const struct p4odp_table_entry *p4odp__cuckoo_lookup_long(const struct p4odp_table *t,
							  const uint8_t *key);

/* n (1..8) bytes as a zero-padded word; the same byte positions always land
 * on the same bits, so masks apply word by word. */
static inline uint64_t p4odp__load(const uint8_t *p, uint32_t n)
{
	uint64_t v = 0;
	uint32_t off = 0;

	if (P4ODP__LIKELY(n >= 8)) {
		memcpy(&v, p, 8);
		return v;
	}
	if (n & 4) {
		uint32_t x;

		memcpy(&x, p, 4);
		v = x;
		off = 4;
	}
	if (n & 2) {
		uint16_t x;

		memcpy(&x, p + off, 2);
		v |= (uint64_t)x << (8 * off);
		off += 2;
	}
	if (n & 1)
		v |= (uint64_t)p[off] << (8 * off);
	return v;
}

static inline uint64_t p4odp__hmix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static inline uint64_t p4odp__hfin(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static inline uint64_t p4odp__hash_words(uint64_t seed, const uint64_t *w, uint32_t n)
{
	uint64_t h = seed;

	for (uint32_t i = 0; i < n; i++)
		h = p4odp__hmix(h, w[i]);
	return p4odp__hfin(h);
}

/* The two buckets and the tag pattern (tag in every byte) of a hash. */
static inline void p4odp__cuckoo_pos(const struct p4odp__cuckoo *h, uint64_t hv, uint32_t *b1,
				     uint32_t *b2, uint64_t *pat)
{
	uint64_t tag = (uint8_t)(hv >> 56 ^ hv >> 24);

	*b1 = (uint32_t)hv & h->mask;
	*b2 = (uint32_t)(hv >> 32) & h->mask;
	if (*b2 == *b1)
		*b2 = *b1 ^ 1;
	*pat = (tag ? tag : 1) * 0x0101010101010101ull;
}

/* Bit 7 of byte i set when slot i's tag matches (exact, no false bits). */
static inline uint64_t p4odp__tag_match(uint64_t tags, uint64_t pat)
{
	uint64_t x = tags ^ pat;
	uint64_t y = (x & P4ODP__TAG_LO) + P4ODP__TAG_LO;

	return ~(y | x | P4ODP__TAG_LO) & P4ODP__TAG_HI;
}

static inline const void *p4odp__bucket_find2(const struct p4odp__cuckoo *h,
					      const struct p4odp__bucket *b, uint64_t pat,
					      uint64_t w0, uint64_t w1)
{
	uint64_t m = p4odp__tag_match(atomic_load_explicit(&b->tags, memory_order_acquire), pat);

	while (m) {
		unsigned i = (unsigned)__builtin_ctzll(m) >> 3;
		const void *o = atomic_load_explicit(&b->obj[i], memory_order_acquire);

		m &= m - 1;
		if (o) {
			const uint64_t *k = (const uint64_t *)((const char *)o + h->key_off);

			if (k[0] == w0 && (h->key_words < 2 || k[1] == w1))
				return o;
		}
	}
	return NULL;
}

static inline const void *p4odp__bucket_find(const struct p4odp__cuckoo *h,
					     const struct p4odp__bucket *b, uint64_t pat,
					     const uint64_t *w)
{
	uint64_t m = p4odp__tag_match(atomic_load_explicit(&b->tags, memory_order_acquire), pat);

	while (m) {
		unsigned i = (unsigned)__builtin_ctzll(m) >> 3;
		const void *o = atomic_load_explicit(&b->obj[i], memory_order_acquire);

		m &= m - 1;
		if (o && !memcmp((const char *)o + h->key_off, w, 8 * (size_t)h->key_words))
			return o;
	}
	return NULL;
}

/* Find the object whose key is (w0, w1) (key_words <= 2) or w[]. */
static inline const void *p4odp__cuckoo_find2(const struct p4odp__cuckoo *h, uint64_t hv,
					      uint64_t w0, uint64_t w1)
{
	uint32_t b1, b2, moves;
	uint64_t pat;
	const void *o;

	p4odp__cuckoo_pos(h, hv, &b1, &b2, &pat);
	do {
		moves = atomic_load_explicit(&h->moves, memory_order_acquire);
		o = p4odp__bucket_find2(h, &h->b[b1], pat, w0, w1);
		if (!o)
			o = p4odp__bucket_find2(h, &h->b[b2], pat, w0, w1);
	} while (!o && atomic_load_explicit(&h->moves, memory_order_acquire) != moves);
	return o;
}

static inline const void *p4odp__cuckoo_find(const struct p4odp__cuckoo *h, uint64_t hv,
					     const uint64_t *w)
{
	uint32_t b1, b2, moves;
	uint64_t pat;
	const void *o;

	p4odp__cuckoo_pos(h, hv, &b1, &b2, &pat);
	do {
		moves = atomic_load_explicit(&h->moves, memory_order_acquire);
		o = p4odp__bucket_find(h, &h->b[b1], pat, w);
		if (!o)
			o = p4odp__bucket_find(h, &h->b[b2], pat, w);
	} while (!o && atomic_load_explicit(&h->moves, memory_order_acquire) != moves);
	return o;
}

static inline const struct p4odp_table_entry *
p4odp__cuckoo_lookup(const struct p4odp_table *t, const uint8_t *key)
{
	const struct p4odp__cuckoo *h = atomic_load_explicit(&t->cuckoo, memory_order_acquire);
	uint32_t len = t->key_len;
	uint64_t w0, w1 = 0, hv;

	if (P4ODP__UNLIKELY(len > 16))
		return p4odp__cuckoo_lookup_long(t, key);
	w0 = p4odp__load(key, len < 8 ? len : 8);
	hv = p4odp__hmix(h->seed, w0);
	if (len > 8) {
		w1 = p4odp__load(key + 8, len - 8);
		hv = p4odp__hmix(hv, w1);
	}
	return (const struct p4odp_table_entry *)p4odp__cuckoo_find2(h, p4odp__hfin(hv), w0, w1);
}

static inline const struct p4odp_table_entry *
p4odp__dir_lookup(const struct p4odp_table *t, const uint8_t *key)
{
	const struct p4odp__dir *d = atomic_load_explicit(&t->dir, memory_order_acquire);
	uint32_t v = 0, x;

	for (uint32_t i = 0; i < t->key_len; i++)
		v = v << 8 | key[i];
	x = atomic_load_explicit(&d->tbl1[v >> d->b2], memory_order_acquire);
	if (x & P4ODP__DIR_EXT) {
		const _Atomic uint32_t *tbl8 = atomic_load_explicit(&d->tbl8, memory_order_acquire);

		x = atomic_load_explicit(&tbl8[((x & ~P4ODP__DIR_EXT) << d->b2) +
					       (v & ((1u << d->b2) - 1))],
					 memory_order_acquire);
	}
	if (!x)
		return NULL;
	return atomic_load_explicit(&t->entries[x - 1], memory_order_acquire);
}

static inline const struct p4odp_table_entry *
p4odp_table_lookup(const struct p4odp_table *t, const uint8_t *key)
{
	switch (t->kind) {
	case P4ODP_TABLE_CUCKOO:
		return p4odp__cuckoo_lookup(t, key);
	case P4ODP_TABLE_DIR24:
		return p4odp__dir_lookup(t, key);
	case P4ODP_TABLE_TSS_LPM:
	case P4ODP_TABLE_TSS:
		return p4odp__tss_lookup(t, key);
	default:
		return NULL;
	}
}

static inline const struct p4odp_table_entry *
p4odp_table_get_default(const struct p4odp_table *t)
{
	return atomic_load_explicit(&t->default_entry, memory_order_acquire);
}

#endif
