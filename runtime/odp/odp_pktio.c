/* Bundled ODP: packet I/O, the part common to all device kinds.
 *
 * Each kind of device (pktio_pcap.c, pktio_loop.c, pktio_null.c,
 * pktio_socket_mmap.c and the optional pktio_dpdk.c, pktio_xdp.c,
 * pktio_netmap.c) is an ops table; this file keeps the interface table, the
 * state machine, queue configuration, locking of MT-safe queues, the counters
 * and the flow hash that devices spreading flows over queues share.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "odp_internal.h"

/* Kinds in the order they are tried; the last one takes any name.  The
 * optional kinds are built when the build names them (ODP_BUNDLED_PKTIO_*,
 * see the Makefile's PKTIO). */
static const _odp_pktio_ops_t *const pktio_kinds[] = {
	&_odp_pktio_pcap_ops,
	&_odp_pktio_loop_ops,
	&_odp_pktio_null_ops,
#ifdef ODP_BUNDLED_PKTIO_DPDK
	&_odp_pktio_dpdk_ops,
#endif
#ifdef ODP_BUNDLED_PKTIO_XDP
	&_odp_pktio_xdp_ops,
#endif
#ifdef ODP_BUNDLED_PKTIO_NETMAP
	&_odp_pktio_netmap_ops,
#endif
	&_odp_pktio_socket_mmap_ops,
};

static inline uint32_t state_get(const _odp_pktio_entry_t *e)
{
	return __atomic_load_n(&e->state, __ATOMIC_ACQUIRE);
}

static inline void state_set(_odp_pktio_entry_t *e, uint32_t state)
{
	__atomic_store_n(&e->state, state, __ATOMIC_RELEASE);
}

/* Entry of a valid handle of an open pktio, or NULL. */
static _odp_pktio_entry_t *entry_get(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e = _odp_pktio_entry(pktio);
	_odp_pktio_entry_t *tab = _odp_global.pktios;

	if (!tab || e < tab || e >= tab + _ODP_MAX_PKTIOS || state_get(e) == _ODP_PKTIO_FREE)
		return NULL;
	return e;
}

void odp_pktio_param_init(odp_pktio_param_t *param)
{
	memset(param, 0, sizeof(*param));
	param->in_mode = ODP_PKTIN_MODE_DIRECT;
	param->out_mode = ODP_PKTOUT_MODE_DIRECT;
}

void odp_pktin_queue_param_init(odp_pktin_queue_param_t *param)
{
	memset(param, 0, sizeof(*param));
	param->op_mode = ODP_PKTIO_OP_MT;
	param->num_queues = 1;
}

void odp_pktout_queue_param_init(odp_pktout_queue_param_t *param)
{
	memset(param, 0, sizeof(*param));
	param->op_mode = ODP_PKTIO_OP_MT;
	param->num_queues = 1;
}

void odp_pktio_config_init(odp_pktio_config_t *config)
{
	memset(config, 0, sizeof(*config));
	config->parser.layer = ODP_PROTO_LAYER_ALL;
	config->flow_control.pause_rx = ODP_PKTIO_LINK_PAUSE_OFF;
	config->flow_control.pause_tx = ODP_PKTIO_LINK_PAUSE_OFF;
}

static void reset_queues(_odp_pktio_entry_t *e)
{
	for (int i = 0; i < ODP_PKTIN_MAX_QUEUES; i++) {
		memset(&e->in[i], 0, sizeof(e->in[i]));
		odp_spinlock_init(&e->in[i].lock);
	}
	for (int i = 0; i < ODP_PKTOUT_MAX_QUEUES; i++) {
		memset(&e->out[i], 0, sizeof(e->out[i]));
		odp_spinlock_init(&e->out[i].lock);
	}
}

