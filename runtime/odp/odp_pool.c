/* Bundled ODP: packet pools and the packet calls that are not inline.
 *
 * The first part is common to both pool backends. The second is the backend
 * of the plain build: a pool is one mapping of fixed-size packets (header,
 * user area, buffer), a locked stack of free packets, and a small cache of
 * free packets per thread so that most allocations and frees take no lock.
 * A DPDK build (ODP_BUNDLED_PKTIO_DPDK) has odp_dpdk.c instead, where the
 * packets are the mbufs of an rte_mempool.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "odp_internal.h"

#define DEFAULT_HEADROOM   128
#define DEFAULT_DATA_ROOM  2048
#define MAX_DATA_ROOM      (64 * 1024)
#define MAX_HEADROOM       4096
#define MAX_UAREA          (64 * 1024)
#define MAX_NUM            (1024 * 1024)
#define DEFAULT_CACHE_SIZE _ODP_POOL_CACHE_MAX

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline uint32_t max_u32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

_odp_pool_t *_odp_pool_get(odp_pool_t hdl)
{
	_odp_pool_t *pool = _odp_pool_from_hdl(hdl);
	_odp_pool_t *tab = _odp_global.pools;

	if (!tab || pool < tab || pool >= tab + _ODP_MAX_POOLS || !pool->in_use)
		return NULL;
	return pool;
}

uint32_t _odp_pool_data_room(odp_pool_t hdl)
{
	return _odp_pool_from_hdl(hdl)->data_room;
}

void odp_pool_param_init(odp_pool_param_t *param)
{
	memset(param, 0, sizeof(*param));
	param->pkt.headroom = DEFAULT_HEADROOM;
	param->pkt.cache_size = DEFAULT_CACHE_SIZE;
	param->buf.cache_size = DEFAULT_CACHE_SIZE;
	param->tmo.cache_size = DEFAULT_CACHE_SIZE;
	param->vector.cache_size = DEFAULT_CACHE_SIZE;
}

int _odp_pool_check_param(const odp_pool_param_t *param, uint32_t *data_room, uint32_t *num)
{
	uint32_t room;
	uint32_t n;

	if (param->type != ODP_POOL_PACKET) {
		_ODP_ERR("odp_pool_create: only packet pools (ODP_POOL_PACKET) are supported\n");
		return -1;
	}
	if (param->pkt.num == 0 || param->pkt.num > MAX_NUM) {
		_ODP_ERR("odp_pool_create: pkt.num %" PRIu32 " not in 1 ... %d\n",
			 param->pkt.num, MAX_NUM);
		return -1;
	}
	if (param->pkt.headroom > MAX_HEADROOM || param->pkt.uarea_size > MAX_UAREA ||
	    param->pkt.align > ODP_CACHE_LINE_SIZE ||
	    (param->pkt.align & (param->pkt.align - 1)) != 0 ||
	    param->pkt.num_subparam > ODP_POOL_MAX_SUBPARAMS) {
		_ODP_ERR("odp_pool_create: headroom, uarea_size, align or num_subparam too large\n");
		return -1;
	}
	room = max_u32(param->pkt.len, max_u32(param->pkt.max_len, param->pkt.seg_len));
	n = param->pkt.num;
	for (int i = 0; i < param->pkt.num_subparam; i++) {
		room = max_u32(room, param->pkt.sub[i].len);
		/* Each count is checked, so that the sum cannot wrap. */
		if (param->pkt.sub[i].num > MAX_NUM) {
			n = MAX_NUM + 1;
			break;
		}
		n += param->pkt.sub[i].num;
	}
	if (room == 0)
		room = DEFAULT_DATA_ROOM;
	if (room > MAX_DATA_ROOM || n > MAX_NUM) {
		_ODP_ERR("odp_pool_create: packet length %" PRIu32 " (max %d) or number %" PRIu32
			 " too large\n", room, MAX_DATA_ROOM, n);
		return -1;
	}
	*data_room = (uint32_t)_odp_round_up(room, ODP_CACHE_LINE_SIZE);
	*num = n;
	return 0;
}

