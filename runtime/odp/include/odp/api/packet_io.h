/* Bundled ODP: packet I/O (odp/api/packet_io.h).
 *
 * Device names given to odp_pktio_open():
 *   pcap:in=FILE[:out=FILE][:loops=N]  read a pcap file (N passes, 0: for
 *   pcap:out=FILE                      ever, default 1), write sent packets
 *   loop, loopN                        sent packets are received back
 *   anything else                      Linux interface, AF_PACKET mmap rings
 *
 * Setup: odp_pktio_open(), odp_pktin_queue_config(),
 * odp_pktout_queue_config(), [odp_pktio_config()], odp_pktio_start().
 * Teardown: odp_pktio_stop(), odp_pktio_close().
 */
#ifndef ODP_BUNDLED_API_PACKET_IO_H_
#define ODP_BUNDLED_API_PACKET_IO_H_

#include <odp/api/packet_io_types.h>
#include <odp/api/packet_io_stats.h>
#include <odp/api/time_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Open an interface. Packets it receives come from 'pool'. param may be
 * NULL for defaults (direct input and output). A device can be open once.
 * Returns ODP_PKTIO_INVALID on failure.
 */
odp_pktio_t odp_pktio_open(const char *name, odp_pool_t pool,
			   const odp_pktio_param_t *param);

int odp_pktio_capability(odp_pktio_t pktio, odp_pktio_capability_t *capa);

/** Largest pktio index, see odp_pktio_index(). */
unsigned int odp_pktio_max_index(void);

/** Set interface options before start; NULL for defaults. 0 or <0. */
int odp_pktio_config(odp_pktio_t pktio, const odp_pktio_config_t *config);

/** Set up the input queues (while stopped); NULL for one queue. 0 or <0. */
int odp_pktin_queue_config(odp_pktio_t pktio, const odp_pktin_queue_param_t *param);

/** Set up the output queues (while stopped); NULL for one queue. 0 or <0. */
int odp_pktout_queue_config(odp_pktio_t pktio, const odp_pktout_queue_param_t *param);

/**
 * Direct input queues: writes up to 'num' handles to queues[] (may be NULL)
 * and returns the number of queues configured, <0 on failure.
 */
int odp_pktin_queue(odp_pktio_t pktio, odp_pktin_queue_t queues[], int num);

/** Direct output queues, as odp_pktin_queue(). */
int odp_pktout_queue(odp_pktio_t pktio, odp_pktout_queue_t queues[], int num);

/** Start receiving and sending. 0 or <0. */
int odp_pktio_start(odp_pktio_t pktio);

/** Stop receiving and sending; a pcap output file is flushed. 0 or <0. */
int odp_pktio_stop(odp_pktio_t pktio);

/** Close a stopped interface; packets it still holds are freed. 0 or <0. */
int odp_pktio_close(odp_pktio_t pktio);

/** The open interface with this name, or ODP_PKTIO_INVALID. */
odp_pktio_t odp_pktio_lookup(const char *name);

/**
 * Receive up to 'num' packets from an input queue without waiting.
 * Returns the number received (0 when none, also when the interface is not
 * started), <0 on failure.
 */
int odp_pktin_recv(odp_pktin_queue_t queue, odp_packet_t packets[], int num);

/**
 * As odp_pktin_recv(), but waits up to 'wait' (from odp_pktin_wait_time(),
 * or ODP_PKTIN_NO_WAIT) for the first packet.
 */
int odp_pktin_recv_tmo(odp_pktin_queue_t queue, odp_packet_t packets[], int num,
		       uint64_t wait);

/**
 * Receive from the first of several input queues that has packets, waiting
 * up to 'wait'. The index of that queue in queues[] goes to *from (when not
 * NULL).
 */
int odp_pktin_recv_mq_tmo(const odp_pktin_queue_t queues[], uint32_t num_q, uint32_t *from,
			  odp_packet_t packets[], int num, uint64_t wait);

/** Wait parameter for 'nsec' nanoseconds. */
uint64_t odp_pktin_wait_time(uint64_t nsec);

/**
 * Send packets. Returns the number accepted (from the start of packets[]),
 * which the interface now owns and frees; the caller keeps the rest.
 * Accepted packets longer than odp_pktout_maxlen() are dropped and counted
 * in out_discards. Returns 0 when the interface is not started, <0 on
 * failure (bad queue).
 */
int odp_pktout_send(odp_pktout_queue_t queue, const odp_packet_t packets[], int num);

/** Promiscuous mode: set 0 or <0; query 1 on, 0 off, <0 failure. */
int odp_pktio_promisc_mode_set(odp_pktio_t pktio, odp_bool_t enable);
int odp_pktio_promisc_mode(odp_pktio_t pktio);

/** Largest frame (Ethernet header to end of payload) received and sent; 0 on failure. */
uint32_t odp_pktin_maxlen(odp_pktio_t pktio);
uint32_t odp_pktout_maxlen(odp_pktio_t pktio);

/**
 * MAC address into mac_addr (size >= 6, ODP_PKTIO_MACADDR_MAXSIZE is
 * enough). Returns its length, <0 on failure.
 */
int odp_pktio_mac_addr(odp_pktio_t pktio, void *mac_addr, int size);

/** Index of the interface: 0 ... odp_pktio_max_index(), <0 on failure. */
int odp_pktio_index(odp_pktio_t pktio);

uint64_t odp_pktio_to_u64(odp_pktio_t pktio);

void odp_pktio_param_init(odp_pktio_param_t *param);
void odp_pktin_queue_param_init(odp_pktin_queue_param_t *param);
void odp_pktout_queue_param_init(odp_pktout_queue_param_t *param);
void odp_pktio_config_init(odp_pktio_config_t *config);

void odp_pktio_print(odp_pktio_t pktio);

odp_pktio_link_status_t odp_pktio_link_status(odp_pktio_t pktio);

int odp_pktio_info(odp_pktio_t pktio, odp_pktio_info_t *info);

#ifdef __cplusplus
}
#endif

#endif
