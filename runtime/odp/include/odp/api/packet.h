/* Bundled ODP: packets (odp/api/packet.h).
 *
 * Packets are never segmented here: the first segment is the whole packet,
 * so odp_packet_seg_len() == odp_packet_len(). Calls on the fast path are
 * inline.
 */
#ifndef ODP_BUNDLED_API_PACKET_H_
#define ODP_BUNDLED_API_PACKET_H_

#include <string.h>

#include <odp/api/std_types.h>
#include <odp/api/hints.h>
#include <odp/api/cpu.h>
#include <odp/api/packet_types.h>
#include <odp/api/packet_io_types.h>
#include <odp/api/pool_types.h>
#include <odp/bundled/packet_inlines.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Allocation ---- */

/**
 * Allocate a packet of 'len' bytes (1 ... the pool's data room) with the
 * pool's headroom in front. Returns ODP_PACKET_INVALID when the pool is
 * empty or len does not fit.
 */
odp_packet_t odp_packet_alloc(odp_pool_t pool, uint32_t len);

/** Allocate up to 'num' packets; returns how many, <0 on failure. */
int odp_packet_alloc_multi(odp_pool_t pool, uint32_t len, odp_packet_t pkt[], int num);

void odp_packet_free(odp_packet_t pkt);
void odp_packet_free_multi(const odp_packet_t pkt[], int num);
/** Free packets that all come from the same pool. */
void odp_packet_free_sp(const odp_packet_t pkt[], int num);

/** Give the packet its fresh state with 'len' bytes of data: 0 or <0. */
int odp_packet_reset(odp_packet_t pkt, uint32_t len);

/** Largest len odp_packet_reset() accepts for this packet. */
uint32_t odp_packet_reset_max_len(odp_packet_t pkt);

/* ---- Data pointers and lengths ---- */

static inline void *odp_packet_data(odp_packet_t pkt)
{
	return _odp_pkt_data(pkt);
}

static inline uint32_t odp_packet_len(odp_packet_t pkt)
{
	return _odp_pkt_len(pkt);
}

/** Bytes of data in the first segment (the whole packet here). */
static inline uint32_t odp_packet_seg_len(odp_packet_t pkt)
{
	return _odp_pkt_len(pkt);
}

static inline void *odp_packet_data_seg_len(odp_packet_t pkt, uint32_t *seg_len)
{
	*seg_len = _odp_pkt_len(pkt);
	return _odp_pkt_data(pkt);
}

/** Start of the buffer: odp_packet_data() - odp_packet_headroom(). */
static inline void *odp_packet_head(odp_packet_t pkt)
{
	return _odp_pkt_head(pkt);
}

/** Headroom + data + tailroom. */
static inline uint32_t odp_packet_buf_len(odp_packet_t pkt)
{
	return _odp_pkt_buf_len(pkt);
}

static inline uint32_t odp_packet_headroom(odp_packet_t pkt)
{
	return (uint32_t)(_odp_pkt_data(pkt) - _odp_pkt_head(pkt));
}

static inline uint32_t odp_packet_tailroom(odp_packet_t pkt)
{
	return _odp_pkt_buf_len(pkt) - odp_packet_headroom(pkt) - _odp_pkt_len(pkt);
}

/** One past the last byte of data. */
static inline void *odp_packet_tail(odp_packet_t pkt)
{
	return _odp_pkt_data(pkt) + _odp_pkt_len(pkt);
}

/**
 * Pointer to byte 'offset' of the data; *len (when not NULL) gets the bytes
 * left from there, *seg (when not NULL) the segment. NULL when offset is
 * past the end.
 */
static inline void *odp_packet_offset(odp_packet_t pkt, uint32_t offset, uint32_t *len,
				      odp_packet_seg_t *seg)
{
	uint32_t length = _odp_pkt_len(pkt);

	if (odp_unlikely(offset >= length))
		return NULL;
	if (len)
		*len = length - offset;
	if (seg)
		*seg = (odp_packet_seg_t)(void *)pkt;
	return _odp_pkt_data(pkt) + offset;
}

