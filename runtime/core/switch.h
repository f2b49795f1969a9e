/*
 * The runtime's own state: ports, tables, multicast groups, workers.
 * Internal to runtime/core; the generated code sees only p4odp_runtime.h.
 */
#ifndef P4ODP_SWITCH_H_
#define P4ODP_SWITCH_H_

#include <signal.h>
#include <stdio.h>

#include "p4odp_control.h"
#include "p4odp_rcu.h"
#include "p4odp_runtime.h"
#include "p4odp_table.h"

struct p4odp_channel;

#define P4ODP_MAX_WORKERS 64
_Static_assert(P4ODP_MAX_PORTS <= P4ODP_PORT_NUMBERS, "tx_n has every port");

/* A port's queues: worker k receives from in[k] (when k < n_in: the device
 * spreads flows over its input queues by a hash) and sends on out[k % n_out]
 * (a queue of its own when there are as many as workers, else a shared,
 * locked one). */
struct p4odp_port {
	char name[256];
	odp_pktio_t pktio;
	uint32_t n_in, n_out;
	odp_pktin_queue_t in[P4ODP_MAX_WORKERS];
	odp_pktout_queue_t out[P4ODP_MAX_WORKERS];
};

/* Multicast (BMv2's PRE): groups of nodes, each node a replication id and a
 * set of ports (any port number: the CPU port too), in a group at most.  The
 * control plane's own; the workers read a group's copies. */
struct p4odp_mc_node {
	bool used;
	uint32_t rid;
	uint32_t group;		/* the group it is associated with; 0: none */
	uint64_t ports[P4ODP_PORT_NUMBERS / 64];	/* bit p: port p */
};

/* A multicast group's copies, as BMv2 makes them: its nodes in the order they
 * were associated, each node's ports ascending.  Made anew when the group or
 * one of its nodes changes, published whole, the old one freed after a grace
 * period: a packet sees the group before or after a change. */
struct p4odp_mc_copies {
	uint32_t n;
	struct {
		uint32_t port;
		uint32_t rid;
	} copy[];
};

struct p4odp_mc_group {
	bool used;
	uint32_t n_nodes;
	uint32_t nodes[P4ODP_MAX_GROUP_NODES];
	struct p4odp_mc_copies *copies;	/* what the workers read; NULL: no copy */
};

/* A clone (mirror) session as the workers read it (v1model's clone; BMv2's
 * ids, 0 to 32767): its copies go to every replica of multicast group
 * `group` (BMv2's mirroring_add_mc), or when that is 0 to its own `n`
 * replicas; each copy is cut to `truncate` bytes when it is sent (0: whole).
 * Made anew when the session changes, published whole, the old one freed
 * after a grace period. */
struct p4odp_clone_copies {
	uint32_t group;
	uint32_t truncate;
	uint32_t class_of_service;	/* kept for the control plane: copies have no class here */
	uint32_t n;
	struct p4odp_replica copy[];
};

/* One table of the program: its metadata and its lookup structure. */
/* The idle timeout of an entry of a table with support_timeout, by entry
 * index: its handle, its TTL (0: none) and when its timer last started (the
 * entry added, or reported idle).  It is idle once neither that nor a
 * worker's hit of it (p4odp_entry_hit) is within the last TTL. */
struct p4odp_entry_timer {
	int64_t handle;
	uint64_t ttl_ns;
	uint64_t started_ns;
};

/* What a controller keeps with an entry (p4odp_ctl_entry_set_note), by entry index. */
struct p4odp_entry_note {
	int64_t handle;		/* -1: none */
	uint64_t cookie;
	uint32_t len;
	uint8_t *bytes;		/* malloc'd */
};

struct p4odp_runtime_table {
	const struct p4odp_table_info *info;
	struct p4odp_table *table;
	bool default_changed;	/* its default entry is not the program's */
	struct p4odp_entry_timer *timers;	/* info->size of them with idle timeouts, else NULL */
	uint32_t n_timed;	/* entries with a TTL */
	struct p4odp_entry_note *notes;	/* info->size of them from the first note on, else NULL */
};

