/*
 * p4odp_control.h: the switch's control-plane API, typed.
 *
 * Every front door of the control plane is a client of these calls: the
 * simple_switch_CLI commands (cli.c, also what --commands runs), and the
 * program's const entries at start.  Objects are named by their index in
 * the program's metadata (struct p4odp_program: tables[], profiles[],
 * counters[], ...); keys, action data and register cells are bytes in
 * network order, each value in ceil(width / 8) bytes with its unused high
 * bits zero.
 *
 * Each call either succeeds whole or changes nothing, and returns 0 (or a
 * handle, a count) or a negative errno:
 *   -EINVAL   a malformed argument: an index or value out of range, bits
 *             past a field's width, an action that is not the table's
 *   -ENOENT   no such entry, member, group, node or session
 *   -EEXIST   there is one already (same key and priority, same group id)
 *   -ENOSPC   the table, profile or array is full
 *   -EBUSY    still used: a member or group that entries name, a node in another group
 *   -ENODATA  empty: a group named by an entry, a meter cell without rates
 *   -EPERM    the program forbids it (a const default action)
 *   -ENOMEM   out of memory
 * Changes are published while the workers forward: a packet sees each
 * object before or after a call, never half of it.
 *
 * One thread calls them (the switch's control thread): the API takes no lock.
 *
 * Priorities are P4Runtime's: the larger wins (simple_switch_CLI's, where
 * the smaller wins, are converted by its parser).  They count in tables
 * with a ternary, range or optional field; elsewhere they are 0.
 */
#ifndef P4ODP_CONTROL_H_
#define P4ODP_CONTROL_H_

#include <stdbool.h>
#include <stdint.h>

#include "p4odp_runtime.h"
#include "p4odp_table.h"

struct p4odp_switch;

/* Every 9-bit port number (v1model's egress_spec). */
#define P4ODP_PORT_NUMBERS 512
#define P4ODP_MAX_MC_GROUPS 4096
#define P4ODP_MAX_MC_NODES 4096
#define P4ODP_MAX_GROUP_NODES (P4ODP_MAX_MC_NODES / 16)
/* BMv2's mirror session ids: 0 .. 32767. */
#define P4ODP_MAX_MIRROR_SESSIONS 32768
/* An id for the API to choose: the lowest free. */
#define P4ODP_ID_ANY UINT32_MAX

/* ---- Table entries ---- */

/* What an entry runs: `action`, an action id of its table, with `data`, the
 * action's parameters in order (its own length: the sum of their byte
 * sizes; NULL for none).  In a table with an action profile `action` is
 * P4ODP_ACTION_MEMBER or P4ODP_ACTION_GROUP and `ref` the member's or the
 * group's id (a group named by an entry must not be empty). */
struct p4odp_action_call {
	uint32_t action;
	uint32_t ref;
	const uint8_t *data;
};

/* The bytes of the parameters of action `action_id`, and the action itself (NULL: no such action). */
const struct p4odp_action_info *p4odp_action_by_id(const struct p4odp_program *p, uint32_t action_id,
						  uint32_t *data_len);
/* Whether the table's entries have a priority (a ternary, range or optional key field). */
bool p4odp_table_has_priority(const struct p4odp_table_info *t);

/* A new entry of table `table`; its handle in *handle. */
int p4odp_ctl_entry_add(struct p4odp_switch *sw, uint32_t table, const struct p4odp_match *m,
			const struct p4odp_action_call *call, int64_t *handle);
/* Entry `handle` runs `call` from now on (its counters and meters kept). */
int p4odp_ctl_entry_modify(struct p4odp_switch *sw, uint32_t table, int64_t handle,
			   const struct p4odp_action_call *call);
int p4odp_ctl_entry_delete(struct p4odp_switch *sw, uint32_t table, int64_t handle);
/* The handle of the entry of match `m` (its priority counts where priorities do). */
int64_t p4odp_ctl_entry_find(struct p4odp_switch *sw, uint32_t table, const struct p4odp_match *m);
/* Every entry, the default one stays. */
int p4odp_ctl_table_clear(struct p4odp_switch *sw, uint32_t table);
/* The action the table runs on a miss; -EPERM when the program made it const. */
int p4odp_ctl_default_set(struct p4odp_switch *sw, uint32_t table, const struct p4odp_action_call *call);
/* Back to the program's default action. */
int p4odp_ctl_default_reset(struct p4odp_switch *sw, uint32_t table);

