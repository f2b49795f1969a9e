"""What tests need from the machine: Debian packages installed on demand, network namespaces,
virtual environments with the pip packages of other tools, the bundled ODP built with test
programs.

A test that needs a tool calls `require_debian` (or `require_target`): as root on
Debian (as CI runs) the missing packages are installed with apt-get; otherwise the
test is skipped, saying what is missing and how to get it.  Never a silent pass.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import importlib.util
import os
import shlex
import shutil
import socket
import subprocess
import sys
import sysconfig
import threading
import venv
from pathlib import Path

import pytest

from p4odp.backend.requirements import install_debian_packages, missing_packages

__all__ = ["crc16_arc", "require_command", "require_debian", "require_root", "require_target", "netns", "packet_socket",
           "load_script", "pip_environment", "venv_beside_this_one", "build_odp_programs", "LIBFUZZER_RUNTIME", "ODP_DIR", "SANITIZE",
           "SANITIZER_REPORTS"]

CHECKOUT = Path(__file__).resolve().parents[1]
ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_IGNORE_OUTGOING = 23
SO_RCVBUFFORCE = 33
CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)


def require_debian(packages: dict[str, str], why: str) -> None:
    """Make sure each package's check passes: `packages` maps a Debian package name to a
    shell command that succeeds once it is installed.  Installs what is missing as root,
    else skips the test with `why`."""
    missing = [name for name, check in packages.items() if not _passes(check)]
    if not missing:
        return
    installed, message = install_debian_packages(missing)
    if not installed:
        pytest.skip(f"{why}: missing {' '.join(missing)} ({message})")
    still = [name for name in missing if not _passes(packages[name])]
    if still:
        pytest.skip(f"{why}: {' '.join(still)} installed but not usable")


# What shows that libFuzzer's runtime is there (Debian's clang does not bring it).
LIBFUZZER_RUNTIME = "ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a"

# Commands the tests use that a Debian package provides when they are missing.
# (Cross compilers and emulators come with their target: require_target.)
COMMAND_PACKAGES = {"clang": ("clang",), "make": ("make",)}


def require_command(command: str) -> None:
    """Make sure `command` is on the PATH: installed as root from its Debian package (see
    COMMAND_PACKAGES), else the test is skipped, saying so."""
    if shutil.which(command):
        return
    packages = COMMAND_PACKAGES.get(command)
    if packages is None:
        pytest.skip(f"{command} not installed")
    require_debian({package: f"command -v {command}" for package in packages}, f"{command} not installed")


def require_target(name: str):
    """The target `name`, its build requirements met (installed as root when missing)."""
    target, missing = _target_with_needs(name)
    if missing:
        pytest.skip(missing)
    return target


@functools.cache
def _target_with_needs(name: str):
    """(target, why it cannot be used here or ""), found and installed once per process."""
    from p4odp.plugins import load_targets

    target = load_targets()["targets"].get(name)
    if target is None:
        return None, f"target {name} is not installed"
    missing = [r for r in target.requirements() if not r.found]
    if missing:
        install_debian_packages(missing_packages(missing))
        missing = [r for r in target.requirements() if not r.found]
    if missing:
        return target, f"target {name} cannot be used here: " + "; ".join(r.render() for r in missing)
    return target, ""


def require_root(why: str) -> None:
    """Root, and iproute2's `ip` for the network namespaces and veth pairs root tests make."""
    if os.geteuid() != 0:
        pytest.skip(f"{why} needs root")
    require_debian({"iproute2": "command -v ip"}, f"{why} needs the 'ip' command")


