/*
 * Multibit trie for one lpm field wider than 32 bits (the layout and the
 * lookup are in p4odp_table.h): root[] splits the field's first 16 bits,
 * each node 6 more, leaves pushed down so that a lookup reads one slot per
 * level and stops at the first leaf, or at a tail: where only one rule lies
 * below a slot, the slot is a tail holding that rule's prefix instead of a
 * chain of nodes (a second rule below splits it into a node, whose slot
 * holds the tail one level down; a delete that leaves one rule below a node
 * folds it back). A node exists exactly where at least two rules, or one
 * ending in its bits, are longer than the bits above it.
 *
 * Updates copy on write. An add or delete rebuilds the nodes whose slots
 * change (expanded to 64 slots, changed, compressed again), and their
 * ancestors, whose children arrays hold them, up to the root slot, which
 * one release store publishes; a prefix of 16 bits or less covers several
 * root slots, each stored once everything is built. Replaced nodes are
 * freed after a grace period. Nothing is published before every allocation
 * succeeded, so a failed update changes nothing.
 */
#include <string.h>

#include "table_internal.h"

#define SLOTS (1u << P4ODP__TRIE_STRIDE)
#define ROOT_SLOTS (1u << P4ODP__TRIE_ROOT_BITS)

/* A slot of a node being rebuilt, or a root slot: a leaf or a node. */
struct tslot {
	bool node;
	uint32_t leaf;
	struct p4odp__trie_node n;
};

struct p4odp__trie_w {
	struct p4odp__trie *tr;    /* as published */
	uint32_t key_len;
	uint32_t nodes;            /* nodes and tails under the root array */
	uint16_t *depth;           /* prefix length of each index's rule */
	struct tslot *scratch;     /* SLOTS per level below the root */
	/* The update under way: add rule (index + 1) for the prefix value/len,
	 * or delete it, its slots going to prev (the longest shorter prefix). */
	const uint8_t *value;
	uint32_t len, rule, prev;
	bool del;
	int32_t node_delta;
	struct p4odp__bulk fresh;  /* allocated by it: freed if it fails */
	struct p4odp__bulk old;    /* replaced by it: freed a grace period after it */
};

/* Levels of nodes a field of width bits can need. */
static uint32_t levels(uint32_t width)
{
	return (width - P4ODP__TRIE_ROOT_BITS + P4ODP__TRIE_STRIDE - 1) / P4ODP__TRIE_STRIDE;
}

static struct p4odp__trie *trie_new(uint32_t pad)
{
	struct p4odp__trie *tr = calloc(1, sizeof(*tr) + ROOT_SLOTS * sizeof(tr->root[0]));

	if (tr)
		tr->pad = pad;
	return tr;
}

static void slot_of_root(uintptr_t x, struct tslot *s)
{
	if (x & 1)
		*s = (struct tslot){.node = true,
				    .n = *(const struct p4odp__trie_node *)(x - 1)};
	else
		*s = (struct tslot){.leaf = (uint32_t)(x >> 1)};
}

static void expand(const struct p4odp__trie_node *n, struct tslot *s)
{
	uint32_t ci = 0, li = 0, leaf = 0;

	for (uint32_t v = 0; v < SLOTS; v++) {
		uint64_t bit = 1ull << v;

		if (n->vector & bit) {
			s[v] = (struct tslot){.node = true, .n = n->children[ci++]};
			continue;
		}
		if (n->leafvec & bit)
			leaf = n->leaves[li++];
		s[v] = (struct tslot){.leaf = leaf};
	}
}

static void *fresh_alloc(struct p4odp__trie_w *tw, size_t size)
{
	void *p = malloc(size);

	if (p && p4odp__bulk_add(&tw->fresh, p)) {
		free(p);
		return NULL;
	}
	return p;
}

