/*
 * The simple_switch_CLI commands of packet replication (cli.h): BMv2's PRE
 * (multicast groups and nodes) and mirroring sessions.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>

#include "cli.h"

static int parse_group(struct p4odp_switch *sw, struct command *c, const char *text, uint32_t *group)
{
	uint32_t n;
	if (cli_parse_uint(c, text, group))
		return -1;
	if (!p4odp_ctl_mc_group(sw, *group, &n))
		return cli_fail(c, "no multicast group %s", text);
	return 0;
}

static int parse_node(struct p4odp_switch *sw, struct command *c, const char *text, uint32_t *node)
{
	uint32_t rid, group;
	struct p4odp_port_set ports;
	if (cli_parse_uint(c, text, node))
		return -1;
	if (p4odp_ctl_mc_node(sw, *node, &rid, &ports, &group))
		return cli_fail(c, "no multicast node %s", text);
	return 0;
}

/* The group node `node` is associated with (0: none). */
static uint32_t group_of(struct p4odp_switch *sw, uint32_t node)
{
	uint32_t rid, group = 0;
	struct p4odp_port_set ports;
	p4odp_ctl_mc_node(sw, node, &rid, &ports, &group);
	return group;
}

/* A node's ports from the command's words from `first` on: a set, as BMv2's (its copies go out
 * in ascending port order, each port once, whatever order the command gives them in). */
static int parse_node_ports(struct command *c, int first, struct p4odp_port_set *set)
{
	memset(set, 0, sizeof *set);
	for (int i = first; i < c->n; i++) {
		uint32_t port;
		if (cli_parse_uint(c, c->tokens[i], &port))
			return -1;
		if (port >= P4ODP_PORT_NUMBERS)
			return cli_fail(c, "port %u is out of range 0..%d", port, P4ODP_PORT_NUMBERS - 1);
		set->ports[port / 64] |= UINT64_C(1) << port % 64;
	}
	return 0;
}

static int cmd_mc_mgrp_create(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group;
	if (c->n != 2)
		return cli_fail(c, "usage: mc_mgrp_create GROUP");
	if (cli_parse_uint(c, c->tokens[1], &group))
		return -1;
	int err = p4odp_ctl_mc_group_create(sw, group);
	if (err == -EINVAL)
		return cli_fail(c, "multicast group %u is out of range 1..%d", group, P4ODP_MAX_MC_GROUPS - 1);
	return err == -EEXIST ? cli_fail(c, "multicast group %u exists", group) : cli_result(c, err);
}

/* mc_mgrp_destroy GROUP: its nodes stay, associated with none (as BMv2). */
static int cmd_mc_mgrp_destroy(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group;
	if (c->n != 2)
		return cli_fail(c, "usage: mc_mgrp_destroy GROUP");
	if (parse_group(sw, c, c->tokens[1], &group))
		return -1;
	return cli_result(c, p4odp_ctl_mc_group_destroy(sw, group));
}

static int cmd_mc_node_create(struct p4odp_switch *sw, struct command *c)
{
	uint32_t rid, node;
	struct p4odp_port_set ports;
	if (c->n < 2)
		return cli_fail(c, "usage: mc_node_create RID PORT...");
	if (cli_parse_uint(c, c->tokens[1], &rid) || parse_node_ports(c, 2, &ports))
		return -1;
	int err = p4odp_ctl_mc_node_create(sw, P4ODP_ID_ANY, rid, &ports, &node);
	if (err == -EINVAL)
		return cli_fail(c, "replication id %u is out of range 0..%u", rid, UINT16_MAX);
	if (err == -ENOSPC)
		return cli_fail(c, "no room for another multicast node");
	if (err)
		return cli_result(c, err);
	fprintf(c->out, "Node was created with handle %u\n", node);
	return 0;
}

/* mc_node_update NODE PORT...: its ports replaced. */
static int cmd_mc_node_update(struct p4odp_switch *sw, struct command *c)
{
	uint32_t node;
	struct p4odp_port_set ports;
	if (c->n < 2)
		return cli_fail(c, "usage: mc_node_update NODE PORT...");
	if (parse_node(sw, c, c->tokens[1], &node) || parse_node_ports(c, 2, &ports))
		return -1;
	return cli_result(c, p4odp_ctl_mc_node_update(sw, node, &ports));
}

