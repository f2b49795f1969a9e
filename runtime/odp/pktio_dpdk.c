/* Bundled ODP: DPDK ethdev ports, zero copy (built with ODP_BUNDLED_PKTIO_DPDK).
 *
 * As in odp-dpdk, a pktio name is a DPDK port id in decimal ("0", "1"):
 * ports are numbered in the order the EAL probed them, PCI devices and the
 * --vdev devices of ODP_PLATFORM_PARAMS (see odp_dpdk.c). Input and output
 * queues are the port's RX and TX queues, as many as the device has (up to
 * the ODP limits); several input queues with hash_enable use RSS.
 *
 * Packets are mbufs (odp_dpdk_internal.h): RX queues refill from the pktio's
 * pool and TX frees into the packets' pools, so no data is copied, and an
 * array of odp_packet_t is an array of mbuf pointers the drivers take as it
 * is. Multi-segment mbufs (frames longer than the pool's packets, from
 * drivers that chain) are dropped by odp_pktin_recv() and counted in in_discards.
 * The octets in and out are the device's counts (rte_eth_stats), so that
 * neither receive nor send adds up lengths per packet.
 *
 * A net_pcap port cannot tell when its file has ended: its input_done is
 * ODP_BUNDLED_INPUT_UNKNOWN, and the caller decides by idle time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include "odp_dpdk_internal.h"

#define RX_DESC      1024
#define TX_DESC      1024
/* The RX rings of all DPDK ports, and their TX rings, hold at most this share
 * of the pool's packets (1/POOL_SHARE each, split between the ports); the
 * driver's minimum wins over it. */
#define POOL_SHARE   4

typedef struct {
	uint16_t port;
	int pcap;                   /* net_pcap: no end-of-input signal */
	struct rte_eth_dev_info info;
} dpdk_priv_t;

/* Port ids in decimal: the names odp-dpdk gives DPDK ports. No leading
 * zeros: "00" would open port 0 a second time under another name. */
static int dpdk_match(const char *devname)
{
	size_t n = strspn(devname, "0123456789");

	return n > 0 && n <= 5 && devname[n] == '\0' && !(n > 1 && devname[0] == '0');
}

static int dpdk_open(_odp_pktio_entry_t *e, const char *devname)
{
	unsigned long port = strtoul(devname, NULL, 10);
	dpdk_priv_t *priv;
	int ret;

	if (port >= RTE_MAX_ETHPORTS || !rte_eth_dev_is_valid_port((uint16_t)port)) {
		_ODP_ERR("dpdk: no port %s: %u port(s); give devices to the EAL in "
			 "ODP_PLATFORM_PARAMS (e.g. --vdev net_pcap0,rx_pcap=IN,tx_pcap=OUT)\n",
			 devname, rte_eth_dev_count_avail());
		return -1;
	}
	priv = calloc(1, sizeof(*priv));
	if (!priv) {
		_ODP_ERR("dpdk: out of memory\n");
		return -1;
	}
	priv->port = (uint16_t)port;
	ret = rte_eth_dev_info_get(priv->port, &priv->info);
	if (ret != 0) {
		_ODP_ERR("dpdk: port %s: no device information: %s\n", devname, rte_strerror(-ret));
		free(priv);
		return -1;
	}
	priv->pcap = strcmp(priv->info.driver_name, "net_pcap") == 0;
	e->priv = priv;
	e->promisc = rte_eth_promiscuous_get(priv->port) == 1;
	return 0;
}

static int dpdk_close(_odp_pktio_entry_t *e)
{
	dpdk_priv_t *priv = e->priv;
	int ret;

	/* Frees the mbufs the driver holds, so that the pool can go; the
	 * port is gone for this process afterwards (as in odp-dpdk). */
	ret = rte_eth_dev_close(priv->port);
	if (ret != 0)
		_ODP_ERR("dpdk: port %u: close: %s\n", priv->port, rte_strerror(-ret));
	free(priv);
	e->priv = NULL;
	return ret;
}

static void dpdk_queues(_odp_pktio_entry_t *e, uint32_t *max_in, uint32_t *max_out)
{
	dpdk_priv_t *priv = e->priv;

	*max_in = RTE_MIN(*max_in, (uint32_t)priv->info.max_rx_queues);
	*max_out = RTE_MIN(*max_out, (uint32_t)priv->info.max_tx_queues);
}

