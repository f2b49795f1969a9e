/*
 * The program's tables: created from the generated metadata, filled with
 * their const entries (through the control-plane API), looked up by the
 * generated code; and the action profiles whose members the entries of some
 * of them name.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "switch.h"

static int create_table(struct p4odp_switch *sw, uint32_t index)
{
	const struct p4odp_table_info *info = &sw->program->tables[index];
	struct p4odp_runtime_table *rt = &sw->tables[index];
	struct p4odp_key_field fields[info->n_keys ? info->n_keys : 1];

	for (uint32_t i = 0; i < info->n_keys; i++) {
		fields[i].width_bits = (uint16_t)info->keys[i].width;
		fields[i].match_kind = (uint8_t)info->keys[i].match_kind;
	}
	struct p4odp_table_spec spec = {
		.name = info->name,
		.n_fields = info->n_keys,
		.fields = fields,
		.max_entries = info->size ? info->size : 1024,
		.action_data_len = info->action_data_len,
		.kind = info->structure,
	};

	rt->info = info;
	if (info->idle_timeout && !(rt->timers = calloc(spec.max_entries, sizeof *rt->timers)))
		return -1;
	if (p4odp_table_create(&spec, sw->rcu, &rt->table) || p4odp_ctl_default_reset(sw, index)) {
		fprintf(stderr, "error: cannot create table %s\n", info->name);
		return -1;
	}
	return 0;
}

static int add_const_entries(struct p4odp_switch *sw, uint32_t index)
{
	const struct p4odp_table_info *info = &sw->program->tables[index];

	for (uint32_t i = 0; i < info->n_entries; i++) {
		const struct p4odp_const_entry *e = &info->entries[i];
		struct p4odp_match m = { .fields = e->fields, .priority = e->priority };
		struct p4odp_action_call call = { .action = e->action, .data = e->data };
		int64_t handle;
		int err = p4odp_ctl_entry_add(sw, index, &m, &call, &handle);
		if (err) {
			fprintf(stderr, "error: const entry %u of table %s: %s\n", i, info->name, strerror(-err));
			return -1;
		}
	}
	return 0;
}

static int create_profile(struct p4odp_switch *sw, uint32_t index)
{
	struct p4odp_runtime_profile *p = &sw->profiles[index];
	uint32_t size = sw->program->profiles[index].size;

	p->info = &sw->program->profiles[index];
	p->members = calloc(size, sizeof *p->members);
	p->groups = calloc(size, sizeof *p->groups);
	p->slots = calloc(size, sizeof *p->slots);
	return p->members && p->groups && p->slots ? 0 : -1;
}

static void destroy_profile(struct p4odp_runtime_profile *p)
{
	for (uint32_t i = 0; p->info && i < p->info->size; i++) {
		free(p->members ? p->members[i] : NULL);
		free(p->groups ? p->groups[i] : NULL);
	}
	free(p->members);
	free(p->groups);
	free(p->slots);
}

int p4odp_tables_init(struct p4odp_switch *sw)
{
	uint32_t n = sw->program->n_tables, n_profiles = sw->program->n_profiles;
	sw->tables = calloc(n ? n : 1, sizeof *sw->tables);
	sw->profiles = calloc(n_profiles ? n_profiles : 1, sizeof *sw->profiles);
	if (!sw->tables || !sw->profiles)
		return -1;
	for (uint32_t i = 0; i < n_profiles; i++)
		if (create_profile(sw, i))
			return -1;
	for (uint32_t i = 0; i < n; i++) {
		if (create_table(sw, i) || add_const_entries(sw, i))
			return -1;
		sw->idle_timeouts |= sw->program->tables[i].idle_timeout;
	}
	return 0;
}

void p4odp_tables_destroy(struct p4odp_switch *sw)
{
	if (!sw->tables)
		return;
	for (uint32_t i = 0; i < sw->program->n_tables; i++) {
		if (sw->tables[i].table)
			p4odp_table_destroy(sw->tables[i].table);
		free(sw->tables[i].timers);
		p4odp_notes_destroy(&sw->tables[i]);
	}
	free(sw->tables);
	sw->tables = NULL;
	for (uint32_t i = 0; sw->profiles && i < sw->program->n_profiles; i++)
		destroy_profile(&sw->profiles[i]);
	free(sw->profiles);
	sw->profiles = NULL;
}

/* What a lookup in `table` gives: the entry found, else the default. */
static const struct p4odp_table_entry *found_or_default(const struct p4odp_table *table,
							const struct p4odp_table_entry *entry, bool *hit)
{
	*hit = entry != NULL;
	/* A branch, not a conditional move, which would load the default for every hit. */
	if (odp_likely(entry != NULL))
		return entry;
	return p4odp_table_get_default(table);
}