/* The group's nodes become `nodes`; what the API refused, said. */
static int set_group(struct p4odp_switch *sw, struct command *c, uint32_t group, const uint32_t *nodes, uint32_t n)
{
	int err = p4odp_ctl_mc_group_set(sw, group, nodes, n);
	if (err == -ENOSPC)
		return cli_fail(c, "multicast group %u is full: %d nodes at most", group, P4ODP_MAX_GROUP_NODES);
	return cli_result(c, err);
}

static int cmd_mc_node_associate(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group, node, n;
	if (c->n != 3)
		return cli_fail(c, "usage: mc_node_associate GROUP NODE");
	if (parse_group(sw, c, c->tokens[1], &group) || parse_node(sw, c, c->tokens[2], &node))
		return -1;
	if (group_of(sw, node))
		return cli_fail(c, "multicast node %u is associated with group %u", node, group_of(sw, node));
	const uint32_t *old = p4odp_ctl_mc_group(sw, group, &n);
	uint32_t nodes[n + 1];
	memcpy(nodes, old, n * sizeof nodes[0]);
	nodes[n] = node;
	return set_group(sw, c, group, nodes, n + 1);
}

/* mc_mgrp_set GROUP [NODE...]: the group's nodes become these, in this order, published at once
 * (p4odp's: how P4Runtime changes a group); those it had and are not listed are dissociated. */
static int cmd_mc_mgrp_set(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group, nodes[MAX_TOKENS];
	if (c->n < 2)
		return cli_fail(c, "usage: mc_mgrp_set GROUP [NODE...]");
	if (parse_group(sw, c, c->tokens[1], &group))
		return -1;
	_Static_assert(2 + P4ODP_MAX_GROUP_NODES <= MAX_TOKENS, "a full group's mc_mgrp_set fits a line");
	uint32_t n = (uint32_t)c->n - 2;
	for (uint32_t i = 0; i < n; i++) {
		if (parse_node(sw, c, c->tokens[i + 2], &nodes[i]))
			return -1;
		uint32_t other = group_of(sw, nodes[i]);
		if (other && other != group)
			return cli_fail(c, "multicast node %u is associated with group %u", nodes[i], other);
		for (uint32_t j = 0; j < i; j++)
			if (nodes[j] == nodes[i])
				return cli_fail(c, "multicast node %u is given twice", nodes[i]);
	}
	return set_group(sw, c, group, nodes, n);
}

static int cmd_mc_node_dissociate(struct p4odp_switch *sw, struct command *c)
{
	uint32_t group, node, n, k = 0;
	if (c->n != 3)
		return cli_fail(c, "usage: mc_node_dissociate GROUP NODE");
	if (parse_group(sw, c, c->tokens[1], &group) || parse_node(sw, c, c->tokens[2], &node))
		return -1;
	if (group_of(sw, node) != group)
		return cli_fail(c, "multicast node %u is not associated with group %u", node, group);
	const uint32_t *old = p4odp_ctl_mc_group(sw, group, &n);
	uint32_t nodes[n];
	for (uint32_t i = 0; i < n; i++)
		if (old[i] != node)
			nodes[k++] = old[i];
	return set_group(sw, c, group, nodes, k);
}

/* mc_node_destroy NODE: out of its group first. */
static int cmd_mc_node_destroy(struct p4odp_switch *sw, struct command *c)
{
	uint32_t node;
	if (c->n != 2)
		return cli_fail(c, "usage: mc_node_destroy NODE");
	if (parse_node(sw, c, c->tokens[1], &node))
		return -1;
	return cli_result(c, p4odp_ctl_mc_node_destroy(sw, node));
}

/* mc_dump: the groups, each node with its replication id and ports, as simple_switch_CLI prints
 * them (no LAGs: simple_switch's are never set here). */
static int cmd_mc_dump(struct p4odp_switch *sw, struct command *c)
{
	if (c->n != 1)
		return cli_fail(c, "usage: mc_dump");
	fprintf(c->out, "==========\nMC ENTRIES\n");
	for (uint32_t group = 1; group < P4ODP_MAX_MC_GROUPS; group++) {
		uint32_t n;
		const uint32_t *nodes = p4odp_ctl_mc_group(sw, group, &n);
		if (!nodes)
			continue;
		fprintf(c->out, "**********\nmgrp(%u)\n", group);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t rid, in_group;
			struct p4odp_port_set set;
			const char *sep = "";
			p4odp_ctl_mc_node(sw, nodes[i], &rid, &set, &in_group);
			fprintf(c->out, "  -> (L1h=%u, rid=%u) -> (ports=[", nodes[i], rid);
			for (uint32_t port = 0; port < P4ODP_PORT_NUMBERS; port++)
				if (set.ports[port / 64] >> port % 64 & 1) {
					fprintf(c->out, "%s%u", sep, port);
					sep = ", ";
				}
			fprintf(c->out, "], lags=[])\n");
		}
	}
	fprintf(c->out, "==========\nLAGS\n==========\n");
	return 0;
}

