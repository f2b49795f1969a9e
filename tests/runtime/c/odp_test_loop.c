/* Bundled ODP: the loop pktio, the pktio state machine and counters. */
#include <string.h>

#include "odp_test.h"

#include <odp_bundled_ext.h>

#define NUM 10

/* Ethernet + IPv4 + UDP frame whose source port tells the flow. */
static odp_packet_t make_udp(odp_pool_t pool, uint16_t sport, uint32_t seq)
{
	odp_packet_t pkt = odp_packet_alloc(pool, 64);
	uint8_t *d;

	CHECK(pkt != ODP_PACKET_INVALID);
	d = odp_packet_data(pkt);
	memset(d, 0, 64);
	memset(d, 0xff, 6);
	d[6] = 0x02;
	d[12] = 0x08;                 /* IPv4 */
	d[14] = 0x45;
	d[14 + 9] = 17;               /* UDP */
	d[14 + 12] = 10;              /* 10.0.0.1 -> 10.0.0.2 */
	d[14 + 15] = 1;
	d[14 + 16] = 10;
	d[14 + 19] = 2;
	d[34] = (uint8_t)(sport >> 8);
	d[35] = (uint8_t)sport;
	d[36] = 0x12;
	d[37] = 0x34;
	memcpy(d + 50, &seq, 4);
	return pkt;
}

