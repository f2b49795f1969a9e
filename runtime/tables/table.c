/*
 * Match tables: the control-plane side common to every structure (spec and
 * match checks, entry identities, indexes, handles, dumps) and the cuckoo
 * hash tables of all-exact keys. DIR-24-8 is in dir.c, the multibit trie
 * in trie.c, tuple-space search in tss.c, the cuckoo hash itself in
 * cuckoo.c, QSBR in rcu.c.
 *
 * Every entry has an index (0 .. max_entries-1) for its life. Readers reach
 * an entry either directly (cuckoo slots point to entries, which carry their
 * key) or through t->entries[index] (DIR-24-8 slots, trie leaves and
 * tuple-space nodes hold indexes). An index and the entry it pointed to are
 * reused or freed only after a grace period, so a reader holding either is
 * always safe.
 */
#define _DEFAULT_SOURCE  /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "table_internal.h"

/* ---- Large arrays the lookups read ---- */

void *p4odp__pages_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, size, MADV_HUGEPAGE);
#endif
	return p;
}

void p4odp__pages_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

#define HUGE_PAGE ((uintptr_t)2 << 20)

void p4odp__advise_huge_pages(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
	uintptr_t start = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t end = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);

	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)p;
	(void)size;
#endif
}

/* ---- Deferred frees ---- */

static void free_cb(void *p)
{
	free(p);
}

void p4odp__defer_free(struct p4odp_rcu *rcu, void *p)
{
	if (p)
		p4odp_rcu_defer(rcu, free_cb, p);
}

int p4odp__bulk_add(struct p4odp__bulk *b, void *p)
{
	if (!p)
		return 0;
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		void **n = realloc(b->p, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		b->p = n;
		b->cap = cap;
	}
	b->p[b->n++] = p;
	return 0;
}

struct bulk_block {
	size_t n;
	void **p;
};

static void bulk_cb(void *arg)
{
	struct bulk_block *blk = arg;

	for (size_t i = 0; i < blk->n; i++)
		free(blk->p[i]);
	free(blk->p);
	free(blk);
}

void p4odp__bulk_defer(struct p4odp_rcu *rcu, struct p4odp__bulk *b)
{
	struct bulk_block *blk = malloc(sizeof(*blk));

	if (!blk) {
		p4odp_rcu_synchronize(rcu);
		for (size_t i = 0; i < b->n; i++)
			free(b->p[i]);
		free(b->p);
	} else {
		*blk = (struct bulk_block){b->n, b->p};
		p4odp_rcu_defer(rcu, bulk_cb, blk);
	}
	*b = (struct p4odp__bulk){0};
}

/* ---- Id pools ---- */

void p4odp__idpool_init(struct p4odp__idpool *p, uint32_t limit)
{
	*p = (struct p4odp__idpool){.limit = limit};
}

void p4odp__idpool_fini(struct p4odp__idpool *p)
{
	free(p->free);
	free(p->lid);
	free(p->lcookie);
	*p = (struct p4odp__idpool){0};
}

/* Room for every id of the pool in both the free stack and the limbo ring,
 * so that putting ids back never fails. */
static int idpool_reserve(struct p4odp__idpool *p)
{
	uint32_t cap = p->limit;
	uint32_t *f, *l;
	uint64_t *c;

	if (p->free_cap >= cap)
		return 0;
	f = realloc(p->free, cap * sizeof(*f));
	if (!f)
		return -ENOMEM;
	p->free = f;
	l = malloc(cap * sizeof(*l));
	c = malloc(cap * sizeof(*c));
	if (!l || !c) {
		free(l);
		free(c);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < p->lcount; i++) {
		l[i] = p->lid[(p->lhead + i) % p->lcap];
		c[i] = p->lcookie[(p->lhead + i) % p->lcap];
	}
	free(p->lid);
	free(p->lcookie);
	p->lid = l;
	p->lcookie = c;
	p->lhead = 0;
	p->lcap = cap;
	p->free_cap = cap;
	return 0;
}

static void idpool_drain(struct p4odp__idpool *p, struct p4odp_rcu *rcu)
{
	uint64_t safe = 0;

	while (p->lcount) {
		uint64_t c = p->lcookie[p->lhead];

		if (c > safe) {
			/* Ask about the newest cookie first: one grace period
			 * often covers the whole ring. */
			uint64_t last = p->lcookie[(p->lhead + p->lcount - 1) % p->lcap];

			if (p4odp_rcu_expired(rcu, last))
				safe = last;
			else if (p4odp_rcu_expired(rcu, c))
				safe = c;
			else
				return;
		}
		p->free[p->n_free++] = p->lid[p->lhead];
		p->lhead = (p->lhead + 1) % p->lcap;
		p->lcount--;
	}
}

int p4odp__idpool_get(struct p4odp__idpool *p, struct p4odp_rcu *rcu, bool wait, uint32_t *id,
		      uint64_t *waits)
{
	if (idpool_reserve(p))
		return -ENOMEM;
	if (!p->n_free && p->fresh < p->limit) {
		*id = p->fresh++;
		return 0;
	}
	if (!p->n_free && p->lcount)
		idpool_drain(p, rcu);
	if (!p->n_free && p->lcount && wait) {
		(*waits)++;
		p4odp_rcu_wait(rcu, p->lcookie[p->lhead]);
		idpool_drain(p, rcu);
	}
	if (!p->n_free)
		return -ENOSPC;
	*id = p->free[--p->n_free];
	return 0;
}

int p4odp__idpool_put(struct p4odp__idpool *p, uint32_t id)
{
	p->free[p->n_free++] = id;
	return 0;
}

