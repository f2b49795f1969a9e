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
 *   one lpm field wider than 32 bits  -> multibit trie: 16 bits, then 6 a
 *     alone                              level, poptrie-compressed, lone
 *                                        rules in tails ("trie")
 *   one lpm field + exact fields      -> prefix-length groups, longest first
 *                                        ("tss-lpm")
 *   any ternary, range or optional    -> tuple-space search ("tss")
 *   no field                          -> every lookup misses ("empty")
 *   More than one lpm field is rejected (as p4c does). Asked for by name,
 *   any table with fields may be "code": it keeps its entries for the
 *   control plane (find, dump, modify, delete) and every lookup misses; its
 *   owner matches the entries itself (a generated switch compiles a
 *   table's const entries into its datapath, and asks the table only for
 *   the default entry, which the control plane may change).
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
#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif
#if defined(__BMI2__) && defined(__x86_64__)
#include <immintrin.h>
#endif

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
	P4ODP_TABLE_TRIE,
	P4ODP_TABLE_CODE,
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
	uint32_t groups;       /* tss: mask groups; dir-24-8: tbl8 groups in use;
				  trie: nodes under the root array */
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
 * p4odp_table_get_default(). The burst form looks up n keys at once: the
 * memory each key needs (cuckoo buckets, DIR-24-8 slots, trie nodes, then
 * the entries) is prefetched for all of them before any is read, so the
 * cache misses of a burst overlap (faster on tables larger than the caches).
 */
static inline const struct p4odp_table_entry *
p4odp_table_lookup(const struct p4odp_table *t, const uint8_t *key);
/* A lookup whose key, of key_len (1..8, the table's) bytes, is given as one
 * integer: its bytes read as a big-endian number, which the generated code
 * builds from the field values without storing them.  The cuckoo hash and
 * DIR-24-8 take it as it is; the other structures get the bytes back.
 * `kind` is the table's (p4odp_table_kind): a caller that knows it and the
 * length at compile time passes constants, and the tests on the structure
 * and the shifts by the length fold away. */
static inline const struct p4odp_table_entry *
p4odp_table_lookup_int(const struct p4odp_table *t, enum p4odp_table_kind kind, uint32_t key_len,
		       uint64_t key);
static inline const struct p4odp_table_entry *
p4odp_table_get_default(const struct p4odp_table *t);
void p4odp_table_lookup_burst(const struct p4odp_table *t, const uint8_t *const keys[],
			      uint32_t n, const struct p4odp_table_entry *out[]);
/* The burst form of p4odp_table_lookup_int: the cuckoo hash's first buckets
 * or the DIR-24-8's slots of all n keys prefetched, then each key looked up
 * (the other structures: one by one). */
static inline void p4odp_table_lookup_burst_int(const struct p4odp_table *t, enum p4odp_table_kind kind,
						uint32_t key_len, const uint64_t keys[], uint32_t n,
						const struct p4odp_table_entry *out[]);

/* The cuckoo hash's part of p4odp_table_lookup_burst_int in stages, so that a caller may run
 * the same stage of several tables in one loop over a burst (the generated p4_lookup_burst):
 * p4odp_cuckoo_burst_begin once, p4odp_cuckoo_burst_locate for each key i of the burst (its
 * first bucket on its way to the cache), then p4odp_cuckoo_burst_find for each; i below
 * P4ODP_TABLE_BURST. */
#define P4ODP_TABLE_BURST 32
struct p4odp_cuckoo_burst;
static inline void p4odp_cuckoo_burst_begin(struct p4odp_cuckoo_burst *b, const struct p4odp_table *t);
static inline void p4odp_cuckoo_burst_locate(struct p4odp_cuckoo_burst *b, uint32_t i, uint32_t key_len,
					     uint64_t key);
static inline const struct p4odp_table_entry *p4odp_cuckoo_burst_find(const struct p4odp_cuckoo_burst *b,
								      uint32_t i);

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

