/*
 * The traffic manager (runtime/core/traffic_manager.c) alone, under a fake
 * pipeline: no P4 program, no compiler.
 *
 * A test packet's first bytes say what the fake ingress asks of the traffic
 * manager and what the fake egress does with each copy of it; egress logs
 * every call.  The switch's ports are bundled-ODP loop interfaces, so what the
 * traffic manager sends on a port is read back from it.  Each sub-test states
 * exactly the egress calls, the frames on every port and the worker's counters
 * it expects, and ends with every packet of the pool free again.
 *
 * One more sub-test meters from two threads at once, as two workers do.
 *
 * Usage: tm_test TEST   (prints "tm_test TEST: OK"); tm_test --list
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odp_test.h"
#include "switch.h"

/* What the current check is about, printed when it fails. */
static char context[256];

#define CHECK_EQ(got, want)                                                              \
	do {                                                                             \
		unsigned long long got_ = (unsigned long long)(got);                     \
		unsigned long long want_ = (unsigned long long)(want);                   \
		if (got_ != want_) {                                                     \
			fprintf(stderr, "%s:%d: %s: %s is %llu, expected %llu\n", __FILE__, \
				__LINE__, context, #got, got_, want_);                   \
			exit(1);                                                         \
		}                                                                        \
	} while (0)

static void set_context(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(context, sizeof context, fmt, ap);
	va_end(ap);
}

/* ---- The fake pipeline ---- */

/* A test packet's first bytes; fields of several bytes are big-endian. */
enum {
	AT_ACTION = 0,		/* enum action */
	AT_TARGET = 1,		/* 4 bytes: the port or the multicast group */
	AT_RULE = 5,		/* enum egress_rule */
	AT_SEQ = 6,		/* 4 bytes: the packet's number in its sub-test */
	AT_PARSED = 10,		/* bytes the parser consumes: pc->cursor / 8 */
	AT_HDR_LEN = 11,	/* 2 bytes: header bytes egress emits */
	TEST_HEADER_LEN = 13,
};

/* What ingress asks of the traffic manager. */
enum action {
	ACT_UNICAST = 1,
	ACT_DROP,
	ACT_MULTICAST,
	ACT_MULTICAST_AND_DROP,	/* both: the group wins, as in BMv2 */
};

/* What egress does with each copy. */
enum egress_rule {
	EGRESS_SEND,		/* emit the packet's header bytes and send */
	EGRESS_DROP,		/* drop every copy */
	EGRESS_BY_RID,		/* by rid % 3: 0 sends, 1 emits too many header bits, 2 drops */
};

/* The per-packet state ingress fills, which the traffic manager keeps in a
 * local of this type (p4odp_runtime.h). */
struct p4odp_packet_state {
	uint32_t seq;
	uint32_t target;
	uint32_t in_port;
	uint32_t len;
	uint16_t hdr_len;
	uint8_t action;
	uint8_t rule;
	uint8_t parsed;
	uint8_t scratch[63];	/* ingress fills it; each egress overwrites it in its copy */
};

/* The program's extern state. */
struct fake_state {
	uint64_t ingress_calls;
	uint64_t egress_calls;
};

/* One egress call, as egress saw it. */
struct egress_call {
	uint32_t seq;
	uint32_t port;
	uint32_t rid;
	enum p4odp_copy_kind kind;
	uint32_t in_port;
	odp_packet_t pkt;
	uint64_t port_sent_before;	/* packets the copy's port had sent when egress ran */
	bool pristine;			/* the state was as ingress left it */
};

#define MAX_CALLS 8192
static struct egress_call calls[MAX_CALLS];
static uint32_t n_calls;

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The state ingress makes of a packet: egress recomputes it to see whether
 * its copy is intact. */
static void fake_state_of(const uint8_t *d, uint32_t len, uint32_t in_port, struct p4odp_packet_state *p)
{
	memset(p, 0, sizeof *p);
	p->action = d[AT_ACTION];
	p->target = get32(d + AT_TARGET);
	p->rule = d[AT_RULE];
	p->seq = get32(d + AT_SEQ);
	p->parsed = d[AT_PARSED] < len ? d[AT_PARSED] : (uint8_t)len;	/* as a parser: no more than the packet holds */
	p->hdr_len = (uint16_t)(d[AT_HDR_LEN] << 8 | d[AT_HDR_LEN + 1]);
	p->in_port = in_port;
	p->len = len;
	for (uint32_t i = 0; i < sizeof p->scratch; i++)
		p->scratch[i] = (uint8_t)(p->seq * 31 + i);
}

static void fake_ingress(struct p4odp_pctx *pc, struct p4odp_packet_state *p, const struct p4odp_reentry *again)
{
	CHECK(!again);	/* the fake program asks for no copies */
	CHECK(pc->sw && pc->worker && pc->worker->sw == pc->sw && pc->state == pc->sw->state);
	CHECK(pc->data == odp_packet_data(pc->pkt) && pc->len == odp_packet_len(pc->pkt));
	CHECK(pc->len >= TEST_HEADER_LEN);
	((struct fake_state *)pc->state)->ingress_calls++;
	fake_state_of(pc->data, pc->len, pc->in_port, p);
	pc->cursor = p->parsed * 8u;
	pc->tm.mcast_group = p->action == ACT_MULTICAST || p->action == ACT_MULTICAST_AND_DROP ? p->target : 0;
	pc->tm.port = p->action == ACT_MULTICAST ? 0 : p->target;
	pc->tm.drop = p->action == ACT_DROP || p->action == ACT_MULTICAST_AND_DROP;
}

/* Byte i of the headers egress emits for a copy: who it is, then a pattern. */
static uint8_t header_byte(uint32_t seq, uint32_t port, uint32_t rid, enum p4odp_copy_kind kind, uint32_t i)
{
	switch (i) {
	case 0: return (uint8_t)(0xC0 | kind);
	case 1: return (uint8_t)port;
	case 2: return (uint8_t)(rid >> 8);
	case 3: return (uint8_t)rid;
	case 4: case 5: case 6: case 7: return (uint8_t)(seq >> (8 * (7 - i)));
	default: return (uint8_t)(seq * 7 + port * 3 + rid + i);
	}
}

static uint64_t port_sent(const struct p4odp_switch *sw, uint32_t port)
{
	odp_pktio_stats_t stats;

	if (!p4odp_port_open(sw, port))
		return 0;
	CHECK(odp_pktio_stats(sw->ports[port].pktio, &stats) == 0);
	return stats.out_packets;
}

/* Like a generated egress: changes the state it is given (the TM's copy for a
 * replica), deparses through p4odp_emit_room, ends in p4odp_send.  It leaves
 * pc->out_overflow alone unless it runs out of room: telling one copy's drop
 * from the next is the TM's job. */
static bool fake_egress(struct p4odp_pctx *pc, struct p4odp_packet_state *p, const struct p4odp_copy *copy)
{
	struct p4odp_packet_state want;
	uint8_t out[P4ODP_MAX_HEADER_BITS / 8];

	((struct fake_state *)pc->state)->egress_calls++;
	fake_state_of(pc->data, pc->len, pc->in_port, &want);
	CHECK(pc->cursor == p->parsed * 8u && pc->data == odp_packet_data(pc->pkt));
	CHECK(n_calls < MAX_CALLS);
	calls[n_calls++] = (struct egress_call){
		.seq = p->seq,
		.port = copy->port,
		.rid = copy->rid,
		.kind = copy->kind,
		.in_port = pc->in_port,
		.pkt = pc->pkt,
		.port_sent_before = port_sent(pc->sw, copy->port),
		.pristine = memcmp(p, &want, sizeof *p) == 0,
	};
	/* This copy's changes, which no other copy may see. */
	memset(p->scratch, 0xEE, sizeof p->scratch);
	p->seq = ~p->seq;
	p->hdr_len = 7;

	uint32_t hdr_len = want.hdr_len;
	if (p->rule == EGRESS_DROP || (p->rule == EGRESS_BY_RID && copy->rid % 3 == 2))
		return false;
	if (p->rule == EGRESS_BY_RID && copy->rid % 3 == 1)
		hdr_len = P4ODP_MAX_HEADER_BITS / 8 + 1;
	pc->out = out;
	pc->out_bits = 0;
	for (uint32_t i = 0; i < hdr_len; i++) {
		if (!p4odp_emit_room(pc, 8))
			return false;
		out[i] = header_byte(want.seq, copy->port, copy->rid, copy->kind, i);
		pc->out_bits += 8;
	}
	p4odp_send(pc, copy->port, out, pc->out_bits / 8);
	return true;
}

const struct p4odp_program p4odp_program = {
	.name = "tm_test",
	.state_size = sizeof(struct fake_state),
	.ingress = fake_ingress,
	.egress = fake_egress,
};

/* ---- The switch under test ---- */

#define POOL_LEN 4096
#define SMALL_RING 4		/* packets a port with a small ring holds */

static struct p4odp_switch sw;
static struct p4odp_worker workers[2];
static struct p4odp_worker *const w = &workers[0];
static uint32_t pool_num;
static uint32_t pool_headroom;	/* of every packet of the pool */

static int odp_log(odp_log_level_t level, const char *fmt, ...)
{
	va_list args;
	int r;

	if (level == ODP_LOG_PRINT || level == ODP_LOG_DBG)
		return 0;
	va_start(args, fmt);
	r = vfprintf(stderr, fmt, args);
	va_end(args);
	return r;
}

/* Port `index` on loop interface "loopINDEX", set up as the switch's main.c does;
 * `ring`: packets its input holds (0: the default). */
static void open_port(uint32_t index, uint32_t ring)
{
	struct p4odp_port *port = &sw.ports[index];
	odp_pktio_param_t param;
	odp_pktio_config_t config;
	odp_pktin_queue_param_t in_param;
	odp_pktout_queue_param_t out_param;

	snprintf(port->name, sizeof port->name, "loop%u", index);
	odp_pktio_param_init(&param);
	param.in_mode = ODP_PKTIN_MODE_DIRECT;
	param.out_mode = ODP_PKTOUT_MODE_DIRECT;
	port->pktio = odp_pktio_open(port->name, sw.pool, &param);
	CHECK(port->pktio != ODP_PKTIO_INVALID);
	odp_pktio_config_init(&config);
	config.parser.layer = ODP_PROTO_LAYER_NONE;
	CHECK(odp_pktio_config(port->pktio, &config) == 0);
	odp_pktin_queue_param_init(&in_param);
	in_param.queue_size[0] = ring;
	odp_pktout_queue_param_init(&out_param);
	CHECK(odp_pktin_queue_config(port->pktio, &in_param) == 0);
	CHECK(odp_pktout_queue_config(port->pktio, &out_param) == 0);
	CHECK(odp_pktin_queue(port->pktio, port->in, 1) == 1);
	CHECK(odp_pktout_queue(port->pktio, port->out, 1) == 1);
	port->n_in = port->n_out = 1;
	CHECK(odp_pktio_start(port->pktio) == 0);
	sw.open_ports |= UINT64_C(1) << index;
}

static void switch_up(uint64_t ports, uint64_t small_rings, uint32_t packets)
{
	odp_init_t init;
	odp_pool_param_t pool;

	odp_init_param_init(&init);
	init.log_fn = odp_log;
	init.num_worker = 0;
	init.num_control = 1;
	CHECK(odp_init_global(&sw.instance, &init, NULL) == 0);
	CHECK(odp_init_local(sw.instance, ODP_THREAD_CONTROL) == 0);
	odp_pool_param_init(&pool);
	pool.type = ODP_POOL_PACKET;
	pool.pkt.num = packets;
	pool.pkt.len = POOL_LEN;
	pool.pkt.seg_len = POOL_LEN;
	pool.pkt.max_len = POOL_LEN;
	sw.pool = odp_pool_create("tm_test", &pool);
	CHECK(sw.pool != ODP_POOL_INVALID);
	pool_num = packets;
	odp_packet_t probe = odp_packet_alloc(sw.pool, 1);
	CHECK(probe != ODP_PACKET_INVALID);
	pool_headroom = odp_packet_headroom(probe);
	odp_packet_free(probe);
	static struct p4odp_replication pre;
	sw.pre = &pre;
	sw.datapath = &p4odp_datapath;
	sw.workers = workers;
	sw.n_workers = 2;
	CHECK(p4odp_rcu_create(&sw.rcu) == 0);
	CHECK(p4odp_program_init(&sw) == 0);
	for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++)
		if (ports >> i & 1)
			open_port(i, small_rings >> i & 1 ? SMALL_RING : 0);
	/* After the ports, as main.c: a worker's transmit batches are those of the open ports. */
	for (uint32_t i = 0; i < 2; i++)
		CHECK(p4odp_worker_init(&workers[i], &sw, i) == 0);
}

