"""The examples' switches under valgrind's memcheck: no invalid access, no use of an uninitialised
value, no leak (definite or indirect), whether a run ends with its pcap inputs or is stopped by
SIGTERM while forwarding, with a control channel client listening to digests and another program
swapped in and one loaded when it stops."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from one_header_switch import eventually

from p4odp.backend.build import valgrind_build_env
from p4odp.controlplane.channel import ChannelError, SwitchChannel
from support import require_debian

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
MEMCHECK = ["valgrind", "--tool=memcheck", "--error-exitcode=99", "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect", "--show-leak-kinds=definite,indirect"]


@pytest.fixture(autouse=True)
def valgrind():
    require_debian({"valgrind": "command -v valgrind"}, "the memcheck of the examples")


def build(example: str, folder: Path) -> Path:
    """The example's switch and datapath.so, in folder/example."""
    build = subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(EXAMPLES / example / f"{example}.p4"),
                            "-o", str(folder / example), "--datapath"],
                           capture_output=True, text=True, env=valgrind_build_env())
    assert build.returncode == 0, build.stderr
    return folder / example


def ports(folder: Path, input_pcap: Path, loops: str = "") -> list[str]:
    return ["-i", f"0=pcap:in={input_pcap}{loops}:out={folder / 'out0.pcap'}",
            *[arg for port in (1, 2, 3) for arg in ("-i", f"{port}=pcap:out={folder / f'out{port}.pcap'}")]]


@pytest.mark.parametrize("example", ["l2fwd", "l3fwd"])
def test_an_example_run_to_its_inputs_end_is_clean(example: str, tmp_path: Path):
    out = build(example, tmp_path)
    subprocess.run([sys.executable, str(EXAMPLES / example / "make_pcap.py"), str(tmp_path / "in.pcap")], check=True)
    run = subprocess.run([*MEMCHECK, str(out / "switch"), *ports(tmp_path, tmp_path / "in.pcap"), "--commands",
                          str(EXAMPLES / example / "commands.txt"), "--exit-when-done"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "ERROR SUMMARY: 0 errors" in run.stderr and "port  rx  tx" in run.stderr


def test_a_switch_stopped_while_forwarding_and_swapping_is_clean(tmp_path: Path):
    l2fwd, l3fwd = build("l2fwd", tmp_path), build("l3fwd", tmp_path)
    subprocess.run([sys.executable, str(EXAMPLES / "l2fwd" / "make_pcap.py"), str(tmp_path / "in.pcap")], check=True)
    address = f"unix:{tmp_path / 'control.sock'}"
    switch = subprocess.Popen([*MEMCHECK, str(l2fwd / "switch"), *ports(tmp_path, tmp_path / "in.pcap", ":loops=0"),
                               "--commands", str(EXAMPLES / "l2fwd" / "commands.txt"), "--control", address,
                               "-w", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        def reachable() -> bool:
            try:
                SwitchChannel(address, timeout=5).close()
                return True
            except ChannelError:
                return switch.poll() is not None
        assert eventually(reachable, 60) and switch.poll() is None
        with SwitchChannel(address) as listener, SwitchChannel(address) as loader:
            listener.listen("digest")
            loader.command(f"load_new_config_file {l3fwd / 'datapath.so'}")
            loader.command("table_add ipv4_lpm ipv4_forward 10.0.1.0/24 => 00:00:00:00:00:01 1")
            loader.command("swap_configs")
            time.sleep(1)
            loader.command(f"load_new_config_file {l2fwd / 'datapath.so'}")  # still loaded at the stop
            switch.send_signal(signal.SIGTERM)
            stderr = switch.communicate(timeout=120)[1]
    finally:
        if switch.poll() is None:
            switch.kill()
            switch.communicate()
    assert switch.returncode == 0, stderr
    assert "ERROR SUMMARY: 0 errors" in stderr and "port  rx  tx" in stderr
