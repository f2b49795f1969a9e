/* p4odp bench --latency: the generator (and, with --forward, the baseline's forwarder).
 *
 * A DPDK program on one lcore whose ports are the other ends of the device under test's
 * (net_memif, this side the server).  It sends the frames of --frames (a pcap file, in turn)
 * on port --in-port, each with a 16-byte stamp in its last bytes (the TSC when sent, a
 * sequence number, the phase's tag), and polls every port for them coming back: one-way time
 * is the TSC when the burst that holds a frame is received minus its stamp, both read on this
 * lcore.  Phases: the frames come back (a probe a millisecond, until one does); the maximum
 * rate (bursts of 32 as fast as the port takes them, for --max-seconds); then for each load of
 * --loads, that share of the maximum, paced by the TSC, --warmup seconds unrecorded then
 * --seconds recorded.  A frame sent and not received before the drain ends (no frame for
 * DRAIN_IDLE_MS, at most DRAIN_MAX_MS) is lost; a frame whose ring was full is lost too (and
 * counted as refused).  The report is one JSON document, written to --out (through a
 * temporary file renamed, so that it appears whole); progress lines on standard error.  Then
 * it waits for the other ends to leave (their links down) or for SIGINT or SIGTERM: a memif
 * client whose server goes away while it polls may crash, so the device under test is
 * stopped first.
 *
 * --forward: no generator, a forwarder for the baseline: port 0's frames to port 1, as they
 * are, until SIGINT or SIGTERM.
 *
 * Built by switchbench/latency.py with pkg-config's libdpdk, into p4odp's cache.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#define LG_BURST 32
#define LG_DESCRIPTORS 1024
#define LG_POOL_SIZE 16383
#define LG_MAX_PORTS 16
#define LG_MAX_FRAMES 65536
#define LG_MAX_FRAME 2000          /* memif's default buffers hold 2,048 bytes */
#define LG_STAMP_LEN 16
#define LG_TAG 0x9e3779b1u         /* the tag of phase k is LG_TAG + k */
#define LG_MAX_LOADS 16
#define LG_CATCH_UP 64
#define LG_MAX_MPPS 64.0           /* bounds the maximum phase's sequence numbers */
#define LG_HIST_PER_DECADE 20      /* histogram: 20 bins a decade from 10 ns to 100 ms */
#define LG_HIST_DECADES 7
#define LG_HIST_BINS (LG_HIST_PER_DECADE * LG_HIST_DECADES)
#define LG_HIST_LOW_NS 10.0
#define DRAIN_IDLE_MS 100         /* longer than a time slice lost to another process */
#define DRAIN_MAX_MS 1000

struct lg_stamp {
	uint64_t tsc;
	uint32_t seq;
	uint32_t tag;
} __attribute__((packed));

/* One phase's frames: which came back, and (recorded phases) their one-way times. */
struct lg_phase {
	uint32_t tag;
	uint64_t cap;              /* sequence numbers it may use */
	uint64_t sent;             /* sequence numbers used: frames handed to the port or refused */
	uint64_t refused;          /* the port's ring was full */
	uint64_t received;         /* distinct frames back */
	uint64_t copies;           /* frames back a second time or more (multicast, floods) */
	uint64_t skipped;          /* paced sends dropped, the generator having been held up */
	uint64_t backwards;        /* frames back before their stamp by the TSC (recorded as 0) */
	uint8_t *seen;             /* a bit per sequence number */
	uint32_t *cycles;          /* one-way times, when recorded; NULL otherwise */
};

struct lg_frame {
	uint16_t len;
	uint8_t data[LG_MAX_FRAME];
};

struct lg_ctx {
	struct rte_mempool *pool;
	uint16_t ports;
	uint16_t in_port;
	struct lg_frame *frames;
	uint32_t nframes, next_frame;
	struct lg_phase *phases[8]; /* the phases whose frames may still come back */
	unsigned nphases;
	uint64_t foreign;           /* frames without a stamp of a live phase */
	uint64_t hz;
};

static volatile sig_atomic_t lg_stop;

static void lg_on_signal(int sig)
{
	(void)sig;
	lg_stop = 1;
}