/* Entries from which a table's index of them (8 bytes each) outgrows a core's level-2 cache. */
#define P4ODP__SPREAD_ENTRIES 65536
#define P4ODP__WAYS 7
#define P4ODP__TAG_HI 0x0080808080808080ull  /* byte 7 of tags is unused */
#define P4ODP__TAG_LO 0x7f7f7f7f7f7f7f7full
#define P4ODP__DIR_EXT 0x80000000u
#define P4ODP__TRIE_ROOT_BITS 16
#define P4ODP__TRIE_STRIDE 6  /* 64 slots: one 64-bit vector per node */

/*
 * A cuckoo bucket: one cache line, 7 slots. Byte i of tags is the 8-bit
 * tag of slot i (0: empty; byte 7, of no slot, always 0); obj[i] points to an immutable object holding
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
	_Atomic(_Atomic uint32_t *) tbl8;
	_Atomic uint32_t tbl1[];  /* in the same allocation: a lookup loads no pointer to it */
};

/*
 * Multibit trie (lpm wider than 32 bits): the first 16 bits of the field
 * index root[]; below, each node splits 6 more bits into 64 slots, every
 * slot a child node or a leaf (leaf-pushed: index + 1 of the longest rule
 * covering the slot, 0 for none). Nodes are compressed as in poptrie:
 * vector marks the child slots, the children stored in order; leafvec marks
 * the leaf slots where a run of equal leaves starts, one value per run.
 * A node with neither is a tail: one rule only lies below it, and instead
 * of a chain of nodes down to it the tail holds its prefix, compared with
 * the key in whole words (p4odp__load's, masked), and two leaves: the
 * rule's where the key has the prefix, the covering one's where not.
 * A root slot is a leaf (value << 1) or a node (its address | 1). Nodes and
 * their arrays are immutable: an update builds new ones along its path and
 * publishes them with one store per root slot.
 */
struct p4odp__trie_tail {
	uint32_t rule, other;  /* leaf values */
	uint32_t words;        /* of the key the prefix spans */
	uint32_t len;          /* the prefix length (writer) */
	uint64_t vm[];         /* value and mask of each word */
};

struct p4odp__trie_node {
	uint64_t vector;
	uint64_t leafvec;
	union {
		const struct p4odp__trie_node *children;
		const struct p4odp__trie_tail *tail;  /* vector and leafvec 0 */
	};
	const uint32_t *leaves;
};

struct p4odp__trie {
	uint32_t pad;  /* unused high bits of the key's first byte */
	_Atomic uintptr_t root[];  /* 1 << P4ODP__TRIE_ROOT_BITS slots */
};

struct p4odp__writer;
struct p4odp__tss_list;

struct p4odp_table {
	/* Read by the lookups. */
	uint8_t kind;
	uint32_t key_len;
	uint32_t key_words;
	uint32_t max_entries;
	_Atomic(struct p4odp__cuckoo *) cuckoo;
	_Atomic(struct p4odp__dir *) dir;
	_Atomic(struct p4odp__tss_list *) tss;
	_Atomic(struct p4odp__trie *) trie;
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

	if (P4ODP__LIKELY(n >= 8)) {
		memcpy(&v, p, 8);
		return v;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Two loads that may overlap: the bytes they share land on the
	 * same bits in both, so OR-ing them gives memcpy's word. */
	if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, p, 4);
		memcpy(&b, p + n - 4, 4);
		return a | (uint64_t)b << (8 * (n - 4));
	}
	return p[0] | (uint64_t)p[n >> 1] << (8 * (n >> 1)) | (uint64_t)p[n - 1] << (8 * (n - 1));
