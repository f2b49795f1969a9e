/*
 * Bundled ODP built with netmap packet I/O (make PKTIO=netmap).
 *
 *   odp_test_netmap NAME...
 *
 * Opens each name and prints one line for it: "NAME: invalid" when
 * odp_pktio_open() refused it (the library says why on stderr), else
 * "NAME: opened maxlen N queues IN/OUT" after a start and stop with one queue
 * each way, and closes it. A loop interface must still open in this build.
 */
#include <stdio.h>

#include "odp_test.h"

int main(int argc, char *argv[])
{
	odp_instance_t inst;
	odp_pool_t pool;
	odp_pktio_t loop;

	inst = test_init(0, 0);
	pool = test_pool("netmap", 64, 2048);
	for (int i = 1; i < argc; i++) {
		odp_pktio_capability_t capa;
		odp_pktio_t pktio = test_pktio(argv[i], pool, 1, 1, 0);

		if (pktio == ODP_PKTIO_INVALID) {
			printf("%s: invalid\n", argv[i]);
			fflush(stdout);
			continue;
		}
		CHECK(odp_pktio_capability(pktio, &capa) == 0);
		printf("%s: opened maxlen %u queues %u/%u\n", argv[i], odp_pktin_maxlen(pktio),
		       capa.max_input_queues, capa.max_output_queues);
		fflush(stdout);
		CHECK(odp_pktio_stop(pktio) == 0);
		CHECK(odp_pktio_close(pktio) == 0);
	}
	loop = test_pktio("loop", pool, 1, 1, 0);
	CHECK(loop != ODP_PKTIO_INVALID);
	CHECK(odp_pktio_stop(loop) == 0);
	CHECK(odp_pktio_close(loop) == 0);
	CHECK(odp_pool_destroy(pool) == 0);
	test_term(inst);
	return 0;
}