/* A group of an action selector: its members' slots in ascending order
 * (BMv2's order, in which a hash picks one).  The control plane replaces a
 * group whole and frees the old one after a grace period. */
struct p4odp_profile_group {
	uint32_t n;
	uint32_t members[];
};

/* The control plane's record of a profile's slot: the ids of the member and
 * the group in it (a controller's, or the lowest free: BMv2's handles), how
 * many table entries (and, for a member, groups) name each, and the group's
 * largest size (0: the profile's). */
struct p4odp_profile_slot {
	uint32_t member_id, member_users;
	uint32_t group_id, group_users, group_max;
};

/* An action profile's members (table entries holding an action and its data,
 * NULL where there is none) and groups (NULL where there is none), by slot,
 * which the control plane replaces as wholes and the workers read; the
 * entries of its tables name a slot. */
struct p4odp_runtime_profile {
	const struct p4odp_profile_info *info;
	struct p4odp_table_entry **members;
	struct p4odp_profile_group **groups;
	struct p4odp_profile_slot *slots;
};

/* The multicast groups and mirror sessions (BMv2's PRE and mirroring): the
 * switch's, whatever program it runs, so shared by a program loaded to
 * replace its own. */
struct p4odp_replication {
	struct p4odp_mc_node mc_nodes[P4ODP_MAX_MC_NODES];
	struct p4odp_mc_group mc_groups[P4ODP_MAX_MC_GROUPS];
	struct p4odp_clone_copies *clone_sessions[P4ODP_MAX_MIRROR_SESSIONS];	/* NULL: none */
};

/* What a program keeps per worker: its counter cells, the states its passes
 * start from, its digests on their way to the control channel. */
struct p4odp_program_worker {
	void *state;
	struct p4odp_packet_state *pass_states;	/* NULL when it makes no pass */
	struct p4odp_digest_ring *digests;	/* NULL when it sends no digest */
};

/* A program as compiled (traffic_manager.c defines one per compiled unit):
 * the switch binary's own, or that of a datapath.so loaded into a running
 * switch.  A loaded one is accepted when it was compiled against the same
 * runtime build: the structures they share have the same layout. */
struct p4odp_datapath {
	const char *runtime;	/* P4ODP_RUNTIME_BUILD: the runtime library's build key */
	const struct p4odp_program *program;
	/* Allocate its per-worker state (whose types only its unit knows); -1 when out of memory. */
	int (*worker_init)(struct p4odp_program_worker *pw);
	/* p4odp_tm_burst of its unit. */
	void (*burst)(struct p4odp_worker *w, uint32_t port, odp_packet_t *pkts, uint32_t n);
};

extern const struct p4odp_datapath p4odp_datapath;

/* A switch running a program.  A program loaded to replace the running one
 * (load_new_config_file) is a second p4odp_switch that copies the first's
 * ports, workers, RCU domain and replication, with tables and state of its
 * own; swapping it in (swap_configs) moves each worker to it between two
 * bursts. */
