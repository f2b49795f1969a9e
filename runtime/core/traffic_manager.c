/*
 * The traffic manager: what happens to a packet between the program's
 * ingress and egress, as BMv2 simple_switch's traffic manager does it.
 *
 * For each received packet: ingress, then the copies it asks for (one to a
 * port, one per replica of a multicast group, none), egress once per copy,
 * and the copies egress keeps queued per output port and sent in batches.
 * The only copy of a packet leaves in the received buffer itself, rewritten
 * in place; each replica is rewritten in a copy of it made before its
 * egress.  See p4odp_runtime.h for who owns a packet at each step.
 *
 * Clones, resubmits and recirculations, in BMv2's order: the clones
 * a packet's ingress asks for go through egress before the packet itself;
 * a resubmit, a recirculation and the clones an egress asks for are passes
 * queued on the worker (struct p4odp_pass) and run, in order, once the
 * packet's own have ended, before the next received packet.
 *
 * A switch compiles this file with its program, in one translation unit
 * (backend/build.py): the calls of `p4odp_program`'s ingress and egress are
 * then direct and inlined, and so are their calls of p4odp_send and of the
 * table lookups.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "switch.h"
#ifdef P4ODP_ODP_BUNDLED
#include <odp_bundled_ext.h>
#endif

static const char *const drop_reasons[P4ODP_DROP_COUNT] = {
#define P4ODP_DROP_TEXT(name, text) text,
	P4ODP_DROP_REASONS(P4ODP_DROP_TEXT)
#undef P4ODP_DROP_TEXT
};

/* This unit's program's state of one worker (struct p4odp_datapath.worker_init). */
static int program_worker_init(struct p4odp_program_worker *pw)
{
	/* Whole cache lines: no other worker's data shares one with its counters. */
	size_t state_size = (p4odp_program.worker_state_size + ODP_CACHE_LINE_SIZE - 1) / ODP_CACHE_LINE_SIZE *
			    ODP_CACHE_LINE_SIZE;

	*pw = (struct p4odp_program_worker){ 0 };
	pw->state = aligned_alloc(ODP_CACHE_LINE_SIZE, state_size ? state_size : ODP_CACHE_LINE_SIZE);
	if (!pw->state)
		return -1;
	memset(pw->state, 0, state_size);
	if (p4odp_program.copies && !(pw->pass_states = calloc(P4ODP_MAX_PASSES, sizeof *pw->pass_states)))
		return -1;
	if (p4odp_program.n_digests && !(pw->digests = calloc(1, sizeof *pw->digests)))
		return -1;
	return 0;
}

/* p4odp_tm_burst's address in p4odp_datapath would stop GCC (12) from inlining all of the
 * flattened burst: l3fwd's checksum update became a call, 36 instructions a packet more.  So
 * the datapath names this tail call to it. */
static void p4odp_datapath_burst(struct p4odp_worker *w, uint32_t port, odp_packet_t *pkts, uint32_t n)
{
	p4odp_tm_burst(w, port, pkts, n);
}

#ifndef P4ODP_RUNTIME_BUILD	/* set by backend/build.py */
#define P4ODP_RUNTIME_BUILD "unknown"
#endif

/* A datapath.so's one exported symbol, what a switch loads (backend/build.py); the switch's own
 * is not exported, so that it is not mistaken for a loaded one's. */
#ifdef P4ODP_DATAPATH_LIBRARY
__attribute__((visibility("default")))
#else
__attribute__((visibility("hidden")))
#endif
const struct p4odp_datapath p4odp_datapath = {
	.runtime = P4ODP_RUNTIME_BUILD,
	.program = &p4odp_program,
	.worker_init = program_worker_init,
	.burst = p4odp_datapath_burst,
};