odp_pktio_t odp_pktio_open(const char *name, odp_pool_t pool, const odp_pktio_param_t *param)
{
	odp_pktio_param_t defaults;
	_odp_pktio_entry_t *e = NULL;
	const _odp_pktio_ops_t *ops = NULL;
	_odp_pool_t *p;

	if (!param) {
		odp_pktio_param_init(&defaults);
		param = &defaults;
	}
	if (!name || strlen(name) >= _ODP_PKTIO_NAME_LEN) {
		_ODP_ERR("odp_pktio_open: missing or too long name\n");
		return ODP_PKTIO_INVALID;
	}
	if ((param->in_mode != ODP_PKTIN_MODE_DIRECT &&
	     param->in_mode != ODP_PKTIN_MODE_DISABLED) ||
	    (param->out_mode != ODP_PKTOUT_MODE_DIRECT &&
	     param->out_mode != ODP_PKTOUT_MODE_DISABLED)) {
		_ODP_ERR("odp_pktio_open: %s: only direct (or disabled) input and output modes "
			 "are supported\n", name);
		return ODP_PKTIO_INVALID;
	}
	for (size_t i = 0; i < sizeof(pktio_kinds) / sizeof(pktio_kinds[0]); i++) {
		if (pktio_kinds[i]->match(name)) {
			ops = pktio_kinds[i];
			break;
		}
	}

	pthread_mutex_lock(&_odp_global.lock);
	if (!_odp_global.inited) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pktio_open: ODP not initialized\n");
		return ODP_PKTIO_INVALID;
	}
	p = _odp_pool_get(pool);
	if (!p && param->in_mode != ODP_PKTIN_MODE_DISABLED) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pktio_open: %s: bad pool\n", name);
		return ODP_PKTIO_INVALID;
	}
	for (int i = 0; i < _ODP_MAX_PKTIOS; i++) {
		_odp_pktio_entry_t *cur = &_odp_global.pktios[i];

		if (cur->state != _ODP_PKTIO_FREE && strcmp(cur->name, name) == 0) {
			pthread_mutex_unlock(&_odp_global.lock);
			_ODP_ERR("odp_pktio_open: %s: already open\n", name);
			return ODP_PKTIO_INVALID;
		}
		if (!e && cur->state == _ODP_PKTIO_FREE)
			e = cur;
	}
	if (!e || !ops) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pktio_open: %s: %s\n", name,
			 e ? "no device kind for this name" : "too many open interfaces");
		return ODP_PKTIO_INVALID;
	}
	reset_queues(e);
	e->ops = ops;
	e->priv = NULL;
	e->pool = p ? pool : ODP_POOL_INVALID;
	e->param = *param;
	odp_pktio_config_init(&e->config);
	odp_pktin_queue_param_init(&e->in_param);
	odp_pktout_queue_param_init(&e->out_param);
	e->num_in = 0;
	e->num_out = 0;
	e->promisc = 0;
	snprintf(e->name, sizeof(e->name), "%s", name);
	if (ops->open(e, name) != 0) {
		e->name[0] = '\0';
		pthread_mutex_unlock(&_odp_global.lock);
		return ODP_PKTIO_INVALID;
	}
	if (p)
		p->pktio_users++;
	state_set(e, _ODP_PKTIO_OPENED);
	pthread_mutex_unlock(&_odp_global.lock);
	return _odp_pktio_hdl(e);
}

static int close_locked(_odp_pktio_entry_t *e)
{
	_odp_pool_t *p = _odp_pool_get(e->pool);
	int ret;

	if (state_get(e) == _ODP_PKTIO_STARTED)
		e->ops->stop(e);
	ret = e->ops->close(e);
	e->priv = NULL;
	if (p)
		p->pktio_users--;
	e->name[0] = '\0';
	state_set(e, _ODP_PKTIO_FREE);
	return ret;
}

int odp_pktio_close(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e;
	int ret;

	pthread_mutex_lock(&_odp_global.lock);
	e = entry_get(pktio);
	if (!e) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pktio_close: bad handle\n");
		return -1;
	}
	if (state_get(e) == _ODP_PKTIO_STARTED) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_pktio_close: %s: stop it first\n", e->name);
		return -1;
	}
	ret = close_locked(e);
	pthread_mutex_unlock(&_odp_global.lock);
	return ret;
}

