/*
 * The control plane's commands, in BMv2 simple_switch_CLI syntax:
 *
 *   table_add TABLE ACTION KEY... => PARAM... [PRIORITY]
 *   table_set_default TABLE ACTION PARAM... / table_reset_default TABLE (the program's default)
 *   table_modify TABLE ACTION HANDLE => PARAM...
 *   table_delete TABLE HANDLE
 *   table_clear TABLE
 *   mc_mgrp_create GROUP / mc_mgrp_destroy GROUP / mc_node_create RID PORT... /
 *   mc_node_update NODE PORT... / mc_node_associate GROUP NODE / mc_node_dissociate GROUP NODE /
 *   mc_node_destroy NODE / mc_mgrp_set GROUP [NODE...] (p4odp's: a group's nodes set at once)
 *   mirroring_add SESSION PORT / mirroring_add_mc SESSION GROUP / mirroring_delete SESSION /
 *   mirroring_get SESSION
 *   act_prof_create_member PROFILE ACTION PARAM... / act_prof_modify_member PROFILE ACTION MEMBER
 *   PARAM... / act_prof_delete_member PROFILE MEMBER / act_prof_create_group PROFILE /
 *   act_prof_delete_group PROFILE GROUP / act_prof_add_member_to_group PROFILE MEMBER GROUP /
 *   act_prof_remove_member_from_group PROFILE MEMBER GROUP
 *   table_indirect_add TABLE KEY... => MEMBER [PRIORITY] / table_indirect_add_with_group TABLE
 *   KEY... => GROUP [PRIORITY] / table_indirect_modify[_with_group] TABLE ENTRY MEMBER|GROUP /
 *   table_indirect_delete TABLE ENTRY / table_indirect_set_default[_with_group] TABLE MEMBER|GROUP
 *   counter_read COUNTER INDEX / counter_write COUNTER INDEX PACKETS BYTES / counter_reset COUNTER
 *     (a direct counter's INDEX is an entry handle of its table)
 *   register_read REGISTER INDEX / register_write REGISTER INDEX VALUE / register_reset REGISTER
 *   meter_array_set_rates METER CIR:CBS PIR:PBS / meter_set_rates METER INDEX CIR:CBS PIR:PBS /
 *   meter_get_rates METER INDEX / meter_reset METER [INDEX] (no rates: every packet green)
 *     (rates in units per microsecond, bursts in units; a direct meter's INDEX is an entry
 *     handle of its table)
 *   pvs_add VALUE_SET VALUE / pvs_remove VALUE_SET VALUE / pvs_clear VALUE_SET
 *   table_num_entries TABLE / table_dump TABLE / table_dump_entry TABLE HANDLE /
 *   table_dump_entry_from_key TABLE KEY... [PRIORITY] / mc_dump
 *   help: the commands' names, a line each
 *   p4info: the program's P4Info, serialized, in hex (what a P4Runtime server serves)
 *   packet_out HEX: a packet into the pipeline as received on the CPU port (cpu_port.c)
 * (and, served by the control channel itself, digest_listen / digest_unlisten /
 * packet_listen / packet_unlisten / swap_listen / swap_unlisten: channel.c)
 *   set_crc16_parameters CALC POLYNOMIAL INIT FINAL_XOR REFLECT_DATA REFLECT_REMAINDER (and
 *     set_crc32_parameters): a custom CRC's, as p4c names the calculation ("calc", "calc_0", ...)
 *
 * Keys: exact `V`, lpm `V/LEN`, ternary `V&&&MASK`, range `LOW->HIGH`,
 * optional `V` or `V&&&MASK`.  Values: decimal, 0x hex, 0b binary, MAC
 * (aa:bb:cc:dd:ee:ff), IPv4 (a.b.c.d), IPv6 (x:y::z).  Tables and actions
 * are named in full or by a unique suffix (`ipv4_lpm` for
 * `MyIngress.ipv4_lpm`).  A bad command changes nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "switch.h"

/* mc_node_create of a node on every port number; mc_mgrp_set of a full group fits too. */
#define MAX_TOKENS (2 + P4ODP_PORT_NUMBERS)
#define MAX_VALUE_BYTES 256

struct command {
	char *tokens[MAX_TOKENS];
	int n;
	FILE *out;		/* where what the command prints goes; NULL: nowhere (the program's const entries) */
	uint32_t form;		/* which of its forms the handler runs (the handlers table's): a flag, a CRC width */
	char *err;
	size_t err_len;
};

static int fail(struct command *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, c->err_len, fmt, ap);
	va_end(ap);
	return -1;
}

/* A name that is `want` or ends in `.want`. */
static bool name_matches(const char *name, const char *want)
{
	size_t n = strlen(name), w = strlen(want);
	return n == w ? strcmp(name, want) == 0 : n > w && name[n - w - 1] == '.' && strcmp(name + n - w, want) == 0;
}

/* The index of the item called `name`, or of the only one whose name ends in
 * `.name`, among the `n` items of kind `what` that name_at() names; -1 after
 * saying why not. */
static int find_named(struct command *c, const struct p4odp_program *p, const char *what, uint32_t n,
		      const char *(*name_at)(const struct p4odp_program *, uint32_t), const char *name)
{
	int found = -1;
	for (uint32_t i = 0; i < n; i++) {
		if (strcmp(name_at(p, i), name) == 0)
			return (int)i;
		if (name_matches(name_at(p, i), name)) {
			if (found >= 0)
				return fail(c, "%s name '%s' is ambiguous", what, name);
			found = (int)i;
		}
	}
	return found >= 0 ? found : fail(c, "no %s named '%s'", what, name);
}

static const char *table_name(const struct p4odp_program *p, uint32_t i)
{
	return p->tables[i].name;
}

static const char *counter_name(const struct p4odp_program *p, uint32_t i)
{
	return p->counters[i].name;
}

static int find_table(struct command *c, const struct p4odp_program *p, const char *name)
{
	return find_named(c, p, "table", p->n_tables, table_name, name);
}

/* The action called `name` among the `n` of `ids`, those of `owner` (a table, an action profile). */
static const struct p4odp_action_info *find_action_of(struct command *c, const struct p4odp_program *p,
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
			if (name_matches(a->name, name)) {
				if (found && found != a) {
					fail(c, "action name '%s' is ambiguous in %s", name, owner);
					return NULL;
				}
				found = a;
			}
		}
	}
	if (!found)
		fail(c, "%s has no action named '%s'", owner, name);
	return found;
}

/* A table's action called `name`, for a table whose entries name actions (not an action profile's members). */
static const struct p4odp_action_info *find_action(struct command *c, const struct p4odp_program *p,
						   const struct p4odp_table_info *table, const char *name)
{
	char owner[300];
	snprintf(owner, sizeof owner, "table %s", table->name);
	if (table->profile >= 0) {
		fail(c, "the entries of table %s name members of action profile %s: use the table_indirect_ commands",
		     table->name, p->profiles[table->profile].name);
		return NULL;
	}
	return find_action_of(c, p, owner, table->n_actions, table->action_ids, name);
}

/* The two's complement of the `width`-bit number in `v` (ceil(width/8) bytes,
 * network order), in place. */
static void negate(uint8_t *v, uint32_t width)
{
	unsigned carry = 1;
	for (int i = (int)((width + 7) / 8) - 1; i >= 0; i--) {
		unsigned x = (uint8_t)~v[i] + carry;
		v[i] = (uint8_t)x;
		carry = x >> 8;
	}
	if (width % 8)
		v[0] &= (uint8_t)(0xff >> (8 - width % 8));
}

/* A word of a command as an error message quotes it: "'%.*s%s'" of SHOWN(text), at most
 * SHOWN_CHARS of it, so that a word of thousands of characters leaves room for the reason. */
#define SHOWN_CHARS 40
#define SHOWN(text) (int)(strlen(text) > SHOWN_CHARS ? SHOWN_CHARS : strlen(text)), (text), \
		    strlen(text) > SHOWN_CHARS ? "..." : ""

/* Whether `text` is a MAC address, aa:bb:cc:dd:ee:ff: six pairs of hex digits between colons. */
static bool is_mac(const char *text)
{
	for (int i = 0; i < 17; i++)
		if (i % 3 == 2 ? text[i] != ':' : !isxdigit((unsigned char)text[i]))
			return false;
	return text[17] == '\0';
}

/* Whether the number in `buf` (MAX_VALUE_BYTES, network order) fits in `width` bits, which take
 * its last `nbytes`. */
static bool fits(const uint8_t *buf, uint32_t nbytes, uint32_t width)
{
	for (uint32_t i = 0; i < MAX_VALUE_BYTES - nbytes; i++)
		if (buf[i])
			return false;
	return !(width % 8 && buf[MAX_VALUE_BYTES - nbytes] >> (width % 8));
}

/* Parse `text` as a number of `width` bits into `out` (ceil(width/8) bytes, network order):
 * 0..2^W-1, the bit pattern as P4Runtime gives it too; with `is_signed` (an int<W>) also a
 * negative number down to -2^(W-1), stored as its two's complement. */
static int parse_value(struct command *c, const char *text, uint32_t width, bool is_signed, uint8_t *out)
{
	uint32_t nbytes = (width + 7) / 8;
	uint8_t buf[MAX_VALUE_BYTES] = { 0 };
	const char *s = text;

	if (nbytes > MAX_VALUE_BYTES)
		return fail(c, "value '%.*s%s' is wider than supported", SHOWN(text));
	if (!*s)
		return fail(c, "empty value");
	if (strchr(s, ':') && !strchr(s, '.') && strlen(s) == 17 && width <= 48) {
		unsigned int b[6];
		if (!is_mac(s) || sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
			return fail(c, "bad MAC address '%s'", text);
		for (int i = 0; i < 6; i++)
			buf[MAX_VALUE_BYTES - 6 + i] = (uint8_t)b[i];
	} else if (strchr(s, ':')) {
		struct in6_addr a6;
		if (inet_pton(AF_INET6, s, &a6) != 1)
			return fail(c, "bad IPv6 address '%.*s%s'", SHOWN(text));
		memcpy(buf + MAX_VALUE_BYTES - 16, &a6, 16);
	} else if (strchr(s, '.')) {
		struct in_addr a4;
		if (inet_pton(AF_INET, s, &a4) != 1)
			return fail(c, "bad IPv4 address '%.*s%s'", SHOWN(text));
		memcpy(buf + MAX_VALUE_BYTES - 4, &a4, 4);
	} else {
		unsigned base = 10;
		uint32_t used = 0;	/* the low bytes of buf the digits so far reach */
		bool negative = false;
		if (*s == '-') {
			negative = true;
			s++;
		}
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			base = 16;
			s += 2;
		} else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
			base = 2;
			s += 2;
		}
		if (!strpbrk(s, "0123456789abcdefABCDEF"))	/* no digit: "", "_" */
			return fail(c, "bad number '%.*s%s'", SHOWN(text));
		for (; *s; s++) {
			unsigned digit;
			if (*s == '_')
				continue;
			if (isdigit((unsigned char)*s))
				digit = (unsigned)(*s - '0');
			else if (isxdigit((unsigned char)*s))
				digit = (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
			else
				return fail(c, "bad number '%.*s%s'", SHOWN(text));
			if (digit >= base)
				return fail(c, "bad number '%.*s%s'", SHOWN(text));
			/* buf = buf * base + digit, over the bytes in use and those the carry reaches */
			unsigned carry = digit;
			uint32_t i = 0;
			for (; i < used || carry; i++) {
				if (i == MAX_VALUE_BYTES)
					return fail(c, "value '%.*s%s' is too large", SHOWN(text));
				unsigned v = buf[MAX_VALUE_BYTES - 1 - i] * base + carry;
				buf[MAX_VALUE_BYTES - 1 - i] = (uint8_t)v;
				carry = v >> 8;
			}
			used = i;
		}
		if (negative) {
			uint8_t *v = buf + MAX_VALUE_BYTES - nbytes;
			if (!is_signed && used)	/* "-0" is 0 */
				return fail(c, "value '%.*s%s' is negative: a bit<%u> value is not", SHOWN(text), width);
			if (!fits(buf, nbytes, width))
				return fail(c, "value '%.*s%s' does not fit in int<%u>", SHOWN(text), width);
			negate(v, width);
			/* a magnitude above 2^(W-1) comes out of the negation without its sign bit
			 * (used == 0: the magnitude is 0) */
			if (used && !(v[0] >> ((width - 1) % 8) & 1))
				return fail(c, "value '%.*s%s' does not fit in int<%u>", SHOWN(text), width);
		}
	}
	if (!fits(buf, nbytes, width))
		return fail(c, "value '%.*s%s' does not fit in %u bits", SHOWN(text), width);
	memcpy(out, buf + MAX_VALUE_BYTES - nbytes, nbytes);
	return 0;
}