static void switch_down(void)
{
	for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++)
		if (p4odp_port_open(&sw, i)) {
			CHECK(odp_pktio_stop(sw.ports[i].pktio) == 0);
			CHECK(odp_pktio_close(sw.ports[i].pktio) == 0);
		}
	for (uint32_t i = 0; i < 2; i++)
		p4odp_worker_term(&workers[i]);
	p4odp_replication_destroy(&sw);
	p4odp_program_destroy(&sw);
	CHECK(p4odp_rcu_destroy(sw.rcu) == 0);
	CHECK(odp_pool_destroy(sw.pool) == 0);
	CHECK(odp_term_local() == 0);
	CHECK(odp_term_global(sw.instance) == 0);
}

/* Run a simple_switch_CLI command that must succeed; returns what it printed
 * (the caller frees it). */
static char *command(const char *fmt, ...)
{
	char line[8192], err[512];
	char *text = NULL;
	size_t size = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	FILE *out = open_memstream(&text, &size);
	CHECK(out != NULL);
	int rc = p4odp_cli_command(&sw, line, out, err, sizeof err);
	fclose(out);
	if (rc) {
		fprintf(stderr, "'%s' failed: %s\n", line, err);
		exit(1);
	}
	return text;
}

/* A multicast node as the test knows it: rid and ports in command order. */
struct node {
	uint32_t rid;
	uint32_t n_ports;
	uint32_t ports[P4ODP_MAX_PORTS];
	uint32_t handle;
};