void _odp_pool_capability_init(odp_pool_capability_t *capa, uint32_t max_len, uint32_t max_uarea)
{
	memset(capa, 0, sizeof(*capa));
	capa->max_pools = _ODP_MAX_POOLS;
	capa->pkt.max_pools = _ODP_MAX_POOLS;
	capa->pkt.max_len = max_len;
	capa->pkt.max_num = MAX_NUM;
	capa->pkt.max_align = ODP_CACHE_LINE_SIZE;
	capa->pkt.min_tailroom = 0;
	capa->pkt.max_segs_per_pkt = 1;
	capa->pkt.min_seg_len = 1;
	capa->pkt.max_seg_len = max_len;
	capa->pkt.max_uarea_size = max_uarea;
	capa->pkt.uarea_persistence = 1;
	capa->pkt.max_num_subparam = ODP_POOL_MAX_SUBPARAMS;
	capa->pkt.min_cache_size = 0;
}

_odp_pool_t *_odp_pool_reserve(const char *name, const odp_pool_param_t *param, uint32_t num,
			       uint32_t data_room)
{
	_odp_pool_t *pool = NULL;

	if (!_odp_global.inited) {
		_ODP_ERR("odp_pool_create: ODP not initialized\n");
		return NULL;
	}
	for (int i = 0; i < _ODP_MAX_POOLS; i++) {
		if (!_odp_global.pools[i].in_use) {
			pool = &_odp_global.pools[i];
			break;
		}
	}
	if (!pool) {
		_ODP_ERR("odp_pool_create: all %d pools in use\n", _ODP_MAX_POOLS);
		return NULL;
	}
	memset(pool, 0, sizeof(*pool));
	odp_spinlock_init(&pool->lock);
	snprintf(pool->name, sizeof(pool->name), "%s", name ? name : "");
	pool->param = *param;
	pool->num = num;
	pool->data_room = data_room;
	/* Data starts at a cache aligned head plus the headroom. */
	pool->headroom = param->pkt.align > 1 ?
		(uint32_t)_odp_round_up(param->pkt.headroom, param->pkt.align) :
		param->pkt.headroom;
	pool->uarea_size = param->pkt.uarea_size;
	return pool;
}

odp_pool_t odp_pool_lookup(const char *name)
{
	odp_pool_t found = ODP_POOL_INVALID;

	if (!name)
		return ODP_POOL_INVALID;
	pthread_mutex_lock(&_odp_global.lock);
	for (int i = 0; _odp_global.pools && i < _ODP_MAX_POOLS; i++) {
		_odp_pool_t *pool = &_odp_global.pools[i];

		if (pool->in_use && strcmp(pool->name, name) == 0) {
			found = _odp_pool_to_hdl(pool);
			break;
		}
	}
	pthread_mutex_unlock(&_odp_global.lock);
	return found;
}

int odp_pool_index(odp_pool_t hdl)
{
	_odp_pool_t *pool = _odp_pool_get(hdl);

	return pool ? (int)(pool - _odp_global.pools) : -1;
}

unsigned int odp_pool_max_index(void)
{
	return _ODP_MAX_POOLS - 1;
}

uint64_t odp_pool_to_u64(odp_pool_t hdl)
{
	return (uint64_t)(uintptr_t)hdl;
}

int odp_pool_destroy(odp_pool_t hdl)
{
	_odp_pool_t *pool;
	uint32_t used;

	pthread_mutex_lock(&_odp_global.lock);
	pool = _odp_pool_get(hdl);
	if (!pool) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pool_destroy: bad handle\n");
		return -1;
	}
	if (pool->pktio_users) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pool_destroy: pool '%s' used by %d pktio(s)\n", pool->name,
			 pool->pktio_users);
		return -1;
	}
	used = _odp_pool_used(pool);
	if (used) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pool_destroy: pool '%s' has %" PRIu32 " packet(s) in use\n",
			 pool->name, used);
		return -1;
	}
	pool->in_use = 0;
	_odp_pool_free_mem(pool);
	pthread_mutex_unlock(&_odp_global.lock);
	return 0;
}

