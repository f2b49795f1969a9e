"""The `p4odp` command line.

Exit codes, for every subcommand: 0 success, 1 the user's input has errors
(reported as positioned diagnostics), 2 an internal error of p4odp.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback

from p4odp import __version__, ir
from p4odp.diagnostics import CompileError, Diagnostics, InternalError

EXIT_OK, EXIT_USER_ERROR, EXIT_INTERNAL = 0, 1, 2

REPORT_LINE = "this is a bug in p4odp; please report it with the program that caused it"


def _add_frontend_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("program", help="the P4_16 source file")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                        help="add DIR to the include path (core.p4 and v1model.p4 are always found)")
    parser.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                        help="define a preprocessor macro")
    parser.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME",
                        help="undefine a preprocessor macro")
    parser.add_argument("--max-errors", type=int, default=50, metavar="N",
                        help="stop after N errors (default 50)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="p4odp", description="P4_16 to OpenDataPlane compiler")
    parser.add_argument("--version", action="version", version=f"p4odp {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="parse and type-check a program (front end only)")
    _add_frontend_options(check)
    check.set_defaults(run=run_check)

    compile_ = commands.add_parser("compile", help="compile a program")
    _add_frontend_options(compile_)
    compile_.add_argument("-o", dest="output", metavar="DIR", help="output folder (default: stdout for --emit)")
    compile_.add_argument("--emit", choices=["ir"], required=True,
                          help="what to produce: ir, the front end's IR as JSON "
                               "(switch binaries come with the target backends)")
    compile_.set_defaults(run=run_compile)
    return parser


def _frontend(args: argparse.Namespace, diags: Diagnostics):
    from p4odp.frontend import FrontendOptions, load_program

    options = FrontendOptions(args.include_dirs, args.defines, args.undefines)
    return load_program(args.program, options, diags)


def run_check(args: argparse.Namespace, diags: Diagnostics) -> int:
    _frontend(args, diags)
    return EXIT_USER_ERROR if diags.error_count else EXIT_OK


def run_compile(args: argparse.Namespace, diags: Diagnostics) -> int:
    program = _frontend(args, diags)
    if program is None:
        return EXIT_USER_ERROR
    text = json.dumps(ir.to_json(program), indent=1) + "\n"
    if args.output:
        os.makedirs(args.output, exist_ok=True)
        stem = os.path.splitext(os.path.basename(args.program))[0]
        with open(os.path.join(args.output, f"{stem}.ir.json"), "w", encoding="utf-8") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    diags = Diagnostics(max_errors=args.max_errors)
    try:
        status = args.run(args, diags)
    except CompileError:
        status = EXIT_USER_ERROR
    except KeyboardInterrupt:
        status = 130
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
