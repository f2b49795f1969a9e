/*
 * The control-plane API (runtime/include/p4odp_control.h) alone, on a program
 * of its own written here: no P4 program, no compiler, no ports.
 *
 * Each sub-test makes the calls a front door would, with good and bad
 * arguments, and checks the error code of each refused call and that it
 * changed nothing: the entries, members, groups, nodes, sessions and cells
 * read back through the API are those before the call.
 *
 * Usage: control_test TEST   (prints "control_test TEST: OK"); control_test --list
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odp_test.h"
#include "switch.h"

/* What the current checks are about, printed when one fails. */
static const char *context = "";

static void set_context(const char *text)
{
	context = text;
}

#define CHECK_EQ(got, want)                                                                      \
	do {                                                                                     \
		long long got_ = (long long)(got), want_ = (long long)(want);                     \
		if (got_ != want_) {                                                             \
			fprintf(stderr, "%s:%d: %s: %s is %lld, expected %lld\n", __FILE__, __LINE__, \
				context, #got, got_, want_);                                     \
			exit(1);                                                                 \
		}                                                                                \
	} while (0)

/* ---- The program: two tables (one direct with idle timeouts, one naming members and groups of
 * a selector), counters, a meter, a register, a value set. ---- */

struct p4odp_packet_state {
	uint8_t unused;
};

struct pair {
	uint8_t a;
	uint16_t b;	/* int<12> */
};

struct shared_state {
	struct p4odp_meter meters[2];
	uint16_t reg[2];
	struct pair pairs[2];
	uint8_t value_set[2][3];
	uint8_t reg_lock;
};

struct worker_state {
	uint64_t counter[4][2];
	uint64_t direct[4][2];
	uint64_t last_hit[4];
};

enum { T_DIRECT, T_INDIRECT };
enum { A_SET = 1, A_DROP = 2, A_OTHER = 3 };

static const struct p4odp_param_info set_params[] = { { "v", 12, false } };
static const struct p4odp_action_info actions[] = {
	{ A_SET, "set", 1, set_params },
	{ A_DROP, "drop", 0, NULL },
	{ A_OTHER, "other", 0, NULL },
};
static const struct p4odp_key_field_info keys[] = {
	{ "a", 8, P4ODP_MATCH_EXACT, false },
	{ "b", 16, P4ODP_MATCH_TERNARY, false },
};
static const uint32_t table_actions[] = { A_SET, A_DROP };
static const uint8_t no_data[4];
/* The direct table's const entry: a = 7, b = 0x0100 &&& 0xff00, priority 5, set(0x123). */
static const uint8_t const_a[] = { 7 }, const_b[] = { 0x01, 0x00 }, const_mask[] = { 0xff, 0x00 };
static const struct p4odp_field_match const_fields[] = {
	{ .value = const_a }, { .value = const_b, .mask = const_mask },
};
static const uint8_t const_data[] = { 0x01, 0x23 };
static const struct p4odp_const_entry const_entries[] = { { const_fields, 5, A_SET, const_data } };
static const struct p4odp_table_info tables[] = {
	[T_DIRECT] = { "direct", 2, keys, 2, table_actions, 4, 2, A_DROP, no_data, 0, false, 1, const_entries,
		       P4ODP_TABLE_AUTO, -1, true, offsetof(struct worker_state, last_hit) },
	[T_INDIRECT] = { "indirect", 1, keys, 2, table_actions, 4, 4, A_DROP, no_data, 0, false, 0, NULL,
			 P4ODP_TABLE_AUTO, 0, false, 0 },
};
static const struct p4odp_profile_info profiles[] = { { "sel", 3, 2, true, 2, table_actions } };
static const struct p4odp_counter_info counters[] = {
	{ "c", 4, offsetof(struct worker_state, counter), -1 },
	{ "dc", 4, offsetof(struct worker_state, direct), T_DIRECT },
};
static const struct p4odp_meter_info meters[] = { { "m", 2, offsetof(struct shared_state, meters), -1, false } };
static const struct p4odp_register_field pair_fields[] = {
	{ offsetof(struct pair, a), 1, 8, false }, { offsetof(struct pair, b), 2, 12, true },
};
static const struct p4odp_register_info registers[] = {
	{ "r", 2, offsetof(struct shared_state, reg), 2, 12, true, 0, NULL, offsetof(struct shared_state, reg_lock) },
	{ "pairs", 2, offsetof(struct shared_state, pairs), sizeof(struct pair), 24, false, 2, pair_fields,
	  P4ODP_NO_LOCK },
};
static const struct p4odp_value_set_info value_sets[] = {
	{ "vs", 2, offsetof(struct shared_state, value_set), 3, 12, false },
};

static void no_ingress(struct p4odp_pctx *pc, struct p4odp_packet_state *p, const struct p4odp_reentry *again)
{
	(void)pc, (void)p, (void)again;
}

static bool no_egress(struct p4odp_pctx *pc, struct p4odp_packet_state *p, const struct p4odp_copy *copy)
{
	(void)pc, (void)p, (void)copy;
	return false;
}

const struct p4odp_program p4odp_program = {
	.name = "control_test",
	.n_tables = 2, .tables = tables,
	.n_actions = 3, .actions = actions,
	.n_counters = 2, .counters = counters,
	.n_registers = 2, .registers = registers,
	.n_meters = 1, .meters = meters,
	.n_profiles = 1, .profiles = profiles,
	.n_value_sets = 1, .value_sets = value_sets,
	.state_size = sizeof(struct shared_state),
	.worker_state_size = sizeof(struct worker_state),
	.ingress = no_ingress,
	.egress = no_egress,
};

/* ---- The switch under test: the program's state, no ports ---- */

static struct p4odp_switch sw;

static void switch_up(void)
{
	static struct p4odp_replication pre;

	sw.pre = &pre;
	sw.datapath = &p4odp_datapath;
	sw.n_workers = 2;
	CHECK(p4odp_rcu_create(&sw.rcu) == 0);
	CHECK(p4odp_program_init(&sw) == 0);
}

static void switch_down(void)
{
	p4odp_replication_destroy(&sw);
	p4odp_program_destroy(&sw);
	CHECK(p4odp_rcu_destroy(sw.rcu) == 0);
}

/* A key of the direct table: a, then b under `mask`. */
struct key {
	uint8_t a[1], b[2], mask[2];
	struct p4odp_field_match fields[2];
	struct p4odp_match m;
};

static const struct p4odp_match *key(struct key *k, uint8_t a, uint16_t b, uint16_t mask, int32_t priority)
{
	*k = (struct key){ .a = { a }, .b = { b >> 8, b & 0xff }, .mask = { mask >> 8, mask & 0xff } };
	k->fields[0] = (struct p4odp_field_match){ .value = k->a };
	k->fields[1] = (struct p4odp_field_match){ .value = k->b, .mask = k->mask };
	k->m = (struct p4odp_match){ .fields = k->fields, .priority = priority };
	return &k->m;
}

/* p4odp_table_visit_fn: the entry's action id and first data bytes into the uint32_t at `out`. */
static int read_entry(void *out, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	(void)handle, (void)m;
	*(uint32_t *)out = (uint32_t)e->action_id << 16 | (uint32_t)e->data[0] << 8 | e->data[1];
	return 0;
}

static uint32_t entry_of(uint32_t table, int64_t handle)
{
	uint32_t got = 0;
	CHECK_EQ(p4odp_ctl_entry(&sw, table, handle, read_entry, &got), 0);
	return got;
}

static void test_entries(void)
{
	struct key k;
	int64_t handle, other;
	uint8_t v[2] = { 0x0a, 0xbc }, too_wide[2] = { 0x1a, 0xbc };
	struct p4odp_action_call set = { A_SET, 0, v };

	set_context("the const entry went in through the API, with its priority");
	CHECK_EQ(p4odp_ctl_entry_count(&sw, T_DIRECT), 1);
	int64_t const_handle = p4odp_ctl_entry_find(&sw, T_DIRECT, key(&k, 7, 0x0100, 0xff00, 5));
	CHECK(const_handle >= 0);
	CHECK_EQ(entry_of(T_DIRECT, const_handle), (uint32_t)A_SET << 16 | 0x0123);

	set_context("refused: no such table, action or data, each changing nothing");
	CHECK_EQ(p4odp_ctl_entry_add(&sw, 9, key(&k, 1, 0, 0, 1), &set, &handle), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1), &(struct p4odp_action_call){ 99, 0, v },
				     &handle), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1),
				     &(struct p4odp_action_call){ A_OTHER, 0, NULL }, &handle), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1),
				     &(struct p4odp_action_call){ A_SET, 0, too_wide }, &handle), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0x00ff, 0xff00, 1), &set, &handle), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1),
				     &(struct p4odp_action_call){ P4ODP_ACTION_MEMBER, 0, NULL }, &handle), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_count(&sw, T_DIRECT), 1);

	set_context("an entry, then the same key and priority again");
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1), &set, &handle), 0);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1), &set, &other), -EEXIST);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 2), &set, &other), 0);
	CHECK_EQ(p4odp_ctl_entry_count(&sw, T_DIRECT), 3);
	CHECK_EQ(entry_of(T_DIRECT, handle), (uint32_t)A_SET << 16 | 0x0abc);

	set_context("modify: a bad action leaves the entry as it was");
	CHECK_EQ(p4odp_ctl_entry_modify(&sw, T_DIRECT, handle, &(struct p4odp_action_call){ A_SET, 0, too_wide }),
		 -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_modify(&sw, T_DIRECT, 1000, &set), -ENOENT);
	CHECK_EQ(entry_of(T_DIRECT, handle), (uint32_t)A_SET << 16 | 0x0abc);
	CHECK_EQ(p4odp_ctl_entry_modify(&sw, T_DIRECT, handle, &(struct p4odp_action_call){ A_DROP, 0, NULL }), 0);
	CHECK_EQ(entry_of(T_DIRECT, handle) >> 16, A_DROP);

	set_context("full at its size; a delete zeroes the entry's direct counter");
	int64_t last;
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 2, 0, 0, 1), &set, &last), 0);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 3, 0, 0, 1), &set, &other), -ENOSPC);
	CHECK_EQ(p4odp_ctl_counter_write(&sw, 1, (uint64_t)last, 5, 500), 0);
	uint64_t packets, bytes;
	CHECK_EQ(p4odp_ctl_counter_read(&sw, 1, (uint64_t)last, &packets, &bytes), 0);
	CHECK_EQ(packets, 5);
	CHECK_EQ(p4odp_ctl_entry_delete(&sw, T_DIRECT, last), 0);
	CHECK_EQ(p4odp_ctl_entry_delete(&sw, T_DIRECT, last), -ENOENT);
	CHECK_EQ(p4odp_ctl_counter_read(&sw, 1, (uint64_t)last, &packets, &bytes), -ENOENT);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 2, 0, 0, 1), &set, &last), 0);
	CHECK_EQ(p4odp_ctl_counter_read(&sw, 1, (uint64_t)last, &packets, &bytes), 0);
	CHECK_EQ(packets + bytes, 0);

	set_context("the default action");
	uint32_t got;
	CHECK_EQ(p4odp_ctl_default_set(&sw, T_DIRECT, &(struct p4odp_action_call){ A_OTHER, 0, NULL }), -EINVAL);
	CHECK_EQ(p4odp_ctl_default(&sw, T_DIRECT, read_entry, &got), 0);
	CHECK_EQ(got >> 16, A_DROP);
	CHECK_EQ(p4odp_ctl_default_set(&sw, T_DIRECT, &set), 0);
	CHECK_EQ(p4odp_ctl_default(&sw, T_DIRECT, read_entry, &got), 0);
	CHECK_EQ(got >> 16, A_SET);
	CHECK_EQ(p4odp_ctl_default_reset(&sw, T_DIRECT), 0);
	CHECK_EQ(p4odp_ctl_default(&sw, T_DIRECT, read_entry, &got), 0);
	CHECK_EQ(got >> 16, A_DROP);

	set_context("clear");
	CHECK_EQ(p4odp_ctl_table_clear(&sw, T_DIRECT), 0);
	CHECK_EQ(p4odp_ctl_entry_count(&sw, T_DIRECT), 0);
}

