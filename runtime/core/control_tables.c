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

/* The slot of the member (or with `group`, the group) of id `id` in profile `p`; p->info->size
 * when there is none. */
static uint32_t slot_of(const struct p4odp_runtime_profile *p, uint32_t id, bool group)
{
	for (uint32_t i = 0; i < p->info->size; i++)
		if (group ? p->groups[i] && p->slots[i].group_id == id : p->members[i] && p->slots[i].member_id == id)
			return i;
	return p->info->size;
}

/* `delta` more users of what an entry of action `action_id` and data `data` (a slot) names in profile `p`. */
static void count_reference(struct p4odp_runtime_profile *p, uint16_t action_id, const uint8_t *data, int delta)
{
	uint32_t slot;

	memcpy(&slot, data, sizeof slot);
	if (action_id == P4ODP_ACTION_MEMBER)
		p->slots[slot].member_users += (uint32_t)delta;
	else if (action_id == P4ODP_ACTION_GROUP)
		p->slots[slot].group_users += (uint32_t)delta;
}

/* What an entry of a table with an action profile names: its action id and the slot. */
struct reference {
	uint16_t action_id;
	uint8_t slot[sizeof(uint32_t)];
};

/* p4odp_table_visit_fn: what entry `e` names, into the struct reference at `out`. */
static int get_reference(void *out, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	struct reference *r = out;

	(void)handle, (void)m;
	r->action_id = e->action_id;
	memcpy(r->slot, e->data, sizeof r->slot);
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

	for (uint32_t i = 0; i < p->info->size; i++)
		p->slots[i].member_users = p->slots[i].group_users = 0;
	for (uint32_t ti = 0; ti < sw->program->n_tables; ti++) {
		if (sw->program->tables[ti].profile != pi)
			continue;
		p4odp_table_foreach(sw->tables[ti].table, add_user, p);
		add_user(p, -1, NULL, p4odp_table_get_default(sw->tables[ti].table));
	}
	for (uint32_t g = 0; g < p->info->size; g++)
		for (uint32_t i = 0; p->groups[g] && i < p->groups[g]->n; i++)
			p->slots[p->groups[g]->members[i]].member_users++;
}

/* The member or group `call` names, as an entry's data (its slot): -ENOENT when there is none,
 * -ENODATA for an empty group (BMv2 refuses one). */
static int indirect_data(const struct p4odp_runtime_profile *p, const struct p4odp_action_call *call, uint8_t *out,
			 uint32_t len)
{
	bool group = call->action == P4ODP_ACTION_GROUP;

	if ((!group && call->action != P4ODP_ACTION_MEMBER) || (group && !p->info->selector))
		return -EINVAL;
	uint32_t slot = slot_of(p, call->ref, group);
	if (slot == p->info->size)
		return -ENOENT;
	if (group && !p->groups[slot]->n)
		return -ENODATA;
	memset(out, 0, len);
	memcpy(out, &slot, sizeof slot);
	return 0;
}

/* A read's visitor, for a table whose entries name slots of profile `p`: fn gets each entry with
 * the id of what it names in place of the slot. */
struct id_visit {
	const struct p4odp_runtime_profile *p;
	p4odp_table_visit_fn fn;
	void *arg;
};

static int visit_with_ids(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	const struct id_visit *v = arg;
	_Alignas(struct p4odp_table_entry) uint8_t room[sizeof(struct p4odp_table_entry) + sizeof(uint32_t)];
	struct p4odp_table_entry *shown = (struct p4odp_table_entry *)room;
	uint32_t slot, id;

	if (!v->p || (e->action_id != P4ODP_ACTION_MEMBER && e->action_id != P4ODP_ACTION_GROUP))
		return v->fn(v->arg, handle, m, e);
	memcpy(&slot, e->data, sizeof slot);
	id = e->action_id == P4ODP_ACTION_MEMBER ? v->p->slots[slot].member_id : v->p->slots[slot].group_id;
	*shown = (struct p4odp_table_entry){ .action_id = e->action_id, .index = e->index };
	memcpy(shown->data, &id, sizeof id);
	return v->fn(v->arg, handle, m, shown);
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
	p4odp_timer_start(sw, table, h);
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
		count_reference(p, old.action_id, old.slot, -1);
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
	p4odp_timer_stop(sw, table, handle);
	p4odp_notes_drop(sw, table, handle);
	if (p)
		count_reference(p, old.action_id, old.slot, -1);
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
	p4odp_timer_stop(sw, table, -1);
	p4odp_notes_drop(sw, table, -1);
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
		count_reference(p, before.action_id, before.slot, -1);
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
	if (!err && !(err = set_default(sw, table, action_id, data)))
		sw->tables[table].default_changed = true;
	return err;
}