int p4odp_worker_init(struct p4odp_worker *w, struct p4odp_switch *sw, uint32_t id)
{
	memset(w, 0, sizeof *w);
	w->id = id;
	p4odp_worker_adopt(w, sw);
	w->random_state = (odp_time_global_ns() ^ UINT64_C(0x9E3779B97F4A7C15) * (id + 1)) | 1;
	memset(w->tx_n, P4ODP_TX_CLOSED, sizeof w->tx_n);
	if (sw->has_cpu_port) {
		w->to_cpu = calloc(1, sizeof *w->to_cpu);
		w->from_cpu = id == 0 ? calloc(1, sizeof *w->from_cpu) : NULL;
		if (!w->to_cpu || (id == 0 && !w->from_cpu))
			return -1;
		w->tx_n[sw->cpu_port] = P4ODP_TX_CPU;
	}
	for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++) {
		const struct p4odp_port *port = &sw->ports[i];

		if (p4odp_port_open(sw, i)) {
			w->tx_n[i] = 0;
			w->out[i] = port->out[id % port->n_out];
		}
	}
	return 0;
}

static void flush_port(struct p4odp_worker *w, uint32_t port_index)
{
	odp_pktout_queue_t queue = w->out[port_index];
	odp_packet_t *batch = w->tx[port_index];
	uint32_t n = w->tx_n[port_index], done = 0;

	while (done < n) {
		int sent = odp_pktout_send(queue, batch + done, (int)(n - done));
		if (sent <= 0)
			break;
		done += (uint32_t)sent;
	}
	p4odp_counter_add(&w->sent[port_index], done);
	if (done < n) {
		odp_packet_free_multi(batch + done, (int)(n - done));
		p4odp_counter_add(&w->drops[P4ODP_DROP_TX_FULL], n - done);
	}
	w->tx_n[port_index] = 0;
}

static void flush_all(struct p4odp_worker *w)
{
	for (uint64_t open = w->sw->open_ports; open; open &= open - 1) {
		uint32_t port = (uint32_t)__builtin_ctzll(open);

		if (w->tx_n[port])
			flush_port(w, port);
	}
}

/* Free the packets left in `ring` and the ring. */
static void free_ring(struct p4odp_packet_ring *ring)
{
	odp_packet_t pkts[P4ODP_PACKET_RING];

	if (ring)
		odp_packet_free_multi(pkts, (int)p4odp_ring_take(ring, pkts, P4ODP_PACKET_RING));
	free(ring);
}

void p4odp_worker_term(struct p4odp_worker *w)
{
	free_ring(w->to_cpu);
	free_ring(w->from_cpu);
	w->to_cpu = NULL;
	w->from_cpu = NULL;
}

uint64_t p4odp_time_us(const struct p4odp_pctx *pc)
{
	return (pc->burst_ns - pc->sw->started_ns) / 1000;
}

uint32_t p4odp_cpu_port(const struct p4odp_pctx *pc)
{
	return pc->sw->has_cpu_port ? pc->sw->cpu_port : P4ODP_PORT_NUMBERS;
}

bool p4odp_is_host_port(const struct p4odp_pctx *pc, uint64_t port)
{
	return port < P4ODP_MAX_PORTS && (pc->sw->host_ports >> port & 1);
}

void p4odp_count_drop(struct p4odp_pctx *pc, enum p4odp_drop_reason reason)
{
	p4odp_counter_add(&pc->worker->drops[reason], 1);
}

void p4odp_check_failed(struct p4odp_pctx *pc, const char *failure)
{
	if (pc->sw->asserts) {
		fprintf(stderr, "%s\n", failure);
		abort();
	}
}

/* `pkt` with its first `consumed` bytes replaced by `hdr_len` bytes at `hdrs`: its head
 * moved, the payload left where it is; the new first byte, NULL without the headroom. */
static uint8_t *replace_head(odp_packet_t pkt, const uint8_t *hdrs, uint32_t hdr_len, uint32_t consumed)
{
	uint8_t *data = hdr_len >= consumed ? odp_packet_push_head(pkt, hdr_len - consumed)
					    : odp_packet_pull_head(pkt, consumed - hdr_len);

	if (odp_likely(data != NULL))
		memcpy(data, hdrs, hdr_len);
	return data;
}