static void lg_die(const char *what)
{
	fprintf(stderr, "latency generator: %s\n", what);
	exit(1);
}

/* ------------------------------------------------------------------------ frames */

static uint32_t lg_read_pcap(const char *path, struct lg_frame *frames)
{
	FILE *f = fopen(path, "rb");
	uint8_t header[24], record[16];
	uint32_t n = 0;

	if (f == NULL)
		lg_die("cannot open the frames' pcap file");
	if (fread(header, 1, sizeof(header), f) != sizeof(header) || *(uint32_t *)header != 0xa1b2c3d4u)
		lg_die("the frames' file is not a little-endian pcap file");
	while (n < LG_MAX_FRAMES && fread(record, 1, sizeof(record), f) == sizeof(record)) {
		uint32_t len = *(uint32_t *)(record + 8);

		if (len > LG_MAX_FRAME || len < LG_STAMP_LEN + 14)
			lg_die("a frame is shorter than its header and stamp, or longer than 2,000 bytes");
		if (fread(frames[n].data, 1, len, f) != len)
			lg_die("the frames' pcap file is cut short");
		frames[n++].len = (uint16_t)len;
	}
	fclose(f);
	if (n == 0)
		lg_die("the frames' pcap file holds no frame");
	return n;
}

/* ------------------------------------------------------------------------ phases */

static struct lg_phase *lg_phase_new(unsigned k, uint64_t cap, int recorded)
{
	struct lg_phase *p = calloc(1, sizeof(*p));

	if (p == NULL)
		lg_die("out of memory");
	p->tag = LG_TAG + k;
	p->cap = cap;
	p->seen = calloc(cap / 8 + 1, 1);
	p->cycles = recorded ? malloc(cap * sizeof(uint32_t)) : NULL;
	if (p->seen == NULL || (recorded && p->cycles == NULL))
		lg_die("out of memory for the phase's frames");
	return p;
}

static void lg_phase_free(struct lg_phase *p)
{
	free(p->seen);
	free(p->cycles);
	free(p);
}

static void lg_live(struct lg_ctx *c, struct lg_phase *p)
{
	c->nphases = 0;
	c->phases[c->nphases++] = p;
}

/* ------------------------------------------------------------------------ the fast path */

static void lg_send(struct lg_ctx *c, struct lg_phase *p, unsigned n)
{
	struct rte_mbuf *m[LG_BURST];
	unsigned i, sent;
	uint64_t now;

	if (n > p->cap - p->sent)
		n = (unsigned)(p->cap - p->sent);
	if (n == 0 || rte_pktmbuf_alloc_bulk(c->pool, m, n) != 0)
		return;
	for (i = 0; i < n; i++) {
		const struct lg_frame *f = &c->frames[c->next_frame];

		c->next_frame = c->next_frame + 1 == c->nframes ? 0 : c->next_frame + 1;
		rte_memcpy(rte_pktmbuf_mtod(m[i], void *), f->data, f->len);
		m[i]->data_len = m[i]->pkt_len = f->len;
	}
	now = rte_rdtsc();
	for (i = 0; i < n; i++) {
		struct lg_stamp s = {now, (uint32_t)(p->sent + i), p->tag};

		memcpy(rte_pktmbuf_mtod_offset(m[i], uint8_t *, m[i]->data_len - LG_STAMP_LEN), &s, sizeof(s));
	}
	sent = rte_eth_tx_burst(c->in_port, 0, m, (uint16_t)n);
	if (unlikely(sent < n)) {
		rte_pktmbuf_free_bulk(m + sent, n - sent);
		p->refused += n - sent;
	}
	p->sent += n;
}

