/*
 * Random entries against the brute-force model of table_test.h: adds
 * (with duplicates), lookups on keys that hit and keys that do not, deletes
 * and modifies by handle and by match, adds and deletes interleaved, clear,
 * dumps.
 * Usage: table_model CONFIG [SEED [ENTRIES]]  (prints "table_model CONFIG: OK").
 */
#include "table_test.h"

#define E P4ODP_MATCH_EXACT
#define L P4ODP_MATCH_LPM
#define T P4ODP_MATCH_TERNARY
#define R P4ODP_MATCH_RANGE
#define O P4ODP_MATCH_OPTIONAL

static const struct config *cfg;

static const struct config {
	const char *name;
	uint32_t n;
	struct p4odp_key_field f[FMAX];
	uint32_t entries;
	int kind;
	bool any_plen;  /* lpm prefix lengths uniform, not mostly long */
} configs[] = {
	{"lpm8", 1, {{8, L}}, 200, P4ODP_TABLE_DIR24, false},
	{"lpm12", 1, {{12, L}}, 1500, P4ODP_TABLE_DIR24, false},
	{"lpm25", 1, {{25, L}}, 2000, P4ODP_TABLE_DIR24, false},
	{"lpm32", 1, {{32, L}}, 3000, P4ODP_TABLE_DIR24, false},
	{"lpm33", 1, {{33, L}}, 3000, P4ODP_TABLE_TRIE, false},
	{"lpm48", 1, {{48, L}}, 3000, P4ODP_TABLE_TRIE, false},
	{"lpm64", 1, {{64, L}}, 3000, P4ODP_TABLE_TRIE, false},
	{"lpm128", 1, {{128, L}}, 3000, P4ODP_TABLE_TRIE, false},
	{"lpm128_any", 1, {{128, L}}, 3000, P4ODP_TABLE_TRIE, true},
	{"lpm40_any", 1, {{40, L}}, 3000, P4ODP_TABLE_TRIE, true},
	{"lpm203", 1, {{203, L}}, 2000, P4ODP_TABLE_TRIE, false},
	{"exact16_lpm32", 2, {{16, E}, {32, L}}, 3000, P4ODP_TABLE_TSS_LPM, false},
	{"exact8_lpm128_exact9", 3, {{8, E}, {128, L}, {9, E}}, 3000, P4ODP_TABLE_TSS_LPM, false},
	{"exact", 3, {{32, E}, {16, E}, {5, E}}, 3000, P4ODP_TABLE_CUCKOO, false},
	{"exact_long", 2, {{128, E}, {128, E}}, 3000, P4ODP_TABLE_CUCKOO, false},
	{"ternary", 3, {{32, T}, {16, T}, {8, T}}, 3000, P4ODP_TABLE_TSS, false},
	{"ternary_wide", 3, {{128, T}, {128, T}, {16, E}}, 2000, P4ODP_TABLE_TSS, false},
	{"range", 2, {{16, R}, {12, R}}, 1000, P4ODP_TABLE_TSS, false},
	{"optional", 3, {{8, O}, {32, O}, {16, E}}, 2000, P4ODP_TABLE_TSS, false},
	{"mixed", 5, {{8, E}, {32, T}, {16, R}, {9, O}, {24, L}}, 3000, P4ODP_TABLE_TSS, false},
};

static struct layout lay;
static struct ref *refs;
static uint32_t n_refs, cap_refs;
static uint64_t next_seq;
static uint8_t pool[FMAX][6][KMAX];   /* values per field, for overlaps */
static uint8_t masks[FMAX][6][KMAX];  /* ternary masks per field */
static const uint32_t data_len = 12;

static void setup_pools(void)
{
	for (uint32_t i = 0; i < lay.n; i++) {
		for (int k = 0; k < 6; k++) {
			field_random(&lay, i, pool[i][k]);
			field_random(&lay, i, masks[i][k]);
		}
		field_ones(&lay, i, masks[i][0]);
		memset(masks[i][1] + lay.off[i], 0, lay.bytes[i]);
		/* a prefix-like mask */
		memset(masks[i][2] + lay.off[i], 0, lay.bytes[i]);
		for (uint32_t b = 0; b < lay.f[i].width_bits / 2; b++)
			field_bit(&lay, i, b, masks[i][2]);
	}
}

