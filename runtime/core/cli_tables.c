/*
 * The simple_switch_CLI commands of tables and action profiles (cli.h): entries
 * parsed (cli_entries.c) into the calls of the control-plane API, and printed
 * back from it as simple_switch_CLI prints them.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>

#include "cli.h"

static void print_hex(FILE *out, const uint8_t *bytes, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		fprintf(out, "%02x", bytes[i]);
}

/* "Action entry: NAME - P1, P2" (each parameter's bytes in hex), or for a table with an action
 * profile "Index: member(N)" or "Index: group(N)". */
static void print_action_entry(FILE *out, const struct p4odp_program *p, uint16_t action_id, const uint8_t *data)
{
	if (action_id == P4ODP_ACTION_MEMBER || action_id == P4ODP_ACTION_GROUP) {
		uint32_t handle;
		memcpy(&handle, data, sizeof handle);
		fprintf(out, "Index: %s(%u)\n", action_id == P4ODP_ACTION_MEMBER ? "member" : "group", handle);
		return;
	}
	const struct p4odp_action_info *a = p4odp_action_by_id(p, action_id, NULL);
	if (!a) {
		fprintf(out, "EMPTY\n");
		return;
	}
	fprintf(out, "Action entry: %s - ", a->name);
	for (uint32_t i = 0, offset = 0; i < a->n_params; i++) {
		uint32_t n = (a->params[i].width + 7) / 8;
		fprintf(out, "%s", i ? ", " : "");
		print_hex(out, data + offset, n);
		offset += n;
	}
	fputc('\n', out);
}

struct entry_dump {
	FILE *out;
	struct p4odp_switch *sw;
	uint32_t table;
	bool separated;		/* a "**********" line before each entry (table_dump) */
};

/* One entry: its handle, each key field as "* NAME: KIND VALUE" (an optional field as BMv2 has
 * it, ternary: its value under an all-ones mask, or a zero mask for don't care), its priority in a
 * table that needs one, its action. */
static int dump_entry(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	static const char *const kinds[] = {
		[P4ODP_MATCH_EXACT] = "EXACT", [P4ODP_MATCH_LPM] = "LPM", [P4ODP_MATCH_TERNARY] = "TERNARY",
		[P4ODP_MATCH_RANGE] = "RANGE", [P4ODP_MATCH_OPTIONAL] = "TERNARY",
	};
	const struct entry_dump *d = arg;
	const struct p4odp_table_info *t = &d->sw->program->tables[d->table];
	FILE *out = d->out;
	uint64_t ttl, idle;
	int width = 20;

	for (uint32_t i = 0; i < t->n_keys; i++)
		if ((int)strlen(t->keys[i].name) > width)
			width = (int)strlen(t->keys[i].name);
	if (d->separated)
		fprintf(out, "**********\n");
	fprintf(out, "Dumping entry 0x%llx\nMatch key:\n", (unsigned long long)handle);
	for (uint32_t i = 0; i < t->n_keys; i++) {
		const struct p4odp_key_field_info *k = &t->keys[i];
		const struct p4odp_field_match *f = &m->fields[i];
		uint32_t n = (k->width + 7) / 8;
		fprintf(out, "* %-*s: %-10s", width, k->name, kinds[k->match_kind]);
		if (k->match_kind == P4ODP_MATCH_OPTIONAL) {
			for (uint32_t b = 0; b < n; b++)
				fprintf(out, "%02x", f->wildcard ? 0 : f->value[b]);
			fprintf(out, " &&& ");
			for (uint32_t b = 0; b < n; b++)	/* all ones over the field's width */
				fprintf(out, "%02x", f->wildcard ? 0 : b || k->width % 8 == 0 ? 0xff : 0xff >> (8 - k->width % 8));
		} else {
			print_hex(out, k->match_kind == P4ODP_MATCH_RANGE ? f->low : f->value, n);
		}
		if (k->match_kind == P4ODP_MATCH_LPM)
			fprintf(out, "/%u", f->prefix_len);
		if (k->match_kind == P4ODP_MATCH_TERNARY) {
			fprintf(out, " &&& ");
			print_hex(out, f->mask, n);
		}
		if (k->match_kind == P4ODP_MATCH_RANGE) {
			fprintf(out, " -> ");
			print_hex(out, f->high, n);
		}
		fputc('\n', out);
	}
	if (p4odp_table_has_priority(t))
		fprintf(out, "Priority: %d\n", INT32_MAX - m->priority);	/* parse_priority's inverse */
	print_action_entry(out, d->sw->program, e->action_id, e->data);
	if (t->idle_timeout && p4odp_ctl_entry_timer(d->sw, d->table, handle, &ttl, &idle) == 0)
		fprintf(out, "Life: %llums since hit, timeout is %llums\n", (unsigned long long)(idle / 1000000),
			(unsigned long long)(ttl / 1000000));
	return 0;
}

