/* Bundled ODP: standard types (odp/api/std_types.h). */
#ifndef ODP_BUNDLED_API_STD_TYPES_H_
#define ODP_BUNDLED_API_STD_TYPES_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>

#include <odp/api/align.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Boolean: zero is false, anything else true. */
typedef bool odp_bool_t;

/** Percentage in hundredths of a percent (0 ... 10000). */
typedef uint32_t odp_percent_t;

/** Unaligned integer types, for loads and stores at any address. */
typedef uint16_t odp_una_u16_t ODP_ALIGNED(1);
typedef uint32_t odp_una_u32_t ODP_ALIGNED(1);
typedef uint64_t odp_una_u64_t ODP_ALIGNED(1);

/** Capability answer: not supported, supported, or supported and preferred. */
typedef enum odp_support_t {
	ODP_SUPPORT_NO = 0,
	ODP_SUPPORT_YES,
	ODP_SUPPORT_PREFERRED
} odp_support_t;

/** Set of API features, used to tell the implementation what is not used. */
typedef union odp_feature_t {
	uint32_t all_feat;
	struct {
		uint32_t cls:1;
		uint32_t compress:1;
		uint32_t crypto:1;
		uint32_t dma:1;
		uint32_t ipsec:1;
		uint32_t ml:1;
		uint32_t schedule:1;
		uint32_t stash:1;
		uint32_t time:1;
		uint32_t timer:1;
		uint32_t tm:1;
	} feat;
} odp_feature_t;

#ifdef __cplusplus
}
#endif

#endif