/* Poll every port once; the frames received back. */
static unsigned lg_receive(struct lg_ctx *c)
{
	struct rte_mbuf *m[LG_BURST];
	unsigned total = 0;
	uint16_t port;

	for (port = 0; port < c->ports; port++) {
		uint16_t n = rte_eth_rx_burst(port, 0, m, LG_BURST);
		uint64_t now = rte_rdtsc();
		unsigned i, k;

		for (i = 0; i < n; i++) {
			struct lg_stamp s, *sp;
			struct lg_phase *p = NULL;

			if (i + 4 < n)
				rte_prefetch0(rte_pktmbuf_mtod_offset(m[i + 4], void *, m[i + 4]->pkt_len - LG_STAMP_LEN));
			sp = m[i]->pkt_len >= LG_STAMP_LEN ? (struct lg_stamp *)rte_pktmbuf_read(
				m[i], m[i]->pkt_len - LG_STAMP_LEN, LG_STAMP_LEN, &s) : NULL;
			for (k = 0; sp != NULL && k < c->nphases; k++)
				if (c->phases[k]->tag == sp->tag)
					p = c->phases[k];
			if (p == NULL || sp->seq >= p->sent) {
				c->foreign++;
			} else if (p->seen[sp->seq >> 3] & (1u << (sp->seq & 7))) {
				p->copies++;
			} else {
				p->seen[sp->seq >> 3] |= (uint8_t)(1u << (sp->seq & 7));
				if (p->cycles != NULL && unlikely(now < sp->tsc)) {
					p->backwards++; /* a TSC that went back: a virtual CPU moved? */
					p->cycles[p->received] = 0;
				} else if (p->cycles != NULL) {
					p->cycles[p->received] = (uint32_t)RTE_MIN(now - sp->tsc, (uint64_t)UINT32_MAX);
				}
				p->received++;
			}
		}
		rte_pktmbuf_free_bulk(m, n);
		total += n;
	}
	return total;
}

/* Send for `seconds`: `period` TSC cycles apart, or (period 0) bursts as fast as the port
 * takes them; poll for frames back all along.  Held up for more than LG_CATCH_UP periods (its
 * CPU taken by another process), the generator skips the sends it owes rather than send them
 * in one rush the device would see as a burst. */
static void lg_run(struct lg_ctx *c, struct lg_phase *p, double seconds, double period)
{
	uint64_t start = rte_rdtsc();
	uint64_t end = start + (uint64_t)(seconds * (double)c->hz);
	double next = (double)start;

	while (!lg_stop) {
		uint64_t now = rte_rdtsc();
		unsigned n = 0;

		if (now >= end)
			break;
		if (period == 0.0) {
			n = LG_BURST;
		} else {
			if ((double)now - next > LG_CATCH_UP * period) {
				uint64_t owed = (uint64_t)(((double)now - next) / period);

				p->skipped += owed;
				next += (double)owed * period;
			}
			while (n < LG_BURST && next <= (double)now) {
				n++;
				next += period;
			}
		}
		if (n)
			lg_send(c, p, n);
		lg_receive(c);
	}
}

/* Receive until nothing came for DRAIN_IDLE_MS (at most DRAIN_MAX_MS). */
static void lg_drain(struct lg_ctx *c)
{
	uint64_t start = rte_rdtsc(), last = start;
	uint64_t idle = c->hz * DRAIN_IDLE_MS / 1000, most = c->hz * DRAIN_MAX_MS / 1000;

	for (;;) {
		uint64_t now = rte_rdtsc();

		if (lg_receive(c))
			last = now;
		if (now - last > idle || now - start > most || lg_stop)
			break;
	}
}

/* ------------------------------------------------------------------------ statistics */

