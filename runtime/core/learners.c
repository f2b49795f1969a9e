/*
 * Tables whose entries the datapath adds (PNA's add-on-miss): the workers'
 * own slots of learnt entries, and their expiry (see p4odp_runtime.h).
 *
 * A worker writes only its own slots; the control thread reads them.  A slot
 * is published by its expiry time, stored last with release: a reader that
 * sees it later than now sees the key and the entry whole.
 */
#include <errno.h>
#include <string.h>

#include "switch.h"

/* p4c-dpdk's expire-time profiles 0 to 7 (seconds); the others never expire
 * until the control plane gives them a time. */
static const uint32_t default_expire_s[] = { 10, 30, 60, 120, 300, 43200, 120, 120 };

void p4odp_learners_init(struct p4odp_switch *sw)
{
	for (uint32_t p = 0; p < P4ODP_EXPIRE_PROFILES; p++)
		sw->expire_ns[p] = p < sizeof default_expire_s / sizeof *default_expire_s
					   ? (uint64_t)default_expire_s[p] * 1000000000u : UINT64_MAX / 2;
}

static uint32_t key_hash(const uint8_t *key, uint32_t len)
{
	uint32_t hash = 2166136261u;	/* FNV-1a */

	for (uint32_t i = 0; i < len; i++)
		hash = (hash ^ key[i]) * 16777619u;
	return hash;
}

static struct p4odp_learnt *slot_at(void *worker_state, const struct p4odp_learner_info *info, uint32_t at)
{
	return (struct p4odp_learnt *)((uint8_t *)worker_state + info->offset +
				       (size_t)at * P4ODP_LEARNT_BYTES(info->key_len, info->data_len));
}

static struct p4odp_table_entry *entry_of(const struct p4odp_learner_info *info, struct p4odp_learnt *slot)
{
	return (struct p4odp_table_entry *)((uint8_t *)slot + P4ODP_LEARNT_ENTRY_OFFSET(info->key_len));
}

static uint64_t expiry(const struct p4odp_switch *sw, uint64_t now, uint32_t profile)
{
	return now + __atomic_load_n(&sw->expire_ns[profile % P4ODP_EXPIRE_PROFILES], __ATOMIC_RELAXED);
}

const struct p4odp_table_entry *p4odp_learner_lookup(struct p4odp_pctx *pc, uint32_t learner, const uint8_t *key,
						   bool *hit)
{
	const struct p4odp_learner_info *info = &pc->sw->program->learners[learner];
	uint32_t hash = key_hash(key, info->key_len);
	uint64_t now = pc->burst_ns;

	for (uint32_t i = 0; i < P4ODP_LEARNER_PROBES; i++) {
		struct p4odp_learnt *slot = slot_at(pc->worker_state, info, (hash + i) & (info->size - 1));

		if (slot->expires_ns > now && slot->hash == hash && !memcmp(slot->key, key, info->key_len)) {
			__atomic_store_n(&slot->expires_ns, expiry(pc->sw, now, slot->profile), __ATOMIC_RELAXED);
			*hit = true;
			return entry_of(info, slot);
		}
	}
	*hit = false;
	return p4odp_table_default(pc->sw, info->table);
}

bool p4odp_learner_add(struct p4odp_pctx *pc, uint32_t learner, const uint8_t *key, uint32_t action_id,
		       const uint8_t *data, uint32_t profile)
{
	const struct p4odp_learner_info *info = &pc->sw->program->learners[learner];
	uint32_t hash = key_hash(key, info->key_len);
	uint64_t now = pc->burst_ns;

	for (uint32_t i = 0; i < P4ODP_LEARNER_PROBES; i++) {
		uint32_t at = (hash + i) & (info->size - 1);
		struct p4odp_learnt *slot = slot_at(pc->worker_state, info, at);

		if (slot->expires_ns > now)
			continue;
		struct p4odp_table_entry *entry = entry_of(info, slot);
		__atomic_store_n(&slot->expires_ns, 0, __ATOMIC_RELAXED);	/* no reader takes it half written */
		__atomic_thread_fence(__ATOMIC_RELEASE);
		slot->profile = profile % P4ODP_EXPIRE_PROFILES;
		slot->hash = hash;
		memcpy(slot->key, key, info->key_len);
		entry->action_id = (uint16_t)action_id;
		entry->index = at;
		memcpy(entry->data, data, info->data_len);
		__atomic_store_n(&slot->expires_ns, expiry(pc->sw, now, slot->profile), __ATOMIC_RELEASE);
		return true;
	}
	return false;
}

void p4odp_learner_expire_in(struct p4odp_pctx *pc, uint32_t learner, const struct p4odp_table_entry *entry,
			     uint32_t profile)
{
	const struct p4odp_learner_info *info = &pc->sw->program->learners[learner];
	struct p4odp_learnt *slot = slot_at(pc->worker_state, info, entry->index);

	if (profile != P4ODP_EXPIRE_SAME)
		slot->profile = profile % P4ODP_EXPIRE_PROFILES;
	__atomic_store_n(&slot->expires_ns, expiry(pc->sw, pc->burst_ns, slot->profile), __ATOMIC_RELAXED);
}

uint32_t p4odp_flow_id(struct p4odp_pctx *pc)
{
	struct p4odp_worker *w = pc->worker;

	return ++w->flow_ids * pc->sw->n_workers + w->id;
}

int p4odp_ctl_learnt_entries(struct p4odp_switch *sw, uint32_t learner, p4odp_learnt_fn fn, void *arg)
{
	if (learner >= sw->program->n_learners)
		return -EINVAL;
	const struct p4odp_learner_info *info = &sw->program->learners[learner];
	uint64_t now = odp_time_global_ns();
	int n = 0;

	for (uint32_t k = 0; k < sw->n_workers; k++) {
		for (uint32_t at = 0; at < info->size; at++) {
			struct p4odp_learnt *slot = slot_at(sw->per_worker[k].state, info, at);
			uint64_t expires = __atomic_load_n(&slot->expires_ns, __ATOMIC_ACQUIRE);

			if (expires <= now)
				continue;
			n++;
			if (fn)
				fn(arg, k, slot->key, entry_of(info, slot), slot->profile, expires - now);
		}
	}
	return n;
}

int p4odp_ctl_expire_time_set(struct p4odp_switch *sw, uint32_t profile, uint64_t ns)
{
	if (profile >= P4ODP_EXPIRE_PROFILES)
		return -EINVAL;
	__atomic_store_n(&sw->expire_ns[profile], ns, __ATOMIC_RELAXED);
	return 0;
}
