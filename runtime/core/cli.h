/*
 * The simple_switch_CLI commands (cli*.c): a parser and a printer over the
 * control-plane API (p4odp_control.h).  Internal to runtime/core.
 */
#ifndef P4ODP_CLI_H_
#define P4ODP_CLI_H_

#include "switch.h"

/* mc_node_create of a node on every port number; mc_mgrp_set of a full group fits too. */
#define MAX_TOKENS (2 + P4ODP_PORT_NUMBERS)
#define MAX_VALUE_BYTES 256

/* One command line, in words. */
struct command {
	char *tokens[MAX_TOKENS];
	int n;
	FILE *out;		/* where what the command prints goes */
	uint32_t form;		/* which of its forms the handler runs (struct cli_command's): a flag, a CRC width */
	char *err;
	size_t err_len;
};

/* A command: its name, the function that runs it (0, or -1 after saying why in c->err,
 * nothing changed) and the form it is given. */
struct cli_command {
	const char *name;
	int (*run)(struct p4odp_switch *sw, struct command *c);
	uint32_t form;
};

/* The commands of each topic, ended by one without a name. */
extern const struct cli_command p4odp_cli_table_commands[];	/* cli_tables.c */
extern const struct cli_command p4odp_cli_extern_commands[];	/* cli_externs.c */
extern const struct cli_command p4odp_cli_replication_commands[];	/* cli_replication.c */

/* The command's error message, printf-style; returns -1. */
int cli_fail(struct command *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* 0, or -1 after saying what the control-plane API's error `err` (a negative errno) means. */
int cli_result(struct command *c, int err);
/* The command's error so far, followed by " (WHAT NAME)": which value of the line it is about; -1. */
int cli_about(struct command *c, const char *what, const char *name);

/* A name that is `want` or ends in `.want`. */
bool cli_name_matches(const char *name, const char *want);
/* The index of the item called `name`, or of the only one whose name ends in `.name`, among the
 * `n` items of kind `what` that name_at() names; -1 after saying why not. */
int cli_find_named(struct command *c, const struct p4odp_program *p, const char *what, uint32_t n,
		   const char *(*name_at)(const struct p4odp_program *, uint32_t), const char *name);
int cli_find_table(struct command *c, const struct p4odp_program *p, const char *name);

/* Parse `text` as a number of `width` bits into `out` (ceil(width/8) bytes, network order):
 * 0..2^W-1, the bit pattern as P4Runtime gives it too; with `is_signed` (an int<W>) also a
 * negative number down to -2^(W-1), stored as its two's complement.  Decimal, 0x hex, 0b binary,
 * a MAC (aa:bb:cc:dd:ee:ff), IPv4 (a.b.c.d) or IPv6 (x:y::z) address. */
int cli_parse_value(struct command *c, const char *text, uint32_t width, bool is_signed, uint8_t *out);
int cli_parse_uint(struct command *c, const char *text, uint32_t *out);
/* A value of at most 64 bits that is a count (not negative). */
int cli_parse_u64(struct command *c, const char *text, uint64_t *out);
/* An entry handle, decimal as simple_switch_CLI reads them. */
int cli_parse_handle(struct command *c, const char *text, int64_t *out);
/* The number of `width` bits in `bytes` (network order; two's complement when signed) in
 * decimal, as simple_switch_CLI prints it. */
void cli_print_decimal(FILE *out, const uint8_t *bytes, uint32_t width, bool is_signed);

/* The words of a table entry (cli_entries.c). */
/* The `n` words of `tokens` as table `t`'s key fields: each field's match in fields[i], its bytes
 * in `bytes` (cli_key_bytes(t) of them). */
int cli_parse_key(struct command *c, const struct p4odp_table_info *t, char **tokens, int n,
		  struct p4odp_field_match *fields, uint8_t *bytes);
uint32_t cli_key_bytes(const struct p4odp_table_info *t);
/* The key and priority of a new entry: cli_parse_key of the words from `first` to `=>`, and where
 * the `expected` action parameters after `=>` start (*values) and how many there are (*n_values). */
int cli_parse_entry_key(struct command *c, const struct p4odp_table_info *t, int first, uint32_t expected,
			struct p4odp_match *m, struct p4odp_field_match *fields, uint8_t *bytes, int *values,
			int *n_values);
/* Action `a`'s `n` parameters from `tokens` into `data` (`data_len` bytes, zero past them). */
int cli_parse_action_data(struct command *c, const struct p4odp_action_info *a, char **tokens, int n,
			  uint8_t *data, uint32_t data_len);
/* simple_switch_CLI's priority (the smaller wins) as the API's (the larger wins). */
int cli_parse_priority(struct command *c, const char *text, int32_t *priority);
/* The action called `name` of those `ids` of `owner` (a table, an action profile), or of table
 * `table` (whose entries name actions); NULL after saying why. */
const struct p4odp_action_info *cli_find_action_of(struct command *c, const struct p4odp_program *p,
						   const char *owner, uint32_t n, const uint32_t *ids, const char *name);
const struct p4odp_action_info *cli_find_action(struct command *c, const struct p4odp_program *p,
						const struct p4odp_table_info *table, const char *name);

/* A word of a command as an error message quotes it: "'%.*s%s'" of SHOWN(text), at most
 * SHOWN_CHARS of it, so that a word of thousands of characters leaves room for the reason. */
#define SHOWN_CHARS 40
#define SHOWN(text) (int)(strlen(text) > SHOWN_CHARS ? SHOWN_CHARS : strlen(text)), (text), \
		    strlen(text) > SHOWN_CHARS ? "..." : ""

#endif /* P4ODP_CLI_H_ */
