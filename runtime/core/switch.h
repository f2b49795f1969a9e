/*
 * The runtime's own state: ports, tables, multicast groups, workers.
 * Internal to runtime/core; the generated code sees only p4odp_runtime.h.
 */
#ifndef P4ODP_SWITCH_H_
#define P4ODP_SWITCH_H_

#include <stdio.h>

#include "p4odp_runtime.h"
#include "p4odp_table.h"

#define P4ODP_BURST 32
#define P4ODP_MAX_MC_GROUPS 4096
#define P4ODP_MAX_MC_NODES 4096
#define P4ODP_MAX_NODE_PORTS P4ODP_MAX_PORTS

struct p4odp_port {
	bool open;
	char name[256];
	odp_pktio_t pktio;
	odp_pktin_queue_t in;
	odp_pktout_queue_t out;
	uint64_t rx, tx, tx_errors;
};

struct p4odp_mc_node {
	bool used;
	uint32_t rid;
	uint32_t n_ports;
	uint32_t ports[P4ODP_MAX_NODE_PORTS];
};

struct p4odp_mc_group {
	bool used;
	uint32_t n_nodes;
	uint32_t nodes[P4ODP_MAX_MC_NODES / 16];
};

/* One table of the program: its metadata and its lookup structure. */
struct p4odp_runtime_table {
	const struct p4odp_table_info *info;
	struct p4odp_table *table;
};

struct p4odp_switch {
	const struct p4odp_program *program;
	odp_instance_t instance;
	odp_pool_t pool;
	struct p4odp_port ports[P4ODP_MAX_PORTS];
	struct p4odp_runtime_table *tables;
	void *state;		/* the program's extern state */
	struct p4odp_mc_node mc_nodes[P4ODP_MAX_MC_NODES];
	struct p4odp_mc_group mc_groups[P4ODP_MAX_MC_GROUPS];
	uint64_t dropped;
	volatile int stop;
};

/* Tables (tables.c). */
int p4odp_tables_init(struct p4odp_switch *sw);
void p4odp_tables_destroy(struct p4odp_switch *sw);

/* The control plane (control.c): run one simple_switch_CLI command.
 * Returns 0, or -1 after writing a message to `err` (nothing was changed). */
int p4odp_control_command(struct p4odp_switch *sw, const char *line, FILE *out, char *err, size_t err_len);
/* Run a commands file; stops at the first bad line, naming it. */
int p4odp_control_file(struct p4odp_switch *sw, const char *path, FILE *out);

#endif /* P4ODP_SWITCH_H_ */