/* A node of rid R on the ports that follow. */
#define NODE(r, ...)                                                                 \
	{ .rid = (r), .n_ports = sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t), \
	  .ports = { __VA_ARGS__ } }

/* A multicast group as the test knows it: nodes in association order. */
struct group {
	uint32_t id;
	uint32_t n_nodes;
	const struct node *nodes[P4ODP_MAX_GROUP_NODES];
};

static void node_create(struct node *n)
{
	char line[1024];
	int len = snprintf(line, sizeof line, "mc_node_create %u", n->rid);

	for (uint32_t i = 0; i < n->n_ports; i++)
		len += snprintf(line + len, sizeof line - (size_t)len, " %u", n->ports[i]);
	char *text = command("%s", line);
	unsigned handle;
	char end;
	CHECK(sscanf(text, "Node was created with handle %u%c", &handle, &end) == 2 && end == '\n');
	free(text);
	n->handle = handle;
}

static void group_create(struct group *g, uint32_t id)
{
	g->id = id;
	g->n_nodes = 0;
	free(command("mc_mgrp_create %u", id));
}

static void group_add(struct group *g, const struct node *n)
{
	free(command("mc_node_associate %u %u", g->id, n->handle));
	g->nodes[g->n_nodes++] = n;
}

/* ---- Test packets and what the test expects of them ---- */

#define MAX_PACKETS 512
#define PACKET_MAX_LEN 256

struct test_packet {
	uint8_t bytes[PACKET_MAX_LEN];
	uint32_t len;
	uint32_t in_port;
	odp_packet_t handle;	/* the packet its burst handed the TM */
};

static struct test_packet packets[MAX_PACKETS];
static uint32_t n_packets;

/* A copy's fate: SENT, or the reason it is dropped. */
#define SENT (-1)

struct copy_want {
	uint32_t seq;
	uint32_t port;
	uint32_t rid;
	enum p4odp_copy_kind kind;
	int fate;
};

static struct copy_want want_calls[MAX_CALLS];
static uint32_t n_want;
static uint64_t want_rx[P4ODP_PORT_NUMBERS], want_tx[P4ODP_PORT_NUMBERS], want_drops[P4ODP_DROP_COUNT];

/* The bytes the fake parser consumes of packet `seq` (fake_ingress). */
static uint32_t parsed_of(uint32_t seq)
{
	uint32_t asked = packets[seq].bytes[AT_PARSED];

	return asked < packets[seq].len ? asked : packets[seq].len;
}

static uint32_t hdr_len_of(uint32_t seq)
{
	return (uint32_t)(packets[seq].bytes[AT_HDR_LEN] << 8 | packets[seq].bytes[AT_HDR_LEN + 1]);
}

/* Does the copy leave in the packet its egress was given (the received one
 * for the only copy, the TM's copy of it for a replica), not in a new one?
 * It does when its headers fit in what was parsed and the headroom, and
 * something is left to send. */
static bool leaves_in_place(const struct copy_want *want)
{
	uint32_t len = packets[want->seq].len;
	uint32_t parsed = parsed_of(want->seq);
	uint32_t hdr_len = hdr_len_of(want->seq);

	return hdr_len <= parsed + pool_headroom && (hdr_len > 0 || parsed < len);
}

/* A test packet of `len` bytes: its header, then a pattern of its own. */
static odp_packet_t test_packet(enum action action, uint32_t target, enum egress_rule rule, uint32_t parsed,
				uint32_t hdr_len, uint32_t len)
{
	CHECK(n_packets < MAX_PACKETS && len >= TEST_HEADER_LEN && len <= PACKET_MAX_LEN && parsed < 256);
	uint32_t seq = n_packets++;
	struct test_packet *t = &packets[seq];

	t->len = len;
	for (uint32_t i = TEST_HEADER_LEN; i < len; i++)
		t->bytes[i] = (uint8_t)(seq * 13 + i * 5 + 1);
	t->bytes[AT_ACTION] = (uint8_t)action;
	put32(t->bytes + AT_TARGET, target);
	t->bytes[AT_RULE] = (uint8_t)rule;
	put32(t->bytes + AT_SEQ, seq);
	t->bytes[AT_PARSED] = (uint8_t)parsed;
	t->bytes[AT_HDR_LEN] = (uint8_t)(hdr_len >> 8);
	t->bytes[AT_HDR_LEN + 1] = (uint8_t)hdr_len;
	t->handle = odp_packet_alloc(sw.pool, len);
	CHECK(t->handle != ODP_PACKET_INVALID);
	memcpy(odp_packet_data(t->handle), t->bytes, len);
	return t->handle;
}

static odp_packet_t unicast(uint32_t port)
{
	return test_packet(ACT_UNICAST, port, EGRESS_SEND, TEST_HEADER_LEN, 12, 60);
}

static odp_packet_t multicast(uint32_t group)
{
	return test_packet(ACT_MULTICAST, group, EGRESS_SEND, TEST_HEADER_LEN, 12, 60);
}

/* Run a burst received on `in_port` through worker `worker`. */
static void burst_on(struct p4odp_worker *worker, uint32_t in_port, odp_packet_t *pkts, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct test_packet *t = &packets[get32((uint8_t *)odp_packet_data(pkts[i]) + AT_SEQ)];
		t->in_port = in_port;
		t->handle = pkts[i];
	}
	if (worker == w)
		want_rx[in_port] += n;
	p4odp_tm_burst(worker, in_port, pkts, n);
}

static void burst(uint32_t in_port, odp_packet_t *pkts, uint32_t n)
{
	burst_on(w, in_port, pkts, n);
}

/* An egress call with its fate given. */
static void want_copy_fate(uint32_t seq, uint32_t port, uint32_t rid, enum p4odp_copy_kind kind, int fate)
{
	CHECK(n_want < MAX_CALLS);
	want_calls[n_want++] = (struct copy_want){ seq, port, rid, kind, fate };
	if (fate == SENT)
		want_tx[port]++;
	else
		want_drops[fate]++;
}

/* An egress call whose fate follows from the packet's egress rule and the ports. */
static void want_copy(uint32_t seq, uint32_t port, uint32_t rid, enum p4odp_copy_kind kind)
{
	uint8_t rule = packets[seq].bytes[AT_RULE];
	int fate = SENT;

	if (rule == EGRESS_DROP || (rule == EGRESS_BY_RID && rid % 3 == 2))
		fate = P4ODP_DROP_PROGRAM;
	else if ((rule == EGRESS_BY_RID && rid % 3 == 1) || hdr_len_of(seq) > P4ODP_MAX_HEADER_BITS / 8)
		fate = P4ODP_DROP_HEADERS_TOO_LONG;
	else if (!p4odp_port_open(&sw, port))
		fate = P4ODP_DROP_NO_PORT;
	want_copy_fate(seq, port, rid, kind, fate);
}

