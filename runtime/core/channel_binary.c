/*
 * The binary control channel (p4odp_wire.h): each frame a call of the
 * control-plane API (p4odp_control.h), decoded, run and its results encoded.
 *
 * A batch that rolls back keeps, for each op it ran, the ops that undo it
 * (encoded as requests, so that the same decoder runs them): at its first
 * failed op they run, last first.  A DATAPLANE_ATOMIC batch is applied with
 * the workers held between two bursts (p4odp_workers_hold): no packet sees
 * a part of it.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "p4odp_wire.h"
#include "switch.h"

/* ---- Reading and writing the frames' integers and bytes ---- */

struct reader {
	const uint8_t *p;
	size_t left;
	bool bad;		/* read past the end */
};

static const uint8_t *get_bytes(struct reader *r, size_t n)
{
	const uint8_t *p = r->p;
	if (n > r->left) {
		r->bad = true;
		r->left = 0;
		return NULL;
	}
	r->p += n;
	r->left -= n;
	return p;
}

static uint64_t get_be(struct reader *r, size_t n)
{
	const uint8_t *p = get_bytes(r, n);
	uint64_t v = 0;
	for (size_t i = 0; p && i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static uint8_t get_u8(struct reader *r) { return (uint8_t)get_be(r, 1); }
static uint16_t get_u16(struct reader *r) { return (uint16_t)get_be(r, 2); }
static uint32_t get_u32(struct reader *r) { return (uint32_t)get_be(r, 4); }
static uint64_t get_u64(struct reader *r) { return get_be(r, 8); }

static double get_f64(struct reader *r)
{
	uint64_t bits = get_u64(r);
	double v;
	memcpy(&v, &bits, sizeof v);
	return v;
}

struct writer {
	uint8_t *data;
	size_t len, cap;
	bool failed;		/* out of memory */
};

static void put(struct writer *w, const void *bytes, size_t n)
{
	if (w->failed)
		return;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap : 256;
		while (cap < w->len + n)
			cap *= 2;
		uint8_t *grown = realloc(w->data, cap);
		if (!grown) {
			w->failed = true;
			return;
		}
		w->data = grown;
		w->cap = cap;
	}
	if (n)
		memcpy(w->data + w->len, bytes, n);
	w->len += n;
}

static void put_be(struct writer *w, uint64_t v, size_t n)
{
	uint8_t b[8];
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> 8 * (n - 1 - i));
	put(w, b, n);
}

static void put_u8(struct writer *w, uint8_t v) { put_be(w, v, 1); }
static void put_u16(struct writer *w, uint16_t v) { put_be(w, v, 2); }
static void put_u32(struct writer *w, uint32_t v) { put_be(w, v, 4); }
static void put_u64(struct writer *w, uint64_t v) { put_be(w, v, 8); }

static void put_f64(struct writer *w, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	put_u64(w, bits);
}

/* Overwrite the u32 at `at` (a length put before what it counts). */
static void patch_u32(struct writer *w, size_t at, uint32_t v)
{
	for (int i = 0; !w->failed && i < 4; i++)
		w->data[at + (size_t)i] = (uint8_t)(v >> 8 * (3 - i));
}

/* ---- The encodings of p4odp_wire.h ---- */

#define MAX_FIELD_BYTES 512	/* of a key field of 4096 bits, the widest a table takes */

static uint32_t width_bytes(uint32_t width)
{
	return (width + 7) / 8;
}

/* MATCH of table `t` into `fields` and *m (pointing into the frame). */
static void get_match(struct reader *r, const struct p4odp_table_info *t, struct p4odp_field_match *fields,
		      struct p4odp_match *m)
{
	m->priority = (int32_t)get_u32(r);
	m->fields = fields;
	for (uint32_t i = 0; i < t->n_keys; i++) {
		struct p4odp_field_match *f = &fields[i];
		uint32_t w = width_bytes(t->keys[i].width);
		*f = (struct p4odp_field_match){ .prefix_len = t->keys[i].width };
		switch (t->keys[i].match_kind) {
		case P4ODP_MATCH_LPM:
			f->prefix_len = get_u16(r);
			f->value = get_bytes(r, w);
			break;
		case P4ODP_MATCH_TERNARY:
			f->value = get_bytes(r, w);
			f->mask = get_bytes(r, w);
			break;
		case P4ODP_MATCH_RANGE:
			f->low = get_bytes(r, w);
			f->high = get_bytes(r, w);
			break;
		case P4ODP_MATCH_OPTIONAL:
			f->wildcard = get_u8(r) != 0;
			f->value = get_bytes(r, w);
			break;
		default:
			f->value = get_bytes(r, w);
		}
	}
}

static void put_field_bytes(struct writer *w, const uint8_t *bytes, uint32_t n, uint8_t fill)
{
	uint8_t none[MAX_FIELD_BYTES];
	if (!bytes) {	/* a wildcard's: all zeros, or for a range's high bound all ones */
		memset(none, fill, n);
		bytes = none;
	}
	put(w, bytes, n);
}

static void put_match(struct writer *w, const struct p4odp_table_info *t, const struct p4odp_match *m)
{
	put_u32(w, (uint32_t)(p4odp_table_has_priority(t) ? m->priority : 0));
	for (uint32_t i = 0; i < t->n_keys; i++) {
		const struct p4odp_field_match *f = &m->fields[i];
		const struct p4odp_key_field_info *k = &t->keys[i];
		uint32_t n = width_bytes(k->width);
		switch (k->match_kind) {
		case P4ODP_MATCH_LPM:
			put_u16(w, (uint16_t)f->prefix_len);
			put_field_bytes(w, f->prefix_len ? f->value : NULL, n, 0);
			break;
		case P4ODP_MATCH_TERNARY:
			put_field_bytes(w, f->wildcard ? NULL : f->value, n, 0);
			put_field_bytes(w, f->wildcard ? NULL : f->mask, n, 0);
			break;
		case P4ODP_MATCH_RANGE: {
			uint8_t high[MAX_FIELD_BYTES];
			memset(high, 0xff, n);
			p4odp_wide_trunc(high, n, k->width);
			put_field_bytes(w, f->wildcard ? NULL : f->low, n, 0);
			put(w, f->wildcard ? high : f->high, n);
			break;
		}
		case P4ODP_MATCH_OPTIONAL:
			put_u8(w, f->wildcard);
			put_field_bytes(w, f->wildcard ? NULL : f->value, n, 0);
			break;
		default:
			put(w, f->value, n);
		}
	}
}

