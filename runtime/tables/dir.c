/*
 * DIR-24-8 for tables keyed by one lpm field of at most 32 bits: tbl1 is
 * indexed by the first b1 = min(width, 24) bits; a slot covering prefixes
 * longer than b1 points to a group of 2^b2 tbl8 slots indexed by the rest
 * (b2 = width - b1). A lookup is one or two loads.
 *
 * Updates store one 32-bit slot at a time (release): each lookup reads one
 * slot per level, so it sees the best rule before or after the update. A new
 * group is filled before the tbl1 slot pointing to it is published; a group
 * emptied back into tbl1 is reused after a grace period. tbl8 grows by
 * copy: readers that loaded the old array keep a consistent old view.
 */
#include <string.h>

#include "table_internal.h"

struct p4odp__dir_w {
	struct p4odp__dir *d;
	struct p4odp__idpool groups;
	uint32_t group_cap;   /* groups that can ever be needed at once */
	uint32_t n_groups;    /* in use */
	uint32_t width, gsize;
	uint8_t *depth;       /* prefix length of each index's rule */
};

static size_t dir_size(uint32_t b1)
{
	return sizeof(struct p4odp__dir) + ((size_t)1 << b1) * sizeof(_Atomic uint32_t);
}

/* 2^24 slots are 64 MB: in huge pages (p4odp__pages_alloc). */
static struct p4odp__dir *dir_new(uint32_t b1, uint32_t b2)
{
	struct p4odp__dir *d = p4odp__pages_alloc(dir_size(b1));

	if (!d)
		return NULL;
	d->b1 = b1;
	d->b2 = b2;
	atomic_init(&d->tbl8, NULL);
	return d;
}

static void dir_free(void *p)
{
	struct p4odp__dir *d = p;

	free((void *)atomic_load_explicit(&d->tbl8, memory_order_relaxed));
	p4odp__pages_free(d, dir_size(d->b1));
}

int p4odp__dir_init(struct p4odp_table *t)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__dir_w *dw = calloc(1, sizeof(*dw));
	uint32_t width = w->fields[0].width, b1 = width < 24 ? width : 24;

	if (!dw)
		return -ENOMEM;
	w->dir = dw;
	dw->width = width;
	dw->gsize = 1u << (width - b1);
	dw->group_cap = b1 < 31 && (1u << b1) < w->max_entries ? 1u << b1 : w->max_entries;
	dw->depth = calloc(w->max_entries, 1);
	dw->d = dir_new(b1, width - b1);
	if (!dw->depth || !dw->d)
		return -ENOMEM;
	p4odp__idpool_init(&dw->groups, 0);
	atomic_init(&t->dir, dw->d);
	return 0;
}

void p4odp__dir_fini(struct p4odp_table *t)
{
	struct p4odp__dir_w *dw = t->w->dir;

	if (dw->d)
		dir_free(dw->d);
	p4odp__idpool_fini(&dw->groups);
	free(dw->depth);
	free(dw);
	t->w->dir = NULL;
}

uint32_t p4odp__dir_groups(const struct p4odp_table *t)
{
	return t->w->dir->n_groups;
}

static uint32_t key_value(const struct p4odp_table *t, const uint8_t *p)
{
	uint32_t v = 0;

	for (uint32_t i = 0; i < t->key_len; i++)
		v = v << 8 | p[i];
	return v;
}

static _Atomic uint32_t *group(const struct p4odp__dir_w *dw, uint32_t x)
{
	_Atomic uint32_t *tbl8 = atomic_load_explicit(&dw->d->tbl8, memory_order_relaxed);

	return tbl8 + (size_t)(x & ~P4ODP__DIR_EXT) * dw->gsize;
}

static uint32_t get(_Atomic uint32_t *slot)
{
	return atomic_load_explicit(slot, memory_order_relaxed);
}

static void set(_Atomic uint32_t *slot, uint32_t x)
{
	atomic_store_explicit(slot, x, memory_order_release);
}

/* A free group id, growing tbl8 (by copy) or waiting for a retired group
 * when none is free. */
static int group_get(struct p4odp__writer *w, uint32_t *gid)
{
	struct p4odp__dir_w *dw = w->dir;
	struct p4odp__idpool *p = &dw->groups;
	int err = p4odp__idpool_get(p, w->rcu, false, gid, &w->st.index_waits);

	if (err == -ENOSPC && p->limit < dw->group_cap) {
		uint32_t limit = p->limit ? 2 * p->limit : 64;
		_Atomic uint32_t *old = atomic_load_explicit(&dw->d->tbl8, memory_order_relaxed);
		_Atomic uint32_t *tbl8;

		if (limit > dw->group_cap)
			limit = dw->group_cap;
		tbl8 = malloc((size_t)limit * dw->gsize * sizeof(*tbl8));
		if (!tbl8)
			return -ENOMEM;
		if (old)
			memcpy((void *)tbl8, (const void *)old,
			       (size_t)p->limit * dw->gsize * sizeof(*tbl8));
		atomic_store_explicit(&dw->d->tbl8, tbl8, memory_order_release);
		p4odp__defer_free(w->rcu, (void *)old);
		p->limit = limit;
		err = p4odp__idpool_get(p, w->rcu, false, gid, &w->st.index_waits);
	}
	if (err == -ENOSPC)
		err = p4odp__idpool_get(p, w->rcu, true, gid, &w->st.index_waits);
	if (!err)
		dw->n_groups++;
	return err;
}