static void want_unicast(uint32_t seq, uint32_t port)
{
	want_copy(seq, port, 0, P4ODP_COPY_NORMAL);
}

/* The copies of a packet sent to group `g`: nodes in association order, ports
 * in node order. */
static void want_multicast(uint32_t seq, const struct group *g)
{
	uint32_t copies = 0;

	for (uint32_t i = 0; i < g->n_nodes; i++)
		for (uint32_t j = 0; j < g->nodes[i]->n_ports; j++, copies++)
			want_copy(seq, g->nodes[i]->ports[j], g->nodes[i]->rid, P4ODP_COPY_REPLICA);
	if (!copies)
		want_drops[P4ODP_DROP_EMPTY_GROUP]++;
}

/* A packet dropped before egress. */
static void want_drop(enum p4odp_drop_reason reason)
{
	want_drops[reason]++;
}

/* The frame a copy becomes: its headers, then what the parser did not consume. */
static uint32_t expected_frame(const struct copy_want *c, uint8_t *frame)
{
	const struct test_packet *t = &packets[c->seq];
	uint32_t hdr_len = hdr_len_of(c->seq);
	uint32_t parsed = parsed_of(c->seq);

	for (uint32_t i = 0; i < hdr_len; i++)
		frame[i] = header_byte(c->seq, c->port, c->rid, c->kind, i);
	memcpy(frame + hdr_len, t->bytes + parsed, t->len - parsed);
	return hdr_len + t->len - parsed;
}

/* Everything the bursts since the last check did is what the test expects:
 * the egress calls, the frames on each port (read and freed), the counters. */
static void check(void)
{
	static uint8_t frame[P4ODP_MAX_HEADER_BITS / 8 + PACKET_MAX_LEN];

	CHECK_EQ(n_calls, n_want);
	for (uint32_t i = 0; i < n_calls; i++) {
		const struct egress_call *got = &calls[i];
		const struct copy_want *want = &want_calls[i];
		set_context("egress call %u", i);
		CHECK_EQ(got->seq, want->seq);
		CHECK_EQ(got->port, want->port);
		CHECK_EQ(got->rid, want->rid);
		CHECK_EQ(got->kind, want->kind);
		CHECK_EQ(got->in_port, packets[want->seq].in_port);
		/* The only copy's egress rewrites the received packet; a replica's, a copy of it. */
		CHECK_EQ(got->pkt == packets[want->seq].handle, want->kind == P4ODP_COPY_NORMAL);
		CHECK_EQ(got->pristine, true);
	}
	for (uint32_t port = 0; port < P4ODP_MAX_PORTS; port++) {
		if (!p4odp_port_open(&sw, port))
			continue;
		uint32_t k = 0;
		for (;;) {
			odp_packet_t pkt;
			int n = odp_pktin_recv(sw.ports[port].in[0], &pkt, 1);
			CHECK(n >= 0);
			if (n == 0)
				break;
			while (k < n_want && (want_calls[k].port != port || want_calls[k].fate != SENT))
				k++;
			set_context("port %u: frame of egress call %u", port, k);
			CHECK(k < n_want);
			uint32_t len = expected_frame(&want_calls[k], frame);
			CHECK_EQ(odp_packet_len(pkt), len);
			CHECK(memcmp(odp_packet_data(pkt), frame, len) == 0);
			CHECK_EQ(pkt == calls[k].pkt, leaves_in_place(&want_calls[k]));
			odp_packet_free(pkt);
			k++;
		}
		set_context("port %u: frames", port);
		while (k < n_want && (want_calls[k].port != port || want_calls[k].fate != SENT))
			k++;
		CHECK_EQ(k, n_want);
	}
	for (uint32_t port = 0; port < P4ODP_PORT_NUMBERS; port++) {	/* the CPU port's too */
		set_context("port %u: counters", port);
		CHECK_EQ(w->received[port], want_rx[port]);
		CHECK_EQ(w->sent[port], want_tx[port]);
	}
	for (uint32_t r = 0; r < P4ODP_DROP_COUNT; r++) {
		set_context("drop reason %u", r);
		CHECK_EQ(w->drops[r], want_drops[r]);
	}
	n_calls = 0;
	n_want = 0;
	set_context("after the check");
}

/* The pool's free packets, counted by taking them all. */
static uint32_t pool_free(void)
{
	odp_packet_t *pkts = malloc(sizeof *pkts * pool_num);
	uint32_t n = 0;

	CHECK(pkts != NULL);
	while (n < pool_num && (pkts[n] = odp_packet_alloc(sw.pool, 64)) != ODP_PACKET_INVALID)
		n++;
	odp_packet_free_multi(pkts, (int)n);
	free(pkts);
	return n;
}

/* ---- The sub-tests ---- */

/* One copy to the port ingress chose, with the headers egress emitted in
 * place of the bytes the parser consumed. */
static void test_unicast(void)
{
	odp_packet_t pkts[6] = {
		test_packet(ACT_UNICAST, 1, EGRESS_SEND, 14, 14, 60),	/* headers as long as parsed */
		test_packet(ACT_UNICAST, 2, EGRESS_SEND, 20, 4, 64),	/* shorter */
		test_packet(ACT_UNICAST, 3, EGRESS_SEND, 13, 40, 100),	/* longer */
		test_packet(ACT_UNICAST, 0, EGRESS_SEND, 0, 0, 60),	/* nothing parsed nor emitted */
		test_packet(ACT_UNICAST, 1, EGRESS_SEND, 200, 12, 60),	/* parsed past the end */
		test_packet(ACT_UNICAST, 1, EGRESS_SEND, 60, 12, 60),	/* parsed to the end */
	};
	burst(0, pkts, 6);
	want_unicast(0, 1);
	want_unicast(1, 2);
	want_unicast(2, 3);
	want_unicast(3, 0);
	want_unicast(4, 1);
	want_unicast(5, 1);
	check();

	odp_packet_t more[3] = { unicast(2), unicast(2), unicast(0) };
	burst(3, more, 3);
	burst(2, more, 0);
	want_unicast(6, 2);
	want_unicast(7, 2);
	want_unicast(8, 0);
	check();
	CHECK_EQ(((struct fake_state *)sw.state)->ingress_calls, 9);
	CHECK_EQ(((struct fake_state *)sw.state)->egress_calls, 9);
}

/* One egress call per (node, port): nodes in association order, ports in node
 * order, each with its rid, P4ODP_COPY_REPLICA and the state as ingress left it. */
