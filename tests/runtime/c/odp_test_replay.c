/*
 * Bundled ODP: the pcap device's cache option (replay from memory) and the
 * null device, driven by test_odp_bundled.py.
 *
 *   odp_test_replay dump DEVNAME NUM_IN HASH MAX POOL_NUM
 *       receive from the NUM_IN input queues in turn (hash_enable = HASH) until
 *       the input is done or MAX packets came, printing "Q HEX" per packet and
 *       at the end "rx=N discards=N errors=N done=D"
 *   odp_test_replay threads DEVNAME NUM_IN
 *       one thread per input queue (ODP_PKTIO_OP_MT_UNSAFE, hash on) receives
 *       until the input is done; prints "rx=N"
 *   odp_test_replay queues DEVNAME
 *       prints "in=N out=N", the device's queue limits
 *   odp_test_replay null
 *       checks the null device; prints "odp_test_replay null: OK"
 */
#include <pthread.h>
#include <string.h>

#include "odp_test.h"

#include <odp_bundled_ext.h>

#define BURST 32
#define THREADS_MAX 8

static odp_pktio_t open_in(const char *devname, odp_pool_t pool, uint32_t num_in, int hash)
{
	odp_pktio_t pktio = test_pktio(devname, pool, num_in, 1, hash);

	CHECK(pktio != ODP_PKTIO_INVALID);
	return pktio;
}

static void print_stats(odp_pktio_t pktio, long rx)
{
	odp_pktio_stats_t stats;

	CHECK(odp_pktio_stats(pktio, &stats) == 0);
	CHECK(stats.in_packets == (uint64_t)rx);
	printf("rx=%ld discards=%llu errors=%llu done=%d\n", rx,
	       (unsigned long long)stats.in_discards, (unsigned long long)stats.in_errors,
	       odp_bundled_pktio_input_done(pktio));
}

static int dump(const char *devname, uint32_t num_in, int hash, long max, uint32_t pool_num)
{
	odp_pool_t pool = test_pool("replay_pool", pool_num, 1600);
	odp_pktio_t pktio = open_in(devname, pool, num_in, hash);
	odp_pktin_queue_t in[ODP_PKTIN_MAX_QUEUES];
	odp_packet_t pkts[BURST];
	long rx = 0;

	CHECK(odp_pktin_queue(pktio, in, ODP_PKTIN_MAX_QUEUES) == (int)num_in);
	while (rx < max && odp_bundled_pktio_input_done(pktio) != 1) {
		for (uint32_t q = 0; q < num_in && rx < max; q++) {
			int want = max - rx < BURST ? (int)(max - rx) : BURST;
			int n = odp_pktin_recv(in[q], pkts, want);

			CHECK(n >= 0 && n <= want);
			for (int i = 0; i < n; i++) {
				const uint8_t *d = odp_packet_data(pkts[i]);

				CHECK(odp_packet_input(pkts[i]) == pktio);
				printf("%u ", q);
				for (uint32_t j = 0; j < odp_packet_len(pkts[i]); j++)
					printf("%02x", d[j]);
				printf("\n");
			}
			odp_packet_free_multi(pkts, n);
			rx += n;
		}
	}
	/* Done means nothing more on any queue. */
	for (uint32_t q = 0; rx < max && q < num_in; q++)
		CHECK(odp_pktin_recv(in[q], pkts, BURST) == 0);
	print_stats(pktio, rx);
	CHECK(odp_pktio_stop(pktio) == 0);
	CHECK(odp_pktio_close(pktio) == 0);
	CHECK(odp_pool_destroy(pool) == 0);
	return 0;
}

struct rx_thread {
	odp_instance_t inst;
	odp_pktio_t pktio;
	odp_pktin_queue_t queue;
	long rx;
};

static void *rx_main(void *arg)
{
	struct rx_thread *t = arg;
	odp_packet_t pkts[BURST];

	CHECK(odp_init_local(t->inst, ODP_THREAD_WORKER) == 0);
	while (odp_bundled_pktio_input_done(t->pktio) != 1) {
		int n = odp_pktin_recv(t->queue, pkts, BURST);

		CHECK(n >= 0);
		odp_packet_free_multi(pkts, n);
		t->rx += n;
	}
	CHECK(odp_term_local() == 1);  /* not the last thread */
	return NULL;
}