static void test_idle_timeouts(void)
{
	struct key k;
	int64_t handle, other;
	uint64_t ttl, idle;
	uint8_t v[2] = { 0x0a, 0xbc };
	struct p4odp_action_call set = { A_SET, 0, v };

	set_context("an entry is added without a TTL, its timer started");
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1), &set, &handle), 0);
	CHECK_EQ(p4odp_ctl_entry_timer(&sw, T_DIRECT, handle, &ttl, &idle), 0);
	CHECK_EQ(ttl, 0);
	CHECK(idle < UINT64_C(1000000000));

	set_context("refused: a table without idle timeouts, no such entry; nothing changed");
	CHECK_EQ(p4odp_ctl_entry_set_ttl(&sw, T_INDIRECT, 0, 5), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_timer(&sw, T_INDIRECT, 0, &ttl, &idle), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_set_ttl(&sw, 9, handle, 5), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_set_ttl(&sw, T_DIRECT, handle + 1000, 5), -ENOENT);
	CHECK_EQ(p4odp_ctl_entry_timer(&sw, T_DIRECT, handle, &ttl, &idle), 0);
	CHECK_EQ(ttl, 0);

	set_context("a TTL, and a worker's hit as the time since the last hit");
	CHECK_EQ(p4odp_ctl_entry_set_ttl(&sw, T_DIRECT, handle, 250), 0);
	struct worker_state *second = sw.per_worker[1].state;
	odp_time_wait_ns(20 * 1000 * 1000);
	CHECK_EQ(p4odp_ctl_entry_timer(&sw, T_DIRECT, handle, &ttl, &idle), 0);
	CHECK_EQ(ttl, 250);
	CHECK(idle >= 20 * 1000 * 1000);
	second->last_hit[(uint32_t)handle] = odp_time_global_ns();
	CHECK_EQ(p4odp_ctl_entry_timer(&sw, T_DIRECT, handle, &ttl, &idle), 0);
	CHECK(idle < 20 * 1000 * 1000);

	set_context("deleted, its index reused: the new entry has no TTL and its own timer");
	CHECK_EQ(p4odp_ctl_entry_delete(&sw, T_DIRECT, handle), 0);
	CHECK_EQ(p4odp_ctl_entry_timer(&sw, T_DIRECT, handle, &ttl, &idle), -ENOENT);
	CHECK_EQ(p4odp_ctl_entry_set_ttl(&sw, T_DIRECT, handle, 5), -ENOENT);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1), &set, &other), 0);
	CHECK_EQ(p4odp_ctl_entry_timer(&sw, T_DIRECT, other, &ttl, &idle), 0);
	CHECK_EQ(ttl, 0);

	set_context("cleared: no timers");
	CHECK_EQ(p4odp_ctl_table_clear(&sw, T_DIRECT), 0);
	CHECK_EQ(p4odp_ctl_entry_timer(&sw, T_DIRECT, other, &ttl, &idle), -ENOENT);
}

