/* Bundled ODP: alignment macros (odp/api/align.h). */
#ifndef ODP_BUNDLED_API_ALIGN_H_
#define ODP_BUNDLED_API_ALIGN_H_

#if !defined(__GNUC__) && !defined(__clang__)
#error "the bundled ODP needs a GCC-compatible compiler"
#endif

/** Cache line size of the target, in bytes. */
#if defined(__powerpc__) || defined(__powerpc64__)
#define ODP_CACHE_LINE_SIZE 128
#else
#define ODP_CACHE_LINE_SIZE 64
#endif

/** Page size assumed for alignment. */
#define ODP_PAGE_SIZE 4096

#define ODP_ALIGNED(x)                 __attribute__((__aligned__(x)))
#define ODP_PACKED                     __attribute__((__packed__))
#define ODP_OFFSETOF(type, member)     __builtin_offsetof(type, member)
#define ODP_FIELD_SIZEOF(type, member) sizeof(((type *)0)->member)

#define ODP_ALIGNED_CACHE ODP_ALIGNED(ODP_CACHE_LINE_SIZE)
#define ODP_ALIGNED_PAGE  ODP_ALIGNED(ODP_PAGE_SIZE)

/** Round x up to a multiple of the cache line size. */
#define ODP_CACHE_LINE_ROUNDUP(x) \
	((ODP_CACHE_LINE_SIZE) * (((x) + (ODP_CACHE_LINE_SIZE) - 1) / (ODP_CACHE_LINE_SIZE)))

#endif
