/*
 * The control-plane API of packet replication (p4odp_control.h): BMv2's
 * PRE (multicast groups of nodes, each a replication id and a set of
 * ports) and the clone sessions.  The workers read a group's copies and a
 * session's, each made anew and published whole on a change.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "switch.h"

static struct p4odp_mc_group *group_at(struct p4odp_switch *sw, uint32_t group)
{
	return group && group < P4ODP_MAX_MC_GROUPS && sw->pre->mc_groups[group].used ? &sw->pre->mc_groups[group]
										       : NULL;
}

static struct p4odp_mc_node *node_at(struct p4odp_switch *sw, uint32_t node)
{
	return node < P4ODP_MAX_MC_NODES && sw->pre->mc_nodes[node].used ? &sw->pre->mc_nodes[node] : NULL;
}

/* Publish group `group`'s copies as its nodes now are (in order, each node's ports ascending);
 * the old ones are freed once no worker holds them.  -ENOMEM: the workers still see the old ones. */
static int publish_group(struct p4odp_switch *sw, uint32_t group)
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
			return -ENOMEM;
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

int p4odp_ctl_mc_group_create(struct p4odp_switch *sw, uint32_t group)
{
	if (group == 0 || group >= P4ODP_MAX_MC_GROUPS)
		return -EINVAL;
	if (sw->pre->mc_groups[group].used)
		return -EEXIST;
	sw->pre->mc_groups[group].used = true;
	sw->pre->mc_groups[group].n_nodes = 0;
	return 0;
}

int p4odp_ctl_mc_group_destroy(struct p4odp_switch *sw, uint32_t group)
{
	struct p4odp_mc_group *g = group_at(sw, group);

	if (!g)
		return -ENOENT;
	g->used = false;
	publish_group(sw, group);	/* of no copy: nothing to allocate, so it cannot fail */
	for (uint32_t i = 0; i < g->n_nodes; i++)
		sw->pre->mc_nodes[g->nodes[i]].group = 0;
	g->n_nodes = 0;
	return 0;
}

int p4odp_ctl_mc_group_set(struct p4odp_switch *sw, uint32_t group, const uint32_t *nodes, uint32_t n)
{
	struct p4odp_mc_group *g = group_at(sw, group);

	if (!g)
		return -ENOENT;
	if (n > P4ODP_MAX_GROUP_NODES)
		return -ENOSPC;
	for (uint32_t i = 0; i < n; i++) {
		const struct p4odp_mc_node *node = node_at(sw, nodes[i]);
		if (!node)
			return -ENOENT;
		if (node->group && node->group != group)
			return -EBUSY;
		for (uint32_t j = 0; j < i; j++)
			if (nodes[j] == nodes[i])
				return -EINVAL;
	}
	struct p4odp_mc_group before = *g;
	memcpy(g->nodes, nodes, n * sizeof nodes[0]);
	g->n_nodes = n;
	if (publish_group(sw, group)) {
		*g = before;
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < before.n_nodes; i++)
		sw->pre->mc_nodes[before.nodes[i]].group = 0;
	for (uint32_t i = 0; i < n; i++)
		sw->pre->mc_nodes[nodes[i]].group = group;
	return 0;
}

const uint32_t *p4odp_ctl_mc_group(struct p4odp_switch *sw, uint32_t group, uint32_t *n_nodes)
{
	const struct p4odp_mc_group *g = group_at(sw, group);

	*n_nodes = g ? g->n_nodes : 0;
	return g ? g->nodes : NULL;
}

int p4odp_ctl_mc_node_create(struct p4odp_switch *sw, uint32_t node, uint32_t rid, const struct p4odp_port_set *ports,
			     uint32_t *created)
{
	uint32_t h = 0;

	if (rid > UINT16_MAX || (node != P4ODP_ID_ANY && node >= P4ODP_MAX_MC_NODES))
		return -EINVAL;
	if (node == P4ODP_ID_ANY)
		while (h < P4ODP_MAX_MC_NODES && sw->pre->mc_nodes[h].used)
			h++;
	else if (sw->pre->mc_nodes[h = node].used)
		return -EEXIST;
	if (h == P4ODP_MAX_MC_NODES)
		return -ENOSPC;
	struct p4odp_mc_node *n = &sw->pre->mc_nodes[h];
	*n = (struct p4odp_mc_node){ .used = true, .rid = rid };
	memcpy(n->ports, ports->ports, sizeof n->ports);
	*created = h;
	return 0;
}