int p4odp__idpool_retire(struct p4odp__idpool *p, uint32_t id, uint64_t cookie)
{
	uint32_t at = (p->lhead + p->lcount) % p->lcap;

	p->lid[at] = id;
	p->lcookie[at] = cookie;
	p->lcount++;
	return 0;
}

/* ---- Identity map (ident -> index) ---- */

static uint64_t hash_bytes(const uint8_t *p, uint32_t len)
{
	uint64_t h = P4ODP__SEED ^ len;

	for (uint32_t i = 0; i < len; i += 8)
		h = p4odp__hmix(h, p4odp__load(p + i, len - i < 8 ? len - i : 8));
	return p4odp__hfin(h);
}

int64_t p4odp__map_find(const struct p4odp__writer *w, const uint8_t *ident)
{
	uint32_t hv = (uint32_t)hash_bytes(ident, w->ident_len);

	for (uint32_t i = hv & w->map_mask; w->map_idx[i]; i = (i + 1) & w->map_mask) {
		uint32_t idx = w->map_idx[i] - 1;

		if (w->map_hash[i] == hv && !memcmp(p4odp__ident(w, idx), ident, w->ident_len))
			return idx;
	}
	return -1;
}

static void map_insert(struct p4odp__writer *w, uint32_t idx)
{
	uint32_t hv = (uint32_t)hash_bytes(p4odp__ident(w, idx), w->ident_len);
	uint32_t i = hv & w->map_mask;

	while (w->map_idx[i])
		i = (i + 1) & w->map_mask;
	w->map_idx[i] = idx + 1;
	w->map_hash[i] = hv;
}

static void map_remove(struct p4odp__writer *w, uint32_t idx)
{
	uint32_t hv = (uint32_t)hash_bytes(p4odp__ident(w, idx), w->ident_len);
	uint32_t i = hv & w->map_mask, j;

	while (w->map_idx[i] != idx + 1)
		i = (i + 1) & w->map_mask;
	/* Backward-shift deletion keeps probe sequences unbroken. */
	for (j = i;;) {
		uint32_t home;

		j = (j + 1) & w->map_mask;
		if (!w->map_idx[j])
			break;
		home = w->map_hash[j] & w->map_mask;
		if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) {
			w->map_idx[i] = w->map_idx[j];
			w->map_hash[i] = w->map_hash[j];
			i = j;
		}
	}
	w->map_idx[i] = 0;
}

/* ---- Match parsing ---- */

static bool fits(const struct p4odp__field *f, const uint8_t *p)
{
	return !(f->width % 8) || !(p[0] >> (f->width % 8));
}

static void ones(const struct p4odp__field *f, uint8_t *p)
{
	memset(p, 0xff, f->bytes);
	if (f->width % 8)
		p[0] = (uint8_t)((1u << (f->width % 8)) - 1);
}

static void prefix_mask(const struct p4odp__field *f, uint32_t plen, uint8_t *p)
{
	uint32_t lead = 8 * f->bytes - f->width;

	memset(p, 0, f->bytes);
	for (uint32_t b = lead; b < lead + plen; b++)
		p[b / 8] |= (uint8_t)(0x80 >> (b % 8));
}

static bool under_mask(const uint8_t *v, const uint8_t *m, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i] & ~m[i])
			return false;
	return true;
}

static uint8_t *put(uint8_t *p, const void *src, uint32_t n)
{
	if (src)
		memcpy(p, src, n);
	else
		memset(p, 0, n);
	return p + n;
}

/* Check m against the table and fill pm (ident, value, mask, ranges). */
static int parse(const struct p4odp_table *t, const struct p4odp_match *m,
		 struct p4odp__pmatch *pm)
{
	const struct p4odp__writer *w = t->w;
	uint8_t *id = pm->ident, *rg = pm->ranges;

	if (!m || !m->fields)
		return -EINVAL;
	memset(pm->value, 0, t->key_len);
	memset(pm->mask, 0, t->key_len);
	pm->prefix_len = 0;
	for (uint32_t i = 0; i < w->n_fields; i++) {
		const struct p4odp__field *f = &w->fields[i];
		const struct p4odp_field_match *fm = &m->fields[i];
		uint8_t *val = pm->value + f->off, *msk = pm->mask + f->off;
		uint32_t n = f->bytes;

		switch (f->kind) {
		case P4ODP_MATCH_EXACT:
			if (fm->wildcard || !fm->value || !fits(f, fm->value))
				return -EINVAL;
			memcpy(val, fm->value, n);
			ones(f, msk);
			id = put(id, val, n);
			break;
		case P4ODP_MATCH_LPM: {
			uint32_t plen = fm->wildcard ? 0 : fm->prefix_len;

			if (plen > f->width || (!fm->wildcard && (!fm->value || !fits(f, fm->value))))
				return -EINVAL;
			prefix_mask(f, plen, msk);
			if (!fm->wildcard) {
				if (!under_mask(fm->value, msk, n))
					return -EINVAL;
				memcpy(val, fm->value, n);
			}
			pm->prefix_len = plen;
			id = put(id, val, n);
			*id++ = (uint8_t)(plen >> 8);
			*id++ = (uint8_t)plen;
			break;
		}
		case P4ODP_MATCH_TERNARY:
			if (!fm->wildcard) {
				if (!fm->value || !fits(f, fm->value))
					return -EINVAL;
				if (fm->mask) {
					if (!fits(f, fm->mask))
						return -EINVAL;
					memcpy(msk, fm->mask, n);
				} else {
					ones(f, msk);
				}
				if (!under_mask(fm->value, msk, n))
					return -EINVAL;
				memcpy(val, fm->value, n);
			}
			id = put(id, val, n);
			id = put(id, msk, n);
			break;
		case P4ODP_MATCH_RANGE:
			if (fm->wildcard) {
				memset(rg, 0, n);
				ones(f, rg + n);
			} else {
				if (!fm->low || !fm->high || !fits(f, fm->low) || !fits(f, fm->high) ||
				    memcmp(fm->low, fm->high, n) > 0)
					return -EINVAL;
				memcpy(rg, fm->low, n);
				memcpy(rg + n, fm->high, n);
			}
			id = put(id, rg, 2 * n);
			rg += 2 * n;
			break;
		case P4ODP_MATCH_OPTIONAL:
			if (!fm->wildcard) {
				if (!fm->value || !fits(f, fm->value))
					return -EINVAL;
				memcpy(val, fm->value, n);
				ones(f, msk);
			}
			*id++ = !fm->wildcard;
			id = put(id, val, n);
			break;
		default:
			return -EINVAL;
		}
	}
	if (w->has_prio) {
		uint32_t p = (uint32_t)m->priority;

		pm->priority = m->priority;
		*id++ = (uint8_t)(p >> 24);
		*id++ = (uint8_t)(p >> 16);
		*id++ = (uint8_t)(p >> 8);
		*id++ = (uint8_t)p;
	} else {
		pm->priority = (int32_t)pm->prefix_len;
	}
	return 0;
}

