/* psa.p4 -- the Portable Switch Architecture (PSA), as shipped with p4odp.
 *
 * PSA is a switch with two pipelines, ingress and egress, each a parser,
 * a control and a deparser, joined by a packet replication engine (PRE:
 * unicast, multicast, clones) and a buffering and queueing engine (BQE).
 * Packets may be resubmitted to ingress or recirculated from egress.
 *
 * This file is API-compatible with p4c's bmv2/psa.p4: the same
 * declarations, parameters, annotations and type widths, so P4Info and
 * programs written against that file are the same here.  dpdk/psa.p4
 * defines __PSA_DPDK__ before including it, which adds the overloads
 * p4c's dpdk/psa.p4 has (counting and metering with a packet length).
 */

#ifndef __PSA_P4__
#define __PSA_P4__

#include "core.p4"

/* ---- Data plane types ------------------------------------------------- */

/* <name>Uint_t are plain bit<W> aliases for arithmetic; <name>_t are new
 * types, so the control plane API sees (and translates) every value of
 * them.  The widths are those of BMv2's psa_switch, equal to the
 * InHeader widths below. */
typedef bit<32> PortIdUint_t;
typedef bit<32> MulticastGroupUint_t;
typedef bit<16> CloneSessionIdUint_t;
typedef bit<8>  ClassOfServiceUint_t;
typedef bit<16> PacketLengthUint_t;
typedef bit<16> EgressInstanceUint_t;
typedef bit<64> TimestampUint_t;

@p4runtime_translation("p4.org/psa/v1/PortId_t", 32)
type PortIdUint_t         PortId_t;
@p4runtime_translation("p4.org/psa/v1/MulticastGroup_t", 32)
type MulticastGroupUint_t MulticastGroup_t;
@p4runtime_translation("p4.org/psa/v1/CloneSessionId_t", 16)
type CloneSessionIdUint_t CloneSessionId_t;
@p4runtime_translation("p4.org/psa/v1/ClassOfService_t", 8)
type ClassOfServiceUint_t ClassOfService_t;
@p4runtime_translation("p4.org/psa/v1/PacketLength_t", 16)
type PacketLengthUint_t   PacketLength_t;
@p4runtime_translation("p4.org/psa/v1/EgressInstance_t", 16)
type EgressInstanceUint_t EgressInstance_t;
@p4runtime_translation("p4.org/psa/v1/Timestamp_t", 64)
type TimestampUint_t      Timestamp_t;
typedef error   ParserError_t;

// Ports with a special meaning when chosen as egress_port.
const PortId_t PSA_PORT_RECIRCULATE = (PortId_t) 0xfffffffa;
const PortId_t PSA_PORT_CPU = (PortId_t) 0xfffffffd;

const CloneSessionId_t PSA_CLONE_SESSION_TO_CPU = (CloneSessionId_t) 0;

/* The same values as carried in packet headers to and from the controller:
 * target-independent widths, each a multiple of 8.  The data plane does
 * not translate them; the program converts with the functions below. */
typedef bit<32> PortIdInHeaderUint_t;
typedef bit<32> MulticastGroupInHeaderUint_t;
typedef bit<16> CloneSessionIdInHeaderUint_t;
typedef bit<8>  ClassOfServiceInHeaderUint_t;
typedef bit<16> PacketLengthInHeaderUint_t;
typedef bit<16> EgressInstanceInHeaderUint_t;
typedef bit<64> TimestampInHeaderUint_t;

@p4runtime_translation("p4.org/psa/v1/PortIdInHeader_t", 32)
type  PortIdInHeaderUint_t         PortIdInHeader_t;
@p4runtime_translation("p4.org/psa/v1/MulticastGroupInHeader_t", 32)
type  MulticastGroupInHeaderUint_t MulticastGroupInHeader_t;
@p4runtime_translation("p4.org/psa/v1/CloneSessionIdInHeader_t", 16)
type  CloneSessionIdInHeaderUint_t CloneSessionIdInHeader_t;
@p4runtime_translation("p4.org/psa/v1/ClassOfServiceInHeader_t", 8)
type  ClassOfServiceInHeaderUint_t ClassOfServiceInHeader_t;
@p4runtime_translation("p4.org/psa/v1/PacketLengthInHeader_t", 16)
type  PacketLengthInHeaderUint_t   PacketLengthInHeader_t;
@p4runtime_translation("p4.org/psa/v1/EgressInstanceInHeader_t", 16)
type  EgressInstanceInHeaderUint_t EgressInstanceInHeader_t;
@p4runtime_translation("p4.org/psa/v1/TimestampInHeader_t", 64)
type  TimestampInHeaderUint_t      TimestampInHeader_t;

