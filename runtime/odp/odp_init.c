/* Bundled ODP: instance and thread life cycle, logging, version. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "odp_internal.h"
#ifdef ODP_BUNDLED_PKTIO_DPDK
#include "odp_dpdk_internal.h"
#endif

_odp_global_t _odp_global = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

_Thread_local int _odp_thr_id = -1;
_Thread_local odp_thread_type_t _odp_thr_type = ODP_THREAD_CONTROL;

static int default_log(odp_log_level_t level, const char *fmt, ...) ODP_PRINTF_FORMAT(2, 3);

static int default_log(odp_log_level_t level, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = vfprintf(level == ODP_LOG_PRINT ? stdout : stderr, fmt, args);
	va_end(args);
	return ret;
}

static void default_abort(void) ODP_NORETURN;

static void default_abort(void)
{
	abort();
}

void _odp_log(odp_log_level_t level, const char *fmt, ...)
{
	char msg[512];
	va_list args;
	odp_log_func_t fn = _odp_global.log_fn ? _odp_global.log_fn : default_log;

	va_start(args, fmt);
	vsnprintf(msg, sizeof(msg), fmt, args);
	va_end(args);
	fn(level, "%s", msg);
}

odp_log_func_t odp_log_fn_get(void)
{
	return _odp_global.log_fn ? _odp_global.log_fn : default_log;
}

odp_abort_func_t odp_abort_fn_get(void)
{
	return _odp_global.abort_fn ? _odp_global.abort_fn : default_abort;
}

void *_odp_map(size_t size)
{
	void *addr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return addr == MAP_FAILED ? NULL : addr;
}

void _odp_unmap(void *addr, size_t size)
{
	if (addr)
		munmap(addr, size);
}

void odp_init_param_init(odp_init_t *param)
{
	memset(param, 0, sizeof(*param));
	param->mem_model = ODP_MEM_MODEL_THREAD;
}

static void free_tables(void)
{
	_odp_unmap(_odp_global.pools, sizeof(_odp_pool_t) * _ODP_MAX_POOLS);
	_odp_unmap(_odp_global.pktios, sizeof(_odp_pktio_entry_t) * _ODP_MAX_PKTIOS);
	free(_odp_global.shm);
	_odp_global.pools = NULL;
	_odp_global.pktios = NULL;
	_odp_global.shm = NULL;
}

int odp_init_global(odp_instance_t *instance, const odp_init_t *params,
		    const odp_platform_init_t *platform_params)
{
	odp_init_t defaults;
	int ret = -1;

	(void)platform_params;
	if (!params) {
		odp_init_param_init(&defaults);
		params = &defaults;
	}
	pthread_mutex_lock(&_odp_global.lock);
	if (_odp_global.inited) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_init_global: already initialized\n");
		return -1;
	}
	if (params->num_worker < 0 || params->num_control < 0 ||
	    params->num_worker + params->num_control > ODP_THREAD_COUNT_MAX) {
		_ODP_ERR("odp_init_global: bad thread counts %d + %d (max %d)\n",
			 params->num_worker, params->num_control, ODP_THREAD_COUNT_MAX);
		goto out;
	}
	_odp_global.log_fn = params->log_fn;
	_odp_global.abort_fn = params->abort_fn;
	_odp_global.mem_model = params->mem_model;
	if (params->num_worker == 0 && params->num_control == 0) {
		_odp_global.worker_max = ODP_THREAD_COUNT_MAX;
		_odp_global.control_max = ODP_THREAD_COUNT_MAX;
		_odp_global.thread_max = ODP_THREAD_COUNT_MAX;
	} else {
		_odp_global.worker_max = params->num_worker;
		_odp_global.control_max = params->num_control;
		_odp_global.thread_max = params->num_worker + params->num_control;
	}
	_odp_global.worker_cpus_set = params->worker_cpus != NULL;
	if (params->worker_cpus)
		odp_cpumask_copy(&_odp_global.worker_cpus, params->worker_cpus);
	_odp_global.control_cpus_set = params->control_cpus != NULL;
	if (params->control_cpus)
		odp_cpumask_copy(&_odp_global.control_cpus, params->control_cpus);
	_odp_global.num_worker = 0;
	_odp_global.num_control = 0;
	memset(_odp_global.thr_used, 0, sizeof(_odp_global.thr_used));

	_odp_global.pools = _odp_map(sizeof(_odp_pool_t) * _ODP_MAX_POOLS);
	_odp_global.pktios = _odp_map(sizeof(_odp_pktio_entry_t) * _ODP_MAX_PKTIOS);
	_odp_global.shm = calloc(_ODP_MAX_SHM, _odp_shm_block_size);
	if (!_odp_global.pools || !_odp_global.pktios || !_odp_global.shm) {
		_ODP_ERR("odp_init_global: out of memory\n");
		free_tables();
		goto out;
	}
	for (int i = 0; i < _ODP_MAX_PKTIOS; i++)
		_odp_global.pktios[i].index = i;
#ifdef ODP_BUNDLED_PKTIO_DPDK
	if (_odp_dpdk_init_global() != 0) {
		free_tables();
		goto out;
	}
#endif

	_odp_global.instance = (odp_instance_t)getpid() << 8 | 1;
	*instance = _odp_global.instance;
	_odp_global.inited = 1;
	ret = 0;
out:
	pthread_mutex_unlock(&_odp_global.lock);
	return ret;
}

int odp_term_global(odp_instance_t instance)
{
	int leaks = 0;
	int n;

	pthread_mutex_lock(&_odp_global.lock);
	if (!_odp_global.inited || instance != _odp_global.instance) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_term_global: not initialized\n");
		return -1;
	}
	if (_odp_global.num_worker + _odp_global.num_control > 0) {
		_ODP_ERR("odp_term_global: %d threads have not called odp_term_local()\n",
			 _odp_global.num_worker + _odp_global.num_control);
		leaks++;
	}
	pthread_mutex_unlock(&_odp_global.lock);

	n = _odp_pktio_close_all();
	if (n) {
		_ODP_ERR("odp_term_global: %d pktio(s) still open, closed now\n", n);
		leaks++;
	}

	leaks += _odp_pool_destroy_all();

	pthread_mutex_lock(&_odp_global.lock);
	n = _odp_shm_free_all();
	if (n) {
		_ODP_ERR("odp_term_global: %d shared memory block(s) not freed, freed now\n", n);
		leaks++;
	}
	free_tables();
#ifdef ODP_BUNDLED_PKTIO_DPDK
	_odp_dpdk_term_global();
#endif
	_odp_global.inited = 0;
	_odp_global.log_fn = NULL;
	_odp_global.abort_fn = NULL;
	pthread_mutex_unlock(&_odp_global.lock);
	return leaks ? -1 : 0;
}

int odp_init_local(odp_instance_t instance, odp_thread_type_t thr_type)
{
	int id = -1;

	pthread_mutex_lock(&_odp_global.lock);
	if (!_odp_global.inited || instance != _odp_global.instance) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_init_local: bad instance\n");
		return -1;
	}
	if (_odp_thr_id >= 0) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_init_local: thread %d already initialized\n", _odp_thr_id);
		return -1;
	}
	if (thr_type == ODP_THREAD_WORKER ? _odp_global.num_worker >= _odp_global.worker_max :
	    _odp_global.num_control >= _odp_global.control_max) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_init_local: too many %s threads\n",
			 thr_type == ODP_THREAD_WORKER ? "worker" : "control");
		return -1;
	}
	for (int i = 0; i < _odp_global.thread_max; i++) {
		if (!_odp_global.thr_used[i]) {
			id = i;
			break;
		}
	}
	if (id < 0) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_init_local: too many threads\n");
		return -1;
	}
	_odp_global.thr_used[id] = 1;
	if (thr_type == ODP_THREAD_WORKER)
		_odp_global.num_worker++;
	else
		_odp_global.num_control++;
	_odp_thr_id = id;
	_odp_thr_type = thr_type;
	pthread_mutex_unlock(&_odp_global.lock);
#ifdef ODP_BUNDLED_PKTIO_DPDK
	_odp_dpdk_init_local();
#endif
	return 0;
}

int odp_term_local(void)
{
	int id = _odp_thr_id;
	int left;

	if (id < 0) {
		_ODP_ERR("odp_term_local: thread not initialized\n");
		return -1;
	}
	_odp_pool_flush_thread(id);
#ifdef ODP_BUNDLED_PKTIO_DPDK
	_odp_dpdk_term_local();
#endif
	pthread_mutex_lock(&_odp_global.lock);
	_odp_global.thr_used[id] = 0;
	if (_odp_thr_type == ODP_THREAD_WORKER)
		_odp_global.num_worker--;
	else
		_odp_global.num_control--;
	left = _odp_global.num_worker + _odp_global.num_control;
	pthread_mutex_unlock(&_odp_global.lock);
	_odp_thr_id = -1;
	return left > 0 ? 1 : 0;
}

int odp_instance(odp_instance_t *instance)
{
	if (!_odp_global.inited || _odp_thr_id < 0)
		return -1;
	*instance = _odp_global.instance;
	return 0;
}

uint64_t odp_instance_to_u64(odp_instance_t instance)
{
	return (uint64_t)instance;
}

/* ---- Threads ---- */