struct p4odp_switch {
	const struct p4odp_datapath *datapath;
	const struct p4odp_program *program;	/* datapath->program */
	void *library;		/* the dlopen handle of the datapath.so it came from; NULL: the binary's */
	int library_fd;		/* the memfd holding its copy (programs.c) */
	odp_instance_t instance;
	odp_pool_t pool;
	struct p4odp_port ports[P4ODP_MAX_PORTS];
	uint64_t open_ports;	/* bit i: ports[i] is set up (-i) */
	struct p4odp_runtime_table *tables;
	struct p4odp_runtime_profile *profiles;
	struct p4odp_rcu *rcu;	/* the tables' readers are the workers */
	_Atomic(struct p4odp_crc_params *) *crcs;	/* by calculation (p4odp_program.crcs) */
	void *state;		/* the program's extern state shared by the workers (registers) */
	struct p4odp_program_worker *per_worker;	/* the program's state of each worker */
	struct p4odp_worker *workers;
	uint32_t n_workers;
	struct p4odp_replication *pre;
	uint64_t started_ns;	/* odp_time_global_ns() at start: the meters' and timestamps' time origin */
	bool idle_timeouts;	/* a table has idle timeouts: the workers time their bursts */
	uint64_t expire_ns[P4ODP_EXPIRE_PROFILES];	/* the learners' expire-time profiles (learners.c) */
	uint64_t idle_scanned_ns;	/* when the main thread last looked for idle entries */
	bool asserts;		/* --asserts: a false assert() or assume() stops the switch */
	bool log_msgs;		/* --log-msg: log_msg() prints */
	uint32_t digest_listeners;	/* control channel clients listening to digests (0: workers skip them) */
	uint32_t packet_listeners;	/* and to packet-ins (0: workers drop what goes to the CPU port) */
	uint32_t idle_listeners;	/* and to idle timeouts (0: no scan for idle entries) */
	/* The CPU port (--cpu-port): the port number whose packets go to the
	 * control channel's clients (packet-in) and whose input is what they send
	 * (packet-out). */
	bool has_cpu_port;
	uint32_t cpu_port;
	uint64_t host_ports;	/* --host-port: bit N for port N (p4odp_is_host_port) */
	uint32_t hold;		/* p4odp_workers_hold: not 0 while the workers are to wait */
	/* A swap that a stop interrupted leaves the program it replaced here,
	 * still used by workers that had not moved, freed once they are joined. */
	struct p4odp_switch *replaced;
	volatile sig_atomic_t stop;
};

_Static_assert(P4ODP_MAX_PORTS <= 64, "open_ports has a bit per port");

static inline bool p4odp_port_open(const struct p4odp_switch *sw, uint32_t port)
{
	return port < P4ODP_MAX_PORTS && sw->open_ports >> port & 1;
}

/* A meter cell's lock (zero, as the extern state starts, is unlocked): the workers that meter
 * through it and the control plane that sets its rates take it. */
static inline void p4odp_meter_lock(struct p4odp_meter *m)
{
	while (__atomic_exchange_n(&m->lock, 1, __ATOMIC_ACQUIRE))
		odp_cpu_pause();
}

static inline void p4odp_meter_unlock(struct p4odp_meter *m)
{
	__atomic_store_n(&m->lock, 0, __ATOMIC_RELEASE);
}

/* tx_n of a port that is not open, and of the CPU port: more than a full batch. */
#define P4ODP_TX_CLOSED 0xFF
#define P4ODP_TX_CPU 0xFE
_Static_assert(P4ODP_BURST < P4ODP_TX_CPU, "a batch count never reads as a closed port or the CPU port");

/* A pass through the pipeline that waits for the passes before it (v1model's
 * resubmit, recirculate and clones at egress), on `pkt`, which it owns: into
 * ingress again (`kind` an enum p4odp_entry_kind), keeping field list
 * `fields` of its state; or into egress as the clones of clone session
 * `session`, from its state, with the parser's cursor of the pass that cloned
 * it. */
struct p4odp_pass {
	odp_packet_t pkt;
	bool ingress;
	uint8_t kind;
	uint16_t fields;
	uint32_t in_port;
	uint32_t cursor;
	const struct p4odp_clone_copies *session;
};

/* What one worker owns: its scratch, its transmit batches, its counters.
 * Passed explicitly (pc->worker): nothing on the packet path is global. */