/* CALL into *call (its data pointing into the frame); -EINVAL when its data is not the action's. */
static int get_call(struct reader *r, const struct p4odp_program *p, struct p4odp_action_call *call)
{
	uint32_t data_len = 0;
	call->action = get_u32(r);
	call->ref = get_u32(r);
	uint16_t n = get_u16(r);
	call->data = get_bytes(r, n);
	if (call->action == P4ODP_ACTION_MEMBER || call->action == P4ODP_ACTION_GROUP)
		return n ? -EINVAL : 0;
	return p4odp_action_by_id(p, call->action, &data_len) && data_len == n ? 0 : -EINVAL;
}

/* An entry's action as CALL: an indirect one's data is the id it names (native order). */
static void put_call(struct writer *w, const struct p4odp_program *p, const struct p4odp_table_entry *e)
{
	uint32_t data_len = 0, ref = 0;
	put_u32(w, e->action_id);
	if (e->action_id == P4ODP_ACTION_MEMBER || e->action_id == P4ODP_ACTION_GROUP)
		memcpy(&ref, e->data, sizeof ref);
	else if (!p4odp_action_by_id(p, e->action_id, &data_len))
		data_len = 0;
	put_u32(w, ref);
	put_u16(w, (uint16_t)data_len);
	put(w, e->data, data_len);
}

static void get_ports(struct reader *r, struct p4odp_port_set *set)
{
	const uint8_t *bytes = get_bytes(r, P4ODP_PORT_NUMBERS / 8);
	memset(set, 0, sizeof *set);
	for (uint32_t i = 0; bytes && i < P4ODP_PORT_NUMBERS / 8; i++)
		set->ports[i / 8] |= (uint64_t)bytes[i] << 8 * (i % 8);
}

static void put_ports(struct writer *w, const struct p4odp_port_set *set)
{
	for (uint32_t i = 0; i < P4ODP_PORT_NUMBERS / 8; i++)
		put_u8(w, (uint8_t)(set->ports[i / 8] >> 8 * (i % 8)));
}

/* RATES: NULL (in *rates) when not configured. */
static void get_rates(struct reader *r, struct p4odp_meter_rates *buf, const struct p4odp_meter_rates **rates)
{
	*rates = NULL;
	if (!get_u8(r))
		return;
	buf->committed_rate = get_f64(r);
	buf->committed_burst = get_u64(r);
	buf->peak_rate = get_f64(r);
	buf->peak_burst = get_u64(r);
	*rates = buf;
}

static void put_rates(struct writer *w, const struct p4odp_meter_rates *rates)
{
	put_u8(w, rates != NULL);
	if (!rates)
		return;
	put_f64(w, rates->committed_rate);
	put_u64(w, rates->committed_burst);
	put_f64(w, rates->peak_rate);
	put_u64(w, rates->peak_burst);
}

static void put_clone(struct writer *w, const struct p4odp_clone_session *s)
{
	put_u32(w, s->group);
	put_u32(w, s->truncate);
	put_u32(w, s->class_of_service);
	put_u32(w, s->n_replicas);
	for (uint32_t i = 0; i < s->n_replicas; i++) {
		put_u32(w, s->replicas[i].port);
		put_u32(w, s->replicas[i].rid);
	}
}

/* CLONE into *s, its replicas into `replicas` (room for P4ODP_MAX_CLONE_REPLICAS); -EINVAL for more. */
static int get_clone(struct reader *r, struct p4odp_clone_session *s, struct p4odp_replica *replicas)
{
	s->group = get_u32(r);	/* one after the other: an initializer's order is not C's */
	s->truncate = get_u32(r);
	s->class_of_service = get_u32(r);
	s->n_replicas = get_u32(r);
	s->replicas = replicas;
	if (s->n_replicas > P4ODP_MAX_CLONE_REPLICAS)
		return -EINVAL;
	for (uint32_t i = 0; i < s->n_replicas; i++) {
		replicas[i].port = get_u32(r);
		replicas[i].rid = get_u32(r);
	}
	return 0;
}

/* ---- Ops ---- */

/* What an op runs on: the switch, its answer's results, and, in a batch that rolls back, where
 * the requests that undo it go (NULL: none kept). */
struct op {
	struct p4odp_switch *sw;
	struct reader *in;
	struct writer *out;
	struct writer *undo;
};

/* Start an undo request of op `code` (its length patched by end_undo); where it starts. */
static size_t begin_undo(struct writer *undo, uint16_t code)
{
	size_t at = undo->len;
	put_u32(undo, 0);
	put_u16(undo, code);
	return at;
}

static void end_undo(struct writer *undo, size_t at)
{
	patch_u32(undo, at, (uint32_t)(undo->len - at - 4));
}

static const struct p4odp_table_info *table_arg(struct op *o, uint32_t *table)
{
	*table = get_u32(o->in);
	return *table < o->sw->program->n_tables ? &o->sw->program->tables[*table] : NULL;
}

/* p4odp_table_visit_fn's argument that puts entries (with `with_handle`, each after its handle:
 * put_entry) into `w`, counting them. */
struct entry_out {
	struct writer *w;
	const struct p4odp_program *p;
	const struct p4odp_table_info *t;
	bool with_handle;
	uint32_t count;
};

static int put_entry(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	struct entry_out *o = arg;
	if (o->with_handle)
		put_u64(o->w, (uint64_t)handle);
	if (m)
		put_match(o->w, o->t, m);
	put_call(o->w, o->p, e);
	o->count++;
	return 0;
}

/* p4odp_table_visit_fn's argument that puts the undos of a change of table `table` into `undo`:
 * an entry added back (undo_by_readding) or its action set back (undo_by_modifying). */
struct readd {
	struct writer *undo;
	const struct p4odp_program *p;
	const struct p4odp_table_info *t;
	uint32_t table;
};

static int undo_by_readding(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	struct readd *r = arg;
	(void)handle;
	size_t at = begin_undo(r->undo, P4ODP_OP_ENTRY_ADD);
	put_u32(r->undo, r->table);
	put_match(r->undo, r->t, m);
	put_call(r->undo, r->p, e);
	end_undo(r->undo, at);
	return 0;
}

/* An undo that gives the entry of `m` (the default one when NULL) the action `e`. */
static int undo_by_modifying(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	struct readd *r = arg;
	(void)handle;
	size_t at = begin_undo(r->undo, m ? P4ODP_OP_ENTRY_MODIFY : P4ODP_OP_DEFAULT_SET);
	put_u32(r->undo, r->table);
	if (m)
		put_match(r->undo, r->t, m);
	put_call(r->undo, r->p, e);
	end_undo(r->undo, at);
	return 0;
}

