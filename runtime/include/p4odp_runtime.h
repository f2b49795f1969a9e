/*
 * The contract between a generated datapath and the p4odp runtime.
 *
 * The generated code (datapath.c) defines `p4odp_program`: its tables and
 * actions as control-plane metadata, and the blocks of its architecture's
 * pipeline as two calls.  The runtime owns everything else: ODP
 * initialisation, ports, workers, tables, multicast groups, the control plane
 * and the traffic manager between the two calls.  It reaches packets, pools,
 * packet I/O, time and threads only through the ODP API.
 *
 * One received packet, and who owns it at each step:
 *
 *   1. The worker receives a burst; it owns each packet (odp_packet_t).
 *   2. `ingress(pc, packet, NULL)` (parser, checksum verification, ingress) reads
 *      pc->data and fills `packet`, the program's per-packet state (headers and
 *      metadata: a struct p4odp_packet_state), and pc->tm, what it asks of the
 *      traffic manager.  It never keeps nor frees the packet.
 *   3. The traffic manager (traffic_manager.c) turns pc->tm into copies: one to
 *      a port, one per replica of a multicast group, or none (a drop, counted by
 *      reason); first the clones of a mirror session, or instead a resubmit
 *      (another pass through ingress, queued on the worker), as the
 *      architecture's pipeline asks (struct p4odp_tm_request).
 *   4. `egress(pc, packet, copy)` (egress, checksum update, deparser) runs once
 *      per copy, on state it may change and a packet it may rewrite: for the
 *      only copy, `packet` itself and the received packet; for each replica,
 *      copies of both the traffic manager makes.  pc->pkt and pc->data are
 *      that packet (pc->in_place: it has not left yet).  Egress ends in
 *      `p4_send` (the target's packet-I/O template, p4odp_send by default), or
 *      returns false: dropped.
 *   5. p4odp_send makes the outgoing packet from the deparsed headers and the
 *      payload the parser did not consume, in pc->pkt itself: its head moved
 *      by the difference between the header bytes emitted and parsed, the
 *      headers written, the payload not copied (a deparser that rewrote the
 *      headers in place passes pc->data itself: nothing is moved or copied);
 *      the worker no longer owns it (p4odp_recirculate takes it the same way
 *      for another pass through ingress).  A packet without the headroom leaves
 *      as a new packet.  Either is queued on the worker's batch for that
 *      port, which owns it until odp_pktout_send takes it or it is freed and
 *      counted.  The worker flushes every batch at the end of each burst,
 *      then frees, all at once, the received packets that did not leave.
 *
 * The program defines `struct p4odp_packet_state`, and the traffic manager,
 * compiled in one unit with it (backend/build.py), keeps each packet's state
 * in a local of that type: as long as no call takes its address, the
 * compiler holds its fields in registers (so the program zeroes its parts by
 * assignment, never with memset).
 *
 * Nothing on this path is global: a packet's state is in `pc`, a worker's in
 * `pc->worker` (and the program's counter cells in `pc->worker_state`, summed
 * over workers when read); tables and the other extern state (registers) are
 * shared by every worker.
 */
#ifndef P4ODP_RUNTIME_H_
#define P4ODP_RUNTIME_H_

#include <odp_api.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "p4odp_bits.h"
#include "p4odp_table.h"

/* Room for the headers a deparser emits, in bits. */
#define P4ODP_MAX_HEADER_BITS (2048 * 8)
#define P4ODP_MAX_PORTS 64
#define P4ODP_BURST 32		/* the most packets a worker receives and runs at once */
_Static_assert(P4ODP_BURST <= P4ODP_TABLE_BURST, "a burst's lookups run as one burst of the table library's");
/* The passes through the pipeline a received packet may cause after its own
 * (resubmits, recirculations, clones at egress); the switch drops the rest,
 * so that a program cannot keep a worker busy with one packet forever. */
#define P4ODP_MAX_PASSES 16
#define P4ODP_STRINGIFY_(x) #x
#define P4ODP_STRINGIFY(x) P4ODP_STRINGIFY_(x)
/* The clones one pass may ask for at once (struct p4odp_tm_request): PNA's mirror slots. */
#define P4ODP_CLONE_SLOTS 4	/* after_ingress (traffic_manager.c) tests the four at once */
/* Sums of packet bytes that one packet's checksums share (struct p4odp_pctx). */
#define P4ODP_CSUM_RUNS 4