static bool all_zero(const uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Entry idx's match as the dump reports it, in fields[n_fields]. */
static void dump_match(const struct p4odp_table *t, uint32_t idx, struct p4odp_match *m,
		       struct p4odp_field_match *fields)
{
	const struct p4odp__writer *w = t->w;
	const uint8_t *id = p4odp__ident(w, idx);

	for (uint32_t i = 0; i < w->n_fields; i++) {
		const struct p4odp__field *f = &w->fields[i];
		struct p4odp_field_match *fm = &fields[i];
		uint32_t n = f->bytes;

		*fm = (struct p4odp_field_match){0};
		switch (f->kind) {
		case P4ODP_MATCH_EXACT:
			fm->value = id;
			id += n;
			break;
		case P4ODP_MATCH_LPM:
			fm->value = id;
			fm->prefix_len = (uint32_t)id[n] << 8 | id[n + 1];
			id += n + 2;
			break;
		case P4ODP_MATCH_TERNARY:
			fm->value = id;
			fm->mask = id + n;
			fm->wildcard = all_zero(id + n, n);
			id += 2 * n;
			break;
		case P4ODP_MATCH_RANGE:
			fm->low = id;
			fm->high = id + n;
			id += 2 * n;
			break;
		case P4ODP_MATCH_OPTIONAL:
			fm->wildcard = !id[0];
			fm->value = id + 1;
			id += n + 1;
			break;
		}
	}
	m->fields = fields;
	m->priority = w->has_prio ? (int32_t)((uint32_t)id[0] << 24 | (uint32_t)id[1] << 16 |
					      (uint32_t)id[2] << 8 | id[3])
				  : 0;
}

void p4odp__decode(const struct p4odp_table *t, uint32_t idx, struct p4odp__pmatch *pm)
{
	struct p4odp_match m;

	/* Not w->dump: a dump callback may delete the entry it visits. */
	dump_match(t, idx, &m, t->w->dump + t->w->n_fields);
	parse(t, &m, pm);
}

/* ---- Creation ---- */

static const char *const kind_names[] = {
	[P4ODP_TABLE_EMPTY] = "empty",
	[P4ODP_TABLE_CUCKOO] = "cuckoo",
	[P4ODP_TABLE_DIR24] = "dir-24-8",
	[P4ODP_TABLE_TSS_LPM] = "tss-lpm",
	[P4ODP_TABLE_TSS] = "tss",
	[P4ODP_TABLE_TRIE] = "trie",
	[P4ODP_TABLE_CODE] = "code",
};

static char *copy_name(const char *name)
{
	size_t n = strlen(name) + 1;
	char *p = malloc(n);

	return p ? memcpy(p, name, n) : NULL;
}

static uint32_t pow2_at_least(uint64_t n)
{
	uint32_t p = 2;

	while (p < n)
		p *= 2;
	return p;
}

static int check_spec(const struct p4odp_table_spec *spec, uint32_t *key_len, uint8_t *kind,
		      uint32_t *lpm_field)
{
	uint32_t n_lpm = 0, n_tern = 0, len = 0;

	if (!spec || !spec->max_entries || spec->max_entries > P4ODP_TABLE_ENTRIES_MAX ||
	    (spec->n_fields && !spec->fields) || spec->n_fields > P4ODP_TABLE_KEY_MAX ||
	    spec->action_data_len > (1u << 20))
		return -EINVAL;
	*lpm_field = spec->n_fields;
	for (uint32_t i = 0; i < spec->n_fields; i++) {
		const struct p4odp_key_field *f = &spec->fields[i];

		if (!f->width_bits || f->width_bits > 4096)
			return -EINVAL;
		switch (f->match_kind) {
		case P4ODP_MATCH_EXACT:
			break;
		case P4ODP_MATCH_LPM:
			n_lpm++;
			*lpm_field = i;
			break;
		case P4ODP_MATCH_TERNARY:
		case P4ODP_MATCH_RANGE:
		case P4ODP_MATCH_OPTIONAL:
			n_tern++;
			break;
		default:
			return -EINVAL;
		}
		len += (f->width_bits + 7u) / 8;
	}
	if (n_lpm > 1 || len > P4ODP_TABLE_KEY_MAX)
		return -EINVAL;
	*key_len = len;
	if (!spec->n_fields)
		*kind = P4ODP_TABLE_EMPTY;
	else if (n_tern)
		*kind = P4ODP_TABLE_TSS;
	else if (n_lpm && spec->n_fields == 1)
		*kind = spec->fields[0].width_bits <= 32 ? P4ODP_TABLE_DIR24 : P4ODP_TABLE_TRIE;
	else if (n_lpm)
		*kind = P4ODP_TABLE_TSS_LPM;
	else
		*kind = P4ODP_TABLE_CUCKOO;
	if (spec->kind == P4ODP_TABLE_AUTO || spec->kind == *kind)
		return 0;
	if (spec->kind == P4ODP_TABLE_CODE && spec->n_fields) {
		*kind = P4ODP_TABLE_CODE;
		return 0;
	}
	/* The only other choice that keeps the semantics: one tuple per prefix length instead of
	 * DIR-24-8 or the trie. */
	if (spec->kind == P4ODP_TABLE_TSS_LPM &&
	    (*kind == P4ODP_TABLE_DIR24 || *kind == P4ODP_TABLE_TRIE)) {
		*kind = P4ODP_TABLE_TSS_LPM;
		return 0;
	}
	return -EINVAL;
}

static struct p4odp_table_entry *entry_new(const struct p4odp_table *t, uint32_t idx,
					   uint16_t action_id, const void *data,
					   const uint64_t *kw)
{
	const struct p4odp__writer *w = t->w;
	struct p4odp_table_entry *e = malloc(w->entry_size);

	if (!e)
		return NULL;
	memset(e, 0, w->entry_size);
	e->action_id = action_id;
	e->index = idx;
	if (data)
		memcpy(e->data, data, w->data_len);
	if (kw)
		memcpy(e->data + p4odp__round8(w->data_len), kw, 8 * (size_t)t->key_words);
	return e;
}

static int alloc_pm(struct p4odp__pmatch *pm, const struct p4odp__writer *w, uint32_t key_len)
{
	pm->ident = malloc(w->ident_len + 1);
	pm->value = malloc(key_len + 1);
	pm->mask = malloc(key_len + 1);
	pm->ranges = malloc(w->range_bytes + 1);
	return pm->ident && pm->value && pm->mask && pm->ranges ? 0 : -ENOMEM;
}

static void free_pm(struct p4odp__pmatch *pm)
{
	free(pm->ident);
	free(pm->value);
	free(pm->mask);
	free(pm->ranges);
}

int p4odp_table_create(const struct p4odp_table_spec *spec, struct p4odp_rcu *rcu,
		       struct p4odp_table **out)
{
	struct p4odp_table *t;
	struct p4odp__writer *w;
	uint32_t key_len, lpm_field, off = 0, max;
	uint8_t kind;
	int err = check_spec(spec, &key_len, &kind, &lpm_field);

	if (err)
		return err;
	max = spec->max_entries;
	t = calloc(1, sizeof(*t));
	w = calloc(1, sizeof(*w));
	if (!t || !w) {
		free(t);
		free(w);
		return -ENOMEM;
	}
	t->w = w;
	t->kind = kind;
	t->key_len = key_len;
	t->key_words = (key_len + 7) / 8;
	t->max_entries = spec->max_entries;
	w->name = copy_name(spec->name ? spec->name : "");
	w->n_fields = spec->n_fields;
	w->lpm_field = lpm_field;
	w->max_entries = max;
	w->data_len = spec->action_data_len;
	w->fields = calloc(spec->n_fields + 1, sizeof(*w->fields));
	w->dump = calloc(2 * spec->n_fields + 1, sizeof(*w->dump));
	if (!w->name || !w->fields || !w->dump)
		goto nomem;
	for (uint32_t i = 0; i < spec->n_fields; i++) {
		struct p4odp__field *f = &w->fields[i];

		f->width = spec->fields[i].width_bits;
		f->kind = spec->fields[i].match_kind;
		f->bytes = (f->width + 7) / 8;
		f->off = off;
		off += f->bytes;
		switch (f->kind) {
		case P4ODP_MATCH_EXACT:
			w->ident_len += f->bytes;
			break;
		case P4ODP_MATCH_LPM:
			w->ident_len += f->bytes + 2;
			break;
		case P4ODP_MATCH_TERNARY:
			w->ident_len += 2 * f->bytes;
			w->has_prio = true;
			break;
		case P4ODP_MATCH_RANGE:
			w->ident_len += 2 * f->bytes;
			w->n_ranges++;
			w->range_bytes += 2 * f->bytes;
			w->has_prio = true;
			break;
		case P4ODP_MATCH_OPTIONAL:
			w->ident_len += 1 + f->bytes;
			w->has_prio = true;
			break;
		}
	}
	if (w->has_prio)
		w->ident_len += 4;
	w->entry_size = (uint32_t)sizeof(struct p4odp_table_entry) + p4odp__round8(w->data_len) +
			(kind == P4ODP_TABLE_CUCKOO ? 8 * t->key_words : 0);
	w->gen = calloc(max, sizeof(*w->gen));
	w->ident = malloc((size_t)max * w->ident_len + 1);
	t->entries = p4odp__pages_alloc(max * sizeof(*t->entries));
	w->map_mask = pow2_at_least(2 * (uint64_t)max) - 1;
	w->map_idx = calloc((size_t)w->map_mask + 1, sizeof(*w->map_idx));
	w->map_hash = malloc(((size_t)w->map_mask + 1) * sizeof(*w->map_hash));
	w->kw = malloc(8 * (size_t)t->key_words + 8);
	if (!w->gen || !w->ident || !t->entries || !w->map_idx || !w->map_hash || !w->kw ||
	    alloc_pm(&w->pm, w, key_len) || alloc_pm(&w->pm2, w, key_len))
		goto nomem;
	if (w->has_prio || kind == P4ODP_TABLE_TSS_LPM) {
		w->prio = calloc(max, sizeof(*w->prio));
		w->seq = calloc(max, sizeof(*w->seq));
		w->aux = calloc(max, sizeof(*w->aux));
		if (!w->prio || !w->seq || !w->aux)
			goto nomem;
	}
	p4odp__idpool_init(&w->ids, max);
	if (rcu) {
		w->rcu = rcu;
	} else {
		if (p4odp_rcu_create(&w->rcu))
			goto nomem;
		w->own_rcu = true;
	}
	{
		struct p4odp_table_entry *def = entry_new(t, P4ODP_TABLE_NO_INDEX, 0, NULL, NULL);

		if (!def)
			goto nomem;
		atomic_init(&t->default_entry, def);
	}
	switch (kind) {
	case P4ODP_TABLE_CUCKOO: {
		struct p4odp__cuckoo *h = p4odp__cuckoo_new(pow2_at_least((5 * (uint64_t)max + 27) / 28),
							    t->key_words,
							    (uint32_t)sizeof(struct p4odp_table_entry) +
								    p4odp__round8(w->data_len));

		if (!h)
			goto nomem;
		atomic_init(&t->cuckoo, h);
		break;
	}
	case P4ODP_TABLE_DIR24:
		err = p4odp__dir_init(t);
		break;
	case P4ODP_TABLE_TRIE:
		err = p4odp__trie_init(t);
		break;
	case P4ODP_TABLE_TSS_LPM:
	case P4ODP_TABLE_TSS:
		err = p4odp__tss_init(t);
		break;
	}
	if (err)
		goto fail;
	w->st.max_entries = max;
	w->st.key_len = key_len;
	*out = t;
	return 0;
nomem:
	err = -ENOMEM;
fail:
	p4odp_table_destroy(t);
	return err;
}

void p4odp_table_destroy(struct p4odp_table *t)
{
	struct p4odp__writer *w;

	if (!t)
		return;
	w = t->w;
	if (t->entries && w->gen) {
		for (uint32_t i = 0; i < w->max_entries; i++)
			if (p4odp__used(w, i))
				free((void *)atomic_load_explicit(&t->entries[i],
								   memory_order_relaxed));
	}
	free((void *)atomic_load_explicit(&t->default_entry, memory_order_relaxed));
	p4odp__cuckoo_free(atomic_load_explicit(&t->cuckoo, memory_order_relaxed));
	if (w->dir)
		p4odp__dir_fini(t);
	if (w->tss)
		p4odp__tss_fini(t);
	if (w->trie)
		p4odp__trie_fini(t);
	if (w->own_rcu)
		p4odp_rcu_destroy(w->rcu);
	p4odp__idpool_fini(&w->ids);
	free_pm(&w->pm);
	free_pm(&w->pm2);
	free(w->kw);
	free(w->map_idx);
	free(w->map_hash);
	free(w->gen);
	free(w->ident);
	free(w->prio);
	free(w->seq);
	free(w->aux);
	free(w->fields);
	free(w->dump);
	free(w->name);
	p4odp__pages_free(t->entries, w->max_entries * sizeof(*t->entries));
	free(w);
	free(t);
}

/* ---- Entries ---- */

/* A handle is the entry's index, and above it how many entries held that
 * index before (gen counts adds and removals, so it is odd while the index
 * is in use): the first entries of a table get handles 0, 1, 2, ... as on
 * BMv2, and the handle of a deleted entry never names its successor. */
static uint64_t reuses(const struct p4odp__writer *w, uint32_t idx)
{
	return (w->gen[idx] >> 1) & 0x7fffffffu;
}

static int64_t handle_of(const struct p4odp__writer *w, uint32_t idx)
{
	return (int64_t)(reuses(w, idx) << 32 | idx);
}

/* Index of a live handle, or -ENOENT. */
static int64_t handle_idx(const struct p4odp__writer *w, int64_t handle)
{
	uint32_t idx = (uint32_t)handle;

	if (handle < 0 || idx >= w->max_entries || !p4odp__used(w, idx) ||
	    reuses(w, idx) != (uint64_t)handle >> 32)
		return -ENOENT;
	return idx;
}

static const struct p4odp_table_entry *entry_at(const struct p4odp_table *t, uint32_t idx)
{
	return atomic_load_explicit(&t->entries[idx], memory_order_relaxed);
}

static void after_write(struct p4odp_table *t)
{
	p4odp_rcu_poll(t->w->rcu);
}

int64_t p4odp_table_add(struct p4odp_table *t, const struct p4odp_match *m, uint16_t action_id,
			const void *data)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__pmatch *pm = &w->pm;
	struct p4odp_table_entry *e;
	uint32_t idx;
	int err;

	if (t->kind == P4ODP_TABLE_EMPTY)
		return -EINVAL;
	err = parse(t, m, pm);
	if (err)
		return err;
	if (p4odp__map_find(w, pm->ident) >= 0)
		return -EEXIST;
	if (w->count >= w->max_entries)
		return -ENOSPC;
	err = p4odp__idpool_get(&w->ids, w->rcu, true, &idx, &w->st.index_waits);
	if (err)
		return err;
	if (t->kind == P4ODP_TABLE_CUCKOO)
		p4odp__words(pm->value, t->key_len, w->kw);
	e = entry_new(t, idx, action_id, data, t->kind == P4ODP_TABLE_CUCKOO ? w->kw : NULL);
	if (!e) {
		p4odp__idpool_put(&w->ids, idx);
		return -ENOMEM;
	}
	memcpy(w->ident + (size_t)idx * w->ident_len, pm->ident, w->ident_len);
	if (w->prio) {
		w->prio[idx] = pm->priority;
		w->seq[idx] = w->next_seq++;
	}
	atomic_store_explicit(&t->entries[idx], e, memory_order_release);
	switch (t->kind) {
	case P4ODP_TABLE_CUCKOO: {
		struct p4odp__cuckoo *h = atomic_load_explicit(&t->cuckoo, memory_order_relaxed);
		struct p4odp__cuckoo *old;

		err = p4odp__cuckoo_add(&h, e, &old, &w->st.cuckoo_moves, &w->st.rebuilds);
		if (!err && old) {
			atomic_store_explicit(&t->cuckoo, h, memory_order_release);
			p4odp__defer_free(w->rcu, p4odp__cuckoo_mem(old));
		}
		break;
	}
	case P4ODP_TABLE_DIR24:
		err = p4odp__dir_add(t, idx, pm);
		break;
	case P4ODP_TABLE_TRIE:
		err = p4odp__trie_add(t, idx, pm);
		break;
	case P4ODP_TABLE_CODE:
		break;
	default:
		err = p4odp__tss_add(t, idx, pm);
		break;
	}
	if (err) {
		atomic_store_explicit(&t->entries[idx], NULL, memory_order_relaxed);
		free(e);
		p4odp__idpool_put(&w->ids, idx);
		return err;
	}
	w->gen[idx]++;
	map_insert(w, idx);
	w->count++;
	w->st.adds++;
	after_write(t);
	return handle_of(w, idx);
}

