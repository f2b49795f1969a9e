/* Bundled ODP, DPDK build (ODP_BUNDLED_PKTIO_DPDK): the EAL's life cycle,
 * ODP threads as DPDK lcores, and the pool backend: packets are the mbufs
 * of an rte_mempool, so the drivers' receive refill and transmit free work
 * on the objects odp_packet_alloc() and odp_packet_free() hand out, and
 * pktio_dpdk.c copies no packet data (as in odp-dpdk). The layout is in
 * odp_dpdk_internal.h; the pool calls common to both backends are in
 * odp_pool.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>
#include <rte_mempool.h>

#include "odp_dpdk_internal.h"

/* Mbuf buffers and private areas are at most 64 KiB - 1 (uint16_t). */
#define MAX_DATA_ROOM \
	((UINT16_MAX - RTE_PKTMBUF_HEADROOM) / ODP_CACHE_LINE_SIZE * ODP_CACHE_LINE_SIZE)
#define MAX_UAREA \
	((UINT16_MAX - sizeof(_odp_pkt_hdr_t)) / ODP_CACHE_LINE_SIZE * ODP_CACHE_LINE_SIZE)

/* ---- EAL ---- */

static const char *const eal_vars[] = { "ODP_PLATFORM_PARAMS", "ODP_PKTIO_DPDK_PARAMS" };

/* Split s on white space into argv[1 ...] (argv[0] is the program name);
 * the strings live in *copy. Returns argc, or <0 without memory. */
static int split_args(const char *s, char ***argv_out, char **copy)
{
	int max = 2;
	int argc = 0;
	char **argv;
	char *save = NULL;

	for (const char *c = s; *c; c++)
		max += *c == ' ' || *c == '\t' || *c == '\n';
	*copy = strdup(s);
	argv = calloc((size_t)max + 1, sizeof(*argv));
	if (!*copy || !argv) {
		free(*copy);
		free(argv);
		return -ENOMEM;
	}
	argv[argc++] = (char *)"odp";
	for (char *tok = strtok_r(*copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save))
		argv[argc++] = tok;
	*argv_out = argv;
	return argc;
}

uint64_t _odp_dpdk_user_meta;

/* The ol_flags bit of packets whose user pointer or flag was set. */
static int register_user_meta(void)
{
	static const struct rte_mbuf_dynflag flag = { .name = "odp_bundled_user_meta" };
	int bit = rte_mbuf_dynflag_register(&flag);

	if (bit < 0) {
		_ODP_ERR("odp_init_global: cannot register an mbuf flag: %s\n", rte_strerror(rte_errno));
		return -1;
	}
	_odp_dpdk_user_meta = UINT64_C(1) << bit;
	return 0;
}

int _odp_dpdk_init_global(void)
{
	const char *var = eal_vars[0];
	const char *params = getenv(var);
	cpu_set_t cpus;
	char **argv;
	char *copy;
	int argc;
	int affinity;
	int ret;

	if (!params) {
		var = eal_vars[1];
		params = getenv(var);
	}
	argc = split_args(params ? params : "", &argv, &copy);
	if (argc < 0) {
		_ODP_ERR("odp_init_global: out of memory\n");
		return argc;
	}
	/* The EAL pins the calling thread to its main lcore; threads the
	 * application creates later would inherit that. Keep the affinity the
	 * process was given. */
	affinity = pthread_getaffinity_np(pthread_self(), sizeof(cpus), &cpus);
	ret = rte_eal_init(argc, argv);
	if (affinity == 0)
		pthread_setaffinity_np(pthread_self(), sizeof(cpus), &cpus);
	free(argv);
	free(copy);
	if (ret >= 0 && register_user_meta() < 0) {
		rte_eal_cleanup();
		return -1;
	}
	if (ret < 0) {
		_ODP_ERR("odp_init_global: DPDK EAL initialization failed: %s\n",
			 rte_errno == EALREADY ? "the EAL can be initialized once per process" :
			 rte_strerror(rte_errno));
		_ODP_ERR("odp_init_global: EAL arguments come from ODP_PLATFORM_PARAMS, else "
			 "ODP_PKTIO_DPDK_PARAMS (%s%s%s); without hugepages or PCI devices try "
			 "\"--no-huge --no-pci --no-shconf -m 512 --no-telemetry --vdev "
			 "net_pcap0,rx_pcap=IN,tx_pcap=OUT\"\n", params ? var : "neither is set",
			 params ? "=" : "",
			 params ? params : "");
		return -1;
	}
	return 0;
}

