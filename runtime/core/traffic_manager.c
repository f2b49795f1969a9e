/*
 * The traffic manager: what happens to a packet between the program's
 * ingress and egress, as BMv2 simple_switch's traffic manager does it.
 *
 * For each received packet: ingress, then the copies it asks for (one to a
 * port, one per replica of a multicast group, none), egress once per copy,
 * and the copies egress keeps queued per output port and sent in batches.
 * See p4odp_runtime.h for who owns a packet at each step.
 */
#include <stdlib.h>
#include <string.h>

#include "switch.h"

static const char *const drop_reasons[P4ODP_DROP_COUNT] = {
#define P4ODP_DROP_TEXT(name, text) text,
	P4ODP_DROP_REASONS(P4ODP_DROP_TEXT)
#undef P4ODP_DROP_TEXT
};

int p4odp_worker_init(struct p4odp_worker *w, struct p4odp_switch *sw)
{
	memset(w, 0, sizeof *w);
	w->sw = sw;
	w->packet = malloc(sw->program->packet_size ? sw->program->packet_size : 1);
	return w->packet ? 0 : -1;
}

static void flush_port(struct p4odp_worker *w, uint32_t port_index)
{
	struct p4odp_tx_batch *batch = &w->tx[port_index];
	uint32_t done = 0;

	while (done < batch->n) {
		int sent = odp_pktout_send(w->sw->ports[port_index].out, batch->pkts + done, (int)(batch->n - done));
		if (sent <= 0)
			break;
		done += (uint32_t)sent;
	}
	w->sent[port_index] += done;
	if (done < batch->n) {
		odp_packet_free_multi(batch->pkts + done, (int)(batch->n - done));
		w->drops[P4ODP_DROP_TX_FULL] += batch->n - done;
	}
	batch->n = 0;
	w->tx_pending &= ~(UINT64_C(1) << port_index);
}

static void flush_all(struct p4odp_worker *w)
{
	while (w->tx_pending)
		flush_port(w, (uint32_t)__builtin_ctzll(w->tx_pending));
}

void p4odp_worker_term(struct p4odp_worker *w)
{
	free(w->packet);
	w->packet = NULL;
}

void p4odp_count_drop(struct p4odp_pctx *pc, enum p4odp_drop_reason reason)
{
	pc->worker->drops[reason]++;
}

void p4odp_send(struct p4odp_pctx *pc, uint32_t port_index, const uint8_t *hdrs, uint32_t hdr_len)
{
	struct p4odp_worker *w = pc->worker;
	struct p4odp_switch *sw = pc->sw;
	uint32_t consumed = pc->cursor / 8;
	uint32_t payload = pc->len > consumed ? pc->len - consumed : 0;

	if (port_index >= P4ODP_MAX_PORTS || !sw->ports[port_index].open) {
		p4odp_count_drop(pc, P4ODP_DROP_NO_PORT);
		return;
	}
	odp_packet_t out = odp_packet_alloc(sw->pool, hdr_len + payload);
	if (out == ODP_PACKET_INVALID) {
		p4odp_count_drop(pc, P4ODP_DROP_NO_BUFFER);
		return;
	}
	uint8_t *data = odp_packet_data(out);
	memcpy(data, hdrs, hdr_len);
	memcpy(data + hdr_len, pc->data + consumed, payload);
	struct p4odp_tx_batch *batch = &w->tx[port_index];
	if (batch->n == P4ODP_BURST)
		flush_port(w, port_index);
	batch->pkts[batch->n++] = out;
	w->tx_pending |= UINT64_C(1) << port_index;
}

static void egress_copy(struct p4odp_pctx *pc, const void *packet, const struct p4odp_copy *copy)
{
	/* Each copy's drop is counted for its own reason: not the overflow of the one before. */
	pc->out_overflow = 0;
	if (!pc->sw->program->egress(pc, packet, copy))
		p4odp_count_drop(pc, pc->out_overflow ? P4ODP_DROP_HEADERS_TOO_LONG : P4ODP_DROP_PROGRAM);
}

/* One copy per replica of the group: every port of every node, in the order
 * the nodes were associated (BMv2's order). */
static void replicate(struct p4odp_pctx *pc, const void *packet, uint32_t group)
{
	const struct p4odp_switch *sw = pc->sw;
	uint32_t copies = 0;

	if (group < P4ODP_MAX_MC_GROUPS && sw->mc_groups[group].used) {
		const struct p4odp_mc_group *g = &sw->mc_groups[group];
		for (uint32_t i = 0; i < g->n_nodes; i++) {
			const struct p4odp_mc_node *node = &sw->mc_nodes[g->nodes[i]];
			for (uint32_t j = 0; j < node->n_ports; j++) {
				struct p4odp_copy copy = { node->ports[j], node->rid, P4ODP_COPY_REPLICA };
				egress_copy(pc, packet, &copy);
				copies++;
			}
		}
	}
	if (!copies)
		p4odp_count_drop(pc, P4ODP_DROP_EMPTY_GROUP);
}

static void process(struct p4odp_worker *w, uint32_t port, odp_packet_t pkt)
{
	struct p4odp_switch *sw = w->sw;
	struct p4odp_pctx pc = {
		.sw = sw,
		.state = sw->state,
		.worker = w,
		.pkt = pkt,
		.data = odp_packet_data(pkt),
		.len = odp_packet_len(pkt),
		.in_port = port,
	};

	sw->program->ingress(&pc, w->packet);
	if (pc.tm.mcast_group) {
		replicate(&pc, w->packet, pc.tm.mcast_group);
	} else if (pc.tm.drop) {
		p4odp_count_drop(&pc, P4ODP_DROP_PROGRAM);
	} else {
		struct p4odp_copy copy = { pc.tm.port, 0, P4ODP_COPY_NORMAL };
		egress_copy(&pc, w->packet, &copy);
	}
}

void p4odp_tm_burst(struct p4odp_worker *w, uint32_t port, odp_packet_t *pkts, uint32_t n)
{
	w->received[port] += n;
	for (uint32_t i = 0; i < n; i++) {
		if (i + 2 < n)
			__builtin_prefetch(odp_packet_data(pkts[i + 2]));
		/* The datapath reads a packet as one buffer; a system ODP may hand in
		 * frames longer than a segment (pcap records, GRO) in several. */
		if (odp_unlikely(odp_packet_is_segmented(pkts[i])))
			w->drops[P4ODP_DROP_SEGMENTED]++;
		else
			process(w, port, pkts[i]);
	}
	flush_all(w);
	odp_packet_free_multi(pkts, (int)n);
}

void p4odp_print_counters(const struct p4odp_switch *sw, const struct p4odp_worker *workers, uint32_t n_workers,
			  FILE *out)
{
	fprintf(out, "port  rx  tx  interface\n");
	for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++) {
		if (!sw->ports[i].open)
			continue;
		uint64_t rx = 0, tx = 0;
		for (uint32_t k = 0; k < n_workers; k++) {
			rx += workers[k].received[i];
			tx += workers[k].sent[i];
		}
		fprintf(out, "%4u  %llu  %llu  %s\n", i, (unsigned long long)rx, (unsigned long long)tx,
			sw->ports[i].name);
	}
	for (uint32_t r = 0; r < P4ODP_DROP_COUNT; r++) {
		uint64_t drops = 0;
		for (uint32_t k = 0; k < n_workers; k++)
			drops += workers[k].drops[r];
		if (drops)
			fprintf(out, "dropped %llu: %s\n", (unsigned long long)drops, drop_reasons[r]);
	}
}