int64_t p4odp_table_find(const struct p4odp_table *t, const struct p4odp_match *m)
{
	struct p4odp__writer *w = t->w;
	int64_t idx;
	int err;

	if (t->kind == P4ODP_TABLE_EMPTY)
		return -EINVAL;
	err = parse(t, m, &w->pm);
	if (err)
		return err;
	idx = p4odp__map_find(w, w->pm.ident);
	return idx < 0 ? -ENOENT : handle_of(w, (uint32_t)idx);
}

int p4odp_table_modify(struct p4odp_table *t, int64_t handle, uint16_t action_id,
		       const void *data)
{
	struct p4odp__writer *w = t->w;
	int64_t idx = handle_idx(w, handle);
	const struct p4odp_table_entry *old;
	struct p4odp_table_entry *e;
	const uint64_t *kw = NULL;

	if (idx < 0)
		return (int)idx;
	old = entry_at(t, (uint32_t)idx);
	if (t->kind == P4ODP_TABLE_CUCKOO)
		kw = (const uint64_t *)(old->data + p4odp__round8(w->data_len));
	e = entry_new(t, (uint32_t)idx, action_id, data, kw);
	if (!e)
		return -ENOMEM;
	atomic_store_explicit(&t->entries[idx], e, memory_order_release);
	if (t->kind == P4ODP_TABLE_CUCKOO)
		p4odp__cuckoo_replace(atomic_load_explicit(&t->cuckoo, memory_order_relaxed), old, e);
	p4odp__defer_free(w->rcu, (void *)old);
	w->st.modifies++;
	after_write(t);
	return 0;
}

