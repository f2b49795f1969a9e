/*
 * The simple_switch_CLI commands of the program's extern state (cli.h):
 * counters, registers, meters, parser value sets and custom CRCs.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *counter_name(const struct p4odp_program *p, uint32_t i)
{
	return p->counters[i].name;
}

static const char *register_name(const struct p4odp_program *p, uint32_t i)
{
	return p->registers[i].name;
}

static const char *meter_name(const struct p4odp_program *p, uint32_t i)
{
	return p->meters[i].name;
}

static const char *value_set_name(const struct p4odp_program *p, uint32_t i)
{
	return p->value_sets[i].name;
}

/* The cell INDEX (the command's third word) of an array of `size` cells, the `what` called
 * `name`, direct on table `table` (-1: none): a direct array's INDEX is an entry handle of its
 * table (as on simple_switch_CLI).  -1 after saying why. */
static int parse_cell(struct command *c, const char *what, const char *name, int32_t table,
		      uint32_t size, uint64_t *index)
{
	if (table >= 0) {
		int64_t handle;
		if (cli_parse_handle(c, c->tokens[2], &handle))
			return -1;
		*index = (uint64_t)handle;
		return 0;
	}
	uint32_t i;
	if (cli_parse_uint(c, c->tokens[2], &i))
		return -1;
	if (i >= size)
		return cli_fail(c, "index %u is out of range for %s %s of size %u", i, what, name, size);
	*index = i;
	return 0;
}

/* The API's refusal `err` of cell `index` (a word of the command) of an array direct on table
 * `table` (-1: none), said. */
static int cell_error(struct p4odp_switch *sw, struct command *c, int32_t table, const char *index, int err)
{
	if (err == -ENOENT && table >= 0)
		return cli_fail(c, "table %s has no entry with handle %s", sw->program->tables[table].name, index);
	return cli_result(c, err);
}

static int find_counter(struct p4odp_switch *sw, struct command *c)
{
	return cli_find_named(c, sw->program, "counter", sw->program->n_counters, counter_name, c->tokens[1]);
}

/* A direct counter's table, told to `out` as simple_switch_CLI does ("this is the direct counter
 * for table T"). */
static void tell_direct(struct p4odp_switch *sw, struct command *c, int ci, const char *told)
{
	if (sw->program->counters[ci].table >= 0)
		fprintf(c->out, "%s direct counter for table %s\n", told,
			sw->program->tables[sw->program->counters[ci].table].name);
}

/* counter_read COUNTER INDEX, printed as simple_switch_CLI prints it. */
static int cmd_counter_read(struct p4odp_switch *sw, struct command *c)
{
	uint64_t index, packets, bytes;
	if (c->n != 3)
		return cli_fail(c, "usage: counter_read COUNTER INDEX");
	int ci = find_counter(sw, c);
	if (ci < 0)
		return -1;
	const struct p4odp_counter_info *info = &sw->program->counters[ci];
	if (parse_cell(c, "counter", info->name, info->table, info->size, &index))
		return -1;
	int err = p4odp_ctl_counter_read(sw, (uint32_t)ci, index, &packets, &bytes);
	if (err)
		return cell_error(sw, c, info->table, c->tokens[2], err);
	tell_direct(sw, c, ci, "this is the");
	/* The name as typed, as simple_switch_CLI prints it. */
	fprintf(c->out, "%s[%llu]= (%llu bytes, %llu packets)\n", c->tokens[1], (unsigned long long)index,
		(unsigned long long)bytes, (unsigned long long)packets);
	return 0;
}

/* counter_write COUNTER INDEX PACKETS BYTES: the totals the cell reads as from now on. */
static int cmd_counter_write(struct p4odp_switch *sw, struct command *c)
{
	uint64_t index, packets, bytes;
	if (c->n != 5)
		return cli_fail(c, "usage: counter_write COUNTER INDEX PACKETS BYTES");
	if (cli_parse_u64(c, c->tokens[3], &packets) || cli_parse_u64(c, c->tokens[4], &bytes))
		return -1;
	int ci = find_counter(sw, c);
	if (ci < 0)
		return -1;
	const struct p4odp_counter_info *info = &sw->program->counters[ci];
	if (parse_cell(c, "counter", info->name, info->table, info->size, &index))
		return -1;
	int err = p4odp_ctl_counter_write(sw, (uint32_t)ci, index, packets, bytes);
	if (err)
		return cell_error(sw, c, info->table, c->tokens[2], err);
	tell_direct(sw, c, ci, "writing to");
	return 0;
}

/* counter_reset COUNTER: every cell back to 0. */
static int cmd_counter_reset(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 2)
		return cli_fail(c, "usage: counter_reset COUNTER");
	int ci = find_counter(sw, c);
	if (ci < 0)
		return -1;
	tell_direct(sw, c, ci, "this is the");
	return cli_result(c, p4odp_ctl_counter_reset(sw, (uint32_t)ci));
}