/* Reads: fn(arg, handle, match, entry) for each entry in handle order (the
 * match and entry valid during the call; an indirect entry's data the id of
 * the member or group it names, uint32_t, native order), stopping at a
 * nonzero return, which it returns; or for entry `handle` alone (-ENOENT). */
int p4odp_ctl_entries(struct p4odp_switch *sw, uint32_t table, p4odp_table_visit_fn fn, void *arg);
int p4odp_ctl_entry(struct p4odp_switch *sw, uint32_t table, int64_t handle, p4odp_table_visit_fn fn, void *arg);
uint32_t p4odp_ctl_entry_count(struct p4odp_switch *sw, uint32_t table);
/* The default entry, as the reads give entries: fn(arg, -1, NULL, entry). */
int p4odp_ctl_default(struct p4odp_switch *sw, uint32_t table, p4odp_table_visit_fn fn, void *arg);
/* Whether the default entry is the program's (not set since the start or the last reset). */
bool p4odp_ctl_default_is_programs(struct p4odp_switch *sw, uint32_t table);

/* ---- Idle timeouts: tables with support_timeout ----
 *
 * An entry with a TTL is idle once no packet has hit it for that long (nor
 * since it was added or last reported idle): the switch then reports it to
 * the control channel's clients that listen (idle_listen, scanning every
 * P4ODP_IDLE_SCAN_NS) and starts its timer again, as P4Runtime asks.  An
 * entry is added without a TTL.  -EINVAL for a table without idle timeouts. */

#define P4ODP_IDLE_SCAN_NS (100 * 1000 * 1000)

/* Entry `handle`'s TTL from now on, in nanoseconds (0: none). */
int p4odp_ctl_entry_set_ttl(struct p4odp_switch *sw, uint32_t table, int64_t handle, uint64_t ttl_ns);
/* Its TTL, and how long ago it was last hit (or added, or reported idle). */
int p4odp_ctl_entry_timer(struct p4odp_switch *sw, uint32_t table, int64_t handle, uint64_t *ttl_ns,
			  uint64_t *idle_ns);

/* ---- Entries the datapath adds (PNA's add-on-miss: p4odp_program.learners) ---- */

/* One learnt entry: the worker that keeps it, its key (the table's key_len
 * bytes), its action and data, its expire-time profile and the time left. */
typedef void (*p4odp_learnt_fn)(void *arg, uint32_t worker, const uint8_t *key, const struct p4odp_table_entry *entry,
				uint32_t profile, uint64_t left_ns);

/* Call `fn` (unless NULL) for each entry of learner `learner` that has not
 * expired, worker by worker; their number, or -EINVAL. */
int p4odp_ctl_learnt_entries(struct p4odp_switch *sw, uint32_t learner, p4odp_learnt_fn fn, void *arg);

/* Expire-time profile `profile`'s time from now on (p4c-dpdk's defaults: 10,
 * 30, 60, 120, 300, 43200, 120 and 120 s for profiles 0 to 7; the others none
 * until set); -EINVAL past P4ODP_EXPIRE_PROFILES. */
int p4odp_ctl_expire_time_set(struct p4odp_switch *sw, uint32_t profile, uint64_t ns);

/* ---- What a controller keeps with an entry ----
 *
 * P4Runtime's controller_metadata (a number, the cookie) and metadata (at most
 * P4ODP_NOTE_BYTES bytes): stored with the entry, read back with it and dropped
 * with it; the switch gives them no meaning.  An entry is added without. */

#define P4ODP_NOTE_BYTES 4096

/* Entry `handle`'s note from now on (cookie 0 and no bytes: none). */
int p4odp_ctl_entry_set_note(struct p4odp_switch *sw, uint32_t table, int64_t handle, uint64_t cookie,
			     const uint8_t *bytes, uint32_t len);
/* Its note (cookie 0 and len 0 when none; *bytes valid until the next change). */
int p4odp_ctl_entry_note(struct p4odp_switch *sw, uint32_t table, int64_t handle, uint64_t *cookie,
			 const uint8_t **bytes, uint32_t *len);

/* ---- Action profiles and selectors: members, and a selector's groups ----
 *
 * Members and groups are named by ids the caller chooses (P4Runtime's), or with P4ODP_ID_ANY
 * the lowest id free (BMv2's handles); a profile of size N holds N of each.  A table entry names
 * them by id too (struct p4odp_action_call), and reads give it back so. */

/* A new member running `call` (an action of the profile): its id in *member.  -EEXIST: the id
 * is taken. */
int p4odp_ctl_member_add(struct p4odp_switch *sw, uint32_t profile, uint32_t id, const struct p4odp_action_call *call,
			 uint32_t *member);
