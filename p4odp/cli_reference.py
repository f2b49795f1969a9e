"""The command-line reference of docs/cli.md, printed from `p4odp`'s argument parsers.

Each command's part of docs/cli.md lies between two markers,
`<!-- generated: p4odp NAME -->` and `<!-- end generated -->`, and holds what `p4odp NAME --help`
says: the usage, the description and a table of the arguments with their help texts.  So the
page and `--help` say the same, and `tests/docs/test_cli_reference.py` fails when they differ.

    python -m p4odp.cli_reference docs/cli.md     # rewrite the generated parts
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

__all__ = ["commands", "command_markdown", "option_strings", "update_page"]

BEGIN = "<!-- generated: p4odp {name} -->"
END = "<!-- end generated -->"
_BLOCK = re.compile(r"<!-- generated: p4odp (?P<name>[\w-]+) -->\n.*?<!-- end generated -->", re.S)


def commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The top-level parser (as "") and each command's, in the order `p4odp --help` lists them."""
    found = {"": parser}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def option_strings(parser: argparse.ArgumentParser) -> list[str]:
    """Every option string of a parser (`-o`, `--out`, ...), `-h`/`--help` left out."""
    return [s for a in parser._actions if not isinstance(a, argparse._HelpAction) for s in a.option_strings]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _argument(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    formatter = parser._get_formatter()
    if not action.option_strings:
        return f"`{formatter._metavar_formatter(action, action.dest)(1)[0]}`"
    if action.nargs == 0:
        return ", ".join(f"`{s}`" for s in action.option_strings)
    args = formatter._format_args(action, action.dest.upper())
    return ", ".join(f"`{s} {args}`" for s in action.option_strings)


def command_markdown(name: str, parser: argparse.ArgumentParser, summary: str = "") -> str:
    """The generated part of docs/cli.md for one command (name "" is `p4odp` itself)."""
    formatter = parser._get_formatter()
    usage = parser.format_usage().strip()
    usage = re.sub(r"\s+", " ", usage.removeprefix("usage: "))
    lines = ["```", usage, "```", ""]
    if parser.description or summary:
        lines += [_cell(parser.description or summary), ""]
    if parser.epilog:
        lines += [_cell(parser.epilog), ""]
    rows = [a for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))]
    if rows:
        lines += ["| argument | meaning |", "| --- | --- |"]
        for action in rows:
            help_text = formatter._expand_help(action) if action.help else ""
            lines.append(f"| {_argument(parser, action)} | {_cell(help_text)} |")
        lines.append("")
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            lines += ["| command | what it does |", "| --- | --- |"]
            for choice in action._choices_actions:
                lines.append(f"| [`{choice.dest}`](#p4odp-{choice.dest}) | {_cell(choice.help or '')} |")
            lines.append("")
    return "\n".join(lines)


def _summaries(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: choice.help or "" for choice in action._choices_actions}
    return {}


def render(text: str, parser: argparse.ArgumentParser) -> str:
    """The page with each generated part printed anew from the parsers."""
    parsers, summaries = commands(parser), _summaries(parser)

    def block(match: re.Match) -> str:
        name = match["name"]
        key = "" if name == "p4odp" else name
        if key not in parsers:
            raise KeyError(f"docs/cli.md names a command p4odp does not have: {name}")
        body = command_markdown(key, parsers[key], summaries.get(key, ""))
        return f"{BEGIN.format(name=name)}\n{body}\n{END}"

    return _BLOCK.sub(block, text)


def generated_names(text: str) -> list[str]:
    return [m["name"] for m in _BLOCK.finditer(text)]


def update_page(path: Path) -> bool:
    """Rewrite the generated parts of the page at path; True when it changed."""
    from p4odp.cli import build_parser

    old = path.read_text()
    new = render(old, build_parser())
    if new != old:
        path.write_text(new)
    return new != old


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/cli.md")
    print(f"{target}: {'rewritten' if update_page(target) else 'already current'}")
