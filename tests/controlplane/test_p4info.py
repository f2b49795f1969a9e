"""P4Info (`p4odp compile --p4runtime-files`): p4c's ids, aliases and entities, the file formats,
and golden files of the examples and of a program with every kind of entity
(tests/controlplane/p4info_entities.p4).  `pytest --update-golden` rewrites the golden files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf import json_format, text_format

from p4odp.controlplane.ids import IdAllocator, aliases, jenkins_hash
from p4odp.controlplane.protos import p4info_pb2

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
GOLDEN = HERE / "golden"
PROGRAMS = {"l2fwd": ROOT / "examples/l2fwd/l2fwd.p4", "l3fwd": ROOT / "examples/l3fwd/l3fwd.p4",
            "p4info_entities": HERE / "p4info_entities.p4"}


def compile_p4info(program: Path, *files: Path, extra: tuple = ()) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(program), "--emit", "p4info",
                           "--p4runtime-files", ",".join(map(str, files)), *extra], capture_output=True, text=True,
                          timeout=120)


def p4info_of(program: Path, tmp_path: Path) -> p4info_pb2.P4Info:
    out = tmp_path / "p4info.txtpb"
    run = compile_p4info(program, out)
    assert run.returncode == 0, run.stderr
    return text_format.Parse(out.read_text(), p4info_pb2.P4Info())


def by_name(entities, name: str):
    return next(e for e in entities if e.preamble.name == name)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_p4info_matches_golden(name: str, tmp_path: Path, request):
    out = tmp_path / f"{name}.p4info.txtpb"
    run = compile_p4info(PROGRAMS[name], out)
    assert run.returncode == 0, run.stderr
    golden = GOLDEN / f"{name}.p4info.txtpb"
    if request.config.getoption("--update-golden"):
        golden.write_text(out.read_text())
    assert golden.exists(), f"no golden file {golden.name}: run pytest with --update-golden"
    assert out.read_text() == golden.read_text(), f"the P4Info of {name} changed; review, then --update-golden"


# ----------------------------------------------------------------------
# Ids and aliases as p4c makes them

def test_an_id_is_the_prefix_over_the_names_hash():
    # p4c's ids for these names (its sample outputs): NoAction and action_profile-bmv2's table.
    ids = IdAllocator()
    ids.add(0x01, "NoAction")
    ids.add(0x02, "IngressI.indirect")
    ids.assign()
    assert ids.id_of(0x01, "NoAction") == 21257015 == 0x01 << 24 | jenkins_hash("NoAction") & 0xFFFFFF
    assert ids.id_of(0x02, "IngressI.indirect") == 46872340


def test_a_taken_id_moves_the_next_name_up_and_names_take_ids_in_byte_order():
    ids = IdAllocator()
    taken = 0x02 << 24 | jenkins_hash("b") & 0xFFFFFF
    assert ids.add(0x02, "given", taken) is None
    ids.add(0x02, "b")
    ids.assign()
    assert ids.id_of(0x02, "given") == taken
    assert ids.id_of(0x02, "b") == taken + 1


def test_an_at_id_takes_the_kinds_prefix_and_may_not_be_given_twice_or_with_another_prefix():
    ids = IdAllocator()
    assert ids.add(0x02, "t", 5) is None
    assert "given to two entities" in ids.add(0x02, "u", 0x02000005)
    assert "wrong 8-bit prefix" in ids.add(0x02, "v", 0x01000001)
    ids.assign()
    assert ids.id_of(0x02, "t") == 0x02000005


def test_an_alias_is_the_shortest_suffix_no_other_name_of_any_kind_ends_with():
    found = aliases(["a.b.c", "d.b.c", "x.c", "PreQosPipe.Acl.acls", "acls", "NoAction"])
    assert found == {"a.b.c": "a.b.c", "d.b.c": "d.b.c", "x.c": "x.c", "PreQosPipe.Acl.acls": "Acl.acls",
                     "acls": "acls", "NoAction": "NoAction"}


# ----------------------------------------------------------------------
# What P4Info lists, as p4c's front end leaves the program

def test_entities_are_named_and_listed_as_p4c_lists_them(tmp_path: Path):
    info = p4info_of(PROGRAMS["p4info_entities"], tmp_path)
    tables = {t.preamble.name for t in info.tables}
    # Tables never applied, or applied only in a branch that cannot run, are not listed.
    assert tables == {"MyIngress.mac", "MyIngress.routes", "MyIngress.fixed", "MyIngress.acl.rules"}
    actions = {a.preamble.name for a in info.actions}
    assert "MyIngress.unused" not in actions and "MyIngress.acl.deny" in actions
    # An action only the control calls takes its arguments from the call: no parameters.
    assert not by_name(info.actions, "MyIngress.count_only").params
    mac = by_name(info.tables, "MyIngress.mac")
    assert mac.preamble.id == 0x02000005  # @id(5)
    assert [f.name for f in mac.match_fields] == ["hdr.ethernet.dst", "hdr.ethernet.ether_type & 0xff00",
                                                  "hdr.ipv4.$valid$", "tag"]
    routes = by_name(info.tables, "MyIngress.routes")
    assert [f.name for f in routes.match_fields] == ["hdr.ipv4.dst"]  # the selector key is the profile's
    assert routes.action_refs[-1].scope == p4info_pb2.ActionRef.DEFAULT_ONLY  # NoAction added as p4c adds it
    ecmp = by_name(info.action_profiles, "MyIngress.ecmp")
    assert ecmp.with_selector and list(ecmp.table_ids) == [routes.preamble.id]
    assert routes.implementation_id == ecmp.preamble.id
    assert by_name(info.direct_meters, "routes_meter").direct_table_id == routes.preamble.id
    forward = by_name(info.actions, "MyIngress.forward")
    assert [(p.name, p.bitwidth, p.type_name.name) for p in forward.params] == [("port", 32, "PortId_t"),
                                                                              ("tag_value", 16, "Tag_t")]
    assert info.type_info.new_types["PortId_t"].translated_type.sdn_bitwidth == 32
    packet_in = by_name(info.controller_packet_metadata, "packet_in")
    assert [m.name for m in packet_in.metadata] == ["ingress_port", "why.reason", "why.pad"]
    assert by_name(info.digests, "learn_t").type_spec.struct.name == "learn_t"
    assert info.pkg_info.name == "p4info_entities" and info.pkg_info.arch == "v1model"


def test_an_implementation_made_in_place_needs_a_name(tmp_path: Path):
    source = PROGRAMS["p4info_entities"].read_text().replace('@name("fixed_profile") implementation',
                                                              "implementation")
    program = tmp_path / "unnamed.p4"
    program.write_text(source)
    run = compile_p4info(program, tmp_path / "p4info.txtpb")
    assert run.returncode == 1 and "unnamed.p4:" in run.stderr and "needs an @name" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


# ----------------------------------------------------------------------
# Files and the command line

def test_each_file_is_written_in_the_format_its_suffix_names(tmp_path: Path):
    files = [tmp_path / "p.txtpb", tmp_path / "p.json", tmp_path / "p.bin", tmp_path / "p.txt"]
    run = compile_p4info(PROGRAMS["l3fwd"], *files)
    assert run.returncode == 0, run.stderr
    text = text_format.Parse(files[0].read_text(), p4info_pb2.P4Info())
    assert json_format.Parse(files[1].read_text(), p4info_pb2.P4Info()) == text
    assert p4info_pb2.P4Info.FromString(files[2].read_bytes()) == text
    assert text_format.Parse(files[3].read_text(), p4info_pb2.P4Info()) == text
    assert text.tables


def test_an_unknown_suffix_or_a_missing_file_is_refused_before_compiling(tmp_path: Path):
    run = compile_p4info(PROGRAMS["l3fwd"], tmp_path / "p4info.yaml")
    assert run.returncode == 1 and "unknown P4Runtime file kind" in run.stderr, run.stderr
    run = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(PROGRAMS["l3fwd"]), "--emit", "p4info"],
                         capture_output=True, text=True)
    assert run.returncode == 1 and "--emit p4info needs --p4runtime-files" in run.stderr, run.stderr


def test_a_compile_writes_p4info_beside_the_c(tmp_path: Path):
    run = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(PROGRAMS["l2fwd"]), "--emit", "c",
                          "-o", str(tmp_path / "out"), "--p4runtime-files", str(tmp_path / "out/p4info.txtpb")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "out/datapath.c").exists()
    assert text_format.Parse((tmp_path / "out/p4info.txtpb").read_text(), p4info_pb2.P4Info()).tables


@pytest.mark.parametrize("old, new, message", [
    ("meters = direct_meter<bit<2>>(MeterType.packets);", "meters = meter(4, MeterType.packets);",
     "meters must be an instance of direct_meter, not of meter"),
    ('@pkginfo(name = "p4info_entities", version = "1.0")', "@pkginfo(name = )", "unexpected ')'"),
    ('@pkginfo(name = "p4info_entities", version = "1.0")', '@pkginfo["p4info_entities"]', "expected KEY = VALUE"),
    ('@pkginfo(name = "p4info_entities", version = "1.0")', '@pkginfo(name = 1)', "name is not one of its keys"),
])
def test_a_p4info_error_in_the_program_is_positioned(tmp_path: Path, old: str, new: str, message: str):
    program = tmp_path / "bad.p4"
    program.write_text(PROGRAMS["p4info_entities"].read_text().replace(old, new))
    run = compile_p4info(program, tmp_path / "p4info.txtpb")
    assert run.returncode == 1 and "bad.p4:" in run.stderr and message in run.stderr, run.stderr
    assert "internal error" not in run.stderr


def test_a_negative_default_argument_is_written_in_twos_complement(tmp_path: Path):
    source = PROGRAMS["p4info_entities"].read_text() \
        .replace("action set_reason(Reason_t reason) {", "action offset(int<8> by) { }\n    action set_reason(Reason_t reason) {") \
        .replace("actions = { forward; NoAction; }\n        const entries", "actions = { forward; NoAction; offset; }\n        const entries") \
        .replace("default_action = forward((PortId_t)2, (Tag_t)0x10);", "default_action = offset(-2);")
    program = tmp_path / "negative.p4"
    program.write_text(source)
    info = p4info_of(program, tmp_path)
    assert by_name(info.tables, "MyIngress.fixed").initial_default_action.arguments[0].value == b"\xfe"


def test_an_unwritable_file_is_an_error_not_a_crash(tmp_path: Path):
    (tmp_path / "file").write_text("")
    run = compile_p4info(PROGRAMS["l3fwd"], tmp_path / "file" / "p4info.txtpb")
    assert run.returncode == 1 and "cannot write" in run.stderr and "internal error" not in run.stderr, run.stderr


# ----------------------------------------------------------------------
# PSA: index types, digests, flattened headers, specialized structs

PSA_PROGRAM = """\
#include <core.p4>
#include <bmv2/psa.p4>

