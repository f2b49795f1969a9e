/* pna.p4 -- the Portable NIC Architecture (PNA), as shipped with p4odp.
 *
 * PNA is a NIC between network ports and a host: one main pipeline
 * (parser, control, deparser) sees the packets of both directions, told
 * apart by `direction`.  A packet may loop back or be recirculated for
 * another pass.  The PNA specification is still a draft; so is this file.
 *
 * This file is API-compatible with p4c's pna.p4: the same declarations,
 * parameters, annotations and type widths.  dpdk/pna.p4 defines
 * __PNA_DPDK__ before including it, which selects the declarations of
 * p4c's dpdk/pna.p4 where the two differ (more hash algorithms, counter and
 * meter overloads with a packet length, the IPsec accelerator).
 */

#ifndef __PNA_P4__
#define __PNA_P4__

#include "core.p4"

/* ---- Data plane types ------------------------------------------------- */

/* <name>Uint_t are plain bit<W> aliases for arithmetic; <name>_t are new
 * types, so the control plane API sees (and translates) every value of
 * them.  The widths are placeholders; a target may choose its own. */
typedef bit<32> PortIdUint_t;
typedef bit<32> InterfaceIdUint_t;
typedef bit<32> MulticastGroupUint_t;
typedef bit<16> MirrorSessionIdUint_t;
typedef bit<8>  MirrorSlotIdUint_t;
typedef bit<8>  ClassOfServiceUint_t;
typedef bit<16> PacketLengthUint_t;
typedef bit<16> MulticastInstanceUint_t;
typedef bit<64> TimestampUint_t;
typedef bit<32> FlowIdUint_t;
typedef bit<8>  ExpireTimeProfileIdUint_t;
typedef bit<3>  PassNumberUint_t;

typedef bit<32> SecurityAssocIdUint_t;

@p4runtime_translation("p4.org/pna/v1/PortId_t", 32)
type PortIdUint_t         PortId_t;
@p4runtime_translation("p4.org/pna/v1/InterfaceId_t", 32)
type InterfaceIdUint_t    InterfaceId_t;
@p4runtime_translation("p4.org/pna/v1/MulticastGroup_t", 32)
type MulticastGroupUint_t MulticastGroup_t;
@p4runtime_translation("p4.org/pna/v1/MirrorSessionId_t", 16)
type MirrorSessionIdUint_t MirrorSessionId_t;
@p4runtime_translation("p4.org/pna/v1/MirrorSlotId_t", 8)
type MirrorSlotIdUint_t MirrorSlotId_t;
@p4runtime_translation("p4.org/pna/v1/ClassOfService_t", 8)
type ClassOfServiceUint_t ClassOfService_t;
@p4runtime_translation("p4.org/pna/v1/PacketLength_t", 16)
type PacketLengthUint_t   PacketLength_t;
@p4runtime_translation("p4.org/pna/v1/MulticastInstance_t", 16)
type MulticastInstanceUint_t MulticastInstance_t;
@p4runtime_translation("p4.org/pna/v1/Timestamp_t", 64)
type TimestampUint_t      Timestamp_t;
@p4runtime_translation("p4.org/pna/v1/FlowId_t", 32)
type FlowIdUint_t         FlowId_t;
@p4runtime_translation("p4.org/pna/v1/ExpireTimeProfileId_t", 8)
type ExpireTimeProfileIdUint_t ExpireTimeProfileId_t;
@p4runtime_translation("p4.org/pna/v1/PassNumber_t", 8)
type PassNumberUint_t     PassNumber_t;

@p4runtime_translation("p4.org/pna/v1/SecurityAssocId_t", 64)
type SecurityAssocIdUint_t SecurityAssocId_t;

typedef error   ParserError_t;

const InterfaceId_t PNA_PORT_CPU = (InterfaceId_t) 0xfffffffd;

const MirrorSessionId_t PNA_MIRROR_SESSION_TO_CPU = (MirrorSessionId_t) 0;

/* The same values as carried in packet headers to and from the controller:
 * target-independent widths, each a multiple of 8.  The data plane does
 * not translate them; the program converts with the functions below. */