struct p4odp_worker {
	struct p4odp_rcu_thread rcu;	/* its reader registration with sw->rcu */
	struct p4odp_switch *sw;	/* the switch (program) it runs */
	/* A switch for it to run from its next burst on (swap_configs), set by
	 * the main thread; NULL again once it does. */
	struct p4odp_switch *next;
	uint32_t id;		/* 0..n_workers-1: which queue of each port it owns */
	void *state;		/* sw->per_worker[id]'s, as are pass_states and digests */
	/* The copies queued per port, sent together at the end of a burst: tx_n[i]
	 * of them in tx[i]; P4ODP_TX_CLOSED for a port that is not open, so that
	 * sending tests one number for a full batch, no port or the CPU port.
	 * tx_n has every port number: a send to one needs no bounds check. */
	uint8_t tx_n[P4ODP_PORT_NUMBERS];
	odp_packet_t tx[P4ODP_MAX_PORTS][P4ODP_BURST];
	odp_pktout_queue_t out[P4ODP_MAX_PORTS];	/* its queue of each open port */
	uint64_t received[P4ODP_PORT_NUMBERS];	/* the CPU port's too */
	uint64_t sent[P4ODP_PORT_NUMBERS];
	uint64_t drops[P4ODP_DROP_COUNT];
	/* The passes the packet being processed caused, run in order after its
	 * own (n_passes of them; at most P4ODP_MAX_PASSES for one received
	 * packet), and the state each starts from (the program's type, whose
	 * size only the traffic manager knows). */
	struct p4odp_pass passes[P4ODP_MAX_PASSES];
	uint32_t n_passes;
	struct p4odp_packet_state *pass_states;
	uint64_t random_state;	/* p4odp_random's generator (never 0) */
	uint64_t log_second;	/* log_msg's rate limit: the second of its last lines, */
	uint32_t log_lines;	/* the lines printed in it, */
	uint64_t log_dropped;	/* and those left out since the last said so */
	uint64_t digests_dropped;	/* digest messages its ring had no room for (whichever program's) */
	struct p4odp_digest_ring *digests;
	/* With a CPU port: the packets it sent there, for the main thread to
	 * deliver, and (worker 0 alone) those the main thread injects as received
	 * there; NULL without one. */
	struct p4odp_packet_ring *to_cpu;
	struct p4odp_packet_ring *from_cpu;
	uint32_t to_cpu_adopted;	/* to_cpu's head when it last adopted a program: the packets before are the old one's */
	uint32_t holding;	/* it waits for sw->hold to end (p4odp_workers_hold) */
	uint32_t flow_ids;	/* the flow ids it allocated (p4odp_flow_id) */
	uint64_t burst_ns;	/* when its burst began, with idle timeouts or timestamps (p4odp_pctx.burst_ns) */
} ODP_ALIGNED_CACHE;

/* Packets on their way between one thread and another: the producer puts at
 * head, the consumer takes at tail; whoever holds a packet in it is the ring. */
#define P4ODP_PACKET_RING 256

struct p4odp_packet_ring {
	uint32_t head;
	uint32_t tail;
	odp_packet_t slots[P4ODP_PACKET_RING];
};

/* Put `pkt` in the ring (its one producer); false when it is full. */
static inline bool p4odp_ring_put(struct p4odp_packet_ring *r, odp_packet_t pkt)
{
	uint32_t head = r->head;

	if (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) == P4ODP_PACKET_RING)
		return false;
	r->slots[head % P4ODP_PACKET_RING] = pkt;
	__atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
	return true;
}

/* Take at most `max` packets from the ring (its one consumer); how many. */
static inline uint32_t p4odp_ring_take(struct p4odp_packet_ring *r, odp_packet_t *pkts, uint32_t max)
{
	uint32_t tail = r->tail, n = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE) - tail;

	if (n > max)
		n = max;
	for (uint32_t i = 0; i < n; i++)
		pkts[i] = r->slots[(tail + i) % P4ODP_PACKET_RING];
	if (n)	/* not a write per look at an empty ring: the producer reads this line */
		__atomic_store_n(&r->tail, tail + n, __ATOMIC_RELEASE);
	return n;
}

/* A worker's digest messages on their way to the control channel's clients:
 * the worker writes at head, the main thread reads at tail (one producer,
 * one consumer). */
#define P4ODP_DIGEST_RING 1024

