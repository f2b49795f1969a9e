/*
 * Tuple-space search, for ternary, range and optional fields and for lpm
 * beyond DIR-24-8 (there the priority is the prefix length: longest first).
 *
 * Entries are grouped by mask vector (range fields contribute no bits: they
 * are checked per candidate). Each group is a cuckoo hash of nodes; a node
 * holds one masked key and its entries, best first (priority descending,
 * then order of addition). The published list orders the groups by their
 * best priority, so a lookup stops at the first group that cannot beat what
 * it has found.
 *
 * Nodes and lists are copied on write and published with one pointer store;
 * the old copies go to RCU. Candidates name entries by index, so modifying
 * an entry's action touches only t->entries.
 */
#include <limits.h>
#include <string.h>

#include "table_internal.h"

struct p4odp__tss_group {
	_Atomic(struct p4odp__cuckoo *) hash;
	int32_t maxprio;      /* writer's view; readers use the list's copy */
	uint32_t id;          /* creation order, the tie-break of the list */
	uint32_t n_entries;
	uint64_t mask[];      /* key_words */
};

struct p4odp__tss_slot {
	int32_t maxprio;
	uint32_t id;
	struct p4odp__tss_group *g;
};

struct p4odp__tss_list {
	uint32_t n;
	struct p4odp__tss_slot v[];
};

struct p4odp__tss_cand {
	int32_t prio;
	uint32_t idx;
	uint64_t seq;
};

/* Layout: header, key words, n candidates, n range blocks. */
struct p4odp__tss_node {
	uint32_t n;
	uint32_t pad;
	uint64_t kw[];
};

struct tss_range {
	uint32_t off, bytes;
};

struct p4odp__tss_w {
	struct p4odp__tss_group **groups;  /* as published: best first */
	uint32_t n, cap, next_id;
	uint32_t n_ranges, range_bytes;  /* immutable; read by lookups */
	struct tss_range *ranges;
};

#define NODE_KEY_OFF offsetof(struct p4odp__tss_node, kw)

static struct p4odp__tss_cand *node_cands(const struct p4odp__tss_node *node, uint32_t kw)
{
	return (struct p4odp__tss_cand *)(uintptr_t)(node->kw + kw);
}

static uint8_t *node_ranges(const struct p4odp__tss_node *node, uint32_t kw)
{
	return (uint8_t *)(node_cands(node, kw) + node->n);
}

static bool in_ranges(const struct p4odp__tss_w *tw, const uint8_t *rg, const uint8_t *key)
{
	for (uint32_t r = 0; r < tw->n_ranges; r++) {
		const uint8_t *k = key + tw->ranges[r].off;
		uint32_t n = tw->ranges[r].bytes;

		if (memcmp(k, rg, n) < 0 || memcmp(k, rg + n, n) > 0)
			return false;
		rg += 2 * n;
	}
	return true;
}

static bool better(const struct p4odp__tss_cand *a, const struct p4odp__tss_cand *b)
{
	return a->prio > b->prio || (a->prio == b->prio && a->seq < b->seq);
}

const struct p4odp_table_entry *p4odp__tss_lookup(const struct p4odp_table *t,
						  const uint8_t *key)
{
	const struct p4odp__tss_list *l = atomic_load_explicit(&t->tss, memory_order_acquire);
	const struct p4odp__tss_w *tw = t->w->tss;
	const struct p4odp__tss_cand *best = NULL;
	uint32_t kw = t->key_words;
	uint64_t q[P4ODP__KW_MAX], m[P4ODP__KW_MAX];

	p4odp__words(key, t->key_len, q);
	for (uint32_t i = 0; i < l->n; i++) {
		const struct p4odp__tss_group *g = l->v[i].g;
		const struct p4odp__cuckoo *h;
		const struct p4odp__tss_node *node;
		const struct p4odp__tss_cand *c;
		const uint8_t *rg;

		if (best && l->v[i].maxprio < best->prio)
			break;
		h = atomic_load_explicit(&g->hash, memory_order_acquire);
		for (uint32_t j = 0; j < kw; j++)
			m[j] = q[j] & g->mask[j];
		node = p4odp__cuckoo_find_words(h, m, kw);
		if (!node)
			continue;
		c = node_cands(node, kw);
		rg = node_ranges(node, kw);
		for (uint32_t j = 0; j < node->n; j++, rg += tw->range_bytes) {
			if (best && !better(&c[j], best))
				break;
			if (!tw->n_ranges || in_ranges(tw, rg, key)) {
				best = &c[j];
				break;
			}
		}
	}
	return best ? atomic_load_explicit(&t->entries[best->idx], memory_order_acquire) : NULL;
}