/* The mirror session of mirroring_* command `c`, whose usage is `usage`. */
static int parse_session(struct command *c, int n_args, const char *usage, uint32_t *session)
{
	if (c->n != n_args + 1)
		return cli_fail(c, "usage: %s", usage);
	if (cli_parse_uint(c, c->tokens[1], session))
		return -1;
	if (*session >= P4ODP_MAX_MIRROR_SESSIONS)
		return cli_fail(c, "mirror session %u is out of range 0..%d", *session, P4ODP_MAX_MIRROR_SESSIONS - 1);
	return 0;
}

/* mirroring_add SESSION PORT / mirroring_add_mc SESSION GROUP */
static int cmd_mirroring_add(struct p4odp_switch *sw, struct command *c)
{
	bool to_group = c->form;
	uint32_t session, target;
	if (parse_session(c, 2, to_group ? "mirroring_add_mc SESSION GROUP" : "mirroring_add SESSION PORT", &session) ||
	    cli_parse_uint(c, c->tokens[2], &target))
		return -1;
	struct p4odp_replica replica = { .port = target };
	struct p4odp_clone_session s = { .group = to_group ? target : 0, .n_replicas = !to_group, .replicas = &replica };
	if (to_group && target == 0)
		return cli_fail(c, "multicast group %u is out of range 1..%d", target, P4ODP_MAX_MC_GROUPS - 1);
	if (p4odp_ctl_clone_session_set(sw, session, &s))
		return to_group ? cli_fail(c, "multicast group %u is out of range 1..%d", target, P4ODP_MAX_MC_GROUPS - 1)
				: cli_fail(c, "port %u is out of range 0..%d", target, P4ODP_PORT_NUMBERS - 1);
	return 0;
}

static int cmd_mirroring_delete(struct p4odp_switch *sw, struct command *c)
{
	uint32_t session;
	if (parse_session(c, 1, "mirroring_delete SESSION", &session))
		return -1;
	return p4odp_ctl_clone_session_delete(sw, session) ? cli_fail(c, "no mirror session %u", session) : 0;
}

/* As simple_switch_CLI prints the session's Thrift struct (a session of several replicas, which
 * P4Runtime makes, shows its first port). */
static int cmd_mirroring_get(struct p4odp_switch *sw, struct command *c)
{
	uint32_t session;
	struct p4odp_clone_session s;
	if (parse_session(c, 1, "mirroring_get SESSION", &session))
		return -1;
	if (p4odp_ctl_clone_session(sw, session, &s))
		return cli_fail(c, "no mirror session %u", session);
	if (s.group)
		fprintf(c->out, "MirroringSessionConfig(port=None, mgid=%u)\n", s.group);
	else
		fprintf(c->out, "MirroringSessionConfig(port=%u, mgid=None)\n", s.replicas[0].port);
	return 0;
}

const struct cli_command p4odp_cli_replication_commands[] = {
	{ "mc_mgrp_create", cmd_mc_mgrp_create, 0 },
	{ "mc_mgrp_destroy", cmd_mc_mgrp_destroy, 0 },
	{ "mc_mgrp_set", cmd_mc_mgrp_set, 0 },
	{ "mc_node_create", cmd_mc_node_create, 0 },
	{ "mc_node_update", cmd_mc_node_update, 0 },
	{ "mc_node_associate", cmd_mc_node_associate, 0 },
	{ "mc_node_dissociate", cmd_mc_node_dissociate, 0 },
	{ "mc_node_destroy", cmd_mc_node_destroy, 0 },
	{ "mc_dump", cmd_mc_dump, 0 },
	{ "mirroring_add", cmd_mirroring_add, false },
	{ "mirroring_add_mc", cmd_mirroring_add, true },
	{ "mirroring_delete", cmd_mirroring_delete, 0 },
	{ "mirroring_get", cmd_mirroring_get, 0 },
	{ NULL, NULL, 0 },
};