typedef bit<32> PortIdInHeaderUint_t;
typedef bit<32> InterfaceIdInHeaderUint_t;
typedef bit<32> MulticastGroupInHeaderUint_t;
typedef bit<16> MirrorSessionIdInHeaderUint_t;
typedef bit<8>  MirrorSlotIdInHeaderUint_t;
typedef bit<8>  ClassOfServiceInHeaderUint_t;
typedef bit<16> PacketLengthInHeaderUint_t;
typedef bit<16> MulticastInstanceInHeaderUint_t;
typedef bit<64> TimestampInHeaderUint_t;
typedef bit<32> FlowIdInHeaderUint_t;
typedef bit<8>  ExpireTimeProfileIdInHeaderUint_t;
typedef bit<8>  PassNumberInHeaderUint_t;

typedef bit<32> SecurityAssocIdInHeaderUint_t;

@p4runtime_translation("p4.org/pna/v1/PortIdInHeader_t", 32)
type  PortIdInHeaderUint_t         PortIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/InterfaceIdInHeader_t", 32)
type  InterfaceIdInHeaderUint_t    InterfaceIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/MulticastGroupInHeader_t", 32)
type  MulticastGroupInHeaderUint_t MulticastGroupInHeader_t;
@p4runtime_translation("p4.org/pna/v1/MirrorSessionIdInHeader_t", 16)
type  MirrorSessionIdInHeaderUint_t MirrorSessionIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/MirrorSlotIdInHeader_t", 8)
type  MirrorSlotIdInHeaderUint_t   MirrorSlotIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/ClassOfServiceInHeader_t", 8)
type  ClassOfServiceInHeaderUint_t ClassOfServiceInHeader_t;
@p4runtime_translation("p4.org/pna/v1/PacketLengthInHeader_t", 16)
type  PacketLengthInHeaderUint_t   PacketLengthInHeader_t;
@p4runtime_translation("p4.org/pna/v1/MulticastInstanceInHeader_t", 16)
type  MulticastInstanceInHeaderUint_t MulticastInstanceInHeader_t;
@p4runtime_translation("p4.org/pna/v1/TimestampInHeader_t", 64)
type  TimestampInHeaderUint_t      TimestampInHeader_t;
@p4runtime_translation("p4.org/pna/v1/FlowIdInHeader_t", 32)
type  FlowIdInHeaderUint_t         FlowIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/ExpireTimeProfileIdInHeader_t", 8)
type  ExpireTimeProfileIdInHeaderUint_t ExpireTimeProfileIdInHeader_t;
@p4runtime_translation("p4.org/pna/v1/PassNumberInHeader_t", 8)
type  PassNumberInHeaderUint_t     PassNumberInHeader_t;

@p4runtime_translation("p4.org/pna/v1/SecurityAssocIdInHeader_t", 64)
type  SecurityAssocIdInHeaderUint_t SecurityAssocIdInHeader_t;

/* Conversions between a value in a header (<name>InHeader_t) and the data
 * plane's own (<name>_t): out of the new type, change width, into the
 * other new type. */
PortId_t pna_PortId_header_to_int(in PortIdInHeader_t x) {
    return (PortId_t) (PortIdUint_t) (PortIdInHeaderUint_t) x;
}
InterfaceId_t pna_InterfaceId_header_to_int(in InterfaceIdInHeader_t x) {
    return (InterfaceId_t) (InterfaceIdUint_t) (InterfaceIdInHeaderUint_t) x;
}
MulticastGroup_t pna_MulticastGroup_header_to_int(in MulticastGroupInHeader_t x) {
    return (MulticastGroup_t) (MulticastGroupUint_t) (MulticastGroupInHeaderUint_t) x;
}
MirrorSessionId_t pna_MirrorSessionId_header_to_int(in MirrorSessionIdInHeader_t x) {
    return (MirrorSessionId_t) (MirrorSessionIdUint_t) (MirrorSessionIdInHeaderUint_t) x;
}
ClassOfService_t pna_ClassOfService_header_to_int(in ClassOfServiceInHeader_t x) {
    return (ClassOfService_t) (ClassOfServiceUint_t) (ClassOfServiceInHeaderUint_t) x;
}
PacketLength_t pna_PacketLength_header_to_int(in PacketLengthInHeader_t x) {
    return (PacketLength_t) (PacketLengthUint_t) (PacketLengthInHeaderUint_t) x;
}
MulticastInstance_t pna_MulticastInstance_header_to_int(in MulticastInstanceInHeader_t x) {
    return (MulticastInstance_t) (MulticastInstanceUint_t) (MulticastInstanceInHeaderUint_t) x;
}
Timestamp_t pna_Timestamp_header_to_int(in TimestampInHeader_t x) {
    return (Timestamp_t) (TimestampUint_t) (TimestampInHeaderUint_t) x;
}
FlowId_t pna_FlowId_header_to_int(in FlowIdInHeader_t x) {
    return (FlowId_t) (FlowIdUint_t) (FlowIdInHeaderUint_t) x;
}
ExpireTimeProfileId_t pna_ExpireTimeProfileId_header_to_int(in ExpireTimeProfileIdInHeader_t x) {
    return (ExpireTimeProfileId_t) (ExpireTimeProfileIdUint_t) (ExpireTimeProfileIdInHeaderUint_t) x;
}
PassNumber_t pna_PassNumber_header_to_int(in PassNumberInHeader_t x) {
    return (PassNumber_t) (PassNumberUint_t) (PassNumberInHeaderUint_t) x;
}