static int parse_uint(struct command *c, const char *text, uint32_t *out)
{
	char *end;
	errno = 0;
	/* strtoull, not strtoul: a 32-bit unsigned long would take "-1" as
	 * UINT32_MAX; strtoull negates a sign silently, so a '-' is refused. */
	unsigned long long v = strtoull(text, &end, 0);
	if (errno || *end || end == text || strchr(text, '-') || v > UINT32_MAX)
		return fail(c, "'%.*s%s' is not a number", SHOWN(text));
	*out = (uint32_t)v;
	return 0;
}

static int parse_handle(struct command *c, const char *text, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);	/* decimal, as simple_switch_CLI reads handles */
	if (errno || *end || end == text || v < 0)
		return fail(c, "'%.*s%s' is not an entry handle", SHOWN(text));
	*out = v;
	return 0;
}

/* The command's error so far, followed by " (WHAT NAME)": which value of the line it is about. */
static int about(struct command *c, const char *what, const char *name)
{
	size_t len = strlen(c->err);
	snprintf(c->err + len, c->err_len - len, " (%s %s)", what, name);
	return -1;
}

/* A value of key field `k`, an error naming the field. */
static int parse_key_value(struct command *c, const struct p4odp_key_field_info *k, const char *text, uint8_t *out)
{
	return parse_value(c, text, k->width, k->is_signed, out) ? about(c, "key", k->name) : 0;
}

/* Parse the key fields of an entry. */
static int parse_key(struct command *c, const struct p4odp_table_info *t, char **tokens, int n,
		     struct p4odp_field_match *fields, uint8_t *bytes)
{
	if ((uint32_t)n != t->n_keys)
		return fail(c, "table %s has %u key fields, %d given", t->name, t->n_keys, n);
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
				return fail(c, "key %s: expected VALUE/LENGTH for an lpm field", k->name);
			*sep = '\0';
			if (parse_key_value(c, k, tok, value) || parse_uint(c, sep + 1, &f->prefix_len))
				return -1;
			if (f->prefix_len > k->width)
				return fail(c, "key %s: prefix length %u is longer than the field", k->name, f->prefix_len);
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
							return fail(c, "key %s: an optional field takes a value or a zero mask", k->name);
				}
			} else {
				f->mask = mask;
			}
			break;
		case P4ODP_MATCH_RANGE:
			sep = strstr(tok, "->");
			if (!sep)
				return fail(c, "key %s: expected LOW->HIGH for a range field", k->name);
			*sep = '\0';
			/* The workers compare a range's bounds as unsigned bit patterns, as BMv2 does:
			 * -1 would be the largest value of an int<W> field, not the smallest. */
			if (k->is_signed && (tok[0] == '-' || sep[2] == '-'))
				return fail(c, "key %s: the bounds of a range are compared as unsigned bit patterns "
					    "(as on BMv2): give them in 0..2^%u-1", k->name, k->width);
			if (parse_key_value(c, k, tok, value) || parse_key_value(c, k, sep + 2, high))
				return -1;
			if (memcmp(value, high, nbytes) > 0)
				return fail(c, "key %s: the range %.*s%s->%.*s%s is empty", k->name, SHOWN(tok),
					    SHOWN(sep + 2));
			break;
		default:
			if (parse_key_value(c, k, tok, value))
				return -1;
		}
	}
	return 0;
}

static int parse_action_data(struct command *c, const struct p4odp_action_info *a, char **tokens, int n,
			     uint8_t *data, uint32_t data_len)
{
	uint32_t offset = 0;
	if ((uint32_t)n != a->n_params)
		return fail(c, "action %s takes %u parameters, %d given", a->name, a->n_params, n);
	memset(data, 0, data_len);
	for (uint32_t i = 0; i < a->n_params; i++) {
		if (parse_value(c, tokens[i], a->params[i].width, a->params[i].is_signed, data + offset))
			return about(c, "parameter", a->params[i].name);
		offset += (a->params[i].width + 7) / 8;
	}
	return 0;
}

static bool needs_priority(const struct p4odp_table_info *t)
{
	for (uint32_t i = 0; i < t->n_keys; i++)
		if (t->keys[i].match_kind == P4ODP_MATCH_TERNARY || t->keys[i].match_kind == P4ODP_MATCH_RANGE ||
		    t->keys[i].match_kind == P4ODP_MATCH_OPTIONAL)
			return true;
	return false;
}

/* The simple_switch_CLI priority `text` (0..INT32_MAX, the smaller wins) as the tables take it (the
 * larger wins) in *priority. */
static int parse_priority(struct command *c, const char *text, int32_t *priority)
{
	uint32_t cli_priority;
	if (parse_uint(c, text, &cli_priority))
		return -1;
	if (cli_priority > INT32_MAX)
		return fail(c, "priority %u is out of range 0..%d", cli_priority, INT32_MAX);
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
static uint32_t key_bytes(const struct p4odp_table_info *t)
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
static int parse_entry_key(struct command *c, const struct p4odp_table_info *t, int first, uint32_t expected,
			   struct p4odp_match *m, struct p4odp_field_match *fields, uint8_t *bytes, int *values,
			   int *n_values)
{
	int arrow = find_arrow(c);
	int32_t priority = INT32_MAX;	/* simple_switch_CLI's 0, when none is given */

	*values = arrow + 1;
	*n_values = arrow < c->n ? c->n - arrow - 1 : 0;
	if (needs_priority(t)) {
		if (*n_values == (int)expected + 1) {
			if (parse_priority(c, c->tokens[c->n - 1], &priority))
				return -1;
			--*n_values;
		} else if (*n_values != (int)expected) {
			return fail(c, "table %s needs a priority after the action parameters", t->name);
		}
	}
	*m = (struct p4odp_match){ .fields = fields, .priority = priority };
	return parse_key(c, t, c->tokens + first, arrow - first, fields, bytes);
}

/* Add an entry to table `ti`; print its handle. */
static int add_entry(struct p4odp_switch *sw, struct command *c, FILE *out, int ti, const struct p4odp_match *m,
		     uint16_t action_id, const uint8_t *data)
{
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	int64_t handle = p4odp_table_add(sw->tables[ti].table, m, action_id, data);

	if (handle == -EEXIST)
		return fail(c, "table %s already has an entry with this key", t->name);
	if (handle == -ENOSPC)
		return fail(c, "table %s is full", t->name);
	if (handle < 0)
		return fail(c, "table %s: invalid entry (%s)", t->name, strerror((int)-handle));
	if (out)
		fprintf(out, "Entry has been added with handle %lld\n", (long long)handle);
	return 0;
}

static int cmd_table_add(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	if (c->n < 3)
		return fail(c, "usage: table_add TABLE ACTION KEY... => PARAM... [PRIORITY]");
	int ti = find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	const struct p4odp_action_info *a = find_action(c, sw->program, t, c->tokens[2]);
	if (!a)
		return -1;
	struct p4odp_field_match fields[t->n_keys ? t->n_keys : 1];
	struct p4odp_match m;
	uint8_t bytes[key_bytes(t)], data[t->action_data_len + 1];
	int values, n_values;
	if (parse_entry_key(c, t, 3, a->n_params, &m, fields, bytes, &values, &n_values) ||
	    parse_action_data(c, a, c->tokens + values, n_values, data, t->action_data_len))
		return -1;
	return add_entry(sw, c, out, ti, &m, (uint16_t)a->id, data);
}

static int cmd_table_set_default(struct p4odp_switch *sw, struct command *c)
{
	if (c->n < 3)
		return fail(c, "usage: table_set_default TABLE ACTION PARAM...");
	int ti = find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	if (t->default_const)
		return fail(c, "the default action of table %s is const", t->name);
	const struct p4odp_action_info *a = find_action(c, sw->program, t, c->tokens[2]);
	if (!a)
		return -1;
	int first = 3;
	if (first < c->n && strcmp(c->tokens[first], "=>") == 0)
		first++;
	uint8_t data[t->action_data_len + 1];
	if (parse_action_data(c, a, c->tokens + first, c->n - first, data, t->action_data_len))
		return -1;
	if (p4odp_table_set_default(sw->tables[ti].table, (uint16_t)a->id, data))
		return fail(c, "table %s: cannot set the default action", t->name);
	return 0;
}

static int cmd_table_reset_default(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 2)
		return fail(c, "usage: table_reset_default TABLE");
	int ti = find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	if (p4odp_table_reset_default(sw, (uint32_t)ti))
		return fail(c, "table %s: cannot set the default action", sw->program->tables[ti].name);
	return 0;
}

static int cmd_table_modify(struct p4odp_switch *sw, struct command *c)
{
	if (c->n < 4)
		return fail(c, "usage: table_modify TABLE ACTION HANDLE => PARAM...");
	int ti = find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	const struct p4odp_action_info *a = find_action(c, sw->program, t, c->tokens[2]);
	int64_t handle;
	if (!a || parse_handle(c, c->tokens[3], &handle))
		return -1;
	int first = 4;
	if (first < c->n && strcmp(c->tokens[first], "=>") == 0)
		first++;
	uint8_t data[t->action_data_len + 1];
	if (parse_action_data(c, a, c->tokens + first, c->n - first, data, t->action_data_len))
		return -1;
	if (p4odp_table_modify(sw->tables[ti].table, handle, (uint16_t)a->id, data))
		return fail(c, "table %s has no entry with handle %lld", t->name, (long long)handle);
	return 0;
}