int _odp_pktio_close_all(void)
{
	int n = 0;

	pthread_mutex_lock(&_odp_global.lock);
	for (int i = 0; _odp_global.pktios && i < _ODP_MAX_PKTIOS; i++) {
		_odp_pktio_entry_t *e = &_odp_global.pktios[i];

		if (state_get(e) != _ODP_PKTIO_FREE) {
			close_locked(e);
			n++;
		}
	}
	pthread_mutex_unlock(&_odp_global.lock);
	return n;
}

/* Queue limits of the device kind, or of the device when it has fewer. */
static void max_queues(_odp_pktio_entry_t *e, uint32_t *max_in, uint32_t *max_out)
{
	*max_in = e->ops->max_in_queues;
	*max_out = e->ops->max_out_queues;
	if (e->ops->queues)
		e->ops->queues(e, max_in, max_out);
}

int odp_pktio_capability(odp_pktio_t pktio, odp_pktio_capability_t *capa)
{
	_odp_pktio_entry_t *e = entry_get(pktio);
	uint32_t maxlen;
	uint32_t max_in;
	uint32_t max_out;

	if (!e)
		return -1;
	maxlen = e->ops->maxlen(e);
	max_queues(e, &max_in, &max_out);
	memset(capa, 0, sizeof(*capa));
	capa->max_input_queues = max_in;
	capa->min_input_queue_size = 0;
	capa->max_input_queue_size = 0;
	capa->max_output_queues = max_out;
	capa->min_output_queue_size = 0;
	capa->max_output_queue_size = 0;
	odp_pktio_config_init(&capa->config);
	capa->config.parser.layer = ODP_PROTO_LAYER_NONE;
	capa->set_op.op.promisc_mode = e->ops->promisc_set != NULL;
	capa->maxlen.equal = 1;
	capa->maxlen.min_input = maxlen;
	capa->maxlen.max_input = maxlen;
	capa->maxlen.min_output = maxlen;
	capa->maxlen.max_output = maxlen;
	capa->stats.pktio.counter.in_octets = 1;
	capa->stats.pktio.counter.in_packets = 1;
	capa->stats.pktio.counter.in_discards = 1;
	capa->stats.pktio.counter.in_errors = 1;
	capa->stats.pktio.counter.out_octets = 1;
	capa->stats.pktio.counter.out_packets = 1;
	capa->stats.pktio.counter.out_discards = 1;
	capa->stats.pktio.counter.out_errors = 1;
	capa->stats.pktin_queue.all_counters = 0xf;
	capa->stats.pktout_queue.all_counters = 0xf;
	return 0;
}

unsigned int odp_pktio_max_index(void)
{
	return ODP_PKTIO_MAX_INDEX;
}

int odp_pktio_config(odp_pktio_t pktio, const odp_pktio_config_t *config)
{
	_odp_pktio_entry_t *e = entry_get(pktio);
	odp_pktio_config_t defaults;

	if (!e)
		return -1;
	if (!config) {
		odp_pktio_config_init(&defaults);
		config = &defaults;
	}
	if (state_get(e) == _ODP_PKTIO_STARTED) {
		_ODP_ERR("odp_pktio_config: %s: stop it first\n", e->name);
		return -1;
	}
	if (config->pktin.all_bits || config->pktout.all_bits || config->enable_loop ||
	    config->inbound_ipsec || config->outbound_ipsec || config->enable_lso ||
	    config->flow_control.pause_rx == ODP_PKTIO_LINK_PAUSE_ON ||
	    config->flow_control.pause_rx == ODP_PKTIO_LINK_PFC_ON ||
	    config->flow_control.pause_tx == ODP_PKTIO_LINK_PAUSE_ON ||
	    config->flow_control.pause_tx == ODP_PKTIO_LINK_PFC_ON) {
		_ODP_ERR("odp_pktio_config: %s: offloads, loopback, IPsec, LSO and flow "
			 "control are not supported\n", e->name);
		return -1;
	}
	e->config = *config;
	return 0;
}

/* The checks both directions' queue configuration make: 1 to go on, 0 when the
 * direction is disabled (nothing to configure), -1 on an error. */