void _odp_dpdk_term_global(void)
{
	rte_eal_cleanup();
}

/* Set when odp_init_local() made the thread an lcore. */
static _Thread_local int lcore_registered;

void _odp_dpdk_init_local(void)
{
	/* The thread that ran rte_eal_init() is an lcore already. */
	if (rte_lcore_id() != LCORE_ID_ANY)
		return;
	if (rte_thread_register() == 0)
		lcore_registered = 1;
	else
		_ODP_WARN("odp_init_local: no DPDK lcore for thread %d (%s): its packet "
			  "allocations skip the mempool caches\n", _odp_thr_id,
			  rte_strerror(rte_errno));
}

void _odp_dpdk_term_local(void)
{
	if (lcore_registered)
		rte_thread_unregister();
	lcore_registered = 0;
}

/* ---- Pools ---- */

int odp_pool_capability(odp_pool_capability_t *capa)
{
	_odp_pool_capability_init(capa, MAX_DATA_ROOM, MAX_UAREA);
	/* Drivers receive into mbufs with RTE_PKTMBUF_HEADROOM: so do all. */
	capa->pkt.min_headroom = RTE_PKTMBUF_HEADROOM;
	capa->pkt.max_headroom = RTE_PKTMBUF_HEADROOM;
	capa->pkt.max_cache_size = RTE_MEMPOOL_CACHE_MAX_SIZE;
	return 0;
}

/* rte_mempool_obj_iter(): the ODP header of each mbuf, set once. */
static void hdr_init(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	_odp_pool_t *pool = arg;
	struct rte_mbuf *m = obj;
	_odp_pkt_hdr_t *h = rte_mbuf_to_priv(m);
	const odp_pool_param_t *param = &pool->param;

	(void)mp;
	memset(h, 0, sizeof(*h));
	h->pool = _odp_pool_to_hdl(pool);
	h->uarea_size = pool->uarea_size;
	h->uarea = pool->uarea_size ? (uint8_t *)h + pool->uarea_off : NULL;
	h->index = i;
	if (h->uarea && param->uarea_init.init_fn)
		param->uarea_init.init_fn(h->uarea, pool->uarea_size, param->uarea_init.args, i);
}

