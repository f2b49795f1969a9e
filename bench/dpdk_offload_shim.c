/*
 * Preloaded into DPDK 22.11's l3fwd by bench/dpdk_side_by_side.py (never into
 * the switch compared with it).
 *
 * That l3fwd asks every port for RX checksum offload (port_conf.rxmode.offloads
 * = RTE_ETH_RX_OFFLOAD_CHECKSUM, also given to each RX queue), and software
 * devices such as net_pcap and net_null have none: rte_eth_dev_configure()
 * fails with "requested Rx offloads 0xe doesn't match Rx offloads capabilities
 * 0x0".  This keeps of the RX offloads asked for only those the device has,
 * as pktgen does (its "config rx offloads based on dev capa").  l3fwd's LPM
 * datapath never reads the checksum flags, so the work per packet is the same.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

#include <rte_ethdev.h>

typedef int configure_fn(uint16_t, uint16_t, uint16_t, const struct rte_eth_conf *);
typedef int rx_queue_setup_fn(uint16_t, uint16_t, uint16_t, unsigned int, const struct rte_eth_rxconf *,
			      struct rte_mempool *);

static void *next(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);
	if (!fn) {
		fprintf(stderr, "dpdk_offload_shim: %s not found: %s\n", name, dlerror());
		abort();
	}
	return fn;
}

int rte_eth_dev_configure(uint16_t port_id, uint16_t nb_rx_q, uint16_t nb_tx_q, const struct rte_eth_conf *conf)
{
	static configure_fn *configure;
	struct rte_eth_dev_info info;
	struct rte_eth_conf masked = *conf;

	if (!configure)
		configure = (configure_fn *)next("rte_eth_dev_configure");
	if (rte_eth_dev_info_get(port_id, &info) == 0)
		masked.rxmode.offloads &= info.rx_offload_capa;
	return configure(port_id, nb_rx_q, nb_tx_q, &masked);
}

int rte_eth_rx_queue_setup(uint16_t port_id, uint16_t queue_id, uint16_t nb_desc, unsigned int socket_id,
			   const struct rte_eth_rxconf *conf, struct rte_mempool *pool)
{
	static rx_queue_setup_fn *setup;
	struct rte_eth_dev_info info;
	struct rte_eth_rxconf masked;

	if (!setup)
		setup = (rx_queue_setup_fn *)next("rte_eth_rx_queue_setup");
	if (!conf || rte_eth_dev_info_get(port_id, &info) != 0)
		return setup(port_id, queue_id, nb_desc, socket_id, conf, pool);
	masked = *conf;
	masked.offloads &= info.rx_offload_capa | info.rx_queue_offload_capa;
	return setup(port_id, queue_id, nb_desc, socket_id, &masked, pool);
}