static int threads(odp_instance_t inst, const char *devname, uint32_t num_in)
{
	odp_pool_t pool = test_pool("replay_pool", 1024, 1600);
	odp_pktio_t pktio = open_in(devname, pool, num_in, 1);
	odp_pktin_queue_t in[THREADS_MAX];
	struct rx_thread t[THREADS_MAX];
	pthread_t thr[THREADS_MAX];
	long rx = 0;

	CHECK(num_in <= THREADS_MAX);
	CHECK(odp_pktin_queue(pktio, in, THREADS_MAX) == (int)num_in);
	for (uint32_t q = 0; q < num_in; q++) {
		t[q] = (struct rx_thread){ inst, pktio, in[q], 0 };
		CHECK(pthread_create(&thr[q], NULL, rx_main, &t[q]) == 0);
	}
	for (uint32_t q = 0; q < num_in; q++) {
		CHECK(pthread_join(thr[q], NULL) == 0);
		rx += t[q].rx;
	}
	print_stats(pktio, rx);
	CHECK(odp_pktio_stop(pktio) == 0);
	CHECK(odp_pktio_close(pktio) == 0);
	CHECK(odp_pool_destroy(pool) == 0);
	return 0;
}

static int queues(const char *devname)
{
	odp_pool_t pool = test_pool("replay_pool", 64, 1600);
	odp_pktio_t pktio = odp_pktio_open(devname, pool, NULL);
	odp_pktio_capability_t capa;

	CHECK(pktio != ODP_PKTIO_INVALID);
	CHECK(odp_pktio_capability(pktio, &capa) == 0);
	printf("in=%u out=%u\n", capa.max_input_queues, capa.max_output_queues);
	CHECK(odp_pktio_close(pktio) == 0);
	CHECK(odp_pool_destroy(pool) == 0);
	return 0;
}

/* ---- null ---- */

#define NULL_QUEUES 4
#define NULL_PER_THREAD 20000

struct tx_thread {
	odp_instance_t inst;
	odp_pool_t pool;
	odp_pktout_queue_t queue;
	uint32_t len;
};

static void *tx_main(void *arg)
{
	struct tx_thread *t = arg;
	odp_packet_t pkts[BURST];

	CHECK(odp_init_local(t->inst, ODP_THREAD_WORKER) == 0);
	for (int sent = 0; sent < NULL_PER_THREAD; sent += BURST) {
		CHECK(odp_packet_alloc_multi(t->pool, t->len, pkts, BURST) == BURST);
		CHECK(odp_pktout_send(t->queue, pkts, BURST) == BURST);
	}
	CHECK(odp_term_local() == 1);  /* not the last thread */
	return NULL;
}