int p4odp_ctl_default_reset(struct p4odp_switch *sw, uint32_t table)
{
	const struct p4odp_table_info *t = table_at(sw, table);

	if (!t)
		return -EINVAL;
	uint8_t data[t->action_data_len + 1];
	memset(data, 0, sizeof data);
	memcpy(data, t->default_data, t->default_data_len);
	int err = set_default(sw, table, (uint16_t)t->default_action, data);
	if (!err)
		sw->tables[table].default_changed = false;
	return err;
}

bool p4odp_ctl_default_is_programs(struct p4odp_switch *sw, uint32_t table)
{
	return table_at(sw, table) && !sw->tables[table].default_changed;
}

int p4odp_ctl_entries(struct p4odp_switch *sw, uint32_t table, p4odp_table_visit_fn fn, void *arg)
{
	const struct p4odp_table_info *t = table_at(sw, table);
	struct id_visit v = { t ? profile_of(sw, t) : NULL, fn, arg };

	return t ? p4odp_table_foreach(sw->tables[table].table, visit_with_ids, &v) : -EINVAL;
}

int p4odp_ctl_entry(struct p4odp_switch *sw, uint32_t table, int64_t handle, p4odp_table_visit_fn fn, void *arg)
{
	const struct p4odp_table_info *t = table_at(sw, table);
	struct id_visit v = { t ? profile_of(sw, t) : NULL, fn, arg };

	return t ? p4odp_table_get(sw->tables[table].table, handle, visit_with_ids, &v) : -EINVAL;
}

uint32_t p4odp_ctl_entry_count(struct p4odp_switch *sw, uint32_t table)
{
	return table_at(sw, table) ? p4odp_table_count(sw->tables[table].table) : 0;
}

int p4odp_ctl_default(struct p4odp_switch *sw, uint32_t table, p4odp_table_visit_fn fn, void *arg)
{
	const struct p4odp_table_info *t = table_at(sw, table);
	struct id_visit v = { t ? profile_of(sw, t) : NULL, fn, arg };

	return t ? visit_with_ids(&v, -1, NULL, p4odp_table_get_default(sw->tables[table].table)) : -EINVAL;
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

/* A free slot for a new member (or group) of id `*id` in `p` (P4ODP_ID_ANY: the lowest id free,
 * set in *id): the slot, or a negative errno. */
static int64_t new_slot(const struct p4odp_runtime_profile *p, bool group, uint32_t *id)
{
	void *const *slots = group ? (void *const *)p->groups : (void *const *)p->members;
	uint32_t free = 0;

	while (free < p->info->size && slots[free])
		free++;
	if (*id == P4ODP_ID_ANY) {
		*id = 0;	/* there are at most size ids in use: one of 0..size is free */
		while (slot_of(p, *id, group) < p->info->size)
			++*id;
	} else if (slot_of(p, *id, group) < p->info->size) {
		return -EEXIST;
	}
	return free < p->info->size ? (int64_t)free : -ENOSPC;
}

/* The slot of member (or with `group`, group) `id` of profile `profile`: the profile, or NULL with
 * the error in *err. */
static struct p4odp_runtime_profile *profile_with(struct p4odp_switch *sw, uint32_t profile, uint32_t id, bool group,
						  uint32_t *slot, int *err)
{
	struct p4odp_runtime_profile *p = profile_at(sw, profile);

	*err = !p || (group && !p->info->selector) ? -EINVAL
	       : (*slot = slot_of(p, id, group)) == p->info->size ? -ENOENT : 0;
	return *err ? NULL : p;
}

int p4odp_ctl_member_add(struct p4odp_switch *sw, uint32_t profile, uint32_t id, const struct p4odp_action_call *call,
			 uint32_t *member)
{
	struct p4odp_runtime_profile *p = profile_at(sw, profile);
	int err;

	if (!p)
		return -EINVAL;
	int64_t slot = new_slot(p, false, &id);
	if (slot < 0)
		return (int)slot;
	struct p4odp_table_entry *e = new_member(sw, p, call, &err);
	if (!e)
		return err;
	p->slots[slot].member_id = id;
	p->slots[slot].member_users = 0;
	publish(sw, (void **)&p->members[slot], e);
	*member = id;
	return 0;
}

int p4odp_ctl_member_modify(struct p4odp_switch *sw, uint32_t profile, uint32_t member,
			    const struct p4odp_action_call *call)
{
	uint32_t slot;
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, member, false, &slot, &err);
	struct p4odp_table_entry *e = p ? new_member(sw, p, call, &err) : NULL;

	if (!e)
		return err;
	publish(sw, (void **)&p->members[slot], e);
	return 0;
}

int p4odp_ctl_member_delete(struct p4odp_switch *sw, uint32_t profile, uint32_t member)
{
	uint32_t slot;
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, member, false, &slot, &err);

	if (!p)
		return err;
	if (p->slots[slot].member_users)
		return -EBUSY;
	publish(sw, (void **)&p->members[slot], NULL);
	return 0;
}

