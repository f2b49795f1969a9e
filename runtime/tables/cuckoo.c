/*
 * Bucketed cuckoo hash, writer side. Two buckets per key (two hash
 * functions: the halves of one 64-bit hash), 7 slots per bucket, 8-bit tags.
 * Inserts displace along the shortest path found by a breadth-first search
 * and execute it from its free end, so every object stays findable: it is
 * written to its new slot before its old slot is overwritten, and the moves
 * counter, bumped in between, tells a reader that missed to look again.
 */
#include <string.h>

#include "table_internal.h"

#define BFS_MAX 512  /* buckets visited by one insert */
#define BFS_DEPTH 5

struct p4odp__cuckoo *p4odp__cuckoo_new(uint32_t buckets, uint32_t key_words, uint32_t key_off)
{
	size_t size = sizeof(struct p4odp__cuckoo) + (size_t)buckets * sizeof(struct p4odp__bucket);
	struct p4odp__cuckoo *h;
	void *base;

	if (buckets < 2 || (buckets & (buckets - 1)))
		return NULL;
	/* calloc, not aligned_alloc + memset: large tables come as zero
	 * pages from the kernel, touched only as they fill, and in huge pages
	 * (p4odp__advise_huge_pages). */
	base = calloc(1, size + 63);
	if (!base)
		return NULL;
	p4odp__advise_huge_pages(base, size + 63);
	h = (struct p4odp__cuckoo *)(((uintptr_t)base + 63) & ~(uintptr_t)63);
	h->base = base;
	h->mask = buckets - 1;
	h->key_words = key_words;
	h->key_off = key_off;
	return h;
}

void *p4odp__cuckoo_mem(struct p4odp__cuckoo *h)
{
	return h ? h->base : NULL;
}

void p4odp__cuckoo_free(struct p4odp__cuckoo *h)
{
	free(p4odp__cuckoo_mem(h));
}

static const uint64_t *obj_key(const struct p4odp__cuckoo *h, const void *obj)
{
	return (const uint64_t *)((const char *)obj + h->key_off);
}

uint64_t p4odp__cuckoo_hash_obj(const struct p4odp__cuckoo *h, const void *obj)
{
	return p4odp__hash_words(obj_key(h, obj), h->key_words);
}

static uint64_t tag_of(uint64_t pat)
{
	return pat & 0xff;
}

static const void *slot_obj(const struct p4odp__bucket *b, uint32_t s)
{
	return atomic_load_explicit(&b->obj[s], memory_order_relaxed);
}

static int free_slot(const struct p4odp__bucket *b)
{
	for (int s = 0; s < P4ODP__WAYS; s++)
		if (!slot_obj(b, s))
			return s;
	return -1;
}

/* Publish obj in slot s: the object first, then its tag (release both: a
 * reader that sees the tag sees the object, and one that sees the object
 * sees its contents). */
static void set_slot(struct p4odp__bucket *b, uint32_t s, const void *obj, uint64_t tag)
{
	uint64_t tags = atomic_load_explicit(&b->tags, memory_order_relaxed);

	atomic_store_explicit(&b->obj[s], obj, memory_order_release);
	tags = (tags & ~(0xffull << (8 * s))) | tag << (8 * s);
	atomic_store_explicit(&b->tags, tags, memory_order_release);
}

static uint32_t alt_bucket(const struct p4odp__cuckoo *h, const void *obj, uint32_t cur,
			   uint64_t *tag)
{
	uint32_t b1, b2;
	uint64_t pat;

	p4odp__cuckoo_pos(h, p4odp__cuckoo_hash_obj(h, obj), &b1, &b2, &pat);
	*tag = tag_of(pat);
	return cur == b1 ? b2 : b1;
}

struct bfs_node {
	uint32_t bucket;
	int32_t parent;  /* index in the queue, -1 for the two roots */
	uint8_t slot;    /* slot of the parent whose object moves here */
	uint8_t depth;
};

static bool on_path(const struct bfs_node *q, int32_t i, uint32_t bucket)
{
	for (; i >= 0; i = q[i].parent)
		if (q[i].bucket == bucket)
			return true;
	return false;
}

