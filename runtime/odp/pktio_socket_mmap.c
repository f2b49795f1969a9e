/* Bundled ODP: Linux network interfaces through AF_PACKET mmap rings.
 *
 * Any device name that no other kind claims is taken as an interface name.
 * Each input queue is a socket with a TPACKET_V3 receive ring; several
 * input queues form a PACKET_FANOUT group that spreads flows by hash. Each
 * output queue is a socket with a TPACKET_V2 transmit ring. Sockets exist
 * between odp_pktio_start() and odp_pktio_stop(). The interface is put in
 * promiscuous mode from open to close (as a packet socket membership, so
 * the kernel undoes it even if the process dies).
 *
 * VLAN tags the kernel took out of received frames (TP_STATUS_VLAN_VALID)
 * are put back, so packets arrive as they were on the wire. Frames the
 * interface itself sends are not received.
 *
 * Checksum and segmentation offloads are not handled: frames larger than
 * the pool's packets (e.g. GSO super-packets) are dropped, and frames from
 * local sockets may carry partial checksums. Turn offloads off on such
 * interfaces (ethtool -K IFNAME tx off tso off gso off gro off).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "odp_internal.h"

#define RX_BLOCK_SIZE     (128 * 1024)
#define RX_FRAME_SIZE     2048
#define RX_MIN_BLOCKS     8
#define RX_DEFAULT_QSIZE  2048
#define RX_BLOCK_TMO_MS   1
#define TX_DEFAULT_QSIZE  1024
#define TX_BLOCK_SIZE     (64 * 1024)
#define TX_DATA_OFF       TPACKET_ALIGN(sizeof(struct tpacket2_hdr))
#define FANOUT_TRIES      32
#define STOP_DRAIN_NS     (200 * ODP_TIME_MSEC_IN_NS)

typedef struct {
	int fd;
	uint8_t *map;
	size_t map_len;
	uint32_t block_size;
	uint32_t block_nr;
	uint32_t block;              /* block to read next */
	uint32_t left;               /* packets left in it, 0: not ours yet */
	struct tpacket3_hdr *next;   /* next packet in it */
} rxq_t;

typedef struct {
	int fd;
	uint8_t *map;
	size_t map_len;
	uint32_t frame_size;
	uint32_t frame_nr;
	uint32_t head;               /* next frame to fill */
} txq_t;

typedef struct {
	_odp_netdev_t dev;           /* first: fd holds the promiscuous membership */
	uint32_t data_room;          /* largest packet of the pool */
	uint64_t kernel_drops;       /* ring full, from PACKET_STATISTICS */
	uint32_t num_rx;
	uint32_t num_tx;
	rxq_t rx[ODP_PKTIN_MAX_QUEUES];
	txq_t tx[ODP_PKTOUT_MAX_QUEUES];
} sock_priv_t;

static int sock_match(const char *devname)
{
	(void)devname;
	return 1;
}

static int sock_open(_odp_pktio_entry_t *e, const char *devname)
{
	sock_priv_t *priv;

	if (strlen(devname) >= IFNAMSIZ) {
		_ODP_ERR("socket_mmap: '%s': not a device kind (pcap:, loop) nor an interface "
			 "name\n", devname);
		return -1;
	}
	priv = calloc(1, sizeof(*priv));
	if (!priv) {
		_ODP_ERR("socket_mmap: out of memory\n");
		return -1;
	}
	e->priv = priv;
	priv->dev.fd = -1;
	if (_odp_netdev_open(e, devname, 1))
		goto fail;
	priv->data_room = _odp_netdev_data_room(e);
	if (_odp_netdev_promisc_set(e, 1))
		goto fail;
	e->promisc = 1;
	return 0;
fail:
	_odp_netdev_close(e);
	return -1;
}

