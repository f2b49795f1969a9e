/* Bundled ODP, DPDK build (ODP_BUNDLED_PKTIO_DPDK): what odp_init.c,
 * odp_dpdk.c and pktio_dpdk.c share.
 *
 * A packet is an mbuf of an rte_mempool; the ODP packet header
 * (_odp_pkt_hdr_t) and the user area are the mbuf's private area:
 *
 *   [struct rte_mbuf][_odp_pkt_hdr_t][user area][headroom ... data ... tailroom]
 *   ^ odp_packet_t                   (priv_size)  ^ buf_addr
 *
 * The inline packet calls read the data, the length and the input from the
 * mbuf itself (odp/bundled/packet_inlines.h), so pktio_dpdk.c hands the
 * drivers odp_packet_t arrays as they are.
 */
#ifndef ODP_DPDK_INTERNAL_H_
#define ODP_DPDK_INTERNAL_H_

#include <rte_mbuf.h>

#include "odp_internal.h"

/* EAL with the arguments of ODP_PLATFORM_PARAMS or ODP_PKTIO_DPDK_PARAMS:
 * 0 or <0 (after a log message naming the variable). */
int _odp_dpdk_init_global(void);
void _odp_dpdk_term_global(void);

/* Make an ODP thread a DPDK (non-EAL) lcore, so that it uses the per-lcore
 * mempool caches; without a free lcore it works on, without caches. */
void _odp_dpdk_init_local(void);
void _odp_dpdk_term_local(void);

#endif