/* The API's refusal `err` of a change to table `t`'s entry `handle` (-1: a new entry), said. */
static int entry_error(struct command *c, const struct p4odp_table_info *t, int64_t handle, int err)
{
	switch (err) {
	case -EEXIST:
		return cli_fail(c, "table %s already has an entry with this key", t->name);
	case -ENOSPC:
		return cli_fail(c, "table %s is full", t->name);
	case -EPERM:
		return cli_fail(c, "the default action of table %s is const", t->name);
	case -ENOENT:
		if (handle >= 0)
			return cli_fail(c, "table %s has no entry with handle %lld", t->name, (long long)handle);
		break;
	}
	return cli_fail(c, "table %s: invalid entry (%s)", t->name, strerror(-err));
}

/* An entry of table `ti` that runs `call`; its handle printed. */
static int add_entry(struct p4odp_switch *sw, struct command *c, int ti, const struct p4odp_match *m,
		     const struct p4odp_action_call *call)
{
	int64_t handle;
	int err = p4odp_ctl_entry_add(sw, (uint32_t)ti, m, call, &handle);

	if (err)
		return entry_error(c, &sw->program->tables[ti], -1, err);
	fprintf(c->out, "Entry has been added with handle %lld\n", (long long)handle);
	return 0;
}

/* The action `name` of table `t` and its parameters from word `first` (after an optional "=>"). */
static int parse_call(struct command *c, const struct p4odp_program *p, const struct p4odp_table_info *t,
		      const char *name, int first, struct p4odp_action_call *call, uint8_t *data)
{
	const struct p4odp_action_info *a = cli_find_action(c, p, t, name);

	if (!a)
		return -1;
	if (first < c->n && strcmp(c->tokens[first], "=>") == 0)
		first++;
	*call = (struct p4odp_action_call){ .action = a->id, .data = data };
	return cli_parse_action_data(c, a, c->tokens + first, c->n - first, data, t->action_data_len);
}

static int cmd_table_add(struct p4odp_switch *sw, struct command *c)
{
	if (c->n < 3)
		return cli_fail(c, "usage: table_add TABLE ACTION KEY... => PARAM... [PRIORITY]");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	const struct p4odp_action_info *a = cli_find_action(c, sw->program, t, c->tokens[2]);
	if (!a)
		return -1;
	struct p4odp_field_match fields[t->n_keys ? t->n_keys : 1];
	struct p4odp_match m;
	uint8_t bytes[cli_key_bytes(t)], data[t->action_data_len + 1];
	int values, n_values;
	if (cli_parse_entry_key(c, t, 3, a->n_params, &m, fields, bytes, &values, &n_values) ||
	    cli_parse_action_data(c, a, c->tokens + values, n_values, data, t->action_data_len))
		return -1;
	return add_entry(sw, c, ti, &m, &(struct p4odp_action_call){ .action = a->id, .data = data });
}