static void test_multicast(void)
{
	/* a2: a's twin, as a node is in one group at most. */
	static struct node a = NODE(10, 1, 2), b = NODE(11, 3), c = NODE(12, 2, 4, 5), d = NODE(13, 6), a2 = NODE(10, 1, 2);
	static struct group g1, g2;

	node_create(&a);
	node_create(&b);
	node_create(&c);
	node_create(&d);
	node_create(&a2);
	CHECK(a.handle == 0 && b.handle == 1 && c.handle == 2 && d.handle == 3);
	group_create(&g1, 1);
	group_add(&g1, &c);
	group_add(&g1, &a);
	group_add(&g1, &b);
	group_create(&g2, 2);
	group_add(&g2, &d);
	group_add(&g2, &a2);

	odp_packet_t pkts[4] = { multicast(1), unicast(7), multicast(2), multicast(1) };
	burst(0, pkts, 4);
	/* Written out, not derived from the groups. */
	static const struct {
		uint32_t seq, port, rid;
	} order[] = {
		{ 0, 2, 12 }, { 0, 4, 12 }, { 0, 5, 12 }, { 0, 1, 10 }, { 0, 2, 10 }, { 0, 3, 11 },
		{ 1, 7, 0 },
		{ 2, 6, 13 }, { 2, 1, 10 }, { 2, 2, 10 },
		{ 3, 2, 12 }, { 3, 4, 12 }, { 3, 5, 12 }, { 3, 1, 10 }, { 3, 2, 10 }, { 3, 3, 11 },
	};
	for (uint32_t i = 0; i < sizeof order / sizeof order[0]; i++)
		want_copy(order[i].seq, order[i].port, order[i].rid,
			  order[i].seq == 1 ? P4ODP_COPY_NORMAL : P4ODP_COPY_REPLICA);
	check();

	/* The same from another port, through the helper that derives copies from groups. */
	odp_packet_t again[2] = { multicast(2), multicast(1) };
	burst(5, again, 2);
	want_multicast(4, &g2);
	want_multicast(5, &g1);
	check();
}

/* Groups and nodes changed between bursts: the copies follow each change (mc_node_update,
 * mc_node_dissociate, mc_node_destroy, mc_mgrp_destroy); a node is in one group at most, and a
 * refused command changes nothing. */
static void test_multicast_changes(void)
{
	static struct node a = NODE(10, 1, 2), b = NODE(11, 3), c = NODE(12, 4);
	static struct group g, other;
	char line[64], err[256];

	node_create(&a);
	node_create(&b);
	node_create(&c);
	group_create(&g, 5);
	group_add(&g, &a);
	group_add(&g, &b);
	group_add(&g, &c);
	group_create(&other, 6);
	snprintf(line, sizeof line, "mc_node_associate 6 %u", a.handle);
	CHECK(p4odp_cli_command(&sw, line, NULL, err, sizeof err) == -1);
	CHECK(p4odp_cli_command(&sw, "mc_node_update 999 1", NULL, err, sizeof err) == -1);
	snprintf(line, sizeof line, "mc_node_update %u 1 512", a.handle);
	CHECK(p4odp_cli_command(&sw, line, NULL, err, sizeof err) == -1);
	odp_packet_t before[1] = { multicast(5) };
	burst(0, before, 1);
	want_multicast(0, &g);
	check();

	free(command("mc_node_update %u 5 1", a.handle));
	a.n_ports = 2;
	a.ports[0] = 1;
	a.ports[1] = 5;
	free(command("mc_node_dissociate 5 %u", b.handle));
	free(command("mc_node_destroy %u", c.handle));
	g.nodes[1] = NULL;
	g.n_nodes = 1;
	group_add(&other, &b);	/* free again */
	odp_packet_t after[2] = { multicast(5), multicast(6) };
	burst(0, after, 2);
	want_multicast(1, &g);
	want_multicast(2, &other);
	check();

	free(command("mc_mgrp_destroy 5"));
	g.n_nodes = 0;
	odp_packet_t gone[1] = { multicast(5) };
	burst(0, gone, 1);
	want_multicast(3, &g);
	check();
}

/* The CPU port: what is sent there is dropped while no control channel client listens, goes to
 * the worker's ring while one does, and is dropped when the ring is full; a packet_out enters as
 * received on the CPU port. */
#define CPU_PORT 100

static void test_cpu_port(void)
{
	CHECK(p4odp_ctl_packet_out(&sw, (const uint8_t *)"", 1) == -ENODEV);	/* no CPU port yet */
	sw.has_cpu_port = true;
	sw.cpu_port = CPU_PORT;
	p4odp_worker_term(w);
	CHECK(p4odp_worker_init(w, &sw, 0) == 0);

	odp_packet_t unheard[1] = { unicast(CPU_PORT) };
	burst(0, unheard, 1);
	want_copy_fate(0, CPU_PORT, 0, P4ODP_COPY_NORMAL, P4ODP_DROP_CPU_NO_LISTENER);
	check();

	sw.packet_listeners = 1;
	uint32_t first = n_packets;
	for (uint32_t sent = 0; sent < P4ODP_PACKET_RING + 2; sent += P4ODP_BURST / 2) {
		odp_packet_t heard[P4ODP_BURST / 2];
		for (uint32_t i = 0; i < P4ODP_BURST / 2; i++)
			heard[i] = unicast(CPU_PORT);
		burst(0, heard, P4ODP_BURST / 2);
	}
	for (uint32_t seq = first; seq < n_packets; seq++)
		want_copy_fate(seq, CPU_PORT, 0, P4ODP_COPY_NORMAL,
			       seq - first < P4ODP_PACKET_RING ? SENT : P4ODP_DROP_CPU_FULL);
	/* The ring holds the first P4ODP_PACKET_RING as sent, in order. */
	static uint8_t frame[P4ODP_MAX_HEADER_BITS / 8 + PACKET_MAX_LEN];
	odp_packet_t queued[P4ODP_PACKET_RING];
	CHECK_EQ(p4odp_ring_take(w->to_cpu, queued, P4ODP_PACKET_RING), P4ODP_PACKET_RING);
	for (uint32_t k = 0; k < P4ODP_PACKET_RING; k++) {
		set_context("packet-in %u", k);
		uint32_t len = expected_frame(&want_calls[k], frame);
		CHECK_EQ(odp_packet_len(queued[k]), len);
		CHECK(memcmp(odp_packet_data(queued[k]), frame, len) == 0);
	}
	odp_packet_free_multi(queued, P4ODP_PACKET_RING);
	check();

	odp_packet_t model = unicast(1);	/* its bytes come back through p4odp_ctl_packet_out */
	uint32_t seq = n_packets - 1;
	odp_packet_free(model);
	CHECK(p4odp_ctl_packet_out(&sw, packets[seq].bytes, packets[seq].len) == 0);
	odp_packet_t injected[1];
	CHECK_EQ(p4odp_ring_take(w->from_cpu, injected, 1), 1);
	burst_on(w, CPU_PORT, injected, 1);
	want_unicast(seq, 1);
	check();
}