/* ---- Action profiles: their members and groups, and the tables whose entries name them ---- */

static const char *profile_name(const struct p4odp_program *p, uint32_t i)
{
	return p->profiles[i].name;
}

static struct p4odp_runtime_profile *find_profile(struct p4odp_switch *sw, struct command *c, const char *name)
{
	int i = find_named(c, sw->program, "action profile", sw->program->n_profiles, profile_name, name);
	return i < 0 ? NULL : &sw->profiles[i];
}

/* The member (or with `group`, the group) of profile `p` whose handle is `text`. */
static int parse_profile_handle(struct command *c, const struct p4odp_runtime_profile *p, const char *text,
				bool group, uint32_t *handle)
{
	if (parse_uint(c, text, handle))
		return -1;
	if (*handle >= p->info->size || !(group ? (void *)p->groups[*handle] : (void *)p->members[*handle]))
		return fail(c, "action profile %s has no %s %s", p->info->name, group ? "group" : "member", text);
	return 0;
}

/* What an entry of a table with an action profile names: a member or a group (its action id
 * P4ODP_ACTION_MEMBER or P4ODP_ACTION_GROUP, its handle), or an action (a default from the program). */
struct reference {
	uint16_t action_id;
	uint32_t handle;
};

/* What an entry of action `action_id` and action data `data` names. */
static struct reference reference_of_data(uint16_t action_id, const uint8_t *data)
{
	struct reference r = { action_id, 0 };
	memcpy(&r.handle, data, sizeof r.handle);
	return r;
}

static struct reference reference_of(const struct p4odp_table_entry *e)
{
	return reference_of_data(e->action_id, e->data);
}

/* `delta` more users of what `r` names in profile `p`. */
static void count_reference(struct p4odp_runtime_profile *p, struct reference r, int delta)
{
	if (r.action_id == P4ODP_ACTION_MEMBER)
		p->member_users[r.handle] += (uint32_t)delta;
	else if (r.action_id == P4ODP_ACTION_GROUP)
		p->group_users[r.handle] += (uint32_t)delta;
}

/* p4odp_table_visit_fn: one more user of what entry `e` of a table of `profile` names. */
static int add_user(void *profile, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	(void)handle;
	(void)m;
	count_reference(profile, reference_of(e), 1);
	return 0;
}

/* p4odp_table_visit_fn: what entry `e` names, into the struct reference at `out`. */
static int get_reference(void *out, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	(void)handle;
	(void)m;
	*(struct reference *)out = reference_of(e);
	return 0;
}

/* The users of each member and group of profile `pi` (the entries, defaults included, of its tables
 * and, for a member, the groups), counted anew: after a table is cleared.  The other commands
 * count their own change. */
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

/* A new member or group of `p` in place of `old` (NULL: none), which workers may still read until a
 * grace period has passed; then it is freed. */
static void publish(struct p4odp_switch *sw, void **slot, void *now)
{
	void *old = *slot;
	__atomic_store_n(slot, now, __ATOMIC_RELEASE);
	if (old) {
		p4odp_rcu_synchronize(sw->rcu);
		free(old);
	}
}

