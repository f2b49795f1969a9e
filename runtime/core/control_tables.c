/*
 * The control-plane API of tables and action profiles (p4odp_control.h):
 * entries checked against the program's metadata before the table library
 * takes them, and the action profiles' members and groups with the count of
 * what names each (one in use cannot be deleted, as on BMv2).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "switch.h"

const struct p4odp_action_info *p4odp_action_by_id(const struct p4odp_program *p, uint32_t action_id,
						  uint32_t *data_len)
{
	for (uint32_t i = 0; i < p->n_actions; i++) {
		const struct p4odp_action_info *a = &p->actions[i];
		if (a->id != action_id)
			continue;
		if (data_len) {
			*data_len = 0;
			for (uint32_t k = 0; k < a->n_params; k++)
				*data_len += (a->params[k].width + 7) / 8;
		}
		return a;
	}
	return NULL;
}

bool p4odp_table_has_priority(const struct p4odp_table_info *t)
{
	for (uint32_t i = 0; i < t->n_keys; i++)
		if (t->keys[i].match_kind != P4ODP_MATCH_EXACT && t->keys[i].match_kind != P4ODP_MATCH_LPM)
			return true;
	return false;
}

static bool has_action(uint32_t n, const uint32_t *ids, uint32_t action)
{
	for (uint32_t i = 0; i < n; i++)
		if (ids[i] == action)
			return true;
	return false;
}

/* Whether each parameter of action `a` in `data` has its unused high bits zero. */
static bool data_fits(const struct p4odp_action_info *a, const uint8_t *data)
{
	for (uint32_t i = 0, offset = 0; i < a->n_params; i++) {
		uint32_t width = a->params[i].width;
		if (width % 8 && data[offset] >> (width % 8))
			return false;
		offset += (width + 7) / 8;
	}
	return true;
}

/* An action of the `n` of `ids` with its data into `out` (`len` bytes, zero past the action's). */
static int direct_data(const struct p4odp_program *p, uint32_t n, const uint32_t *ids,
		       const struct p4odp_action_call *call, uint8_t *out, uint32_t len)
{
	uint32_t data_len;
	const struct p4odp_action_info *a = p4odp_action_by_id(p, call->action, &data_len);

	if (!a || !has_action(n, ids, call->action) || data_len > len || (data_len && !call->data) ||
	    (data_len && !data_fits(a, call->data)))
		return -EINVAL;
	memset(out, 0, len);
	if (data_len)
		memcpy(out, call->data, data_len);
	return 0;
}

/* ---- What the entries of a table with an action profile name ---- */

static struct p4odp_runtime_profile *profile_of(struct p4odp_switch *sw, const struct p4odp_table_info *t)
{
	return t->profile >= 0 ? &sw->profiles[t->profile] : NULL;
}

/* `delta` more users of what an entry of action `action_id` and data `data` names in profile `p`. */
static void count_reference(struct p4odp_runtime_profile *p, uint16_t action_id, const uint8_t *data, int delta)
{
	uint32_t handle;

	memcpy(&handle, data, sizeof handle);
	if (action_id == P4ODP_ACTION_MEMBER)
		p->member_users[handle] += (uint32_t)delta;
	else if (action_id == P4ODP_ACTION_GROUP)
		p->group_users[handle] += (uint32_t)delta;
}

/* What an entry of a table with an action profile names: its action id and the handle. */
struct reference {
	uint16_t action_id;
	uint8_t handle[sizeof(uint32_t)];
};

/* p4odp_table_visit_fn: what entry `e` names, into the struct reference at `out`. */
static int get_reference(void *out, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	struct reference *r = out;

	(void)handle, (void)m;
	r->action_id = e->action_id;
	memcpy(r->handle, e->data, sizeof r->handle);
	return 0;
}

/* p4odp_table_visit_fn: one user more of what entry `e` of a table of `profile` names. */
static int add_user(void *profile, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	(void)handle, (void)m;
	count_reference(profile, e->action_id, e->data, 1);
	return 0;
}