static void test_notes(void)
{
	struct key k;
	int64_t handle;
	uint64_t cookie;
	const uint8_t *bytes;
	uint32_t len;
	uint8_t v[2] = { 0x0a, 0xbc };
	static uint8_t too_long[P4ODP_NOTE_BYTES + 1];
	struct p4odp_action_call set = { A_SET, 0, v };

	set_context("an entry is added without a note; a note is kept and read back");
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1), &set, &handle), 0);
	CHECK_EQ(p4odp_ctl_entry_note(&sw, T_DIRECT, handle, &cookie, &bytes, &len), 0);
	CHECK_EQ(cookie + len, 0);
	CHECK_EQ(p4odp_ctl_entry_set_note(&sw, T_DIRECT, handle, 7, (const uint8_t *)"abc", 3), 0);
	CHECK_EQ(p4odp_ctl_entry_note(&sw, T_DIRECT, handle, &cookie, &bytes, &len), 0);
	CHECK(cookie == 7 && len == 3 && !memcmp(bytes, "abc", 3));

	set_context("refused: too long, no such entry or table; nothing changed");
	CHECK_EQ(p4odp_ctl_entry_set_note(&sw, T_DIRECT, handle, 1, too_long, sizeof too_long), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_set_note(&sw, T_DIRECT, handle + 1000, 1, NULL, 0), -ENOENT);
	CHECK_EQ(p4odp_ctl_entry_set_note(&sw, 9, handle, 1, NULL, 0), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_note(&sw, T_DIRECT, handle, &cookie, &bytes, &len), 0);
	CHECK(cookie == 7 && len == 3);

	set_context("gone with its entry: the entry added next has none");
	CHECK_EQ(p4odp_ctl_entry_delete(&sw, T_DIRECT, handle), 0);
	CHECK_EQ(p4odp_ctl_entry_note(&sw, T_DIRECT, handle, &cookie, &bytes, &len), -ENOENT);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1), &set, &handle), 0);
	CHECK_EQ(p4odp_ctl_entry_note(&sw, T_DIRECT, handle, &cookie, &bytes, &len), 0);
	CHECK_EQ(cookie + len, 0);
	CHECK_EQ(p4odp_ctl_entry_set_note(&sw, T_DIRECT, handle, 0, (const uint8_t *)"x", 1), 0);
	CHECK_EQ(p4odp_ctl_table_clear(&sw, T_DIRECT), 0);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_DIRECT, key(&k, 1, 0, 0, 1), &set, &handle), 0);
	CHECK_EQ(p4odp_ctl_entry_note(&sw, T_DIRECT, handle, &cookie, &bytes, &len), 0);
	CHECK_EQ(len, 0);
}

