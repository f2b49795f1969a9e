/* Bundled ODP: state and helpers shared by the library's source files. */
#ifndef ODP_BUNDLED_INTERNAL_H_
#define ODP_BUNDLED_INTERNAL_H_

#include <pthread.h>
#include <stdarg.h>

#include <odp_api.h>
#include <odp_bundled_ext.h>

/* AddressSanitizer: pool buffers are poisoned while free. */
#if defined(__SANITIZE_ADDRESS__)
#define _ODP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define _ODP_ASAN 1
#endif
#endif

#ifdef _ODP_ASAN
#include <sanitizer/asan_interface.h>
#define _ODP_POISON(addr, size)   ASAN_POISON_MEMORY_REGION(addr, size)
#define _ODP_UNPOISON(addr, size) ASAN_UNPOISON_MEMORY_REGION(addr, size)
#define _ODP_REDZONE ODP_CACHE_LINE_SIZE
#else
#define _ODP_POISON(addr, size)   ((void)(addr), (void)(size))
#define _ODP_UNPOISON(addr, size) ((void)(addr), (void)(size))
#define _ODP_REDZONE 0
#endif

#define _ODP_MAX_POOLS      32
#define _ODP_MAX_PKTIOS     (ODP_PKTIO_MAX_INDEX + 1)
#define _ODP_MAX_SHM        128
#define _ODP_POOL_CACHE_MAX 64
#define _ODP_PKTIO_NAME_LEN 256

/* ---- Logging ---- */

void _odp_log(odp_log_level_t level, const char *fmt, ...) ODP_PRINTF_FORMAT(2, 3);

#define _ODP_ERR(...)  _odp_log(ODP_LOG_ERR, "odp: " __VA_ARGS__)
#define _ODP_WARN(...) _odp_log(ODP_LOG_WARN, "odp: " __VA_ARGS__)
#define _ODP_PRINT(...) _odp_log(ODP_LOG_PRINT, __VA_ARGS__)

/* Relaxed counter update by the single writer of the counter. */
static inline void _odp_stat_add(uint64_t *counter, uint64_t val)
{
	__atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + val,
			 __ATOMIC_RELAXED);
}

static inline uint64_t _odp_stat_get(const uint64_t *counter)
{
	return __atomic_load_n(counter, __ATOMIC_RELAXED);
}

static inline uint64_t _odp_round_up(uint64_t x, uint64_t align)
{
	return (x + align - 1) / align * align;
}

/* ---- Pools ---- */

/* Free packets kept by one thread, to skip the pool lock most of the time. */
typedef struct ODP_ALIGNED_CACHE {
	uint32_t num;
	odp_packet_t pkt[_ODP_POOL_CACHE_MAX];
} _odp_pool_cache_t;

typedef struct _odp_pool_t {
	odp_spinlock_t lock;     /* guards free[] and free_num */
	uint32_t free_num;
	odp_packet_t *free;      /* stack of free packets */
	uint32_t cache_size;     /* per thread, 0: no caches */
	_odp_pool_cache_t *cache; /* one per thread id */

	int in_use;
	int pktio_users;         /* open pktios receiving into this pool */
	char name[ODP_POOL_NAME_LEN];
	odp_pool_param_t param;
	uint32_t num;            /* packets in the pool */
	uint32_t data_room;      /* largest packet length */
	uint32_t headroom;
	uint32_t uarea_size;
	uint32_t buf_len;        /* headroom + data_room */
	uint32_t uarea_off;      /* from header to user area */
	uint32_t head_off;       /* from header to buffer head */
	uint32_t stride;         /* from one packet header to the next */
	uint8_t *base;           /* first packet header */
	size_t map_len;
	size_t cache_map_len;
	struct rte_mempool *mempool; /* DPDK build: the mbufs that are the packets */
} _odp_pool_t;

static inline _odp_pool_t *_odp_pool_from_hdl(odp_pool_t pool)
{
	return (_odp_pool_t *)(void *)pool;
}

static inline odp_pool_t _odp_pool_to_hdl(_odp_pool_t *pool)
{
	return (odp_pool_t)(void *)pool;
}

