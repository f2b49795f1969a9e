"""The target plugin interface (backend/target.py, backend/targets): toolchain overrides, what a
target finds and misses, run wrappers, port naming for pcap runs, template overrides."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from p4odp.backend.runtime_cache import archiver_for
from p4odp.backend.target import OdpProvider, RunWrapper, Target, Toolchain
from p4odp.backend.targets import ARM64, ARMHF, NETMAP, X86, X86_DPDK, dpdk_pcap_vdevs
from p4odp.diagnostics import Diagnostics
from p4odp.frontend import FrontendOptions, load_program
from p4odp.plugins import load_targets
from p4odp.transpiler import generate_c

REPO = Path(__file__).resolve().parents[2]
BUILT_IN = {"x86", "x86-dpdk", "x86-xdp", "netmap", "arm64", "armhf"}


def p4odp(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "p4odp.cli", *args], capture_output=True, text=True, cwd=REPO,
                          env=env)


def test_built_in_targets_register_as_plugins():
    found = load_targets()
    assert BUILT_IN <= set(found["targets"]) and not found["broken"]
    assert found["targets"]["x86-dpdk"] is X86_DPDK


def test_compiler_overrides(monkeypatch):
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.delenv("CROSS_COMPILE", raising=False)
    assert ARM64.toolchain.compiler() == ["aarch64-linux-gnu-gcc"]
    monkeypatch.setenv("CROSS_COMPILE", "my-")
    assert ARM64.toolchain.compiler() == ["my-gcc"]
    monkeypatch.setenv("CC", "ccache clang")
    assert ARM64.toolchain.compiler() == ["ccache", "clang"]
    assert ARM64.toolchain.compiler("gcc-12") == ["gcc-12"]
    monkeypatch.setenv("CFLAGS", "-O3 -DX=1")
    assert ARM64.toolchain.all_cflags()[-2:] == ["-O3", "-DX=1"]


def test_requirements_say_what_is_missing_and_how_to_get_it(monkeypatch):
    monkeypatch.delenv("CC", raising=False)
    missing = Target("t", "test", toolchain=Toolchain(cc="no-such-cc-p4odp", debian=("gcc-x",)),
                     odp=OdpProvider(system=(), pkg_config=("no-such-lib-p4odp",), debian=("libx-dev",)),
                     run_wrapper=RunWrapper(("no-such-qemu-p4odp",), "QEMU_LD_PREFIX", ("qemu-user-static",)))
    needs = {r.what: r for r in missing.requirements()}
    assert not needs["C compiler"].found and "apt-get install gcc-x" in needs["C compiler"].render()
    assert not needs["no-such-lib-p4odp (pkg-config)"].found
    assert "libx-dev" in needs["no-such-lib-p4odp (pkg-config)"].render()
    assert not needs["runs under"].found and "qemu-user-static" in needs["runs under"].render()
    assert needs["ODP"].found and needs["ODP"].detail == "bundled (pcap, loop, socket-mmap)"


def test_headers_are_looked_up_where_the_variable_says(monkeypatch, tmp_path):
    monkeypatch.setenv("NETMAP_INCLUDE", str(tmp_path))
    header = [r for r in NETMAP.requirements() if r.what == "net/netmap_user.h"]
    assert not header[0].found and "set NETMAP_INCLUDE" in header[0].detail
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "netmap_user.h").write_text("")
    assert [r for r in NETMAP.requirements() if r.what == "net/netmap_user.h"][0].found


def test_run_prefix_uses_the_wrapper_and_the_sysroot(monkeypatch):
    monkeypatch.delenv("QEMU_LD_PREFIX", raising=False)
    assert X86.run_prefix() == ([], {})
    prefix, env = ARMHF.run_prefix()
    assert Path(prefix[0]).name in ("qemu-arm-static", "qemu-arm")
    assert env == {"QEMU_LD_PREFIX": "/usr/arm-linux-gnueabihf"}
    assert ARMHF.run_prefix("/my/sysroot")[1] == {"QEMU_LD_PREFIX": "/my/sysroot"}
    monkeypatch.setenv("QEMU_LD_PREFIX", "/users/root")  # the user's own setting beats the default
    assert ARMHF.run_prefix()[1] == {"QEMU_LD_PREFIX": "/users/root"}
    assert ARMHF.run_prefix("/my/sysroot")[1] == {"QEMU_LD_PREFIX": "/my/sysroot"}


def test_the_archiver_follows_the_compiler(monkeypatch, tmp_path):
    # A toolchain of its own on the PATH, whatever cross binutils the machine has.
    for tool in ("aarch64-linux-gnu-ar", "arm-linux-gnueabihf-ar"):
        (tmp_path / tool).write_text("#!/bin/sh\n")
        (tmp_path / tool).chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("AR", raising=False)
    assert archiver_for(["aarch64-linux-gnu-gcc"]) == "aarch64-linux-gnu-ar"
    assert archiver_for(["x86_64-linux-gnu-gcc"]) == "ar"  # no prefixed ar there
    assert archiver_for(["ccache", "arm-linux-gnueabihf-gcc", "-O2"]) == "arm-linux-gnueabihf-ar"
    assert archiver_for(["no-such-prefix-gcc"]) == "ar"
    monkeypatch.setenv("AR", "my-ar")
    assert archiver_for(["aarch64-linux-gnu-gcc"]) == "my-ar"


def test_dpdk_ports_are_vdevs_in_probe_order(tmp_path):
    files = {3: (tmp_path / "in3.pcap", tmp_path / "out3.pcap"), 1: (tmp_path / "in1.pcap", tmp_path / "out1.pcap")}
    ports = dpdk_pcap_vdevs(files)
    assert ports.names == {1: "0", 3: "1"}
    params = ports.env["ODP_PLATFORM_PARAMS"]
    assert "--no-huge" in params and "--no-shconf" in params
    assert params.index(f"net_pcap0,rx_pcap={tmp_path}/in1.pcap,tx_pcap={tmp_path}/out1.pcap") < \
        params.index(f"net_pcap1,rx_pcap={tmp_path}/in3.pcap,tx_pcap={tmp_path}/out3.pcap")
    assert X86.pcap_ports(files).names == {3: f"pcap:in={tmp_path}/in3.pcap:out={tmp_path}/out3.pcap",
                                           1: f"pcap:in={tmp_path}/in1.pcap:out={tmp_path}/out1.pcap"}


def _l2fwd_c(template_dirs: tuple = ()) -> str:
    diags = Diagnostics()
    source = str(REPO / "examples" / "l2fwd" / "l2fwd.p4")
    program = load_program(source, FrontendOptions([], [], []), diags)
    return generate_c(program, source, diags, template_dirs=template_dirs)["datapath.c"]


def test_a_target_template_replaces_the_built_in_one(tmp_path):
    (tmp_path / "target").mkdir()
    (tmp_path / "target" / "checksum.c.j2").write_text(
        "/* checksums of {{ program.source }} */\n"
        "static inline uint64_t p4_hash(enum p4odp_hash_algorithm algo, const uint8_t *buf, uint32_t len)\n"
        "{\n\treturn p4odp_hash(algo, buf, len);\n}\n")
    built_in, replaced = _l2fwd_c(), _l2fwd_c((str(tmp_path),))
    assert "/* checksums of " not in built_in and "/* checksums of " in replaced
    assert "p4_send(" in replaced and "p4_table_lookup(" in replaced  # the others stay built-in


def test_targets_command_lists_each_target_with_its_needs():
    listed = p4odp("targets")
    assert listed.returncode == 0, listed.stderr
    for name in BUILT_IN:
        assert f"\n{name}: " in "\n" + listed.stdout
    assert "    C compiler: " in listed.stdout and "    ODP: " in listed.stdout


def test_targets_install_rejects_an_unknown_target():
    result = p4odp("targets", "--install", "no-such-target")
    assert result.returncode == 1 and "unknown target 'no-such-target'" in result.stderr


def test_a_target_that_cannot_build_here_says_why(tmp_path):
    env = dict(os.environ, NETMAP_INCLUDE=str(tmp_path))  # no headers there
    result = p4odp("compile", "examples/l2fwd/l2fwd.p4", "--target", "netmap", "-o", str(tmp_path / "out"), env=env)
    assert result.returncode == 1, result.stderr
    assert "net/netmap_user.h: set NETMAP_INCLUDE" in result.stderr and "Traceback" not in result.stderr


def test_a_missing_compiler_is_an_error_not_a_crash(tmp_path):
    result = p4odp("compile", "examples/l2fwd/l2fwd.p4", "--cc", "no-such-cc-p4odp", "-o", str(tmp_path))
    assert result.returncode == 1 and "C compiler not found: no-such-cc-p4odp" in result.stderr


def test_which_system_odp_each_target_accepts():
    """A cross target never links the host's ODP; x86-dpdk takes only odp-dpdk."""
    assert X86.odp.system == ("libodp-linux", "libodp-dpdk")
    assert X86_DPDK.odp.system == ("libodp-dpdk",)
    assert ARM64.odp.system == ARMHF.odp.system == ()