/* Why the switch dropped a packet or one copy of it: X(NAME, description).
 * Each worker counts them; the switch prints the totals at exit. */
#define P4ODP_DROP_REASONS(X)                                                        \
	X(PROGRAM, "dropped by the program")                                        \
	X(EMPTY_GROUP, "sent to a multicast group without replicas")               \
	X(NO_PORT, "sent to a port without an interface")                          \
	X(HEADERS_TOO_LONG, "deparsed headers longer than P4ODP_MAX_HEADER_BITS")  \
	X(SEGMENTED, "received in segments, which the datapath cannot read")       \
	X(NO_BUFFER, "no packet buffer left to send a copy")                       \
	X(TX_FULL, "the port's transmit queue was full")                           \
	X(TRUNCATED, "truncated to 0 bytes by the program")                        \
	X(TOO_MANY_PASSES, "resubmitted, recirculated or cloned at egress more than " \
			   P4ODP_STRINGIFY(P4ODP_MAX_PASSES) " times")                 \
	X(CPU_NO_LISTENER, "sent to the CPU port with no controller listening")    \
	X(CPU_FULL, "sent to the CPU port faster than the control channel took it")

enum p4odp_drop_reason {
#define P4ODP_DROP_ENUM(name, text) P4ODP_DROP_##name,
	P4ODP_DROP_REASONS(P4ODP_DROP_ENUM)
#undef P4ODP_DROP_ENUM
	P4ODP_DROP_COUNT
};

struct p4odp_switch;
struct p4odp_worker;
struct p4odp_packet_state;	/* the program's (see the top of this file) */

/* The runtime's hash algorithms; each architecture names its own enum's members
 * by them (Architecture.hash_algorithms). */
enum p4odp_hash_algorithm {
	P4ODP_HASH_CRC32,
	P4ODP_HASH_CRC32_CUSTOM,
	P4ODP_HASH_CRC16,
	P4ODP_HASH_CRC16_CUSTOM,
	P4ODP_HASH_RANDOM,
	P4ODP_HASH_IDENTITY,
	P4ODP_HASH_CSUM16,
	P4ODP_HASH_XOR16,
	P4ODP_HASH_TOEPLITZ,	/* 32 bits, with the RSS key of Microsoft's specification (DPDK's default) */
};

/* The parameters of a custom CRC (crc16_custom, crc32_custom), as BMv2's
 * set_crc16_parameters and set_crc32_parameters give them; until then
 * those of crc16 and crc32. */
struct p4odp_crc_params {
	uint32_t polynomial;
	uint32_t initial_remainder;
	uint32_t final_xor_value;
	bool data_reflected;
	bool remainder_reflected;
};

/* A calculation of the program by a custom CRC (a hash() call or a
 * checksum), named as p4c names it for BMv2 ("calc", "calc_0", ...). */
struct p4odp_crc_info {
	const char *name;
	uint32_t width;	/* 16 or 32 */
};

/* A digest (v1model's digest<T>): its messages are T's fields in order
 * (nested structs flattened), each big-endian in whole bytes.  A field of an
 * error or of an enum without a representation holds its member's number,
 * and `names` names the members by number. */
struct p4odp_digest_field {
	uint32_t width;			/* bits */
	uint32_t n_names;
	const char *const *names;	/* NULL: the field is a number */
};

struct p4odp_digest_info {
	const char *name;		/* as P4Info names it */
	uint32_t size;			/* bytes of a message, at most P4ODP_DIGEST_BYTES */
	uint32_t n_fields;
	const struct p4odp_digest_field *fields;
};

#define P4ODP_DIGEST_BYTES 256

/* What ingress or egress asks of the traffic manager for its packet, in the
 * terms of no architecture: each architecture's pipeline (templates/ARCH/)
 * fills it from its calls and metadata (v1model's mark_to_drop and clone
 * calls, PSA's output metadata, PNA's send_to_port and mirror_packet).  After
 * ingress the traffic manager makes, in this order: the clones of the mirror
 * session; then a resubmit, or the replicas of a multicast group, or a drop,
 * or the one copy to `port`.  After an egress: its clones, then a
 * recirculation (the egress function sends or drops the copy itself).
 * clone_sessions[k] is 1 + the mirror session of slot k (0: no clone): PNA's
 * mirror slots, each a clone of its own; v1model and PSA use slot 0, and an
 * egress slot 0 only.  resubmit and
 * recirculate are 1 + the field list to preserve (0: not asked); a field list
 * is a number the program gives each list of fields a copy keeps (0: none),
 * see p4odp_program.clone. */