/* A member's entry: action `a` and its data from the words from `first`. */
static struct p4odp_table_entry *new_member(struct command *c, const struct p4odp_runtime_profile *p,
					    const struct p4odp_action_info *a, int first)
{
	uint32_t len = p->info->action_data_len;
	struct p4odp_table_entry *e = calloc(1, sizeof *e + len + 1);
	if (!e) {
		fail(c, "out of memory");
		return NULL;
	}
	e->action_id = (uint16_t)a->id;
	e->index = P4ODP_TABLE_NO_INDEX;
	if (parse_action_data(c, a, c->tokens + first, c->n - first, e->data, len)) {
		free(e);
		return NULL;
	}
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

static const struct p4odp_action_info *profile_action(struct command *c, const struct p4odp_program *prog,
						      const struct p4odp_runtime_profile *p, const char *name)
{
	char owner[300];
	snprintf(owner, sizeof owner, "action profile %s", p->info->name);
	return find_action_of(c, prog, owner, p->info->n_actions, p->info->actions, name);
}

static int cmd_act_prof_create_member(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	if (c->n < 3)
		return fail(c, "usage: act_prof_create_member PROFILE ACTION PARAM...");
	struct p4odp_runtime_profile *p = find_profile(sw, c, c->tokens[1]);
	const struct p4odp_action_info *a = p ? profile_action(c, sw->program, p, c->tokens[2]) : NULL;
	if (!a)
		return -1;
	uint32_t handle = free_handle((void *const *)p->members, p->info->size);
	if (handle == p->info->size)
		return fail(c, "action profile %s is full (%u members)", p->info->name, p->info->size);
	struct p4odp_table_entry *member = new_member(c, p, a, 3);
	if (!member)
		return -1;
	publish(sw, (void **)&p->members[handle], member);
	if (out)
		fprintf(out, "Member has been created with handle %u\n", handle);
	return 0;
}

static int cmd_act_prof_modify_member(struct p4odp_switch *sw, struct command *c)
{
	uint32_t handle;
	if (c->n < 4)
		return fail(c, "usage: act_prof_modify_member PROFILE ACTION MEMBER PARAM...");
	struct p4odp_runtime_profile *p = find_profile(sw, c, c->tokens[1]);
	const struct p4odp_action_info *a = p ? profile_action(c, sw->program, p, c->tokens[2]) : NULL;
	if (!a || parse_profile_handle(c, p, c->tokens[3], false, &handle))
		return -1;
	struct p4odp_table_entry *member = new_member(c, p, a, 4);
	if (!member)
		return -1;
	publish(sw, (void **)&p->members[handle], member);
	return 0;
}

static int cmd_act_prof_delete_member(struct p4odp_switch *sw, struct command *c)
{
	uint32_t handle;
	if (c->n != 3)
		return fail(c, "usage: act_prof_delete_member PROFILE MEMBER");
	struct p4odp_runtime_profile *p = find_profile(sw, c, c->tokens[1]);
	if (!p || parse_profile_handle(c, p, c->tokens[2], false, &handle))
		return -1;
	if (p->member_users[handle])
		return fail(c, "member %u of action profile %s is in use (by %u table entries and groups)", handle,
			    p->info->name, p->member_users[handle]);
	publish(sw, (void **)&p->members[handle], NULL);
	return 0;
}

/* -1 after saying why when profile `p` has no groups. */
static int need_groups(struct command *c, const struct p4odp_runtime_profile *p)
{
	return p->info->selector ? 0 : fail(c, "action profile %s has no groups (it is not an action_selector)",
					    p->info->name);
}

static struct p4odp_runtime_profile *find_selector(struct p4odp_switch *sw, struct command *c, const char *name)
{
	struct p4odp_runtime_profile *p = find_profile(sw, c, name);
	return p && need_groups(c, p) == 0 ? p : NULL;
}

static int cmd_act_prof_create_group(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	if (c->n != 2)
		return fail(c, "usage: act_prof_create_group PROFILE");
	struct p4odp_runtime_profile *p = find_selector(sw, c, c->tokens[1]);
	if (!p)
		return -1;
	uint32_t handle = free_handle((void *const *)p->groups, p->info->size);
	if (handle == p->info->size)
		return fail(c, "action profile %s is full (%u groups)", p->info->name, p->info->size);
	struct p4odp_profile_group *group = calloc(1, sizeof *group);
	if (!group)
		return fail(c, "out of memory");
	publish(sw, (void **)&p->groups[handle], group);
	if (out)
		fprintf(out, "Group has been created with handle %u\n", handle);
	return 0;
}

static int cmd_act_prof_delete_group(struct p4odp_switch *sw, struct command *c)
{
	uint32_t handle;
	if (c->n != 3)
		return fail(c, "usage: act_prof_delete_group PROFILE GROUP");
	struct p4odp_runtime_profile *p = find_selector(sw, c, c->tokens[1]);
	if (!p || parse_profile_handle(c, p, c->tokens[2], true, &handle))
		return -1;
	if (p->group_users[handle])
		return fail(c, "group %u of action profile %s is in use (by %u table entries)", handle, p->info->name,
			    p->group_users[handle]);
	for (uint32_t i = 0; i < p->groups[handle]->n; i++)
		p->member_users[p->groups[handle]->members[i]]--;
	publish(sw, (void **)&p->groups[handle], NULL);
	return 0;
}

/* act_prof_add_member_to_group and act_prof_remove_member_from_group: the group replaced by a copy
 * with the member added (in handle order) or left out. */
static int cmd_act_prof_group_member(struct p4odp_switch *sw, struct command *c)
{
	bool add = c->form;
	uint32_t member, handle;
	if (c->n != 4)
		return fail(c, add ? "usage: act_prof_add_member_to_group PROFILE MEMBER GROUP"
				   : "usage: act_prof_remove_member_from_group PROFILE MEMBER GROUP");
	struct p4odp_runtime_profile *p = find_selector(sw, c, c->tokens[1]);
	if (!p || parse_profile_handle(c, p, c->tokens[2], false, &member) ||
	    parse_profile_handle(c, p, c->tokens[3], true, &handle))
		return -1;
	const struct p4odp_profile_group *old = p->groups[handle];
	uint32_t at = 0;
	while (at < old->n && old->members[at] < member)
		at++;
	bool in = at < old->n && old->members[at] == member;
	if (in == add)
		return fail(c, "member %u is %s group %u of action profile %s", member, add ? "already in" : "not in",
			    handle, p->info->name);
	uint32_t n = add ? old->n + 1 : old->n - 1;
	struct p4odp_profile_group *group = malloc(sizeof *group + (n + 1) * sizeof group->members[0]);
	if (!group)
		return fail(c, "out of memory");
	group->n = n;
	memcpy(group->members, old->members, at * sizeof old->members[0]);
	if (add)
		group->members[at] = member;
	memcpy(group->members + at + add, old->members + at + !add, (old->n - at - !add) * sizeof old->members[0]);
	publish(sw, (void **)&p->groups[handle], group);
	p->member_users[member] += add ? 1 : (uint32_t)-1;
	return 0;
}

/* Table `name`, whose entries name members or groups of an action profile: its index. */
static int find_indirect_table(struct p4odp_switch *sw, struct command *c, const char *name)
{
	int ti = find_table(c, sw->program, name);
	if (ti >= 0 && sw->program->tables[ti].profile < 0)
		return fail(c, "table %s has no action profile: use table_add, table_modify and table_set_default",
			    sw->program->tables[ti].name);
	return ti;
}

/* The entry naming the member (or the group) `text` of the profile of table `t`: its action_id and
 * data.  A group must have a member (BMv2 refuses an empty one). */
static int parse_reference(struct p4odp_switch *sw, struct command *c, const struct p4odp_table_info *t,
			   const char *text, bool group, uint16_t *action_id, uint8_t *data)
{
	struct p4odp_runtime_profile *p = &sw->profiles[t->profile];
	uint32_t handle;
	if ((group && need_groups(c, p)) || parse_profile_handle(c, p, text, group, &handle))
		return -1;
	if (group && !p->groups[handle]->n)
		return fail(c, "group %u of action profile %s is empty", handle, p->info->name);
	*action_id = group ? P4ODP_ACTION_GROUP : P4ODP_ACTION_MEMBER;
	memset(data, 0, t->action_data_len);
	memcpy(data, &handle, sizeof handle);
	return 0;
}

static int cmd_table_indirect_add(struct p4odp_switch *sw, struct command *c)
{
	bool group = c->form;
	FILE *out = c->out;
	if (c->n < 3)
		return fail(c, group ? "usage: table_indirect_add_with_group TABLE KEY... => GROUP [PRIORITY]"
				     : "usage: table_indirect_add TABLE KEY... => MEMBER [PRIORITY]");
	int ti = find_indirect_table(sw, c, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	struct p4odp_field_match fields[t->n_keys ? t->n_keys : 1];
	struct p4odp_match m;
	uint8_t bytes[key_bytes(t)], data[t->action_data_len + 1];
	uint16_t action_id;
	int values, n_values;
	if (parse_entry_key(c, t, 2, 1, &m, fields, bytes, &values, &n_values))
		return -1;
	if (n_values != 1)
		return fail(c, "one %s handle after =>, %d words given", group ? "group" : "member", n_values);
	if (parse_reference(sw, c, t, c->tokens[values], group, &action_id, data) ||
	    add_entry(sw, c, out, ti, &m, action_id, data))
		return -1;
	count_reference(&sw->profiles[t->profile], reference_of_data(action_id, data), 1);
	return 0;
}

static int cmd_table_indirect_modify(struct p4odp_switch *sw, struct command *c)
{
	bool group = c->form;
	int64_t handle;
	if (c->n != 4)
		return fail(c, group ? "usage: table_indirect_modify_with_group TABLE ENTRY GROUP"
				     : "usage: table_indirect_modify TABLE ENTRY MEMBER");
	int ti = find_indirect_table(sw, c, c->tokens[1]);
	if (ti < 0 || parse_handle(c, c->tokens[2], &handle))
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	uint8_t data[t->action_data_len + 1];
	uint16_t action_id;
	struct reference old = { 0 };
	if (parse_reference(sw, c, t, c->tokens[3], group, &action_id, data))
		return -1;
	if (p4odp_table_get(sw->tables[ti].table, handle, get_reference, &old) ||
	    p4odp_table_modify(sw->tables[ti].table, handle, action_id, data))
		return fail(c, "table %s has no entry with handle %lld", t->name, (long long)handle);
	count_reference(&sw->profiles[t->profile], old, -1);
	count_reference(&sw->profiles[t->profile], reference_of_data(action_id, data), 1);
	return 0;
}

static int cmd_table_indirect_set_default(struct p4odp_switch *sw, struct command *c)
{
	bool group = c->form;
	if (c->n != 3)
		return fail(c, group ? "usage: table_indirect_set_default_with_group TABLE GROUP"
				     : "usage: table_indirect_set_default TABLE MEMBER");
	int ti = find_indirect_table(sw, c, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	if (t->default_const)
		return fail(c, "the default action of table %s is const", t->name);
	uint8_t data[t->action_data_len + 1];
	uint16_t action_id;
	if (parse_reference(sw, c, t, c->tokens[2], group, &action_id, data))
		return -1;
	struct reference old = reference_of(p4odp_table_get_default(sw->tables[ti].table));
	if (p4odp_table_set_default(sw->tables[ti].table, action_id, data))
		return fail(c, "table %s: cannot set the default action", t->name);
	count_reference(&sw->profiles[t->profile], old, -1);
	count_reference(&sw->profiles[t->profile], reference_of_data(action_id, data), 1);
	return 0;
}

/*
 * Reads of tables as simple_switch_CLI prints them: table_num_entries,
 * table_dump_entry, table_dump.
 */

static const struct p4odp_action_info *action_by_id(const struct p4odp_program *p, uint16_t id)
{
	for (uint32_t i = 0; i < p->n_actions; i++)
		if (p->actions[i].id == id)
			return &p->actions[i];
	return NULL;
}

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
		fprintf(out, "Index: %s(%u)\n", action_id == P4ODP_ACTION_MEMBER ? "member" : "group",
			reference_of_data(action_id, data).handle);
		return;
	}
	const struct p4odp_action_info *a = action_by_id(p, action_id);
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
	const struct p4odp_program *program;
	const struct p4odp_table_info *table;
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
	const struct p4odp_table_info *t = d->table;
	FILE *out = d->out;
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
	if (needs_priority(t))
		fprintf(out, "Priority: %d\n", INT32_MAX - m->priority);	/* parse_priority's inverse */
	print_action_entry(out, d->program, e->action_id, e->data);
	return 0;
}

/* table_num_entries TABLE */
static int cmd_table_num_entries(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	if (c->n != 2)
		return fail(c, "usage: table_num_entries TABLE");
	int ti = find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	fprintf(out, "%u\n", p4odp_table_count(sw->tables[ti].table));
	return 0;
}

/* p4info */
static int cmd_p4info(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	if (c->n != 1)
		return fail(c, "usage: p4info");
	for (size_t i = 0; i < sw->program->p4info_size; i++)
		fprintf(out, "%02x", sw->program->p4info[i]);
	fputc('\n', out);
	return 0;
}

/* table_dump_entry TABLE HANDLE */
static int cmd_table_dump_entry(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	int64_t handle;
	if (c->n != 3)
		return fail(c, "usage: table_dump_entry TABLE HANDLE");
	int ti = find_table(c, sw->program, c->tokens[1]);
	if (ti < 0 || parse_handle(c, c->tokens[2], &handle))
		return -1;
	struct entry_dump d = { out, sw->program, &sw->program->tables[ti], false };
	if (p4odp_table_get(sw->tables[ti].table, handle, dump_entry, &d))
		return fail(c, "table %s has no entry %s", d.table->name, c->tokens[2]);
	return 0;
}

/* table_dump_entry_from_key TABLE KEY... [PRIORITY]: the entry of that key (and priority, in a
 * table that needs one), as table_dump_entry prints it. */
static int cmd_table_dump_entry_from_key(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	if (c->n < 2)
		return fail(c, "usage: table_dump_entry_from_key TABLE KEY... [PRIORITY]");
	int ti = find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	const struct p4odp_table_info *t = &sw->program->tables[ti];
	int n_keys = c->n - 2;
	int32_t priority = INT32_MAX;
	if (needs_priority(t)) {
		if (n_keys != (int)t->n_keys + 1)
			return fail(c, "table %s needs %u key fields and a priority", t->name, t->n_keys);
		if (parse_priority(c, c->tokens[c->n - 1], &priority))
			return -1;
		n_keys--;
	}
	struct p4odp_field_match fields[t->n_keys ? t->n_keys : 1];
	uint8_t bytes[key_bytes(t)];
	if (parse_key(c, t, c->tokens + 2, n_keys, fields, bytes))
		return -1;
	struct p4odp_match m = { .fields = fields, .priority = priority };
	int64_t handle = p4odp_table_find(sw->tables[ti].table, &m);
	struct entry_dump d = { out, sw->program, t, false };
	if (handle < 0 || p4odp_table_get(sw->tables[ti].table, handle, dump_entry, &d))
		return fail(c, "table %s has no entry with this key", t->name);
	return 0;
}

/* table_dump TABLE: every entry, in handle order, then the default entry. */
static int cmd_table_dump(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	if (c->n != 2)
		return fail(c, "usage: table_dump TABLE");
	int ti = find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	struct entry_dump d = { out, sw->program, &sw->program->tables[ti], true };
	fprintf(out, "==========\nTABLE ENTRIES\n");
	p4odp_table_foreach(sw->tables[ti].table, dump_entry, &d);
	fprintf(out, "==========\nDumping default entry\n");
	const struct p4odp_table_entry *def = p4odp_table_get_default(sw->tables[ti].table);
	if (def)
		print_action_entry(out, sw->program, def->action_id, def->data);
	else
		fprintf(out, "EMPTY\n");
	fprintf(out, "==========\n");
	return 0;
}

/* The cell of `index` (counter_at's) of counter `info` in worker k: packets, then bytes. */
static uint64_t *counter_cell(struct p4odp_switch *sw, const struct p4odp_counter_info *info, uint32_t k,
			      uint64_t index)
{
	return (uint64_t *)((char *)sw->per_worker[k].state + info->offset) + 2 * (size_t)(uint32_t)index;
}

/* Cells `first` to `first + n - 1` of counter `info` back to 0 in every worker. */
static void zero_cells(struct p4odp_switch *sw, const struct p4odp_counter_info *info, uint32_t first, uint32_t n)
{
	for (uint32_t k = 0; k < sw->n_workers; k++)
		for (uint32_t i = 0; i < 2 * n; i++)
			__atomic_store_n(&counter_cell(sw, info, k, first)[i], 0, __ATOMIC_RELAXED);
}

static struct p4odp_meter *meter_cell(struct p4odp_switch *sw, const struct p4odp_meter_info *info, uint64_t index)
{
	return (struct p4odp_meter *)((char *)sw->state + info->offset) + (uint32_t)index;
}

/* Zero the direct counter and meter cells of table `ti`'s entry index `index` (UINT64_MAX: all)
 * once no worker can still be counting or metering the entry that left it (a grace period):
 * the next entry given that index starts from 0 and an unconfigured meter, as on BMv2.  A table
 * has one direct counter and one direct meter at most. */
static void clear_direct_state(struct p4odp_switch *sw, int ti, uint64_t index)
{
	const struct p4odp_counter_info *counter = NULL;
	const struct p4odp_meter_info *meter = NULL;
	uint32_t first = index == UINT64_MAX ? 0 : (uint32_t)index;

	for (uint32_t ci = 0; ci < sw->program->n_counters; ci++)
		if (sw->program->counters[ci].table == ti)
			counter = &sw->program->counters[ci];
	for (uint32_t mi = 0; mi < sw->program->n_meters; mi++)
		if (sw->program->meters[mi].table == ti)
			meter = &sw->program->meters[mi];
	if (!counter && !meter)
		return;
	p4odp_rcu_synchronize(sw->rcu);
	if (counter)
		zero_cells(sw, counter, first, index == UINT64_MAX ? counter->size : 1);
	if (meter)
		memset(meter_cell(sw, meter, first), 0,
		       (index == UINT64_MAX ? meter->size : 1) * sizeof(struct p4odp_meter));
}

static int cmd_table_delete(struct p4odp_switch *sw, struct command *c)
{
	int64_t handle;
	if (c->n != 3)
		return fail(c, "usage: table_delete TABLE HANDLE");
	int ti = find_table(c, sw->program, c->tokens[1]);
	struct reference old = { 0 };
	if (ti < 0 || parse_handle(c, c->tokens[2], &handle))
		return -1;
	bool indirect = sw->program->tables[ti].profile >= 0;
	if ((indirect && p4odp_table_get(sw->tables[ti].table, handle, get_reference, &old)) ||
	    p4odp_table_delete(sw->tables[ti].table, handle))
		return fail(c, "table %s has no entry with handle %lld", sw->program->tables[ti].name,
			    (long long)handle);
	clear_direct_state(sw, ti, (uint64_t)handle);
	if (indirect)
		count_reference(&sw->profiles[sw->program->tables[ti].profile], old, -1);
	return 0;
}

static int cmd_table_clear(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 2)
		return fail(c, "usage: table_clear TABLE");
	int ti = find_table(c, sw->program, c->tokens[1]);
	if (ti < 0)
		return -1;
	p4odp_table_clear(sw->tables[ti].table);
	clear_direct_state(sw, ti, UINT64_MAX);
	if (sw->program->tables[ti].profile >= 0)
		count_users(sw, sw->program->tables[ti].profile);
	return 0;
}