def _plugin(tmp_path: Path, entries: dict[str, str], module: str) -> dict:
    """An installed distribution in tmp_path (on PYTHONPATH) publishing `entries` from `module`."""
    info = tmp_path / "p4odp_test_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: p4odp-test-plugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[p4odp.targets]\n" + "".join(f"{k} = p4odp_test_plugin:{v}\n"
                                                                        for k, v in entries.items()))
    (tmp_path / "p4odp_test_plugin.py").write_text(module)
    return dict(os.environ, PYTHONPATH=str(tmp_path))


def test_a_plugin_that_is_no_target_is_reported_broken(tmp_path):
    env = _plugin(tmp_path, {"not-a-target": "NOT"}, "NOT = 'x86'\n")
    listed = p4odp("targets", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "not-a-target: broken plugin: p4odp_test_plugin:NOT is a str, not a" in listed.stdout
    built = p4odp("compile", "examples/l2fwd/l2fwd.p4", "--target", "not-a-target", "-o", str(tmp_path / "o"),
                  env=env)
    assert built.returncode == 1 and "its plugin failed to load" in built.stderr, built.stderr


def test_an_error_in_a_target_template_points_at_it(tmp_path):
    for name, text in (("syntax", "{% if %}\n"), ("undefined", "/* */\nstatic int x = {{ no_such_thing }};\n")):
        (tmp_path / name / "target").mkdir(parents=True)
        (tmp_path / name / "target" / "checksum.c.j2").write_text(text)
    env = _plugin(tmp_path, {"syntax": "SYNTAX", "undefined": "UNDEFINED"},
                  "from p4odp.backend.target import Target\n"
                  f"SYNTAX = Target('syntax', 'x', template_dirs=({str(tmp_path / 'syntax')!r},))\n"
                  f"UNDEFINED = Target('undefined', 'x', template_dirs=({str(tmp_path / 'undefined')!r},))\n")
    result = p4odp("compile", "examples/l2fwd/l2fwd.p4", "--target", "syntax", "--emit", "c", "-o",
                   str(tmp_path / "o"), env=env)
    assert result.returncode == 1 and "internal error" not in result.stderr, result.stderr
    assert f"{tmp_path}/syntax/target/checksum.c.j2:1: error: in a template of the target" in result.stderr
    result = p4odp("stf", "examples/l3fwd/l3fwd.p4", "examples/l3fwd/l3fwd.stf", "--target", "undefined", env=env)
    assert result.returncode == 1 and "internal error" not in result.stderr, result.stderr
    assert f"{tmp_path}/undefined/target/checksum.c.j2:2: error: " in result.stderr
    assert "'no_such_thing' is undefined" in result.stderr


def test_stf_without_the_run_wrapper_says_what_to_install(tmp_path):
    env = _plugin(tmp_path, {"wrapped": "WRAPPED"},
                  "from p4odp.backend.target import Target, RunWrapper\n"
                  "WRAPPED = Target('wrapped', 'x', run_wrapper=RunWrapper(('no-such-qemu-p4odp',), '', ('qemu-x',)))\n")
    result = p4odp("stf", "examples/l3fwd/l3fwd.p4", "examples/l3fwd/l3fwd.stf", "--target", "wrapped", env=env)
    assert result.returncode == 1 and "internal error" not in result.stderr, result.stderr
    assert "runs the switch under no-such-qemu-p4odp, not found (Debian: apt-get install qemu-x)" in result.stderr


def test_stf_of_a_binary_this_machine_cannot_run_is_an_error(tmp_path, monkeypatch):
    """A switch built for another machine (here: a file that is no executable) is reported, not a crash."""
    import p4odp.stf.runner as runner

    def not_runnable(files, out_dir, *args):
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "switch").write_bytes(b"\x7fELF not for this machine")
        (out_dir / "switch").chmod(0o755)
        return out_dir / "switch"

    monkeypatch.setattr(runner, "build_switch", not_runnable)
    from p4odp.backend.build import BuildOptions

    diags = Diagnostics()
    source = str(REPO / "examples" / "l3fwd" / "l3fwd.p4")
    program = load_program(source, FrontendOptions([], [], []), diags)
    result = runner.run_stf(program, source, str(REPO / "examples" / "l3fwd" / "l3fwd.stf"), X86, BuildOptions(),
                            tmp_path, diags)
    assert result is None and any("cannot run the switch: Exec format error" in d.message for d in diags.items)