int p4odp_table_modify_match(struct p4odp_table *t, const struct p4odp_match *m,
			     uint16_t action_id, const void *data)
{
	int64_t h = p4odp_table_find(t, m);

	return h < 0 ? (int)h : p4odp_table_modify(t, h, action_id, data);
}

int p4odp_table_delete(struct p4odp_table *t, int64_t handle)
{
	struct p4odp__writer *w = t->w;
	int64_t idx = handle_idx(w, handle);
	const struct p4odp_table_entry *e;
	int err = 0;

	if (idx < 0)
		return (int)idx;
	e = entry_at(t, (uint32_t)idx);
	switch (t->kind) {
	case P4ODP_TABLE_CUCKOO:
		err = p4odp__cuckoo_remove(atomic_load_explicit(&t->cuckoo, memory_order_relaxed), e);
		break;
	case P4ODP_TABLE_DIR24:
		p4odp__decode(t, (uint32_t)idx, &w->pm2);
		err = p4odp__dir_del(t, (uint32_t)idx, &w->pm2);
		break;
	case P4ODP_TABLE_TRIE:
		p4odp__decode(t, (uint32_t)idx, &w->pm2);
		err = p4odp__trie_del(t, (uint32_t)idx, &w->pm2);
		break;
	case P4ODP_TABLE_CODE:
		break;
	default:
		p4odp__decode(t, (uint32_t)idx, &w->pm2);
		err = p4odp__tss_del(t, (uint32_t)idx, &w->pm2);
		break;
	}
	if (err)
		return err;
	map_remove(w, (uint32_t)idx);
	w->gen[idx]++;
	w->count--;
	/* Readers may still hold the index or the entry: both wait for a
	 * grace period. t->entries[idx] keeps pointing to the entry until
	 * the index is reused. */
	p4odp__idpool_retire(&w->ids, (uint32_t)idx, p4odp_rcu_cookie(w->rcu));
	p4odp__defer_free(w->rcu, (void *)e);
	w->st.deletes++;
	after_write(t);
	return 0;
}