int _odp_pool_destroy_all(void)
{
	int n = 0;

	pthread_mutex_lock(&_odp_global.lock);
	for (int i = 0; i < _ODP_MAX_POOLS; i++) {
		_odp_pool_t *pool = &_odp_global.pools[i];

		if (!pool->in_use)
			continue;
		_ODP_ERR("odp_term_global: pool '%s' not destroyed, destroyed now\n", pool->name);
		_odp_pool_free_mem(pool);
		pool->in_use = 0;
		n++;
	}
	pthread_mutex_unlock(&_odp_global.lock);
	return n;
}

int odp_pool_info(odp_pool_t hdl, odp_pool_info_t *info)
{
	_odp_pool_t *pool = _odp_pool_get(hdl);

	if (!pool)
		return -1;
	memset(info, 0, sizeof(*info));
	info->type = ODP_POOL_PACKET;
	info->name = pool->name;
	info->params = pool->param;
	info->pkt.max_num = pool->num;
	_odp_pool_data_range(pool, info);
	return 0;
}

uint32_t odp_packet_reset_max_len(odp_packet_t pkt)
{
	return _odp_pool_from_hdl(_odp_pkt_hdr(pkt)->pool)->data_room;
}

/* ---- Packet calls that are not inline ---- */

int odp_packet_extend_head(odp_packet_t *pkt, uint32_t len, void **data_ptr, uint32_t *seg_len)
{
	void *data = odp_packet_push_head(*pkt, len);

	if (!data)
		return -1;
	if (data_ptr)
		*data_ptr = data;
	if (seg_len)
		*seg_len = odp_packet_seg_len(*pkt);
	return 0;
}

int odp_packet_trunc_head(odp_packet_t *pkt, uint32_t len, void **data_ptr, uint32_t *seg_len)
{
	void *data = odp_packet_pull_head(*pkt, len);

	if (!data)
		return -1;
	if (data_ptr)
		*data_ptr = data;
	if (seg_len)
		*seg_len = odp_packet_seg_len(*pkt);
	return 0;
}

int odp_packet_extend_tail(odp_packet_t *pkt, uint32_t len, void **data_ptr, uint32_t *seg_len)
{
	void *old_tail = odp_packet_push_tail(*pkt, len);

	if (!old_tail)
		return -1;
	if (data_ptr)
		*data_ptr = old_tail;
	if (seg_len)
		*seg_len = len;
	return 0;
}

int odp_packet_trunc_tail(odp_packet_t *pkt, uint32_t len, void **tail_ptr, uint32_t *tailroom)
{
	void *tail = odp_packet_pull_tail(*pkt, len);

	if (!tail)
		return -1;
	if (tail_ptr)
		*tail_ptr = tail;
	if (tailroom)
		*tailroom = odp_packet_tailroom(*pkt);
	return 0;
}

int odp_packet_add_data(odp_packet_t *pkt, uint32_t offset, uint32_t len)
{
	uint8_t *data = _odp_pkt_data(*pkt);
	uint32_t length = _odp_pkt_len(*pkt);
	uint32_t back;

	if (offset > length)
		return -1;
	back = length - offset;
	if (len <= odp_packet_headroom(*pkt) &&
	    (offset <= back || len > odp_packet_tailroom(*pkt))) {
		/* Move the bytes in front of offset into the headroom. */
		memmove(data - len, data, offset);
		_odp_pkt_set_data(*pkt, data - len, length + len);
		return offset ? 1 : 0;
	}
	if (len <= odp_packet_tailroom(*pkt)) {
		/* Move the bytes from offset on into the tailroom. */
		memmove(data + offset + len, data + offset, back);
		_odp_pkt_set_data(*pkt, data, length + len);
		return back ? 1 : 0;
	}
	return -1;
}

int odp_packet_rem_data(odp_packet_t *pkt, uint32_t offset, uint32_t len)
{
	uint8_t *data = _odp_pkt_data(*pkt);
	uint32_t length = _odp_pkt_len(*pkt);
	uint32_t back;

	if (offset > length || len > length - offset || len >= length)
		return -1;
	back = length - offset - len;
	if (offset <= back) {
		memmove(data + len, data, offset);
		_odp_pkt_set_data(*pkt, data + len, length - len);
		return offset ? 1 : 0;
	}
	memmove(data + offset, data + offset + len, back);
	_odp_pkt_set_data(*pkt, data, length - len);
	return back ? 1 : 0;
}

