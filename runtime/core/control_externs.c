/*
 * The control-plane API of the program's extern state (p4odp_control.h):
 * counters (a cell per worker, summed when read), meters, registers, parser
 * value sets (the custom CRCs' parameters are externs.c's).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "switch.h"

/* The cell `index` of counter `info` in worker k: packets, then bytes. */
static uint64_t *counter_cell(struct p4odp_switch *sw, const struct p4odp_counter_info *info, uint32_t k,
			      uint32_t index)
{
	return (uint64_t *)((char *)sw->per_worker[k].state + info->offset) + 2 * (size_t)index;
}

void p4odp_counter_zero(struct p4odp_switch *sw, const struct p4odp_counter_info *info, uint32_t first, uint32_t n)
{
	for (uint32_t k = 0; k < sw->n_workers; k++)
		for (uint32_t i = 0; i < 2 * n; i++)
			__atomic_store_n(&counter_cell(sw, info, k, first)[i], 0, __ATOMIC_RELAXED);
}

struct p4odp_meter *p4odp_meter_cell(struct p4odp_switch *sw, const struct p4odp_meter_info *info, uint32_t index)
{
	return (struct p4odp_meter *)((char *)sw->state + info->offset) + index;
}

static int entry_exists(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	(void)arg, (void)handle, (void)m, (void)e;
	return 0;
}

/* The cell of `index` of an array of `size` cells, direct on table `table` (-1: none): a direct
 * array's index is an entry handle of the table, its cell the entry's index (the handle's low
 * 32 bits). */
static int cell_of(struct p4odp_switch *sw, int32_t table, uint32_t size, uint64_t index, uint32_t *cell)
{
	if (table < 0) {
		if (index >= size)
			return -EINVAL;
	} else if (p4odp_table_get(sw->tables[table].table, (int64_t)index, entry_exists, NULL)) {
		return -ENOENT;
	}
	*cell = (uint32_t)index;
	return 0;
}

/* ---- Counters ---- */

static const struct p4odp_counter_info *counter_at(struct p4odp_switch *sw, uint32_t counter, uint64_t index,
						   uint32_t *cell, int *err)
{
	const struct p4odp_counter_info *info = counter < sw->program->n_counters ? &sw->program->counters[counter]
										     : NULL;

	*err = info ? cell_of(sw, info->table, info->size, index, cell) : -EINVAL;
	return *err ? NULL : info;
}

int p4odp_ctl_counter_read(struct p4odp_switch *sw, uint32_t counter, uint64_t index, uint64_t *packets,
			   uint64_t *bytes)
{
	uint32_t cell;
	int err;
	const struct p4odp_counter_info *info = counter_at(sw, counter, index, &cell, &err);

	if (!info)
		return err;
	*packets = *bytes = 0;
	for (uint32_t k = 0; k < sw->n_workers; k++) {
		const uint64_t *c = counter_cell(sw, info, k, cell);
		*packets += __atomic_load_n(&c[0], __ATOMIC_RELAXED);
		*bytes += __atomic_load_n(&c[1], __ATOMIC_RELAXED);
	}
	return 0;
}

/* The first worker holds the totals, the others start from 0. */
int p4odp_ctl_counter_write(struct p4odp_switch *sw, uint32_t counter, uint64_t index, uint64_t packets,
			    uint64_t bytes)
{
	uint32_t cell;
	int err;
	const struct p4odp_counter_info *info = counter_at(sw, counter, index, &cell, &err);

	if (!info)
		return err;
	for (uint32_t k = 0; k < sw->n_workers; k++) {
		uint64_t *c = counter_cell(sw, info, k, cell);
		__atomic_store_n(&c[0], k ? 0 : packets, __ATOMIC_RELAXED);
		__atomic_store_n(&c[1], k ? 0 : bytes, __ATOMIC_RELAXED);
	}
	return 0;
}

int p4odp_ctl_counter_reset(struct p4odp_switch *sw, uint32_t counter)
{
	if (counter >= sw->program->n_counters)
		return -EINVAL;
	p4odp_counter_zero(sw, &sw->program->counters[counter], 0, sw->program->counters[counter].size);
	return 0;
}

/* ---- Meters ---- */

static const struct p4odp_meter_info *meter_info(struct p4odp_switch *sw, uint32_t meter)
{
	return meter < sw->program->n_meters ? &sw->program->meters[meter] : NULL;
}

static bool rates_valid(const struct p4odp_meter_rates *r)
{
	return !r || (r->committed_rate >= 0 && r->committed_rate <= r->peak_rate && r->peak_rate <= 1e18);
}

/* Give a cell the rates (NULL: none), with full buckets, while the workers may meter through it. */
static void configure(struct p4odp_meter *m, const struct p4odp_meter_rates *r)
{
	p4odp_meter_lock(m);
	if (r) {
		m->committed = (struct p4odp_meter_bucket){ .rate = r->committed_rate, .burst = r->committed_burst,
							    .tokens = r->committed_burst };
		m->peak = (struct p4odp_meter_bucket){ .rate = r->peak_rate, .burst = r->peak_burst,
						       .tokens = r->peak_burst };
	}
	__atomic_store_n(&m->configured, r != NULL, __ATOMIC_RELEASE);
	p4odp_meter_unlock(m);
}

