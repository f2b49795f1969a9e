/*
 * The switch binary: command line, ports, the workers and signals (its start and stop: startup.c).
 *
 *   switch -i 0=pcap:in=a.pcap:out=b.pcap -i 1=veth1 [--commands FILE]
 *          [-w WORKERS] [-c CPUS] [--packets N] [--exit-when-done] [--asserts] [--log-msg]
 *
 * The commands file holds simple_switch_CLI commands and `receive PORT`
 * lines, run in order before forwarding starts: `receive PORT` takes the next
 * packet of PORT through the whole pipeline first, so that a test decides
 * which commands each packet sees (the STF runner writes such files).
 *
 * Then each worker thread forwards what the input queues it owns receive (one
 * queue of every port: the device spreads flows over them by a hash, so a
 * flow's packets stay in order), while the main thread, the control thread,
 * waits for a signal: SIGUSR1 prints the counters, SIGINT and SIGTERM stop.
 */
#define _GNU_SOURCE  /* pthread_setaffinity_np */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "switch.h"

#ifdef P4ODP_ODP_BUNDLED
#include <odp_bundled_ext.h>
#endif

#define DEFAULT_POOL_PACKETS 8192

static volatile sig_atomic_t stop_requested, report_requested;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		report_requested = 1;
	else
		stop_requested = 1;
}

/* The control channel's socket when --control does not give one: in the run directory. */
#define DEFAULT_CONTROL_PATH "p4odp.sock"

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s -i PORT=INTERFACE [-i ...] [--commands FILE] [-w WORKERS] [-c CPUS]\n"
		"          [--packets N] [--control ADDR] [--cpu-port N] [--exit-when-done] [--asserts]\n"
		"          [--log-msg] [--host-port N ...]\n"
		"  -i PORT=INTERFACE  attach P4 port PORT (0..%d) to an ODP interface, e.g.\n"
		"                     pcap:in=in.pcap:out=out.pcap, loop, or a Linux interface name\n"
		"  --commands FILE    run simple_switch_CLI commands from FILE before forwarding; a line\n"
		"                     `receive PORT` there processes the next packet of PORT first\n"
		"  --control ADDR     serve simple_switch_CLI commands while forwarding (p4odp cli) at\n"
		"                     unix:PATH or tcp:HOST:PORT, or none; default unix:%s, but\n"
		"                     none with --exit-when-done or when another switch serves it\n"
		"  --cpu-port N       port N (0..%d, no -i) is the controllers': what the program sends\n"
		"                     there goes to the control channel's clients (packet-in), and what\n"
		"                     they send (packet_out) comes in as received on N\n"
		"  --host-port N      port N leads to the host, not to the network: PNA's direction of what\n"
		"                     it receives is HOST_TO_NET (of the other ports', NET_TO_HOST)\n"
		"  -w, --workers N    forwarding threads (1..%d, default 1, or one per CPU of -c); each\n"
		"                     receives from one input queue of every port\n"
		"  -c, --cpus LIST    pin worker k to the k-th CPU of LIST (e.g. 2 or 0-1 or 1,3)\n"
		"  --packets N        packet buffers in the pool (default %d): every packet received,\n"
		"                     queued or copied holds one; a copy with none left is dropped and\n"
		"                     counted\n"
		"  --exit-when-done   stop once every pcap input is read and its output written\n"
		"  --asserts          check the program's assert() and assume(): a false one prints where\n"
		"                     it is and aborts the switch, as BMv2 (without it they do nothing)\n"
		"  --log-msg          print the program's log_msg() lines to stderr (at most %d a second\n"
		"                     per worker, the others counted)\n"
		"signals: SIGUSR1 prints the counters to stderr; SIGINT or SIGTERM stops\n"
		"program: %s\n",
		prog, P4ODP_MAX_PORTS - 1, DEFAULT_CONTROL_PATH, P4ODP_PORT_NUMBERS - 1, P4ODP_MAX_WORKERS,
		DEFAULT_POOL_PACKETS, P4ODP_LOG_MSG_RATE, p4odp_program.name);
}