int p4odp_ctl_member_modify(struct p4odp_switch *sw, uint32_t profile, uint32_t member,
			    const struct p4odp_action_call *call);
/* -EBUSY while an entry or a group names it. */
int p4odp_ctl_member_delete(struct p4odp_switch *sw, uint32_t profile, uint32_t member);
/* Member `member`'s entry (action_id and data), or NULL. */
const struct p4odp_table_entry *p4odp_ctl_member(struct p4odp_switch *sw, uint32_t profile, uint32_t member);
/* fn(arg, id) for each member (or group), stopping at a nonzero return, which it returns. */
int p4odp_ctl_members(struct p4odp_switch *sw, uint32_t profile, int (*fn)(void *arg, uint32_t id), void *arg);
int p4odp_ctl_groups(struct p4odp_switch *sw, uint32_t profile, int (*fn)(void *arg, uint32_t id), void *arg);
/* A new empty group of a selector, of at most `max_size` members (0: the profile's size). */
int p4odp_ctl_group_add(struct p4odp_switch *sw, uint32_t profile, uint32_t id, uint32_t max_size, uint32_t *group);
/* -EBUSY while an entry names it. */
int p4odp_ctl_group_delete(struct p4odp_switch *sw, uint32_t profile, uint32_t group);
/* The group's members become the `n` of `members` (distinct), published at once; -ENOSPC for more
 * than its largest size. */
int p4odp_ctl_group_set(struct p4odp_switch *sw, uint32_t profile, uint32_t group, const uint32_t *members,
			uint32_t n);
/* The group's members' ids (room for the profile's size in `members`), how many, and its
 * largest size; -ENOENT. */
int p4odp_ctl_group(struct p4odp_switch *sw, uint32_t profile, uint32_t group, uint32_t *members, uint32_t *n,
		    uint32_t *max_size);
/* How many entries (and, for a member, groups) name the member or the group. */
uint32_t p4odp_ctl_member_users(struct p4odp_switch *sw, uint32_t profile, uint32_t member);
uint32_t p4odp_ctl_group_users(struct p4odp_switch *sw, uint32_t profile, uint32_t group);

/* ---- Packet replication: multicast groups and nodes, clone sessions ---- */

/* A set of port numbers: bit p of ports[p / 64] is port p. */
struct p4odp_port_set {
	uint64_t ports[P4ODP_PORT_NUMBERS / 64];
};

/* Groups are 1 .. P4ODP_MAX_MC_GROUPS - 1. */
int p4odp_ctl_mc_group_create(struct p4odp_switch *sw, uint32_t group);
/* Its nodes stay, in no group (as on BMv2). */
int p4odp_ctl_mc_group_destroy(struct p4odp_switch *sw, uint32_t group);
/* The group's nodes become the `n` of `nodes`, in that order, published at once: those it had
 * and are not listed leave it; a node in another group is -EBUSY. */
int p4odp_ctl_mc_group_set(struct p4odp_switch *sw, uint32_t group, const uint32_t *nodes, uint32_t n);
/* A group's nodes in order (n_nodes of them), or NULL when there is no such group. */
const uint32_t *p4odp_ctl_mc_group(struct p4odp_switch *sw, uint32_t group, uint32_t *n_nodes);
/* A new node `node` (P4ODP_ID_ANY: the lowest free): replication id `rid` (0 .. 65535) on `ports`;
 * its handle in *created. */
int p4odp_ctl_mc_node_create(struct p4odp_switch *sw, uint32_t node, uint32_t rid, const struct p4odp_port_set *ports,
			     uint32_t *created);
int p4odp_ctl_mc_node_update(struct p4odp_switch *sw, uint32_t node, const struct p4odp_port_set *ports);
/* Out of its group first. */
int p4odp_ctl_mc_node_destroy(struct p4odp_switch *sw, uint32_t node);
/* A node's replication id, ports and group (0: none); -ENOENT. */
int p4odp_ctl_mc_node(struct p4odp_switch *sw, uint32_t node, uint32_t *rid, struct p4odp_port_set *ports,
		      uint32_t *group);

/* A copy of a packet: to a port, with a replication id (v1model's egress_rid; P4Runtime's instance). */
struct p4odp_replica {
	uint32_t port;
	uint32_t rid;
};

#define P4ODP_MAX_CLONE_REPLICAS 512