int p4odp_ctl_meter_set(struct p4odp_switch *sw, uint32_t meter, uint64_t index, const struct p4odp_meter_rates *rates)
{
	const struct p4odp_meter_info *info = meter_info(sw, meter);
	uint32_t cell;
	int err;

	if (!info || !rates_valid(rates))
		return -EINVAL;
	if ((err = cell_of(sw, info->table, info->size, index, &cell)))
		return err;
	configure(p4odp_meter_cell(sw, info, cell), rates);
	return 0;
}

int p4odp_ctl_meter_set_all(struct p4odp_switch *sw, uint32_t meter, const struct p4odp_meter_rates *rates)
{
	const struct p4odp_meter_info *info = meter_info(sw, meter);

	if (!info || !rates_valid(rates))
		return -EINVAL;
	for (uint32_t i = 0; i < info->size; i++)
		configure(p4odp_meter_cell(sw, info, i), rates);
	return 0;
}

int p4odp_ctl_meter(struct p4odp_switch *sw, uint32_t meter, uint64_t index, struct p4odp_meter_rates *rates)
{
	const struct p4odp_meter_info *info = meter_info(sw, meter);
	uint32_t cell;
	int err;

	if (!info)
		return -EINVAL;
	if ((err = cell_of(sw, info->table, info->size, index, &cell)))
		return err;
	struct p4odp_meter *m = p4odp_meter_cell(sw, info, cell), now;
	p4odp_meter_lock(m);
	now = *m;
	p4odp_meter_unlock(m);
	if (!now.configured)
		return -ENODATA;
	*rates = (struct p4odp_meter_rates){ .committed_rate = now.committed.rate, .peak_rate = now.peak.rate,
					     .committed_burst = now.committed.burst, .peak_burst = now.peak.burst };
	return 0;
}

/* ---- Registers: a cell is a C integer up to 64 bits (int<W> sign-extended in it), else the
 * value's bytes. ---- */

static const struct p4odp_register_info *register_at(struct p4odp_switch *sw, uint32_t reg, uint32_t index)
{
	const struct p4odp_register_info *r = reg < sw->program->n_registers ? &sw->program->registers[reg] : NULL;

	return r && index < r->size ? r : NULL;
}

/* The lock of `r`'s cells, which the program's regions hold while they read and write them; NULL without one. */
static uint8_t *register_lock(struct p4odp_switch *sw, const struct p4odp_register_info *r)
{
	return r->lock == P4ODP_NO_LOCK ? NULL : (uint8_t *)sw->state + r->lock;
}

static void register_hold(struct p4odp_switch *sw, const struct p4odp_register_info *r)
{
	uint8_t *lock = register_lock(sw, r);

	if (lock)
		p4odp_state_lock(lock);
}

static void register_release(struct p4odp_switch *sw, const struct p4odp_register_info *r)
{
	uint8_t *lock = register_lock(sw, r);

	if (lock)
		p4odp_state_unlock(lock);
}

static uint8_t *register_cell(struct p4odp_switch *sw, const struct p4odp_register_info *r, uint32_t index)
{
	return (uint8_t *)sw->state + r->offset + (size_t)index * r->cell_size;
}

/* The fields of a cell of `r`: its own, or (a cell of one value) *one. */
static const struct p4odp_register_field *cell_fields(const struct p4odp_register_info *r,
						       struct p4odp_register_field *one, uint32_t *n)
{
	if (r->n_fields) {
		*n = r->n_fields;
		return r->fields;
	}
	*one = (struct p4odp_register_field){ 0, r->cell_size, r->width, r->is_signed };
	*n = 1;
	return one;
}

/* Field `f` of a cell into `value` (ceil(width / 8) bytes, network order). */
static void read_field(const uint8_t *cell, const struct p4odp_register_field *f, uint8_t *value)
{
	const uint8_t *at = cell + f->offset;
	uint32_t n = (f->width + 7) / 8;
	uint64_t v = 0;

	if (f->width > 64) {
		memcpy(value, at, n);
		return;
	}
	switch (f->size) {
	case 1: v = *at; break;
	case 2: { uint16_t x; memcpy(&x, at, 2); v = x; break; }
	case 4: { uint32_t x; memcpy(&x, at, 4); v = x; break; }
	default: memcpy(&v, at, 8); break;
	}
	for (uint32_t i = 0; i < n; i++)
		value[n - 1 - i] = (uint8_t)(v >> 8 * i);
	if (f->width % 8)
		value[0] &= (uint8_t)(0xff >> (8 - f->width % 8));
}