/* A CPU list as taskset -c and DPDK's -l take it ("0-3,6") into an ODP cpumask. */
static int parse_cpu_list(const char *arg, odp_cpumask_t *mask)
{
	const char *p = arg;

	odp_cpumask_zero(mask);
	while (*p) {
		char *end;
		unsigned long first = strtoul(p, &end, 10), last = first;
		if (end == p || !isdigit((unsigned char)*p))
			goto bad;
		if (*end == '-') {
			p = end + 1;
			last = strtoul(p, &end, 10);
			if (end == p || !isdigit((unsigned char)*p) || last < first)
				goto bad;
		}
		if (last >= ODP_CPUMASK_SIZE)
			goto bad;
		for (unsigned long cpu = first; cpu <= last; cpu++)
			odp_cpumask_set(mask, (int)cpu);
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (odp_cpumask_count(mask) > 0)
		return 0;
bad:
	fprintf(stderr, "error: -c %s: expected a CPU list such as 2, 0-1 or 1,3 (CPUs 0..%d)\n", arg,
		ODP_CPUMASK_SIZE - 1);
	return -1;
}

/* A port with one input queue per worker, as far as the device has them, flows
 * spread over them by a hash of their addresses and ports; and one output
 * queue per worker, each used by one thread, or fewer shared under a lock. */
static int open_port(struct p4odp_switch *sw, uint32_t index, const char *name, uint32_t n_workers)
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
	if (odp_pktio_capability(port->pktio, &capa)) {
		fprintf(stderr, "error: cannot read the capabilities of interface '%s'\n", name);
		odp_pktio_close(port->pktio);
		return -1;
	}
	if (capa.set_op.op.promisc_mode && odp_pktio_promisc_mode_set(port->pktio, 1) != 0)
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
	port->n_in = capa.max_input_queues < n_workers ? capa.max_input_queues : n_workers;
	port->n_out = capa.max_output_queues < n_workers ? capa.max_output_queues : n_workers;
	if (port->n_in < n_workers)
		fprintf(stderr, "note: interface '%s' has %u input queue(s): %u of the %u workers receive from it\n",
			name, port->n_in, port->n_in, n_workers);
	odp_pktin_queue_param_init(&in_param);
	in_param.op_mode = ODP_PKTIO_OP_MT_UNSAFE;
	in_param.num_queues = port->n_in;
	in_param.hash_enable = port->n_in > 1;
	in_param.hash_proto.proto.ipv4 = 1;
	in_param.hash_proto.proto.ipv4_udp = 1;
	in_param.hash_proto.proto.ipv4_tcp = 1;
	in_param.hash_proto.proto.ipv6 = 1;
	in_param.hash_proto.proto.ipv6_udp = 1;
	in_param.hash_proto.proto.ipv6_tcp = 1;
	odp_pktout_queue_param_init(&out_param);
	out_param.op_mode = port->n_out == n_workers ? ODP_PKTIO_OP_MT_UNSAFE : ODP_PKTIO_OP_MT;
	out_param.num_queues = port->n_out;
	if (odp_pktin_queue_config(port->pktio, &in_param) || odp_pktout_queue_config(port->pktio, &out_param) ||
	    odp_pktin_queue(port->pktio, port->in, (int)port->n_in) != (int)port->n_in ||
	    odp_pktout_queue(port->pktio, port->out, (int)port->n_out) != (int)port->n_out ||
	    odp_pktio_start(port->pktio)) {
		fprintf(stderr, "error: cannot set up interface '%s' for port %u\n", name, index);
		odp_pktio_close(port->pktio);
		return -1;
	}
	snprintf(port->name, sizeof port->name, "%s", name);
	sw->open_ports |= UINT64_C(1) << index;
	return 0;
}

