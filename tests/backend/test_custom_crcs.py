"""crc16_custom and crc32_custom: each hash() call or checksum by a custom CRC is a calculation named
as p4c names it for BMv2 ("calc", "calc_0", ...), whose parameters set_crc16_parameters and
set_crc32_parameters set; until then those of crc16 and crc32.  Checked against the catalogue's
check values of the CRCs over "123456789"."""

from __future__ import annotations

import binascii
from pathlib import Path

import pytest
from one_header_switch import compile_program, one_header_program, run_on_frames
from support import crc16_arc

from p4odp.stf.pcap import read_packets

DATA = b"123456789"
FIELDS = " ".join(f"bit<8> b{i};" for i in range(len(DATA))) + " bit<16> h16; bit<32> h32; bit<16> c16;"
DATA_LIST = "{ " + ", ".join(f"hdr.h.b{i}" for i in range(len(DATA))) + " }"
PROGRAM = one_header_program(FIELDS, f"""\
        sm.egress_spec = 1;
        hash(hdr.h.h16, HashAlgorithm.crc16_custom, 16w0, {DATA_LIST}, 32w65536);
        hash(hdr.h.h32, HashAlgorithm.crc32_custom, 32w0, {DATA_LIST}, 64w4294967296);""",
                             egress=f"update_checksum(true, {DATA_LIST}, hdr.h.c16, HashAlgorithm.crc16_custom);")


@pytest.fixture(scope="module")
def switch(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("crc")
    build = compile_program(folder, PROGRAM, "crc.p4")
    assert build.returncode == 0, build.stderr
    return folder / "out" / "switch"


def run(switch: Path, folder: Path, commands: list[str]):
    (folder / "commands.txt").write_text("".join(line + "\n" for line in commands))
    return run_on_frames(switch, folder, [DATA + bytes(8)], "--commands", str(folder / "commands.txt"))


def results(folder: Path) -> tuple:
    [out] = read_packets(str(folder / "out.pcap"))
    tail = out[len(DATA):]
    return int.from_bytes(tail[0:2], "big"), int.from_bytes(tail[2:6], "big"), int.from_bytes(tail[6:8], "big")


def test_unset_custom_crcs_are_crc16_and_crc32(switch: Path, tmp_path: Path):
    assert run(switch, tmp_path, []).returncode == 0
    assert results(tmp_path) == (crc16_arc(DATA), binascii.crc32(DATA), crc16_arc(DATA))
    assert crc16_arc(DATA) == 0xBB3D  # the catalogue's check value of CRC-16/ARC


def test_each_calculation_takes_its_own_parameters(switch: Path, tmp_path: Path):
    run_ = run(switch, tmp_path, [
        "set_crc16_parameters calc 0x1021 0xffff 0 false false",  # CRC-16/IBM-3740 (CCITT-FALSE)
        "set_crc32_parameters calc_0 0x1EDC6F41 0xffffffff 0xffffffff true true",  # CRC-32C
        "set_crc16_parameters calc_1 0x1021 0 0 True 1",  # CRC-16/KERMIT
    ])
    assert run_.returncode == 0, run_.stderr
    assert results(tmp_path) == (0x29B1, 0xE3069283, 0x2189)


@pytest.mark.parametrize("line, message", [
    ("set_crc16_parameters calc_0 0x1021 0 0 false false", "no crc16_custom calculation calc_0 in the program"),
    ("set_crc32_parameters nope 1 0 0 false false", "no crc32_custom calculation nope in the program"),
    ("set_crc16_parameters calc 0x11021 0 0 false false", "'0x11021' does not fit in 16 bits"),
    ("set_crc16_parameters calc 0x1021 0 0 maybe false", "'maybe' is not a flag (true or false)"),
    ("set_crc16_parameters calc 0x1021 0 0 false", "usage: set_crc16_parameters CALC POLYNOMIAL"),
])
def test_bad_parameters_are_named_and_stop_the_switch(switch: Path, tmp_path: Path, line: str, message: str):
    run_ = run(switch, tmp_path, [line])
    assert run_.returncode != 0 and message in run_.stderr, run_.stderr
