/*
 * Bundled ODP, DPDK build: DPDK ports as pktios, driven by test_odp_dpdk.py.
 * The EAL arguments (vdevs) come from ODP_PLATFORM_PARAMS.
 *
 *   odp_test_dpdk init                  exit 0 if odp_init_global() works, 3 if not
 *   odp_test_dpdk fwd IN OUT DATA_ROOM  forward port IN to port OUT until IN is idle;
 *                                       prints "rx=N tx=N discards=N"
 *   odp_test_dpdk ring NUM_QUEUES       a net_ring pair made with rte_eth_from_rings():
 *                                       what one sends on queue q, the other gets on
 *                                       queue q
 *   odp_test_dpdk null NUM_QUEUES       port 0 is net_null: every RX queue delivers
 *   odp_test_dpdk tap N                 ports 0..N-1 are net_tap, whose RX queues take an
 *                                       mbuf per descriptor at start: a small pool
 *                                       starts them and keeps half its packets free
 *
 * Every received packet is checked to be an mbuf of the pool, with the ODP
 * data pointer and length those of the mbuf (zero copy).
 */
#define _GNU_SOURCE
#include <string.h>

#include <rte_eth_ring.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "odp_test.h"

#include <odp_bundled_ext.h>

#define BURST 32
#define IDLE_NS (300 * 1000 * 1000ull)

static odp_pool_info_t pool_info;

/* The packet is an mbuf of the pool, its data the mbuf's, and a received
 * packet has no user metadata, whatever the mbuf's last use set. */
static void check_zero_copy(odp_packet_t pkt)
{
	struct rte_mbuf *m = (struct rte_mbuf *)(void *)pkt;

	CHECK((uintptr_t)m >= pool_info.min_data_addr);
	CHECK((uintptr_t)m->buf_addr + m->buf_len - 1 <= pool_info.max_data_addr);
	CHECK(odp_packet_head(pkt) == m->buf_addr);
	CHECK(odp_packet_data(pkt) == rte_pktmbuf_mtod(m, void *));
	CHECK(odp_packet_len(pkt) == m->pkt_len && m->nb_segs == 1);
	CHECK(odp_packet_is_valid(pkt));
	CHECK(odp_packet_user_ptr(pkt) == NULL && !odp_packet_user_flag(pkt));
}

/* Leave user metadata on a packet about to be sent (and so freed into the
 * pool, to be received again). */
static void dirty_user_meta(odp_packet_t pkt)
{
	odp_packet_user_ptr_set(pkt, &pool_info);
	odp_packet_user_flag_set(pkt, 1);
	CHECK(odp_packet_user_ptr(pkt) == &pool_info && odp_packet_user_flag(pkt));
}

static odp_pool_t make_pool(uint32_t num, uint32_t data_room)
{
	odp_pool_t pool = test_pool("dpdk", num, data_room);

	CHECK(odp_pool_info(pool, &pool_info) == 0);
	CHECK(pool_info.min_data_addr < pool_info.max_data_addr);
	return pool;
}

