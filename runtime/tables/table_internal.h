/* Writer-side internals shared by the table sources. Not installed. */
#ifndef P4ODP_TABLE_INTERNAL_H
#define P4ODP_TABLE_INTERNAL_H

#include <errno.h>
#include <stdlib.h>

#include "p4odp_table.h"

#define P4ODP__SEED 0x5bd1e9955bd1e995ull
#define P4ODP__KW_MAX (P4ODP_TABLE_KEY_MAX / 8)

static inline uint32_t p4odp__round8(uint32_t n)
{
	return (n + 7) & ~7u;
}

/* Key bytes as zero-padded words (see p4odp__load). */
static inline void p4odp__words(const uint8_t *p, uint32_t len, uint64_t *w)
{
	for (uint32_t i = 0; 8 * i < len; i++)
		w[i] = p4odp__load(p + 8 * i, len - 8 * i < 8 ? len - 8 * i : 8);
}

/* ---- Large arrays the lookups read ---- */

/* `size` zeroed bytes of the kernel's, in transparent huge pages where it has them (as
 * DPDK's tables are in its hugepages): a table of a million entries spread over 4 KB
 * pages would miss the TLB on most lookups.  NULL without memory. */
void *p4odp__pages_alloc(size_t size);
void p4odp__pages_free(void *p, size_t size);
/* The same advice for the whole huge pages within a block of `size` bytes at `p` that the C
 * library mapped for a large allocation (and frees as usual). */
void p4odp__advise_huge_pages(void *p, size_t size);

/* ---- Deferred frees ---- */

void p4odp__defer_free(struct p4odp_rcu *rcu, void *p);

/* Many pointers freed by one deferred callback (clear). */
struct p4odp__bulk {
	size_t n, cap;
	void **p;
};
int p4odp__bulk_add(struct p4odp__bulk *b, void *p);
/* Hands the pointers to the domain; b is empty afterwards. */
void p4odp__bulk_defer(struct p4odp_rcu *rcu, struct p4odp__bulk *b);

/* ---- Ids reused only after a grace period ---- */

struct p4odp__idpool {
	uint32_t limit;       /* ids are < limit */
	uint32_t fresh;       /* ids >= fresh were never handed out */
	uint32_t n_free, free_cap;
	uint32_t *free;
	uint32_t lhead, lcount, lcap;  /* limbo ring */
	uint32_t *lid;
	uint64_t *lcookie;
};

void p4odp__idpool_init(struct p4odp__idpool *p, uint32_t limit);
void p4odp__idpool_fini(struct p4odp__idpool *p);
/* 0 and *id, -ENOSPC when none is free now (wait=false) or at all. */
int p4odp__idpool_get(struct p4odp__idpool *p, struct p4odp_rcu *rcu, bool wait, uint32_t *id,
		      uint64_t *waits);
/* Put back an id that readers never saw. */
int p4odp__idpool_put(struct p4odp__idpool *p, uint32_t id);
/* Put back an id readers may still hold: reusable once cookie expired. */
int p4odp__idpool_retire(struct p4odp__idpool *p, uint32_t id, uint64_t cookie);

/* ---- Cuckoo hash (writer side; lookups in p4odp_table.h) ---- */

struct p4odp__cuckoo *p4odp__cuckoo_new(uint32_t buckets, uint32_t key_words, uint32_t key_off);
void p4odp__cuckoo_free(struct p4odp__cuckoo *h);
/* The block to free (for deferred and bulk frees); NULL for NULL. */
void *p4odp__cuckoo_mem(struct p4odp__cuckoo *h);
uint64_t p4odp__cuckoo_hash_obj(const struct p4odp__cuckoo *h, const void *obj);
/* 0, or -ENOSPC when no displacement path was found (grow then). */
int p4odp__cuckoo_insert(struct p4odp__cuckoo *h, const void *obj, uint64_t *moves);
int p4odp__cuckoo_remove(struct p4odp__cuckoo *h, const void *obj);
int p4odp__cuckoo_replace(struct p4odp__cuckoo *h, const void *old, const void *obj);
/* A copy with twice the buckets (or more) holding the same objects, plus
 * obj when not NULL; NULL without memory. */
struct p4odp__cuckoo *p4odp__cuckoo_grow(const struct p4odp__cuckoo *h, const void *obj,
					 uint64_t *moves);
