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
 * packet_listen / packet_unlisten / swap_listen / swap_unlisten, load_new_config_file /
 * swap_configs / discard_new_config and binary: channel.c)
 *   set_crc16_parameters CALC POLYNOMIAL INIT FINAL_XOR REFLECT_DATA REFLECT_REMAINDER (and
 *     set_crc32_parameters): a custom CRC's, as p4c names the calculation ("calc", "calc_0", ...)
 *
 * Keys: exact `V`, lpm `V/LEN`, ternary `V&&&MASK`, range `LOW->HIGH`,
 * optional `V` or `V&&&MASK`.  Values: decimal, 0x hex, 0b binary, MAC
 * (aa:bb:cc:dd:ee:ff), IPv4 (a.b.c.d), IPv6 (x:y::z).  Tables and actions
 * are named in full or by a unique suffix (`ipv4_lpm` for
 * `MyIngress.ipv4_lpm`).  A bad command changes nothing.
 *
 * Each command parses its words, calls the control-plane API (p4odp_control.h)
 * and prints what simple_switch_CLI prints: this file the words and values and
 * the commands of the whole program, cli_tables.c, cli_externs.c and
 * cli_replication.c the commands of each kind of object.
 */
#define _POSIX_C_SOURCE 200809L
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_fail(struct command *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err, c->err_len, fmt, ap);
	va_end(ap);
	return -1;
}

/* The command's error so far, followed by " (WHAT NAME)": which value of the line it is about. */
int cli_result(struct command *c, int err)
{
	return err ? cli_fail(c, "%s", strerror(-err)) : 0;
}

int cli_about(struct command *c, const char *what, const char *name)
{
	size_t len = strlen(c->err);
	snprintf(c->err + len, c->err_len - len, " (%s %s)", what, name);
	return -1;
}

/* A name that is `want` or ends in `.want`. */
bool cli_name_matches(const char *name, const char *want)
{
	size_t n = strlen(name), w = strlen(want);
	return n == w ? strcmp(name, want) == 0 : n > w && name[n - w - 1] == '.' && strcmp(name + n - w, want) == 0;
}

/* The index of the item called `name`, or of the only one whose name ends in
 * `.name`, among the `n` items of kind `what` that name_at() names; -1 after
 * saying why not. */
int cli_find_named(struct command *c, const struct p4odp_program *p, const char *what, uint32_t n,
		      const char *(*name_at)(const struct p4odp_program *, uint32_t), const char *name)
{
	int found = -1;
	for (uint32_t i = 0; i < n; i++) {
		if (strcmp(name_at(p, i), name) == 0)
			return (int)i;
		if (cli_name_matches(name_at(p, i), name)) {
			if (found >= 0)
				return cli_fail(c, "%s name '%s' is ambiguous", what, name);
			found = (int)i;
		}
	}
	return found >= 0 ? found : cli_fail(c, "no %s named '%s'", what, name);
}

static const char *table_name(const struct p4odp_program *p, uint32_t i)
{
	return p->tables[i].name;
}