static int fwd(const char *in_name, const char *out_name, uint32_t data_room)
{
	odp_pool_t pool = make_pool(1024, data_room);
	odp_pktio_t in_io = test_pktio(in_name, pool, 1, 1, 0);
	odp_pktio_t out_io = strcmp(in_name, out_name) ? test_pktio(out_name, pool, 1, 1, 0) : in_io;
	odp_pktin_queue_t in;
	odp_pktout_queue_t out;
	odp_packet_t pkts[BURST];
	odp_pktio_stats_t stats;
	odp_pktin_queue_stats_t in_queue_stats;
	odp_pktout_queue_stats_t out_queue_stats;
	uint64_t last = odp_time_local_ns();
	uint64_t rx_octets = 0;
	uint64_t tx_octets = 0;
	long rx = 0;
	long tx = 0;

	CHECK(in_io != ODP_PKTIO_INVALID && out_io != ODP_PKTIO_INVALID);
	CHECK(odp_pktin_queue(in_io, &in, 1) == 1);
	CHECK(odp_pktout_queue(out_io, &out, 1) == 1);
	/* net_pcap cannot tell the end of its file: stop when idle. */
	CHECK(odp_bundled_pktio_input_done(in_io) == ODP_BUNDLED_INPUT_UNKNOWN);
	while (odp_time_local_ns() - last < IDLE_NS) {
		int n = odp_pktin_recv(in, pkts, BURST);
		uint64_t octets = 0;
		int sent;

		CHECK(n >= 0);
		if (n == 0)
			continue;
		last = odp_time_local_ns();
		for (int i = 0; i < n; i++) {
			check_zero_copy(pkts[i]);
			CHECK(odp_packet_input(pkts[i]) == in_io);
			CHECK(odp_packet_input_index(pkts[i]) == odp_pktio_index(in_io));
			dirty_user_meta(pkts[i]);
			octets += odp_packet_len(pkts[i]);
		}
		rx += n;
		rx_octets += octets;
		sent = odp_pktout_send(out, pkts, n);
		CHECK(sent == n);
		tx += sent;
		tx_octets += octets;
	}
	/* The octets are net_pcap's own counts, which take in the frames
	 * dropped as chained too. */
	CHECK(odp_pktio_stats(in_io, &stats) == 0);
	CHECK(stats.in_packets == (uint64_t)rx);
	CHECK(stats.in_discards ? stats.in_octets > rx_octets : stats.in_octets == rx_octets);
	CHECK(odp_pktin_queue_stats(in, &in_queue_stats) == 0);
	CHECK(in_queue_stats.octets == stats.in_octets);
	printf("rx=%ld tx=%ld discards=%llu\n", rx, tx, (unsigned long long)stats.in_discards);
	CHECK(odp_pktio_stats(out_io, &stats) == 0);
	CHECK(stats.out_packets == (uint64_t)tx);
	CHECK(stats.out_octets == tx_octets);
	CHECK(odp_pktout_queue_stats(out, &out_queue_stats) == 0);
	CHECK(out_queue_stats.octets == tx_octets);
	CHECK(odp_pktio_stop(in_io) == 0);
	CHECK(odp_pktio_close(in_io) == 0);
	if (out_io != in_io) {
		CHECK(odp_pktio_stop(out_io) == 0);
		CHECK(odp_pktio_close(out_io) == 0);
	}
	return odp_pool_destroy(pool);
}

/* Send packets marked (queue, i) from one port, receive them on the other. */
static void ring_pass(odp_pktio_t from, odp_pktio_t to, uint32_t q, odp_pool_t pool)
{
	odp_pktout_queue_t out[ODP_PKTOUT_MAX_QUEUES];
	odp_pktin_queue_t in[ODP_PKTIN_MAX_QUEUES];
	odp_packet_t sent[8];
	odp_packet_t got[BURST];

	CHECK(odp_pktout_queue(from, out, ODP_PKTOUT_MAX_QUEUES) > (int)q);
	CHECK(odp_pktin_queue(to, in, ODP_PKTIN_MAX_QUEUES) > (int)q);
	CHECK(odp_packet_alloc_multi(pool, 60, sent, 8) == 8);
	for (int i = 0; i < 8; i++) {
		uint8_t *d = odp_packet_data(sent[i]);

		memset(d, 0, 60);
		d[0] = (uint8_t)q;
		d[1] = (uint8_t)i;
		/* Sent from a moved data pointer: the mbuf must follow. */
		CHECK(odp_packet_pull_head(sent[i], 2) != NULL);
		CHECK(odp_packet_push_head(sent[i], 2) != NULL);
		CHECK(odp_packet_pull_tail(sent[i], (uint32_t)i) != NULL);
	}
	CHECK(odp_pktout_send(out[q], sent, 8) == 8);
	CHECK(odp_pktin_recv(in[q], got, BURST) == 8);
	for (int i = 0; i < 8; i++) {
		const uint8_t *d = odp_packet_data(got[i]);

		/* The very packet that was sent: nothing was copied. */
		CHECK(got[i] == sent[i]);
		check_zero_copy(got[i]);
		CHECK(d[0] == q && d[1] == i && odp_packet_len(got[i]) == 60u - (uint32_t)i);
		CHECK(odp_packet_input(got[i]) == to);
	}
	odp_packet_free_multi(got, 8);
}