static const struct p4odp_match *exact(struct key *k, uint8_t a)
{
	*k = (struct key){ .a = { a } };
	k->fields[0] = (struct p4odp_field_match){ .value = k->a };
	k->m = (struct p4odp_match){ .fields = k->fields };
	return &k->m;
}

/* The members of group `g` of the selector, as ids, in *n. */
static uint32_t group_members(uint32_t g, uint32_t *members)
{
	uint32_t n = 0, max_size;
	CHECK_EQ(p4odp_ctl_group(&sw, 0, g, members, &n, &max_size), 0);
	return n;
}

static void test_profiles(void)
{
	struct key k;
	uint8_t v[2] = { 0, 1 };
	uint32_t m0, m1, m2, m3, g, members[3];
	int64_t handle, handle2;

	set_context("members: an action of the profile, its data checked; ids chosen or the lowest free");
	CHECK_EQ(p4odp_ctl_member_add(&sw, 0, P4ODP_ID_ANY, &(struct p4odp_action_call){ A_OTHER, 0, NULL }, &m0),
		 -EINVAL);
	CHECK_EQ(p4odp_ctl_member_add(&sw, 0, 1000, &(struct p4odp_action_call){ A_SET, 0, v }, &m0), 0);
	CHECK_EQ(m0, 1000);
	CHECK_EQ(p4odp_ctl_member_add(&sw, 0, 1000, &(struct p4odp_action_call){ A_DROP, 0, NULL }, &m1), -EEXIST);
	CHECK_EQ(p4odp_ctl_member_add(&sw, 0, P4ODP_ID_ANY, &(struct p4odp_action_call){ A_DROP, 0, NULL }, &m1), 0);
	CHECK_EQ(p4odp_ctl_member_add(&sw, 0, P4ODP_ID_ANY, &(struct p4odp_action_call){ A_DROP, 0, NULL }, &m2), 0);
	CHECK(m1 == 0 && m2 == 1);
	set_context("full at its size");
	CHECK_EQ(p4odp_ctl_member_add(&sw, 0, P4ODP_ID_ANY, &(struct p4odp_action_call){ A_DROP, 0, NULL }, &m3),
		 -ENOSPC);
	CHECK_EQ(p4odp_ctl_member_modify(&sw, 0, 7, &(struct p4odp_action_call){ A_DROP, 0, NULL }), -ENOENT);
	CHECK_EQ(p4odp_ctl_member(&sw, 0, m0)->action_id, A_SET);

	set_context("a group: its members set at once, all or none, within its largest size");
	CHECK_EQ(p4odp_ctl_group_add(&sw, 0, 9, 4, &g), -EINVAL);	/* larger than the profile */
	CHECK_EQ(p4odp_ctl_group_add(&sw, 0, 9, 2, &g), 0);
	members[0] = m2, members[1] = m0;
	CHECK_EQ(p4odp_ctl_group_set(&sw, 0, g, members, 2), 0);
	CHECK_EQ(group_members(g, members), 2);
	CHECK(members[0] == m0 && members[1] == m2);	/* by slot: m0 was made first */
	CHECK_EQ(p4odp_ctl_group_set(&sw, 0, g, (uint32_t[]){ m0, 9 }, 2), -ENOENT);
	CHECK_EQ(p4odp_ctl_group_set(&sw, 0, g, (uint32_t[]){ m0, m0 }, 2), -EINVAL);
	CHECK_EQ(p4odp_ctl_group_set(&sw, 0, g, (uint32_t[]){ m0, m1, m2 }, 3), -ENOSPC);
	CHECK_EQ(group_members(g, members), 2);
	CHECK_EQ(p4odp_ctl_member_users(&sw, 0, m0), 1);

	set_context("entries name members and groups by id, never an empty group or a missing one");
	uint32_t empty;
	CHECK_EQ(p4odp_ctl_group_add(&sw, 0, P4ODP_ID_ANY, 0, &empty), 0);
	CHECK_EQ(empty, 0);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_INDIRECT, exact(&k, 1),
				     &(struct p4odp_action_call){ P4ODP_ACTION_GROUP, empty, NULL }, &handle), -ENODATA);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_INDIRECT, exact(&k, 1),
				     &(struct p4odp_action_call){ P4ODP_ACTION_MEMBER, 2000, NULL }, &handle), -ENOENT);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_INDIRECT, exact(&k, 1), &(struct p4odp_action_call){ A_DROP, 0, NULL },
				     &handle), -EINVAL);
	CHECK_EQ(p4odp_ctl_entry_count(&sw, T_INDIRECT), 0);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_INDIRECT, exact(&k, 1),
				     &(struct p4odp_action_call){ P4ODP_ACTION_GROUP, g, NULL }, &handle), 0);
	CHECK_EQ(p4odp_ctl_entry_add(&sw, T_INDIRECT, exact(&k, 2),
				     &(struct p4odp_action_call){ P4ODP_ACTION_MEMBER, m0, NULL }, &handle2), 0);
	CHECK_EQ(p4odp_ctl_group_users(&sw, 0, g), 1);
	CHECK_EQ(p4odp_ctl_member_users(&sw, 0, m0), 2);
	CHECK_EQ(entry_of(T_INDIRECT, handle2), (uint32_t)P4ODP_ACTION_MEMBER << 16 | (1000 & 0xff) << 8 | 1000 >> 8);

	set_context("in use: not deleted");
	CHECK_EQ(p4odp_ctl_member_delete(&sw, 0, m0), -EBUSY);
	CHECK_EQ(p4odp_ctl_member_delete(&sw, 0, m2), -EBUSY);
	CHECK_EQ(p4odp_ctl_group_delete(&sw, 0, g), -EBUSY);
	CHECK(p4odp_ctl_member(&sw, 0, m0) != NULL);

	set_context("users follow modify, delete and clear");
	CHECK_EQ(p4odp_ctl_entry_modify(&sw, T_INDIRECT, handle2,
					&(struct p4odp_action_call){ P4ODP_ACTION_MEMBER, m1, NULL }), 0);
	CHECK_EQ(p4odp_ctl_member_users(&sw, 0, m0), 1);	/* the group */
	CHECK_EQ(p4odp_ctl_member_users(&sw, 0, m1), 1);	/* the entry */
	CHECK_EQ(p4odp_ctl_entry_delete(&sw, T_INDIRECT, handle), 0);
	CHECK_EQ(p4odp_ctl_group_users(&sw, 0, g), 0);
	CHECK_EQ(p4odp_ctl_default_set(&sw, T_INDIRECT,
				       &(struct p4odp_action_call){ P4ODP_ACTION_GROUP, g, NULL }), 0);
	CHECK_EQ(p4odp_ctl_group_users(&sw, 0, g), 1);
	CHECK_EQ(p4odp_ctl_default_reset(&sw, T_INDIRECT), 0);
	CHECK_EQ(p4odp_ctl_group_users(&sw, 0, g), 0);
	CHECK_EQ(p4odp_ctl_table_clear(&sw, T_INDIRECT), 0);
	CHECK_EQ(p4odp_ctl_member_users(&sw, 0, m1), 0);
	CHECK_EQ(p4odp_ctl_member_delete(&sw, 0, m1), 0);
	CHECK_EQ(p4odp_ctl_member_users(&sw, 0, m0), 1);	/* the group's */
	CHECK_EQ(p4odp_ctl_group_delete(&sw, 0, g), 0);
	CHECK_EQ(p4odp_ctl_member_users(&sw, 0, m0), 0);
	CHECK_EQ(p4odp_ctl_group_delete(&sw, 0, g), -ENOENT);
}