/* Valid pool in use, or NULL. */
_odp_pool_t *_odp_pool_get(odp_pool_t pool);

/* Data room of a pool's packets (the longest packet it can hold). */
uint32_t _odp_pool_data_room(odp_pool_t pool);

/* Check pool parameters; give the data room and number of packets: 0 or <0.
 * Both pool backends (odp_pool.c, odp_dpdk.c) start with it. */
int _odp_pool_check_param(const odp_pool_param_t *param, uint32_t *data_room, uint32_t *num);

/* odp_pool_capability(): the fields both backends share, with their
 * longest packet and largest user area; the caller sets the headroom and
 * cache limits. */
void _odp_pool_capability_init(odp_pool_capability_t *capa, uint32_t max_len, uint32_t max_uarea);

/* With the global lock held: a free pool slot with the fields both backends
 * share filled in (not yet in use), or NULL after an error message. */
_odp_pool_t *_odp_pool_reserve(const char *name, const odp_pool_param_t *param, uint32_t num,
			       uint32_t data_room);

/* Destroy the pools still in use (odp_term_global()); returns how many. */
int _odp_pool_destroy_all(void);

/* Each backend (odp_pool.c's plain one, odp_dpdk.c) has these, for the
 * calls odp_pool.c shares: packets of a pool not free, the range of its
 * packet memory into info, and releasing that memory. */
uint32_t _odp_pool_used(_odp_pool_t *pool);
void _odp_pool_data_range(_odp_pool_t *pool, odp_pool_info_t *info);
void _odp_pool_free_mem(_odp_pool_t *pool);

/* Return a thread's cached packets to their pools (odp_term_local()). */
void _odp_pool_flush_thread(int thr);

/* ---- Packet I/O ---- */

typedef struct _odp_pktio_entry_t _odp_pktio_entry_t;

/* One kind of packet I/O device; see the pktio_*.c files. */
typedef struct _odp_pktio_ops_t {
	const char *name;
	/* Does this kind handle the device name? (first match wins) */
	int (*match)(const char *devname);
	uint32_t max_in_queues;
	uint32_t max_out_queues;
	/* Optional: lower the queue limits to what the opened device has. */
	void (*queues)(_odp_pktio_entry_t *e, uint32_t *max_in, uint32_t *max_out);
	/* Open: parse the name, check the device, set e->priv. 0 or <0. */
	int (*open)(_odp_pktio_entry_t *e, const char *devname);
	/* Close: release everything, free packets still held. 0 or <0. */
	int (*close)(_odp_pktio_entry_t *e);
	/* Start with e->num_in / e->num_out queues, and stop. 0 or <0. */
	int (*start)(_odp_pktio_entry_t *e);
	int (*stop)(_odp_pktio_entry_t *e);
	/* Receive on queue q: number of packets, <0 on failure. The caller
	 * marks the input interface, counts packets and octets (but see
	 * queue_octets), and drops (and counts as discards) chained mbufs; the
	 * driver counts its own discards and errors. */
	int (*recv)(_odp_pktio_entry_t *e, int q, odp_packet_t pkts[], int num);
	/* Send on queue q: number of packets consumed. The driver counts all
	 * output counters. */
	int (*send)(_odp_pktio_entry_t *e, int q, const odp_packet_t pkts[], int num);
	/* Optional, for a device that counts the octets in and out itself (its
	 * stats hook adds the totals), so that nobody sums lengths per packet:
	 * the octets of its input (in) or output queue q. */
	uint64_t (*queue_octets)(_odp_pktio_entry_t *e, int in, int q);
	/* Optional: block up to ns until queue q may have input. */
	void (*wait)(_odp_pktio_entry_t *e, int q, uint64_t ns);
	/* Optional: 1 when no more input will ever come (odp_bundled_ext.h). */
	int (*input_done)(_odp_pktio_entry_t *e);
	/* MAC address (6 bytes): 0 or <0. */
	int (*mac_addr)(_odp_pktio_entry_t *e, uint8_t mac[6]);
	/* Largest frame received and sent. */
	uint32_t (*maxlen)(_odp_pktio_entry_t *e);
	/* Optional: change promiscuous mode. 0 or <0. */
	int (*promisc_set)(_odp_pktio_entry_t *e, int enable);
	/* Optional: add driver counters (e.g. kernel drops) to stats. */
	void (*stats)(_odp_pktio_entry_t *e, odp_pktio_stats_t *stats);
	/* Optional: zero driver counters. */
	void (*stats_reset)(_odp_pktio_entry_t *e);
	/* Optional: link state. */
	odp_pktio_link_status_t (*link_status)(_odp_pktio_entry_t *e);
} _odp_pktio_ops_t;