odp_pool_t odp_pool_create(const char *name, const odp_pool_param_t *param)
{
	char mp_name[RTE_MEMPOOL_NAMESIZE];
	_odp_pool_t *pool;
	struct rte_mempool *mp;
	uint32_t data_room;
	uint32_t num;
	uint32_t cache_size;
	uint32_t priv_size;

	if (!param || _odp_pool_check_param(param, &data_room, &num))
		return ODP_POOL_INVALID;
	if (param->pkt.headroom > RTE_PKTMBUF_HEADROOM || data_room > MAX_DATA_ROOM ||
	    param->pkt.uarea_size > MAX_UAREA) {
		_ODP_ERR("odp_pool_create: with DPDK, headroom %" PRIu32 " (max %d), packet length %"
			 PRIu32 " (max %d) or user area %" PRIu32 " (max %d) too large\n",
			 param->pkt.headroom, RTE_PKTMBUF_HEADROOM, data_room, (int)MAX_DATA_ROOM,
			 param->pkt.uarea_size, (int)MAX_UAREA);
		return ODP_POOL_INVALID;
	}
	pthread_mutex_lock(&_odp_global.lock);
	pool = _odp_pool_reserve(name, param, num, data_room);
	if (!pool) {
		pthread_mutex_unlock(&_odp_global.lock);
		return ODP_POOL_INVALID;
	}
	pool->headroom = RTE_PKTMBUF_HEADROOM;
	pool->buf_len = RTE_PKTMBUF_HEADROOM + data_room;
	pool->uarea_off = sizeof(_odp_pkt_hdr_t);
	priv_size = pool->uarea_off + (uint32_t)_odp_round_up(pool->uarea_size, ODP_CACHE_LINE_SIZE);
	/* Caches must not be able to hide most of the pool from a thread. */
	cache_size = RTE_MIN(param->pkt.cache_size, (uint32_t)RTE_MEMPOOL_CACHE_MAX_SIZE);
	cache_size = RTE_MIN(cache_size, num / (2 * (uint32_t)_odp_global.thread_max));
	pool->cache_size = cache_size < 2 ? 0 : cache_size;
	snprintf(mp_name, sizeof(mp_name), "odp_pool%d", (int)(pool - _odp_global.pools));
	mp = rte_pktmbuf_pool_create(mp_name, num, pool->cache_size, (uint16_t)priv_size,
				     (uint16_t)pool->buf_len, SOCKET_ID_ANY);
	if (!mp) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pool_create: cannot create the DPDK mbuf pool of %" PRIu32
			 " packets of %" PRIu32 " bytes: %s (EAL memory: -m in ODP_PLATFORM_PARAMS)\n",
			 num, pool->buf_len, rte_strerror(rte_errno));
		return ODP_POOL_INVALID;
	}
	pool->mempool = mp;
	rte_mempool_obj_iter(mp, hdr_init, pool);
	pool->in_use = 1;
	pthread_mutex_unlock(&_odp_global.lock);
	return _odp_pool_to_hdl(pool);
}

uint32_t _odp_pool_used(_odp_pool_t *pool)
{
	/* Packets in lcore caches count as free. */
	return rte_mempool_in_use_count(pool->mempool);
}

void _odp_pool_free_mem(_odp_pool_t *pool)
{
	rte_mempool_free(pool->mempool);
	pool->mempool = NULL;
}

/* rte_mempool_mem_iter(): the range of a pool's memory chunks. */
static void mem_range(struct rte_mempool *mp, void *arg, struct rte_mempool_memhdr *chunk,
		      unsigned int i)
{
	odp_pool_info_t *info = arg;
	uintptr_t start = (uintptr_t)chunk->addr;

	(void)mp;
	if (i == 0 || start < info->min_data_addr)
		info->min_data_addr = start;
	if (i == 0 || start + chunk->len - 1 > info->max_data_addr)
		info->max_data_addr = start + chunk->len - 1;
}

void _odp_pool_data_range(_odp_pool_t *pool, odp_pool_info_t *info)
{
	rte_mempool_mem_iter(pool->mempool, mem_range, info);
}

void odp_pool_print(odp_pool_t hdl)
{
	_odp_pool_t *pool = _odp_pool_get(hdl);

	if (!pool) {
		_ODP_PRINT("pool: invalid handle\n");
		return;
	}
	_ODP_PRINT("pool '%s': DPDK mempool '%s', %" PRIu32 " packets, %u free (with lcore "
		   "caches of %" PRIu32 "), data room %" PRIu32 ", headroom %" PRIu32
		   ", user area %" PRIu32 "\n", pool->name, pool->mempool->name, pool->num,
		   rte_mempool_avail_count(pool->mempool), pool->cache_size, pool->data_room,
		   pool->headroom, pool->uarea_size);
}

void _odp_pool_flush_thread(int thr)
{
	unsigned int lcore = rte_lcore_id();

	/* The lcore id goes back to DPDK with the thread: free what its caches hold. */
	(void)thr;
	if (lcore == LCORE_ID_ANY)
		return;
	pthread_mutex_lock(&_odp_global.lock);
	for (int i = 0; _odp_global.pools && i < _ODP_MAX_POOLS; i++) {
		_odp_pool_t *pool = &_odp_global.pools[i];
		struct rte_mempool_cache *cache;

		if (!pool->in_use)
			continue;
		cache = rte_mempool_default_cache(pool->mempool, lcore);
		if (cache)
			rte_mempool_cache_flush(cache, pool->mempool);
	}
	pthread_mutex_unlock(&_odp_global.lock);
}