static int op_entries(struct op *o, uint16_t code)
{
	uint32_t table;
	const struct p4odp_table_info *t = table_arg(o, &table);
	struct p4odp_field_match fields[t && t->n_keys ? t->n_keys : 1];
	struct p4odp_match m;
	struct p4odp_action_call call;
	struct readd undo = { o->undo, o->sw->program, t, table };
	int64_t handle = 0;
	int err = 0;

	if (!t)
		return -EINVAL;
	if (code == P4ODP_OP_ENTRY_ADD || code == P4ODP_OP_ENTRY_MODIFY || code == P4ODP_OP_ENTRY_DELETE ||
	    code == P4ODP_OP_ENTRY_FIND)
		get_match(o->in, t, fields, &m);
	if (code == P4ODP_OP_ENTRY)
		handle = (int64_t)get_u64(o->in);
	if (code == P4ODP_OP_ENTRY_ADD || code == P4ODP_OP_ENTRY_MODIFY || code == P4ODP_OP_DEFAULT_SET)
		err = get_call(o->in, o->sw->program, &call);
	if (err || o->in->bad || o->in->left)
		return -EINVAL;
	if (code == P4ODP_OP_ENTRY_MODIFY || code == P4ODP_OP_ENTRY_DELETE || code == P4ODP_OP_ENTRY_FIND) {
		handle = p4odp_ctl_entry_find(o->sw, table, &m);
		if (handle < 0)
			return (int)handle;
	}
	struct entry_out out = { o->out, o->sw->program, t, false, 0 };
	switch (code) {
	case P4ODP_OP_ENTRY_ADD:
		if ((err = p4odp_ctl_entry_add(o->sw, table, &m, &call, &handle)))
			return err;
		put_u64(o->out, (uint64_t)handle);
		if (o->undo) {	/* by its key, as the undos of modifies and deletes: a re-added entry has another handle */
			size_t at = begin_undo(o->undo, P4ODP_OP_ENTRY_DELETE);
			put_u32(o->undo, table);
			put_match(o->undo, t, &m);
			end_undo(o->undo, at);
		}
		return 0;
	case P4ODP_OP_ENTRY_MODIFY:
		if (o->undo)
			p4odp_ctl_entry(o->sw, table, handle, undo_by_modifying, &undo);
		return p4odp_ctl_entry_modify(o->sw, table, handle, &call);
	case P4ODP_OP_ENTRY_DELETE:
		if (o->undo)
			p4odp_ctl_entry(o->sw, table, handle, undo_by_readding, &undo);
		return p4odp_ctl_entry_delete(o->sw, table, handle);
	case P4ODP_OP_ENTRY_FIND:
		put_u64(o->out, (uint64_t)handle);
		return 0;
	case P4ODP_OP_ENTRY:
		return p4odp_ctl_entry(o->sw, table, handle, put_entry, &out);
	case P4ODP_OP_ENTRIES: {
		size_t at = o->out->len;
		put_u32(o->out, 0);
		out.with_handle = true;
		p4odp_ctl_entries(o->sw, table, put_entry, &out);
		patch_u32(o->out, at, out.count);
		return 0;
	}
	case P4ODP_OP_TABLE_CLEAR:
		if (o->undo)
			p4odp_ctl_entries(o->sw, table, undo_by_readding, &undo);
		return p4odp_ctl_table_clear(o->sw, table);
	case P4ODP_OP_DEFAULT_SET:
	case P4ODP_OP_DEFAULT_RESET:
		if (o->undo && !t->default_const)
			p4odp_ctl_default(o->sw, table, undo_by_modifying, &undo);
		return code == P4ODP_OP_DEFAULT_SET ? p4odp_ctl_default_set(o->sw, table, &call)
						    : p4odp_ctl_default_reset(o->sw, table);
	default:	/* P4ODP_OP_DEFAULT */
		if ((err = p4odp_ctl_default(o->sw, table, put_entry, &out)))
			return err;
		put_u8(o->out, p4odp_ctl_default_is_programs(o->sw, table));
		return 0;
	}
}

/* p4odp_table_visit_fn's argument that puts entries' timers, each after its handle, into `out`,
 * counting them. */
struct timer_out {
	struct op *o;
	uint32_t table;
	uint32_t count;
};

static int put_timer(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	struct timer_out *t = arg;
	uint64_t ttl, idle;
	(void)m, (void)e;
	int err = p4odp_ctl_entry_timer(t->o->sw, t->table, handle, &ttl, &idle);
	if (err)
		return err;
	put_u64(t->o->out, (uint64_t)handle);
	put_u64(t->o->out, ttl);
	put_u64(t->o->out, idle);
	t->count++;
	return 0;
}

static int op_timers(struct op *o, uint16_t code)
{
	uint32_t table;
	const struct p4odp_table_info *t = table_arg(o, &table);
	struct p4odp_field_match fields[t && t->n_keys ? t->n_keys : 1];
	struct p4odp_match m;
	uint64_t ttl = 0, idle;
	int64_t handle = 0;

	if (!t)
		return -EINVAL;
	if (code == P4ODP_OP_ENTRY_TTL) {
		get_match(o->in, t, fields, &m);
		ttl = get_u64(o->in);
	} else if (code == P4ODP_OP_ENTRY_TIMER) {
		handle = (int64_t)get_u64(o->in);
	}
	if (o->in->bad || o->in->left || !t->idle_timeout)
		return -EINVAL;
	if (code == P4ODP_OP_ENTRY_TIMER) {
		int err = p4odp_ctl_entry_timer(o->sw, table, handle, &ttl, &idle);
		if (!err) {
			put_u64(o->out, ttl);
			put_u64(o->out, idle);
		}
		return err;
	}
	if (code == P4ODP_OP_TIMERS) {
		struct timer_out out = { o, table, 0 };
		size_t at = o->out->len;
		put_u32(o->out, 0);
		int err = p4odp_ctl_entries(o->sw, table, put_timer, &out);
		patch_u32(o->out, at, out.count);
		return err;
	}
	handle = p4odp_ctl_entry_find(o->sw, table, &m);
	if (handle < 0)
		return (int)handle;
	uint64_t old_ttl;
	p4odp_ctl_entry_timer(o->sw, table, handle, &old_ttl, &idle);
	int err = p4odp_ctl_entry_set_ttl(o->sw, table, handle, ttl);
	if (!err && o->undo) {
		size_t at = begin_undo(o->undo, P4ODP_OP_ENTRY_TTL);
		put_u32(o->undo, table);
		put_match(o->undo, t, &m);
		put_u64(o->undo, old_ttl);
		end_undo(o->undo, at);
	}
	return err;
}