/* ---- Writer ---- */

static struct p4odp__tss_list *list_new(uint32_t n)
{
	struct p4odp__tss_list *l = malloc(sizeof(*l) + (size_t)n * sizeof(l->v[0]) + 1);

	if (l)
		l->n = 0;
	return l;
}

/* Publish the writer's group order in l (allocated for enough groups). */
static void publish(struct p4odp_table *t, struct p4odp__tss_list *l)
{
	struct p4odp__tss_w *tw = t->w->tss;
	struct p4odp__tss_list *old = atomic_load_explicit(&t->tss, memory_order_relaxed);

	l->n = tw->n;
	for (uint32_t i = 0; i < tw->n; i++)
		l->v[i] = (struct p4odp__tss_slot){tw->groups[i]->maxprio, tw->groups[i]->id,
						   tw->groups[i]};
	atomic_store_explicit(&t->tss, l, memory_order_release);
	p4odp__defer_free(t->w->rcu, old);
}

int p4odp__tss_init(struct p4odp_table *t)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__tss_w *tw = calloc(1, sizeof(*tw));
	struct p4odp__tss_list *l;

	if (!tw)
		return -ENOMEM;
	w->tss = tw;
	tw->ranges = calloc(w->n_ranges + 1, sizeof(*tw->ranges));
	l = list_new(0);
	if (!tw->ranges || !l) {
		free(l);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < w->n_fields; i++)
		if (w->fields[i].kind == P4ODP_MATCH_RANGE)
			tw->ranges[tw->n_ranges++] =
				(struct tss_range){w->fields[i].off, w->fields[i].bytes};
	tw->range_bytes = w->range_bytes;
	atomic_init(&t->tss, l);
	return 0;
}

static void group_free_all(struct p4odp__tss_group *g, struct p4odp__bulk *bulk)
{
	struct p4odp__cuckoo *h = atomic_load_explicit(&g->hash, memory_order_relaxed);
	const void *o;

	P4ODP__CUCKOO_FOREACH(h, i, s, o) {
		if (bulk)
			p4odp__bulk_add(bulk, (void *)o);
		else
			free((void *)o);
	}
	if (bulk) {
		p4odp__bulk_add(bulk, p4odp__cuckoo_mem(h));
		p4odp__bulk_add(bulk, g);
	} else {
		p4odp__cuckoo_free(h);
		free(g);
	}
}

void p4odp__tss_fini(struct p4odp_table *t)
{
	struct p4odp__tss_w *tw = t->w->tss;

	for (uint32_t i = 0; i < tw->n; i++)
		group_free_all(tw->groups[i], NULL);
	free(atomic_load_explicit(&t->tss, memory_order_relaxed));
	free(tw->groups);
	free(tw->ranges);
	free(tw);
	t->w->tss = NULL;
}

uint32_t p4odp__tss_groups(const struct p4odp_table *t)
{
	return t->w->tss->n;
}

static bool before(const struct p4odp__tss_group *a, const struct p4odp__tss_group *b)
{
	return a->maxprio > b->maxprio || (a->maxprio == b->maxprio && a->id < b->id);
}

static void order_remove(struct p4odp__tss_w *tw, const struct p4odp__tss_group *g)
{
	uint32_t i = 0;

	while (tw->groups[i] != g)
		i++;
	memmove(&tw->groups[i], &tw->groups[i + 1], (tw->n - i - 1) * sizeof(tw->groups[0]));
	tw->n--;
}

static void order_insert(struct p4odp__tss_w *tw, struct p4odp__tss_group *g)
{
	uint32_t i = tw->n;

	while (i > 0 && before(g, tw->groups[i - 1])) {
		tw->groups[i] = tw->groups[i - 1];
		i--;
	}
	tw->groups[i] = g;
	tw->n++;
}