struct p4odp_tm_request {
	uint32_t mcast_group;	/* not 0: one copy per replica of this group */
	uint32_t port;		/* otherwise: one copy to this port, */
	bool drop;		/* unless the program dropped the packet */
	uint32_t clone_sessions[P4ODP_CLONE_SLOTS];
	uint16_t clone_fields;
	uint16_t resubmit;	/* ingress only */
	uint16_t recirculate;	/* at the end of egress (ingress's: the packet's own copy's) */
};

/* Which copy of a packet an egress runs on. */
enum p4odp_copy_kind {
	P4ODP_COPY_NORMAL,		/* the packet itself, to the port ingress chose */
	P4ODP_COPY_REPLICA,		/* one replica of a multicast group */
	P4ODP_COPY_INGRESS_CLONE,	/* a clone made at the end of ingress */
	P4ODP_COPY_EGRESS_CLONE,	/* a clone made at the end of an egress */
};

/* How a packet begins ingress again. */
enum p4odp_entry_kind {
	P4ODP_ENTRY_RESUBMIT,		/* as it was received, after its ingress */
	P4ODP_ENTRY_RECIRCULATE,	/* as deparsed, after its egress */
};

/* A packet that begins ingress again: the state its last pass ended with,
 * of which it keeps field list `fields`. */
struct p4odp_reentry {
	enum p4odp_entry_kind kind;
	uint16_t fields;
	const struct p4odp_packet_state *from;
};

/* The program's use of copies, which the traffic manager leaves out when it
 * has none (p4odp_program.copies). */
#define P4ODP_USES_CLONE 1u
#define P4ODP_USES_RESUBMIT 2u
#define P4ODP_USES_RECIRCULATE 4u

struct p4odp_copy {
	uint32_t port;
	uint32_t rid;		/* the replica's id (0 for a normal copy) */
	enum p4odp_copy_kind kind;
};

/* One packet going through the pipeline. */
struct p4odp_pctx {
	struct p4odp_switch *sw;
	void *state;		/* the program's extern state shared by the workers (registers) */
	void *worker_state;	/* the program's extern state of this worker (counter cells) */
	struct p4odp_worker *worker;
	odp_packet_t pkt;
	uint8_t *data;		/* the packet's bytes as received */
	uint32_t len;		/* bytes */
	uint32_t cursor;	/* parser position, in bits */
	uint32_t error;		/* the parser's error code */
	uint32_t in_port;
	uint8_t checksum_error;	/* set by verify_checksum */
	uint8_t exited;		/* an `exit` statement ran */
	uint8_t out_overflow;	/* the deparser ran out of room: the copy is dropped */
	uint8_t in_place;	/* pkt is this copy's own and has not left; p4odp_send clears it
				   when it does, and the worker no longer owns pkt */
	uint64_t truncate_to;	/* 0, or 1 + the length truncate() cut this copy to when it is sent */
	/* Sums of runs of the bytes as received that a checksum made, for a later
	 * one of the same bytes (csum_runs[i] when bit i of csum_known is set). */
	uint8_t csum_known;
	uint32_t csum_runs[P4ODP_CSUM_RUNS];
	uint8_t *out;		/* where the deparser writes headers */
	uint32_t out_bits;
	struct p4odp_tm_request tm;
	/* When the burst it came in began, in odp_time_global_ns(): the time its
	 * hits of entries with idle timeouts count (0 in a program without them
	 * or timestamps). */
	uint64_t burst_ns;
	/* The packet's place in the burst it was received in, whose keys
	 * `lookup_burst` looked up before the burst ran; P4ODP_BURST for a packet
	 * that begins ingress again. */
	uint32_t burst_slot;
};

struct p4odp_key_field_info {
	const char *name;
	uint32_t width;
	enum p4odp_match_kind match_kind;
	bool is_signed;		/* int<W>: the control plane may give a negative value */
};

struct p4odp_param_info {
	const char *name;
	uint32_t width;
	bool is_signed;		/* int<W> */
};

struct p4odp_action_info {
	uint32_t id;
	const char *name;
	uint32_t n_params;
	const struct p4odp_param_info *params;
};

/* A const entry of a table, added at start as the control plane adds one (p4odp_control.h):
 * its key fields' matches, its priority (the larger wins), its action and the action's data. */