/* Two net_ring ports, each transmitting into the other's receive rings; the
 * pktio name of the first. */
static void ring_pair(uint32_t num_q, char name0[8], char name1[8])
{
	struct rte_ring *ab[ODP_PKTIN_MAX_QUEUES];
	struct rte_ring *ba[ODP_PKTIN_MAX_QUEUES];
	int a;
	int b;

	for (uint32_t q = 0; q < num_q; q++) {
		char name[RTE_RING_NAMESIZE];

		snprintf(name, sizeof(name), "ab%u", q);
		ab[q] = rte_ring_create(name, 256, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
		snprintf(name, sizeof(name), "ba%u", q);
		ba[q] = rte_ring_create(name, 256, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
		CHECK(ab[q] && ba[q]);
	}
	a = rte_eth_from_rings("ring_a", ba, num_q, ab, num_q, SOCKET_ID_ANY);
	b = rte_eth_from_rings("ring_b", ab, num_q, ba, num_q, SOCKET_ID_ANY);
	CHECK(a >= 0 && b >= 0);
	snprintf(name0, 8, "%d", a);
	snprintf(name1, 8, "%d", b);
}

static int ring(uint32_t num_q)
{
	odp_pool_t pool = make_pool(512, 2048);
	char name0[8];
	char name1[8];
	odp_pktio_t p0;
	odp_pktio_t p1;
	odp_pktio_capability_t capa;
	odp_pktio_stats_t stats;
	odp_pktin_queue_t in;
	odp_packet_t all[600];
	odp_packet_t pkt;
	uint8_t mac[6];
	int n;

	ring_pair(num_q, name0, name1);
	p0 = test_pktio(name0, pool, num_q, num_q, 0);
	p1 = test_pktio(name1, pool, num_q, num_q, 0);
	CHECK(p0 != ODP_PKTIO_INVALID && p1 != ODP_PKTIO_INVALID);
	CHECK(odp_pktio_capability(p0, &capa) == 0);
	CHECK(capa.max_input_queues >= num_q && capa.max_input_queues <= ODP_PKTIN_MAX_QUEUES);
	CHECK(odp_pktio_link_status(p0) == ODP_PKTIO_LINK_STATUS_UP);
	CHECK(odp_pktio_mac_addr(p0, mac, sizeof(mac)) == 6);
	CHECK(odp_pktin_maxlen(p0) >= 1514);
	CHECK(odp_bundled_pktio_input_done(p0) == 0);
	for (uint32_t q = 0; q < num_q; q++) {
		ring_pass(p1, p0, q, pool);
		ring_pass(p0, p1, q, pool);
	}
	CHECK(odp_pktio_stats(p0, &stats) == 0);
	CHECK(stats.in_packets == 8 * num_q && stats.out_packets == 8 * num_q);
	CHECK(odp_pktio_stats_reset(p0) == 0);
	CHECK(odp_pktio_stats(p0, &stats) == 0 && stats.in_packets == 0);

	/* The whole pool, then nothing; the one-by-one path near the end. */
	n = odp_packet_alloc_multi(pool, 100, all, 600);
	CHECK(n == 512);
	CHECK(odp_packet_alloc(pool, 100) == ODP_PACKET_INVALID);
	odp_packet_free_multi(all, 500);
	CHECK(odp_packet_alloc_multi(pool, 100, all, 600) == 500);
	odp_packet_free_multi(all, 512);
	pkt = odp_packet_alloc(pool, 2048);
	CHECK(pkt != ODP_PACKET_INVALID && odp_packet_headroom(pkt) == RTE_PKTMBUF_HEADROOM);
	CHECK(odp_packet_tailroom(pkt) == 0 && odp_packet_alloc(pool, 2049) == ODP_PACKET_INVALID);
	CHECK(odp_packet_reset(pkt, 10) == 0 && odp_packet_len(pkt) == 10);
	odp_packet_free(pkt);

	CHECK(odp_pktin_queue(p0, &in, 1) >= 1);
	CHECK(odp_pktio_stop(p0) == 0 && odp_pktio_stop(p1) == 0);
	CHECK(odp_pktio_close(p0) == 0 && odp_pktio_close(p1) == 0);
	CHECK(odp_pool_destroy(pool) == 0);
	printf("ring: OK\n");
	return 0;
}

static int null_rx(uint32_t num_q)
{
	odp_pool_t pool = make_pool(1024, 2048);
	odp_pktio_t p0 = test_pktio("0", pool, num_q, num_q, 0);
	odp_pktin_queue_t in[ODP_PKTIN_MAX_QUEUES];
	odp_packet_t pkts[BURST];

	CHECK(p0 != ODP_PKTIO_INVALID);
	/* The same port under another name is not a second pktio. */
	CHECK(odp_pktio_open("00", pool, NULL) == ODP_PKTIO_INVALID);
	CHECK(odp_pktin_queue(p0, in, ODP_PKTIN_MAX_QUEUES) == (int)num_q);
	for (uint32_t q = 0; q < num_q; q++) {
		int n = odp_pktin_recv(in[q], pkts, BURST);

		CHECK(n == BURST);
		for (int i = 0; i < n; i++)
			check_zero_copy(pkts[i]);
		odp_packet_free_multi(pkts, n);
	}
	CHECK(odp_pktio_stop(p0) == 0 && odp_pktio_close(p0) == 0);
	CHECK(odp_pool_destroy(pool) == 0);
	printf("null: OK\n");
	return 0;
}

static int tap(uint32_t num_ports)
{
	odp_pool_t pool = make_pool(512, 2048);
	odp_pktio_t ports[8];
	odp_packet_t all[512];
	char name[4];
	int n;

	CHECK(num_ports >= 1 && num_ports <= 8);
	for (uint32_t i = 0; i < num_ports; i++) {
		snprintf(name, sizeof(name), "%u", i);
		ports[i] = test_pktio(name, pool, 1, 1, 0);
		CHECK(ports[i] != ODP_PKTIO_INVALID);
	}
	n = odp_packet_alloc_multi(pool, 60, all, 512);
	CHECK(n >= 256);
	odp_packet_free_multi(all, n);
	for (uint32_t i = 0; i < num_ports; i++)
		CHECK(odp_pktio_stop(ports[i]) == 0 && odp_pktio_close(ports[i]) == 0);
	CHECK(odp_pool_destroy(pool) == 0);
	printf("tap: OK free=%d\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	odp_instance_t inst;
	int ret;

	if (argc == 2 && strcmp(argv[1], "init") == 0) {
		if (odp_init_global(&inst, NULL, NULL) != 0)
			return 3;
		CHECK(odp_term_global(inst) == 0);
		return 0;
	}
	inst = test_init(0, 1);
	if (argc == 5 && strcmp(argv[1], "fwd") == 0)
		ret = fwd(argv[2], argv[3], (uint32_t)atoi(argv[4]));
	else if (argc == 3 && strcmp(argv[1], "ring") == 0)
		ret = ring((uint32_t)atoi(argv[2]));
	else if (argc == 3 && strcmp(argv[1], "tap") == 0)
		ret = tap((uint32_t)atoi(argv[2]));
	else if (argc == 3 && strcmp(argv[1], "null") == 0)
		ret = null_rx((uint32_t)atoi(argv[2]));
	else
		ret = 2;
	test_term(inst);
	return ret;
}