/* Conversions between a value in a header (<name>InHeader_t) and the data
 * plane's own (<name>_t): out of the new type, change width, into the
 * other new type. */
PortId_t psa_PortId_header_to_int(in PortIdInHeader_t x) {
    return (PortId_t) (PortIdUint_t) (PortIdInHeaderUint_t) x;
}
MulticastGroup_t psa_MulticastGroup_header_to_int(in MulticastGroupInHeader_t x) {
    return (MulticastGroup_t) (MulticastGroupUint_t) (MulticastGroupInHeaderUint_t) x;
}
CloneSessionId_t psa_CloneSessionId_header_to_int(in CloneSessionIdInHeader_t x) {
    return (CloneSessionId_t) (CloneSessionIdUint_t) (CloneSessionIdInHeaderUint_t) x;
}
ClassOfService_t psa_ClassOfService_header_to_int(in ClassOfServiceInHeader_t x) {
    return (ClassOfService_t) (ClassOfServiceUint_t) (ClassOfServiceInHeaderUint_t) x;
}
PacketLength_t psa_PacketLength_header_to_int(in PacketLengthInHeader_t x) {
    return (PacketLength_t) (PacketLengthUint_t) (PacketLengthInHeaderUint_t) x;
}
EgressInstance_t psa_EgressInstance_header_to_int(in EgressInstanceInHeader_t x) {
    return (EgressInstance_t) (EgressInstanceUint_t) (EgressInstanceInHeaderUint_t) x;
}
Timestamp_t psa_Timestamp_header_to_int(in TimestampInHeader_t x) {
    return (Timestamp_t) (TimestampUint_t) (TimestampInHeaderUint_t) x;
}

PortIdInHeader_t psa_PortId_int_to_header(in PortId_t x) {
    return (PortIdInHeader_t) (PortIdInHeaderUint_t) (PortIdUint_t) x;
}
MulticastGroupInHeader_t psa_MulticastGroup_int_to_header(in MulticastGroup_t x) {
    return (MulticastGroupInHeader_t) (MulticastGroupInHeaderUint_t) (MulticastGroupUint_t) x;
}
CloneSessionIdInHeader_t psa_CloneSessionId_int_to_header(in CloneSessionId_t x) {
    return (CloneSessionIdInHeader_t) (CloneSessionIdInHeaderUint_t) (CloneSessionIdUint_t) x;
}
ClassOfServiceInHeader_t psa_ClassOfService_int_to_header(in ClassOfService_t x) {
    return (ClassOfServiceInHeader_t) (ClassOfServiceInHeaderUint_t) (ClassOfServiceUint_t) x;
}
PacketLengthInHeader_t psa_PacketLength_int_to_header(in PacketLength_t x) {
    return (PacketLengthInHeader_t) (PacketLengthInHeaderUint_t) (PacketLengthUint_t) x;
}
EgressInstanceInHeader_t psa_EgressInstance_int_to_header(in EgressInstance_t x) {
    return (EgressInstanceInHeader_t) (EgressInstanceInHeaderUint_t) (EgressInstanceUint_t) x;
}
TimestampInHeader_t psa_Timestamp_int_to_header(in Timestamp_t x) {
    return (TimestampInHeader_t) (TimestampInHeaderUint_t) (TimestampUint_t) x;
}

// Values of a table's psa_idle_timeout property.
enum PSA_IdleTimeout_t {
    NO_TIMEOUT,
    NOTIFY_CONTROL
}

/* ---- Intrinsic metadata ----------------------------------------------- */

