/* Bundled ODP: pools (odp/api/pool.h). */
#ifndef ODP_BUNDLED_API_POOL_H_
#define ODP_BUNDLED_API_POOL_H_

#include <odp/api/pool_types.h>

#ifdef __cplusplus
extern "C" {
#endif

int odp_pool_capability(odp_pool_capability_t *capa);

/** Set odp_pool_param_t to its defaults (type ODP_POOL_PACKET is still to be set). */
void odp_pool_param_init(odp_pool_param_t *param);

/**
 * Create a pool. Only ODP_POOL_PACKET is supported. 'name' may be NULL.
 * Returns ODP_POOL_INVALID on failure.
 */
odp_pool_t odp_pool_create(const char *name, const odp_pool_param_t *param);

/**
 * Destroy a pool. Fails (<0) while any packet of it is allocated or a
 * pktio still uses it.
 */
int odp_pool_destroy(odp_pool_t pool);

/** Pool with this name, or ODP_POOL_INVALID. */
odp_pool_t odp_pool_lookup(const char *name);

int odp_pool_info(odp_pool_t pool, odp_pool_info_t *info);

void odp_pool_print(odp_pool_t pool);

/** Pool index: 0 ... odp_pool_max_index(). */
int odp_pool_index(odp_pool_t pool);
unsigned int odp_pool_max_index(void);

uint64_t odp_pool_to_u64(odp_pool_t hdl);

#ifdef __cplusplus
}
#endif

#endif