/* The node of 64 slots s, in new arrays. */
static int compress(struct p4odp__trie_w *tw, const struct tslot *s, struct p4odp__trie_node *out)
{
	struct p4odp__trie_node n = {0};
	struct p4odp__trie_node *children = NULL;
	uint32_t *leaves = NULL, nc = 0, nl = 0, prev = 0;
	bool any = false;

	/* Children in order; leaves as runs of equal values, child slots
	 * skipped. */
	for (uint32_t v = 0; v < SLOTS; v++) {
		if (s[v].node) {
			n.vector |= 1ull << v;
			nc++;
			continue;
		}
		if (!any || s[v].leaf != prev) {
			n.leafvec |= 1ull << v;
			nl++;
		}
		any = true;
		prev = s[v].leaf;
	}
	if ((nc && !(children = fresh_alloc(tw, nc * sizeof(*children)))) ||
	    (nl && !(leaves = fresh_alloc(tw, nl * sizeof(*leaves)))))
		return -ENOMEM;
	nc = nl = 0;
	for (uint32_t v = 0; v < SLOTS; v++) {
		if (s[v].node)
			children[nc++] = s[v].n;
		else if (n.leafvec & (1ull << v))
			leaves[nl++] = s[v].leaf;
	}
	n.children = children;
	n.leaves = leaves;
	*out = n;
	return 0;
}

static bool is_tail(const struct p4odp__trie_node *n)
{
	return !(n->vector | n->leafvec);
}

/* Blocks of the published structure, freed a grace period after the
 * update is: a node's arrays, or a tail. */
static int retire(struct p4odp__trie_w *tw, const struct p4odp__trie_node *n)
{
	if (is_tail(n))
		return p4odp__bulk_add(&tw->old, (void *)n->tail);
	if (p4odp__bulk_add(&tw->old, (void *)n->children) ||
	    p4odp__bulk_add(&tw->old, (void *)n->leaves))
		return -ENOMEM;
	return 0;
}

/* A tail for rule (index + 1) of prefix value/len, other elsewhere, in *s. */
static int make_tail(struct p4odp__trie_w *tw, const uint8_t *value, uint32_t len, uint32_t rule,
		     uint32_t other, struct tslot *s)
{
	uint32_t pad = tw->tr->pad, words = ((pad + len + 7) / 8 + 7) / 8;
	struct p4odp__trie_tail *tl = fresh_alloc(tw, sizeof(*tl) + 2 * words * sizeof(uint64_t));
	uint8_t mask[P4ODP_TABLE_KEY_MAX] = {0};

	if (!tl)
		return -ENOMEM;
	for (uint32_t b = pad; b < pad + len; b++)
		mask[b / 8] |= (uint8_t)(0x80 >> (b % 8));
	*tl = (struct p4odp__trie_tail){rule, other, words, len};
	for (uint32_t i = 0; i < words; i++) {
		uint32_t off = 8 * i, n = tw->key_len - off < 8 ? tw->key_len - off : 8;

		tl->vm[2 * i] = p4odp__load(value + off, n) & p4odp__load(mask + off, n);
		tl->vm[2 * i + 1] = p4odp__load(mask + off, n);
	}
	*s = (struct tslot){.node = true, .n = {.tail = tl}};
	return 0;
}

/* The prefix of rule x (its key bytes). */
static const uint8_t *rule_value(const struct p4odp_table *t, uint32_t x)
{
	return p4odp__ident(t->w, x - 1);
}

/* The leaf x of a slot the whole prefix covers, after the update. */
static uint32_t covered(const struct p4odp__trie_w *tw, uint32_t x)
{
	if (tw->del)
		return x == tw->rule ? tw->prev : x;
	return !x || tw->depth[x - 1] <= tw->len ? tw->rule : x;
}

/* The 64 slots after a delete hold one rule longer than their bits only,
 * in a tail, with the same leaf everywhere else: that tail. */
static const struct tslot *lone_tail(const struct tslot *s)
{
	const struct tslot *tail = NULL;

	for (uint32_t v = 0; v < SLOTS; v++) {
		if (s[v].node) {
			if (tail || !is_tail(&s[v].n))
				return NULL;
			tail = &s[v];
		}
	}
	for (uint32_t v = 0; tail && v < SLOTS; v++)
		if (!s[v].node && s[v].leaf != tail->n.tail->other)
			return NULL;
	return tail;
}