static int queue_config_check(_odp_pktio_entry_t *e, const char *call, bool disabled, uint32_t num_queues,
			      uint32_t max_queues)
{
	if (state_get(e) == _ODP_PKTIO_STARTED) {
		_ODP_ERR("%s: %s: stop it first\n", call, e->name);
		return -1;
	}
	if (disabled)
		return 0;
	if (num_queues == 0 || num_queues > max_queues) {
		_ODP_ERR("%s: %s: %" PRIu32 " queues, 1 ... %" PRIu32 " supported\n", call, e->name, num_queues,
			 max_queues);
		return -1;
	}
	return 1;
}

int odp_pktin_queue_config(odp_pktio_t pktio, const odp_pktin_queue_param_t *param)
{
	_odp_pktio_entry_t *e = entry_get(pktio);
	odp_pktin_queue_param_t defaults;
	uint32_t max_in;
	uint32_t max_out;

	if (!e)
		return -1;
	if (!param) {
		odp_pktin_queue_param_init(&defaults);
		param = &defaults;
	}
	max_queues(e, &max_in, &max_out);
	int go_on = queue_config_check(e, "odp_pktin_queue_config", e->param.in_mode == ODP_PKTIN_MODE_DISABLED,
				       param->num_queues, max_in);
	if (go_on <= 0) {
		if (go_on == 0)
			e->num_in = 0;
		return go_on;
	}
	if (param->classifier_enable) {
		_ODP_ERR("odp_pktin_queue_config: %s: classifier not supported\n", e->name);
		return -1;
	}
	e->in_param = *param;
	e->num_in = param->num_queues;
	for (uint32_t i = 0; i < e->num_in; i++)
		e->in[i].mt = param->op_mode == ODP_PKTIO_OP_MT;
	return 0;
}

int odp_pktout_queue_config(odp_pktio_t pktio, const odp_pktout_queue_param_t *param)
{
	_odp_pktio_entry_t *e = entry_get(pktio);
	odp_pktout_queue_param_t defaults;
	uint32_t max_in;
	uint32_t max_out;

	if (!e)
		return -1;
	if (!param) {
		odp_pktout_queue_param_init(&defaults);
		param = &defaults;
	}
	max_queues(e, &max_in, &max_out);
	int go_on = queue_config_check(e, "odp_pktout_queue_config", e->param.out_mode == ODP_PKTOUT_MODE_DISABLED,
				       param->num_queues, max_out);
	if (go_on <= 0) {
		if (go_on == 0)
			e->num_out = 0;
		return go_on;
	}
	e->out_param = *param;
	e->num_out = param->num_queues;
	for (uint32_t i = 0; i < e->num_out; i++)
		e->out[i].mt = param->op_mode == ODP_PKTIO_OP_MT;
	return 0;
}

int odp_pktin_queue(odp_pktio_t pktio, odp_pktin_queue_t queues[], int num)
{
	_odp_pktio_entry_t *e = entry_get(pktio);

	if (!e || e->param.in_mode != ODP_PKTIN_MODE_DIRECT)
		return -1;
	for (int i = 0; queues && i < num && i < (int)e->num_in; i++) {
		queues[i].pktio = pktio;
		queues[i].index = i;
	}
	return (int)e->num_in;
}

int odp_pktout_queue(odp_pktio_t pktio, odp_pktout_queue_t queues[], int num)
{
	_odp_pktio_entry_t *e = entry_get(pktio);

	if (!e || e->param.out_mode != ODP_PKTOUT_MODE_DIRECT)
		return -1;
	for (int i = 0; queues && i < num && i < (int)e->num_out; i++) {
		queues[i].pktio = pktio;
		queues[i].index = i;
	}
	return (int)e->num_out;
}

int odp_pktio_start(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e;
	int ret = -1;

	pthread_mutex_lock(&_odp_global.lock);
	e = entry_get(pktio);
	if (!e) {
		_ODP_ERR("odp_pktio_start: bad handle\n");
	} else if (state_get(e) == _ODP_PKTIO_STARTED) {
		_ODP_ERR("odp_pktio_start: %s: already started\n", e->name);
	} else if ((e->param.in_mode == ODP_PKTIN_MODE_DIRECT && e->num_in == 0) ||
		   (e->param.out_mode == ODP_PKTOUT_MODE_DIRECT && e->num_out == 0)) {
		_ODP_ERR("odp_pktio_start: %s: configure input and output queues first\n",
			 e->name);
	} else if (e->ops->start(e) == 0) {
		state_set(e, _ODP_PKTIO_STARTED);
		ret = 0;
	}
	pthread_mutex_unlock(&_odp_global.lock);
	return ret;
}