static void write_field(uint8_t *cell, const struct p4odp_register_field *f, const uint8_t *value)
{
	uint8_t *at = cell + f->offset;
	uint32_t n = (f->width + 7) / 8;
	uint64_t v = 0;

	if (f->width > 64) {
		memcpy(at, value, n);
		return;
	}
	for (uint32_t i = 0; i < n; i++)
		v = v << 8 | value[i];
	if (f->is_signed && f->width < 64 && (v >> (f->width - 1) & 1))
		v |= ~UINT64_C(0) << f->width;
	switch (f->size) {
	case 1: *at = (uint8_t)v; break;
	case 2: { uint16_t x = (uint16_t)v; memcpy(at, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(at, &x, 4); break; }
	default: memcpy(at, &v, 8); break;
	}
}

int p4odp_ctl_register_read(struct p4odp_switch *sw, uint32_t reg, uint32_t index, uint8_t *value)
{
	const struct p4odp_register_info *r = register_at(sw, reg, index);
	struct p4odp_register_field one;
	uint32_t n;

	if (!r)
		return -EINVAL;
	const struct p4odp_register_field *fields = cell_fields(r, &one, &n);
	register_hold(sw, r);	/* a cell read whole: no worker's write half in it */
	for (uint32_t i = 0; i < n; i++) {
		read_field(register_cell(sw, r, index), &fields[i], value);
		value += (fields[i].width + 7) / 8;
	}
	register_release(sw, r);
	return 0;
}

int p4odp_ctl_register_write(struct p4odp_switch *sw, uint32_t reg, uint32_t index, const uint8_t *value)
{
	const struct p4odp_register_info *r = register_at(sw, reg, index);
	struct p4odp_register_field one;
	uint32_t n;

	if (!r)
		return -EINVAL;
	const struct p4odp_register_field *fields = cell_fields(r, &one, &n);
	const uint8_t *at = value;
	for (uint32_t i = 0; i < n; at += (fields[i].width + 7) / 8, i++)
		if (fields[i].width % 8 && at[0] >> (fields[i].width % 8))
			return -EINVAL;	/* bits past the field's width: checked first, so nothing changes */
	register_hold(sw, r);	/* no worker's read-modify-write across it */
	for (uint32_t i = 0; i < n; i++) {
		write_field(register_cell(sw, r, index), &fields[i], value);
		value += (fields[i].width + 7) / 8;
	}
	register_release(sw, r);
	return 0;
}

int p4odp_ctl_register_reset(struct p4odp_switch *sw, uint32_t reg)
{
	const struct p4odp_register_info *r = register_at(sw, reg, 0);

	if (!r)
		return -EINVAL;
	register_hold(sw, r);
	memset(register_cell(sw, r, 0), 0, (size_t)r->size * r->cell_size);
	register_release(sw, r);
	return 0;
}

/* ---- Value sets: a member is a `used` byte, then its value; the control plane fills a free
 * member and then sets `used`, and reuses a removed one after a grace period. ---- */

static const struct p4odp_value_set_info *value_set_at(struct p4odp_switch *sw, uint32_t set)
{
	return set < sw->program->n_value_sets ? &sw->program->value_sets[set] : NULL;
}

static uint8_t *value_set_member(struct p4odp_switch *sw, const struct p4odp_value_set_info *v, uint32_t i)
{
	return (uint8_t *)sw->state + v->offset + (size_t)i * v->stride;
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

int p4odp_ctl_value_set_add(struct p4odp_switch *sw, uint32_t set, const uint8_t *value)
{
	const struct p4odp_value_set_info *v = value_set_at(sw, set);

	if (!v || (v->width % 8 && value[0] >> (v->width % 8)))
		return -EINVAL;
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
	return -ENOSPC;
}

int p4odp_ctl_value_set_remove(struct p4odp_switch *sw, uint32_t set, const uint8_t *value)
{
	const struct p4odp_value_set_info *v = value_set_at(sw, set);

	if (!v)
		return -EINVAL;
	int i = value_set_find(sw, v, value);
	if (i < 0)
		return -ENOENT;
	__atomic_store_n(value_set_member(sw, v, (uint32_t)i), 0, __ATOMIC_RELEASE);
	p4odp_rcu_synchronize(sw->rcu);
	return 0;
}

int p4odp_ctl_value_set_clear(struct p4odp_switch *sw, uint32_t set)
{
	const struct p4odp_value_set_info *v = value_set_at(sw, set);

	if (!v)
		return -EINVAL;
	for (uint32_t i = 0; i < v->size; i++)
		__atomic_store_n(value_set_member(sw, v, i), 0, __ATOMIC_RELEASE);
	p4odp_rcu_synchronize(sw->rcu);
	return 0;
}

int p4odp_ctl_value_set_values(struct p4odp_switch *sw, uint32_t set, int (*fn)(void *arg, const uint8_t *value),
			       void *arg)
{
	const struct p4odp_value_set_info *v = value_set_at(sw, set);
	int status = 0;

	if (!v)
		return -EINVAL;
	for (uint32_t i = 0; i < v->size && !status; i++) {
		const uint8_t *m = value_set_member(sw, v, i);
		if (m[0])
			status = fn(arg, m + 1);
	}
	return status;
}
