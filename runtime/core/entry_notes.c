/*
 * Entry notes (p4odp_control.h): what a controller keeps with a table entry
 * (P4Runtime's controller_metadata and metadata), so that reads give it back
 * whichever client asks.  Kept by entry index, from a table's first note on;
 * the workers never read them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "switch.h"

static int exists(void *arg, int64_t handle, const struct p4odp_match *m, const struct p4odp_table_entry *e)
{
	(void)arg, (void)handle, (void)m, (void)e;
	return 0;
}

/* The note slot of entry `handle` (NULL while the table has none and `make` is false); -ENOENT
 * when it is no entry of the table, -ENOMEM for a first note. */
static int note_slot(struct p4odp_switch *sw, uint32_t table, int64_t handle, bool make,
		     struct p4odp_entry_note **slot)
{
	struct p4odp_runtime_table *rt = &sw->tables[table];
	uint32_t index = (uint32_t)handle;

	if (p4odp_table_get(rt->table, handle, exists, NULL))
		return -ENOENT;
	if (!rt->notes && make) {
		rt->notes = malloc(rt->info->size * sizeof *rt->notes);
		if (!rt->notes)
			return -ENOMEM;
		for (uint32_t i = 0; i < rt->info->size; i++)
			rt->notes[i] = (struct p4odp_entry_note){ .handle = -1 };
	}
	*slot = rt->notes ? &rt->notes[index] : NULL;
	return 0;
}

int p4odp_ctl_entry_set_note(struct p4odp_switch *sw, uint32_t table, int64_t handle, uint64_t cookie,
			     const uint8_t *bytes, uint32_t len)
{
	struct p4odp_entry_note *note;
	uint8_t *copy = NULL;

	if (table >= sw->program->n_tables || len > P4ODP_NOTE_BYTES || (len && !bytes))
		return -EINVAL;
	int err = note_slot(sw, table, handle, cookie || len, &note);
	if (err || !note)
		return err;
	if (len && !(copy = malloc(len)))
		return -ENOMEM;
	if (len)
		memcpy(copy, bytes, len);
	free(note->bytes);
	*note = cookie || len ? (struct p4odp_entry_note){ handle, cookie, len, copy }
			      : (struct p4odp_entry_note){ .handle = -1 };
	return 0;
}

int p4odp_ctl_entry_note(struct p4odp_switch *sw, uint32_t table, int64_t handle, uint64_t *cookie,
			 const uint8_t **bytes, uint32_t *len)
{
	struct p4odp_entry_note *note;

	if (table >= sw->program->n_tables)
		return -EINVAL;
	int err = note_slot(sw, table, handle, false, &note);
	if (err)
		return err;
	bool has = note && note->handle == handle;
	*cookie = has ? note->cookie : 0;
	*bytes = has ? note->bytes : NULL;
	*len = has ? note->len : 0;
	return 0;
}

static void drop(struct p4odp_entry_note *note)
{
	free(note->bytes);
	*note = (struct p4odp_entry_note){ .handle = -1 };
}

void p4odp_notes_drop(struct p4odp_switch *sw, uint32_t table, int64_t handle)
{
	struct p4odp_runtime_table *rt = &sw->tables[table];

	if (rt->notes && handle >= 0)
		drop(&rt->notes[(uint32_t)handle]);
	for (uint32_t i = 0; rt->notes && handle < 0 && i < rt->info->size; i++)
		drop(&rt->notes[i]);
}

void p4odp_notes_destroy(struct p4odp_runtime_table *rt)
{
	for (uint32_t i = 0; rt->notes && i < rt->info->size; i++)
		free(rt->notes[i].bytes);
	free(rt->notes);
	rt->notes = NULL;
}