static void rxq_destroy(sock_priv_t *priv, rxq_t *rx)
{
	struct tpacket_stats_v3 st;
	socklen_t len = sizeof(st);

	if (rx->fd >= 0 && getsockopt(rx->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
		__atomic_fetch_add(&priv->kernel_drops, st.tp_drops, __ATOMIC_RELAXED);
	if (rx->map)
		munmap(rx->map, rx->map_len);
	if (rx->fd >= 0)
		close(rx->fd);
	memset(rx, 0, sizeof(*rx));
	rx->fd = -1;
}

/* 0 on success, -EBUSY when the fanout group cannot be joined, else -1. */
static int rxq_create(_odp_pktio_entry_t *e, rxq_t *rx, uint32_t qsize, int fanout_id)
{
	sock_priv_t *priv = e->priv;
	struct tpacket_req3 req;
	struct sockaddr_ll addr;
	uint32_t frame_max = priv->dev.mtu + _ODP_ETH_HDR_LEN + _ODP_VLAN_HDR_LEN + 256;
	int version = TPACKET_V3;
	int one = 1;

	memset(rx, 0, sizeof(*rx));
	rx->fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (rx->fd < 0)
		goto fail;
	if (setsockopt(rx->fd, SOL_PACKET, PACKET_VERSION, &version, sizeof(version)) != 0)
		goto fail;
	/* Not available before Linux 4.20; outgoing frames are filtered below too. */
	(void)setsockopt(rx->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));

	rx->block_size = RX_BLOCK_SIZE;
	while (rx->block_size < frame_max)
		rx->block_size <<= 1;
	rx->block_nr = (uint32_t)(((uint64_t)qsize * RX_FRAME_SIZE + rx->block_size - 1) /
				  rx->block_size);
	if (rx->block_nr < RX_MIN_BLOCKS)
		rx->block_nr = RX_MIN_BLOCKS;
	memset(&req, 0, sizeof(req));
	req.tp_block_size = rx->block_size;
	req.tp_block_nr = rx->block_nr;
	req.tp_frame_size = RX_FRAME_SIZE;
	req.tp_frame_nr = rx->block_size / RX_FRAME_SIZE * rx->block_nr;
	req.tp_retire_blk_tov = RX_BLOCK_TMO_MS;
	if (setsockopt(rx->fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) != 0)
		goto fail;
	rx->map_len = (size_t)rx->block_size * rx->block_nr;
	rx->map = mmap(NULL, rx->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, rx->fd, 0);
	if (rx->map == MAP_FAILED) {
		rx->map = NULL;
		goto fail;
	}
	/* Bound last, so that nothing arrives before the ring is there. */
	memset(&addr, 0, sizeof(addr));
	addr.sll_family = AF_PACKET;
	addr.sll_protocol = htons(ETH_P_ALL);
	addr.sll_ifindex = priv->dev.ifindex;
	if (bind(rx->fd, (struct sockaddr *)&addr, sizeof(addr)) != 0)
		goto fail;
	if (fanout_id >= 0) {
		uint32_t arg = ((uint32_t)fanout_id & 0xffff) |
			       (uint32_t)(PACKET_FANOUT_HASH | PACKET_FANOUT_FLAG_DEFRAG) << 16;

		if (setsockopt(rx->fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg)) != 0) {
			/* The group id may be in use with other settings. */
			rxq_destroy(priv, rx);
			return -EBUSY;
		}
	}
	return 0;
fail:
	_ODP_ERR("socket_mmap: %s: cannot set up a receive ring: %s\n", priv->dev.ifname,
		 strerror(errno));
	rxq_destroy(priv, rx);
	return -1;
}

static int txq_pending(const txq_t *tx)
{
	for (uint32_t i = 0; i < tx->frame_nr; i++) {
		struct tpacket2_hdr *h = (void *)(tx->map + (size_t)i * tx->frame_size);
		uint32_t status = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);

		if (status == TP_STATUS_SEND_REQUEST || status == TP_STATUS_SENDING)
			return 1;
	}
	return 0;
}