/* The received packet with the bytes the parser consumed replaced by the headers:
 * its head moved, the payload left where it is; nothing moved when the headers are
 * pc->data itself (p4odp_send).  ODP_PACKET_INVALID when that cannot be done (too
 * little headroom, nothing left of the packet). */
static odp_packet_t rewritten_in_place(struct p4odp_pctx *pc, const uint8_t *hdrs, uint32_t hdr_len)
{
	if (hdrs != pc->data && odp_unlikely(!replace_head(pc->pkt, hdrs, hdr_len, p4odp_parsed_bytes(pc))))
		return ODP_PACKET_INVALID;
	pc->in_place = 0;
	return pc->pkt;
}

/* A new packet: the headers, then a copy of the payload. */
static odp_packet_t new_copy(struct p4odp_pctx *pc, const uint8_t *hdrs, uint32_t hdr_len, uint32_t consumed)
{
	uint32_t payload = pc->len - consumed;
	odp_packet_t out = odp_packet_alloc(pc->sw->pool, hdr_len + payload);

	if (out == ODP_PACKET_INVALID)
		return out;
	uint8_t *data = odp_packet_data(out);
	memcpy(data, hdrs, hdr_len);
	memcpy(data + hdr_len, pc->data + consumed, payload);
	return out;
}

/* Cut `pkt` to `length` bytes when it is longer; false when that leaves nothing to send. */
static bool truncated(odp_packet_t pkt, uint64_t length)
{
	uint32_t len = odp_packet_len(pkt);

	if (length >= len)
		return true;
	return length && odp_packet_pull_tail(pkt, len - (uint32_t)length) != NULL;
}

/* The packet of `pc` as deparsed: its first bytes, those the parser consumed,
 * replaced by `hdr_len` bytes at `hdrs`; in place when it is this copy's own,
 * else a new packet.  ODP_PACKET_INVALID, counted, when there is no buffer. */
static odp_packet_t deparsed(struct p4odp_pctx *pc, const uint8_t *hdrs, uint32_t hdr_len)
{
	odp_packet_t out = ODP_PACKET_INVALID;

	if (pc->in_place)
		out = rewritten_in_place(pc, hdrs, hdr_len);
	if (out == ODP_PACKET_INVALID)
		out = new_copy(pc, hdrs, hdr_len, p4odp_parsed_bytes(pc));
	if (out == ODP_PACKET_INVALID)
		p4odp_count_drop(pc, P4ODP_DROP_NO_BUFFER);
	return out;
}

/* The packet to send, deparsed and cut as the program asked (truncate);
 * ODP_PACKET_INVALID, counted, when there is none. */
static odp_packet_t outgoing(struct p4odp_pctx *pc, const uint8_t *hdrs, uint32_t hdr_len)
{
	odp_packet_t out = deparsed(pc, hdrs, hdr_len);

	if (out == ODP_PACKET_INVALID)
		return out;
	/* Only a program that truncates, or a clone session's copy, is ever cut. */
	bool may_be_cut = p4odp_program.truncates || (p4odp_program.copies & P4ODP_USES_CLONE);

	if (may_be_cut && odp_unlikely(pc->truncate_to) && !truncated(out, pc->truncate_to - 1)) {
		odp_packet_free(out);
		p4odp_count_drop(pc, P4ODP_DROP_TRUNCATED);
		return ODP_PACKET_INVALID;
	}
	return out;
}

/* A packet to the CPU port: queued for the main thread, which sends it to
 * the control channel's clients that listen to packet-ins. */