/* A value of `width` (at most 64) bits, as a number. */
static int parse_bits(struct command *c, const char *text, uint32_t width, uint64_t *out)
{
	uint8_t bytes[8];
	if (parse_value(c, text, width, false, bytes))
		return -1;
	*out = 0;
	for (uint32_t i = 0; i < (width + 7) / 8; i++)
		*out = *out << 8 | bytes[i];
	return 0;
}

/* A number of at most 64 bits. */
static int parse_u64(struct command *c, const char *text, uint64_t *out)
{
	if (*text == '-')
		return fail(c, "'%.*s%s' is not a count", SHOWN(text));
	return parse_bits(c, text, 64, out);
}

/* The command's INDEX (its third word, when it has one) into *index, checked
 * against the `size` cells of the `what` called `name`. */
static int parse_index(struct command *c, const char *what, const char *name, uint32_t size, uint32_t *index)
{
	if (c->n <= 2)
		return 0;
	if (parse_uint(c, c->tokens[2], index))
		return -1;
	if (*index >= size)
		return fail(c, "index %u is out of range for %s %s of size %u", *index, what, name, size);
	return 0;
}

static int entry_exists(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	(void)arg, (void)handle, (void)m, (void)e;
	return 0;
}

/* The entry handle `text` of table `ti`, which must have that entry, in *handle: the cell of
 * the table's direct counter or meter is its entry index (the handle's low 32 bits). */
static int entry_handle_at(struct p4odp_switch *sw, struct command *c, int32_t ti, const char *text,
			   uint64_t *handle)
{
	int64_t h;
	if (parse_handle(c, text, &h))
		return -1;
	if (p4odp_table_get(sw->tables[ti].table, h, entry_exists, NULL))
		return fail(c, "table %s has no entry with handle %lld", sw->program->tables[ti].name, (long long)h);
	*handle = (uint64_t)h;
	return 0;
}

/* COUNTER [INDEX] of a command: the counter, and the index in *index; NULL after saying why.
 * A direct counter's INDEX is an entry handle of its table (as on simple_switch_CLI, which
 * `out` is told first), its cell the handle's entry index (its low 32 bits). */
static const struct p4odp_counter_info *counter_at(struct p4odp_switch *sw, struct command *c, uint64_t *index,
						   FILE *out, const char *told)
{
	int ci = find_named(c, sw->program, "counter", sw->program->n_counters, counter_name, c->tokens[1]);
	if (ci < 0)
		return NULL;
	const struct p4odp_counter_info *info = &sw->program->counters[ci];
	if (info->table < 0) {
		uint32_t i = 0;
		if (parse_index(c, "counter", info->name, info->size, &i))
			return NULL;
		*index = i;
		return info;
	}
	*index = 0;
	if (c->n > 2 && entry_handle_at(sw, c, info->table, c->tokens[2], index))
		return NULL;
	fprintf(out, "%s direct counter for table %s\n", told, sw->program->tables[info->table].name);
	return info;
}

/* counter_read COUNTER INDEX, printed as simple_switch_CLI prints it. */
static int cmd_counter_read(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	uint64_t index = 0;
	uint64_t packets = 0, bytes = 0;
	if (c->n != 3)
		return fail(c, "usage: counter_read COUNTER INDEX");
	const struct p4odp_counter_info *info = counter_at(sw, c, &index, out, "this is the");
	if (!info)
		return -1;
	for (uint32_t k = 0; k < sw->n_workers; k++) {
		const uint64_t *cell = counter_cell(sw, info, k, index);
		packets += __atomic_load_n(&cell[0], __ATOMIC_RELAXED);
		bytes += __atomic_load_n(&cell[1], __ATOMIC_RELAXED);
	}
	/* The name as typed, as simple_switch_CLI prints it. */
	fprintf(out, "%s[%llu]= (%llu bytes, %llu packets)\n", c->tokens[1], (unsigned long long)index,
		(unsigned long long)bytes, (unsigned long long)packets);
	return 0;
}

/* counter_write COUNTER INDEX PACKETS BYTES: the totals the cell reads as
 * from now on (the first worker holds them, the others start from 0). */
static int cmd_counter_write(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	uint64_t index = 0;
	uint64_t packets, bytes;
	if (c->n != 5)
		return fail(c, "usage: counter_write COUNTER INDEX PACKETS BYTES");
	if (parse_u64(c, c->tokens[3], &packets) || parse_u64(c, c->tokens[4], &bytes))
		return -1;
	const struct p4odp_counter_info *info = counter_at(sw, c, &index, out, "writing to");
	if (!info)
		return -1;
	for (uint32_t k = 0; k < sw->n_workers; k++) {
		uint64_t *cell = counter_cell(sw, info, k, index);
		__atomic_store_n(&cell[0], k ? 0 : packets, __ATOMIC_RELAXED);
		__atomic_store_n(&cell[1], k ? 0 : bytes, __ATOMIC_RELAXED);
	}
	return 0;
}

/* counter_reset COUNTER: every cell back to 0. */
static int cmd_counter_reset(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	uint64_t index = 0;
	if (c->n != 2)
		return fail(c, "usage: counter_reset COUNTER");
	const struct p4odp_counter_info *info = counter_at(sw, c, &index, out, "this is the");
	if (!info)
		return -1;
	zero_cells(sw, info, 0, info->size);
	return 0;
}

static const char *register_name(const struct p4odp_program *p, uint32_t i)
{
	return p->registers[i].name;
}

/* REGISTER [INDEX] of a command: the register, and the index in *index; NULL after saying why. */
static const struct p4odp_register_info *register_at(struct p4odp_switch *sw, struct command *c, uint32_t *index)
{
	int ri = find_named(c, sw->program, "register", sw->program->n_registers, register_name, c->tokens[1]);
	if (ri < 0)
		return NULL;
	const struct p4odp_register_info *r = &sw->program->registers[ri];
	return parse_index(c, "register", r->name, r->size, index) ? NULL : r;
}

static uint8_t *register_cell(struct p4odp_switch *sw, const struct p4odp_register_info *r, uint32_t index)
{
	return (uint8_t *)sw->state + r->offset + (size_t)index * r->cell_size;
}

/* A cell's value as ceil(width / 8) bytes in network order, and back: a C
 * integer up to 64 bits (int<W> sign-extended in it), else those bytes. */
static void cell_to_bytes(const struct p4odp_register_info *r, const uint8_t *cell, uint8_t *bytes)
{
	uint32_t n = (r->width + 7) / 8;
	uint64_t v = 0;
	if (r->width > 64) {
		memcpy(bytes, cell, n);
		return;
	}
	switch (r->cell_size) {
	case 1: v = *cell; break;
	case 2: { uint16_t x; memcpy(&x, cell, 2); v = x; break; }
	case 4: { uint32_t x; memcpy(&x, cell, 4); v = x; break; }
	default: memcpy(&v, cell, 8); break;
	}
	for (uint32_t i = 0; i < n; i++)
		bytes[n - 1 - i] = (uint8_t)(v >> 8 * i);
	if (r->width % 8)
		bytes[0] &= (uint8_t)(0xff >> (8 - r->width % 8));
}