PortIdInHeader_t pna_PortId_int_to_header(in PortId_t x) {
    return (PortIdInHeader_t) (PortIdInHeaderUint_t) (PortIdUint_t) x;
}
InterfaceIdInHeader_t pna_InterfaceId_int_to_header(in InterfaceId_t x) {
    return (InterfaceIdInHeader_t) (InterfaceIdInHeaderUint_t) (InterfaceIdUint_t) x;
}
MulticastGroupInHeader_t pna_MulticastGroup_int_to_header(in MulticastGroup_t x) {
    return (MulticastGroupInHeader_t) (MulticastGroupInHeaderUint_t) (MulticastGroupUint_t) x;
}
MirrorSessionIdInHeader_t pna_MirrorSessionId_int_to_header(in MirrorSessionId_t x) {
    return (MirrorSessionIdInHeader_t) (MirrorSessionIdInHeaderUint_t) (MirrorSessionIdUint_t) x;
}
ClassOfServiceInHeader_t pna_ClassOfService_int_to_header(in ClassOfService_t x) {
    return (ClassOfServiceInHeader_t) (ClassOfServiceInHeaderUint_t) (ClassOfServiceUint_t) x;
}
PacketLengthInHeader_t pna_PacketLength_int_to_header(in PacketLength_t x) {
    return (PacketLengthInHeader_t) (PacketLengthInHeaderUint_t) (PacketLengthUint_t) x;
}
MulticastInstanceInHeader_t pna_MulticastInstance_int_to_header(in MulticastInstance_t x) {
    return (MulticastInstanceInHeader_t) (MulticastInstanceInHeaderUint_t) (MulticastInstanceUint_t) x;
}
TimestampInHeader_t pna_Timestamp_int_to_header(in Timestamp_t x) {
    return (TimestampInHeader_t) (TimestampInHeaderUint_t) (TimestampUint_t) x;
}
FlowIdInHeader_t pna_FlowId_int_to_header(in FlowId_t x) {
    return (FlowIdInHeader_t) (FlowIdInHeaderUint_t) (FlowIdUint_t) x;
}
ExpireTimeProfileIdInHeader_t pna_ExpireTimeProfileId_int_to_header(in ExpireTimeProfileId_t x) {
    return (ExpireTimeProfileIdInHeader_t) (ExpireTimeProfileIdInHeaderUint_t) (ExpireTimeProfileIdUint_t) x;
}
PassNumberInHeader_t pna_PassNumber_int_to_header(in PassNumber_t x) {
    return (PassNumberInHeader_t) (PassNumberInHeaderUint_t) (PassNumberUint_t) x;
}

// Values of a table's pna_idle_timeout property.
enum PNA_IdleTimeout_t {
    NO_TIMEOUT,
    NOTIFY_CONTROL
}

// Match kinds PNA adds to exact, ternary and lpm.
match_kind {
    range,     // value within [low, high]
    selector,  // key of an ActionSelector's hash
    optional   // exact, or "don't care" for the whole field
}

/* ---- Externs ---------------------------------------------------------- */

enum PNA_HashAlgorithm_t {
#ifdef __PNA_DPDK__
    IDENTITY,
    CRC32,
    CRC32_CUSTOM,
    CRC16,
    CRC16_CUSTOM,
    ONES_COMPLEMENT16,  // the IPv4, TCP and UDP checksum sum
    TOEPLITZ,
#endif
    TARGET_DEFAULT      // chosen by the target
}