__attribute__((noinline)) static void send_to_cpu(struct p4odp_pctx *pc, uint32_t port_index, const uint8_t *hdrs,
						  uint32_t hdr_len)
{
	if (!__atomic_load_n(&pc->sw->packet_listeners, __ATOMIC_RELAXED)) {
		p4odp_count_drop(pc, P4ODP_DROP_CPU_NO_LISTENER);
		return;
	}
	odp_packet_t out = outgoing(pc, hdrs, hdr_len);
	if (out == ODP_PACKET_INVALID)
		return;
	if (!p4odp_ring_put(pc->worker->to_cpu, out)) {
		odp_packet_free(out);
		p4odp_count_drop(pc, P4ODP_DROP_CPU_FULL);
		return;
	}
	p4odp_counter_add(&pc->worker->sent[port_index], 1);
}

void p4odp_send(struct p4odp_pctx *pc, uint32_t port_index, const uint8_t *hdrs, uint32_t hdr_len)
{
	struct p4odp_worker *w = pc->worker;
	uint32_t queued = port_index < P4ODP_PORT_NUMBERS ? w->tx_n[port_index] : P4ODP_TX_CLOSED;

	if (odp_unlikely(queued >= P4ODP_BURST)) {
		if (queued == P4ODP_TX_CLOSED) {
			p4odp_count_drop(pc, P4ODP_DROP_NO_PORT);
			return;
		}
		if (queued == P4ODP_TX_CPU) {
			send_to_cpu(pc, port_index, hdrs, hdr_len);
			return;
		}
		flush_port(w, port_index);
		queued = 0;
	}
	odp_packet_t out = outgoing(pc, hdrs, hdr_len);
	if (out == ODP_PACKET_INVALID)
		return;
	w->tx[port_index][queued] = out;
	w->tx_n[port_index] = (uint8_t)(queued + 1);
}

/* One copy through egress; `recirculate` is the recirculation ingress asked for that it carries (pc->tm's
 * form): as on BMv2, the packet's own copy carries it to the end of its egress, a replica or clone none. */
static void egress_copy(struct p4odp_pctx *pc, struct p4odp_packet_state *packet, const struct p4odp_copy *copy,
			uint16_t recirculate)
{
	/* Each copy's drop is counted for its own reason: not the overflow of the one before. */
	pc->out_overflow = 0;
	if (p4odp_program.copies & (P4ODP_USES_CLONE | P4ODP_USES_RECIRCULATE)) {
		pc->tm.clone_sessions[0] = 0;	/* what this egress asks for, not what ingress did */
		pc->tm.recirculate = recirculate;
	}
	if (!p4odp_program.egress(pc, packet, copy))
		p4odp_count_drop(pc, pc->out_overflow ? P4ODP_DROP_HEADERS_TOO_LONG : P4ODP_DROP_PROGRAM);
}

/* One copy through egress on its own copy of pc->pkt and of `state`, which
 * it may rewrite in place as the only copy's egress does, cut when sent as
 * `truncate_to` says (pc->truncate_to's form: a clone session's length); pc is
 * then as it was (pc->pkt not this copy's). */
static void egress_on_copy(struct p4odp_pctx *pc, const struct p4odp_packet_state *state,
			   const struct p4odp_copy *copy, uint64_t truncate_to)
{
	odp_packet_t from = pc->pkt;
	uint8_t in_place = pc->in_place;
	uint64_t own_truncate_to = pc->truncate_to;
	odp_packet_t own = odp_packet_copy(from, pc->sw->pool);

	if (own == ODP_PACKET_INVALID) {
		p4odp_count_drop(pc, P4ODP_DROP_NO_BUFFER);
		return;
	}
	struct p4odp_packet_state its = *state;
	pc->truncate_to = truncate_to;
	pc->pkt = own;
	pc->data = odp_packet_data(own);
	pc->in_place = 1;
	egress_copy(pc, &its, copy, 0);
	if (pc->in_place)  /* dropped: it never left */
		odp_packet_free(own);
	pc->pkt = from;
	pc->data = odp_packet_data(from);
	pc->in_place = in_place;
	pc->truncate_to = own_truncate_to;
}

