/* Bundled ODP: thread identifiers and counts (odp/api/thread.h). */
#ifndef ODP_BUNDLED_API_THREAD_H_
#define ODP_BUNDLED_API_THREAD_H_

#include <odp/api/thread_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Identifier of the calling thread, 0 ... odp_thread_count_max() - 1.
 * Given by odp_init_local() (lowest free one first) and freed by
 * odp_term_local(). -1 in a thread that has not called odp_init_local().
 */
int odp_thread_id(void);

/** Number of threads that have called odp_init_local() and not odp_term_local(). */
int odp_thread_count(void);
int odp_thread_control_count(void);
int odp_thread_worker_count(void);

/** Maximum number of threads of each kind, as set by odp_init_global(). */
int odp_thread_count_max(void);
int odp_thread_control_count_max(void);
int odp_thread_worker_count_max(void);

/** Type of the calling thread. */
odp_thread_type_t odp_thread_type(void);

#ifdef __cplusplus
}
#endif

#endif