int p4odp_table_delete_match(struct p4odp_table *t, const struct p4odp_match *m)
{
	int64_t h = p4odp_table_find(t, m);

	return h < 0 ? (int)h : p4odp_table_delete(t, h);
}

int p4odp_table_clear(struct p4odp_table *t)
{
	struct p4odp__writer *w = t->w;
	struct p4odp__bulk bulk = {0};
	uint64_t cookie;
	int err = 0;

	/* Gather first so that running out of memory changes nothing. */
	for (uint32_t i = 0; i < w->max_entries && !err; i++)
		if (p4odp__used(w, i))
			err = p4odp__bulk_add(&bulk, (void *)entry_at(t, i));
	if (err)
		goto fail;
	switch (t->kind) {
	case P4ODP_TABLE_CUCKOO: {
		struct p4odp__cuckoo *old = atomic_load_explicit(&t->cuckoo, memory_order_relaxed);
		struct p4odp__cuckoo *h = p4odp__cuckoo_new(old->mask + 1, old->key_words, old->key_off);

		if (!h || p4odp__bulk_add(&bulk, p4odp__cuckoo_mem(old))) {
			p4odp__cuckoo_free(h);
			err = -ENOMEM;
			goto fail;
		}
		atomic_store_explicit(&t->cuckoo, h, memory_order_release);
		break;
	}
	case P4ODP_TABLE_DIR24:
		err = p4odp__dir_clear(t);
		break;
	case P4ODP_TABLE_TRIE:
		err = p4odp__trie_clear(t, &bulk);
		break;
	case P4ODP_TABLE_TSS_LPM:
	case P4ODP_TABLE_TSS:
		err = p4odp__tss_clear(t, &bulk);
		break;
	default:
		break;
	}
	if (err)
		goto fail;
	cookie = p4odp_rcu_cookie(w->rcu);
	for (uint32_t i = 0; i < w->max_entries; i++) {
		if (p4odp__used(w, i)) {
			w->gen[i]++;
			p4odp__idpool_retire(&w->ids, i, cookie);
		}
	}
	memset(w->map_idx, 0, ((size_t)w->map_mask + 1) * sizeof(*w->map_idx));
	w->count = 0;
	w->st.clears++;
	p4odp__bulk_defer(w->rcu, &bulk);
	after_write(t);
	return 0;
fail:
	free(bulk.p);
	return err;
}

