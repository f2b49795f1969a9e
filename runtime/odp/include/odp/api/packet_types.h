/* Bundled ODP: packet types (odp/api/packet_types.h). */
#ifndef ODP_BUNDLED_API_PACKET_TYPES_H_
#define ODP_BUNDLED_API_PACKET_TYPES_H_

#include <odp/api/std_types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _odp_bundled_packet_s *odp_packet_t;
typedef struct _odp_bundled_packet_seg_s *odp_packet_seg_t;

#define ODP_PACKET_INVALID        ((odp_packet_t)0)
#define ODP_PACKET_SEG_INVALID    ((odp_packet_seg_t)0)
#define ODP_PACKET_OFFSET_INVALID 0xffff

typedef enum {
	ODP_PACKET_GREEN = 0,
	ODP_PACKET_YELLOW = 1,
	ODP_PACKET_RED = 2,
	ODP_PACKET_ALL_COLORS = 3,
} odp_packet_color_t;

typedef enum {
	ODP_PACKET_CHKSUM_UNKNOWN = 0,
	ODP_PACKET_CHKSUM_BAD,
	ODP_PACKET_CHKSUM_OK
} odp_packet_chksum_status_t;

/** Protocol layers parsed by a pktio (the bundled ODP parses none). */
typedef enum odp_proto_layer_t {
	ODP_PROTO_LAYER_NONE = 0,
	ODP_PROTO_LAYER_L2,
	ODP_PROTO_LAYER_L3,
	ODP_PROTO_LAYER_L4,
	ODP_PROTO_LAYER_ALL
} odp_proto_layer_t;

#ifdef __cplusplus
}
#endif

#endif
