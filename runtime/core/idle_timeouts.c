/*
 * Idle timeouts (p4odp_control.h): the timers of the entries of tables with
 * support_timeout, and the main thread's scan for entries idle past their
 * TTL.
 *
 * A worker that hits an entry writes the time of its burst into its own
 * array of the table's hit times (p4odp_entry_hit): no write shared with
 * another thread on the fast path.  This control thread reads every
 * worker's time of an entry and its timer's start, the latest of which is
 * when the entry was last hit.  An index is given to a new entry only after
 * a grace period, so a worker's time left from the entry before is older
 * than the new entry's start.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "switch.h"

/* The handles of one event line at most: the line stays well under a control line. */
#define HANDLES_PER_EVENT 256

static struct p4odp_entry_timer *timer_of(struct p4odp_switch *sw, uint32_t table, int64_t handle)
{
	struct p4odp_runtime_table *rt = &sw->tables[table];
	uint32_t index = (uint32_t)handle;

	return rt->timers && handle >= 0 && index < rt->info->size && rt->timers[index].handle == handle
		       ? &rt->timers[index] : NULL;
}

void p4odp_timer_start(struct p4odp_switch *sw, uint32_t table, int64_t handle)
{
	struct p4odp_runtime_table *rt = &sw->tables[table];

	if (rt->timers)
		rt->timers[(uint32_t)handle] = (struct p4odp_entry_timer){ handle, 0, odp_time_global_ns() };
}

void p4odp_timer_stop(struct p4odp_switch *sw, uint32_t table, int64_t handle)
{
	struct p4odp_runtime_table *rt = &sw->tables[table];

	if (!rt->timers)
		return;
	if (handle < 0) {
		memset(rt->timers, 0, rt->info->size * sizeof *rt->timers);
		rt->n_timed = 0;
		return;
	}
	struct p4odp_entry_timer *timer = &rt->timers[(uint32_t)handle];
	rt->n_timed -= timer->ttl_ns != 0;
	*timer = (struct p4odp_entry_timer){ -1, 0, 0 };
}

/* When the entry of `timer` was last hit, or its timer started: the latest of the two. */
static uint64_t last_active(const struct p4odp_switch *sw, uint32_t table, const struct p4odp_entry_timer *timer)
{
	const struct p4odp_table_info *t = &sw->program->tables[table];
	uint32_t index = (uint32_t)timer->handle;
	uint64_t latest = timer->started_ns;

	for (uint32_t k = 0; k < sw->n_workers; k++) {
		const uint64_t *hits = (const uint64_t *)((const char *)sw->per_worker[k].state + t->last_hit);
		uint64_t hit = __atomic_load_n(&hits[index], __ATOMIC_RELAXED);
		if (hit > latest)
			latest = hit;
	}
	return latest;
}

int p4odp_ctl_entry_set_ttl(struct p4odp_switch *sw, uint32_t table, int64_t handle, uint64_t ttl_ns)
{
	if (table >= sw->program->n_tables || !sw->tables[table].timers)
		return -EINVAL;
	struct p4odp_entry_timer *timer = timer_of(sw, table, handle);
	if (!timer)
		return -ENOENT;
	sw->tables[table].n_timed += (ttl_ns != 0) - (timer->ttl_ns != 0);
	timer->ttl_ns = ttl_ns;
	return 0;
}

int p4odp_ctl_entry_timer(struct p4odp_switch *sw, uint32_t table, int64_t handle, uint64_t *ttl_ns,
			  uint64_t *idle_ns)
{
	if (table >= sw->program->n_tables || !sw->tables[table].timers)
		return -EINVAL;
	const struct p4odp_entry_timer *timer = timer_of(sw, table, handle);
	if (!timer)
		return -ENOENT;
	uint64_t now = odp_time_global_ns(), active = last_active(sw, table, timer);
	*ttl_ns = timer->ttl_ns;
	*idle_ns = now > active ? now - active : 0;
	return 0;
}

/* The event lines of table `table`'s entries idle at `now`, their timers started again. */
static void report_idle(struct p4odp_switch *sw, struct p4odp_channel *ch, uint32_t table, uint64_t now)
{
	struct p4odp_runtime_table *rt = &sw->tables[table];
	char line[64 + 256 + HANDLES_PER_EVENT * 21];
	int head = snprintf(line, sizeof line, "idle_timeout %s", rt->info->name), used = head;
	uint32_t in_line = 0;

	if (head <= 0 || head >= 64 + 256)
		return;
	for (uint32_t i = 0; i < rt->info->size; i++) {
		struct p4odp_entry_timer *timer = &rt->timers[i];
		if (!timer->ttl_ns)
			continue;
		uint64_t active = last_active(sw, table, timer);
		if (active > now || now - active < timer->ttl_ns)
			continue;
		timer->started_ns = now;
		used += snprintf(line + used, sizeof line - (size_t)used, " %lld", (long long)timer->handle);
		if (++in_line == HANDLES_PER_EVENT) {
			line[used++] = '\n';
			p4odp_channel_event(ch, P4ODP_EVENT_IDLE, line, (size_t)used);
			used = head;
			in_line = 0;
		}
	}
	if (in_line) {
		line[used++] = '\n';
		p4odp_channel_event(ch, P4ODP_EVENT_IDLE, line, (size_t)used);
	}
}

void p4odp_idle_deliver(struct p4odp_switch *sw, struct p4odp_channel *ch)
{
	if (!sw->idle_timeouts || !sw->idle_listeners)
		return;
	uint64_t now = odp_time_global_ns();
	if (now - sw->idle_scanned_ns < P4ODP_IDLE_SCAN_NS)
		return;
	sw->idle_scanned_ns = now;
	for (uint32_t i = 0; i < sw->program->n_tables; i++)
		if (sw->tables[i].n_timed)
			report_idle(sw, ch, i, now);
}