extern const _odp_pktio_ops_t _odp_pktio_pcap_ops;
extern const _odp_pktio_ops_t _odp_pktio_loop_ops;
extern const _odp_pktio_ops_t _odp_pktio_null_ops;
extern const _odp_pktio_ops_t _odp_pktio_socket_mmap_ops;
extern const _odp_pktio_ops_t _odp_pktio_dpdk_ops;
extern const _odp_pktio_ops_t _odp_pktio_xdp_ops;
extern const _odp_pktio_ops_t _odp_pktio_netmap_ops;

/* Counters and lock of one queue, written only by the queue's user. */
typedef struct ODP_ALIGNED_CACHE {
	odp_spinlock_t lock;     /* taken in ODP_PKTIO_OP_MT mode */
	int mt;
	uint64_t packets;
	uint64_t octets;
	uint64_t discards;
	uint64_t errors;
} _odp_pktio_queue_t;

enum {
	_ODP_PKTIO_FREE = 0,
	_ODP_PKTIO_OPENED,
	_ODP_PKTIO_STARTED,
	_ODP_PKTIO_STOPPED
};

struct _odp_pktio_entry_t {
	_odp_pktio_queue_t in[ODP_PKTIN_MAX_QUEUES];
	_odp_pktio_queue_t out[ODP_PKTOUT_MAX_QUEUES];
	uint32_t state;          /* _ODP_PKTIO_*, read with atomics */
	const _odp_pktio_ops_t *ops;
	void *priv;              /* driver state */
	int index;
	odp_pool_t pool;
	odp_pktio_param_t param;
	odp_pktio_config_t config;
	odp_pktin_queue_param_t in_param;
	odp_pktout_queue_param_t out_param;
	uint32_t num_in;         /* configured queues */
	uint32_t num_out;
	int promisc;
	char name[_ODP_PKTIO_NAME_LEN];
};

static inline _odp_pktio_entry_t *_odp_pktio_entry(odp_pktio_t pktio)
{
	return (_odp_pktio_entry_t *)(void *)pktio;
}

static inline odp_pktio_t _odp_pktio_hdl(_odp_pktio_entry_t *e)
{
	return (odp_pktio_t)(void *)e;
}

/* Count packets sent on an output queue. */
static inline void _odp_pktio_tx_count(_odp_pktio_entry_t *e, int q, uint64_t pkts,
				       uint64_t octets)
{
	_odp_stat_add(&e->out[q].packets, pkts);
	_odp_stat_add(&e->out[q].octets, octets);
}

/* Flow hash of a frame: FNV-1a over the IPv4 or IPv6 addresses, the TCP or UDP
 * ports and the protocol (behind one VLAN tag or none), else over the MAC
 * addresses. Devices that spread flows over input queues with hash_enable take
 * it modulo the number of queues (loop, pcap's cache), so one flow always
 * lands on one queue. p4odp's bench computes the same hash (switchbench/). */
uint32_t _odp_flow_hash(const uint8_t *data, uint32_t len);

/* Close all open pktios (odp_term_global()); returns how many were open. */
int _odp_pktio_close_all(void);

/* ---- Linux network interfaces (odp_netdev.c) ---- */

#define _ODP_IFNAMSIZ     16   /* IFNAMSIZ of <net/if.h> */
#define _ODP_ETH_HDR_LEN  14
#define _ODP_VLAN_HDR_LEN 4

/* The interface a pktio drives (socket_mmap, xdp, netmap). The helpers that
 * take an entry need its e->priv to begin with this; their messages start
 * with e->ops->name. */