/* The users of each member and group of profile `pi` (the entries, defaults included, of its tables
 * and, for a member, the groups), counted anew: after a table is cleared. */
static void count_users(struct p4odp_switch *sw, int32_t pi)
{
	struct p4odp_runtime_profile *p = &sw->profiles[pi];

	memset(p->member_users, 0, p->info->size * sizeof *p->member_users);
	memset(p->group_users, 0, p->info->size * sizeof *p->group_users);
	for (uint32_t ti = 0; ti < sw->program->n_tables; ti++) {
		if (sw->program->tables[ti].profile != pi)
			continue;
		p4odp_table_foreach(sw->tables[ti].table, add_user, p);
		add_user(p, -1, NULL, p4odp_table_get_default(sw->tables[ti].table));
	}
	for (uint32_t g = 0; g < p->info->size; g++)
		for (uint32_t i = 0; p->groups[g] && i < p->groups[g]->n; i++)
			p->member_users[p->groups[g]->members[i]]++;
}

/* The member or group `call` names, as an entry's data: -ENOENT when there is none, -ENODATA for
 * an empty group (BMv2 refuses one). */
static int indirect_data(const struct p4odp_runtime_profile *p, const struct p4odp_action_call *call, uint8_t *out,
			 uint32_t len)
{
	bool group = call->action == P4ODP_ACTION_GROUP;

	if ((!group && call->action != P4ODP_ACTION_MEMBER) || (group && !p->info->selector))
		return -EINVAL;
	if (call->ref >= p->info->size || !(group ? (void *)p->groups[call->ref] : (void *)p->members[call->ref]))
		return -ENOENT;
	if (group && !p->groups[call->ref]->n)
		return -ENODATA;
	memset(out, 0, len);
	memcpy(out, &call->ref, sizeof call->ref);
	return 0;
}

/* The entry data of `call` for table `t`, and its action id. */
static int entry_data(struct p4odp_switch *sw, const struct p4odp_table_info *t, const struct p4odp_action_call *call,
		      uint8_t *data, uint16_t *action_id)
{
	const struct p4odp_runtime_profile *p = profile_of(sw, t);

	*action_id = (uint16_t)call->action;
	return p ? indirect_data(p, call, data, t->action_data_len)
		 : direct_data(sw->program, t->n_actions, t->action_ids, call, data, t->action_data_len);
}

static const struct p4odp_table_info *table_at(struct p4odp_switch *sw, uint32_t table)
{
	return table < sw->program->n_tables ? &sw->program->tables[table] : NULL;
}

/* ---- Entries ---- */

/* The cells of table `table`'s direct counter and meter at entry index `index` (UINT64_MAX: all)
 * back to 0 once no worker can still be counting or metering the entry that left it (a grace
 * period): the next entry given that index starts from 0 and an unconfigured meter, as on BMv2.
 * A table has one direct counter and one direct meter at most. */
static void clear_direct_state(struct p4odp_switch *sw, uint32_t table, uint64_t index)
{
	const struct p4odp_counter_info *counter = NULL;
	const struct p4odp_meter_info *meter = NULL;
	uint32_t first = index == UINT64_MAX ? 0 : (uint32_t)index;

	for (uint32_t ci = 0; ci < sw->program->n_counters; ci++)
		if (sw->program->counters[ci].table == (int32_t)table)
			counter = &sw->program->counters[ci];
	for (uint32_t mi = 0; mi < sw->program->n_meters; mi++)
		if (sw->program->meters[mi].table == (int32_t)table)
			meter = &sw->program->meters[mi];
	if (!counter && !meter)
		return;
	p4odp_rcu_synchronize(sw->rcu);
	if (counter)
		p4odp_counter_zero(sw, counter, first, index == UINT64_MAX ? counter->size : 1);
	if (meter)
		memset(p4odp_meter_cell(sw, meter, first), 0,
		       (index == UINT64_MAX ? meter->size : 1) * sizeof(struct p4odp_meter));
}

