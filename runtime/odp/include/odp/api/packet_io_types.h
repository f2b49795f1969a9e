/* Bundled ODP: packet I/O types (odp/api/packet_io_types.h).
 *
 * Structures keep the field names of the ODP API; fields of features the
 * bundled ODP lacks (event queues, scheduler, vectors, LSO, IPsec,
 * reassembly, TX completion) are left out, so code that sets them builds
 * only against a full ODP.
 */
#ifndef ODP_BUNDLED_API_PACKET_IO_TYPES_H_
#define ODP_BUNDLED_API_PACKET_IO_TYPES_H_

#include <odp/api/std_types.h>
#include <odp/api/packet_types.h>
#include <odp/api/pool_types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _odp_bundled_pktio_s *odp_pktio_t;

#define ODP_PKTIO_INVALID              ((odp_pktio_t)0)
/** Largest pktio index: at most 64 interfaces are open at a time. */
#define ODP_PKTIO_MAX_INDEX            63
#define ODP_PKTIO_MACADDR_MAXSIZE      16
/** odp_pktin_recv_tmo() wait value: do not wait. */
#define ODP_PKTIN_NO_WAIT              0
#define ODP_PKTIN_MAX_QUEUES           64
#define ODP_PKTOUT_MAX_QUEUES          64
#define ODP_PKTIO_STATS_EXTRA_NAME_LEN 64

/** Direct packet input queue: the pktio and the queue index. */
typedef struct odp_pktin_queue_t {
	odp_pktio_t pktio;
	int index;
} odp_pktin_queue_t;

/** Direct packet output queue: the pktio and the queue index. */
typedef struct odp_pktout_queue_t {
	odp_pktio_t pktio;
	int index;
} odp_pktout_queue_t;

/** Packet input mode. Only DIRECT and DISABLED are supported here. */
typedef enum odp_pktin_mode_t {
	ODP_PKTIN_MODE_DIRECT = 0,
	ODP_PKTIN_MODE_SCHED,
	ODP_PKTIN_MODE_QUEUE,
	ODP_PKTIN_MODE_DISABLED
} odp_pktin_mode_t;

/** Packet output mode. Only DIRECT and DISABLED are supported here. */
typedef enum odp_pktout_mode_t {
	ODP_PKTOUT_MODE_DIRECT = 0,
	ODP_PKTOUT_MODE_QUEUE,
	ODP_PKTOUT_MODE_TM,
	ODP_PKTOUT_MODE_DISABLED
} odp_pktout_mode_t;

/** Protocols hashed to spread packets over input queues. */
typedef union odp_pktin_hash_proto_t {
	struct {
		uint32_t ipv4_udp : 1;
		uint32_t ipv4_tcp : 1;
		uint32_t ipv4     : 1;
		uint32_t ipv6_udp : 1;
		uint32_t ipv6_tcp : 1;
		uint32_t ipv6     : 1;
	} proto;
	uint32_t all_bits;
} odp_pktin_hash_proto_t;

/** Queue operation mode: MT (default) locks the queue, MT_UNSAFE does not. */
typedef enum odp_pktio_op_mode_t {
	ODP_PKTIO_OP_MT = 0,
	ODP_PKTIO_OP_MT_UNSAFE
} odp_pktio_op_mode_t;

/** Packet input queue parameters. */
typedef struct odp_pktin_queue_param_t {
	odp_pktio_op_mode_t op_mode;
	/** Classifier: not supported, must be 0. */
	odp_bool_t classifier_enable;
	/** Spread packets over the queues by a flow hash (when num_queues > 1). */
	odp_bool_t hash_enable;
	odp_pktin_hash_proto_t hash_proto;
	/** Number of input queues, 1 ... odp_pktio_capability_t.max_input_queues. */
	uint32_t num_queues;
	/** Queue sizes in packets, 0: default. */
	uint32_t queue_size[ODP_PKTIN_MAX_QUEUES];
} odp_pktin_queue_param_t;

/** Packet output queue parameters. */
typedef struct odp_pktout_queue_param_t {
	odp_pktio_op_mode_t op_mode;
	uint32_t num_queues;
	uint32_t queue_size[ODP_PKTOUT_MAX_QUEUES];
} odp_pktout_queue_param_t;

/** Parameters of odp_pktio_open(). */
typedef struct odp_pktio_param_t {
	odp_pktin_mode_t in_mode;
	odp_pktout_mode_t out_mode;
} odp_pktio_param_t;

/** Packet input offloads (none supported here; must be 0). */
typedef union odp_pktin_config_opt_t {
	struct {
		uint64_t ts_all        : 1;
		uint64_t ts_ptp        : 1;
		uint64_t ipv4_chksum   : 1;
		uint64_t udp_chksum    : 1;
		uint64_t tcp_chksum    : 1;
		uint64_t sctp_chksum   : 1;
		uint64_t drop_ipv4_err : 1;
		uint64_t drop_ipv6_err : 1;
		uint64_t drop_udp_err  : 1;
		uint64_t drop_tcp_err  : 1;
		uint64_t drop_sctp_err : 1;
	} bit;
	uint64_t all_bits;
} odp_pktin_config_opt_t;