typedef struct {
	char ifname[_ODP_IFNAMSIZ];
	int ifindex;
	int fd;                  /* control socket for ioctls, -1: none */
	int promisc;             /* as this pktio set it */
	uint8_t mac[6];
	uint32_t mtu;
} _odp_netdev_t;

/* Fill in the _odp_netdev_t of e->priv for interface ifname: index, control
 * socket (AF_PACKET when packet_socket, as _odp_netdev_promisc_set() needs;
 * else AF_INET), MAC address and MTU. 0 or <0 after a message; the caller
 * closes fd (-1 before the call) on failure. */
int _odp_netdev_open(_odp_pktio_entry_t *e, const char *ifname, int packet_socket);

/* Data room of the pktio's pool (0: none); warns when the longest frame of
 * the MTU with a VLAN tag does not fit. */
uint32_t _odp_netdev_data_room(_odp_pktio_entry_t *e);

/* SIOCGIFFLAGS / SIOCSIFFLAGS: 0 or -errno. */
int _odp_netdev_flags(const _odp_netdev_t *dev, short *flags);
int _odp_netdev_set_flags(const _odp_netdev_t *dev, short flags);

/* Ops for such kinds. Promiscuous mode is a packet socket membership of fd,
 * which the kernel drops when fd closes, even if the process dies. */
int _odp_netdev_promisc_set(_odp_pktio_entry_t *e, int enable);
/* Close fd, free e->priv. */
int _odp_netdev_close(_odp_pktio_entry_t *e);
int _odp_netdev_mac_addr(_odp_pktio_entry_t *e, uint8_t mac[6]);
odp_pktio_link_status_t _odp_netdev_link_status(_odp_pktio_entry_t *e);

/* Block up to ns until one of the fds has input. */
void _odp_netdev_wait(const int fd[], uint32_t num, uint64_t ns);

/* Does a frame to send fit the link: an Ethernet header, at most the MTU
 * (4 bytes more with a VLAN tag)? */
static inline int _odp_netdev_frame_fits(const _odp_netdev_t *dev, const uint8_t *data,
					 uint32_t len)
{
	uint32_t max_plain = dev->mtu + _ODP_ETH_HDR_LEN;

	if (len < _ODP_ETH_HDR_LEN || len > max_plain + _ODP_VLAN_HDR_LEN)
		return 0;
	return len <= max_plain || (data[12] == 0x81 && data[13] == 0x00) ||
	       (data[12] == 0x88 && data[13] == 0xa8);
}

/* ---- Shared memory ---- */

/* Size of one entry of the block table. */
extern const size_t _odp_shm_block_size;

/* Free all blocks (odp_term_global()); returns how many were reserved. */
int _odp_shm_free_all(void);

/* ---- Global state ---- */

typedef struct {
	pthread_mutex_t lock;    /* control calls: init, pools, pktios, shm */
	int inited;
	odp_instance_t instance;
	odp_log_func_t log_fn;
	odp_abort_func_t abort_fn;
	odp_mem_model_t mem_model;
	int worker_cpus_set;
	int control_cpus_set;
	odp_cpumask_t worker_cpus;
	odp_cpumask_t control_cpus;
	int worker_max;
	int control_max;
	int thread_max;
	int num_worker;
	int num_control;
	uint8_t thr_used[ODP_THREAD_COUNT_MAX];
	_odp_pool_t *pools;              /* [_ODP_MAX_POOLS] */
	_odp_pktio_entry_t *pktios;      /* [_ODP_MAX_PKTIOS] */
	struct _odp_shm_block_t *shm;    /* [_ODP_MAX_SHM] */
} _odp_global_t;

extern _odp_global_t _odp_global;

/* Thread id and type of the calling thread (-1: not an ODP thread). */
extern _Thread_local int _odp_thr_id;
extern _Thread_local odp_thread_type_t _odp_thr_type;

/* Allocate zeroed, cache aligned memory shared with forked children. */
void *_odp_map(size_t size);
void _odp_unmap(void *addr, size_t size);

#endif