#else
	{
		uint32_t off = 0;

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
#endif
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

/* One word: the two halves of one 64x64-bit product folded together
 * (wyhash's mix): every bit of the high half depends on every input bit,
 * and one multiply costs a third of the finalizer. No seed: one kept in the
 * table would put a load before the multiply of every lookup. */
static inline uint64_t p4odp__hash1(uint64_t w)
{
#if defined(__BMI2__) && defined(__x86_64__) && defined(__GNUC__)
	/* The same product as below, by one mulx: GCC 12 puts a 128-bit product on the stack on
	 * its way to the xor, and _mulx_u64's high half (its address taken) too. */
	uint64_t high, low;

	__asm__("mulxq %2, %0, %1" : "=r"(low), "=r"(high) : "r"(0x9e3779b97f4a7c15ull), "d"(w));
	return low ^ high;
#elif defined(__SIZEOF_INT128__)
	__uint128_t p = (__uint128_t)w * 0x9e3779b97f4a7c15ull;

	return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
	return p4odp__hfin(w);
#endif
}

/* n words: each but the last mixed in, the last one with p4odp__hash1's
 * product, which also finishes the hash (a third of p4odp__hfin's cost). */
static inline uint64_t p4odp__hash_words(const uint64_t *w, uint32_t n)
{
	uint64_t h = 0;

	for (uint32_t i = 0; i + 1 < n; i++)
		h = p4odp__hmix(h, w[i]);
	return p4odp__hash1(h ^ w[n - 1]);
}

/* The two buckets and the tag pattern (tag in every byte) of a hash: bits
 * 0-31 pick the first bucket, bits 32-63 the other (never the same: they
 * differ in an odd number), bits 56-62 the tag (bit 7 set, as 0 marks an
 * empty slot). Lookups compute the second bucket only when the first
 * misses (inserts fill the first one first). */
static inline uint32_t p4odp__cuckoo_b1(const struct p4odp__cuckoo *h, uint64_t hv)
{
	return (uint32_t)hv & h->mask;
}

static inline uint32_t p4odp__cuckoo_b2(const struct p4odp__cuckoo *h, uint64_t hv, uint32_t b1)
{
	return b1 ^ (((uint32_t)(hv >> 32) & h->mask) | 1);
}

static inline uint64_t p4odp__cuckoo_pattern(uint64_t hv)
{
	return (hv >> 56 | 0x80) * 0x0101010101010101ull;
}

static inline void p4odp__cuckoo_pos(const struct p4odp__cuckoo *h, uint64_t hv, uint32_t *b1,
				     uint32_t *b2, uint64_t *pat)
{
	*b1 = p4odp__cuckoo_b1(h, hv);
	*b2 = p4odp__cuckoo_b2(h, hv, *b1);
	*pat = p4odp__cuckoo_pattern(hv);
}

/* The slots whose tag matches, as a mask that p4odp__tag_slot takes apart
 * (exact, no false bits): with SSE2 (x86-64) bit i for slot i (one byte compare),
 * otherwise bit 7 of byte i (a word-wide compare). */
#if defined(__SSE2__) && defined(__x86_64__)
static inline uint64_t p4odp__tag_match(uint64_t tags, uint64_t pat)
{
	__m128i eq = _mm_cmpeq_epi8(_mm_cvtsi64_si128((long long)tags), _mm_cvtsi64_si128((long long)pat));

	/* Byte 7 of tags is 0, no tag (bit 7 set): its bit is never set. */
	return (uint8_t)_mm_movemask_epi8(eq);
}

static inline unsigned p4odp__tag_slot(uint64_t m)
{
	return (unsigned)__builtin_ctzll(m);
}
#else
static inline uint64_t p4odp__tag_match(uint64_t tags, uint64_t pat)
{
	uint64_t x = tags ^ pat;
	uint64_t y = (x & P4ODP__TAG_LO) + P4ODP__TAG_LO;

	return ~(y | x | P4ODP__TAG_LO) & P4ODP__TAG_HI;
}

static inline unsigned p4odp__tag_slot(uint64_t m)
{
	return (unsigned)__builtin_ctzll(m) >> 3;
}
#endif

/* The key of an object of a cuckoo hash whose key_off is `key_off`. */
static inline const uint64_t *p4odp__obj_key(uint32_t key_off, const void *o)
{
	return (const uint64_t *)((const char *)o + key_off);
}

/* Whether the n words at k are the n words at w; n is a constant where the
 * lookups are inlined, and the compare of one or two words is that of integers. */
static inline bool p4odp__keys_equal(const uint64_t *k, const uint64_t *w, uint32_t n)
{
	if (n == 1)
		return k[0] == w[0];
	if (n == 2)
		return k[0] == w[0] && k[1] == w[1];
	return !memcmp(k, w, 8 * (size_t)n);
}

/* The object of bucket b whose key (at key_off) is the n words w. */
static inline const void *p4odp__bucket_find(const struct p4odp__bucket *b, uint32_t key_off,
					     uint64_t pat, const uint64_t *w, uint32_t n)
{
	uint64_t m = p4odp__tag_match(atomic_load_explicit(&b->tags, memory_order_acquire), pat);

	while (m) {
		unsigned i = p4odp__tag_slot(m);
		const void *o = atomic_load_explicit(&b->obj[i], memory_order_acquire);

		m &= m - 1;
		if (o && p4odp__keys_equal(p4odp__obj_key(key_off, o), w, n))
			return o;
	}
	return NULL;
}

/* Find the object whose key is the n words w, hashed to hv. */
static inline const void *p4odp__cuckoo_find(const struct p4odp__cuckoo *h, uint64_t hv, const uint64_t *w,
					     uint32_t n)
{
	uint32_t b1 = p4odp__cuckoo_b1(h, hv), moves;
	uint64_t pat = p4odp__cuckoo_pattern(hv);
	const void *o;

	do {
		moves = atomic_load_explicit(&h->moves, memory_order_acquire);
		o = p4odp__bucket_find(&h->b[b1], h->key_off, pat, w, n);
		if (P4ODP__LIKELY(o))
			return o;
		o = p4odp__bucket_find(&h->b[p4odp__cuckoo_b2(h, hv, b1)], h->key_off, pat, w, n);
	} while (!o && atomic_load_explicit(&h->moves, memory_order_acquire) != moves);
	return o;
}

/* The object whose key is the n words w. */
static inline const void *p4odp__cuckoo_find_words(const struct p4odp__cuckoo *h,
						   const uint64_t *w, uint32_t n)
{
	return p4odp__cuckoo_find(h, p4odp__hash_words(w, n), w, n);
}

/* The entry whose key, of at most 8 bytes, is the word w0 (p4odp__load). */
static inline const struct p4odp_table_entry *p4odp__cuckoo_find_word(const struct p4odp__cuckoo *h,
								       uint64_t w0)
{
	return (const struct p4odp_table_entry *)p4odp__cuckoo_find(h, p4odp__hash1(w0), &w0, 1);
}

/* A key of at most 16 bytes as the cuckoo hash holds it: its one or two
 * words (p4odp__load's; the second 0 for 8 bytes or fewer) in w, and their
 * hash returned. */
static inline uint64_t p4odp__short_key(const uint8_t *key, uint32_t len, uint64_t w[2])
{
	w[0] = p4odp__load(key, len < 8 ? len : 8);
	w[1] = len > 8 ? p4odp__load(key + 8, len - 8) : 0;
	return p4odp__hash_words(w, len > 8 ? 2 : 1);
}

static inline const struct p4odp_table_entry *
p4odp__cuckoo_lookup(const struct p4odp_table *t, const uint8_t *key)
{
	const struct p4odp__cuckoo *h = atomic_load_explicit(&t->cuckoo, memory_order_acquire);
	uint32_t len = t->key_len;
	uint64_t w[2], hv;

	/* Keys of up to 8 bytes: one word, hashed, compared as an integer. */
	if (P4ODP__LIKELY(len <= 8))
		return p4odp__cuckoo_find_word(h, p4odp__load(key, len));
	if (P4ODP__UNLIKELY(len > 16))
		return p4odp__cuckoo_lookup_long(t, key);
	hv = p4odp__short_key(key, len, w);
	return (const struct p4odp_table_entry *)p4odp__cuckoo_find(h, hv, w, 2);
}

/* Index + 1 in t->entries of the entry of key v (the number p4odp__dir_find
 * takes) whose first-level slot in d holds x; 0 for none. */
static inline uint32_t p4odp__dir_index(const struct p4odp__dir *d, uint32_t x, uint32_t v)
{
	if (x & P4ODP__DIR_EXT) {
		const _Atomic uint32_t *tbl8 = atomic_load_explicit(&d->tbl8, memory_order_acquire);

		x = atomic_load_explicit(&tbl8[((x & ~P4ODP__DIR_EXT) << d->b2) +
					       (v & ((1u << d->b2) - 1))],
					 memory_order_acquire);
	}
	return x;
}

/* The entry of key v whose first-level slot in d holds x. */
static inline const struct p4odp_table_entry *
p4odp__dir_entry(const struct p4odp_table *t, const struct p4odp__dir *d, uint32_t x, uint32_t v)
{
	x = p4odp__dir_index(d, x, v);
	return x ? atomic_load_explicit(&t->entries[x - 1], memory_order_acquire) : NULL;
}

/* The entry of the key whose bytes, read as a big-endian number, are v. */
static inline const struct p4odp_table_entry *
p4odp__dir_find(const struct p4odp_table *t, uint32_t v)
{
	const struct p4odp__dir *d = atomic_load_explicit(&t->dir, memory_order_acquire);

	return p4odp__dir_entry(t, d, atomic_load_explicit(&d->tbl1[v >> d->b2], memory_order_acquire), v);
}

/* A DIR-24-8 key's bytes (at most 4) as a big-endian number. */
static inline uint32_t p4odp__dir_number(const struct p4odp_table *t, const uint8_t *key)
{
	uint32_t v = 0;

	for (uint32_t i = 0; i < t->key_len; i++)
		v = v << 8 | key[i];
	return v;
}

static inline const struct p4odp_table_entry *
p4odp__dir_lookup(const struct p4odp_table *t, const uint8_t *key)
{
	return p4odp__dir_find(t, p4odp__dir_number(t, key));
}

static inline uint32_t p4odp__popcount(uint64_t x)
{
#if defined(__POPCNT__) || defined(__aarch64__)
	return (uint32_t)__builtin_popcountll(x);
#else
	/* Without the instruction the builtin is a library call. */
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
#endif
}

/* The root slot of a key (its field's first 16 bits; the key has at least
 * 5 bytes). */
static inline uint32_t p4odp__trie_root_index(const struct p4odp__trie *tr, const uint8_t *key)
{
	return ((uint32_t)key[0] << 16 | (uint32_t)key[1] << 8 | key[2]) >> (8 - tr->pad) & 0xffff;
}

/* The 6 bits at bit position pos of the key (pos counts from the first
 * byte's high bit; bits past the key are 0). */
static inline uint32_t p4odp__trie_bits(const uint8_t *key, uint32_t len, uint32_t pos)
{
	uint32_t i = pos >> 3;
	uint32_t w = (uint32_t)key[i] << 8 | (i + 1 < len ? key[i + 1] : 0);

	return (w >> (10 - (pos & 7))) & 63;
}

/* The leaf a tail gives the key (of len bytes). */
static inline uint32_t p4odp__trie_tail_leaf(const struct p4odp__trie_tail *tl, const uint8_t *key,
					     uint32_t len)
{
	for (uint32_t i = 0; i < tl->words; i++) {
		uint32_t off = 8 * i;

		if ((p4odp__load(key + off, len - off < 8 ? len - off : 8) ^ tl->vm[2 * i]) &
		    tl->vm[2 * i + 1])
			return tl->other;
	}
	return tl->rule;
}

/* One step down from node n at bit position pos of the key (of len
 * bytes): the child; or NULL, and the leaf's address in *leaf or the tail
 * in *tail. */
static inline const struct p4odp__trie_node *
p4odp__trie_step(const struct p4odp__trie_node *n, const uint8_t *key, uint32_t len, uint32_t pos,
		 const uint32_t **leaf, const struct p4odp__trie_tail **tail)
{
	uint64_t bit;

	if (P4ODP__UNLIKELY(!(n->vector | n->leafvec))) {
		*tail = n->tail;
		return NULL;
	}
	bit = 1ull << p4odp__trie_bits(key, len, pos);
	if (n->vector & bit)
		return n->children + p4odp__popcount(n->vector & (bit - 1));
	*leaf = n->leaves + p4odp__popcount(n->leafvec & (bit | (bit - 1))) - 1;
	return NULL;
}

static inline const struct p4odp_table_entry *
p4odp__trie_lookup(const struct p4odp_table *t, const uint8_t *key)
{
	const struct p4odp__trie *tr = atomic_load_explicit(&t->trie, memory_order_acquire);
	uintptr_t s = atomic_load_explicit(&tr->root[p4odp__trie_root_index(tr, key)],
					   memory_order_acquire);
	uint32_t x = (uint32_t)(s >> 1);

	if (s & 1) {
		const struct p4odp__trie_node *n = (const struct p4odp__trie_node *)(s - 1);
		const struct p4odp__trie_tail *tail = NULL;
		const uint32_t *leaf = NULL;

		for (uint32_t pos = tr->pad + P4ODP__TRIE_ROOT_BITS; n; pos += P4ODP__TRIE_STRIDE)
			n = p4odp__trie_step(n, key, t->key_len, pos, &leaf, &tail);
		x = leaf ? *leaf : p4odp__trie_tail_leaf(tail, key, t->key_len);
	}
	return x ? atomic_load_explicit(&t->entries[x - 1], memory_order_acquire) : NULL;
}

static inline const struct p4odp_table_entry *
p4odp_table_lookup(const struct p4odp_table *t, const uint8_t *key)
{
	/* Tests in order, the cheapest structures first: a switch compiles to
	 * the same tests, or to an indirect jump. */
	if (t->kind == P4ODP_TABLE_CUCKOO)
		return p4odp__cuckoo_lookup(t, key);
	if (t->kind == P4ODP_TABLE_DIR24)
		return p4odp__dir_lookup(t, key);
	if (t->kind == P4ODP_TABLE_TRIE)
		return p4odp__trie_lookup(t, key);
	if (t->kind == P4ODP_TABLE_TSS || t->kind == P4ODP_TABLE_TSS_LPM)
		return p4odp__tss_lookup(t, key);
	return NULL;  /* empty, code */
}

/* p4odp_table_lookup_int's word of the cuckoo hash, on a little-endian host:
 * the key's bytes as p4odp__load reads them, without storing them. */
static inline uint64_t p4odp__int_word(uint64_t key, uint32_t key_len)
{
	return __builtin_bswap64(key << (64 - 8 * key_len));
}

static inline const struct p4odp_table_entry *
p4odp_table_lookup_int(const struct p4odp_table *t, enum p4odp_table_kind kind, uint32_t key_len,
		       uint64_t key)
{
	uint8_t bytes[8];

	if (kind == P4ODP_TABLE_DIR24)
		return p4odp__dir_find(t, (uint32_t)key);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (kind == P4ODP_TABLE_CUCKOO)
		return p4odp__cuckoo_find_word(atomic_load_explicit(&t->cuckoo, memory_order_acquire),
					       p4odp__int_word(key, key_len));
#endif
	for (uint32_t i = 0; i < key_len; i++)
		bytes[i] = (uint8_t)(key >> 8 * (key_len - 1 - i));
	return p4odp_table_lookup(t, bytes);
}

struct p4odp_cuckoo_burst {
	const struct p4odp_table *t;
	const struct p4odp__cuckoo *h;
	uint32_t mask, key_off;  /* fixed while h is the table's: read once, not after every acquire */
	uint64_t w[P4ODP_TABLE_BURST];  /* each key as the hash holds it */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const struct p4odp__bucket *first[P4ODP_TABLE_BURST];
	uint64_t pat[P4ODP_TABLE_BURST];
#endif
};

static inline void p4odp_cuckoo_burst_begin(struct p4odp_cuckoo_burst *b, const struct p4odp_table *t)
{
	b->t = t;
	b->h = atomic_load_explicit(&t->cuckoo, memory_order_acquire);
	b->mask = b->h->mask;
	b->key_off = b->h->key_off;
}

static inline void p4odp_cuckoo_burst_locate(struct p4odp_cuckoo_burst *b, uint32_t i, uint32_t key_len,
					     uint64_t key)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t hv;

	b->w[i] = p4odp__int_word(key, key_len);
	hv = p4odp__hash1(b->w[i]);
	b->first[i] = &b->h->b[(uint32_t)hv & b->mask];
	b->pat[i] = p4odp__cuckoo_pattern(hv);
	P4ODP__PREFETCH(b->first[i]);
#else
	(void)key_len;
	b->w[i] = key;  /* looked up as p4odp_table_lookup_int does */
#endif
}