static int lg_compare(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static double lg_us(const struct lg_ctx *c, uint32_t cycles)
{
	return (double)cycles * 1e6 / (double)c->hz;
}

/* The nearest-rank percentile q (0..1] of n sorted values. */
static uint32_t lg_rank(const uint32_t *v, uint64_t n, double q)
{
	uint64_t k = (uint64_t)ceil(q * (double)n);

	return v[k ? k - 1 : 0];
}

static void lg_report_phase(FILE *out, const struct lg_ctx *c, struct lg_phase *p, double load, double pps,
			    double seconds, int last)
{
	uint64_t n = p->received, i, hist[LG_HIST_BINS] = {0};
	double sum = 0.0;

	qsort(p->cycles, n, sizeof(uint32_t), lg_compare);
	for (i = 0; i < n; i++) {
		double ns = lg_us(c, p->cycles[i]) * 1e3;
		int bin = ns <= LG_HIST_LOW_NS ? 0 : (int)(log10(ns / LG_HIST_LOW_NS) * LG_HIST_PER_DECADE);

		hist[RTE_MIN(bin, LG_HIST_BINS - 1)]++;
		sum += ns;
	}
	fprintf(out, "  {\"load\": %g, \"rate_pps\": %.1f, \"seconds\": %g, \"sent\": %" PRIu64 ", \"received\": %" PRIu64
	       ", \"lost\": %" PRIu64 ", \"refused\": %" PRIu64 ", \"copies\": %" PRIu64 ", \"skipped\": %" PRIu64
	       ", \"backwards\": %" PRIu64, load, pps, seconds, p->sent, p->received, p->sent - p->received, p->refused,
	       p->copies, p->skipped, p->backwards);
	if (n) {
		fprintf(out, ", \"min_us\": %.3f, \"mean_us\": %.3f, \"p50_us\": %.3f, \"p99_us\": %.3f, \"p999_us\": %.3f"
		       ", \"max_us\": %.3f", lg_us(c, p->cycles[0]), sum / (double)n / 1e3,
		       lg_us(c, lg_rank(p->cycles, n, 0.50)), lg_us(c, lg_rank(p->cycles, n, 0.99)),
		       lg_us(c, lg_rank(p->cycles, n, 0.999)), lg_us(c, p->cycles[n - 1]));
	}
	fprintf(out, ",\n   \"histogram\": {\"low_ns\": %g, \"per_decade\": %d, \"counts\": [", LG_HIST_LOW_NS,
	       LG_HIST_PER_DECADE);
	for (i = 0; i < LG_HIST_BINS; i++)
		fprintf(out, "%s%" PRIu64, i ? ", " : "", hist[i]);
	fprintf(out, "]}}%s\n", last ? "" : ",");
}

/* ------------------------------------------------------------------------ set-up */

static void lg_port_init(struct lg_ctx *c, uint16_t port)
{
	struct rte_eth_conf conf;
	int rc;

	memset(&conf, 0, sizeof(conf));
	rc = rte_eth_dev_configure(port, 1, 1, &conf);
	if (rc == 0)
		rc = rte_eth_rx_queue_setup(port, 0, LG_DESCRIPTORS, rte_eth_dev_socket_id(port), NULL, c->pool);
	if (rc == 0)
		rc = rte_eth_tx_queue_setup(port, 0, LG_DESCRIPTORS, rte_eth_dev_socket_id(port), NULL);
	if (rc == 0)
		rc = rte_eth_dev_start(port);
	if (rc != 0) {
		fprintf(stderr, "latency generator: port %u: cannot start it: %s\n", port, rte_strerror(-rc));
		exit(1);
	}
}

static int lg_links_up(uint16_t ports)
{
	uint16_t port;

	for (port = 0; port < ports; port++) {
		struct rte_eth_link link;

		if (rte_eth_link_get_nowait(port, &link) != 0 || link.link_status != RTE_ETH_LINK_UP)
			return 0;
	}
	return 1;
}

static void lg_forward(uint16_t ports)
{
	struct rte_mbuf *m[LG_BURST];

	if (ports < 2)
		lg_die("--forward needs two ports");
	while (!lg_stop) {
		uint16_t n = rte_eth_rx_burst(0, 0, m, LG_BURST), sent;

		if (n == 0)
			continue;
		sent = rte_eth_tx_burst(1, 0, m, n);
		if (sent < n)
			rte_pktmbuf_free_bulk(m + sent, n - sent);
	}
}

/* Until the links are up and a probe came back: 0, else -1 after `timeout` seconds. */
static int lg_wait_for_frames(struct lg_ctx *c, double timeout)
{
	uint64_t start = rte_rdtsc(), deadline = start + (uint64_t)(timeout * (double)c->hz);
	struct lg_phase *probe = lg_phase_new(0, 1u << 20, 0);
	int rc = -1;

	lg_live(c, probe);
	while (!lg_stop && rte_rdtsc() < deadline && !lg_links_up(c->ports))
		rte_delay_us_sleep(1000);
	while (!lg_stop && rte_rdtsc() < deadline) {
		uint64_t next = rte_rdtsc() + c->hz / 1000;

		lg_send(c, probe, 1);
		while (rte_rdtsc() < next && !probe->received)
			lg_receive(c);
		if (probe->received) {
			rc = 0;
			break;
		}
	}
	lg_drain(c);
	c->nphases = 0;
	lg_phase_free(probe);
	return rc;
}

/* Until every link is down, SIGINT or SIGTERM, or `timeout` seconds. */
static void lg_wait_for_peers(const struct lg_ctx *c, double timeout)
{
	uint64_t deadline = rte_rdtsc() + (uint64_t)(timeout * (double)c->hz);

	while (!lg_stop && rte_rdtsc() < deadline) {
		struct rte_eth_link link;
		uint16_t port, up = 0;

		for (port = 0; port < c->ports; port++)
			up += rte_eth_link_get_nowait(port, &link) == 0 && link.link_status == RTE_ETH_LINK_UP;
		if (up == 0)
			break;
		rte_delay_us_sleep(10000);
	}
}

static void lg_usage(void)
{
	lg_die("usage: latency_gen EAL-OPTIONS -- (--forward | --frames F.pcap [--in-port N] [--loads 10,50,90] "
	       "[--seconds S] [--warmup S] [--max-seconds S] [--start-timeout S] --out F.json)");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{"frames", required_argument, NULL, 'f'}, {"in-port", required_argument, NULL, 'i'},
		{"loads", required_argument, NULL, 'l'}, {"seconds", required_argument, NULL, 's'},
		{"warmup", required_argument, NULL, 'w'}, {"max-seconds", required_argument, NULL, 'm'},
		{"start-timeout", required_argument, NULL, 't'}, {"forward", no_argument, NULL, 'F'},
		{"out", required_argument, NULL, 'o'},
		{NULL, 0, NULL, 0}};
	const char *frames_path = NULL, *out_path = NULL;
	char tmp_path[4096];
	FILE *out;
	double loads[LG_MAX_LOADS] = {10, 50, 90}, seconds = 5, warmup = 1, max_seconds = 2, start_timeout = 60;
	unsigned nloads = 3, k;
	int forward = 0, opt, eal;
	uint16_t in_port = 0;
	struct lg_ctx c;
	struct lg_phase *max, *phase;
	double max_pps;

	eal = rte_eal_init(argc, argv);
	if (eal < 0)
		lg_die("rte_eal_init failed (see the EAL's messages above)");
	argc -= eal;
	argv += eal;
	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		char *rest, *end;

		switch (opt) {
		case 'f': frames_path = optarg; break;
		case 'i': in_port = (uint16_t)atoi(optarg); break;
		case 'l':
			for (nloads = 0, rest = optarg; *rest && nloads < LG_MAX_LOADS; rest = *end ? end + 1 : end) {
				loads[nloads++] = strtod(rest, &end);
				if (end == rest || loads[nloads - 1] <= 0)
					lg_usage();
			}
			break;
		case 's': seconds = atof(optarg); break;
		case 'w': warmup = atof(optarg); break;
		case 'm': max_seconds = atof(optarg); break;
		case 't': start_timeout = atof(optarg); break;
		case 'F': forward = 1; break;
		case 'o': out_path = optarg; break;
		default: lg_usage();
		}
	}
	signal(SIGINT, lg_on_signal);
	signal(SIGTERM, lg_on_signal);
	memset(&c, 0, sizeof(c));
	c.in_port = in_port;
	c.hz = rte_get_tsc_hz();
	c.ports = rte_eth_dev_count_avail();
	if (c.ports == 0 || c.ports > LG_MAX_PORTS || c.in_port >= c.ports)
		lg_die("expected 1 to 16 ports (--vdev net_memifN,...), and --in-port among them");
	c.pool = rte_pktmbuf_pool_create("latency", LG_POOL_SIZE, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (c.pool == NULL)
		lg_die("cannot create the packet pool");
	for (uint16_t port = 0; port < c.ports; port++)
		lg_port_init(&c, port);
	/* Servers listen from the EAL's probe on: the other ends may connect now (a memif client
	 * that finds no listener does not try again). */
	fprintf(stderr, "latency generator: ports started\n");
	if (forward) {
		lg_forward(c.ports);
		goto out;
	}
	if (frames_path == NULL || out_path == NULL || seconds <= 0 || warmup < 0 || max_seconds <= 0)
		lg_usage();
	snprintf(tmp_path, sizeof(tmp_path), "%s.tmp", out_path);
	out = fopen(tmp_path, "w");
	if (out == NULL)
		lg_die("cannot write the report (--out)");
	c.frames = malloc(sizeof(struct lg_frame) * LG_MAX_FRAMES);
	if (c.frames == NULL)
		lg_die("out of memory");
	c.nframes = lg_read_pcap(frames_path, c.frames);
	if (lg_wait_for_frames(&c, start_timeout) != 0) {
		fprintf(stderr, "latency generator: no frame came back within %g s (links %s)\n", start_timeout,
			lg_links_up(c.ports) ? "up" : "down");
		exit(3);
	}
	fprintf(stderr, "latency generator: frames come back; maximum rate for %g s\n", max_seconds);
	/* The maximum: a warm-up of a tenth of the time unrecorded, then the rate of frames back. */
	phase = lg_phase_new(1, (uint64_t)(LG_MAX_MPPS * 1e6 * max_seconds / 10) + LG_BURST, 0);
	lg_live(&c, phase);
	lg_run(&c, phase, max_seconds / 10, 0.0);
	max = lg_phase_new(2, (uint64_t)(LG_MAX_MPPS * 1e6 * max_seconds) + LG_BURST, 0);
	c.phases[c.nphases++] = max;
	lg_run(&c, max, max_seconds, 0.0);
	lg_drain(&c);
	lg_phase_free(phase);
	max_pps = (double)max->received / max_seconds;
	fprintf(stderr, "latency generator: maximum %.3f Mpps (%" PRIu64 " sent, %" PRIu64 " back)\n", max_pps / 1e6,
		max->sent, max->received);
	if (max->received == 0)
		lg_die("no frame came back at the maximum rate");
	fprintf(out, "{\"tsc_hz\": %" PRIu64 ", \"lcore\": %u,\n \"max\": {\"seconds\": %g, \"sent\": %" PRIu64
	       ", \"received\": %" PRIu64 ", \"refused\": %" PRIu64 ", \"copies\": %" PRIu64 ", \"rate_pps\": %.1f},\n"
	       " \"loads\": [\n", c.hz, rte_lcore_id(), max_seconds, max->sent, max->received, max->refused,
	       max->copies, max_pps);
	lg_phase_free(max);
	for (k = 0; k < nloads && !lg_stop; k++) {
		double pps = max_pps * loads[k] / 100.0, period = (double)c.hz / pps;
		struct lg_phase *warm = lg_phase_new(3 + 2 * k, (uint64_t)(pps * warmup * 1.05) + LG_BURST * 2, 0);

		lg_live(&c, warm);
		lg_run(&c, warm, warmup, period);
		phase = lg_phase_new(4 + 2 * k, (uint64_t)(pps * seconds * 1.05) + LG_BURST * 2, 1);
		c.phases[c.nphases++] = phase;
		lg_run(&c, phase, seconds, period);
		lg_drain(&c);
		lg_report_phase(out, &c, phase, loads[k], pps, seconds, k + 1 == nloads);
		fprintf(stderr, "latency generator: %g%%: %" PRIu64 " sent, %" PRIu64 " back\n", loads[k], phase->sent,
			phase->received);
		lg_phase_free(warm);
		lg_phase_free(phase);
	}
	fprintf(out, " ],\n \"foreign\": %" PRIu64 "}\n", c.foreign);
	if (fclose(out) != 0 || rename(tmp_path, out_path) != 0)
		lg_die("cannot write the report (--out)");
	fprintf(stderr, "latency generator: report written; waiting for the other ends to leave\n");
	lg_wait_for_peers(&c, 60.0);
out:
	for (uint16_t port = 0; port < c.ports; port++) {
		rte_eth_dev_stop(port);
		rte_eth_dev_close(port);
	}
	rte_eal_cleanup();
	return 0;
}