static void txq_destroy(txq_t *tx)
{
	if (tx->map && tx->fd >= 0) {
		/* Let the kernel send what is queued, for a while. */
		uint64_t end = odp_time_local_ns() + STOP_DRAIN_NS;

		while (txq_pending(tx) && odp_time_local_ns() < end) {
			struct timespec ts = { 0, 100000 };

			(void)send(tx->fd, NULL, 0, MSG_DONTWAIT);
			nanosleep(&ts, NULL);
		}
	}
	if (tx->map)
		munmap(tx->map, tx->map_len);
	if (tx->fd >= 0)
		close(tx->fd);
	memset(tx, 0, sizeof(*tx));
	tx->fd = -1;
}

static int txq_create(_odp_pktio_entry_t *e, txq_t *tx, uint32_t qsize)
{
	sock_priv_t *priv = e->priv;
	struct tpacket_req req;
	struct sockaddr_ll addr;
	uint32_t block_size = TX_BLOCK_SIZE;
	uint32_t per_block;
	int version = TPACKET_V2;
	int one = 1;

	memset(tx, 0, sizeof(*tx));
	/* Protocol 0: the socket only sends. */
	tx->fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (tx->fd < 0)
		goto fail;
	if (setsockopt(tx->fd, SOL_PACKET, PACKET_VERSION, &version, sizeof(version)) != 0)
		goto fail;
	/* Skip malformed frames instead of stopping the ring at them. */
	if (setsockopt(tx->fd, SOL_PACKET, PACKET_LOSS, &one, sizeof(one)) != 0)
		goto fail;
	tx->frame_size = 2048;
	while (tx->frame_size < TX_DATA_OFF + priv->dev.mtu + _ODP_ETH_HDR_LEN + _ODP_VLAN_HDR_LEN)
		tx->frame_size <<= 1;
	if (block_size < tx->frame_size)
		block_size = tx->frame_size;
	per_block = block_size / tx->frame_size;
	memset(&req, 0, sizeof(req));
	req.tp_block_size = block_size;
	req.tp_block_nr = (qsize + per_block - 1) / per_block;
	req.tp_frame_size = tx->frame_size;
	req.tp_frame_nr = req.tp_block_nr * per_block;
	if (setsockopt(tx->fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)) != 0)
		goto fail;
	tx->frame_nr = req.tp_frame_nr;
	tx->map_len = (size_t)block_size * req.tp_block_nr;
	tx->map = mmap(NULL, tx->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, tx->fd, 0);
	if (tx->map == MAP_FAILED) {
		tx->map = NULL;
		goto fail;
	}
	memset(&addr, 0, sizeof(addr));
	addr.sll_family = AF_PACKET;
	addr.sll_protocol = 0;
	addr.sll_ifindex = priv->dev.ifindex;
	if (bind(tx->fd, (struct sockaddr *)&addr, sizeof(addr)) != 0)
		goto fail;
	return 0;
fail:
	_ODP_ERR("socket_mmap: %s: cannot set up a transmit ring: %s\n", priv->dev.ifname,
		 strerror(errno));
	txq_destroy(tx);
	return -1;
}

static int sock_stop(_odp_pktio_entry_t *e)
{
	sock_priv_t *priv = e->priv;

	for (uint32_t i = 0; i < priv->num_rx; i++)
		rxq_destroy(priv, &priv->rx[i]);
	for (uint32_t i = 0; i < priv->num_tx; i++)
		txq_destroy(&priv->tx[i]);
	priv->num_rx = 0;
	priv->num_tx = 0;
	return 0;
}

static int sock_start(_odp_pktio_entry_t *e)
{
	sock_priv_t *priv = e->priv;
	int ret = -EBUSY;

	for (int try = 0; try < FANOUT_TRIES && ret == -EBUSY; try++) {
		int fanout_id = -1;

		if (e->num_in > 1)
			fanout_id = (int)(((uint32_t)getpid() * 64u + (uint32_t)e->index +
					   (uint32_t)try * 7919u) & 0xffff);
		ret = 0;
		for (priv->num_rx = 0; priv->num_rx < e->num_in; priv->num_rx++) {
			uint32_t q = priv->num_rx;
			uint32_t qsize = e->in_param.queue_size[q] ? e->in_param.queue_size[q] :
				RX_DEFAULT_QSIZE;

			ret = rxq_create(e, &priv->rx[q], qsize, fanout_id);
			if (ret)
				break;
		}
		if (ret)
			sock_stop(e);
	}
	if (ret == -EBUSY)
		_ODP_ERR("socket_mmap: %s: cannot join a fanout group\n", priv->dev.ifname);
	if (ret)
		return -1;
	for (priv->num_tx = 0; priv->num_tx < e->num_out; priv->num_tx++) {
		uint32_t q = priv->num_tx;
		uint32_t qsize = e->out_param.queue_size[q] ? e->out_param.queue_size[q] :
			TX_DEFAULT_QSIZE;

		if (txq_create(e, &priv->tx[q], qsize)) {
			sock_stop(e);
			return -1;
		}
	}
	return 0;
}

