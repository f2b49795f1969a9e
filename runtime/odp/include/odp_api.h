/*
 * The bundled OpenDataPlane implementation of p4odp: the subset of the ODP
 * API (v1.4x) that the p4odp runtime uses, with the same names, types and
 * semantics as the ODP headers, so that the same code builds against this
 * library or a system ODP (odp-linux, odp-dpdk). See runtime/odp/README.md.
 */
#ifndef ODP_API_H_
#define ODP_API_H_

#include <odp/api/std_types.h>
#include <odp/api/align.h>
#include <odp/api/hints.h>
#include <odp/api/debug.h>
#include <odp/api/byteorder.h>
#include <odp/api/version.h>
#include <odp/api/cpu.h>
#include <odp/api/cpumask.h>
#include <odp/api/sync.h>
#include <odp/api/atomic.h>
#include <odp/api/spinlock.h>
#include <odp/api/ticketlock.h>
#include <odp/api/barrier.h>
#include <odp/api/thread_types.h>
#include <odp/api/thread.h>
#include <odp/api/init.h>
#include <odp/api/time_types.h>
#include <odp/api/time.h>
#include <odp/api/shared_memory.h>
#include <odp/api/event_types.h>
#include <odp/api/pool_types.h>
#include <odp/api/pool.h>
#include <odp/api/packet_types.h>
#include <odp/api/packet.h>
#include <odp/api/packet_io_types.h>
#include <odp/api/packet_io_stats.h>
#include <odp/api/packet_io.h>

#endif