static struct p4odp__tss_node *node_new(const struct p4odp_table *t, uint32_t n)
{
	size_t size = sizeof(struct p4odp__tss_node) + 8 * (size_t)t->key_words +
		      n * (sizeof(struct p4odp__tss_cand) + t->w->tss->range_bytes);
	struct p4odp__tss_node *node = malloc(size);

	if (node)
		node->n = n;
	return node;
}

int p4odp__tss_add(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__tss_w *tw = w->tss;
	uint32_t kw = t->key_words, rb = tw->range_bytes, n, at;
	uint64_t mask[P4ODP__KW_MAX], key[P4ODP__KW_MAX];
	struct p4odp__tss_group *g = NULL;
	struct p4odp__tss_list *l = NULL;
	struct p4odp__tss_cand cand = {pm->priority, idx, w->seq[idx]};
	const struct p4odp__tss_node *old;
	struct p4odp__tss_node *node;
	struct p4odp__cuckoo *h, *oldh;
	bool fresh = false;
	int err;

	p4odp__words(pm->mask, t->key_len, mask);
	p4odp__words(pm->value, t->key_len, key);
	for (uint32_t i = 0; i < tw->n && !g; i++)
		if (!memcmp(tw->groups[i]->mask, mask, 8 * (size_t)kw))
			g = tw->groups[i];
	if (!g) {
		if (tw->n == tw->cap) {
			uint32_t cap = tw->cap ? 2 * tw->cap : 16;
			struct p4odp__tss_group **a = realloc(tw->groups, cap * sizeof(*a));

			if (!a)
				return -ENOMEM;
			tw->groups = a;
			tw->cap = cap;
		}
		g = calloc(1, sizeof(*g) + 8 * (size_t)kw);
		h = p4odp__cuckoo_new(2, kw, NODE_KEY_OFF);
		if (!g || !h) {
			free(g);
			p4odp__cuckoo_free(h);
			return -ENOMEM;
		}
		memcpy(g->mask, mask, 8 * (size_t)kw);
		atomic_init(&g->hash, h);
		g->maxprio = INT32_MIN;
		fresh = true;
	}
	h = atomic_load_explicit(&g->hash, memory_order_relaxed);
	old = p4odp__cuckoo_find_words(h, key, kw);
	n = old ? old->n + 1 : 1;
	node = node_new(t, n);
	if (fresh || cand.prio > g->maxprio)
		l = list_new(tw->n + 1);
	if (!node || ((fresh || cand.prio > g->maxprio) && !l)) {
		err = -ENOMEM;
		goto fail;
	}
	/* The new node: the old candidates with this one in its place. */
	memcpy(node->kw, key, 8 * (size_t)kw);
	at = 0;
	if (old) {
		const struct p4odp__tss_cand *oc = node_cands(old, kw);

		while (at < old->n && better(&oc[at], &cand))
			at++;
		memcpy(node_cands(node, kw), oc, at * sizeof(cand));
		memcpy(node_cands(node, kw) + at + 1, oc + at, (old->n - at) * sizeof(cand));
		memcpy(node_ranges(node, kw), node_ranges(old, kw), (size_t)at * rb);
		memcpy(node_ranges(node, kw) + (size_t)(at + 1) * rb,
		       node_ranges(old, kw) + (size_t)at * rb, (size_t)(old->n - at) * rb);
	}
	node_cands(node, kw)[at] = cand;
	memcpy(node_ranges(node, kw) + (size_t)at * rb, pm->ranges, rb);
	if (old) {
		p4odp__cuckoo_replace(h, old, node);
		p4odp__defer_free(w->rcu, (void *)old);
	} else {
		err = p4odp__cuckoo_add(&h, node, &oldh, &w->st.cuckoo_moves, &w->st.rebuilds);
		if (err)
			goto fail;
		if (oldh) {
			atomic_store_explicit(&g->hash, h, memory_order_release);
			p4odp__defer_free(w->rcu, p4odp__cuckoo_mem(oldh));
		}
	}
	g->n_entries++;
	w->aux[idx] = g;
	if (fresh || cand.prio > g->maxprio) {
		if (!fresh)
			order_remove(tw, g);
		else
			g->id = tw->next_id++;
		g->maxprio = cand.prio;
		order_insert(tw, g);
		publish(t, l);
	}
	return 0;
fail:
	free(node);
	free(l);
	if (fresh) {
		p4odp__cuckoo_free(atomic_load_explicit(&g->hash, memory_order_relaxed));
		free(g);
	}
	return err;
}