static bool uniform_leaves(const struct tslot *s)
{
	for (uint32_t v = 0; v < SLOTS; v++)
		if (s[v].node || s[v].leaf != s[0].leaf)
			return false;
	return true;
}

/* Slots lo .. hi-1 of 64 at bit position pos that a prefix value/len
 * covers, or the one it goes through. */
static void prefix_slots(const struct p4odp__trie_w *tw, const uint8_t *value, uint32_t len,
			 uint32_t pos, uint32_t *lo, uint32_t *hi)
{
	*lo = p4odp__trie_bits(value, tw->key_len, tw->tr->pad + pos);
	*hi = len < pos + P4ODP__TRIE_STRIDE ? *lo + (1u << (pos + P4ODP__TRIE_STRIDE - len))
					     : *lo + 1;
}

/* A tail at bit position pos split by a second rule below: its leaves, and
 * the tail itself one level down (or its rule's slots, when its prefix
 * ends in these bits), in the 64 slots sub. */
static int split_tail(const struct p4odp_table *t, const struct tslot *s, uint32_t pos,
		      struct tslot *sub)
{
	struct p4odp__trie_w *tw = t->w->trie;
	const struct p4odp__trie_tail *tl = s->n.tail;
	uint32_t lo, hi;

	for (uint32_t v = 0; v < SLOTS; v++)
		sub[v] = (struct tslot){.leaf = tl->other};
	prefix_slots(tw, rule_value(t, tl->rule), tl->len, pos, &lo, &hi);
	if (tl->len <= pos + P4ODP__TRIE_STRIDE) {
		for (uint32_t v = lo; v < hi; v++)
			sub[v].leaf = tl->rule;
		tw->node_delta--;
		return retire(tw, &s->n);
	}
	sub[lo] = *s;
	return 0;
}

/*
 * Apply the update to slot s, which stands for the field bits before pos:
 * a leaf, a tail, or a node splitting bits pos .. pos+5. Returns 1 if s
 * changed, 0 if not, -errno. Nodes are expanded into the scratch of their
 * level.
 */
static int update(const struct p4odp_table *t, struct tslot *s, uint32_t pos, uint32_t level)
{
	struct p4odp__trie_w *tw = t->w->trie;
	struct tslot *sub = tw->scratch + (size_t)SLOTS * level;
	uint32_t lo = 0, hi = SLOTS, x;
	bool node = s->node && !is_tail(&s->n);
	int changed = 0;

	if (!s->node && tw->len <= pos) {
		x = covered(tw, s->leaf);
		if (x == s->leaf)
			return 0;
		s->leaf = x;
		return 1;
	}
	if (!s->node) {
		/* The rule is the only one below: a tail, not a chain of
		 * nodes (a deleted rule has a tail or a node here). */
		if (tw->del)
			return -ENOENT;
		tw->node_delta++;
		return make_tail(tw, tw->value, tw->len, tw->rule, s->leaf, s) ? -ENOMEM : 1;
	}
	if (!node) {
		const struct p4odp__trie_tail *tl = s->n.tail;

		if (tw->len <= pos) {  /* only the leaf around the tail's prefix may change */
			x = covered(tw, tl->other);
			if (x == tl->other)
				return 0;
			if (retire(tw, &s->n) ||
			    make_tail(tw, rule_value(t, tl->rule), tl->len, tl->rule, x, s))
				return -ENOMEM;
			return 1;
		}
		if (tw->del) {
			if (tl->rule != tw->rule)
				return -ENOENT;
			if (retire(tw, &s->n))
				return -ENOMEM;
			*s = (struct tslot){.leaf = tl->other};
			tw->node_delta--;
			return 1;
		}
		if (split_tail(t, s, pos, sub))
			return -ENOMEM;
		tw->node_delta++;
		changed = 1;
	} else {
		expand(&s->n, sub);
	}
	if (tw->len > pos)
		prefix_slots(tw, tw->value, tw->len, pos, &lo, &hi);
	for (uint32_t v = lo; v < hi; v++) {
		int r = update(t, &sub[v], pos + P4ODP__TRIE_STRIDE, level + 1);

		if (r < 0)
			return r;
		changed |= r;
	}
	if (!changed)
		return 0;
	if (node && retire(tw, &s->n))
		return -ENOMEM;
	if (tw->del && uniform_leaves(sub)) {
		/* No rule below any more: the node folds into a leaf. */
		*s = (struct tslot){.leaf = sub[0].leaf};
		tw->node_delta--;
		return 1;
	}
	if (tw->del && lone_tail(sub)) {
		/* One rule below: the node folds into its tail. */
		*s = *lone_tail(sub);
		tw->node_delta--;
		return 1;
	}
	s->node = true;
	return compress(tw, sub, &s->n) ? -ENOMEM : 1;
}