/* REGISTER INDEX of a command: the register's index, and the cell in *index. */
static int find_register(struct p4odp_switch *sw, struct command *c, uint32_t *index)
{
	int ri = cli_find_named(c, sw->program, "register", sw->program->n_registers, register_name, c->tokens[1]);
	if (ri < 0)
		return -1;
	const struct p4odp_register_info *r = &sw->program->registers[ri];
	uint64_t cell = 0;
	if (c->n > 2 && parse_cell(c, "register", r->name, -1, r->size, &cell))
		return -1;
	*index = (uint32_t)cell;
	return ri;
}

/* The values a cell of `r` holds: its own (*one), or its struct's fields; how many in *n. */
static const struct p4odp_register_field *register_values(const struct p4odp_register_info *r,
							   struct p4odp_register_field *one, uint32_t *n)
{
	*one = (struct p4odp_register_field){ 0, r->cell_size, r->width, r->is_signed };
	*n = r->n_fields ? r->n_fields : 1;
	return r->n_fields ? r->fields : one;
}

/* register_read REGISTER INDEX, printed as simple_switch_CLI prints it; a struct cell's fields
 * in order, separated by ", ". */
static int cmd_register_read(struct p4odp_switch *sw, struct command *c)
{
	uint32_t index, n;
	uint8_t value[MAX_VALUE_BYTES];
	struct p4odp_register_field one;
	if (c->n != 3)
		return cli_fail(c, "usage: register_read REGISTER INDEX");
	int ri = find_register(sw, c, &index);
	if (ri < 0)
		return -1;
	if (sw->program->registers[ri].width > 8 * MAX_VALUE_BYTES)
		return cli_fail(c, "register %s: a cell of %u bits is too wide for this command", c->tokens[1],
				sw->program->registers[ri].width);
	if (cli_result(c, p4odp_ctl_register_read(sw, (uint32_t)ri, index, value)))
		return -1;
	const struct p4odp_register_field *fields = register_values(&sw->program->registers[ri], &one, &n);
	fprintf(c->out, "%s[%u]= ", c->tokens[1], index);  /* the name as typed, as simple_switch_CLI */
	for (uint32_t i = 0, at = 0; i < n; at += (fields[i].width + 7) / 8, i++) {
		fputs(i ? ", " : "", c->out);
		cli_print_decimal(c->out, value + at, fields[i].width, fields[i].is_signed);
	}
	fputc('\n', c->out);
	return 0;
}

/* register_write REGISTER INDEX VALUE..., a value per field of a struct cell. */
static int cmd_register_write(struct p4odp_switch *sw, struct command *c)
{
	uint32_t index, n;
	uint8_t value[MAX_VALUE_BYTES];
	struct p4odp_register_field one;
	if (c->n < 4)
		return cli_fail(c, "usage: register_write REGISTER INDEX VALUE...");
	int ri = find_register(sw, c, &index);
	if (ri < 0)
		return -1;
	const struct p4odp_register_info *r = &sw->program->registers[ri];
	const struct p4odp_register_field *fields = register_values(r, &one, &n);
	if ((uint32_t)c->n - 3 != n)
		return cli_fail(c, "register %s takes %u value(s) per cell", r->name, n);
	if (r->width > 8 * MAX_VALUE_BYTES)
		return cli_fail(c, "register %s: a cell of %u bits is too wide for this command", r->name, r->width);
	for (uint32_t i = 0, at = 0; i < n; at += (fields[i].width + 7) / 8, i++)
		if (cli_parse_value(c, c->tokens[3 + i], fields[i].width, fields[i].is_signed, value + at))
			return cli_about(c, "register", r->name);
	return cli_result(c, p4odp_ctl_register_write(sw, (uint32_t)ri, index, value));
}

/* register_reset REGISTER: every cell back to 0. */
static int cmd_register_reset(struct p4odp_switch *sw, struct command *c)
{
	uint32_t index;
	if (c->n != 2)
		return cli_fail(c, "usage: register_reset REGISTER");
	int ri = find_register(sw, c, &index);
	return ri < 0 ? -1 : cli_result(c, p4odp_ctl_register_reset(sw, (uint32_t)ri));
}

/* METER of a command, and with `indexed` its cell INDEX in *index: the meter's index. */
static int find_meter(struct p4odp_switch *sw, struct command *c, bool indexed, uint64_t *index)
{
	int mi = cli_find_named(c, sw->program, "meter", sw->program->n_meters, meter_name, c->tokens[1]);
	if (mi < 0)
		return -1;
	const struct p4odp_meter_info *info = &sw->program->meters[mi];
	*index = 0;
	return indexed && parse_cell(c, "meter", info->name, info->table, info->size, index) ? -1 : mi;
}