/* One copy per replica of the group: every port of every node, in the order
 * the nodes were associated (BMv2's order), each egress on its own copy of
 * `packet` (the state ingress left, or a clone's) and of pc->pkt. */
static void replicate(struct p4odp_pctx *pc, uint32_t group, const struct p4odp_packet_state *packet,
		      enum p4odp_copy_kind kind, uint64_t truncate_to)
{
	/* Acquire: the copies are whole once the control plane has published them (control_replication.c);
	 * they stay until the worker's next quiescent state, after its burst. */
	const struct p4odp_mc_copies *copies =
		group < P4ODP_MAX_MC_GROUPS ? __atomic_load_n(&pc->sw->pre->mc_groups[group].copies, __ATOMIC_ACQUIRE) : NULL;

	if (!copies) {
		p4odp_count_drop(pc, P4ODP_DROP_EMPTY_GROUP);
		return;
	}
	for (uint32_t i = 0; i < copies->n; i++) {
		struct p4odp_copy copy = { copies->copy[i].port, copies->copy[i].rid, kind };
		egress_on_copy(pc, packet, &copy, truncate_to);
	}
}

/* Clone session `request` (1 + its id) as the control plane last set it; NULL: none.  Acquire:
 * whole once published; it stays until the worker's next quiescent state, after its burst. */
static const struct p4odp_clone_copies *clone_session(const struct p4odp_switch *sw, uint32_t request)
{
	return __atomic_load_n(&sw->pre->clone_sessions[(request - 1) % P4ODP_MAX_MIRROR_SESSIONS], __ATOMIC_ACQUIRE);
}

/* The copies of clone session `session`, each through egress on its own copy of `clone` and of
 * pc->pkt, cut to the session's length when sent. */
static void mirror(struct p4odp_pctx *pc, const struct p4odp_clone_copies *session,
		   const struct p4odp_packet_state *clone, enum p4odp_copy_kind kind)
{
	uint64_t truncate_to = session->truncate ? (uint64_t)session->truncate + 1 : 0;

	if (session->group) {
		replicate(pc, session->group, clone, kind, truncate_to);
		return;
	}
	for (uint32_t i = 0; i < session->n; i++) {
		struct p4odp_copy copy = { session->copy[i].port, session->copy[i].rid, kind };
		egress_on_copy(pc, clone, &copy, truncate_to);
	}
}

/* The clones that ingress asked for, slot by slot, before the packet's own
 * copies go (as BMv2 queues them); nothing for a session that is not
 * configured.  Out of line, as every path of clones, resubmits and
 * recirculations: the flatten of p4odp_tm_burst would put them (and a second
 * parser) in every packet's path. */
__attribute__((noinline)) static void ingress_clones(struct p4odp_pctx *pc, const struct p4odp_packet_state *packet,
						     const struct p4odp_tm_request *tm)
{
	for (uint32_t slot = 0; slot < P4ODP_CLONE_SLOTS; slot++) {
		const struct p4odp_clone_copies *session =
			tm->clone_sessions[slot] ? clone_session(pc->sw, tm->clone_sessions[slot]) : NULL;

		if (!session)
			continue;
		struct p4odp_packet_state clone;
		p4odp_program.clone(pc, &clone, packet, P4ODP_COPY_INGRESS_CLONE, tm->clone_fields);
		mirror(pc, session, &clone, P4ODP_COPY_INGRESS_CLONE);
	}
}

/* A pass to run after those queued, with `*state` where its state goes; NULL,
 * the packet counted as dropped, when the received packet has caused
 * P4ODP_MAX_PASSES already. */
static struct p4odp_pass *new_pass(struct p4odp_pctx *pc, struct p4odp_packet_state **state)
{
	struct p4odp_worker *w = pc->worker;

	if (w->n_passes == P4ODP_MAX_PASSES) {
		p4odp_count_drop(pc, P4ODP_DROP_TOO_MANY_PASSES);
		return NULL;
	}
	*state = &w->pass_states[w->n_passes];
	return &w->passes[w->n_passes++];
}