struct p4odp_const_entry {
	const struct p4odp_field_match *fields;
	int32_t priority;
	uint32_t action;
	const uint8_t *data;
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
	const struct p4odp_const_entry *entries;
	uint8_t structure;		/* enum p4odp_table_kind, as the compiler chose it */
	int32_t profile;		/* its action profile (p4odp_program.profiles), -1: none */
	/* support_timeout: each worker's state holds, from offset `last_hit`, when
	 * it last hit each entry (uint64_t[size] by entry index, p4odp_entry_hit). */
	bool idle_timeout;
	size_t last_hit;
};

/* An action profile (v1model's action_profile, PSA's ActionProfile), or with `selector` an action
 * selector: `size` members, each an action of `actions` and its data of
 * `action_data_len` bytes, and a selector's `size` groups of members.  The
 * entries of its tables name a member or a group instead of an action: their
 * action_id is P4ODP_ACTION_MEMBER or P4ODP_ACTION_GROUP and their data the
 * handle (uint32_t, native order); p4odp_profile_action finds the member. */
struct p4odp_profile_info {
	const char *name;
	uint32_t size;
	uint32_t action_data_len;
	bool selector;
	uint32_t n_actions;
	const uint32_t *actions;
};

#define P4ODP_ACTION_GROUP 0xFFFD
#define P4ODP_ACTION_MEMBER 0xFFFE
#define P4ODP_ACTION_NONE 0xFFFF	/* no action: what an empty group runs, as on BMv2 */

/* A counter array in the per-worker extern state: `size` cells of two
 * uint64_t (packets, bytes) from `offset`.  A direct counter has `table`, the
 * index of the table whose entries it counts: cell i is the entry of index i
 * (an entry handle's low 32 bits); else `table` is -1. */
struct p4odp_counter_info {
	const char *name;
	uint32_t size;
	size_t offset;
	int32_t table;
};

/* A meter array in the shared extern state: `size` cells (struct
 * p4odp_meter) from `offset`, metering packets or bytes; a direct meter's
 * cells are those of its table's entry indexes (`table` >= 0). */
struct p4odp_meter_info {
	const char *name;
	uint32_t size;
	size_t offset;
	int32_t table;
	bool bytes;
};

/* A parser value set in the shared extern state: `size` members of `stride`
 * bytes each from `offset`, values of `width` bits.  A member is a `used`
 * byte and then its value in network order (ceil(width/8) bytes); a select
 * key matches when it is a used member's value.  The control plane fills a
 * free member and then sets `used` (release), and reuses a removed one only
 * after the workers have passed a quiescent state. */
struct p4odp_value_set_info {
	const char *name;
	uint32_t size;
	size_t offset;
	uint32_t stride;
	uint32_t width;
	bool is_signed;		/* int<W> */
};

static inline bool p4odp_value_set_has(const uint8_t *members, uint32_t size, uint32_t stride, const uint8_t *key,
				       uint32_t nbytes)
{
	for (uint32_t i = 0; i < size; i++, members += stride)
		if (__atomic_load_n(members, __ATOMIC_ACQUIRE) && !memcmp(members + 1, key, nbytes))
			return true;
	return false;
}

/* A value of `width` bits (signed: int<W>) in `size` bytes at `offset` of a
 * register cell: a C integer of that size up to 64 bits, else the value's
 * bytes in network order. */
struct p4odp_register_field {
	size_t offset;
	uint32_t size;
	uint32_t width;
	bool is_signed;
};

/* A register array in the shared extern state: `size` cells of `cell_size`
 * bytes from `offset`.  A cell holds a value of `width` bits (signed:
 * int<W>), or with `n_fields`, a struct of them: the control plane's value
 * of such a cell is its fields' values one after another, each in
 * ceil(width / 8) bytes, and `width` 8 times the sum of those. */
struct p4odp_register_info {
	const char *name;
	uint32_t size;
	size_t offset;
	uint32_t cell_size;
	uint32_t width;
	bool is_signed;
	uint32_t n_fields;
	const struct p4odp_register_field *fields;
	/* Where its lock is in the shared state (P4ODP_NO_LOCK: none), which the
	 * control plane's reads and writes hold as the program's regions do
	 * (p4odp_state_lock). */
	size_t lock;
};

#define P4ODP_NO_LOCK SIZE_MAX