int odp_pktio_stop(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e;
	int ret = -1;

	pthread_mutex_lock(&_odp_global.lock);
	e = entry_get(pktio);
	if (!e) {
		_ODP_ERR("odp_pktio_stop: bad handle\n");
	} else if (state_get(e) != _ODP_PKTIO_STARTED) {
		_ODP_ERR("odp_pktio_stop: %s: not started\n", e->name);
	} else {
		/* New calls see the state first; then wait for calls under way. */
		state_set(e, _ODP_PKTIO_STOPPED);
		for (uint32_t i = 0; i < e->num_in; i++) {
			odp_spinlock_lock(&e->in[i].lock);
			odp_spinlock_unlock(&e->in[i].lock);
		}
		for (uint32_t i = 0; i < e->num_out; i++) {
			odp_spinlock_lock(&e->out[i].lock);
			odp_spinlock_unlock(&e->out[i].lock);
		}
		ret = e->ops->stop(e);
	}
	pthread_mutex_unlock(&_odp_global.lock);
	return ret;
}

odp_pktio_t odp_pktio_lookup(const char *name)
{
	odp_pktio_t found = ODP_PKTIO_INVALID;

	if (!name)
		return ODP_PKTIO_INVALID;
	pthread_mutex_lock(&_odp_global.lock);
	for (int i = 0; _odp_global.pktios && i < _ODP_MAX_PKTIOS; i++) {
		_odp_pktio_entry_t *e = &_odp_global.pktios[i];

		if (state_get(e) != _ODP_PKTIO_FREE && strcmp(e->name, name) == 0) {
			found = _odp_pktio_hdl(e);
			break;
		}
	}
	pthread_mutex_unlock(&_odp_global.lock);
	return found;
}

/* ---- Fast path ---- */

