"""A v1model switch for one header, compiled and run on pcap ports: what the backend tests of single
externs (random, assert, log_msg, registers) and the control plane's tests build.  The parser extracts `hdr.h` and nothing
else, the deparser emits it; Ing's and Eg's apply blocks are the test's."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from p4odp.controlplane.channel import ChannelError, SwitchChannel
from p4odp.stf.pcap import write_pcap

__all__ = ["one_header_program", "compile_program", "build_switch", "run_on_frames", "start_switch", "eventually"]


def one_header_program(fields: str, ingress: str, egress: str = "", ingress_locals: str = "",
                       globals: str = "") -> str:
    """The program's source: header h_t with `fields`; `ingress_locals` declared in Ing, `globals`
    before the header."""
    declarations = f"{globals}\n" if globals else ""  # no line of its own otherwise: positions stay
    return f"""\
#include <core.p4>
#include <v1model.p4>
{declarations}header h_t {{ {fields} }}
struct headers_t {{ h_t h; }}
struct meta_t {{ }}
parser P(packet_in pkt, out headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
    state start {{ pkt.extract(hdr.h); transition accept; }}
}}
control Nop(inout headers_t hdr, inout meta_t meta) {{ apply {{ }} }}
control Ing(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{
{ingress_locals}
    apply {{
{ingress}
    }}
}}
control Eg(inout headers_t hdr, inout meta_t meta, inout standard_metadata_t sm) {{ apply {{ {egress} }} }}
control Dep(packet_out pkt, in headers_t hdr) {{ apply {{ pkt.emit(hdr.h); }} }}
V1Switch(P(), Nop(), Ing(), Eg(), Nop(), Dep()) main;
"""


def compile_program(folder: Path, source: str, name: str) -> subprocess.CompletedProcess:
    """`p4odp compile` of `source`, written to `folder/name`, into `folder/out`."""
    (folder / name).write_text(source)
    return subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(folder / name), "-o", str(folder / "out")],
                          capture_output=True, text=True)


def build_switch(folder: Path, source: str, name: str) -> Path:
    """The switch binary of `source`, which must compile."""
    build = compile_program(folder, source, name)
    assert build.returncode == 0, build.stderr
    return folder / "out" / "switch"


def run_on_frames(switch: Path, folder: Path, frames: list[bytes], *options: str) -> subprocess.CompletedProcess:
    """The switch run with `options` until it has forwarded `frames` from port 0 (folder/in.pcap) to
    port 1 (folder/out.pcap)."""
    write_pcap(str(folder / "in.pcap"), frames)
    return subprocess.run([str(switch), *options, "--exit-when-done", "-i", f"0=pcap:in={folder / 'in.pcap'}",
                           "-i", f"1=pcap:out={folder / 'out.pcap'}"], capture_output=True, text=True, timeout=60)


def run_with_commands(switch: Path, folder: Path, commands: str, frames: list[bytes]) -> subprocess.CompletedProcess:
    """run_on_frames with `commands` as the switch's --commands file (folder/commands.txt)."""
    (folder / "commands.txt").write_text(commands)
    return run_on_frames(switch, folder, frames, "--commands", str(folder / "commands.txt"))


def start_switch(switch: Path, folder: Path, address: str, frames: tuple = (bytes([7]) + bytes(59),),
                 options: tuple = ()) -> subprocess.Popen:
    """The switch (run with `options` too) replaying `frames` forever into port 0 (folder/in.pcap)
    with its control channel at `address`, once the channel answers."""
    write_pcap(str(folder / "in.pcap"), list(frames))
    process = subprocess.Popen([str(switch), "--control", address, "-i", f"0=pcap:in={folder / 'in.pcap'}:loops=0",
                                *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while True:
        try:
            SwitchChannel(address, timeout=5).close()
            return process
        except ChannelError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise AssertionError(f"the switch did not open its control channel: {process.stderr.read()}")
            time.sleep(0.05)


def eventually(condition, seconds: float = 10) -> bool:
    """Whether `condition()` holds within `seconds` (the switch forwards while the test watches)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def no_more_events(channel: SwitchChannel, wait: float) -> bool:
    """Whether, once the events received so far and those already on their way are dropped, none
    comes within `wait` seconds (after a command that stops them: digest_unlisten, a learned entry)."""
    channel.events.clear()
    while channel.next_event(timeout=0.3) is not None:  # those already on their way
        pass
    return channel.next_event(timeout=wait) is None
