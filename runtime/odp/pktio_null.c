/* Bundled ODP: the "null" device, a sink. Packets sent on it are counted
 * (out_packets, out_octets) and freed; nothing is ever received.
 *
 *   null, null0, null1, ...
 *
 * Up to 64 input and 64 output queues. The queues share no state: with
 * ODP_PKTIO_OP_MT_UNSAFE, each thread that owns an output queue sends on it
 * without a lock. odp_bundled_pktio_input_done() is 1 from the start. It is
 * the output side of `p4odp bench`, which feeds the switch from pcap files
 * held in memory (pktio_pcap.c's cache option).
 */
#define _GNU_SOURCE
#include <string.h>

#include "odp_internal.h"

/* Longest frame when the pktio has no pool (input disabled). */
#define NULL_MAXLEN 9216

static int null_match(const char *devname)
{
	if (strncmp(devname, "null", 4) != 0)
		return 0;
	for (const char *c = devname + 4; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return 1;
}

static int null_open(_odp_pktio_entry_t *e, const char *devname)
{
	(void)e;
	(void)devname;
	return 0;
}

static int null_close(_odp_pktio_entry_t *e)
{
	(void)e;
	return 0;
}

static int null_start(_odp_pktio_entry_t *e)
{
	(void)e;
	return 0;
}

static int null_stop(_odp_pktio_entry_t *e)
{
	(void)e;
	return 0;
}

static int null_recv(_odp_pktio_entry_t *e, int q, odp_packet_t pkts[], int num)
{
	(void)e;
	(void)q;
	(void)pkts;
	(void)num;
	return 0;
}

static int null_send(_odp_pktio_entry_t *e, int q, const odp_packet_t pkts[], int num)
{
	uint64_t octets = 0;

	for (int i = 0; i < num; i++)
		octets += odp_packet_len(pkts[i]);
	odp_packet_free_multi(pkts, num);
	_odp_pktio_tx_count(e, q, (uint64_t)num, octets);
	return num;
}

static int null_input_done(_odp_pktio_entry_t *e)
{
	(void)e;
	return 1;
}

static int null_mac_addr(_odp_pktio_entry_t *e, uint8_t mac[6])
{
	/* Locally administered, one per null interface. */
	static const uint8_t base[6] = { 0x02, 0x00, 0x00, 0x00, 0x02, 0x00 };

	memcpy(mac, base, 6);
	mac[5] = (uint8_t)e->index;
	return 0;
}

static uint32_t null_maxlen(_odp_pktio_entry_t *e)
{
	return e->pool != ODP_POOL_INVALID ? _odp_pool_data_room(e->pool) : NULL_MAXLEN;
}

static int null_promisc_set(_odp_pktio_entry_t *e, int enable)
{
	(void)e;
	(void)enable;
	return 0;
}

const _odp_pktio_ops_t _odp_pktio_null_ops = {
	.name = "null",
	.match = null_match,
	.max_in_queues = ODP_PKTIN_MAX_QUEUES,
	.max_out_queues = ODP_PKTOUT_MAX_QUEUES,
	.open = null_open,
	.close = null_close,
	.start = null_start,
	.stop = null_stop,
	.recv = null_recv,
	.send = null_send,
	.input_done = null_input_done,
	.mac_addr = null_mac_addr,
	.maxlen = null_maxlen,
	.promisc_set = null_promisc_set,
};