struct p4odp_digest_ring {
	uint32_t head;
	uint32_t tail;
	struct {
		uint32_t digest;
		uint8_t message[P4ODP_DIGEST_BYTES];
	} slots[P4ODP_DIGEST_RING];
};

/* Worker `w` runs switch `sw` (its program's state of w) from now on. */
static inline void p4odp_worker_adopt(struct p4odp_worker *w, struct p4odp_switch *sw)
{
	const struct p4odp_program_worker *pw = &sw->per_worker[w->id];

	w->sw = sw;
	w->state = pw->state;
	w->pass_states = pw->pass_states;
	w->digests = pw->digests;
	if (w->to_cpu)
		w->to_cpu_adopted = w->to_cpu->head;
}

/* Between two bursts: wait while the switch holds its workers (p4odp_workers_hold). */
static inline void p4odp_worker_hold_point(struct p4odp_worker *w)
{
	if (odp_likely(!__atomic_load_n(&w->sw->hold, __ATOMIC_ACQUIRE)))
		return;
	p4odp_rcu_offline(&w->rcu);
	__atomic_store_n(&w->holding, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&w->sw->hold, __ATOMIC_ACQUIRE))
		odp_cpu_pause();
	__atomic_store_n(&w->holding, 0, __ATOMIC_RELEASE);
	p4odp_rcu_online(&w->rcu);
}

/* The traffic manager (traffic_manager.c): a worker's packets from receive to transmit.
 * A worker sends to the ports open when it is initialised, and runs sw's
 * program (p4odp_program_init first). */
int p4odp_worker_init(struct p4odp_worker *w, struct p4odp_switch *sw, uint32_t id);
void p4odp_worker_term(struct p4odp_worker *w);
/* Run `n` (at most P4ODP_BURST) packets received on `port` through the pipeline, send what it
 * makes of them (every batch is flushed before it returns), and free them. */
void p4odp_tm_burst(struct p4odp_worker *w, uint32_t port, odp_packet_t *pkts, uint32_t n);
/* Print the packets received and sent per port and the drops per reason,
 * summed over `n_workers` workers. */
void p4odp_print_counters(const struct p4odp_switch *sw, const struct p4odp_worker *workers, uint32_t n_workers,
			  FILE *out);

/* A switch's start and stop around its ports (startup.c).  p4odp_switch_start gives `sw` (its
 * datapath and pre set) ODP, for `n_workers` workers and this control thread, a pool of
 * `pool_packets` packets, its workers' array (zeroed: p4odp_worker_init sets each up), its RCU
 * and its program's tables and state.  Returns 0, or after saying why on stderr -E2BIG (ODP's
 * pools cannot hold that many packets), -ENODEV (ODP did not start) or -ENOMEM, all of it freed,
 * `sw` too.
 * p4odp_switch_stop closes the open ports, terminates the workers, frees the multicast
 * groups, the program and `sw` (not its pre), and terminates ODP. */
int p4odp_switch_start(struct p4odp_switch *sw, uint32_t n_workers, uint64_t pool_packets);
void p4odp_switch_stop(struct p4odp_switch *sw);
/* The decimal number `arg` of command-line option `option` into *out, when in min..max; else
 * -1 after saying "error: OPTION ARG: expected `what` in min..max" on stderr (startup.c). */
int p4odp_parse_number(const char *option, const char *arg, unsigned long long min, unsigned long long max,
		       const char *what, unsigned long long *out);

/* A switch's program (programs.c).  p4odp_program_init gives `sw` (its
 * datapath, rcu and n_workers set) its tables, state and per-worker state;
 * p4odp_program_destroy frees them (once no worker runs it). */
int p4odp_program_init(struct p4odp_switch *sw);
void p4odp_program_destroy(struct p4odp_switch *sw);
/* load_new_config_file: the program of the datapath.so at `path` on `live`'s
 * ports and workers, its tables empty, not yet forwarding; NULL after saying
 * why in `err`. */
