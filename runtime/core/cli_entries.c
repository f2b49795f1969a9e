/*
 * The words of a table entry in simple_switch_CLI's commands (cli.h): its key
 * fields, priority and action with its parameters, parsed into the bytes the
 * control-plane API takes.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>

#include "cli.h"

/* A value of key field `k`, an error naming the field. */
static int parse_key_value(struct command *c, const struct p4odp_key_field_info *k, const char *text, uint8_t *out)
{
	return cli_parse_value(c, text, k->width, k->is_signed, out) ? cli_about(c, "key", k->name) : 0;
}

/* Parse the key fields of an entry. */
int cli_parse_key(struct command *c, const struct p4odp_table_info *t, char **tokens, int n,
		  struct p4odp_field_match *fields, uint8_t *bytes)
{
	if ((uint32_t)n != t->n_keys)
		return cli_fail(c, "table %s has %u key fields, %d given", t->name, t->n_keys, n);
	for (uint32_t i = 0; i < t->n_keys; i++) {
		const struct p4odp_key_field_info *k = &t->keys[i];
		struct p4odp_field_match *f = &fields[i];
		uint32_t nbytes = (k->width + 7) / 8;
		char *tok = tokens[i], *sep;
		uint8_t *value = bytes, *mask = bytes + nbytes, *high = bytes + 2 * nbytes;
		bytes += 3 * nbytes;
		f->value = value;
		f->low = value;
		f->mask = NULL;
		f->high = high;
		f->prefix_len = k->width;
		f->wildcard = false;
		switch (k->match_kind) {
		case P4ODP_MATCH_LPM:
			sep = strchr(tok, '/');
			if (!sep)
				return cli_fail(c, "key %s: expected VALUE/LENGTH for an lpm field", k->name);
			*sep = '\0';
			if (parse_key_value(c, k, tok, value) || cli_parse_uint(c, sep + 1, &f->prefix_len))
				return -1;
			if (f->prefix_len > k->width)
				return cli_fail(c, "key %s: prefix length %u is longer than the field", k->name, f->prefix_len);
			/* As BMv2 does, bits past the prefix are ignored rather than refused. */
			for (uint32_t bit = f->prefix_len; bit < k->width; bit++) {
				uint32_t pos = nbytes * 8 - k->width + bit;
				value[pos / 8] &= (uint8_t)~(0x80 >> (pos % 8));
			}
			break;
		case P4ODP_MATCH_TERNARY:
		case P4ODP_MATCH_OPTIONAL:
			sep = strstr(tok, "&&&");
			if (sep) {
				*sep = '\0';
				if (parse_key_value(c, k, sep + 3, mask))
					return -1;
			} else {
				memset(mask, 0xff, nbytes);
				p4odp_wide_trunc(mask, nbytes, k->width);
			}
			if (parse_key_value(c, k, tok, value))
				return -1;
			bool all_zero = true;
			for (uint32_t i = 0; i < nbytes; i++) {
				value[i] &= mask[i]; /* bits outside the mask do not matter */
				all_zero = all_zero && mask[i] == 0;
			}
			if (k->match_kind == P4ODP_MATCH_OPTIONAL) {
				f->wildcard = all_zero;
				if (!all_zero && sep) {
					for (uint32_t i = 0; i < nbytes; i++)
						if ((uint8_t)(mask[i] | (i == 0 ? (uint8_t)~(0xff >> (nbytes * 8 - k->width)) : 0)) != 0xff)
							return cli_fail(c, "key %s: an optional field takes a value or a zero mask", k->name);
				}
			} else {
				f->mask = mask;
			}
			break;
		case P4ODP_MATCH_RANGE:
			sep = strstr(tok, "->");
			if (!sep)
				return cli_fail(c, "key %s: expected LOW->HIGH for a range field", k->name);
			*sep = '\0';
			/* The workers compare a range's bounds as unsigned bit patterns, as BMv2 does:
			 * -1 would be the largest value of an int<W> field, not the smallest. */
			if (k->is_signed && (tok[0] == '-' || sep[2] == '-'))
				return cli_fail(c, "key %s: the bounds of a range are compared as unsigned bit patterns "
					    "(as on BMv2): give them in 0..2^%u-1", k->name, k->width);
			if (parse_key_value(c, k, tok, value) || parse_key_value(c, k, sep + 2, high))
				return -1;
			if (memcmp(value, high, nbytes) > 0)
				return cli_fail(c, "key %s: the range %.*s%s->%.*s%s is empty", k->name, SHOWN(tok),
					    SHOWN(sep + 2));
			break;
		default:
			if (parse_key_value(c, k, tok, value))
				return -1;
		}
	}
	return 0;
}