def load_script(path: Path, name: str):
    """The module of a script of the repository (a benchmark, a conformance harness) that is not in
    a package, imported under `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def pip_environment(name: str, requirements: list[str], *, beside_tests: bool = False) -> Path:
    """build/NAME, a virtual environment with `requirements` installed by pip, made by one test
    process while the others wait, and made anew when what it was made from changed; its python.
    beside_tests: it also sees the packages of the environment running the tests.  A skip, saying
    why, when pip cannot install them."""
    home = CHECKOUT / "build" / name
    python = home / "bin" / "python"
    home.parent.mkdir(exist_ok=True)
    made_from = f"{sys._base_executable} {sysconfig.get_path('purelib') if beside_tests else ''}"
    with open(home.parent / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        stamp = home / "installed"
        if not stamp.exists() or stamp.read_text() != made_from:
            if beside_tests:
                venv_beside_this_one(home)
            else:
                venv.create(home, with_pip=True, clear=True)
            install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                                      *requirements], capture_output=True, text=True, timeout=900)
            if install.returncode != 0:
                reason = (install.stderr.strip().splitlines() or ["pip failed"])[-1]
                pytest.skip(f"{' '.join(requirements)} cannot be installed here: {reason}")
            stamp.write_text(made_from)
    return python


def venv_beside_this_one(where: Path) -> Path:
    """A new virtual environment in `where` that also sees the packages of the one running the
    tests (p4odp's editable install among them); returns its python.  (venv's own
    system_site_packages would show the base Python's packages instead.)"""
    venv.create(where, with_pip=True, clear=True)
    python = where / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # This environment's site-packages as a site dir, so that its .pth files apply too.
    (Path(site) / "tests_site.pth").write_text(f"import site; site.addsitedir({sysconfig.get_path('purelib')!r})\n")
    return python


def _passes(command: str) -> bool:
    return subprocess.run(command, shell=True, capture_output=True).returncode == 0


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=30)


# IPv6 off in a network namespace, for the links made in it later too (without procps's sysctl,
# which a minimal Debian lacks; /proc/sys/net is the namespace's own).
DISABLE_IPV6 = ("if [ -d /proc/sys/net/ipv6 ]; then echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6; "
                "echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6; fi")


@contextlib.contextmanager
def netns(name: str):
    """A network namespace `name` without IPv6 chatter, removed afterwards (root only)."""
    try:
        _ip("netns", "add", name)
    except subprocess.CalledProcessError as err:
        pytest.skip(f"cannot create a network namespace: {err.stderr.strip()}")
    try:
        _ip("netns", "exec", name, "sh", "-ec", DISABLE_IPV6)
        _ip("-n", name, "link", "set", "lo", "up")
        yield name
    finally:
        _ip("netns", "del", name, check=False)


def packet_socket(ns: str, ifname: str, buffer: int = 16 << 20) -> socket.socket:
    """A raw packet socket on `ifname` of namespace `ns`, with room for `buffer` bytes of input
    and blind to what it sends.  Made by a thread that enters the namespace (setns changes
    only the calling thread); the socket stays in that namespace wherever it is used."""
    result = {}

    def make():
        try:
            fd = os.open(f"/var/run/netns/{ns}", os.O_RDONLY)
            try:
                if _libc.setns(fd, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), f"setns {ns}")
            finally:
                os.close(fd)
            sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
            sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, buffer)
            sock.setsockopt(SOL_PACKET, PACKET_IGNORE_OUTGOING, 1)
            sock.bind((ifname, 0))
            result["sock"] = sock
        except Exception as err:  # noqa: BLE001 - raised again in the caller's thread
            result["err"] = err

    thread = threading.Thread(target=make)
    thread.start()
    thread.join()
    if "err" in result:
        raise result["err"]
    return result["sock"]


ODP_DIR = CHECKOUT / "runtime" / "odp"
ODP_TEST_C = Path(__file__).resolve().parent / "runtime" / "c"
SANITIZE = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")


def build_odp_programs(out: Path, programs, *, cc: list[str], pktio: str = "", cflags=(), libs=(),
                       sanitize: bool = False, timeout: int = 120) -> Path:
    """Build the bundled ODP into out/libodp-bundled.a (make PKTIO=pktio, EXTRA_CFLAGS: -Werror, cflags,
    the sanitizers), then link each tests/runtime/c/PROG.c against it into out/PROG with cflags and libs.
    `programs`: names, or a dict of names to libraries that program alone needs. Returns out."""
    san = SANITIZE if sanitize else []
    subprocess.run(["make", "-j4", "-s", "-C", str(ODP_DIR), f"O={out}", f"PKTIO={pktio}", f"CC={shlex.join(cc)}",
                    f"EXTRA_CFLAGS={shlex.join(['-Werror', *cflags, *san])}"], check=True, timeout=timeout)
    lib = out / "libodp-bundled.a"
    # The packet I/O kinds' -D flags: the inline packet calls depend on them (a DPDK build's packets are mbufs).
    defines = subprocess.run(["make", "-s", "-C", str(ODP_DIR), "defines", f"PKTIO={pktio}"], check=True,
                             capture_output=True, text=True, timeout=timeout).stdout.split()
    for prog, extra in (programs.items() if isinstance(programs, dict) else ((p, []) for p in programs)):
        subprocess.run([*cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1", "-g", *san,
                        "-I", str(ODP_DIR / "include"), *defines, *cflags, str(ODP_TEST_C / f"{prog}.c"), str(lib),
                        *libs, *extra, "-lpthread", "-o", str(out / prog)], check=True, timeout=timeout)
    return out


