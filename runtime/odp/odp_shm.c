/* Bundled ODP: shared memory blocks, anonymous shared mappings. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "odp_internal.h"

typedef struct _odp_shm_block_t {
	int in_use;
	char name[ODP_SHM_NAME_LEN];
	void *addr;          /* aligned address given to the user */
	void *map;           /* start of the mapping */
	size_t map_len;
	uint64_t size;
	uint64_t page_size;
	uint32_t flags;
} _odp_shm_block_t;

const size_t _odp_shm_block_size = sizeof(_odp_shm_block_t);

static _odp_shm_block_t *block_of(odp_shm_t shm)
{
	_odp_shm_block_t *b = (_odp_shm_block_t *)(void *)shm;
	_odp_shm_block_t *tab = _odp_global.shm;

	if (!tab || b < tab || b >= tab + _ODP_MAX_SHM || !b->in_use)
		return NULL;
	return b;
}

/* Flags that reserve accepts: no sharing with other processes or instances. */
#define SUPPORTED_FLAGS (ODP_SHM_SINGLE_VA | ODP_SHM_HP | ODP_SHM_HW_ACCESS | ODP_SHM_NO_HP)
#define HUGE_PAGE_SIZE  (2u << 20)

int odp_shm_capability(odp_shm_capability_t *capa)
{
	memset(capa, 0, sizeof(*capa));
	capa->max_blocks = _ODP_MAX_SHM;
	capa->max_size = 0;
	capa->max_align = HUGE_PAGE_SIZE;
	capa->flags = SUPPORTED_FLAGS;
	return 0;
}

odp_shm_t odp_shm_reserve(const char *name, uint64_t size, uint64_t align, uint32_t flags)
{
	_odp_shm_block_t *b = NULL;
	int huge = (flags & ODP_SHM_HP) != 0;
	uint64_t page = huge ? HUGE_PAGE_SIZE : (uint64_t)sysconf(_SC_PAGESIZE);
	size_t map_len;
	void *map;
	uintptr_t addr;

	if (align == 0)
		align = ODP_CACHE_LINE_SIZE;
	if (size == 0 || (align & (align - 1)) != 0 || align > HUGE_PAGE_SIZE) {
		_ODP_ERR("odp_shm_reserve: bad size %" PRIu64 " or align %" PRIu64 "\n",
			 size, align);
		return ODP_SHM_INVALID;
	}
	if ((flags & ~(uint32_t)SUPPORTED_FLAGS) || (huge && (flags & ODP_SHM_NO_HP))) {
		_ODP_ERR("odp_shm_reserve: unsupported flags 0x%" PRIx32 "\n", flags);
		return ODP_SHM_INVALID;
	}
	/* Mappings are page aligned; map extra to align further.  A size_t
	 * of 32 bits cannot hold every uint64_t size. */
	if (size > SIZE_MAX - HUGE_PAGE_SIZE - page) {
		_ODP_ERR("odp_shm_reserve: size %" PRIu64 " is too large\n", size);
		return ODP_SHM_INVALID;
	}
	map_len = _odp_round_up(size + (align > page ? align : 0), page);
	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS | (huge ? MAP_HUGETLB : 0), -1, 0);
	if (map == MAP_FAILED) {
		_ODP_ERR("odp_shm_reserve: cannot map %zu bytes%s: %s\n", map_len,
			 huge ? " of huge pages" : "", strerror(errno));
		return ODP_SHM_INVALID;
	}
	addr = (uintptr_t)_odp_round_up((uintptr_t)map, align);

	pthread_mutex_lock(&_odp_global.lock);
	for (int i = 0; _odp_global.shm && i < _ODP_MAX_SHM; i++) {
		if (!_odp_global.shm[i].in_use) {
			b = &_odp_global.shm[i];
			break;
		}
	}
	if (b) {
		memset(b, 0, sizeof(*b));
		b->in_use = 1;
		snprintf(b->name, sizeof(b->name), "%s", name ? name : "");
		b->addr = (void *)addr;
		b->map = map;
		b->map_len = map_len;
		b->size = size;
		b->page_size = page;
		b->flags = flags;
	}
	pthread_mutex_unlock(&_odp_global.lock);
	if (!b) {
		munmap(map, map_len);
		_ODP_ERR("odp_shm_reserve: no free block (max %d)\n", _ODP_MAX_SHM);
		return ODP_SHM_INVALID;
	}
	return (odp_shm_t)(void *)b;
}

int odp_shm_free(odp_shm_t shm)
{
	_odp_shm_block_t *b;
	void *map;
	size_t len;

	pthread_mutex_lock(&_odp_global.lock);
	b = block_of(shm);
	if (!b) {
		pthread_mutex_unlock(&_odp_global.lock);
		_ODP_ERR("odp_shm_free: bad handle\n");
		return -1;
	}
	map = b->map;
	len = b->map_len;
	b->in_use = 0;
	pthread_mutex_unlock(&_odp_global.lock);
	munmap(map, len);
	return 0;
}

int _odp_shm_free_all(void)
{
	int n = 0;

	for (int i = 0; _odp_global.shm && i < _ODP_MAX_SHM; i++) {
		_odp_shm_block_t *b = &_odp_global.shm[i];

		if (b->in_use) {
			munmap(b->map, b->map_len);
			b->in_use = 0;
			n++;
		}
	}
	return n;
}

odp_shm_t odp_shm_lookup(const char *name)
{
	odp_shm_t found = ODP_SHM_INVALID;

	if (!name)
		return ODP_SHM_INVALID;
	pthread_mutex_lock(&_odp_global.lock);
	for (int i = 0; _odp_global.shm && i < _ODP_MAX_SHM; i++) {
		_odp_shm_block_t *b = &_odp_global.shm[i];

		if (b->in_use && strcmp(b->name, name) == 0) {
			found = (odp_shm_t)(void *)b;
			break;
		}
	}
	pthread_mutex_unlock(&_odp_global.lock);
	return found;
}

void *odp_shm_addr(odp_shm_t shm)
{
	_odp_shm_block_t *b = block_of(shm);

	return b ? b->addr : NULL;
}

int odp_shm_info(odp_shm_t shm, odp_shm_info_t *info)
{
	_odp_shm_block_t *b = block_of(shm);

	if (!b)
		return -1;
	memset(info, 0, sizeof(*info));
	info->name = b->name;
	info->addr = b->addr;
	info->size = b->size;
	info->page_size = b->page_size;
	info->flags = b->flags;
	info->num_seg = 1;
	return 0;
}

void odp_shm_print_all(void)
{
	_ODP_PRINT("shared memory blocks:\n");
	pthread_mutex_lock(&_odp_global.lock);
	for (int i = 0; _odp_global.shm && i < _ODP_MAX_SHM; i++) {
		_odp_shm_block_t *b = &_odp_global.shm[i];

		if (b->in_use)
			_ODP_PRINT("  %-24s %p %" PRIu64 " bytes\n", b->name, b->addr, b->size);
	}
	pthread_mutex_unlock(&_odp_global.lock);
}

uint64_t odp_shm_to_u64(odp_shm_t shm)
{
	return (uint64_t)(uintptr_t)shm;
}