static uint32_t random_plen(uint32_t width)
{
	/* Mostly long prefixes: short ones are few (and expensive to
	 * write in DIR-24-8), but some of every length. */
	if (cfg->any_plen || rnd_below(50) == 0)
		return rnd_below(width + 1);
	return width / 2 + rnd_below(width - width / 2 + 1);
}

static void random_entry(struct ref *r)
{
	memset(r, 0, sizeof(*r));
	for (uint32_t i = 0; i < lay.n; i++) {
		uint32_t o = lay.off[i], n = lay.bytes[i], w = lay.f[i].width_bits;
		uint8_t *src = pool[i][rnd_below(6)];
		uint8_t tmp[KMAX];

		if (rnd() & 1) {
			field_random(&lay, i, tmp);
			src = tmp;
		}
		switch (lay.f[i].match_kind) {
		case E:
			memcpy(r->val + o, (rnd() & 3) ? pool[i][rnd_below(3)] + o : src + o, n);
			field_ones(&lay, i, r->mask);
			break;
		case L:
			r->plen[i] = random_plen(w);
			for (uint32_t b = 0; b < r->plen[i]; b++)
				field_bit(&lay, i, b, r->mask);
			for (uint32_t k = o; k < o + n; k++)
				r->val[k] = src[k] & r->mask[k];
			break;
		case T:
			if (rnd_below(8) == 0) {
				r->wild[i] = true;
				break;
			}
			memcpy(r->mask + o, masks[i][rnd_below(6)] + o, n);
			for (uint32_t k = o; k < o + n; k++)
				r->val[k] = src[k] & r->mask[k];
			break;
		case R: {
			uint64_t max = (1ull << w) - 1, lo, hi;

			if (rnd_below(8) == 0) {
				r->wild[i] = true;
				lo = 0;
				hi = max;
			} else {
				lo = rnd() & max;
				hi = lo + rnd() % ((max - lo) / 4 + 1);
			}
			for (uint32_t k = n; k-- > 0; lo >>= 8, hi >>= 8) {
				r->lo[o + k] = (uint8_t)lo;
				r->hi[o + k] = (uint8_t)hi;
			}
			break;
		}
		case O:
			if (rnd() & 1) {
				r->wild[i] = true;
				break;
			}
			memcpy(r->val + o, src + o, n);
			field_ones(&lay, i, r->mask);
			break;
		}
	}
	r->prio = (int32_t)rnd_below(16) - 4;  /* many ties */
	r->action = (uint16_t)rnd();
	random_data(r->data, data_len);
}

static struct ref *find_live(const struct ref *r)
{
	for (uint32_t i = 0; i < n_refs; i++)
		if (refs[i].live && ref_same(&lay, &refs[i], r))
			return &refs[i];
	return NULL;
}

static void add_random(struct p4odp_table *t, uint32_t count)
{
	for (uint32_t added = 0; added < count;) {
		struct ref r;
		struct p4odp_match m;
		int64_t h;

		bool full = p4odp_table_count(t) == cfg->entries * 2;

		random_entry(&r);
		m = ref_match(&lay, &r);
		h = p4odp_table_add(t, &m, r.action, r.data);
		if (find_live(&r)) {
			CHECK_EQ(h, -EEXIST);
			continue;
		}
		if (full) {
			CHECK_EQ(h, -ENOSPC);
			return;
		}
		CHECK(h >= 0);
		CHECK(n_refs < cap_refs);
		r.handle = h;
		r.seq = next_seq++;
		r.live = true;
		refs[n_refs++] = r;
		added++;
	}
}

static uint32_t n_live(void)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < n_refs; i++)
		n += refs[i].live;
	return n;
}

static struct ref *random_live(void)
{
	uint32_t live = n_live(), k;

	if (!live)
		return NULL;
	k = rnd_below(live);
	for (uint32_t i = 0; i < n_refs; i++)
		if (refs[i].live && !k--)
			return &refs[i];
	return NULL;
}

static uint64_t hits, misses;