static void put_note(struct writer *w, uint64_t cookie, const uint8_t *bytes, uint32_t len)
{
	put_u64(w, cookie);
	put_u32(w, len);
	put(w, bytes, len);
}

/* p4odp_table_visit_fn's argument that puts the notes of the entries that have one, each after
 * its handle, into `out`, counting them. */
static int put_entry_note(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	struct timer_out *t = arg;
	uint64_t cookie;
	const uint8_t *bytes;
	uint32_t len;
	(void)m, (void)e;
	int err = p4odp_ctl_entry_note(t->o->sw, t->table, handle, &cookie, &bytes, &len);
	if (err || (!cookie && !len))
		return err;
	put_u64(t->o->out, (uint64_t)handle);
	put_note(t->o->out, cookie, bytes, len);
	t->count++;
	return 0;
}

static int op_notes(struct op *o, uint16_t code)
{
	uint32_t table;
	const struct p4odp_table_info *t = table_arg(o, &table);
	struct p4odp_field_match fields[t && t->n_keys ? t->n_keys : 1];
	struct p4odp_match m;
	uint64_t cookie = 0, old_cookie;
	const uint8_t *bytes = NULL, *old_bytes;
	uint32_t len = 0, old_len;
	int64_t handle = 0;

	if (!t)
		return -EINVAL;
	if (code == P4ODP_OP_ENTRY_NOTE_SET) {
		get_match(o->in, t, fields, &m);
		cookie = get_u64(o->in);
		len = get_u32(o->in);
		bytes = get_bytes(o->in, len);
	} else if (code == P4ODP_OP_ENTRY_NOTE) {
		handle = (int64_t)get_u64(o->in);
	}
	if (o->in->bad || o->in->left)
		return -EINVAL;
	if (code == P4ODP_OP_NOTES) {
		struct timer_out out = { o, table, 0 };
		size_t at = o->out->len;
		put_u32(o->out, 0);
		int err = p4odp_ctl_entries(o->sw, table, put_entry_note, &out);
		patch_u32(o->out, at, out.count);
		return err;
	}
	if (code == P4ODP_OP_ENTRY_NOTE_SET && (handle = p4odp_ctl_entry_find(o->sw, table, &m)) < 0)
		return (int)handle;
	int err = p4odp_ctl_entry_note(o->sw, table, handle, &old_cookie, &old_bytes, &old_len);
	if (err || code == P4ODP_OP_ENTRY_NOTE) {
		if (!err)
			put_note(o->out, old_cookie, old_bytes, old_len);
		return err;
	}
	if (o->undo) {	/* written before the change, which frees the old bytes */
		size_t at = begin_undo(o->undo, P4ODP_OP_ENTRY_NOTE_SET);
		put_u32(o->undo, table);
		put_match(o->undo, t, &m);
		put_note(o->undo, old_cookie, old_bytes, old_len);
		end_undo(o->undo, at);
	}
	return p4odp_ctl_entry_set_note(o->sw, table, handle, cookie, bytes, len);
}

/* p4odp_ctl_members' visitor: a member's id and CALL. */
struct profile_out {
	struct op *o;
	uint32_t profile;
	uint32_t count;
};

static int put_member(void *arg, uint32_t id)
{
	struct profile_out *p = arg;
	put_u32(p->o->out, id);
	put_call(p->o->out, p->o->sw->program, p4odp_ctl_member(p->o->sw, p->profile, id));
	p->count++;
	return 0;
}

/* A group's members (room for the profile's size) into `w`: u32 k, k ids. */
static void put_group_members(struct writer *w, struct p4odp_switch *sw, uint32_t profile, uint32_t group,
			      uint32_t *max_size)
{
	uint32_t members[sw->program->profiles[profile].size + 1], n = 0;
	p4odp_ctl_group(sw, profile, group, members, &n, max_size);
	put_u32(w, n);
	for (uint32_t i = 0; i < n; i++)
		put_u32(w, members[i]);
}

static int put_group(void *arg, uint32_t id)
{
	struct profile_out *p = arg;
	uint32_t max_size;
	struct writer members = { 0 };
	put_group_members(&members, p->o->sw, p->profile, id, &max_size);
	put_u32(p->o->out, id);
	put_u32(p->o->out, max_size);
	put(p->o->out, members.data, members.len);
	p->o->out->failed |= members.failed;
	free(members.data);
	p->count++;
	return 0;
}

/* An undo that puts member `id` back as it is now (with `add`: after its delete). */
static void undo_member(struct op *o, uint32_t profile, uint32_t id, bool add)
{
	const struct p4odp_table_entry *e = p4odp_ctl_member(o->sw, profile, id);
	if (!e)
		return;
	size_t at = begin_undo(o->undo, add ? P4ODP_OP_MEMBER_ADD : P4ODP_OP_MEMBER_MODIFY);
	put_u32(o->undo, profile);
	put_u32(o->undo, id);
	put_call(o->undo, o->sw->program, e);
	end_undo(o->undo, at);
}

static bool group_exists(struct p4odp_switch *sw, uint32_t profile, uint32_t id)
{
	uint32_t members[sw->program->profiles[profile].size + 1], n, max_size;
	return p4odp_ctl_group(sw, profile, id, members, &n, &max_size) == 0;
}

/* Undos that put group `id` back as it is now (with `add`: after its delete).  The undos run
 * last first: its members are set after it is added. */
static void undo_group(struct op *o, uint32_t profile, uint32_t id, bool add)
{
	uint32_t max_size;
	size_t at = begin_undo(o->undo, P4ODP_OP_GROUP_SET);
	put_u32(o->undo, profile);
	put_u32(o->undo, id);
	put_group_members(o->undo, o->sw, profile, id, &max_size);
	end_undo(o->undo, at);
	if (!add)
		return;
	at = begin_undo(o->undo, P4ODP_OP_GROUP_ADD);
	put_u32(o->undo, profile);
	put_u32(o->undo, id);
	put_u32(o->undo, max_size);
	end_undo(o->undo, at);
}

/* An undo that deletes the member (or group) `id` just added. */
static void undo_add(struct op *o, uint16_t code, uint32_t scope, uint32_t id)
{
	size_t at = begin_undo(o->undo, code);
	put_u32(o->undo, scope);
	put_u32(o->undo, id);
	end_undo(o->undo, at);
}