static void bytes_to_cell(const struct p4odp_register_info *r, const uint8_t *bytes, uint8_t *cell)
{
	uint32_t n = (r->width + 7) / 8;
	uint64_t v = 0;
	if (r->width > 64) {
		memcpy(cell, bytes, n);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		v = v << 8 | bytes[i];
	if (r->is_signed && r->width < 64 && (v >> (r->width - 1) & 1))
		v |= ~UINT64_C(0) << r->width;
	switch (r->cell_size) {
	case 1: *cell = (uint8_t)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(cell, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(cell, &x, 4); break; }
	default: memcpy(cell, &v, 8); break;
	}
}

/* The number of `width` bits in `bytes` (network order; two's complement when
 * signed) in decimal, as simple_switch_CLI prints it. */
static void print_decimal(FILE *out, const uint8_t *bytes, uint32_t width, bool is_signed)
{
	uint32_t n = (width + 7) / 8;
	uint8_t v[MAX_VALUE_BYTES];
	char digits[3 * MAX_VALUE_BYTES + 1];
	size_t k = 0;
	bool negative = is_signed && (bytes[0] >> ((width - 1) % 8) & 1);

	memcpy(v, bytes, n);
	if (negative)  /* the magnitude */
		negate(v, width);
	bool more;
	do {
		unsigned rem = 0;
		more = false;
		for (uint32_t i = 0; i < n; i++) {
			unsigned cur = rem * 256 + v[i];
			v[i] = (uint8_t)(cur / 10);
			rem = cur % 10;
			more |= v[i] != 0;
		}
		digits[k++] = (char)('0' + rem);
	} while (more);
	if (negative)
		fputc('-', out);
	while (k)
		fputc(digits[--k], out);
}

/* register_read REGISTER INDEX, printed as simple_switch_CLI prints it. */
static int cmd_register_read(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	uint32_t index = 0;
	uint8_t bytes[MAX_VALUE_BYTES];
	if (c->n != 3)
		return fail(c, "usage: register_read REGISTER INDEX");
	const struct p4odp_register_info *r = register_at(sw, c, &index);
	if (!r)
		return -1;
	cell_to_bytes(r, register_cell(sw, r, index), bytes);
	fprintf(out, "%s[%u]= ", c->tokens[1], index);  /* the name as typed, as simple_switch_CLI */
	print_decimal(out, bytes, r->width, r->is_signed);
	fputc('\n', out);
	return 0;
}

/* register_write REGISTER INDEX VALUE */
static int cmd_register_write(struct p4odp_switch *sw, struct command *c)
{
	uint32_t index = 0;
	uint8_t bytes[MAX_VALUE_BYTES];
	if (c->n != 4)
		return fail(c, "usage: register_write REGISTER INDEX VALUE");
	const struct p4odp_register_info *r = register_at(sw, c, &index);
	if (!r)
		return -1;
	if (parse_value(c, c->tokens[3], r->width, r->is_signed, bytes))
		return about(c, "register", r->name);
	bytes_to_cell(r, bytes, register_cell(sw, r, index));
	return 0;
}

/* register_reset REGISTER: every cell back to 0. */
static int cmd_register_reset(struct p4odp_switch *sw, struct command *c)
{
	uint32_t index = 0;
	if (c->n != 2)
		return fail(c, "usage: register_reset REGISTER");
	const struct p4odp_register_info *r = register_at(sw, c, &index);
	if (!r)
		return -1;
	memset(register_cell(sw, r, 0), 0, (size_t)r->size * r->cell_size);
	return 0;
}

static const char *meter_name(const struct p4odp_program *p, uint32_t i)
{
	return p->meters[i].name;
}

/* METER of a command, and with `indexed` the cell INDEX (a direct meter's: an entry handle of its
 * table) in *index; NULL after saying why. */
static const struct p4odp_meter_info *meter_at(struct p4odp_switch *sw, struct command *c, bool indexed,
					       uint64_t *index)
{
	int mi = find_named(c, sw->program, "meter", sw->program->n_meters, meter_name, c->tokens[1]);
	if (mi < 0)
		return NULL;
	const struct p4odp_meter_info *info = &sw->program->meters[mi];
	*index = 0;
	if (!indexed)
		return info;
	if (info->table < 0) {
		uint32_t i = 0;
		if (parse_index(c, "meter", info->name, info->size, &i))
			return NULL;
		*index = i;
		return info;
	}
	return entry_handle_at(sw, c, info->table, c->tokens[2], index) ? NULL : info;
}

/* RATE:BURST: a rate of units per microsecond (a finite number, not negative) and a burst of
 * units. */
static int parse_rate(struct command *c, const char *text, struct p4odp_meter_bucket *b)
{
	char *end;
	const char *colon = strchr(text, ':');
	errno = 0;
	double rate = strtod(text, &end);
	if (!colon || end != colon || errno || !(rate >= 0 && rate <= 1e18))
		return fail(c, "'%.*s%s' is not RATE:BURST (units per microsecond, not negative; then units)",
			    SHOWN(text));
	unsigned long long burst = strtoull(colon + 1, &end, 10);
	if (errno || *end || end == colon + 1 || strchr(colon + 1, '-'))
		return fail(c, "'%.*s%s' is not RATE:BURST (the burst a number of units)", SHOWN(text));
	*b = (struct p4odp_meter_bucket){ .rate = rate, .burst = burst, .tokens = burst };
	return 0;
}

/* The committed rate and burst (smaller rate, yellow above it), then the peak ones (red above),
 * as simple_switch_CLI takes them: the tokens [first, first + 1] of the command. */
static int parse_rates(struct command *c, int first, struct p4odp_meter *rates)
{
	if (parse_rate(c, c->tokens[first], &rates->committed) || parse_rate(c, c->tokens[first + 1], &rates->peak))
		return -1;
	if (rates->committed.rate > rates->peak.rate)
		return fail(c, "the committed rate %s is above the peak rate %s", c->tokens[first], c->tokens[first + 1]);
	return 0;
}

/* Give a meter cell the rates, with full buckets, while the workers may be metering through it. */
static void meter_configure(struct p4odp_meter *m, const struct p4odp_meter *rates)
{
	p4odp_meter_lock(m);
	m->peak = rates->peak;
	m->committed = rates->committed;
	__atomic_store_n(&m->configured, 1, __ATOMIC_RELEASE);
	p4odp_meter_unlock(m);
}

/* meter_array_set_rates METER CIR:CBS PIR:PBS: every cell of the meter. */
static int cmd_meter_array_set_rates(struct p4odp_switch *sw, struct command *c)
{
	struct p4odp_meter rates;
	uint64_t index;
	if (c->n != 4)
		return fail(c, "usage: meter_array_set_rates METER CIR:CBS PIR:PBS");
	const struct p4odp_meter_info *info = meter_at(sw, c, false, &index);
	if (!info || parse_rates(c, 2, &rates))
		return -1;
	for (uint32_t i = 0; i < info->size; i++)
		meter_configure(meter_cell(sw, info, i), &rates);
	return 0;
}

/* meter_set_rates METER INDEX CIR:CBS PIR:PBS */
static int cmd_meter_set_rates(struct p4odp_switch *sw, struct command *c)
{
	struct p4odp_meter rates;
	uint64_t index;
	if (c->n != 5)
		return fail(c, "usage: meter_set_rates METER INDEX CIR:CBS PIR:PBS");
	const struct p4odp_meter_info *info = meter_at(sw, c, true, &index);
	if (!info || parse_rates(c, 3, &rates))
		return -1;
	meter_configure(meter_cell(sw, info, index), &rates);
	return 0;
}

/* meter_reset METER [INDEX]: the cell (without INDEX, every cell) back to no rates. */
static int cmd_meter_reset(struct p4odp_switch *sw, struct command *c)
{
	uint64_t index;
	if (c->n != 2 && c->n != 3)
		return fail(c, "usage: meter_reset METER [INDEX]");
	const struct p4odp_meter_info *info = meter_at(sw, c, c->n == 3, &index);
	if (!info)
		return -1;
	uint64_t end = c->n == 3 ? index + 1 : info->size;
	for (uint64_t i = c->n == 3 ? index : 0; i < end; i++) {
		struct p4odp_meter *m = meter_cell(sw, info, i);
		p4odp_meter_lock(m);
		__atomic_store_n(&m->configured, 0, __ATOMIC_RELEASE);
		p4odp_meter_unlock(m);
	}
	return 0;
}

/* A rate as Python prints a float (simple_switch_CLI's output): the fewest digits that read back
 * as the same number, in fixed notation from 1e-4 to 1e16 (with ".0" when it is whole). */
static void print_rate(FILE *out, double rate)
{
	char text[40];
	int digits = 1;
	for (; digits < 17; digits++) {
		snprintf(text, sizeof text, "%.*e", digits - 1, rate);
		if (strtod(text, NULL) == rate)
			break;
	}
	snprintf(text, sizeof text, "%.*e", digits - 1, rate);
	int exponent = atoi(strchr(text, 'e') + 1);
	if (rate != 0 && (exponent < -4 || exponent >= 16)) {
		fputs(text, out);
		return;
	}
	int decimals = digits - 1 - exponent > 0 ? digits - 1 - exponent : 0;
	fprintf(out, decimals ? "%.*f" : "%.*f.0", decimals, rate);
}

/* meter_get_rates METER INDEX, printed as simple_switch_CLI prints it: the committed rate and
 * burst, then the peak ones; a warning instead for a meter whose rates are not set. */
static int cmd_meter_get_rates(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	uint64_t index;
	if (c->n != 3)
		return fail(c, "usage: meter_get_rates METER INDEX");
	const struct p4odp_meter_info *info = meter_at(sw, c, true, &index);
	if (!info)
		return -1;
	struct p4odp_meter *m = meter_cell(sw, info, index), rates;
	p4odp_meter_lock(m);
	rates = *m;
	p4odp_meter_unlock(m);
	if (!rates.configured) {
		fprintf(out, "WARNING: expected 2 rates but only received 0\n");
		return 0;
	}
	const struct p4odp_meter_bucket *buckets[2] = { &rates.committed, &rates.peak };
	for (int i = 0; i < 2; i++) {
		fprintf(out, "%d: info rate = ", i);
		print_rate(out, buckets[i]->rate);
		fprintf(out, ", burst size = %llu\n", (unsigned long long)buckets[i]->burst);
	}
	return 0;
}

static const char *value_set_name(const struct p4odp_program *p, uint32_t i)
{
	return p->value_sets[i].name;
}

/* Member `i` of a value set: its `used` byte, then its value. */
static uint8_t *value_set_member(struct p4odp_switch *sw, const struct p4odp_value_set_info *v, uint32_t i)
{
	return (uint8_t *)sw->state + v->offset + (size_t)i * v->stride;
}

/* VALUE_SET [VALUE] of a command: the value set, and with `value` the value in network order in
 * `value`; NULL after saying why. */
static const struct p4odp_value_set_info *value_set_at(struct p4odp_switch *sw, struct command *c, uint8_t *value)
{
	int vi = find_named(c, sw->program, "value set", sw->program->n_value_sets, value_set_name, c->tokens[1]);
	if (vi < 0)
		return NULL;
	const struct p4odp_value_set_info *v = &sw->program->value_sets[vi];
	return value && parse_value(c, c->tokens[2], v->width, v->is_signed, value) ? NULL : v;
}

/* The member holding `value`, or -1. */
static int value_set_find(struct p4odp_switch *sw, const struct p4odp_value_set_info *v, const uint8_t *value)
{
	for (uint32_t i = 0; i < v->size; i++) {
		const uint8_t *m = value_set_member(sw, v, i);
		if (m[0] && !memcmp(m + 1, value, (v->width + 7) / 8))
			return (int)i;
	}
	return -1;
}

/* pvs_add VALUE_SET VALUE: a value already there stays one member. */
static int cmd_pvs_add(struct p4odp_switch *sw, struct command *c)
{
	uint8_t value[MAX_VALUE_BYTES];
	if (c->n != 3)
		return fail(c, "usage: pvs_add VALUE_SET VALUE");
	const struct p4odp_value_set_info *v = value_set_at(sw, c, value);
	if (!v)
		return -1;
	if (value_set_find(sw, v, value) >= 0)
		return 0;
	for (uint32_t i = 0; i < v->size; i++) {
		uint8_t *m = value_set_member(sw, v, i);
		if (!m[0]) {
			memcpy(m + 1, value, (v->width + 7) / 8);
			__atomic_store_n(m, 1, __ATOMIC_RELEASE);
			return 0;
		}
	}
	return fail(c, "value set %s is full (%u values)", v->name, v->size);
}

/* pvs_remove VALUE_SET VALUE: the member is free for another value once no worker can still be
 * comparing it. */
static int cmd_pvs_remove(struct p4odp_switch *sw, struct command *c)
{
	uint8_t value[MAX_VALUE_BYTES];
	if (c->n != 3)
		return fail(c, "usage: pvs_remove VALUE_SET VALUE");
	const struct p4odp_value_set_info *v = value_set_at(sw, c, value);
	if (!v)
		return -1;
	int i = value_set_find(sw, v, value);
	if (i < 0)
		return fail(c, "value set %s has no value %s", v->name, c->tokens[2]);
	__atomic_store_n(value_set_member(sw, v, (uint32_t)i), 0, __ATOMIC_RELEASE);
	p4odp_rcu_synchronize(sw->rcu);
	return 0;
}

/* pvs_clear VALUE_SET */
static int cmd_pvs_clear(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 2)
		return fail(c, "usage: pvs_clear VALUE_SET");
	const struct p4odp_value_set_info *v = value_set_at(sw, c, NULL);
	if (!v)
		return -1;
	for (uint32_t i = 0; i < v->size; i++)
		__atomic_store_n(value_set_member(sw, v, i), 0, __ATOMIC_RELEASE);
	p4odp_rcu_synchronize(sw->rcu);
	return 0;
}

/* Publish group `group`'s copies as its nodes now are; the old ones are freed once no worker
 * holds them.  -1 (out of memory: the workers still see the old ones) after saying why. */
