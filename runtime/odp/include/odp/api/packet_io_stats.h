/* Bundled ODP: packet I/O statistics (odp/api/packet_io_stats.h). */
#ifndef ODP_BUNDLED_API_PACKET_IO_STATS_H_
#define ODP_BUNDLED_API_PACKET_IO_STATS_H_

#include <odp/api/packet_io_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Interface counters. in_discards counts packets dropped on input (no free
 * packet, too long for the pool, kernel ring full); out_discards packets
 * dropped on output (too long for the link); *_errors malformed input or
 * failed transmits. Unicast/multicast/broadcast split is not counted.
 */
typedef struct odp_pktio_stats_t {
	uint64_t in_octets;
	uint64_t in_packets;
	uint64_t in_ucast_pkts;
	uint64_t in_mcast_pkts;
	uint64_t in_bcast_pkts;
	uint64_t in_discards;
	uint64_t in_errors;
	uint64_t out_octets;
	uint64_t out_packets;
	uint64_t out_ucast_pkts;
	uint64_t out_mcast_pkts;
	uint64_t out_bcast_pkts;
	uint64_t out_discards;
	uint64_t out_errors;
} odp_pktio_stats_t;

typedef struct odp_pktin_queue_stats_t {
	uint64_t octets;
	uint64_t packets;
	uint64_t discards;
	uint64_t errors;
} odp_pktin_queue_stats_t;

typedef struct odp_pktout_queue_stats_t {
	uint64_t octets;
	uint64_t packets;
	uint64_t discards;
	uint64_t errors;
} odp_pktout_queue_stats_t;

/** Interface counters since open or the last reset: 0 on success, <0 on failure. */
int odp_pktio_stats(odp_pktio_t pktio, odp_pktio_stats_t *stats);

/** Counters of one queue. */
int odp_pktin_queue_stats(odp_pktin_queue_t queue, odp_pktin_queue_stats_t *stats);
int odp_pktout_queue_stats(odp_pktout_queue_t queue, odp_pktout_queue_stats_t *stats);

/** Zero all counters of the interface. */
int odp_pktio_stats_reset(odp_pktio_t pktio);

#ifdef __cplusplus
}
#endif

#endif