int p4odp_table_set_default(struct p4odp_table *t, uint16_t action_id, const void *data)
{
	struct p4odp_table_entry *e = entry_new(t, P4ODP_TABLE_NO_INDEX, action_id, data, NULL);
	const struct p4odp_table_entry *old;

	if (!e)
		return -ENOMEM;
	old = atomic_exchange_explicit(&t->default_entry, e, memory_order_acq_rel);
	p4odp__defer_free(t->w->rcu, (void *)old);
	after_write(t);
	return 0;
}

/* ---- Dumps and facts ---- */

int p4odp_table_get(const struct p4odp_table *t, int64_t handle, p4odp_table_visit_fn fn,
		    void *arg)
{
	const struct p4odp__writer *w = t->w;
	int64_t idx = handle_idx(w, handle);
	struct p4odp_match m;

	if (idx < 0)
		return (int)idx;
	dump_match(t, (uint32_t)idx, &m, w->dump);
	return fn(arg, handle, &m, entry_at(t, (uint32_t)idx));
}

int p4odp_table_foreach(const struct p4odp_table *t, p4odp_table_visit_fn fn, void *arg)
{
	const struct p4odp__writer *w = t->w;

	for (uint32_t i = 0; i < w->max_entries; i++) {
		if (p4odp__used(w, i)) {
			struct p4odp_match m;
			int r;

			dump_match(t, i, &m, w->dump);
			r = fn(arg, handle_of(w, i), &m, entry_at(t, i));
			if (r)
				return r;
		}
	}
	return 0;
}

uint32_t p4odp_table_count(const struct p4odp_table *t)
{
	return t->w->count;
}

uint32_t p4odp_table_key_len(const struct p4odp_table *t)
{
	return t->key_len;
}

enum p4odp_table_kind p4odp_table_kind(const struct p4odp_table *t)
{
	return (enum p4odp_table_kind)t->kind;
}

const char *p4odp_table_kind_name(const struct p4odp_table *t)
{
	return kind_names[t->kind];
}

const char *p4odp_table_name(const struct p4odp_table *t)
{
	return t->w->name;
}

void p4odp_table_stats(const struct p4odp_table *t, struct p4odp_table_stats *st)
{
	const struct p4odp__writer *w = t->w;

	*st = w->st;
	st->entries = w->count;
	switch (t->kind) {
	case P4ODP_TABLE_CUCKOO:
		st->buckets = atomic_load_explicit(&t->cuckoo, memory_order_relaxed)->mask + 1;
		break;
	case P4ODP_TABLE_DIR24:
		st->groups = p4odp__dir_groups(t);
		break;
	case P4ODP_TABLE_TRIE:
		st->groups = p4odp__trie_nodes(t);
		break;
	case P4ODP_TABLE_TSS_LPM:
	case P4ODP_TABLE_TSS:
		st->groups = p4odp__tss_groups(t);
		break;
	}
}

/* ---- Bursts ---- */

/*
 * Each structure's burst runs its lookups in stages, each stage one step of
 * every key of the burst, prefetching what the next stage reads: the cache
 * misses of the keys overlap instead of following each other.
 */

/* Cuckoo: hash every key and prefetch both its buckets; then find the
 * first object whose tag matches and prefetch its key; then compare the
 * keys, and look up again in full where that fails (a second candidate,
 * the other bucket, an object moving). */
static void cuckoo_burst(const struct p4odp_table *t, const uint8_t *const keys[], uint32_t n,
			 const struct p4odp_table_entry *out[])
{
	const struct p4odp__cuckoo *h = atomic_load_explicit(&t->cuckoo, memory_order_acquire);
	uint32_t len = t->key_len;
	uint64_t w[P4ODP_TABLE_BURST][2], hv[P4ODP_TABLE_BURST];
	const void *cand[P4ODP_TABLE_BURST];

	for (uint32_t i = 0; i < n; i++) {
		uint32_t b1, b2;
		uint64_t pat;

		hv[i] = p4odp__short_key(keys[i], len, w[i]);
		p4odp__cuckoo_pos(h, hv[i], &b1, &b2, &pat);
		P4ODP__PREFETCH(&h->b[b1]);
		P4ODP__PREFETCH(&h->b[b2]);
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t b1, b2;
		uint64_t pat, m;

		p4odp__cuckoo_pos(h, hv[i], &b1, &b2, &pat);
		m = p4odp__tag_match(atomic_load_explicit(&h->b[b1].tags, memory_order_acquire), pat);
		if (!m) {
			b1 = b2;
			m = p4odp__tag_match(atomic_load_explicit(&h->b[b1].tags, memory_order_acquire),
					     pat);
		}
		cand[i] = m ? atomic_load_explicit(&h->b[b1].obj[p4odp__tag_slot(m)],
						   memory_order_acquire)
			    : NULL;
		if (cand[i])
			P4ODP__PREFETCH(p4odp__obj_key(h->key_off, cand[i]));
	}
	for (uint32_t i = 0; i < n; i++) {
		const uint64_t *k = cand[i] ? p4odp__obj_key(h->key_off, cand[i]) : NULL;

		if (k && k[0] == w[i][0] && (len <= 8 || k[1] == w[i][1]))
			out[i] = cand[i];
		else
			out[i] = p4odp__cuckoo_find(h, hv[i], w[i], len <= 8 ? 1 : 2);
	}
}