static void copy_meta(odp_packet_t dst, odp_packet_t src)
{
	const _odp_pkt_hdr_t *meta = _odp_pkt_user_meta(src);
	_odp_pkt_hdr_t *d = _odp_pkt_hdr(dst);
	const _odp_pkt_hdr_t *s = _odp_pkt_hdr(src);

	_odp_pkt_set_input_index(dst, _odp_pkt_input_index(src));
	if (meta) {
		_odp_pkt_user_meta_set(dst)->user_ptr = meta->user_ptr;
		d->user_flag = meta->user_flag;
	}
	if (d->uarea && s->uarea)
		memcpy(d->uarea, s->uarea, min_u32(d->uarea_size, s->uarea_size));
}

odp_packet_t odp_packet_copy(odp_packet_t pkt, odp_pool_t pool)
{
	odp_packet_t copy = odp_packet_alloc(pool, _odp_pkt_len(pkt));

	if (copy == ODP_PACKET_INVALID)
		return ODP_PACKET_INVALID;
	memcpy(_odp_pkt_data(copy), _odp_pkt_data(pkt), _odp_pkt_len(pkt));
	copy_meta(copy, pkt);
	return copy;
}

odp_packet_t odp_packet_copy_part(odp_packet_t pkt, uint32_t offset, uint32_t len,
				  odp_pool_t pool)
{
	uint32_t length = _odp_pkt_len(pkt);
	odp_packet_t copy;

	if (len == 0 || offset > length || len > length - offset)
		return ODP_PACKET_INVALID;
	copy = odp_packet_alloc(pool, len);
	if (copy != ODP_PACKET_INVALID)
		memcpy(_odp_pkt_data(copy), _odp_pkt_data(pkt) + offset, len);
	return copy;
}

int odp_packet_copy_from_pkt(odp_packet_t dst, uint32_t dst_offset, odp_packet_t src,
			     uint32_t src_offset, uint32_t len)
{
	uint32_t dst_len = _odp_pkt_len(dst);
	uint32_t src_len = _odp_pkt_len(src);

	if (dst_offset > dst_len || len > dst_len - dst_offset ||
	    src_offset > src_len || len > src_len - src_offset)
		return -1;
	memmove(_odp_pkt_data(dst) + dst_offset, _odp_pkt_data(src) + src_offset, len);
	return 0;
}

odp_pktio_t odp_packet_input(odp_packet_t pkt)
{
	int index = _odp_pkt_input_index(pkt);

	return index < 0 ? ODP_PKTIO_INVALID : _odp_pktio_hdl(&_odp_global.pktios[index]);
}

void odp_packet_input_set(odp_packet_t pkt, odp_pktio_t pktio)
{
	_odp_pkt_set_input_index(pkt, pktio == ODP_PKTIO_INVALID ? -1 : odp_pktio_index(pktio));
}

void odp_packet_print(odp_packet_t pkt)
{
	_ODP_PRINT("packet %p: len %" PRIu32 ", headroom %" PRIu32 ", tailroom %" PRIu32
		   ", pool '%s', input %d\n", (void *)pkt, _odp_pkt_len(pkt), odp_packet_headroom(pkt),
		   odp_packet_tailroom(pkt), _odp_pool_from_hdl(_odp_pkt_hdr(pkt)->pool)->name,
		   _odp_pkt_input_index(pkt));
}

/* ---- The plain backend: packets in one mapping per pool ---- */

#ifndef ODP_BUNDLED_PKTIO_DPDK

int odp_pool_capability(odp_pool_capability_t *capa)
{
	_odp_pool_capability_init(capa, MAX_DATA_ROOM, MAX_UAREA);
	capa->pkt.min_headroom = 0;
	capa->pkt.max_headroom = MAX_HEADROOM;
	capa->pkt.max_cache_size = _ODP_POOL_CACHE_MAX;
	return 0;
}

