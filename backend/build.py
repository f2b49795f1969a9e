"""The build driver: generated C + the runtime + an ODP implementation -> a switch binary."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Optional

from p4odp.backend.requirements import debian_hint
from p4odp.backend.runtime_cache import BuildFailure, build_key, compiler_identity, runtime_library
from p4odp.backend.target import SYSTEM_ODPS, Target, first_installed, header_folder
from p4odp.diagnostics import Diagnostics, InternalError, Loc

__all__ = ["BuildOptions", "build_switch", "runtime_dir"]

# Generated code leaves unused labels and parameters; they are not worth a warning.
# The runtime's sources compiled with each program rather than into the runtime library: the
# traffic manager, which calls the program's ingress and egress for every packet, and the table
# lookups the program calls.
PER_PACKET_SOURCES = ("tables.c", "traffic_manager.c")

GENERATED_CFLAGS = ("-Wno-unused-label", "-Wno-unused-parameter", "-Wno-unused-variable",
                    "-Wno-unused-but-set-variable")

# GCC for x86-64 inlines a memset or memcpy of a known 65 to about 200 bytes as `rep stos` or
# `rep movs` (corei7 and znver3 tunings alike), which takes about 24 ns on these AMD EPYC
# machines where vector stores take 4: the per-packet state (metadata, a header zeroed) is that
# size.  Vector loops up to 256 bytes, the C library beyond.  Clang does not use them so.
X86_GCC_STRING_OPS = ("-mmemset-strategy=vector_loop:256:noalign,libcall:-1:noalign",
                      "-mmemcpy-strategy=vector_loop:256:noalign,libcall:-1:noalign")

# A fuzz build (clang): coverage for libFuzzer and the sanitizers in every object, the runtime's
# and ODP's too; a sanitizer's first report stops the run (libFuzzer saves the input).  The
# runtime library's cache key includes them: a fuzz build never shares the switch's.
FUZZ_CFLAGS = ("-fsanitize=fuzzer-no-link,address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer")
FUZZ_LDFLAGS = ("-fsanitize=fuzzer",)


def valgrind_build_env() -> dict:
    """The environment for building a switch to run under valgrind: -march=native uses AVX-512 on
    a CPU that has it, and valgrind 3.19 decodes none."""
    return {**os.environ, "CFLAGS": f"{os.environ.get('CFLAGS', '')} -mno-avx512f"}


@dataclass
class BuildOptions:
    cc: Optional[str] = None
    odp_prefix: Optional[str] = None
    sysroot: Optional[str] = None
    verbose: bool = False
    extra_cflags: tuple = ()
    datapath: bool = False  # also build datapath.so, the program as a running switch loads it
    fuzz: bool = False  # build out/fuzzer instead of out/switch: the datapath under libFuzzer (runtime/fuzz)


_COMMAND_LINE = Loc("<command line>", 0, 0)

# A package's choice of machine, which comes after the target's flags and would override them:
# Debian's libdpdk.pc says -march=corei7 (its baseline), and a switch for x86-dpdk was built
# for a 2008 CPU instead of -march=native.  The package's own code was compiled when it was
# built; the switch compiles only its headers' inline functions.
PACKAGE_MACHINE_FLAGS = ("-march=", "-mtune=", "-mcpu=")


def runtime_dir() -> Path:
    return Path(str(resources.files("p4odp.runtime")))


def _odp_flags(target: Target, options: BuildOptions, diags: Diagnostics) -> Optional[tuple[list, list, list]]:
    """(cflags, sources, libs) of the ODP implementation to build against: --odp-prefix,
    else a system ODP the target accepts, else the bundled one with the target's packet I/O."""
    if options.odp_prefix:
        prefix = Path(options.odp_prefix)
        if not (prefix / "include" / "odp_api.h").exists():
            diags.error(_COMMAND_LINE, f"--odp-prefix {prefix}: no include/odp_api.h there")
            return None
        found = _system_odp(target.odp.system or SYSTEM_ODPS, str(prefix / "lib" / "pkgconfig"))
        if found is not None:
            return found
        return ([f"-I{prefix / 'include'}"], [], [f"-L{prefix / 'lib'}", f"-Wl,-rpath,{prefix / 'lib'}",
                                                     "-lodp-linux", "-latomic"])
    found = _system_odp(target.odp.system, None)
    if found is not None:
        return found
    return _bundled_odp(target, diags)