struct p4odp_program {
	const char *name;
	/* The program's P4Info (p4/config/v1/p4info.proto), serialized: what a
	 * P4Runtime server learns the switch runs from (command `p4info`). */
	const uint8_t *p4info;
	size_t p4info_size;
	uint32_t n_tables;
	const struct p4odp_table_info *tables;
	uint32_t n_actions;
	const struct p4odp_action_info *actions;
	uint32_t n_errors;
	const char *const *errors;
	uint32_t n_counters;
	const struct p4odp_counter_info *counters;
	uint32_t n_registers;
	const struct p4odp_register_info *registers;
	uint32_t n_meters;
	const struct p4odp_meter_info *meters;
	uint32_t n_profiles;
	const struct p4odp_profile_info *profiles;
	uint32_t n_value_sets;
	const struct p4odp_value_set_info *value_sets;
	uint32_t n_crcs;
	const struct p4odp_crc_info *crcs;
	uint32_t n_digests;
	const struct p4odp_digest_info *digests;
	uint32_t n_learners;
	const struct p4odp_learner_info *learners;
	size_t state_size;	/* bytes of shared extern state the runtime allocates, zeroed */
	size_t worker_state_size;	/* bytes of extern state per worker, zeroed */
	/* The two halves of the pipeline (see the top of this file); `again` is
	 * NULL for a packet as received. */
	void (*ingress)(struct p4odp_pctx *pc, struct p4odp_packet_state *packet, const struct p4odp_reentry *again);
	bool (*egress)(struct p4odp_pctx *pc, struct p4odp_packet_state *packet, const struct p4odp_copy *copy);
	uint32_t copies;	/* P4ODP_USES_*: the copies the program may ask for */
	bool timestamps;	/* it reads the time (p4odp_time_us): the workers time every burst */
	bool truncates;		/* it calls p4odp_truncate: a copy it sends may be cut */
	/* With P4ODP_USES_CLONE: the state a clone of kind P4ODP_COPY_*_CLONE of
	 * the packet of `pc` begins egress with, made from the state `from` its
	 * ingress or egress ended with and keeping field list `fields`.  An
	 * ingress clone is the packet as received, parsed again. */
	void (*clone)(struct p4odp_pctx *pc, struct p4odp_packet_state *clone, const struct p4odp_packet_state *from,
		      enum p4odp_copy_kind kind, uint16_t fields);
	/* NULL, or: look up, for the n (at most P4ODP_BURST) packets of a burst
	 * before it runs, the keys of the tables whose key is bytes of the packet,
	 * all at once (p4odp_table_apply_burst), so that what the lookups read
	 * comes from memory in parallel; the results go to `worker_state`, where
	 * the pipeline takes them when it builds the same key (pc->burst_slot). */
	void (*lookup_burst)(struct p4odp_switch *sw, void *worker_state, const odp_packet_t pkts[], uint32_t n);
};

extern const struct p4odp_program p4odp_program;

/* ---- Tables whose entries the datapath adds (PNA's add-on-miss) ----------
 *
 * Each worker keeps its own entries of such a table, in its extern state
 * (`struct p4_worker_state`), which only it writes: learning costs no lock
 * and no write another worker reads.  A flow's packets reach one worker
 * (the ports spread flows over workers by their hash), so it is learnt
 * once; the control plane reads every worker's entries.  An entry expires
 * when it was not hit for the time of its expire-time profile; a hit starts
 * that time again. */
#define P4ODP_EXPIRE_PROFILES 256
#define P4ODP_LEARNER_PROBES 8	/* slots an entry may be in, from its hash */

struct p4odp_learner_info {
	uint32_t table;		/* its index in p4odp_program.tables */
	uint32_t size;		/* slots of a worker: a power of 2 */
	uint32_t key_len;	/* bytes of a key, as the table's */
	uint32_t data_len;	/* bytes of an entry's action data */
	size_t offset;		/* the slots in struct p4_worker_state */
};

/* One slot: when it expires (0: free), its profile, its key's hash, then
 * the key and the entry the table's apply runs (its `index` the slot's). */
struct p4odp_learnt {
	uint64_t expires_ns;
	uint32_t profile;
	uint32_t hash;
	_Alignas(8) uint8_t key[];
};

#define P4ODP_ALIGN8(n) (((n) + 7) / 8 * 8)
#define P4ODP_LEARNT_ENTRY_OFFSET(key_len) (sizeof(struct p4odp_learnt) + P4ODP_ALIGN8(key_len))
#define P4ODP_LEARNT_BYTES(key_len, data_len) \
	(P4ODP_LEARNT_ENTRY_OFFSET(key_len) + sizeof(struct p4odp_table_entry) + P4ODP_ALIGN8(data_len))