static int cmd_table_set_default(struct p4odp_switch *sw, struct command *c)
{
	if (c->n < 3)
		return cli_fail(c, "usage: table_set_default TABLE ACTION PARAM...");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	if (t->default_const)
		return cli_fail(c, "the default action of table %s is const", t->name);
	struct p4odp_action_call call;
	uint8_t data[t->action_data_len + 1];
	if (parse_call(c, sw->program, t, c->tokens[2], 3, &call, data))
		return -1;
	int err = p4odp_ctl_default_set(sw, (uint32_t)ti, &call);
	return err ? entry_error(c, t, -1, err) : 0;
}

static int cmd_table_reset_default(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 2)
		return cli_fail(c, "usage: table_reset_default TABLE");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	int err = p4odp_ctl_default_reset(sw, (uint32_t)ti);
	return err ? entry_error(c, &sw->program->tables[ti], -1, err) : 0;
}

static int cmd_table_modify(struct p4odp_switch *sw, struct command *c)
{
	int64_t handle;
	if (c->n < 4)
		return cli_fail(c, "usage: table_modify TABLE ACTION HANDLE => PARAM...");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	struct p4odp_action_call call;
	uint8_t data[t->action_data_len + 1];
	if (parse_call(c, sw->program, t, c->tokens[2], 4, &call, data) || cli_parse_handle(c, c->tokens[3], &handle))
		return -1;
	int err = p4odp_ctl_entry_modify(sw, (uint32_t)ti, handle, &call);
	return err ? entry_error(c, t, handle, err) : 0;
}

static int cmd_table_delete(struct p4odp_switch *sw, struct command *c)
{
	int64_t handle;
	if (c->n != 3)
		return cli_fail(c, "usage: table_delete TABLE HANDLE");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0 || cli_parse_handle(c, c->tokens[2], &handle))
		return -1;
	int err = p4odp_ctl_entry_delete(sw, (uint32_t)ti, handle);
	return err ? entry_error(c, &sw->program->tables[ti], handle, err) : 0;
}

static int cmd_table_clear(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 2)
		return cli_fail(c, "usage: table_clear TABLE");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	int err = p4odp_ctl_table_clear(sw, (uint32_t)ti);
	return err ? entry_error(c, &sw->program->tables[ti], -1, err) : 0;
}

/* expire_time_set PROFILE MS: the time of an expire-time profile of the tables whose entries the
 * datapath adds (PNA's add-on-miss). */
static int cmd_expire_time_set(struct p4odp_switch *sw, struct command *c)
{
	uint64_t profile, ms;
	if (c->n != 3)
		return cli_fail(c, "usage: expire_time_set PROFILE MILLISECONDS");
	if (cli_parse_u64(c, c->tokens[1], &profile) || cli_parse_u64(c, c->tokens[2], &ms))
		return -1;
	if (profile >= P4ODP_EXPIRE_PROFILES)
		return cli_fail(c, "expire-time profile %s: profiles are 0 to %d", c->tokens[1], P4ODP_EXPIRE_PROFILES - 1);
	if (ms > UINT64_MAX / 4000000)
		return cli_fail(c, "time %s ms is too long", c->tokens[2]);
	return cli_result(c, p4odp_ctl_expire_time_set(sw, (uint32_t)profile, ms * 1000000));
}

/* table_set_timeout TABLE HANDLE MS: the entry's idle timeout (0: none), as on BMv2. */
static int cmd_table_set_timeout(struct p4odp_switch *sw, struct command *c)
{
	int64_t handle;
	uint64_t ms;
	if (c->n != 4)
		return cli_fail(c, "usage: table_set_timeout TABLE HANDLE MILLISECONDS");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0 || cli_parse_handle(c, c->tokens[2], &handle) || cli_parse_u64(c, c->tokens[3], &ms))
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	if (!t->idle_timeout)
		return cli_fail(c, "table %s does not support entry timeouts (support_timeout)", t->name);
	if (ms > UINT64_MAX / 1000000)
		return cli_fail(c, "timeout %s ms is too long", c->tokens[3]);
	int err = p4odp_ctl_entry_set_ttl(sw, (uint32_t)ti, handle, ms * 1000000);
	return err ? entry_error(c, t, handle, err) : 0;
}