int odp_thread_id(void)
{
	return _odp_thr_id;
}

static int locked_read(const int *val)
{
	int v;

	pthread_mutex_lock(&_odp_global.lock);
	v = *val;
	pthread_mutex_unlock(&_odp_global.lock);
	return v;
}

int odp_thread_count(void)
{
	int v;

	pthread_mutex_lock(&_odp_global.lock);
	v = _odp_global.num_worker + _odp_global.num_control;
	pthread_mutex_unlock(&_odp_global.lock);
	return v;
}

int odp_thread_control_count(void)
{
	return locked_read(&_odp_global.num_control);
}

int odp_thread_worker_count(void)
{
	return locked_read(&_odp_global.num_worker);
}

int odp_thread_count_max(void)
{
	return _odp_global.thread_max;
}

int odp_thread_control_count_max(void)
{
	return _odp_global.control_max;
}

int odp_thread_worker_count_max(void)
{
	return _odp_global.worker_max;
}

odp_thread_type_t odp_thread_type(void)
{
	return _odp_thr_type;
}

/* ---- Version ---- */

#define _ODP_STR2(x) #x
#define _ODP_STR(x) _ODP_STR2(x)

const char *odp_version_api_str(void)
{
	return _ODP_STR(ODP_VERSION_API_GENERATION) "." _ODP_STR(ODP_VERSION_API_MAJOR) "."
	       _ODP_STR(ODP_VERSION_API_MINOR);
}

const char *odp_version_impl_name(void)
{
	return "odp-bundled";
}

const char *odp_version_impl_str(void)
{
	return "odp-bundled (p4odp) " _ODP_STR(ODP_VERSION_API_GENERATION) "."
	       _ODP_STR(ODP_VERSION_API_MAJOR) "." _ODP_STR(ODP_VERSION_API_MINOR);
}