static inline uint32_t hash_bytes(uint32_t h, const uint8_t *p, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

uint32_t _odp_flow_hash(const uint8_t *d, uint32_t len)
{
	uint32_t h = 2166136261u;
	uint32_t l3 = 14;
	uint16_t type;
	uint8_t proto;
	uint32_t l4;

	if (len < 14)
		return hash_bytes(h, d, len);
	type = (uint16_t)(d[12] << 8 | d[13]);
	if (type == 0x8100 && len >= 18) {
		type = (uint16_t)(d[16] << 8 | d[17]);
		l3 = 18;
	}
	if (type == 0x0800 && len >= l3 + 20) {
		proto = d[l3 + 9];
		h = hash_bytes(h, d + l3 + 12, 8);
		l4 = l3 + (uint32_t)(d[l3] & 0xf) * 4;
	} else if (type == 0x86dd && len >= l3 + 40) {
		proto = d[l3 + 6];
		h = hash_bytes(h, d + l3 + 8, 32);
		l4 = l3 + 40;
	} else {
		return hash_bytes(h, d, 12);
	}
	if ((proto == 6 || proto == 17) && len >= l4 + 4)
		h = hash_bytes(h, d + l4, 4);
	return hash_bytes(h, &proto, 1);
}

/* A packet as odp_pktin_recv() hands it out: its input set, its first data
 * on the way to the cache (ODP_BUNDLED_RECV_PREFETCHES). */
static inline void mark_received(odp_packet_t pkt, int input)
{
	_odp_pkt_set_input_index(pkt, input);
	odp_prefetch(_odp_pkt_data(pkt));
}

/* Packets i to n of a receive, packets[i] chained: the chained ones freed and
 * counted as discards, the others marked as odp_pktin_recv() marks them and
 * moved up behind the first i.  How many packets are left. */
static int drop_chained(_odp_pktio_entry_t *e, _odp_pktio_queue_t *q, odp_packet_t packets[], int i, int n)
{
	int kept = i;

	for (; i < n; i++) {
		if (_odp_pkt_chained(packets[i])) {
			odp_packet_free(packets[i]);
			continue;
		}
		mark_received(packets[i], e->index);
		packets[kept++] = packets[i];
	}
	_odp_stat_add(&q->discards, (uint64_t)(n - kept));
	return kept;
}

static uint64_t sum_lengths(const odp_packet_t packets[], int n)
{
	uint64_t octets = 0;

	for (int i = 0; i < n; i++)
		octets += _odp_pkt_len(packets[i]);
	return octets;
}

int odp_pktin_recv(odp_pktin_queue_t queue, odp_packet_t packets[], int num)
{
	_odp_pktio_entry_t *e = _odp_pktio_entry(queue.pktio);
	_odp_pktio_queue_t *q;
	int n, i, input;

	if (odp_unlikely(!e || (unsigned int)queue.index >= e->num_in || num < 0))
		return -1;
	q = &e->in[queue.index];
	if (q->mt)
		odp_spinlock_lock(&q->lock);
	/* Checked under the lock: odp_pktio_stop() waits for the lock holders. */
	if (odp_unlikely(state_get(e) != _ODP_PKTIO_STARTED)) {
		if (q->mt)
			odp_spinlock_unlock(&q->lock);
		return 0;
	}
	n = e->ops->recv(e, queue.index, packets, num);
	/* A local: the stores to the packets below could alias e->index. */
	input = e->index;
	for (i = 0; i < n && !_odp_pkt_chained(packets[i]); i++)
		mark_received(packets[i], input);
	if (odp_unlikely(i < n))
		n = drop_chained(e, q, packets, i, n);
	if (n > 0) {
		_odp_stat_add(&q->packets, (uint64_t)n);
		if (!e->ops->queue_octets)  /* else the device counts them */
			_odp_stat_add(&q->octets, sum_lengths(packets, n));
	}
	if (q->mt)
		odp_spinlock_unlock(&q->lock);
	return n;
}

uint64_t odp_pktin_wait_time(uint64_t nsec)
{
	/* Wait values are nanoseconds; 0 would mean ODP_PKTIN_NO_WAIT. */
	return nsec ? nsec : 1;
}

static inline uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * ODP_TIME_SEC_IN_NS + (uint64_t)ts.tv_nsec;
}

/* Sleep a little while polling; drivers with a file descriptor do better. */
static void idle_wait(_odp_pktio_entry_t *e, int q, uint64_t ns)
{
	if (e->ops->wait) {
		e->ops->wait(e, q, ns);
	} else {
		struct timespec ts = { 0, (long)(ns < 20000 ? ns : 20000) };

		nanosleep(&ts, NULL);
	}
}

int odp_pktin_recv_tmo(odp_pktin_queue_t queue, odp_packet_t packets[], int num, uint64_t wait)
{
	_odp_pktio_entry_t *e = _odp_pktio_entry(queue.pktio);
	uint64_t end;
	int n;

	n = odp_pktin_recv(queue, packets, num);
	if (n != 0 || wait == ODP_PKTIN_NO_WAIT)
		return n;
	end = mono_ns() + wait;
	for (;;) {
		uint64_t now = mono_ns();

		if (now >= end)
			return 0;
		if (e->ops->input_done && e->ops->input_done(e) == 1)
			return 0;
		idle_wait(e, queue.index, end - now);
		n = odp_pktin_recv(queue, packets, num);
		if (n != 0)
			return n;
	}
}

static int all_input_done(const odp_pktin_queue_t queues[], uint32_t num_q)
{
	for (uint32_t i = 0; i < num_q; i++) {
		_odp_pktio_entry_t *e = _odp_pktio_entry(queues[i].pktio);

		if (!e->ops->input_done || e->ops->input_done(e) != 1)
			return 0;
	}
	return 1;
}