static int op_profiles(struct op *o, uint16_t code)
{
	uint32_t profile = get_u32(o->in), id = 0, max_size = 0, n = 0;
	struct p4odp_action_call call;
	int err = 0;

	if (profile >= o->sw->program->n_profiles)
		return -EINVAL;
	uint32_t members[o->sw->program->profiles[profile].size + 1];
	if (code != P4ODP_OP_MEMBERS && code != P4ODP_OP_GROUPS)
		id = get_u32(o->in);
	if (code == P4ODP_OP_MEMBER_ADD || code == P4ODP_OP_MEMBER_MODIFY)
		err = get_call(o->in, o->sw->program, &call);
	if (code == P4ODP_OP_GROUP_ADD)
		max_size = get_u32(o->in);
	if (code == P4ODP_OP_GROUP_SET) {
		n = get_u32(o->in);
		if (n > o->sw->program->profiles[profile].size)
			return -ENOSPC;
		for (uint32_t i = 0; i < n; i++)
			members[i] = get_u32(o->in);
	}
	if (err || o->in->bad || o->in->left)
		return -EINVAL;
	struct profile_out out = { o, profile, 0 };
	size_t count_at = o->out->len;
	switch (code) {
	case P4ODP_OP_MEMBER_ADD:
		if ((err = p4odp_ctl_member_add(o->sw, profile, id, &call, &id)))
			return err;
		put_u32(o->out, id);
		if (o->undo)
			undo_add(o, P4ODP_OP_MEMBER_DELETE, profile, id);
		return 0;
	case P4ODP_OP_MEMBER_MODIFY:
	case P4ODP_OP_MEMBER_DELETE:
		if (o->undo)
			undo_member(o, profile, id, code == P4ODP_OP_MEMBER_DELETE);
		return code == P4ODP_OP_MEMBER_MODIFY ? p4odp_ctl_member_modify(o->sw, profile, id, &call)
						      : p4odp_ctl_member_delete(o->sw, profile, id);
	case P4ODP_OP_GROUP_ADD:
		if ((err = p4odp_ctl_group_add(o->sw, profile, id, max_size, &id)))
			return err;
		put_u32(o->out, id);
		if (o->undo)
			undo_add(o, P4ODP_OP_GROUP_DELETE, profile, id);
		return 0;
	case P4ODP_OP_GROUP_SET:
	case P4ODP_OP_GROUP_DELETE:
		if (o->undo && group_exists(o->sw, profile, id))
			undo_group(o, profile, id, code == P4ODP_OP_GROUP_DELETE);
		return code == P4ODP_OP_GROUP_SET ? p4odp_ctl_group_set(o->sw, profile, id, members, n)
						  : p4odp_ctl_group_delete(o->sw, profile, id);
	default:	/* P4ODP_OP_MEMBERS, P4ODP_OP_GROUPS */
		put_u32(o->out, 0);
		(code == P4ODP_OP_MEMBERS ? p4odp_ctl_members : p4odp_ctl_groups)(
			o->sw, profile, code == P4ODP_OP_MEMBERS ? put_member : put_group, &out);
		patch_u32(o->out, count_at, out.count);
		return 0;
	}
}

/* An undo that gives multicast group `group` its nodes as they are now. */
static void undo_mc_group(struct op *o, uint32_t group)
{
	uint32_t n;
	const uint32_t *nodes = p4odp_ctl_mc_group(o->sw, group, &n);
	size_t at = begin_undo(o->undo, P4ODP_OP_MC_GROUP_SET);
	put_u32(o->undo, group);
	put_u32(o->undo, n);
	for (uint32_t i = 0; i < n; i++)
		put_u32(o->undo, nodes[i]);
	end_undo(o->undo, at);
}

/* An undo of one u32 argument. */
static void undo_u32(struct op *o, uint16_t code, uint32_t arg)
{
	size_t at = begin_undo(o->undo, code);
	put_u32(o->undo, arg);
	end_undo(o->undo, at);
}

/* Undos that put node `node` back as it is now (with `create`: after its destroy, into its group). */
static void undo_mc_node(struct op *o, uint32_t node, bool create)
{
	uint32_t rid, group;
	struct p4odp_port_set ports;
	if (p4odp_ctl_mc_node(o->sw, node, &rid, &ports, &group))
		return;
	if (create && group)
		undo_mc_group(o, group);
	size_t at = begin_undo(o->undo, create ? P4ODP_OP_MC_NODE_CREATE : P4ODP_OP_MC_NODE_UPDATE);
	if (create) {
		put_u32(o->undo, node);
		put_u32(o->undo, rid);
	} else {
		put_u32(o->undo, node);
	}
	put_ports(o->undo, &ports);
	end_undo(o->undo, at);
}

static void undo_clone(struct op *o, uint32_t session)
{
	struct p4odp_clone_session s;
	if (p4odp_ctl_clone_session(o->sw, session, &s)) {
		undo_u32(o, P4ODP_OP_CLONE_DELETE, session);
		return;
	}
	size_t at = begin_undo(o->undo, P4ODP_OP_CLONE_SET);
	put_u32(o->undo, session);
	put_clone(o->undo, &s);
	end_undo(o->undo, at);
}