// A hash function whose result is an O (bit<W>).
extern Hash<O> {
    Hash(PNA_HashAlgorithm_t algo);
    O get_hash<D>(in D data);

    // base + (hash(data) % max); targets may restrict max to powers of 2.
    O get_hash<T, D>(in T base, in D data, in T max);
}

// A checksum of type W, per packet; cleared each time its block starts.
extern Checksum<W> {
    Checksum(PNA_HashAlgorithm_t hash);
    void clear();
    void update<T>(in T data);
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
    bit<16> get();
    bit<16> get_state();
    void set_state(in bit<16> checksum_state);
}

enum PNA_CounterType_t {
    PACKETS,
    BYTES,
    PACKETS_AND_BYTES
}

// n_counters counters of width W, indexed by an S, read by the control plane.
@noWarn("unused")
extern Counter<W, S> {
    Counter(bit<32> n_counters, PNA_CounterType_t type);
#ifdef __PNA_DPDK__
    // DPDK: byte counters need pkt_len.
    void count(in S index);
    void count(in S index, in bit<32> pkt_len);
#else
    void count(in S index, @optional in bit<32> increment);
#endif
}

// One counter per entry of the table whose `pna_direct_counter` names it.
@noWarn("unused")
extern DirectCounter<W> {
    DirectCounter(PNA_CounterType_t type);
#ifdef __PNA_DPDK__
    void count();
    void count(in bit<32> pkt_len);
#else
    void count(@optional in bit<32> increment);
#endif
}

enum PNA_MeterType_t {
    PACKETS,
    BYTES
}

enum PNA_MeterColor_t { RED, GREEN, YELLOW }

/* n_meters two-rate three-colour meters (RFC 2698), indexed by an S.
 * With `color` the update is colour-aware; without, colour-blind (as if
 * GREEN). */
extern Meter<S> {
    Meter(bit<32> n_meters, PNA_MeterType_t type);
    PNA_MeterColor_t execute(in S index, in PNA_MeterColor_t color);
    PNA_MeterColor_t execute(in S index);
#ifdef __PNA_DPDK__
    // DPDK: byte meters take the packet length; a distinct name, since
    // overloads are told apart by their number of parameters.
    PNA_MeterColor_t dpdk_execute(in S index, in PNA_MeterColor_t color, in bit<32> pkt_len);
    PNA_MeterColor_t dpdk_execute(in S index, in bit<32> pkt_len);
#endif
}

// One meter per entry of the table whose `pna_direct_meter` names it.
extern DirectMeter {
    DirectMeter(PNA_MeterType_t type);
#ifdef __PNA_DPDK__
    PNA_MeterColor_t execute(in PNA_MeterColor_t color);
    PNA_MeterColor_t execute();
    PNA_MeterColor_t dpdk_execute(in PNA_MeterColor_t color, in bit<32> pkt_len);
    PNA_MeterColor_t dpdk_execute(in bit<32> pkt_len);
#else
    PNA_MeterColor_t execute(in PNA_MeterColor_t color, @optional in bit<32> pkt_len);
    PNA_MeterColor_t execute(@optional in bit<32> pkt_len);
#endif
}

// `size` values of type T, indexed by an S; undefined until written
// unless `initial_value` is given.
extern Register<T, S> {
    Register(bit<32> size);
    Register(bit<32> size, T initial_value);
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
    ActionSelector(PNA_HashAlgorithm_t algo, bit<32> size, bit<32> outputWidth);
}

// A stream of T values to the control plane; pack() sends one.
extern Digest<T> {
    Digest();
    void pack(in T data);
}

#ifdef __PNA_DPDK__
// Outcome of the IPsec accelerator for this packet.
enum ipsec_status {
    IPSEC_SUCCESS,
    IPSEC_ERROR
}

/* Inline IPsec: the security association (set_sa_index) says what to do;
 * once enabled, it runs after the deparser and the packet comes back for
 * another pass, from_ipsec() then true. */
extern ipsec_accelerator {
    ipsec_accelerator();
    void set_sa_index<T>(in T sa_index);
    void set_ip_header_offset<T>(in T offset);  // 0 unless set
    void enable();
    void disable();
    bool from_ipsec(out ipsec_status status);
}
#endif