def _bundled_odp(target: Target, diags: Diagnostics) -> Optional[tuple[list, list, list]]:
    """The bundled ODP: its Makefile names the sources and defines of the target's packet I/O
    kinds; their libraries come from pkg-config and the target, their headers from the
    folders the target names."""
    odp = runtime_dir() / "odp"
    kinds = f"PKTIO={' '.join(target.odp.pktio)}"
    if shutil.which("make") is None:  # the machine's, not p4odp's, fault
        diags.error(_COMMAND_LINE, f"target {target.name}: the bundled ODP needs make, which is not on the PATH"
                                   f"{debian_hint(('make',))}")
        return None
    try:
        sources = _make(odp, "sources", kinds)
        defines = _make(odp, "defines", kinds)
    except (OSError, subprocess.CalledProcessError) as err:
        raise InternalError(f"cannot list the bundled ODP's sources with make: {err}") from err
    cflags = [f"-I{odp / 'include'}", "-DP4ODP_ODP_BUNDLED", *defines]
    libs = []
    for package in target.odp.pkg_config:
        result = subprocess.run(["pkg-config", "--cflags", "--libs", package], capture_output=True, text=True) \
            if shutil.which("pkg-config") else None
        if result is None or result.returncode != 0:
            diags.error(_COMMAND_LINE, f"target {target.name} needs {package}, which pkg-config does not find"
                                       f"{debian_hint(target.odp.debian)}")
            return None
        flags = result.stdout.split()
        cflags += [f for f in flags if not f.startswith(("-l", "-L", "-Wl", *PACKAGE_MACHINE_FLAGS))]
        libs += [f for f in flags if f.startswith(("-l", "-L", "-Wl"))]
    for header, variable in target.odp.headers:
        folder = header_folder(header, variable)
        if folder is None:
            diags.error(_COMMAND_LINE, f"target {target.name} needs {header}: set {variable} to the folder "
                                       f"that holds it{debian_hint(target.odp.debian)}")
            return None
        cflags.append(f"-I{folder}")
    return cflags, [str(odp / name) for name in sources], libs + list(target.odp.libraries)


def _make(folder: Path, goal: str, *variables: str) -> list[str]:
    return subprocess.run(["make", "-s", "-C", str(folder), goal, *variables], check=True, capture_output=True,
                          text=True).stdout.split()


def _system_odp(packages: tuple, search_path: Optional[str]) -> Optional[tuple[list, list, list]]:
    """A system ODP's flags from pkg-config (looking in `search_path` first), with an rpath
    so that the switch finds the library where it was installed."""
    env = dict(os.environ)
    if search_path:
        env["PKG_CONFIG_PATH"] = search_path + os.pathsep + env.get("PKG_CONFIG_PATH", "")
    package = first_installed(packages, env)
    if package is None:
        return None

    def ask(*what: str) -> list[str]:
        return subprocess.run(["pkg-config", *what, package], capture_output=True, text=True, env=env).stdout.split()

    libdir = ask("--variable=libdir")
    rpath = [f"-Wl,-rpath,{libdir[0]}"] if libdir else []
    return [f for f in ask("--cflags") if not f.startswith(PACKAGE_MACHINE_FLAGS)], [], ask("--libs") + rpath


# A `#line` with a file name: the generated C names itself after code that has `#line`s
# into the P4 source (transpiler/emit.py's line reset).
_LINE_DIRECTIVE = re.compile(r'^(#line \d+ )"((?:[^"\\]|\\.)*)"$', re.MULTILINE)


def _name_itself_in_full(text: str, name: str, path: Path) -> str:
    """`text`, to be written to `path`, with its `#line`s that name it `name` naming it by its
    full path, as the compiler is given it.  Debug information takes a relative name from
    the folder the compiler runs in (that of `p4odp compile`, from which the P4 file's
    relative name is right), not from the file's own: gdb, perf and callgrind would look
    for the generated glue in the wrong folder."""
    full = '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'
    return _LINE_DIRECTIVE.sub(lambda m: m.group(1) + full if m.group(2) == name else m.group(0), text)


def _string_op_flags(compiler: list[str]) -> list[str]:
    """X86_GCC_STRING_OPS when `compiler` is GCC compiling for x86-64."""
    version, machine = compiler_identity(tuple(compiler))
    return list(X86_GCC_STRING_OPS) if machine.startswith("x86_64") and "clang" not in version else []


def _program_unit(out_dir: Path, generated: list[str], per_packet: list[Path]) -> str:
    """switch.c: the generated files and the runtime's per-packet sources as one translation unit."""
    unit = out_dir / "switch.c"
    unit.write_text("/* Generated by p4odp: the program and the runtime's per-packet code (the traffic\n"
                    " * manager, the table lookups) compiled as one unit, so that the calls between them\n"
                    " * are direct and inlined.  Do not edit. */\n" +
                    "".join(f'#include "{path}"\n' for path in [*generated, *map(str, per_packet)]))
    return str(unit)