static inline void odp_packet_prefetch(odp_packet_t pkt, uint32_t offset, uint32_t len)
{
	(void)len;
	if (offset < _odp_pkt_len(pkt))
		odp_prefetch(_odp_pkt_data(pkt) + offset);
}

/* ---- Head and tail moves within the buffer (pointers stay valid) ---- */

/** Prepend 'len' bytes from the headroom; new data pointer, NULL if no room. */
static inline void *odp_packet_push_head(odp_packet_t pkt, uint32_t len)
{
	uint8_t *data = _odp_pkt_data(pkt);

	if (odp_unlikely(len > (uint32_t)(data - _odp_pkt_head(pkt))))
		return NULL;
	_odp_pkt_set_data(pkt, data - len, _odp_pkt_len(pkt) + len);
	return data - len;
}

/** Remove 'len' bytes from the front; new data pointer, NULL if len >= length. */
static inline void *odp_packet_pull_head(odp_packet_t pkt, uint32_t len)
{
	uint8_t *data = _odp_pkt_data(pkt);
	uint32_t length = _odp_pkt_len(pkt);

	if (odp_unlikely(len >= length))
		return NULL;
	_odp_pkt_set_data(pkt, data + len, length - len);
	return data + len;
}

/** Append 'len' bytes from the tailroom; returns the old tail, NULL if no room. */
static inline void *odp_packet_push_tail(odp_packet_t pkt, uint32_t len)
{
	uint8_t *data = _odp_pkt_data(pkt);
	uint32_t length = _odp_pkt_len(pkt);

	if (odp_unlikely(len > odp_packet_tailroom(pkt)))
		return NULL;
	_odp_pkt_set_data(pkt, data, length + len);
	return data + length;
}

/** Remove 'len' bytes from the end; returns the new tail, NULL if len >= length. */
static inline void *odp_packet_pull_tail(odp_packet_t pkt, uint32_t len)
{
	uint8_t *data = _odp_pkt_data(pkt);
	uint32_t length = _odp_pkt_len(pkt);

	if (odp_unlikely(len >= length))
		return NULL;
	_odp_pkt_set_data(pkt, data, length - len);
	return data + length - len;
}

/*
 * Extend and truncate. The packet handle never changes here (no segments to
 * add), but callers must still use *pkt afterwards as the API says.
 * Return 0 on success, <0 when there is not enough room or data.
 */
int odp_packet_extend_head(odp_packet_t *pkt, uint32_t len, void **data_ptr,
			   uint32_t *seg_len);
int odp_packet_trunc_head(odp_packet_t *pkt, uint32_t len, void **data_ptr,
			  uint32_t *seg_len);
int odp_packet_extend_tail(odp_packet_t *pkt, uint32_t len, void **data_ptr,
			   uint32_t *seg_len);
int odp_packet_trunc_tail(odp_packet_t *pkt, uint32_t len, void **tail_ptr,
			  uint32_t *tailroom);

/**
 * Insert 'len' bytes at 'offset' (their content is undefined), moving the
 * shorter side into the head- or tailroom. Returns 0 on success, <0 when
 * there is no room. Pointers into the packet are invalid afterwards.
 */
int odp_packet_add_data(odp_packet_t *pkt, uint32_t offset, uint32_t len);

/** Remove 'len' bytes at 'offset'. 0 on success, <0 when out of range. */
int odp_packet_rem_data(odp_packet_t *pkt, uint32_t offset, uint32_t len);

/* ---- Segments (always exactly one) ---- */

static inline int odp_packet_is_segmented(odp_packet_t pkt)
{
	(void)pkt;
	return 0;
}

static inline int odp_packet_num_segs(odp_packet_t pkt)
{
	(void)pkt;
	return 1;
}

static inline odp_packet_seg_t odp_packet_first_seg(odp_packet_t pkt)
{
	return (odp_packet_seg_t)(void *)pkt;
}

static inline odp_packet_seg_t odp_packet_last_seg(odp_packet_t pkt)
{
	return (odp_packet_seg_t)(void *)pkt;
}

static inline odp_packet_seg_t odp_packet_next_seg(odp_packet_t pkt, odp_packet_seg_t seg)
{
	(void)pkt;
	(void)seg;
	return ODP_PACKET_SEG_INVALID;
}