int odp_pktin_recv_mq_tmo(const odp_pktin_queue_t queues[], uint32_t num_q, uint32_t *from,
			  odp_packet_t packets[], int num, uint64_t wait)
{
	uint64_t end = 0;

	for (;;) {
		for (uint32_t i = 0; i < num_q; i++) {
			int n = odp_pktin_recv(queues[i], packets, num);

			if (n != 0) {
				if (n > 0 && from)
					*from = i;
				return n;
			}
		}
		if (wait == ODP_PKTIN_NO_WAIT || num_q == 0 || all_input_done(queues, num_q))
			return 0;
		if (end == 0)
			end = mono_ns() + wait;
		else if (mono_ns() >= end)
			return 0;
		{
			struct timespec ts = { 0, 10000 };

			nanosleep(&ts, NULL);
		}
	}
}

int odp_pktout_send(odp_pktout_queue_t queue, const odp_packet_t packets[], int num)
{
	_odp_pktio_entry_t *e = _odp_pktio_entry(queue.pktio);
	_odp_pktio_queue_t *q;
	int n;

	if (odp_unlikely(!e || (unsigned int)queue.index >= e->num_out || num < 0))
		return -1;
	q = &e->out[queue.index];
	if (q->mt)
		odp_spinlock_lock(&q->lock);
	/* Not started: nothing is accepted (as odp-linux does). */
	if (odp_unlikely(state_get(e) != _ODP_PKTIO_STARTED || num == 0))
		n = 0;
	else
		n = e->ops->send(e, queue.index, packets, num);
	if (q->mt)
		odp_spinlock_unlock(&q->lock);
	return n;
}

/* ---- Interface properties ---- */

int odp_pktio_promisc_mode_set(odp_pktio_t pktio, odp_bool_t enable)
{
	_odp_pktio_entry_t *e = entry_get(pktio);

	if (!e || !e->ops->promisc_set)
		return -1;
	if (e->ops->promisc_set(e, enable ? 1 : 0) != 0)
		return -1;
	e->promisc = enable ? 1 : 0;
	return 0;
}

int odp_pktio_promisc_mode(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e = entry_get(pktio);

	return e ? e->promisc : -1;
}

uint32_t odp_pktin_maxlen(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e = entry_get(pktio);

	return e ? e->ops->maxlen(e) : 0;
}

uint32_t odp_pktout_maxlen(odp_pktio_t pktio)
{
	return odp_pktin_maxlen(pktio);
}

int odp_pktio_mac_addr(odp_pktio_t pktio, void *mac_addr, int size)
{
	_odp_pktio_entry_t *e = entry_get(pktio);
	uint8_t mac[6];

	if (!e || size < 6 || e->ops->mac_addr(e, mac) != 0)
		return -1;
	memcpy(mac_addr, mac, 6);
	return 6;
}

int odp_pktio_index(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e = entry_get(pktio);

	return e ? e->index : -1;
}

uint64_t odp_pktio_to_u64(odp_pktio_t pktio)
{
	return (uint64_t)(uintptr_t)pktio;
}

odp_pktio_link_status_t odp_pktio_link_status(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e = entry_get(pktio);

	if (!e)
		return ODP_PKTIO_LINK_STATUS_UNKNOWN;
	return e->ops->link_status ? e->ops->link_status(e) : ODP_PKTIO_LINK_STATUS_UP;
}

int odp_pktio_info(odp_pktio_t pktio, odp_pktio_info_t *info)
{
	_odp_pktio_entry_t *e = entry_get(pktio);

	if (!e)
		return -1;
	memset(info, 0, sizeof(*info));
	info->name = e->name;
	info->drv_name = e->ops->name;
	info->pool = e->pool;
	info->param = e->param;
	return 0;
}

void odp_pktio_print(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e = entry_get(pktio);
	static const char *const states[] = { "free", "opened", "started", "stopped" };
	uint8_t mac[6] = { 0 };

	if (!e) {
		_ODP_PRINT("pktio: invalid handle\n");
		return;
	}
	e->ops->mac_addr(e, mac);
	_ODP_PRINT("pktio %d '%s': driver %s, %s, %" PRIu32 " input and %" PRIu32
		   " output queues, mac %02x:%02x:%02x:%02x:%02x:%02x, maxlen %" PRIu32 "\n",
		   e->index, e->name, e->ops->name, states[state_get(e)], e->num_in, e->num_out,
		   mac[0], mac[1], mac[2], mac[3], mac[4], mac[5], e->ops->maxlen(e));
}

