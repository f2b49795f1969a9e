/*
 * Bundled ODP: the AF_XDP pktio on veth pairs, driven by test_odp_xdp.py
 * inside a network namespace.
 *
 *   odp_test_xdp IF_A IF_B [all|one]
 *
 * Opens xdp:IF_A with all its queues (or with one input queue, which must
 * get the frames of all the device's queues) and xdp:IF_B, prints "ready", then
 * forwards every frame from A to B and from B to A until stdin is closed
 * (the test sends frames from the far ends of the pairs and checks what
 * comes out). Then prints the counters and checks stop, restart and close.
 * Before that it checks that a start failing half way leaves no XDP program.
 */
#define _GNU_SOURCE
#include <linux/if_link.h>
#include <net/if.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <xdp/xsk.h>

#include "odp_test_if.h"

#define BURST 32

/* XDP attach mode of the interface's program, or XDP_ATTACHED_NONE. */
static int xdp_mode(const char *ifname)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, opts);
	int ifindex = (int)if_nametoindex(ifname);

	CHECK(ifindex > 0);
	CHECK(bpf_xdp_query(ifindex, 0, &opts) == 0);
	return opts.attach_mode;
}

static odp_pktio_t open_xdp(const char *ifname, odp_pool_t pool, int all_queues)
{
	char name[64];
	odp_pktio_param_t param;
	odp_pktio_capability_t capa;
	odp_pktin_queue_param_t in;
	odp_pktout_queue_param_t out;
	odp_pktio_t pktio;

	snprintf(name, sizeof(name), "xdp:%s", ifname);
	odp_pktio_param_init(&param);
	pktio = odp_pktio_open(name, pool, &param);
	CHECK(pktio != ODP_PKTIO_INVALID);
	CHECK(odp_pktio_capability(pktio, &capa) == 0);
	odp_pktin_queue_param_init(&in);
	in.num_queues = all_queues ? capa.max_input_queues : 1;
	in.op_mode = ODP_PKTIO_OP_MT_UNSAFE;
	CHECK(odp_pktin_queue_config(pktio, &in) == 0);
	odp_pktout_queue_param_init(&out);
	out.op_mode = ODP_PKTIO_OP_MT_UNSAFE;
	CHECK(odp_pktout_queue_config(pktio, &out) == 0);
	return pktio;
}

/*
 * Another AF_XDP socket on IF queue 1 (without a program of its own) makes
 * the start of a pktio with several queues fail after queue 0 is set up;
 * the program attached for queue 0 must be gone afterwards.
 */
static void check_failed_start(const char *ifname, odp_pool_t pool)
{
	struct xsk_socket_config cfg;
	struct xsk_ring_prod fill;
	struct xsk_ring_cons comp;
	struct xsk_ring_cons rx;
	struct xsk_umem *umem;
	struct xsk_socket *xsk;
	size_t len = 64 * 4096;
	void *area;
	odp_pktio_t pktio;

	area = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(area != MAP_FAILED);
	CHECK(xsk_umem__create(&umem, area, len, &fill, &comp, NULL) == 0);
	memset(&cfg, 0, sizeof(cfg));
	cfg.rx_size = 64;
	cfg.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD;
	cfg.xdp_flags = XDP_FLAGS_SKB_MODE;
	CHECK(xsk_socket__create(&xsk, ifname, 1, umem, &rx, NULL, &cfg) == 0);

	pktio = open_xdp(ifname, pool, 1);
	CHECK(odp_pktio_start(pktio) != 0);
	CHECK(xdp_mode(ifname) == XDP_ATTACHED_NONE);
	CHECK(odp_pktio_close(pktio) == 0);

	xsk_socket__delete(xsk);
	CHECK(xsk_umem__delete(umem) == 0);
	munmap(area, len);
}

/* Forward from every input queue of 'from' to output queue 0 of 'to'. */
static int forward(odp_pktio_t from, odp_pktio_t to, uint64_t per_queue[])
{
	odp_pktin_queue_t in[ODP_PKTIN_MAX_QUEUES];
	odp_pktout_queue_t out;
	int num_q = odp_pktin_queue(from, in, ODP_PKTIN_MAX_QUEUES);
	int total = 0;

	CHECK(num_q > 0 && odp_pktout_queue(to, &out, 1) == 1);
	for (int q = 0; q < num_q; q++) {
		odp_packet_t pkts[BURST];
		int n = odp_pktin_recv(in[q], pkts, BURST);
		int sent = 0;

		CHECK(n >= 0);
		per_queue[q] += (uint64_t)n;
		while (sent < n) {
			int done = odp_pktout_send(out, pkts + sent, n - sent);

			CHECK(done >= 0);
			sent += done;
		}
		total += n;
	}
	return total;
}

static int stdin_closed(int timeout_ms)
{
	struct pollfd pfd = { .fd = 0, .events = POLLIN };
	char buf[64];

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return 0;
	return read(0, buf, sizeof(buf)) <= 0;
}

