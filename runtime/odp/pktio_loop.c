/* Bundled ODP: the "loop" device. Packets sent on it are received back on it.
 *
 * Each input queue is a ring of packet handles with a lock (several output
 * queues may feed it). With several input queues, packets are spread by a
 * flow hash when hash_enable is set, else output queue i feeds input queue
 * i % num_in. The flow hash (_odp_flow_hash(), odp_pktio.c) is the one the
 * pcap device's cache option spreads its frames with.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "odp_internal.h"

#define DEFAULT_RING_SIZE 1024

typedef struct {
	odp_spinlock_t lock;
	uint32_t size;        /* power of two */
	uint32_t head;        /* next to receive */
	uint32_t tail;        /* next free slot */
	odp_packet_t pkt[];
} loop_ring_t;

typedef struct {
	loop_ring_t *ring[ODP_PKTIN_MAX_QUEUES];
	uint64_t no_input;    /* packets sent while input is disabled */
} loop_priv_t;

static int loop_match(const char *devname)
{
	if (strncmp(devname, "loop", 4) != 0)
		return 0;
	for (const char *c = devname + 4; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return 1;
}

static int loop_open(_odp_pktio_entry_t *e, const char *devname)
{
	(void)devname;
	e->priv = calloc(1, sizeof(loop_priv_t));
	if (!e->priv) {
		_ODP_ERR("loop: out of memory\n");
		return -1;
	}
	return 0;
}

static void ring_free(loop_ring_t *r)
{
	if (!r)
		return;
	while (r->head != r->tail)
		odp_packet_free(r->pkt[r->head++ & (r->size - 1)]);
	free(r);
}

static int loop_close(_odp_pktio_entry_t *e)
{
	loop_priv_t *priv = e->priv;

	for (int i = 0; i < ODP_PKTIN_MAX_QUEUES; i++)
		ring_free(priv->ring[i]);
	free(priv);
	return 0;
}

static int loop_start(_odp_pktio_entry_t *e)
{
	loop_priv_t *priv = e->priv;

	for (uint32_t i = 0; i < ODP_PKTIN_MAX_QUEUES; i++) {
		uint32_t want = e->in_param.queue_size[i] ? e->in_param.queue_size[i] :
			DEFAULT_RING_SIZE;
		uint32_t size = 1;

		if (i >= e->num_in) {
			ring_free(priv->ring[i]);
			priv->ring[i] = NULL;
			continue;
		}
		while (size < want)
			size <<= 1;
		if (priv->ring[i] && priv->ring[i]->size == size)
			continue;
		ring_free(priv->ring[i]);
		priv->ring[i] = calloc(1, sizeof(loop_ring_t) + size * sizeof(odp_packet_t));
		if (!priv->ring[i]) {
			_ODP_ERR("loop: out of memory\n");
			return -1;
		}
		odp_spinlock_init(&priv->ring[i]->lock);
		priv->ring[i]->size = size;
	}
	return 0;
}

static int loop_stop(_odp_pktio_entry_t *e)
{
	(void)e;
	return 0;
}

static int loop_recv(_odp_pktio_entry_t *e, int q, odp_packet_t pkts[], int num)
{
	loop_ring_t *r = ((loop_priv_t *)e->priv)->ring[q];
	int n = 0;

	odp_spinlock_lock(&r->lock);
	while (n < num && r->head != r->tail)
		pkts[n++] = r->pkt[r->head++ & (r->size - 1)];
	odp_spinlock_unlock(&r->lock);
	return n;
}

static int loop_send(_odp_pktio_entry_t *e, int q, const odp_packet_t pkts[], int num)
{
	loop_priv_t *priv = e->priv;
	uint64_t octets = 0;
	int n = 0;

	if (e->num_in == 0) {
		/* Input disabled: the packets go nowhere. */
		for (int i = 0; i < num; i++)
			octets += odp_packet_len(pkts[i]);
		odp_packet_free_multi(pkts, num);
		_odp_pktio_tx_count(e, q, (uint64_t)num, octets);
		_odp_stat_add(&priv->no_input, (uint64_t)num);
		return num;
	}
	if (e->num_in > 1 && e->in_param.hash_enable) {
		/* One packet at a time: each may go to another ring. */
		for (; n < num; n++) {
			loop_ring_t *r = priv->ring[_odp_flow_hash(odp_packet_data(pkts[n]),
							   odp_packet_len(pkts[n])) % e->num_in];
			int full;

			odp_spinlock_lock(&r->lock);
			full = r->tail - r->head == r->size;
			if (!full) {
				octets += odp_packet_len(pkts[n]);
				r->pkt[r->tail++ & (r->size - 1)] = pkts[n];
			}
			odp_spinlock_unlock(&r->lock);
			if (full)
				break;
		}
	} else {
		loop_ring_t *r = priv->ring[(uint32_t)q % e->num_in];

		odp_spinlock_lock(&r->lock);
		while (n < num && r->tail - r->head < r->size) {
			octets += odp_packet_len(pkts[n]);
			r->pkt[r->tail++ & (r->size - 1)] = pkts[n];
			n++;
		}
		odp_spinlock_unlock(&r->lock);
	}
	_odp_pktio_tx_count(e, q, (uint64_t)n, octets);
	return n;
}

static int loop_input_done(_odp_pktio_entry_t *e)
{
	(void)e;
	return 0;
}

static int loop_mac_addr(_odp_pktio_entry_t *e, uint8_t mac[6])
{
	/* Locally administered, one per loop interface. */
	static const uint8_t base[6] = { 0x02, 0x00, 0x00, 0x00, 0x01, 0x00 };

	memcpy(mac, base, 6);
	mac[5] = (uint8_t)e->index;
	return 0;
}

static uint32_t loop_maxlen(_odp_pktio_entry_t *e)
{
	return e->pool != ODP_POOL_INVALID ? _odp_pool_data_room(e->pool) : 9216;
}

static int loop_promisc_set(_odp_pktio_entry_t *e, int enable)
{
	(void)e;
	(void)enable;
	return 0;
}

const _odp_pktio_ops_t _odp_pktio_loop_ops = {
	.name = "loop",
	.match = loop_match,
	.max_in_queues = ODP_PKTIN_MAX_QUEUES,
	.max_out_queues = ODP_PKTOUT_MAX_QUEUES,
	.open = loop_open,
	.close = loop_close,
	.start = loop_start,
	.stop = loop_stop,
	.recv = loop_recv,
	.send = loop_send,
	.input_done = loop_input_done,
	.mac_addr = loop_mac_addr,
	.maxlen = loop_maxlen,
	.promisc_set = loop_promisc_set,
};
