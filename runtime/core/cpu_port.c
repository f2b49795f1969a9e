/*
 * The CPU port (--cpu-port N), as BMv2 simple_switch_grpc's: what the program
 * sends to port N goes to the controllers (packet-in), and what they send
 * (packet-out) enters the program as received on port N.  The bytes are the
 * packet's whole, headers the program adds for the controller included (the
 * P4Runtime server reads and writes its @controller_header fields).
 *
 * A worker queues the packets it sends to the CPU port in its ring, without
 * waiting; the main thread sends each as an event line "packet_in HEX" to the
 * control channel's clients that sent packet_listen, and puts the packets sent
 * in (p4odp_ctl_packet_out: `packet_out HEX`, a binary call) in worker 0's
 * ring, which worker 0 runs between its bursts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "switch.h"

static void deliver(struct p4odp_channel *ch, odp_packet_t pkt)
{
	static const char digits[] = "0123456789abcdef";
	static const char head[] = "packet_in ";
	static char line[sizeof head + 2 * P4ODP_MAX_PACKET];	/* the main thread's alone */
	uint32_t len = odp_packet_len(pkt);
	const uint8_t *data = odp_packet_data(pkt);

	if (len > P4ODP_MAX_PACKET)	/* none is: the pool's buffers are no longer */
		return;
	memcpy(line, head, sizeof head - 1);
	char *at = line + sizeof head - 1;
	for (uint32_t i = 0; i < len; i++) {
		*at++ = digits[data[i] >> 4];
		*at++ = digits[data[i] & 15];
	}
	*at++ = '\n';
	p4odp_channel_event(ch, P4ODP_EVENT_PACKETS, line, (size_t)(at - line));
}

/* At most a ring's worth of each worker's packets a call: workers that keep sending to the CPU
 * port never keep the main thread from its other duties (serving the channel). */
void p4odp_packets_deliver(struct p4odp_switch *sw, struct p4odp_channel *ch, bool before_adoption)
{
	odp_packet_t pkts[P4ODP_PACKET_RING];

	if (!sw->has_cpu_port)
		return;
	for (uint32_t k = 0; k < sw->n_workers; k++) {
		struct p4odp_worker *w = &sw->workers[k];
		uint32_t max = P4ODP_PACKET_RING;
		if (before_adoption) {	/* this thread alone takes from the ring: its tail stays */
			uint32_t old = w->to_cpu_adopted - w->to_cpu->tail;
			max = old < max ? old : max;
		}
		uint32_t n = p4odp_ring_take(w->to_cpu, pkts, max);
		for (uint32_t i = 0; i < n; i++)
			deliver(ch, pkts[i]);
		odp_packet_free_multi(pkts, (int)n);
	}
}

int p4odp_ctl_packet_out(struct p4odp_switch *sw, const uint8_t *bytes, uint32_t len)
{
	if (!sw->has_cpu_port)
		return -ENODEV;
	if (!len || len > P4ODP_MAX_PACKET)
		return -EINVAL;
	odp_packet_t pkt = odp_packet_alloc(sw->pool, len);
	if (pkt == ODP_PACKET_INVALID)
		return -ENOBUFS;
	memcpy(odp_packet_data(pkt), bytes, len);
	if (!p4odp_ring_put(sw->workers[0].from_cpu, pkt)) {
		odp_packet_free(pkt);
		return -EAGAIN;
	}
	return 0;
}