/* RATE:BURST: a rate of units per microsecond (a finite number, not negative) and a burst of
 * units. */
static int parse_rate(struct command *c, const char *text, double *rate, uint64_t *burst)
{
	char *end;
	const char *colon = strchr(text, ':');
	errno = 0;
	*rate = strtod(text, &end);
	if (!colon || end != colon || errno || !(*rate >= 0 && *rate <= 1e18))
		return cli_fail(c, "'%.*s%s' is not RATE:BURST (units per microsecond, not negative; then units)",
				SHOWN(text));
	*burst = strtoull(colon + 1, &end, 10);
	if (errno || *end || end == colon + 1 || strchr(colon + 1, '-'))
		return cli_fail(c, "'%.*s%s' is not RATE:BURST (the burst a number of units)", SHOWN(text));
	return 0;
}

/* The committed rate and burst (smaller rate, yellow above it), then the peak ones (red above),
 * as simple_switch_CLI takes them: the words `first` and `first + 1` of the command. */
static int parse_rates(struct command *c, int first, struct p4odp_meter_rates *r)
{
	if (parse_rate(c, c->tokens[first], &r->committed_rate, &r->committed_burst) ||
	    parse_rate(c, c->tokens[first + 1], &r->peak_rate, &r->peak_burst))
		return -1;
	if (r->committed_rate > r->peak_rate)
		return cli_fail(c, "the committed rate %s is above the peak rate %s", c->tokens[first],
				c->tokens[first + 1]);
	return 0;
}

/* meter_array_set_rates METER CIR:CBS PIR:PBS: every cell of the meter. */
static int cmd_meter_array_set_rates(struct p4odp_switch *sw, struct command *c)
{
	struct p4odp_meter_rates rates;
	uint64_t index;
	if (c->n != 4)
		return cli_fail(c, "usage: meter_array_set_rates METER CIR:CBS PIR:PBS");
	int mi = find_meter(sw, c, false, &index);
	if (mi < 0 || parse_rates(c, 2, &rates))
		return -1;
	return cli_result(c, p4odp_ctl_meter_set_all(sw, (uint32_t)mi, &rates));
}

/* meter_set_rates METER INDEX CIR:CBS PIR:PBS */
static int cmd_meter_set_rates(struct p4odp_switch *sw, struct command *c)
{
	struct p4odp_meter_rates rates;
	uint64_t index;
	if (c->n != 5)
		return cli_fail(c, "usage: meter_set_rates METER INDEX CIR:CBS PIR:PBS");
	int mi = find_meter(sw, c, true, &index);
	if (mi < 0 || parse_rates(c, 3, &rates))
		return -1;
	int err = p4odp_ctl_meter_set(sw, (uint32_t)mi, index, &rates);
	return err ? cell_error(sw, c, sw->program->meters[mi].table, c->tokens[2], err) : 0;
}

/* meter_reset METER [INDEX]: the cell (without INDEX, every cell) back to no rates. */
static int cmd_meter_reset(struct p4odp_switch *sw, struct command *c)
{
	uint64_t index;
	if (c->n != 2 && c->n != 3)
		return cli_fail(c, "usage: meter_reset METER [INDEX]");
	int mi = find_meter(sw, c, c->n == 3, &index);
	if (mi < 0)
		return -1;
	int err = c->n == 3 ? p4odp_ctl_meter_set(sw, (uint32_t)mi, index, NULL)
			    : p4odp_ctl_meter_set_all(sw, (uint32_t)mi, NULL);
	return err ? cell_error(sw, c, sw->program->meters[mi].table, c->tokens[2], err) : 0;
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
	struct p4odp_meter_rates r;
	uint64_t index;
	if (c->n != 3)
		return cli_fail(c, "usage: meter_get_rates METER INDEX");
	int mi = find_meter(sw, c, true, &index);
	if (mi < 0)
		return -1;
	int err = p4odp_ctl_meter(sw, (uint32_t)mi, index, &r);
	if (err == -ENODATA) {
		fprintf(c->out, "WARNING: expected 2 rates but only received 0\n");
		return 0;
	}
	if (err)
		return cell_error(sw, c, sw->program->meters[mi].table, c->tokens[2], err);
	fprintf(c->out, "0: info rate = ");
	print_rate(c->out, r.committed_rate);
	fprintf(c->out, ", burst size = %llu\n1: info rate = ", (unsigned long long)r.committed_burst);
	print_rate(c->out, r.peak_rate);
	fprintf(c->out, ", burst size = %llu\n", (unsigned long long)r.peak_burst);
	return 0;
}