def test_make_is_a_requirement_of_the_bundled_odp(tmp_path, monkeypatch):
    import shutil

    which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None if name == "make" else which(name, *a, **k))
    needs = {r.what: r for r in X86_DPDK.requirements()}
    assert not needs["make"].found and "apt-get install make" in needs["make"].render()
    from p4odp.backend.build import BuildOptions, build_switch

    diags = Diagnostics()
    assert build_switch({"datapath.c": ""}, tmp_path, X86, BuildOptions(), diags) is None
    assert "needs make, which is not on the PATH (Debian: apt-get install make)" in diags.items[0].message


def test_a_missing_sysroot_is_an_error(tmp_path):
    result = p4odp("compile", "examples/l2fwd/l2fwd.p4", "--sysroot", str(tmp_path / "none"), "-o", str(tmp_path))
    assert result.returncode == 1 and f"--sysroot {tmp_path}/none: no such folder" in result.stderr


def test_a_bad_compiler_flag_is_not_called_a_p4odp_bug(tmp_path):
    env = dict(os.environ, CFLAGS="-fno-such-flag-p4odp", P4ODP_CACHE_DIR=str(tmp_path / "cache"))
    result = p4odp("compile", "examples/l2fwd/l2fwd.p4", "-o", str(tmp_path / "o"), env=env)
    assert result.returncode == 1, result.stderr
    assert "with this compiler and flags" in result.stderr and "p4odp bug" not in result.stderr