/* ---- Packets ---- */

/* A packet of len bytes in an mbuf just allocated or reset (which left it no
 * input port and no user metadata flag). */
static inline odp_packet_t pkt_init(struct rte_mbuf *m, uint32_t len)
{
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	return (odp_packet_t)(void *)m;
}

odp_packet_t odp_packet_alloc(odp_pool_t hdl, uint32_t len)
{
	_odp_pool_t *pool = _odp_pool_from_hdl(hdl);
	struct rte_mbuf *m;

	if (odp_unlikely(len == 0 || len > pool->data_room))
		return ODP_PACKET_INVALID;
	m = rte_pktmbuf_alloc(pool->mempool);
	if (odp_unlikely(!m))
		return ODP_PACKET_INVALID;
	return pkt_init(m, len);
}

int odp_packet_alloc_multi(odp_pool_t hdl, uint32_t len, odp_packet_t pkt[], int num)
{
	_odp_pool_t *pool = _odp_pool_from_hdl(hdl);
	struct rte_mbuf **m = (struct rte_mbuf **)(void *)pkt;
	int n = 0;

	if (odp_unlikely(len == 0 || len > pool->data_room || num < 0))
		return -1;
	/* The bulk call takes all or nothing: near the end of the pool, take
	 * what is left one by one. */
	if (odp_likely(rte_pktmbuf_alloc_bulk(pool->mempool, m, (unsigned int)num) == 0)) {
		n = num;
	} else {
		struct rte_mbuf *one;

		/* pkt[] past the packets returned is the caller's: no NULL written there. */
		while (n < num && (one = rte_pktmbuf_alloc(pool->mempool)) != NULL)
			m[n++] = one;
	}
	for (int i = 0; i < n; i++)
		pkt_init(m[i], len);
	return n;
}

void odp_packet_free(odp_packet_t pkt)
{
	rte_pktmbuf_free(_odp_pkt_mbuf(pkt));
}

void odp_packet_free_multi(const odp_packet_t pkt[], int num)
{
	if (num > 0)
		rte_pktmbuf_free_bulk((struct rte_mbuf **)(uintptr_t)pkt, (unsigned int)num);
}

void odp_packet_free_sp(const odp_packet_t pkt[], int num)
{
	odp_packet_free_multi(pkt, num);
}

int odp_packet_reset(odp_packet_t pkt, uint32_t len)
{
	_odp_pool_t *pool = _odp_pool_from_hdl(_odp_pkt_hdr(pkt)->pool);
	struct rte_mbuf *m = _odp_pkt_mbuf(pkt);

	if (len == 0 || len > pool->data_room)
		return -1;
	rte_pktmbuf_reset(m);
	pkt_init(m, len);
	return 0;
}

struct find_arg {
	const void *obj;
	int found;
};

/* rte_mempool_obj_iter(): is this the object looked for? */
static void find_obj(struct rte_mempool *mp, void *arg, void *obj, unsigned int i)
{
	struct find_arg *find = arg;

	(void)mp;
	(void)i;
	find->found |= obj == find->obj;
}

int odp_packet_is_valid(odp_packet_t pkt)
{
	struct find_arg find = { .obj = pkt ? _odp_pkt_mbuf(pkt) : NULL, .found = 0 };

	/* A debugging call: walk the pools rather than trust the handle. */
	for (int i = 0; pkt && _odp_global.pools && i < _ODP_MAX_POOLS && !find.found; i++) {
		_odp_pool_t *pool = &_odp_global.pools[i];

		if (pool->in_use)
			rte_mempool_obj_iter(pool->mempool, find_obj, &find);
	}
	return find.found;
}
