/*
 * Bundled ODP: the pcap pktio, driven by test_odp_bundled.py.
 *
 *   odp_test_pcap fwd DEVNAME POOL_NUM DATA_ROOM  receive everything, send it back out
 *   odp_test_pcap gen DEVNAME COUNT OUTFILE       send COUNT generated packets; OUTFILE
 *                                                 (the out= file) is complete after stop
 *   odp_test_pcap open DEVNAME                    exit 0 if it opens, 3 if not
 *
 * fwd prints "rx=N tx=N discards=N errors=N".
 */
#include <string.h>
#include <sys/stat.h>

#include "odp_test.h"

#include <odp_bundled_ext.h>

#define BURST 32

static int fwd(odp_pool_t pool, const char *devname)
{
	odp_pktio_t pktio = test_pktio(devname, pool, 1, 1, 0);
	odp_pktin_queue_t in;
	odp_pktout_queue_t out;
	odp_packet_t pkts[BURST];
	odp_pktio_stats_t stats;
	long rx = 0;
	long tx = 0;
	uint64_t t0;

	CHECK(pktio != ODP_PKTIO_INVALID);
	CHECK(odp_pktin_queue(pktio, &in, 1) == 1);
	CHECK(odp_pktout_queue(pktio, &out, 1) == 1);
	for (;;) {
		int n = odp_pktin_recv(in, pkts, BURST);
		int sent;

		CHECK(n >= 0);
		if (n == 0) {
			if (odp_bundled_pktio_input_done(pktio) == 1)
				break;
			continue;
		}
		rx += n;
		sent = odp_pktout_send(out, pkts, n);
		CHECK(sent == n);
		tx += sent;
	}
	/* Drained: no more packets, and waiting returns at once. */
	t0 = odp_time_local_ns();
	CHECK(odp_pktin_recv_tmo(in, pkts, BURST, odp_pktin_wait_time(ODP_TIME_SEC_IN_NS)) == 0);
	CHECK(odp_time_local_ns() - t0 < ODP_TIME_SEC_IN_NS / 2);
	CHECK(odp_pktin_recv(in, pkts, BURST) == 0);
	CHECK(odp_bundled_pktio_input_done(pktio) == 1);
	CHECK(odp_pktio_stats(pktio, &stats) == 0);
	CHECK(stats.in_packets == (uint64_t)rx && stats.out_packets == (uint64_t)tx);
	CHECK(odp_pktio_stop(pktio) == 0);
	CHECK(odp_pktio_close(pktio) == 0);
	printf("rx=%ld tx=%ld discards=%llu errors=%llu\n", rx, tx,
	       (unsigned long long)stats.in_discards, (unsigned long long)stats.in_errors);
	return 0;
}

static int gen(odp_pool_t pool, const char *devname, int count, const char *outfile)
{
	odp_pktio_t pktio = test_pktio(devname, pool, 1, 1, 0);
	odp_pktin_queue_t in;
	odp_pktout_queue_t out;
	odp_packet_t pkt;
	uint8_t mac[6];
	struct stat st;
	long expect = 24;

	CHECK(pktio != ODP_PKTIO_INVALID);
	CHECK(odp_pktio_mac_addr(pktio, mac, 6) == 6);
	CHECK(odp_pktin_queue(pktio, &in, 1) == 1);
	CHECK(odp_pktout_queue(pktio, &out, 1) == 1);
	/* Without an input file there is nothing to receive. */
	CHECK(odp_bundled_pktio_input_done(pktio) == 1);
	CHECK(odp_pktin_recv(in, &pkt, 1) == 0);
	for (int i = 0; i < count; i++) {
		uint8_t *d;

		pkt = odp_packet_alloc(pool, (uint32_t)(60 + i));
		CHECK(pkt != ODP_PACKET_INVALID);
		d = odp_packet_data(pkt);
		for (int j = 0; j < 60 + i; j++)
			d[j] = (uint8_t)(i + j);
		CHECK(odp_pktout_send(out, &pkt, 1) == 1);
		expect += 16 + 60 + i;
	}
	/* Stop flushes the file. */
	CHECK(odp_pktio_stop(pktio) == 0);
	CHECK(stat(outfile, &st) == 0 && st.st_size == expect);
	CHECK(odp_pktio_close(pktio) == 0);
	return 0;
}

int main(int argc, char *argv[])
{
	odp_instance_t inst;
	odp_pool_t pool;
	odp_pool_param_t param;
	int ret;

	if (argc < 3) {
		fprintf(stderr, "usage: odp_test_pcap fwd|gen|open DEVNAME [ARGS]\n");
		return 2;
	}
	inst = test_init(0, 0);
	odp_pool_param_init(&param);
	param.type = ODP_POOL_PACKET;
	param.pkt.num = argc > 4 && !strcmp(argv[1], "fwd") ? (uint32_t)atoi(argv[3]) : 64;
	param.pkt.len = argc > 4 && !strcmp(argv[1], "fwd") ? (uint32_t)atoi(argv[4]) : 1600;
	pool = odp_pool_create("pcap_pool", &param);
	CHECK(pool != ODP_POOL_INVALID);

	if (!strcmp(argv[1], "fwd")) {
		ret = fwd(pool, argv[2]);
	} else if (!strcmp(argv[1], "gen") && argc > 4) {
		ret = gen(pool, argv[2], atoi(argv[3]), argv[4]);
	} else if (!strcmp(argv[1], "open")) {
		odp_pktio_t pktio = odp_pktio_open(argv[2], pool, NULL);

		ret = pktio == ODP_PKTIO_INVALID ? 3 : 0;
		if (pktio != ODP_PKTIO_INVALID)
			CHECK(odp_pktio_close(pktio) == 0);
	} else {
		fprintf(stderr, "unknown command '%s'\n", argv[1]);
		ret = 2;
	}
	CHECK(odp_pool_destroy(pool) == 0);
	test_term(inst);
	return ret;
}
