/* Bundled ODP: byte order conversion (odp/api/byteorder.h). */
#ifndef ODP_BUNDLED_API_BYTEORDER_H_
#define ODP_BUNDLED_API_BYTEORDER_H_

#include <odp/api/std_types.h>

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(__BYTE_ORDER__) || !defined(__ORDER_LITTLE_ENDIAN__)
#error "compiler does not tell the byte order"
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ODP_LITTLE_ENDIAN          1
#define ODP_BIG_ENDIAN             0
#define ODP_BYTE_ORDER             ODP_LITTLE_ENDIAN
#define ODP_LITTLE_ENDIAN_BITFIELD 1
#define ODP_BIG_ENDIAN_BITFIELD    0
#define ODP_BITFIELD_ORDER         ODP_LITTLE_ENDIAN_BITFIELD
#else
#define ODP_LITTLE_ENDIAN          0
#define ODP_BIG_ENDIAN             1
#define ODP_BYTE_ORDER             ODP_BIG_ENDIAN
#define ODP_LITTLE_ENDIAN_BITFIELD 0
#define ODP_BIG_ENDIAN_BITFIELD    1
#define ODP_BITFIELD_ORDER         ODP_BIG_ENDIAN_BITFIELD
#endif

/* Integers tagged with their byte order (documentation only, no checking). */
typedef uint16_t odp_u16le_t;
typedef uint16_t odp_u16be_t;
typedef uint32_t odp_u32le_t;
typedef uint32_t odp_u32be_t;
typedef uint64_t odp_u64le_t;
typedef uint64_t odp_u64be_t;
typedef uint16_t odp_u16sum_t;
typedef uint32_t odp_u32sum_t;

#if ODP_BYTE_ORDER == ODP_LITTLE_ENDIAN
#define _ODP_BE16(x) __builtin_bswap16(x)
#define _ODP_BE32(x) __builtin_bswap32(x)
#define _ODP_BE64(x) __builtin_bswap64(x)
#define _ODP_LE16(x) (x)
#define _ODP_LE32(x) (x)
#define _ODP_LE64(x) (x)
#else
#define _ODP_BE16(x) (x)
#define _ODP_BE32(x) (x)
#define _ODP_BE64(x) (x)
#define _ODP_LE16(x) __builtin_bswap16(x)
#define _ODP_LE32(x) __builtin_bswap32(x)
#define _ODP_LE64(x) __builtin_bswap64(x)
#endif

static inline uint16_t odp_be_to_cpu_16(odp_u16be_t v) { return _ODP_BE16(v); }
static inline uint32_t odp_be_to_cpu_32(odp_u32be_t v) { return _ODP_BE32(v); }
static inline uint64_t odp_be_to_cpu_64(odp_u64be_t v) { return _ODP_BE64(v); }
static inline odp_u16be_t odp_cpu_to_be_16(uint16_t v) { return _ODP_BE16(v); }
static inline odp_u32be_t odp_cpu_to_be_32(uint32_t v) { return _ODP_BE32(v); }
static inline odp_u64be_t odp_cpu_to_be_64(uint64_t v) { return _ODP_BE64(v); }
static inline uint16_t odp_le_to_cpu_16(odp_u16le_t v) { return _ODP_LE16(v); }
static inline uint32_t odp_le_to_cpu_32(odp_u32le_t v) { return _ODP_LE32(v); }
static inline uint64_t odp_le_to_cpu_64(odp_u64le_t v) { return _ODP_LE64(v); }
static inline odp_u16le_t odp_cpu_to_le_16(uint16_t v) { return _ODP_LE16(v); }
static inline odp_u32le_t odp_cpu_to_le_32(uint32_t v) { return _ODP_LE32(v); }
static inline odp_u64le_t odp_cpu_to_le_64(uint64_t v) { return _ODP_LE64(v); }

#ifdef __cplusplus
}
#endif

#endif