static inline void rx_block_done(rxq_t *rx)
{
	struct tpacket_block_desc *bd =
		(void *)(rx->map + (size_t)rx->block * rx->block_size);

	__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
	rx->block = rx->block + 1 == rx->block_nr ? 0 : rx->block + 1;
}

static int sock_recv(_odp_pktio_entry_t *e, int q, odp_packet_t pkts[], int num)
{
	sock_priv_t *priv = e->priv;
	rxq_t *rx = &priv->rx[q];
	_odp_pktio_queue_t *stats = &e->in[q];
	int n = 0;

	while (n < num) {
		struct tpacket3_hdr *h;
		const struct sockaddr_ll *sll;
		const uint8_t *data;
		uint32_t len;
		uint32_t vlan;
		odp_packet_t pkt;
		uint8_t *dst;

		if (rx->left == 0) {
			struct tpacket_block_desc *bd =
				(void *)(rx->map + (size_t)rx->block * rx->block_size);

			if (!(__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
			      TP_STATUS_USER))
				break;
			rx->left = bd->hdr.bh1.num_pkts;
			rx->next = (void *)((uint8_t *)bd + bd->hdr.bh1.offset_to_first_pkt);
			if (rx->left == 0) {
				rx_block_done(rx);
				continue;
			}
		}
		h = rx->next;
		sll = (const void *)((uint8_t *)h + TPACKET_ALIGN(sizeof(*h)));
		data = (uint8_t *)h + h->tp_mac;
		len = h->tp_snaplen;
		vlan = (h->tp_status & TP_STATUS_VLAN_VALID) ? _ODP_VLAN_HDR_LEN : 0;
		pkt = ODP_PACKET_INVALID;
		if (sll->sll_pkttype == PACKET_OUTGOING) {
			/* Sent from this host; not input. */
		} else if (h->tp_snaplen != h->tp_len || len < _ODP_ETH_HDR_LEN ||
			   len + vlan > priv->data_room) {
			_odp_stat_add(&stats->discards, 1);
		} else {
			pkt = odp_packet_alloc(e->pool, len + vlan);
			if (pkt == ODP_PACKET_INVALID)
				break;   /* pool empty: keep the frame for the next call */
			dst = odp_packet_data(pkt);
			if (vlan) {
				uint16_t tpid = (h->tp_status & TP_STATUS_VLAN_TPID_VALID) &&
					h->hv1.tp_vlan_tpid ? h->hv1.tp_vlan_tpid : ETH_P_8021Q;
				uint16_t tci = (uint16_t)h->hv1.tp_vlan_tci;

				memcpy(dst, data, 12);
				dst[12] = (uint8_t)(tpid >> 8);
				dst[13] = (uint8_t)tpid;
				dst[14] = (uint8_t)(tci >> 8);
				dst[15] = (uint8_t)tci;
				memcpy(dst + 16, data + 12, len - 12);
			} else {
				memcpy(dst, data, len);
			}
			pkts[n++] = pkt;
		}
		if (--rx->left == 0)
			rx_block_done(rx);
		else
			rx->next = (void *)((uint8_t *)h + h->tp_next_offset);
	}
	return n;
}

static inline void tx_kick(_odp_pktio_entry_t *e, int q, txq_t *tx)
{
	if (send(tx->fd, NULL, 0, MSG_DONTWAIT) < 0 && errno != EAGAIN &&
	    errno != EWOULDBLOCK && errno != ENOBUFS && errno != EINTR)
		_odp_stat_add(&e->out[q].errors, 1);
}

