/*
 * Bundled ODP: the socket_mmap pktio on a veth pair, driven by
 * test_odp_bundled.py inside a network namespace.
 *
 *   odp_test_sock IF_A IF_B    (the two ends of one veth pair)
 */
#define _GNU_SOURCE
#include <string.h>

#include "odp_test_if.h"

#include <odp_bundled_ext.h>

#define MAGIC "P4ODPTST"

/*
 * A test frame: IPv4/UDP (flow = source port) or, with vlan != 0, the same
 * behind an 802.1Q tag. MAGIC and a sequence number follow the UDP header;
 * the rest up to len is a pattern.
 */
static void fill_frame(uint8_t *d, uint32_t len, uint16_t flow, uint32_t seq, uint16_t vlan)
{
	uint32_t l3 = vlan ? 18 : 14;

	memset(d, 0, len);
	memset(d, 0xff, 6);
	d[6] = 0x02;
	d[11] = 0x01;
	if (vlan) {
		d[12] = 0x81;
		d[14] = (uint8_t)(vlan >> 8);
		d[15] = (uint8_t)vlan;
	}
	d[l3 - 2] = 0x08;
	d[l3] = 0x45;
	d[l3 + 2] = (uint8_t)((len - l3) >> 8);
	d[l3 + 3] = (uint8_t)(len - l3);
	d[l3 + 8] = 64;
	d[l3 + 9] = 17;
	d[l3 + 12] = 10;
	d[l3 + 15] = 1;
	d[l3 + 16] = 10;
	d[l3 + 19] = 2;
	d[l3 + 20] = (uint8_t)(flow >> 8);
	d[l3 + 21] = (uint8_t)flow;
	d[l3 + 22] = 0x30;
	d[l3 + 23] = 0x39;
	memcpy(d + l3 + 28, MAGIC, 8);
	memcpy(d + l3 + 36, &seq, 4);
	for (uint32_t i = l3 + 40; i < len; i++)
		d[i] = (uint8_t)(i * 7 + seq);
}

static odp_packet_t make_frame(odp_pool_t pool, uint32_t len, uint16_t flow, uint32_t seq,
			       uint16_t vlan)
{
	odp_packet_t pkt = odp_packet_alloc(pool, len);

	CHECK(pkt != ODP_PACKET_INVALID);
	fill_frame(odp_packet_data(pkt), len, flow, seq, vlan);
	return pkt;
}

/* Offset of MAGIC in a test frame, or 0 when it is not one. */
static uint32_t magic_off(odp_packet_t pkt)
{
	const uint8_t *d = odp_packet_data(pkt);
	uint32_t len = odp_packet_len(pkt);

	if (len >= 54 && d[12] == 0x08 && d[13] == 0x00 && !memcmp(d + 42, MAGIC, 8))
		return 42;
	if (len >= 58 && d[12] == 0x81 && d[13] == 0x00 && !memcmp(d + 46, MAGIC, 8))
		return 46;
	return 0;
}

typedef struct {
	int count;
	int queue_of_flow[256];
	int per_queue[4];
} rx_result_t;

/*
 * Receive test frames on all queues until 'want' arrived or 3 s passed.
 * Each must equal what was sent: the frame rebuilt from its flow, sequence
 * number, length and VLAN.
 */
static void receive(odp_pktio_t pktio, int num_q, int want, uint32_t len, uint16_t vlan,
		    rx_result_t *res)
{
	odp_pktin_queue_t in[4];
	uint64_t end = odp_time_local_ns() + 3 * ODP_TIME_SEC_IN_NS;
	static uint8_t expect[2048];

	memset(res, 0, sizeof(*res));
	for (int i = 0; i < 256; i++)
		res->queue_of_flow[i] = -1;
	CHECK(odp_pktin_queue(pktio, in, 4) == num_q);
	while (res->count < want && odp_time_local_ns() < end) {
		for (int q = 0; q < num_q; q++) {
			odp_packet_t pkts[32];
			int n = odp_pktin_recv_tmo(in[q], pkts, 32,
						   odp_pktin_wait_time(ODP_TIME_MSEC_IN_NS));

			CHECK(n >= 0);
			for (int i = 0; i < n; i++) {
				uint32_t off = magic_off(pkts[i]);
				uint8_t *d = odp_packet_data(pkts[i]);
				uint32_t seq;
				uint16_t flow;

				if (off) {
					memcpy(&seq, d + off + 8, 4);
					flow = (uint16_t)(d[off - 8] << 8 | d[off - 7]);
					CHECK(odp_packet_len(pkts[i]) == len);
					fill_frame(expect, len, flow, seq, vlan);
					CHECK(memcmp(expect, d, len) == 0);
					CHECK(odp_packet_input(pkts[i]) == pktio);
					CHECK(flow < 256);
					CHECK(res->queue_of_flow[flow] == -1 ||
					      res->queue_of_flow[flow] == q);
					res->queue_of_flow[flow] = q;
					res->per_queue[q]++;
					res->count++;
				}
			}
			odp_packet_free_multi(pkts, n);
		}
	}
}

