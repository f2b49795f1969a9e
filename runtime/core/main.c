/*
 * The switch binary: command line, ODP set-up, the packet loop, clean stop.
 *
 *   switch -i 0=pcap:in=a.pcap:out=b.pcap -i 1=veth1 [--commands FILE]
 *          [--exit-when-done]
 *
 * The commands file holds simple_switch_CLI commands and `receive PORT`
 * lines, run in order before forwarding starts: `receive PORT` takes the next
 * packet of PORT through the whole pipeline first, so that a test decides
 * which commands each packet sees (the STF runner writes such files).
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "switch.h"

#ifdef P4ODP_ODP_BUNDLED
#include <odp_bundled_ext.h>
#endif

#define POOL_PACKETS 8192
#define POOL_PACKET_LEN 9600

static struct p4odp_switch the_switch;
static struct p4odp_worker the_worker;

/* ODP's messages go to stderr, never mixed with the control output on stdout;
 * its informational prints (odp-linux dumps its configuration) only with
 * P4ODP_ODP_VERBOSE set. */
static int odp_log(odp_log_level_t level, const char *fmt, ...)
{
	static int verbose = -1;
	va_list args;
	int r;

	if (verbose < 0)
		verbose = getenv("P4ODP_ODP_VERBOSE") != NULL;
	if ((level == ODP_LOG_PRINT || level == ODP_LOG_DBG) && !verbose)
		return 0;
	va_start(args, fmt);
	r = vfprintf(stderr, fmt, args);
	va_end(args);
	return r;
}

static void on_signal(int sig)
{
	(void)sig;
	the_switch.stop = 1;
}

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s -i PORT=INTERFACE [-i ...] [--commands FILE] [--exit-when-done]\n"
		"  -i PORT=INTERFACE  attach P4 port PORT (0..%d) to an ODP interface, e.g.\n"
		"                     pcap:in=in.pcap:out=out.pcap, loop, or a Linux interface name\n"
		"  --commands FILE    run simple_switch_CLI commands from FILE before forwarding; a line\n"
		"                     `receive PORT` there processes the next packet of PORT first\n"
		"  --exit-when-done   stop once every pcap input is read and its output written\n"
		"program: %s\n",
		prog, P4ODP_MAX_PORTS - 1, p4odp_program.name);
}

static int open_port(struct p4odp_switch *sw, uint32_t index, const char *name)
{
	struct p4odp_port *port = &sw->ports[index];
	odp_pktio_param_t param;
	odp_pktin_queue_param_t in_param;
	odp_pktout_queue_param_t out_param;

	odp_pktio_param_init(&param);
	param.in_mode = ODP_PKTIN_MODE_DIRECT;
	param.out_mode = ODP_PKTOUT_MODE_DIRECT;
	port->pktio = odp_pktio_open(name, sw->pool, &param);
	if (port->pktio == ODP_PKTIO_INVALID) {
		fprintf(stderr, "error: cannot open interface '%s' for port %u\n", name, index);
		return -1;
	}
	/* A switch port takes every frame: odp-linux interfaces (pcap included) start
	 * non-promiscuous, and the mode can only change while the interface is stopped. */
	odp_pktio_capability_t capa;
	if (odp_pktio_capability(port->pktio, &capa) == 0 && capa.set_op.op.promisc_mode &&
	    odp_pktio_promisc_mode_set(port->pktio, 1) != 0)
		fprintf(stderr, "warning: cannot make interface '%s' promiscuous\n", name);
	/* The P4 parser is the only parser: odp-linux parses every received frame
	 * by default (parser.layer ALL) and drops the ones its parser rejects,
	 * e.g. a TCP or UDP packet cut short before the L4 header. */
	odp_pktio_config_t config;
	odp_pktio_config_init(&config);
	config.parser.layer = ODP_PROTO_LAYER_NONE;
	if (odp_pktio_config(port->pktio, &config)) {
		fprintf(stderr, "error: cannot configure interface '%s' for port %u\n", name, index);
		odp_pktio_close(port->pktio);
		return -1;
	}
	odp_pktin_queue_param_init(&in_param);
	odp_pktout_queue_param_init(&out_param);
	if (odp_pktin_queue_config(port->pktio, &in_param) || odp_pktout_queue_config(port->pktio, &out_param) ||
	    odp_pktin_queue(port->pktio, &port->in, 1) != 1 || odp_pktout_queue(port->pktio, &port->out, 1) != 1 ||
	    odp_pktio_start(port->pktio)) {
		fprintf(stderr, "error: cannot set up interface '%s' for port %u\n", name, index);
		odp_pktio_close(port->pktio);
		return -1;
	}
	snprintf(port->name, sizeof port->name, "%s", name);
	port->open = true;
	return 0;
}