static void test_replication(void)
{
	struct p4odp_port_set ports = { { 0 } }, read;
	uint32_t n0, n1, n, rid, group;

	set_context("nodes and groups");
	ports.ports[0] = 0x6;
	CHECK_EQ(p4odp_ctl_mc_node_create(&sw, P4ODP_ID_ANY, 70000, &ports, &n0), -EINVAL);
	CHECK_EQ(p4odp_ctl_mc_node_create(&sw, P4ODP_ID_ANY, 5, &ports, &n0), 0);
	CHECK_EQ(p4odp_ctl_mc_node_create(&sw, n0, 6, &ports, &n1), -EEXIST);
	CHECK_EQ(p4odp_ctl_mc_node_create(&sw, 7, 6, &ports, &n1), 0);
	CHECK_EQ(n1, 7);
	CHECK_EQ(p4odp_ctl_mc_group_create(&sw, 0), -EINVAL);
	CHECK_EQ(p4odp_ctl_mc_group_create(&sw, 1), 0);
	CHECK_EQ(p4odp_ctl_mc_group_create(&sw, 1), -EEXIST);
	CHECK_EQ(p4odp_ctl_mc_group_create(&sw, 2), 0);
	CHECK_EQ(p4odp_ctl_mc_group_set(&sw, 1, (uint32_t[]){ n1, n0 }, 2), 0);
	CHECK(p4odp_ctl_mc_group(&sw, 1, &n) && n == 2 && p4odp_ctl_mc_group(&sw, 1, &n)[0] == n1);

	set_context("refused: a node of another group, a node twice, no such node: the groups unchanged");
	CHECK_EQ(p4odp_ctl_mc_group_set(&sw, 2, (uint32_t[]){ n0 }, 1), -EBUSY);
	CHECK_EQ(p4odp_ctl_mc_group_set(&sw, 1, (uint32_t[]){ n0, n0 }, 2), -EINVAL);
	CHECK_EQ(p4odp_ctl_mc_group_set(&sw, 1, (uint32_t[]){ n0, 4000 }, 2), -ENOENT);
	CHECK_EQ(p4odp_ctl_mc_group_set(&sw, 3, (uint32_t[]){ n0 }, 1), -ENOENT);
	CHECK(p4odp_ctl_mc_group(&sw, 1, &n) && n == 2);
	CHECK(p4odp_ctl_mc_group(&sw, 2, &n) && n == 0);
	CHECK_EQ(p4odp_ctl_mc_node(&sw, n0, &rid, &read, &group), 0);
	CHECK(rid == 5 && group == 1 && read.ports[0] == 0x6);

	set_context("a node destroyed leaves its group; a group destroyed leaves its nodes");
	CHECK_EQ(p4odp_ctl_mc_node_destroy(&sw, n1), 0);
	CHECK(p4odp_ctl_mc_group(&sw, 1, &n) && n == 1);
	CHECK_EQ(p4odp_ctl_mc_group_destroy(&sw, 1), 0);
	CHECK(p4odp_ctl_mc_group(&sw, 1, &n) == NULL);
	CHECK_EQ(p4odp_ctl_mc_node(&sw, n0, &rid, &read, &group), 0);
	CHECK_EQ(group, 0);

	set_context("clone sessions: to a group, or to replicas, each copy cut to a length");
	struct p4odp_replica replicas[2] = { { 3, 0 }, { P4ODP_PORT_NUMBERS, 1 } };
	struct p4odp_clone_session s = { .n_replicas = 2, .replicas = replicas }, got;
	CHECK_EQ(p4odp_ctl_clone_session_set(&sw, 3, &s), -EINVAL);	/* a port out of range */
	CHECK_EQ(p4odp_ctl_clone_session(&sw, 3, &got), -ENOENT);
	replicas[1].port = 4;
	s.truncate = 64, s.class_of_service = 2;
	CHECK_EQ(p4odp_ctl_clone_session_set(&sw, 3, &s), 0);
	replicas[0].port = 9;	/* the switch keeps its own copy */
	CHECK_EQ(p4odp_ctl_clone_session(&sw, 3, &got), 0);
	CHECK(got.group == 0 && got.n_replicas == 2 && got.replicas[0].port == 3 && got.replicas[1].rid == 1 &&
	      got.truncate == 64 && got.class_of_service == 2);
	CHECK_EQ(p4odp_ctl_clone_session_set(&sw, 3, &(struct p4odp_clone_session){ .group = 2 }), 0);
	CHECK_EQ(p4odp_ctl_clone_session(&sw, 3, &got), 0);
	CHECK(got.group == 2 && got.n_replicas == 0);
	CHECK_EQ(p4odp_ctl_clone_session_set(&sw, 3, &(struct p4odp_clone_session){ 0 }), -EINVAL);	/* no copy */
	CHECK_EQ(p4odp_ctl_clone_session_set(&sw, P4ODP_MAX_MIRROR_SESSIONS, &s), -EINVAL);
	CHECK_EQ(p4odp_ctl_clone_session_delete(&sw, 3), 0);
	CHECK_EQ(p4odp_ctl_clone_session_delete(&sw, 3), -ENOENT);
}

