/* Bundled ODP: pool types (odp/api/pool_types.h). Only packet pools exist here. */
#ifndef ODP_BUNDLED_API_POOL_TYPES_H_
#define ODP_BUNDLED_API_POOL_TYPES_H_

#include <odp/api/std_types.h>
#include <odp/api/event_types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _odp_bundled_pool_s *odp_pool_t;

#define ODP_POOL_INVALID          ((odp_pool_t)0)
#define ODP_POOL_NAME_LEN         32
#define ODP_POOL_MAX_THREAD_STATS 128
#define ODP_POOL_MAX_SUBPARAMS    7

/** Pool statistics selection (the bundled ODP counts none of them). */
typedef union odp_pool_stats_opt_t {
	struct {
		uint64_t available          : 1;
		uint64_t alloc_ops          : 1;
		uint64_t alloc_fails        : 1;
		uint64_t free_ops           : 1;
		uint64_t total_ops          : 1;
		uint64_t cache_available    : 1;
		uint64_t cache_alloc_ops    : 1;
		uint64_t cache_free_ops     : 1;
		uint64_t thread_cache_available : 1;
	} bit;
	uint64_t all;
} odp_pool_stats_opt_t;

/** Pool capabilities; only the packet pool part is nonzero. */
typedef struct odp_pool_capability_t {
	uint32_t max_pools;
	struct {
		uint32_t max_pools;
		uint32_t max_align;
		uint32_t max_size;
		uint32_t max_num;
		uint32_t max_uarea_size;
		odp_bool_t uarea_persistence;
		uint32_t min_cache_size;
		uint32_t max_cache_size;
		odp_pool_stats_opt_t stats;
	} buf;
	struct {
		uint32_t max_pools;
		uint32_t max_len;
		uint32_t max_num;
		uint32_t max_align;
		uint32_t min_headroom;
		uint32_t max_headroom;
		uint32_t min_tailroom;
		uint32_t max_segs_per_pkt;
		uint32_t min_seg_len;
		uint32_t max_seg_len;
		uint32_t max_uarea_size;
		odp_bool_t uarea_persistence;
		uint8_t max_num_subparam;
		uint32_t min_cache_size;
		uint32_t max_cache_size;
		odp_pool_stats_opt_t stats;
	} pkt;
	struct {
		uint32_t max_pools;
		uint32_t max_num;
		uint32_t max_uarea_size;
		odp_bool_t uarea_persistence;
		uint32_t min_cache_size;
		uint32_t max_cache_size;
		odp_pool_stats_opt_t stats;
	} tmo;
	struct {
		uint32_t max_pools;
		uint32_t max_num;
		uint32_t max_size;
		uint32_t max_uarea_size;
		odp_bool_t uarea_persistence;
		uint32_t min_cache_size;
		uint32_t max_cache_size;
		odp_pool_stats_opt_t stats;
	} vector;
} odp_pool_capability_t;

/** Extra packet pool size class: 'num' more packets of at least 'len' bytes. */
typedef struct odp_pool_pkt_subparam_t {
	uint32_t num;
	uint32_t len;
} odp_pool_pkt_subparam_t;

typedef enum odp_pool_type_t {
	ODP_POOL_PACKET = ODP_EVENT_PACKET,
	ODP_POOL_BUFFER = ODP_EVENT_BUFFER,
	ODP_POOL_TIMEOUT = ODP_EVENT_TIMEOUT,
	ODP_POOL_VECTOR,
	ODP_POOL_EVENT_VECTOR,
	ODP_POOL_DMA_COMPL,
	ODP_POOL_ML_COMPL
} odp_pool_type_t;

/**
 * Pool parameters; set defaults with odp_pool_param_init().
 *
 * Packet pools hold pkt.num single-segment packets. Every packet has room
 * for max(pkt.len, pkt.max_len, pkt.seg_len, sub[].len) bytes of data
 * (2048 when all are 0) after pkt.headroom bytes (default 128), and a user
 * area of pkt.uarea_size bytes.
 */
typedef struct odp_pool_param_t {
	odp_pool_type_t type;
	struct {
		uint32_t num;
		uint32_t size;
		uint32_t align;
		uint32_t uarea_size;
		uint32_t cache_size;
	} buf;
	struct {
		/** Number of packets. */
		uint32_t num;
		/** Unused here (all packets are preallocated). */
		uint32_t max_num;
		/** Packet data length every packet can hold. */
		uint32_t len;
		/** Largest packet data length, 0: same as len. */
		uint32_t max_len;
		/** Minimum data alignment (up to a cache line), 0: none; the
		 *  headroom is rounded up to a multiple of it. */
		uint32_t align;
		/** Minimum segment length; packets are never segmented here. */
		uint32_t seg_len;
		/** User area bytes per packet. */
		uint32_t uarea_size;
		/** Headroom bytes in front of the data of a fresh packet. */
		uint32_t headroom;
		/** Number of entries used in sub[]. */
		uint8_t num_subparam;
		odp_pool_pkt_subparam_t sub[ODP_POOL_MAX_SUBPARAMS];
		/** Packets kept per thread to avoid the shared free list. */
		uint32_t cache_size;
	} pkt;
	struct {
		uint32_t num;
		uint32_t uarea_size;
		uint32_t cache_size;
	} tmo;
	struct {
		uint32_t num;
		uint32_t max_size;
		uint32_t uarea_size;
		uint32_t cache_size;
	} vector;
	/** Called once per packet at pool creation to fill its user area. */
	struct {
		void (*init_fn)(void *uarea, uint32_t size, void *args, uint32_t index);
		void *args;
	} uarea_init;
	odp_pool_stats_opt_t stats;
} odp_pool_param_t;

typedef struct odp_pool_info_t {
	odp_pool_type_t type;
	const char *name;
	odp_bool_t pool_ext;
	odp_pool_param_t params;
	struct {
		uint32_t max_num;
	} pkt;
	uintptr_t min_data_addr;
	uintptr_t max_data_addr;
} odp_pool_info_t;

#ifdef __cplusplus
}
#endif

#endif