static int parse_port_option(struct p4odp_switch *sw, const char *arg)
{
	char *end;
	const char *eq = strchr(arg, '=');
	unsigned long long index = strtoull(arg, &end, 10);  /* not strtoul: long is 32 bits on armhf */

	if (!eq || end != eq || !isdigit((unsigned char)*arg) || index >= P4ODP_MAX_PORTS) {
		fprintf(stderr, "error: -i %s: expected PORT=INTERFACE with PORT in 0..%d\n", arg, P4ODP_MAX_PORTS - 1);
		return -1;
	}
	if (sw->ports[index].open) {
		fprintf(stderr, "error: -i %s: port %llu is given twice\n", arg, index);
		return -1;
	}
	return open_port(sw, (uint32_t)index, eq + 1);
}

/* Every input port that can still deliver packets has delivered all of them.
 * The bundled ODP knows when a pcap file is read to its end; a system ODP has
 * no such call, and some bundled devices (DPDK net_pcap ports) cannot tell:
 * those inputs count as done after IDLE_DONE_NS without a packet. */
#define IDLE_DONE_NS (500 * 1000 * 1000ull)

static bool inputs_done(struct p4odp_switch *sw, uint64_t idle_ns)
{
#ifdef P4ODP_ODP_BUNDLED
	for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++) {
		if (!sw->ports[i].open)
			continue;
		int done = odp_bundled_pktio_input_done(sw->ports[i].pktio);
		if (done == ODP_BUNDLED_INPUT_UNKNOWN ? idle_ns < IDLE_DONE_NS : done != 1)
			return false;
	}
	return true;
#else
	(void)sw;
	return idle_ns >= IDLE_DONE_NS;
#endif
}

/* How long `receive PORT` waits for its packet. */
#define RECEIVE_TIMEOUT_NS (5 * 1000 * 1000 * 1000ull)

/* `receive PORT`: the next packet of PORT, through the pipeline to its outputs. */
static int receive_one(struct p4odp_switch *sw, struct p4odp_worker *w, const char *arg, char *err, size_t err_len)
{
	char *end;
	unsigned long long index = strtoull(arg, &end, 10);
	odp_packet_t pkt;
	odp_time_t start = odp_time_local();

	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	if (!isdigit((unsigned char)*arg) || *end || index >= P4ODP_MAX_PORTS || !sw->ports[index].open) {
		snprintf(err, err_len, "usage: receive PORT, with PORT a port given by -i");
		return -1;
	}
	while (odp_pktin_recv(sw->ports[index].in, &pkt, 1) != 1) {
		if (odp_time_diff_ns(odp_time_local(), start) > RECEIVE_TIMEOUT_NS) {
			snprintf(err, err_len, "no packet arrived on port %llu", index);
			return -1;
		}
		odp_time_wait_ns(10000);
	}
	p4odp_tm_burst(w, (uint32_t)index, &pkt, 1);
	return 0;
}

/* Run a commands file in order; stops at the first bad line, naming it. */
static int run_commands(struct p4odp_switch *sw, struct p4odp_worker *w, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[8192], err[512];
	int number = 0, status = 0;

	if (!f) {
		fprintf(stderr, "%s: error: %s\n", path, strerror(errno));
		return -1;
	}
	while (!status && fgets(line, sizeof line, f)) {
		const char *text = line + strspn(line, " \t");
		number++;
		if (!strncmp(text, "receive", 7) && (text[7] == ' ' || text[7] == '\t'))
			status = receive_one(sw, w, text + 8, err, sizeof err);
		else
			status = p4odp_control_command(sw, line, stdout, err, sizeof err);
		if (status)
			fprintf(stderr, "%s:%d: error: %s\n", path, number, err);
	}
	fclose(f);
	return status;
}

