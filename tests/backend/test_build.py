"""The build driver (backend/build.py): what the switch binary says about where its code comes from."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import require_debian

REPO = Path(__file__).resolve().parents[2]
L3FWD = REPO / "examples" / "l3fwd" / "l3fwd.p4"


def _line_table(binary: Path) -> list[tuple[str, int, int]]:
    """(file name as the line table gives it, line, address) of every row of `binary`'s DWARF
    line table, from objdump."""
    dump = subprocess.run(["objdump", "--dwarf=decodedline", str(binary)], capture_output=True, text=True,
                          check=True).stdout
    rows = []
    for line in dump.splitlines():
        match = re.match(r"(\S+)\s+(\d+)\s+(0x[0-9a-f]+)\b", line)
        if match:
            rows.append((match[1], int(match[2]), int(match[3], 16)))
    return rows


def _where(binary: Path, addresses: list[int], cwd: Path) -> list[tuple[str, int]]:
    """(file, line) of each address as addr2line resolves it (without inline frames: the
    innermost one, which is what perf's srcline and callgrind report)."""
    out = subprocess.run(["addr2line", "-e", str(binary)], input="".join(f"{a:#x}\n" for a in addresses),
                         capture_output=True, text=True, check=True, cwd=cwd).stdout
    places = []
    for line in out.splitlines():
        file, _, number = line.split(" (discriminator")[0].rpartition(":")
        places.append((file, int(number) if number.isdigit() else 0))
    return places


def test_switch_code_maps_to_the_p4_source_and_the_generated_c(tmp_path: Path):
    """Profilers (perf's srcline, callgrind) and debuggers find the P4 lines and the generated
    glue from the switch's line table, whatever folder they run in: the P4 file is named
    relative to the folder `p4odp compile` ran in, which the debug information records, and
    the generated C names itself by its full path."""
    require_debian({"binutils": "command -v objdump && command -v addr2line"},
                   "reading the switch's line table needs objdump and addr2line")
    out = tmp_path / "out"
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(L3FWD.relative_to(REPO)),
                            "--target", "x86", "-o", str(out)], capture_output=True, text=True, cwd=REPO)
    assert build.returncode == 0, build.stderr
    binary = out / "switch"
    # Addresses whose every row names one file (where an inlined helper starts, rows of the
    # caller and the helper share an address, and tools pick one of them).
    rows = _line_table(binary)
    files_at: dict[int, set[str]] = {}
    for name, _, address in rows:
        files_at.setdefault(address, set()).add(name)
    p4_addresses = [address for address, names in files_at.items() if names == {L3FWD.name}]
    glue_addresses = [address for address, names in files_at.items() if names == {"datapath.c"}]
    assert p4_addresses and glue_addresses, "no code of l3fwd.p4 or datapath.c in the switch's line table"

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for file, _ in _where(binary, p4_addresses, elsewhere):
        assert os.path.isabs(file) and os.path.exists(file) and os.path.samefile(file, L3FWD), file
    # Every line the code maps to holds a P4 statement, parser transition or extern call (the C of
    # one statement, however many lines long, keeps its line), among them these.
    source = L3FWD.read_text().splitlines()
    lines = {line for name, line, _ in rows if name == L3FWD.name}
    for line in sorted(lines):
        text = source[line - 1].strip() if line <= len(source) else "(past the end of the file)"
        assert text not in ("", "{", "}") and not text.startswith(("//", "/*", "*")), \
            f"code maps to l3fwd.p4:{line}: {text}"
    for statement in ("packet.extract(hdr.ipv4);", "transition select(hdr.ethernet.etherType) {",
                      "hdr.ipv4.ttl = hdr.ipv4.ttl - 1;", "ipv4_lpm.apply();", "packet.emit(hdr.ipv4);"):
        number = next(i for i, text in enumerate(source, 1) if statement in text)
        assert number in lines, f"no code maps to l3fwd.p4:{number} ({statement})"
    glue_lines = len((out / "datapath.c").read_text().splitlines())
    for file, line in _where(binary, glue_addresses, elsewhere):
        assert os.path.isabs(file) and os.path.exists(file) and os.path.samefile(file, out / "datapath.c"), file
        assert 0 < line <= glue_lines


def test_the_per_packet_code_zeroes_and_copies_without_rep_string_instructions(tmp_path: Path):
    """GCC for x86-64 inlines a memset or memcpy of 65 to about 200 bytes as `rep stos`/`rep movs`,
    several times slower than vector stores at that size; the build tells it not to, so the
    metadata zeroed for every packet (here 96 bytes) is zeroed by plain stores."""
    require_debian({"binutils": "command -v objdump"}, "reading the switch's code needs objdump")
    machine = subprocess.run(["cc", "-dumpmachine"], capture_output=True, text=True).stdout
    version = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout
    if not machine.startswith("x86_64") or "clang" in version:
        pytest.skip(f"the rep string instructions are GCC's on x86-64 (cc: {machine.strip()}, {version[:40]!r})")
    source = tmp_path / "wide_meta.p4"
    fields = " ".join(f"bit<64> m{i};" for i in range(12))
    source.write_text(f"""#include <core.p4>
#include <v1model.p4>
header eth_t {{ bit<48> dst; bit<48> src; bit<16> type; }}
struct headers_t {{ eth_t eth; }}
struct meta_t {{ {fields} }}
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    state start {{ pkt.extract(hdr.eth); transition accept; }}
}}
control Nop(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    apply {{ meta.m3 = (bit<64>)hdr.eth.dst; sm.egress_spec = (bit<9>)meta.m3; }}
}}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{ apply {{ }} }}
control Dep(packet_out pkt, in headers_t hdr) {{ apply {{ pkt.emit(hdr.eth); }} }}
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
""")
    out = tmp_path / "out"
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(source), "--target", "x86",
                            "-o", str(out)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    dump = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(out / "switch")], capture_output=True,
                          text=True, check=True).stdout
    burst = dump[dump.index("<p4odp_tm_burst>:"):]
    burst = burst[:burst.index("\n\n")]
    assert "p->meta = (struct p4_meta_t){0};" in (out / "datapath.c").read_text()
    assert not re.search(r"\brep (stos|movs)", burst), "a rep string instruction in p4odp_tm_burst"