struct p4odp_switch *p4odp_program_load(struct p4odp_switch *live, const char *path, char *err, size_t err_len);
/* swap_configs: move every worker from `live` to `loaded` between two of its
 * bursts, then deliver the digests `live` queued to `ch` and free it.
 * Returns `loaded`, now the live switch (stopped, when the switch stopped
 * before every worker moved). */
struct p4odp_switch *p4odp_program_swap(struct p4odp_switch *live, struct p4odp_switch *loaded,
					struct p4odp_channel *ch);
/* Free a loaded program that is not swapped in. */
void p4odp_program_discard(struct p4odp_switch *loaded);
/* Hold every worker of `sw` between two of its bursts, offline for the RCU, until
 * p4odp_workers_release: changes made meanwhile are seen by the packets after them all. */
void p4odp_workers_hold(struct p4odp_switch *sw);
void p4odp_workers_release(struct p4odp_switch *sw);

/* The binary control channel (channel_binary.c, p4odp_wire.h): run the request of `len` bytes at
 * `body` on `sw` (`live`: the workers run it) and give the answer's bytes (malloc'd) in *answer
 * and *answer_len; -ENOMEM. */
int p4odp_binary_request(struct p4odp_switch *sw, bool live, const uint8_t *body, size_t len, uint8_t **answer,
			 size_t *answer_len);

/* Tables (tables.c). */
int p4odp_tables_init(struct p4odp_switch *sw);
void p4odp_tables_destroy(struct p4odp_switch *sw);

/* The parameters of the program's custom CRCs (externs.c): those of crc16
 * and crc32 at first; a change waits for the workers to let go of the old
 * ones. */
int p4odp_crcs_init(struct p4odp_switch *sw);

/* The learners' expire-time profiles, p4c-dpdk's defaults (learners.c). */
void p4odp_learners_init(struct p4odp_switch *sw);
void p4odp_crcs_destroy(struct p4odp_switch *sw);

/* The control-plane API's helpers (control_externs.c): counter cells `first` to `first + n - 1`
 * back to 0 in every worker; a meter's cell. */
void p4odp_counter_zero(struct p4odp_switch *sw, const struct p4odp_counter_info *info, uint32_t first, uint32_t n);
struct p4odp_meter *p4odp_meter_cell(struct p4odp_switch *sw, const struct p4odp_meter_info *info, uint32_t index);

/* The simple_switch_CLI commands (cli.c): run one, its output to `out`.
 * Returns 0, or -1 after writing a message to `err` (nothing was changed). */
int p4odp_cli_command(struct p4odp_switch *sw, const char *line, FILE *out, char *err, size_t err_len);
/* A commands file (--commands) run in order: each line through p4odp_cli_command, but
 * `receive PORT` lines through `receive` (with `arg`, and what follows the word).  Stops at the
 * first bad line, reported to stderr as FILE:LINE: error: ...; returns 0 or -1. */
int p4odp_cli_file(struct p4odp_switch *sw, const char *path, FILE *out,
		   int (*receive)(void *arg, const char *port, char *err, size_t err_len), void *arg);
/* Free the multicast groups' copies and the clone sessions (control_replication.c; once no
 * worker runs). */
void p4odp_replication_destroy(struct p4odp_switch *sw);

/* The control channel (channel.c): command lines from clients of a unix or
 * TCP socket, served between the main thread's other duties. */
#define P4ODP_CONTROL_CLIENTS 8
/* The largest packet: the packet pool's buffers, which the datapath reads whole. */
#define P4ODP_MAX_PACKET 9600
#define P4ODP_CONTROL_LINE (2 * P4ODP_MAX_PACKET + 1024)	/* a packet_out of the largest packet, in hex */

