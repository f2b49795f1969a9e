/* v1model.p4 -- the v1model architecture, as shipped with p4odp.
 *
 * v1model is the P4_16 description of the P4_14 switch model that BMv2's
 * simple_switch implements: parser, checksum verification, ingress, traffic
 * manager, egress, checksum update, deparser.  p4odp follows simple_switch's
 * behaviour for it (see BMv2's docs/simple_switch.md), including the order in
 * which drop, clone, resubmit, recirculate and multicast take effect at the
 * end of ingress and egress.
 *
 * This file is API-compatible with the v1model.p4 distributed with p4c: the
 * same declarations, parameters, annotations and version switches.
 *
 * Versions.  A program may `#define V1MODEL_VERSION N` before including this
 * file.  Without it, version 20180101 is assumed.  From 20200408 on, ports
 * have the type PortId_t and the counter, meter and register index types are
 * type parameters (I) instead of bit<32>.
 *
 * A note on digests: the values sent to the control plane are those the
 * fields hold when digest() is called, not when ingress ends (as some P4_14
 * implementations did).
 */

#ifndef _V1_MODEL_P4_
#define _V1_MODEL_P4_

#include "core.p4"

#ifndef V1MODEL_VERSION
#define V1MODEL_VERSION 20180101
#endif
#if V1MODEL_VERSION < 20180101 || V1MODEL_VERSION > 20200408
#error "unknown v1model version: the supported versions are 20180101 to 20200408"
#endif

// Match kinds v1model adds to exact, ternary and lpm.
match_kind {
    range,     // value within [low, high]
    optional,  // exact, or "don't care" for the whole field
    selector   // key of an action_selector's hash
}

// The version the program was compiled for, visible to the program.
const bit<32> __v1model_version = V1MODEL_VERSION;

#if V1MODEL_VERSION >= 20200408
typedef bit<9>  PortId_t;
#endif

/* Per-packet intrinsic metadata.  Field names, widths and order are those
 * of simple_switch.  @alias names the BMv2 field each one stands for.
 *
 * Times are BMv2's: microseconds since the switch started, taken once per
 * burst of received packets.  ingress_global_timestamp is set when a packet
 * received begins ingress (0 in a resubmitted or recirculated one unless its
 * field list keeps it), egress_global_timestamp when a copy begins egress.
 * p4odp's switch has no queues between ingress and egress: a copy is dequeued
 * as it is enqueued, so in egress enq_timestamp is that time too (cut to 32
 * bits), deq_timedelta is 0, and enq_qdepth and deq_qdepth are 0. */
@metadata @name("standard_metadata")
struct standard_metadata_t {
#if V1MODEL_VERSION >= 20200408
    PortId_t    ingress_port;   // port the packet arrived on
    PortId_t    egress_spec;    // port chosen by ingress (511: drop)
    PortId_t    egress_port;    // port the packet leaves by (egress only)
#else
    bit<9>      ingress_port;
    bit<9>      egress_spec;
    bit<9>      egress_port;
#endif
    bit<32>     instance_type;  // normal, clone, resubmit, recirculate, ...
    bit<32>     packet_length;  // bytes, as received

    // Queueing information, valid in egress.
    @alias("queueing_metadata.enq_timestamp")
    bit<32> enq_timestamp;      // microseconds, when enqueued
    @alias("queueing_metadata.enq_qdepth")
    bit<19> enq_qdepth;         // queue depth when enqueued
    @alias("queueing_metadata.deq_timedelta")
    bit<32> deq_timedelta;      // microseconds spent in the queue
    @alias("queueing_metadata.deq_qdepth")
    bit<19> deq_qdepth;         // queue depth when dequeued

    @alias("intrinsic_metadata.ingress_global_timestamp")
    bit<48> ingress_global_timestamp;   // microseconds, at arrival
    @alias("intrinsic_metadata.egress_global_timestamp")
    bit<48> egress_global_timestamp;    // microseconds, at start of egress
    @alias("intrinsic_metadata.mcast_grp")
    bit<16> mcast_grp;          // multicast group to replicate to (0: none)
    @alias("intrinsic_metadata.egress_rid")
    bit<16> egress_rid;         // replication id of this multicast copy
    bit<1>  checksum_error;     // 1 when a verify_checksum() failed
    error   parser_error;       // error the parser ended with
    @alias("intrinsic_metadata.priority")
    bit<3> priority;            // packet priority (queue selection)
}

enum CounterType {
    packets,
    bytes,
    packets_and_bytes
}

enum MeterType {
    packets,
    bytes
}

/* ---- Stateful externs ------------------------------------------------- */