const struct p4odp_table_entry *p4odp_table_apply(struct p4odp_switch *sw, uint32_t index, const uint8_t *key,
						 bool *hit)
{
	const struct p4odp_runtime_table *rt = &sw->tables[index];

	return found_or_default(rt->table, rt->info->n_keys ? p4odp_table_lookup(rt->table, key) : NULL, hit);
}

const struct p4odp_table_entry *p4odp_table_apply_int(struct p4odp_switch *sw, uint32_t index,
						     enum p4odp_table_kind kind, uint32_t key_len, uint64_t key,
						     bool *hit)
{
	const struct p4odp_table *table = sw->tables[index].table;

	return found_or_default(table, p4odp_table_lookup_int(table, kind, key_len, key), hit);
}

const struct p4odp_table_entry *p4odp_table_default(struct p4odp_switch *sw, uint32_t index)
{
	return p4odp_table_get_default(sw->tables[index].table);
}

const struct p4odp_table_entry *p4odp_profile_action(struct p4odp_switch *sw, uint32_t profile,
						     const struct p4odp_table_entry *entry, uint64_t selection)
{
	static const struct p4odp_table_entry no_action = { .action_id = P4ODP_ACTION_NONE,
							     .index = P4ODP_TABLE_NO_INDEX };
	const struct p4odp_runtime_profile *p = &sw->profiles[profile];
	uint32_t handle;

	memcpy(&handle, entry->data, sizeof handle);
	if (entry->action_id == P4ODP_ACTION_GROUP) {
		const struct p4odp_profile_group *group = __atomic_load_n(&p->groups[handle], __ATOMIC_ACQUIRE);
		if (!group || !group->n)
			return &no_action;
		handle = group->members[selection % group->n];
	}
	const struct p4odp_table_entry *member = __atomic_load_n(&p->members[handle], __ATOMIC_ACQUIRE);
	return member ? member : &no_action;
}

/* Out of line and cold: the path of a hit, the burst's usual case, loads nothing of the table
 * (inline, the compiler loads the table's pointer before it knows whether it needs it). */
__attribute__((noinline, cold)) static const struct p4odp_table_entry *missed(struct p4odp_switch *sw, uint32_t index)
{
	return p4odp_table_get_default(sw->tables[index].table);
}

const struct p4odp_table_entry *p4odp_table_found(struct p4odp_switch *sw, uint32_t index,
						 const struct p4odp_table_entry *entry, bool *hit)
{
	*hit = entry != NULL;
	if (odp_likely(entry != NULL))
		return entry;
	return missed(sw, index);
}

void p4odp_table_apply_burst(struct p4odp_switch *sw, uint32_t index, const uint8_t *const keys[], uint32_t n,
			     const struct p4odp_table_entry *entries[])
{
	p4odp_table_lookup_burst(sw->tables[index].table, keys, n, entries);
}

const struct p4odp_table *p4odp_table_of(struct p4odp_switch *sw, uint32_t index)
{
	return sw->tables[index].table;
}

void p4odp_table_apply_burst_int(struct p4odp_switch *sw, uint32_t index, enum p4odp_table_kind kind,
				 uint32_t key_len, const uint64_t keys[], uint32_t n,
				 const struct p4odp_table_entry *entries[])
{
	p4odp_table_lookup_burst_int(sw->tables[index].table, kind, key_len, keys, n, entries);
}
