/*
 * p4odp extensions to the bundled ODP; not part of the ODP API.
 *
 * Only the bundled implementation has this header. Code that must also
 * build against a system ODP includes it only when its build uses the
 * bundled ODP (e.g. under a macro the build defines), and can test
 * ODP_BUNDLED_EXT for the version of this interface.
 */
#ifndef ODP_BUNDLED_EXT_H_
#define ODP_BUNDLED_EXT_H_

#include <odp_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this extension interface (2: ODP_BUNDLED_INPUT_UNKNOWN,
 *  3: ODP_BUNDLED_RECV_PREFETCHES, 4: ODP_BUNDLED_RECV_ONE_SEGMENT). */
#define ODP_BUNDLED_EXT 4

/** odp_pktin_recv() starts loading the first cache line of every packet's
 *  data (it touches each packet anyway), so a caller need not prefetch it. */
#define ODP_BUNDLED_RECV_PREFETCHES 1

/** Every packet odp_pktin_recv() hands out is one segment: it drops a frame
 *  a device handed in as a chain, and counts it in the interface's
 *  in_discards, so a caller need not test odp_packet_is_segmented(). */
#define ODP_BUNDLED_RECV_ONE_SEGMENT 1

/** odp_bundled_pktio_input_done(): the device cannot tell. */
#define ODP_BUNDLED_INPUT_UNKNOWN 2

/**
 * Has the interface's input come to its end?
 *
 * Returns 1 when the interface will never receive another packet: a pcap
 * interface whose input file has been read to the end the requested number
 * of times (every packet of it has been returned by odp_pktin_recv()), or
 * one opened without an input file. Returns 0 while more packets may come,
 * which is always the case for live interfaces (loop, Linux interfaces,
 * DPDK ports other than net_pcap). Returns ODP_BUNDLED_INPUT_UNKNOWN for a
 * device whose input may end but that cannot say when: a DPDK net_pcap
 * port, whose driver gives no sign that its file is read; the caller
 * decides, e.g. after a time without packets. Returns <0 for an invalid
 * handle.
 *
 * A pcap-driven switch stops when all its pcap inputs return 1 (or have
 * been idle for a while when they return ODP_BUNDLED_INPUT_UNKNOWN) and its
 * own queues are empty.
 */
int odp_bundled_pktio_input_done(odp_pktio_t pktio);

#ifdef __cplusplus
}
#endif

#endif