int p4odp_ctl_entry_add(struct p4odp_switch *sw, uint32_t table, const struct p4odp_match *m,
			const struct p4odp_action_call *call, int64_t *handle)
{
	const struct p4odp_table_info *t = table_at(sw, table);
	uint16_t action_id;

	if (!t)
		return -EINVAL;
	uint8_t data[t->action_data_len + 1];
	int err = entry_data(sw, t, call, data, &action_id);
	if (err)
		return err;
	int64_t h = p4odp_table_add(sw->tables[table].table, m, action_id, data);
	if (h < 0)
		return (int)h;
	if (profile_of(sw, t))
		count_reference(profile_of(sw, t), action_id, data, 1);
	*handle = h;
	return 0;
}

int p4odp_ctl_entry_modify(struct p4odp_switch *sw, uint32_t table, int64_t handle,
			   const struct p4odp_action_call *call)
{
	const struct p4odp_table_info *t = table_at(sw, table);
	struct reference old = { 0 };
	uint16_t action_id;

	if (!t)
		return -EINVAL;
	uint8_t data[t->action_data_len + 1];
	struct p4odp_runtime_profile *p = profile_of(sw, t);
	int err = entry_data(sw, t, call, data, &action_id);
	if (err || (p && (err = p4odp_table_get(sw->tables[table].table, handle, get_reference, &old))) ||
	    (err = p4odp_table_modify(sw->tables[table].table, handle, action_id, data)))
		return err;
	if (p) {
		count_reference(p, old.action_id, old.handle, -1);
		count_reference(p, action_id, data, 1);
	}
	return 0;
}

int p4odp_ctl_entry_delete(struct p4odp_switch *sw, uint32_t table, int64_t handle)
{
	const struct p4odp_table_info *t = table_at(sw, table);
	struct p4odp_runtime_profile *p = t ? profile_of(sw, t) : NULL;
	struct reference old = { 0 };
	int err;

	if (!t)
		return -EINVAL;
	if ((p && (err = p4odp_table_get(sw->tables[table].table, handle, get_reference, &old))) ||
	    (err = p4odp_table_delete(sw->tables[table].table, handle)))
		return err;
	clear_direct_state(sw, table, (uint32_t)handle);
	if (p)
		count_reference(p, old.action_id, old.handle, -1);
	return 0;
}

int64_t p4odp_ctl_entry_find(struct p4odp_switch *sw, uint32_t table, const struct p4odp_match *m)
{
	return table_at(sw, table) ? p4odp_table_find(sw->tables[table].table, m) : -EINVAL;
}

int p4odp_ctl_table_clear(struct p4odp_switch *sw, uint32_t table)
{
	const struct p4odp_table_info *t = table_at(sw, table);
	int err;

	if (!t)
		return -EINVAL;
	if ((err = p4odp_table_clear(sw->tables[table].table)))
		return err;
	clear_direct_state(sw, table, UINT64_MAX);
	if (t->profile >= 0)
		count_users(sw, t->profile);
	return 0;
}

/* The default entry becomes action `action_id` with `data`. */
static int set_default(struct p4odp_switch *sw, uint32_t table, uint16_t action_id, const uint8_t *data)
{
	struct p4odp_runtime_profile *p = profile_of(sw, &sw->program->tables[table]);
	const struct p4odp_table_entry *old = p4odp_table_get_default(sw->tables[table].table);
	struct reference before = { 0 };
	int err;

	if (p && old)
		get_reference(&before, -1, NULL, old);
	if ((err = p4odp_table_set_default(sw->tables[table].table, action_id, data)))
		return err;
	if (p) {
		count_reference(p, before.action_id, before.handle, -1);
		count_reference(p, action_id, data, 1);
	}
	return 0;
}

int p4odp_ctl_default_set(struct p4odp_switch *sw, uint32_t table, const struct p4odp_action_call *call)
{
	const struct p4odp_table_info *t = table_at(sw, table);
	uint16_t action_id;

	if (!t)
		return -EINVAL;
	if (t->default_const)
		return -EPERM;
	uint8_t data[t->action_data_len + 1];
	int err = entry_data(sw, t, call, data, &action_id);
	return err ? err : set_default(sw, table, action_id, data);
}