/* VALUE_SET [VALUE] of a command: the value set's index, and with `value` the value in network
 * order in `value`; -1 after saying why. */
static int find_value_set(struct p4odp_switch *sw, struct command *c, uint8_t *value)
{
	int vi = cli_find_named(c, sw->program, "value set", sw->program->n_value_sets, value_set_name, c->tokens[1]);
	if (vi < 0)
		return -1;
	const struct p4odp_value_set_info *v = &sw->program->value_sets[vi];
	return value && cli_parse_value(c, c->tokens[2], v->width, v->is_signed, value) ? -1 : vi;
}

/* pvs_add VALUE_SET VALUE: a value already there stays one member. */
static int cmd_pvs_add(struct p4odp_switch *sw, struct command *c)
{
	uint8_t value[MAX_VALUE_BYTES];
	if (c->n != 3)
		return cli_fail(c, "usage: pvs_add VALUE_SET VALUE");
	int vi = find_value_set(sw, c, value);
	if (vi < 0)
		return -1;
	int err = p4odp_ctl_value_set_add(sw, (uint32_t)vi, value);
	return err ? cli_fail(c, "value set %s is full (%u values)", sw->program->value_sets[vi].name,
			      sw->program->value_sets[vi].size) : 0;
}

/* pvs_remove VALUE_SET VALUE */
static int cmd_pvs_remove(struct p4odp_switch *sw, struct command *c)
{
	uint8_t value[MAX_VALUE_BYTES];
	if (c->n != 3)
		return cli_fail(c, "usage: pvs_remove VALUE_SET VALUE");
	int vi = find_value_set(sw, c, value);
	if (vi < 0)
		return -1;
	int err = p4odp_ctl_value_set_remove(sw, (uint32_t)vi, value);
	return err ? cli_fail(c, "value set %s has no value %s", sw->program->value_sets[vi].name, c->tokens[2]) : 0;
}

/* pvs_clear VALUE_SET */
static int cmd_pvs_clear(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 2)
		return cli_fail(c, "usage: pvs_clear VALUE_SET");
	int vi = find_value_set(sw, c, NULL);
	return vi < 0 ? -1 : cli_result(c, p4odp_ctl_value_set_clear(sw, (uint32_t)vi));
}

/* simple_switch_CLI's reading of a flag: true/True/false/False or a number. */
static int parse_flag(struct command *c, const char *text, bool *out)
{
	uint32_t v;

	if (!strcmp(text, "true") || !strcmp(text, "True") || !strcmp(text, "false") || !strcmp(text, "False")) {
		*out = text[0] == 't' || text[0] == 'T';
		return 0;
	}
	if (cli_parse_uint(c, text, &v))
		return cli_fail(c, "'%.*s%s' is not a flag (true or false)", SHOWN(text));
	*out = v != 0;
	return 0;
}

/* set_crc16_parameters / set_crc32_parameters CALC POLYNOMIAL INIT FINAL_XOR REFLECT_DATA REFLECT_REMAINDER */
static int cmd_set_crc_parameters(struct p4odp_switch *sw, struct command *c)
{
	uint32_t width = c->form;
	const struct p4odp_program *prog = sw->program;
	uint32_t values[3], calc;
	struct p4odp_crc_params params;

	if (c->n != 7)
		return cli_fail(c, "usage: set_crc%u_parameters CALC POLYNOMIAL INIT FINAL_XOR REFLECT_DATA "
				"REFLECT_REMAINDER", width);
	for (calc = 0; calc < prog->n_crcs && strcmp(prog->crcs[calc].name, c->tokens[1]); calc++)
		;
	if (calc == prog->n_crcs || prog->crcs[calc].width != width)
		return cli_fail(c, "no crc%u_custom calculation %s in the program", width, c->tokens[1]);
	for (int i = 0; i < 3; i++) {
		if (cli_parse_uint(c, c->tokens[2 + i], &values[i]))
			return -1;
		if (width == 16 && values[i] > 0xffff)
			return cli_fail(c, "'%.*s%s' does not fit in 16 bits", SHOWN(c->tokens[2 + i]));
	}
	params = (struct p4odp_crc_params){ .polynomial = values[0], .initial_remainder = values[1],
					    .final_xor_value = values[2] };
	if (parse_flag(c, c->tokens[5], &params.data_reflected) ||
	    parse_flag(c, c->tokens[6], &params.remainder_reflected))
		return -1;
	return cli_result(c, p4odp_ctl_crc_set(sw, calc, &params));
}

const struct cli_command p4odp_cli_extern_commands[] = {
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
	{ "set_crc16_parameters", cmd_set_crc_parameters, 16 },
	{ "set_crc32_parameters", cmd_set_crc_parameters, 32 },
	{ NULL, NULL, 0 },
};