static int count_value(void *arg, const uint8_t *value)
{
	(void)value;
	++*(uint32_t *)arg;
	return 0;
}

static void test_externs(void)
{
	uint64_t packets, bytes;
	uint8_t value[3];

	set_context("counters: the cells in range, a write read back summed over the workers");
	CHECK_EQ(p4odp_ctl_counter_read(&sw, 0, 4, &packets, &bytes), -EINVAL);
	CHECK_EQ(p4odp_ctl_counter_read(&sw, 2, 0, &packets, &bytes), -EINVAL);
	CHECK_EQ(p4odp_ctl_counter_write(&sw, 0, 3, 7, 70), 0);
	CHECK_EQ(p4odp_ctl_counter_read(&sw, 0, 3, &packets, &bytes), 0);
	CHECK(packets == 7 && bytes == 70);
	CHECK_EQ(p4odp_ctl_counter_reset(&sw, 0), 0);
	CHECK_EQ(p4odp_ctl_counter_read(&sw, 0, 3, &packets, &bytes), 0);
	CHECK_EQ(packets + bytes, 0);

	set_context("meters: no rates, then rates; committed above peak refused");
	struct p4odp_meter_rates r = { .committed_rate = 2, .peak_rate = 1, .committed_burst = 10, .peak_burst = 20 };
	struct p4odp_meter_rates got;
	CHECK_EQ(p4odp_ctl_meter(&sw, 0, 1, &got), -ENODATA);
	CHECK_EQ(p4odp_ctl_meter_set(&sw, 0, 1, &r), -EINVAL);
	CHECK_EQ(p4odp_ctl_meter(&sw, 0, 1, &got), -ENODATA);
	r.peak_rate = 3;
	CHECK_EQ(p4odp_ctl_meter_set(&sw, 0, 2, &r), -EINVAL);
	CHECK_EQ(p4odp_ctl_meter_set(&sw, 0, 1, &r), 0);
	CHECK_EQ(p4odp_ctl_meter(&sw, 0, 1, &got), 0);
	CHECK(got.committed_rate == 2 && got.peak_rate == 3 && got.committed_burst == 10 && got.peak_burst == 20);
	CHECK_EQ(p4odp_ctl_meter_set_all(&sw, 0, NULL), 0);
	CHECK_EQ(p4odp_ctl_meter(&sw, 0, 1, &got), -ENODATA);

	set_context("registers: int<12> cells as two bytes, bits past the width refused");
	CHECK_EQ(p4odp_ctl_register_write(&sw, 0, 1, (uint8_t[]){ 0x1f, 0xff }), -EINVAL);
	CHECK_EQ(p4odp_ctl_register_write(&sw, 0, 2, (uint8_t[]){ 0x0f, 0xff }), -EINVAL);
	CHECK_EQ(p4odp_ctl_register_read(&sw, 0, 1, value), 0);
	CHECK(value[0] == 0 && value[1] == 0);
	CHECK_EQ(p4odp_ctl_register_write(&sw, 0, 1, (uint8_t[]){ 0x0f, 0xff }), 0);	/* -1 */
	CHECK_EQ(((struct shared_state *)sw.state)->reg[1], 0xffff);	/* sign-extended in its C integer */
	CHECK_EQ(p4odp_ctl_register_read(&sw, 0, 1, value), 0);
	CHECK(value[0] == 0x0f && value[1] == 0xff);
	CHECK_EQ(p4odp_ctl_register_reset(&sw, 0), 0);
	CHECK_EQ(((struct shared_state *)sw.state)->reg[1], 0);

	set_context("a register of structs: a cell's fields one after another, each field's bits checked first");
	struct pair *pairs = ((struct shared_state *)sw.state)->pairs;
	CHECK_EQ(p4odp_ctl_register_write(&sw, 1, 1, (uint8_t[]){ 0x12, 0x0f, 0xfe }), 0);
	CHECK(pairs[1].a == 0x12 && pairs[1].b == 0xfffe);	/* b: -2, sign-extended */
	CHECK_EQ(p4odp_ctl_register_write(&sw, 1, 1, (uint8_t[]){ 0x34, 0x10, 0x00 }), -EINVAL);
	CHECK(pairs[1].a == 0x12);	/* the first field untouched by the refused write */
	CHECK_EQ(p4odp_ctl_register_read(&sw, 1, 1, value), 0);
	CHECK(value[0] == 0x12 && value[1] == 0x0f && value[2] == 0xfe);
	CHECK_EQ(p4odp_ctl_register_read(&sw, 1, 2, value), -EINVAL);

	set_context("value sets: a value once, full at its size");
	uint32_t n = 0;
	CHECK_EQ(p4odp_ctl_value_set_add(&sw, 0, (uint8_t[]){ 0x10, 0 }), -EINVAL);
	CHECK_EQ(p4odp_ctl_value_set_add(&sw, 0, (uint8_t[]){ 0, 1 }), 0);
	CHECK_EQ(p4odp_ctl_value_set_add(&sw, 0, (uint8_t[]){ 0, 1 }), 0);
	CHECK_EQ(p4odp_ctl_value_set_add(&sw, 0, (uint8_t[]){ 0, 2 }), 0);
	CHECK_EQ(p4odp_ctl_value_set_add(&sw, 0, (uint8_t[]){ 0, 3 }), -ENOSPC);
	CHECK_EQ(p4odp_ctl_value_set_values(&sw, 0, count_value, &n), 0);
	CHECK_EQ(n, 2);
	CHECK_EQ(p4odp_ctl_value_set_remove(&sw, 0, (uint8_t[]){ 0, 3 }), -ENOENT);
	CHECK_EQ(p4odp_ctl_value_set_remove(&sw, 0, (uint8_t[]){ 0, 1 }), 0);
	CHECK_EQ(p4odp_ctl_value_set_clear(&sw, 0), 0);
	n = 0;
	CHECK_EQ(p4odp_ctl_value_set_values(&sw, 0, count_value, &n), 0);
	CHECK_EQ(n, 0);
}

static const struct {
	const char *name;
	void (*run)(void);
} tests[] = {
	{ "entries", test_entries },
	{ "idle_timeouts", test_idle_timeouts },
	{ "notes", test_notes },
	{ "profiles", test_profiles },
	{ "replication", test_replication },
	{ "externs", test_externs },
};

int main(int argc, char **argv)
{
	uint32_t n_tests = sizeof tests / sizeof tests[0];

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (uint32_t i = 0; i < n_tests; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	for (uint32_t i = 0; argc == 2 && i < n_tests; i++) {
		if (strcmp(argv[1], tests[i].name))
			continue;
		switch_up();
		tests[i].run();
		switch_down();
		printf("control_test %s: OK\n", tests[i].name);
		return 0;
	}
	fprintf(stderr, "usage: %s TEST | --list\n", argv[0]);
	return 2;
}