/* ---- Statistics ---- */

int odp_pktio_stats(odp_pktio_t pktio, odp_pktio_stats_t *stats)
{
	_odp_pktio_entry_t *e;

	/* Locked against start and stop, which change driver state. */
	pthread_mutex_lock(&_odp_global.lock);
	e = entry_get(pktio);
	if (!e) {
		pthread_mutex_unlock(&_odp_global.lock);
		return -1;
	}
	memset(stats, 0, sizeof(*stats));
	for (int i = 0; i < ODP_PKTIN_MAX_QUEUES; i++) {
		stats->in_packets += _odp_stat_get(&e->in[i].packets);
		stats->in_octets += _odp_stat_get(&e->in[i].octets);
		stats->in_discards += _odp_stat_get(&e->in[i].discards);
		stats->in_errors += _odp_stat_get(&e->in[i].errors);
	}
	for (int i = 0; i < ODP_PKTOUT_MAX_QUEUES; i++) {
		stats->out_packets += _odp_stat_get(&e->out[i].packets);
		stats->out_octets += _odp_stat_get(&e->out[i].octets);
		stats->out_discards += _odp_stat_get(&e->out[i].discards);
		stats->out_errors += _odp_stat_get(&e->out[i].errors);
	}
	if (e->ops->stats)
		e->ops->stats(e, stats);
	pthread_mutex_unlock(&_odp_global.lock);
	return 0;
}

static uint64_t queue_octets(_odp_pktio_entry_t *e, int in, int q)
{
	if (e->ops->queue_octets)
		return e->ops->queue_octets(e, in, q);
	return _odp_stat_get(in ? &e->in[q].octets : &e->out[q].octets);
}

int odp_pktin_queue_stats(odp_pktin_queue_t queue, odp_pktin_queue_stats_t *stats)
{
	_odp_pktio_entry_t *e = entry_get(queue.pktio);
	_odp_pktio_queue_t *q;

	if (!e || (unsigned int)queue.index >= e->num_in)
		return -1;
	q = &e->in[queue.index];
	stats->packets = _odp_stat_get(&q->packets);
	stats->octets = queue_octets(e, 1, queue.index);
	stats->discards = _odp_stat_get(&q->discards);
	stats->errors = _odp_stat_get(&q->errors);
	return 0;
}

int odp_pktout_queue_stats(odp_pktout_queue_t queue, odp_pktout_queue_stats_t *stats)
{
	_odp_pktio_entry_t *e = entry_get(queue.pktio);
	_odp_pktio_queue_t *q;

	if (!e || (unsigned int)queue.index >= e->num_out)
		return -1;
	q = &e->out[queue.index];
	stats->packets = _odp_stat_get(&q->packets);
	stats->octets = queue_octets(e, 0, queue.index);
	stats->discards = _odp_stat_get(&q->discards);
	stats->errors = _odp_stat_get(&q->errors);
	return 0;
}

int odp_pktio_stats_reset(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e;

	pthread_mutex_lock(&_odp_global.lock);
	e = entry_get(pktio);
	if (!e) {
		pthread_mutex_unlock(&_odp_global.lock);
		return -1;
	}
	for (int i = 0; i < ODP_PKTIN_MAX_QUEUES; i++) {
		__atomic_store_n(&e->in[i].packets, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->in[i].octets, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->in[i].discards, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->in[i].errors, 0, __ATOMIC_RELAXED);
	}
	for (int i = 0; i < ODP_PKTOUT_MAX_QUEUES; i++) {
		__atomic_store_n(&e->out[i].packets, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->out[i].octets, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->out[i].discards, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&e->out[i].errors, 0, __ATOMIC_RELAXED);
	}
	if (e->ops->stats_reset)
		e->ops->stats_reset(e);
	pthread_mutex_unlock(&_odp_global.lock);
	return 0;
}

/* ---- p4odp extension (odp_bundled_ext.h) ---- */

int odp_bundled_pktio_input_done(odp_pktio_t pktio)
{
	_odp_pktio_entry_t *e = entry_get(pktio);

	if (!e)
		return -1;
	return e->ops->input_done ? e->ops->input_done(e) : 0;
}