static int op_replication(struct op *o, uint16_t code)
{
	uint32_t id = code == P4ODP_OP_MC_GROUPS || code == P4ODP_OP_MC_NODES || code == P4ODP_OP_CLONES
			      ? 0 : get_u32(o->in);
	uint32_t rid = 0, n = 0, nodes[P4ODP_MAX_GROUP_NODES], created;
	struct p4odp_port_set ports;
	struct p4odp_clone_session s;
	struct p4odp_replica replicas[P4ODP_MAX_CLONE_REPLICAS];
	int err;

	if (code == P4ODP_OP_MC_NODE_CREATE)
		rid = get_u32(o->in);
	if (code == P4ODP_OP_MC_NODE_CREATE || code == P4ODP_OP_MC_NODE_UPDATE)
		get_ports(o->in, &ports);
	if (code == P4ODP_OP_MC_GROUP_SET) {
		n = get_u32(o->in);
		if (n > P4ODP_MAX_GROUP_NODES)
			return -ENOSPC;
		for (uint32_t i = 0; i < n; i++)
			nodes[i] = get_u32(o->in);
	}
	if (code == P4ODP_OP_CLONE_SET && get_clone(o->in, &s, replicas))
		return -EINVAL;
	if (o->in->bad || o->in->left)
		return -EINVAL;
	switch (code) {
	case P4ODP_OP_MC_GROUP_CREATE:
		if ((err = p4odp_ctl_mc_group_create(o->sw, id)) == 0 && o->undo)
			undo_u32(o, P4ODP_OP_MC_GROUP_DESTROY, id);
		return err;
	case P4ODP_OP_MC_GROUP_DESTROY:
		if (o->undo && p4odp_ctl_mc_group(o->sw, id, &n)) {
			undo_mc_group(o, id);
			undo_u32(o, P4ODP_OP_MC_GROUP_CREATE, id);
		}
		return p4odp_ctl_mc_group_destroy(o->sw, id);
	case P4ODP_OP_MC_GROUP_SET:
		if (o->undo && p4odp_ctl_mc_group(o->sw, id, &rid))
			undo_mc_group(o, id);
		return p4odp_ctl_mc_group_set(o->sw, id, nodes, n);
	case P4ODP_OP_MC_NODE_CREATE:
		if ((err = p4odp_ctl_mc_node_create(o->sw, id, rid, &ports, &created)))
			return err;
		put_u32(o->out, created);
		if (o->undo)
			undo_u32(o, P4ODP_OP_MC_NODE_DESTROY, created);
		return 0;
	case P4ODP_OP_MC_NODE_UPDATE:
	case P4ODP_OP_MC_NODE_DESTROY:
		if (o->undo)
			undo_mc_node(o, id, code == P4ODP_OP_MC_NODE_DESTROY);
		return code == P4ODP_OP_MC_NODE_UPDATE ? p4odp_ctl_mc_node_update(o->sw, id, &ports)
						       : p4odp_ctl_mc_node_destroy(o->sw, id);
	case P4ODP_OP_CLONE_SET:
	case P4ODP_OP_CLONE_DELETE:
		if (o->undo && id < P4ODP_MAX_MIRROR_SESSIONS)
			undo_clone(o, id);
		return code == P4ODP_OP_CLONE_SET ? p4odp_ctl_clone_session_set(o->sw, id, &s)
						  : p4odp_ctl_clone_session_delete(o->sw, id);
	case P4ODP_OP_MC_GROUPS: {
		size_t at = o->out->len;
		put_u32(o->out, 0);
		for (uint32_t group = 1; group < P4ODP_MAX_MC_GROUPS; group++) {
			const uint32_t *in_group = p4odp_ctl_mc_group(o->sw, group, &n);
			if (!in_group)
				continue;
			put_u32(o->out, group);
			put_u32(o->out, n);
			for (uint32_t i = 0; i < n; i++) {
				p4odp_ctl_mc_node(o->sw, in_group[i], &rid, &ports, &created);
				put_u32(o->out, in_group[i]);
				put_u32(o->out, rid);
				put_ports(o->out, &ports);
			}
			id++;
		}
		patch_u32(o->out, at, id);
		return 0;
	}
	case P4ODP_OP_MC_NODES: {
		size_t at = o->out->len;
		put_u32(o->out, 0);
		for (uint32_t node = 0; node < P4ODP_MAX_MC_NODES; node++)
			if (p4odp_ctl_mc_node(o->sw, node, &rid, &ports, &created) == 0) {
				put_u32(o->out, node);
				put_u32(o->out, rid);
				put_ports(o->out, &ports);
				put_u32(o->out, created);	/* its group */
				id++;
			}
		patch_u32(o->out, at, id);
		return 0;
	}
	default: {	/* P4ODP_OP_CLONES */
		size_t at = o->out->len;
		put_u32(o->out, 0);
		for (uint32_t session = 0; session < P4ODP_MAX_MIRROR_SESSIONS; session++)
			if (p4odp_ctl_clone_session(o->sw, session, &s) == 0) {
				put_u32(o->out, session);
				put_clone(o->out, &s);
				id++;
			}
		patch_u32(o->out, at, id);
		return 0;
	}
	}
}

/* Undos that write the counter cells `first` .. `first + n - 1` (indexes as the API takes them)
 * back as they are now. */
static void undo_counter(struct op *o, uint32_t counter, uint64_t first, uint64_t n)
{
	for (uint64_t index = first; index < first + n; index++) {
		uint64_t packets, bytes;
		if (p4odp_ctl_counter_read(o->sw, counter, index, &packets, &bytes))
			continue;
		size_t at = begin_undo(o->undo, P4ODP_OP_COUNTER_WRITE);
		put_u32(o->undo, counter);
		put_u64(o->undo, index);
		put_u64(o->undo, packets);
		put_u64(o->undo, bytes);
		end_undo(o->undo, at);
	}
}

static void undo_meter(struct op *o, uint32_t meter, uint64_t first, uint64_t n)
{
	for (uint64_t index = first; index < first + n; index++) {
		struct p4odp_meter_rates rates;
		int err = p4odp_ctl_meter(o->sw, meter, index, &rates);
		if (err && err != -ENODATA)
			continue;
		size_t at = begin_undo(o->undo, P4ODP_OP_METER_SET);
		put_u32(o->undo, meter);
		put_u64(o->undo, index);
		put_rates(o->undo, err ? NULL : &rates);
		end_undo(o->undo, at);
	}
}

static void undo_register(struct op *o, uint32_t reg, uint32_t first, uint32_t n)
{
	const struct p4odp_register_info *r = &o->sw->program->registers[reg];
	uint8_t value[MAX_FIELD_BYTES];
	for (uint32_t index = first; index < first + n && index < r->size; index++) {
		p4odp_ctl_register_read(o->sw, reg, index, value);
		size_t at = begin_undo(o->undo, P4ODP_OP_REGISTER_WRITE);
		put_u32(o->undo, reg);
		put_u32(o->undo, index);
		put(o->undo, value, width_bytes(r->width));
		end_undo(o->undo, at);
	}
}

/* p4odp_ctl_value_set_values' visitor: an undo that adds `value` back to the set. */
struct value_undo {
	struct op *o;
	uint32_t set;
	uint32_t count;
	bool as_undo;		/* else the value into o->out */
	const uint8_t *value;	/* is_value's */
};

static int put_value(void *arg, const uint8_t *value)
{
	struct value_undo *v = arg;
	uint32_t n = width_bytes(v->o->sw->program->value_sets[v->set].width);
	if (!v->as_undo) {
		put(v->o->out, value, n);
	} else {
		size_t at = begin_undo(v->o->undo, P4ODP_OP_VALUE_SET_ADD);
		put_u32(v->o->undo, v->set);
		put(v->o->undo, value, n);
		end_undo(v->o->undo, at);
	}
	v->count++;
	return 0;
}