static void rollback(struct p4odp__trie_w *tw)
{
	for (size_t i = 0; i < tw->fresh.n; i++)
		free(tw->fresh.p[i]);
	tw->fresh.n = 0;
	tw->old.n = 0;
	tw->node_delta = 0;
}

/* Apply the update set up in tw to every root slot the prefix covers. */
static int apply(struct p4odp_table *t)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__trie_w *tw = w->trie;
	struct p4odp__trie *tr = tw->tr;
	uint32_t first = p4odp__trie_root_index(tr, tw->value), n = 1, done = 0;
	struct root_store {
		uint32_t idx;
		uintptr_t x;
	} one, *st = &one;
	int err = 0;

	if (tw->len < P4ODP__TRIE_ROOT_BITS) {
		n = 1u << (P4ODP__TRIE_ROOT_BITS - tw->len);
		st = malloc(n * sizeof(*st));
		if (!st)
			return -ENOMEM;
	}
	for (uint32_t i = first; i < first + n && !err; i++) {
		uintptr_t x = atomic_load_explicit(&tr->root[i], memory_order_relaxed);
		struct tslot s;
		int r;

		slot_of_root(x, &s);
		r = update(t, &s, P4ODP__TRIE_ROOT_BITS, 0);
		if (r <= 0) {
			err = r;
			continue;
		}
		if ((x & 1) && p4odp__bulk_add(&tw->old, (void *)(x - 1))) {
			err = -ENOMEM;
		} else if (s.node) {
			struct p4odp__trie_node *node = fresh_alloc(tw, sizeof(*node));

			if (node) {
				*node = s.n;
				st[done++] = (struct root_store){i, (uintptr_t)node | 1};
			} else {
				err = -ENOMEM;
			}
		} else {
			st[done++] = (struct root_store){i, (uintptr_t)s.leaf << 1};
		}
	}
	if (err) {
		rollback(tw);
	} else {
		for (uint32_t i = 0; i < done; i++)
			atomic_store_explicit(&tr->root[st[i].idx], st[i].x, memory_order_release);
		tw->nodes = (uint32_t)((int32_t)tw->nodes + tw->node_delta);
		tw->node_delta = 0;
		tw->fresh.n = 0;
		if (tw->old.n)
			p4odp__bulk_defer(w->rcu, &tw->old);
	}
	if (st != &one)
		free(st);
	return err;
}

int p4odp__trie_add(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm)
{
	struct p4odp__trie_w *tw = t->w->trie;

	tw->depth[idx] = (uint16_t)pm->prefix_len;
	tw->value = pm->value;
	tw->len = pm->prefix_len;
	tw->rule = idx + 1;
	tw->del = false;
	return apply(t);
}

/* Index + 1 of the longest rule shorter than value/len that covers it, 0 if
 * none. */
static uint32_t covering_rule(const struct p4odp_table *t, const uint8_t *value, uint32_t len)
{
	const struct p4odp__writer *w = t->w;
	uint32_t pad = w->trie->tr->pad, n = t->key_len;
	uint8_t *id = w->pm.ident;

	memcpy(id, value, n);
	for (uint32_t l = len; l-- > 0;) {
		int64_t j;

		id[(pad + l) / 8] &= (uint8_t)~(0x80 >> ((pad + l) % 8));
		id[n] = (uint8_t)(l >> 8);
		id[n + 1] = (uint8_t)l;
		j = p4odp__map_find(w, id);
		if (j >= 0)
			return (uint32_t)j + 1;
	}
	return 0;
}