// How the packet came to the block that reads this.
enum PSA_PacketPath_t {
    NORMAL,            // ingress: arrived from a port
    NORMAL_UNICAST,    // egress: sent by ingress to one port
    NORMAL_MULTICAST,  // egress: a copy of a multicast group
    CLONE_I2E,         // egress: a clone made in ingress
    CLONE_E2E,         // egress: a clone made in egress
    RESUBMIT,          // ingress: resubmitted by the ingress deparser
    RECIRCULATE        // ingress: recirculated by the egress deparser
}

struct psa_ingress_parser_input_metadata_t {
    PortId_t                 ingress_port;
    PSA_PacketPath_t         packet_path;
}

struct psa_egress_parser_input_metadata_t {
    PortId_t                 egress_port;
    PSA_PacketPath_t         packet_path;
}

struct psa_ingress_input_metadata_t {
    PortId_t                 ingress_port;
    PSA_PacketPath_t         packet_path;
    Timestamp_t              ingress_timestamp;
    ParserError_t            parser_error;
}

// Ingress's decisions; the initial value of each field is in its comment.
struct psa_ingress_output_metadata_t {
    ClassOfService_t         class_of_service;  // 0
    bool                     clone;             // false
    CloneSessionId_t         clone_session_id;  // undefined
    bool                     drop;              // true
    bool                     resubmit;          // false
    MulticastGroup_t         multicast_group;   // 0
    PortId_t                 egress_port;       // undefined
}

struct psa_egress_input_metadata_t {
    ClassOfService_t         class_of_service;
    PortId_t                 egress_port;
    PSA_PacketPath_t         packet_path;
    EgressInstance_t         instance;  // copy number given by the PRE
    Timestamp_t              egress_timestamp;
    ParserError_t            parser_error;
}

// For the egress deparser: recirculate when egress_port is PSA_PORT_RECIRCULATE.
struct psa_egress_deparser_input_metadata_t {
    PortId_t                 egress_port;
}

// Egress's decisions, with their initial values.
struct psa_egress_output_metadata_t {
    bool                     clone;             // false
    CloneSessionId_t         clone_session_id;  // undefined
    bool                     drop;              // false
}

/* Deparser predicates: true when the packet leaves by the path named.
 * Each out metadata parameter of a deparser (clone_i2e_meta, ...) may only
 * be assigned under the matching predicate. */

// istd.clone
@pure
extern bool psa_clone_i2e(in psa_ingress_output_metadata_t istd);

// !istd.drop && istd.resubmit
@pure
extern bool psa_resubmit(in psa_ingress_output_metadata_t istd);

// !istd.drop && !istd.resubmit: unicast or multicast to egress
@pure
extern bool psa_normal(in psa_ingress_output_metadata_t istd);

// istd.clone
@pure
extern bool psa_clone_e2e(in psa_egress_output_metadata_t istd);

// !istd.drop && edstd.egress_port == PSA_PORT_RECIRCULATE
@pure
extern bool psa_recirculate(in psa_egress_output_metadata_t istd,
                            in psa_egress_deparser_input_metadata_t edstd);

/* When `check` is false, log the failing statement (the target may then
 * stop).  assume() is the same on a target; formal tools take it as a
 * precondition instead of a property to prove. */
extern void assert(in bool check);
extern void assume(in bool check);

// Match kinds PSA adds to exact, ternary and lpm.
match_kind {
    range,     // value within [low, high]
    selector,  // key of an ActionSelector's hash
    optional   // exact, or "don't care" for the whole field
}

/* ---- Forwarding actions ----------------------------------------------- */

// Send one copy to egress, then to `egress_port`.  Clone and resubmit unchanged.
@noWarn("unused")
action send_to_port(inout psa_ingress_output_metadata_t meta,
                    in PortId_t egress_port)
{
    meta.drop = false;
    meta.multicast_group = (MulticastGroup_t) 0;
    meta.egress_port = egress_port;
}

// Send a copy to egress for each member of `multicast_group`.
@noWarn("unused")
action multicast(inout psa_ingress_output_metadata_t meta,
                 in MulticastGroup_t multicast_group)
{
    meta.drop = false;
    meta.multicast_group = multicast_group;
}

