/*
 * The datapath under libFuzzer (p4odp fuzz): a switch of the program whose
 * packets are libFuzzer's inputs.  It replaces main.c in a build with
 * -fsanitize=fuzzer (backend/build.py, BuildOptions.fuzz):
 *
 *   fuzzer [libFuzzer's -flags] [CORPUS...] [--commands=FILE] [--ports=N] [--asserts]
 *
 * (libFuzzer ignores the flags that start with "--": these are ours.)  Set-up
 * is the switch's: the bundled ODP, one worker, ports 0..N-1 (default 4) on
 * null devices, which free what is sent to them, and the commands of FILE
 * run by the simple_switch_CLI interpreter (cli.c), as --commands runs them.
 *
 * An input is a frame received on a port: its first byte, modulo N, is the
 * port, the rest the frame (at least a byte).  The frame goes into a packet of the switch's
 * pool and through p4odp_tm_burst, the burst a worker runs, which sends or
 * frees every copy it makes: nothing of an input outlives it but the
 * program's state (registers, counters, meters), as on a running switch.
 * With --asserts a false assert() or assume() aborts, which libFuzzer
 * reports as a crash with the input that caused it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "switch.h"

#define FUZZ_POOL_PACKETS 1024
#define FUZZ_DEFAULT_PORTS 4
/* random()'s state at the start of every input: a crash that depends on it replays */
#define FUZZ_RANDOM_STATE UINT64_C(0x9E3779B97F4A7C15)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What libFuzzer's callback needs: the switch, its one worker, its ports. */
struct fuzz_context {
	struct p4odp_switch *sw;
	struct p4odp_worker *worker;
	uint32_t n_ports;
};

static struct fuzz_context fuzz;

/* A set-up failure: not a finding of the fuzzer, so neither a crash nor libFuzzer's exit codes,
 * and no leak check of the switch left half set up. */
#define FUZZ_SETUP_FAILED 3

static void __attribute__((noreturn)) setup_failed(const char *what)
{
	if (what)
		fprintf(stderr, "p4odp fuzz: %s\n", what);
	fflush(NULL);
	_exit(FUZZ_SETUP_FAILED);
}

/* Port `index` on the null device null<index>: one input and one output queue. */
static void open_null_port(struct p4odp_switch *sw, uint32_t index)
{
	struct p4odp_port *port = &sw->ports[index];
	odp_pktio_param_t param;
	odp_pktout_queue_param_t out_param;

	snprintf(port->name, sizeof port->name, "null%u", index);
	odp_pktio_param_init(&param);
	param.in_mode = ODP_PKTIN_MODE_DISABLED;
	param.out_mode = ODP_PKTOUT_MODE_DIRECT;
	port->pktio = odp_pktio_open(port->name, sw->pool, &param);
	odp_pktout_queue_param_init(&out_param);
	out_param.op_mode = ODP_PKTIO_OP_MT_UNSAFE;
	out_param.num_queues = 1;
	if (port->pktio == ODP_PKTIO_INVALID || odp_pktout_queue_config(port->pktio, &out_param) ||
	    odp_pktout_queue(port->pktio, port->out, 1) != 1 || odp_pktio_start(port->pktio))
		setup_failed("cannot open a null interface for a port");
	port->n_in = 0;
	port->n_out = 1;
	sw->open_ports |= UINT64_C(1) << index;
}

/* A commands file's `receive` line: the fuzzer makes the packets. */
static int no_receive(void *arg, const char *port, char *err, size_t err_len)
{
	(void)arg;
	(void)port;
	snprintf(err, err_len, "receive: the fuzzer makes the packets; only control commands here");
	return -1;
}

/* At exit (libFuzzer's end of a run), all of it freed as the switch frees it: LeakSanitizer,
 * which checks after, then reports only what an input leaked. */
static void stop_switch(void)
{
	p4odp_switch_stop(fuzz.sw);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static struct p4odp_replication pre;	/* large: not on the stack */
	const char *commands = NULL;
	unsigned long long n_ports = FUZZ_DEFAULT_PORTS;
	struct p4odp_switch *sw = calloc(1, sizeof *sw);

	if (!sw)
		setup_failed("out of memory");
	for (int i = 1; i < *argc; i++) {
		const char *arg = (*argv)[i];

		if (!strncmp(arg, "--commands=", 11)) {
			commands = arg + 11;
		} else if (!strncmp(arg, "--ports=", 8)) {
			if (p4odp_parse_number("--ports", arg + 8, 1, P4ODP_MAX_PORTS, "a number of ports", &n_ports))
				setup_failed(NULL);
		} else if (!strcmp(arg, "--asserts")) {
			sw->asserts = true;
		}
	}
	sw->pre = &pre;
	sw->datapath = &p4odp_datapath;
	if (p4odp_switch_start(sw, 1, FUZZ_POOL_PACKETS))
		setup_failed(NULL);
	for (uint32_t i = 0; i < n_ports; i++)
		open_null_port(sw, i);
	/* No RCU registration: this one thread both changes the tables (the commands) and reads them. */
	if (p4odp_worker_init(sw->workers, sw, 0))
		setup_failed("out of memory");
	/* The commands as the switch's --commands runs them; the first bad one is reported as
	 * FILE:LINE: error: ... (what p4odp fuzz shows). */
	if (commands && p4odp_cli_file(sw, commands, stdout, no_receive, NULL))
		setup_failed(NULL);
	fflush(stdout);
	fuzz = (struct fuzz_context){ sw, sw->workers, (uint32_t)n_ports };
	atexit(stop_switch);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct fuzz_context *ctx = &fuzz;

	/* No frame, or one larger than the pool's packets: no device delivers it (the pcap
	 * device skips it), so it is not an input, nor added to the corpus. */
	if (size < 2 || size - 1 > P4ODP_MAX_PACKET)
		return -1;
	uint32_t port = data[0] % ctx->n_ports;
	odp_packet_t pkt = odp_packet_alloc(ctx->sw->pool, (uint32_t)(size - 1));
	if (pkt == ODP_PACKET_INVALID) {
		fprintf(stderr, "p4odp fuzz: the packet pool is empty: a packet of an earlier input was not freed\n");
		abort();
	}
	memcpy(odp_packet_data(pkt), data + 1, size - 1);
	ctx->worker->random_state = FUZZ_RANDOM_STATE;
	ctx->sw->datapath->burst(ctx->worker, port, &pkt, 1);
	return 0;
}
