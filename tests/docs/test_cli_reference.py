"""docs/ against the command lines it documents: the generated blocks of docs/cli.md are what the
argument parsers print (p4odp/cli_reference.py; `pytest --update-golden` or
`python -m p4odp.cli_reference docs/cli.md` rewrites them), every option of every `p4odp` command is
in docs/cli.md, and every option and command of the switch binary is in docs/switch.md."""

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from p4odp import cli_reference
from p4odp.cli import build_parser

REPO = Path(__file__).resolve().parents[2]
CLI_PAGE = REPO / "docs" / "cli.md"
SWITCH_PAGE = REPO / "docs" / "switch.md"
SWITCH_MAIN = REPO / "runtime" / "core" / "main.c"


def test_generated_blocks_are_current(request):
    text = CLI_PAGE.read_text()
    current = cli_reference.render(text, build_parser())
    if request.config.getoption("--update-golden"):
        CLI_PAGE.write_text(current)
    assert text == current, ("docs/cli.md differs from the argument parsers: run "
                             "`python -m p4odp.cli_reference docs/cli.md` (or pytest --update-golden), then review")


def test_every_command_has_a_generated_block():
    names = cli_reference.generated_names(CLI_PAGE.read_text())
    expected = ["p4odp", *[name for name in cli_reference.commands(build_parser()) if name]]
    assert sorted(names) == sorted(expected)
    for name in expected[1:]:
        assert f"## p4odp {name}\n" in CLI_PAGE.read_text(), f"docs/cli.md has no section for p4odp {name}"


@pytest.mark.parametrize("command", [name for name in cli_reference.commands(build_parser())], ids=lambda n: n or "p4odp")
def test_every_option_is_documented(command: str):
    parser = cli_reference.commands(build_parser())[command]
    text = CLI_PAGE.read_text()
    # The section of that command: from its heading to the next one of its level.
    heading = f"## p4odp {command}\n" if command else "## p4odp\n"
    section = text[text.index(heading):]
    nxt = section.find("\n## ", 1)
    section = section[:nxt] if nxt > 0 else section
    missing = [option for option in cli_reference.option_strings(parser)
               if not re.search(rf"`{re.escape(option)}[` =\[]", section)]
    assert not missing, f"p4odp {command}: options missing from its section of docs/cli.md: {missing}"


def test_help_texts_are_not_empty():
    empty = [(name or "p4odp", action.option_strings or action.dest)
             for name, parser in cli_reference.commands(build_parser()).items()
             for action in parser._actions
             if not action.help and not isinstance(action, argparse._SubParsersAction)]
    assert not empty, f"arguments without a help text (--help and docs/cli.md would say nothing): {empty}"


def switch_options() -> list[str]:
    """The switch binary's options, from its getopt_long table and short-option string."""
    source = SWITCH_MAIN.read_text()
    table = re.search(r"struct option options\[\] = \{(.*?)\};", source, re.S)[1]
    longs = [f"--{name}" for name in re.findall(r'\{\s*"([\w-]+)"', table)]
    shorts = re.search(r'getopt_long\(argc, argv, "([^"]+)"', source)[1]
    return longs + [f"-{c}" for c in shorts if c != ":"]


def switch_commands() -> list[str]:
    """The simple_switch_CLI commands the switch takes: its command tables in runtime/core/cli*.c."""
    names = []
    for path in sorted((REPO / "runtime" / "core").glob("cli*.c")):
        names += re.findall(r'\{\s*"(\w+)",\s*cmd_\w+', path.read_text())
    return names


def test_switch_sources_are_parsed():
    assert {"--commands", "--control", "--workers", "-i", "-w", "-c"} <= set(switch_options())
    assert {"table_add", "mc_mgrp_create", "counter_read"} <= set(switch_commands())


def test_every_switch_option_is_documented():
    text = SWITCH_PAGE.read_text()
    missing = [o for o in switch_options() if not re.search(rf"`{re.escape(o)}[` ]", text)]
    assert not missing, f"switch options (runtime/core/main.c) missing from docs/switch.md: {missing}"


def test_every_switch_command_is_documented():
    text = SWITCH_PAGE.read_text()
    missing = [c for c in switch_commands() if not re.search(rf"`{c}[` ]", text)]
    assert not missing, f"switch commands (runtime/core/cli*.c) missing from docs/switch.md: {missing}"


def bench_scripts() -> list[str]:
    """The developers' benchmark scripts: those `make bench` runs, and bench/plot_history.py."""
    makefile = (REPO / "Makefile").read_text()
    return sorted(set(re.findall(r"bench/(\w+)\.py", makefile)) | {"plot_history"})


def script_options(script: str) -> list[list[str]]:
    """The options a script's --help lists, each as its aliases (`-v`, `--verbose`)."""
    env = {**os.environ, "COLUMNS": "200"}
    run = subprocess.run([sys.executable, str(REPO / "bench" / f"{script}.py"), "--help"], capture_output=True,
                         text=True, timeout=120, env=env)
    assert run.returncode == 0, f"bench/{script}.py --help failed: {run.stderr}"
    options = []
    for line in run.stdout.splitlines():
        match = re.match(r"\s{2}(-[^\s,]+(?:\s[^\s-]\S*)?(?:,\s-[^\s,]+(?:\s[^\s-]\S*)?)*)", line)
        if match:
            aliases = re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", match[1])
            if not {"-h", "--help"} & set(aliases):
                options.append(aliases)
    return options


@pytest.mark.parametrize("script", bench_scripts())
def test_every_bench_script_option_is_documented(script: str):
    text = (REPO / "docs" / "benchmarking.md").read_text()
    section = text[text.index("## The benchmark scripts"):]
    assert f"bench/{script}.py" in section, f"docs/benchmarking.md does not list bench/{script}.py"
    options = script_options(script)
    assert options, f"bench/{script}.py --help: no option found (has its format changed?)"
    missing = [aliases for aliases in options
               if not any(re.search(rf"[\[|`] ?{re.escape(o)}[\]` ]", section) for o in aliases)]
    assert missing == [], f"bench/{script}.py: options missing from docs/benchmarking.md: {missing}"