static int publish_group(struct p4odp_switch *sw, struct command *c, uint32_t group)
{
	struct p4odp_mc_group *g = &sw->pre->mc_groups[group];
	struct p4odp_mc_copies *copies = NULL;
	uint32_t n = 0;

	for (uint32_t i = 0; g->used && i < g->n_nodes; i++)
		for (uint32_t w = 0; w < P4ODP_PORT_NUMBERS / 64; w++)
			n += (uint32_t)__builtin_popcountll(sw->pre->mc_nodes[g->nodes[i]].ports[w]);
	if (n) {
		copies = malloc(sizeof *copies + n * sizeof copies->copy[0]);
		if (!copies)
			return fail(c, "out of memory");
		copies->n = 0;
		for (uint32_t i = 0; i < g->n_nodes; i++) {
			const struct p4odp_mc_node *node = &sw->pre->mc_nodes[g->nodes[i]];
			for (uint32_t w = 0; w < P4ODP_PORT_NUMBERS / 64; w++)
				for (uint64_t bits = node->ports[w]; bits; bits &= bits - 1) {
					copies->copy[copies->n].port = w * 64 + (uint32_t)__builtin_ctzll(bits);
					copies->copy[copies->n++].rid = node->rid;
				}
		}
	}
	struct p4odp_mc_copies *old = __atomic_exchange_n(&g->copies, copies, __ATOMIC_ACQ_REL);
	if (old) {
		p4odp_rcu_synchronize(sw->rcu);
		free(old);
	}
	return 0;
}

static int parse_group(struct p4odp_switch *sw, struct command *c, const char *text, uint32_t *group)
{
	if (parse_uint(c, text, group))
		return -1;
	if (*group == 0 || *group >= P4ODP_MAX_MC_GROUPS || !sw->pre->mc_groups[*group].used)
		return fail(c, "no multicast group %s", text);
	return 0;
}

static int parse_node(struct p4odp_switch *sw, struct command *c, const char *text, uint32_t *handle)
{
	if (parse_uint(c, text, handle))
		return -1;
	if (*handle >= P4ODP_MAX_MC_NODES || !sw->pre->mc_nodes[*handle].used)
		return fail(c, "no multicast node %s", text);
	return 0;
}

/* A node's ports from `c`'s tokens from `first` on: a set, as BMv2's (its copies go out in
 * ascending port order, each port once, whatever order the command gives them in). */
static int parse_node_ports(struct command *c, int first, uint64_t ports[P4ODP_PORT_NUMBERS / 64])
{
	memset(ports, 0, P4ODP_PORT_NUMBERS / 8);
	for (int i = first; i < c->n; i++) {
		uint32_t port;
		if (parse_uint(c, c->tokens[i], &port))
			return -1;
		if (port >= P4ODP_PORT_NUMBERS)
			return fail(c, "port %u is out of range 0..%d", port, P4ODP_PORT_NUMBERS - 1);
		ports[port / 64] |= UINT64_C(1) << port % 64;
	}
	return 0;
}

static int cmd_mc_mgrp_create(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group;
	if (c->n != 2 || parse_uint(c, c->tokens[1], &group))
		return c->n != 2 ? fail(c, "usage: mc_mgrp_create GROUP") : -1;
	if (group == 0 || group >= P4ODP_MAX_MC_GROUPS)
		return fail(c, "multicast group %u is out of range 1..%d", group, P4ODP_MAX_MC_GROUPS - 1);
	if (sw->pre->mc_groups[group].used)
		return fail(c, "multicast group %u exists", group);
	sw->pre->mc_groups[group].used = true;
	sw->pre->mc_groups[group].n_nodes = 0;
	return 0;
}

/* mc_mgrp_destroy GROUP: its nodes stay, associated with none (as BMv2). */
static int cmd_mc_mgrp_destroy(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group;
	if (c->n != 2)
		return fail(c, "usage: mc_mgrp_destroy GROUP");
	if (parse_group(sw, c, c->tokens[1], &group))
		return -1;
	struct p4odp_mc_group *g = &sw->pre->mc_groups[group];
	g->used = false;
	publish_group(sw, c, group);	/* of no copy: nothing to allocate, so it cannot fail */
	for (uint32_t i = 0; i < g->n_nodes; i++)
		sw->pre->mc_nodes[g->nodes[i]].group = 0;
	g->n_nodes = 0;
	return 0;
}

static int cmd_mc_node_create(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	uint32_t rid;
	uint64_t ports[P4ODP_PORT_NUMBERS / 64];
	if (c->n < 2)
		return fail(c, "usage: mc_node_create RID PORT...");
	if (parse_uint(c, c->tokens[1], &rid) || parse_node_ports(c, 2, ports))
		return -1;
	if (rid > UINT16_MAX)
		return fail(c, "replication id %u is out of range 0..%u", rid, UINT16_MAX);
	for (uint32_t h = 0; h < P4ODP_MAX_MC_NODES; h++) {
		struct p4odp_mc_node *node = &sw->pre->mc_nodes[h];
		if (node->used)
			continue;
		*node = (struct p4odp_mc_node){ .used = true, .rid = rid };
		memcpy(node->ports, ports, sizeof ports);
		if (out)
			fprintf(out, "Node was created with handle %u\n", h);
		return 0;
	}
	return fail(c, "no room for another multicast node");
}

/* mc_node_update NODE PORT...: its ports replaced. */
static int cmd_mc_node_update(struct p4odp_switch *sw, struct command *c)
{
	uint32_t handle;
	uint64_t ports[P4ODP_PORT_NUMBERS / 64];
	if (c->n < 2)
		return fail(c, "usage: mc_node_update NODE PORT...");
	if (parse_node(sw, c, c->tokens[1], &handle) || parse_node_ports(c, 2, ports))
		return -1;
	struct p4odp_mc_node *node = &sw->pre->mc_nodes[handle], before = *node;
	memcpy(node->ports, ports, sizeof ports);
	if (node->group && publish_group(sw, c, node->group)) {
		*node = before;
		return -1;
	}
	return 0;
}

static int cmd_mc_node_associate(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group, handle;
	if (c->n != 3)
		return fail(c, "usage: mc_node_associate GROUP NODE");
	if (parse_group(sw, c, c->tokens[1], &group) || parse_node(sw, c, c->tokens[2], &handle))
		return -1;
	struct p4odp_mc_group *g = &sw->pre->mc_groups[group];
	struct p4odp_mc_node *node = &sw->pre->mc_nodes[handle];
	if (node->group)
		return fail(c, "multicast node %u is associated with group %u", handle, node->group);
	if (g->n_nodes == P4ODP_MAX_GROUP_NODES)
		return fail(c, "multicast group %u is full", group);
	g->nodes[g->n_nodes++] = handle;
	if (publish_group(sw, c, group)) {
		g->n_nodes--;
		return -1;
	}
	node->group = group;
	return 0;
}

/* mc_mgrp_set GROUP [NODE...]: the group's nodes become these, in this order, published at once
 * (p4odp's: how P4Runtime changes a group); those it had and are not listed are dissociated. */
static int cmd_mc_mgrp_set(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group, nodes[P4ODP_MAX_GROUP_NODES];
	if (c->n < 2)
		return fail(c, "usage: mc_mgrp_set GROUP [NODE...]");
	if (parse_group(sw, c, c->tokens[1], &group))
		return -1;
	_Static_assert(2 + P4ODP_MAX_GROUP_NODES <= MAX_TOKENS, "a full group's mc_mgrp_set fits a line");
	uint32_t n = (uint32_t)c->n - 2;
	if (n > P4ODP_MAX_GROUP_NODES)
		return fail(c, "multicast group %u is full: %d nodes at most", group, P4ODP_MAX_GROUP_NODES);
	for (uint32_t i = 0; i < n; i++) {
		if (parse_node(sw, c, c->tokens[i + 2], &nodes[i]))
			return -1;
		uint32_t other = sw->pre->mc_nodes[nodes[i]].group;
		if (other && other != group)
			return fail(c, "multicast node %u is associated with group %u", nodes[i], other);
		for (uint32_t j = 0; j < i; j++)
			if (nodes[j] == nodes[i])
				return fail(c, "multicast node %u is given twice", nodes[i]);
	}
	struct p4odp_mc_group *g = &sw->pre->mc_groups[group], before = *g;
	memcpy(g->nodes, nodes, n * sizeof nodes[0]);
	g->n_nodes = n;
	if (publish_group(sw, c, group)) {
		*g = before;
		return -1;
	}
	for (uint32_t i = 0; i < before.n_nodes; i++)
		sw->pre->mc_nodes[before.nodes[i]].group = 0;
	for (uint32_t i = 0; i < n; i++)
		sw->pre->mc_nodes[nodes[i]].group = group;
	return 0;
}

/* Take node `handle` out of its group; -1 (nothing changed) after saying why. */
static int dissociate(struct p4odp_switch *sw, struct command *c, uint32_t handle)
{
	struct p4odp_mc_node *node = &sw->pre->mc_nodes[handle];
	struct p4odp_mc_group *g = &sw->pre->mc_groups[node->group];
	uint32_t at = 0;

	while (g->nodes[at] != handle)
		at++;
	memmove(&g->nodes[at], &g->nodes[at + 1], (g->n_nodes - at - 1) * sizeof g->nodes[0]);
	g->n_nodes--;
	if (publish_group(sw, c, node->group)) {
		memmove(&g->nodes[at + 1], &g->nodes[at], (g->n_nodes - at) * sizeof g->nodes[0]);
		g->nodes[at] = handle;
		g->n_nodes++;
		return -1;
	}
	node->group = 0;
	return 0;
}

static int cmd_mc_node_dissociate(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group, handle;
	if (c->n != 3)
		return fail(c, "usage: mc_node_dissociate GROUP NODE");
	if (parse_group(sw, c, c->tokens[1], &group) || parse_node(sw, c, c->tokens[2], &handle))
		return -1;
	if (sw->pre->mc_nodes[handle].group != group)
		return fail(c, "multicast node %u is not associated with group %u", handle, group);
	return dissociate(sw, c, handle);
}

/* mc_node_destroy NODE: out of its group first. */
static int cmd_mc_node_destroy(struct p4odp_switch *sw, struct command *c)
{
	uint32_t handle;
	if (c->n != 2)
		return fail(c, "usage: mc_node_destroy NODE");
	if (parse_node(sw, c, c->tokens[1], &handle))
		return -1;
	if (sw->pre->mc_nodes[handle].group && dissociate(sw, c, handle))
		return -1;
	sw->pre->mc_nodes[handle].used = false;
	return 0;
}

void p4odp_multicast_destroy(struct p4odp_switch *sw)
{
	for (uint32_t group = 0; group < P4ODP_MAX_MC_GROUPS; group++) {
		free(sw->pre->mc_groups[group].copies);
		sw->pre->mc_groups[group].copies = NULL;
	}
}

/* mc_dump: the groups, each node with its replication id and ports, as simple_switch_CLI prints
 * them (no LAGs: simple_switch's are never set here). */