int p4odp_ctl_mc_node_update(struct p4odp_switch *sw, uint32_t node, const struct p4odp_port_set *ports)
{
	struct p4odp_mc_node *n = node_at(sw, node);

	if (!n)
		return -ENOENT;
	struct p4odp_mc_node before = *n;
	memcpy(n->ports, ports->ports, sizeof n->ports);
	if (n->group && publish_group(sw, n->group)) {
		*n = before;
		return -ENOMEM;
	}
	return 0;
}

int p4odp_ctl_mc_node_destroy(struct p4odp_switch *sw, uint32_t node)
{
	struct p4odp_mc_node *n = node_at(sw, node);

	if (!n)
		return -ENOENT;
	if (n->group) {
		struct p4odp_mc_group *g = &sw->pre->mc_groups[n->group];
		uint32_t others[P4ODP_MAX_GROUP_NODES], k = 0;
		for (uint32_t i = 0; i < g->n_nodes; i++)
			if (g->nodes[i] != node)
				others[k++] = g->nodes[i];
		int err = p4odp_ctl_mc_group_set(sw, n->group, others, k);
		if (err)
			return err;
	}
	n->used = false;
	return 0;
}

int p4odp_ctl_mc_node(struct p4odp_switch *sw, uint32_t node, uint32_t *rid, struct p4odp_port_set *ports,
		      uint32_t *group)
{
	const struct p4odp_mc_node *n = node_at(sw, node);

	if (!n)
		return -ENOENT;
	*rid = n->rid;
	memcpy(ports->ports, n->ports, sizeof n->ports);
	*group = n->group;
	return 0;
}

void p4odp_replication_destroy(struct p4odp_switch *sw)
{
	for (uint32_t group = 0; group < P4ODP_MAX_MC_GROUPS; group++) {
		free(sw->pre->mc_groups[group].copies);
		sw->pre->mc_groups[group].copies = NULL;
	}
	for (uint32_t session = 0; session < P4ODP_MAX_MIRROR_SESSIONS; session++) {
		free(sw->pre->clone_sessions[session]);
		sw->pre->clone_sessions[session] = NULL;
	}
}

/* ---- Clone sessions ---- */

/* Session `session` becomes `now` (NULL: none), which the workers read from their next burst on;
 * the old one is freed once none holds it. */
static void publish_session(struct p4odp_switch *sw, uint32_t session, struct p4odp_clone_copies *now)
{
	struct p4odp_clone_copies *old = __atomic_exchange_n(&sw->pre->clone_sessions[session], now, __ATOMIC_ACQ_REL);
	if (old) {
		p4odp_rcu_synchronize(sw->rcu);
		free(old);
	}
}

int p4odp_ctl_clone_session_set(struct p4odp_switch *sw, uint32_t session, const struct p4odp_clone_session *s)
{
	if (session >= P4ODP_MAX_MIRROR_SESSIONS || s->group >= P4ODP_MAX_MC_GROUPS ||
	    s->n_replicas > P4ODP_MAX_CLONE_REPLICAS || (!s->group && !s->n_replicas) || (s->group && s->n_replicas))
		return -EINVAL;
	for (uint32_t i = 0; i < s->n_replicas; i++)
		if (s->replicas[i].port >= P4ODP_PORT_NUMBERS || s->replicas[i].rid > UINT16_MAX)
			return -EINVAL;
	struct p4odp_clone_copies *copies = malloc(sizeof *copies + s->n_replicas * sizeof copies->copy[0]);
	if (!copies)
		return -ENOMEM;
	*copies = (struct p4odp_clone_copies){ .group = s->group, .truncate = s->truncate,
					       .class_of_service = s->class_of_service, .n = s->n_replicas };
	if (s->n_replicas)
		memcpy(copies->copy, s->replicas, s->n_replicas * sizeof copies->copy[0]);
	publish_session(sw, session, copies);
	return 0;
}

int p4odp_ctl_clone_session_delete(struct p4odp_switch *sw, uint32_t session)
{
	if (session >= P4ODP_MAX_MIRROR_SESSIONS)
		return -EINVAL;
	if (!sw->pre->clone_sessions[session])
		return -ENOENT;
	publish_session(sw, session, NULL);
	return 0;
}

int p4odp_ctl_clone_session(struct p4odp_switch *sw, uint32_t session, struct p4odp_clone_session *s)
{
	if (session >= P4ODP_MAX_MIRROR_SESSIONS)
		return -EINVAL;
	const struct p4odp_clone_copies *copies = sw->pre->clone_sessions[session];
	if (!copies)
		return -ENOENT;
	*s = (struct p4odp_clone_session){ .group = copies->group, .truncate = copies->truncate,
					   .class_of_service = copies->class_of_service, .n_replicas = copies->n,
					   .replicas = copies->copy };
	return 0;
}