/* ---- Action profiles: their members and groups, and the tables whose entries name them ---- */

static const char *profile_name(const struct p4odp_program *p, uint32_t i)
{
	return p->profiles[i].name;
}

/* Profile `name` (with `selector`, one that has groups): its index, -1 after saying why. */
static int find_profile(struct p4odp_switch *sw, struct command *c, const char *name, bool selector)
{
	int pi = cli_find_named(c, sw->program, "action profile", sw->program->n_profiles, profile_name, name);
	if (pi >= 0 && selector && !sw->program->profiles[pi].selector)
		return cli_fail(c, "action profile %s has no groups (it is not an action_selector)",
				sw->program->profiles[pi].name);
	return pi;
}

/* The member (or with `group`, the group) of profile `pi` whose handle is `text`. */
static int parse_profile_handle(struct p4odp_switch *sw, struct command *c, int pi, const char *text, bool group,
				uint32_t *handle)
{
	if (cli_parse_uint(c, text, handle))
		return -1;
	uint32_t members[sw->program->profiles[pi].size + 1], n, max_size;
	if (group ? p4odp_ctl_group(sw, (uint32_t)pi, *handle, members, &n, &max_size) != 0
		  : !p4odp_ctl_member(sw, (uint32_t)pi, *handle))
		return cli_fail(c, "action profile %s has no %s %s", sw->program->profiles[pi].name,
				group ? "group" : "member", text);
	return 0;
}

/* The action `name` of profile `pi` and its parameters from word `first`. */
static int parse_member_call(struct p4odp_switch *sw, struct command *c, int pi, const char *name, int first,
			     struct p4odp_action_call *call, uint8_t *data)
{
	const struct p4odp_profile_info *p = &sw->program->profiles[pi];
	char owner[300];
	snprintf(owner, sizeof owner, "action profile %s", p->name);
	const struct p4odp_action_info *a = cli_find_action_of(c, sw->program, owner, p->n_actions, p->actions, name);
	if (!a)
		return -1;
	*call = (struct p4odp_action_call){ .action = a->id, .data = data };
	return cli_parse_action_data(c, a, c->tokens + first, c->n - first, data, p->action_data_len);
}

static int cmd_act_prof_create_member(struct p4odp_switch *sw, struct command *c)
{
	if (c->n < 3)
		return cli_fail(c, "usage: act_prof_create_member PROFILE ACTION PARAM...");
	int pi = find_profile(sw, c, c->tokens[1], false);
	if (pi < 0)
		return -1;
	const struct p4odp_profile_info *p = &sw->program->profiles[pi];
	uint8_t data[p->action_data_len + 1];
	struct p4odp_action_call call;
	uint32_t member;
	if (parse_member_call(sw, c, pi, c->tokens[2], 3, &call, data))
		return -1;
	int err = p4odp_ctl_member_add(sw, (uint32_t)pi, P4ODP_ID_ANY, &call, &member);
	if (err == -ENOSPC)
		return cli_fail(c, "action profile %s is full (%u members)", p->name, p->size);
	if (err)
		return cli_fail(c, "action profile %s: %s", p->name, strerror(-err));
	fprintf(c->out, "Member has been created with handle %u\n", member);
	return 0;
}

static int cmd_act_prof_modify_member(struct p4odp_switch *sw, struct command *c)
{
	uint32_t member;
	if (c->n < 4)
		return cli_fail(c, "usage: act_prof_modify_member PROFILE ACTION MEMBER PARAM...");
	int pi = find_profile(sw, c, c->tokens[1], false);
	if (pi < 0)
		return -1;
	uint8_t data[sw->program->profiles[pi].action_data_len + 1];
	struct p4odp_action_call call;
	if (parse_member_call(sw, c, pi, c->tokens[2], 4, &call, data) ||
	    parse_profile_handle(sw, c, pi, c->tokens[3], false, &member))
		return -1;
	int err = p4odp_ctl_member_modify(sw, (uint32_t)pi, member, &call);
	return err ? cli_fail(c, "action profile %s: %s", sw->program->profiles[pi].name, strerror(-err)) : 0;
}