int cli_find_table(struct command *c, const struct p4odp_program *p, const char *name)
{
	return cli_find_named(c, p, "table", p->n_tables, table_name, name);
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
int cli_parse_value(struct command *c, const char *text, uint32_t width, bool is_signed, uint8_t *out)
{
	uint32_t nbytes = (width + 7) / 8;
	uint8_t buf[MAX_VALUE_BYTES] = { 0 };
	const char *s = text;

	if (nbytes > MAX_VALUE_BYTES)
		return cli_fail(c, "value '%.*s%s' is wider than supported", SHOWN(text));
	if (!*s)
		return cli_fail(c, "empty value");
	if (strchr(s, ':') && !strchr(s, '.') && strlen(s) == 17 && width <= 48) {
		unsigned int b[6];
		if (!is_mac(s) || sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
			return cli_fail(c, "bad MAC address '%s'", text);
		for (int i = 0; i < 6; i++)
			buf[MAX_VALUE_BYTES - 6 + i] = (uint8_t)b[i];
	} else if (strchr(s, ':')) {
		struct in6_addr a6;
		if (inet_pton(AF_INET6, s, &a6) != 1)
			return cli_fail(c, "bad IPv6 address '%.*s%s'", SHOWN(text));
		memcpy(buf + MAX_VALUE_BYTES - 16, &a6, 16);
	} else if (strchr(s, '.')) {
		struct in_addr a4;
		if (inet_pton(AF_INET, s, &a4) != 1)
			return cli_fail(c, "bad IPv4 address '%.*s%s'", SHOWN(text));
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
			return cli_fail(c, "bad number '%.*s%s'", SHOWN(text));
		for (; *s; s++) {
			unsigned digit;
			if (*s == '_')
				continue;
			if (isdigit((unsigned char)*s))
				digit = (unsigned)(*s - '0');
			else if (isxdigit((unsigned char)*s))
				digit = (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
			else
				return cli_fail(c, "bad number '%.*s%s'", SHOWN(text));
			if (digit >= base)
				return cli_fail(c, "bad number '%.*s%s'", SHOWN(text));
			/* buf = buf * base + digit, over the bytes in use and those the carry reaches */
			unsigned carry = digit;
			uint32_t i = 0;
			for (; i < used || carry; i++) {
				if (i == MAX_VALUE_BYTES)
					return cli_fail(c, "value '%.*s%s' is too large", SHOWN(text));
				unsigned v = buf[MAX_VALUE_BYTES - 1 - i] * base + carry;
				buf[MAX_VALUE_BYTES - 1 - i] = (uint8_t)v;
				carry = v >> 8;
			}
			used = i;
		}
		if (negative) {
			uint8_t *v = buf + MAX_VALUE_BYTES - nbytes;
			if (!is_signed && used)	/* "-0" is 0 */
				return cli_fail(c, "value '%.*s%s' is negative: a bit<%u> value is not", SHOWN(text), width);
			if (!fits(buf, nbytes, width))
				return cli_fail(c, "value '%.*s%s' does not fit in int<%u>", SHOWN(text), width);
			negate(v, width);
			/* a magnitude above 2^(W-1) comes out of the negation without its sign bit
			 * (used == 0: the magnitude is 0) */
			if (used && !(v[0] >> ((width - 1) % 8) & 1))
				return cli_fail(c, "value '%.*s%s' does not fit in int<%u>", SHOWN(text), width);
		}
	}
	if (!fits(buf, nbytes, width))
		return cli_fail(c, "value '%.*s%s' does not fit in %u bits", SHOWN(text), width);
	memcpy(out, buf + MAX_VALUE_BYTES - nbytes, nbytes);
	return 0;
}

int cli_parse_uint(struct command *c, const char *text, uint32_t *out)
{
	char *end;
	errno = 0;
	/* strtoull, not strtoul: a 32-bit unsigned long would take "-1" as
	 * UINT32_MAX; strtoull negates a sign silently, so a '-' is refused. */
	unsigned long long v = strtoull(text, &end, 0);
	if (errno || *end || end == text || strchr(text, '-') || v > UINT32_MAX)
		return cli_fail(c, "'%.*s%s' is not a number", SHOWN(text));
	*out = (uint32_t)v;
	return 0;
}

int cli_parse_handle(struct command *c, const char *text, int64_t *out)
{
	char *end;
	errno = 0;
	long long v = strtoll(text, &end, 10);	/* decimal, as simple_switch_CLI reads handles */
	if (errno || *end || end == text || v < 0)
		return cli_fail(c, "'%.*s%s' is not an entry handle", SHOWN(text));
	*out = v;
	return 0;
}

/* A value of `width` (at most 64) bits, as a number. */
static int parse_bits(struct command *c, const char *text, uint32_t width, uint64_t *out)
{
	uint8_t bytes[8];
	if (cli_parse_value(c, text, width, false, bytes))
		return -1;
	*out = 0;
	for (uint32_t i = 0; i < (width + 7) / 8; i++)
		*out = *out << 8 | bytes[i];
	return 0;
}

/* A number of at most 64 bits. */
int cli_parse_u64(struct command *c, const char *text, uint64_t *out)
{
	if (*text == '-')
		return cli_fail(c, "'%.*s%s' is not a count", SHOWN(text));
	return parse_bits(c, text, 64, out);
}

/* The number of `width` bits in `bytes` (network order; two's complement when
 * signed) in decimal, as simple_switch_CLI prints it. */
void cli_print_decimal(FILE *out, const uint8_t *bytes, uint32_t width, bool is_signed)
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

/* p4info */
static int cmd_p4info(struct p4odp_switch *sw, struct command *c)
{
	FILE *out = c->out;
	if (c->n != 1)
		return cli_fail(c, "usage: p4info");
	for (size_t i = 0; i < sw->program->p4info_size; i++)
		fprintf(out, "%02x", sw->program->p4info[i]);
	fputc('\n', out);
	return 0;
}

static int hex_digit(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

/* packet_out HEX: a packet into the pipeline as received on the CPU port. */
static int cmd_packet_out(struct p4odp_switch *sw, struct command *c)
{
	static uint8_t bytes[P4ODP_MAX_PACKET];	/* the control thread's alone */
	if (c->n != 2)
		return cli_fail(c, "usage: packet_out HEX");
	const char *hex = c->tokens[1];
	size_t digits = strlen(hex);
	if (!digits || digits % 2 || strspn(hex, "0123456789abcdefABCDEF") != digits)
		return cli_fail(c, "usage: packet_out HEX, the packet's bytes as an even number of hex digits");
	if (digits / 2 > P4ODP_MAX_PACKET)
		return cli_fail(c, "a packet of %zu bytes is longer than the switch's largest (%d)", digits / 2,
				P4ODP_MAX_PACKET);
	for (size_t i = 0; i < digits / 2; i++)
		bytes[i] = (uint8_t)(hex_digit(hex[2 * i]) << 4 | hex_digit(hex[2 * i + 1]));
	switch (p4odp_ctl_packet_out(sw, bytes, (uint32_t)(digits / 2))) {
	case 0:
		return 0;
	case -ENODEV:
		return cli_fail(c, "this switch has no CPU port: start it with --cpu-port N");
	case -ENOBUFS:
		return cli_fail(c, "no packet buffer left");
	default:
		return cli_fail(c, "the CPU port's input is full: worker 0 has not taken the last %d packets",
				P4ODP_PACKET_RING);
	}
}

static int cmd_help(struct p4odp_switch *sw, struct command *c);

/* The commands of the whole program. */
static const struct cli_command program_commands[] = {
	{ "p4info", cmd_p4info, 0 },
	{ "packet_out", cmd_packet_out, 0 },
	{ "help", cmd_help, 0 },
	{ NULL, NULL, 0 },
};

static const struct cli_command *const topics[] = {
	p4odp_cli_table_commands, p4odp_cli_extern_commands, p4odp_cli_replication_commands, program_commands,
};

/* help: the commands' names, a line each (the control channel adds its own). */
static int cmd_help(struct p4odp_switch *sw, struct command *c)
{
	(void)sw;
	if (c->n != 1)
		return cli_fail(c, "usage: help");
	for (size_t t = 0; t < sizeof topics / sizeof topics[0]; t++)
		for (const struct cli_command *cmd = topics[t]; cmd->name; cmd++)
			fprintf(c->out, "%s\n", cmd->name);
	return 0;
}

static int tokenize(struct command *c, char *line)
{
	c->n = 0;
	for (char *tok = strtok(line, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
		if (c->n == MAX_TOKENS)
			return cli_fail(c, "too many words");
		c->tokens[c->n++] = tok;
	}
	return 0;
}

int p4odp_cli_file(struct p4odp_switch *sw, const char *path, FILE *out,
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
			status = p4odp_cli_command(sw, line, out, err, sizeof err);
		}
		if (status)
			fprintf(stderr, "%s:%d: error: %s\n", path, number, err);
	}
	fclose(f);
	return status;
}

int p4odp_cli_command(struct p4odp_switch *sw, const char *text, FILE *out, char *err, size_t err_len)
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
	for (size_t t = 0; t < sizeof topics / sizeof topics[0]; t++)
		for (const struct cli_command *cmd = topics[t]; cmd->name; cmd++)
			if (!strcmp(c.tokens[0], cmd->name)) {
				c.form = cmd->form;
				return cmd->run(sw, &c);
			}
	return cli_fail(&c, "unknown command '%s' (help lists them)", c.tokens[0]);
}