def build_switch(c_files: dict[str, str], out_dir: Path, target: Target, options: BuildOptions,
                 diags: Diagnostics) -> Optional[Path]:
    """Write `c_files` to `out_dir` and build `out_dir/switch` (and, with options.datapath,
    `out_dir/datapath.so`); None after reporting a failure.

    A running switch loads a datapath.so built against the same runtime (the same sources,
    per-packet ones too, compiler and flags: P4ODP_RUNTIME_BUILD, their key, says which) to replace its
    program (load_new_config_file).  The .so holds the program's unit alone, its symbols
    hidden but `p4odp_datapath`; it takes the runtime's functions from the switch, which
    exports them all (-rdynamic, the whole runtime library)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    generated = []
    for name, text in c_files.items():
        path = (out_dir / name).resolve()
        path.write_text(_name_itself_in_full(text, name, path))
        if name.endswith(".c"):
            generated.append(str(path))
    # The fuzzer's ports are null devices, which only the bundled ODP has.
    odp = _bundled_odp(target, diags) if options.fuzz else _odp_flags(target, options, diags)
    if odp is None:
        return None
    odp_cflags, odp_sources, odp_libs = odp
    rt = runtime_dir()
    per_packet = [rt / "core" / name for name in PER_PACKET_SOURCES]
    # A fuzz build's main is libFuzzer's, which calls runtime/fuzz's entry points.
    left_out = [*per_packet, rt / "core" / "main.c"] if options.fuzz else per_packet
    runtime_sources = sorted(str(p) for p in (rt / "core").glob("*.c") if p not in left_out)
    runtime_sources += sorted(str(p) for p in (rt / "tables").glob("*.c") if not p.name.startswith("bench"))
    if options.fuzz:
        runtime_sources += sorted(str(p) for p in (rt / "fuzz").glob("*.c"))
    generated = [_program_unit(out_dir, generated, per_packet)]
    binary = out_dir / ("fuzzer" if options.fuzz else "switch")
    toolchain = target.toolchain
    compiler = toolchain.compiler(options.cc)
    if options.sysroot and not Path(options.sysroot).is_dir():
        diags.error(_COMMAND_LINE, f"--sysroot {options.sysroot}: no such folder")
        return None
    sysroot = [f"--sysroot={options.sysroot}"] if options.sysroot else []
    cflags = ["-std=gnu11", "-pthread", *sysroot, *toolchain.all_cflags(), *GENERATED_CFLAGS, *options.extra_cflags,
              *(FUZZ_CFLAGS if options.fuzz else ()), f"-I{rt / 'include'}", f"-I{rt / 'core'}", *odp_cflags]
    if shutil.which(compiler[0]) is None:
        diags.error(_COMMAND_LINE, f"C compiler not found: {compiler[0]} (set CC or --cc)"
                                   f"{debian_hint(toolchain.debian)}")
        return None
    generated_stage = False  # False while the runtime library is built, True for the generated code and the link
    try:
        library = runtime_library(compiler, cflags, runtime_sources + odp_sources, rt, out_dir)
        generated_stage = True
        # The runtime a datapath.so must match: the library's sources and the per-packet ones.
        runtime_build = build_key(compiler, cflags, runtime_sources + odp_sources + list(map(str, per_packet)), rt)
        unit_cflags = [*cflags, *_string_op_flags(compiler), f'-DP4ODP_RUNTIME_BUILD="{runtime_build}"']
        commands = [[*compiler, *unit_cflags, "-rdynamic", "-o", str(binary), *generated, "-Wl,--whole-archive",
                     str(library), "-Wl,--no-whole-archive", *toolchain.all_ldflags(), *odp_libs,
                     *(FUZZ_LDFLAGS if options.fuzz else ())]]
        if options.datapath:
            commands.append([*compiler, *unit_cflags, "-DP4ODP_DATAPATH_LIBRARY", "-fPIC", "-shared",
                             "-fvisibility=hidden", "-o", str(out_dir / "datapath.so"), *generated])
        for command in commands:
            if options.verbose:
                sys.stderr.write(f"runtime library: {library}\n" + " ".join(command) + "\n")
            result = subprocess.run(command, capture_output=True, text=True)
            if result.returncode != 0:
                raise BuildFailure(command, result.stdout + result.stderr)
    except BuildFailure as failure:
        log = out_dir / "build.log"
        log.write_text(" ".join(failure.command) + "\n" + failure.output)
        first = next((line for line in failure.output.splitlines() if "error" in line), failure.output.strip()[:500])
        if "ld returned" in failure.output:  # the code compiled: what it links against is missing
            diags.error(Loc(str(binary), 0, 0),
                        f"linking the switch failed: {first}; a library the target's ODP needs is missing "
                        f"(for a cross-built ODP, --sysroot must hold its libraries); full log in {log}")
        elif generated_stage:  # the same compiler and flags built the runtime: the generated C is wrong
            diags.error(Loc(str(binary), 0, 0),
                        f"the C compiler failed (this is a p4odp bug when the program was accepted): {first}; "
                        f"full log in {log}")
        else:  # the runtime, or the compiler's command line: the toolchain or its flags
            diags.error(Loc(str(binary), 0, 0),
                        f"the C compiler failed on p4odp's runtime with this compiler and flags ({' '.join(compiler)}"
                        f"; --cc, CC, CROSS_COMPILE, CFLAGS, --sysroot): {first}; full log in {log}")
        return None
    if options.verbose and result.stderr:
        sys.stderr.write(result.stderr)
    (out_dir / "build.log").unlink(missing_ok=True)  # an earlier failure's, which this build has fixed
    os.chmod(binary, 0o755)
    return binary