/* Egress drops: every copy (PROGRAM each), or some copies of a group. */
static void test_egress_drop(void)
{
	static struct node n1 = NODE(1, 1, 2), n2 = NODE(2, 3), n3 = NODE(3, 1, 3);
	static struct group g;

	node_create(&n1);
	node_create(&n2);
	node_create(&n3);
	group_create(&g, 40);
	group_add(&g, &n1);
	group_add(&g, &n2);
	group_add(&g, &n3);

	odp_packet_t pkts[4] = {
		test_packet(ACT_UNICAST, 1, EGRESS_DROP, 13, 12, 60),
		test_packet(ACT_MULTICAST, 40, EGRESS_DROP, 13, 12, 60),
		test_packet(ACT_MULTICAST, 40, EGRESS_BY_RID, 13, 12, 60),	/* rid 3 sends, 2 drops, 1 too long */
		unicast(2),
	};
	burst(0, pkts, 4);
	want_unicast(0, 1);
	want_multicast(1, &g);
	want_multicast(2, &g);
	want_unicast(3, 2);
	check();
	CHECK_EQ(w->drops[P4ODP_DROP_PROGRAM], 1 + 5 + 1);
	CHECK_EQ(w->drops[P4ODP_DROP_HEADERS_TOO_LONG], 2);
	CHECK_EQ(w->sent[1] + w->sent[2] + w->sent[3], 2 + 1);
}

/* A group without a copy to make: not created, out of range (and no alias of
 * group 9, which exists), without nodes, with a node without ports. */
static void test_empty_group(void)
{
	static struct node no_ports = { .rid = 3 }, one = NODE(4, 1);
	static struct group empty, portless, g;

	node_create(&no_ports);
	node_create(&one);
	group_create(&empty, 7);
	group_create(&portless, 8);
	group_add(&portless, &no_ports);
	group_create(&g, 9);
	group_add(&g, &one);

	odp_packet_t pkts[7] = {
		multicast(7), multicast(8), multicast(P4ODP_MAX_MC_GROUPS - 1), multicast(P4ODP_MAX_MC_GROUPS + 9),
		multicast(65536 + 9), multicast(UINT32_MAX), multicast(9),
	};
	burst(0, pkts, 7);
	for (int i = 0; i < 6; i++)
		want_drop(P4ODP_DROP_EMPTY_GROUP);
	want_multicast(6, &g);
	check();
	CHECK_EQ(w->drops[P4ODP_DROP_EMPTY_GROUP], 6);
}

/* Ingress drops: counted PROGRAM, no egress call; a multicast group wins over a drop. */
static void test_drop(void)
{
	static struct node n = NODE(5, 1, 2);
	static struct group g;

	node_create(&n);
	group_create(&g, 9);
	group_add(&g, &n);
	odp_packet_t pkts[5] = {
		test_packet(ACT_DROP, 1, EGRESS_SEND, 13, 12, 60),
		unicast(2),
		test_packet(ACT_DROP, 0, EGRESS_SEND, 13, 12, 60),
		test_packet(ACT_MULTICAST_AND_DROP, 9, EGRESS_SEND, 13, 12, 60),
		test_packet(ACT_DROP, 3, EGRESS_SEND, 13, 12, 60),
	};
	burst(0, pkts, 5);
	want_drop(P4ODP_DROP_PROGRAM);
	want_unicast(1, 2);
	want_drop(P4ODP_DROP_PROGRAM);
	want_multicast(3, &g);
	want_drop(P4ODP_DROP_PROGRAM);
	check();
	CHECK_EQ(w->drops[P4ODP_DROP_PROGRAM], 3);
}

/* A copy to a port without an interface: closed, or past P4ODP_MAX_PORTS. */
static void test_no_port(void)
{
	static struct node n = NODE(1, 1, 2, 50, 63);
	static struct group g;

	node_create(&n);
	group_create(&g, 3);
	group_add(&g, &n);
	odp_packet_t pkts[6] = { unicast(4), unicast(63), unicast(P4ODP_MAX_PORTS), unicast(1000),
				 unicast(UINT32_MAX), multicast(3) };
	burst(0, pkts, 6);
	want_unicast(0, 4);
	want_unicast(1, 63);
	want_unicast(2, P4ODP_MAX_PORTS);
	want_unicast(3, 1000);
	want_unicast(4, UINT32_MAX);
	want_multicast(5, &g);
	check();
	CHECK_EQ(w->drops[P4ODP_DROP_NO_PORT], 5 + 2);
}

/* Headers up to P4ODP_MAX_HEADER_BITS are sent; one byte more drops the copy,
 * counted HEADERS_TOO_LONG; each copy of a group is counted for itself. */
static void test_headers_too_long(void)
{
	static struct node nodes[6];
	static struct group g;

	group_create(&g, 12);
	for (uint32_t i = 0; i < 6; i++) {
		nodes[i] = (struct node){ .rid = i, .n_ports = 1, .ports = { 1 + i % 2 } };
		node_create(&nodes[i]);
		group_add(&g, &nodes[i]);
	}
	odp_packet_t pkts[5] = {
		test_packet(ACT_UNICAST, 1, EGRESS_SEND, 13, P4ODP_MAX_HEADER_BITS / 8, 80),
		test_packet(ACT_UNICAST, 1, EGRESS_SEND, 13, P4ODP_MAX_HEADER_BITS / 8 + 1, 80),
		test_packet(ACT_MULTICAST, 12, EGRESS_SEND, 13, P4ODP_MAX_HEADER_BITS / 8 + 1, 80),
		/* rids 0..5: sent, too long, dropped, sent, too long, dropped */
		test_packet(ACT_MULTICAST, 12, EGRESS_BY_RID, 13, 12, 80),
		unicast(2),
	};
	burst(0, pkts, 5);
	want_unicast(0, 1);
	want_unicast(1, 1);
	want_multicast(2, &g);
	want_multicast(3, &g);
	want_unicast(4, 2);
	check();
	CHECK_EQ(w->drops[P4ODP_DROP_HEADERS_TOO_LONG], 1 + 6 + 2);
	CHECK_EQ(w->drops[P4ODP_DROP_PROGRAM], 2);
	CHECK_EQ(w->sent[1], 1 + 1);
}

/* Packets a port had sent when its k-th copy of a burst ran egress, if its
 * batch is flushed when full (when the 33rd copy is queued) and at the end. */
static uint64_t sent_before(uint64_t base, uint32_t k)
{
	return base + (k ? (k - 1) / P4ODP_BURST * P4ODP_BURST : 0);
}

/* More than P4ODP_BURST copies to one port in one burst: all sent, in order,
 * the port's batch flushed each time it is full. */