/* An array of `size` counters, indexed from 0.  Each counts packets, bytes
 * or both, as `type` says.  Only the control plane can read them; use a
 * register for state the program reads itself. */
extern counter
#if V1MODEL_VERSION >= 20200408
<I>
#endif
{
    counter(bit<32> size, CounterType type);

    // Atomically add this packet to counter `index`.  An index >= size
    // updates nothing.
#if V1MODEL_VERSION >= 20200408
    void count(in I index);
#else
    void count(in bit<32> index);
#endif
}

/* One counter per entry of the table it is attached to, through the table
 * property `counters = <instance>;` (at most one table per instance).  The
 * entry that matched is counted whether or not its action calls count(). */
extern direct_counter {
    direct_counter(CounterType type);
    void count();
}

// Colours written by the meters' execute_meter() and read().
#define V1MODEL_METER_COLOR_GREEN  0
#define V1MODEL_METER_COLOR_YELLOW 1
#define V1MODEL_METER_COLOR_RED    2

/* An array of `size` two-rate three-colour meters (RFC 2698), metering
 * packets or bytes as `type` says. */
extern meter
#if V1MODEL_VERSION >= 20200408
<I>
#endif
{
    meter(bit<32> size, MeterType type);

    // Atomically update meter `index` and write its colour (0 green,
    // 1 yellow, 2 red) to `result`, which must be bit<W> with W >= 2.
    // For an index >= size the result is unspecified.
#if V1MODEL_VERSION >= 20200408
    void execute_meter<T>(in I index, out T result);
#else
    void execute_meter<T>(in bit<32> index, out T result);
#endif
}

/* One meter per entry of the table it is attached to, through the table
 * property `meters = <instance>;` (at most one table per instance).  The
 * matching entry's meter is updated when the table is applied; read() is
 * only allowed in that table's actions and returns the colour. */
extern direct_meter<T> {
    direct_meter(MeterType type);
    void read(out T result);
}

/* An array of `size` values of type T (bit<W>) that the program reads and
 * writes, e.g. `register<bit<32>>(512) r;`.  As on BMv2, the accesses of one
 * action, or of one @atomic block (the actions of the tables it applies
 * included), are atomic with respect to other packets: it holds the locks of
 * the registers it uses from its start to its end.  A read and a write in
 * the control's body outside both are not. */
#if V1MODEL_VERSION >= 20200408
extern register<T, I>
#else
extern register<T>
#endif
{
    register(bit<32> size);

    // result := element `index`; unspecified when index >= size.
    @noSideEffects
#if V1MODEL_VERSION >= 20200408
    void read(out T result, in I index);
#else
    void read(out T result, in bit<32> index);
#endif

    // element `index` := value; nothing happens when index >= size.
#if V1MODEL_VERSION >= 20200408
    void write(in I index, in T value);
#else
    void write(in bit<32> index, in T value);
#endif
}

/* Table implementation (`implementation = <instance>;`) whose entries
 * point to shared action members instead of holding an action each. */
extern action_profile {
    action_profile(bit<32> size);
}

/* ---- Extern functions ------------------------------------------------- */

// result := a random value in [lo, hi]; unspecified when lo > hi.
// T must be bit<W>.
extern void random<T>(out T result, in T lo, in T hi);

/* Send `data` (its values at the time of the call) to the control plane.
 * Ingress only.  When T is a named struct, its name names the digest in
 * the control-plane API.  `receiver` is ignored, as in BMv2. */
extern void digest<T>(in bit<32> receiver, in T data);

enum HashAlgorithm {
    crc32,
    crc32_custom,
    crc16,
    crc16_custom,
    random,
    identity,
    csum16,
    xor16
}

@deprecated("Please use mark_to_drop(standard_metadata) instead.")
extern void mark_to_drop();

/* Set egress_spec to the drop port and mcast_grp to 0.  Later assignments
 * to those fields undo the drop. */
@pure
extern void mark_to_drop(inout standard_metadata_t standard_metadata);

/* result := base + (algo(data) mod max), or base when max is 0.
 * O, T and M are bit<W> types, of any widths; D is a tuple (list) of bit,
 * int or varbit fields. */
@pure
extern void hash<O, T, D, M>(out O result, in HashAlgorithm algo, in T base, in D data, in M max);

/* Table implementation (`implementation = <instance>;`) that picks one
 * member of a group by hashing the table's `selector` key fields. */
extern action_selector {
    action_selector(HashAlgorithm algorithm, bit<32> size, bit<32> outputWidth);
}

enum CloneType {
    I2E,  // clone in ingress, the copy goes to egress
    E2E   // clone in egress, the copy goes to egress again
}

@deprecated("Please use verify_checksum/update_checksum instead.")
extern Checksum16 {
    Checksum16();
    bit<16> get<D>(in D data);
}