static int sock_send(_odp_pktio_entry_t *e, int q, const odp_packet_t pkts[], int num)
{
	sock_priv_t *priv = e->priv;
	txq_t *tx = &priv->tx[q];
	uint64_t octets = 0;
	int queued = 0;
	int n;

	for (n = 0; n < num; n++) {
		struct tpacket2_hdr *h = (void *)(tx->map + (size_t)tx->head * tx->frame_size);
		const uint8_t *data = odp_packet_data(pkts[n]);
		uint32_t len = odp_packet_len(pkts[n]);
		uint32_t status;

		if (!_odp_netdev_frame_fits(&priv->dev, data, len)) {
			_odp_stat_add(&e->out[q].discards, 1);
			continue;
		}
		status = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
		if (status != TP_STATUS_AVAILABLE && status != TP_STATUS_WRONG_FORMAT) {
			/* Ring full: let the kernel catch up once, then give up. */
			tx_kick(e, q, tx);
			status = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);
			if (status != TP_STATUS_AVAILABLE && status != TP_STATUS_WRONG_FORMAT)
				break;
		}
		if (status == TP_STATUS_WRONG_FORMAT)
			_odp_stat_add(&e->out[q].errors, 1);
		memcpy((uint8_t *)h + TX_DATA_OFF, data, len);
		h->tp_len = len;
		__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
		tx->head = tx->head + 1 == tx->frame_nr ? 0 : tx->head + 1;
		octets += len;
		queued++;
	}
	if (queued)
		tx_kick(e, q, tx);
	odp_packet_free_multi(pkts, n);
	_odp_pktio_tx_count(e, q, (uint64_t)queued, octets);
	return n;
}

static void sock_wait(_odp_pktio_entry_t *e, int q, uint64_t ns)
{
	_odp_netdev_wait(&((sock_priv_t *)e->priv)->rx[q].fd, 1, ns);
}

static uint32_t sock_maxlen(_odp_pktio_entry_t *e)
{
	return ((sock_priv_t *)e->priv)->dev.mtu + _ODP_ETH_HDR_LEN;
}

static void sock_stats(_odp_pktio_entry_t *e, odp_pktio_stats_t *stats)
{
	sock_priv_t *priv = e->priv;

	/* Reading the kernel counters resets them: fold them into ours. */
	for (uint32_t i = 0; i < priv->num_rx; i++) {
		struct tpacket_stats_v3 st;
		socklen_t len = sizeof(st);

		if (priv->rx[i].fd >= 0 &&
		    getsockopt(priv->rx[i].fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
			__atomic_fetch_add(&priv->kernel_drops, st.tp_drops, __ATOMIC_RELAXED);
	}
	stats->in_discards += __atomic_load_n(&priv->kernel_drops, __ATOMIC_RELAXED);
}

static void sock_stats_reset(_odp_pktio_entry_t *e)
{
	sock_priv_t *priv = e->priv;
	odp_pktio_stats_t dummy;

	memset(&dummy, 0, sizeof(dummy));
	sock_stats(e, &dummy);
	__atomic_store_n(&priv->kernel_drops, 0, __ATOMIC_RELAXED);
}

const _odp_pktio_ops_t _odp_pktio_socket_mmap_ops = {
	.name = "socket_mmap",
	.match = sock_match,
	.max_in_queues = ODP_PKTIN_MAX_QUEUES,
	.max_out_queues = ODP_PKTOUT_MAX_QUEUES,
	.open = sock_open,
	.close = _odp_netdev_close,
	.start = sock_start,
	.stop = sock_stop,
	.recv = sock_recv,
	.send = sock_send,
	.wait = sock_wait,
	.mac_addr = _odp_netdev_mac_addr,
	.maxlen = sock_maxlen,
	.promisc_set = _odp_netdev_promisc_set,
	.stats = sock_stats,
	.stats_reset = sock_stats_reset,
	.link_status = _odp_netdev_link_status,
};
