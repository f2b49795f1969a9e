"""The `p4odp` command line.

Exit codes, for every subcommand: 0 success, 1 the user's input has errors
(reported as positioned diagnostics), 2 an internal error of p4odp.  But for
`fuzz`, whose finding is a crash: 0 none, 1 a crash found, 2 any error.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import tempfile
import threading
import traceback
from pathlib import Path

from p4odp import __version__, ir
from p4odp.diagnostics import CompileError, Diagnostics, InternalError, Loc
from p4odp.runtime.limits import MAX_PORTS, MAX_WORKERS, PORT_NUMBERS

EXIT_OK, EXIT_USER_ERROR, EXIT_INTERNAL = 0, 1, 2

REPORT_LINE = "this is a bug in p4odp; please report it with the program that caused it"


def _add_frontend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("program", help="the P4 source file (P4_16, or P4_14 for v1model)")
    parser.add_argument("--std", choices=["p4-16", "p4-14"],
                        help="the language of the program (default: P4_14 where its declarations are P4_14's, "
                             "else P4_16); a P4_14 program is converted to v1model as p4c converts it")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="add DIR to the include path (the architectures' files, core.p4, v1model.p4, psa.p4, pna.p4, ..., are always found)")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="define a preprocessor macro")
    parser.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME",
                        help="undefine a preprocessor macro")
    parser.add_argument("--max-errors", type=int, default=50, metavar="N",
                        help="stop after N errors (default 50)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="p4odp", description="P4 to OpenDataPlane compiler: compiles P4_16 programs for v1model, PSA and PNA, and P4_14 ones, into "
                                  "software switches, and tests, measures and controls them.",
        epilog="`p4odp COMMAND --help` lists a command's options; docs/cli.md lists them all, with more on each "
               "(docs/ is the documentation: `mkdocs serve` shows it as a site).")
    parser.add_argument("--version", action="version", version=f"p4odp {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="parse and type-check a program (front end only)")
    _add_frontend_options(check)
    check.set_defaults(run=run_check)

    compile_ = commands.add_parser("compile", help="compile a program into a switch binary")
    _add_frontend_options(compile_)
    compile_.add_argument("-o", dest="output", metavar="DIR",
                          help="output folder (required unless --emit ir, which can print to stdout, or "
                               "--emit p4info)")
    compile_.add_argument("--target", default="x86", help="the target to build for (see `p4odp targets`)")
    compile_.add_argument("--no-line", action="store_true",
                          help="no #line directives back to the P4 source in the generated C")
    compile_.add_argument("--emit", choices=["ir", "c", "p4info"],
                          help="stop early: ir, the front end's IR as JSON; c, the generated C sources; p4info, "
                               "only the --p4runtime-files")
    compile_.add_argument("--p4runtime-files", metavar="FILE[,FILE]",
                          help="write the program's P4Info (p4c's names and ids) to each FILE: protobuf text "
                               "(.txtpb, .txt), JSON (.json) or binary protobuf (.bin)")
    compile_.add_argument("--datapath", action="store_true",
                          help="also build out/datapath.so: the program as a running switch of the same p4odp, "
                               "target and compiler loads it in place of its own (load_new_config_file, then "
                               "swap_configs; p4odp swap; P4Runtime SetForwardingPipelineConfig), and "
                               "out/datapath.json, its BMv2 JSON naming it (simple_switch_CLI's "
                               "load_new_config_file through p4odp thrift)")
    compile_.add_argument("--cc", help="the C compiler (default: $CC, else the target's)")
    compile_.add_argument("--odp-prefix", metavar="DIR", help="build against the ODP installed under DIR")
    compile_.add_argument("--sysroot", metavar="DIR", help="cross builds: the target's root folder (libraries, a "
                                                           "cross-built ODP), also used to run under qemu-user")
    compile_.add_argument("--dump-after", metavar="PASS|all",
                          help="write the IR after the midend pass PASS (or after each, all) as JSON: to "
                               "DIR/PROG.PASS.ir.json with -o DIR, else to stderr (stdout with --emit ir)")
    compile_.add_argument("--skip-pass", action="append", default=[], metavar="PASS",
                          help="do not run the midend pass PASS (repeatable)")
    compile_.add_argument("--validate-ir", action="store_true",
                          help="check the IR's invariants before the first midend pass and after each (for "
                               "p4odp's developers; also P4ODP_VALIDATE_IR=1)")
    compile_.add_argument("-v", "--verbose", action="store_true",
                          help="show what each midend pass did and the compiler commands")
    compile_.set_defaults(run=run_compile)

    stf = commands.add_parser("stf", help="run a p4c STF packet test on a program")
    _add_frontend_options(stf)
    stf.add_argument("test", help="the .stf file")
    stf.add_argument("--target", default="x86", help="the target to build for (see `p4odp targets`)")
    stf.add_argument("--cc", help="the C compiler (default: $CC, else the target's)")
    stf.add_argument("--keep", metavar="DIR", help="build and run in DIR and keep the pcaps, commands and switch")
    stf.add_argument("-w", "--workers", type=int, default=1, metavar="N",
                     help="run the switch with N workers (default 1; a pcap port has one input queue, so "
                          "worker 0 receives every packet: the outputs must not change)")
    stf.add_argument("--odp-prefix", metavar="DIR", help="build against the ODP installed under DIR")
    stf.add_argument("--sysroot", metavar="DIR", help="cross builds: the target's root folder, also used to run "
                                                      "the switch under qemu-user")
    stf.add_argument("-v", "--verbose", action="store_true", help="show the compiler commands")
    stf.set_defaults(run=run_stf)

    ptf = commands.add_parser(
        "ptf", help="run PTF tests against a switch of a program, on veth pairs (as root)",
        description="Build PROG for the x86 target and run it in a network namespace of its own, port N on a veth "
                    "pair whose other end, ptfN, is PTF's port N; serve it P4Runtime on a unix socket (the tests' "
                    "grpcaddr parameter; p4odp.ptfharness.base_test.P4RuntimeTest uses it); run PTF on the tests "
                    "of TESTDIR. The exit status is PTF's.")
    _add_frontend_options(ptf)
    ptf.add_argument("test_dir", metavar="TESTDIR", help="the folder of the PTF tests")
    ptf.add_argument("tests", nargs="*", metavar="TEST", help="the tests to run, as PTF names them (module.Class, "
                                                              "module); default all")
    ptf.add_argument("--ports", type=int, default=4, metavar="N", help="the switch's ports 0..N-1 (default 4)")
    ptf.add_argument("--cpu-port", type=int, metavar="N", help="the switch's CPU port (packet-in and packet-out)")
    ptf.add_argument("--ptf", default="ptf", metavar="CMD", help="the ptf command (default ptf, from the PATH)")
    ptf.add_argument("--test-params", default="", metavar="P",
                     help="more of PTF's --test-params (name='text';name=number)")
    ptf.add_argument("--keep", metavar="DIR", help="build and run in DIR and keep the logs: switch.log, ptf.log, "
                                                   "ptf.pcap")
    ptf.add_argument("--cc", help="the C compiler (default: $CC, else the target's)")
    ptf.add_argument("-v", "--verbose", action="store_true", help="show the compiler commands")
    ptf.set_defaults(run=run_ptf, target="x86")

    bench = commands.add_parser(
        "bench", help="measure the switch's packet rate per frame size on traffic replayed from memory, or its latency "
                      "under load",
        description="Build PROG for the target, then for each frame size run the switch with the traffic's input "
                    "ports replaying frames from memory (bundled ODP: pcap:in=F:loops=0:cache; x86-dpdk: net_pcap "
                    "with infinite_rx) and the other ports as sinks (null; x86-dpdk: net_null), and sample its "
                    "counters (SIGUSR1). Reports Mpps (median of the rounds and their spread), Gbit/s, cycles per "
                    "packet and the share of 10/25/40/100 GbE line rate with RFC 2544 framing (20 bytes of "
                    "preamble and gap per frame). Cycles per packet are derived, not counted: the workers' time "
                    "at the CPU's nominal frequency (cpufreq, else /proc/cpuinfo) divided by the packets.")
    _add_frontend_options(bench)
    bench.add_argument("--target", default="x86", help="the target to build for (see `p4odp targets`)")
    bench.add_argument("--commands", metavar="FILE", help="simple_switch_CLI commands run before forwarding")
    traffic = bench.add_mutually_exclusive_group()
    traffic.add_argument("--traffic", metavar="PCAP",
                         help="replay the frames of this pcap file, each padded or cut to the size (headers kept)")
    traffic.add_argument("--gen", metavar="SPEC", default="udp:flows=1024",
                         help="generate the frames: KIND[:KEY=VALUE,...], KIND eth, udp, tcp, udp6 or tcp6; keys "
                              "flows, seed, dst-mac, src-mac (MAC or MAC+N), vlan, dst-ip, src-ip (ADDR, ADDR+N or "
                              "ADDR/LEN), dst-port, src-port (P or P-Q), ttl (default udp:flows=1024; see README)")
    bench.add_argument("--sizes", metavar="LIST",
                       help="frame sizes in bytes, with the 4-byte FCS as RFC 2544 counts them (64..9216; default "
                            "64,128,256,512,1024,1280,1518, with --latency 64)")
    bench.add_argument("--workers", "-w", type=int, metavar="N",
                       help="the switch's worker threads (default 1, or one per CPU of --cpus)")
    bench.add_argument("--cpus", "-c", metavar="LIST", help="pin the workers to these CPUs, e.g. 1 or 0-1 (--latency: "
                                                             "the one worker's CPU, default the last one)")
    bench.add_argument("--seconds", type=float, default=5.0, metavar="S",
                       help="measuring time per size (default 5); --latency: per load, and for the maximum rate")
    bench.add_argument("--rounds", type=int, default=5, metavar="N",
                       help="rates per size, each over S/N seconds; the median is reported (default 5)")
    bench.add_argument("--warmup", type=float, default=1.0, metavar="S",
                       help="seconds of forwarding before the first sample (default 1)")
    bench.add_argument("--ports", default="0-3", metavar="LIST",
                       help="the P4 ports with an interface (default 0-3); the others drop what is sent to them")
    bench.add_argument("--in-ports", default="0", metavar="LIST",
                       help="the ports the traffic enters on, each replaying all of it (default 0); the other "
                            "ports are sinks")
    bench.add_argument("--no-hugepages", action="store_true",
                       help="x86-dpdk: run without hugepages (--no-huge), to compare; by default the switch runs on "
                            "2 MB hugepages, as DPDK is deployed, reserved and mounted when root (and said so)")
    bench.add_argument("--latency", action="store_true",
                       help="x86-dpdk: measure one-way latency under load instead: a generator of ours (DPDK, memif "
                            "links to the switch's ports, each on its own CPU) finds the maximum rate, then sends "
                            "at --loads of it and reports p50, p99, p99.9 and max; and the same through a minimal "
                            "forwarder in the switch's place (the baseline)")
    bench.add_argument("--loads", default="10,50,90", metavar="LIST",
                       help="--latency: the loads, in percent of the maximum rate (default 10,50,90)")
    bench.add_argument("--generator-cpu", type=int, metavar="C",
                       help="--latency: the generator's CPU (default the first one that is not the switch's)")
    bench.add_argument("--no-baseline", action="store_true", help="--latency: do not measure the baseline")
    bench.add_argument("--json", nargs="?", const="-", metavar="F",
                       help="write the results as JSON to F (standard output without F; the table then goes to "
                            "standard error)")
    bench.add_argument("--plot", metavar="F.png", help="plot Mpps and Gbit/s per size; --latency: the percentiles "
                                                       "per load and a histogram at 50%% (needs matplotlib: "
                                                       "pip install 'p4odp[bench]')")
    bench.add_argument("--skip-pass", action="append", default=[], metavar="PASS",
                       help="do not run the midend pass PASS (repeatable): what it is worth")
    bench.add_argument("--keep", metavar="DIR", help="build and run in DIR and keep the switch, the traffic's pcap "
                                                     "files and a run.sh per size")
    bench.add_argument("--cc", help="the C compiler (default: $CC, else the target's)")
    bench.add_argument("--sysroot", metavar="DIR", help="cross builds: the target's root folder, also used to run "
                                                        "the switch under qemu-user")
    bench.add_argument("-v", "--verbose", action="store_true", help="show the compiler commands")
    bench.set_defaults(run=run_bench)

    fuzz = commands.add_parser(
        "fuzz", help="fuzz the program's datapath with libFuzzer: arbitrary frames on arbitrary ports",
        description="Build PROG's datapath with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer (clang) "
                    "and feed it arbitrary frames on ports 0..N-1 (an input's first byte, modulo N, is the port), "
                    "its tables filled by the commands file as the switch's --commands fills them. A crash is "
                    "saved as a pcap of the frame with the switch command that replays it, which is run once. "
                    "Exit status: 0 no crash, 1 a crash found, 2 the program, the commands or the build failed.")
    _add_frontend_options(fuzz)
    fuzz.add_argument("--commands", metavar="FILE", help="simple_switch_CLI commands run before the first input")
    fuzz.add_argument("--seconds", type=float, default=60.0, metavar="N", help="fuzz for N seconds (default 60)")
    fuzz.add_argument("--corpus", metavar="DIR", help="libFuzzer's corpus: the inputs to start from, where it adds "
                                                      "those that reach new code (default OUT/corpus)")
    fuzz.add_argument("-o", "--out", metavar="DIR", help="the build, the corpus, the log and the reproducers "
                                                         "(default PROG-fuzz, PROG the program's name)")
    fuzz.add_argument("--ports", type=int, default=4, metavar="N", help="the ports frames arrive on (default 4)")
    fuzz.add_argument("--asserts", action="store_true",
                      help="check the program's assert() and assume(), as the switch's --asserts: a false one is "
                           "a crash")
    fuzz.add_argument("--target", default="x86", help="the target whose code to fuzz (native ones: see `p4odp "
                                                      "targets`)")
    fuzz.add_argument("--cc", help="the fuzzer's compiler: a clang with libFuzzer (default: $CC, else clang)")
    fuzz.add_argument("-v", "--verbose", action="store_true", help="show the compiler commands and libFuzzer's output")
    fuzz.set_defaults(run=run_fuzz)

    cli = commands.add_parser("cli", help="simple_switch_CLI commands against a running switch")
    cli.add_argument("--switch", metavar="ADDR", default=None,
                     help="the switch's control channel: unix:PATH or tcp:HOST:PORT (default unix:p4odp.sock, "
                          "the switch's own default in its run directory)")
    cli.add_argument("file", nargs="?", help="run the commands of FILE (default: standard input; a prompt when "
                                             "it is a terminal)")
    cli.add_argument("--digests", action="store_true",
                     help="print the digest messages the switch sends (`digest NAME VALUE...`) until interrupted")
    cli.add_argument("--packets", action="store_true",
                     help="print the packets the program sends to the CPU port (`packet_in HEX`; the switch's "
                          "--cpu-port) until interrupted")
    cli.add_argument("--idle", action="store_true",
                     help="print the entries idle past their timeout (table_set_timeout) as the switch reports "
                          "them (`idle_timeout TABLE HANDLE...`) until interrupted")
    cli.set_defaults(run=run_switch_cli)

    swap = commands.add_parser("swap", help="replace the program of a running switch without a lost packet")
    _add_frontend_options(swap)
    swap.add_argument("--switch", metavar="ADDR", default=None,
                      help="the switch's control channel: unix:PATH or tcp:HOST:PORT (default unix:p4odp.sock)")
    swap.add_argument("--commands", metavar="FILE",
                      help="simple_switch_CLI commands run on the new program before it forwards (its tables "
                           "start empty; a refused one cancels the swap)")
    swap.add_argument("--keep-state", action="store_true",
                      help="first write what the control plane wrote into the running program (entries, default "
                           "actions, action profile members and groups, meter configs, value sets) into the new "
                           "one, through the switch's typed API: all of it, or no swap")
    swap.add_argument("--target", default="x86", help="the switch's target (default x86): the new program is built "
                                                      "as the switch was")
    swap.add_argument("--cc", help="the C compiler that built the switch (default: $CC, else the target's)")
    swap.add_argument("--odp-prefix", metavar="DIR", help="the ODP the switch was built against")
    swap.add_argument("--sysroot", metavar="DIR", help="cross builds: the target's root folder the switch was "
                                                       "built with")
    swap.add_argument("-v", "--verbose", action="store_true", help="show the compiler commands")
    swap.set_defaults(run=run_swap)

    runtime = commands.add_parser("runtime", help="serve P4Runtime (gRPC) for a running switch")
    runtime.add_argument("--switch", metavar="ADDR", default=None,
                         help="the switch's control channel: unix:PATH or tcp:HOST:PORT (default unix:p4odp.sock)")
    runtime.add_argument("--grpc", metavar="HOST:PORT", default="127.0.0.1:9559",
                         help="where to serve P4Runtime (default 127.0.0.1:9559, as simple_switch_grpc)")
    runtime.add_argument("--device-id", type=int, default=0, metavar="N",
                         help="the device id controllers address (default 0, as simple_switch_grpc)")
    runtime.set_defaults(run=run_runtime)

    thrift = commands.add_parser("thrift", help="serve BMv2's Thrift API (simple_switch_CLI's) for a running switch")
    thrift.add_argument("--switch", metavar="ADDR", default=None,
                        help="the switch's control channel: unix:PATH or tcp:HOST:PORT (default unix:p4odp.sock)")
    thrift.add_argument("--thrift-port", type=int, default=9090, metavar="N",
                        help="the port to serve at (default 9090, as simple_switch)")
    thrift.add_argument("--thrift-ip", default="127.0.0.1", metavar="ADDR",
                        help="the address to serve at (default 127.0.0.1)")
    thrift.set_defaults(run=run_thrift)

    targets = commands.add_parser("targets", help="list the targets, what each finds here and what it misses")
    targets.add_argument("--install", nargs="+", metavar="TARGET", default=[],
                         help="install the Debian packages these targets miss (as root)")
    targets.set_defaults(run=run_targets)
    return parser


def _frontend(args: argparse.Namespace, diags: Diagnostics):
    from p4odp.frontend import FrontendOptions, load_program

    options = FrontendOptions(args.include_dirs, args.defines, args.undefines, args.std)
    return load_program(args.program, options, diags)


def run_check(args: argparse.Namespace, diags: Diagnostics) -> int:
    _frontend(args, diags)
    return EXIT_USER_ERROR if diags.error_count else EXIT_OK


def run_compile(args: argparse.Namespace, diags: Diagnostics) -> int:
    if args.emit not in ("ir", "p4info") and not args.output:
        diags.error(Loc("<command line>", 0, 0), "compile needs -o DIR")
        return EXIT_USER_ERROR
    p4runtime_files = [f for f in (args.p4runtime_files or "").split(",") if f]
    if args.emit == "p4info" and not p4runtime_files:
        diags.error(Loc("<command line>", 0, 0), "--emit p4info needs --p4runtime-files FILE")
        return EXIT_USER_ERROR
    if p4runtime_files:  # protobuf is loaded only by the compiles that need it
        from p4odp.controlplane.files import P4RUNTIME_SUFFIXES

        unknown = [name for name in p4runtime_files if not name.endswith(P4RUNTIME_SUFFIXES)]
        if unknown:
            diags.error(Loc("<command line>", 0, 0), f"{unknown[0]}: unknown P4Runtime file kind; known suffixes "
                                                     f"are {', '.join(P4RUNTIME_SUFFIXES)}")
            return EXIT_USER_ERROR
    loaded = _target_and_program(args, diags)
    if loaded is None:
        return EXIT_USER_ERROR
    target, program = loaded
    stem = os.path.splitext(os.path.basename(args.program))[0]
    if args.emit == "ir" and not args.dump_after:  # the front end's IR, before any pass
        text = json.dumps(ir.to_json(program), indent=1) + "\n"
        if args.output:
            os.makedirs(args.output, exist_ok=True)
            with open(os.path.join(args.output, f"{stem}.ir.json"), "w", encoding="utf-8") as out:
                out.write(text)
        else:
            sys.stdout.write(text)
        return EXIT_OK
    info = None  # the P4Info, of a compile that writes it or a datapath.so's BMv2 JSON
    if p4runtime_files or args.datapath and args.emit is None:
        from p4odp.controlplane.files import write_p4runtime_files
        from p4odp.controlplane.p4info import program_p4info

        info = program_p4info(program, diags)
        if info is None:
            return EXIT_USER_ERROR
    if p4runtime_files:
        try:
            write_p4runtime_files(info, p4runtime_files)
        except OSError as err:
            diags.error(Loc("<command line>", 0, 0), f"{err.filename}: cannot write: {err.strerror}")
            return EXIT_USER_ERROR
        if args.emit == "p4info":
            return EXIT_OK
    from p4odp.transpiler import generate_c
    from p4odp.transpiler.passes import PassOptions, midend

    passes = PassOptions(dump_after=args.dump_after, skip=args.skip_pass, verbose=args.verbose,
                         dump_dir=args.output, dump_stem=stem,
                         dump_stream=sys.stdout if args.emit == "ir" else None)
    passes.validate = passes.validate or args.validate_ir  # the environment may have set it already
    if args.emit == "ir":  # with --dump-after: the IR after that pass is the output
        return EXIT_OK if midend(program, diags, passes).program is not None else EXIT_USER_ERROR
    c_files = generate_c(program, args.program, diags, passes, line_directives=not args.no_line,
                         template_dirs=target.template_dirs)
    if c_files is None:
        return EXIT_USER_ERROR
    out_dir = Path(args.output)
    if args.emit == "c":
        out_dir.mkdir(parents=True, exist_ok=True)
        for name, text in c_files.items():
            (out_dir / name).write_text(text)
        return EXIT_OK
    from p4odp.backend.build import BuildOptions, build_switch

    options = BuildOptions(cc=args.cc, odp_prefix=args.odp_prefix, sysroot=args.sysroot, verbose=args.verbose,
                           datapath=args.datapath)
    binary = build_switch(c_files, out_dir, target, options, diags)
    if binary is None:
        return EXIT_USER_ERROR
    if args.datapath:
        from p4odp.controlplane.bmv2_json import bmv2_json

        (out_dir / "datapath.json").write_text(bmv2_json(info, str((out_dir / "datapath.so").resolve())))
    if args.verbose:
        sys.stderr.write(f"built {binary}\n")
    return EXIT_OK


def run_stf(args: argparse.Namespace, diags: Diagnostics) -> int:
    from p4odp.backend.build import BuildOptions
    from p4odp.stf.runner import run_stf as run_test

    loaded = _target_and_program(args, diags)
    if loaded is None:
        return EXIT_USER_ERROR
    target, program = loaded
    keep = Path(args.keep) if args.keep else None
    if not 1 <= args.workers <= MAX_WORKERS:
        diags.error(Loc("<command line>", 0, 0), f"--workers {args.workers}: expected 1..{MAX_WORKERS}")
        return EXIT_USER_ERROR
    options = BuildOptions(cc=args.cc, odp_prefix=args.odp_prefix, sysroot=args.sysroot, verbose=args.verbose)
    result = run_test(program, args.program, args.test, target, options, keep, diags, args.workers)
    if result is None:
        return EXIT_USER_ERROR
    sys.stdout.write(result.report + "\n")
    return EXIT_OK if result.passed else EXIT_USER_ERROR


def run_ptf(args: argparse.Namespace, diags: Diagnostics) -> int:
    from p4odp.backend.build import BuildOptions
    from p4odp.ptfharness.runner import PtfOptions, run_ptf as run

    if not 1 <= args.ports <= MAX_PORTS:
        diags.error(Loc("<command line>", 0, 0), f"--ports {args.ports}: expected 1..{MAX_PORTS}")
        return EXIT_USER_ERROR
    if args.cpu_port is not None and not args.ports <= args.cpu_port < PORT_NUMBERS:
        diags.error(Loc("<command line>", 0, 0), f"--cpu-port {args.cpu_port}: expected "
                                                 f"{args.ports}..{PORT_NUMBERS - 1}, a port without a veth")
        return EXIT_USER_ERROR
    loaded = _target_and_program(args, diags)
    if loaded is None:
        return EXIT_USER_ERROR
    target, program = loaded
    options = PtfOptions(args.test_dir, args.tests, args.ports, args.cpu_port, args.ptf, args.test_params,
                         Path(args.keep) if args.keep else None, BuildOptions(cc=args.cc, verbose=args.verbose))
    status = run(program, args.program, target, options, diags)
    return EXIT_USER_ERROR if status is None else status


def run_switch_cli(args: argparse.Namespace, diags: Diagnostics) -> int:
    from p4odp.controlplane.channel import DEFAULT_ADDRESS
    from p4odp.controlplane.cli import run_cli

    events = ("digest",) * args.digests + ("packet",) * args.packets + ("idle",) * args.idle
    return run_cli(args.switch or DEFAULT_ADDRESS, args.file, events)


def run_swap(args: argparse.Namespace, diags: Diagnostics) -> int:
    from p4odp.backend.build import BuildOptions, build_switch
    from p4odp.controlplane.channel import DEFAULT_ADDRESS
    from p4odp.controlplane.swap import swap_program
    from p4odp.transpiler import generate_c

    loaded = _target_and_program(args, diags)
    if loaded is None:
        return EXIT_USER_ERROR
    target, program = loaded
    c_files = generate_c(program, args.program, diags, template_dirs=target.template_dirs)
    if c_files is None:
        return EXIT_USER_ERROR
    options = BuildOptions(cc=args.cc, odp_prefix=args.odp_prefix, sysroot=args.sysroot, verbose=args.verbose,
                           datapath=True)
    # The switch reads the datapath.so when it loads it: the folder may go once it has.
    with tempfile.TemporaryDirectory(prefix="p4odp-swap-") as folder:
        if build_switch(c_files, Path(folder), target, options, diags) is None:
            return EXIT_USER_ERROR
        return swap_program(args.switch or DEFAULT_ADDRESS, Path(folder) / "datapath.so", args.commands,
                            args.keep_state)


def run_runtime(args: argparse.Namespace, diags: Diagnostics) -> int:
    from p4odp.controlplane.channel import DEFAULT_ADDRESS
    from p4odp.controlplane.server import serve

    switch = args.switch or DEFAULT_ADDRESS
    return _serve_until_stopped(diags, switch, f"--grpc {args.grpc}", lambda: serve(switch, args.grpc, args.device_id),
                                lambda server: f"p4odp runtime: P4Runtime for the switch at {switch} served at "
                                               f"{args.grpc}, device id {args.device_id}")


def run_thrift(args: argparse.Namespace, diags: Diagnostics) -> int:
    from p4odp.controlplane.channel import DEFAULT_ADDRESS
    from p4odp.controlplane.thrift_server import serve

    switch = args.switch or DEFAULT_ADDRESS
    return _serve_until_stopped(diags, switch, f"--thrift-ip {args.thrift_ip} --thrift-port {args.thrift_port}",
                                lambda: serve(switch, args.thrift_ip, args.thrift_port),
                                lambda server: f"p4odp thrift: BMv2's Thrift API for the switch at {switch} served "
                                               f"at {args.thrift_ip}:{server.port}")


def _serve_until_stopped(diags: Diagnostics, switch: str, address: str, start, started) -> int:
    """A server for the switch at `switch` (`start()`, which listens at `address`: the options
    that say where), serving until SIGINT or SIGTERM; `started(server)` is the line it says then."""
    from p4odp.controlplane.channel import ChannelError, CommandError

    stop = threading.Event()  # set by SIGINT or SIGTERM, from before the server starts
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    try:
        server = start()
    except (ChannelError, CommandError) as err:
        diags.error(Loc("<command line>", 0, 0), f"--switch {switch}: {err}")
        return EXIT_USER_ERROR
    except OSError as err:
        diags.error(Loc("<command line>", 0, 0), f"{address}: {err.strerror or err}")
        return EXIT_USER_ERROR
    sys.stderr.write(started(server) + "\n")
    try:
        stop.wait()
    finally:
        server.stop()
    return EXIT_OK


def run_bench(args: argparse.Namespace, diags: Diagnostics) -> int:
    from p4odp.backend.build import BuildOptions
    from p4odp.switchbench import report
    from p4odp.switchbench.runner import BenchOptions, parse_list, run_bench as run, run_latency
    from p4odp.switchbench.spec import SpecError, parse_spec
    from p4odp.switchbench.traffic import MAX_SIZE, MIN_SIZE
    from p4odp.transpiler.passes import PassOptions

    here = Loc("<command line>", 0, 0)
    default_sizes = "64" if args.latency else "64,128,256,512,1024,1280,1518"
    try:
        sizes = sorted(parse_list(args.sizes or default_sizes, "--sizes", MIN_SIZE, MAX_SIZE))
        loads = _parse_loads(args.loads)
        ports = parse_list(args.ports, "--ports", 0, 63)
        in_ports = parse_list(args.in_ports, "--in-ports", 0, 63)
        cpus = parse_list(args.cpus, "--cpus", 0, 1023) if args.cpus else []
        gen = parse_spec(args.gen) if not args.traffic else None
    except (ValueError, SpecError) as err:
        diags.error(here, str(err))
        return EXIT_USER_ERROR
    workers = args.workers if args.workers is not None else max(1, len(cpus))
    problems = [message for bad, message in [
        (workers < 1, f"--workers {workers}: at least 1"),
        (bool(cpus) and len(cpus) < workers, f"--cpus {args.cpus} gives {len(cpus)} CPU(s) for {workers} workers"),
        (not args.seconds > 0, f"--seconds {args.seconds:g}: more than 0"),
        (args.rounds < 1, f"--rounds {args.rounds}: at least 1"),
        (not args.warmup >= 0, f"--warmup {args.warmup:g}: 0 or more"),
        (args.latency and workers != 1, f"--latency runs one worker, not {workers}"),
    ] if bad]
    for path, what in ((args.program, "program"), (args.commands, "--commands"), (args.traffic, "--traffic")):
        if path is not None and not os.path.isfile(path):
            problems.append(f"{what} {path}: no such file")
    if problems:
        diags.error(here, problems[0])
        return EXIT_USER_ERROR
    if args.plot:
        try:
            report.check_plot()
        except report.PlotUnavailable as err:
            diags.error(here, str(err))
            return EXIT_USER_ERROR
    latency_options = None
    if args.latency:
        from p4odp.switchbench.latency import LatencyError, LatencyOptions, pick_cpus
        try:
            device_cpu, generator_cpu = pick_cpus(cpus[0] if cpus else None, args.generator_cpu)
        except LatencyError as err:
            diags.error(here, str(err))
            return EXIT_USER_ERROR
        latency_options = LatencyOptions(loads=tuple(loads), seconds=args.seconds, warmup=args.warmup,
                                         generator_cpu=generator_cpu, device_cpu=device_cpu)
    loaded = _target_and_program(args, diags)
    if loaded is None:
        return EXIT_USER_ERROR
    target, program = loaded
    options = BenchOptions(
        program=args.program, target=target,
        build=BuildOptions(cc=args.cc, sysroot=args.sysroot, verbose=args.verbose),
        commands=os.path.abspath(args.commands) if args.commands else None,
        traffic=args.traffic, gen=gen, sizes=sizes, workers=workers, cpus=args.cpus, seconds=args.seconds,
        warmup=args.warmup, rounds=args.rounds, ports=sorted(set(ports) | set(in_ports)), in_ports=in_ports,
        keep=Path(args.keep) if args.keep else None, passes=PassOptions(skip=args.skip_pass),
        hugepages=not args.no_hugepages, latency=latency_options, baseline=not args.no_baseline)
    if args.latency:
        result = run_latency(program, options, diags, _progress_printer(sys.stderr))
        show = (report.latency_table, report.latency_json, report.plot_latency)
    else:
        result = run(program, options, diags, _progress_printer(sys.stderr))
        show = (report.table, report.to_json, report.plot)
    if result is None:
        return EXIT_USER_ERROR
    table, to_json, plot = show
    if args.json == "-":
        sys.stderr.write(table(result))
        sys.stdout.write(to_json(result))
    else:
        sys.stdout.write(table(result))
        if args.json:
            Path(args.json).write_text(to_json(result))
    if args.plot:
        plot(result, args.plot)
    return EXIT_OK


def _parse_loads(text: str) -> list[float]:
    """'10,50,90' -> [10.0, 50.0, 90.0]; raises ValueError with a one-line message."""
    try:
        loads = [float(part) for part in text.split(",")]
    except ValueError:
        raise ValueError(f"--loads {text}: expected percentages such as 10,50,90") from None
    if not all(0 < load <= 100 for load in loads) or len(loads) > 16:
        raise ValueError(f"--loads {text}: 1 to 16 percentages, each more than 0 and at most 100")
    return loads


# p4odp fuzz's exit status: a crash is its finding, not an error of the user's input.
FUZZ_CLEAN, FUZZ_CRASH, FUZZ_ERROR = 0, 1, 2


def run_fuzz(args: argparse.Namespace, diags: Diagnostics) -> int:
    from p4odp.backend.build import BuildOptions
    from p4odp.backend.datapath_fuzzer import FuzzOptions, fuzz_program

    here = Loc("<command line>", 0, 0)
    problems = [message for bad, message in [
        (not args.seconds > 0, f"--seconds {args.seconds:g}: more than 0"),
        (not 1 <= args.ports <= MAX_PORTS, f"--ports {args.ports}: expected 1..{MAX_PORTS}"),
        (args.commands is not None and not os.path.isfile(args.commands), f"--commands {args.commands}: no such file"),
    ] if bad]
    if problems:
        diags.error(here, problems[0])
        return FUZZ_ERROR
    stem = os.path.splitext(os.path.basename(args.program))[0]
    options = FuzzOptions(seconds=args.seconds, out=Path(args.out or f"{stem}-fuzz"),
                          commands=Path(args.commands) if args.commands else None,
                          corpus=Path(args.corpus) if args.corpus else None, ports=args.ports, asserts=args.asserts,
                          build=BuildOptions(cc=args.cc, verbose=args.verbose))
    try:  # main() would make a CompileError exit status 1, a crash's here
        loaded = _target_and_program(args, diags)
        if loaded is None:
            return FUZZ_ERROR
        target, program = loaded
        result = fuzz_program(program, args.program, target, options, diags)
    except CompileError:
        return FUZZ_ERROR
    if result is None:
        return FUZZ_ERROR
    summary = (f"{result.execs} inputs in {result.seconds:g} s ({result.execs_per_s}/s), coverage {result.coverage} "
               f"edges, {result.features} features, corpus of {result.corpus}")
    crash = result.crash
    if crash is None:
        sys.stdout.write(f"p4odp fuzz: {args.program}: no crash: {summary}\n")
        return FUZZ_CLEAN
    sys.stdout.write(f"p4odp fuzz: {args.program}: crash: {crash.what}\n"
                     f"    after {summary}\n"
                     f"    reproducer: {crash.pcap} (the frame, received on port {crash.port}; libFuzzer's input: "
                     f"{crash.input})\n"
                     f"    replay on the switch: {shlex.join(crash.replay)}\n"
                     f"    replayed: {crash.replayed}\n"
                     f"    libFuzzer's report: {result.log}\n")
    return FUZZ_CRASH


def _progress_printer(stream):
    """progress(text, step) for the bench runner: on a terminal one line rewritten in place
    (cleared at the end of each step's line); elsewhere one line per finished step."""
    tty = stream.isatty()

    def progress(text: str, step: bool) -> None:
        if tty:
            stream.write(f"\r\x1b[K{text}" + ("\n" if step else ""))
        elif step:
            stream.write(f"p4odp bench: {text}\n")
        stream.flush()

    return progress


def _target_and_program(args: argparse.Namespace, diags: Diagnostics):
    """The target of --target and the program through the front end; None after reporting why not."""
    target = _target(args.target, diags)
    program = _frontend(args, diags) if target is not None else None
    return (target, program) if program is not None else None


def _target(name: str, diags: Diagnostics):
    from p4odp.plugins import load_targets

    found = load_targets()
    if name in found["targets"]:
        return found["targets"][name]
    if name in found["broken"]:
        diags.error(Loc("<command line>", 0, 0), f"target {name}: its plugin failed to load: {found['broken'][name]}")
    else:
        known = ", ".join(sorted(found["targets"])) or "none"
        diags.error(Loc("<command line>", 0, 0), f"unknown target '{name}' (known: {known})")
    return None


def run_targets(args: argparse.Namespace, diags: Diagnostics) -> int:
    from p4odp.backend.requirements import install_debian_packages, missing_packages
    from p4odp.plugins import load_targets

    found = load_targets()
    for name in args.install:
        target = found["targets"].get(name)
        if target is None:
            diags.error(Loc("<command line>", 0, 0), f"--install: unknown target '{name}'")
            return EXIT_USER_ERROR
        installed, message = install_debian_packages(missing_packages(target.requirements()))
        print(f"{name}: {message}")
        if not installed:
            return EXIT_USER_ERROR
    for name, target in sorted(found["targets"].items()):
        needs = target.requirements()
        missing = [r for r in needs if not r.found]
        state = "ready" if not missing else "builds here, cannot run here" \
            if missing == [target.wrapper_requirement()] else "cannot build here"
        print(f"{name}: {target.description} [{state}]")
        print(f"    interfaces: {target.interfaces}")
        for need in needs:
            print(f"    {need.render()}")
    for name, reason in sorted(found["broken"].items()):
        print(f"{name}: broken plugin: {reason}")
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    diags = Diagnostics(max_errors=getattr(args, "max_errors", 50))
    try:
        status = args.run(args, diags)
    except CompileError:
        status = EXIT_USER_ERROR
    except KeyboardInterrupt:
        status = 130
    except BrokenPipeError:  # `p4odp targets | head`: the reader is gone, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except (InternalError, Exception) as err:  # noqa: BLE001 - the one place a bug is reported
        diags.render()
        sys.stderr.write(f"p4odp: internal error: {err}\n{REPORT_LINE}\n")
        if os.environ.get("P4ODP_TRACEBACK"):
            traceback.print_exc()
        return EXIT_INTERNAL
    diags.render()
    return status


if __name__ == "__main__":
    sys.exit(main())