type bit<10> slot_t;
struct pair_t { bit<8> lo; bit<8> hi; }
header tag_t { pair_t pair; bit<16> id; }
struct wrap_t<T> { T value; }
struct learn_t { tag_t tag; PortId_t port; wrap_t<bit<24>> wrapped; }
struct headers_t { tag_t tag; }
struct meta_t { }

parser IP(packet_in pkt, out headers_t hdr, inout meta_t meta, in psa_ingress_parser_input_metadata_t istd,
          in meta_t resubmit_meta, in meta_t recirculate_meta) {
    state start { pkt.extract(hdr.tag); transition accept; }
}
control Ing(inout headers_t hdr, inout meta_t meta, in psa_ingress_input_metadata_t istd,
            inout psa_ingress_output_metadata_t ostd) {
    Counter<bit<32>, PortId_t>(512, PSA_CounterType_t.PACKETS) by_port;
    Register<bit<8>, slot_t>(1024) slots;
    Meter<bit<12>>(64, PSA_MeterType_t.PACKETS) plain;
    apply {
        by_port.count(istd.ingress_port);
        slots.write((slot_t)(bit<10>)hdr.tag.id, 1);
        if (plain.execute(0) == PSA_MeterColor_t.RED) { hdr.tag.id = 0; }
    }
}
control IDep(packet_out pkt, out meta_t clone_i2e_meta, out meta_t resubmit_meta, out meta_t normal_meta,
             inout headers_t hdr, in meta_t meta, in psa_ingress_output_metadata_t istd) {
    @brief("learnt tags") Digest<learn_t>() learnt;
    apply {
        learnt.pack({hdr.tag, istd.egress_port, {24w7}});
        pkt.emit(hdr.tag);
    }
}
parser EP(packet_in pkt, out headers_t hdr, inout meta_t meta, in psa_egress_parser_input_metadata_t istd,
          in meta_t normal_meta, in meta_t clone_i2e_meta, in meta_t clone_e2e_meta) {
    state start { transition accept; }
}
control Eg(inout headers_t hdr, inout meta_t meta, in psa_egress_input_metadata_t istd,
           inout psa_egress_output_metadata_t ostd) { apply { } }