/* Insert, growing into a new table when needed: *hp is then replaced (the
 * caller publishes it and retires the old one, returned in *old). */
int p4odp__cuckoo_add(struct p4odp__cuckoo **hp, const void *obj, struct p4odp__cuckoo **old,
		      uint64_t *moves, uint64_t *rebuilds);

#define P4ODP__CUCKOO_FOREACH(h, i, s, o)                                              \
	for (uint32_t i = 0; i <= (h)->mask; i++)                                      \
		for (uint32_t s = 0; s < P4ODP__WAYS; s++)                             \
			if (((o) = atomic_load_explicit(&(h)->b[i].obj[s],            \
							memory_order_relaxed)))

/* ---- The table's control-plane state ---- */

/* A validated match in the shapes the structures use. */
struct p4odp__pmatch {
	uint8_t *ident;   /* canonical encoding: identity of the entry */
	uint8_t *value;   /* key_len bytes: the key bits that must match */
	uint8_t *mask;    /* key_len bytes: which bits (range fields: zero) */
	uint8_t *ranges;  /* low, high of each range field */
	uint32_t prefix_len;
	int32_t priority;
};

struct p4odp__field {
	uint32_t off, bytes, width;
	uint8_t kind;
};

struct p4odp__tss_w;
struct p4odp__dir_w;
struct p4odp__trie_w;

struct p4odp__writer {
	char *name;
	struct p4odp_rcu *rcu;
	bool own_rcu;
	uint32_t n_fields;
	struct p4odp__field *fields;
	uint32_t lpm_field;     /* index of the lpm field, or n_fields */
	uint32_t n_ranges, range_bytes;
	bool has_prio;          /* priorities count (tss) */
	uint32_t max_entries, data_len, ident_len, entry_size;
	uint32_t count;
	uint64_t next_seq;

	/* Per index. */
	uint32_t *gen;          /* odd while in use */
	uint8_t *ident;         /* ident_len bytes each */
	int32_t *prio;
	uint64_t *seq;
	void **aux;             /* tss: the entry's group */
	struct p4odp__idpool ids;

	/* ident -> index, open addressing. */
	uint32_t map_mask;
	uint32_t *map_idx;      /* index + 1, 0 empty */
	uint32_t *map_hash;

	/* Scratch. */
	struct p4odp__pmatch pm, pm2;
	struct p4odp_field_match *dump;  /* 2 * n_fields: dumps, decode */
	uint64_t *kw;

	struct p4odp__dir_w *dir;
	struct p4odp__tss_w *tss;
	struct p4odp__trie_w *trie;
	struct p4odp_table_stats st;
};

static inline bool p4odp__used(const struct p4odp__writer *w, uint32_t idx)
{
	return w->gen[idx] & 1;
}

static inline const uint8_t *p4odp__ident(const struct p4odp__writer *w, uint32_t idx)
{
	return w->ident + (size_t)idx * w->ident_len;
}

/* Decode index idx's identity into w->pm2 (value, mask, ranges...). */
void p4odp__decode(const struct p4odp_table *t, uint32_t idx, struct p4odp__pmatch *pm);
/* Index of the entry with identity ident, or -1. */
int64_t p4odp__map_find(const struct p4odp__writer *w, const uint8_t *ident);

/* Structure-specific parts. */
int p4odp__dir_init(struct p4odp_table *t);
void p4odp__dir_fini(struct p4odp_table *t);
int p4odp__dir_add(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm);
int p4odp__dir_del(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm);
int p4odp__dir_clear(struct p4odp_table *t);
uint32_t p4odp__dir_groups(const struct p4odp_table *t);

int p4odp__trie_init(struct p4odp_table *t);
void p4odp__trie_fini(struct p4odp_table *t);
int p4odp__trie_add(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm);
int p4odp__trie_del(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm);
int p4odp__trie_clear(struct p4odp_table *t, struct p4odp__bulk *bulk);
uint32_t p4odp__trie_nodes(const struct p4odp_table *t);

int p4odp__tss_init(struct p4odp_table *t);
void p4odp__tss_fini(struct p4odp_table *t);
int p4odp__tss_add(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm);
int p4odp__tss_del(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm);
int p4odp__tss_clear(struct p4odp_table *t, struct p4odp__bulk *bulk);
uint32_t p4odp__tss_groups(const struct p4odp_table *t);

#endif
