/*
 * Digests: v1model's digest() on the workers, delivered by the main thread to
 * the control channel's clients that listen (digest_listen).
 *
 * A worker copies each message into its ring, without waiting and without a
 * lock; when no client listens it does nothing, and when the ring is full it
 * counts the message dropped.  The main thread empties the rings between its
 * other duties and sends each message as an event line
 *     digest NAME VALUE...
 * a value per field: 0x-hexadecimal, or the member's name for an error or an
 * enum without a representation.
 */
#include <stdio.h>
#include <string.h>

#include "switch.h"

void p4odp_digest(struct p4odp_pctx *pc, uint32_t digest, const uint8_t *message)
{
	struct p4odp_digest_ring *ring = pc->worker->digests;

	if (!__atomic_load_n(&pc->sw->digest_listeners, __ATOMIC_RELAXED))
		return;
	uint32_t head = ring->head;
	if (head - __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE) == P4ODP_DIGEST_RING) {
		__atomic_store_n(&pc->worker->digests_dropped, pc->worker->digests_dropped + 1, __ATOMIC_RELAXED);
		return;
	}
	ring->slots[head % P4ODP_DIGEST_RING].digest = digest;
	memcpy(ring->slots[head % P4ODP_DIGEST_RING].message, message, pc->sw->program->digests[digest].size);
	__atomic_store_n(&ring->head, head + 1, __ATOMIC_RELEASE);
}

/* " VALUE" of one field, from `bytes` (its whole bytes, big-endian), into `line`; as snprintf. */
static int format_field(char *line, size_t room, const struct p4odp_digest_field *f, const uint8_t *bytes)
{
	uint32_t n = (f->width + 7) / 8, first = 0;

	if (n == 0)	/* bit<0>: no bytes */
		return snprintf(line, room, " 0x0");
	if (f->names) {
		uint64_t number = 0;
		for (uint32_t i = 0; i < n; i++)
			number = number << 8 | bytes[i];
		if (number < f->n_names)
			return snprintf(line, room, " %s", f->names[number]);
	}
	while (first + 1 < n && !bytes[first])
		first++;
	int used = snprintf(line, room, " 0x%x", bytes[first]);
	for (uint32_t i = first + 1; i < n && used > 0 && (size_t)used < room; i++)
		used += snprintf(line + used, room - (size_t)used, "%02x", bytes[i]);
	return used;
}

static void deliver(struct p4odp_channel *ch, const struct p4odp_digest_info *d, const uint8_t *message)
{
	/* Each field takes at most 2 characters a byte and its " 0x", or its name. */
	char line[64 + 3 * P4ODP_DIGEST_BYTES + 4096];
	int used = snprintf(line, sizeof line, "digest %s", d->name);

	for (uint32_t i = 0; i < d->n_fields && used > 0 && (size_t)used < sizeof line; i++) {
		used += format_field(line + used, sizeof line - (size_t)used, &d->fields[i], message);
		message += (d->fields[i].width + 7) / 8;
	}
	if (used <= 0 || (size_t)used >= sizeof line - 1)
		return;
	line[used++] = '\n';
	p4odp_channel_event(ch, P4ODP_EVENT_DIGESTS, line, (size_t)used);
}

void p4odp_digests_deliver(struct p4odp_switch *sw, struct p4odp_channel *ch)
{
	uint64_t dropped = 0;

	if (!sw->program->n_digests)
		return;
	for (uint32_t k = 0; k < sw->n_workers; k++) {
		struct p4odp_digest_ring *ring = sw->per_worker[k].digests;
		uint32_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
		for (uint32_t tail = ring->tail; tail != head; tail++) {
			uint32_t digest = ring->slots[tail % P4ODP_DIGEST_RING].digest;
			deliver(ch, &sw->program->digests[digest], ring->slots[tail % P4ODP_DIGEST_RING].message);
		}
		__atomic_store_n(&ring->tail, head, __ATOMIC_RELEASE);
		dropped += __atomic_load_n(&sw->workers[k].digests_dropped, __ATOMIC_RELAXED);
	}
	if (dropped != ch->digests_dropped) {
		char line[64];
		int n = snprintf(line, sizeof line, "digests_dropped %llu\n", (unsigned long long)dropped);
		ch->digests_dropped = dropped;
		p4odp_channel_event(ch, P4ODP_EVENT_DIGESTS, line, (size_t)n);
	}
}