int p4odp_ctl_default_reset(struct p4odp_switch *sw, uint32_t table)
{
	const struct p4odp_table_info *t = table_at(sw, table);

	if (!t)
		return -EINVAL;
	uint8_t data[t->action_data_len + 1];
	memset(data, 0, sizeof data);
	memcpy(data, t->default_data, t->default_data_len);
	return set_default(sw, table, (uint16_t)t->default_action, data);
}

int p4odp_ctl_entries(struct p4odp_switch *sw, uint32_t table, p4odp_table_visit_fn fn, void *arg)
{
	return table_at(sw, table) ? p4odp_table_foreach(sw->tables[table].table, fn, arg) : -EINVAL;
}

int p4odp_ctl_entry(struct p4odp_switch *sw, uint32_t table, int64_t handle, p4odp_table_visit_fn fn, void *arg)
{
	return table_at(sw, table) ? p4odp_table_get(sw->tables[table].table, handle, fn, arg) : -EINVAL;
}

uint32_t p4odp_ctl_entry_count(struct p4odp_switch *sw, uint32_t table)
{
	return table_at(sw, table) ? p4odp_table_count(sw->tables[table].table) : 0;
}

const struct p4odp_table_entry *p4odp_ctl_default(struct p4odp_switch *sw, uint32_t table)
{
	return table_at(sw, table) ? p4odp_table_get_default(sw->tables[table].table) : NULL;
}

/* ---- Action profiles ---- */

static struct p4odp_runtime_profile *profile_at(struct p4odp_switch *sw, uint32_t profile)
{
	return profile < sw->program->n_profiles ? &sw->profiles[profile] : NULL;
}

/* A new member or group in place of the one in `slot` (NULL: none), which workers may still read
 * until a grace period has passed; then it is freed. */
static void publish(struct p4odp_switch *sw, void **slot, void *now)
{
	void *old = *slot;

	__atomic_store_n(slot, now, __ATOMIC_RELEASE);
	if (old) {
		p4odp_rcu_synchronize(sw->rcu);
		free(old);
	}
}

/* A member's entry running `call` (an action of profile `p`), or NULL with the error in *err. */
static struct p4odp_table_entry *new_member(struct p4odp_switch *sw, const struct p4odp_runtime_profile *p,
					    const struct p4odp_action_call *call, int *err)
{
	uint32_t len = p->info->action_data_len;
	struct p4odp_table_entry *e = calloc(1, sizeof *e + len + 1);

	*err = e ? direct_data(sw->program, p->info->n_actions, p->info->actions, call, e->data, len) : -ENOMEM;
	if (*err) {
		free(e);
		return NULL;
	}
	e->action_id = (uint16_t)call->action;
	e->index = P4ODP_TABLE_NO_INDEX;
	return e;
}

/* The lowest handle of the `n` slots that holds nothing, n when all do (BMv2's handles). */
static uint32_t free_handle(void *const *slots, uint32_t n)
{
	uint32_t handle = 0;

	while (handle < n && slots[handle])
		handle++;
	return handle;
}

int p4odp_ctl_member_add(struct p4odp_switch *sw, uint32_t profile, const struct p4odp_action_call *call,
			 uint32_t *member)
{
	struct p4odp_runtime_profile *p = profile_at(sw, profile);
	int err;

	if (!p)
		return -EINVAL;
	uint32_t handle = free_handle((void *const *)p->members, p->info->size);
	if (handle == p->info->size)
		return -ENOSPC;
	struct p4odp_table_entry *e = new_member(sw, p, call, &err);
	if (!e)
		return err;
	publish(sw, (void **)&p->members[handle], e);
	*member = handle;
	return 0;
}

/* Member (or with `group`, group) `handle` of profile `profile`: the profile, or NULL with the
 * error in *err. */
static struct p4odp_runtime_profile *profile_with(struct p4odp_switch *sw, uint32_t profile, uint32_t handle,
						  bool group, int *err)
{
	struct p4odp_runtime_profile *p = profile_at(sw, profile);

	*err = !p || (group && !p->info->selector) ? -EINVAL
	       : handle >= p->info->size || !(group ? (void *)p->groups[handle] : (void *)p->members[handle]) ? -ENOENT
	       : 0;
	return *err ? NULL : p;
}