static uint64_t rss_hf(const odp_pktin_hash_proto_t *proto)
{
	uint64_t hf = 0;

	if (proto->proto.ipv4 || proto->proto.ipv4_udp || proto->proto.ipv4_tcp)
		hf |= RTE_ETH_RSS_IPV4;
	if (proto->proto.ipv4_udp)
		hf |= RTE_ETH_RSS_NONFRAG_IPV4_UDP;
	if (proto->proto.ipv4_tcp)
		hf |= RTE_ETH_RSS_NONFRAG_IPV4_TCP;
	if (proto->proto.ipv6 || proto->proto.ipv6_udp || proto->proto.ipv6_tcp)
		hf |= RTE_ETH_RSS_IPV6;
	if (proto->proto.ipv6_udp)
		hf |= RTE_ETH_RSS_NONFRAG_IPV6_UDP;
	if (proto->proto.ipv6_tcp)
		hf |= RTE_ETH_RSS_NONFRAG_IPV6_TCP;
	return hf;
}

static int dpdk_start(_odp_pktio_entry_t *e)
{
	dpdk_priv_t *priv = e->priv;
	/* RX refills from the pktio's pool. */
	_odp_pool_t *pool = e->pool != ODP_POOL_INVALID ? _odp_pool_from_hdl(e->pool) : NULL;
	uint32_t pool_num = pool ? pool->num : 0;
	struct rte_eth_conf conf;
	uint16_t nb_rxd = RX_DESC;
	uint16_t nb_txd = TX_DESC;
	int socket = rte_eth_dev_socket_id(priv->port);  /* SOCKET_ID_ANY for vdevs */
	int ret;

	/*
	 * Drivers fill every RX descriptor with an mbuf of the pool at start and
	 * keep sent mbufs in the TX ring until it runs low: descriptors as many
	 * as the pool has packets would leave none to allocate, or make the
	 * start fail. Keep them to a share of the pool, split between all the
	 * DPDK ports, which may all receive into it.
	 */
	uint32_t ports = RTE_MAX(rte_eth_dev_count_avail(), 1u);

	if (pool_num && e->num_in)
		nb_rxd = (uint16_t)RTE_MIN((uint32_t)RX_DESC, pool_num / (POOL_SHARE * ports * e->num_in));
	if (pool_num && e->num_out)
		nb_txd = (uint16_t)RTE_MIN((uint32_t)TX_DESC, pool_num / (POOL_SHARE * ports * e->num_out));
	memset(&conf, 0, sizeof(conf));
	if (e->num_in > 1 && e->in_param.hash_enable) {
		uint64_t hf = rss_hf(&e->in_param.hash_proto) & priv->info.flow_type_rss_offloads;

		if (hf) {
			conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
			conf.rx_adv_conf.rss_conf.rss_hf = hf;
		}
	}
	ret = rte_eth_dev_configure(priv->port, (uint16_t)e->num_in, (uint16_t)e->num_out, &conf);
	if (ret == 0)
		ret = rte_eth_dev_adjust_nb_rx_tx_desc(priv->port, &nb_rxd, &nb_txd);
	for (uint32_t q = 0; ret == 0 && q < e->num_in; q++)
		ret = rte_eth_rx_queue_setup(priv->port, (uint16_t)q, nb_rxd,
					     (unsigned int)socket, NULL, pool ? pool->mempool : NULL);
	for (uint32_t q = 0; ret == 0 && q < e->num_out; q++)
		ret = rte_eth_tx_queue_setup(priv->port, (uint16_t)q, nb_txd,
					     (unsigned int)socket, NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(priv->port);
	if (ret != 0) {
		_ODP_ERR("dpdk: port %u (%s): cannot start with %" PRIu32 " RX and %" PRIu32
			 " TX queues: %s\n", priv->port, priv->info.driver_name, e->num_in,
			 e->num_out, rte_strerror(-ret));
		return -1;
	}
	return 0;
}

static int dpdk_stop(_odp_pktio_entry_t *e)
{
	dpdk_priv_t *priv = e->priv;
	int ret = rte_eth_dev_stop(priv->port);

	if (ret != 0) {
		_ODP_ERR("dpdk: port %u: stop: %s\n", priv->port, rte_strerror(-ret));
		return -1;
	}
	return 0;
}

/* One burst of the device's each: ODP's receive and send may do fewer than
 * asked, and the callers loop when they want more.  Chained mbufs are left to
 * odp_pktin_recv(), which drops them. */
static int dpdk_recv(_odp_pktio_entry_t *e, int q, odp_packet_t pkts[], int num)
{
	dpdk_priv_t *priv = e->priv;

	return rte_eth_rx_burst(priv->port, (uint16_t)q, (struct rte_mbuf **)(void *)pkts,
				(uint16_t)RTE_MIN(num, UINT16_MAX));
}

static int dpdk_send(_odp_pktio_entry_t *e, int q, const odp_packet_t pkts[], int num)
{
	dpdk_priv_t *priv = e->priv;
	int sent = rte_eth_tx_burst(priv->port, (uint16_t)q, (struct rte_mbuf **)(uintptr_t)pkts,
				    (uint16_t)RTE_MIN(num, UINT16_MAX));

	/* The octets are the device's (dpdk_stats). */
	_odp_pktio_tx_count(e, q, (uint64_t)sent, 0);
	return sent;
}

static int dpdk_input_done(_odp_pktio_entry_t *e)
{
	dpdk_priv_t *priv = e->priv;

	return priv->pcap ? ODP_BUNDLED_INPUT_UNKNOWN : 0;
}

static int dpdk_mac_addr(_odp_pktio_entry_t *e, uint8_t mac[6])
{
	dpdk_priv_t *priv = e->priv;
	struct rte_ether_addr addr;

	if (rte_eth_macaddr_get(priv->port, &addr) != 0)
		return -1;
	memcpy(mac, addr.addr_bytes, 6);
	return 0;
}

/* The MTU plus the Ethernet header, within what the pool's packets hold. */
static uint32_t dpdk_maxlen(_odp_pktio_entry_t *e)
{
	dpdk_priv_t *priv = e->priv;
	uint16_t mtu = RTE_ETHER_MTU;
	uint32_t maxlen;

	rte_eth_dev_get_mtu(priv->port, &mtu);
	maxlen = (uint32_t)mtu + RTE_ETHER_HDR_LEN;
	if (e->pool != ODP_POOL_INVALID)
		maxlen = RTE_MIN(maxlen, _odp_pool_data_room(e->pool));
	return maxlen;
}

static int dpdk_promisc_set(_odp_pktio_entry_t *e, int enable)
{
	dpdk_priv_t *priv = e->priv;
	int ret = enable ? rte_eth_promiscuous_enable(priv->port) :
		  rte_eth_promiscuous_disable(priv->port);

	if (ret != 0)
		_ODP_ERR("dpdk: port %u: promiscuous mode: %s\n", priv->port, rte_strerror(-ret));
	return ret;
}

/* Drops and errors the device counts; ODP counts packets and octets. */
static void dpdk_stats(_odp_pktio_entry_t *e, odp_pktio_stats_t *stats)
{
	dpdk_priv_t *priv = e->priv;
	struct rte_eth_stats s;

	if (rte_eth_stats_get(priv->port, &s) != 0)
		return;
	stats->in_octets += s.ibytes;
	stats->out_octets += s.obytes;
	stats->in_discards += s.imissed + s.rx_nombuf;
	stats->in_errors += s.ierrors;
	stats->out_errors += s.oerrors;
}

static uint64_t dpdk_queue_octets(_odp_pktio_entry_t *e, int in, int q)
{
	dpdk_priv_t *priv = e->priv;
	struct rte_eth_stats s;

	if (q >= RTE_ETHDEV_QUEUE_STAT_CNTRS || rte_eth_stats_get(priv->port, &s) != 0)
		return 0;
	return in ? s.q_ibytes[q] : s.q_obytes[q];
}

static void dpdk_stats_reset(_odp_pktio_entry_t *e)
{
	dpdk_priv_t *priv = e->priv;

	rte_eth_stats_reset(priv->port);
}

static odp_pktio_link_status_t dpdk_link_status(_odp_pktio_entry_t *e)
{
	dpdk_priv_t *priv = e->priv;
	struct rte_eth_link link;

	if (rte_eth_link_get_nowait(priv->port, &link) != 0)
		return ODP_PKTIO_LINK_STATUS_UNKNOWN;
	return link.link_status == RTE_ETH_LINK_UP ? ODP_PKTIO_LINK_STATUS_UP :
						     ODP_PKTIO_LINK_STATUS_DOWN;
}

const _odp_pktio_ops_t _odp_pktio_dpdk_ops = {
	.name = "dpdk",
	.match = dpdk_match,
	.max_in_queues = ODP_PKTIN_MAX_QUEUES,
	.max_out_queues = ODP_PKTOUT_MAX_QUEUES,
	.queues = dpdk_queues,
	.open = dpdk_open,
	.close = dpdk_close,
	.start = dpdk_start,
	.stop = dpdk_stop,
	.recv = dpdk_recv,
	.send = dpdk_send,
	.queue_octets = dpdk_queue_octets,
	.input_done = dpdk_input_done,
	.mac_addr = dpdk_mac_addr,
	.maxlen = dpdk_maxlen,
	.promisc_set = dpdk_promisc_set,
	.stats = dpdk_stats,
	.stats_reset = dpdk_stats_reset,
	.link_status = dpdk_link_status,
};
