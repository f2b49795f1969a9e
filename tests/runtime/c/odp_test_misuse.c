/*
 * Bundled ODP: packet misuse that AddressSanitizer builds must report.
 *
 *   odp_test_misuse use-after-free|double-free|overflow
 *
 * Exits 0 if the misuse went unnoticed (as it does without ASan).
 */
#include <string.h>

#include "odp_test.h"

int main(int argc, char *argv[])
{
	odp_instance_t inst;
	odp_pool_t pool;
	odp_packet_t pkt;
	volatile uint8_t *data;

	if (argc != 2)
		return 2;
	inst = test_init(0, 0);
	pool = test_pool("misuse", 8, 256);
	pkt = odp_packet_alloc(pool, 100);
	CHECK(pkt != ODP_PACKET_INVALID);
	data = odp_packet_data(pkt);
	if (!strcmp(argv[1], "use-after-free")) {
		odp_packet_free(pkt);
		data[0] = 1;
	} else if (!strcmp(argv[1], "double-free")) {
		odp_packet_free(pkt);
		odp_packet_free(pkt);
	} else if (!strcmp(argv[1], "overflow")) {
		/* One byte past the end of the buffer (past the tailroom). */
		data[odp_packet_len(pkt) + odp_packet_tailroom(pkt)] = 1;
		odp_packet_free(pkt);
	} else {
		return 2;
	}
	CHECK(odp_pool_destroy(pool) == 0);
	test_term(inst);
	return 0;
}