/* Checksums.  `data` is a tuple (list) of bit, int or varbit fields whose
 * total width is a multiple of the width of `checksum` (a bit<W>); `algo`
 * must be a compile-time constant.  When `condition` is false nothing is
 * checked or changed.
 *
 * verify_checksum: if algo(data) != checksum, standard_metadata's
 * checksum_error is 1 when ingress begins.  VerifyChecksum control only. */
extern void verify_checksum<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);

// checksum := algo(data).  ComputeChecksum control only.
@pure
extern void update_checksum<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

// As verify_checksum, with the payload (the bytes the parser did not
// extract) appended to `data`.
extern void verify_checksum_with_payload<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);

// As update_checksum, with the payload appended to `data`.
@noSideEffects
extern void update_checksum_with_payload<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

/* ---- Packet copies: clone, resubmit, recirculate ---------------------- */

/* Field lists.  The *_preserving_field_list functions carry over to the
 * new packet the user metadata fields annotated with @field_list(index),
 * e.g. given
 *     struct meta_t { @field_list(1) bit<32> x; @field_list(1, 2) bit<32> y; }
 * index 1 keeps x and y, index 2 keeps y only.  If one of them is called
 * several times in one control, the last call wins. */

// clone_preserving_field_list with no field kept.
extern void clone(in CloneType type, in bit<32> session);

@deprecated("Please use 'resubmit_preserving_field_list' instead")
extern void resubmit<T>(in T data);

/* At the end of ingress, send the packet as it was received back to the
 * parser, with instance_type marking it as resubmitted.  Ingress only: p4odp
 * refuses it elsewhere, as p4c's BMv2 back end does. */
extern void resubmit_preserving_field_list(bit<8> index);

@deprecated("Please use 'recirculate_preserving_field_list' instead")
extern void recirculate<T>(in T data);

/* At the end of egress, send the deparsed packet back to the parser, with
 * instance_type marking it as recirculated.  Called in ingress, it is
 * simple_switch's: the packet's own copy (not a multicast replica nor a
 * clone) is recirculated at the end of its egress, unless egress drops it. */
extern void recirculate_preserving_field_list(bit<8> index);

@deprecated("Please use 'clone_preserving_field_list' instead")
extern void clone3<T>(in CloneType type, in bit<32> session, in T data);

/* Make copies of the packet as mirror session `session` (configured by the
 * control plane) says; each copy goes through egress on its own while the
 * original carries on.  `type` is I2E in ingress and E2E in egress. */
extern void clone_preserving_field_list(in CloneType type, in bit<32> session, bit<8> index);

// Send at most `length` bytes of the packet.
extern void truncate(in bit<32> length);

/* ---- Debugging and verification --------------------------------------- */

/* If `check` is false, report the failing assertion (file and line); BMv2
 * then exits.  Compiled out with --ndebug.  Avoid side effects in `check`. */
extern void assert(in bool check);

/* Same as assert on a target.  Formal tools read it as a precondition to
 * take for granted rather than a property to prove. */
extern void assume(in bool check);

/* Write a message to the log; with `data`, each "{}" in `msg` is replaced
 * by the next element, e.g.  log_msg("ttl={}", {hdr.ipv4.ttl}); */
extern void log_msg(string msg);
extern void log_msg<T>(string msg, in T data);

/* ---- Architecture ----------------------------------------------------- */

/* H: a struct of headers, header stacks and header unions.
 * M: a struct of user metadata.
 * The name `standard_metadata` is reserved. */

parser Parser<H, M>(packet_in b,
                    out H parsedHdr,
                    inout M meta,
                    inout standard_metadata_t standard_metadata);

// Body: blocks, verify_checksum* calls and return statements only.
control VerifyChecksum<H, M>(inout H hdr,
                             inout M meta);

@pipeline
control Ingress<H, M>(inout H hdr,
                      inout M meta,
                      inout standard_metadata_t standard_metadata);

@pipeline
control Egress<H, M>(inout H hdr,
                     inout M meta,
                     inout standard_metadata_t standard_metadata);

// Body: blocks, update_checksum* calls and return statements only.
control ComputeChecksum<H, M>(inout H hdr,
                              inout M meta);

// Body: packet_out.emit() calls only.
@deparser
control Deparser<H>(packet_out b, in H hdr);

package V1Switch<H, M>(Parser<H, M> p,
                       VerifyChecksum<H, M> vr,
                       Ingress<H, M> ig,
                       Egress<H, M> eg,
                       ComputeChecksum<H, M> ck,
                       Deparser<H> dep
                       );

#endif  /* _V1_MODEL_P4_ */
