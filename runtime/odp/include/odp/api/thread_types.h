/* Bundled ODP: thread types (odp/api/thread_types.h). */
#ifndef ODP_BUNDLED_API_THREAD_TYPES_H_
#define ODP_BUNDLED_API_THREAD_TYPES_H_

#ifdef __cplusplus
extern "C" {
#endif

/** Largest number of ODP threads one instance supports. */
#define ODP_THREAD_COUNT_MAX 256

/** Thread type, given to odp_init_local(). */
typedef enum odp_thread_type_e {
	/** Does the packet processing; usually one per dedicated CPU. */
	ODP_THREAD_WORKER = 0,
	/** Background and control plane work. */
	ODP_THREAD_CONTROL
} odp_thread_type_t;

#ifdef __cplusplus
}
#endif

#endif