struct p4odp_control_client {
	int fd;			/* -1: a free slot */
	size_t len;		/* bytes received and not yet served */
	bool overlong;		/* the line being received is too long: answered with an error */
	char *pending;		/* answers not yet sent (malloc'd) */
	size_t pending_len;
	size_t answer_left;	/* bytes of pending up to the end of the last answer: its next line waits for them */
	uint64_t stalled_since_ns;	/* when the client last took some of them */
	uint8_t listens;	/* the events it gets: P4ODP_EVENT_* (digest_listen, packet_listen, swap_listen,
				   idle_listen) */
	uint64_t events_missed;	/* events not queued for it: it was too far behind */
	char buf[P4ODP_CONTROL_LINE];	/* a line and its newline at most */
	/* After its line "binary": the frames received and not yet served (p4odp_wire.h), malloc'd. */
	bool binary;
	uint8_t *frames;
	size_t frames_len, frames_cap;
};

struct p4odp_channel {
	int listen_fd;
	uint64_t accept_paused_until_ns;	/* after an accept failed for want of resources */
	char unix_path[108];	/* removed at close; empty for TCP */
	uint64_t digests_dropped;	/* the workers' dropped digests last reported */
	/* The program load_new_config_file loaded, which the commands of the
	 * client that loaded it change until swap_configs swaps it in; NULL: none. */
	struct p4odp_switch *loaded;
	struct p4odp_control_client *loader;
	struct p4odp_control_client clients[P4ODP_CONTROL_CLIENTS];
};

/* Listen at `addr` (unix:PATH or tcp:HOST:PORT); -1 after saying why in `err`. */
int p4odp_channel_open(struct p4odp_channel *ch, const char *addr, char *err, size_t err_len);
/* The kinds of event a client may listen to. */
#define P4ODP_EVENT_DIGESTS 1
#define P4ODP_EVENT_PACKETS 2
#define P4ODP_EVENT_SWAPS 4	/* program_swapped: the events after it are the new program's */
#define P4ODP_EVENT_IDLE 8	/* idle_timeout: entries idle past their TTL */

/* Queue an event (`text`, a line) of `kind` for every client listening to that kind. */
void p4odp_channel_event(struct p4odp_channel *ch, uint8_t kind, const char *text, size_t len);
/* Accept and serve what clients sent, waiting at most `timeout_ms` for it;
 * *live is the switch forwarding, which swap_configs replaces. */
void p4odp_channel_serve(struct p4odp_switch **live, struct p4odp_channel *ch, int timeout_ms);
void p4odp_channel_close(struct p4odp_channel *ch);

/* Digests (digests.c): the messages the workers queued since the last call,
 * as events "digest NAME VALUE..." to the channel's listening clients, and
 * "digests_dropped N" when some found no room. */
void p4odp_digests_deliver(struct p4odp_switch *sw, struct p4odp_channel *ch);

/* Idle timeouts (idle_timeouts.c): every P4ODP_IDLE_SCAN_NS while a client
 * listens, the entries idle past their TTL as events "idle_timeout TABLE
 * HANDLE...", their timers started again. */
void p4odp_idle_deliver(struct p4odp_switch *sw, struct p4odp_channel *ch);
/* The entry calls' upkeep of the timers of a table (nothing for one without
 * idle timeouts): entry `handle` added, with no TTL; deleted (-1: every entry). */
void p4odp_timer_start(struct p4odp_switch *sw, uint32_t table, int64_t handle);
void p4odp_timer_stop(struct p4odp_switch *sw, uint32_t table, int64_t handle);
/* Entry notes (entry_notes.c): those of entry `handle` (-1: every entry) dropped with it, and
 * all of a table's freed with it. */
void p4odp_notes_drop(struct p4odp_switch *sw, uint32_t table, int64_t handle);
void p4odp_notes_destroy(struct p4odp_runtime_table *rt);

/* The CPU port (cpu_port.c): the packets the workers sent to it since the
 * last call (with `before_adoption`, only those each sent before it adopted
 * the program it runs), as events "packet_in HEX" to the channel's listening
 * clients.  (Packets in: p4odp_ctl_packet_out.) */
void p4odp_packets_deliver(struct p4odp_switch *sw, struct p4odp_channel *ch, bool before_adoption);

#endif /* P4ODP_SWITCH_H_ */