/* The entry of this worker's learner `learner` whose key is `key`, which
 * starts its time again; else (`*hit` false) the table's default entry. */
const struct p4odp_table_entry *p4odp_learner_lookup(struct p4odp_pctx *pc, uint32_t learner, const uint8_t *key,
						   bool *hit);

/* add_entry: an entry of `key` running `action_id` with `data`, expiring
 * after the time of `profile`; false when the slots of its hash are all
 * taken by entries that have not expired. */
bool p4odp_learner_add(struct p4odp_pctx *pc, uint32_t learner, const uint8_t *key, uint32_t action_id,
		       const uint8_t *data, uint32_t profile);

/* set_entry_expire_time and restart_expire_timer, of the entry `entry` that
 * p4odp_learner_lookup found: its profile (P4ODP_EXPIRE_SAME: the one it
 * has), its time started again. */
#define P4ODP_EXPIRE_SAME UINT32_MAX
void p4odp_learner_expire_in(struct p4odp_pctx *pc, uint32_t learner, const struct p4odp_table_entry *entry,
			     uint32_t profile);

/* PNA's allocate_flow_id: a number no other call of any worker returns
 * (until they wrap around 32 bits). */
uint32_t p4odp_flow_id(struct p4odp_pctx *pc);

/* When the burst of the packet of `pc` began, in microseconds since the
 * switch started (BMv2's clock): the time of the architectures' timestamps
 * (in a program with p4odp_program.timestamps). */
uint64_t p4odp_time_us(const struct p4odp_pctx *pc);

/* The switch's CPU port (--cpu-port), where an architecture's CPU port
 * number (PSA's PSA_PORT_CPU) leads; P4ODP_PORT_NUMBERS, no port, without one. */
uint32_t p4odp_cpu_port(const struct p4odp_pctx *pc);

/* Whether `port` leads to the host (one the switch was given with
 * --host-port), not to the network: PNA's direction of what it receives is
 * HOST_TO_NET. */
bool p4odp_is_host_port(const struct p4odp_pctx *pc, uint64_t port);

/* Look a key up in table `index`; `*hit` tells whether an entry matched.
 * Never NULL: a miss returns the table's default entry. */
const struct p4odp_table_entry *p4odp_table_apply(struct p4odp_switch *sw, uint32_t index, const uint8_t *key,
						 bool *hit);

/* The same for a key of key_len (1 to 8) bytes given as one integer, its
 * bytes read as a big-endian number, in a table of `kind`
 * (p4odp_table_lookup_int). */
const struct p4odp_table_entry *p4odp_table_apply_int(struct p4odp_switch *sw, uint32_t index,
						     enum p4odp_table_kind kind, uint32_t key_len, uint64_t key,
						     bool *hit);

/* The member whose action an entry of a table of action profile `profile`
 * runs: the member the entry names, or of the group it names the one of
 * index `selection` modulo the group's size, its members in the order of
 * their handles (BMv2's choice); an entry whose action is
 * P4ODP_ACTION_NONE for an empty group. */
const struct p4odp_table_entry *p4odp_profile_action(struct p4odp_switch *sw, uint32_t profile,
						     const struct p4odp_table_entry *entry, uint64_t selection);

/* The default entry of table `index`, as the control plane set it last. */
const struct p4odp_table_entry *p4odp_table_default(struct p4odp_switch *sw, uint32_t index);

/* The entries (NULL where none matched) of n keys of table `index` looked up
 * together (p4odp_table_lookup_burst), keys[i] the bytes of key i. */
void p4odp_table_apply_burst(struct p4odp_switch *sw, uint32_t index, const uint8_t *const keys[], uint32_t n,
			     const struct p4odp_table_entry *entries[]);

/* The same for keys of key_len (1 to 8) bytes given as integers, as
 * p4odp_table_apply_int takes them (p4odp_table_lookup_burst_int). */
void p4odp_table_apply_burst_int(struct p4odp_switch *sw, uint32_t index, enum p4odp_table_kind kind,
				 uint32_t key_len, const uint64_t keys[], uint32_t n,
				 const struct p4odp_table_entry *entries[]);

/* The lookup structure of table `index`, for the burst's lookups the generated code runs in
 * stages itself (p4odp_cuckoo_burst_begin). */
const struct p4odp_table *p4odp_table_of(struct p4odp_switch *sw, uint32_t index);