int cli_parse_action_data(struct command *c, const struct p4odp_action_info *a, char **tokens, int n,
			  uint8_t *data, uint32_t data_len)
{
	uint32_t offset = 0;
	if ((uint32_t)n != a->n_params)
		return cli_fail(c, "action %s takes %u parameters, %d given", a->name, a->n_params, n);
	memset(data, 0, data_len);
	for (uint32_t i = 0; i < a->n_params; i++) {
		if (cli_parse_value(c, tokens[i], a->params[i].width, a->params[i].is_signed, data + offset))
			return cli_about(c, "parameter", a->params[i].name);
		offset += (a->params[i].width + 7) / 8;
	}
	return 0;
}

/* The simple_switch_CLI priority `text` (0..INT32_MAX, the smaller wins) as the tables take it (the
 * larger wins) in *priority. */
int cli_parse_priority(struct command *c, const char *text, int32_t *priority)
{
	uint32_t cli_priority;
	if (cli_parse_uint(c, text, &cli_priority))
		return -1;
	if (cli_priority > INT32_MAX)
		return cli_fail(c, "priority %u is out of range 0..%d", cli_priority, INT32_MAX);
	*priority = (int32_t)(INT32_MAX - cli_priority);
	return 0;
}

static int find_arrow(struct command *c)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->tokens[i], "=>") == 0)
			return i;
	return c->n;
}

/* The bytes parse_key needs for an entry of table `t`. */
uint32_t cli_key_bytes(const struct p4odp_table_info *t)
{
	uint32_t n = 1;
	for (uint32_t i = 0; i < t->n_keys; i++)
		n += 3 * ((t->keys[i].width + 7) / 8);
	return n;
}

/* The key and priority of a new entry of table `t`: its fields are the words
 * from `first` to `=>`, which `expected` words follow and, in a table with
 * ternary, range or optional fields, the priority.  How many words follow
 * `=>` but the priority, and where they start, in *n_values and *values. */
int cli_parse_entry_key(struct command *c, const struct p4odp_table_info *t, int first, uint32_t expected,
			struct p4odp_match *m, struct p4odp_field_match *fields, uint8_t *bytes, int *values,
			int *n_values)
{
	int arrow = find_arrow(c);
	int32_t priority = INT32_MAX;	/* simple_switch_CLI's 0, when none is given */

	*values = arrow + 1;
	*n_values = arrow < c->n ? c->n - arrow - 1 : 0;
	if (p4odp_table_has_priority(t)) {
		if (*n_values == (int)expected + 1) {
			if (cli_parse_priority(c, c->tokens[c->n - 1], &priority))
				return -1;
			--*n_values;
		} else if (*n_values != (int)expected) {
			return cli_fail(c, "table %s needs a priority after the action parameters", t->name);
		}
	}
	*m = (struct p4odp_match){ .fields = fields, .priority = priority };
	return cli_parse_key(c, t, c->tokens + first, arrow - first, fields, bytes);
}

/* The action called `name` among the `n` of `ids`, those of `owner` (a table, an action profile). */
const struct p4odp_action_info *cli_find_action_of(struct command *c, const struct p4odp_program *p,
						   const char *owner, uint32_t n, const uint32_t *ids, const char *name)
{
	const struct p4odp_action_info *found = NULL;
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t j = 0; j < p->n_actions; j++) {
			const struct p4odp_action_info *a = &p->actions[j];
			if (a->id != ids[i])
				continue;
			if (strcmp(a->name, name) == 0)
				return a;
			if (cli_name_matches(a->name, name)) {
				if (found && found != a) {
					cli_fail(c, "action name '%s' is ambiguous in %s", name, owner);
					return NULL;
				}
				found = a;
			}
		}
	}
	if (!found)
		cli_fail(c, "%s has no action named '%s'", owner, name);
	return found;
}

/* A table's action called `name`, for a table whose entries name actions (not an action profile's members). */
const struct p4odp_action_info *cli_find_action(struct command *c, const struct p4odp_program *p,
						const struct p4odp_table_info *table, const char *name)
{
	char owner[300];
	snprintf(owner, sizeof owner, "table %s", table->name);
	if (table->profile >= 0) {
		cli_fail(c, "the entries of table %s name members of action profile %s: use the table_indirect_ commands",
		     table->name, p->profiles[table->profile].name);
		return NULL;
	}
	return cli_find_action_of(c, p, owner, table->n_actions, table->action_ids, name);
}