int p4odp__dir_add(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__dir_w *dw = w->dir;
	struct p4odp__dir *d = dw->d;
	uint32_t v = key_value(t, pm->value), depth = pm->prefix_len, r = idx + 1;

	dw->depth[idx] = (uint8_t)depth;
	if (depth <= d->b1) {
		uint32_t first = v >> d->b2, n = 1u << (d->b1 - depth);

		for (uint32_t i = first; i < first + n; i++) {
			uint32_t x = get(&d->tbl1[i]);

			if (x & P4ODP__DIR_EXT) {
				_Atomic uint32_t *g = group(dw, x);

				for (uint32_t j = 0; j < dw->gsize; j++) {
					uint32_t y = get(&g[j]);

					if (!y || dw->depth[y - 1] <= depth)
						set(&g[j], r);
				}
			} else if (!x || dw->depth[x - 1] <= depth) {
				set(&d->tbl1[i], r);
			}
		}
	} else {
		uint32_t i = v >> d->b2, x = get(&d->tbl1[i]);
		uint32_t first = v & (dw->gsize - 1), n = 1u << (dw->width - depth);
		_Atomic uint32_t *g;

		if (!(x & P4ODP__DIR_EXT)) {
			uint32_t gid;
			int err = group_get(w, &gid);

			if (err)
				return err;
			g = group(dw, gid);
			for (uint32_t j = 0; j < dw->gsize; j++)
				atomic_store_explicit(&g[j], x, memory_order_relaxed);
			x = P4ODP__DIR_EXT | gid;
			set(&d->tbl1[i], x);
		}
		g = group(dw, x);
		for (uint32_t j = first; j < first + n; j++) {
			uint32_t y = get(&g[j]);

			if (!y || dw->depth[y - 1] <= depth)
				set(&g[j], r);
		}
	}
	return 0;
}

/* Replace rule r by rule p in group x of tbl1 slot i; fold the group back
 * into the slot when all its slots agree. */
static void group_replace(struct p4odp__writer *w, uint32_t i, uint32_t x, uint32_t first,
			  uint32_t n, uint32_t r, uint32_t p)
{
	struct p4odp__dir_w *dw = w->dir;
	_Atomic uint32_t *g = group(dw, x);
	uint32_t y0;

	for (uint32_t j = first; j < first + n; j++)
		if (get(&g[j]) == r)
			set(&g[j], p);
	y0 = get(&g[0]);
	for (uint32_t j = 1; j < dw->gsize; j++)
		if (get(&g[j]) != y0)
			return;
	set(&dw->d->tbl1[i], y0);
	p4odp__idpool_retire(&dw->groups, x & ~P4ODP__DIR_EXT, p4odp_rcu_cookie(w->rcu));
	dw->n_groups--;
}

int p4odp__dir_del(struct p4odp_table *t, uint32_t idx, const struct p4odp__pmatch *pm)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__dir_w *dw = w->dir;
	struct p4odp__dir *d = dw->d;
	uint32_t v = key_value(t, pm->value), depth = pm->prefix_len, r = idx + 1, p = 0;
	uint8_t *id = w->pm.ident;

	/* The rule that takes over: the longest shorter prefix present. */
	for (uint32_t len = depth; len-- > 0 && !p;) {
		uint32_t pv = v & (uint32_t)~((1ull << (dw->width - len)) - 1);
		int64_t j;

		for (uint32_t k = t->key_len; k-- > 0; pv >>= 8)
			id[k] = (uint8_t)pv;
		id[t->key_len] = (uint8_t)(len >> 8);
		id[t->key_len + 1] = (uint8_t)len;
		j = p4odp__map_find(w, id);
		if (j >= 0)
			p = (uint32_t)j + 1;
	}
	if (depth <= d->b1) {
		uint32_t first = v >> d->b2, n = 1u << (d->b1 - depth);

		for (uint32_t i = first; i < first + n; i++) {
			uint32_t x = get(&d->tbl1[i]);

			if (x & P4ODP__DIR_EXT)
				group_replace(w, i, x, 0, dw->gsize, r, p);
			else if (x == r)
				set(&d->tbl1[i], p);
		}
	} else {
		uint32_t i = v >> d->b2, x = get(&d->tbl1[i]);

		if (!(x & P4ODP__DIR_EXT))
			return -ENOENT;  /* cannot happen */
		group_replace(w, i, x, v & (dw->gsize - 1), 1u << (dw->width - depth), r, p);
	}
	return 0;
}

int p4odp__dir_clear(struct p4odp_table *t)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__dir_w *dw = w->dir;
	struct p4odp__dir *d = dir_new(dw->d->b1, dw->d->b2), *old = dw->d;

	if (!d)
		return -ENOMEM;
	atomic_store_explicit(&t->dir, d, memory_order_release);
	dw->d = d;
	p4odp_rcu_defer(w->rcu, dir_free, old);
	/* The new tbl8 starts empty: every group id is free at once. */
	p4odp__idpool_fini(&dw->groups);
	p4odp__idpool_init(&dw->groups, 0);
	dw->n_groups = 0;
	return 0;
}