int p4odp__cuckoo_insert(struct p4odp__cuckoo *h, const void *obj, uint64_t *moves)
{
	struct bfs_node q[BFS_MAX];
	uint32_t b1, b2, n = 0;
	uint64_t pat;
	int s;

	p4odp__cuckoo_pos(h, p4odp__cuckoo_hash_obj(h, obj), &b1, &b2, &pat);
	for (int i = 0; i < 2; i++) {
		struct p4odp__bucket *b = &h->b[i ? b2 : b1];

		if ((s = free_slot(b)) >= 0) {
			set_slot(b, (uint32_t)s, obj, tag_of(pat));
			h->count++;
			return 0;
		}
	}
	q[n++] = (struct bfs_node){b1, -1, 0, 0};
	q[n++] = (struct bfs_node){b2, -1, 0, 0};
	for (uint32_t i = 0; i < n; i++) {
		struct p4odp__bucket *b = &h->b[q[i].bucket];
		int32_t at;

		if (i >= 2 && (s = free_slot(b)) >= 0) {
			/* Walk back to the root, moving each object into the
			 * slot freed by the previous move. */
			at = (int32_t)i;
			while (q[at].parent >= 0) {
				const struct bfs_node *p = &q[q[at].parent];
				struct p4odp__bucket *from = &h->b[p->bucket];
				const void *o = slot_obj(from, q[at].slot);
				uint64_t tag;

				alt_bucket(h, o, p->bucket, &tag);
				set_slot(&h->b[q[at].bucket], (uint32_t)s, o, tag);
				atomic_fetch_add_explicit(&h->moves, 1, memory_order_release);
				(*moves)++;
				s = q[at].slot;
				at = q[at].parent;
			}
			set_slot(&h->b[q[at].bucket], (uint32_t)s, obj, tag_of(pat));
			h->count++;
			return 0;
		}
		if (q[i].depth >= BFS_DEPTH)
			continue;
		for (uint32_t k = 0; k < P4ODP__WAYS && n < BFS_MAX; k++) {
			uint64_t tag;
			uint32_t alt = alt_bucket(h, slot_obj(b, k), q[i].bucket, &tag);

			if (on_path(q, (int32_t)i, alt))
				continue;
			q[n++] = (struct bfs_node){alt, (int32_t)i, (uint8_t)k,
						   (uint8_t)(q[i].depth + 1)};
		}
	}
	return -ENOSPC;
}

static struct p4odp__bucket *find_slot(struct p4odp__cuckoo *h, const void *obj, uint32_t *slot)
{
	uint32_t b[2];
	uint64_t pat;

	p4odp__cuckoo_pos(h, p4odp__cuckoo_hash_obj(h, obj), &b[0], &b[1], &pat);
	for (int i = 0; i < 2; i++)
		for (uint32_t s = 0; s < P4ODP__WAYS; s++)
			if (slot_obj(&h->b[b[i]], s) == obj) {
				*slot = s;
				return &h->b[b[i]];
			}
	return NULL;
}

int p4odp__cuckoo_remove(struct p4odp__cuckoo *h, const void *obj)
{
	uint32_t s;
	struct p4odp__bucket *b = find_slot(h, obj, &s);
	uint64_t tags;

	if (!b)
		return -ENOENT;
	atomic_store_explicit(&b->obj[s], NULL, memory_order_release);
	tags = atomic_load_explicit(&b->tags, memory_order_relaxed) & ~(0xffull << (8 * s));
	atomic_store_explicit(&b->tags, tags, memory_order_release);
	h->count--;
	return 0;
}

int p4odp__cuckoo_replace(struct p4odp__cuckoo *h, const void *old, const void *obj)
{
	uint32_t s;
	struct p4odp__bucket *b = find_slot(h, old, &s);

	if (!b)
		return -ENOENT;
	atomic_store_explicit(&b->obj[s], obj, memory_order_release);
	return 0;
}

struct p4odp__cuckoo *p4odp__cuckoo_grow(const struct p4odp__cuckoo *h, const void *obj,
					 uint64_t *moves)
{
	for (uint32_t buckets = 2 * (h->mask + 1); buckets && buckets <= (1u << 28);
	     buckets *= 2) {
		struct p4odp__cuckoo *n = p4odp__cuckoo_new(buckets, h->key_words, h->key_off);
		const void *o;
		bool ok = true;

		if (!n)
			return NULL;
		P4ODP__CUCKOO_FOREACH(h, i, s, o) {
			if (ok && p4odp__cuckoo_insert(n, o, moves))
				ok = false;
		}
		if (ok && (!obj || !p4odp__cuckoo_insert(n, obj, moves))) {
			atomic_store_explicit(&n->moves, 0, memory_order_relaxed);
			return n;
		}
		p4odp__cuckoo_free(n);
	}
	return NULL;
}

int p4odp__cuckoo_add(struct p4odp__cuckoo **hp, const void *obj, struct p4odp__cuckoo **old,
		      uint64_t *moves, uint64_t *rebuilds)
{
	struct p4odp__cuckoo *n;

	*old = NULL;
	if (!p4odp__cuckoo_insert(*hp, obj, moves))
		return 0;
	n = p4odp__cuckoo_grow(*hp, obj, moves);
	if (!n)
		return -ENOMEM;
	(*rebuilds)++;
	*old = *hp;
	*hp = n;
	return 0;
}

const struct p4odp_table_entry *p4odp__cuckoo_lookup_long(const struct p4odp_table *t,
							  const uint8_t *key)
{
	const struct p4odp__cuckoo *h = atomic_load_explicit(&t->cuckoo, memory_order_acquire);
	uint64_t w[P4ODP__KW_MAX];

	p4odp__words(key, t->key_len, w);
	return p4odp__cuckoo_find_words(h, w, h->key_words);
}