static void send_all(odp_pktio_t pktio, odp_pool_t pool, int count, uint32_t len, int flows,
		     uint16_t vlan)
{
	odp_pktout_queue_t out;
	uint64_t end = odp_time_local_ns() + 3 * ODP_TIME_SEC_IN_NS;
	int sent = 0;

	CHECK(odp_pktout_queue(pktio, &out, 1) == 1);
	while (sent < count) {
		odp_packet_t pkts[16];
		int n = count - sent < 16 ? count - sent : 16;
		int done;

		for (int i = 0; i < n; i++)
			pkts[i] = make_frame(pool, len, (uint16_t)((sent + i) % flows),
					     (uint32_t)(sent + i), vlan);
		done = odp_pktout_send(out, pkts, n);
		CHECK(done >= 0);
		odp_packet_free_multi(pkts + done, n - done);
		sent += done;
		CHECK(odp_time_local_ns() < end);
	}
}

int main(int argc, char *argv[])
{
	odp_instance_t inst;
	odp_pool_t pool;
	odp_pktio_t a;
	odp_pktio_t b;
	odp_pktio_stats_t stats;
	odp_pktin_queue_t in_a;
	odp_pktout_queue_t out_a;
	odp_packet_t pkt;
	rx_result_t res;
	uint64_t t0;
	int used = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: odp_test_sock IF_A IF_B\n");
		return 2;
	}
	inst = test_init(0, 0);
	pool = test_pool("sock_pool", 1024, 1600);
	CHECK(odp_pktio_open("p4odp-none0", pool, NULL) == ODP_PKTIO_INVALID);

	CHECK(!test_if_promisc(argv[1]));
	a = test_pktio(argv[1], pool, 1, 1, 0);
	b = test_pktio(argv[2], pool, 4, 1, 1);
	CHECK(a != ODP_PKTIO_INVALID && b != ODP_PKTIO_INVALID);
	test_check_if(a, argv[1]);
	CHECK(odp_bundled_pktio_input_done(a) == 0);
	CHECK(odp_pktin_queue(a, &in_a, 1) == 1);
	CHECK(odp_pktout_queue(a, &out_a, 1) == 1);

	/* A to B: 256 flows spread over B's 4 queues, each flow on one queue. */
	send_all(a, pool, 512, 200, 256, 0);
	receive(b, 4, 512, 200, 0, &res);
	CHECK(res.count == 512);
	for (int q = 0; q < 4; q++)
		used += res.per_queue[q] > 0;
	CHECK(used >= 2);

	/* Frames A sent are not received by A. */
	while (odp_pktin_recv(in_a, &pkt, 1) == 1) {
		CHECK(magic_off(pkt) == 0);
		odp_packet_free(pkt);
	}

	/* VLAN tags arrive as they were sent. */
	send_all(a, pool, 20, 300, 4, 0x6064);
	receive(b, 4, 20, 300, 0x6064, &res);
	CHECK(res.count == 20);

	/* Full-size frames both ways; larger ones are dropped and counted. */
	send_all(b, pool, 50, 1514, 8, 0);
	receive(a, 1, 50, 1514, 0, &res);
	CHECK(res.count == 50);
	CHECK(odp_pktio_stats_reset(b) == 0);
	pkt = make_frame(pool, 1515, 1, 1, 0);
	{
		odp_pktout_queue_t out_b;

		CHECK(odp_pktout_queue(b, &out_b, 1) == 1);
		CHECK(odp_pktout_send(out_b, &pkt, 1) == 1);
	}
	CHECK(odp_pktio_stats(b, &stats) == 0);
	CHECK(stats.out_discards == 1 && stats.out_packets == 0);
	CHECK(odp_pktio_stats(a, &stats) == 0);
	CHECK(stats.in_packets >= 50 && stats.out_packets == 532);
	CHECK(stats.in_octets >= 50 * 1514);

	/* Waiting on an idle interface takes the time asked for. */
	while (odp_pktin_recv(in_a, &pkt, 1) == 1)
		odp_packet_free(pkt);
	t0 = odp_time_local_ns();
	if (odp_pktin_recv_tmo(in_a, &pkt, 1, odp_pktin_wait_time(50 * ODP_TIME_MSEC_IN_NS)) == 0)
		CHECK(odp_time_local_ns() - t0 >= 50 * ODP_TIME_MSEC_IN_NS);
	else
		odp_packet_free(pkt);

	/* Restart works; stopping and closing ends promiscuous mode. */
	CHECK(odp_pktio_stop(a) == 0);
	CHECK(odp_pktio_start(a) == 0);
	send_all(b, pool, 10, 100, 2, 0);
	receive(a, 1, 10, 100, 0, &res);
	CHECK(res.count == 10);
	CHECK(odp_pktio_stop(a) == 0);
	CHECK(odp_pktio_stop(b) == 0);
	test_close_if(a, argv[1], b, argv[2]);
	CHECK(odp_pool_destroy(pool) == 0);
	test_term(inst);
	printf("odp_test_sock: OK\n");
	return 0;
}