static inline _odp_pkt_hdr_t *pkt_at(_odp_pool_t *pool, uint32_t i)
{
	return (_odp_pkt_hdr_t *)(void *)(pool->base + (size_t)i * pool->stride);
}

odp_pool_t odp_pool_create(const char *name, const odp_pool_param_t *param)
{
	_odp_pool_t *pool;
	uint32_t data_room;
	uint32_t num;
	uint32_t hdr_len;
	size_t total;
	uint32_t cache_size;

	if (!param || _odp_pool_check_param(param, &data_room, &num))
		return ODP_POOL_INVALID;
	pthread_mutex_lock(&_odp_global.lock);
	pool = _odp_pool_reserve(name, param, num, data_room);
	if (!pool) {
		pthread_mutex_unlock(&_odp_global.lock);
		return ODP_POOL_INVALID;
	}
	pool->buf_len = pool->headroom + data_room;

	hdr_len = (uint32_t)sizeof(_odp_pkt_hdr_t);
	pool->uarea_off = hdr_len;
	pool->head_off = hdr_len + (uint32_t)_odp_round_up(pool->uarea_size, ODP_CACHE_LINE_SIZE);
	pool->stride = (uint32_t)_odp_round_up(pool->head_off + pool->buf_len + _ODP_REDZONE,
					       ODP_CACHE_LINE_SIZE);
	if (__builtin_mul_overflow((size_t)pool->stride, (size_t)num, &total))
		total = SIZE_MAX;  /* past a 32-bit size_t: mmap fails below, not a short pool */
	pool->map_len = total;
	pool->base = _odp_map(total);
	pool->free = malloc(sizeof(*pool->free) * num);

	/* Caches must not be able to hide most of the pool from a thread. */
	cache_size = min_u32(param->pkt.cache_size, _ODP_POOL_CACHE_MAX);
	cache_size = min_u32(cache_size, num / (2 * (uint32_t)_odp_global.thread_max));
	pool->cache_size = cache_size < 2 ? 0 : cache_size;
	if (pool->cache_size) {
		pool->cache_map_len = sizeof(_odp_pool_cache_t) * (size_t)_odp_global.thread_max;
		pool->cache = _odp_map(pool->cache_map_len);
	}
	if (!pool->base || !pool->free || (pool->cache_size && !pool->cache)) {
		_odp_unmap(pool->base, pool->map_len);
		_odp_unmap(pool->cache, pool->cache_map_len);
		free(pool->free);
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pool_create: cannot allocate %zu bytes for %" PRIu32 " packets\n",
			 total, num);
		return ODP_POOL_INVALID;
	}

	for (uint32_t i = 0; i < num; i++) {
		_odp_pkt_hdr_t *h = pkt_at(pool, i);

		h->pool = _odp_pool_to_hdl(pool);
		h->head = (uint8_t *)h + pool->head_off;
		h->buf_len = pool->buf_len;
		h->uarea_size = pool->uarea_size;
		h->uarea = pool->uarea_size ? (uint8_t *)h + pool->uarea_off : NULL;
		h->index = i;
		h->input_index = -1;
		if (h->uarea && param->uarea_init.init_fn)
			param->uarea_init.init_fn(h->uarea, pool->uarea_size,
						  param->uarea_init.args, i);
		/* Hand out low addresses first. */
		pool->free[num - 1 - i] = (odp_packet_t)(void *)h;
		_ODP_POISON(h->head, (size_t)pool->stride - pool->head_off);
		_ODP_POISON(h, sizeof(*h));
	}
	pool->free_num = num;
	pool->in_use = 1;
	pthread_mutex_unlock(&_odp_global.lock);
	return _odp_pool_to_hdl(pool);
}

static uint32_t cached_count(_odp_pool_t *pool)
{
	uint32_t n = 0;

	for (int t = 0; pool->cache_size && t < _odp_global.thread_max; t++)
		n += pool->cache[t].num;
	return n;
}

uint32_t _odp_pool_used(_odp_pool_t *pool)
{
	uint32_t free_num;

	odp_spinlock_lock(&pool->lock);
	free_num = pool->free_num + cached_count(pool);
	odp_spinlock_unlock(&pool->lock);
	return pool->num - free_num;
}