/* Ingress again for pc->pkt, as it was received, which the pass takes; false
 * when it cannot be queued (the caller still owns the packet). */
static bool resubmit(struct p4odp_pctx *pc, const struct p4odp_packet_state *packet, uint16_t fields)
{
	struct p4odp_packet_state *state;
	struct p4odp_pass *pass = new_pass(pc, &state);

	if (!pass)
		return false;
	*state = *packet;
	*pass = (struct p4odp_pass){ .pkt = pc->pkt, .ingress = true, .kind = P4ODP_ENTRY_RESUBMIT,
				     .fields = fields, .in_port = pc->in_port };
	return true;
}

__attribute__((noinline)) void p4odp_recirculate(struct p4odp_pctx *pc, const uint8_t *hdrs, uint32_t hdr_len,
						 const struct p4odp_packet_state *state)
{
	struct p4odp_packet_state *carried;
	odp_packet_t out = deparsed(pc, hdrs, hdr_len);

	if (out == ODP_PACKET_INVALID)
		return;
	struct p4odp_pass *pass = new_pass(pc, &carried);
	if (!pass) {
		odp_packet_free(out);
		return;
	}
	*carried = *state;
	*pass = (struct p4odp_pass){ .pkt = out, .ingress = true, .kind = P4ODP_ENTRY_RECIRCULATE,
				     .fields = (uint16_t)(pc->tm.recirculate - 1), .in_port = pc->in_port };
}

__attribute__((noinline)) void p4odp_egress_clone(struct p4odp_pctx *pc, const struct p4odp_packet_state *state,
						  const uint8_t *hdrs, uint32_t hdr_len)
{
	const struct p4odp_clone_copies *session = clone_session(pc->sw, pc->tm.clone_sessions[0]);
	struct p4odp_packet_state *clone;

	if (!session)
		return;
	odp_packet_t copy = hdrs ? new_copy(pc, hdrs, hdr_len, p4odp_parsed_bytes(pc))
				 : odp_packet_copy(pc->pkt, pc->sw->pool);  /* the bytes before the deparser */
	if (copy == ODP_PACKET_INVALID) {
		p4odp_count_drop(pc, P4ODP_DROP_NO_BUFFER);
		return;
	}
	struct p4odp_pass *pass = new_pass(pc, &clone);
	if (!pass) {
		odp_packet_free(copy);
		return;
	}
	p4odp_program.clone(pc, clone, state, P4ODP_COPY_EGRESS_CLONE, pc->tm.clone_fields);
	*pass = (struct p4odp_pass){ .pkt = copy, .in_port = pc->in_port, .cursor = hdrs ? 0 : pc->cursor,
				     .session = session };
}

bool p4odp_replace_headers(struct p4odp_pctx *pc, const uint8_t *hdrs, uint32_t hdr_len, uint32_t consumed)
{
	uint8_t *data = pc->in_place ? replace_head(pc->pkt, hdrs, hdr_len, consumed) : NULL;

	if (odp_unlikely(!data)) {
		p4odp_count_drop(pc, P4ODP_DROP_NO_BUFFER);
		return false;
	}
	pc->data = data;
	pc->len = odp_packet_len(pc->pkt);
	pc->csum_known = 0;	/* the checksums' sums were of the bytes as received */
	return true;
}

/* After ingress: its clones, then a resubmit, the replicas of a multicast
 * group, a drop or the one copy, as BMv2 decides; true when pc->pkt left (the
 * worker no longer owns it). */