static int parse_port_option(struct p4odp_switch *sw, const char *arg, uint32_t n_workers)
{
	char *end;
	const char *eq = strchr(arg, '=');
	unsigned long long index = strtoull(arg, &end, 10);  /* not strtoul: long is 32 bits on armhf */

	if (!eq || end != eq || !isdigit((unsigned char)*arg) || index >= P4ODP_MAX_PORTS) {
		fprintf(stderr, "error: -i %s: expected PORT=INTERFACE with PORT in 0..%d\n", arg, P4ODP_MAX_PORTS - 1);
		return -1;
	}
	if (p4odp_port_open(sw, (uint32_t)index)) {
		fprintf(stderr, "error: -i %s: port %llu is given twice\n", arg, index);
		return -1;
	}
	return open_port(sw, (uint32_t)index, eq + 1, n_workers);
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
		if (!p4odp_port_open(sw, i))
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

/* `receive PORT` of a commands file: the next packet of PORT (from whichever of
 * its input queues has one), through the pipeline to its outputs, by the worker
 * `worker`. */
static int receive_one(void *worker, const char *arg, char *err, size_t err_len)
{
	struct p4odp_worker *w = worker;
	struct p4odp_switch *sw = w->sw;
	odp_packet_t pkt;
	odp_time_t start = odp_time_local();

	arg += strspn(arg, " \t");
	char *end;
	unsigned long long index = strtoull(arg, &end, 10);
	end += strspn(end, " \t\r\n");
	if (!isdigit((unsigned char)*arg) || *end || !p4odp_port_open(sw, (uint32_t)index)) {
		snprintf(err, err_len, "usage: receive PORT, with PORT a port given by -i");
		return -1;
	}
	const struct p4odp_port *port = &sw->ports[index];
	for (uint32_t queue = 0; odp_pktin_recv(port->in[queue], &pkt, 1) != 1; queue = (queue + 1) % port->n_in) {
		if (odp_time_diff_ns(odp_time_local(), start) > RECEIVE_TIMEOUT_NS) {
			snprintf(err, err_len, "no packet arrived on port %llu", index);
			return -1;
		}
		if (queue + 1 == port->n_in)
			odp_time_wait_ns(10000);
	}
	sw->datapath->burst(w, (uint32_t)index, &pkt, 1);
	return 0;
}

/* Worker 0: a burst of the packets controllers sent in through the CPU port (packet_out), run as
 * received on it; how many. */
static uint32_t forward_from_cpu(struct p4odp_worker *w, odp_packet_t pkts[P4ODP_BURST])
{
	uint32_t n = w->from_cpu ? p4odp_ring_take(w->from_cpu, pkts, P4ODP_BURST) : 0;
	if (n)
		w->sw->datapath->burst(w, w->sw->cpu_port, pkts, n);
	return n;
}

/* Rounds of polls that find nothing before an idle worker sleeps between rounds (some
 * hundreds of microseconds): while packets come, it polls without a pause, as DPDK's own
 * programs do, since a pause is latency for the next packet. */
#define IDLE_SPIN_ROUNDS 4096

/* A worker: the input queue it owns of each port, a burst at a time, and
 * (worker 0) the packets sent in through the CPU port, until the switch
 * stops.  Between bursts it holds no table entry: a quiescent state for the
 * tables' RCU, and where it moves to a program swapped in.  Idle for
 * IDLE_SPIN_ROUNDS rounds, it goes offline while it sleeps between rounds so
 * that the control plane never waits for it. */
static void forward(struct p4odp_worker *w)
{
	odp_packet_t pkts[P4ODP_BURST];
	uint32_t ports[P4ODP_MAX_PORTS], n_ports = 0;	/* the ports it has an input queue of */
	uint32_t idle_rounds = 0;

	for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++)
		if (p4odp_port_open(w->sw, i) && w->id < w->sw->ports[i].n_in)
			ports[n_ports++] = i;
	while (!w->sw->stop) {
		p4odp_worker_hold_point(w);
		struct p4odp_switch *next = __atomic_load_n(&w->next, __ATOMIC_ACQUIRE);
		if (odp_unlikely(next != NULL)) {
			/* What controllers sent in before the swap carries the old program's controller
			 * header: the old program runs it (the control thread, in the swap, sends no more). */
			while (forward_from_cpu(w, pkts))
				;
			p4odp_worker_adopt(w, next);
			__atomic_store_n(&w->next, NULL, __ATOMIC_RELEASE);
		}
		struct p4odp_switch *sw = w->sw;
		int received = 0;
		for (uint32_t k = 0; k < n_ports; k++) {
			int n = odp_pktin_recv(sw->ports[ports[k]].in[w->id], pkts, P4ODP_BURST);
			if (n <= 0)
				continue;
			received += n;
			sw->datapath->burst(w, ports[k], pkts, (uint32_t)n);
		}
		received += (int)forward_from_cpu(w, pkts);
		idle_rounds = received ? 0 : idle_rounds + (idle_rounds < IDLE_SPIN_ROUNDS);
		if (idle_rounds < IDLE_SPIN_ROUNDS) {
			p4odp_rcu_quiescent(&w->rcu);
			continue;
		}
		p4odp_rcu_offline(&w->rcu);
		odp_time_wait_ns(10000);
		p4odp_rcu_online(&w->rcu);
	}
}