def test_a_build_that_succeeds_removes_an_earlier_failures_log(tmp_path):
    env = dict(os.environ, CFLAGS="-fno-such-flag-p4odp", P4ODP_CACHE_DIR=str(tmp_path / "cache"))
    assert p4odp("compile", "examples/l2fwd/l2fwd.p4", "-o", str(tmp_path / "o"), env=env).returncode == 1
    assert (tmp_path / "o" / "build.log").exists()
    result = p4odp("compile", "examples/l2fwd/l2fwd.p4", "-o", str(tmp_path / "o"))
    assert result.returncode == 0, result.stderr
    assert not (tmp_path / "o" / "build.log").exists()


def test_generated_c_that_does_not_compile_is_not_blamed_on_the_runtime(tmp_path):
    # The C the generator writes carries `#line`s to P4 files: where the compiler's error is says nothing.
    (tmp_path / "bad" / "target").mkdir(parents=True)
    (tmp_path / "bad" / "target" / "checksum.c.j2").write_text('#line 1 "l2fwd.p4"\nthis is not C;\n')
    env = _plugin(tmp_path, {"bad": "BAD"}, "from p4odp.backend.target import Target\n"
                                            f"BAD = Target('bad', 'x', template_dirs=({str(tmp_path / 'bad')!r},))\n")
    result = p4odp("compile", "examples/l2fwd/l2fwd.p4", "--target", "bad", "-o", str(tmp_path / "o"), env=env)
    assert result.returncode == 1 and "internal error" not in result.stderr, result.stderr
    assert "the C compiler failed (this is a p4odp bug when the program was accepted)" in result.stderr
    assert "on p4odp's runtime" not in result.stderr


def test_targets_into_a_closed_pipe_is_quiet():
    result = subprocess.run(f"{sys.executable} -m p4odp.cli targets | head -c1", shell=True, capture_output=True,
                            text=True, cwd=REPO)
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