static bool after_ingress(struct p4odp_pctx *pc, struct p4odp_packet_state *packet)
{
	const struct p4odp_tm_request tm = pc->tm;

	if ((p4odp_program.copies & P4ODP_USES_CLONE) &&
	    (tm.clone_sessions[0] | tm.clone_sessions[1] | tm.clone_sessions[2] | tm.clone_sessions[3]))
		ingress_clones(pc, packet, &tm);
	if ((p4odp_program.copies & P4ODP_USES_RESUBMIT) && tm.resubmit)
		return resubmit(pc, packet, (uint16_t)(tm.resubmit - 1));
	if (tm.mcast_group) {
		replicate(pc, tm.mcast_group, packet, P4ODP_COPY_REPLICA, 0);
	} else if (tm.drop) {
		p4odp_count_drop(pc, P4ODP_DROP_PROGRAM);
	} else {
		struct p4odp_copy copy = { tm.port, 0, P4ODP_COPY_NORMAL };
		pc->in_place = 1;
		egress_copy(pc, packet, &copy, tm.recirculate);
		return !pc->in_place;
	}
	return false;
}

/* What the contexts of a burst's packets share: the switch, the worker, the port, the burst's time. */
static void burst_context(struct p4odp_pctx *pc, struct p4odp_worker *w, uint32_t port)
{
	pc->sw = w->sw;
	pc->state = w->sw->state;
	pc->worker_state = w->state;
	pc->worker = w;
	pc->in_port = port;
	pc->burst_ns = w->burst_ns;
}

/* The rest of the context of packet `pkt`, at `burst_slot` of its burst (P4ODP_BURST: a packet
 * that begins ingress again, whose keys the burst did not look up).  Field by field, not a
 * compound literal, which would zero the whole context for every packet: the checksums' sums,
 * `out` and `out_bits` are written before they are read. */
static void packet_context(struct p4odp_pctx *pc, odp_packet_t pkt, uint32_t burst_slot)
{
	pc->pkt = pkt;
	pc->data = odp_packet_data(pkt);
	pc->len = odp_packet_len(pkt);
	pc->cursor = 0;
	pc->error = 0;
	pc->checksum_error = 0;
	pc->exited = 0;
	pc->out_overflow = 0;
	pc->in_place = 0;
	pc->truncate_to = 0;
	pc->csum_known = 0;
	pc->tm = (struct p4odp_tm_request){ 0 };
	pc->burst_slot = burst_slot;
}

/* One received packet through the pipeline, in `pc`, which burst_context set; true when it left
 * as the only copy (the worker no longer owns it). */
static bool process(struct p4odp_pctx *pc, odp_packet_t pkt, uint32_t burst_slot)
{
	/* A local: see struct p4odp_packet_state in p4odp_runtime.h. */
	struct p4odp_packet_state packet;

	packet_context(pc, pkt, burst_slot);
	p4odp_program.ingress(pc, &packet, NULL);
	return after_ingress(pc, &packet);
}

/* The passes the packet before caused, in order; each may queue more. */
__attribute__((noinline)) static void run_passes(struct p4odp_worker *w)
{
	for (uint32_t i = 0; i < w->n_passes; i++) {
		const struct p4odp_pass *pass = &w->passes[i];
		struct p4odp_pctx pc;
		bool left = false;

		burst_context(&pc, w, pass->in_port);
		packet_context(&pc, pass->pkt, P4ODP_BURST);
		if (pass->ingress) {
			struct p4odp_reentry again = { pass->kind, pass->fields, &w->pass_states[i] };
			struct p4odp_packet_state packet;
			p4odp_program.ingress(&pc, &packet, &again);
			left = after_ingress(&pc, &packet);
		} else {
			pc.cursor = pass->cursor;
			mirror(&pc, pass->session, &w->pass_states[i], P4ODP_COPY_EGRESS_CLONE);
		}
		if (!left)
			odp_packet_free(pass->pkt);
	}
	w->n_passes = 0;
}

/* Flattened: the whole per-packet path (the program's ingress and egress, the
 * lookups, p4odp_send) inlined into one loop, as a hand-written one is. */