RUNTIME_DIR = CHECKOUT / "runtime"
SANITIZER_ENV = {"ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0", "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1"}


def sanitizers_work(cc: list[str], tmp: Path, timeout: int = 300) -> bool:
    """Can `cc` build and run a program with SANITIZE?"""
    src = tmp / "san_probe.c"
    src.write_text("#include <stdlib.h>\nint main(void) { free(malloc(1)); return 0; }\n")
    build = subprocess.run([*cc, *SANITIZE, str(src), "-o", str(tmp / "san_probe")], capture_output=True,
                           timeout=timeout)
    return build.returncode == 0 and subprocess.run([str(tmp / "san_probe")], capture_output=True,
                                                    timeout=timeout).returncode == 0


def build_runtime_program(source: Path, out: Path, timeout: int = 300) -> tuple[Path, dict]:
    """A test program (tests/runtime/c/NAME.c, defining its own `p4odp_program`) linked with the
    runtime's sources (runtime/core but main.c, runtime/tables but the benchmark) and the bundled
    ODP's (as its Makefile lists them), with -Werror and, when the compiler has them,
    AddressSanitizer and UBSan.  As in a switch, the program and the runtime's per-packet sources
    are one translation unit (the traffic manager keeps the program's struct p4odp_packet_state in
    a local).  Returns (the program, the environment to run it in)."""
    from p4odp.backend.build import PER_PACKET_SOURCES

    cc = shlex.split(os.environ.get("CC", "cc"))
    require_command(cc[0])
    require_command("make")
    listed = subprocess.run(["make", "-s", "-C", str(ODP_DIR), "sources", "defines"], check=True,
                            capture_output=True, text=True, timeout=timeout).stdout.split()
    odp_sources = [str(ODP_DIR / word) for word in listed if word.endswith(".c")]
    defines = [word for word in listed if word.startswith("-D")]
    per_packet = [RUNTIME_DIR / "core" / name for name in PER_PACKET_SOURCES]
    unit = out / f"{source.stem}_unit.c"
    unit.write_text("".join(f'#include "{path}"\n' for path in (source, *per_packet)))
    runtime = sorted(str(p) for p in (RUNTIME_DIR / "core").glob("*.c") if p.name != "main.c" and p not in per_packet)
    runtime += sorted(str(p) for p in (RUNTIME_DIR / "tables").glob("*.c") if not p.name.startswith("bench"))
    sanitize = sanitizers_work(cc, out, timeout)
    prog = out / source.stem
    subprocess.run([*cc, "-std=gnu11", "-pthread", "-Wall", "-Wextra", "-Werror", "-O1", "-g",
                    *(SANITIZE if sanitize else []), "-I", str(RUNTIME_DIR / "include"),
                    "-I", str(RUNTIME_DIR / "core"), "-I", str(ODP_DIR / "include"), "-DP4ODP_ODP_BUNDLED",
                    *defines, str(unit), *runtime, *odp_sources, "-o", str(prog)], check=True, timeout=timeout)
    return prog, {**os.environ, **(SANITIZER_ENV if sanitize else {})}


def run_runtime_program(program: tuple[Path, dict], *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """Run a program of build_runtime_program: it must exit 0 with no sanitizer report."""
    prog, env = program
    proc = subprocess.run([str(prog), *args], capture_output=True, text=True, timeout=timeout, env=env)
    # The exit code first: a failed check exits early, and LeakSanitizer then reports what it left.
    assert proc.returncode == 0, (f"{prog.name} {' '.join(args)} exited {proc.returncode}\n"
                                  f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    for report in SANITIZER_REPORTS:
        assert report not in proc.stderr, f"{prog.name} {' '.join(args)}: sanitizer report:\n{proc.stderr}"
    return proc


def crc16_arc(data: bytes) -> int:
    """BMv2's crc16 (CRC-16/ARC)."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = crc >> 1 ^ 0xA001 if crc & 1 else crc >> 1
    return crc