static int cmd_mc_dump(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	if (c->n != 1)
		return fail(c, "usage: mc_dump");
	fprintf(out, "==========\nMC ENTRIES\n");
	for (uint32_t group = 0; group < P4ODP_MAX_MC_GROUPS; group++) {
		const struct p4odp_mc_group *g = &sw->pre->mc_groups[group];
		if (!g->used)
			continue;
		fprintf(out, "**********\nmgrp(%u)\n", group);
		for (uint32_t i = 0; i < g->n_nodes; i++) {
			const struct p4odp_mc_node *node = &sw->pre->mc_nodes[g->nodes[i]];
			const char *sep = "";
			fprintf(out, "  -> (L1h=%u, rid=%u) -> (ports=[", g->nodes[i], node->rid);
			for (uint32_t port = 0; port < P4ODP_PORT_NUMBERS; port++)
				if (node->ports[port / 64] >> port % 64 & 1) {
					fprintf(out, "%s%u", sep, port);
					sep = ", ";
				}
			fprintf(out, "], lags=[])\n");
		}
	}
	fprintf(out, "==========\nLAGS\n==========\n");
	return 0;
}

/* The mirror session of mirroring_* command `c`, whose usage is `usage`. */
static int parse_session(struct command *c, int n_args, const char *usage, uint32_t *session)
{
	if (c->n != n_args + 1)
		return fail(c, "usage: %s", usage);
	if (parse_uint(c, c->tokens[1], session))
		return -1;
	if (*session >= P4ODP_MAX_MIRROR_SESSIONS)
		return fail(c, "mirror session %u is out of range 0..%d", *session, P4ODP_MAX_MIRROR_SESSIONS - 1);
	return 0;
}

/* simple_switch_CLI's reading of a flag: true/True/false/False or a number. */
static int parse_flag(struct command *c, const char *text, bool *out)
{
	uint32_t v;

	if (!strcmp(text, "true") || !strcmp(text, "True") || !strcmp(text, "false") || !strcmp(text, "False")) {
		*out = text[0] == 't' || text[0] == 'T';
		return 0;
	}
	if (parse_uint(c, text, &v))
		return fail(c, "'%.*s%s' is not a flag (true or false)", SHOWN(text));
	*out = v != 0;
	return 0;
}

static int cmd_set_crc_parameters(struct p4odp_switch *sw, struct command *c)
{
	uint32_t width = c->form;
	const struct p4odp_program *prog = sw->program;
	uint32_t values[3], calc;
	struct p4odp_crc_params params;

	if (c->n != 7)
		return fail(c, "usage: set_crc%u_parameters CALC POLYNOMIAL INIT FINAL_XOR REFLECT_DATA REFLECT_REMAINDER",
			    width);
	for (calc = 0; calc < prog->n_crcs && strcmp(prog->crcs[calc].name, c->tokens[1]); calc++)
		;
	if (calc == prog->n_crcs || prog->crcs[calc].width != width)
		return fail(c, "no crc%u_custom calculation %s in the program", width, c->tokens[1]);
	for (int i = 0; i < 3; i++) {
		if (parse_uint(c, c->tokens[2 + i], &values[i]))
			return -1;
		if (width == 16 && values[i] > 0xffff)
			return fail(c, "'%.*s%s' does not fit in 16 bits", SHOWN(c->tokens[2 + i]));
	}
	params = (struct p4odp_crc_params){ .polynomial = values[0], .initial_remainder = values[1],
					    .final_xor_value = values[2] };
	if (parse_flag(c, c->tokens[5], &params.data_reflected) ||
	    parse_flag(c, c->tokens[6], &params.remainder_reflected))
		return -1;
	return p4odp_crc_set(sw, calc, &params) ? fail(c, "out of memory") : 0;
}

/* A session's word (switch.h) is stored whole: a worker cloning meanwhile
 * reads the old session or the new one. */
static int cmd_mirroring_add(struct p4odp_switch *sw, struct command *c)
{
	bool to_group = c->form;
	uint32_t session, target;
	if (parse_session(c, 2, to_group ? "mirroring_add_mc SESSION GROUP" : "mirroring_add SESSION PORT", &session) ||
	    parse_uint(c, c->tokens[2], &target))
		return -1;
	if (to_group ? target == 0 || target >= P4ODP_MAX_MC_GROUPS : target >= P4ODP_PORT_NUMBERS)
		return to_group ? fail(c, "multicast group %u is out of range 1..%d", target, P4ODP_MAX_MC_GROUPS - 1)
				: fail(c, "port %u is out of range 0..%d", target, P4ODP_PORT_NUMBERS - 1);
	__atomic_store_n(&sw->pre->mirror_sessions[session], P4ODP_MIRROR_USED | (to_group ? P4ODP_MIRROR_GROUP : 0) | target,
			 __ATOMIC_RELEASE);
	return 0;
}

static int cmd_mirroring_delete(struct p4odp_switch *sw, struct command *c)
{
	uint32_t session;
	if (parse_session(c, 1, "mirroring_delete SESSION", &session))
		return -1;
	if (!sw->pre->mirror_sessions[session])
		return fail(c, "no mirror session %u", session);
	__atomic_store_n(&sw->pre->mirror_sessions[session], 0, __ATOMIC_RELEASE);
	return 0;
}

/* As simple_switch_CLI prints the session's Thrift struct. */
static int cmd_mirroring_get(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	uint32_t session;
	if (parse_session(c, 1, "mirroring_get SESSION", &session))
		return -1;
	uint64_t word = sw->pre->mirror_sessions[session];
	if (!word)
		return fail(c, "no mirror session %u", session);
	if (out) {
		if (word & P4ODP_MIRROR_GROUP)
			fprintf(out, "MirroringSessionConfig(port=None, mgid=%u)\n", (uint32_t)word);
		else
			fprintf(out, "MirroringSessionConfig(port=%u, mgid=None)\n", (uint32_t)word);
	}
	return 0;
}

static int cmd_packet_out(struct p4odp_switch *sw, struct command *c)
{
	return c->n == 2 ? p4odp_packet_out(sw, c->tokens[1], c->err, c->err_len) : fail(c, "usage: packet_out HEX");
}

static int cmd_help(struct p4odp_switch *sw, struct command *c);

/* Every command, by name. */
static const struct {
	const char *name;
	int (*run)(struct p4odp_switch *sw, struct command *c);
	uint32_t form;		/* to command.form */
} handlers[] = {
	{ "table_add", cmd_table_add, 0 },
	{ "table_set_default", cmd_table_set_default, 0 },
	{ "table_reset_default", cmd_table_reset_default, 0 },
	{ "table_modify", cmd_table_modify, 0 },
	{ "table_delete", cmd_table_delete, 0 },
	{ "table_clear", cmd_table_clear, 0 },
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
	{ "counter_read", cmd_counter_read, 0 },
	{ "counter_write", cmd_counter_write, 0 },
	{ "counter_reset", cmd_counter_reset, 0 },
	{ "register_read", cmd_register_read, 0 },
	{ "register_write", cmd_register_write, 0 },
	{ "register_reset", cmd_register_reset, 0 },
	{ "meter_array_set_rates", cmd_meter_array_set_rates, 0 },
	{ "meter_set_rates", cmd_meter_set_rates, 0 },
	{ "meter_get_rates", cmd_meter_get_rates, 0 },
	{ "meter_reset", cmd_meter_reset, 0 },
	{ "pvs_add", cmd_pvs_add, 0 },
	{ "pvs_remove", cmd_pvs_remove, 0 },
	{ "pvs_clear", cmd_pvs_clear, 0 },
	{ "mc_mgrp_create", cmd_mc_mgrp_create, 0 },
	{ "mc_mgrp_destroy", cmd_mc_mgrp_destroy, 0 },
	{ "mc_mgrp_set", cmd_mc_mgrp_set, 0 },
	{ "mc_node_create", cmd_mc_node_create, 0 },
	{ "mc_node_update", cmd_mc_node_update, 0 },
	{ "mc_node_associate", cmd_mc_node_associate, 0 },
	{ "mc_node_dissociate", cmd_mc_node_dissociate, 0 },
	{ "mc_node_destroy", cmd_mc_node_destroy, 0 },
	{ "mc_dump", cmd_mc_dump, 0 },
	{ "mirroring_add", cmd_mirroring_add, false },
	{ "mirroring_add_mc", cmd_mirroring_add, true },
	{ "mirroring_delete", cmd_mirroring_delete, 0 },
	{ "mirroring_get", cmd_mirroring_get, 0 },
	{ "set_crc16_parameters", cmd_set_crc_parameters, 16 },
	{ "set_crc32_parameters", cmd_set_crc_parameters, 32 },
	{ "p4info", cmd_p4info, 0 },
	{ "packet_out", cmd_packet_out, 0 },
	{ "help", cmd_help, 0 },
};

/* help: the commands' names, a line each (the control channel adds its own). */
static int cmd_help(struct p4odp_switch *sw, struct command *c)
{
	(void)sw;
	if (c->n != 1)
		return fail(c, "usage: help");
	for (size_t i = 0; c->out && i < sizeof handlers / sizeof handlers[0]; i++)
		fprintf(c->out, "%s\n", handlers[i].name);
	return 0;
}

static int tokenize(struct command *c, char *line)
{
	c->n = 0;
	for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
		if (c->n == MAX_TOKENS)
			return fail(c, "too many words");
		c->tokens[c->n++] = tok;
	}
	return 0;
}

int p4odp_control_file(struct p4odp_switch *sw, const char *path, FILE *out,
		       int (*receive)(void *arg, const char *port, char *err, size_t err_len), void *arg)
{
	FILE *f = fopen(path, "r");
	char line[P4ODP_CONTROL_LINE], err[512];
	int number = 0, status = 0;

	if (!f) {
		fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
		return -1;
	}
	while (!status && fgets(line, sizeof line, f)) {
		const char *text = line + strspn(line, " \t");
		number++;
		if (!strchr(line, '\n') && !feof(f)) {	/* a longer line is refused whole, never run in pieces */
			snprintf(err, sizeof err, "line too long (at most %d characters)", P4ODP_CONTROL_LINE - 2);
			status = -1;
		} else if (!strncmp(text, "receive", 7) && (!text[7] || strchr(" \t\r\n", text[7]))) {
			status = receive(arg, text + 7, err, sizeof err);
		} else {
			status = p4odp_control_command(sw, line, out, err, sizeof err);
		}
		if (status)
			fprintf(stderr, "%s:%d: error: %s\n", path, number, err);
	}
	fclose(f);
	return status;
}

int p4odp_control_command(struct p4odp_switch *sw, const char *text, FILE *out, char *err, size_t err_len)
{
	struct command c = { .out = out, .err = err, .err_len = err_len };
	char line[P4ODP_CONTROL_LINE];

	if (strlen(text) >= sizeof line) {
		snprintf(err, err_len, "line too long");
		return -1;
	}
	strcpy(line, text);
	char *hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	if (tokenize(&c, line))
		return -1;
	if (c.n == 0)
		return 0;
	for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
		if (!strcmp(c.tokens[0], handlers[i].name)) {
			c.form = handlers[i].form;
			return handlers[i].run(sw, &c);
		}
	return fail(&c, "unknown command '%s' (help lists them)", c.tokens[0]);
}