struct worker_start {
	struct p4odp_worker *worker;
	int cpu;		/* pinned to it, or -1 */
	int status;
};

static void *worker_main(void *arg)
{
	struct worker_start *start = arg;
	struct p4odp_worker *w = start->worker;

	if (start->cpu >= 0) {
		cpu_set_t cpus;
		CPU_ZERO(&cpus);
		CPU_SET(start->cpu, &cpus);
		if (pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus))
			fprintf(stderr, "warning: cannot pin worker %u to CPU %d\n", w->id, start->cpu);
	}
	if (odp_init_local(w->sw->instance, ODP_THREAD_WORKER)) {
		fprintf(stderr, "error: ODP initialisation of worker %u failed\n", w->id);
		start->status = -1;
		w->sw->stop = 1;
		return NULL;
	}
	if (p4odp_rcu_register(w->sw->rcu, &w->rcu)) {
		fprintf(stderr, "error: worker %u cannot register with the tables' RCU\n", w->id);
		start->status = -1;
		w->sw->stop = 1;
	} else {
		forward(w);
		p4odp_rcu_unregister(&w->rcu);
	}
	odp_term_local();
	return NULL;
}

/* The packets worker `w` received on all ports, read while it counts. */
static uint64_t received_by(const struct p4odp_worker *w)
{
	uint64_t received = 0;
	for (uint32_t i = 0; i < P4ODP_PORT_NUMBERS; i++)	/* the CPU port's too */
		received += __atomic_load_n(&w->received[i], __ATOMIC_RELAXED);
	return received;
}

static uint64_t received_by_all(const struct p4odp_switch *sw)
{
	uint64_t received = 0;
	for (uint32_t k = 0; k < sw->n_workers; k++)
		received += received_by(&sw->workers[k]);
	return received;
}

/* How the input queues' hash shared the packets among the workers. */
static void print_worker_load(const struct p4odp_switch *sw, FILE *out)
{
	for (uint32_t k = 0; k < sw->n_workers; k++)
		fprintf(out, "worker %u received %llu\n", k, (unsigned long long)received_by(&sw->workers[k]));
}

/* Start the workers, then serve signals until the switch stops: SIGUSR1
 * prints the counters (`counters at T s`, T since forwarding started, then
 * the table the switch prints at exit); with `exit_when_done` the inputs'
 * end stops it too, idle time measured here from the workers' counters so
 * that they read no clock.  *live is the switch forwarding, which the
 * channel's swap_configs replaces.  Returns 0, or -1 when a worker could not
 * start. */
static int run(struct p4odp_switch **live, const odp_cpumask_t *cpus, bool exit_when_done,
	       struct p4odp_channel *channel)
{
	pthread_t threads[P4ODP_MAX_WORKERS];
	struct worker_start starts[P4ODP_MAX_WORKERS];
	uint64_t started = odp_time_global_ns(), last_packet = started, received = 0;
	uint32_t n_started = 0, n_workers = (*live)->n_workers;
	int cpu = cpus ? odp_cpumask_first(cpus) : -1;