static void test_null(odp_instance_t inst)
{
	odp_pool_t pool = test_pool("null_pool", 4 * NULL_QUEUES * BURST, 1600);
	odp_pktio_param_t param;
	odp_pktout_queue_param_t out_param;
	odp_pktio_capability_t capa;
	odp_pktio_info_t info;
	odp_pktio_stats_t stats;
	odp_pktin_queue_t in;
	odp_pktout_queue_t out[NULL_QUEUES];
	odp_packet_t pkts[BURST];
	odp_packet_t all[4 * NULL_QUEUES * BURST];
	struct tx_thread t[NULL_QUEUES];
	pthread_t thr[NULL_QUEUES];
	uint64_t octets = 0;
	uint8_t mac[6];
	odp_pktio_t pktio;

	/* Names: null and nullN; anything else is another kind's. */
	pktio = test_pktio("null7", pool, 1, 1, 0);
	CHECK(pktio != ODP_PKTIO_INVALID);
	CHECK(odp_pktio_info(pktio, &info) == 0 && strcmp(info.drv_name, "null") == 0);
	CHECK(odp_pktio_capability(pktio, &capa) == 0);
	CHECK(capa.max_input_queues == 64 && capa.max_output_queues == 64);
	CHECK(odp_pktio_mac_addr(pktio, mac, 6) == 6 && (mac[0] & 0x02) && !(mac[0] & 0x01));
	CHECK(odp_pktin_maxlen(pktio) >= 1514);
	CHECK(odp_pktin_queue(pktio, &in, 1) == 1);
	CHECK(odp_pktin_recv(in, pkts, BURST) == 0);
	CHECK(odp_bundled_pktio_input_done(pktio) == 1);
	CHECK(odp_pktio_stop(pktio) == 0);
	CHECK(odp_pktio_close(pktio) == 0);

	/* One unlocked output queue per thread; everything sent is counted and freed. */
	odp_pktio_param_init(&param);
	param.in_mode = ODP_PKTIN_MODE_DISABLED;
	pktio = odp_pktio_open("null", pool, &param);
	CHECK(pktio != ODP_PKTIO_INVALID);
	odp_pktout_queue_param_init(&out_param);
	out_param.num_queues = 65;
	CHECK(odp_pktout_queue_config(pktio, &out_param) < 0);
	out_param.num_queues = NULL_QUEUES;
	out_param.op_mode = ODP_PKTIO_OP_MT_UNSAFE;
	CHECK(odp_pktout_queue_config(pktio, &out_param) == 0);
	CHECK(odp_pktio_start(pktio) == 0);
	CHECK(odp_pktout_queue(pktio, out, NULL_QUEUES) == NULL_QUEUES);
	for (int q = 0; q < NULL_QUEUES; q++) {
		t[q] = (struct tx_thread){ inst, pool, out[q], 60 + 100 * (uint32_t)q };
		octets += (uint64_t)t[q].len * ((NULL_PER_THREAD + BURST - 1) / BURST * BURST);
		CHECK(pthread_create(&thr[q], NULL, tx_main, &t[q]) == 0);
	}
	for (int q = 0; q < NULL_QUEUES; q++)
		CHECK(pthread_join(thr[q], NULL) == 0);
	CHECK(odp_pktio_stats(pktio, &stats) == 0);
	CHECK(stats.out_packets == NULL_QUEUES * ((NULL_PER_THREAD + BURST - 1) / BURST * BURST));
	CHECK(stats.out_octets == octets);
	CHECK(stats.in_packets == 0 && stats.out_discards == 0 && stats.out_errors == 0);
	CHECK(odp_pktio_stop(pktio) == 0);
	CHECK(odp_pktio_close(pktio) == 0);

	/* Every packet is back in the pool. */
	for (int k = 0; k < 4 * NULL_QUEUES; k++)
		CHECK(odp_packet_alloc_multi(pool, 60, all + k * BURST, BURST) == BURST);
	CHECK(odp_packet_alloc(pool, 60) == ODP_PACKET_INVALID);
	odp_packet_free_multi(all, 4 * NULL_QUEUES * BURST);
	CHECK(odp_pool_destroy(pool) == 0);
}

int main(int argc, char *argv[])
{
	odp_instance_t inst;
	int ret = 2;

	if (argc < 2) {
		fprintf(stderr, "usage: odp_test_replay dump|threads|queues|null [ARGS]\n");
		return 2;
	}
	inst = test_init(THREADS_MAX, 1);
	if (!strcmp(argv[1], "dump") && argc == 7) {
		ret = dump(argv[2], (uint32_t)atoi(argv[3]), atoi(argv[4]), atol(argv[5]),
			   (uint32_t)atoi(argv[6]));
	} else if (!strcmp(argv[1], "threads") && argc == 4) {
		ret = threads(inst, argv[2], (uint32_t)atoi(argv[3]));
	} else if (!strcmp(argv[1], "queues") && argc == 3) {
		ret = queues(argv[2]);
	} else if (!strcmp(argv[1], "null") && argc == 2) {
		test_null(inst);
		printf("odp_test_replay null: OK\n");
		ret = 0;
	} else {
		fprintf(stderr, "odp_test_replay: bad arguments\n");
	}
	test_term(inst);
	return ret;
}