static int cmd_act_prof_delete_member(struct p4odp_switch *sw, struct command *c)
{
	uint32_t member;
	if (c->n != 3)
		return cli_fail(c, "usage: act_prof_delete_member PROFILE MEMBER");
	int pi = find_profile(sw, c, c->tokens[1], false);
	if (pi < 0 || parse_profile_handle(sw, c, pi, c->tokens[2], false, &member))
		return -1;
	uint32_t users = p4odp_ctl_member_users(sw, (uint32_t)pi, member);
	int err = p4odp_ctl_member_delete(sw, (uint32_t)pi, member);
	if (err == -EBUSY)
		return cli_fail(c, "member %u of action profile %s is in use (by %u table entries and groups)", member,
				sw->program->profiles[pi].name, users);
	return err ? cli_fail(c, "action profile %s: %s", sw->program->profiles[pi].name, strerror(-err)) : 0;
}

static int cmd_act_prof_create_group(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group;
	if (c->n != 2)
		return cli_fail(c, "usage: act_prof_create_group PROFILE");
	int pi = find_profile(sw, c, c->tokens[1], true);
	if (pi < 0)
		return -1;
	const struct p4odp_profile_info *p = &sw->program->profiles[pi];
	int err = p4odp_ctl_group_add(sw, (uint32_t)pi, P4ODP_ID_ANY, 0, &group);
	if (err == -ENOSPC)
		return cli_fail(c, "action profile %s is full (%u groups)", p->name, p->size);
	if (err)
		return cli_fail(c, "action profile %s: %s", p->name, strerror(-err));
	fprintf(c->out, "Group has been created with handle %u\n", group);
	return 0;
}

static int cmd_act_prof_delete_group(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group;
	if (c->n != 3)
		return cli_fail(c, "usage: act_prof_delete_group PROFILE GROUP");
	int pi = find_profile(sw, c, c->tokens[1], true);
	if (pi < 0 || parse_profile_handle(sw, c, pi, c->tokens[2], true, &group))
		return -1;
	uint32_t users = p4odp_ctl_group_users(sw, (uint32_t)pi, group);
	int err = p4odp_ctl_group_delete(sw, (uint32_t)pi, group);
	if (err == -EBUSY)
		return cli_fail(c, "group %u of action profile %s is in use (by %u table entries)", group,
				sw->program->profiles[pi].name, users);
	return err ? cli_fail(c, "action profile %s: %s", sw->program->profiles[pi].name, strerror(-err)) : 0;
}

/* act_prof_add_member_to_group and act_prof_remove_member_from_group: the group's members with
 * the member added or left out. */
static int cmd_act_prof_group_member(struct p4odp_switch *sw, struct command *c)
{
	bool add = c->form;
	uint32_t member, group;
	if (c->n != 4)
		return cli_fail(c, add ? "usage: act_prof_add_member_to_group PROFILE MEMBER GROUP"
				       : "usage: act_prof_remove_member_from_group PROFILE MEMBER GROUP");
	int pi = find_profile(sw, c, c->tokens[1], true);
	if (pi < 0 || parse_profile_handle(sw, c, pi, c->tokens[2], false, &member) ||
	    parse_profile_handle(sw, c, pi, c->tokens[3], true, &group))
		return -1;
	uint32_t members[sw->program->profiles[pi].size + 1], n, max_size, kept = 0;
	bool in = false;
	p4odp_ctl_group(sw, (uint32_t)pi, group, members, &n, &max_size);
	for (uint32_t i = 0; i < n; i++) {
		in = in || members[i] == member;
		if (members[i] != member)
			members[kept++] = members[i];
	}
	n = kept;
	if (in == add)
		return cli_fail(c, "member %u is %s group %u of action profile %s", member, add ? "already in" : "not in",
				group, sw->program->profiles[pi].name);
	if (add)
		members[n++] = member;
	int err = p4odp_ctl_group_set(sw, (uint32_t)pi, group, members, n);
	if (err == -ENOSPC)
		return cli_fail(c, "group %u of action profile %s is full (%u members)", group,
				sw->program->profiles[pi].name, max_size);
	return err ? cli_fail(c, "action profile %s: %s", sw->program->profiles[pi].name, strerror(-err)) : 0;
}