void _odp_pool_free_mem(_odp_pool_t *pool)
{
	_ODP_UNPOISON(pool->base, pool->map_len);
	_odp_unmap(pool->base, pool->map_len);
	_odp_unmap(pool->cache, pool->cache_map_len);
	free(pool->free);
	pool->base = NULL;
	pool->cache = NULL;
	pool->free = NULL;
}

void _odp_pool_data_range(_odp_pool_t *pool, odp_pool_info_t *info)
{
	info->min_data_addr = (uintptr_t)pool->base;
	info->max_data_addr = (uintptr_t)pool->base + pool->map_len - 1;
}

void odp_pool_print(odp_pool_t hdl)
{
	_odp_pool_t *pool = _odp_pool_get(hdl);
	uint32_t free_num;

	if (!pool) {
		_ODP_PRINT("pool: invalid handle\n");
		return;
	}
	odp_spinlock_lock(&pool->lock);
	free_num = pool->free_num;
	odp_spinlock_unlock(&pool->lock);
	_ODP_PRINT("pool '%s': %" PRIu32 " packets, %" PRIu32 " free (+%" PRIu32
		   " in thread caches), data room %" PRIu32 ", headroom %" PRIu32
		   ", user area %" PRIu32 "\n", pool->name, pool->num, free_num,
		   cached_count(pool), pool->data_room, pool->headroom, pool->uarea_size);
}

/* Packet allocation */

/* Take up to num free packets; the thread cache first. */
static uint32_t pool_take(_odp_pool_t *pool, odp_packet_t out[], uint32_t num)
{
	int thr = _odp_thr_id;
	uint32_t got = 0;
	uint32_t n;

	if (odp_likely(thr >= 0 && pool->cache_size)) {
		_odp_pool_cache_t *cache = &pool->cache[thr];

		while (got < num && cache->num)
			out[got++] = cache->pkt[--cache->num];
		if (got == num)
			return got;
		/* The cache is empty: refill half of it on the way. */
		odp_spinlock_lock(&pool->lock);
		n = min_u32(num - got + pool->cache_size / 2, pool->free_num);
		for (uint32_t i = 0; i < n; i++) {
			odp_packet_t pkt = pool->free[--pool->free_num];

			if (got < num)
				out[got++] = pkt;
			else
				cache->pkt[cache->num++] = pkt;
		}
		odp_spinlock_unlock(&pool->lock);
		return got;
	}
	odp_spinlock_lock(&pool->lock);
	n = min_u32(num, pool->free_num);
	for (uint32_t i = 0; i < n; i++)
		out[i] = pool->free[--pool->free_num];
	odp_spinlock_unlock(&pool->lock);
	return n;
}

/* Return packets; into the thread cache when it has room. */
static void pool_give(_odp_pool_t *pool, const odp_packet_t in[], uint32_t num)
{
	int thr = _odp_thr_id;

	for (uint32_t i = 0; i < num; i++) {
		_odp_pkt_hdr_t *h = _odp_pkt_hdr(in[i]);

		_ODP_POISON(h->head, pool->buf_len);
		_ODP_POISON(h, sizeof(*h));
	}
	if (odp_likely(thr >= 0 && pool->cache_size)) {
		_odp_pool_cache_t *cache = &pool->cache[thr];

		if (odp_likely(cache->num + num <= pool->cache_size)) {
			for (uint32_t i = 0; i < num; i++)
				cache->pkt[cache->num++] = in[i];
			return;
		}
		odp_spinlock_lock(&pool->lock);
		while (cache->num > pool->cache_size / 2)
			pool->free[pool->free_num++] = cache->pkt[--cache->num];
		for (uint32_t i = 0; i < num; i++) {
			if (cache->num < pool->cache_size)
				cache->pkt[cache->num++] = in[i];
			else
				pool->free[pool->free_num++] = in[i];
		}
		odp_spinlock_unlock(&pool->lock);
		return;
	}
	odp_spinlock_lock(&pool->lock);
	for (uint32_t i = 0; i < num; i++)
		pool->free[pool->free_num++] = in[i];
	odp_spinlock_unlock(&pool->lock);
}