static void test_single_queue(odp_pool_t pool)
{
	odp_pktio_t pktio = test_pktio("loop", pool, 1, 1, 0);
	odp_pktin_queue_t in;
	odp_pktout_queue_t out;
	odp_packet_t pkts[NUM];
	odp_packet_t rx[NUM + 5];
	odp_pktio_stats_t stats;
	odp_pktin_queue_stats_t qstats;
	odp_pktio_capability_t capa;
	odp_pktio_info_t info;
	uint8_t mac[ODP_PKTIO_MACADDR_MAXSIZE];
	uint64_t octets = 0;
	uint64_t t0;
	int n;

	CHECK(pktio != ODP_PKTIO_INVALID);
	CHECK(odp_pktio_open("loop", pool, NULL) == ODP_PKTIO_INVALID);
	CHECK(odp_pktio_lookup("loop") == pktio);
	CHECK(odp_pktio_index(pktio) >= 0 &&
	      (unsigned int)odp_pktio_index(pktio) <= odp_pktio_max_index());
	CHECK(odp_pktio_mac_addr(pktio, mac, sizeof(mac)) == 6);
	CHECK((mac[0] & 0x02) && !(mac[0] & 0x01));
	CHECK(odp_pktio_mac_addr(pktio, mac, 4) < 0);
	CHECK(odp_pktio_capability(pktio, &capa) == 0 && capa.max_input_queues >= 4);
	CHECK(odp_pktio_info(pktio, &info) == 0 && strcmp(info.drv_name, "loop") == 0);
	CHECK(info.pool == pool);
	CHECK(odp_pktin_maxlen(pktio) >= 1514);
	CHECK(odp_pktio_link_status(pktio) == ODP_PKTIO_LINK_STATUS_UP);
	CHECK(odp_pktio_start(pktio) < 0);
	CHECK(odp_pktio_close(pktio) < 0);
	CHECK(odp_pktin_queue(pktio, &in, 1) == 1);
	CHECK(odp_pktout_queue(pktio, &out, 1) == 1);
	CHECK(odp_pktin_queue(pktio, NULL, 0) == 1);
	CHECK(in.pktio == pktio && in.index == 0);
	CHECK(odp_bundled_pktio_input_done(pktio) == 0);

	CHECK(odp_pktin_recv(in, rx, NUM) == 0);
	for (uint32_t i = 0; i < NUM; i++) {
		pkts[i] = make_udp(pool, (uint16_t)i, i);
		odp_packet_push_tail(pkts[i], i);
		octets += odp_packet_len(pkts[i]);
	}
	CHECK(odp_pktout_send(out, pkts, 0) == 0);
	CHECK(odp_pktout_send(out, pkts, NUM) == NUM);
	n = odp_pktin_recv(in, rx, 3);
	CHECK(n == 3);
	n += odp_pktin_recv(in, rx + 3, NUM + 5 - 3);
	CHECK(n == NUM);
	for (uint32_t i = 0; i < NUM; i++) {
		uint32_t seq;

		CHECK(odp_packet_len(rx[i]) == 64 + i);
		CHECK(odp_packet_input(rx[i]) == pktio);
		CHECK(odp_packet_input_index(rx[i]) == odp_pktio_index(pktio));
		memcpy(&seq, (uint8_t *)odp_packet_data(rx[i]) + 50, 4);
		CHECK(seq == i);
	}
	odp_packet_input_set(rx[0], ODP_PKTIO_INVALID);
	CHECK(odp_packet_input(rx[0]) == ODP_PKTIO_INVALID && odp_packet_input_index(rx[0]) < 0);
	odp_packet_free_multi(rx, n);

	CHECK(odp_pktio_stats(pktio, &stats) == 0);
	CHECK(stats.in_packets == NUM && stats.out_packets == NUM);
	CHECK(stats.in_octets == octets && stats.out_octets == octets);
	CHECK(stats.in_discards == 0 && stats.out_errors == 0);
	CHECK(odp_pktin_queue_stats(in, &qstats) == 0 && qstats.packets == NUM);
	CHECK(odp_pktio_stats_reset(pktio) == 0);
	CHECK(odp_pktio_stats(pktio, &stats) == 0 && stats.in_packets == 0);

	/* Waiting: the full time when nothing comes, no time when something is there. */
	t0 = odp_time_local_ns();
	CHECK(odp_pktin_recv_tmo(in, rx, NUM, odp_pktin_wait_time(20 * ODP_TIME_MSEC_IN_NS)) == 0);
	CHECK(odp_time_local_ns() - t0 >= 20 * ODP_TIME_MSEC_IN_NS);
	pkts[0] = make_udp(pool, 1, 1);
	CHECK(odp_pktout_send(out, pkts, 1) == 1);
	t0 = odp_time_local_ns();
	CHECK(odp_pktin_recv_tmo(in, rx, NUM, odp_pktin_wait_time(ODP_TIME_SEC_IN_NS)) == 1);
	CHECK(odp_time_local_ns() - t0 < ODP_TIME_SEC_IN_NS / 2);
	odp_packet_free(rx[0]);
	CHECK(odp_pktin_recv_tmo(in, rx, NUM, ODP_PKTIN_NO_WAIT) == 0);

	/* Stopped: no input, no output. */
	CHECK(odp_pktio_stop(pktio) == 0);
	CHECK(odp_pktio_stop(pktio) < 0);
	pkts[0] = make_udp(pool, 1, 1);
	CHECK(odp_pktout_send(out, pkts, 1) == 0);
	CHECK(odp_pktin_recv(in, rx, NUM) == 0);
	odp_packet_free(pkts[0]);

	/* Restart; packets left in the device are freed by close. */
	CHECK(odp_pktio_start(pktio) == 0);
	pkts[0] = make_udp(pool, 1, 1);
	CHECK(odp_pktout_send(out, pkts, 1) == 1);
	CHECK(odp_pktio_stop(pktio) == 0);
	CHECK(odp_pktio_close(pktio) == 0);
	CHECK(odp_pktio_lookup("loop") == ODP_PKTIO_INVALID);
	CHECK(odp_pktio_close(pktio) < 0);
	CHECK(odp_pktio_index(pktio) < 0);
}