static void run(struct p4odp_switch *sw, struct p4odp_worker *w, bool exit_when_done)
{
	odp_packet_t pkts[P4ODP_BURST];
	odp_time_t last_packet = odp_time_local();

	while (!sw->stop) {
		int received = 0;
		for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++) {
			struct p4odp_port *port = &sw->ports[i];
			if (!port->open)
				continue;
			int n = odp_pktin_recv(port->in, pkts, P4ODP_BURST);
			if (n <= 0)
				continue;
			received += n;
			p4odp_tm_burst(w, i, pkts, (uint32_t)n);
		}
		if (received) {
			last_packet = odp_time_local();
			continue;
		}
		if (exit_when_done && inputs_done(sw, odp_time_diff_ns(odp_time_local(), last_packet)))
			break;
		odp_time_wait_ns(10000);
	}
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "commands", required_argument, NULL, 'c' },
		{ "exit-when-done", no_argument, NULL, 'x' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct p4odp_switch *sw = &the_switch;
	const char *commands = NULL;
	const char *port_args[P4ODP_MAX_PORTS];
	int n_ports = 0, opt, status = 0;
	bool exit_when_done = false;

	while ((opt = getopt_long(argc, argv, "i:h", options, NULL)) != -1) {
		switch (opt) {
		case 'i':
			if (n_ports == P4ODP_MAX_PORTS) {
				fprintf(stderr, "error: at most %d ports\n", P4ODP_MAX_PORTS);
				return 2;
			}
			port_args[n_ports++] = optarg;
			break;
		case 'c':
			commands = optarg;
			break;
		case 'x':
			exit_when_done = true;
			break;
		case 'h':
			usage(stdout, argv[0]);
			return 0;
		default:
			usage(stderr, argv[0]);
			return 2;
		}
	}
	if (optind != argc || n_ports == 0) {
		usage(stderr, argv[0]);
		return 2;
	}

	sw->program = &p4odp_program;
	odp_init_t init_param;
	odp_init_param_init(&init_param);
	init_param.log_fn = odp_log;
	init_param.num_worker = 0;
	init_param.num_control = 1;
	init_param.not_used.feat.cls = 1;
	init_param.not_used.feat.compress = 1;
	init_param.not_used.feat.crypto = 1;
	init_param.not_used.feat.dma = 1;
	init_param.not_used.feat.ipsec = 1;
	init_param.not_used.feat.ml = 1;
	init_param.not_used.feat.schedule = 1;
	init_param.not_used.feat.stash = 1;
	init_param.not_used.feat.timer = 1;
	init_param.not_used.feat.tm = 1;
	if (odp_init_global(&sw->instance, &init_param, NULL) || odp_init_local(sw->instance, ODP_THREAD_CONTROL)) {
		fprintf(stderr, "error: ODP initialisation failed\n");
		return 1;
	}
	odp_pool_param_t pool_param;
	odp_pool_param_init(&pool_param);
	pool_param.type = ODP_POOL_PACKET;
	pool_param.pkt.num = POOL_PACKETS;
	pool_param.pkt.len = POOL_PACKET_LEN;
	pool_param.pkt.seg_len = POOL_PACKET_LEN;
	pool_param.pkt.max_len = POOL_PACKET_LEN;	/* never segmented: the datapath reads packets as one buffer */
	sw->pool = odp_pool_create("p4odp_packets", &pool_param);
	if (sw->pool == ODP_POOL_INVALID) {
		fprintf(stderr, "error: cannot create the packet pool\n");
		return 1;
	}
	sw->state = calloc(1, sw->program->state_size ? sw->program->state_size : 1);
	if (!sw->state || p4odp_tables_init(sw) || p4odp_worker_init(&the_worker, sw)) {
		status = 1;
		goto out;
	}
	for (int i = 0; i < n_ports; i++)
		if (parse_port_option(sw, port_args[i])) {
			status = 1;
			goto out;
		}
	if (commands && run_commands(sw, &the_worker, commands)) {
		status = 1;
		goto out;
	}
	/* What the commands printed is out before the first packet: whoever reads it
	 * through a pipe knows the switch is ready. */
	fflush(stdout);

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	run(sw, &the_worker, exit_when_done);
	p4odp_print_counters(sw, &the_worker, 1, stderr);
out:
	for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++)
		if (sw->ports[i].open) {
			odp_pktio_stop(sw->ports[i].pktio);
			odp_pktio_close(sw->ports[i].pktio);
		}
	p4odp_worker_term(&the_worker);
	p4odp_tables_destroy(sw);
	free(sw->state);
	odp_pool_destroy(sw->pool);
	odp_term_local();
	odp_term_global(sw->instance);
	return status;
}