static void check_key(const struct p4odp_table *t, const uint8_t *key)
{
	const struct ref *want = ref_best(&lay, refs, n_refs, key);
	const struct p4odp_table_entry *got = p4odp_table_lookup(t, key);

	if (!want != !got) {
		fprintf(stderr, "key:");
		for (uint32_t i = 0; i < lay.key_len; i++)
			fprintf(stderr, " %02x", key[i]);
		fprintf(stderr, "\nwant %s, got %s\n", want ? "a hit" : "a miss",
			got ? "a hit" : "a miss");
		CHECK(!want == !got);
	}
	if (!want) {
		misses++;
		return;
	}
	hits++;
	if (got->index != (uint32_t)want->handle) {
		const struct ref *other = NULL;

		for (uint32_t i = 0; i < n_refs; i++)
			if (refs[i].live && (uint32_t)refs[i].handle == got->index)
				other = &refs[i];
		fprintf(stderr, "want index %u (prio %d seq %llu), got %u (prio %d seq %llu, %s)\n",
			(uint32_t)want->handle, want->prio, (unsigned long long)want->seq,
			got->index, other ? other->prio : 0,
			other ? (unsigned long long)other->seq : 0ull,
			other && ref_matches(&lay, other, key) ? "matches" : "does not match");
		CHECK_EQ(got->index, (uint32_t)want->handle);
	}
	CHECK_EQ(got->action_id, want->action);
	CHECK(!memcmp(got->data, want->data, data_len));
}

static void check_all(const struct p4odp_table *t, uint32_t lookups)
{
	uint8_t key[KMAX];

	CHECK_EQ(p4odp_table_count(t), n_live());
	for (uint32_t i = 0; i < lookups; i++) {
		const struct ref *r = random_live();

		if (r && rnd_below(4)) {
			ref_key(&lay, r, key);
		} else {
			for (uint32_t f = 0; f < lay.n; f++)
				field_random(&lay, f, key);
		}
		check_key(t, key);
	}
}

struct dump_state {
	uint32_t n;
};

static int visit(void *arg, int64_t handle, const struct p4odp_match *m,
		 const struct p4odp_table_entry *e)
{
	struct dump_state *s = arg;
	struct ref *r = NULL;

	for (uint32_t i = 0; i < n_refs && !r; i++)
		if (refs[i].live && refs[i].handle == handle)
			r = &refs[i];
	CHECK(r);
	CHECK_EQ(e->action_id, r->action);
	CHECK(!memcmp(e->data, r->data, data_len));
	if (!lay.lpm_only)
		CHECK_EQ(m->priority, r->prio);
	for (uint32_t i = 0; i < lay.n; i++) {
		const struct p4odp_field_match *fm = &m->fields[i];
		uint32_t o = lay.off[i], n = lay.bytes[i];

		switch (lay.f[i].match_kind) {
		case E:
			CHECK(!memcmp(fm->value, r->val + o, n));
			break;
		case L:
			CHECK_EQ(fm->prefix_len, r->plen[i]);
			CHECK(!memcmp(fm->value, r->val + o, n));
			break;
		case T:
			CHECK(!memcmp(fm->mask, r->mask + o, n));
			CHECK(!memcmp(fm->value, r->val + o, n));
			break;
		case R:
			CHECK(!memcmp(fm->low, r->lo + o, n));
			CHECK(!memcmp(fm->high, r->hi + o, n));
			break;
		case O:
			CHECK_EQ(fm->wildcard, r->wild[i]);
			if (!fm->wildcard)
				CHECK(!memcmp(fm->value, r->val + o, n));
			break;
		}
	}
	s->n++;
	return 0;
}

