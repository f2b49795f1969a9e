"""Tests of the bundled ODP's netmap packet I/O (make PKTIO=netmap, runtime/odp/pktio_netmap.c).

Build checks: no Debian package ships netmap's headers, so they come from a
netmap checkout (NETMAP_INCLUDE=.../netmap/sys) or the system include path;
without them the tests skip.  The library is built with -Wall -Wextra -Werror,
plain and with AddressSanitizer + UBSan, and tests/runtime/c/odp_test_netmap.c
links it.  Without the netmap kernel module (no /dev/netmap), opening a
netmap: or VALE name must fail cleanly: ODP_PKTIO_INVALID, a message saying
why, no crash or leak; malformed names are refused before netmap is asked.
"""

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from support import ODP_DIR, SANITIZER_REPORTS, build_odp_programs, require_command

TIMEOUT = 120
NOT_FOUND = ("netmap headers not found: set NETMAP_INCLUDE to the sys/ folder of a netmap checkout "
             "(no Debian package ships them)")


def netmap_cflags(cc: list[str]) -> list[str]:
    """-I flags for netmap's headers, or skip: NETMAP_INCLUDE, else the system include path."""
    include = os.environ.get("NETMAP_INCLUDE")
    if include:
        if not (Path(include) / "net" / "netmap_user.h").is_file():
            pytest.skip(f"{NOT_FOUND}; NETMAP_INCLUDE={include} has no net/netmap_user.h")
        return ["-I", str(Path(include).resolve())]
    probe = subprocess.run([*cc, "-E", "-x", "c", "-", "-o", os.devnull], input="#include <net/netmap_user.h>\n",
                           capture_output=True, text=True, timeout=TIMEOUT)
    if probe.returncode != 0:
        pytest.skip(NOT_FOUND)
    return []


@pytest.fixture(scope="module", params=["cc", "asan"])
def netmap_prog(request, tmp_path_factory):
    """odp_test_netmap linked with libodp-bundled.a built with PKTIO=netmap, plain or with sanitizers."""
    require_command("make")
    cc = shlex.split(os.environ.get("CC", "cc"))
    out = build_odp_programs(tmp_path_factory.mktemp(f"odp-netmap-{request.param}"), ["odp_test_netmap"],
                             cc=cc, pktio="netmap", cflags=netmap_cflags(cc),
                             sanitize=request.param == "asan", timeout=TIMEOUT)
    assert (out / "pktio_netmap.o").is_file()
    return out / "odp_test_netmap"


def run(prog: Path, *names: str) -> tuple[dict[str, str], str]:
    """Each name's line of output (name -> rest) and stderr; the program must exit 0."""
    proc = subprocess.run([str(prog), *names], capture_output=True, text=True, timeout=TIMEOUT)
    assert not any(r in proc.stderr for r in SANITIZER_REPORTS), proc.stderr
    assert proc.returncode == 0, f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    results = dict(line.split(": ", 1) for line in proc.stdout.splitlines())
    assert list(results) == list(names), proc.stdout
    return results, proc.stderr


def test_make_lists_the_netmap_source():
    proc = subprocess.run(["make", "-s", "-C", str(ODP_DIR), "PKTIO=netmap", "sources", "defines"],
                          capture_output=True, text=True, check=True, timeout=TIMEOUT)
    assert "pktio_netmap.c" in proc.stdout.split()
    assert "-DODP_BUNDLED_PKTIO_NETMAP" in proc.stdout.split()


def test_open_without_kernel_module_fails_cleanly(netmap_prog):
    if os.path.exists("/dev/netmap"):
        pytest.skip("the netmap kernel module is loaded here (/dev/netmap exists)")
    names = ["netmap:lo", "netmap:lo^", "netmap:lo-0", "vale0:1", "vale_p4odp:a{1"]
    results, stderr = run(netmap_prog, *names)
    assert results == {name: "invalid" for name in names}
    for name in names:
        # Taken by the netmap kind (not socket_mmap), with the reason.
        assert f"odp: netmap: {name}: cannot open the port: no /dev/netmap (load the netmap kernel module)" \
            in stderr, stderr


@pytest.mark.parametrize("name", ["netmap:", "netmap:lo/x", "netmap:lo@2", "netmap:-1",
                                  "vale0:", "vale-0:1", "netmap:" + "x" * 16, "netmap:lo-", "netmap:lo-x",
                                  "netmap:lo^1", "vale0:1{"])
def test_malformed_names_are_refused(netmap_prog, name):
    results, stderr = run(netmap_prog, name)
    assert results == {name: "invalid"}
    assert f"odp: netmap: '{name}': expected netmap:IFNAME or valeX:Y" in stderr, stderr