__attribute__((flatten)) void p4odp_tm_burst(struct p4odp_worker *w, uint32_t port, odp_packet_t *pkts, uint32_t n)
{
	uint32_t kept = 0;	/* the packets that did not leave, moved to the front to be freed */
	struct p4odp_pctx pc;

	p4odp_counter_add(&w->received[port], n);
	if (w->sw->idle_timeouts || p4odp_program.timestamps)
		w->burst_ns = odp_time_global_ns();
	burst_context(&pc, w, port);
	/* The lookups of the whole burst first, their cache misses in parallel. */
	if (p4odp_program.lookup_burst)
		p4odp_program.lookup_burst(w->sw, w->state, pkts, n);
	/* Every packet's first bytes on their way to the cache (32 lines: a loop of
	 * its own costs less than a prefetch a few packets ahead in the next one),
	 * unless receiving did that. */
#ifndef ODP_BUNDLED_RECV_PREFETCHES
	for (uint32_t i = 0; i < n; i++)
		__builtin_prefetch(odp_packet_data(pkts[i]));
#endif
	for (uint32_t i = 0; i < n; i++) {
		bool left = false;
#ifndef ODP_BUNDLED_RECV_ONE_SEGMENT
		/* The datapath reads a packet as one buffer; a system ODP may hand in
		 * frames longer than a segment (pcap records, GRO) in several. */
		if (odp_unlikely(odp_packet_is_segmented(pkts[i]))) {
			p4odp_counter_add(&w->drops[P4ODP_DROP_SEGMENTED], 1);
			pkts[kept++] = pkts[i];
			continue;
		}
#endif
		left = process(&pc, pkts[i], i);
		if (p4odp_program.copies && w->n_passes)
			run_passes(w);
		if (!left)
			pkts[kept++] = pkts[i];
	}
	flush_all(w);
	if (kept)
		odp_packet_free_multi(pkts, (int)kept);
}

/* A total over workers that may be counting while it is read. */
static uint64_t sum(const struct p4odp_worker *workers, uint32_t n_workers, size_t offset)
{
	uint64_t total = 0;
	for (uint32_t k = 0; k < n_workers; k++)
		total += __atomic_load_n((const uint64_t *)((const char *)&workers[k] + offset), __ATOMIC_RELAXED);
	return total;
}

void p4odp_print_counters(const struct p4odp_switch *sw, const struct p4odp_worker *workers, uint32_t n_workers,
			  FILE *out)
{
	fprintf(out, "port  rx  tx  interface\n");
	for (uint32_t i = 0; i < P4ODP_PORT_NUMBERS; i++) {
		bool cpu = sw->has_cpu_port && i == sw->cpu_port;
		if (!p4odp_port_open(sw, i) && !cpu)
			continue;
		uint64_t rx = sum(workers, n_workers, offsetof(struct p4odp_worker, received[i]));
		uint64_t tx = sum(workers, n_workers, offsetof(struct p4odp_worker, sent[i]));
		fprintf(out, "%4u  %llu  %llu  %s\n", i, (unsigned long long)rx, (unsigned long long)tx,
			cpu ? "(CPU port: the control channel)" : sw->ports[i].name);
	}
	for (uint32_t r = 0; r < P4ODP_DROP_COUNT; r++) {
		uint64_t drops = sum(workers, n_workers, offsetof(struct p4odp_worker, drops[r]));
		if (drops)
			fprintf(out, "dropped %llu: %s\n", (unsigned long long)drops, drop_reasons[r]);
	}
	/* And what never reached a worker: frames an interface dropped on receiving, e.g. those that
	 * overflowed its ring while the pool had no buffer to take them into (the interface's count).
	 * Not a "dropped N:" line: those count what the ports' rx column received. */
	for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++) {
		odp_pktio_stats_t stats;
		if (p4odp_port_open(sw, i) && odp_pktio_stats(sw->ports[i].pktio, &stats) == 0 &&
		    stats.in_discards + stats.in_errors)
			fprintf(out, "port %u's interface dropped %llu frame(s) before the switch received them (no "
				"packet buffer, its ring full, or a frame it cannot take)\n",
				i, (unsigned long long)(stats.in_discards + stats.in_errors));
	}
}