// Send nothing to egress and do not resubmit; a clone is still made.
@noWarn("unused")
action ingress_drop(inout psa_ingress_output_metadata_t meta)
{
    meta.drop = true;
}

// Send nothing out; a clone is still made.
@noWarn("unused")
action egress_drop(inout psa_egress_output_metadata_t meta)
{
    meta.drop = true;
}

/* ---- Externs ---------------------------------------------------------- */

// The PRE and BQE have no methods: their instances name them to the control plane.
extern PacketReplicationEngine {
    PacketReplicationEngine();
}

extern BufferingQueueingEngine {
    BufferingQueueingEngine();
}

enum PSA_HashAlgorithm_t {
    IDENTITY,
    CRC32,
    CRC32_CUSTOM,
    CRC16,
    CRC16_CUSTOM,
    ONES_COMPLEMENT16,  // the IPv4, TCP and UDP checksum sum
    TARGET_DEFAULT      // chosen by the target
}

// A hash function whose result is an O (bit<W>).
extern Hash<O> {
    Hash(PSA_HashAlgorithm_t algo);

    @pure
    O get_hash<D>(in D data);

    // base + (hash(data) % max); targets may restrict max to powers of 2.
    @pure
    O get_hash<T, D>(in T base, in D data, in T max);
}

// A checksum of type W, per packet; cleared each time its block starts.
extern Checksum<W> {
    Checksum(PSA_HashAlgorithm_t hash);
    void clear();
    void update<T>(in T data);
    @noSideEffects
    W    get();
}

/* The ones' complement checksum of IPv4, TCP and UDP, incrementally
 * updatable (RFC 1624).  add() and subtract() take multiples of 16 bits;
 * get_state() and set_state() save and restore a partial sum. */
extern InternetChecksum {
    InternetChecksum();
    void clear();
    void add<T>(in T data);
    void subtract<T>(in T data);
    @noSideEffects
    bit<16> get();
    @noSideEffects
    bit<16> get_state();
    void set_state(in bit<16> checksum_state);
}

enum PSA_CounterType_t {
    PACKETS,
    BYTES,
    PACKETS_AND_BYTES
}

// n_counters counters of width W, indexed by an S, read by the control plane.
@noWarn("unused")
extern Counter<W, S> {
    Counter(bit<32> n_counters, PSA_CounterType_t type);
    void count(in S index);
#ifdef __PSA_DPDK__
    // DPDK: count pkt_len bytes (the overload without it counts packets only).
    void count(in S index, in bit<32> pkt_len);
#endif
}

// One counter per entry of the table whose `psa_direct_counter` names it.
@noWarn("unused")
extern DirectCounter<W> {
    DirectCounter(PSA_CounterType_t type);
    void count();
#ifdef __PSA_DPDK__
    void count(in bit<32> pkt_len);
#endif
}

enum PSA_MeterType_t {
    PACKETS,
    BYTES
}

enum PSA_MeterColor_t { RED, GREEN, YELLOW }

/* n_meters two-rate three-colour meters (RFC 2698), indexed by an S.
 * With `color` the update is colour-aware; without, colour-blind (as if
 * GREEN). */
extern Meter<S> {
    Meter(bit<32> n_meters, PSA_MeterType_t type);
    PSA_MeterColor_t execute(in S index, in PSA_MeterColor_t color);
    PSA_MeterColor_t execute(in S index);
#ifdef __PSA_DPDK__
    // DPDK: byte meters take the packet length; a distinct name, since
    // overloads are told apart by their number of parameters.
    PSA_MeterColor_t dpdk_execute(in S index, in PSA_MeterColor_t color, in bit<32> pkt_len);
    PSA_MeterColor_t dpdk_execute(in S index, in bit<32> pkt_len);
#endif
}

// One meter per entry of the table whose `psa_direct_meter` names it.
extern DirectMeter {
    DirectMeter(PSA_MeterType_t type);
    PSA_MeterColor_t execute(in PSA_MeterColor_t color);
    PSA_MeterColor_t execute();
#ifdef __PSA_DPDK__
    PSA_MeterColor_t dpdk_execute(in PSA_MeterColor_t color, in bit<32> pkt_len);
    PSA_MeterColor_t dpdk_execute(in bit<32> pkt_len);
#endif
}