/* Table `name`, whose entries name members or groups of an action profile: its index. */
static int find_indirect_table(struct p4odp_switch *sw, struct command *c, const char *name)
{
	int ti = cli_find_table(c, sw->program, name);
	if (ti >= 0 && sw->program->tables[ti].profile < 0)
		return cli_fail(c, "table %s has no action profile: use table_add, table_modify and table_set_default",
				sw->program->tables[ti].name);
	return ti;
}

/* The member (or the group) `text` of the profile of table `t`, as what an entry runs.  A group
 * must have a member (BMv2 refuses an empty one). */
static int parse_reference(struct p4odp_switch *sw, struct command *c, const struct p4odp_table_info *t,
			   const char *text, bool group, struct p4odp_action_call *call)
{
	*call = (struct p4odp_action_call){ .action = group ? P4ODP_ACTION_GROUP : P4ODP_ACTION_MEMBER };
	if ((group && find_profile(sw, c, sw->program->profiles[t->profile].name, true) < 0) ||
	    parse_profile_handle(sw, c, t->profile, text, group, &call->ref))
		return -1;
	uint32_t members[sw->program->profiles[t->profile].size + 1], n = 1, max_size;
	if (group)
		p4odp_ctl_group(sw, (uint32_t)t->profile, call->ref, members, &n, &max_size);
	return n ? 0 : cli_fail(c, "group %u of action profile %s is empty", call->ref,
				sw->program->profiles[t->profile].name);
}