static inline void *odp_packet_seg_data(odp_packet_t pkt, odp_packet_seg_t seg)
{
	(void)seg;
	return _odp_pkt_data(pkt);
}

static inline uint32_t odp_packet_seg_data_len(odp_packet_t pkt, odp_packet_seg_t seg)
{
	(void)seg;
	return _odp_pkt_len(pkt);
}

/* ---- Copies ---- */

/** New packet from 'pool' with the same data and metadata. */
odp_packet_t odp_packet_copy(odp_packet_t pkt, odp_pool_t pool);

/** New packet from 'pool' holding bytes offset ... offset + len - 1. */
odp_packet_t odp_packet_copy_part(odp_packet_t pkt, uint32_t offset, uint32_t len,
				  odp_pool_t pool);

/** Copy packet data to memory: 0, or <0 when the range is outside the packet. */
static inline int odp_packet_copy_to_mem(odp_packet_t pkt, uint32_t offset, uint32_t len,
					 void *dst)
{
	uint32_t length = _odp_pkt_len(pkt);

	if (odp_unlikely(offset > length || len > length - offset))
		return -1;
	memcpy(dst, _odp_pkt_data(pkt) + offset, len);
	return 0;
}

/** Copy memory into packet data: 0, or <0 when the range is outside the packet. */
static inline int odp_packet_copy_from_mem(odp_packet_t pkt, uint32_t offset, uint32_t len,
					   const void *src)
{
	uint32_t length = _odp_pkt_len(pkt);

	if (odp_unlikely(offset > length || len > length - offset))
		return -1;
	memcpy(_odp_pkt_data(pkt) + offset, src, len);
	return 0;
}

/** Copy data between two packets (or within one; ranges may overlap). */
int odp_packet_copy_from_pkt(odp_packet_t dst, uint32_t dst_offset, odp_packet_t src,
			     uint32_t src_offset, uint32_t len);

/* ---- Metadata ---- */

static inline odp_pool_t odp_packet_pool(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt)->pool;
}

/** Interface the packet came from, ODP_PKTIO_INVALID if allocated by the application. */
odp_pktio_t odp_packet_input(odp_packet_t pkt);

/** Index of that interface, <0 if allocated by the application. */
static inline int odp_packet_input_index(odp_packet_t pkt)
{
	return _odp_pkt_input_index(pkt);
}

/** Set the input interface (and index), or ODP_PKTIO_INVALID. */
void odp_packet_input_set(odp_packet_t pkt, odp_pktio_t pktio);

static inline void *odp_packet_user_ptr(odp_packet_t pkt)
{
	const _odp_pkt_hdr_t *meta = _odp_pkt_user_meta(pkt);

	return meta ? (void *)(uintptr_t)meta->user_ptr : NULL;
}

static inline void odp_packet_user_ptr_set(odp_packet_t pkt, const void *user_ptr)
{
	_odp_pkt_user_meta_set(pkt)->user_ptr = user_ptr;
}

/** User area (pool parameter pkt.uarea_size bytes), NULL when there is none. */
static inline void *odp_packet_user_area(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt)->uarea;
}

static inline uint32_t odp_packet_user_area_size(odp_packet_t pkt)
{
	return _odp_pkt_hdr(pkt)->uarea_size;
}

static inline int odp_packet_user_flag(odp_packet_t pkt)
{
	const _odp_pkt_hdr_t *meta = _odp_pkt_user_meta(pkt);

	return meta && meta->user_flag != 0;
}

static inline void odp_packet_user_flag_set(odp_packet_t pkt, int val)
{
	_odp_pkt_user_meta_set(pkt)->user_flag = val != 0;
}

/* ---- Debugging ---- */

/** 1 when pkt is a packet handle of some pool, 0 otherwise. */
int odp_packet_is_valid(odp_packet_t pkt);

void odp_packet_print(odp_packet_t pkt);

static inline uint64_t odp_packet_to_u64(odp_packet_t pkt)
{
	return (uint64_t)(uintptr_t)pkt;
}

static inline uint64_t odp_packet_seg_to_u64(odp_packet_seg_t seg)
{
	return (uint64_t)(uintptr_t)seg;
}

#ifdef __cplusplus
}
#endif

#endif