int p4odp__tss_del(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__tss_w *tw = w->tss;
	struct p4odp__tss_group *g = w->aux[idx];
	struct p4odp__cuckoo *h = atomic_load_explicit(&g->hash, memory_order_relaxed);
	uint32_t kw = t->key_words, rb = tw->range_bytes, at = 0;
	uint64_t key[P4ODP__KW_MAX];
	const struct p4odp__tss_node *old, *o;
	const struct p4odp__tss_cand *oc;
	struct p4odp__tss_node *node = NULL;
	struct p4odp__tss_list *l;
	int32_t maxprio = INT32_MIN;

	p4odp__words(pm->value, t->key_len, key);
	old = p4odp__cuckoo_find_words(h, key, kw);
	if (!old)
		return -ENOENT;  /* cannot happen */
	oc = node_cands(old, kw);
	while (at < old->n && oc[at].idx != idx)
		at++;
	if (at == old->n)
		return -ENOENT;
	/* Room for the list even if it does not change: no failure after the
	 * first store. */
	l = list_new(tw->n);
	if (old->n > 1)
		node = node_new(t, old->n - 1);
	if (!l || (old->n > 1 && !node)) {
		free(l);
		free(node);
		return -ENOMEM;
	}
	if (node) {
		memcpy(node->kw, old->kw, 8 * (size_t)kw);
		memcpy(node_cands(node, kw), oc, at * sizeof(*oc));
		memcpy(node_cands(node, kw) + at, oc + at + 1, (old->n - at - 1) * sizeof(*oc));
		memcpy(node_ranges(node, kw), node_ranges(old, kw), (size_t)at * rb);
		memcpy(node_ranges(node, kw) + (size_t)at * rb,
		       node_ranges(old, kw) + (size_t)(at + 1) * rb, (size_t)(old->n - at - 1) * rb);
		p4odp__cuckoo_replace(h, old, node);
	} else {
		p4odp__cuckoo_remove(h, old);
	}
	p4odp__defer_free(w->rcu, (void *)old);
	g->n_entries--;
	w->aux[idx] = NULL;
	if (!g->n_entries) {
		order_remove(tw, g);
		publish(t, l);
		p4odp__defer_free(w->rcu, p4odp__cuckoo_mem(h));
		p4odp__defer_free(w->rcu, g);
		return 0;
	}
	if (w->prio[idx] == g->maxprio) {
		P4ODP__CUCKOO_FOREACH(h, i, s, o) {
			const struct p4odp__tss_node *nd = o;

			if (node_cands(nd, kw)[0].prio > maxprio)
				maxprio = node_cands(nd, kw)[0].prio;
		}
		if (maxprio != g->maxprio) {
			order_remove(tw, g);
			g->maxprio = maxprio;
			order_insert(tw, g);
			publish(t, l);
			return 0;
		}
	}
	free(l);
	return 0;
}

int p4odp__tss_clear(struct p4odp_table *t, struct p4odp__bulk *bulk)
{
	struct p4odp__tss_w *tw = t->w->tss;
	struct p4odp__tss_list *l = list_new(0), *old;
	size_t need = bulk->n + 1;

	if (!l)
		return -ENOMEM;
	for (uint32_t i = 0; i < tw->n; i++)
		need += 2 + atomic_load_explicit(&tw->groups[i]->hash, memory_order_relaxed)->count;
	/* Reserve the bulk array so that the adds below cannot fail. */
	if (need > bulk->cap) {
		void **p = realloc(bulk->p, need * sizeof(*p));

		if (!p) {
			free(l);
			return -ENOMEM;
		}
		bulk->p = p;
		bulk->cap = need;
	}
	old = atomic_load_explicit(&t->tss, memory_order_relaxed);
	l->n = 0;
	atomic_store_explicit(&t->tss, l, memory_order_release);
	p4odp__bulk_add(bulk, old);
	for (uint32_t i = 0; i < tw->n; i++)
		group_free_all(tw->groups[i], bulk);
	tw->n = 0;
	return 0;
}