control EDep(packet_out pkt, out meta_t clone_e2e_meta, out meta_t recirculate_meta, inout headers_t hdr,
             in meta_t meta, in psa_egress_output_metadata_t istd, in psa_egress_deparser_input_metadata_t edstd) {
    apply { }
}
IngressPipeline(IP(), Ing(), IDep()) ip;
EgressPipeline(EP(), Eg(), EDep()) ep;
PSA_Switch(ip, PacketReplicationEngine(), ep, BufferingQueueingEngine()) main;
"""


@pytest.fixture(scope="module")
def psa_info(tmp_path_factory) -> p4info_pb2.P4Info:
    folder = tmp_path_factory.mktemp("psa")
    (folder / "psa.p4").write_text(PSA_PROGRAM)
    return p4info_of(folder / "psa.p4", folder)


def test_psa_names_the_index_type_of_counters_meters_and_registers_indexed_by_a_type(psa_info):
    assert by_name(psa_info.counters, "Ing.by_port").index_type_name.name == "PortId_t"
    assert by_name(psa_info.registers, "Ing.slots").index_type_name.name == "slot_t"
    assert not by_name(psa_info.meters, "Ing.plain").HasField("index_type_name")  # a bit<12> index
    new_types = psa_info.type_info.new_types
    assert new_types["slot_t"].original_type.bitstring.bit.bitwidth == 10  # not translated
    assert new_types["PortId_t"].translated_type.uri == "p4.org/psa/v1/PortId_t"


def test_a_psa_digest_is_its_instance_named_as_the_instance_of_its_type(psa_info):
    [digest] = psa_info.digests
    assert (digest.preamble.name, digest.preamble.alias, digest.type_spec.struct.name) == \
        ("IDep.learnt", "learnt", "learn_t")
    assert digest.preamble.doc.brief == "learnt tags"


def test_a_header_lists_the_fields_of_a_struct_in_it_and_a_specialized_struct_is_named_as_p4c_names_it(psa_info):
    tag = psa_info.type_info.headers["tag_t"]
    assert [(m.name, m.type_spec.bit.bitwidth) for m in tag.members] == [("pair.lo", 8), ("pair.hi", 8), ("id", 16)]
    learn = psa_info.type_info.structs["learn_t"]
    assert learn.members[2].type_spec.struct.name == "wrap_t_bit24"
    assert psa_info.type_info.structs["wrap_t_bit24"].members[0].type_spec.bitstring.bit.bitwidth == 24