void _odp_pool_flush_thread(int thr)
{
	pthread_mutex_lock(&_odp_global.lock);
	for (int i = 0; _odp_global.pools && i < _ODP_MAX_POOLS; i++) {
		_odp_pool_t *pool = &_odp_global.pools[i];
		_odp_pool_cache_t *cache;

		if (!pool->in_use || !pool->cache_size)
			continue;
		cache = &pool->cache[thr];
		odp_spinlock_lock(&pool->lock);
		while (cache->num)
			pool->free[pool->free_num++] = cache->pkt[--cache->num];
		odp_spinlock_unlock(&pool->lock);
	}
	pthread_mutex_unlock(&_odp_global.lock);
}

static inline void pkt_init(_odp_pool_t *pool, _odp_pkt_hdr_t *h, uint32_t len)
{
	_ODP_UNPOISON(h, sizeof(*h));
	_ODP_UNPOISON(h->head, pool->buf_len);
	h->data = h->head + pool->headroom;
	h->len = len;
	h->input_index = -1;
	h->user_ptr = NULL;
	h->user_flag = 0;
}

odp_packet_t odp_packet_alloc(odp_pool_t hdl, uint32_t len)
{
	_odp_pool_t *pool = _odp_pool_from_hdl(hdl);
	odp_packet_t pkt;

	if (odp_unlikely(len == 0 || len > pool->data_room))
		return ODP_PACKET_INVALID;
	if (odp_unlikely(pool_take(pool, &pkt, 1) == 0))
		return ODP_PACKET_INVALID;
	pkt_init(pool, _odp_pkt_hdr(pkt), len);
	return pkt;
}

int odp_packet_alloc_multi(odp_pool_t hdl, uint32_t len, odp_packet_t pkt[], int num)
{
	_odp_pool_t *pool = _odp_pool_from_hdl(hdl);
	uint32_t n;

	if (odp_unlikely(len == 0 || len > pool->data_room || num < 0))
		return -1;
	n = pool_take(pool, pkt, (uint32_t)num);
	for (uint32_t i = 0; i < n; i++)
		pkt_init(pool, _odp_pkt_hdr(pkt[i]), len);
	return (int)n;
}

void odp_packet_free(odp_packet_t pkt)
{
	pool_give(_odp_pool_from_hdl(_odp_pkt_hdr(pkt)->pool), &pkt, 1);
}

void odp_packet_free_multi(const odp_packet_t pkt[], int num)
{
	int start = 0;

	/* Free runs of packets of the same pool together. */
	while (start < num) {
		odp_pool_t pool = _odp_pkt_hdr(pkt[start])->pool;
		int end = start + 1;

		while (end < num && _odp_pkt_hdr(pkt[end])->pool == pool)
			end++;
		pool_give(_odp_pool_from_hdl(pool), pkt + start, (uint32_t)(end - start));
		start = end;
	}
}

void odp_packet_free_sp(const odp_packet_t pkt[], int num)
{
	if (num > 0)
		pool_give(_odp_pool_from_hdl(_odp_pkt_hdr(pkt[0])->pool), pkt, (uint32_t)num);
}

int odp_packet_reset(odp_packet_t pkt, uint32_t len)
{
	_odp_pkt_hdr_t *h = _odp_pkt_hdr(pkt);
	_odp_pool_t *pool = _odp_pool_from_hdl(h->pool);

	if (len == 0 || len > pool->data_room)
		return -1;
	pkt_init(pool, h, len);
	return 0;
}

int odp_packet_is_valid(odp_packet_t pkt)
{
	uintptr_t addr = (uintptr_t)pkt;

	for (int i = 0; pkt && _odp_global.pools && i < _ODP_MAX_POOLS; i++) {
		_odp_pool_t *pool = &_odp_global.pools[i];
		uintptr_t base = (uintptr_t)pool->base;

		if (pool->in_use && addr >= base && addr < base + pool->map_len)
			return (addr - base) % pool->stride == 0;
	}
	return 0;
}

#endif /* !ODP_BUNDLED_PKTIO_DPDK */