/* p4odp_ctl_value_set_values' visitor: 1 at the value of `value` in the struct value_undo. */
static int is_value(void *arg, const uint8_t *value)
{
	const struct value_undo *v = arg;
	return !memcmp(value, v->value, width_bytes(v->o->sw->program->value_sets[v->set].width));
}

static int op_externs(struct op *o, uint16_t code)
{
	const struct p4odp_program *p = o->sw->program;
	uint32_t object = get_u32(o->in);
	uint64_t index = 0, packets = 0, bytes = 0;
	struct p4odp_meter_rates buf;
	const struct p4odp_meter_rates *rates = NULL;
	const uint8_t *value = NULL;
	int err;

	switch (code) {	/* the arguments, and which object they name */
	case P4ODP_OP_COUNTER_READ:
	case P4ODP_OP_COUNTER_WRITE:
	case P4ODP_OP_COUNTER_RESET:
		if (object >= p->n_counters)
			return -EINVAL;
		if (code != P4ODP_OP_COUNTER_RESET)
			index = get_u64(o->in);
		if (code == P4ODP_OP_COUNTER_WRITE) {
			packets = get_u64(o->in);
			bytes = get_u64(o->in);
		}
		break;
	case P4ODP_OP_METER_SET:
	case P4ODP_OP_METER_SET_ALL:
	case P4ODP_OP_METER:
		if (object >= p->n_meters)
			return -EINVAL;
		if (code != P4ODP_OP_METER_SET_ALL)
			index = get_u64(o->in);
		if (code != P4ODP_OP_METER)
			get_rates(o->in, &buf, &rates);
		break;
	case P4ODP_OP_REGISTER_READ:
	case P4ODP_OP_REGISTER_WRITE:
	case P4ODP_OP_REGISTER_RESET:
		if (object >= p->n_registers)
			return -EINVAL;
		if (code != P4ODP_OP_REGISTER_RESET)
			index = get_u32(o->in);
		if (code == P4ODP_OP_REGISTER_WRITE)
			value = get_bytes(o->in, width_bytes(p->registers[object].width));
		break;
	default:	/* value sets */
		if (object >= p->n_value_sets)
			return -EINVAL;
		if (code == P4ODP_OP_VALUE_SET_ADD || code == P4ODP_OP_VALUE_SET_REMOVE)
			value = get_bytes(o->in, width_bytes(p->value_sets[object].width));
	}
	if (o->in->bad || o->in->left)
		return -EINVAL;
	struct value_undo values = { o, object, 0, o->undo != NULL, value };
	uint8_t cell[MAX_FIELD_BYTES];
	switch (code) {
	case P4ODP_OP_COUNTER_READ:
		if ((err = p4odp_ctl_counter_read(o->sw, object, index, &packets, &bytes)))
			return err;
		put_u64(o->out, packets);
		put_u64(o->out, bytes);
		return 0;
	case P4ODP_OP_COUNTER_WRITE:
	case P4ODP_OP_COUNTER_RESET:
		if (o->undo)
			undo_counter(o, object, index, code == P4ODP_OP_COUNTER_WRITE ? 1 : p->counters[object].size);
		return code == P4ODP_OP_COUNTER_WRITE ? p4odp_ctl_counter_write(o->sw, object, index, packets, bytes)
						      : p4odp_ctl_counter_reset(o->sw, object);
	case P4ODP_OP_METER_SET:
	case P4ODP_OP_METER_SET_ALL:
		if (o->undo)
			undo_meter(o, object, index, code == P4ODP_OP_METER_SET ? 1 : p->meters[object].size);
		return code == P4ODP_OP_METER_SET ? p4odp_ctl_meter_set(o->sw, object, index, rates)
						  : p4odp_ctl_meter_set_all(o->sw, object, rates);
	case P4ODP_OP_METER:
		err = p4odp_ctl_meter(o->sw, object, index, &buf);
		if (err && err != -ENODATA)
			return err;
		put_rates(o->out, err ? NULL : &buf);
		return 0;
	case P4ODP_OP_REGISTER_READ:
		if ((err = p4odp_ctl_register_read(o->sw, object, (uint32_t)index, cell)))
			return err;
		put(o->out, cell, width_bytes(p->registers[object].width));
		return 0;
	case P4ODP_OP_REGISTER_WRITE:
	case P4ODP_OP_REGISTER_RESET:
		if (o->undo)
			undo_register(o, object, (uint32_t)index,
				      code == P4ODP_OP_REGISTER_WRITE ? 1 : p->registers[object].size);
		return code == P4ODP_OP_REGISTER_WRITE ? p4odp_ctl_register_write(o->sw, object, (uint32_t)index, value)
						       : p4odp_ctl_register_reset(o->sw, object);
	case P4ODP_OP_VALUE_SET_ADD:
		if (o->undo && !p4odp_ctl_value_set_values(o->sw, object, is_value, &values)) {
			size_t at = begin_undo(o->undo, P4ODP_OP_VALUE_SET_REMOVE);
			put_u32(o->undo, object);
			put(o->undo, value, width_bytes(p->value_sets[object].width));
			end_undo(o->undo, at);
		}
		return p4odp_ctl_value_set_add(o->sw, object, value);
	case P4ODP_OP_VALUE_SET_REMOVE:
		if (o->undo && p4odp_ctl_value_set_values(o->sw, object, is_value, &values))
			put_value(&values, value);
		return p4odp_ctl_value_set_remove(o->sw, object, value);
	case P4ODP_OP_VALUE_SET_CLEAR:
		if (o->undo)
			p4odp_ctl_value_set_values(o->sw, object, put_value, &values);
		return p4odp_ctl_value_set_clear(o->sw, object);
	default: {	/* P4ODP_OP_VALUE_SETS */
		size_t at = o->out->len;
		put_u32(o->out, 0);
		values.as_undo = false;
		p4odp_ctl_value_set_values(o->sw, object, put_value, &values);
		patch_u32(o->out, at, values.count);
		return 0;
	}
	}
}

static void put_name(struct writer *w, const char *name)
{
	size_t n = strlen(name);
	put_u16(w, (uint16_t)n);
	put(w, name, n);
}

/* OBJECTS: the names of each kind of object, as the `n` items of `size` bytes from `items`, each
 * starting with its name. */
_Static_assert(offsetof(struct p4odp_table_info, name) == 0 && offsetof(struct p4odp_profile_info, name) == 0 &&
	       offsetof(struct p4odp_counter_info, name) == 0 && offsetof(struct p4odp_meter_info, name) == 0 &&
	       offsetof(struct p4odp_register_info, name) == 0 && offsetof(struct p4odp_value_set_info, name) == 0,
	       "put_names reads each item's name first");