/* DIR-24-8: the tbl1 slots, then the tbl8 slots where they point. */
static void dir_burst(const struct p4odp_table *t, const uint8_t *const keys[], uint32_t n,
		      const struct p4odp_table_entry *out[])
{
	const struct p4odp__dir *d = atomic_load_explicit(&t->dir, memory_order_acquire);
	const _Atomic uint32_t *slot[P4ODP_TABLE_BURST];
	uint32_t v[P4ODP_TABLE_BURST];

	for (uint32_t i = 0; i < n; i++) {
		v[i] = 0;
		for (uint32_t j = 0; j < t->key_len; j++)
			v[i] = v[i] << 8 | keys[i][j];
		slot[i] = &d->tbl1[v[i] >> d->b2];
		P4ODP__PREFETCH(slot[i]);
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = atomic_load_explicit(slot[i], memory_order_acquire);

		if (x & P4ODP__DIR_EXT) {
			slot[i] = atomic_load_explicit(&d->tbl8, memory_order_acquire) +
				  ((x & ~P4ODP__DIR_EXT) << d->b2) + (v[i] & ((1u << d->b2) - 1));
			P4ODP__PREFETCH(slot[i]);
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t x = atomic_load_explicit(slot[i], memory_order_acquire);

		out[i] = x ? atomic_load_explicit(&t->entries[x - 1], memory_order_acquire) : NULL;
	}
}

/* Trie: every key one level down per round, the next nodes prefetched. */
static void trie_burst(const struct p4odp_table *t, const uint8_t *const keys[], uint32_t n,
		       const struct p4odp_table_entry *out[])
{
	const struct p4odp__trie *tr = atomic_load_explicit(&t->trie, memory_order_acquire);
	const struct p4odp__trie_node *node[P4ODP_TABLE_BURST];
	const struct p4odp__trie_tail *tail[P4ODP_TABLE_BURST];
	const uint32_t *leaf[P4ODP_TABLE_BURST];
	uint32_t x[P4ODP_TABLE_BURST], pos = tr->pad + P4ODP__TRIE_ROOT_BITS;
	bool more = false;

	for (uint32_t i = 0; i < n; i++)
		P4ODP__PREFETCH(&tr->root[p4odp__trie_root_index(tr, keys[i])]);
	for (uint32_t i = 0; i < n; i++) {
		uintptr_t s = atomic_load_explicit(&tr->root[p4odp__trie_root_index(tr, keys[i])],
						   memory_order_acquire);

		x[i] = (uint32_t)(s >> 1);
		node[i] = s & 1 ? (const struct p4odp__trie_node *)(s - 1) : NULL;
		leaf[i] = NULL;
		tail[i] = NULL;
		if (node[i]) {
			P4ODP__PREFETCH(node[i]);
			more = true;
		}
	}
	for (; more; pos += P4ODP__TRIE_STRIDE) {
		more = false;
		for (uint32_t i = 0; i < n; i++) {
			if (!node[i])
				continue;
			node[i] = p4odp__trie_step(node[i], keys[i], t->key_len, pos, &leaf[i], &tail[i]);
			if (node[i])
				P4ODP__PREFETCH(node[i]);
			else if (leaf[i])
				P4ODP__PREFETCH(leaf[i]);
			else
				P4ODP__PREFETCH(tail[i]);
			more |= node[i] != NULL;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (leaf[i])
			x[i] = *leaf[i];
		else if (tail[i])
			x[i] = p4odp__trie_tail_leaf(tail[i], keys[i], t->key_len);
		if (x[i])
			P4ODP__PREFETCH(&t->entries[x[i] - 1]);
	}
	for (uint32_t i = 0; i < n; i++)
		out[i] = x[i] ? atomic_load_explicit(&t->entries[x[i] - 1], memory_order_acquire) : NULL;
}

void p4odp_table_lookup_burst(const struct p4odp_table *t, const uint8_t *const keys[],
			      uint32_t n, const struct p4odp_table_entry *out[])
{
	for (uint32_t base = 0; base < n; base += P4ODP_TABLE_BURST) {
		uint32_t m = n - base < P4ODP_TABLE_BURST ? n - base : P4ODP_TABLE_BURST;

		/* Keys longer than 16 bytes and tuple spaces: one by one. */
		if (t->kind == P4ODP_TABLE_CUCKOO && t->key_len <= 16) {
			cuckoo_burst(t, keys + base, m, out + base);
		} else if (t->kind == P4ODP_TABLE_DIR24) {
			dir_burst(t, keys + base, m, out + base);
		} else if (t->kind == P4ODP_TABLE_TRIE) {
			trie_burst(t, keys + base, m, out + base);
		} else {
			for (uint32_t i = 0; i < m; i++)
				out[base + i] = p4odp_table_lookup(t, keys[base + i]);
		}
	}
}
