/*
 * p4odp_wire.h: the binary control channel (protocol 2), the control-plane
 * API (p4odp_control.h) as length-prefixed messages.
 *
 * A client of the control channel sends the line "binary"; once answered
 * "ok 0", the connection carries only these frames (no events: those go to
 * text connections).  All integers are big-endian.
 *
 *   request:   u32 length, then `length` bytes: u16 op, its arguments
 *   answer:    u32 length, then `length` bytes: i32 status (0 or a negative
 *              errno, as the API returns), then the op's results when 0
 *
 * Encodings, for table T (its key fields and their match kinds, from the
 * program's metadata), W the bytes of a field, ceil(width / 8):
 *   MATCH      i32 priority (the larger wins), then per key field:
 *              exact W value; lpm u16 prefix_len, W value; ternary W value,
 *              W mask; range W low, W high; optional u8 wildcard, W value
 *   CALL       u32 action, u32 ref (member or group id), u16 n, n bytes of
 *              the action's parameters (n: their byte sizes' sum)
 *   PORTS      P4ODP_PORT_NUMBERS / 8 bytes: bit p of byte p / 8 (bit 0 the
 *              lowest) is port p
 *   RATES      u8 configured, then when 1: f64 committed rate, u64 committed
 *              burst, f64 peak rate, u64 peak burst (f64: IEEE 754 bits)
 *   CLONE      u32 group (0: the replicas), u32 truncate (bytes, 0: whole), u32 class of
 *              service, u32 n, n x (u32 port, u32 rid)
 *
 * Ops, their arguments -> their results:
 */
#ifndef P4ODP_WIRE_H_
#define P4ODP_WIRE_H_

#define P4ODP_WIRE_VERSION 2
#define P4ODP_WIRE_MAX_FRAME (64u << 20)	/* bytes of a frame's body: a larger one closes the connection */

/* Tables: u32 table first; an entry named by its MATCH (its handle found) or its handle.
 * ENTRIES -> u32 n, n x (u64 handle, MATCH, CALL); DEFAULT -> CALL, u8 1 when it is the program's
 * (not set since the start or the last DEFAULT_RESET). */