static void test_burst_flush(void)
{
	enum { N = 80 };
	odp_packet_t pkts[N];

	for (uint32_t i = 0; i < N; i++)
		pkts[i] = i % 10 == 9 ? unicast(3) : unicast(1);
	burst(0, pkts, N);
	uint32_t to_port1 = 0;
	for (uint32_t i = 0; i < N; i++) {
		want_unicast(i, i % 10 == 9 ? 3 : 1);
		if (i % 10 != 9) {
			set_context("copy %u to port 1", to_port1);
			CHECK_EQ(calls[i].port_sent_before, sent_before(0, to_port1));
			to_port1++;
		}
	}
	CHECK(to_port1 > 2 * P4ODP_BURST);
	check();

	/* Replicas: 8 packets to a group of 5 nodes on port 2: 40 copies. */
	static struct node nodes[5];
	static struct group g;
	group_create(&g, 77);
	for (uint32_t i = 0; i < 5; i++) {
		nodes[i] = (struct node){ .rid = 20 + i, .n_ports = 1, .ports = { 2 } };
		node_create(&nodes[i]);
		group_add(&g, &nodes[i]);
	}
	odp_packet_t replicated[8];
	for (uint32_t i = 0; i < 8; i++)
		replicated[i] = multicast(77);
	uint64_t base = port_sent(&sw, 2);
	burst(1, replicated, 8);
	for (uint32_t i = 0; i < 8; i++)
		want_multicast(N + i, &g);
	for (uint32_t k = 0; k < 40; k++) {
		set_context("replica %u to port 2", k);
		CHECK_EQ(calls[k].port_sent_before, sent_before(base, k));
	}
	check();
	CHECK_EQ(w->sent[2], 40);
}

/* Groups of more than 256 replicas: 8 nodes of 40 ports, 8 nodes of every
 * port, a full group of 256 nodes; every replica is made, every port sent. */
static void test_big_group(void)
{
	static struct node nodes[8 + 8 + 256], extra = NODE(999, 0);
	static struct group g40, g64, full;
	struct node *n = nodes;

	group_create(&g40, 1);
	for (uint32_t k = 0; k < 8; k++, n++) {
		*n = (struct node){ .rid = 100 + k, .n_ports = 40 };
		for (uint32_t j = 0; j < 40; j++)
			n->ports[j] = k * 3 + j;
		node_create(n);
		group_add(&g40, n);
	}
	group_create(&g64, 2);
	for (uint32_t k = 0; k < 8; k++, n++) {
		*n = (struct node){ .rid = 200 + k, .n_ports = P4ODP_MAX_PORTS };
		for (uint32_t j = 0; j < P4ODP_MAX_PORTS; j++)
			n->ports[j] = j;
		node_create(n);
		group_add(&g64, n);
	}
	group_create(&full, 3);
	for (uint32_t k = 0; k < sizeof full.nodes / sizeof full.nodes[0]; k++, n++) {
		*n = (struct node){ .rid = k, .n_ports = 2, .ports = { k % 32, 32 + k % 32 } };
		node_create(n);
		group_add(&full, n);
	}
	/* The full group takes no more nodes. */
	char line[64], err[256];
	node_create(&extra);
	snprintf(line, sizeof line, "mc_node_associate 3 %u", extra.handle);
	CHECK(p4odp_cli_command(&sw, line, NULL, err, sizeof err) == -1);

	odp_packet_t pkts[6] = { multicast(1), multicast(2), multicast(3), multicast(1), multicast(2), multicast(3) };
	burst(0, pkts, 6);
	for (uint32_t i = 0; i < 6; i++)
		want_multicast(i, i % 3 == 0 ? &g40 : i % 3 == 1 ? &g64 : &full);
	CHECK_EQ(n_want, 2 * (8 * 40 + 8 * 64 + 256 * 2));
	check();
}

/* A port whose transmit queue is full: what does not fit is freed and counted TX_FULL. */
static void test_tx_full(void)
{
	odp_packet_t pkts[10];

	for (uint32_t i = 0; i < 10; i++)
		pkts[i] = i == 5 ? unicast(2) : unicast(1);
	burst(0, pkts, 10);
	for (uint32_t i = 0; i < 10; i++)
		if (i == 5)
			want_unicast(i, 2);
		else
			want_copy_fate(i, 1, 0, P4ODP_COPY_NORMAL, i < SMALL_RING ? SENT : P4ODP_DROP_TX_FULL);
	check();

	/* 40 copies, not read: 4 fit at the first flush (when the batch is full), none at the last. */
	odp_packet_t more[40];
	for (uint32_t i = 0; i < 40; i++)
		more[i] = unicast(1);
	burst(0, more, 40);
	for (uint32_t i = 0; i < 40; i++)
		want_copy_fate(10 + i, 1, 0, P4ODP_COPY_NORMAL, i < SMALL_RING ? SENT : P4ODP_DROP_TX_FULL);
	check();
	CHECK_EQ(w->drops[P4ODP_DROP_TX_FULL], 5 + 36);
}

/* The pool runs out: the copies that find no buffer are counted NO_BUFFER, the
 * others are sent; nothing leaks, nothing crashes. */
static void test_no_buffer(void)
{
	static struct node a = NODE(1, 1, 2, 3, 4, 5), b = NODE(2, 1, 2, 3, 4, 5);
	static struct group g;

	CHECK_EQ(pool_free(), 8);
	node_create(&a);
	node_create(&b);
	group_create(&g, 1);
	group_add(&g, &a);
	group_add(&g, &b);

	/* 1 received + 7 copies fill the pool of 8; 3 replicas find no buffer to
	 * be copied into, and no egress runs for them. */
	odp_packet_t one = multicast(1);
	burst(0, &one, 1);
	for (uint32_t i = 0; i < 10; i++) {
		if (i < 7)
			want_copy_fate(0, 1 + i % 5, i < 5 ? 1 : 2, P4ODP_COPY_REPLICA, SENT);
		else
			want_drop(P4ODP_DROP_NO_BUFFER);
	}
	check();
	CHECK_EQ(pool_free(), 8);

	/* The burst holds the whole pool: the only copy of each leaves in the
	 * packet it came in, needing no buffer. */
	odp_packet_t full[8];
	for (uint32_t i = 0; i < 8; i++)
		full[i] = unicast(1 + i % 5);
	burst(0, full, 8);
	for (uint32_t i = 0; i < 8; i++)
		want_copy_fate(1 + i, 1 + i % 5, 0, P4ODP_COPY_NORMAL, SENT);
	check();
	CHECK_EQ(pool_free(), 8);

	/* Headers that outgrow the headroom need a new buffer: with the burst
	 * holding the whole pool, there is none. */
	uint32_t grown = TEST_HEADER_LEN + pool_headroom + 1;
	for (uint32_t i = 0; i < 8; i++)
		full[i] = test_packet(ACT_UNICAST, 1 + i % 5, EGRESS_SEND, TEST_HEADER_LEN, grown, 60);
	burst(0, full, 8);
	for (uint32_t i = 0; i < 8; i++)
		want_copy_fate(9 + i, 1 + i % 5, 0, P4ODP_COPY_NORMAL, P4ODP_DROP_NO_BUFFER);
	check();

	/* 5 received, room for 3 new buffers. */
	odp_packet_t five[5];
	for (uint32_t i = 0; i < 5; i++)
		five[i] = test_packet(ACT_UNICAST, 2, EGRESS_SEND, TEST_HEADER_LEN, grown, 60);
	burst(3, five, 5);
	for (uint32_t i = 0; i < 5; i++)
		want_copy_fate(17 + i, 2, 0, P4ODP_COPY_NORMAL, i < 3 ? SENT : P4ODP_DROP_NO_BUFFER);
	check();
	CHECK_EQ(w->drops[P4ODP_DROP_NO_BUFFER], 3 + 8 + 2);
}