int main(int argc, char **argv)
{
	struct p4odp_table *t;
	struct p4odp_table_stats st;
	struct dump_state ds = {0};
	uint32_t lookups = 20000, n;

	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++)
		if (argc > 1 && !strcmp(argv[1], configs[i].name))
			cfg = &configs[i];
	if (!cfg) {
		fprintf(stderr, "usage: %s CONFIG [SEED [ENTRIES]]\n", argv[0]);
		return 2;
	}
	if (argc > 2)
		rng_state = strtoull(argv[2], NULL, 0);
	n = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : cfg->entries;
	layout_init(&lay, cfg->n, cfg->f);
	setup_pools();
	cap_refs = 8 * (n > cfg->entries ? n : cfg->entries) + 16;
	refs = calloc(cap_refs, sizeof(*refs));
	CHECK(refs);
	t = layout_table(&lay, 2 * cfg->entries, data_len, NULL);
	CHECK_EQ(p4odp_table_kind(t), cfg->kind);

	/* 1. adds */
	add_random(t, n);
	check_all(t, lookups);

	/* 2. delete a third (by handle or by match), modify a third */
	for (uint32_t i = 0; i < n_refs; i++) {
		struct ref *r = &refs[i];
		struct p4odp_match m = ref_match(&lay, r);

		switch (rnd_below(6)) {
		case 0:
			CHECK_EQ(p4odp_table_delete(t, r->handle), 0);
			r->live = false;
			break;
		case 1:
			CHECK_EQ(p4odp_table_delete_match(t, &m), 0);
			CHECK_EQ(p4odp_table_delete(t, r->handle), -ENOENT);
			r->live = false;
			break;
		case 2:
			r->action = (uint16_t)rnd();
			random_data(r->data, data_len);
			CHECK_EQ(p4odp_table_modify(t, r->handle, r->action, r->data), 0);
			break;
		case 3:
			r->action = (uint16_t)rnd();
			random_data(r->data, data_len);
			CHECK_EQ(p4odp_table_modify_match(t, &m, r->action, r->data), 0);
			break;
		}
	}
	check_all(t, lookups);
	CHECK_EQ(p4odp_table_foreach(t, visit, &ds), 0);
	CHECK_EQ(ds.n, n_live());

	/* 2b. adds and deletes interleaved, checked as they go */
	for (uint32_t i = 0; i < n; i++) {
		struct ref *r = rnd() & 1 ? random_live() : NULL;

		if (r) {
			CHECK_EQ(p4odp_table_delete(t, r->handle), 0);
			r->live = false;
		} else if (n_refs < cap_refs) {
			add_random(t, 1);
		}
		if (i % 64 == 0)
			check_all(t, 64);
	}
	check_all(t, lookups);

	/* 3. more adds, up to the table's limit */
	add_random(t, n / 2);
	check_all(t, lookups);
	add_random(t, 2 * cfg->entries);  /* stops at -ENOSPC */
	CHECK_EQ(p4odp_table_count(t), 2 * cfg->entries);
	check_all(t, lookups / 4);

	/* 4. delete most */
	for (uint32_t i = 0; i < n_refs; i++) {
		if (refs[i].live && rnd_below(10)) {
			CHECK_EQ(p4odp_table_delete(t, refs[i].handle), 0);
			refs[i].live = false;
		}
	}
	check_all(t, lookups / 4);
	/* 5. delete the rest: nothing left behind (DIR-24-8 groups, trie
	 * nodes, tuple-space groups); then add, clear, and start again */
	for (uint32_t i = 0; i < n_refs; i++) {
		if (refs[i].live) {
			CHECK_EQ(p4odp_table_delete(t, refs[i].handle), 0);
			refs[i].live = false;
		}
	}
	p4odp_table_stats(t, &st);
	CHECK_EQ(st.entries, 0);
	CHECK_EQ(st.groups, 0);
	check_all(t, 1000);
	n_refs = 0;
	add_random(t, n / 2);
	CHECK_EQ(p4odp_table_clear(t), 0);
	for (uint32_t i = 0; i < n_refs; i++)
		refs[i].live = false;
	p4odp_table_stats(t, &st);
	CHECK_EQ(st.groups, 0);
	check_all(t, 1000);
	n_refs = 0;
	add_random(t, n / 4);
	check_all(t, lookups / 2);
	p4odp_table_stats(t, &st);
	printf("table_model %s: %s, %llu hits, %llu misses, %u groups, %llu moves, %llu rebuilds\n",
	       cfg->name, p4odp_table_kind_name(t), (unsigned long long)hits,
	       (unsigned long long)misses, st.groups, (unsigned long long)st.cuckoo_moves,
	       (unsigned long long)st.rebuilds);
	CHECK(hits > lookups);
	p4odp_table_destroy(t);
	free(refs);
	printf("table_model %s: OK\n", cfg->name);
	return 0;
}