/** Packet output offloads (none supported here; must be 0). */
typedef union odp_pktout_config_opt_t {
	struct {
		uint64_t ts_ena          : 1;
		uint64_t ipv4_chksum_ena : 1;
		uint64_t udp_chksum_ena  : 1;
		uint64_t tcp_chksum_ena  : 1;
		uint64_t sctp_chksum_ena : 1;
		uint64_t ipv4_chksum     : 1;
		uint64_t udp_chksum      : 1;
		uint64_t tcp_chksum      : 1;
		uint64_t sctp_chksum     : 1;
		uint64_t no_packet_refs  : 1;
		uint64_t aging_ena       : 1;
		uint64_t proto_stats_ena : 1;
	} bit;
	uint64_t all_bits;
} odp_pktout_config_opt_t;

typedef struct odp_pktio_parser_config_t {
	/** Layers to parse; accepted and ignored (packets are not parsed). */
	odp_proto_layer_t layer;
} odp_pktio_parser_config_t;

typedef enum odp_pktio_link_pause_t {
	ODP_PKTIO_LINK_PAUSE_UNKNOWN = -1,
	ODP_PKTIO_LINK_PAUSE_OFF = 0,
	ODP_PKTIO_LINK_PAUSE_ON = 1,
	ODP_PKTIO_LINK_PFC_ON = 2
} odp_pktio_link_pause_t;

/** Interface options of odp_pktio_config(). */
typedef struct odp_pktio_config_t {
	odp_pktin_config_opt_t pktin;
	odp_pktout_config_opt_t pktout;
	odp_pktio_parser_config_t parser;
	/** Internal loopback: not supported, must be 0. */
	odp_bool_t enable_loop;
	odp_bool_t inbound_ipsec;
	odp_bool_t outbound_ipsec;
	odp_bool_t enable_lso;
	struct {
		odp_pktio_link_pause_t pause_rx;
		odp_pktio_link_pause_t pause_tx;
	} flow_control;
} odp_pktio_config_t;

/** Run-time changes the interface supports. */
typedef union odp_pktio_set_op_t {
	struct {
		uint32_t promisc_mode : 1;
		uint32_t mac_addr : 1;
		uint32_t skip_offset : 1;
		uint32_t maxlen : 1;
	} op;
	uint32_t all_bits;
} odp_pktio_set_op_t;

/** Which counters odp_pktio_stats() and the queue stats fill in. */
typedef struct odp_pktio_stats_capability_t {
	struct {
		union {
			struct {
				uint64_t in_octets      : 1;
				uint64_t in_packets     : 1;
				uint64_t in_ucast_pkts  : 1;
				uint64_t in_mcast_pkts  : 1;
				uint64_t in_bcast_pkts  : 1;
				uint64_t in_discards    : 1;
				uint64_t in_errors      : 1;
				uint64_t out_octets     : 1;
				uint64_t out_packets    : 1;
				uint64_t out_ucast_pkts : 1;
				uint64_t out_mcast_pkts : 1;
				uint64_t out_bcast_pkts : 1;
				uint64_t out_discards   : 1;
				uint64_t out_errors     : 1;
			} counter;
			uint64_t all_counters;
		};
	} pktio;
	struct {
		union {
			struct {
				uint64_t octets   : 1;
				uint64_t packets  : 1;
				uint64_t discards : 1;
				uint64_t errors   : 1;
			} counter;
			uint64_t all_counters;
		};
	} pktin_queue;
	struct {
		union {
			struct {
				uint64_t octets   : 1;
				uint64_t packets  : 1;
				uint64_t discards : 1;
				uint64_t errors   : 1;
			} counter;
			uint64_t all_counters;
		};
	} pktout_queue;
} odp_pktio_stats_capability_t;

/** Interface capabilities (the subset the bundled ODP has). */
typedef struct odp_pktio_capability_t {
	uint32_t max_input_queues;
	uint32_t min_input_queue_size;
	uint32_t max_input_queue_size;
	uint32_t max_output_queues;
	uint32_t min_output_queue_size;
	uint32_t max_output_queue_size;
	/** Options odp_pktio_config() accepts (bits set = supported). */
	odp_pktio_config_t config;
	odp_pktio_set_op_t set_op;
	struct {
		odp_bool_t equal;
		uint32_t min_input;
		uint32_t max_input;
		uint32_t min_output;
		uint32_t max_output;
	} maxlen;
	struct {
		uint32_t dont_free : 1;
	} free_ctrl;
	odp_pktio_stats_capability_t stats;
} odp_pktio_capability_t;

typedef enum odp_pktio_link_status_t {
	ODP_PKTIO_LINK_STATUS_UNKNOWN = -1,
	ODP_PKTIO_LINK_STATUS_DOWN = 0,
	ODP_PKTIO_LINK_STATUS_UP = 1
} odp_pktio_link_status_t;

/** Interface information from odp_pktio_info(). */
typedef struct odp_pktio_info_t {
	/** Name given to odp_pktio_open(). */
	const char *name;
	/** Driver: "pcap", "loop" or "socket_mmap". */
	const char *drv_name;
	odp_pool_t pool;
	odp_pktio_param_t param;
} odp_pktio_info_t;

#ifdef __cplusplus
}
#endif

#endif