/* What an application of table `index` gives for a lookup that found `entry`
 * (NULL: none): `entry`, else the default entry; `*hit` whether one matched. */
const struct p4odp_table_entry *p4odp_table_found(struct p4odp_switch *sw, uint32_t index,
						 const struct p4odp_table_entry *entry, bool *hit);

/* The bytes of the packet of `pc` the parser consumed.  Within the packet: the parser moves its
 * cursor only after checking that the packet holds the bits it moves over (PacketTooShort), and
 * a copy that begins again with other bytes begins with its cursor at 0. */
static inline uint32_t p4odp_parsed_bytes(const struct p4odp_pctx *pc)
{
	return pc->cursor / 8;
}

/* Queue a copy of the packet of `pc` for `port`: its first `pc->cursor / 8`
 * bytes (what the parser consumed) replaced by `hdr_len` bytes at `hdrs`:
 * pc->pkt itself (see step 5 above), else a new packet.  `hdrs` may be
 * pc->data itself, and `hdr_len` is then the bytes consumed: the headers as
 * they are in the packet, which is sent without a byte moved or copied. */
void p4odp_send(struct p4odp_pctx *pc, uint32_t port, const uint8_t *hdrs, uint32_t hdr_len);

/* A recirculation (v1model's, PSA's, PNA's), at the end of an egress: the
 * packet p4odp_send would send begins ingress again, keeping of `state` the
 * field list pc->tm.recirculate asks for. */
void p4odp_recirculate(struct p4odp_pctx *pc, const uint8_t *hdrs, uint32_t hdr_len,
		       const struct p4odp_packet_state *state);

/* A clone at the end of an egress (pc->tm.clone_sessions[0]): the copies of the
 * mirror session go through egress after this one, from `state` as this
 * egress ended it, each with its own copy of the packet: v1model's (`hdrs`
 * NULL), the packet before the deparser, its headers parsed already; PSA's,
 * the packet as deparsed (`hdr_len` bytes at `hdrs`, then the payload), which
 * the egress parser parses again. */
void p4odp_egress_clone(struct p4odp_pctx *pc, const struct p4odp_packet_state *state, const uint8_t *hdrs,
			uint32_t hdr_len);

/* The first `consumed` bytes of this copy's own packet (pc->in_place)
 * replaced by `hdr_len` bytes at `hdrs`, for a parser to read from the start
 * (PSA's egress parser reads what the ingress deparser emitted); false, the
 * copy counted as dropped, when the packet has not the headroom. */
bool p4odp_replace_headers(struct p4odp_pctx *pc, const uint8_t *hdrs, uint32_t hdr_len, uint32_t consumed);

/* v1model's truncate(): this copy leaves cut to `length` bytes at most (the
 * smallest length asked for wins, as on BMv2; a multicast replica starts
 * without the cut its ingress asked for, as BMv2's do). */
static inline void p4odp_truncate(struct p4odp_pctx *pc, uint64_t length)
{
	if (!pc->truncate_to || length + 1 < pc->truncate_to)
		pc->truncate_to = length + 1;
}

/* Is there room for `bits` more bits of deparsed headers?  When there is
 * not, the copy is dropped (P4ODP_DROP_HEADERS_TOO_LONG). */
static inline bool p4odp_emit_room(struct p4odp_pctx *pc, uint32_t bits)
{
	if (odp_likely(pc->out_bits + bits <= P4ODP_MAX_HEADER_BITS))
		return true;
	pc->out_overflow = 1;
	return false;
}

/* Add to a counter that only this worker writes and any thread may read
 * (relaxed: a reader sees the old or the new total, never a torn one). */