static int cmd_table_indirect_add(struct p4odp_switch *sw, struct command *c)
{
	bool group = c->form;
	if (c->n < 3)
		return cli_fail(c, group ? "usage: table_indirect_add_with_group TABLE KEY... => GROUP [PRIORITY]"
					 : "usage: table_indirect_add TABLE KEY... => MEMBER [PRIORITY]");
	int ti = find_indirect_table(sw, c, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	struct p4odp_field_match fields[t->n_keys ? t->n_keys : 1];
	struct p4odp_match m;
	struct p4odp_action_call call;
	uint8_t bytes[cli_key_bytes(t)];
	int values, n_values;
	if (cli_parse_entry_key(c, t, 2, 1, &m, fields, bytes, &values, &n_values))
		return -1;
	if (n_values != 1)
		return cli_fail(c, "one %s handle after =>, %d words given", group ? "group" : "member", n_values);
	if (parse_reference(sw, c, t, c->tokens[values], group, &call))
		return -1;
	return add_entry(sw, c, ti, &m, &call);
}

static int cmd_table_indirect_modify(struct p4odp_switch *sw, struct command *c)
{
	bool group = c->form;
	int64_t handle;
	struct p4odp_action_call call;
	if (c->n != 4)
		return cli_fail(c, group ? "usage: table_indirect_modify_with_group TABLE ENTRY GROUP"
					 : "usage: table_indirect_modify TABLE ENTRY MEMBER");
	int ti = find_indirect_table(sw, c, c->tokens[1]);
	if (ti < 0 || cli_parse_handle(c, c->tokens[2], &handle) ||
	    parse_reference(sw, c, &sw->program->tables[ti], c->tokens[3], group, &call))
		return -1;
	int err = p4odp_ctl_entry_modify(sw, (uint32_t)ti, handle, &call);
	return err ? entry_error(c, &sw->program->tables[ti], handle, err) : 0;
}

static int cmd_table_indirect_set_default(struct p4odp_switch *sw, struct command *c)
{
	bool group = c->form;
	struct p4odp_action_call call;
	if (c->n != 3)
		return cli_fail(c, group ? "usage: table_indirect_set_default_with_group TABLE GROUP"
					 : "usage: table_indirect_set_default TABLE MEMBER");
	int ti = find_indirect_table(sw, c, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	if (t->default_const)
		return cli_fail(c, "the default action of table %s is const", t->name);
	if (parse_reference(sw, c, t, c->tokens[2], group, &call))
		return -1;
	int err = p4odp_ctl_default_set(sw, (uint32_t)ti, &call);
	return err ? entry_error(c, t, -1, err) : 0;
}

/* ---- Reads of tables as simple_switch_CLI prints them ---- */

/* p4odp_table_visit_fn: the action of entry `e` (table_dump's default entry). */
static int dump_action(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	const struct entry_dump *d = arg;

	(void)handle, (void)m;
	print_action_entry(d->out, d->sw->program, e->action_id, e->data);
	return 0;
}

/* table_num_entries TABLE */
static int cmd_table_num_entries(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 2)
		return cli_fail(c, "usage: table_num_entries TABLE");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	fprintf(c->out, "%u\n", p4odp_ctl_entry_count(sw, (uint32_t)ti));
	return 0;
}

/* table_dump_entry TABLE HANDLE */
static int cmd_table_dump_entry(struct p4odp_switch *sw, struct command *c)
{
	int64_t handle;
	if (c->n != 3)
		return cli_fail(c, "usage: table_dump_entry TABLE HANDLE");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0 || cli_parse_handle(c, c->tokens[2], &handle))
		return -1;
	struct entry_dump d = { c->out, sw, (uint32_t)ti, false };
	if (p4odp_ctl_entry(sw, (uint32_t)ti, handle, dump_entry, &d))
		return cli_fail(c, "table %s has no entry %s", sw->program->tables[ti].name, c->tokens[2]);
	return 0;
}

/* table_dump_entry_from_key TABLE KEY... [PRIORITY]: the entry of that key (and priority, in a
 * table that needs one), as table_dump_entry prints it. */
static int cmd_table_dump_entry_from_key(struct p4odp_switch *sw, struct command *c)
{
	if (c->n < 2)
		return cli_fail(c, "usage: table_dump_entry_from_key TABLE KEY... [PRIORITY]");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	int n_keys = c->n - 2;
	int32_t priority = 0;
	if (p4odp_table_has_priority(t)) {
		if (n_keys != (int)t->n_keys + 1)
			return cli_fail(c, "table %s needs %u key fields and a priority", t->name, t->n_keys);
		if (cli_parse_priority(c, c->tokens[c->n - 1], &priority))
			return -1;
		n_keys--;
	}
	struct p4odp_field_match fields[t->n_keys ? t->n_keys : 1];
	uint8_t bytes[cli_key_bytes(t)];
	if (cli_parse_key(c, t, c->tokens + 2, n_keys, fields, bytes))
		return -1;
	struct p4odp_match m = { .fields = fields, .priority = priority };
	int64_t handle = p4odp_ctl_entry_find(sw, (uint32_t)ti, &m);
	struct entry_dump d = { c->out, sw, (uint32_t)ti, false };
	if (handle < 0 || p4odp_ctl_entry(sw, (uint32_t)ti, handle, dump_entry, &d))
		return cli_fail(c, "table %s has no entry with this key", t->name);
	return 0;
}

/* One entry the datapath added (p4odp_learnt_fn): the worker that keeps it, its key fields, its
 * action and the time it has left. */
