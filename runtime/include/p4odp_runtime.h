/*
 * The contract between a generated datapath and the p4odp runtime.
 *
 * The generated code (datapath.c) defines `p4odp_program`: its tables and
 * actions as control-plane metadata, and `run`, the whole v1model pipeline
 * for one packet.  The runtime owns everything else: ODP initialisation,
 * ports, workers, tables, multicast groups and the control plane.  It
 * reaches packets, pools, packet I/O, time and threads only through the
 * ODP API.
 */
#ifndef P4ODP_RUNTIME_H_
#define P4ODP_RUNTIME_H_

#include <odp_api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "p4odp_bits.h"
#include "p4odp_table.h"

/* Room for the headers a deparser emits, in bits. */
#define P4ODP_MAX_HEADER_BITS (2048 * 8)
#define P4ODP_MAX_PORTS 64
#define P4ODP_DROP_PORT 511
/* standard_metadata.instance_type as BMv2 simple_switch sets it (BMV2_V1MODEL_INSTANCE_TYPE_*). */
#define P4ODP_INSTANCE_NORMAL 0
#define P4ODP_INSTANCE_REPLICATION 5

struct p4odp_switch;
struct p4odp_worker;

/* v1model's HashAlgorithm, in its declaration order. */
enum p4odp_hash_algorithm {
	P4ODP_HASH_CRC32,
	P4ODP_HASH_CRC32_CUSTOM,
	P4ODP_HASH_CRC16,
	P4ODP_HASH_CRC16_CUSTOM,
	P4ODP_HASH_RANDOM,
	P4ODP_HASH_IDENTITY,
	P4ODP_HASH_CSUM16,
	P4ODP_HASH_XOR16,
};

/* One packet going through the pipeline. */
struct p4odp_pctx {
	struct p4odp_switch *sw;
	void *state;		/* the program's extern state (registers, counters) */
	struct p4odp_worker *worker;
	odp_packet_t pkt;
	uint8_t *data;		/* the packet's bytes as received */
	uint32_t len;		/* bytes */
	uint32_t cursor;	/* parser position, in bits */
	uint32_t error;		/* the parser's error code */
	uint32_t in_port;
	uint8_t checksum_error;	/* set by verify_checksum */
	uint8_t exited;		/* an `exit` statement ran */
	uint8_t *out;		/* where the deparser writes headers */
	uint32_t out_bits;
};

struct p4odp_key_field_info {
	const char *name;
	uint32_t width;
	enum p4odp_match_kind match_kind;
};

struct p4odp_param_info {
	const char *name;
	uint32_t width;
};

struct p4odp_action_info {
	uint32_t id;
	const char *name;
	uint32_t n_params;
	const struct p4odp_param_info *params;
};

struct p4odp_table_info {
	const char *name;
	uint32_t n_keys;
	const struct p4odp_key_field_info *keys;
	uint32_t n_actions;
	const uint32_t *action_ids;
	uint32_t size;
	uint32_t action_data_len;
	uint32_t default_action;
	const uint8_t *default_data;
	uint32_t default_data_len;
	bool default_const;
	uint32_t n_entries;
	const char *const *entries;	/* const entries, as `table_add` arguments */
	uint8_t structure;		/* enum p4odp_table_kind, as the compiler chose it */
};

struct p4odp_program {
	const char *name;
	uint32_t n_tables;
	const struct p4odp_table_info *tables;
	uint32_t n_actions;
	const struct p4odp_action_info *actions;
	uint32_t n_errors;
	const char *const *errors;
	size_t state_size;	/* bytes of extern state the runtime allocates, zeroed */
	void (*run)(struct p4odp_pctx *pc);
};

extern const struct p4odp_program p4odp_program;

/* Look a key up in table `index`; `*hit` tells whether an entry matched.
 * Never NULL: a miss returns the table's default entry. */
const struct p4odp_table_entry *p4odp_table_apply(struct p4odp_switch *sw, uint32_t index, const uint8_t *key,
						 bool *hit);

/* Send the packet of `pc` to `port` with its first `pc->cursor / 8` bytes
 * (what the parser consumed) replaced by `hdr_len` bytes at `hdrs`.  With
 * The packet sent is a new one: the original stays for the other copies. */
void p4odp_send(struct p4odp_pctx *pc, uint32_t port, const uint8_t *hdrs, uint32_t hdr_len);

/* v1model's hash() and random(). */
uint64_t p4odp_hash(enum p4odp_hash_algorithm algo, const uint8_t *buf, uint32_t len);
uint64_t p4odp_random(uint64_t lo, uint64_t hi);

/* The replicas of multicast group `group`: fills ports[] and rids[] (at most
 * `max`), returns how many there are. */
uint32_t p4odp_multicast_group(struct p4odp_switch *sw, uint32_t group, uint32_t *ports, uint32_t *rids,
			       uint32_t max);

#endif /* P4ODP_RUNTIME_H_ */