/* p4odp_print_counters: each open port's received and sent packets and the
 * drops by reason, summed over the workers given. */
static void test_counters(void)
{
	odp_packet_t a[4] = { unicast(1), unicast(1), unicast(3), test_packet(ACT_DROP, 1, EGRESS_SEND, 13, 12, 60) };
	burst_on(&workers[0], 0, a, 4);
	odp_packet_t b[5] = { unicast(3), unicast(1), unicast(50), multicast(5), unicast(3) };
	burst_on(&workers[1], 2, b, 5);
	for (uint32_t port = 0; port < P4ODP_MAX_PORTS; port++)
		while (true) {
			odp_packet_t pkt;
			if (odp_pktin_recv(sw.ports[port].in[0], &pkt, 1) != 1)
				break;
			odp_packet_free(pkt);
		}

	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	CHECK(out != NULL);
	p4odp_print_counters(&sw, workers, 2, out);
	fclose(out);
	static const char both[] =
		"port  rx  tx  interface\n"
		"   0  4  0  loop0\n"
		"   1  0  3  loop1\n"
		"   2  5  0  loop2\n"
		"   3  0  3  loop3\n"
		"  63  0  0  loop63\n"
		"dropped 1: dropped by the program\n"
		"dropped 1: sent to a multicast group without replicas\n"
		"dropped 1: sent to a port without an interface\n";
	if (strcmp(text, both)) {
		fprintf(stderr, "p4odp_print_counters printed:\n%s\nexpected:\n%s", text, both);
		exit(1);
	}
	free(text);

	out = open_memstream(&text, &size);
	CHECK(out != NULL);
	p4odp_print_counters(&sw, &workers[1], 1, out);
	fclose(out);
	static const char second[] =
		"port  rx  tx  interface\n"
		"   0  0  0  loop0\n"
		"   1  0  1  loop1\n"
		"   2  5  0  loop2\n"
		"   3  0  2  loop3\n"
		"  63  0  0  loop63\n"
		"dropped 1: sent to a multicast group without replicas\n"
		"dropped 1: sent to a port without an interface\n";
	if (strcmp(text, second)) {
		fprintf(stderr, "p4odp_print_counters printed:\n%s\nexpected:\n%s", text, second);
		exit(1);
	}
	free(text);
	/* Nothing for a worker that saw nothing but its ports. */
	static struct p4odp_worker idle;
	CHECK(p4odp_worker_init(&idle, &sw, 0) == 0);
	out = open_memstream(&text, &size);
	CHECK(out != NULL);
	p4odp_print_counters(&sw, &idle, 1, out);
	fclose(out);
	CHECK(strcmp(text, "port  rx  tx  interface\n   0  0  0  loop0\n   1  0  0  loop1\n   2  0  0  loop2\n"
			   "   3  0  0  loop3\n  63  0  0  loop63\n") == 0);
	free(text);
	p4odp_worker_term(&idle);
}

/* One meter cell, metered by two threads at once as two workers do: every token is taken once,
 * so the colours add up as if one thread had metered every packet. */
struct meter_run {
	struct p4odp_meter *meter;
	uint32_t colors[3];
};

static void *meter_thread(void *arg)
{
	struct meter_run *run = arg;
	struct p4odp_pctx pc = { .sw = &sw, .len = 1 };

	for (uint32_t i = 0; i < 200000; i++)
		run->colors[p4odp_meter_execute(&pc, run->meter, 1)]++;
	return NULL;
}

static void test_meter_workers(void)
{
	static struct p4odp_meter meter = {
		.configured = 1,	/* rates of 0: the bursts only */
		.peak = { .burst = 150000, .tokens = 150000 },
		.committed = { .burst = 50000, .tokens = 50000 },
	};
	struct meter_run runs[2] = { { &meter, { 0 } }, { &meter, { 0 } } };
	pthread_t threads[2];

	for (int i = 0; i < 2; i++)
		CHECK_EQ(pthread_create(&threads[i], NULL, meter_thread, &runs[i]), 0);
	for (int i = 0; i < 2; i++)
		CHECK_EQ(pthread_join(threads[i], NULL), 0);
	set_context("colours of 400000 packets, bursts 150000 (peak) and 50000 (committed)");
	CHECK_EQ(runs[0].colors[P4ODP_METER_GREEN] + runs[1].colors[P4ODP_METER_GREEN], 50000);
	CHECK_EQ(runs[0].colors[P4ODP_METER_YELLOW] + runs[1].colors[P4ODP_METER_YELLOW], 100000);
	CHECK_EQ(runs[0].colors[P4ODP_METER_RED] + runs[1].colors[P4ODP_METER_RED], 250000);
}

/* Ports 0 .. n - 1, for n of 1 .. 64. */
#define PORTS(n) (UINT64_MAX >> (64 - (n)))

static const struct {
	const char *name;
	void (*run)(void);
	uint64_t ports;		/* the ports with an interface */
	uint64_t small_rings;	/* ports whose input holds SMALL_RING packets */
	uint32_t pool;		/* packets */
} tests[] = {
	{ "unicast", test_unicast, PORTS(4), 0, 1024 },
	{ "multicast", test_multicast, PORTS(8), 0, 1024 },
	{ "multicast_changes", test_multicast_changes, PORTS(8), 0, 1024 },
	{ "egress_drop", test_egress_drop, PORTS(4), 0, 1024 },
	{ "empty_group", test_empty_group, PORTS(3), 0, 1024 },
	{ "drop", test_drop, PORTS(4), 0, 1024 },
	{ "no_port", test_no_port, PORTS(4), 0, 1024 },
	{ "headers_too_long", test_headers_too_long, PORTS(3), 0, 1024 },
	{ "burst_flush", test_burst_flush, PORTS(4), 0, 1024 },
	{ "big_group", test_big_group, PORTS(64), 0, 4096 },
	{ "tx_full", test_tx_full, PORTS(3), 1u << 1, 1024 },
	{ "no_buffer", test_no_buffer, PORTS(6), 0, 8 },
	{ "counters", test_counters, PORTS(4) | UINT64_C(1) << 63, 0, 1024 },
	{ "cpu_port", test_cpu_port, PORTS(2), 0, 1024 },
	{ "meter_workers", test_meter_workers, PORTS(1), 0, 1024 },
};

int main(int argc, char **argv)
{
	uint32_t n_tests = sizeof tests / sizeof tests[0];

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (uint32_t i = 0; i < n_tests; i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s TEST | --list\n", argv[0]);
		return 2;
	}
	for (uint32_t i = 0; i < n_tests; i++) {
		if (strcmp(argv[1], tests[i].name))
			continue;
		switch_up(tests[i].ports, tests[i].small_rings, tests[i].pool);
		tests[i].run();
		set_context("at the end");
		CHECK_EQ(pool_free(), pool_num);
		switch_down();
		printf("tm_test %s: OK\n", tests[i].name);
		return 0;
	}
	fprintf(stderr, "unknown test %s\n", argv[1]);
	return 2;
}