const struct p4odp_table_entry *p4odp_ctl_member(struct p4odp_switch *sw, uint32_t profile, uint32_t member)
{
	uint32_t slot;
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, member, false, &slot, &err);

	return p ? p->members[slot] : NULL;
}

/* fn(arg, id) for each member (or with `group`, group) of profile `profile`, in slot order. */
static int visit_ids(struct p4odp_switch *sw, uint32_t profile, bool group, int (*fn)(void *arg, uint32_t id),
		     void *arg)
{
	const struct p4odp_runtime_profile *p = profile_at(sw, profile);
	int status = 0;

	if (!p)
		return -EINVAL;
	for (uint32_t i = 0; i < p->info->size && !status; i++)
		if (group ? (void *)p->groups[i] : (void *)p->members[i])
			status = fn(arg, group ? p->slots[i].group_id : p->slots[i].member_id);
	return status;
}

int p4odp_ctl_members(struct p4odp_switch *sw, uint32_t profile, int (*fn)(void *arg, uint32_t id), void *arg)
{
	return visit_ids(sw, profile, false, fn, arg);
}

int p4odp_ctl_groups(struct p4odp_switch *sw, uint32_t profile, int (*fn)(void *arg, uint32_t id), void *arg)
{
	return visit_ids(sw, profile, true, fn, arg);
}

int p4odp_ctl_group_add(struct p4odp_switch *sw, uint32_t profile, uint32_t id, uint32_t max_size, uint32_t *group)
{
	struct p4odp_runtime_profile *p = profile_at(sw, profile);

	if (!p || !p->info->selector || max_size > p->info->size)
		return -EINVAL;
	int64_t slot = new_slot(p, true, &id);
	if (slot < 0)
		return (int)slot;
	struct p4odp_profile_group *g = calloc(1, sizeof *g);
	if (!g)
		return -ENOMEM;
	p->slots[slot].group_id = id;
	p->slots[slot].group_users = 0;
	p->slots[slot].group_max = max_size;
	publish(sw, (void **)&p->groups[slot], g);
	*group = id;
	return 0;
}

int p4odp_ctl_group_delete(struct p4odp_switch *sw, uint32_t profile, uint32_t group)
{
	uint32_t slot;
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, group, true, &slot, &err);

	if (!p)
		return err;
	if (p->slots[slot].group_users)
		return -EBUSY;
	for (uint32_t i = 0; i < p->groups[slot]->n; i++)
		p->slots[p->groups[slot]->members[i]].member_users--;
	publish(sw, (void **)&p->groups[slot], NULL);
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
	uint32_t slot;
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, group, true, &slot, &err);

	if (!p)
		return err;
	if (n > (p->slots[slot].group_max ? p->slots[slot].group_max : p->info->size))
		return -ENOSPC;
	struct p4odp_profile_group *g = malloc(sizeof *g + (n + 1) * sizeof g->members[0]);
	if (!g)
		return -ENOMEM;
	g->n = n;
	for (uint32_t i = 0; i < n; i++)
		if ((g->members[i] = slot_of(p, members[i], false)) == p->info->size) {
			free(g);
			return -ENOENT;
		}
	qsort(g->members, n, sizeof g->members[0], ascending);
	for (uint32_t i = 1; i < n; i++)
		if (g->members[i] == g->members[i - 1]) {
			free(g);
			return -EINVAL;
		}
	const struct p4odp_profile_group *old = p->groups[slot];
	for (uint32_t i = 0; i < old->n; i++)
		p->slots[old->members[i]].member_users--;
	for (uint32_t i = 0; i < n; i++)
		p->slots[g->members[i]].member_users++;
	publish(sw, (void **)&p->groups[slot], g);
	return 0;
}

int p4odp_ctl_group(struct p4odp_switch *sw, uint32_t profile, uint32_t group, uint32_t *members, uint32_t *n,
		    uint32_t *max_size)
{
	uint32_t slot;
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, group, true, &slot, &err);

	if (!p)
		return err;
	const struct p4odp_profile_group *g = p->groups[slot];
	for (uint32_t i = 0; i < g->n; i++)
		members[i] = p->slots[g->members[i]].member_id;
	*n = g->n;
	*max_size = p->slots[slot].group_max;
	return 0;
}

uint32_t p4odp_ctl_member_users(struct p4odp_switch *sw, uint32_t profile, uint32_t member)
{
	uint32_t slot;
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, member, false, &slot, &err);

	return p ? p->slots[slot].member_users : 0;
}

uint32_t p4odp_ctl_group_users(struct p4odp_switch *sw, uint32_t profile, uint32_t group)
{
	uint32_t slot;
	int err;
	struct p4odp_runtime_profile *p = profile_with(sw, profile, group, true, &slot, &err);

	return p ? p->slots[slot].group_users : 0;
}