	for (; n_started < n_workers; n_started++) {
		starts[n_started] = (struct worker_start){ &(*live)->workers[n_started], cpu, 0 };
		if (pthread_create(&threads[n_started], NULL, worker_main, &starts[n_started])) {
			fprintf(stderr, "error: cannot start worker %u\n", n_started);
			(*live)->stop = 1;
			break;
		}
		if (cpus)
			cpu = odp_cpumask_next(cpus, cpu);
	}
	while (!(*live)->stop && !stop_requested) {
		struct p4odp_switch *sw = *live;
		if (report_requested) {
			report_requested = 0;
			fprintf(stderr, "counters at %.6f s\n", (double)(odp_time_global_ns() - started) / 1e9);
			p4odp_print_counters(sw, sw->workers, sw->n_workers, stderr);
			fflush(stderr);
		}
		if (exit_when_done) {
			uint64_t now = odp_time_global_ns(), total = received_by_all(sw);
			if (total != received) {
				received = total;
				last_packet = now;
			}
			if (inputs_done(sw, now - last_packet))
				break;
		}
		/* Asleep, not odp_time_wait_ns(), which spins its last microseconds:
		 * this thread may share a CPU with a worker (taskset, -c). */
		if (channel) {
			p4odp_digests_deliver(sw, channel);
			p4odp_packets_deliver(sw, channel, false);
			p4odp_idle_deliver(sw, channel);
			p4odp_channel_serve(live, channel, 1);
		}
		else
			nanosleep(&(struct timespec){ .tv_nsec = 1000 * 1000 }, NULL);
	}
	(*live)->stop = 1;
	int status = n_started == n_workers ? 0 : -1;
	for (uint32_t k = 0; k < n_started; k++) {
		pthread_join(threads[k], NULL);
		status |= starts[k].status;
	}
	return status;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "commands", required_argument, NULL, 'C' },
		{ "control", required_argument, NULL, 'K' },
		{ "cpu-port", required_argument, NULL, 'P' },
		{ "host-port", required_argument, NULL, 'H' },
		{ "workers", required_argument, NULL, 'w' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "packets", required_argument, NULL, 'p' },
		{ "exit-when-done", no_argument, NULL, 'x' },
		{ "asserts", no_argument, NULL, 'a' },
		{ "log-msg", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct p4odp_switch *sw = calloc(1, sizeof *sw);
	struct p4odp_replication *pre = calloc(1, sizeof *pre);
	const char *commands = NULL, *control = NULL;
	const char *port_args[P4ODP_MAX_PORTS];
	struct p4odp_channel channel;
	bool serving = false;
	int n_ports = 0, opt, status = 0;
	bool exit_when_done = false;
	unsigned long long n_workers = 0;	/* 0: as many as CPUs given, else 1 */
	unsigned long long pool_packets = DEFAULT_POOL_PACKETS;
	odp_cpumask_t cpus;
	bool pinned = false;

	if (!sw || !pre) {
		fprintf(stderr, "error: out of memory\n");
		return 1;
	}
	sw->pre = pre;

	while ((opt = getopt_long(argc, argv, "i:w:c:h", options, NULL)) != -1) {
		switch (opt) {
		case 'i':
			if (n_ports == P4ODP_MAX_PORTS) {
				fprintf(stderr, "error: at most %d ports\n", P4ODP_MAX_PORTS);
				return 2;
			}
			port_args[n_ports++] = optarg;
			break;
		case 'C':
			commands = optarg;
			break;
		case 'K':
			control = optarg;
			break;
		case 'P': {
			unsigned long long port;
			if (p4odp_parse_number("--cpu-port", optarg, 0, P4ODP_PORT_NUMBERS - 1, "a port number", &port))
				return 2;
			sw->has_cpu_port = true;
			sw->cpu_port = (uint32_t)port;
			break;
		}
		case 'H': {
			unsigned long long port;
			if (p4odp_parse_number("--host-port", optarg, 0, P4ODP_MAX_PORTS - 1, "a port number", &port))
				return 2;
			sw->host_ports |= UINT64_C(1) << port;
			break;
		}
		case 'w':
			if (p4odp_parse_number("-w", optarg, 1, P4ODP_MAX_WORKERS, "a number of workers", &n_workers))
				return 2;
			break;
		case 'p':
			if (p4odp_parse_number("--packets", optarg, 1, UINT32_MAX, "a number of packet buffers", &pool_packets))
				return 2;
			break;
		case 'c':
			if (parse_cpu_list(optarg, &cpus))
				return 2;
			pinned = true;
			break;
		case 'x':
			exit_when_done = true;
			break;
		case 'a':
			sw->asserts = true;
			break;
		case 'l':
			sw->log_msgs = true;
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
	if (!n_workers)
		n_workers = pinned ? (unsigned long long)odp_cpumask_count(&cpus) : 1;
	if (pinned && (unsigned long long)odp_cpumask_count(&cpus) < n_workers) {
		fprintf(stderr, "error: -c gives %d CPU(s) for %llu workers\n", odp_cpumask_count(&cpus), n_workers);
		return 2;
	}
	if (n_workers > P4ODP_MAX_WORKERS) {
		fprintf(stderr, "error: at most %d workers\n", P4ODP_MAX_WORKERS);
		return 2;
	}

	sw->datapath = &p4odp_datapath;
	int err = p4odp_switch_start(sw, (uint32_t)n_workers, pool_packets);
	if (err) {
		free(pre);
		return err == -E2BIG ? 2 : 1;	/* --packets asks too much: a usage error */
	}
	for (int i = 0; i < n_ports; i++)
		if (parse_port_option(sw, port_args[i], (uint32_t)n_workers)) {
			status = 1;
			goto out;
		}
	if (sw->has_cpu_port && p4odp_port_open(sw, sw->cpu_port)) {
		fprintf(stderr, "error: --cpu-port %u: port %u has an interface (-i): the CPU port has none\n",
			sw->cpu_port, sw->cpu_port);
		status = 1;
		goto out;
	}
	/* After the ports: a worker's transmit batches are those of the open ports. */
	for (uint32_t k = 0; k < sw->n_workers; k++)
		if (p4odp_worker_init(&sw->workers[k], sw, k)) {
			fprintf(stderr, "error: out of memory\n");
			status = 1;
			goto out;
		}
	/* The commands run on this thread, `receive` lines through worker 0's state,
	 * before any worker thread starts. */
	if (commands && p4odp_cli_file(sw, commands, stdout, receive_one, &sw->workers[0])) {
		status = 1;
		goto out;
	}
	/* What the commands printed is out before the first packet: whoever reads it
	 * through a pipe knows the switch is ready, to answer SIGUSR1 too. */
	signal(SIGUSR1, on_signal);
	fflush(stdout);
	/* A run that stops when its pcap inputs are done has a channel only when asked for one. */
	if (control ? strcmp(control, "none") != 0 : !exit_when_done) {
		char err[256];
		serving = p4odp_channel_open(&channel, control ? control : "unix:" DEFAULT_CONTROL_PATH, err, sizeof err) == 0;
		if (!serving && control) {
			fprintf(stderr, "error: %s\n", err);
			status = 1;
			goto out;
		}
		if (!serving)
			fprintf(stderr, "warning: %s; this switch has no control channel, and p4odp cli's default "
				"reaches the other one (--control ADDR gives this one its own)\n", err);
	}

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (run(&sw, pinned ? &cpus : NULL, exit_when_done, serving ? &channel : NULL))
		status = 1;
	p4odp_print_counters(sw, sw->workers, sw->n_workers, stderr);
	if (sw->n_workers > 1)
		print_worker_load(sw, stderr);
out:
	if (serving)
		p4odp_channel_close(&channel);
	p4odp_switch_stop(sw);
	free(pre);
	return status;
}
