/* Helpers shared by the bundled ODP test programs. */
#ifndef ODP_TEST_H
#define ODP_TEST_H

#include <stdio.h>
#include <stdlib.h>

#include <odp_api.h>

#define CHECK(cond)                                                             \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,  \
				__LINE__, #cond);                               \
			exit(1);                                                \
		}                                                               \
	} while (0)

/* Init the instance and the calling thread as a control thread. */
static inline odp_instance_t test_init(int num_worker, int num_control)
{
	odp_init_t param;
	odp_instance_t inst;

	odp_init_param_init(&param);
	param.num_worker = num_worker;
	param.num_control = num_control;
	CHECK(odp_init_global(&inst, &param, NULL) == 0);
	CHECK(odp_init_local(inst, ODP_THREAD_CONTROL) == 0);
	return inst;
}

static inline void test_term(odp_instance_t inst)
{
	CHECK(odp_term_local() == 0);
	CHECK(odp_term_global(inst) == 0);
}

static inline odp_pool_t test_pool(const char *name, uint32_t num, uint32_t len)
{
	odp_pool_param_t param;
	odp_pool_t pool;

	odp_pool_param_init(&param);
	param.type = ODP_POOL_PACKET;
	param.pkt.num = num;
	param.pkt.len = len;
	param.pkt.seg_len = len;
	pool = odp_pool_create(name, &param);
	CHECK(pool != ODP_POOL_INVALID);
	return pool;
}

/* Open a pktio with num_in input and num_out output queues, and start it. */
static inline odp_pktio_t test_pktio(const char *name, odp_pool_t pool, uint32_t num_in,
				     uint32_t num_out, int hash)
{
	odp_pktio_param_t param;
	odp_pktin_queue_param_t in;
	odp_pktout_queue_param_t out;
	odp_pktio_t pktio;

	odp_pktio_param_init(&param);
	param.in_mode = ODP_PKTIN_MODE_DIRECT;
	param.out_mode = ODP_PKTOUT_MODE_DIRECT;
	pktio = odp_pktio_open(name, pool, &param);
	if (pktio == ODP_PKTIO_INVALID)
		return pktio;
	odp_pktin_queue_param_init(&in);
	in.num_queues = num_in;
	in.hash_enable = hash;
	in.hash_proto.proto.ipv4_udp = 1;
	in.op_mode = ODP_PKTIO_OP_MT_UNSAFE;
	CHECK(odp_pktin_queue_config(pktio, &in) == 0);
	odp_pktout_queue_param_init(&out);
	out.num_queues = num_out;
	CHECK(odp_pktout_queue_config(pktio, &out) == 0);
	CHECK(odp_pktio_config(pktio, NULL) == 0);
	CHECK(odp_pktio_start(pktio) == 0);
	return pktio;
}

#endif