int p4odp__trie_del(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm)
{
	struct p4odp__trie_w *tw = t->w->trie;

	tw->value = pm->value;
	tw->len = pm->prefix_len;
	tw->rule = idx + 1;
	tw->prev = covering_rule(t, pm->value, pm->prefix_len);
	tw->del = true;
	return apply(t);
}

int p4odp__trie_init(struct p4odp_table *t)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__trie_w *tw = calloc(1, sizeof(*tw));
	uint32_t width = w->fields[0].width;

	if (!tw)
		return -ENOMEM;
	w->trie = tw;
	tw->key_len = t->key_len;
	tw->depth = calloc(w->max_entries, sizeof(*tw->depth));
	tw->scratch = malloc((size_t)SLOTS * levels(width) * sizeof(*tw->scratch));
	tw->tr = trie_new(8 * t->key_len - width);
	if (!tw->depth || !tw->scratch || !tw->tr)
		return -ENOMEM;
	atomic_init(&t->trie, tw->tr);
	return 0;
}

/* The blocks of n and of the nodes under it into b (which has room). */
static void gather(const struct p4odp__trie_node *n, struct p4odp__bulk *b)
{
	if (is_tail(n)) {
		p4odp__bulk_add(b, (void *)n->tail);
		return;
	}
	for (uint32_t i = 0; i < p4odp__popcount(n->vector); i++)
		gather(&n->children[i], b);
	p4odp__bulk_add(b, (void *)n->children);
	p4odp__bulk_add(b, (void *)n->leaves);
}

/* Every block of tr into b (which has room for them), tr last. */
static void gather_all(struct p4odp__trie *tr, struct p4odp__bulk *b)
{
	for (uint32_t i = 0; i < ROOT_SLOTS; i++) {
		uintptr_t x = atomic_load_explicit(&tr->root[i], memory_order_relaxed);

		if (x & 1) {
			gather((const struct p4odp__trie_node *)(x - 1), b);
			p4odp__bulk_add(b, (void *)(x - 1));
		}
	}
	p4odp__bulk_add(b, tr);
}

static void free_tree(const struct p4odp__trie_node *n)
{
	if (is_tail(n)) {
		free((void *)n->tail);
		return;
	}
	for (uint32_t i = 0; i < p4odp__popcount(n->vector); i++)
		free_tree(&n->children[i]);
	free((void *)n->children);
	free((void *)n->leaves);
}

void p4odp__trie_fini(struct p4odp_table *t)
{
	struct p4odp__trie_w *tw = t->w->trie;

	if (tw->tr) {
		for (uint32_t i = 0; i < ROOT_SLOTS; i++) {
			uintptr_t x = atomic_load_explicit(&tw->tr->root[i], memory_order_relaxed);

			if (x & 1) {
				free_tree((const struct p4odp__trie_node *)(x - 1));
				free((void *)(x - 1));
			}
		}
		free(tw->tr);
	}
	free(tw->fresh.p);
	free(tw->old.p);
	free(tw->depth);
	free(tw->scratch);
	free(tw);
	t->w->trie = NULL;
}

uint32_t p4odp__trie_nodes(const struct p4odp_table *t)
{
	return t->w->trie->nodes;
}

int p4odp__trie_clear(struct p4odp_table *t, struct p4odp__bulk *bulk)
{
	struct p4odp__trie_w *tw = t->w->trie;
	struct p4odp__trie *tr = trie_new(tw->tr->pad), *old = tw->tr;
	/* Two arrays per node (one block per tail), one block per root slot
	 * node, the root: reserved first, so that gathering cannot fail half
	 * way. */
	size_t need = bulk->n + 2 * (size_t)tw->nodes + ROOT_SLOTS + 1;

	if (!tr)
		return -ENOMEM;
	if (need > bulk->cap) {
		void **p = realloc(bulk->p, need * sizeof(*p));

		if (!p) {
			free(tr);
			return -ENOMEM;
		}
		bulk->p = p;
		bulk->cap = need;
	}
	atomic_store_explicit(&t->trie, tr, memory_order_release);
	tw->tr = tr;
	tw->nodes = 0;
	gather_all(old, bulk);
	return 0;
}