static inline const struct p4odp_table_entry *p4odp_cuckoo_burst_find(const struct p4odp_cuckoo_burst *b,
								      uint32_t i)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* A key in its first bucket is found there; any other (in its second
	 * bucket, absent, or moving between them) as a single lookup finds it. */
	const void *o = p4odp__bucket_find(b->first[i], b->key_off, b->pat[i], &b->w[i], 1);

	return P4ODP__LIKELY(o) ? (const struct p4odp_table_entry *)o : p4odp__cuckoo_find_word(b->h, b->w[i]);
#else
	return p4odp_table_lookup_int(b->t, P4ODP_TABLE_CUCKOO, b->t->key_len, b->w[i]);
#endif
}

/* Up to P4ODP_TABLE_BURST keys of p4odp_table_lookup_burst_int. */
static inline void p4odp__lookup_burst_int(const struct p4odp_table *t, enum p4odp_table_kind kind,
					   uint32_t key_len, const uint64_t keys[], uint32_t n,
					   const struct p4odp_table_entry *out[])
{
	if (kind == P4ODP_TABLE_CUCKOO) {
		struct p4odp_cuckoo_burst b;

		p4odp_cuckoo_burst_begin(&b, t);
		for (uint32_t i = 0; i < n; i++)
			p4odp_cuckoo_burst_locate(&b, i, key_len, keys[i]);
		for (uint32_t i = 0; i < n; i++)
			out[i] = p4odp_cuckoo_burst_find(&b, i);
		return;
	}
	if (kind == P4ODP_TABLE_DIR24) {
		const struct p4odp__dir *d = atomic_load_explicit(&t->dir, memory_order_acquire);
		const uint32_t b2 = d->b2;  /* fixed while d is the table's */
		const _Atomic uint32_t *slot[P4ODP_TABLE_BURST];

		for (uint32_t i = 0; i < n; i++) {
			slot[i] = &d->tbl1[(uint32_t)keys[i] >> b2];
			P4ODP__PREFETCH(slot[i]);
		}
		/* Then the entries, whose action the caller reads next.  In a table of more than
		 * P4ODP__SPREAD_ENTRIES, whose index (t->entries) outgrows a core's caches, their
		 * places in the index first (a million routes spread them over 8 MB). */
		if (t->max_entries > P4ODP__SPREAD_ENTRIES) {
			uint32_t x[P4ODP_TABLE_BURST];

			for (uint32_t i = 0; i < n; i++) {
				x[i] = p4odp__dir_index(d, atomic_load_explicit(slot[i], memory_order_acquire),
							(uint32_t)keys[i]);
				if (x[i])
					P4ODP__PREFETCH(&t->entries[x[i] - 1]);
			}
			for (uint32_t i = 0; i < n; i++) {
				out[i] = x[i] ? atomic_load_explicit(&t->entries[x[i] - 1], memory_order_acquire) : NULL;
				if (out[i])
					P4ODP__PREFETCH(out[i]);
			}
		} else {
			for (uint32_t i = 0; i < n; i++) {
				out[i] = p4odp__dir_entry(t, d, atomic_load_explicit(slot[i], memory_order_acquire),
							  (uint32_t)keys[i]);
				if (out[i])
					P4ODP__PREFETCH(out[i]);
			}
		}
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		out[i] = p4odp_table_lookup_int(t, kind, key_len, keys[i]);
}

static inline void p4odp_table_lookup_burst_int(const struct p4odp_table *t, enum p4odp_table_kind kind,
						uint32_t key_len, const uint64_t keys[], uint32_t n,
						const struct p4odp_table_entry *out[])
{
	for (uint32_t base = 0; base < n; base += P4ODP_TABLE_BURST)
		p4odp__lookup_burst_int(t, kind, key_len, keys + base,
					n - base < P4ODP_TABLE_BURST ? n - base : P4ODP_TABLE_BURST, out + base);
}

static inline const struct p4odp_table_entry *
p4odp_table_get_default(const struct p4odp_table *t)
{
	return atomic_load_explicit(&t->default_entry, memory_order_acquire);
}

#endif
