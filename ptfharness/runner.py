"""`p4odp ptf PROG.p4 TESTDIR`: PTF tests against a switch of the program, on veth pairs.

A network namespace of its own holds, for each port N, a veth pair: `swN`, the switch's port N
(socket-mmap), and `ptfN`, PTF's port N.  The switch runs in the namespace; a P4Runtime server
(this process) serves it on a unix socket, which the tests reach whatever their namespace (the
test parameter `grpcaddr`); PTF runs in the namespace.  Everything is removed at the end; the
folder of the build and the logs (the switch's, PTF's and its pcap) is kept with --keep.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from p4odp import ir
from p4odp.backend.build import BuildOptions, build_switch
from p4odp.backend.target import Target
from p4odp.diagnostics import Diagnostics, Loc

__all__ = ["PtfOptions", "run_ptf"]

CHANNEL_TIMEOUT = 20  # seconds for the switch to open its control channel
SETUP = Loc("<command line>", 0, 0)


@dataclass
class PtfOptions:
    test_dir: str
    tests: list[str]  # PTF's test specs (module.Class, module); none: all
    ports: int
    cpu_port: Optional[int]
    ptf: str  # the ptf command
    test_params: str  # more of PTF's --test-params
    keep: Optional[Path]
    build: BuildOptions


def run_ptf(program: ir.Program, program_path: str, target: Target, options: PtfOptions,
            diags: Diagnostics) -> Optional[int]:
    """PTF's exit status (0: every test passed), or None after reporting what kept the tests from
    running."""
    if os.geteuid() != 0:
        diags.error(SETUP, "p4odp ptf runs as root: it makes a network namespace and veth pairs")
        return None
    for tool in ("ip", options.ptf):
        if shutil.which(tool) is None:
            hint = " (pip install ptf scapy)" if tool == options.ptf else " (Debian: apt-get install iproute2)"
            diags.error(SETUP, f"{tool} not found{hint}")
            return None
    if not Path(options.test_dir).is_dir():
        diags.error(SETUP, f"{options.test_dir}: no such folder of PTF tests")
        return None
    if options.keep is not None:
        options.keep.mkdir(parents=True, exist_ok=True)
        return _run(program, program_path, target, options, options.keep, diags)
    with tempfile.TemporaryDirectory(prefix="p4odp-ptf-") as work:
        return _run(program, program_path, target, options, Path(work), diags)


def _run(program: ir.Program, program_path: str, target: Target, options: PtfOptions, work: Path,
         diags: Diagnostics) -> Optional[int]:
    from p4odp.transpiler import generate_c

    c_files = generate_c(program, program_path, diags, template_dirs=target.template_dirs)
    if c_files is None:
        return None
    binary = build_switch(c_files, work, target, options.build, diags)
    if binary is None:
        return None
    namespace = f"p4odp-ptf-{os.getpid()}"
    # SIGTERM ends the run as Ctrl-C does: through the cleanups below.
    previous = signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        try:
            _make_namespace(namespace, options.ports)
        except subprocess.CalledProcessError as err:
            diags.error(SETUP, f"cannot make network namespace {namespace}: {err.stderr.strip()}")
            return None
        return _with_switch(binary, namespace, options, work, diags)
    finally:
        subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        signal.signal(signal.SIGTERM, previous)


def _make_namespace(namespace: str, ports: int) -> None:
    """The namespace with its veth pairs up, IPv6 off on them (the kernel's neighbour discovery and
    MLD reports would be packets no test expects)."""
    script = ["ip link set lo up"]
    for port in range(ports):
        script += [f"ip link add sw{port} type veth peer name ptf{port}",
                   f"echo 1 > /proc/sys/net/ipv6/conf/sw{port}/disable_ipv6",
                   f"echo 1 > /proc/sys/net/ipv6/conf/ptf{port}/disable_ipv6",
                   f"ip link set sw{port} up", f"ip link set ptf{port} up"]
    subprocess.run(["ip", "netns", "add", namespace], check=True, capture_output=True, text=True)
    subprocess.run(["ip", "netns", "exec", namespace, "sh", "-ec", "; ".join(script)], check=True,
                   capture_output=True, text=True)


def _with_switch(binary: Path, namespace: str, options: PtfOptions, work: Path, diags: Diagnostics) -> Optional[int]:
    from p4odp.controlplane.channel import ChannelError, SwitchChannel
    from p4odp.controlplane.server import serve

    control = f"unix:{work / 'control.sock'}"
    argv = ["ip", "netns", "exec", namespace, str(binary), "--control", control]
    argv += [arg for port in range(options.ports) for arg in ("-i", f"{port}=sw{port}")]
    if options.cpu_port is not None:
        argv += ["--cpu-port", str(options.cpu_port)]
    with open(work / "switch.log", "w") as log:
        switch = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
    server = None
    try:
        deadline = time.monotonic() + CHANNEL_TIMEOUT
        while True:
            try:
                SwitchChannel(control, timeout=5).close()
                break
            except ChannelError:
                if switch.poll() is not None or time.monotonic() > deadline:
                    diags.error(SETUP, f"the switch did not start: {(work / 'switch.log').read_text().strip()}")
                    return None
                time.sleep(0.05)
        try:
            server = serve(control, f"unix:{work / 'p4runtime.sock'}")
        except (ChannelError, OSError) as err:
            diags.error(SETUP, f"cannot serve P4Runtime for the switch: {err}")
            return None
        params = f"grpcaddr='unix:{work / 'p4runtime.sock'}'"
        if options.cpu_port is not None:
            params += f";cpu_port={options.cpu_port}"
        if options.test_params:
            params += f";{options.test_params}"
        command = ["ip", "netns", "exec", namespace, options.ptf, "--test-dir", options.test_dir,
                   "--log-file", str(work / "ptf.log"), "--test-params", params]
        command += [arg for port in range(options.ports) for arg in ("--interface", f"{port}@ptf{port}")]
        sys.stdout.flush()
        return subprocess.run(command + options.tests).returncode
    finally:
        try:
            if server is not None:
                server.stop()
        finally:
            _stop(switch)


def _stop(switch: subprocess.Popen) -> None:
    """SIGINT, and SIGKILL when that is not enough within 10 s."""
    switch.send_signal(signal.SIGINT)
    try:
        switch.wait(timeout=10)
    except subprocess.TimeoutExpired:
        switch.kill()
        switch.wait()