static void dump_learnt(void *arg, uint32_t worker, const uint8_t *key, const struct p4odp_table_entry *e,
			uint32_t profile, uint64_t left_ns)
{
	const struct entry_dump *d = arg;
	const struct p4odp_table_info *t = &d->sw->program->tables[d->table];

	fprintf(d->out, "**********\nLearnt entry of worker %u\nMatch key:\n", worker);
	for (uint32_t i = 0, at = 0; i < t->n_keys; i++) {
		uint32_t n = (t->keys[i].width + 7) / 8;
		fprintf(d->out, "* %-20s: %-10s", t->keys[i].name, "EXACT");
		print_hex(d->out, key + at, n);
		fputc('\n', d->out);
		at += n;
	}
	print_action_entry(d->out, d->sw->program, e->action_id, e->data);
	fprintf(d->out, "Life: expires in %llums (expire-time profile %u)\n", (unsigned long long)(left_ns / 1000000),
		profile);
}

/* The learner of table `ti`, -1 when the datapath adds none of its entries. */
static int learner_of(const struct p4odp_program *p, uint32_t ti)
{
	for (uint32_t l = 0; l < p->n_learners; l++)
		if (p->learners[l].table == ti)
			return (int)l;
	return -1;
}

/* table_dump TABLE: every entry, in handle order, then those the datapath added, then the default entry. */
static int cmd_table_dump(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 2)
		return cli_fail(c, "usage: table_dump TABLE");
	int ti = cli_find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	struct entry_dump d = { c->out, sw, (uint32_t)ti, true };
	fprintf(c->out, "==========\nTABLE ENTRIES\n");
	p4odp_ctl_entries(sw, (uint32_t)ti, dump_entry, &d);
	int learner = learner_of(sw->program, (uint32_t)ti);
	if (learner >= 0)
		p4odp_ctl_learnt_entries(sw, (uint32_t)learner, dump_learnt, &d);
	fprintf(c->out, "==========\nDumping default entry\n");
	p4odp_ctl_default(sw, (uint32_t)ti, dump_action, &d);
	fprintf(c->out, "==========\n");
	return 0;
}

const struct cli_command p4odp_cli_table_commands[] = {
	{ "table_add", cmd_table_add, 0 },
	{ "table_set_default", cmd_table_set_default, 0 },
	{ "table_reset_default", cmd_table_reset_default, 0 },
	{ "table_modify", cmd_table_modify, 0 },
	{ "table_delete", cmd_table_delete, 0 },
	{ "table_clear", cmd_table_clear, 0 },
	{ "table_set_timeout", cmd_table_set_timeout, 0 },
	{ "expire_time_set", cmd_expire_time_set, 0 },
	{ "table_num_entries", cmd_table_num_entries, 0 },
	{ "table_dump", cmd_table_dump, 0 },
	{ "table_dump_entry", cmd_table_dump_entry, 0 },
	{ "table_dump_entry_from_key", cmd_table_dump_entry_from_key, 0 },
	{ "table_indirect_add", cmd_table_indirect_add, false },
	{ "table_indirect_add_with_group", cmd_table_indirect_add, true },
	{ "table_indirect_modify", cmd_table_indirect_modify, false },
	{ "table_indirect_modify_with_group", cmd_table_indirect_modify, true },
	{ "table_indirect_delete", cmd_table_delete, 0 },
	{ "table_indirect_set_default", cmd_table_indirect_set_default, false },
	{ "table_indirect_set_default_with_group", cmd_table_indirect_set_default, true },
	{ "act_prof_create_member", cmd_act_prof_create_member, 0 },
	{ "act_prof_modify_member", cmd_act_prof_modify_member, 0 },
	{ "act_prof_delete_member", cmd_act_prof_delete_member, 0 },
	{ "act_prof_create_group", cmd_act_prof_create_group, 0 },
	{ "act_prof_delete_group", cmd_act_prof_delete_group, 0 },
	{ "act_prof_add_member_to_group", cmd_act_prof_group_member, true },
	{ "act_prof_remove_member_from_group", cmd_act_prof_group_member, false },
	{ NULL, NULL, 0 },
};