// `size` values of type T, indexed by an S; undefined until written
// unless `initial_value` is given.
extern Register<T, S> {
    Register(bit<32> size);
    Register(bit<32> size, T initial_value);
    @noSideEffects
    T    read  (in S index);
    void write (in S index, in T value);
}

// Random values in [min, max]; targets may require max - min + 1 to be a power of 2.
extern Random<T> {
    Random(T min, T max);
    T read();
}

// Table implementation whose entries point to `size` shared action members.
extern ActionProfile {
    ActionProfile(bit<32> size);
}

// As ActionProfile, a group member chosen by hashing the `selector` keys
// with `algo` into outputWidth bits.
extern ActionSelector {
    ActionSelector(PSA_HashAlgorithm_t algo, bit<32> size, bit<32> outputWidth);
}

// A stream of T values to the control plane; pack() sends one.
extern Digest<T> {
    Digest();
    void pack(in T data);
}

/* ---- Architecture ----------------------------------------------------- */

/* H: headers, M: user metadata.  RESUBM, RECIRCM, CI2EM, CE2EM and NM: the
 * metadata carried with a resubmitted, recirculated, I2E or E2E cloned and
 * normal packet, written by a deparser and read by the next parser. */

parser IngressParser<H, M, RESUBM, RECIRCM>(
    packet_in buffer,
    out H parsed_hdr,
    inout M user_meta,
    in psa_ingress_parser_input_metadata_t istd,
    in RESUBM resubmit_meta,
    in RECIRCM recirculate_meta);

control Ingress<H, M>(
    inout H hdr, inout M user_meta,
    in    psa_ingress_input_metadata_t  istd,
    inout psa_ingress_output_metadata_t ostd);

control IngressDeparser<H, M, CI2EM, RESUBM, NM>(
    packet_out buffer,
    out CI2EM clone_i2e_meta,
    out RESUBM resubmit_meta,
    out NM normal_meta,
    inout H hdr,
    in M meta,
    in psa_ingress_output_metadata_t istd);

parser EgressParser<H, M, NM, CI2EM, CE2EM>(
    packet_in buffer,
    out H parsed_hdr,
    inout M user_meta,
    in psa_egress_parser_input_metadata_t istd,
    in NM normal_meta,
    in CI2EM clone_i2e_meta,
    in CE2EM clone_e2e_meta);

control Egress<H, M>(
    inout H hdr, inout M user_meta,
    in    psa_egress_input_metadata_t  istd,
    inout psa_egress_output_metadata_t ostd);

control EgressDeparser<H, M, CE2EM, RECIRCM>(
    packet_out buffer,
    out CE2EM clone_e2e_meta,
    out RECIRCM recirculate_meta,
    inout H hdr,
    in M meta,
    in psa_egress_output_metadata_t istd,
    in psa_egress_deparser_input_metadata_t edstd);

package IngressPipeline<IH, IM, NM, CI2EM, RESUBM, RECIRCM>(
    IngressParser<IH, IM, RESUBM, RECIRCM> ip,
    Ingress<IH, IM> ig,
    IngressDeparser<IH, IM, CI2EM, RESUBM, NM> id);

package EgressPipeline<EH, EM, NM, CI2EM, CE2EM, RECIRCM>(
    EgressParser<EH, EM, NM, CI2EM, CE2EM> ep,
    Egress<EH, EM> eg,
    EgressDeparser<EH, EM, CE2EM, RECIRCM> ed);

package PSA_Switch<IH, IM, EH, EM, NM, CI2EM, CE2EM, RESUBM, RECIRCM>(
    IngressPipeline<IH, IM, NM, CI2EM, RESUBM, RECIRCM> ingress,
    PacketReplicationEngine pre,
    EgressPipeline<EH, EM, NM, CI2EM, CE2EM, RECIRCM> egress,
    BufferingQueueingEngine bqe);

#endif  /* __PSA_P4__ */