static void print_stats(const char *tag, odp_pktio_t pktio)
{
	odp_pktio_stats_t s;

	CHECK(odp_pktio_stats(pktio, &s) == 0);
	printf("%s_in=%" PRIu64 " %s_in_octets=%" PRIu64 " %s_in_discards=%" PRIu64
	       " %s_in_errors=%" PRIu64 " %s_out=%" PRIu64 " %s_out_octets=%" PRIu64
	       " %s_out_discards=%" PRIu64 " %s_out_errors=%" PRIu64 "\n",
	       tag, s.in_packets, tag, s.in_octets, tag, s.in_discards, tag, s.in_errors,
	       tag, s.out_packets, tag, s.out_octets, tag, s.out_discards, tag, s.out_errors);
}

int main(int argc, char *argv[])
{
	static const char *const modes[] = { "none", "native", "generic", "offload", "multi" };
	uint64_t a_queue[ODP_PKTIN_MAX_QUEUES] = { 0 };
	uint64_t b_queue[ODP_PKTIN_MAX_QUEUES] = { 0 };
	odp_instance_t inst;
	odp_pool_t pool;
	odp_pktio_t a;
	odp_pktio_t b;
	odp_pktio_stats_t stats;
	odp_pktout_queue_t out_b;
	odp_packet_t pkt;
	int num_qa;
	int used = 0;
	int mode;
	int all_a;

	if (argc != 3 && !(argc == 4 && (!strcmp(argv[3], "all") || !strcmp(argv[3], "one")))) {
		fprintf(stderr, "usage: odp_test_xdp IF_A IF_B [all|one]\n");
		return 2;
	}
	all_a = argc == 3 || !strcmp(argv[3], "all");
	inst = test_init(0, 0);
	pool = test_pool("xdp_pool", 2048, 1600);
	CHECK(odp_pktio_open("xdp:", pool, NULL) == ODP_PKTIO_INVALID);
	CHECK(odp_pktio_open("xdp:p4odp-none0", pool, NULL) == ODP_PKTIO_INVALID);
	CHECK(!test_if_promisc(argv[1]));

	a = open_xdp(argv[1], pool, all_a);
	num_qa = odp_pktin_queue(a, NULL, 0);
	if (num_qa > 1) {
		CHECK(odp_pktio_close(a) == 0);
		check_failed_start(argv[1], pool);
		a = open_xdp(argv[1], pool, 1);
	}
	b = open_xdp(argv[2], pool, 0);
	CHECK(odp_pktio_start(a) == 0);
	CHECK(odp_pktio_start(b) == 0);
	mode = xdp_mode(argv[1]);
	CHECK(mode != XDP_ATTACHED_NONE && xdp_mode(argv[2]) != XDP_ATTACHED_NONE);

	test_check_if(a, argv[1]);
	printf("ready queues=%d mode_a=%s mode_b=%s\n", num_qa, modes[mode],
	       modes[xdp_mode(argv[2])]);
	fflush(stdout);

	while (!stdin_closed(0)) {
		int n = forward(a, b, a_queue) + forward(b, a, b_queue);

		if (n == 0 && stdin_closed(1))
			break;
	}
	for (int q = 0; q < num_qa; q++)
		used += a_queue[q] > 0;
	printf("a_queues_used=%d\n", used);
	print_stats("a", a);
	print_stats("b", b);

	/* Longer than the link takes: dropped and counted. */
	CHECK(odp_pktio_stats_reset(b) == 0);
	pkt = odp_packet_alloc(pool, 1515);
	CHECK(pkt != ODP_PACKET_INVALID);
	memset(odp_packet_data(pkt), 0, 1515);
	CHECK(odp_pktout_queue(b, &out_b, 1) == 1);
	CHECK(odp_pktout_send(out_b, &pkt, 1) == 1);
	CHECK(odp_pktio_stats(b, &stats) == 0);
	CHECK(stats.out_discards == 1 && stats.out_packets == 0);

	/* Stop takes the program away, start brings it back, close ends promiscuity. */
	CHECK(odp_pktio_stop(a) == 0);
	CHECK(xdp_mode(argv[1]) == XDP_ATTACHED_NONE);
	CHECK(odp_pktio_start(a) == 0);
	CHECK(xdp_mode(argv[1]) == mode);
	CHECK(odp_pktio_stop(a) == 0);
	CHECK(odp_pktio_stop(b) == 0);
	CHECK(xdp_mode(argv[1]) == XDP_ATTACHED_NONE);
	CHECK(xdp_mode(argv[2]) == XDP_ATTACHED_NONE);
	test_close_if(a, argv[1], b, argv[2]);
	CHECK(odp_pool_destroy(pool) == 0);
	test_term(inst);
	printf("odp_test_xdp: OK\n");
	return 0;
}