/* ---- Intrinsic metadata ----------------------------------------------- */

enum PNA_Direction_t {
    NET_TO_HOST,
    HOST_TO_NET
}

enum PNA_PacketPath_t {
    FROM_NET_PORT,
    FROM_NET_LOOPEDBACK,
    FROM_NET_RECIRCULATED,
    FROM_HOST,
    FROM_HOST_LOOPEDBACK,
    FROM_HOST_RECIRCULATED
}

struct pna_pre_input_metadata_t {
    PortId_t                 input_port;
    ParserError_t            parser_error;
    PNA_Direction_t          direction;
    PassNumber_t             pass;
    bool                     loopedback;
}

// The pre control's request to decrypt the packet, and with which SA.
struct pna_pre_output_metadata_t {
    bool                     decrypt;
    SecurityAssocId_t        said;
    bit<16>                  decrypt_start_offset;
}

/* input_port: the network port the packet arrived on (NET_TO_HOST) or the
 * host's vport it came from (HOST_TO_NET). */
struct pna_main_parser_input_metadata_t {
    PNA_Direction_t          direction;
    PassNumber_t             pass;
    bool                     loopedback;
    PortId_t                 input_port;
}

struct pna_main_input_metadata_t {
    PNA_Direction_t          direction;
    PassNumber_t             pass;
    bool                     loopedback;
    Timestamp_t              timestamp;
    ParserError_t            parser_error;
    ClassOfService_t         class_of_service;
    PortId_t                 input_port;
}

struct pna_main_output_metadata_t {
    ClassOfService_t         class_of_service;  // 0 when main control starts
}

/* ---- Extern functions ------------------------------------------------- */

/* Where the packet goes after the main control: the last call of
 * drop_packet() or send_to_port() wins.  Main control only. */
extern void drop_packet();

extern void send_to_port(PortId_t dest_port);

extern void mirror_packet(MirrorSlotId_t mirror_slot_id,
                          MirrorSessionId_t mirror_session_id);

extern void recirculate();

/* Add an entry to the table whose miss action calls this (add-on-miss),
 * with the hit action `action_name` and its parameters.  True when added. */
extern bool add_entry<T>(string action_name,
                         in T action_params,
                         in ExpireTimeProfileId_t expire_time_profile_id);

extern FlowId_t allocate_flow_id();

/* In the actions of a table with idle_timeout(_with_auto_delete): set the
 * matched entry's expiry profile, or restart its timer. */
extern void set_entry_expire_time(
    in ExpireTimeProfileId_t expire_time_profile_id);

extern void restart_expire_timer();

/* Whether port p leads to the host (the switch's --host-port) or to the
 * network; as p4c's bmv2/pna.p4 and tc/pna.p4 declare them. */
extern bool is_host_port(in PortId_t p);
extern bool is_net_port(in PortId_t p);

// n2h_value for NET_TO_HOST, else h2n_value; an extern so that targets see it.
@pure
extern T SelectByDirection<T>(
    in PNA_Direction_t direction,
    in T n2h_value,
    in T h2n_value);

/* ---- Architecture ----------------------------------------------------- */

// PH, PM: the pre control's headers and metadata; MH, MM: the main pipeline's.

control PreControlT<PH, PM>(
    in    PH pre_hdr,
    inout PM pre_user_meta,
    in    pna_pre_input_metadata_t  istd,
    inout pna_pre_output_metadata_t ostd);

parser MainParserT<MH, MM>(
    packet_in pkt,
    out   MH main_hdr,
    inout MM main_user_meta,
    in    pna_main_parser_input_metadata_t istd);

control MainControlT<MH, MM>(
    inout MH main_hdr,
    inout MM main_user_meta,
    in    pna_main_input_metadata_t  istd,
    inout pna_main_output_metadata_t ostd);

control MainDeparserT<MH, MM>(
    packet_out pkt,
    in    MH main_hdr,
    in    MM main_user_meta,
    in    pna_main_output_metadata_t ostd);

package PNA_NIC<PH, PM, MH, MM>(
    MainParserT<MH, MM> main_parser,
    PreControlT<PH, PM> pre_control,
    MainControlT<MH, MM> main_control,
    MainDeparserT<MH, MM> main_deparser);

#endif  /* __PNA_P4__ */
