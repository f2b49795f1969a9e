/*
 * A switch's set-up around its ports and its tear-down: ODP, the packet pool,
 * the workers' array, the tables' RCU and the program.  The switch binary
 * (main.c) and the fuzzer (fuzz/fuzz.c) both start and stop this way; they
 * differ in their ports, their workers' threads and what drives them.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "switch.h"

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

static int start_odp(struct p4odp_switch *sw, uint32_t n_workers)
{
	odp_init_t init_param;

	odp_init_param_init(&init_param);
	init_param.log_fn = odp_log;
	init_param.num_worker = (int)n_workers;
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
	if (odp_init_global(&sw->instance, &init_param, NULL))
		return -1;
	if (odp_init_local(sw->instance, ODP_THREAD_CONTROL)) {
		odp_term_global(sw->instance);
		return -1;
	}
	return 0;
}

/* The packet pool of `packets` buffers, each a whole frame (never segmented: the datapath
 * reads packets as one buffer).  0, or after saying why -E2BIG (this ODP's pools cannot hold
 * that many) or -ENOMEM. */
static int create_pool(struct p4odp_switch *sw, uint32_t n_workers, uint64_t packets)
{
	odp_pool_param_t pool_param;
	odp_pool_capability_t pool_capa;

	odp_pool_param_init(&pool_param);
	pool_param.type = ODP_POOL_PACKET;
	pool_param.pkt.num = (uint32_t)packets;
	pool_param.pkt.len = P4ODP_MAX_PACKET;
	pool_param.pkt.seg_len = P4ODP_MAX_PACKET;
	pool_param.pkt.max_len = P4ODP_MAX_PACKET;
	/* Each worker allocates (replicas, receive rings) and frees a burst at a time:
	 * a per-thread cache as large as the pool allows keeps that off the shared pool,
	 * but no more than a quarter of a worker's share, or a small pool's buffers would
	 * sit in one worker's cache while another has none. */
	if (odp_pool_capability(&pool_capa) == 0) {
		uint64_t share = packets / (4 * n_workers);
		pool_param.pkt.cache_size = pool_capa.pkt.max_cache_size < share ? pool_capa.pkt.max_cache_size
										   : (uint32_t)share;
		if (pool_param.pkt.cache_size < pool_capa.pkt.min_cache_size)
			pool_param.pkt.cache_size = pool_capa.pkt.min_cache_size;
		if (pool_capa.pkt.max_num && packets > pool_capa.pkt.max_num) {
			fprintf(stderr, "error: a pool of %llu packets: this ODP's pools hold at most %u\n",
				(unsigned long long)packets, pool_capa.pkt.max_num);
			return -E2BIG;
		}
	}
	sw->pool = odp_pool_create("p4odp_packets", &pool_param);
	if (sw->pool == ODP_POOL_INVALID) {
		fprintf(stderr, "error: cannot create the packet pool\n");
		return -ENOMEM;
	}
	return 0;
}

int p4odp_switch_start(struct p4odp_switch *sw, uint32_t n_workers, uint64_t pool_packets)
{
	if (start_odp(sw, n_workers)) {
		fprintf(stderr, "error: ODP initialisation failed\n");
		free(sw);
		return -ENODEV;
	}
	int err = create_pool(sw, n_workers, pool_packets);
	if (err) {
		odp_term_local();
		odp_term_global(sw->instance);
		free(sw);
		return err;
	}
	sw->started_ns = odp_time_global_ns();
	p4odp_learners_init(sw);
	sw->n_workers = n_workers;
	sw->workers = aligned_alloc(ODP_CACHE_LINE_SIZE, n_workers * sizeof *sw->workers);
	if (sw->workers)
		memset(sw->workers, 0, n_workers * sizeof *sw->workers);	/* each terminated, whether set up or not */
	if (!sw->workers || p4odp_rcu_create(&sw->rcu) || p4odp_program_init(sw)) {
		fprintf(stderr, "error: cannot set up the program's tables and state (out of memory, or what the "
			"lines above say)\n");
		p4odp_switch_stop(sw);
		return -ENOMEM;
	}
	return 0;
}

void p4odp_switch_stop(struct p4odp_switch *sw)
{
	for (uint32_t i = 0; i < P4ODP_MAX_PORTS; i++)
		if (p4odp_port_open(sw, i)) {
			odp_pktio_stop(sw->ports[i].pktio);
			odp_pktio_close(sw->ports[i].pktio);
		}
	for (uint32_t k = 0; sw->workers && k < sw->n_workers; k++)
		p4odp_worker_term(&sw->workers[k]);
	free(sw->workers);
	p4odp_replication_destroy(sw);
	/* p4odp_program_discard frees `sw` itself */
	struct p4odp_rcu *rcu = sw->rcu;
	odp_pool_t pool = sw->pool;
	odp_instance_t instance = sw->instance;
	p4odp_program_discard(sw);
	if (rcu)
		p4odp_rcu_destroy(rcu);
	odp_pool_destroy(pool);
	odp_term_local();
	odp_term_global(instance);
}

int p4odp_parse_number(const char *option, const char *arg, unsigned long long min, unsigned long long max,
		       const char *what, unsigned long long *out)
{
	char *end;
	unsigned long long v = strtoull(arg, &end, 10);
	if (!isdigit((unsigned char)*arg) || *end || v < min || v > max) {
		fprintf(stderr, "error: %s %s: expected %s in %llu..%llu\n", option, arg, what, min, max);
		return -1;
	}
	*out = v;
	return 0;
}
