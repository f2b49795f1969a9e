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

#ifdef ODP_BUNDLED_PKTIO_DPDK
#include <rte_mbuf_core.h>
#endif

/*
 * Every packet is one buffer of a packet pool:
 *
 *   [header (this struct)][user area][head ... data ... data + len ... head + buf_len]
 *                                     <- headroom ->                 <- tailroom ->
 *
 * An odp_packet_t points at the header; the calls below are the only readers
 * and writers of where the data is, its length and the input interface.
 *
 * In a DPDK build (ODP_BUNDLED_PKTIO_DPDK) an odp_packet_t is the rte_mbuf
 * itself and this header with the user area its private area, right after
 * it (runtime/odp/odp_dpdk_internal.h).  The mbuf's own fields are the
 * truth: the data is buf_addr + data_off, the length pkt_len, the input
 * the pktio index in `port` (set on receive).  So the drivers' receive and
 * transmit take and give odp_packet_t arrays as they are, with no per-packet
 * conversion, and nothing touches the private area's cache line unless the
 * application uses the user pointer, flag or area.  user_ptr and user_flag
 * hold only while the mbuf's _odp_dpdk_user_meta flag (a dynamic ol_flags
 * bit, which drivers clear on receive and odp_packet_alloc() clears) is set.
 */
typedef struct ODP_ALIGNED_CACHE _odp_pkt_hdr_t {
#ifndef ODP_BUNDLED_PKTIO_DPDK
	uint8_t *data;          /* first byte of packet data */
	uint32_t len;           /* bytes of packet data */
	uint32_t buf_len;       /* bytes from head to the end of the buffer */
	uint8_t *head;          /* start of the buffer */
	int32_t input_index;    /* the receiving pktio's index, or -1 */
#endif
	odp_pool_t pool;        /* pool the packet belongs to */
	uint32_t uarea_size;    /* user area bytes */
	void *uarea;            /* user area, NULL when uarea_size is 0 */
	const void *user_ptr;   /* odp_packet_user_ptr() */
	uint32_t user_flag;     /* odp_packet_user_flag() */
	uint32_t index;         /* packet number within its pool */
} _odp_pkt_hdr_t;

#ifdef ODP_BUNDLED_PKTIO_DPDK

/* The ol_flags bit saying user_ptr and user_flag were set (odp_dpdk.c). */
extern uint64_t _odp_dpdk_user_meta;

static inline struct rte_mbuf *_odp_pkt_mbuf(odp_packet_t pkt)
{
	return (struct rte_mbuf *)(void *)pkt;
}

static inline _odp_pkt_hdr_t *_odp_pkt_hdr(odp_packet_t pkt)
{
	return (_odp_pkt_hdr_t *)(void *)(_odp_pkt_mbuf(pkt) + 1);
}

static inline uint8_t *_odp_pkt_data(odp_packet_t pkt)
{
	struct rte_mbuf *m = _odp_pkt_mbuf(pkt);

	return (uint8_t *)m->buf_addr + m->data_off;
}

static inline uint32_t _odp_pkt_len(odp_packet_t pkt)
{
	return _odp_pkt_mbuf(pkt)->pkt_len;
}

static inline void _odp_pkt_set_data(odp_packet_t pkt, uint8_t *data, uint32_t len)
{
	struct rte_mbuf *m = _odp_pkt_mbuf(pkt);

	m->data_off = (uint16_t)(data - (uint8_t *)m->buf_addr);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
}

static inline uint8_t *_odp_pkt_head(odp_packet_t pkt)
{
	return (uint8_t *)_odp_pkt_mbuf(pkt)->buf_addr;
}

static inline uint32_t _odp_pkt_buf_len(odp_packet_t pkt)
{
	return _odp_pkt_mbuf(pkt)->buf_len;
}

static inline int _odp_pkt_input_index(odp_packet_t pkt)
{
	uint16_t port = _odp_pkt_mbuf(pkt)->port;

	return port == RTE_MBUF_PORT_INVALID ? -1 : port;
}

static inline void _odp_pkt_set_input_index(odp_packet_t pkt, int index)
{
	_odp_pkt_mbuf(pkt)->port = index < 0 ? RTE_MBUF_PORT_INVALID : (uint16_t)index;
}

/* A chain of mbufs, as a device may hand in for a frame longer than one:
 * odp_pktin_recv() drops those, since a packet here is one buffer. */
static inline int _odp_pkt_chained(odp_packet_t pkt)
{
	return _odp_pkt_mbuf(pkt)->nb_segs != 1;
}

/* The header holding user_ptr and user_flag, NULL while they are unset. */
static inline const _odp_pkt_hdr_t *_odp_pkt_user_meta(odp_packet_t pkt)
{
	return _odp_pkt_mbuf(pkt)->ol_flags & _odp_dpdk_user_meta ? _odp_pkt_hdr(pkt) : NULL;
}

/* The header holding user_ptr and user_flag, to set one of them. */
static inline _odp_pkt_hdr_t *_odp_pkt_user_meta_set(odp_packet_t pkt)
{
	struct rte_mbuf *m = _odp_pkt_mbuf(pkt);
	_odp_pkt_hdr_t *h = _odp_pkt_hdr(pkt);

	if (!(m->ol_flags & _odp_dpdk_user_meta)) {
		h->user_ptr = NULL;
		h->user_flag = 0;
		m->ol_flags |= _odp_dpdk_user_meta;
	}
	return h;
}

#else

static inline _odp_pkt_hdr_t *_odp_pkt_hdr(odp_packet_t pkt)
{
	return (_odp_pkt_hdr_t *)(void *)pkt;
}

static inline uint8_t *_odp_pkt_data(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt)->data;
}

static inline uint32_t _odp_pkt_len(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt)->len;
}

static inline void _odp_pkt_set_data(odp_packet_t pkt, uint8_t *data, uint32_t len)
{
	_odp_pkt_hdr_t *h = _odp_pkt_hdr(pkt);

	h->data = data;
	h->len = len;
}

static inline uint8_t *_odp_pkt_head(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt)->head;
}

static inline uint32_t _odp_pkt_buf_len(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt)->buf_len;
}

static inline int _odp_pkt_input_index(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt)->input_index;
}

static inline void _odp_pkt_set_input_index(odp_packet_t pkt, int index)
{
	_odp_pkt_hdr(pkt)->input_index = index;
}

/* Every packet of the pools is one buffer. */
static inline int _odp_pkt_chained(odp_packet_t pkt)
{
	(void)pkt;
	return 0;
}

/* The header holding user_ptr and user_flag: always current, as allocation resets them. */
static inline const _odp_pkt_hdr_t *_odp_pkt_user_meta(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt);
}

static inline _odp_pkt_hdr_t *_odp_pkt_user_meta_set(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt);
}

#endif

#ifdef __cplusplus
}
#endif

#endif