#define P4ODP_OP_ENTRY_ADD 1		/* MATCH, CALL -> u64 handle */
#define P4ODP_OP_ENTRY_MODIFY 2		/* MATCH, CALL */
#define P4ODP_OP_ENTRY_DELETE 3		/* MATCH */
#define P4ODP_OP_ENTRY_FIND 4		/* MATCH -> u64 handle */
#define P4ODP_OP_ENTRY 5		/* u64 handle -> MATCH, CALL */
#define P4ODP_OP_ENTRIES 6
#define P4ODP_OP_TABLE_CLEAR 7
#define P4ODP_OP_DEFAULT_SET 8		/* CALL */
#define P4ODP_OP_DEFAULT_RESET 9
#define P4ODP_OP_DEFAULT 10
/* Idle timeouts (tables with support_timeout), in nanoseconds. */
#define P4ODP_OP_ENTRY_TTL 11		/* MATCH, u64 ttl (0: none) */
#define P4ODP_OP_ENTRY_TIMER 12		/* u64 handle -> u64 ttl, u64 idle (since its last hit) */
#define P4ODP_OP_TIMERS 13		/* -> u32 n, n x (u64 handle, u64 ttl, u64 idle) */
/* What a controller keeps with an entry: NOTE, u64 cookie, u32 n, n bytes. */
#define P4ODP_OP_ENTRY_NOTE_SET 14	/* MATCH, NOTE */
#define P4ODP_OP_ENTRY_NOTE 15		/* u64 handle -> NOTE */
#define P4ODP_OP_NOTES 16		/* -> u32 n, n x (u64 handle, NOTE): the entries with a note */
/* Action profiles: u32 profile first; ids as P4ODP_ID_ANY or a caller's. */
#define P4ODP_OP_MEMBER_ADD 20		/* u32 id, CALL -> u32 id */
#define P4ODP_OP_MEMBER_MODIFY 21	/* u32 id, CALL */
#define P4ODP_OP_MEMBER_DELETE 22	/* u32 id */
#define P4ODP_OP_MEMBERS 23		/* -> u32 n, n x (u32 id, CALL) */
#define P4ODP_OP_GROUP_ADD 24		/* u32 id, u32 max_size -> u32 id */
#define P4ODP_OP_GROUP_SET 25		/* u32 id, u32 n, n x u32 member id */
#define P4ODP_OP_GROUP_DELETE 26	/* u32 id */
#define P4ODP_OP_GROUPS 27		/* -> u32 n, n x (u32 id, u32 max_size, u32 k, k x u32 member id) */
/* Packet replication. */
#define P4ODP_OP_MC_NODES 29		/* -> u32 n, n x (u32 node, u32 rid, PORTS, u32 group) */
#define P4ODP_OP_MC_GROUP_CREATE 30	/* u32 group */
#define P4ODP_OP_MC_GROUP_DESTROY 31	/* u32 group */
#define P4ODP_OP_MC_GROUP_SET 32	/* u32 group, u32 n, n x u32 node */
#define P4ODP_OP_MC_GROUPS 33		/* -> u32 n, n x (u32 group, u32 k, k x (u32 node, u32 rid, PORTS)) */
#define P4ODP_OP_MC_NODE_CREATE 34	/* u32 rid, PORTS -> u32 node */
#define P4ODP_OP_MC_NODE_UPDATE 35	/* u32 node, PORTS */
#define P4ODP_OP_MC_NODE_DESTROY 36	/* u32 node */
#define P4ODP_OP_CLONE_SET 37		/* u32 session, CLONE */
#define P4ODP_OP_CLONE_DELETE 38	/* u32 session */
#define P4ODP_OP_CLONES 39		/* -> u32 n, n x (u32 session, CLONE) */
/* Extern state. */
#define P4ODP_OP_COUNTER_READ 40	/* u32 counter, u64 index -> u64 packets, u64 bytes */
#define P4ODP_OP_COUNTER_WRITE 41	/* u32 counter, u64 index, u64 packets, u64 bytes */
#define P4ODP_OP_COUNTER_RESET 42	/* u32 counter */
#define P4ODP_OP_METER_SET 43		/* u32 meter, u64 index, RATES */
#define P4ODP_OP_METER_SET_ALL 44	/* u32 meter, RATES */
#define P4ODP_OP_METER 45		/* u32 meter, u64 index -> RATES */
#define P4ODP_OP_REGISTER_READ 46	/* u32 register, u32 index -> W value */
#define P4ODP_OP_REGISTER_WRITE 47	/* u32 register, u32 index, W value */
#define P4ODP_OP_REGISTER_RESET 48	/* u32 register */
#define P4ODP_OP_VALUE_SET_ADD 49	/* u32 set, W value */
#define P4ODP_OP_VALUE_SET_REMOVE 50	/* u32 set, W value */
#define P4ODP_OP_VALUE_SET_CLEAR 51	/* u32 set */
#define P4ODP_OP_VALUE_SETS 52		/* u32 set -> u32 n, n x W value */
/* The CPU port: the bytes after the op, a packet into the program as received on it. */
#define P4ODP_OP_PACKET_OUT 58
/* The program's objects, each kind's in index order (the indexes the ops take): for its tables,
 * action profiles, counters, meters, registers and value sets, u32 n, n x (u16 length, name);
 * then for its actions u32 n, n x (u32 id, u16 length, name). */
#define P4ODP_OP_OBJECTS 59
/* Several ops: u8 atomicity, u32 n, n x (u32 length, u16 op, its arguments) -> n x (u32 length,
 * i32 status, its results); the batch's status is its first failed op's, or 0. */
#define P4ODP_OP_BATCH 60
/* The connection carries lines again (answered first, as a frame). */
#define P4ODP_OP_TEXT 61
#define P4ODP_BATCH_CONTINUE_ON_ERROR 0	/* each op whatever the others' outcome */
#define P4ODP_BATCH_ROLLBACK_ON_ERROR 1	/* at the first failed op, those before it undone, the rest not run */
#define P4ODP_BATCH_DATAPLANE_ATOMIC 2	/* as ROLLBACK_ON_ERROR, and no packet sees a part of the batch */

#endif /* P4ODP_WIRE_H_ */