static void put_names(struct writer *w, const void *items, uint32_t n, size_t size)
{
	put_u32(w, n);
	for (uint32_t i = 0; i < n; i++)
		put_name(w, *(const char *const *)((const char *)items + i * size));
}

static int op_objects(struct op *o)
{
	const struct p4odp_program *p = o->sw->program;
	if (o->in->left)
		return -EINVAL;
	put_names(o->out, p->tables, p->n_tables, sizeof p->tables[0]);
	put_names(o->out, p->profiles, p->n_profiles, sizeof p->profiles[0]);
	put_names(o->out, p->counters, p->n_counters, sizeof p->counters[0]);
	put_names(o->out, p->meters, p->n_meters, sizeof p->meters[0]);
	put_names(o->out, p->registers, p->n_registers, sizeof p->registers[0]);
	put_names(o->out, p->value_sets, p->n_value_sets, sizeof p->value_sets[0]);
	put_u32(o->out, p->n_actions);
	for (uint32_t i = 0; i < p->n_actions; i++) {
		put_u32(o->out, p->actions[i].id);
		put_name(o->out, p->actions[i].name);
	}
	return 0;
}

/* Run one op (its code and arguments in `in`), its results into `out` (nothing when it fails) and,
 * with `undo`, the ops that undo it. */
static int run_op(struct p4odp_switch *sw, struct reader *in, struct writer *out, struct writer *undo)
{
	uint16_t code = get_u16(in);
	struct op o = { sw, in, out, undo };
	size_t out_mark = out->len, undo_mark = undo ? undo->len : 0;
	int err;

	if (in->bad)
		err = -EINVAL;
	else if (code >= P4ODP_OP_ENTRY_ADD && code <= P4ODP_OP_DEFAULT)
		err = op_entries(&o, code);
	else if (code >= P4ODP_OP_ENTRY_TTL && code <= P4ODP_OP_TIMERS)
		err = op_timers(&o, code);
	else if (code >= P4ODP_OP_ENTRY_NOTE_SET && code <= P4ODP_OP_NOTES)
		err = op_notes(&o, code);
	else if (code >= P4ODP_OP_MEMBER_ADD && code <= P4ODP_OP_GROUPS)
		err = op_profiles(&o, code);
	else if (code >= P4ODP_OP_MC_NODES && code <= P4ODP_OP_CLONES)
		err = op_replication(&o, code);
	else if (code >= P4ODP_OP_COUNTER_READ && code <= P4ODP_OP_VALUE_SETS)
		err = op_externs(&o, code);
	else if (code == P4ODP_OP_OBJECTS)
		err = op_objects(&o);
	else if (code == P4ODP_OP_PACKET_OUT) {	/* not undone: a packet sent in is gone */
		size_t n = in->left;
		err = p4odp_ctl_packet_out(sw, get_bytes(in, n), (uint32_t)n);
	}
	else
		err = -EOPNOTSUPP;
	if (!err && (out->failed || (undo && undo->failed)))
		err = -ENOMEM;	/* what it changed stays: only a batch's undos could take it back */
	if (err) {
		out->len = out_mark;
		if (undo)
			undo->len = undo_mark;
	}
	return err;
}

/* Run the undos in `undo` (frames of ops), the last first. */
static void run_undos(struct p4odp_switch *sw, const struct writer *undo)
{
	struct writer starts = { 0 };	/* each frame's offset, a size_t each */
	for (size_t at = 0; at + 4 <= undo->len;) {
		put(&starts, &at, sizeof at);
		struct reader r = { undo->data + at, 4, false };
		at += 4 + get_u32(&r);
	}
	if (starts.failed) {
		fprintf(stderr, "error: out of memory to roll a batch back: the switch keeps a part of it\n");
		free(starts.data);
		return;
	}
	struct writer scratch = { 0 };
	for (size_t i = starts.len / sizeof(size_t); i-- > 0;) {
		size_t at;
		memcpy(&at, starts.data + i * sizeof at, sizeof at);
		struct reader r = { undo->data + at, undo->len - at, false };
		uint32_t len = get_u32(&r);
		struct reader op = { get_bytes(&r, len), len, false };
		scratch.len = 0;
		int err = run_op(sw, &op, &scratch, NULL);
		if (err)
			fprintf(stderr, "error: rolling a batch back: %s\n", strerror(-err));
	}
	free(scratch.data);
	free(starts.data);
}

/* BATCH: its ops' answers into `out`; the first failed op's status. */
static int run_batch(struct p4odp_switch *sw, bool live, struct reader *in, struct writer *out)
{
	uint8_t atomicity = get_u8(in);
	uint32_t n = get_u32(in);
	struct writer undo = { 0 };
	bool rollback = atomicity != P4ODP_BATCH_CONTINUE_ON_ERROR;
	bool hold = atomicity == P4ODP_BATCH_DATAPLANE_ATOMIC && live;
	int first_err = 0;

	if (in->bad || atomicity > P4ODP_BATCH_DATAPLANE_ATOMIC)
		return -EINVAL;
	if (hold)
		p4odp_workers_hold(sw);
	for (uint32_t i = 0; i < n && !(rollback && first_err); i++) {
		uint32_t len = get_u32(in);
		struct reader op = { get_bytes(in, len), len, false };
		if (in->bad) {
			first_err = -EINVAL;
			break;
		}
		size_t at = out->len;
		put_u32(out, 0);
		put_u32(out, 0);
		int err = run_op(sw, &op, out, rollback ? &undo : NULL);
		patch_u32(out, at, (uint32_t)(out->len - at - 4));
		patch_u32(out, at + 4, (uint32_t)err);
		if (err && !first_err)
			first_err = err;
	}
	if (rollback && first_err)
		run_undos(sw, &undo);
	if (hold)
		p4odp_workers_release(sw);
	free(undo.data);
	return first_err;
}

int p4odp_binary_request(struct p4odp_switch *sw, bool live, const uint8_t *body, size_t len, uint8_t **answer,
			 size_t *answer_len)
{
	struct reader in = { body, len, false };
	struct writer out = { 0 };
	int status;

	put_u32(&out, 0);
	if (len >= 2 && (body[0] << 8 | body[1]) == P4ODP_OP_BATCH) {
		get_u16(&in);
		status = run_batch(sw, live, &in, &out);
	} else {
		status = run_op(sw, &in, &out, NULL);
	}
	patch_u32(&out, 0, (uint32_t)status);
	if (out.failed) {
		free(out.data);
		return -ENOMEM;
	}
	*answer = out.data;
	*answer_len = out.len;
	return 0;
}