/* A clone (mirror) session: its copies go to every replica of multicast group `group` (not 0:
 * BMv2's mirroring_add_mc), or to its own `n_replicas` `replicas` (P4Runtime's
 * CloneSessionEntry; BMv2's mirroring_add is one replica of id 0), each cut to `truncate`
 * bytes (0: whole); its class of service is kept, for reads.  Sessions are
 * 0 .. P4ODP_MAX_MIRROR_SESSIONS - 1. */
struct p4odp_clone_session {
	uint32_t group;
	uint32_t truncate;
	uint32_t class_of_service;
	uint32_t n_replicas;
	const struct p4odp_replica *replicas;
};

int p4odp_ctl_clone_session_set(struct p4odp_switch *sw, uint32_t session, const struct p4odp_clone_session *s);
int p4odp_ctl_clone_session_delete(struct p4odp_switch *sw, uint32_t session);
/* The session (its replicas pointing into the switch's, valid until the next change); -ENOENT. */
int p4odp_ctl_clone_session(struct p4odp_switch *sw, uint32_t session, struct p4odp_clone_session *s);

/* ---- Counters, meters, registers, value sets, custom CRCs ---- */

/* A direct counter's or meter's `index` is an entry handle of its table (-ENOENT when there is
 * no such entry); an indirect one's a cell, below its size. */
int p4odp_ctl_counter_read(struct p4odp_switch *sw, uint32_t counter, uint64_t index, uint64_t *packets,
			   uint64_t *bytes);
/* The totals the cell reads as from now on. */
int p4odp_ctl_counter_write(struct p4odp_switch *sw, uint32_t counter, uint64_t index, uint64_t packets,
			    uint64_t bytes);
/* Every cell back to 0. */
int p4odp_ctl_counter_reset(struct p4odp_switch *sw, uint32_t counter);

/* A meter's two rates: committed (yellow above it) and peak (red above), each in units (packets
 * or bytes) per microsecond with a burst of units; committed.rate <= peak.rate. */
struct p4odp_meter_rates {
	double committed_rate, peak_rate;
	uint64_t committed_burst, peak_burst;
};

/* `rates` NULL: no rates (every packet green).  p4odp_ctl_meter_set_all sets every cell. */
int p4odp_ctl_meter_set(struct p4odp_switch *sw, uint32_t meter, uint64_t index, const struct p4odp_meter_rates *rates);
int p4odp_ctl_meter_set_all(struct p4odp_switch *sw, uint32_t meter, const struct p4odp_meter_rates *rates);
/* The cell's rates; -ENODATA when it has none. */
int p4odp_ctl_meter(struct p4odp_switch *sw, uint32_t meter, uint64_t index, struct p4odp_meter_rates *rates);

/* A register cell as ceil(width / 8) bytes (an int<W> cell's in two's complement; a struct cell's
 * fields one after another, each so: struct p4odp_register_info). */
int p4odp_ctl_register_read(struct p4odp_switch *sw, uint32_t reg, uint32_t index, uint8_t *value);
int p4odp_ctl_register_write(struct p4odp_switch *sw, uint32_t reg, uint32_t index, const uint8_t *value);
/* Every cell back to 0. */
int p4odp_ctl_register_reset(struct p4odp_switch *sw, uint32_t reg);

/* A value set's values (ceil(width / 8) bytes each): adding one it holds changes nothing. */
int p4odp_ctl_value_set_add(struct p4odp_switch *sw, uint32_t set, const uint8_t *value);
int p4odp_ctl_value_set_remove(struct p4odp_switch *sw, uint32_t set, const uint8_t *value);
int p4odp_ctl_value_set_clear(struct p4odp_switch *sw, uint32_t set);
/* fn(arg, value) for each value it holds, stopping at a nonzero return, which it returns. */
int p4odp_ctl_value_set_values(struct p4odp_switch *sw, uint32_t set, int (*fn)(void *arg, const uint8_t *value),
			       void *arg);

/* The parameters of custom CRC calculation `calc` (p4odp_program.crcs). */
int p4odp_ctl_crc_set(struct p4odp_switch *sw, uint32_t calc, const struct p4odp_crc_params *params);

/* ---- The CPU port ---- */

/* A packet (`len` bytes) into the program as received on the CPU port (worker 0 runs it between
 * two bursts): -ENODEV without a CPU port (--cpu-port), -EINVAL for an empty packet or one longer
 * than the pool's buffers, -ENOBUFS with no buffer left, -EAGAIN while worker 0 has not taken the
 * packets sent in before. */
int p4odp_ctl_packet_out(struct p4odp_switch *sw, const uint8_t *bytes, uint32_t len);

#endif /* P4ODP_CONTROL_H_ */