int p4odp_ctl_member_modify(struct p4odp_switch *sw, uint32_t profile, uint32_t member,
			    const struct p4odp_action_call *call)
{
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, member, false, &err);
	struct p4odp_table_entry *e = p ? new_member(sw, p, call, &err) : NULL;

	if (!e)
		return err;
	publish(sw, (void **)&p->members[member], e);
	return 0;
}

int p4odp_ctl_member_delete(struct p4odp_switch *sw, uint32_t profile, uint32_t member)
{
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, member, false, &err);

	if (!p)
		return err;
	if (p->member_users[member])
		return -EBUSY;
	publish(sw, (void **)&p->members[member], NULL);
	return 0;
}

const struct p4odp_table_entry *p4odp_ctl_member(struct p4odp_switch *sw, uint32_t profile, uint32_t member)
{
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, member, false, &err);

	return p ? p->members[member] : NULL;
}

int p4odp_ctl_group_add(struct p4odp_switch *sw, uint32_t profile, uint32_t *group)
{
	struct p4odp_runtime_profile *p = profile_at(sw, profile);

	if (!p || !p->info->selector)
		return -EINVAL;
	uint32_t handle = free_handle((void *const *)p->groups, p->info->size);
	if (handle == p->info->size)
		return -ENOSPC;
	struct p4odp_profile_group *g = calloc(1, sizeof *g);
	if (!g)
		return -ENOMEM;
	publish(sw, (void **)&p->groups[handle], g);
	*group = handle;
	return 0;
}

int p4odp_ctl_group_delete(struct p4odp_switch *sw, uint32_t profile, uint32_t group)
{
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, group, true, &err);

	if (!p)
		return err;
	if (p->group_users[group])
		return -EBUSY;
	for (uint32_t i = 0; i < p->groups[group]->n; i++)
		p->member_users[p->groups[group]->members[i]]--;
	publish(sw, (void **)&p->groups[group], NULL);
	return 0;
}

static int ascending(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int p4odp_ctl_group_set(struct p4odp_switch *sw, uint32_t profile, uint32_t group, const uint32_t *members,
			uint32_t n)
{
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, group, true, &err);

	if (!p)
		return err;
	if (n > p->info->size)
		return -EINVAL;
	struct p4odp_profile_group *g = malloc(sizeof *g + (n + 1) * sizeof g->members[0]);
	if (!g)
		return -ENOMEM;
	g->n = n;
	if (n)
		memcpy(g->members, members, n * sizeof members[0]);
	qsort(g->members, n, sizeof g->members[0], ascending);
	for (uint32_t i = 0; i < n; i++)
		if (g->members[i] >= p->info->size || !p->members[g->members[i]] ||
		    (i && g->members[i] == g->members[i - 1])) {
			err = g->members[i] >= p->info->size || !p->members[g->members[i]] ? -ENOENT : -EINVAL;
			free(g);
			return err;
		}
	const struct p4odp_profile_group *old = p->groups[group];
	for (uint32_t i = 0; i < old->n; i++)
		p->member_users[old->members[i]]--;
	for (uint32_t i = 0; i < n; i++)
		p->member_users[g->members[i]]++;
	publish(sw, (void **)&p->groups[group], g);
	return 0;
}

const struct p4odp_profile_group *p4odp_ctl_group(struct p4odp_switch *sw, uint32_t profile, uint32_t group)
{
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, group, true, &err);

	return p ? p->groups[group] : NULL;
}

uint32_t p4odp_ctl_member_users(struct p4odp_switch *sw, uint32_t profile, uint32_t member)
{
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, member, false, &err);

	return p ? p->member_users[member] : 0;
}

uint32_t p4odp_ctl_group_users(struct p4odp_switch *sw, uint32_t profile, uint32_t group)
{
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, group, true, &err);

	return p ? p->group_users[group] : 0;
}