static inline void p4odp_counter_add(uint64_t *counter, uint64_t n)
{
	__atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

/* A packet of `bytes` bytes counted in a counter cell (packets, then bytes). */
static inline void p4odp_count_packet(uint64_t cell[2], uint64_t bytes)
{
	p4odp_counter_add(&cell[0], 1);
	p4odp_counter_add(&cell[1], bytes);
}

/* assert() and assume() (v1model's, PSA's): unless the switch runs with --asserts, a
 * false check does nothing; with it, the switch prints `failure` (BMv2's
 * "Assert error: FRAGMENT failed, file F, line L") and aborts, as BMv2 does.
 * A true check costs its test only. */
void p4odp_check_failed(struct p4odp_pctx *pc, const char *failure);
static inline void p4odp_check(struct p4odp_pctx *pc, bool ok, const char *failure)
{
	if (odp_unlikely(!ok))
		p4odp_check_failed(pc, failure);
}

/* v1model's digest(): hand digest `digest`'s message (its size bytes) to the
 * control plane, which sends it to the control channel's clients listening
 * (nothing when none listens; dropped, and counted, when they lag behind). */
void p4odp_digest(struct p4odp_pctx *pc, uint32_t digest, const uint8_t *message);

/* v1model's log_msg(): with --log-msg, one line to stderr, `format` a printf
 * format the C generator made of the program's (one conversion per "{}");
 * at most P4ODP_LOG_MSG_RATE lines a second per worker, the rest counted and
 * said.  Without the option nothing is printed. */
#define P4ODP_LOG_MSG_RATE 100
void p4odp_log_msg(struct p4odp_pctx *pc, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* One meter (v1model's meter and direct_meter): BMv2's two-rate three-colour
 * marker (RFC 2698), two token buckets filled at their rate in units
 * (packets or bytes) per microsecond up to their burst size, all zero until
 * the control plane sets the rates.  The workers share it under its lock. */
struct p4odp_meter_bucket {
	double rate;		/* units per microsecond */
	uint64_t burst;
	uint64_t tokens;
	uint64_t credited;	/* tokens the rate has given since the switch started */
};

struct p4odp_meter {
	uint8_t lock;
	uint8_t configured;
	struct p4odp_meter_bucket peak, committed;
};

enum p4odp_meter_color {
	P4ODP_METER_GREEN = 0,
	P4ODP_METER_YELLOW = 1,
	P4ODP_METER_RED = 2,
};

/* The colour of the packet of `pc` through meter `m`, `amount` the tokens it
 * takes (1 for a meter of packets; for a meter of bytes, the packet's length
 * as received, or the length the program gives): red when the peak bucket
 * has too few tokens, else yellow when the committed one has, else green;
 * the buckets that pass give their tokens.  Green through a meter whose rates
 * are not set. */
uint8_t p4odp_meter_execute(struct p4odp_pctx *pc, struct p4odp_meter *m, uint64_t amount);

/* The lock of a piece of the extern state the workers share (a register
 * array: struct p4_state), a byte, free when 0 (the state starts zeroed).  As
 * on BMv2, an action or @atomic block that reads or writes register arrays
 * holds their locks for the whole of its body, taken in one order, so that
 * a read-modify-write in it loses no other worker's update. */
static inline void p4odp_state_lock(uint8_t *lock)
{
	while (__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(lock, __ATOMIC_RELAXED))
			odp_cpu_pause();
}

static inline void p4odp_state_unlock(uint8_t *lock)
{
	__atomic_store_n(lock, 0, __ATOMIC_RELEASE);
}

/* A hit of the entry of index `index` of a table with idle timeouts, in the
 * worker's own array of the table's hit times: no write shared with another
 * thread; the control thread reads them all (idle_timeouts.c). */
static inline void p4odp_entry_hit(struct p4odp_pctx *pc, uint64_t *last_hit, uint32_t index)
{
	__atomic_store_n(&last_hit[index], pc->burst_ns, __ATOMIC_RELAXED);
}

/* Count a drop of the packet of `pc`, or of one copy of it. */
void p4odp_count_drop(struct p4odp_pctx *pc, enum p4odp_drop_reason reason);

/* v1model's hash() over `len` bytes (every algorithm but P4ODP_HASH_RANDOM,
 * which is p4odp_random), and random(): a number in [lo, hi] from the
 * worker's own generator. */
uint64_t p4odp_hash(enum p4odp_hash_algorithm algo, const uint8_t *buf, uint32_t len);
/* The custom CRC of calculation `calc` (p4odp_program.crcs) over `len` bytes
 * at `buf` followed by `more_len` at `more`, with the parameters the control
 * plane set last. */
uint64_t p4odp_hash_custom(struct p4odp_pctx *pc, uint32_t calc, const uint8_t *buf, uint32_t len,
			   const uint8_t *more, uint32_t more_len);
/* The same over `len` bytes at `buf` followed by `more_len` at `more` (a packet's payload). */
uint64_t p4odp_hash_parts(enum p4odp_hash_algorithm algo, const uint8_t *buf, uint32_t len, const uint8_t *more,
			  uint32_t more_len);
uint64_t p4odp_random(struct p4odp_pctx *pc, uint64_t lo, uint64_t hi);

#endif /* P4ODP_RUNTIME_H_ */
