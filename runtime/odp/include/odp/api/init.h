/* Bundled ODP: global and per-thread initialization (odp/api/init.h). */
#ifndef ODP_BUNDLED_API_INIT_H_
#define ODP_BUNDLED_API_INIT_H_

#include <odp/api/std_types.h>
#include <odp/api/hints.h>
#include <odp/api/thread_types.h>
#include <odp/api/cpumask.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Handle of an ODP instance, from odp_init_global(). */
typedef uint64_t odp_instance_t;

/** Platform specific parameters; the bundled ODP has none. */
typedef struct odp_platform_init_t {
	char dummy;
} odp_platform_init_t;

/** Severity of a log message. */
typedef enum {
	ODP_LOG_DBG,
	ODP_LOG_WARN,
	ODP_LOG_ERR,
	ODP_LOG_UNIMPLEMENTED,
	ODP_LOG_ABORT,
	ODP_LOG_PRINT
} odp_log_level_t;

/** Log function: printf-like, returns the number of characters written. */
typedef int (*odp_log_func_t)(odp_log_level_t level, const char *fmt, ...) ODP_PRINTF_FORMAT(2, 3);

/** Abort function: called on fatal errors, must not return. */
typedef void (*odp_abort_func_t)(void) ODP_NORETURN;

/** Memory model of the application. */
typedef enum {
	/** Threads of one process (the bundled ODP supports this one). */
	ODP_MEM_MODEL_THREAD = 0,
	/** Processes forked after odp_init_global(). Accepted; handles and
	 *  pools stay valid across fork(), pktio state does not. */
	ODP_MEM_MODEL_PROCESS
} odp_mem_model_t;

/** Global initialization parameters; set defaults with odp_init_param_init(). */
typedef struct odp_init_t {
	/** Largest number of worker threads at a time (0 with num_control 0: default). */
	int num_worker;
	/** Largest number of control threads at a time. */
	int num_control;
	/** CPUs for worker threads, NULL for the default choice. */
	const odp_cpumask_t *worker_cpus;
	/** CPUs for control threads, NULL for the default choice. */
	const odp_cpumask_t *control_cpus;
	/** Replaces the default log function (stderr) when not NULL. */
	odp_log_func_t log_fn;
	/** Replaces the default abort function (abort()) when not NULL. */
	odp_abort_func_t abort_fn;
	/** Features the application does not use (hints only). */
	odp_feature_t not_used;
	/** Memory model; default ODP_MEM_MODEL_THREAD. */
	odp_mem_model_t mem_model;
	/** Shared memory parameters. */
	struct {
		/** Largest total of shared memory reserved at a time, 0: not set. */
		uint64_t max_memory;
	} shm;
} odp_init_t;

/** Set odp_init_t to its defaults. */
void odp_init_param_init(odp_init_t *param);

/**
 * Initialize the ODP instance. Called once, by the main thread, before any
 * other ODP call except odp_init_param_init(); then the main thread calls
 * odp_init_local() too. params and platform_params may be NULL.
 * Returns 0 on success, <0 on failure.
 */
int odp_init_global(odp_instance_t *instance, const odp_init_t *params,
		    const odp_platform_init_t *platform_params);

/**
 * Join the calling thread to the instance; every thread calls it before
 * other ODP calls. Gives the thread its odp_thread_id().
 * Returns 0 on success, <0 on failure.
 */
int odp_init_local(odp_instance_t instance, odp_thread_type_t thr_type);

/**
 * Leave the instance: the thread's pool caches return to their pools.
 * Returns 1 when other threads remain, 0 when this was the last one,
 * <0 on failure.
 */
int odp_term_local(void);

/**
 * Terminate the instance after all threads have called odp_term_local().
 * Returns 0 on success, <0 on failure (such as pools, pktios or shared
 * memory still in use, which are reported and released anyway).
 */
int odp_term_global(odp_instance_t instance);

/** Log and abort functions in use. */
odp_log_func_t odp_log_fn_get(void);
odp_abort_func_t odp_abort_fn_get(void);

/** Handle of the instance the calling thread belongs to; 0 or <0. */
int odp_instance(odp_instance_t *instance);

/** Printable value of an instance handle. */
uint64_t odp_instance_to_u64(odp_instance_t instance);

#ifdef __cplusplus
}
#endif

#endif
