/* Bundled ODP internals: packet header layout for the inline packet calls.
 * Not API: include <odp/api/packet.h> (or odp_api.h) instead. */
#ifndef ODP_BUNDLED_PACKET_INLINES_H_
#define ODP_BUNDLED_PACKET_INLINES_H_

#include <odp/api/std_types.h>
#include <odp/api/align.h>
#include <odp/api/packet_types.h>
#include <odp/api/packet_io_types.h>
#include <odp/api/pool_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Every packet is one buffer of a packet pool:
 *
 *   [header (this struct)][user area][head ... data ... data + len ... head + buf_len]
 *                                     <- headroom ->                 <- tailroom ->
 *
 * An odp_packet_t points at the header. In a DPDK build the buffer is an
 * mbuf's and the header and user area are its private area, right after the
 * struct rte_mbuf (runtime/odp/odp_dpdk_internal.h); the fields below mean
 * the same, and data and len are kept in step with the mbuf by the DPDK
 * pktio when packets go in and out.
 */
typedef struct ODP_ALIGNED_CACHE _odp_pkt_hdr_t {
	uint8_t *data;          /* first byte of packet data */
	uint32_t len;           /* bytes of packet data */
	uint32_t buf_len;       /* bytes from head to the end of the buffer */
	uint8_t *head;          /* start of the buffer */
	odp_pool_t pool;        /* pool the packet belongs to */
	odp_pktio_t input;      /* receiving interface or ODP_PKTIO_INVALID */
	int32_t input_index;    /* its index, or -1 */
	uint32_t uarea_size;    /* user area bytes */
	void *uarea;            /* user area, NULL when uarea_size is 0 */
	const void *user_ptr;   /* odp_packet_user_ptr() */
	uint32_t user_flag;     /* odp_packet_user_flag() */
	uint32_t index;         /* packet number within its pool */
} _odp_pkt_hdr_t;

static inline _odp_pkt_hdr_t *_odp_pkt_hdr(odp_packet_t pkt)
{
	return (_odp_pkt_hdr_t *)(void *)pkt;
}

#ifdef __cplusplus
}
#endif

#endif