static void test_multi_queue(odp_pool_t pool)
{
	odp_pktio_t pktio = test_pktio("loop1", pool, 4, 2, 1);
	odp_pktin_queue_t in[4];
	odp_pktout_queue_t out[2];
	odp_packet_t pkts[32];
	int flow_queue[64];
	int per_queue[4] = { 0 };
	int total = 0;
	int used = 0;

	CHECK(pktio != ODP_PKTIO_INVALID);
	CHECK(odp_pktin_queue(pktio, in, 4) == 4);
	CHECK(odp_pktout_queue(pktio, out, 2) == 2);
	for (int i = 0; i < 64; i++)
		flow_queue[i] = -1;
	/* 4 rounds of 64 flows, sent alternately on both output queues. */
	for (int round = 0; round < 4; round++) {
		for (int base = 0; base < 64; base += 16) {
			for (int i = 0; i < 16; i++)
				pkts[i] = make_udp(pool, (uint16_t)(1000 + base + i),
						   (uint32_t)(base + i));
			CHECK(odp_pktout_send(out[(base / 16) % 2], pkts, 16) == 16);
		}
		for (;;) {
			uint32_t from = 99;
			int n = odp_pktin_recv_mq_tmo(in, 4, &from, pkts, 32, ODP_PKTIN_NO_WAIT);

			CHECK(n >= 0);
			if (n == 0)
				break;
			CHECK(from < 4);
			for (int i = 0; i < n; i++) {
				uint32_t flow;

				memcpy(&flow, (uint8_t *)odp_packet_data(pkts[i]) + 50, 4);
				CHECK(flow < 64);
				/* One flow, one queue. */
				CHECK(flow_queue[flow] == -1 || flow_queue[flow] == (int)from);
				flow_queue[flow] = (int)from;
			}
			per_queue[from] += n;
			total += n;
			odp_packet_free_multi(pkts, n);
		}
	}
	CHECK(total == 4 * 64);
	for (int q = 0; q < 4; q++)
		used += per_queue[q] > 0;
	CHECK(used >= 2);
	CHECK(odp_pktio_stop(pktio) == 0);

	/* Too many queues, or reconfiguring while started, fails. */
	{
		odp_pktin_queue_param_t p;

		odp_pktin_queue_param_init(&p);
		p.num_queues = ODP_PKTIN_MAX_QUEUES + 1;
		CHECK(odp_pktin_queue_config(pktio, &p) < 0);
		p.num_queues = 1;
		CHECK(odp_pktin_queue_config(pktio, &p) == 0);
		CHECK(odp_pktio_start(pktio) == 0);
		CHECK(odp_pktin_queue_config(pktio, &p) < 0);
		CHECK(odp_pktio_stop(pktio) == 0);
	}
	CHECK(odp_pktio_close(pktio) == 0);
}

static void test_ring_full(odp_pool_t pool)
{
	odp_pktio_param_t param;
	odp_pktin_queue_param_t in_param;
	odp_pktio_t pktio;
	odp_pktin_queue_t in;
	odp_pktout_queue_t out;
	odp_packet_t pkts[20];
	int n;

	odp_pktio_param_init(&param);
	pktio = odp_pktio_open("loop2", pool, &param);
	CHECK(pktio != ODP_PKTIO_INVALID);
	odp_pktin_queue_param_init(&in_param);
	in_param.queue_size[0] = 16;
	CHECK(odp_pktin_queue_config(pktio, &in_param) == 0);
	CHECK(odp_pktout_queue_config(pktio, NULL) == 0);
	CHECK(odp_pktio_start(pktio) == 0);
	CHECK(odp_pktin_queue(pktio, &in, 1) == 1);
	CHECK(odp_pktout_queue(pktio, &out, 1) == 1);
	for (int i = 0; i < 20; i++)
		pkts[i] = make_udp(pool, 1, (uint32_t)i);
	/* The rest stays with the caller. */
	n = odp_pktout_send(out, pkts, 20);
	CHECK(n == 16);
	odp_packet_free_multi(pkts + n, 20 - n);
	CHECK(odp_pktin_recv(in, pkts, 20) == 16);
	odp_packet_free_multi(pkts, 16);
	CHECK(odp_pktio_stop(pktio) == 0);
	CHECK(odp_pktio_close(pktio) == 0);
}

int main(void)
{
	odp_instance_t inst = test_init(0, 0);
	odp_pool_t pool = test_pool("loop_pool", 512, 1536);

	CHECK(odp_pktio_open("loop", ODP_POOL_INVALID, NULL) == ODP_PKTIO_INVALID);
	test_single_queue(pool);
	test_multi_queue(pool);
	test_ring_full(pool);
	CHECK(odp_pool_destroy(pool) == 0);
	test_term(inst);
	printf("odp_test_loop: OK\n");
	return 0;
}
