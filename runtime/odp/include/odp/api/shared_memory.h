/* Bundled ODP: shared memory blocks (odp/api/shared_memory.h). */
#ifndef ODP_BUNDLED_API_SHARED_MEMORY_H_
#define ODP_BUNDLED_API_SHARED_MEMORY_H_

#include <odp/api/std_types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _odp_bundled_shm_s *odp_shm_t;

#define ODP_SHM_INVALID      ((odp_shm_t)0)
#define ODP_SHM_NAME_LEN     64
#define ODP_SHM_IOVA_INVALID ((uint64_t)-1)
#define ODP_SHM_PA_INVALID   ODP_SHM_IOVA_INVALID

/* Reservation flags. Blocks are shared by the threads of the process (and
 * processes forked later), at one address. Sharing with other processes or
 * instances (ODP_SHM_PROC, ODP_SHM_EXPORT) is not supported: reserve fails.
 * ODP_SHM_HP reserves huge pages or fails. */
#define ODP_SHM_PROC      0x2
#define ODP_SHM_SINGLE_VA 0x4
#define ODP_SHM_EXPORT    0x08
#define ODP_SHM_HP        0x10
#define ODP_SHM_HW_ACCESS 0x20
#define ODP_SHM_NO_HP     0x40

typedef struct odp_shm_info_t {
	const char *name;
	void       *addr;
	uint64_t    size;
	uint64_t    page_size;
	uint32_t    flags;
	uint32_t    num_seg;
} odp_shm_info_t;

typedef struct odp_shm_capability_t {
	/** Largest number of blocks reserved at a time. */
	uint32_t max_blocks;
	/** Largest block size in bytes, 0: only limited by memory. */
	uint64_t max_size;
	/** Largest alignment in bytes. */
	uint64_t max_align;
	/** Supported flags. */
	uint32_t flags;
} odp_shm_capability_t;

int odp_shm_capability(odp_shm_capability_t *capa);

/**
 * Reserve a block of 'size' bytes aligned to 'align' (0: cache line), filled
 * with zeros. 'name' may be NULL and need not be unique.
 * Returns ODP_SHM_INVALID on failure.
 */
odp_shm_t odp_shm_reserve(const char *name, uint64_t size, uint64_t align, uint32_t flags);

/** Release a block: 0 on success, <0 on failure. */
int odp_shm_free(odp_shm_t shm);

/** A block reserved with this name, or ODP_SHM_INVALID. */
odp_shm_t odp_shm_lookup(const char *name);

/** Address of the block, NULL for an invalid handle. */
void *odp_shm_addr(odp_shm_t shm);

int odp_shm_info(odp_shm_t shm, odp_shm_info_t *info);

void odp_shm_print_all(void);

uint64_t odp_shm_to_u64(odp_shm_t shm);

#ifdef __cplusplus
}
#endif

#endif
