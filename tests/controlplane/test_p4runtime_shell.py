"""p4runtime-shell, the reference P4Runtime client, drives a running switch through `p4odp
runtime`: it sets the pipeline (P4Info from `p4odp compile --p4runtime-files`), inserts entries of
every match kind, reads them and a counter back, is refused a duplicate insert, deletes.
p4runtime-shell pins protobuf 3.20, so it runs from an environment of its own
(build/p4runtime-shell-VERSION, made once and kept), with shell_client.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import pip_environment

SHELL_VERSION = "0.0.6"
CLIENT = Path(__file__).with_name("shell_client.py")


@pytest.fixture(scope="module")
def shell_python() -> Path:
    """The Python of an environment with p4runtime-shell; a skip when it cannot be installed."""
    return pip_environment(f"p4runtime-shell-{SHELL_VERSION}", [f"p4runtime-shell=={SHELL_VERSION}"])


def test_p4runtime_shell_programs_a_running_switch(shell_python: Path, p4runtime_target: str,
                                                   p4runtime_binary: Path, tmp_path: Path):
    p4info = tmp_path / "p4info.txtpb"
    subprocess.run([sys.executable, "-m", "p4odp.cli", "compile", str(p4runtime_binary.parent.parent / "p4runtime.p4"),
                    "--emit", "p4info", "--p4runtime-files", str(p4info)], check=True)
    device_config = tmp_path / "device_config.bin"  # opaque to the server: any bytes
    device_config.write_bytes(b"p4odp")
    run = subprocess.run([str(shell_python), str(CLIENT), p4runtime_target, str(p4info), str(device_config)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    [classified] = seen["entries"]
    for field in ('exact {   value: "\\001" }', 'ternary {   value: "\\020"   mask: "\\360" }',
                  'range {   low: "\\001"   high: "\\n" }', 'optional {   value: "\\t" }'):
        assert field in classified
    assert seen["routes"] == ['field_id: 1 lpm {   value: "\\n\\001\\000\\000"   prefix_len: 16 } ']
    assert seen["packets"] > 10  # FRAME_1 hits the entry
    assert seen["duplicate"] == [6]  # ALREADY_EXISTS
    assert seen["routes_after_delete"] == 0
